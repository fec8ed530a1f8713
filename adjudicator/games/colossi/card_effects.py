"""What the cards do: ``play_card`` runs a checked ``CardPlayed`` on a working copy
(:class:`working.W`), ``after_card`` puts a played card away (and offers it to Parasitic players).
Each effect reads its numbers from the card data.
"""

from __future__ import annotations

from typing import Any

from . import engine as Q
from .effect_kinds import CARD_EFFECTS, Params, card_effect
from .engine import acol, seats
from .state import (
    Actions, AfterCard, Companions, Contribute, DealOp, Dominion, EndTurn, GrowthDraw, GrowthPick, Influence, Mimesis,
    Miracle, MoveBeast, Parasite, PlaceChoice, Purge, RampageOp, Recall, Rolls, Sabotage, ScoreOp, Solidarity, Victim,
    WalkOp,
)
from .working import W


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


@card_effect("bolster")
def _bolster(w: W, e: Any, prm: Params) -> None:
    me = e.player
    spaces = tuple(i for i, sp in enumerate(w.spaces) if acol(sp, w.si(me)) > 0)
    place_each(w, me, spaces, int(prm["per_space"]))


@card_effect("commandeer")
def _commandeer(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.put_banner(me, e.space)


@card_effect("convene")
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


@card_effect("intimidate")
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


@card_effect("draw")
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
    for i in (sa, sb):  # a Protective player's guard goes with the Colossus (CL-3.6)
        if i is not None:
            w.unguarded(i, None, me)


@card_effect("ritual-sacrifice")
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


@card_effect("sabotage")
def _sabotage(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.later(Sabotage(me, int(prm["max_spaces"])))


@card_effect("secure")
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


@card_effect("walk")
def _walk(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.later(WalkOp(me, e.beast, int(prm["steps"])))


@card_effect("rampage")
def _rampage(w: W, e: Any, _prm: Params) -> None:
    me = e.player
    w.later(RampageOp(me, e.beast, e.direction))


@card_effect("curse-limit")
def _curse_limit(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.gain(me, int(prm["gold"]))
    w.setP(me, curses=w.P(me).curses + (e.card,))
    w.hand_check(me)
    w.trait_check(me)


@card_effect("haste")
def _haste(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.gain(me, int(prm["gold"]))
    # the turn ends at once: no more Actions, no Beast move, no Banner phase (CL-2.5)
    end = next(j for j, t in enumerate(w.todo) if type(t) is EndTurn)
    w.todo[0:end] = [t for t in w.todo[0:end] if type(t) not in (Actions, MoveBeast)]
    w.road = None


@card_effect("pity")
def _pity(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.gain(e.target, int(prm["other_gold"]))
    w.gain(me, int(prm["gold"]))


@card_effect("totality")
def _totality(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for i, sp in enumerate(w.spaces):
        n = acol(sp, w.si(me))
        if n:
            w.add_acol(i, me, -n)
            w.setP(me, acolytes=w.P(me).acolytes + n)
        w.take_banners(me, i)
    w.gain(me, int(prm["gold"]))


@card_effect("abundance")
def _abundance(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.draw(me, int(prm["own"]))
    for q in Q.opponents(w, me):
        w.draw(q, int(prm["others"]))


@card_effect("audacity")
def _audacity(w: W, e: Any, prm: Params) -> None:
    me = e.player
    near = set()
    for _, i in Q.beasts_on_board(w):
        near.update(w.B.around(i))
    for q in w.order_from(me):
        n = sum(1 for i in sorted(near) if Q.control(w, i) == q)
        w.gain(q, n * int(prm["gold"]))


@card_effect("authority")
def _authority(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for q in w.order_from(me):
        c = w.P(q).colossus
        if c is None:
            continue
        n = sum(acol(w.spaces[c], w.si(o)) for o in Q.opponents(w, q))
        w.gain(q, n * int(prm["gold"]))


@card_effect("companionship")
def _companionship(w: W, e: Any, prm: Params) -> None:
    me = e.player
    w.later(*[Companions(q, e.target, int(prm["max"])) for q in w.order_from(me)])


@card_effect("comradery")
def _comradery(w: W, e: Any, prm: Params) -> None:
    me = e.player
    for q in w.order_from(me):
        c = w.P(q).colossus
        if c is not None and len(w.spaces[c].colossi) > 1:
            w.gain(q, int(prm["gold"]))


@card_effect("diplomacy")
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


@card_effect("fortitude")
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


@card_effect("reinforcements")
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


@card_effect("solitude")
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


@card_effect("exchange")
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
