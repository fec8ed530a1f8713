"""What a seat's recorder does with LOGOS's hidden picks (``adjudicator record --as``,
recorder/session.py): the seat commits to its pick with a fresh salt of its own and reveals it
when the rules ask (LG-3.4); it enters the opponent's hidden values as unknown (:func:`unknowns`)
and, where its view cannot derive what the table shows (LG-38, LG-42), what the table showed
(:func:`stated`, :func:`stated_hint`).  Pure: the salt is given."""

from __future__ import annotations

from itertools import combinations_with_replacement, islice, product
from math import comb
from typing import Any, Mapping

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN

from . import events as E
from . import unknowns as U
from .commitments import commitment_of, example_salt
from .values import pool_of_setup
from .zones import picked

#: the most events one statement of the table is offered as (each naming other cards); beyond it
#: the seat types what the table shows in the notation (:func:`stated_hint` says how)
MAX_STATED = 24
#: the most assignments of unknown battle cards tried for what a blind step shows
MAX_ASSIGNMENTS = 4096


def hidden_value(state: Any, event: Any) -> str | None:
    """The card a listed ``CardCommitted`` commits to (``legal`` lists one per playable card, with
    a public example salt); None for any other event."""
    if type(event) is not E.CardCommitted:
        return None
    p = next((p for p in state.players if p.id == event.player), None)
    if p is None:
        return None
    salt = example_salt(state.round, p.id)
    return next((c for c in sorted({c for c in p.slots if isinstance(c, str)})
                 if commitment_of(c, salt) == event.commitment), None)


def commit(state: Any, event: Any, salt: str) -> tuple[Any, Any, str, str] | None:
    """``event`` (a listed ``CardCommitted``) committing with ``salt`` instead: (the event the log
    records, the event the seat's own view takes, the commitment, the card); None when ``event``
    commits nothing.  The pick is a commitment in both."""
    card = hidden_value(state, event)
    if card is None:
        return None
    c = commitment_of(card, salt)
    ev = E.CardCommitted(player=event.player, commitment=c)
    return ev, ev, c, card


def due(state: Any, player: str, secrets: Mapping[str, tuple[str, str]]) -> list[Any]:
    """The reveal the rules ask of ``player`` now (LG-3.4: once both picks are committed).  The
    picks are revealed at once at the table; the records write them in seat order (a seat's reveal
    after the one of every seat before it), so that two seats' records of one match agree."""
    if state.phase != "reveal":
        return []
    p = next((p for p in state.players if p.id == player), None)
    if p is None or p.commitment is None or p.battle is not None or p.commitment not in secrets:
        return []
    for q in state.players:
        if q.id == player:
            break
        if q.commitment is not None and q.battle is None:
            return []  # an earlier seat has not revealed yet
    card, salt = secrets[p.commitment]
    return [E.PickRevealed(player=player, card=card, salt=salt)]


def before(state: Any, event: Any, secrets: Mapping[str, tuple[str, str]]) -> list[Any]:
    """Nothing is opened before a LOGOS event (a pick is revealed in its own phase)."""
    return []


def shown(event: Any, salts: Mapping[str, tuple[str, str]]) -> Any:
    """A logged event as the seat saw it: the same (a pick is a commitment in both)."""
    return event


def is_opening(event: Any) -> bool:
    """Is ``event`` an opening recorded before the seat's event (none in LOGOS)?"""
    return False


def unknowns(state: Any, seat: str) -> list[Any]:
    """The opponents' events the seat enters with what it did not see as unknown (its own device
    alone, LG-35): a hidden Backup assignment (``card "?"``), a hidden pick's commitment
    (``commitment "?"``: only the seat's own picks are commitments it made), and, as the table
    shows it, the card an unseen commitment opens (``salt "?"``), an open pick, or the Backup
    card called face up.  The engine
    judges them as any entry (a seat's record is legal or undetermined)."""
    out: list[Any] = []
    cards = sorted(pool_of_setup(state.setup))
    for p in state.players:
        if p.id == seat:
            continue
        if state.phase == "pick" and not p.defenseless and not picked(state, p):
            if p.backup is None:
                out.append(E.BackupAssigned(player=p.id, card=HIDDEN))
            if state.options.picks == "open":
                out += [E.CardPicked(player=p.id, card=c) for c in cards]
            else:
                out.append(E.CardCommitted(player=p.id, commitment=HIDDEN))
        elif state.phase == "reveal" and p.commitment == HIDDEN and p.battle is None:
            out += [E.PickRevealed(player=p.id, card=c, salt=HIDDEN) for c in cards]
        elif state.phase == "battle" and state.step == "backup" and state.priority == p.id and p.backup == HIDDEN:
            out += [E.BackupCalled(player=p.id, card=c) for c in cards]  # the card turned face up (LG-39)
    return out


# -- what the table shows where the seat's view waits on it (LG-38, LG-42) -----------------------------

