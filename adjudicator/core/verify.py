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
from itertools import islice
from typing import Any, Callable

import msgspec

from .commitments import Unopened, report
from .events import HIDDEN, Event, JudgeRuling, states
from .kit import LazyLegal, direct_apply, direct_check
from .log import MatchLog, judge_rulings
from .protocol import Game, Outcome
from .rulings import Illegal, Ruling, Undefined

#: the rule an engine defect is reported under (a crash of the engine, not a verdict on the log)
ENGINE_FAILURE = "LOG-4"
#: the rule a judge's ruling that cannot be followed is reported under
BAD_RULING = "LOG-5"

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


@dataclass(frozen=True)
class Irregularity:
    """An event a judge's ruling decided (``decision``: ``stands``, ``taken-back`` or, for a
    derived event the log states wrongly, ``corrected``), with the engine's own ruling on it: a
    warning beside the verdict, the log left as it was written."""

    seq: int
    line: int
    rule: str
    code: str
    message: str
    decision: str
    #: the JudgeRuling's event number and line
    ruling_seq: int
    ruling_line: int
    #: events taken back with it (``taken-back``: those between it and the ruling)
    taken_back_with: int = 0

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seq": self.seq, "line": self.line, "rule": self.rule, "code": self.code,
                             "message": self.message, "decision": self.decision,
                             "ruling": {"seq": self.ruling_seq, "line": self.ruling_line}}
        if self.taken_back_with:
            d["taken_back_with"] = self.taken_back_with
        return d


def _is_follow_on(ruling: Ruling) -> bool:
    """A rejection that can follow from a stuck position (an engine failure or a judge's ruling
    that cannot be followed never is one)."""
    return ruling.rule != ENGINE_FAILURE and ruling.rule != BAD_RULING


@dataclass(slots=True)
class Step:
    """One log event as the verifier saw it: its ruling and the consequences it forced (slotted:
    one is made per event whenever steps are kept or handed on, the store's import included)."""

    seq: int
    line: int
    event: Event
    ruling: Ruling
    applied: bool
    derived: list[Event] = field(default_factory=list)
    #: the settled position after this step (after its derived events); None if unknown
    state: Any = None
    #: an event taken back (or taken back with one): the position it left at the table, folded
    #: unchecked (what the seats saw then; None: not taken back, or no defined effect)
    table: Any = None

    @property
    def judged(self) -> str | None:
        """What a judge's ruling made of this event (``Ruling.judged``)."""
        return self.ruling.judged


@dataclass
class Result:
    game: Game
    state: Any
    events: int
    violations: list[Violation] = field(default_factory=list)
    unchecked: list[Violation] = field(default_factory=list)
    steps: list[Step] | None = None
    #: the events judges' rulings let stand or took back, with the engine's ruling on each
    warnings: list[Irregularity] = field(default_factory=list)
    #: the judges' rulings followed: (event number, line, ruling)
    rulings: list[tuple[int, int, JudgeRuling]] = field(default_factory=list)
    #: the outcome a judge's ``result`` ruling imposed
    ruled: Outcome | None = None
    #: events legal only under a condition on identities the log leaves unknown (followed as if
    #: the condition held), each with that condition
    undetermined: list[Violation] = field(default_factory=list)
    #: commitments the log made and never opened (docs/log-format.md, "Commitments"): warnings
    unopened: list[Unopened] = field(default_factory=list)
    #: what the verdict of a seat's record rests on without an undetermined event
    #: (``Game.assumptions``: the construction rules an unknown deck list is taken to meet)
    assumptions: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """``illegal`` (a rule broken), ``undetermined`` (no rule broken, but some event is legal
        only under a condition the log cannot decide) or ``legal``."""
        if self.violations:
            return "illegal"
        return "undetermined" if self.undetermined else "legal"

    @property
    def outcome(self) -> Outcome | None:
        if self.ruled is not None:
            return self.ruled
        return None if self.state is None else self.game.outcome(self.state)

    @property
    def complete(self) -> bool:
        """Did the match reach its end (an outcome: the rules' own, or a judge's result ruling)?
        A log that simply stops is *unfinished*, whatever its verdict."""
        return self.outcome is not None

    def stopped_at(self) -> dict[str, Any] | None:
        """Where an unfinished match stopped: the last event's number, the turn (or round) and
        who was to act (None: the match is complete, or there is no position)."""
        if self.complete or self.state is None:
            return None
        try:
            return {"event": self.events, "turn": self.game.turn_number(self.state),
                    "to_act": list(self.game.to_act(self.state))}
        except Exception:  # noqa: BLE001 - a position an engine cannot describe: say where only
            return {"event": self.events, "turn": None, "to_act": []}


