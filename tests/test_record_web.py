"""The recording API of the service (/api/recordings, recorder/web.py): the token, entries,
refusals, undo, storing, and the judge's view of two seats' records reconciled."""

from __future__ import annotations

import json
import random
from pathlib import Path

import msgspec
import pytest
from litestar.testing import TestClient

import adjudicator
from adjudicator.build import Recording
from adjudicator.core.store import MatchStore
from adjudicator.replays.web import create_app

TOKEN = "rec-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(tmp_path: Path):
    store = MatchStore(str(tmp_path / "s.db"))
    with TestClient(create_app(store, upload_token=TOKEN, recordings=tmp_path / "rec")) as c:
        yield c
    store.close()


def test_every_route_needs_the_token(client, tmp_path):
    body = {"game": "colossi", "players": ["ann", "bob"]}
    assert client.post("/api/recordings", json=body).status_code == 401
    assert client.post("/api/recordings", json=body, headers={"Authorization": "Bearer nope"}).status_code == 401
    r = client.post("/api/recordings", json=body, headers=AUTH)
    assert r.status_code == 201
    rid = r.json()["id"]
    for method, path, kw in [("get", f"/api/recordings/{rid}", {}), ("post", f"/api/recordings/{rid}/entries", {"json": {"entry": "1"}}),
                             ("post", f"/api/recordings/{rid}/store", {}), ("get", f"/api/recordings/reconcile?a={rid}&b={rid}", {})]:
        assert getattr(client, method)(path, **kw).status_code == 401, path
    assert (tmp_path / "rec" / f"{rid}.jsonl").read_text().count("\n") == 1  # nothing recorded
    assert client.get("/api/recordings/" + "0" * 32, headers=AUTH).status_code == 404
    assert client.get("/api/recordings/../../etc", headers=AUTH).status_code == 404


def test_entries_refusals_undo_and_the_store(client, tmp_path):
    r = client.post("/api/recordings", headers=AUTH, json={"game": "colossi", "players": ["ann", "bob"],
                                                           "options": {"gold_target": 5}, "meta": {"round": "2"}})
    doc = r.json()
    rid = doc["id"]
    assert doc["random"] and [c["label"] for c in doc["choices"]] == ["ann: goes first", "bob: goes first"]
    doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": "2"}).json()
    assert doc["ok"] and doc["events"] == 2 and doc["log"] == ["2. bob: goes first"]
    doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": '{"type": "Passed", "player": "ann"}'}).json()
    assert not doc["ok"] and doc["message"].startswith("refused: CL-1.3") and doc["events"] == 2
    doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": "undo"}).json()
    # undo never re-rolls: who goes first was seen by the table, taking it back is a judge's ruling
    assert not doc["ok"] and "judge" in doc["message"] and doc["events"] == 2
    assert client.post("/api/recordings", headers=AUTH, json={"game": "chess", "players": []}).status_code == 400
    bad = client.post("/api/recordings", headers=AUTH, json={"game": "colossi", "players": ["a", "b", "c", "d", "e"]})
    assert bad.status_code == 400 and "CL-1.1" in bad.json()["detail"]
    doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": "1"}).json()
    doc = client.post(f"/api/recordings/{rid}/store", headers=AUTH).json()
    stored = client.get(doc["url"].replace("/matches/", "/api/matches/")).json()
    assert stored["verdict"] == "legal" and stored["events"] == 3 and stored["meta"] == {"round": "2"}


