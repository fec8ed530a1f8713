"""The store's import pipeline: a log verified and written as a match stream, whole or not at all.

A log is read (streamed from a file), verified (:func:`adjudicator.core.kernel.verify.run`) and encoded
as the match stream :mod:`adjudicator.core.store.adapter` defines, one of three ways:

* batched (:class:`_BatchWriter`: SQLite and PostgreSQL): written while it is verified, a batch at
  a time, on the cursor of ONE transaction that also holds its index entry;
* whole (:func:`_build_stream`: in memory, or a database without the batch recorder): folded
  into the pending events of a new ``Match`` and saved with the application's ``save``;
* prepared by a worker process (:func:`prepare_log`: no database), written by the one writer
  (``MatchStore.write_prepared``).

The store's import methods are :class:`Importing`, a base class of
:class:`adjudicator.core.store.MatchStore`; nothing here reads the clock.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace as dc_replace
from datetime import datetime, timezone
from typing import Any

import msgspec

from adjudicator.core.kernel import sources
from adjudicator.core.kernel.errors import DataError
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.log import MatchLog, read_log, stream_log
from adjudicator.core.kernel.meta import meta_of
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.rulings import Ruling
from .adapter import (
    EPOCH,
    INDEX_ID,
    MATCH_NAMESPACE,
    SNAPSHOT_EVERY,
    DataStored,
    IndexEntry,
    IntegrityError,
    Match,
    MatchApplication,
    MatchMapper,
    RecordedFields,
    Row,
    StoreError,
    StoredEvent,
    _BatchWriting,
    _db_errors,
    _fold,
    _give_pending,
    _new,
    _set_position,
    data_stream_id,
    store_env,
)
from adjudicator.core.kernel.verify import Result, Step, Violation, run

STORED = "stored"
ALREADY_STORED = "already stored"
REFUSED = "refused"
#: the caller withdrew the import before it was saved (``proceed`` answered False): nothing stored
ABORTED = "aborted"

_SAVE_RETRIES = 20


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
_msgpack = msgspec.msgpack.Encoder()
_RECORDED = Match.Recorded.TOPIC


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
        self.ts_raw = msgspec.Raw(_msgpack.encode(self.ts))
        self.meta = meta_of(log.setup) or None  # (read now: a streamed log is read front to back)
        self.recorder: _BatchWriting = app.recorder  # type: ignore[assignment]
        mapper: MatchMapper = app.events.mapper  # type: ignore[assignment]
        self.to_stored, self.encode = mapper.to_stored_event, mapper.state_encoder()
        self.key = self.recorder.row_key(match_id)
        #: the batch, as rows (encoded as they are made: no domain event, no stored event per row)
        self.rows: list[Row] = []
        self.first = True
        self.snaps: list[Any] = []
        self.version, self.last_snapshot, self.emitted = 1, 1, 0
        self.versions: list[int] = []
        self.state: Any = None
        self.stored_events = 0
        self._stored(Match.Created(
            originator_id=match_id, originator_version=1, timestamp=self.ts0, originator_topic=Match.TOPIC,
            game=self.game.id, digest=digest, source=log.path))

    def _stored(self, domain_event: Any) -> None:
        """A domain event as a row of the batch (the few that are not ``Recorded``)."""
        self.rows += self.recorder.rows([self.to_stored(domain_event)])

    def step(self, step: Step) -> None:
        """One verified log event (and what it forced): rows, and a snapshot now and then."""
        ev = step.event
        if ev.at is not None:
            self.ts = _timestamp(ev.at, self.ts)
            self.ts_raw = msgspec.Raw(_msgpack.encode(self.ts))
        rows, key, encode, dumps, ts = self.rows, self.key, self.encode, _json.encode, self.ts_raw
        line, applied = step.line, step.applied
        version = self.version + 1
        # the Recorded event's fields; msgpack encodes a Ruling as to_builtins would, and the
        # timestamp is encoded once for the events that share it
        rows.append((key, version, _RECORDED, encode(RecordedFields(
            ts, dumps(ev), line, step.seq, ev.kind, applied, step.ruling))))
        replaced = False
        if applied:
            for d in step.derived:
                version += 1
                rows.append((key, version, _RECORDED, encode(RecordedFields(
                    ts, dumps(d), line, None, d.kind, True, None))))
            self.state = step.state if step.state is not None else _refold(self.game, self.state, step)
        elif step.ruling is not None and _replaces_derivation(step):
            self.state, replaced = step.state, True
        self.version = version
        if (replaced or version - self.last_snapshot >= self.snapshot_every) and self.state is not None:
            self.snaps.append(Match.Snapshot.of(self.match_id, version, self.ts, self.game, self.state,
                                                digest=self.digest, source=self.source, created_on=self.ts0))
            self.last_snapshot = version
        self.versions.append(version)
        self.emitted += 1
        if len(rows) >= self.BATCH:
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
        recorder = self.recorder
        if self.rows:  # one executemany (SQLite) or COPY (PostgreSQL) per batch
            recorder.write_batch(self.cursor, self.rows, first=self.first)
            self.rows, self.first = [], False
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
        self._stored(closed)
        self._stored(IndexEntry(
            originator_id=INDEX_ID, originator_version=index_version, timestamp=self.ts,
            match_id=str(self.match_id), game=self.game.id, source=self.source, digest=self.digest,
            players=closed.players, verdict=closed.verdict, violations=len(closed.violations),
            events=closed.events, stored_events=closed.stored_events, outcome=closed.outcome,
            chain_head=closed.chain_head, data=[d for d, _ in data], meta=self.meta))
        self.flush()


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
    match: Any = created.mutate(None)
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
    _close_stream(out, log, result, match_id, version, ts, state)
    return out


def _close_stream(out: _Stream, log: MatchLog, result: Result, match_id: uuid.UUID, version: int, ts: Any,
                  state: Any) -> None:
    """The ``Closed`` event after the last recorded one (``version``): the verdict, the outcome."""
    game, match = log.game, out.match
    out.stored_events = version - 1
    outcome = _outcome(game, state, result)
    version += 1
    out.events.append(Match.Closed(
        originator_id=match_id, originator_version=version, timestamp=ts,
        verdict=result.verdict, violations=[v.as_dict() for v in result.violations],
        unchecked=[v.as_dict() for v in result.unchecked], versions=out.versions,
        events=len(log.events), stored_events=out.stored_events,
        players=game.players(state) if state is not None else [],
        outcome=None if outcome is None else msgspec.to_builtins(outcome), chain_head=log.chain_head))
    match.state, match.verdict = state, result.verdict
    _set_position(match, version, ts)


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



# -- the store's import methods ----------------------------------------------------------------

class _FilesFirst(sources.Sources):
    """``base.derive(supplier=store)`` that answers from ``base`` itself (and its cache) every id
    ``base`` resolves, and asks the store only for an id it does not: a pool file is read and
    hashed once per command, not again for each store a command opens.

    The same answers: with no supplier of its own, ``base`` resolves an id from its files, and
    the derived sources take the files' content first whenever the files resolve it (pinned: the
    first candidate with the pinned hash, files before the store; unpinned: the files alone).
    """

    def __init__(self, base: sources.Sources, supplier: sources.Supplier) -> None:
        derived = base.derive(supplier=supplier)
        super().__init__(derived.dirs, derived.supplier, derived.pins, derived.files)
        self.base = base
        #: the questions ``base`` could not answer (asked of the whole sources from then on)
        self._beyond: set[tuple[str, str, str, str | None]] = set()

    def find(self, kind: sources.DataKind[Any], id: str, sha256: str | None = None) -> tuple[Any, sources.DataRef]:
        key = (kind.game, kind.kind, id, sha256)
        if key not in self._beyond:
            try:
                return self.base.find(kind, id, sha256)
            except DataError:
                self._beyond.add(key)
        return super().find(kind, id, sha256)

    def content(self, ref: sources.DataRef) -> bytes:
        try:
            return super().content(ref)
        except KeyError:  # found by ``base``
            return self.base.content(ref)


class Importing:
    """The import methods of :class:`adjudicator.core.store.MatchStore` (a base class of it).

    They use the store's application (``app``), its description (``location``), ``snapshot_every``,
    the data caches below, and from its other bases ``_exists`` (the index) and ``_closing``
    and ``supply`` (the reads).
    """

    app: MatchApplication
    location: str
    snapshot_every: int
    #: the sources imports resolve data in: (the sources in effect, them with the store's
    #: supplier), kept while both stay the same, so a pool file is read and hashed once per
    #: command, not once per log; dropped when this store keeps a new content
    _import_sources: tuple[sources.Sources, sources.Sources] | None
    #: data streams known to exist (kept content is never removed)
    _kept_streams: set[uuid.UUID]
    # from the store's other bases
    _exists: Callable[[uuid.UUID], bool]
    _closing: Callable[[uuid.UUID], Any]
    supply: Callable[[sources.DataKind[Any], str], list[sources.Candidate]]

    def _verify(self, log: MatchLog, **options: Any) -> Result:
        """Verify ``log`` (:func:`adjudicator.core.kernel.verify.run`)."""
        return run(log, **options)

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
        return self._import(lambda: stream_log(os.fspath(path)), allow_illegal, None)

    def _import(self, open_log: Callable[[], MatchLog], allow_illegal: bool,
                proceed: Callable[[], bool] | None) -> ImportResult:
        # the data a log names is looked for in the store too (after the shipped data and --pools)
        with sources.using(self._sources_for_import()):
            return self._import_in(open_log, allow_illegal, proceed)

    def _sources_for_import(self) -> sources.Sources:
        """The sources in effect with the store's supplier after them (see ``_import_sources``)."""
        base, held = sources.current(), self._import_sources
        if held is None or held[0] is not base:
            after = _FilesFirst(base, self.supply) if base.supplier is None else base.derive(supplier=self.supply)
            held = self._import_sources = (base, after)
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
        result = self._verify(log, keep_going=True, record_steps=True)
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
                with recorder.batch_transaction() as cursor:
                    writer = _BatchWriter(self.app, cursor, match_id, log, digest, self.snapshot_every)
                    result = self._verify(log, keep_going=True, on_step=writer.step)
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
        with recorder.batch_transaction() as cursor:
            recorder.write_batch(cursor, recorder.rows(rows), first=True)
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

    def _already(self, match_id: uuid.UUID, path: str) -> ImportResult:
        c = self._closing(match_id)
        return ImportResult(str(match_id), False, c.verdict, c.violations, c.events,
                            c.stored_events, ALREADY_STORED, path)

