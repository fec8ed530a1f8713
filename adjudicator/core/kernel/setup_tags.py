"""The set-up's header tags in words (issue 30): the text form's ``[name value ...]`` lines
(:mod:`.textlog`) that a scorekeeper types without JSON.

A field of ``MatchStarted`` that holds a list or a table is written one tag an entry, the tag
named after one of them (the field's name without its ``s``), each value a JSON scalar (a text in
quotes: names may hold spaces, commas and quotes, escaped as JSON)::

    [player "ann"]                  players: one tag a player, in seat order
    [option "picks" "open"]         options: the option's name, then its value
    [seat "tuatha" "ann" "NW"]      seats: an entry's fields in their declared order

Which fields these are is read off the game's ``MatchStarted`` type (a list or a dict field whose
name ends in ``s``), never off the game's name.  Any other field is one tag whose value is JSON
(``[ruleset "demo"]``, ``[seed 21]``); so is a list or table the words cannot write (an entry
with a nested value, an empty list), and the ``[name {json}]`` tags of the first text form still
read: ``[players ["ann","ben"]]``, ``[options {"picks":"open"}]``.  ``deck`` is the text form's
deck section (:mod:`.textlog`), never a field's entry.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from .events import ENVELOPE_FIELDS
from .limits import depth_error
from .suggest import hint

__all__ = ["json_tags", "line_of", "read_values", "tag_fields", "tag_value", "word_tags"]

#: tags the text form gives a meaning of its own (a deck section)
RESERVED = frozenset({"deck"})
#: the most values one tag holds (a table's entry: its name and value; a seat's fields)
MAX_VALUES = 64
_META_KEY = re.compile(r"[a-z][A-Za-z0-9_-]*")
_JSON = json.JSONDecoder()

#: ``fail(line, why, part)``: the reader's error naming the text's file and line
Fail = Callable[[int, str, str], Exception]


def read_values(raw: str) -> list[Any]:
    """The values of a tag: one JSON value, or several separated by blanks (``"picks" "open"``);
    ValueError saying why not."""
    why = depth_error(raw.encode())
    if why is not None:
        raise ValueError(why)
    try:
        return [msgspec.json.decode(raw.encode())]
    except msgspec.DecodeError as exc:
        first = exc
    out: list[Any] = []
    i, n = 0, len(raw)
    while i < n:
        while i < n and raw[i] in " \t":
            i += 1
        if i >= n:
            break
        try:
            _, end = _JSON.raw_decode(raw, i)
        except ValueError:
            raise ValueError(str(first)) from None
        if end < n and raw[end] not in " \t":
            raise ValueError(str(first))
        try:  # (msgspec decodes it as the one-value tag does: no NaN, the same numbers)
            out.append(msgspec.json.decode(raw[i:end].encode()))
        except msgspec.DecodeError:
            raise ValueError(str(first)) from None
        if len(out) > MAX_VALUES:
            raise ValueError(f"more than {MAX_VALUES} values in one tag")
        i = end
    if len(out) < 2:
        raise ValueError(str(first))
    return out


def _fields(cls: Any) -> dict[str, Any]:
    """The set-up type's fields as written (encode names) -> their msgspec.inspect types."""
    info = msgspec.inspect.type_info(cls) if cls is not None else None
    if not isinstance(info, msgspec.inspect.StructType):
        return {}
    return {f.encode_name: f.type for f in info.fields}


def _plain(t: Any) -> Any:
    """``t`` without its ``| None``."""
    if isinstance(t, msgspec.inspect.UnionType):
        rest = [x for x in t.types if not isinstance(x, msgspec.inspect.NoneType)]
        return rest[0] if len(rest) == 1 else t
    return t


def _entry_names(t: Any) -> list[str] | None:
    """The field names of a list's entries when they are Structs (written in that order)."""
    t = _plain(t)
    if isinstance(t, msgspec.inspect.StructType):
        return [f.encode_name for f in t.fields]
    return None


def _singular(field: str, fields: dict[str, Any]) -> str | None:
    """The tag of one entry of ``field`` (``players`` -> ``player``), or None where it has none."""
    if len(field) < 2 or not field.endswith("s") or not field[0].islower():
        return None
    one = field[:-1]
    if one in RESERVED or one in fields or one == "type" or one[0].isupper():
        return None
    t = _plain(fields.get(field))
    return one if isinstance(t, (msgspec.inspect.ListType, msgspec.inspect.DictType)) else None


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


_C1 = re.compile("[\x7f-\x9f]")


def tag_value(v: Any) -> str:
    """``v`` as JSON, a terminal's C1 control characters escaped too (JSON leaves them raw)."""
    return _C1.sub(lambda m: f"\\u{ord(m.group()):04x}", msgspec.json.encode(v).decode())


def json_tags(setup: Any) -> list[str]:
    """The set-up as the first text form wrote it: a tag a field, its value JSON (the header
    ``meta`` a capitalised tag a key)."""
    out: list[str] = []
    for k, v in msgspec.to_builtins(setup).items():
        if k == "type":
            continue
        if k == "meta" and isinstance(v, dict) and all(_META_KEY.fullmatch(m) for m in v):
            out += [f"[{m[0].upper()}{m[1:]} {tag_value(x)}]" for m, x in v.items()]
            continue
        out.append(f"[{k} {tag_value(v)}]")
    return out


