"""Colossus Order events in the words a player uses (replays/words.py): the game's notation
(:mod:`.notation`: ``alice: play Heroic Knight``, ``bob: set Red Gem as gem``), which the callers
move to (``game.notation.format``); None for the events it leaves to the generic words (the
core's)."""

from __future__ import annotations

from typing import Any


def words(event: Any, state: Any) -> str | None:
    from adjudicator.core.kernel import registry

    from .notation import _FORMAT

    if type(event) not in _FORMAT:
        return None
    return registry.get("colossus-order").notation.format(event, state)
