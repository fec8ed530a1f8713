"""Verification: a pure fold of check and apply over a decoded log.

Between two log events the position is always *settled*: every consequence the rules force
(``derive``) has been applied.  A log may state those derived (kind ``X``) events or leave them
out; when it states one it must equal the engine's own derivation (LOG-2).  Player decisions and
random outcomes are checked (``check``) in the position where they happened and applied only when
legal.  Nothing here reads a clock or a random source.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any, Callable

import msgspec

from .commitments import report
from .events import HIDDEN, Event, JudgeRuling, states
from .fold import (MAX_DERIVED_RUN, PLAY_ON, SKIP, STOP, EngineLoop, StepRecorder, StepStream,  # noqa: F401
                   Visitor, settle, working_for)
from .kit import LazyLegal
from .notation import kind_words
from .log import MatchLog, judge_rulings
from .protocol import Game, Outcome
from .results import Irregularity, Result, Step, Violation
from .rulings import Illegal, Ruling, Undefined

#: the rule an engine defect is reported under (a crash of the engine, not a verdict on the log)
ENGINE_FAILURE = "LOG-4"
#: the rule a judge's ruling that cannot be followed is reported under
BAD_RULING = "LOG-5"


def _is_follow_on(ruling: Ruling) -> bool:
    """A rejection that can follow from a stuck position (an engine failure or a judge's ruling
    that cannot be followed never is one)."""
    return ruling.rule != ENGINE_FAILURE and ruling.rule != BAD_RULING


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


#: the longest event text a verdict carries (a set-up's or a long chain's words are cut there)
SAID_MAX = 160


def said(game: Game, ev: Event | None, state: Any, number: int) -> str | None:
    """``ev`` (event ``number``) in the game's notation for a verdict, at most :data:`SAID_MAX`
    characters; None for no event or the set-up (event 1: its line is the header).  Never raises: an event the game's words
    cannot name (a card no pool holds: the very fault being reported) falls back to the generic
    form, then to its type."""
    if ev is None or number <= 1:
        return None
    try:
        text = game.describe_event(ev, state)
    except Exception:  # (the event is illegal: its words may name what does not exist)
        try:
            text = game.notation.format_generic(ev)
        except Exception:
            text = type(ev).__name__
    text = " ".join(text.split())
    return text if len(text) <= SAID_MAX else text[:SAID_MAX - 1] + "…"


class _Violations:
    """Violations as they are found, follow-ons grouped under the one that left the position
    waiting (docs/log-format.md, "Precedence")."""

    def __init__(self, game: Game, found: list[Violation]) -> None:
        self.game, self.found = game, found
        #: the last violation and the position it left
        self.root: int | None = None
        self.root_state: Any = None

    def add(self, number: int, line: int, ruling: Ruling, state: Any, ev: Event | None = None) -> bool:
        """Record a rejection (of ``ev``, in the position ``state``); True when it is a new violation
        (not one grouped under the last)."""
        found = self.found
        if self.root is not None and state is self.root_state and _is_follow_on(ruling):
            v = found[self.root]  # the position still waits where that violation left it
            found[self.root] = replace(v, followers=v.followers + 1,
                                       waiting_for=v.waiting_for or self.game.waiting_for(state))
            return False
        found.append(Violation(number, line, ruling.rule, ruling.code, ruling.message,
                               event=said(self.game, ev, state, number)))
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
) -> Result:
    """Verify ``log`` (up to event number ``upto``, 1 = MatchStarted): :func:`verify` with the
    visitor these flags name (:mod:`adjudicator.core.kernel.fold`).

    ``record_steps`` keeps every :class:`Step` in ``Result.steps``; ``on_step`` is given each step
    as it is made instead (nothing kept: the store writes a long match in bounded memory).
    ``play_on`` (with ``keep_going``: ``verify --keep-going``): a rejected decision or random
    outcome is applied unchecked where the engine can apply it, as a judge's ``stands`` would, so
    the events after it are checked in the position the players went on from; rejections in the
    position it left are grouped under it.  Without it (positions for the viewers) an illegal event
    is skipped.
    """
    then = (PLAY_ON if play_on else SKIP) if keep_going else STOP
    if on_step is not None:
        return verify(log, StepStream(on_step, upto=upto, after_rejection=then))
    if record_steps:
        return verify(log, StepRecorder(upto=upto, after_rejection=then))
    return verify(log, Visitor(upto=upto, after_rejection=then))


def verify(log: MatchLog, visitor: Visitor | None = None) -> Result:
    """Fold ``log`` and tell ``visitor`` what it wants to know (the plain :class:`Visitor`: the
    verdict only); returns what the visitor's ``end`` makes of the result."""
    visitor = Visitor() if visitor is None else visitor
    return visitor.end(_Verifier(log, visitor).run())


