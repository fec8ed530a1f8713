"""Recording a match at the table: the session behind ``adjudicator record`` (the Textual app in
``replays/record_tui.py``, the headless ``--script`` mode) and the browser's new-match page.

A :class:`RecordSession` keeps one log file up to date as the match is played:

- the choices are the legal events of whoever acts, numbered and grouped as ``adjudicator legal``
  groups them, in words (:mod:`replays.words`); random outcomes are asked for as they happen
  (only the values that can be); an entry is a number, a few words of a choice, ``undo``, or an
  event typed as JSON;
- every accepted event is appended to the file and flushed to disk (``fsync``) before the entry
  is answered, so a crash or ``kill -9`` loses at most the entry being typed; ``undo`` rewrites
  the file atomically (a new file renamed over the old);
- derived events are the engine's (the log leaves them out, as every shipped log does);
- ``note TEXT`` writes a comment on the last event (the envelope's ``note``, shown by the viewers);
- an illegal entry is refused with the ruling; with ``judge=True`` it may then be recorded,
  flagged, with a ``JudgeRuling`` (``rule stands|taken-back [reason]``);
- the log is sealed (the hash chain, ``adjudicator seal``) when the match ends;
- with ``seat=PLAYER`` it records what that seat sees: the set-up and every event as
  ``game.redact`` shows them to the seat (the opponents' hidden cards ``"?"``), and the game's
  ``seat.py`` (if any) says which of the seat's own hidden values are recorded as commitments
  (a fresh random salt each, kept in the side file ``<log>.salts.json``) and when the rules open
  them.  Nothing in a game engine reads a random source: the salts are made here.
"""

from __future__ import annotations

import json
import os
import secrets as _random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.api import IllegalEvent, read_log
from adjudicator.build import Recording, setup_event
from adjudicator.core import position as positions
from adjudicator.core import registry
from adjudicator.core import sources as _sources
from adjudicator.core.errors import AdjudicatorError, LogError
from adjudicator.core.events import Event, JudgeRuling
from adjudicator.core.log import seal_lines
from adjudicator.core.protocol import Game
from adjudicator.core.rulings import Ruling

from .words import event_words

#: the side file of a seat's salts, beside the log
SALTS_SUFFIX = ".salts.json"
#: the longest entry read (a typed event included)
MAX_ENTRY = 100_000


@dataclass(frozen=True)
class Choice:
    """One numbered choice: what is listed, and the event recorded when it is picked."""

    number: int
    label: str
    event: Event
    #: how many legal events it stands for (moves of one piece to one square by several paths)
    alternatives: int = 1

    @property
    def random(self) -> bool:
        return self.event.kind == "R"


