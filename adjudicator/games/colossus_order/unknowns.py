"""Unknown identities in a seat's record of a Colossus Order match (CO-39, docs/log-format.md,
"Unknown identities").

A card the record leaves unknown (``"?"`` or ``null``: the opponent's draws, returned cards, Locus
cards set face down) is ``"?"`` in the zone it is in; :attr:`Player.unseen` is the multiset of
identities those unknown cards can still be: the registered deck list minus every card seen since,
or, for a deck list the record leaves unknown (``{}``), the pool under the construction limits
(CO-39.1).  A card named later (played, set, revealed, milled) that is not known to be in its zone
is taken from an unknown card there: it must still be in ``unseen`` (CO-39.2).  Every function here
is pure; the checks call :func:`problem`, the applies :func:`take_named`/:func:`take_unknown`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from adjudicator.core.kernel.commitments import PREFIX
from adjudicator.core.kernel.events import HIDDEN

from .cards import POOLS, Pool
from .state import Position

#: the deck size a deck list left unknown is taken to have (CO-1.2, CO-39.1)
UNKNOWN_DECK_SIZE = 50


def unknown(card: Any) -> bool:
    """``card`` names no identity (``null``, ``"?"`` or a commitment, CO-40)."""
    return card is None or card == HIDDEN or card.startswith(PREFIX)


#: the largest deck a record may leave unknown under ``deck_validation = "off"`` (``DeckList.size``)
MAX_OPEN_DECK = 1000


def open_size(deck: Any, options: Any) -> int:
    """How many cards a deck list left unknown holds (CO-39.1): ``size``, else 50 (CO-1.2).  Under
    ``deck_validation = "off"`` a list ``{}`` without ``size`` is an empty deck (as before CO-39)."""
    return UNKNOWN_DECK_SIZE if deck.size is None else deck.size


def open_unseen(pool: Pool, copies: int | None = None) -> tuple[str, ...]:
    """CO-39.1: what a deck list left unknown can hold: 20 of each basic Gem (CO-1.3), 3 of every
    other card (CO-1.4, counted per card id), never a Colossus (CO-1.5); ``copies``: that many of
    every card but a Colossus (``deck_validation = "off"``: no construction rules)."""
    out: list[str] = []
    for cid in sorted(pool.cards):
        c = pool.cards[cid]
        if c.type == "colossus":
            continue
        out += [cid] * (copies if copies is not None else 20 if c.is_gem and not c.unique else 3)
    return tuple(out)


def breaks_construction(s: Any, owner: Any, card: str, pool: Pool, also: Iterable[str] = ()) -> tuple[str, str, str] | None:
    """CO-39.1: naming ``card`` among ``owner``'s unknown cards would show a deck list left unknown
    breaking the construction rules it is assumed to meet (more than 20 Gems, CO-1.3; more than 3
    cards of one name, CO-1.4): (rule, code, message), or None.  Only for such a deck under
    ``deck_validation = "strict"``; the per-id bounds are ``unseen``'s own.  ``also``: the cards the
    same event already named from the unknown ones (a declaration's six, a deck hit's reveal, a
    look): they count too, though no zone of ``s`` holds them yet."""
    deck = s.setup.decks.get(owner.id)
    if deck is None or deck.cards or s.options.deck_validation != "strict":
        return None
    c = pool[card]
    named = _named_cards(s, owner) + list(also)
    if c.is_gem:
        gems = sum(1 for x in named if x in pool and pool[x].is_gem)
        if gems >= 20:
            return ("CO-1.3", "too-many-gems", f"{owner.id} would have a 21st Gem card, {card}: {owner.id}'s deck list, unknown "
                                               f"to this record, is assumed to meet CO-1.3 (at most 20 Gems)")
    if not (c.is_gem and not c.unique):
        same = sum(1 for x in named if x in pool and pool[x].name == c.name and not (pool[x].is_gem and not pool[x].unique))
        if same >= 3:
            return ("CO-1.4", "too-many-copies", f"{owner.id} would have a 4th card named {c.name!r} ({card}): {owner.id}'s "
                                                 f"deck list, unknown to this record, is assumed to meet CO-1.4 (at most 3 of a name)")
    return None


def _named_cards(s: Any, owner: Any) -> list[str]:
    """Every card of ``owner`` the record names (in any zone, captured by the opponent, on the chain)."""
    out = [c for zone in ("hand", "discard", "set_gems", "deck_known", "deck_peek", "deck_mixed", "deck_under", "deck_top", "deck_bottom")
           for c in getattr(owner, zone) if c != HIDDEN]
    out += [f.card for f in owner.field] + [sl.card for sl in owner.locus if sl.card is not None and sl.card != HIDDEN]
    out += [c for p in s.players if p.id != owner.id for c in p.captured if c != HIDDEN]
    out += [i.card for i in s.chain if i.player == owner.id and i.kind != "ability"]
    return out


def remove_one(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = items.index(card)
    return items[:i] + items[i + 1:]


def where(s: Any, owner: Any, card: str) -> str:
    """Where the copies of ``card`` of ``owner`` already are (for the reason of an impossible reveal)."""
    spots: Counter[str] = Counter()
    for zone, label in (("hand", "in hand"), ("discard", "in the discard pile"), ("set_gems", "set on the Colossus"),
                        ("deck_known", "known on top of the deck"), ("deck_peek", "looked at on top of the deck"),
                        ("deck_mixed", "put back on top of the deck by a look"),
                        ("deck_under", "under the deck"),
                        ("deck_top", "in the deck"), ("deck_bottom", "returned to the bottom of the deck")):
        n = sum(1 for c in getattr(owner, zone) if c == card)
        if n:
            spots[label] += n
    n = sum(1 for f in owner.field if f.card == card)
    if n:
        spots["on the field"] += n
    n = sum(1 for sl in owner.locus if sl.card == card)
    if n:
        spots["in the Locus"] += n
    for p in s.players:
        if p.id != owner.id:
            n = sum(1 for c in p.captured if c == card)
            if n:
                spots[f"captured by {p.id}"] += n
    n = sum(1 for i in s.chain if i.player == owner.id and i.card == card and i.kind != "ability")
    if n:
        spots["on the X-play chain"] += n
    if not spots:
        return f"no {card} can be in {owner.id}'s deck"
    total = sum(spots.values())
    listed = ", ".join(f"{n} {label}" for label, n in spots.items())
    return f"all {total} cop{'y' if total == 1 else 'ies'} {owner.id} can have are already accounted for: {listed}"


def problem(s: Any, owner: Any, zone: tuple[str, ...], card: str, what: str, rule: str = "CO-39.2") -> tuple[str, str, str] | None:
    """Why ``card`` cannot come from ``zone`` (a zone of ``owner`` that may hold unknown cards):
    (rule, code, message), or None.  Only called when ``card`` is not known to be there."""
    if HIDDEN not in zone:
        return None if card in zone else ("CO-4.4", "not-in-hand", what)
    if zone is owner.hand and hand_problem(owner, card, what) is not None:
        return hand_problem(owner, card, what)
    if card in owner.unseen:
        return breaks_construction(s, owner, card, s_pool(s))
    return (rule, "impossible-identity", f"{what}: it can only be one of {owner.id}'s unknown cards, but {where(s, owner, card)}")


def s_pool(s: Any) -> Pool:
    """The pool of position ``s``: the one the working position found for its verification
    (:data:`~.state.Position`), else the one its set-up names in the data sources in effect."""
    return s.pool if s.__class__ is Position else POOLS.of_setup(s.setup)


def take_named(zone: tuple[str, ...], unseen: tuple[str, ...], card: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``zone`` without ``card`` (a known copy, else one unknown card, ``unseen`` losing ``card``)."""
    if card in zone:
        return remove_one(zone, card), unseen
    if HIDDEN in zone:
        return remove_one(zone, HIDDEN), (remove_one(unseen, card) if card in unseen else unseen)
    return zone, unseen


