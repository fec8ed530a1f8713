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
* Pending events are handed over by swapping the list (``collect_events`` pops from the front,
  which is quadratic), and events are built directly, not through ``@event`` methods.
* Snapshots are built while folding the stream during import (every :data:`SNAPSHOT_EVERY`
  stream events) and written after the match; the library's synchronous interval snapshots are
  never enabled.  A snapshot serialises the game state with ``game.view(state, None)`` and
  restores it with ``game.load_state``.  Snapshots go in a second transaction after the match:
  they are a cache, and a match whose snapshots were lost still replays, from the start.
* Replays use a plain projector (no runtime-protocol ``isinstance`` per event).
* Timestamps come from the log (the envelope's ``at`` when it parses, else the previous one,
  else a fixed epoch): nothing here reads the clock, so replays are deterministic.
* Events and snapshots are serialised with msgspec (MessagePack) by :class:`MsgpackTranscoder`.
* The match list and id lookups keep the index entries read so far and ask the index stream only
  for the entries after the last one (``events.get(INDEX_ID, gt=...)``): a request on a large store
  reads nothing twice, and sees what another process stored meanwhile.

The card pool, board or island a match was checked against (:mod:`adjudicator.core.sources`) is
kept once per content, in a stream of its own named by its hash (:class:`DataStored`); the index
entry of each match names the data it used (kind, id, sha256), so the matches that use a content
are found from the index, and a stored match is shown and replayed with exactly its own content
(:meth:`MatchStore.data_sources`) without the directory it came from.

This is the only module that touches eventsourcing.  It uses the library's public API, except the
few internals listed in :data:`INTERNALS`, each reached through one helper and checked against
the installed library by ``tests/test_store_upgrade.py``.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace as dc_replace
from datetime import datetime, timezone
from typing import Callable, Any, NamedTuple

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, DomainEvent, Snapshot
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

from . import registry, sources
from .errors import AdjudicatorError
from .events import Event
from .log import MatchLog, read_log, stream_log
from .meta import matches as meta_matches, meta_of
from .protocol import Game
from .rulings import Ruling
from .verify import Result, Step, Violation, run

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
     "SQLite inserts a batch with one executemany (BulkSQLiteApplicationRecorder)"),
    ("eventsourcing.sqlite.SQLiteAggregateRecorder.insert_events_statement",
     "a long match is written in batches on the cursor of one transaction, with the library's own INSERT"),
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
    agg = object.__new__(cls)
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


def _bulk_insert(recorder: Any, cursor: Any, stored_events: list[Any]) -> None:
    """Insert stored events on ``cursor`` (inside the caller's transaction) through the
    application recorder's ``_insert_events`` (ours: one executemany)."""
    recorder._insert_events(cursor, stored_events)


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
    ev = object.__new__(cls)
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


class UnknownMatch(StoreError):
    def __init__(self, ref: str, detail: str = "") -> None:
        self.ref = ref
        super().__init__(f"no stored match {ref!r}{detail}")


class AmbiguousMatch(StoreError):
    def __init__(self, prefix: str, candidates: list[str]) -> None:
        self.prefix = prefix
        self.candidates = candidates
        shown = ", ".join(candidates[:5]) + (", ..." if len(candidates) > 5 else "")
        super().__init__(f"match id prefix {prefix!r} is ambiguous ({len(candidates)} matches: {shown})")


class BadPosition(StoreError):
    """``--at`` outside the stored log."""


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
        self.encode = self._encoder.encode  # type: ignore[method-assign]
        self.decode = self._decoder.decode  # type: ignore[method-assign]

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

    class Snapshot(Snapshot):
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
    #: the match header (``MatchStarted.meta``, core/meta.py); None: none, or written before it was kept
    meta: dict[str, str] | None = None


class DataStored(DomainEvent):
    """A card pool, board or island, kept once by the sha256 of its canonical content
    (:mod:`adjudicator.core.sources`) in a stream of its own; the index entries of the matches
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


#: the most variations kept with one match
MAX_VARIATIONS = 100


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
        state = self.transcoder.encode(fields)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return _new(StoredEvent, {"originator_id": match_id, "originator_version": version,
                                  "topic": Match.Recorded.TOPIC, "state": state})


class _BatchWriting:
    """An application recorder that also writes batches on the cursor of a transaction the
    caller holds (``recorder.datastore.transaction``): the import writes a whole match, a batch
    at a time, in ONE transaction, so a log is stored whole or not at all (a kill -9 included).
    Selected through the library's ``APPLICATION_RECORDER_TOPIC`` setting (:func:`store_env`)."""

    def write_batch(self, cursor: Any, stored_events: Sequence[StoredEvent]) -> None:
        """Insert ``stored_events`` into the events table, inside the caller's transaction."""
        raise NotImplementedError

    def write_snapshots(self, cursor: Any, recorder: Any, stored: Sequence[StoredEvent]) -> None:
        """Insert snapshots into the table of ``recorder`` (the application's snapshot recorder)."""
        raise NotImplementedError


class BulkSQLiteApplicationRecorder(_BatchWriting, SQLiteApplicationRecorder):
    """Inserts a batch with one ``executemany`` instead of one ``execute`` per row.

    It does not report notification ids (rows still get them: the table keeps its rowid), so
    ``save()`` returns no recordings; nothing here uses them, and followers that read the
    notification log are unaffected.  Selected through the library's
    ``APPLICATION_RECORDER_TOPIC`` setting when the store is SQLite.
    """

    def write_batch(self, cursor: Any, stored_events: Sequence[StoredEvent]) -> None:
        _bulk_insert(self, cursor, stored_events)

    def write_snapshots(self, cursor: Any, recorder: Any, stored: Sequence[StoredEvent]) -> None:
        cursor.executemany(_insert_statement(recorder), [_row(s) for s in stored])

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **_: Any) -> None:
        hexes: dict[Any, str] = {}

        def key(oid: Any) -> str:
            h = hexes.get(oid)
            if h is None:
                h = hexes[oid] = oid.hex if isinstance(oid, uuid.UUID) else oid
            return h

        c.executemany(_insert_statement(self),
                      [(key(s.originator_id), s.originator_version, s.topic, s.state) for s in stored_events])


