"""The Colossus Order fold contract (:mod:`adjudicator.core.kernel.fold`): one mutable working position
for the length of one verification, frozen only where a caller keeps one.

:data:`~.state.Position` mirrors :class:`~.state.State` field for field, but its fields may be set: the
apply handlers change a position through :func:`~.positions.put` (and ``push``,
``with_player``), which replaces a frozen State and sets the fields of a ``Position`` in place,
so the same handler serves the frozen contract (``game.apply``) and the working position.  The
check handlers and ``derive`` read attributes, so they run on either unchanged.  What a field
holds is never changed in place (tuples and frozen Structs, shared with the frozen positions
handed out), only which value the field holds: a frozen position, once handed out, never
changes, and freezing copies seventeen references (python-chess's ``Board``: push in place,
``copy`` only what a caller keeps).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from msgspec.structs import astuple

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.fold import MAX_DERIVED_RUN, EngineLoop, FrozenWorking
from adjudicator.core.kernel.kit import direct_outcome
from adjudicator.core.kernel.sources import current

from .cards import POOLS
from .derive import Derive
from .events import GameEnded
from .state import STATE_FIELDS, Position, State
from .unstated import WAITING

_FIELDS = STATE_FIELDS
_N = len(STATE_FIELDS)


#: what an event that forces nothing derived (shared: never changed, a Step gets a list of its own)
_NOTHING: list[Event] = []


def _load(w: Any, values: tuple[Any, ...]) -> None:
    """Set the working position ``w`` to the field ``values`` of a position (``astuple``)."""
    for name, value in zip(_FIELDS, values):
        setattr(w, name, value)


class Working(FrozenWorking):
    """The working position of one Colossus Order verification (the :class:`Working
    <adjudicator.core.kernel.fold.Working>` protocol; the default adapter's attributes, its closures
    replaced).

    ``check``, ``advance``, ``freeze`` and ``restore`` are closures over the working position
    (:class:`~adjudicator.core.kernel.fold.FrozenWorking` says why).  ``freeze`` builds a State from
    the fields once and hands out that object until ``advance`` or ``restore`` changes the
    position; ``advance`` undoes a failed event (the fields as they were before it)."""

    __slots__ = ()

    def __init__(self, game: Any, state: State) -> None:
        super().__init__(game, state)  # keep_base, base, ended
        _bind(self, game, state)


def _deriver(game: Any) -> Any:
    """``derive(w)`` of one verification: :meth:`~.derive.Derive.derive` with the data sources in
    effect read once (they name the pool; a verification runs in one context), and the players
    last found to force nothing remembered by this verification alone: only damage, a lowered
    Defence or an empty deck force a consequence before the task queue's, and those are changes
    of ``players`` (whose tuples are never changed: :mod:`.positions`), so a position whose
    ``players`` is the one found calm is calm (the rules' own ``derive`` keeps the same
    remembrance, for the last position of any verification).  A game whose ``derive`` is not the
    rules' own keeps its own."""
    if getattr(game.derive, "__func__", None) is not Derive.derive:
        return game.derive
    rules = game.rules
    forced, step_of, src = rules.forced, type(rules)._derives.get, current()
    calm: Any = None

    def derive(w: Any) -> Any:
        nonlocal calm
        if w.result is not None:
            return None
        pending = w.pending_ends
        if pending:  # (Derive.state_based: the match's end comes first)
            r = pending[0]
            return GameEnded(result=r.result, winner=r.winner, reason=r.reason)
        players = w.players
        if players is not calm:
            found = forced(w, src)
            if found is not None:
                return found
            calm = players
        todo = w.todo
        if not todo:
            return None
        h = todo[0]
        step = step_of(h.__class__)
        return None if step is None else step(rules, w, h)
    return derive


def _applier(game: Any, w: Position, derive: Any) -> tuple[Any, Any]:
    """``one(event)``: apply ``event`` to the working position ``w`` in place (the seat's-record
    steps first, :func:`~.unstated.seat_apply`, else the kit's dispatch, ``RulesBase.apply``);
    ``settle(d)``: apply ``d``, the first consequence an event forced, and every one after it
    (:func:`adjudicator.core.kernel.fold.settle` in place), the derived events in order."""
    rules, seat_apply, table = game.rules, game.apply, type(game.rules)._applies

    def one(event: Event) -> None:
        todo = w.todo
        out = seat_apply(w, event) if todo and todo[0].__class__ in WAITING else table[event.__class__](rules, w, event)
        if out is not w:  # (a handler that made a position of its own: taken in)
            _load(w, astuple(out))

    def settle(d: Event) -> list[Event]:
        derived = []
        while d is not None:
            todo = w.todo
            if todo and todo[0].__class__ in WAITING:
                one(d)
            else:  # (one(d), inlined: most derived events)
                out = table[d.__class__](rules, w, d)
                if out is not w:
                    _load(w, astuple(out))
            derived.append(d)
            if len(derived) > MAX_DERIVED_RUN:
                raise EngineLoop(f"{game.id}: more than {MAX_DERIVED_RUN} derived events in a row")
            d = derive(w)
        return derived
    return one, settle


def _bind(k: Working, game: Any, state: State) -> None:
    """The closures of :class:`Working` over one working position ``w`` (and ``frozen``, the
    State handed out for it, None until one is asked for after a change).  ``check`` is the
    rules' check bound to ``w`` (:func:`~.unstated.seat_check_of` rules on a copy where a seat's
    record leaves a step unstated: never on the working position)."""
    rules, outcome, derive = game.rules, game.outcome, _deriver(game)
    table, by_result = type(rules)._applies, direct_outcome(outcome)
    w = Position(*astuple(state), POOLS.of_setup(state.setup))
    one, settle = _applier(game, w, derive)
    frozen: State | None = state

    def freeze() -> State:
        nonlocal frozen
        if frozen is None:
            frozen = State(*astuple(w)[:_N])
        return frozen

    def advance(event: Event) -> list[Event]:
        nonlocal frozen
        undo, was = astuple(w), frozen  # the position before the event (a failed event is undone)
        try:
            todo = w.todo
            if todo and todo[0].__class__ in WAITING:
                one(event)
            else:  # (one(event), inlined: the verifier's hot path)
                out = table[event.__class__](rules, w, event)
                if out is not w:
                    _load(w, astuple(out))
            frozen = None
            if k.keep_base:
                k.base = freeze()
            d = derive(w)
            derived = _NOTHING
            if d is not None:
                derived, frozen = settle(d), None
        except BaseException:
            _load(w, undo)
            frozen = was
            raise
        k.ended = None if by_result and w.result is None else outcome(freeze())
        return derived

    def restore(kept: State) -> None:
        nonlocal frozen
        _load(w, astuple(kept))
        frozen = kept
        k.ended = outcome(kept)

    k.check = partial(game.check, w)  # type: ignore[method-assign]
    k.advance, k.freeze, k.restore = advance, freeze, restore  # type: ignore[method-assign]
