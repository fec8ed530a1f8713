"""What the live event page says of a stored tournament's tables as they record (issue 31,
docs/tournament.md "The live event"): each table's latest event, its findings as they arise and,
once every table of a round has a confirmed result, the standings after that round.

A :class:`Followed` tournament is its stored report's tables (round, table, players, the result
reported, the report's own entry) and, per table, what its recordings have said so far.  Each
recorded entry is looked at once (the events since the last entry of that recording): a judge's
ruling on an event the rules refused is an ``irregularity``; a finished match its ``result`` (and a
``result-mismatch`` where the table had a result reported that is not the log's); a recording of
other players than the table's a ``table-mismatch``; two seats' records of one table that state a
public fact differently a ``seat-conflict``.  One finding per problem (the first disagreement
of two records, never one per later event), each in words, as the public may see it: the events
in the game's notation of their public view, the rule broken by its id and code only (the
engine's message may name a card the table kept hidden).

The standings are the report's own computation (:func:`adjudicator.core.services.standings.recompute`)
over its tables, each table recorded live taking its recording's result and findings in place
of the imported entry's.  Nothing waits on a clock; every size is bounded (:data:`MAX_FINDINGS`
per table, :data:`MAX_RECORDINGS` recordings per table, tables only of the stored report).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.events import ENVELOPE_FIELDS
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.verify import run
from adjudicator.core.services.standings import DISPUTING, confirmed, recompute
from adjudicator.core.services.tournament import describe_result, result_matches

from .access import SPECTATOR

#: findings kept per table (a table's findings beyond it are counted, not kept)
MAX_FINDINGS = 32
#: recordings followed per table (each seat's, and a judge's)
MAX_RECORDINGS = 8


@dataclass
class _Recording:
    """One recording of a table: how far it has been looked at, and its public facts so far."""

    seen: int = 1
    #: per event (but derived ones and rulings): its index and its public view, without the envelope
    public: list[tuple[int, Any]] = field(default_factory=list)
    seat: str | None = None


@dataclass
class LiveTable:
    """One table of the stored report and what its recordings said."""

    round: int
    table: int
    players: list[str]
    reported: str | None
    events: int = 0
    latest: str = ""
    over: bool = False
    outcome: dict[str, Any] | None = None
    #: key -> finding (``kind``, ``message``), in the order they arose
    findings: dict[str, dict[str, str]] = field(default_factory=dict)
    more: int = 0
    recordings: dict[str, _Recording] = field(default_factory=dict)

    def item(self) -> dict[str, Any]:
        """The table's ``table`` message."""
        return {"round": str(self.round), "table": str(self.table), "players": self.players, "events": self.events,
                "latest": self.latest, "over": self.over,
                "result": describe_result(self.outcome) if self.outcome else None, "more_findings": self.more}

    def found(self, key: str, kind: str, message: str) -> dict[str, Any] | None:
        """A new finding (None: already found, or the table's are full)."""
        if key in self.findings:
            return None
        if len(self.findings) >= MAX_FINDINGS:
            self.more += 1
            return None
        self.findings[key] = {"kind": kind, "message": message}
        return self.finding(key)

    def finding(self, key: str) -> dict[str, Any]:
        f = self.findings[key]
        return {"id": f"{self.round}-{self.table}-{key}", "round": self.round, "table": self.table,
                "players": self.players, **f}


def _public(game: Any, ev: Any, before: Any) -> Any:
    """An event as the public sees it (``before``: the position before it, where the game's hiding
    depends on it), without its envelope (compared between two seats' records)."""
    doc = msgspec.to_builtins(game.redact(ev, SPECTATOR, before))
    return {k: v for k, v in doc.items() if k not in ENVELOPE_FIELDS}


