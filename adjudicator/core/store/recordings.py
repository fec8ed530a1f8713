"""Recordings in the event store: which stored match a browser recording is (issue 29 item 5).

A recording stored mid-match ("Store now") goes on being recorded; each later store of it is a
new stored match (the store keeps a log once, by content, and never rewrites one), so the store
says which stored match *replaces* which:

- a stream per recording (named by the recording's id) holds one :class:`RecordingStored` per
  store: its newest event is the recording's stored match;
- one index stream holds a :class:`MatchReplaced` for every stored match a later store of the
  same recording replaced; the service's match list leaves those out (they stay readable by id,
  as a stored log is never withdrawn).

Nothing here is written into a match's own stream.
"""

from __future__ import annotations

import uuid

# (the store is the one module that imports eventsourcing: tests/test_store_upgrade.py)
from . import EPOCH, MATCH_NAMESPACE, DomainEvent, MatchStore, register_topic
from .tournaments import append_at_end

#: the stream of every replaced match
REPLACED_ID = uuid.uuid5(MATCH_NAMESPACE, "adjudicator.store/recordings/replaced")


class RecordingStored(DomainEvent):
    """One store of a recording: the stored match it made."""

    TOPIC = "adjudicator/recording.stored/1"
    recording_id: str
    match_id: str


class MatchReplaced(DomainEvent):
    """A stored match replaced by a later store of the same recording."""

    TOPIC = "adjudicator/recording.replaced/1"
    recording_id: str
    match_id: str
    by: str


register_topic(RecordingStored.TOPIC, RecordingStored)
register_topic(MatchReplaced.TOPIC, MatchReplaced)


def recording_stream(recording_id: str) -> uuid.UUID:
    return uuid.uuid5(MATCH_NAMESPACE, f"adjudicator.store/recording/{recording_id}")


def _append(store: MatchStore, stream: uuid.UUID, make: type[DomainEvent], **fields: str) -> None:
    append_at_end(store, stream, lambda v: make(originator_id=stream, originator_version=v, timestamp=EPOCH, **fields),
                  "the recording's store")


def stored_match(store: MatchStore, recording_id: str) -> str | None:
    """The stored match of a recording (its newest store), None when never stored."""
    last = list(store.app.events.get(recording_stream(recording_id), desc=True, limit=1))
    return last[0].match_id if last else None


def note_stored(store: MatchStore, recording_id: str, match_id: str) -> str | None:
    """Note that the recording is now stored as ``match_id``; the match it replaces (None: the
    first store, or the same log stored again)."""
    before = stored_match(store, recording_id)
    if before == match_id:
        return None
    _append(store, recording_stream(recording_id), RecordingStored, recording_id=recording_id, match_id=match_id)
    if before is None:
        return None
    _append(store, REPLACED_ID, MatchReplaced, recording_id=recording_id, match_id=before, by=match_id)
    return before


def replaced(store: MatchStore) -> dict[str, str]:
    """Every replaced stored match -> the match that replaced it."""
    return {e.match_id: e.by for e in store.app.events.get(REPLACED_ID)}
