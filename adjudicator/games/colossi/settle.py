"""The engine's housekeeping on the task at the head of the queue (``settle_task``): drop a
choice that has no options left, pay a forced payment, refill a deck.
"""

from __future__ import annotations

from typing import Any, Callable

from adjudicator.core.kernel.events import HIDDEN

from . import engine as Q
from .engine import acol
from .options import animal_choices, task_options
from .state import (
    Actions, AnimalDraw, BannerChoice, Borrow, ChooseFirst, Companions, Contribute, Deal, Deploy, Discard, Domineer,
    Dominion, Draft, Draw, EndTurn, Explore, GrowthDraw, GrowthDrop, GrowthPick, Hungry, Influence, Launch, LookTop,
    Maar, Mantle, Market, Mimesis, Miracle, MoveBeast, NamePlayer, Necro, NewHand, Parasite, Peek, PlaceChoice,
    PlaceStart, Purge, React, Recall, Replenish, Rest, Resurrect, RevealTop, RevealTrait, Rolls, Sabotage, SetAside,
    Solidarity, Speedy, StartTurn, TakeTrait, Teleporter, TradeBack, TradeGive, TraitCap, Tribute, Void, VoidTile,
    Walk, Wind,
)
from .working import W


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
        if not task_options(w, h):
            w.pop()
            return True
    return False


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

def _refill_or_pop(w: W) -> bool:
    """An empty Trait deck refilled from the discards, or the step dropped when it cannot be:
    True when the working position changed (settle again), False when the deck has Traits."""
    if w.trait_deck:
        return False
    if not _refill_traits(w):
        w.pop()
    return True


@_settles(RevealTrait)
def _settle_reveal_trait(w: W, h: Any) -> bool:
    if not w.options.use_traits or len(w.trait_row) >= 3:
        return _drop(w)
    return _refill_or_pop(w)


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
    return _refill_or_pop(w)


@_settles(GrowthPick)
def _settle_growth_pick(w: W, h: Any) -> bool:
    return _drop_if(w, not w.growth)


@_settles(GrowthDrop)
def _settle_growth_drop(w: W, h: Any) -> bool:
    return _drop_if(w, h.trait not in w.P(h.player).traits)


@_settles(MoveBeast)
def _settle_move_beast(w: W, h: Any) -> bool | None:
    """Dropped when no Beast on the island has a step (what ``task_options`` would find empty),
    found without building the options."""
    adj, spaces, anywhere = w.B.adj, w.spaces, w.options.beasts_enter_unexplored
    for i, sp in enumerate(spaces):
        if sp.beasts:
            for a in adj[i]:
                if anywhere or spaces[a].tile is not None:
                    return False
    return _drop(w)


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
    if w.options.trade_different == "copy":  # CL-47: any card but the one received (a hand of one has none)
        return gold_back(w, h) if len(hand) < 2 else False
    # in a seat's record (CL-40) a second unknown card may be a different one
    if not [c for c in hand if c != h.card] and not (h.card == HIDDEN and hand.count(HIDDEN) > 1):
        return gold_back(w, h)
    return False


def gold_back(w: W, h: Any) -> bool:
    """A Trade's player with no different card to give back pays the Gold instead (CL-6.4)."""
    w.transfer(h.player, h.to, h.gold)
    return _drop(w)


@_settles(Deal)
def _settle_deal(w: W, h: Any) -> bool:
    return _drop_if(w, not w.pile)


@_settles(AnimalDraw)
def _settle_animal_draw(w: W, h: Any) -> bool:
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

#: tasks that are dropped when they offer nothing (the options come from options.task_options)
CHOICE_TASKS = frozenset({Borrow, MoveBeast, PlaceChoice, Companions, Influence, Purge, Recall, Sabotage, Walk,
                          Domineer, Maar, Market, Mantle, Hungry, Launch, Teleporter, Speedy, Dominion, Miracle,
                          Solidarity, Mimesis, Resurrect, Necro, React, Parasite, GrowthPick})

