"""What one player sees of a Colossi match: the one place its hiding is written.

:func:`observe` masks a position, :func:`redact` an event; the judge (``player=None``) is never
passed here.  ``view``, ``scene``, the text render and the viewers' event lists all go through
these two (via :class:`~adjudicator.core.kernel.kit.KitGame`):

- other players' hands (their sizes stay public);
- the order and contents of every face-down pile: the tile deck and the tiles on top of it, the
  tiles out of the game, the Colossus deck and the cards on top of it, the Trait deck;
- and, in events, other players' draws and dealt cards, cards contributed to a combat, a card
  given (hidden from everyone but its giver and taker), the tiles set aside (hidden from all),
  and a top item revealed to one player only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN, Event, hidden, masked
from adjudicator.core.kernel.kit import seated

from . import events as E
from . import unknowns as U
from .state import Discard, GrowthPick, State


def observe(s: State, player: str) -> State:
    """The position as ``player`` sees it: hidden items are ``HIDDEN``, sizes kept; the items on
    top of a deck that ``player`` looked at stay named (Soothsayer, CL-41)."""
    more: dict[str, Any] = {} if s.options.discards_shown else {"discard": hidden(s.discard)}  # CL-46: face down
    if s.growth and s.options.growth_traits == "private" and player not in growth_seers(s):
        more["growth"] = hidden(s.growth)  # CL-48: a Growth's pool the seat has not been passed yet
    return seated(
        s, player, lambda p, mine: p if mine else replace(p, hand=hidden(p.hand)),
        tile_top=_seen_top(s.tile_top, s.tile_seen, player), tile_deck=hidden(s.tile_deck), tile_box=hidden(s.tile_box),
        card_top=_seen_top(s.card_top, s.card_seen, player), card_deck=hidden(s.card_deck),
        trait_deck=hidden(s.trait_deck), **more)


def growth_seers(s: State) -> tuple[str, ...]:
    """Who has seen a Growth's pool (CL-48's private reading): the Growth player while it is being
    drawn, then every player it has been passed to (the one choosing now included)."""
    picks = [t.player for t in s.todo if type(t) is GrowthPick]
    if not picks:
        return ()
    if type(s.todo[0]) is GrowthPick:
        return tuple(p.id for p in s.players if p.id not in picks[1:])
    return (picks[0],)


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
    if t is E.TraitDrawn and state is not None and state.options.growth_traits == "private" \
            and player not in growth_seers(state):
        return masked(event, "trait")  # CL-48: drawn face down, seen by the Growth player first
    if getattr(event, "player", player) == player:
        return event
    if t is E.CardDrawn:
        if state is not None and state.card_top and player in state.card_seen[0]:
            return event
        return masked(event, "card")
    if t is E.CardDiscarded and state is not None and not state.options.discards_shown \
            and state.todo and type(state.todo[0]) is Discard:
        return masked(event, "card")  # CL-46: a hand-limit discard face down
    if t is E.CardDealt:
        return masked(event, "card")
    if t is E.CardsContributed:
        return masked(event, "cards")
    if t is E.TopRevealed:
        return masked(event, "item")
    return event


# == what a taking back keeps (CL-44) ================================================================

def keep_seen(s: State, annulled: State, events: Sequence[Event] = ()) -> State:
    """``s`` (the position a judge's taking back returns to) with what the seats learnt in the
    events taken back, as ``annulled`` (the position those events left at the table) shows it: the
    Colossus cards drawn go back on top of the deck, each known to the seat that drew it, the items
    looked at on top stay known, and the tiles turned up from the tile deck go back on top of it,
    known to every seat (CL-44).  A deck the events taken back added to (the discard pile shuffled
    in) is reinstated with nothing kept.

    With ``events`` (the events taken back, as this log states them: ``Game.keep_seen_of``) the
    items go back in the order those events took them, which every seat's record holds alike: a
    record's ``"?"`` draw of an item the seat knew on top is that item.  Without them (a caller
    that has only the positions) each seat's draws go back in seat order, then the cards seen by
    all, each group in name order."""
    if events:
        return _kept_in_order(s, annulled, events)
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


#: one item a deck lost to the events taken back: its name as the log states it ("?": not seen by
#: the seat whose record it is) and the seats that saw it taken
Taken = tuple[str, tuple[str, ...]]


def _kept_in_order(s: State, annulled: State, events: Sequence[Event]) -> State:
    """:func:`keep_seen` told the events taken back: each deck's items back on top in the order taken."""
    everyone = tuple(p.id for p in s.players)
    cards: list[Taken] = [(HIDDEN if e.card is None else e.card, (e.player,))
                          for e in events if type(e) is E.CardDrawn]
    tiles: list[Taken] = []
    left = len(s.tile_top) + len(s.tile_deck)
    for e in events:  # (a tile turned up while the tile deck is empty comes from the box)
        if type(e) in (E.TileExplored, E.TileReplaced) and left > 0:
            tiles.append((e.tile, everyone))
            left -= 1
    un = s.unseen
    card = _back_on_top(s.card_top, s.card_deck, s.card_seen, annulled.card_top, annulled.card_seen,
                        len(annulled.card_deck), cards, un.cards if un else None)
    tile = _back_on_top(s.tile_top, s.tile_deck, s.tile_seen, annulled.tile_top, annulled.tile_seen,
                        len(annulled.tile_deck), tiles, un.tiles if un else None)
    if card is None and tile is None:
        return s
    changes: dict[str, Any] = {}
    if card is not None:
        changes.update(card_top=card[0], card_deck=card[1], card_seen=card[2])
        if un is not None:
            un = replace(un, cards=card[3])
    if tile is not None:
        changes.update(tile_top=tile[0], tile_deck=tile[1], tile_seen=tile[2])
        if un is not None:
            un = replace(un, tiles=tile[3])
            for x in tile[4]:  # a tile deck placeholder named on top: its kind is known
                un = U.kind_changed(un, x, -1)
            for x in tile[5]:  # a known tile the record no longer tells apart: its kind is counted
                un = U.kind_changed(un, x, +1)
    if un is not None:
        changes["unseen"] = un
    return replace(s, **changes)


