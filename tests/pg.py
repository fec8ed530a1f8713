"""A throwaway PostgreSQL server for the store and web service tests.

Started once per test session from Debian's ``postgresql`` package (``initdb`` and ``pg_ctl``
into a temporary directory, listening only on a unix socket there, trust authentication), and
stopped at the end.  As root (CI containers), the server runs as the ``postgres`` user the
package creates (``initdb`` refuses to run as root).  Without the package or the ``psycopg``
driver the PostgreSQL variants of the tests are skipped, saying why.

:func:`as_postgres` makes every SQLite store a test opens go to a fresh PostgreSQL database
instead (one database per SQLite path), so one suite runs against both.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

PORT = 54329


def _bin() -> str | None:
    """The directory of ``initdb``/``pg_ctl``: Debian keeps them per version, off the PATH."""
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True):
        if os.path.exists(os.path.join(d, "initdb")):
            return d
    found = shutil.which("initdb")
    return os.path.dirname(found) if found else None


def unavailable() -> str | None:
    """Why PostgreSQL cannot be used here, or None."""
    if _bin() is None:
        return "PostgreSQL is not installed (Debian package postgresql; .ci/run installs it)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the psycopg driver is not installed (pip install -e '.[dev]')"
    if os.getuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server as"
    return None


@dataclass
class Server:
    socket_dir: str
    port: int
    user: str = "adjudicator"
    databases: dict[str, str] = field(default_factory=dict)

    def settings(self, dbname: str) -> dict[str, str]:
        """The eventsourcing settings of a store in database ``dbname``."""
        return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
                "POSTGRES_HOST": self.socket_dir, "POSTGRES_PORT": str(self.port),
                "POSTGRES_USER": self.user, "POSTGRES_PASSWORD": "unused (trust)", "POSTGRES_POOL_SIZE": "2",
                "POSTGRES_CONNECT_TIMEOUT": "10", **store_postgres_defaults()}

    def database_for(self, key: str) -> str:
        """A fresh database for ``key`` (created on first use)."""
        name = self.databases.get(key)
        if name is None:
            import psycopg

            name = self.databases[key] = f"t{len(self.databases) + 1}"
            with psycopg.connect(host=self.socket_dir, port=self.port, user=self.user, dbname="postgres",
                                 autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
                conn.execute(f'CREATE DATABASE "{name}"')
        return name


def store_postgres_defaults() -> dict[str, str]:
    from adjudicator.core.store import POSTGRES_DEFAULTS

    return dict(POSTGRES_DEFAULTS)


def _run(args: list[str], as_root: bool) -> None:
    cmd = (["runuser", "-u", "postgres", "--"] if as_root else []) + args
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr.strip() or proc.stdout.strip()}")


def start() -> Iterator[Server]:
    """Start a server in a new temporary directory; stop it and remove the directory at the end."""
    why = unavailable()
    if why and os.environ.get("ADJUDICATOR_REQUIRE_POSTGRES"):
        pytest.fail(f"ADJUDICATOR_REQUIRE_POSTGRES is set (CI) but {why}")
    if why:
        pytest.skip(why)
    bindir = _bin()
    assert bindir is not None
    as_root = os.getuid() == 0
    root = tempfile.mkdtemp(prefix="adjudicator-pg-")
    data = os.path.join(root, "data")
    os.chmod(root, 0o755)
    if as_root:
        pw = pwd.getpwnam("postgres")
        os.chown(root, pw.pw_uid, pw.pw_gid)
    try:
        _run([os.path.join(bindir, "initdb"), "-D", data, "-U", "adjudicator", "--auth=trust", "-E", "UTF8",
              "--no-sync"], as_root)
        opts = f"-k {root} -c listen_addresses='' -p {PORT} -c fsync=off -c full_page_writes=off"
        _run([os.path.join(bindir, "pg_ctl"), "-D", data, "-o", opts, "-l", os.path.join(root, "log"), "-w",
              "-t", "60", "start"], as_root)
        try:
            yield Server(root, PORT)
        finally:
            _run([os.path.join(bindir, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], as_root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def postgres_store_env(server: Server) -> Any:
    """A replacement for ``store.store_env`` that sends every SQLite store (``MatchStore(path)``,
    ``--db PATH``) to a PostgreSQL database of its own; in-memory stores stay in memory."""
    from adjudicator.core import store

    real = store.store_env

    def store_env(db: str | None = None, *, memory: bool = False) -> tuple[dict[str, str], str]:
        if memory:
            return real(db, memory=True)
        key = os.path.abspath(db or os.environ.get(store.DB_ENV) or store.DEFAULT_DB)
        name = server.database_for(key)
        return store._forced({"IS_SNAPSHOTTING_ENABLED": "y", **server.settings(name)}), f"postgres:{name}"

    return store_env


def as_postgres(monkeypatch: pytest.MonkeyPatch, server: Server) -> None:
    """Every SQLite store opened from now on goes to PostgreSQL (:func:`postgres_store_env`)."""
    from adjudicator.core import store

    monkeypatch.setattr(store, "store_env", postgres_store_env(server))
