"""Unknown identities in a seat's record of a Colossi match (CL-2.7, CL-40, CL-41).

A seat's record (``adjudicator redact``) names ``"?"`` (or ``null``) for what that seat could not
see: another player's draws and dealt cards, the cards they contributed or gave, a top item another
player looked at, and every tile set aside.  The engine keeps such a card in its zone as the
placeholder ``"?"`` and remembers, in :class:`~.state.Unseen`, the multiset of identities not yet
accounted for (one per placeholder, cards and tiles apart): the deck composition is fixed by the
game's data, so "what is still possible" is that data minus everything seen since.

Nothing here runs for a full-information log: :func:`involved` is False until the first unknown
field, and only then does a position carry ``unseen``.  Before an event is checked (and again,
totally, before it is applied) :func:`resolve` makes the position ready for the ordinary rules:

- a card or tile the event names, taken from a zone that holds placeholders but no such known item,
  becomes known there (one ``"?"`` replaced, the identity taken out of ``unseen``); when the
  identity is not possible (every copy already seen elsewhere) the event is illegal, CL-2.7;
- an unknown item taken from a zone that still holds known items makes that zone unknown (its known
  items join ``unseen``): the record does not say which of them left.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN, CardsLooked, CardsMoved
from adjudicator.core.kernel.rulings import Illegal, Undetermined
from adjudicator.core.kernel.notation import kind_words

from . import events as E
from .data import content
from .state import Unseen

NS = "colossi/"

#: event type -> the field naming a card or tile (one name or a list of names)
FIELDS: dict[type, str] = {
    E.CardDrawn: "card", E.CardDealt: "card", E.CardGiven: "card", E.CardPlayed: "card",
    E.CardDiscarded: "card", E.CardsContributed: "cards", E.CardTaken: "discard", E.TopRevealed: "item",
    E.TileSetAside: "tile", E.TileExplored: "tile", E.TileReplaced: "tile", E.Alchemized: "item",
    CardsLooked: "cards", CardsMoved: "cards",
    E.TraitDrawn: "trait", E.TraitRevealed: "trait", E.TraitTaken: "trait",
}
TILE_EVENTS = (E.TileSetAside, E.TileExplored, E.TileReplaced)
#: the events naming a Trait of the Trait deck or of a Growth's pool (CL-48: a private Growth's
#: draws are unknown to the other seats)
TRAIT_EVENTS = (E.TraitDrawn, E.TraitRevealed, E.TraitTaken)
#: the event types the unknown-identity work of ``check`` concerns: those naming a card or tile, and
#: an Animalistic draw (its Lair may be face down: CL-40); any other is checked as it is
WATCHED: frozenset[type] = frozenset(FIELDS) | {E.BeastDrawn}


def unknown(v: Any) -> bool:
    return v is None or v == HIDDEN


def _names(e: Any) -> list[Any]:
    f = FIELDS.get(type(e))
    if f is None or (type(e) is E.Alchemized and e.what != "card"):
        return []
    v = getattr(e, f)
    return list(v) if isinstance(v, list) else [v]


def involved(s: Any, e: Any) -> bool:
    """Does ``e`` in ``s`` need the unknown-identity work (the position or the event has unknowns)?"""
    if s.unseen is not None:
        return True
    f = FIELDS.get(type(e))
    if f is None:
        return False
    v = getattr(e, f)
    if v.__class__ is str:  # the hot path of a full-information log: one comparison
        return v == HIDDEN
    if v is None:
        return type(e) is not E.Alchemized or e.what == "card"
    return HIDDEN in v or None in v


def normal(e: Any) -> Any:
    """``e`` with ``null`` names written ``"?"`` (the ordinary rules see one placeholder)."""
    f = FIELDS.get(type(e))
    if f is None:
        return e
    v = getattr(e, f)
    if isinstance(v, list):
        return replace(e, **{f: [HIDDEN if x is None else x for x in v]}) if None in v else e
    return replace(e, **{f: HIDDEN}) if v is None and not (type(e) is E.Alchemized and e.what != "card") else e


def _is_tile(e: Any) -> bool:
    return type(e) in TILE_EVENTS or (type(e) is E.TopRevealed and e.deck == "tiles") \
        or (type(e) is CardsLooked and e.zone == "tile-deck-top")


def _pool_field(e: Any) -> str:
    """The field of :class:`~.state.Unseen` holding what ``e``'s unknown items can be."""
    return "tiles" if _is_tile(e) else "traits" if type(e) in TRAIT_EVENTS else "cards"


