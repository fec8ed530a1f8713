"""What one player sees of a LOGOS match: the one place its hiding is written.

:func:`observe` masks a position, :func:`redact` an event; the judge (``player=None``) is never
passed here.  ``view``, ``scene``, the text render and the viewers' event lists all go through
these two (via :class:`~adjudicator.core.kit.KitGame`):

- nobody sees a deck (its order is unknown to everybody; the deck keeps its size);
- the opponent's card slots, Backup card and committed battle card until it is revealed;
- the opponent's deck list;
- and, in events, the opponent's draws and Backup card (a hidden pick is a commitment; an open
  pick, option ``picks = "open"``, is public at once: LG-6).

A hidden pick's commitment (a hash) is public; the card behind it is unknown even to the judge
until ``PickRevealed`` opens it, so the judge's position holds no identity for it to mask.
"""

from __future__ import annotations

from msgspec.structs import replace

from adjudicator.core.events import HIDDEN, Event, hidden, masked
from adjudicator.core.kit import seated

from . import events as E
from .state import Player, State


def observe(s: State, player: str) -> State:
    """The position as ``player`` sees it: hidden cards are :data:`HIDDEN`, sizes kept."""
    return seated(s, player, _seat, setup=redact(s.setup, player))


def _seat(p: Player, mine: bool) -> Player:
    if mine:
        return replace(p, deck=hidden(p.deck))
    return replace(p, deck=hidden(p.deck), slots=tuple(None if c is None else HIDDEN for c in p.slots),
                   backup=None if p.backup is None else HIDDEN,
                   battle=p.battle if p.battle is None or p.public else HIDDEN)


def redact(event: Event, player: str, state: State | None = None) -> Event:
    """``event`` as ``player`` saw it at the table; ``state``, the full position before it, names
    what the seat saw though the event does not: a called Backup card is turned face up for both
    players (LG-39)."""
    t = type(event)
    if t is E.BackupCalled:
        if state is not None and event.card is None and len(state.players) == 2:
            shown = state.player(event.player).backup  # type: ignore[attr-defined]
            if shown is not None and shown != HIDDEN:
                return replace(event, card=shown)
        return event
    if t is E.MatchStarted:
        return replace(event, decks={p: (d if p == player else {}) for p, d in event.decks.items()})
    if getattr(event, "player", player) == player:
        return event
    if t is E.CardDrawn or t is E.BackupAssigned:  # an open pick is public (LG-6)
        return masked(event, "card")
    return event
