"""Colossi content as data: the island, the tiles, the Colossus cards and the Traits.

Every file lives in ``data/`` and is decoded with msgspec into the frozen structures below; a
malformed file raises :class:`DataError` naming the file and the entry at fault.  Each card, tile
and Trait names an *effect kind* (what the engine does, ``rules.py``/``effects.py``) and its
parameters (amounts, ranges, limits); the engine reads the numbers from here.  The texts are the
project's own summaries of the published components (seed 003 and the component list of the same
version), never the published wording.

``board-<name>.json`` is an island layout: spaces with coordinates and their neighbours by
direction.  ``hex27`` (the default, assumed: CL-1) and ``square27`` ship with the package; another
layout is one more file, selected by the ruleset option ``board`` and pinned by
``MatchStarted.board_sha256``: shipped, or in a ``--pools`` directory (:mod:`adjudicator.core.kernel.sources`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import msgspec

from adjudicator.core.kernel.errors import DataError
from adjudicator.core.kernel.sources import DataKind

DATA = Path(__file__).parent / "data"

Param = int | str | bool


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: str
    params: dict[str, Param] = {}

    def get(self, name: str, default: Param | None = None) -> Param:
        v = self.params.get(name, default)
        if v is None:
            raise KeyError(name)
        return v


class BeastInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    passive: Literal["kills-acolytes", "drops-gold", "carries-loot", "reproduces-loot", "guards",
                     "scores-banners", "carries-acolytes"]
    text: str


class Tile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    kind: Literal["grass", "start", "environment", "lair"]
    text: str
    copies: int = 1
    #: Loot cubes the tile yields at Replenish (gold / blue / green)
    produces: dict[Literal["gold", "blue", "green"], int] = {}
    #: what scoring the space does (the "when resting" text)
    rest: Effect | None = None
    #: a continuous or triggered text (on reveal, on entry, on a Banner, acolytes die)
    trigger: Effect | None = None
    beast: BeastInfo | None = None


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    type: Literal["action", "beast", "curse", "gift"]
    text: str
    effect: Effect
    copies: int = 1
    #: the CardPlayed fields this card needs: space, target, targets, beast, direction, trait
    needs: list[Literal["space", "target", "targets", "beast", "direction", "trait"]] = []


class Trait(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    text: str
    effect: Effect


class TilesFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tiles: list[Tile]


class CardsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: list[Card]


class TraitsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    traits: list[Trait]


class BoardSpace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: int
    x: int
    y: int
    neighbours: dict[str, int]


class BoardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    description: str
    directions: list[str]
    opposite: dict[str, str]
    spaces: list[BoardSpace]


class Board:
    """An island: adjacency and directions, with quick lookups."""

    def __init__(self, f: BoardFile) -> None:
        self.name = f.name
        self.description = f.description
        self.directions = tuple(f.directions)
        self.opposite = dict(f.opposite)
        self.size = len(f.spaces)
        self.xy = tuple((s.x, s.y) for s in f.spaces)
        #: neighbour by direction, per space
        self.step: tuple[dict[str, int], ...] = tuple(dict(s.neighbours) for s in f.spaces)
        #: neighbours in direction order, per space
        self.adj: tuple[tuple[int, ...], ...] = tuple(
            tuple(s.neighbours[d] for d in self.directions if d in s.neighbours) for s in f.spaces)
        self.adjset = tuple(frozenset(a) for a in self.adj)
        #: direction from a space to a neighbour
        self.dir_to: tuple[dict[int, str], ...] = tuple({v: k for k, v in s.neighbours.items()} for s in f.spaces)

    def around(self, space: int) -> tuple[int, ...]:
        """The space and its neighbours (space first)."""
        return (space,) + self.adj[space]


# -- loading -------------------------------------------------------------------------------------

#: card effect kinds, with the parameters each needs (each has its handler in card_effects.py)
CARD_KINDS: dict[str, tuple[str, ...]] = {
    "bolster": ("per_space",), "commandeer": (), "convene": ("range",), "convert": (), "dominate": (),
    "influence": (), "intimidate": ("distance",), "magnetize": (), "draw": ("count",), "purge": (), "recall": (),
    "swap-colossi": (), "ritual-sacrifice": ("kill_at_most", "faces", "range"), "sabotage": ("max_spaces",),
    "secure": ("min_acolytes",), "short-rest": (), "steal-trait": (), "teleport": (), "vandalize": (), "lure": (),
    "walk": ("steps",), "rampage": (), "curse-limit": ("gold", "limit", "value"), "haste": ("gold",),
    "pity": ("gold", "other_gold"), "totality": ("gold",), "abundance": ("own", "others"), "audacity": ("gold",),
    "authority": ("gold",), "companionship": ("max",), "comradery": ("gold",), "diplomacy": ("gold",), "dominion": (),
    "fortitude": ("gold",), "miracle": (), "reinforcements": ("per_space",), "solidarity": (),
    "solitude": ("gold", "range"), "windfall": (), "exchange": ("gold",), "growth": (), "mimesis": (), "harvest": (),
}
#: tile scoring (Rest) effect kinds, with the parameters each needs (handlers: tile_effects.py)
TILE_KINDS: dict[str, tuple[str, ...]] = {
    "keep-banners": ("max",), "pull-loot": ("range",), "deep-mines": ("base", "step"), "move-beast-anywhere": (),
    "gold-per-own-acolyte": ("gold",), "launch": ("range",), "sell-cards": ("gold",), "moat": ("gold", "steal"),
    "new-hand": ("draw",), "tribute": ("gold",), "speedy-slopes": (), "swap-spaces": (), "trade": ("gold",),
    "replace-tile": (), "kill-around": ("range",), "kill-around-beast": ("range",), "gold-around-beast": ("amount",),
    "spread-loot-from-beast": (), "reproduce-around-beast": ("range",), "extra-actions": ("actions",),
    "blow-acolytes": (),
}
#: trigger kinds of tiles (applied where the game reaches them), with the parameters each needs
TRIGGER_KINDS: dict[str, tuple[str, ...]] = {
    "gold-on-reveal": ("amount",), "gold-on-entry": ("amount",), "acolytes-die-here": (),
    "gold-on-banner": ("amount",),
}
#: Trait kinds (each read where the rules consult the Trait), with the parameters each needs
TRAIT_KINDS: dict[str, tuple[str, ...]] = {
    "animalistic": (), "beast-whisperer": ("gold", "per_turn"), "ludicrously-capacious": ("hand", "actions", "moves"),
    "speedy": ("actions", "cards"), "blood-thirsty": ("gold",), "reactive": (), "nomadic": ("banners",),
    "resolute": ("banners_per_space", "loot_factor"), "domineering": (), "resurrecting": (), "protective": (),
    "sly": (), "abundant": ("draw",), "soothsayer": ("count",), "underworld": (), "boldness": ("gold",),
    "mimicry": (), "alchemist": ("gold",), "necromancer": ("acolytes",), "territorial": ("gold",),
    "vengeful": (), "zoophilic": (), "monolithic": ("banners",), "parasitic": (), "extortionist": ("gold",),
    "mercantile": ("gold",), "miserly": ("bonus", "acolytes", "banners"),
}


def _decode(name: str, typ: type) -> object:
    path = DATA / name
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(str(path), f"cannot read ({exc.strerror})") from None
    try:
        return msgspec.json.decode(raw, type=typ)
    except msgspec.ValidationError as exc:
        raise DataError(str(path), _where(raw, str(exc))) from None
    except msgspec.DecodeError as exc:
        raise DataError(str(path), f"not valid JSON ({exc})") from None


def _where(raw: bytes, text: str) -> str:
    """Name the entry (by its id) of a msgspec error path like ``$.cards[3].effect``."""
    import re

    m = re.search(r"at `\$\.(\w+)\[(\d+)\]", text)
    if not m:
        return text
    try:
        entries = msgspec.json.decode(raw)[m.group(1)]
        ident = entries[int(m.group(2))].get("id", "?")
    except Exception:  # the raw file is malformed in another way: keep msgspec's path
        return text
    return f"entry {ident!r}: {text}"


def _check_effect(path: str, ident: str, what: str, fx: Effect | None, kinds: dict[str, tuple[str, ...]]) -> None:
    if fx is None:
        return
    if fx.kind not in kinds:
        raise DataError(path, f"entry {ident!r}: unknown {what} kind {fx.kind!r} (known: {', '.join(sorted(kinds))})")
    missing = [p for p in kinds[fx.kind] if p not in fx.params]
    if missing:
        raise DataError(path, f"entry {ident!r}: {what} {fx.kind!r} needs the parameters {missing}")


class Content:
    """Every card, tile and Trait, by id."""

    def __init__(self, tiles: list[Tile], cards: list[Card], traits: list[Trait]) -> None:
        self.tiles = {t.id: t for t in tiles}
        self.cards = {c.id: c for c in cards}
        self.traits = {t.id: t for t in traits}
        self.beasts = {t.beast.id: t for t in tiles if t.beast is not None}
        self.grass = tuple(t.id for t in tiles if t.kind == "grass")
        self.environments = tuple(t.id for t in tiles if t.kind == "environment")
        self.lairs = tuple(t.id for t in tiles if t.kind == "lair")
        #: the Colossus card deck: every card id once per copy, sorted
        self.deck = tuple(sorted(c.id for c in cards for _ in range(c.copies)))
        self.trait_deck = tuple(sorted(self.traits))


@lru_cache(maxsize=None)
def content() -> Content:
    tiles = _decode("tiles.json", TilesFile).tiles  # type: ignore[attr-defined]
    cards = _decode("cards.json", CardsFile).cards  # type: ignore[attr-defined]
    traits = _decode("traits.json", TraitsFile).traits  # type: ignore[attr-defined]
    for name, entries in (("tiles.json", tiles), ("cards.json", cards), ("traits.json", traits)):
        seen: set[str] = set()
        for e in entries:
            if e.id in seen:
                raise DataError(str(DATA / name), f"entry {e.id!r}: duplicate id")
            seen.add(e.id)
            if getattr(e, "copies", 1) < 1:
                raise DataError(str(DATA / name), f"entry {e.id!r}: copies must be at least 1")
    for t in tiles:
        p = str(DATA / "tiles.json")
        _check_effect(p, t.id, "rest effect", t.rest, TILE_KINDS)
        _check_effect(p, t.id, "trigger", t.trigger, TRIGGER_KINDS)
        if (t.kind == "lair") != (t.beast is not None):
            raise DataError(p, f"entry {t.id!r}: a lair (and only a lair) names its beast")
    for c in cards:
        _check_effect(str(DATA / "cards.json"), c.id, "effect", c.effect, CARD_KINDS)
    for tr in traits:
        _check_effect(str(DATA / "traits.json"), tr.id, "effect", tr.effect, TRAIT_KINDS)
        if tr.effect.kind != tr.id:
            raise DataError(str(DATA / "traits.json"), f"entry {tr.id!r}: a Trait's effect kind is its id")
    if not any(t.kind == "start" for t in tiles):
        raise DataError(str(DATA / "tiles.json"), "no starting tile")
    return Content(tiles, cards, traits)


def island_from_document(doc: object, p: str, name: str) -> Board:
    """An island from its decoded document; ``p`` names it in errors, ``name`` is its id (the
    document's ``name``)."""
    try:
        f = msgspec.convert(doc, BoardFile)
    except msgspec.ValidationError as exc:
        raise DataError(p, str(exc)) from None
    if f.name != name:
        raise DataError(p, f"name: the file names its island {f.name!r}; it must match the file name board-{name}")
    for i, s in enumerate(f.spaces):
        if s.id != i:
            raise DataError(p, f"space {s.id}: spaces must be numbered 0, 1, 2 ... in order (found {s.id} at {i})")
    for s in f.spaces:
        for d, n in s.neighbours.items():
            if d not in f.directions:
                raise DataError(p, f"space {s.id}: unknown direction {d!r}")
            if not 0 <= n < len(f.spaces) or n == s.id:
                raise DataError(p, f"space {s.id}: neighbour {n} in direction {d} does not exist")
            back = f.opposite.get(d)
            if back is None or f.spaces[n].neighbours.get(back) != s.id:
                raise DataError(p, f"space {s.id}: neighbour {n} in direction {d} does not lead back ({back})")
    return Board(f)


#: islands by id: ``board-<id>.json`` (or ``.toml``) shipped in ``data/``, in a ``--pools``
#: directory, in the store (:mod:`adjudicator.core.kernel.sources`)
ISLANDS: DataKind[Board] = DataKind("colossi", "board", DATA, lambda i: (f"board-{i}.json", f"board-{i}.toml"),
                                    island_from_document, noun="island board")


def board(name: str, sha256: str | None = None) -> Board:
    """The island ``name`` (``options.board``), pinned to ``sha256`` (``MatchStarted.board_sha256``)
    when given, from the sources in effect."""
    return ISLANDS.load(name, sha256)


def boards() -> list[str]:
    return sorted(p.stem.removeprefix("board-") for p in DATA.glob("board-*.json"))