def _copy_rows(cursor: Any, recorder: Any, stored: Sequence[StoredEvent]) -> None:
    """``COPY ... FROM STDIN (FORMAT BINARY)`` of stored events into ``recorder``'s table: no
    per-row statement, no composite-type text escaping (the library's insert spends most of its
    time there on a long match)."""
    from psycopg import sql

    schema, table, id_type = _copy_target(recorder)
    statement = sql.SQL("COPY {}.{} (originator_id, originator_version, topic, state) FROM STDIN (FORMAT BINARY)")
    with cursor.copy(statement.format(sql.Identifier(schema), sql.Identifier(table))) as copy:
        copy.set_types([id_type, "int8", "text", "bytea"])
        write = copy.write_row
        for s in stored:
            write((s.originator_id, s.originator_version, s.topic, s.state))


def _bulk_postgres_class() -> type:
    """:class:`BulkPostgresApplicationRecorder`, made when first asked for (it needs psycopg,
    an optional dependency: ``pip install -e '.[postgres]'``)."""
    from eventsourcing.postgres import PostgresApplicationRecorder

    class BulkPostgresApplicationRecorder(_BatchWriting, PostgresApplicationRecorder):
        """Writes an import's batches with ``COPY`` on the cursor of the import's transaction,
        after the library's own table lock and NOTIFY (so notification ids still follow commit
        order); everything else is the library's recorder.  Selected through
        ``APPLICATION_RECORDER_TOPIC`` (:data:`POSTGRES_DEFAULTS`)."""

        def write_batch(self, cursor: Any, stored_events: Sequence[StoredEvent]) -> None:
            _lock_and_notify(self, cursor)
            _copy_rows(cursor, self, stored_events)

        def write_snapshots(self, cursor: Any, recorder: Any, stored: Sequence[StoredEvent]) -> None:
            _copy_rows(cursor, recorder, stored)

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


# -- public results ----------------------------------------------------------------------------

@dataclass(frozen=True)
class ImportResult:
    """What importing one log did; ``violations`` are the verifier's (kept with the match)."""

    match_id: str
    created: bool
    verdict: str
    violations: list[Violation]
    events: int
    stored_events: int
    #: "stored", "already stored" or "refused"
    status: str = STORED
    path: str = ""


@dataclass(frozen=True)
class MatchSummary:
    """One stored match as listed (from the index stream; ``violations`` is a count)."""

    match_id: str
    game: str
    players: list[str]
    verdict: str
    violations: int
    events: int
    stored_events: int
    outcome: dict[str, Any] | None
    source: str
    digest: str = ""
    #: the hash of the last line of a sealed log (the hash chain's head), else None
    chain_head: str | None = None
    #: the pool, board or island the match was checked against (kind, id, sha256)
    data: list[dict[str, str]] = field(default_factory=list)
    #: the match header (``MatchStarted.meta``; {} for none)
    meta: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        d = {"match_id": self.match_id, "game": self.game, "players": self.players,
             "verdict": self.verdict, "violations": self.violations, "events": self.events,
             "stored_events": self.stored_events, "outcome": self.outcome, "source": self.source,
             "data": self.data}
        if self.chain_head is not None:
            d["chain_head"] = self.chain_head
        if self.meta:
            d["meta"] = self.meta
        return d


class StoredStep(NamedTuple):
    """A stored log event with its ruling, the events it forced and the settled state after it."""

    seq: int
    line: int
    event: Event
    ruling: Ruling | None
    applied: bool
    derived: list[Event]
    state: Any


class LoggedEvent(NamedTuple):
    """A stored log event: number, log line, the decoded event, the ruling it got."""

    seq: int
    line: int
    event: Event
    ruling: Ruling | None


@dataclass
class _Closing:
    """What a stored match's ``Closed`` event says (cached: stored matches never change)."""

    game: str
    verdict: str
    violations: list[Violation]
    versions: list[int]
    events: int
    stored_events: int


def _summary(e: IndexEntry) -> MatchSummary:
    return MatchSummary(e.match_id, e.game, list(e.players), e.verdict, e.violations,
                        e.events, e.stored_events, e.outcome, e.source, e.digest, e.chain_head, list(e.data or []),
                        dict(getattr(e, "meta", None) or {}))


# -- building a match stream ------------------------------------------------------------------

#: a match's data as the store keeps it: (index entry form, canonical content)
MatchData = list[tuple[dict[str, str], bytes]]


def data_of(log: MatchLog) -> MatchData:
    """The pool, board or island ``log``'s set-up names, resolved in the sources in effect."""
    src = sources.current()
    out = []
    for ref in log.game.data_used(log.setup):
        out.append(({"kind": ref.kind, "id": ref.id, "sha256": ref.sha256}, src.content(ref)))
    return out


_json = msgspec.json.Encoder()


def digest_of(log: MatchLog) -> str:
    """sha256 of the canonical content: each event re-encoded by msgspec without its ``seq``.

    Dropping ``seq`` makes a log with and without explicit numbering the same match.
    """
    h = hashlib.sha256()
    enc = _json.encode
    for _line, ev in log.events:
        if ev.seq is not None:
            ev = msgspec.structs.replace(ev, seq=None)
        h.update(enc(ev))
        h.update(b"\n")
    return h.hexdigest()


def match_id_of(log: MatchLog) -> uuid.UUID:
    """The deterministic id of a log's match: importing it twice finds the same aggregate."""
    return uuid.uuid5(MATCH_NAMESPACE, digest_of(log))


