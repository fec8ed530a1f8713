"""The built-in games, one subpackage each (importing one registers that game).

They are registered through the ``adjudicator.games`` entry-point group like any plugin game
(``pyproject.toml``), so the registry loads only the game a log names.  Importing this package
imports none of them; ``adjudicator.games.logos`` (the attribute) imports that one on first use,
and :func:`load_all` registers every game the entry points name.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: the built-in game packages (their entry points are in pyproject.toml)
BUILTIN = ("colossus_order", "logos", "kolossus", "colossi")


def __getattr__(name: str) -> ModuleType:
    if name in BUILTIN:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_all() -> None:
    """Register every game: the built-in ones and every installed plugin (the registry's games())."""
    from adjudicator.core.kernel import registry

    registry.games()
