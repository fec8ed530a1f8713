"""What the cards, tiles and Traits do: applied to a working copy (:class:`engine.W`).

``play_card`` runs a checked ``CardPlayed``; ``environment`` runs a tile's scoring effect;
``after_card`` puts a played card away (and offers it to Parasitic players); ``settle_task`` is
the engine's housekeeping on the task at the head of the queue (drop a choice that has no options
left, pay a forced payment, refill a deck).  Each effect reads its numbers from the card, tile or
Trait data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.core.events import HIDDEN

from . import engine as Q
from .engine import W, acol, seats
from .state import (
    Actions, AfterCard, BannerChoice, ChooseFirst, Deploy, NamePlayer, Peek, PlaceStart, Replenish, SetAside,
    StartTurn, AnimalDraw, Borrow, Companions, Contribute, Deal, DealOp, Discard, Domineer, Dominion, Draft,
    Draw, EndTurn, Explore, GrowthDraw, GrowthDrop, GrowthPick, Hungry, Influence, Launch, LookTop, Maar, Mantle,
    Market, Miracle, Mimesis, MoveBeast, Necro, NewHand, Parasite, PlaceChoice, Purge, RampageOp, React, Recall,
    Rest, Resurrect, RevealTop, RevealTrait, Rolls, Sabotage, ScoreOp, Solidarity, Speedy, TakeTrait, Teleporter, TradeBack,
    TradeGive, TraitCap, Tribute, Victim, Void, VoidTile, Walk, WalkOp, Wind,
)


#: what an effect's data gives it (the ``params`` of a card's or tile's effect)
Params = Mapping[str, Any]


@dataclass(frozen=True)
class Effect:
    """An effect kind: the parameters its data must give, and what it does to a working copy."""

    params: tuple[str, ...]
    run: Callable[[W, Any, Params], None]


#: card effect kind -> what it does: the one list of the card effect kinds (``data.py`` checks
#: every card's effect against it)
CARD_EFFECTS: dict[str, Effect] = {}
#: tile scoring (Rest) effect kind -> what it does: the one list of the tile effect kinds
TILE_EFFECTS: dict[str, Effect] = {}


def _registrar(table: dict[str, Effect]) -> Callable[..., Callable[[Callable[..., None]], Callable[..., None]]]:
    def register(kind: str, *params: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        def mark(fn: Callable[..., None]) -> Callable[..., None]:
            assert kind not in table, f"effect kind {kind!r} registered twice"
            table[kind] = Effect(params, fn)
            return fn
        return mark
    return register


#: ``@card_effect(kind, *params)``: the handler of a card effect kind (``handler(w, CardPlayed, params)``)
card_effect = _registrar(CARD_EFFECTS)
#: ``@tile_effect(kind, *params)``: the handler of a tile's scoring effect (``handler(w, EnvOp, params)``)
tile_effect = _registrar(TILE_EFFECTS)


# == cards ==================================================================================================

def play_card(w: W, e: Any) -> None:
    """A checked ``CardPlayed``: pay, resolve the card's effect, then put the card away (``AfterCard``)."""
    me = e.player
    card = w.C.cards[e.card]
    w.remove_card(me, e.card)
    info = w.info
    w.setinfo(cards=info.cards + 1, acted=True,
              actions=info.actions - (1 if w.options.card_costs_action else 0))
    CARD_EFFECTS[card.effect.kind].run(w, e, card.effect.params)
    w.later(AfterCard(me, e.card))


@card_effect("bolster", "per_space")
def _bolster(w: W, e: Any, prm: Params) -> None:
    me = e.player
    spaces = tuple(i for i, sp in enumerate(w.spaces) if acol(sp, w.si(me)) > 0)
    place_each(w, me, spaces, int(prm["per_space"]))


