"""Building a log as a match is played: :class:`Recording` (``adjudicator.Match.new``).

As python-chess builds a game (``board.push(move)``, ``str(game)``), a recording starts from a
set-up, lists what is legal for whoever acts, takes one event at a time (refusing an illegal one
with :class:`~adjudicator.api.IllegalEvent`, which carries the ruling), fills in what the rules
derive, takes back the last entry, and writes the log::

    >>> import adjudicator
    >>> m = adjudicator.Match.new("colossi", ["ann", "bob"], meta={"round": "3"})
    >>> m.to_act
    []
    >>> first = m.legal()[0]
    >>> type(first).__name__, first.kind
    ('FirstPlayerDetermined', 'R')

The recording is a :class:`~adjudicator.api.Match`: ``verify()``, ``position(at=...)`` and
``events`` work on what has been recorded so far.  Nothing here reads a clock or a random source;
the log holds the decisions and random outcomes pushed (the derived events are the engine's, and
``to_jsonl(derived=True)`` writes them too, for a reader who wants them spelled out).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from .api import IllegalEvent, Match, Position, event as decode
from .core.kernel import sources as _sources
from .core.kernel.errors import LogError
from .core.kernel.events import Event, JudgeRuling, encode_line
from .core.kernel.limits import MAX_EVENTS
from .core.kernel.log import MatchLog, check_setup_size
from .core.kernel.protocol import Game, RefError
from .core.kernel.rulings import Ruling
from .core.kernel.verify import position_at, propose, start

__all__ = ["Recording", "setup_event", "MAX_NOTE"]

#: the longest annotation (``note``) :meth:`Recording.annotate` writes
MAX_NOTE = 2000


def setup_event(game: Game, players: list[str], *, pool: str | None = None,
                options: Mapping[str, Any] | None = None, meta: Mapping[str, str] | None = None,
                **fields: Any) -> Event:
    """A ``MatchStarted`` of ``game``: ``pool`` is the card pool (Colossus Order, LOGOS) or the
    board or island (``options.board``: Kolossus, Colossi); ``fields`` are the game's own set-up
    fields (``decks``, ``seats``, ``ruleset``...).  Raises :class:`LogError` naming the field."""
    doc: dict[str, Any] = {"type": "MatchStarted", "game": game.id, "players": list(players), **fields}
    opts = dict(options or {})
    if pool is not None:
        has_pool = "pool" in game.event_class("MatchStarted").__struct_fields__  # type: ignore[union-attr]
        if has_pool:
            doc["pool"] = pool
        else:
            opts["board"] = pool
    if opts:
        doc["options"] = opts
    if meta:
        doc["meta"] = dict(meta)
    setup = decode(game, doc)
    check_setup_size(setup, "<setup>", None)  # the bounds of a log's first line: players, header
    try:
        game.validate_refs(setup, setup)
    except RefError as exc:
        raise LogError("<setup>", None, exc.message, exc.field) from None
    return setup


class Recording(Match, recording=True):
    """A match being recorded, one entry at a time (see the module docstring).

    An *entry* is what one :meth:`push` added: one event, or an illegal event with the judge's
    ruling on it (:meth:`push_ruled`).  :meth:`pop` takes back the last entry.
    """

    def __init__(self, game: Game, setup: Event, sources: _sources.Sources | None = None,
                 path: str = "<recording>") -> None:
        self._game, self._path = game, path
        self._sources = sources
        with self._using():
            state, ruling, derived = start(game, setup)
        if not ruling.allowed:
            raise IllegalEvent(setup, ruling)
        self._events: list[Event] = [setup]
        #: per entry: how many log lines it added, the derived events and the position after it
        self._entries: list[tuple[int, list[Event], Any]] = [(1, derived, state)]
        #: the ruling on the last event pushed (legal, or undetermined with its condition)
        self.last_ruling: Ruling = ruling

    # -- starting --------------------------------------------------------------------------------
    @classmethod
    def new(cls, game: str | Game, players: list[str], *, pool: str | None = None,
            options: Mapping[str, Any] | None = None, meta: Mapping[str, str] | None = None,
            pools: Iterable[str | Path] = (), **fields: Any) -> "Recording":
        """Start a match: ``MatchStarted`` from these values (see :func:`setup_event`); ``pools``:
        directories holding your own card pools, boards and islands (as ``--pools``)."""
        from .api import game as find_game

        g = find_game(game) if isinstance(game, str) else game
        src = _sources.Sources(list(pools)) if pools else None
        with (_sources.using(src) if src is not None else _nullcontext()):
            setup = setup_event(g, players, pool=pool, options=options, meta=meta, **fields)
        return cls(g, setup, src)

    @classmethod
    def resume(cls, match: Match) -> "Recording":
        """Go on recording a log read with :func:`adjudicator.read_log` (each entry pushed again:
        the log must be legal so far; a judge's ruling is taken with the event it rules on)."""
        rec = cls(match.game, match.setup, getattr(match, "_sources", None), match.path)
        evs = match.events[1:]
        i = 0
        while i < len(evs):
            ev = evs[i]
            nxt = evs[i + 1] if i + 1 < len(evs) else None
            if type(nxt) is JudgeRuling and nxt.event == len(rec._events) + 1:
                rec._append_ruled(ev, nxt)
                i += 2
                continue
            if type(ev) is JudgeRuling:
                rec._append_ruled(None, ev)
            elif ev.kind == "X":
                pass  # derived: the engine derives it again
            else:
                rec.push(ev)
            i += 1
        return rec

    # -- the Match interface -----------------------------------------------------------------------
    @property
    def _log(self) -> MatchLog:  # type: ignore[override]
        return MatchLog(self._path, self._game, list(enumerate(self._events, start=1)))

    @property
    def game(self) -> Game:
        return self._game

    @property
    def path(self) -> str:
        return self._path

    # -- where the match stands -----------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._entries[-1][2]

    @property
    def before(self) -> Any:
        """The position before the last entry (None before the first event): what a seat knew when
        the table saw it, which a game's ``redact`` may need (a hand-limit discard face down)."""
        return self._entries[-2][2] if len(self._entries) > 1 else None

    def positions_before(self, start: int = 0) -> list[Any]:
        """The position before each event from index ``start`` (0: MatchStarted, None before it)
        on: the position after the entry before the event's entry (an entry's events, such as an
        event and the judge's ruling on it, share it).  Walks back from the last entry only as far
        as ``start``: a live page asks for the few events just recorded."""
        out: list[Any] = []
        end, k = len(self._events), len(self._entries) - 1
        while k >= 1 and end > start:
            first = end - self._entries[k][0]
            out.extend([self._entries[k - 1][2]] * (end - max(first, start)))
            end, k = first, k - 1
        out.extend([None] * max(0, end - start))
        out.reverse()
        return out

    @property
    def board(self) -> Position:
        """The settled position after the last entry (python-chess's ``board``)."""
        return Position(self._game, self.state, len(self._events), self._sources)

    @property
    def to_act(self) -> list[str]:
        with self._using():
            return self._game.to_act(self.state)

    @property
    def outcome(self) -> Any:
        with self._using():
            return self._game.outcome(self.state)

    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def entries(self) -> int:
        """How many entries are recorded (MatchStarted is the first; :meth:`pop` takes one back)."""
        return len(self._entries)

    @property
    def derived(self) -> list[Event]:
        """What the rules derived after the last entry (filled in by the engine)."""
        return list(self._entries[-1][1])

    def legal(self) -> list[Event]:
        """Every legal event for whoever acts; random outcomes as every one that can happen."""
        with self._using():
            return self._game.legal_events(self.state)

    def check(self, ev: Event | str | dict[str, Any]) -> Ruling:
        """The ruling on ``ev`` after the last entry (nothing is recorded)."""
        e = self._decode(ev)
        with self._using():
            return propose(self._game, self.state, e)[0]

    # -- recording -------------------------------------------------------------------------------
    def push(self, ev: Event | str | dict[str, Any]) -> list[Event]:
        """Record ``ev`` (an event, a JSON line or a dict) and return what the rules derived from
        it.  An illegal event raises :class:`IllegalEvent` (its ``ruling`` says why) and records
        nothing; an unreadable one raises :class:`LogError`.  An event legal only under a
        condition on unknown cards (a seat's record) is recorded; ``last_ruling`` holds it."""
        e = self._decode(ev)
        self._room(1)
        if type(e) is JudgeRuling:
            self._append_ruled(None, e)
            return self.derived
        if e.kind == "X":  # a derived event stated: the engine's confirmed, or one it cannot derive
            self._append_stated(e)  # (an unknown card in a seat's record); the verifier judges it
            return []
        with self._using():
            ruling, derived, new = propose(self._game, self.state, e)
        if not ruling.allowed:
            raise IllegalEvent(e, ruling)
        self._events.append(e)
        self._entries.append((1, derived, new))
        self.last_ruling = ruling
        return list(derived)

    def push_ruled(self, ev: Event | str | dict[str, Any], decision: str = "stands", *,
                   judge: str | None = None, reason: str | None = None) -> JudgeRuling:
        """Record an event the rules refuse, flagged, with a judge's ruling on it right after
        (``stands`` or ``taken-back``; docs/log-format.md, "Judges' rulings").  One entry."""
        e = self._decode(ev)
        self._room(2)
        n = len(self._events) + 1
        ruling = JudgeRuling(event=n, line=n, decision=decision, judge=judge, reason=reason)  # type: ignore[arg-type]
        self._append_ruled(e, ruling)
        return ruling

    def annotate(self, note: str | None) -> Event:
        """Write ``note`` (the envelope's free text: a comment, shown by the viewers) on the last
        event, or remove it (None); the rules never read it.  Returns the annotated event."""
        if note is not None and len(note) > MAX_NOTE:
            raise LogError(self._path, None, f"a note is at most {MAX_NOTE} characters", "note")
        ev = msgspec.structs.replace(self._events[-1], note=note or None)
        self._events[-1] = ev
        return ev

    def pop(self) -> Event:
        """Take back the last entry (never MatchStarted); returns its (first) event."""
        if len(self._entries) == 1:
            raise IndexError("nothing to take back: only MatchStarted is recorded")
        lines, _derived, _state = self._entries.pop()
        first = self._events[-lines]
        del self._events[-lines:]
        return first

    # -- writing ---------------------------------------------------------------------------------
    def to_jsonl(self, *, derived: bool = False) -> bytes:
        """The log as JSON Lines (``derived=True``: with the engine's derived events after the
        event they follow from)."""
        if not derived:
            return b"".join(encode_line(e) + b"\n" for e in self._events)
        out = []
        i = 0
        for lines, der, _state in self._entries:
            for e in self._events[i:i + lines]:
                out.append(encode_line(e) + b"\n")
            i += lines
            out.extend(encode_line(d) + b"\n" for d in der)
        return b"".join(out)

    def save(self, path: str | Path, *, derived: bool = False) -> None:
        """Write the log to ``path`` (whole, then flushed to disk)."""
        data = self.to_jsonl(derived=derived)
        with open(path, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    # -- inside --------------------------------------------------------------------------------
    def _decode(self, ev: Event | str | dict[str, Any]) -> Event:
        e = ev if isinstance(ev, Event) else decode(self._game, ev, self.state)  # (a text in the notation: read here)
        if type(e).__name__ == "MatchStarted":
            raise LogError("<event>", None, "a log holds one match: MatchStarted is only the first event", "type")
        try:
            with self._using():
                self._game.validate_refs(self._events[0], e)
        except RefError as exc:
            raise LogError("<event>", None, exc.message, exc.field) from None
        return e

    def _room(self, lines: int) -> None:
        if len(self._events) + lines > MAX_EVENTS:
            raise LogError(self._path, None, f"more than {MAX_EVENTS} events in one log")

    def _append_ruled(self, ev: Event | None, ruling: JudgeRuling) -> None:
        """Append ``ev`` (None: the ruling alone) and ``ruling``; the position after them is the
        verifier's, which follows the ruling."""
        added = [ruling] if ev is None else [ev, ruling]
        self._events.extend(added)
        with self._using():
            res = position_at(self._log, None)
        if res.violations:
            v = res.violations[0]
            del self._events[-len(added):]
            raise IllegalEvent(ruling, Ruling("illegal", v.rule, v.code, v.message))
        self._entries.append((len(added), [], res.state))
        self.last_ruling = Ruling("legal", "LOG-5", "core/ruling", "recorded with the judge's ruling")

    def _append_stated(self, ev: Event) -> None:
        """Append a derived event the log states (confirming the engine's derivation, or where the
        position waits on an unknown identity in a seat's record): the position after it is the
        verifier's, which checks it (LOG-2) as it checks a log that states it."""
        self._events.append(ev)
        with self._using():
            res = position_at(self._log, None)
        if res.violations:
            v = res.violations[0]
            del self._events[-1]
            raise IllegalEvent(ev, Ruling("illegal", v.rule, v.code, v.message))
        self._entries.append((1, [], res.state))
        self.last_ruling = Ruling("legal", "LOG-2", "core/derived", "a derived event stated, checked as verify checks it")

    def _using(self) -> Any:
        return _sources.using(self._sources) if self._sources is not None else _nullcontext()


class _nullcontext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None
