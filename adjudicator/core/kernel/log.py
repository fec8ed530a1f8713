"""Reading match logs (JSON Lines) into typed events, with errors that name file, line and field.

The first line must be ``MatchStarted`` naming a registered game; that game's decoder reads every
line.  Reading fails (:class:`LogError`, exit 2 at the CLI) on anything that is not a readable
event: malformed JSON, a truncated last line, an unknown event type, a missing or mistyped field,
an unknown player or card, a ``seq`` that breaks the 1-based count.  Whether the events are
*legal* is the verifier's business, not the reader's.
"""

from __future__ import annotations

import hashlib

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from pathlib import Path

import msgspec

from . import registry, textlog
from .errors import LogError, UnknownGame
from .events import CORE_EVENTS, Event, JudgeRuling
from .suggest import hint, literal_values, struct_fields
from .meta import meta_error
from .limits import MAX_DEPTH, MAX_EVENTS, MAX_LINE_BYTES, MAX_PLAYERS, MAX_RULINGS, depth_error
from .protocol import Game, RefError
from .refs import UNSEEN, RefChecks

_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_FIELD = re.compile(r"(?:missing required field|unknown field) `(?P<f>[^`]+)`")

_generic = msgspec.json.Decoder()


@dataclass
class MatchLog:
    path: str
    game: Game
    #: (line number, event); index 0 is MatchStarted
    events: list[tuple[int, Event]] = field(default_factory=list)
    #: the hash of the last line of a sealed log read whole (None: not sealed; see chain_head)
    sealed_head: str | None = None
    #: read whole from bytes that cannot hold a judge's ruling (no ``JudgeRuling``, no ``\\u``
    #: escape that could spell one): :func:`judge_rulings` need not look at every event
    no_rulings: bool = False
    #: read from the text form of a match (:mod:`~adjudicator.core.kernel.textlog`): its lines are the
    #: text's; event N is on line N of its JSON Lines (what a judge's ruling may name instead)
    text: bool = False

    @property
    def chain_head(self) -> str | None:
        """The hash of the last line when the log carries the hash chain (``prev``), else None
        (a streamed log: once it has been read to the end)."""
        events = self.events
        return events.chain_head if isinstance(events, StreamedEvents) else self.sealed_head

    @property
    def setup(self) -> Event:
        return self.events[0][1]


def _field_path(path: str | None) -> str | None:
    if not path:
        return None
    return path[1:] if path.startswith(".") else path


def decode_event(game: Game, raw: bytes, path: str, line: int | None) -> Event:
    """Decode one line with ``game``'s decoder; map msgspec's errors to :class:`LogError`."""
    _check_size(raw, path, line)
    try:
        return game.decoder.decode(raw)
    except msgspec.ValidationError as exc:
        text = str(exc)
        m = _AT.match(text)
        msg, fpath = (m.group("msg"), _field_path(m.group("path"))) if m else (text, None)
        if fpath == "type" and msg.startswith("Invalid value"):
            name = msg.split("Invalid value", 1)[1].strip()
            types = [c.__name__ for c in game.event_types + CORE_EVENTS]
            raise LogError(path, line, f"unknown event type {name} for game {game.id!r}"
                           f"{hint(_type_of(raw), types, 'event types')}", "type") from None
        cls = game.event_class(t) if isinstance(t := _type_of(raw), str) else None
        fm = _FIELD.search(msg)
        if fm:
            inner, outer = fm.group("f"), fpath
            fpath = f"{fpath}.{inner}" if fpath else inner
            if "missing required" in msg:
                msg = "required field is missing"
            else:
                fields = struct_fields(cls, outer) if cls is not None else None
                msg = "unknown field" + (hint(inner, fields, f"fields of {cls.__name__}" if cls is not None and not outer else "fields")
                                         if fields is not None else "")
        elif msg.startswith("Invalid enum value") and cls is not None and fpath:
            values = literal_values(cls, fpath)
            if values is not None:
                bad = msg.split("Invalid enum value", 1)[1].strip()
                try:
                    given = msgspec.json.decode(bad.replace("'", '"')) if bad.startswith("'") else bad
                except msgspec.DecodeError:
                    given = bad
                msg += hint(given, values)
        return_msg = msg[0].lower() + msg[1:] if msg else msg
        raise LogError(path, line, return_msg, fpath) from None
    except msgspec.DecodeError as exc:
        raise LogError(path, line, f"not valid JSON ({exc})") from None
    except UnicodeDecodeError as exc:
        raise LogError(path, line, f"not valid UTF-8 (byte {exc.start}: {exc.reason})") from None


