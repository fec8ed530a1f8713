"""The Colossi notation: every event in a player's words, read back exactly (docs/games/colossi.md,
"Notation").

Each event type has one *template* (:data:`TEMPLATES`): literal words, ``{field}`` slots and
``[...]`` optional parts written only when a field inside differs from its default.  Writing an
event fills the template; reading a text matches it against every template at once (each slot
matches only what its kind can be: a number, a player of the match, a card, Trait, tile or Beast
by name or id, a direction, one of an enumeration), so the reading is structural: an illegal
event (a card not in hand, a space out of reach) reads as well as a legal one and ``verify``
judges it.  A text that matches no template, or a slot holding an unknown name, is a
:class:`~adjudicator.core.kernel.notation.NotationError` whose candidates are the texts it could have
meant (did you mean, :mod:`adjudicator.core.kernel.suggest`).

Names: players by their id (as the set-up writes them), spaces by their number on the island,
cards, Traits, tiles and Beasts by their name (``Short Rest``, ``Lair: Wind Beast``) or id
(``short-rest``), case aside.  An unknown card or tile of a seat's record is ``?``; a log's
``null`` for one is ``-``.

What needs the position: the player names (a slot reads the players of ``state``'s set-up;
without a position a player is any word without spaces, colons or commas, as typed) and the
directions of an island the shipped islands do not name (a ``--pools`` island).  Events of
the core (a judge's ruling, the private looks) are the base class's.  The position in one line is
:mod:`.position_text`.
"""

from __future__ import annotations

import json
import re
import typing
from functools import lru_cache
from typing import Any

import msgspec

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.events import HIDDEN, Event
from adjudicator.core.kernel.notation import Notation as BaseNotation
from adjudicator.core.kernel.notation import MAX_TEXT, NotationError, normalize
from adjudicator.core.kernel.suggest import closest

from . import events as E
from . import position_text
from .position_text import field_default as _default
from .data import board, content

#: null written in a slot whose field may be null (an unknown of a log: CL-40)
NULL = "-"

#: the text of each event type: ``{field}`` or ``{field:kind}`` slots, ``[...]`` optional parts
#: (written when a field in them is not its default).  Kinds default by field name (KINDS).
TEMPLATES: dict[type[Event], str] = {
    E.FirstPlayerDetermined: "{player}: goes first",
    E.TileSetAside: "set aside {tile}",
    E.TraitRevealed: "reveal {trait}",
    E.TraitTaken: "{player}: take {trait}[ from {source}]",
    E.CardDrawn: "{player}: draw {card}",
    E.StartPlaced: "{player}: start {space}",
    E.TurnStarted: "{player}: turn {turn}",
    E.PlayerNamed: "{player}: name {target}",
    E.TraitBorrowed: "{player}: borrow {trait}",
    E.Peeked: "{player}: peek {deck}",
    E.TopRevealed: "{player}: top of {deck}: {item}",
    E.LootReplenished: "replenish {spaces}",
    E.CardDiscarded: "{player}: discard {card}",
    E.Moved: "{player}: {piece}[ of {owner}] {space}-{to}[{road}]",
    E.AcolyteSpawned: "{player}: spawn {space}",
    E.CardPlayed: "{player}: play {card}[ at {space}][ on {target}][ targets {targets}][ beast {beast}]"
                  "[ dir {direction}][ trait {trait}]",
    E.BeastMoved: "{player}: {beast} to {to}",
    E.ActionBought: "{player}: buy action",
    E.CardBought: "{player}: buy card",
    E.Alchemized: "{player}: alchemize {what}[ {item}][ at {space}]",
    E.TraitDiscarded: "{player}: discard trait {trait}",
    E.ActionsEnded: "{player}: end actions",
    E.TileExplored: "explore {space} {tile}",
    E.BannerPhaseChosen: "{player}: {choice}",
    E.BannerRaised: "{player}: banner {space}",
    E.BannerMoved: "{player}: banner {space}-{to}",
    E.BannerScored: "{player}: score {space}[{keep}]",
    E.Passed: "{player}: pass",
    E.SpaceChosen: "{player}: choose {space}",
    E.DirectionChosen: "{player}: choose {direction}",
    E.AcolytesPlaced: "{player}: place {count} at {space}",
    E.AcolytesResurrected: "{player}: resurrect {count}",
    E.Reacted: "{player}: react {space} kills {victim} at {victim_space}",
    E.CardGiven: "{player}: give {card} to {to:player}",
    E.GoldPaid: "{player}: pay {amount} to {to:player}",
    E.CardsContributed: "{player}: contribute {cards}",
    E.CardDealt: "{player}: dealt {card}",
    E.TraitDrawn: "growth draws {trait}",
    E.TraitStolen: "{player}: steal {trait}",
    E.DieRolled: "{player}: roll {value}",
    E.ComponentMoved: "{player}: put {component}[ of {owner:owner}] {space}-{to}",
    E.TileReplaced: "void {space} {tile}",
    E.BeastDrawn: "{player}: becomes {beast}",
    E.CardTaken: "{player}: take {card} discarding {discard:card}",
    E.TargetReached: "{player}: reaches the target with {gold}",
    E.TurnEnded: "{player}: end turn {turn}",
}

