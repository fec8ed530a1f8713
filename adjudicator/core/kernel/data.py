"""Game data files (card pools, boards): reading, decoding, and errors that name the entry.

A game ships its data as TOML files in its package's ``data/`` folder, each decoded into msgspec
Structs (:mod:`adjudicator.core.kernel.documents` reads and decodes them; its functions are named here
too); a card pool may also be a JSON file of the same structure (chosen by the file extension:
``.json`` is JSON, anything else TOML).  Which file an id names (shipped, in a ``--pools``
directory, in the store) is :mod:`adjudicator.core.kernel.sources`, which this module reads from and
which never reads this one.  A malformed file raises :class:`DataError` naming the file and, for a
list of entries (``[[card]]``), the entry at fault by its ``id``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from .documents import decode, is_json, parse_text, read_bytes, read_data, read_text, read_toml
from .errors import DataError
from .sources import DataKind, check_sha256, current

#: the reading and decoding of data files are :mod:`adjudicator.core.kernel.documents`' (named here too)
__all__ = ["Pool", "PoolLoader", "Problems", "decode", "is_json", "parse_text", "read_bytes", "read_data",
           "read_text", "read_toml"]

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

    def name_of(self, card: Any) -> str:
        """``card`` by its name (``Magma Titan``), as a ruling's message names it (a judge reads
        names, not ids); a value that is no card of the pool (an unknown ``?``) as it is."""
        c = self.get(card) if isinstance(card, str) else None
        return getattr(c, "name", None) or str(card)

    def names_of(self, cards: Iterable[Any]) -> str:
        """Cards by their names, in their order: ``Iron Golem, Iron Golem, White Wall``."""
        return ", ".join(self.name_of(c) for c in cards)

    # a pool is one per name: equal and hashed by identity, not by content
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__  # type: ignore[assignment]


#: a game's checks of decoded cards: ``problems(cards)`` yields ``(card id, field, message)`` for
#: every problem (``field`` a path like ``abilities[0].cost``, or "" for the card as a whole)
Problems = Callable[[list[Any]], Iterable[tuple[str, str, str]]]


class PoolLoader(Generic[C]):
    """Card pools of one game: TOML or JSON files ``pool = "<name>"``, ``description``, ``[[card]]``.

    ``load(id, sha256=None)`` finds a pool by id (pinned by the sha256 of its canonical content
    when given) among the shipped pools, the ``--pools`` directories and the store
    (:mod:`adjudicator.core.kernel.sources`); ``load_file(path)`` reads any pool file (``.json``: JSON,
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

        try:
            check_sha256("pool_sha256", sha256)
        except DataError as exc:
            raise RefError("pool_sha256", exc.reason) from None
        try:
            pool = self.load(name, sha256)
        except DataError as exc:
            raise RefError("pool", str(exc)) from None
        return Names(pool.cards, "unknown card {value!r} in pool " + repr(name))
