"""The store's adapter over ``eventsourcing``: what a store holds and how it is written.

The match aggregate (:class:`Match`: its stream holds a ``Created`` event, one ``Recorded`` event
per log event and per engine-derived consequence, and a ``Closed`` event with the verdict and the
map from log event number to stream version), the index, data and variation events, the msgspec
transcoder and mapper, the application recorders that write an import's batches (SQLite: one
``executemany``; PostgreSQL: a binary ``COPY``), the application and its environment
(:func:`store_env`).  Game events are stored as their JSON log line bytes inside the one stable
``Recorded`` class (explicit ``TOPIC`` strings, not module paths), so renaming or moving a game's
event classes (or this module) never breaks a store.

This is the only module that touches eventsourcing's classes (:mod:`adjudicator.core.store.importer`
and :mod:`adjudicator.core.store` use only the objects made here and the application's public API:
``events.get``, ``recorder``, ``snapshots``, ``repository``).  It uses the library's public API,
except the few internals listed in :data:`INTERNALS`, each reached through one helper and checked
against the installed library by ``tests/test_store_upgrade.py``.  Why each choice: the module
docstring of :mod:`adjudicator.core.store`.
"""

from __future__ import annotations

import os
import sqlite3
import struct
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone
from typing import Any

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, DomainEvent
from eventsourcing.domain import Snapshot as _LibrarySnapshot
from eventsourcing.persistence import (
    InfrastructureFactoryError,
    IntegrityError,
    Mapper,
    PersistenceError,
    StoredEvent,
    Transcoder,
)
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor
from eventsourcing.utils import register_topic

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.protocol import Game
# -- the eventsourcing internals this module relies on ----------------------------------------------
#
# Everything else here is the library's public API (Application, Aggregate and its events,
# Snapshot, Mapper.to_stored_event, Transcoder, the recorders' select/insert through ``save``, the
# event store's ``get``).  These few internals are used for speed (measured: see the module
# docstring); each is reached only through the helper beside it, and ``tests/test_store_upgrade.py``
# checks every one against the installed eventsourcing, so an upgrade that changes one fails there,
# naming it, not somewhere in an import.

#: (the internal, why it is used): the one list (the upgrade test checks each)
INTERNALS: tuple[tuple[str, str], ...] = (
    ("eventsourcing.domain.Aggregate.__base_init__",
     "a match restored from its snapshot is built without replaying its stream (Match.Snapshot.mutate)"),
    ("eventsourcing.domain.Aggregate._version", "a match folded at import is given its version directly"),
    ("eventsourcing.domain.Aggregate._modified_on", "... and its last timestamp"),
    ("eventsourcing.domain.Aggregate._pending_events",
     "pending events are handed over by swapping the list (the library pops from its front: quadratic)"),
    ("eventsourcing.sqlite.SQLiteApplicationRecorder._insert_events",
     "SQLite inserts the rows of a save() with one executemany (BulkSQLiteApplicationRecorder)"),
    ("eventsourcing.sqlite.SQLiteAggregateRecorder.insert_events_statement",
     "a long match is written in batches on the cursor of one transaction, with the library's own INSERT"),
    ("eventsourcing.sqlite.SQLiteDatastore.get_connection",
     "an import's transaction sets its connection's synchronous level first (SQLITE_SYNCHRONOUS_ENV)"),
    ("eventsourcing.domain.DomainEvent.__dict__",
     "stored events are built without their dataclass __init__, as the library's mapper reads them back"),
    ("eventsourcing.postgres.PostgresApplicationRecorder._lock_table",
     "PostgreSQL: a batch COPY takes the library's own table lock first (notification ids in commit order)"),
    ("eventsourcing.postgres.PostgresApplicationRecorder._notify_channel",
     "... and sends the library's own NOTIFY, as its insert does"),
    ("eventsourcing.postgres.PostgresAggregateRecorder.events_table_name",
     "PostgreSQL: the table (and the datastore's schema and id type) a batch is COPied into"),
)


def _restored(cls: type, match_id: uuid.UUID, version: int, created_on: datetime, modified_on: datetime) -> Any:
    """An aggregate of ``cls`` at ``version``, built without replaying (``__base_init__``)."""
    agg: Any = object.__new__(cls)
    agg.__base_init__(match_id, version, created_on)
    agg._modified_on = modified_on
    return agg


