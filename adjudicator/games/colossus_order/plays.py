"""Playing cards and abilities: followers, Actions, follower and Colossus abilities, declared effects,
the X-play window and the chain's resolution (CO-5, CO-6, CO-8, CO-9).

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from typing import Any


from adjudicator.core.kernel.kit import applies, checks, head
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.rulings import Ruling, Undefined, Undetermined, legal

from . import events as E
from .cards import Card
from .state import ChainItem, Declare, Draw, Follower, Player, Resolve, State, Window
from .positions import (
    NS, bad, pool_of, cannot_go_off, with_player, find_follower, with_follower, without_follower, available_locus,
    describe_gems, push, put, card_words,
)


class Plays:
    """Playing cards and abilities."""

    def pay_check(self, s: State, p: Player, c: Card, what: str) -> None:
        cost = self.locus_cost(s, p, c)
        avail = available_locus(p)
        if cost > avail:
            raise bad("CO-5.1", "locus-short", f"{what} costs {cost} Locus, {p.id} has {avail} unused ({len(p.locus)} Locus cards, {p.locus_used} used this turn)")
        if c.gem_level and not self.meets(self.gem_counts(s, p, s.options.gem_level_scope), c.gem_level):
            have = dict(self.gem_counts(s, p, s.options.gem_level_scope))
            cond = self.gem_level_condition(s, p, c)
            if cond is not None:
                unknown = sum(1 for g in p.captured if g == HIDDEN)
                raise Undetermined("CO-39.6", NS + "gem-level-unknown",
                                   f"{what} needs gems {describe_gems(c.gem_level)}; {p.id} has {describe_gems(have)} and "
                                   f"{unknown} captured Gem(s) the record does not name", cond)
            raise bad("CO-5.2", "gem-level", f"{what} needs gems {describe_gems(c.gem_level)}; {p.id} has {describe_gems(have)} ({s.options.gem_level_scope}, CO-6)")

    def gem_level_condition(self, s: State, p: Player, c: Card) -> str | None:
        """CO-39.6: the condition under which ``c``'s gem level is met by captured Gems the record
        does not name (None: met by the named ones, or not even with those)."""
        if not c.gem_level or HIDDEN not in p.captured or s.options.gem_level_scope != "colossus-gems":
            return None
        counts = self.gem_counts(s, p, s.options.gem_level_scope)
        if self.meets(counts, c.gem_level):
            return None
        have = dict(counts)
        unknown = sum(1 for g in p.captured if g == HIDDEN)
        missing = {k: n - have.get(k, 0) for k, n in c.gem_level.items() if k != "any" and n > have.get(k, 0)}
        if sum(missing.values()) <= unknown and sum(have.values()) + unknown >= sum(c.gem_level.values()):
            return f"{p.id}'s unnamed captured Gems include {describe_gems(missing) if missing else 'enough of any colour'}"
        return None

    def pay_conditions(self, s: State, p: Player, c: Card) -> State:
        """``s`` remembering the CO-39.6 condition a play from ``p``'s hand was legal under (it stays open:
        a captured Gem is never named later)."""
        cond = self.gem_level_condition(s, p, c)
        return s if cond is None else put(s, conditions=s.conditions + (cond,))

    @checks(E.FollowerPlayed, rule="CO-6.1")
    def c_follower(self, s: State, e: E.FollowerPlayed) -> None:
        self.open_timing(s, e, "CO-6.1")
        p = s.player(e.player)
        pool = pool_of(s)
        c = pool[e.card]
        if not c.is_follower:
            raise bad("CO-6.1", "not-a-follower", f"{card_words(s, e.card)} is a {c.type}, not a follower")
        if e.card not in p.hand:
            self.from_hand(s, e.player, e.card, f"{e.player} plays {e.card}, which is not in hand")
        if c.type == "follower-unique":
            names = [pool[f.card].name for f in p.field] + [pool[i.card].name for i in s.chain if i.player == e.player and i.kind == "follower"]
            if c.name in names:
                raise bad("CO-6.2", "unique-on-field", f"{e.player} already has {c.name} on the field; a Follower Unique is limited to one per name")
        self.pay_check(s, p, c, f"{e.card}")
        effects = [fx for ab in c.abilities if ab.timing == "cip" for fx in ab.effects] if c.modelled else []
        if not e.targets and not self.target_combos(s, e.player, effects):
            return  # CO-6.4/CO-20: a mandatory CIP with no valid target: its targeted part does nothing
        self.check_targets(s, e.player, effects, e.targets, f"{e.card}'s CIP")

    @checks(E.ActionPlayed, rule="CO-8.1")
    def c_action(self, s: State, e: E.ActionPlayed) -> Ruling | None:
        c = pool_of(s)[e.card]
        windowed = self.in_window(s, e, "CO-8.2" if c.type == "action-snap" else "CO-8.1")
        p = s.player(e.player)
        if not c.is_action:
            raise bad("CO-8.1", "not-an-action", f"{card_words(s, e.card)} is a {c.type}, not an Action")
        if windowed and c.type != "action-snap":
            raise bad("CO-9.3", "not-snap", f"{card_words(s, e.card)} is not an Action.Snap: only Action.Snap cards can be played in X-play")
        if e.card not in p.hand:
            self.from_hand(s, e.player, e.card, f"{e.player} plays {e.card}, which is not in hand")
        self.pay_check(s, p, c, e.card)
        self.check_targets(s, e.player, c.effects if c.modelled else [], e.targets, e.card)
        if windowed:
            return legal("CO-8.2", NS + "ok", f"{card_words(s, e.card)} (Action.Snap) played by {e.player} in X-play")
        return None

    @checks(E.FollowerAbilityActivated, rule="CO-8.3")
    def c_ability(self, s: State, e: E.FollowerAbilityActivated) -> None:
        self.in_window(s, e)
        found = find_follower(s, e.follower)
        if found is None or found[0].id != e.player:
            raise bad("CO-8.3", "not-own-follower", f"{e.follower!r} is not a follower of {e.player} on the field")
        p, _, f = found
        c = pool_of(s)[f.card]
        abilities = c.abilities
        if not (0 <= e.ability < len(abilities)) or abilities[e.ability].timing != "activated":
            raise bad("CO-8.3", "no-such-ability", f"{f.card} ({e.follower}) has no activated ability #{e.ability}")
        ab = abilities[e.ability]
        if ab.cost.off:
            refused = cannot_go_off(s, f)
            if refused is not None:
                raise refused
        if ab.cost.locus > available_locus(p):
            raise bad("CO-5.1", "locus-short", f"the ability costs {ab.cost.locus} Locus, {p.id} has {available_locus(p)} unused")
        self.check_targets(s, e.player, ab.effects if c.modelled else [], e.targets, f"{f.card}'s ability #{e.ability}")

    @checks(E.ColossusAbilityActivated, rule="CO-8.4")
    def c_colossus(self, s: State, e: E.ColossusAbilityActivated) -> None:
        if type(head(s)) is Window:
            raise bad("CO-8.4", "colossus-in-xplay", "a Colossus ability cannot be activated during X-play")
        self.open_timing(s, e, "CO-8.4")
        p = s.player(e.player)
        c = pool_of(s)[p.colossus]
        if not (0 <= e.ability < len(c.colossus_abilities)):
            raise bad("CO-8.4", "no-such-ability", f"{p.colossus} has no ability #{e.ability}")
        if e.ability in p.colossus_used:
            raise bad("CO-8.4", "colossus-used", f"{p.colossus}'s ability #{e.ability} was already used this turn")
        ab = c.colossus_abilities[e.ability]
        counts = self.gem_counts(s, p, s.options.colossus_ability_scope)
        if not self.meets(counts, ab.requires):
            raise bad("CO-8.4", "colossus-gems", f"{p.colossus}'s ability #{e.ability} needs {describe_gems(ab.requires)}; {p.id} has {describe_gems(dict(counts))} ({s.options.colossus_ability_scope}, CO-7)")
        if ab.cost.locus > available_locus(p):
            raise bad("CO-5.1", "locus-short", f"the ability costs {ab.cost.locus} Locus, {p.id} has {available_locus(p)} unused")
        self.check_targets(s, e.player, ab.effects, e.targets, f"{p.colossus}'s ability #{e.ability}")

    @checks(E.EffectDeclared, rule="CO-8.5")
    def c_effect(self, s: State, e: E.EffectDeclared) -> Ruling:
        h = head(s)
        if type(h) is Declare:
            if h.player != e.player or h.card != e.card:
                raise bad("CO-8.5", "declare-other", f"the effect of {card_words(s, h.card)} ({h.player}) must be declared now, not {card_words(s, e.card)} ({e.player})")
        else:
            self.open_timing(s, e, "CO-8.5")
            p = s.player(e.player)
            on_field = [f.card for f in p.field] + [p.colossus]
            if e.card not in on_field:
                raise bad("CO-8.5", "declare-source", f"{e.player} declares an effect of {card_words(s, e.card)}, which is neither resolving nor on their field")
            if not any(ab.timing == "continuous" for ab in pool_of(s)[e.card].abilities) and e.card != p.colossus:
                raise bad("CO-8.5", "declare-timing", f"{card_words(s, e.card)} has no continuous ability: its declared effects come when its CIP or activated ability resolves")
        if pool_of(s)[e.card].modelled:
            raise bad("CO-8.5", "modelled-card", f"{card_words(s, e.card)}'s text is modelled by the engine; its effect cannot be declared by hand")
        for h2 in list(e.destroy) + list(e.damage) + list(e.switch_on) + list(e.switch_off) + list(e.return_to_hand):
            if find_follower(s, h2) is None:
                raise bad("CO-8.5", "declare-unknown-follower", f"the declared effect names {h2!r}, which is not a follower on the field")
        if e.draw < 0 or e.opponent_draw < 0 or any(v < 0 for v in e.damage.values()):
            raise bad("CO-8.5", "declare-negative", "a declared effect cannot draw or damage a negative amount")
        return legal("CO-8.5", NS + "declared-effect", f"{card_words(s, e.card)}: effect declared as stated by {e.player}; not engine-checked", engine_checked=False)

    @checks(E.XPlayPassed, rule="CO-9.2")
    def c_pass(self, s: State, e: E.XPlayPassed) -> None:
        h = s.todo[0] if s.todo else None
        if type(h) is not Window:
            raise bad("CO-9.2", "no-window", f"x-play passed by {e.player}, but no X-play window is open (expected: {self.expected(s)})")
        if h.priority != e.player:
            raise bad("CO-9.2", "no-priority", f"x-play passed by {e.player}, but {h.priority} has priority")

    def _add_to_chain(self, s: State, item: ChainItem) -> State:
        s = put(s, chain=s.chain + (item,))
        h = head(s)
        if type(h) is Window:
            return push(s, Window(s.other(item.player), 0), drop=1)
        # the turn player first (CO-9.2); a play let stand before the first turn: its player (CO-45)
        return push(s, Window(s.turn_player or item.player, 0), Resolve())

    @applies(E.FollowerPlayed, E.ActionPlayed)
    def a_played(self, s: State, e: E.FollowerPlayed | E.ActionPlayed) -> State:
        """A card played from hand: paid for (CO-5) and put on the chain (a follower or an Action)."""
        p = s.player(e.player)
        c = pool_of(s)[e.card]
        hand, unseen, _ = self.off_hand(p, e.card)
        if HIDDEN in p.captured:
            s = self.pay_conditions(s, p, c)
        s = with_player(s, e.player, hand=hand, unseen=unseen, locus_used=p.locus_used + self.locus_cost(s, p, c))
        kind = "follower" if type(e) is E.FollowerPlayed else "action"
        return self._add_to_chain(s, ChainItem(e.player, kind, e.card, tuple(e.targets)))

    @applies(E.FollowerAbilityActivated)
    def a_ability(self, s: State, e: E.FollowerAbilityActivated) -> State:
        found = find_follower(s, e.follower)
        if found is None:  # an unchecked activation by no follower: no defined effect (CO-45)
            raise Undefined(f"follower ability activated by {e.player}: no follower {e.follower!r} is on the field")
        f = found[2]
        abilities = pool_of(s)[f.card].abilities
        if not 0 <= e.ability < len(abilities):
            raise Undefined(f"follower ability activated by {e.player}: {f.card} ({e.follower}) has no ability #{e.ability}")
        ab = abilities[e.ability]
        if ab.cost.off:
            s = with_follower(s, e.follower, on=False)
        if ab.cost.locus:
            s = with_player(s, e.player, locus_used=s.player(e.player).locus_used + ab.cost.locus)
        return self._add_to_chain(s, ChainItem(e.player, "ability", f.card, tuple(e.targets), e.follower, e.ability))

    @applies(E.ColossusAbilityActivated)
    def a_colossus(self, s: State, e: E.ColossusAbilityActivated) -> State:
        p = s.player(e.player)
        ab = pool_of(s)[p.colossus].colossus_abilities[e.ability]
        s = with_player(s, e.player, colossus_used=p.colossus_used + (e.ability,), locus_used=p.locus_used + ab.cost.locus)
        s, tasks = self.resolve_effects(s, e.player, None, ab.effects, list(e.targets), p.colossus)
        return push(s, *tasks)

    @applies(E.EffectDeclared)
    def a_effect(self, s: State, e: E.EffectDeclared) -> State:
        if type(head(s)) is Declare:
            s = push(s, drop=1)
        for h in e.destroy:
            s = without_follower(s, h, "discard")
        for h, n in e.damage.items():
            f = find_follower(s, h)
            if f is not None:
                s = with_follower(s, h, damage=f[2].damage + n)
        for h in e.switch_on:
            s = with_follower(s, h, on=True)
        for h in e.switch_off:
            s = with_follower(s, h, on=False)
        for h in e.return_to_hand:
            s = without_follower(s, h, "hand")
        tasks = []
        if e.draw:
            tasks.append(Draw(e.player, e.draw))
        if e.opponent_draw:
            tasks.append(Draw(s.other(e.player), e.opponent_draw))
        return push(s, *tasks)

    @applies(E.XPlayPassed)
    def a_pass(self, s: State, e: E.XPlayPassed) -> State:
        todo = s.todo
        h = todo[0] if todo else None
        if h.__class__ is not Window:  # a pass with no window open (applied unchecked): nothing happens
            return s
        if h.passes + 1 < 2:  # (the other seat read here: half of all log events are passes)
            a, b = s.players
            return push(s, Window(b.id if a.id == e.player else a.id, h.passes + 1), drop=1)
        if len(todo) > 1 and todo[1].__class__ is Resolve and not s.chain:  # both passed on an empty chain
            return push(s, drop=2)
        return push(s, drop=1)

    @applies(E.XPlayResolved)
    def a_resolved(self, s: State, e: E.XPlayResolved) -> State:
        item = s.chain[-1]
        s = put(s, chain=s.chain[:-1])
        rest = s.todo[1:]
        pool = pool_of(s)
        c = pool[item.card]
        tasks: list[Any] = []
        if item.kind == "follower":
            handle = f"F{s.next_handle}"
            p = s.player(item.player)
            s = with_player(s, item.player, field=p.field + (Follower(handle, item.card, True, 0, s.turn),))
            s = put(s, next_handle=s.next_handle + 1)
            if c.modelled:
                effects = [fx for ab in c.abilities if ab.timing == "cip" for fx in ab.effects]
                s, tasks = self.resolve_effects(s, item.player, handle, effects, list(item.targets), item.card)
            elif any(ab.timing == "cip" for ab in c.abilities):
                tasks = [Declare(item.player, item.card)]
        elif item.kind == "action":
            if c.modelled:
                s, tasks = self.resolve_effects(s, item.player, None, c.effects, list(item.targets), item.card)
            else:
                tasks = [Declare(item.player, item.card)]
            p = s.player(item.player)
            s = with_player(s, item.player, discard=p.discard + (item.card,))
        elif c.modelled:
            ab = c.abilities[item.ability]
            s, tasks = self.resolve_effects(s, item.player, item.source, ab.effects, list(item.targets), item.card)
        else:
            tasks = [Declare(item.player, item.card)]
        return put(s, todo=tuple(tasks) + ((Resolve(),) if s.chain else ()) + rest)
