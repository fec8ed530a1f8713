"""What one player sees of a Colossus Order match: the one place its hiding is written.

:func:`observe` masks a position, :func:`redact` an event; the judge (``player=None``) is never
passed here.  ``view``, ``scene``, the text render and the viewers' event lists all go through
these two (via :class:`~adjudicator.core.kit.KitGame`), so what a seat cannot see is decided once:

- nobody sees the unknown part of a deck (it keeps its size); the cards a player returned to the
  bottom in the opening exchange stay known to that player only; the cards known on top of a deck
  (revealed and left there) and those put on its bottom by an effect are known to both (CO-36);
- the opponent's hand, and the opponent's Locus cards that are face down and not known (a failed
  Complete Declaration makes them known);
- the opponent's deck list (the Colossus is public);
- and, in events, the opponent's draws, returned cards, Locus cards set or replaced face down
  (a commitment held there instead of the card is public: it stays, CO-40).
"""

from __future__ import annotations

from msgspec.structs import replace

from adjudicator.core.commitments import looks_like
from adjudicator.core.events import HIDDEN, Event, hidden, masked
from adjudicator.core.kit import seated

from . import events as E
from .state import LocusSlot, Player, State


def observe(s: State, player: str) -> State:
    """The position as ``player`` sees it: hidden cards are :data:`HIDDEN`, sizes kept."""
    return seated(s, player, _seat, setup=redact(s.setup, player))


def _seat(p: Player, mine: bool) -> Player:
    if mine:
        return replace(p, deck_top=hidden(p.deck_top))
    return replace(p, deck_top=hidden(p.deck_top), deck_bottom=hidden(p.deck_bottom), hand=hidden(p.hand),
                   locus=tuple(_slot(sl) for sl in p.locus))


def _slot(sl: LocusSlot) -> LocusSlot:
    return sl if sl.face_up or sl.known or sl.card is None else replace(sl, card=HIDDEN)


def redact(event: Event, player: str) -> Event:
    """``event`` as ``player`` saw it at the table."""
    t = type(event)
    if t is E.MatchStarted:
        decks = {p: (d if p == player else E.DeckList(colossus=d.colossus, cards={})) for p, d in event.decks.items()}
        return replace(event, decks=decks)
    if getattr(event, "player", player) == player:
        return event
    if t is E.CardDrawn or t is E.LocusReplaced or (t is E.CardSet and event.zone == "locus"):
        return event if looks_like(event.card) else masked(event, "card")  # a commitment is public (CO-40)
    if t is E.CardsReturned:
        return replace(event, cards=[c if looks_like(c) else HIDDEN for c in event.cards])
    return event