def test_the_judges_view_of_two_seats_reconciles(client):
    g = adjudicator.game("logos")
    setup = msgspec.to_builtins(g.sample_setup(1))
    fields = {k: v for k, v in setup.items() if k not in ("type", "game", "players", "options")}
    ids = {}
    for p in setup["players"]:
        ids[p] = client.post("/api/recordings", headers=AUTH, json={
            "game": "logos", "players": setup["players"], "options": setup["options"], "setup": fields, "seat": p}).json()["id"]
    table = Recording(g, g.sample_setup(1))
    rng = random.Random(4)
    for _ in range(40):
        ev = rng.choice([e for e in table.legal() if type(e).__name__ != "Resigned"])
        table.push(ev)
        for p, rid in ids.items():
            entry = json.dumps(msgspec.to_builtins(g.redact(ev, p)))
            doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": entry}).json()
            assert doc["ok"], doc["message"]
    a, b = ids.values()
    doc = client.get(f"/api/recordings/reconcile?a={a}&b={b}", headers=AUTH).json()
    assert doc["contradictions"] == [] and doc["merged_verdict"] == "legal" and doc["merged_events"] == len(table)
    assert len(doc["lines_a"]) == len(doc["lines_b"]) == len(table) and "?" in " ".join(doc["lines_a"])
    # a record that says otherwise: the judge sees where
    c = client.post("/api/recordings", headers=AUTH, json={  # (a judge's: it takes back what the table saw)
        "game": "logos", "players": setup["players"], "options": setup["options"], "setup": fields,
        "judge": True}).json()["id"]
    for ev in table.events[1:3]:
        client.post(f"/api/recordings/{c}/entries", headers=AUTH, json={"entry": json.dumps(msgspec.to_builtins(ev))})
    other = next(e for e in Recording(g, g.sample_setup(1)).legal() if e != table.events[1])
    client.post(f"/api/recordings/{c}/entries", headers=AUTH, json={"entry": "undo"})
    client.post(f"/api/recordings/{c}/entries", headers=AUTH, json={"entry": "undo"})
    client.post(f"/api/recordings/{c}/entries", headers=AUTH, json={"entry": json.dumps(msgspec.to_builtins(other))})
    doc = client.get(f"/api/recordings/reconcile?a={a}&b={c}", headers=AUTH).json()
    assert doc["contradictions"] and doc["merged_verdict"] is None and doc["contradictions"][0]["line_a"] == 2


def test_variations_kept_with_a_stored_match(client):
    r = client.post("/api/matches", content=Path("examples/colossi/legal-2p-to-50-gold.jsonl").read_bytes(),
                    headers={**AUTH, "Content-Type": "application/x-ndjson"})
    mid = r.json()["match_id"]
    legal = client.get(f"/api/matches/{mid}/legal", params={"at": 40}).json()["events"]
    first = legal[0]["event"]
    body = {"at": 40, "events": [first, {"type": "Passed", "player": "nobody-at-all"}], "name": "what if"}
    assert client.post(f"/api/matches/{mid}/variations", json=body).status_code == 401
    assert client.get(f"/api/matches/{mid}/variations").json() == []
    r = client.post(f"/api/matches/{mid}/variations", json={**body, "events": [first]}, headers=AUTH)
    assert r.status_code == 201, r.text
    doc = r.json()
    assert doc["number"] == 1 and doc["at"] == 40 and doc["events"] == [first] and doc["url"].startswith(f"/matches/{mid}?at=40&var=")
    bad = client.post(f"/api/matches/{mid}/variations", json={"at": 40, "events": [{"type": "FirstPlayerDetermined", "player": "ann"}]}, headers=AUTH)
    assert bad.status_code == 400
    listed = client.get(f"/api/matches/{mid}/variations").json()
    assert [v["name"] for v in listed] == ["what if"]


# -- the recording's life cycle (issue 29 item 5) ------------------------------------------------------

def _new_from(client, g, setup, **extra):
    doc = msgspec.to_builtins(setup)
    fields = {k: v for k, v in doc.items() if k not in ("type", "game", "players", "options", "meta")}
    r = client.post("/api/recordings", headers=AUTH, json={"game": g.id, "players": doc["players"],
                                                           "options": doc.get("options", {}), "setup": fields, **extra})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.usefixtures("backend")  # (SQLite and PostgreSQL stores: the recordings' streams on both)
