"""Small pure helpers that move LOGOS cards between a player's zones (tuples of card ids) and
replace one player of a position.

A card id is never empty (a pool's ids are slugs; a seat's record writes ``"?"``), so ``all(slots)``
says that no slot is empty: the hot paths ask it that way (``None in slots`` compares every card
id with None the slow way)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from .state import Player, State


def remove_first(items: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
    i = items.index(value)
    return items[:i] + items[i + 1:]


def empty_slot(slots: tuple[str | None, ...], card: str) -> tuple[str | None, ...]:
    """``slots`` with the leftmost slot holding ``card`` emptied."""
    i = slots.index(card)
    return slots[:i] + (None,) + slots[i + 1:]


def sorted_add(items: tuple[str, ...], more: Any) -> tuple[str, ...]:
    return tuple(sorted(items + tuple(more)))


def put(s: State, **changes: Any) -> State:
    """``s`` with ``changes``: a new frozen position for a frozen ``s`` (``msgspec``'s replace),
    else ``s`` itself changed in place (a working position, working.py).  For the helpers that
    serve both (unknowns.py's, which a seat's record calls on frozen positions); an apply handler,
    which only ever sees a working position, writes its fields directly."""
    if s.__class__ is State:
        return replace(s, **changes)
    for k in changes:
        setattr(s, k, changes[k])
    return s


def with_player(s: State, pid: str, **changes: Any) -> State:
    """The working position ``s`` (working.py) with ``changes`` to player ``pid``, in place."""
    a, b = s.players
    if a.id == pid:
        s.players = (replace(a, **changes), b)
    else:
        s.players = (a, replace(b, **changes))
    return s


def picked(s: State, p: Player) -> bool:
    """Has ``p`` sent (open picks) or committed (hidden picks) a card this round?"""
    return p.battle is not None or p.commitment is not None
