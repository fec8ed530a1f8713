"""Colossi rules: pure check / apply / derive / legal events.

``check`` raises :class:`Illegal` inside helpers and returns a Ruling; it never mutates.
``apply`` copies the position into a :class:`engine.W`, applies the event with its immediate
consequences, lets the engine run its own continuations and freezes a new State.
``derive`` gives the next consequence the rules force (the Gold target, a turn starting or
ending, Replenish, the end of the match).  ``legal_events`` enumerates candidates and keeps those
``check`` accepts, so the two never disagree.  Choices a card, tile or Trait asks for later are
answered against ``task_options``, the complete list of what the text allows at that point.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable

import msgspec
from msgspec.structs import replace

from adjudicator.core.events import HIDDEN, PRIVATE_EVENTS, CardsLooked, CardsMoved, bare
from adjudicator.core.kit import Owed, RulesBase, applies, head
from adjudicator.core.rulings import Illegal, Ruling, Undetermined, legal

from . import engine as Q
from . import events as E
from . import unknowns as U
from .data import content
from .effects import land, play_card, swap_spaces, wind
from .engine import W, acol
from .state import (
    Actions, AnimalDraw, BannerChoice, Borrow, ChooseFirst, Companions, Contribute, Deal, Deploy, Discard, Domineer,
    Dominion, Draft, Draw, EndTurn, Explore, GrowthDraw, GrowthDrop, GrowthPick, Hungry, Influence, Launch, LookTop,
    Maar, Mantle, Market, Miracle, Mimesis, MoveBeast, NamePlayer, Necro, NewHand, Parasite, Peek, PlaceChoice,
    PlaceStart, Purge, React, Recall, Replenish, Rest, Result, Resurrect, RevealTop, RevealTrait, Road, Rolls,
    Sabotage, ScoreOp, SetAside, Solidarity, Speedy, StartTurn, State, TakeTrait, Teleporter, TradeBack, TradeGive,
    TraitCap, Tribute, Void, VoidTile, Walk, WalkOp, Wind,
)

NS = "colossi/"
PARAM_FIELDS = ("space", "target", "targets", "beast", "direction", "trait")


def bad(rule: str, code: str, message: str) -> Illegal:
    return Illegal(rule, NS + code, message)


_OK: dict[tuple[str, str], Ruling] = {}
#: the rule an action of the Actions step is legal under (CL-2.1: any other)
_RULE_OF = {E.Moved: "CL-3.1", E.AcolyteSpawned: "CL-3.4", E.CardPlayed: "CL-6.1", E.BeastMoved: "CL-7.2",
            E.ActionBought: "CL-7.2", E.CardBought: "CL-7.2", E.Alchemized: "CL-7.3",
            E.TraitDiscarded: "CL-19", E.ActionsEnded: "CL-2.3"}


def ok(rule: str, message: str = "legal") -> Ruling:
    """The legal ruling citing ``rule`` (made once per rule and message: a Ruling is immutable,
    and the verify loop asks for one per event)."""
    r = _OK.get((rule, message))
    if r is None:
        r = _OK[(rule, message)] = legal(rule, NS + "ok", message)
    return r


def in_board(s: Any, i: Any) -> bool:
    return isinstance(i, int) and 0 <= i < len(s.spaces)


def name(card: str) -> str:
    c = content().cards.get(card)
    return c.name if c else card


def card_fields(e: Any) -> dict[str, Any]:
    out = {}
    for f in PARAM_FIELDS:
        v = getattr(e, f)
        if v not in (None, []):
            out[f] = v
    return out


def canonical(e: Any) -> Any:
    """``e`` with its order-insensitive lists sorted (the cards contributed, the Colossi swapped)."""
    t = type(e)
    if t is E.CardsContributed and e.cards != sorted(e.cards, key=_name_key):
        return replace(e, cards=sorted(e.cards, key=_name_key))
    if t is E.CardPlayed and len(e.targets) > 1 and e.targets != sorted(e.targets):
        return replace(e, targets=sorted(e.targets))
    if t is CardsMoved:  # the seats shown it are a set, and so is a hand
        cards = sorted(e.cards, key=_name_key) if e.from_zone == "hand" else e.cards
        if cards != e.cards or e.seen_by != sorted(e.seen_by):
            return replace(e, cards=cards, seen_by=sorted(e.seen_by))
    return e


def _name_key(c: str | None) -> str:
    return "?" if c is None else c


def canon(e: Any) -> Any:
    """The canonical form of an event without its envelope (for comparing with options)."""
    return canonical(bare(e))


def animal_choices(x: Any) -> list[str]:
    """Beasts not in the game (no Lair of theirs set aside) and not already drawn (Animalistic)."""
    C = content()
    in_game = set()
    for t in x.tile_deck + x.tile_top:
        if t != HIDDEN and C.tiles[t].beast:
            in_game.add(C.tiles[t].beast.id)
    for sp in x.spaces:
        if sp.tile and C.tiles[sp.tile].beast:
            in_game.add(C.tiles[sp.tile].beast.id)
        in_game.update(sp.beasts)
    held = {p.animal for p in x.players if p.animal}
    return sorted(b for b in C.beasts if b not in in_game and b not in held)


def beast_steps(x: Any, beast: str) -> list[int]:
    at = Q.beast_space(x, beast)
    if at is None:
        return []
    return [a for a in Q.B(x).adj[at] if x.spaces[a].tile is not None or x.options.beasts_enter_unexplored]


def bannerable(x: Any, pid: str, i: int) -> str | None:
    """Why ``pid`` may not put a Banner on ``i`` now (one per space, guarded), or None."""
    sp = x.spaces[i]
    own = sum(1 for o in sp.banners if o == pid)
    if own:
        allowed = Q.tparam("resolute", "banners_per_space") if Q.has(x, pid, "resolute") else 1
        if own >= allowed:
            return f"space {i} already holds {pid}'s Banner" + (" (two with Resolute)" if allowed > 1 else "")
    for o in sp.banners:
        if o != pid and Q.banner_protected(x, i, o):
            why = "the Stone Beast guards it" if Q.guarded(x, i) else f"{o}'s Protective Colossus stands with it"
            return f"{o}'s Banner on space {i} cannot be replaced: {why}"
    return None


def control_text(x: Any, i: int) -> str:
    c = Q.control(x, i)
    if c is not None:
        return f"{c} controls it"
    sp = x.spaces[i]
    if not sp.colossi and not sum(sp.acolytes):
        return "it holds no Colossus and no Acolyte"
    return "nobody controls it (a tie)"


def road_open(x: Any, space: int, pid: str) -> bool:
    return Q.road_piece(x, space, pid)


# == the options of a choice =================================================================================

def task_options(x: Any, h: Any) -> list[Any]:
    """Every legal answer to the choice task ``h`` (without ``Passed``), in canonical form: the
    task type's own options (:data:`_OPTIONS`), none for a task that asks nothing."""
    fn = _OPTIONS.get(type(h))
    return fn(x, h) if fn is not None else []


#: choice task type -> its options (see :func:`task_options`)
_OPTIONS: dict[type, Callable[[Any, Any], list[Any]]] = {}


def _options_for(*types: type) -> Callable[[Callable[[Any, Any], list[Any]]], Callable[[Any, Any], list[Any]]]:
    def mark(fn: Callable[[Any, Any], list[Any]]) -> Callable[[Any, Any], list[Any]]:
        for t in types:
            assert t not in _OPTIONS, t
            _OPTIONS[t] = fn
        return fn
    return mark