def take_unknown(zone: tuple[str, ...], unseen: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """``zone`` without one card the record does not name, the new ``unseen`` and that card's
    identity: ``"?"``, or the card itself when every card of the zone is the same; a zone of
    known cards becomes unknown (its cards join ``unseen``)."""
    if not zone:
        return zone, unseen, HIDDEN
    if len(set(zone)) == 1:
        return zone[1:], unseen, zone[0]
    known = [c for c in zone if c != HIDDEN]
    if known:
        unseen = tuple(sorted(unseen + tuple(known)))
    return (HIDDEN,) * (len(zone) - 1), unseen, HIDDEN


def could_be(owner: Any, pool: Pool, test: Any) -> bool:
    """Some identity in ``owner.unseen`` passes ``test`` (a card -> bool)."""
    return any(test(pool[c]) for c in set(owner.unseen) if c in pool)


def possible(owner: Any) -> list[str]:
    """The identities an unknown card of ``owner`` can still be, each once, sorted."""
    return sorted(set(owner.unseen))


def hand_could(old: Any, hand: tuple[str, ...], unseen: tuple[str, ...]) -> tuple[str, ...]:
    """CO-39.8: which cards the unknown cards of ``hand`` are among, when ``old``'s hand becomes
    ``hand`` and its ``unseen`` ``unseen``: a sorted multiset (``"?"``: any card of ``unseen``),
    empty for no limit.  Read off the change alone (every change of a hand goes through
    ``positions.with_player``): known cards that became unknown (an unnamed card left: the record
    does not say which, :func:`take_unknown`) join the cards the unknown ones can be; an identity
    named from the unknown ones (it left ``unseen``) leaves them; an unknown card added (an
    unnamed draw) adds a ``"?"``.  An unknown card leaving unnamed leaves them as they are: one
    fewer card is among the same ones."""
    left = hand.count(HIDDEN)
    if not left:
        return ()
    could = Counter(old.hand_could or (HIDDEN,) * old.hand.count(HIDDEN))
    gone = Counter(c for c in old.hand if c != HIDDEN) - Counter(c for c in hand if c != HIDDEN)
    became = Counter(unseen) - Counter(old.unseen)
    joined = gone & became  # known cards now unknown
    could += joined
    named = Counter(old.unseen) - Counter(unseen)
    for c in sorted(named.elements()):
        if could[c] > 0:
            could[c] -= 1
        elif could[HIDDEN] > 0:
            could[HIDDEN] -= 1
    added = left - (old.hand.count(HIDDEN) + sum(joined.values()) - sum(named.values()))
    if added > 0:
        could[HIDDEN] += added
    out = tuple(sorted(could.elements()))
    if all(c == HIDDEN for c in out) or len(out) < left:
        return ()
    return out


def hand_problem(owner: Any, card: str, what: str) -> tuple[str, str, str] | None:
    """CO-39.8: why ``card`` cannot be one of the unknown cards of ``owner``'s hand, when the
    record knows which cards those are among (:func:`hand_could`), or None."""
    could = owner.hand_could
    if not could or card in could or HIDDEN in could:
        return None
    return ("CO-39.8", "impossible-identity", f"{what}: {owner.id}'s unknown hand cards can only be among "
                                              f"{', '.join(could)} (a card left that hand unnamed; the record knew the rest)")
