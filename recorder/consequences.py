"""What a seat's record owes before a consequence it states (the recorder's ``record --as``).

Where a seat's view cannot derive what the table shows (an effect on cards the seat has not
seen: ``game.follows_stated``), the seat's record states it; the verifier then asks that the
engine's own consequences before it are stated first (LOG-2, as ``redact --as`` writes them),
so the recorder writes those (:func:`owed`) before the one the seat enters."""

from __future__ import annotations

from typing import Any

from adjudicator.build import Recording
from adjudicator.core.kernel.events import Event, states
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.fold import settle

__all__ = ["owed"]


def owed(game: Game, rec: Recording) -> list[Event]:
    """The engine's consequences the log ``rec`` writes does not state yet after its last event
    (what a stated consequence must follow, LOG-2): the last entry's derived events, or, after a
    consequence the log states, those the engine derived after it (applied and settled as the
    verifier does) less those stated since."""
    entries, events = rec._entries, rec.events
    k, first = len(entries) - 1, len(events) - entries[-1][0]  # the last entry, its first event
    chain: list[Event] = []
    while k > 0 and entries[k][0] == 1 and not entries[k][1] and events[first].kind == "X":
        chain.append(events[first])
        k -= 1
        first -= entries[k][0]
    left = list(entries[k][1])
    for i, ev in enumerate(reversed(chain)):  # each stated one: the next owed, or a new consequence
        if left and states(left[0], ev):
            left.pop(0)
            continue
        with rec._using():
            try:
                left = _derived_after(game, entries[k + i][2], ev)
            except Exception:  # noqa: BLE001 - a statement the engine cannot follow: nothing owed
                left = []
    return left


def _derived_after(game: Game, state: Any, ev: Event) -> list[Event]:
    """What the engine derives after ``ev`` in ``state`` (applied and settled as the verifier does)."""
    return settle(game, game.apply(state, ev))[1]
