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

from typing import Any

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


# == what a taking back keeps (CL-44) ================================================================

def keep_seen(s: State, annulled: State) -> State:
    """``s`` (the position a judge's taking back returns to) with what the seats learnt in the
    events taken back, as ``annulled`` (the position those events left at the table) shows it: the
    Colossus cards drawn go back on top of the deck, each known to the seat that drew it (to every
    seat when it left the hand face up since), the items looked at on top stay known, and the tiles
    turned up from the tile deck go back on top of it, known to every seat (CL-44).  A deck the
    events taken back added to (the discard pile shuffled in) is reinstated with nothing kept."""
    everyone = tuple(p.id for p in s.players)
    drawn = _gains(s, annulled)
    top, deck, seen, pool = _kept_deck(s.card_top, s.card_deck, s.card_seen, annulled.card_top, annulled.card_seen,
                                       annulled.card_deck, drawn, everyone, s.unseen.cards if s.unseen else None)
    island: dict[str, int] = {}  # the tiles turned up since: seen by every seat
    for a, b in zip(s.spaces, annulled.spaces):
        if a.tile is None and b.tile is not None:
            island[b.tile] = island.get(b.tile, 0) + 1
    tiles = {t: [everyone] * n for t, n in island.items()}
    ttop, tdeck, tseen, tpool = _kept_deck(s.tile_top, s.tile_deck, s.tile_seen, annulled.tile_top, annulled.tile_seen,
                                           annulled.tile_deck, tiles, everyone, s.unseen.tiles if s.unseen else None)
    if (top, seen, ttop, tseen) == (s.card_top, s.card_seen, s.tile_top, s.tile_seen):
        return s
    unseen = s.unseen
    if unseen is not None:
        unseen = replace(unseen, cards=pool, tiles=tpool)
    return replace(s, card_top=top, card_deck=deck, card_seen=seen, tile_top=ttop, tile_deck=tdeck, tile_seen=tseen,
                   unseen=unseen)


def _gains(s: State, annulled: State) -> dict[str, list[tuple[str, ...]]]:
    """Each card that came into a hand in the events taken back -> who saw it, one entry a copy
    (``"?"``: a card the record does not name, seen by its holder only)."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for a, b in zip(s.players, annulled.players):
        left = list(a.hand)
        for c in b.hand:
            if c in left:
                left.remove(c)
            else:
                out.setdefault(c, []).append((b.id,))
    return out


def _kept_deck(top: tuple[str, ...], deck: tuple[str, ...], seen: tuple[tuple[str, ...], ...],
               a_top: tuple[str, ...], a_seen: tuple[tuple[str, ...], ...], a_deck: tuple[str, ...],
               gained: dict[str, list[tuple[str, ...]]], everyone: tuple[str, ...],
               pool: tuple[str, ...] | None) -> tuple[Any, Any, Any, Any]:
    """One deck after a taking back (see :func:`keep_seen`): the items that left it go back on
    top, those that were on top first in their order, then the others in name order; the items
    still on top keep what the seats saw of them in ``a_seen``.  Returns the top, the rest, who
    saw each item on top, and what a record's unknown items can still be (``pool``: an item the
    record named in the events taken back is no longer unknown)."""
    before = list(top) + list(deck)
    rest = list(before)
    left = list(pool) if pool is not None else None
    for x in list(a_top) + list(a_deck):
        if x in rest:
            rest.remove(x)
        elif HIDDEN in rest and left is not None and x in left:  # a placeholder the record named since
            rest.remove(HIDDEN)
            left.remove(x)
        else:
            return top, deck, seen, pool  # the deck grew (a reshuffle): reinstated as it was
    n = min(len(rest), len(top))  # a draw takes the top first: what was known on top left first
    from_top = list(top[:n])
    off = list(rest)
    for x in from_top:
        if x not in off:  # (taken from under the known top, a judge let stand: the order is not known)
            from_top, off = [], list(rest)
            break
        off.remove(x)
    order = from_top + sorted(off, key=lambda x: (x == HIDDEN, x))
    names: list[str] = []
    who: list[tuple[str, ...]] = []
    for i, x in enumerate(order):
        name = x
        if x == HIDDEN:  # unknown in the deck: named if a hand got a card the deck did not name
            named = next((c for c in gained if c != HIDDEN and c not in before and gained[c]), None)
            if named is not None and left is not None and named in left:
                left.remove(named)
                name = named
        by = gained.get(name)
        saw = by.pop(0) if by else (() if name == HIDDEN else everyone)
        if i < len(from_top) and i < len(seen):
            saw = tuple(set(seen[i]) | set(saw))
        names.append(name)
        who.append(tuple(sorted(saw)))
    deck_left = list(before)
    for x in order:
        deck_left.remove(x)
    for x in a_top:  # what is still on top stays there, as the seats saw it then
        deck_left.remove(x if x in deck_left else HIDDEN)
    new_pool = tuple(sorted(left)) if left is not None else None
    return tuple(names) + tuple(a_top), tuple(sorted(deck_left)), tuple(who) + tuple(a_seen[:len(a_top)]), new_pool
