"""The replay service's JSON API (``replays/web``), over a temporary SQLite store seeded with the
example logs of every registered game; and the ``adjudicator serve`` command.

Ground truth comes from elsewhere: the file names of the examples (``illegal-<RULE>-...``), the
replay model (``replays.core.Replay``) and the games themselves through the registry.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.store import MatchStore
from adjudicator.cli.main import main
from adjudicator.replays.core import Replay
from adjudicator.replays.web import create_app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: the games that had landed when the service was written: each must ship examples
LANDED = ("colossus-order", "logos", "kolossus")
RULE_IN_NAME = re.compile(r"^illegal-((?:[A-Z]+-)?[A-Z]+-[0-9.]+|LOG-[0-9]+)-")


# -- the seeded store (shared with test_web_browser) -------------------------------------------

def example_logs() -> dict[str, list[Path]]:
    """The example logs of every registered game that ships some, by game id."""
    out: dict[str, list[Path]] = {}
    for game in registry.games():
        files = sorted((EXAMPLES / game.id).glob("*.jsonl"))
        if files:
            out[game.id] = files
    return out


def seed_store(db: Path) -> MatchStore:
    """A new SQLite store holding every example log (the illegal ones with their verdicts)."""
    store = MatchStore(str(db))
    for files in example_logs().values():
        for f in files:
            store.import_log(read_log(f), allow_illegal=True)
    return store


def stored(store: MatchStore, path: Path) -> str:
    """The id of the stored match imported from ``path``."""
    return next(m.match_id for m in store.matches() if Path(m.source).resolve() == path.resolve())


def as_json(obj: Any) -> Any:
    """``obj`` as the API sends it (tuples become lists)."""
    return json.loads(msgspec.json.encode(obj))


def rule_of(path: Path) -> str:
    m = RULE_IN_NAME.match(path.name)
    assert m, path.name
    return m.group(1)


def longest_legal(files: list[Path]) -> Path:
    return max((f for f in files if f.name.startswith("legal-")), key=lambda f: len(f.read_bytes().splitlines()))


#: the whole module runs with SQLite stores and again with PostgreSQL ones (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture(scope="module")
def store(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MatchStore]:
    st = seed_store(tmp_path_factory.mktemp("web") / "store.db")
    yield st
    st.close()


@pytest.fixture(scope="module")
def client(store: MatchStore) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as c:
        yield c


TOKEN = "test-upload-token"
#: what an authorised uploader sends (the token and the log's media type)
UPLOADER = {"authorization": f"Bearer {TOKEN}", "content-type": "application/x-ndjson"}


def fresh_client(tmp_path: Path, **kwargs: Any) -> tuple[TestClient, MatchStore]:
    st = MatchStore(str(tmp_path / "upload.db"))
    kwargs.setdefault("upload_token", TOKEN)
    c = TestClient(create_app(st, **kwargs))
    c.headers.update(UPLOADER)
    return c, st


def test_every_landed_game_ships_examples() -> None:
    logs = example_logs()
    for gid in LANDED:
        assert gid in logs, gid
        assert any(f.name.startswith("legal-") for f in logs[gid])
        assert any(f.name.startswith("illegal-") for f in logs[gid])


# -- listing -----------------------------------------------------------------------------------

def test_list_and_filters(client: TestClient) -> None:
    logs = example_logs()
    everything = client.get("/api/matches").json()
    assert len(everything) == sum(len(v) for v in logs.values())
    for gid, files in logs.items():
        got = client.get("/api/matches", params={"game": gid}).json()
        assert sorted(Path(m["source"]).name for m in got) == sorted(f.name for f in files)
        assert {m["game"] for m in got} == {gid}
        assert all(m["game_name"] == registry.get(gid).name for m in got)
    illegal = client.get("/api/matches", params={"verdict": "illegal"}).json()
    legal = client.get("/api/matches", params={"verdict": "legal"}).json()
    undetermined = [m for m in everything if m["verdict"] == "undetermined"]  # seats' records (issue 11)
    assert illegal and legal and len(illegal) + len(legal) + len(undetermined) == len(everything)
    assert all(Path(m["source"]).name.startswith("undetermined-") for m in undetermined)
    assert all(Path(m["source"]).name.startswith("illegal-") and m["violations"] >= 1 for m in illegal)
    assert all(Path(m["source"]).name.startswith("legal-") and m["violations"] == 0 for m in legal)
    # a player id used in some matches but not all
    counts: dict[str, int] = {}
    for m in everything:
        for p in m["players"]:
            counts[p] = counts.get(p, 0) + 1
    player = next(p for p, n in sorted(counts.items()) if 0 < n < len(everything))
    got = client.get("/api/matches", params={"player": player}).json()
    assert len(got) == counts[player] and all(player in m["players"] for m in got)
    both = client.get("/api/matches", params={"player": player, "verdict": "legal"}).json()
    assert {m["match_id"] for m in both} == {m["match_id"] for m in got if m["verdict"] == "legal"}
    assert client.get("/api/matches", params={"player": "nobody-plays-here"}).json() == []


def test_list_rejects_bad_filters(client: TestClient) -> None:
    r = client.get("/api/matches", params={"game": "chess"})
    assert r.status_code == 400 and "unknown game 'chess'" in r.json()["detail"]
    r = client.get("/api/matches", params={"verdict": "maybe"})
    assert r.status_code == 400 and "verdict" in json.dumps(r.json())


def test_info_and_games(client: TestClient) -> None:
    info = client.get("/api/info").json()
    assert [g["id"] for g in info["games"]] == registry.ids()
    assert info["max_upload"] == 5_000_000 and info["allow_illegal"] is True
    assert info["matches"] == sum(len(v) for v in example_logs().values())
    assert client.get("/api/games").json() == info["games"]


# -- events and rulings ------------------------------------------------------------------------

@pytest.mark.parametrize("gid", sorted(example_logs()))
def test_events_carry_rulings_and_marks(client: TestClient, store: MatchStore, gid: str) -> None:
    for path in example_logs()[gid]:
        mid = stored(store, path)
        doc = client.get(f"/api/matches/{mid[:13]}/events?limit=10000").json()  # a unique prefix works too
        events = doc["events"]
        n = len(read_log(path).events)
        assert doc["match"]["match_id"] == mid and doc["match"]["events"] == n
        assert [e["number"] for e in events] == list(range(1, n + 1))
        assert {e["mark"] for e in events} <= {"legal", "illegal", "unchecked", "derived",
                                               "stands", "taken-back", "ruling",  # judges' rulings
                                               "undetermined"}  # a seat's record (issue 11)
        illegal = [e for e in events if e["mark"] == "illegal"]
        assert doc["violations"] == [e["number"] for e in illegal]
        if path.name.startswith(("legal-", "undetermined-")):  # undetermined: a seat's record (issue 11)
            assert not illegal, path.name
            turns = [e["turn"] for e in events]
            assert turns == sorted(turns), "turn numbers never go back"
        else:
            assert illegal, path.name
            first = illegal[0]
            assert first["rule"] == rule_of(path), path.name
            assert first["verdict"] == "illegal" and first["message"] and first["code"]
        # the same marks and rulings as the replay model the terminal viewer uses
        replay = Replay.from_file(path)
        assert [(e["mark"], e["rule"], e["code"], e["message"]) for e in events] == \
               [(f.mark, f.rule, f.code, f.message) for f in replay.frames]


def test_events_as_a_player_saw_them(client: TestClient, store: MatchStore) -> None:
    path = ROOT / "examples" / "colossus-order" / "legal-gem-complete.jsonl"
    mid = stored(store, path)
    judge = client.get(f"/api/matches/{mid}/events").json()["events"]
    alice = client.get(f"/api/matches/{mid}/events?as=alice").json()["events"]
    bob = client.get(f"/api/matches/{mid}/events?as=bob").json()["events"]
    draws = [i for i, e in enumerate(judge) if e["type"] == "CardDrawn" and e["event"]["player"] == "bob"]
    assert draws
    for i in draws:
        assert alice[i]["event"]["card"] == "?" and judge[i]["event"]["card"] not in alice[i]["text"]
        assert bob[i]["event"] == judge[i]["event"]
    assert alice[0]["event"]["decks"]["bob"]["cards"] == {}
    r = client.get(f"/api/matches/{mid}/events?as=nobody")
    assert r.status_code == 400 and "unknown player 'nobody'" in r.json()["detail"]


def test_events_of_unknown_or_ambiguous_match(client: TestClient, store: MatchStore) -> None:
    r = client.get("/api/matches/ffffffff-ffff-5fff-bfff-ffffffffffff/events")
    assert r.status_code == 404 and "no stored match" in r.json()["detail"]
    r = client.get("/api/matches/not-a-match/events")
    assert r.status_code == 404
    ids = sorted(m.match_id for m in store.matches())
    prefix = next(a[:k] for a, b in zip(ids, ids[1:]) for k in (1, 2) if a[:k] == b[:k])
    r = client.get(f"/api/matches/{prefix}/events")
    assert r.status_code == 400 and "ambiguous" in r.json()["detail"]


# -- positions ---------------------------------------------------------------------------------

def _hidden_info_kept(scene: dict[str, Any], player: str) -> None:
    """A player's scene names no face-down card of a zone someone else owns."""
    for zone in scene.get("zones", []):
        if zone.get("owner") in (None, player):
            continue
        for card in zone.get("cards", []):
            if card.get("face_up", True) is False:
                assert "name" not in card, (player, zone["id"], card)


