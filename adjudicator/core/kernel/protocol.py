"""The game protocol: what a game package provides so that core, CLI and replays can use it.

A game is a :class:`Game` subclass instance registered in :mod:`adjudicator.core.kernel.registry`.
The split follows OpenSpiel's Game/State: the Game object holds the rules (pure functions), the
state is an immutable value.  Check and apply are separate: ``check`` may reject and never
mutates; ``apply`` is pure and total on checked events; ``derive`` yields the consequences the
rules force (a follower destroyed, a turn starting, the match ending).

A verification folds a log on one working position (:mod:`adjudicator.core.kernel.fold`): a game may
give a mutable one of its own (``working(state)``, the ``Working`` protocol there); without it
the default adapter folds the frozen positions ``apply`` returns.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, Union

import msgspec

from .events import CORE_EVENTS, Event
from .rulings import Rulebook, Ruling

if TYPE_CHECKING:
    from .notation import Notation
    from .scene import Scene

S = TypeVar("S")


class Outcome(msgspec.Struct, frozen=True):
    """How a match ended: ``result`` is ``win`` or ``draw``; ``winner`` a player id or None."""

    result: str
    winner: str | None
    reason: str


class RefError(Exception):
    """An event names something that does not exist (an unknown card or player): unreadable."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


class Game(ABC, Generic[S]):
    #: registry id, used in MatchStarted.game (``colossus-order``)
    id: ClassVar[str]
    #: human name
    name: ClassVar[str]
    #: the rule ids rulings of this game may cite
    rulebook: ClassVar[Rulebook]
    #: every event class of the game, MatchStarted first
    event_types: ClassVar[tuple[type[Event], ...]]
    #: the msgspec Struct type of a position
    state_type: ClassVar[type]
    #: event types whose ``legal_events`` alternatives are chosen by cards hidden from the other
    #: seats (one per distinct selection): another seat is shown how many, never which
    listed_by_hidden: ClassVar[tuple[type[Event], ...]] = ()

    def __init__(self) -> None:
        # the game's events and the core's (a judge's ruling), which every log may carry
        union = Union[tuple(self.event_types) + CORE_EVENTS]  # type: ignore[valid-type]
        self._union = union
        self.decoder = msgspec.json.Decoder(union)
        self._by_name = {cls.__name__: cls for cls in self.event_types + CORE_EVENTS}

    # -- events -----------------------------------------------------------------------------
    def event_class(self, name: str) -> type[Event] | None:
        return self._by_name.get(name)

    def schema(self) -> dict[str, Any]:
        """JSON Schema of one log line of this game."""
        return msgspec.json.schema(self._union)

    # -- setup ------------------------------------------------------------------------------
    @abstractmethod
    def validate_refs(self, setup: Event, event: Event) -> None:
        """Raise :class:`RefError` when ``event`` names an unknown player, card, ... .

        ``setup`` is the match's MatchStarted event.  Called for MatchStarted itself too.
        """

    def data_used(self, setup: Event) -> list[Any]:
        """The data files (card pool, board) the set-up names, as the :class:`~adjudicator.core.kernel.sources.DataRef`
        each resolved to (id and sha256): what a verdict reports.  Default: none."""
        return []

    @abstractmethod
    def setup_of(self, state: S) -> Event:
        """The MatchStarted event a position descends from (to validate references)."""

    @abstractmethod
    def check_start(self, setup: Event) -> Ruling:
        """Is the set-up legal (deck construction, player count, ...)?"""

    @abstractmethod
    def initial_state(self, setup: Event) -> S:
        """The position right after MatchStarted (before any derived event)."""

    # -- the rules --------------------------------------------------------------------------
    @abstractmethod
    def check(self, state: S, event: Event) -> Ruling:
        """The ruling for ``event`` in ``state``; never mutates, never raises on bad values."""

    @abstractmethod
    def apply(self, state: S, event: Event) -> S:
        """The position after a checked (legal) event.  Pure; never fails on a checked event."""

    @abstractmethod
    def derive(self, state: S) -> Event | None:
        """The next consequence the rules force in ``state``, or None when someone must act."""

    def follows_stated(self, state: S) -> bool:
        """True when ``state`` waits on a consequence the engine cannot derive because it turns on
        an unknown identity (a seat's record): a derived event the log states there is then
        checked and applied like a proposed one (docs/log-format.md, "Unknown identities").
        The default: never (every consequence is derived)."""
        return False

    def open_conditions(self, state: S) -> "Collection[str] | None":
        """The conditions of undetermined events (``Ruling.condition``, as the game wrote them)
        that ``state`` still leaves open: an event whose condition later events settled (the card
        was revealed and fits) is legal after all, and the verdict lists only the conditions still
        open.  A later event that contradicts a condition is rejected with ``Ruling.settles``
        naming it.  None (the default): the game does not track them, every condition stays."""
        return None

    def keep_seen(self, state: S, annulled: S) -> S:
        """The position a judge's taking back returns to (``state``, before the event taken
        back), with what each seat learnt in the annulled events kept: ``annulled`` is the
        position those events left at the table (folded unchecked).  A seat cannot unsee a card
        (FIDE 7.5: the position before the irregularity, the knowledge of the table kept).  The
        default: ``state`` (a game of open information, or one that keeps no knowledge)."""
        return state

    def keep_seen_of(self, state: S, annulled: S, events: Sequence[Event]) -> S:
        """:meth:`keep_seen`, told the events taken back too (in log order, as this log states
        them): a game whose seats' knowledge turns on the order of those events (the cards they
        drew go back on top in the order drawn, which every record holds) overrides this one.
        The default: :meth:`keep_seen`."""
        return self.keep_seen(state, annulled)

    def assumptions(self, state: S) -> list[str]:
        """What a record's verdict rests on without being an undetermined event (the
        construction rules an unknown deck list is assumed to meet), stated once beside the
        verdict.  The default: none."""
        return []

    @abstractmethod
    def legal_events(self, state: S) -> list[Event]:
        """Every legal event in ``state``; random outcomes as every event that could follow."""

    @abstractmethod
    def to_act(self, state: S) -> list[str]:
        """Who may (or must) act in ``state``: player ids; empty when the match is over."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the match ended, or None while it goes on."""

    # -- positions and views ----------------------------------------------------------------
    @abstractmethod
    def players(self, state: S) -> list[str]: ...

    @abstractmethod
    def view(self, state: S, player: str | None) -> dict[str, Any]:
        """The position as JSON-ready data; ``player`` hides what that player cannot see.

        With ``player=None`` (the judge's view) the result must be accepted back by
        :meth:`load_state` unchanged.
        """

    def observe(self, state: S, player: str | None) -> S:
        """What ``player`` sees of ``state``: a position of the same type whose hidden values are
        ``adjudicator.core.kernel.events.HIDDEN`` (lists keep their length).  :meth:`view`,
        :meth:`scene`, :meth:`describe` and :meth:`redact` take their hiding from one place per
        game.  The default hides nothing (a game of open information); None is the judge."""
        return state

    def invariants(self, state: S) -> list[tuple[str, str]]:
        """Every broken invariant of ``state`` as (field path, message); [] for a sound position.

        Checked when a position document is loaded (so no position a user writes reaches an
        index error in the rules) and after every event in the conformance playouts.
        """
        return []

    def load_state(self, data: Any) -> S:
        """Decode a judge's view produced by :meth:`view` (raises msgspec.ValidationError)."""
        return msgspec.convert(data, self.state_type)

    @abstractmethod
    def describe(self, state: S, player: str | None) -> str:
        """The position as text for a terminal, from ``player``'s view (None: judge)."""

    def canonical(self, event: Event) -> Event:
        """``event`` with order-insensitive fields in canonical order.

        ``legal_events`` lists each choice once, in this form; ``check`` accepts any order of a
        field that names a set (the slots of a declaration, the gems captured).
        """
        return event

    # -- replays -------------------------------------------------------------------------------
    def scene(self, state: S, player: str | None) -> "Scene":
        """The position as a game-neutral :class:`~adjudicator.core.kernel.scene.Scene` for viewers.

        The default is a text-only scene (the status line and :meth:`describe`); games override
        it with a board, zones and counters.  ``player`` hides what that player cannot see.
        """
        from .scene import Scene

        text = self.describe(state, player).splitlines()
        out = self.outcome(state)
        return Scene(game=self.id, view=player, status=text[0] if text else "", to_act=self.to_act(state),
                     notes=text[1:], outcome=None if out is None else f"{out.result} {out.winner or ''} ({out.reason})")

    def redact(self, event: Event, player: str | None, state: S | None = None) -> Event:
        """``event`` as ``player`` saw it at the table (None: the judge sees everything).

        ``state``: the full-information position before the event, when the caller has it (what
        the seat knows then: a card it saw earlier stays named in its record wherever it goes;
        :func:`adjudicator.core.kernel.seats.redact_log` folds a whole log this way).  Without it, the
        event is redacted by what it shows alone.

        A card drawn by the opponent, a card put face down, a hidden pick: the fields ``player``
        cannot see are masked (``adjudicator.core.kernel.events.masked``).  The viewers show each
        player's event list through this, the way Pokemon Showdown splits its secret lines.
        The default hides nothing (a game of open information).
        """
        return event

    def shows_seat(self, event: Event, player: str, state: S | None = None) -> bool:
        """Whether the derived ``event``, left out of a log, shows ``player`` a card that seat's
        own record leaves unknown (a face-down card an attack turns face up): a seat's record
        (:func:`adjudicator.core.kernel.seats.redact_log`) then states it.  ``state``: the
        full-information position before the log event it follows.  The default: never."""
        return False

    def turn_number(self, state: S) -> int:
        """A number that grows by one at each new turn or round (the viewers' up/down keys)."""
        return 0

    def card_info(self, setup: Event, card_id: str) -> dict[str, Any] | None:
        """What the viewers show of the card ``card_id`` of this match's own pool (its
        ``MatchStarted``): ``{"id", "name", "text", "facts"}``, or None (no such card, or a game
        without card texts).  The viewers ask only for cards a scene shows by identity
        (``scene.Card.card``), so a seat never learns of a card it cannot see."""
        return None

    # -- tournaments (docs/tournament.md) ------------------------------------------------------
    #: the type of one player's deck list as ``MatchStarted.decks`` writes it (a tournament's
    #: registered lists have the same shape); None: a game without deck lists
    deck_type: ClassVar[Any] = None

    def deck_counts(self, deck: Any) -> dict[str, int]:
        """One deck list (a ``deck_type`` value) as card id -> copies: what a tournament compares
        with the list a player registered."""
        return dict(deck)

    # -- generated matches (tests, benchmarks, examples) -------------------------------------
    def sample_setup(self, seed: int, *, long: bool = False) -> Event:
        """A legal MatchStarted for generated matches (random playouts, benchmarks).

        ``long=True`` asks for a set-up whose matches run to many thousands of events (for
        seek/rebuild benchmarks), using ruleset options where the standard game is short.
        """
        raise NotImplementedError(f"{self.id} does not generate set-ups")

    def playout_weight(self, state: S, event: Event) -> float:
        """Relative weight of ``event`` when a random playout picks among legal events."""
        return 1.0

    def waiting_for(self, state: S) -> str:
        """What ``state`` waits for, in words (verdicts group the events rejected meanwhile)."""
        who = self.to_act(state)
        return f"a decision by {', '.join(who)}" if who else "nothing (no one may act)"

    def touched(self, event: Event) -> list[str]:
        """Ids of the scene's cells, cards and pieces ``event`` concerns (a move's path, the card
        played, an attack's target), for the viewers to mark.  The default: every string the event
        names (besides who acts); games whose scene ids are not the event's own values override it."""
        out: list[str] = []
        for k, v in msgspec.to_builtins(event).items():
            if k in ("type", "seq", "at", "note", "player", "warband"):
                continue
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, str) and x not in out and x != "?":  # "?": hidden from this viewer
                    out.append(x)
        return out

    def legal_group(self, event: Event) -> str | None:
        """A key shared by legal events that differ only in how they get to the same result (the
        paths of one move to one square); ``adjudicator legal`` lists one per key unless asked for
        all.  None (the default): the event stands alone."""
        return None

    @property
    def notation(self) -> "Notation":
        """The game's notation (:mod:`adjudicator.core.kernel.notation`): events and positions as a
        player writes them.  The default: the game-neutral notation from the event's fields."""
        n = self.__dict__.get("_notation")
        if n is None:
            from .notation import Notation

            n = self.__dict__["_notation"] = Notation(self)
        return n

    def part(self, name: str) -> Any:
        """A module of the game's package (``render``, ``notation``): none outside the kit."""
        return None

    def describe_event(self, event: Event, state: S | None = None) -> str:
        """One event in words wherever a person reads it (verdicts, viewers): the game's notation
        (:attr:`notation`), one path; ``state``, the position it happens in, lets it name cards
        and pieces.  The core's private-information events read ``bob looked at 3 cards of
        alice's hand``."""
        return self.notation.format(event, state)
