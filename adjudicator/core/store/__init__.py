"""The match store: verified match logs kept in an ``eventsourcing`` application.

Each match is one aggregate (:class:`Match`) whose state *is* the game state: its mutators call
the game's pure ``initial_state``/``apply``.  Its stream holds, in order, a ``Created`` event, one
``Recorded`` event per log event and per engine-derived consequence, and a ``Closed`` event with
the verdict and the map from log event number to stream version.  Game events are stored as
their JSON log line bytes inside the one stable ``Recorded`` class (explicit ``TOPIC`` strings,
not module paths), so renaming or moving a game's event classes never breaks a store.

Choices forced by measured eventsourcing 9.5.6 costs (see the design's performance notes):

* A whole match (and its entry in the match index) is written in ONE transaction, a batch at a
  time while it is verified (:class:`_BatchWriter`: an ``executemany`` per batch on SQLite, a
  ``COPY`` on PostgreSQL, through the application recorder the store selects): an error, a lost
  connection or a kill -9 mid-import leaves the whole match or nothing.  (In memory, and for a
  match a worker prepared, one ``app.save`` or ``insert_events`` call: one transaction too.)
  Its rows are built as the recorder writes them (a tuple per stored event, its state encoded
  from a msgspec struct: no domain event, no ``StoredEvent``), PostgreSQL's ``COPY`` payload is
  encoded in one pass, and SQLite commits logs that remain as files (``store import``) with
  ``synchronous=NORMAL`` (WAL: a kill -9 loses nothing committed) and an upload or a recording,
  of which the store holds the only copy, with FULL (``ADJUDICATOR_SQLITE_SYNCHRONOUS`` decides
  when set; docs/deploy.md).
* A pool the files (shipped, ``--pools``) resolve is resolved by them, with their cache; the
  store is asked only for an id they do not resolve (``_FilesFirst``).
* Pending events are handed over by swapping the list (``collect_events`` pops from the front,
  which is quadratic), and events are built directly, not through ``@event`` methods.
* Snapshots are built while folding the stream during import (every :data:`SNAPSHOT_EVERY`
  stream events) and written after the match; the library's synchronous interval snapshots are
  never enabled.  A snapshot serialises the game state with ``game.view(state, None)`` and
  restores it with ``game.load_state``.  Batched, they are written in the match's transaction;
  otherwise in a second one after the match: they are a cache, and a match whose snapshots were
  lost still replays, from the start.
* Replays use a plain projector (no runtime-protocol ``isinstance`` per event).
* Timestamps come from the log (the envelope's ``at`` when it parses, else the previous one,
  else a fixed epoch): nothing here reads the clock, so replays are deterministic.
* Events and snapshots are serialised with msgspec (MessagePack) by :class:`MsgpackTranscoder`.
* The match list and id lookups keep the index entries read so far and ask the index stream only
  for the entries after the last one (``events.get(INDEX_ID, gt=...)``): a request on a large store
  reads nothing twice, and sees what another process stored meanwhile.

The card pool, board or island a match was checked against (:mod:`adjudicator.core.kernel.sources`) is
kept once per content, in a stream of its own named by its hash (:class:`DataStored`); the index
entry of each match names the data it used (kind, id, sha256), so the matches that use a content
are found from the index, and a stored match is shown and replayed with exactly its own content
(:meth:`MatchStore.data_sources`) without the directory it came from.

The store is four modules, each reading only those before it:

* :mod:`adjudicator.core.store.adapter`: the adapter over eventsourcing: the ``Match`` aggregate
  and the index, data and variation events, the transcoder and mapper, the batch recorders
  (SQLite ``executemany``, PostgreSQL binary ``COPY``), the application and :func:`store_env`.
  It is the only module that touches eventsourcing's classes; it uses the library's public API,
  except the few internals listed in its ``INTERNALS``, each reached through one helper and
  checked against the installed library by ``tests/test_store_upgrade.py``.
* :mod:`adjudicator.core.store.index`: the match index (listing, lookup by id or prefix).
* :mod:`adjudicator.core.store.reads`: a stored match's log, steps, positions, variations, data.
* :mod:`adjudicator.core.store.importer`: the import pipeline (verify, encode, write; workers).

This module is :class:`MatchStore`, made of the three bases those modules define, and every name
other code imports from the store (``from adjudicator.core.store import ...``).
"""

