"""The chain key ("and then", issue 30's last figure: a Kolossus turn in at most 3 entries).

The rules allow no fewer decisions than a turn has (every roll seen and every move chosen), so a
turn of four activations is fewer entries only where the person says so: ``+`` before a pick
holds it open, shown above the list, and records it with the next pick as one entry
(recorder/keys.py, ``RecordSession.push``'s ``chain``).  Checked here as a person uses it: the
keypad and the Textual app, the page's JSON API, a ``kill -9`` with an entry held open, undo of
a chained entry, refusals (a part that is illegal, a pick that hands the turn on, a
match-ending entry, seat mode, a match over), and generated Kolossus matches with a turn of four
activations kept by the chaining scorekeeper of benchmarks/keystrokes.py (every turn <= 3
entries, <= 1.5 keys an event, the table's events exactly)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

import adjudicator
from adjudicator.games.kolossus import events as E
from adjudicator.recorder.answers import Answer, Choice
from adjudicator.recorder.keys import CHAIN, Keypad
from adjudicator.recorder.session import RecordSession
from adjudicator.recorder.terminal import RecordApp
from benchmarks.keystrokes import KEYS_PER_EVENT_MAX, measure, record_match
from tests.test_record_kolossus_turns import activations, destiny_key, own_dice_at_destiny
from tests.test_record_thumb import SIZE, anyio_backend, screen  # noqa: F401 - (the fixture)
from tests.test_record_web import client  # noqa: F401 - (the fixture)

G = adjudicator.game("kolossus")
ROOT = Path(__file__).resolve().parent.parent


def press(keypad: Keypad, choice: Choice) -> Answer:
    """The keys that pick ``choice`` (through the open groups); the answer of the last."""
    keys = keypad.keys_for(choice)
    assert keys is not None, choice.label
    answers = [keypad.press(k).answer for k in keys]
    assert answers[-1] is not None
    return answers[-1]


def warrior(keypad: Keypad) -> Choice:
    """A whole Warrior activation (declared, rolled, moved): one pick of the keys."""
    return next(c for c in keypad.listed() if c.then and "Warrior" in c.label)


def on_disk(session: RecordSession) -> list[Any]:
    return adjudicator.read_log(session.path).events


def two_warriors(tmp_path: Path, judge: bool = False) -> tuple[RecordSession, Keypad, int]:
    """A die of destiny of 2 rolled (held by the notation: the first decision goes with it); the
    record's length before it."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    session, keypad = own_dice_at_destiny(tmp_path, judge)
    before = len(session.record)
    assert keypad.press(destiny_key(keypad, 2)).answer.held  # type: ignore[union-attr]
    return session, keypad, before


def chain_two(session: RecordSession, keypad: Keypad) -> Answer:
    """``+``, a Warrior activation, another: the last answer."""
    assert keypad.press(CHAIN).answer is None and keypad.chained and "and then (+)" in keypad.where()
    a = press(keypad, warrior(keypad))
    assert a.ok and a.held and "and then" in a.message and not keypad.chained, a.message
    return press(keypad, warrior(keypad))


def complete(session: RecordSession, keypad: Keypad) -> Answer:
    """The entry held open completed with the first choice of each pick (the mana after a turn's end)."""
    answer = None
    for _ in range(8):
        if not session.holding:
            break
        answer = press(keypad, session.choices()[0])
    assert answer is not None and answer.ok and not session.holding
    return answer


# -- the keypad and the session ----------------------------------------------------------------------------