class EngineLoop(Exception):
    pass


def settle(game: Game, state: Any) -> tuple[Any, list[Event]]:
    """Apply every consequence the rules force; return the settled state and those events."""
    d = game.derive(state)
    return (state, []) if d is None else _settle_from(game, state, d)


def _settle_from(game: Game, state: Any, d: Event) -> tuple[Any, list[Event]]:
    """:func:`settle` once the first consequence ``d`` is known (the verify loop asks for it)."""
    derived: list[Event] = []
    apply, derive = game.apply, game.derive
    while d is not None:
        state = apply(state, d)
        derived.append(d)
        if len(derived) > MAX_DERIVED_RUN:
            raise EngineLoop(f"{game.id}: more than {MAX_DERIVED_RUN} derived events in a row")
        d = derive(state)
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
        why = "the engine derives nothing here" if nxt is None else f"the engine derives {game.describe_event(nxt, state)}"
    else:
        why = f"the engine derived {game.describe_event(expected, state)} at this point"
    return Ruling("illegal", "LOG-2", "core/derived-mismatch", f"the log states {game.describe_event(ev, state)} but {why}")


class _Violations:
    """Violations as they are found, follow-ons grouped under the one that left the position
    waiting (docs/log-format.md, "Precedence")."""

    def __init__(self, game: Game, found: list[Violation]) -> None:
        self.game, self.found = game, found
        #: the last violation and the position it left
        self.root: int | None = None
        self.root_state: Any = None

    def add(self, number: int, line: int, ruling: Ruling, state: Any) -> bool:
        """Record a rejection; True when it is a new violation (not one grouped under the last)."""
        found = self.found
        if self.root is not None and state is self.root_state and _is_follow_on(ruling):
            v = found[self.root]  # the position still waits where that violation left it
            found[self.root] = replace(v, followers=v.followers + 1,
                                       waiting_for=v.waiting_for or self.game.waiting_for(state))
            return False
        found.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
        self.root, self.root_state = len(found) - 1, state
        return True


#: how many events a position without a rejected event played on is followed beside the position
#: with it (``play_on``), at most
SKIPPED_WINDOW = 50


class _Skipped:
    """``verify --keep-going`` played a rejected event on (as a judge's "stands" would); the
    position without it is followed beside for a while: when a later event is illegal in the
    position with it but legal without it, the rejected event was only a recording error (the
    table went on without it) and verification goes on from there, the event reported once."""

    __slots__ = ("game", "state", "left")

    def __init__(self, game: Game, state: Any) -> None:
        self.game, self.state, self.left = game, state, SKIPPED_WINDOW

    def follow(self, state: Any, ev: Event, ruling: Ruling) -> tuple[Any, Ruling, _Skipped | None]:
        """The position and ruling to go on with for ``ev`` (ruled ``ruling`` in ``state``), and
        whether the position without the rejected event is still followed."""
        game = self.game
        try:
            without = game.check(self.state, ev)
        except Exception:  # noqa: BLE001 - that position cannot decide: stop following it
            return state, ruling, None
        if not without.allowed:
            return state, ruling, (self if ruling.verdict == "illegal" else None)
        if ruling.verdict == "illegal":  # legal only without the rejected event: go on without it
            return self.state, without, None
        self.left -= 1
        try:
            self.state = settle(game, game.apply(self.state, ev))[0]
        except Exception:  # noqa: BLE001
            return state, ruling, None
        return state, ruling, (self if self.left > 0 else None)


#: what an event that forces nothing derived (shared: never changed, a Step gets a list of its own)
_NOTHING: list[Event] = []

#: the ruling of a stated derived event that confirms the engine's own
_CONFIRMED = Ruling("legal", "LOG-2", "core/derived", "matches the engine's derivation")


