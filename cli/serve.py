"""``adjudicator serve``: the replay service (JSON API and browser viewer) over the event store.

Exit codes as everywhere: 2 when the store cannot be opened or the address cannot be used.
"""

from __future__ import annotations

import asyncio
import errno
import socket
from typing import Any

import click

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.store import MatchStore

from .common import BadInput, fail, pools_option
from .store import db_option


def _listen(host: str, port: int) -> socket.socket:
    """A bound listening socket, or a clean usage error (port taken, unknown host)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise BadInput(f"--host {host}: cannot resolve ({exc.strerror})") from None
    family, kind, proto, _name, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        why = "the address is already in use" if exc.errno == errno.EADDRINUSE else exc.strerror
        raise BadInput(f"cannot listen on {host}:{port}: {why}") from None
    sock.set_inheritable(True)
    return sock


def head_timed_protocol(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with a deadline on every request head: a connection that has not
    sent a whole request line and headers within ``seconds`` of connecting (or, kept alive, of
    starting the next request) is closed.  uvicorn bounds none (a slow client holding connections
    open would otherwise fill ``--max-connections`` for good); the body has its own deadline
    (``RequestBounds`` in the app)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeadTimedH11(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE:  # a head begun, not complete yet: its clock runs
                if self._head_timer is None:
                    self._arm()
            else:
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._head_timer = self.loop.call_later(seconds, self._head_late)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete):
                self.transport.close()

    return HeadTimedH11


@click.command()
@pools_option
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535),
              help="The port to listen on (0: any free port).")
@click.option("--max-upload", default=5_000_000, show_default=True, type=click.IntRange(min=1), metavar="BYTES",
              help="The largest log accepted by the upload API (bigger: 413, nothing stored).")
@click.option("--refuse-illegal", is_flag=True,
              help="Refuse illegal uploaded logs (422, nothing stored) instead of storing them with their verdict.")
@click.option("--upload-token", default=None, envvar="ADJUDICATOR_UPLOAD_TOKEN", metavar="TOKEN",
              help="Accept uploads that present this token (Authorization: Bearer TOKEN); without one the "
                   "service is read-only.  Also read from $ADJUDICATOR_UPLOAD_TOKEN.")
@click.option("--upload-seconds", default=20.0, show_default=True, type=click.FloatRange(min=0.1),
              help="The longest an upload's verification may take (then 503, nothing stored).")
@click.option("--body-timeout", default=30.0, show_default=True, type=click.FloatRange(min=0.1), metavar="SECONDS",
              help="The longest a request body may take to arrive (then 408 and the connection is closed); "
                   "a request head (line and headers) has as long, or the connection is closed.")
@click.option("--max-connections", default=256, show_default=True, type=click.IntRange(min=1), metavar="N",
              help="The most connections served at once (more: 503 at once).")
@click.option("--recordings", default=None, metavar="DIR", type=click.Path(file_okay=False),
              help="Where the matches recorded in the browser (/record) are kept as they are played "
                   "(default: a new temporary directory).")
def serve(db: str | None, host: str, port: int, max_upload: int, refuse_illegal: bool,
          upload_token: str | None, upload_seconds: float, body_timeout: float, max_connections: int,
          recordings: str | None) -> None:
    """Serve stored matches: the match list at /, the viewer at /matches/ID?at=N&as=PLAYER.

    The JSON API is under /api (OpenAPI document at /schema/openapi.json).  Ctrl-C stops it.
    Uploads need --upload-token (or $ADJUDICATOR_UPLOAD_TOKEN); the browser's upload form asks
    for the token.
    """
    import uvicorn

    from adjudicator.replays.web import create_app
    from adjudicator.replays.web.app import MAX_REQUEST_HEAD

    try:
        store = MatchStore(db)
        count = len(store.matches())
    except AdjudicatorError as exc:
        raise fail(exc) from None
    try:
        sock = _listen(host, port)
        app = create_app(store, max_upload=max_upload, allow_illegal=not refuse_illegal,
                         upload_token=upload_token, upload_seconds=upload_seconds, body_timeout=body_timeout,
                         recordings=recordings)
        bound = sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        mode = "uploads with the token" if upload_token else "read-only: no --upload-token"
        click.echo(f"serving {count} stored matches from {store.location} at http://{shown}:{bound}/ "
                   f"({mode}; Ctrl-C stops)", err=True)
        # h11 (not httptools, whatever is installed): its bound on a request head is ours; a target
        # under it but over MAX_URL reaches the app, which answers 414 (RequestBounds)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on",
                                               http=head_timed_protocol(body_timeout),
                                               h11_max_incomplete_event_size=MAX_REQUEST_HEAD,
                                               limit_concurrency=max_connections))
        server.run(sockets=[sock])
    finally:
        store.close()


__all__ = ["serve"]
