"""Data documents: reading a data file (bounded), parsing it as TOML or JSON, decoding it into msgspec Structs.

The format layer under :mod:`adjudicator.core.kernel.sources` (which file an id names) and
:mod:`adjudicator.core.kernel.data` (card pools): it imports neither.  A malformed file raises
:class:`DataError` naming the file and, for a list of entries (``[[card]]``), the entry at fault
by its ``id``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from .boundedtoml import json_pieces_error, load_toml_bounded
from .errors import DataError
from .limits import MAX_DATA_BYTES, MAX_DATA_TOKENS, depth_error

T = TypeVar("T")


def read_bytes(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of a data file, at most ``limit`` of them (default :data:`MAX_DATA_BYTES`; a
    bigger file is refused)."""
    p = str(path)
    limit = MAX_DATA_BYTES if limit is None else limit
    try:
        with open(path, "rb") as f:
            raw = f.read(limit + 1)
    except OSError as exc:
        raise DataError(p, f"cannot read ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise DataError(p, f"larger than {limit} bytes")
    return raw


def parse_text(text: str, path: str | Path, *, max_bytes: int = MAX_DATA_BYTES,
               max_tokens: int = MAX_DATA_TOKENS) -> dict[str, Any]:
    """The TOML or JSON (``.json``) document ``text`` read from ``path``, as plain data; the error
    of a malformed one names its line.  ``max_bytes``, ``max_tokens``: its size and the pieces it
    may hold (a data file's limits; a tournament manifest's are its own)."""
    p = str(path)
    if is_json(path):
        deep = depth_error(text)
        if deep is not None:
            raise DataError(p, f"not valid JSON ({deep})")
        many = json_pieces_error(text, max_tokens)
        if many is not None:
            raise DataError(p, f"not read ({many}: the limit of a data file, docs/log-format.md, \"Limits\")")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(f"{p}:{exc.lineno}", f"not valid JSON ({exc.msg}, column {exc.colno})") from None
        except RecursionError:  # pragma: no cover - depth_error runs first
            raise DataError(p, "not valid JSON (nested too deep)") from None
        except ValueError:  # Python refuses to read an integer of more than 4,300 digits
            raise DataError(p, "not valid JSON (an integer of more than 4,300 digits)") from None
        if not isinstance(data, dict):
            raise DataError(f"{p}:1", "a data file in JSON is one object ({...})")
        return data
    return load_toml_bounded(text, p, max_bytes=max_bytes, max_tokens=max_tokens)


def _toml(text: str, p: str) -> dict[str, Any]:
    return load_toml_bounded(text, p)


def is_json(path: str | Path) -> bool:
    """Is ``path`` a JSON data file (by its extension; any other is TOML)?"""
    return str(path).lower().endswith(".json")


def read_text(path: str | Path, limit: int | None = None) -> str:
    """The UTF-8 text of a data file (bounded by ``limit`` bytes, default :data:`MAX_DATA_BYTES`)."""
    try:
        return read_bytes(path, limit).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(str(path), f"not UTF-8 text (byte {exc.start})") from None


def read_data(path: str | Path) -> dict[str, Any]:
    """A TOML or JSON (``.json``) data file as plain data."""
    return parse_text(read_text(path), path)


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML data file as plain data (whatever its extension)."""
    return _toml(read_text(path), str(path))


def decode(data: Any, type_: type[T], path: str | Path, *, entries: str | None = None) -> T:
    """``msgspec.convert`` with a :class:`DataError`; ``entries`` names the list of entries whose
    failing member is then named by its ``id`` (``card 'ash': Expected `int` ...``)."""
    try:
        return msgspec.convert(data, type_)
    except msgspec.ValidationError as exc:
        text = str(exc)
        marker = f"$.{entries}[" if entries else None
        if marker and marker in text:
            idx = int(text.split(marker, 1)[1].split("]", 1)[0])
            items = data.get(entries, []) if isinstance(data, dict) else []
            entry = items[idx] if isinstance(items, list) and idx < len(items) else None
            eid = entry.get("id") if isinstance(entry, dict) else None
            text = f"{entries} {eid!r}: {text}" if isinstance(eid, str) else f"{entries} #{idx + 1}: {text}"
        raise DataError(str(path), text) from None