def run(
    log: MatchLog,
    *,
    keep_going: bool = False,
    upto: int | None = None,
    record_steps: bool = False,
    on_step: Callable[[Step], None] | None = None,
    play_on: bool = False,
) -> Result:  # long: the per-event loop stays in one frame (it is the verifier's hot path)
    """Verify ``log`` (up to event number ``upto``, 1 = MatchStarted).

    ``record_steps`` keeps every :class:`Step` in ``Result.steps``; ``on_step`` is given each step
    as it is made instead (nothing kept: the store writes a long match in bounded memory).
    ``play_on`` (with ``keep_going``: ``verify --keep-going``): a rejected decision or random
    outcome is applied unchecked where the engine can apply it, as a judge's ``stands`` would, so
    the events after it are checked in the position the players went on from; rejections in the
    position it left are grouped under it.  Without it (positions for the viewers) an illegal event
    is skipped.
    """
    result, state, derived, steps, go_on = _begin(log, keep_going, record_steps, on_step)
    if not go_on:
        return result
    game = log.game
    unconfirmed: deque[Event] = deque(derived)
    check, apply, derive, outcome = game.check, game.apply, game.derive, game.outcome
    events = log.events
    n = len(events) if upto is None else min(upto, len(events))
    violations = _Violations(game, result.violations)
    #: ``play_on``: the position as if the last rejected event played on had not been played
    skipped: _Skipped | None = None
    found = judge_rulings(log, n)
    judge = _Judge(game, found, len(events), game.players(state)) if found else None
    if judge is not None:
        judge.base = (game.initial_state(events[0][1]), derived)
        judge.text = log.text
    mark = judge.first_mark() if judge is not None else 0  # the next event a judge's ruling concerns
    #: commitments (docs/log-format.md, "Commitments"): the event types that can hold one, and
    #: where each was made (commitment -> event number, line)
    committing = getattr(game, "committing", None)
    made: dict[str, tuple[int, int]] = {}
    # the kit's handler tables, when the game's check and apply are the kit's own: the loop calls
    # the handler of an event's type itself (kit.direct_check, kit.direct_apply), one call less
    direct = direct_check(check)
    rules, table, accepted, pre = direct if direct is not None else (None, None, None, None)
    applies = direct_apply(apply)
    apply_rules, apply_table = applies if applies is not None else (None, None)
    number = 1
    for number, (line, ev) in enumerate(islice(events, 1, n), start=2):  # (a streamed log: read as reached)
        if number == mark:  # a judge's ruling, or an event one names: follow the ruling
            judged, ruling, state = _judged(judge, number, line, ev, state, unconfirmed, result)
            mark = judge.next_mark(number)
            if judged is not None:
                violations.root = None
                if steps is not None:
                    steps(judged)
                continue
            if ruling is not None:  # a ruling that cannot be followed, or an event after its result
                violations.add(number, line, ruling, state)
                if steps is not None:
                    steps(Step(number, line, ev, ruling, False, state=state))
                if not keep_going:
                    break
                continue
        kind = ev.kind
        if kind == "X" and unconfirmed and states(unconfirmed[0], ev):
            unconfirmed.popleft()  # the log states a consequence the engine already derived and applied
            if steps is not None:
                steps(Step(number, line, ev, _CONFIRMED, False, state=state))
            continue
        if kind == "X" and (unconfirmed or (outcome(state) is None and not game.follows_stated(state))):
            # (a position that waits on an unknown identity checks a stated consequence instead)
            # consequences still owed come first: LOG-2 before anything is "after the end" (LOG-3)
            ruling = _stated_consequence(game, state, ev, unconfirmed)
        elif outcome(state) is not None:
            ruling = Ruling("illegal", "LOG-3", "core/after-end",
                            f"{type(ev).__name__} comes after the match ended ({outcome(state).reason})")
        else:
            if unconfirmed:
                unconfirmed.clear()
            ruling = None
            if table is not None:  # the kit's dispatch, inline; anything unusual: its wrapper
                fn = table.get(ev.__class__)
                if fn is not None:
                    try:
                        if pre is not None:
                            pre(rules, state, ev)
                        ruling = fn(rules, state, ev) or accepted[ev.__class__]
                        if steps is not None and ruling.__class__ is LazyLegal:
                            ruling = ruling.ruling()  # a step shows its message (else: never read)
                    except Exception:  # noqa: BLE001 - the wrapper (check) says what it is
                        ruling = None
            if ruling is None:
                try:
                    ruling = check(state, ev)
                except Exception as exc:
                    ruling = _engine_failure(game, ev, exc)
        if skipped is not None and kind != "X":  # a rejected event played on: only a recording error?
            state, ruling, skipped = skipped.follow(state, ev, ruling)
            unconfirmed.clear()
        if ruling.verdict != "illegal":
            try:
                applied = apply(state, ev) if apply_table is None else apply_table[ev.__class__](apply_rules, state, ev)
                d = derive(applied)  # settle, its first step inline (most events force nothing)
                state_after, derived = (applied, _NOTHING) if d is None else _settle_from(game, applied, d)
            except Exception as exc:  # the position stays where it was before the event; stop
                ruling = _engine_failure(game, ev, exc)
                violations.found.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
                if steps is not None:
                    steps(Step(number, line, ev, ruling, False, state=state))
                break
            state = state_after
            violations.root = None
            if derived:
                unconfirmed.extend(derived)
            if judge is not None:  # where a derived event the log states may be put in place
                judge.base = (applied, derived)
            if committing is not None and ev.__class__ in committing:
                for c in game.commitments_in(ev):  # type: ignore[attr-defined]
                    made.setdefault(c, (number, line))
            if not ruling.engine_checked:
                result.unchecked.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
            if ruling.condition is not None:
                result.undetermined.append(Violation(number, line, ruling.rule, ruling.code, ruling.message,
                                                     condition=ruling.condition))
            if steps is not None:
                steps(Step(number, line, ev, ruling, True, derived or [], state))
            continue
        if ruling.settles is not None:
            ruling = _settled_against(result, ruling)
        new = violations.add(number, line, ruling, state)
        if new and play_on and keep_going and (ev.kind == "D" or ev.kind == "R") and _is_follow_on(ruling) \
                and outcome(state) is None:
            try:  # as a judge's "stands" would (apply is total over events with a defined effect)
                applied = apply(state, ev)
                state_after, derived = settle(game, applied)
            except Exception:  # noqa: BLE001 - no defined effect: the position waits where it was
                pass
            else:
                skipped = _Skipped(game, state)
                state = violations.root_state = state_after  # rejections there are its consequences
                unconfirmed.clear()
                unconfirmed.extend(derived)
                if judge is not None:
                    judge.base = (applied, derived)
                if steps is not None:
                    steps(Step(number, line, ev, ruling, True, derived, state))
                continue
        if steps is not None:
            steps(Step(number, line, ev, ruling, False, state=state))
        if not keep_going:
            if judge is not None:  # the verifier stops here: say now why a ruling on it cannot be followed
                judge.unfollowed(number, result)
            break
    result.events = number
    result.state = state
    if state is not None:
        _close_conditions(game, state, result)
    pending = getattr(game, "unopened", None)  # commitments never opened (a game that makes them says)
    if pending is not None and state is not None:
        never = pending(state)
        if never:
            result.unopened = report(made, never)
    return result


