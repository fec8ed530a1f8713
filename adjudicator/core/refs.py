"""Reference checks of events against their set-up, and the per-setup cache they read.

``validate_refs`` runs once per log line, on the web service's worker threads too.  What it needs
of a set-up (the player ids, the card pool, the board) is computed once per ``MatchStarted`` and
kept in a :class:`PerSetup` cache: held by reference and compared with ``is`` (a new set-up is
never mistaken for an old one, and never for another one read at the same time on another thread).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Container, Iterable, Mapping
from typing import Any, Generic, TypeVar

from .protocol import RefError

T = TypeVar("T")


class PerSetup(Generic[T]):
    """A thread-safe cache of ``build(setup)`` for the last ``size`` set-ups.

    MatchStarted is a frozen msgspec Struct without weak references, so entries hold the set-up
    by reference (keyed by ``id``, confirmed with ``is``: an id cannot be reused while the entry
    holds its object).  The hit path reads one immutable tuple and takes no lock.
    """

    def __init__(self, build: Callable[[Any], T], size: int = 8) -> None:
        self._build = build
        self._size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict[int, tuple[Any, T]] = OrderedDict()
        #: (setup, value) of the last hit: replaced whole, so a reader sees one consistent pair
        self._last: tuple[Any, T] | None = None

    def get(self, setup: Any) -> T:
        last = self._last
        if last is not None and last[0] is setup:
            return last[1]
        with self._lock:
            entry = self._entries.get(id(setup))
            if entry is None or entry[0] is not setup:
                entry = (setup, self._build(setup))
                self._entries[id(setup)] = entry
                while len(self._entries) > self._size:
                    self._entries.popitem(last=False)
            else:
                self._entries.move_to_end(id(setup))
            self._last = entry
            return entry[1]

    __call__ = get

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._last = None


class Names:
    """The names one kind of reference may take (the players, the cards of the pool, ...) and
    the message for any other (a format string with ``{value!r}``)."""

    __slots__ = ("known", "unknown")

    def __init__(self, known: Container[Any], unknown: str) -> None:
        self.known = known
        self.unknown = unknown

    def check(self, field: str, value: Any) -> None:
        if value not in self.known:
            raise RefError(field, self.unknown.format(value=value))


class Refs:
    """Which event fields name what: ``Refs(player="player", card="card", cards=["card"])``.

    A field given a kind holds one name, a field given ``[kind]`` a list of names (reported as
    ``cards[2]``).  Values that are not strings (None, a space number) are not names and are
    left alone.  :meth:`check` looks each kind up in a context ``{kind: Names}`` (a game's
    ``setup_context``).
    """

    def __init__(self, **fields: str | list[str]) -> None:
        self.single: tuple[tuple[str, str], ...] = tuple((f, k) for f, k in fields.items() if isinstance(k, str))
        self.lists: tuple[tuple[str, str], ...] = tuple((f, k[0]) for f, k in fields.items() if not isinstance(k, str))

    def kinds(self) -> set[str]:
        return {k for _, k in self.single + self.lists}

    def check(self, event: Any, ctx: Mapping[str, Names]) -> None:
        for f, kind in self.single:
            v = getattr(event, f, None)
            if v.__class__ is str:
                names = ctx[kind]
                if v not in names.known:
                    raise RefError(f, names.unknown.format(value=v))
        for f, kind in self.lists:
            values = getattr(event, f, None)
            if values:
                names = ctx[kind]
                for i, v in enumerate(values):
                    if v.__class__ is str and v not in names.known:
                        raise RefError(f"{f}[{i}]", names.unknown.format(value=v))


def check_deck_lists(players: Iterable[str], decks: Mapping[str, Any], cards: Names, *,
                     counts: Callable[[Any], Mapping[str, int]], field: Callable[[str, str], str],
                     max_copies: int = 10_000) -> None:
    """Deck lists of a set-up: one per player, none for anyone else, known cards, sane counts."""
    ids = list(players)
    for p in ids:
        if p not in decks:
            raise RefError("decks", f"no deck list for player {p!r}")
    for p, deck in decks.items():
        if p not in ids:
            raise RefError(f"decks.{p}", f"deck list for unknown player {p!r}")
        for cid, n in counts(deck).items():
            cards.check(field(p, cid), cid)
            if not 0 <= n <= max_copies:
                raise RefError(field(p, cid), f"copies must be between 0 and {max_copies}, got {n}")
