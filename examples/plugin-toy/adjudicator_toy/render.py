"""The toy position as text (``adjudicator state``)."""

from __future__ import annotations

from typing import Any

from .game import current


def describe(game: Any, state: Any, player: str | None) -> str:
    return f"total {state.total}/{state.target}, {current(state)} to act"
