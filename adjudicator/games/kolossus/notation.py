"""The Kolossus notation: every event in a player's words, as short as SAN, read back exactly.

One event a line, the acting warband first (``tuatha: ...``); the grammar of each event, with an
example, is in docs/games/kolossus.md ("Notation").  In short::

    tuatha: Warrior b9-c10-d11            a move: the class on its first square, the path
    krell: Guardian i10 2S 3W             the direction form (start, direction and steps)
    tuatha: Colossus c11-c10-c9 sword     a move that uses the Sword of Storm / Whip of Wrath
    tuatha: activate Guardian [d4]        an activation (the square with choose_after_roll off)
    tuatha: destiny 4 / roll 2 2 3 / quake 3   the dice
    tuatha: place C a9, G b9 c11, W a10 b10 c10 a11 b11
    tuatha: skills attack C1 defence W2 C1 / mana attack W1 pool 1 weapon 2 / mana -
    tuatha: shift row-6 W 2 / earthquake column-d N / rebirth Warrior a10 / spear d5 / hammer d5 e6
    tuatha: initiative / end
    round 2, krell first, 2 crystals / tuatha: turn (round 2) / tuatha: takes 2 crystals
    tuatha: Colossus f6 beaten by krell / over: win ann+cat (tuatha+ishtari) by crystal-majority
    start chapter-3 T=ann@NW,K=ben@NE,I=cat@SE,F=dan@SW seed=13 rng=python-random

:meth:`Notation.parse` is structural: it reads any event of the grammar, legal or not (a
scorekeeper's illegal entry must reach ``verify``).  Warbands are read by id, name (``Tua'tha``)
or letter (``T``), or by the player commanding them (with a position); classes by name or
letter; case is folded.  Without a ``warband:`` prefix the event is the position's current
warband's.  The position is needed only to name the warband of an unprefixed text or of a
player, and to check the class a move names; every other text reads alone.  An event the grammar
cannot write plainly (a square with a space, a dict key that is not a class) is written as its
JSON object, which every game's notation reads.

:meth:`Notation.parse_entry` reads one entry at the table: parts separated by ``;``, each read
in the position the ones before it leave, and the compound activation ``Guardian 2+4
b9-c10-d11`` (declared, rolled, moved; the dice may be left out where the match's die generator
fixes them).  The position line (FEN's idea) is :mod:`.position_line`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import msgspec

from adjudicator.core.events import Event, bare
from adjudicator.core.notation import MAX_TEXT, Notation as BaseNotation, NotationError

from . import events as E
from .position_line import LETTER, format_position, format_setup, parse_position, parse_setup
from .state import CHARACTERS, WARBANDS

#: class -> its name and its letter in texts
CLASS_NAME = {c: c.capitalize() for c in CHARACTERS}
CLASS_LETTER = {"warrior": "W", "guardian": "G", "colossus": "C"}
CLASS_OF = {**{c: c for c in CHARACTERS}, **{v.lower(): k for k, v in CLASS_LETTER.items()},
            "warriors": "warrior", "guardians": "guardian"}
DIRS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_SQUARE = re.compile(r"^[a-z][0-9]{1,2}$|^\?$")
_REGION = re.compile(r"^(row-[0-9]{1,2}|column-[a-z])$|^\?$")
_NAME = re.compile(r"^[A-Za-z0-9_.@'?+-]+$")
_INT = re.compile(r"^-?[0-9]{1,12}$")
#: a leg of the direction form: the steps, then the direction (``2S``; ``S2`` would read as a square)
_STEP = re.compile(r"^(-?[0-9]{1,6})(N|NE|E|SE|S|SW|W|NW)$", re.I)
#: the forms a typed word may take for a warband: id, name, letter
WARBAND_WORDS = {**{w: w for w in WARBANDS}, **{n.casefold(): w for w, n in WARBANDS.items()},
                 **{n.casefold().replace("'", ""): w for w, n in WARBANDS.items()},
                 **{v.casefold(): k for k, v in LETTER.items()}}
#: a body's first word -> the event it starts (a class word starts a move)
VERBS = ("skills", "mana", "place", "quake", "shift", "turn", "destiny", "initiative", "activate", "roll",
         "spear", "hammer", "earthquake", "rebirth", "takes", "end", "move")
MAX_WORDS = 2_000
#: the most parts (``;``) one entry holds
MAX_PARTS = 500


class Plain(Exception):
    """An event value the grammar cannot write plainly (the event is written as JSON)."""


# == format =================================================================================================

def _sq(v: Any) -> str:
    if not isinstance(v, str) or not _SQUARE.match(v):
        raise Plain
    return v


def _region(v: Any) -> str:
    if not isinstance(v, str) or not _REGION.match(v):
        raise Plain
    return v


def _name(v: Any) -> str:
    if not isinstance(v, str) or not _NAME.match(v) or v.casefold() in ("by", "-", "over"):
        raise Plain
    return v


def _int(v: Any) -> str:
    if type(v) is not int or not _INT.match(str(v)):
        raise Plain
    return str(v)


def _wb(v: Any) -> str:
    if v not in WARBANDS and v != "?":
        raise Plain
    return v


def _cls(v: Any) -> str:
    if v not in CLASS_NAME:
        raise Plain
    return CLASS_NAME[v]


def _dir(v: Any) -> str:
    if v not in DIRS:
        raise Plain
    return v


def _skills(d: Any) -> list[str]:
    if not isinstance(d, dict):
        raise Plain
    return [f"{CLASS_LETTER[k]}{_int(n)}" if k in CLASS_LETTER else _bad() for k, n in d.items()]


def _bad() -> str:
    raise Plain


def piece_at(state: Any, square: Any) -> Any:
    """The miniature on ``square`` in ``state`` (None: no position, or nobody there)."""
    if state is None or not isinstance(square, str):
        return None
    return next((p for p in getattr(state, "pieces", ()) if p.square == square), None)


def move_words(e: E.MiniatureMoved, state: Any) -> str:
    """A move's body: the class on its first square (``move`` when the position does not say),
    the path (or the direction form), the weapon."""
    first = e.path[0] if e.path else e.start
    p = piece_at(state, first)
    head = CLASS_NAME.get(p.character, "move") if p is not None else "move"
    direction = (e.start, e.direction, e.steps, e.turn, e.turn_steps)
    if e.path and direction == (None,) * 5:
        way = "-".join(_sq(q) for q in e.path)
    elif not e.path and e.start is not None and e.direction is not None and e.steps is not None \
            and (e.turn is None) == (e.turn_steps is None):
        way = f"{_sq(e.start)} {_int(e.steps)}{_dir(e.direction)}"
        if e.turn is not None:
            way += f" {_int(e.turn_steps)}{_dir(e.turn)}"
    else:
        raise Plain
    if e.weapon is not None and e.weapon not in ("sword", "whip"):
        raise Plain
    return f"{head} {way}" + (f" {e.weapon}" if e.weapon else "")


def _skill_words(e: Any) -> str:
    words = []
    if e.attack:
        words += ["attack", *_skills(e.attack)]
    if e.defence:
        words += ["defence", *_skills(e.defence)]
    if type(e) is E.ManaAllocated:
        words += [f"pool {_int(e.pool)}"] if e.pool else []
        words += [f"weapon {_int(e.weapon)}"] if e.weapon else []
    return ("skills " if type(e) is E.SkillsChosen else "mana ") + (" ".join(words) or "-")


def _weapon_words(e: E.WeaponUsed) -> str:
    if e.weapon not in ("spear", "hammer"):
        raise Plain
    return f"{e.weapon} " + (" ".join(_sq(q) for q in e.targets) or "-")


def _over_words(e: E.GameEnded) -> str:
    if e.result not in ("win", "draw"):
        raise Plain
    if e.result == "draw" and e.winner is None and not e.alliance:
        return f"over: draw by {_name(e.reason)}"
    ally = "+".join(_wb(a) for a in e.alliance) or "-"
    return f"over: {e.result} {_name(e.winner) if e.winner is not None else '-'} ({ally}) by {_name(e.reason)}"


def _plural(n: int, word: str) -> str:
    return f"{_int(n)} {word}{'' if n == 1 else 's'}"


#: event type -> its text (after ``warband:``, or whole for the actorless ones) in a position
BODIES: dict[type, Any] = {
    E.MiniatureMoved: move_words,
    E.ActivationDeclared: lambda e, s: f"activate {_cls(e.character)}" + (f" {_sq(e.square)}" if e.square is not None else ""),
    E.MovementRolled: lambda e, s: "roll " + (" ".join(_int(d) for d in e.dice) if e.dice else "-"),
    E.DestinyRolled: lambda e, s: f"destiny {_int(e.value)}",
    E.QuakeRolled: lambda e, s: f"quake {_int(e.value)}",
    E.TurnEnded: lambda e, s: "end",
    E.InitiativeUsed: lambda e, s: "initiative",
    E.SkillsChosen: lambda e, s: _skill_words(e),
    E.ManaAllocated: lambda e, s: _skill_words(e),
    E.MiniaturesPlaced: lambda e, s: (f"place C {_sq(e.colossus)}, G {' '.join(_sq(q) for q in e.guardians) or '-'}, "
                                      f"W {' '.join(_sq(q) for q in e.warriors) or '-'}"),
    E.QuakeShifted: lambda e, s: f"shift {_region(e.region)} {_dir(e.direction)} {_int(e.distance)}",
    E.EarthquakeUsed: lambda e, s: f"earthquake {_region(e.region)} {_dir(e.direction)}",
    E.RebirthUsed: lambda e, s: f"rebirth {_cls(e.character)} {_sq(e.square)}",
    E.WeaponUsed: lambda e, s: _weapon_words(e),
    E.MiniatureBeaten: lambda e, s: f"{_cls(e.character)} {_sq(e.square)} beaten by {_name(e.by)}",
    E.CrystalsCaptured: lambda e, s: f"takes {_plural(e.count, 'crystal')}",
    E.TurnStarted: lambda e, s: f"turn (round {_int(e.round)})",
    E.RoundStarted: lambda e, s: f"round {_int(e.round)}, {_wb(e.first)} first, {_plural(e.crystals, 'crystal')}",
    E.GameEnded: lambda e, s: _over_words(e),
    E.MatchStarted: lambda e, s: "start " + format_setup(e),
}


def _body(e: Any, state: Any) -> str:
    """The text of a game event after ``warband:`` (or the whole text, for the actorless ones)."""
    fn = BODIES.get(type(e))
    if fn is None:
        raise Plain
    return str(fn(e, state))


def event_text(e: Any, state: Any = None) -> str:
    """The text of a Kolossus event (its JSON object when the grammar cannot write it plainly)."""
    try:
        body = _body(e, state)
        if type(e) in (E.RoundStarted, E.GameEnded, E.MatchStarted):
            return body
        return f"{_wb(e.warband)}: {body}"
    except (Plain, NotationError, AttributeError, TypeError, KeyError):
        return msgspec.json.encode(msgspec.structs.replace(e, seq=None, at=None, note=None, prev=None)).decode()


# == parse ==================================================================================================

def words_of(text: str) -> list[str]:
    """The words of a body: commas and brackets are decoration, ``->`` joins a path."""
    text = re.sub(r"\s*(->|→)\s*", "-", text)
    text = re.sub(r"(?<=[0-9?])\s*-\s*(?=[a-z?])", "-", text, flags=re.I)
    out = re.sub(r"[,()\[\]]", " ", text).split()
    if len(out) > MAX_WORDS:
        raise NotationError(text[:80], f"more than {MAX_WORDS} words")
    return out


class Reader:
    """The words of one body, read left to right (each read names what it expected)."""

    def __init__(self, text: str, words: list[str]) -> None:
        self.text, self.words, self.i = text, words, 0

    def fail(self, what: str, candidates: list[str] | None = None) -> NotationError:
        got = self.words[self.i] if self.i < len(self.words) else "the end"
        return NotationError(self.text, f"{self.text.strip()!r}: expected {what}, found {got!r}", candidates or [])

    def peek(self) -> str | None:
        return self.words[self.i].casefold() if self.i < len(self.words) else None

    def next(self, what: str) -> str:
        if self.i >= len(self.words):
            raise self.fail(what)
        self.i += 1
        return self.words[self.i - 1]

    def word(self, *options: str) -> str:
        w = self.next(" or ".join(repr(o) for o in options)).casefold()
        if w not in options:
            self.i -= 1
            raise self.fail(" or ".join(repr(o) for o in options))
        return w

    def take(self, what: str, ok: Any, fold: Any = str, candidates: list[str] | None = None) -> str:
        """The next word, ``fold``-ed, if ``ok`` takes it; else a :class:`NotationError` naming ``what``."""
        w = fold(self.next(what))
        if not ok(w):
            self.i -= 1
            raise self.fail(what, candidates)
        return w

    def int(self, what: str = "a number") -> int:
        return int(self.take(what, _INT.match))

    def square(self) -> str:
        return self.take("a square (a1 .. k11)", _SQUARE.match, str.casefold)

    def squares(self) -> list[str]:
        if self.peek() == "-":
            self.i += 1
            return []
        out = []
        while self.peek() is not None and _SQUARE.match(self.peek() or ""):
            out.append(self.square())
        return out

    def region(self) -> str:
        return self.take("a region (row-1 .. column-k)", _REGION.match, str.casefold)

    def direction(self) -> str:
        return self.take("a direction (N, NE, E, SE, S, SW, W, NW)", DIRS.__contains__, str.upper)

    def cls(self) -> str:
        return CLASS_OF[self.take("a class (Warrior, Guardian, Colossus)", CLASS_OF.__contains__, str.casefold,
                                  list(CLASS_NAME.values()))]

    def name(self, what: str) -> str:
        return self.take(what, _NAME.match)

    def warband(self) -> str:
        w = self.next("a warband (tuatha, krell, ishtari, firbolg)")
        found = WARBAND_WORDS.get(w.casefold())
        if found is None and w != "?":
            self.i -= 1
            raise self.fail("a warband (tuatha, krell, ishtari, firbolg)", list(WARBANDS))
        return found or w

    def skills(self, stop: tuple[str, ...]) -> dict[str, int]:
        out: dict[str, int] = {}
        while self.peek() is not None and self.peek() not in stop:
            w = self.next("a skill (W1, G2, C1)")
            m = re.match(r"^([a-z]+)[:=]?(-?[0-9]{1,9})$", w, re.I)
            if m is None or m.group(1).casefold() not in CLASS_OF:
                self.i -= 1
                raise self.fail("a skill: a class letter and the mana (W1, G2, C1)")
            out[CLASS_OF[m.group(1).casefold()]] = int(m.group(2))
        return out

    def done(self) -> None:
        if self.i < len(self.words):
            raise NotationError(self.text, f"{self.text.strip()!r}: {' '.join(self.words[self.i:])!r} is left over")


def read_move(r: Reader, wb: str, state: Any) -> E.MiniatureMoved:
    """``Class path [weapon]`` or ``Class start DIRn [DIRn] [weapon]`` (``move`` for the class)."""
    head = r.next("a class or 'move'").casefold()
    if head != "move" and head not in CLASS_OF:
        r.i -= 1
        raise r.fail("a class or 'move'")
    first = r.next("a path (b9-c10-d11) or a start square")
    parts = first.casefold().split("-")
    while r.peek() is not None and _SQUARE.match(r.peek() or ""):
        parts.append(r.square())  # (squares written apart: b9 c10 d11)
    if any(not _SQUARE.match(q) for q in parts):
        r.i -= 1
        raise r.fail("a path of squares (b9-c10-d11)")
    steps: list[tuple[str, int]] = []
    while r.peek() is not None and _STEP.match(r.peek() or ""):
        m = _STEP.match(r.next("a direction and steps"))
        assert m is not None
        steps.append((m.group(2).upper(), int(m.group(1))))
    weapon = r.word("sword", "whip") if r.peek() in ("sword", "whip") else None
    r.done()
    if steps:
        if len(parts) != 1 or len(steps) > 2:
            raise r.fail("the direction form: a start square, then one or two legs of steps and a direction (i10 2S 3W)")
        turn = steps[1] if len(steps) == 2 else (None, None)
        out = E.MiniatureMoved(warband=wb, start=parts[0], direction=steps[0][0], steps=steps[0][1],  # type: ignore[arg-type]
                               turn=turn[0], turn_steps=turn[1], weapon=weapon)  # type: ignore[arg-type]
    else:
        out = E.MiniatureMoved(warband=wb, path=parts, weapon=weapon)  # type: ignore[arg-type]
    cls = CLASS_OF.get(head)
    p = piece_at(state, parts[0])
    if cls is not None and p is not None and p.character != cls:
        raise NotationError(r.text, f"{r.text.strip()!r}: {parts[0]} holds a {CLASS_NAME[p.character]}, not a "
                            f"{CLASS_NAME[cls]}", [event_text(out, state)])
    return out


def read_body(r: Reader, wb: str, state: Any) -> Any:
    """The event a body after ``warband:`` writes."""
    verb = r.peek()
    if verb in CLASS_OF and "beaten" in [w.casefold() for w in r.words]:
        c = r.cls()
        sq = r.square()
        r.word("beaten")
        r.word("by")
        by = r.name("who beat it (a warband, quake or earthquake)")
        by = WARBAND_WORDS.get(by.casefold(), by) if by.casefold() not in ("quake", "earthquake") else by.casefold()
        r.done()
        return E.MiniatureBeaten(warband=wb, character=c, square=sq, by=by)  # type: ignore[arg-type]
    if verb in CLASS_OF or verb == "move":
        return read_move(r, wb, state)
    if verb not in VERBS:
        from adjudicator.core.suggest import closest

        near = closest(verb, [*VERBS, *CLASS_OF])
        fixed = " ".join([near if k == r.i else w for k, w in enumerate(r.words)]) if near else None
        raise r.fail("an event: " + ", ".join(VERBS) + " or a class" + (f" (did you mean {near!r}?)" if near else ""),
                     [f"{wb}: {fixed}"] if fixed else [])
    r.i += 1
    out: Any
    if verb == "activate":
        c = r.cls()
        sq = r.square() if r.peek() is not None else None
        out = E.ActivationDeclared(warband=wb, character=c, square=sq)  # type: ignore[arg-type]
    elif verb == "roll":
        if r.peek() == "-":
            r.i += 1
            dice: list[int] = []
        else:
            dice = dice_of(r)
            if not dice:
                raise r.fail("the dice (roll 2 4)")
        out = E.MovementRolled(warband=wb, dice=dice)
    elif verb in ("destiny", "quake"):
        v = r.int("the die (1 to 4)")
        out = E.DestinyRolled(warband=wb, value=v) if verb == "destiny" else E.QuakeRolled(warband=wb, value=v)
    elif verb == "end":
        out = E.TurnEnded(warband=wb)
    elif verb == "initiative":
        out = E.InitiativeUsed(warband=wb)
    elif verb in ("skills", "mana"):
        att: dict[str, int] = {}
        dfc: dict[str, int] = {}
        pool = weapon = 0
        if r.peek() == "-":
            r.i += 1
        while r.peek() is not None:
            w = r.word("attack", "defence", "defense", "pool", "weapon")
            if w == "attack":
                att = r.skills(("attack", "defence", "defense", "pool", "weapon"))
            elif w in ("defence", "defense"):
                dfc = r.skills(("attack", "defence", "defense", "pool", "weapon"))
            elif verb == "mana" and w == "pool":
                pool = r.int("the mana put in the pool")
            elif verb == "mana":
                weapon = r.int("the mana put on the weapon (2)")
            else:
                r.i -= 1
                raise r.fail("attack or defence")
        out = E.SkillsChosen(warband=wb, attack=att, defence=dfc) if verb == "skills" else \
            E.ManaAllocated(warband=wb, attack=att, defence=dfc, pool=pool, weapon=weapon)
    elif verb == "place":
        got: dict[str, list[str]] = {}
        while r.peek() is not None:
            c = r.cls()
            if c in got:
                raise r.fail(f"each class once ({CLASS_NAME[c]} twice)")
            got[c] = r.squares()
        if len(got.get("colossus", [])) != 1:
            raise r.fail("the Colossus's one square (place C a9, G b9 c11, W a10 b10 c10 a11 b11)")
        out = E.MiniaturesPlaced(warband=wb, colossus=got["colossus"][0], guardians=got.get("guardian", []),
                                 warriors=got.get("warrior", []))
    elif verb == "shift":
        region, d = r.region(), r.direction()
        out = E.QuakeShifted(warband=wb, region=region, direction=d, distance=r.int("the distance"))  # type: ignore[arg-type]
    elif verb == "earthquake":
        region = r.region()
        out = E.EarthquakeUsed(warband=wb, region=region, direction=r.direction())  # type: ignore[arg-type]
    elif verb == "rebirth":
        c = r.cls()
        out = E.RebirthUsed(warband=wb, character=c, square=r.square())  # type: ignore[arg-type]
    elif verb in ("spear", "hammer"):
        out = E.WeaponUsed(warband=wb, weapon=verb, targets=r.squares())  # type: ignore[arg-type]
    elif verb == "takes":
        n = r.int("the crystals taken")
        if r.peek() in ("crystal", "crystals"):
            r.i += 1
        out = E.CrystalsCaptured(warband=wb, count=n)
    elif verb == "turn":
        if r.peek() == "round":
            r.i += 1
        out = E.TurnStarted(warband=wb, round=r.int("the round"))
    else:  # "move" and the classes are read above
        raise r.fail("an event")
    r.done()
    return out


def dice_of(r: Reader) -> list[int]:
    """Dice written ``2 4``, ``2+4`` or ``2,4`` (at most 9)."""
    out: list[int] = []
    while r.peek() is not None and re.match(r"^-?[0-9]{1,6}(\+-?[0-9]{1,6})*$", r.peek() or ""):
        out += [int(x) for x in r.next("dice").split("+")]
        if len(out) > 9:
            raise r.fail("at most 9 dice")
    return out


def read_actorless(text: str, words: list[str]) -> Any:
    """``round N, W first, K crystals``, ``over: ...`` and ``start ...``."""
    r = Reader(text, words)
    head = r.next("an event").casefold()
    if head == "start":
        return parse_setup(" ".join(words[1:]), text)
    if head == "round":
        n = r.int("the round")
        first = r.warband()
        r.word("first")
        k = r.int("the crystals on the Citadel")
        if r.peek() in ("crystal", "crystals"):
            r.i += 1
        r.done()
        return E.RoundStarted(round=n, first=first, crystals=k)
    if head != "over":
        r.i -= 1
        raise r.fail("start, round or over")
    result = r.word("win", "draw")
    winner: str | None = None
    alliance: list[str] = []
    if r.peek() != "by":
        w = r.name("the winning players (ann+cat) or -")
        winner = None if w == "-" else w
        a = r.next("the winning warbands (tuatha+ishtari) or -")
        alliance = [] if a == "-" else [WARBAND_WORDS.get(x.casefold(), x) for x in a.split("+")]
    r.word("by")
    reason = r.name("the reason (crystal-majority, last-crystal, no-crystal, wipeout)")
    r.done()
    return E.GameEnded(result=result, winner=winner, alliance=alliance, reason=reason)  # type: ignore[arg-type]


# == the notation ===========================================================================================

class Notation(BaseNotation):
    """The Kolossus notation (the module says the grammar)."""

    def format(self, event: Event, state: Any = None) -> str:
        """``event`` in the table's words; ``state`` (the position it happens in) names the class
        of the miniature a move starts from (``move`` without it)."""
        if type(event) not in E.EVENT_TYPES:
            return super().format(event, state)
        return event_text(event, state)

    def parse(self, text: str, state: Any = None) -> Event:
        """The event ``text`` writes, legal or not.  ``state`` is needed only for a text without
        a ``warband:`` (the current warband's) or with a player's name, and checks the class a
        move names against the miniature on its first square."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        stripped = text.strip()
        if stripped.startswith("{"):
            return self.parse_json(stripped)
        if not stripped:
            raise NotationError(text, "an empty text writes no event")
        m = re.match(r"^([^\s:]+)\s*:\s*(.*)$", stripped, re.S)
        head = stripped.split(None, 1)[0].casefold()
        if head in ("round", "start") or (m is not None and m.group(1).casefold() == "over"):
            if head == "start":
                return read_actorless(text, stripped.split())
            over = m is not None and m.group(1).casefold() == "over"
            return read_actorless(text, ["over", *words_of(m.group(2))] if over and m is not None else words_of(stripped))
        if m is not None:
            wb, body = self.actor(m.group(1), state, text), m.group(2)
        else:
            if state is None or not getattr(state, "warbands", None):
                raise NotationError(text, f"{stripped!r}: name the warband (tuatha: {stripped}); without a "
                                    f"position the text says whose event it is", [f"{w}: {stripped}" for w in WARBANDS])
            wb, body = state.current.id, stripped
        try:
            return read_body(Reader(text, words_of(body)), wb, state)
        except NotationError:
            if state is not None:
                try:  # (a few words of one legal event: the core's lookup)
                    return super().parse(text, state)
                except NotationError:
                    pass
            raise

    def actor(self, word: str, state: Any, text: str) -> str:
        """The warband a ``who:`` prefix names: a warband's id, name or letter, or a player
        commanding one (the one whose turn it is, of two)."""
        found = WARBAND_WORDS.get(word.casefold())
        if found is not None or word == "?":
            return found or word
        seats = [] if state is None else [w for w in state.warbands if w.player.casefold() == word.casefold()]
        if len(seats) == 1:
            return seats[0].id
        if len(seats) > 1:
            now = state.current
            if now in seats:
                return now.id
            raise NotationError(text, f"{word} commands {' and '.join(w.id for w in seats)}: name the warband",
                                [text.replace(word, w.id, 1) for w in seats])
        from adjudicator.core.suggest import closest

        near = closest(word.casefold(), WARBAND_WORDS)
        raise NotationError(text, f"{word!r} is no warband{'' if state is None else ' nor player'} of this match"
                            + (f" (did you mean {WARBAND_WORDS[near]}?)" if near else ""),
                            [text.replace(word, WARBAND_WORDS[near], 1)] if near else list(WARBANDS))

    # -- entries ----------------------------------------------------------------------------------------
    def parse_entry(self, text: str, state: Any = None) -> list[Event]:
        """The events of one entry: parts separated by ``;``, each read in the position the ones
        before leave (the derived events settled by the engine), and the compound activation
        ``[warband:] Class [dice] path [weapon]`` (ActivationDeclared, MovementRolled,
        MiniatureMoved; from a ``roll`` step the roll and the move).  A die the entry leaves out is
        filled in only where the match's die generator fixes it (``destiny``, ``quake``, and the
        dice of a compound); else the entry stops before it, for the recorder to ask (with a path
        after it: a :class:`NotationError`).  An illegal event ends the entry (a
        :class:`NotationError` when parts follow it).  Needs the position."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        parts = [p.strip() for p in re.split(r"[;\n]", text) if p.strip()]
        if len(parts) > MAX_PARTS:
            raise NotationError(text[:80], f"{len(parts)} parts in one entry; at most {MAX_PARTS}")
        if state is None:
            if len(parts) != 1:
                raise NotationError(text, "an entry of several events is read in a position")
            return [self.parse(parts[0])]
        from adjudicator.core.verify import settle

        game = self.game
        s, _ = settle(game, state)
        out: list[Event] = []
        todo = [(p, p) for p in parts]  # (a part, the part as typed: a compound's own text)
        while todo:
            part, typed = todo.pop(0)
            expanded = self.expand(part, s)
            if expanded is not None:
                todo[:0] = [(x, part) for x in expanded]
                continue
            e = self.fill(part, s)
            if e is None:  # a die for the recorder to ask
                if todo:
                    raise NotationError(text, f"{typed!r}: the dice are not given and the match's die generator does "
                                        f"not fix them; write them after the class (Warrior 3 b9-c10, Guardian 2+4 ...)")
                return out
            out.append(e)
            ruling = game.check(s, e)
            if ruling.verdict != "legal":
                if todo:
                    raise NotationError(text, f"{self.format(e, s)!r} is {ruling.verdict} ({ruling.rule}: "
                                        f"{ruling.message}); the rest of the entry is not read")
                return out
            s, _ = settle(game, game.apply(s, e))
        return out

    def expand(self, part: str, s: Any) -> list[str] | None:
        """A compound activation as its parts (None: ``part`` is one event)."""
        m = re.match(r"^(?:([^\s:]+)\s*:\s*)?(.*)$", part, re.S)
        assert m is not None
        prefix, body = m.group(1), m.group(2)
        words = words_of(body)
        if not words or words[0].casefold() not in CLASS_OF or s.step not in ("act", "roll") \
                or "beaten" in [w.casefold() for w in words]:
            return None
        wb = self.actor(prefix, s, part) if prefix else s.current.id
        r = Reader(part, words)
        c = r.cls()
        dice = dice_of(r)
        rest = words[r.i:]
        out: list[str] = []
        if s.step == "act":
            square = None
            if rest and not s.options.choose_after_roll:
                square = rest[0].split("-")[0].casefold()
            out.append(event_text(E.ActivationDeclared(warband=wb, character=c, square=square)))  # type: ignore[arg-type]
        out.append(f"{wb}: roll " + " ".join(map(str, dice)) if dice else f"{wb}: roll")
        if rest:
            out.append(f"{wb}: {CLASS_NAME[c]} {' '.join(rest)}")
        return out

    def fill(self, part: str, s: Any) -> Event | None:
        """``part`` as one event; a die left out (``roll``, ``destiny``, ``quake``) is the one
        the match's die generator fixes (None: it fixes none)."""
        words = words_of(part.split(":", 1)[-1]) if ":" in part else words_of(part)
        if len(words) == 1 and words[0].casefold() in ("roll", "destiny", "quake"):
            want = {"roll": E.MovementRolled, "destiny": E.DestinyRolled, "quake": E.QuakeRolled}[words[0].casefold()]
            fixed = [e for e in self.game.legal_events(s) if type(e) is want] if s.setup.rng is not None else []
            return fixed[0] if len(fixed) == 1 else None
        return self.parse(part, s)

    def format_entries(self, events: list[Event], state: Any) -> str:
        """``events`` (decisions and dice of one warband, in the order played from ``state``) as
        one entry :meth:`parse_entry` reads back: activations compounded, dice the match's die
        generator fixes left out, parts joined by ``;``.  From an event the rules refuse on, the
        events are written one by one in the last position known (such an entry reads back only
        up to that event, as :meth:`parse_entry` says)."""
        parts: list[str] = []
        s: Any = self.advance(state, [])
        i = 0
        while i < len(events):
            e = events[i]
            trio = events[i:i + 3]
            after = None
            if s is not None and type(e) is E.ActivationDeclared and len(trio) == 3 and type(trio[1]) is E.MovementRolled \
                    and type(trio[2]) is E.MiniatureMoved and self.compounds(s, trio):
                after = self.advance(s, trio)
            if after is not None:
                mv: Any = trio[2]
                dice = "" if s.setup.rng is not None else "+".join(map(str, trio[1].dice)) + " "  # type: ignore[attr-defined]
                parts.append(f"{e.warband}: {CLASS_NAME[e.character]} {dice}{move_words(mv, None).split(' ', 1)[1]}")  # type: ignore[attr-defined]
                s, i = after, i + 3
                continue
            after = self.advance(s, [e]) if s is not None else None
            if after is not None and type(e) in (E.DestinyRolled, E.QuakeRolled) and s.setup.rng is not None:
                parts.append(f"{e.warband}: {'destiny' if type(e) is E.DestinyRolled else 'quake'}")  # type: ignore[attr-defined]
            else:
                parts.append(self.format(e, s))
            s = after if after is not None else None if s is None else s
            if after is None:  # (refused: the rest in words, in the last position known)
                parts += [self.format(x, s) for x in events[i + 1:]]
                break
            i += 1
        whole = "; ".join(parts)
        first = getattr(events[0], "warband", None) if events else None
        if len(parts) < 2 or not isinstance(first, str):
            return whole
        # the parts after the first without ``warband:`` (the current warband's, as parse_entry
        # reads them), where that reads back the same
        short = "; ".join(parts[:1] + [p.removeprefix(f"{first}: ") for p in parts[1:]])
        try:
            return short if self.parse_entry(short, state) == [bare(x) for x in events] else whole
        except NotationError:
            return whole

    def advance(self, state: Any, events: list[Event]) -> Any:
        """The settled position after ``events`` from ``state``, each checked (None: one is refused)."""
        from adjudicator.core.verify import settle

        game = self.game
        s, _ = settle(game, state)
        for e in events:
            if game.check(s, e).verdict != "legal":
                return None
            s, _ = settle(game, game.apply(s, e))
        return s

    def compounds(self, s: Any, trio: list[Any]) -> bool:
        """Whether declaration, roll and move read back from one compound text."""
        a, roll, mv = trio
        if not mv.path or mv.start is not None or any(not isinstance(q, str) or not _SQUARE.match(q) for q in mv.path):
            return False
        if len({a.warband, roll.warband, mv.warband}) != 1 or not roll.dice or a.character not in CLASS_NAME:
            return False
        if mv.weapon not in (None, "sword", "whip"):
            return False
        want_square = None if s.options.choose_after_roll else mv.path[0]
        p = piece_at(s, mv.path[0])
        return a.square == want_square and (p is None or p.character == a.character) and s.step == "act"

    # -- narrowing (a square tapped on the board) ---------------------------------------------------------
    def narrow(self, state: Any, square: str, *more: str) -> list[Event]:
        """The legal events of ``state`` that touch ``square`` (and every square of ``more``): a
        move through or onto it, a placement or rebirth on it, a weapon's target, a Great Quake or
        Earthquake sliding its row or column.  A square may carry a class (``C a9``,
        ``Guardian b9``): then only the events that put or name that class there (a placement's
        Colossus on a9).  A board tapped square by square narrows the choices: the miniature's
        square, then where it goes; a placement, class by class."""
        taps = []
        for tap in (square, *more):
            words = tap.split()
            cls = CLASS_OF.get(words[0].casefold()) if len(words) == 2 else None
            if len(words) == 2 and cls is None:
                raise NotationError(tap, f"{tap!r}: a square, or a class and a square (C a9)", [])
            taps.append((words[-1].casefold(), cls))
        out = []
        for e in self.game.legal_events(state):
            marks = set(touched(e))
            if all((q, c) in marks if c else any(m[0] == q for m in marks) for q, c in taps):
                out.append(e)
        return out

    # -- positions ----------------------------------------------------------------------------------------
    def format_position(self, state: Any, seat: str | None = None) -> str:
        """The position in one line (:mod:`.position_line`): with ``seat``, what that player sees
        (Kolossus hides nothing: the same line)."""
        return format_position(self.game.observe(state, seat) if seat is not None else state)

    def parse_position(self, text: str) -> Any:
        return parse_position(self.game, text)


def touched(e: Any) -> Iterator[tuple[str, str | None]]:
    """The squares an event names, each with the class it puts or names there (None: none
    said); a region's squares for a slide."""
    cls = getattr(e, "character", None)
    for f in ("square", "start"):
        v = getattr(e, f, None)
        if isinstance(v, str):
            yield v, cls
    if type(e) is E.MiniaturesPlaced:
        yield e.colossus, "colossus"
        yield from ((q, "guardian") for q in e.guardians)
        yield from ((q, "warrior") for q in e.warriors)
    for f in ("path", "targets"):
        yield from ((q, None) for q in getattr(e, f, None) or ())
    region = getattr(e, "region", None)
    if isinstance(region, str):
        kind, _, at = region.partition("-")
        for r in range(1, 27):
            for c in "abcdefghijklmnopqrstuvwxyz":
                if (kind == "row" and at == str(r)) or (kind == "column" and at == c):
                    yield f"{c}{r}", None
