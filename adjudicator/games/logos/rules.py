"""LOGOS rules: pure check / apply / derive / legal events.

``check`` raises :class:`Illegal` inside helpers and returns a Ruling; it never mutates.
``apply`` builds a new immutable State; it assumes the event was checked.
``derive`` returns the next consequence the rules force: the end of the match first (a pending
resignation, hit points at 0, a stall or the round limit), then the derived steps of the round
(a deck rebuilt, a defenseless player, the direction, each effect, each strike, the end of the
round with its combo pushes).  ``legal_events`` enumerates candidates and keeps those ``check`` accepts,
so the two never disagree.  No clock, no randomness, no iteration over sets: every order here is
a list order (players in seat order, cards in id order).

The rules are one class joined from the modules that hold each concern: ``phases.py`` (reading
the position, what it waits for, the steps of the round), ``checks.py`` (the check handlers),
``effects.py`` (what each effect does), ``applies.py`` (the apply handlers); this module adds
``apply`` itself, ``derive`` and the legal events.  ``unknowns.py`` judges a seat's record.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.notation import name_cards
from adjudicator.core.kernel.rulings import Ruling

from . import events as E
from . import unknowns as U
from .applies import Applies
from .checks import Checks
from .decktop import DeckTop
from .held import settle as settle_held
from .commitments import commitment_of, example_salt
from .observe import forget
from .pending import keep_condition
from .effects import fire
from .state import State
from .values import pool_of
from .working import freeze, thaw
from .zones import picked


class Rules(Checks, Applies, DeckTop):
    """The LOGOS rules, bound to nothing but the pool and options each position names."""

    def in_words(self, s: State, r: Ruling) -> Ruling:
        """A refusal names the pool's cards by their names (a judge reads names, not ids)."""
        said = name_cards(r.message, pool_of(s), s.setup.players)
        return r if said == r.message else replace(r, message=said)

    def __init__(self) -> None:
        #: (state, derived event, next state) of the last derived step computed by ``derive``,
        #: so that ``apply`` of that very event on that very state does not compute it twice
        self._memo: tuple[Any, Any, Any] | None = None
        #: (state, positions) of the last expansion of a seat's record's positions (unknowns._branches)
        self._expanded: tuple[Any, Any] | None = None
        #: (state, event, positions that allow it) of the last check in several positions
        self._fits: tuple[Any, Any, Any] | None = None
        #: (state, whether it waits for the record to name cards an effect shows) of the last
        #: unknowns.shows_unseen
        self._unseen: tuple[Any, bool] | None = None
    # -- apply -----------------------------------------------------------------------------------
    def apply(self, s: State, e: Any) -> State:
        memo = self._memo
        if memo is not None and memo[0] is s and memo[1] is e:
            new = memo[2]
        elif s.unknowns:  # a seat's record (unknowns.py): the event's condition is kept (LG-37)
            new = settle_held(s, keep_condition(self, s, e, self.apply_plain), e, U.take)  # and what looks showed (LG-45)
        else:
            new = self.frozen(self._applies[type(e)](self, thaw(s), e))
        return forget(s, new) if s.seen else new  # what a seat learnt in a take-back (LG-41)

    def apply_plain(self, s: State, e: Any) -> State:
        """``apply`` without keeping the event's condition (unknowns.py applies in each of the
        positions a record allows with this)."""
        memo = self._memo
        if memo is not None and memo[0] is s and memo[1] is e:
            return memo[2]
        if s.unknowns:  # a seat's record (unknowns.py)
            if s.phase == "refill" and (out := U.ran_out(self, s, e)) is not None:  # LG-46: the deck was empty
                s = out[0]
            if e.kind == "X":
                if U.follows(self, s):
                    return U.apply_stated(self, s, e)
            elif s.blind_step or s.alts or (s.due and U.unsure(s)) or U.shows_unseen(self, s):
                return U.apply_branches(self, s, e)
        return self.frozen(self._applies[type(e)](self, thaw(s), e))

    def run(self, fn: Any, s: State, *args: Any) -> State:
        """``fn`` (a step that writes a working position: an apply handler, a transition, bound)
        on a copy of the frozen ``s``: the frozen position after it (the frozen contract's apply,
        and the rules of a seat's record, go through this; the fold writes its own in place)."""
        return self.frozen(fn(thaw(s), *args))

    def frozen(self, w: Any) -> State:
        """The frozen position of ``w`` that a step of the frozen contract wrote; the last refill
        step found, when of ``w``, is that position's (derive and the next draw's check ask it)."""
        new = freeze(w)
        m = self._refill
        if m is not None and m[0] is w:
            self._refill = (new, m[1])
        return new

    def stepped(self, s: Any, step: Any) -> tuple[Any, Any]:
        """``step(w) -> (event, w)`` (an effect firing, a strike) on ``s``: in place on a working
        position, on a copy of a frozen one (the new frozen position then)."""
        if s.__class__ is State:
            ev, w = step(thaw(s))
            return ev, freeze(w)
        return step(s)  # type: ignore[no-any-return]

    # -- derive ------------------------------------------------------------------------------------
    def derive(self, s: State) -> Any:
        """The next consequence the rules force in ``s``, or None (Phase 2: :meth:`derive_battle`)."""
        if s.result is not None:
            return None
        try:
            a, b = players = s.players
        except ValueError:  # no match of two players
            return None
        if s.alts:  # alternatives: the record says what follows (LG-38), but an end they all reach
            return U.common_end(self, s)
        r = s.pending_end
        if r is not None:
            return E.GameEnded(result=r.result, winner=r.winner, reason=r.reason)
        if a.hp <= 0 or b.hp <= 0:
            if a.hp <= 0 and b.hp <= 0:  # LG-27: cannot happen (one event changes one player's hit points)
                return E.GameEnded(result="draw", winner=None, reason="hit-points")
            return E.GameEnded(result="win", winner=b.id if a.hp <= 0 else a.id, reason="hit-points")
        opts = s.options
        if s.stall >= opts.stall_rounds:
            return E.GameEnded(result="draw", winner=None, reason="stall")
        if opts.max_rounds is not None and s.round > opts.max_rounds:
            return E.GameEnded(result="draw", winner=None, reason="round-limit")
        phase = s.phase
        if phase == "battle":
            return self.derive_battle(s) if s.__class__ is State else self.battle_in_place(s, s.step)
        if phase == "refill":
            m = self._refill
            if m is not None and m[0] is s:  # the position the last refill step found
                p = m[1]
                return E.DeckRebuilt(player=p.id, count=len(p.discard)) if not p.deck and not p.deck_open else None
            reshuffle = opts.on_empty_deck == "reshuffle-discard"
            for p in players:  # the first player with a slot to refill (refill_next)
                if not all(p.slots) and (p.deck or p.deck_open or (reshuffle and p.discard)):  # an empty slot (card ids are never "")
                    if not p.deck and not p.deck_open:
                        return E.DeckRebuilt(player=p.id, count=len(p.discard))
                    return None
            return None
        if phase == "pick" and s.due:
            p = a if a.id == s.due[0] else b
            if HIDDEN in p.slots:  # LG-38: whether p holds a playable card is unknown
                return None
            return E.Defenseless(player=p.id, cards=[c for c in p.slots if c is not None])
        return None

    def derive_battle(self, s: State) -> Any:
        """:meth:`derive` in Phase 2, step by step.  For a frozen ``s`` the position after an
        effect or a strike is kept for the ``apply`` of that very event (``_memo``); the fold's
        working position (working.py) is changed in place by each step as it is found, so the
        fold never applies them again (:data:`~.working.APPLIED_BY_DERIVE`)."""
        step = s.step
        if s.__class__ is not State:  # the fold's working position
            return self.battle_in_place(s, step)
        if step == "effects":
            if s.unknowns and U.shows_unseen(self, s):  # LG-42: the record names what it showed
                return None
            ev, new = self.fire_next(s)
            self._memo = (s, ev, new)
            return ev
        if step == "strike":
            ev, new = self.stepped(s, self.strike)
            self._memo = (s, ev, new)
            return ev
        if step == "direction" or step == "after-effects":
            d = self.direction(s)
            assert d is not None
            return E.DirectionDetermined(stage="before-effects" if step == "direction" else "after-effects",
                                         basis=d.basis, attacker=d.attacker, defender=d.defender)
        if step == "push":
            return _round_ended(s)
        return None

    def battle_in_place(self, s: Any, step: str) -> Any:
        """:meth:`derive_battle` on the fold's working position ``s``: the step's event, applied
        to ``s`` in place as it is found (a derived step is what it did; the last refill step
        found is forgotten first, as the fold forgets it before a handler)."""
        self._refill = None
        if step == "effects":
            return fire(self, s, s.effects[0])[0]
        if step == "strike":
            return self.strike(s)[0]
        if step == "direction" or step == "after-effects":
            d = self.direction(s)
            assert d is not None
            stage = "before-effects" if step == "direction" else "after-effects"
            self.directed(s, d, stage)
            return E.DirectionDetermined(stage=stage, basis=d.basis, attacker=d.attacker, defender=d.defender)
        if step == "push":
            ev = _round_ended(s)
            self.a_round_ended(s, ev)
            return ev
        return None

    # -- legal events ------------------------------------------------------------------------------
    def candidates(self, s: State) -> list[Any]:
        """A superset of every legal event (``check`` filters)."""
        if s.result is not None or len(s.players) != 2:
            return []
        out: list[Any] = []
        pool = self.pool(s)
        if s.phase == "refill":
            p = self.refill_next(s)
            if p is not None:
                out += [E.CardDrawn(player=p.id, card=c) for c in sorted(set(p.deck))]
                if p.deck_open:
                    out.append(E.CardDrawn(player=p.id, card=HIDDEN))
        elif s.phase == "pick":
            for p in s.players:
                if p.defenseless or picked(s, p):
                    continue
                if p.backup is None:
                    out += [E.BackupAssigned(player=p.id, card=c) for c in sorted({c for c in p.slots if c is not None and c != HIDDEN})
                            if pool[c].backup_eligible]
                if s.options.picks == "open":
                    out += [E.CardPicked(player=p.id, card=c) for c in self.playable(s, p)]
                else:
                    salt = example_salt(s.round, p.id)
                    out += [E.CardCommitted(player=p.id, commitment=commitment_of(c, salt)) for c in self.playable(s, p)]
                    if HIDDEN in p.slots:  # a seat's record of the opponent's face-down pick (LG-35)
                        out.append(E.CardCommitted(player=p.id, commitment=HIDDEN))
        elif s.phase == "reveal":
            for p in s.players:
                if p.commitment is None or p.battle is not None:
                    continue
                if p.commitment == HIDDEN:  # a face-down pick: any card it can be (LG-35)
                    known = {c for c in p.slots if c is not None and c != HIDDEN}
                    maybe = set(U.possible(s, p)) if HIDDEN in p.slots else set()
                    out += [E.PickRevealed(player=p.id, card=c, salt=HIDDEN) for c in sorted(known | maybe)]
                    continue
                salt = example_salt(s.round, p.id)
                out += [E.PickRevealed(player=p.id, card=c, salt=salt) for c in sorted({c for c in p.slots if c is not None})
                        if commitment_of(c, salt) == p.commitment]
        elif s.phase == "battle" and s.step == "backup" and s.priority is not None:
            backup = s.player(s.priority).backup
            out += [E.BackupCalled(player=s.priority, card=None if backup == HIDDEN else backup), E.BackupPassed(player=s.priority)]
        elif s.phase == "battle" and s.look is not None:  # LG-44: the cards a look sees, the order they go back in
            out += self.look_candidates(s)
        out += [E.Resigned(player=p.id) for p in s.players]
        return out

    def to_act(self, s: State) -> list[str]:
        if s.result is not None or len(s.players) != 2:
            return []
        if s.phase == "refill":
            p = self.refill_next(s)
            return [p.id] if p is not None and p.deck else []
        if s.phase == "pick":
            return [p.id for p in s.players if not p.defenseless and not picked(s, p)]
        if s.phase == "reveal":
            return [p.id for p in s.players if p.commitment is not None and p.battle is None]
        if s.phase == "battle" and s.step == "backup" and s.priority is not None:
            return [s.priority]
        if s.phase == "battle" and s.look is not None:
            return [s.look.player]
        return []


def _round_ended(s: Any) -> E.RoundEnded:
    """The end of the round ``s`` waits for: its combo pushes (``State.pushes``)."""
    return E.RoundEnded(round=s.round, pushed=[E.ComboPush(counter=x.counter, colours=list(x.colours)) for x in s.pushes])
