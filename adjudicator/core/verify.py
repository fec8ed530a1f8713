"""Verification: a pure fold of check and apply over a decoded log.

Between two log events the position is always *settled*: every consequence the rules force
(``derive``) has been applied.  A log may state those derived (kind ``X``) events or leave them
out; when it states one it must equal the engine's own derivation (LOG-2).  Player decisions and
random outcomes are checked (``check``) in the position where they happened and applied only when
legal.  Nothing here reads a clock or a random source.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .events import Event, bare
from .log import MatchLog
from .protocol import Game, Outcome
from .rulings import Ruling

#: the rule an engine defect is reported under (a crash of the engine, not a verdict on the log)
ENGINE_FAILURE = "LOG-4"

#: an engine that derives more than this many events in a row without a decision is looping
MAX_DERIVED_RUN = 100_000


@dataclass(frozen=True)
class Violation:
    seq: int
    line: int
    rule: str
    code: str
    message: str
    #: later events rejected only because this violation left the position waiting (``--keep-going``)
    followers: int = 0
    #: what the position still waited for while they came (set when ``followers``)
    waiting_for: str | None = None
    #: an undetermined event: the condition on unknown identities that would make it legal
    condition: str | None = None

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seq": self.seq, "line": self.line, "rule": self.rule, "code": self.code,
                             "message": self.message}
        if self.followers:
            d["followers"] = self.followers
            d["waiting_for"] = self.waiting_for
        if self.condition is not None:
            d["condition"] = self.condition
        return d


def _is_follow_on(ruling: Ruling) -> bool:
    """A rejection that can follow from a stuck position (an engine failure never is one)."""
    return ruling.rule != ENGINE_FAILURE


@dataclass
class Step:
    """One log event as the verifier saw it: its ruling and the consequences it forced."""

    seq: int
    line: int
    event: Event
    ruling: Ruling
    applied: bool
    derived: list[Event] = field(default_factory=list)
    #: the settled position after this step (after its derived events); None if unknown
    state: Any = None


@dataclass
class Result:
    game: Game
    state: Any
    events: int
    violations: list[Violation] = field(default_factory=list)
    unchecked: list[Violation] = field(default_factory=list)
    steps: list[Step] | None = None
    #: events legal only under a condition on identities the log leaves unknown (followed as if
    #: the condition held), each with that condition
    undetermined: list[Violation] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """``illegal`` (a rule broken), ``undetermined`` (no rule broken, but some event is legal
        only under a condition the log cannot decide) or ``legal``."""
        if self.violations:
            return "illegal"
        return "undetermined" if self.undetermined else "legal"

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)


class EngineLoop(Exception):
    pass


def settle(game: Game, state: Any) -> tuple[Any, list[Event]]:
    """Apply every consequence the rules force; return the settled state and those events."""
    derived: list[Event] = []
    d = game.derive(state)
    while d is not None:
        state = game.apply(state, d)
        derived.append(d)
        if len(derived) > MAX_DERIVED_RUN:
            raise EngineLoop(f"{game.id}: more than {MAX_DERIVED_RUN} derived events in a row")
        d = game.derive(state)
    return state, derived


def _engine_failure(game: Game, event: Event, exc: BaseException) -> Ruling:
    return Ruling(
        "illegal",
        "LOG-4",
        "core/engine-error",
        f"the {game.id} engine failed on {type(event).__name__}: {type(exc).__name__}: {exc}",
    )


def start(game: Game, setup: Event) -> tuple[Any, Ruling, list[Event]]:
    ruling = game.check_start(setup)
    state = game.initial_state(setup)
    state, derived = settle(game, state)
    return state, ruling, derived


def _begin(log: MatchLog, keep_going: bool, record_steps: bool,
           on_step: Callable[[Step], None] | None) -> tuple[Result, Any, list[Event], Callable[[Step], None] | None, bool]:
    """Judge the set-up: the result so far, the settled first position, what it derived, where
    steps go, and whether verification goes on."""
    game = log.game
    line0, setup = log.events[0]
    try:
        state, ruling, derived = start(game, setup)
    except Exception as exc:  # an engine defect, never a traceback for the user
        ruling = _engine_failure(game, setup, exc)
        return Result(game, None, 1, [Violation(1, line0, ruling.rule, ruling.code, ruling.message)]), None, [], None, False
    result = Result(game, state, 1, steps=[] if record_steps and on_step is None else None)
    steps = on_step if on_step is not None else (None if result.steps is None else result.steps.append)
    if steps is not None:
        steps(Step(1, line0, setup, ruling, True, derived, state))
    if not ruling.allowed:
        result.violations.append(Violation(1, line0, ruling.rule, ruling.code, ruling.message))
    elif ruling.condition is not None:  # a set-up that names unknown cards (a seat's record)
        result.undetermined.append(Violation(1, line0, ruling.rule, ruling.code, ruling.message,
                                             condition=ruling.condition))
    return result, state, derived, steps, ruling.allowed or keep_going


def _stated_consequence(game: Game, state: Any, ev: Event, unconfirmed: deque[Event]) -> Ruling:
    """LOG-2 for a stated derived event that differs from what the engine derived (or owes)."""
    expected = unconfirmed.popleft() if unconfirmed else None
    if expected is None:
        try:
            nxt = game.derive(state)
        except Exception:
            nxt = None
        why = "the engine derives nothing here" if nxt is None else f"the engine derives {game.describe_event(nxt)}"
    else:
        why = f"the engine derived {game.describe_event(expected)} at this point"
    return Ruling("illegal", "LOG-2", "core/derived-mismatch", f"the log states {game.describe_event(ev)} but {why}")


class _Violations:
    """Violations as they are found, follow-ons grouped under the one that left the position
    waiting (docs/log-format.md, "Precedence")."""

    def __init__(self, game: Game, found: list[Violation]) -> None:
        self.game, self.found = game, found
        #: the last violation and the position it left
        self.root: int | None = None
        self.root_state: Any = None

    def add(self, number: int, line: int, ruling: Ruling, state: Any) -> None:
        found = self.found
        if self.root is not None and state is self.root_state and _is_follow_on(ruling):
            v = found[self.root]  # the position still waits where that violation left it
            found[self.root] = replace(v, followers=v.followers + 1,
                                       waiting_for=v.waiting_for or self.game.waiting_for(state))
        else:
            found.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
            self.root, self.root_state = len(found) - 1, state


#: the ruling of a stated derived event that confirms the engine's own
_CONFIRMED = Ruling("legal", "LOG-2", "core/derived", "matches the engine's derivation")


def run(
    log: MatchLog,
    *,
    keep_going: bool = False,
    upto: int | None = None,
    record_steps: bool = False,
    on_step: Callable[[Step], None] | None = None,
) -> Result:  # long: the per-event loop stays in one frame (it is the verifier's hot path)
    """Verify ``log`` (up to event number ``upto``, 1 = MatchStarted).

    ``record_steps`` keeps every :class:`Step` in ``Result.steps``; ``on_step`` is given each step
    as it is made instead (nothing kept: the store writes a long match in bounded memory).
    """
    result, state, derived, steps, go_on = _begin(log, keep_going, record_steps, on_step)
    if not go_on:
        return result
    game = log.game
    unconfirmed: deque[Event] = deque(derived)
    check, apply, outcome = game.check, game.apply, game.outcome
    events = log.events
    n = len(events) if upto is None else min(upto, len(events))
    violations = _Violations(game, result.violations)
    for number in range(2, n + 1):
        line, ev = events[number - 1]
        result.events = number
        if ev.kind == "X" and unconfirmed and bare(unconfirmed[0]) == bare(ev):
            unconfirmed.popleft()  # the log states a consequence the engine already derived and applied
            if steps is not None:
                steps(Step(number, line, ev, _CONFIRMED, False, state=state))
            continue
        if ev.kind == "X" and (unconfirmed or outcome(state) is None):
            # consequences still owed come first: LOG-2 before anything is "after the end" (LOG-3)
            ruling = _stated_consequence(game, state, ev, unconfirmed)
        elif outcome(state) is not None:
            ruling = Ruling("illegal", "LOG-3", "core/after-end",
                            f"{type(ev).__name__} comes after the match ended ({outcome(state).reason})")
        else:
            unconfirmed.clear()
            try:
                ruling = check(state, ev)
            except Exception as exc:
                ruling = _engine_failure(game, ev, exc)
            if ruling.verdict != "illegal":
                try:
                    state_after, derived = settle(game, apply(state, ev))
                except Exception as exc:  # the position stays where it was before the event; stop
                    ruling = _engine_failure(game, ev, exc)
                    violations.found.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
                    if steps is not None:
                        steps(Step(number, line, ev, ruling, False, state=state))
                    break
                state = state_after
                violations.root = None
                unconfirmed.extend(derived)
                if not ruling.engine_checked:
                    result.unchecked.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
                if ruling.condition is not None:
                    result.undetermined.append(Violation(number, line, ruling.rule, ruling.code, ruling.message,
                                                         condition=ruling.condition))
                if steps is not None:
                    steps(Step(number, line, ev, ruling, True, derived, state))
                continue
        violations.add(number, line, ruling, state)
        if steps is not None:
            steps(Step(number, line, ev, ruling, False, state=state))
        if not keep_going:
            break
    result.state = state
    return result


def position_at(log: MatchLog, at: int | None) -> Result:
    """The settled position after event ``at`` (1-based; None = the end), illegal events skipped."""
    return run(log, keep_going=True, upto=at)


def propose(game: Game, state: Any, event: Event) -> tuple[Ruling, list[Event], Any]:
    """Rule on a proposed event in ``state``; when legal, also return what follows from it."""
    if game.outcome(state) is not None:
        return Ruling("illegal", "LOG-3", "core/after-end", f"the match is over ({game.outcome(state).reason})"), [], state
    if event.kind == "X":
        nxt = game.derive(state)
        return (
            Ruling("illegal", "LOG-2", "core/derived-mismatch",
                   f"{type(event).__name__} is derived by the engine, never proposed; the position is settled"
                   if nxt is None else f"the engine derives {game.describe_event(nxt)}"),
            [], state)
    try:
        ruling = game.check(state, event)
    except Exception as exc:
        return _engine_failure(game, event, exc), [], state
    if not ruling.allowed:
        return ruling, [], state
    new = game.apply(state, event)
    new, derived = settle(game, new)
    return ruling, derived, new
