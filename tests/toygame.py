"""The toy game of the tests ("race to N"), from its plugin package ``examples/plugin-toy``.

Where the plugin is installed (``pip install examples/plugin-toy``: the test of
tests/test_plugin_toy.py does so in a virtual environment of its own) the installed package is used
and the registry finds the game through its entry point; otherwise the package is imported from its
source folder and :func:`install` registers it in-process.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

#: the plugin's source folder (holds the package ``adjudicator_toy`` and its pyproject.toml)
PLUGIN = Path(__file__).resolve().parents[1] / "examples" / "plugin-toy"

if importlib.util.find_spec("adjudicator_toy") is None:
    sys.path.append(str(PLUGIN))

from adjudicator_toy.game import (  # noqa: E402
    NS, Added, MatchStarted, Options, ToyGame, ToyRules, ToyState, TurnPassed, Won, current,
)

__all__ = ["NS", "Added", "MatchStarted", "Options", "ToyGame", "ToyRules", "ToyState", "TurnPassed", "Won",
           "current", "install"]


def install() -> ToyGame:
    """Every game registered, the toy game among them (through its entry point when installed)."""
    from adjudicator.core.kernel import registry
    from adjudicator.core.kernel.errors import UnknownGame

    registry.games()
    try:
        game = registry.get("toy")
    except UnknownGame:
        game = None
    return game if isinstance(game, ToyGame) else registry.register(ToyGame())
