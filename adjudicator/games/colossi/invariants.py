"""Invariants of a Colossi position (checked on loaded position documents and in playouts)."""

from __future__ import annotations

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.invariants import Broken, Spec, scan

from .data import board, content
from .state import State

SPEC = Spec(
    players=frozenset({"id", "player", "first", "turn_player", "colossi", "banners", "by", "to",
                       "lender", "reached", "target", "winner", "card_seen", "tile_seen"}),
    cards=frozenset({"hand", "card_top", "card_deck", "discard", "card", "pile"}),
    refs={"tile": "tiles", "tile_top": "tiles", "tile_deck": "tiles", "tile_box": "tiles",
          "traits": "traits", "curses": "card ids", "trait_deck": "traits", "trait_row": "traits",
          "trait_discard": "traits", "growth": "traits", "borrowed": "traits", "beasts": "beasts", "beast": "beasts"},
    ints={"gold": (0, 100_000), "blue": (0, 100_000), "green": (0, 100_000), "acolytes": (0, 1_000),
          "banners": (0, 1_000), "count": (0, 1_000), "left": (0, 1_000), "faces": (1, 100),
          "kill_at_most": (0, 1_000), "max": (0, 1_000), "actions": (0, 1_000), "moves": (0, 1_000),
          "turn": (0, 10_000_000), "turns": (0, 10_000_000), "gold_target": (1, 100_000)},
)


def invariants(s: State) -> list[tuple[str, str]]:
    b = Broken()
    ids = list(s.setup.players)
    if not b.check([p.id for p in s.players] == ids, "players", f"the players of the set-up ({', '.join(ids)})"):
        return b.items
    c = content()
    try:
        spaces = board(s.options.board, s.setup.board_sha256).size
    except Exception as exc:  # noqa: BLE001 - named as the field at fault
        return [("options.board", str(exc).split(": ", 1)[-1])]
    cards, tiles = c.cards, c.tiles
    if s.unseen is not None:  # a seat's record: "?" placeholders, and what they can be (unknowns.py, CL-40)
        cards, tiles = {**cards, HIDDEN: None}, {**tiles, HIDDEN: None}
        for f, pool in (("cards", c.cards), ("tiles", c.tiles)):
            for j, x in enumerate(getattr(s.unseen, f)):
                b.check(x in pool, f"unseen.{f}[{j}]", f"{x!r} is not one of the {f}")
    scan(s, SPEC, set(ids), cards, b, tiles=tiles, traits=c.traits, beasts=c.beasts, **{"card ids": c.cards})
    if b:
        return b.items
    b.check(len(s.spaces) in (0, spaces), "spaces", f"{len(s.spaces)} spaces; the board has {spaces}")
    for i, sp in enumerate(s.spaces):
        b.check(sp.owner is None or sp.owner in ids, f"spaces[{i}].owner", f"{sp.owner!r} is not a player")
        b.check(len(sp.acolytes) == len(ids), f"spaces[{i}].acolytes",
                f"{len(sp.acolytes)} acolyte counts for {len(ids)} players")
    for seen, top in (("card_seen", "card_top"), ("tile_seen", "tile_top")):  # who looked at each item on top
        b.check(len(getattr(s, seen)) == len(getattr(s, top)), seen,
                f"{len(getattr(s, seen))} entries for the {len(getattr(s, top))} items of {top}")
    for i, p in enumerate(s.players):
        b.check(p.colossus is None or 0 <= p.colossus < max(spaces, 1), f"players[{i}].colossus",
                f"space {p.colossus} is not on the board")
    for path, v in _space_refs(s):
        b.check(0 <= v < max(spaces, 1), path, f"space {v} is not on the board")
    return b.items


def _space_refs(s: State) -> list[tuple[str, int]]:
    """Every space number the tasks and the road name."""
    out: list[tuple[str, int]] = []
    for k, t in enumerate(s.todo):
        for f in ("space",):
            v = getattr(t, f, None)
            if isinstance(v, int):
                out.append((f"todo[{k}].{f}", v))
        for f in ("spaces", "done", "left"):
            v = getattr(t, f, None)
            if isinstance(v, tuple):
                out += [(f"todo[{k}].{f}[{j}]", x) for j, x in enumerate(v) if isinstance(x, int)]
    if s.road is not None:
        out.append(("road.at", s.road.at))
        out += [(f"road.visited[{j}]", x) for j, x in enumerate(s.road.visited)]
    return out
