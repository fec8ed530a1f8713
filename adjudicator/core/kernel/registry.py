"""The game registry.  Games register an instance; core, CLI and replays look them up by id.

Every game, the four built-in ones included, is found through the ``adjudicator.games``
entry-point group (``[project.entry-points."adjudicator.games"]`` in a distribution's
``pyproject.toml``).  An entry point's name is the game id; its value names a module (importing it
registers the game: ``registry.register(MyGame())`` at module level) or a callable (calling it
registers, or returns a :class:`~adjudicator.core.kernel.protocol.Game` instance or a list of them).

This module imports no game.  :func:`get` loads only the entry points named by the id asked for
(and all of them only when none has that name: an id registered under another name);
:func:`games` and :func:`ids` load every entry point.  Entry points load in a fixed order: those
of the ``adjudicator`` distribution first, then by distribution name and entry-point name.

A plugin that cannot be loaded (its import fails, its callable raises, it registers an id another
entry point already registered, or it registers nothing) never stops the other games: it is
recorded as a :class:`Failure` naming the entry point and its distribution (``adjudicator games``
lists it with the reason), whatever it registered is taken back, and asking for its game raises
:class:`GameUnavailable` (an :class:`~adjudicator.core.kernel.errors.UnknownGame`, exit code 2) with that
reason.  A game registered in-process (``register(MyGame())`` from a test or a script) needs no
entry point.
"""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass
from importlib.metadata import EntryPoint, distributions
from types import ModuleType
from typing import Any

from .errors import UnknownGame
from .notation import install_repr
from .protocol import Game

#: the entry-point group games are found through
GROUP = "adjudicator.games"
#: the distribution whose entry points load first (the built-in games)
HOME = "adjudicator"


@dataclass(frozen=True)
class Origin:
    """Where a game comes from: its entry point (``name = value``) and that entry point's distribution."""

    entry_point: str
    distribution: str | None = None
    version: str | None = None

    def describe(self) -> str:
        dist = "an unknown distribution" if self.distribution is None else (
            f"distribution {self.distribution} {self.version or '(no version)'}")
        return f"entry point '{self.entry_point}' of {dist}"


@dataclass(frozen=True)
class Failure:
    """An entry point that could not be loaded, and why."""

    name: str
    origin: Origin
    reason: str

    def describe(self) -> str:
        if self.name == "*":  # the installed distributions' metadata itself
            return f"reading the {GROUP} entry points failed: {self.reason}"
        return f"{self.origin.describe()} failed: {self.reason}"


class GameUnavailable(UnknownGame):
    """A game whose entry point exists but failed to load (the reason names it)."""

    def __init__(self, game: str, failures: list[Failure]):
        self.game = self.id = game
        self.failures = failures
        why = "; ".join(f.describe() for f in failures)
        super(UnknownGame, self).__init__(f"game {game!r} could not be loaded: {why}")


class PluginError(Exception):
    """Raised inside an entry point's loading: a duplicate id, or nothing registered."""


_GAMES: dict[str, Game] = {}
#: the origin of each game registered through an entry point
_ORIGINS: dict[str, Origin] = {}
#: entry points that failed, in loading order
_FAILURES: list[Failure] = []
#: the entry points already tried (loaded or failed), by (distribution, name, value)
_TRIED: set[tuple[str, str, str]] = set()
_all_loaded = False
#: the entry point being loaded (its registrations get this origin)
_loading: Origin | None = None
#: loading is one thread's at a time (the web service reads uploads on worker threads); re-entrant,
#: since a plugin's import may ask the registry for a game
_LOCK = threading.RLock()
#: set in the thread that imports a plugin (:func:`_import_within`), which acts for the loading thread
_local = threading.local()


def _locked() -> Any:
    """The registry's lock, except in a plugin's import thread (whose loader holds it already)."""
    return contextlib.nullcontext() if getattr(_local, "plugin", False) else _LOCK


