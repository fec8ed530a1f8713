"""The terminal replay viewer (``adjudicator replay``), driven by Textual's headless pilot.

Every registered game with example logs is stepped through with the keys; the rendered screen
(read back from the compositor, panel by panel) must show the expected event, ruling and position.
Screenshots: ``ADJUDICATOR_SCREENSHOTS=1 python -m pytest tests/test_tui.py -k screenshot`` writes
``docs/screenshots/tui-<game>.svg``.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.scene import Board, Card, Cell, Counter, Piece, PlayerInfo, Scene, Zone
from adjudicator.core.store import MatchStore
from adjudicator.cli.common import BadInput
from adjudicator.cli.main import main
from adjudicator.cli.replay import build_app
from adjudicator.replays.core import ILLEGAL, Replay
from adjudicator.replays.terminal import HIDDEN, scene_lines, scene_text
from adjudicator.replays.tui import ReplayApp

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SIZE = (160, 50)


@pytest.fixture
def anyio_backend():
    return "asyncio"


def _examples(game_id: str, prefix: str) -> list[Path]:
    return sorted((EXAMPLES / game_id).glob(f"{prefix}-*.jsonl"))


GAMES = [g.id for g in registry.games() if _examples(g.id, "legal")]


@functools.cache
def replay_of(path: Path) -> Replay:
    return Replay.from_file(path)


def legal_example(game_id: str) -> Path:
    return _examples(game_id, "legal")[0]


def illegal_example(game_id: str) -> Path:
    """The illegal example with the most events (its violation is past the first event) among
    those whose only stops for ``n``/``p`` are violations (a seat's record stops at its
    undetermined events too)."""
    logs = [p for p in _examples(game_id, "illegal")
            if all(f.mark != "undetermined" for f in replay_of(p).frames)]
    return max(logs, key=lambda p: (len(replay_of(p)), p.name))


# -- reading the screen ------------------------------------------------------------------------

def screen(app: ReplayApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def panel(app: ReplayApp, selector: str) -> str:
    """The text inside one panel's region of the rendered screen."""
    r = app.query_one(selector).region
    return "\n".join(line[r.x:r.x + r.width] for line in screen(app)[r.y:r.y + r.height])


def flat(text: str) -> str:
    """Panel text without borders and line breaks (a wrapped message reads as one line)."""
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text)).strip()


def title(app: ReplayApp) -> str:
    return panel(app, "#title")


async def settle(pilot) -> None:
    await pilot.pause()


# -- stepping through every game ---------------------------------------------------------------

@pytest.mark.anyio
@pytest.mark.parametrize("game_id", GAMES)
async def test_keys_move_the_cursor_and_the_screen_follows(game_id):
    path = legal_example(game_id)
    r = replay_of(path)
    n = len(r)
    app = ReplayApp(r)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.cursor == 1 and f"event 1/{n}" in title(app)
        await pilot.press("right", "right", "right", "left")
        await settle(pilot)
        assert app.cursor == 3
        frame = r.frames[2]
        assert f"event 3/{n}" in title(app)
        ruling = flat(panel(app, "#ruling"))
        assert "event 3 " in ruling and frame.text[:12] in ruling and frame.rule in ruling
        events = panel(app, "#events")
        cursor_rows = [line for line in events.splitlines() if re.search(r"[✓✗?·]\s+3 ", line)]
        assert cursor_rows and frame.text[:12] in cursor_rows[0]
        status = r.scene(3).status
        assert status[:50] in panel(app, "#position-box")
        # the position panel is the scene drawn at that event (not the one before)
        assert app.position_plain == scene_text(r.scene(3), app.position_width).plain
        assert app.position_plain != scene_text(r.scene(2), app.position_width).plain or r.changes(3) == []

        await pilot.press("end")
        await settle(pilot)
        assert app.cursor == n and f"event {n}/{n}" in title(app)
        last = r.scene(n)
        assert last.status[:50] in panel(app, "#position-box")
        if last.outcome:
            assert "result: " + last.outcome[:40] in flat(panel(app, "#position-box"))
        await pilot.press("home")
        await settle(pilot)
        assert app.cursor == 1

        # down: the next turn; up: back to the start of that turn, then the previous turn
        await pilot.press("end", "up")
        await settle(pilot)
        assert app.cursor == r.previous_turn(n)
        await pilot.press("home", "down")
        await settle(pilot)
        t1 = r.next_turn(1)
        assert app.cursor == t1 and f"event {t1}/{n}" in title(app)
        if t1 < n:
            assert r.frames[t1 - 1].turn != r.frames[0].turn
            await pilot.press("down", "up")
            await settle(pilot)
            assert app.cursor == r.previous_turn(r.next_turn(t1))