def _settled_against(result: Result, ruling: Ruling) -> Ruling:
    """An illegal ruling that contradicts the condition of an earlier undetermined event: that
    event's line named in the message, and the condition no longer listed as open."""
    for i, v in enumerate(result.undetermined):
        if v.condition == ruling.settles:
            del result.undetermined[i]
            return msgspec.structs.replace(ruling, message=f"{ruling.message}; it contradicts event {v.seq} (line {v.line}), "
                                           f"which was legal only if {v.condition}")
    return ruling


def _close_conditions(game: Game, state: Any, result: Result) -> None:
    """Keep only the conditions the final position leaves open; state the assumptions."""
    if result.undetermined:
        still = game.open_conditions(state)
        if still is not None:
            result.undetermined = [v for v in result.undetermined if v.condition in still]
    result.assumptions = game.assumptions(state)


# -- judges' rulings (docs/log-format.md, "Judges' rulings", LOG-5) ---------------------------------

@dataclass
class _Ruled:
    """One JudgeRuling of the log, as the verifier follows it."""

    seq: int
    line: int
    ruling: JudgeRuling
    #: why the ruling cannot be followed (a LOG-5 violation at the ruling), or None
    bad: str | None = None
    #: taken back with an event another ruling took back: not followed, not judged
    void: bool = False
    #: the warning left on the event it let stand or took back
    warning: Irregularity | None = None


def _ruling_error(r: JudgeRuling, seq: int, total: int, players: list[str]) -> str | None:
    """What is wrong with a ruling on its own (before the events it names are reached)."""
    n = r.event
    if n < 1:
        return f"names event {n}; events are numbered from 1 (MatchStarted)"
    if n == seq:
        return "names itself; a ruling is about an earlier event"
    if n > total:
        return f"names event {n}, but the log has {total} events"
    if n > seq:
        return f"names event {n}, which comes after it; a ruling is about an earlier event"
    if r.decision in MOVES and n == 1:
        return "MatchStarted can neither stand, be taken back nor be corrected"
    for who, name in (("player", r.player), ("winner", r.winner)):
        if name is not None and name not in players:
            return f"{who}: unknown player {name!r} (players: {', '.join(players)})"
    if r.decision == "penalty" and not r.penalty:
        return "a penalty ruling says what the penalty is (`penalty`)"
    if r.decision == "result":
        if r.result is None:
            return "a result ruling gives the `result` (win or draw)"
        if (r.result == "win") != (r.winner is not None):
            return "a win names its `winner`; a draw names none"
    elif r.result is not None or r.winner is not None:
        return f"`result` and `winner` belong to a result ruling, not to {r.decision!r}"
    return None


