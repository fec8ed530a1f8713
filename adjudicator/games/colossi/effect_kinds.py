"""The effect kinds the engine implements: a registry per table (``CARD_EFFECTS``,
``TILE_EFFECTS``) filled by ``@card_effect`` / ``@tile_effect`` in :mod:`card_effects` and
:mod:`tile_effects`, each with the parameters its data must give.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable

from .working import W


#: what an effect's data gives it (the ``params`` of a card's or tile's effect)
Params = Mapping[str, Any]


@dataclass(frozen=True)
class Effect:
    """An effect kind: the parameters its data must give, and what it does to a working copy."""

    params: tuple[str, ...]
    run: Callable[[W, Any, Params], None]


#: card effect kind -> what it does: the one list of the card effect kinds (``data.py`` checks
#: every card's effect against it)
CARD_EFFECTS: dict[str, Effect] = {}
#: tile scoring (Rest) effect kind -> what it does: the one list of the tile effect kinds
TILE_EFFECTS: dict[str, Effect] = {}


def _registrar(table: dict[str, Effect]) -> Callable[..., Callable[[Callable[..., None]], Callable[..., None]]]:
    def register(kind: str, *params: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        def mark(fn: Callable[..., None]) -> Callable[..., None]:
            assert kind not in table, f"effect kind {kind!r} registered twice"
            table[kind] = Effect(params, fn)
            return fn
        return mark
    return register


#: ``@card_effect(kind, *params)``: the handler of a card effect kind (``handler(w, CardPlayed, params)``)
card_effect = _registrar(CARD_EFFECTS)
#: ``@tile_effect(kind, *params)``: the handler of a tile's scoring effect (``handler(w, EnvOp, params)``)
tile_effect = _registrar(TILE_EFFECTS)
