"""Attacks: declaring one, blocking, the battle the engine derives, and what a hit on the deck or the
Locus leads to (CO-7, CO-15, CO-17).

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from msgspec.structs import replace

from adjudicator.core.kernel.kit import applies, checks, derives, head
from adjudicator.core.kernel.commitments import looks_like
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.rulings import Undefined

from . import deck, unknowns
from . import events as E
from .state import (
    Attack, Battle, Block, Capture, Draw, LocusSlot, UnknownLocusHit, ReplaceLocus, Resolve, Reveal, State, Window,
)
from .positions import (
    bad, pool_of, remove_many, contains_multiset, not_ready, with_player, find_follower, with_follower,
    without_follower, push, put, named, card_words,
)


class Combat:
    """Attacks."""

    @checks(E.AttackDeclared, rule="CO-7.1")
    def c_attack(self, s: State, e: E.AttackDeclared) -> None:
        self.open_timing(s, e, "CO-7.1")
        found = find_follower(s, e.attacker)
        if found is None or found[0].id != e.player:
            raise bad("CO-7.2", "not-own-follower", f"{e.attacker!r} is not a follower of {e.player} on the field")
        _, _, f = found
        refused = not_ready(s, f)
        if refused is not None:
            raise refused
        opp = s.opponent(e.player)
        if e.target == "deck":
            if e.slot is not None or e.follower is not None:
                raise bad("CO-7.4", "target-fields", "an attack on the deck names no slot and no follower")
        elif e.target == "locus":
            if e.follower is not None or e.slot not in [sl.id for sl in opp.locus]:
                raise bad("CO-7.4", "no-such-locus", f"{opp.id} has no Locus slot {e.slot} (slots: {[sl.id for sl in opp.locus]})")
        else:
            tf = find_follower(s, e.follower)
            if e.slot is not None or tf is None or tf[0].id != opp.id:
                raise bad("CO-7.4", "no-such-target", f"{e.follower!r} is not a follower of {opp.id} on the field")
            if tf[2].on:
                raise bad("CO-7.4", "target-not-off", f"{named(s, tf[2])} is ON; only a follower in OFF can be attacked")

    @checks(E.BlockDeclared, rule="CO-7.5")
    def c_block(self, s: State, e: E.BlockDeclared) -> None:
        h = head(s)
        if type(h) is not Block or h.player != e.player:
            raise bad("CO-7.5", "block-timing", f"block declared by {e.player}, but the position expects {self.expected(s)}")
        found = find_follower(s, e.blocker)
        if found is None or found[0].id != e.player:
            raise bad("CO-7.5", "not-own-follower", f"{e.blocker!r} is not a follower of {e.player} on the field")
        if not found[2].on:
            raise bad("CO-7.5", "blocker-off", f"{named(s, found[2])} is OFF; only an ON follower can block")

    @checks(E.BlockDeclined, rule="CO-7.5")
    def c_block_declined(self, s: State, e: E.BlockDeclined) -> None:
        h = s.todo[0] if s.todo else None
        if type(h) is not Block or h.player != e.player:
            raise bad("CO-7.5", "block-timing", f"block declined by {e.player}, but the position expects {self.expected(s)}")

    @checks(E.CardsRevealed, rule="CO-7.7")
    def c_revealed(self, s: State, e: E.CardsRevealed) -> None:
        h = head(s)
        if type(h) is not Reveal or h.player != e.player:
            raise self.out_of_step(s, e)
        if len(e.cards) != h.count:
            raise bad("CO-7.7", "reveal-count", f"{h.count} cards are revealed from {e.player}'s deck, the event names {len(e.cards)}")
        if any(c is None for c in e.cards):
            raise bad("CO-2.5", "unknown-identity", "cards revealed must name every revealed card in this version")
        problem = deck.top_fits(s.player(e.player), list(e.cards), self.as_listed(s))  # type: ignore[arg-type]
        if problem is not None:  # CO-2.6: checked card by card, in the order listed
            rule, code, why = problem
            raise bad(rule, code, f"{e.cards} cannot be the top {h.count} cards of {e.player}'s deck, in this order: {why}")
        owner = p = s.player(e.player)
        shown: list[str] = []  # CO-39.1: the cards named from an unknown deck list count, each with those before it
        for c in e.cards:
            taken = deck.take(p, c, self.as_listed(s))  # type: ignore[arg-type]
            if len(taken.unseen) < len(p.unseen):
                problem = unknowns.breaks_construction(s, owner, c, pool_of(s), shown)  # type: ignore[arg-type]
                if problem is not None:
                    raise bad(*problem)
                shown.append(c)  # type: ignore[arg-type]
            p = taken

    @checks(E.GemsCaptured, rule="CO-7.7")
    def c_captured(self, s: State, e: E.GemsCaptured) -> None:
        h = head(s)
        if type(h) is not Capture or h.player != e.player:
            raise self.out_of_step(s, e)
        owner = s.player(h.owner)
        pool = pool_of(s)
        if not contains_multiset(owner.revealed, e.cards):
            raise bad("CO-7.7", "not-revealed", f"{e.cards} are not among the revealed cards {list(owner.revealed)}")
        for c in e.cards:
            if not pool[c].is_gem:
                raise bad("CO-7.7", "not-a-gem", f"{card_words(s, c)} is not a Gem card and cannot be captured")
        if len(e.cards) > h.limit:
            raise bad("CO-7.7", "capture-limit", f"the attacker's Capture is {h.limit}; {len(e.cards)} gems named")

    @checks(E.LocusReplaced, rule="CO-7.8")
    def c_replaced(self, s: State, e: E.LocusReplaced) -> None:
        h = head(s)
        if type(h) is not ReplaceLocus or h.player != e.player:
            if type(h) is ReplaceLocus or (h is None and s.phase == "main"):
                raise bad("CO-7.8", "no-replacement-due", f"locus replaced by {e.player}: a Locus card is put back only by the owner "
                          f"of a Locus slot whose Gem was just captured (now: {self.expected(s)})")
            raise self.out_of_step(s, e)
        if e.card not in s.player(e.player).hand:
            self.from_hand(s, e.player, e.card, f"{e.player} places {e.card} in Locus slot {h.slot}, but it is not in hand")

    @applies(E.AttackDeclared)
    def a_attack(self, s: State, e: E.AttackDeclared) -> State:
        found = find_follower(s, e.attacker)
        if found is None:  # an unchecked attack by no follower: no defined effect (CO-45)
            raise Undefined(f"attack declared by {e.player}: no follower {e.attacker!r} is on the field to attack")
        p, i, f = found
        f = replace(f, attacked=True, on=False) if s.options.attack_taps_attacker else replace(f, attacked=True)
        p = replace(p, field=p.field[:i] + (f,) + p.field[i + 1:])
        a, b = s.players
        return put(s, players=(p, b) if a.id == p.id else (a, p),
                       attack=Attack(e.player, e.attacker, e.target, e.slot, e.follower, card=f.card),
                       todo=(Block(s.other(e.player)), Window(e.player, 0), Resolve(), Battle()) + s.todo)

    @applies(E.BlockDeclared)
    def a_block(self, s: State, e: E.BlockDeclared) -> State:
        s = with_follower(s, e.blocker, on=False)
        s = put(s, attack=replace(s.attack, blocker=e.blocker, defended=True))
        return push(s, drop=1)

    @applies(E.BlockDeclined)
    def a_block_declined(self, s: State, e: E.BlockDeclined) -> State:
        h = s.todo[0] if s.todo else None
        if h.__class__ is not Block or h.player != e.player:  # no block of this player owed (applied unchecked): nothing happens (CO-45)
            return s
        return push(s, drop=1)


    def battle(self, s: State) -> E.BattleResolved:
        at = s.attack
        assert at is not None
        found = find_follower(s, at.attacker)
        base = dict(player=at.player, attacker=at.attacker)
        if found is not None:
            a, _, crush, capture = self.stats(s, found[0], found[2])
        elif s.options.attack_needs_attacker or at.card is None:
            # CO-15: an attacker that left the field before the battle deals nothing
            if at.defended:
                return E.BattleResolved(result="defended", follower=at.blocker, **base)
            return E.BattleResolved(result="fizzled", **base)
        else:
            # CO-15 off: the attack still lands, with the attacker's printed stats
            printed = pool_of(s)[at.card]
            a, crush, capture = printed.attack, printed.crush, printed.capture
        if at.defended:
            blk = find_follower(s, at.blocker)
            if blk is None:  # CO-7.9: defended even if the blocker has left the field
                return E.BattleResolved(result="defended", follower=at.blocker, **base)
            counter = self.stats(s, blk[0], blk[2])[0] if (s.options.mutual_battle_damage and found) else 0
            return E.BattleResolved(result="follower-damaged", follower=at.blocker, damage=max(0, a), counter_damage=max(0, counter), **base)
        opp = s.opponent(at.player)
        if at.target == "deck":
            return E.BattleResolved(result="deck-hit", damage=max(0, min(crush, opp.deck_count)), capture=max(0, capture), **base)
        if at.target == "locus":
            sl = next((x for x in opp.locus if x.id == at.slot), None)
            if sl is None:
                return E.BattleResolved(result="fizzled", slot=at.slot, **base)
            return E.BattleResolved(result="locus-hit", slot=sl.id, card=sl.card, **base)
        if find_follower(s, at.follower) is None:
            return E.BattleResolved(result="fizzled", follower=at.follower, **base)
        return E.BattleResolved(result="follower-damaged", follower=at.follower, damage=max(0, a), **base)

    @derives(Battle)
    def d_battle(self, s: State, h: Battle) -> E.BattleResolved | None:
        b = self.battle(s)
        if b.card == HIDDEN and b.result == "locus-hit":  # CO-39.5: the record states what the card was
            return None
        return b

    @applies(E.BattleResolved)
    def a_battle(self, s: State, e: E.BattleResolved) -> State:
        s = put(s, attack=None, todo=s.todo[1:])
        p0, p1 = s.players  # (s.other, inlined: every attack ends here)
        defender = p1.id if p0.id == e.player else p0.id
        if e.result == "follower-damaged":
            f = find_follower(s, e.follower)
            if f is not None:
                s = with_follower(s, e.follower, damage=f[2].damage + e.damage)
            if e.counter_damage:
                a = find_follower(s, e.attacker)
                if a is not None:
                    s = with_follower(s, e.attacker, damage=a[2].damage + e.counter_damage)
        elif e.result == "deck-hit" and e.damage > 0:
            s = push(s, Reveal(defender, e.damage), Capture(e.player, defender, e.capture))
        elif e.result == "locus-hit":
            if unknowns.unknown(e.card):  # CO-39.5: the record's next event says whether it was a Gem
                return push(s, UnknownLocusHit(defender, e.player, e.slot))  # type: ignore[arg-type]
            if s.player(defender).unseen:  # a stated battle names the unknown card hit (the seat saw it)
                s = self.name_slots(s, defender, {e.slot: e.card})
            s = self.locus_hit(s, e.player, defender, e.slot, e.card, e.card is not None and pool_of(s)[e.card].is_gem)  # type: ignore[arg-type]
        return s

    def locus_hit(self, s: State, attacker: str, defender: str, slot: int, card: str | None, gem: bool) -> State:
        """CO-7.8/CO-17: a Gem hit in the Locus is captured (its owner draws 1 and puts a card back
        there); another card is turned face up."""
        p = s.player(defender)
        idx = next(i for i, sl in enumerate(p.locus) if sl.id == slot)
        if gem:
            a = s.player(attacker)
            s = with_player(s, defender, locus=p.locus[:idx] + p.locus[idx + 1:])
            s = with_player(s, attacker, captured=a.captured + (card,))  # type: ignore[operator]
            return push(s, Draw(defender, 1, "locus-hit"), ReplaceLocus(defender, slot, idx))
        return with_player(s, defender, locus=p.locus[:idx] + (replace(p.locus[idx], face_up=True),) + p.locus[idx + 1:])

    @applies(E.CardsRevealed)
    def a_revealed(self, s: State, e: E.CardsRevealed) -> State:
        s = with_player(s, e.player, revealed=tuple(e.cards))
        return push(s, drop=1)

    @applies(E.GemsCaptured)
    def a_captured(self, s: State, e: E.GemsCaptured) -> State:
        h = s.todo[0]
        owner = s.player(h.owner)
        revealed = owner.revealed
        left = deck.take_top(owner, revealed, self.as_listed(s))
        rest = remove_many(revealed, e.cards)
        s = self.with_seat(s, replace(left, revealed=(), discard=owner.discard + rest))
        a = s.player(e.player)
        s = with_player(s, e.player, captured=a.captured + tuple(e.cards))
        return push(s, drop=1)

    @applies(E.LocusReplaced)
    def a_replaced(self, s: State, e: E.LocusReplaced) -> State:
        h = s.todo[0]
        p = s.player(e.player)
        idx = min(h.index, len(p.locus))
        hand, unseen, card = self.off_hand(p, e.card)
        locus = p.locus[:idx] + (LocusSlot(h.slot, card),) + p.locus[idx:]
        s = with_player(s, e.player, hand=hand, unseen=unseen, locus=locus)
        if e.card is not None and looks_like(e.card):
            s = self.committed(s, e.player, e.card, f"{e.player}'s Locus card put back in slot {h.slot}", card)
        return push(s, drop=1)

    @applies(E.FollowerDestroyed)
    def a_destroyed(self, s: State, e: E.FollowerDestroyed) -> State:
        return without_follower(s, e.follower, "discard")
