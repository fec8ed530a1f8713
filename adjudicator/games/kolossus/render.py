"""Text rendering of a Kolossus position (``adjudicator state``): the board as a grid of levels
and pieces, then the warbands, the crystals and what happens next."""

from __future__ import annotations

from typing import Any

from .basics import CI, board_of, wname
from .state import CHARACTERS, WEAPONS, State

LETTER = {"tuatha": "T", "krell": "K", "ishtari": "I", "firbolg": "F"}
CLASS = {"warrior": "w", "guardian": "g", "colossus": "c"}


def describe(game: Any, s: State, player: str | None) -> str:
    rules = game.rules
    b = board_of(s)
    lines: list[str] = []
    view = "judge" if player is None else f"{player} (Kolossus hides nothing: the judge's view)"
    if s.result is not None:
        r = s.result
        status = f"over: {r.winner} ({'+'.join(r.alliance)}) win by {r.reason}" if r.winner else f"over: draw ({r.reason})"
    elif s.round == 0:
        status = "set-up" if s.step in ("skills", "place") else "the Great Quake"
    else:
        status = f"round {s.round} of {s.options.rounds}, {s.current.id}'s turn"
    lines.append(f"Kolossus - {status}; view: {view}; ruleset {s.setup.ruleset} (chapter {s.options.chapter}), board {b.name}")
    if s.result is None:
        lines.append(f"next: {rules.expected(s)}; to act: {', '.join(game.to_act(s)) or '-'}")
    occ = rules.occupancy(s)
    lines.append("")
    lines.append("     " + "".join(f"{b.names[c][0]:^5}" for c in range(b.size)))
    for r in range(b.size - 1, -1, -1):
        cells = []
        for c in range(b.size):
            i = r * b.size + c
            name = b.names[i]
            p = occ.get(name)
            mark = f"{LETTER.get(p.warband, '?')}{CLASS[p.character]}" if p is not None else ""
            if name == s.citadel and s.on_citadel:
                mark += "*"
            cells.append(f"{s.levels[i]}{mark:<3} ")
        lines.append(f"{r + 1:>3}  " + "".join(cells))
    lines.append("")
    lines.append("cells: level 1-5 (5 = the Citadel of Time), then a piece: warband T/K/I/F (Tua'tha, Krell, Ishtari, "
                 "Firbolg), class w/g/c; * = crystals on the Citadel")
    lines.append(f"crystals: {s.on_citadel} on the Citadel ({s.citadel}), {s.crystals_left} still to come; "
                 f"last captured by {s.warbands[s.last_capture].id if s.last_capture is not None else '-'}")
    for i, w in enumerate(s.warbands):
        mine = [p for p in s.pieces if p.warband == w.id]
        counts = ", ".join(f"{sum(1 for p in mine if p.character == c)} {c}" for c in CHARACTERS)
        first = " (first player)" if i == s.first and s.round else ""
        lines.append("")
        lines.append(f"[{w.id}] {wname(w.id)} - {w.player}, corner {w.corner}, alliance {'A' if i % 2 == 0 else 'B'}{first}: "
                     f"{w.crystals} crystal(s); on the board {counts}; beaten {w.beaten[0]}w {w.beaten[1]}g {w.beaten[2]}c")
        if s.options.chapter >= 2:
            sk = " ".join(f"{c[0]}:{w.attack[CI[c]]}/{w.defence[CI[c]]}" for c in CHARACTERS)
            extra = f"; supply {w.supply}; gained this turn {w.pending}"
            if s.options.chapter >= 3:
                extra += f"; pool {w.pool}; {WEAPONS.get(w.weapon or '', 'no weapon')} {'charged' if w.charged else 'not charged'}"
            lines.append(f"  skills attack/defence {sk}{extra}")
    if s.round and s.result is None and s.step in ("act", "roll", "move"):
        lines += turn_lines(game, s, b)
    return "\n".join(lines)


def turn_lines(game: Any, s: State, b: Any) -> list[str]:
    """The turn in progress: the die of destiny, the points left, the activation, where it can go."""
    lines: list[str] = []
    lines.append("")
    turn = f"turn: die of destiny {s.destiny}{' (Initiative)' if s.initiative else ''}, {s.points} activation points left"
    done = [p.square for p in s.pieces if p.warband == s.current.id and p.activated]
    lines.append(turn + (f"; activated: {', '.join(done)}" if done else ""))
    a = s.activation
    if a is not None:
        lines.append(f"activation: {a.character}" + (f" on {a.square}" if a.square else "")
                     + (f", dice {list(a.dice)} = {a.mp} movement points" if a.dice else "")
                     + (f", moved to {a.at} with {a.left} left" if a.at else ""))
    if s.step == "move":
        reach: dict[str, list[str]] = {}
        for e in game.legal_events(s):
            reach.setdefault(e.path[0], [])
            if e.path[-1] not in reach[e.path[0]]:
                reach[e.path[0]].append(e.path[-1])
        for frm, ends in reach.items():
            ends.sort(key=lambda n: b.index[n])
            lines.append(f"reachable from {frm} ({len(ends)}): {' '.join(ends)}")
    return lines
