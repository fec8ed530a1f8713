"""The options of a choice: every legal answer to a task a card, tile or Trait asks for
(:func:`task_options`), what each choice task asks and which events answer it (``CHOICES``,
``ANSWERS``, ``FAST``), the legal choices of a card played (:func:`card_params`) and the
canonical form of an event compared with them.  Read-only on a position (a State or a working copy).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable

import msgspec
from msgspec.structs import replace

from adjudicator.core.kernel.events import CardsLooked, CardsMoved, HIDDEN, bare
from adjudicator.core.kernel.notation import kind_words

from . import engine as Q
from . import events as E
from .data import content
from .engine import acol
from .notation import event_words
from .state import (
    Actions, AnimalDraw, BannerChoice, Borrow, ChooseFirst, Companions, Contribute, Deal, Deploy, Discard, Domineer,
    Dominion, Draft, Draw, Explore, GrowthDraw, GrowthDrop, GrowthPick, Hungry, Influence, Launch, LookTop, Maar,
    Mantle, Market, Mimesis, Miracle, MoveBeast, NamePlayer, Necro, NewHand, Parasite, Peek, PlaceChoice, PlaceStart,
    Purge, React, Recall, Rest, Resurrect, RevealTop, RevealTrait, Rolls, Sabotage, SetAside, Solidarity, Speedy,
    TakeTrait, Teleporter, TradeBack, TradeGive, TraitCap, Tribute, Void, VoidTile, Walk, Wind,
)


PARAM_FIELDS = ("space", "target", "targets", "beast", "direction", "trait")


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
    """The move ``NewHand`` owes: the whole hand to the discard pile (CL-42), face up (seen by
    every seat) or, with the discards hidden (CL-46), seen by its owner alone."""
    seen = list(Q.seats(x)) if x.options.discards_shown else [h.player]
    return CardsMoved(owner=h.player, from_zone="hand", to_zone="discard", cards=sorted(Q.player(x, h.player).hand),
                      seen_by=seen, player=h.player, source="oasis")


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
    if t is VoidTile and x.options.void_tile == "box-first" and x.tile_box:
        tiles = sorted(set(x.tile_box))  # (CL-23: the option's box first)
    elif x.tile_top:
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
    adj, spaces, anywhere = Q.B(x).adj, x.spaces, x.options.beasts_enter_unexplored  # beast_steps of each Beast
    return [E.BeastMoved(player=p, beast=bst, to=a) for bst, at in Q.beasts_on_board(x) for a in adj[at]
            if spaces[a].tile is not None or anywhere]


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
    copy = x.options.trade_different == "copy"  # CL-47: another copy of the card received may go back
    out = [E.CardGiven(player=p, to=h.to, card=c) for c in sorted(set(me.hand))
           if c != h.card or (copy and me.hand.count(c) > 1)]
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
    VoidTile: lambda s, h, e: e.space == h.space and (
        _from_deck(s.tile_top, s.tile_deck, e.tile, s.tile_box) if s.options.void_tile == "deck-first"
        else _from_deck((), s.tile_box, e.tile) if s.tile_box else _from_deck(s.tile_top, s.tile_deck, e.tile)),
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
    """A choice in the notation's words without who makes it (``start 19``, ``draw Audacity``):
    what a refusal of a choice names, and the choices it allows."""
    text = event_words(e) or kind_words(e)
    who = getattr(e, "player", None)
    return text[len(who) + 2:] if isinstance(who, str) and text.startswith(f"{who}: ") else text
