"""The store's index of matches: one entry per stored match in one stream, read on, never reread.

Listing, filtering (game, header) and looking a match up by id or prefix read the index stream
(:data:`adjudicator.core.store.adapter.INDEX_ID`), never a match's own stream.  The entries read
so far are kept, and only those written since (by this process or another) are asked for
(``events.get(INDEX_ID, gt=...)``): a request on a large store reads nothing twice.
:class:`Indexing` is a base class of :class:`adjudicator.core.store.MatchStore`.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.kernel.meta import matches as meta_matches
from .adapter import INDEX_ID, IndexEntry, MatchApplication, StoreError, _db_errors


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


def _summary(e: IndexEntry) -> MatchSummary:
    return MatchSummary(e.match_id, e.game, list(e.players), e.verdict, e.violations,
                        e.events, e.stored_events, e.outcome, e.source, e.digest, e.chain_head, list(e.data or []),
                        dict(getattr(e, "meta", None) or {}))


class Indexing:
    """The index methods of :class:`adjudicator.core.store.MatchStore` (a base class of it)."""

    app: MatchApplication
    location: str

    def __init__(self) -> None:
        #: the index of stored matches read so far (see _index_entries)
        self._index: list[IndexEntry] = []
        self._index_by_id: dict[str, IndexEntry] = {}
        self._index_version = 0
        self._index_lock = threading.Lock()

    def _exists(self, match_id: uuid.UUID) -> bool:
        return bool(self.app.recorder.select_events(match_id, limit=1))

    def _index_entries(self) -> list[IndexEntry]:
        """The index of stored matches, in import order: the entries read before, and a query of
        the index stream for those written since (by this process or another), never a reread."""
        with self._index_lock:
            with _db_errors(self.location):
                e: Any  # (the index stream holds IndexEntry events only)
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

    def _kept(self, game: str, kind: str, data_id: str) -> list[str]:
        """The hashes of the contents kept for (game, kind, id), in the order matches first used them."""
        out: list[str] = []
        for e in self._index_entries():
            if e.game == game:
                out += [d["sha256"] for d in e.data or [] if d["kind"] == kind and d["id"] == data_id
                        and d["sha256"] not in out]
        return out

    def _uuid(self, match_id: str | uuid.UUID) -> uuid.UUID:
        if isinstance(match_id, uuid.UUID):
            return match_id
        try:
            return uuid.UUID(match_id)
        except ValueError:
            return uuid.UUID(self.resolve(match_id))

