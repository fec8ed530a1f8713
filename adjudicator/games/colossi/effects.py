"""What the cards, tiles and Traits do: applied to a working copy (:class:`engine.W`).

``play_card`` runs a checked ``CardPlayed``; ``environment`` runs a tile's scoring effect;
``after_card`` puts a played card away (and offers it to Parasitic players); ``settle_task`` is
the engine's housekeeping on the task at the head of the queue (drop a choice that has no options
left, pay a forced payment, refill a deck).  Each effect reads its numbers from the card, tile or
Trait data.
"""

from __future__ import annotations

from typing import Any

from . import engine as Q
from .engine import W, acol, seats
from .state import (
    Actions, AfterCard, BannerChoice, ChooseFirst, Deploy, NamePlayer, Peek, PlaceStart, Replenish, SetAside,
    StartTurn, AnimalDraw, Borrow, Companions, Contribute, Deal, DealOp, Discard, Domineer, Dominion, Draft,
    Draw, EndTurn, Explore, GrowthDraw, GrowthDrop, GrowthPick, Hungry, Influence, Launch, Maar, Mantle, Market,
    Miracle, Mimesis, MoveBeast, Necro, Parasite, PlaceChoice, Purge, RampageOp, React, Recall, Rest, Resurrect,
    RevealTop, RevealTrait, Rolls, Sabotage, ScoreOp, Solidarity, Speedy, TakeTrait, Teleporter, TradeBack,
    TradeGive, TraitCap, Tribute, Victim, Void, VoidTile, Walk, WalkOp, Wind,
)


# == cards ==================================================================================================