def _names_hidden(value: Any) -> bool:
    """Whether an event (or a field of one) names a card its record hides (:data:`HIDDEN`)."""
    if isinstance(value, str):
        return value == HIDDEN
    if isinstance(value, (list, tuple)):
        return any(_names_hidden(v) for v in value)
    if isinstance(value, dict):
        return any(_names_hidden(v) for v in value.values())
    if isinstance(value, msgspec.Struct):
        return any(_names_hidden(getattr(value, f)) for f in value.__struct_fields__)
    return False


def _judged_as(ruling: Ruling, judged: str) -> Ruling:
    """``ruling`` marked with what a judge's ruling made of its event (``Ruling.judged``)."""
    return msgspec.structs.replace(ruling, judged=judged)


#: the ruling of an event taken back with an earlier one (not checked: it never counted)
def _void(by: _Ruled) -> Ruling:
    return Ruling("legal", "LOG-5", "core/taken-back",
                  f"taken back with event {by.ruling.event} by the judge's ruling at event {by.seq} "
                  f"(line {by.line}); not checked", judged="void")


#: the decisions that change how the event they name is followed (one per event)
MOVES = ("stands", "taken-back", "corrected")


def _unapplicable(game: Game, number: int, exc: BaseException) -> str:
    """Why an engine cannot apply event ``number`` unchecked, in words (never a Python exception's
    name: an event with no defined effect says what is undefined; a defect says it is one)."""
    if isinstance(exc, Undefined):
        return f"event {number} has no defined effect on the table: {exc}"
    if isinstance(exc, Illegal):
        return f"the {game.id} engine cannot apply event {number} unchecked: {exc.rule} {exc.message}"
    return (f"the {game.id} engine cannot apply event {number} unchecked (its apply has no effect defined "
            "for it in this position: an engine defect, please report it)")