def _check_size(raw: bytes, path: str, line: int | None, max_bytes: int = MAX_LINE_BYTES,
                field: str | None = None) -> None:
    """Refuse a line too long or nested too deep before any decoder sees it (docs: Limits)."""
    if len(raw) > max_bytes:
        what = "the line" if line is not None or max_bytes == MAX_LINE_BYTES else "the JSON text"
        raise LogError(path, line, f"{what} is {len(raw)} bytes long; at most {max_bytes}", field)
    why = depth_error(raw)
    if why is not None:
        raise LogError(path, line, why, field)


def check_setup_size(setup: Event, path: str, line: int | None) -> None:
    """Bounds every game shares, checked before anything is built from the set-up."""
    players = getattr(setup, "players", None)
    if isinstance(players, list) and len(players) > MAX_PLAYERS:
        raise LogError(path, line, f"{len(players)} players; at most {MAX_PLAYERS}", "players")
    why = meta_error(getattr(setup, "meta", None))
    if why is not None:
        raise LogError(path, line, why, "meta")


def _split_lines(data: bytes) -> list[tuple[int, bytes]]:
    """(line number, the line stripped) of every line that is not blank."""
    return [(i, raw) for i, line in enumerate(data.split(b"\n"), start=1) if (raw := line.strip())]


