"""The Kolossus fold keeps working data from one position to the next (issue 22): where each
miniature stands (``Queries.square_index``, carried over by TurnEnded and by a move that beats
nothing), the walk of the move just checked and the skills of the event just checked.  A cold
``Rules`` (a fresh instance per call: none of that data) must give the same rulings and the same
positions as the warm one the game uses, event by event, on generated matches of every chapter,
with and without a declared die generator; the index kept must equal one built afresh; and no
position handed out is changed afterwards."""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.core.kernel.notation import kind_words
from adjudicator.core.kernel.playout import playout
from adjudicator.games.kolossus.rules import Rules

from .kolossus_scenarios import GAME


def _settle(rules: Rules, s: object) -> object:
    while (d := rules.derive(s)) is not None:
        s = rules.apply(s, d)
    return s


# seeds: chapter 1 + seed % 3, a declared generator on even seeds (game.sample_setup)
@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_a_cold_fold_gives_the_rulings_and_positions_of_the_warm_one(seed: int) -> None:
    log, final = playout(GAME, seed, max_events=3000)
    warm = GAME.rules
    s_warm = s_cold = GAME.initial_state(log[0])
    s_warm, s_cold = _settle(warm, s_warm), _settle(Rules(), s_cold)
    handed_out: list[tuple[object, bytes]] = []
    moves = kept = 0
    for ev in log[1:]:
        ruling = warm.check(s_warm, ev)
        assert ruling == Rules().check(s_cold, ev), ev
        assert ruling.allowed, ruling
        s_warm = _settle(warm, warm.apply(s_warm, ev))
        s_cold = _settle(Rules(), Rules().apply(s_cold, ev))
        assert s_warm == s_cold, ev
        handed_out.append((s_warm, msgspec.json.encode(s_warm)))
        moves += type(ev).__name__ == "MiniatureMoved"
        c = warm._at
        if c is not None and c[0] is s_warm.pieces:
            kept += 1
            assert c[1] == {p.square: i for i, p in enumerate(s_warm.pieces)}, ev
    assert s_warm == final
    assert moves > 10 and kept > 0, (moves, kept)  # the match moved miniatures, and the index was carried over
    for s, encoded in handed_out:
        assert msgspec.json.encode(s) == encoded


def test_the_board_a_position_names_follows_the_sources_in_effect(tmp_path: object) -> None:
    """``board_of`` finds a position's board again at once (issue 22), but only in the sources it
    was found in: the same position read under a directory holding another file of that board id
    gets that file's board, and the shipped one again outside it."""
    from pathlib import Path

    from adjudicator.core.kernel.sources import Sources, using
    from adjudicator.games.kolossus.basics import board_of
    from adjudicator.games.kolossus.board import DATA

    log, _final = playout(GAME, 1, max_events=40)
    s = GAME.initial_state(log[0])
    shipped = board_of(s)
    assert board_of(s) is shipped
    text = (DATA / "zikkurat-11.toml").read_text(encoding="utf-8")
    other = Path(str(tmp_path)) / "zikkurat-11.toml"
    other.write_text(text.replace('description = "', 'description = "another reading: ', 1), encoding="utf-8")
    from adjudicator.core.kernel.data import read_toml
    from adjudicator.core.kernel.sources import sha256_of

    pins = {("kolossus", "board", "zikkurat-11"): sha256_of(read_toml(other))}  # (the file read, not the shipped one)
    with using(Sources([str(tmp_path)], pins=pins)):
        mine = board_of(s)
        assert mine is not shipped and mine.description.startswith("another reading: ")
        assert board_of(s) is mine
    assert board_of(s) is shipped


def test_a_position_without_four_warbands_rejects_every_proposed_event_first() -> None:
    """KO-1.1 four-seats comes before any other rule for every event type a player proposes (the
    check asks it in ``chapter``/``actor``, the first question of every handler, not in a
    precheck per event): at positions of a chapter-3 match with none, three or five warbands, every
    event of the match and one of each type it lacks is rejected with KO-1.1."""
    from adjudicator.core.kernel.rulings import Ruling
    from adjudicator.games.kolossus import events as E

    log, _final = playout(GAME, 2, max_events=600)  # seed 2: chapter 3
    rules = Rules()
    more = [E.WeaponUsed(warband="tuatha", weapon="spear", targets=["f6"]),
            E.EarthquakeUsed(warband="krell", region="row-6", direction="E"),
            E.RebirthUsed(warband="ishtari", character="warrior", square="a1"),
            E.InitiativeUsed(warband="firbolg"), E.ManaAllocated(warband="zz", pool=1),
            E.MiniatureMoved(warband="tuatha", path=["zz"]), E.QuakeShifted(warband="krell", region="row-2", direction="N",
                                                                           distance=9)]
    proposed = [ev for ev in log[1:] if type(ev) in type(rules)._checks] + more
    assert {type(ev) for ev in proposed} == set(type(rules)._checks)  # every type a player proposes
    s = _settle(rules, GAME.initial_state(log[0]))
    seen = 0
    for k, ev in enumerate(log[1:]):
        if k % 7 == 0:
            for wbs in ((), s.warbands[:3], s.warbands + s.warbands[:1]):
                short, n = msgspec.structs.replace(s, warbands=wbs), len(wbs)
                for p in proposed:
                    r = rules.check(short, p)
                    assert (r.verdict, r.rule, r.code) == ("illegal", "KO-1.1", "kolossus/four-seats"), (k, n, p, r)
                    assert r.message == f"{kind_words(p)}: the set-up seats {n} warbands, so nothing can be played"
                    seen += 1
        s = _settle(rules, rules.apply(s, ev))
    assert seen > 1000 and isinstance(r, Ruling)
