"""The Kolossus notation as properties over generated matches (issue 30: "A notation per game",
"A position in one line"), written from docs/games/kolossus.md ("Notation").

Over matches of every chapter and the random rulesets of tests/test_kolossus_play.py (options,
seatings of 2 to 4 players, with and without a die generator), and over every example log and
every seat's record of it:

1. every event ``e`` (derived ones included) in the position ``s`` it happens in reads back
   exactly: ``parse(format(e, s), s) == e`` without its envelope; so do mutated events (a wrong
   square, warband, class, die; the direction form of a move; values only JSON can write);
2. in sampled positions the texts of the legal events are pairwise distinct (normalized) and each
   reads back as its event; ``narrow`` gives the legal events touching a square;
3. every position reads back from its line, ``parse_position(format_position(s)) == s``, for
   every seat too (``game.observe``), and passes ``check_position`` and the invariants;
4. a match re-entered as compound entries (``parse_entry``) gives the same log, at most 3
   entries per turn.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from adjudicator.core.kernel.events import bare
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.notation import NotationError, normalize
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import settle
from adjudicator.games.kolossus import events as E
from adjudicator.games.kolossus.basics import board_of

from .kolossus_scenarios import GAME
from .test_kolossus_play import matches

N = GAME.notation
EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples" / "kolossus").glob("*.jsonl"))
replace = msgspec.structs.replace
MAX_EVENTS = 140
#: positions per match whose legal events are all read back (placement: 168, a move: up to ~600)
LEGAL_SAMPLES = 12


def round_trip(e: Any, s: Any) -> str:
    text = N.format(e, s)
    assert "\n" not in text
    back = N.parse(text, s)
    assert back == bare(e), (text, e, back)
    return text


def walk(log: list[Any]) -> list[tuple[Any, Any]]:
    """Each event of a log written with its derived events, with the position it happens in."""
    s = GAME.initial_state(log[0])
    out = []
    for e in log[1:]:
        out.append((e, s))
        s = GAME.apply(s, e)
    out.append((None, s))
    return out


def mutations(e: Any, s: Any) -> list[Any]:
    """Events built from ``e`` that the table could mis-type (most of them illegal)."""
    t = type(e)
    out: list[Any] = []
    other = next(w.id for w in s.warbands if w.id != getattr(e, "warband", None))
    if hasattr(e, "warband"):
        out += [replace(e, warband=other), replace(e, warband="?")]  # (``?``: a value a seat's record leaves unknown)
    if t is E.MiniatureMoved and e.path:
        out += [replace(e, path=e.path[:1] + ["k11", "a1"]), replace(e, path=["z9"]),
                E.MiniatureMoved(warband=e.warband, start=e.path[0], direction="SW", steps=3),
                E.MiniatureMoved(warband=e.warband, start=e.path[0], direction="N", steps=1, turn="E", turn_steps=2,
                                 weapon="sword"),
                replace(e, path=[e.path[0], "b 9"]), replace(e, path=["?", "?"])]
    if t is E.MovementRolled:
        out += [replace(e, dice=[7] + e.dice), replace(e, dice=[])]
    if t in (E.DestinyRolled, E.QuakeRolled):
        out.append(replace(e, value=e.value + 4))
    if t is E.ActivationDeclared:
        out += [replace(e, character="colossus", square="f6"), replace(e, character="warrior")]
    if t is E.MiniaturesPlaced:
        out += [replace(e, colossus="f6", guardians=list(reversed(e.guardians))), replace(e, warriors=[])]
    if t in (E.SkillsChosen, E.ManaAllocated):
        out += [replace(e, attack={"warrior": 9, "colossus": 0}), replace(e, defence={"archer": 1})]
    if t is E.QuakeShifted:
        out += [replace(e, region="row-1", direction="N", distance=5)]
    if t is E.TurnEnded:
        out += [E.WeaponUsed(warband=e.warband, weapon="hammer", targets=["f6", "e5"]),
                E.RebirthUsed(warband=e.warband, character="guardian", square="a1"),
                E.EarthquakeUsed(warband=e.warband, region="column-k", direction="S"),
                E.InitiativeUsed(warband=e.warband)]
    if t is E.GameEnded:
        out += [replace(e, result="draw", winner=None, alliance=[]), replace(e, winner="x y", reason="wipeout")]
    if t is E.MiniatureBeaten:
        out.append(replace(e, by="earthquake", character="colossus"))
    if t is E.RoundStarted:
        out.append(replace(e, first=other, crystals=1))
    return out


def legal_texts(s: Any) -> None:
    legal = GAME.legal_events(s)
    texts = [N.format(e, s) for e in legal]
    normal = [normalize(t) for t in texts]
    assert len(set(normal)) == len(normal), [t for t in normal if normal.count(t) > 1][:4]
    for t, e in zip(texts, legal):
        assert N.parse(t, s) == e, (t, e)
    if legal and getattr(legal[0], "path", None):
        sq = legal[0].path[-1]
        assert N.narrow(s, sq) == [e for e in legal if sq in e.path]
        start = legal[0].path[0]
        assert N.narrow(s, start, sq) == [e for e in legal if sq in e.path and start in e.path]
    if s.step == "act":
        mine = [p for p in s.pieces if p.warband == s.current.id and not p.activated]
        for p in mine[:2]:
            tapped = N.narrow(s, p.square)
            assert [e for e in legal if type(e) is E.ActivationDeclared and e.character == p.character
                    and e.square in (None, p.square)] == [e for e in tapped if type(e) is E.ActivationDeclared]
    if legal and type(legal[0]) is E.MiniaturesPlaced:
        first = legal[0]
        assert N.narrow(s, first.colossus) == legal  # (every placement fills the zone: a square alone says nothing)
        taps = [f"C {first.colossus}", f"Guardian {first.guardians[0]}", f"w {first.warriors[0]}"]
        narrowed = N.narrow(s, *taps)
        assert first in narrowed and len(narrowed) < len(N.narrow(s, *taps[:2])) < len(N.narrow(s, taps[0])) < len(legal)
        assert all(e.colossus == first.colossus and first.guardians[0] in e.guardians for e in narrowed)


def position_round_trip(s: Any, seats: bool = True) -> None:
    """The judge's line reads back as ``s`` (parse_position checks ``check_position`` and the
    invariants: asserted here once more); with ``seats``, each player's line as what they see."""
    line = N.format_position(s)
    assert "\n" not in line and len(line) < 2_000
    back = N.parse_position(line)
    assert back == s, line
    GAME.check_position(back)
    assert GAME.invariants(back) == []
    for p in s.setup.players if seats else ():
        assert N.parse_position(N.format_position(s, p)) == GAME.observe(s, p)