@pytest.mark.parametrize("gid", sorted(example_logs()))
def test_position_from_each_view(client: TestClient, store: MatchStore, gid: str) -> None:
    path = longest_legal(example_logs()[gid])
    mid = stored(store, path)
    replay = Replay.from_file(path)
    game = replay.game
    n = len(replay)
    for at in sorted({1, 2, n // 3, n // 2, (2 * n) // 3, n}):
        state = replay.state(at)
        judge = client.get(f"/api/matches/{mid}/position", params={"at": at}).json()
        assert judge["at"] == at and judge["events"] == n and judge["view"] is None
        assert judge["scene"] == as_json(game.scene(state, None))
        assert judge["changes"] == replay.changes(at, None)
        assert judge["players"] == game.players(state)
        assert judge["turn"] == game.turn_number(state)
        for p in game.players(state):
            doc = client.get(f"/api/matches/{mid}/position", params={"at": at, "as": p}).json()
            assert doc["view"] == p and doc["scene"]["view"] == p
            assert doc["scene"] == as_json(game.scene(state, p))
            assert doc["changes"] == replay.changes(at, p)
            _hidden_info_kept(doc["scene"], p)
    first = client.get(f"/api/matches/{mid}/position", params={"at": 1}).json()
    assert first["changes"] == ["the match starts"]
    last = client.get(f"/api/matches/{mid}/position").json()  # no at: the end
    assert last["at"] == n


def test_hidden_information_is_masked_in_some_game(client: TestClient, store: MatchStore) -> None:
    """Not vacuous: in the landed games a player's scene hides cards the judge's scene names."""
    def nameless(scene: dict[str, Any]) -> int:
        return sum(1 for z in scene.get("zones", []) for c in z.get("cards", []) if "name" not in c)

    masked = 0
    for gid in LANDED:
        path = longest_legal(example_logs()[gid])
        mid = stored(store, path)
        at = store.length(mid) // 2
        judge = client.get(f"/api/matches/{mid}/position", params={"at": at}).json()["scene"]
        judge_names = {c["name"] for z in judge.get("zones", []) for c in z.get("cards", []) if "name" in c}
        for p in client.get(f"/api/matches/{mid}").json()["players"]:
            mine = client.get(f"/api/matches/{mid}/position", params={"at": at, "as": p}).json()["scene"]
            assert {c["name"] for z in mine.get("zones", []) for c in z.get("cards", []) if "name" in c} <= judge_names
            masked += nameless(mine) - nameless(judge)
    assert masked > 0


def test_late_seek_goes_through_the_snapshots(client: TestClient, store: MatchStore,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    logs = example_logs()
    path = max((longest_legal(files) for files in logs.values()), key=lambda f: len(f.read_bytes().splitlines()))
    mid = stored(store, path)
    n = store.length(mid)
    assert n > 2 * 200, "a match longer than the snapshot interval"
    calls: list[tuple[str, int | None]] = []
    real = store.state_at

    def spy(match_id: str, at: int | None = None) -> Any:
        calls.append((match_id, at))
        return real(match_id, at)

    def no_rebuild(*a: Any, **k: Any) -> Any:
        raise AssertionError("a seek must not replay the whole match")

    monkeypatch.setattr(store, "state_at", spy)
    monkeypatch.setattr(store, "full_rebuild_state", no_rebuild)
    at = n - 7
    doc = client.get(f"/api/matches/{mid}/position", params={"at": at}).json()
    assert (mid, at) in calls and (mid, at - 1) in calls
    replay = Replay.from_file(path)
    assert doc["scene"] == as_json(replay.scene(at))


def test_bad_positions(client: TestClient, store: MatchStore) -> None:
    path = longest_legal(example_logs()[LANDED[0]])
    mid = stored(store, path)
    n = store.length(mid)
    for at in (0, -3, n + 1):
        r = client.get(f"/api/matches/{mid}/position", params={"at": at})
        assert r.status_code == 400, at
        assert f"outside the match (events 1-{n})" in r.json()["detail"]
    r = client.get(f"/api/matches/{mid}/position", params={"at": "fifty"})
    assert r.status_code == 400 and "at" in json.dumps(r.json())
    r = client.get(f"/api/matches/{mid}/position", params={"as": "mallory"})
    assert r.status_code == 400 and "unknown player 'mallory'" in r.json()["detail"]
    r = client.get(f"/api/matches/{mid}/legal", params={"at": n + 1})
    assert r.status_code == 400
    r = client.get("/api/matches/0000/position")
    assert r.status_code in (400, 404)


# -- legal events ------------------------------------------------------------------------------

@pytest.mark.parametrize("gid", sorted(example_logs()))
def test_legal_events(client: TestClient, store: MatchStore, gid: str) -> None:
    path = longest_legal(example_logs()[gid])
    mid = stored(store, path)
    replay = Replay.from_file(path)
    game = replay.game
    at = len(replay) // 2
    state = replay.state(at)
    doc = client.get(f"/api/matches/{mid}/legal", params={"at": at}).json()
    expected = game.legal_events(state)
    assert doc["at"] == at and doc["to_act"] == game.to_act(state)
    assert doc["count"] == len(expected) > 0 and doc["outcome"] is None
    assert [e["event"] for e in doc["events"]] == [msgspec.to_builtins(e) for e in expected][:1000]
    assert all(e["type"] == e["event"]["type"] for e in doc["events"])
    one = client.get(f"/api/matches/{mid}/legal", params={"at": at, "limit": 1}).json()
    assert one["count"] == len(expected) and len(one["events"]) == 1
    end = client.get(f"/api/matches/{mid}/legal").json()
    if game.outcome(replay.state(len(replay))) is not None:
        assert end["events"] == [] and end["count"] == 0 and end["outcome"]


# -- upload ------------------------------------------------------------------------------------

def _new_legal_log(gid: str, seed: int = 11, events: int = 40) -> bytes:
    log, _state = playout(registry.get(gid), seed, max_events=events)
    return to_jsonl(log)


def _with_note(data: bytes, note: str) -> bytes:
    """The same log under a new identity: a note on MatchStarted changes the content digest."""
    first, rest = data.split(b"\n", 1)
    obj = json.loads(first)
    obj["note"] = note
    return json.dumps(obj).encode() + b"\n" + rest


@pytest.mark.parametrize("gid", LANDED)
def test_upload_legal_then_again(tmp_path: Path, gid: str) -> None:
    c, st = fresh_client(tmp_path)
    with c:
        data = _new_legal_log(gid)
        r = c.post("/api/matches", params={"name": "mine.jsonl"}, content=data,
                   headers={"content-type": "application/x-ndjson"})
        assert r.status_code == 201, r.text
        doc = r.json()
        assert doc["status"] == "stored" and doc["stored"] is True and doc["verdict"] == "legal"
        assert doc["game"] == gid and doc["events"] == len(data.splitlines()) and doc["violations"] == []
        assert doc["url"] == f"/matches/{doc['match_id']}"
        listed = c.get("/api/matches").json()
        assert [m["match_id"] for m in listed] == [doc["match_id"]] and listed[0]["source"] == "mine.jsonl"
        again = c.post("/api/matches", content=data)
        assert again.status_code == 200 and again.json()["status"] == "already stored"
        assert len(c.get("/api/matches").json()) == 1
        # and it replays
        assert c.get(f"/api/matches/{doc['match_id']}/events").json()["events"][0]["type"] == "MatchStarted"
    st.close()


def test_upload_illegal_is_stored_with_its_verdict(tmp_path: Path) -> None:
    c, st = fresh_client(tmp_path)
    with c:
        for gid in LANDED:
            path = next(f for f in example_logs()[gid] if f.name.startswith("illegal-") and len(read_log(f).events) > 1)
            r = c.post("/api/matches", params={"name": path.name}, content=path.read_bytes())
            assert r.status_code == 201, r.text
            doc = r.json()
            assert doc["verdict"] == "illegal" and doc["status"] == "stored"
            assert doc["violations"][0]["rule"] == rule_of(path)
            assert doc["violations"][0]["line"] >= 1 and doc["violations"][0]["message"]
        listed = c.get("/api/matches", params={"verdict": "illegal"}).json()
        assert len(listed) == len(LANDED)
    st.close()


def test_upload_illegal_refused_when_configured(tmp_path: Path) -> None:
    c, st = fresh_client(tmp_path, allow_illegal=False)
    with c:
        assert c.get("/api/info").json()["allow_illegal"] is False
        path = next(f for f in example_logs()["colossus-order"] if f.name.startswith("illegal-CO-7"))
        r = c.post("/api/matches", params={"name": path.name}, content=path.read_bytes())
        assert r.status_code == 422
        doc = r.json()
        assert doc["status"] == "refused" and doc["stored"] is False and doc["url"] is None
        assert doc["violations"][0]["rule"] == rule_of(path)
        assert c.get("/api/matches").json() == []
        ok = c.post("/api/matches", content=_new_legal_log("logos"))
        assert ok.status_code == 201
    st.close()


def test_unreadable_uploads_store_nothing(tmp_path: Path) -> None:
    c, st = fresh_client(tmp_path)
    good = _new_legal_log("colossus-order").split(b"\n")
    cases = {
        b"\n".join(good[:2] + [b'{"type": "CardDrawn", "player":'] + good[3:]): "bad.jsonl:3: not valid JSON",
        b"\n".join(good[:1] + [b'{"type": "NoSuchEvent"}'] + good[2:]): "bad.jsonl:2: type: unknown event type",
        b"": "bad.jsonl: empty log",
        b'{"type": "MatchStarted", "game": "chess"}\n': "bad.jsonl:1: game: unknown game 'chess'",
        b'{"type": "CardDrawn"}\n': "bad.jsonl:1: type: the first event must be MatchStarted",
        b"\xff\xfe\n": "bad.jsonl:1: not valid",
    }
    with c:
        for body, reason in cases.items():
            r = c.post("/api/matches", params={"name": "../../etc/bad.jsonl"}, content=body)
            assert r.status_code == 400, (body[:40], r.text)
            assert r.json()["detail"].startswith(reason), r.json()["detail"]
        assert c.get("/api/matches").json() == []
    assert st.matches() == []
    st.close()


def test_oversized_upload_is_refused(tmp_path: Path) -> None:
    c, st = fresh_client(tmp_path, max_upload=2_000)
    data = _new_legal_log("logos", events=80)
    assert len(data) > 2_000
    with c:
        assert c.get("/api/info").json()["max_upload"] == 2_000
        r = c.post("/api/matches", params={"name": "big.jsonl"}, content=data)
        assert r.status_code == 413
        assert r.json()["detail"] == "big.jsonl: the upload is larger than the limit of 2000 bytes (0.002 MB); nothing stored"

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted while reading
            for i in range(0, len(data), 500):
                yield data[i:i + 500]

        r = c.post("/api/matches", params={"name": "big.jsonl"}, content=chunks())
        assert r.status_code == 413
        assert c.get("/api/matches").json() == []
        small = _new_legal_log("logos", events=8)
        assert len(small) < 2_000
        assert c.post("/api/matches", content=small).status_code == 201
    st.close()


# -- documents and pages -----------------------------------------------------------------------

def test_openapi_document(client: TestClient) -> None:
    r = client.get("/schema/openapi.json")
    assert r.status_code == 200
    doc = r.json()
    assert doc["openapi"].startswith("3.")
    paths = doc["paths"]
    for p in ("/api/info", "/api/games", "/api/matches", "/api/matches/{match_id}",
              "/api/matches/{match_id}/events", "/api/matches/{match_id}/position",
              "/api/matches/{match_id}/legal"):
        assert p in paths, p
    assert "post" in paths["/api/matches"]
    assert "application/x-ndjson" in paths["/api/matches"]["post"]["requestBody"]["content"]
    params = {q["name"] for q in paths["/api/matches/{match_id}/position"]["get"]["parameters"]}
    assert {"match_id", "at", "as"} <= params
    for schema in ("Scene", "Board", "Cell", "Zone", "Card", "Position", "MatchEvents", "UploadResult"):
        assert schema in doc["components"]["schemas"], schema
    assert "/" not in paths and "/matches/{match_id}" not in paths


def test_pages_and_static_files(client: TestClient, store: MatchStore) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert 'id="upload-form"' in r.text and "/static/list.js" in r.text
    mid = store.matches()[0].match_id
    r = client.get(f"/matches/{mid}", params={"at": 3, "as": "x"})
    assert r.status_code == 200 and "/static/viewer.js" in r.text and "/static/scene.js" in r.text
    for name, kind in (("viewer.js", "javascript"), ("scene.js", "javascript"), ("list.js", "javascript"),
                       ("style.css", "text/css")):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and kind in r.headers["content-type"], name
    assert client.get("/static/nope.js").status_code == 404


def test_replays_never_import_a_game_package() -> None:
    web = ROOT / "replays" / "web"
    for f in web.rglob("*.py"):
        text = f.read_text()
        assert "adjudicator.games" not in text and "from adjudicator import games" not in text, f
    for f in (web / "static").iterdir():
        if f.suffix in (".js", ".html"):
            for gid in registry.ids():
                assert gid not in f.read_text(), (f.name, gid)


# -- adjudicator serve -------------------------------------------------------------------------

def test_serve_bad_store_exits_2(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "no" / "such" / "dir.db")])
    assert r.exit_code == 2
    assert r.output.startswith("error: ") and "no such directory" in r.output and "Traceback" not in r.output


def test_serve_port_in_use_exits_2(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "s.db"), "--port", str(port)])
    assert r.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}: the address is already in use" in r.output
    assert "Traceback" not in r.output


def test_serve_command_serves(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> None:
    db = tmp_path / "served.db"
    st = MatchStore(str(db))
    path = longest_legal(example_logs()["logos"])
    st.import_log(read_log(path))
    st.close()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    where = ["--db", str(db)]
    if backend == "postgres":  # the served store is that PostgreSQL database, named by the environment
        server = request.getfixturevalue("pg_server")
        env.update(server.settings(server.database_for(os.path.abspath(db))))
        where = []
    proc = subprocess.Popen([sys.executable, "-c", "from adjudicator.cli.main import main; main()", "serve", *where,
                             "--port", "0"], cwd=ROOT, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True)
    try:
        line = proc.stderr.readline()
        m = re.search(r"serving 1 stored matches from .* at (http://127\.0\.0\.1:(\d+)/)", line)
        assert m, line
        url = m.group(1)
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url + "api/matches", timeout=5) as resp:
                    listed = json.loads(resp.read())
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert [Path(x["source"]).name for x in listed] == [path.name]
        with urllib.request.urlopen(url, timeout=5) as resp:
            assert b"upload-form" in resp.read()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