@pytest.mark.anyio
@pytest.mark.parametrize("game_id", GAMES)
async def test_n_and_p_reach_the_violation_with_its_ruling(game_id):
    path = illegal_example(game_id)
    r = replay_of(path)
    v = r.violations()[0]
    assert v > 1
    frame = r.frames[v - 1]
    app = ReplayApp(r)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await settle(pilot)
        assert app.cursor == v and f"event {v}/{len(r)}" in title(app)
        ruling = flat(panel(app, "#ruling"))
        assert "✗ illegal" in ruling
        assert frame.rule in ruling and frame.code in ruling
        assert flat(frame.message) in ruling
        row = [line for line in panel(app, "#events").splitlines() if re.search(rf"✗\s+{v} ", line)]
        assert row, "the violation is marked ✗ in the event list"
        later = r.next_violation(v)
        await pilot.press("n")
        await settle(pilot)
        assert app.cursor == (later or v)
        if later is None:
            assert "no later violation" in panel(app, "#message")
        await pilot.press("home", "p")
        await settle(pilot)
        assert app.cursor == 1 and "no earlier violation" in panel(app, "#message")
        await pilot.press("end", "p")
        await settle(pilot)
        assert app.cursor == (r.previous_violation(len(r)) or len(r))


@pytest.mark.anyio
async def test_a_legal_match_has_no_violation_to_go_to():
    r = replay_of(legal_example(GAMES[0]))
    app = ReplayApp(r, at=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await settle(pilot)
        assert app.cursor == 5
        assert "no later violation (this match has none)" in panel(app, "#message")
        await pilot.press("right")
        await settle(pilot)
        assert panel(app, "#message").strip() == ""


# -- viewpoints ----------------------------------------------------------------------------------

def _hand(scene: Scene, owner: str) -> Zone:
    return next(z for z in scene.zones if z.owner == owner and "hand" in z.label.lower())


def _names(scene: Scene) -> set[str]:
    return {c.name for z in scene.zones for c in z.cards if c.name}


@pytest.mark.anyio
async def test_v_cycles_the_viewpoint_and_hides_the_opponents_hand():
    path = EXAMPLES / "colossus-order" / "legal-gem-complete.jsonl"
    r = replay_of(path)
    at = 20  # both opening hands drawn
    judge = r.scene(at)
    alice = r.scene(at, "alice")
    bob_hand = {c.name for c in _hand(judge, "bob").cards}
    secret = bob_hand - _names(alice)  # cards only bob's hand shows
    assert secret, "the example must give bob cards alice cannot see"
    assert all(not c.name and not c.face_up for c in _hand(alice, "bob").cards)
    app = ReplayApp(r, at=at)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pos = panel(app, "#position-box")
        assert "view: judge" in title(app)
        assert all(name in pos for name in secret)
        await pilot.press("v")
        await settle(pilot)
        pos = panel(app, "#position-box")
        assert app.view == "alice" and "view: alice" in title(app)
        assert not any(name in pos for name in secret)
        assert HIDDEN in pos
        assert all(c.name in pos for c in _hand(alice, "alice").cards)  # her own hand stays visible
        await pilot.press("v")
        await settle(pilot)
        assert app.view == "bob" and all(name in panel(app, "#position-box") for name in secret)
        await pilot.press("v")
        await settle(pilot)
        assert app.view is None and "view: judge" in title(app)


@pytest.mark.anyio
async def test_a_players_event_list_and_ruling_hide_the_opponents_draws():
    path = EXAMPLES / "colossus-order" / "legal-gem-complete.jsonl"
    r = replay_of(path)
    draw = next(f for f in r.frames if f.type == "CardDrawn" and f.event.player == "bob")
    app = ReplayApp(r, at=draw.number, view="alice")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        events, ruling = flat(panel(app, "#events")), flat(panel(app, "#ruling"))
        secret, seen = r.frame(draw.number, "bob").text, r.frame(draw.number, "alice").text
        assert secret != seen and secret == r.frames[draw.number - 1].text  # (in the notation)
        assert secret not in events and secret not in ruling
        assert seen in ruling
        await pilot.press("v")  # bob's own view shows his draw
        await settle(pilot)
        assert secret in flat(panel(app, "#ruling"))


@pytest.mark.anyio
async def test_a_look_shows_its_cards_to_the_looking_seat_and_that_it_happened_to_the_other():
    """A private look (CardsLooked): the looking seat's event list names the cards, the other
    seat's says that the look happened, by whom and at how many cards."""
    from adjudicator.core.kernel.events import CardsLooked, encode_line

    path = EXAMPLES / "colossus-order" / "legal-gem-complete.jsonl"
    lines = path.read_bytes().splitlines()[:30]
    look = CardsLooked(player="bob", owner="alice", zone="hand", cards=["heroic-knight", "white-gem", "ash"])
    r = Replay.from_bytes(b"\n".join(lines + [encode_line(look)]) + b"\n", "look.jsonl")
    app = ReplayApp(r, at=31, view="alice")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = flat(panel(app, "#events")) + flat(panel(app, "#ruling"))
        assert "bob looked at 3 cards of alice's hand" in shown and "heroic-knight, white-gem" not in shown
        await pilot.press("v")  # bob's view: the cards he saw
        await settle(pilot)
        assert app.view == "bob"
        assert "bob looked at 3 cards of alice's hand: heroic-knight, white-gem, ash" in flat(panel(app, "#ruling"))


@pytest.mark.anyio
async def test_the_changes_panel_follows_the_viewpoint():
    path = EXAMPLES / "colossus-order" / "legal-gem-complete.jsonl"
    r = replay_of(path)
    drawn = next(f for f in r.frames if f.type == "CardDrawn" and f.event.player == "bob")
    app = ReplayApp(r, at=drawn.number, view="alice")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.view == "alice"
        changes = flat(panel(app, "#changes"))
        for line in r.changes(drawn.number, "alice"):
            assert flat(line)[:40] in changes
        judge_lines = r.changes(drawn.number)
        assert judge_lines != r.changes(drawn.number, "alice")  # the judge sees which card
        await pilot.press("v", "v")  # alice -> bob -> judge
        await settle(pilot)
        changes = flat(panel(app, "#changes"))
        assert all(flat(line)[:40] in changes for line in judge_lines)


# -- go to, search, help, --at -----------------------------------------------------------------

@pytest.mark.anyio
async def test_g_goes_to_event_n():
    r = replay_of(legal_example(GAMES[0]))
    app = ReplayApp(r)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        await settle(pilot)
        assert "Go to event" in "\n".join(screen(app))
        await pilot.press("1", "7", "enter")
        await settle(pilot)
        assert app.cursor == 17 and f"event 17/{len(r)}" in title(app)
        assert r.frames[16].text[:12] in flat(panel(app, "#ruling"))
        # out of range or not a number: a message, the cursor stays
        await pilot.press("g", *str(len(r) + 1), "enter")
        await settle(pilot)
        assert app.cursor == 17 and "outside the log" in panel(app, "#message")
        await pilot.press("g", "x", "enter")
        await settle(pilot)
        assert app.cursor == 17 and "not an event number" in panel(app, "#message")
        # escape cancels; the keys work again afterwards
        await pilot.press("g", "5", "escape", "right")
        await settle(pilot)
        assert app.cursor == 18


@pytest.mark.anyio
async def test_slash_searches_event_types_and_wraps():
    r = replay_of(legal_example(GAMES[0]))
    wanted = r.frames[len(r) // 2].type
    first = next(f.number for f in r.frames if f.type == wanted)
    second = next((f.number for f in r.frames if f.type == wanted and f.number > first), None)
    app = ReplayApp(r)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *wanted, "enter")
        await settle(pilot)
        assert app.cursor == first and f"event {first}/" in title(app)
        await pilot.press("slash", "enter")  # Enter alone repeats the last search
        await settle(pilot)
        assert app.cursor == (second or first)
        await pilot.press("end", "slash", *wanted.lower(), "enter")  # from the end: wraps to the start
        await settle(pilot)
        assert app.cursor == first and "wrapped" in panel(app, "#message")
        await pilot.press("slash", *"NoSuchEvent", "enter")
        await settle(pilot)
        assert app.cursor == first and "no event type matches" in panel(app, "#message")


@pytest.mark.anyio
async def test_question_mark_shows_the_help():
    app = ReplayApp(replay_of(legal_example(GAMES[0])), at=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await settle(pilot)
        text = "\n".join(screen(app))
        assert "next / previous violation" in text and "go to event N" in text
        await pilot.press("x")
        await settle(pilot)
        assert "next / previous violation" not in "\n".join(screen(app))
        assert app.cursor == 3
        await pilot.press("q")
        await settle(pilot)
    assert app.return_code == 0


@pytest.mark.anyio
@pytest.mark.parametrize("game_id", GAMES)
async def test_at_opens_at_event_n_from_a_players_view(game_id):
    path = legal_example(game_id)
    r = replay_of(path)
    at = len(r) // 2
    player = r.players()[-1]
    app = build_app(str(path), at=at, as_player=player)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.cursor == at and f"event {at}/{len(r)}" in title(app)
        assert f"view: {player}" in title(app)
        assert r.scene(at, player).status[:50] in panel(app, "#position-box")


# -- any scene: text-only, grid, hex and graph boards --------------------------------------------

def _toy_log(tmp_path: Path) -> Path:
    lines = [{"type": "MatchStarted", "game": "toy", "players": ["a", "b"], "target": 6},
             {"type": "Added", "player": "a", "n": 3}, {"type": "Added", "player": "a", "n": 1},
             {"type": "Added", "player": "b", "n": 3}]
    p = tmp_path / "toy.jsonl"
    p.write_bytes(b"\n".join(msgspec.json.encode(x) for x in lines) + b"\n")
    return p


@pytest.mark.anyio
async def test_a_text_only_scene_shows_its_status_and_notes(toy, tmp_path, monkeypatch):
    def describe(self, s, player):
        return f"total {s.total}/{s.target}\nnote one: {self.current(s)} to act\nnote two:   a   table   row"

    from adjudicator.core.kernel.protocol import Game

    monkeypatch.setattr(type(toy), "describe", describe)
    # a game without scene.py (the toy plugin has one): the protocol's text-only scene
    monkeypatch.setattr(type(toy), "scene", Game.scene)
    monkeypatch.setattr(type(toy), "turn_number", Game.turn_number)
    app = build_app(str(_toy_log(tmp_path)), at=2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pos = panel(app, "#position-box")
        assert "total 3/6" in pos and "note one: b to act" in pos and "note two:   a   table   row" in pos
        await pilot.press("right")  # a's second Added is illegal (not a's turn)
        await settle(pilot)
        ruling = flat(panel(app, "#ruling"))
        assert "✗ illegal" in ruling and "TOY-2" in ruling and "a moved but it is b's turn" in ruling
        assert "total 3/6" in panel(app, "#position-box")  # skipped: the position stays
        await pilot.press("right")
        await settle(pilot)
        assert "then: · b: won" in flat(panel(app, "#ruling"))  # the derived consequences
        assert "result: win b" in flat(panel(app, "#position-box"))


@pytest.mark.anyio
async def test_every_mark_is_shown_in_the_event_list(toy, tmp_path, monkeypatch):
    from adjudicator.core.kernel.rulings import legal

    original = type(toy).check

    def check(self, s, e):  # an addition of 1 is "not engine-checked" here
        r = original(self, s, e)
        return legal(r.rule, "toy/unmodelled", "the engine cannot model this", engine_checked=False) \
            if r.legal and getattr(e, "n", 0) == 1 else r

    monkeypatch.setattr(type(toy), "check", check)
    path = _toy_log(tmp_path)
    lines = path.read_text().splitlines()
    # a derived event the log states itself (the engine derives the same): marked as derived
    path.write_text("\n".join(lines[:2] + ['{"type": "TurnPassed", "to": "b"}'] + lines[2:]) + "\n")
    app = build_app(str(path))
    assert [f.mark for f in app.replay.frames] == ["legal", "legal", "derived", "illegal", "legal"]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        rows = [line.strip("│ ") for line in panel(app, "#events").splitlines()[1:-1]]
        assert [row[:3] for row in rows if row] == ["✓ 1", "✓ 2", "· 3", "✗ 4", "✓ 5"]
        await pilot.press("right", "right")
        await settle(pilot)
        assert "derived by the engine" in flat(panel(app, "#ruling"))
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:1] + ['{"type": "Added", "player": "a", "n": 1}']) + "\n")
    app = build_app(str(path), at=2)
    assert app.replay.frames[1].mark == "unchecked"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert any(line.strip("│ ").startswith("? 2 ") for line in panel(app, "#events").splitlines())
        assert "? legal (not engine-checked)" in flat(panel(app, "#ruling"))


