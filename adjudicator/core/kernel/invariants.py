"""Invariants of positions, declared per game and checked by one walker.

A game declares which fields of its position name players and which name cards (by field name,
wherever they occur: ``State.turn_player``, ``Task.player``, ``Player.hand``), and the bounds of
its numbers; :func:`scan` walks the whole position (msgspec Structs, tuples, dicts) and reports
every value out of place as ``(field path, message)``.  Games add their structural invariants
(one entry per seat, slots that exist, cards conserved) in their own ``invariants`` method, with
:class:`Broken` to collect them.

Used when a position document is loaded (a position a user wrote must never reach an index error
in the rules) and after every event of the conformance playouts.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

#: the default bounds of any whole number in a position (counts, turns, damage, modifiers)
DEFAULT_INT = (-1_000_000, 1_000_000)
#: the longest tuple or list in a position (cards in a zone, tasks, pieces)
MAX_ITEMS = 200_000
#: stop after this many findings (a document full of errors needs only the first few)
MAX_FINDINGS = 20


@dataclass(frozen=True)
class Spec:
    """Which fields of a game's position name players or cards, and the bounds of its numbers."""

    #: field names whose values (a string, or a tuple of them; None allowed) are player ids
    players: frozenset[str] = frozenset()
    #: other values such a field may hold besides a player id (LOGOS's ``shared`` counter)
    player_extras: frozenset[str] = frozenset()
    #: field names whose values are card ids of the match's pool
    cards: frozenset[str] = frozenset()
    #: bounds per field name (inclusive); other whole numbers are within DEFAULT_INT
    ints: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: other kinds of reference: field name -> the name of a namespace given to :func:`scan`
    #: (``{"tile": "tiles", "tile_deck": "tiles"}``)
    refs: Mapping[str, str] = field(default_factory=dict)
    #: fields not walked (checked elsewhere, like the set-up, or free text)
    skip: frozenset[str] = frozenset({"setup"})


class Broken:
    """Collects broken invariants: ``(field path, message)``."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, path: str, message: str) -> None:
        if len(self.items) < MAX_FINDINGS:
            self.items.append((path, message))

    def check(self, ok: bool, path: str, message: str) -> bool:
        if not ok:
            self.add(path, message)
        return ok

    def within(self, value: Any, path: str, lo: int, hi: int) -> bool:
        ok = isinstance(value, int) and lo <= value <= hi
        return self.check(ok, path, f"{value!r} is outside {lo}..{hi}")


def scan(state: Any, spec: Spec, players: Container[str], cards: Container[str] | None,
         broken: Broken | None = None, **namespaces: Container[str]) -> Broken:
    """Walk ``state`` and report every player, card or other reference (``namespaces``, named by
    ``spec.refs``) that does not exist and every number out of bounds."""
    out = broken if broken is not None else Broken()
    _walk(state, "", None, spec, players, cards, out, namespaces)
    return out


def _walk(v: Any, path: str, name: str | None, spec: Spec, players: Container[str],
          cards: Container[str] | None, out: Broken, ns: Mapping[str, Container[str]]) -> None:
    if len(out.items) >= MAX_FINDINGS:
        return
    if isinstance(v, msgspec.Struct):
        for f in v.__struct_fields__:
            if f in spec.skip:
                continue
            _walk(getattr(v, f), f"{path}.{f}" if path else f, f, spec, players, cards, out, ns)
        return
    if isinstance(v, (tuple, list)):
        if len(v) > MAX_ITEMS:
            out.add(path, f"{len(v)} items; at most {MAX_ITEMS}")
            return
        for i, x in enumerate(v):
            _walk(x, f"{path}[{i}]", name, spec, players, cards, out, ns)
        return
    if isinstance(v, dict):
        if len(v) > MAX_ITEMS:
            out.add(path, f"{len(v)} entries; at most {MAX_ITEMS}")
            return
        for k, x in v.items():
            _walk(x, f"{path}.{k}", name, spec, players, cards, out, ns)
        return
    if v is None or isinstance(v, bool):
        return
    if isinstance(v, int):
        lo, hi = spec.ints.get(name or "", DEFAULT_INT)
        out.within(v, path, lo, hi)
        return
    if isinstance(v, str) and name is not None:
        if name in spec.players:
            out.check(v in players or v in spec.player_extras, path, f"{v!r} is not a player of this match")
        elif name in spec.cards and cards is not None:
            out.check(v in cards, path, f"{v!r} is not a card of this match's pool")
        elif name in spec.refs and spec.refs[name] in ns:
            kind = spec.refs[name]
            out.check(v in ns[kind], path, f"{v!r} is not one of the {kind}")


def seated_scan(state: Any, spec: Spec, seated: list[str], expected: list[str], pool: Callable[[], Any]) -> Broken:
    """The usual start of a card game's invariants: the players seated (``seated``) are the
    set-up's (``expected``, in its order), then :func:`scan` with the match's card pool (a pool
    that cannot be loaded is left to the set-up's own check)."""
    b = Broken()
    if not b.check(seated == expected, "players", f"the players of the set-up ({', '.join(expected)}) in its order"):
        return b
    try:
        cards = pool()
    except Exception:  # noqa: BLE001 - the set-up's own check names the pool
        cards = None
    return scan(state, spec, set(expected), cards, b)
