"""What a seat's recorder does with Colossus Order's hidden cards (``adjudicator record --as``,
adjudicator/replays/record.py; CO-40): the seat's own draws are recorded as commitments with a
fresh salt (the record names no card of its hand), and a commitment is opened
(``CommitmentOpened``) just before the seat's event that shows the card.  Pure: the salt is given."""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.core.kernel.commitments import commitment_of, looks_like

from . import events as E


def hidden_value(state: Any, event: Any) -> str | None:
    """The card a listed draw of the seat names (recorded committed); None for other events."""
    if type(event) is E.CardDrawn and isinstance(event.card, str) and not looks_like(event.card) and event.card != "?":
        return event.card
    return None


def commit(state: Any, event: Any, salt: str) -> tuple[Any, Any, str, str] | None:
    """(the draw as the log records it: a commitment, the draw as the seat saw it, the commitment,
    the card), or None for an event that is not a draw of the seat's."""
    card = hidden_value(state, event)
    if card is None:
        return None
    c = commitment_of(card, salt)
    return E.CardDrawn(player=event.player, card=c), event, c, card


def due(state: Any, player: str, secrets: Mapping[str, tuple[str, str]]) -> list[Any]:
    return []


def before(state: Any, event: Any, secrets: Mapping[str, tuple[str, str]]) -> list[Any]:
    """The openings to record before ``event`` of the seat: one commitment of each card the event
    names from the hand (the card is shown at the table now)."""
    named = [getattr(event, "card", None)] + list(getattr(event, "cards", None) or [])
    open_now = {c.commitment for c in state.commitments}
    out: list[Any] = []
    used: set[str] = set()
    for card in named:
        if not isinstance(card, str) or looks_like(card):
            continue
        hit = next((c for c, (v, _s) in secrets.items() if v == card and c in open_now and c not in used), None)
        if hit is not None:
            used.add(hit)
            out.append(E.CommitmentOpened(player=event.player, commitment=hit, card=card, salt=secrets[hit][1]))
    return out


def shown(event: Any, salts: Mapping[str, tuple[str, str]]) -> Any:
    """A logged event as the seat saw it: its committed draws named, its openings not there (None)."""
    if type(event) is E.CommitmentOpened:
        return None
    if type(event) is E.CardDrawn and event.card in salts:
        return E.CardDrawn(player=event.player, card=salts[event.card][0])
    return event


def is_opening(event: Any) -> bool:
    return type(event) is E.CommitmentOpened
