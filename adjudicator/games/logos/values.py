"""What LOGOS cards are worth in a position: the class order (LG-5.1), a battle card's class and
values after its temporary effects (LG-25), the combo match (LG-3.3, LG-8), and the match's pool.

Pure functions of the pool and the values given; cached per pool object (one per content)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .cards import POOLS, Card, Pool
from .state import State

_BEATS = frozenset({("matter", "energy"), ("energy", "information"), ("information", "matter")})


def beats(x: str, y: str) -> bool:
    """Does class ``x`` beat class ``y`` (LG-5.1)?  Same classes beat nobody."""
    if x == y:
        return False
    if x == "life":
        return True
    if y == "life":
        return False
    if y == "neutral":
        return True
    if x == "neutral":
        return False
    return (x, y) in _BEATS


#: the pool a set-up names (bound once: the engines ask on every step)
pool_of_setup = POOLS.of_setup


def pool_of(s: State) -> Pool:
    """The match's pool (by id, pinned by hash when the set-up pins it, in the sources in
    effect): the fold's working position holds it (``Pos.pool``, looked up once, working.py); a
    frozen position, or a copy a step of the frozen contract writes, names it by its set-up.  The
    hot steps read ``s.pool or pool_of_setup(s.setup)`` of a working position themselves."""
    return (None if s.__class__ is State else s.pool) or pool_of_setup(s.setup)  # type: ignore[attr-defined]


@lru_cache(maxsize=8192)
def card_stats(pool: Pool, card: str, mods: tuple[str, ...]) -> tuple[str, int, int, int]:
    """Class, Attack, Defense, Speed of ``card`` of ``pool`` after the temporary effects ``mods``
    (LG-25); cached per pool object (one per content), never per pool id."""
    c = pool[card]
    k, a, d = c.klass, c.attack, c.defense
    for m in mods:
        if m == "maximize":
            a = d = max(a, d)
        elif m == "minimize":
            a = d = min(a, d)
        elif m == "swap-values":
            a, d = d, a
        elif m == "berserk":
            a, d = 2 * a, 2 * d
        elif m.startswith("color:"):
            k = m[6:]
    return k, a, d, c.speed


def matches(card: Card, counter: tuple[str | None, ...]) -> bool:
    """LG-3.3 / LG-8: every panel of the indicator is grey or equals the counter's panel."""
    for want, have in zip(card.combo, counter):
        if want != "grey" and want != have:
            return False
    return True


@lru_cache(maxsize=64)
def plain_cards(pool: Pool) -> frozenset[str]:
    """The cards of ``pool`` without a combo requirement: playable whatever a counter shows
    (LG-3.3), so a set lookup answers for most cards without asking :func:`playable_card`."""
    return frozenset(cid for cid, c in pool.items() if not c.has_combo)


@lru_cache(maxsize=65536)
def playable_card(pool: Pool, card: str, counter: tuple[str | None, ...]) -> bool:
    c = pool[card]
    return not c.has_combo or matches(c, counter)


def show_panels(panels: tuple[Any, ...]) -> str:
    return "[" + ", ".join("empty" if p is None else str(p) for p in panels) + "]"

