"""``adjudicator serve``: the replay service (JSON API and browser viewer) over the event store.

Exit codes as everywhere: 2 when the store cannot be opened or the address cannot be used.
"""

from __future__ import annotations

import errno
import socket

import click

from adjudicator.core.errors import AdjudicatorError
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
@click.option("--recordings", default=None, metavar="DIR", type=click.Path(file_okay=False),
              help="Where the matches recorded in the browser (/record) are kept as they are played "
                   "(default: a new temporary directory).")
def serve(db: str | None, host: str, port: int, max_upload: int, refuse_illegal: bool,
          upload_token: str | None, upload_seconds: float, recordings: str | None) -> None:
    """Serve stored matches: the match list at /, the viewer at /matches/ID?at=N&as=PLAYER.

    The JSON API is under /api (OpenAPI document at /schema/openapi.json).  Ctrl-C stops it.
    Uploads need --upload-token (or $ADJUDICATOR_UPLOAD_TOKEN); the browser's upload form asks
    for the token.
    """
    import uvicorn

    from adjudicator.replays.web import create_app

    try:
        store = MatchStore(db)
        count = len(store.matches())
    except AdjudicatorError as exc:
        raise fail(exc) from None
    try:
        sock = _listen(host, port)
        app = create_app(store, max_upload=max_upload, allow_illegal=not refuse_illegal,
                         upload_token=upload_token, upload_seconds=upload_seconds, recordings=recordings)
        bound = sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        mode = "uploads with the token" if upload_token else "read-only: no --upload-token"
        click.echo(f"serving {count} stored matches from {store.location} at http://{shown}:{bound}/ "
                   f"({mode}; Ctrl-C stops)", err=True)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        server.run(sockets=[sock])
    finally:
        store.close()


__all__ = ["serve"]
