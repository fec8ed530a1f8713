"""Recording a match at the table: the session behind ``adjudicator record`` (the Textual app in
``recorder/terminal.py``, the headless ``--script`` mode) and the browser's new-match page.

A :class:`RecordSession` keeps one log file up to date as the match is played:

- the choices are the legal events of whoever acts, numbered and grouped as ``adjudicator legal``
  groups them, in the game's notation (``game.notation.format``); random outcomes are asked for as
  they happen (only the values that can be); an entry is a number, a few words of a choice, the
  game's notation of an event (``notation.parse_entry``: one entry may be several events),
  ``undo``, or an event typed as JSON; an empty entry (Enter) is the default: the only choice
  where there is one, else the pass where passing is legal;
- the entries that end the match by a player's decision (a resignation, a concession) are listed
  apart from the choices and recorded only once confirmed (``resign``, then ``y``);
- a pass is filled in when it is the only thing the player to act may do (the seat's own, in
  seat mode): recorded with the entry before it, taken back with it;
- every accepted event is appended to the file and flushed to disk (``fsync``) before the entry
  is answered, so a crash or ``kill -9`` loses at most the entry being typed; so is a pick held
  open (one the notation ``continues`` from, or one chained by the person: ``chain``, the
  terminal's ``+``, the page's "and then…"), which the table has seen: the session keeps which
  events make one entry (for ``undo``), and a log resumed after a crash holds each held event as
  an entry of its own; ``undo`` rewrites the file atomically (a new file renamed over the old);
- ``chain`` ("and then") holds a pick open where the game's notation would not, to be recorded with
  the next pick as one entry (a Kolossus turn's activations in one or two entries): only where
  the same player acts after it; never a match-ending entry, nor in seat mode (each of a seat's
  entries carries its own commitments and openings): refused there with the reason, nothing recorded;
- derived events are the engine's (the log leaves them out, as every shipped log does);
- ``note TEXT`` writes a comment on the last event (the envelope's ``note``, shown by the viewers);
- an illegal entry is refused with the ruling; with ``judge=True`` it may then be recorded,
  flagged, with a ``JudgeRuling`` (``rule stands|taken-back [reason]``);
- the log is sealed (the hash chain, ``adjudicator seal``) when the match ends;
- with ``seat=PLAYER`` it records what that seat sees: the set-up and every event as
  ``game.redact`` shows them to the seat (the opponents' hidden cards ``"?"``), and the game's
  ``seat.py`` (if any) says which of the seat's own hidden values are recorded as commitments
  (a fresh random salt each, kept in the side file ``<log>.salts.json``) and when the rules open
  them.  Nothing in a game engine reads a random source: the salts are made here.  An opponent's
  hidden value is entered as unknown: the seat rules' ``unknowns(state, seat)`` lists those
  events (a LOGOS opponent's pick as ``commitment "?"``), and where the seat's view cannot derive
  what the table shows (an effect on cards it has not seen) the seat rules' ``stated`` lists it
  (``waiting`` says what to type where the list cannot), so one seat records a match alone;
- resuming keeps the mode: a seat's record (its side file names the seat) is resumed as that
  seat, a full record as a full record; the derived events a log states are checked against the
  engine's (LOG-2) before anything is recorded after them.
"""

from __future__ import annotations

import contextlib
import os
import secrets as _random
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.api import IllegalEvent, read_log
from adjudicator.build import Recording, setup_event
from adjudicator.core.kernel import position as positions
from adjudicator.core.kernel import registry
from adjudicator.core.kernel import sources as _sources
from adjudicator.core.kernel.errors import AdjudicatorError, LogError
from adjudicator.core.kernel.events import ENVELOPE_FIELDS, Event, JudgeRuling, bare, states
from adjudicator.core.kernel.log import seal_lines
from adjudicator.core.kernel.notation import ACTORS, NotationError, normalize
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.verify import propose

from .answers import YES, Answer, Choice
from .consequences import owed
from .corrections import Corrections
from .files import load_salts, resumed_seat, save_salts, write_atomic

