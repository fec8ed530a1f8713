"""Colossus Order (seed 000): the trading card game of Colossi, Gems, Locus and X-play."""

from adjudicator.core.kernel import registry

from .game import ColossusOrder

GAME = registry.register(ColossusOrder())

__all__ = ["GAME", "ColossusOrder"]