from __future__ import annotations

import os
from typing import Any

from . import adapter as store_adapter
from adjudicator.core.kernel.log import MatchLog
from .adapter import (
    APP_NAME,
    DB_ENV,
    DEFAULT_DB,
    EPOCH,
    INDEX_ID,
    INTERNALS,
    MATCH_NAMESPACE,
    POSTGRES_DEFAULTS,
    SNAPSHOT_EVERY,
    BulkSQLiteApplicationRecorder,
    DataStored,
    DomainEvent,
    IndexEntry,
    IntegrityError,
    Match,
    MatchApplication,
    MatchMapper,
    MsgpackTranscoder,
    StoreError,
    VariationStored,
    _db_errors,
    _forced,
    _give_pending,
    _insert_statement,
    _new,
    _restored,
    _set_position,
    _take_pending,
    data_stream_id,
    importing_files,
    register_topic,
    store_env,
    variations_stream_id,
)
from .importer import (
    ABORTED,
    ALREADY_STORED,
    PREPARE_MAX_BYTES,
    REFUSED,
    STORED,
    ImportResult,
    Importing,
    MatchData,
    Prepared,
    _BatchWriter,
    data_of,
    digest_of,
    match_id_of,
    prepare_log,
)
from .index import AmbiguousMatch, Indexing, MatchSummary, UnknownMatch
from .reads import MAX_VARIATIONS, BadPosition, LoggedEvent, Reading, StoredStep
from adjudicator.core.kernel.verify import Result, run


class MatchStore(Importing, Reading, Indexing):
    """Store, list and replay matches.  One instance per process (or thread pool) and store.

    ``db`` is an SQLite file (see :func:`store_env` for the defaults); ``memory=True`` keeps
    everything in this process (tests).  Call :meth:`close` when done (or use ``with``).
    """

    def __init__(self, db: str | None = None, *, memory: bool = False,
                 snapshot_every: int = SNAPSHOT_EVERY) -> None:
        env, self.location = store_env(db, memory=memory)
        if db is not None and not memory:
            parent = os.path.dirname(os.path.abspath(db))
            if not os.path.isdir(parent):
                raise StoreError(f"{db}: cannot create the store: no such directory {parent}")
        self.snapshot_every = snapshot_every
        Indexing.__init__(self)
        Reading.__init__(self)
        self._import_sources = None
        self._kept_streams = set()
        with _db_errors(self.location):
            self.app = MatchApplication(env=env)

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.app.close()

    def _verify(self, log: MatchLog, **options: Any) -> Result:
        """Verify ``log`` with this module's ``run`` (a test stands a slow verifier in here)."""
        return run(log, **options)


def __getattr__(name: str) -> Any:
    """``BulkPostgresApplicationRecorder`` is built on first use (it needs psycopg); a recorder
    topic naming this module (``adjudicator.core.store:...``) still resolves."""
    if name == "BulkPostgresApplicationRecorder":
        return getattr(store_adapter, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ABORTED", "ALREADY_STORED", "APP_NAME", "DB_ENV", "DEFAULT_DB", "EPOCH", "INDEX_ID", "INTERNALS",
    "MATCH_NAMESPACE", "MAX_VARIATIONS", "POSTGRES_DEFAULTS", "PREPARE_MAX_BYTES", "REFUSED", "SNAPSHOT_EVERY",
    "STORED",
    "AmbiguousMatch", "BadPosition", "StoreError", "UnknownMatch",
    "BulkSQLiteApplicationRecorder", "DataStored", "IndexEntry", "Match", "MatchApplication", "MatchMapper",
    "MsgpackTranscoder", "VariationStored",
    "ImportResult", "LoggedEvent", "MatchData", "MatchStore", "MatchSummary", "Prepared", "StoredStep",
    "data_of", "data_stream_id", "digest_of", "match_id_of", "prepare_log", "store_env", "variations_stream_id",
    "run",
]
# Also importable from here, as before the split: the library names tournament_store.py uses
# (DomainEvent, IntegrityError, register_topic) and the helpers tests/test_store*.py and tests/pg.py
# check (_BatchWriter, _forced, _give_pending, _insert_statement, _new, _restored, _set_position,
# _take_pending).