def _source(s: Any, e: Any) -> str | None:
    """The zone an event's named item comes from: a State field name or ``hand:<player>``."""
    t = type(e)
    if t is E.TraitDrawn or t is E.TraitRevealed:
        return "trait_deck"
    if t is E.TraitTaken:
        return {"row": "trait_row", "deck": "trait_deck"}.get(e.source, "growth")
    if t is E.CardDrawn:
        return "card_top" if s.card_top else "card_deck"
    if t is E.TopRevealed:
        return "tile_deck" if e.deck == "tiles" else "card_deck"
    if t is E.CardDealt:
        return "pile"
    if t is E.TileSetAside:
        return "tile_box"
    if t is E.TileReplaced and s.options.void_tile == "box-first" and s.tile_box:
        return "tile_box"  # (CL-23's option: The Void draws from the box first)
    if t in (E.TileExplored, E.TileReplaced):
        return "tile_top" if s.tile_top else "tile_deck" if s.tile_deck else "tile_box"
    if t is CardsLooked:
        return "tile_top" if e.zone == "tile-deck-top" else "card_top"
    if t is CardsMoved:
        return "hand:" + e.owner
    return "hand:" + e.player


def _get(s: Any, zone: str) -> tuple[str, ...]:
    if zone.startswith("hand:"):
        pid = zone[5:]
        for p in s.players:
            if p.id == pid:
                return p.hand
        return ()
    return getattr(s, zone)


def _put(s: Any, zone: str, items: tuple[str, ...]) -> Any:
    if zone.startswith("hand:"):
        pid = zone[5:]
        return replace(s, players=tuple(replace(p, hand=items) if p.id == pid else p for p in s.players))
    return replace(s, **{zone: items})


def _ordered(zone: str, items: list[str]) -> tuple[str, ...]:
    """Tops keep their order; every other zone is a sorted multiset."""
    return tuple(items) if zone.endswith("_top") else tuple(sorted(items))


def resolve(s: Any, e: Any, strict: bool) -> Any:
    """The position ``e`` is checked and applied in (see the module text).  ``strict``: raise
    Illegal (CL-2.7) when a named identity is impossible; else leave the position as it is."""
    names = _names(e)
    if not names:
        return s
    if type(e) is CardsLooked:
        return _resolve_look(s, e, names, strict)
    tiles = _is_tile(e)
    zone = _source(s, e)
    items = list(_get(s, zone))
    top = zone.endswith("_top")
    un = s.unseen or Unseen()
    pool = list(getattr(un, _pool_field(e)))
    changed = False
    kept = _received_copy(s, e)
    for x in names:
        slots = items[:1] if top else items
        if unknown(x):
            if not slots:
                continue  # the ordinary rules reject taking from an empty zone
            known = [c for c in slots if c != HIDDEN]
            if known:
                # the record does not say which item left: the zone (its top) becomes unknown
                pool += known
                if tiles and zone != "tile_box":
                    for k in known:
                        un = kind_changed(un, k, +1)
                items = [HIDDEN] * len(slots) + items[len(slots):]
                changed = True
            if not top:
                items.remove(HIDDEN)  # this placeholder is spoken for by this event
            continue
        if slots.count(x) > (1 if x == kept else 0):
            if not top:
                items.remove(x)
            continue
        if HIDDEN not in slots:
            continue  # not there at all: the ordinary rules say why
        un = _named(s, e, x, tiles and zone != "tile_box", un, pool, strict)
        items[items.index(HIDDEN)] = x
        if not top:
            items.remove(x)
        changed = True
    if not changed:
        return s
    # put back what this event takes (the ordinary apply removes it)
    taken = [HIDDEN if unknown(x) else x for x in names]
    full = items if top else items + taken
    return _with(s, zone, _ordered(zone, full), _pool_field(e), un, pool)


