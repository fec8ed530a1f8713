"""What each seat saw: a whole log as one seat recorded it (docs/log-format.md, "Unknown
identities", "Private information").

A seat's record of an event can depend on what the seat learnt before it (a card it saw turned
face up, looked at, or known on top of a deck stays named in its record wherever it goes), so a
log is redacted in order, each event with the full-information position before it
(:meth:`~adjudicator.core.protocol.Game.redact`'s ``state``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from .events import Event
from .log import MatchLog
from .verify import Step, run


def positions_before(log: MatchLog) -> list[Any]:
    """The full-information position before each event of ``log`` (index 0: before
    MatchStarted, None), as the verifier reached it (judges' rulings followed, illegal events
    left unapplied; an event the verifier did not reach gets the last position reached)."""
    after: dict[int, Any] = {}

    def keep(step: Step) -> None:
        if step.state is not None:
            after[step.seq] = step.state

    run(log, keep_going=True, on_step=keep)
    out: list[Any] = []
    last: Any = None
    for number in range(1, len(log.events) + 1):
        out.append(last)
        last = after.get(number, last)
    return out


def redact_log(log: MatchLog, player: str) -> Iterator[Event]:
    """Every event of ``log`` as ``player``'s seat recorded it (``prev`` dropped: a seat's record
    is sealed anew, if at all)."""
    game = log.game
    for (_line, event), before in zip(log.events, positions_before(log)):
        shown = game.redact(event, player, before)
        yield shown if shown.prev is None else _unsealed(shown)


def _unsealed(event: Event) -> Event:
    return msgspec.structs.replace(event, prev=None)
