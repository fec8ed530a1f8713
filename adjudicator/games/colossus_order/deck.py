"""What is known of a Colossus Order deck's order (CO-36), as pure functions of a :class:`Player`.

A deck is four layers, from the top: ``deck_known`` (cards known to both players, in order:
revealed and left on top, or put there), ``deck_top`` (the part whose order nobody knows, kept
sorted), ``deck_bottom`` (the cards returned in the opening exchange: a set whose order is
unknown, or in the listed order under ``returned_order = "as-listed"``, CO-35) and ``deck_under``
(cards put on the bottom by effects, in order).  A card taken from the top comes from the first
non-empty layer: the one known card, any card of an unknown part, or the next card of an ordered
one.  :func:`next_problem` says why a named card cannot be the next one (the check), :func:`take`
removes it (the apply), :func:`next_options` lists the cards that can be next (the candidates).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from typing import Any, Iterable

from msgspec.structs import replace

from adjudicator.core.events import HIDDEN

from .selections import multiset_combinations
from .state import Player
from .unknowns import remove_one, take_unknown

def find(cards: tuple[str, ...], card: str) -> int:
    """Where the first copy of ``card`` is in the sorted tuple ``cards`` (a layer of unknown order,
    ``unseen``), or -1: a binary search, so that a deck of 26,000 cards costs a few comparisons, not
    a scan of the deck (positions keep these layers sorted: ``State`` and ``check_position``)."""
    i = bisect_left(cards, card)
    return i if i < len(cards) and cards[i] == card else -1


def _layer(p: Player, field: str, cards: tuple[str, ...]) -> Player:
    """``p`` with the deck layer ``field`` now ``cards`` (the looker of a ``deck_peek`` drawn to the
    end knows nothing on top any more: ``peek_by`` goes with it)."""
    if field == "deck_peek" and not cards:
        return replace(p, deck_peek=cards, peek_by=None)
    return replace(p, **{field: cards})


def _peek_done(changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` of deck layers, with ``peek_by`` dropped when they empty ``deck_peek``."""
    if "deck_peek" in changes and not changes["deck_peek"]:
        changes["peek_by"] = None
    return changes


def layers(p: Player, as_listed: bool) -> list[tuple[str, tuple[str, ...], bool]]:
    """The non-empty layers of ``p``'s deck from the top: (field, cards, ordered)."""
    out = [("deck_known", p.deck_known, True), ("deck_top", p.deck_top, False),
           ("deck_bottom", p.deck_bottom, as_listed), ("deck_under", p.deck_under, True)]
    if p.deck_peek:  # CO-42: below the cards known to both, above the unknown part
        out.insert(1, ("deck_peek", p.deck_peek, True))
    return [x for x in out if x[1]]