def register(game: Game) -> Game:
    """Register a game instance under its id (a second instance of the same class replaces it)."""
    old = _GAMES.get(game.id)
    if old is not None and type(old) is not type(game):
        where = _ORIGINS.get(game.id)
        by = where.describe() if where is not None else f"{type(old).__module__}.{type(old).__qualname__}"
        raise PluginError(f"game id {game.id!r} registered twice: it is already registered by {by}")
    _GAMES[game.id] = game
    if _loading is not None:
        _ORIGINS[game.id] = _loading
    return game


def origin(game_id: str) -> Origin | None:
    """The entry point a registered game was loaded through (None: registered in-process)."""
    return _ORIGINS.get(game_id)


def failures() -> list[Failure]:
    """Every entry point that failed to load so far (all of them after :func:`games`)."""
    return list(_FAILURES)


def _key(ep: EntryPoint) -> tuple[str, str, str]:
    return (_dist(ep)[0] or "", ep.name, ep.value)


def _dist(ep: EntryPoint) -> tuple[str | None, str | None]:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return None, None
    try:  # a distribution's malformed metadata (no Version field ...) names what it can
        name = dist.metadata["Name"]
    except Exception:  # noqa: BLE001
        return None, None
    try:
        return name, dist.version
    except Exception:  # noqa: BLE001
        return name, None


def _ordered(eps: list[EntryPoint]) -> list[EntryPoint]:
    def order(ep: EntryPoint) -> tuple[bool, str, str, str]:
        name = (_dist(ep)[0] or "").lower()
        return (name != HOME, name, ep.name, ep.value)

    return sorted(eps, key=order)


def _failed_metadata(where: str, exc: BaseException) -> None:
    failure = Failure("*", Origin(where), f"{type(exc).__name__}: {exc}"[:500])
    if failure not in _FAILURES:
        _FAILURES.append(failure)


def _entry_points(name: str | None = None) -> list[EntryPoint]:
    """The group's entry points, read one distribution at a time: a distribution whose metadata
    cannot be read (undecodable, malformed, a plugin's code raising anything while it is read) is
    recorded as a failure naming it and the others are read all the same (importlib's own
    ``entry_points()`` gives up on all of them at the first one)."""
    try:
        dists = list(distributions())
    except BaseException as exc:  # noqa: BLE001 - the metadata of the installed distributions: reported, not raised
        _failed_metadata("*", exc)
        return []
    eps: list[EntryPoint] = []
    seen: set[str] = set()
    for dist in dists:
        where = str(getattr(dist, "_path", "")) or "a distribution"
        try:
            dname = (dist.metadata["Name"] or "").lower().replace("-", "_").replace(".", "_")
            if dname in seen:  # the same distribution found twice on the path: the first wins, as in importlib
                continue
            seen.add(dname)
            mine = [ep for ep in dist.entry_points if ep.group == GROUP and (name is None or ep.name == name)]
        except BaseException as exc:  # noqa: BLE001 - one broken distribution never hides the others' games
            _failed_metadata(where, exc)
            continue
        eps += mine
    return _ordered(eps)


def _load_one(ep: EntryPoint) -> None:
    """Load one entry point; any failure is recorded, never raised, and undoes what it registered."""
    global _loading
    key = _key(ep)
    if key in _TRIED:
        return
    _TRIED.add(key)
    dist, version = _dist(ep)
    here = Origin(f"{ep.name} = {ep.value}", dist, version)
    before = dict(_GAMES)
    _loading = here
    try:
        obj, made = _import_within(ep, _import_seconds())
        if not isinstance(obj, ModuleType):
            for game in made if isinstance(made, (list, tuple)) else [made]:
                if isinstance(game, Game) and _GAMES.get(game.id) is not game:
                    register(game)
        for gid, g in _GAMES.items():  # registered by an earlier plain import of the module
            mod = type(g).__module__
            if gid not in _ORIGINS and (mod == ep.module or mod.startswith(ep.module + ".")):
                _ORIGINS[gid] = here
        if not any(o == here for o in _ORIGINS.values()):
            raise PluginError("it registered no game (call adjudicator.core.kernel.registry.register(game))")
    except BaseException as exc:  # noqa: BLE001 - a broken plugin (even SystemExit) is reported, never raised
        for gid in [gid for gid in _GAMES if _GAMES[gid] is not before.get(gid)]:
            if gid in before:
                _GAMES[gid] = before[gid]
            else:
                del _GAMES[gid]
        for gid in [gid for gid, o in _ORIGINS.items() if o == here]:
            del _ORIGINS[gid]
        what = f"{type(exc).__name__}: {exc}"
        _FAILURES.append(Failure(ep.name, here, what if len(what) <= 500 else what[:497] + "..."))
    finally:
        _loading = None