def _back_on_top(top: tuple[str, ...], deck: tuple[str, ...], seen: tuple[tuple[str, ...], ...],
                 a_top: tuple[str, ...], a_seen: tuple[tuple[str, ...], ...], a_deck: int,
                 taken: list[Taken], pool: tuple[str, ...] | None) -> Any:
    """One deck after a taking back, the items ``taken`` from it back on top in the order taken
    (a take is from the top: the first items taken are those known on top, each item then known to
    whoever knew it there and whoever took it); below them what the events left on top
    (``a_top``, looked at: the known top not taken first, then what they turned up), then the
    rest.  None when nothing is kept (nothing taken, or the deck changed otherwise: a reshuffle).
    Returns the top, the rest, who saw each item on top, what a record's placeholders can still
    be, the names put where a placeholder was, and the names the record no longer knows in the
    deck (a ``"?"`` taken from a deck of known and unknown items: it does not say which)."""
    if not taken and (a_top, a_seen) == (top, seen):
        return None
    if len(a_top) + a_deck != len(top) + len(deck) - len(taken):
        return None
    rest = list(deck)
    left = list(pool) if pool is not None else None
    named: list[str] = []
    unknown: list[str] = []
    names: list[str] = []
    who: list[tuple[str, ...]] = []

    def take(x: str) -> str:
        """``x`` out of the deck below the known top: a named item, else a placeholder (named
        since: ``x``); a record's ``"?"`` makes the items it knew there unknown."""
        if x != HIDDEN and x in rest:
            rest.remove(x)
            return x
        if x == HIDDEN and left is not None and any(c != HIDDEN for c in rest):
            known = [c for c in rest if c != HIDDEN]  # (the record does not say which item left)
            left.extend(known)
            unknown.extend(known)
            rest[:] = [HIDDEN] * len(rest)
        if HIDDEN not in rest:
            raise LookupError(x)  # (not this deck's: a draw a judge let stand from nowhere)
        rest.remove(HIDDEN)
        if x != HIDDEN and left is not None and x in left:
            left.remove(x)
            named.append(x)
        return x

    try:
        for i, (x, saw) in enumerate(taken):
            if i < len(top):  # a draw takes the top: the item known (or looked at) there
                on = top[i]
                if x != HIDDEN and on != HIDDEN and x != on:
                    return None  # taken from under the known top (a judge let stand): the order is not known
                if on == HIDDEN and x != HIDDEN and left is not None and x in left:
                    left.remove(x)
                    named.append(x)
                names.append(on if on != HIDDEN else x)
                who.append(tuple(sorted(set(seen[i] if i < len(seen) else ()) | set(saw))))
            else:
                names.append(take(x))
                who.append(tuple(sorted(saw)))
        still = top[len(taken):]  # the known top the events did not take: first in what they left on top
        if len(a_top) < len(still) or any(x != y and HIDDEN not in (x, y) for x, y in zip(a_top, still)):
            return None
        for x in a_top[len(still):]:  # what the events looked at and left on top came from the deck
            take(x)
    except LookupError:
        return None
    new_pool = tuple(sorted(left)) if left is not None else None
    return (tuple(names) + tuple(a_top), tuple(sorted(rest)), tuple(who) + tuple(a_seen[:len(a_top)]),
            new_pool, named, unknown)


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
