"""The text form of a match (PGN's idea): header tags, then the game's notation one event a line.

::

    [game "colossus-order"]
    [player "alice"]
    [player "bob"]
    [option "mulligan_first" 3]
    [Event "Club night"]
    [Round "3"]

    [deck "alice"]
    colossus: Colossus of the Dawn Bastion
    3 Sky Lancer Captain
    17 White Gem

    [deck "bob"]
    ...

    2. alice: draw Sky Lancer Captain
    3. alice: play Sky Lancer Captain -> F3 {a comment: the event's note}
      (3. alice: pass) (3. alice: play Grave Rat -> F2)
    4. {"type": "CardsDrawn", ...}
    # result: win alice (deck-out)

- A tag ``[name value]`` (before the first event; the value is JSON) is a field of
  ``MatchStarted``: lower-case names are its fields (``game``, the set-up), a capitalised one a
  key of its header ``meta`` (``[Round "3"]`` is ``meta.round``).  A list or a table of the
  set-up is written a tag an entry, in words (:mod:`.setup_tags`: ``[player "ann"]``, ``[option
  "picks" "open"]``, ``[seat "tuatha" "ann" "NW"]``); the whole field as JSON (``[players
  ["ann","ben"]]``, the first text form) reads too.  Without tags, the first event line is
  ``MatchStarted`` as JSON.
- A deck section ``[deck "<player>"]`` (a game whose notation writes deck lists:
  ``notation.deck_lines`` / ``read_deck``) is that player's deck in ``decks``: the lines after
  it, up to a blank line, a tag or an event line, are a deck list in names (``3 Grave Rat``,
  ``colossus: <card>``); a card it does not know is named with the closest names.  The decks are
  either all sections or one ``[decks {...}]`` tag (JSON).
- An event line is ``N. text {note}``: ``N.`` (the event number, 1 = MatchStarted) is optional and
  checked when given; ``text`` is the game's notation (:mod:`adjudicator.core.kernel.notation`, read in
  the position the events before it leave: a compound entry may write several events), or one
  log line's JSON object; ``{note}`` is the event's ``note``.
- A line that starts with ``(`` holds variations (PGN's ``( ... )``, over several lines until the
  brackets close), kept as text in the note of the event before them: never played, never checked.
- ``%envelope seq prev``: every event line carries ``seq`` (its number) and ``prev`` (the hash
  chain of a sealed log: docs/log-format.md), rebuilt as the JSON Lines are written.
- ``#`` starts a comment line (turn marks, the result), blank lines are ignored.

Lossless: :func:`write_text` writes an event in the notation only where reading that line back
gives the very bytes of its JSON line (checked as it writes), else the line's JSON as it was;
so JSON Lines -> text -> JSON Lines is byte for byte.  :func:`read_text` gives the JSON Lines with
the text's line numbers (``adjudicator.core.kernel.log.parse_log`` reads them, so every command reads
the text form and names its lines).  Bounded: :data:`~adjudicator.core.kernel.limits.MAX_TEXT_BYTES`,
a line as long as a log line, variations and notes as long as a line.
"""

from __future__ import annotations

import hashlib
import re
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from . import registry
from .errors import LogError, UnknownGame
from .events import Event, JudgeRuling, bare, encode_line, states
from .limits import MAX_DEPTH, MAX_EVENTS, MAX_LINE_BYTES, MAX_PLAYERS, MAX_TEXT_BYTES, depth_error
from .meta import meta_error
from .notation import NotationError
from .protocol import Game, RefError
from .setup_tags import json_tags, line_of, read_values, tag_fields, tag_value, word_tags

__all__ = ["is_text", "read_text", "write_text"]

_TAG = re.compile(r"\[(?P<name>[A-Za-z][A-Za-z0-9_-]*)\s+(?P<value>.*)\]$", re.S)
_NUMBER = re.compile(r"(?P<n>\d{1,12})\.(?:\s+|$)")
_NOTE = re.compile(r"(?P<body>.*?)\s+\{(?P<note>[^{}\n]*)\}$", re.S)
#: a control character (line breaks included; C1 too): a line holding one is written as JSON
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")
#: the most derived events in a row the reading fold applies (an engine loop is the verifier's to report)
_MAX_DERIVED = 100_000


