"""What a full-information log pays for the hidden-information machinery the core consults
(part of every ``python -m benchmarks`` run, per game; target: less than 5%, issue 22).

The verifier asks a game, besides check, apply and derive, about what a seat's record leaves
unknown: whether a position waits on an unknown identity (``follows_stated``), which conditions
stay open at the end (``open_conditions``), what a verdict assumes (``assumptions``), which event
types hold commitments and which stayed unopened (``committing``/``commitments_in``,
``unopened``).  On a log that hides nothing these answers are all "nothing".  The figure: the
same full-information corpus matches verified as usual and with those hooks answering "nothing"
without being asked (the game object's attributes shadowed for the pass, then restored), each
match both ways in turn on the CPU clock, the ratio of the median round times minus one.  Both must verify every match legal.

What a game's own rules do about unknown cards inside ``check`` and ``apply`` is part of the
game (its package), not of these hooks; the seat-record row compares a seat's record with the
full log.
"""

from __future__ import annotations

import gc
import statistics
from time import process_time as cpu
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from adjudicator.core.kernel.protocol import Game


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
    """``pairs`` rounds over the first :data:`HIDDEN_MATCHES` files, each match verified with the
    hooks and without them one after the other (the order alternating), on the process's CPU
    clock (``time.process_time``: other processes on the cores count less), the times summed per
    round: drift and noise hit both sides alike."""
    part = list(files[:HIDDEN_MATCHES])
    verify_pass(part)
    with without_hooks(game):
        verify_pass(part)  # warm-up; every match still legal
    with_s: list[float] = []
    without_s: list[float] = []
    for r in range(pairs):
        gc.collect()
        on = off = 0.0
        for i, f in enumerate(part):
            for hooks in ((True, False) if (i + r) % 2 == 0 else (False, True)):
                if hooks:
                    t0 = cpu()
                    verify_pass([f])
                    on += cpu() - t0
                else:
                    with without_hooks(game):
                        t0 = cpu()
                        verify_pass([f])
                        off += cpu() - t0
        with_s.append(on)
        without_s.append(off)
    cost = statistics.median(with_s) / statistics.median(without_s) - 1
    say(f"  [{game.id}] hidden-information hooks on {len(part)} full logs: {cost:+.1%} of the verify time")
    return {"hidden_matches": len(part), "hidden_cost": cost, "hidden_runs_s": with_s, "hidden_off_runs_s": without_s}
