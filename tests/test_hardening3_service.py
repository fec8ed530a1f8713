"""Hardened, round 3 (issue 29): the replay service's part.

* item 1: hidden cards of a match in progress only with the token (a stored seat recording is hidden
  like any match in progress; a canary card walked across every route of the app);
* item 4: JSON inside HTML written by one safe encoder (the replay file, the tournament report, the
  service's pages), in Chromium with ``<!--``, ``</script>`` and quotes in every text field;
* item 6: one bounded JSON decoder for every request body (deep bodies on every route: 400, never 500);
* item 12: no server path in an answer.

The OpenAPI document and Schemathesis: tests/test_hardening3_schema.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

import adjudicator
from adjudicator.build import Recording
from adjudicator.core.store import MatchStore
from adjudicator.replays.web import create_app
from adjudicator.replays.web.safejson import html_json

TOKEN = "hardening-3"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
#: every text a person can write that HTML or a script element could mistake for markup
HOSTILE = "<!--x</script><script>window.pwned=1</script>\"'&amp;\u2028\u2029-->"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[tuple[TestClient, MatchStore, Path]]:
    store = MatchStore(str(tmp_path / "s.db"))
    app = create_app(store, upload_token=TOKEN, recordings=tmp_path / "recs")
    with TestClient(app) as c:
        yield c, store, tmp_path
    store.close()


def _routes(client: TestClient) -> list[tuple[str, set[str]]]:
    """Every route of the app (the router walked): its path template and its HTTP methods."""
    return [(r.path, set(r.methods) - {"OPTIONS"}) for r in client.app.routes if hasattr(r, "methods")]


def _fill(path: str, values: dict[str, str]) -> str:
    """A route's path with each parameter (``{name:type}``) set to ``values[name]``."""
    return re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: values[m.group(1)], path)


def _seat_recording(client: TestClient, events: int) -> tuple[str, str, list[str]]:
    """A LOGOS match recorded in the browser by the first seat (its record names its own draws, the
    other seat's are ``?``), stored mid-match with "Store now": the recording's id, the stored
    match's id and the players."""
    g = adjudicator.game("logos")
    setup = msgspec.to_builtins(g.sample_setup(1))
    seat = setup["players"][0]
    fields = {k: v for k, v in setup.items() if k not in ("type", "game", "players", "options")}
    r = client.post("/api/recordings", headers=AUTH, json={"game": "logos", "players": setup["players"],
                                                           "options": setup["options"], "setup": fields, "seat": seat})
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    table = Recording(g, g.sample_setup(1))
    for _ in range(events):
        ev = next(e for e in table.legal() if type(e).__name__ != "Resigned")
        table.push(ev)
        doc = client.post(f"/api/recordings/{rid}/entries", headers=AUTH,
                          json={"entry": json.dumps(msgspec.to_builtins(g.redact(ev, seat)))}).json()
        assert doc["ok"], doc["message"]
    doc = client.post(f"/api/recordings/{rid}/store", headers=AUTH).json()
    assert doc["match_id"] and not doc["over"]
    return rid, doc["match_id"], setup["players"]


def _without_possibles(value: Any, possible: set[str] | None = None) -> Any:
    """An answer without what the public may know of every unknown card: the cards it can still be
    (``possible``, from the pool) and their texts (``cards`` entries of those ids, and the replay
    file's ``card_ids`` naming them)."""
    if possible is None:
        possible = set()

        def collect(v: Any) -> None:
            if isinstance(v, dict):
                if isinstance(v.get("possible"), list):
                    possible.update(x for x in v["possible"] if isinstance(x, str))
                for x in v.values():
                    collect(x)
            elif isinstance(v, list):
                for x in v:
                    collect(x)
        collect(value)
    if isinstance(value, dict):
        return {k: [x for x in v if x not in possible] if k == "card_ids" else _without_possibles(v, possible)
                for k, v in value.items() if k != "possible" and not (k in possible and isinstance(v, dict) and "facts" in v)}
    if isinstance(value, list):
        return [_without_possibles(v, possible) for v in value]
    return value


