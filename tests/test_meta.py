"""The match header, ``MatchStarted.meta`` (docs/log-format.md, "The match header"): old logs
unchanged, bounded, never rule-bearing, shown by ``verify``, both viewers and the match list,
filtered by ``store list --meta`` and ``/api/matches?round=``."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

import adjudicator
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.meta import MAX_META_KEYS, MAX_META_VALUE
from adjudicator.core.store import MatchStore, digest_of
from adjudicator.replays.core import Replay
from adjudicator.replays.tui import ReplayApp
from adjudicator.replays.web import create_app
from adjudicator.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*/*.jsonl"))
@pytest.fixture
def anyio_backend():
    return "asyncio"


HEADER = {"event": "Spring Open", "round": "3", "table": "12", "judge": "R. Vale", "deck.ann": "REG-0042"}


def with_header(src: Path, dest: Path, meta: dict[str, str]) -> Path:
    lines = src.read_bytes().splitlines(keepends=True)
    first = json.loads(lines[0])
    first["meta"] = meta
    dest.write_bytes(json.dumps(first).encode() + b"\n" + b"".join(lines[1:]))
    return dest


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_old_logs_encode_byte_for_byte_and_keep_their_digest():
    for path in EXAMPLES:
        raw = path.read_bytes().split(b"\n", 1)[0].strip()
        log = read_log(path)
        assert msgspec.json.encode(log.setup) == raw, path
        assert log.setup.meta == {}


def test_the_header_is_never_rule_bearing(tmp_path):
    src = ROOT / "examples/colossus-order/illegal-CO-7.3-attacker-not-ready.jsonl"
    plain = adjudicator.read_log(src).verify()
    headed = adjudicator.read_log(with_header(src, tmp_path / "h.jsonl", HEADER)).verify()
    assert (headed.verdict, headed.violations) == (plain.verdict, plain.violations)
    # the digest of a match depends on its content: the header is content (a different match record)
    assert digest_of(read_log(tmp_path / "h.jsonl")) != digest_of(read_log(src))


@pytest.mark.parametrize("meta, why", [
    ({f"k{i}": "v" for i in range(MAX_META_KEYS + 1)}, f"at most {MAX_META_KEYS}"),
    ({"round": "x" * (MAX_META_VALUE + 1)}, f"at most {MAX_META_VALUE}"),
    ({"": "v"}, "a key is 1 to"),
])
def test_a_header_past_its_bounds_is_unreadable(tmp_path, meta, why):
    log = with_header(ROOT / "examples/kolossus/legal-chapter-1.jsonl", tmp_path / "m.jsonl", meta)
    r = cli("verify", str(log))
    assert r.exit_code == 2 and f"m.jsonl:1: meta: " in r.output and why in r.output, r.output


def test_a_header_of_numbers_names_the_field(tmp_path):
    log = with_header(ROOT / "examples/kolossus/legal-chapter-1.jsonl", tmp_path / "m.jsonl", {"round": 3})
    r = cli("verify", str(log))
    assert r.exit_code == 2 and "m.jsonl:1: meta[...]: expected `str`, got `int`" in r.output, r.output


def test_verify_shows_the_header(tmp_path):
    log = with_header(ROOT / "examples/logos/legal-open-picks.jsonl", tmp_path / "m.jsonl", HEADER)
    r = cli("verify", str(log))
    assert r.exit_code == 0
    assert "  header: event: Spring Open; round: 3; table: 12; judge: R. Vale; deck.ann: REG-0042" in r.output
    doc = json.loads(cli("verify", "--json", str(log)).output.splitlines()[0])
    assert doc["meta"] == HEADER
    assert "meta" not in json.loads(cli("verify", "--json", str(ROOT / "examples/logos/legal-open-picks.jsonl")).output.splitlines()[0])


@pytest.fixture
def headed_store(tmp_path):
    db = tmp_path / "m.db"
    logs = []
    for i, src in enumerate(["colossi/legal-2p-to-50-gold.jsonl", "logos/legal-open-picks.jsonl", "kolossus/legal-chapter-1.jsonl"]):
        meta = {"event": "Spring Open", "round": str(2 + i % 2)} if i < 2 else {}
        logs.append(with_header(ROOT / "examples" / src, tmp_path / f"{i}.jsonl", meta) if meta else ROOT / "examples" / src)
    assert cli("store", "import", "--db", str(db), *map(str, logs)).exit_code == 0
    return db


def test_store_list_filters_on_the_header(headed_store):
    db = str(headed_store)
    lines = cli("store", "list", "--db", db).output.splitlines()
    assert len(lines) == 3 and sum("[event: Spring Open; round:" in ln for ln in lines) == 2
    r = cli("store", "list", "--db", db, "--meta", "round=3")
    assert r.exit_code == 0 and len(r.output.splitlines()) == 1 and "logos" in r.output
    r = cli("store", "list", "--db", db, "--meta", "event=Spring Open", "--json")
    docs = [json.loads(x) for x in r.output.splitlines()]
    assert sorted(d["game"] for d in docs) == ["colossi", "logos"] and docs[0]["meta"]["event"] == "Spring Open"
    assert cli("store", "list", "--db", db, "--meta", "round=9").output == ""
    r = cli("store", "list", "--db", db, "--meta", "round")
    assert r.exit_code == 2 and "KEY=VALUE" in r.output


def test_the_match_list_filters_and_shows_the_header(headed_store):
    store = MatchStore(str(headed_store))
    try:
        with TestClient(create_app(store)) as c:
            every = c.get("/api/matches").json()
            assert len(every) == 3
            got = c.get("/api/matches", params={"round": "3"}).json()
            assert [m["game"] for m in got] == ["logos"] and got[0]["meta"] == {"event": "Spring Open", "round": "3"}
            assert len(c.get("/api/matches", params={"event": "Spring Open"}).json()) == 2
            assert len(c.get("/api/matches", params={"meta": "event=Spring Open", "round": "2"}).json()) == 1
            assert c.get("/api/matches", params={"meta": "nokey"}).status_code == 400
            one = c.get(f"/api/matches/{got[0]['match_id']}").json()
            assert one["meta"]["round"] == "3"
    finally:
        store.close()


@pytest.mark.anyio
async def test_the_terminal_viewer_shows_the_header(tmp_path):
    log = with_header(ROOT / "examples/colossi/legal-2p-to-50-gold.jsonl", tmp_path / "m.jsonl", HEADER)
    app = ReplayApp(Replay.from_file(log))
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        top = [s.text for s in app.screen._compositor.render_strips()]
        assert any("event: Spring Open; round: 3" in line for line in top)
