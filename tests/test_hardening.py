"""Hostile input (issue 9): one test per defect found by the fuzzing and fault run.

Each test failed on the code before the fix: a memory bomb, a RecursionError, an OSError, an
IndexError or AssertionError from a position document, an upload from any web page, a 500 without
a reason, a traceback with the exit code of "illegal", board errors naming no field, and memory
that grew with the log.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from adjudicator.core.kernel import position as positions
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.limits import MAX_DEPTH
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.store import MatchStore
from adjudicator.core.kernel.verify import position_at
from adjudicator.cli.main import main
from adjudicator.replays.web import create_app

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
TOKEN = "hardening-token"


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def write_log(path: Path, events: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def judge_doc(log: Path, at: int) -> dict[str, Any]:
    lg = read_log(log)
    return positions.document(lg.game, position_at(lg, at).state, at=at)


def write_doc(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc))
    return path


# -- 1. a memory bomb in a 645-byte log -------------------------------------------------------

def test_huge_deck_count_is_unreadable_not_a_memory_bomb(tmp_path: Path) -> None:
    events = lines_of(EX / "colossus-order" / "legal-deck-out.jsonl")[:1]
    deck = events[0]["decks"]["alice"]["cards"]
    deck[next(iter(deck))] = 10 ** 12
    log = write_log(tmp_path / "bomb.jsonl", events)
    assert log.stat().st_size < 2000
    r = cli("verify", str(log))
    assert r.exit_code == 2, r.output
    assert "bomb.jsonl:1: decks.alice.cards." in r.output and "copies must be between 0 and" in r.output


def test_huge_deck_count_upload_is_a_400(tmp_path: Path) -> None:
    events = lines_of(EX / "colossus-order" / "legal-deck-out.jsonl")[:1]
    events[0]["decks"]["bob"]["cards"]["blue-gem"] = 10 ** 12
    st = MatchStore(str(tmp_path / "s.db"))
    with TestClient(create_app(st, upload_token=TOKEN)) as c:
        r = c.post("/api/matches", content="".join(json.dumps(e) + "\n" for e in events).encode(),
                   headers={"authorization": f"Bearer {TOKEN}", "content-type": "application/x-ndjson"})
        assert r.status_code == 400 and "copies must be between" in r.json()["detail"]
    assert st.matches() == []
    st.close()


# -- 2. JSON nested 1,000 deep --------------------------------------------------------------------

def deep(n: int) -> str:
    return "[" * n + "]" * n


def test_deep_nesting_in_the_first_line(tmp_path: Path) -> None:
    log = tmp_path / "deep.jsonl"
    log.write_text('{"type": "MatchStarted", "game": "kolossus", "players": ' + deep(1000) + "}\n")
    r = cli("verify", str(log))
    assert r.exit_code == 2 and f"deep.jsonl:1: JSON nested deeper than {MAX_DEPTH} levels" in r.output


def test_deep_nesting_in_a_type_does_not_abort_the_batch(tmp_path: Path) -> None:
    src = (EX / "kolossus" / "legal-chapter-3.jsonl").read_text().splitlines()
    bad = tmp_path / "a_deep.jsonl"
    bad.write_text("\n".join(src[:3] + ['{"type": ' + deep(1000) + "}"] + src[4:]) + "\n")
    good = tmp_path / "b_good.jsonl"
    good.write_text("\n".join(src) + "\n")
    r = cli("verify", str(tmp_path))
    assert r.exit_code == 2, r.output
    assert "a_deep.jsonl:4: JSON nested deeper" in r.output
    assert "b_good.jsonl: legal" in r.output


def test_deep_nesting_in_check_event_and_position(tmp_path: Path) -> None:
    log = EX / "colossus-order" / "legal-gem-complete.jsonl"
    r = cli("check", str(log), "--at", "10", "--event", '{"type": "Conceded", "player": ' + deep(5000) + "}")
    assert r.exit_code == 2 and "--event: JSON nested deeper" in r.output
    doc = tmp_path / "pos.json"
    doc.write_text('{"format": "adjudicator.position/1", "state": ' + deep(3000) + "}")
    r = cli("legal", "--position", str(doc))
    assert r.exit_code == 2 and "pos.json: JSON nested deeper" in r.output


# -- 3. over-long pool and board names ------------------------------------------------------------

NAME = "a" * 300


@pytest.mark.parametrize("game,where", [
    ("colossus-order", ("pool",)), ("logos", ("pool",)),
    ("kolossus", ("options", "board")), ("colossi", ("options", "board")),
])
def test_overlong_data_names(tmp_path: Path, game: str, where: tuple[str, ...]) -> None:
    src = next(p for p in sorted((EX / game).glob("legal-*.jsonl")))
    events = lines_of(src)
    target = events[0]
    for k in where[:-1]:
        target = target.setdefault(k, {})
    target[where[-1]] = NAME
    log = write_log(tmp_path / "long.jsonl", events)
    r = cli("verify", str(log))
    assert r.exit_code == 2, r.output
    assert "long.jsonl:1:" in r.output and "at most 64 characters" in r.output
    assert "File name too long" not in r.output and "site-packages" not in r.output
    # the same name in a position document
    doc = judge_doc(src, 2)
    target = doc["state"]["setup"] if where == ("pool",) else doc["state"]
    if where == ("pool",):
        target["pool"] = NAME
    else:
        target["options"]["board"] = NAME
    r = cli("legal", "--position", str(write_doc(tmp_path / "p.json", doc)))
    assert r.exit_code == 2 and "p.json: state." in r.output and "at most 64 characters" in r.output, r.output


# -- 4. position documents are validated, not trusted ---------------------------------------------

def test_position_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "p.json"
    p.write_bytes(b'{"format": "adjudicator.position/1", "game": "kolossus", "state": "\xff\xfe"}')
    r = cli("legal", "--position", str(p))
    assert r.exit_code == 2 and "p.json: not valid UTF-8" in r.output


def _kolossus_doc(at: int = 120) -> dict[str, Any]:
    return judge_doc(EX / "kolossus" / "legal-chapter-3.jsonl", at)


@pytest.mark.parametrize("field,value,expect", [
    ("rolls", 10 ** 12, "state.rolls: 1000000000000 is outside 0..1000000"),
    ("last_capture", 9, "state.last_capture: 9 is outside 0..3"),
    ("first", 7, "state.first: 7 is outside 0..3"),
    ("step", "move", "state.activation: the step 'move' needs a declared activation"),
])
def test_kolossus_position_fields(tmp_path: Path, field: str, value: Any, expect: str) -> None:
    doc = _kolossus_doc()
    doc["state"][field] = value
    if field == "step":
        doc["state"]["activation"] = None
    r = cli("legal", "--position", str(write_doc(tmp_path / "k.json", doc)))
    assert r.exit_code == 2, r.output
    assert f"k.json: {expect}" in r.output


def test_colossus_order_first_player_out_of_range(tmp_path: Path) -> None:
    doc = judge_doc(EX / "colossus-order" / "legal-gem-complete.jsonl", 60)
    doc["state"]["first"] = "zed"
    r = cli("legal", "--position", str(write_doc(tmp_path / "c.json", doc)))
    assert r.exit_code == 2 and "c.json: state.first: 'zed' is not a player of this match" in r.output


def test_colossi_more_acolyte_counts_than_players(tmp_path: Path) -> None:
    doc = judge_doc(EX / "colossi" / "legal-2p-to-50-gold.jsonl", 40)
    doc["state"]["spaces"][0]["acolytes"] = [1, 1, 1, 1]
    r = cli("state", "--position", str(write_doc(tmp_path / "s.json", doc)))
    assert r.exit_code == 2 and "s.json: state.spaces[0].acolytes: 4 acolyte counts for 2 players" in r.output


def test_every_game_loads_its_own_positions_unchanged(tmp_path: Path) -> None:
    for game in registry.games():
        log, _ = playout(game, 5, max_events=200)
        path = tmp_path / f"{game.id}.jsonl"
        path.write_bytes(to_jsonl(log))
        for at in (1, len(log) // 2, len(log)):
            doc = write_doc(tmp_path / f"{game.id}-{at}.json", judge_doc(path, at))
            assert game.invariants(positions.load(doc)[1]) == []


# -- 5. uploads from any web page -----------------------------------------------------------------

def _fresh(tmp_path: Path, **kw: Any) -> tuple[TestClient, MatchStore]:
    st = MatchStore(str(tmp_path / "w.db"))
    return TestClient(create_app(st, **kw)), st


def _legal_log() -> bytes:
    return (EX / "kolossus" / "legal-chapter-3.jsonl").read_bytes()


def test_cross_site_text_plain_post_is_refused(tmp_path: Path) -> None:
    c, st = _fresh(tmp_path, upload_token=TOKEN)
    with c:
        # what a page on another origin can send without the service's consent: text/plain, no token
        r = c.post("/api/matches", content=_legal_log(), headers={"content-type": "text/plain",
                                                                   "origin": "https://evil.example"})
        assert r.status_code == 401 and "token" in r.json()["detail"]
        # even knowing the token, text/plain is refused
        r = c.post("/api/matches", content=_legal_log(), headers={"content-type": "text/plain",
                                                                   "authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 415
        r = c.post("/api/matches", content=_legal_log(), headers={"content-type": "application/x-ndjson",
                                                                   "authorization": "Bearer wrong"})
        assert r.status_code == 401
        assert c.get("/api/matches").json() == []
        assert c.get("/api/info").json()["uploads"] is True
        ok = c.post("/api/matches", content=_legal_log(), headers={"content-type": "application/x-ndjson",
                                                                    "authorization": f"Bearer {TOKEN}"})
        assert ok.status_code == 201
    assert len(st.matches()) == 1
    st.close()


def test_no_token_configured_means_read_only(tmp_path: Path) -> None:
    c, st = _fresh(tmp_path)
    with c:
        assert c.get("/api/info").json()["uploads"] is False
        r = c.post("/api/matches", content=_legal_log(), headers={"content-type": "application/x-ndjson",
                                                                   "authorization": "Bearer anything"})
        assert r.status_code == 403 and "read-only" in r.json()["detail"]
    assert st.matches() == []
    st.close()


def test_multipart_upload_with_the_token(tmp_path: Path) -> None:
    c, st = _fresh(tmp_path, upload_token=TOKEN)
    with c:
        r = c.post("/api/matches", files={"log": ("mine.jsonl", _legal_log(), "application/x-ndjson")},
                   headers={"authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 201, r.text
        assert c.get("/api/matches").json()[0]["source"] == "mine.jsonl"
    st.close()


def test_serve_reads_the_token_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    import adjudicator.cli.serve as serve_mod

    seen: dict[str, Any] = {}

    def fake_create_app(store: Any, **kw: Any) -> Any:
        seen.update(kw)
        raise SystemExit(0)

    monkeypatch.setenv("ADJUDICATOR_UPLOAD_TOKEN", "from-env")
    monkeypatch.setattr("adjudicator.replays.web.create_app", fake_create_app)
    r = CliRunner().invoke(main, ["serve", "--db", ":memory:", "--port", "0"])
    assert seen.get("upload_token") == "from-env", (r.output, seen)
    assert serve_mod is not None


# -- 6. every error a 4xx or a 503 with a JSON reason ---------------------------------------------

def test_unwritable_store_is_a_503(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes to read-only files")
    db = tmp_path / "ro.db"
    MatchStore(str(db)).close()
    db.chmod(stat.S_IRUSR)
    c, st = TestClient(create_app(MatchStore(str(db)), upload_token=TOKEN)), None
    with c:
        r = c.post("/api/matches", content=_legal_log(), headers={"content-type": "application/x-ndjson",
                                                                   "authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 503 and r.json()["detail"].startswith("the match store is unavailable")


def test_unwritable_store_is_a_503_when_the_database_breaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    c, st = _fresh(tmp_path, upload_token=TOKEN)

    def broken(*_a: Any, **_k: Any) -> Any:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    with c:
        monkeypatch.setattr(st.app.recorder, "_insert_events", broken)
        r = c.post("/api/matches", content=_legal_log(), headers={"content-type": "application/x-ndjson",
                                                                   "authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 503, r.text
        assert "readonly database" in r.json()["detail"]
    st.close()


def test_nested_json_and_long_names_upload_are_400(tmp_path: Path) -> None:
    c, st = _fresh(tmp_path, upload_token=TOKEN)
    h = {"content-type": "application/x-ndjson", "authorization": f"Bearer {TOKEN}"}
    with c:
        r = c.post("/api/matches", content=('{"type": "MatchStarted", "game": "logos", "x": ' + deep(1000) + "}\n").encode(),
                   headers=h)
        assert r.status_code == 400 and "nested deeper" in r.json()["detail"]
        events = lines_of(EX / "logos" / "legal-open-picks.jsonl")
        events[0]["pool"] = NAME
        r = c.post("/api/matches", content="".join(json.dumps(e) + "\n" for e in events).encode(), headers=h)
        assert r.status_code == 400 and "at most 64 characters" in r.json()["detail"]
    st.close()


def test_events_as_a_player_when_match_started_failed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.get("kolossus")
    st = MatchStore(str(tmp_path / "f.db"))

    def broken(setup: Any) -> Any:
        raise RuntimeError("engine defect on MatchStarted")

    monkeypatch.setattr(game, "initial_state", broken)
    res = st.import_log(read_log(EX / "kolossus" / "legal-chapter-3.jsonl"), allow_illegal=True)
    monkeypatch.undo()
    with TestClient(create_app(st)) as c:
        r = c.get(f"/api/matches/{res.match_id}/events", params={"as": "ann"})
        assert r.status_code == 400 and "no position" in r.json()["detail"]
        r = c.get(f"/api/matches/{res.match_id}/events")
        assert r.status_code == 200 and r.json()["events"][0]["mark"] == "illegal"
    st.close()


# -- 7. a traceback is exit code 3, never 1 -------------------------------------------------------

def test_internal_error_is_exit_3_and_the_batch_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = EX / "kolossus" / "legal-chapter-3.jsonl"
    a = tmp_path / "a.jsonl"
    a.write_bytes(src.read_bytes())
    b = tmp_path / "b.jsonl"
    b.write_bytes((EX / "logos" / "legal-open-picks.jsonl").read_bytes())
    game = registry.get("kolossus")
    monkeypatch.setattr(game, "check", lambda s, e: 1 / 0)
    r = CliRunner().invoke(main, ["verify", str(tmp_path)])
    assert r.exit_code == 3, r.output
    assert "a.jsonl: error: internal error on" in r.output and "ZeroDivisionError" in r.output, r.output
    assert "please report" in r.output and "b.jsonl: legal" in r.output
    assert "Traceback" not in r.output


def test_internal_error_outside_verify_is_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.get("kolossus")
    monkeypatch.setattr(game, "legal_events", lambda s: [][1])
    r = CliRunner().invoke(main, ["legal", str(EX / "kolossus" / "legal-chapter-3.jsonl"), "--at", "20"])
    assert r.exit_code == 3 and "internal error" in r.output and "Traceback" not in r.output


def test_store_import_crash_is_that_logs_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.jsonl").write_bytes((EX / "kolossus" / "legal-chapter-3.jsonl").read_bytes())
    (logs / "b.jsonl").write_bytes((EX / "logos" / "legal-open-picks.jsonl").read_bytes())
    monkeypatch.setattr(registry.get("kolossus"), "check", lambda s, e: 1 / 0)
    db = str(tmp_path / "s.db")
    r = CliRunner().invoke(main, ["store", "import", str(logs), "--db", db])
    assert r.exit_code == 3, r.output
    assert "b.jsonl: legal" in r.output and "internal error" in r.output


# -- 8. board errors in position documents name the document and the field ------------------------

def test_board_error_names_document_and_field(tmp_path: Path) -> None:
    doc = _kolossus_doc(5)
    doc["state"]["options"]["board"] = "no-such-board"
    r = cli("legal", "--position", str(write_doc(tmp_path / "b.json", doc)))
    assert r.exit_code == 2, r.output
    assert r.output.startswith("error: ") and "b.json: state." in r.output
    assert "no board named 'no-such-board'" in r.output or "no such board" in r.output
    assert "/adjudicator/games/" not in r.output and "site-packages" not in r.output
    doc = judge_doc(EX / "colossi" / "legal-2p-to-50-gold.jsonl", 5)
    doc["state"]["options"]["board"] = "atlantis"
    r = cli("legal", "--position", str(write_doc(tmp_path / "c.json", doc)))
    assert r.exit_code == 2 and "c.json: state." in r.output and "/games/colossi/data" not in r.output


# -- 9. memory that grows with the log: the events endpoint pages ----------------------------------

def test_events_endpoint_pages(tmp_path: Path) -> None:
    st = MatchStore(str(tmp_path / "p.db"))
    res = st.import_log(read_log(EX / "kolossus" / "legal-chapter-3.jsonl"))
    with TestClient(create_app(st)) as c:
        whole = c.get(f"/api/matches/{res.match_id}/events", params={"limit": 10_000}).json()
        assert whole["total"] == 430 and len(whole["events"]) == 430 and whole["next"] is None
        got: list[Any] = []
        start: int | None = 1
        while start is not None:
            page = c.get(f"/api/matches/{res.match_id}/events", params={"from": start, "limit": 97}).json()
            assert len(page["events"]) <= 97 and page["first"] == start
            got += page["events"]
            start = page["next"]
        assert got == whole["events"]
        assert c.get(f"/api/matches/{res.match_id}/events", params={"limit": 10_001}).status_code == 400
        assert c.get(f"/api/matches/{res.match_id}/events", params={"from": 0}).status_code == 400
    st.close()


def test_position_document_size_bound(tmp_path: Path) -> None:
    with pytest.raises(LogError) as exc:
        positions.from_bytes(b" " * 60_000_001, "big.json")
    assert "at most" in str(exc.value)
    assert msgspec  # the module's decoder is what the bound protects


def test_openapi_lists_every_answer_the_service_gives(tmp_path: Path) -> None:
    c, st = _fresh(tmp_path, upload_token=TOKEN)
    with c:
        doc = c.get("/schema/openapi.json").json()
    paths = doc["paths"]
    assert set(paths["/api/matches"]["post"]["responses"]) >= {"200", "201", "400", "401", "403", "413", "415",
                                                               "422", "503"}
    for p in ("/api/matches/{match_id}", "/api/matches/{match_id}/events", "/api/matches/{match_id}/position",
              "/api/matches/{match_id}/legal"):
        assert set(paths[p]["get"]["responses"]) >= {"200", "400", "404", "503"}, p
    assert "ErrorAnswer" in doc["components"]["schemas"]
    st.close()


def test_reveal_candidates_are_distinct_selections_not_every_combination_of_copies() -> None:
    """A Reveal of k cards from a 600-card deck (deck validation off) listed every combination of
    the copies (36 million tuples for k = 3, a hang of ``legal`` and of generated long matches);
    now each distinct selection once, the same list as before for small decks."""
    import random
    from itertools import combinations

    from adjudicator.games.colossus_order.rules import multiset_combinations

    rng = random.Random(7)
    for _ in range(200):
        cards = sorted(rng.choice("abcdefgh") for _ in range(rng.randint(0, 12)))
        k = rng.randint(0, 5)
        assert list(multiset_combinations(cards, k)) == sorted(set(combinations(cards, k)))
    deck = [f"card-{i % 20:02d}" for i in range(600)]
    picks = list(multiset_combinations(deck, 3))
    assert len(picks) == 1540  # C(20 + 3 - 1, 3): every multiset of 3 among 20 distinct cards
    from adjudicator.core.kernel import registry
    from adjudicator.core.kernel.playout import playout

    log, _ = playout(registry.get("colossus-order"), 1000, max_events=1000, long=True)  # hung before
    assert len(log) == 1000
