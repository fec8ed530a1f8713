"""Game data files (card pools, boards): reading, decoding, and errors that name the entry.

A game ships its data as TOML files in its package's ``data/`` folder, each decoded into msgspec
Structs; which file an id names (shipped, in a ``--pools`` directory, in the store) is
:mod:`adjudicator.core.sources`.  A malformed file raises :class:`DataError` naming the file and, for a list of entries
(``[[card]]``), the entry at fault by its ``id``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from .errors import DataError

T = TypeVar("T")


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

    ``load(id, sha256=None)`` finds a pool by id (pinned by the sha256 of its canonical content
    when given) among the shipped pools, the ``--pools`` directories and the store
    (:mod:`adjudicator.core.sources`); ``load_file(path)`` reads any pool file.  A malformed file
    raises :class:`DataError` naming the file and the card (by id, or by position) and the field;
    ``validate(path, cards)`` adds the game's own checks of card fields.  Card ids must be unique
    within a pool.  ``game`` is the game's id (default: from the package holding ``directory``).
    """

    def __init__(self, directory: Path, card_type: type[C],
                 validate: Callable[[str, list[C]], None] | None = None, game: str | None = None) -> None:
        from .sources import DataKind

        self.directory = directory
        self.validate = validate
        self.file_type = msgspec.defstruct(
            "PoolFile", [("pool", str), ("description", str, ""), ("card", list[card_type], [])],  # type: ignore[valid-type]
            forbid_unknown_fields=True)
        self.kind: DataKind[Pool[C]] = DataKind(
            game or directory.parent.name.replace("_", "-"), "pool", directory,
            lambda i: (f"{i}.toml", f"{i}.json"), self.from_document, noun="card pool")

    def load_file(self, path: str | Path) -> Pool[C]:
        return self.from_document(read_toml(path), str(path), Path(path).stem)

    def from_document(self, doc: Any, path: str, name: str) -> Pool[C]:
        """A pool from its decoded document; ``path`` names it in errors, ``name`` is the id it
        must give itself (``pool = "<name>"``)."""
        pf: Any = decode(doc, self.file_type, path, entries="card")
        seen: set[str] = set()
        for c in pf.card:
            if c.id in seen:
                raise DataError(str(path), f"card {c.id!r}: duplicate id")
            seen.add(c.id)
        if self.validate is not None:
            self.validate(str(path), pf.card)
        if pf.pool != name:
            raise DataError(str(path), f"pool: the file names its pool {pf.pool!r}; it must match the file name {name!r}")
        return Pool(pf.pool, pf.description, pf.card)

    def load(self, name: str, sha256: str | None = None) -> Pool[C]:
        """The pool ``name`` (pinned to ``sha256`` when given) in the sources in effect."""
        return self.kind.load(name, sha256)

    def names(self, name: str, sha256: str | None = None) -> Any:
        """The card ids of the pool ``name``, for reference checks (:class:`Names`); a pool that
        cannot be found or read makes the log unreadable (``RefError`` on ``pool``)."""
        from .protocol import RefError
        from .refs import Names
        from .sources import check_sha256

        try:
            check_sha256("pool_sha256", sha256)
        except DataError as exc:
            raise RefError("pool_sha256", exc.reason) from None
        try:
            pool = self.load(name, sha256)
        except DataError as exc:
            raise RefError("pool", str(exc)) from None
        return Names(pool.cards, "unknown card {value!r} in pool " + repr(name))
