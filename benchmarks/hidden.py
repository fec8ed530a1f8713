"""What a full-information log pays for the hidden-information machinery the core consults
(part of every ``python -m benchmarks`` run, per game; target: less than 5%, issue 22).

The verifier asks a game, besides check, apply and derive, about what a seat's record leaves
unknown: whether a position waits on an unknown identity (``follows_stated``), which conditions
stay open at the end (``open_conditions``), what a verdict assumes (``assumptions``), which event
types hold commitments and which stayed unopened (``committing``/``commitments_in``,
``unopened``).  On a log that hides nothing these answers are all "nothing".  The figure: the
same full-information corpus matches verified as usual and with those hooks answering "nothing"
without being asked (the game object's attributes shadowed for the pass, then restored),
interleaved passes, the ratio of the median times minus one.  Both must verify every match legal.

What a game's own rules do about unknown cards inside ``check`` and ``apply`` is part of the
game (its package), not of these hooks; the seat-record row compares a seat's record with the
full log.
"""

from __future__ import annotations

import gc
import statistics
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from adjudicator.core.protocol import Game

from .corpus import perf

#: corpus matches verified (the first ones)
HIDDEN_MATCHES = 30


def _nothing(_state: Any) -> None:
    return None


def _none_assumed(_state: Any) -> list[str]:
    return []


def _never(_state: Any) -> bool:
    return False


#: the hooks, and what they answer for a log that hides nothing (``None``: the game has none)
HOOKS: dict[str, Any] = {"follows_stated": _never, "open_conditions": _nothing, "assumptions": _none_assumed,
                         "committing": None, "unopened": None}


@contextmanager
def without_hooks(game: Game) -> Iterator[None]:
    """``game`` with the hidden-information hooks answering "nothing" (instance attributes,
    restored on exit)."""
    saved = {name: vars(game)[name] for name in HOOKS if name in vars(game)}
    try:
        for name, value in HOOKS.items():
            setattr(game, name, value)
        yield
    finally:
        for name in HOOKS:
            if name in saved:
                setattr(game, name, saved[name])
            else:
                delattr(game, name)


def measure(game: Game, files: Sequence[Any], verify_pass: Callable[[Sequence[Any]], Any],
            say: Callable[[str], None], pairs: int) -> dict[str, Any]:
    """``pairs`` interleaved pairs of passes over the first :data:`HIDDEN_MATCHES` files."""
    part = list(files[:HIDDEN_MATCHES])
    verify_pass(part)
    with without_hooks(game):
        verify_pass(part)  # warm-up; every match still legal
    with_s: list[float] = []
    without_s: list[float] = []
    for _ in range(pairs):
        gc.collect()
        t0 = perf()
        verify_pass(part)
        with_s.append(perf() - t0)
        gc.collect()
        with without_hooks(game):
            t0 = perf()
            verify_pass(part)
            without_s.append(perf() - t0)
    cost = statistics.median(with_s) / statistics.median(without_s) - 1
    say(f"  [{game.id}] hidden-information hooks on {len(part)} full logs: {cost:+.1%} of the verify time")
    return {"hidden_matches": len(part), "hidden_cost": cost, "hidden_runs_s": with_s, "hidden_off_runs_s": without_s}
