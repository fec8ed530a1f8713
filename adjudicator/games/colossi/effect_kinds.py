"""The effect kinds the engine implements: a registry per table (``CARD_EFFECTS``,
``TILE_EFFECTS``) filled by ``@card_effect`` / ``@tile_effect`` in :mod:`card_effects` and
:mod:`tile_effects`; the kinds and the parameters each needs are declared with the data
(``data.CARD_KINDS``, ``data.TILE_KINDS``: loading the data does not import the effects that
interpret it), and every handler registers a declared kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable

from .data import CARD_KINDS, TILE_KINDS
from .working import W


#: what an effect's data gives it (the ``params`` of a card's or tile's effect)
Params = Mapping[str, Any]


@dataclass(frozen=True)
class Effect:
    """An effect kind: the parameters its data must give, and what it does to a working copy."""

    params: tuple[str, ...]
    run: Callable[[W, Any, Params], None]


#: card effect kind -> what it does (every kind of ``data.CARD_KINDS`` has one: tests/test_colossi_data.py)
CARD_EFFECTS: dict[str, Effect] = {}
#: tile scoring (Rest) effect kind -> what it does: the one list of the tile effect kinds
TILE_EFFECTS: dict[str, Effect] = {}


def _registrar(table: dict[str, Effect], kinds: dict[str, tuple[str, ...]]) -> Callable[..., Callable[..., Any]]:
    def register(kind: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        def mark(fn: Callable[..., None]) -> Callable[..., None]:
            assert kind not in table, f"effect kind {kind!r} registered twice"
            assert kind in kinds, f"effect kind {kind!r} is not declared in data.py"
            table[kind] = Effect(kinds[kind], fn)
            return fn
        return mark
    return register


#: ``@card_effect(kind)``: the handler of a card effect kind (``handler(w, CardPlayed, params)``)
card_effect = _registrar(CARD_EFFECTS, CARD_KINDS)
#: ``@tile_effect(kind)``: the handler of a tile's scoring effect (``handler(w, EnvOp, params)``)
tile_effect = _registrar(TILE_EFFECTS, TILE_KINDS)
