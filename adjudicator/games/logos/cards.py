"""LOGOS cards as data: the card model, the effect vocabulary, and pool loading.

A card pool is a TOML file in ``data/`` (``[[card]]`` tables) decoded with msgspec into
:class:`Card` values.  A malformed pool raises :class:`DataError` naming the file and the card
(by id, or by position when the id itself is missing) and the field at fault.

A card has a class (its colour), Attack, Defense and Speed, a three-panel combo indicator (panel
0 is the leftmost, matched against the most recent colour of the counter; ``grey`` matches
anything) and two effect fields: ``left`` is aimed at the opponent, ``right`` at the card's owner.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import msgspec

from adjudicator.core.kernel.data import Pool, PoolLoader  # noqa: F401 (Pool: this game's pools)

DATA = Path(__file__).parent / "data"

ClassName = Literal["matter", "energy", "information", "neutral", "life"]
CLASSES: tuple[str, ...] = ("matter", "energy", "information", "neutral", "life")
#: the colour each class is printed in (the combo counter shows colours; the engine names classes)
COLOUR_OF: dict[str, str] = {"matter": "red", "energy": "green", "information": "blue", "neutral": "white", "life": "purple"}
Panel = Literal["matter", "energy", "information", "neutral", "life", "grey"]

PERMANENT: tuple[str, ...] = (
    "add-card-slot", "remove-card-slot", "regeneration", "shuffle-hand", "destroy-combo", "destroy-backup", "neutralize",
)
#: looks a pool may give a card (LG-43: the card's owner sees the target's cards; nothing moves)
LOOKS: tuple[str, ...] = ("look-slots", "look-backup")
#: the look at one's own deck top (LG-44): its owner sees the top ``count`` cards (``CardsLooked``)
#: and, with ``reorder``, puts them back in an order it chooses (``CardsReordered``)
DECK_LOOK = "look-deck"
#: the most cards one ``look-deck`` shows (LG-44: a bound on what a pool controls; the cards seen
#: and the orders they may go back in are listed for the recorder and a playout: the distinct cards
#: of a deck to the third power at most, 3! orders)
MAX_LOOK = 3
TEMPORARY: tuple[str, ...] = (
    "maximize", "minimize", "swap-values", "double-combo", "mimmick", "berserk", "color-change",
)
EffectName = Literal[
    "add-card-slot", "remove-card-slot", "regeneration", "shuffle-hand", "destroy-combo", "destroy-backup", "neutralize",
    "maximize", "minimize", "swap-values", "double-combo", "mimmick", "berserk", "color-change",
    "look-slots", "look-backup", "look-deck",
]
#: effects that act on the targeted player's battle card (nothing to act on without one)
CARD_EFFECTS: frozenset[str] = frozenset({"maximize", "minimize", "swap-values", "berserk", "color-change"})
#: the largest Attack, Defense or Speed a card may print (LG-32: the seed sets no maximum; a bound
#: keeps every value a pool controls finite; the seed's cards print tens of thousands)
MAX_STAT = 1_000_000_000
#: the lowest Speed that lets a card without a combo requirement go to the Backup Slot (the seed's
#: "higher than 99"; LG-18): Speed 99 is an ordinary Speed, Speed 100 the first Backup Speed
BACKUP_SPEED = 100


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One effect field.  ``color-change`` needs ``from`` and ``to`` (two different classes);
    ``look-deck`` a ``count`` (1 to :data:`MAX_LOOK`) and says whether its owner may ``reorder``."""

    do: EffectName
    src: ClassName | None = msgspec.field(default=None, name="from")
    to: ClassName | None = None
    count: int | None = None
    reorder: bool = False

    def label(self) -> str:
        if self.do == DECK_LOOK:
            return f"look-deck {self.count}{', reorder' if self.reorder else ''}"
        return f"color-change {self.src}->{self.to}" if self.do == "color-change" else self.do


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    klass: ClassName = msgspec.field(name="class")
    attack: int
    defense: int
    speed: int
    #: panel 0 = the latest colour pushed (one round ago), panel 2 = three rounds ago
    combo: tuple[Panel, Panel, Panel] = ("grey", "grey", "grey")
    left: Effect | None = None
    right: Effect | None = None
    rarity: Literal["common", "uncommon", "rare", "legendary"] = "common"
    text: str = ""

    @property
    def has_combo(self) -> bool:
        """Does the card have a combo requirement (a panel that is not grey)?"""
        return self.combo != ("grey", "grey", "grey")

    @property
    def backup_eligible(self) -> bool:
        """Speed above 99 and no combo requirement (LG-4.1, LG-18)."""
        return self.speed >= BACKUP_SPEED and not self.has_combo

    def field(self, which: str) -> Effect | None:
        return self.left if which == "left" else self.right


_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


def pool_problems(cards: list[Card]) -> Iterator[tuple[str, str, str]]:
    """Every problem of the decoded ``cards`` beyond their types: ``(card id, field, message)``
    (loading refuses the first; ``adjudicator pool check`` reports them all)."""
    for c in cards:
        if not _ID.fullmatch(c.id):
            yield c.id, "id", "a card id is a lowercase slug (letters, digits, '-')"
        for n in ("attack", "defense", "speed"):
            if getattr(c, n) < 0:
                yield c.id, n, "must not be negative"
            if getattr(c, n) > MAX_STAT:
                yield c.id, n, f"{getattr(c, n)} is over the limit of {MAX_STAT:,} (LG-32)"
        for which in ("left", "right"):
            fx = c.field(which)
            if fx is None:
                continue
            if fx.do == "color-change":
                if fx.src is None or fx.to is None:
                    yield c.id, which, "color-change needs both 'from' and 'to'"
                elif fx.src == fx.to:
                    yield c.id, which, f"color-change from {fx.src!r} to itself does nothing"
            elif fx.src is not None or fx.to is not None:
                yield c.id, which, "only color-change takes 'from' and 'to'"
            if fx.do == DECK_LOOK:
                if fx.count is None or not 1 <= fx.count <= MAX_LOOK:
                    yield c.id, which, f"look-deck needs a count from 1 to {MAX_LOOK} (LG-44), got {fx.count}"
                if which != "right":
                    yield c.id, which, "look-deck looks at its owner's own deck: it goes in the right field (LG-44)"
            elif fx.count is not None or fx.reorder:
                yield c.id, which, "only look-deck takes 'count' and 'reorder'"


POOLS: PoolLoader[Card] = PoolLoader(DATA, Card, problems=pool_problems)
#: a pool file by path; a pool shipped in ``data/`` by name (``sample``: the authored sample pool)
load_pool_file = POOLS.load_file
load_pool = POOLS.load


def card_info(card: Card) -> dict[str, object]:
    """What a viewer or ``pool show`` tells of ``card``: id, name, text and short facts."""
    facts = [card.klass, f"attack {card.attack}", f"defense {card.defense}", f"speed {card.speed}"]
    if card.has_combo:
        facts.append("combo " + "/".join(card.combo))
    facts += [f"{which} {fx.label()}" for which in ("left", "right") if (fx := card.field(which)) is not None]
    return {"id": card.id, "name": card.name, "text": card.text, "facts": facts}
