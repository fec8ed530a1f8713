"""Builders for readable Kolossus tests: set-ups, scripted matches and crafted positions.

``Script`` starts a match and appends events through short helpers, each checked with the
engine's own ``propose`` (a builder step that is illegal fails loudly with the engine's ruling).
``Script.to_round()`` plays a standard set-up (skills, placement, a Great Quake that moves four
central regions by one square) up to the first turn of round 1.

``position(...)`` crafts a position for a single rule: it takes the state of a real match at the
start of round 1 and replaces the pieces, levels, the step and the activation, so a test states
exactly the facts a ruling depends on.  Pieces are written ``{"e5": "Tg"}``: warband T (Tua'tha),
K (Krell), I (Ishtari), F (Firbolg), class w/g/c.  Seats: tuatha NW, krell NE, ishtari SE,
firbolg SW; alliances tuatha+ishtari and krell+firbolg.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

import adjudicator.games.kolossus  # noqa: F401  (registers the game)
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import to_jsonl
from adjudicator.core.kernel.rulings import Ruling
from adjudicator.core.kernel.verify import Result, propose, run, start
from adjudicator.games.kolossus import events as E
from adjudicator.games.kolossus.board import load_board
from adjudicator.games.kolossus.state import Activation, Piece, State

GAME = registry.get("kolossus")
BOARD = load_board("zikkurat-11")
NS = "kolossus/"

T, K, I, F = "tuatha", "krell", "ishtari", "firbolg"
CODE = {"T": T, "K": K, "I": I, "F": F}
CLASS = {"w": "warrior", "g": "guardian", "c": "colossus"}
SEATS4 = [(T, "ann", "NW"), (K, "ben", "NE"), (I, "cat", "SE"), (F, "dan", "SW")]

#: the default placement per corner: colossus, guardians, warriors
PLACE = {
    "NW": ("b10", ["a10", "c10"], ["a9", "b9", "a11", "b11", "c11"]),
    "NE": ("j10", ["i10", "k10"], ["j9", "k9", "i11", "j11", "k11"]),
    "SE": ("j2", ["i2", "k2"], ["i1", "j1", "k1", "j3", "k3"]),
    "SW": ("b2", ["a2", "c2"], ["a1", "b1", "c1", "a3", "b3"]),
}
#: the default Great Quake: (region, direction) per move, each by the roll of 1
QUAKE = [("row-4", "W"), ("row-8", "E"), ("column-d", "N"), ("column-h", "S")]


def setup(ruleset: str = "chapter-1", options: dict[str, Any] | None = None, *, players: int = 4,
          seats: list[tuple[str, str, str]] | None = None, seed: int | None = None, rng: str | None = None) -> E.MatchStarted:
    seats = seats or SEATS4
    if players == 2 and seats is SEATS4:
        seats = [(T, "ann", "NW"), (K, "ben", "NE"), (I, "ann", "SE"), (F, "ben", "SW")]
    elif players == 3 and seats is SEATS4:
        seats = [(T, "ann", "NW"), (K, "ben", "NE"), (I, "ann", "SE"), (F, "cat", "SW")]
    names = []
    for _, p, _ in seats:
        if p not in names:
            names.append(p)
    return E.MatchStarted(game="kolossus", players=names, seats=[E.Seat(warband=w, player=p, corner=c) for w, p, c in seats],
                          ruleset=ruleset, options=options or {}, seed=seed, rng=rng)


class IllegalStep(AssertionError):
    pass


class Script:
    def __init__(self, ruleset: str = "chapter-1", options: dict[str, Any] | None = None, *, players: int = 4,
                 match: E.MatchStarted | None = None, **kw: Any) -> None:
        self.match = match or setup(ruleset, options, players=players, **kw)
        state, ruling, derived = start(GAME, self.match)
        assert ruling.legal, ruling
        self.events: list[Event] = [self.match]
        self.notes: dict[int, str] = {}
        self._state: State = state
        self.derived: list[Event] = list(derived)

    # -- basics -----------------------------------------------------------------------------------
    def state(self) -> State:
        return self._state

    @property
    def s(self) -> State:
        return self._state

    def check(self, event: Event) -> Ruling:
        return GAME.check(self._state, event)

    def add(self, event: Event, note: str | None = None) -> list[Event]:
        ruling, derived, new = propose(GAME, self._state, event)
        if not ruling.legal:
            raise IllegalStep(f"{event}: {ruling.rule} [{ruling.code}] {ruling.message}")
        if note:
            event = msgspec.structs.replace(event, note=note)
        self.events.append(event)
        self._state = new
        self.derived = list(derived)
        return self.derived

    def lines(self) -> bytes:
        return to_jsonl(self.events)

    def verify(self) -> Result:
        return run(parse_log(self.lines(), "script"))

    @property
    def turn(self) -> str:
        return self._state.current.id

    # -- set-up -----------------------------------------------------------------------------------
    def skills_all(self, skills: dict[str, tuple[dict[str, int], dict[str, int]]] | None = None) -> None:
        while self._state.step == "skills":
            w = self.turn
            att, dfc = (skills or {}).get(w, ({"warrior": 2}, {"guardian": 2}))
            self.add(E.SkillsChosen(warband=w, attack=att, defence=dfc))

    def place_all(self, placements: dict[str, tuple[str, list[str], list[str]]] | None = None) -> None:
        while self._state.step == "place":
            w = self._state.current
            c, gs, ws = (placements or {}).get(w.id, PLACE[w.corner])
            self.add(E.MiniaturesPlaced(warband=w.id, colossus=c, guardians=gs, warriors=ws))

    def quake_all(self, moves: list[tuple[str, str]] | None = None, rolls: list[int] | None = None) -> None:
        moves = list(moves or QUAKE)
        rolls = list(rolls or [1, 1, 1, 1])
        while self._state.step in ("quake-roll", "quake-shift", "allocate") and self._state.round == 0:
            w = self.turn
            if self._state.step == "quake-roll":
                self.add(E.QuakeRolled(warband=w, value=rolls.pop(0)))
            elif self._state.step == "quake-shift":
                r, d = moves.pop(0)
                self.add(E.QuakeShifted(warband=w, region=r, direction=d, distance=self._state.quake_roll))
            else:
                self.allocate()

    def to_round(self, **kw: Any) -> "Script":
        self.skills_all(kw.get("skills"))
        self.place_all(kw.get("placements"))
        self.quake_all(kw.get("quake"), kw.get("rolls"))
        return self

    # -- a turn -----------------------------------------------------------------------------------
    def destiny(self, v: int) -> None:
        self.add(E.DestinyRolled(warband=self.turn, value=v))

    def activate(self, character: str, square: str | None = None) -> None:
        self.add(E.ActivationDeclared(warband=self.turn, character=character, square=square))

    def roll(self, *dice: int) -> None:
        self.add(E.MovementRolled(warband=self.turn, dice=list(dice)))

    def move(self, *path: str, weapon: str | None = None, note: str | None = None) -> list[Event]:
        return self.add(E.MiniatureMoved(warband=self.turn, path=list(path), weapon=weapon), note)

    def end_turn(self) -> None:
        self.add(E.TurnEnded(warband=self.turn))
        if self._state.step == "allocate":
            self.allocate()

    def allocate(self, attack: dict[str, int] | None = None, defence: dict[str, int] | None = None,
                 pool: int = 0, weapon: int = 0) -> None:
        """Allocate: by default all gained mana to warrior attack."""
        w = self._state.current
        if attack is None and defence is None and not pool and not weapon:
            attack = {"warrior": w.pending} if w.pending else {}
        self.add(E.ManaAllocated(warband=w.id, attack=attack or {}, defence=defence or {}, pool=pool, weapon=weapon))


def pieces(spec: dict[str, str]) -> tuple[Piece, ...]:
    return tuple(Piece(sq, CODE[code[0]], CLASS[code[1]]) for sq, code in spec.items())


_BASE: dict[tuple[str, str], State] = {}


def base_state(ruleset: str = "chapter-1", options: dict[str, Any] | None = None, players: int = 4) -> State:
    key = (ruleset, repr(sorted((options or {}).items())) + str(players))
    if key not in _BASE:
        _BASE[key] = Script(ruleset, options, players=players).to_round().state()
    return _BASE[key]


def flat_levels(overrides: dict[str, int] | None = None, *, board: bool = False) -> tuple[int, ...]:
    levels = list(BOARD.levels) if board else [1] * (BOARD.size * BOARD.size)
    for sq, v in (overrides or {}).items():
        levels[BOARD.index[sq]] = v
    return tuple(levels)


def position(spec: dict[str, str], *, turn: str = T, step: str = "act", ruleset: str = "chapter-1",
             options: dict[str, Any] | None = None, points: int = 4, character: str | None = None, mp: int = 0,
             levels: dict[str, int] | None = None, board_levels: bool = False, citadel: str | None = None,
             on_citadel: int = 0, players: int = 4, **state_changes: Any) -> State:
    """A crafted position: ``turn``'s warband at ``step`` with the pieces of ``spec``.

    Crafted positions play with ``wipeout="never"`` unless ``options`` names it.  The levels are
    flat (all 1) unless ``board_levels`` keeps the zikkurat; ``levels`` overrides
    single squares.  ``step="move"`` needs ``character`` and ``mp`` (the rolled activation)."""
    s = base_state(ruleset, options, players)
    if "wipeout" not in (options or {}):
        # a crafted position holds a few pieces only: no wipe-out end unless the test asks for it
        s = replace(s, options=replace(s.options, wipeout="never"))
    seat = s.seat_of(turn)
    lv = flat_levels(levels, board=board_levels)
    cit = citadel or ("f6" if board_levels else None)
    if cit is None:
        cit = "f6"
    s = replace(s, pieces=pieces(spec), levels=lv, citadel=cit, seat=seat, first=seat, order=0, round=1, step=step,
                destiny=points, points=points, on_citadel=on_citadel, crystals_left=11)
    if step in ("roll", "move"):
        assert character is not None
        s = replace(s, activation=Activation(character, dice=(mp,) if step == "move" else (), mp=mp if step == "move" else 0),
                    acted=True)
    return replace(s, **state_changes) if state_changes else s


def with_warband(s: State, warband: str, **changes: Any) -> State:
    seat = s.seat_of(warband)
    wbs = list(s.warbands)
    wbs[seat] = replace(wbs[seat], **changes)
    return replace(s, warbands=tuple(wbs))


def moved(path: list[str], warband: str = T, **kw: Any) -> E.MiniatureMoved:
    return E.MiniatureMoved(warband=warband, path=path, **kw)


def verify_events(events: list[Event]) -> Result:
    return run(parse_log(to_jsonl(events), "events"))


def encode(events: list[Event]) -> bytes:
    return to_jsonl(events)
