"""The fold's working position of a LOGOS verification (issue 33, the fold contract of
:mod:`adjudicator.core.kernel.fold`): one mutable position per verification, frozen only where a caller
keeps one (python-chess's ``Board``: push in place, copy only when kept).

:data:`Pos` mirrors the fields of :class:`~.state.State` (a msgspec Struct, not frozen); the apply
handlers write it in place (``s.phase = "pick"``), derive and the check handlers read it as they
read a State (derive applies each step of the battle in place as it finds it: a direction, an
effect, a strike, the end of the round, :data:`APPLIED_BY_DERIVE`).  It holds the match's pool
(``pool``, looked up once per verification), which the rules read of it (values.pool_of).  The frozen contract's ``Rules.apply`` runs the same handlers on a
copy of a frozen position and freezes it (``Rules.run``): one implementation of each rule.  Its
fields hold only immutable values (tuples, frozen Players), so :meth:`LogosWorking.freeze` builds
a State that shares them and that nothing done to the working position afterwards changes.  A
full log's event makes no frozen position unless a caller keeps one.

What stays on frozen positions: a seat's record (``unknowns``: the rules of unknowns.py keep
several positions at once, LG-37, LG-38) and a position with what a seat learnt in a take-back
(``seen``, LG-41, observe.py), as the frozen contract's ``Rules.apply`` folds them; the working
position is taken up again when a restored position is neither.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

import msgspec
from msgspec.structs import astuple

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.fold import MAX_DERIVED_RUN, EngineLoop, settle
from adjudicator.core.kernel.kit import TwoSeats, direct_check
from adjudicator.core.kernel.rulings import Ruling

from . import events as E
from .cards import POOLS
from .state import State

_pool_of_setup = POOLS.of_setup

FIELDS: tuple[str, ...] = State.__struct_fields__


class _Seats(msgspec.Struct):
    """The base of :data:`Pos`: a two-player position's seat look-ups (:class:`TwoSeats`'s)."""

    player = TwoSeats.player
    opponent = TwoSeats.opponent
    other = TwoSeats.other
    #: the match's pool: set on the fold's working position (an attribute beside the fields, so
    #: that ``freeze`` copies the fields alone); None on a copy a step of the frozen contract
    #: writes once (looked up where it is read: values.pool_of)
    pool: ClassVar[Any] = None


#: the mutable working position: State's fields in its order (a msgspec Struct, not frozen: read
#: as fast as a State, copied in one call), written in place by the apply handlers; ``pool``, the
#: match's pool, looked up once for the fold's working position (the sources in effect are a
#: context variable; a verification runs in one context), is kept in its ``__dict__``
Pos: Any = msgspec.defstruct("Pos", [(name, Any) for name in FIELDS], bases=(_Seats,), dict=True, module=__name__)


def thaw(s: State, pool: Any = None) -> Pos:
    """A working position equal to the frozen ``s`` (``pool``: the match's pool, when known)."""
    pos = Pos(*astuple(s))
    if pool is not None:
        pos.pool = pool
    return pos


def freeze(pos: Any) -> State:
    """The frozen position of the working position ``pos``."""
    return State(*astuple(pos))


def _copy_into(pos: Pos, s: Any) -> None:
    _set_fields(pos, astuple(s))


def _set_fields(pos: Pos, values: tuple[Any, ...]) -> None:
    """``pos``'s fields set to ``values`` (``astuple`` of a position, in :data:`FIELDS`' order)."""
    for name, v in zip(FIELDS, values):
        setattr(pos, name, v)


#: the derived events ``Rules.derive`` applies to a working position as it finds them (the steps of
#: the battle: what they report is what they did); the fold never applies them again
APPLIED_BY_DERIVE = frozenset({E.EffectResolved, E.StrikeResolved, E.DirectionDetermined, E.RoundEnded})


def _plain(s: Any) -> bool:
    """Whether the in-place rules serve ``s`` (not a seat's record, nothing seen in a take-back)."""
    return not s.unknowns and not s.seen


class LogosWorking:
    """The :class:`~adjudicator.core.kernel.fold.Working` protocol for LOGOS (``Logos.working``)."""

    __slots__ = ("game", "rules", "keep_base", "base", "ended", "pos", "frozen", "handlers", "check")

    def __init__(self, game: Any, state: State) -> None:
        self.game, self.rules = game, game.rules
        self.handlers = type(game.rules)._applies
        self.keep_base, self.base = False, None
        self.restore(state)
        self.check = _checker(self)

    def restore(self, kept: State) -> None:
        """``kept`` (a position ``freeze`` returned, or a judge's) is the working position again."""
        self.frozen = kept
        self.pos = thaw(kept, _pool_of_setup(kept.setup)) if _plain(kept) else None
        self.ended = self.game.outcome(kept)

    def freeze(self) -> State:
        """The frozen position (made once per position: the same object until it changes)."""
        f = self.frozen
        if f is None:
            f = self.frozen = freeze(self.pos)  # type: ignore[union-attr]
        return f

    def advance(self, event: Event) -> list[Event]:
        """Apply the checked ``event`` and every consequence the rules force; the derived events.
        On an exception the position is the one before the event.  The rules' last refill step
        is of the position before each handler: forgotten first, since ``pos`` changes in place."""
        pos = self.pos
        if pos is None:
            return self._advance_frozen(event)
        saved = astuple(pos)  # (its fields: a tuple, cheaper than a copy of the Struct and its __dict__)
        rules = self.rules
        rules._refill = None
        try:
            out = self.handlers[event.__class__](rules, pos, event)
            if out is not pos:  # (a handler that returns a frozen position: none does on these positions)
                _copy_into(pos, out)
            if self.keep_base:
                self.base = freeze(pos)
            if pos.unknowns or pos.seen:  # an unknown card named (LG-40): a seat's record from here on
                return self._to_frozen(pos)
            d = rules.derive(pos)
            derived = _NOTHING if d is None else self._derived(pos, d)
        except BaseException:
            rules._refill = None
            _set_fields(pos, saved)
            raise
        if self.pos is pos:  # (else: a seat's record from here on, frozen and settled already)
            self.frozen = None
            self.ended = None if pos.result is None else self.game.outcome(pos)
        return derived

    def _derived(self, pos: Pos, d: Event) -> list[Event]:
        """``d`` derived on ``pos``, then every consequence after it, each applied to ``pos`` (by
        its handler; a step ``derive`` applied as it found it, :data:`APPLIED_BY_DERIVE`, not again)."""
        rules, handlers, derive = self.rules, self.handlers, self.rules.derive
        derived: list[Event] = []
        n = 0
        while d is not None:
            if d.__class__ not in APPLIED_BY_DERIVE:
                rules._refill = None
                out = handlers[d.__class__](rules, pos, d)
                if out is not pos:
                    _copy_into(pos, out)
            derived.append(d)
            if pos.seen:  # a look showed the opponent's cards (LG-43): what a seat saw, kept as
                return derived + self._to_frozen(pos)  # the frozen contract keeps it (forget, LG-41)
            n += 1
            if n > MAX_DERIVED_RUN:
                raise EngineLoop(f"{self.game.id}: more than {MAX_DERIVED_RUN} derived events in a row")
            d = derive(pos)
        return derived

    def _to_frozen(self, pos: Pos) -> list[Event]:
        """Go on from ``pos`` on frozen positions (the rules of a seat's record keep several)."""
        settled, derived = settle(self.game, freeze(pos))
        self.pos, self.frozen = None, settled
        self.ended = self.game.outcome(settled)
        return derived

    def _advance_frozen(self, event: Event) -> list[Event]:
        game = self.game
        applied = game.apply(self.frozen, event)
        if self.keep_base:
            self.base = applied
        settled, derived = settle(game, applied)
        self.frozen = settled
        self.ended = game.outcome(settled)
        if _plain(settled):
            self.pos = thaw(settled, _pool_of_setup(settled.setup))
        return derived


def _checker(w: LogosWorking) -> Callable[[Event], Ruling]:
    """``w.check(event)``: the ruling on ``event`` in the working position (the check handlers
    only read it; the rules' last refill step, when of this position, was found after its last
    write), else in the frozen one.  The verifier's hot path: the kit's handler of the event's
    type is called directly (:func:`~adjudicator.core.kernel.kit.direct_check`), anything unusual (no
    handler, a handler that raises) by the kit's wrapper, which gives its ruling."""
    gcheck = w.game.check
    direct = direct_check(gcheck)
    if direct is None:
        return lambda event: gcheck(w.frozen if w.pos is None else w.pos, event)
    rules, table, accepted, pre = direct
    handler = table.get

    def check(event: Event) -> Ruling:
        s = w.pos
        if s is None:
            s = w.frozen
        fn = handler(event.__class__)
        if fn is not None:
            try:
                if pre is not None:
                    pre(rules, s, event)
                return fn(rules, s, event) or accepted[event.__class__]  # type: ignore[no-any-return]
            except Exception:  # noqa: BLE001 - the wrapper says what it is
                pass
        return gcheck(s, event)

    return check


#: what an event that forces nothing derived (shared: never changed; the verifier copies it into
#: a step)
_NOTHING: list[Event] = []