#: the longest entry read (a typed event included)
MAX_ENTRY = 100_000
#: the most passes filled in after one entry (each is the only thing its player may do)
MAX_FILLED = 1_000

class RecordSession(Corrections):
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
        #: a match-ending event waiting for its confirmation (``y``)
        self.confirming: Event | None = None
        #: a judge resumed a log holding an irregularity: the events after it, and the line of the first
        self._after_ruling: tuple[list[Event], int] | None = None
        #: what that irregularity is (shown on resuming), or None
        self.irregularity: str | None = None
        #: the last entry was answered without recording anything (a note then goes nowhere)
        self._last_failed = False
        #: fill in a pass that is its player's only choice
        self.autopass = True
        #: and every other forced event (False: passes only, as the browser's page records)
        self.fills_forced = True
        #: the forced events filled in after the last entry, not yet restated: a person (or a script
        #: of the whole match) who enters the next of them again is told it is recorded already
        self._restatable: list[Event] = []
        #: (entries, view entries) -> (choices, enders): the lists of the position last shown
        self._lists: tuple[tuple[int, int], list[Choice], list[Choice]] | None = None
        #: (view state, compound choices) of the position last shown
        self._compounds: tuple[Any, list[Choice]] | None = None
        self._seat_rules = getattr(self.game, "part", lambda _n: None)("seat") if seat is not None else None
        #: an entry a pick opened and the next one completes (the game's ``notation.continues``: a
        #: Kolossus die of destiny with the player's first decision after it; or a pick chained):
        #: (lines, record entries, view entries) before it; its events are pushed and written to
        #: the file (the table saw them), not yet grouped (undo takes the whole entry back)
        self._open: tuple[int, int, int] | None = None

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
        with (_sources.using(src) if src is not None else contextlib.nullcontext()):
            setup = setup_event(game, players, pool=pool, options=options, meta=meta, **dict(fields or {}))
        if seat is not None and seat not in players:
            raise LogError(str(path), None, f"--as: {seat!r} is not a player of this match (players: {', '.join(players)})")
        full = Recording(game, setup, src, str(path))
        record = Recording(game, game.redact(setup, seat, None), src, str(path)) if seat is not None else full
        session = cls(path, record, seat=seat, judge=judge, view=record if seat is None else None)
        if seat is not None:
            session.view = Recording(game, game.redact(setup, seat, None), src, str(path))  # (nothing before the set-up)
            save_salts(path, seat, {})  # the side file names the seat (a resume keeps it)
        write_atomic(path, record.to_jsonl())
        session._restatable = session._fill(passes_only=True)  # (the first entry is the person's: Enter, where the start is forced)
        if len(session.record) > 1:
            session._groups.append((session.record.entries - 1, session.view.entries - 1))
            write_atomic(path, session.record.to_jsonl())
            if session.over:
                session.seal()
        return session

    @classmethod
    def resume(cls, path: str | Path, *, seat: str | None = None, judge: bool = False,
               pools: list[str] | None = None) -> "RecordSession":
        """Go on recording the log at ``path`` (after a crash, or another day) in the mode it was
        recorded in: a seat's record (its side file names the seat) as that seat, whether or not
        ``seat`` is given; another seat, or a seat for a full record, is refused."""
        path = Path(path)
        seat = resumed_seat(path, seat)
        match = read_log(path, pools=pools or ())
        events = [msgspec.structs.replace(e, prev=None) if e.prev is not None else e for e in match.events]
        salts = load_salts(path) if seat is not None else {}
        src = _sources.Sources(pools) if pools else None
        game = match.game
        record = Recording(game, events[0], src, str(path))
        session = cls(path, record, seat=seat, judge=judge, salts=salts)
        if seat is not None:
            session.view = Recording(game, events[0], src, str(path))
        session._replay(events[1:], 2)
        session.sealed = match._log.chain_head is not None  # type: ignore[attr-defined]
        return session

    def _replay(self, rest: list[Event], first: int) -> None:
        """Replay a resumed log's events ``rest`` (the first at line ``first``) entry by entry: a
        ruling with the event it rules on.  An illegal event no ruling follows is refused (the log
        is not resumed), but for a judge: the session stops there, that event waiting for the
        judge's ruling (:meth:`_irregular`)."""
        with self.record._using():  # (the match's pool may be a user's: --pools)
            self._replay_in(rest, first)

    def _replay_in(self, rest: list[Event], first: int) -> None:
        path, game, session, record = self.path, self.game, self, self.record
        i = 0
        derived: deque[Event] = deque()
        confirmed: list[Event] | None = []
        while i < len(rest):  # entry by entry: a ruling with the event it rules on
            ev, nxt = rest[i], rest[i + 1] if i + 1 < len(rest) else None
            if type(nxt) is JudgeRuling and nxt.event == len(record) + 1:
                session._push_ruled_pair(ev, nxt)
                derived, confirmed = deque(), []
                i += 2
                continue
            if ev.kind != "X":
                try:
                    session._replay_entry(ev)
                except IllegalEvent as exc:
                    if self._irregular(ev, rest[i + 1:], first + i, exc):
                        return
                    r = exc.ruling
                    raise LogError(str(path), first + i, f"{r.rule} [{r.code}] {r.message}: the log is not legal so far "
                                   "(verify it; it is not resumed)") from None
                derived = deque(session.record.derived)
                confirmed = []
            elif derived and states(derived[0], ev) and confirmed is not None:
                confirmed.append(derived.popleft())  # LOG-2: a derived event the log states is the engine's
            elif confirmed is None or (not derived and not session.over and game.follows_stated(session.record.state)):
                # a consequence a seat's record states (an unknown card): from here on in this entry
                # every stated event is the verifier's to judge, after the engine's own before it
                for c in confirmed or ():
                    session._replay_entry(c)
                confirmed = None
                try:
                    session._replay_entry(ev)
                except IllegalEvent as exc:
                    r = exc.ruling
                    raise LogError(str(path), first + i, f"{r.rule} [{r.code}] {r.message} (verify it; it is not resumed)") from None
            else:
                why = f"the engine derives {session.words(derived[0])}" if derived else "the engine derives nothing here"
                raise LogError(str(path), first + i, f"LOG-2 [core/derived-mismatch] the log states {session.words(ev)} "
                               f"but {why} (verify it; it is not resumed)")
            i += 1

    def _irregular(self, ev: Event, rest: list[Event], line: int, exc: IllegalEvent) -> bool:
        """A judge resumes a log that holds an irregularity (an illegal event no ruling follows, at
        ``line``): the session stops before it, the event waiting for the judge's ruling (``rule
        stands|taken-back``), the events after it (``rest``) replayed once ruled.  False for anyone else."""
        if not self.judge:
            return False
        self.refused, self._after_ruling = ev, (rest, line + 1)
        r = exc.ruling
        self.irregularity = (f"line {line}: {self.words(ev)} is refused ({r.rule} [{r.code}] {r.message}); "
                             f"{len(rest)} events after it wait for the judge's ruling: rule stands|taken-back [reason]")
        return True

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
        """The legal events of whoever acts, numbered (see the module docstring): the
        match-ending entries are apart (:meth:`enders`)."""
        return self.lists()[0]

    def enders(self) -> list[Choice]:
        """The entries that end the match by a player's decision (a resignation, a concession):
        listed apart, recorded once confirmed (number 0: never picked by number)."""
        return self.lists()[1]

    def lists(self) -> tuple[list[Choice], list[Choice]]:
        """The choices and the match-ending entries of the position (kept until it changes)."""
        cache = self._lists
        if cache is not None and cache[0][0] is self.record.state and cache[0][1] is self.view.state:
            return cache[1], cache[2]
        choices: list[Choice] = []
        enders: list[Choice] = []
        if not self.over:
            events = self.view.legal()
            if self.seat is not None:
                seen: list[Event] = []
                for e in events:
                    r = self.game.redact(e, self.seat, self.view.state)  # (what the seat knows: CL-46)
                    if r not in seen:
                        seen.append(r)
                unknown = getattr(self._seat_rules, "unknowns", None)
                with self.view._using():  # (the match's pool may be a user's: --pools)
                    unknowns = list(unknown(self.view.state, self.seat)) if unknown is not None else []
                for e in unknowns:
                    # an opponent's hidden value, entered as unknown: offered where the rules allow it
                    # (legal or undetermined: a card whose combo the counter cannot meet is not offered)
                    if e not in seen and self._allowed(e):
                        seen.append(e)
                for e in self._stated():  # what the table shows where the view cannot derive it
                    if e not in seen and self._allowed(e):
                        seen.append(e)
                events = seen
            listed = positions.grouped(self.game, events)
            ending = [self._ends(e, alone=True) for e, _n in listed]
            if ending == [True]:  # nothing else may happen (the last turn's end): the match's natural end
                ending = [False]
            for (e, n), ends in zip(listed, ending):
                if ends:
                    enders.append(Choice(0, self.label(e), e, n))
                else:
                    choices.append(Choice(len(choices) + 1, self.label(e), e, n))
        self._lists = ((self.record.state, self.view.state), choices, enders)  # type: ignore[assignment]
        return choices, enders

    def _stated(self) -> list[Event]:
        """In seat mode, where the view waits on a consequence it cannot derive (an effect on
        cards the seat has not seen, a player who may be defenseless: ``game.follows_stated``),
        the events the table may show, from the seat rules' ``stated(state, seat, game)``."""
        fn = getattr(self._seat_rules, "stated", None)
        if fn is None or self.over:
            return []
        with self.view._using():
            if not self.game.follows_stated(self.view.state):
                return []
            return list(fn(self.view.state, self.seat, self.game))

    def waiting(self) -> str | None:
        """In seat mode, where the view waits on what the table shows: how to enter it (the seat
        rules' ``stated_hint``: the notation to type where the choices do not list every set of
        cards); None where it waits on nothing."""
        fn = getattr(self._seat_rules, "stated_hint", None)
        if fn is None or self.over:
            return None
        with self.view._using():
            if not self.game.follows_stated(self.view.state):
                return None
            return fn(self.view.state, self.seat, self.game)  # type: ignore[no-any-return]

    def compounds(self) -> list[Choice]:
        """The compound entries of the position (the game's ``notation.compound_entries``: a
        Kolossus activation with the roll the match's die generator fixes and a move), each one
        pick; unnumbered (0): the terminal's keys offer them beside the choices."""
        cache = self._compounds
        if cache is not None and cache[0] is self.view.state:
            return cache[1]
        fn = getattr(self.game.notation, "compound_entries", None)
        out: list[Choice] = []
        if fn is not None and not self.over and self.seat is None:
            with self.view._using():
                for label, evs in fn(self.view.state, [c.event for c in self.choices()]):
                    out.append(Choice(0, label, evs[0], 1, tuple(evs[1:])))
        self._compounds = (self.view.state, out)
        return out

    def pick(self, choice: Choice, hold: bool = False, chain: bool = False) -> Answer:
        """Record a listed choice (a match-ending one waits for ``y``; a compound's events as one
        entry).  With ``hold`` (the terminal's keys) a pick the game's notation says an entry goes
        on from (``notation.continues``: what the table saw, waiting for what the player chooses)
        is held open: shown, recorded with the next pick or typed entry as one (:attr:`holding`).
        With ``chain`` (the person's "and then") it is held open wherever it may be (:meth:`push`)."""
        ending = any(c.event == choice.event for c in self.enders())
        if chain and ending:
            return self._unchained(f"{self.words(choice.event)} ends the match")
        if choice.then:
            return self.push(choice.events, hold=hold, chain=chain)
        if (hold or chain) and not ending:
            return self.push(choice.event, hold=hold, chain=chain)
        return self._entry([choice.event])

    def chainable(self) -> str | None:
        """Why no pick can be chained here (None: one can): seat mode, the match over, nothing to pick."""
        if self.seat is not None:
            return "a seat's record keeps each pick an entry of its own (its commitments and openings go with it)"
        if self.over:
            return "the match is over"
        if self.confirming is not None or not self.choices():
            return "nothing to chain here"
        return None

    def _unchained(self, why: str) -> Answer:
        """The refusal of a chained entry (nothing of it recorded)."""
        return Answer(False, f"not chained: {why}; nothing recorded (the chain is off: pick it again to record it as an "
                             "entry of its own)")

    @property
    def holding(self) -> list[Event]:
        """The events of the entry held open (none: no entry is open)."""
        return [] if self._open is None else self.record.events[self._open[0]:]

    def _continues(self, state: Any, events: list[Event]) -> bool:
        """Does an entry of ``events`` (forced ones filled in included), entered from ``state``, go on
        with the next pick?  The game's notation says (``continues``); never in seat mode, nor at the end."""
        if self.seat is not None or self.over or not events:
            return False
        with self.view._using():
            return bool(self.game.notation.continues(state, events, self.view.state))

    def _allowed(self, e: Event) -> bool:
        with self.view._using():
            try:
                return self.game.check(self.view.state, e).allowed
            except Exception:  # noqa: BLE001 - an engine defect is the entry's to report, not the list's
                return True

    @staticmethod
    def _bare(e: Event) -> bool:
        """An event of its player alone (no field but who acts): a pass, a resignation."""
        fields = type(e).__struct_fields__
        return e.kind != "R" and all(f in ENVELOPE_FIELDS or f in ACTORS or f == "type" for f in fields)

    def _ends(self, e: Event, alone: bool = False) -> bool:
        """Does ``e``, a player's decision of no other field, end the match (a resignation)?
        ``alone``: by itself, nothing but the end following it (the entries listed apart): a pass
        after which the rules play on to the end (a LOGOS Backup window passed, then the strike
        that ends it) is an ordinary choice."""
        if not self._bare(e):
            return False
        with self.view._using():
            ruling, derived, after = propose(self.game, self.view.state, e)
            return ruling.allowed and self.game.outcome(after) is not None and (not alone or len(derived) <= 1)

    def _is_pass(self, e: Event) -> bool:
        """A pass: an event of its player alone whose notation reads ``pass`` (``passed``)."""
        if not self._bare(e):
            return False
        action = self.words(e).partition(": ")[2] or self.words(e)
        return any(w.startswith("pass") for w in action.casefold().split())

    def default(self) -> Choice | None:
        """What Enter records: the only choice where there is one, else the one pass."""
        choices = self.choices()
        if len(choices) == 1:
            return choices[0]
        passes = [c for c in choices if self._is_pass(c.event)]
        return passes[0] if len(passes) == 1 else None

    def words(self, e: Event, state: Any = None) -> str:
        """``e`` in the game's notation, in ``state`` (default: the position now; the match's
        pool may be a user's: the names read in the record's sources)."""
        with self.view._using():
            return self.game.notation.format(e, self.view.state if state is None else state)

    def label(self, e: Event) -> str:
        hidden = getattr(self._seat_rules, "hidden_value", None)
        value = hidden(self.view.state, e) if hidden is not None and getattr(e, "player", None) == self.seat else None
        text = self.words(e)
        if value is not None and type(e).__name__ != "CardDrawn":
            name = getattr(self.game.notation, "card_name", lambda _s, c: c)(self.view.state, value)
            return f"{self.seat}: commit to {name} (a fresh salt, opened when the rules reveal it)"
        return text

    def log_words(self, last: int = 12) -> list[str]:
        """The last ``last`` events of the log, numbered, in the game's notation (each in the
        position it was recorded in)."""
        evs = self.record.events
        start = max(1, len(evs) - last)
        before: dict[int, Any] = {}
        end = len(evs)
        entries = self.record._entries
        for k in range(len(entries) - 1, 0, -1):  # the position before each entry's events
            first = end - entries[k][0]
            for j in range(first, end):
                before[j] = entries[k - 1][2]
            end = first
            if end <= start:
                break
        return [f"{i + 1}. {self.words(e, before.get(i))}" + (f"  -- {e.note}" if e.note else "")
                for i, e in enumerate(evs[start:], start=start)]

    # -- entries ------------------------------------------------------------------------------------------
    def enter(self, text: str, chain: bool = False) -> Answer:
        """One entry as typed (see the module docstring); ``chain``: held open, "and then" (:meth:`push`)."""
        note = text.strip().lower().startswith("note")
        answer = self._enter(text, chain)
        if not note:
            self._last_failed = not answer.ok and not answer.confirm
        return answer

    def _enter(self, text: str, chain: bool = False) -> Answer:
        text = text.strip()
        if len(text) > MAX_ENTRY:
            self.confirming = None
            return Answer(False, f"an entry is at most {MAX_ENTRY} characters")
        low = text.lower()
        if self.confirming is not None:
            ev, self.confirming = self.confirming, None
            if low in YES:
                return self.push(ev)
            return Answer(False, f"not recorded: {self.words(ev)} (only y confirms it)")
        if not text:
            d = self.default()
            if d is None:
                return Answer(False, "Enter records the default (the only choice, or the pass): there is none here; "
                                     "type a number, a few words, the notation, undo, or an event as JSON")
            return self.pick(d, chain=chain) if chain else self.push(d.event)
        if low in ("undo", "u"):
            return self.undo()
        if low.split(" ", 1)[0] in ("undo", "u") and low.split(" ", 1)[1].strip().isdigit():
            return self.undo_named(int(low.split(" ", 1)[1]))
        if low.startswith("rule "):
            return self.rule(text[5:])
        if low.startswith("note ") or low == "note":
            return self.note(text[5:])
        if text.startswith("{"):
            return self._entry([text], chain)
        choices, enders = self.lists()
        if text.isdigit():
            n = int(text)
            if not 1 <= n <= len(choices):
                return Answer(False, f"no choice {n} (1 to {len(choices)})" if choices else "nothing to choose")
            return self.pick(choices[n - 1], chain=chain)
        exact = [c for c in choices + enders if normalize(c.label) == normalize(text)]
        if len(exact) == 1:
            return self._entry([exact[0].event], chain)
        try:  # the game's notation: a short form, or one entry of several events
            with self.view._using():
                events = self.game.notation.parse_entry(text, self.view.state)
        except NotationError as exc:  # else a few words of the choices
            found, ending = match_words(text, choices), match_words(text, enders)
            if len(found) == 1 and not ending:
                return self._entry([found[0].event], chain)
            if found or ending:
                both = found + ending
                return Answer(False, f"{len(both)} choices match {text!r}: type more, or the number", candidates=both)
            more = f" (could be: {'; '.join(exc.candidates[:8])})" if exc.candidates else ""
            return Answer(False, f"no choice matches {text!r}: {exc.reason}{more}")
        return self._entry(events, chain)

    def _entry(self, events: list[Any], chain: bool = False) -> Answer:
        """Record the events of one entry; a lone match-ending one (typed as JSON too) waits for ``y``
        (never chained)."""
        if len(events) == 1 and not self.over:
            try:
                first = events[0] if isinstance(events[0], Event) else self.record._decode(events[0])
            except LogError as exc:
                return Answer(False, exc.render().removeprefix("<event>: "))
            ev = first if self.seat is None else self.game.redact(first, self.seat, self.view.state)
            if any(c.event == ev for c in self.enders()):
                if chain:
                    return self._unchained(f"{self.words(ev)} ends the match")
                self.confirming = first
                return Answer(False, f"{self.words(ev)}: this ends the match and seals the log. Type y to confirm "
                                     "(anything else: nothing is recorded)", confirm=True)
        return self.push(events[0] if len(events) == 1 else events, chain=chain)

    def push(self, entry: Event | str | dict[str, Any] | list[Any], hold: bool = False,
             chain: bool = False) -> Answer:
        """Record one entry (an event, a choice's, typed, or a list: the events of one entry):
        refused with the ruling when illegal, and nothing of it recorded.  An entry held open
        (:meth:`pick`) is completed by it: both recorded as one entry; a refused completion
        leaves the held part open (it showed the table what it showed).  With ``hold`` the entry
        is held open itself where the game's notation says it goes on; with ``chain`` (the
        person's "and then") wherever the same player acts after it (:meth:`chainable`; an entry
        that ends the match or hands the turn on is refused whole).  Every event is written to
        the file as it is pushed, held or not."""
        if self.over:
            return Answer(False, "the match is over (undo takes back the last entry)")
        why = self.chainable() if chain else None
        if why is not None:
            return self._unchained(why)
        if self._after_ruling is not None:
            return Answer(False, f"first the judge's ruling: {self.irregularity}")
        items = entry if isinstance(entry, list) else [entry]
        if not items:
            return Answer(False, "an entry of no event")
        restated = self._restated(items)
        if restated is not None:
            return Answer(True, f"recorded already (no other choice): {self.words(restated)}")
        lines = len(self.record)
        before_r, before_v = self.record.entries, self.view.entries
        state = self.view.state
        added = self._push_items(items, before_r, before_v)
        if isinstance(added, Answer):
            return added
        ruling = self.record.last_ruling
        derived = self.record.derived
        filled = self._restatable = self._fill()
        if chain:
            why = self._chain_ends(state, added + filled)
            if why is not None:
                self._rollback(before_r, before_v)
                self._restatable = []
                return self._unchained(why)
        self.refused = None
        self._write_new(lines)  # (held or not: what the table saw is on disk before the answer)
        verdict = "" if ruling.legal else f" ({ruling.verdict}: legal if {ruling.condition})"
        then = f"; then (no other choice): {'; '.join(self.words(e) for e in filled)}" if filled else ""
        said = "; ".join(self.words(e, state) for e in added)  # (in the position they were entered in)
        if ruling.legal and (chain or hold and self._continues(state, added + filled)):
            if self._open is None:
                self._open = (lines, before_r, before_v)
            how = "and then (chained" if chain else "goes on (recorded"
            return Answer(True, f"{how} with the next pick): {said}{then}", added + filled, derived,
                          ruling=ruling, filled=filled, held=True)
        start = state if self._open is None else self.view._entries[self._open[2] - 1][2]
        lines = self._commit(lines, before_r, before_v)
        held = self.record.events[lines:len(self.record) - len(added) - len(filled)]
        return Answer(True, f"recorded {len(self.record) - len(filled)}: " + "; ".join([self.words(e, start) for e in held] + [said])
                      + verdict + then, added + filled, derived, ruling=ruling, filled=filled)

    def _push_items(self, items: list[Any], before_r: int, before_v: int) -> list[Event] | Answer:
        """The events of one entry pushed in turn (with what the engine fills in after each);
        the first that cannot be read or is refused rolls the whole entry back: its answer."""
        added: list[Event] = []
        for item in items:
            try:
                ev = item if isinstance(item, Event) else self.record._decode(item)
            except LogError as exc:
                self._rollback(before_r, before_v)
                return Answer(False, exc.render().removeprefix("<event>: "))
            if type(ev) is JudgeRuling and not self.judge:
                self._rollback(before_r, before_v)
                return Answer(False, "only a judge records a ruling (record --judge)")
            try:
                added += self._push_entry(ev)
            except IllegalEvent as exc:
                self._rollback(before_r, before_v)
                self.refused = ev
                hint = " (a judge may record it: rule stands|taken-back [reason])" if self.judge else ""
                r = exc.ruling
                return Answer(False, f"refused: {r.rule} [{r.code}] {r.message}{hint}", ruling=r)
            except LogError as exc:
                self._rollback(before_r, before_v)
                return Answer(False, exc.render().removeprefix("<event>: "))
        return added

    def _commit(self, lines: int, before_r: int, before_v: int) -> int:
        """The entry from ``lines`` (the entry held open, from its start; its events are written
        already) grouped as one entry for undo; its first line."""
        if self._open is not None:
            (lines, before_r, before_v), self._open = self._open, None
        self._groups.append((self.record.entries - before_r, self.view.entries - before_v))
        return lines

    def _chain_ends(self, state: Any, events: list[Event]) -> str | None:
        """Why the part ``events`` just pushed (from ``state``) cannot be chained (None: it can):
        it ends the match, or another player acts after it (an entry is one player's)."""
        if self.over:
            return f"{'; '.join(self.words(e, state) for e in events[:1])} ends the match"
        with self.view._using():
            before = self.game.to_act(state)
        after = self.to_act()
        if not after or (before and sorted(after) != sorted(before)):
            said = "; ".join(self.words(e, state) for e in events if e.kind != "X")
            return f"after {said}, {', '.join(after) or 'nobody'} acts (an entry is one player's)"
        return None

    def close(self) -> None:
        """The recorder closes: an entry held open is recorded as it is (what it showed the table stands)."""
        if self._open is not None:
            self._commit(*self._open)

    def _restated(self, items: list[Any]) -> Event | None:
        """The forced event filled in since the last entry that a one-event entry restates (it and
        those before it taken off the list), or None: then nothing filled in is restatable any more
        (the entry moves the match on)."""
        waiting, self._restatable = self._restatable, []
        if len(items) != 1 or not waiting:
            return None
        try:
            ev = items[0] if isinstance(items[0], Event) else self.record._decode(items[0])
        except LogError:
            return None
        seen = bare(ev) if self.seat is None else self.game.redact(bare(ev), self.seat, self.view.state)
        for k, filled in enumerate(waiting):  # (a script may leave out the passes before it)
            if bare(filled) == bare(ev) or bare(filled) == seen:
                self._restatable = waiting[k + 1:]
                return filled
        return None

    def _fill(self, passes_only: bool = False) -> list[Event]:
        """The forced events, pushed: a random outcome that can come out one way only (a die the
        match's generator fixes, the last card of a deck), and a player's only choice (a
        resignation aside) unless it ends the match (the last turn's end is Enter: the log is
        then sealed); in seat mode only the seat's own passes (its view may not see a
        consequence the table still shows before the next event), and only passes before the
        first entry (the start of a match is shown as it is, Enter records its only choice)."""
        out: list[Event] = []
        while self.autopass and not self.over and len(out) < MAX_FILLED:
            choices = self.choices()
            with self.view._using():
                waits = self.game.follows_stated(self.view.state)
            if len(choices) != 1 or waits:  # (waiting on what the table shows)
                break
            ev = choices[0].event
            if self.seat is not None or passes_only or not self.fills_forced:  # a seat's view may not see a consequence still to come
                if not self._is_pass(ev) or self.seat not in (None, getattr(ev, "player", getattr(ev, "warband", None))):
                    break
            elif ev.kind != "R" and self._ends(ev):
                break
            try:
                out += self._push_entry(ev)
            except (IllegalEvent, LogError):  # (listed as legal: never expected)
                break
        return out

    def _push_entry(self, ev: Event) -> list[Event]:
        """Push ``ev`` (with the seat's commitments and openings) to the record and the view."""
        start = len(self.record)
        seat_rules = self._seat_rules
        recorded, shown = ev, ev
        if ev.kind == "X" and self.seat is not None:  # what the table showed, as the seat saw it (not redacted):
            for rec in (self.record, self.view) if self.view is not self.record else (self.record,):
                for d in owed(self.game, rec):  # after the engine's consequences before it (LOG-2)
                    rec.push(d)
            self.record.push(ev)
            if self.view is not self.record:
                self.view.push(ev)
            return self.record.events[start:]
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
            recorded = shown = self.game.redact(ev, self.seat, self.view.state)
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


__all__ = ["RecordSession", "match_words", "completions", "AdjudicatorError"]
