"""The game kit: what every game's rules and glue share, declared once.

A game built on the kit (see docs/adding-a-game.md) keeps its rules, state, events, data and scene;
the kit gives it:

- :class:`RulesBase`: check, apply and derive handlers register by decorator (:func:`checks`,
  :func:`applies`, :func:`derives`) per event type (per task type for derive).  The dispatch
  tables are plain dicts ``type -> function`` built once when the class is created, so a step
  costs one dict lookup, as a hand-written table did.  ``legal_events`` is ``candidates``
  filtered by ``check``.  ``apply`` may hand the handler a mutable working copy of the position
  (:attr:`RulesBase.working`, :class:`Working`) and freeze it at the end.
- :class:`KitGame`: the :class:`~adjudicator.core.kernel.protocol.Game` glue (binding the rules, ruleset
  options, reference checks through a thread-safe per-setup cache, outcome, players, scene and
  text rendering found in the package's ``scene.py``/``render.py``).
- event and state bases: :class:`MatchStartedBase`, :class:`GameEndedBase`, :class:`Result`,
  :class:`Task` with the common tasks, and the task-queue helpers :func:`head` and :func:`push`.
- the reference validator :class:`Refs` and the per-setup cache :class:`PerSetup`
  (:mod:`adjudicator.core.kernel.refs`), the card-pool loader :class:`PoolLoader`
  (:mod:`adjudicator.core.kernel.data`).

A whole game on the kit, "Race to N" (``examples/plugin-toy`` is the same game as a plugin
package; ``tests/test_kit.py`` runs this example).  Players alternate adding 1-3 to a total;
the rules derive who won::

    >>> from typing import Any, ClassVar
    >>> import msgspec
    >>> from adjudicator.core.kernel.events import Event
    >>> from adjudicator.core.kernel.protocol import Outcome
    >>> from adjudicator.core.kernel.rulings import Illegal, Rulebook
    >>> class MatchStarted(MatchStartedBase, frozen=True):
    ...     target: int = 5
    >>> class Added(Event, frozen=True):
    ...     player: str
    ...     n: int
    >>> class Won(Event, frozen=True):
    ...     kind: ClassVar[str] = "X"            # derived: the rules state it, no player proposes it
    ...     player: str
    >>> class Race(msgspec.Struct, frozen=True):
    ...     setup: MatchStarted
    ...     total: int = 0
    ...     turn: int = 0
    ...     winner: str | None = None
    >>> def mover(s): return s.setup.players[s.turn % 2]
    >>> class RaceRules(RulesBase):
    ...     namespace = "race/"
    ...     def precheck(self, s, e):              # every proposed event
    ...         if e.player != mover(s):
    ...             raise Illegal("RACE-2", "race/turn", f"it is {mover(s)}'s turn")
    ...     @checks(Added, rule="RACE-3")
    ...     def c_added(self, s, e):
    ...         if not 1 <= e.n <= 3:
    ...             raise Illegal("RACE-3", "race/amount", f"{e.n} is not 1-3")
    ...     @applies(Added)
    ...     def a_added(self, s, e):
    ...         return msgspec.structs.replace(s, total=s.total + e.n, turn=s.turn + 1)
    ...     @applies(Won)
    ...     def a_won(self, s, e):
    ...         return msgspec.structs.replace(s, winner=e.player)
    ...     def derive(self, s):                   # what the rules force, one event at a time
    ...         if s.winner is None and s.total >= s.setup.target:
    ...             return Won(player=s.setup.players[(s.turn - 1) % 2])
    ...         return None
    ...     def candidates(self, s):               # abstract: a superset of the legal events
    ...         return [] if s.winner else [Added(player=mover(s), n=n) for n in (1, 2, 3)]
    ...     def to_act(self, s):                   # abstract: who is to act
    ...         return [] if s.winner else [mover(s)]
    >>> class RaceGame(KitGame[Race]):
    ...     id: ClassVar[str] = "race"
    ...     name: ClassVar[str] = "Race to N"
    ...     rulebook = Rulebook("RACE", {"RACE-1": "Set-up", "RACE-2": "Turns", "RACE-3": "Adding"})
    ...     event_types = (MatchStarted, Added, Won)
    ...     state_type, rules_type = Race, RaceRules
    ...     refs = Refs(player="player")
    ...     setup_rule = "RACE-1"
    ...     def initial_state(self, setup): return Race(setup)
    ...     def outcome(self, s): return Outcome("win", s.winner, "reached the target") if s.winner else None
    ...     def players(self, s): return list(s.setup.players)
    >>> game = RaceGame()
    >>> s = game.initial_state(MatchStarted(game="race", players=["ann", "bob"]))
    >>> r = game.check(s, Added(player="bob", n=1)); r.verdict, r.rule, r.message
    ('illegal', 'RACE-2', "it is ann's turn")
    >>> [e.n for e in game.legal_events(s)]
    [1, 2, 3]
    >>> after = game.apply(s, Added(player="ann", n=3))    # the frozen contract: a new position
    >>> game.derive(after) is None, s.total, after.total
    (True, 0, 3)
    >>> from adjudicator.core.kernel.fold import working_for    # one verification's working position
    >>> w = working_for(game, s)
    >>> w.advance(Added(player="ann", n=3)), w.advance(Added(player="bob", n=2)), w.ended.winner
    ([], [Won(player='bob')], 'bob')
"""