def _named(s: Any, e: Any, x: str, counted: bool, un: Any, pool: list[str], strict: bool) -> Any:
    """``x`` named where the record held a placeholder: checked against what it can still be
    (``strict``: CL-2.7) and taken out of ``pool``; ``counted``: a tile of the tile deck, whose
    kind counts (``un`` returned with them updated)."""
    tiles = _is_tile(e)
    if strict and x not in pool:
        raise Illegal("CL-2.7", NS + "impossible-identity", impossible(s, e, x, tiles))
    if counted:
        why = _kinds_left(s, un, x)
        if why and strict:
            raise Illegal("CL-2.7", NS + "impossible-identity", f"{said(s, e, x)}, but {why}")
        un = kind_changed(un, x, -1)
    # (apply is total: an impossible name a judge let stand still takes one placeholder)
    if pool:
        pool.remove(x if x in pool else pool[0])
    return un


def _with(s: Any, zone: str, items: tuple[str, ...], field: str, un: Any, pool: list[str]) -> Any:
    """``s`` with ``zone`` holding ``items`` and what its kind's placeholders can be, ``pool``
    (``field`` of :class:`~.state.Unseen`)."""
    s = _put(s, zone, items)
    return replace(s, unseen=replace(un, **{field: tuple(sorted(pool))}))


def _resolve_look(s: Any, e: Any, names: list[Any], strict: bool) -> Any:
    """A look at the top of a deck (CL-41): each named item where the record's top holds ``"?"``
    becomes known there (nothing moves); a "?" in the look, or a name that differs from a known
    item (the ordinary rules say why), changes nothing."""
    tiles = _is_tile(e)
    zone = _source(s, e)
    items = list(_get(s, zone))
    un = s.unseen or Unseen()
    pool = list(un.tiles if tiles else un.cards)
    changed = False
    for i, x in enumerate(names[:len(items)]):
        if unknown(x) or items[i] != HIDDEN:
            continue
        un = _named(s, e, x, tiles, un, pool, strict)
        items[i] = x
        changed = True
    return _with(s, zone, tuple(items), _pool_field(e), un, pool) if changed else s


def _kind(tile: str) -> str:
    t = content().tiles.get(tile)
    return t.kind if t is not None else ""


def _kinds_left(s: Any, un: Any, x: str) -> str:
    """Why no unknown tile of the tile deck can be ``x`` by its kind ("" if one can)."""
    kind = _kind(x)
    hidden = s.tile_deck.count(HIDDEN) + s.tile_top.count(HIDDEN)
    left = {"lair": un.lairs, "environment": un.environments}.get(kind, hidden - un.lairs - un.environments)
    if left > 0:
        return ""
    return f"the tile deck's unknown tiles hold no {kind} any more ({un.lairs} Lairs and {un.environments} " \
           "Environments set aside face down are still unrevealed)"


def kind_changed(un: Any, x: str, by: int) -> Any:
    """``un`` with one more (``by`` 1) or one fewer (-1, never below 0) unknown tile of ``x``'s
    kind in the tile deck (Grass is what the other unknown tiles there are)."""
    kind = _kind(x)
    if kind == "lair":
        return replace(un, lairs=max(0, un.lairs + by))
    if kind == "environment":
        return replace(un, environments=max(0, un.environments + by))
    return un