@dataclass
class Answer:
    """What an entry led to."""

    ok: bool
    message: str
    #: the events appended to the log by this entry, and what the rules derived after them
    added: list[Event] = field(default_factory=list)
    derived: list[Event] = field(default_factory=list)
    #: the choices a few typed words matched (more than one: type more)
    candidates: list[Choice] = field(default_factory=list)
    ruling: Ruling | None = None


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent or Path("."), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """``data`` as the whole of ``path``: written beside it, flushed, renamed over it."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path)


class RecordSession:
    """One match being recorded into one log file (see the module docstring)."""

    def __init__(self, path: str | Path, record: Recording, *, seat: str | None = None,
                 judge: bool = False, view: Recording | None = None,
                 salts: dict[str, tuple[str, str]] | None = None) -> None:
        self.path = Path(path)
        self.record = record
        self.game: Game = record.game
        self.seat = seat
        self.judge = judge
        #: the seat's own view (its own hidden values named): what the choices are listed from
        self.view = view if view is not None else record
        #: commitment -> (value, salt): the seat's secrets (kept in the side file)
        self.salts: dict[str, tuple[str, str]] = dict(salts or {})
        #: per entry: how many entries it pushed to the record and to the view
        self._groups: list[tuple[int, int]] = []
        #: the last entry refused by the rules (a judge may record it with a ruling)
        self.refused: Event | None = None
        self.sealed = False
        #: openings read back on resume, waiting for the entry they belong to
        self._pending = (0, 0)
        self._seat_rules = getattr(self.game, "part", lambda _n: None)("seat") if seat is not None else None

    # -- starting and resuming -----------------------------------------------------------------------
    @classmethod
    def start(cls, path: str | Path, game_id: str, players: list[str], *, pool: str | None = None,
              options: Mapping[str, Any] | None = None, meta: Mapping[str, str] | None = None,
              fields: Mapping[str, Any] | None = None, seat: str | None = None, judge: bool = False,
              pools: list[str] | None = None) -> "RecordSession":
        """A new match: the set-up checked, then written as the file's first line."""
        path = Path(path)
        game = registry.get(game_id)
        src = _sources.Sources(pools) if pools else None
        with (_sources.using(src) if src is not None else _null()):
            setup = setup_event(game, players, pool=pool, options=options, meta=meta, **dict(fields or {}))
        if seat is not None and seat not in players:
            raise LogError(str(path), None, f"--as: {seat!r} is not a player of this match (players: {', '.join(players)})")
        full = Recording(game, setup, src, str(path))
        record = Recording(game, game.redact(setup, seat), src, str(path)) if seat is not None else full
        session = cls(path, record, seat=seat, judge=judge, view=record if seat is None else None)
        if seat is not None:
            session.view = Recording(game, game.redact(setup, seat), src, str(path))
        write_atomic(path, record.to_jsonl())
        return session

    @classmethod
    def resume(cls, path: str | Path, *, seat: str | None = None, judge: bool = False,
               pools: list[str] | None = None) -> "RecordSession":
        """Go on recording the log at ``path`` (after a crash, or another day)."""
        path = Path(path)
        match = read_log(path, pools=pools or ())
        events = [msgspec.structs.replace(e, prev=None) if e.prev is not None else e for e in match.events]
        salts = load_salts(path) if seat is not None else {}
        src = _sources.Sources(pools) if pools else None
        game = match.game
        record = Recording(game, events[0], src, str(path))
        session = cls(path, record, seat=seat, judge=judge, salts=salts)
        if seat is not None:
            session.view = Recording(game, events[0], src, str(path))
        rest = events[1:]
        i = 0
        while i < len(rest):  # entry by entry: a ruling with the event it rules on
            ev, nxt = rest[i], rest[i + 1] if i + 1 < len(rest) else None
            if type(nxt) is JudgeRuling and nxt.event == len(record) + 1:
                session._push_ruled_pair(ev, nxt)
                i += 2
                continue
            if ev.kind != "X":
                session._replay_entry(ev)
            i += 1
        session.sealed = match._log.chain_head is not None  # type: ignore[attr-defined]
        return session

    def _replay_entry(self, ev: Event) -> None:
        """One event of a resumed log: into the record, and as the seat saw it into its view (an
        opening of a commitment belongs to the entry after it)."""
        self.record.push(ev)
        n_view = 0
        if self.view is not self.record:
            shown = self._shown(ev)
            if shown is not None:
                self.view.push(shown)
                n_view = 1
        if self._opening(ev):
            self._pending = (self._pending[0] + 1, self._pending[1] + n_view)
            return
        r, v = self._pending
        self._pending = (0, 0)
        self._groups.append((1 + r, n_view + v))

    def _opening(self, ev: Event) -> bool:
        fn = getattr(self._seat_rules, "is_opening", None)
        return bool(fn and fn(ev))

    def _shown(self, ev: Event) -> Event | None:
        fn = getattr(self._seat_rules, "shown", None)
        return ev if fn is None else fn(ev, self.salts)

    # -- where the match stands ------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.record.is_over()

    def to_act(self) -> list[str]:
        return self.view.to_act

    def position_text(self) -> str:
        """The position as the recorder shows it (the seat's view in seat mode)."""
        return self.game.describe(self.view.state, self.seat)

    def scene(self) -> Any:
        return self.game.scene(self.view.state, self.seat)

    def choices(self) -> list[Choice]:
        """The legal events of whoever acts, numbered (see the module docstring)."""
        if self.over:
            return []
        events = self.view.legal()
        if self.seat is not None:
            seen: list[Event] = []
            for e in events:
                r = self.game.redact(e, self.seat)
                if r not in seen:
                    seen.append(r)
            events = seen
        out = []
        for i, (e, n) in enumerate(positions.grouped(self.game, events), start=1):
            out.append(Choice(i, self.label(e), e, n))
        return out

    def label(self, e: Event) -> str:
        hidden = getattr(self._seat_rules, "hidden_value", None)
        value = hidden(self.view.state, e) if hidden is not None and getattr(e, "player", None) == self.seat else None
        text = event_words(self.game, e, self.view.state)
        if value is not None and type(e).__name__ != "CardDrawn":
            return f"{self.seat}: commit to {value} (a fresh salt, opened when the rules reveal it)"
        return text

    def log_words(self, last: int = 12) -> list[str]:
        """The last ``last`` events of the log, numbered, in words."""
        evs = self.record.events
        start = max(1, len(evs) - last)
        return [f"{i + 1}. {event_words(self.game, e)}" + (f"  -- {e.note}" if e.note else "")
                for i, e in enumerate(evs[start:], start=start)]

    # -- entries ------------------------------------------------------------------------------------------
    def enter(self, text: str) -> Answer:
        """One entry as typed (see the module docstring)."""
        text = text.strip()
        if len(text) > MAX_ENTRY:
            return Answer(False, f"an entry is at most {MAX_ENTRY} characters")
        if not text:
            return Answer(False, "type a number, a few words of a choice, undo, or an event as JSON")
        low = text.lower()
        if low in ("undo", "u"):
            return self.undo()
        if low.startswith("rule "):
            return self.rule(text[5:])
        if low.startswith("note ") or low == "note":
            return self.note(text[5:])
        if text.startswith("{"):
            return self.push(text)
        choices = self.choices()
        if text.isdigit():
            n = int(text)
            if not 1 <= n <= len(choices):
                return Answer(False, f"no choice {n} (1 to {len(choices)})" if choices else "nothing to choose")
            return self.push(choices[n - 1].event)
        found = match_words(text, choices)
        if len(found) == 1:
            return self.push(found[0].event)
        if not found:
            return Answer(False, f"no choice matches {text!r}")
        return Answer(False, f"{len(found)} choices match {text!r}: type more, or the number", candidates=found)

    def push(self, entry: Event | str | dict[str, Any]) -> Answer:
        """Record one event (a choice's, or typed): refused with the ruling when illegal."""
        if self.over:
            return Answer(False, "the match is over (undo takes back the last entry)")
        try:
            ev = entry if isinstance(entry, Event) else self.record._decode(entry)
        except LogError as exc:
            return Answer(False, exc.render().removeprefix("<event>: "))
        if type(ev) is JudgeRuling and not self.judge:
            return Answer(False, "only a judge records a ruling (record --judge)")
        lines = len(self.record)
        before_r, before_v = self.record.entries, self.view.entries
        try:
            added = self._push_entry(ev)
        except IllegalEvent as exc:
            self._rollback(before_r, before_v)
            self.refused = ev
            hint = " (a judge may record it: rule stands|taken-back [reason])" if self.judge else ""
            r = exc.ruling
            return Answer(False, f"refused: {r.rule} [{r.code}] {r.message}{hint}", ruling=r)
        except LogError as exc:
            self._rollback(before_r, before_v)
            return Answer(False, exc.render().removeprefix("<event>: "))
        self.refused = None
        self._groups.append((self.record.entries - before_r, self.view.entries - before_v))
        self._write_new(lines)
        derived = self.record.derived
        ruling = self.record.last_ruling
        verdict = "" if ruling.legal else f" ({ruling.verdict}: legal if {ruling.condition})"
        return Answer(True, f"recorded {len(self.record)}: " + "; ".join(event_words(self.game, e) for e in added) + verdict,
                      added, derived, ruling=ruling)

    def _push_entry(self, ev: Event) -> list[Event]:
        """Push ``ev`` (with the seat's commitments and openings) to the record and the view."""
        start = len(self.record)
        seat_rules = self._seat_rules
        recorded, shown = ev, ev
        if seat_rules is not None and getattr(ev, "player", None) == self.seat:
            salt = _random.token_hex(16)  # a fresh secret salt for each commitment
            made = seat_rules.commit(self.view.state, ev, salt)
            if made is not None:
                recorded, shown, commitment, value = made
                self.salts[commitment] = (value, salt)
                save_salts(self.path, self.seat, self.salts)  # before the log holds the commitment
            for opening in seat_rules.before(self.record.state, recorded, self.salts):
                self.record.push(opening)
        elif self.seat is not None:
            recorded = shown = self.game.redact(ev, self.seat)
        self.record.push(recorded)
        if self.view is not self.record:
            self.view.push(shown)
        if seat_rules is not None:  # what the rules ask of the seat now (a reveal of its pick)
            for _ in range(8):
                due = seat_rules.due(self.view.state, self.seat, self.salts)
                if not due:
                    break
                for d in due:
                    self.record.push(d)
                    self.view.push(d)
        return self.record.events[start:]

    def _rollback(self, n_record: int, n_view: int) -> None:
        """Back to ``n_record`` and ``n_view`` entries."""
        while self.record.entries > n_record:
            self.record.pop()
        while self.view is not self.record and self.view.entries > n_view:
            self.view.pop()

    def rule(self, text: str) -> Answer:
        """``stands|taken-back [reason]``: record the last refused entry with a judge's ruling."""
        if not self.judge:
            return Answer(False, "only a judge records a refused event with a ruling (record --judge)")
        if self.refused is None:
            return Answer(False, "no refused entry to rule on")
        decision, _, reason = text.strip().partition(" ")
        if decision not in ("stands", "taken-back"):
            return Answer(False, "rule stands [reason] or rule taken-back [reason]")
        ev = self.refused
        lines = len(self.record)
        before_r, before_v = self.record.entries, self.view.entries
        try:
            ruling = self.record.push_ruled(ev, decision, reason=reason or None)
            if self.view is not self.record:
                self.view.push_ruled(ev if self.seat is None else self.game.redact(ev, self.seat), decision,
                                     reason=reason or None)
        except (IllegalEvent, LogError) as exc:
            self._rollback(before_r, before_v)
            return Answer(False, f"the ruling cannot be followed: {exc}")
        self.refused = None
        self._groups.append((self.record.entries - before_r, self.view.entries - before_v))
        self._write_new(lines)
        return Answer(True, f"recorded {len(self.record)}: {event_words(self.game, ev)}, flagged; the judge's "
                            f"ruling: {decision}", [ev, ruling])

    def _push_ruled_pair(self, ev: Event, ruling: JudgeRuling) -> None:
        self.record.push_ruled(ev, ruling.decision, judge=ruling.judge, reason=ruling.reason)
        if self.view is not self.record:
            self.view.push_ruled(ev, ruling.decision, judge=ruling.judge, reason=ruling.reason)
        self._groups.append((1, 1 if self.view is not self.record else 0))

    def note(self, text: str) -> Answer:
        """Write ``text`` as the note (a comment) on the last event; ``note`` alone removes it."""
        if len(self.record) == 1 and not text.strip():
            return Answer(False, "no event to annotate")
        try:
            ev = self.record.annotate(text.strip() or None)
        except LogError as exc:
            return Answer(False, exc.render())
        write_atomic(self.path, self.record.to_jsonl())
        if self.sealed:
            self.seal()
        return Answer(True, f"note on event {len(self.record)}: {ev.note}" if ev.note else
                      f"note removed from event {len(self.record)}")

    def undo(self) -> Answer:
        """Take back the last entry (the file is rewritten atomically)."""
        if not self._groups:
            return Answer(False, "nothing to take back")
        n_record, n_view = self._groups.pop()
        before = self.record.events
        for _ in range(n_record):
            self.record.pop()
        taken = before[len(self.record):]
        if self.view is not self.record:
            for _ in range(n_view):
                self.view.pop()
        write_atomic(self.path, self.record.to_jsonl())
        self.sealed = False
        return Answer(True, "taken back: " + "; ".join(event_words(self.game, e) for e in taken), taken)

    # -- the file ------------------------------------------------------------------------------------------
    def _write_new(self, start: int) -> None:
        """Append the record's events from ``start`` on, flushed to disk; seal at the end."""
        if self.sealed:  # an entry after the end was taken back: the file is written whole again
            write_atomic(self.path, self.record.to_jsonl())
            self.sealed = False
        else:
            data = b"".join(msgspec.json.encode(e) + b"\n" for e in self.record.events[start:])
            with open(self.path, "ab") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        if self.over:
            self.seal()

    def seal(self) -> None:
        """The hash chain on every line (``adjudicator seal``), written atomically."""
        lines = self.record.to_jsonl().splitlines()
        write_atomic(self.path, b"".join(line + b"\n" for line in seal_lines(lines)))
        self.sealed = True


