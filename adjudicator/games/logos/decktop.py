"""LG-44: a look at the top of one's own deck, with a reorder (the pool's ``look-deck``).

The deck is a sorted multiset (nobody knows its order) above which a look puts what it saw:
``Player.top``, the cards known on top in order, top first (Colossus Order keeps its deck in the
same layers, CO-42.3).  When a ``look-deck`` effect fires the battle waits (step ``look``) for the
cards seen, a random outcome the log states as the core's ``CardsLooked`` (the owner's own deck,
zone ``deck-top``): as many as the deck holds, up to the count, the known top first.  With
``reorder`` (and two cards or more seen) it then waits (step ``reorder``) for the owner's choice,
``CardsReordered``.  Every later draw takes the first known card (a draw of another card is
illegal, in the full log and in the record of the seat that looked: the only records that know
it).  The opponent's record has the looks with ``"?"`` (the core's redaction of private events):
it learns how many cards were seen, never which.

A mixin of :class:`~.rules.Rules` (its check and apply handlers are found by the kit through the
class's bases); pure: a check raises or returns, an apply writes the working position it is given.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN, CardsLooked, CardsReordered
from adjudicator.core.kernel.kit import applies, checks
from adjudicator.core.kernel.rulings import Illegal
from adjudicator.core.kernel.notation import kind_words

from . import unknowns as U
from .phases import Phases
from .rulebook import bad
from .state import DeckLook, Player, State
from .zones import with_player

ZONE = "deck-top"


def known_cards(cards: list[Any]) -> list[str]:
    """The cards of a look or a reorder that the record names (``"?"`` and null are unknown)."""
    return [c for c in cards if not U.unknown(c)]


def next_top(p: Player, card: str | None) -> tuple[str, ...]:
    """``p``'s known top after it drew ``card`` (unknown: the first known card, whatever it is):
    the first card leaves it; a card drawn from below (a draw a judge let stand, LG-40) leaves it
    as it was, unless every copy left in the deck is in it (then that one leaves it)."""
    top = p.top
    if top and (U.unknown(card) or top[0] == card):
        return top[1:]
    if card in top and p.deck.count(card) <= top.count(card):
        i = top.index(card)
        return top[:i] + top[i + 1:]
    return top


def draw_problem(p: Player, card: str | None) -> Illegal | None:
    """LG-44: a draw of ``p``'s that is not the first card known on top of its deck."""
    if p.top and not U.unknown(card) and card != p.top[0]:
        return bad("LG-44", "not-top", f"{p.id} draws {card}, but the top card of {p.id}'s deck is {p.top[0]} "
                                       f"(a look put {', '.join(p.top)} on top, in that order)")
    return None


def _rest(p: Player) -> list[str]:
    """The cards of ``p``'s deck below the known top (a multiset)."""
    rest = list(p.deck)
    for c in p.top:
        if c in rest:
            rest.remove(c)
    return rest


def top_problem(p: Player, cards: list[str]) -> str | None:
    """Why ``cards`` (top first) cannot be the top of ``p``'s deck (its cards all known), or None."""
    rest = _rest(p)
    for i, c in enumerate(cards):
        if i < len(p.top):
            if c != p.top[i]:
                return f"card {i + 1} from the top is {p.top[i]} (seen before, LG-44), not {c}"
        elif c in rest:
            rest.remove(c)
        else:
            return f"the deck holds no {'other ' if c in p.deck else ''}{c} to be card {i + 1} from the top"
    return None


def sequences(p: Player, n: int) -> list[tuple[str, ...]]:
    """Every distinct top ``n`` cards ``p``'s deck (all known) can show, each once, in id order."""
    head = p.top[:n]
    rest = Counter(_rest(p))
    out: list[tuple[str, ...]] = []

    def grow(seq: tuple[str, ...]) -> None:
        if len(seq) == n:
            out.append(seq)
            return
        for c in sorted(rest):
            if rest[c] > 0:
                rest[c] -= 1
                grow(seq + (c,))
                rest[c] += 1

    grow(head)
    return out


