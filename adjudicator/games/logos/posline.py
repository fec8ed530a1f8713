"""A LOGOS position in one line (FEN's idea; docs/games/logos.md, "The position in one line").

The line is fields separated by spaces::

    logos r<ROUND> <PHASE>[/<STEP>] <PLAYER>:<HP>:<SLOTS> <PLAYER>:<HP>:<SLOTS> [KEY=VALUE ...]

then, for what differs from a fresh value, ``<player>.<field>=`` (``ann.deck=iron-golem*2,storm-coil``)
and ``<field>=`` of the position (``direction=class:ben>ann``), and the set-up: ``list.<player>=``
(the deck list, ``card*copies``; ``?`` an unknown list), ``opt.<option>=``, ``ruleset=``,
``pool=``, ``pool_sha256=``, ``meta.<tag>=``.  ``as=<player>`` says whose view a line is.

Values: a list is its items joined by ``,``, a run of one item written ``item*count``
(``?*21``, FEN's compressed runs); ``-`` is an empty value (an empty slot, no card); ``~`` the
empty text; any other character that is not a letter, a digit or one of ``-_?!@'`` is written
``%XX`` (UTF-8, as in a URL), so a value never holds a space, ``,``, ``:``, ``=`` or ``*`` of its
own.  A bare ``<player>.<flag>`` is a flag that is set.  What a seat's record rarely holds: open
conditions (LG-37) as ``pending=<condition in words, + for a space>|<need>|...,...``, what a seat
saw (LG-41) as ``seen=<player>:<shown>:<top>;...``, and the other positions the match may be in
(LG-38) each after `` | `` as a line of its own (JSON only for an alternative's own alternatives).  Every size a line controls is bounded (:data:`MAX_LINE`,
:data:`MAX_ITEMS`).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote

import msgspec

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.limits import MAX_DEPTH
from adjudicator.core.kernel.notation import NotationError
from adjudicator.core.kernel.protocol import RefError

from . import events as E
from .state import Options, Player, State

#: the longest position line read (a deck of the largest size with every card named apart fits)
MAX_LINE = 1_000_000
#: the most items one list of a line may hold (runs expanded), and the most fields of a line
MAX_ITEMS = 100_000
MAX_FIELDS = 10_000

_SAFE = set("-_?!@'")
_INT = re.compile(r"-?\d{1,30}")

#: how each field of a player and of the position is written (what is not listed is not written)
PLAYER_KINDS = {
    "deck": "list", "discard": "list", "backup": "str", "combo": "list", "commitment": "str", "battle": "str",
    "public": "bool", "defenseless": "bool", "mods": "list", "double_combo": "bool", "shield": "bool",
    "unknown": "text", "unseen": "list", "deck_open": "bool", "top": "list", "held": "list",
}
STATE_KINDS = {
    "direction": "direction", "effects": "effects", "priority": "str", "passed": "list", "striker": "str",
    "strikes": "int", "pushes": "pushes", "shared_combo": "list", "due": "list", "stall": "int",
    "result": "result", "pending_end": "result", "blind_step": "text", "unknowns": "bool", "alts": "json",
    "assumed": "text", "pending": "pending", "seen": "seen", "look": "json",
}
SETUP_ENVELOPE = {"seq": "int", "at": "str", "note": "str", "prev": "str"}
#: the word before each other position a seat's record may be in (``alts``, LG-38)
ALT = "|"


def _defaults(cls: type) -> dict[str, Any]:
    out = {}
    for f in msgspec.structs.fields(cls):
        if f.default is not msgspec.NODEFAULT:
            out[f.name] = msgspec.to_builtins(f.default)
        elif f.default_factory is not msgspec.NODEFAULT:
            out[f.name] = msgspec.to_builtins(f.default_factory())
    return out


PLAYER_DEFAULTS = _defaults(Player)
STATE_DEFAULTS = _defaults(State)
OPTION_TYPES = {f.name: f.type for f in msgspec.structs.fields(Options)}


# -- values ---------------------------------------------------------------------------------------

def enc(s: str | None) -> str:
    if s is None:
        return "-"
    if s == "":
        return "~"
    if s == "-":
        return "%2D"
    return "".join(c if c.isalnum() or c in _SAFE else "".join(f"%{b:02X}" for b in c.encode()) for c in s)


#: the first words of the position's own keys: a player so named is written with its first
#: letter as %XX, so that its fields (``<player>.<field>``) read as the player's
HEADS = frozenset({"list", "opt", "meta", "setup", "o", "as", "players", "ruleset", "pool", "pool_sha256", *STATE_KINDS})


def enc_player(p: str) -> str:
    e = enc(p)
    return f"%{ord(e[0]):02X}{e[1:]}" if e in HEADS else e


def dec(s: str, where: str) -> str | None:
    if s == "-":
        return None
    if s == "~":
        return ""
    try:
        return unquote(s, errors="strict")
    except UnicodeDecodeError:
        raise NotationError(s[:80], f"{where}: {s[:40]!r} is no UTF-8 text") from None


def enc_list(items: list[Any]) -> str:
    out: list[str] = []
    i = 0
    while i < len(items):
        j = i
        while j < len(items) and items[j] == items[i]:
            j += 1
        out.append(enc(items[i]) + (f"*{j - i}" if j - i > 1 else ""))
        i = j
    return ",".join(out)


def dec_list(s: str, where: str) -> list[Any]:
    if s == "":
        return []
    out: list[Any] = []
    for piece in s.split(","):
        item, star, count = piece.partition("*")
        n = 1
        if star:
            if not re.fullmatch(r"\d{1,7}", count) or int(count) < 2:
                raise NotationError(piece[:80], f"{where}: {piece[:40]!r} is no run (ITEM*COUNT, COUNT 2 or more)")
            n = int(count)
        if len(out) + n > MAX_ITEMS:
            raise NotationError(s[:80], f"{where}: more than {MAX_ITEMS:,} items")
        out += [dec(item, where)] * n
    return out


def _int(s: str, where: str) -> int:
    if not _INT.fullmatch(s):
        raise NotationError(s[:80], f"{where}: {s[:40]!r} is not a whole number")
    return int(s)


def enc_value(kind: str, v: Any) -> str | None:
    """The text of a builtins value (None: a flag that is set, written as its bare key)."""
    if kind == "list":
        return enc_list(v)
    if kind in ("str", "text"):
        return enc(v)
    if kind == "int":
        return str(v)
    if kind == "bool":
        return None if v else "0"
    if kind == "direction":
        if v["attacker"] is None and v["defender"] is None:
            return v["basis"]
        return f"{v['basis']}:{enc(v['attacker'])}>{enc(v['defender'])}"
    if kind == "effects":
        return ",".join(f"{enc(x['player'])}:{enc(x['card'])}:{x['field']}" for x in v)
    if kind == "pushes":
        return ",".join(":".join([enc(x["counter"])] + [enc(c) for c in x["colours"]]) for x in v)
    if kind == "result":
        return "-" if v is None else f"{v['result']}:{enc(v['winner'])}:{enc(v['reason'])}"
    if kind == "pending":
        return ",".join("|".join([enc_words(x["condition"])] + [":".join(enc(k) for k in n.split(":")) for n in x["needs"]])
                        for x in v)
    if kind == "seen":
        return ";".join(f"{enc(x['player'])}:{enc_list(x['shown'])}:{enc_list(x['top'])}" for x in v)
    return enc(json.dumps(v, separators=(",", ":"), ensure_ascii=False))


def enc_words(s: str) -> str:
    """A text of words as a value (an open condition): a space is ``+`` (a ``+`` of its own ``%2B``)."""
    return "".join("+" if c == " " else "%2D" if c == "-" else enc(c) for c in s) or "~"


def dec_words(s: str, where: str) -> str:
    return dec(s.replace("+", "%20"), where) or ""


def dec_value(kind: str, s: str | None, where: str) -> Any:
    if kind == "bool":
        if s not in (None, "1", "0"):
            raise NotationError(s[:80], f"{where}: a flag is written bare (set) or =0")
        return s != "0"
    if s is None:
        raise NotationError(where, f"{where}: a value is missing ({where}=VALUE)")
    if kind == "list":
        return dec_list(s, where)
    if kind == "str":
        return dec(s, where)
    if kind == "text":
        v = dec(s, where)
        return "" if v is None else v
    if kind == "int":
        return _int(s, where)
    if kind == "direction":
        basis, _, who = s.partition(":")
        att, _, dfd = who.partition(">")
        return {"basis": basis, "attacker": dec(att, where) if who else None, "defender": dec(dfd, where) if who else None}
    if kind == "effects":
        return [{"player": dec(p[0], where), "card": dec(p[1], where), "field": p[2]}
                for p in _records(s, ",", where, 3, "an effect to fire is PLAYER:CARD:FIELD")]
    if kind == "pushes":
        return [{"counter": dec(p[0], where), "colours": [dec(c, where) for c in p[1:]]} for p in _records(s, ",", where)]
    if kind == "pending":
        out = []
        for item in s.split(",") if s else []:
            cond, *needs = item.split("|")
            out.append({"condition": dec_words(cond, where),
                        "needs": [":".join(str(dec(k, where)) for k in n.split(":")) for n in needs]})
        return out
    if kind == "seen":
        return [{"player": dec(p[0], where), "shown": dec_list(p[1], where), "top": dec_list(p[2], where)}
                for p in _records(s, ";", where, 3, "what a seat saw is PLAYER:SHOWN:TOP")]
    if kind == "result":
        if s == "-":
            return None
        parts = s.split(":")
        if len(parts) != 3:
            raise NotationError(s[:80], f"{where}: a result is win|draw:WINNER:REASON")
        return {"result": parts[0], "winner": dec(parts[1], where), "reason": dec(parts[2], where)}
    text = dec(s, where) or ""
    if _depth(text) > MAX_DEPTH:
        raise NotationError(s[:80], f"{where}: nested deeper than {MAX_DEPTH}")
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError as exc:
        raise NotationError(s[:80], f"{where}: not JSON ({exc})") from None


def _records(s: str, sep: str, where: str, size: int | None = None, shape: str = "") -> list[list[str]]:
    """The items of a value split on ``sep``, each split on ``:`` (into ``size`` parts when given)."""
    out = []
    for item in s.split(sep) if s else []:
        parts = item.split(":")
        if size is not None and len(parts) != size:
            raise NotationError(item[:80], f"{where}: {shape}")
        out.append(parts)
    return out


def _depth(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (strings skipped)."""
    depth = most = 0
    in_str = escaped = False
    for ch in text:
        if in_str:
            escaped, in_str = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            most = max(most, depth)
        elif ch in "]}":
            depth -= 1
    return most