class Followed:
    """A stored tournament followed live: its report's tables and what their recordings said."""

    def __init__(self, report: dict[str, Any]) -> None:
        #: the tables recorded live (made at a table's first entry)
        self.tables: dict[tuple[int, int], LiveTable] = {}
        #: every table of the report, as the standings read it (round, table, players, reported,
        #: outcome, the problems' kinds, penalties), in the report's order
        self.entries: dict[tuple[int, int], dict[str, Any]] = {}
        #: the report's standings' inputs (scoring, entrants, byes, drops, ruled; not its rounds)
        self.standings: dict[str, Any] | None = None
        #: rounds whose standings were sent (each once)
        self.announced: dict[int, dict[str, Any]] = {}
        #: every finding's table and key, in the order they arose (at most MAX_FINDINGS a table)
        self.arrived: list[tuple[tuple[int, int], str]] = []
        self.load(report)

    def load(self, report: dict[str, Any]) -> None:
        """(Again, after a re-import:) the report's tables, keeping what was recorded live; only
        what the standings read is kept of the report (its size is the tables', not its pages')."""
        self.entries = {(t["round"], t["table"]): {
            "round": t["round"], "table": t["table"], "players": list(t["players"]), "reported": t.get("reported"),
            "outcome": t.get("outcome"), "problems": [{"kind": p["kind"]} for p in t.get("problems", [])],
            "penalties": [{"player": p["player"], "penalty": p["penalty"]} for p in t.get("penalties", [])]}
            for t in report.get("tables", [])}
        st = report.get("standings")
        self.standings = None if not st else {k: v for k, v in st.items() if k != "rounds"}
        for key, was in list(self.tables.items()):
            entry = self.entries.get(key)
            if entry is None or was.players != entry["players"]:  # (a table paired anew: followed anew)
                del self.tables[key]
            else:
                was.reported = entry["reported"]

    def table(self, key: tuple[int, int]) -> LiveTable:
        """Table ``key`` of the report, as recorded live (followed from now on)."""
        t = self.tables.get(key)
        if t is None:
            e = self.entries[key]
            t = self.tables[key] = LiveTable(e["round"], e["table"], e["players"], e["reported"])
        return t

    def snapshot(self) -> dict[str, Any]:
        """Everything recorded live so far (a page that starts watching)."""
        live = [t for t in self.tables.values() if t.events]
        return {"tables": [t.item() for t in live],
                "findings": [self.tables[at].finding(k) for at, k in self.arrived
                             if at in self.tables and k in self.tables[at].findings],
                "standings": [self.announced[r] for r in sorted(self.announced)]}

    def update(self, key: tuple[int, int], rid: str, s: Any, players: list[str]) -> list[tuple[str, dict[str, Any]]]:
        """The messages an entry of recording ``rid`` (session ``s``) of table ``key`` makes:
        the table's, each new finding's and, a round newly complete, its standings'."""
        t = self.table(key)
        game, events = s.game, s.record.events
        rec = t.recordings.get(rid)
        if rec is None:
            if len(t.recordings) >= MAX_RECORDINGS:
                return []
            rec = t.recordings[rid] = _Recording(seat=s.seat)
        rec.seen = min(rec.seen, len(events))
        rec.public = [x for x in rec.public if x[0] < rec.seen]  # (an entry taken back: looked at again)
        out: list[tuple[str, dict[str, Any]]] = []

        def add(found: dict[str, Any] | None) -> None:
            if found is not None:
                out.append(("finding", found))
                self.arrived.append((key, found["id"].split("-", 2)[2]))

        if sorted(players) != sorted(t.players):
            add(t.found("table-mismatch", "table-mismatch", f"the recording's players are {', '.join(players)}, "
                        f"the table's {', '.join(t.players)}"))
        before = s.record.positions_before(min(rec.seen, len(events) - 1))
        for i in range(rec.seen, len(events)):
            ev = events[i]
            if ev.kind == "J" and getattr(ev, "decision", None) in ("stands", "taken-back") and 1 <= ev.event <= i:
                add(t.found(f"irregularity-{ev.event}", "irregularity", self._irregularity(s, ev, i)))
            if ev.kind not in ("X", "J"):
                rec.public.append((i, _public(game, ev, before[i - len(events)])))
        rec.seen = len(events)
        add(self._disagreement(t, rid, rec, game))
        at = next((i for i in range(len(events) - 1, -1, -1) if events[i].kind != "X"), len(events) - 1)
        latest = game.redact(events[at], SPECTATOR, s.record.positions_before(at)[0])
        t.events, t.latest, t.over = len(events), game.notation.format(latest, None), s.over
        out.insert(0, ("table", t.item()))
        if s.over and t.outcome is None:
            o = s.record.outcome
            t.outcome = {"result": o.result, "winner": o.winner, "reason": o.reason}
            add(t.found("result", "result", describe_result(t.outcome)))
            if t.reported is not None and not result_matches(t.reported, t.outcome):
                add(t.found("result-mismatch", "result-mismatch",
                            f"reported {t.reported!r}, the recording says {describe_result(t.outcome)}"))
            out[0] = ("table", t.item())
            done = self.standings_after(t.round)
            if done is not None and t.round not in self.announced:
                self.announced[t.round] = done
                out.append(("standings", done))
        return out

    def _irregularity(self, s: Any, ruling: Any, at: int) -> str:
        """A judge's ruling on an event the rules refused, in words: the event (public view), the
        rule it breaks (id and code, from verifying the log up to the ruling) and the decision."""
        game, events = s.game, s.record.events
        ev = events[ruling.event - 1]
        rule = "the rules"
        try:
            data = b"".join(msgspec.json.encode(e) + b"\n" for e in events[:at + 1])
            res = run(parse_log(data, "<recording>"))
            w = next((w for w in res.warnings if w.seq == ruling.event), None)
            rule = rule if w is None else f"{w.rule} [{w.code}]"
        except (AdjudicatorError, msgspec.ValidationError, msgspec.DecodeError):
            pass  # the rule is not named; the irregularity still is
        what = "it stands" if ruling.decision == "stands" else "it is taken back"
        shown = game.redact(ev, SPECTATOR, s.record.positions_before(ruling.event - 1)[0])
        return (f"event {ruling.event} ({game.notation.format(shown, None)}) breaks {rule}; "
                f"the judge ruled: {what}")

    def _disagreement(self, t: LiveTable, rid: str, rec: _Recording, game: Any) -> dict[str, Any] | None:
        """Two seats' recordings of the table that state a public fact differently: the first
        such event (one finding per table; the later events follow from it)."""
        if "seat-conflict" in t.findings or rec.seat is None:
            return None
        for other_id, other in t.recordings.items():
            if other_id == rid or other.seat is None or other.seat == rec.seat:
                continue
            for n, ((_i, a), (_j, b)) in enumerate(zip(other.public, rec.public), start=1):
                if a != b:
                    return t.found("seat-conflict", "seat-conflict",
                                   f"{other.seat}'s and {rec.seat}'s records disagree at their {_nth(n)} event "
                                   f"(besides derived events and rulings): a {a.get('type')} in {other.seat}'s, "
                                   f"a {b.get('type')} in {rec.seat}'s" if a.get("type") != b.get("type") else
                                   f"{other.seat}'s and {rec.seat}'s records state their {_nth(n)} event "
                                   f"({a.get('type')}) differently")
        return None

    def overlaid(self) -> list[dict[str, Any]]:
        """The report's tables, each recorded live with its recording's result and findings."""
        out = []
        for key, entry in self.entries.items():
            t = self.tables.get(key)
            if t is None or t.outcome is None:
                out.append(entry)
                continue
            problems = [{"kind": f["kind"]} for f in t.findings.values() if f["kind"] in DISPUTING]
            out.append({**entry, "outcome": t.outcome, "problems": problems, "penalties": []})
        return out

    def standings_after(self, rnd: int) -> dict[str, Any] | None:
        """The standings after round ``rnd`` once each of its tables has a confirmed result
        (None: one has not yet, or the report keeps no standings)."""
        standings = self.standings
        if not standings or "entrants" not in standings:
            return None  # (a report stored before the standings kept their inputs: import again)
        tables = self.overlaid()
        ruled = {(x["round"], x["table"]): x["outcome"] for x in standings.get("ruled", [])}
        if any(confirmed(t, ruled)[0] is None for t in tables if t["round"] == rnd):
            return None
        return next(x for x in recompute(standings, tables)["rounds"] if x["round"] == rnd)


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
