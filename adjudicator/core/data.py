"""Game data files (card pools, boards): reading, decoding, and errors that name the entry.

A game ships its data as TOML files in its package's ``data/`` folder, each decoded into msgspec
Structs; a card pool may also be a JSON file of the same structure (chosen by the file extension:
``.json`` is JSON, anything else TOML).  Which file an id names (shipped, in a ``--pools``
directory, in the store) is :mod:`adjudicator.core.sources`.  A malformed file raises
:class:`DataError` naming the file and, for a list of entries
(``[[card]]``), the entry at fault by its ``id``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from .boundedtoml import json_pieces_error, load_toml_bounded
from .errors import DataError
from .limits import MAX_DATA_BYTES, depth_error

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


def parse_text(text: str, path: str | Path) -> dict[str, Any]:
    """The TOML or JSON (``.json``) document ``text`` read from ``path``, as plain data; the error
    of a malformed one names its line."""
    p = str(path)
    if is_json(path):
        deep = depth_error(text)
        if deep is not None:
            raise DataError(p, f"not valid JSON ({deep})")
        many = json_pieces_error(text)
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
    return _toml(text, p)


def _toml(text: str, p: str) -> dict[str, Any]:
    return load_toml_bounded(text, p)


def is_json(path: str | Path) -> bool:
    """Is ``path`` a JSON data file (by its extension; any other is TOML)?"""
    return str(path).lower().endswith(".json")


def read_text(path: str | Path) -> str:
    """The UTF-8 text of a data file (bounded by :data:`MAX_DATA_BYTES`)."""
    try:
        return read_bytes(path).decode("utf-8")
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


#: a game's checks of decoded cards: ``problems(cards)`` yields ``(card id, field, message)`` for
#: every problem (``field`` a path like ``abilities[0].cost``, or "" for the card as a whole)
Problems = Callable[[list[Any]], Iterable[tuple[str, str, str]]]


class PoolLoader(Generic[C]):
    """Card pools of one game: TOML or JSON files ``pool = "<name>"``, ``description``, ``[[card]]``.

    ``load(id, sha256=None)`` finds a pool by id (pinned by the sha256 of its canonical content
    when given) among the shipped pools, the ``--pools`` directories and the store
    (:mod:`adjudicator.core.sources`); ``load_file(path)`` reads any pool file (``.json``: JSON,
    else TOML; the same structure).  A malformed file raises :class:`DataError` naming the file
    and the card (by id, or by position) and the field; the game's own checks of card fields are
    ``problems(cards)`` (every problem, see :data:`Problems`; loading refuses the first,
    ``adjudicator pool check`` reports them all) or the older ``validate(path, cards)`` that
    raises.  Card ids must be unique within a pool.  ``game`` is the game's id (default: from the
    package holding ``directory``).
    """

    def __init__(self, directory: Path, card_type: type[C],
                 validate: Callable[[str, list[C]], None] | None = None, *,
                 problems: Problems | None = None, game: str | None = None) -> None:
        from .sources import DataKind, current

        self.directory = directory
        self.card_type = card_type
        self._last: tuple[Any, Any, Any] = (None, None, None)
        self._current = current
        self.validate = validate
        self.problems = problems
        self.file_type = msgspec.defstruct(
            "PoolFile", [("pool", str), ("description", str, ""), ("card", list[card_type], [])],  # type: ignore[valid-type]
            forbid_unknown_fields=True)
        self.kind: DataKind[Pool[C]] = DataKind(
            game or directory.parent.name.replace("_", "-"), "pool", directory,
            lambda i: (f"{i}.toml", f"{i}.json"), self.from_document, noun="card pool")

    def load_file(self, path: str | Path) -> Pool[C]:
        return self.from_document(read_data(path), str(path), Path(path).stem)

    def from_document(self, doc: Any, path: str, name: str) -> Pool[C]:
        """A pool from its decoded document; ``path`` names it in errors, ``name`` is the id it
        must give itself (``pool = "<name>"``)."""
        pf: Any = decode(doc, self.file_type, path, entries="card")
        seen: set[str] = set()
        for c in pf.card:
            if c.id in seen:
                raise DataError(str(path), f"card {c.id!r}: duplicate id")
            seen.add(c.id)
        if self.problems is not None:
            for cid, field, message in self.problems(pf.card):
                raise DataError(str(path), f"card {cid!r}: {field + ': ' if field else ''}{message}")
        if self.validate is not None:
            self.validate(str(path), pf.card)
        if pf.pool != name:
            raise DataError(str(path), f"pool: the file names its pool {pf.pool!r}; it must match the file name {name!r}")
        return Pool(pf.pool, pf.description, pf.card)

    def load(self, name: str, sha256: str | None = None) -> Pool[C]:
        """The pool ``name`` (pinned to ``sha256`` when given) in the sources in effect."""
        return self.kind.load(name, sha256)

    def of_setup(self, setup: Any) -> Pool[C]:
        """The pool a set-up names (``pool``, pinned by ``pool_sha256``) in the sources in effect.

        An engine asks on every event: the answer for the last set-up object asked in the same
        sources is kept (the tuple is swapped whole, so threads never see half of it)."""
        src = self._current()
        last = self._last
        if last[0] is setup and last[1] is src:
            return last[2]
        pool = self.kind.load(setup.pool, setup.pool_sha256)
        self._last = (setup, src, pool)
        return pool

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