class _Judge:
    """The judges' rulings of one log, read before the verification starts: where the verify
    loop must do something else than check and apply (``mark``: the next such event number)."""

    def __init__(self, game: Game, found: list[tuple[int, int, JudgeRuling]], total: int, players: list[str]) -> None:
        self.game = game
        self.by_seq: dict[int, _Ruled] = {}
        #: event number -> the stands/taken-back ruling on it, and every ruling naming its line
        self.on: dict[int, list[_Ruled]] = {}
        moves: dict[int, _Ruled] = {}  # the followed stands/taken-back rulings by their target
        for seq, line, r in found:
            ruled = self.by_seq[seq] = _Ruled(seq, line, r, _ruling_error(r, seq, total, players))
            if ruled.bad is None:
                ruled.bad = self._overlap(ruled, moves)
            if ruled.bad is None:
                if r.decision in MOVES:
                    moves[r.event] = ruled
                if r.decision in MOVES or r.line is not None:
                    self.on.setdefault(r.event, []).append(ruled)
        #: the events the loop stops at, ascending
        self.marks = sorted(set(self.by_seq) | set(self.on))
        self._next = 0
        #: while events are being taken back: the ruling that takes them back, and the position
        #: those events left at the table (folded unchecked: what the seats saw; None: undefined)
        self.taking_back: _Ruled | None = None
        self.table: Any = None
        #: the judge's ruling that ended the match
        self.ended: _Ruled | None = None
        #: the log is a match's text form: a ruling may name an event's line in its JSON Lines
        self.text = False
        #: the position before the derived events still owed were applied, and those events (a
        #: derived event the log states and a ruling lets stand is put in place of the engine's)
        self.base: tuple[Any, list[Event]] = (None, [])

    def _overlap(self, ruled: _Ruled, moves: dict[int, _Ruled]) -> str | None:
        """A ruling on an event already ruled on or taken back; a taking back that takes back
        earlier rulings with it (they are void)."""
        r = ruled.ruling
        for target, other in moves.items():
            if other.void:
                continue
            if r.decision in MOVES and target == r.event:
                return f"event {r.event} was already ruled on (\"{other.ruling.decision}\") at event {other.seq}"
            if other.ruling.decision == "taken-back" and target <= r.event < other.seq:
                return f"event {r.event} was taken back by the judge's ruling at event {other.seq}"
        if r.decision == "taken-back":
            for other in self.by_seq.values():
                if r.event < other.seq < ruled.seq and other.bad is None:
                    other.void = True
        return None

    def first_mark(self) -> int:
        return self.next_mark(1)

    def next_mark(self, number: int) -> int:
        """The next event number after ``number`` the loop must stop at (0: none)."""
        if self.ended is not None:
            return number + 1
        if self.taking_back is not None:
            return number + 1 if number + 1 < self.taking_back.seq else self.taking_back.seq
        marks = self.marks
        i = self._next
        while i < len(marks) and marks[i] <= number:
            i += 1
        self._next = i
        return marks[i] if i < len(marks) else 0

    # -- the events the loop stops at ---------------------------------------------------------------
    def target(self, number: int, line: int, ev: Event, state: Any, unconfirmed: deque[Event],
               result: Result) -> tuple[Any, Step | None]:
        """Event ``number`` is named by rulings: check the lines they name; follow a ``stands``
        or ``taken-back``.  Returns the position and the step made (None: check it as usual)."""
        move = None
        for ruled in self.on.get(number, ()):
            if ruled.void or ruled.bad is not None:
                continue
            if ruled.ruling.line is not None and ruled.ruling.line != line and not (self.text and ruled.ruling.line == number):
                ruled.bad = f"names event {number} on line {ruled.ruling.line}, but event {number} is on line {line}"
            elif ruled.ruling.decision in MOVES:
                move = ruled
        if move is None:
            return state, None
        game = self.game
        if ev.kind == "X":
            return self._stated(move, number, line, ev, state, unconfirmed, result)
        if ev.kind != "D" and ev.kind != "R":
            move.bad = f"event {number} is {type(ev).__name__} (kind {ev.kind}); only a decision, a random " \
                       "outcome or a derived event can stand or be taken back"
            return state, None
        if move.ruling.decision == "corrected":
            move.bad = f"event {number} is {type(ev).__name__} (kind {ev.kind}), not derived by the engine: only a " \
                       "derived (X) event can be corrected (a decision stands or is taken back)"
            return state, None
        try:
            ruling = game.check(state, ev)
        except Exception:  # an engine failure: the ruling cannot be followed
            move.bad = f"the {game.id} engine failed on event {number} (an engine defect, please report it); " \
                       "the ruling cannot be followed"
            return state, None
        if move.ruling.decision == "taken-back":  # the position stays (consequences still owed too)
            self.taking_back = move
            self.table = self._at_table(state, ev)
            move.warning = Irregularity(number, line, ruling.rule, ruling.code, ruling.message, "taken-back",
                                        move.seq, move.line, move.seq - number - 1)
            result.warnings.append(move.warning)
            return state, Step(number, line, ev, _judged_as(ruling, "taken-back"), False, state=state, table=self.table)
        if ruling.allowed:
            if ruling.verdict == "undetermined" or _names_hidden(ev):
                # a seat's record: what the judge ruled on turns on cards this seat could not see
                # (LOG-5.1); the event stands as it was played, whatever those cards were
                ruling = Ruling("legal", ruling.rule, ruling.code,
                                f"{ruling.message}; the irregularity the judge ruled on turns on cards this "
                                "record does not show (LOG-5.1)")
                return self._stand(move, number, line, ev, state, ruling, state, unconfirmed, result)
            move.bad = f"event {number} is {ruling.verdict} ({ruling.rule}): there is no irregularity to let stand"
            return state, None
        return self._stand(move, number, line, ev, state, ruling, state, unconfirmed, result)

    def _stand(self, move: _Ruled, number: int, line: int, ev: Event, before: Any, ruling: Ruling, state: Any,
               unconfirmed: deque[Event], result: Result, *, replaces: bool = False) -> tuple[Any, Step | None]:
        """Let ``ev`` stand: applied unchecked in ``before`` and settled (apply is total over events
        with a defined effect: one without says why, and the position stays ``state``).
        ``replaces``: a stated derived event put in place of the engine's derivation (not applied
        on the position before it: the step carries the state)."""
        game = self.game
        try:
            applied = game.apply(before, ev)
            after, derived = settle(game, applied)
        except Exception as exc:  # noqa: BLE001 - reported as the reason the ruling cannot be followed
            move.bad = f"{_unapplicable(game, number, exc)}; so it cannot stand, the irregularity stays a violation"
            return state, None
        unconfirmed.clear()
        unconfirmed.extend(derived)
        self.base = (applied, derived)
        move.warning = Irregularity(number, line, ruling.rule, ruling.code, ruling.message, "stands",
                                    move.seq, move.line)
        result.warnings.append(move.warning)
        return after, Step(number, line, ev, _judged_as(ruling, "stands"), not replaces, derived, after)

    def _stated(self, move: _Ruled, number: int, line: int, ev: Event, state: Any, unconfirmed: deque[Event],
                result: Result) -> tuple[Any, Step | None]:
        """A ruling on a derived event the log states: ``stands`` puts the stated event in place of
        the engine's derivation (the position continues from the stated values), ``corrected``
        reads the line as the engine's derivation."""
        game = self.game
        decision = move.ruling.decision
        if decision == "taken-back":
            move.bad = f"event {number} is {type(ev).__name__}, derived by the engine: a ruling lets the stated " \
                       "values stand or has them corrected; it cannot take a consequence back"
            return state, None
        expected = unconfirmed[0] if unconfirmed else None
        if expected is not None and states(expected, ev):
            move.bad = f"event {number} is what the engine derives: there is no irregularity to rule on"
            return state, None
        ruling = _stated_consequence(game, state, ev, deque(unconfirmed))
        if decision == "corrected":
            if expected is None:  # the engine derives nothing: the line is read as nothing
                ruling = msgspec.structs.replace(ruling, message=ruling.message + "; the line is read as no event")
            else:
                unconfirmed.popleft()
            move.warning = Irregularity(number, line, ruling.rule, ruling.code, ruling.message, "corrected",
                                        move.seq, move.line)
            result.warnings.append(move.warning)
            return state, Step(number, line, ev, _judged_as(ruling, "corrected"), False, state=state)
        before = state  # the stated event in place of the engine's next derivation, then what follows
        if expected is not None:
            before, derived = self.base
            for d in derived[:len(derived) - len(unconfirmed)]:
                before = game.apply(before, d)
        return self._stand(move, number, line, ev, before, ruling, state, unconfirmed, result, replaces=True)

    def _at_table(self, table: Any, ev: Event) -> Any:
        """``table`` after ``ev`` as it was played (unchecked; derived events stated are already
        applied by the settling, rulings change nothing); None when it has no defined effect."""
        if table is None or ev.kind == "X" or ev.kind == "J":
            return table
        try:
            return settle(self.game, self.game.apply(table, ev))[0]
        except Exception:  # noqa: BLE001 - what the table saw after it is then unknown
            return None

    def void(self, number: int, line: int, ev: Event, state: Any) -> Step:
        """An event between one taken back and the ruling that takes it back."""
        self.table = self._at_table(self.table, ev)
        return Step(number, line, ev, _void(self.taking_back), False, state=state, table=self.table)

    def kept(self, state: Any) -> Any:
        """The position after a taking back: ``state`` with what the seats saw in the events taken
        back kept (``Game.keep_seen``)."""
        table, self.table = self.table, None
        return state if table is None or state is None else self.game.keep_seen(state, table)

    def ruling(self, number: int, ev: Event, state: Any, unconfirmed: deque[Event], result: Result) -> Ruling:
        """The JudgeRuling at ``number`` is reached: follow it (or say why it cannot be)."""
        return _judged_as(self._follow(number, unconfirmed, result), "ruling")

    def _follow(self, number: int, unconfirmed: deque[Event], result: Result) -> Ruling:
        ruled = self.by_seq[number]
        if self.taking_back is ruled:
            self.taking_back = None
        r = ruled.ruling
        if ruled.bad is not None:
            return Ruling("illegal", "LOG-5", "core/bad-ruling", f"the judge's ruling on event {r.event} "
                          f"({r.decision}) cannot be followed: {ruled.bad}")
        result.rulings.append((number, ruled.line, r))
        why = f" ({r.reason})" if r.reason else ""
        if r.decision == "result":
            unconfirmed.clear()
            self.ended = ruled
            result.ruled = Outcome(r.result or "draw", r.winner, f"judge's ruling on event {r.event}{why}")
            what = f"{r.winner} wins" if r.winner else "a draw"
            return Ruling("legal", "LOG-5", "core/ruling", f"the match ends by the judge's ruling: {what}{why}")
        if r.decision == "penalty":
            who = f" on {r.player}" if r.player else ""
            return Ruling("legal", "LOG-5", "core/ruling", f"penalty{who} for event {r.event}: {r.penalty}{why}")
        w = ruled.warning
        if r.decision == "corrected":
            return Ruling("legal", "LOG-5", "core/ruling",
                          f"event {r.event} is corrected{why}: the engine's derivation replaces the values the log states")
        if r.decision == "stands":
            return Ruling("legal", "LOG-5", "core/ruling",
                          f"event {r.event} stands{why}: the position continued from it")
        more = f" with the {w.taken_back_with} events after it" if w is not None and w.taken_back_with else ""
        return Ruling("legal", "LOG-5", "core/ruling",
                      f"event {r.event} is taken back{more}{why}: the position is the one before it")

    def unfollowed(self, number: int, result: Result) -> None:
        """The verifier stops at event ``number``'s violation (no ``--keep-going``): the rulings
        on it that cannot be followed are reported now, at their own lines (LOG-5), not left
        unread."""
        for ruled in self.on.get(number, ()):
            if ruled.bad is not None and not ruled.void:
                r = ruled.ruling
                result.violations.append(Violation(ruled.seq, ruled.line, BAD_RULING, "core/bad-ruling",
                                                   f"the judge's ruling on event {r.event} ({r.decision}) "
                                                   f"cannot be followed: {ruled.bad}"))

    def after_end(self, ev: Event) -> Ruling:
        r = self.ended
        return Ruling("illegal", "LOG-3", "core/after-end",
                      f"{type(ev).__name__} comes after the match ended (the judge's ruling at event {r.seq}, "
                      f"line {r.line})")


