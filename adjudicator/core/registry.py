"""The game registry.  Games register an instance; core, CLI and replays look them up by id.

Built-in games live in :mod:`adjudicator.games` and register on import; third-party games can
register through the ``adjudicator.games`` entry-point group (each entry point names a module or
a callable; importing/calling it must call :func:`register`).
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from .errors import UnknownGame
from .protocol import Game

_GAMES: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    if game.id in _GAMES and type(_GAMES[game.id]) is not type(game):
        raise ValueError(f"game id {game.id!r} registered twice")
    _GAMES[game.id] = game
    return game


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    importlib.import_module("adjudicator.games")
    for ep in entry_points(group="adjudicator.games"):
        obj = ep.load()
        if callable(obj):
            obj()


def get(game_id: str) -> Game:
    _load()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGame(game_id, sorted(_GAMES)) from None


def games() -> list[Game]:
    _load()
    return [_GAMES[k] for k in sorted(_GAMES)]


def ids() -> list[str]:
    return [g.id for g in games()]