def decode_json(raw: bytes | str, path: str, line: int | None = None, max_bytes: int = MAX_LINE_BYTES,
                field: str | None = None) -> Any:
    """Any JSON text that input controls (a log line, a position document, a proposed event, a
    web service's query parameter), decoded generically: at most ``max_bytes`` long and
    :data:`~adjudicator.core.kernel.limits.MAX_DEPTH` deep, checked before msgspec sees it (it recurses);
    :class:`LogError` naming ``path``, ``line`` and ``field`` otherwise.  Every generic JSON
    decoding of input goes through here."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    _check_size(data, path, line, max_bytes, field)
    try:
        return _generic.decode(data)
    except msgspec.DecodeError as exc:
        raise LogError(path, line, f"not valid JSON ({exc})", field) from None
    except UnicodeDecodeError as exc:
        raise LogError(path, line, f"not valid UTF-8 (byte {exc.start}: {exc.reason})", field) from None


def json_object(raw: bytes, path: str, line: int) -> dict[str, Any]:
    """One line as a JSON object, its size and depth bounded (any game's line, or none's)."""
    obj = decode_json(raw, path, line)
    if not isinstance(obj, dict):
        raise LogError(path, line, "an event must be a JSON object")
    return obj


def game_of(first: bytes, path: str, line: int) -> Game:
    """The registered game a MatchStarted line names (LOG-1)."""
    obj = json_object(first, path, line)
    if obj.get("type") != "MatchStarted":
        raise LogError(path, line, f"the first event must be MatchStarted, got {obj.get('type')!r} (LOG-1)", "type")
    gid = obj.get("game")
    if not isinstance(gid, str):
        raise LogError(path, line, "MatchStarted must name the game (a registry id)", "game")
    try:
        return registry.get(gid)
    except UnknownGame as exc:
        raise LogError(path, line, str(exc), "game") from None


class Chain:
    """The hash chain of one log, checked line by line as the log is read (``prev``)."""

    def __init__(self, path: str) -> None:
        self.path = path
        #: the previous line as written, and its number
        self.prev_raw, self.prev_line = b"", 0
        #: does the log carry the hash chain (``prev`` from line 2 on)?
        self.chained = False

    def link(self, number: int, line_no: int, raw: bytes, prev: str | None) -> None:
        """Line ``line_no`` (event ``number``, its bytes ``raw``, its ``prev``) is next: raise
        :class:`LogError` where the chain breaks."""
        if prev is not None or self.chained:
            why = _chain_error(self, number, line_no, prev)
            if why is not None:  # a line that does not hash to the next prev is named itself
                broken = self.prev_line if why.startswith("the hash chain is broken") else line_no
                raise LogError(self.path, broken, why, "prev")
            self.chained = True
        self.prev_raw, self.prev_line = raw, line_no

    @property
    def head(self) -> str | None:
        """The hash of the last line read when the log carries the chain, else None."""
        return line_hash(self.prev_raw) if self.chained else None


def seal_lines(lines: list[bytes]) -> list[bytes]:
    """``lines`` (JSON objects) with the hash chain: MatchStarted as it is (no prev), each later
    line re-encoded with the prev of the line before it as written here."""
    out: list[bytes] = []
    for i, raw in enumerate(lines):
        doc = msgspec.json.decode(raw)
        doc.pop("prev", None)
        if i:
            doc["prev"] = line_hash(out[-1])
        out.append(msgspec.json.encode(doc))
    return out


class _LineReader:
    """Turns the lines of one log into events: decoding, ``seq``, one MatchStarted, references."""

    def __init__(self, path: str, game: Game, last_line_no: int, truncated: bool) -> None:
        self.path, self.game = path, game
        self.last_line_no, self.truncated = last_line_no, truncated
        self.setup: Event | None = None
        self.chain = Chain(path)
        #: bound once: the reading pass calls them once per line
        self._decode = game.decoder.decode
        self._refs = game.validate_refs

    def read(self, number: int, line_no: int, raw: bytes) -> Event:
        # the common line, in one frame: within the size and depth bounds (the depth can only
        # exceed MAX_DEPTH when the line holds more opening brackets than that: depth_error),
        # decoded by the game's tagged-union decoder built once; anything else takes the road
        # that names file, line and field (decode_event)
        if len(raw) <= MAX_LINE_BYTES and raw.count(b"{") + raw.count(b"[") <= MAX_DEPTH:
            try:
                event = self._decode(raw)
            except (msgspec.DecodeError, UnicodeDecodeError):
                event = self._decoded(line_no, raw)
        else:
            event = self._decoded(line_no, raw)
        chain = self.chain
        if event.prev is not None or chain.chained:
            chain.link(number, line_no, raw, event.prev)
        else:  # Chain.link's unchained step
            chain.prev_raw, chain.prev_line = raw, line_no
        if event.seq is not None and event.seq != number:
            raise LogError(self.path, line_no, f"expected {number}, got {event.seq} (seq counts events from 1 without gaps)", "seq")
        setup = self.setup
        if setup is None:
            setup = self.setup = event
            check_setup_size(event, self.path, line_no)
        elif type(event) is type(setup):  # the first line is MatchStarted (game_of)
            raise LogError(self.path, line_no, "a log holds one match: MatchStarted may only be the first event", "type")
        try:
            self._refs(setup, event)
        except RefError as exc:
            raise LogError(self.path, line_no, exc.message, exc.field) from None
        return event

    def ref_checks(self) -> RefChecks:
        """The reference check of this log's lines per event type, once the set-up is read
        (``game.ref_checks``; a game without it: ``validate_refs`` bound to the set-up)."""
        setup = self.setup
        assert setup is not None  # (read before any other line)
        own = getattr(self.game, "ref_checks", None)
        found = own(setup) if own is not None else None
        if found is not None:
            return found
        table: dict[type, Any] = {}
        check = partial(self._refs, setup)

        def learn(cls: type) -> Any:
            table[cls] = check
            return check
        return table, learn

    def _decoded(self, line_no: int, raw: bytes) -> Event:
        """One line through :func:`decode_event` (its errors name file, line and field)."""
        path = self.path
        try:
            return decode_event(self.game, raw, path, line_no)
        except LogError as exc:
            if self.truncated and line_no == self.last_line_no and exc.reason.startswith("not valid JSON"):
                raise LogError(path, line_no, "truncated last line (no newline and not valid JSON)") from None
            raise


def line_hash(raw: bytes) -> str:
    """The hash chain's link to a line: sha256 (hex) of its bytes as written (``prev``)."""
    return hashlib.sha256(raw.strip()).hexdigest()


