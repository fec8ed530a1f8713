"""LG-45: what a seat's record knows of the opponent's unknown cards that a look showed it.

A look a pool gives a card (LG-43) shows its owner the opponent's card slots or Backup card; the
looker's record states the look's ``EffectResolved`` naming them (``redact --as`` writes it).  The
record cannot put a slot card it saw in its place (where an unknown card went in the slots is not
known to it: a card played from them leaves its leftmost unknown slot), so it keeps the cards as
a multiset, ``Player.held``: cards the unknown (``"?"``) card slots hold, some of them or all.
The single Backup Slot has no such doubt: the Backup card seen is named there.

Then an event that names a card leaving those unknown slots (a pick, a Backup assignment, a
defenseless player's cards, a card an effect discards) must fit: while every unknown slot card
is known, a card that is none of them is illegal, and an event that names all of them must name
each known one.  What is known goes as the cards go: a named card leaves ``held``; a card that
leaves unnamed (a face-down Backup assignment, a card shuffled into the deck) may be any of
them, so nothing is kept; a card drawn into a slot is one more unknown.

Pure functions of positions and events; the rules call :func:`settle` after every event of a
record (rules.py, with unknowns.take: unknowns imports this module) and the checks ask
:func:`named_problem` / :func:`all_named_problem`.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN

from . import events as E
from .state import Player, State


def _minus(a: tuple[str, ...] | list[str], b: list[str]) -> list[str]:
    left = list(a)
    for c in b:
        if c in left:
            left.remove(c)
    return left


def named_problem(p: Player, card: str) -> str | None:
    """Why ``card`` cannot be one of ``p``'s unknown card slots (every one of them known, none
    of them ``card``), or None."""
    if p.held and card not in p.held and len(p.held) >= p.slots.count(HIDDEN):
        return (f"{p.id}'s unknown card slots hold {', '.join(sorted(p.held))}, which a look showed "
                f"(LG-45), and no {card}")
    return None


def all_named_problem(p: Player, named: list[str]) -> str | None:
    """Why ``named``, every card of ``p``'s unknown card slots, cannot be them (a card a look
    showed there is not among them), or None."""
    missing = _minus(p.held, [c for c in named if c != HIDDEN]) if HIDDEN not in named else []
    if missing:
        return f"a look showed {', '.join(sorted(missing))} in {p.id}'s card slots (LG-45), which it does not name"
    return None


def _named_out(e: Any, pid: str) -> list[str] | None:
    """The cards ``e`` names leaving ``pid``'s card slots (``"?"`` for one it does not name);
    None for an event that names none."""
    t = type(e)
    if t in (E.CardPicked, E.PickRevealed, E.BackupAssigned) and e.player == pid:
        return [HIDDEN if e.card is None else e.card]
    if t is E.Defenseless and e.player == pid:
        return list(e.cards)
    if t is E.EffectResolved and e.target == pid and e.cards and e.effect not in ("look-slots", "look-backup"):
        return list(e.cards)
    return None


def _learn(s: State, e: Any, p: Player, take: Any) -> Player:
    """``p`` (the target of a look ``e`` stated in its opponent's record) knowing what it showed
    (``take(s, p, card)``: ``p`` with one of its unknown cards named ``card``, unknowns.take)."""
    named = [c for c in e.cards if c != HIDDEN]
    if (e.copied or e.effect) == "look-backup":
        if p.backup == HIDDEN and len(named) == 1:
            return replace(take(s, p, named[0]), backup=named[0])
        return p
    hidden = _minus(named, [c for c in p.slots if c is not None and c != HIDDEN])
    return replace(p, held=tuple(sorted(hidden))) if len(hidden) == p.slots.count(HIDDEN) else p


def settle(before: State, after: State, e: Any, take: Any) -> State:
    """``after`` (the position ``e`` left in a seat's record) with each player's ``held`` as it
    still holds: what a look stated in the record showed, the named cards gone, nothing kept where
    an unnamed card left the unknown slots or more are known than there are (LG-45)."""
    if len(after.players) != 2 or len(before.players) != 2:
        return after
    players = list(after.players)
    changed = False
    for i, p in enumerate(players):
        q = p
        if type(e) is E.EffectResolved and e.target == p.id and e.player != p.id and e.result == "applied" \
                and e.cards and (e.copied or e.effect) in ("look-slots", "look-backup"):
            q = _learn(after, e, p, take)
        elif p.held:
            was = before.player(p.id)
            out = _named_out(e, p.id) or []
            gone = was.slots.count(HIDDEN) - p.slots.count(HIDDEN)
            named = [c for c in out if c != HIDDEN]
            held = tuple(_minus(p.held, named))
            if gone > len(named) or len(held) > p.slots.count(HIDDEN):  # an unknown card left unnamed
                held = ()
            q = replace(p, held=held) if held != p.held else p
        if q is not p:
            players[i], changed = q, True
    if not changed and not any(a.held for alt in after.alts for a in alt.players):
        return after
    alts = tuple(replace(a, players=tuple(replace(x, held=()) for x in a.players)) for a in after.alts)
    return replace(after, players=tuple(players), alts=alts)