def _timestamp(at: str | None, previous: datetime) -> datetime:
    """The envelope's ``at`` when it parses as ISO 8601 (UTC when naive), else ``previous``."""
    if at is None:
        return previous
    try:
        ts = datetime.fromisoformat(at)
    except ValueError:
        return previous
    return ts if ts.tzinfo is not None else ts.replace(tzinfo=timezone.utc)


def _refold(game: Game, state: Any, step: Step) -> Any:
    """Fold a step's event and derived events (for steps recorded without their state)."""
    state = _fold(game, state, step.event, step.seq)
    for d in step.derived:
        state = game.apply(state, d)
    return state


def _replaces_derivation(step: Step) -> bool:
    """A stated derived event a judge's ruling let stand: it replaced the engine's derivation,
    so no fold of the stored events reaches the position after it; a snapshot there holds it."""
    r = step.ruling
    return r is not None and r.judged == "stands" and not step.applied and step.state is not None


def _complete_steps(log: MatchLog, result: Result) -> list[Step]:
    """Every log event as a step: the verifier stops early on an engine failure."""
    steps = list(result.steps or [])
    if not steps and result.violations:  # the engine failed on MatchStarted itself
        v = result.violations[0]
        line, ev = log.events[0]
        steps.append(Step(1, line, ev, Ruling("illegal", v.rule, v.code, v.message), False))
    for number in range(len(steps) + 1, len(log.events) + 1):
        line, ev = log.events[number - 1]
        steps.append(Step(number, line, ev, None, False))  # type: ignore[arg-type]
    return steps


class _Withdrawn(Exception):
    """Raised inside the import transaction to roll it back (refused or aborted)."""

    def __init__(self, status: str, result: Result) -> None:
        super().__init__(status)
        self.status, self.result = status, result


def _close(log: MatchLog) -> None:
    close = getattr(log.events, "close", None)
    if close is not None:
        close()


class _BatchWriter:
    """A match's stream written while it is verified: batches of rows inserted by the
    application recorder (:class:`_BatchWriting`) on the cursor of one transaction, snapshots
    likewise; memory holds one batch and the position."""

    BATCH = 2000

    def __init__(self, app: MatchApplication, cursor: Any, match_id: uuid.UUID, log: MatchLog, digest: str,
                 snapshot_every: int) -> None:
        self.app, self.cursor, self.match_id, self.log = app, cursor, match_id, log
        self.game, self.digest, self.source = log.game, digest, log.path
        self.snapshot_every = snapshot_every
        self.ts0 = self.ts = _timestamp(log.setup.at, EPOCH)
        self.meta = meta_of(log.setup) or None  # (read now: a streamed log is read front to back)
        mapper: MatchMapper = app.events.mapper  # type: ignore[assignment]
        self.to_stored, self.recorded = mapper.to_stored_event, mapper.recorded
        #: the batch, as stored events (encoded as they are made: no domain event per row)
        self.rows: list[StoredEvent] = []
        self.snaps: list[Any] = []
        self.version, self.last_snapshot, self.emitted = 1, 1, 0
        self.versions: list[int] = []
        self.state: Any = None
        self.stored_events = 0
        self.rows.append(self.to_stored(Match.Created(
            originator_id=match_id, originator_version=1, timestamp=self.ts0, originator_topic=Match.TOPIC,
            game=self.game.id, digest=digest, source=log.path)))

    def _recorded(self, ev: Event, line: int, seq: int | None, applied: bool, ruling: Any) -> None:
        self.version += 1
        self.rows.append(self.recorded(self.match_id, self.version, {
            "timestamp": self.ts, "event": _json.encode(ev), "line": line, "seq": seq, "kind": ev.kind,
            "applied": applied, "ruling": ruling}))  # msgpack encodes a Ruling as to_builtins would

    def step(self, step: Step) -> None:
        """One verified log event (and what it forced): rows, and a snapshot now and then."""
        ev = step.event
        if ev.at is not None:
            self.ts = _timestamp(ev.at, self.ts)
        self._recorded(ev, step.line, step.seq, step.applied, step.ruling)
        if step.applied:
            for d in step.derived:
                self._recorded(d, step.line, None, True, None)
            self.state = step.state if step.state is not None else _refold(self.game, self.state, step)
        replaced = _replaces_derivation(step)
        if replaced:
            self.state = step.state
        if (replaced or self.version - self.last_snapshot >= self.snapshot_every) and self.state is not None:
            self.snaps.append(Match.Snapshot.of(self.match_id, self.version, self.ts, self.game, self.state,
                                                digest=self.digest, source=self.source, created_on=self.ts0))
            self.last_snapshot = self.version
        self.versions.append(self.version)
        self.emitted += 1
        if len(self.rows) >= self.BATCH:
            self.flush()

    def unchecked_rest(self, log: MatchLog, result: Result) -> None:
        """The log events the verifier never reached (it stops at an engine failure)."""
        if not self.emitted and result.violations:  # the engine failed on MatchStarted itself
            v = result.violations[0]
            line, ev = log.events[0]
            self.step(Step(1, line, ev, Ruling("illegal", v.rule, v.code, v.message), False))
        events = log.events
        for number in range(self.emitted + 1, len(events) + 1):
            line, ev = events[number - 1]
            self.step(Step(number, line, ev, None, False))  # type: ignore[arg-type]

    def flush(self) -> None:
        recorder: _BatchWriting = self.app.recorder  # type: ignore[assignment]
        if self.rows:  # one executemany (SQLite) or COPY (PostgreSQL) per batch
            recorder.write_batch(self.cursor, self.rows)
            self.rows = []
        snapshots = self.app.snapshots
        if self.snaps and snapshots is not None:
            to_stored = snapshots.mapper.to_stored_event
            recorder.write_snapshots(self.cursor, snapshots.recorder, [to_stored(e) for e in self.snaps])
            self.snaps.clear()

    def close(self, result: Result, count: int, index_version: int, data: MatchData) -> None:
        """The Closed event and the index entry, then the last batch."""
        state = self.state if self.state is not None else result.state
        self.stored_events = self.version - 1
        outcome = _outcome(self.game, state, result)
        self.version += 1
        closed = Match.Closed(
            originator_id=self.match_id, originator_version=self.version, timestamp=self.ts,
            verdict=result.verdict, violations=[v.as_dict() for v in result.violations],
            unchecked=[v.as_dict() for v in result.unchecked], versions=self.versions, events=count,
            stored_events=self.stored_events, players=self.game.players(state) if state is not None else [],
            outcome=None if outcome is None else msgspec.to_builtins(outcome), chain_head=self.log.chain_head)
        self.rows.append(self.to_stored(closed))
        self.rows.append(self.to_stored(IndexEntry(
            originator_id=INDEX_ID, originator_version=index_version, timestamp=self.ts,
            match_id=str(self.match_id), game=self.game.id, source=self.source, digest=self.digest,
            players=closed.players, verdict=closed.verdict, violations=len(closed.violations),
            events=closed.events, stored_events=closed.stored_events, outcome=closed.outcome,
            chain_head=closed.chain_head, data=[d for d, _ in data], meta=self.meta)))
        self.flush()


