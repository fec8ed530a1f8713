"""LOGOS's set-up in words (issue 30): each deck as a deck list in card names, in the text form's
deck sections (``[deck "ann"]``, ``3 Iron Golem``) and in ``MatchStarted``'s notation, the first
event every viewer lists::

    start ann vs ben | ann: 3 Storm Coil, 3 Dynamo Knight, 2 Spark Wisp | ben: ? | ruleset=demo opt.picks=open

- ``start A vs B``: the players in seat order (a name the grammar could misread in quotes);
- one section a deck, in the set-up's order: ``<player>: <count> <card>, ...``, a card by its
  name where the name reads back as that card alone, else by its id (quoted where it is not a
  plain id); ``?`` a list the record leaves unknown (a seat's record of the opponent: ``{}``);
- the other fields not at their defaults, as :func:`.posline.setup_fields` writes them.

Written only where it reads back to the very set-up, else the ids' form (``start ann,ben
list.ann=storm-coil*3,... ruleset=demo``), which :func:`parse_start` reads too.  A card is read
by name or id, case and spacing aside; one the pool lacks is a
:class:`~adjudicator.core.kernel.notation.NotationError` with the closest names.
"""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from typing import Any

import msgspec

from adjudicator.core.kernel import setup_words as words
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.notation import NotationError
from adjudicator.core.kernel.suggest import closest

from . import events as E
from . import posline

__all__ = ["deck_lines", "format_start", "parse_start", "read_deck"]

_SEP = " | "
_COUNTED = re.compile(r"(\d{1,9})\s*[xX×]?\s+(.+)\Z", re.S)
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _pool(setup: Any) -> Any:
    """The pool a set-up (or the set-up's fields read so far, a dict) names; None where it cannot
    be loaded (the deck stays in ids)."""
    from .cards import POOLS

    get = setup.get if isinstance(setup, dict) else lambda k, d=None: getattr(setup, k, d)
    try:
        return POOLS.of_setup(SimpleNamespace(pool=get("pool") or "sample", pool_sha256=get("pool_sha256")))
    except Exception:  # noqa: BLE001 - no names: the deck stays as written in JSON
        return None


def _index(n: Any, pool: Any) -> tuple[dict[str, list[str]], dict[str, str]]:
    return n.pool_index(pool)


def _card(index: dict[str, list[str]], names: dict[str, str], cid: str) -> str:
    """A card of a deck list: its name where the name reads back as the card alone, else its id
    (quoted where the id would not read back bare)."""
    name = names.get(cid)
    if cid == HIDDEN:
        return "?"
    if name and name == " ".join(name.split()) and name.isprintable() and name[0] not in '"?' \
            and not _bad(name) and index.get(_fold(name)) == [cid]:
        return name
    if _PLAIN.match(cid) and index.get(cid.casefold(), [cid]) == [cid] and not _bad(cid):
        return cid
    return json.dumps(cid, ensure_ascii=not cid.isprintable())


def _bad(text: str) -> bool:
    """Whether ``text`` holds a mark the set-up's words cut at."""
    return any(m in text for m in (",", "|", ";")) or text.startswith(("[", "#", "%", "(", "{"))


def read_card(index: dict[str, list[str]], names: dict[str, str], text: str) -> str:
    """The card id ``text`` names (a name or an id, case and spacing aside; ``"id"`` verbatim)."""
    t = text.strip()
    if t == "?":
        return HIDDEN
    q = _unquote(t)
    if q is not None:
        return q
    hits = index.get(_fold(t), [])
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise NotationError(text, f"{t!r} names {len(hits)} cards; write one's id in quotes", hits)
    near = closest(_fold(t), sorted({_fold(v) for v in names.values()}))
    cands = sorted(v for v in names.values() if _fold(v) == near) if near else []
    raise NotationError(text, f"no card {t!r} in this pool" + ("; did you mean" if cands else ""), cands)


def deck_lines(n: Any, setup: Any, player: str) -> list[str] | None:
    """``player``'s deck as a deck list, ``<count> <card>`` a line in the deck's order (None
    where the pool cannot be loaded)."""
    deck = setup.decks.get(player)
    pool = _pool(setup)
    if deck is None or pool is None:
        return None
    index, names = _index(n, pool)
    return [f"{k} {_card(index, names, cid)}" for cid, k in deck.items()]


