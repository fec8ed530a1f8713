"""Colossi (seed 003): Banners, Acolytes and Beasts on a 27-space island, with every published card and tile."""

from adjudicator.core.kernel import registry

from .game import Colossi

GAME = registry.register(Colossi())

__all__ = ["GAME", "Colossi"]
