"""What a seat's recorder does with LOGOS's hidden picks (``adjudicator record --as``,
adjudicator/replays/record.py): the seat commits to its pick with a fresh salt of its own and
reveals it when the rules ask (LG-3.4).  Pure: the salt is given."""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.core.kernel.events import HIDDEN

from . import events as E
from .commitments import commitment_of, example_salt
from .values import pool_of_setup
from .zones import picked


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
