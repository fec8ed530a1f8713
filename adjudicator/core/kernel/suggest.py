"""Errors that say how to fix them: the valid values of a field and the closest one.

An unknown event type, field, enum value, player or card id in a log line is reported with the
values that would have been accepted (when they are few enough to list) and the closest one
(``did you mean 'ember-gem'?``, by :func:`difflib.get_close_matches`).  Everything here runs on
the error path only; the names compared are the set-up's own (bounded), and a value longer than
:data:`MAX_COMPARED` is not compared.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

import msgspec

#: list the valid values when there are at most this many
MAX_LISTED = 40
#: values longer than this are not compared with the valid ones
MAX_COMPARED = 100


def closest(value: Any, known: Iterable[Any]) -> str | None:
    """The valid value closest to ``value`` (None: none is close)."""
    if not isinstance(value, str) or len(value) > MAX_COMPARED:
        return None
    names = sorted({str(k) for k in known})
    # compare case- and separator-insensitively too: ember_gem ~ ember-gem, playfollower ~ PlayFollower
    folded = {_fold(n): n for n in reversed(names)}
    if _fold(value) in folded:
        return folded[_fold(value)]
    found = difflib.get_close_matches(value, names, n=1, cutoff=0.6)
    return found[0] if found else None


def _fold(s: str) -> str:
    return re.sub(r"[-_ .]", "", s).lower()


def hint(value: Any, known: Iterable[Any], noun: str = "valid", *, said: str = "") -> str:
    """`` (did you mean 'x'?; valid: a, b, c)``, or '' when there is nothing to say (the valid
    values are not listed again when the message ``said`` names them all already)."""
    names = sorted({str(k) for k in known} - {"?"})  # ("?": an unknown value, not a name to suggest)
    parts = []
    near = closest(value, names)
    if near is not None and near != value:
        parts.append(f"did you mean {near!r}?")
    if names and len(names) <= MAX_LISTED and not all(n in said for n in names):
        parts.append(f"{noun}: " + ", ".join(names))
    return f" ({'; '.join(parts)})" if parts else ""


def field_type(cls: type, path: str) -> Any:
    """The msgspec type info at ``path`` (``zone``, ``seats[0].corner``) of the Struct ``cls``, or
    None when the path does not lead to one field."""
    info: Any = msgspec.inspect.type_info(cls)
    for token in re.findall(r"[^.\[\]]+|\[[^\]]*\]", path):
        info = _unwrap(info)
        if token.startswith("["):
            if isinstance(info, (msgspec.inspect.ListType, msgspec.inspect.TupleType if hasattr(msgspec.inspect, "TupleType") else ())):
                info = getattr(info, "item_type", None)
            elif isinstance(info, msgspec.inspect.DictType):
                info = info.value_type
            else:
                return None
            continue
        if isinstance(info, msgspec.inspect.StructType):
            info = next((f.type for f in info.fields if f.encode_name == token), None)
        elif isinstance(info, msgspec.inspect.DictType):
            info = info.value_type
        else:
            return None
        if info is None:
            return None
    return _unwrap(info)


def _unwrap(info: Any) -> Any:
    """A union with None (an optional field) as the other type."""
    if isinstance(info, msgspec.inspect.UnionType):
        rest = [t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)]
        if len(rest) == 1:
            return rest[0]
        lits = [t for t in rest if isinstance(t, msgspec.inspect.LiteralType)]
        if lits:
            return lits[0]
    return info


def literal_values(cls: type, path: str) -> list[str] | None:
    """The values an enum (Literal) field at ``path`` of ``cls`` accepts, or None."""
    info = field_type(cls, path)
    if isinstance(info, msgspec.inspect.LiteralType):
        return [str(v) for v in info.values]
    return None


def struct_fields(cls: type, path: str | None) -> list[str] | None:
    """The field names of the Struct at ``path`` of ``cls`` (None or '': ``cls`` itself), the
    log envelope (seq, at, note, prev) left out."""
    info = msgspec.inspect.type_info(cls) if not path else field_type(cls, path)
    if not isinstance(info, msgspec.inspect.StructType):
        return None
    return [f.encode_name for f in info.fields if f.encode_name not in ("seq", "at", "note", "prev")]