def _chain_error(reader: Chain, number: int, line_no: int, prev: str | None) -> str | None:
    """Why line ``number`` breaks the hash chain, or None."""
    if number == 1:
        return "MatchStarted opens the hash chain: it has no prev"
    if prev is None:
        return f"the hash chain stops here: line {reader.prev_line} has a prev, this line has none"
    if not reader.chained and number > 2:
        return "the hash chain must start at the second line (every line after MatchStarted carries prev)"
    want = line_hash(reader.prev_raw)
    if prev != want:
        return (f"the hash chain is broken: this line was changed after the log was sealed (it hashes to "
                f"{want[:16]}..., line {line_no} says prev {prev[:16]}...), or a line was inserted or removed here")
    return None


def parse_log(data: bytes, path: str = "<log>") -> MatchLog:
    """A log from its bytes: JSON Lines, or the text form of a match (sniffed by content:
    :mod:`adjudicator.core.kernel.textlog`), its events numbered by the lines of the text."""
    text = textlog.is_text(data)
    whole = None if text else _read_whole(data, path)
    if whole is not None:
        return whole
    if text:
        lines = textlog.read_text(data, path)
        data = b"".join(raw + b"\n" for _, raw in lines)
    else:
        lines = _split_lines(data)
    if not lines:
        raise LogError(path, None, "empty log: the first line must be MatchStarted (LOG-1)")
    truncated = not data.endswith(b"\n") and not data.endswith(b"\r")
    if len(lines) > MAX_EVENTS:
        raise LogError(path, lines[MAX_EVENTS][0], f"more than {MAX_EVENTS} events in one log")
    game = game_of(lines[0][1], path, lines[0][0])
    log = MatchLog(path, game)
    reader = _LineReader(path, game, lines[-1][0], truncated)
    read = reader.read
    first = lines[0][0]
    events = [(first, read(1, first, lines[0][1]))]
    start = _read_plain(reader, lines, events, len(data) > MAX_LINE_BYTES) if _shallow(data) else 1
    events += [(line_no, read(number, line_no, raw)) for number, (line_no, raw) in enumerate(lines[start:], start=start + 1)]
    log.events = events
    log.sealed_head = reader.chain.head
    log.no_rulings = b"JudgeRuling" not in data and b"\\u" not in data
    log.text = text
    return log


def _read_whole(data: bytes, path: str) -> MatchLog | None:
    """The usual log read in one decoder call (msgspec's ``decode_lines``), as :func:`parse_log`
    reads it line by line; None for any other (then read so).  Usual: at most one line's size
    bound long, within the depth bound (:func:`_shallow`), no blank line, every line after the
    first an object alone (it starts with ``{`` and ends with ``}``, so no value spans two lines:
    ``decode_lines`` gives one event a line when it gives as many as there are lines), no
    ``prev``, ``seq`` or escape (``\\u``) anywhere after the first line, no second set-up, and
    every reference known (the game's checks per type, :meth:`_LineReader.ref_checks`)."""
    end = data.find(b"\n")
    if len(data) > MAX_LINE_BYTES or end < 0 or not data.startswith(b"{"):
        return None
    first, rest = data[:end].strip(), data[end + 1:]
    n = rest.count(b"\n") + (0 if rest.endswith(b"\n") or not rest else 1)  # the lines after the first
    if (n >= MAX_EVENTS or b'"prev"' in rest or b'"seq"' in rest or b"\\u" in data
            or rest.count(b"\n{") + rest.startswith(b"{") != n or rest.count(b"}\n") + rest.endswith(b"}") != n
            or not _shallow(data)):
        return None
    game = game_of(first, path, 1)
    reader = _LineReader(path, game, n + 1, not data.endswith(b"\n"))
    setup = reader.read(1, 1, first)
    try:
        later = game.decoder.decode_lines(rest) if n else []
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None
    if len(later) != n:
        return None
    table, learn = reader.ref_checks()
    check, setup_type = table.get, type(setup)
    try:
        for event in later:
            if event.__class__ is setup_type:
                return None
            f = check(event.__class__, UNSEEN)  # (as _read_plain checks each line)
            if f is not None:
                if f is UNSEEN:
                    f = learn(event.__class__)
                if f is not None:
                    f(event)
    except RefError:
        return None
    if n:  # the hash chain's unchained step, at the last line
        last = rest.rstrip(b"\n")
        reader.chain.prev_raw, reader.chain.prev_line = last[last.rfind(b"\n") + 1:].strip(), n + 1
    log = MatchLog(path, game, [(1, setup), *zip(range(2, n + 2), later)])
    log.no_rulings = b"JudgeRuling" not in data
    return log