def _row(s: StoredEvent) -> tuple[Any, ...]:
    """A stored event as the library's INSERT statements take it (the id as hex on SQLite)."""
    oid = s.originator_id
    return (oid.hex if isinstance(oid, uuid.UUID) else oid, s.originator_version, s.topic, s.state)


@dataclass
class _Stream:
    """A match's events ready to save, with the snapshots taken while folding them."""

    match: Match
    events: list[Any] = field(default_factory=list)
    snapshots: list[Match.Snapshot] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    stored_events: int = 0
    data: MatchData = field(default_factory=list)
    #: the match header (``MatchStarted.meta``)
    meta: dict[str, str] | None = None


def _build_stream(log: MatchLog, result: Result, match_id: uuid.UUID, digest: str,
                  snapshot_every: int, data: MatchData) -> _Stream:
    """Fold the verified steps into the pending events of a new ``Match`` (no I/O)."""
    game = log.game
    ts0 = _timestamp(log.setup.at, EPOCH)
    created = Match.Created(originator_id=match_id, originator_version=1, timestamp=ts0,
                            originator_topic=Match.TOPIC, game=game.id, digest=digest, source=log.path)
    match = created.mutate(None)
    out = _Stream(match, [created], data=data, meta=meta_of(log.setup) or None)
    pending = out.events
    snaps, versions = out.snapshots, out.versions
    recorded_cls = Match.Recorded
    enc = _json.encode
    state: Any = None
    version = 1
    ts = ts0

    def snapshot() -> None:
        snaps.append(Match.Snapshot.of(match_id, version, ts, game, state, digest=digest,
                                       source=log.path, created_on=ts0))

    to_builtins = msgspec.to_builtins
    last_snapshot = 1
    for step in _complete_steps(log, result):
        ev, applied, line = step.event, step.applied, step.line
        if ev.at is not None:
            ts = _timestamp(ev.at, ts)
        version += 1
        pending.append(_new(recorded_cls, {
            "originator_id": match_id, "originator_version": version, "timestamp": ts,
            "event": enc(ev), "line": line, "seq": step.seq, "kind": ev.kind, "applied": applied,
            "ruling": None if step.ruling is None else to_builtins(step.ruling)}))
        if applied:
            for d in step.derived:
                version += 1
                pending.append(_new(recorded_cls, {
                    "originator_id": match_id, "originator_version": version, "timestamp": ts,
                    "event": enc(d), "line": line, "seq": None, "kind": d.kind, "applied": True,
                    "ruling": None}))
            # the verifier already holds the settled state: no second fold of the events
            state = step.state if step.state is not None else _refold(game, state, step)
        replaced = _replaces_derivation(step)
        if replaced:
            state = step.state
        # snapshots at step boundaries, where the verifier's settled state is exact
        if (replaced or version - last_snapshot >= snapshot_every) and state is not None:
            snapshot()
            last_snapshot = version
        versions.append(version)
    out.stored_events = version - 1
    outcome = _outcome(game, state, result)
    version += 1
    pending.append(Match.Closed(
        originator_id=match_id, originator_version=version, timestamp=ts,
        verdict=result.verdict, violations=[v.as_dict() for v in result.violations],
        unchecked=[v.as_dict() for v in result.unchecked], versions=versions,
        events=len(log.events), stored_events=out.stored_events,
        players=game.players(state) if state is not None else [],
        outcome=None if outcome is None else msgspec.to_builtins(outcome), chain_head=log.chain_head))
    match.state, match.verdict = state, result.verdict
    _set_position(match, version, ts)
    return out


def _outcome(game: Game, state: Any, result: Result) -> Any:
    """How the stored match ended: a judge's result ruling, else the position's own outcome."""
    if result.ruled is not None:
        return result.ruled
    return game.outcome(state) if state is not None else None


def _index_entry(stream: _Stream, version: int) -> IndexEntry:
    closed: Match.Closed = stream.events[-1]
    m = stream.match
    return IndexEntry(originator_id=INDEX_ID, originator_version=version, timestamp=closed.timestamp,
                      match_id=str(m.id), game=m.game_id, source=m.source, digest=m.digest,
                      players=closed.players, verdict=closed.verdict, violations=len(closed.violations),
                      events=closed.events, stored_events=closed.stored_events, outcome=closed.outcome,
                      chain_head=closed.chain_head, data=[d for d, _ in stream.data], meta=stream.meta)


# -- parallel import: workers prepare a match's rows, one writer writes them --------------------

