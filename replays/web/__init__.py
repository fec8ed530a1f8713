"""The replay service: a Litestar app over the event store, with a browser viewer.

``create_app`` builds the ASGI app (JSON API under ``/api``, the pages ``/`` and
``/matches/{id}``, static files under ``/static``, OpenAPI at ``/schema/openapi.json``);
``adjudicator serve`` runs it under uvicorn.  Like the rest of ``replays/`` it never imports a
game package: games are reached through the registry, positions drawn from their scenes.
"""

from .app import DEFAULT_MAX_UPLOAD, WebService, create_app

__all__ = ["DEFAULT_MAX_UPLOAD", "WebService", "create_app"]