def word_tags(setup: Any) -> list[str]:
    """The set-up's tags in words (see the module): a list or a table a tag an entry where
    each entry's values are scalars, every other field as :func:`json_tags` writes it."""
    fields = _fields(type(setup))
    out: list[str] = []
    for tag in json_tags(setup):
        name = tag[1:].split(" ", 1)[0]
        one = _singular(name, fields)
        words = _entries(one, fields[name], msgspec.to_builtins(getattr(setup, name))) if one else None
        out += words if words else [tag]
    return out


def _entries(one: str, t: Any, v: Any) -> list[str] | None:
    """``[one ...]`` a tag an entry of the value ``v`` (of type ``t``), or None where one entry
    has no words (a nested value) or there is none (an empty list still needs its JSON tag)."""
    t = _plain(t)
    if not v:
        return None
    if isinstance(t, msgspec.inspect.DictType) and isinstance(v, dict):
        if not all(_scalar(x) for x in v.values()):
            return None
        return [f"[{one} {tag_value(k)} {tag_value(x)}]" for k, x in v.items()]
    if not isinstance(t, msgspec.inspect.ListType) or not isinstance(v, list):
        return None
    names = _entry_names(t.item_type)
    out = []
    for item in v:
        if names is None and _scalar(item):
            out.append(f"[{one} {tag_value(item)}]")
        elif names is not None and isinstance(item, dict) and list(item) == names[:len(item)] \
                and all(_scalar(x) for x in item.values()) and item:
            out.append(f"[{one} {' '.join(tag_value(x) for x in item.values())}]")
        else:
            return None
    return out


def tag_fields(cls: Any, tags: Sequence[tuple[int, str, list[Any]]], fail: Fail,
               lines: dict[str, int] | None = None) -> dict[str, Any]:
    """The set-up's lower-case fields that ``tags`` (line, name, values) write, for the set-up
    type ``cls`` (None: a game the registry lacks; each tag its field's JSON): a field's own tag
    holds one JSON value; an entry's tag (:func:`word_tags`) is gathered into its list or table.
    ``fail`` names the line and the tag of what does not read; ``lines`` gets the text line of
    each field and entry (``seats[0]``, ``options.picks``: :func:`line_of` finds an error's)."""
    fields = _fields(cls)
    doc: dict[str, Any] = {}
    gathered: dict[str, int] = {}  # field -> the line of its first entry's tag
    where = lines if lines is not None else {}
    for line, name, values in tags:
        plural = name + "s"
        if cls is not None and name not in fields and _singular(plural, fields) != name:
            words = sorted((set(fields) - set(ENVELOPE_FIELDS)) | {w for f in fields if (w := _singular(f, fields))})
            raise fail(line, f"no field [{name} ...] in this game's set-up{hint(name, words, 'tags')}", name)
        if name in fields or cls is None:
            if len(values) != 1:
                raise fail(line, f"[{name} ...] holds one value (JSON), not {len(values)}", name)
            if name in doc:
                raise fail(line, f"both [{name} ...] and [{name[:-1]} ...]" if name in gathered else "given twice", name)
            doc[name] = values[0]
            where[name] = line
            continue
        if plural in doc and plural not in gathered:
            raise fail(line, f"both [{plural} ...] and [{name} ...]", name)
        gathered.setdefault(plural, line)
        where.setdefault(plural, line)
        where[_gather(doc, plural, _plain(fields[plural]), line, name, values, fail)] = line
    return doc


def line_of(lines: dict[str, int], path: str, default: int) -> int:
    """The text line of the field or entry ``path`` names (``seats[0].warband``: the line of
    ``seats[0]``), the longest of ``lines`` it starts with; else ``default``."""
    best, got = -1, default
    for key, line in lines.items():
        if path == key or path.startswith((key + ".", key + "[")):
            if len(key) > best:
                best, got = len(key), line
    return got


def _gather(doc: dict[str, Any], plural: str, t: Any, line: int, name: str, values: list[Any], fail: Fail) -> str:
    """One entry's tag ``[name values...]`` added to ``doc[plural]`` (a list or a table); the
    entry's path (``options.picks``, ``seats[2]``)."""
    if isinstance(t, msgspec.inspect.DictType):
        if len(values) != 2 or not isinstance(values[0], str):
            raise fail(line, f'[{name} "<name>" <value>]: a name in quotes, then the value (JSON)', name)
        table = doc.setdefault(plural, {})
        if values[0] in table:
            raise fail(line, f"{values[0]!r} given twice", name)
        table[values[0]] = values[1]
        return f"{plural}.{values[0]}"
    names = _entry_names(t.item_type)
    if names is None:
        if len(values) != 1:
            raise fail(line, f"[{name} <value>] holds one value, not {len(values)} (one tag an entry)", name)
        doc.setdefault(plural, []).append(values[0])
    elif len(values) > len(names):
        raise fail(line, f"[{name} ...] gives at most {len(names)} values: {', '.join(names)}", name)
    else:
        doc.setdefault(plural, []).append(dict(zip(names, values)))
    return f"{plural}[{len(doc[plural]) - 1}]"