def _set_position(agg: Any, version: int, modified_on: datetime) -> None:
    """Move an aggregate folded outside the library to ``version`` (``_version``, ``_modified_on``)."""
    agg._version, agg._modified_on = version, modified_on


def _take_pending(agg: Any) -> list[Any]:
    """The aggregate's pending events, handed over by swapping the list (``_pending_events``)."""
    collected, agg._pending_events = agg._pending_events, []
    return collected


def _give_pending(agg: Any, events: list[Any]) -> None:
    """Make ``events`` the aggregate's pending events (``_pending_events``), to be saved."""
    agg._pending_events = events


@contextmanager
def _sqlite_transaction(datastore: Any, pragma: str) -> Iterator[Any]:
    """A write transaction of the SQLite ``datastore`` whose connection runs ``pragma`` before it
    begins (``get_connection``, ``transaction``: what ``datastore.transaction`` does, plus the
    pragma: SQLite refuses to change ``synchronous`` inside a transaction)."""
    with datastore.get_connection(commit=True) as conn:
        conn.cursor().execute(pragma)
        with conn.transaction(commit=True) as cursor:
            yield cursor


def _insert_statement(recorder: Any) -> str:
    """The recorder's own INSERT of one stored event (``insert_events_statement``)."""
    return recorder.insert_events_statement


def _lock_and_notify(recorder: Any, cursor: Any) -> None:
    """Take the PostgreSQL recorder's table lock and send its NOTIFY (``_lock_table``,
    ``_notify_channel``), on the cursor of the caller's transaction, as its own insert does."""
    recorder._lock_table(cursor)
    recorder._notify_channel(cursor)


def _copy_target(recorder: Any) -> tuple[str, str, str]:
    """A PostgreSQL recorder's (schema, table, originator id type) (``events_table_name``)."""
    return recorder.datastore.schema, recorder.events_table_name, recorder.datastore.originator_id_type


def _new(cls: type, fields: dict[str, Any]) -> Any:
    """Build a library domain event without its dataclass ``__init__`` (its ``__dict__``).

    Exactly what the library's own mapper does when it reads an event back; it skips the
    per-field frozen ``__setattr__`` and the ``__post_init__`` check for every stored event.
    """
    ev: Any = object.__new__(cls)
    object.__setattr__(ev, "__dict__", fields)
    return ev


#: take a snapshot every this many stream versions (see the module docstring)
SNAPSHOT_EVERY = 200
#: the SQLite file used when neither ``db`` nor ``ADJUDICATOR_DB`` says otherwise
DEFAULT_DB = "adjudicator.db"
#: environment variable naming the SQLite file
DB_ENV = "ADJUDICATOR_DB"
#: the eventsourcing application name (also the prefix of its own environment variables)
APP_NAME = "adjudicator"

#: the timestamp of events whose log gives no parseable ``at``: fixed, never the clock
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
#: namespace of match ids: uuid5 over the sha256 of a log's canonical content
MATCH_NAMESPACE = uuid.UUID("6f1d0c0e-3c59-5b8e-9a57-0e1f6c8a4d21")
#: the stream that indexes stored matches (one entry per match, for listing)
INDEX_ID = uuid.uuid5(MATCH_NAMESPACE, "adjudicator.store/index")

STORED = "stored"
ALREADY_STORED = "already stored"
REFUSED = "refused"
#: the caller withdrew the import before it was saved (``proceed`` answered False): nothing stored
ABORTED = "aborted"

_SAVE_RETRIES = 20


# -- errors ------------------------------------------------------------------------------------

class StoreError(AdjudicatorError):
    """The store cannot be opened, read or written (the CLI exits 2 with this message)."""


# -- serialisation -----------------------------------------------------------------------------

class MsgpackTranscoder(Transcoder):
    """msgspec MessagePack for event state dicts (the 9.5.6 wheel has no msgspec transcoder).

    MessagePack keeps bytes (the JSON log lines) and datetimes (timestamps) as they are, so no
    custom transcodings are needed; our events hold only builtins, bytes and datetimes.
    """

    def __init__(self) -> None:
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder = msgspec.msgpack.Decoder()
        # the codec's own methods on the instance: no Python frame per stored event
        self.encode = self._encoder.encode  # type: ignore[assignment]
        self.decode = self._decoder.decode  # type: ignore[assignment]

    def encode(self, obj: Any) -> bytes:
        return self._encoder.encode(obj)

    def decode(self, data: bytes) -> Any:
        return self._decoder.decode(data)