def is_text(data: bytes) -> bool:
    """Whether ``data`` is a match's text form rather than JSON Lines: its first character that is
    not a blank is not ``{`` (sniffed by content, never by the file's name)."""
    head = data[3:4] if data.startswith(b"\xef\xbb\xbf") else data.lstrip()[:1]
    return bool(head) and head != b"{"  # (JSON Lines after a byte order mark stay JSON Lines: refused)


def _hash(raw: bytes) -> str:
    return hashlib.sha256(raw.strip()).hexdigest()


class _Fold:
    """The position each line is read in: the events so far, checked and applied, the
    consequences the rules force applied after them (a stated one confirms the engine's); an
    event the rules refuse or the engine cannot apply leaves the position where it was (the
    verifier reports it).  :func:`write_text` and :func:`read_text` fold alike, so a line
    written in the notation reads back as the same event."""

    def __init__(self, game: Game, setup: Event) -> None:
        self.game = game
        self.owed: deque[Event] = deque()
        #: the event refused just before (its number and itself), which a judge may let stand
        self.refused: tuple[int, Event] | None = None
        try:
            self.state: Any = game.initial_state(setup)
            self._settle()
        except Exception:  # noqa: BLE001 - a set-up the engine cannot start: JSON lines only
            self.state = None

    def _settle(self) -> None:
        game = self.game
        for _ in range(_MAX_DERIVED):
            d = game.derive(self.state)
            if d is None:
                return
            self.state = game.apply(self.state, d)
            self.owed.append(d)

    def step(self, ev: Event, number: int) -> bool:
        """Fold event ``number`` in; False when the position stays where it was (a refused
        event).  A judge's ``stands`` on the event refused just before plays it on, as the
        verifier does."""
        game, state = self.game, self.state
        if state is None:
            return True
        if type(ev) is JudgeRuling:
            refused, self.refused = self.refused, None
            if refused is not None and ev.decision == "stands" and ev.event == refused[0]:
                try:
                    self.state = game.apply(state, refused[1])
                    self._settle()
                except Exception:  # noqa: BLE001 - no defined effect: the position stays
                    self.state = state
            return True
        if ev.kind == "X" and self.owed and states(self.owed[0], ev):
            self.owed.popleft()
            return True
        self.refused = None
        try:
            if not game.check(state, ev).allowed:
                self.refused = (number, ev)
                return False
            self.owed.clear()
            self.state = game.apply(state, ev)
            self._settle()
        except Exception:  # noqa: BLE001 - the position stays; the verifier names the event
            self.state = state
            return False
        return True


