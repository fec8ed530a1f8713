"""The fold: one verification's working position, and what a caller wants of it (a visitor).

**The working position.**  For the length of one verification the fold owns one position and
runs check, apply and derive on it; a position is *frozen* only where a caller keeps one (a
step handed to a visitor, a judge's base for a take-back, the position at event N).  A game
may give a mutable working position of its own (``game.working(state)``, the :class:`Working`
protocol below: ``apply`` changes it in place, ``freeze`` hands out a position nobody changes
afterwards, ``restore`` returns to a kept one).  Every game on the frozen-state contract
(``apply`` returns a new frozen position) gets :class:`FrozenWorking`, the default adapter: its
working position *is* the last frozen position, ``freeze`` costs nothing and ``restore`` is an
assignment, so nothing changes for such a game.  A take-back restores a kept position (FIDE 7.5:
"the position before the irregularity"), never refolds from the start.

**The visitor** (python-chess's PGN reader streams into a ``BaseVisitor``; a ``GameBuilder``
keeps what it is handed): :func:`adjudicator.core.kernel.verify.verify` folds a log and tells a
:class:`Visitor` what it wants to know, instead of taking flags.  The plain visitor wants the
verdict only (no step is made); :class:`StepRecorder` keeps every step, :class:`StepStream`
hands each one on as it is made (a long match in bounded memory); ``after_rejection`` says what
happens after an illegal event: stop (:data:`STOP`), skip it (:data:`SKIP`, ``--keep-going`` for
the viewers' positions) or play it on as a judge's "stands" would (:data:`PLAY_ON`,
``verify --keep-going``); ``upto`` is the last event folded (a position at event N).

A toy game on the default adapter (its positions are ints, an event adds to it)::

    >>> class Toy:
    ...     def apply(self, state, event): return state + event
    ...     def derive(self, state): return -state if state > 9 else None
    ...     def check(self, state, event): return "legal" if event > 0 else "illegal"
    ...     def outcome(self, state): return "over" if state > 11 else None
    >>> w = working_for(Toy(), 0)
    >>> kept = w.freeze()
    >>> w.advance(4), w.freeze()
    ([], 4)
    >>> w.advance(7), w.freeze()  # 11 forces -11 (derived), settled at 0
    ([-11], 0)
    >>> w.advance(2), w.freeze(), w.ended, kept
    ([], 2, None, 0)
    >>> w.check(-3)  # in the working position, never changing it
    'illegal'
    >>> w.restore(kept); w.freeze() is kept  # a take-back: the kept position, no refold
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from .events import Event
from .kit import direct_apply, direct_check, direct_outcome
from .rulings import Ruling

if TYPE_CHECKING:
    from .protocol import Game
    from .results import Result, Step

#: an engine that derives more than this many events in a row without a decision is looping
MAX_DERIVED_RUN = 100_000

#: what happens after an illegal event (:meth:`Visitor.after_rejection`)
STOP, SKIP, PLAY_ON = "stop", "skip", "play-on"


class EngineLoop(Exception):
    pass


def settle(game: Game, state: Any) -> tuple[Any, list[Event]]:
    """Apply every consequence the rules force; return the settled state and those events."""
    d = game.derive(state)
    return (state, []) if d is None else _settle_from(game, state, d)


def _settle_from(game: Game, state: Any, d: Event | None) -> tuple[Any, list[Event]]:
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


class Working(Protocol):
    """The fold contract a game may implement (``game.working(state) -> Working``): one
    verification's mutable working position.

    ``check`` rules on an event in the working position and never changes it; ``advance``
    applies a checked event and every consequence the rules force, in place, and returns those
    derived events (on an exception the position is the one before the event); ``ended`` is
    ``game.outcome`` of the working position (kept by ``advance`` and ``restore``: the verifier
    reads it before every decision); ``freeze`` returns a frozen position (the game's
    ``state_type``) that nothing done to the working position afterwards changes, the same
    object until the position changes (the verifier groups the rejections a position left
    waiting by it: ``_Violations`` in :mod:`adjudicator.core.kernel.verify`); ``restore``
    makes a position ``freeze`` returned the working position again.  ``base`` (when
    ``keep_base`` is set) is the frozen position right after the last event ``advance``
    applied, before its consequences (a judge's ruling may put a stated consequence there)."""

    keep_base: bool
    base: Any
    ended: Any

    def check(self, event: Event) -> Ruling: ...

    def advance(self, event: Event) -> list[Event]: ...

    def freeze(self) -> Any: ...

    def restore(self, kept: Any) -> None: ...


#: what an event that forces nothing derived (shared: never changed, a Step gets a list of its own)
_NOTHING: list[Event] = []


class FrozenWorking:
    """The default adapter for a game on the frozen-state contract: the working position is the
    last frozen position ``apply`` returned (``freeze`` hands it out as it is; nothing changes
    it).  When the game's check and apply are the kit's own, the handler of an event's type is
    called directly (:func:`~adjudicator.core.kernel.kit.direct_check`, one call less per event).

    ``check``, ``advance``, ``freeze`` and ``restore`` (the :class:`Working`
    protocol) are closures over the position made per verification, not methods: they are the
    verifier's hot path, and a closure reads the position without an attribute lookup.  A
    subclass wraps them after ``super().__init__`` (``tests/test_fold.py`` does)."""

    __slots__ = ("game", "keep_base", "base", "ended", "check", "advance", "freeze", "restore")
    check: Callable[[Event], Ruling]
    advance: Callable[[Event], list[Event]]
    freeze: Callable[[], Any]
    restore: Callable[[Any], None]

    def __init__(self, game: Game, state: Any) -> None:
        self.game, self.keep_base, self.base = game, False, None
        self.ended = game.outcome(state)
        _bind(self, game, state)

    @property
    def state(self) -> Any:
        """The working position (frozen: the position ``freeze`` hands out)."""
        return self.freeze()


def _bind(w: FrozenWorking, game: Game, state: Any) -> None:
    """The closures of :class:`FrozenWorking` over one position (``state``, rebound by
    ``advance`` and ``restore``)."""
    gcheck, derive, outcome = game.check, game.derive, game.outcome
    direct, applies = direct_check(gcheck), direct_apply(game.apply)
    by_result = direct_outcome(outcome)  # a kit game: None while ``result`` is None
    rules, table, accepted, pre = direct if direct is not None else (None, {}, {}, None)
    handler = table.get
    arules, atable = applies if applies is not None else (None, None)
    gapply = game.apply

    def check(event: Event) -> Ruling:  # (a LazyLegal from a kit handler: its message written when read)
        fn = handler(event.__class__)
        if fn is not None:  # the kit's dispatch, inline; anything unusual: its wrapper
            try:
                if pre is not None:
                    pre(rules, state, event)
                return fn(rules, state, event) or accepted[event.__class__]
            except Exception:  # noqa: BLE001 - the wrapper (check) says what it is
                pass
        return gcheck(state, event)

    def advance(event: Event) -> list[Event]:
        nonlocal state
        applied = gapply(state, event) if atable is None else atable[event.__class__](arules, state, event)
        d = derive(applied)  # settle, its first step inline (most events force nothing)
        if w.keep_base:
            w.base = applied
        if d is None:
            w.ended = None if by_result and applied.result is None else outcome(applied)
            state = applied
            return _NOTHING
        settled, derived = _settle_from(game, applied, d)
        w.ended = None if by_result and settled.result is None else outcome(settled)
        state = settled
        return derived

    def restore(kept: Any) -> None:
        nonlocal state
        w.ended = outcome(kept)
        state = kept

    w.check, w.advance, w.restore = check, advance, restore
    w.freeze = lambda: state


def working_for(game: Any, state: Any) -> Working:
    """The working position of one verification starting at the frozen ``state``: the game's
    own (``game.working(state)``) or the default adapter."""
    own = getattr(game, "working", None)
    return own(state) if callable(own) else FrozenWorking(game, state)


class Visitor:
    """What a caller wants of one verification (the plain visitor: the verdict only; no step is
    made).  ``upto``: the last event number folded (None: the whole log); ``after_rejection``:
    what follows an illegal event, :data:`STOP` (the default), :data:`SKIP` or :data:`PLAY_ON`
    (a decision or random outcome applied unchecked, as a judge's "stands" would; else skipped)."""

    #: whether :meth:`visit_step` is called (a :class:`~adjudicator.core.kernel.verify.Step` is made for
    #: every event only then)
    wants_steps: bool = False

    def __init__(self, *, upto: int | None = None, after_rejection: str = STOP) -> None:
        if after_rejection not in (STOP, SKIP, PLAY_ON):
            raise ValueError(f"after_rejection: {after_rejection!r} (stop, skip or play-on)")
        self.upto, self.rejection = upto, after_rejection

    def after_rejection(self) -> str:
        return self.rejection

    def begin(self, result: Result) -> None:
        """The set-up is judged; ``result`` is the verification so far."""

    def visit_step(self, step: Step) -> None:
        """One log event as the verifier saw it (only when :attr:`wants_steps`)."""

    def end(self, result: Result) -> Result:
        """The verification is over; what :func:`~adjudicator.core.kernel.verify.verify` returns."""
        return result


class StepRecorder(Visitor):
    """Keeps every step in ``Result.steps`` (the viewers, ``GameBuilder``'s counterpart)."""

    wants_steps = True

    def begin(self, result: Result) -> None:
        result.steps = []
        self.visit_step = result.steps.append  # type: ignore[assignment]


class StepStream(Visitor):
    """Hands each step to ``on_step`` as it is made, keeping none (the store's import writes a
    long match in bounded memory; a seat's record folds the positions it needs)."""

    wants_steps = True

    def __init__(self, on_step: Callable[[Step], None], **kw: Any) -> None:
        super().__init__(**kw)
        self.visit_step = on_step  # type: ignore[assignment]
