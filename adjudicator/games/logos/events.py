"""LOGOS events: one msgspec Struct per log line type (``type`` = class name).

Kinds: D = a player's decision, R = a random outcome or a hidden identity the log records (a
draw, a reveal), X = a consequence the engine derives (a log may state it; the engine then checks
it against its own derivation).  Cards are named by their pool id (``archive-keeper``); players by
the ids ``MatchStarted.players`` gives them.  A round is: refill the card slots (``CardDrawn``),
Phase 1 choices (``BackupAssigned``, then ``CardPicked`` or ``CardCommitted``), the reveal
(``PickRevealed``), and the derived battle (``DirectionDetermined``, ``EffectResolved``, the
Backup window ``BackupCalled``/``BackupPassed``, ``StrikeResolved``, ``RoundEnded`` with the
combo pushes).  docs/games/logos.md describes every event with examples.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.kit import GameEndedBase, MatchStartedBase


class MatchStarted(MatchStartedBase):
    #: player id -> card id -> number of copies
    decks: dict[str, dict[str, int]]
    ruleset: str = "standard"
    options: dict[str, Any] = {}
    pool: str = "sample"
    #: the sha256 of the pool's canonical content (docs/log-format.md, "Data by id and hash"): the
    #: match verifies only against exactly that pool; None: the pool found by id (reported)
    pool_sha256: str | None = None


# -- Phase 1: refill and picks ------------------------------------------------------------------

class CardDrawn(Event):
    """A card from the player's deck fills the leftmost empty card slot (refill, LG-2.2)."""

    kind: ClassVar[str] = "R"
    player: str
    #: the card; ``"?"`` or null: unknown (a seat's record, docs/games/logos.md)
    card: str | None


class DeckRebuilt(Event):
    """Derived: an empty deck that must give a card is rebuilt from the discard pile (LG-4)."""

    kind: ClassVar[str] = "X"
    player: str
    count: int


class Defenseless(Event):
    """Derived: the player has no playable card; every slot is emptied for this round (LG-2.4)."""

    kind: ClassVar[str] = "X"
    player: str
    cards: list[str] = []


class BackupAssigned(Event):
    """Phase 1: a card goes from a card slot to the player's Backup Slot (LG-4.1)."""

    player: str
    #: the card; ``"?"`` or null: unknown (a seat's record, docs/games/logos.md)
    card: str | None


class CardPicked(Event):
    """Open picks (ruleset option ``picks = "open"``): the player's battle card, named at once."""

    player: str
    #: the card; ``"?"`` or null: unknown (a seat's record, docs/games/logos.md)
    card: str | None


class CardCommitted(Event):
    """Hidden picks: sha256 (lowercase hex) of the UTF-8 text ``<card>:<salt>`` (LG-3.4)."""

    player: str
    commitment: str


class PickRevealed(Event):
    """Hidden picks: the card and salt that open the player's commitment (LG-3.4)."""

    kind: ClassVar[str] = "R"
    player: str
    card: str
    salt: str


# -- Phase 2: the battle ------------------------------------------------------------------------

class DirectionDetermined(Event):
    """Derived: who attacks, before the effects and again after them (LG-5.1, LG-5.2, LG-7.5)."""

    kind: ClassVar[str] = "X"
    stage: Literal["before-effects", "after-effects"]
    basis: Literal["class", "speed", "deadlock", "defenseless"]
    attacker: str | None = None
    defender: str | None = None


class EffectResolved(Event):
    """Derived: one effect field of a battle card fires (LG-7.x).

    ``player`` owns ``card``; ``field`` is ``left`` (aimed at the opponent) or ``right`` (at the
    owner); ``target`` is the player it was aimed at; ``copied`` is the effect a Mimmick copied;
    ``value`` the hit points healed, the slots left, or the cards moved, where that applies;
    ``cards`` the cards Shuffle Hand or Remove Card Slot moved out of the target's card slots, in
    slot order (LG-42: ``"?"`` for one the seat that records it did not see; None when none moved,
    and in a log written before the field).
    """

    kind: ClassVar[str] = "X"
    #: ``cards`` left the target's card slots: the target's (a tournament's deck-list check)
    owners: ClassVar[dict[str, str]] = {"cards": "target"}
    player: str
    card: str
    field: Literal["left", "right"]
    effect: str
    target: str
    result: Literal["applied", "blocked", "no-target", "no-change"]
    copied: str | None = None
    value: int | None = None
    cards: list[str] | None = None


class BackupCalled(Event):
    """Phase 2: the Backup card replaces the player's battle card (LG-4.2).

    ``card``: the called card, turned face up in front of both players (LG-39).  A full log may
    leave it out (the engine knows the Backup Slot); a seat's record names it (``redact`` writes
    it), and then it must be the card the Backup Slot holds, or one the unknown Backup card can be."""

    player: str
    card: str | None = None


class BackupPassed(Event):
    """Phase 2: the player does not call the Backup card now (LG-17)."""

    player: str


class StrikeResolved(Event):
    """Derived: one strike: ``attack`` minus ``defense`` (when above 0) off the target's hit points."""

    kind: ClassVar[str] = "X"
    striker: str
    target: str
    attack: int
    defense: int
    damage: int
    hp: int
    #: a same-class answer to a first strike that did no damage (LG-5.4)
    counter: bool = False


class ComboPush(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Colours pushed into the leftmost panel of one combo counter, in the order pushed;
    ``counter`` is a player id, or ``shared`` with ``combo_counter = "shared"``."""

    counter: str
    colours: list[str]


class RoundEnded(Event):
    """Derived: the combo counters receive the battle cards' colours (``pushed``, LG-6.1), the
    battle cards go to the discard piles, temporary effects and shields end."""

    kind: ClassVar[str] = "X"
    round: int
    pushed: list[ComboPush] = []


class Resigned(Event):
    """A player resigns (any time before the end, LG-8.2; the result is option LG-28)."""

    player: str


class GameEnded(GameEndedBase):
    """Derived: the match is over (the result, the winner, why)."""


EVENT_TYPES: tuple[type[Event], ...] = (
    MatchStarted, CardDrawn, DeckRebuilt, Defenseless, BackupAssigned, CardPicked, CardCommitted,
    PickRevealed, DirectionDetermined, EffectResolved, BackupCalled, BackupPassed, StrikeResolved,
    RoundEnded, Resigned, GameEnded,
)