def _shown(r: Any) -> str:
    """What an answer shows, as text (JSON answers and the replay file's data without the public's
    possibilities)."""
    text = r.text
    kind = r.headers.get("content-type", "")
    if kind.startswith("application/json"):
        return json.dumps(_without_possibles(r.json()))
    m = re.search(r'<script type="application/json" id="export-data">(.*?)</script>', text, re.S)
    if m:
        return json.dumps(_without_possibles(json.loads(m.group(1))))
    return text


def test_a_stored_seat_recording_in_progress_shows_its_hidden_cards_only_with_the_token(service):
    """Item 1: the canary (a card the recording seat drew, hidden from everyone else) never appears
    in any answer of any route without the token; with the token the judge's view shows it."""
    client, _store, _tmp = service
    rid, mid, players = _seat_recording(client, 6)
    judge = client.get(f"/api/matches/{mid}/log", headers=AUTH).text
    seat = players[0]
    drawn = [json.loads(line)["card"] for line in judge.splitlines()
             if json.loads(line).get("type") == "CardDrawn" and json.loads(line)["player"] == seat]
    assert drawn and "?" not in drawn
    canary = drawn[-1]
    name = client.get(f"/api/matches/{mid}/position", headers=AUTH).json()["cards"][canary]["name"]
    assert canary in judge  # the control: the judge's view holds it
    values = {"match_id": mid, "rid": rid, "ref": "no-such-tournament", "name": "viewer.js", "path": "openapi.json"}
    queries: list[dict[str, Any]] = [{}, {"as": "public"}, {"as": "judge"}, {"at": 3}, {"from": 2, "limit": 3},
                                     {"a": rid, "b": rid}, {"game": "colossi"}, *({"as": p} for p in players)]
    # (sample-setup of LOGOS is the pool's sample decks, public and not this match's: colossi's is asked)
    walked = 0
    for path, methods in _routes(client):
        url = _fill(path, values)
        for method in sorted(methods):
            walked += 1
            for q in queries:
                r = client.request(method, url, params=q)
                assert r.status_code < 500, (method, url, q, r.text[:300])
                shown = _shown(r)
                assert canary not in shown and name not in shown, (method, url, q, shown[:400])
    assert walked >= 25
    # a seat's view or the judge's of the match in progress: 401, the public view shown instead
    r = client.get(f"/api/matches/{mid}/log", params={"as": seat})
    assert r.status_code == 401 and "token" in r.json()["detail"]
    assert client.get(f"/api/matches/{mid}/position").json()["view"] == "the public"
    assert canary in client.get(f"/api/matches/{mid}/log", params={"as": seat}, headers=AUTH).text


def test_a_read_only_service_shows_a_match_in_progress_as_the_public_sees_it(tmp_path):
    store = MatchStore(str(tmp_path / "s.db"))
    lines = Path("examples/logos/legal-seat-ann-hidden-picks.jsonl").read_bytes().splitlines(keepends=True)
    (tmp_path / "pre.jsonl").write_bytes(b"".join(lines[:7]))  # ann has drawn three cards, none shown yet
    mid = store.import_file(tmp_path / "pre.jsonl").match_id
    done = store.import_file("examples/logos/legal-seat-ann-hidden-picks.jsonl").match_id
    try:
        with TestClient(create_app(store)) as c:
            log = c.get(f"/api/matches/{mid}/log").text
            assert '"card":"?"' in log and "ember-convert" not in log
            assert c.get(f"/api/matches/{mid}/events", params={"as": "ann"}).status_code == 403
            assert c.get(f"/api/matches/{mid}/variation.jsonl").status_code == 403
            assert c.get(f"/api/matches/{mid}/export.html", params={"as": "judge"}).status_code == 403
            # a finished match is shown as before: the judge's view to anyone
            assert "ember-convert" in c.get(f"/api/matches/{done}/log").text
    finally:
        store.close()


