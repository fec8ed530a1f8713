"""What one player sees of a Colossi match: the one place its hiding is written.

:func:`observe` masks a position, :func:`redact` an event; the judge (``player=None``) is never
passed here.  ``view``, ``scene``, the text render and the viewers' event lists all go through
these two (via :class:`~adjudicator.core.kit.KitGame`):

- other players' hands (their sizes stay public);
- the order and contents of every face-down pile: the tile deck and the tiles on top of it, the
  tiles out of the game, the Colossus deck and the cards on top of it, the Trait deck;
- and, in events, other players' draws and dealt cards, cards contributed to a combat, a card
  given (hidden from everyone but its giver and taker), the tiles set aside (hidden from all),
  and a top item revealed to one player only.
"""

from __future__ import annotations

from msgspec.structs import replace

from adjudicator.core.events import HIDDEN, Event, hidden, masked
from adjudicator.core.kit import seated

from . import events as E
from .state import State


def observe(s: State, player: str) -> State:
    """The position as ``player`` sees it: hidden items are ``HIDDEN``, sizes kept; the items on
    top of a deck that ``player`` looked at stay named (Soothsayer, CL-41)."""
    return seated(
        s, player, lambda p, mine: p if mine else replace(p, hand=hidden(p.hand)),
        tile_top=_seen_top(s.tile_top, s.tile_seen, player), tile_deck=hidden(s.tile_deck), tile_box=hidden(s.tile_box),
        card_top=_seen_top(s.card_top, s.card_seen, player), card_deck=hidden(s.card_deck),
        trait_deck=hidden(s.trait_deck))


def _seen_top(top: tuple[str, ...], seen: tuple[tuple[str, ...], ...], player: str) -> tuple[str, ...]:
    return tuple(x if i < len(seen) and player in seen[i] else HIDDEN for i, x in enumerate(top))


def redact(event: Event, player: str, state: State | None = None) -> Event:
    """``event`` as ``player`` saw it at the table; ``state`` (the full position before it, when
    known) names what the seat already knew: a card it saw on top of the Colossus deck stays named
    when another player draws it (CL-41)."""
    t = type(event)
    if t is E.TileSetAside:
        return masked(event, "tile")
    if t is E.CardGiven:
        return event if player in (event.player, event.to) else masked(event, "card")
    if getattr(event, "player", player) == player:
        return event
    if t is E.CardDrawn:
        if state is not None and state.card_top and player in state.card_seen[0]:
            return event
        return masked(event, "card")
    if t is E.CardDealt:
        return masked(event, "card")
    if t is E.CardsContributed:
        return masked(event, "cards")
    if t is E.TopRevealed:
        return masked(event, "item")
    return event