def enc_option(v: Any) -> str:
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if v is None or isinstance(v, str):
        return enc(v)
    return enc(json.dumps(v))


def dec_option(name: str, s: str) -> Any:
    typ = str(OPTION_TYPES.get(name, ""))
    if s == "-":
        return None
    if "bool" in typ and s in ("true", "false"):
        return s == "true"
    if "int" in typ and _INT.fullmatch(s):
        return int(s)
    return dec(s, f"opt.{name}")


# -- the set-up -----------------------------------------------------------------------------------

def setup_fields(setup: E.MatchStarted) -> list[str]:
    """The set-up's fields of a line (its players aside)."""
    out = []
    for p, deck in setup.decks.items():
        items = ",".join(("%3F" if c == "?" else enc(c)) + ("" if n == 1 else f"*{n}") for c, n in deck.items())
        out.append(f"list.{enc(p)}={items or '?'}")
    if setup.ruleset != "standard":
        out.append(f"ruleset={enc(setup.ruleset)}")
    out += [f"opt.{enc(k)}={enc_option(v)}" for k, v in setup.options.items()]
    if setup.pool != "sample":
        out.append(f"pool={enc(setup.pool)}")
    if setup.pool_sha256 is not None:
        out.append(f"pool_sha256={enc(setup.pool_sha256)}")
    out += [f"meta.{enc(k)}={enc(v)}" for k, v in setup.meta.items()]
    return out


