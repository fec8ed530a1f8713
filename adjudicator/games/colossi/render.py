"""Text rendering of a Colossi position (``adjudicator state``), per viewpoint."""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.events import HIDDEN

from . import engine as Q
from .data import board, content
from .state import State

KIND = {"grass": "g", "start": "S", "environment": "E", "lair": "L"}


def cell(s: State, i: int) -> str:
    sp = s.spaces[i]
    mark = "." if sp.tile is None else KIND[content().tiles[sp.tile].kind]
    if sp.beasts:
        mark = "*"
    return f"{i:>2}{mark}"


def island(s: State) -> list[str]:
    b = board(s.options.board, s.setup.board_sha256)
    xs = [x for x, _ in b.xy]
    ys = [y for _, y in b.xy]
    width = (max(xs) + 2) * 3
    rows = []
    for y in range(min(ys), max(ys) + 1):
        line = [" "] * width
        for i, (x, yy) in enumerate(b.xy):
            if yy == y:
                text = cell(s, i)
                line[x * 3: x * 3 + len(text)] = list(text)
        rows.append("  " + "".join(line).rstrip())
    return rows


def describe(game: Any, s: State, player: str | None) -> str:
    C = content()
    rules = game.rules
    ids = Q.seats(s)
    view = "judge (everything)" if player is None else f"{player} (hidden information masked)"
    if s.result is not None:
        r = s.result
        status = f"over: {r.winner} wins by {r.reason}" if r.winner else f"over: {r.result} ({r.reason})"
    elif s.turn_player:
        status = f"turn {s.turn}, {s.turn_player} to play"
    else:
        status = "set-up"
    lines = [f"Colossi - {status}; view: {view}; ruleset {s.setup.ruleset}; board {s.options.board}; "
             f"Gold target {s.options.gold_target}"]
    if s.result is None:
        lines.append(f"next: {rules.expected(s)}; to act: {', '.join(game.to_act(s)) or 'engine'}")
        if s.turn_player and s.info.actions >= 0:
            lines.append(f"actions left {s.info.actions}; moves {s.info.moves}; cards {s.info.cards}"
                         + (f"; road from {s.road.at} ({'open' if s.road.open else 'closed'})" if s.road else ""))
    lines.append("")
    lines.append("island (g grass, S start, E environment, L lair, . unexplored, * Beast):")
    lines += island(s)
    lines.append("")
    rows = []
    for i, sp in enumerate(s.spaces):
        if sp.tile is None and not sp.colossi and not sum(sp.acolytes) and not sp.beasts:
            continue
        tile = "(unexplored)" if sp.tile is None else C.tiles[sp.tile].name + (f" of {sp.owner}" if sp.owner else "")
        acols = " ".join(f"{ids[k]}:{n}" for k, n in enumerate(sp.acolytes) if n) or "-"
        rows.append((i, tile, sp, acols))
    # the tile column is as wide as its longest name: names are never cut ("Starting Environment of ann")
    w = max([len("tile")] + [len(t) for _i, t, _sp, _a in rows])
    lines.append(f"space  {'tile':<{w}} loot g/b/t  colossi    acolytes         banners      beasts        control")
    for i, tile, sp, acols in rows:
        lines.append(f"{i:>5}  {tile:<{w}} {sp.gold}/{sp.blue}/{sp.green:<7} {','.join(sp.colossi) or '-':<10} "
                     f"{acols:<16} {','.join(sp.banners) or '-':<12} {','.join(sp.beasts) or '-':<13} "
                     f"{Q.control(s, i) or '-'}")
    lines.append("")
    for p in s.players:
        hand = f"{len(p.hand)} cards" if HIDDEN in p.hand else ", ".join(p.hand)
        lines.append(f"[{p.id}] Gold {p.gold} | Colossus on {p.colossus} | Acolytes in hand {p.acolytes} | "
                     f"Banners in hand {p.banners} | hand: {hand or '-'}")
        extra = []
        if p.traits:
            extra.append("Traits: " + ", ".join(p.traits))
        if p.curses:
            extra.append("Curses: " + ", ".join(p.curses))
        if p.animal:
            extra.append(f"Colossus acts as the {p.animal} (until the end of own turn {p.animal_until})")
        if extra:
            lines.append("  " + " | ".join(extra))
    lines.append("")
    deck = len(s.card_deck) + len(s.card_top)
    lines.append(f"Colossus deck {deck} | discard {len(s.discard)} | tile deck {len(s.tile_deck) + len(s.tile_top)} | "
                 f"Trait row: {', '.join(s.trait_row) or '-'} | Trait deck {len(s.trait_deck)}")
    if s.reached:
        lines.append(f"Gold target reached by: {', '.join(s.reached)} (the round is finished)")
    return "\n".join(lines)
