"""``verify --cluster``: a corpus fanned out over a Dask distributed cluster.

The cluster is an existing engine (``dask.distributed``), not one written here: the scheduler
hands each log's verification to a worker, which runs the same function a local worker process
runs (``verify_one``), so the output is the same as local.  Results come back in input order, and
at most a window of logs is in flight at once, so the memory on this side is bounded by the
window, not by the corpus.  The workers read the logs by path: the paths must be readable on
every worker (a shared filesystem or the same directory tree).  See docs/deploy.md.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from .common import BadInput, internal_error_line

#: logs in flight per worker thread (more keeps the workers busy; fewer bounds memory here)
IN_FLIGHT_PER_THREAD = 4
#: how long to wait for the scheduler before giving up
CONNECT_TIMEOUT = "20s"


def _client(address: str) -> Any:
    try:
        from dask.distributed import Client
    except ImportError:
        raise BadInput("--cluster needs Dask distributed: pip install 'adjudicator[cluster]'") from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise BadInput(f"--cluster {address}: cannot reach the scheduler ({type(exc).__name__}: {exc})") from None


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