def read_deck(n: Any, setup: Any, player: str, lines: list[str]) -> dict[str, int]:
    """The deck (card id -> copies) a :func:`deck_lines` list writes (``3 Iron Golem``, ``3x
    iron-golem``); :class:`NotationError` naming the line (``.line``) and the closest names."""
    pool = _pool(setup)
    index, names = _index(n, pool) if pool is not None else ({}, {})
    deck: dict[str, int] = {}
    for i, raw in enumerate(lines):
        try:
            m = _COUNTED.match(" ".join(raw.split()))
            if m is None:
                raise NotationError(raw, "a deck list's line is '<count> <card>' (3 Iron Golem)")
            cid = read_card(index, names, m.group(2)) if pool is not None else _id(m.group(2))
            deck[cid] = deck.get(cid, 0) + int(m.group(1))
        except NotationError as x:
            err = NotationError(raw, f"{player}'s deck list: {x.reason}", x.candidates)
            err.line = i  # type: ignore[attr-defined]  # (the reader names the file's line)
            raise err from None
    return deck


def _id(text: str) -> str:
    t = text.strip()
    q = _unquote(t)
    if q is not None:
        return q
    if _PLAIN.match(t):
        return t
    raise NotationError(text, f"{t!r}: the pool cannot be loaded, so a card is its id")


# -- MatchStarted -----------------------------------------------------------------------------------

def format_start(n: Any, setup: E.MatchStarted) -> str:
    """The set-up in words (see the module), else the ids' form where the words would not read
    back exactly."""
    return words.checked(setup, lambda: _words(n, setup), lambda t: parse_start(n, t),
                         lambda: "start " + posline.setup_text(setup))


def _words(n: Any, setup: E.MatchStarted) -> str:
    tok = n.word  # (the notation's token: a player the grammar could misread is quoted)
    out = ["start " + " vs ".join(tok(p) for p in setup.players)]
    for p, deck in setup.decks.items():
        lines = deck_lines(n, setup, p)
        if lines is None:
            raise ValueError("no names")
        out.append(f"{tok(p)}: {', '.join(lines) if deck else '?'}")
    rest = posline.setup_fields(msgspec.structs.replace(setup, decks={}))
    if rest:
        out.append(" ".join(rest))
    return _SEP.join(out)


def parse_start(n: Any, text: str) -> E.MatchStarted:
    """The ``MatchStarted`` a :func:`format_start` text writes: the words, or the ids' form."""
    t = text.strip()
    body = t[6:].strip() if t[:6].casefold() == "start " else t
    if words.cut(body, " vs ")[1] == "" and words.cut(body, _SEP)[1] == "":
        return posline.parse_setup(body, n.game)  # the ids' form (one player: both read alike)
    sections = words.split(body, _SEP)
    players = [_player(x) for x in words.split(sections[0], " vs ")]
    doc: dict[str, Any] = {"type": "MatchStarted", "game": n.game.id, "players": players, "decks": {}}
    rest = sections[1:]
    if rest and re.match(r"[a-z_][a-z_.0-9%]*=", rest[-1]):
        fields = posline._fields(rest[-1], rest[-1].split())
        named = posline.setup_doc(fields, players)
        if fields:
            raise NotationError(rest[-1][:80], f"unknown field {next(iter(fields))!r} of a set-up")
        named.pop("decks", None)
        doc.update({k: v for k, v in named.items() if k not in ("type", "game", "players")})
        rest = rest[:-1]
    for section in rest:
        who, colon, cards = words.cut(section, ": ")
        if not colon:
            raise NotationError(section[:80], "a deck reads '<player>: <count> <card>, ...' ('?' unknown)")
        player = _player(who)
        if player in doc["decks"]:
            raise NotationError(section[:80], f"{player!r}'s deck is given twice")
        doc["decks"][player] = {} if cards.strip() == "?" else read_deck(n, doc, player, words.counted(cards))
    try:
        return msgspec.convert(doc, E.MatchStarted)
    except msgspec.ValidationError as exc:
        raise NotationError(text[:80], f"the set-up: {exc}") from None


def _unquote(t: str) -> str | None:
    """The text a quoted ``t`` holds (JSON escapes), None where ``t`` is not one quoted text."""
    if len(t) >= 2 and _QUOTED.fullmatch(t):
        try:
            return str(json.loads(t))
        except ValueError:
            raise NotationError(t[:80], f"{t[:40]!r}: a bad escape in a quoted text") from None
    return None


def _player(text: str) -> str:
    t = text.strip()
    q = _unquote(t)
    if q is not None:
        return q
    if not t or any(c.isspace() for c in t):
        raise NotationError(text, f"{t!r} is no player (a name with blanks is written in quotes)")
    return t