def check_match(log: list[Any]) -> None:
    assert N.parse(N.format(log[0])) == bare(log[0])
    steps = walk(log)
    every = max(1, len(steps) // LEGAL_SAMPLES)
    refused = 0
    for k, (e, s) in enumerate(steps):
        position_round_trip(s, seats=k % every == 0)
        if k % every == 0 and GAME.derive(s) is None:
            legal_texts(s)
        if e is None:
            continue
        assert not round_trip(e, s).startswith("{"), e  # (a match's own events in words, never JSON)
        for m in mutations(e, s):
            round_trip(m, s)
            refused += k % every == 0 and GAME.check(s, m).verdict == "illegal"
    assert refused, "no mutated event the rules refuse: parse was only tried on legal ones"


@given(matches())
def test_every_event_and_position_reads_back(m) -> None:
    match, seed = m
    log, _ = playout(GAME, seed, max_events=MAX_EVENTS, setup=match, with_derived=True)
    check_match(log)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_sample_setups_read_back(seed: int) -> None:
    """The generated matches of the other property tests (sample_setup: every chapter, 2-4
    players, a die generator on even seeds), to the end of their first rounds."""
    log, _ = playout(GAME, seed, max_events=MAX_EVENTS, with_derived=True)
    check_match(log)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_read_back(path: Path) -> None:
    """Every event of every example (legal and illegal), every seat's record: in the position it
    happens in while the log is legal, alone after."""
    log = parse_log(path.read_bytes(), str(path))
    records = [[e for _, e in log.events]] + [list(redact_log(log, p)) for p in log.setup.players]
    for events in records:
        s, _ = settle(GAME, GAME.initial_state(events[0]))
        assert N.parse(N.format(events[0])) == bare(events[0])
        for e in events[1:]:
            round_trip(e, s)
            if s is not None and getattr(type(e), "kind", "D") != "X":
                ok = GAME.check(s, e).verdict == "legal"
                s = settle(GAME, GAME.apply(s, e))[0] if ok else None
            if s is not None:
                position_round_trip(s)


# -- compound entries ----------------------------------------------------------------------------------------

OPENS = (E.DestinyRolled, E.SkillsChosen, E.MiniaturesPlaced, E.QuakeRolled, E.TurnEnded)


def entries(log: list[Any]) -> list[list[Any]]:
    """The decisions and dice of a match (no derived events) grouped as the table enters them:
    a set-up step, a Great Quake move (roll, shift, mana), and per turn the die of destiny (with
    Initiative), the activations, the end (with the mana)."""
    out: list[list[Any]] = []
    for e in log[1:]:
        prev = type(out[-1][-1]) if out else None
        if not out or type(e) in OPENS or (prev in (E.DestinyRolled, E.InitiativeUsed) and type(e) is not E.InitiativeUsed):
            out.append([e])
        else:
            out[-1].append(e)
    return out


def reenter(log: list[Any]) -> tuple[list[Any], list[int]]:
    """The log as parse_entry reads its entries back, and the entries each turn took."""
    s, _ = settle(GAME, GAME.initial_state(log[0]))
    back: list[Any] = [log[0]]
    per_turn: list[int] = []
    for group in entries(log):
        text = N.format_entries(group, s)
        got = N.parse_entry(text, s)
        assert got == group, (text, group, got)
        if type(group[0]) is E.DestinyRolled:
            per_turn.append(1)
        elif per_turn and type(group[0]) is not E.QuakeRolled and s.round:
            per_turn[-1] += 1
        back += got
        for e in got:
            s, _ = settle(GAME, GAME.apply(s, e))
    return back, per_turn


@settings(max_examples=10)
@given(matches())
def test_compound_entries_re_enter_a_match(m) -> None:
    match, seed = m
    log, _ = playout(GAME, seed, max_events=200, setup=match)
    back, per_turn = reenter(log)
    assert back == log
    assert all(n <= 3 for n in per_turn), per_turn


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_compound_entries_sample_setups(seed: int) -> None:
    log, _ = playout(GAME, seed, max_events=300)
    back, per_turn = reenter(log)
    assert back == log and per_turn and max(per_turn) <= 3


def held_entries(log: list[Any]) -> list[tuple[Any, list[Any]]]:
    """The decisions and dice of a match grouped as the terminal recorder's keys record them
    (recorder/session.py: a pick the notation ``continues`` from is held open and recorded with
    the next; a forced decision, filled in, joins the entry before it), each with the position
    it is entered in."""
    s, _ = settle(GAME, GAME.initial_state(log[0]))
    events = [e for e in log[1:] if e.kind != "X"]
    out: list[tuple[Any, list[Any]]] = []
    start, group = s, []
    for i, e in enumerate(events):
        group.append(e)
        s, _ = settle(GAME, GAME.apply(s, e))
        nxt = events[i + 1] if i + 1 < len(events) else None
        forced = nxt is not None and nxt.kind != "R" and GAME.legal_events(s) == [nxt]
        if nxt is not None and (forced or N.continues(start, group, s)):
            continue
        out.append((start, group))
        start, group = s, []
    return out


@settings(max_examples=10)
@given(matches())
def test_held_entries_read_back(m) -> None:
    """Every entry as the recorder's keys hold it (a die of destiny with the first decision, an
    activation with its dice and move, a turn's end with its allocation) is written by
    format_entries and read back by parse_entry as the same events; held entries do occur."""
    match, seed = m
    log, _ = playout(GAME, seed, max_events=200, setup=match)
    for s, group in held_entries(log):
        text = N.format_entries(group, s)
        assert N.parse_entry(text, s) == [bare(e) for e in group], (text, group)


@pytest.mark.parametrize("seed", [1, 3, 5])
def test_own_dice_entries_say_the_die_with_the_decision(seed: int) -> None:
    """With the players' own dice (odd sample set-ups) a die of destiny never stands alone: its
    entry holds the decision it feeds, and each entry reads back from its text."""
    log, _ = playout(GAME, seed, max_events=300)
    assert log[0].rng is None
    held = held_entries(log)
    for s, group in held:
        assert type(group[-1]) is not E.DestinyRolled or group is held[-1][1], group  # (a cut-off match aside)
        assert N.parse_entry(N.format_entries(group, s), s) == group
    assert any(type(g[0]) is E.DestinyRolled and type(g[1]) is E.ActivationDeclared for _s, g in held)


@functools.lru_cache(maxsize=None)
def at_move(seed: int) -> tuple[list[Any], Any]:
    """A generated match up to its first activation (the position in the ``act`` step before it)."""
    log, _ = playout(GAME, seed, max_events=400)
    s, _ = settle(GAME, GAME.initial_state(log[0]))
    for k, e in enumerate(log[1:], 1):
        if type(e) is E.ActivationDeclared:
            return log[k:k + 3], s
        s, _ = settle(GAME, GAME.apply(s, e))
    raise AssertionError("no activation")


def test_a_compound_entry_as_a_scorekeeper_types_it() -> None:
    (decl, roll, move), s = at_move(1)  # (seed 1: no die generator)
    cls = decl.character.capitalize()
    path = "-".join(move.path)
    assert N.parse_entry(f"{cls} {'+'.join(map(str, roll.dice))} {path}", s) == [decl, roll, move]
    # the player's name, the dice written apart, the old arrows
    player = s.current.player
    typed = f"{player.upper()}: {cls.lower()} {' '.join(map(str, roll.dice))} {' -> '.join(move.path)}"
    if sum(w.player == player for w in s.warbands) == 1:
        assert N.parse_entry(typed, s) == [decl, roll, move]
    # without the dice the entry stops for the recorder to ask (no die generator fixes them)
    assert N.parse_entry(cls, s) == [decl]
    with pytest.raises(NotationError, match="dice"):
        N.parse_entry(f"{cls} {path}", s)


def test_the_die_generator_fills_the_dice() -> None:
    (decl, roll, move), s = at_move(0)  # (seed 0: python-random)
    assert N.parse_entry(f"{decl.character} {'-'.join(move.path)}", s) == [decl, roll, move]


def test_an_illegal_part_ends_the_entry() -> None:
    (decl, roll, move), s = at_move(1)
    got = N.parse_entry(f"{decl.warband}: destiny 3", s)
    assert got == [E.DestinyRolled(warband=decl.warband, value=3)] and GAME.check(s, got[0]).verdict == "illegal"
    with pytest.raises(NotationError, match="not read"):
        N.parse_entry(f"destiny 3; {decl.character} 1 {move.path[0]}", s)


# -- words and errors ---------------------------------------------------------------------------------------

def test_words_as_the_issue_writes_them() -> None:
    s = at_move(1)[1]
    move = E.MiniatureMoved(warband="tuatha", path=["b9", "c10", "d11"])
    assert N.format(move) == "tuatha: move b9-c10-d11"
    assert N.format(E.DestinyRolled(warband="tuatha", value=4)) == "tuatha: destiny 4"
    assert N.format(E.ActivationDeclared(warband="krell", character="guardian", square="d4")) == "krell: activate Guardian d4"
    assert N.parse("Tua'tha: Warrior b9-c10-d11") == move
    assert N.parse("T: W b9 c10 d11") == move
    assert N.parse("krell: Guardian i10 2S 3W") == E.MiniatureMoved(warband="krell", start="i10", direction="S", steps=2,
                                                                     turn="W", turn_steps=3)
    assert N.parse('{"type":"TurnEnded","warband":"krell"}') == E.TurnEnded(warband="krell")
    piece = next(p for p in s.pieces if p.warband == s.current.id)
    assert N.format(E.MiniatureMoved(warband=piece.warband, path=[piece.square]), s) == \
        f"{piece.warband}: {piece.character.capitalize()} {piece.square}"
    other = next(c for c in ("Warrior", "Guardian", "Colossus") if c.lower() != piece.character)
    with pytest.raises(NotationError) as err:
        N.parse(f"{piece.warband}: {other} {piece.square}", s)
    assert err.value.candidates == [f"{piece.warband}: {piece.character.capitalize()} {piece.square}"]


def test_unknown_names_and_ambiguities_answer_with_candidates() -> None:
    with pytest.raises(NotationError) as err:
        N.parse("krel: end")
    assert "krell" in str(err.value) and err.value.candidates == ["krell: end"]
    with pytest.raises(NotationError, match="warband"):
        N.parse("end")  # (no position: whose?)
    log, _ = playout(GAME, 3, max_events=60)  # (seed 3: two players, two warbands each)
    s, _ = settle(GAME, GAME.initial_state(log[0]))
    for e in log[1:30]:
        s, _ = settle(GAME, GAME.apply(s, e))
    idle = next(w for w in s.warbands if w.player != s.current.player)
    with pytest.raises(NotationError) as err:
        N.parse(f"{idle.player}: end", s)
    assert len(err.value.candidates) == 2
    assert N.parse(f"{s.current.player}: end", s) == E.TurnEnded(warband=s.current.id)
    with pytest.raises(NotationError, match="left over"):
        N.parse("tuatha: end now")
    with pytest.raises(NotationError) as err:
        N.parse("tuatha: Warior b9-c10")
    assert err.value.candidates == ["tuatha: warrior b9-c10"]


def test_every_field_of_a_position_reads_back() -> None:
    """A position with every field away from its default (a crafted one: a queue of reports, a
    due end, a moved Citadel, flags on the miniatures, a header with spaces, options)."""
    from adjudicator.games.kolossus.state import Activation, Result

    log, _ = playout(GAME, 5, max_events=120)  # (chapter 3)
    s, _ = settle(GAME, GAME.initial_state(log[0]))
    for e in log[1:]:
        s, _ = settle(GAME, GAME.apply(s, e))
    setup = replace(s.setup, meta={"event": "Spring Open 2026", "table": "7%"}, options={"rounds": 3, "wipeout": "never"},
                    players=list(reversed(s.setup.players)), board_sha256=None)
    pieces = list(s.pieces)
    pieces[0] = replace(pieces[0], activated=True, reborn=True)
    levels = list(s.levels)
    levels[0] = 5  # (two squares at level 5: the Citadel is named)
    crafted = replace(
        s, setup=setup, options=GAME.options_of(setup), pieces=tuple(pieces), levels=tuple(levels), first=1, order=2,
        quaked=("row-4",), quakers=(s.warbands[0].player,), quake_roll=2, initiative=True, acted=True,
        activation=Activation("guardian", None, (2, 3), 6, pieces[1].square, 1), last_capture=0, captured_by=3,
        queue=(E.MiniatureBeaten(warband=s.warbands[1].id, character="warrior", square="a1", by="quake"),
               E.CrystalsCaptured(warband=s.warbands[2].id, count=2)),
        ending=Result("win", "ann+cat", (s.warbands[0].id, s.warbands[2].id), "wipeout"),
        result=Result("draw", None, (), "no-crystal"))
    line = N.format_position(crafted)
    for part in ("citadel=", "queue=", "ending=", "result=", "initiative", "acted", "m.event=Spring%20Open%202026",
                 "o.wipeout=never", "players="):
        assert part in line, part
    assert N.parse_position(line) == crafted


def test_bad_position_lines_name_the_part() -> None:
    log, _ = playout(GAME, 2, max_events=80)
    s, _ = settle(GAME, GAME.initial_state(log[0]))
    for e in log[1:]:
        s, _ = settle(GAME, GAME.apply(s, e))
    line = N.format_position(s).split(" ")
    cases = {
        "fields": " ".join(line[:3]),
        "levels": " ".join(line[:2] + ["1/2"] + line[3:]),
        "pieces": " ".join(line[:3] + ["Tx:a1"] + line[4:]),
        "step": " ".join(line[:5] + ["dance:T"] + line[6:]),
        "unknown key": " ".join(line + ["colour=blue"]),
        "seats": " ".join(line[:1] + ["T=ann"] + line[2:]),
        "not a number": " ".join(line + ["rolls=many"]),
        "invariant": " ".join(line[:3] + ["Tw:a1,a1"] + line[4:]),
    }
    for why, text in cases.items():
        with pytest.raises(NotationError, match="position"):
            N.parse_position(text)
    with pytest.raises(NotationError, match="longer"):
        N.parse_position("x" * 200_000)


def test_the_position_line_is_documented_with_a_real_example() -> None:
    """The example line in docs/games/kolossus.md reads as a position."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "games" / "kolossus.md").read_text()
    section = doc.split("## Notation", 1)[1]
    line = section.split("```text\n", 1)[1].split("\n", 1)[0]
    s = N.parse_position(line)
    assert N.format_position(s) == line
    texts = section.split("```text\n", 2)[2].split("```", 1)[0].splitlines()
    assert len(texts) >= 20
    for text in texts:
        assert N.format(N.parse(text, s), s) == text


LINE_CHARS = st.sampled_from(list("Tkwgc:=/,.@~+*<%-0123456789abfx? ") + ["row-4", "act", "round=", "o.rounds=", "activation="])


@settings(max_examples=60)
@given(st.integers(0, 40), st.lists(LINE_CHARS, max_size=30).map("".join), st.booleans())
def test_a_mistyped_position_line_is_a_notation_error(field: int, junk: str, insert: bool) -> None:
    """Any field of a real line replaced by (or followed by) junk: the position reads, or a
    NotationError names what does not (never another exception)."""
    line = N.format_position(at_move(2)[1]).split(" ")
    k = field % (len(line) + 1)
    line = line[:k] + [junk] + line[k + (0 if insert else 1):]
    try:
        s = N.parse_position(" ".join(line))
    except NotationError:
        return
    assert GAME.invariants(s) == []


@settings(max_examples=60)
@given(st.lists(st.sampled_from(["tuatha:", "ann:", "Warrior", "C", "b9-c10", "a1", "2S", "3", "2+4", "roll", "place",
                                 "skills", "W1", "attack", "by", "beaten", "over:", "win", "-", ";", "round", "sword",
                                 "destiny", "end", "x", "?", "G", "mana", "pool", "shift", "row-6", "N", "hammer"]),
                max_size=12).map(" ".join))
def test_any_words_read_as_events_or_a_notation_error(text: str) -> None:
    """Words of the grammar in any order: parse and parse_entry give events or a NotationError."""
    s = at_move(1)[1]
    for read in (lambda: [N.parse(text, s)], lambda: [N.parse(text)], lambda: N.parse_entry(text, s)):
        try:
            events = read()
        except NotationError:
            continue
        for e in events:
            assert N.parse(N.format(e, s), s) == e
