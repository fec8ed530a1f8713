"""The legal events' candidates (a superset that check filters) and who is to act.

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.kit import head
from adjudicator.core.kernel.events import HIDDEN, CardsLooked, CardsMoved, CardsReordered

from . import deck
from . import events as E
from .cards import Pool
from .state import (
    Block, Capture, ChooseFirst, Declare, DiscardDeclared, Draw, Look, Mill, Mulligan, Player, ReplaceLocus,
    MoveCards, Reorder, Reveal, RevealTop, Shuffle, State, ToLocus, Window,
)
from .positions import pool_of, not_ready, cannot_go_off
from .selections import declarations
from .unstated import BLIND


class Candidates:
    """The legal events' candidates."""

    def candidates(self, s: State) -> list[Any]:
        """A superset of every legal event (except declared-effect variants); ``check`` filters."""
        if s.result is not None:
            return []
        blind = self.blind(s)
        if blind is not None:  # CO-39.4/CO-39.5: what may come after the consequence the record leaves unstated
            return self.candidates(self.unstated(s, blind))
        out: list[Any] = []
        h = head(s)
        t = type(h)
        pool = pool_of(s)
        if t is Shuffle:
            out.append(E.DeckShuffled(player=h.player))
        elif t is ChooseFirst:
            out += [E.FirstPlayerDecided(player=p.id) for p in s.players]
        elif t is Draw:
            options = deck.next_options(s.player(h.player), self.as_listed(s))
            out += [E.CardDrawn(player=h.player, card=c) for c in options]
            if s.declaration_open and h.reason == "draw-step":
                out += [E.CompleteDeclared(player=s.turn_player, slots=c) for c in declarations(s.player(s.turn_player).locus)]
        elif t is Mulligan:
            p = s.player(h.player)
            limit = s.options.mulligan_first if h.player == s.first else s.options.mulligan_second
            seen: set[tuple[str, ...]] = set()
            for n in range(0, min(limit, len(p.hand)) + 1):
                for combo in permutations(p.hand, n):
                    if combo not in seen:
                        seen.add(combo)
                        out.append(E.CardsReturned(player=h.player, cards=list(combo)))
        elif t is Block:
            out.append(E.BlockDeclined(player=h.player))
            out += [E.BlockDeclared(player=h.player, blocker=f.handle) for f in s.player(h.player).field]
        elif t is Window:
            out.append(E.XPlayPassed(player=h.priority))
            out += self.play_candidates(s, h.priority, pool)
        elif t is Reveal:
            combos = deck.top_options(s.player(h.player), h.count, self.as_listed(s))  # each distinct multiset once
            out += [E.CardsRevealed(player=h.player, cards=list(c)) for c in combos]
        elif t is RevealTop:
            p = s.player(h.player)
            if h.done < len(p.deck_known):
                options = [p.deck_known[h.done]]
            else:
                options = deck.next_options(replace(p, deck_known=(), known_why=()), self.as_listed(s))
            out += [E.TopCardRevealed(player=h.player, card=c) for c in options]
        elif t is Mill:
            out += [E.CardMilled(player=h.player, card=c) for c in deck.next_options(s.player(h.player), self.as_listed(s))]
        elif t is Capture:
            gems = sorted(c for c in s.player(h.owner).revealed if pool[c].is_gem)
            for n in range(0, min(h.limit, len(gems)) + 1):
                out += [E.GemsCaptured(player=h.player, cards=list(c)) for c in sorted(set(combinations(gems, n)))]
        elif t is ReplaceLocus:
            out += [E.LocusReplaced(player=h.player, card=c) for c in sorted(set(s.player(h.player).hand))]
        elif t is DiscardDeclared:
            out += [E.DeclarationDiscarded(player=h.chooser, slots=list(c)) for c in combinations(h.slots, 2)]
        elif t is Declare:
            out.append(E.EffectDeclared(player=h.player, card=h.card))
        elif t is Look:
            owner = s.player(h.owner)
            if h.zone == "locus":  # CO-47
                out += self.locus_look_candidates(s, h)
            elif h.zone == "hand":
                out.append(CardsLooked(player=h.player, owner=h.owner, zone="hand", cards=sorted(owner.hand), source=h.source or None))
            else:
                out += [CardsLooked(player=h.player, owner=h.owner, zone="deck-top", cards=list(c), source=h.source or None)
                        for c in self.top_sequences(owner, h.count, self.as_listed(s))]
        elif t is Reorder:
            peek = s.player(h.owner).deck_peek[: h.count] if h.seen else ("?",) * h.count  # (CO-42.3: a look not seen)
            out += [CardsReordered(player=h.player, owner=h.owner, zone="deck-top", cards=list(c), source=h.source or None)
                    for c in sorted(set(permutations(peek)))]
        elif t is MoveCards:  # CO-46
            out += self.move_candidates(s, h)
        elif t is ToLocus:
            out += [CardsMoved(owner=h.player, from_zone="deck", to_zone="locus", cards=list(c), seen_by=[h.player],
                               player=h.player, source=h.source or None)
                    for c in self.top_sequences(s.player(h.player), h.count, self.as_listed(s))]
        elif h is None and s.phase == "main":
            out += self.main_candidates(s, pool)
        out += [E.Conceded(player=p.id) for p in s.players]
        return out

    def top_sequences(self, p: Player, k: int, as_listed: bool) -> list[tuple[str, ...]]:
        """Every sequence (top first) the top ``k`` cards of ``p``'s deck can be (``k`` is at most
        ``MAX_LOOK``: a handful of distinct cards a step)."""
        if k <= 0:
            return [()]
        out = []
        for c in deck.next_options(p, as_listed):
            if c == HIDDEN:
                continue
            out += [(c, *rest) for rest in self.top_sequences(deck.take(p, c, as_listed), k - 1, as_listed)]
        return out

    def main_candidates(self, s: State, pool: Pool) -> list[Any]:
        """What the turn player could do at open timing of the main phase (before filtering)."""
        out: list[Any] = []
        me = s.player(s.turn_player)
        hand = sorted(set(me.hand) - {HIDDEN})  # an unknown card (CO-39) is named when played
        out += [E.CardSet(player=me.id, card=c, zone="gem") for c in hand]
        out += [E.CardSet(player=me.id, card=c, zone="locus") for c in hand]
        for c in hand:
            card = pool[c]
            if card.is_follower:
                effects = [fx for ab in card.abilities if ab.timing == "cip" for fx in ab.effects] if card.modelled else []
                out += [E.FollowerPlayed(player=me.id, card=c, targets=tg) for tg in self.target_combos(s, me.id, effects) or [[]]]
        out += self.play_candidates(s, me.id, pool)
        col = pool[me.colossus]
        for i, ab in enumerate(col.colossus_abilities):
            out += [E.ColossusAbilityActivated(player=me.id, ability=i, targets=tg) for tg in self.target_combos(s, me.id, ab.effects)]
        opp = s.opponent(me.id)
        off = [g.handle for g in opp.field if not g.on]  # only a follower in OFF can be attacked (CO-7.4)
        for f in me.field:
            if not_ready(s, f) is not None:  # check rejects its every attack (CO-7.3)
                continue
            out.append(E.AttackDeclared(player=me.id, attacker=f.handle, target="deck"))
            out += [E.AttackDeclared(player=me.id, attacker=f.handle, target="locus", slot=sl.id) for sl in opp.locus]
            out += [E.AttackDeclared(player=me.id, attacker=f.handle, target="follower", follower=g) for g in off]
        for c in sorted(set([f.card for f in me.field] + [me.colossus])):
            if not pool[c].modelled and (c == me.colossus or any(ab.timing == "continuous" for ab in pool[c].abilities)):
                out.append(E.EffectDeclared(player=me.id, card=c))
        out.append(E.MainPhaseEnded(player=me.id))
        return out

    def play_candidates(self, s: State, pid: str, pool: Pool) -> list[Any]:
        """Actions from hand and follower abilities ``pid`` could play now (before filtering)."""
        out: list[Any] = []
        me = s.player(pid)
        for c in sorted(set(me.hand) - {HIDDEN}):
            card = pool[c]
            if card.is_action:
                effects = card.effects if card.modelled else []
                out += [E.ActionPlayed(player=pid, card=c, targets=tg) for tg in self.target_combos(s, pid, effects)]
        for f in me.field:
            card = pool[f.card]
            for i, ab in enumerate(card.abilities):
                if ab.timing == "activated" and not (ab.cost.off and cannot_go_off(s, f) is not None):
                    out += [E.FollowerAbilityActivated(player=pid, follower=f.handle, ability=i, targets=tg)
                            for tg in self.target_combos(s, pid, ab.effects if card.modelled else [])]
        return out

    def to_act(self, s: State) -> list[str]:
        if s.result is not None:
            return []
        h = head(s)
        if type(h) in BLIND and self.blind(s) is not None:
            return self.to_act(self.unstated(s, self.blind(s)))
        if h is None:
            return [s.turn_player] if s.phase == "main" and s.turn_player else []
        t = type(h)
        if t is ChooseFirst:
            return [p.id for p in s.players]
        for attr in ("player", "priority", "chooser"):
            v = getattr(h, attr, None)
            if v is not None:
                return [v]
        return []