def _import_seconds() -> float:
    """The time a plugin's import may take (``ADJUDICATOR_PLUGIN_TIMEOUT``, seconds; default 20)."""
    try:
        return max(0.1, min(600.0, float(os.environ.get("ADJUDICATOR_PLUGIN_TIMEOUT", "20"))))
    except ValueError:
        return 20.0


class PluginTimeout(PluginError):
    """A plugin whose import did not finish in time (it is left running in a daemon thread)."""


def _import(ep: EntryPoint) -> tuple[object, object]:
    """The entry point's object, and what calling it made (a module: None)."""
    obj = ep.load()
    if isinstance(obj, ModuleType):
        return obj, None
    if not callable(obj):
        raise PluginError(f"names a {type(obj).__name__}, not a module or a callable")
    return obj, obj()


def _import_within(ep: EntryPoint, seconds: float) -> tuple[object, object]:
    """``ep.load()`` in a daemon thread, waited for ``seconds``: a plugin that hangs at import is a
    failure, never a hang of the command or the service (its thread is abandoned; the process can
    still exit and answer signals).  Whatever the import raises (``SystemExit`` and
    ``KeyboardInterrupt`` included) is re-raised here as the failure's reason.  Calling a
    callable entry point is part of the import."""
    if _dist(ep)[0] == HOME:  # the built-in games: imported in the caller's thread, as any module
        return _import(ep)
    box: list[tuple[bool, Any]] = []

    def run() -> None:
        _local.plugin = True  # the loading thread holds _LOCK and waits on this one: lock-free here
        try:
            box.append((True, _import(ep)))
        except BaseException as exc:  # noqa: BLE001 - carried to the loading thread
            box.append((False, exc))

    t = threading.Thread(target=run, name=f"plugin {ep.name}", daemon=True)
    t.start()
    t.join(seconds)
    if not box:
        raise PluginTimeout(f"its import did not finish in {seconds:g} s (ADJUDICATOR_PLUGIN_TIMEOUT)")
    ok, value = box[0]
    if not ok:
        raise value
    return value


def _load_all() -> None:
    global _all_loaded
    with _locked():
        if _all_loaded:
            return
        _all_loaded = True
        for ep in _entry_points():
            _load_one(ep)


def get(game_id: str) -> Game:
    """The game with this id, loading only its entry point (all of them if none has its name)."""
    game = _GAMES.get(game_id)
    if game is not None:
        return game
    with _locked():
        for ep in _entry_points(game_id):
            _load_one(ep)
        if game_id not in _GAMES:
            _load_all()
    game = _GAMES.get(game_id)
    if game is not None:
        return game
    failed = [f for f in _FAILURES if f.name == game_id]
    if failed:
        raise GameUnavailable(game_id, failed)
    raise UnknownGame(game_id, sorted(_GAMES))


def games() -> list[Game]:
    """Every game: every entry point loaded (those that fail are in :func:`failures`), by id."""
    _load_all()
    return [_GAMES[k] for k in sorted(_GAMES)]


def ids() -> list[str]:
    return [g.id for g in games()]


install_repr(games)  # an event's repr is its game's notation (core/kernel/notation.py)
