"""Colossus Order's set-up in words: ``MatchStarted``'s notation, the first event every viewer
lists (issue 30).  A person reads the players, then each deck as a deck list in names::

    start alice vs bob | alice: Umbral Throne Colossus; 3 Nightveil Assassin, ..., 18 Black Gem
      | bob: Tidal Spire Colossus; unknown, 50 cards | ruleset=2014 options={deck_validation:off}

- ``start A vs B``: the players in seat order;
- one section a deck (in the set-up's order): ``<player>: <colossus>; <count> <card>, ...``,
  cards by name (a card the pool lacks by its id, quoted where it is not a plain id); a list the
  record leaves unknown (CO-39.1) is ``unknown``, with ``, N cards`` for its size;
- the other fields not at their defaults, as :func:`.position_line.setup_text` writes them.

Written only where it reads back to the very set-up (names holding ``|`` or ``;``, or a name
that reads as another card, fall back to :func:`.position_line.setup_text`'s ids, which
:func:`parse_start` reads too).
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from adjudicator.core.kernel import setup_words as words
from adjudicator.core.kernel.notation import NotationError

from . import position_line as PL

__all__ = ["format_start", "parse_start"]

_SEP = " | "
_UNKNOWN = re.compile(r"unknown(?:, (\d{1,9}) cards)?\Z")
#: the set-up's fields the sections write (the rest: name=value)
_OWN = ("type", "game", "players", "decks")


def format_start(n: Any, setup: Any) -> str:
    """The set-up in words (see the module), else the ids' form where the words would not read
    back exactly."""
    return words.checked(setup, lambda: _words(n, setup), lambda t: parse_start(n, setup.game, t),
                         lambda: PL.setup_text(setup))


def _words(n: Any, setup: Any) -> str:
    out = ["start " + " vs ".join(n.w_player(p) for p in setup.players)]
    for p, deck in setup.decks.items():
        lines = n.deck_lines(setup, p)
        if lines is None:
            raise ValueError("no names")
        colossus = lines[0].split(": ", 1)[1]
        cards = ", ".join(lines[1:len(lines) - (deck.size is not None)])
        if not deck.cards:
            cards = "unknown" + (f", {deck.size} cards" if deck.size is not None else "")
        elif deck.size is not None:
            raise ValueError("a size beside a known list")
        out.append(f"{n.w_player(p)}: {colossus}; {cards}")
    rest = PL.setup_text(msgspec.structs.replace(setup, players=[], decks={})).split(" ")[3:]
    if rest:
        out.append(" ".join(rest))
    return _SEP.join(out)


def parse_start(n: Any, game_id: str, text: str) -> Any:
    """The ``MatchStarted`` a :func:`format_start` text writes (``start players=...``: the ids'
    form, :func:`.position_line.parse_setup`); None for a text of neither form."""
    t = " ".join(text.split()) if '"' not in text else text.strip()
    if t[:6].casefold() != "start " or t[6:].lstrip().startswith("players="):
        return None
    sections = words.split(t[6:].strip(), _SEP)
    players = [n.r_player(x, None) for x in words.split(sections[0], " vs ")]
    doc: dict[str, Any] = {"type": "MatchStarted", "game": game_id, "players": players, "decks": {}}
    rest = sections[1:]
    if rest and re.match(r"[a-z_]+=", rest[-1]):
        allowed = {f.name for f in msgspec.structs.fields(type(_empty(game_id)))} - set(_OWN)
        _pos, named = PL._named(PL._words(rest[-1]), 0, "the set-up", allowed)
        doc.update(named)
        rest = rest[:-1]
    for section in rest:
        who, colon, body = words.cut(section, ": ")  # (outside quotes: a player may be named "x: y")
        colossus, semi, cards = words.cut(body, "; ")
        if not colon or not semi:
            raise NotationError(section[:80], "a deck reads '<player>: <colossus>; <count> <card>, ...'")
        player = n.r_player(who, None)
        lines = [f"colossus: {colossus}"]
        m = _UNKNOWN.match(cards)
        if m is not None:
            lines += [f"size: {m.group(1)}"] if m.group(1) else []
        else:
            lines += words.counted(cards)
        deck = n.read_deck(doc, player, lines)
        if m is not None and m.group(1):
            deck["size"] = int(m.group(1))
        doc["decks"][player] = deck
    return PL._setup_of(doc)


def _empty(game_id: str) -> Any:
    from .events import MatchStarted

    return MatchStarted(game=game_id, players=[], decks={})
