"""LOGOS: a strike the rules do not derive, stated and let stand by a judge (LG-40; issue 32,
item 5).  Where the round's strikes are over (the engine derives the end of the round), a log
states one more, a counter-strike; the judge rules that it stands.  The ruling is followed: the
target keeps the hit points stated, the round still ends, and play goes on from there (before,
the engine failed on it and the verdict said "an engine defect, please report it").

Over generated matches (open and hidden picks), at the first round that ends after a strike.
"""

from __future__ import annotations

import random

import pytest

from adjudicator.core.kernel.verify import settle
from adjudicator.games.logos import events as E
from tests.test_logos_ruling_props import GAME, _continue, _match, _ruling, _verify

SEEDS = (1, 2, 4, 7, 13)


def _round_end(events: list) -> tuple[int, list, int]:
    """The first decision of ``events`` whose consequences end a round after a strike: its
    index, those consequences, and where the end of the round is among them."""
    state, _ = settle(GAME, GAME.initial_state(events[0]))
    for i, e in enumerate(events[1:], 1):
        state, derived = settle(GAME, GAME.apply(state, e))
        kinds = [type(d) for d in derived]
        if E.RoundEnded in kinds and E.StrikeResolved in kinds[:kinds.index(E.RoundEnded)]:
            return i, derived, kinds.index(E.RoundEnded)
    pytest.skip("no round ended after a strike")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_counter_strike_stated_where_the_round_ends_stands(seed: int) -> None:
    events, _ = _match(seed)
    i, derived, k = _round_end(events)
    last = derived[k - 1]
    assert isinstance(last, E.StrikeResolved)
    # the striker of the last strike is struck back, for one hit point
    res0 = _verify(events[:i + 1] + derived[:k])
    struck = res0.state.player(last.striker).hp
    stated = E.StrikeResolved(striker=last.target, target=last.striker, attack=7, defense=6, damage=1,
                              hp=struck - 1, counter=True)
    n = i + k + 2  # the stated strike's event number (events[0] is event 1)
    log = events[:i + 1] + derived[:k] + [stated, _ruling(n, "stands")] + derived[k:]
    res = _verify(log)
    assert res.verdict == "legal", [v.as_dict() for v in res.violations]
    [w] = res.warnings
    assert (w.seq, w.decision, w.rule) == (n, "stands", "LOG-2")
    assert "engine defect" not in w.message
    assert res.state.player(last.striker).hp == struck - 1  # the stated hit points stand
    assert res.state.player(last.target).hp == res0.state.player(last.target).hp
    assert res.state.round == res0.state.round  # the round still ended
    # the players go on from the position the ruling leaves
    more, _ = _continue(res.state, random.Random(seed), 30)
    res2 = _verify(log + more)
    assert res2.verdict == "legal", [v.as_dict() for v in res2.violations]