def load_salts(path: Path) -> dict[str, tuple[str, str]]:
    """The seat's salts kept beside the log (empty when there is no side file)."""
    side = Path(str(path) + SALTS_SUFFIX)
    if not side.exists():
        return {}
    try:
        doc = json.loads(side.read_text())
        return {c: (v["value"], v["salt"]) for c, v in doc["commitments"].items()}
    except (ValueError, KeyError, TypeError) as exc:
        raise LogError(str(side), None, f"not a salts file ({exc})") from None


def save_salts(path: Path, seat: str | None, salts: Mapping[str, tuple[str, str]]) -> None:
    doc = {"player": seat, "log": path.name,
           "commitments": {c: {"value": v, "salt": s} for c, (v, s) in salts.items()}}
    write_atomic(Path(str(path) + SALTS_SUFFIX), json.dumps(doc, indent=1, sort_keys=True).encode())


def match_words(text: str, choices: list[Choice]) -> list[Choice]:
    """The choices whose words hold every typed word (as the start of one of its words, or
    anywhere when the typed word has a digit or an arrow)."""
    typed = text.lower().split()
    out = []
    for c in choices:
        label = c.label.lower()
        words = label.replace(":", " ").split()
        if all(any(w.startswith(t) for w in words) or t in label for t in typed):
            out.append(c)
    return out


def completions(choices: list[Choice]) -> list[str]:
    """The choices' labels, for the input's completion."""
    return [c.label for c in choices]


class _null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


__all__ = ["RecordSession", "Choice", "Answer", "SALTS_SUFFIX", "load_salts", "match_words", "completions",
           "AdjudicatorError"]
