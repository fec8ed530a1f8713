"""Reference checks of events against their set-up, and the per-setup cache they read.

``validate_refs`` runs once per log line, on the web service's worker threads too.  What it needs
of a set-up (the player ids, the card pool, the board) is computed once per ``MatchStarted`` and
kept in a :class:`PerSetup` cache: held by reference and compared with ``is`` (a new set-up is
never mistaken for an old one, and never for another one read at the same time on another thread).
"""

from __future__ import annotations

import threading
from functools import partial
from collections import OrderedDict
from collections.abc import Callable, Container, Iterable, Mapping
from typing import Any, Generic, TypeVar

from .protocol import RefError
from .limits import MAX_COPIES, MAX_DECK

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
        self._lock = threading.RLock()  # a build may read the cache (another set-up)
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
            raise RefError(field, unknown_name(self.unknown, value, self.known))


def unknown_name(message: str, value: Any, known: Any) -> str:
    """The message for a name not among ``known``, with the closest (and the valid ones when few:
    :func:`adjudicator.core.kernel.suggest.hint`)."""
    from .suggest import hint

    said = message.format(value=value)
    return said + hint(value, known, said=said)


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
        #: event type -> (factory of its compiled check, the kinds it reads), or None: names nothing
        self._plans: dict[type, tuple[Callable[..., Callable[[Any], None]], list[str]] | None] = {}

    def kinds(self) -> set[str]:
        return {k for _, k in self.single + self.lists}

    def check(self, event: Any, ctx: Mapping[str, Names]) -> None:
        self.bind(ctx).check(event)

    def plan(self, cls: type) -> tuple[Callable[..., Callable[[Any], None]], list[str]] | None:
        """For one event type: a factory of its check (compiled once) and the kinds it reads."""
        try:
            return self._plans[cls]
        except KeyError:
            pass
        fields = getattr(cls, "__struct_fields__", None)
        single = [(f, k) for f, k in self.single if fields is None or f in fields]
        lists = [(f, k) for f, k in self.lists if fields is None or f in fields]
        if not single and not lists:
            self._plans[cls] = None
            return None
        body: list[str] = []

        def read(f: str) -> str:  # a field the type has is read directly
            return f"e.{f}" if fields is not None else f"getattr(e, {f!r}, None)"

        for i, (f, _) in enumerate(single):
            body += [f"    v = {read(f)}",
                     f"    if v.__class__ is str and v not in k{i}:",
                     f"        raise RefError({f!r}, unknown_name(m{i}, v, k{i}))"]
        for i, (f, _) in enumerate(lists, len(single)):  # (no enumerate per event: the place is found when reported)
            body += [f"    vs = {read(f)}",
                     "    if vs:",
                     "        for v in vs:",
                     f"            if v.__class__ is str and v not in k{i}:",
                     f"                raise RefError({f!r} + '[' + str(place(vs, v)) + ']', unknown_name(m{i}, v, k{i}))"]
        kinds = [k for _, k in single + lists]
        params = ", ".join(f"k{i}, m{i}" for i in range(len(kinds)))
        src = f"def make({params}):\n  def check(e):\n" + "\n".join("  " + line for line in body) + "\n  return check\n"
        scope: dict[str, Any] = {"RefError": RefError, "unknown_name": unknown_name, "place": _place}
        exec(compile(src, f"<refs of {cls.__name__}>", "exec"), scope)  # field names: identifiers of the Struct
        plan = (scope["make"], kinds)
        self._plans[cls] = plan
        return plan

    def bind(self, ctx: Mapping[str, Names]) -> BoundRefs:
        """These field lists with each kind's names looked up once (for one set-up)."""
        return BoundRefs(self, ctx)


def _place(values: Any, value: Any) -> int:
    """The index of ``value`` in ``values``: the first name not known (an earlier value that is
    the same object would have been reported first)."""
    return next(j for j, v in enumerate(values) if v is value)


#: an event type a :class:`BoundRefs` has not seen yet
UNSEEN: Any = object()


def _nothing(event: Any) -> None:
    return None