def stated(state: Any, seat: str, game: Any) -> list[Any]:
    """The consequences the table shows where ``seat``'s view waits on one it cannot derive (the
    engine's ``follows_stated``: it turns on cards the seat has not seen), offered as the seat's
    choices: its record states the one the table showed, and the engine checks it against every
    card the unknown ones can be (LG-38) or keeps what it cannot check as a condition (LG-37).

    - an opponent's deck of unknown size that must give a card: rebuilt from the discard pile;
    - a player who may hold no playable card: defenseless, with the cards shown (every set of
      cards the unknown ones can be that holds no playable card, when at most :data:`MAX_STATED`);
    - an effect that moves cards the seat has not seen out of a player's card slots (LG-42) or
      shows them to their owner (a look, LG-43): the effect with those cards named as the table
      showed them (when few), or left unknown (``"?"``: nobody named them, the record goes on
      with them unknown);
    - a battle card or a position the record leaves open (LG-38): each consequence one of the
      positions the record allows derives.
    Empty where the view waits on nothing (the seat enters the next event as usual)."""
    s, r = state, game.rules
    if not U.follows(r, s):
        return []
    if s.alts:
        return _distinct(r.derive(b) for b in [replace(s, alts=()), *s.alts])
    if s.phase == "refill":
        p = r.refill_next(s)
        if p is None or not p.discard or s.options.on_empty_deck != "reshuffle-discard":
            return []
        return [E.DeckRebuilt(player=p.id, count=len(p.discard))]
    if s.phase == "pick":
        return _defenseless(r, s)
    if s.phase == "battle" and s.step == "effects":
        return _shown_cards(r, s)
    if s.step == "blind":
        return _blind(r, s)
    return []


def stated_hint(state: Any, seat: str, game: Any) -> str | None:
    """What the seat types where the table shows what its view cannot derive and the choices may
    not list it (too many sets of cards): the form, in the notation, and the cards the unknown
    ones can be; None where the view waits on nothing."""
    s, r = state, game.rules

    def words(e: Any) -> str:
        return str(game.notation.format(e, s))

    if not U.follows(r, s):
        return None
    if s.phase == "pick" and s.due:
        d = _deciders(s)[0]
        p = s.player(d)
        held = [c if c != HIDDEN else "<card>" for c in p.slots if c is not None]
        can = [str(game.notation.card_name(s, c)) for c in _unplayable(r, s, p)]
        return (f"the table shows whether {d} is defenseless: if so, type {words(E.Defenseless(player=d, cards=held))} "
                f"with the cards shown (an unknown one can be: {', '.join(can[:12])}{' ...' if len(can) > 12 else ''})")
    if s.phase == "refill" and not s.alts:
        rebuilt = stated(s, seat, game)
        if rebuilt:
            return (f"the table shows whether {rebuilt[0].player}'s deck (its size unknown here) is empty: then "
                    f"{words(rebuilt[0])}, else the draw")
    if s.phase == "battle" and s.step == "effects":
        ev = U._shown(r, s)
        if ev is not None:
            named = [c if c != HIDDEN else "<card>" for c in ev.cards]
            return (f"the table shows the cards this effect moves: type {words(replace(ev, cards=named))} "
                    "with the cards shown, or pick it with them unknown")
    return "the table shows what this record cannot derive: type it in the notation (or as JSON)"


def _distinct(events: Any) -> list[Any]:
    out: list[Any] = []
    for e in events:
        if e is not None and e not in out:
            out.append(e)
    return out


def _deciders(s: Any) -> list[str]:
    """The players a stated Defenseless may name now: the first due players, up to and including
    the first whose slots the record knows (the engine declares the due players in order)."""
    out = []
    for d in s.due:
        out.append(d)
        if HIDDEN not in s.player(d).slots:
            break
    return out


def _unplayable(r: Any, s: Any, p: Any) -> list[str]:
    can = U.possible(s, p)
    live = set(U.playable_ids(r, s, p, can))
    return [c for c in can if c not in live]


def _fits(s: Any, p: Any, cards: tuple[str, ...]) -> bool:
    """Can ``p``'s unknown cards be ``cards`` (a tracked player: copies left unseen)?"""
    if not U.tracked(s, p):
        return True
    left = list(p.unseen)
    for c in cards:
        if c not in left:
            return False
        left.remove(c)
    return True


def _fill(slots: list[str], cards: tuple[str, ...]) -> list[str]:
    """``slots`` with its unknown cards named ``cards``, in order."""
    it = iter(cards)
    return [next(it) if c == HIDDEN else c for c in slots]


def _sets(s: Any, p: Any, ids: list[str], n: int) -> list[tuple[str, ...]]:
    """Every multiset of ``n`` cards of ``ids`` that ``p``'s unknown cards can be, when there are at
    most :data:`MAX_STATED` of them; else none (the seat types the cards)."""
    if n == 0:
        return [()]
    if not ids or comb(len(ids) + n - 1, n) > MAX_STATED:
        return []
    return [c for c in combinations_with_replacement(ids, n) if _fits(s, p, c)]


def _defenseless(r: Any, s: Any) -> list[Any]:
    out = []
    for d in _deciders(s):
        p = s.player(d)
        held = [c for c in p.slots if c is not None]
        if HIDDEN not in held:
            if not U.playable_ids(r, s, p, held):
                out.append(E.Defenseless(player=d, cards=held))
            continue
        for cards in _sets(s, p, _unplayable(r, s, p), held.count(HIDDEN)):
            out.append(E.Defenseless(player=d, cards=_fill(held, cards)))
    return out


def _shown_cards(r: Any, s: Any) -> list[Any]:
    ev = U._shown(r, s)
    if ev is None:
        return []
    q = s.player(ev.target)
    named = [replace(ev, cards=_fill(list(ev.cards), cards)) for cards in _sets(s, q, U.possible(s, q), ev.cards.count(HIDDEN))]
    return [*named, ev]


def _blind(r: Any, s: Any) -> list[Any]:
    blind = [p for p in s.players if p.battle == HIDDEN]
    out = []
    for ids in islice(product(*(U._battle_can_be(s, p) for p in blind)), MAX_ASSIGNMENTS):
        t = U._battle_cards(s, blind, ids)
        if t is not None:
            out.append(r.derive(U._resume(r, t, [p.id for p in blind])))
    return _distinct(out)
