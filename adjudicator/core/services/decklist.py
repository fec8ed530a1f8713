"""Set-ups without JSON: a card player's deck list in plain text, and set-up files in TOML or
JSON, read with the bounds of every other file (``adjudicator record --deck``, ``--setup @FILE``).

A deck list is one card a line, as players write them::

    # Piadin knights
    3 Heroic Knight
    2x spurring-griffin
    Ash                        (no count: one copy)
    colossus: Colossus of the Dawn Bastion

A card is named by its name or its id, case and spacing aside; a typo is refused naming the file,
the line and the closest card (``did you mean 'Heroic Knight'?``).  The list becomes the game's
own deck value (``game.deck_type``, the shape ``MatchStarted.decks`` writes) without naming a
game: a ``dict[str, int]`` type is the counts; a Struct's ``str`` field (Colossus Order's
``colossus``) is given by a ``field: card`` line, or is the one listed card whose ``type`` is the
field's name; its ``dict[str, int]`` field takes the counted cards.  The card names are the
game's own (:meth:`card_names`, read from the pool through the game's ``setup_context``).
"""

from __future__ import annotations

import os
import re
import stat
from typing import Any

import msgspec

from adjudicator.core.kernel.documents import parse_text, read_bytes
from adjudicator.core.kernel.errors import DataError, LogError
from adjudicator.core.kernel.limits import MAX_COPIES, MAX_DATA_BYTES, MAX_DECK, count
from adjudicator.core.kernel.suggest import closest

__all__ = ["read_bounded", "read_setup", "parse_setup", "card_names", "pool_cards", "parse_deck_list", "read_deck_list",
           "deck_list_text", "MAX_DECK_LINES"]

#: the most lines a deck list may hold (comments and blank lines included)
MAX_DECK_LINES = 10_000
#: the longest line of a deck list (characters)
MAX_DECK_LINE = 400

_COUNTED = re.compile(r"^(?:(\d{1,9})\s*[xX×]?\s+(.+?)|(.+?)\s+[xX×]\s*(\d{1,9}))$")