def _board_scene(view: str | None) -> Scene:
    cells = []
    for y in range(3):
        for x in range(4):
            pieces = [Piece(id="w1", label="W1", owner="a", kind="warrior")] if (x, y) == (1, 0) else []
            if (x, y) == (2, 2):
                pieces = [Piece(id="c", label="Cb", owner="b", kind="colossus"), Piece(id="w2", label="W2", owner="b")]
            cells.append(Cell(id=f"{'abcd'[x]}{3 - y}", x=x, y=y, level=x + y, pieces=pieces,
                              markers=["crystal"] if (x, y) == (3, 0) else [],
                              controller="a" if (x, y) == (0, 0) else None))
    hidden = [Card(face_up=False)] * 2 if view == "a" else [Card(name="fireball", colour="red"), Card(name="ice-wall")]
    return Scene(
        game="toy", view=view, status="round 2, a to move", to_act=["a"],
        players=[PlayerInfo(id="a", label="Ann", colour="blue"), PlayerInfo(id="b", label="Ben", detail="seat 2")],
        board=Board(kind="grid", width=4, height=3, cells=cells, columns=list("abcd"), rows=["3", "2", "1"]),
        zones=[Zone(id="ha", label="hand", owner="a", cards=[Card(name="spark", tags=["cost 1"])]),
               Zone(id="hb", label="hand", owner="b", cards=hidden),
               Zone(id="deck", label="deck", owner="b", count=30),
               Zone(id="row", label="market", cards=[Card(name="relic", face_up=False)])],
        counters=[Counter(id="hp", label="HP", value=7, owner="a", max=10), Counter(id="r", label="round", value=2)],
        notes=["a pending attack on c1"],
    )