#: every byte but those that open a JSON container and the line break (:func:`_shallow`)
_NOT_OPENING = bytes(range(256)).translate(None, b"{[\n")


def _shallow(data: bytes) -> bool:
    """No line of ``data`` holds more than :data:`MAX_DEPTH` opening brackets (so none is nested
    deeper: the reader's per-line bound, checked for the whole log at once)."""
    return max(map(len, data.translate(None, _NOT_OPENING).split(b"\n"))) <= MAX_DEPTH


def _read_plain(reader: _LineReader, lines: list[tuple[int, bytes]], events: list[tuple[int, Event]],
                long: bool) -> int:
    """Read the lines after MatchStarted into ``events`` while each is a plain one: within the
    size bound (checked per line only when the log is ``long``: longer than a line may be), it
    decodes, has no ``prev`` or ``seq``, is no second MatchStarted, and its references check; the
    depth bound was checked for the whole log (:func:`_shallow`).  Returns the index of the
    first line that is not plain (``len(lines)``: none), which :meth:`_LineReader.read` then reads
    as it reads any line (its error, or a hash chain or seq counted from there)."""
    decode = reader._decode
    table, learn = reader.ref_checks()
    check = table.get
    setup_type = type(events[0][1])
    append = events.append
    i = 1
    for i in range(1, len(lines)):
        line_no, raw = lines[i]
        if long and len(raw) > MAX_LINE_BYTES:
            break
        try:
            event = decode(raw)
            if event.prev is not None or event.seq is not None or event.__class__ is setup_type:
                break
            f = check(event.__class__, UNSEEN)  # (the game's validate_refs, per type: ref_checks)
            if f is not None:
                if f is UNSEEN:
                    f = learn(event.__class__)
                if f is not None:
                    f(event)
        except (msgspec.DecodeError, UnicodeDecodeError, RefError):
            break
        append((line_no, event))
    else:
        i = len(lines)
    if i > 1:  # the hash chain's unchained step, at the last plain line
        reader.chain.prev_raw, reader.chain.prev_line = lines[i - 1][1], lines[i - 1][0]
    return i


def _open(path: str | Path) -> Any:
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise LogError(str(path), None, "no such file") from None
    except IsADirectoryError:
        raise LogError(str(path), None, "is a directory, not a log file") from None
    except OSError as exc:
        raise LogError(str(path), None, f"cannot read ({exc.strerror})") from None


def log_bytes(path: str | Path) -> bytes:
    """The bytes of a log file (LogError naming the file when it cannot be read)."""
    with _open(path) as f:
        try:
            return f.read()
        except OSError as exc:
            raise LogError(str(path), None, f"cannot read ({exc.strerror})") from None


def read_log(path: str | Path) -> MatchLog:
    return parse_log(log_bytes(path), str(path))


def _raw_lines(f: Any, path: str) -> Iterator[tuple[int, bytes]]:
    """(line number, stripped bytes) of every non-empty line; a line is read to the size limit only."""
    limit = MAX_LINE_BYTES
    for line_no, raw in enumerate(iter(partial(f.readline, limit + 2), b""), start=1):
        if len(raw) > limit and (len(raw) > limit + 1 or not raw.endswith(b"\n")):
            raise LogError(path, line_no, f"the line is longer than {MAX_LINE_BYTES} bytes")
        raw = raw.strip()
        if raw:
            yield line_no, raw


#: the first pass over a streamed log reads it in blocks of this many bytes
_BLOCK = 1 << 18