def setup_text(setup: E.MatchStarted) -> str:
    """The set-up as ``MatchStarted``'s notation writes it: ``ann,ben list.ann=... opt....``."""
    return " ".join([enc_list(list(setup.players))] + setup_fields(setup))


def _fields(text: str, parts: list[str]) -> dict[str, str | None]:
    if len(parts) > MAX_FIELDS:
        raise NotationError(text[:80], f"more than {MAX_FIELDS:,} fields")
    out: dict[str, str | None] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if key in out:
            raise NotationError(part[:80], f"{key!r} is written twice")
        out[key] = value if eq else None
    return out


def setup_doc(fields: dict[str, str | None], players: list[str]) -> dict[str, Any]:
    """The ``MatchStarted`` document of a line's set-up fields (they are taken out of ``fields``)."""
    doc: dict[str, Any] = {"type": "MatchStarted", "game": "logos", "players": players, "decks": {}}
    options: dict[str, Any] = {}
    meta: dict[str, str] = {}
    for key in list(fields):
        value = fields[key]
        head, dot, name = key.partition(".")
        if head not in ("list", "opt", "meta", "setup") and key not in ("ruleset", "pool", "pool_sha256"):
            continue
        del fields[key]
        if value is None:
            raise NotationError(key, f"{key}: a value is missing (KEY=VALUE)")
        if head == "list" and dot:
            deck: dict[str, int] = {}
            for item in [] if value == "?" else value.split(","):
                card, star, n = item.partition("*")
                cid = str(dec(card, key))
                if cid in deck:
                    raise NotationError(item[:80], f"{key}: {cid!r} is listed twice (write {card}*COPIES)")
                deck[cid] = _int(n, key) if star else 1
            doc["decks"][dec(name, key)] = deck
        elif head == "opt" and dot:
            options[str(dec(name, key))] = dec_option(str(dec(name, key)), value)
        elif head == "meta" and dot:
            meta[str(dec(name, key))] = str(dec(value, key))
        elif head == "setup" and name in SETUP_ENVELOPE:
            doc[name] = dec_value(SETUP_ENVELOPE[name], value, key)
        elif not dot:
            doc[key] = dec(value, key)
        else:
            raise NotationError(key, f"unknown field {key!r}")
    if options:
        doc["options"] = options
    if meta:
        doc["meta"] = meta
    return doc


