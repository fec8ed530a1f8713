"""What the tiles do when scored: ``environment`` runs a tile's scoring effect on a working
copy; the movements several effects share (``lift``, ``land``, ``swap_spaces``, ``wind``,
``kill_around``).
"""

from __future__ import annotations

from typing import Any

from . import engine as Q
from .effect_kinds import Params, TILE_EFFECTS, tile_effect
from .engine import acol, seats
from .state import Actions, Hungry, Launch, Mantle, Market, NewHand, Rest, Speedy, Teleporter, TradeGive, Tribute, Void, Wind
from .working import W


# == tiles ==================================================================================================


def environment(w: W, op: Any) -> None:
    """A tile's scoring effect (EnvOp), for ``op.player`` on ``op.space``."""
    fx = w.C.tiles[op.tile].rest
    if fx is not None:
        TILE_EFFECTS[fx.kind].run(w, op, fx.params)


@tile_effect("deep-mines")
@tile_effect("pull-loot")
@tile_effect("keep-banners")
def _applied_elsewhere(w: W, op: Any, _prm: Params) -> None:
    """Deep Mines score after a Rest (MinesOp), the Maar pulls Loot before it is collected, and a
    Rest lets BannerScored keep Banners (Rest.stone): nothing happens at scoring time."""


@tile_effect("move-beast-anywhere")
def _move_beast_anywhere(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    if Q.beasts_on_board(w):
        w.later(Mantle(me))


@tile_effect("gold-per-own-acolyte")
def _gold_per_own_acolyte(w: W, op: Any, prm: Params) -> None:
    me = op.player
    space = op.space
    w.gain(me, int(prm["gold"]) * acol(w.spaces[space], w.si(me)))


@tile_effect("launch")
def _launch(w: W, op: Any, prm: Params) -> None:
    me = op.player
    space = op.space
    items = Q.launch_items(w, space, int(prm["range"]))
    lift(w, items)
    if items:
        w.later(Launch(me, tuple(items)))


@tile_effect("sell-cards")
def _sell_cards(w: W, op: Any, prm: Params) -> None:
    me = op.player
    if w.P(me).hand:
        w.later(Market(me, int(prm["gold"])))


@tile_effect("moat")
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


@tile_effect("new-hand")
def _new_hand(w: W, op: Any, prm: Params) -> None:
    me = op.player
    if w.P(me).hand:  # the hand goes face up to the discard pile: an event names it (CL-42)
        w.later(NewHand(me, int(prm["draw"])))
    else:
        w.draw(me, int(prm["draw"]))


@tile_effect("tribute")
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


@tile_effect("trade")
def _trade(w: W, op: Any, prm: Params) -> None:
    me = op.player
    w.later(*[TradeGive(me, q, int(prm["gold"])) for q in Q.opponents(w, me)])


@tile_effect("replace-tile")
def _replace_tile(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    w.later(Void(me))


@tile_effect("kill-around")
def _kill_around(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    space = op.space
    kill_around(w, space, me)


@tile_effect("kill-around-beast")
def _kill_around_beast(w: W, op: Any, _prm: Params) -> None:
    me = op.player
    b = w.C.tiles[op.tile].beast
    at = Q.beast_space(w, b.id) if b else None
    if at is not None:
        kill_around(w, at, me)


@tile_effect("gold-around-beast")
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


@tile_effect("reproduce-around-beast")
def _reproduce_around_beast(w: W, op: Any, _prm: Params) -> None:
    b = w.C.tiles[op.tile].beast
    at = Q.beast_space(w, b.id) if b else None
    if at is not None:
        for a in w.B.around(at):
            w.produce(a)


@tile_effect("extra-actions")
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


#: the lifted components that may guard the Acolytes of the space they came from (CL-3.6)
_GUARDS = ("colossus", "beast")


def land(w: W, me: str, it: Any, to: int, rest: tuple[Any, ...] = ()) -> None:
    """Launchpad: one lifted component put down on ``to`` (``rest``: those still to come down).

    ``lift`` left the guarded Acolytes where they stood (CL-3.6).  Once the last Colossus or Beast
    lifted from a space is down again, that space is judged: an Acolyte whose guard (the Stone
    Beast, a Protective Colossus) came down elsewhere dies if the space kills (CL-3.5); one whose
    guard came back to it lives."""
    sp = w.spaces[to]
    if it.component == "colossus":
        w.set_colossus(it.owner, to)
        w.arrive("colossus", it.owner, to, me)
    elif it.component == "acolyte":
        w.add_acol(to, it.owner, 1)
        w.arrive("acolyte", it.owner, to, me)
    elif it.component == "banner":
        w.setS(to, banners=sp.banners + (it.owner,))
        collected_follow(w, it.owner, {it.space: to})
    elif it.component == "beast":
        w.setS(to, beasts=sp.beasts + (it.owner,))
        w.beast_enters(w.C.beasts[it.owner].beast.passive, to, me)
    else:
        w.setS(to, **{it.component: getattr(sp, it.component) + 1})
    if it.component in _GUARDS and not any(r.space == it.space and r.component in _GUARDS for r in rest):
        w.unguarded(it.space, None, me)


def collected_follow(w: W, owner: str | None, moved: dict[int, int]) -> None:
    """A Rest in the queue remembers the spaces whose Banner it collected (``Rest.done``); when an
    effect carries Banners elsewhere (Teleporter, Launchpad), what was collected goes with its
    Banner, so a Banner not yet collected that lands on a collected space is still collected
    (seed, *Rest*: "Collect each of your deployed Banners"; CL-4.6).  ``moved``: where the Banners
    of a space went (``owner``'s only, or every player's when None)."""
    for k, t in enumerate(w.todo):
        if type(t) is Rest and (owner is None or t.player == owner):
            done = set(t.done)
            after = {i for i in done if i not in moved.values()} - set(moved)
            after |= {to for frm, to in moved.items() if frm in done}
            w.todo[k] = Rest(t.player, tuple(i for i in t.done if i in after) +
                             tuple(sorted(after - done)), t.kept, t.stone)


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
    collected_follow(w, None, {a: b, b: a})
    for to, colossi, moved, beasts in ((a, sb.colossi, move_b, sb.beasts), (b, sa.colossi, move_a, sa.beasts)):
        for c in colossi:
            w.arrive("colossus", c, to, me)
        for j, q in enumerate(ids):
            if moved[j]:
                w.arrive("acolyte", q, to, me, count=moved[j])
        for bst in beasts:
            w.beast_enters(w.C.beasts[bst].beast.passive, to, me)
    for i in (a, b):  # the guarded Acolytes stayed; their guard (Stone Beast, Protective Colossus) may not have
        w.unguarded(i, None, me)


def wind(w: W, me: str, direction: str) -> None:
    """The Wind Beast's lair: every unguarded Acolyte shifts one space ``direction``."""
    moves = []
    for i, sp in enumerate(w.spaces):
        for j, q in enumerate(seats(w)):
            n = acol(sp, j)
            if n and not Q.acolyte_protected(w, i, q):
                moves.append((i, q, n, w.B.step[i].get(direction)))
    w.push_acolytes(moves, me)
