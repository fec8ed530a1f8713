"""What the rules force next: the state-based consequences (the end of the match, a follower destroyed)
before the derived steps of the task queue.

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.kit import applies, derives, head
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.sources import current

from . import unknowns
from . import events as E
from .state import EndTurn, Flipped, Resolve, RevealLocus, StartTurn, State
from .positions import push


class Derive:
    """What the rules force next."""

    #: the players (a pair of seats: a position is never changed, so the same tuple holds the same
    #: decks and fields), the set-up, the data sources in effect and the options last found to force
    #: nothing (:meth:`state_based` is None): a step that left the seats as they were (a pass, a
    #: declined block, the end of the main phase) needs no state-based check; swapped whole
    _calm: tuple[Any, Any, Any, Any] = (None, None, None, None)

    def derive(self, s: State) -> Any:
        if s.result is not None:
            return None
        if s.pending_ends:
            return self.state_based(s)
        calm = self._calm
        players = s.players
        if calm[0] is players and calm[1] is s.setup and calm[3] is s.options:
            src = current()  # the data sources in effect: with the set-up, they name the pool
            if calm[2] is not src:
                forced = self.forced(s, src)
                if forced is not None:
                    return forced
                self._calm = (players, s.setup, src, s.options)
        else:
            src = current()
            forced = self.forced(s, src)
            if forced is not None:
                return forced
            self._calm = (players, s.setup, src, s.options)
        todo = s.todo
        if not todo:
            return None
        h = todo[0]
        step = self._derives.get(h.__class__)  # the @derives steps (RulesBase.derive_task, inlined)
        return None if step is None else step(self, s, h)

    #: the two fields (tuples of followers: a position is never changed, so the same tuple holds the
    #: same followers), the pool they were judged in (the set-up and the data sources in effect)
    #: and the options, last found with no follower destroyed: the answer stays None until either
    #: field changes; swapped whole
    _settled: tuple[Any, Any, Any, Any, Any] = (None, None, None, None, None)

    def state_based(self, s: State) -> Any:
        """What the position forces before any task of the queue: the match's end (a pending end,
        a deck out) or a follower destroyed (CO-9); None when nothing is."""
        if s.pending_ends:
            r = s.pending_ends[0]
            return E.GameEnded(result=r.result, winner=r.winner, reason=r.reason)
        return self.forced(s, current())

    def forced(self, s: State, src: Any) -> Any:
        """:meth:`state_based` of a position with no pending end, in the data sources ``src``."""
        a, b = s.players
        # a deck is empty when all of its layers are (Player.deck_count, without adding them up)
        if not (a.deck_top or a.deck_known or a.deck_bottom or a.deck_under or a.deck_peek or a.deck_mixed) \
                or not (b.deck_top or b.deck_known or b.deck_bottom or b.deck_under or b.deck_peek or b.deck_mixed):
            if a.deck_count == 0 and b.deck_count == 0:
                if s.options.simultaneous_deckout == "draw" or s.turn_player is None:
                    return E.GameEnded(result="draw", winner=None, reason="deck-out")
                return E.GameEnded(result="win", winner=s.other(s.turn_player), reason="deck-out")
            loser = a if a.deck_count == 0 else b
            return E.GameEnded(result="win", winner=s.other(loser.id), reason="deck-out")
        fa, fb = a.field, b.field
        if not fa and not fb:
            return None
        seen = self._settled
        if seen[0] is fa and seen[1] is fb and seen[2] is s.setup and seen[3] is src and seen[4] is s.options:
            return None
        weakening = self.weakening(s, src)
        for p in s.players:
            for f in p.field:
                # only damage or a lowered Defence can destroy a follower, unless the pool weakens
                # (auras that lower Defence, followers without Defence)
                if (weakening or f.damage or f.boost[1] < 0 or f.set_defence is not None) and self.destroyed(s, p, f):
                    return E.FollowerDestroyed(player=p.id, follower=f.handle, card=f.card)
        self._settled = (fa, fb, s.setup, src, s.options)
        return None

    # derived steps of the task queue: the event the engine emits when the task is at the head
    @derives(StartTurn)
    def d_start_turn(self, s: State, h: StartTurn) -> E.TurnStarted:
        nxt = s.first if s.turn_player is None else s.other(s.turn_player)
        return E.TurnStarted(turn=s.turn + 1, player=nxt)

    @derives(Resolve)
    def d_resolve(self, s: State, h: Resolve) -> E.XPlayResolved:
        item = s.chain[-1]
        follower = f"F{s.next_handle}" if item.kind == "follower" else item.source
        return E.XPlayResolved(player=item.player, card=item.card, follower=follower)

    @derives(RevealLocus)
    def d_reveal_locus(self, s: State, h: RevealLocus) -> E.LocusRevealed | None:
        r = self.reveal_locus(s, h)
        return None if HIDDEN in r.cards else r  # CO-39.4: the record states what the cards were

    @derives(Flipped)
    def d_flipped(self, s: State, h: Flipped) -> E.LocusFlipped | None:
        f = self.flipped(s, h)
        return None if f.card == HIDDEN else f  # CO-39.7: the record states what the card was

    def flipped(self, s: State, h: Flipped) -> E.LocusFlipped:
        card = next((sl.card for sl in s.player(h.player).locus if sl.id == h.slot), None)
        return E.LocusFlipped(player=h.player, slot=h.slot, card=card)

    @applies(E.LocusFlipped)
    def a_flipped(self, s: State, e: E.LocusFlipped) -> State:
        if s.player(e.player).unseen and not unknowns.unknown(e.card):  # the seat saw it
            s = self.name_slots(s, e.player, {e.slot: e.card})
        return push(s, drop=1) if type(head(s)) is Flipped else s

    def reveal_locus(self, s: State, h: RevealLocus) -> E.LocusRevealed:
        p = s.player(h.player)
        cards = [sl.card for x in h.slots for sl in p.locus if sl.id == x]
        return E.LocusRevealed(player=h.player, slots=list(h.slots), cards=cards)

    @derives(EndTurn)
    def d_end_turn(self, s: State, h: EndTurn) -> E.TurnEnded:
        return E.TurnEnded(turn=s.turn, player=s.turn_player)
