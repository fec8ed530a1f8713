"""Deck lists as a card player writes them, for the browser's new-match form: one card a line,
``3 Grave Rat`` (the count first; ``3x``, a missing count is one copy), names or ids, blank lines
and ``#`` comments skipped, a typo answered with the nearest names.

Game-neutral: the cards are the set-up's pool (``game.context(setup)["card"]``), and the game's
``deck_type`` says the shape a set-up writes a list in: a mapping card -> copies (LOGOS), or a
struct whose text fields name one card of that kind each (Colossus Order's ``colossus``: the
card whose kind, the first of its ``card_info`` facts, is ``colossus``) beside one mapping of the
other cards.

(The terminal recorder's plain-text deck-list reader is being written on another branch; this
module is the web form's until the two are merged into one.)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

import msgspec

from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.notation import normalize
from adjudicator.core.protocol import Game, RefError

#: the most lines a deck list may have, and the most cards (copies counted) it may hold
MAX_LINES = 1000
MAX_COPIES = 100_000
_LINE = re.compile(r"^\s*(?:(\d{1,7})\s*[xX×]?\s+)?(.+?)\s*$")


class DeckListError(AdjudicatorError):
    """A deck list that cannot be read: ``where`` (the box and line) and why."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        super().__init__(f"{where}: {message}")


def pool_cards(game: Game, setup: Any) -> Mapping[str, Any]:
    """The cards a set-up's deck lists are made of (its pool), by id."""
    try:
        known = getattr(game.context(setup).get("card"), "known", None)  # type: ignore[attr-defined]
    except RefError as exc:
        raise DeckListError("pool", exc.message) from None
    if not isinstance(known, Mapping):
        raise DeckListError("decks", f"{game.id} has no deck lists")
    return known


def read(text: str, cards: Mapping[str, Any], where: str) -> dict[str, int]:
    """The list ``text`` as card id -> copies (see the module)."""
    by_name: dict[str, str] = {}
    for cid, card in cards.items():
        by_name[normalize(cid)] = cid
        by_name.setdefault(normalize(getattr(card, "name", cid)), cid)
    out: dict[str, int] = {}
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise DeckListError(where, f"more than {MAX_LINES} lines")
    for n, line in enumerate(lines, start=1):
        line = line.split("#", 1)[0]
        if not line.strip():
            continue
        m = _LINE.match(line)
        assert m is not None  # (the pattern reads any line with a character)
        copies = int(m.group(1) or 1)
        name = normalize(m.group(2))
        cid = by_name.get(name)
        if cid is None:
            near = difflib.get_close_matches(name, list(by_name), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(repr(cards[by_name[x]].name) for x in near)}?" if near else ""
            raise DeckListError(f"{where} line {n}", f"no card {m.group(2).strip()!r} in the pool{hint}")
        if copies < 1:
            raise DeckListError(f"{where} line {n}", "0 copies: leave the card out")
        out[cid] = out.get(cid, 0) + copies
        if sum(out.values()) > MAX_COPIES:
            raise DeckListError(f"{where} line {n}", f"more than {MAX_COPIES} cards in the list")
    if not out:
        raise DeckListError(where, "the list is empty (one card a line: 3 Grave Rat)")
    return out


def kind(card: Any, game: Game) -> str:
    facts = getattr(game.part("cards"), "card_info", lambda c: {})(card).get("facts") or [""]
    return str(facts[0])


def deck_of(game: Game, counts: Mapping[str, int], cards: Mapping[str, Any], where: str) -> Any:
    """``counts`` in the shape the game's set-up writes a deck list in (its ``deck_type``)."""
    shape = game.deck_type
    if shape is None:
        raise DeckListError(where, f"{game.id} has no deck lists")
    fields = getattr(shape, "__struct_fields__", None)
    if fields is None:
        doc: Any = dict(counts)
    else:
        hints = getattr(shape, "__annotations__", {})
        rest = dict(counts)
        doc = {}
        for f in fields:
            if str(hints.get(f, "")) != "str":
                continue
            of_kind = [c for c in rest if kind(cards[c], game) == f]
            if len(of_kind) != 1:
                raise DeckListError(where, f"a list names one {f} card ({len(of_kind)} named)")
            doc[f] = of_kind[0]
            rest[of_kind[0]] -= 1
            if not rest[of_kind[0]]:
                del rest[of_kind[0]]
        mapping = next(f for f in fields if str(hints.get(f, "")).startswith("dict"))
        doc[mapping] = rest
    try:
        return msgspec.to_builtins(msgspec.convert(doc, shape))
    except msgspec.ValidationError as exc:
        raise DeckListError(where, str(exc)) from None


def text_of(counts: Mapping[str, int], cards: Mapping[str, Any]) -> str:
    """A list as the form shows it: ``3 Grave Rat`` a line (a registered list in the picker)."""
    return "\n".join(f"{n} {getattr(cards.get(c), 'name', c)}" for c, n in counts.items())
