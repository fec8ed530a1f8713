"""The core floor: what verification costs per event when the game's rules cost nothing.

A *null game* stands in for a real game over that game's own corpus: the log is read and parsed by
the real game (its decoder and reference check, as ``adjudicator verify`` reads it), then
:func:`adjudicator.core.kernel.verify.run` folds it with kit rules (:class:`~adjudicator.core.kernel.kit.RulesBase`)
whose handlers do nothing: every event type's check handler accepts (the kit's one legal ruling
of that type, built once), its apply handler returns the position it is given, ``derive``
forces nothing.  What is left is the core's share of a verify pass: reading, the kit's dispatch,
the fold's own loop and its bookkeeping.  The verify time minus the floor is the game's: its
rules (check, apply, derive) and its reference checks beyond the kit's.

:func:`measure` reports the floor in events/s and as a share of the verify time measured in the
same run, passes interleaved with real verify passes (median of each).
"""

from __future__ import annotations

import gc
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from adjudicator.core.kernel.events import CORE_EVENTS
from adjudicator.core.kernel.kit import RulesBase, applies, checks
from adjudicator.core.kernel.log import MatchLog, parse_log
from adjudicator.core.kernel.protocol import Game, Outcome
from adjudicator.core.kernel.rulings import Ruling, legal
from adjudicator.core.kernel.verify import run

from .corpus import CorpusFile, _read, perf, verify_pass

#: the peer's multiple the verify target asks for (benchmarks.runner.VERIFY_TO_CHESS_MIN)
VERIFY_TO_CHESS_MIN = 3

#: the ruling the null game gives the set-up
NULL_RULING = legal("NULL-1", "null/setup", "accepted by the null game")


def null_rules(types: tuple[type, ...]) -> type[RulesBase]:
    """Kit rules over ``types`` whose handlers do nothing."""

    class NullRules(RulesBase):
        namespace = "null/"

        @checks(*types, rule="NULL-1")
        def accept(self, s: Any, e: Any) -> None:
            return None

        @applies(*types)
        def keep(self, s: Any, e: Any) -> Any:
            return s

        def derive(self, s: Any) -> Any:
            return None

        def candidates(self, s: Any) -> list[Any]:
            return []

        def to_act(self, s: Any) -> list[str]:
            return []

    return NullRules


class NullGame(Game[Any]):
    """A game whose rules do nothing, reading the events of ``real`` (its id, event types and
    decoder): the floor of the verify loop per event.  Only for measuring (never registered)."""

    rulebook: Any = None

    def __init__(self, real: Game[Any]) -> None:
        self.rules = null_rules(tuple(real.event_types) + CORE_EVENTS)()
        self.check = self.rules.check  # type: ignore[method-assign]  (bound as KitGame binds them)
        self.apply = self.rules.apply  # type: ignore[method-assign]
        self.real = real
        self.id = real.id  # type: ignore[misc]
        self.name = f"null rules over {real.id}"  # type: ignore[misc]
        self.event_types = real.event_types  # type: ignore[misc]
        self.state_type = object  # type: ignore[misc]
        self.decoder = real.decoder
        self._by_name = {}

    # the log is read by the real game (parse_log); these are never reached by run()
    def validate_refs(self, setup: Any, event: Any) -> None:
        self.real.validate_refs(setup, event)

    def setup_of(self, state: Any) -> Any:
        return state

    def check_start(self, setup: Any) -> Ruling:
        return NULL_RULING

    def initial_state(self, setup: Any) -> Any:
        return setup  # a position: the set-up itself (never None: None means "no position")

    def check(self, state: Any, event: Any) -> Ruling:
        return self.rules.check(state, event)

    def apply(self, state: Any, event: Any) -> Any:
        return self.rules.apply(state, event)

    def derive(self, state: Any) -> Any:
        return None

    def follows_stated(self, state: Any) -> bool:
        return True  # a derived event the log states is checked like any other (never LOG-2 here)

    def legal_events(self, state: Any) -> list[Any]:
        return []

    def to_act(self, state: Any) -> list[str]:
        return []

    def outcome(self, state: Any) -> Outcome | None:
        return None

    def players(self, state: Any) -> list[str]:
        return list(state.players)

    def view(self, state: Any, player: str | None) -> dict[str, Any]:
        return {}

    def load_state(self, data: Any) -> Any:
        raise NotImplementedError("the null game keeps no positions")

    def describe(self, state: Any, player: str | None) -> str:
        return ""


def null_pass(game: Game[Any], files: Sequence[CorpusFile]) -> tuple[int, float]:
    """Read and parse every file with the real game, verify it with the null game: (events, s)."""
    null = NullGame(game)
    events = 0
    t0 = perf()
    for f in files:
        log = parse_log(_read(f.path), f.path)
        res = run(MatchLog(log.path, null, log.events))
        if res.violations or res.events != len(log.events):
            raise AssertionError(f"{f.path}: the null game rejected an event: {res.violations[:1]}")
        events += len(log.events)
    return events, perf() - t0


def measure(game: Game[Any], files: Sequence[CorpusFile], passes: int,
            say: Callable[[str], None] | None = None, chess_moves_per_s: float | None = None) -> dict[str, Any]:
    """The floor against the real verify, passes interleaved (one untimed pass of each first):
    events/s, its share of the verify time, the time per event of the core (the floor) and of
    the game (the rest), and, given python-chess's rate in the same run, the time per event that
    3x python-chess allows (``budget_us_per_event``: what core and game together must fit in)."""
    null_pass(game, files)
    verify_pass(files)
    floor_s: list[float] = []
    verify_s: list[float] = []
    events = 0
    for _ in range(passes):
        gc.collect()
        events, dt = null_pass(game, files)
        floor_s.append(dt)
        gc.collect()
        verify_s.append(verify_pass(files).seconds)
    floor, real = statistics.median(floor_s), statistics.median(verify_s)
    core_us, verify_us = floor / events * 1e6, real / events * 1e6
    out = {"floor_events_per_s": events / floor, "floor_share": floor / real,
           "floor_runs_s": floor_s, "floor_verify_runs_s": verify_s,
           "core_us_per_event": core_us, "game_us_per_event": verify_us - core_us,
           "budget_us_per_event": None if not chess_moves_per_s else 1e6 / (VERIFY_TO_CHESS_MIN * chess_moves_per_s)}
    if say is not None:
        say(f"  [{game.id}] core floor {out['floor_events_per_s']:,.0f} events/s, "
            f"{out['floor_share']:.0%} of the verify time")
    return out


def render(r: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """The benchmark table's rows: the floor, then per event the core's time and the game's (and
    what 3x python-chess allows, when python-chess was measured)."""
    budget = r.get("budget_us_per_event")
    return [("core floor (null rules)", f"{r['floor_events_per_s']:,.0f} events/s, {r['floor_share']:.0%} of the verify time",
             "", ""),
            ("  per event: core + game", f"{r['core_us_per_event']:.2f} + {r['game_us_per_event']:.2f} us"
             + ("" if not budget else f" (3x python-chess allows {budget:.2f} us)"), "", "")]
