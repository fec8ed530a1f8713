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

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seq": self.seq, "line": self.line, "rule": self.rule, "code": self.code,
                             "message": self.message}
        if self.followers:
            d["followers"] = self.followers
            d["waiting_for"] = self.waiting_for
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

    @property
    def verdict(self) -> str:
        return "illegal" if self.violations else "legal"

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


def run(
    log: MatchLog,
    *,
    keep_going: bool = False,
    upto: int | None = None,
    record_steps: bool = False,
    on_step: Callable[[Step], None] | None = None,
) -> Result:
    """Verify ``log`` (up to event number ``upto``, 1 = MatchStarted).

    ``record_steps`` keeps every :class:`Step` in ``Result.steps``; ``on_step`` is given each step
    as it is made instead (nothing kept: the store writes a long match in bounded memory).
    """
    game = log.game
    line0, setup = log.events[0]
    try:
        state, ruling, derived = start(game, setup)
    except Exception as exc:  # an engine defect, never a traceback for the user
        ruling, state, derived = _engine_failure(game, setup, exc), None, []
        res = Result(game, state, 1, [Violation(1, line0, ruling.rule, ruling.code, ruling.message)])
        return res
    result = Result(game, state, 1, steps=[] if record_steps and on_step is None else None)
    steps = on_step if on_step is not None else (None if result.steps is None else result.steps.append)
    if steps is not None:
        steps(Step(1, line0, setup, ruling, True, derived, state))
    if not ruling.legal:
        result.violations.append(Violation(1, line0, ruling.rule, ruling.code, ruling.message))
        if not keep_going:
            return result
    unconfirmed: deque[Event] = deque(derived)
    check, apply, outcome, derive = game.check, game.apply, game.outcome, game.derive
    events = log.events
    n = len(events) if upto is None else min(upto, len(events))
    violations = result.violations
    #: the last violation and the position it left (follow-ons are grouped under it)
    root: int | None = None
    root_state: Any = None
    for number in range(2, n + 1):
        line, ev = events[number - 1]
        result.events = number
        if ev.kind == "X" and unconfirmed and bare(unconfirmed[0]) == bare(ev):
            # the log states a consequence the engine already derived (and applied)
            unconfirmed.popleft()
            if steps is not None:
                steps(Step(number, line, ev, Ruling("legal", "LOG-2", "core/derived", "matches the engine's derivation"), False, state=state))
            continue
        if ev.kind == "X" and (unconfirmed or outcome(state) is None):
            # consequences still owed come first: a match-ending event's stated consequences are
            # compared with the engine's (LOG-2) before anything is "after the end" (LOG-3)
            expected = unconfirmed.popleft() if unconfirmed else None
            if expected is None:
                try:
                    nxt = derive(state)
                except Exception:
                    nxt = None
                why = "the engine derives nothing here" if nxt is None else f"the engine derives {game.describe_event(nxt)}"
            else:
                why = f"the engine derived {game.describe_event(expected)} at this point"
            ruling = Ruling("illegal", "LOG-2", "core/derived-mismatch",
                            f"the log states {game.describe_event(ev)} but {why}")
        elif outcome(state) is not None:
            ruling = Ruling("illegal", "LOG-3", "core/after-end",
                            f"{type(ev).__name__} comes after the match ended ({game.outcome(state).reason})")
        else:
            unconfirmed.clear()
            try:
                ruling = check(state, ev)
            except Exception as exc:
                ruling = _engine_failure(game, ev, exc)
            if ruling.verdict == "legal":
                try:
                    new_state, derived = settle(game, apply(state, ev))
                except Exception as exc:  # the position stays where it was before the event
                    ruling = _engine_failure(game, ev, exc)
                    violations.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
                    if steps is not None:
                        steps(Step(number, line, ev, ruling, False, state=state))
                    break
                state = new_state
                root = None
                if derived:
                    unconfirmed.extend(derived)
                if not ruling.engine_checked:
                    result.unchecked.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
                if steps is not None:
                    steps(Step(number, line, ev, ruling, True, derived, state))
                continue
        if root is not None and state is root_state and _is_follow_on(ruling):
            v = violations[root]  # the position still waits where that violation left it
            violations[root] = replace(v, followers=v.followers + 1, waiting_for=v.waiting_for or game.waiting_for(state))
        else:
            violations.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
            root, root_state = len(violations) - 1, state
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
    if not ruling.legal:
        return ruling, [], state
    new = game.apply(state, event)
    new, derived = settle(game, new)
    return ruling, derived, new
