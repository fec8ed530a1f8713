"""Game data files (card pools, boards): reading, decoding, and errors that name the entry.

A game ships its data as TOML files in its package's ``data/`` folder, each decoded into msgspec
Structs.  A malformed file raises :class:`DataError` naming the file and, for a list of entries
(``[[card]]``), the entry at fault by its ``id``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar

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
    except ValueError:  # Python refuses to read an integer of more than 4,300 digits
        raise DataError(p, "not valid TOML (an integer of more than 4,300 digits)") from None


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


C = TypeVar("C")


class Pool(dict[str, C]):
    """A card pool: its cards by id (the pool is that dict: ``pool[card_id]``, ``card_id in
    pool``, ``pool.get(card_id)`` are plain dict operations, the rules' most frequent lookup),
    with its ``name`` and ``description``; ``cards`` is the pool itself."""

    def __init__(self, name: str, description: str, cards: list[C]):
        super().__init__((c.id, c) for c in cards)  # type: ignore[attr-defined]
        self.name = name
        self.description = description

    @property
    def cards(self) -> dict[str, C]:
        return self

    def __repr__(self) -> str:
        return f"Pool({self.name!r}, {len(self)} cards)"

    # a pool is one per name: equal and hashed by identity, not by content
    __eq__ = object.__eq__  # type: ignore[assignment]
    __ne__ = object.__ne__  # type: ignore[assignment]
    __hash__ = object.__hash__  # type: ignore[assignment]


class PoolLoader(Generic[C]):
    """Card pools of one game: TOML files ``pool = "<name>"``, ``description``, ``[[card]]``.

    ``load(name)`` reads a pool shipped in ``directory`` (cached); ``load_file(path)`` any pool
    file.  A malformed file raises :class:`DataError` naming the file and the card (by id, or by
    position) and the field; ``validate(path, cards)`` adds the game's own checks of card fields.
    Card ids must be unique within a pool.
    """

    def __init__(self, directory: Path, card_type: type[C],
                 validate: Callable[[str, list[C]], None] | None = None) -> None:
        self.directory = directory
        self.validate = validate
        self.file_type = msgspec.defstruct(
            "PoolFile", [("pool", str), ("description", str, ""), ("card", list[card_type], [])],  # type: ignore[valid-type]
            forbid_unknown_fields=True)
        self.load = lru_cache(maxsize=None)(self._load)

    def load_file(self, path: str | Path) -> Pool[C]:
        pf: Any = decode(read_toml(path), self.file_type, path, entries="card")
        seen: set[str] = set()
        for c in pf.card:
            if c.id in seen:
                raise DataError(str(path), f"card {c.id!r}: duplicate id")
            seen.add(c.id)
        if self.validate is not None:
            self.validate(str(path), pf.card)
        check_named_after_file(path, "pool", pf.pool)
        return Pool(pf.pool, pf.description, pf.card)

    def names(self, name: str) -> Any:
        """The card ids of the shipped pool ``name``, for reference checks (:class:`Names`); a
        pool that cannot be loaded makes the log unreadable (``RefError`` on ``pool``)."""
        from .protocol import RefError
        from .refs import Names

        try:
            pool = self.load(name)
        except DataError as exc:
            raise RefError("pool", str(exc)) from None
        return Names(pool.cards, "unknown card {value!r} in pool " + repr(name))

    def _load(self, name: str) -> Pool[C]:
        """A pool shipped in the game's data folder, by name."""
        return self.load_file(shipped_file(self.directory, name, "card pool"))
