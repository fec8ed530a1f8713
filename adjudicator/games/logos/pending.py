"""Conditions settled later (LG-37): an undetermined event of a seat's record keeps its condition
until a later event of the record names what it turned on (a battle card, a Backup card); the
verifier then lists only the conditions still open.  Split from unknowns.py, whose helpers it reads."""

from __future__ import annotations

import re
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN

from . import events as E
from .state import Pending, State
from .unknowns import Rules, follows, unknown, unsure


#: the parts of a condition a later event of the record can settle, and the key that settles each:
#: a player's battle card of a round named (it was playable, LG-3.3), a player's Backup card named
#: (it was eligible, LG-4.1).  A condition with any other part stays open to the end.
_SETTLED_BY = (
    (re.compile(r"(.+?) held (?:a|another) playable card in round (\d+)"), "battle"),
    (re.compile(r"one of (.+?)'s unknown slot cards is playable in round (\d+) \(.*\)"), "battle"),
    (re.compile(r"(.+?)'s battle card of round (\d+) is playable \(.*\)"), "battle"),
    (re.compile(r"(.+?)'s Backup card of round (\d+) has Speed above 99 and no combo requirement \(.*\)"), "backup"),
)


def settle_keys(condition: str) -> tuple[str, ...] | None:
    """What settles ``condition`` (every part's key), or None when some part is nothing a later
    event of the record can show (a player who was defenseless, an unknown battle card's effect)."""
    keys: list[str] = []
    for part in re.split(r"; |, and ", condition):
        for pattern, kind in _SETTLED_BY:
            m = pattern.fullmatch(part)
            if m is not None:
                keys.append(f"{kind}:{m.group(1)}" + (f":{m.group(2)}" if kind == "battle" else ""))
                break
        else:
            return None
    return tuple(dict.fromkeys(keys))


def keep_condition(r: Rules, s: State, e: Any, apply: Any) -> State:
    """The position after ``e`` (``apply(s, e)``), keeping ``e``'s condition, when ``e`` is
    undetermined, until a later event settles it (the verifier then lists only those still open).

    Only an event that can be undetermined is judged again: a Backup assignment, a commitment or
    a pick (LG-37), any decision where the position is one of several, a stated consequence that
    turns on an unknown card (LG-38).  Judged before applying (the check of several positions
    is kept for the apply)."""
    t = type(e)
    if e.kind == "X":
        maybe = follows(r, s)
    elif s.alts or s.step == "blind" or (s.due and unsure(s)) or (s.phase == "refill" and follows(r, s)):
        maybe = True  # (the last: a deck of unknown size that may have given no card, LG-46)
    elif t is E.CardPicked:
        maybe = unknown(e.card)
    elif t is E.CardCommitted or t is E.BackupAssigned:
        maybe = len(s.players) == 2 and (HIDDEN in s.player(e.player).slots or (t is E.BackupAssigned and unknown(e.card)))
    else:
        maybe = False
    if not maybe:
        return apply(s, e)
    ruling = r.check(s, e)
    new = apply(s, e)
    if ruling.condition is None:
        return new
    keys = settle_keys(ruling.condition)
    if keys is not None:
        done = settled_key(s, e)  # the event may name the very card its condition turns on
        keys = tuple(k for k in keys if k != done)
        if not keys:
            return new
    item = Pending(ruling.condition, keys or ())
    return _map_positions(new, lambda t: replace(t, pending=t.pending + (item,)))


def _map_positions(s: State, fn: Any) -> State:
    """``fn`` applied to ``s`` and to every alternative position it carries."""
    out = fn(s)
    if s.alts:
        out = replace(out, alts=tuple(fn(a) for a in s.alts))
    return out


def settle(s: State, key: str) -> State:
    """``s`` after an event named what ``key`` stands for: conditions waiting on it alone are
    closed (the event was legal after all)."""
    keep = []
    changed = False
    for x in s.pending:
        if key in x.needs:
            changed = True
            rest = tuple(k for k in x.needs if k != key)
            if rest:
                keep.append(replace(x, needs=rest))
        else:
            keep.append(x)
    return replace(s, pending=tuple(keep)) if changed else s


def open_conditions(s: State) -> set[str]:
    """The conditions of ``s`` (and of the positions it stands for) no event has settled."""
    out = {x.condition for x in s.pending}
    for a in s.alts:
        out.update(x.condition for x in a.pending)
    return out


def settled_key(s: State, e: Any) -> str | None:
    """The key of what ``e`` names (a battle card of this round, a Backup card), or None."""
    t = type(e)
    if t is E.PickRevealed or (t is E.CardPicked and not unknown(e.card)):
        return f"battle:{e.player}:{s.round}"
    if t is E.BackupCalled and not unknown(e.card):
        return f"backup:{e.player}"
    return None