class _Verifier:
    """One verification: the log, the fold's working position (:func:`working_for`), the
    visitor, and what the loop keeps between events (derived events the log has not yet stated,
    the violations, the judges' rulings, the position without an event played on)."""

    def __init__(self, log: MatchLog, visitor: Visitor) -> None:
        self.log, self.game, self.visitor = log, log.game, visitor
        self.then = visitor.after_rejection()
        self.keep_going = self.then != STOP
        #: where steps go (None: the visitor wants none, and no Step is made)
        self.visit: Callable[[Step], None] | None = None
        #: ``PLAY_ON``: the position as if the last rejected event played on had not been played
        self.skipped: _Skipped | None = None
        #: commitments (docs/log-format.md, "Commitments"): the event types that can hold one,
        #: and where each was made (commitment -> event number, line)
        self.committing = getattr(self.game, "committing", None)
        self.made: dict[str, tuple[int, int]] = {}

    def run(self) -> Result:
        result, state, derived, go_on = self.begin()
        if not go_on:
            return result
        game, events = self.game, self.log.events
        upto = self.visitor.upto
        n = len(events) if upto is None else min(upto, len(events))
        self.result, self.fold = result, working_for(game, state)
        self.unconfirmed: deque[Event] = deque(derived)
        self.violations = _Violations(game, result.violations)
        found = judge_rulings(self.log, n)
        self.judge = _Judge(game, found, len(events), game.players(state)) if found else None
        if self.judge is not None:
            self.judge.base = (game.initial_state(events[0][1]), derived)
            self.judge.text = self.log.text
            self.fold.keep_base = True  # where a derived event the log states may be put in place
        return self.close(self.events(n))

    def begin(self) -> tuple[Result, Any, list[Event], bool]:
        """Judge the set-up: the result so far, the settled first position, what it derived, and
        whether verification goes on."""
        game = self.game
        line0, setup = self.log.events[0]
        try:
            state, ruling, derived = start(game, setup)
        except Exception as exc:  # an engine defect, never a traceback for the user
            ruling = _engine_failure(game, setup, exc)
            return Result(game, None, 1, [Violation(1, line0, ruling.rule, ruling.code, ruling.message)]), None, [], False
        result = Result(game, state, 1)
        self.visitor.begin(result)
        if self.visitor.wants_steps:
            self.visit = self.visitor.visit_step
            self.visit(Step(1, line0, setup, ruling, True, derived, state))
        if not ruling.allowed:
            result.violations.append(Violation(1, line0, ruling.rule, ruling.code, ruling.message))
        elif ruling.condition is not None:  # a set-up that names unknown cards (a seat's record)
            result.undetermined.append(Violation(1, line0, ruling.rule, ruling.code, ruling.message,
                                                 condition=ruling.condition))
        return result, state, derived, ruling.allowed or self.keep_going

    def events(self, n: int) -> int:
        """The per-event loop up to event ``n``: the last event number reached (the hot path; ``mark``:
        the next event a judge's ruling concerns; rulings, rejections and failures in methods)."""
        fold, visit, judge, game, unconfirmed = self.fold, self.visit, self.judge, self.game, self.unconfirmed
        check, advance, violations, committing = fold.check, fold.advance, self.violations, self.committing
        mark, skipped, number = (judge.first_mark() if judge is not None else 0), self.skipped, 1
        for number, (line, ev) in enumerate(islice(self.log.events, 1, n), start=2):  # (a streamed log: read as reached)
            if number == mark:  # a judge's ruling, or an event one names: follow the ruling
                go = self.judged(number, line, ev)
                mark = judge.next_mark(number)  # type: ignore[union-attr]
                if go is not None:  # followed (go on) or the end
                    if go:
                        continue
                    break
            kind = ev.kind
            if kind == "X" and unconfirmed and states(unconfirmed[0], ev):
                unconfirmed.popleft()  # the log states a consequence the engine already derived and applied
                if visit is not None:
                    visit(Step(number, line, ev, _CONFIRMED, False, state=fold.freeze()))
                continue
            if kind == "X" and (unconfirmed or (fold.ended is None and not game.follows_stated(fold.freeze()))):
                # consequences owed come first: LOG-2 before LOG-3 (or one waits on an unknown identity)
                ruling = _stated_consequence(game, fold.freeze(), ev, unconfirmed)
            elif fold.ended is not None:
                ruling = Ruling("illegal", "LOG-3", "core/after-end",
                                f"{kind_words(ev)} comes after the match ended ({fold.ended.reason})")
            else:
                if unconfirmed:
                    unconfirmed.clear()
                try:
                    ruling = check(ev)
                except Exception as exc:
                    ruling = _engine_failure(game, ev, exc)
                if visit is not None and ruling.__class__ is LazyLegal:
                    ruling = ruling.ruling()  # a step shows its message (else: never read)
            if skipped is not None and kind != "X":  # a rejected event played on: only a recording error?
                ruling = self.follow(ev, ruling)
                skipped = self.skipped
            if ruling.verdict != "illegal":
                try:
                    derived = advance(ev)
                except Exception as exc:  # the position stays where it was before the event; stop
                    self.failed(number, line, ev, exc)
                    break
                violations.root = None
                if derived:
                    unconfirmed.extend(derived)
                if judge is not None:  # where a derived event the log states may be put in place
                    judge.base = (fold.base, derived)
                if committing is not None and ev.__class__ in committing:
                    self.committed(number, line, ev)
                if not ruling.engine_checked or ruling.condition is not None:
                    self.noted(number, line, ruling)
                if visit is not None:
                    visit(Step(number, line, ev, ruling, True, derived or [], fold.freeze()))
                continue
            if not self.rejected(number, line, ev, ruling):
                break
            skipped = self.skipped
        return number

    def judged(self, number: int, line: int, ev: Event) -> bool | None:
        """Event ``number`` is a judge's ruling, or one names it: True when followed (go on),
        False to stop here, None to check it as usual."""
        fold, visit = self.fold, self.visit
        state = fold.freeze()
        judged, ruling, after = _judged(self.judge, number, line, ev, state, self.unconfirmed, self.result)  # type: ignore[arg-type]
        if after is not state:
            fold.restore(after)
        if judged is not None:
            self.violations.root = None
            if visit is not None:
                visit(judged)
            return True
        if ruling is not None:  # a ruling that cannot be followed, or an event after its result
            self.violations.add(number, line, ruling, after, ev)
            if visit is not None:
                visit(Step(number, line, ev, ruling, False, state=after))
            return self.keep_going
        return None

    def follow(self, ev: Event, ruling: Ruling) -> Ruling:
        """``PLAY_ON``: the ruling on ``ev`` beside the position without the event played on (a
        later event legal only without it: the table went on without it, and so does the fold)."""
        state = self.fold.freeze()
        after, ruling, self.skipped = self.skipped.follow(state, ev, ruling)  # type: ignore[union-attr]
        if after is not state:
            self.fold.restore(after)
        self.unconfirmed.clear()
        return ruling

    def noted(self, number: int, line: int, ruling: Ruling) -> None:
        """A legal event the engine could not check, or legal only under a condition."""
        result = self.result
        if not ruling.engine_checked:
            result.unchecked.append(Violation(number, line, ruling.rule, ruling.code, ruling.message))
        if ruling.condition is not None:
            result.undetermined.append(Violation(number, line, ruling.rule, ruling.code, ruling.message,
                                                 condition=ruling.condition))

    def committed(self, number: int, line: int, ev: Event) -> None:
        for c in self.game.commitments_in(ev):  # type: ignore[attr-defined]
            self.made.setdefault(c, (number, line))

    def failed(self, number: int, line: int, ev: Event, exc: BaseException) -> None:
        """The engine failed applying a checked event (an engine defect): reported, the end."""
        ruling = _engine_failure(self.game, ev, exc)
        self.violations.found.append(Violation(number, line, ruling.rule, ruling.code, ruling.message,
                                               event=said(self.game, ev, self.fold.freeze(), number)))
        if self.visit is not None:
            self.visit(Step(number, line, ev, ruling, False, state=self.fold.freeze()))

    def rejected(self, number: int, line: int, ev: Event, ruling: Ruling) -> bool:
        """An illegal event: reported (grouped under the violation that left the position
        waiting), then played on, skipped or the end, as the visitor wants; False: stop."""
        if ruling.settles is not None:
            ruling = _settled_against(self.result, ruling)
        state = self.fold.freeze()
        new = self.violations.add(number, line, ruling, state, ev)
        if new and self.then == PLAY_ON and (ev.kind == "D" or ev.kind == "R") and _is_follow_on(ruling) \
                and self.fold.ended is None and self.play_on(number, line, ev, ruling, state):
            return True
        if self.visit is not None:
            self.visit(Step(number, line, ev, ruling, False, state=state))
        if not self.keep_going:
            if self.judge is not None:  # the verifier stops here: say now why a ruling on it cannot be followed
                self.judge.unfollowed(number, self.result)
            return False
        return True

    def play_on(self, number: int, line: int, ev: Event, ruling: Ruling, before: Any) -> bool:
        """Apply the rejected ``ev`` unchecked, as a judge's "stands" would (apply is total over
        events with a defined effect); False when it has none (the position waits where it was)."""
        fold = self.fold
        try:
            derived = fold.advance(ev)
        except Exception:  # noqa: BLE001 - no defined effect: the position waits where it was
            return False
        self.skipped = _Skipped(self.game, before)
        state = self.violations.root_state = fold.freeze()  # rejections there are its consequences
        self.unconfirmed.clear()
        self.unconfirmed.extend(derived)
        if self.judge is not None:
            self.judge.base = (fold.base, derived)
        if self.visit is not None:
            self.visit(Step(number, line, ev, ruling, True, derived or [], state))
        return True

    def close(self, number: int) -> Result:
        """The verdict's closing lists: conditions still open, commitments never opened."""
        game, result = self.game, self.result
        result.events = number
        state = result.state = self.fold.freeze()
        if state is not None:
            _close_conditions(game, state, result)
        pending = getattr(game, "unopened", None)  # commitments never opened (a game that makes them says)
        if pending is not None and state is not None:
            never = pending(state)
            if never:
                result.unopened = report(self.made, never)
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
        #: the events being taken back, in log order (``Game.keep_seen_of``)
        self.annulled: list[Event] = []
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
            move.bad = f"event {number} is {kind_words(ev)} (kind {ev.kind}); only a decision, a random " \
                       "outcome or a derived event can stand or be taken back"
            return state, None
        if move.ruling.decision == "corrected":
            move.bad = f"event {number} is {kind_words(ev)} (kind {ev.kind}), not derived by the engine: only a " \
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
            self.annulled = [ev]
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
            move.bad = f"event {number} is {kind_words(ev)}, derived by the engine: a ruling lets the stated " \
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
        assert self.taking_back is not None  # (only called while an event is being taken back)
        self.annulled.append(ev)
        return Step(number, line, ev, _void(self.taking_back), False, state=state, table=self.table)

    def kept(self, state: Any) -> Any:
        """The position after a taking back: ``state`` with what the seats saw in the events taken
        back kept (``Game.keep_seen_of``: told those events too)."""
        table, self.table = self.table, None
        events, self.annulled = self.annulled, []
        return state if table is None or state is None else self.game.keep_seen_of(state, table, events)

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
        assert r is not None  # (only called once a ruling ended the match)
        return Ruling("illegal", "LOG-3", "core/after-end",
                      f"{kind_words(ev)} comes after the match ended (the judge's ruling at event {r.seq}, "
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
    if (over := game.outcome(state)) is not None:
        return Ruling("illegal", "LOG-3", "core/after-end", f"the match is over ({over.reason})"), [], state
    if event.kind == "X":
        nxt = game.derive(state)
        return (
            Ruling("illegal", "LOG-2", "core/derived-mismatch",
                   f"{kind_words(event)} is derived by the engine, never proposed; the position is settled"
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
