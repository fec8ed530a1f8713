"""A Kolossus position as a game-neutral scene (for the replay viewers).

The board is a grid (columns ``a``.., rows numbered from the south edge, drawn with the highest
row on top); every square has its level and terrain (``board``, ``woods``, ``hills``,
``mountains``, ``citadel``), the miniature on it (owner = warband, kind = warrior / guardian /
colossus) and markers (one ``crystal`` per Crystal of Time on the Citadel).  The players of the
scene are the four warbands, with their colours and alliances.
Kolossus hides nothing (:meth:`Kolossus.view`): a player's scene is the judge's scene.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.scene import Board, Cell, Counter, Piece, PlayerInfo, Scene

from .basics import CI, board_of
from .board import LETTERS
from .state import CHARACTERS, COLOURS, WARBANDS, WEAPONS, State

TERRAIN = {1: "board", 2: "woods", 3: "hills", 4: "mountains", 5: "citadel"}
LETTER = {"tuatha": "T", "krell": "K", "ishtari": "I", "firbolg": "F"}
CLASS = {"warrior": "w", "guardian": "g", "colossus": "c"}
#: what a warband does at each step where someone acts
STEPS = {"skills": "choose skills", "place": "place miniatures", "quake-roll": "Great Quake roll",
         "quake-shift": "Great Quake shift", "allocate": "allocate mana", "destiny": "die of destiny",
         "act": "activate or end the turn", "roll": "movement roll", "move": "move"}


def alliance(seat: int) -> str:
    """Opposite seats are allied: A (seats 1 and 3) and B (seats 2 and 4)."""
    return "A" if seat % 2 == 0 else "B"


def build_board(s: State) -> Board:
    b = board_of(s)
    n = b.size
    occ = {p.square: p for p in s.pieces}
    cells: list[Cell] = []
    for r in range(n - 1, -1, -1):
        for c in range(n):
            i = r * n + c
            name = b.names[i]
            level = s.levels[i]
            pieces: list[Piece] = []
            markers: list[str] = []
            p = occ.get(name)
            if p is not None:
                pieces.append(Piece(id=f"{p.warband}:{p.character}:{name}", owner=p.warband, kind=p.character,
                                    label=f"{LETTER.get(p.warband, p.warband[:1].upper())}{CLASS[p.character]}"))
            if name == s.citadel:
                markers += ["crystal"] * s.on_citadel
            cells.append(Cell(id=name, x=c, y=n - 1 - r, level=level, terrain=TERRAIN.get(level, "board"),
                              label=name, pieces=pieces, markers=markers))
    return Board(kind="grid", width=n, height=n, cells=cells, columns=[LETTERS[c] for c in range(n)],
                 rows=[str(r + 1) for r in range(n - 1, -1, -1)])


def scene(game: Any, s: State, player: str | None) -> Scene:
    infos: list[PlayerInfo] = []
    counters: list[Counter] = [Counter(id="round", label="Round", value=s.round, max=s.options.rounds)]
    for i, w in enumerate(s.warbands):
        infos.append(_info(s, i, w))
        counters += _warband_counters(s, w)
    counters += _shared_counters(s)
    status, outcome, notes = _status(game, s)
    if _in_turn(s):
        notes += _turn_notes(game, s)
    return Scene(game=game.id, view=player, status=status, players=infos, to_act=game.to_act(s),
                 board=build_board(s), counters=counters, notes=notes, outcome=outcome)


def _in_turn(s: State) -> bool:
    return s.round > 0 and s.result is None and s.step in ("act", "roll", "move")


def _info(s: State, i: int, w: Any) -> PlayerInfo:
    detail = [f"player {w.player}", f"alliance {alliance(i)}", f"corner {w.corner}"]
    if s.options.chapter >= 3 and w.weapon:
        detail.append(WEAPONS.get(w.weapon, w.weapon) + (" (charged)" if w.charged else ""))
    if s.round and i == s.first and s.result is None:
        detail.append("first player this round")
    return PlayerInfo(id=w.id, label=WARBANDS.get(w.id, w.id), colour=COLOURS.get(w.id), detail=", ".join(detail))


def _warband_counters(s: State, w: Any) -> list[Counter]:
    """Crystals and miniatures; from chapter 2 mana and skills; from chapter 3 the mana pool."""
    chapter = s.options.chapter
    on_board = sum(1 for p in s.pieces if p.warband == w.id)
    counters = [
        Counter(id=f"{w.id}.crystals", label="Crystals", value=w.crystals, owner=w.id),
        Counter(id=f"{w.id}.miniatures", label="Miniatures on the board", value=on_board, owner=w.id, max=8),
    ]
    if chapter >= 2:
        skills = " ".join(f"{c[0]} {w.attack[CI[c]]}/{w.defence[CI[c]]}" for c in CHARACTERS)
        counters += [
            Counter(id=f"{w.id}.supply", label="Mana supply", value=w.supply, owner=w.id),
            Counter(id=f"{w.id}.skills", label="Skills attack/defence", value=skills, owner=w.id),
        ]
        if w.pending:
            counters.append(Counter(id=f"{w.id}.pending", label="Mana gained this turn", value=w.pending, owner=w.id))
    if chapter >= 3:
        counters.append(Counter(id=f"{w.id}.pool", label="Mana pool", value=w.pool, owner=w.id))
    return counters


def _shared_counters(s: State) -> list[Counter]:
    """The alliances' crystals, the Citadel's, those to come, and the turn's dice and points."""
    counters = []
    for k in (0, 1):
        total = sum(w.crystals for i, w in enumerate(s.warbands) if i % 2 == k)
        names = "+".join(w.id for i, w in enumerate(s.warbands) if i % 2 == k)
        counters.append(Counter(id=f"alliance-{alliance(k)}.crystals", label=f"Crystals, alliance {alliance(k)} ({names})",
                                value=total))
    counters += [
        Counter(id="citadel.crystals", label="Crystals on the Citadel", value=s.on_citadel),
        Counter(id="crystals.left", label="Crystals still to come", value=s.crystals_left),
    ]
    if _in_turn(s):
        counters += [
            Counter(id="turn.destiny", label="Die of destiny", value=s.destiny, owner=s.current.id),
            Counter(id="turn.points", label="Activation points left", value=s.points, owner=s.current.id),
        ]
        a = s.activation
        if a is not None and a.dice:
            counters.append(Counter(id="turn.mp", label="Movement points", owner=s.current.id,
                                    value=a.left if a.at else a.mp))
    return counters