def parse_setup(text: str, game: Any) -> E.MatchStarted:
    """A set-up written as :func:`setup_text` writes it."""
    if len(text) > MAX_LINE:
        raise NotationError(text[:80], f"longer than {MAX_LINE:,} characters")
    parts = text.split()
    if not parts:
        raise NotationError(text, "the set-up names its players first (ann,ben)")
    fields = _fields(text, parts[1:])
    doc = setup_doc(fields, [str(p) for p in dec_list(parts[0], "players")])
    if fields:
        raise NotationError(text[:80], f"unknown field {next(iter(fields))!r} of a set-up")
    try:
        return msgspec.convert(doc, E.MatchStarted)
    except msgspec.ValidationError as exc:
        raise NotationError(text[:80], f"the set-up: {exc}") from None


# -- the position ---------------------------------------------------------------------------------

def format_position(s: State, game: Any, seat: str | None = None) -> str:
    """``s`` in one line (``s`` is already the view of ``seat`` when one is given)."""
    doc = msgspec.to_builtins(s)
    head = ["logos", f"r{s.round}", s.phase + (f"/{s.step}" if s.step else "")]
    head += [f"{enc_player(p['id'])}:{p['hp']}:{enc_list(p['slots'])}" for p in doc["players"]]
    rest: list[str] = []
    for p in doc["players"]:
        for k, kind in PLAYER_KINDS.items():
            if p[k] != PLAYER_DEFAULTS.get(k):
                v = enc_value(kind, p[k])
                rest.append(f"{enc_player(p['id'])}.{k}" + ("" if v is None else f"={v}"))
    nested = any(a.alts for a in s.alts)  # (an alternative's own alternatives: the JSON form)
    for k, kind in STATE_KINDS.items():
        if doc[k] != STATE_DEFAULTS.get(k) and not (k == "alts" and not nested):
            v = enc_value(kind, doc[k])
            rest.append(k + ("" if v is None else f"={v}"))
    setup = s.setup
    if list(setup.players) != [p.id for p in s.players]:
        rest.append(f"players={enc_list(list(setup.players))}")
    rest += setup_fields(setup)
    rest += [f"setup.{k}={enc_value(kind, getattr(setup, k))}" for k, kind in SETUP_ENVELOPE.items()
             if getattr(setup, k) is not None]
    fresh = msgspec.to_builtins(game.options_of(setup))
    mine = msgspec.to_builtins(s.options)
    rest += [f"o.{k}={enc_option(mine[k])}" for k in mine if mine[k] != fresh.get(k)]
    if seat is not None:
        rest.append(f"as={enc(seat)}")
    alts = [] if nested else [f"{ALT} {format_position(a, game)}" for a in s.alts]
    return " ".join(head + rest + alts)