def from_known_top(s: Any, e: Any) -> Any:
    """``e`` with a ``"?"`` draw named where the seat knows the card on top of the Colossus deck
    (it looked at it, CL-41): a draw takes the top card, so the record that writes ``"?"`` for
    another player's draw still knows which card that player holds."""
    if type(e) is E.CardDrawn and unknown(e.card) and s.card_top and s.card_top[0] != HIDDEN:
        return replace(e, card=s.card_top[0])
    return e


def prepare(s: Any, e: Any) -> tuple[Any, Any]:
    """For apply: the resolved position (never raises) and the event with ``null`` as ``"?"``;
    an unknown tile set aside counts as a Lair or an Environment as the set-up step says."""
    if s.unseen is None:
        s = replace(s, unseen=Unseen())
    if type(e) is E.TileSetAside and unknown(e.tile) and s.todo:
        kind = getattr(s.todo[0], "kind", None)
        if kind == "lair":
            s = replace(s, unseen=replace(s.unseen, lairs=s.unseen.lairs + 1))
        elif kind == "environment":
            s = replace(s, unseen=replace(s.unseen, environments=s.unseen.environments + 1))
    e = from_known_top(s, e)
    return resolve(s, e, strict=False), normal(e)


def check(s: Any, e: Any) -> tuple[Any, Any]:
    """For check: the resolved position and event; raises Illegal (CL-2.7) for an impossible name."""
    if s.unseen is None:
        s = replace(s, unseen=Unseen())
    e = from_known_top(s, e)
    return resolve(s, e, strict=True), normal(e)


# == why a name is impossible =================================================================================

def _copies(tiles: bool, x: str) -> int:
    C = content()
    if tiles:
        t = C.tiles.get(x)
        if t is None:
            return 0
        return t.copies if x in C.grass else 1
    return sum(1 for c in C.deck if c == x)


def where(s: Any, x: str, tiles: bool) -> Counter[str]:
    """Where the known copies of ``x`` are, in words: ``{"ann's hand": 1, "the discard pile": 2}``."""
    out: Counter[str] = Counter()
    if tiles:
        out["the island"] += sum(1 for sp in s.spaces if sp.tile == x)
        for zone, label in (("tile_top", "the top of the tile deck"), ("tile_deck", "the tile deck"),
                            ("tile_box", "the tiles out of the game")):
            out[label] += getattr(s, zone).count(x)
    else:
        for p in s.players:
            out[f"{p.id}'s hand"] += p.hand.count(x)
            out[f"{p.id}'s Curses"] += p.curses.count(x)
        for zone, label in (("discard", "the discard pile"), ("card_top", "the top of the Colossus deck"),
                            ("card_deck", "the Colossus deck"), ("pile", "the Exchange pile")):
            out[label] += getattr(s, zone).count(x)
    return +out


def said(s: Any, e: Any, x: str) -> str:
    """What ``e`` claims, in words: ``bob plays iron-wolf from hand``."""
    t = type(e)
    what = {E.CardPlayed: "plays", E.CardDiscarded: "discards", E.CardGiven: "gives", E.CardDrawn: "draws",
            E.CardsContributed: "contributes", E.CardTaken: "discards", E.CardDealt: "is dealt",
            E.Alchemized: "turns into Gold", E.TopRevealed: "sees on top of the deck",
            CardsLooked: "sees on top of the deck", CardsMoved: "discards (Oasis)", E.TraitDrawn: "draws",
            E.TraitRevealed: "turns up", E.TraitTaken: "takes"}.get(t)
    who = getattr(e, "player", None)
    head = f"{who} {what} {x}" if who and what else f"{kind_words(t)} names {x}"
    src = _source(s, e)
    frm = "from hand" if src.startswith("hand:") else "from " + src.replace("_", " ")
    return f"{head} {frm}"