# -- the aggregate -----------------------------------------------------------------------------

def _init_match(agg: Match, game_id: str, digest: str, source: str) -> None:
    """Set the non-library attributes of a match (shared by ``Created`` and snapshots)."""
    agg.game_id = game_id
    agg.game = registry.get(game_id)
    agg.digest = digest
    agg.source = source
    agg.state = None
    agg.verdict = None


def _fold(game: Game, state: Any, event: Event, seq: int | None) -> Any:
    """The state after an applied stream event: the one rule both import and replay use."""
    if seq == 1:
        return game.initial_state(event)
    return game.apply(state, event)


class Match(Aggregate):
    """A stored match; ``state`` is the game state after the events applied so far."""

    # Attributes (set by ``_init_match``; not annotated, or the aggregate metaclass would turn
    # them into dataclass ``__init__`` parameters): game_id, game, digest, source, state, verdict.
    TOPIC = "adjudicator/match"

    class Event(Aggregate.Event):
        pass

    class Created(Event, Aggregate.Created):
        """Opens the stream: which game, the content digest, the file it was imported from."""

        TOPIC = "adjudicator/match.created/1"
        game: str
        digest: str
        source: str

        def apply(self, aggregate: Any) -> None:
            _init_match(aggregate, self.game, self.digest, self.source)

    class Recorded(Event):
        """One event of the match as a JSON log line, with how the adjudicator ruled on it.

        ``seq`` is the log event number (None for an event the engine derived), ``line`` the
        log line (for a derived event, the line of the log event that forced it), ``applied``
        whether it changed the state (False for an illegal event or a stated derived event
        that confirmed an earlier derivation), ``ruling`` the ruling for log events.
        """

        TOPIC = "adjudicator/match.recorded/1"
        event: bytes
        line: int
        seq: int | None
        kind: str
        applied: bool
        ruling: dict[str, Any] | None

        def apply(self, aggregate: Any) -> None:
            if self.applied:
                game = aggregate.game
                aggregate.state = _fold(game, aggregate.state, game.decoder.decode(self.event), self.seq)

    class Closed(Event):
        """Ends the stream: the verdict and ``versions[n-1]``, the version after log event n."""

        TOPIC = "adjudicator/match.closed/1"
        verdict: str
        violations: list[dict[str, Any]]
        unchecked: list[dict[str, Any]]
        versions: list[int]
        events: int
        stored_events: int
        players: list[str]
        outcome: dict[str, Any] | None
        #: the hash of the log's last line when it was sealed (``prev``); None otherwise, and in
        #: streams stored before it was kept
        chain_head: str | None = None

        def apply(self, aggregate: Any) -> None:
            aggregate.verdict = self.verdict

    class Snapshot(_LibrarySnapshot):
        """The game state at a version, as the game's judge view (``game.view(state, None)``)."""

        TOPIC = "adjudicator/match.snapshot/1"

        @classmethod
        def take(cls, aggregate: Any) -> Match.Snapshot:
            return cls.of(aggregate.id, aggregate.version, aggregate.modified_on, aggregate.game,
                          aggregate.state, digest=aggregate.digest, source=aggregate.source,
                          created_on=aggregate.created_on)

        @classmethod
        def of(cls, match_id: uuid.UUID, version: int, timestamp: datetime, game: Game, state: Any, *,
               digest: str, source: str, created_on: datetime) -> Match.Snapshot:
            view = None if state is None else game.view(state, None)
            return cls(originator_id=match_id, originator_version=version, timestamp=timestamp,
                       topic=Match.TOPIC,
                       state={"game": game.id, "digest": digest, "source": source,
                              "created_on": created_on, "view": view})

        def mutate(self, _: Any) -> Match:
            s = self.state
            agg = _restored(Match, self.originator_id, self.originator_version, s["created_on"], self.timestamp)
            _init_match(agg, s["game"], s["digest"], s["source"])
            if s["view"] is not None:
                agg.state = agg.game.load_state(s["view"])
            return agg

    def collect_events(self) -> list[Any]:
        """Hand over the pending list by swapping it (the library pops from the front)."""
        return _take_pending(self)


