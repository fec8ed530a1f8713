"""The engine's continuations: ``run_op`` runs an ``Op`` task (scoring a space, Loot, a tile's
effect, a card put away) and ``pump`` runs them, with the head task's housekeeping
(:func:`settle.settle_task`), until someone must decide.
"""

from __future__ import annotations

from typing import Any

from .card_effects import after_card
from .engine import beast_space
from .settle import WAITING, gold_back, settle_task
from .state import (
    AfterCard, Deal, DealOp, EnvOp, LootOp, Maar, MinesOp, MonoOp, OPS, RampageOp, ScoreOp, TakeTrait, Walk, WalkOp,
)
from .tile_effects import environment
from .working import W


# == scoring =====================================================================================

def run_op(w: W, op: Any) -> None:
    """Run one ``Op`` task on the working copy."""
    t = type(op)
    if t is ScoreOp:
        sp = w.spaces[op.space]
        tile = sp.tile
        if tile is None:
            return
        rest = w.C.tiles[tile].rest
        if rest is not None and rest.kind == "pull-loot":
            w.later(Maar(op.player, op.space))
        w.later(LootOp(op.player, op.space, op.factor))
        if rest is not None:
            w.later(EnvOp(op.player, op.space, tile, op.rest))
        if op.rest and rest is not None and rest.kind == "deep-mines":
            w.later(MinesOp(op.space))
        if op.mono:
            w.later(MonoOp(op.player, op.space))
    elif t is LootOp:
        sp = w.spaces[op.space]
        g, b, gr = sp.gold * op.factor, sp.blue * op.factor, sp.green * op.factor
        w.setS(op.space, gold=0, blue=0, green=0)
        w.gain(op.player, g)
        w.draw(op.player, b)
        if w.options.use_traits:
            for _ in range(gr):
                w.later(TakeTrait(op.player))
    elif t is EnvOp:
        environment(w, op)
    elif t is MinesOp:
        sp = w.spaces[op.space]
        fx = w.C.tiles["deep-mines"].rest
        w.setS(op.space, gold=sp.gold + int(fx.params["base"]) + int(fx.params["step"]) * sp.mines,
               mines=sp.mines + 1)
    elif t is MonoOp:
        for a in w.B.adj[op.space]:
            if w.spaces[a].tile is not None:
                w.later(ScoreOp(op.player, a, rest=False))
    elif t is RampageOp:
        frm = beast_space(w, op.beast)
        if frm is None:
            return
        nxt = w.B.step[frm].get(op.direction)
        if nxt is None or (w.spaces[nxt].tile is None and not w.options.beasts_enter_unexplored):
            return
        w.move_beast(op.beast, nxt, op.player)
        if w.spaces[nxt].tile is not None:
            w.later(op)
    elif t is WalkOp:
        if op.left > 0 and beast_space(w, op.beast) is not None:
            w.later(Walk(op.player, op.beast, op.left))
    elif t is DealOp:
        order = w.order_from(op.player)
        for k in range(len(w.pile)):
            w.later(Deal(order[k % len(order)]))
    elif t is AfterCard:
        after_card(w, op)


# == the pump ======================================================================================

#: the engine's own continuations (a set: looked up once per turn of the pump)
_OPS = frozenset(OPS)


def pump(w: W) -> None:
    """Run the engine's continuations and drop tasks that have nothing left to ask."""
    for _ in range(100_000):
        if w.buf:
            w.flush()
        todo = w.todo
        if not todo or w.result is not None:
            return
        h = todo[0]
        t = type(h)
        if t in WAITING:  # (settle_task leaves these as they are)
            return
        if t in _OPS:
            w.pop()
            run_op(w, h)
            continue
        if settle_task(w, h):
            continue
        return
    raise RuntimeError("colossi: the task queue does not settle")


def no_card_back(s: Any) -> Any:
    """The position ``s`` (waiting for a Trade's card given back, CL-45) once that player has no
    different card to give: the Gold paid, then the engine goes on."""
    w = W(s)
    w.made = None  # (changed from here on)
    gold_back(w, w.todo[0])
    pump(w)
    return w.freeze()
