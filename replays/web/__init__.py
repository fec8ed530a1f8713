"""The replay service: a Litestar app over the event store, with a browser viewer.

``create_app`` builds the ASGI app (JSON API under ``/api``, the pages ``/`` and
``/matches/{id}``, static files under ``/static``, OpenAPI at ``/schema/openapi.json``);
``adjudicator serve`` runs it under uvicorn.  Like the rest of ``replays/`` it never imports a
game package: games are reached through the registry, positions drawn from their scenes.
"""

from typing import Any

__all__ = ["DEFAULT_MAX_UPLOAD", "WebService", "create_app"]


def __getattr__(name: str) -> Any:
    """The app's names, imported when first asked for: importing a module of this package (the
    recorder's pages import ``access`` and ``live``) never imports the app, which imports the
    recorder's pages in turn (an import circle when the recorder comes first)."""
    if name in __all__:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