#: shorter forms of some events (type, template, the fields its words fix, when it is written):
#: a Beast put down elsewhere is named, ``p2: put Golden Beast 21-3`` (the general form
#: ``p2: put beast of Golden Beast 21-3`` reads too)
VARIANTS: tuple[tuple[type[Event], str, dict[str, Any], Any], ...] = (
    (E.ComponentMoved, "{player}: put {owner:beast} {space}-{to}", {"component": "beast"},
     lambda e: e.component == "beast" and e.owner in content().beasts),
)

#: a slot's kind by its field name (a template may say ``{field:kind}``)
KINDS = {
    "player": "player", "target": "player", "victim": "player", "owner": "player", "targets": "players",
    "card": "card", "cards": "cards", "trait": "trait", "tile": "tile", "beast": "beast",
    "direction": "direction", "item": "item", "spaces": "ints", "road": "flag", "keep": "flag",
}
#: the words of a flag slot (a bool field: written when true)
FLAGS = {"road": " road", "keep": " keep"}
#: the longest text told why it reads as no event (the loose reading that finds the unknown
#: name is quadratic in the length)
MAX_DIAGNOSED = 400
#: the largest number a slot reads (bounded: a number is at most this many digits)
DIGITS = 18
_INT = rf"-?\d{{1,{DIGITS}}}"
#: a player id without a position: a word without spaces, colons or commas
_LOOSE_PLAYER = r"[^\s:,]+"
_SLOT = re.compile(r"\{(\w+)(?::(\w+))?\}")


# == names ===========================================================================================

class Names:
    """The names and ids of one kind of component, folded: text -> id (names first, then ids)."""

    def __init__(self, items: dict[str, str], noun: str, extra: tuple[str, ...] = ()) -> None:
        self.noun = noun
        self.name = dict(items)
        self.ids: dict[str, str] = {}
        for i in items:
            self.ids.setdefault(normalize(i), i)
        for i, n in items.items():
            self.ids[normalize(n)] = i
        for x in extra:
            self.ids[x] = x
        self.pattern = "|".join(re.escape(k) for k in sorted(self.ids, key=lambda k: (-len(k), k)))

    def write(self, v: Any) -> str:
        return NULL if v is None else self.name.get(v, str(v))

    def read(self, text: str) -> str:
        try:
            return self.ids[normalize(text)]
        except KeyError:
            raise NotationError(text, f"{text!r} is no {self.noun}", sorted(self.name.values())) from None


@lru_cache(maxsize=1)
def names() -> dict[str, Names]:
    C = content()
    beasts = {b: info.beast.name for b, info in C.beasts.items() if info.beast is not None}
    dirs: list[str] = []
    for b in ("hex27", "square27"):
        dirs += [d for d in board(b, None).directions if d not in dirs]
    return {
        "card": Names({k: v.name for k, v in C.cards.items()}, "card", (HIDDEN,)),
        "trait": Names({k: v.name for k, v in C.traits.items()}, "Trait"),
        "tile": Names({k: v.name for k, v in C.tiles.items()}, "tile", (HIDDEN,)),
        "beast": Names(beasts, "Beast"),
        "direction": Names({d: d for d in dirs}, "direction"),
    }


