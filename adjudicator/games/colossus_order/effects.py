"""What the effects of a resolving card do to the position, and the steps they owe: the reveals and
mills from the top of a deck (CO-8.6, CO-8.8, CO-36, CO-37).

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.kit import applies, checks, head
from adjudicator.core.kernel.notation import kind_words

from . import deck
from . import events as E
from .cards import (
    Aura, Boost, CHOSEN_TARGETS, CostChange, Damage, Destroy, Draw as DrawFx, FlipLocus, LookHand as LookHandFx,
    LookLocus as LookLocusFx, LookTop as LookTopFx, Mill as MillFx, Move as MoveFx, PUBLIC_ZONES, RecoverLocus, ReturnToHand, RevealTop as RevealTopFx, SetStats, Switch,
    ToDeck, ToLocus as ToLocusFx,
)
from .state import Draw, Flipped, Follower, Look, Mill, MoveCards, Reorder, RevealTop, State, ToLocus
from .positions import bad, with_player, find_follower, with_follower, without_follower, push, card_words


class Effects:
    """What the effects of a resolving card do to the position, and the steps they owe."""

    def resolve_effects(self, s: State, controller: str, source: str | None, effects: list[Any], targets: list[str],
                        source_card: str = "") -> tuple[State, list[Any]]:
        """Apply a list of effects in order; return the new state and the steps they owe (draws,
        reveals and mills: the log names the cards)."""
        tasks: list[Any] = []
        chosen = iter(targets)
        for fx in effects:
            t = type(fx)
            if t is DrawFx:
                who = controller if fx.who == "self" else s.other(controller)
                if fx.count > 0:
                    tasks.append(Draw(who, fx.count))
                continue
            if t is RecoverLocus:
                p = s.player(controller)
                s = with_player(s, controller, locus_used=max(0, p.locus_used - fx.amount))
                continue
            if t is RevealTopFx or t is MillFx:
                who = controller if fx.who == "self" else s.other(controller)
                n = min(fx.count, s.player(who).deck_count)  # never more than the deck holds
                if n > 0:
                    tasks.append(RevealTop(who, n, source_card) if t is RevealTopFx else Mill(who, n, source_card))
                continue
            if t is FlipLocus:
                target = next(chosen, None)
                s = self.flip(s, controller, fx, target)
                if fx.to == "up" and target is not None:  # CO-8.7: what it shows is named (derived)
                    owner = s.player(controller) if fx.target == "chosen-own-locus" else s.opponent(controller)
                    if any(f"L{sl.id}" == target for sl in owner.locus):
                        tasks.append(Flipped(owner.id, int(target[1:])))
                continue
            if t is LookHandFx:  # CO-41
                tasks.append(Look(controller, s.other(controller), "hand", 0, source_card))
                continue
            if t is LookTopFx:  # CO-42: as many as the deck holds
                who = controller if fx.who == "self" else s.other(controller)
                n = min(fx.count, s.player(who).deck_count)
                if n > 0:
                    tasks += [Look(controller, who, "deck-top", n, source_card), Reorder(controller, who, n, source_card)]
                continue
            if t is ToLocusFx:  # CO-43
                n = min(fx.count, s.player(controller).deck_count)
                if n > 0:
                    tasks.append(ToLocus(controller, n, source_card))
                continue
            if t is MoveFx:  # CO-46
                only = (fx.only.kind, fx.only.colour, fx.only.card) if fx.only else (None, None, None)
                tasks.append(MoveCards(controller, fx.from_, fx.to, fx.count, "both" if fx.to in PUBLIC_ZONES else fx.seen_by,
                                       only, None, fx.slot == "emptied", source_card))
                continue
            if t is LookLocusFx:  # CO-47: only while the opponent has a face-down Locus card
                if any(not sl.face_up for sl in s.opponent(controller).locus):
                    tasks.append(Look(controller, s.other(controller), "locus", fx.count, source_card))
                continue
            if t in (CostChange, Aura):
                continue
            kind = fx.target
            if kind in CHOSEN_TARGETS:
                handles = [next(chosen, None)]
            elif kind == "self":
                handles = [source]
            elif kind == "attacker":
                handles = [s.attack.attacker if s.attack else None]
            elif kind == "opponent-attacker":
                handles = [s.attack.attacker if s.attack and s.attack.player != controller else None]
            elif kind == "all-opponent-followers":
                handles = [f.handle for f in s.opponent(controller).field]
            else:
                handles = [f.handle for f in s.player(controller).field]
            for h in handles:
                found = find_follower(s, h)
                if found is None:
                    continue  # the target left the field: this part fizzles (CO-20)
                f = found[2]
                only = getattr(fx, "only", None)
                if only is not None and self.unmet(s, h, only) is not None:
                    continue  # CO-6.5: a target that no longer meets the conditions is skipped
                if t is Damage:
                    s = with_follower(s, h, damage=f.damage + fx.amount)
                elif t is Destroy:
                    s = without_follower(s, h, "discard")
                elif t is Switch:
                    s = with_follower(s, h, on=fx.to == "on")
                elif t is Boost:
                    b = f.boost
                    s = with_follower(s, h, boost=(b[0] + fx.attack, b[1] + fx.defence, b[2] + fx.crush, b[3] + fx.capture))
                elif t is ReturnToHand:
                    s = without_follower(s, h, "hand")
                elif t is SetStats:
                    s = with_follower(s, h, **self.set_stats(s, f, fx))
                elif t is ToDeck:
                    s = self.to_deck(s, h, fx.where, source_card)
        return s, tasks

    def set_stats(self, s: State, f: Follower, fx: SetStats) -> dict[str, Any]:
        """CO-37: the new values; with ``latest-wins`` the boosts received so far are dropped."""
        latest = s.options.stat_setting == "latest-wins"
        b = list(f.boost)
        out: dict[str, Any] = {}
        if fx.attack is not None:
            out["set_attack"] = fx.attack
            b[0] = 0 if latest else b[0]
        if fx.defence is not None:
            out["set_defence"] = fx.defence
            b[1] = 0 if latest else b[1]
        out["boost"] = tuple(b)
        return out

    def to_deck(self, s: State, handle: str, where: str, source_card: str) -> State:
        """CO-36: a follower put on top of its owner's deck is known there; one put on the bottom
        goes under everything else, known too."""
        p, i, f = find_follower(s, handle)  # type: ignore[misc]
        field = p.field[:i] + p.field[i + 1:]
        if where == "top":
            why = f"put on top by {source_card} on turn {s.turn}"
            return with_player(s, p.id, field=field, deck_known=(f.card,) + p.deck_known, known_why=(why,) + p.known_why)
        return with_player(s, p.id, field=field, deck_under=p.deck_under + (f.card,))

    def flip(self, s: State, controller: str, fx: FlipLocus, target: str | None) -> State:
        """CO-8.7/CO-38: turn a Locus card face up or down; one turned down stays known to the opponent."""
        owner = s.player(controller) if fx.target == "chosen-own-locus" else s.opponent(controller)
        up = fx.to == "up"
        locus = tuple(replace(sl, face_up=up, known=sl.known or not up) if f"L{sl.id}" == target else sl for sl in owner.locus)
        return with_player(s, owner.id, locus=locus)

    def card_step(self, s: State, e: Any, task: type) -> Any:
        """The head task of type ``task`` a one-card event by its player answers (a card named)."""
        h = head(s)
        if type(h) is not task or h.player != e.player:
            raise self.out_of_step(s, e)
        if e.card is None:
            raise bad("CO-2.5", "unknown-identity", f"{kind_words(e)} must name the card in this version")
        return h

    @checks(E.TopCardRevealed, rule="CO-8.6")
    def c_top_revealed(self, s: State, e: E.TopCardRevealed) -> None:
        h = self.card_step(s, e, RevealTop)
        p = s.player(e.player)
        if h.done < len(p.deck_known):
            if e.card != p.deck_known[h.done]:
                raise bad("CO-2.6", "known-top", f"{e.player} reveals {card_words(s, e.card)} as card {h.done + 1} from the top, but that card "
                                                 f"is known to be {p.deck_known[h.done]} ({p.known_why[h.done]})")
            return
        problem = deck.next_problem(replace(p, deck_known=(), known_why=()), e.card, self.as_listed(s), "reveals")  # type: ignore[arg-type]
        if problem is not None:
            raise bad(*problem)

    @checks(E.CardMilled, rule="CO-8.8")
    def c_milled(self, s: State, e: E.CardMilled) -> None:
        self.card_step(s, e, Mill)
        self.check_next(s, e.player, e.card, "mills")  # type: ignore[arg-type]

    @applies(E.TopCardRevealed)
    def a_top_revealed(self, s: State, e: E.TopCardRevealed) -> State:
        h = s.todo[0] if s.todo else None
        if h.__class__ is not RevealTop:  # no reveal owed (applied unchecked): the card is known on top all the same
            h = RevealTop(e.player, 1, "a reveal no effect owed", len(s.player(e.player).deck_known))
            s = push(s, h)
        p = s.player(e.player)
        if h.done >= len(p.deck_known):
            below = deck.take(replace(p, deck_known=(), known_why=()), e.card, self.as_listed(s))  # type: ignore[arg-type]
            why = f"revealed by {h.source} on turn {s.turn}"
            s = self.with_seat(s, replace(below, deck_known=p.deck_known + (e.card,), known_why=p.known_why + (why,)))
        if h.done + 1 < h.count:
            return push(s, replace(h, done=h.done + 1), drop=1)
        return push(s, drop=1)

    @applies(E.CardMilled)
    def a_milled(self, s: State, e: E.CardMilled) -> State:
        h = s.todo[0] if s.todo else None
        p = deck.take(s.player(e.player), e.card, self.as_listed(s))  # type: ignore[arg-type]
        s = self.with_seat(s, replace(p, discard=p.discard + (e.card,)))
        if h.__class__ is not Mill:  # no mill owed (applied unchecked): the card is milled all the same
            return s
        if h.count > 1:
            return push(s, replace(h, count=h.count - 1), drop=1)
        return push(s, drop=1)
