"""Undetermined rulings and unknown cards in the viewers and the JSON API (issue 11).

The games produce ``undetermined`` rulings and unknown scene cards (``Card.possible``) only from a
seat's record; here the toy game is wrapped (as in tests/test_undetermined.py) so that an
addition of 2 is undetermined ("the hidden die shows 2") and its scene holds one known card and
one unknown card that can still be two cards of a small made-up pool.  Expected values come from
the replay model and the fixture, never from the viewer being tested.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from adjudicator.cli.main import main
from adjudicator.core.kernel.rulings import Undetermined
from adjudicator.core.kernel.scene import Card, Scene, Zone
from adjudicator.core.store import MatchStore
from adjudicator.replays.core import ILLEGAL, UNDETERMINED, Replay, unknown_cards
from adjudicator.replays.terminal import MARK_HINTS, MARKS, UNKNOWN, Palette, card_text
from adjudicator.replays.tui import ReplayApp
from adjudicator.replays.web.app import create_app
from tests.toygame import Added, ToyGame

CONDITION = "the hidden die shows 2"
#: the made-up pool of the toy scene: id -> (name, text)
POOL = {"seven": ("Seven of Cups", "Add 7."), "two": ("Two of Wands", "Add 2."),
        "three": ("Three of Swords", "Add 3.")}
#: what the unknown card of the toy scene can still be (pool order)
POSSIBLE = ["two", "three"]


def toy_scene(self: ToyGame, s: Any, player: str | None) -> Scene:
    hand = Zone("hand-b", "hand", "b", cards=[Card(id="h1", name="Seven of Cups", card="seven"),
                                              Card(id="h2", face_up=False, possible=list(POSSIBLE))])
    return Scene(game="toy", view=player, status=f"total {s.total}/{s.target}", zones=[hand])


def toy_card_info(self: ToyGame, setup: Any, card_id: str) -> dict[str, Any] | None:
    if card_id not in POOL:
        return None
    name, text = POOL[card_id]
    return {"id": card_id, "name": name, "text": text, "facts": []}


def patch_toy(mp: pytest.MonkeyPatch) -> None:
    """An addition of 2 is undetermined; the scene shows a known and an unknown card."""
    real = ToyGame.check

    def check(self, s, e):
        ruling = real(self, s, e)
        if ruling.legal and isinstance(e, Added) and e.n == 2:
            return Undetermined("TOY-3", "toy/unknown-die", f"{e.player} adds 2 from a hidden die",
                                CONDITION).ruling()
        return ruling

    mp.setattr(ToyGame, "check", check)
    mp.setattr(ToyGame, "scene", toy_scene)
    mp.setattr(ToyGame, "card_info", toy_card_info)


@pytest.fixture()
def unknown_toy(toy, monkeypatch):
    patch_toy(monkeypatch)
    return toy


def write_log(path: Path, adds: list[tuple[str, int]]) -> Path:
    lines = [{"type": "MatchStarted", "game": "toy", "players": ["a", "b"], "target": 50}]
    lines += [{"type": "Added", "player": p, "n": n} for p, n in adds]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


#: events 3 and 5 are undetermined, event 6 (adds 9) is illegal
ADDS = [("a", 1), ("b", 2), ("a", 3), ("b", 2), ("a", 9), ("a", 1)]
UNDETERMINED_AT, ILLEGAL_AT = [3, 5], 6


@pytest.fixture()
def log(unknown_toy, tmp_path: Path) -> Path:
    return write_log(tmp_path / "unsure.jsonl", ADDS)


# -- the replay model --------------------------------------------------------------------------

def test_frames_mark_undetermined_rulings_with_their_condition(log: Path) -> None:
    r = Replay.from_file(log)
    got = {f.number: (f.mark, f.condition) for f in r.frames}
    for n in UNDETERMINED_AT:
        assert got[n] == (UNDETERMINED, CONDITION)
        assert r.frames[n - 1].as_dict()["condition"] == CONDITION
    assert got[ILLEGAL_AT][0] == ILLEGAL and got[ILLEGAL_AT][1] is None
    assert all(c is None for n, (m, c) in got.items() if n not in UNDETERMINED_AT)
    assert r.violations() == [ILLEGAL_AT]  # undetermined is no violation ...
    assert r.stops() == UNDETERMINED_AT + [ILLEGAL_AT]  # ... but n/p stop at it
    assert r.next_violation(1) == 3 and r.next_violation(3) == 5 and r.next_violation(5) == 6
    assert r.previous_violation(6) == 5 and r.next_violation(6) is None
    for player in r.players():  # a seat's view keeps the mark and (its event not hidden) the condition
        f = r.frame(3, player)
        assert (f.mark, f.condition) == (UNDETERMINED, CONDITION)


def test_unknown_cards_and_what_they_can_be(log: Path) -> None:
    r = Replay.from_file(log)
    scene = r.scene(3)
    [u] = unknown_cards(scene)
    assert (u.zone, u.index, u.possible, u.key) == ("hand-b", 1, POSSIBLE, "hand-b#1")
    texts = r.cards(3)
    assert list(texts) == ["seven", *POSSIBLE]  # the shown card first, then what the unknown can be
    assert texts["three"]["name"] == "Three of Swords"
    drawn = card_text(scene.zones[0].cards[1], Palette(scene))
    assert drawn.plain == f"{UNKNOWN}?{len(POSSIBLE)}"
    assert card_text(scene.zones[0].cards[0], Palette(scene)).plain == "Seven of Cups"
    assert MARKS[UNDETERMINED][0] == UNKNOWN and "condition" in MARK_HINTS[UNDETERMINED]


# -- the terminal viewer (a Textual pilot) -------------------------------------------------------

@pytest.fixture
def anyio_backend():
    return "asyncio"


def panel(app: ReplayApp, selector: str) -> str:
    strips = [s.text for s in app.screen._compositor.render_strips()]
    region = app.query_one(selector).region
    text = " ".join(line[region.x:region.x + region.width] for line in strips[region.y:region.y + region.height])
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text))


@pytest.mark.anyio
async def test_the_tui_marks_stops_at_and_explains_undetermined_rulings(log: Path) -> None:
    app = ReplayApp(Replay.from_file(log))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert app.cursor == UNDETERMINED_AT[0]
        ruling = panel(app, "#ruling")
        assert f"{UNKNOWN} undetermined" in ruling and f"legal if {CONDITION}" in ruling
        assert "TOY-3" in ruling
        events = panel(app, "#events")
        assert re.search(rf"{UNKNOWN}\s+3 ", events) and re.search(rf"{UNKNOWN}\s+5 ", events)
        await pilot.press("n", "n")
        await pilot.pause()
        assert app.cursor == ILLEGAL_AT
        await pilot.press("p")
        await pilot.pause()
        assert app.cursor == UNDETERMINED_AT[1]
        assert f"{UNKNOWN}?2" in panel(app, "#position-box")
        assert f"1 violation {len(UNDETERMINED_AT)} undetermined" in panel(app, "#title")


@pytest.mark.anyio
async def test_the_tui_card_pane_shows_what_an_unknown_card_can_be(log: Path) -> None:
    app = ReplayApp(Replay.from_file(log), at=3)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("c")  # the known card first
        await pilot.pause()
        assert app.card == "seven" and "Seven of Cups" in panel(app, "#card")
        await pilot.press("c")  # then the unknown one
        await pilot.pause()
        pane = panel(app, "#card")
        assert app.card == "hand-b#1"
        assert "unknown card" in pane and "can still be 2" in pane
        assert "Two of Wands" in pane and "Three of Swords" in pane and "2/2" in pane
        await pilot.press("c")  # wraps
        await pilot.pause()
        assert app.card == "seven"


# -- the JSON API and the store -------------------------------------------------------------------

def test_the_store_keeps_undetermined_rulings_and_their_condition(log: Path, tmp_path: Path) -> None:
    with MatchStore(str(tmp_path / "s.db")) as st:
        res = st.import_file(log, allow_illegal=True)
        steps = {s.seq: s.ruling for s in st.steps(res.match_id, 1, len(ADDS) + 1)}
    for n in UNDETERMINED_AT:
        assert steps[n].verdict == "undetermined" and steps[n].condition == CONDITION
    assert steps[2].condition is None


def test_the_json_api_carries_marks_conditions_and_possible_cards(unknown_toy, tmp_path: Path) -> None:
    unsure = write_log(tmp_path / "unsure.jsonl", [("a", 1), ("b", 2), ("a", 3)])
    plain = write_log(tmp_path / "plain.jsonl", [("a", 1), ("b", 3)])
    with MatchStore(str(tmp_path / "m.db")) as st:
        mid = st.import_file(unsure).match_id
        pid = st.import_file(plain).match_id
        client = TestClient(create_app(st, upload_token="judge"))
        client.headers["Authorization"] = "Bearer judge"  # (unfinished matches: the judge's view needs the token)
        doc = client.get(f"/api/matches/{mid}/events").json()
        assert doc["match"]["verdict"] == "undetermined" and doc["violations"] == []
        [u] = [e for e in doc["events"] if e["mark"] == UNDETERMINED]
        assert (u["number"], u["verdict"], u["condition"], u["rule"]) == (3, "undetermined", CONDITION, "TOY-3")
        assert all(e["condition"] is None for e in doc["events"] if e["number"] != 3)
        seat = client.get(f"/api/matches/{mid}/events", params={"as": "a"}).json()["events"]
        assert seat[2]["mark"] == UNDETERMINED and seat[2]["condition"] == CONDITION
        pos = client.get(f"/api/matches/{mid}/position", params={"at": 3}).json()
        assert pos["mark"] == UNDETERMINED
        [card] = [c for z in pos["scene"]["zones"] for c in z["cards"] if "possible" in c]
        assert card["possible"] == POSSIBLE and "name" not in card
        assert {k: v["name"] for k, v in pos["cards"].items()} == {k: POOL[k][0] for k in ["seven", *POSSIBLE]}
        listed = client.get("/api/matches", params={"verdict": "undetermined"}).json()
        assert [m["match_id"] for m in listed] == [mid]
        assert [m["match_id"] for m in client.get("/api/matches", params={"verdict": "legal"}).json()] == [pid]
        assert client.get("/api/matches", params={"verdict": "maybe"}).status_code == 400
        var = json.dumps([{"type": "Added", "player": "b", "n": 2}, {"type": "Added", "player": "a", "n": 9},
                          {"type": "Added", "player": "a", "n": 1}])
        v = client.get(f"/api/matches/{mid}/variation", params={"at": 2, "var": var}).json()
        # the undetermined step is followed (as verify follows it); the illegal one ends the variation
        assert [(s["verdict"], s["condition"]) for s in v["steps"]] == [("undetermined", CONDITION), ("illegal", None)]
        assert v["applied"] == 1
        page = client.get(f"/matches/{mid}").text + client.get("/static/viewer.js").text
        assert "mark-undetermined" in page and "legal if " in page and "card-possible" in page
        assert "undetermined" in client.get("/").text  # the match list's verdict filter


def test_store_list_shows_and_filters_the_undetermined_verdict(unknown_toy, tmp_path: Path) -> None:
    unsure = write_log(tmp_path / "unsure.jsonl", [("a", 2)])
    db = str(tmp_path / "cli.db")
    r = CliRunner().invoke(main, ["store", "import", "--db", db, str(unsure)])
    assert r.exit_code == 0, r.output
    plain = write_log(tmp_path / "plain.jsonl", [("a", 1)])
    assert CliRunner().invoke(main, ["store", "import", "--db", db, str(plain)]).exit_code == 0
    r = CliRunner().invoke(main, ["store", "list", "--db", db, "--json"])
    assert sorted(json.loads(ln)["verdict"] for ln in r.output.splitlines()) == ["legal", "undetermined"]
    r = CliRunner().invoke(main, ["store", "list", "--db", db, "--verdict", "undetermined"])
    assert r.exit_code == 0 and len(r.output.splitlines()) == 1 and "  undetermined  " in r.output, r.output
    assert "unsure.jsonl" in r.output
    r = CliRunner().invoke(main, ["store", "list", "--db", db, "--verdict", "maybe"])
    assert r.exit_code == 2