def _enum_values(t: Any) -> tuple[str, ...]:
    """The values of a Literal field type (a union with None included)."""
    if typing.get_origin(t) is typing.Literal:
        return tuple(typing.get_args(t))
    out: tuple[str, ...] = ()
    for a in typing.get_args(t):
        out += _enum_values(a)
    return out


def _nullable(t: Any) -> bool:
    return type(None) in typing.get_args(t)


# == templates =======================================================================================

class Slot(msgspec.Struct, frozen=True):
    field: str
    kind: str
    nullable: bool
    values: tuple[str, ...] = ()


class Template:
    """One event type's template, split into literal parts, slots and optional groups."""

    def __init__(self, cls: type[Event], text: str, fixed: dict[str, Any] | None = None) -> None:
        self.cls = cls
        self.text = text
        #: a variant's fields set by its words (not slots)
        self.fixed = fixed or {}
        self.fields = {f.name: f for f in msgspec.structs.fields(cls)}
        self.slots: dict[str, Slot] = {}
        for m in _SLOT.finditer(text):
            name, kind = m.group(1), m.group(2)
            f = self.fields[name]
            values = _enum_values(f.type)
            kind = kind or KINDS.get(name) or ("enum" if values else "int")
            self.slots[name] = Slot(name, kind, _nullable(f.type), values)
        #: the first word after the player (the verb a text of no form is compared with)
        self.first = (text[len("{player}:"):] if text.startswith("{player}:") else text).split()[0]

    def format(self, event: Event) -> str:
        def fill(part: str) -> str:
            return _SLOT.sub(lambda m: self.write(m.group(1), getattr(event, m.group(1)), event), part)

        def optional(m: re.Match[str]) -> str:
            part = m.group(1)
            if all(getattr(event, n) == _default(self.fields[n]) for n, _kind in _SLOT.findall(part)):
                return ""
            return fill(part)

        return fill(re.sub(r"\[([^\]]*)\]", optional, self.text))

    def write(self, field: str, v: Any, event: Event) -> str:
        s = self.slots[field]
        k = s.kind
        if k == "flag":
            return FLAGS[field] if v else ""
        if k in ("players",):
            return ", ".join(map(str, v))
        if k == "ints":
            return ", ".join(map(str, v)) if v else "none"
        if k == "cards":
            return ", ".join(names()["card"].write(c) for c in v) if v else "nothing"
        if v is None:
            return NULL
        if k in ("card", "trait", "tile", "beast", "direction"):
            return names()[k].write(v)
        if k == "item":
            return names()[_item_pool(event)].write(v)
        if k == "owner" and getattr(event, "component", None) == "beast":
            return names()["beast"].write(v)
        return str(v)

    def regex(self, player: str, loose: bool = False, dirs: tuple[str, ...] = ()) -> re.Pattern[str]:
        """The template as a regular expression over a normalized text; ``loose``: every slot
        reads anything (to tell which slot holds an unknown name)."""
        out = []
        pos = 0
        text = self.text
        for m in re.finditer(r"\[([^\]]*)\]|\{(\w+)(?::\w+)?\}", text):
            out.append(_literal(text[pos:m.start()]))
            if m.group(1) is not None:
                inner = []
                p2 = 0
                for s in _SLOT.finditer(m.group(1)):
                    inner.append(_literal(m.group(1)[p2:s.start()]))
                    inner.append(self.slot_regex(s.group(1), player, loose, dirs))
                    p2 = s.end()
                inner.append(_literal(m.group(1)[p2:]))
                out.append(f"(?:{''.join(inner)})?")
            else:
                out.append(self.slot_regex(m.group(2), player, loose, dirs))
            pos = m.end()
        out.append(_literal(text[pos:]))
        return re.compile("".join(out), re.IGNORECASE)

    def slot_regex(self, field: str, player: str, loose: bool, dirs: tuple[str, ...] = ()) -> str:
        """One slot's expression; ``dirs``: the directions of the match's island the shipped
        islands do not have."""
        s = self.slots[field]
        k = s.kind
        null = f"|{re.escape(NULL)}" if s.nullable else ""
        if k == "flag":
            return f"(?P<{field}>{re.escape(FLAGS[field])})"
        if loose and k not in ("int", "ints", "enum"):
            return f"(?P<{field}>.+?)"
        if k == "int":
            body = _INT
        elif k == "ints":
            body = f"none|{_INT}(?:, ?{_INT})*"
        elif k == "player":
            body = player
        elif k == "players":
            body = f"(?:{player})(?:, ?(?:{player}))*"
        elif k == "enum":
            body = "|".join(re.escape(v.casefold()) for v in s.values)
        elif k == "cards":
            one = f"{names()['card'].pattern}|{re.escape(NULL)}"
            body = f"nothing|(?:{one})(?:, ?(?:{one}))*"
        elif k == "item":
            body = "|".join(names()[p].pattern for p in ("tile", "card", "trait"))
        elif k == "owner":
            body = f"{names()['beast'].pattern}|{player}"
        else:
            body = names()[k].pattern + "".join(f"|{re.escape(d.casefold())}" for d in dirs if k == "direction")
        return f"(?P<{field}>{body}{null})"

    def read(self, m: re.Match[str], players: dict[str, str], dirs: tuple[str, ...] = ()) -> Event:
        """The event a match of :meth:`regex` writes (KeyError: a name of no component)."""
        values: dict[str, Any] = {}
        groups = m.groupdict()
        order = sorted(self.slots, key=lambda n: self.slots[n].kind in ("item", "owner"))  # after deck/what/component
        for name in order:
            text = groups.get(name)
            if text is None:
                continue
            values[name] = self.value(name, text, players, values, dirs)
        return self.cls(**values, **self.fixed)

    def value(self, field: str, text: str, players: dict[str, str], seen: dict[str, Any],
              dirs: tuple[str, ...] = ()) -> Any:
        """A slot's value from its text (as typed: a player without a position keeps its case;
        names are read case aside)."""
        s = self.slots[field]
        k = s.kind
        if s.nullable and text == NULL and k not in ("int", "ints"):
            return None
        if k == "flag":
            return True
        if k == "int":
            return int(text)
        if k == "ints":
            return [] if text == "none" else [int(x) for x in text.split(",")]
        if k == "player":
            return players.get(text.casefold(), text)
        if k == "players":
            pat = re.compile(rf"({_player_pattern(tuple(players.values()) or None)})(?:, ?|$)", re.IGNORECASE)
            out, pos = [], 0
            while pos < len(text):  # ids may hold commas: the longest id of the match first
                m = pat.match(text, pos)
                if m is None:
                    raise NotationError(text, f"{text!r}: players expected")
                out.append(players.get(m.group(1).casefold(), m.group(1)))
                pos = m.end()
            return out
        if k == "enum":
            return next(v for v in s.values if v.casefold() == text.casefold())
        if k == "cards":
            if text == "nothing":
                return []
            return [None if x.strip() == NULL else names()["card"].read(x.strip()) for x in text.split(",")]
        if k == "item":
            return names()[_item_pool(_Seen(seen))].read(text)
        if k == "owner":
            if seen.get("component") == "beast" and normalize(text) in names()["beast"].ids:
                return names()["beast"].read(text)
            return players.get(text.casefold(), text)
        if k == "direction":
            own = {d.casefold(): d for d in dirs}
            if text.casefold() in own:
                return own[text.casefold()]
        return names()[k].read(text)