def _first_pass(f: Any, path: str) -> tuple[int, int, list[tuple[int, int, bytes]]]:
    """The non-empty lines of a log file counted (each within the size limit), the number of the
    last one, and (event number, line, bytes) of the lines that may be judges' rulings (see
    :func:`judge_rulings`); read in blocks, memory bounded by a block and the longest line."""
    count = last = line_no = 0
    maybe: list[tuple[int, int, bytes]] = []
    rest = b""
    limit = MAX_LINE_BYTES
    while True:
        block = f.read(_BLOCK)
        buf = rest + block if rest else block
        lines = buf.split(b"\n")
        rest = lines.pop() if block else b""  # a line the next block goes on with
        rulings = b"JudgeRuling" in buf or b"\\u" in buf
        for raw in lines:
            line_no += 1
            if len(raw) > limit:
                raise LogError(path, line_no, f"the line is longer than {MAX_LINE_BYTES} bytes")
            raw = raw.strip()
            if not raw:
                continue
            count += 1
            last = line_no
            if rulings and (b"JudgeRuling" in raw or b"\\u" in raw) and _type_of(raw) == "JudgeRuling":
                maybe.append((count, line_no, raw))  # (a type may be written with escapes)
                if len(maybe) > MAX_RULINGS:
                    raise LogError(path, line_no, f"more than {MAX_RULINGS} judges' rulings in one log")
        if len(rest) > limit:
            raise LogError(path, line_no + 1, f"the line is longer than {MAX_LINE_BYTES} bytes")
        if not block:
            return count, last, maybe


class _Typed(msgspec.Struct):
    type: Any = None


_type_decoder = msgspec.json.Decoder(_Typed)


def _type_of(raw: bytes) -> Any:
    """The ``type`` of one line that may be a judge's ruling (None when it does not decode: the
    reading pass reports that line where it is)."""
    if len(raw) > MAX_LINE_BYTES or depth_error(raw) is not None:
        return None
    try:
        return _type_decoder.decode(raw).type
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None


