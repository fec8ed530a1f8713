"""The Kolossus notation, read: a text's words, left to right, as the event they write (the
grammar is in :mod:`.notation` and docs/games/kolossus.md, "Notation")."""

from __future__ import annotations

import re
from typing import Any

from adjudicator.core.kernel.notation import NotationError

from . import events as E
from .notation_words import (
    CLASS_NAME, CLASS_OF, DIRS, INT, LEG, MAX_WORDS, NAME, REGION, SQUARE, VERBS, WARBAND_WORDS, event_text, piece_at,
)
from .position_line import parse_setup
from .state import WARBANDS

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
        return int(self.take(what, INT.match))

    def square(self) -> str:
        return self.take("a square (a1 .. k11)", SQUARE.match, str.casefold)

    def squares(self) -> list[str]:
        if self.peek() == "-":
            self.i += 1
            return []
        out = []
        while self.peek() is not None and SQUARE.match(self.peek() or ""):
            out.append(self.square())
        return out

    def region(self) -> str:
        return self.take("a region (row-1 .. column-k)", REGION.match, str.casefold)

    def direction(self) -> str:
        return self.take("a direction (N, NE, E, SE, S, SW, W, NW)", DIRS.__contains__, str.upper)

    def cls(self) -> str:
        return CLASS_OF[self.take("a class (Warrior, Guardian, Colossus)", CLASS_OF.__contains__, str.casefold,
                                  list(CLASS_NAME.values()))]

    def name(self, what: str) -> str:
        return self.take(what, NAME.match)

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
    while r.peek() is not None and SQUARE.match(r.peek() or ""):
        parts.append(r.square())  # (squares written apart: b9 c10 d11)
    if any(not SQUARE.match(q) for q in parts):
        r.i -= 1
        raise r.fail("a path of squares (b9-c10-d11)")
    steps: list[tuple[str, int]] = []
    while r.peek() is not None and LEG.match(r.peek() or ""):
        m = LEG.match(r.next("a direction and steps"))
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
        return _beaten(r, wb)
    if verb in CLASS_OF or verb == "move":
        return read_move(r, wb, state)
    if verb not in VERBS:
        from adjudicator.core.kernel.suggest import closest

        near = closest(verb, [*VERBS, *CLASS_OF])
        fixed = " ".join([near if k == r.i else w for k, w in enumerate(r.words)]) if near else None
        raise r.fail("an event: " + ", ".join(VERBS) + " or a class" + (f" (did you mean {near!r}?)" if near else ""),
                     [f"{wb}: {fixed}"] if fixed else [])
    r.i += 1
    read = _READERS.get(verb)
    if read is None:  # "move" and the classes are read above
        raise r.fail("an event")
    out = read(r, wb, verb)
    r.done()
    return out


def _beaten(r: Reader, wb: str) -> Any:
    c = r.cls()
    sq = r.square()
    r.word("beaten")
    r.word("by")
    by = r.name("who beat it (a warband, quake or earthquake)")
    by = WARBAND_WORDS.get(by.casefold(), by) if by.casefold() not in ("quake", "earthquake") else by.casefold()
    r.done()
    return E.MiniatureBeaten(warband=wb, character=c, square=sq, by=by)  # type: ignore[arg-type]


def _activate(r: Reader, wb: str, verb: str) -> Any:
    c = r.cls()
    sq = r.square() if r.peek() is not None else None
    return E.ActivationDeclared(warband=wb, character=c, square=sq)  # type: ignore[arg-type]


def _roll(r: Reader, wb: str, verb: str) -> Any:
    if r.peek() == "-":
        r.i += 1
        dice: list[int] = []
    else:
        dice = dice_of(r)
        if not dice:
            raise r.fail("the dice (roll 2 4)")
    return E.MovementRolled(warband=wb, dice=dice)


def _die(r: Reader, wb: str, verb: str) -> Any:
    v = r.int("the die (1 to 4)")
    return E.DestinyRolled(warband=wb, value=v) if verb == "destiny" else E.QuakeRolled(warband=wb, value=v)


def _skills(r: Reader, wb: str, verb: str) -> Any:
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
    return E.SkillsChosen(warband=wb, attack=att, defence=dfc) if verb == "skills" else \
        E.ManaAllocated(warband=wb, attack=att, defence=dfc, pool=pool, weapon=weapon)


def _place(r: Reader, wb: str, verb: str) -> Any:
    got: dict[str, list[str]] = {}
    while r.peek() is not None:
        c = r.cls()
        if c in got:
            raise r.fail(f"each class once ({CLASS_NAME[c]} twice)")
        got[c] = r.squares()
    if len(got.get("colossus", [])) != 1:
        raise r.fail("the Colossus's one square (place C a9, G b9 c11, W a10 b10 c10 a11 b11)")
    return E.MiniaturesPlaced(warband=wb, colossus=got["colossus"][0], guardians=got.get("guardian", []),
                              warriors=got.get("warrior", []))


def _shift(r: Reader, wb: str, verb: str) -> Any:
    region, d = r.region(), r.direction()
    return E.QuakeShifted(warband=wb, region=region, direction=d, distance=r.int("the distance"))  # type: ignore[arg-type]


def _earthquake(r: Reader, wb: str, verb: str) -> Any:
    region = r.region()
    return E.EarthquakeUsed(warband=wb, region=region, direction=r.direction())  # type: ignore[arg-type]


def _rebirth(r: Reader, wb: str, verb: str) -> Any:
    c = r.cls()
    return E.RebirthUsed(warband=wb, character=c, square=r.square())  # type: ignore[arg-type]


def _takes(r: Reader, wb: str, verb: str) -> Any:
    n = r.int("the crystals taken")
    if r.peek() in ("crystal", "crystals"):
        r.i += 1
    return E.CrystalsCaptured(warband=wb, count=n)


def _turn(r: Reader, wb: str, verb: str) -> Any:
    if r.peek() == "round":
        r.i += 1
    return E.TurnStarted(warband=wb, round=r.int("the round"))


#: a verb's reader (the body after it); the verbs of the events of no other field are their own
_READERS: dict[str, Any] = {
    "activate": _activate, "roll": _roll, "destiny": _die, "quake": _die, "skills": _skills, "mana": _skills,
    "place": _place, "shift": _shift, "earthquake": _earthquake, "rebirth": _rebirth, "takes": _takes, "turn": _turn,
    "end": lambda r, wb, verb: E.TurnEnded(warband=wb), "initiative": lambda r, wb, verb: E.InitiativeUsed(warband=wb),
    "spear": lambda r, wb, verb: E.WeaponUsed(warband=wb, weapon=verb, targets=r.squares()),  # type: ignore[arg-type]
    "hammer": lambda r, wb, verb: E.WeaponUsed(warband=wb, weapon=verb, targets=r.squares()),  # type: ignore[arg-type]
}


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

