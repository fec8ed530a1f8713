"""Race to N (``toy``): an example game plugin for adjudicator.

Installing this distribution adds the entry point ``toy = adjudicator_toy`` to the
``adjudicator.games`` group; the registry imports this package when a log names the game ``toy``
(or when every game is listed), and importing it registers the game.
"""

from adjudicator.core.kernel import registry

from .game import ToyGame

GAME = registry.register(ToyGame())

__all__ = ["GAME", "ToyGame"]
