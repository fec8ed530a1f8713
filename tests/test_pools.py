"""User data by id and hash: card pools, Kolossus boards and Colossi islands given by directory
(``--pools``, ``ADJUDICATOR_POOLS``), pinned by ``pool_sha256`` / ``board_sha256``, kept by the
store and sent with a web upload (docs/log-format.md, "Data by id and hash"; docs/own-cards.md).

Each case copies a shipped data file under another id into a directory of the test, and a
complete shipped example log naming that id: the match verifies only through the directory.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from adjudicator.core.kernel import sources
from adjudicator.core.store import MatchStore
from adjudicator.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
GAMES = ROOT / "adjudicator" / "games"


def cli(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(main, list(args), env=env)


def sha_of(path: Path) -> str:
    return sources.sha256_of(sources.read_document(path))


def edit_description(path: Path, dest: Path | None = None, words: str = "Edited.") -> Path:
    """Another content: the file's description changed (TOML or JSON), in place or at ``dest``."""
    text = path.read_text()
    changed = re.sub(r'(description"?\s*[:=]\s*")', rf"\g<1>{words} ", text, count=1)
    assert changed != text
    out = dest or path
    out.write_text(changed)
    return out


def copy_log(src: Path, dest: Path, **setup: Any) -> Path:
    """``src`` with its MatchStarted changed: ``options.<k>`` for ``options_<k>``, else the field."""
    lines = src.read_bytes().splitlines()
    first = json.loads(lines[0])
    for k, v in setup.items():
        if k.startswith("options_"):
            first.setdefault("options", {})[k.removeprefix("options_")] = v
        else:
            first[k] = v
    dest.write_bytes(b"\n".join([json.dumps(first).encode(), *lines[1:]]) + b"\n")
    return dest


# -- the four games' data, copied under a user id -------------------------------------------------

def co_pool(d: Path, pool_id: str = "club") -> Path:
    text = (GAMES / "colossus_order" / "data" / "sample.toml").read_text()
    p = d / f"{pool_id}.toml"
    p.write_text(text.replace('pool = "sample"', f'pool = "{pool_id}"', 1))
    return p


def logos_pool(d: Path, pool_id: str = "league") -> Path:
    text = (GAMES / "logos" / "data" / "sample.toml").read_text()
    p = d / f"{pool_id}.toml"
    p.write_text(text.replace('pool = "sample"', f'pool = "{pool_id}"', 1))
    return p


def kolossus_board(d: Path, board_id: str = "our-table") -> Path:
    text = (GAMES / "kolossus" / "data" / "zikkurat-11.toml").read_text()
    assert 'board = "zikkurat-11"' in text
    p = d / f"{board_id}.toml"
    p.write_text(text.replace('board = "zikkurat-11"', f'board = "{board_id}"', 1))
    return p


def colossi_island(d: Path, island_id: str = "our-isle") -> Path:
    doc = json.loads((GAMES / "colossi" / "data" / "board-hex27.json").read_text())
    doc["name"] = island_id
    p = d / f"board-{island_id}.json"
    p.write_text(json.dumps(doc, indent=2))
    return p


#: game -> (write the data into a directory, the complete example, the MatchStarted fields naming it, pin field)
CASES = {
    "colossus-order": (co_pool, "colossus-order/legal-gem-complete.jsonl", {"pool": "club"}, "pool_sha256"),
    "logos": (logos_pool, "logos/legal-open-picks.jsonl", {"pool": "league"}, "pool_sha256"),
    "kolossus": (kolossus_board, "kolossus/legal-chapter-1.jsonl", {"options_board": "our-table"}, "board_sha256"),
    "colossi": (colossi_island, "colossi/legal-2p-to-50-gold.jsonl", {"options_board": "our-isle"}, "board_sha256"),
}


def kind_of(gid: str) -> str:
    """The kind of data a game's matches name: a card pool, or a board (Kolossus board, Colossi island)."""
    return "pool" if "pool" in CASES[gid][2] else "board"