def play_card(w: W, e: Any) -> None:
    """A checked ``CardPlayed``: pay, resolve, then put the card away (``AfterCard``)."""
    me = e.player
    card = w.C.cards[e.card]
    fx = card.effect
    prm = fx.params
    w.remove_card(me, e.card)
    info = w.info
    w.setinfo(cards=info.cards + 1, acted=True,
              actions=info.actions - (1 if w.options.card_costs_action else 0))
    cs = w.P(me).colossus
    k = fx.kind
    if k == "bolster":
        spaces = tuple(i for i, sp in enumerate(w.spaces) if acol(sp, w.si(me)) > 0)
        place_each(w, me, spaces, int(prm["per_space"]))
    elif k == "commandeer":
        w.put_banner(me, e.space)
    elif k == "convene":
        moves = []
        for a in w.B.adj[cs]:
            for q in seats(w):
                n = acol(w.spaces[a], w.si(q))
                if n and not Q.acolyte_protected(w, a, q):
                    moves.append((a, q, n, cs))
        w.push_acolytes(moves, me)
    elif k == "convert":
        for q in Q.opponents(w, me):
            n = acol(w.spaces[cs], w.si(q))
            if not n or Q.acolyte_protected(w, cs, q):
                continue
            kk = min(n, Q.acolyte_room(w, me))
            if kk <= 0:
                break
            w.add_acol(cs, q, -kk)
            w.setP(q, acolytes=w.P(q).acolytes + kk)
            w.place(me, cs, kk, me)
    elif k == "dominate":
        w.setinfo(dominate=True, actions=0)
    elif k == "influence":
        w.later(*[Influence(p) for p in w.order_from(me)])
    elif k == "intimidate":
        moves = []
        for a in w.B.adj[cs]:
            d = w.B.dir_to[cs][a]
            dest = w.B.step[a].get(d)
            for q in seats(w):
                n = acol(w.spaces[a], w.si(q))
                if n and not Q.acolyte_protected(w, a, q):
                    moves.append((a, q, n, dest))
        w.push_acolytes(moves, me)
    elif k == "magnetize":
        w.move_cubes(e.space, cs)
    elif k == "draw":
        w.draw(me, int(prm["count"]))
    elif k == "purge":
        left = tuple(acol(w.spaces[cs], j) if (q == me or not Q.acolyte_protected(w, cs, q)) else 0
                     for j, q in enumerate(seats(w)))
        if any(left):
            w.later(Purge(me, cs, left))
    elif k == "recall":
        w.later(Recall(me))
    elif k == "swap-colossi":
        a, b = e.targets
        sa, sb = w.P(a).colossus, w.P(b).colossus
        w.colossus_leaves(a, sa, sb, me)
        w.colossus_leaves(b, sb, sa, me)
        w.set_colossus(a, None)
        w.set_colossus(b, None)
        w.set_colossus(a, sb)
        w.set_colossus(b, sa)
        w.arrive("colossus", a, sb, me)
        w.arrive("colossus", b, sa, me)
    elif k == "ritual-sacrifice":
        victims = []
        for i in w.B.around(cs):
            for q in seats(w):
                if not Q.acolyte_protected(w, i, q):
                    victims += [Victim(i, q)] * acol(w.spaces[i], w.si(q))
        if victims:
            w.later(Rolls(me, tuple(victims), int(prm["kill_at_most"]), int(prm["faces"])))
    elif k == "sabotage":
        w.later(Sabotage(me, int(prm["max_spaces"])))
    elif k == "secure":
        n = acol(w.spaces[e.space], w.si(me))
        w.add_acol(e.space, me, -n)
        w.setP(me, acolytes=w.P(me).acolytes + n)
        w.put_banner(me, e.space)
    elif k == "short-rest":
        w.take_banners(me, e.space)
        w.later(ScoreOp(me, e.space, rest=False, mono=Q.has(w, me, "monolithic")))
    elif k == "steal-trait":
        holder = next(p.id for p in w.players if e.trait in p.traits)
        w.lose_trait(holder, e.trait, discard=False)
        w.gain_trait(me, e.trait)
    elif k == "teleport":
        frm = w.P(e.target).colossus
        w.step_piece("colossus", e.target, frm, e.space, me)
    elif k == "vandalize":
        holder = next(p.id for p in w.players if e.trait in p.traits)
        w.lose_trait(holder, e.trait)
    elif k == "lure":
        w.move_beast(e.beast, cs, me)
    elif k == "walk":
        w.later(WalkOp(me, e.beast, int(prm["steps"])))
    elif k == "rampage":
        w.later(RampageOp(me, e.beast, e.direction))
    elif k == "curse-limit":
        w.gain(me, int(prm["gold"]))
        w.setP(me, curses=w.P(me).curses + (e.card,))
        w.hand_check(me)
        w.trait_check(me)
    elif k == "haste":
        w.gain(me, int(prm["gold"]))
        # the turn ends at once: no more Actions, no Beast move, no Banner phase (CL-2.5)
        end = next(j for j, t in enumerate(w.todo) if type(t) is EndTurn)
        w.todo[0:end] = [t for t in w.todo[0:end] if type(t) not in (Actions, MoveBeast)]
        w.road = None
    elif k == "pity":
        w.gain(e.target, int(prm["other_gold"]))
        w.gain(me, int(prm["gold"]))
    elif k == "totality":
        for i, sp in enumerate(w.spaces):
            n = acol(sp, w.si(me))
            if n:
                w.add_acol(i, me, -n)
                w.setP(me, acolytes=w.P(me).acolytes + n)
            w.take_banners(me, i)
        w.gain(me, int(prm["gold"]))
    elif k == "abundance":
        w.draw(me, int(prm["own"]))
        for q in Q.opponents(w, me):
            w.draw(q, int(prm["others"]))
    elif k == "audacity":
        near = set()
        for _, i in Q.beasts_on_board(w):
            near.update(w.B.around(i))
        for q in w.order_from(me):
            n = sum(1 for i in sorted(near) if Q.control(w, i) == q)
            w.gain(q, n * int(prm["gold"]))
    elif k == "authority":
        for q in w.order_from(me):
            c = w.P(q).colossus
            if c is None:
                continue
            n = sum(acol(w.spaces[c], w.si(o)) for o in Q.opponents(w, q))
            w.gain(q, n * int(prm["gold"]))
    elif k == "companionship":
        w.later(*[Companions(q, e.target, int(prm["max"])) for q in w.order_from(me)])
    elif k == "comradery":
        for q in w.order_from(me):
            c = w.P(q).colossus
            if c is not None and len(w.spaces[c].colossi) > 1:
                w.gain(q, int(prm["gold"]))
    elif k == "diplomacy":
        for q in w.order_from(me):
            n = 0
            for i, sp in enumerate(w.spaces):
                a = acol(sp, w.si(q))
                if a:
                    c = Q.control(w, i)
                    if c is not None and c != q:
                        n += a
            w.gain(q, n * int(prm["gold"]))
    elif k == "dominion":
        w.later(*[Dominion(q) for q in w.order_from(me)])
    elif k == "fortitude":
        for q in w.order_from(me):
            c = w.P(q).colossus
            if c is None:
                continue
            n = sum(1 for a in w.B.adj[c] if Q.control(w, a) == q)
            w.gain(q, n * int(prm["gold"]))
    elif k == "miracle":
        w.later(*[Miracle(q) for q in w.order_from(me)])
    elif k == "reinforcements":
        for q in w.order_from(me):
            spaces = tuple(i for i, sp in enumerate(w.spaces) if q in sp.banners)
            place_each(w, q, spaces, int(prm["per_space"]))
    elif k == "solidarity":
        counts = [(w.P(q).acolytes, q) for q in seats(w)]
        best = max(n for n, _ in counts)
        top = [q for n, q in counts if n == best]
        if len(top) == 1 and best > 0:
            w.later(Solidarity(top[0]))
    elif k == "solitude":
        for q in w.order_from(me):
            c = w.P(q).colossus
            if c is None:
                continue
            if not any(sum(w.spaces[i].acolytes) for i in w.B.around(c)):
                w.gain(q, int(prm["gold"]))
    elif k == "windfall":
        for q in w.order_from(me):
            c = w.P(q).colossus
            if c is not None:
                w.later(ScoreOp(q, c, rest=False))
    elif k == "exchange":
        w.later(*[Contribute(q, int(prm["gold"])) for q in w.order_from(me)], DealOp(me))
    elif k == "growth":
        w.later(GrowthDraw(len(w.players)), *[GrowthPick(q) for q in w.order_from(me)])
    elif k == "mimesis":
        order = w.order_from(me)
        w.later(*[Mimesis(q) for q in order[1:] + order[:1]])
    elif k == "harvest":
        done: list[int] = []
        for q in w.order_from(me):
            c = w.P(q).colossus
            if c is not None and c not in done:
                done.append(c)
                w.produce(c)
    else:  # pragma: no cover - data.py accepts only the kinds above
        raise AssertionError(f"unknown card effect {k}")
    w.later(AfterCard(me, e.card))