from __future__ import annotations

import importlib
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

import msgspec
from msgspec.structs import replace

from .data import Pool, PoolLoader
from .sources import DataField, DataRef
from .events import PRIVATE_EVENTS, Event, redact_private
from .notation import kind_words, name_cards, setup_in_words
from .options import resolve_options
from .protocol import Game, Outcome, RefError
from .refs import UNSEEN, BoundRefs, Names, PerSetup, RefChecks, Refs, ref_checks
from .rulings import Illegal, Ruling, Undetermined, legal

__all__ = [
    "RulesBase", "checks", "applies", "derives", "Working", "KitGame", "MatchStartedBase", "GameEndedBase",
    "Result", "Task", "ChooseFirst", "StartTurn", "EndTurn", "head", "push", "TwoSeats", "Refs", "Names",
    "PerSetup", "Pool", "PoolLoader", "DataField", "DataRef", "check_player_ids", "LazyLegal", "lazy_legal",
    "kind_words", "name_cards",
]

S = TypeVar("S")


# == events and positions ==============================================================================

class _Header(Event, kw_only=True, frozen=True):
    """The match header (core/kernel/meta.py): keyword-only, so that it is encoded after every field
    a game declares and a game's required set-up fields may follow it."""

    #: event, round, table, date, judge, ...: text only, never rule-bearing.  Empty is not
    #: written, so a log without a header encodes (and stores) byte for byte as it always did
    meta: dict[str, str] = {}


class MatchStartedBase(_Header, frozen=True):
    """The fields every game's ``MatchStarted`` starts with.

    Each game declares ``class MatchStarted(MatchStartedBase)`` (the class name is the event's
    ``type``) with its own set-up fields, then ``ruleset`` (its default preset) and ``options``
    (overrides of single ruleset options) where its log format has always had them: a Struct
    encodes its fields in declaration order, and the store's content digest depends on that order.
    """

    game: str
    players: list[str]


class GameEndedBase(Event, frozen=True):
    """The derived end of a match; a game subclasses it as ``GameEnded`` (and may add fields)."""

    kind: ClassVar[str] = "X"
    result: Literal["win", "draw"]
    winner: str | None
    reason: str


class Result(msgspec.Struct, frozen=True):
    """How a match ended, as a position records it (``State.result``)."""

    result: Literal["win", "draw"]
    winner: str | None
    reason: str


class TwoSeats(msgspec.Struct, frozen=True, gc=False):
    """Base of a two-player position whose ``players`` is a pair of values with an ``id``."""

    def player(self, pid: str) -> Any:
        p = self.players[0]  # type: ignore[attr-defined]
        return p if p.id == pid else self.players[1]  # type: ignore[attr-defined]

    def opponent(self, pid: str) -> Any:
        p = self.players[0]  # type: ignore[attr-defined]
        return self.players[1] if p.id == pid else p  # type: ignore[attr-defined]

    def other(self, pid: str) -> str:
        return self.opponent(pid).id


class Task(msgspec.Struct, frozen=True, tag_field="task", gc=False):
    """An entry of a position's task queue (``State.todo``): what the position waits for next.

    Tasks are tagged by ``task`` in a position document; a game declares its own tasks as
    subclasses with a tag, and may use the common ones below.
    """


class ChooseFirst(Task, tag="choose-first", frozen=True):
    """The first player is to be determined (a random outcome the log records)."""


class StartTurn(Task, tag="start-turn", frozen=True):
    """The next turn starts (the engine derives it)."""


class EndTurn(Task, tag="end-turn", frozen=True):
    """The turn ends (the engine derives it)."""


def head(s: Any) -> Any:
    """The task at the head of the queue ``s.todo``, or None."""
    return s.todo[0] if s.todo else None


def push(s: Any, *tasks: Any, drop: int = 0) -> Any:
    """``s`` with ``tasks`` put at the head of its queue, after dropping ``drop`` tasks from it."""
    return replace(s, todo=tuple(tasks) + s.todo[drop:])


# == the rules base =====================================================================================

def _mark(role: str, types: tuple[type, ...], rule: str | None = None) -> Callable[[Callable], Callable]:
    if not types:
        raise TypeError(f"@{role} needs at least one type")

    def mark(fn: Callable) -> Callable:
        fn.__dict__.setdefault("_kit_roles", []).append((role, types, rule))
        return fn
    return mark


def checks(*event_types: type, rule: str) -> Callable[[Callable], Callable]:
    """Register ``fn(self, state, event)`` as the check of these event types.

    The handler raises :class:`~adjudicator.core.kernel.rulings.Illegal` to reject, and returns None to
    accept (then the ruling cites ``rule``) or a :class:`Ruling` of its own.
    """
    if not isinstance(rule, str) or not rule:
        raise TypeError("@checks needs rule=: the rule id an accepted event's ruling cites")
    return _mark("check", event_types, rule)