# -- item 6: one bounded decoder for every JSON body -------------------------------------------------

DEEP = "[" * 3000 + "]" * 3000


def test_deep_bodies_on_every_route_answer_400_never_500(service):
    client, _store, _tmp = service
    rid, mid, _players = _seat_recording(client, 2)
    values = {"match_id": mid, "rid": rid, "ref": "x", "name": "viewer.js", "path": "openapi.json"}
    bodies = ['{"game": ' + DEEP + "}", '{"entry": ' + DEEP + "}", '{"at": 1, "events": ' + DEEP + "}", DEEP,
              '{"at": 1, "events": [' + '{"a":' * 3000 + "1" + "}" * 3000 + "]}"]
    walked = 0
    for path, methods in _routes(client):
        for method in sorted(methods - {"GET", "HEAD"}):
            walked += 1
            for body in bodies:
                for headers in ({}, AUTH):
                    r = client.request(method, _fill(path, values), content=body,
                                       headers={**headers, "Content-Type": "application/json"})
                    assert r.status_code < 500, (method, path, r.text[:300])
    assert walked >= 5  # uploads, recordings (new, entries, store), variations
    for url, body in ((f"/api/matches/{mid}/variations", '{"at": 1, "events": ' + DEEP + ', "name": ""}'),
                      ("/api/recordings", '{"game": ' + DEEP + "}"), (f"/api/recordings/{rid}/entries", '{"entry": ' + DEEP + "}")):
        r = client.post(url, content=body, headers={**AUTH, "Content-Type": "application/json"})
        assert r.status_code == 400 and "deep" in r.json()["detail"], (url, r.text[:200])
    # an entry that is an event as JSON text, nested too deep, is refused like the body
    r = client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": '{"type": "CardDrawn", "card": ' + DEEP + "}"})
    assert r.status_code < 500 and not r.json().get("ok", False)


def test_json_sent_as_text_plain_is_refused(service, tmp_path):
    client, _store, _tmp = service
    r = client.post("/api/recordings", content='{"game": "logos", "players": ["a", "b"]}',
                    headers={**AUTH, "Content-Type": "text/plain"})
    assert r.status_code == 415
    assert not list((tmp_path / "recs").glob("*.jsonl"))  # nothing written for a refused request
    big = '{"game": "' + "x" * 1_100_000 + '"}'
    assert client.post("/api/recordings", content=big, headers={**AUTH, "Content-Type": "application/json"}).status_code == 413


def test_head_answers_where_get_does(service):
    client, _store, _tmp = service
    for url in ("/api/info", "/api/games", "/", "/static/viewer.js", "/schema/openapi.json"):
        get, head = client.get(url), client.head(url)
        assert head.status_code == get.status_code == 200 and head.content == b""
        assert head.headers["content-type"] == get.headers["content-type"]


def test_framework_errors_name_the_parameters_a_client_sends(service):
    client, store, _tmp = service
    mid = store.import_file("examples/logos/legal-hidden-picks.jsonl").match_id
    r = client.get(f"/api/matches/{mid}/events", params={"from": "abc"})
    assert r.status_code == 400 and [e["key"] for e in r.json()["extra"]] == ["from"]


# -- item 12: no server paths -------------------------------------------------------------------------