def impossible(s: Any, e: Any, x: str, tiles: bool) -> str:
    head = said(s, e, x)
    if type(e) in TRAIT_EVENTS:  # (one copy of each Trait)
        if x not in content().traits:
            return f"{head}, but the game has no such Trait"
        return f"{head}, but that Trait is already accounted for"
    n = _copies(tiles, x)
    seen = where(s, x, tiles)
    places = ", ".join(f"{k} in {v}" for v, k in seen.items()) or "none seen"
    if not n:
        return f"{head}, but the game has no such item"
    copies = "its only copy is" if n == 1 else f"all {n} copies are"
    return f"{head}, but {copies} already accounted for: {places}"


# == decisions that turn on an unknown identity ================================================================

def lair_condition(s: Any, e: Any) -> tuple[str, str] | None:
    """Animalistic draws a Beast not in the game: when its Lair may be among the face-down tiles
    (an unknown tile set aside), the draw is legal only if it is not (CL-40): (the condition, the
    Lair), or None."""
    if type(e) is not E.BeastDrawn or s.unseen is None:
        return None
    C = content()
    lairs = [t for t in s.unseen.tiles if C.tiles[t].beast is not None and C.tiles[t].beast.id == e.beast]
    if lairs and s.unseen.lairs > 0:
        return f"the Lair {lairs[0]} is not among the face-down tiles", lairs[0]
    return None


def beast_lair_condition(s: Any, e: Any) -> None:
    """:func:`lair_condition` as the ruling (undetermined, with the condition)."""
    c = lair_condition(s, e)
    if c is not None:
        raise Undetermined("CL-40", NS + "unknown-lair", f"{e.player} draws the {e.beast} (Animalistic), a Beast "
                           "not in the game", c[0])


def settled_against(s: Any, e: Any) -> None:
    """A Lair named from the face-down tile deck that an earlier Animalistic draw was legal only
    without: illegal, naming that event (``settles``: docs/log-format.md, "Conditions settled
    later")."""
    if s.unseen is None or not s.unseen.open or type(e) not in (E.TileExplored, E.TileReplaced, CardsLooked, E.TopRevealed):
        return
    if _source(s, e) not in ("tile_top", "tile_deck"):
        return
    for text, tile in s.unseen.open:
        if tile and tile in _names(e):
            raise Illegal("CL-40", NS + "unknown-lair", f"{said(s, e, tile)}: that Lair was among the face-down tiles",
                          settles=text)


def conditions_after(s: Any, e: Any, after: Any) -> Any:
    """``after`` (the position ``e`` leads to from ``s``) with the conditions ``e`` opens recorded
    and those later events settled dropped: a Lair's once no face-down Lair is left unknown or
    once the Lair is named anywhere (CL-40; :meth:`Colossi.open_conditions`)."""
    un = after.unseen
    skipped = trade_back_skipped(s, e)
    if un is None or (not un.open and type(e) is not E.BeastDrawn and type(e) is not E.CardGiven and skipped is None):
        return after  # (no condition open, and the event opens none)
    opened = list(un.open)
    if skipped is not None:
        opened.append((skipped, ""))
    c = lair_condition(s, e)
    if c is not None:
        opened.append(c)
    t = trade_condition(s, e)
    if t is not None:
        opened.append((t, ""))
    named = set(_names(e)) if _is_tile(e) else set()
    left = tuple(x for x in opened if not x[1] or (un.lairs > 0 and x[1] not in named))
    return after if left == un.open else replace(after, unseen=replace(un, open=left))


def hand_ids(s: Any, hand: tuple[str, ...]) -> list[str]:
    """The card ids a hand may play (legal events): its known cards and, for its unknown ones,
    every identity still possible (check then decides each)."""
    ids = set(hand)
    if HIDDEN in ids:
        ids.discard(HIDDEN)
        ids.update(s.unseen.cards if s.unseen is not None else ())
    return sorted(ids)


