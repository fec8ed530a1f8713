"""Colossus Order events in the words a player uses (replays/words.py): ``alice: play Heroic
Knight``, ``bob: set Red Gem as a gem``.  None: the generic words."""

from __future__ import annotations

from typing import Any

from . import events as E


def _name(state: Any, card: Any) -> Any:
    """The card's name in this match's pool (the id when there is no state or no such card)."""
    if state is None or not isinstance(card, str):
        return card
    from adjudicator.core import registry

    info = registry.get(state.setup.game).card_info(state.setup, card)
    return info["name"] if info and info.get("name") else card


def words(event: Any, state: Any) -> str | None:
    t = type(event)
    if t is E.FollowerPlayed or t is E.ActionPlayed:
        return f"{event.player}: play {_name(state, event.card)}"
    if t is E.CardSet:
        return f"{event.player}: set {_name(state, event.card)} as a {event.zone}"
    return None
