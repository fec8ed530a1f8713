"""The LOGOS checks: one handler per proposed event type (the kit's check wrapper calls
:meth:`Checks.precheck`, then the handler); each raises :class:`Illegal` naming the rule broken,
or returns None (legal) or an undetermined ruling (a seat's record, unknowns.py)."""

from __future__ import annotations

import re
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN, PRIVATE_EVENTS
from adjudicator.core.kernel.kit import checks
from adjudicator.core.kernel.rulings import Illegal
from adjudicator.core.kernel.notation import kind_words

from . import events as E
from . import unknowns as U
from .cards import BACKUP_SPEED
from .commitments import commitment_of
from .decktop import draw_problem
from .phases import Phases
from .rulebook import NS, bad
from .state import Player, State
from .values import plain_cards, playable_card, pool_of, show_panels
from .zones import empty_slot, picked

_HEX64 = re.compile(r"[0-9a-f]{64}")


class Checks(Phases):
    """The check handlers of the LOGOS rules."""

    # -- the check ------------------------------------------------------------------------------
    # (the kit's wrapper RulesBase.check calls these, then the @checks handler)
    def not_proposed(self, s: State, e: Any) -> Illegal:
        if type(e) in PRIVATE_EVENTS:  # LOG-6: LOGOS's one private look is LG-44's (decktop.py); not a move
            return super().not_proposed(s, e)
        return bad("LG-2.1", "unexpected-event", f"{kind_words(e)} cannot be proposed: the engine derives it, or it starts a match")

    def precheck(self, s: State, e: Any) -> None:
        try:
            a, b = s.players
        except ValueError:
            raise bad("LG-1.1", "no-match", "the match does not have two players, so nothing can be played") from None
        try:
            who = e.player
        except AttributeError:  # a stated consequence (LG-38): check_stated judges it
            return
        if who != a.id and who != b.id:
            raise bad("LG-2.1", "unknown-player", f"{kind_words(e)}: {who!r} is not a player of this match")
        if s.unknowns and s.phase == "refill" and (out := U.ran_out(self, s, e)) is not None:  # LG-46
            U.check_ran_out(self, s, e, out)
        if s.unknowns and e.kind != "X":
            if U.shows_unseen(self, s):  # LG-42: the record left out what an effect showed
                U.check_after_shown(self, s, e)
            if s.alts or s.step == "blind" or (s.due and U.unsure(s)):  # LG-37, LG-38: a battle card is unknown and the log states nothing of it
                U.check_branches(self, s, e)

    @checks(E.CardDrawn, rule="LG-2.2")
    def c_drawn(self, s: State, e: E.CardDrawn) -> None:
        if s.phase != "refill":
            raise bad("LG-2.2", "no-draw-owed", f"card drawn by {e.player}: no card slot waits for a card now (the position expects {self.expected(s)})")
        m = self._refill
        if m is not None and m[0] is s:  # the position the last refill step found
            nxt = m[1]
        else:
            reshuffle = s.options.on_empty_deck == "reshuffle-discard"
            for nxt in s.players:  # the first player with a slot to refill (refill_next)
                if not all(nxt.slots) and (nxt.deck or nxt.deck_open or (reshuffle and nxt.discard)):  # an empty slot
                    break
            else:
                raise self.out_of_step(s, e)
        if nxt.id != e.player:
            raise bad("LG-2.2", "wrong-drawer", f"card drawn by {e.player}, but {nxt.id}'s empty slots are refilled first ({nxt.slots.count(None)} to fill)")
        if nxt.top and (problem := draw_problem(nxt, e.card)) is not None:  # LG-44: a look put cards on top
            raise problem
        if nxt.unknown or e.card is None or e.card == HIDDEN:
            return U.check_draw(self, s, nxt, e)
        if e.card not in nxt.deck:
            name = pool_of(s).name_of(e.card)
            raise bad("LG-2.3", "not-in-deck", f"{e.player} draws {name}, but the deck holds no {name} ({len(nxt.deck)} cards left)")

    def pick_checks(self, s: State, p: Player, what: str) -> None:
        """A player sending a card now: Phase 1, not defenseless, not picked yet."""
        if p.defenseless:
            raise bad("LG-2.4", "defenseless", f"{what} by {p.id}: {p.id} is defenseless this round (no playable card), so sends no card")
        if picked(s, p):
            done = "committed to" if p.battle is None else "sent"
            raise bad("LG-3.1", "already-picked", f"{what} by {p.id}: {p.id} already {done} a card this round (round {s.round})")
        if s.phase != "pick":
            raise self.out_of_step(s, what=what, who=p.id)

    def slot_checks(self, s: State, p: Player, card: str) -> None:
        """LG-3.2 / LG-3.3: the card is in a slot and its combo requirement is met."""
        pool = self.pool(s)
        if card not in p.slots and not U.check_known_from_unknown_slot(s, p, card, f"{p.id} sends {pool.name_of(card)}"):
            held = pool.names_of(c for c in p.slots if c) or "nothing"
            raise bad("LG-3.2", "not-in-slots", f"{pool.name_of(card)} is not in {p.id}'s card slots (they hold {held})")
        counter = self.counter(s, p)
        if not playable_card(pool, card, counter):
            c = pool[card]
            whose = f"{p.id}'s counter" if s.options.combo_counter == "per-player" else "the shared counter"
            raise bad("LG-3.3", "combo-mismatch", f"{c.name} needs the combo {show_panels(c.combo)}, but {whose} shows {show_panels(counter)} "
                      "(grey matches anything, an empty panel only grey: LG-8)")

    @checks(E.BackupAssigned, rule="LG-4.1")
    def c_assigned(self, s: State, e: E.BackupAssigned) -> None:
        p = s.player(e.player)
        if s.phase != "pick":
            raise bad("LG-4.1", "backup-timing", f"backup assigned by {e.player}: the Backup Slot is filled in Phase 1 only (now: {self.expected(s)})")
        if p.defenseless:
            raise bad("LG-2.4", "defenseless", f"backup assigned by {e.player}: {e.player} is defenseless this round and holds no card")
        if picked(s, p):
            raise bad("LG-4.1", "after-pick", f"backup assigned by {e.player}: {e.player} already chose the battle card of round {s.round}; the Backup Slot is filled before the pick")
        if p.backup is not None:
            raise bad("LG-4.1", "backup-occupied", f"backup assigned by {e.player}: the Backup Slot already holds a card (one Backup Slot, LG-18)")
        if e.card is None or e.card == HIDDEN:
            return U.check_unknown_backup(self, s, p, e)
        if e.card not in p.slots and not U.check_known_from_unknown_slot(s, p, e.card, f"backup assigned by {e.player}"):
            pool = self.pool(s)
            held = pool.names_of(c for c in p.slots if c) or "nothing"
            raise bad("LG-4.1", "not-in-slots", f"{pool.name_of(e.card)} is not in {e.player}'s card slots (they hold {held})")
        c = self.pool(s)[e.card]
        if c.speed < BACKUP_SPEED:
            raise bad("LG-4.1", "not-eligible", f"{c.name} has Speed {c.speed}; only a card with Speed above 99 may go to the Backup Slot")
        if c.has_combo:
            raise bad("LG-4.1", "not-eligible", f"{c.name} has the combo requirement {show_panels(c.combo)}; only a card without one may go to the Backup Slot")
        rest = empty_slot(p.slots, e.card if e.card in p.slots else HIDDEN)
        if not self.playable(s, p, rest):
            if HIDDEN in rest:
                return U.armed_condition(self, s, replace(p, slots=rest), f"backup assigned by {e.player}")
            raise bad("LG-17", "last-playable", f"{c.name} is {e.player}'s last playable card; it must go into battle, not to the Backup Slot")

    @checks(E.CardPicked, rule="LG-3.1")
    def c_picked(self, s: State, e: E.CardPicked) -> None:
        if s.options.picks != "open":
            raise bad("LG-6", "commitment-required", f"card picked by {e.player}: this match keeps picks hidden (picks = \"commit-reveal\"): log card committed, then pick revealed")
        a, b = s.players
        p = a if a.id == e.player else b
        if p.defenseless or p.battle is not None or p.commitment is not None or s.phase != "pick":
            self.pick_checks(s, p, "card picked")
        card = e.card
        if card is None or card == HIDDEN:
            return U.check_unknown_pick(self, s, p, e)
        if card not in p.slots or (card not in plain_cards(pool := pool_of(s))
                                   and not playable_card(pool, card, self.counter(s, p))):
            self.slot_checks(s, p, card)

    @checks(E.CardCommitted, rule="LG-3.4")
    def c_committed(self, s: State, e: E.CardCommitted) -> None:
        if s.options.picks != "commit-reveal":
            raise bad("LG-6", "open-picks", f"card committed by {e.player}: this match names picks openly (picks = \"open\"): log card picked")
        p = s.player(e.player)
        self.pick_checks(s, p, "card committed")
        if e.commitment != HIDDEN and not _HEX64.fullmatch(e.commitment):  # "?": a face-down pick (LG-35)
            raise bad("LG-3.4", "bad-commitment", f"a commitment is 64 lowercase hex digits (sha256 of '<card>:<salt>'), got {e.commitment[:80]!r}")
        if HIDDEN in p.slots:
            U.armed_condition(self, s, p, f"card committed by {e.player}")

    @checks(E.PickRevealed, rule="LG-3.4")
    def c_revealed(self, s: State, e: E.PickRevealed) -> None:
        if s.options.picks != "commit-reveal":
            raise bad("LG-6", "open-picks", f"pick revealed by {e.player}: this match names picks openly (picks = \"open\"): log card picked")
        p = s.player(e.player)
        if p.defenseless:
            raise bad("LG-2.4", "defenseless", f"pick revealed by {e.player}: {e.player} is defenseless this round and sends no card")
        if p.battle is not None and s.phase in ("reveal", "battle"):
            raise bad("LG-3.4", "already-revealed", f"pick revealed by {e.player}: {e.player} already revealed {self.pool(s).name_of(p.battle)} this round")
        if s.phase == "pick":
            if p.commitment is None:
                raise bad("LG-3.4", "not-committed", f"pick revealed by {e.player}: there is no commitment of {e.player} to open (commit first)")
            waiting = [q.id for q in s.players if not q.defenseless and not picked(s, q)]
            raise bad("LG-3.4", "reveal-before-commitments", f"pick revealed by {e.player} before {' and '.join(waiting)} committed: no pick is revealed until both are committed")
        if s.phase != "reveal" or p.commitment is None:
            raise self.out_of_step(s, e)
        got = commitment_of(e.card, e.salt)
        if p.commitment != HIDDEN and got != p.commitment:  # "?" opens as an open pick would (LG-35)
            raise bad("LG-3.4", "commitment-mismatch", f"{self.pool(s).name_of(e.card)} with salt {e.salt[:40]!r} hashes to {got[:16]}..., but {e.player} committed to {p.commitment[:16]}...")
        self.slot_checks(s, p, e.card)

    def window_checks(self, s: State, e: Any) -> Player:
        if s.phase != "battle" or s.step != "backup":
            raise bad("LG-4.2", "no-window", f"{kind_words(e)} by {e.player}: no Backup window is open (now: {self.expected(s)})")
        if e.player != s.priority:
            raise bad("LG-4.2", "not-asked", f"{kind_words(e)} by {e.player}: {s.priority} is asked now (LG-17: the window goes round the players in turn)")
        return s.player(e.player)

    @checks(E.BackupCalled, rule="LG-4.2")
    def c_called(self, s: State, e: E.BackupCalled) -> None:
        # the window asks only players who hold a Backup card and a battle card
        p = self.window_checks(s, e)
        if e.card is None or e.card == HIDDEN:
            return
        if p.backup != HIDDEN:  # LG-39: the card turned face up is the one in the Backup Slot
            if e.card != p.backup:
                pool = self.pool(s)
                raise bad("LG-39", "wrong-backup-card", f"backup called by {e.player} names {pool.name_of(e.card)}, but {e.player}'s Backup Slot holds {pool.name_of(p.backup)}")
            return
        c = self.pool(s)[e.card]
        U.check_reveal(s, p, e.card, f"backup called by {e.player} names {c.name}")
        if not c.backup_eligible:  # LG-4.1, and the condition of the unknown Backup assignment settled against it
            raise Illegal("LG-4.1", NS + "not-eligible", f"backup called by {e.player} names {c.name}, which could not go to the Backup "
                          f"Slot (Speed {c.speed}{', a combo requirement' if c.has_combo else ''}; only a card with Speed above 99 and "
                          "no combo requirement may)", settles=U.waiting(s, f"backup:{e.player}"))

    @checks(E.BackupPassed, rule="LG-4.2")
    def c_passed(self, s: State, e: E.BackupPassed) -> None:
        self.window_checks(s, e)

    @checks(E.DeckRebuilt, E.Defenseless, E.DirectionDetermined, E.EffectResolved, E.StrikeResolved, E.RoundEnded,
            rule="LG-38")
    def c_stated(self, s: State, e: Any) -> None:
        """A consequence the log states where the engine cannot derive it (an unknown card)."""
        U.check_stated(self, s, e)

    def follows_stated(self, s: State) -> bool:
        return U.follows(self, s)

    @checks(E.Resigned, rule="LG-8.2")
    def c_resigned(self, s: State, e: E.Resigned) -> None:
        return None
