"""Own cards' moves and looks (CO-46, CO-47): a ``move`` effect takes up to N of the controller's
cards from its hand, face-down Locus, deck top or discard pile to another zone (hand, deck top or
bottom, Locus face up or down, discard pile), seen by its owner or by both (a card of the face-up
discard pile by both, and it stays known to both wherever it goes), each passing a filter; a
``look-locus`` effect shows the controller face-down Locus cards of the opponent's.

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (``private`` hands it the
``CardsMoved`` and ``CardsLooked`` these steps owe); pure: check handlers raise, apply handlers
return a new position.  In a seat's record a card the seat did not see is ``"?"``: taken from a
hand it is one of the hand's unknown cards (CO-39.8), from a Locus slot it is what the slot held.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN, CardsLooked, CardsMoved
from adjudicator.core.kernel.kit import head, push

from . import unknowns
from .cards import Card
from .positions import bad, pool_of, remove_many, with_player
from .selections import multiset_combinations
from .state import LocusSlot, Look, MoveCards, Player, State

#: what a filter's kind names (CO-46)
_KINDS = {"gem": lambda c: c.is_gem, "follower": lambda c: c.is_follower, "action": lambda c: c.is_action}


def passes(card: Card, only: tuple[str | None, str | None, str | None]) -> bool:
    """``card`` meets the filter ``only`` (kind, colour, card id; None: any)."""
    kind, colour, cid = only
    return (kind is None or _KINDS[kind](card)) and (colour is None or card.colour == colour) and (cid is None or card.id == cid)


def describe_filter(only: tuple[str | None, str | None, str | None]) -> str:
    kind, colour, cid = only
    words = [w for w in (colour, kind, f"card {cid}" if cid else None) if w]
    return " ".join(words) or "any card"


def _unknown_slot(sl: LocusSlot) -> bool:
    return sl.card is None or sl.card == HIDDEN


class Moves:
    """Own cards' moves and looks at face-down Locus cards."""

    def move_seers(self, s: State, h: MoveCards) -> list[str]:
        return sorted(p.id for p in s.players) if h.seen_by == "both" else [h.player]

    def c_card_move(self, s: State, e: CardsMoved) -> None:
        h = head(s)
        if e.owner != h.player or (e.player is not None and e.player != h.player) or (e.from_zone, e.to_zone) != (h.from_zone, h.to_zone):
            raise bad("CO-46", "move-what", f"cards moved of {e.owner}'s cards from {e.from_zone} to {e.to_zone}, but {h.source} "
                                            f"moves up to {h.count} of {h.player}'s cards from {h.from_zone} to {h.to_zone}")
        seers = self.move_seers(s, h)
        if sorted(e.seen_by) != seers:
            raise bad("CO-46", "seen-by", f"{h.source} shows the cards to {' and '.join(seers)}: seen_by must be {seers}, "
                                          f"not {list(e.seen_by)}")
        p = s.player(h.player)
        what = f"{h.player} moves {len(e.cards)} cards from {h.from_zone} to {h.to_zone}"
        if h.from_zone == "deck-top":
            self.from_top(s, p, list(e.cards), min(h.count, p.deck_count), what, "CO-46")
        else:
            size = len(p.hand) if h.from_zone == "hand" else len(p.discard) if h.from_zone == "discard" else sum(
                1 for sl in p.locus if not sl.face_up)
            if len(e.cards) > min(h.count, size):
                raise bad("CO-46", "move-count", f"{what}, but {h.source} moves up to {h.count} and {h.from_zone} holds {size}")
            if h.from_zone == "hand":
                self.named_in_hand(s, p, list(e.cards), what)
            elif h.from_zone == "discard":
                self.named_in_discard(p, list(e.cards), what)
            else:
                self.named_in_slots(s, p, list(e.cards), e.slots, what, "CO-46")
        pool = pool_of(s)
        for c in e.cards:
            if not unknowns.unknown(c) and not passes(pool[c], h.only):
                raise bad("CO-46", "move-filter", f"{what}: {c} is not a {describe_filter(h.only)} ({h.source} moves only those)")
        if h.slots is not None and e.to_zone.startswith("locus") and len(e.cards) > len(h.slots):
            raise bad("CO-46", "move-count", f"{what}, but only the {len(h.slots)} emptied Locus slots can take them")

    def named_in_hand(self, s: State, p: Player, cards: list[Any], what: str) -> None:
        """Each named card of ``cards`` is in ``p``'s hand, or one its unknown cards can be."""
        hand, unseen = p.hand, p.unseen
        for c in sorted(c for c in cards if not unknowns.unknown(c)):
            if c not in hand:
                problem = unknowns.problem(s, replace(p, hand=hand, unseen=unseen), hand, c, f"{what}: {c} is not in hand")
                if problem is not None:
                    raise bad(*problem)
            hand, unseen = unknowns.take_named(hand, unseen, c)

    def named_in_discard(self, p: Player, cards: list[Any], what: str) -> None:
        """CO-46: the discard pile is face up, so every card taken from it is named (in every seat's
        record: the move is seen by both), and is in ``p``'s discard pile (repeats counted)."""
        left = Counter(p.discard)
        for c in cards:
            if unknowns.unknown(c):
                raise bad("CO-46", "not-in-discard", f"{what}: the discard pile is face up, so each card taken from it is "
                                                     f"named, not {c!r}")
            if left[c] <= 0:
                held = ", ".join(sorted(set(p.discard))) or "nothing"
                raise bad("CO-46", "not-in-discard", f"{what}: {c} is not in {p.id}'s discard pile"
                                                     f"{' (no other copy)' if c in p.discard else ''} (it holds {held})")
            left[c] -= 1

    def named_in_slots(self, s: State, p: Player, cards: list[Any], slots: list[int] | None, what: str, rule: str) -> None:
        """``slots`` name one face-down Locus slot of ``p`` per card, each once; a named card is the
        slot's card, or one an unknown slot's card can be."""
        down = {sl.id: sl for sl in p.locus if not sl.face_up}
        if slots is None or len(slots) != len(cards) or len(set(slots)) != len(slots) or any(x not in down for x in slots):
            raise bad(rule, "move-slots", f"{what}: slots must name one of {p.id}'s face-down Locus slots per card, each "
                                          f"once ({sorted(down)}), not {slots}")
        for c, x in zip(cards, slots):
            sl = down[x]
            if unknowns.unknown(c):
                continue
            if not _unknown_slot(sl) and c != sl.card:
                raise bad(rule, "not-in-slot", f"{what}: slot {x} holds {sl.card}, not {c}")
            if _unknown_slot(sl) and c not in p.unseen:
                raise bad(rule, "impossible-identity", f"{what}: slot {x} holds {c}, but {unknowns.where(s, p, c)}")

    def a_card_move(self, s: State, e: CardsMoved) -> State:
        h = head(s)
        p = s.player(e.owner)
        changes: dict[str, Any] = {}
        emptied: tuple[int, ...] = ()
        if e.from_zone == "deck-top":
            p, ids = self.taken_from_top(s, p, list(e.cards))
            s = self.with_seat(s, p)
        elif e.from_zone == "hand":
            hand, unseen, out = p.hand, p.unseen, []
            for c in e.cards:
                if unknowns.unknown(c):
                    hand, unseen, c = unknowns.take_unknown(hand, unseen)
                elif c in hand:
                    hand = remove_many(hand, [c])
                else:
                    hand, unseen = unknowns.take_named(hand, unseen, c)
                out.append(c)
            ids = tuple(out)
            changes.update(hand=hand, unseen=unseen)
        elif e.from_zone == "discard":  # (named: checked; applied as stated, a card the pile lacks leaves it nothing)
            ids = tuple(c if c is not None else HIDDEN for c in e.cards)
            changes.update(discard=remove_many(p.discard, (Counter(ids) & Counter(p.discard)).elements()))
        else:
            taken = dict(zip(e.slots or [], e.cards))
            unseen, out = p.unseen, []
            for sl in p.locus:
                if sl.id in taken:
                    c = taken[sl.id]
                    if unknowns.unknown(c):
                        c = HIDDEN if _unknown_slot(sl) else sl.card
                    elif _unknown_slot(sl) and c in unseen:
                        unseen = unknowns.remove_one(unseen, c)
                    out.append((list(taken).index(sl.id), c))
            ids = tuple(c for _, c in sorted(out))
            emptied = tuple(x for x in (e.slots or []))
            changes.update(locus=tuple(sl for sl in p.locus if sl.id not in taken), unseen=unseen)
        s = self.put_moved(s, e, h, ids, changes)
        s = push(s, drop=1) if type(head(s)) is MoveCards else s
        nxt = head(s)
        if e.from_zone == "locus-down" and type(nxt) is MoveCards and nxt.emptied:  # a swap: the next move fills these slots (none: none)
            s = push(s, replace(nxt, slots=emptied), drop=1)
        return s

    def put_moved(self, s: State, e: CardsMoved, h: Any, ids: tuple[str, ...], changes: dict[str, Any]) -> State:
        """``s`` with the cards ``ids`` (``"?"``: unknown here) put into the move's destination."""
        p = s.player(e.owner)
        to = e.to_zone
        if to == "hand":
            changes["hand"] = changes.get("hand", p.hand) + ids
        elif to == "discard":
            changes["discard"] = p.discard + ids
        elif to == "deck-bottom":
            changes["deck_under"] = p.deck_under + ids
        elif to == "deck-top":
            why = f"put on top by {h.source or 'a move'} on turn {s.turn}"
            changes.update(deck_known=ids + p.deck_known, known_why=(why,) * len(ids) + p.known_why)
        else:
            locus = changes.get("locus", p.locus)
            up = to == "locus-up"
            given = list(h.slots) if h.slots is not None else list(range(p.next_slot, p.next_slot + len(ids)))
            slots = tuple(LocusSlot(x, c, face_up=up, known=up or h.seen_by == "both") for x, c in zip(given, ids))
            changes.update(locus=locus + slots, next_slot=max([p.next_slot] + [x + 1 for x in given[:len(ids)]]))
        return with_player(s, e.owner, **changes)

    # -- a look at face-down Locus cards (CO-47) ---------------------------------------------------

    def c_locus_look(self, s: State, e: CardsLooked) -> None:
        h = head(s)
        owner = s.player(h.owner)
        if e.owner != h.owner or e.zone != "locus":
            raise bad("CO-47", "look-what", f"{e.player} looks at {e.owner}'s {e.zone}, but {h.source} shows {e.player} "
                                            f"face-down Locus cards of {h.owner}'s (zone 'locus', with slots)")
        down = sum(1 for sl in owner.locus if not sl.face_up)
        if len(e.cards) != min(h.count, down):
            raise bad("CO-47", "look-count", f"{e.player} looks at {len(e.cards)} Locus cards, but {h.source} shows "
                                             f"{min(h.count, down)} ({down} face down)")
        self.named_in_slots(s, owner, list(e.cards), e.slots, f"{e.player} looks at {h.owner}'s Locus", "CO-47")

    def a_locus_look(self, s: State, e: CardsLooked) -> State:
        p = s.player(e.owner)
        seen = dict(zip(e.slots or [], e.cards))
        unseen, locus = p.unseen, []
        for sl in p.locus:
            if sl.id in seen:
                c = seen[sl.id]
                if _unknown_slot(sl) and not unknowns.unknown(c) and c in unseen:
                    unseen = unknowns.remove_one(unseen, c)
                    sl = replace(sl, card=c)
                sl = replace(sl, known=True)
            locus.append(sl)
        s = with_player(s, e.owner, locus=tuple(locus), unseen=unseen)
        return push(s, drop=1) if type(head(s)) is Look else s

    # -- the candidates --------------------------------------------------------------------------

    def move_candidates(self, s: State, h: MoveCards) -> list[CardsMoved]:
        p = s.player(h.player)
        pool = pool_of(s)
        seers = self.move_seers(s, h)

        def moved(cards: Any, slots: Any = None) -> CardsMoved:
            return CardsMoved(owner=h.player, from_zone=h.from_zone, to_zone=h.to_zone, cards=list(cards), seen_by=seers,
                              player=h.player, slots=None if slots is None else list(slots), source=h.source or None)

        room = len(h.slots) if h.slots is not None and h.to_zone.startswith("locus") else h.count
        if h.from_zone == "deck-top":
            return [moved(c) for c in self.top_sequences(p, min(h.count, p.deck_count), self.as_listed(s))]
        if h.from_zone in ("hand", "discard"):  # (the discard pile is face up: its cards are named)
            zone = p.hand if h.from_zone == "hand" else p.discard
            fit = sorted(c for c in zone if (not unknowns.unknown(c) and passes(pool[c], h.only))
                         or (unknowns.unknown(c) and h.from_zone == "hand"))
            return [moved(c) for k in range(min(room, len(fit)) + 1) for c in multiset_combinations(fit, k)]
        down = [sl for sl in p.locus if not sl.face_up and (_unknown_slot(sl) or passes(pool[sl.card], h.only))]
        return [moved([sl.card if not _unknown_slot(sl) else HIDDEN for sl in c], [sl.id for sl in c])
                for k in range(min(room, len(down)) + 1) for c in combinations(down, k)]

    def locus_look_candidates(self, s: State, h: Look) -> list[CardsLooked]:
        owner = s.player(h.owner)
        down = [sl for sl in owner.locus if not sl.face_up]
        return [CardsLooked(player=h.player, owner=h.owner, zone="locus", slots=[sl.id for sl in c],
                            cards=[HIDDEN if _unknown_slot(sl) else sl.card for sl in c], source=h.source or None)
                for c in combinations(down, min(h.count, len(down)))]
