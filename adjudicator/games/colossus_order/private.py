"""Private information (CO-41 to CO-43): a look at a hand or the top of a deck, the cards put back in
an order, the top of a deck moved into the Locus.

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.kit import applies, checks, head
from adjudicator.core.kernel.events import HIDDEN, CardsLooked, CardsMoved, CardsReordered
from adjudicator.core.kernel.rulings import Illegal, Ruling, legal
from adjudicator.core.kernel.notation import kind_words

from . import deck, unknowns
from .state import LocusSlot, Look, MoveCards, Player, Reorder, State, ToLocus
from .positions import NS, bad, pool_of, contains_multiset, with_player, push


class Private:
    """Private information."""

    def private_step(self, s: State, e: Any, task: type) -> Any:
        """The head task of type ``task`` that ``e`` (a core private-information event) answers."""
        h = head(s)
        who = getattr(e, "player", None) or getattr(e, "owner", None)
        if type(h) is not task or h.player != who:
            raise self.out_of_step(s, e)
        if e.source is not None and e.source != (h.source or None):  # informational, but never another card's
            rule = ("CO-43" if task is ToLocus else "CO-46" if task is MoveCards else
                    {"hand": "CO-41", "locus": "CO-47"}.get(h.zone, "CO-42") if task is Look else "CO-42")
            raise bad(rule, "private-source", f"{kind_words(e)}: source {e.source!r}, but {h.source or 'no card'} "
                                              f"lets {who} do this (the source may be left out)")
        return h

    @checks(CardsLooked, rule="CO-41")
    def c_looked(self, s: State, e: CardsLooked) -> Ruling | None:
        h = self.private_step(s, e, Look)
        if h.zone == "locus":  # CO-47 (moves.py)
            self.c_locus_look(s, e)
            return legal("CO-47", NS + "ok", f"{e.player} looks at {len(e.cards)} of {e.owner}'s face-down Locus cards")
        rule = "CO-41" if h.zone == "hand" else "CO-42"
        if e.owner != h.owner or e.zone != h.zone or e.slots is not None:
            what = "hand" if h.zone == "hand" else f"top {h.count} cards of the deck"
            raise bad(rule, "look-what", f"{e.player} looks at {e.owner}'s {e.zone}{' slots' if e.slots else ''}, but "
                                         f"{h.source} shows {e.player} {h.owner}'s {what} (zone {h.zone!r})")
        if h.zone == "hand":
            self.name_in_hand(s, s.player(e.owner), e.cards, f"{e.player} looks at {e.owner}'s hand")
            return None
        self.from_top(s, s.player(e.owner), e.cards, h.count, f"{e.player} looks at the top {h.count} cards of "
                                                                f"{e.owner}'s deck", rule)
        return legal(rule, NS + "ok", f"{e.player} looks at the top {h.count} cards of {e.owner}'s deck")

    def name_in_hand(self, s: State, owner: Player, cards: list[Any], what: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """CO-41: ``cards`` (``"?"`` where the record does not name one) are ``owner``'s whole hand:
        the hand and ``unseen`` with the named unknown cards named (raises Illegal otherwise)."""
        hand, unseen = owner.hand, owner.unseen
        if len(cards) != len(hand):
            raise bad("CO-41", "look-count", f"{what}: {owner.id} holds {len(hand)} cards, the event names {len(cards)}")
        known = list(c for c in hand if c != HIDDEN)
        out: list[str] = []
        shown: list[str] = []  # named from the unknown cards by this look: they count (CO-39.1)
        for c in sorted(c for c in cards if not unknowns.unknown(c)):
            if c in known:
                known.remove(c)
            elif HIDDEN in hand and c in unseen:
                problem = unknowns.hand_problem(owner, c, what) or unknowns.breaks_construction(s, owner, c, pool_of(s), shown)
                if problem is not None:
                    raise bad(*problem)
                unseen = unknowns.remove_one(unseen, c)
                shown.append(c)
            else:
                where = unknowns.where(s, owner, c) if HIDDEN in hand else f"{owner.id}'s hand holds {', '.join(sorted(hand)) or 'nothing'}"
                raise bad("CO-41", "not-in-hand", f"{what} and sees {c}, but {where}")
            out.append(c)
        left = sum(1 for c in cards if unknowns.unknown(c))
        return tuple(out) + tuple(known[:left]) + (HIDDEN,) * max(0, left - len(known)), unseen

    def from_top(self, s: State, owner: Player, cards: list[Any], count: int, what: str, rule: str) -> Player:
        """CO-42/CO-43: ``cards`` (top first) can be the top ``count`` cards of ``owner``'s deck in that
        order, as far as it is known (CO-2.6); ``owner`` with them taken (raises Illegal otherwise)."""
        if len(cards) != count:
            raise bad(rule, "look-count", f"{what}: the event names {len(cards)} cards, the effect {count}")
        p, as_listed = owner, self.as_listed(s)
        shown: list[str] = []  # named from the unknown cards by this look: they count (CO-39.1)
        for i, c in enumerate(cards):
            if unknowns.unknown(c):
                p = deck.take_unknown_top(p, as_listed)[0]
                continue
            problem = deck.next_problem(p, c, as_listed, "has")
            taken = deck.take(p, c, as_listed) if problem is None else p
            if problem is None and len(taken.unseen) < len(p.unseen):  # (``owner``: the cards named before are still in its zones)
                problem = unknowns.breaks_construction(s, owner, c, pool_of(s), shown)
                shown.append(c)
            if problem is not None:
                raise bad(problem[0], problem[1], f"{what}: card {i + 1} from the top is {c}, but {problem[2].split(', but ', 1)[-1]}")
            p = taken
        return p

    def taken_from_top(self, s: State, owner: Player, cards: list[Any]) -> tuple[Player, tuple[str, ...]]:
        """``owner`` with ``cards`` taken from the top of the deck in order, and their identities as the
        position knows them (``"?"``: one of ``unseen``)."""
        p, as_listed, out = owner, self.as_listed(s), []
        for c in cards:
            if unknowns.unknown(c):
                p, card = deck.take_unknown_top(p, as_listed)
            else:
                p, card = deck.take(p, c, as_listed), c
            out.append(card)
        return p, tuple(out)

    @applies(CardsLooked)
    def a_looked(self, s: State, e: CardsLooked) -> State:
        if e.zone == "locus":  # CO-47 (moves.py)
            return self.a_locus_look(s, e)
        owner = s.player(e.owner)
        if e.zone == "hand":
            if HIDDEN in owner.hand and any(not unknowns.unknown(c) for c in e.cards):  # CO-41: the record names them
                try:
                    hand, unseen = self.name_in_hand(s, owner, list(e.cards), "")
                    s = with_player(s, e.owner, hand=hand, unseen=unseen)
                except Illegal:
                    pass  # an unchecked look (a judge let it stand): nothing is learnt
            return push(s, drop=1) if type(head(s)) is Look else s
        p, seen = self.taken_from_top(s, owner, list(e.cards))
        if (len(set(owner.deck_mixed)) > 1 or owner.mixed_could) and len(e.cards) > len(owner.deck_known) + len(owner.deck_peek) \
                and all(unknowns.unknown(c) for c in e.cards):  # CO-42.3: a look this record saw,
            s = push(s, drop=1) if type(head(s)) is Look else s  # not its cards, reaching into a set it knows: the deck is as it was
            h = head(s)
            return push(s, replace(h, seen=False), drop=1) if type(h) is Reorder and h.owner == e.owner else s
        if p.deck_known:  # the look covered some of the cards known on top: the rest lie below the looked-at ones now
            p = replace(p, deck_known=(), known_why=(), deck_peek=p.deck_known + p.deck_peek)  # (known to the looker too)
        s = self.with_seat(s, replace(p, deck_peek=seen + p.deck_peek, peek_by=e.player))
        return push(s, drop=1) if type(head(s)) is Look else s

    @checks(CardsReordered, rule="CO-42")
    def c_reordered(self, s: State, e: CardsReordered) -> None:
        h = self.private_step(s, e, Reorder)
        if e.owner != h.owner or e.zone != "deck-top":
            raise bad("CO-42", "look-what", f"{e.player} puts back cards on {e.owner}'s {e.zone}, but the cards looked at "
                                            f"go back on top of {h.owner}'s deck (zone 'deck-top')")
        peek = s.player(h.owner).deck_peek[: h.count] if h.seen else (HIDDEN,) * h.count  # (CO-42.3)
        if len(e.cards) != h.count:
            raise bad("CO-42", "look-count", f"{e.player} puts back {len(e.cards)} cards; {h.count} were looked at")
        named = [c for c in e.cards if not unknowns.unknown(c)]
        if named and len(named) != len(e.cards):
            raise bad("CO-42", "reorder-cards", f"{e.player} names some of the cards put back and not others: a record names "
                                                f"all (the looking seat) or none")
        if named and HIDDEN not in peek and Counter(named) != Counter(peek):
            raise bad("CO-42", "reorder-cards", f"{e.player} puts back {', '.join(named)}, but looked at {', '.join(peek)}")
        if named and HIDDEN in peek:
            rest = Counter(named)
            rest.subtract(Counter(c for c in peek if c != HIDDEN))
            if any(v < 0 for v in rest.values()) or not contains_multiset(s.player(h.owner).unseen, list(rest.elements())):
                raise bad("CO-42", "reorder-cards", f"{e.player} puts back {', '.join(named)}, which cannot be the cards looked at")

    @applies(CardsReordered)
    def a_reordered(self, s: State, e: CardsReordered) -> State:
        p = s.player(e.owner)
        n = len(e.cards)
        h = head(s)
        looked = type(h) is not Reorder or h.seen  # the record named the look (CO-42.3)
        if any(unknowns.unknown(c) for c in e.cards):  # CO-42.3: the new order is unknown to this record, the cards are not
            s = self.with_seat(s, deck.mixed_top(p, n, self.as_listed(s)))
            return push(s, drop=1) if type(head(s)) is Reorder else s
        if not looked:  # a look this record did not see, then its order named: those are the top cards now
            p, _ = self.taken_from_top(s, p, [HIDDEN] * n)
            p = replace(p, deck_peek=(HIDDEN,) * n + p.deck_peek, peek_by=e.player)
        peek, rest = p.deck_peek[:n], p.deck_peek[n:]
        unseen = p.unseen
        new = tuple(e.cards)  # type: ignore[arg-type]
        for c in sorted(Counter(new) - Counter(c for c in peek if c != HIDDEN)):
            if c in unseen:
                unseen = unknowns.remove_one(unseen, c)
        s = self.with_seat(s, replace(p, deck_peek=new + rest, unseen=unseen))
        return push(s, drop=1) if type(head(s)) is Reorder else s

    @checks(CardsMoved, rule="CO-43")
    def c_moved(self, s: State, e: CardsMoved) -> None:
        if type(head(s)) is MoveCards:  # CO-46 (moves.py)
            self.private_step(s, e, MoveCards)
            return self.c_card_move(s, e)
        h = self.private_step(s, e, ToLocus)
        if e.owner != h.player or (e.player is not None and e.player != h.player) or e.from_zone != "deck" or e.to_zone != "locus":
            raise bad("CO-43", "move-what", f"cards moved of {e.owner}'s cards from {e.from_zone} to {e.to_zone}, but {h.source} "
                                            f"moves the top of {h.player}'s deck to {h.player}'s Locus (deck -> locus)")
        if list(e.seen_by) != [h.player]:
            raise bad("CO-43", "seen-by", f"the cards go into the Locus face down, seen by {h.player} alone: seen_by "
                                          f"must be [{h.player!r}], not {list(e.seen_by)}")
        p = s.player(h.player)
        if e.slots is not None and list(e.slots) != list(range(p.next_slot, p.next_slot + h.count)):
            raise bad("CO-43", "move-slots", f"the new Locus slots are {list(range(p.next_slot, p.next_slot + h.count))}, "
                                             f"the event names {list(e.slots)}")
        self.from_top(s, p, list(e.cards), h.count, f"{h.player} moves the top {h.count} cards of the deck to the Locus", "CO-43")

    @applies(CardsMoved)
    def a_moved(self, s: State, e: CardsMoved) -> State:
        if type(head(s)) is MoveCards:  # CO-46 (moves.py)
            return self.a_card_move(s, e)
        p, cards = self.taken_from_top(s, s.player(e.owner), list(e.cards))
        slots = tuple(LocusSlot(p.next_slot + i, c) for i, c in enumerate(cards))
        s = self.with_seat(s, replace(p, locus=p.locus + slots, next_slot=p.next_slot + len(slots)))
        return push(s, drop=1) if type(head(s)) is ToLocus else s
