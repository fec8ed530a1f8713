"""Two records of one match made one: ``adjudicator reconcile A.jsonl B.jsonl``.

Two seats keep two records of one match (``adjudicator redact --as PLAYER`` writes one): each
masks what its seat could not see (``"?"``, a list of ``"?"``, an empty object: see
:func:`adjudicator.core.events.masked`, which every game's ``observe.redact`` uses; a record
kept by other software may write ``null`` instead of ``"?"``, and ``null`` is read as unknown
alike: docs/log-format.md, "Unknown identities").  Reconciling
aligns the two records event by event, fills each one's masked values from the other, and reports
every *contradiction*: two values that are both known and differ, two events that are not the same
event, with both files' line numbers.  Nothing here names a game: the records are read as JSON
objects (a masked card is not a card the game knows, so the game's reader would refuse them), the
kinds of events come from the game's event classes, the merged events are written as the game
writes them, and whose record each input is comes from the game's ``redact``.

Alignment: the records are walked side by side.  A derived (X) event or a judge's ruling (J) that
one record states and the other leaves out is taken into the merged log from the record that has
it ("only in A"); the events one record holds after the other's last are taken too (a record
that stops early).  Any other pair of events that differ is a contradiction.

Sealed records (``prev``): each input's chain is checked as it is read (a broken chain makes that
input unreadable); ``prev`` is not compared (each record has its own chain); the merged log is
sealed again when both inputs were sealed, and is written without the chain otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from .errors import LogError
from .events import ENVELOPE_FIELDS, HIDDEN, Event, encode_line
from .limits import MAX_EVENTS
from .log import Chain, _split_lines, game_of, json_object, log_bytes, seal_lines
from .protocol import Game

#: envelope fields one record may give and the other leave out (``prev`` is never compared)
_OPTIONAL = frozenset(ENVELOPE_FIELDS) - {"prev"}

@dataclass
class Record:
    """One input: its lines as written (without ``prev``) and as JSON objects."""

    path: str
    game: Game
    #: (line number, bytes as written, the JSON object without ``prev``)
    lines: list[tuple[int, bytes, dict[str, Any]]]
    sealed: bool


@dataclass(frozen=True)
class Contradiction:
    """Two records that disagree: at these lines (None: the record has no line there)."""

    line_a: int | None
    line_b: int | None
    message: str
    field: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"line_a": self.line_a, "line_b": self.line_b, "field": self.field, "message": self.message}


@dataclass
class Reconciled:
    a: Record
    b: Record
    #: the merged log's lines (sealed when both inputs were)
    lines: list[bytes] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    #: values masked in A (in B) that the other record gave
    filled_a: int = 0
    filled_b: int = 0
    #: values masked in both records (still ``"?"`` in the merged log)
    unknown: int = 0
    #: line numbers of the events only one record holds
    only_a: list[int] = field(default_factory=list)
    only_b: list[int] = field(default_factory=list)
    #: whose record each input is: a player (the seat whose view it is), or None (no one seat's)
    seat_a: str | None = None
    seat_b: str | None = None

    @property
    def sealed(self) -> bool:
        return self.a.sealed and self.b.sealed

    def as_dict(self) -> dict[str, Any]:
        return {"a": self.a.path, "b": self.b.path, "game": self.a.game.id, "events": len(self.lines),
                "contradictions": [c.as_dict() for c in self.contradictions],
                "filled": {"a": self.filled_a, "b": self.filled_b}, "unknown": self.unknown,
                "only_a": self.only_a, "only_b": self.only_b, "seats": {"a": self.seat_a, "b": self.seat_b},
                "sealed": self.sealed}


def read_record(path: str | Path) -> Record:
    """A record read as JSON objects, each line bounded as a log's is, its hash chain checked."""
    p = str(path)
    data = log_bytes(path)
    raw_lines = _split_lines(data)
    if not raw_lines:
        raise LogError(p, None, "empty log: the first line must be MatchStarted (LOG-1)")
    if len(raw_lines) > MAX_EVENTS:
        raise LogError(p, raw_lines[MAX_EVENTS][0], f"more than {MAX_EVENTS} events in one log")
    game = game_of(raw_lines[0][1], p, raw_lines[0][0])
    chain = Chain(p)
    lines = []
    for number, (line_no, raw) in enumerate(raw_lines, start=1):
        doc = json_object(raw, p, line_no)
        if game.event_class(str(doc.get("type"))) is None:
            raise LogError(p, line_no, f"unknown event type {doc.get('type')!r} for game {game.id!r}", "type")
        prev = doc.pop("prev", None)
        chain.link(number, line_no, raw, prev if isinstance(prev, str) else None)
        lines.append((line_no, raw if prev is None else msgspec.json.encode(doc), doc))
    return Record(p, game, lines, chain.chained)