def case(tmp_path: Path, gid: str, pin: bool = False) -> tuple[Path, Path, Path]:
    """(the data directory, the data file, the log naming it) for one game."""
    write, example, fields, pin_field = CASES[gid]
    d = tmp_path / "data"
    d.mkdir(exist_ok=True)
    f = write(d)
    extra = {pin_field: sha_of(f)} if pin else {}
    return d, f, copy_log(EX / example, tmp_path / f"{gid}.jsonl", **fields, **extra)


# -- verify ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("gid", list(CASES))
def test_a_complete_match_verifies_with_its_data_given_by_directory(tmp_path: Path, gid: str) -> None:
    d, f, log = case(tmp_path, gid)
    r = cli("verify", str(log))
    assert r.exit_code == 2, r.output
    data_id = f.stem.removeprefix("board-")
    assert f"'{data_id}'" in r.output and "searched: the shipped data" in r.output
    assert "/adjudicator/games/" not in r.output and "site-packages" not in r.output
    r = cli("verify", "--pools", str(d), str(log))
    assert r.exit_code == 0, r.output
    assert ": legal (" in r.output
    assert f"checked against {kind_of(gid)} '{data_id}' sha256 {sha_of(f)} from {f}" in r.output
    r = cli("verify", "--json", "--pools", str(d), str(log))
    doc = json.loads(r.output)
    assert doc["verdict"] == "legal" and doc["data"] == [
        {"kind": kind_of(gid), "id": data_id, "sha256": sha_of(f), "source": str(f)}]


@pytest.mark.parametrize("gid", list(CASES))
def test_a_pinned_match_refuses_edited_data(tmp_path: Path, gid: str) -> None:
    d, f, log = case(tmp_path, gid, pin=True)
    before = sha_of(f)
    assert cli("verify", "--pools", str(d), str(log)).exit_code == 0
    # the same content in the other format pins alike (a TOML file and a JSON file)
    if f.suffix == ".toml":
        doc = tomllib.loads(f.read_text())
        f.unlink()
        f = f.with_suffix(".json")
        f.write_bytes(msgspec.json.encode(doc))
        assert sha_of(f) == before
        assert cli("verify", "--pools", str(d), str(log)).exit_code == 0
    # an edit (a description changed) is another content: the pinned log is refused
    edit_description(f)
    after = sha_of(f)
    assert after != before
    r = cli("verify", "--pools", str(d), str(log))
    assert r.exit_code == 2, r.output
    assert "unreadable" in r.output and f"with sha256 {before}" in r.output
    assert str(d) in r.output and f"{f} has sha256 {after}" in r.output


def test_shipped_data_is_reported_and_may_be_pinned(tmp_path: Path) -> None:
    ex = EX / "colossus-order" / "legal-gem-complete.jsonl"
    sample = sha_of(GAMES / "colossus_order" / "data" / "sample.toml")
    r = cli("verify", str(ex))
    assert r.exit_code == 0 and f"checked against pool 'sample' sha256 {sample}\n" in r.output
    assert cli("verify", str(copy_log(ex, tmp_path / "p.jsonl", pool_sha256=sample))).exit_code == 0
    r = cli("verify", str(copy_log(ex, tmp_path / "q.jsonl", pool_sha256="0" * 64)))
    assert r.exit_code == 2 and f"shipped has sha256 {sample}" in r.output
    assert "/adjudicator/games/" not in r.output


@pytest.mark.parametrize("value, field, why", [
    ("../sample", "pool", "never a path"),
    ("/etc/passwd", "pool", "never a path"),
    ("x" * 65, "pool", "at most 64 characters"),
])
def test_an_id_is_never_a_path(tmp_path: Path, value: str, field: str, why: str) -> None:
    log = copy_log(EX / "colossus-order" / "legal-gem-complete.jsonl", tmp_path / "a.jsonl", pool=value)
    r = cli("verify", "--pools", str(tmp_path), str(log))
    assert r.exit_code == 2 and f":1: {field}: " in r.output and why in r.output, r.output


