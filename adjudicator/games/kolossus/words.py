"""Kolossus events in the words a player uses (replays/words.py): a move names the miniature
(``tuatha: Warrior b9 -> c10 -> d11``).  None: the generic words."""

from __future__ import annotations

from typing import Any

from . import events as E


def words(event: Any, state: Any) -> str | None:
    if type(event) is E.MiniatureMoved and event.path:
        piece = None if state is None else next((p for p in state.pieces if p.square == event.path[0]), None)
        who = piece.character.capitalize() if piece is not None else "miniature"
        return f"{event.warband}: {who} {' -> '.join(event.path)}"
    return None