class StreamedEvents(Sequence[tuple[int, Event]]):
    """The events of a log file decoded one at a time, front to back (memory: one line).

    Its length is known from a first pass that only counts lines; items are read in order
    (``events[0]``, ``events[1]``, ...; asking again for the current one is fine, going back is
    not).  Unreadable lines raise :class:`LogError` when they are reached.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        tail = b"\n"
        with _open(path) as f:
            count, last, self._maybe_rulings = _first_pass(f, path)
            f.seek(0, 2)
            if f.tell():
                f.seek(-1, 2)
                tail = f.read(1)
        if not count:
            raise LogError(path, None, "empty log: the first line must be MatchStarted (LOG-1)")
        if count > MAX_EVENTS:
            raise LogError(path, None, f"more than {MAX_EVENTS} events in one log")
        self._count = count
        self._file = _open(path)
        self._lines = _raw_lines(self._file, path)
        line_no, raw = next(self._lines)
        self.game = game_of(raw, path, line_no)
        self._reader = _LineReader(path, self.game, last, tail not in (b"\n", b"\r"))
        self._pos = 0
        self._current = (line_no, self._reader.read(1, line_no, raw))

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i: Any) -> Any:
        if not isinstance(i, int) or i < self._pos or i >= self._count:
            raise IndexError(f"{self.path}: events are read front to back (asked for {i} at {self._pos})")
        while self._pos < i:
            line_no, raw = next(self._lines)
            self._pos += 1
            self._current = (line_no, self._reader.read(self._pos + 1, line_no, raw))
        return self._current

    def __iter__(self) -> Iterator[tuple[int, Event]]:
        """The events from the first (which must still be the current one), each line read as it
        is reached (the verify loop's road: no index checks per line)."""
        if self._pos:
            raise IndexError(f"{self.path}: events are read front to back (asked for 0 at {self._pos})")
        yield self._current
        reader, lines, count = self._reader, self._lines, self._count
        read, chain = reader.read, reader.chain
        decode, setup = reader._decode, reader.setup
        assert setup is not None  # (the reader has read the set-up: ``_current``)
        setup_type = type(setup)
        table, learn = reader.ref_checks()
        check = table.get
        while self._pos + 1 < count:
            item = next(lines, None)
            if item is None:
                raise LogError(self.path, None, "the log file changed while it was read")
            self._pos += 1
            line_no, raw = item
            # a plain line (as parse_log's _read_plain reads them; within the size bound: read so)
            # in this frame; any other, or one that fails, read by the reader from the start
            event = None
            if not chain.chained and raw.count(b"{") + raw.count(b"[") <= MAX_DEPTH:
                try:
                    decoded: Event = decode(raw)
                    if decoded.prev is not None or decoded.seq is not None or type(decoded) is setup_type:
                        event = None
                    else:
                        f = check(decoded.__class__, UNSEEN)  # (validate_refs per type: ref_checks)
                        if f is not None:
                            if f is UNSEEN:
                                f = learn(decoded.__class__)
                            if f is not None:
                                f(decoded)
                        event = decoded
                except (msgspec.DecodeError, UnicodeDecodeError, RefError):
                    event = None
            if event is None:
                event = read(self._pos + 1, line_no, raw)
            else:  # Chain.link's unchained step
                chain.prev_raw, chain.prev_line = raw, line_no
            self._current = current = (line_no, event)
            yield current

    def drain(self) -> None:
        """Read (and check) every line not read yet: a log is unreadable wherever its bad line is."""
        if self._pos + 1 < self._count:
            self[self._count - 1]
        self.close()

    @property
    def chain_head(self) -> str | None:
        """After :meth:`drain`: the hash of the last line when the log carries the hash chain
        (``prev``), to keep beside the log (a change to the last line shows against it); else None."""
        return self._reader.chain.head

    def close(self) -> None:
        self._file.close()

    def judge_rulings(self) -> list[tuple[int, int, JudgeRuling]]:
        """The judges' rulings of the log, found by the first pass (a line that does not decode is
        left to the reading pass, which reports it where it is)."""
        out = []
        for number, line_no, raw in self._maybe_rulings:
            try:
                ev = self.game.decoder.decode(raw)
            except (msgspec.DecodeError, UnicodeDecodeError):
                continue
            if type(ev) is JudgeRuling:
                out.append((number, line_no, ev))
        return out


def judge_rulings(log: MatchLog, upto: int | None = None) -> list[tuple[int, int, JudgeRuling]]:
    """(event number, line, ruling) of every judge's ruling of ``log`` up to event ``upto``, in
    order: the verifier reads them before it starts (a ruling decides how an earlier event is
    followed).  A streamed log found them in its first pass; a log in memory is scanned here."""
    events = log.events
    if log.no_rulings:
        return []
    found = (events.judge_rulings() if isinstance(events, StreamedEvents)
             else [(i, line, e) for i, (line, e) in enumerate(events, start=1) if type(e) is JudgeRuling])
    if len(found) > MAX_RULINGS:
        raise LogError(log.path, found[MAX_RULINGS][1], f"more than {MAX_RULINGS} judges' rulings in one log")
    return found if upto is None else [r for r in found if r[0] <= upto]


class ReadEvents(list[Any]):
    """The events of a log read whole where a streamed one is asked for (the text form of a
    match): :meth:`StreamedEvents.drain` and ``close`` have nothing left to do."""

    #: the hash of the last line when the log carries the hash chain (see :meth:`StreamedEvents.chain_head`)
    chain_head: str | None = None

    def drain(self) -> None:
        """Every line was read (and checked) already."""

    def close(self) -> None:
        """No file stays open."""


def stream_log(path: str | Path) -> MatchLog:
    """A log whose events are read lazily from the file (:class:`StreamedEvents`): for verifying
    long logs in bounded memory.  Call ``log.events.drain()`` after a verification that stopped
    early, so that an unreadable line further on is still reported."""
    with _open(path) as f:
        head = f.read(4096)
    if textlog.is_text(head):  # the text form of a match is read whole (bounded: MAX_TEXT_BYTES)
        log = read_log(path)
        log.events = ReadEvents(log.events)
        log.events.chain_head = log.sealed_head
        return log
    events = StreamedEvents(str(path))
    return MatchLog(str(path), events.game, events)  # type: ignore[arg-type]


def find_logs(paths: list[str]) -> list[Path]:
    """Expand files and directories (recursively ``*.jsonl``), sorted, without duplicates."""
    out: list[Path] = []
    seen: set[Path] = set()
    for p in map(Path, paths):
        found = sorted(p.rglob("*.jsonl")) if p.is_dir() else [p]
        for f in found:
            if f not in seen:
                seen.add(f)
                out.append(f)
    return out
