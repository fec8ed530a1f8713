"""The Kolossus working position (the fold contract, :mod:`adjudicator.core.kernel.fold`, issue 33).

:class:`Position` holds the fields of a :class:`~.state.State` as attributes, so every check
handler (which reads attributes) runs on it unchanged, and every apply handler writes it in
place (:mod:`.apply`): a field's value is never changed, only replaced (tuples, frozen Structs),
so what :meth:`Position.freeze` handed out shares nothing anybody changes, and the rules' caches
keyed by a value's identity (:meth:`.queries.Queries.square_index`) stay true.  ``Rules.apply``
(the frozen contract: the recorder, the API, the viewers) runs the same handlers on a Position of
the State it is given and freezes it (``RulesBase.working``): one implementation of each rule.

:class:`Fold` is one verification's working position (python-chess's ``Board``: pushed in place,
copied only when kept): ``advance`` applies an event and every consequence the rules force on
the one Position; a State is built only when a caller keeps one (``freeze``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from msgspec.structs import astuple

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.fold import MAX_DERIVED_RUN, EngineLoop
from adjudicator.core.kernel.kit import direct_check
from adjudicator.core.kernel.rulings import Ruling

from .basics import DERIVING
from .state import Seats, State

if TYPE_CHECKING:
    from .game import Kolossus

#: the fields of a position, in the State's order (``Position.load`` and ``build`` take them so)
FIELDS: tuple[str, ...] = State.__struct_fields__
assert FIELDS == ("setup", "options", "warbands", "levels", "citadel", "pieces", "step", "seat", "round", "first",
                  "order", "quaked", "quakers", "quake_roll", "destiny", "points", "initiative", "acted", "activation",
                  "crystals_left", "on_citadel", "last_capture", "captured_by", "rolls", "queue", "ending", "result"), \
    "kolossus: Position.load and build list the State's fields in their order"


class Position(Seats):
    """A mutable position with the fields of :class:`State` as slots (read as fast as the
    State's own).  ``_frozen`` is the State this position equals, or None once an apply handler
    wrote to it (the fold clears it after every event); ``squares`` its square index."""

    __slots__ = FIELDS + ("_frozen", "squares")

    def __init__(self, s: State) -> None:
        self.load(s)

    def load(self, s: State) -> None:
        """Make the position ``s`` (a frozen State: its values are shared, never changed)."""
        (self.setup, self.options, self.warbands, self.levels, self.citadel, self.pieces, self.step, self.seat,
         self.round, self.first, self.order, self.quaked, self.quakers, self.quake_roll, self.destiny, self.points,
         self.initiative, self.acted, self.activation, self.crystals_left, self.on_citadel, self.last_capture,
         self.captured_by, self.rolls, self.queue, self.ending, self.result) = astuple(s)
        self._frozen: State | None = s
        #: (pieces, square -> index in them): this position's own, kept by the moves that leave
        #: every other index in place (:meth:`.queries.Queries.square_index`); None: not built yet
        self.squares: tuple[tuple[Any, ...], dict[str, int]] | None = None

    def freeze(self) -> State:
        """The position as a State nothing done here afterwards changes; the same object until
        the position changes."""
        f: State | None = self._frozen
        if f is None:
            f = self._frozen = self.build()
        return f

    def build(self) -> State:
        """A new State of the position's fields (``Rules.finish``: the frozen contract's apply)."""
        return State(self.setup, self.options, self.warbands, self.levels, self.citadel, self.pieces, self.step,
                     self.seat, self.round, self.first, self.order, self.quaked, self.quakers, self.quake_roll,
                     self.destiny, self.points, self.initiative, self.acted, self.activation, self.crystals_left,
                     self.on_citadel, self.last_capture, self.captured_by, self.rolls, self.queue, self.ending,
                     self.result)

    if TYPE_CHECKING:  # the State's fields, for the type checker
        def __getattr__(self, name: str) -> Any: ...


#: what an event that forces nothing derived (shared: never changed, a Step gets a list of its own)
_NOTHING: list[Event] = []
#: the most events :class:`Fold` applies after its last kept position before it keeps one
#: (the journal an exception replays stays this short: one State per this many events at most)
JOURNAL = 1024


class Fold:
    """One verification's working position (the :class:`~adjudicator.core.kernel.fold.Working`
    protocol) for Kolossus: one :class:`Position` for the whole log.

    ``check`` calls the event type's check handler on the Position (the kit's wrapper for
    anything unusual); ``advance`` runs the apply handler and every derived event's in place;
    ``freeze`` builds a State only when asked, once per position; ``restore`` loads a kept
    State.  When an apply handler raises (an event a judge's ruling lets stand whose effect is
    undefined, or a defect) the position is the one before the event: the last State kept
    (``mark``) with the events applied since (``journal``, at most :data:`JOURNAL`) applied
    again, so no event pays for a copy.  The methods are closures (the verifier's hot path: no
    attribute lookups), as in :class:`~adjudicator.core.kernel.fold.FrozenWorking`."""

    __slots__ = ("position", "keep_base", "base", "ended", "check", "advance", "freeze", "restore")

    def __init__(self, game: Kolossus, state: State) -> None:
        self.keep_base, self.base = False, None
        self.position = pos = Position(state)
        self.ended = game.outcome(state)
        _bind(self, game, pos)


def _checker(game: Kolossus, pos: Position) -> Callable[[Event], Ruling]:
    """``Fold.check``: the event type's check handler called on the Position (the kit's dispatch,
    inline); the kit's wrapper for anything unusual."""
    gcheck = game.check
    direct = direct_check(gcheck)
    rulings, table, accepted, pre = direct if direct is not None else (None, {}, {}, None)
    assert pre is None, "kolossus: every check handler asks actor/chapter first; no precheck"
    handler = table.get

    def check(event: Event) -> Ruling:  # (a LazyLegal from a handler: the verifier writes it before advance)
        try:
            return handler(event.__class__)(rulings, pos, event) or accepted[event.__class__]  # type: ignore[misc,no-any-return]
        except Exception:  # noqa: BLE001 - no handler (None called), a rejection, anything unusual: the wrapper says what
            return gcheck(pos, event)  # type: ignore[arg-type]
    return check