def test_two_activations_chained_are_one_entry_written_as_they_are_picked(tmp_path):
    session, keypad, before = two_warriors(tmp_path)
    groups = len(session._groups)
    size = session.path.stat().st_size
    assert keypad.press(CHAIN).answer is None and keypad.chained
    a = press(keypad, warrior(keypad))
    assert a.ok and a.held and not keypad.chained
    # held: shown above the list (the die ... the move), and on disk (the table saw the roll)
    assert "destiny 2" in keypad.where() and "Warrior" in keypad.where().split("…")[-1]
    assert session.path.stat().st_size > size and on_disk(session) == session.record.events
    a = press(keypad, warrior(keypad))  # (the turn's end is filled in: held for the mana)
    last = complete(session, keypad) if session.holding else a
    assert len(session._groups) == groups + 1, "one entry"
    entry = session.record.events[before:]
    assert session._groups[-1][0] == len(entry)
    assert [type(e) for e in entry][:1] == [E.DestinyRolled]
    assert sum(type(e) is E.ActivationDeclared for e in entry) == 2
    assert sum(type(e) is E.MiniatureMoved for e in entry) == 2
    assert last.message.startswith("recorded") and "destiny 2" in last.message
    assert on_disk(session) == session.record.events
    assert adjudicator.read_log(session.path).verify().verdict == "legal"


def test_the_chain_key_is_off_again_with_plus_or_escape_and_unarmed_picks_are_entries(tmp_path):
    session, keypad, _before = two_warriors(tmp_path)
    keypad.press(CHAIN)
    keypad.press(CHAIN)
    assert not keypad.chained
    keypad.press(CHAIN)
    assert keypad.press("escape").consumed and not keypad.chained
    groups = len(session._groups)
    a = press(keypad, warrior(keypad))  # (unchained: the die and the activation, as before)
    assert a.ok and not a.held and len(session._groups) == groups + 1


def test_undo_of_a_chained_entry_takes_it_back_whole_and_never_re_rolls(tmp_path):
    # anyone: a held chained entry that showed the table a roll stands (a judge's ruling)
    session, keypad, before = two_warriors(tmp_path / "a")
    keypad.press(CHAIN)
    press(keypad, warrior(keypad))
    held = list(session.holding)
    u = session.undo()
    assert not u.ok and "judge" in u.message and session.holding == held and on_disk(session) == session.record.events
    press(keypad, warrior(keypad))
    if session.holding:
        complete(session, keypad)
    u = session.undo()
    assert not u.ok and "judge" in u.message and len(session.record) > before
    # a judge: the held chained entry taken back whole (the file rewritten), then a recorded one
    session, keypad, before = two_warriors(tmp_path / "b", judge=True)
    keypad.press(CHAIN)
    press(keypad, warrior(keypad))
    u = session.undo()
    assert u.ok and not session.holding and len(session.record) == before
    assert len(on_disk(session)) == before and on_disk(session) == session.record.events
    keypad.press(destiny_key(keypad, 2))
    chain_two(session, keypad)
    if session.holding:
        complete(session, keypad)
    groups = len(session._groups)
    u = session.undo()
    assert u.ok and len(session.record) == before and len(session._groups) == groups - 1
    assert sum(type(e) is E.ActivationDeclared for e in u.added) == 2 and on_disk(session) == session.record.events


def test_a_chained_entry_with_an_illegal_part_is_refused_whole(tmp_path):
    session, keypad, before = two_warriors(tmp_path)
    wb = session.view.state.current.id
    size, held = session.path.stat().st_size, list(session.holding)
    far = max((c.label for c in keypad.listed() if c.then and "Warrior" in c.label), key=lambda label: label.count("-"))
    too_far = re.sub(r"Warrior \d+ ", "Warrior 1 ", far)  # (declared and rolled, then a move past the roll)
    for text, why in ((f"{wb}: activate Colossus; roll 2", "is illegal"), (too_far, "refused")):
        keypad.press(CHAIN)
        p = keypad.press("enter", text)
        assert p.answer is not None and not p.answer.ok and why in p.answer.message, p.answer.message
        assert session.holding == held and session.path.stat().st_size == size and not keypad.chained
    # a chained pick that hands the turn on (the mana after the turn's end): refused whole
    end = next(c for c in session.choices() if type(c.event) is E.TurnEnded)
    assert press(keypad, end).held
    held, size = list(session.holding), session.path.stat().st_size
    keypad.press(CHAIN)
    mana = session.choices()[0]
    a = press(keypad, mana)
    assert not a.ok and a.message.startswith("not chained: after") and "acts (an entry is one player's)" in a.message
    assert session.holding == held and session.path.stat().st_size == size and not keypad.chained
    a = press(keypad, mana)  # without the chain: the die, the end and the mana, one entry
    assert a.ok and not session.holding and session.record.events[before:][-1] == mana.event