class _Reader:
    """Reads a text form line by line into JSON lines (see the module)."""

    def __init__(self, path: str) -> None:
        self.path = path
        #: the header's tags: (line, name, the values: one JSON value, or an entry's several)
        self.tags: list[tuple[int, str, list[Any]]] = []
        self.envelope: set[str] = set()
        self.game: Game | None = None
        self.fold: _Fold | None = None
        #: (text line, JSON line) of every event finalised
        self.out: list[tuple[int, bytes]] = []
        #: the last event read, its note still open to variations
        self.pending: tuple[int, Event, bytes | None] | None = None
        self.stopped = False
        #: the text line of the last event the rules refused (the position stayed before it)
        self.refused: int | None = None
        #: the deck sections: (the tag's line, the player, the section's (line, text)); the last one open
        self.decks: list[tuple[int, str, list[tuple[int, str]]]] = []
        self.deck_open = False
        #: the text line of each set-up field and entry the tags write (``seats[0]``: setup_tags.line_of)
        self.field_lines: dict[str, int] = {}

    def fail(self, line: int, why: str, part: str | None = None) -> LogError:
        return LogError(self.path, line, why, part)

    # -- the set-up ---------------------------------------------------------------------------
    def tag(self, line: int, text: str) -> None:
        m = _TAG.match(text)
        if m is None:
            raise self.fail(line, "a tag is [name value], the value JSON (e.g. [Round \"3\"])", "tag")
        name = m.group("name")
        try:
            values = read_values(m.group("value"))
        except ValueError as exc:
            raise self.fail(line, f"the value is not JSON ({exc}); a text is written in quotes", name) from None
        if name == "deck":  # a deck section opens: the lines after it are its list
            if len(values) != 1 or not isinstance(values[0], str) or any(p == values[0] for _, p, _ in self.decks):
                raise self.fail(line, "a deck section is [deck \"<player>\"], once a player", "deck")
            self.decks.append((line, values[0], []))
            self.deck_open = True
            return
        if name[0].isupper() and any(n == name for _, n, _ in self.tags):
            raise self.fail(line, "given twice", name)
        self.tags.append((line, name, values))

    def deck_line(self, line: int, text: str) -> bool:
        """A line while a deck section is open: True when it is the section's (else the section
        ends there: a blank line, a tag, a directive or an event line ``N. ...``)."""
        if not text or text.startswith(("[", "%")) or _NUMBER.match(text):
            self.deck_open = False
            return False
        if not text.startswith("#"):
            self.decks[-1][2].append((line, text))
        return True

    def decks_from_sections(self, doc: dict[str, Any]) -> None:
        """``doc["decks"]`` from the deck sections, read by the game's notation (the pool the
        tags name); a line that does not read is named with its file line."""
        if "decks" in doc:
            raise self.fail(self.decks[0][0], "both [decks ...] and deck sections ([deck \"<player>\"])", "deck")
        try:
            game_id = doc.get("game")
            notation = registry.get(game_id).notation if isinstance(game_id, str) else None
        except UnknownGame:
            notation = None
        if notation is None:
            raise self.fail(self.decks[0][0], "a deck section needs the [game \"...\"] tag (a registry id)", "deck")
        decks: dict[str, Any] = {}
        for at, player, lines in self.decks:
            self.field_lines[f"decks.{player}"] = at
            try:
                decks[player] = notation.read_deck(doc, player, [t for _, t in lines])
            except NotationError as exc:
                k = getattr(exc, "line", None)
                where = lines[k][0] if isinstance(k, int) and k < len(lines) else at
                names = ", ".join(exc.candidates[:4])
                near = "" if not names else f": {names}?" if exc.reason.endswith("did you mean") else f" (did you mean: {names}?)"
                raise self.fail(where, f"{exc.reason}{near}", "deck") from None
        doc["decks"] = decks

    def setup_from_tags(self) -> None:
        meta: dict[str, Any] = {}
        lower = []
        for line, name, values in self.tags:
            if name[0].isupper():
                if len(values) != 1 or not isinstance(values[0], str):
                    raise self.fail(line, "a header tag's value is a text in quotes", name)
                meta[name[0].lower() + name[1:]] = values[0]
            else:
                lower.append((line, name, values))
        at, gid = next(((ln, v[0]) for ln, n, v in lower if n == "game" and len(v) == 1),
                       (self.tags[0][0] if self.tags else self.decks[0][0], None))
        if not isinstance(gid, str):  # (said before any other tag: the game says what the others are)
            raise self.fail(at, "MatchStarted must name the game (a registry id): [game \"...\"]", "game")
        try:
            cls = registry.get(gid).event_types[0]
        except UnknownGame as exc:
            raise self.fail(at, str(exc), "game") from None
        doc: dict[str, Any] = {"type": "MatchStarted", **tag_fields(cls, lower, self.fail, self.field_lines)}
        if meta:
            if "meta" in doc:
                raise self.fail(self.tags[0][0], "both [meta ...] and capitalised header tags", "meta")
            doc["meta"] = meta
        if self.decks:
            self.decks_from_sections(doc)
        line = next((n for n, name, _ in self.tags if name == "game"), self.tags[0][0] if self.tags else self.decks[0][0])
        self.setup(line, msgspec.json.encode(doc))

    def setup(self, line: int, raw: bytes) -> None:
        try:
            obj = msgspec.json.decode(raw)
        except msgspec.DecodeError:
            obj = None
        gid = obj.get("game") if isinstance(obj, dict) else None
        if not isinstance(obj, dict) or obj.get("type") != "MatchStarted":
            raise self.fail(line, "the match starts with its tags ([game \"...\"], ...) or MatchStarted as JSON (LOG-1)")
        if not isinstance(gid, str):
            raise self.fail(line, "MatchStarted must name the game (a registry id)", "game")
        try:
            self.game = registry.get(gid)
        except UnknownGame as exc:
            raise self.fail(line, str(exc), "game") from None
        try:
            setup = self.game.decoder.decode(raw)
            players = getattr(setup, "players", None)
            if isinstance(players, list) and len(players) > MAX_PLAYERS or meta_error(getattr(setup, "meta", None)):
                raise ValueError("out of bounds")
            self.game.validate_refs(setup, setup)  # (its bounds checked before anything is built from it)
        except (msgspec.DecodeError, msgspec.ValidationError, RefError, ValueError) as exc:
            path = exc.field if isinstance(exc, RefError) else _error_path(str(exc))
            self.out.append((line_of(self.field_lines, path, line), raw))  # the log reader names what is wrong
            self.stopped = True
            return
        self.pending = (line, setup, None if self.tags else raw)
        self.fold = _Fold(self.game, setup)

    # -- events -------------------------------------------------------------------------------
    def number(self) -> int:
        return len(self.out) + (self.pending is not None) + 1

    def finalise(self) -> None:
        if self.pending is None:
            return
        line, ev, raw = self.pending
        if raw is None:
            if "prev" in self.envelope and self.out:
                ev = msgspec.structs.replace(ev, prev=_hash(self.out[-1][1]))
            raw = encode_line(ev)
        self.out.append((line, raw))
        self.pending = None

    def entry(self, line: int, text: str) -> list[tuple[Event, bytes | None]]:
        """The events of one event line (``N. text {note}``): (event, its JSON line as written,
        None where the envelope is still to be added)."""
        m = _NUMBER.match(text)
        given = int(m.group("n")) if m else None
        body = text[m.end():] if m else text
        first = self.number()
        if given is not None and given != first:
            raise self.fail(line, f"expected event {first}, the line says {given} (events are counted from 1, "
                                  "MatchStarted first)", "number")
        game, fold = self.game, self.fold
        assert game is not None and fold is not None
        if body.startswith("{"):
            raw = body.encode()
            if len(raw) > MAX_LINE_BYTES or depth_error(raw) is not None:
                return [(None, raw)]  # type: ignore[list-item]
            try:
                return [(game.decoder.decode(raw), raw)]
            except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
                return [(None, raw)]  # type: ignore[list-item]
        note = None
        n = _NOTE.match(body)
        if n is not None:
            body, note = n.group("body"), n.group("note").strip()
        try:
            events = game.notation.parse_entry(body, fold.state)
        except NotationError as exc:
            after = (f" (read in the position before line {self.refused}, an event the rules refuse: "
                     "write it as JSON to go on)") if self.refused is not None else ""
            raise self.fail(line, f"{body[:80]!r} does not read as an event: {exc}{after}", "event") from None
        except Exception as exc:  # noqa: BLE001 - a notation's defect is still a named line
            raise self.fail(line, f"{body[:80]!r} does not read as an event ({type(exc).__name__})", "event") from None
        if not events:
            raise self.fail(line, f"{body[:80]!r} writes no event", "event")
        out: list[tuple[Event, bytes | None]] = []
        for i, ev in enumerate(events):
            env: dict[str, Any] = {"seq": None, "at": None, "note": None, "prev": None}
            if "seq" in self.envelope:
                env["seq"] = first + i
            if note and i == len(events) - 1:
                env["note"] = note
            out.append((msgspec.structs.replace(bare(ev), **env), None))
        return out

    def take(self, line: int, events: Sequence[tuple[Event | None, bytes | None]]) -> None:
        for ev, raw in events:
            self.finalise()
            if ev is None:  # a JSON line that does not decode: the log reader names why
                self.out.append((line, raw or b""))
                self.stopped = True
                return
            self.pending = (line, ev, raw)
            assert self.fold is not None
            if not self.fold.step(ev, self.number() - 1):
                self.refused = line
            if self.number() > MAX_EVENTS + 1:
                raise self.fail(line, f"more than {MAX_EVENTS} events in one log")

    def variation(self, line: int, text: str) -> None:
        if self.pending is None or not self.out:
            raise self.fail(line, "a variation follows the event it is an alternative to", "variation")
        at, ev, raw = self.pending
        if raw is not None:
            raise self.fail(line, "a variation cannot follow an event written as JSON (put it in the note)", "variation")
        note = f"{ev.note} {text}" if ev.note else text
        if len(note) > MAX_LINE_BYTES // 2:
            raise self.fail(line, f"the note and its variations are longer than {MAX_LINE_BYTES // 2} characters", "variation")
        self.pending = (at, msgspec.structs.replace(ev, note=note), None)