def parse_position(text: str, game: Any) -> State:
    """The position a :func:`format_position` line writes; :class:`NotationError` naming the
    field that cannot be read."""
    if len(text) > MAX_LINE:
        raise NotationError(text[:80], f"a position line is at most {MAX_LINE:,} characters")
    sections = text.split(f" {ALT} ")
    if len(sections) > 1:  # the other positions the match may be in (LG-38), each a line of its own
        main = parse_position(sections[0], game)
        if main.alts:
            raise NotationError(text[:80], f"alts: written as JSON and as '{ALT}' sections")
        return msgspec.structs.replace(main, alts=tuple(parse_position(a, game) for a in sections[1:]))
    parts = text.split()
    if len(parts) < 3 or parts[0].casefold() != "logos":
        raise NotationError(text[:80], "a LOGOS position line starts 'logos r<ROUND> <PHASE>[/<STEP>]'")
    if not re.fullmatch(r"r\d{1,9}", parts[1]):
        raise NotationError(parts[1], f"the round: {parts[1][:40]!r} is not r<ROUND> (r1, r2, ...)")
    phase, _, step = parts[2].partition("/")
    i = 3
    players: list[dict[str, Any]] = []
    while i < len(parts) and "=" not in parts[i] and "." not in parts[i].partition(":")[0] and parts[i].count(":") >= 2:
        pid, hp, slots = parts[i].split(":", 2)
        where = f"player {len(players) + 1}"
        players.append({"id": dec(pid, where), "hp": _int(hp, f"{where} hit points"), "slots": dec_list(slots, f"{where} slots")})
        i += 1
    if len(players) != 2:
        raise NotationError(text[:80], f"a LOGOS position names two players (PLAYER:HP:SLOTS), not {len(players)}")
    fields = _fields(text, parts[i:])
    fields.pop("as", None)
    ids = [p["id"] for p in players]
    listed = fields.pop("players", None)
    setup = setup_doc(fields, ids if listed is None else [str(p) for p in dec_list(listed, "players")])
    overrides = {k[2:]: fields.pop(k) for k in list(fields) if k.startswith("o.")}
    doc: dict[str, Any] = {"round": int(parts[1][1:]), "phase": phase, "step": step}
    by_id = {enc_player(p["id"]): p for p in players if p["id"] is not None}
    for key, value in fields.items():
        head, dot, name = key.partition(".")
        if dot and head in by_id and name in PLAYER_KINDS:
            by_id[head][name] = dec_value(PLAYER_KINDS[name], value, key)
        elif not dot and key in STATE_KINDS:
            doc[key] = dec_value(STATE_KINDS[key], value, key)
        else:
            raise NotationError(key[:80], f"unknown field {key[:40]!r} of a LOGOS position")
    try:
        start = msgspec.convert(setup, E.MatchStarted)
        game.validate_setup(start)  # the deck lists' cards, the players' ids
        options = msgspec.to_builtins(game.options_of(start))
    except (msgspec.ValidationError, RefError, AdjudicatorError) as exc:  # a set-up the game refuses
        raise NotationError(text[:80], f"the set-up: {exc}") from None
    for k, v in overrides.items():
        if v is None or k not in options:
            raise NotationError(f"o.{k}", f"o.{k}: no option of LOGOS, or no value")
        options[k] = dec_option(k, v)
    doc.update(setup=start, options=options, players=players)
    try:
        state = msgspec.convert(doc, State)
        game.check_position(state)
    except (msgspec.ValidationError, AdjudicatorError) as exc:
        raise NotationError(text[:80], f"the position: {exc}") from None
    return state