def describe_ruling(r: JudgeRuling) -> str:
    """A judge's ruling in words (verdicts, viewers)."""
    by = f" ({r.judge})" if r.judge else ""
    why = f": {r.reason}" if r.reason else ""
    if r.decision == "result":
        what = f"the match ends: {r.winner} wins" if r.winner else "the match ends in a draw"
    elif r.decision == "penalty":
        what = f"penalty{' on ' + r.player if r.player else ''} for event {r.event}: {r.penalty}"
    else:
        what = f"event {r.event} " + {"stands": "stands", "corrected": "is corrected"}.get(r.decision, "is taken back")
    return f"judge's ruling{by}: {what}{why}"


def ruling_dict(seq: int, line: int, r: JudgeRuling) -> dict[str, Any]:
    """A followed ruling as JSON: where it is (``seq``, ``line``), the event as the log wrote it
    (``ruling``), and in words (``text``)."""
    return {"seq": seq, "line": line, "ruling": msgspec.to_builtins(r), "text": describe_ruling(r)}


def _judged(judge: _Judge, number: int, line: int, ev: Event, state: Any, unconfirmed: deque[Event],
            result: Result) -> tuple[Step | None, Ruling | None, Any]:
    """The verify loop at an event a judge's ruling concerns: the step made (None: none), else
    the violation to report (None: check the event as usual), and the position."""
    tb = judge.taking_back
    if tb is not None and number < tb.seq:
        return judge.void(number, line, ev, state), None, state
    if type(ev) is JudgeRuling and number in judge.by_seq:
        ruling = judge.ruling(number, ev, state, unconfirmed, result)
        if not ruling.legal:
            return None, ruling, state
        if judge.table is not None and judge.by_seq[number].ruling.decision == "taken-back":
            state = judge.kept(state)  # a seat cannot unsee what the events taken back showed it
        # not applied: a ruling is no game event (the store refolds applied events with apply)
        return Step(number, line, ev, ruling, False, state=state), None, state
    if judge.ended is not None:
        return None, judge.after_end(ev), state
    state, step = judge.target(number, line, ev, state, unconfirmed, result)
    return step, None, state


def position_at(log: MatchLog, at: int | None) -> Result:
    """The settled position after event ``at`` (1-based; None = the end), illegal events skipped."""
    return run(log, keep_going=True, upto=at)


def propose(game: Game, state: Any, event: Event) -> tuple[Ruling, list[Event], Any]:
    """Rule on a proposed event in ``state``; when legal, also return what follows from it."""
    if type(event) is JudgeRuling:  # about an event of a log, not about a position alone
        return Ruling("illegal", BAD_RULING, "core/bad-ruling", "a judge's ruling is about an event of a log: "
                      "propose it with the log (check LOG --event ...)", judged="ruling"), [], state
    if game.outcome(state) is not None:
        return Ruling("illegal", "LOG-3", "core/after-end", f"the match is over ({game.outcome(state).reason})"), [], state
    if event.kind == "X":
        nxt = game.derive(state)
        return (
            Ruling("illegal", "LOG-2", "core/derived-mismatch",
                   f"{type(event).__name__} is derived by the engine, never proposed; the position is settled"
                   if nxt is None else f"the engine derives {game.describe_event(nxt, state)}"),
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
