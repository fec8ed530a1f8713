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
    """The position as ``player`` sees it: hidden cards are :data:`HIDDEN`, sizes kept; the cards
    a player looked at on top of a deck (CO-42) are shown to that player alone."""
    return seated(s, player, lambda p, mine: _seat(p, mine, player), setup=redact(s.setup, player))


def _seat(p: Player, mine: bool, viewer: str | None = None) -> Player:
    peek = p.deck_peek if p.peek_by == viewer else hidden(p.deck_peek)  # CO-42: the looker's alone
    if mine:
        return replace(p, deck_top=hidden(p.deck_top), deck_peek=peek)
    return replace(p, deck_top=hidden(p.deck_top), deck_bottom=hidden(p.deck_bottom), hand=hidden(p.hand),
                   locus=tuple(_slot(sl) for sl in p.locus), deck_peek=peek)


def _slot(sl: LocusSlot) -> LocusSlot:
    return sl if sl.face_up or sl.known or sl.card is None else replace(sl, card=HIDDEN)


def redact(event: Event, player: str, state: State | None = None) -> Event:
    """``event`` as ``player`` saw it at the table; ``state``, the full position before it, says
    what the seat knew then: a card drawn from the top of a deck where both players know it
    (revealed and left there, put there or under it by an effect, CO-36) stays named."""
    t = type(event)
    if t is E.MatchStarted:
        return replace(event, decks={p: (d if p == player else _unknown_list(d, event)) for p, d in event.decks.items()})
    if getattr(event, "player", player) == player:
        return event
    if t is E.CardDrawn:
        if looks_like(event.card) or (state is not None and _public_top(state, event.player, player)):
            return event  # a commitment is public (CO-40); so is a card both players know is on top
        return masked(event, "card")
    if t is E.LocusReplaced or (t is E.CardSet and event.zone == "locus"):
        return event if looks_like(event.card) else masked(event, "card")  # a commitment is public (CO-40)
    if t is E.CardsReturned:
        return replace(event, cards=[c if looks_like(c) else HIDDEN for c in event.cards])
    return event


def _unknown_list(d: E.DeckList, setup: E.MatchStarted) -> E.DeckList:
    """The opponent's deck list as a seat sees it (CO-39.1): the Colossus, and the deck's size
    where the construction rules do not fix it (``deck_validation = "off"``)."""
    off = setup.options.get("deck_validation") == "off"
    return E.DeckList(colossus=d.colossus, cards={}, size=sum(d.cards.values()) if off else None)


def _public_top(s: State, owner: str, player: str) -> bool:
    """``player`` knows the top card of ``owner``'s deck: known to both (CO-36), or looked at by
    ``player`` (CO-42)."""
    p = s.player(owner)
    if p.deck_known:
        return True
    if p.deck_peek:
        return p.peek_by == player
    return not p.deck_top and not p.deck_bottom and bool(p.deck_under)


def shows_seat(event: Event, player: str, state: State | None) -> bool:
    """A derived event a log leaves out that shows ``player`` an opponent's Locus card its record
    leaves unknown (face down, not known to it): the attack that hits it (CO-39.5), the Complete
    Declaration that reveals it (CO-39.4).  The seat's record states it (``redact``)."""
    t = type(event)
    if t is E.BattleResolved:
        if event.result != "locus-hit" or event.player != player or state is None:
            return False
        owner = state.opponent(player)
        return any(sl.id == event.slot and not (sl.face_up or sl.known) for sl in owner.locus)
    if t is E.LocusRevealed or t is E.LocusFlipped:
        if event.player == player or state is None:
            return False
        owner = state.player(event.player)
        slots = event.slots if t is E.LocusRevealed else [event.slot]
        return any(sl.id in slots and not sl.known for sl in owner.locus)
    return False