def _item_pool(event: Any) -> str:
    """The pool an ``item`` names: a tile on top of the tile deck, else a card (Alchemist: a
    card or a Trait)."""
    if getattr(event, "deck", None) == "tiles":
        return "tile"
    return "trait" if getattr(event, "what", None) == "trait" else "card"


class _Seen:
    """The fields read so far, as attributes (for :func:`_item_pool`)."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)


def _literal(text: str) -> str:
    """A template's literal words as an expression over a normalized text (a space after a
    colon may be left out)."""
    return re.escape(text.casefold()).replace(":\\ ", ":\\s?")


@lru_cache(maxsize=1)
def templates() -> tuple[Template, ...]:
    """The templates, each type's own first, then the variants."""
    return tuple(Template(cls, t) for cls, t in TEMPLATES.items()) + tuple(
        Template(cls, t, fixed) for cls, t, fixed, _when in VARIANTS)


@lru_cache(maxsize=32)
def compiled(players: tuple[str, ...] | None, loose: bool = False,
             dirs: tuple[str, ...] = ()) -> tuple[tuple[Template, re.Pattern[str]], ...]:
    """Every template's expression for the players of one set-up (None: any word)."""
    if players is None:
        pat = _LOOSE_PLAYER
    else:
        pat = "|".join(re.escape(p.casefold()) for p in sorted(players, key=lambda p: (-len(p), p)))
    return tuple((t, t.regex(pat, loose, dirs)) for t in templates())


