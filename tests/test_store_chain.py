"""The store keeps a sealed log's chain head (the hash of its last line) and a judge's result;
``store list``/``store show`` and the JSON API report them (docs/log-format.md, "The hash chain")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from adjudicator.core.kernel.log import line_hash, read_log, seal_lines
from adjudicator.core.store import MatchStore
from adjudicator.cli.main import main
from adjudicator.replays.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "examples" / "logos" / "legal-hidden-picks.jsonl"


def cli(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture()
def sealed(tmp_path: Path) -> Path:
    p = tmp_path / "sealed.jsonl"
    p.write_bytes(b"".join(ln + b"\n" for ln in seal_lines(LOG.read_bytes().splitlines())))
    return p


def test_the_store_keeps_the_chain_head_of_a_sealed_log(tmp_path: Path, sealed: Path) -> None:
    head = line_hash(sealed.read_bytes().splitlines()[-1])
    assert read_log(sealed).chain_head == head and read_log(LOG).chain_head is None
    with MatchStore(str(tmp_path / "a.db")) as st:
        sealed_id = st.import_file(sealed).match_id
        plain_id = st.import_file(LOG).match_id
        assert st.summary(sealed_id).chain_head == head
        assert st.summary(plain_id).chain_head is None
        assert {m.match_id: m.chain_head for m in st.matches()} == {sealed_id: head, plain_id: None}
    with MatchStore(str(tmp_path / "a.db")) as st:  # read back by a fresh store
        assert st.summary(sealed_id).chain_head == head
        assert st.summary(sealed_id).as_dict()["chain_head"] == head
        assert "chain_head" not in st.summary(plain_id).as_dict()


def test_store_show_list_and_the_json_api_report_it(tmp_path: Path, sealed: Path) -> None:
    head = line_hash(sealed.read_bytes().splitlines()[-1])
    db = tmp_path / "b.db"
    r = cli("store", "import", "--db", db, "--jobs", "2", sealed, LOG)  # the workers' path
    assert r.exit_code == 0, r.output
    sealed_id = r.output.splitlines()[0].split()[0]
    r = cli("store", "show", sealed_id, "--db", db)
    assert r.exit_code == 0 and r.output.rstrip().endswith(f"sealed: the stored log's last line hashes to {head}")
    doc = json.loads(cli("store", "show", sealed_id, "--db", db, "--json").output)
    assert doc["chain_head"] == head
    listed = [json.loads(ln) for ln in cli("store", "list", "--db", db, "--json").output.splitlines()]
    assert [d.get("chain_head") for d in listed] == [head, None]
    with MatchStore(str(db)) as st:
        client = TestClient(create_app(st))
        assert client.get(f"/api/matches/{sealed_id}").json()["chain_head"] == head
        assert [m["chain_head"] for m in client.get("/api/matches").json()] == [head, None]


def test_a_judges_result_is_the_stored_outcome(tmp_path: Path) -> None:
    path = ROOT / "examples" / "colossi" / "legal-judge-stands.jsonl"
    with MatchStore(str(tmp_path / "c.db")) as st:
        mid = st.import_file(path).match_id
        out = st.summary(mid).outcome
    ruled = [json.loads(ln) for ln in path.read_text().splitlines() if '"decision":"result"' in ln]
    assert out["winner"] == ruled[-1]["winner"] and out["reason"].startswith("judge's ruling on event")
