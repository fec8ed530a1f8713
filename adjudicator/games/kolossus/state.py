"""The Kolossus position: immutable msgspec Structs (a position document round-trips).

``State.step`` says what must happen next and ``State.seat`` whose warband it concerns:

=============== ==================================================================
``skills``       SkillsChosen by the seat's warband (chapter 2+, seat order)
``place``        MiniaturesPlaced by the seat's warband (seat order)
``quake-roll``   QuakeRolled, then ``quake-shift``: QuakeShifted (the Great Quake)
``allocate``     ManaAllocated (after a turn, or a Great Quake move, with mana gained)
``round-start``  derived RoundStarted
``turn-start``   derived TurnStarted
``destiny``      DestinyRolled
``act``          ActivationDeclared, TurnEnded, Titan Powers, a Spear/Hammer after a move
``roll``         MovementRolled for the declared activation
``move``         MiniatureMoved
``game-end``     derived GameEnded after the last round
``over``         nothing
=============== ==================================================================

Consequences of a decision (a beaten miniature, crystals captured) wait in ``queue`` as the
derived events that report them; ``ending`` holds a due end of the match (a wiped-out warband).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from .events import CrystalsCaptured, MatchStarted, MiniatureBeaten

CHARACTERS: tuple[str, ...] = ("warrior", "guardian", "colossus")
#: activation cost and movement dice per class (seed 002, chapter 1, IV.1)
COST = {"warrior": 1, "guardian": 2, "colossus": 3}
DICE = {"warrior": 1, "guardian": 2, "colossus": 3}
#: miniatures per warband
ARMY = {"warrior": 5, "guardian": 2, "colossus": 1}
WARBANDS: dict[str, str] = {"tuatha": "Tua'tha", "krell": "Krell", "ishtari": "Ishtari", "firbolg": "Firbolg"}
COLOURS: dict[str, str] = {"tuatha": "blue", "krell": "yellow", "ishtari": "green", "firbolg": "red"}
WEAPONS: dict[str, str] = {"sword": "Sword of Storm", "whip": "Whip of Wrath", "spear": "Spear of Vengeance",
                           "hammer": "Hammer of Doom"}
DEFAULT_WEAPONS: dict[str, str] = {"tuatha": "sword", "krell": "whip", "ishtari": "spear", "firbolg": "hammer"}
#: mana on a character board (seed 002, chapter 2, I)
MANA = 20
INITIAL_SKILLS = 4
POOL_MAX = 5
WEAPON_CHARGE = 2
EARTHQUAKE_COST = 3
REBIRTH_COST = {"warrior": 1, "guardian": 2, "colossus": 3}


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Ruleset options (docs/rules/kolossus.md names the gap each one settles)."""

    #: KO-31: the chapter of seed 002 in play (cumulative); set by the presets
    chapter: Literal[1, 2, 3] = 1
    #: KO-1: the board data file (data/<board>.toml): levels, start zones, central regions
    board: str = "zikkurat-11"
    #: KO-3: the regions the Great Quake may shift: the board's central ones, or any of them
    quake_regions: Literal["central", "all"] = "central"
    #: KO-4: a Great Quake region moves exactly the die result, or up to it
    quake_distance: Literal["exact", "up-to"] = "exact"
    #: KO-7: one Great Quake move per warband, or per player
    quake_moves: Literal["warband", "player"] = "warband"
    #: KO-8: the Great Quake roll also gives mana (chapter 2+)
    invasion_mana: bool = True
    #: KO-9: mana gained for a die of destiny of 1, 2, 3, 4
    mana_table: tuple[int, int, int, int] = (3, 2, 1, 0)
    #: KO-10: a turn may end only when no activation is left that could be declared
    must_spend_all: bool = False
    #: KO-11: the miniature is chosen after the movement roll (off: named when declaring)
    choose_after_roll: bool = True
    #: KO-13: a change of direction may turn back the way the miniature came
    allow_reversal: bool = True
    #: KO-15: allied miniatures are passed over like one's own (off: they block the way)
    allies_as_own: bool = True
    #: KO-16: Defence is paid in movement points (cost) or only has to be left over (threshold)
    defence_mode: Literal["cost", "threshold"] = "cost"
    #: KO-18: crystals are captured by ending a move on the Citadel, or by entering it
    crystal_capture: Literal["end-of-move", "on-enter"] = "end-of-move"
    #: KO-20: after the last round, the crystal majority is relative or absolute
    crystal_majority: Literal["relative", "absolute"] = "relative"
    #: KO-21: the match ends when a warband (or a player's every warband) has no miniature left;
    #: "never" keeps playing (for generated long matches)
    wipeout: Literal["warband", "player", "never"] = "warband"
    #: KO-22: the Colossus can be beaten (off: immortal; only the board's edge takes it)
    colossus_beatable: bool = True
    #: KO-24: the most mana one skill may hold (None: no limit)
    skill_cap: int | None = None
    #: KO-25: the Titan Weapon of each warband's Colossus
    weapons: dict[str, Literal["sword", "whip", "spear", "hammer"]] = msgspec.field(default_factory=lambda: dict(DEFAULT_WEAPONS))
    #: KO-27: a miniature reborn this turn may still be activated this turn
    rebirth_can_activate: bool = False
    #: KO-29: the number of rounds (and of Crystals of Time)
    rounds: int = 12


