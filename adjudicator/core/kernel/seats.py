"""What each seat saw: a whole log as one seat recorded it (docs/log-format.md, "Unknown
identities", "Private information").

A seat's record of an event can depend on what the seat learnt before it (a card it saw turned
face up, looked at, or known on top of a deck stays named in its record wherever it goes), so a
log is redacted in order, each event with the full-information position before it
(:meth:`~adjudicator.core.kernel.protocol.Game.redact`'s ``state``).

A derived event the log leaves out is written into a seat's record when it shows that seat a card
its own record leaves unknown (:meth:`~adjudicator.core.kernel.protocol.Game.shows_seat`: an attack that
turns a face-down card face up, a declaration that reveals it): the seat saw it, and its engine
cannot derive what it does not know.  It comes where the log would have stated it, with the
derived events before it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from .events import Event, JudgeRuling
from .log import MatchLog
from .verify import Step, run


def _fold(log: MatchLog) -> tuple[list[Any], dict[int, list[Event]], set[int]]:
    """The full-information position before each event of ``log`` (index 0: before
    MatchStarted, None), as the verifier reached it (judges' rulings followed, illegal events
    left unapplied; an event the verifier did not reach gets the last position reached; the
    events a judge's ruling took back are redacted in the position they were played in (what the
    seats saw at the table), the events after the ruling in the position it returned to); the
    events derived after each applied event (by event number); the numbers of the derived events
    the log states in the engine's place (confirming its own, or stating them wrongly: a seat's
    record writes them as the table stated them, never the engine's version beside them)."""
    after: dict[int, Any] = {}
    derived: dict[int, list[Event]] = {}
    confirmed: set[int] = set()

    def keep(step: Step) -> None:
        if step.table is not None:  # an event taken back: what the table saw after it
            after[step.seq] = step.table
        elif step.state is not None:
            after[step.seq] = step.state
        if step.derived:
            derived[step.seq] = list(step.derived)
        if step.event.kind == "X" and not step.applied:  # stated, right or wrong: the table stated it
            confirmed.add(step.seq)

    run(log, keep_going=True, on_step=keep)
    out: list[Any] = []
    last: Any = None
    for number in range(1, len(log.events) + 1):
        out.append(last)
        last = after.get(number, last)
    return out, derived, confirmed


def positions_before(log: MatchLog) -> list[Any]:
    """The full-information position before each event of ``log`` (see :func:`_fold`)."""
    return _fold(log)[0]


def redact_log(log: MatchLog, player: str) -> Iterator[Event]:
    """Every event of ``log`` as ``player``'s seat recorded it (``prev`` dropped: a seat's record
    is sealed anew, if at all), with the derived events the log leaves out that show the seat a
    card (:meth:`~adjudicator.core.kernel.protocol.Game.shows_seat`)."""
    game = log.game
    before, derived, confirmed = _fold(log)
    events = log.events
    insert: dict[int, list[Event]] = {}  # after event number n: the derived events the seat states
    moved: dict[int, int] = {}  # an event's number (and line) in the log -> in the record
    written = 0
    lines = {line: number for number, (line, _e) in enumerate(events, start=1)}
    for number, ((_line, event), pos) in enumerate(zip(events, before), start=1):
        shown = game.redact(event, player, pos)
        written += 1
        moved[number] = written
        if type(shown) is JudgeRuling and written != number:  # events stated before it: renumbered
            shown = _renumbered(shown, moved, lines)
        yield shown if shown.prev is None else _unsealed(shown)
        for d in insert.pop(number, ()):
            written += 1
            yield d
        extra = derived.get(number)
        if not extra:
            continue
        stated = 0  # the log states a prefix of them right after the event (as stated, even wrongly)
        while stated < len(extra) and number + stated + 1 in confirmed:
            stated += 1
        left = extra[stated:]
        last = max((i for i, d in enumerate(left) if game.shows_seat(d, player, pos)), default=-1)
        if last < 0:
            continue
        # each as the seat saw it: the derived events before the one it must state may show
        # another seat's cards (an effect shuffling a hand into a deck)
        seen = [game.redact(d, player, pos) for d in left[: last + 1]]
        if stated:
            insert[number + stated] = seen
        else:
            written += last + 1
            yield from seen


def _renumbered(r: JudgeRuling, moved: dict[int, int], lines: dict[int, int]) -> JudgeRuling:
    """A judge's ruling with the event (and line) it names as numbered in the seat's record, which
    states derived events the log leaves out (one event a line)."""
    line = r.line
    if line is not None and line in lines and lines[line] in moved:
        line = moved[lines[line]]
    return msgspec.structs.replace(r, event=moved.get(r.event, r.event), line=line)


def _unsealed(event: Event) -> Event:
    return msgspec.structs.replace(event, prev=None)
