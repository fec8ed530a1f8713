"""Reading match logs (JSON Lines) into typed events, with errors that name file, line and field.

The first line must be ``MatchStarted`` naming a registered game; that game's decoder reads every
line.  Reading fails (:class:`LogError`, exit 2 at the CLI) on anything that is not a readable
event: malformed JSON, a truncated last line, an unknown event type, a missing or mistyped field,
an unknown player or card, a ``seq`` that breaks the 1-based count.  Whether the events are
*legal* is the verifier's business, not the reader's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from . import registry
from .errors import LogError, UnknownGame
from .events import Event
from .limits import MAX_EVENTS, MAX_LINE_BYTES, MAX_PLAYERS, depth_error
from .protocol import Game, RefError

_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_FIELD = re.compile(r"(?:missing required field|unknown field) `(?P<f>[^`]+)`")

_generic = msgspec.json.Decoder()


@dataclass
class MatchLog:
    path: str
    game: Game
    #: (line number, event); index 0 is MatchStarted
    events: list[tuple[int, Event]] = field(default_factory=list)

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
            raise LogError(path, line, f"unknown event type {name} for game {game.id!r}", "type") from None
        fm = _FIELD.search(msg)
        if fm:
            inner = fm.group("f")
            fpath = f"{fpath}.{inner}" if fpath else inner
            if "missing required" in msg:
                msg = "required field is missing"
            else:
                msg = "unknown field"
        return_msg = msg[0].lower() + msg[1:] if msg else msg
        raise LogError(path, line, return_msg, fpath) from None
    except msgspec.DecodeError as exc:
        raise LogError(path, line, f"not valid JSON ({exc})") from None
    except UnicodeDecodeError as exc:
        raise LogError(path, line, f"not valid UTF-8 (byte {exc.start}: {exc.reason})") from None


def _check_size(raw: bytes, path: str, line: int | None) -> None:
    """Refuse a line too long or nested too deep before any decoder sees it (docs: Limits)."""
    if len(raw) > MAX_LINE_BYTES:
        raise LogError(path, line, f"the line is {len(raw)} bytes long; at most {MAX_LINE_BYTES}")
    why = depth_error(raw)
    if why is not None:
        raise LogError(path, line, why)


def _check_setup_size(setup: Event, path: str, line: int) -> None:
    """Bounds every game shares, checked before anything is built from the set-up."""
    players = getattr(setup, "players", None)
    if isinstance(players, list) and len(players) > MAX_PLAYERS:
        raise LogError(path, line, f"{len(players)} players; at most {MAX_PLAYERS}", "players")


def _split_lines(data: bytes) -> list[tuple[int, bytes]]:
    out = []
    for i, raw in enumerate(data.split(b"\n"), start=1):
        raw = raw.strip()
        if raw:
            out.append((i, raw))
    return out


def game_of(first: bytes, path: str, line: int) -> Game:
    """The registered game a MatchStarted line names (LOG-1)."""
    _check_size(first, path, line)
    try:
        obj = _generic.decode(first)
    except msgspec.DecodeError as exc:
        raise LogError(path, line, f"not valid JSON ({exc})") from None
    except UnicodeDecodeError as exc:
        raise LogError(path, line, f"not valid UTF-8 (byte {exc.start}: {exc.reason})") from None
    if not isinstance(obj, dict):
        raise LogError(path, line, "an event must be a JSON object")
    if obj.get("type") != "MatchStarted":
        raise LogError(path, line, f"the first event must be MatchStarted, got {obj.get('type')!r} (LOG-1)", "type")
    gid = obj.get("game")
    if not isinstance(gid, str):
        raise LogError(path, line, "MatchStarted must name the game (a registry id)", "game")
    try:
        return registry.get(gid)
    except UnknownGame as exc:
        raise LogError(path, line, str(exc), "game") from None


def parse_log(data: bytes, path: str = "<log>") -> MatchLog:
    lines = _split_lines(data)
    if not lines:
        raise LogError(path, None, "empty log: the first line must be MatchStarted (LOG-1)")
    truncated = not data.endswith(b"\n") and not data.endswith(b"\r")
    last_line_no = lines[-1][0]
    if len(lines) > MAX_EVENTS:
        raise LogError(path, lines[MAX_EVENTS][0], f"more than {MAX_EVENTS} events in one log")
    game = game_of(lines[0][1], path, lines[0][0])
    log = MatchLog(path, game)
    setup: Event | None = None
    for number, (line_no, raw) in enumerate(lines, start=1):
        try:
            event = decode_event(game, raw, path, line_no)
        except LogError as exc:
            if truncated and line_no == last_line_no and exc.reason.startswith("not valid JSON"):
                raise LogError(path, line_no, "truncated last line (no newline and not valid JSON)") from None
            raise
        if event.seq is not None and event.seq != number:
            raise LogError(path, line_no, f"expected {number}, got {event.seq} (seq counts events from 1 without gaps)", "seq")
        if setup is None:
            setup = event
            _check_setup_size(setup, path, line_no)
        elif type(event).__name__ == "MatchStarted":
            raise LogError(path, line_no, "a log holds one match: MatchStarted may only be the first event", "type")
        try:
            game.validate_refs(setup, event)
        except RefError as exc:
            raise LogError(path, line_no, exc.message, exc.field) from None
        log.events.append((line_no, event))
    return log


def read_log(path: str | Path) -> MatchLog:
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise LogError(str(path), None, "no such file") from None
    except IsADirectoryError:
        raise LogError(str(path), None, "is a directory, not a log file") from None
    except OSError as exc:
        raise LogError(str(path), None, f"cannot read ({exc.strerror})") from None
    return parse_log(data, str(path))


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