def place_each(w: W, pid: str, spaces: tuple[int, ...], per: int) -> None:
    """One Acolyte (``per``) on each space; when the hand or a cap runs short, the player picks."""
    room = Q.acolyte_room(w, pid)
    if not spaces or room <= 0:
        return
    if room >= len(spaces) * per:
        for i in spaces:
            w.place(pid, i, per, pid)
    else:
        w.later(PlaceChoice(pid, spaces, room))


def after_card(w: W, op: AfterCard) -> None:
    card = w.C.cards[op.card]
    if card.effect.kind == "curse-limit":
        return
    w.to_discard([op.card])
    for h in Q.holders(w, "parasitic"):
        if h != op.player:
            w.later(Parasite(h, op.card))


# == tiles ==================================================================================================

def environment(w: W, op: Any) -> None:
    """A tile's scoring effect (EnvOp), for ``op.player`` on ``op.space``."""
    me, space = op.player, op.space
    fx = w.C.tiles[op.tile].rest
    if fx is None:
        return
    k, prm = fx.kind, fx.params
    if k in ("deep-mines", "pull-loot"):
        return  # MinesOp after a Rest; Maar before the Loot
    if k == "keep-banners":
        return  # the Rest lets BannerScored keep Banners (see Rest.stone)
    if k == "move-beast-anywhere":
        if Q.beasts_on_board(w):
            w.later(Mantle(me))
    elif k == "gold-per-own-acolyte":
        w.gain(me, int(prm["gold"]) * acol(w.spaces[space], w.si(me)))
    elif k == "launch":
        items = Q.launch_items(w, space, int(prm["range"]))
        lift(w, items)
        if items:
            w.later(Launch(me, tuple(items)))
    elif k == "sell-cards":
        if w.P(me).hand:
            w.later(Market(me, int(prm["gold"])))
    elif k == "moat":
        mine = 0
        others: list[str] = []
        for a in w.B.adj[space]:
            c = Q.control(w, a)
            if c == me:
                mine += 1
            elif c is not None and c not in others:
                others.append(c)
        w.gain(me, mine * int(prm["gold"]))
        for q in Q.opponents(w, me):
            if q in others:
                w.transfer(q, me, int(prm["steal"]))
    elif k == "new-hand":
        hand = w.P(me).hand
        w.setP(me, hand=())
        w.to_discard(hand)
        w.draw(me, int(prm["draw"]))
    elif k == "tribute":
        w.later(*[Tribute(q, me, int(prm["gold"])) for q in Q.opponents(w, me)])
    elif k == "speedy-slopes":
        w.place(me, space, w.P(me).acolytes, me)
        fresh = tuple((i, acol(sp, w.si(me))) for i, sp in enumerate(w.spaces) if acol(sp, w.si(me)))
        if fresh:
            w.later(Speedy(me, fresh))
    elif k == "swap-spaces":
        if any(sp.tile is not None and i != space for i, sp in enumerate(w.spaces)):
            w.later(Teleporter(me, space))
    elif k == "trade":
        w.later(*[TradeGive(me, q, int(prm["gold"])) for q in Q.opponents(w, me)])
    elif k == "replace-tile":
        w.later(Void(me))
    elif k == "kill-around":
        kill_around(w, space, me)
    elif k == "kill-around-beast":
        b = w.C.tiles[op.tile].beast
        at = Q.beast_space(w, b.id) if b else None
        if at is not None:
            kill_around(w, at, me)
    elif k == "gold-around-beast":
        b = w.C.tiles[op.tile].beast
        at = Q.beast_space(w, b.id) if b else None
        if at is not None:
            for a in w.B.adj[at]:
                w.add_gold_cubes(a, int(prm["amount"]))
    elif k == "spread-loot-from-beast":
        b = w.C.tiles[op.tile].beast
        at = Q.beast_space(w, b.id) if b else None
        if at is not None and w.spaces[at].loot:
            w.later(Hungry(me, at))
    elif k == "reproduce-around-beast":
        b = w.C.tiles[op.tile].beast
        at = Q.beast_space(w, b.id) if b else None
        if at is not None:
            for a in w.B.around(at):
                w.produce(a)
    elif k == "extra-actions":
        if me == w.turn_player:
            n = int(prm["actions"])
            if any(type(t) is Actions and t.player == me for t in w.todo):
                w.setinfo(actions=w.info.actions + n)
            else:
                w.setinfo(extra=w.info.extra + n)
    elif k == "blow-acolytes":
        w.later(Wind(me))
    else:  # pragma: no cover
        raise AssertionError(f"unknown tile effect {k}")