PRESETS: dict[str, dict[str, object]] = {
    "chapter-1": {"chapter": 1},
    "chapter-2": {"chapter": 2},
    "chapter-3": {"chapter": 3},
}


class Piece(msgspec.Struct, frozen=True, gc=False):
    square: str
    warband: str
    character: Literal["warrior", "guardian", "colossus"]
    activated: bool = False
    reborn: bool = False


class Warband(msgspec.Struct, frozen=True, gc=False):
    id: str
    player: str
    corner: str
    #: miniatures beaten (off the board): warriors, guardians, colossus
    beaten: tuple[int, int, int] = (0, 0, 0)
    crystals: int = 0
    #: chapter 2+: the character board (skills per class: warrior, guardian, colossus)
    supply: int = 0
    attack: tuple[int, int, int] = (0, 0, 0)
    defence: tuple[int, int, int] = (0, 0, 0)
    #: mana gained this turn, waiting to be allocated at its end
    pending: int = 0
    #: chapter 3
    pool: int = 0
    weapon: str | None = None
    charged: bool = False


class Activation(msgspec.Struct, frozen=True, gc=False):
    character: Literal["warrior", "guardian", "colossus"]
    #: the miniature named when declaring (choose_after_roll off)
    square: str | None = None
    dice: tuple[int, ...] = ()
    mp: int = 0
    #: after the move: where the miniature stands and the movement points left
    at: str | None = None
    left: int = 0


class Result(msgspec.Struct, frozen=True):
    result: Literal["win", "draw"]
    winner: str | None
    alliance: tuple[str, ...]
    reason: str


Step = Literal["skills", "place", "quake-roll", "quake-shift", "allocate", "round-start", "turn-start",
               "destiny", "act", "roll", "move", "game-end", "over"]


class Seats:
    """What a position says of its warbands by id, for the frozen :class:`State` and the fold's
    working position alike (:class:`.working.Position`: the rules read both the same way)."""

    __slots__ = ()
    warbands: tuple[Warband, ...]
    seat: int
    #: the working position's own square index (:meth:`.queries.Queries.square_index`); a frozen
    #: State keeps none
    squares: tuple[tuple[Piece, ...], dict[str, int]] | None = None

    def wb(self, warband: str) -> Warband | None:
        for w in self.warbands:
            if w.id == warband:
                return w
        return None

    def seat_of(self, warband: str) -> int:
        for i, w in enumerate(self.warbands):
            if w.id == warband:
                return i
        return -1

    @property
    def current(self) -> Warband:
        return self.warbands[self.seat]


class State(msgspec.Struct, Seats, frozen=True, gc=False):
    setup: MatchStarted
    options: Options
    #: the four warbands in seat order (clockwise from the first player of round 1)
    warbands: tuple[Warband, ...]
    #: the level of every square, row by row from a1 (1 = bare board)
    levels: tuple[int, ...]
    citadel: str
    pieces: tuple[Piece, ...] = ()
    step: Step = "skills"
    #: the seat whose warband the step concerns
    seat: int = 0
    round: int = 0
    #: the first player's seat this round
    first: int = 0
    #: how many turns (or Great Quake moves) of this round are done
    order: int = 0
    #: Great Quake: regions already moved, players who moved one, the roll to use
    quaked: tuple[str, ...] = ()
    quakers: tuple[str, ...] = ()
    quake_roll: int = 0
    #: the turn: die of destiny (after Initiative), activation points left
    destiny: int = 0
    points: int = 0
    initiative: bool = False
    #: something was done since the die of destiny (an activation, a Titan Power)
    acted: bool = False
    activation: Activation | None = None
    #: crystals not yet placed, crystals on the Citadel, the seat that took the last one
    crystals_left: int = 0
    on_citadel: int = 0
    last_capture: int | None = None
    captured_by: int | None = None
    #: dice recorded so far (the generator's position)
    rolls: int = 0
    queue: tuple[MiniatureBeaten | CrystalsCaptured, ...] = ()
    ending: Result | None = None
    result: Result | None = None
