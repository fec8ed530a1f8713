"""Colossi: a check's fast path for a choice says legal exactly when the choice's option list has it.

``options.FAST`` answers some choices without building every option (``task_options``); this
compares the two on every Beast and space at each Move Beast step of random playouts.
"""

from __future__ import annotations

import random

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.verify import settle
from adjudicator.games.colossi import events as E
from adjudicator.games.colossi.data import content
from adjudicator.games.colossi.options import FAST, canon, task_options
from adjudicator.games.colossi.state import MoveBeast

GAME = registry.get("colossi")


def test_move_beast_fast_path_agrees_with_the_options() -> None:
    beasts = sorted(content().beasts)
    seen = 0
    for seed in range(6):
        rng = random.Random(seed)
        state, _ = settle(GAME, GAME.initial_state(GAME.sample_setup(seed)))
        for _ in range(1500):
            if GAME.outcome(state) is not None:
                break
            h = state.todo[0] if state.todo else None
            if type(h) is MoveBeast:
                seen += 1
                opts = task_options(state, h)
                for b in beasts:
                    for to in range(len(state.spaces)):
                        e = E.BeastMoved(player=h.player, beast=b, to=to)
                        assert FAST[MoveBeast](state, h, e) == (canon(e) in opts), (seed, b, to)
                        assert GAME.check(state, e).legal == (canon(e) in opts), (seed, b, to)
            options = GAME.legal_events(state)
            if not options:
                break
            state, _ = settle(GAME, GAME.apply(state, rng.choice(options)))
    assert seen >= 5
