"""Game data files (card pools, boards): reading, decoding, and errors that name the entry.

A game ships its data as TOML files in its package's ``data/`` folder, each decoded into msgspec
Structs.  A malformed file raises :class:`DataError` naming the file and, for a list of entries
(``[[card]]``), the entry at fault by its ``id``.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from .errors import DataError
from .limits import MAX_NAME

T = TypeVar("T")
_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")


def shipped_file(directory: Path, name: object, what: str, ext: str = "toml") -> Path:
    """The data file ``name`` shipped in ``directory`` (a slug, so never outside it)."""
    if not isinstance(name, str) or not _SLUG.fullmatch(name) or len(name) > MAX_NAME:
        shown = repr(name) if len(repr(name)) <= 80 else repr(name)[:77] + "..."
        raise DataError(f"{what} {shown}", f"a {what} name is a lowercase slug (letters, digits, '-') "
                                           f"of at most {MAX_NAME} characters")
    path = directory / f"{name}.{ext}"
    try:
        found = path.is_file()
    except OSError:
        found = False
    if not found:
        known = sorted(f.stem for f in directory.glob(f"*.{ext}"))
        raise DataError(f"{what} {name!r}", f"no {what} named {name!r} (shipped: {', '.join(known)})")
    return path


def read_toml(path: str | Path) -> dict[str, Any]:
    p = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise DataError(p, f"cannot read ({exc.strerror})") from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(p, f"not valid TOML ({exc})") from None


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


def check_named_after_file(path: str | Path, field: str, value: str) -> None:
    """A data file names itself (``pool = "sample"``); it must match its file name."""
    stem = Path(path).stem
    if value != stem:
        raise DataError(str(path), f"{field}: the file names its {field} {value!r}; it must match the file name {stem!r}")