def kill_around(w: W, centre: int, by: str) -> None:
    for i in w.B.around(centre):
        for q in seats(w):
            n = acol(w.spaces[i], w.si(q))
            if n:
                w.kill(i, q, n, by)


def lift(w: W, items: list[Any]) -> None:
    """Launchpad: take everything listed off the board (it lands piece by piece)."""
    for it in items:
        sp = w.spaces[it.space]
        if it.component == "colossus":
            w.set_colossus(it.owner, None)
        elif it.component == "acolyte":
            w.add_acol(it.space, it.owner, -1)
        elif it.component == "banner":
            bs = list(sp.banners)
            bs.remove(it.owner)
            w.setS(it.space, banners=tuple(bs))
        elif it.component == "beast":
            bs = list(sp.beasts)
            bs.remove(it.owner)
            w.setS(it.space, beasts=tuple(bs))
        else:
            w.setS(it.space, **{it.component: getattr(sp, it.component) - 1})


def land(w: W, me: str, it: Any, to: int) -> None:
    """Launchpad: one lifted component put down on ``to``."""
    sp = w.spaces[to]
    if it.component == "colossus":
        w.set_colossus(it.owner, to)
        w.arrive("colossus", it.owner, to, me)
    elif it.component == "acolyte":
        w.add_acol(to, it.owner, 1)
        w.arrive("acolyte", it.owner, to, me)
    elif it.component == "banner":
        w.setS(to, banners=sp.banners + (it.owner,))
    elif it.component == "beast":
        w.setS(to, beasts=sp.beasts + (it.owner,))
        w.beast_enters(w.C.beasts[it.owner].beast.passive, to, me)
    else:
        w.setS(to, **{it.component: getattr(sp, it.component) + 1})