def _status(game: Any, s: State) -> tuple[str, str | None, list[str]]:
    """The status line, the outcome (None while the match goes on) and the first notes."""
    notes: list[str] = []
    outcome: str | None = None
    if s.result is not None:
        r = s.result
        outcome = f"{r.winner} ({'+'.join(r.alliance)}) win by {r.reason}" if r.winner else f"draw ({r.reason})"
        status = f"round {s.round}, over: {outcome}"
    else:
        if s.round == 0:
            status = "set-up" if s.step in ("skills", "place") else "the Great Quake"
        else:
            status = f"round {s.round} of {s.options.rounds}"
        if len(s.warbands) == 4:
            status += f", {s.current.id}'s {'turn' if s.round else 'step'}"
            if s.step in STEPS:
                status += f" ({STEPS[s.step]})"
            notes.append(f"waiting for: {game.rules.expected(s)}")
    if s.last_capture is not None:
        notes.append(f"last crystals captured by {s.warbands[s.last_capture].id}")
    return status, outcome, notes


def _turn_notes(game: Any, s: State) -> list[str]:
    """The pieces activated and reborn this turn, the Initiative, the activation and, while a
    piece moves, the squares it can reach."""
    notes: list[str] = []
    a = s.activation
    done = [p.square for p in s.pieces if p.warband == s.current.id and p.activated]
    reborn = [p.square for p in s.pieces if p.warband == s.current.id and p.reborn]
    if done:
        notes.append(f"activated this turn: {', '.join(done)}")
    if reborn:
        notes.append(f"reborn this turn: {', '.join(reborn)}")
    if s.initiative:
        notes.append("Initiative used this turn")
    if a is not None:
        notes.append(f"activation: {a.character}" + (f" on {a.square}" if a.square else "")
                     + (f", dice {list(a.dice)} = {a.mp} movement points" if a.dice else "")
                     + (f", moved to {a.at} with {a.left} left" if a.at else ""))
    if s.step == "move":
        b = board_of(s)
        reach: dict[str, list[str]] = {}
        for e in game.legal_events(s):
            if not e.path:
                continue
            ends = reach.setdefault(e.path[0], [])
            if e.path[-1] not in ends:
                ends.append(e.path[-1])
        for frm, ends in reach.items():
            ends.sort(key=lambda n: b.index[n])
            notes.append(f"reachable from {frm} ({len(ends)}): {' '.join(ends)}")
    return notes


def turn_number(s: State) -> int:
    """One more at each warband's step of the set-up and each warband's turn (monotone).

    Set-up (round 0): skills 0-3 and placement 4-7 by seat, the Great Quake 8-11 by order;
    round ``r``: ``12 + 4 (r - 1) + order`` (``order`` reaches 4 once the round's last turn is
    done, which is the next round's first number)."""
    if s.round == 0:
        if s.step == "skills":
            return s.seat
        if s.step == "place":
            return 4 + s.seat
        if s.step in ("quake-roll", "quake-shift", "allocate"):
            return 8 + s.order
        return 12
    return 12 + 4 * (s.round - 1) + s.order
