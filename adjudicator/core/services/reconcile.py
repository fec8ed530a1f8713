"""Two records of one match made one: ``adjudicator reconcile A.jsonl B.jsonl``.

Two seats keep two records of one match (``adjudicator redact --as PLAYER`` writes one): each
masks what its seat could not see (``"?"``, a list of ``"?"``, an empty object: see
:func:`adjudicator.core.kernel.events.masked`, which every game's ``observe.redact`` uses; a record
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
that stops early).  Any other pair of events that differ is a contradiction.  One wrong line is
reported once: an event one record holds and the other does not (the rest aligned again after
it) is one contradiction; a contradiction that repeats the values of an earlier one, or comes
while the records are still out of step after one, is counted under it (``followers``).

Two records that agree line by line can still not both be true (one seat's draws impossible from
the pile the other recorded): the merged log is verified, and when it is illegal only because of
a value one record filled in the other's, that is a contradiction naming the line in A and the
line in B whose combination is impossible (a set-up one record refuses on its own, a deck list
against the construction rules, is that record's and no contradiction).

Sealed records (``prev``): each input's chain is checked as it is read (a broken chain makes that
input unreadable); ``prev`` is not compared (each record has its own chain); the merged log is
sealed again when both inputs were sealed, and is written without the chain otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.events import ENVELOPE_FIELDS, HIDDEN, Event, encode_line
from adjudicator.core.kernel.limits import MAX_EVENTS
from adjudicator.core.kernel import textlog
from adjudicator.core.kernel.log import Chain, _split_lines, game_of, json_object, log_bytes, seal_lines
from adjudicator.core.kernel.protocol import Game

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
    #: later contradictions that follow from this one (counted here, not listed)
    followers: int = 0

    def as_dict(self) -> dict[str, Any]:
        d = {"line_a": self.line_a, "line_b": self.line_b, "field": self.field, "message": self.message}
        if self.followers:
            d["followers"] = self.followers
        return d


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
    raw_lines = textlog.read_text(data, p) if textlog.is_text(data) else _split_lines(data)  # (either form)
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
    """Merges two JSON values, counting what each side lacked, collecting what disagrees.
    ``both``: keep only what both records know (a value one record leaves unknown stays ``"?"``)."""

    def __init__(self, both: bool = False) -> None:
        self.filled_a = self.filled_b = self.unknown = 0
        self.conflicts: list[tuple[str, Any, Any]] = []
        self.both = both
        #: where a value was filled, and from which record ("a" or "b")
        self.fills: list[tuple[str, str]] = []

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
            self.fills.append((where, "b"))
            return a if self.both else b  # (``both``: unknown, as the record that lacks it wrote it)
        if ub:
            self.filled_b += 1
            self.fills.append((where, "a"))
            return b if self.both else a
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            return [self.value(x, y, f"{where}[{i}]") for i, (x, y) in enumerate(zip(a, b))]
        if isinstance(a, dict) and isinstance(b, dict):
            if not a or not b:  # a masked object (a deck list the seat never saw)
                if not a:
                    self.filled_a += 1
                else:
                    self.filled_b += 1
                self.fills.append((where, "b" if not a else "a"))
                return {} if self.both else (b if not a else a)
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


#: how far ahead an event one record holds and the other does not is looked for (events), and
#: how many events after it must agree for the records to be in step again
RESYNC_WINDOW, RESYNC_AGREE = 8, 3


def _types(lines: list[tuple[int, bytes, dict[str, Any]]], start: int, n: int) -> list[Any]:
    return [d.get("type") for _n, _r, d in lines[start:start + n]]


def _extra(la: list[Any], lb: list[Any], i: int, j: int) -> tuple[int, int]:
    """Events A holds at ``i`` that B does not (``(d, 0)``), or B at ``j`` that A does not
    (``(0, d)``), after which the records agree again; ``(0, 0)``: none found."""
    want_b = _types(lb, j, RESYNC_AGREE)
    want_a = _types(la, i, RESYNC_AGREE)
    for d in range(1, RESYNC_WINDOW + 1):
        if len(want_b) == RESYNC_AGREE and _types(la, i + d, RESYNC_AGREE) == want_b:
            return d, 0
        if len(want_a) == RESYNC_AGREE and _types(lb, j + d, RESYNC_AGREE) == want_a:
            return 0, d
    return 0, 0


class _Found:
    """Contradictions as they are found, one wrong line reported once: a contradiction with the
    values of an earlier one, or one while the records are still out of step, counted under it."""

    def __init__(self, out: list[Contradiction]) -> None:
        self.out = out
        self.seen: dict[tuple[str, str], int] = {}
        #: the type contradiction the records are still out of step after (its index)
        self.astray: int | None = None

    def add(self, c: Contradiction, key: tuple[str, str] | None = None) -> None:
        root = self.seen.get(key) if key is not None else None
        if root is None and key is None and self.astray is not None:
            root = self.astray
        if root is not None:
            self.out[root] = replace(self.out[root], followers=self.out[root].followers + 1)
            return
        self.out.append(c)
        if key is not None:
            self.seen[key] = len(self.out) - 1


def reconcile(a: Record, b: Record) -> Reconciled:
    """Align ``a`` and ``b`` and merge them (see the module's description)."""
    game = a.game
    out = Reconciled(a, b)
    if b.game.id != game.id:
        out.contradictions.append(Contradiction(a.lines[0][0], b.lines[0][0],
                                                f"the records are of different games ({game.id}, {b.game.id})", "game"))
        return out
    found = _Found(out.contradictions)
    #: the merged events: (bytes, doc, line in A, line in B, index in A, index in B)
    merged: list[tuple[bytes, dict[str, Any], int | None, int | None, int | None, int | None]] = []
    i = j = 0
    la, lb = a.lines, b.lines
    while i < len(la) and j < len(lb):
        (na, ra, da), (nb, rb, db) = la[i], lb[j]
        if da.get("type") != db.get("type"):
            ka, kb = _kind(game, da), _kind(game, db)
            if ka in ("X", "J") and kb not in ("X", "J"):
                out.only_a.append(na)
                merged.append((ra, da, na, None, i, None))
                i += 1
                continue
            if kb in ("X", "J") and ka not in ("X", "J"):
                out.only_b.append(nb)
                merged.append((rb, db, None, nb, None, j))
                j += 1
                continue
            da_extra, db_extra = _extra(la, lb, i, j) if found.astray is None else (0, 0)
            if da_extra or db_extra:  # one record holds events the other does not; then they agree
                (path, other, holder, n0, d) = (a.path, b.path, la, na, da_extra) if da_extra else \
                    (b.path, a.path, lb, nb, db_extra)
                types = ", ".join(str(x[2].get("type")) for x in holder[(i if da_extra else j):][:d])
                last = holder[(i if da_extra else j) + d - 1][0]
                where = f"lines {n0}-{last}" if d > 1 else f"line {n0}"
                found.add(Contradiction(na, nb, f"{path} has {d} event{'s' if d > 1 else ''} {other} does not "
                                        f"({where}: {types})", "type"))
                i, j = i + da_extra, j + db_extra
                continue
            found.add(Contradiction(na, nb, f"{a.path}:{na} has {da.get('type')}, {b.path}:{nb} has {db.get('type')}",
                                    "type"))
            found.astray = len(out.contradictions) - 1 if found.astray is None else found.astray
            merged.append((ra, da, na, nb, i, j))
            i, j = i + 1, j + 1
            continue
        found.astray = None  # in step again
        doc = _merge_pair(out, found, la[i], lb[j])
        merged.append((_encoded(game, doc, ra, rb), doc, na, nb, i, j))
        i, j = i + 1, j + 1
    _rest(out, merged, la, lb, i, j)
    lines = [m[0] for m in merged]
    if not out.contradictions:
        impossible = _impossible(game, a, b, merged)
        if impossible is not None:
            out.contradictions.append(impossible)
    out.lines = seal_lines(lines) if out.sealed else lines
    if not out.contradictions:
        out.seat_a, out.seat_b = _seat(game, a, lines), _seat(game, b, lines)
    return out


def _merge_pair(out: Reconciled, found: _Found, ea: tuple[int, bytes, dict[str, Any]],
                eb: tuple[int, bytes, dict[str, Any]]) -> dict[str, Any]:
    """One event both records hold, in step: the merged document (each record's values filling
    the other's unknowns; a value the two state differently is a contradiction)."""
    (na, _ra, da), (nb, _rb, db) = ea, eb
    a, b = out.a, out.b
    m = _Merge()
    doc = m.object(da, db, "", _OPTIONAL)
    for where, x, y in m.conflicts:
        found.add(Contradiction(na, nb, f"{da.get('type')}: {where} is {_short(x)} in "
                                f"{a.path}:{na}, {_short(y)} in {b.path}:{nb}", where),
                  (_short(x), _short(y)))
    out.filled_a += m.filled_a
    out.filled_b += m.filled_b
    out.unknown += m.unknown
    return doc


def _rest(out: Reconciled, merged: list[Any], la: list[Any], lb: list[Any], i: int, j: int) -> None:
    """The events after the last one both records hold: each record's own, as it has them."""
    for k in range(i, len(la)):
        n, raw, doc = la[k]
        out.only_a.append(n)
        merged.append((raw, doc, n, None, k, None))
    for k in range(j, len(lb)):
        n, raw, doc = lb[k]
        out.only_b.append(n)
        merged.append((raw, doc, None, n, None, k))


def _verdict_at(game: Game, lines: list[bytes], upto: int) -> Any:
    """The first violation of the merged log's first ``upto`` events (None: none, or the merged
    log cannot be read as a log: a value still masked where the game allows none)."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.verify import run

    try:
        res = run(parse_log(b"".join(ln + b"\n" for ln in lines[:upto]), "<merged>"))
    except (LogError, msgspec.ValidationError, msgspec.DecodeError):
        return None
    return res.violations[0] if res.violations else None


def _impossible(game: Game, a: Record, b: Record,
                merged: list[tuple[bytes, dict[str, Any], int | None, int | None, int | None, int | None]]
                ) -> Contradiction | None:
    """Two records that agree line by line but cannot both be true: the merged log is illegal
    where the records alone are not, because of a value one record filled in the other's.  The
    contradiction names the line of the record that gave that value and the line of the other
    where the combination breaks a rule (None: the merged log verifies, or is illegal as each
    record is on its own)."""
    lines = [m[0] for m in merged]
    v = _verdict_at(game, lines, len(lines))
    if v is None:
        return None
    m = v.seq - 1  # the merged event the combination breaks at
    if m == 0 and any(_refused_alone(game, r, v.code) for r in (a, b)):
        return None  # a set-up one record refuses on its own (a deck list against the construction rules)
    known: dict[int, bytes] = {}  # what both records know of a line (a filled value left unknown)

    def both(k: int) -> bytes:
        if k not in known:
            _raw, _doc, _na, _nb, ia, ib = merged[k]
            if ia is None or ib is None:
                known[k] = lines[k]
            else:
                both_doc = _Merge(both=True).object(a.lines[ia][2], b.lines[ib][2], "", _OPTIONAL)
                known[k] = msgspec.json.encode(both_doc)
        return known[k]

    def fits(lo: int, hi: int) -> bool:
        """Does the merged log up to event m hold with the filled values of lines lo..hi-1 left unknown?"""
        trial = [both(k) if lo <= k < hi else lines[k] for k in range(m + 1)]
        w = _verdict_at(game, trial, m + 1)
        return w is None or w.seq - 1 > m
    if not fits(0, m + 1):
        return None  # illegal as the records are on their own: no contradiction between them
    if not fits(0, m):  # the value filled at that very line cannot be true with the other record
        c, culprit = m, m
    else:
        lo, hi = 0, m  # fits(lo, m) holds, fits(hi, m) does not: the last value that matters
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if fits(mid, m):
                lo = mid
            else:
                hi = mid
        c, culprit = lo, m
    _r, doc_c, na_c, nb_c, ia, ib = merged[c]
    mm = _Merge()
    if ia is not None and ib is not None:
        mm.object(a.lines[ia][2], b.lines[ib][2], "", _OPTIONAL)
    where, source = mm.fills[0] if mm.fills else ("", "a")
    _r, doc_m, na_m, nb_m, _ia, _ib = merged[culprit]
    if source == "b":  # B gave the value A left unknown: B's line against A's line where it breaks
        line_a, line_b, giver, gline, taker, tline = na_m, nb_c, b.path, nb_c, a.path, na_c
    else:
        line_a, line_b, giver, gline, taker, tline = na_c, nb_m, a.path, na_c, b.path, nb_c
    value = _short(_at(doc_c, where))
    return Contradiction(line_a, line_b, f"the records cannot both be true: {giver}:{gline} gives {doc_c.get('type')} "
                         f"{where} {value} ({taker}:{tline} leaves it unknown), and with it event {m + 1} "
                         f"({doc_m.get('type')}) is illegal: {v.rule} {v.message}", where or None)


def _refused_alone(game: Game, rec: Record, code: str) -> bool:
    """Does ``rec``'s own set-up break the rule ``code``?  The lists a set-up names are the
    record's own statement (what the organiser registered, checked once as the player's
    ``registration``): a list the rules refuse is that record's illegality, which the merged log
    keeps, not a contradiction between two records that agree on it."""
    w = _verdict_at(game, [raw for _n, raw, _d in rec.lines[:1]], 1)
    return w is not None and w.seq == 1 and w.code == code


def _at(doc: Any, where: str) -> Any:
    """The value at ``where`` (``card``, ``cards[2]``, ``deck.cards``) in a JSON object."""
    for part in where.replace("]", "").replace("[", ".").split("."):
        if not part:
            continue
        try:
            doc = doc[int(part)] if isinstance(doc, list) else doc[part]
        except (KeyError, IndexError, ValueError, TypeError):
            return None
    return doc


def _seat(game: Game, rec: Record, lines: list[bytes]) -> str | None:
    """The player whose view of the merged match ``rec`` is, by the game's ``redact`` with what
    each seat knew before each event (:func:`adjudicator.core.kernel.seats.redact_log`; None: no one
    seat's: the judge's record, or one made of several seats')."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.seats import positions_before

    if len(lines) < len(rec.lines):
        return None
    try:
        log = parse_log(b"".join(ln + b"\n" for ln in lines), "<merged>")
        own = [game.decoder.decode(raw) for _n, raw, _doc in rec.lines]
    except (LogError, msgspec.ValidationError, msgspec.DecodeError):
        return None
    events = [e for _l, e in log.events]
    before = positions_before(log)
    players = list(getattr(events[0], "players", []) or [])
    for p in players:
        if _seen_as(game, p, events, before, own):
            if all(game.redact(e, p, s) == e for e, s in zip(events, before)):
                return None  # this seat saw everything: the record says nothing of whose it is
            return p
    return None


def _seen_as(game: Game, p: str, events: list[Any], before: list[Any], own: list[Any]) -> bool:
    """``own`` is ``p``'s view of ``events``, but for derived events another seat's record stated
    (a card that seat saw turned face up: the merged log has them, this record leaves them to the
    engine)."""
    j = 0
    for e, s in zip(events, before):
        if j < len(own) and msgspec.structs.replace(game.redact(e, p, s), prev=None) == own[j]:
            j += 1
        elif e.kind != "X":
            return False
    return j == len(own)
