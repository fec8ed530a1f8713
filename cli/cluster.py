"""``verify --cluster``: a corpus fanned out over a Dask distributed cluster.

The cluster is an existing engine (``dask.distributed``), not one written here: the scheduler
hands each log's verification to a worker, which runs the same function a local worker process
runs (``verify_one``), so the output is the same as local.  Results come back in input order, and
at most a window of logs is in flight at once, so the memory on this side is bounded by the
window, not by the corpus.  The workers read the logs by path: the paths must be readable on
every worker (a shared filesystem or the same directory tree).  See docs/deploy.md.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from .common import BadInput, internal_error_line, safe

#: logs in flight per worker thread (more keeps the workers busy; fewer bounds memory here)
IN_FLIGHT_PER_THREAD = 4
#: how long to wait for the scheduler's port to answer (a plain TCP connection, before Dask)
PROBE_SECONDS = 5.0
#: how long Dask may take to greet the scheduler after that
CONNECT_TIMEOUT = "10s"
#: and then for the scheduler's greeting
GREETING_SECONDS = 2.0
#: the schemes of a scheduler address that reach another process (all over TCP); no scheme is tcp
SCHEMES = ("tcp", "tls", "ws", "wss")
_ADDRESS = re.compile(r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)"
                      r"(?::(?P<port>[0-9]{1,5}))?")


def check_address(address: str) -> tuple[str, int]:
    """The host and port of a scheduler address (``[tcp|tls|ws|wss://]host:port``), or
    :class:`BadInput` saying what is wrong with it (exit 2)."""
    shown = safe(address if len(address) <= 200 else address[:197] + "...")
    m = _ADDRESS.fullmatch(address)
    if m is None:
        raise BadInput(f"--cluster {shown}: not a scheduler address (tcp://host:port, e.g. tcp://10.0.0.5:8786)")
    scheme = (m.group("scheme") or "tcp").lower()
    if scheme not in SCHEMES:
        raise BadInput(f"--cluster {shown}: the scheme {scheme!r} does not reach a scheduler in another process "
                       f"({', '.join(s + '://' for s in SCHEMES)})")
    port = m.group("port")
    if port is None or not 1 <= int(port) <= 65535:
        raise BadInput(f"--cluster {shown}: the scheduler's port is missing or not 1 to 65535 "
                       f"(tcp://host:port, e.g. tcp://10.0.0.5:8786)")
    return m.group("host").strip("[]"), int(port)


def _probe(address: str, host: str, port: int) -> None:
    """A plain TCP connection to the scheduler's port: a refused or silent address is exit 2 at
    once, before Dask (which retries until its timeout)."""
    import socket

    try:
        socket.create_connection((host, port), timeout=PROBE_SECONDS).close()
    except OSError as exc:
        why = "no answer" if isinstance(exc, TimeoutError) else exc.strerror or str(exc) or type(exc).__name__
        raise BadInput(f"--cluster {safe(address)}: cannot reach the scheduler ({why})") from None


def _client(address: str) -> Any:
    host, port = check_address(address)
    try:
        from dask.distributed import Client
    except ImportError:
        raise BadInput("--cluster needs Dask distributed: pip install 'adjudicator[cluster]'") from None
    _probe(address, host, port)
    # Dask's timeout covers the connection, not the greeting: a port that accepts and stays
    # silent would hold Client() for ever.  So the client starts in a daemon thread, given the
    # timeout and a little more; a failed start is marked closed (its finalizer would wait).
    made: list[Any] = []
    failed: list[BaseException] = []

    def start() -> None:
        client = Client.__new__(Client)
        try:
            client.__init__(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except BaseException as exc:  # noqa: BLE001 - Dask's failures to connect are many: one line each
            failed.append(exc)
            with contextlib.suppress(BaseException):
                client.status = "closed"
            return
        made.append(client)

    starter = threading.Thread(target=start, name="dask-client-start", daemon=True)
    starter.start()
    limit = _seconds(CONNECT_TIMEOUT) + GREETING_SECONDS
    starter.join(limit)
    if made:
        return made[0]
    why = f"{type(failed[0]).__name__}: {safe(str(failed[0]))[:200]}" if failed else \
        f"no Dask scheduler answered within {limit:.0f} s"
    raise BadInput(f"--cluster {safe(address)}: cannot reach the scheduler ({why})")


def _seconds(duration: str) -> float:
    return float(duration.removesuffix("s"))


def _lost(path: str, exc: BaseException) -> dict[str, Any]:
    """A log whose verification the cluster lost (a worker died): an internal error, not a verdict."""
    return {"path": path, "game": None, "verdict": "error", "events": 0, "violations": [], "outcome": None,
            "error": internal_error_line(exc, f"{path} (on the cluster)")}


def cluster_verdicts(address: str, paths: list[str], keep_going: bool,
                     verify_path: Callable[..., dict[str, Any]], config: tuple[Any, ...] = ()) -> Iterator[dict[str, Any]]:
    """Each path's verdict document, in input order, computed by the cluster's workers; ``config``
    tells them where data ids are found (the same ``--pools`` directories: they must be readable
    on the workers, like the logs)."""
    client = _client(address)
    try:
        threads = sum(client.nthreads().values()) or 1
        window = max(8, IN_FLIGHT_PER_THREAD * threads)
        pending: deque[tuple[str, Any]] = deque()
        todo = iter(paths)
        for path in todo:
            pending.append((path, client.submit(verify_path, path, keep_going, config, pure=False)))
            if len(pending) >= window:
                yield _result(*pending.popleft())
        while pending:
            yield _result(*pending.popleft())
    finally:
        client.close()


def _result(path: str, future: Any) -> dict[str, Any]:
    try:
        return future.result()
    except Exception as exc:  # noqa: BLE001 - the cluster's failure is this log's internal error
        return _lost(path, exc)
    finally:
        future.release()