def test_no_answer_gives_a_server_path(service):
    client, store, tmp = service
    deep_dir = tmp / "srv" / "private-place"
    deep_dir.mkdir(parents=True)
    src = deep_dir / "club-final.jsonl"
    src.write_bytes(Path("examples/logos/legal-hidden-picks.jsonl").read_bytes())
    imported = store.import_file(src).match_id
    rid, recorded, _players = _seat_recording(client, 2)
    values = {"rid": rid, "ref": "x", "name": "viewer.js", "path": "openapi.json"}
    for mid in (imported, recorded):
        for path, methods in _routes(client):
            if "GET" not in methods or path.startswith("/schema"):
                continue
            r = client.get(_fill(path, {**values, "match_id": mid}), headers=AUTH, params={"a": rid, "b": rid})
            assert str(tmp) not in r.text and "recs/" not in r.text and "private-place" not in r.text, (path, r.text[:300])
    assert client.get(f"/api/matches/{imported}").json()["source"] == "club-final.jsonl"
    # errors and refusals name a recording's log by its file name only
    answers = [client.post("/api/recordings", headers=AUTH, json={"game": "logos", "players": ["a", "b"], "seat": "zed"}),
               client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": '{"type": "Nothing"}'}),
               client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": "[[[["}),
               client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": "no such words"})]
    for r in answers:
        assert r.status_code < 500 and str(tmp) not in r.text and "recs/" not in r.text, r.text[:300]


def test_a_stored_tournament_names_no_server_path(tmp_path):
    from click.testing import CliRunner

    from adjudicator.cli.main import main

    manifest = _hostile_tournament(tmp_path / "srv" / "private-place")
    db = tmp_path / "s.db"
    r = CliRunner().invoke(main, ["tournament", "import", str(manifest), "--db", str(db)])
    assert r.exit_code in (0, 1), r.output
    with MatchStore(str(db)) as store, TestClient(create_app(store)) as c:
        [t] = c.get("/api/tournaments").json()
        for url in (f"/api/tournaments/{t['tournament_id']}", f"/tournaments/{t['tournament_id']}", "/api/tournaments"):
            text = c.get(url).text
            assert "private-place" not in text and str(tmp_path) not in text, url
        rep = c.get(f"/api/tournaments/{t['tournament_id']}").json()
        assert all(t["log"] is None or not t["log"].startswith("/") for t in rep["tables"])


# -- item 4: JSON inside HTML -------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.recursive(st.text() | st.integers() | st.none(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20))
def test_the_html_json_encoder_reads_back_and_holds_no_markup(value):
    text = html_json(value)
    assert json.loads(text) == value
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}


def test_the_old_escaping_is_gone():
    """``<!--`` was written ``<\\!--``, which no JSON parser reads."""
    text = html_json({"note": HOSTILE})
    assert json.loads(text)["note"] == HOSTILE and "\\!" not in text


# -- item 4 in Chromium: every page with hostile text in every text field --------------------------------

from benchmarks.fuzz_web import HOSTILE as HOSTILE_META  # noqa: E402 (the fuzzer's hostile texts, shared)
from benchmarks.fuzz_web import HOSTILE_NAME, HOSTILE_NOTE  # noqa: E402
from benchmarks.fuzz_web import hostile_log as _hostile_log  # noqa: E402


def _hostile_tournament(root: Path) -> Path:
    from tests.tournament_gen import generate

    gen = generate(root, "logos", players=2, rounds=2, plant=(), penalty=False)
    text = gen.manifest.read_text()
    text = text.replace('name = "Player 1"', f"name = {json.dumps(HOSTILE_NAME)}", 1)
    text = re.sub(r'^name = "Generated[^"]*"', lambda _m: f"name = {json.dumps(HOSTILE_META['judge'] + HOSTILE_NOTE)}",
                  text, count=1, flags=re.M)
    gen.manifest.write_text(text)
    return gen.manifest


def _page_is_whole(pg: Any) -> None:
    """Nothing of the hostile texts ran or cut the page short."""
    assert pg.evaluate("window.pwned") is None


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="/usr/bin/chromium is missing")
def test_the_replay_file_and_the_report_hold_hostile_texts_in_chromium(tmp_path):
    from click.testing import CliRunner

    from adjudicator.cli.main import main
    from tests.offline_browser import offline_page

    log = _hostile_log(tmp_path / "hostile.jsonl")
    replay = tmp_path / "replay.html"
    r = CliRunner().invoke(main, ["export", str(log), "-o", str(replay), "--as", "public", "--as", HOSTILE_NAME])
    assert r.exit_code == 0, r.output
    manifest = _hostile_tournament(tmp_path / "event")
    report = tmp_path / "report.html"
    r = CliRunner().invoke(main, ["tournament", "check", str(manifest), "--html", str(report)])
    assert r.exit_code in (0, 1), r.output
    with offline_page() as off:
        pg = off.page
        pg.goto(replay.as_uri())
        pg.wait_for_function("document.body.dataset.ready === '1'")
        assert pg.locator("#pos").inner_text() == "1 / 225"  # every event row is there
        pg.keyboard.press("End")
        pg.wait_for_function("document.getElementById('pos').textContent === '225 / 225'")
        assert HOSTILE_META["judge"] in pg.locator("#meta").inner_text()
        assert HOSTILE_NAME in pg.locator("#view").inner_text()
        pg.goto(replay.as_uri() + "?at=4")
        pg.wait_for_function("document.body.dataset.ready === '1'")
        assert "a note </script>" in pg.locator("body").inner_text()
        _page_is_whole(pg)
        pg.goto(report.as_uri())
        assert pg.locator("#shown").inner_text() == "2 of 2 tables shown"  # the report's script ran
        assert HOSTILE_META["judge"] in pg.locator("h1").inner_text() and HOSTILE_NAME in pg.locator("table.summary").first.inner_text()
        pg.click("button[data-filter=problems]")
        pg.click("button[data-filter=all]")
        pg.locator("td.cell").first.click()
        assert "round 1 table 1" in pg.locator("#detail").inner_text()
        _page_is_whole(pg)
        assert off.errors == []


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="/usr/bin/chromium is missing")
def test_every_service_page_holds_hostile_texts_in_chromium(tmp_path):
    from click.testing import CliRunner
    from playwright.sync_api import sync_playwright

    from adjudicator.cli.main import main
    from tests.offline_browser import ARGS, CHROMIUM
    from tests.test_web_browser import Live

    manifest = _hostile_tournament(tmp_path / "event")
    db = tmp_path / "s.db"
    r = CliRunner().invoke(main, ["tournament", "import", str(manifest), "--db", str(db)])
    assert r.exit_code in (0, 1), r.output
    store = MatchStore(str(db))
    mid = store.import_file(_hostile_log(tmp_path / "hostile.jsonl")).match_id
    srv = Live(store)
    try:
        tid = srv.api("/api/tournaments")[0]["tournament_id"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
            pg = browser.new_page()
            errors: list[str] = []
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.goto(srv.url + "/")
            pg.wait_for_function("document.body.dataset.ready === '1'")
            assert HOSTILE_NAME in pg.locator("body").inner_text()
            _page_is_whole(pg)
            pg.goto(f"{srv.url}/matches/{mid}?at=4")
            pg.wait_for_function("document.body.dataset.ready === '1'")
            assert pg.locator("#pos").inner_text() == "4 / 225"
            assert HOSTILE_META["judge"] in pg.locator("#meta").inner_text()
            assert "a note </script>" in pg.locator("body").inner_text()
            _page_is_whole(pg)
            pg.goto(f"{srv.url}/tournaments/{tid[:8]}")
            assert pg.locator("#shown").inner_text() == "2 of 2 tables shown"
            assert HOSTILE_META["judge"] in pg.locator("h1").inner_text()
            _page_is_whole(pg)
            pg.goto(f"{srv.url}/record")
            _page_is_whole(pg)
            browser.close()
            assert errors == []
    finally:
        srv.stop()
        store.close()


# -- the fuzzer's page and body surfaces (python -m benchmarks --fuzz N --fuzz-surface service-pages) --------

def test_the_page_and_body_surfaces_are_registered_and_find_nothing():
    from benchmarks.fuzz_surfaces import surfaces
    from benchmarks.fuzz_web import fuzz_bodies, fuzz_pages

    assert surfaces()["service-pages"] is fuzz_pages and surfaces()["service-bodies"] is fuzz_bodies
    for fuzz in (fuzz_pages, fuzz_bodies):
        rep = fuzz(fuzz.__name__, 150, 7)
        assert rep.inputs >= 140 and rep.crashes == [] and rep.hangs == [], (rep.crashes[:3], rep.hangs[:3])
        assert rep.statuses and rep.statuses.get(200, 0) >= 20, rep.statuses  # past the checks, not only refusals
        assert rep.peak_bytes > 0  # (the process's peak: the 256 MiB bound is python -m benchmarks --fuzz's, run alone)


def test_the_pages_surface_finds_the_old_escaping(monkeypatch):
    """With the report's and the replay file's JSON escaped the old way (``<!--`` -> ``<\\!--``), the
    surface reports the pages whose JSON no longer parses."""
    from adjudicator.replays.web import export, report
    from benchmarks.fuzz_web import fuzz_pages

    def old(value):
        return json.dumps(value).replace("</", "<\\/").replace("<!--", "<\\!--")

    monkeypatch.setattr(export, "html_json", old)
    monkeypatch.setattr(report, "json_script", lambda id_, v: f'<script type="application/json" id="{id_}">{old(v)}</script>')
    rep = fuzz_pages("service-pages", 150, 7)
    assert any("unsafe HTML" in c for c in rep.crashes), rep.statuses


def test_the_bodies_surface_finds_an_unbounded_decoder(monkeypatch):
    """With the bodies decoded without the depth bound (the defect of item 6), the surface reports
    the 500s."""
    import msgspec as _msgspec

    from adjudicator.replays.web import bounds
    from benchmarks.fuzz_web import fuzz_bodies

    monkeypatch.setattr(bounds, "decode_body", lambda raw, what="": _msgspec.json.decode(raw))
    rep = fuzz_bodies("service-bodies", 300, 7)
    assert any(" 500 " in c and "RecursionError" in c for c in rep.crashes), rep.statuses


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="/usr/bin/chromium is missing")
def test_the_viewer_shows_a_match_in_progress_publicly_and_fully_with_the_tabs_token(tmp_path):
    """The viewer of a match in progress: without a token the public view (the seat's drawn card
    nowhere on the page); with the token the judge gave this tab (sessionStorage, as the upload
    form and "keep with the match" keep it) the judge's view."""
    from playwright.sync_api import sync_playwright

    from tests.offline_browser import ARGS, CHROMIUM
    from tests.test_web_browser import UPLOAD_TOKEN, Live

    lines = Path("examples/logos/legal-seat-ann-hidden-picks.jsonl").read_bytes().splitlines(keepends=True)
    (tmp_path / "pre.jsonl").write_bytes(b"".join(lines[:7]))  # ann drew ember-convert, iron-golem, stone-sentinel
    store = MatchStore(str(tmp_path / "s.db"))
    mid = store.import_file(tmp_path / "pre.jsonl").match_id
    srv = Live(store)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
            pg = browser.new_page()
            pg.goto(f"{srv.url}/matches/{mid}?at=7")
            pg.wait_for_function("document.body.dataset.ready === '1'")
            shown = pg.locator("#scene").inner_text() + pg.locator("#events").inner_text()
            assert "7 / 7" in pg.locator("#pos").inner_text() and "Stone Sentinel" not in shown and "stone-sentinel" not in shown
            pg.evaluate(f"sessionStorage.setItem('adjudicator-token', {json.dumps(UPLOAD_TOKEN)})")
            pg.reload()
            pg.wait_for_function("document.body.dataset.ready === '1'")
            shown = pg.locator("#scene").inner_text() + pg.locator("#events").inner_text()
            assert "stone-sentinel" in shown.lower().replace(" ", "-")
            browser.close()
    finally:
        srv.stop()
        store.close()
