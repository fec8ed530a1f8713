"""Kolossus: The Citadel of Time (seed 002): four warbands, dice, terrain levels and sliding regions."""

from adjudicator.core.kernel import registry

from .game import Kolossus

GAME = registry.register(Kolossus())

__all__ = ["GAME", "Kolossus"]