class IndexEntry(DomainEvent):
    """One stored match in the index stream, so listing never replays a match."""

    TOPIC = "adjudicator/index.entry/1"
    match_id: str
    game: str
    source: str
    digest: str
    players: list[str]
    verdict: str
    violations: int
    events: int
    stored_events: int
    outcome: dict[str, Any] | None
    #: as ``Match.Closed.chain_head``
    chain_head: str | None = None
    #: the data the match was checked against: ``{"kind", "id", "sha256"}`` each (kept in a
    #: :class:`DataStored` stream, once by hash); None in entries written before data was kept
    data: list[dict[str, str]] | None = None
    #: the match header (``MatchStarted.meta``, core/kernel/meta.py); None: none, or written before it was kept
    meta: dict[str, str] | None = None


class DataStored(DomainEvent):
    """A card pool, board or island, kept once by the sha256 of its canonical content
    (:mod:`adjudicator.core.kernel.sources`) in a stream of its own; the index entries of the matches
    that use it name it by game, kind, id and hash."""

    TOPIC = "adjudicator/data.stored/1"
    game: str
    kind: str
    data_id: str
    sha256: str
    #: the canonical content (msgspec JSON, sorted keys): its sha256 is ``sha256``
    content: bytes


class VariationStored(DomainEvent):
    """An analysis-board variation kept with a stored match: the events played after event ``at``
    (each legal there, in turn), in a stream of its own per match (``variations_stream_id``)."""

    TOPIC = "adjudicator/variation.stored/1"
    match_id: str
    at: int
    name: str
    events: list[dict[str, Any]]


def variations_stream_id(match_id: str) -> uuid.UUID:
    """The stream of the variations kept with one stored match."""
    return uuid.uuid5(MATCH_NAMESPACE, f"adjudicator.store/variations/{match_id}")


def data_stream_id(game: str, kind: str, sha256: str) -> uuid.UUID:
    """The stream that keeps one content of one kind of data of one game."""
    return uuid.uuid5(MATCH_NAMESPACE, f"adjudicator.store/data/{game}/{kind}/{sha256}")


# Explicit topics of classes the aggregate machinery does not register itself.
register_topic(Match.Snapshot.TOPIC, Match.Snapshot)
register_topic(IndexEntry.TOPIC, IndexEntry)
register_topic(DataStored.TOPIC, DataStored)
register_topic(VariationStored.TOPIC, VariationStored)


def _project(aggregate: Match | None, events: Iterable[Any]) -> Match | None:
    """The plain projector: no runtime-protocol check per event (2.4x faster rebuilds)."""
    for e in events:
        aggregate = e.mutate(aggregate)
    return aggregate


_RECORDED_FIELDS = ("timestamp", "event", "line", "seq", "kind", "applied", "ruling")


class RecordedFields(msgspec.Struct):
    """A ``Recorded`` event's stored fields, in :data:`_RECORDED_FIELDS` order: msgpack encodes it
    as the same map a dict of them gives (the same bytes), made faster (the import makes one per
    stored event).  ``timestamp`` may be the datetime's encoding (``msgspec.Raw``)."""

    timestamp: Any
    event: bytes
    line: int
    seq: int | None
    kind: str
    applied: bool
    ruling: Any



class MatchMapper(Mapper[uuid.UUID]):
    """The library's mapper with a direct path for ``Recorded``, nearly every stored event.

    Same stored form as the generic path (a dict of the event's fields without its id and
    version), minus a topic lookup and two dict copies per event.
    """

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if type(domain_event) is not Match.Recorded:
            return super().to_stored_event(domain_event)
        d = domain_event.__dict__
        return self.recorded(d["originator_id"], d["originator_version"], {k: d[k] for k in _RECORDED_FIELDS})

    def recorded(self, match_id: uuid.UUID, version: int, fields: dict[str, Any]) -> StoredEvent:
        """The stored form of a ``Recorded`` event with these fields (``_RECORDED_FIELDS``, in
        that order), built without the domain event (the import writes thousands a second)."""
        return _new(StoredEvent, {"originator_id": match_id, "originator_version": version,
                                  "topic": Match.Recorded.TOPIC, "state": self.state_encoder()(fields)})

    def state_encoder(self) -> Callable[[Any], bytes]:
        """fields -> the stored ``state`` bytes, as ``to_stored_event`` makes them: the
        transcoder's own C encoder when no compressor or cipher is configured."""
        encode, compressor, cipher = self.transcoder.encode, self.compressor, self.cipher
        if not compressor and not cipher:
            return encode

        def encoded(fields: Any) -> bytes:
            state = encode(fields)
            if compressor:
                state = compressor.compress(state)
            if cipher:
                state = cipher.encrypt(state)
            return state

        return encoded