def swap_spaces(w: W, a: int, b: int, me: str) -> None:
    """Teleporter: everything on ``a`` and ``b`` trades places (guarded Acolytes stay)."""
    ids = seats(w)
    sa, sb = w.spaces[a], w.spaces[b]
    stay_a = tuple(acol(sa, j) if Q.acolyte_protected(w, a, q) else 0 for j, q in enumerate(ids))
    stay_b = tuple(acol(sb, j) if Q.acolyte_protected(w, b, q) else 0 for j, q in enumerate(ids))
    move_a = tuple(acol(sa, j) - stay_a[j] for j in range(len(ids)))
    move_b = tuple(acol(sb, j) - stay_b[j] for j in range(len(ids)))
    for c in sa.colossi:
        w.setP(c, colossus=b)
    for c in sb.colossi:
        w.setP(c, colossus=a)
    w.setS(a, colossi=sb.colossi, banners=sb.banners, beasts=sb.beasts, gold=sb.gold, blue=sb.blue, green=sb.green,
           acolytes=tuple(stay_a[j] + move_b[j] for j in range(len(ids))))
    w.setS(b, colossi=sa.colossi, banners=sa.banners, beasts=sa.beasts, gold=sa.gold, blue=sa.blue, green=sa.green,
           acolytes=tuple(stay_b[j] + move_a[j] for j in range(len(ids))))
    for to, colossi, moved, beasts in ((a, sb.colossi, move_b, sb.beasts), (b, sa.colossi, move_a, sa.beasts)):
        for c in colossi:
            w.arrive("colossus", c, to, me)
        for j, q in enumerate(ids):
            if moved[j]:
                w.arrive("acolyte", q, to, me, count=moved[j])
        for bst in beasts:
            w.beast_enters(w.C.beasts[bst].beast.passive, to, me)


def wind(w: W, me: str, direction: str) -> None:
    """The Wind Beast's lair: every unguarded Acolyte shifts one space ``direction``."""
    moves = []
    for i, sp in enumerate(w.spaces):
        for j, q in enumerate(seats(w)):
            n = acol(sp, j)
            if n and not Q.acolyte_protected(w, i, q):
                moves.append((i, q, n, w.B.step[i].get(direction)))
    w.push_acolytes(moves, me)


# == housekeeping on the head task =================================================================================

def _refill_traits(w: W) -> bool:
    if not w.trait_deck and w.trait_discard:
        w.trait_deck, w.trait_discard = w.trait_discard, ()
        return True
    return False


