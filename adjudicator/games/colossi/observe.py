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
    seat when it went face up to the discard pile since), the items looked at on top stay known,
    and the tiles turned up from the tile deck go back on top of it, known to every seat (CL-44).
    A deck the events taken back added to (the discard pile shuffled in) is reinstated with nothing
    kept.  The order put back is one every seat's record finds alike: what was known on top first,
    then each seat's draws in seat order, then the cards seen by all, each group in name order."""
    everyone = tuple(p.id for p in s.players)
    groups = [((b.id,), _added(a.hand, b.hand), True) for a, b in zip(s.players, annulled.players)]
    played = [c for a, b in zip(s.players, annulled.players) for c in _added(b.hand, a.hand) if c != HIDDEN]
    groups.append((everyone, _added(played, _added(s.discard, annulled.discard)), False))
    top, deck, seen, pool = _kept_deck(s.card_top, s.card_deck, s.card_seen, annulled.card_top, annulled.card_seen,
                                       annulled.card_deck, groups, s.unseen.cards if s.unseen else None)
    island = [b.tile for a, b in zip(s.spaces, annulled.spaces) if a.tile is None and b.tile is not None]
    ttop, tdeck, tseen, tpool = _kept_deck(s.tile_top, s.tile_deck, s.tile_seen, annulled.tile_top, annulled.tile_seen,
                                           annulled.tile_deck, [(everyone, island, True)], s.unseen.tiles if s.unseen else None)
    if (top, seen, ttop, tseen) == (s.card_top, s.card_seen, s.tile_top, s.tile_seen):
        return s
    unseen = s.unseen
    if unseen is not None:
        unseen = replace(unseen, cards=pool, tiles=tpool)
    return replace(s, card_top=top, card_deck=deck, card_seen=seen, tile_top=ttop, tile_deck=tdeck, tile_seen=tseen,
                   unseen=unseen)


def _added(before: tuple[str, ...], after: tuple[str, ...]) -> list[str]:
    """The items of ``after`` that ``before`` did not hold (a multiset difference)."""
    left = list(before)
    out = []
    for c in after:
        if c in left:
            left.remove(c)
        else:
            out.append(c)
    return out


def _kept_deck(top: tuple[str, ...], deck: tuple[str, ...], seen: tuple[tuple[str, ...], ...],
               a_top: tuple[str, ...], a_seen: tuple[tuple[str, ...], ...], a_deck: tuple[str, ...],
               groups: list[tuple[tuple[str, ...], list[str], bool]],
               pool: tuple[str, ...] | None) -> tuple[Any, Any, Any, Any]:
    """One deck after a taking back (see :func:`keep_seen`): the items that left it go back on
    top (the ones known on top first, in their order, with who saw them then and who took them;
    then those found in ``groups``, each group's seats seeing them, in group and name order (a
    record's placeholder named only for a group that ``named``: a hand); the others unseen); the items still on top keep what the seats saw of them in ``a_seen``.  Returns
    the top, the rest, who saw each item on top, and what a record's unknown items can still be
    (``pool``: an item the record named in the events taken back is no longer unknown)."""
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
    off = list(rest)
    for x in top[:n]:
        if x not in off:  # (taken from under the known top, a judge let stand: the order is not known)
            n, off = 0, list(rest)
            break
        off.remove(x)
    names = list(top[:n])
    who = [set(seen[i]) if i < len(seen) else set() for i in range(n)]
    for saw, items, named in groups:
        mine = []
        for c in sorted(items, key=lambda c: (c == HIDDEN, c)):
            if c in names[:n] and c != HIDDEN:  # a known top card: its taker saw it too
                who[names.index(c)] |= set(saw)
            elif c in off and c != HIDDEN:
                off.remove(c)
                mine.append(c)
            elif HIDDEN in off and (c == HIDDEN or (left is not None and c in left)):
                off.remove(HIDDEN)  # a placeholder: named where the record names the card in a hand
                if c != HIDDEN and named:
                    left.remove(c)  # type: ignore[union-attr]
                mine.append(c if named else HIDDEN)
        names += mine
        who += [set(saw) for _ in mine]
    others = sorted(off, key=lambda c: (c == HIDDEN, c))  # taken, then out of sight: seen by none kept
    names += others
    who += [set() for _ in others]
    new_top = tuple(names) + tuple(a_top)
    new_seen = tuple(tuple(sorted(w)) for w in who) + tuple(a_seen[:len(a_top)])
    deck_left = list(before)  # the deck less what is on top (a name the record gave a placeholder since: one "?")
    for x in new_top:
        deck_left.remove(x if x in deck_left else HIDDEN)
    new_pool = tuple(sorted(left)) if left is not None else None
    return new_top, tuple(sorted(deck_left)), new_seen, new_pool