@card_effect("commandeer")
def _commandeer(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.put_banner(me, e.space)


@card_effect("convene", "range")
def _convene(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    cs = w.P(e.player).colossus
    moves = []
    for a in w.B.adj[cs]:
        for q in seats(w):
            n = acol(w.spaces[a], w.si(q))
            if n and not Q.acolyte_protected(w, a, q):
                moves.append((a, q, n, cs))
    w.push_acolytes(moves, me)


@card_effect("convert")
def _convert(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    cs = w.P(e.player).colossus
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


@card_effect("dominate")
def _dominate(w: W, e: Any, _prm: Params) -> None:
    w.setinfo(dominate=True, actions=0)


@card_effect("influence")
def _influence(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.later(*[Influence(p) for p in w.order_from(me)])


@card_effect("intimidate", "distance")
def _intimidate(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    cs = w.P(e.player).colossus
    moves = []
    for a in w.B.adj[cs]:
        d = w.B.dir_to[cs][a]
        dest = w.B.step[a].get(d)
        for q in seats(w):
            n = acol(w.spaces[a], w.si(q))
            if n and not Q.acolyte_protected(w, a, q):
                moves.append((a, q, n, dest))
    w.push_acolytes(moves, me)


@card_effect("magnetize")
def _magnetize(w: W, e: Any, _prm: Params) -> None:
    cs = w.P(e.player).colossus
    w.move_cubes(e.space, cs)


@card_effect("draw", "count")
def _draw(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.draw(me, int(prm["count"]))


@card_effect("purge")
def _purge(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    cs = w.P(e.player).colossus
    left = tuple(acol(w.spaces[cs], j) if (q == me or not Q.acolyte_protected(w, cs, q)) else 0
                 for j, q in enumerate(seats(w)))
    if any(left):
        w.later(Purge(me, cs, left))


@card_effect("recall")
def _recall(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.later(Recall(me))


@card_effect("swap-colossi")
def _swap_colossi(w: W, e: Any, _prm: Params) -> None:
    me = e.player
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


@card_effect("ritual-sacrifice", "kill_at_most", "faces", "range")
def _ritual_sacrifice(w: W, e: Any, prm: Params) -> None:
    me = e.player
    cs = w.P(e.player).colossus
    victims = []
    for i in w.B.around(cs):
        for q in seats(w):
            if not Q.acolyte_protected(w, i, q):
                victims += [Victim(i, q)] * acol(w.spaces[i], w.si(q))
    if victims:
        w.later(Rolls(me, tuple(victims), int(prm["kill_at_most"]), int(prm["faces"])))


@card_effect("sabotage", "max_spaces")
def _sabotage(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.later(Sabotage(me, int(prm["max_spaces"])))


@card_effect("secure", "min_acolytes")
def _secure(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    n = acol(w.spaces[e.space], w.si(me))
    w.add_acol(e.space, me, -n)
    w.setP(me, acolytes=w.P(me).acolytes + n)
    w.put_banner(me, e.space)


@card_effect("short-rest")
def _short_rest(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.take_banners(me, e.space)
    w.later(ScoreOp(me, e.space, rest=False, mono=Q.has(w, me, "monolithic")))


@card_effect("steal-trait")
def _steal_trait(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    holder = next(p.id for p in w.players if e.trait in p.traits)
    w.lose_trait(holder, e.trait, discard=False)
    w.gain_trait(me, e.trait)


@card_effect("teleport")
def _teleport(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    frm = w.P(e.target).colossus
    w.step_piece("colossus", e.target, frm, e.space, me)


@card_effect("vandalize")
def _vandalize(w: W, e: Any, _prm: Params) -> None:
    holder = next(p.id for p in w.players if e.trait in p.traits)
    w.lose_trait(holder, e.trait)


@card_effect("lure")
def _lure(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    cs = w.P(e.player).colossus
    w.move_beast(e.beast, cs, me)


@card_effect("walk", "steps")
def _walk(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.later(WalkOp(me, e.beast, int(prm["steps"])))


@card_effect("rampage")
def _rampage(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.later(RampageOp(me, e.beast, e.direction))


@card_effect("curse-limit", "gold", "limit", "value")
def _curse_limit(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.gain(me, int(prm["gold"]))
    w.setP(me, curses=w.P(me).curses + (e.card,))
    w.hand_check(me)
    w.trait_check(me)


@card_effect("haste", "gold")
def _haste(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.gain(me, int(prm["gold"]))
    # the turn ends at once: no more Actions, no Beast move, no Banner phase (CL-2.5)
    end = next(j for j, t in enumerate(w.todo) if type(t) is EndTurn)
    w.todo[0:end] = [t for t in w.todo[0:end] if type(t) not in (Actions, MoveBeast)]
    w.road = None


@card_effect("pity", "gold", "other_gold")
def _pity(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.gain(e.target, int(prm["other_gold"]))
    w.gain(me, int(prm["gold"]))


@card_effect("totality", "gold")
def _totality(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for i, sp in enumerate(w.spaces):
        n = acol(sp, w.si(me))
        if n:
            w.add_acol(i, me, -n)
            w.setP(me, acolytes=w.P(me).acolytes + n)
        w.take_banners(me, i)
    w.gain(me, int(prm["gold"]))


@card_effect("abundance", "own", "others")
def _abundance(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.draw(me, int(prm["own"]))
    for q in Q.opponents(w, me):
        w.draw(q, int(prm["others"]))


@card_effect("audacity", "gold")
def _audacity(w: W, e: Any, prm: Params) -> None:
    me = e.player
    near = set()
    for _, i in Q.beasts_on_board(w):
        near.update(w.B.around(i))
    for q in w.order_from(me):
        n = sum(1 for i in sorted(near) if Q.control(w, i) == q)
        w.gain(q, n * int(prm["gold"]))


@card_effect("authority", "gold")
def _authority(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for q in w.order_from(me):
        c = w.P(q).colossus
        if c is None:
            continue
        n = sum(acol(w.spaces[c], w.si(o)) for o in Q.opponents(w, q))
        w.gain(q, n * int(prm["gold"]))


@card_effect("companionship", "max")
def _companionship(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.later(*[Companions(q, e.target, int(prm["max"])) for q in w.order_from(me)])


@card_effect("comradery", "gold")
def _comradery(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for q in w.order_from(me):
        c = w.P(q).colossus
        if c is not None and len(w.spaces[c].colossi) > 1:
            w.gain(q, int(prm["gold"]))


@card_effect("diplomacy", "gold")
def _diplomacy(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for q in w.order_from(me):
        n = 0
        for i, sp in enumerate(w.spaces):
            a = acol(sp, w.si(q))
            if a:
                c = Q.control(w, i)
                if c is not None and c != q:
                    n += a
        w.gain(q, n * int(prm["gold"]))


@card_effect("dominion")
def _dominion(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.later(*[Dominion(q) for q in w.order_from(me)])


@card_effect("fortitude", "gold")
def _fortitude(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for q in w.order_from(me):
        c = w.P(q).colossus
        if c is None:
            continue
        n = sum(1 for a in w.B.adj[c] if Q.control(w, a) == q)
        w.gain(q, n * int(prm["gold"]))


@card_effect("miracle")
def _miracle(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.later(*[Miracle(q) for q in w.order_from(me)])


@card_effect("reinforcements", "per_space")
def _reinforcements(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for q in w.order_from(me):
        spaces = tuple(i for i, sp in enumerate(w.spaces) if q in sp.banners)
        place_each(w, q, spaces, int(prm["per_space"]))


@card_effect("solidarity")
def _solidarity(w: W, e: Any, _prm: Params) -> None:
    counts = [(w.P(q).acolytes, q) for q in seats(w)]
    best = max(n for n, _ in counts)
    top = [q for n, q in counts if n == best]
    if len(top) == 1 and best > 0:
        w.later(Solidarity(top[0]))


@card_effect("solitude", "gold", "range")
def _solitude(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for q in w.order_from(me):
        c = w.P(q).colossus
        if c is None:
            continue
        if not any(sum(w.spaces[i].acolytes) for i in w.B.around(c)):
            w.gain(q, int(prm["gold"]))


@card_effect("windfall")
def _windfall(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    for q in w.order_from(me):
        c = w.P(q).colossus
        if c is not None:
            w.later(ScoreOp(q, c, rest=False))


@card_effect("exchange", "gold")
def _exchange(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.later(*[Contribute(q, int(prm["gold"])) for q in w.order_from(me)], DealOp(me))


@card_effect("growth")
def _growth(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.later(GrowthDraw(len(w.players)), *[GrowthPick(q) for q in w.order_from(me)])


@card_effect("mimesis")
def _mimesis(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    order = w.order_from(me)
    w.later(*[Mimesis(q) for q in order[1:] + order[:1]])


@card_effect("harvest")
def _harvest(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    done: list[int] = []
    for q in w.order_from(me):
        c = w.P(q).colossus
        if c is not None and c not in done:
            done.append(c)
            w.produce(c)


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
    fx = w.C.tiles[op.tile].rest
    if fx is not None:
        TILE_EFFECTS[fx.kind].run(w, op, fx.params)


@tile_effect("deep-mines", "base", "step")
@tile_effect("pull-loot", "range")
@tile_effect("keep-banners", "max")
def _applied_elsewhere(w: W, op: Any, _prm: Params) -> None:
    """Deep Mines score after a Rest (MinesOp), the Maar pulls Loot before it is collected, and a
    Rest lets BannerScored keep Banners (Rest.stone): nothing happens at scoring time."""


@tile_effect("move-beast-anywhere")
def _move_beast_anywhere(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    if Q.beasts_on_board(w):
        w.later(Mantle(me))


@tile_effect("gold-per-own-acolyte", "gold")
def _gold_per_own_acolyte(w: W, op: Any, prm: Params) -> None:
    me = op.player
    space = op.space
    w.gain(me, int(prm["gold"]) * acol(w.spaces[space], w.si(me)))


@tile_effect("launch", "range")
def _launch(w: W, op: Any, prm: Params) -> None:
    me = op.player
    space = op.space
    items = Q.launch_items(w, space, int(prm["range"]))
    lift(w, items)
    if items:
        w.later(Launch(me, tuple(items)))


@tile_effect("sell-cards", "gold")
def _sell_cards(w: W, op: Any, prm: Params) -> None:
    me = op.player
    if w.P(me).hand:
        w.later(Market(me, int(prm["gold"])))


@tile_effect("moat", "gold", "steal")
def _moat(w: W, op: Any, prm: Params) -> None:
    me = op.player
    space = op.space
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


@tile_effect("new-hand", "draw")
def _new_hand(w: W, op: Any, prm: Params) -> None:
    me = op.player
    if w.P(me).hand:  # the hand goes face up to the discard pile: an event names it (CL-42)
        w.later(NewHand(me, int(prm["draw"])))
    else:
        w.draw(me, int(prm["draw"]))


@tile_effect("tribute", "gold")
def _tribute(w: W, op: Any, prm: Params) -> None:
    me = op.player
    w.later(*[Tribute(q, me, int(prm["gold"])) for q in Q.opponents(w, me)])


@tile_effect("speedy-slopes")
def _speedy_slopes(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    space = op.space
    w.place(me, space, w.P(me).acolytes, me)
    fresh = tuple((i, acol(sp, w.si(me))) for i, sp in enumerate(w.spaces) if acol(sp, w.si(me)))
    if fresh:
        w.later(Speedy(me, fresh))


@tile_effect("swap-spaces")
def _swap_spaces(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    space = op.space
    if any(sp.tile is not None and i != space for i, sp in enumerate(w.spaces)):
        w.later(Teleporter(me, space))


@tile_effect("trade", "gold")
def _trade(w: W, op: Any, prm: Params) -> None:
    me = op.player
    w.later(*[TradeGive(me, q, int(prm["gold"])) for q in Q.opponents(w, me)])


@tile_effect("replace-tile")
def _replace_tile(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    w.later(Void(me))


@tile_effect("kill-around", "range")
def _kill_around(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    space = op.space
    kill_around(w, space, me)


@tile_effect("kill-around-beast", "range")
def _kill_around_beast(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    b = w.C.tiles[op.tile].beast
    at = Q.beast_space(w, b.id) if b else None
    if at is not None:
        kill_around(w, at, me)


@tile_effect("gold-around-beast", "amount")
def _gold_around_beast(w: W, op: Any, prm: Params) -> None:
    b = w.C.tiles[op.tile].beast
    at = Q.beast_space(w, b.id) if b else None
    if at is not None:
        for a in w.B.adj[at]:
            w.add_gold_cubes(a, int(prm["amount"]))


@tile_effect("spread-loot-from-beast")
def _spread_loot_from_beast(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    b = w.C.tiles[op.tile].beast
    at = Q.beast_space(w, b.id) if b else None
    if at is not None and w.spaces[at].loot:
        w.later(Hungry(me, at))


@tile_effect("reproduce-around-beast", "range")
def _reproduce_around_beast(w: W, op: Any, _prm: Params) -> None:
    b = w.C.tiles[op.tile].beast
    at = Q.beast_space(w, b.id) if b else None
    if at is not None:
        for a in w.B.around(at):
            w.produce(a)


@tile_effect("extra-actions", "actions")
def _extra_actions(w: W, op: Any, prm: Params) -> None:
    me = op.player
    if me == w.turn_player:
        n = int(prm["actions"])
        if any(type(t) is Actions and t.player == me for t in w.todo):
            w.setinfo(actions=w.info.actions + n)
        else:
            w.setinfo(extra=w.info.extra + n)


@tile_effect("blow-acolytes")
def _blow_acolytes(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    w.later(Wind(me))


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
    """Tidy the head task; True when the queue changed (the pump looks again).

    A task type's own housekeeping (:data:`_SETTLE`) says True (changed), False (leave it) or
    None (then, as for any other choice task, it is dropped when it offers no option left)."""
    t = type(h)
    if t in WAITING:
        return False
    fn = _SETTLE.get(t)
    if fn is not None:
        done = fn(w, h)
        if done is not None:
            return done
    if t in CHOICE_TASKS:
        task_options = _TASK_OPTIONS[0] if _TASK_OPTIONS else _task_options()
        if not task_options(w, h):
            w.pop()
            return True
    return False


#: rules.task_options, once imported (rules imports this module: it cannot be imported at the top)
_TASK_OPTIONS: list[Any] = []


def _task_options() -> Any:
    from .rules import task_options

    _TASK_OPTIONS.append(task_options)
    return task_options


#: task type -> its housekeeping (see :func:`settle_task`)
_SETTLE: dict[type, Callable[[W, Any], bool | None]] = {}


def _settles(*types: type) -> Callable[[Callable[[W, Any], bool | None]], Callable[[W, Any], bool | None]]:
    def mark(fn: Callable[[W, Any], bool | None]) -> Callable[[W, Any], bool | None]:
        for t in types:
            _SETTLE[t] = fn
        return fn
    return mark


def _drop(w: W) -> bool:
    w.pop()
    return True


def _drop_if(w: W, cond: bool) -> bool:
    """Drop the head task when ``cond`` (it has nothing left to do)."""
    return _drop(w) if cond else False


def _shrink(w: W, n: int, old: int, smaller: Any) -> bool | None:
    """A count that must not exceed what there is: drop at 0, else replace with ``smaller(n)``;
    None when it still fits."""
    if n == old:
        return None
    if n <= 0:
        return _drop(w)
    w.set_head(smaller(n))
    return True


# -- decks and rows ------------------------------------------------------------------------------------------

@_settles(RevealTrait)
def _settle_reveal_trait(w: W, h: Any) -> bool:
    if not w.options.use_traits or len(w.trait_row) >= 3:
        return _drop(w)
    if not w.trait_deck:
        if not _refill_traits(w):
            w.pop()
        return True
    return False


@_settles(Draft, TakeTrait)
def _settle_draft(w: W, h: Any) -> bool:
    if not w.options.use_traits:
        return _drop(w)
    if not w.trait_deck and _refill_traits(w):
        return True
    return _drop_if(w, not w.trait_deck and not w.trait_row)


@_settles(GrowthDraw)
def _settle_growth_draw(w: W, h: Any) -> bool:
    if h.count <= 0:
        return _drop(w)
    if not w.trait_deck:
        if not _refill_traits(w):
            w.pop()
        return True
    return False


@_settles(GrowthPick)
def _settle_growth_pick(w: W, h: Any) -> bool:
    return _drop_if(w, not w.growth)


@_settles(GrowthDrop)
def _settle_growth_drop(w: W, h: Any) -> bool:
    return _drop_if(w, h.trait not in w.P(h.player).traits)


@_settles(Draw)
def _settle_draw(w: W, h: Any) -> bool:
    if w.card_top or w.card_deck:
        return False
    if w.discard and w.options.reshuffle_discard:
        w.card_deck, w.discard = w.discard, ()
        return True
    return _drop(w)


@_settles(RevealTop)
def _settle_reveal_top(w: W, h: Any) -> bool:
    top, deck = (w.tile_top, w.tile_deck) if h.deck == "tiles" else (w.card_top, w.card_deck)
    return _drop_if(w, len(top) >= h.count or not deck)


@_settles(Explore)
def _settle_explore(w: W, h: Any) -> bool:
    return _drop_if(w, w.spaces[h.space].tile is not None or not (w.tile_top or w.tile_deck or w.tile_box))


@_settles(VoidTile)
def _settle_void_tile(w: W, h: Any) -> bool:
    return _drop_if(w, not (w.tile_top or w.tile_deck or w.tile_box))


# -- limits and the turn ----------------------------------------------------------------------------------------

@_settles(Discard)
def _settle_discard(w: W, h: Any) -> bool:
    return _drop_if(w, len(w.P(h.player).hand) <= Q.hand_limit(w, h.player))


@_settles(TraitCap)
def _settle_trait_cap(w: W, h: Any) -> bool:
    return _drop_if(w, Q.counted_traits(w, h.player) <= Q.trait_cap(w, h.player))


@_settles(EndTurn)
def _settle_end_turn(w: W, h: Any) -> bool:
    if w.info.extra > 0:
        w.todo.insert(0, Actions(w.turn_player, extra=True))
        w.setinfo(actions=w.info.extra, extra=0)
        return True
    return False


@_settles(Rest)
def _settle_rest(w: W, h: Any) -> bool:
    return _drop_if(w, all(i in h.done for i, sp in enumerate(w.spaces) if h.player in sp.banners))


# -- payments and exchanges (a player with an empty hand pays in Gold or is skipped) ----------------------------

@_settles(Tribute)
def _settle_tribute(w: W, h: Any) -> bool:
    if not w.P(h.player).hand:
        w.transfer(h.player, h.to, h.gold)
        return _drop(w)
    return False


@_settles(TradeGive, Contribute)
def _settle_give_from_hand(w: W, h: Any) -> bool:
    return _drop_if(w, not w.P(h.player).hand)


@_settles(TradeBack)
def _settle_trade_back(w: W, h: Any) -> bool:
    hand = w.P(h.player).hand
    # in a seat's record (CL-40) a second unknown card may be a different one
    if not [c for c in hand if c != h.card] and not (h.card == HIDDEN and hand.count(HIDDEN) > 1):
        w.transfer(h.player, h.to, h.gold)
        return _drop(w)
    return False


@_settles(Deal)
def _settle_deal(w: W, h: Any) -> bool:
    return _drop_if(w, not w.pile)


@_settles(AnimalDraw)
def _settle_animal_draw(w: W, h: Any) -> bool:
    from .rules import animal_choices

    return _drop_if(w, not animal_choices(w))


# -- choices whose options shrink as the board changes (then: dropped when none is left) ------------------------

@_settles(Influence)
def _settle_influence_done(w: W, h: Any) -> bool | None:
    return _drop(w) if h.moved and not (w.road is not None and w.road.open) else None


@_settles(Speedy)
def _settle_speedy(w: W, h: Any) -> bool | None:
    me = h.player
    fresh = tuple((i, min(n, acol(w.spaces[i], w.si(me)))) for i, n in h.fresh)
    fresh = tuple((i, n) for i, n in fresh if n > 0)
    if fresh != h.fresh:
        w.set_head(Speedy(me, fresh))
        return True
    return None


@_settles(Purge)
def _settle_purge(w: W, h: Any) -> bool | None:
    sp = w.spaces[h.space]
    left = tuple(min(n, acol(sp, j)) for j, n in enumerate(h.left))
    if left != h.left:
        w.set_head(Purge(h.player, h.space, left))
        return True
    return None


@_settles(Rolls)
def _settle_rolls(w: W, h: Any) -> bool:
    v = h.victims
    while v and (acol(w.spaces[v[0].space], w.si(v[0].owner)) <= 0
                 or Q.acolyte_protected(w, v[0].space, v[0].owner)):
        v = v[1:]
    if v == h.victims:
        return False
    if v:
        w.set_head(Rolls(h.player, v, h.kill_at_most, h.faces))
    else:
        w.pop()
    return True


@_settles(Domineer)
def _settle_domineer(w: W, h: Any) -> bool | None:
    sp = w.spaces[h.space]
    bs = tuple(b for b in h.beasts if b in sp.beasts)
    cs = tuple(c for c in h.colossi if c in sp.colossi)
    if (bs, cs) != (h.beasts, h.colossi):
        w.set_head(Domineer(h.player, h.space, bs, cs))
        return True
    return None


@_settles(Resurrect)
def _settle_resurrect(w: W, h: Any) -> bool | None:
    return _shrink(w, min(h.count, w.P(h.player).acolytes), h.count, lambda n: Resurrect(h.player, n))


@_settles(Necro)
def _settle_necro(w: W, h: Any) -> bool | None:
    return _shrink(w, min(h.count, Q.acolyte_room(w, h.player)), h.count, lambda n: Necro(h.player, h.space, n))


@_settles(PlaceChoice)
def _settle_place_choice(w: W, h: Any) -> bool | None:
    return _shrink(w, min(h.left, Q.acolyte_room(w, h.player)), h.left, lambda n: PlaceChoice(h.player, h.spaces, n))


#: tasks that always wait for an event as they are
WAITING = frozenset({Actions, BannerChoice, Deploy, StartTurn, Replenish, NamePlayer, Peek, PlaceStart, ChooseFirst,
                     SetAside, Wind, Void, LookTop, NewHand})

#: tasks that are dropped when they offer nothing (the options come from rules.task_options)
CHOICE_TASKS = (Borrow, MoveBeast, PlaceChoice, Companions, Influence, Purge, Recall, Sabotage, Walk, Domineer, Maar,
                Market, Mantle, Hungry, Launch, Teleporter, Speedy, Dominion, Miracle, Solidarity, Mimesis,
                Resurrect, Necro, React, Parasite, GrowthPick)