def _context(state: Any) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """What a text is read against in ``state``: the players of the match (None: no position)
    and the directions of its island that the shipped islands do not have (an island of a
    ``--pools`` directory)."""
    if state is None:
        return None, ()
    try:
        island = board(state.options.board, state.setup.board_sha256)
    except AdjudicatorError:  # an island not found: its directions are the shipped ones'
        return tuple(state.setup.players), ()
    known = names()["direction"].ids
    return tuple(state.setup.players), tuple(d for d in island.directions if normalize(d) not in known)


# == the two events of their own shape: the set-up and the end =========================================

_WORD = re.compile(r"[^\s:;,\"=]+")


def word(v: str) -> str:
    """A value as one word: itself when it is one (no spaces, quotes or separators), else as a
    JSON string."""
    return v if _WORD.fullmatch(v) else json.dumps(v)


def format_start(e: E.MatchStarted) -> str:
    """``start colossi: ann, bob; ruleset first-game; options gold_target=20, end_mode=immediate;
    board_sha256 ..; meta event="Spring Open", round=3`` (the parts after the players only when
    not their default; a value a word where it reads back as the same text, else JSON: the first
    form's ``options {"gold_target": 20}`` reads too)."""
    out = f"start {word(e.game)}: " + ", ".join(word(p) for p in e.players)
    if e.ruleset != "standard":
        out += f"; ruleset {word(e.ruleset)}"
    if e.options:
        out += "; options " + _pairs(e.options)
    if e.board_sha256 is not None:
        out += f"; board_sha256 {word(e.board_sha256)}"
    if e.meta:
        out += "; meta " + _pairs(e.meta)
    return out


_LITERAL = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def _pairs(table: dict[str, Any]) -> str:
    """``key=value, ...``: a text value as a word where it reads back as that text (not a number
    or ``true``), any other value as JSON."""
    def value(v: Any) -> str:
        if isinstance(v, str) and _WORD.fullmatch(v) and not _LITERAL.fullmatch(v) and v[0] not in "[{":
            return v
        return json.dumps(v, ensure_ascii=False) if str(v).isprintable() else json.dumps(v)
    return ", ".join(f"{word(k)}={value(v)}" for k, v in table.items())


def _read_pairs(c: _Cursor, what: str) -> dict[str, Any]:
    """The ``key=value, ...`` of :func:`_pairs` (or the first form's JSON object)."""
    c.skip()
    if c.text.startswith(("{", "["), c.pos):
        v = c.json(what)
        if not isinstance(v, dict):
            raise NotationError(c.text, f"{what}: a JSON object expected")
        return v
    out: dict[str, Any] = {}
    while True:
        key = c.word(f"a name of {what}")
        if not c.at("="):
            raise NotationError(c.text, f"{what}: 'name=value, ...' expected after {key!r}")
        if key in out:
            raise NotationError(c.text, f"{what}: {key!r} given twice")
        c.skip()
        if c.text.startswith(('"', "[", "{"), c.pos):
            out[key] = c.json(f"{what}.{key}")
        else:
            w = c.word(f"the value of {what}.{key}")
            out[key] = json.loads(w) if _LITERAL.fullmatch(w) else w
        if not c.at(","):
            return out


