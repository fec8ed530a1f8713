"""Tournaments in the event store: ``adjudicator tournament import`` keeps a checked tournament's
report (docs/tournament.md) beside its matches, and the service shows it.

Each tournament is a stream of its own (named by the tournament's name), one
:class:`TournamentStored` event per import: the report as ``tournament check --json`` gives it,
each table with the ids of its stored matches.  A re-import appends a new version; the newest is
the one shown.  An index stream lists each tournament once, in import order.  Nothing here is
written into a match's own stream: the matches are stored as ``store import`` stores them.
"""

from __future__ import annotations

import uuid
from typing import Any

import msgspec

# (the store is the one module that imports eventsourcing: tests/test_store_upgrade.py)
from . import EPOCH, MATCH_NAMESPACE, DomainEvent, IntegrityError, MatchStore, StoreError, register_topic

#: the stream that lists every stored tournament
TOURNAMENTS_ID = uuid.uuid5(MATCH_NAMESPACE, "adjudicator.store/tournaments")
#: a stored report is at most this large (bytes of JSON)
MAX_REPORT_BYTES = 50_000_000
_RETRIES = 20


class UnknownTournament(StoreError):
    """No stored tournament by that name or id (HTTP 404, exit 2)."""


class TournamentStored(DomainEvent):
    """One import of a tournament: its report (JSON)."""

    TOPIC = "adjudicator/tournament.stored/1"
    name: str
    report: bytes


class TournamentListed(DomainEvent):
    """A tournament's entry in the index stream (its first import)."""

    TOPIC = "adjudicator/tournament.listed/1"
    tournament_id: str
    name: str


register_topic(TournamentStored.TOPIC, TournamentStored)
register_topic(TournamentListed.TOPIC, TournamentListed)


def tournament_id(name: str) -> uuid.UUID:
    return uuid.uuid5(MATCH_NAMESPACE, f"adjudicator.store/tournament/{name}")


def append_at_end(store: MatchStore, stream: uuid.UUID, make: Any, what: str = "the tournament") -> int:
    """Append the event ``make(version)`` at the end of ``stream``; the version written (another
    writer appending meanwhile: the next version is taken; ``what`` names it in the error)."""
    to_stored = store.app.events.mapper.to_stored_event
    for _ in range(_RETRIES):
        last = list(store.app.events.get(stream, desc=True, limit=1))
        version = (last[0].originator_version if last else 0) + 1
        try:
            store.app.recorder.insert_events([to_stored(make(version))])
            return version
        except IntegrityError:
            continue  # another writer appended meanwhile: take the next version
    raise StoreError(f"{store.location}: could not store {what} after {_RETRIES} tries")


def save(store: MatchStore, report: dict[str, Any]) -> tuple[str, int]:
    """Keep ``report`` (its tables carrying ``match_ids``); its tournament id and version."""
    name = report["tournament"]["name"]
    body = msgspec.json.encode(report)
    if len(body) > MAX_REPORT_BYTES:
        raise StoreError(f"the tournament report is {len(body)} bytes; at most {MAX_REPORT_BYTES}")
    tid = tournament_id(name)
    version = append_at_end(store, tid, lambda v: TournamentStored(originator_id=tid, originator_version=v,
                                                             timestamp=EPOCH, name=name, report=body))
    if version == 1:
        append_at_end(store, TOURNAMENTS_ID, lambda v: TournamentListed(originator_id=TOURNAMENTS_ID, originator_version=v,
                                                                  timestamp=EPOCH, tournament_id=str(tid), name=name))
    return str(tid), version


def listed(store: MatchStore) -> list[dict[str, Any]]:
    """Every stored tournament (import order): id, name, and its newest report's summary."""
    out = []
    for e in store.app.events.get(TOURNAMENTS_ID):
        rep = report(store, e.tournament_id)
        out.append({"tournament_id": e.tournament_id, "name": e.name, "game": rep["tournament"]["game"],
                    "dates": rep["tournament"]["dates"], "summary": rep["summary"]})
    return out


def report(store: MatchStore, ref: str) -> dict[str, Any]:
    """The newest report of the tournament ``ref`` (its id, a unique prefix of it, or its name)."""
    try:
        tid = uuid.UUID(ref)
    except ValueError:
        found = [e.tournament_id for e in store.app.events.get(TOURNAMENTS_ID)
                 if e.name == ref or e.tournament_id.startswith(ref)]
        if len(found) != 1:
            raise UnknownTournament(f"no stored tournament {ref!r}" if not found else
                               f"{ref!r} names {len(found)} tournaments: give more of the id") from None
        tid = uuid.UUID(found[0])
    last = list(store.app.events.get(tid, desc=True, limit=1))
    if not last or not isinstance(last[0], TournamentStored):
        raise UnknownTournament(f"no stored tournament {ref!r}")
    doc = msgspec.json.decode(last[0].report)
    doc["tournament_id"] = str(tid)
    return doc
