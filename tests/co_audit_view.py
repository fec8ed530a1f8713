"""What each seat may see (the audit of tests/co_audit.py): seed D(ii)-(iii) keeps a hand and
the face-down Locus cards hidden from the opponent, until an attack turns a Locus card face up
(D(iii)4(v)), a Complete Declaration opens six of them (D(iii)1; CO-22: the four put back stay known
to the opponent), an effect turns one face up (CO-8.7; CO-38: known after it is turned down again)
or lets a player look at them (CO-47).  The oracle follows, from the log, which face-down Locus
card the opponent has seen since it went there, and compares it with the seat's view
(``Game.observe``): nothing unseen named, everything seen named, and what is named is true.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.core.kernel.events import CardsLooked
from adjudicator.games.colossus_order import events as E

from .co_audit import GAME, Step, other, seat
from .co_audit_effects import EffectAudit

UNKNOWN = ("?", None)


class ViewAudit(EffectAudit):
    """The audit, and what the opponent has seen of each Locus slot."""

    def __init__(self, setup: E.MatchStarted) -> None:
        super().__init__(setup)
        #: (owner, slot id) of the face-down Locus slots whose card the owner's opponent has seen
        self.shown: set[tuple[str, int]] = set()

    def step(self, i: int, st: Step, match: list[Step]) -> None:
        e, b, a = st.event, st.before, st.after
        for pb, pa in zip(b.players, a.players):
            before = {sl.id: sl.card for sl in pb.locus}
            for sl in pa.locus:
                if sl.id not in before or before[sl.id] != sl.card:
                    self.shown.discard((pa.id, sl.id))  # a card went there
        if isinstance(e, E.LocusReplaced) and self.locus_hit is not None:
            self.shown.discard((e.player, self.locus_hit["slot"]))
        if isinstance(e, E.LocusRevealed):
            self.shown.update((e.player, x) for x in e.slots)
        if isinstance(e, E.LocusFlipped):
            self.shown.add((e.player, e.slot))
        if isinstance(e, E.BattleResolved) and e.result == "locus-hit":
            self.shown.add((other(self.setup, e.player), e.slot))
        if isinstance(e, CardsLooked) and e.zone == "locus" and e.player != e.owner:
            self.shown.update((e.owner, x) for x in e.slots or [])
        for p in a.players:
            self.shown.update((p.id, sl.id) for sl in p.locus if sl.face_up)
        super().step(i, st, match)

    def view_check(self, i: int, e: Any, state: Any) -> None:
        for me in self.setup.players:
            opp = other(self.setup, me)
            view = GAME.observe(state, me)
            mine, theirs = seat(view, me), seat(view, opp)
            if list(mine.hand) != list(seat(state, me).hand):
                self.fail(i, e, f"{me} does not see its own hand")
            truth = seat(state, opp)
            named = Counter(c for c in theirs.hand if c not in UNKNOWN)
            if len(theirs.hand) != len(truth.hand) or named - Counter(truth.hand):
                self.fail(i, e, f"{me} sees {opp}'s hand as {theirs.hand}, which is not {opp}'s hand")
            # seed D(ii)1, 4: a shuffled deck is face down; the cards returned to its bottom are
            # their owner's to know (CO-35); a look's cards its looker's (CO-42)
            if any(c not in UNKNOWN for p in view.players for c in p.deck_top):
                self.fail(i, e, f"{me}'s view names cards of a deck's unknown part")
            if any(c not in UNKNOWN for c in theirs.deck_bottom) or list(mine.deck_bottom) != list(seat(state, me).deck_bottom):
                self.fail(i, e, f"{me}'s view of the returned cards: own {mine.deck_bottom}, {opp}'s {theirs.deck_bottom}")
            for p, q in ((mine, seat(state, me)), (theirs, truth)):
                if q.deck_peek and (q.peek_by == me) != all(c not in UNKNOWN for c in p.deck_peek):
                    self.fail(i, e, f"{me}'s view of the cards {q.peek_by} looked at on {q.id}'s deck: {p.deck_peek}")
            cards = {sl.id: sl for sl in truth.locus}
            for sl in theirs.locus:
                real = cards.get(sl.id)
                if real is None or real.face_up != sl.face_up:
                    self.fail(i, e, f"{me} sees {opp}'s Locus slot {sl.id} otherwise than it lies")
                    continue
                seen = real.face_up or (opp, sl.id) in self.shown
                if sl.card not in UNKNOWN and (sl.card != real.card or not seen):
                    self.fail(i, e, f"{me} sees {sl.card} in {opp}'s Locus slot {sl.id}, not shown to it")
                if sl.card in UNKNOWN and seen:
                    self.fail(i, e, f"{me} saw {opp}'s Locus slot {sl.id} ({real.card}) but its view does not name it")
            self.seen["views checked"] += 1
