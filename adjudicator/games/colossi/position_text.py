"""A Colossi position in one line (FEN's idea): what the table shows, typed by a judge and read back
exactly (docs/games/colossi.md, "Notation", "A position in one line").

The line is ``colossi SETUP ISLAND PLAYERS FIELD=VALUE ...``, parts separated by spaces:

- ``SETUP``: the players in seat order, ``p1,p2,p3``; then, only when not their default, the
  rest of the set-up in parentheses: ``p1,p2(ruleset=first-game,options={gold_target=20})``;
- ``ISLAND``: the spaces in number order, ``/`` between them; an unexplored empty space is one
  run of digits with its neighbours (``4`` = four such spaces, FEN's runs); another is its tile
  id (``.`` unexplored), ``@owner`` for a Starting Environment, then in parentheses what is on it:
  ``g``/``b``/``n`` gold, blue and green Loot cubes, ``C`` the Colossi (owners), ``A`` the
  Acolytes per seat, ``F`` the Banners (owners), ``X`` the Beasts, ``M`` the Deep Mines count:
  ``start@p1(C=(p1),A=(2,0))``;
- ``PLAYERS``: each player's id, then in parentheses what differs from a player at the start:
  ``p1(gold=12,hand=(bolster,convene),colossus=4,turns=3)``, ``/`` between players;
- then every other field of the position that is not its default (or, for ``options``, not what
  the set-up's ruleset makes it): ``turn=5 turn_player=p2 todo=(actions(p2),end-turn)
  card_deck=(bolster*2,convene,...)``.

Values: a number; a word (an id); any other text as a JSON string; ``~`` nothing (null); ``y`` /
``n`` yes and no; ``(a,b,c)`` a list, where ``x*4`` is four ``x`` in a row (a seat's view of a
deck is ``(?*23)``); a record in parentheses, its required fields in order and then
``name=value`` for the others; a task of the queue its tag and, when it has fields, a record:
``rest(p1,done=(3))``; ``{key=value,...}`` a mapping.  Every size is bounded (the line, the
nesting, a run, the items in all).
"""

from __future__ import annotations

import json
import re
import types
import typing
from functools import lru_cache
from typing import Any, Literal, Union

import msgspec

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.kit import Task
from adjudicator.core.kernel.notation import NotationError
from adjudicator.core.kernel.protocol import RefError
from adjudicator.core.kernel.rulings import Illegal

from . import state as S

#: the longest position line read, the deepest nesting, the longest run, the most items in all
MAX_LINE = 200_000
MAX_DEPTH = 12
MAX_RUN = 10_000
MAX_ITEMS = 200_000

_BARE = re.compile(r"[A-Za-z_?'][A-Za-z0-9_.?'+-]*|[0-9]+[A-Za-z_.?'+-][A-Za-z0-9_.?'+-]*")
_INT = re.compile(r"-?[0-9]{1,18}")
#: the short names of a space's fields in the island part
SPACE_KEYS = {"gold": "g", "blue": "b", "green": "n", "colossi": "C", "acolytes": "A", "banners": "F",
              "beasts": "X", "mines": "M"}
_SPACE_FIELDS = {v: k for k, v in SPACE_KEYS.items()}
_RESERVED = frozenset({"y", "n", "true", "false", "null"})
_NONE = type(None)


def _atom(v: str) -> str:
    """A text as one word when it is one (and reads as no number or reserved word), else JSON."""
    if _BARE.fullmatch(v) and v not in _RESERVED:
        return v
    return json.dumps(v)


@lru_cache(maxsize=None)  # bounded: the Struct types of a position
def _fields(cls: type) -> tuple[Any, ...]:
    return msgspec.structs.fields(cls)


def field_default(f: Any) -> Any:
    """A Struct field's default value (NODEFAULT: the field is required)."""
    if f.default is not msgspec.NODEFAULT:
        return f.default
    if f.default_factory is not msgspec.NODEFAULT:
        return f.default_factory()
    return msgspec.NODEFAULT


