"""Colossi events: one msgspec Struct per log line type (``type`` = class name).

Kinds: D = a player's decision, R = a random outcome the log records (a card, tile, Trait or Beast
drawn, a die roll), X = a consequence the engine derives (a log may state it; the engine then
checks it against its own derivation).

Names used in the fields: players by their id; spaces by their number on the island (``0`` ..
``26`` on the default board, see ``adjudicator state``); cards, tiles, Traits and Beasts by their
id in the package data (``short-rest``, ``lair-wind-beast``, ``sly``, ``wind-beast``).  Acolytes
of one player are alike, so an Acolyte is named by its owner and the space it stands on.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.kit import GameEndedBase, MatchStartedBase

Piece = Literal["colossus", "acolyte"]
Component = Literal["colossus", "acolyte", "banner", "beast", "gold", "blue", "green"]


class MatchStarted(MatchStartedBase):
    """``players``: in seat order (clockwise); 2 to 4."""

    ruleset: str = "standard"
    options: dict[str, Any] = {}
    #: the sha256 of the canonical content of the board ``options.board`` names (docs/log-format.md,
    #: "Data by id and hash"); None: the board found by id (reported)
    board_sha256: str | None = None


# -- set-up ---------------------------------------------------------------------------------------

class FirstPlayerDetermined(Event):
    kind: ClassVar[str] = "R"
    player: str


class TileSetAside(Event):
    """A Lair (the first two) or an Environment (the next eight) goes into the face-down tile deck."""

    kind: ClassVar[str] = "R"
    #: None or "?": unknown (a seat's record, CL-40)
    tile: str | None


class TraitRevealed(Event):
    """The top Trait of the Trait deck is turned face up in the row."""

    kind: ClassVar[str] = "R"
    trait: str


class TraitTaken(Event):
    """A Trait gained: from the face-up row, the top of the Trait deck (named), or a Growth pool."""

    player: str
    trait: str
    source: Literal["row", "deck", "growth"] = "row"


class CardDrawn(Event):
    kind: ClassVar[str] = "R"
    player: str
    #: None or "?": unknown (a seat's record, CL-40)
    card: str | None


class StartPlaced(Event):
    """A player's Starting Environment (with the Colossus and its Loot cubes) goes on an empty space."""

    player: str
    space: int


# -- the turn -------------------------------------------------------------------------------------

class TurnStarted(Event):
    kind: ClassVar[str] = "X"
    turn: int
    player: str


class PlayerNamed(Event):
    """Sly: the player whose pieces are roads for the turn player this turn."""

    player: str
    target: str


class TraitBorrowed(Event):
    """Mimicry: a Trait taken from another player until the end of the turn."""

    player: str
    trait: str


class Peeked(Event):
    """Soothsayer: the turn player looks at the top of the tile deck or of the Colossus card deck."""

    player: str
    deck: Literal["tiles", "cards"]


class TopRevealed(Event):
    """The next unknown item on top of a deck, as seen by the peeking player (Soothsayer)."""

    kind: ClassVar[str] = "R"
    player: str
    deck: Literal["tiles", "cards"]
    #: None or "?": unknown (a seat's record, CL-40)
    item: str | None


class LootReplenished(Event):
    """Replenish: every Loot-yielding tile without Loot cubes gets its cubes (these spaces)."""

    kind: ClassVar[str] = "X"
    spaces: list[int]


class CardDiscarded(Event):
    """A card thrown away: down to the hand limit, or sold at the Market."""

    player: str
    card: str


class Moved(Event):
    """One step of a piece to a neighbouring space.

    In one's own Actions a step with ``road: false`` costs an Action; ``road: true`` continues the
    piece's move for free from a space that held one of the player's own pieces when it entered
    (Road Movement).  ``owner`` names the owner of another player's piece (Influence, Purge,
    Domineering); it is left out for one's own pieces."""

    player: str
    piece: Piece
    space: int
    to: int
    owner: str | None = None
    road: bool = False


class AcolyteSpawned(Event):
    player: str
    space: int


class CardPlayed(Event):
    """A Colossus card played from hand, with the choices its text needs up front."""

    player: str
    card: str
    space: int | None = None
    target: str | None = None
    targets: list[str] = []
    beast: str | None = None
    direction: str | None = None
    trait: str | None = None


class BeastMoved(Event):
    """A Beast moved (the Move Beast step, Beast Whisperer, Walk, Beast Mantle, Domineering)."""

    player: str
    beast: str
    to: int


class ActionBought(Event):
    """Boldness: 2 Gold for one more Action."""

    player: str


class CardBought(Event):
    """Mercantile: 1 Gold for one Colossus card."""

    player: str


