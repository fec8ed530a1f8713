"""Colossi apply handlers: each checked event applied to a working copy (:class:`working.W`)
with its immediate consequences; ``Applies`` is a mixin of :class:`rules.Rules` (the kit's
``@applies`` registers each handler), the engine's continuations run after (``pump``).
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.events import CardsLooked, CardsMoved
from adjudicator.core.kernel.kit import applies
from adjudicator.core.kernel.rulings import Undefined

from . import engine as Q
from . import events as E
from .card_effects import play_card
from .engine import acol
from .state import (
    Actions, BannerChoice, Borrow, Deploy, Discard, Domineer, Dominion, Draft, Draw, EndTurn, Explore, GrowthDraw,
    GrowthDrop, Influence, Launch, LookTop, Maar, Mantle, Market, MoveBeast, NamePlayer, Peek, PlaceChoice,
    PlaceStart, Purge, Recall, Replenish, Rest, Result, RevealTop, RevealTrait, Road, Rolls, Sabotage, ScoreOp,
    SetAside, Speedy, StartTurn, Teleporter, TradeBack, TradeGive, Void, VoidTile, Walk, WalkOp,
)
from .tile_effects import land, swap_spaces, wind
from .working import W


class Applies:
    """The apply handlers of :class:`rules.Rules` (a mixin)."""

    @applies(E.FirstPlayerDetermined)
    def a_first(self, w: W, e: Any) -> None:
        w.pop()
        w.first = e.player
        order = w.order_from(e.player)
        tasks: list[Any] = [SetAside("lair"), SetAside("lair")] + [SetAside("environment")] * 8
        if w.options.use_traits:
            tasks += [RevealTrait()] * 3 + [Draft(p) for p in order]
        tasks += [Draw(p, 3) for p in order] + [PlaceStart(p) for p in order] + [StartTurn()]
        w.later(*tasks)

    @applies(E.TileSetAside)
    def a_set_aside(self, w: W, e: Any) -> None:
        w.pop()
        w.tile_box = remove1(w.tile_box, e.tile)
        w.tile_deck = tuple(sorted(w.tile_deck + (e.tile,)))

    @applies(E.TraitRevealed)
    def a_trait_revealed(self, w: W, e: Any) -> None:
        w.pop()
        w.trait_deck = remove1(w.trait_deck, e.trait)
        w.trait_row = w.trait_row + (e.trait,)

    @applies(E.TraitTaken)
    def a_trait_taken(self, w: W, e: Any) -> None:
        w.pop()
        if e.source == "row":
            w.trait_row = remove1(w.trait_row, e.trait)
            w.later(RevealTrait())
        elif e.source == "deck":
            w.trait_deck = remove1(w.trait_deck, e.trait)
        else:
            w.growth = remove1(w.growth, e.trait)
            w.later(GrowthDrop(e.player, e.trait))
        w.gain_trait(e.player, e.trait)

    @applies(E.CardDrawn)
    def a_card_drawn(self, w: W, e: Any) -> None:
        # (a draw a judge let stand may come out of step, or from under a known top: CL-2.6)
        h = w.todo[0] if w.todo else None
        top = w.card_top
        if top and top[0] == e.card:
            w.card_top = top[1:]
            w.card_seen = w.card_seen[1:]
        else:
            w.card_deck = remove1(w.card_deck, e.card)
        if type(h) is Draw and h.player == e.player:
            if h.count > 1:
                w.set_head(Draw(h.player, h.count - 1))
            else:
                w.pop()
        w.add_cards(e.player, [e.card])

    @applies(E.StartPlaced)
    def a_start_placed(self, w: W, e: Any) -> None:
        w.pop()
        w.setS(e.space, tile="start", owner=e.player)
        w.set_colossus(e.player, e.space)
        w.produce(e.space)

    @applies(E.TurnStarted)
    def a_turn_started(self, w: W, e: Any) -> None:
        w.pop()
        p = e.player
        w.turn = e.turn
        w.turn_player = p
        w.setP(p, turns=w.P(p).turns + 1)
        w.info = Q.new_turn_info(w, p)
        w.road = None
        tasks: list[Any] = []
        if Q.has(w, p, "sly"):
            tasks.append(NamePlayer(p))
        if Q.has(w, p, "mimicry"):
            tasks.append(Borrow(p))
        if Q.has(w, p, "soothsayer"):
            tasks.append(Peek(p))
        draw = Q.tparam("abundant", "draw") if Q.has(w, p, "abundant") else 1
        tasks += [Replenish(), Draw(p, draw), Actions(p), EndTurn()]
        w.later(*tasks)

    @applies(E.PlayerNamed)
    def a_player_named(self, w: W, e: Any) -> None:
        w.pop()
        w.setinfo(sly=e.target)

    @applies(E.TraitBorrowed)
    def a_borrowed(self, w: W, e: Any) -> None:
        w.pop()
        lender = holder_of(w, e)
        w.lose_trait(lender, e.trait, discard=False)
        w.setinfo(borrowed=e.trait, lender=lender)
        w.gain_trait(e.player, e.trait)
        w.setinfo(borrowed=e.trait, lender=lender, actions=Q.action_allowance(w, e.player))

    @applies(E.Peeked)
    def a_peeked(self, w: W, e: Any) -> None:
        w.pop()
        count = Q.tparam("soothsayer", "count")
        seen = w.tile_seen if e.deck == "tiles" else w.card_seen
        k = min(count, len(seen))
        if any(e.player not in seen[i] for i in range(k)):  # items another seat saw: looked at first (CL-41)
            w.later(LookTop(e.player, e.deck, k))
        w.later(RevealTop(e.player, e.deck, count))

    @applies(CardsLooked)
    def a_looked(self, w: W, e: Any) -> None:
        h = w.pop()
        seen = list(w.tile_seen if h.deck == "tiles" else w.card_seen)
        for i in range(min(h.count, len(seen))):
            if e.player not in seen[i]:
                seen[i] = seen[i] + (e.player,)
        if h.deck == "tiles":
            w.tile_seen = tuple(seen)
        else:
            w.card_seen = tuple(seen)

    @applies(CardsMoved)
    def a_moved_cards(self, w: W, e: Any) -> None:
        h = w.pop()
        for c in e.cards:
            w.remove_card(h.player, c)
        w.to_discard(e.cards)
        w.draw(h.player, h.draw)

    @applies(E.TopRevealed)
    def a_top_revealed(self, w: W, e: Any) -> None:
        if e.deck == "tiles":
            w.tile_deck = remove1(w.tile_deck, e.item)
            w.tile_top = w.tile_top + (e.item,)
            w.tile_seen = w.tile_seen + ((e.player,),)
        else:
            w.card_deck = remove1(w.card_deck, e.item)
            w.card_top = w.card_top + (e.item,)
            w.card_seen = w.card_seen + ((e.player,),)

    @applies(E.LootReplenished)
    def a_replenished(self, w: W, e: Any) -> None:
        w.pop()
        for i in e.spaces:
            w.produce(i)

    @applies(E.CardDiscarded)
    def a_card_discarded(self, w: W, e: Any) -> None:
        h = w.todo[0]
        w.remove_card(e.player, e.card)
        w.to_discard([e.card])
        if type(h) is Market:
            w.gain(e.player, h.gold)

    @applies(E.Moved)
    def a_moved(self, w: W, e: Any) -> None:
        h = w.todo[0] if w.todo else None
        t = type(h)
        p = e.player
        owner = e.owner or p
        sp = w.spaces[e.space]  # a piece that is not there cannot move (no defined effect, CL-43)
        if not (owner in sp.colossi if e.piece == "colossus" else acol(sp, w.si(owner)) > 0):
            raise Undefined(f"{owner} has no {e.piece} on space {e.space}: there is nothing to move")
        if getattr(h, "player", None) != p:  # a step out of turn that a judge let stand
            self.stray_step(w, e, owner)
        elif t is Actions or t is Speedy:
            if not e.road or w.road is None:  # (a road step with no road to follow, let stand: a paid step)
                if t is Actions:
                    w.setinfo(actions=w.info.actions - 1, moves=w.info.moves + 1, acted=True)
                else:
                    fresh = tuple((i, n - 1 if i == e.space else n) for i, n in h.fresh)
                    w.set_head(Speedy(p, tuple((i, n) for i, n in fresh if n > 0)))
                visited: tuple[int, ...] = (e.space,)
            else:
                visited = w.road.visited
            self.step(w, e, owner, visited, own_turn=True)
        elif t is Influence:
            visited = w.road.visited if e.road and w.road is not None else (e.space,)
            if not e.road:
                w.set_head(Influence(p, moved=True))
            self.step(w, e, owner, visited, own_turn=False)
        elif t is Purge:
            j = w.si(owner)
            left = list(h.left)
            left[j] -= 1
            w.set_head(Purge(p, h.space, tuple(left)))
            w.step_piece("acolyte", owner, e.space, e.to, p)
        elif t is Recall:
            w.step_piece("acolyte", owner, e.space, e.to, p)
        elif t is Domineer:
            w.step_piece("colossus", owner, e.space, e.to, p)
        else:
            self.stray_step(w, e, owner)

    def stray_step(self, w: W, e: Any, owner: str) -> None:
        """A step no task asked for that a judge let stand: the piece moves (and what its arrival
        does happens), nothing is spent (``a_moved`` found the piece there)."""
        w.road = None
        w.step_piece(e.piece, owner, e.space, e.to, e.player)

    def step(self, w: W, e: Any, owner: str, visited: tuple[int, ...], own_turn: bool) -> None:
        """One step of a move with its Road Movement bookkeeping (CL-3.3)."""
        p = e.player
        dest = w.spaces[e.to]
        was_explored = dest.tile is not None
        roads = has_road(w, e.to, owner, p, own_turn)
        others_there = tuple(c for c in dest.colossi if c != owner) if e.piece == "colossus" else ()
        beasts_there = dest.beasts if e.piece == "colossus" else ()
        alive = w.step_piece(e.piece, owner, e.space, e.to, p)
        path = visited + (e.to,)
        if not alive:
            w.road = None
        elif not was_explored:
            w.road = Road(p, e.piece, owner, e.to, path, False, "explored")
        else:
            w.road = Road(p, e.piece, owner, e.to, path, roads, "" if roads else f"no piece of {owner}")
        if alive and e.piece == "colossus" and owner == p and own_turn and Q.has(w, p, "domineering") \
                and (others_there or beasts_there) and was_explored:
            w.later(Domineer(p, e.to, tuple(beasts_there), tuple(others_there)))

    @applies(E.AcolyteSpawned)
    def a_spawned(self, w: W, e: Any) -> None:
        p = e.player
        w.setinfo(actions=w.info.actions - 1, moves=w.info.moves + 1, acted=True)
        roads = has_road(w, e.space, p, p, True)
        w.setP(p, acolytes=w.P(p).acolytes - 1)
        w.add_acol(e.space, p, 1)
        alive = w.arrive("acolyte", p, e.space, p)
        w.road = Road(p, "acolyte", p, e.space, (e.space,), roads, "" if roads else f"no other piece of {p}") if alive else None

    @applies(E.CardPlayed)
    def a_card_played(self, w: W, e: Any) -> None:
        w.road = None
        play_card(w, e)

    @applies(E.BeastMoved)
    def a_beast_moved(self, w: W, e: Any) -> None:
        h = w.todo[0]
        t = type(h)
        if t is Actions:
            w.road = None
            w.pay(e.player, Q.tparam("beast-whisperer", "gold"), forced=False)
            w.setinfo(whispered=w.info.whispered + 1)
        elif t in (MoveBeast, Mantle):
            w.pop()
        elif t is Walk:
            w.pop()
            w.later(WalkOp(e.player, e.beast, h.left - 1))
        w.move_beast(e.beast, e.to, e.player)

    @applies(E.ActionBought)
    def a_action_bought(self, w: W, e: Any) -> None:
        w.road = None
        w.pay(e.player, Q.tparam("boldness", "gold"), forced=False)
        w.setinfo(actions=w.info.actions + 1)

    @applies(E.CardBought)
    def a_card_bought(self, w: W, e: Any) -> None:
        w.road = None
        w.pay(e.player, Q.tparam("mercantile", "gold"), forced=False)
        w.draw(e.player, 1)

    @applies(E.Alchemized)
    def a_alchemized(self, w: W, e: Any) -> None:
        w.road = None
        p = e.player
        if e.what == "card":
            w.remove_card(p, e.item)
            w.to_discard([e.item])
        elif e.what == "trait":
            w.lose_trait(p, e.item)
        elif e.what == "banner":
            bs = list(w.spaces[e.space].banners)
            bs.remove(p)
            w.setS(e.space, banners=tuple(bs))
            w.setP(p, banners=w.P(p).banners + 1)
        else:
            w.add_acol(e.space, p, -1)
            w.setP(p, acolytes=w.P(p).acolytes + 1)
        w.gain(p, Q.tparam("alchemist", "gold"))

    @applies(E.TraitDiscarded)
    def a_trait_discarded(self, w: W, e: Any) -> None:
        h = w.todo[0]
        if type(h) is Actions:
            w.road = None
        elif type(h) is GrowthDrop:
            w.pop()
        w.lose_trait(e.player, e.trait)

    @applies(E.ActionsEnded)
    def a_actions_ended(self, w: W, e: Any) -> None:
        h = w.todo[0] if w.todo else None
        if type(h) is not Actions or h.player != e.player:  # out of step, let stand: nothing ends (CL-43)
            return
        w.pop()
        w.road = None
        if h.extra:
            return
        p = e.player
        tasks: list[Any] = [MoveBeast(p)]
        if w.info.dominate:
            tasks += [Deploy(p), Rest(p)]
            w.setinfo(banner="deploy and rest")
        else:
            tasks.append(BannerChoice(p))
        w.later(*tasks)

    @applies(E.TileExplored)
    def a_explored(self, w: W, e: Any) -> None:
        h = w.todo[0] if w.todo else None
        if type(h) is Explore and h.space == e.space:
            w.pop()
            by = h.by
        elif w.spaces[e.space].tile is None:  # a tile turned up out of step that a judge let stand
            by = w.turn_player or w.first or w.players[0].id
        else:
            raise Undefined(f"space {e.space} is explored already: no tile can be turned up there")
        self.new_tile(w, e.space, e.tile, by)

    def new_tile(self, w: W, i: int, tile: str, by: str, box_first: bool = False) -> None:
        if box_first and tile in w.tile_box:  # (The Void under CL-23's option: the box first)
            w.tile_box = remove1(w.tile_box, tile)
        elif w.tile_top and w.tile_top[0] == tile:
            w.tile_top = w.tile_top[1:]
            w.tile_seen = w.tile_seen[1:]
        elif tile in w.tile_deck:
            w.tile_deck = remove1(w.tile_deck, tile)
        else:
            w.tile_box = remove1(w.tile_box, tile)
        w.setS(i, tile=tile)
        T = w.C.tiles[tile]
        if T.trigger is not None and T.trigger.kind == "gold-on-reveal":
            w.add_gold_cubes(i, int(T.trigger.params["amount"]))
        if w.options.loot_on_explore == "immediate":
            w.produce(i)
        if T.beast is not None:
            w.move_beast(T.beast.id, i, by)
        sp = w.spaces[i]
        for c in sp.colossi:
            w.arrive("colossus", c, i, by)
        for j, q in enumerate(Q.seats(w)):
            n = acol(w.spaces[i], j)
            if n:
                w.arrive("acolyte", q, i, by, count=n)

    @applies(E.BannerPhaseChosen)
    def a_phase_chosen(self, w: W, e: Any) -> None:
        w.pop()
        w.setinfo(banner=e.choice)
        w.later(Deploy(e.player) if e.choice == "deploy" else Rest(e.player))

    @applies(E.BannerRaised)
    def a_raised(self, w: W, e: Any) -> None:
        h = w.todo[0]
        if type(h) is Dominion:
            w.pop()
        else:
            w.setinfo(raised=w.info.raised + (e.space,))
        w.put_banner(e.player, e.space)

    @applies(E.BannerMoved)
    def a_banner_moved(self, w: W, e: Any) -> None:
        w.put_banner(e.player, e.to, by_move_from=e.space)
        w.setinfo(raised=w.info.raised + (e.to,))

    @applies(E.BannerScored)
    def a_scored(self, w: W, e: Any) -> None:
        h = w.todo[0]
        t = type(h)
        p = e.player
        mono = Q.has(w, p, "monolithic")
        if t is Rest:
            stone = h.stone or w.spaces[e.space].tile == "lair-stone-beast"
            own = sum(1 for o in w.spaces[e.space].banners if o == p)
            factor = Q.tparam("resolute", "loot_factor") if own >= 2 and Q.has(w, p, "resolute") else 1
            if not e.keep:
                w.take_banners(p, e.space)
            w.set_head(Rest(p, h.done + (e.space,), h.kept + (1 if e.keep else 0), stone))
            w.later(ScoreOp(p, e.space, rest=True, factor=factor, mono=mono))
        elif t is Deploy:
            w.setinfo(nomad_scored=w.info.nomad_scored + (e.space,))
            w.later(ScoreOp(p, e.space, rest=False, mono=mono))
        else:  # Miracle
            w.pop()
            w.take_banners(p, e.space)
            w.later(ScoreOp(p, e.space, rest=False, mono=mono))

    @applies(E.Passed)
    def a_passed(self, w: W, e: Any) -> None:
        h = w.pop()
        if type(h) in (Influence, Speedy, Recall) and w.road is not None and w.road.player == e.player:
            w.road = None

    @applies(E.SpaceChosen)
    def a_space_chosen(self, w: W, e: Any) -> None:
        h = w.todo[0]
        t = type(h)
        p = e.player
        i = e.space
        if t is PlaceChoice:
            spaces = tuple(x for x in h.spaces if x != i)
            if h.left > 1 and spaces:
                w.set_head(PlaceChoice(p, spaces, h.left - 1))
            else:
                w.pop()
            w.place(p, i, 1, p)
        elif t is Sabotage:
            if h.left > 1:
                w.set_head(Sabotage(p, h.left - 1))
            else:
                w.pop()
            for o in list(w.spaces[i].banners):
                w.take_banners(o, i)
        elif t is Maar:
            w.pop()
            w.move_cubes(i, h.space)
        elif t is Teleporter:
            w.pop()
            swap_spaces(w, h.space, i, p)
            w.later(ScoreOp(p, i, rest=False))
        elif t is Void:
            w.pop()
            w.later(VoidTile(p, i))

    @applies(E.DirectionChosen)
    def a_direction(self, w: W, e: Any) -> None:
        w.pop()
        wind(w, e.player, e.direction)

    @applies(E.AcolytesPlaced)
    def a_placed(self, w: W, e: Any) -> None:
        w.pop()
        w.place(e.player, e.space, e.count, e.player)

    @applies(E.AcolytesResurrected)
    def a_resurrected(self, w: W, e: Any) -> None:
        w.pop()
        p = e.player
        c = w.P(p).colossus
        w.setP(p, acolytes=w.P(p).acolytes - e.count)
        w.add_acol(c, p, e.count)
        w.arrive("acolyte", p, c, p, count=e.count)

    @applies(E.Reacted)
    def a_reacted(self, w: W, e: Any) -> None:
        w.pop()
        w.kill(e.space, e.player, 1, e.player)
        w.kill(e.victim_space, e.victim, 1, e.player)

    @applies(E.CardGiven)
    def a_card_given(self, w: W, e: Any) -> None:
        h = w.pop()
        w.remove_card(e.player, e.card)
        w.add_cards(e.to, [e.card])
        if type(h) is TradeGive:
            w.later(TradeBack(e.to, e.player, e.card, h.gold))

    @applies(E.GoldPaid)
    def a_gold_paid(self, w: W, e: Any) -> None:
        w.pop()
        w.transfer(e.player, e.to, e.amount)

    @applies(E.CardsContributed)
    def a_contributed(self, w: W, e: Any) -> None:
        h = w.pop()
        for c in e.cards:
            w.remove_card(e.player, c)
        w.pile = tuple(sorted(w.pile + tuple(e.cards)))
        w.gain(e.player, h.gold * len(e.cards))

    @applies(E.CardDealt)
    def a_dealt(self, w: W, e: Any) -> None:
        w.pop()
        w.pile = remove1(w.pile, e.card)
        w.add_cards(e.player, [e.card])

    @applies(E.TraitDrawn)
    def a_trait_drawn(self, w: W, e: Any) -> None:
        h = w.todo[0]
        w.trait_deck = remove1(w.trait_deck, e.trait)
        w.growth = w.growth + (e.trait,)
        if h.count > 1:
            w.set_head(GrowthDraw(h.count - 1))
        else:
            w.pop()

    @applies(E.TraitStolen)
    def a_stolen(self, w: W, e: Any) -> None:
        w.pop()
        holder = holder_of(w, e)
        w.lose_trait(holder, e.trait, discard=False)
        w.gain_trait(e.player, e.trait)

    @applies(E.DieRolled)
    def a_rolled(self, w: W, e: Any) -> None:
        h = w.todo[0] if w.todo else None
        if type(h) is not Rolls:  # a die rolled when none is owed, let stand: it decides nothing (CL-43)
            return
        v = h.victims[0]
        rest = h.victims[1:]
        if rest:
            w.set_head(Rolls(h.player, rest, h.kill_at_most, h.faces))
        else:
            w.pop()
        if e.value <= h.kill_at_most:
            w.kill(v.space, v.owner, 1, e.player)

    @applies(E.ComponentMoved)
    def a_component_moved(self, w: W, e: Any) -> None:
        h = w.todo[0]
        if type(h) is Launch:
            it = h.items[0]
            if len(h.items) > 1:
                w.set_head(Launch(h.player, h.items[1:]))
            else:
                w.pop()
            land(w, e.player, it, e.to, h.items[1:])
        else:  # Hungry
            sp, to = w.spaces[e.space], w.spaces[e.to]
            w.setS(e.space, **{e.component: getattr(sp, e.component) - 1})
            w.setS(e.to, **{e.component: getattr(to, e.component) + 1})

    @applies(E.TileReplaced)
    def a_tile_replaced(self, w: W, e: Any) -> None:
        h = w.pop()
        old = w.spaces[e.space].tile
        if old is not None and w.C.tiles[old].kind in ("environment", "lair"):
            w.tile_box = tuple(sorted(w.tile_box + (old,)))
        self.new_tile(w, e.space, e.tile, h.player, w.options.void_tile == "box-first")
        if h.player in w.spaces[e.space].banners:
            w.later(ScoreOp(h.player, e.space, rest=False))

    @applies(E.BeastDrawn)
    def a_beast_drawn(self, w: W, e: Any) -> None:
        w.pop()
        w.setP(e.player, animal=e.beast)

    @applies(E.CardTaken)
    def a_card_taken(self, w: W, e: Any) -> None:
        w.pop()
        w.discard = remove1(w.discard, e.card)
        w.remove_card(e.player, e.discard)
        w.to_discard([e.discard])
        w.add_cards(e.player, [e.card])

    @applies(E.TargetReached)
    def a_target(self, w: W, e: Any) -> None:
        w.reached = w.reached + (e.player,)

    @applies(E.TurnEnded)
    def a_turn_ended(self, w: W, e: Any) -> None:
        w.pop()
        p = e.player
        w.turn = e.turn  # (the engine's derivation names the turn it is; a stated one a ruling let stand counts on)
        info = w.info
        if info.borrowed is not None and info.lender is not None and info.borrowed in w.P(p).traits:
            tr, lender = info.borrowed, info.lender
            w.setinfo(borrowed=None, lender=None)
            w.lose_trait(p, tr, discard=False)
            w.gain_trait(lender, tr)
        me = w.P(p)
        if "animalistic" in me.traits and me.turns >= me.animal_until:
            w.lose_trait(p, "animalistic")
        w.info = Q.TurnInfo()
        w.road = None
        if w.options.hand_limit_timing == "end-of-turn" and len(w.P(p).hand) > Q.hand_limit(w, p):
            w.later(Discard(p))
        w.later(StartTurn())

    @applies(E.GameEnded)
    def a_game_ended(self, w: W, e: Any) -> None:
        w.result = Result(e.result, e.winner, e.reason)
        w.todo = []


def holder_of(w: W, e: Any) -> str:
    """The other player who has ``e.trait`` in play (a Trait borrowed or stolen); none: the event
    has no defined effect (CL-43)."""
    for p in w.players:
        if p.id != e.player and e.trait in p.traits:
            return p.id
    raise Undefined(f"no player but {e.player} has the Trait {e.trait!r} in play: there is nothing to take")


def remove1(items: tuple[str, ...], x: str) -> tuple[str, ...]:
    """``items`` less one ``x``; an ``x`` that is not there has no defined effect (a judge's
    ``stands`` cannot take it: :class:`Undefined`, in words; a checked event always finds it)."""
    try:
        i = items.index(x)
    except ValueError:
        raise Undefined(f"{x!r} is not where the event takes it from (it holds {len(items)} other items)") from None
    return items[:i] + items[i + 1:]


def has_road(x: Any, space: int, owner: str, mover: str, own_turn: bool) -> bool:
    """Does ``space`` hold a road for ``owner``'s piece (its own Colossus or Acolytes; Sly)?"""
    if x.spaces[space].tile is None:
        return False
    if own_turn and owner == mover:
        return Q.road_piece(x, space, owner)
    return Q.has_piece(x, space, owner)