def applies(*event_types: type) -> Callable[[Callable], Callable]:
    """Register ``fn(self, state, event) -> state`` (or ``fn(self, working, event)``) as the
    application of these event types."""
    return _mark("apply", event_types)


def derives(*task_types: type) -> Callable[[Callable], Callable]:
    """Register ``fn(self, state, task) -> event`` as the derived step of a task at the head of
    the queue (see :meth:`RulesBase.derive_task`)."""
    return _mark("derive", task_types)


class Working:
    """A mutable working copy of a frozen position: read fields through it, set them on it, then
    :meth:`freeze` gives the new position (one ``msgspec.structs.replace`` for all the changes).

    A step may build the new position this way instead of replacing the state once per change:
    set :attr:`RulesBase.working` to this class (or a subclass with the game's own helpers) and
    the apply handlers receive the working copy.
    """

    __slots__ = ("base", "changes")

    def __init__(self, base: Any) -> None:
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "changes", {})

    def __getattr__(self, name: str) -> Any:
        changes = object.__getattribute__(self, "changes")
        if name in changes:
            return changes[name]
        return getattr(object.__getattribute__(self, "base"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        self.changes[name] = value

    def freeze(self) -> Any:
        return replace(self.base, **self.changes) if self.changes else self.base


_LOOKUP_ERRORS = (KeyError, IndexError, ValueError, StopIteration)


def _check_wrapper(cls: type) -> Callable[[Any, Any, Any], Ruling]:
    """The check of a RulesBase subclass, its tables and hooks bound once (the verify loop calls
    it once per event: no attribute lookups, no call for a precheck the class does not have)."""
    table, accepted = cls._checks, cls._legal  # type: ignore[attr-defined]
    pre = cls.precheck if cls.precheck is not RulesBase.precheck else None  # type: ignore[attr-defined]

    def check(self: Any, s: Any, e: Any) -> Ruling:
        fn = table.get(type(e))
        if fn is None:
            return self.not_proposed(s, e).ruling()
        try:
            if pre is not None:
                pre(self, s, e)
            r = fn(self, s, e) or accepted[type(e)]
            return r if r.__class__ is not LazyLegal else r.ruling()
        except (Illegal, Undetermined) as x:
            return self.in_words(s, x.ruling())
        except _LOOKUP_ERRORS:
            found = self.lookup_failed(s, e)
            if found is None:
                raise
            return self.in_words(s, found.ruling())

    check._kit_wrapper = True  # type: ignore[attr-defined]
    #: what the wrapper dispatches on, for a caller that calls the handler itself (the verify
    #: loop: see :func:`direct_check`): the handler table, the accepted rulings, the precheck
    check._kit_dispatch = (table, accepted, pre)  # type: ignore[attr-defined]
    check.__doc__ = RulesBase.check.__doc__
    return check


class LazyLegal:
    """A legal ruling whose message is written only when someone reads it: what a check handler
    may return instead of a :class:`Ruling` when its message describes the event at some cost
    (a move's path, the pieces it beats).  ``text(*args)`` writes the message; it must not
    raise (it describes what the handler has checked) and its arguments must not change (a
    position, the event, what the handler computed: values, never a working copy).

    The kit's check wrapper returns ``ruling()`` (every caller of ``check`` gets a
    :class:`Ruling`); the verify loop, which calls handlers itself (:func:`direct_check`), writes
    the message only when a step is kept or handed on, and otherwise reads only the verdict.
    """

    __slots__ = ("rule", "code", "text", "args")
    verdict: ClassVar[str] = "legal"
    engine_checked: ClassVar[bool] = True
    judged: ClassVar[str | None] = None
    condition: ClassVar[str | None] = None
    settles: ClassVar[str | None] = None
    legal: ClassVar[bool] = True
    allowed: ClassVar[bool] = True

    def __init__(self, rule: str, code: str, text: Callable[..., str], *args: Any) -> None:
        self.rule, self.code, self.text, self.args = rule, code, text, args

    def ruling(self) -> Ruling:
        """The ruling, its message written now."""
        return Ruling("legal", self.rule, self.code, self.text(*self.args))


def lazy_legal(rule: str, code: str, text: Callable[..., str], *args: Any) -> LazyLegal:
    """A legal ruling under ``rule`` whose message ``text(*args)`` is written only when it is
    read (:class:`LazyLegal`): ``return lazy_legal("KO-5.1", NS + "ok", describe_move, s, e)``."""
    return LazyLegal(rule, code, text, *args)


def direct_check(check: Callable[[Any, Any], Ruling]) -> tuple[Any, dict[type, Callable[..., Any]], dict[type, Ruling], Any] | None:
    """For a game's bound ``check`` that is the kit's wrapper (a :class:`KitGame` whose rules do
    not override ``check``): ``(rules, handler table, accepted rulings, precheck or None)``, so
    that a caller may call the handler of an event's type itself (one call less per event), and
    call ``check`` for anything else (no handler, a handler that raises: the wrapper's rulings);
    None for any other ``check``.  A handler is pure, so calling ``check`` after it gives the
    ruling the wrapper gives."""
    dispatch = getattr(getattr(check, "__func__", None), "_kit_dispatch", None)
    return None if dispatch is None else (check.__self__,) + dispatch  # type: ignore[attr-defined]


def direct_outcome(outcome: Callable[[Any], Any]) -> bool:
    """Whether a game's bound ``outcome`` is :meth:`KitGame.outcome` itself: None exactly while
    the position's ``result`` is None, so a caller that asks after every event (the fold's
    working position) may read that field and call ``outcome`` only once the match is over."""
    return getattr(outcome, "__func__", None) is KitGame.outcome


def direct_apply(apply: Callable[[Any, Any], Any]) -> tuple[Any, dict[type, Callable[..., Any]]] | None:
    """For a game's bound ``apply`` that is :meth:`RulesBase.apply` itself (frozen positions, no
    override): ``(rules, apply handler table)``; the caller calls ``table[type(e)](rules, s, e)``,
    exactly what that method does.  None for any other ``apply``."""
    if getattr(apply, "__func__", None) is not RulesBase.apply:
        return None
    rules = apply.__self__  # type: ignore[attr-defined]
    return rules, type(rules)._applies


@dataclass(frozen=True)
class Owed:
    """What a position waits for: the events that would do it (``expects``), the rule that owes
    that step (``rule``; None: the game's general rule of turns, :attr:`RulesBase.step_rule`) and,
    in words, why it is owed."""

    expects: str
    rule: str | None = None
    why: str = ""
    #: who owes it: an event by anybody else is cited by the general rule of turns instead
    by: str | None = None


class RulesBase(ABC):
    """Base of a game's rules: the handler tables, the check wrapper, apply, derive, legal events.

    Subclasses set :attr:`namespace` (``"colossus-order/"``), decorate handlers with
    :func:`checks`/:func:`applies`/:func:`derives`, and implement ``candidates`` (a superset of
    the legal events), ``derive`` and ``to_act``.  Hooks of the check wrapper: :meth:`not_proposed`
    (no check handler for the type), :meth:`precheck` (checks common to every proposed event),
    :meth:`lookup_failed` (a lookup error raised by a handler).
    """

    #: prefix of every ruling code of the game (``"colossus-order/"``)
    namespace: ClassVar[str] = ""
    #: the general rule of whose decision it is (``CO-3.1``), cited when no step is owed by a rule
    #: of its own
    step_rule: ClassVar[str] = ""
    #: a class building a mutable working copy of a position (``working(state)``; ``finish``
    #: freezes it); None: apply handlers take and return frozen positions
    working: ClassVar[Callable[[Any], Any] | None] = None

    _checks: ClassVar[dict[type, Callable[..., Any]]] = {}
    _applies: ClassVar[dict[type, Callable[..., Any]]] = {}
    _derives: ClassVar[dict[type, Callable[..., Any]]] = {}
    _rule_of: ClassVar[dict[type, str]] = {}
    _legal: ClassVar[dict[type, Ruling]] = {}

    def owed(self, s: Any, e: Any = None) -> Owed:
        """What the position ``s`` waits for (``e``: the event that came instead, when known).

        Games override it, naming the rule behind each owed step (a discard down to the hand
        limit, a replacement Locus card, a mandatory effect) and why it is owed."""
        return Owed(self.expected(s))

    def expected(self, s: Any) -> str:
        """What the position waits for, in words (games override :meth:`owed` or this)."""
        return "nothing"

    def out_of_step(self, s: Any, e: Any = None, *, what: str | None = None, who: str | None = None) -> Illegal:
        """The ruling for an event that skips what the position owes: it cites the rule that owes
        the step (not only the general rule of turns) and says what is owed and why.  ``what``
        and ``who`` name the event and its actor when no event object is at hand."""
        o = self.owed(s, e)
        if who is None and e is not None:
            who = next((getattr(e, f) for f in ("player", "warband", "by") if isinstance(getattr(e, f, None), str)), None)
        what = what or kind_words(e)
        by = f" by {who}" if who else ""
        why = f" ({o.why})" if o.why else ""
        rule = o.rule if o.rule and (o.by is None or who is None or who == o.by) else self.step_rule
        return Illegal(rule, self.namespace + "out-of-step",
                       f"{what}{by} is not allowed now: the position expects {o.expects}{why}")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        tables: dict[str, dict[type, Callable[..., Any]]] = {"check": {}, "apply": {}, "derive": {}}
        rule_of: dict[type, str] = {}
        for klass in reversed(cls.__mro__):
            for name, fn in list(vars(klass).items()):
                for role, types, rule in getattr(fn, "_kit_roles", ()):
                    handler = getattr(cls, name)  # a subclass's override of the method by name wins
                    for t in types:
                        tables[role][t] = handler
                        if rule is not None:
                            rule_of[t] = rule
        cls._checks, cls._applies, cls._derives = tables["check"], tables["apply"], tables["derive"]
        cls._rule_of = rule_of
        cls._legal = {t: legal(r, cls.namespace + "ok", f"{kind_words(t)} is legal here") for t, r in rule_of.items()}
        if cls.working is not None and "apply" not in vars(cls):
            cls.apply = RulesBase._apply_working  # type: ignore[method-assign]
        if "check" not in vars(cls) and getattr(cls.check, "_kit_wrapper", False):
            cls.check = _check_wrapper(cls)  # type: ignore[assignment]

    # -- check (built per class by _check_wrapper) ------------------------------------------------
    def check(self, s: Any, e: Any) -> Ruling:
        """The ruling on ``e`` in ``s``: :meth:`not_proposed` when no handler checks its type,
        else :meth:`precheck` and the handler (None: the type's legal ruling), an Illegal raised
        by either as its ruling, a lookup error as :meth:`lookup_failed` says."""
        raise NotImplementedError  # replaced in every subclass

    check._kit_wrapper = True  # type: ignore[attr-defined]

    def not_proposed(self, s: Any, e: Any) -> Illegal:
        """The ruling on an event no player proposes (derived, or MatchStarted mid-match); a
        private-information event in a game that allows none here (LOG-6)."""
        if type(e) in PRIVATE_EVENTS:
            return Illegal("LOG-6", "core/no-private-event",
                           f"{kind_words(e)}: no rule of this game lets a seat see, reorder or move hidden cards here")
        return Illegal("", self.namespace + "unexpected-event", f"{kind_words(e)} cannot be proposed")

    def precheck(self, s: Any, e: Any) -> None:
        """Checks shared by every proposed event (raise Illegal); the default checks nothing."""

    def in_words(self, s: Any, r: Ruling) -> Ruling:
        """A refusal as a judge reads it: games name the cards of the match's pool by their names
        (:func:`~adjudicator.core.kernel.notation.name_cards`); only refusals pass here."""
        return r

    def lookup_failed(self, s: Any, e: Any) -> Illegal | None:
        """A handler raised a lookup error: the rejection to give, or None (a defect: re-raise)."""
        return None

    # -- apply -----------------------------------------------------------------------------------
    def apply(self, s: Any, e: Any) -> Any:
        return self._applies[type(e)](self, s, e)

    def _apply_working(self, s: Any, e: Any) -> Any:
        w = self.working(s)  # type: ignore[misc,call-arg]
        self._applies[type(e)](self, w, e)
        return self.finish(w)

    def finish(self, w: Any) -> Any:
        """The frozen position of a working copy after an apply handler ran on it."""
        return w.freeze()

    # -- derive ----------------------------------------------------------------------------------
    def derive(self, s: Any) -> Any:
        """The next forced consequence; the default: the derived step of the head task.  Games
        check state-based consequences (the end of the match) first, then call
        :meth:`derive_task`."""
        return self.derive_task(s)

    def derive_task(self, s: Any) -> Any:
        """The derived step registered for the task at the head of ``s.todo`` (None: none)."""
        if not s.todo:
            return None
        h = s.todo[0]
        fn = self._derives.get(type(h))
        return None if fn is None else fn(self, s, h)

    # -- legal events ----------------------------------------------------------------------------
    @abstractmethod
    def candidates(self, s: Any) -> list[Any]:
        """A superset of the legal events of ``s`` (:meth:`legal_events` keeps those ``check`` accepts)."""

    def follows_stated(self, s: Any) -> bool:
        """See :meth:`adjudicator.core.kernel.protocol.Game.follows_stated` (the default: never)."""
        return False

    def legal_events(self, s: Any) -> list[Any]:
        """Every candidate ``check`` accepts (so the two never disagree)."""
        check = self.check
        return [e for e in self.candidates(s) if check(s, e).allowed]

    @abstractmethod
    def to_act(self, s: Any) -> list[str]:
        """Who may (or must) act in ``s``."""


# == the game glue =======================================================================================

def seated(s: Any, player: str, seat: Callable[[Any, bool], Any], **more: Any) -> Any:
    """``s`` with each seat as ``player`` observes it (``seat(p, mine)``) and ``more`` fields
    replaced: the frame of a game's ``observe.observe``."""
    return replace(s, players=tuple(seat(p, p.id == player) for p in s.players), **more)


def check_player_ids(players: list[str]) -> None:
    """Players are named by distinct non-empty ids (raises RefError on ``players``)."""
    if not players or len(set(players)) != len(players) or any(not p for p in players):
        raise RefError("players", f"players must be distinct non-empty ids, got {players}")


#: class attribute -> (module of the game's package, name in it): what a game class does not set
#: itself is read from its package (the layout of docs/adding-a-game.md)
PACKAGE_PARTS: dict[str, tuple[str, str]] = {
    "event_types": ("events", "EVENT_TYPES"), "rulebook": ("rulebook", "RULEBOOK"), "state_type": ("state", "State"),
    "options_type": ("state", "Options"), "presets": ("state", "PRESETS"), "rules_type": ("rules", "Rules"),
}


def _package_of(cls: type) -> str:
    """The package a game class's module belongs to (its own name for a package's ``__init__``;
    empty for a top-level module, which has no parts to find)."""
    module = sys.modules.get(cls.__module__)
    package = getattr(module, "__package__", None)
    return cls.__module__.rpartition(".")[0] if package is None else package


def _package_module(package: str, name: str) -> Any:
    """``<package>.<name>`` imported, or None when the package has no such module (or there is
    no package)."""
    if not package:
        return None
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.{name}":
            raise
        return None


class KitGame(Game[S], Generic[S]):
    """A :class:`Game` whose rules are a :class:`RulesBase` and whose set-up is a
    :class:`MatchStartedBase`.

    A subclass sets ``id``, ``name`` and ``refs`` (which event fields name what); the other class
    attributes default to the names of its package (:data:`PACKAGE_PARTS`: ``events.EVENT_TYPES``,
    ``rulebook.RULEBOOK``, ``state.State``/``Options``/``PRESETS``, ``rules.Rules``) unless the
    class sets them.  Hooks: :meth:`check_options`, :meth:`setup_context` (what the reference
    check needs of one set-up, cached per set-up), :meth:`validate_setup`, :meth:`validate_more`.
    """

    rules_type: ClassVar[type[RulesBase]]
    options_type: ClassVar[type]
    presets: ClassVar[Mapping[str, Mapping[str, Any]]]
    refs: ClassVar[Refs] = Refs()
    #: bind the rules' check/apply/derive/legal_events/to_act on each instance (the verify loop
    #: then calls them without a hop); False keeps the class's methods, which a subclass or a
    #: test may wrap
    bind_rules: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        package = _package_of(cls)
        for attr, (module, name) in PACKAGE_PARTS.items():
            if not hasattr(cls, attr):
                mod = _package_module(package, module)
                if mod is not None and hasattr(mod, name):
                    setattr(cls, attr, getattr(mod, name))
        if _package_module(package, "scene") is None:
            # no scene.py: the protocol's text-only scene (and no turn counter)
            for attr in ("scene", "turn_number"):
                if attr not in vars(cls):
                    setattr(cls, attr, getattr(Game, attr))

    def __init__(self) -> None:
        super().__init__()
        self.rules = self.rules_type()
        if self.bind_rules:
            # the verify loop calls these once per event: bind the rules directly (no extra call)
            self.check = self.rules.check  # type: ignore[assignment]
            self.apply = self.rules.apply  # type: ignore[assignment]
            self.derive = self.rules.derive  # type: ignore[assignment]
            self.legal_events = self.rules.legal_events  # type: ignore[assignment]
            self.to_act = self.rules.to_act  # type: ignore[assignment]
        #: set-up -> (its names by kind, the reference check bound to them)
        self._setups: PerSetup[tuple[dict[str, Names], BoundRefs]] = PerSetup(self._bind_setup)
        self._setup_type = self.event_types[0]
        #: validate_more, when the game has one (a call saved per event otherwise), and the event
        #: types it concerns (None: every type)
        self._more = None if type(self).validate_more is KitGame.validate_more else self.validate_more
        self._more_types = None if self.validate_more_types is None else frozenset(self.validate_more_types)
        self._parts: dict[str, Any] = {}
        self._redactor: Callable[[Event, str, Any], Event] | None = None

    # -- the rules (bound per instance above) ------------------------------------------------------
    def check(self, state: S, event: Event) -> Ruling:
        return self.rules.check(state, event)

    def apply(self, state: S, event: Event) -> S:
        return self.rules.apply(state, event)

    def derive(self, state: S) -> Event | None:
        return self.rules.derive(state)

    def legal_events(self, state: S) -> list[Event]:
        return self.rules.legal_events(state)

    def follows_stated(self, state: S) -> bool:
        return self.rules.follows_stated(state)

    def to_act(self, state: S) -> list[str]:
        return self.rules.to_act(state)

    # -- the set-up's legality -------------------------------------------------------------------------
    #: the rule a legal set-up's ruling cites (the game's first set-up rule)
    setup_rule: ClassVar[str] = ""

    def check_start(self, setup: Any) -> Ruling:
        """The ruling on the set-up: :meth:`check_setup`'s rejection, else legal under
        :attr:`setup_rule`."""
        try:
            self.check_setup(setup)
        except (Illegal, Undetermined) as x:
            return setup_in_words(self, setup, x.ruling())
        return legal(self.setup_rule, self.rules.namespace + "setup", "the set-up is legal")

    def check_setup(self, setup: Any) -> None:
        """Raise :class:`Illegal` for a set-up the rules forbid (player count, deck construction),
        :class:`Undetermined` for one whose legality turns on cards the record leaves unknown."""

    def check_seats(self, setup: Any, low: int, high: int, code: str) -> None:
        """The player count, under :attr:`setup_rule`: ``low`` to ``high`` players."""
        n = len(setup.players)
        if not low <= n <= high:
            count = str(low) if low == high else f"{low} to {high}"
            raise Illegal(self.setup_rule, self.rules.namespace + code,
                          f"{self.name} is played by {count} players; the match names {n}")

    # -- ruleset options -------------------------------------------------------------------------------
    def options_of(self, setup: Any) -> Any:
        """The ruleset preset with the log's overrides (raises RefError naming the option)."""
        opts: Any = resolve_options(self.options_type, self.presets, setup.ruleset, setup.options)
        self.check_options(opts)
        return opts

    def check_options(self, opts: Any) -> None:
        """Raise RefError(``options.<name>``, ...) for option values the game cannot play."""

    # -- references ------------------------------------------------------------------------------------
    def setup_context(self, setup: Any) -> dict[str, Names]:
        """What the reference check needs of one set-up: kind of name -> the known names.
        Computed once per set-up (see :class:`PerSetup`); the default knows the players."""
        return {"player": Names(frozenset(setup.players), "unknown player {value!r} (players: " + ", ".join(setup.players) + ")")}

    #: the data files a set-up names by id and may pin by hash (:mod:`adjudicator.core.kernel.sources`)
    data_fields: ClassVar[tuple[DataField, ...]] = ()

    def check_data(self, setup: Any) -> None:
        """Raise RefError naming the field when a data file the set-up names cannot be found
        (or differs from its pin); ``validate_setup`` calls it."""
        for f in self.data_fields:
            f.find(self, setup)

    def data_used(self, setup: Any) -> list[DataRef]:
        return [f.find(self, setup)[1] for f in self.data_fields]

    def _bind_setup(self, setup: Any) -> tuple[dict[str, Names], BoundRefs]:
        ctx = self.setup_context(setup)
        return ctx, self.refs.bind(ctx)

    def context(self, setup: Any) -> dict[str, Names]:
        """The cached :meth:`setup_context` of ``setup`` (thread-safe; compared with ``is``)."""
        return self._setups.get(setup)[0]

    def validate_refs(self, setup: Any, event: Event) -> None:
        if type(event) is self._setup_type:
            self.validate_setup(event)
            return
        last = self._setups._last  # the cache's lock-free hit path, inlined: once per log line
        ctx, refs = last[1] if last is not None and last[0] is setup else self._setups.get(setup)
        fn = refs.by_type.get(event.__class__, UNSEEN)  # BoundRefs.check, inlined
        if fn is not None:
            (fn if fn is not UNSEEN else refs.learn(event.__class__))(event)
        if self._more is not None and (self._more_types is None or event.__class__ in self._more_types):
            self._more(setup, event, ctx)

    def ref_checks(self, setup: Any) -> RefChecks | None:
        """:meth:`validate_refs` of ``setup``'s log per event type (:func:`~.refs.ref_checks`: no
        frame of it per line); None when it is not the kit's own (the reader calls it then)."""
        if getattr(self.validate_refs, "__func__", None) is not KitGame.validate_refs:
            return None
        ctx, refs = self._setups.get(setup)
        return ref_checks(refs, ctx, setup, self._more, self._more_types, self._setup_type, self.validate_refs)

    def validate_setup(self, setup: Any) -> None:
        """References within MatchStarted itself; the default checks the player ids and options."""
        check_player_ids(setup.players)
        self.options_of(setup)
        self.check_data(setup)

    #: the event types :meth:`validate_more` checks (called for no other: a call saved per event);
    #: None, the default: it is called for every event
    validate_more_types: ClassVar[Any] = None

    def validate_more(self, setup: Any, event: Event, ctx: dict[str, Names]) -> None:
        """References :attr:`refs` cannot express (fields of one event type, composite names).
        Called for the types of :attr:`validate_more_types` only, when the game names them."""

    def load_state(self, data: Any) -> Any:
        """Decode a judge's view: the position Struct, the references of its set-up, then the
        game's :meth:`check_position` (raises msgspec.ValidationError)."""
        state: Any = msgspec.convert(data, self.state_type)
        self.load_setup(state)
        self.check_position(state)
        return state

    def check_position(self, state: Any) -> None:
        """Names a decoded position holds that cannot exist in its match (an unknown card, a
        square off the board): raise ``msgspec.ValidationError("<what> - at `$.<path>`")``."""

    def waiting_for(self, state: Any) -> str:
        """What the position waits for, as the rules say it (``RulesBase.expected``)."""
        return self.rules.expected(state)

    def invariants(self, state: Any) -> list[tuple[str, str]]:
        """The package's ``invariants.invariants(state)`` when it has one (else none declared)."""
        fn = getattr(self.part("invariants"), "invariants", None)
        return fn(state) if fn is not None else []

    def load_setup(self, state: Any) -> Any:
        """The position's set-up, its references checked (ValidationError naming ``$.setup...``)."""
        try:
            self.validate_refs(state.setup, state.setup)
        except RefError as exc:
            raise msgspec.ValidationError(f"{exc.message} - at `$.setup.{exc.field}`") from None
        return state.setup

    # -- positions ---------------------------------------------------------------------------------------
    def setup_of(self, state: Any) -> Event:
        return state.setup

    def outcome(self, state: Any) -> Outcome | None:
        r = state.result
        return None if r is None else Outcome(r.result, r.winner, r.reason)

    def players(self, state: Any) -> list[str]:
        return [p.id for p in state.players]

    def turn_number(self, state: Any) -> int:
        """The package's ``scene.turn_number(state)`` when it has one, else ``state.turn``."""
        fn = getattr(self.part("scene"), "turn_number", None)
        return fn(state) if fn is not None else state.turn

    def card_info(self, setup: Any, card_id: str) -> dict[str, Any] | None:
        """The card ``card_id`` of the set-up's own cards (the ``card`` names of
        :meth:`setup_context`, when they map ids to cards) as the viewers show it: the package's
        ``cards.card_info(card)``, else the card's ``name`` and ``text``; None for no such card."""
        from adjudicator.core.services.pools import card_info

        try:
            names = self.context(setup).get("card")
        except RefError:  # the set-up's pool cannot be loaded: no texts to show
            return None
        known = getattr(names, "known", None)
        card = known.get(card_id) if isinstance(known, Mapping) else None
        return None if card is None or not hasattr(card, "name") else card_info(self, card)

    @property
    def notation(self) -> Any:
        """The package's ``notation.Notation(game)`` when it has one, else the core's game-neutral
        :class:`~adjudicator.core.kernel.notation.Notation` (made once per game)."""
        n = self.__dict__.get("_notation")
        if n is None:
            from .notation import Notation

            cls = getattr(self.part("notation"), "Notation", None) or Notation
            n = self.__dict__["_notation"] = cls(self)
        return n

    def part(self, name: str) -> Any:
        """A module of the game's package (``render``, ``scene``), imported on first use."""
        mod = self._parts.get(name)
        if mod is None:
            mod = self._parts[name] = _package_module(_package_of(type(self)), name) or False
        return mod or None

    # -- what a player sees: the package's observe.py, the one place a game writes its hiding -------------
    def observe(self, state: Any, player: str | None) -> Any:
        """The package's ``observe.observe(state, player)`` (a position of the same type, hidden
        values replaced by ``HIDDEN``); the judge (None) and a game without ``observe.py`` see all."""
        if player is None:
            return state
        fn = getattr(self.part("observe"), "observe", None)
        return state if fn is None else fn(state, player)

    def redact(self, event: Event, player: str | None, state: Any = None) -> Event:
        """The event as that seat saw it: the core's private-information events by the core's one
        rule (:func:`~adjudicator.core.kernel.events.redact_private`), every other event by the
        package's ``observe.redact(event, player)`` (or ``observe.redact(event, player, state)``
        when it takes the full position before the event: what the seat knows then)."""
        if player is None:
            return event
        if type(event) in PRIVATE_EVENTS:
            return redact_private(event, player)
        fn = self._redactor
        if fn is None:
            fn = self._redactor = _redactor(self.part("observe"))
        return fn(event, player, state)

    def shows_seat(self, event: Event, player: str, state: Any = None) -> bool:
        """The package's ``observe.shows_seat(event, player, state)``, when it has one."""
        fn = getattr(self.part("observe"), "shows_seat", None)
        return False if fn is None else fn(event, player, state)

    def view(self, state: Any, player: str | None) -> dict[str, Any]:
        """The observed position as JSON-ready data (``"view"`` names the seat)."""
        data = msgspec.to_builtins(self.observe(state, player))
        if player is not None:
            data["view"] = player
        return data

    def describe(self, state: Any, player: str | None) -> str:
        """The package's ``render.describe(game, observed state, player)``: the render draws what
        :meth:`observe` left and hides nothing itself."""
        return self.part("render").describe(self, self.observe(state, player), player)

    def scene(self, state: Any, player: str | None) -> Any:
        """The package's ``scene.scene(game, observed state, player)`` (a package without
        ``scene.py`` keeps the protocol's text-only scene); the scene hides nothing itself."""
        return self.part("scene").scene(self, self.observe(state, player), player)


def _redactor(observe: Any) -> Callable[[Event, str, Any], Event]:
    """The package's ``observe.redact`` called as ``(event, player, state)`` whether or not it
    takes the position (a game whose seats' knowledge does not depend on it takes two)."""
    fn = getattr(observe, "redact", None) if observe else None
    if fn is None:
        return lambda event, player, state: event
    import inspect

    if len(inspect.signature(fn).parameters) >= 3:
        return fn
    return lambda event, player, state: fn(event, player)


def sorted_fields(event: Event, fields: Mapping[type, str | Iterable[str]], key: Callable[[Any], Any] | None = None) -> Event:
    """``event`` with the list fields named for its type (``fields[type(event)]``) sorted (by
    ``key``); unchanged when they already are, or when a value cannot be ordered."""
    names = fields.get(type(event))
    if names is None:
        return event
    changes: dict[str, Any] = {}
    for f in ((names,) if isinstance(names, str) else names):
        values = getattr(event, f)
        try:
            ordered = sorted(values, key=key)
        except TypeError:  # None among the values: keep as given
            return event
        if ordered != values:
            changes[f] = ordered
    return replace(event, **changes) if changes else event
