"""Invariants of a Kolossus position (checked on loaded position documents and in playouts)."""

from __future__ import annotations

from adjudicator.core.kernel.invariants import Broken, Spec, scan

from .board import load_board
from .state import State

#: fields naming a warband or a player (both namespaces are checked together; their ids differ)
SPEC = Spec(
    players=frozenset({"warband", "id", "player", "quakers", "alliance"}),
    cards=frozenset({"square", "at", "citadel"}),  # squares of the board, checked like card ids
    ints={"seat": (0, 3), "first": (0, 3), "order": (0, 8), "round": (0, 10_000), "rolls": (0, 1_000_000),
          "quake_roll": (0, 6), "destiny": (0, 6), "points": (0, 100), "mp": (0, 100), "left": (0, 100),
          "dice": (1, 6), "crystals_left": (0, 1_000), "on_citadel": (0, 1_000), "last_capture": (0, 3),
          "captured_by": (0, 3), "crystals": (0, 1_000), "supply": (0, 1_000), "pending": (0, 12),
          "pool": (0, 1_000), "beaten": (0, 100), "attack": (0, 100), "defence": (0, 100),
          "levels": (0, 9), "rounds": (1, 10_000), "skill_cap": (0, 100), "chapter": (1, 3),
          "mana_table": (0, 100), "count": (0, 1_000)},
)


def invariants(s: State) -> list[tuple[str, str]]:
    b = Broken()
    try:
        board = load_board(s.options.board, s.setup.board_sha256)
    except Exception as exc:  # noqa: BLE001 - named as the field at fault
        return [("options.board", str(exc).split(": ", 1)[-1])]
    names = set(s.setup.players) | {x.warband for x in s.setup.seats}
    scan(s, SPEC, names, board.index, b)
    if b:
        return b.items
    b.check(len(s.warbands) <= 4, "warbands", f"{len(s.warbands)} warbands; at most 4")
    b.check(len(s.levels) == board.size * board.size, "levels",
            f"{len(s.levels)} squares; the {board.name} board has {board.size * board.size}")
    b.check(s.citadel in board.index, "citadel", f"{s.citadel!r} is not a square of the board")
    if s.warbands:
        b.check(s.seat < len(s.warbands) or s.step in ("skills", "place"), "seat",
                f"seat {s.seat} of {len(s.warbands)} warbands")
        b.check(s.first < len(s.warbands), "first", f"seat {s.first} of {len(s.warbands)} warbands")
        for f in ("last_capture", "captured_by"):
            v = getattr(s, f)
            b.check(v is None or v < len(s.warbands), f, f"seat {v} of {len(s.warbands)} warbands")
    b.check(s.activation is not None or s.step not in ("roll", "move"), "activation",
            f"the step {s.step!r} needs a declared activation")
    squares = [p.square for p in s.pieces]
    b.check(len(set(squares)) == len(squares), "pieces", "two miniatures on one square")
    if s.activation is not None and s.activation.square is not None and s.activation.at is None:
        # (until the move: after it the miniature stands on ``at``, and the named square may be empty)
        b.check(s.activation.square in squares, "activation.square",
                f"{s.activation.square!r} holds no miniature")
    return b.items