def _settler(game: Kolossus, pos: Position) -> Callable[[Event], list[Event]]:
    """Every consequence the rules force, applied to the Position, the first (``x``) found
    already: the derived events."""
    rules = game.rules
    applies, derive = type(rules)._applies, rules.derive

    def settle(x: Event | None) -> list[Event]:
        derived = []
        while x is not None:
            applies[x.__class__](rules, pos, x)
            derived.append(x)
            if len(derived) > MAX_DERIVED_RUN:
                raise EngineLoop(f"{game.id}: more than {MAX_DERIVED_RUN} derived events in a row")
            x = derive(pos)
        pos._frozen = None
        return derived
    return settle


def _bind(w: Fold, game: Kolossus, pos: Position) -> None:
    """The closures of :class:`Fold` over its Position, the last State kept and the journal."""
    rules, outcome = game.rules, game.outcome
    applies, derive, settle = type(rules)._applies, rules.derive, _settler(game, pos)
    mark: State = pos.freeze()
    journal: list[Event] = []

    def advance(event: Event) -> list[Event]:
        try:
            applies[event.__class__](rules, pos, event)
            pos._frozen = None
            if w.keep_base:
                w.base = pos.freeze()
            # (derive's usual case read here: a player's step forces nothing, no call)
            if not pos.queue and pos.ending is None and pos.step not in DERIVING:
                derived = _NOTHING
            else:
                x = derive(pos)
                derived = _NOTHING if x is None else settle(x)
        except BaseException:
            back()
            raise
        journal.append(event)
        if len(journal) >= JOURNAL:
            freeze()
        r = pos.result
        w.ended = None if r is None else outcome(pos)  # type: ignore[arg-type]
        return derived

    def back() -> None:
        """The position before the event that raised: the last kept one and the journal again."""
        rules._walk = None
        pos.load(mark)
        for e in journal:
            applies[e.__class__](rules, pos, e)
            settle(derive(pos))

    def freeze() -> State:
        nonlocal mark
        f = pos._frozen
        if f is None:
            f = pos._frozen = pos.build()
        if journal or f is not mark:
            mark = f
            journal.clear()
        return f

    def restore(kept: State) -> None:
        nonlocal mark
        pos.load(kept)
        mark = kept
        journal.clear()
        rules._walk = None
        w.ended = outcome(kept)

    w.check, w.advance, w.freeze, w.restore = _checker(game, pos), advance, freeze, restore  # type: ignore[method-assign]