def next_problem(p: Player, card: str, as_listed: bool, verb: str) -> tuple[str, str, str] | None:
    """Why ``card`` cannot be the top card of ``p``'s deck now: (rule, code, message), or None.

    ``verb`` names what happens to it ("draws", "reveals", "mills")."""
    if not p.deck_known and not p.deck_peek and find(p.deck_top, card) >= 0:  # the top layer, of unknown order, holds it
        return None
    ls = layers(p, as_listed)
    if not ls:
        return ("CO-2.5", "not-in-deck", f"{p.id} {verb} {card}, but the deck is empty")
    field, cards, ordered = ls[0]
    if field == "deck_known":
        if card != cards[0]:
            return ("CO-2.6", "known-top", f"{p.id} {verb} {card}, but {cards[0]} is known to be on top of "
                                          f"{p.id}'s deck ({p.known_why[0] if p.known_why else 'known'})")
        return None
    if ordered:
        if card != cards[0] and cards[0] == HIDDEN:  # CO-39.2: the next card is unknown
            return None if card in p.unseen else _impossible(p, card, verb)
        if card != cards[0]:
            what = {"deck_under": "put on the bottom by an effect", "deck_peek": f"looked at by {p.peek_by} and put back"}.get(
                field, "returned in the opening exchange")
            return ("CO-2.6", "not-next-card", f"{p.id} {verb} {card}, but the next card of the deck is known to be "
                                              f"{cards[0]} ({what})")
        return None
    if find(cards, card) >= 0:
        return None
    if find(cards, HIDDEN) >= 0:  # CO-39.2: one of the unknown cards
        return None if find(p.unseen, card) >= 0 else _impossible(p, card, verb)
    below = [(f, c) for f, c, _ in ls[1:] if card in c]
    if below:
        where = "returned to the bottom of the deck in the opening exchange" if below[0][0] == "deck_bottom" \
            else "put on the bottom of the deck by an effect"
        above = "cards of unknown order" if field == "deck_top" else "cards returned in the opening exchange"
        return ("CO-2.6", "below-unknown", f"{p.id} {verb} {card}, but that card was {where}, and {len(cards)} "
                                          f"{above} are still above it")
    if field == "deck_top":
        return ("CO-2.5", "not-in-deck", f"{p.id} {verb} {card}, but no {card} is left in the unknown part of the deck ({len(cards)} cards)")
    return ("CO-2.5", "not-in-deck", f"{p.id} {verb} {card}, but no {card} is left in the deck")


def _impossible(p: Player, card: str, verb: str) -> tuple[str, str, str]:
    return ("CO-39.2", "impossible-identity", f"{p.id} {verb} {card}, but no {card} is left unaccounted for")


def take(p: Player, card: str, as_listed: bool) -> Player:
    """``p`` with ``card`` taken from the top of the deck (checked by :func:`next_problem`)."""
    top = p.deck_top
    i = -1 if p.deck_known or p.deck_peek else find(top, card)
    if i >= 0:  # the top layer, of unknown order, holds it
        return replace(p, deck_top=top[:i] + top[i + 1:])
    ls = layers(p, as_listed)
    if not ls:
        return p
    field, cards, ordered = ls[0]
    if cards[0] == card:
        if field == "deck_known":
            return replace(p, deck_known=cards[1:], known_why=p.known_why[1:])
        return _layer(p, field, cards[1:])
    if field != "deck_known":
        i = -1 if ordered else find(cards, card)
        if i >= 0:
            return _layer(p, field, cards[:i] + cards[i + 1:])
        hidden = -1 if ordered else find(cards, HIDDEN)
        if cards[0] == HIDDEN or hidden >= 0:  # CO-39.2
            rest = cards[1:] if ordered else cards[:hidden] + cards[hidden + 1:]
            u = find(p.unseen, card)
            return _layer(replace(p, unseen=p.unseen[:u] + p.unseen[u + 1:]) if u >= 0 else p, field, rest)
    return _take_as_stated(p, card, ls)


def _take_as_stated(p: Player, card: str, ls: list[tuple[str, tuple[str, ...], bool]]) -> Player:
    """A draw the deck could not give (illegal, applied as stated: a judge let it stand, or
    ``--keep-going``): ``card`` taken from wherever the deck holds it, else the deck loses its top
    card all the same (the player drew one).  Never used for a checked event."""
    for field, cards, _ordered in ls:
        if card in cards:
            i = cards.index(card)
            rest = cards[:i] + cards[i + 1:]
            if field == "deck_known":
                return replace(p, deck_known=rest, known_why=p.known_why[:i] + p.known_why[i + 1:])
            return _layer(p, field, rest)
    field, cards, _ordered = ls[0]
    if field == "deck_known":
        return replace(p, deck_known=cards[1:], known_why=p.known_why[1:])
    return _layer(p, field, cards[1:])