def test_the_chain_is_refused_for_a_match_ending_entry_in_seat_mode_and_once_over(tmp_path):
    decks = {"decks": msgspec.to_builtins(adjudicator.game("logos").sample_setup(0).decks)}
    session = RecordSession.start(tmp_path / "l.jsonl", "logos", ["p1", "p2"], fields=decks)
    keypad = Keypad(session)
    keypad.press(CHAIN)
    p = keypad.press("0")
    assert not p.answer.ok and "never chained" in p.answer.message and not keypad.chained  # type: ignore[union-attr]
    resign = session.enders()[0]
    for a in (session.pick(resign, chain=True), session.enter("p1 resign", chain=True)):
        assert not a.ok and "not chained" in a.message and "ends the match" in a.message
    assert len(session.record) == 1 and session.confirming is None
    seat = RecordSession.start(tmp_path / "s.jsonl", "logos", ["p1", "p2"], fields=decks, seat="p1")
    p = Keypad(seat).press(CHAIN)
    assert p.answer is not None and not p.answer.ok and "seat" in p.answer.message
    a = seat.pick(seat.choices()[0], chain=True)
    assert not a.ok and "seat" in a.message and len(seat.record) == 1
    r = record_match(G, 5, str(tmp_path), "chaining")
    over = RecordSession.resume(r["path"])
    p = Keypad(over).press(CHAIN)
    assert over.over and p.answer is not None and "over" in p.answer.message


# -- a crash with an entry held open -------------------------------------------------------------------------

HOLDER = """
import sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.test_record_chain import two_warriors, warrior, press
from adjudicator.recorder.keys import CHAIN
session, keypad, _before = two_warriors(Path({dir!r}))
keypad.press(CHAIN)
assert press(keypad, warrior(keypad)).held
print("held", len(session.record), session.path, flush=True)
time.sleep(120)
"""