class BoundRefs:
    """:class:`Refs` bound to one set-up's names.

    The check of an event type is compiled on first sight into straight-line code reading only
    the fields that type has (``validate_refs`` runs once per log line); a type naming nothing
    costs one dict lookup.
    """

    def __init__(self, refs: Refs, ctx: Mapping[str, Names]) -> None:
        self.refs = refs
        self.ctx = ctx
        self.by_type: dict[type, Callable[[Any], None] | None] = {}

    def check(self, event: Any) -> None:
        fn = self.by_type.get(event.__class__, UNSEEN)
        if fn is not None:
            (fn if fn is not UNSEEN else self.learn(event.__class__))(event)

    def learn(self, cls: type) -> Callable[[Any], None]:
        """Compile the check of ``cls`` (on its first event); a no-op when it names nothing."""
        fn = self.by_type[cls] = self.compile(cls)
        return fn if fn is not None else _nothing

    def compile(self, cls: type) -> Callable[[Any], None] | None:
        plan = self.refs.plan(cls)
        if plan is None:
            return None
        make, kinds = plan
        args: list[Any] = []
        for k in kinds:
            args += [self.ctx[k].known, self.ctx[k].unknown]
        return make(*args)


#: the reference check of one log per event type: ``(table, learn)`` (:func:`ref_checks`)
RefChecks = tuple[dict[type, Callable[[Any], None] | None], Callable[[type], Callable[[Any], None] | None]]


def ref_checks(refs: BoundRefs, ctx: Mapping[str, Names], setup: Any, more: Callable[..., None] | None,
               more_types: Container[type] | None, setup_type: type, validate: Callable[[Any, Any], None]) -> RefChecks:
    """The kit's ``validate_refs(setup, e)`` per event type, for a reader that checks every line
    of one log: ``table[type(e)]`` is the check of that type (None: it names nothing, no call),
    ``learn(type)`` makes and keeps it on the type's first line.  The check of a type is its
    compiled check itself (:meth:`BoundRefs.compile`), with ``more`` (the game's
    ``validate_more``) after it when ``more_types`` holds the type: no frame of
    ``validate_refs`` per line, and exactly what it raises."""
    table: dict[type, Callable[[Any], None] | None] = {}

    def learn(cls: type) -> Callable[[Any], None] | None:
        if cls is setup_type:
            f: Callable[[Any], None] | None = partial(validate, setup)
        else:
            if refs.by_type.get(cls, UNSEEN) is UNSEEN:
                refs.learn(cls)
            fn = refs.by_type[cls]  # (None: the type names nothing)
            if more is None or (more_types is not None and cls not in more_types):
                f = fn
            else:
                f = partial(_refs_and_more, fn or _nothing, more, setup, ctx)
        table[cls] = f
        return f
    return table, learn


def _refs_and_more(fn: Callable[[Any], None], more: Callable[..., None], setup: Any, ctx: Any, event: Any) -> None:
    fn(event)
    more(setup, event, ctx)


def check_deck_lists(players: Iterable[str], decks: Mapping[str, Any], cards: Names, *,
                     counts: Callable[[Any], Mapping[str, int]], field: Callable[[str, str], str],
                     max_copies: int = MAX_COPIES) -> None:
    """Deck lists of a set-up: one per player, none for anyone else, known cards, sane counts
    (at most ``max_copies`` of a card, at most :data:`MAX_DECK` cards in a deck list)."""
    ids = list(players)
    for p in ids:
        if p not in decks:
            raise RefError("decks", f"no deck list for player {p!r}")
    for p, deck in decks.items():
        if p not in ids:
            raise RefError(f"decks.{p}", f"deck list for unknown player {p!r}")
        total = 0
        for cid, n in counts(deck).items():
            cards.check(field(p, cid), cid)
            if not 0 <= n <= max_copies:
                raise RefError(field(p, cid), f"copies must be between 0 and {max_copies}, got {n}")
            total += n
            if total > MAX_DECK:
                raise RefError(f"decks.{p}", f"more than {MAX_DECK} cards in one deck list")
