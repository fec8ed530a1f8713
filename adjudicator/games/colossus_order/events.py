"""Colossus Order events: one msgspec Struct per log line type (``type`` = class name).

Kinds: D = a player's decision, R = a random outcome the log records, X = a consequence the
engine derives (a log may state it; the engine then checks it against its own derivation).
Cards are named by their pool id (``heroic-knight``); ``card: null`` stands for an identity the
log did not record, as ``"?"`` does (a seat's record, CO-39: draws, returned cards, Locus cards
set face down).  Followers
on the field are named by the handle the engine gives them when they enter (``F1``, ``F2`` ...,
shown by ``state`` and by the derived ``XPlayResolved``).  Locus slots are named by a stable slot
id (``1``, ``2`` ...): a new Locus card takes the next id, a replacement keeps its slot's id.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.kit import GameEndedBase, MatchStartedBase


class DeckList(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    colossus: str
    #: card id -> number of copies
    cards: dict[str, int]
    #: a deck list the record leaves unknown (``cards: {}``, CO-39.1): how many cards the deck
    #: holds (a seat sees the opponent's deck, not its cards).  None: 50 (CO-1.2); ``redact``
    #: writes it under ``deck_validation = "off"``, where any size is allowed
    size: int | None = None


class MatchStarted(MatchStartedBase):
    decks: dict[str, DeckList]
    ruleset: str = "2013"
    options: dict[str, Any] = {}
    pool: str = "sample"
    #: the sha256 of the pool's canonical content (docs/log-format.md, "Data by id and hash"): the
    #: match verifies only against exactly that pool; None: the pool found by id (reported)
    pool_sha256: str | None = None


# -- start of game -----------------------------------------------------------------------------

class DeckShuffled(Event):
    kind: ClassVar[str] = "R"
    player: str


class FirstPlayerDecided(Event):
    kind: ClassVar[str] = "R"
    player: str


class CardDrawn(Event):
    kind: ClassVar[str] = "R"
    player: str
    card: str | None


class CardsReturned(Event):
    """The opening-hand exchange: cards put on the bottom of the deck (known as a set, CO-35; in
    this order under ``returned_order = "as-listed"``)."""

    player: str
    #: ``"?"``/null: a card the record does not name (CO-39)
    cards: list[str | None]


# -- turn structure ----------------------------------------------------------------------------

class TurnStarted(Event):
    """Derived: a new turn; the Recovery step is part of it (followers ON, locus counter off)."""

    kind: ClassVar[str] = "X"
    turn: int
    player: str


class CompleteDeclared(Event):
    player: str
    slots: list[int]


class LocusRevealed(Event):
    kind: ClassVar[str] = "X"
    player: str
    slots: list[int]
    cards: list[str | None]


class DeclarationDiscarded(Event):
    player: str
    slots: list[int]


class CardSet(Event):
    """Set a card from hand as a Gem on the Colossus (``zone=gem``) or as a Locus (``zone=locus``)."""

    player: str
    #: ``"?"``/null for a Locus card set face down that the record does not name (CO-39)
    card: str | None
    zone: Literal["gem", "locus"]


class FollowerPlayed(Event):
    player: str
    card: str
    #: one follower handle per effect of its CIP abilities that needs a chosen target
    targets: list[str] = []


class ActionPlayed(Event):
    player: str
    card: str
    targets: list[str] = []


class FollowerAbilityActivated(Event):
    player: str
    follower: str
    ability: int = 0
    targets: list[str] = []


class ColossusAbilityActivated(Event):
    player: str
    ability: int = 0
    targets: list[str] = []


class EffectDeclared(Event):
    """The effect of card text the engine cannot model, as the players agreed it happened.

    Accepted for a card marked ``modelled = false`` and applied as stated; verdicts mark it
    *not engine-checked*."""

    player: str
    card: str
    text: str = ""
    destroy: list[str] = []
    damage: dict[str, int] = {}
    switch_on: list[str] = []
    switch_off: list[str] = []
    return_to_hand: list[str] = []
    draw: int = 0
    opponent_draw: int = 0


class AttackDeclared(Event):
    player: str
    attacker: str
    target: Literal["deck", "locus", "follower"]
    slot: int | None = None
    follower: str | None = None


class BlockDeclared(Event):
    player: str
    blocker: str


class BlockDeclined(Event):
    player: str


class XPlayPassed(Event):
    player: str


class XPlayResolved(Event):
    """Derived: the last item added to the X-play chain resolves (last in, first out)."""

    kind: ClassVar[str] = "X"
    player: str
    card: str
    #: the follower that entered (a follower card) or whose ability resolved
    follower: str | None = None


class BattleResolved(Event):
    kind: ClassVar[str] = "X"
    #: a locus hit's ``card`` is the defender's Locus card (its owner's list, not the attacker's)
    owners: ClassVar[dict[str, str]] = {"card": "opponent"}
    player: str
    attacker: str
    result: Literal["fizzled", "defended", "follower-damaged", "deck-hit", "locus-hit"]
    follower: str | None = None
    #: damage to the follower, or the number of cards a deck hit reveals (Crush)
    damage: int = 0
    #: with ``mutual_battle_damage``: the blocker's Attack dealt back to the attacker
    counter_damage: int = 0
    #: a deck hit: how many revealed Gems the attacker may capture
    capture: int = 0
    slot: int | None = None
    card: str | None = None


class LocusFlipped(Event):
    """Derived: the card a Locus slot shows once an effect turned it face up (CO-8.7): both
    players see it.  In a seat's record that left the card unknown the record states it, naming
    the card (CO-39.7)."""

    kind: ClassVar[str] = "X"
    player: str
    slot: int
    card: str | None


class CardsRevealed(Event):
    """The top cards of a deck revealed by a deck hit (as many as the attacker's Crush)."""

    kind: ClassVar[str] = "R"
    player: str
    cards: list[str | None]


class TopCardRevealed(Event):
    """One card revealed from the top of a deck by an effect (``reveal-top``): it stays on top,
    known to both players (CO-8.6).  One event per card, top card first."""

    kind: ClassVar[str] = "R"
    player: str
    card: str | None


class CardMilled(Event):
    """The top card of a deck put into its owner's discard pile by an effect (``mill``, CO-8.8).
    One event per card, top card first."""

    kind: ClassVar[str] = "R"
    player: str
    card: str | None


class GemsCaptured(Event):
    """The attacker's choice of revealed Gem cards to capture (up to its Capture)."""

    #: the cards are the defender's (the revealed top of their deck): a tournament's deck-list
    #: check counts them against the defender's registered list (docs/tournament.md, "Deck lists")
    owners: ClassVar[dict[str, str]] = {"cards": "opponent"}
    player: str
    cards: list[str]


class LocusReplaced(Event):
    """After a Locus Gem is captured, its owner puts a card from hand face down in that slot."""

    player: str
    #: ``"?"``/null: a card the record does not name (CO-39)
    card: str | None


class FollowerDestroyed(Event):
    kind: ClassVar[str] = "X"
    player: str
    follower: str
    card: str


class MainPhaseEnded(Event):
    player: str


class TurnEnded(Event):
    kind: ClassVar[str] = "X"
    turn: int
    player: str


class Conceded(Event):
    player: str


class CommitmentOpened(Event):
    """Opens a commitment a hidden card field held (CO-40): the card and the salt whose
    ``sha256("<card>:<salt>")`` it is.  Any time before the match ends, by the player who made it."""

    player: str
    #: ``sha256:`` and 64 hex digits, exactly as the hidden field held it
    commitment: str
    card: str
    salt: str


class GameEnded(GameEndedBase):
    """Derived: the match is over (the result, the winner, why)."""


EVENT_TYPES: tuple[type[Event], ...] = (
    MatchStarted, DeckShuffled, FirstPlayerDecided, CardDrawn, CardsReturned, TurnStarted,
    CompleteDeclared, LocusRevealed, DeclarationDiscarded, CardSet, FollowerPlayed, ActionPlayed,
    FollowerAbilityActivated, ColossusAbilityActivated, EffectDeclared, AttackDeclared,
    BlockDeclared, BlockDeclined, XPlayPassed, XPlayResolved, BattleResolved, CardsRevealed,
    GemsCaptured, LocusReplaced, FollowerDestroyed, MainPhaseEnded, TurnEnded, Conceded, GameEnded,
    TopCardRevealed, CardMilled, CommitmentOpened, LocusFlipped,
)
