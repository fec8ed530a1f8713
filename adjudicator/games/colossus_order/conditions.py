"""The conditions of a seat's record of a Colossus Order match (CO-39.4, CO-39.5): the words under which
a consequence that turns on a card the record leaves unknown is followed."""

from __future__ import annotations

from typing import Iterable

from adjudicator.core.kernel.kit import head
from adjudicator.core.kernel.events import HIDDEN

from .state import UnknownLocusHit, Player, State



def declaration_condition(p: Player, slots: Iterable[int]) -> str | None:
    """CO-39.4: the condition a Complete Declaration of ``p``'s ``slots`` is followed under when the
    record leaves some of their cards unknown (None: it names them all)."""
    slots = list(slots)
    hidden = [sl.id for sl in p.locus if sl.id in slots and sl.card == HIDDEN]
    if not hidden:
        return None
    return (f"Locus slots {hidden} are not all Gems: the record is followed as a failed declaration "
            f"(if they are, with the others, {p.id} won by Complete Declaration here)")


def face_up_condition(s: State, owner: str, slot: int) -> str | None:
    """The open CO-39.5 condition that ``owner``'s unknown Locus card in ``slot``, hit, was not a Gem."""
    head = f"{owner}'s Locus card in slot {slot}, hit by "
    return next((c for c in s.conditions if c.startswith(head) and c.endswith("was not a Gem (turned face up)")), None)


def hit_condition(h: UnknownLocusHit, gem: bool) -> str:
    """CO-39.5: what the record's event after an attack on an unknown Locus card says it was."""
    return (f"{h.player}'s Locus card in slot {h.slot}, hit by {h.attacker}'s attack, was "
            f"{'a Gem (captured)' if gem else 'not a Gem (turned face up)'}")