@pytest.mark.parametrize("seed", [1, 2])
def test_store_now_keeps_recording_and_the_final_store_replaces_the_partial_one(client, seed):
    from adjudicator.core.kernel.playout import playout

    g = adjudicator.game("logos")
    log, _ = playout(g, seed)
    rid = _new_from(client, g, log[0])["id"]
    cut = random.Random(seed).randrange(2, len(log) - 1)  # "Store now" somewhere mid-match
    for i, ev in enumerate(log[1:], start=2):
        doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH,
                          json={"entry": json.dumps(msgspec.to_builtins(ev))}).json()
        assert doc["ok"], (i, doc["message"])
        if i == cut:
            doc = client.post(f"/api/recordings/{rid}/store", headers=AUTH).json()
            partial = doc["match_id"]
            assert client.get(f"/api/matches/{partial}").json()["events"] == cut
            assert not doc["over"] and doc["events"] == cut  # the recording goes on
    assert doc["over"] and doc["events"] == len(log)
    final = doc["match_id"]
    assert final != partial and "replacing match " + partial[:8] in doc["message"]
    stored = client.get(f"/api/matches/{final}").json()
    assert stored["events"] == len(log) and stored["verdict"] == "legal"
    listed = [m["match_id"] for m in client.get("/api/matches").json()]
    assert final in listed and partial not in listed  # replaced: the match list shows the final one
    assert client.get(f"/api/matches/{partial}").status_code == 200  # (a stored log stays readable by id)
    # the released session comes back from its file, pointing at the final match
    again = client.get(f"/api/recordings/{rid}", headers=AUTH).json()
    assert again["over"] and again["match_id"] == final


def test_sessions_are_released_and_no_file_is_written_for_a_refused_request(client, tmp_path):
    rec = client.app.state.recordings
    made = 0
    for i in range(205):  # more than a service's sessions at once: the oldest released, never a 503
        r = client.post("/api/recordings", headers=AUTH, json={"game": "colossi", "players": ["ann", "bob"]})
        assert r.status_code == 201, (i, r.status_code, r.text)
        made += 1
    assert len(rec.sessions) <= rec.capacity
    refused = [({"game": "colossi", "players": ["a", "b", "c", "d", "e"]}, AUTH),
               ({"game": "chess", "players": ["a", "b"]}, AUTH),
               ({"game": "colossi", "players": ["ann", "bob"], "seat": "cat"}, AUTH),
               ({"game": "colossi", "players": ["ann", "bob"]}, {})]
    for body, headers in refused:
        assert client.post("/api/recordings", headers=headers, json=body).status_code in (400, 401)
    assert len(list((tmp_path / "rec").glob("*.jsonl"))) == made  # one file per recording started, none else
    # the oldest one was released and comes back from its file
    first = sorted((tmp_path / "rec").glob("*.jsonl"), key=lambda p: p.stat().st_mtime_ns)[0].stem
    assert client.post(f"/api/recordings/{first}/entries", headers=AUTH, json={"entry": "1"}).json()["events"] == 2


def test_an_idle_session_is_released_and_resumed_as_the_same_seat(client):
    rec = client.app.state.recordings
    now = [0.0]
    rec.clock = lambda: now[0]
    g = adjudicator.game("logos")
    setup = g.sample_setup(1)
    rid = _new_from(client, g, setup, seat=setup.players[0])["id"]
    other = _new_from(client, g, setup)["id"]
    assert rid in rec.sessions
    now[0] += rec.idle + 1
    client.get(f"/api/recordings/{other}", headers=AUTH)  # any use sweeps the idle ones
    assert rid not in rec.sessions and other in rec.sessions
    doc = client.get(f"/api/recordings/{rid}", headers=AUTH).json()
    assert doc["seat"] == setup.players[0] and rid in rec.sessions


# -- set-ups without JSON: deck lists as text, registered lists offered ---------------------------------

@pytest.mark.parametrize("gid", ["colossus-order", "logos"])
@pytest.mark.parametrize("seed", [1, 2, 3, 7])
def test_a_deck_list_as_text_reads_back_as_the_set_ups_list(gid, seed):
    """The form's lists are read by the core's deck-list reader (as ``record --deck``)."""
    from adjudicator.core.services.decklist import deck_list_text
    from adjudicator.recorder.web import decks_from_text

    g = adjudicator.game(gid)
    setup = g.sample_setup(seed)
    pool = getattr(setup, "pool", None)
    for p, deck in setup.decks.items():
        text = deck_list_text(g, msgspec.to_builtins(deck), pool)
        assert "{" not in text
        got = decks_from_text(g, pool, list(setup.players), {p: text})[p]
        assert msgspec.convert(got, g.deck_type) == msgspec.convert(msgspec.to_builtins(deck), g.deck_type)
        # ids, other case and spacing, "3x", comments read the same
        ids = "# registered\n" + "\n".join(f"{n}x  {c.upper()}" for c, n in g.deck_counts(deck).items())
        assert decks_from_text(g, pool, list(setup.players), {p: ids}) == {p: got}


