"""Import and seek on PostgreSQL, beside SQLite (part of every ``python -m benchmarks`` run).

A throwaway server is started for the run the way the tests start theirs (``tests/pg.py``:
Debian's ``postgresql`` package, ``initdb`` and ``pg_ctl`` in a temporary directory, a unix
socket, fsync off: the figures measure the adjudicator and the driver, not a disk).  The same
import and seek measurements as on SQLite then run with every store sent to a fresh PostgreSQL
database.  Without PostgreSQL (or psycopg) the figures say why they are missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock


@contextmanager
def server(say: Any, enabled: bool = True) -> Iterator[Any]:
    """A running throwaway server for the whole run, or None (and the reason is said)."""
    if not enabled:
        yield None
        return
    try:
        from tests import pg
    except ImportError:
        say("  [postgres] skipped: run the benchmarks from the repository (tests/pg.py starts the server)")
        yield None
        return
    why = pg.unavailable()
    if why:
        say(f"  [postgres] skipped: {why}")
        yield None
        return
    gen = pg.start()
    srv = next(gen)
    try:
        yield srv
    finally:
        gen.close()  # stops the server and removes its directory


@contextmanager
def stores_on(srv: Any) -> Iterator[None]:
    """While inside, every ``MatchStore(path)`` opens a fresh PostgreSQL database instead."""
    from adjudicator.core import store
    from tests import pg

    with mock.patch.object(store, "store_env", pg.postgres_store_env(srv)):
        yield