@_options_for(Draft, TakeTrait)
def _options_draft(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    row = [E.TraitTaken(player=p, trait=tr, source="row") for tr in sorted(set(x.trait_row))]
    return row + [E.TraitTaken(player=p, trait=tr, source="deck") for tr in sorted(set(x.trait_deck))]


@_options_for(GrowthPick)
def _options_growth_pick(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.TraitTaken(player=p, trait=tr, source="growth") for tr in sorted(set(x.growth))]


@_options_for(GrowthDrop)
def _options_growth_drop(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.TraitDiscarded(player=p, trait=h.trait)] if h.trait in Q.player(x, p).traits else []


@_options_for(TraitCap)
def _options_trait_cap(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    me = Q.player(x, p)
    skip = x.info.borrowed if x.turn_player == p else None
    return [E.TraitDiscarded(player=p, trait=tr) for tr in sorted(set(me.traits)) if tr != skip]


@_options_for(Discard, Market)
def _options_discard(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.CardDiscarded(player=p, card=c) for c in sorted(set(Q.player(x, p).hand))]


@_options_for(Borrow)
def _options_borrow(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.TraitBorrowed(player=p, trait=tr) for q in Q.opponents(x, p) for tr in Q.player(x, q).traits]


@_options_for(NamePlayer)
def _options_name_player(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.PlayerNamed(player=p, target=q) for q in Q.opponents(x, p)]


@_options_for(Peek)
def _options_peek(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    out = []
    if x.tile_top or x.tile_deck:
        out.append(E.Peeked(player=p, deck="tiles"))
    if x.card_top or x.card_deck:
        out.append(E.Peeked(player=p, deck="cards"))
    return out


@_options_for(RevealTop)
def _options_reveal_top(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    deck = x.tile_deck if h.deck == "tiles" else x.card_deck
    return [E.TopRevealed(player=p, deck=h.deck, item=i) for i in sorted(set(deck))]


#: the zone names of the looks and moves Colossi allows (docs/games/colossi.md, CL-41, CL-42)
TOP_ZONE = {"tiles": "tile-deck-top", "cards": "card-deck-top"}


def look_top(x: Any, h: Any) -> CardsLooked:
    """The look ``LookTop`` owes: the items already on top of the deck, top first (CL-41)."""
    top = x.tile_top if h.deck == "tiles" else x.card_top
    return CardsLooked(player=h.player, owner=h.player, zone=TOP_ZONE[h.deck], cards=list(top[:h.count]),
                       source="soothsayer")


def new_hand(x: Any, h: Any) -> CardsMoved:
    """The move ``NewHand`` owes: the whole hand, face up to the discard pile (CL-42)."""
    return CardsMoved(owner=h.player, from_zone="hand", to_zone="discard", cards=sorted(Q.player(x, h.player).hand),
                      seen_by=list(Q.seats(x)), player=h.player, source="oasis")


@_options_for(LookTop)
def _options_look_top(x: Any, h: Any) -> list[Any]:
    return [look_top(x, h)]


@_options_for(NewHand)
def _options_new_hand(x: Any, h: Any) -> list[Any]:
    return [new_hand(x, h)]


def _same_look(s: Any, h: Any, e: Any) -> bool:
    """``e`` is the look ``h`` owes (the source may be left out; a seat that did not look writes "?")."""
    want = look_top(s, h)
    return e.player == want.player and e.owner == want.owner and e.zone == want.zone and e.slots is None \
        and e.source in (None, want.source) and len(e.cards) == len(want.cards) \
        and all(c == HIDDEN or c is None or c == w for c, w in zip(e.cards, want.cards))


def _same_move(s: Any, h: Any, e: Any) -> bool:
    """``e`` is the move ``h`` owes: the whole hand (any order), seen by every player."""
    want = new_hand(s, h)
    return e.owner == want.owner and e.player in (None, want.player) and e.from_zone == want.from_zone \
        and e.to_zone == want.to_zone and e.slots is None and e.source in (None, want.source) \
        and sorted(e.seen_by) == sorted(want.seen_by) and sorted(e.cards, key=_name_key) == want.cards


@_options_for(Explore, VoidTile)
def _options_explore(x: Any, h: Any) -> list[Any]:
    t = type(h)
    if x.tile_top:
        tiles = [x.tile_top[0]]
    else:
        tiles = sorted(set(x.tile_deck)) or sorted(set(x.tile_box))
    if t is Explore:
        return [E.TileExplored(space=h.space, tile=tl) for tl in tiles]
    return [E.TileReplaced(space=h.space, tile=tl) for tl in tiles]


@_options_for(ChooseFirst)
def _options_choose_first(x: Any, h: Any) -> list[Any]:
    return [E.FirstPlayerDetermined(player=q) for q in Q.seats(x)]


@_options_for(SetAside)
def _options_set_aside(x: Any, h: Any) -> list[Any]:
    kind = "lair" if h.kind == "lair" else "environment"
    C = content()
    return [E.TileSetAside(tile=tl) for tl in sorted(set(x.tile_box)) if tl == HIDDEN or C.tiles[tl].kind == kind]


@_options_for(RevealTrait)
def _options_reveal_trait(x: Any, h: Any) -> list[Any]:
    return [E.TraitRevealed(trait=tr) for tr in sorted(set(x.trait_deck))]


@_options_for(GrowthDraw)
def _options_growth_draw(x: Any, h: Any) -> list[Any]:
    return [E.TraitDrawn(trait=tr) for tr in sorted(set(x.trait_deck))]


@_options_for(Draw)
def _options_draw(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    cards = [x.card_top[0]] if x.card_top else sorted(set(x.card_deck))
    return [E.CardDrawn(player=p, card=c) for c in cards]


@_options_for(Deal)
def _options_deal(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.CardDealt(player=p, card=c) for c in sorted(set(x.pile))]


@_options_for(AnimalDraw)
def _options_animal_draw(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.BeastDrawn(player=p, beast=bst) for bst in animal_choices(x)]


@_options_for(PlaceStart)
def _options_place_start(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.StartPlaced(player=p, space=i) for i, sp in enumerate(x.spaces) if sp.tile is None and not sp.colossi]


@_options_for(MoveBeast)
def _options_move_beast(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.BeastMoved(player=p, beast=bst, to=a) for bst, _ in Q.beasts_on_board(x) for a in beast_steps(x, bst)]


@_options_for(PlaceChoice)
def _options_place_choice(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.SpaceChosen(player=p, space=i) for i in h.spaces]


@_options_for(Companions)
def _options_companions(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    c = Q.player(x, h.target).colossus
    room = min(h.max, Q.acolyte_room(x, p))
    if c is None:
        return []
    return [E.AcolytesPlaced(player=p, space=c, count=n) for n in range(1, room + 1)]


@_options_for(Influence)
def _options_influence(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    b = Q.B(x)
    if not h.moved:
        out = []
        for q in Q.opponents(x, p):
            c = Q.player(x, q).colossus
            if c is not None:
                out += [E.Moved(player=p, piece="colossus", space=c, to=a, owner=q) for a in b.adj[c]]
        return out
    r = x.road
    if r is None or not r.open or r.player != p:
        return []
    return [E.Moved(player=p, piece="colossus", space=r.at, to=a, owner=r.owner, road=True)
            for a in b.adj[r.at] if a not in r.visited]


@_options_for(Purge)
def _options_purge(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    b = Q.B(x)
    out = []
    for j, q in enumerate(Q.seats(x)):
        if h.left[j] > 0:
            out += [E.Moved(player=p, piece="acolyte", space=h.space, to=a, owner=None if q == p else q)
                    for a in b.adj[h.space]]
    return out


@_options_for(Recall)
def _options_recall(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    c = Q.player(x, p).colossus
    if c is None:
        return []
    k = Q.seat(x, p)
    return [E.Moved(player=p, piece="acolyte", space=i, to=c) for i, sp in enumerate(x.spaces)
            if i != c and acol(sp, k) > 0]


@_options_for(Rolls)
def _options_rolls(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.DieRolled(player=p, value=v) for v in range(1, h.faces + 1)]


@_options_for(Sabotage)
def _options_sabotage(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.SpaceChosen(player=p, space=i) for i, sp in enumerate(x.spaces)
            if sp.banners and not sp.colossi and not sum(sp.acolytes)]


@_options_for(Walk)
def _options_walk(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.BeastMoved(player=p, beast=h.beast, to=a) for a in beast_steps(x, h.beast)]


@_options_for(Domineer)
def _options_domineer(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    b = Q.B(x)
    out = [E.BeastMoved(player=p, beast=bst, to=a) for bst in h.beasts for a in beast_steps(x, bst)]
    out += [E.Moved(player=p, piece="colossus", space=h.space, to=a, owner=c) for c in h.colossi for a in b.adj[h.space]]
    return out


@_options_for(Maar)
def _options_maar(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    b = Q.B(x)
    return [E.SpaceChosen(player=p, space=a) for a in b.adj[h.space]]


@_options_for(Tribute)
def _options_tribute(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    me = Q.player(x, p)
    out: list[Any] = [E.CardGiven(player=p, to=h.to, card=c) for c in sorted(set(me.hand))]
    if me.gold >= h.gold:
        out.append(E.GoldPaid(player=p, to=h.to, amount=h.gold))
    return out


@_options_for(TradeGive)
def _options_trade_give(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.CardGiven(player=p, to=h.to, card=c) for c in sorted(set(Q.player(x, p).hand))]


@_options_for(TradeBack)
def _options_trade_back(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    me = Q.player(x, p)
    out = [E.CardGiven(player=p, to=h.to, card=c) for c in sorted(set(me.hand)) if c != h.card]
    if me.gold >= h.gold:
        out.append(E.GoldPaid(player=p, to=h.to, amount=h.gold))
    return out


@_options_for(Mantle)
def _options_mantle(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.BeastMoved(player=p, beast=bst, to=i) for bst, at in Q.beasts_on_board(x)
            for i, sp in enumerate(x.spaces) if sp.tile is not None and i != at]


@_options_for(Hungry)
def _options_hungry(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    b = Q.B(x)
    sp = x.spaces[h.space]
    return [E.ComponentMoved(player=p, component=cube, space=h.space, to=a) for cube in ("gold", "blue", "green")
            if getattr(sp, cube) > 0 for a in b.adj[h.space]]


@_options_for(Wind)
def _options_wind(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    b = Q.B(x)
    return [E.DirectionChosen(player=p, direction=d) for d in b.directions]


@_options_for(Launch)
def _options_launch(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    it = h.items[0]
    spaces = [i for i, sp in enumerate(x.spaces) if sp.tile is not None and (it.component != "banner" or not sp.banners)]
    return [E.ComponentMoved(player=p, component=it.component, space=it.space, to=i, owner=it.owner) for i in spaces]


@_options_for(Teleporter)
def _options_teleporter(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.SpaceChosen(player=p, space=i) for i, sp in enumerate(x.spaces) if sp.tile is not None and i != h.space]


@_options_for(Void)
def _options_void(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.SpaceChosen(player=p, space=i) for i, sp in enumerate(x.spaces) if sp.tile is not None]


@_options_for(Speedy)
def _options_speedy(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    out = []
    for i, n in h.fresh:
        out += [E.Moved(player=p, piece="acolyte", space=i, to=a) for a in Q.move_adjacent(x, p, i, own=True)]
    r = x.road
    if r is not None and r.open and r.player == p and r.piece == "acolyte":
        out += [E.Moved(player=p, piece="acolyte", space=r.at, to=a, road=True)
                for a in Q.move_adjacent(x, p, r.at, own=True) if a not in r.visited]
    return out


@_options_for(Dominion)
def _options_dominion(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    if Q.player(x, p).banners < 1 or Q.banners_in_play(x, p) >= Q.banner_cap(x, p):
        return []
    return [E.BannerRaised(player=p, space=i) for i, sp in enumerate(x.spaces) if sp.tile is not None and not sp.banners]


@_options_for(Miracle)
def _options_miracle(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.BannerScored(player=p, space=i) for i, sp in enumerate(x.spaces) if p in sp.banners]


@_options_for(Solidarity)
def _options_solidarity(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    room = Q.acolyte_room(x, p)
    if room <= 0:
        return []
    return [E.AcolytesPlaced(player=p, space=i, count=room) for i, sp in enumerate(x.spaces) if sp.tile is not None]


@_options_for(Contribute)
def _options_contribute(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    hand = Q.player(x, p).hand
    subsets = set()
    for n in range(len(hand) + 1):
        subsets.update(combinations(hand, n))
    return [E.CardsContributed(player=p, cards=list(c)) for c in sorted(subsets, key=lambda c: (len(c), c))]


@_options_for(Mimesis)
def _options_mimesis(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.TraitStolen(player=p, trait=tr) for q in Q.opponents(x, p) for tr in Q.player(x, q).traits]


@_options_for(Resurrect)
def _options_resurrect(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return [E.AcolytesResurrected(player=p, count=n) for n in range(1, h.count + 1)]


@_options_for(Necro)
def _options_necro(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    if Q.deadly(x, h.space, p) or x.spaces[h.space].tile is None:
        return []
    return [E.AcolytesPlaced(player=p, space=h.space, count=n) for n in range(1, min(h.count, Q.acolyte_room(x, p)) + 1)]


@_options_for(React)
def _options_react(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    return react_options(x, p, h.space)


@_options_for(Parasite)
def _options_parasite(x: Any, h: Any) -> list[Any]:
    p = getattr(h, "player", None)
    if h.card not in x.discard:
        return []
    return [E.CardTaken(player=p, card=h.card, discard=d) for d in sorted(set(Q.player(x, p).hand))]


def react_options(x: Any, p: str, space: int) -> list[Any]:
    b = Q.B(x)
    ids = Q.seats(x)
    k = ids.index(p)
    near = b.around(space)
    mine = [a for a in near if acol(x.spaces[a], k) > 0 and not Q.acolyte_protected(x, a, p)]
    if not mine:
        return []
    out = []
    for a in mine:
        for j, q in enumerate(ids):
            if q == p:
                continue
            for v in near:
                if acol(x.spaces[v], j) > 0 and not Q.acolyte_protected(x, v, q):
                    out.append(E.Reacted(player=p, space=a, victim=q, victim_space=v))
    return out


#: choice tasks: the rule a wrong answer breaks, its code, whether Passed declines it, and what it asks
CHOICES: dict[type, tuple[str, str, bool, str]] = {
    Draft: ("CL-1.4", "draft", False, "a Trait from the row or the top of the Trait deck"),
    TakeTrait: ("CL-5.4", "trait-choice", False, "a Trait from the row or the top of the Trait deck"),
    GrowthPick: ("CL-6.4", "growth-pick", False, "one Trait of the Growth pool"),
    GrowthDrop: ("CL-6.4", "growth-drop", True, "whether to drop the Trait just kept"),
    TraitCap: ("CL-5.3", "trait-cap", False, "a Trait to discard down to the limit"),
    Discard: ("CL-5.2", "hand-limit", False, "a card to discard down to the hand limit"),
    Market: ("CL-6.4", "market", True, "cards to sell at the Market"),
    Borrow: ("CL-7.1", "mimicry", True, "a Trait of another player to borrow (Mimicry)"),
    NamePlayer: ("CL-7.1", "sly", False, "another player to name (Sly)"),
    Peek: ("CL-7.1", "soothsayer", True, "a deck to look at (Soothsayer)"),
    RevealTop: ("CL-2.6", "not-in-deck", False, "the next item on top of the deck"),
    Explore: ("CL-3.2", "not-in-tile-deck", False, "the tile found on the explored space"),
    VoidTile: ("CL-2.6", "not-in-deck", False, "the new tile for the space"),
    ChooseFirst: ("CL-1.2", "first-player", False, "the first player"),
    SetAside: ("CL-1.3", "tile-deck", False, "a tile of the box for the tile deck"),
    RevealTrait: ("CL-2.6", "not-in-deck", False, "a Trait from the Trait deck"),
    GrowthDraw: ("CL-2.6", "not-in-deck", False, "a Trait from the Trait deck"),
    Draw: ("CL-2.6", "not-in-deck", False, "a card from the Colossus deck"),
    Deal: ("CL-2.6", "not-in-deck", False, "a card of the Exchange pile"),
    AnimalDraw: ("CL-2.6", "not-in-deck", False, "a Beast that is not in the game"),
    PlaceStart: ("CL-1.6", "start-space", False, "an empty space for the Starting Environment"),
    MoveBeast: ("CL-2.4", "beast-step", True, "a Beast and a neighbouring explored space"),
    PlaceChoice: ("CL-6.4", "place-choice", False, "a space for the next Acolyte"),
    Companions: ("CL-6.4", "companionship", True, "up to the allowed number of Acolytes on the named Colossus's space"),
    Influence: ("CL-6.4", "influence", True, "a step of an opponent's Colossus (then its own roads)"),
    Purge: ("CL-6.4", "purge", False, "a neighbouring space for the next Acolyte of the purged space"),
    Recall: ("CL-6.4", "recall", True, "one of your Acolytes to bring to your Colossus's space"),
    Rolls: ("CL-2.6", "die", False, "a die roll of 1 to 6"),
    Sabotage: ("CL-6.4", "sabotage", True, "a space with a Banner but no Acolyte and no Colossus"),
    Walk: ("CL-6.4", "walk", False, "a neighbouring explored space for the walking Beast"),
    Domineer: ("CL-6.4", "domineering", True, "a Beast or Colossus on the entered space, pushed one space"),
    Maar: ("CL-6.4", "magnetic-maar", False, "a neighbouring space whose Loot is pulled in"),
    Tribute: ("CL-6.4", "tribute", False, "a card or 2 Gold for the Ruins' scorer"),
    TradeGive: ("CL-6.4", "trade", False, "a card from hand for this opponent"),
    TradeBack: ("CL-6.4", "trade", False, "a different card, or 2 Gold, in return"),
    Mantle: ("CL-6.4", "beast-mantle", False, "a Beast and any other explored space"),
    Hungry: ("CL-6.4", "hungry-beast", False, "a Loot cube of the Hungry Beast's space and a neighbouring space"),
    Wind: ("CL-6.4", "wind", False, "a direction of the island"),
    Launch: ("CL-6.4", "launchpad", False, "an explored space for the next lifted component"),
    Teleporter: ("CL-6.4", "teleporter", False, "another explored space"),
    Void: ("CL-6.4", "the-void", False, "an explored space whose tile is replaced"),
    Speedy: ("CL-6.4", "speedy-slopes", True, "a step of one of your Acolytes that has not moved yet"),
    Dominion: ("CL-6.4", "dominion", True, "an explored space without a Banner"),
    Miracle: ("CL-6.4", "miracle", True, "one of your Banners to score"),
    Solidarity: ("CL-6.4", "solidarity", True, "an explored space for all your Acolytes"),
    Contribute: ("CL-6.4", "exchange", False, "cards from hand for the Exchange pile"),
    Mimesis: ("CL-6.4", "mimesis", True, "an opponent's Trait to take"),
    Resurrect: ("CL-7.4", "resurrecting", True, "how many of the dead Acolytes go to your Colossus's space"),
    Necro: ("CL-7.4", "necromancer", True, "how many Acolytes from hand replace the dead"),
    React: ("CL-7.4", "reactive", True, "one of your Acolytes near the death and an opponent's Acolyte near it"),
    Parasite: ("CL-7.4", "parasitic", True, "a card of yours to discard for the card just played"),
    LookTop: ("CL-41", "soothsayer-look", False, "the items already on top of the deck that another seat looked at"),
    NewHand: ("CL-42", "oasis-hand", False, "the whole hand, discarded face up (Oasis)"),
}


def answer_types(t: type) -> tuple[type, ...]:
    return ANSWERS.get(t, ())


ANSWERS: dict[type, tuple[type, ...]] = {
    Draft: (E.TraitTaken,), TakeTrait: (E.TraitTaken,), GrowthPick: (E.TraitTaken,), GrowthDrop: (E.TraitDiscarded,),
    TraitCap: (E.TraitDiscarded,), Discard: (E.CardDiscarded,), Market: (E.CardDiscarded,), Borrow: (E.TraitBorrowed,),
    NamePlayer: (E.PlayerNamed,), Peek: (E.Peeked,), RevealTop: (E.TopRevealed,), Explore: (E.TileExplored,),
    VoidTile: (E.TileReplaced,), ChooseFirst: (E.FirstPlayerDetermined,), SetAside: (E.TileSetAside,),
    RevealTrait: (E.TraitRevealed,), GrowthDraw: (E.TraitDrawn,), Draw: (E.CardDrawn,), Deal: (E.CardDealt,),
    AnimalDraw: (E.BeastDrawn,), PlaceStart: (E.StartPlaced,), MoveBeast: (E.BeastMoved,),
    PlaceChoice: (E.SpaceChosen,), Companions: (E.AcolytesPlaced,), Influence: (E.Moved,), Purge: (E.Moved,),
    Recall: (E.Moved,), Rolls: (E.DieRolled,), Sabotage: (E.SpaceChosen,), Walk: (E.BeastMoved,),
    Domineer: (E.BeastMoved, E.Moved), Maar: (E.SpaceChosen,), Tribute: (E.CardGiven, E.GoldPaid),
    TradeGive: (E.CardGiven,), TradeBack: (E.CardGiven, E.GoldPaid), Mantle: (E.BeastMoved,),
    Hungry: (E.ComponentMoved,), Wind: (E.DirectionChosen,), Launch: (E.ComponentMoved,), Teleporter: (E.SpaceChosen,),
    Void: (E.SpaceChosen,), Speedy: (E.Moved,), Dominion: (E.BannerRaised,), Miracle: (E.BannerScored,),
    Solidarity: (E.AcolytesPlaced,), Contribute: (E.CardsContributed,), Mimesis: (E.TraitStolen,),
    Resurrect: (E.AcolytesResurrected,), Necro: (E.AcolytesPlaced,), React: (E.Reacted,), Parasite: (E.CardTaken,),
    LookTop: (CardsLooked,), NewHand: (CardsMoved,),
    Actions: (E.Moved, E.AcolyteSpawned, E.CardPlayed, E.BeastMoved, E.ActionBought, E.CardBought, E.Alchemized,
              E.TraitDiscarded, E.ActionsEnded),
    BannerChoice: (E.BannerPhaseChosen,), Deploy: (E.BannerRaised, E.BannerMoved, E.BannerScored, E.Passed),
    Rest: (E.BannerScored,),
}

def _from_deck(top: tuple[str, ...], deck: tuple[str, ...], item: str, box: tuple[str, ...] = ()) -> bool:
    if top:
        return item == top[0]
    return item in deck if deck else item in box


def _subset(hand: tuple[str, ...], cards: list[str]) -> bool:
    left = list(hand)
    for c in cards:
        if c not in left:
            return False
        left.remove(c)
    return True


#: quick acceptance of the commonest answers (anything else is compared with task_options)
FAST: dict[type, Callable[[Any, Any, Any], bool]] = {
    Draw: lambda s, h, e: _from_deck(s.card_top, s.card_deck, e.card),
    Explore: lambda s, h, e: e.space == h.space and _from_deck(s.tile_top, s.tile_deck, e.tile, s.tile_box),
    VoidTile: lambda s, h, e: e.space == h.space and _from_deck(s.tile_top, s.tile_deck, e.tile, s.tile_box),
    Rolls: lambda s, h, e: 1 <= e.value <= h.faces,
    Draft: lambda s, h, e: (e.source == "row" and e.trait in s.trait_row) or (e.source == "deck" and e.trait in s.trait_deck),
    TakeTrait: lambda s, h, e: (e.source == "row" and e.trait in s.trait_row) or (e.source == "deck" and e.trait in s.trait_deck),
    RevealTrait: lambda s, h, e: e.trait in s.trait_deck,
    GrowthDraw: lambda s, h, e: e.trait in s.trait_deck,
    Deal: lambda s, h, e: e.card in s.pile,
    Discard: lambda s, h, e: e.card in s.player(h.player).hand,
    Market: lambda s, h, e: e.card in s.player(h.player).hand,
    Contribute: lambda s, h, e: _subset(s.player(h.player).hand, e.cards),
    MoveBeast: lambda s, h, e: e.to in beast_steps(s, e.beast),  # [] for a Beast not on the board
    LookTop: _same_look,
    NewHand: _same_move,
}

#: who answers a task (R events about the deck have no player field)
NO_PLAYER = (E.TileExplored, E.TileReplaced, E.TileSetAside, E.TraitRevealed, E.TraitDrawn)


# == the card's choices ==============================================================================================

def card_params(x: Any, p: str, card: str) -> list[dict[str, Any]]:
    """Every legal set of CardPlayed choices for ``card`` played by ``p`` now ([] = unplayable)."""
    C = content()
    c = C.cards[card]
    k = c.effect.kind
    me = Q.player(x, p)
    cs = me.colossus
    ids = Q.seats(x)
    if k == "commandeer":
        if me.banners < 1 or Q.banners_in_play(x, p) >= Q.banner_cap(x, p):
            return []
        return [{"space": i} for i, sp in enumerate(x.spaces)
                if any(o != p for o in sp.banners) and bannerable(x, p, i) is None]
    if k == "magnetize":
        if cs is None:
            return []
        return [{"space": i} for i, sp in enumerate(x.spaces) if sp.loot and i != cs]
    if k == "secure":
        if me.banners < 1 or Q.banners_in_play(x, p) >= Q.banner_cap(x, p):
            return []
        need = int(c.effect.params["min_acolytes"])
        return [{"space": i} for i, sp in enumerate(x.spaces)
                if acol(sp, ids.index(p)) >= need and bannerable(x, p, i) is None]
    if k == "short-rest":
        return [{"space": i} for i, sp in enumerate(x.spaces) if p in sp.banners]
    if k == "teleport":
        out = []
        for q in ids:
            qc = Q.player(x, q).colossus
            if qc is not None:
                out += [{"target": q, "space": i} for i in range(len(x.spaces)) if i != qc]
        return out
    if k == "swap-colossi":
        have = sorted(q for q in ids if Q.player(x, q).colossus is not None)
        return [{"targets": [a, b2]} for a, b2 in combinations(have, 2)]
    if k in ("steal-trait", "vandalize"):
        return [{"trait": tr} for q in Q.opponents(x, p) for tr in Q.player(x, q).traits]
    if k in ("lure", "walk"):
        if k == "lure" and cs is None:
            return []
        return [{"beast": bst} for bst, _ in Q.beasts_on_board(x)]
    if k == "rampage":
        return [{"beast": bst, "direction": d} for bst, _ in Q.beasts_on_board(x) for d in Q.B(x).directions]
    if k == "pity":
        return [{"target": q} for q in Q.opponents(x, p)]
    if k == "companionship":
        return [{"target": q} for q in ids if Q.player(x, q).colossus is not None]
    if k in ("convene", "convert", "intimidate", "purge", "ritual-sacrifice", "recall") and cs is None:
        return []
    return [{}]


# == checks ===============================================================================================================

class Rules(RulesBase):
    """The Colossi rules (pure functions of a position)."""

    namespace = NS
    working = W

    # -- what next -------------------------------------------------------------------------------------
    step_rule = "CL-2.1"

    def owed(self, s: Any, e: Any = None) -> Owed:
        """What the position waits for: a discard down to the hand limit (CL-5.2), a Trait over the
        cap (CL-5.3) and a choice a card, tile or Trait asks for (CL-6.4) are owed by rules of
        their own; every other step by CL-2.1."""
        if s.result is not None:
            return Owed("nothing (the match is over)")
        h = head(s)
        if h is None:
            return Owed("nothing")
        t = type(h)
        who = getattr(h, "player", None)
        if t is Actions:
            return Owed(f"{h.player}'s Actions (a move, spawn or card, or ActionsEnded)")
        if t is BannerChoice:
            return Owed(f"BannerPhaseChosen by {h.player} (deploy or rest)")
        if t is Deploy:
            return Owed(f"{h.player}'s Deploy (BannerRaised, BannerMoved or Passed)")
        if t is Rest:
            return Owed(f"{h.player}'s Rest (BannerScored for each Banner)")
        if t in (StartTurn, EndTurn, Replenish):
            return Owed(f"a derived event ({t.__name__})")
        if t in CHOICES:
            names = "/".join(a.__name__ for a in answer_types(t)) + ("/Passed" if CHOICES[t][2] else "")
            rule = CHOICES[t][0]
            return Owed(f"{names}{' by ' + who if who else ''}", rule, CHOICES[t][3], who)
        return Owed(t.__name__)

    def expected(self, s: Any) -> str:
        o = self.owed(s)
        return f"{o.expects}: {o.why}" if o.why else o.expects

    def check(self, s: State, e: Any) -> Ruling:
        try:
            if s.result is not None:
                raise bad("CL-2.1", "after-end", "the match is over")
            who = getattr(e, "player", None)
            if who is not None and not Q.is_player(s, who):
                raise bad("CL-2.1", "unknown-player", f"{type(e).__name__}: {who!r} is not a player of this match")
            if e.kind == "X":
                raise bad("CL-2.1", "unexpected-event", f"{type(e).__name__} is derived by the engine and cannot be proposed")
            if type(e) is E.MatchStarted:
                raise bad("CL-2.1", "unexpected-event", "MatchStarted can only be the first event")
            h = head(s)
            if h is None:
                raise self.out_of_step(s, e)
            t = type(h)
            allowed = ANSWERS.get(t, ())
            optional = t in CHOICES and CHOICES[t][2]
            if type(e) not in allowed and not (type(e) is E.Passed and optional):
                self.misplaced(s, e, h)
                raise self.out_of_step(s, e)
            hp = getattr(h, "player", None)
            if who is not None and hp is not None and who != hp:
                rule = {Draft: "CL-1.4", PlaceStart: "CL-1.6"}.get(t, "CL-1.5" if t is Draw and s.turn == 0 else "CL-2.1")
                raise bad(rule, "not-your-decision", f"{type(e).__name__} by {who}, but {hp} decides now ({self.expected(s)})")
            if t is Actions:
                self.c_actions(s, e, h)
                return ok(self.rule_of(e))
            if t is BannerChoice:
                return legal("CL-2.5", NS + "ok", f"{e.choice} chosen")
            if t is Deploy:
                self.c_deploy(s, e, h)
                return ok("CL-4.2")
            if t is Rest:
                self.c_rest(s, e, h)
                return ok("CL-4.6")
            return self.c_choice(s, e, h)
        except Illegal as x:
            return x.ruling()

    _check_known = check

    def check(self, s: State, e: Any) -> Ruling:
        """:meth:`_check_known`; a record with unknown identities first goes through unknowns.py
        (an impossible name is illegal, CL-2.7; a decision turning on an unknown, undetermined)."""
        if s.unseen is None and (type(e) not in U.FIELDS or not U.involved(s, e)):
            return self._check_known(s, e)  # a full-information log: nothing more to do
        try:
            U.settled_against(s, e)
            s, e = U.check(s, e)
            U.trade_back_condition(s, e)
        except (Illegal, Undetermined) as x:
            return x.ruling()
        r = self._check_known(s, e)
        if r.verdict == "legal":
            try:
                U.beast_lair_condition(s, e)
            except Undetermined as x:
                return x.ruling()
        return r

    def apply(self, s: State, e: Any) -> State:
        if s.unseen is not None or (type(e) in U.FIELDS and U.involved(s, e)):
            s0 = s
            s, e = U.prepare(s, e)
            w = W(s)
            self._applies[type(e)](self, w, e)
            return U.conditions_after(s0, e, self.finish(w))
        w = W(s)  # the kit's RulesBase._apply_working, inlined (the hot path)
        self._applies[type(e)](self, w, e)
        return self.finish(w)

    def rule_of(self, e: Any) -> str:
        return _RULE_OF.get(type(e), "CL-2.1")

    def misplaced(self, s: Any, e: Any, h: Any) -> None:
        """Specific answers for events at the wrong step (set-up, the start of a turn, the Banner phase)."""
        t = type(e)
        if t in PRIVATE_EVENTS:
            raise self.not_proposed(s, e)
        if t is E.FirstPlayerDetermined and s.first is not None:
            raise bad("CL-1.2", "first-player-decided", f"the first player is already {s.first}; it is determined once, "
                      "before anything else")
        if t is not E.FirstPlayerDetermined and s.first is None and type(h) is ChooseFirst:
            raise bad("CL-1.2", "first-player-first", f"{t.__name__} before the first player is determined (CL-21)")
        tp = s.turn_player
        who = getattr(e, "player", None)
        if who != tp or tp is None:
            return
        chosen = s.info.banner
        if t is E.BannerPhaseChosen and chosen is not None:
            raise bad("CL-2.5", "one-banner-phase", f"{tp} already chose to {chosen} this turn; a turn has one Banner phase, "
                      "Deploy or Rest (only Dominate allows both)")
        if t in (E.BannerRaised, E.BannerMoved) and type(h) is Rest:
            raise bad("CL-2.5", "one-banner-phase", f"{tp} chose to rest this turn; raising Banners is the Deploy, and a turn "
                      "has Deploy or Rest, not both (only Dominate allows both)")
        if t is E.BannerRaised and type(h) is Actions:
            raise bad("CL-4.2", "not-in-deploy", f"Banners are raised in the Deploy of the Banner phase, after {tp}'s Actions "
                      "(ActionsEnded), not during them")
        if t in (E.Moved, E.AcolyteSpawned, E.CardPlayed, E.ActionsEnded) and s.turn > 0 \
                and type(h) in (Draw, Replenish, NamePlayer, Borrow, Peek, RevealTop) \
                and any(type(x) is Actions and x.player == tp for x in s.todo):
            raise bad("CL-2.2", "turn-start-first", f"{t.__name__} before the start of {tp}'s turn is over: the position "
                      f"expects {self.expected(s)}")
        if t is E.Passed and type(h) is Rest:
            left = [i for i, sp in enumerate(s.spaces) if tp in sp.banners and i not in h.done]
            raise bad("CL-4.6", "collect-all", f"a Rest collects every Banner of {tp}: still on {left}")
        if t in (E.Moved, E.AcolyteSpawned, E.CardPlayed) and type(h) in (MoveBeast, BannerChoice, Deploy, Rest):
            raise bad("CL-2.3", "actions-over", f"{tp}'s Actions are over this turn (now: {self.expected(s)})")
        if t is E.BeastMoved and type(h) is Actions and not Q.has(s, tp, "beast-whisperer"):
            raise bad("CL-2.4", "not-now", "a Beast is moved in the Move Beast step after the Actions (ActionsEnded first)")

    # -- Actions -------------------------------------------------------------------------------------
    def c_actions(self, s: State, e: Any, h: Actions) -> None:
        p = h.player
        t = type(e)
        info = s.info
        if t is E.Moved:
            self.c_move(s, e, p)
        elif t is E.AcolyteSpawned:
            self.c_spawn(s, e, p)
        elif t is E.CardPlayed:
            self.c_card(s, e, p)
        elif t is E.BeastMoved:
            if not Q.has(s, p, "beast-whisperer"):
                raise bad("CL-2.4", "not-now", "a Beast is moved in the Move Beast step after the Actions (ActionsEnded first)")
            if info.whispered >= Q.tparam("beast-whisperer", "per_turn"):
                raise bad("CL-7.2", "whisperer-used", f"{p} already used Beast Whisperer this turn (once per turn)")
            self.need_gold(s, p, Q.tparam("beast-whisperer", "gold"), "Beast Whisperer")
            self.c_beast_step(s, e)
        elif t is E.ActionBought:
            if not Q.has(s, p, "boldness"):
                raise bad("CL-7.2", "no-boldness", f"{p} does not have Boldness: Actions cannot be bought")
            if info.dominate:
                raise bad("CL-6.3", "after-dominate", f"{p} played Dominate: no more Actions this turn")
            self.need_gold(s, p, Q.tparam("boldness", "gold"), "an extra Action (Boldness)")
        elif t is E.CardBought:
            if not Q.has(s, p, "mercantile"):
                raise bad("CL-7.2", "no-mercantile", f"{p} does not have Mercantile: cards cannot be bought")
            self.need_gold(s, p, Q.tparam("mercantile", "gold"), "a card (Mercantile)")
        elif t is E.Alchemized:
            self.c_alchemy(s, e, p)
        elif t is E.TraitDiscarded:
            if not s.options.voluntary_trait_discard:
                raise bad("CL-19", "no-voluntary-discard", "a Trait cannot be discarded at will in this ruleset "
                          "(option voluntary_trait_discard)")
            if e.trait not in s.player(p).traits:
                raise bad("CL-19", "no-such-trait", f"{p} has no Trait {e.trait!r} in play")

    def need_gold(self, s: Any, p: str, n: int, what: str) -> None:
        g = s.player(p).gold
        if g < n:
            raise bad("CL-5.1", "not-enough-gold", f"{what} costs {n} Gold; {p} has {g}")

    def need_action(self, s: Any, p: str, what: str) -> None:
        info = s.info
        if info.dominate:
            raise bad("CL-6.3", "after-dominate", f"{p} played Dominate this turn: no Action may follow it ({what})")
        if info.actions < 1:
            used = info.moves + (info.cards if s.options.card_costs_action else 0)
            raise bad("CL-2.3", "no-actions-left", f"{what} would be Action {used + 1}; {p} has used all {used} Actions of this turn")

    def c_move(self, s: State, e: E.Moved, p: str) -> None:
        if not in_board(s, e.space) or not in_board(s, e.to):
            raise bad("CL-3.1", "no-such-space", f"Moved {e.space}->{e.to}: the island has spaces 0 to {len(s.spaces) - 1}")
        if e.owner is not None:
            raise bad("CL-3.1", "not-your-piece", f"in the Actions {p} moves own pieces only (owner {e.owner!r} given)")
        if e.road:
            r = s.road
            if r is None or r.player != p:
                raise bad("CL-3.3", "no-road", f"Road Movement continues a move, but {p}'s last event was not a step of a piece")
            if r.piece != e.piece or r.at != e.space:
                raise bad("CL-3.3", "no-road", f"the last step took {p}'s {r.piece} to {r.at}; only that piece can go on by "
                          f"Road Movement (not the {e.piece} on {e.space})")
            if not r.open and r.why == "explored":
                raise bad("CL-3.2", "move-ended", f"{p}'s {r.piece} explored {r.at}: exploring ends the move (CL-7)")
            if not r.open:
                raise bad("CL-3.3", "no-own-piece", f"{p}'s {r.piece} entered {r.at}, which held {r.why or 'no piece of ' + p}: "
                          f"Road Movement cannot go on from there")
            if e.to not in Q.move_adjacent(s, p, e.space, own=True):
                raise bad("CL-3.1", "not-adjacent", f"{e.space} and {e.to} are not neighbours")
            if e.to in r.visited:
                raise bad("CL-3.3", "revisit", f"this move already went through {e.to} (path {list(r.visited)}); a move "
                          "never enters a space twice")
            return
        sp = s.spaces[e.space]
        me = s.player(p)
        if e.piece == "colossus" and me.colossus != e.space:
            raise bad("CL-3.1", "no-piece", f"{p}'s Colossus is on {me.colossus}, not on {e.space}")
        if e.piece == "acolyte" and acol(sp, s.seat(p)) < 1:
            raise bad("CL-3.1", "no-piece", f"{p} has no Acolyte on space {e.space}")
        self.need_action(s, p, f"moving from {e.space} to {e.to}")
        if Q.has(s, p, "ludicrously-capacious") and s.info.moves >= Q.tparam("ludicrously-capacious", "moves"):
            raise bad("CL-7.5", "move-limit", f"{p} already used {s.info.moves} Actions on movement this turn "
                      f"(Ludicrously Capacious allows {Q.tparam('ludicrously-capacious', 'moves')})")
        if e.to not in Q.move_adjacent(s, p, e.space, own=True):
            raise bad("CL-3.1", "not-adjacent", f"{e.space} and {e.to} are not neighbours: a move goes one space")

    def c_spawn(self, s: State, e: E.AcolyteSpawned, p: str) -> None:
        if not in_board(s, e.space):
            raise bad("CL-3.4", "spawn-space", f"space {e.space} is not on the island")
        me = s.player(p)
        if me.acolytes < 1:
            raise bad("CL-3.4", "no-acolyte-in-hand", f"{p} has no Acolyte in hand (all 10 are on the board)")
        self.need_action(s, p, "spawning an Acolyte")
        if Q.has(s, p, "ludicrously-capacious") and s.info.moves >= Q.tparam("ludicrously-capacious", "moves"):
            raise bad("CL-7.5", "move-limit", f"{p} already used {s.info.moves} Actions on movement this turn "
                      f"(Ludicrously Capacious allows {Q.tparam('ludicrously-capacious', 'moves')})")
        if Q.acolytes_in_play(s, p) >= Q.acolyte_cap(s, p):
            raise bad("CL-3.7", "acolyte-cap", f"{p} has {Q.acolytes_in_play(s, p)} Acolytes on the board, the most allowed")
        if e.space not in spawn_spaces(s, p):
            raise bad("CL-3.4", "spawn-space", f"an Acolyte is spawned on {p}'s Colossus's space ({me.colossus})"
                      + (" or on or next to a Beast (Zoophilic)" if Q.has(s, p, "zoophilic") else "") + f", not on {e.space}")

    def c_card(self, s: State, e: E.CardPlayed, p: str) -> None:
        C = content()
        if e.card not in C.cards:
            raise bad("CL-6.1", "unknown-card", f"{e.card!r} is not a Colossi card")
        me = s.player(p)
        if e.card not in me.hand:
            raise bad("CL-6.1", "not-in-hand", f"{p} has no {name(e.card)} in hand")
        if s.info.dominate:
            raise bad("CL-6.3", "after-dominate", f"{p} played Dominate this turn: no Action may follow it")
        if s.options.card_costs_action:
            self.need_action(s, p, f"playing {name(e.card)}")
        if Q.has(s, p, "speedy") and s.info.cards >= Q.tparam("speedy", "cards"):
            raise bad("CL-6.3", "one-card", f"{p} already played a card this turn (Speedy: one card a turn)")
        if C.cards[e.card].effect.kind == "dominate" and s.info.acted:
            raise bad("CL-6.3", "dominate-first", f"Dominate must be the first Action of the turn; {p} already acted")
        given = card_fields(canonical(e))
        opts = card_params(s, p, e.card)
        if given in opts:
            return
        needs = C.cards[e.card].needs
        extra = [f for f in given if f not in needs]
        if extra:
            raise bad("CL-6.2", "bad-choice", f"{name(e.card)} takes no {', '.join(extra)}")
        if not opts:
            raise bad("CL-6.2", "no-choice", f"{name(e.card)} cannot be played now: nothing on the island fits it")
        shown = ", ".join(" ".join(f"{k}={v}" for k, v in o.items()) for o in opts[:6]) + (" ..." if len(opts) > 6 else "")
        got = " ".join(f"{k}={v}" for k, v in given.items()) or "no choice"
        raise bad("CL-6.2", "bad-choice", f"{name(e.card)} with {got} does not fit its text ({C.cards[e.card].text}); "
                  f"possible: {shown}")

    def c_beast_step(self, s: Any, e: E.BeastMoved) -> None:
        if e.beast not in content().beasts or Q.beast_space(s, e.beast) is None:
            raise bad("CL-2.4", "no-such-beast", f"the Beast {e.beast!r} is not on the island")
        if e.to not in beast_steps(s, e.beast):
            raise bad("CL-2.4", "beast-step", f"the {e.beast} on {Q.beast_space(s, e.beast)} can go to "
                      f"{beast_steps(s, e.beast)} (neighbouring explored spaces), not {e.to}")

    def c_alchemy(self, s: State, e: E.Alchemized, p: str) -> None:
        if not Q.has(s, p, "alchemist"):
            raise bad("CL-7.3", "no-alchemist", f"{p} does not have Alchemist")
        me = s.player(p)
        ok = False
        if e.what == "card":
            ok = e.space is None and e.item in me.hand
        elif e.what == "trait":
            ok = e.space is None and e.item in me.traits
        elif e.item is None and in_board(s, e.space):
            sp = s.spaces[e.space]
            ok = (p in sp.banners) if e.what == "banner" else acol(sp, s.seat(p)) > 0
        if not ok:
            what = e.item if e.space is None else f"space {e.space}"
            raise bad("CL-7.3", "nothing-to-turn", f"{p} has no {e.what} {what} to turn into Gold")

    # -- the Banner phase ---------------------------------------------------------------------------------
    def c_deploy(self, s: State, e: Any, h: Deploy) -> None:
        p = h.player
        t = type(e)
        if t is E.Passed:
            return
        if t is E.BannerScored:
            if not Q.has(s, p, "nomadic"):
                raise bad("CL-2.5", "deploy-not-rest", f"{p} is deploying: scoring Banners is the Rest, and a turn has Deploy "
                          "or Rest, not both (only Dominate allows both)")
            if e.keep or e.space not in s.info.raised or e.space in s.info.nomad_scored or not in_board(s, e.space) \
                    or p not in s.spaces[e.space].banners:
                raise bad("CL-2.5", "nomadic-score", f"Nomadic scores a Banner raised in this Deploy, once: "
                          f"raised {list(s.info.raised)}, scored {list(s.info.nomad_scored)}")
            return
        if t is E.BannerRaised:
            self.c_raise(s, p, e.space, "CL-4.2")
            return
        # BannerMoved
        if not s.options.deploy_can_move_banners:
            raise bad("CL-14", "no-banner-moves", "deployed Banners cannot be moved in this ruleset (option deploy_can_move_banners)")
        if not in_board(s, e.space) or p not in s.spaces[e.space].banners:
            raise bad("CL-4.4", "no-banner-there", f"{p} has no Banner on space {e.space}")
        if e.to == e.space:
            raise bad("CL-4.4", "same-space", "a Banner moves to another space")
        self.c_raise(s, p, e.to, "CL-4.4", moving=True)

    def c_raise(self, s: Any, p: str, i: int, rule: str, moving: bool = False) -> None:
        if not in_board(s, i):
            raise bad(rule, "not-controlled", f"space {i} is not on the island")
        me = s.player(p)
        if not moving:
            if me.banners < 1:
                raise bad("CL-4.2", "no-banner-in-hand", f"{p} has no Banner in hand (all 6 are on the board)")
            if Q.banners_in_play(s, p) >= Q.banner_cap(s, p):
                raise bad("CL-4.5", "banner-cap", f"{p} has {Q.banners_in_play(s, p)} Banners on the board, the most allowed "
                          f"({Q.banner_cap(s, p)})")
        if Q.control(s, i) != p:
            raise bad(rule, "not-controlled", f"{p} does not control space {i}: {control_text(s, i)}")
        why = bannerable(s, p, i)
        if why is not None:
            raise bad("CL-4.3", "guarded-banner" if "cannot be replaced" in why else "one-banner", why)

    def c_rest(self, s: State, e: Any, h: Rest) -> None:
        p = h.player
        if not in_board(s, e.space) or p not in s.spaces[e.space].banners:
            raise bad("CL-4.6", "no-banner-there", f"{p} has no Banner on space {e.space} to collect")
        if e.space in h.done:
            raise bad("CL-4.6", "already-collected", f"the Banner on {e.space} was collected in this Rest already")
        if e.keep:
            stone = h.stone or s.spaces[e.space].tile == "lair-stone-beast"
            mx = int(content().tiles["lair-stone-beast"].rest.params["max"])
            if not stone or h.kept >= mx:
                raise bad("CL-4.6", "cannot-keep", "a scored Banner stays on the board only after the Stone Beast's lair was "
                          f"scored in this Rest, at most {mx} ({h.kept} kept)")

    # -- choices -------------------------------------------------------------------------------------------
    def c_choice(self, s: State, e: Any, h: Any) -> Ruling:
        t = type(h)
        rule, code, optional, what = CHOICES[t]
        if type(e) is E.Passed:
            return ok(rule, "declined")
        fast = FAST.get(t)
        if fast is not None and type(e) in ANSWERS[t] and fast(s, h, e):
            return ok(rule)
        opts = task_options(s, h)
        ce = canon(e)
        if ce in opts:
            return ok(rule)
        shown = ", ".join(Q_desc(o) for o in opts[:8]) + (" ..." if len(opts) > 8 else "")
        raise bad(rule, code, f"{type(e).__name__}: {Q_desc(ce)} is not {what} here (allowed: {shown or 'none'})")

    # == apply ==========================================================================================
    # the kit's RulesBase.apply hands the @applies handler a working copy (``working = W``)
    def finish(self, w: W) -> State:
        w.pump()
        return w.freeze()

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
        box = list(w.tile_box)
        box.remove(e.tile)
        w.tile_box = tuple(box)
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
        lender = next(p.id for p in w.players if p.id != e.player and e.trait in p.traits)
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
        does happens), nothing is spent; a piece that is not there cannot move (no meaning)."""
        sp = w.spaces[e.space]
        there = owner in sp.colossi if e.piece == "colossus" else acol(sp, w.si(owner)) > 0
        if not there:
            raise ValueError(f"{owner} has no {e.piece} on space {e.space}: there is nothing to move")
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
        h = w.pop()
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
            raise ValueError(f"space {e.space} is explored already: no tile can be turned up there")
        self.new_tile(w, e.space, e.tile, by)

    def new_tile(self, w: W, i: int, tile: str, by: str) -> None:
        if w.tile_top and w.tile_top[0] == tile:
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
        holder = next(p.id for p in w.players if p.id != e.player and e.trait in p.traits)
        w.lose_trait(holder, e.trait, discard=False)
        w.gain_trait(e.player, e.trait)

    @applies(E.DieRolled)
    def a_rolled(self, w: W, e: Any) -> None:
        h = w.todo[0]
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
            land(w, e.player, it, e.to)
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
        self.new_tile(w, e.space, e.tile, h.player)
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


    # == derive ===========================================================================================
    def derive(self, s: State) -> Any:
        if s.result is not None:
            return None
        o = s.options
        if o.end_mode == "immediate":
            if any(p.gold >= o.gold_target for p in s.players):
                return self.game_end(s)
        else:
            for p in s.players:
                if p.gold >= o.gold_target and p.id not in s.reached:
                    return E.TargetReached(player=p.id, gold=p.gold)
        h = head(s)
        t = type(h)
        if t is StartTurn:
            nxt = s.first if s.turn_player is None else Q.from_seat(s, s.turn_player)[1]
            if s.reached and nxt == s.first:
                return self.game_end(s)
            return E.TurnStarted(turn=s.turn + 1, player=nxt)
        if t is Replenish:
            return E.LootReplenished(spaces=[i for i, sp in enumerate(s.spaces) if Q.produces(sp) and sp.loot == 0])
        if t is EndTurn:
            return E.TurnEnded(turn=s.turn, player=s.turn_player)
        return None

    def game_end(self, s: State) -> E.GameEnded:
        gold = {p.id: p.gold for p in s.players}
        best = max(gold.values())
        top = [p for p in Q.seats(s) if gold[p] == best]
        if len(top) == 1:
            return E.GameEnded(result="win", winner=top[0], reason="gold", gold=gold)
        if s.options.tie == "first-to-target":
            first = next((p for p in s.reached if p in top), None)
            if first is not None:
                return E.GameEnded(result="win", winner=first, reason="gold-tie-first-to-target", gold=gold)
        return E.GameEnded(result="draw", winner=None, reason="gold-tie", gold=gold)

    # == legal events ====================================================================================
    def candidates(self, s: State) -> list[Any]:
        if s.result is not None:
            return []
        h = head(s)
        if h is None:
            return []
        t = type(h)
        if t is Actions:
            return self.action_candidates(s, h.player)
        if t is BannerChoice:
            return [E.BannerPhaseChosen(player=h.player, choice="deploy"), E.BannerPhaseChosen(player=h.player, choice="rest")]
        if t is Deploy:
            p = h.player
            out: list[Any] = [E.BannerRaised(player=p, space=i) for i in range(len(s.spaces)) if Q.control(s, i) == p]
            if s.options.deploy_can_move_banners:
                mine = [i for i, sp in enumerate(s.spaces) if p in sp.banners]
                ctrl = [i for i in range(len(s.spaces)) if Q.control(s, i) == p]
                out += [E.BannerMoved(player=p, space=i, to=j) for i in mine for j in ctrl if j != i]
            out += [E.BannerScored(player=p, space=i) for i in s.info.raised]
            out.append(E.Passed(player=p))
            return out
        if t is Rest:
            p = h.player
            out = []
            for i, sp in enumerate(s.spaces):
                if p in sp.banners and i not in h.done:
                    out.append(E.BannerScored(player=p, space=i))
                    out.append(E.BannerScored(player=p, space=i, keep=True))
            return out
        if t in CHOICES:
            out = task_options(s, h)
            if CHOICES[t][2]:
                out.append(E.Passed(player=h.player))
            return out
        return []

    def action_candidates(self, s: State, p: str) -> list[Any]:
        out: list[Any] = []
        me = s.player(p)
        k = s.seat(p)
        r = s.road
        if r is not None and r.open and r.player == p:
            out += [E.Moved(player=p, piece=r.piece, space=r.at, to=a, road=True)
                    for a in Q.move_adjacent(s, p, r.at, own=True) if a not in r.visited]
        if me.colossus is not None:
            out += [E.Moved(player=p, piece="colossus", space=me.colossus, to=a)
                    for a in Q.move_adjacent(s, p, me.colossus, own=True)]
        for i, sp in enumerate(s.spaces):
            if acol(sp, k):
                out += [E.Moved(player=p, piece="acolyte", space=i, to=a) for a in Q.move_adjacent(s, p, i, own=True)]
        out += [E.AcolyteSpawned(player=p, space=i) for i in spawn_spaces(s, p)]
        for c in U.hand_ids(s, me.hand):
            for prm in card_params(s, p, c):
                out.append(E.CardPlayed(player=p, card=c, **prm))
        if Q.has(s, p, "beast-whisperer"):
            out += [E.BeastMoved(player=p, beast=bst, to=a) for bst, _ in Q.beasts_on_board(s) for a in beast_steps(s, bst)]
        if Q.has(s, p, "boldness"):
            out.append(E.ActionBought(player=p))
        if Q.has(s, p, "mercantile"):
            out.append(E.CardBought(player=p))
        if Q.has(s, p, "alchemist"):
            out += [E.Alchemized(player=p, what="card", item=c) for c in U.hand_ids(s, me.hand)]
            out += [E.Alchemized(player=p, what="trait", item=tr) for tr in me.traits]
            out += [E.Alchemized(player=p, what="banner", space=i) for i, sp in enumerate(s.spaces) if p in sp.banners]
            out += [E.Alchemized(player=p, what="acolyte", space=i) for i, sp in enumerate(s.spaces) if acol(sp, k)]
        if s.options.voluntary_trait_discard:
            out += [E.TraitDiscarded(player=p, trait=tr) for tr in me.traits]
        out.append(E.ActionsEnded(player=p))
        return out

    def to_act(self, s: State) -> list[str]:
        if s.result is not None:
            return []
        h = head(s)
        if h is None or type(h) in (StartTurn, EndTurn, Replenish):
            return []
        p = getattr(h, "player", None)
        if p is not None:
            return [p]
        return [s.turn_player] if s.turn_player else list(Q.seats(s))


# == helpers =======================================================================================================

def remove1(items: tuple[str, ...], x: str) -> tuple[str, ...]:
    i = items.index(x)
    return items[:i] + items[i + 1:]


def has_road(x: Any, space: int, owner: str, mover: str, own_turn: bool) -> bool:
    """Does ``space`` hold a road for ``owner``'s piece (its own Colossus or Acolytes; Sly)?"""
    if x.spaces[space].tile is None:
        return False
    if own_turn and owner == mover:
        return Q.road_piece(x, space, owner)
    return Q.has_piece(x, space, owner)


def spawn_spaces(x: Any, p: str) -> list[int]:
    me = Q.player(x, p)
    out = [] if me.colossus is None else [me.colossus]
    if Q.has(x, p, "zoophilic"):
        for _, at in Q.beasts_on_board(x):
            for a in Q.B(x).around(at):
                if a not in out and x.spaces[a].tile is not None:
                    out.append(a)
    return sorted(out)


def Q_desc(e: Any) -> str:
    d = msgspec.to_builtins(e)
    d.pop("type", None)
    d.pop("player", None)
    return " ".join(f"{k}={v}" for k, v in d.items()) or type(e).__name__