class _Merge:
    """Merges two JSON values, counting what each side lacked, collecting what disagrees."""

    def __init__(self) -> None:
        self.filled_a = self.filled_b = self.unknown = 0
        self.conflicts: list[tuple[str, Any, Any]] = []

    def value(self, a: Any, b: Any, where: str) -> Any:
        if a == b:
            self.unknown += _hidden_count(a)
            return a
        ua, ub = _unknown(a), _unknown(b)
        if ua and ub:  # "?" in one record, null in the other: still unknown, written "?"
            self.unknown += 1
            return HIDDEN
        if ua:
            self.filled_a += 1
            return b
        if ub:
            self.filled_b += 1
            return a
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            return [self.value(x, y, f"{where}[{i}]") for i, (x, y) in enumerate(zip(a, b))]
        if isinstance(a, dict) and isinstance(b, dict):
            if not a or not b:  # a masked object (a deck list the seat never saw)
                if not a:
                    self.filled_a += 1
                else:
                    self.filled_b += 1
                return b if not a else a
            return self.object(a, b, where)
        self.conflicts.append((where, a, b))
        return a

    def object(self, a: dict[str, Any], b: dict[str, Any], where: str, envelope: frozenset[str] = frozenset()) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k in [*a, *(k for k in b if k not in a)]:
            at = f"{where}.{k}" if where else k
            if k in a and k in b:
                out[k] = self.value(a[k], b[k], at)
            elif k in envelope:  # an envelope field one record gives
                out[k] = a[k] if k in a else b[k]
            else:
                self.conflicts.append((at, a.get(k, "(left out)"), b.get(k, "(left out)")))
                out[k] = a[k] if k in a else b[k]
        return out


def _unknown(v: Any) -> bool:
    """A value the record leaves unknown: ``"?"`` or ``null``."""
    return v is None or v == HIDDEN


def _hidden_count(v: Any) -> int:
    """How many unknown values ``v`` holds (a ``null`` counts inside a list, where it stands for
    a card; a ``null`` field alone may be an optional field left empty, and is not counted)."""
    if v == HIDDEN:
        return 1
    if isinstance(v, list):
        return sum(1 if x is None else _hidden_count(x) for x in v)
    if isinstance(v, dict):
        return sum(_hidden_count(x) for x in v.values())
    return 0


def _kind(game: Game, doc: dict[str, Any]) -> str:
    cls = game.event_class(str(doc.get("type")))
    return "D" if cls is None else cls.kind


def _short(v: Any) -> str:
    text = msgspec.json.encode(v).decode()
    return text if len(text) <= 60 else text[:57] + "..."


def _encoded(game: Game, doc: dict[str, Any], raw_a: bytes, raw_b: bytes) -> bytes:
    """The merged event as the game writes it (a line both records wrote alike: as written)."""
    if raw_a == raw_b:
        return raw_a
    data = msgspec.json.encode(doc)
    try:
        return encode_line(game.decoder.decode(data))
    except (msgspec.ValidationError, msgspec.DecodeError):  # a value still masked where the game has none
        return data


def reconcile(a: Record, b: Record) -> Reconciled:
    """Align ``a`` and ``b`` and merge them (see the module's description)."""
    game = a.game
    out = Reconciled(a, b)
    if b.game.id != game.id:
        out.contradictions.append(Contradiction(a.lines[0][0], b.lines[0][0],
                                                f"the records are of different games ({game.id}, {b.game.id})", "game"))
        return out
    merged: list[tuple[bytes, dict[str, Any]]] = []
    i = j = 0
    la, lb = a.lines, b.lines
    while i < len(la) and j < len(lb):
        (na, ra, da), (nb, rb, db) = la[i], lb[j]
        if da.get("type") != db.get("type"):
            ka, kb = _kind(game, da), _kind(game, db)
            if ka in ("X", "J") and kb not in ("X", "J"):
                out.only_a.append(na)
                merged.append((ra, da))
                i += 1
                continue
            if kb in ("X", "J") and ka not in ("X", "J"):
                out.only_b.append(nb)
                merged.append((rb, db))
                j += 1
                continue
            out.contradictions.append(Contradiction(na, nb, f"{a.path}:{na} has {da.get('type')}, "
                                                    f"{b.path}:{nb} has {db.get('type')}", "type"))
            merged.append((ra, da))
            i, j = i + 1, j + 1
            continue
        m = _Merge()
        doc = m.object(da, db, "", _OPTIONAL)
        for where, x, y in m.conflicts:
            out.contradictions.append(Contradiction(na, nb, f"{da.get('type')}: {where} is {_short(x)} in "
                                                    f"{a.path}:{na}, {_short(y)} in {b.path}:{nb}", where))
        out.filled_a += m.filled_a
        out.filled_b += m.filled_b
        out.unknown += m.unknown
        merged.append((_encoded(game, doc, ra, rb), doc))
        i, j = i + 1, j + 1
    for n, raw, doc in la[i:]:
        out.only_a.append(n)
        merged.append((raw, doc))
    for n, raw, doc in lb[j:]:
        out.only_b.append(n)
        merged.append((raw, doc))
    lines = [raw for raw, _doc in merged]
    out.lines = seal_lines(lines) if out.sealed else lines
    if not out.contradictions:
        out.seat_a, out.seat_b = _seat(game, a, merged), _seat(game, b, merged)
    return out


def _seat(game: Game, rec: Record, merged: list[tuple[bytes, dict[str, Any]]]) -> str | None:
    """The player whose view of the merged match ``rec`` is, by the game's ``redact`` (None: no
    one seat's: the judge's record, or one made of several seats')."""
    if len(merged) != len(rec.lines):
        return None
    try:
        events: list[Event] = [game.decoder.decode(raw) for raw, _doc in merged]
        own = [game.decoder.decode(raw) for _n, raw, _doc in rec.lines]
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    players = list(getattr(events[0], "players", []) or [])
    for p in players:
        if all(msgspec.structs.replace(game.redact(e, p), prev=None) == o for e, o in zip(events, own)):
            if all(game.redact(e, p) == e for e in events):
                return None  # this seat saw everything: the record says nothing of whose it is
            return p
    return None
