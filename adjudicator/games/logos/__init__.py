"""LOGOS (seed 001): the card battle of classes, combos and effects, in simultaneous rounds."""

from adjudicator.core.kernel import registry

from .game import Logos

GAME = registry.register(Logos())

__all__ = ["GAME", "Logos"]
