"""The event envelope shared by every game.

Every log line is one event: a JSON object whose ``type`` is the event's class name.  Each game
declares its events as subclasses of :class:`Event` (frozen msgspec Structs, tagged by class
name) and decodes a log with one tagged-union decoder.  The envelope fields below are optional on
every line:

``seq``   1-based position in the log; when present it must equal the line's event number.
``at``    a timestamp, informational only (the engine never reads it).
``note``  free text.
``prev``  tamper evidence: the sha256 (hex) of the previous line as written (without its line
          ending and surrounding blanks).  When line 2 carries one, every later line must, and each
          must match (``adjudicator seal`` writes them); MatchStarted carries none.

Every event class states its *kind*: ``D`` a player's decision, ``R`` a random outcome (a draw,
a shuffle, a reveal, a die roll), ``X`` a consequence the engine derives itself.  A log may state
``X`` events; the engine then checks them against its own derivation.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

ENVELOPE_FIELDS = ("seq", "at", "note", "prev")

#: how an event is written by ``repr`` (the notation's :func:`~adjudicator.core.kernel.notation.event_repr`;
#: set by :mod:`adjudicator.core.kernel.registry` on import: this module imports no other)
REPR: Any = None


class Event(
    msgspec.Struct,
    tag_field="type",
    tag=True,
    frozen=True,
    kw_only=True,
    omit_defaults=True,
    forbid_unknown_fields=True,
    gc=False,
):
    """Base of every game event.  Subclasses are tagged with their class name."""

    seq: int | None = None
    at: str | None = None
    note: str | None = None
    prev: str | None = None

    #: D (decision), R (random outcome) or X (derived by the engine)
    kind: ClassVar[str] = "D"

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__

    def __repr__(self) -> str:
        """The event as a person reads it: ``<CardDrawn: bob: draw Black Gem>``, its game's notation
        (:func:`adjudicator.core.kernel.notation.event_repr`, set as :data:`REPR` when the registry is
        imported, without a position), or the fields where no registered game holds the class."""
        if REPR is not None:
            return REPR(self)
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__struct_fields__ if getattr(self, f) is not None)
        return f"{type(self).__name__}({fields})"


def bare(event: Event) -> Event:
    """The event without its envelope (for comparing a stated event with a derived one)."""
    if event.seq is None and event.at is None and event.note is None and event.prev is None:
        return event
    return msgspec.structs.replace(event, seq=None, at=None, note=None, prev=None)


def states(derived: Event, stated: Event) -> bool:
    """Whether the log's ``stated`` event states the engine's ``derived`` one: equal without their
    envelopes, or differing only in fields the log leaves out (null) whose default is null: a
    field added to an event after a log was written is not stated by that log (LOG-2)."""
    a, b = bare(derived), bare(stated)
    if a == b:
        return True
    if type(a) is not type(b):
        return False
    for f in msgspec.structs.fields(type(a)):
        mine, theirs = getattr(a, f.name), getattr(b, f.name)
        if mine != theirs and not (theirs is None and f.default is None):
            return False
    return True


def to_builtins(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict, exactly as it would be written as a log line."""
    return msgspec.to_builtins(event)


_encoder = msgspec.json.Encoder()


def encode_line(event: Event) -> bytes:
    return _encoder.encode(event)


#: what a viewer sees in place of a value hidden from them
HIDDEN = "?"


def hidden(values: tuple[str, ...]) -> tuple[str, ...]:
    """``values`` (cards in a zone) as a viewer who cannot see them sees them: the size only."""
    return (HIDDEN,) * len(values)


def masked(event: Event, *fields: str) -> Event:
    """``event`` with the named fields hidden, keeping their shape (a list keeps its length).

    Used by games' ``redact``: a player's view of an event names no card that player cannot see.
    """
    changes: dict[str, Any] = {}
    for f in fields:
        v = getattr(event, f)
        if v is None:
            continue
        if isinstance(v, list):
            changes[f] = [HIDDEN] * len(v)
        elif isinstance(v, dict):
            changes[f] = {}
        else:
            changes[f] = HIDDEN
    return msgspec.structs.replace(event, **changes) if changes else event


class JudgeRuling(Event, frozen=True):
    """A judge's decision about an earlier event of the match (any game; docs/log-format.md,
    "Judges' rulings", LOG-5).  The verifier follows it; it never changes what the log said.

    ``decision``: ``stands`` (an illegal event stands: the position continues from it, the
    irregularity kept as a warning), ``taken-back`` (the position returns to before the event; the
    events between it and the ruling are taken back with it), ``penalty`` (recorded and shown) or
    ``result`` (the match ends with ``result``/``winner``); on a derived (X) event the log states
    wrongly, ``stands`` puts the stated values in place of the engine's derivation and
    ``corrected`` reads the line as the engine's derivation.
    """

    kind: ClassVar[str] = "J"
    #: the number of the event ruled on (1 = MatchStarted), and optionally its line in the log
    event: int
    decision: Literal["stands", "taken-back", "corrected", "penalty", "result"]
    line: int | None = None
    #: who ruled, and why (free text)
    judge: str | None = None
    reason: str | None = None
    #: the player a penalty or a result concerns
    player: str | None = None
    #: the penalty, in words (``decision: penalty``)
    penalty: str | None = None
    #: the result a ``result`` ruling imposes: ``win`` (of ``winner``) or ``draw``
    result: Literal["win", "draw"] | None = None
    winner: str | None = None


