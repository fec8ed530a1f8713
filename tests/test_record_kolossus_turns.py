"""A Kolossus turn recorded with the players' own dice in a few entries (issue 30, done-when: "a
Kolossus turn in at most 3 entries"): the terminal recorder's keys hold a pick the game's
notation says an entry goes on from (``notation.continues``, recorder/session.py), so one entry
says what the table saw with what the player chose: the die of destiny with the first decision,
an activation with its dice and move, the turn's end (or its last move) with the allocation.

The matches are generated (the odd sample set-ups roll their own dice) and kept with the keys a
person presses (benchmarks/keystrokes.py drives recorder/keys.py; every recorded log is checked
event for event against the table's).  A compound entry with an illegal part is refused whole;
an entry held open that showed the table a roll is taken back by a judge only."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import adjudicator
from adjudicator.core.kernel.verify import settle
from adjudicator.games.kolossus import events as E
from adjudicator.recorder.keys import Keypad
from adjudicator.recorder.terminal import RecordApp
from benchmarks.keystrokes import record_match, start
from tests.test_record_thumb import SIZE, anyio_backend, screen  # noqa: F401 - (the fixture)

G = adjudicator.game("kolossus")


def activations(path: str) -> Counter[int]:
    """Activations per turn (``turn_number``) of a recorded log."""
    events = [e for e in adjudicator.read_log(path).events if e.kind != "X"]
    s, _ = settle(G, G.initial_state(events[0]))
    out: Counter[int] = Counter()
    for e in events[1:]:
        out[G.turn_number(s)] += type(e) is E.ActivationDeclared
        s, _ = settle(G, G.apply(s, e))
    return out


@pytest.mark.parametrize("seed", [1, 3, 5, 7])
def test_a_turn_with_own_dice_in_at_most_three_entries(tmp_path, seed):
    """Every turn of a match with the players' own dice takes at most 3 entries, but a turn of
    three or four activations (a die of 4 spent on Warriors), each activation an entry of its
    own; the die of destiny is never an entry alone."""
    r = record_match(G, seed, str(tmp_path))
    assert r["dice"] == "own" and r["over"]
    acts = activations(r["path"])
    for turn, n in zip(r["turn_of"], r["per_turn"]):
        assert n <= 3 or (acts[turn] >= 3 and n <= acts[turn] + 1), (seed, turn, n, acts[turn])
    played = [n for t, n in zip(r["turn_of"], r["per_turn"]) if acts[t]]
    assert played and sum(played) / len(played) <= 3
    assert r["events"] / r["entries"] > 2  # (entries hold several events: the held picks)


def own_dice_at_destiny(tmp_path: Path, judge: bool = False) -> tuple[Any, Keypad]:
    """A recorder of a match with the players' own dice at its first die of destiny."""
    session, table = start(G, 1, tmp_path / f"k{judge}.jsonl")
    session.judge = judge
    keypad = Keypad(session)
    for _ in range(200):
        choices = session.choices()
        if choices and type(choices[0].event) is E.DestinyRolled:
            return session, keypad
        assert session.pick(choices[0], hold=True).ok
    raise AssertionError("no die of destiny")


def destiny_key(keypad: Keypad, value: int) -> str:
    return next(k for k, e in keypad.lines() if e.choice is not None and getattr(e.choice.event, "value", 0) == value)


def test_the_die_is_held_and_recorded_with_the_next_pick(tmp_path):
    session, keypad = own_dice_at_destiny(tmp_path)
    size, lines = session.path.stat().st_size, len(session.record)
    p = keypad.press(destiny_key(keypad, 2))
    assert p.answer is not None and p.answer.ok and p.answer.held
    assert len(session.record) == lines + 1 and "destiny 2" in keypad.where()
    # on disk already (the table saw it: a crash keeps it), grouped with the next pick in the session
    on_disk = adjudicator.read_log(session.path).events
    assert session.path.stat().st_size > size and len(on_disk) == lines + 1 and type(on_disk[-1]) is E.DestinyRolled
    # undo does not re-roll: the held die stands (a judge's ruling takes it back)
    u = session.undo()
    assert not u.ok and "judge" in u.message and session.holding
    assert not session.note("x").ok
    # the next pick (an activation with its dice and move) records both as one entry
    compound = next(c for c in keypad.listed() if c.then)
    keys = keypad.keys_for(compound)
    assert keys is not None
    answers = [keypad.press(k).answer for k in keys]
    last = answers[-1]
    assert last is not None and last.ok and not last.held and not session.holding
    recorded = adjudicator.read_log(session.path).events
    assert len(recorded) == lines + 1 + len(compound.events)
    assert type(recorded[lines]) is E.DestinyRolled and recorded[lines].value == 2
    assert "destiny 2" in last.message and session._groups[-1][0] == 1 + len(compound.events)


