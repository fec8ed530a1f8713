"""The recording API of the service (/api/recordings, replays/web/record.py): the token, entries,
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
    assert doc["random"] and [c["label"] for c in doc["choices"]] == ["ann: first player determined", "bob: first player determined"]
    doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": "2"}).json()
    assert doc["ok"] and doc["events"] == 2 and doc["log"] == ["2. bob: first player determined"]
    doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": '{"type": "Passed", "player": "ann"}'}).json()
    assert not doc["ok"] and doc["message"].startswith("refused: CL-1.3") and doc["events"] == 2
    doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": "undo"}).json()
    assert doc["ok"] and doc["events"] == 1
    assert client.post("/api/recordings", headers=AUTH, json={"game": "chess", "players": []}).status_code == 400
    bad = client.post("/api/recordings", headers=AUTH, json={"game": "colossi", "players": ["a", "b", "c", "d", "e"]})
    assert bad.status_code == 400 and "CL-1.1" in bad.json()["detail"]
    doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": "1"}).json()
    doc = client.post(f"/api/recordings/{rid}/store", headers=AUTH).json()
    stored = client.get(doc["url"].replace("/matches/", "/api/matches/")).json()
    assert stored["verdict"] == "legal" and stored["events"] == 2 and stored["meta"] == {"round": "2"}


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
    c = client.post("/api/recordings", headers=AUTH, json={
        "game": "logos", "players": setup["players"], "options": setup["options"], "setup": fields}).json()["id"]
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
