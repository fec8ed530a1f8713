"""Scenes: a small game-neutral picture of a position, for the replay viewers.

Each game describes a position (from the judge's or one player's view) as a :class:`Scene`:
an optional board (a grid or a graph of cells, each with a level, a terrain, pieces and
markers), zones of cards (face up or down, or only a count), counters (hit points, gold, mana,
locus points) and a status line.  ``replays/`` renders scenes in a terminal and a browser and
diffs them between two events; it never imports a game package.

The same information rules as ``state --as`` apply: a player's scene shows only what that player
can see (a hidden card is a :class:`Card` with ``face_up=False`` and no ``name``; a zone whose
cards are not even countable one by one gives ``count`` and no cards).
"""

from __future__ import annotations

from typing import Literal

import msgspec


class Piece(msgspec.Struct, frozen=True, omit_defaults=True):
    """A piece on a cell: a miniature, a Colossus, an Acolyte, a Banner, a Beast."""

    id: str
    label: str
    #: the owning player id (None: neutral, e.g. a Beast)
    owner: str | None = None
    #: what it is (``warrior``, ``colossus``, ``banner``): viewers may draw kinds differently
    kind: str = ""


class Cell(msgspec.Struct, frozen=True, omit_defaults=True):
    """A square of a grid or a space of a graph board."""

    id: str
    #: column and row (grid: 0-based from the top left; graph: layout coordinates)
    x: float
    y: float
    level: int | None = None
    #: terrain or tile name (``woods``, ``grass``, ``citadel``)
    terrain: str | None = None
    label: str | None = None
    #: who controls it, where the game has control (Colossi)
    controller: str | None = None
    pieces: list[Piece] = []
    #: small tokens on the cell (``crystal``, ``loot:gold``)
    markers: list[str] = []


class Board(msgspec.Struct, frozen=True, omit_defaults=True):
    kind: Literal["grid", "hex", "graph"]
    width: int
    height: int
    cells: list[Cell] = []
    #: adjacency to draw for a graph board (pairs of cell ids)
    edges: list[tuple[str, str]] = []
    #: row and column names for a grid (``a``..``k``, ``11``..``1``)
    columns: list[str] = []
    rows: list[str] = []


class Card(msgspec.Struct, frozen=True, omit_defaults=True):
    """A card in a zone.  A face-down card the viewer cannot see has no ``name``."""

    id: str | None = None
    name: str | None = None
    face_up: bool = True
    #: a class or colour to tint it (``matter``, ``white``)
    colour: str | None = None
    #: short facts (``ON``, ``damage 2``, ``attack 9000``)
    tags: list[str] = []
    #: the card's id in the match's pool, when the viewer may know which card it is (the viewers
    #: show its text, ``Game.card_info``); None for a hidden card or a card with no pool entry
    card: str | None = None
    #: a card whose identity the record leaves unknown (``null`` or ``"?"`` in the log): the card
    #: ids it can still be, each once, in the pool's order (the viewers show them on hover or
    #: select); None when the identity is known or the game does not say
    possible: list[str] | None = None


class Zone(msgspec.Struct, frozen=True, omit_defaults=True):
    """A group of cards: a hand, a deck, a discard pile, a field, the Locus row, a slot."""

    id: str
    label: str
    owner: str | None = None
    cards: list[Card] = []
    #: the number of cards when they are not listed one by one (a deck)
    count: int | None = None


class Counter(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    label: str
    value: int | str
    owner: str | None = None
    max: int | None = None


class PlayerInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    label: str
    #: a display colour name (``blue``, ``red``) for the player's pieces
    colour: str | None = None
    #: e.g. the alliance or seat
    detail: str | None = None


class Scene(msgspec.Struct, frozen=True, omit_defaults=True):
    game: str
    #: whose view: a player id, or None for the judge
    view: str | None
    #: one line: round/turn, phase, whose move
    status: str
    players: list[PlayerInfo] = []
    to_act: list[str] = []
    board: Board | None = None
    zones: list[Zone] = []
    counters: list[Counter] = []
    #: extra lines (a pending attack, the chain, the battle)
    notes: list[str] = []
    #: the result when the match is over
    outcome: str | None = None


def diff(before: Scene, after: Scene) -> list[str]:
    """What changed between two scenes, one short line each (for the viewers' change panel)."""
    out: list[str] = []
    if before.status != after.status:
        out.append(f"status: {after.status}")
    bc = {c.id: c.value for c in before.counters}
    for c in after.counters:
        if bc.get(c.id) != c.value:
            out.append(f"{c.label}{f' ({c.owner})' if c.owner else ''}: {bc.get(c.id, '-')} -> {c.value}")
    bz = {z.id: z for z in before.zones}
    for z in after.zones:
        old = bz.get(z.id)
        if old is None:
            out.append(f"{z.label}: new")
            continue
        n_old = old.count if old.count is not None else len(old.cards)
        n_new = z.count if z.count is not None else len(z.cards)
        names_old = [c.name for c in old.cards if c.name]
        names_new = [c.name for c in z.cards if c.name]
        added = [n for n in names_new if n not in names_old]
        gone = [n for n in names_old if n not in names_new]
        if added or gone or n_old != n_new or [c.tags for c in old.cards] != [c.tags for c in z.cards]:
            parts = []
            if added:
                parts.append("+" + ", +".join(added))
            if gone:
                parts.append("-" + ", -".join(gone))
            if n_old != n_new:
                parts.append(f"{n_old} -> {n_new} cards")
            out.append(f"{z.label}{f' ({z.owner})' if z.owner else ''}: {'; '.join(parts) or 'changed'}")
    if before.board is not None and after.board is not None:
        old_cells = {cell.id: cell for cell in before.board.cells}
        for cell in after.board.cells:
            oc = old_cells.get(cell.id)
            if oc is None or oc.pieces != cell.pieces or oc.markers != cell.markers or oc.level != cell.level \
                    or oc.controller != cell.controller or oc.terrain != cell.terrain:
                what = ", ".join(p.label for p in cell.pieces) or "empty"
                out.append(f"{cell.label or cell.id}: {what}")
    if before.outcome != after.outcome and after.outcome:
        out.append(f"result: {after.outcome}")
    return out