class Alchemized(Event):
    """Alchemist: a card or Trait (``item``), or a Banner or Acolyte on ``space``, turned into Gold."""

    player: str
    what: Literal["card", "trait", "banner", "acolyte"]
    item: str | None = None
    space: int | None = None


class TraitDiscarded(Event):
    player: str
    trait: str


class ActionsEnded(Event):
    player: str


class TileExplored(Event):
    kind: ClassVar[str] = "R"
    space: int
    tile: str


class BannerPhaseChosen(Event):
    player: str
    choice: Literal["deploy", "rest"]


class BannerRaised(Event):
    player: str
    space: int


class BannerMoved(Event):
    player: str
    space: int
    to: int


class BannerScored(Event):
    """A Banner collected and its space scored (Rest, Miracle, Nomadic); ``keep`` leaves it on the
    board (Stone Beast's lair)."""

    player: str
    space: int
    keep: bool = False


class Passed(Event):
    """Decline an optional step or finish a repeated one (Deploy, Recall, Market, ...)."""

    player: str


class SpaceChosen(Event):
    player: str
    space: int


class DirectionChosen(Event):
    player: str
    direction: str


class AcolytesPlaced(Event):
    """Acolytes from hand put on a space by a card's permission (Companionship, Necromancer, ...)."""

    player: str
    space: int
    count: int


class AcolytesResurrected(Event):
    """Resurrecting: this many of the Acolytes that just died go to the Colossus's space."""

    player: str
    count: int


class Reacted(Event):
    """Reactive: the player's Acolyte on ``space`` dies to kill ``victim``'s Acolyte on ``victim_space``."""

    player: str
    space: int
    victim: str
    victim_space: int


class CardGiven(Event):
    player: str
    to: str
    #: None or "?": unknown (a seat's record, CL-40)
    card: str | None


class GoldPaid(Event):
    player: str
    to: str
    amount: int


class CardsContributed(Event):
    """Exchange: the cards a player puts on the pile (possibly none)."""

    player: str
    #: an entry None or "?": unknown (a seat's record, CL-40)
    cards: list[str | None]


class CardDealt(Event):
    """Exchange: the next card of the pile, dealt to this player."""

    kind: ClassVar[str] = "R"
    player: str
    #: None or "?": unknown (a seat's record, CL-40)
    card: str | None


class TraitDrawn(Event):
    """Growth: a Trait drawn from the Trait deck into the pool passed around."""

    kind: ClassVar[str] = "R"
    trait: str


class TraitStolen(Event):
    """Mimesis: a Trait taken from an opponent."""

    player: str
    trait: str


class DieRolled(Event):
    kind: ClassVar[str] = "R"
    player: str
    value: int


class ComponentMoved(Event):
    """One component put down elsewhere (Launchpad, the Hungry Beast's lair).  ``owner`` is the
    player of a Colossus, Acolyte or Banner, or the id of a Beast; cubes have none."""

    player: str
    component: Component
    space: int
    to: int
    owner: str | None = None


class TileReplaced(Event):
    """The Void: the new random tile on a space."""

    kind: ClassVar[str] = "R"
    space: int
    tile: str


class BeastDrawn(Event):
    """Animalistic: the Beast not in the game that the player's Colossus now behaves like."""

    kind: ClassVar[str] = "R"
    player: str
    beast: str


class CardTaken(Event):
    """Parasitic: the opponent's card just played is taken from the discard pile for ``discard``."""

    player: str
    card: str
    discard: str


class TargetReached(Event):
    """Derived: a player reached the Gold target; the round is finished (CL-3)."""

    kind: ClassVar[str] = "X"
    player: str
    gold: int


class TurnEnded(Event):
    kind: ClassVar[str] = "X"
    turn: int
    player: str


class GameEnded(GameEndedBase):
    """Derived: the match is over; ``gold``: every player's Gold at the end."""

    gold: dict[str, int] = {}


EVENT_TYPES: tuple[type[Event], ...] = (
    MatchStarted, FirstPlayerDetermined, TileSetAside, TraitRevealed, TraitTaken, CardDrawn, StartPlaced,
    TurnStarted, PlayerNamed, TraitBorrowed, Peeked, TopRevealed, LootReplenished, CardDiscarded, Moved,
    AcolyteSpawned, CardPlayed, BeastMoved, ActionBought, CardBought, Alchemized, TraitDiscarded,
    ActionsEnded, TileExplored, BannerPhaseChosen, BannerRaised, BannerMoved, BannerScored, Passed,
    SpaceChosen, DirectionChosen, AcolytesPlaced, AcolytesResurrected, Reacted, CardGiven, GoldPaid,
    CardsContributed, CardDealt, TraitDrawn, TraitStolen, DieRolled, ComponentMoved, TileReplaced,
    BeastDrawn, CardTaken, TargetReached, TurnEnded, GameEnded,
)