#: a stored event as a batch recorder writes it: (originator id as its table takes it, version,
#: topic, state); built directly by the import, without a ``StoredEvent`` per row
Row = tuple[Any, int, str, bytes]

#: the environment variable naming SQLite's ``synchronous`` level for imports (docs/deploy.md)
SQLITE_SYNCHRONOUS_ENV = "ADJUDICATOR_SQLITE_SYNCHRONOUS"
#: the levels it may name; NORMAL in WAL mode: a committed match survives the process being
#: killed; a power cut may lose the matches committed since the last checkpoint.  FULL waits for
#: the disk at every commit
SQLITE_SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")

#: set while the logs being imported are files that stay where they are (``store import``): a
#: match a power cut loses is stored again by importing its file again, so commits need not wait
#: for the disk.  Elsewhere (an upload, a match recorded in the browser) the store holds the only
#: copy and every commit waits (FULL)
_FROM_FILES: ContextVar[bool] = ContextVar("adjudicator_import_from_files", default=False)


@contextmanager
def importing_files() -> Iterator[None]:
    """Imports inside commit at NORMAL unless :data:`SQLITE_SYNCHRONOUS_ENV` says otherwise: the
    logs are files that remain (``adjudicator store import``)."""
    token = _FROM_FILES.set(True)
    try:
        yield
    finally:
        _FROM_FILES.reset(token)


def sqlite_synchronous() -> str:
    """The ``synchronous`` level imports commit with on SQLite: :data:`SQLITE_SYNCHRONOUS_ENV`
    when set, else NORMAL for logs that remain as files (:func:`importing_files`) and FULL for a
    store that holds the only copy."""
    default = "NORMAL" if _FROM_FILES.get() else "FULL"
    level = os.environ.get(SQLITE_SYNCHRONOUS_ENV, "").strip().upper() or default
    if level not in SQLITE_SYNCHRONOUS:
        raise StoreError(f"{SQLITE_SYNCHRONOUS_ENV}={os.environ[SQLITE_SYNCHRONOUS_ENV]!r}: "
                         f"expected one of {', '.join(SQLITE_SYNCHRONOUS)}")
    return level


class _BatchWriting:
    """An application recorder that also writes batches on the cursor of one transaction it
    opens for the caller (:meth:`batch_transaction`): the import writes a whole match, a batch at
    a time, in ONE transaction, so a log is stored whole or not at all (a kill -9 included).
    Selected through the library's ``APPLICATION_RECORDER_TOPIC`` setting (:func:`store_env`).
    The two recorders below define every method; this class names what the import uses."""

    def batch_transaction(self) -> AbstractContextManager[Any]:
        """A write transaction (its cursor) for :meth:`write_batch` and :meth:`write_snapshots`."""
        raise NotImplementedError

    def row_key(self, originator_id: uuid.UUID) -> Any:
        """An originator id as this recorder's table takes it in a :data:`Row`."""
        raise NotImplementedError

    def write_batch(self, cursor: Any, rows: Sequence[Row], *, first: bool) -> None:
        """Insert ``rows`` into the events table, inside the caller's transaction (``first``: the
        transaction's first batch)."""
        raise NotImplementedError

    def write_snapshots(self, cursor: Any, recorder: Any, stored: Sequence[StoredEvent]) -> None:
        """Insert snapshots into the table of ``recorder`` (the application's snapshot recorder)."""
        raise NotImplementedError

    def rows(self, stored: Sequence[StoredEvent]) -> list[Row]:
        """Stored events as rows."""
        key = self.row_key
        return [(key(s.originator_id), s.originator_version, s.topic, s.state) for s in stored]  # type: ignore[arg-type]