def test_a_colossus_order_match_started_from_two_plain_text_lists(client):
    doc = client.get("/api/recordings/sample-setup", params={"game": "colossus-order"}).json()
    lists = doc["deck_lists"]
    assert set(lists) == set(doc["players"]) and "decks" not in doc["setup"]
    r = client.post("/api/recordings", headers=AUTH, json={"game": "colossus-order", "players": doc["players"],
                                                           "deck_lists": lists})
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    g = adjudicator.game("colossus-order")
    started = adjudicator.read_log(f"{client.app.state.recordings.dir}/{rid}.jsonl").setup
    assert started.decks == g.sample_setup(1).decks
    # a typo: the line, and the names it may have meant
    p = doc["players"][0]
    bad = dict(lists, **{p: lists[p].replace("Nightveil Assassin", "Nightvale Asassin")})
    r = client.post("/api/recordings", headers=AUTH, json={"game": "colossus-order", "players": doc["players"], "deck_lists": bad})
    assert r.status_code == 400
    line = next(i for i, t in enumerate(bad[p].splitlines(), start=1) if "Nightvale" in t)
    assert f"{p}'s deck list:{line}: card: no card 'Nightvale Asassin'" in r.json()["detail"]
    assert "did you mean 'Nightveil Assassin'" in r.json()["detail"]
    r = client.post("/api/recordings", headers=AUTH, json={"game": "colossus-order", "players": doc["players"],
                                                           "deck_lists": {**lists, "zed": "1 Ash"}})
    assert r.status_code == 400 and "zed is not a player" in r.json()["detail"]
    # bounded: the cards of a list (copies counted), its lines; nothing written for a refused set-up
    files = len(list(client.app.state.recordings.dir.glob("*")))
    # (the bounds of record --deck: core/services/decklist.py, core/kernel/limits.py)
    for text, why in [("60000 White Gem", ":1: copies: copies: 60000 is over the limit of 10000"),
                      ("10000 White Gem\n" * 11, ":11: a deck list holds at most 100000 cards"),
                      ("1 Ash\n" * 10_001, "a deck list holds at most 10000 lines"),
                      ("0 Ash", "which card is the colossus? the list names none")]:
        r = client.post("/api/recordings", headers=AUTH, json={"game": "colossus-order", "players": doc["players"],
                                                               "deck_lists": {**lists, p: text}})
        assert r.status_code == 400 and why in r.json()["detail"], r.text
    assert len(list(client.app.state.recordings.dir.glob("*"))) == files


def test_the_lists_registered_for_a_stored_tournament_are_offered(tmp_path):
    import shutil

    from click.testing import CliRunner

    from adjudicator.cli.main import main

    shutil.copytree("examples/tournament", tmp_path / "t")
    db = tmp_path / "t.db"
    r = CliRunner().invoke(main, ["tournament", "import", str(tmp_path / "t" / "manifest.toml"), "--db", str(db)])
    assert r.exit_code == 0, r.output
    store = MatchStore(str(db))
    try:
        with TestClient(create_app(store, upload_token=TOKEN, recordings=tmp_path / "rec")) as c:
            assert c.get("/api/recordings/registered-lists", params={"game": "colossus-order"}).status_code == 401
            rep = c.get("/api/tournaments/Example Colossus Order evening").json()
            assert "registered_decks" not in rep and "heroic-knight" not in json.dumps(rep)  # not public
            lists = c.get("/api/recordings/registered-lists", params={"game": "colossus-order"}, headers=AUTH).json()
            assert [(x["tournament"], x["player"]) for x in lists] == [("Example Colossus Order evening", "alice"),
                                                                       ("Example Colossus Order evening", "bob")]
            assert "17 White Gem" in lists[0]["text"].replace("white-gem", "White Gem") and "{" not in lists[0]["text"]
            assert c.get("/api/recordings/registered-lists", params={"game": "logos"}, headers=AUTH).json() == []
            r = c.post("/api/recordings", headers=AUTH, json={"game": "colossus-order", "players": ["alice", "bob"],
                                                              "deck_lists": {x["player"]: x["text"] for x in lists}})
            assert r.status_code == 201, r.text
    finally:
        store.close()