@dataclass
class Prepared:
    """A log verified and encoded as the store writes it, by a worker process (:func:`prepare_log`),
    for the one writer (:meth:`MatchStore.write_prepared`)."""

    match_id: uuid.UUID
    path: str
    verdict: str
    violations: list[Violation]
    events: int
    stored_events: int
    #: REFUSED when the log is illegal and illegal logs are not stored (then no rows); else None
    status: str | None
    #: the match's stream as stored events, Created first and Closed last
    stream: list[StoredEvent]
    #: its snapshots as stored events
    snapshots: list[StoredEvent]
    #: its index entry; the writer gives it the index version when it writes
    entry: IndexEntry | None
    #: the pool, board or island it names, with its canonical content (kept once by hash)
    data: MatchData = field(default_factory=list)


_WORKER_APPS: list[MatchApplication] = []


def _encoder_app() -> MatchApplication:
    """An in-memory application of this process, for its mapper (the same transcoder, and the
    compressor or cipher the environment configures, as the store's)."""
    if not _WORKER_APPS:
        _WORKER_APPS.append(MatchApplication(env=store_env(memory=True)[0]))
    return _WORKER_APPS[0]


def prepare_log(path: str, allow_illegal: bool, snapshot_every: int = SNAPSHOT_EVERY) -> Prepared:
    """Read and verify the log at ``path`` and encode its stream (a worker's job: no database).

    Memory holds the whole match's rows, so the writer imports logs too large for that itself,
    streamed (``cli store import``: over :data:`PREPARE_MAX_BYTES`)."""
    log = read_log(path)
    digest = digest_of(log)
    match_id = uuid.uuid5(MATCH_NAMESPACE, digest)
    data = data_of(log)
    result = run(log, keep_going=True, record_steps=True)
    if result.violations and not allow_illegal:
        return Prepared(match_id, log.path, result.verdict, list(result.violations), len(log.events), 0,
                        REFUSED, [], [], None)
    stream = _build_stream(log, result, match_id, digest, snapshot_every, data)
    app = _encoder_app()
    to_stored = app.events.mapper.to_stored_event
    snaps = app.snapshots.mapper.to_stored_event if app.snapshots is not None else None
    return Prepared(match_id, log.path, result.verdict, list(result.violations), len(log.events),
                    stream.stored_events, None, [to_stored(e) for e in stream.events],
                    [snaps(e) for e in stream.snapshots] if snaps is not None else [], _index_entry(stream, 0), data)


#: logs larger than this are imported by the writer itself, streamed, not prepared by a worker
PREPARE_MAX_BYTES = 32 * 1024 * 1024


# -- the store ---------------------------------------------------------------------------------

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