class DeckTop(Phases):
    """The check and apply handlers of LG-44's look and reorder, and their candidates."""

    def look_size(self, s: State, p: Player, look: DeckLook) -> int | None:
        """How many cards the look shows: the count, or the whole deck when it holds fewer; None
        when the record does not know the deck's size (then any number up to the count)."""
        if p.deck_open:
            return None
        return min(look.count, len(p.deck))

    def look_step(self, s: State, e: Any, step: str) -> DeckLook:
        look = s.look
        if s.phase != "battle" or s.step != step or look is None or e.player != look.player:
            raise self.out_of_step(s, e)
        if e.owner != look.player or e.zone != ZONE or getattr(e, "slots", None) is not None:
            raise bad("LG-44", "look-what", f"{kind_words(e)}: {look.source} shows {look.player} the top of its own "
                                            f"deck (owner {look.player!r}, zone {ZONE!r}), not {e.owner}'s {e.zone}")
        if e.source is not None and e.source != look.source:
            raise bad("LG-44", "look-source", f"{kind_words(e)}: source {e.source!r}, but {look.source} lets "
                                              f"{look.player} look (the source may be left out)")
        named = known_cards(e.cards)
        if named and len(named) != len(e.cards):
            raise bad("LG-44", "look-cards", f"{kind_words(e)} names some cards and not others: a record names all "
                                             "(the looking seat's) or none")
        return look

    @checks(CardsLooked, rule="LG-44")
    def c_deck_looked(self, s: State, e: CardsLooked) -> None:
        look = self.look_step(s, e, "look")
        p = s.player(look.player)
        n, want = len(e.cards), self.look_size(s, p, look)
        if (want is not None and n != want) or n > look.count:
            held = f"its deck holds {len(p.deck)}" if want is not None else "no more"
            raise bad("LG-44", "look-count", f"{look.player} looks at {n} card(s) of its deck's top, but {look.source} "
                                             f"shows {look.count} ({held}): {want if want is not None else look.count}")
        named = known_cards(e.cards)
        if not named:
            return
        if p.unknown:  # a record that does not know the deck: each must be a card it can still hold
            q = p
            for c in named:
                U.check_reveal(s, q, c, f"{look.player} sees {c} on top of its deck")
                q = U.take(s, q, c)
            return
        why = top_problem(p, named)
        if why is not None:
            raise bad("LG-44", "not-top", f"{look.player} looks at the top of its deck and sees {', '.join(named)}, but {why}")

    @applies(CardsLooked, CardsReordered)
    def a_deck_look(self, s: State, e: Any) -> State:
        """The look or the reorder ``e`` answers; where none is under way (LG-40: an event a judge
        let stand), nothing changes."""
        look = s.look
        if look is None or s.step != ("look" if type(e) is CardsLooked else "reorder"):
            return s
        fn = self.deck_looked if type(e) is CardsLooked else self.deck_reordered
        return fn(s, e, look, s.player(look.player), known_cards(e.cards))

    def deck_looked(self, s: State, e: CardsLooked, look: DeckLook, p: Player, named: list[str]) -> State:
        if named and len(named) == len(e.cards) and not p.unknown and top_problem(p, named) is None:
            s = with_player(s, p.id, top=tuple(named) + p.top[len(named):])
        if look.reorder and len(e.cards) >= 2:
            s.step, s.look = "reorder", replace(look, count=len(e.cards))
        else:
            s.step, s.look = look.then, None
        return s

    @checks(CardsReordered, rule="LG-44")
    def c_deck_reordered(self, s: State, e: CardsReordered) -> None:
        look = self.look_step(s, e, "reorder")
        p = s.player(look.player)
        if len(e.cards) != look.count:
            raise bad("LG-44", "look-count", f"{look.player} puts back {len(e.cards)} card(s); it looked at {look.count}")
        named = known_cards(e.cards)
        if not named:
            return
        if not p.unknown and len(p.top) >= look.count:
            if Counter(named) != Counter(p.top[:look.count]):
                raise bad("LG-44", "reorder-cards", f"{look.player} puts back {', '.join(named)}, but looked at "
                                                    f"{', '.join(p.top[:look.count])}")
            return
        if p.unknown:
            q = p
            for c in named:
                U.check_reveal(s, q, c, f"{look.player} puts {c} back on top of its deck")
                q = U.take(s, q, c)
        elif (why := top_problem(replace(p, top=()), sorted(named))) is not None:
            raise bad("LG-44", "reorder-cards", f"{look.player} puts back {', '.join(named)}, but {why}")

    def deck_reordered(self, s: State, e: CardsReordered, look: DeckLook, p: Player, named: list[str]) -> State:
        n = len(e.cards)
        if named and len(named) == n and not p.unknown:
            if Counter(named) == Counter(p.top[:n]):
                s = with_player(s, p.id, top=tuple(named) + p.top[n:])
            elif not p.top and top_problem(p, sorted(named)) is None:  # (a look the record did not see)
                s = with_player(s, p.id, top=tuple(named))
        elif p.top[:n] and not named:  # the new order is unknown to this record: the top is no longer known
            s = with_player(s, p.id, top=())
        s.step, s.look = look.then, None
        return s

    def look_candidates(self, s: State) -> list[Any]:
        """Every look or reorder the position can take (step ``look`` or ``reorder``)."""
        look = s.look
        if look is None:
            return []
        p = s.player(look.player)
        src = look.source
        if s.step == "reorder":
            seen = p.top[: look.count] if len(p.top) >= look.count and not p.unknown else (HIDDEN,) * look.count
            return [CardsReordered(player=p.id, owner=p.id, zone=ZONE, cards=list(c), source=src)
                    for c in sorted(set(permutations(seen)))]
        n = self.look_size(s, p, look)
        if p.unknown or n is None:
            sizes = [n] if n is not None else list(range(look.count + 1))
            return [CardsLooked(player=p.id, owner=p.id, zone=ZONE, cards=[HIDDEN] * k, source=src) for k in sizes]
        return [CardsLooked(player=p.id, owner=p.id, zone=ZONE, cards=list(c), source=src) for c in sequences(p, n)]
