"""Small pure helpers of the Colossus Order rules: the ruling of a broken rule (:func:`bad`), the pool
a position names, multisets of card ids, a follower's readiness, and a position with one player or
one follower changed."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable

from msgspec.structs import astuple, replace

from adjudicator.core.kernel.rulings import Illegal

from adjudicator.core.kernel.events import HIDDEN

from .cards import Card, Pool, POOLS
from .unknowns import hand_could, s_pool
from .state import Follower, Player, State


NS = "colossus-order/"


def bad(rule: str, code: str, message: str) -> Illegal:
    return Illegal(rule, NS + code, message)


# -- small pure helpers -------------------------------------------------------------------------

#: the pool of a position (the working position's own, found once per verification)
pool_of: Callable[[State], Pool] = s_pool


def card_words(s: State, card: str | None) -> str:
    """A card as a ruling names it to a person: its name in the match's pool (an id the pool
    does not hold, or an unknown card, as written)."""
    c = pool_of(s).get(card) if isinstance(card, str) else None
    return c.name if c is not None else str(card)


def named(s: State, f: Follower) -> str:
    """Follower ``f`` as a ruling names it to a person: its handle and its card's name
    (``F4 (Dawn Sparrowhawk)``; an unknown card: ``F4``)."""
    card = pool_of(s).get(f.card)
    return f"{f.handle} ({card.name})" if card is not None else f.handle


def remove_many(items: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    out = list(items)
    for c in cards:
        out.remove(c)
    return tuple(out)


def contains_multiset(items: tuple[str, ...], wanted: Iterable[str]) -> bool:
    """``items`` holds every card of ``wanted`` (repeats counted).  Each copy is found by
    ``index`` from the one before: in a deck of thousands of cards that stops after a few, where
    counting the whole deck would not."""
    for k, v in Counter(wanted).items():
        at = -1
        for _ in range(v):
            try:
                at = items.index(k, at + 1)
            except ValueError:
                return False
    return True


def not_ready(s: State, f: Follower) -> Illegal | None:
    """Why follower ``f`` cannot attack now (CO-7.3), or None (``check`` and the candidates)."""
    if not f.on:
        return bad("CO-7.3", "attacker-not-ready", f"{named(s, f)} is OFF and cannot attack")
    if f.played_turn == s.turn:
        return bad("CO-7.3", "attacker-not-ready", f"{named(s, f)} was played this turn (turn {s.turn}) and cannot attack yet")
    if f.attacked:
        return bad("CO-7.3", "attacker-not-ready", f"{named(s, f)} already attacked this turn")
    return None


def cannot_go_off(s: State, f: Follower) -> Illegal | None:
    """Why follower ``f`` cannot pay an OFF cost now (CO-8.3, CO-9), or None."""
    if not f.on:
        return bad("CO-8.3", "already-off", f"{named(s, f)} is OFF and cannot pay an OFF cost")
    if f.played_turn == s.turn:
        return bad("CO-9", "summoning-sick", f"{named(s, f)} was played this turn and cannot pay an OFF cost")
    return None


def put(s: State, **changes: Any) -> State:
    """``s`` with ``changes``: a frozen position gives a new one; the fold's working position
    (:mod:`.working`) is changed in place and returned.  The apply handlers change a position
    through this (and :func:`push`, :func:`with_player`), so one handler serves both: the frozen
    contract (``game.apply``, a position nobody changes) and the verifier's working position
    (no position made for an event nobody keeps)."""
    if s.__class__ is State:
        return replace(s, **changes)
    for k, v in changes.items():
        setattr(s, k, v)
    return s


_N = len(State.__struct_fields__)


def frozen(s: State) -> State:
    """``s`` as a frozen position (the fold's working position copied; a frozen one as it is)."""
    return s if s.__class__ is State else State(*astuple(s)[:_N])


def push(s: State, *tasks: Any, drop: int = 0) -> State:
    """``s`` with ``tasks`` put at the head of its queue after dropping ``drop`` tasks (the kit's
    ``push``, as :func:`put` changes a position)."""
    todo = tasks + s.todo[drop:] if tasks else s.todo[drop:]
    if s.__class__ is State:
        return replace(s, todo=todo)
    s.todo = todo  # type: ignore[misc]
    return s


def with_player(s: State, pid: str, **changes: Any) -> State:
    """``s`` with player ``pid`` changed (as :func:`put` changes a position)."""
    a, b = s.players
    if "hand" in changes:  # CO-39.8: what the hand's unknown cards can be follows every change of the hand
        old = a if a.id == pid else b
        if HIDDEN in old.hand or old.hand_could or HIDDEN in changes["hand"]:
            changes["hand_could"] = hand_could(old, changes["hand"], changes.get("unseen", old.unseen))
    players = (replace(a, **changes), b) if a.id == pid else (a, replace(b, **changes))
    if s.__class__ is State:
        return replace(s, players=players)
    s.players = players  # type: ignore[misc]
    return s


def find_follower(s: State, handle: str | None) -> tuple[Player, int, Follower] | None:
    if handle is None:
        return None
    for p in s.players:
        for i, f in enumerate(p.field):
            if f.handle == handle:
                return p, i, f
    return None


def with_follower(s: State, handle: str, **changes: Any) -> State:
    found = find_follower(s, handle)
    if found is None:
        return s
    p, i, f = found
    field = p.field[:i] + (replace(f, **changes),) + p.field[i + 1:]
    return with_player(s, p.id, field=field)


def without_follower(s: State, handle: str, to: str) -> State:
    """Take a follower off the field into its owner's discard pile or hand."""
    found = find_follower(s, handle)
    if found is None:
        return s
    p, i, f = found
    field = p.field[:i] + p.field[i + 1:]
    if to == "hand":
        return with_player(s, p.id, field=field, hand=p.hand + (f.card,))
    return with_player(s, p.id, field=field, discard=p.discard + (f.card,))


def _is_gem(card: Card) -> bool:
    return card.is_gem


def _not_gem(card: Card) -> bool:
    return not card.is_gem


def available_locus(p: Player) -> int:
    return max(0, len(p.locus) - p.locus_used)


def describe_gems(req: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in req.items()) or "none"
