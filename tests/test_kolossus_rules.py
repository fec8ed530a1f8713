"""Kolossus rules, one rule id at a time, then the ruleset options and the flows.

Every id of ``rulebook.RULES`` is covered here: a legal case (an event governed by the rule
accepted where it applies) and an illegal case (an event rejected with a ruling citing that id,
the expected ``kolossus/...`` code and a message quoting the facts).  Ids that by nature never
reject an event (derived consequences, interpretations enforced under another id) are listed in
``NEVER_REJECTS`` with the reason, and get a test of the documented behaviour instead.
``tests/test_every_game.py`` fails when a rule id has no test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.rulings import Ruling
from adjudicator.core.kernel.verify import propose, run
from adjudicator.games.kolossus import events as E
from adjudicator.games.kolossus.rulebook import RULES
from tests.rulecov import RuleCoverage
from adjudicator.games.kolossus.state import Activation

from .kolossus_scenarios import (
    BOARD, F, GAME, I, K, NS, PLACE, T, Script, base_state, encode, moved, position, setup, verify_events,
    with_warband,
)

#: rule id -> what the tests of that id show ("legal", "illegal", "behaviour")
_COVERAGE = RuleCoverage(RULES, NS)
COVERED = _COVERAGE.covered
covers, documents = _COVERAGE.covers, _COVERAGE.documents
rejects, accepts = _COVERAGE.rejects, _COVERAGE.accepts

#: ids that can never reject an event, and why (each still has a behaviour test)
NEVER_REJECTS: dict[str, str] = {
    "KO-3.1": "the order of the Great Quake is the engine's step; a roll or shift out of turn is KO-4.1",
    "KO-4.2": "the die of destiny sets the points (a bad die is KO-2.1 / KO-2.2)",
    "KO-4.6": "ending the turn is always allowed in the act step (out of step: KO-4.1; with must_spend_all: KO-10)",
    "KO-6.1": "crystals are placed by the derived RoundStarted",
    "KO-6.2": "captures are derived (CrystalsCaptured); a stated one that differs is LOG-2",
    "KO-6.3": "the first player is derived (RoundStarted.first)",
    "KO-40": "what an illegal event does when a judge's ruling lets it stand: how apply reads it, never a check",
    "KO-6.4": "the end after the last round is derived (GameEnded)",
    "KO-6.5": "a wipe-out is derived (GameEnded)",
    "KO-7.3": "Attack is added to the movement points by the engine; Defence is enforced under KO-5.8",
    "KO-1": "the board is data; squares that do not exist make a log unreadable",
    "KO-2": "start zones are board data, enforced under KO-1.4 and KO-8.8",
    "KO-3": "the candidates are enforced under KO-3.2",
    "KO-4": "the distance is enforced under KO-3.4",
    "KO-5": "the slide is how the engine applies QuakeShifted / EarthquakeUsed",
    "KO-6": "riders are moved by the engine",
    "KO-7": "the order of Great Quake moves is the engine's step (KO-4.1)",
    "KO-8": "invasion mana is derived; its allocation is checked under KO-7.2",
    "KO-9": "the table feeds KO-7.1",
    "KO-12": "movement points are derived; their limit is KO-5.4",
    "KO-14": "the level check is KO-5.5",
    "KO-15": "enforced as KO-5.6 (ends-on-own, ally-blocks)",
    "KO-16": "the defence mode feeds KO-5.8, KO-8.4 and KO-8.5",
    "KO-17": "enforced as KO-5.8",
    "KO-18": "captures are derived",
    "KO-19": "the first player is derived",
    "KO-20": "the end is derived",
    "KO-21": "the end is derived",
    "KO-23": "enforced as KO-1.1 / KO-1.2",
    "KO-25": "the map feeds KO-8.1 (not-your-weapon)",
    "KO-26": "enforced as KO-8.1 .. KO-8.5",
    "KO-28": "enforced as KO-7.2 (pool-full)",
    "KO-29": "the sequence is the engine's step (KO-4.1)",
    "KO-30": "enforced as KO-2.1",
    "KO-31": "the preset sets the chapter; events of a later chapter are rejected under their own rule (chapter)",
}



def check(s: Any, e: Any) -> Ruling:
    return GAME.check(s, e)


def start_ruling(m: E.MatchStarted) -> Ruling:
    return GAME.check_start(m)


def seats(*spec: tuple[str, str, str]) -> list[tuple[str, str, str]]:
    return list(spec)


# ==================================================================================================
# 1 set-up
# ==================================================================================================

@covers("KO-1.1")
def test_four_seats_clockwise() -> None:
    accepts(start_ruling(setup()), "KO-1.1")
    three = setup(seats=[(T, "ann", "NW"), (K, "ben", "NE"), (I, "cat", "SE")])
    rejects(start_ruling(three), "KO-1.1", "four-seats", "3")
    twice = setup(seats=[(T, "ann", "NW"), (K, "ben", "NE"), (T, "cat", "SE"), (F, "dan", "SW")])
    rejects(start_ruling(twice), "KO-1.1", "warband-twice")
    corner = setup(seats=[(T, "ann", "NW"), (K, "ben", "NE"), (I, "cat", "NE"), (F, "dan", "SW")])
    rejects(start_ruling(corner), "KO-1.1", "corner-twice")
    anti = setup(seats=[(T, "ann", "NW"), (K, "ben", "SW"), (I, "cat", "SE"), (F, "dan", "NE")])
    rejects(start_ruling(anti), "KO-1.1", "not-clockwise", "NE")
    # any corner may come first, as long as the order is clockwise
    accepts(start_ruling(setup(seats=[(I, "cat", "SE"), (F, "dan", "SW"), (T, "ann", "NW"), (K, "ben", "NE")])))
    res = verify_events([three])
    assert [(v.rule, v.line) for v in res.violations] == [("KO-1.1", 1)]


@covers("KO-1.2")
@documents("KO-23")
def test_two_to_four_players_and_alliances() -> None:
    accepts(start_ruling(setup(players=2)))
    accepts(start_ruling(setup(players=3)))
    neighbours = setup(seats=[(T, "ann", "NW"), (K, "ann", "NE"), (I, "ben", "SE"), (F, "ben", "SW")])
    rejects(start_ruling(neighbours), "KO-1.2", "not-allied", "ann", "tuatha", "krell")
    three_of_four = setup(seats=[(T, "ann", "NW"), (K, "ann", "NE"), (I, "ann", "SE"), (F, "ben", "SW")])
    rejects(start_ruling(three_of_four), "KO-1.2", "too-many-warbands", "3")
    idle = replace(setup(), players=["ann", "ben", "cat", "dan", "eve"])
    rejects(start_ruling(idle), "KO-1.2", "player-count", "5")
    idle4 = replace(setup(players=3), players=["ann", "ben", "cat", "dan"])
    rejects(start_ruling(idle4), "KO-1.2", "no-warband", "dan")
    # KO-23: a 2-player match still has four warbands, each player moving two of them in turn
    s = Script(players=2).to_round()
    assert [w.player for w in s.state().warbands] == ["ann", "ben", "ann", "ben"]
    assert GAME.to_act(s.state()) == ["ann"]


@covers("KO-1.3")
def test_initial_skills() -> None:
    s = Script("chapter-2")
    accepts(s.check(E.SkillsChosen(warband=T, attack={"colossus": 1}, defence={"guardian": 3})), "KO-1.3")
    rejects(s.check(E.SkillsChosen(warband=T, attack={"warrior": 3})), "KO-1.3", "skills-total", "3", "exactly 4")
    rejects(s.check(E.SkillsChosen(warband=T, attack={"archer": 4})), "KO-1.3", "unknown-class", "archer")
    rejects(s.check(E.SkillsChosen(warband=T, attack={"warrior": 5}, defence={"guardian": -1})), "KO-1.3", "negative")
    s.add(E.SkillsChosen(warband=T, attack={"warrior": 4}))
    w = s.state().warbands[0]
    assert (w.attack, w.defence, w.supply) == ((4, 0, 0), (0, 0, 0), 16)
    # chapter 1 has no character boards: skills are not part of its set-up
    rejects(Script().check(E.SkillsChosen(warband=T, attack={"warrior": 4})), "KO-4.1", "out-of-step", "miniatures placed")


@covers("KO-1.4")
def test_placement_in_the_own_start_zone() -> None:
    s = Script()
    c, gs, ws = PLACE["NW"]
    accepts(s.check(E.MiniaturesPlaced(warband=T, colossus=c, guardians=gs, warriors=ws)), "KO-1.4")
    rejects(s.check(E.MiniaturesPlaced(warband=T, colossus="c9", guardians=gs, warriors=ws)), "KO-1.4", "outside-zone",
            "c9", "NW")
    rejects(s.check(E.MiniaturesPlaced(warband=T, colossus=gs[0], guardians=gs, warriors=ws)), "KO-1.4", "same-square",
            gs[0])
    rejects(s.check(E.MiniaturesPlaced(warband=T, colossus=c, guardians=gs, warriors=ws[:4])), "KO-1.4", "army", "4 Warriors")
    rejects(s.check(E.MiniaturesPlaced(warband=T, colossus="z9", guardians=gs, warriors=ws)), "KO-1.4", "unknown-square")
    s.place_all()
    assert len(s.state().pieces) == 32 and s.state().step == "quake-roll"


@documents("KO-1", "KO-2")
def test_the_board_data() -> None:
    b = BOARD
    assert b.size == 11 and len(b.regions) == 22
    counts = {lv: b.levels.count(lv) for lv in (1, 2, 3, 4, 5)}
    assert counts == {1: 72, 2: 24, 3: 16, 4: 8, 5: 1}
    assert b.names[b.citadel] == "f6"
    assert b.corner_order == ("NW", "NE", "SE", "SW")
    for name, zone in b.corners.items():
        assert len(zone) == 8 and all(b.levels[i] == 1 for i in zone), name
    # the central regions touch no start zone
    for r in b.central_regions:
        assert not set(b.regions[r]) & set(b.zone_of), r


@pytest.mark.parametrize("bad_text, what", [
    ("levels = [\"111\"]\n", "board"),
    ('board = "x"\nlevels = ["111", "111", "111"]\ncorner = []\n', "must match the file name"),
    ('board = "b"\nlevels = ["111", "11", "111"]\ncorner = []\n', "levels[1] (row 2): 2 squares"),
    ('board = "b"\nlevels = ["111", "161", "111"]\ncorner = []\n', "square b2: level '6'"),
    ('board = "b"\nlevels = ["111", "111", "111"]\ncorner = []\n', "0 squares at level 5"),
    ('board = "b"\nlevels = ["111", "151", "111"]\ncorner = []\n', "corner: 0 start zones"),
    ('board = "b"\nlevels = ["111", "151", "111"]\n' + "".join(
        f'[[corner]]\nname = "{n}"\nsquares = ["a1","b1","c1","a2","c2","a3","b3","z9"]\n' for n in "ABCD"),
     "corner[0] ('A'): squares[7]: 'z9' is not a square"),
    ("not toml [", "not valid TOML"),
])
def test_a_malformed_board_file_names_the_file_and_entry(tmp_path: Path, bad_text: str, what: str) -> None:
    from adjudicator.core.kernel.errors import DataError
    from adjudicator.games.kolossus.board import load_board_file

    path = tmp_path / "b.toml"
    path.write_text(bad_text)
    with pytest.raises(DataError) as info:
        load_board_file(path)
    assert str(path) in str(info.value) and what in str(info.value), str(info.value)


def test_an_unknown_board_option_is_unreadable() -> None:
    from adjudicator.core.kernel.errors import LogError

    with pytest.raises(LogError, match="options.board: .*no board named 'hexes'"):
        parse_log(encode([setup(options={"board": "hexes"})]))
    with pytest.raises(LogError, match="options.defence_mode"):
        parse_log(encode([setup(options={"defence_mode": "soft"})]))
    with pytest.raises(LogError, match="options.colour: unknown option"):
        parse_log(encode([setup(options={"colour": 1})]))
    with pytest.raises(LogError, match="seats\\[0\\].warband: unknown warband 'elves'"):
        parse_log(encode([setup(seats=[("elves", "ann", "NW"), (K, "ben", "NE"), (I, "cat", "SE"), (F, "dan", "SW")])]))


# ==================================================================================================
# 2 dice
# ==================================================================================================

@covers("KO-2.1")
@documents("KO-30")
def test_a_die_is_a_d4() -> None:
    s = Script().to_round()
    accepts(s.check(E.DestinyRolled(warband=T, value=4)), "KO-4.2")
    rejects(s.check(E.DestinyRolled(warband=T, value=5)), "KO-2.1", "not-a-d4", "5")
    rejects(s.check(E.DestinyRolled(warband=T, value=0)), "KO-2.1", "not-a-d4")
    s.destiny(3)
    s.activate("guardian")
    rejects(s.check(E.MovementRolled(warband=T, dice=[2, 7])), "KO-2.1", "not-a-d4", "7")


@covers("KO-4.5")
@documents("KO-12")
def test_movement_dice_per_class() -> None:
    s = Script().to_round()
    s.destiny(4)
    s.activate("guardian")
    rejects(s.check(E.MovementRolled(warband=T, dice=[3])), "KO-4.5", "dice-count", "1 dice", "2 d4")
    accepts(s.check(E.MovementRolled(warband=T, dice=[3, 2])), "KO-4.5")
    s.roll(3, 2)
    assert s.state().activation.mp == 5
    # chapter 2: the class's Attack adds to the movement points (KO-12)
    s2 = Script("chapter-2").to_round(skills={w: ({"guardian": 3}, {"warrior": 1}) for w in (T, K, I, F)})
    s2.destiny(2)
    s2.activate("guardian")
    s2.roll(1, 1)
    assert s2.state().activation.mp == 5


@covers("KO-2.2")
def test_recorded_dice_must_match_a_declared_generator() -> None:
    import random as stdlib_random

    gen = stdlib_random.Random(41)
    expected = [gen.randint(1, 4) for _ in range(8)]
    s = Script(seed=41, rng="python-random")
    s.place_all()
    rejects(s.check(E.QuakeRolled(warband=T, value=expected[0] % 4 + 1)), "KO-2.2", "roll-mismatch",
            f"gives [{expected[0]}]", "die 1")
    accepts(s.check(E.QuakeRolled(warband=T, value=expected[0])))
    assert GAME.legal_events(s.state()) == [E.QuakeRolled(warband=T, value=expected[0])]
    s.quake_all(rolls=expected[:4], moves=[("row-4", "W"), ("row-8", "E"), ("column-d", "N"), ("column-h", "S")])
    # the fifth die of the match is the first die of destiny
    s.destiny(expected[4])
    s.activate("warrior")
    rejects(s.check(E.MovementRolled(warband=T, dice=[expected[5] % 4 + 1])), "KO-2.2", "roll-mismatch", "die 6")
    accepts(s.check(E.MovementRolled(warband=T, dice=[expected[5]])))
    # without a generator any d4 result is legal, and legal lists all four
    s2 = Script().to_round()
    assert [e.value for e in GAME.legal_events(s2.state())] == [1, 2, 3, 4]


def test_an_unknown_generator_or_missing_seed_is_unreadable() -> None:
    from adjudicator.core.kernel.errors import LogError

    with pytest.raises(LogError, match="rng: unknown die generator 'mersenne'"):
        parse_log(encode([setup(rng="mersenne", seed=1)]))
    with pytest.raises(LogError, match="seed: the generator python-random needs a seed"):
        parse_log(encode([setup(rng="python-random")]))


# ==================================================================================================
# 3 the Great Quake
# ==================================================================================================

def quake_state(**kw: Any) -> Script:
    s = Script(**kw)
    s.skills_all()
    s.place_all()
    return s


@documents("KO-3.1", "KO-7", "KO-29")
def test_great_quake_order() -> None:
    s = quake_state()
    order = []
    for r, d in [("row-5", "E"), ("row-6", "W"), ("column-e", "N"), ("column-g", "S")]:
        order.append(s.turn)
        s.add(E.QuakeRolled(warband=s.turn, value=2))
        s.add(E.QuakeShifted(warband=s.turn, region=r, direction=d, distance=2))
    assert order == [T, K, I, F]
    # after the fourth move round 1 starts with a crystal on the Citadel (which row-6 moved to d6)
    assert [type(e).__name__ for e in s.derived] == ["RoundStarted", "TurnStarted"]
    assert s.derived[0] == E.RoundStarted(round=1, first=T, crystals=1)
    assert s.state().citadel == "d6"
    rejects(s.check(E.QuakeRolled(warband=T, value=1)), "KO-4.1", "out-of-step", "destiny rolled")


@covers("KO-3.2")
@documents("KO-3")
def test_quake_regions_are_the_central_ones() -> None:
    s = quake_state()
    s.add(E.QuakeRolled(warband=T, value=3))
    for r in ("row-4", "row-8", "column-d", "column-h", "row-6"):
        accepts(s.check(E.QuakeShifted(warband=T, region=r, direction="N" if r.startswith("column") else "E", distance=3)))
    rejects(s.check(E.QuakeShifted(warband=T, region="row-3", direction="E", distance=3)), "KO-3.2", "not-central", "row-3")
    rejects(s.check(E.QuakeShifted(warband=T, region="column-k", direction="N", distance=3)), "KO-3.2", "not-central")
    rejects(s.check(E.QuakeShifted(warband=T, region="row-12", direction="E", distance=3)), "KO-3.2", "unknown-region")
    shifts = [e for e in GAME.legal_events(s.state())]
    assert len(shifts) == 20 and {e.region for e in shifts} == set(BOARD.central_regions)


@covers("KO-3.3")
def test_each_region_once() -> None:
    s = quake_state()
    s.add(E.QuakeRolled(warband=T, value=1))
    s.add(E.QuakeShifted(warband=T, region="row-6", direction="E", distance=1))
    s.add(E.QuakeRolled(warband=K, value=1))
    rejects(s.check(E.QuakeShifted(warband=K, region="row-6", direction="W", distance=1)), "KO-3.3", "region-moved", "row-6")
    accepts(s.check(E.QuakeShifted(warband=K, region="column-f", direction="S", distance=1)))


@covers("KO-3.4")
@documents("KO-4", "KO-5")
def test_region_slides_along_itself_by_the_roll() -> None:
    s = quake_state()
    s.add(E.QuakeRolled(warband=T, value=3))
    rejects(s.check(E.QuakeShifted(warband=T, region="row-6", direction="E", distance=2)), "KO-3.4", "distance",
            "exactly 3")
    rejects(s.check(E.QuakeShifted(warband=T, region="row-6", direction="N", distance=3)), "KO-3.4", "wrong-direction",
            "row", "E or W")
    before = s.state().levels
    s.add(E.QuakeShifted(warband=T, region="row-6", direction="E", distance=3))
    row = [s.state().levels[BOARD.index[f"{c}6"]] for c in "abcdefghijk"]
    # KO-5: the row's contents move rigidly 3 east; the vacated squares are bare board; c6..i6 were 2345432
    assert [before[BOARD.index[f"{c}6"]] for c in "abcdefghijk"] == [1, 1, 2, 3, 4, 5, 4, 3, 2, 1, 1]
    assert row == [1, 1, 1, 1, 1, 2, 3, 4, 5, 4, 3]
    assert s.state().citadel == "i6"


@covers("KO-3.5")
def test_landscapes_leave_the_board_but_the_citadel_stays() -> None:
    s = quake_state()
    s.add(E.QuakeRolled(warband=T, value=4))
    s.add(E.QuakeShifted(warband=T, region="row-7", direction="W", distance=4))
    row = [s.state().levels[BOARD.index[f"{c}7"]] for c in "abcdefghijk"]
    # the Woods on c7 and the Hills on d7 were pushed over the west edge and left the game
    assert row == [4, 4, 4, 3, 2, 1, 1, 1, 1, 1, 1]
    assert sum(1 for v in s.state().levels if v > 1) == 49 - 2
    # a Citadel near the edge cannot be pushed off
    st = replace(s.state(), step="quake-shift", seat=1, quake_roll=4, citadel="j6",
                 levels=tuple(5 if i == BOARD.index["j6"] else (1 if v == 5 else v) for i, v in enumerate(s.state().levels)))
    st = replace(st, options=replace(st.options, quake_regions="all"))
    rejects(check(st, E.QuakeShifted(warband=K, region="row-6", direction="E", distance=4)), "KO-3.5",
            "citadel-off-board", "j6")
    accepts(check(st, E.QuakeShifted(warband=K, region="row-6", direction="W", distance=4)))


# ==================================================================================================
# 4 turns
# ==================================================================================================

@covers("KO-4.1")
def test_only_the_warband_whose_step_it_is() -> None:
    s = Script().to_round()
    rejects(s.check(E.DestinyRolled(warband=K, value=2)), "KO-4.1", "not-your-step", "tuatha")
    rejects(s.check(E.TurnEnded(warband=T)), "KO-4.1", "out-of-step", "destiny rolled by tuatha")
    rejects(s.check(E.TurnEnded(warband="nobody")), "KO-4.1", "unknown-warband", "nobody")
    rejects(s.check(E.TurnStarted(round=1, warband=T)), "KO-4.1", "derived-event")
    accepts(s.check(E.DestinyRolled(warband=T, value=2)))


@documents("KO-4.2", "KO-4.6")
def test_destiny_gives_points_and_unspent_points_are_lost() -> None:
    s = Script().to_round()
    s.destiny(3)
    assert (s.state().destiny, s.state().points) == (3, 3)
    s.activate("warrior")
    assert s.state().points == 2
    s.roll(1)
    s.move("a9")
    accepts(s.check(E.TurnEnded(warband=T)), "KO-4.6")
    s.end_turn()
    assert s.turn == K and s.state().points == 0


@covers("KO-4.3")
def test_activation_costs() -> None:
    s = Script().to_round()
    s.destiny(2)
    rejects(s.check(E.ActivationDeclared(warband=T, character="colossus")), "KO-4.3", "points", "3", "2 left")
    accepts(s.check(E.ActivationDeclared(warband=T, character="guardian")), "KO-4.3")
    s.activate("warrior")
    rejects(s.check(E.ActivationDeclared(warband=T, character="warrior")), "KO-4.1", "out-of-step")
    s.roll(2)
    s.move("a9")
    rejects(s.check(E.ActivationDeclared(warband=T, character="guardian")), "KO-4.3", "points", "1 left of 2")
    accepts(s.check(E.ActivationDeclared(warband=T, character="warrior")))
    assert [e.character for e in GAME.legal_events(s.state()) if type(e) is E.ActivationDeclared] == ["warrior"]


@covers("KO-4.4")
def test_each_miniature_once_per_turn() -> None:
    st = position({"a1": "Tw", "b1": "Tw", "k11": "Kw"}, step="act", points=4)
    st = replace(st, pieces=(replace(st.pieces[0], activated=True),) + st.pieces[1:])
    accepts(check(st, E.ActivationDeclared(warband=T, character="warrior")))
    st2 = replace(st, pieces=(st.pieces[0], replace(st.pieces[1], activated=True), st.pieces[2]))
    rejects(check(st2, E.ActivationDeclared(warband=T, character="warrior")), "KO-4.4", "none-left", "a1, b1",
            "already activated")
    rejects(check(st, E.ActivationDeclared(warband=T, character="guardian")), "KO-4.4", "none-left", "no guardian")
    mv = position({"a1": "Tw", "b1": "Tw"}, step="move", character="warrior", mp=2)
    mv = replace(mv, pieces=(replace(mv.pieces[0], activated=True), mv.pieces[1]))
    rejects(check(mv, moved(["a1", "a2"])), "KO-4.4", "already-activated", "a1")
    accepts(check(mv, moved(["b1", "b2"])))


# ==================================================================================================
# 5 movement
# ==================================================================================================

@covers("KO-5.1")
def test_the_moving_miniature() -> None:
    st = position({"e5": "Tg", "e3": "Tw", "g5": "Kg", "g3": "Ig"}, step="move", character="guardian", mp=3)
    accepts(check(st, moved(["e5", "e6"])), "KO-5.1")
    rejects(check(st, moved(["d5", "d6"])), "KO-5.1", "no-miniature", "d5")
    rejects(check(st, moved(["g5", "g6"])), "KO-5.1", "not-own", "Krell")
    rejects(check(st, moved(["g3", "g4"])), "KO-5.1", "not-own", "Ishtari")
    rejects(check(st, moved(["e3", "e4"])), "KO-5.1", "wrong-class", "Warrior", "Guardian")


@covers("KO-5.2")
def test_a_path_of_steps_on_the_board() -> None:
    st = position({"j5": "Tg"}, step="move", character="guardian", mp=6)
    accepts(check(st, moved(["j5", "k5"])))
    accepts(check(st, moved(["j5"])))  # a move of no steps
    rejects(check(st, moved(["j5", "j7"])), "KO-5.2", "not-a-step", "step 1 j5->j7")
    rejects(check(st, moved(["j5", "k5", "l5"])), "KO-5.2", "off-board", "step 2 k5->l5")
    rejects(check(st, moved([])), "KO-5.2", "empty-path")
    # the direction form: start, direction, steps, turn, turn_steps
    compact = moved([], start="j5", direction="N", steps=2, turn="W", turn_steps=1)
    accepts(check(st, compact))
    assert GAME.canonical(compact) == moved(["j5", "j6", "j7", "i7"])
    rejects(check(st, moved([], start="j5", direction="E", steps=2)), "KO-5.2", "off-board", "step 2 k5->l5")
    rejects(check(st, moved(["j5", "j6"], start="j5", direction="N", steps=2)), "KO-5.2", "path-mismatch")
    rejects(check(st, moved([], start="j5", direction="N", steps=0, turn="W", turn_steps=1)), "KO-5.2", "bad-turn")
    rejects(check(st, moved([], direction="N", steps=2)), "KO-5.2", "compact-incomplete")
    rejects(check(st, moved([], start="j5", steps=2)), "KO-5.2", "compact-incomplete")
    rejects(check(st, moved([], start="j5", direction="N", steps=-1)), "KO-5.2", "bad-length")
    rejects(check(st, moved(["q5", "q6"])), "KO-5.2", "unknown-square", "q5")


@covers("KO-5.3")
@documents("KO-13")
def test_straight_and_one_change_of_direction() -> None:
    w = position({"c3": "Tw"}, step="move", character="warrior", mp=4)
    accepts(check(w, moved(["c3", "d4", "e5"])))
    rejects(check(w, moved(["c3", "d4", "d5"])), "KO-5.3", "warrior-turns", "step 2 d4->d5", "NE", "N")
    g = position({"c3": "Tg"}, step="move", character="guardian", mp=6)
    accepts(check(g, moved(["c3", "d4", "e5", "e6", "e7"])))
    rejects(check(g, moved(["c3", "d4", "e5", "e6", "f7"])), "KO-5.3", "second-turn", "step 4 e6->f7", "step 3")
    # KO-13: the one change may go back the way the miniature came (reversal allowed by default)
    accepts(check(g, moved(["c3", "d4", "e5", "d4", "c3", "b2"])))
    c = position({"c3": "Tc"}, step="move", character="colossus", mp=6)
    rejects(check(c, moved(["c3", "c4", "d5", "e5"])), "KO-5.3", "second-turn")


@covers("KO-5.4")
def test_at_most_the_movement_points() -> None:
    st = position({"c3": "Tg"}, step="move", character="guardian", mp=3)
    accepts(check(st, moved(["c3", "c4", "c5", "c6"])))
    rejects(check(st, moved(["c3", "c4", "c5", "c6", "c7"])), "KO-5.4", "too-far", "step 4 c6->c7", "3 movement points")
    rejects(check(st, moved([], start="c3", direction="N", steps=70)), "KO-5.4", "too-far")


@covers("KO-5.5")
@documents("KO-14")
def test_one_level_per_step_except_the_colossus() -> None:
    lv = {"d5": 2, "e6": 4, "c4": 1, "e4": 3, "f3": 1}
    st = position({"c4": "Tw"}, step="move", character="warrior", mp=4, levels=lv)
    accepts(check(st, moved(["c4", "d5"])))
    rejects(check(st, moved(["c4", "d5", "e6"])), "KO-5.5", "climb", "step 2 d5->e6 climbs from level 2 to 4")
    down = position({"e4": "Tg"}, step="move", character="guardian", mp=4, levels=lv)
    rejects(check(down, moved(["e4", "f3"])), "KO-5.5", "drop", "step 1 e4->f3 drops from level 3 to 1")
    col = position({"c4": "Tc"}, step="move", character="colossus", mp=4, levels=lv)
    accepts(check(col, moved(["c4", "d5", "e6"])))
    # KO-14: a diagonal step compares its own two squares only, even between two cliffs
    cliffs = position({"c4": "Tw"}, step="move", character="warrior", mp=1, levels={"c5": 4, "d4": 4})
    accepts(check(cliffs, moved(["c4", "d5"])))


@covers("KO-5.6")
@documents("KO-15")
def test_pass_over_own_and_allies_never_stop_on_them() -> None:
    st = position({"c3": "Tw", "c4": "Tw", "c5": "Iw"}, step="move", character="warrior", mp=4)
    accepts(check(st, moved(["c3", "c4", "c5", "c6"])))
    rejects(check(st, moved(["c3", "c4"])), "KO-5.6", "ends-on-own", "c4", "own Tua'tha")
    rejects(check(st, moved(["c3", "c4", "c5"])), "KO-5.6", "ends-on-own", "allied Ishtari")
    off = replace(st, options=replace(st.options, allies_as_own=False))
    rejects(check(off, moved(["c3", "c4", "c5", "c6"])), "KO-5.6", "ally-blocks", "allied Ishtari")
    accepts(check(off, moved(["c3", "b4"])))


@covers("KO-5.7")
def test_entering_an_enemy_ends_the_move_and_beats_it() -> None:
    st = position({"c3": "Tg", "c5": "Kw", "a1": "Kw"}, step="move", character="guardian", mp=5)
    accepts(check(st, moved(["c3", "c4", "c5"])))
    rejects(check(st, moved(["c3", "c4", "c5", "c6"])), "KO-5.7", "through-enemy", "step 2 c4->c5", "Krell Warrior",
            "c6")
    ruling, derived, new = propose(GAME, st, moved(["c3", "c4", "c5"]))
    assert derived == [E.MiniatureBeaten(warband=K, character="warrior", square="c5", by=T)]
    assert new.warbands[1].beaten == (1, 0, 0)
    assert [(p.square, p.warband) for p in new.pieces] == [("c5", T), ("a1", K)]


@covers("KO-5.8")
@documents("KO-16", "KO-17", "KO-7.3")
def test_defence_needs_points_left() -> None:
    st = position({"c3": "Tg", "c5": "Kg"}, step="move", character="guardian", mp=4, ruleset="chapter-2")
    st = with_warband(st, K, defence=(0, 2, 0))
    accepts(check(st, moved(["c3", "c4", "c5"])))   # 2 steps + Defence 2 = 4
    st3 = replace(st, activation=replace(st.activation, mp=3))
    rejects(check(st3, moved(["c3", "c4", "c5"])), "KO-5.8", "defence", "Defence 2", "1 movement points left")
    # reaching the square without the Defence is not enough (KO-17): no beat without it
    accepts(check(st3, moved(["c3", "c4"])))


# ==================================================================================================
# 6 crystals and the end
# ==================================================================================================

@documents("KO-6.1", "KO-6.2", "KO-6.3", "KO-18", "KO-19", "KO-29")
def test_crystals_placed_captured_and_first_player() -> None:
    s = Script().to_round()
    assert s.state().on_citadel == 1 and s.state().crystals_left == 11  # the set-up crystal is round 1's
    # put the Krell Colossus next to the Citadel, let the round run, capture in Krell's turn
    st = s.state()
    pcs = tuple(replace(p, square="g7") if (p.warband == K and p.character == "colossus") else p for p in st.pieces)
    s._state = replace(st, pieces=pcs)
    for w in (T,):
        s.destiny(1)
        s.end_turn()
    s.destiny(3)
    s.activate("colossus")
    s.roll(1, 1, 1)
    derived = s.move("g7", "f6")
    assert derived == [E.CrystalsCaptured(warband=K, count=1)]
    assert s.state().warbands[1].crystals == 1 and s.state().on_citadel == 0
    for _ in range(2):
        s.end_turn()
        s.destiny(1)
    s.end_turn()
    # round 2: Krell plays first; a new crystal lies on the Citadel
    assert s.derived[:2] == [E.RoundStarted(round=2, first=K, crystals=1), E.TurnStarted(round=2, warband=K)]
    # a 0-step activation of a miniature standing on the Citadel captures (KO-18)
    s.destiny(3)
    s.activate("colossus")
    s.roll(1, 1, 1)
    assert s.move("f6") == [E.CrystalsCaptured(warband=K, count=1)]


def play_out_rounds(s: Script) -> None:
    while s.state().result is None:
        s.destiny(1)
        s.end_turn()


@documents("KO-6.4", "KO-20")
def test_crystal_majority_then_last_crystal() -> None:
    s = Script(options={"rounds": 2}).to_round()
    st = s.state()
    s._state = with_warband(with_warband(st, T, crystals=2), K, crystals=1)
    s._state = replace(s._state, last_capture=1)
    play_out_rounds(s)
    assert s.state().result.winner == "ann+cat" and s.state().result.reason == "crystal-majority"
    assert s.derived[-1] == E.GameEnded(result="win", winner="ann+cat", reason="crystal-majority", alliance=[T, I])
    # a tie goes to the alliance of the last capture; no capture at all is a draw
    s = Script(options={"rounds": 1}).to_round()
    s._state = replace(with_warband(with_warband(s.state(), T, crystals=1), F, crystals=1), last_capture=3)
    play_out_rounds(s)
    assert (s.state().result.winner, s.state().result.reason) == ("ben+dan", "last-crystal")
    s = Script(options={"rounds": 1}).to_round()
    play_out_rounds(s)
    assert (s.state().result.result, s.state().result.reason) == ("draw", "no-crystal")


@documents("KO-6.5", "KO-21")
def test_a_warband_wiped_out_loses_for_its_alliance() -> None:
    st = position({"c3": "Tg", "c4": "Kw", "k11": "Iw", "a11": "Fw"}, step="move", character="guardian", mp=2,
                  options={"wipeout": "warband"})
    ruling, derived, new = propose(GAME, st, moved(["c3", "c4"]))
    assert derived == [E.MiniatureBeaten(warband=K, character="warrior", square="c4", by=T),
                       E.GameEnded(result="win", winner="ann+cat", reason="wipeout", alliance=[T, I])]
    assert GAME.outcome(new).reason == "wipeout"


# ==================================================================================================
# 7 mana
# ==================================================================================================

@covers("KO-7.1", legal=False)
def test_no_mana_to_allocate_after_a_destiny_of_4() -> None:
    """A ManaAllocated when the turn gave nothing (a die of destiny of 4) cites KO-7.1 and says why."""
    st = with_warband(position({}, step="act", ruleset="chapter-2"), T, pending=0, supply=10)
    rejects(check(st, E.ManaAllocated(warband=T)), "KO-7.1", "out-of-step", "no mana waits to be allocated",
            "a roll of 4 gives none")
    # by another warband too: no mana waits for anyone (docs/rules/kolossus.md KO-7.1, not KO-4.1)
    rejects(check(st, E.ManaAllocated(warband=K)), "KO-7.1", "out-of-step", "no mana waits to be allocated")
    # skipping mana that is owed cites the rule that owes it
    owed = with_warband(position({}, step="allocate", ruleset="chapter-2"), T, pending=2, supply=10)
    rejects(check(owed, E.TurnEnded(warband=T)), "KO-7.2", "out-of-step", "mana allocated by", "the turn gave 2 mana")


@covers("KO-7.1", illegal=False)
@documents("KO-9", "KO-8", "KO-24")
def test_mana_from_the_die_of_destiny() -> None:
    s = Script("chapter-2")
    s.skills_all()
    s.place_all()
    s.add(E.QuakeRolled(warband=T, value=1))
    assert s.state().warbands[0].pending == 3  # the Great Quake roll gives mana too (KO-8)
    s.add(E.QuakeShifted(warband=T, region="row-4", direction="W", distance=1))
    assert s.state().step == "allocate"
    s.allocate(defence={"colossus": 2})  # 1 of the 3 goes back to supply (KO-24)
    w = s.state().warbands[0]
    assert (w.defence, w.pending, w.supply) == ((0, 2, 2), 0, 14)
    s.quake_all(moves=[("row-8", "E"), ("column-d", "N"), ("column-h", "S")], rolls=[4, 4, 4])
    for value, gain in ((1, 3), (2, 2), (3, 1), (4, 0)):
        st = s.state()
        ruling, derived, new = propose(GAME, st, E.DestinyRolled(warband=s.turn, value=value))
        assert new.current.pending == gain, (value, gain)
    # the gain comes from the supply: an empty supply gives nothing
    empty = with_warband(s.state(), T, supply=0)
    ruling, derived, new = propose(GAME, empty, E.DestinyRolled(warband=T, value=1))
    assert new.current.pending == 0


@covers("KO-7.2")
@documents("KO-28")
def test_allocating_new_mana() -> None:
    st = with_warband(position({}, step="allocate", ruleset="chapter-2"), T, pending=2, supply=10)
    accepts(check(st, E.ManaAllocated(warband=T, attack={"guardian": 1}, defence={"colossus": 1})), "KO-7.2")
    accepts(check(st, E.ManaAllocated(warband=T)))  # nothing allocated: both back to supply
    rejects(check(st, E.ManaAllocated(warband=T, attack={"guardian": 3})), "KO-7.2", "too-much", "3", "2 were gained")
    rejects(check(st, E.ManaAllocated(warband=T, pool=1)), "KO-7.2", "pool-before-chapter-3", "chapter 2")
    rejects(check(st, E.ManaAllocated(warband=T, attack={"guardian": -1})), "KO-7.2", "negative")
    rejects(check(st, E.ManaAllocated(warband=T, pool=-1)), "KO-7.2", "negative")
    st3 = with_warband(position({}, step="allocate", ruleset="chapter-3"), T, pending=3, supply=10, pool=4)
    accepts(check(st3, E.ManaAllocated(warband=T, pool=1, weapon=2)))
    rejects(check(st3, E.ManaAllocated(warband=T, pool=2)), "KO-7.2", "pool-full", "6", "at most 5")
    rejects(check(st3, E.ManaAllocated(warband=T, weapon=1)), "KO-7.2", "weapon-charge", "exactly 2")
    charged = with_warband(st3, T, charged=True)
    rejects(check(charged, E.ManaAllocated(warband=T, weapon=2)), "KO-7.2", "weapon-charged", "Sword of Storm")
    unarmed = with_warband(st3, T, weapon=None)
    rejects(check(unarmed, E.ManaAllocated(warband=T, weapon=2)), "KO-7.2", "no-weapon")
    rejects(check(position({}, step="allocate"), E.ManaAllocated(warband=T)), "KO-7.2", "chapter", "chapter 2")
    ruling, derived, new = propose(GAME, st3, E.ManaAllocated(warband=T, pool=1, weapon=2))
    w = new.warbands[0]
    assert (w.pool, w.charged, w.pending, w.supply) == (5, True, 0, 10)


# ==================================================================================================
# 8 Titan Weapons and Powers
# ==================================================================================================

def titan(spec: dict[str, str], *, weapon: str, mp: int = 8, turn: str = T, **kw: Any) -> Any:
    st = position(spec, step="move", character="colossus", mp=mp, ruleset="chapter-3", turn=turn, **kw)
    return with_warband(st, turn, weapon=weapon, charged=True)


def after_move(st: Any, path: list[str], **kw: Any) -> Any:
    ruling, derived, new = propose(GAME, st, moved(path, warband=st.current.id, **kw))
    assert ruling.legal, ruling
    return new


@covers("KO-8.1")
@documents("KO-25")
def test_titan_weapons_belong_to_the_colossus() -> None:
    st = titan({"c3": "Tc", "c5": "Kw", "e3": "Tg"}, weapon="sword")
    accepts(check(st, moved(["c3", "c4", "c5", "c6"], weapon="sword")), "KO-5.1")
    rejects(check(st, moved(["c3", "c4", "c5", "c6"], weapon="whip")), "KO-8.1", "not-your-weapon", "Sword of Storm")
    rejects(check(with_warband(st, T, charged=False), moved(["c3", "c4", "c5", "c6"], weapon="sword")), "KO-8.1",
            "not-charged")
    g = replace(st, activation=Activation("guardian", dice=(8,), mp=8))
    rejects(check(g, moved(["e3", "e4"], weapon="sword")), "KO-8.1", "not-colossus", "guardian")
    ch2 = replace(st, options=replace(st.options, chapter=2))
    rejects(check(ch2, moved(["c3", "c4", "c5", "c6"], weapon="sword")), "KO-8.1", "chapter", "chapter 3")
    spear = titan({"c3": "Ic", "c7": "Kw", "k1": "Iw"}, weapon="spear", turn=I)
    rejects(check(spear, E.WeaponUsed(warband=I, weapon="spear", targets=["c7"])), "KO-4.1", "out-of-step")
    done = after_move(spear, ["c3", "c4"])
    accepts(check(done, E.WeaponUsed(warband=I, weapon="spear", targets=["c7"])), "KO-8.1")
    rejects(check(done, E.WeaponUsed(warband=I, weapon="hammer", targets=["c5"])), "KO-8.1", "not-your-weapon")
    # another activation closes the Colossus's
    ruling, derived, later = propose(GAME, replace(done, points=1), E.ActivationDeclared(warband=I, character="warrior"))
    assert ruling.legal, ruling
    later = replace(later, step="act")
    rejects(check(later, E.WeaponUsed(warband=I, weapon="spear", targets=["c7"])), "KO-8.1", "not-after-colossus-move")
    # using a weapon returns its 2 mana to supply
    supply = done.current.supply
    ruling, derived, new = propose(GAME, done, E.WeaponUsed(warband=I, weapon="spear", targets=["c7"]))
    assert new.current.charged is False and new.current.supply == supply + 2
    assert derived == [E.MiniatureBeaten(warband=K, character="warrior", square="c7", by=I)]


@covers("KO-8.2")
@documents("KO-26")
def test_sword_of_storm_moves_on_after_beating() -> None:
    st = titan({"c3": "Tc", "c5": "Kw", "c7": "Fg"}, weapon="sword", mp=6)
    st = with_warband(st, F, defence=(0, 1, 0))
    ruling, derived, new = propose(GAME, st, moved(["c3", "c4", "c5", "c6", "c7", "c8"], weapon="sword"))
    assert ruling.legal, ruling
    assert [d.square for d in derived] == ["c5", "c7"]
    assert new.activation.left == 0  # 5 steps + Defence 1 of the Guardian
    rejects(check(st, moved(["c3", "c4", "c5"], weapon="sword")), "KO-8.2", "sword-unused")
    rejects(check(st, moved(["c3", "c4"], weapon="sword")), "KO-8.2", "sword-unused")
    rejects(check(st, moved(["c3", "c4", "c5", "c6", "c7", "c8", "c9"], weapon="sword")), "KO-5.4", "too-far",
            "1 already paid for Defence")


@covers("KO-8.3")
def test_whip_of_wrath_ignores_defence() -> None:
    st = titan({"c3": "Kc", "c6": "Tg"}, weapon="whip", mp=3, turn=K)
    st = with_warband(st, T, defence=(0, 3, 0))
    rejects(check(st, moved(["c3", "c4", "c5", "c6"], warband=K)), "KO-5.8", "defence", "Defence 3")
    accepts(check(st, moved(["c3", "c4", "c5", "c6"], warband=K, weapon="whip")))
    rejects(check(st, moved(["c3", "c4"], warband=K, weapon="whip")), "KO-8.3", "whip-unused")


@covers("KO-8.4")
def test_spear_of_vengeance() -> None:
    # c9 lies behind the Tua'tha warrior on c8; f6 is in line (the same row) from c6 after the move
    st2 = titan({"c3": "Ic", "c9": "Fg", "c8": "Tw", "f6": "Kw", "e4": "Fw"}, weapon="spear", turn=I)
    st2 = with_warband(st2, F, defence=(0, 2, 0))
    d2 = after_move(st2, ["c3", "c4", "c5", "c6"])
    accepts(check(d2, E.WeaponUsed(warband=I, weapon="spear", targets=["f6"])), "KO-8.1")
    rejects(check(d2, E.WeaponUsed(warband=I, weapon="spear", targets=["c9"])), "KO-8.4", "blocked", "c8", "Tua'tha")
    rejects(check(d2, E.WeaponUsed(warband=I, weapon="spear", targets=["d8"])), "KO-8.4", "not-in-line")
    rejects(check(d2, E.WeaponUsed(warband=I, weapon="spear", targets=["f6", "c9"])), "KO-8.4", "one-target")
    rejects(check(d2, E.WeaponUsed(warband=I, weapon="spear", targets=["c8"])), "KO-8.4", "not-enemy", "allied")
    rejects(check(d2, E.WeaponUsed(warband=I, weapon="spear", targets=["c2"])), "KO-8.4", "no-enemy")
    rejects(check(d2, E.WeaponUsed(warband=I, weapon="spear", targets=[])), "KO-8.4", "no-target")
    # the seed's example: 8 movement points, 3 steps, then a Guardian 3 squares away with Defence 2
    # costs 3 + 2 = 5 movement points
    st3 = titan({"c3": "Ic", "c9": "Fg"}, weapon="spear", turn=I)
    st3 = with_warband(st3, F, defence=(0, 2, 0))
    d3 = after_move(st3, ["c3", "c4", "c5", "c6"])
    accepts(check(d3, E.WeaponUsed(warband=I, weapon="spear", targets=["c9"])))
    d4 = replace(d3, activation=replace(d3.activation, left=4))
    rejects(check(d4, E.WeaponUsed(warband=I, weapon="spear", targets=["c9"])), "KO-8.4", "points", "needs 5", "4 left")


@covers("KO-8.5")
def test_hammer_of_doom() -> None:
    st = titan({"e5": "Fc", "e6": "Tw", "f5": "Ig", "d4": "Kw", "e8": "Tw"}, weapon="hammer", turn=F, mp=4)
    st = with_warband(st, I, defence=(0, 1, 0))
    done = after_move(st, ["e5"])  # no steps: 4 points left
    accepts(check(done, E.WeaponUsed(warband=F, weapon="hammer", targets=["f5", "e6"])), "KO-8.1")  # 1 + (1+1) = 3
    assert GAME.canonical(E.WeaponUsed(warband=F, weapon="hammer", targets=["f5", "e6"])).targets == ["f5", "e6"]
    ruling, derived, new = propose(GAME, done, E.WeaponUsed(warband=F, weapon="hammer", targets=["e6", "f5"]))
    assert {d.square for d in derived} == {"e6", "f5"} and new.activation.left == 1
    rejects(check(done, E.WeaponUsed(warband=F, weapon="hammer", targets=["e8"])), "KO-8.5", "not-adjacent", "e8")
    rejects(check(done, E.WeaponUsed(warband=F, weapon="hammer", targets=["d4"])), "KO-8.5", "not-enemy", "allied")
    rejects(check(done, E.WeaponUsed(warband=F, weapon="hammer", targets=["e6", "e6"])), "KO-8.5", "same-target")
    rejects(check(done, E.WeaponUsed(warband=F, weapon="hammer", targets=["d5"])), "KO-8.5", "no-enemy")
    rejects(check(replace(done, activation=replace(done.activation, left=2)),
                  E.WeaponUsed(warband=F, weapon="hammer", targets=["f5", "e6"])), "KO-8.5", "points", "needs 3")


@covers("KO-8.6")
def test_initiative() -> None:
    s = Script("chapter-3").to_round()
    s._state = with_warband(s.state(), T, pool=2)
    s.destiny(2)
    accepts(s.check(E.InitiativeUsed(warband=T)), "KO-8.6")
    s.add(E.InitiativeUsed(warband=T))
    st = s.state()
    assert (st.destiny, st.points, st.current.pool, st.current.pending) == (3, 3, 1, 1)
    rejects(s.check(E.InitiativeUsed(warband=T)), "KO-8.6", "once")
    st2 = replace(st, initiative=False, destiny=4, points=4)
    rejects(check(st2, E.InitiativeUsed(warband=T)), "KO-8.6", "max-four", "4")
    s.activate("warrior")
    s.roll(1)
    s.move("a9")
    rejects(check(replace(s.state(), initiative=False), E.InitiativeUsed(warband=T)), "KO-8.6", "too-late")
    rejects(check(with_warband(replace(st, initiative=False), T, pool=0), E.InitiativeUsed(warband=T)), "KO-8.6", "pool")
    rejects(check(replace(st, initiative=False, options=replace(st.options, chapter=2)), E.InitiativeUsed(warband=T)),
            "KO-8.6", "chapter")


@covers("KO-8.7")
@documents("KO-6", "KO-27")
def test_earthquake() -> None:
    st = with_warband(position({"a6": "Kw", "b6": "Tw", "k6": "Fw", "c3": "Tc"}, ruleset="chapter-3", board_levels=True), T, pool=3)
    accepts(check(st, E.EarthquakeUsed(warband=T, region="row-6", direction="E")), "KO-8.7")
    ruling, derived, new = propose(GAME, st, E.EarthquakeUsed(warband=T, region="row-6", direction="E"))
    # riders move with the region; the Firbolg warrior on k6 falls off the board and is beaten
    assert [(p.square, p.warband) for p in new.pieces] == [("b6", K), ("c6", T), ("c3", T)]
    assert derived[0] == E.MiniatureBeaten(warband=F, character="warrior", square="k6", by="earthquake")
    assert new.citadel == "g6" and new.current.pool == 0
    rejects(check(with_warband(st, T, pool=2), E.EarthquakeUsed(warband=T, region="row-6", direction="E")), "KO-8.7",
            "pool", "3")
    rejects(check(st, E.EarthquakeUsed(warband=T, region="row-6", direction="N")), "KO-8.7", "wrong-direction")
    rejects(check(st, E.EarthquakeUsed(warband=T, region="row-13", direction="E")), "KO-8.7", "unknown-region")
    edge = replace(st, citadel="k6", levels=tuple(5 if i == BOARD.index["k6"] else (4 if v == 5 else v)
                                                  for i, v in enumerate(st.levels)))
    rejects(check(edge, E.EarthquakeUsed(warband=T, region="row-6", direction="E")), "KO-8.7", "citadel-off-board", "k6")
    accepts(check(edge, E.EarthquakeUsed(warband=T, region="column-k", direction="N")))
    # only between activations: not while a move is pending
    mv = replace(st, step="move", activation=Activation("warrior", dice=(2,), mp=2))
    rejects(check(mv, E.EarthquakeUsed(warband=T, region="row-6", direction="E")), "KO-4.1", "out-of-step")
    rejects(check(replace(st, options=replace(st.options, chapter=2)), E.EarthquakeUsed(warband=T, region="row-6",
                                                                                        direction="E")), "KO-8.7", "chapter")


@covers("KO-8.8")
def test_rebirth() -> None:
    st = with_warband(position({"a9": "Kw", "c3": "Tc"}, ruleset="chapter-3"), T, pool=2, beaten=(1, 1, 0))
    accepts(check(st, E.RebirthUsed(warband=T, character="guardian", square="b10")), "KO-8.8")
    rejects(check(st, E.RebirthUsed(warband=T, character="colossus", square="b10")), "KO-8.8", "pool", "3")
    rejects(check(with_warband(st, T, pool=3), E.RebirthUsed(warband=T, character="colossus", square="b10")), "KO-8.8",
            "none-beaten", "colossus")
    rejects(check(st, E.RebirthUsed(warband=T, character="warrior", square="a9")), "KO-8.8", "occupied", "Krell")
    rejects(check(st, E.RebirthUsed(warband=T, character="warrior", square="c9")), "KO-8.8", "outside-zone", "NW")
    rejects(check(replace(st, options=replace(st.options, chapter=2)),
                  E.RebirthUsed(warband=T, character="warrior", square="b10")), "KO-8.8", "chapter")
    ruling, derived, new = propose(GAME, st, E.RebirthUsed(warband=T, character="guardian", square="b10"))
    assert new.current.beaten == (1, 0, 0) and new.current.pool == 0
    # KO-27: the reborn Guardian rests this turn
    rejects(check(replace(new, points=2), E.ActivationDeclared(warband=T, character="guardian")), "KO-4.4", "none-left",
            "reborn")


# ==================================================================================================
# interpretations cited directly
# ==================================================================================================

@covers("KO-10")
def test_must_spend_all() -> None:
    st = position({"a1": "Tw"}, step="act", points=2)
    accepts(check(st, E.TurnEnded(warband=T)))
    strict = replace(st, options=replace(st.options, must_spend_all=True))
    rejects(check(strict, E.TurnEnded(warband=T)), "KO-10", "points-left", "2 activation points", "warrior")
    done = replace(strict, pieces=(replace(strict.pieces[0], activated=True),))
    accepts(check(done, E.TurnEnded(warband=T)))


@covers("KO-11")
def test_miniature_chosen_after_the_roll() -> None:
    st = position({"a1": "Tw", "b1": "Tw"}, step="act", points=2)
    accepts(check(st, E.ActivationDeclared(warband=T, character="warrior")))
    rejects(check(st, E.ActivationDeclared(warband=T, character="warrior", square="a1")), "KO-11", "square-named", "a1")
    before = replace(st, options=replace(st.options, choose_after_roll=False))
    accepts(check(before, E.ActivationDeclared(warband=T, character="warrior", square="a1")))
    rejects(check(before, E.ActivationDeclared(warband=T, character="warrior")), "KO-11", "square-missing")
    rejects(check(before, E.ActivationDeclared(warband=T, character="guardian", square="a1")), "KO-5.1", "wrong-class")
    ruling, derived, named = propose(GAME, before, E.ActivationDeclared(warband=T, character="warrior", square="a1"))
    named = replace(named, step="move", activation=replace(named.activation, dice=(2,), mp=2))
    rejects(check(named, moved(["b1", "b2"])), "KO-11", "not-the-named-miniature", "a1")
    accepts(check(named, moved(["a1", "a2"])))


@covers("KO-13")
def test_reversal_option() -> None:
    g = position({"c3": "Tg"}, step="move", character="guardian", mp=6)
    path = ["c3", "d4", "e5", "d4", "c3"]
    accepts(check(g, moved(path)))
    no = replace(g, options=replace(g.options, allow_reversal=False))
    rejects(check(no, moved(path)), "KO-13", "reversal", "step 3 e5->d4", "NE", "SW")
    accepts(check(no, moved(["c3", "d4", "e5", "e4"])))


@covers("KO-22")
def test_immortal_colossus_option() -> None:
    st = position({"c3": "Tg", "c5": "Kc"}, step="move", character="guardian", mp=3)
    accepts(check(st, moved(["c3", "c4", "c5"])))
    off = replace(st, options=replace(st.options, colossus_beatable=False))
    rejects(check(off, moved(["c3", "c4", "c5"])), "KO-22", "immortal-colossus", "Krell Colossus")
    sp = titan({"c3": "Ic", "c7": "Kc"}, weapon="spear", turn=I)
    d = after_move(replace(sp, options=replace(sp.options, colossus_beatable=False)), ["c3", "c4"])
    rejects(check(d, E.WeaponUsed(warband=I, weapon="spear", targets=["c7"])), "KO-22", "immortal-colossus")


@covers("KO-24")
def test_skill_cap_option() -> None:
    st = with_warband(position({}, step="allocate", ruleset="chapter-2"), T, pending=3, supply=10, attack=(2, 0, 0))
    accepts(check(st, E.ManaAllocated(warband=T, attack={"warrior": 3})))
    capped = replace(st, options=replace(st.options, skill_cap=4))
    rejects(check(capped, E.ManaAllocated(warband=T, attack={"warrior": 3})), "KO-24", "skill-cap", "5", "4")
    accepts(check(capped, E.ManaAllocated(warband=T, attack={"warrior": 2})))


@covers("KO-27")
def test_rebirth_can_activate_option() -> None:
    st = with_warband(position({"c3": "Tc"}, ruleset="chapter-3", points=3), T, pool=1, beaten=(1, 0, 0))
    ruling, derived, new = propose(GAME, st, E.RebirthUsed(warband=T, character="warrior", square="a9"))
    mv = replace(new, step="move", activation=Activation("warrior", dice=(2,), mp=2))
    rejects(check(mv, moved(["a9", "a8"])), "KO-27", "reborn-rests", "a9")
    ok = replace(mv, options=replace(mv.options, rebirth_can_activate=True))
    accepts(check(ok, moved(["a9", "a8"])))


# ==================================================================================================
# ruleset options: each changes a verdict
# ==================================================================================================

@documents("KO-31")
def test_option_chapter() -> None:
    m = setup("chapter-2")
    first = E.SkillsChosen(warband=T, attack={"warrior": 4})
    assert verify_events([m, first]).verdict == "legal"
    m1 = setup("chapter-1")
    assert verify_events([m1, first]).violations[0].rule == "KO-4.1"
    assert verify_events([setup("chapter-1", {"chapter": 2}), first]).verdict == "legal"


def test_option_board() -> None:
    c, gs, ws = "d11", ["a10", "b10"], ["c10", "d10", "a11", "b11", "c11"]
    placed = E.MiniaturesPlaced(warband=T, colossus=c, guardians=gs, warriors=ws)
    assert verify_events([setup(options={"board": "zikkurat-11-edge"}), placed]).verdict == "legal"
    res = verify_events([setup(), placed])
    assert (res.violations[0].rule, res.violations[0].code) == ("KO-1.4", NS + "outside-zone")


def test_option_quake_regions() -> None:
    s = quake_state(options={"quake_regions": "all"})
    s.add(E.QuakeRolled(warband=T, value=2))
    accepts(s.check(E.QuakeShifted(warband=T, region="row-1", direction="E", distance=2)))
    s2 = quake_state()
    s2.add(E.QuakeRolled(warband=T, value=2))
    rejects(s2.check(E.QuakeShifted(warband=T, region="row-1", direction="E", distance=2)), "KO-3.2", "not-central")
    # KO-6: with "all", miniatures on a moved line ride along, and those pushed off are beaten
    derived = s.add(E.QuakeShifted(warband=T, region="row-1", direction="E", distance=2))
    assert [d.square for d in derived] == ["j1", "k1"] and all(d.by == "quake" for d in derived)


def test_option_quake_distance() -> None:
    for mode, ok in (("exact", False), ("up-to", True)):
        s = quake_state(options={"quake_distance": mode})
        s.add(E.QuakeRolled(warband=T, value=3))
        r = s.check(E.QuakeShifted(warband=T, region="row-5", direction="E", distance=2))
        accepts(r) if ok else rejects(r, "KO-3.4", "distance")
    s = quake_state(options={"quake_distance": "up-to"})
    s.add(E.QuakeRolled(warband=T, value=3))
    rejects(s.check(E.QuakeShifted(warband=T, region="row-5", direction="E", distance=4)), "KO-3.4", "distance", "1 to 3")


def test_option_quake_moves() -> None:
    for mode, moves in (("warband", 4), ("player", 2)):
        s = quake_state(options={"quake_moves": mode}, players=2)
        done = 0
        while s.state().step == "quake-roll":
            s.add(E.QuakeRolled(warband=s.turn, value=1))
            s.add(E.QuakeShifted(warband=s.turn, region=QUAKE_REGIONS[done], direction="E" if done < 2 else "N", distance=1))
            done += 1
        assert done == moves
    # so the same third quake roll is legal in one reading, out of step in the other
    s = quake_state(options={"quake_moves": "player"}, players=2)
    for k in range(2):
        s.add(E.QuakeRolled(warband=s.turn, value=1))
        s.add(E.QuakeShifted(warband=s.turn, region=QUAKE_REGIONS[k], direction="E", distance=1))
    rejects(s.check(E.QuakeRolled(warband=I, value=1)), "KO-4.1", "out-of-step")


QUAKE_REGIONS = ["row-5", "row-7", "column-e", "column-g"]


def test_option_invasion_mana() -> None:
    for on in (True, False):
        s = quake_state(ruleset="chapter-2", options={"invasion_mana": on})
        s.add(E.QuakeRolled(warband=T, value=1))
        s.add(E.QuakeShifted(warband=T, region="row-5", direction="E", distance=1))
        r = s.check(E.ManaAllocated(warband=T, attack={"warrior": 3}))
        accepts(r) if on else rejects(r, "KO-7.1", "out-of-step", "quake rolled by krell", "no mana waits")


def test_option_mana_table() -> None:
    for table, ok in (((3, 2, 1, 0), True), ((3, 2, 0, 0), False)):
        st = position({"a1": "Tw"}, step="destiny", ruleset="chapter-2", options={"mana_table": list(table)})
        ruling, derived, new = propose(GAME, st, E.DestinyRolled(warband=T, value=3))
        new = replace(new, step="allocate")
        r = check(new, E.ManaAllocated(warband=T, attack={"warrior": 1}))
        accepts(r) if ok else rejects(r, "KO-7.2", "too-much", "0 were gained")


def test_option_allies_as_own() -> None:
    st = position({"c3": "Tw", "c4": "Iw"}, step="move", character="warrior", mp=3)
    accepts(check(st, moved(["c3", "c4", "c5"])))
    off = replace(st, options=replace(st.options, allies_as_own=False))
    rejects(check(off, moved(["c3", "c4", "c5"])), "KO-5.6", "ally-blocks")


def test_option_defence_mode() -> None:
    # the Sword: after beating a Defence-2 Guardian, cost mode has 2 points fewer to go on with
    st = titan({"c3": "Tc", "c5": "Kg"}, weapon="sword", mp=5)
    st = with_warband(st, K, defence=(0, 2, 0))
    path = ["c3", "c4", "c5", "c6", "c7"]
    rejects(check(st, moved(path, weapon="sword")), "KO-5.4", "too-far", "step 4 c6->c7")
    thr = replace(st, options=replace(st.options, defence_mode="threshold"))
    accepts(check(thr, moved(path, weapon="sword")))


def test_option_crystal_capture() -> None:
    # the Tua'tha Colossus passes over the Citadel (f6) without stopping there
    st = position({"e6": "Tc"}, step="move", character="colossus", mp=3, board_levels=True, on_citadel=1)
    for mode, captured in (("on-enter", True), ("end-of-move", False)):
        s2 = replace(st, options=replace(st.options, crystal_capture=mode))
        ruling, derived, new = propose(GAME, s2, moved(["e6", "f6", "g6"]))
        assert ruling.legal
        assert (derived == [E.CrystalsCaptured(warband=T, count=1)]) is captured, mode
    # as a verdict: a log that states the capture is legal in one reading, LOG-2 in the other
    def log(mode: str) -> bytes:
        s = Script(options={"crystal_capture": mode}).to_round()
        s.destiny(3)
        s.activate("colossus")
        s.roll(4, 4, 4)
        s.move("b10", "c9", "d8", "e7", "f6", "g5")
        return s.lines() + encode([E.CrystalsCaptured(warband=T, count=1)])
    assert run(parse_log(log("on-enter"))).verdict == "legal"
    res = run(parse_log(log("end-of-move")))
    assert [v.rule for v in res.violations] == ["LOG-2"]


def test_option_crystal_majority() -> None:
    for mode, reason in (("relative", "crystal-majority"), ("absolute", "last-crystal")):
        s = Script(options={"rounds": 12, "crystal_majority": mode}).to_round()
        s._state = replace(with_warband(with_warband(s.state(), T, crystals=5), K, crystals=4), last_capture=1,
                           round=12, crystals_left=0)
        play_out_rounds(s)
        assert s.state().result.reason == reason
        assert s.state().result.winner == ("ann+cat" if mode == "relative" else "ben+dan")


def test_option_wipeout() -> None:
    st = position({"c3": "Tg", "c4": "Kw", "k11": "Iw", "a11": "Fw"}, step="move", character="guardian", mp=2, players=2)
    for mode, ends in (("warband", True), ("player", False), ("never", False)):
        s2 = replace(st, options=replace(st.options, wipeout=mode))
        ruling, derived, new = propose(GAME, s2, moved(["c3", "c4"]))
        assert (GAME.outcome(new) is not None) is ends, mode
    # player mode: ben (krell + firbolg) loses only when both his warbands are gone
    st2 = position({"c3": "Tg", "c4": "Kw", "k11": "Iw"}, step="move", character="guardian", mp=2, players=2,
                   options={"wipeout": "player"})
    ruling, derived, new = propose(GAME, st2, moved(["c3", "c4"]))
    assert GAME.outcome(new).winner == "ann"


def test_option_weapons() -> None:
    assert base_state("chapter-3").warbands[0].weapon == "sword"
    assert base_state("chapter-3", {"weapons": {"tuatha": "whip"}}).warbands[0].weapon == "whip"
    assert base_state("chapter-3", {"weapons": {"krell": "spear"}}).warbands[0].weapon is None
    sword = titan({"c3": "Tc", "c5": "Kw"}, weapon="sword")
    whip = with_warband(sword, T, weapon="whip")
    accepts(check(whip, moved(["c3", "c4", "c5"], weapon="whip")))
    rejects(check(sword, moved(["c3", "c4", "c5"], weapon="whip")), "KO-8.1", "not-your-weapon")


def test_option_rounds() -> None:
    for rounds, ended in ((1, True), (2, False)):
        s = Script(options={"rounds": rounds}).to_round()
        for _ in range(4):
            s.destiny(1)
            s.end_turn()
        assert (s.state().result is not None) is ended


# ==================================================================================================
# flows and properties
# ==================================================================================================

def test_legal_lists_every_reachable_destination() -> None:
    st = position({"e5": "Tg", "e7": "Kw", "d5": "Tw"}, step="move", character="guardian", mp=3, levels={"f6": 3})
    listed = GAME.legal_events(st)
    ends = {e.path[-1] for e in listed}
    # brute force: every square within 3 king steps reachable by some legal path
    reachable = set()
    for sq in BOARD.names:
        for e in listed:
            if e.path[-1] == sq:
                reachable.add(sq)
    assert ends == reachable
    assert "e7" in ends and "e8" not in ends and "f6" not in ends and "d5" not in ends
    assert "e5" in ends  # the move of no steps
    for e in listed:
        assert check(st, e).legal


def test_rejected_move_names_the_step() -> None:
    st = position({"d4": "Tw"}, step="move", character="warrior", mp=4, levels={"d4": 1, "e5": 2, "f6": 2, "g7": 4})
    r = check(st, moved(["d4", "e5", "f6", "g7"]))
    assert r.message.startswith("step 3 f6->g7 climbs from level 2 to 4"), r.message


def test_mana_is_conserved_in_random_matches() -> None:
    from adjudicator.core.kernel.playout import playout

    for seed in (2, 5, 8):
        events, final = playout(GAME, seed, max_events=3000)
        if final.options.chapter < 2:
            continue
        for w in final.warbands:
            total = w.supply + sum(w.attack) + sum(w.defence) + w.pool + w.pending + (2 if w.charged else 0)
            assert total == 20, (seed, w)


def test_stated_derived_events_are_checked() -> None:
    s = Script().to_round()
    lines = s.lines() + encode([E.TurnStarted(round=1, warband=K)])
    res = run(parse_log(lines))
    assert res.violations[0].rule == "LOG-2"


# ==================================================================================================
# rulings cite the rules they should
# ==================================================================================================

def test_never_rejects_ids_are_never_cited_by_a_rejection() -> None:
    """Every string literal that is exactly a rule id in the rules' modules and game.py is one a
    rejection can cite (``bad("KO-5.5", ...)`` or an id handed to a helper that calls ``bad``),
    except the rule ids that legal rulings cite (``@checks(..., rule=...)``)."""
    import ast

    from adjudicator.games.kolossus import game

    cited: set[str] = set()
    for path in sorted(Path(game.__file__).parent.glob("*.py")):
        if path.name == "rulebook.py":  # the rule ids themselves
            continue
        tree = ast.parse(path.read_text())
        skip: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "_rule_of" for t in node.targets):
                skip |= {id(n) for n in ast.walk(node.value)}
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "checks":  # @checks(E.X, rule=...)
                skip |= {id(n) for k in node.keywords if k.arg == "rule" for n in ast.walk(k.value)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip \
                    and re.fullmatch(r"KO-\d+(\.\d+)?", node.value):
                cited.add(node.value)
    assert {"KO-5.5", "KO-1.1", "KO-8.4", "KO-3.5", "KO-22"} <= cited
    assert not (cited & set(NEVER_REJECTS)), cited & set(NEVER_REJECTS)


@documents("KO-40")
def test_an_illegal_move_that_stands_puts_the_miniature_on_its_last_square() -> None:
    """KO-40: a move along an illegal path (too far) that a judge's ruling lets stand puts the
    miniature on the path's last square; one onto an own miniature has no defined effect."""
    root = Path(__file__).resolve().parent.parent / "examples" / "kolossus"
    for name, defined in (("illegal-KO-5.4-too-far.jsonl", True), ("illegal-KO-5.6-ends-on-own.jsonl", False)):
        lines = (root / name).read_bytes().splitlines()
        moved = E.MiniatureMoved.__name__
        assert moved.encode() in lines[-1]
        ruling = b'{"type":"JudgeRuling","event":%d,"decision":"stands"}' % len(lines)
        res = run(parse_log(b"\n".join(lines + [ruling]) + b"\n", name), keep_going=True)
        if defined:
            assert res.verdict == "legal" and [w.rule for w in res.warnings] == ["KO-5.4"]
            path = re.findall(rb'"([a-k]\d+)"', lines[-1])
            assert any(p.square == path[-1].decode() for p in res.state.pieces)
            assert not any(p.square == path[0].decode() for p in res.state.pieces)
        else:
            assert [v.rule for v in res.violations] == ["KO-5.6", "LOG-5"]
            assert "a square holds one miniature" in res.violations[1].message


@documents("KO-40")
def test_apply_is_total_over_events_with_a_defined_effect() -> None:
    """KO-40: every illegal event a judge might let stand (the engine's own candidates that it
    rejects, and the match's next events played too early) either applies or says why it has no
    defined effect (``Undefined``); never an engine exception."""
    from adjudicator.core.kernel.playout import playout
    from adjudicator.core.kernel.rulings import Undefined
    from adjudicator.core.kernel.verify import settle

    applied = undefined = 0
    for seed in (0, 1):
        events, _final = playout(GAME, seed, max_events=200)
        s, _ = settle(GAME, GAME.initial_state(events[0]))
        for k, ev in enumerate(events[1:-3], 1):
            tried = events[k + 1:k + 4] + (GAME.rules.candidates(s) if k % 5 == 0 else [])
            for c in tried:
                if c.kind not in ("D", "R") or GAME.check(s, c).allowed:
                    continue
                try:
                    settle(GAME, GAME.apply(s, c))
                    applied += 1
                except Undefined as why:
                    assert str(why), c
                    undefined += 1
            s, _ = settle(GAME, GAME.apply(s, ev))
    assert applied > 100 and undefined

