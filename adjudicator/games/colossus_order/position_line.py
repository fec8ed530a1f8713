"""A Colossus Order position in one line (FEN's idea; issue 30): what a judge types at a table
where nobody kept a log, read back exactly.

The line is sections separated by `` / ``: the match, then one section a seat (in the set-up's
order).  A section is words separated by spaces: first its positional words, then ``name=value``
for every field of the position that is not at its default (the field names of the position
document, docs/games/colossus-order.md "Notation" lists them)::

    sample 2013 main 5 turn_player=p1 first=p1 next_handle=4 todo=[window:p2,resolve]
    / p1 tidal-spire-colossus {blue-gem:10,...} hand=[blue-gem*2,mist-heron] deck_top=[?*38] ...
    / p2 ...

- match: the pool, the ruleset, the phase, the turn; then ``options={...}`` (the set-up's
  overrides), ``pool_sha256``, ``meta``, ``note`` when the set-up has them, then the rest of the
  position (``turn_player``, ``todo``, ``chain``, ``attack``, ``result``, ...);
- a seat: its id, its Colossus, its deck list (``{card:copies,...}``; ``{}`` with ``deck_size=N``
  for a list the record leaves unknown), then its zones and counters (``hand``, ``deck_top``,
  ``locus``, ``field``, ``gem_set``, ...).

Values: ``-`` is null; a word of letters, digits and ``_.+-?#@!^~%&<>`` is itself (a card id, a
seat, a number: the field's type says which); anything else is a JSON string (``"revealed by
F2"``); ``[a,b*3]`` a list (``b*3``: three ``b`` in a row); ``{key:value,...}`` a record (the
attack, a result), its fields at their defaults left out; followers, Locus slots, tasks and
chain items have short forms (``F4:lava-giant:off:t21``, ``2:white-gem:up``, ``window:p2:1``,
``p1:follower:grave-rat``, see :func:`_short`).  ``?`` is a value the seat
cannot see (``format_position(state, seat)`` writes :func:`observe`'s view).
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from adjudicator.core.kernel.notation import NotationError
from adjudicator.core.kernel.suggest import closest

#: the longest position line read, the most list items it may expand to, the deepest nesting
MAX_LINE = 2_000_000
MAX_ITEMS = 200_000
MAX_DEPTH = 12

_PLAIN = re.compile(r"[A-Za-z0-9_.+?#@!^~%&<>-]+\Z")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z0-9_.+?#@!^~%&<>-]+|[\[\]{},:*=]|\s+|.', re.S)


# -- values --------------------------------------------------------------------------------------

def _scalar(v: Any) -> str:
    if v is None:
        return "-"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    return s if _PLAIN.match(s) and s != "-" else json.dumps(s, ensure_ascii=False)


class _Chain(list):
    """``a:b:c`` in a list: a follower or a Locus slot written short."""


#: a follower's short form: ``F4:caoren-berserker:t15:b2.0.1.0`` (handle, card, then what is
#: not at its default: off, attacked, t<turn played>, d<damage>, b<boosts>, atk<n>, def<n>)
_MODS = re.compile(r"(off|attacked)|t(-?[0-9]+)|d(-?[0-9]+)|b(-?[0-9]+)\.(-?[0-9]+)\.(-?[0-9]+)\.(-?[0-9]+)|atk(-?[0-9]+)|def(-?[0-9]+)\Z")


def _tasks() -> dict[str, type]:
    """The task types of the queue by tag (``window`` -> Window)."""
    from typing import get_args

    from .state import AnyTask

    return {cls.__struct_config__.tag: cls for cls in get_args(AnyTask)}


def _positional(v: msgspec.Struct, head: list[str]) -> str:
    """``head`` then the fields of ``v`` in order, the trailing ones at their defaults left out."""
    fields = _struct_fields(type(v))
    values = [getattr(v, f.name) for f in fields]
    while values and not fields[len(values) - 1].required and values[-1] == fields[len(values) - 1].default:
        values.pop()
    return ":".join(head + [write_value(x) for x in values])


def _short(v: Any) -> str | None:
    """A follower (``F1:grave-rat:off:t3``), a Locus slot (``2:white-gem:up``, ``:known``), a
    task of the queue (``window:p2:1``: its tag, then its fields in order) or an item of the
    chain (``p1:follower:grave-rat``) in its short form; None for any other value."""
    from adjudicator.core.kernel.kit import Task

    from .state import ChainItem, Follower, LocusSlot

    if isinstance(v, Task):
        return _positional(v, [v.__struct_config__.tag])
    if type(v) is ChainItem:
        return _positional(v, [])

    if type(v) is LocusSlot:
        flags = [w for w, on in (("up", v.face_up), ("known", v.known)) if on]
        return ":".join([str(v.id), _scalar(v.card), *flags])
    if type(v) is Follower:
        mods = ["off"] if not v.on else []
        mods += [f"t{v.played_turn}"] if v.played_turn else []
        mods += [f"d{v.damage}"] if v.damage else []
        mods += ["attacked"] if v.attacked else []
        mods += ["b" + ".".join(map(str, v.boost))] if any(v.boost) else []
        mods += [] if v.set_attack is None else [f"atk{v.set_attack}"]
        mods += [] if v.set_defence is None else [f"def{v.set_defence}"]
        return ":".join([_scalar(v.handle), _scalar(v.card), *mods])
    return None


def _long(chain: Any, key: str, where: str) -> Any:
    """A short form read back as the record it stands for (``key``: the field it is in)."""
    if key == "todo" and isinstance(chain, (str, _Chain)):
        items = [chain] if isinstance(chain, str) else list(chain)
        cls = _tasks().get(str(items[0]))
        if cls is None:
            raise NotationError(where, f"{where}: no task {items[0]!r} ({', '.join(sorted(_tasks()))})")
        return _by_position(cls, items[1:], where, {"task": items[0]})
    if key == "chain" and isinstance(chain, _Chain):
        from .state import ChainItem

        return _by_position(ChainItem, list(chain), where, {})
    if not isinstance(chain, _Chain):
        return chain
    if key == "locus":
        if len(chain) < 2 or any(f not in ("up", "known") for f in chain[2:]):
            raise NotationError(where, f"{where}: a Locus slot is <id>:<card>[:up][:known], not {':'.join(map(str, chain))}")
        return {"id": chain[0], "card": chain[1], "face_up": "up" in chain[2:], "known": "known" in chain[2:]}
    if key == "field" and len(chain) >= 2:
        out: dict[str, Any] = {"handle": chain[0], "card": chain[1]}
        for mod in chain[2:]:
            m = _MODS.fullmatch(str(mod))
            if m is None:
                raise NotationError(where, f"{where}: {mod!r} is none of off, attacked, t<turn>, d<damage>, "
                                           "b<a.d.c.p>, atk<n>, def<n>")
            if m.group(1):
                out["on" if m.group(1) == "off" else "attacked"] = m.group(1) != "off"
            for k, g in (("played_turn", 2), ("damage", 3), ("set_attack", 8), ("set_defence", 9)):
                if m.group(g) is not None:
                    out[k] = int(m.group(g))
            if m.group(4) is not None:
                out["boost"] = [int(m.group(i)) for i in range(4, 8)]
        return out
    raise NotationError(where, f"{where}: {':'.join(map(str, chain))} (a:b is a follower or a Locus slot only)")


def _by_position(cls: type, values: list[Any], where: str, out: dict[str, Any]) -> dict[str, Any]:
    fields = _struct_fields(cls)
    if len(values) > len(fields):
        raise NotationError(where, f"{where}: {len(values)} values, {cls.__name__} has {len(fields)} fields "
                                   f"({', '.join(f.name for f in fields)})")
    return {**out, **{f.name: v for f, v in zip(fields, values)}}


def write_value(v: Any) -> str:
    """A value in the line's syntax (Structs: their fields that differ from the defaults)."""
    short = _short(v)
    if short is not None:
        return short
    if isinstance(v, msgspec.Struct):
        return "{" + ",".join(f"{k}:{write_value(x)}" for k, x in _fields(v)) + "}"
    if isinstance(v, dict):
        return "{" + ",".join(f"{_scalar(k)}:{write_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        out, i = [], 0
        while i < len(v):
            j = i
            while j < len(v) and v[j] == v[i]:
                j += 1
            item = write_value(v[i])
            out.append(item if j - i == 1 else f"{item}*{j - i}")
            i = j
        return "[" + ",".join(out) + "]"
    return _scalar(v)


def _fields(v: msgspec.Struct) -> list[tuple[str, Any]]:
    """The fields of ``v`` to write: its tag, then those not at their defaults."""
    out: list[tuple[str, Any]] = []
    cfg = v.__struct_config__
    if cfg.tag_field is not None:
        out.append((cfg.tag_field, cfg.tag))
    for f in _struct_fields(type(v)):
        x = getattr(v, f.name)
        if f.required or x != (f.default if f.default is not msgspec.NODEFAULT else f.default_factory()):
            out.append((f.name, x))
    return out


_FIELDS: dict[type, tuple[Any, ...]] = {}


def _struct_fields(cls: type) -> tuple[Any, ...]:
    """``msgspec.structs.fields(cls)``, once per type (it resolves the annotations every call)."""
    got = _FIELDS.get(cls)
    if got is None:
        got = _FIELDS[cls] = msgspec.structs.fields(cls)
    return got


class _Reader:
    """A recursive-descent reader of one value (bounded: length, items, depth)."""

    def __init__(self, text: str, where: str) -> None:
        self.toks = [t for t in _TOKEN.findall(text) if not t.isspace()]
        self.i = 0
        self.where = where
        self.items = 0

    def fail(self, what: str) -> NotationError:
        return NotationError(self.where, f"{self.where}: {what}")

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        t = self.peek()
        if t is None or (want is not None and t != want):
            raise self.fail(f"expected {want or 'a value'}, found {t or 'the end'}")
        self.i += 1
        return t

    def value(self, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested deeper than {MAX_DEPTH}")
        t = self.take()
        if t == "[":
            out: list[Any] = []
            self._until("]", "a list", lambda: self._item(out, depth))
            return out
        if t == "{":
            rec: dict[str, Any] = {}
            self._until("}", "a record", lambda: self._pair(rec, depth))
            return rec
        if t.startswith('"'):
            try:
                return json.loads(t)
            except ValueError:
                raise self.fail(f"a bad quoted string {t[:40]}") from None
        if t == "-":
            return None
        if _PLAIN.match(t):
            return t
        raise self.fail(f"unexpected {t!r}")

    def _until(self, close: str, what: str, one: Any) -> None:
        """Items read by ``one`` separated by commas, up to ``close``."""
        while self.peek() != close:
            one()
            if self.peek() == ",":
                self.take()
            elif self.peek() != close:
                raise self.fail(f"expected , or {close} in {what}, found {self.peek() or 'the end'}")
        self.take(close)

    def _item(self, out: list[Any], depth: int) -> None:
        item = self.value(depth + 1)
        if self.peek() == ":":  # a follower or a Locus slot written short (F1:grave-rat:off)
            chain = _Chain([item])
            while self.peek() == ":":
                self.take()
                chain.append(self.value(depth + 1))
            item = chain
        n = 1
        if self.peek() == "*":
            self.take()
            c = self.take()
            if not re.fullmatch(r"[0-9]{1,7}", c):
                raise self.fail(f"a repeat count, found {c}")
            n = int(c)
        self.items += n
        if self.items > MAX_ITEMS:
            raise self.fail(f"more than {MAX_ITEMS} items")
        out += [item] * n

    def _pair(self, rec: dict[str, Any], depth: int) -> None:
        k = self.value(depth + 1)
        self.take(":")
        rec[str(k)] = self.value(depth + 1)

    def whole(self) -> Any:
        v = self.value()
        if self.peek() is not None:
            raise self.fail(f"unexpected {self.peek()!r} after the value")
        return v


def read_value(text: str, where: str) -> Any:
    return _Reader(text, where).whole()


def _words(section: str) -> list[str]:
    """A section's words: split on spaces outside quotes and brackets."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for tok in _TOKEN.findall(section):
        if tok in ("[", "{"):
            depth += 1
        elif tok in ("]", "}"):
            depth -= 1
        if tok.isspace() and depth <= 0:
            if cur:
                out.append("".join(cur))
            cur = []
        else:
            cur.append(tok)
    if cur:
        out.append("".join(cur))
    return out


# -- the set-up (MatchStarted's notation) ------------------------------------------------------------

def setup_text(setup: Any) -> str:
    """The set-up as ``MatchStarted``'s notation writes it: ``start players=[alice,bob]
    decks={alice:{colossus:...,cards:{red-gem:17,...}},...}``, then every other field not at its
    default (``ruleset=``, ``pool=``, ``options={...}``, ``meta={...}``), values as the position
    line writes them; :func:`parse_setup` reads it back."""
    doc = msgspec.to_builtins(setup)
    out = ["start"]
    for f in msgspec.structs.fields(type(setup)):
        if f.name == "game" or f.name not in doc:
            continue
        v = getattr(setup, f.name)
        if f.name not in ("players", "decks") and (v == f.default or (f.default_factory is not msgspec.NODEFAULT
                                                                       and v == f.default_factory())):
            continue
        out.append(f"{f.name}={write_value(doc[f.name])}")
    return " ".join(out)


def parse_setup(game: Any, text: str) -> Any:
    """The ``MatchStarted`` a :func:`setup_text` line writes (:class:`NotationError` naming the
    field that does not read)."""
    from .events import MatchStarted

    if len(text) > MAX_LINE:
        raise NotationError(text[:80], f"longer than {MAX_LINE:,} characters")
    words = _words(text.strip())
    if not words or words[0].casefold() != "start":
        raise NotationError(text[:80], "a set-up starts 'start players=[...] decks={...}'")
    allowed = {f.name for f in msgspec.structs.fields(MatchStarted)} - {"game"}
    _pos, named = _named(words[1:], 0, "the set-up", allowed)
    try:
        return _setup_of({"type": "MatchStarted", "game": game.id, **named})
    except msgspec.ValidationError as exc:
        raise NotationError(text[:80], f"the set-up: {exc}") from None


def _setup_of(setup: dict[str, Any]) -> Any:
    """The ``MatchStarted`` of a set-up read from a line, its options typed as the rules' own
    (``true`` a bool, ``8`` a number), each field at its default holding the default itself."""
    from .events import MatchStarted
    from .state import Options

    fields = {f.name: f.type for f in _struct_fields(Options)}
    opts = setup.get("options") or {}
    if not isinstance(opts, dict):
        raise NotationError("options", "options: a record {name:value,...}")
    setup["options"] = {k: msgspec.convert(v, fields[k], strict=False) if k in fields else v for k, v in opts.items()}
    return _as_defaults(msgspec.convert(setup, MatchStarted, strict=False))


# -- the line ------------------------------------------------------------------------------------

#: positional words of the match section, of a seat's section
_MATCH_POS = ("pool", "ruleset", "phase", "turn")
_SEAT_POS = ("id", "colossus", "cards")
#: the set-up's fields written in the match section (besides pool and ruleset)
_SETUP_KEYS = ("options", "pool_sha256", "meta", "note", "seq", "at", "prev", "game", "players")


def format_position(game: Any, state: Any) -> str:
    setup = state.setup
    match = [_scalar(setup.pool), _scalar(setup.ruleset), _scalar(state.phase), _scalar(state.turn)]
    for k in _SETUP_KEYS:
        v = getattr(setup, k)
        default = {"game": game.id, "players": [p.id for p in state.players]}.get(k)
        if k in ("game", "players"):
            if v != default:
                match.append(f"setup_{k}={write_value(v)}")
        elif v not in (None, {}):
            match.append(f"{k}={write_value(v)}")
    if state.options != game.options_of(setup):
        match.append(f"rules={write_value(state.options)}")
    skip = {"setup", "options", "players", "phase", "turn"}
    for k, v in _fields(state):
        if k not in skip:
            match.append(f"{k}={write_value(v)}")
    sections = [" ".join(match)]
    for p in state.players:
        deck = setup.decks.get(p.id)
        words = [_scalar(p.id), _scalar(deck.colossus if deck else p.colossus), write_value(deck.cards) if deck else "-"]
        if deck is not None and deck.size is not None:
            words.append(f"deck_size={deck.size}")
        for k, v in _fields(p):
            if k == "id" or (k == "colossus" and deck is not None and v == deck.colossus):
                continue
            words.append(f"{k}={write_value(v)}")
        sections.append(" ".join(words))
    extra = [pid for pid in setup.decks if pid not in {p.id for p in state.players}]
    if extra:
        sections[0] += f" setup_decks={write_value({pid: setup.decks[pid] for pid in extra})}"
    return " / ".join(sections)


def _sections(text: str) -> list[str]:
    """The line split on `` / `` outside quotes and brackets."""
    out, cur = [], []
    for w in _words(text):
        if w == "/":
            out.append(cur)
            cur = []
        else:
            cur.append(w)
    out.append(cur)
    return [" ".join(ws) for ws in out]


def _named(words: list[str], npos: int, where: str, allowed: set[str]) -> tuple[list[str], dict[str, Any]]:
    if len(words) < npos:
        raise NotationError(where, f"{where}: {npos} words first ({len(words)} found)")
    named: dict[str, Any] = {}
    for w in words[npos:]:
        k, eq, v = w.partition("=")
        if not eq or not re.fullmatch(r"[a-z_]+", k):
            raise NotationError(where, f"{where}: {w[:40]!r} is not name=value")
        if k in named:
            raise NotationError(where, f"{where}: {k} twice")
        if k not in allowed:
            near = closest(k, allowed)
            raise NotationError(where, f"{where}: no field {k!r}" + (f" (did you mean {near!r}?)" if near else ""),
                                [near] if near else [])
        value = read_value(v, f"{where}, {k}")
        named[k] = [_long(x, k, f"{where}, {k}") for x in value] if isinstance(value, list) else value
    return words[:npos], named


def parse_position(game: Any, text: str) -> Any:
    from .events import DeckList, MatchStarted
    from .state import Options, Player, State

    if len(text) > MAX_LINE:
        raise NotationError(text[:80], f"a position line is at most {MAX_LINE} characters")
    secs = _sections(text.strip())
    if len(secs) < 2:
        raise NotationError(text[:80], "a position line is the match, then ' / ' and a section per seat")
    match_fields = {f.name for f in _struct_fields(State)} - {"setup", "options", "players"} | set(_SETUP_KEYS) | {
        "rules", "setup_decks", "setup_game", "setup_players"}
    pos, named = _named(_words(secs[0]), len(_MATCH_POS), "the match section", match_fields - {"phase", "turn"})
    pool, ruleset, phase, turn = (read_value(w, f"the match section, {n}") for w, n in zip(pos, _MATCH_POS))
    seat_fields = {f.name for f in _struct_fields(Player)} - {"id"} | {"deck_size"}
    seats: list[dict[str, Any]] = []
    decks: dict[str, Any] = dict(named.pop("setup_decks", None) or {})
    for i, sec in enumerate(secs[1:], 1):
        where = f"seat section {i}"
        spos, pnamed = _named(_words(sec), len(_SEAT_POS), where, seat_fields)
        pid, colossus, cards = (read_value(w, f"{where}, {n}") for w, n in zip(spos, _SEAT_POS))
        size = pnamed.pop("deck_size", None)
        if cards is not None:
            decks[str(pid)] = {"colossus": colossus, "cards": cards, **({"size": size} if size is not None else {})}
        seats.append({"id": pid, "colossus": pnamed.pop("colossus", colossus), **pnamed})
    setup: dict[str, Any] = {"type": "MatchStarted", "game": named.pop("setup_game", game.id),
                             "players": named.pop("setup_players", [s["id"] for s in seats]),
                             "decks": decks, "ruleset": ruleset, "pool": pool}
    for k in _SETUP_KEYS:
        if k in named and k not in ("game", "players"):
            setup[k] = named.pop(k)
    try:
        setup_ev = _setup_of(setup)
        rules = named.pop("rules", None)
        options = msgspec.convert(rules, Options, strict=False) if rules is not None else game.options_of(setup_ev)
        players = []
        for i, seat in enumerate(seats, 1):
            try:
                players.append(msgspec.convert(seat, Player, strict=False))
            except msgspec.ValidationError as exc:
                raise NotationError(text[:80], f"seat section {i} ({seat.get('id')}): {exc}") from None
        doc = {**named, "phase": phase, "turn": turn, "setup": msgspec.to_builtins(setup_ev),
               "options": msgspec.to_builtins(options), "players": []}
        out = msgspec.structs.replace(msgspec.convert(doc, State, strict=False),
                                      setup=setup_ev, options=options, players=tuple(players))
    except msgspec.ValidationError as exc:
        raise NotationError(text[:80], f"the position does not read: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - a set-up the game refuses (RefError): named, no traceback
        raise NotationError(text[:80], f"the position does not read: {exc}") from None
    try:
        game.load_setup(out)
        game.check_position(out)
    except msgspec.ValidationError as exc:
        raise NotationError(text[:80], f"the position cannot exist: {exc}") from None
    return out


def _as_defaults(v: Any) -> Any:
    """``v`` with each field equal to its default holding the default itself: a set-up encodes
    (and hashes) the same as the one written (``omit_defaults`` leaves out a default by identity)."""
    same = {f.name: f.default for f in _struct_fields(type(v))
            if f.default is not msgspec.NODEFAULT and getattr(v, f.name) == f.default and getattr(v, f.name) is not f.default}
    return msgspec.structs.replace(v, **same) if same else v