def test_a_malformed_pin_names_its_field(tmp_path: Path) -> None:
    log = copy_log(EX / "colossus-order" / "legal-gem-complete.jsonl", tmp_path / "a.jsonl", pool_sha256="ABC")
    r = cli("verify", str(log))
    assert r.exit_code == 2 and ":1: pool_sha256: a sha256 pin is 64 lowercase hex digits" in r.output, r.output


def test_two_different_files_with_one_id_are_an_error_naming_both(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    fa, fb = co_pool(a), co_pool(b)
    log = copy_log(EX / "colossus-order" / "legal-gem-complete.jsonl", tmp_path / "m.jsonl", pool="club")
    assert cli("verify", "--pools", str(a), "--pools", str(b), str(log)).exit_code == 0  # the same content
    edit_description(fb)
    r = cli("verify", "--pools", str(a), "--pools", str(b), str(log))
    assert r.exit_code == 2 and str(fa) in r.output and str(fb) in r.output and "two different card pools" in r.output
    # pinned, the one with that hash is taken wherever it is
    pinned = copy_log(log, tmp_path / "pinned.jsonl", pool_sha256=sha_of(fb))
    r = cli("verify", "--pools", str(a), "--pools", str(b), str(pinned))
    assert r.exit_code == 0 and f"from {fb}" in r.output, r.output


def test_per_game_subdirectory_and_environment(tmp_path: Path) -> None:
    sub = tmp_path / "shared" / "colossus-order"
    sub.mkdir(parents=True)
    f = co_pool(sub)
    log = copy_log(EX / "colossus-order" / "legal-gem-complete.jsonl", tmp_path / "m.jsonl", pool="club")
    r = cli("verify", str(log), env={sources.ENV: str(tmp_path / "shared")})
    assert r.exit_code == 0 and f"from {f}" in r.output, r.output


def test_workers_resolve_as_the_parent(tmp_path: Path) -> None:
    d, f, log = case(tmp_path, "colossus-order")
    other = copy_log(log, tmp_path / "other.jsonl", note="second")
    r = cli("verify", "--jobs", "2", "--json", "--pools", str(d), str(log), str(other))
    docs = [json.loads(line) for line in r.output.splitlines()]
    assert r.exit_code == 0, r.output
    assert [x["data"][0]["source"] for x in docs[:2]] == [str(f), str(f)]


def test_edits_between_commands_are_seen(tmp_path: Path) -> None:
    """Each command resolves afresh: an edited file is read again, not taken from a cache."""
    d, f, log = case(tmp_path, "colossus-order")
    first = json.loads(cli("verify", "--json", "--pools", str(d), str(log)).output)["data"][0]["sha256"]
    edit_description(f)
    second = json.loads(cli("verify", "--json", "--pools", str(d), str(log)).output)["data"][0]["sha256"]
    assert first != second == sha_of(f)


@pytest.mark.parametrize("args", [
    ["check", "{log}", "--at", "5", "--event", '{{"type":"DeckShuffled","player":"alice"}}'],
    ["legal", "{log}", "--at", "30"],
    ["state", "{log}", "--at", "30"],
    ["redact", "{log}", "--as", "alice"],
    ["seal", "{log}"],
])
def test_every_command_that_reads_logs_takes_pools(tmp_path: Path, args: list[str]) -> None:
    d, _f, log = case(tmp_path, "colossus-order")
    argv = [a.format(log=log) for a in args]
    assert cli(*argv).exit_code == 2
    r = cli(*argv, "--pools", str(d))
    assert r.exit_code in (0, 1), r.output  # check may rule the proposed event illegal: it was read
    assert "unreadable" not in r.output and "card pool" not in r.output


@pytest.mark.parametrize("command", [["verify"], ["check"], ["legal"], ["state"], ["seal"], ["redact"], ["replay"],
                                     ["serve"], ["store", "import"], ["store", "show"]])
def test_the_commands_that_read_logs_offer_pools(command: list[str]) -> None:
    r = cli(*command, "--help")
    assert r.exit_code == 0 and "--pools DIR" in r.output, r.output


def test_pools_must_be_a_directory(tmp_path: Path) -> None:
    r = cli("verify", "--pools", str(tmp_path / "nowhere"), str(EX / "colossus-order" / "legal-gem-complete.jsonl"))
    assert r.exit_code == 2 and "--pools" in r.output


# -- the store --------------------------------------------------------------------------------------

def data_streams(st: MatchStore) -> int:
    """How many contents the store keeps."""
    return sum(1 for e in st.app.recorder.select_notifications(start=1, limit=10_000)
               if e.topic == "adjudicator/data.stored/1")


@pytest.mark.parametrize("gid", list(CASES))
def test_store_import_keeps_the_data_so_the_match_shows_without_the_directory(tmp_path: Path, gid: str) -> None:
    d, f, log = case(tmp_path, gid)
    db = str(tmp_path / "s.db")
    r = cli("store", "import", "--db", db, "--pools", str(d), str(log))
    assert r.exit_code == 0 and "stored" in r.output, r.output
    mid = r.output.split()[0]
    shutil.rmtree(d)  # the directory is gone: the store has the content
    r = cli("store", "show", "--db", db, mid, "--at", "3")
    assert r.exit_code == 0, r.output
    r = cli("store", "list", "--db", db, "--json")
    entry = json.loads(r.output)
    assert entry["data"][0]["id"] == f.stem.removeprefix("board-")
    from adjudicator.cli.replay import load_replay

    with sources.using(sources.current()):  # the replay installs the match's data for the command: undone here
        rep = load_replay(mid[:8], db)
        assert len(rep.frames) == len(log.read_bytes().splitlines())
        assert rep.scene(len(rep.frames)).game == gid



def test_the_store_keeps_each_content_once_and_each_match_its_own_version(tmp_path: Path) -> None:
    d, f, log = case(tmp_path, "colossus-order")
    db = str(tmp_path / "s.db")
    second = copy_log(log, tmp_path / "second.jsonl", note="another match, same pool")
    assert cli("store", "import", "--db", db, "--pools", str(d), str(log), str(second)).exit_code == 0
    with MatchStore(db) as st:
        assert data_streams(st) == 1
    # the pool changes; a third match (unpinned) is checked against the new version
    old = sha_of(f)
    edit_description(f, words="Season two.")
    third = copy_log(log, tmp_path / "third.jsonl", note="season two")
    r = cli("store", "import", "--db", db, "--pools", str(d), str(third))
    assert r.exit_code == 0, r.output
    new_id = r.output.split()[0]
    shutil.rmtree(d)
    with MatchStore(db) as st:
        assert data_streams(st) == 2
        by_source = {m.source: m for m in st.matches()}
        assert by_source[str(log)].data[0]["sha256"] == old
        assert by_source[str(third)].data[0]["sha256"] not in (old, "")
        for m in st.matches():  # each stored match replays with the content it was checked against
            with sources.using(st.data_sources(m.match_id)):
                game, state = st.state_at(m.match_id)
                assert game.outcome(state) is not None
        assert st.summary(new_id).data[0]["sha256"] != old
    # a new log pinned to a stored content imports without any directory
    pinned = copy_log(log, tmp_path / "pinned.jsonl", pool_sha256=old, note="pinned")
    r = cli("store", "import", "--db", db, str(pinned))
    assert r.exit_code == 0 and "stored" in r.output, r.output
    # an unpinned one is ambiguous there: two versions of 'club' are kept
    r = cli("store", "import", "--db", db, str(copy_log(log, tmp_path / "loose.jsonl", note="loose")))
    assert r.exit_code == 2 and "2 versions of card pool 'club' are stored" in r.output, r.output


def test_store_import_jobs_resolve_as_the_parent(tmp_path: Path) -> None:
    d, f, log = case(tmp_path, "colossus-order")
    second = copy_log(log, tmp_path / "second.jsonl", note="second")
    db = str(tmp_path / "s.db")
    r = cli("store", "import", "--db", db, "--jobs", "2", "--pools", str(d), str(log), str(second))
    assert r.exit_code == 0 and r.output.count("stored") == 2, r.output
    with MatchStore(db) as st:
        assert data_streams(st) == 1
        assert {m.data[0]["sha256"] for m in st.matches()} == {sha_of(f)}
    # logs whose pool only the store keeps: the workers cannot see it, the writer imports them
    shutil.rmtree(d)
    more = [copy_log(log, tmp_path / f"more{i}.jsonl", note=f"more {i}", pool_sha256=sha_of_kept(db)) for i in range(2)]
    r = cli("store", "import", "--db", db, "--jobs", "2", *map(str, more))
    assert r.exit_code == 0 and r.output.count("stored") == 2, r.output


def sha_of_kept(db: str) -> str:
    with MatchStore(db) as st:
        return st.matches()[0].data[0]["sha256"]


# -- the web upload -----------------------------------------------------------------------------------

TOKEN = "pools-token"


def upload(c: TestClient, log: Path, *data: Path) -> Any:
    files = [("log", (log.name, log.read_bytes(), "application/x-ndjson"))]
    files += [("pool", (f.name, f.read_bytes(), "application/octet-stream")) for f in data]
    return c.post("/api/matches", files=files, headers={"authorization": f"Bearer {TOKEN}"})


@pytest.mark.parametrize("gid", list(CASES))
def test_web_upload_with_its_data(tmp_path: Path, gid: str) -> None:
    from adjudicator.replays.web.app import create_app

    d, f, log = case(tmp_path, gid, pin=True)
    with MatchStore(str(tmp_path / "web.db")) as st, TestClient(create_app(st, upload_token=TOKEN)) as c:
        r = upload(c, log)
        data_id = f.stem.removeprefix("board-")
        assert r.status_code == 400 and f"'{data_id}'" in r.json()["detail"], r.text
        r = upload(c, log, f)
        assert r.status_code == 201 and r.json()["verdict"] == "legal", r.text
        mid = r.json()["match_id"]
        r = c.get(f"/api/matches/{mid}/position", params={"at": 3})
        assert r.status_code == 200, r.text
        r = c.get(f"/api/matches/{mid}/legal", params={"at": 3})
        assert r.status_code == 200, r.text
        info = c.get(f"/api/matches/{mid}").json()
        assert info["verdict"] == "legal" and info["data"][0] == {"kind": kind_of(gid), "id": data_id,
                                                                  "sha256": sha_of(f)}
    # an edited file with the pinned log, to a store that does not keep the pinned content (one
    # that does finds it there, as the CLI does: test_web_hardening.py): refused, naming the id and the hash
    (tmp_path / "edited").mkdir()
    g = edit_description(f, tmp_path / "edited" / f.name)
    with MatchStore(str(tmp_path / "other.db")) as st, TestClient(create_app(st, upload_token=TOKEN)) as c:
        r = upload(c, copy_log(log, tmp_path / "again.jsonl", note="again"), g)
        assert r.status_code == 400 and f"'{data_id}' with sha256 {sha_of(f)}" in r.json()["detail"], r.text


def test_web_upload_refuses_a_malformed_data_file(tmp_path: Path) -> None:
    from adjudicator.replays.web.app import create_app

    d, f, log = case(tmp_path, "colossus-order")
    bad = tmp_path / "club.toml"
    bad.write_text("pool = \n")
    with MatchStore(str(tmp_path / "web.db")) as st, TestClient(create_app(st, upload_token=TOKEN)) as c:
        r = upload(c, log, bad)
        assert r.status_code == 400 and "club.toml" in r.json()["detail"] and "not valid TOML" in r.json()["detail"]