def take_unknown_top(p: Player, as_listed: bool) -> tuple[Player, str]:
    """CO-39: ``p`` with the top card taken where the record does not name it, and that card's
    identity as far as it is known (``"?"``: one of ``p.unseen``)."""
    ls = layers(p, as_listed)
    if not ls:
        return p, HIDDEN
    field, cards, ordered = ls[0]
    if field == "deck_known":
        return replace(p, deck_known=cards[1:], known_why=p.known_why[1:]), cards[0]
    if ordered:
        return _layer(p, field, cards[1:]), cards[0]
    rest, unseen, card = take_unknown(cards, p.unseen)
    return replace(p, unseen=unseen, **{field: rest}), card


def next_options(p: Player, as_listed: bool) -> list[str]:
    """Every card that can be the top card of ``p``'s deck, in sorted order."""
    ls = layers(p, as_listed)
    if not ls:
        return []
    _, cards, ordered = ls[0]
    return [cards[0]] if ordered else sorted(set(cards))


def _split(p: Player, k: int, as_listed: bool) -> tuple[list[str], tuple[str, ...], bool, int]:
    """The top ``k`` cards: the ones fixed by fully taken layers, and the last, partly taken layer
    (its cards, whether ordered, how many of it are taken)."""
    fixed: list[str] = []
    for _, cards, ordered in layers(p, as_listed):
        if k >= len(cards):
            fixed += cards
            k -= len(cards)
            continue
        return fixed, cards, ordered, k
    return fixed, (), True, 0


def top_fits(p: Player, cards: list[str], as_listed: bool) -> tuple[str, str] | None:
    """Why the multiset ``cards`` cannot be the top ``len(cards)`` cards of ``p``'s deck:
    (code, reason), or None."""
    k = len(cards)
    if p.unseen:
        return _top_fits_unknown(p, cards, as_listed)
    known = p.deck_known[:k]
    if not _contains(cards, known):
        return ("known-top", f"{', '.join(known)} {'is' if len(known) == 1 else 'are'} known to be on top "
                             f"({p.known_why[0] if p.known_why else 'known'})")
    fixed, partial, ordered, n = _split(p, k, as_listed)
    rest = Counter(cards)
    rest.subtract(Counter(fixed))
    if any(v < 0 for v in rest.values()):
        return ("not-in-deck", "the deck cannot yield them")
    left = sorted(rest.elements())
    ok = Counter(left) == Counter(partial[:n]) if ordered else _sorted_contains(partial, left)
    return None if ok else ("not-in-deck", "the deck cannot yield them")


def _touched(p: Player, k: int, as_listed: bool) -> list[tuple[str, tuple[str, ...], bool, int]]:
    """The layers the top ``k`` cards come from: (field, cards, ordered, how many taken)."""
    out = []
    for field, layer, ordered in layers(p, as_listed):
        if k <= 0:
            break
        t = min(k, len(layer))
        out.append((field, layer, ordered, t))
        k -= t
    return out


def _top_fits_unknown(p: Player, cards: list[str], as_listed: bool) -> tuple[str, str] | None:
    """:func:`top_fits` when the deck holds unknown cards (CO-39.2): the named cards not known to be
    among the layers they come from must be identities still unaccounted for."""
    touched = _touched(p, len(cards), as_listed)
    real: Counter[str] = Counter()
    hidden = 0
    for _, layer, ordered, t in touched:
        part = layer[:t] if ordered else layer
        real.update(c for c in part if c != HIDDEN)
        hidden += sum(1 for c in part if c == HIDDEN)
    missing = Counter(cards)
    missing.subtract(real)
    need = Counter({c: n for c, n in missing.items() if n > 0})
    if sum(need.values()) > hidden or not _contains(p.unseen, need.elements()):
        return ("impossible-identity", f"{', '.join(sorted(need.elements()))} cannot all be among {p.id}'s unknown cards "
                                       f"(still unaccounted for: {', '.join(sorted(set(p.unseen))) or 'nothing'})")
    return None


