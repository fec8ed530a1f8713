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
from typing import Iterable

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN

from .selections import multiset_combinations
from .state import Player
from .unknowns import take_unknown

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
    if field == "deck_mixed":
        return _mixed(p, cards, p.mixed_could)
    return replace(p, **{field: cards})


def _mixed(p: Player, cards: tuple[str, ...], could: tuple[str, ...]) -> Player:
    """``p`` with the set ``deck_mixed`` now ``cards`` and its unknown cards among ``could``
    (CO-42.3), a limit kept only while it says something: the set holds unknown cards and ``could``
    is not all ``"?"``."""
    if HIDDEN not in cards or not could or could[-1] == HIDDEN and could[0] == HIDDEN:
        could = ()
    return replace(p, deck_mixed=cards, mixed_could=could)


def _mixed_limit(p: Player, card: str) -> tuple[str, str, str] | None:
    """CO-42.3: why ``card`` cannot be one of the unknown cards of ``p``'s set ``deck_mixed``, when
    the record knows which cards they are among (a card of the set was drawn unnamed), or None."""
    could = p.mixed_could
    if not could or HIDDEN in could or find(could, card) >= 0:
        return None
    return ("CO-2.6", "not-next-card", f"{p.id} {{verb}} {card}, but the top {len(p.deck_mixed)} cards of the deck are "
                                      f"known to be among {', '.join(could)} (put back by a look, in an order not known "
                                      f"here; {len(could) - len(p.deck_mixed)} of them taken since, unnamed)")


