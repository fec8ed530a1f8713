"""Every problem of a card-pool file, each with its line and card: ``adjudicator pool check``.

Loading a pool (:meth:`~adjudicator.core.kernel.data.PoolLoader.load_file`) refuses a file at its first
problem.  :func:`check_pool` reports them all: the file's syntax, its header, each card's fields
(unknown, missing, of the wrong type, an unknown effect kind: each field decoded on its own, so
one bad field does not hide the next), duplicate ids, then the game's own checks
(``PoolLoader.problems``) on every card that decoded.  Neither ``tomllib`` nor ``json`` gives
positions of values, so the lines are found in the source text: the ``[[card]]`` headers and
``key =`` lines of a TOML file, and for JSON a scan of the document's objects and arrays
(``json.JSONDecoder.raw_decode`` gives where each value ends).

A game's pool loader is its package's ``cards.POOLS`` (:func:`pool_loader`).
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin

import msgspec
import msgspec.inspect as mi

from adjudicator.core.kernel.data import PoolLoader, is_json, parse_text, read_text
from adjudicator.core.kernel.errors import DataError
from adjudicator.core.kernel.suggest import closest


@dataclass(frozen=True)
class Problem:
    """One problem of a pool file: where (line, card id, field) and what."""

    line: int | None
    card: str | None
    field: str
    message: str

    def render(self, path: str) -> str:
        where = path if self.line is None else f"{path}:{self.line}"
        card = "" if self.card is None else f"card {self.card!r}: "
        return f"{where}: {card}{self.field + ': ' if self.field else ''}{self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "card": self.card, "field": self.field, "message": self.message}


@dataclass
class PoolReport:
    """What ``pool check`` found in one file."""

    path: str
    game: str
    pool: str | None = None
    cards: list[Any] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    #: ids of the cards whose effect is declared by the players, not engine-checked
    declared: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "game": self.game, "pool": self.pool, "cards": len(self.cards),
                "ok": self.ok, "problems": [p.as_dict() for p in self.problems], "declared": self.declared}


def pool_loader(game: Any) -> PoolLoader[Any] | None:
    """The card-pool loader of ``game`` (its package's ``cards.POOLS``), or None: no card pools."""
    part = getattr(game, "part", None)
    module = part("cards") if part is not None else None
    loader = getattr(module, "POOLS", None)
    return loader if isinstance(loader, PoolLoader) else None


def is_declared(card: Any) -> bool:
    """Does ``card`` fall back to declared effects (``modelled = false``)?"""
    return getattr(card, "modelled", True) is False


# -- where things are in the source text ----------------------------------------------------------

class _Lines:
    """Lines of the fields of each card (by position in the ``card`` list) and of the header."""

    def __init__(self, text: str, json_file: bool) -> None:
        self.text = text
        self.json = json_file
        #: where each line ends (a line number is a bisection, not a count over the text)
        self._ends = [m.start() for m in re.finditer("\n", text)]
        self.header: dict[str, int] = {}
        self.cards: list[tuple[int, dict[str, int]]] = []
        try:
            (self._scan_json if json_file else self._scan_toml)()
        except (ValueError, IndexError):  # a layout the scan does not follow: fewer lines, no crash
            pass

    def _id_line(self, ident: object) -> int | None:
        if not isinstance(ident, str):
            return None
        key = r'"id"\s*:' if self.json else r'(?<![\w-])"?id"?\s*='
        m = re.search(key + r"\s*" + re.escape(json.dumps(ident)), self.text)
        return None if m is None else self.line_of(m.start())

    def line_of(self, pos: int) -> int:
        return bisect.bisect_left(self._ends, pos) + 1

    # TOML: [[card]] headers open a card; "key =" lines within it
    _HEADER = re.compile(r"^[ \t]*\[\[[ \t]*card[ \t]*\]\]", re.M)
    _KEY = re.compile(r'^[ \t]*(?:"([^"\n]+)"|([A-Za-z0-9_-]+))[ \t]*(?:\.[^=\n]*)?=', re.M)
    _TABLE = re.compile(r"^[ \t]*\[", re.M)

    def _keys(self, start: int, end: int) -> dict[str, int]:
        out: dict[str, int] = {}
        for m in self._KEY.finditer(self.text, start, end):
            out.setdefault(m.group(1) or m.group(2), self.line_of(m.start()))
        return out

    def _scan_toml(self) -> None:
        heads = [m.start() for m in self._HEADER.finditer(self.text)]
        first_table = self._TABLE.search(self.text)
        self.header = self._keys(0, first_table.start() if first_table else len(self.text))
        for i, start in enumerate(heads):
            end = heads[i + 1] if i + 1 < len(heads) else len(self.text)
            self.cards.append((self.line_of(start), self._keys(start, end)))

    # JSON: the spans of every member of the top object and of each card object
    _WS = re.compile(r"[ \t\n\r]*")

    def _members(self, pos: int) -> list[tuple[Any, int, int, int]]:
        """(key or index, start of key, start of value, end of value) of the object or array at pos."""
        dec = json.JSONDecoder()
        text, out = self.text, []
        close = "}" if text[pos] == "{" else "]"
        pos = self._WS.match(text, pos + 1).end()  # type: ignore[union-attr]
        index = 0
        while text[pos] != close:
            key_at = pos
            if close == "}":
                key, pos = dec.raw_decode(text, pos)
                pos = self._WS.match(text, pos).end()  # type: ignore[union-attr]
                pos = self._WS.match(text, pos + 1).end()  # type: ignore[union-attr]  # the ':'
            else:
                key, index = index, index + 1
            _, end = dec.raw_decode(text, pos)
            out.append((key, key_at, pos, end))
            pos = self._WS.match(text, end).end()  # type: ignore[union-attr]
            if text[pos] == ",":
                pos = self._WS.match(text, pos + 1).end()  # type: ignore[union-attr]
        return out

    def _scan_json(self) -> None:
        top = self._WS.match(self.text).end()  # type: ignore[union-attr]
        for key, key_at, start, _end in self._members(top):
            self.header.setdefault(key, self.line_of(key_at))
            if key == "card" and self.text[start] == "[":
                for _i, item_at, item, _ in self._members(start):
                    keys: dict[str, Any] = {}
                    if self.text[item] == "{":
                        for k, k_at, _s, _e in self._members(item):
                            keys.setdefault(k, self.line_of(k_at))
                    self.cards.append((self.line_of(item_at), keys))

    def card(self, index: int | None, field_path: str = "", ident: object = None) -> int | None:
        """The line of ``field_path``'s top key in card ``index`` (else the card's first line);
        for a layout the scan does not follow (TOML ``card = [{...}]``), the line of the card's
        ``id`` (``ident``)."""
        if index is None:
            return None
        if index >= len(self.cards):
            return self._id_line(ident)
        start, keys = self.cards[index]
        top = re.split(r"[.\[]", field_path, maxsplit=1)[0] if field_path else ""
        return keys.get(top, start)


# -- the check --------------------------------------------------------------------------------------

_AT = re.compile(r" - at `\$(.*)`$")


def _msgspec_problem(exc: msgspec.ValidationError, prefix: str) -> tuple[str, str]:
    """(field path, message) of a msgspec error on the value of field ``prefix``."""
    text = str(exc)
    m = _AT.search(text)
    if not m:
        return prefix, text
    rest = m.group(1)
    path = prefix + rest if not rest.startswith(".") or prefix else rest[1:]
    return path, text[: m.start()]


_SEG = re.compile(r"\[(\d+)\]|\.?([^.\[]+)")


def _allowed(type_: type, field_path: str, data: Any = None) -> list[str]:
    """The values a field of ``type_`` at ``field_path`` may take when it is a choice (a Literal,
    or the tag of a tagged union such as an effect's ``do``); [] otherwise.  ``data`` (the card
    entry) picks the member of a tagged union its tag names: the targets of that effect kind."""
    t: Any = mi.type_info(type_)
    for m in _SEG.finditer(field_path):
        index, key = m.group(1), m.group(2)
        if isinstance(t, mi.UnionType):
            structs = [x for x in t.types if isinstance(x, mi.StructType)]
            if key is not None and structs and all(x.tag_field == key for x in structs):
                return sorted(str(x.tag) for x in structs)
            rest = [x for x in t.types if not isinstance(x, mi.NoneType)]
            tagged = [x for x in structs if isinstance(data, dict) and x.tag_field is not None
                      and data.get(x.tag_field) == x.tag]
            # a field of one member of a union of Structs: the member the entry's tag names, else
            # the first member that has it
            having = [x for x in structs if key is not None and any(f.encode_name == key for f in x.fields)]
            t = rest[0] if len(rest) == 1 else tagged[0] if tagged else having[0] if having else None
        if isinstance(t, (mi.ListType, mi.VarTupleType, mi.SetType)) and index is not None:
            t = t.item_type
        elif isinstance(t, mi.TupleType) and index is not None and int(index) < len(t.item_types):
            t = t.item_types[int(index)]
        elif isinstance(t, mi.DictType):
            t = t.value_type
        elif isinstance(t, mi.StructType) and key is not None:
            t = next((f.type for f in t.fields if f.encode_name == key), None)
        else:
            return []
        data = _step(data, index, key)
    if isinstance(t, mi.UnionType):
        t = next((x for x in t.types if isinstance(x, mi.LiteralType)), None)
    return [str(v) for v in t.values] if isinstance(t, mi.LiteralType) else []


def _step(data: Any, index: str | None, key: str | None) -> Any:
    """``data[index]`` or ``data[key]`` (None when it has none)."""
    if index is not None:
        return data[int(index)] if isinstance(data, list) and int(index) < len(data) else None
    return data.get(key) if isinstance(data, dict) else None


def _given(message: str) -> str | None:
    """The value an ``Invalid enum value 'x'`` message names."""
    m = re.match(r"Invalid enum value '(.*)'$", message)
    return m.group(1) if m else None


def _struct_fields(type_: type) -> dict[str, msgspec.structs.FieldInfo]:
    return {f.encode_name: f for f in msgspec.structs.fields(type_)}


def check_pool(path: str | Path, loader: PoolLoader[Any], game: str) -> PoolReport:
    """Every problem of the pool file ``path`` for ``loader``'s card type (see the module)."""
    report = PoolReport(str(path), game)
    problems = report.problems
    try:
        text = read_text(path)
        data = parse_text(text, path)
    except DataError as exc:
        problems.append(_unreadable(exc))
        return report
    lines = _Lines(text, is_json(path))
    entries = _check_header(report, data, lines, loader, path)

    fields = _struct_fields(loader.card_type)
    index_of: dict[str, int] = {}
    decoded: list[Any] = []
    for i, entry in enumerate(entries):
        ident = entry.get("id") if isinstance(entry, dict) else None
        label = ident if isinstance(ident, str) else f"#{i + 1}"
        card, found = _decode_entry(entry, fields, loader.card_type)
        if isinstance(ident, str) and ident in index_of:
            found.append(("id", f"duplicate id (first used by card #{index_of[ident] + 1})"))
            card = None
        elif isinstance(ident, str):
            index_of[ident] = i
        for field_path, message in found:
            if message.startswith("Invalid"):
                choices = _allowed(loader.card_type, field_path, entry)
                near = closest(_given(message), choices) if choices else None
                message += f" (one of: {', '.join(choices)})" if choices else ""
                message += f" (did you mean {near!r}?)" if near else ""
            problems.append(Problem(lines.card(i, field_path, ident), label, field_path, message))
        if card is not None:
            decoded.append(card)
        elif found and isinstance(entry, dict) and loader.problems is not None:
            problems += _more_problems(entry, found, loader, lines.card, i, label)
    if loader.problems is not None:
        for cid, field_path, message in loader.problems(decoded):
            problems.append(Problem(lines.card(index_of.get(cid), field_path, cid), cid, field_path, message))
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    report.cards = decoded
    report.declared = [c.id for c in decoded if is_declared(c)]
    return report


def _unreadable(exc: DataError) -> Problem:
    """A pool file that does not parse, at the line the parser names."""
    message = str(exc).removeprefix(exc.path + ": ")
    line = None
    head = exc.path.rsplit(":", 1)
    if len(head) == 2 and head[1].isdigit():
        line = int(head[1])
    m = re.search(r"at line (\d+)", message)  # tomllib's "(at line 3, column 7)"
    if m:
        line = int(m.group(1))
    return Problem(line, None, "", message)


def _check_header(report: PoolReport, data: dict[str, Any], lines: _Lines, loader: PoolLoader[Any],
                  path: str | Path) -> list[Any]:
    """The problems of the file's own fields (pool, description); returns the card entries."""
    problems = report.problems
    header = _struct_fields(loader.file_type)
    for key in data:
        if key not in header:
            problems.append(Problem(lines.header.get(key), None, key, "unknown field (a pool file has pool, description, card)"))
    name = data.get("pool")
    if not isinstance(name, str):
        problems.append(Problem(lines.header.get("pool", 1), None, "pool",
                                "missing (the pool's name)" if name is None else "a pool name is a string"))
    else:
        report.pool = name
        stem = Path(path).stem
        if name != stem:  # as PoolLoader.from_document: a pool is found by its file's name
            problems.append(Problem(lines.header.get("pool"), None, "pool",
                                    f"the file names its pool {name!r}; it must match the file name {stem!r}"))
    if not isinstance(data.get("description", ""), str):
        problems.append(Problem(lines.header.get("description"), None, "description", "a description is a string"))
    entries = data.get("card", [])
    if not isinstance(entries, list):
        problems.append(Problem(lines.header.get("card"), None, "card", "the cards are a list ([[card]] tables)"))
        entries = []
    return entries


def _decode_entry(entry: Any, fields: dict[str, msgspec.structs.FieldInfo],
                  card_type: type) -> tuple[Any, list[tuple[str, str]]]:
    """One card entry decoded, or None and (field, message) for each field that does not decode
    (each decoded on its own, so one bad field does not hide the next)."""
    if not isinstance(entry, dict):
        return None, [("", "a card is a table of fields")]
    try:  # the common case: the card decodes at once
        return msgspec.convert(entry, card_type), []
    except msgspec.ValidationError:
        pass
    found: list[tuple[str, str]] = []
    for key, value in entry.items():
        info = fields.get(key)
        if info is None:
            near = closest(key, fields)
            found.append((key, f"unknown field (a card has {', '.join(fields)})"
                               + (f" (did you mean {near!r}?)" if near else "")))
            continue
        try:
            msgspec.convert(value, info.type)
        except msgspec.ValidationError as exc:
            item = get_args(info.type)[0] if get_origin(info.type) is list and isinstance(value, list) else None
            if item is None:
                found.append(_msgspec_problem(exc, key))
                continue
            for i, v in enumerate(value):  # each entry of a list on its own: every bad effect is named
                try:
                    msgspec.convert(v, item)
                except msgspec.ValidationError as each:
                    found.append(_msgspec_problem(each, f"{key}[{i}]"))
    found += [("", f"missing required field {name!r}") for name, info in fields.items()
              if info.required and name not in entry]
    if found:
        return None, found
    try:
        return msgspec.convert(entry, card_type), []
    except msgspec.ValidationError as exc:  # a check of the card as a whole
        return None, [_msgspec_problem(exc, "")]


def _more_problems(entry: dict[str, Any], found: list[tuple[str, str]], loader: PoolLoader[Any],
                   line_of: Any, index: int, label: str) -> list[Problem]:
    """A card that does not decode: the game's own checks on the rest of it (its bad fields
    left out, when the rest decodes), so that a card with several problems reports them all."""
    bad = {re.split(r"[.\[]", f, maxsplit=1)[0] for f, _m in found}
    if "" in bad or "id" in bad:
        return []
    try:
        partial = msgspec.convert({k: v for k, v in entry.items() if k not in bad}, loader.card_type)
    except msgspec.ValidationError:
        return []
    out = []
    for _cid, field_path, message in loader.problems([partial]):  # type: ignore[misc]
        if re.split(r"[.\[]", field_path, maxsplit=1)[0] not in bad:
            out.append(Problem(line_of(index, field_path, entry.get("id")), label, field_path, message))
    return out


def card_info(game: Any, card: Any) -> dict[str, Any]:
    """What ``pool show`` and the viewers tell of a card: ``{"id", "name", "text", "facts"}``
    (the game package's ``cards.card_info(card)``, else the card's own id, name and text)."""
    part = getattr(game, "part", None)
    fn = getattr(part("cards") if part is not None else None, "card_info", None)
    if fn is not None:
        return fn(card)
    return {"id": getattr(card, "id", ""), "name": getattr(card, "name", ""), "text": getattr(card, "text", ""), "facts": []}