class _Cursor:
    """Reads the words, JSON values and separators of one line, left to right."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def at(self, sep: str) -> bool:
        self.skip()
        if self.text.startswith(sep, self.pos):
            self.pos += len(sep)
            return True
        return False

    def done(self) -> bool:
        self.skip()
        return self.pos >= len(self.text)

    def word(self, what: str) -> str:
        self.skip()
        if self.text.startswith('"', self.pos):
            v = self.json(what)
            if not isinstance(v, str):
                raise NotationError(self.text, f"{what}: a word or a quoted text expected")
            return v
        m = _WORD.match(self.text, self.pos)
        if not m:
            raise NotationError(self.text, f"{what} expected at {self.text[self.pos:self.pos + 20]!r}")
        self.pos = m.end()
        return m.group()

    def json(self, what: str) -> Any:
        self.skip()
        try:
            v, self.pos = json.JSONDecoder().raw_decode(self.text, self.pos)
        except json.JSONDecodeError as exc:
            raise NotationError(self.text, f"{what}: not JSON ({exc.msg})") from None
        except RecursionError:  # (bounded by the length of a text: MAX_TEXT)
            raise NotationError(self.text[:80], f"{what}: JSON nested too deep") from None
        return v


def parse_start(text: str) -> E.MatchStarted:
    c = _Cursor(text.strip())
    if c.word("start").casefold() != "start":
        raise NotationError(text, "a set-up starts with 'start'")
    game = c.word("the game")
    if not c.at(":"):
        raise NotationError(text, "'start GAME: PLAYER, PLAYER, ...' expected")
    players = [c.word("a player")]
    while c.at(","):
        players.append(c.word("a player"))
    kw: dict[str, Any] = {}
    while c.at(";"):
        key = c.word("a part of the set-up").casefold()
        if key in ("ruleset", "board_sha256"):
            kw[key] = c.word(key)
        elif key in ("options", "meta"):
            kw[key] = _read_pairs(c, key)
        else:
            raise NotationError(text, f"unknown part {key!r} of a set-up", ["ruleset", "options", "board_sha256", "meta"])
    if not c.done():
        raise NotationError(text, f"cannot read {c.text[c.pos:c.pos + 30]!r} (parts are separated by ';')")
    try:
        return msgspec.convert({"game": game, "players": players, **kw}, E.MatchStarted)
    except msgspec.ValidationError as exc:
        raise NotationError(text, f"not a set-up: {exc}") from None


def format_end(e: E.GameEnded) -> str:
    """``game over: win ann by gold; gold ann 52, bob 40`` (``draw by gold-tie; ...``)."""
    out = f"game over: {word(e.result)}"
    if e.winner is not None:
        out += f" {word(e.winner)}"
    out += f" by {word(e.reason)}"
    if e.gold:
        out += "; gold " + ", ".join(f"{word(p)} {g}" for p, g in e.gold.items())
    return out


def parse_end(text: str) -> E.GameEnded:
    c = _Cursor(text.strip())
    if not (c.at("game") and c.at("over") and c.at(":")):
        raise NotationError(text, "'game over: RESULT [WINNER] by REASON' expected")
    result = c.word("the result").casefold()
    winner = None
    nxt = c.word("the winner or 'by'")
    if nxt.casefold() != "by":
        winner = nxt
        if c.word("'by'").casefold() != "by":
            raise NotationError(text, "'by REASON' expected after the winner")
    reason = c.word("the reason")
    gold: dict[str, int] = {}
    if c.at(";"):
        if c.word("'gold'").casefold() != "gold":
            raise NotationError(text, "'; gold PLAYER N, ...' expected")
        while True:
            p = c.word("a player")
            n = c.word("Gold")
            if not re.fullmatch(_INT, n):
                raise NotationError(text, f"Gold of {p}: a number expected, got {n!r}")
            gold[p] = int(n)
            if not c.at(","):
                break
    if not c.done():
        raise NotationError(text, f"cannot read {c.text[c.pos:c.pos + 30]!r}")
    try:
        return msgspec.convert({"result": result, "winner": winner, "reason": reason, "gold": gold}, E.GameEnded)
    except msgspec.ValidationError as exc:
        raise NotationError(text, f"not the end of a match: {exc}") from None


# == the notation ====================================================================================

class Notation(BaseNotation):
    """Colossi's notation (see the module)."""

    def format(self, event: Event, state: Any = None) -> str:
        t = type(event)
        if t is E.MatchStarted:
            return format_start(event)  # type: ignore[arg-type]
        if t is E.GameEnded:
            return format_end(event)  # type: ignore[arg-type]
        text = event_words(event)
        return super().format(event, state) if text is None else text

    def parse(self, text: str, state: Any = None) -> Event:
        """The event ``text`` writes (any event of the game, legal or not; see the module).
        ``state`` names the players (needed only when an id holds a space, a colon or a comma)."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        stripped = text.strip()
        if stripped.startswith("{"):
            return self.parse_json(stripped)
        norm = " ".join(text.split())  # spacing folded; the case is kept (a player's id without a position)
        if norm.casefold().startswith("start "):
            return parse_start(stripped)
        if norm.casefold().startswith("game over"):
            return parse_end(stripped)
        players, dirs = _context(state)
        found, wrong = self.read_forms(norm, players, dirs)
        if len(found) == 1:
            return found[0]
        if found:
            raise NotationError(text, f"{stripped!r} reads as {len(found)} events",
                                [self.format(e, state) for e in found])
        try:  # the core's events (rulings, private looks: read without a position) and, with a position,
            core = super().parse(text, state)  # the legal ones; the game's own are read by the templates alone
            if type(core) not in _by_type() and type(core) not in (E.MatchStarted, E.GameEnded):
                return core
        except NotationError:
            pass
        if wrong:
            raise NotationError(text, f"{stripped!r}: {wrong[0].reason}")
        raise self.unread_error(text, norm, state)

    @staticmethod
    def read_forms(norm: str, players: tuple[str, ...] | None,
             dirs: tuple[str, ...] = ()) -> tuple[list[Event], list[NotationError]]:
        """The events the templates read ``norm`` as (spacing folded), and the names of another
        kind met (a Trait where a card goes)."""
        ids = {p.casefold(): p for p in players or ()}
        found: list[Event] = []
        wrong: list[NotationError] = []
        for tpl, rx in compiled(players, False, dirs):
            m = rx.fullmatch(norm)
            if m is None:
                continue
            try:
                e = tpl.read(m, ids, dirs)
            except NotationError as exc:
                wrong.append(exc)
                continue
            if e not in found:
                found.append(e)
        return found, wrong

    def unread_error(self, text: str, norm: str, state: Any) -> NotationError:
        """Why ``text`` reads as no event: the slot holding an unknown name (with the closest
        names), else the forms of the events whose first word is nearest to the one typed."""
        players, dirs = _context(state)
        cands: list[str] = []
        reasons: list[str] = []
        if len(norm) > MAX_DIAGNOSED:  # the loose reading backtracks: only a typed line's length
            return NotationError(text[:80], f"a text of {len(norm)} characters that reads as no Colossi event")
        for tpl, rx in compiled(players, True, dirs):
            m = rx.fullmatch(norm)
            if m is None:
                continue
            for field, got in m.groupdict().items():
                if got is None:
                    continue
                slot = tpl.slots[field]
                if re.fullmatch(tpl.slot_regex(field, _player_pattern(players), False, dirs), got, re.IGNORECASE):
                    continue
                known = _known(slot.kind, players) + (list(dirs) if slot.kind == "direction" else [])
                reasons.append(f"unknown {_noun(slot.kind)} {got!r}")
                near = closest(got, known)
                if near is not None:
                    cands.append(self.as_written(norm[:m.start(field)] + near + norm[m.end(field):], state))
        if reasons:
            return NotationError(text, f"{text.strip()!r}: {reasons[0]}", cands)
        typed = norm.split(":", 1)[-1].split()[:1]
        forms = [t.text for t in templates()]
        near = [t.text for t in templates() if typed and closest(typed[0], [t.first]) is not None]
        return NotationError(text, f"{text.strip()!r} reads as no Colossi event", near or forms)

    def parse_entry(self, text: str, state: Any = None) -> list[Event]:
        """One entry at the table: an event; a piece's whole move in one line,
        ``p1: colossus 3-4-5=6`` (a hop ``-`` paid, ``=`` by Road Movement; CL-3.3): one
        ``Moved`` per hop, in order; or several Banners raised or scored, Acolytes spawned on
        several spaces, ``p1: banner 3, 5, 7`` (:data:`LISTED`): one event per space, in order.
        Anything else is :meth:`parse`'s one event."""
        listed = _LISTED.fullmatch(" ".join(text.split())) if len(text) <= MAX_DIAGNOSED else None
        if listed is not None:
            head, spaces = listed.group(1), listed.group(2).split(",")
            try:
                out = [self.parse(f"{head} {n.strip()}", state) for n in spaces]
            except NotationError:
                out = []
            if out and all(type(e) in LISTED for e in out):
                return out
        if len(text) <= MAX_TEXT:
            players = tuple(state.setup.players) if state is not None else None
            m = _hops(players).fullmatch(" ".join(text.split()))
            if m is not None:
                ids = {p.casefold(): p for p in players or ()}
                owner = m.group("owner")
                spaces = re.findall(r"[-=]?-?\d+", m.group("hops"))
                at = int(spaces[0])
                out: list[Event] = []
                for hop in spaces[1:]:
                    to = int(hop[1:])
                    out.append(E.Moved(player=ids.get(m.group("player").casefold(), m.group("player")), piece=m.group("piece").lower(),
                                       space=at, to=to, owner=ids.get(owner.casefold(), owner) if owner else None,
                                       road=hop[0] == "="))
                    at = to
                return out
        return [self.parse(text, state)]

    def as_written(self, text: str, state: Any) -> str:
        """A candidate as the notation writes it (as typed unless it reads as one event)."""
        found, _wrong = self.read_forms(text, *_context(state))
        return self.format(found[0], state) if len(found) == 1 else text

    # -- positions ---------------------------------------------------------------------------------
    def format_position(self, state: Any, seat: str | None = None) -> str:
        """The position in one line (:mod:`.position_text`): the judge's view, or with ``seat``
        what that seat sees (``game.observe``: hidden values ``?``)."""
        return position_text.format_position(self.game, state if seat is None else self.game.observe(state, seat))

    def parse_position(self, text: str) -> Any:
        """The position a :meth:`format_position` line writes (NotationError naming the part
        that cannot be read)."""
        return position_text.parse_position(self.game, text)


