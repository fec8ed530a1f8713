"""The recorder's corrections: a judge's ruling on a refused entry, a note on the last event, undo
of the last entry (never a re-roll: what showed the table something new stands until a judge
rules) and ``undo N`` of an earlier one.  A mixin of :class:`adjudicator.recorder.session.RecordSession`,
whose state (the record, the seat's view, the entries' groups, the entry held open) it reads."""

from __future__ import annotations

from typing import Any

import msgspec

from adjudicator.api import IllegalEvent
from adjudicator.build import Recording
from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.events import Event, JudgeRuling

from .answers import Answer
from .files import write_atomic


class Corrections:
    """Rulings, notes and take-backs of a recording session (see the module docstring)."""

    record: Any
    view: Any
    game: Any
    seat: str | None
    judge: bool
    path: Any

    def rule(self, text: str) -> Answer:
        """``stands|taken-back [reason]``: record the last refused entry with a judge's ruling."""
        if not self.judge:
            return Answer(False, "only a judge records a refused event with a ruling (record --judge)")
        if self._open is not None:
            return self._not_open()
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
                self.view.push_ruled(ev if self.seat is None else self.game.redact(ev, self.seat, self.view.state), decision,
                                     reason=reason or None)
        except (IllegalEvent, LogError) as exc:
            self._rollback(before_r, before_v)
            return Answer(False, f"the ruling cannot be followed: {exc}")
        self.refused = None
        self._groups.append((self.record.entries - before_r, self.view.entries - before_v))
        if self._after_ruling is None:
            self._write_new(lines)
        else:
            failed = self._ruled_on_resumed(ev, before_r, before_v)
            if failed is not None:
                return failed
        return Answer(True, f"recorded {lines + 1}: {self.words(ev)}, flagged; the judge's "
                            f"ruling: {decision}" + (f"; then {self.irregularity}" if self.irregularity else ""),
                      [ev, ruling])

    def _ruled_on_resumed(self, ev: Event, before_r: int, before_v: int) -> Answer | None:
        """The judge ruled on the irregularity of a resumed log: the events after it replayed (up
        to the next irregularity, which then waits in its turn) and the file written whole (the
        ruling goes in the middle); None, or the refusal when the events after it cannot follow
        the ruling (nothing changed)."""
        pending, self._after_ruling, self.irregularity = self._after_ruling, None, None
        groups = len(self._groups) - 1  # (the ruled pair's entry is the last)
        try:
            self._replay(*pending)  # type: ignore[misc]
        except LogError as exc:
            self._rollback(before_r, before_v)
            del self._groups[groups:]
            self.refused, self._after_ruling = ev, pending
            return Answer(False, f"the events after it cannot follow that ruling: {exc.render()}")
        write_atomic(self.path, self._with_waiting())
        if self.over and self._after_ruling is None:
            self.seal()
        return None

    def _with_waiting(self) -> bytes:
        """The record's lines, then (a resumed log's irregularity still waiting for its ruling) the
        irregular event and the events after it, as the file held them."""
        out = self.record.to_jsonl()
        if self._after_ruling is not None and self.refused is not None:
            out += b"".join(msgspec.json.encode(e) + b"\n" for e in [self.refused, *self._after_ruling[0]])
        return out

    def _push_ruled_pair(self, ev: Event, ruling: JudgeRuling) -> None:
        self.record.push_ruled(ev, ruling.decision, judge=ruling.judge, reason=ruling.reason)
        if self.view is not self.record:
            self.view.push_ruled(ev, ruling.decision, judge=ruling.judge, reason=ruling.reason)
        self._groups.append((1, 1 if self.view is not self.record else 0))

    def note(self, text: str) -> Answer:
        """Write ``text`` as the note (a comment) on the last event; ``note`` alone removes it."""
        if self._open is not None:
            return self._not_open()
        if len(self.record) == 1 and not text.strip():
            return Answer(False, "no event to annotate")
        if self._after_ruling is not None:
            return Answer(False, f"first the judge's ruling: {self.irregularity}")
        if self._last_failed:  # the entry before was not recorded: the note is not for the last event
            self._last_failed = False
            last = self.record.events[-1]
            return Answer(False, f"note not written: the entry before it was not recorded, so it would go on event "
                                 f"{len(self.record)} ({self.words(last)}); type it again to put it there")
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
        self.confirming = None
        if self._after_ruling is not None:
            return Answer(False, f"first the judge's ruling: {self.irregularity}")
        if self._open is not None:
            return self._drop_open()
        if not self._groups:
            return Answer(False, "nothing to take back")
        n_record, n_view = self._groups[-1]
        shown = [e for e in self.record.events[len(self.record) - n_record:] if e.kind == "R" or self._opening(e)]
        if shown and not self.judge:  # undo never re-rolls: what the table saw stands until a judge rules
            return Answer(False, f"not taken back: {self.words(shown[0])} showed the table something new (a roll, a "
                                 "draw, a reveal, an exploration, an opening); taking it back is a judge's ruling "
                                 "(record --judge)")
        self._groups.pop()
        self._restatable = []
        before = self.record.events
        for _ in range(n_record):
            self.record.pop()
        taken = before[len(self.record):]
        if self.view is not self.record:
            for _ in range(n_view):
                self.view.pop()
        write_atomic(self.path, self.record.to_jsonl())
        self.sealed = False
        return Answer(True, "taken back: " + "; ".join(self.words(e) for e in taken), taken)

    def _drop_open(self) -> Answer:
        """``undo`` of the entry held open (a chained one included): dropped whole, but not a roll it
        showed the table (a judge's ruling)."""
        assert self._open is not None
        held = self.holding
        shown = [e for e in held if e.kind == "R"]
        if shown and not self.judge:
            return Answer(False, f"not taken back: {self.words(shown[0])} showed the table a roll; the entry goes on "
                                 "with the next pick (taking it back is a judge's ruling: record --judge)")
        (_lines, before_r, before_v), self._open, self._restatable = self._open, None, []
        self._rollback(before_r, before_v)
        write_atomic(self.path, self.record.to_jsonl())  # (a held entry is on disk as it is picked)
        return Answer(True, "taken back: " + "; ".join(self.words(e) for e in held), held)

    def _not_open(self) -> Answer:
        """The refusal of a note, a ruling or ``undo N`` while an entry is held open."""
        return Answer(False, f"an entry is held open ({'; '.join(map(self.words, self.holding))}): complete it first")

    def undo_named(self, number: int) -> Answer:
        """``undo N``: take back event N, an earlier entry of a full record, where nothing after it
        depends on it (the events after it replay as they are without it: the file is written
        whole).  Refused for an entry that showed the table something new (a random outcome: a
        roll, a draw, a reveal, an exploration; an opening; a ruling): taking that back is a
        re-roll, for a judge's ruling; and for a derived event (take back its cause)."""
        self.confirming = None
        if self._open is not None:
            return self._not_open()
        if self._after_ruling is not None:
            return Answer(False, f"first the judge's ruling: {self.irregularity}")
        if self.seat is not None:
            return Answer(False, "undo N takes back an earlier entry of a full record (a seat's record: undo, the last)")
        events = self.record.events
        if not 2 <= number <= len(events):
            return Answer(False, f"no event {number} to take back (2 to {len(events)})")
        ev = events[number - 1]
        if ev.kind == "X":
            return Answer(False, f"event {number} ({self.words(ev)}) follows from the entry before it: take that back")
        if ev.kind == "R" or self._opening(ev) or type(ev) is JudgeRuling or \
                (number < len(events) and type(events[number]) is JudgeRuling):
            return Answer(False, f"event {number} ({self.words(ev)}) showed the table something new (or a judge ruled on "
                                 "it): taking it back needs a judge's ruling (record --judge: the judge records it)")
        end = number
        while end < len(events) and events[end].kind == "X":
            end += 1
        trial = type(self)(self.path, Recording(self.game, events[0], self.record._sources, str(self.path)))
        try:
            trial._replay(events[1:number - 1] + events[end:], 2)
        except LogError as exc:
            return Answer(False, f"event {number} ({self.words(ev)}) is not taken back: what follows depends on it "
                                 f"({exc.reason})")
        self.record, self.view, self._groups = trial.record, trial.record, trial._groups
        write_atomic(self.path, self.record.to_jsonl())
        self.sealed = False
        if self.over:
            self.seal()
        return Answer(True, f"taken back: event {number} ({self.words(ev)}); the {len(events) - end} events after it "
                            "stand", events[number - 1:end])