def settle_task(w: W, h: Any) -> bool:
    """Tidy the head task; True when the queue changed (the pump looks again)."""
    t = type(h)
    if t in WAITING:
        return False
    me = getattr(h, "player", None)
    if t is RevealTrait:
        if not w.options.use_traits or len(w.trait_row) >= 3:
            w.pop()
            return True
        if not w.trait_deck:
            if not _refill_traits(w):
                w.pop()
            return True
        return False
    if t in (Draft, TakeTrait):
        if not w.options.use_traits:
            w.pop()
            return True
        if not w.trait_deck and _refill_traits(w):
            return True
        if not w.trait_deck and not w.trait_row:
            w.pop()
            return True
        return False
    if t is GrowthDraw:
        if h.count <= 0:
            w.pop()
            return True
        if not w.trait_deck:
            if not _refill_traits(w):
                w.pop()
            return True
        return False
    if t is GrowthPick:
        if not w.growth:
            w.pop()
            return True
        return False
    if t is GrowthDrop:
        if h.trait not in w.P(me).traits:
            w.pop()
            return True
        return False
    if t is Draw:
        if w.card_top or w.card_deck:
            return False
        if w.discard and w.options.reshuffle_discard:
            w.card_deck, w.discard = w.discard, ()
            return True
        w.pop()
        return True
    if t is RevealTop:
        top, deck = (w.tile_top, w.tile_deck) if h.deck == "tiles" else (w.card_top, w.card_deck)
        if len(top) >= h.count or not deck:
            w.pop()
            return True
        return False
    if t is Explore:
        if w.spaces[h.space].tile is not None or not (w.tile_top or w.tile_deck or w.tile_box):
            w.pop()
            return True
        return False
    if t is VoidTile:
        if not (w.tile_top or w.tile_deck or w.tile_box):
            w.pop()
            return True
        return False
    if t is Discard:
        if len(w.P(me).hand) <= Q.hand_limit(w, me):
            w.pop()
            return True
        return False
    if t is TraitCap:
        if Q.counted_traits(w, me) <= Q.trait_cap(w, me):
            w.pop()
            return True
        return False
    if t is EndTurn:
        if w.info.extra > 0:
            w.todo.insert(0, Actions(w.turn_player, extra=True))
            w.setinfo(actions=w.info.extra, extra=0)
            return True
        return False
    if t is Rest:
        if all(i in h.done for i, sp in enumerate(w.spaces) if me in sp.banners):
            w.pop()
            return True
        return False
    if t is Tribute:
        payer = w.P(me)
        if not payer.hand:
            w.transfer(me, h.to, h.gold)
            w.pop()
            return True
        return False
    if t is TradeGive:
        if not w.P(me).hand:
            w.pop()
            return True
        return False
    if t is TradeBack:
        if not [c for c in w.P(me).hand if c != h.card]:
            w.transfer(me, h.to, h.gold)
            w.pop()
            return True
        return False
    if t is Contribute:
        if not w.P(me).hand:
            w.pop()
            return True
        return False
    if t is Deal:
        if not w.pile:
            w.pop()
            return True
        return False
    if t is AnimalDraw:
        from .rules import animal_choices

        if not animal_choices(w):
            w.pop()
            return True
        return False
    if t is Influence and h.moved and not (w.road is not None and w.road.open):
        w.pop()
        return True
    if t is Speedy:
        fresh = tuple((i, min(n, acol(w.spaces[i], w.si(me)))) for i, n in h.fresh)
        fresh = tuple((i, n) for i, n in fresh if n > 0)
        if fresh != h.fresh:
            w.set_head(Speedy(me, fresh))
            return True
    if t is Purge:
        sp = w.spaces[h.space]
        left = tuple(min(n, acol(sp, j)) for j, n in enumerate(h.left))
        if left != h.left:
            w.set_head(Purge(me, h.space, left))
            return True
    if t is Rolls:
        v = h.victims
        while v and (acol(w.spaces[v[0].space], w.si(v[0].owner)) <= 0
                     or Q.acolyte_protected(w, v[0].space, v[0].owner)):
            v = v[1:]
        if v != h.victims:
            if v:
                w.set_head(Rolls(me, v, h.kill_at_most, h.faces))
            else:
                w.pop()
            return True
        return False
    if t is Domineer:
        sp = w.spaces[h.space]
        bs = tuple(b for b in h.beasts if b in sp.beasts)
        cs = tuple(c for c in h.colossi if c in sp.colossi)
        if (bs, cs) != (h.beasts, h.colossi):
            w.set_head(Domineer(me, h.space, bs, cs))
            return True
    if t is Resurrect:
        n = min(h.count, w.P(me).acolytes)
        if n != h.count:
            if n <= 0:
                w.pop()
            else:
                w.set_head(Resurrect(me, n))
            return True
    if t is Necro:
        n = min(h.count, Q.acolyte_room(w, me))
        if n != h.count:
            if n <= 0:
                w.pop()
            else:
                w.set_head(Necro(me, h.space, n))
            return True
    if t is PlaceChoice:
        n = min(h.left, Q.acolyte_room(w, me))
        if n != h.left:
            if n <= 0:
                w.pop()
            else:
                w.set_head(PlaceChoice(me, h.spaces, n))
            return True
    if t in CHOICE_TASKS:
        from .rules import task_options

        if not task_options(w, h):
            w.pop()
            return True
    return False


#: tasks that always wait for an event as they are
WAITING = frozenset({Actions, BannerChoice, Deploy, StartTurn, Replenish, NamePlayer, Peek, PlaceStart, ChooseFirst,
                     SetAside, Wind, Void})

#: tasks that are dropped when they offer nothing (the options come from rules.task_options)
CHOICE_TASKS = (Borrow, MoveBeast, PlaceChoice, Companions, Influence, Purge, Recall, Sabotage, Walk, Domineer, Maar,
                Market, Mantle, Hungry, Launch, Teleporter, Speedy, Dominion, Miracle, Solidarity, Mimesis,
                Resurrect, Necro, React, Parasite, GrowthPick)

