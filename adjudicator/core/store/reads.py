"""Reading a stored match: its log, its steps with the settled state after each, a position
(from the nearest snapshot on), its variations, and the data it was checked against.

A stored match never changes, so what its ``Closed`` event says is read once (:class:`_Closing`).
Positions are rebuilt with a plain projector over the stored events from the nearest snapshot
(:func:`adjudicator.core.store.adapter._project`).  :class:`Reading` is a base class of
:class:`adjudicator.core.store.MatchStore`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import msgspec

from adjudicator.core.kernel import registry, sources
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.rulings import Ruling
from .adapter import (
    EPOCH,
    IndexEntry,
    IntegrityError,
    Match,
    MatchApplication,
    StoreError,
    VariationStored,
    _db_errors,
    _fold,
    _project,
    data_stream_id,
    variations_stream_id,
)
from .index import UnknownMatch
from adjudicator.core.kernel.verify import Violation

#: the most variations kept with one match
MAX_VARIATIONS = 100


class BadPosition(StoreError):
    """``--at`` outside the stored log."""


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


class Reading:
    """The read methods of :class:`adjudicator.core.store.MatchStore` (a base class of it).

    They use the store's application (``app``) and description (``location``), and from the
    index (:class:`adjudicator.core.store.index.Indexing`) ``_entry``, ``_kept`` and ``_uuid``.
    """

    app: MatchApplication
    location: str
    _entry: Callable[[str], IndexEntry]
    _kept: Callable[[str, str, str], list[str]]
    _uuid: Callable[[str | uuid.UUID], uuid.UUID]

    def __init__(self) -> None:
        self._closings: dict[uuid.UUID, _Closing] = {}
        self._data_sources: dict[tuple[uuid.UUID, int], sources.Sources] = {}

    # -- data (pools, boards, islands) kept once by hash ------------------------------------------
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

    # -- variations kept with a match ---------------------------------------------------------------
    def variations(self, match_id: str) -> list[VariationStored]:
        """The variations kept with a stored match, in the order they were kept."""
        mid = str(self._uuid(match_id))
        with _db_errors(self.location):
            stored: Any = self.app.events.get(variations_stream_id(mid))  # (VariationStored events only)
            return list(stored)

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