def _without(could: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``could`` less ``card`` (else one ``"?"``, else as it is): a card of the set named as it left."""
    i = find(could, card)
    if i < 0:
        i = find(could, HIDDEN)
    return could if i < 0 else could[:i] + could[i + 1:]


def layers(p: Player, as_listed: bool) -> list[tuple[str, tuple[str, ...], bool]]:
    """The non-empty layers of ``p``'s deck from the top: (field, cards, ordered)."""
    out = [("deck_known", p.deck_known, True), ("deck_mixed", p.deck_mixed, False), ("deck_top", p.deck_top, False),
           ("deck_bottom", p.deck_bottom, as_listed), ("deck_under", p.deck_under, True)]
    if p.deck_peek:  # CO-42: below the cards known to both, above a look's set (CO-42.3) and the unknown part
        out.insert(1, ("deck_peek", p.deck_peek, True))
    return [x for x in out if x[1]]


def next_problem(p: Player, card: str, as_listed: bool, verb: str) -> tuple[str, str, str] | None:
    """Why ``card`` cannot be the top card of ``p``'s deck now: (rule, code, message), or None.

    ``verb`` names what happens to it ("draws", "reveals", "mills")."""
    if not p.deck_known and not p.deck_mixed and not p.deck_peek and find(p.deck_top, card) >= 0:  # the top layer, of unknown order, holds it
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
        limit = _mixed_limit(p, card) if field == "deck_mixed" else None
        if limit is not None:
            return (limit[0], limit[1], limit[2].replace("{verb}", verb))
        return None if find(p.unseen, card) >= 0 else _impossible(p, card, verb)
    if field == "deck_mixed":  # CO-42.3: the next card is one of the set a look put back
        return ("CO-2.6", "not-next-card", f"{p.id} {verb} {card}, but the top {len(cards)} cards of the deck are known "
                                          f"to be {', '.join(cards)} (put back by a look, in an order not known here)")
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
    i = -1 if p.deck_known or p.deck_mixed or p.deck_peek else find(top, card)
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
            q = replace(p, unseen=p.unseen[:u] + p.unseen[u + 1:]) if u >= 0 else p
            if field == "deck_mixed":  # CO-42.3: one of the cards the set's unknown ones are among
                return _mixed(q, rest, _without(p.mixed_could, card))
            return _layer(q, field, rest)
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
    if field == "deck_mixed":  # CO-42.3: the set's named cards become unknown, but the rest is still among them
        named = tuple(c for c in cards if c != HIDDEN) if card == HIDDEN else ()
        could = p.mixed_could or (HIDDEN,) * cards.count(HIDDEN)
        if card == HIDDEN and could and could[0] != HIDDEN and could[0] == could[-1]:  # among one identity only: that card
            card = could[0]  # (``unseen`` keeps it: one identity too many there is weaker, never wrong; a hand's
            could = could[1:]  # ``hand_could``, read off ``unseen``, is left as it was)
        return _mixed(replace(p, unseen=unseen), rest, tuple(sorted(could + named)) if named else could), card
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


def top_fits(p: Player, cards: list[str], as_listed: bool) -> tuple[str, str, str] | None:
    """Why the sequence ``cards`` (a deck hit's reveal, top card first) cannot be the top
    ``len(cards)`` cards of ``p``'s deck: (rule, code, message), or None.

    CO-2.6 binds each card, not the set: the cards are checked one by one against what is known of
    the order (:func:`next_problem`), each taken before the next is checked, so a lower known card
    listed before a higher one, a returned card before the unknown part above it, or a reordered
    look listed out of its order is refused where a multiset comparison would accept it."""
    for card in cards:
        problem = next_problem(p, card, as_listed, "reveals")
        if problem is not None:
            return problem
        p = take(p, card, as_listed)
    return None


def take_top(p: Player, cards: Iterable[str], as_listed: bool) -> Player:
    """``p`` with the sequence ``cards`` taken from the top of the deck, one by one (checked by
    :func:`top_fits`; an unchecked reveal applied as stated takes each card as :func:`take` does)."""
    for card in cards:
        p = take(p, card, as_listed)
    return p


def top_options(p: Player, k: int, as_listed: bool) -> list[tuple[str, ...]]:
    """The top ``k`` cards of ``p``'s deck, one sequence for each distinct multiset they can be:
    the fully taken layers in their order (a layer of unknown order sorted), then the partly
    taken layer's cards (sorted where its order is unknown).  Each is a reveal :func:`top_fits`
    accepts (CO-2.6: in order)."""
    fixed, partial, ordered, n = _split(p, k, as_listed)
    if n == 0:
        return [tuple(fixed)]
    tails = [tuple(partial[:n])] if ordered else list(multiset_combinations(partial, n))
    return [tuple(fixed) + tuple(t) for t in tails]


def shuffled(p: Player) -> Player:
    """``p`` with the whole deck shuffled: nothing of its order is known any more."""
    rest = p.deck_known + p.deck_mixed + p.deck_peek + p.deck_bottom + p.deck_under
    return replace(p, deck_top=tuple(sorted(p.deck_top + rest)) if rest else p.deck_top,  # (deck_top: sorted already)
                   deck_known=(), known_why=(), deck_peek=(), peek_by=None, deck_bottom=(), deck_under=(), deck_mixed=(),
                   mixed_could=())


def mixed_top(p: Player, n: int, as_listed: bool) -> Player:
    """CO-42.3: ``p`` once someone put the top ``n`` cards back in an order this record does not
    know (the opponent's own look): they become ``deck_mixed``, the set of those cards as far as
    known, never fewer than known before.  What lies above the set in the layers (the rest of the
    cards known to both, of a look's order) and the rest of a part of unknown order the look
    reached into join the set: a weaker statement (the top cards are these, in some order), never
    a wrong one.  One card put back, or a part of unknown order the look covers alone, changes
    nothing."""
    ls = layers(p, as_listed)
    if n <= 1 or not ls or (not ls[0][2] and n <= len(ls[0][1])):
        return p
    out: list[str] = []
    left = n
    changes: dict[str, tuple[str, ...]] = {}
    for field, cards, ordered in ls:
        if left <= 0:
            break
        if field in ("deck_known", "deck_peek", "deck_mixed") or (not ordered and not (left < len(cards) and set(cards) <= {HIDDEN})):
            take_n = len(cards)  # above the set (what the look did not reach joins it), or a part of unknown order
        else:
            take_n = min(left, len(cards))  # an ordered part below, or unknown cards all alike: the first ``left``
        out += cards[:take_n]
        changes[field] = cards[take_n:]
        left -= take_n
    if "deck_mixed" not in changes and p.deck_mixed and not p.mixed_could and set(p.deck_mixed) == {HIDDEN} \
            and set(changes.get("deck_top", p.deck_top)) <= {HIDDEN}:
        changes["deck_top"] = p.deck_mixed + changes.get("deck_top", p.deck_top)  # an earlier set of cards all unknown just
        changes["deck_mixed"] = ()  # below, above a part all unknown: it says nothing more than that part (stays sorted)
    elif "deck_mixed" not in changes:
        out += p.deck_mixed  # an earlier set just below: the two sets are one now
    q = replace(p, **changes)
    if "deck_known" in changes:
        q = replace(q, known_why=())
    if "deck_peek" in changes:
        q = replace(q, peek_by=None)
    new = tuple(sorted(out))  # the unknown cards new to the set are any; the old set's are among its ``mixed_could``
    could = tuple(sorted(p.mixed_could + (HIDDEN,) * (new.count(HIDDEN) - p.deck_mixed.count(HIDDEN)))) if p.mixed_could else ()
    return _mixed(q, new, could)