class BulkSQLiteApplicationRecorder(_BatchWriting, SQLiteApplicationRecorder):
    """Inserts a batch with one ``executemany`` instead of one ``execute`` per row, in a
    transaction whose connection commits at :func:`sqlite_synchronous`'s level.

    It does not report notification ids (rows still get them: the table keeps its rowid), so
    ``save()`` returns no recordings; nothing here uses them, and followers that read the
    notification log are unaffected.  Selected through the library's
    ``APPLICATION_RECORDER_TOPIC`` setting when the store is SQLite.
    """

    def batch_transaction(self) -> AbstractContextManager[Any]:
        return _sqlite_transaction(self.datastore, f"PRAGMA synchronous={sqlite_synchronous()}")

    def row_key(self, originator_id: uuid.UUID) -> Any:
        return originator_id.hex if isinstance(originator_id, uuid.UUID) else originator_id

    def write_batch(self, cursor: Any, rows: Sequence[Row], *, first: bool) -> None:
        cursor.executemany(_insert_statement(self), rows)

    def write_snapshots(self, cursor: Any, recorder: Any, stored: Sequence[StoredEvent]) -> None:
        cursor.executemany(_insert_statement(recorder), self.rows(stored))

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **_: Any) -> None:
        c.executemany(_insert_statement(self), self.rows(stored_events))


#: PostgreSQL's binary COPY format: the signature, flags and header extension length; the trailer
_COPY_HEAD = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
_COPY_TAIL = b"\xff\xff"
_I32 = struct.Struct(">i").pack
#: a row's originator version (length 8, int8)
_VERSION = struct.Struct(">iq").pack


def copy_binary(rows: Sequence[Row], id_type: str) -> bytes:
    """``rows`` in PostgreSQL's binary COPY format (signature, rows, trailer) for the columns
    (originator_id, originator_version, topic, state): ``id_type`` ``uuid`` (16 bytes) or text.
    The id and topic of a match repeat on every row, so each pair is encoded once."""
    out = bytearray(_COPY_HEAD)
    parts: dict[tuple[Any, str], tuple[bytes, bytes]] = {}
    for oid, version, topic, state in rows:
        known = parts.get((oid, topic))
        if known is None:
            if id_type == "uuid":
                ident = (oid if isinstance(oid, uuid.UUID) else uuid.UUID(str(oid))).bytes
            else:
                ident = str(oid).encode()
            name = topic.encode()
            known = parts[(oid, topic)] = (b"\x00\x04" + _I32(len(ident)) + ident, _I32(len(name)) + name)
        out += known[0]  # 4 fields, the originator id
        out += _VERSION(8, version)
        out += known[1]  # the topic
        out += _I32(len(state))
        out += state
    out += _COPY_TAIL
    return bytes(out)


def _copy_rows(cursor: Any, recorder: Any, rows: Sequence[Row]) -> None:
    """``COPY ... FROM STDIN (FORMAT BINARY)`` of rows into ``recorder``'s table, encoded here
    (:func:`copy_binary`): no per-row statement, no composite-type text escaping (the library's
    insert spends most of its time there on a long match), no adapter call per value."""
    from psycopg import sql

    schema, table, id_type = _copy_target(recorder)
    statement = sql.SQL("COPY {}.{} (originator_id, originator_version, topic, state) FROM STDIN (FORMAT BINARY)")
    with cursor.copy(statement.format(sql.Identifier(schema), sql.Identifier(table))) as copy:
        copy.write(copy_binary(rows, id_type))


def _bulk_postgres_class() -> type:
    """:class:`BulkPostgresApplicationRecorder`, made when first asked for (it needs psycopg,
    an optional dependency: ``pip install -e '.[postgres]'``)."""
    from eventsourcing.postgres import PostgresApplicationRecorder

    class BulkPostgresApplicationRecorder(_BatchWriting, PostgresApplicationRecorder):
        """Writes an import's batches with ``COPY`` on the cursor of the import's transaction,
        after the library's own table lock and NOTIFY (so notification ids still follow commit
        order); everything else is the library's recorder.  Selected through
        ``APPLICATION_RECORDER_TOPIC`` (:data:`POSTGRES_DEFAULTS`)."""

        def batch_transaction(self) -> AbstractContextManager[Any]:
            return self.datastore.transaction(commit=True)

        def row_key(self, originator_id: uuid.UUID) -> Any:
            return originator_id

        def write_batch(self, cursor: Any, rows: Sequence[Row], *, first: bool) -> None:
            if first:  # held until the transaction ends: once is enough
                _lock_and_notify(self, cursor)
            _copy_rows(cursor, self, rows)

        def write_snapshots(self, cursor: Any, recorder: Any, stored: Sequence[StoredEvent]) -> None:
            _copy_rows(cursor, recorder, self.rows(stored))

    BulkPostgresApplicationRecorder.__module__ = __name__
    return BulkPostgresApplicationRecorder


