"""Kolossus events: one msgspec Struct per log line type (``type`` = class name).

Kinds: D = a warband's decision, R = a die roll the log records, X = a consequence the engine
derives (a log may state it; the engine then checks it against its own derivation).

Warbands are named ``tuatha``, ``krell``, ``ishtari`` and ``firbolg``; the player commanding a
warband is given by ``MatchStarted.seats``.  Squares are named ``a1`` (south-west corner) to
``k11``; miniatures are named by the square they stand on.  Character classes are ``warrior``,
``guardian`` and ``colossus``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.kit import GameEndedBase, MatchStartedBase

Warband = str
Character = Literal["warrior", "guardian", "colossus"]
Direction = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


class Seat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of the four seats: a warband, the player commanding it and its corner start zone."""

    warband: str
    player: str
    corner: str


class MatchStarted(MatchStartedBase):
    """``players``: 2 to 4 player ids."""

    #: the four seats in clockwise order, the first player's seat first
    seats: list[Seat]
    ruleset: str = "chapter-1"
    options: dict[str, Any] = {}
    #: with ``rng``: the seed of the generator every recorded die must match
    seed: int | None = None
    #: a named die generator (``python-random``: ``random.Random(seed).randint(1, 4)`` per die)
    rng: str | None = None
    #: the sha256 of the canonical content of the board ``options.board`` names (docs/log-format.md,
    #: "Data by id and hash"); None: the board found by id (reported)
    board_sha256: str | None = None


# -- set-up ----------------------------------------------------------------------------------------

class SkillsChosen(Event):
    """Chapter 2+: the initial 4 mana on the Attack/Defence skills of the character classes."""

    warband: str
    attack: dict[str, int] = {}
    defence: dict[str, int] = {}


class MiniaturesPlaced(Event):
    """A warband's 8 miniatures placed on squares of its own start zone."""

    warband: str
    colossus: str
    guardians: list[str]
    warriors: list[str]


class QuakeRolled(Event):
    kind: ClassVar[str] = "R"
    warband: str
    value: int


class QuakeShifted(Event):
    """The Great Quake: one region slides ``distance`` squares in ``direction``."""

    warband: str
    region: str
    direction: Direction
    distance: int


# -- rounds and turns --------------------------------------------------------------------------------

class RoundStarted(Event):
    """Derived: a new round; a Crystal of Time is placed on the Citadel (``crystals`` now there)."""

    kind: ClassVar[str] = "X"
    round: int
    first: str
    crystals: int


class TurnStarted(Event):
    kind: ClassVar[str] = "X"
    round: int
    warband: str


class DestinyRolled(Event):
    kind: ClassVar[str] = "R"
    warband: str
    value: int


class InitiativeUsed(Event):
    """Chapter 3 Titan Power: 1 pool mana adds 1 to the die of destiny (at most 4)."""

    warband: str


class ActivationDeclared(Event):
    """A character class chosen for the next activation (``square``: with choose_after_roll off)."""

    warband: str
    character: Character
    square: str | None = None


class MovementRolled(Event):
    kind: ClassVar[str] = "R"
    warband: str
    dice: list[int]


class MiniatureMoved(Event):
    """The activated miniature's move, as a ``path`` of squares from its own square (a path of one
    square is a move of no steps), or as ``start``, ``direction``, ``steps`` and, after a change of
    direction, ``turn`` and ``turn_steps``.  ``weapon``: a Sword of Storm or Whip of Wrath used by
    a Colossus during this move (chapter 3)."""

    warband: str
    path: list[str] = []
    start: str | None = None
    direction: Direction | None = None
    steps: int | None = None
    turn: Direction | None = None
    turn_steps: int | None = None
    weapon: Literal["sword", "whip"] | None = None


class WeaponUsed(Event):
    """Chapter 3: the Spear of Vengeance or the Hammer of Doom, after the Colossus moved."""

    warband: str
    weapon: Literal["spear", "hammer"]
    targets: list[str]


class EarthquakeUsed(Event):
    """Chapter 3 Titan Power: 3 pool mana slide a region one square."""

    warband: str
    region: str
    direction: Direction


class RebirthUsed(Event):
    """Chapter 3 Titan Power: a beaten miniature returns to a free square of the start zone."""

    warband: str
    character: Character
    square: str


class MiniatureBeaten(Event):
    """Derived: a miniature leaves the board (``by``: the warband that beat it, or ``earthquake``)."""

    kind: ClassVar[str] = "X"
    warband: str
    character: Character
    square: str
    by: str


class CrystalsCaptured(Event):
    kind: ClassVar[str] = "X"
    warband: str
    count: int


class TurnEnded(Event):
    warband: str


class ManaAllocated(Event):
    """Chapter 2+: the mana gained this turn put on skills (chapter 3: pool, weapon charge)."""

    warband: str
    attack: dict[str, int] = {}
    defence: dict[str, int] = {}
    pool: int = 0
    weapon: int = 0


class GameEnded(GameEndedBase):
    """Derived: the match is over; ``winner`` names the winning alliance's players joined by
    ``+`` (None for a draw)."""

    #: the winning alliance's warbands
    alliance: list[str] = []


EVENT_TYPES: tuple[type[Event], ...] = (
    MatchStarted, SkillsChosen, MiniaturesPlaced, QuakeRolled, QuakeShifted, RoundStarted,
    TurnStarted, DestinyRolled, InitiativeUsed, ActivationDeclared, MovementRolled, MiniatureMoved,
    WeaponUsed, EarthquakeUsed, RebirthUsed, MiniatureBeaten, CrystalsCaptured, TurnEnded,
    ManaAllocated, GameEnded,
)