def test_kill_9_with_a_chained_entry_held_keeps_what_the_table_saw(tmp_path):
    p = subprocess.Popen([sys.executable, "-c", HOLDER.format(root=str(ROOT), dir=str(tmp_path))], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None
        line = p.stdout.readline().split()
        assert line and line[0] == "held", p.stderr.read() if p.stderr else ""
    finally:
        os.kill(p.pid, signal.SIGKILL)
        p.communicate(timeout=30)
    n, path = int(line[1]), Path(line[2])
    match = adjudicator.read_log(path)
    assert len(match.events) == n and match.verify().verdict == "legal"
    assert type(match.events[-1]) is E.MiniatureMoved and type(match.events[-4]) is E.DestinyRolled
    # resumed: the held events are recorded (each an entry of its own); what the table saw stands
    again = RecordSession.resume(path)
    assert len(again.record) == n and not again.holding and again._groups[-1] == (1, 0)
    u = again.undo()  # (the move: a decision, taken back alone)
    assert u.ok and len(again.record) == n - 1
    assert not again.undo().ok  # (the roll: a judge's)


# -- the terminal ---------------------------------------------------------------------------------------------

@pytest.mark.anyio
async def test_the_terminal_shows_the_chain_and_the_held_entry(tmp_path):
    session, keypad, _before = two_warriors(tmp_path)
    app = RecordApp(session)
    app.keypad = keypad
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "+: and then" in screen(app)
        await pilot.press("plus")
        await pilot.pause()
        assert keypad.chained and "and then (+)" in screen(app) and "+ again: off" in screen(app)
        keys = keypad.keys_for(warrior(keypad))
        assert keys is not None
        await pilot.press(*keys)
        await pilot.pause()
        assert session.holding and not keypad.chained
        shown = screen(app)
        assert "and then (chained" in shown and "krell: destiny 2 … krell: Warrior" in shown and "(held: recorded" in shown


# -- generated matches: a Kolossus turn in at most 3 entries --------------------------------------------------

@pytest.mark.parametrize("seed,dice", [(25, "own"), (12, "generator"), (20, "generator")])
def test_a_kolossus_turn_of_four_activations_in_at_most_three_entries_chained(tmp_path, seed, dice):
    """Seeds whose match has a turn of four activations (the die of destiny 4 on Warriors), which
    one pick an entry keeps in 4 entries: the chaining scorekeeper keeps every turn in <= 3."""
    one = record_match(G, seed, str(tmp_path), "one")
    chained = record_match(G, seed, str(tmp_path), "chaining")
    assert one["dice"] == chained["dice"] == dice and chained["over"]
    acts = activations(chained["path"])
    assert max(acts.values()) == 4 and max(one["per_turn"]) == 4
    assert max(chained["per_turn"]) <= 3, chained["per_turn"]
    assert chained["by"].get("chain key") and chained["keys"] / chained["events"] <= KEYS_PER_EVENT_MAX
    # the same match, event for event (record_match checks each entry against the table's)
    strip = [msgspec.structs.replace(e, prev=None) for e in adjudicator.read_log(chained["path"]).events]
    assert strip == [msgspec.structs.replace(e, prev=None) for e in adjudicator.read_log(one["path"]).events]


def test_both_scorekeeper_models_stay_within_the_keys_target(tmp_path):
    chaining = measure(G, 3, str(tmp_path), "chaining")
    assert chaining["model"] == "chaining" and chaining["keys_per_event"] <= KEYS_PER_EVENT_MAX, chaining
    assert chaining["entries_per_turn_max"] <= 3 and chaining["by"].get("chain key"), chaining


# -- the page's JSON API ("and then…") -----------------------------------------------------------------------

def kolossus_recording(client: Any) -> tuple[str, dict[str, Any]]:
    """A Kolossus recording of the page's sample set-up (the players' own dice), tapped on to its
    first die of destiny (the first choice each time)."""
    from tests.test_record_web import AUTH

    doc = msgspec.to_builtins(G.sample_setup(1))
    body = {"game": "kolossus", "players": doc["players"], "options": {**doc.get("options", {}), "rounds": 1},
            "setup": {k: v for k, v in doc.items() if k not in ("type", "game", "players", "options")}}
    state = client.post("/api/recordings", headers=AUTH, json=body).json()
    for _ in range(80):
        if state["choices"][0]["event"]["type"] == "DestinyRolled":
            return state["id"], state
        state = client.post(f"/api/recordings/{state['id']}/entries", headers=AUTH,
                            json={"entry": str(state["choices"][0]["number"])}).json()
    raise AssertionError("no die of destiny")


def number_of(state: dict[str, Any], kind: str, **fields: Any) -> str:
    return str(next(c["number"] for c in state["choices"]
                    if c["event"]["type"] == kind and all(c["event"].get(k) == v for k, v in fields.items())))


def test_the_pages_and_then_chains_two_activations_into_one_entry(client):
    from tests.test_record_web import AUTH

    rid, state = kolossus_recording(client)
    session = client.app.state.recordings.sessions[rid]

    def entry(text: str, chain: bool) -> dict[str, Any]:
        return client.post(f"/api/recordings/{rid}/entries", headers=AUTH, json={"entry": text, "chain": chain}).json()

    state = entry(number_of(state, "DestinyRolled", value=2), False)  # (the page holds nothing by itself)
    assert state["ok"] and state["held"] == [] and state["chain"]
    before, groups = state["events"], len(session._groups)
    picks = [("ActivationDeclared", {"character": "warrior"}), ("MovementRolled", {}), ("MiniatureMoved", {})] * 2
    for k, (kind, fields) in enumerate(picks):
        last = k == len(picks) - 1
        state = entry(number_of(state, kind, **fields), not last)
        assert state["ok"], state["message"]
        assert len(adjudicator.read_log(session.path).events) == state["events"] == before + k + 1  # (on disk)
        assert len(state["held"]) == (0 if last else k + 1)
    assert state["message"].startswith(f"recorded {before + 6}") and len(session._groups) == groups + 1
    assert state["log"][-6:] == [line for line in state["log"][-6:] if "{" not in line]
    # a refused chained pick (an illegal typed part) leaves nothing held nor written
    refused = entry('{"type": "MovementRolled", "warband": "krell", "dice": [9]}', True)
    assert not refused["ok"] and refused["events"] == state["events"] and refused["held"] == []


def test_the_pages_and_then_is_not_offered_to_a_seat(client):
    from tests.test_record_web import AUTH

    state = client.post("/api/recordings", headers=AUTH, json={"game": "colossi", "players": ["ann", "bob"],
                                                               "options": {"gold_target": 5}, "seat": "ann"}).json()
    assert state["chain"] is False
    refused = client.post(f"/api/recordings/{state['id']}/entries", headers=AUTH, json={"entry": "1", "chain": True}).json()
    assert not refused["ok"] and "seat" in refused["message"] and refused["events"] == state["events"]


# -- every game: a property over generated matches ------------------------------------------------------------

def bare_events(path: Path) -> list[Any]:
    return [msgspec.structs.replace(e, prev=None) for e in adjudicator.read_log(path).events]


@pytest.mark.parametrize("gid", ["colossus-order", "logos", "kolossus", "colossi"])
@pytest.mark.parametrize("seed", [0, 1])
def test_chaining_random_picks_of_generated_matches(tmp_path, gid, seed):
    """Random picks of every game, half of them chained, some entries taken back (a judge's
    session: whatever they showed): a chained pick is held exactly where the same player acts
    after it, else refused with nothing recorded; the file holds every event recorded or held;
    the entries (recorded and held) account for every event; undo takes a chained entry back whole."""
    import random

    from benchmarks.keystrokes import start

    game = adjudicator.game(gid)
    session, _table = start(game, seed, tmp_path / f"{gid}.jsonl")
    session.judge = True
    rng = random.Random(seed)
    held = refused = undone = 0
    for _ in range(70):
        if session.over:
            break
        choices = session.choices()
        if not choices:
            break
        choice = rng.choice(choices)
        who, n, open_ = session.to_act(), len(session.record), list(session.holding)
        if rng.random() < 0.5:
            a = session.pick(choice, chain=True)
            if a.ok:
                held += 1
                assert a.held and session.holding[:len(open_)] == open_ and session.to_act()
                assert not who or sorted(session.to_act()) == sorted(who), (who, session.to_act())
            else:
                refused += 1
                assert a.message.startswith("not chained"), a.message
                assert len(session.record) == n and session.holding == open_
                assert session.pick(choice).ok or session.confirming is not None
                session.confirming = None
        elif rng.random() < 0.15 and (session.holding or session._groups):
            before = session._open[1] if session._open is not None else session.record.entries - session._groups[-1][0]
            assert session.undo().ok
            undone += 1
            assert session.record.entries == before and not session.holding
        else:
            assert session.pick(choice).ok or session.confirming is not None
            session.confirming = None
        assert bare_events(session.path) == [msgspec.structs.replace(e, prev=None) for e in session.record.events]
        opened = session.record.entries - session._open[1] if session._open is not None else 0
        assert sum(r for r, _v in session._groups) + opened == session.record.entries - 1
    assert held + refused > 0 and (gid != "kolossus" or held), (held, refused, undone)