def _tag(cls: type) -> str | None:
    return cls.__struct_config__.tag if issubclass(cls, Task) else None


def _members(t: Any) -> list[Any]:
    return [a for a in typing.get_args(t) if a is not _NONE]


def _is_union(t: Any) -> bool:
    return typing.get_origin(t) in (Union, types.UnionType)


# == writing =========================================================================================

def enc(v: Any, t: Any) -> str:
    """``v`` (of type ``t``) as a value of the line."""
    if v is None:
        return "~"
    if _is_union(t):
        ms = _members(t)
        for m in ms:
            if isinstance(m, type) and issubclass(m, msgspec.Struct) and isinstance(v, m):
                return enc(v, m)
        return enc(v, ms[0]) if len(ms) == 1 else enc_any(v)
    origin = typing.get_origin(t)
    if origin is Literal or t is str:
        return _atom(v)
    if t is bool:
        return "y" if v else "n"
    if t is int:
        return str(v)
    if origin in (tuple, list):
        args = typing.get_args(t)
        if origin is tuple and args and args[-1] is not Ellipsis:
            return "(" + ",".join(enc(x, a) for x, a in zip(v, args)) + ")"
        return seq(v, args[0] if args else Any)
    if origin is dict:
        vt = typing.get_args(t)[1]
        return "{" + ",".join(f"{_atom(k)}={enc(x, vt)}" for k, x in v.items()) + "}"
    if isinstance(t, type) and issubclass(t, msgspec.Struct):
        return struct(v, t)
    return enc_any(v)