def __getattr__(name: str) -> Any:
    """``BulkPostgresApplicationRecorder`` is built on first use (the library resolves it by its
    topic), so importing the store never imports psycopg."""
    if name == "BulkPostgresApplicationRecorder":
        cls = globals()[name] = _bulk_postgres_class()
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class MatchApplication(Application[uuid.UUID]):
    """The eventsourcing application: msgspec transcoder, snapshots on, no interval snapshots."""

    name = APP_NAME
    is_snapshotting_enabled = True

    def construct_transcoder(self) -> Transcoder:
        return MsgpackTranscoder()

    def construct_mapper(self) -> Mapper[uuid.UUID]:
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=MatchMapper)


# -- where the store is: the application's environment ----------------------------------------

def _env_get(key: str) -> str | None:
    """An eventsourcing setting from the environment, the app-prefixed name first."""
    return os.environ.get(f"{APP_NAME.upper()}_{key}") or os.environ.get(key)


def _forced(settings: dict[str, str]) -> dict[str, str]:
    """Settings that beat the environment (which the library reads app-prefixed first)."""
    out: dict[str, str] = {}
    for k, v in settings.items():
        out[k] = v
        out[f"{APP_NAME.upper()}_{k}"] = v
    return out


#: what the store adds to a PostgreSQL configuration unless the environment sets it: an import
#: writes its batches with COPY in one transaction (:class:`BulkPostgresApplicationRecorder`);
#: the library's other inserts go through its database function (one statement): its default, a
#: pipelined executemany, stalls on a long match's thousands of rows (measured: 6,000 events)
POSTGRES_DEFAULTS: dict[str, str] = {"POSTGRES_ENABLE_DB_FUNCTIONS": "y",
                                     "APPLICATION_RECORDER_TOPIC": f"{__name__}:BulkPostgresApplicationRecorder"}


def store_env(db: str | None = None, *, memory: bool = False) -> tuple[dict[str, str], str]:
    """The application environment and a human description of where matches are kept.

    In memory (POPO) when asked; SQLite at ``db`` when given; otherwise the library's own
    ``PERSISTENCE_MODULE`` settings when present (PostgreSQL, ...), with ``ADJUDICATOR_DB`` or
    ``./adjudicator.db`` as the SQLite file when that module is SQLite and names none; otherwise
    SQLite at ``ADJUDICATOR_DB`` or ``./adjudicator.db``.
    """
    common = {"IS_SNAPSHOTTING_ENABLED": "y"}
    bulk = {"APPLICATION_RECORDER_TOPIC": f"{__name__}:BulkSQLiteApplicationRecorder"}
    sqlite_synchronous()  # a bad setting is refused before anything is opened
    if memory:
        return _forced({**common, "PERSISTENCE_MODULE": "eventsourcing.popo"}), "memory"
    fallback = os.environ.get(DB_ENV) or DEFAULT_DB
    module = _env_get("PERSISTENCE_MODULE")
    if db is None and module:
        settings = dict(common)
        if module.startswith("eventsourcing.sqlite"):
            if not _env_get("SQLITE_DBNAME"):
                settings["SQLITE_DBNAME"] = fallback
            if not _env_get("APPLICATION_RECORDER_TOPIC"):
                settings.update(bulk)
        if module.startswith("eventsourcing.postgres"):
            settings.update({k: v for k, v in POSTGRES_DEFAULTS.items() if not _env_get(k)})
        name = _env_get("SQLITE_DBNAME") or settings.get("SQLITE_DBNAME") or _env_get("POSTGRES_DBNAME")
        return _forced(settings), f"{module} ({name})" if name else module
    path = db or fallback
    return _forced({**common, **bulk, "PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path}), path


@contextmanager
def _db_errors(where: str) -> Iterator[None]:
    """Turn persistence failures into a :class:`StoreError` naming the store."""
    try:
        yield
    except AdjudicatorError:
        raise
    except (PersistenceError, InfrastructureFactoryError, OSError, sqlite3.Error) as exc:
        raise StoreError(f"{where}: {type(exc).__name__}: {exc}") from None