@pytest.mark.anyio
async def test_a_board_scene_is_drawn_as_a_grid_with_zones_and_counters(toy, tmp_path, monkeypatch):
    monkeypatch.setattr(type(toy), "scene", lambda self, s, player: _board_scene(player))
    app = build_app(str(_toy_log(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pos = panel(app, "#position-box")
        lines = [line.strip("│ ") for line in pos.splitlines()]
        assert "round 2, a to move" in pos
        header = next(line for line in lines if re.fullmatch(r"a\s+b\s+c\s+d", line))
        row3 = next(line for line in lines if line.startswith("3 "))
        assert re.search(r"0\s+1W1\s+2\s+3\*", row3), row3
        assert "4Cb+1" in pos and header
        assert "markers (*): d3 crystal" in pos and "stacks (+n): c1 Cb, W2" in pos
        assert "Ann" in pos and "HP 7/10" in pos and "round 2" in pos
        assert "fireball" in pos and "deck [30]: " + HIDDEN + " ×30" in pos
        assert "market [1]: " + HIDDEN + "relic" in pos
        assert "a pending attack on c1" in pos
        await pilot.press("v")
        await settle(pilot)
        pos = panel(app, "#position-box")
        assert "fireball" not in pos and "hand [2]: " + HIDDEN * 2 + " · " + HIDDEN * 2 in pos


def test_hex_and_graph_boards_are_placed_by_their_coordinates():
    hexes = [Cell(id=str(i), x=(i % 3) + (0.5 if (i // 3) % 2 else 0), y=i // 3, terrain="grass", label=str(i))
             for i in range(6)]
    scene = Scene(game="t", view=None, status="s", board=Board(kind="hex", width=3, height=2, cells=hexes))
    rows = [t.plain for t in scene_lines(scene)[2:4]]
    # the odd row is shifted by half a cell
    assert rows[0].index("0") + 2 == rows[1].index("3")
    assert rows[0].split() == ["0", "1", "2"] and rows[1].split() == ["3", "4", "5"]
    graph = [Cell(id="n1", x=0.0, y=0.0, label="n1"), Cell(id="n2", x=10.0, y=0.0, label="n2"),
             Cell(id="n3", x=5.0, y=7.5, label="n3", pieces=[Piece(id="p", label="P", owner="x")])]
    scene = Scene(game="t", view=None, status="s",
                  board=Board(kind="graph", width=2, height=2, cells=graph, edges=[("n1", "n2")]))
    rows = [t.plain for t in scene_lines(scene)[2:4]]
    assert rows[0].split() == ["n1", "n2"] and rows[1].strip() == "P"
    assert rows[0].index("n1") < rows[1].index("P") < rows[0].index("n2")


# -- the command: arguments and errors ----------------------------------------------------------

@pytest.fixture(scope="module")
def store_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("store") / "matches.db"
    logs = [legal_example(GAMES[0]), illegal_example(GAMES[0])]
    with MatchStore(str(db)) as st:
        ids = [st.import_log(read(p), allow_illegal=True).match_id for p in logs]
    return str(db), ids, logs


def read(p: Path):
    from adjudicator.core.kernel.log import read_log

    return read_log(p)


def test_a_stored_match_opens_by_id_or_prefix(store_db):
    db, ids, logs = store_db
    for match_id, log in zip(ids, logs):
        app = build_app(match_id[:8], db=db, at=2)
        r = replay_of(log)
        assert len(app.replay) == len(r) and app.cursor == 2
        assert [f.mark for f in app.replay.frames] == [f.mark for f in r.frames]
        assert match_id[:8] in app.replay.title
    assert ILLEGAL in [f.mark for f in build_app(ids[1], db=db).replay.frames]


def test_the_command_starts_the_app(monkeypatch, store_db):
    db, ids, _ = store_db
    seen = []
    monkeypatch.setattr(ReplayApp, "run", lambda self: seen.append((self.cursor, self.view, len(self.replay))))
    path = legal_example(GAMES[0])
    res = CliRunner().invoke(main, ["replay", str(path), "--at", "4", "--as", replay_of(path).players()[0]])
    assert res.exit_code == 0, res.output
    assert seen == [(4, replay_of(path).players()[0], len(replay_of(path)))]
    res = CliRunner().invoke(main, ["replay", ids[0][:6], "--db", db])
    assert res.exit_code == 0, res.output
    assert seen[-1][:2] == (1, None)


def test_bad_arguments_exit_2_without_a_traceback(tmp_path, store_db):
    db, _, _ = store_db
    path = legal_example(GAMES[0])
    n = len(replay_of(path))
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text('{"type": "MatchStarted", "game": "no-such-game"}\n')
    cases = [
        (["replay", str(tmp_path / "missing.jsonl")], "no such file"),
        (["replay", str(tmp_path)], "is a directory"),
        (["replay", str(garbage)], "no-such-game"),
        (["replay", "0123abcd", "--db", db], "no stored match '0123abcd'"),
        (["replay", "0123abcd", "--db", str(tmp_path / "none.db")], "no match store at"),
        (["replay", str(path), "--as", "nobody"], "unknown player 'nobody'"),
        (["replay", str(path), "--at", str(n + 1)], f"--at {n + 1} is outside the log (events 1-{n})"),
        (["replay", str(path), "--at", "0"], "0 is not in the range"),
        (["replay", str(path), "--at", "x"], "is not a valid integer"),
    ]
    for args, message in cases:
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2, (args, res.output)
        assert message in res.output, (args, res.output)
        assert "Traceback" not in res.output and not isinstance(res.exception, BadInput)
    assert not (tmp_path / "none.db").exists()  # looking up a match never creates a store


def test_build_app_raises_bad_input():
    with pytest.raises(BadInput, match="unknown player"):
        build_app(str(legal_example(GAMES[0])), as_player="judge")


# -- screenshots ---------------------------------------------------------------------------------

@pytest.mark.anyio
@pytest.mark.parametrize("game_id", GAMES)
async def test_screenshot(game_id, tmp_path):
    """A screenshot of each game at its richest illegal example's violation (judge's view).

    Written to docs/screenshots/tui-<game>.svg when ADJUDICATOR_SCREENSHOTS=1 is set.
    """
    path = illegal_example(game_id)
    r = replay_of(path)
    app = ReplayApp(Replay(r.log, title=str(path.relative_to(ROOT))))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await settle(pilot)
        v = r.violations()[0]
        assert app.cursor == v
        out = tmp_path / f"tui-{game_id}.svg"
        app.save_screenshot(filename=out.name, path=str(tmp_path))
        svg = out.read_text()
        assert "<svg" in svg and r.frames[v - 1].rule in svg.replace("&#160;", " ")
        if os.environ.get("ADJUDICATOR_SCREENSHOTS"):
            target = ROOT / "docs" / "screenshots"
            target.mkdir(parents=True, exist_ok=True)
            (target / out.name).write_text(svg)


# -- small terminals ------------------------------------------------------------------------------

@pytest.mark.anyio
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_whole_board_shows_at_80x24_and_120_columns(game_id, size):
    """At 80x24 the position sits over a short event list, full width: every line of the board (or,
    for a game without one, the status and who acts) is on the screen, uncut; at 120 columns the
    side panel leaves the board all its columns (Kolossus: a to k)."""
    from adjudicator.replays.terminal import Palette, board_lines

    path = max(_examples(game_id, "legal"), key=lambda p: len(replay_of(p)))
    r = replay_of(path)
    n = len(r) * 3 // 5
    app = ReplayApp(r, at=n)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert ("narrow" in app.screen.classes) == (size == (80, 24))
        shown = panel(app, "#position-box")
        scene = r.scene(n, None)
        if scene.board is not None:
            for line in board_lines(scene.board, Palette(scene)):
                assert line.plain.rstrip() in shown, f"board line cut or hidden at {size}: {line.plain!r}"
        else:
            assert scene.status.split(",")[0] in flat(shown)
        if size == (80, 24):  # the ruling of the selected event is still on screen, in one line
            assert r.frame(n).rule in panel(app, "#message")
