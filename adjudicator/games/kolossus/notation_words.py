"""The Kolossus notation, written: the text of every event (:func:`event_text`) and the words
the grammar is made of.  The grammar is in :mod:`.notation` and docs/games/kolossus.md
("Notation"); :mod:`.notation_read` reads the texts back."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from adjudicator.core.kernel.notation import NotationError

from . import events as E
from .position_line import LETTER, format_setup
from .state import CHARACTERS, WARBANDS


#: class -> its name and its letter in texts
CLASS_NAME = {c: c.capitalize() for c in CHARACTERS}
CLASS_LETTER = {"warrior": "W", "guardian": "G", "colossus": "C"}
CLASS_OF = {**{c: c for c in CHARACTERS}, **{v.lower(): k for k, v in CLASS_LETTER.items()},
            "warriors": "warrior", "guardians": "guardian"}
DIRS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
SQUARE = re.compile(r"^[a-z][0-9]{1,2}$|^\?$")
REGION = re.compile(r"^(row-[0-9]{1,2}|column-[a-z])$|^\?$")
NAME = re.compile(r"^[A-Za-z0-9_.@'?+-]+$")
INT = re.compile(r"^-?[0-9]{1,12}$")
#: a leg of the direction form: the steps, then the direction (``2S``; ``S2`` would read as a square)
LEG = re.compile(r"^(-?[0-9]{1,6})(N|NE|E|SE|S|SW|W|NW)$", re.I)
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
    if not isinstance(v, str) or not SQUARE.match(v):
        raise Plain
    return v


def _region(v: Any) -> str:
    if not isinstance(v, str) or not REGION.match(v):
        raise Plain
    return v


def _name(v: Any) -> str:
    if not isinstance(v, str) or not NAME.match(v) or v.casefold() in ("by", "-", "over"):
        raise Plain
    return v


def _int(v: Any) -> str:
    if type(v) is not int or not INT.match(str(v)):
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