#: the events an entry may list several spaces of (``p1: banner 3, 5, 7``)
LISTED = (E.BannerRaised, E.BannerScored, E.AcolyteSpawned)
_LISTED = re.compile(rf"(.*?\S) ({_INT}(?:, ?{_INT})+)")


@lru_cache(maxsize=32)
def _hops(players: tuple[str, ...] | None) -> re.Pattern[str]:
    """A whole move (:meth:`Notation.parse_entry`): two hops or more, or one by road (``3=4``)."""
    p = _player_pattern(players)
    hop = rf"[-=]{_INT}"
    return re.compile(rf"(?P<player>{p}):\s?(?P<piece>colossus|acolyte)(?: of (?P<owner>{p}))? "
                      rf"(?P<hops>{_INT}(?:{hop}(?:{hop})+|={_INT}))", re.IGNORECASE)


def _player_pattern(players: tuple[str, ...] | None) -> str:
    if players is None:
        return _LOOSE_PLAYER
    return "|".join(re.escape(p.casefold()) for p in sorted(players, key=lambda p: (-len(p), p)))


def _known(kind: str, players: tuple[str, ...] | None) -> list[str]:
    if kind in ("player", "players", "owner"):
        return list(players or ())
    pool = {"cards": "card", "item": "card"}.get(kind, kind)
    if pool in names():
        return list(names()[pool].name.values())
    return []


def _noun(kind: str) -> str:
    return {"players": "player", "cards": "card", "item": "card or tile", "owner": "player or Beast"}.get(
        kind, names()[kind].noun if kind in names() else kind)


def event_words(event: Event) -> str | None:
    """``event`` in the notation, no position needed (a refusal lists the choices a step allows
    in these words, rules.py); None: a type without a template of its own."""
    for variant, when in _variants().get(type(event), ()):
        if when(event):
            return variant.format(event)
    tpl = _by_type().get(type(event))
    return None if tpl is None else tpl.format(event)


@lru_cache(maxsize=1)
def _by_type() -> dict[type, Template]:
    return {t.cls: t for t in templates() if not t.fixed}


@lru_cache(maxsize=1)
def _variants() -> dict[type, list[tuple[Template, Any]]]:
    out: dict[type, list[tuple[Template, Any]]] = {}
    for tpl, (_cls, _t, _fixed, when) in zip(templates()[len(TEMPLATES):], VARIANTS):
        out.setdefault(tpl.cls, []).append((tpl, when))
    return out