@pytest.mark.parametrize("gid", ["colossus-order", "logos", "kolossus", "colossi"])
def test_a_choice_typed_as_its_button_reads_is_recorded(client, gid):
    """The entry line reads the buttons' words (the game's notation): every choice of the first
    positions of a generated match, typed as its label, records that choice's event."""
    from adjudicator.core.kernel.playout import playout

    g = adjudicator.game(gid)
    log, _ = playout(g, 5, max_events=12)
    rid = _new_from(client, g, log[0], judge=True)["id"]  # (a judge's: each pick, a roll too, is taken back)
    doc = client.get(f"/api/recordings/{rid}", headers=AUTH).json()
    for ev in log[1:]:
        labels = [c["label"] for c in doc["choices"]]
        for c in doc["choices"][:6]:
            if labels.count(c["label"]) > 1 or c["ends"]:
                continue
            got = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": c["label"].upper()}).json()
            assert got["ok"], (c["label"], got["message"])
            assert got["events"] == doc["events"] + 1
            assert client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": "undo"}).json()["ok"]
        doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": json.dumps(msgspec.to_builtins(ev))}).json()
        assert doc["ok"], doc["message"]


@pytest.mark.parametrize("gid", ["colossus-order", "logos", "kolossus", "colossi"])
def test_the_event_list_is_the_notation_of_each_event_in_its_position(gid, tmp_path):
    """The page's event list (and the judge's side-by-side lines): each event in the game's
    notation, in the position it was entered in, over a generated match; the last 12 are the end
    of the whole list."""
    from adjudicator.core.kernel.playout import playout
    from adjudicator.recorder.session import RecordSession
    from adjudicator.recorder.web import log_lines

    g = adjudicator.game(gid)
    log, _ = playout(g, 2, max_events=60)
    doc = msgspec.to_builtins(log[0])
    fields = {k: v for k, v in doc.items() if k not in ("type", "game", "players", "options", "meta")}
    s = RecordSession.start(tmp_path / "a.jsonl", gid, doc["players"], options=doc.get("options"), fields=fields)
    s.autopass = False  # the generated log's own passes are pushed
    for e in log[1:]:
        assert s.push(e).ok
    every = log_lines(s, None)
    assert every[-12:] == log_lines(s, 12) and len(every) == len(log) - 1
    r = s.record
    assert every == [f"{i}. {g.notation.format(e, r.position(at=i - 1).state)}" for i, e in enumerate(r.events[1:], start=2)]


def test_a_logos_match_started_from_two_plain_text_lists(client):
    """LOGOS as Colossus Order: the web form's deck-list box takes a list in card names (the
    sample set-up's lists as the page shows them), and a typo is the line and the closest name."""
    doc = client.get("/api/recordings/sample-setup", params={"game": "logos"}).json()
    lists = doc["deck_lists"]
    assert set(lists) == set(doc["players"]) and "decks" not in doc["setup"]
    assert all(ln[:1].isdigit() and "-" not in ln for t in lists.values() for ln in t.splitlines() if ln and ln[0] != "#")
    r = client.post("/api/recordings", headers=AUTH, json={"game": "logos", "players": doc["players"], "deck_lists": lists})
    assert r.status_code == 201, r.text
    started = adjudicator.read_log(f"{client.app.state.recordings.dir}/{r.json()['id']}.jsonl").setup
    want = adjudicator.game("logos").sample_setup(1).decks
    assert {p: dict(sorted(d.items())) for p, d in started.decks.items()} == {p: dict(sorted(d.items())) for p, d in want.items()}
    p = doc["players"][0]
    first = next(ln for ln in lists[p].splitlines() if ln[:1].isdigit())
    n, name = first.split(" ", 1)
    bad = dict(lists, **{p: lists[p].replace(first, f"{n} {name[:-1]}")})
    r = client.post("/api/recordings", headers=AUTH, json={"game": "logos", "players": doc["players"], "deck_lists": bad})
    line = next(i for i, t in enumerate(bad[p].splitlines(), start=1) if t == f"{n} {name[:-1]}")
    assert r.status_code == 400 and f"{p}'s deck list:{line}: card: no card {name[:-1]!r}" in r.json()["detail"], r.text
    assert f"did you mean {name!r}" in r.json()["detail"]