def possible_cards(s: Any) -> list[str]:
    """What a ``"?"`` card can still be, each identity once in the deck's order (the scene): the
    deck's cards minus every card the position shows (in a seat's record, the ids of ``unseen``)."""
    left = Counter(content().deck)
    for p in s.players:
        left.subtract(p.hand)
        left.subtract(p.curses)
    for zone in (s.discard, s.card_top, s.card_deck, s.pile):
        left.subtract(zone)
    out = []
    for c in content().deck:
        if left[c] > 0:
            left[c] = 0
            out.append(c)
    return out


def _received_copy(s: Any, e: Any) -> str | None:
    """Trade under CL-47's ``"copy"``: the card just received, which cannot be the card given back
    (another copy of it can, and in a seat's record that copy may be one of the hand's ``"?"``)."""
    if type(e) is not E.CardGiven or not s.todo or s.options.trade_different != "copy":
        return None
    h = s.todo[0]
    if type(h).__name__ != "TradeBack" or e.player != h.player or e.to != h.to or h.card == HIDDEN:
        return None
    return h.card


def trade_condition(s: Any, e: Any) -> str | None:
    """Trade (CL-6.4): the card given back must differ from the card received; when either is
    unknown (and the giver does hold another card that could be it), that is the condition."""
    if type(e) is not E.CardGiven or not s.todo or s.options.trade_different == "copy":
        return None  # (CL-47's option: any card but the one received, which the hand size decides)
    h = s.todo[0]
    if type(h).__name__ != "TradeBack" or e.player != h.player or e.to != h.to:
        return None
    if not (unknown(e.card) or h.card == HIDDEN):
        return None
    hand = next((p.hand for p in s.players if p.id == e.player), ())
    if len(hand) < 2:
        return None  # the ordinary rules decide (nothing else to give back)
    got = "the card received" if h.card == HIDDEN else h.card
    back = "the card given back" if unknown(e.card) else e.card
    return f"{back} is not {got}"


def trade_back_condition(s: Any, e: Any) -> None:
    """:func:`trade_condition` as the ruling (undetermined, with the condition)."""
    c = trade_condition(s, e)
    if c is not None:
        raise Undetermined("CL-6.4", NS + "unknown-trade", f"{e.player} gives {e.to} a card back (Trade)", c)


def _all_alike_possible(s: Any, hand: tuple[str, ...], got: str) -> bool:
    """Whether every card of ``hand`` can be one card (``got`` when it is known): the record's
    unknown cards there are then that card, as many copies as ``unseen`` still holds."""
    known = {c for c in hand if c != HIDDEN}
    if got != HIDDEN:
        known.add(got)
    if len(known) > 1:
        return False
    n = hand.count(HIDDEN)  # (the card received, when unknown, is one of them)
    left = Counter(s.unseen.cards)
    if known:
        return left[next(iter(known))] >= n
    return n <= 0 or any(k >= n for k in left.values())


def trade_back_skipped(s: Any, e: Any) -> str | None:
    """Trade (CL-6.4, CL-45) in a seat's record: the position waits for a card given back by a
    player whose hand the record does not show, and ``e`` is not that answer.  Then the player
    had no different card (the engine took the Gold, as it does when the hand shows none), and
    that is the condition, in words; None when ``e`` answers, the hand is known, or the hand
    cannot be all one card."""
    if s.unseen is None or not s.todo or type(s.todo[0]).__name__ != "TradeBack":
        return None
    h = s.todo[0]
    if type(e) in (E.CardGiven, E.GoldPaid) and getattr(e, "player", None) == h.player:
        return None
    hand = next((p.hand for p in s.players if p.id == h.player), ())
    if HIDDEN not in hand or not _all_alike_possible(s, hand, h.card) or s.options.trade_different == "copy":
        return None
    got = "the card received from " + h.to if h.card == HIDDEN else h.card
    return f"{h.player} holds no card other than {got}"