# -- private information (docs/log-format.md, "Private information", LOG-6) --------------------------
#
# The moments a seat is shown what others are not: a look at an opponent's hand, at the top cards
# of a deck, at a face-down card; the order the looked-at cards are put back in; cards moved from
# one hidden zone to another.  The shape is shared by every game; what a zone is, when a look is
# owed or allowed, and what the look teaches the seat are each game's rules (its check and apply
# handlers for these types; a game that registers none refuses them).  Their hiding is written
# once, here (:func:`redact_private`): the cards are named in the record of a seat that saw them
# and ``"?"`` (the number kept) in every other seat's, so every seat's record shows that the look
# happened, who looked and at how many cards.


class CardsLooked(Event, frozen=True):
    """``player`` privately looks at cards of ``owner``'s ``zone`` (``hand``, ``deck-top``,
    ``deck-bottom``, ``locus``, ... as the game names its zones) and sees ``cards``, in order (a
    deck's top first; ``slots`` name the positions of a zone of slots).  Nothing moves.

    A random outcome: the log states what was seen, the engine checks it is possible."""

    kind: ClassVar[str] = "R"
    player: str
    owner: str
    zone: str
    cards: list[str | None]
    slots: list[int] | None = None
    #: the card or effect that let the seat look (informational unless the game checks it)
    source: str | None = None


class CardsReordered(Event, frozen=True):
    """``player`` puts back the cards of ``owner``'s ``zone`` it looked at, in a new order:
    ``cards`` top first (of a deck's top or bottom, as ``zone`` says).  A decision."""

    player: str
    owner: str
    zone: str
    cards: list[str | None]
    source: str | None = None


class CardsMoved(Event, frozen=True):
    """Cards move from one hidden zone of ``owner`` to another (``from_zone`` -> ``to_zone``: a
    deck card put face down into the Locus, a hand discarded by an effect), ``cards`` in order.
    ``seen_by``: the seats shown the identities as they move (the owner only, both, or nobody);
    ``player``: whose decision or effect moved them.  A random outcome when chosen by no one."""

    kind: ClassVar[str] = "R"
    owner: str
    from_zone: str
    to_zone: str
    cards: list[str | None]
    seen_by: list[str] = []
    player: str | None = None
    slots: list[int] | None = None
    source: str | None = None


#: the private-information events and the seats that see their cards (everyone else sees "?")
PRIVATE_EVENTS: tuple[type[Event], ...] = (CardsLooked, CardsReordered, CardsMoved)


def sees_private(event: Event, player: str) -> bool:
    """Whether ``player``'s record names the cards of the private-information ``event``."""
    if type(event) is CardsMoved:
        return player in event.seen_by
    return event.player == player  # type: ignore[attr-defined]


def redact_private(event: Event, player: str | None) -> Event:
    """A private-information event as ``player`` saw it (None: the judge sees everything): the
    cards of a look, a reorder or a move are named only for the seats that saw them."""
    if player is None or sees_private(event, player):
        return event
    return masked(event, "cards")


def describe_private(event: Event) -> str:
    """A private-information event in words, as the record it is in names it: the cards for the
    seat that saw them, only that it happened (who, whose, how many) for the others."""
    cards = list(event.cards)  # type: ignore[attr-defined]
    n = len(cards)
    many = f"{n} card{'' if n == 1 else 's'}"
    known = [c for c in cards if c is not None and c != HIDDEN]
    names = f": {', '.join(c if c is not None else HIDDEN for c in cards)}" if known else ""
    source = f" ({event.source})" if event.source else ""  # type: ignore[attr-defined]
    slots = getattr(event, "slots", None)
    at = f" (slot{'s' if len(slots) != 1 else ''} {', '.join(map(str, slots))})" if slots else ""
    if type(event) is CardsLooked:
        return f"{event.player} looked at {many} of {event.owner}'s {event.zone}{at}{source}{names}"
    if type(event) is CardsReordered:
        return f"{event.player} put {many} of {event.owner}'s {event.zone} back in a new order{source}{names}"
    e: Any = event
    by = f" by {e.player}" if e.player else ""
    seen = f", seen by {', '.join(e.seen_by)}" if e.seen_by else ", seen by no one"
    return f"{many} of {e.owner}'s {e.from_zone} moved to {e.owner}'s {e.to_zone}{by}{at}{source}{seen}{names}"


#: events every game's log may carry besides its own (added to each game's decoder)
CORE_EVENTS: tuple[type[Event], ...] = (JudgeRuling, *PRIVATE_EVENTS)