class MatchStore:
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
        self._closings: dict[uuid.UUID, _Closing] = {}
        #: the index of stored matches read so far (see _index_entries)
        self._index: list[IndexEntry] = []
        self._index_by_id: dict[str, IndexEntry] = {}
        self._index_version = 0
        self._index_lock = threading.Lock()
        self._data_sources: dict[tuple[uuid.UUID, int], sources.Sources] = {}
        #: the sources imports resolve data in: (the sources in effect, them with the store's
        #: supplier), kept while both stay the same, so a pool file is read and hashed once per
        #: command, not once per log; dropped when this store keeps a new content
        self._import_sources: tuple[sources.Sources, sources.Sources] | None = None
        #: data streams known to exist (kept content is never removed)
        self._kept_streams: set[uuid.UUID] = set()
        with _db_errors(self.location):
            self.app = MatchApplication(env=env)

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.app.close()

    # -- import --------------------------------------------------------------------------------
    def import_log(self, log: MatchLog, *, allow_illegal: bool = False,
                   proceed: Callable[[], bool] | None = None) -> ImportResult:
        """Verify ``log`` and store it: once (by content), atomically, illegal only if allowed.

        ``proceed`` is asked after verification, before anything is written: False withdraws the
        import (status ``aborted``, nothing stored; the web service's time budget uses it).
        """
        return self._import(lambda: log, allow_illegal, proceed)

    def import_file(self, path: str | os.PathLike[str], *, allow_illegal: bool = False) -> ImportResult:
        """:meth:`import_log` of a log file read as a stream: on SQLite and PostgreSQL, memory is
        bounded by the position and one batch of events, not by the log (``python -m benchmarks --memory``)."""
        return self._import(lambda: stream_log(path), allow_illegal, None)

    def _import(self, open_log: Callable[[], MatchLog], allow_illegal: bool,
                proceed: Callable[[], bool] | None) -> ImportResult:
        # the data a log names is looked for in the store too (after the shipped data and --pools)
        with sources.using(self._sources_for_import()):
            return self._import_in(open_log, allow_illegal, proceed)

    def _sources_for_import(self) -> sources.Sources:
        """The sources in effect with the store's supplier after them (see ``_import_sources``)."""
        base, held = sources.current(), self._import_sources
        if held is None or held[0] is not base:
            held = self._import_sources = (base, base.derive(supplier=self.supply))
        return held[1]

    def _import_in(self, open_log: Callable[[], MatchLog], allow_illegal: bool,
                   proceed: Callable[[], bool] | None) -> ImportResult:
        first = open_log()
        try:
            digest, count, path = digest_of(first), len(first.events), first.path
        finally:
            _close(first)
        match_id = uuid.uuid5(MATCH_NAMESPACE, digest)
        with _db_errors(self.location):
            if self._exists(match_id):
                return self._already(match_id, path)
            if isinstance(self.app.recorder, _BatchWriting):
                return self._import_batched(open_log, match_id, digest, count, allow_illegal, proceed)
            log = open_log()
            if not isinstance(log.events, list):  # another database: the log is held whole
                log = MatchLog(log.path, log.game, list(log.events))
            return self._import_whole(log, match_id, digest, allow_illegal, proceed)

    def _import_whole(self, log: MatchLog, match_id: uuid.UUID, digest: str, allow_illegal: bool,
                      proceed: Callable[[], bool] | None) -> ImportResult:
        data = data_of(log)
        result = run(log, keep_going=True, record_steps=True)
        if result.violations and not allow_illegal:
            return ImportResult(str(match_id), False, result.verdict, list(result.violations),
                                len(log.events), 0, REFUSED, log.path)
        if proceed is not None and not proceed():
            return ImportResult(str(match_id), False, result.verdict, list(result.violations),
                                len(log.events), 0, ABORTED, log.path)
        stream = _build_stream(log, result, match_id, digest, self.snapshot_every, data)
        self._keep_data(log.game.id, data)
        if not self._save(stream):
            return self._already(match_id, log.path)
        if stream.snapshots:
            self.app.snapshots.put(stream.snapshots)  # type: ignore[union-attr]
        return ImportResult(str(match_id), True, result.verdict, list(result.violations),
                            len(log.events), stream.stored_events, STORED, log.path)

    def _import_batched(self, open_log: Callable[[], MatchLog], match_id: uuid.UUID, digest: str, count: int,
                        allow_illegal: bool, proceed: Callable[[], bool] | None) -> ImportResult:
        """Verify and write in one transaction, a batch at a time (rolled back if refused)."""
        recorder = self.app.recorder
        for _ in range(_SAVE_RETRIES):
            last = next(iter(self.app.events.get(INDEX_ID, desc=True, limit=1)), None)
            index_version = 1 if last is None else last.originator_version + 1
            log = open_log()
            try:
                data = data_of(log)
                with recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
                    writer = _BatchWriter(self.app, cursor, match_id, log, digest, self.snapshot_every)
                    result = run(log, keep_going=True, on_step=writer.step)
                    writer.unchecked_rest(log, result)
                    status = REFUSED if result.violations and not allow_illegal else (
                        ABORTED if proceed is not None and not proceed() else STORED)
                    if status != STORED:
                        raise _Withdrawn(status, result)
                    writer.close(result, count, index_version, data)
                self._keep_data(log.game.id, data)  # after the match's transaction (its own)
                return ImportResult(str(match_id), True, result.verdict, list(result.violations),
                                    count, writer.stored_events, STORED, log.path)
            except _Withdrawn as w:
                return ImportResult(str(match_id), False, w.result.verdict, list(w.result.violations),
                                    count, 0, w.status, log.path)
            except IntegrityError:
                if self._exists(match_id):
                    return self._already(match_id, log.path)
            finally:
                _close(log)
        raise StoreError(f"{self.location}: could not record the match index after {_SAVE_RETRIES} tries")

    def _save(self, stream: _Stream) -> bool:
        """Save the match and its index entry in one transaction; False if it already exists.

        A conflict on the index stream (another writer took the next version) is retried.
        """
        for _ in range(_SAVE_RETRIES):
            last = next(iter(self.app.events.get(INDEX_ID, desc=True, limit=1)), None)
            entry = _index_entry(stream, 1 if last is None else last.originator_version + 1)
            _give_pending(stream.match, stream.events)
            try:
                self.app.save(stream.match, entry)
                return True
            except IntegrityError:
                if self._exists(stream.match.id):
                    return False
        raise StoreError(f"{self.location}: could not record the match index after {_SAVE_RETRIES} tries")

    def write_prepared(self, p: Prepared) -> ImportResult:
        """Write a match a worker prepared (:func:`prepare_log`): its stream, index entry and
        snapshots in one transaction through the batch recorder (in memory: the recorder's
        ``insert_events``, then the snapshots); once by content."""
        if p.status is not None:
            return ImportResult(str(p.match_id), False, p.verdict, p.violations, p.events, 0, p.status, p.path)
        assert p.entry is not None
        with _db_errors(self.location):
            self._keep_data(p.entry.game, p.data)
            for _ in range(_SAVE_RETRIES):
                if self._exists(p.match_id):
                    return self._already(p.match_id, p.path)
                last = next(iter(self.app.events.get(INDEX_ID, desc=True, limit=1)), None)
                entry = dc_replace(p.entry, originator_version=1 if last is None else last.originator_version + 1)
                rows = [*p.stream, self.app.events.mapper.to_stored_event(entry)]
                try:
                    batched = self._write_batched(rows, p.snapshots)  # snapshots in the same transaction
                    if not batched:
                        self.app.recorder.insert_events(rows)
                    break
                except IntegrityError:
                    continue  # another writer took the next index version, or stored the match
            else:
                raise StoreError(f"{self.location}: could not record the match index after {_SAVE_RETRIES} tries")
            if not batched and p.snapshots and self.app.snapshots is not None:
                self.app.snapshots.recorder.insert_events(p.snapshots)
        return ImportResult(str(p.match_id), True, p.verdict, p.violations, p.events, p.stored_events, STORED, p.path)

    def _write_batched(self, rows: list[StoredEvent], snapshots: list[StoredEvent]) -> bool:
        """Write a prepared match's rows and snapshots in one transaction through the batch
        recorder (``executemany`` / ``COPY``); False when the recorder has no batch path."""
        recorder = self.app.recorder
        if not isinstance(recorder, _BatchWriting):
            return False
        with recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            recorder.write_batch(cursor, rows)
            if snapshots and self.app.snapshots is not None:
                recorder.write_snapshots(cursor, self.app.snapshots.recorder, snapshots)
        return True

    # -- data (pools, boards, islands) kept once by hash ------------------------------------------
    def _keep_data(self, game: str, data: MatchData) -> None:
        """Keep each content ``data`` names in its own stream, unless it is kept already."""
        to_stored = self.app.events.mapper.to_stored_event
        for d, content in data:
            sid = data_stream_id(game, d["kind"], d["sha256"])
            if len(self._kept_streams) > 4096:  # bounded: a long-running service sees many uploads
                self._kept_streams.clear()
            if sid in self._kept_streams or self._exists(sid):
                self._kept_streams.add(sid)
                continue
            ev = DataStored(originator_id=sid, originator_version=1, timestamp=EPOCH, game=game,
                            kind=d["kind"], data_id=d["id"], sha256=d["sha256"], content=content)
            try:
                self.app.recorder.insert_events([to_stored(ev)])
            except IntegrityError:
                pass  # another writer kept the same content meanwhile
            self._kept_streams.add(sid)
            self._import_sources = None  # an unpinned id may now have another stored version

    def _content(self, game: str, kind: str, sha256: str) -> sources.Candidate | None:
        """A kept content as a candidate for the sources (checked against its hash)."""
        with _db_errors(self.location):
            ev = next(iter(self.app.events.get(data_stream_id(game, kind, sha256), limit=1)), None)
        if ev is None:
            return None
        # read like any data file (size, UTF-8, depth bounded): the store is input too
        doc = sources.decode_document(ev.content, f"{self.location}#{kind}/{ev.data_id}.json")
        if sources.sha256_of(doc) != sha256:
            raise StoreError(f"{self.location}: the kept {kind} {ev.data_id!r} does not hash to {sha256}")
        return sources.Candidate(doc, sha256, "store")

    def _kept(self, game: str, kind: str, data_id: str) -> list[str]:
        """The hashes of the contents kept for (game, kind, id), in the order matches first used them."""
        out: list[str] = []
        for e in self._index_entries():
            if e.game == game:
                out += [d["sha256"] for d in e.data or [] if d["kind"] == kind and d["id"] == data_id
                        and d["sha256"] not in out]
        return out

    def supply(self, kind: sources.DataKind[Any], data_id: str) -> list[sources.Candidate]:
        """The sources' supplier: every content kept for ``data_id`` (read when asked)."""
        found = (self._content(kind.game, kind.kind, sha) for sha in self._kept(kind.game, kind.kind, data_id))
        return [c for c in found if c is not None]

    def data_sources(self, match_id: str | uuid.UUID) -> sources.Sources:
        """The sources a stored match resolves its data in: the ones in effect, then the store,
        with each id bound to the content the match was checked against (read now: the result
        works after the store is closed, as the terminal replay needs).  Kept per match and
        sources in effect (a service's requests)."""
        mid = self._uuid(match_id)
        key = (mid, sources.current().serial)
        hit = self._data_sources.get(key)
        if hit is None:
            if len(self._data_sources) > 256:
                self._data_sources.clear()
            hit = self._data_sources[key] = self._make_data_sources(str(mid))
        return hit

    def _make_data_sources(self, match_id: str) -> sources.Sources:
        e = self._entry(match_id)
        kept: dict[tuple[str, str], list[sources.Candidate]] = {}
        pins = {}
        for d in e.data or []:
            c = self._content(e.game, d["kind"], d["sha256"])
            if c is not None:
                kept.setdefault((d["kind"], d["id"]), []).append(c)
            pins[(e.game, d["kind"], d["id"])] = d["sha256"]
        return sources.current().derive(supplier=lambda kind, i: kept.get((kind.kind, i), []), pins=pins)

    def _exists(self, match_id: uuid.UUID) -> bool:
        return bool(self.app.recorder.select_events(match_id, limit=1))

    def _already(self, match_id: uuid.UUID, path: str) -> ImportResult:
        c = self._closing(match_id)
        return ImportResult(str(match_id), False, c.verdict, c.violations, c.events,
                            c.stored_events, ALREADY_STORED, path)

    # -- reading -------------------------------------------------------------------------------
    def _index_entries(self) -> list[IndexEntry]:
        """The index of stored matches, in import order: the entries read before, and a query of
        the index stream for those written since (by this process or another), never a reread."""
        with self._index_lock:
            with _db_errors(self.location):
                for e in self.app.events.get(INDEX_ID, gt=self._index_version):
                    self._index.append(e)
                    self._index_by_id[e.match_id] = e
                    self._index_version = e.originator_version
            return list(self._index)

    def matches(self, game: str | None = None, meta: Mapping[str, str] | None = None) -> list[MatchSummary]:
        """Every stored match (in import order), optionally of one game, optionally only those
        whose header holds every ``key: value`` of ``meta``."""
        out = []
        for e in self._index_entries():
            if game is not None and e.game != game:
                continue
            if meta and not meta_matches(getattr(e, "meta", None) or {}, meta):
                continue
            out.append(_summary(e))
        return out

    def resolve(self, ref: str) -> str:
        """The full id of the stored match ``ref`` names: a whole id or a unique prefix."""
        key = ref.strip().lower()
        if not key:
            raise UnknownMatch(ref)
        try:
            full = uuid.UUID(key)
        except ValueError:
            pass
        else:
            with _db_errors(self.location):
                if self._exists(full):
                    return str(full)
            raise UnknownMatch(ref)
        compact = key.replace("-", "")
        found = [m.match_id for m in self.matches()
                 if m.match_id.startswith(key) or m.match_id.replace("-", "").startswith(compact)]
        if not found:
            raise UnknownMatch(ref, " (see `adjudicator store list`)")
        if len(found) > 1:
            raise AmbiguousMatch(ref, found)
        return found[0]

    def summary(self, match_id: str) -> MatchSummary:
        return _summary(self._entry(match_id))

    # -- variations kept with a match ---------------------------------------------------------------
    def variations(self, match_id: str) -> list[VariationStored]:
        """The variations kept with a stored match, in the order they were kept."""
        mid = str(self._uuid(match_id))
        with _db_errors(self.location):
            return list(self.app.events.get(variations_stream_id(mid)))

    def add_variation(self, match_id: str, at: int, name: str, events: list[dict[str, Any]]) -> VariationStored:
        """Keep a variation (events after event ``at``, already ruled legal there) with the match."""
        mid = str(self._uuid(match_id))
        self._entry(mid)  # an unknown match is refused
        kept = self.variations(mid)
        if len(kept) >= MAX_VARIATIONS:
            raise StoreError(f"match {mid}: {MAX_VARIATIONS} variations are kept already")
        ev = VariationStored(originator_id=variations_stream_id(mid), originator_version=len(kept) + 1,
                             timestamp=EPOCH, match_id=mid, at=at, name=name, events=events)
        with _db_errors(self.location):
            try:
                self.app.recorder.insert_events([self.app.events.mapper.to_stored_event(ev)])
            except IntegrityError:
                raise StoreError(f"match {mid}: another variation was kept at the same time; keep it again") from None
        return ev

    def _entry(self, match_id: str) -> IndexEntry:
        """A stored match's index entry (the index read on since last time if not known yet)."""
        mid = str(self._uuid(match_id))
        e = self._index_by_id.get(mid)
        if e is None:
            self._index_entries()
            e = self._index_by_id.get(mid)
        if e is None:
            raise UnknownMatch(match_id)
        return e

    def get_log(self, match_id: str) -> list[LoggedEvent]:
        """The stored log events (not the derived ones) with their rulings, in log order."""
        mid = self._uuid(match_id)
        game = registry.get(self._closing(mid).game)
        decode = game.decoder.decode
        out: list[LoggedEvent] = []
        with _db_errors(self.location):
            for e in self.app.events.get(mid):
                if type(e) is Match.Recorded and e.seq is not None:
                    r = None if e.ruling is None else msgspec.convert(e.ruling, Ruling)
                    out.append(LoggedEvent(e.seq, e.line, decode(e.event), r))
        return out

    def steps(self, match_id: str, first: int, last: int) -> Iterator[StoredStep]:
        """Log events ``first``..``last`` with what they forced and the settled state after each.

        Memory is bounded by one page: the fold starts from the nearest snapshot before
        ``first`` and reads only the stored events of the page.
        """
        mid = self._uuid(match_id)
        c = self._closing(mid)
        last = min(last, c.events)
        if first > last:
            return
        game = registry.get(c.game)
        decode = game.decoder.decode
        state = self.state_at(match_id, first - 1)[1] if first > 1 else None
        before = c.versions[first - 2] if first > 1 else 1
        with _db_errors(self.location):
            records = [e for e in self.app.events.get(mid, gt=before, lte=c.versions[last - 1])
                       if type(e) is Match.Recorded]
        pending: StoredStep | None = None
        src = self.data_sources(mid)
        for e in records:
            ev = decode(e.event)
            if e.seq is not None:
                if pending is not None:
                    yield pending._replace(state=state)
                r = None if e.ruling is None else msgspec.convert(e.ruling, Ruling)
                pending = StoredStep(e.seq, e.line, ev, r, e.applied, [], None)
            elif pending is not None:
                pending.derived.append(ev)
            if e.applied:
                with sources.using(src):  # per event: a generator must not hold a context across yields
                    state = _fold(game, state, ev, e.seq)
            elif e.seq is not None and e.ruling is not None and e.ruling.get("judged") == "stands":
                state = self.state_at(match_id, e.seq)[1]  # a derivation replaced: the snapshot there
        if pending is not None:
            yield pending._replace(state=state)

    def violations(self, match_id: str) -> list[Violation]:
        """The illegal events of a stored match (as verified when it was imported)."""
        return list(self._closing(self._uuid(match_id)).violations)

    def length(self, match_id: str) -> int:
        """How many log events the stored match has."""
        return self._closing(self._uuid(match_id)).events

    def version_at(self, match_id: str, at: int | None) -> int:
        """The stream version after log event ``at`` (1 = MatchStarted; None = the end)."""
        c = self._closing(self._uuid(match_id))
        if at is None:
            return c.versions[-1]
        if not 1 <= at <= len(c.versions):
            raise BadPosition(f"match {match_id}: --at {at} is outside the log (events 1-{len(c.versions)})")
        return c.versions[at - 1]

    def state_at(self, match_id: str, at: int | None = None) -> tuple[Game, Any]:
        """The settled position after log event ``at``, from the nearest snapshot on."""
        mid = self._uuid(match_id)
        version = self.version_at(match_id, at)
        with _db_errors(self.location), sources.using(self.data_sources(mid)):
            agg: Match = self.app.repository.get(mid, version=version, projector_func=_project)
        return agg.game, agg.state

    def full_rebuild_state(self, match_id: str, at: int | None = None) -> tuple[Game, Any]:
        """The same position replayed from the first event, ignoring snapshots (benchmarks)."""
        mid = self._uuid(match_id)
        version = self.version_at(match_id, at)
        with _db_errors(self.location), sources.using(self.data_sources(mid)):
            agg = _project(None, self.app.events.get(mid, lte=version))
        if agg is None:
            raise UnknownMatch(match_id)
        return agg.game, agg.state

    # -- helpers -------------------------------------------------------------------------------
    def _uuid(self, match_id: str | uuid.UUID) -> uuid.UUID:
        if isinstance(match_id, uuid.UUID):
            return match_id
        try:
            return uuid.UUID(match_id)
        except ValueError:
            return uuid.UUID(self.resolve(match_id))

    def _closing(self, match_id: uuid.UUID) -> _Closing:
        cached = self._closings.get(match_id)
        if cached is not None:
            return cached
        with _db_errors(self.location):
            first = next(iter(self.app.events.get(match_id, limit=1)), None)
            last = next(iter(self.app.events.get(match_id, desc=True, limit=1)), None)
        if first is None or type(last) is not Match.Closed:
            raise UnknownMatch(str(match_id))
        c = _Closing(first.game, last.verdict, [Violation(**v) for v in last.violations],
                     list(last.versions), last.events, last.stored_events)
        self._closings[match_id] = c
        return c


__all__ = [
    "ABORTED", "ALREADY_STORED", "REFUSED", "SNAPSHOT_EVERY", "STORED",
    "AmbiguousMatch", "BadPosition", "StoreError", "UnknownMatch",
    "BulkSQLiteApplicationRecorder", "IndexEntry", "Match", "MatchApplication", "MatchMapper",
    "MsgpackTranscoder",
    "ImportResult", "LoggedEvent", "MatchStore", "MatchSummary", "StoredStep",
    "digest_of", "match_id_of", "store_env",
]