def test_a_compound_entry_with_an_illegal_part_is_refused_whole(tmp_path):
    session, keypad = own_dice_at_destiny(tmp_path)
    wb = session.view.state.current.id
    size, lines = session.path.stat().st_size, len(session.record)
    # typed: the die, then a Colossus's move with one die (three are rolled): nothing recorded
    for text in (f"{wb}: destiny 4; Colossus 2 a1-a2", f"{wb}: destiny 4; activate Colossus; roll 2"):
        a = session.enter(text)
        assert not a.ok and ("dice" in a.message or "refused" in a.message), a.message
        assert len(session.record) == lines and session.path.stat().st_size == size and not session.holding
    # held: a refused completion leaves the die held, nothing written; a legal one records both
    keypad.press(destiny_key(keypad, 4))
    size = session.path.stat().st_size  # (the held die is on disk)
    a = session.enter(f"{wb}: activate Colossus; roll 2")
    assert not a.ok and "refused" in a.message, a.message
    assert [type(e) for e in session.holding] == [E.DestinyRolled] and session.path.stat().st_size == size
    a = session.enter("end")
    assert a.ok and not session.holding, a.message
    back = adjudicator.read_log(session.path).events[lines:]
    assert [type(e) for e in back[:2]] == [E.DestinyRolled, E.TurnEnded]


def test_a_judge_takes_a_held_entry_back(tmp_path):
    session, keypad = own_dice_at_destiny(tmp_path, judge=True)
    lines = len(session.record)
    keypad.press(destiny_key(keypad, 3))
    assert session.holding
    u = session.undo()
    assert u.ok and not session.holding and len(session.record) == lines


@pytest.mark.anyio
async def test_the_terminal_shows_the_held_die(tmp_path):
    session, keypad = own_dice_at_destiny(tmp_path)
    app = RecordApp(session)
    app.keypad = keypad
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(destiny_key(keypad, 1))
        await pilot.pause()
        assert session.holding and "recorded with the next pick" in screen(app)


def test_a_held_entry_is_recorded_when_the_recorder_closes(tmp_path):
    """Quitting with a die held open records it as an entry of its own: the roll the table saw
    is kept, and the log resumes there."""
    from adjudicator.recorder.session import RecordSession

    session, keypad = own_dice_at_destiny(tmp_path)
    lines = len(session.record)
    keypad.press(destiny_key(keypad, 3))
    session.close()
    assert not session.holding
    again = RecordSession.resume(session.path)
    assert len(again.record) == lines + 1 and type(again.record.events[-1]) is E.DestinyRolled
    assert not again.undo().ok  # (a roll: a judge's)


def test_a_turn_typed_in_one_line_is_one_entry(tmp_path):
    """The table's turn written by ``format_entries`` (the die, the activations, the end, the
    allocation) and typed as one line is recorded as one entry, the table's events exactly."""
    session, keypad = own_dice_at_destiny(tmp_path)
    _s, table = start(G, 1, tmp_path / "table.jsonl")  # (the same set-up)
    for e in session.record.events[1:]:  # the table plays the recorder's match on
        table.push(e)
    wb = session.view.state.current.id
    turn = G.turn_number(session.view.state)
    rng = random.Random(4)
    while G.turn_number(table.state) == turn and not table.is_over():
        options = table.legal()
        table.push(rng.choice([e for e in options if type(e) is not E.TurnEnded] or options))
    played = [e for e in table.events[len(session.record):] if e.kind != "X"]
    text = G.notation.format_entries(played, session.view.state)
    assert text.startswith(f"{wb}: destiny") and "; end" in text, text
    groups = len(session._groups)
    a = session.enter(text)
    assert a.ok and len(session._groups) == groups + 1, a.message
    assert [e for e in session.record.events if e.kind != "X"][-len(played):] == played