def enc_any(v: Any) -> str:
    """A value of no declared type (an option's, a header's): JSON's true/false/null, numbers and
    texts (a word that would read as a number or a reserved word is quoted)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _atom(v)
    if isinstance(v, (list, tuple)):
        return seq(v, Any)
    if isinstance(v, dict):
        return "{" + ",".join(f"{_atom(k)}={enc_any(x)}" for k, x in v.items()) + "}"
    return json.dumps(v)


def seq(v: Any, t: Any) -> str:
    """A list, a run of equal items written once with ``*n``."""
    items = [enc(x, t) for x in v]
    out = []
    i = 0
    while i < len(items):
        j = i
        while j < len(items) and items[j] == items[i]:
            j += 1
        out.append(items[i] if j - i == 1 else f"{items[i]}*{j - i}")
        i = j
    return "(" + ",".join(out) + ")"


def struct(v: Any, cls: type, keys: dict[str, str] | None = None, base: Any = None, skip: tuple[str, ...] = ()) -> str:
    """A record: required fields in order, then ``name=value`` for the fields that differ from
    their default (or from ``base``'s); a task: its tag first, no parentheses when empty."""
    parts = []
    for f in _fields(cls):
        if f.name in skip:
            continue
        x = getattr(v, f.name)
        d = getattr(base, f.name) if base is not None else field_default(f)
        if d is msgspec.NODEFAULT:
            parts.append(enc(x, f.type))
        elif x != d:
            parts.append(f"{(keys or {}).get(f.name, f.name)}={enc(x, f.type)}")
    tag = _tag(cls)
    body = "(" + ",".join(parts) + ")" if parts or tag is None else ""
    return (tag or "") + body


def format_position(game: Any, s: S.State) -> str:
    """The line of ``s`` (see the module)."""
    setup = s.setup
    head = ",".join(_atom(p) for p in setup.players)
    extra = _or_empty(struct(setup, type(setup), skip=("game", "players")))  # game: colossi
    out = ["colossi", head + extra, island(s), players(s)]
    options = game.options_of(setup)  # what the set-up makes them: written only when they differ
    for f in _fields(S.State):
        if f.name in ("setup", "players", "spaces"):
            continue
        x = getattr(s, f.name)
        d = options if f.name == "options" else field_default(f)
        if x != d:
            out.append(f"{f.name}={enc(x, f.type)}")
    return " ".join(out)


def island(s: S.State) -> str:
    empty = S.Space(acolytes=(0,) * len(s.players))
    out: list[str] = []
    run = 0
    for sp in s.spaces:
        if sp == empty:
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        text = "." if sp.tile is None else _atom(sp.tile)
        if sp.owner is not None:
            text += "@" + _atom(sp.owner)
        rest = struct(sp, S.Space, SPACE_KEYS, empty, skip=("tile", "owner"))
        out.append(text + ("" if rest == "()" else rest))
    if run:
        out.append(str(run))
    return "/".join(out) or "-"


def players(s: S.State) -> str:
    return "/".join(_atom(p.id) + _or_empty(struct(p, S.Player, base=S.Player(p.id), skip=("id",))) for p in s.players)


def _or_empty(text: str) -> str:
    return "" if text == "()" else text


# == reading =========================================================================================

class Reader:
    """Reads a line into plain values (lists, dicts) by the declared types, left to right; every
    error names the part being read."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.items = 0
        self.path = "the line"

    def fail(self, why: str) -> NotationError:
        near = self.text[self.pos:self.pos + 24]
        return NotationError(self.text[:80], f"{self.path}: {why} (at character {self.pos + 1}: {near!r})")

    def peek(self, s: str) -> bool:
        return self.text.startswith(s, self.pos)

    def eat(self, s: str) -> bool:
        if self.text.startswith(s, self.pos):
            self.pos += len(s)
            return True
        return False

    def need(self, s: str) -> None:
        if not self.eat(s):
            raise self.fail(f"{s!r} expected")

    def gap(self) -> bool:
        """Spaces between the parts of the line (one or more)."""
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.pos > start

    def need_gap(self) -> None:
        if not self.gap():
            raise self.fail("a space expected")

    def word(self) -> str:
        if self.peek('"'):
            try:
                v, self.pos = json.JSONDecoder().raw_decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                raise self.fail(f"a quoted text that does not end ({exc.msg})") from None
            if not isinstance(v, str):
                raise self.fail("a text expected")
            return v
        m = _BARE.match(self.text, self.pos)
        if not m:
            raise self.fail("a word expected")
        self.pos = m.end()
        return m.group()

    def int(self) -> int:
        m = _INT.match(self.text, self.pos)
        if not m:
            raise self.fail("a number expected")
        self.pos = m.end()
        return int(m.group())

    def count(self) -> None:
        self.items += 1
        if self.items > MAX_ITEMS:
            raise self.fail(f"more than {MAX_ITEMS} values")

    def value(self, t: Any, depth: int = 0) -> Any:
        """One value of type ``t`` as plain data."""
        if depth > MAX_DEPTH:
            raise self.fail(f"nested deeper than {MAX_DEPTH}")
        self.count()
        if _is_union(t):
            if self.eat("~"):
                if _NONE not in typing.get_args(t):
                    raise self.fail("a value expected, not ~")
                return None
            ms = _members(t)
            if len(ms) == 1:
                return self.value(ms[0], depth)
            if all(isinstance(m, type) and issubclass(m, Task) for m in ms):
                return self.task(ms, depth)
            return self.any(depth)
        origin = typing.get_origin(t)
        if origin is Literal or t is str:
            return self.word()
        if t is bool:
            if self.eat("y"):
                return True
            if self.eat("n"):
                return False
            raise self.fail("y or n expected")
        if t is int:
            return self.int()
        if origin in (tuple, list):
            args = typing.get_args(t)
            if origin is tuple and args and args[-1] is not Ellipsis:
                self.need("(")
                out = []
                for i, a in enumerate(args):
                    if i:
                        self.need(",")
                    out.append(self.value(a, depth + 1))
                self.need(")")
                return out
            return self.seq(args[0] if args else Any, depth)
        if origin is dict:
            return self.mapping(typing.get_args(t)[1], depth)
        if isinstance(t, type) and issubclass(t, msgspec.Struct):
            return self.record(t, depth)
        return self.any(depth)

    def any(self, depth: int) -> Any:
        if self.peek("("):
            return self.seq(Any, depth)
        if self.peek("{"):
            return self.mapping(Any, depth)
        if self.peek('"'):
            return self.word()
        m = _INT.match(self.text, self.pos)
        if m and not _BARE.match(self.text, self.pos):
            self.pos = m.end()
            return int(m.group())
        w = self.word()
        return {"true": True, "false": False, "null": None}.get(w, w)

    def seq(self, t: Any, depth: int) -> list[Any]:
        self.need("(")
        out: list[Any] = []
        if self.eat(")"):
            return out
        while True:
            v = self.value(t, depth + 1)
            n = 1
            if self.eat("*"):
                n = self.int()
                if not 2 <= n <= MAX_RUN:
                    raise self.fail(f"a run of 2 to {MAX_RUN} expected, got {n}")
                self.items += n
                if self.items > MAX_ITEMS:
                    raise self.fail(f"more than {MAX_ITEMS} values")
            out += [v] * n
            if self.eat(")"):
                return out
            self.need(",")

    def mapping(self, t: Any, depth: int) -> dict[str, Any]:
        self.need("{")
        out: dict[str, Any] = {}
        if self.eat("}"):
            return out
        while True:
            k = self.word()
            self.need("=")
            out[k] = self.value(t, depth + 1)
            if self.eat("}"):
                return out
            self.need(",")

    def record(self, cls: type, depth: int, keys: dict[str, str] | None = None,
               skip: tuple[str, ...] = ()) -> dict[str, Any]:
        """``(required,...,name=value,...)`` as a dict of field names (no parentheses: none)."""
        fields = [f for f in _fields(cls) if f.name not in skip]
        by_key = {(keys or {}).get(f.name, f.name): f for f in fields}
        required = [f for f in fields if field_default(f) is msgspec.NODEFAULT]
        out: dict[str, Any] = {}
        if not self.eat("("):
            if required:
                raise self.fail(f"the fields of {cls.__name__} expected in parentheses")
            return out
        if self.eat(")"):
            if required:
                raise self.fail(f"{', '.join(f.name for f in required)} expected")
            return out
        i = 0
        while True:
            m = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=").match(self.text, self.pos)
            if m:
                f = by_key.get(m.group(1))
                if f is None:
                    raise self.fail(f"{cls.__name__} has no field {m.group(1)!r} (fields: {', '.join(by_key)})")
                self.pos = m.end()
            else:
                if i >= len(required):
                    raise self.fail(f"name=value expected (the fields of {cls.__name__}: {', '.join(by_key)})")
                f = required[i]
                i += 1
            out[f.name] = self.value(f.type, depth + 1)
            if self.eat(")"):
                break
            self.need(",")
        if i < len(required):
            raise self.fail(f"{', '.join(f.name for f in required[i:])} of {cls.__name__} expected")
        return out

    def task(self, members: list[Any], depth: int) -> dict[str, Any]:
        tags = {m.__struct_config__.tag: m for m in members}
        m = re.compile(r"[a-z][a-z0-9-]*").match(self.text, self.pos)
        cls = tags.get(m.group()) if m else None
        if cls is None:
            raise self.fail("a task of the queue expected (" + ", ".join(sorted(tags)) + ")")
        self.pos = m.end()  # type: ignore[union-attr]
        return {"task": m.group(), **self.record(cls, depth)}  # type: ignore[union-attr]


def parse_position(game: Any, text: str) -> S.State:
    """The position a :func:`format_position` line writes (NotationError naming the part that
    cannot be read, or the check it fails)."""
    if len(text) > MAX_LINE:
        raise NotationError(text[:80], f"a position line is at most {MAX_LINE} characters")
    r = Reader(text.strip())
    r.path = "the game"
    if not (r.eat("colossi") and (r.gap() or r.pos == len(r.text))):
        raise r.fail("a Colossi position starts with 'colossi'")
    r.path = "the set-up"
    players = [r.word()]
    while r.eat(","):
        players.append(r.word())
    setup = {"game": "colossi", "players": players, **r.record(S.MatchStarted, 0, skip=("game", "players"))}
    try:
        match = msgspec.convert(setup, S.MatchStarted)
        game.check_setup(match)
        start = game.initial_state(match)
    except (msgspec.ValidationError, AdjudicatorError, RefError, Illegal) as exc:  # a board, option, player count
        raise NotationError(text[:80], f"the set-up: {exc}") from None
    r.need_gap()
    r.path = "the island"
    spaces = read_island(r, len(players))
    r.need_gap()
    r.path = "the players"
    seats = []
    while True:
        pid = r.word()
        r.path = f"player {pid}"
        seats.append({"id": pid, **r.record(S.Player, 1, skip=("id",))})
        if not r.eat("/"):
            break
    doc: dict[str, Any] = {**msgspec.to_builtins(start), "players": seats, "spaces": spaces}
    for f in _fields(S.State):
        if f.name not in ("setup", "players", "spaces", "options"):
            doc[f.name] = msgspec.to_builtins(field_default(f))
    fields = {f.name: f for f in _fields(S.State)}
    while r.gap() and r.pos < len(r.text):
        m = re.compile(r"([a-z_]+)=").match(r.text, r.pos)
        if not m or m.group(1) not in fields or m.group(1) in ("setup", "players", "spaces"):
            r.path = "a field of the position"
            raise r.fail("name=value expected (" + ", ".join(f for f in fields if f not in ("setup", "players", "spaces")) + ")")
        r.pos = m.end()
        r.path = m.group(1)
        doc[m.group(1)] = r.value(fields[m.group(1)].type)
    if r.pos != len(r.text):
        r.path = "the end of the line"
        raise r.fail("nothing more expected")
    try:
        s = msgspec.convert(doc, S.State)
        game.check_position(s)
    except msgspec.ValidationError as exc:
        raise NotationError(text[:80], f"not a Colossi position: {exc}") from None
    if s.unseen is not None or not _shows_hidden(s):  # a seat's view (observe) names no card it hides
        broken = game.invariants(s)
        if broken:
            where, why = broken[0]
            raise NotationError(text[:80], f"not a Colossi position: {where}: {why}")
    return s


def _shows_hidden(s: S.State) -> bool:
    """Whether ``s`` is a seat's view (``game.observe``): hidden values ``?`` without the record's
    list of what they can be, which the invariants of a full position refuse."""
    return any(HIDDEN in p.hand for p in s.players) or any(
        HIDDEN in z for z in (s.card_deck, s.card_top, s.tile_deck, s.tile_top, s.tile_box, s.trait_deck))


def read_island(r: Reader, seats: int) -> list[Any]:
    out: list[Any] = []
    empty = msgspec.to_builtins(S.Space(acolytes=(0,) * seats))
    if r.eat("-"):
        return out
    while True:
        r.path = f"the island, space {len(out)}"
        m = re.compile(r"[0-9]{1,4}(?![A-Za-z_.?'+-])").match(r.text, r.pos)
        if m:
            n = int(m.group())
            if not 1 <= n <= 1000:
                raise r.fail("a run of 1 to 1000 empty spaces expected")
            r.pos = m.end()
            out += [dict(empty) for _ in range(n)]
        else:
            sp = dict(empty)
            sp["tile"] = None if r.eat(".") else r.word()
            if r.eat("@"):
                sp["owner"] = r.word()
            sp.update(r.record(S.Space, 1, SPACE_KEYS, skip=("tile", "owner")))
            out.append(sp)
        if len(out) > 1000:
            raise r.fail("more than 1000 spaces")
        if not r.eat("/"):
            return out