def _take_top_unknown(p: Player, cards: list[str], as_listed: bool) -> Player:
    left = Counter(cards)
    changes: dict[str, Any] = {}
    unseen = p.unseen
    for field, layer, ordered, t in _touched(p, len(cards), as_listed):
        if ordered:
            taken, rest = list(layer[:t]), layer[t:]
        else:
            rest_l, taken = list(layer), []
            for c in sorted(left.elements()):
                if len(taken) < t and c in rest_l:
                    rest_l.remove(c)
                    taken.append(c)
            while len(taken) < t:
                rest_l.remove(HIDDEN if HIDDEN in rest_l else rest_l[0])
                taken.append(HIDDEN)
            rest = tuple(rest_l)
        for c in taken:
            if c != HIDDEN and left[c] > 0:
                left[c] -= 1
        changes[field] = rest
    for c in sorted(left.elements()):  # named cards that were unknown ones
        if c in unseen:
            unseen = remove_one(unseen, c)
    if "deck_known" in changes:
        changes["known_why"] = p.known_why[len(p.deck_known) - len(changes["deck_known"]):]
    return replace(p, unseen=unseen, **_peek_done(changes))


def take_top(p: Player, cards: Iterable[str], as_listed: bool) -> Player:
    """``p`` with the multiset ``cards`` taken from the top of the deck (checked by :func:`top_fits`)."""
    cards = list(cards)
    if p.unseen:
        return _take_top_unknown(p, cards, as_listed)
    fixed = _split(p, len(cards), as_listed)[0]
    left = Counter(cards)
    left.subtract(Counter(fixed))
    changes: dict[str, Any] = {}
    k = len(cards)
    for field, layer, lo in layers(p, as_listed):
        if k <= 0:
            break
        if k >= len(layer):
            changes[field] = ()
            k -= len(layer)
            continue
        if lo:
            changes[field] = layer[k:]
        else:
            rest = list(layer)
            for c in sorted(left.elements()):
                i = bisect_left(rest, c)  # (the layer is sorted: its first copy of c)
                if i < len(rest) and rest[i] == c:  # (always, for checked cards; an unchecked reveal takes what is there)
                    del rest[i]
            changes[field] = tuple(rest)
        k = 0
    if "deck_known" in changes:
        changes["known_why"] = p.known_why[len(p.deck_known) - len(changes["deck_known"]):]
    return replace(p, **_peek_done(changes))


def top_options(p: Player, k: int, as_listed: bool) -> list[tuple[str, ...]]:
    """Every distinct sorted multiset the top ``k`` cards of ``p``'s deck can be."""
    fixed, partial, ordered, n = _split(p, k, as_listed)
    if n == 0:
        return [tuple(sorted(fixed))]
    tails = [tuple(partial[:n])] if ordered else list(multiset_combinations(partial, n))
    return [tuple(sorted(fixed + list(t))) for t in tails]


def shuffled(p: Player) -> Player:
    """``p`` with the whole deck shuffled: nothing of its order is known any more."""
    rest = p.deck_known + p.deck_peek + p.deck_bottom + p.deck_under
    return replace(p, deck_top=tuple(sorted(p.deck_top + rest)) if rest else p.deck_top,  # (deck_top: sorted already) deck_known=(), known_why=(), deck_peek=(), peek_by=None,
                   deck_bottom=(), deck_under=())


def _sorted_contains(items: tuple[str, ...], wanted: Iterable[str]) -> bool:
    """The sorted tuple ``items`` holds every card of ``wanted`` (repeats counted): the copies of a
    card are side by side, so its first copy and the one ``n - 1`` after it say it."""
    for card, n in Counter(wanted).items():
        i = find(items, card)
        if i < 0 or i + n > len(items) or items[i + n - 1] != card:
            return False
    return True


def _contains(items: Iterable[str], wanted: Iterable[str]) -> bool:
    have = Counter(items)
    return all(have[k] >= v for k, v in Counter(wanted).items())