def read_bounded(path: str, what: str, limit: int = MAX_DATA_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` (``what``: the option that named it, for the
    error), at most ``limit`` bytes: a device (``/dev/zero``), a FIFO or a directory is refused
    before it is opened, so nothing is read from it and nothing blocks."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise DataError(path, f"{what}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise DataError(path, f"{what}: not a regular file")
    if st.st_size > limit:
        raise DataError(path, f"{what}: larger than {limit} bytes")
    raw = read_bytes(path, limit)  # (bounded again: the file may grow after the stat)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(path, f"{what}: not UTF-8 text (byte {exc.start})") from None


#: the text form's header (``[game "logos"]``: a tag holds a blank, a TOML table's name never does)
_HEADER = re.compile(r"\A\ufeff?\s*(?:#[^\n]*\n\s*)*\[[A-Za-z][A-Za-z0-9_-]*[ \t]+\S")


def parse_setup(text: str, source: str) -> dict[str, Any]:
    """A set-up document: the header of a match's text form (tags and deck sections in names,
    docs/notation.md) when it starts with a tag, JSON when it starts with ``{`` or ``source`` ends
    ``.json``, else TOML; bounded in depth and pieces as every data file
    (:func:`adjudicator.core.kernel.documents.parse_text`)."""
    if _HEADER.match(text):
        return _header_setup(text, source)
    json_ = text.lstrip().startswith("{") or source.lower().endswith(".json")
    return parse_text(text, source + (".json" if json_ and not source.lower().endswith(".json") else ""))


def _header_setup(text: str, source: str) -> dict[str, Any]:
    """The set-up a text form's header writes (its ``MatchStarted`` fields); :class:`LogError`
    naming the line that does not read (a card's typo with the closest names), or an event line."""
    from adjudicator.core.kernel.log import parse_log

    log = parse_log(text.encode(), source)  # (read as a log's first line is: a field the game refuses named by its line)
    if len(log.events) > 1:
        raise LogError(source, log.events[1][0], "a set-up holds the header only (tags and deck sections): no event lines",
                       "event")
    doc = msgspec.to_builtins(log.events[0][1])
    doc.pop("type", None)
    return doc


def read_setup(path: str) -> dict[str, Any]:
    """A set-up file (TOML, or JSON by extension or first character)."""
    return parse_setup(read_bounded(path, "--setup"), path)


def pool_cards(game: Any, pool: str | None = None) -> dict[str, Any]:
    """card id -> card of the pool ``pool`` (None: the game's sample set-up's), asked of the game
    through its reference context (the ``card`` names of ``setup_context``)."""
    from adjudicator.core.kernel.protocol import RefError

    base = game.sample_setup(0)
    fields = type(base).__struct_fields__
    if pool is not None and "pool" in fields:
        base = msgspec.structs.replace(base, pool=pool, **({"pool_sha256": None} if "pool_sha256" in fields else {}))
    try:
        known = getattr(game.setup_context(base).get("card"), "known", None)
    except RefError as exc:
        raise DataError(str(pool), exc.message) from None
    if not isinstance(known, dict):
        return {}
    return {cid: c for cid, c in sorted(known.items()) if c is not None}


def card_names(game: Any, pool: str | None = None) -> dict[str, str]:
    """card id -> name of the pool ``pool`` (see :func:`pool_cards`)."""
    return {cid: getattr(c, "name", cid) for cid, c in pool_cards(game, pool).items()}


def _fold(text: str) -> str:
    return " ".join(text.replace("-", " ").replace("_", " ").split()).casefold()


class _Cards:
    """Card ids and names of one pool, looked up as a person types them."""

    def __init__(self, names: dict[str, str], cards: dict[str, Any]) -> None:
        self.names = names
        self.cards = cards
        self.by: dict[str, str] = {}
        for cid, name in names.items():
            self.by.setdefault(_fold(cid), cid)
        for cid, name in names.items():
            self.by.setdefault(_fold(name), cid)

    def find(self, text: str, path: str, line: int, field: str) -> str:
        cid = self.by.get(_fold(text))
        if cid is not None:
            return cid
        near = closest(text, list(self.names.values()) + list(self.names))
        hint = f": did you mean {near!r}?" if near else ""
        raise LogError(path, line, f"no card {text!r} in this pool{hint}", field)


def _struct_fields(tp: Any) -> tuple[list[str], str | None]:
    """A deck Struct's card-name fields (``str``) and its counts field (``dict[str, int]``)."""
    names, counts = [], None
    for f in msgspec.structs.fields(tp):
        if f.type is str:
            names.append(f.name)
        elif getattr(f.type, "__origin__", None) is dict and counts is None:
            counts = f.name
    return names, counts


def parse_deck_list(text: str, game: Any, pool: str | None = None, path: str = "<deck>") -> Any:
    """The deck list ``text`` (see the module) as ``game.deck_type`` plain data (what
    ``MatchStarted.decks`` holds for one player); :class:`LogError` naming ``path``, the line and
    what is wrong."""
    tp = getattr(game, "deck_type", None)
    if tp is None:
        raise LogError(path, None, f"{game.id} has no deck lists")
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        named_fields, counts_field = _struct_fields(tp)
    else:
        named_fields, counts_field = [], None
    known = pool_cards(game, pool)
    names = {cid: getattr(c, "name", cid) for cid, c in known.items()}
    cards = _Cards(names, known)
    lines = text.splitlines()
    if len(lines) > MAX_DECK_LINES:
        raise LogError(path, MAX_DECK_LINES + 1, f"a deck list holds at most {MAX_DECK_LINES} lines")
    counts: dict[str, int] = {}
    first_line: dict[str, int] = {}
    named: dict[str, str] = {}
    total = 0
    for n, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if len(line) > MAX_DECK_LINE:
            raise LogError(path, n, f"a line of a deck list is at most {MAX_DECK_LINE} characters")
        key, colon, rest = line.partition(":")
        if colon and _fold(key) in {_fold(f) for f in named_fields}:
            fld = next(f for f in named_fields if _fold(f) == _fold(key))
            named[fld] = cards.find(rest.strip(), path, n, fld)
            continue
        m = _COUNTED.match(line)
        if m:
            copies, name = (int(m.group(1)), m.group(2)) if m.group(1) else (int(m.group(4)), m.group(3))
        else:
            copies, name = 1, line
        why = count(copies, "copies", MAX_COPIES)
        if why is not None:
            raise LogError(path, n, why, "copies")
        if copies == 0:
            continue
        cid = cards.find(name.strip(), path, n, "card")
        counts[cid] = counts.get(cid, 0) + copies
        first_line.setdefault(cid, n)
        total += copies
        if total > MAX_DECK:
            raise LogError(path, n, f"a deck list holds at most {MAX_DECK} cards")
    if counts_field is None and not named_fields:
        return dict(sorted(counts.items()))
    _typed_fields(named_fields, named, counts, first_line, cards, names, path)
    doc: dict[str, Any] = dict(named)
    if counts_field is not None:
        doc[counts_field] = dict(sorted(counts.items()))
    try:
        return msgspec.to_builtins(msgspec.convert(doc, tp))
    except msgspec.ValidationError as exc:
        raise LogError(path, None, f"not a {game.id} deck list: {exc}") from None


def _typed_fields(named_fields: list[str], named: dict[str, str], counts: dict[str, int], first_line: dict[str, int],
                  cards: Any, names: dict[str, str], path: str) -> None:
    """Each named field the list left out (a ``field: <card>`` line): the one listed card whose type
    is the field's name (Colossus Order's colossus), taken out of ``counts`` into ``named``."""
    for fld in named_fields:
        if fld in named:
            continue
        typed = [cid for cid in counts if str(getattr(cards.cards.get(cid), "type", "")).casefold() == fld.casefold()]
        if len(typed) != 1:
            why = "none" if not typed else f"{len(typed)} ({', '.join(names.get(c, c) for c in typed)})"
            raise LogError(path, None, f"which card is the {fld}? the list names {why}; add a line '{fld}: <card>'", fld)
        cid = typed[0]
        if counts[cid] != 1:
            raise LogError(path, first_line[cid], f"{names.get(cid, cid)} is the {fld}: one copy", fld)
        del counts[cid]
        named[fld] = cid


def read_deck_list(path: str, game: Any, pool: str | None = None) -> Any:
    """The deck list file ``path`` (plain text, see the module; a ``.toml`` or ``.json`` file is
    read as the game's deck value itself, as a tournament registers it)."""
    text = read_bounded(path, "--deck")
    if path.lower().endswith((".toml", ".json")):
        doc = parse_setup(text, path)
        try:
            return msgspec.to_builtins(msgspec.convert(doc, game.deck_type))
        except (msgspec.ValidationError, TypeError) as exc:
            raise LogError(path, None, f"not a {game.id} deck list: {exc}") from None
    return parse_deck_list(text, game, pool, path)


def deck_list_text(game: Any, deck: Any, pool: str | None = None) -> str:
    """One player's deck value (``game.deck_type`` data) as a plain-text deck list: what
    ``record --sample-setup`` prints, which :func:`parse_deck_list` reads back."""
    names = card_names(game, pool)
    out = []
    if isinstance(deck, dict) and all(isinstance(v, int) for v in deck.values()):
        counts, named = deck, {}
    else:
        tp = game.deck_type
        named_fields, counts_field = _struct_fields(tp)
        named = {f: deck[f] for f in named_fields if f in deck}
        counts = deck.get(counts_field, {}) if counts_field else {}
    for f, cid in named.items():
        out.append(f"{f}: {names.get(cid, cid)}")
    for cid, n in counts.items():
        out.append(f"{n} {names.get(cid, cid)}")
    return "\n".join(out) + "\n"