def _error_path(message: str) -> str:
    """The field a decoder's message names (``... - at `$.seats[0].warband```: ``seats[0].warband``;
    ``Object contains unknown field `x` - at `$.seats[1]```: ``seats[1].x``)."""
    m = re.search(r"at `\$\.?([^`]*)`", message)
    at = m.group(1) if m else ""
    u = re.search(r"unknown field `([^`]*)`", message)
    return (f"{at}.{u.group(1)}" if at else u.group(1)) if u else at


def _lines(data: bytes, path: str) -> Iterator[tuple[int, str]]:
    if len(data) > MAX_TEXT_BYTES:
        raise LogError(path, None, f"the text is {len(data)} bytes long; at most {MAX_TEXT_BYTES}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(path, data[:exc.start].count(b"\n") + 1, f"not valid UTF-8 (byte {exc.start}: {exc.reason})") from None
    for i, line in enumerate(text.lstrip("\ufeff").split("\n"), start=1):
        if len(line) > MAX_LINE_BYTES:
            raise LogError(path, i, f"the line is {len(line)} characters long; at most {MAX_LINE_BYTES}")
        yield i, line.strip()


def _groups(text: str) -> tuple[int, str | None]:
    """How deep ``text`` leaves the brackets of variations open (0: closed), or why it cannot."""
    depth = 0
    for c in text:
        if c == "(":
            depth += 1
            if depth > MAX_DEPTH:
                return depth, f"variations nested deeper than {MAX_DEPTH}"
        elif c == ")":
            depth -= 1
            if depth < 0:
                return depth, "a ')' closes no variation"
    return depth, None


def read_text(data: bytes, path: str = "<text>") -> list[tuple[int, bytes]]:
    """The JSON lines a text form writes, each with the number of the text line it comes from:
    :class:`LogError` (file, line, the part) where a line does not read.  A JSON line that does
    not decode stops the reading there: the log reader names what is wrong with it."""
    r = _Reader(path)
    open_at, variation = 0, ""
    for line, text in _lines(data, path):
        if r.stopped:
            break
        if r.deck_open and r.game is None and r.deck_line(line, text):
            continue
        if open_at:
            variation += " " + text
            depth, why = _groups(variation)
            if why is not None:
                raise r.fail(open_at, why, "variation")
            if depth == 0:
                r.variation(open_at, variation)
                open_at, variation = 0, ""
            continue
        if not text or text.startswith("#"):
            continue
        if text.startswith("%"):
            word, *rest = text[1:].split()
            if word != "envelope" or r.game is not None or not set(rest) <= {"seq", "prev"}:
                raise r.fail(line, "the one directive is %envelope [seq] [prev], before the first event", "directive")
            r.envelope = set(rest)
            continue
        if text.startswith("["):
            if r.game is not None:
                raise r.fail(line, "tags come before the first event", "tag")
            r.tag(line, text)
            continue
        if text.startswith("("):
            depth, why = _groups(text)
            if why is not None:
                raise r.fail(line, why, "variation")
            if depth:
                open_at, variation = line, text
            else:
                r.variation(line, text)
            continue
        if r.game is None:
            if r.tags or r.decks:
                r.setup_from_tags()
            else:
                m = _NUMBER.match(text)
                r.setup(line, (text[m.end():] if m else text).encode())
                continue
            if r.stopped:
                break
        r.take(line, r.entry(line, text))
    if open_at:
        raise r.fail(open_at, "the variation's '(' is never closed", "variation")
    if r.game is None and (r.tags or r.decks) and not r.stopped:
        r.setup_from_tags()
    r.finalise()
    if not r.out:
        raise LogError(path, None, "empty: the match starts with its tags ([game \"...\"], ...) (LOG-1)")
    return r.out


# -- writing ------------------------------------------------------------------------------------


def _with_deck_sections(game: Game, setup: Event, tags: list[str], first: bytes) -> list[str]:
    """The header: ``tags`` with the ``[decks {...}]`` tag written as a deck section a player
    (the game's ``notation.deck_lines``: names, one card a line) where every deck has one and the
    header reads back as the very set-up line ``first``; else ``tags`` as they are."""
    decks = getattr(setup, "decks", None)
    if not isinstance(decks, dict) or not decks:
        return tags
    sections: list[str] = []
    try:
        for player in decks:
            lines = game.notation.deck_lines(setup, player)
            if lines is None or any(not ln.strip() or ln.lstrip().startswith(("[", "#", "%")) or _NUMBER.match(ln)
                                    or _CONTROLS.search(ln) for ln in lines):
                return tags
            sections += ["", f"[deck {tag_value(player)}]", *(lines or ["# no card listed"])]
    except Exception:  # noqa: BLE001 - a deck list in words is a nicety: the JSON tag stands
        return tags
    header = [t for t in tags if not t.startswith("[decks ")] + sections
    try:
        back = read_text(("\n".join(header) + "\n").encode(), "<written>")
    except LogError:
        return tags
    return header if len(back) == 1 and back[0][1] == first else tags


def _split_note(note: str) -> tuple[str | None, str | None]:
    """A note as the comment and the variations after it (as :meth:`_Reader.variation` joins them)."""
    for k in [i for i, c in enumerate(note) if c == "(" and (i == 0 or note[i - 1] == " ")]:
        depth, why = _groups(note[k:])
        if depth == 0 and why is None and note.endswith(")"):
            return (note[:k - 1] if k else None), note[k:]
    return note, None


def write_text(game: Game, lines: list[bytes], events: list[Event]) -> str:
    """The text form of a log: its JSON ``lines`` (as written) and their ``events`` (decoded).

    Each event is written in the game's notation where reading that line back in the position
    gives the very same JSON line, else as the JSON line itself (see the module)."""
    setup, first = events[0], lines[0]
    out: list[str] = []
    r, tags = _Reader("<written>"), []
    for tags in (word_tags(setup), json_tags(setup)):  # (in words where they read back exactly)
        r = _Reader("<written>")
        try:
            for t in tags:
                r.tag(0, t)
            r.setup_from_tags()
            ok = r.pending is not None and encode_line(r.pending[1]) == first
        except LogError:
            ok = False
        if ok:
            break
    if len(events) > 1:
        env = [k for k in ("seq", "prev") if getattr(events[1], k) is not None]
        if env:
            out.append("%envelope " + " ".join(env))
            r.envelope = set(env)
    if ok:
        out += _with_deck_sections(game, setup, tags, first) + [""]
    else:
        r = _Reader("<written>")
        r.envelope = set(env) if len(events) > 1 and env else set()
        r.setup(1, first)
        out.append(f"1. {first.decode()}")
    if r.fold is None or r.game is None:
        return "\n".join(out + [f"{i}. {raw.decode()}" for i, raw in enumerate(lines[1:], start=2)]) + "\n"
    notation = game.notation
    turn = _turn(game, r.fold.state)
    for number, (raw, ev) in enumerate(zip(lines[1:], events[1:]), start=2):
        state = r.fold.state
        now = _turn(game, state)
        if now is not None and now != turn:
            out.append(f"# turn {now}")
            turn = now
        written = _written(r, notation, number, ev, raw, state)
        if written is None:
            out.append(f"{number}. {raw.decode()}")
            r.take(0, [(ev, raw)])
        else:
            out += written
            r.take(0, [(ev, None)])
        r.finalise()
    outcome = None
    try:
        outcome = game.outcome(r.fold.state) if r.fold.state is not None else None
    except Exception:  # noqa: BLE001 - a comment only
        pass
    if outcome is not None:
        out.append(f"# result: {outcome.result}{' ' + outcome.winner if outcome.winner else ''} ({outcome.reason})")
    return "\n".join(out) + "\n"


def _turn(game: Game, state: Any) -> int | None:
    try:
        return game.turn_number(state) if state is not None else None
    except Exception:  # noqa: BLE001 - a comment only
        return None


def _written(r: _Reader, notation: Any, number: int, ev: Event, raw: bytes, state: Any) -> list[str] | None:
    """``ev``'s line(s) in the notation, when they read back as ``raw`` exactly; else None."""
    if ev.at is not None or state is None:
        return None
    try:
        text = notation.format(bare(ev), state)
    except Exception:  # noqa: BLE001 - no words for it: the JSON line stands
        return None
    if not text or text.startswith(("{", "[", "(", "#", "%")) or _CONTROLS.search(text):
        return None
    if ev.note is not None and _CONTROLS.search(ev.note):
        return None  # (the JSON line escapes them: the text form never holds a raw control character)
    comment, variations = _split_note(ev.note) if ev.note else (None, None)
    line = f"{number}. {text}" + (f" {{{comment}}}" if comment else "")
    try:
        got = r.entry(0, line)
    except LogError:
        return None
    if len(got) != 1 or got[0][0] is None:
        return None
    back = got[0][0]
    if variations:
        back = msgspec.structs.replace(back, note=f"{back.note} {variations}" if back.note else variations)
    if "prev" in r.envelope:
        prev = r.out[-1][1] if r.pending is None else None
        back = msgspec.structs.replace(back, prev=_hash(prev) if prev is not None else None)
    if encode_line(back) != raw:
        return None
    return [line] + ([f"  {variations}"] if variations else [])
