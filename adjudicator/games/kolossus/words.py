"""Kolossus events in the words a player uses: the game's notation (notation.py), which the
game-neutral words of the core ask for through this module (``tuatha: Warrior b9-c10-d11``).
None for an event that is not the game's (the core's words)."""

from __future__ import annotations

from typing import Any

from . import events as E
from .notation import event_text


def words(event: Any, state: Any) -> str | None:
    return event_text(event, state) if type(event) in E.EVENT_TYPES else None
