"""Both directions of Colossus Order's rules at the decisions of generated matches (the audit of
tests/co_audit.py): what the seed allows is among ``legal_events`` and accepted by ``check``;
what it forbids (a mutation of the position's decision: the wrong player, a second Gem, a card
not in hand, an attacker that is not ready, a target that cannot be attacked, an event out of
phase, too many cards) is refused by ``check`` with the rule the rule page names for it.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import msgspec

from adjudicator.games.colossus_order import events as E

from .co_audit_view import ViewAudit
from .co_audit import (CARDS, GAME, Step, steps, cost, deck_size, gems_meet, handles, is_follower, is_gem, kind,
                       name, option, other, seat)

#: events of a side line (:meth:`Probe.side_line`)
SIDE_LINE = 30

#: effect targets that need no choice in ``targets`` (the oracle lists plays of those alone)
UNCHOSEN = (None, "self", "all-opponent-followers", "all-own-followers")


def needs_choice(effects: list[dict[str, Any]]) -> bool:
    return any(fx.get("target") not in UNCHOSEN or fx.get("do") in ("flip-locus", "look-hand", "look-locus")
               for fx in effects)


def key(e: Any) -> bytes:
    return msgspec.json.encode(GAME.canonical(e))


class Probe(ViewAudit):
    """The audit, and at every ``every``-th decision the seed's both directions."""

    def __init__(self, setup: E.MatchStarted, every: int = 1, explore: int = 0) -> None:
        super().__init__(setup)
        self.every = every
        self.decisions = 0
        #: every how many decisions a side line of uniformly chosen legal events is audited (0: never)
        self.explore = explore
        #: the refused mutations: (their place in the log: its line index, the event, the ruling)
        self.refusals: list[tuple[int, Any, Any]] = []
        #: events of the log (not derived) so far
        self.logged = 0

    def step(self, i: int, st: Step, match: list[Step]) -> None:
        super().step(i, st, match)
        self.logged += not st.derived

    def probe(self, i: int, st: Step) -> None:
        self.decisions += 1
        if self.explore and self.decisions % self.explore == 0:
            self.side_line(i, st)
        if self.decisions % self.every:
            return
        b, e = st.before, st.event
        self.view_check(i, e, b)
        self.legal_now = {key(x) for x in GAME.legal_events(b)}
        for p in self.setup.players:  # CO-10.4: either player, at any moment
            self.allowed(i, b, E.Conceded(player=p), "a concession")
        if isinstance(e, (*OPEN, E.ActionPlayed, E.FollowerAbilityActivated)) and self.open_timing():
            self.allowed_at_open_timing(i, b)
            self.forbidden_at_open_timing(i, b)
        elif self.window is not None and isinstance(e, (E.XPlayPassed, E.ActionPlayed, E.FollowerAbilityActivated)):
            self.forbidden_in_xplay(i, b)
        elif self.start_phase and isinstance(e, (E.CardDrawn, E.CompleteDeclared)) and e.player == self.tp:
            self.forbidden_in_start_phase(i, b, e)
        elif isinstance(e, (E.BlockDeclared, E.BlockDeclined)):
            self.at_block(i, b, e)
        elif isinstance(e, E.CardsRevealed) and self.reveal is not None:
            self.at_reveal(i, b, e)
        elif isinstance(e, E.GemsCaptured) and self.reveal is not None and self.reveal["cards"] is not None:
            self.at_capture(i, b, e)
        elif isinstance(e, E.CardsReturned):
            self.at_exchange(i, b, e)
        elif isinstance(e, E.CardDrawn) and self.turn == 0 and not self.returned and e.card is not None:
            self.refused(i, b, E.CardDrawn(player=other(self.setup, e.player), card=e.card), "CO-2.3", "wrong-drawer")
            self.refused(i, b, E.FirstPlayerDecided(player=e.player), ("CO-2.2", "CO-3.1"))
        elif isinstance(e, E.DeclarationDiscarded):
            self.at_discard(i, b, e)
        elif isinstance(e, E.LocusReplaced):
            self.refused(i, b, E.LocusReplaced(player=other(self.setup, e.player), card=e.card), "CO-7.8", "no-replacement-due")

    def side_line(self, i: int, st: Step) -> None:
        """From the position before ``st``, a line of every legal event alike (the playouts' weights
        avoid some), audited by a copy of this audit: what legal_events lists must be what the
        seed allows."""
        twin = copy.copy(self)
        for k, v in vars(self).items():
            if k not in ("setup",):
                setattr(twin, k, copy.deepcopy(v))
        twin.explore, twin.every, twin.bad, twin.seen = 0, 10**9, [], Counter()
        line = steps(self.setup, i, SIDE_LINE, start=st.before, uniform=True)
        for k, s2 in enumerate(line):
            twin.step(k, s2, line)
        self.bad += [f"side line from event {i}: {x}" for x in twin.bad]
        self.seen["side-line events"] += len(line)

    def open_timing(self) -> bool:
        return (self.window is None and not self.chain and self.attack is None and self.tp is not None
                and not self.start_phase and not self.main_ended and self.reveal is None and self.locus_hit is None)

    # -- the checks ---------------------------------------------------------------------------------
    def allowed(self, i: int, b: Any, ev: Any, why: str) -> None:
        r = GAME.check(b, ev)
        if not r.allowed:
            self.fail(i, ev, f"the seed allows it ({why}) but check says {r.rule} {r.code}: {r.message}")
        elif key(ev) not in self.legal_now:
            self.fail(i, ev, f"the seed allows it ({why}) but it is not among legal_events")
        self.seen["allowed checked"] += 1

    def refused(self, i: int, b: Any, ev: Any, rule: str | tuple[str, ...], code: str | None = None) -> None:
        r = GAME.check(b, ev)
        rules = (rule,) if isinstance(rule, str) else rule
        if r.allowed:
            self.fail(i, ev, f"the seed forbids it ({rules}) but check allows it")
        elif r.rule not in rules or (code is not None and r.code != f"colossus-order/{code}"):
            self.fail(i, ev, f"refused under {r.rule} {r.code} ({r.message}), expected {rules} {code}")
        elif key(ev) in self.legal_now:
            self.fail(i, ev, "refused by check but listed by legal_events")
        else:
            self.refusals.append((self.logged + 1, ev, r))
        self.seen["forbidden checked"] += 1

    def ready(self, p: Any) -> list[Any]:
        """Seed D(iii)4(iii), (v), FAQ (attacks): ON, not played this turn, not attacked this turn."""
        return [f for f in p.field if f.on and self.entered.get(f.handle) != self.turn and f.handle not in self.attacked]

    def gems_for(self, p: Any, scope_option: str, wide: str) -> list[str]:
        return list(p.set_gems) + (list(p.captured) if option(self.setup, scope_option) == wide else [])

    # -- open timing ------------------------------------------------------------------------------------
    def allowed_at_open_timing(self, i: int, b: Any) -> None:
        me, opp = seat(b, self.tp), seat(b, other(self.setup, self.tp))
        unused = len(me.locus) - me.locus_used
        for c in sorted(set(me.hand)):
            if is_gem(c) and not self.gem_sets[me.id] and not (
                    CARDS[c].get("unique") and any(name(g) == name(c) for g in me.set_gems)):
                self.allowed(i, b, E.CardSet(player=me.id, card=c, zone="gem"), "one Gem set a turn, D(iii)4(i)")
            cap = option(self.setup, "max_locus")
            if not self.locus_sets[me.id] and (cap is None or len(me.locus) < cap):
                self.allowed(i, b, E.CardSet(player=me.id, card=c, zone="locus"), "any card as a Locus once a turn, D(iii)4(ii)")
            card = CARDS[c]
            if is_follower(c) and cost(b, me.id, c) <= unused \
                    and gems_meet(card.get("gem_level", {}), self.gems_for(me, "gem_level_scope", "colossus-gems")) \
                    and not any(needs_choice(ab.get("effects", [])) for ab in card.get("abilities", []) if ab.get("timing") == "cip") \
                    and not (kind(c) == "follower-unique" and any(name(f.card) == name(c) for f in me.field)):
                self.allowed(i, b, E.FollowerPlayed(player=me.id, card=c), "cost and Gem Level met, A1/A2")
            if card.get("modelled", True) and cost(b, me.id, c) <= unused \
                    and gems_meet(card.get("gem_level", {}), self.gems_for(me, "gem_level_scope", "colossus-gems")) \
                    and not (kind(c) == "follower-unique" and any(name(f.card) == name(c) for f in me.field)):
                if is_follower(c):
                    cip = [fx for ab in card.get("abilities", []) if ab.get("timing") == "cip" for fx in ab.get("effects", [])]
                    self.targeted(i, b, me.id, lambda t, c=c: E.FollowerPlayed(player=me.id, card=c, targets=t), cip)
                elif kind(c) in ("action", "action-snap"):
                    self.targeted(i, b, me.id, lambda t, c=c: E.ActionPlayed(player=me.id, card=c, targets=t), card.get("effects", []))
            if kind(c) in ("action", "action-snap") and cost(b, me.id, c) <= unused \
                    and gems_meet(card.get("gem_level", {}), self.gems_for(me, "gem_level_scope", "colossus-gems")) \
                    and not needs_choice(card.get("effects", [])) and card.get("modelled", True):
                self.allowed(i, b, E.ActionPlayed(player=me.id, card=c), "cost and Gem Level met, D(iii)4(iv)")
        for f in self.ready(me):
            self.allowed(i, b, E.AttackDeclared(player=me.id, attacker=f.handle, target="deck"), "attack the deck")
            for sl in opp.locus:  # FAQ (attacks): face up too
                self.allowed(i, b, E.AttackDeclared(player=me.id, attacker=f.handle, target="locus", slot=sl.id), "attack a Locus card")
            for t in opp.field:
                if not t.on:
                    self.allowed(i, b, E.AttackDeclared(player=me.id, attacker=f.handle, target="follower", follower=t.handle),
                                 "attack a follower in OFF")
        for n, ab in enumerate(CARDS[me.colossus].get("colossus_abilities", [])):
            if (me.id, n) not in self.colossus_used and not needs_choice(ab.get("effects", [])) \
                    and ab.get("cost", {}).get("locus", 0) <= unused \
                    and gems_meet(ab["requires"], self.gems_for(me, "colossus_ability_scope", "colossus-gems")):
                self.allowed(i, b, E.ColossusAbilityActivated(player=me.id, ability=n), "Colossus ability once a turn, D(iii)4(vi)")
        self.allowed(i, b, E.MainPhaseEnded(player=me.id), "the turn player ends the main phase")
        self.abilities_allowed(i, b, me)

    def targeted(self, i: int, b: Any, me: str, make: Any, effects: list[dict[str, Any]]) -> None:
        """CO-6.3: a play whose text chooses one follower names one valid target: each valid one is
        allowed, one of the wrong side is refused; with none on the field it is played without."""
        picks = [fx for fx in effects if str(fx.get("target", "")).startswith("chosen-") and "locus" not in fx["target"]]
        if len(picks) != 1 or len(picks) != len([fx for fx in effects if fx.get("target", "self") not in UNCHOSEN]) \
                or picks[0].get("only") or any(fx.get("do") in ("flip-locus", "look-hand", "look-locus") for fx in effects):
            return
        side = picks[0]["target"]
        mine = [f.handle for f in seat(b, me).field]
        theirs = [f.handle for f in seat(b, other(self.setup, me)).field]
        valid = mine if side == "chosen-own-follower" else theirs if side == "chosen-opponent-follower" else mine + theirs
        wrong = [h for h in mine + theirs if h not in valid]
        for h in valid:
            self.allowed(i, b, make([h]), f"a {side.removeprefix('chosen-')} as its target")
        for h in wrong[:1]:
            self.refused(i, b, make([h]), "CO-6.3", "bad-target")
        if valid:
            self.refused(i, b, make([]), "CO-6.3", "target-count")
        elif kind(getattr(make([]), "card", "")) in ("follower", "follower-unique"):
            self.allowed(i, b, make([]), "a CIP with no valid target (CO-20)")
        self.seen["targeted plays checked"] += 1

    def abilities_allowed(self, i: int, b: Any, p: Any) -> None:
        """Seed D(iii)4(iii), FAQ (attacks): a follower's activated ability, its costs paid (an OFF
        cost: ON, not played this turn); CO-9: other costs the turn it is played too."""
        unused = len(p.locus) - p.locus_used
        for f in p.field:
            for n, ab in enumerate(CARDS[f.card].get("abilities", [])):
                c = ab.get("cost", {})
                if ab.get("timing") != "activated" or c.get("locus", 0) > unused:
                    continue
                ev = E.FollowerAbilityActivated(player=p.id, follower=f.handle, ability=n)
                sick = c.get("off") and (not f.on or self.entered.get(f.handle) == self.turn)
                if needs_choice(ab.get("effects", [])):
                    if not sick:
                        self.targeted(i, b, p.id, lambda t, f=f, n=n: E.FollowerAbilityActivated(
                            player=p.id, follower=f.handle, ability=n, targets=t), ab.get("effects", []))
                    continue
                if sick:
                    self.refused(i, b, ev, ("CO-8.3", "CO-9"))
                elif not any(fx.get("do") in ("look-top", "reveal-top", "mill") and deck_size(seat(b, p.id)) == 0
                             for fx in ab.get("effects", [])):
                    self.allowed(i, b, ev, "an activated ability, its costs paid")

    def forbidden_at_open_timing(self, i: int, b: Any) -> None:
        me, opp = seat(b, self.tp), seat(b, other(self.setup, self.tp))
        hand = sorted(set(me.hand))
        gems = [c for c in hand if is_gem(c)]
        if self.gem_sets[me.id] and gems:
            self.refused(i, b, E.CardSet(player=me.id, card=gems[0], zone="gem"), "CO-4.1", "gem-already-set")
        if not self.gem_sets[me.id] and (non := [c for c in hand if not is_gem(c)]):
            self.refused(i, b, E.CardSet(player=me.id, card=non[0], zone="gem"), "CO-4.1", "not-a-gem")
        if self.locus_sets[me.id] and hand:
            self.refused(i, b, E.CardSet(player=me.id, card=hand[0], zone="locus"), "CO-4.2", "locus-already-set")
        cap = option(self.setup, "max_locus")
        if not self.locus_sets[me.id] and hand and cap is not None and len(me.locus) >= cap:
            self.refused(i, b, E.CardSet(player=me.id, card=hand[0], zone="locus"), "CO-34", "locus-full")
        if opp.hand:
            self.refused(i, b, E.CardSet(player=opp.id, card=sorted(opp.hand)[0], zone="locus"), "CO-3.1", "not-turn-player")
        missing = sorted(c for c in CARDS if is_follower(c) and c not in me.hand)
        self.refused(i, b, E.FollowerPlayed(player=me.id, card=missing[0]), "CO-4.4", "not-in-hand")
        unused = len(me.locus) - me.locus_used
        for c in hand:
            card = CARDS[c]
            level = gems_meet(card.get("gem_level", {}), self.gems_for(me, "gem_level_scope", "colossus-gems"))
            if is_follower(c) and not (kind(c) == "follower-unique" and any(name(f.card) == name(c) for f in me.field)):
                if not level:
                    self.refused(i, b, E.FollowerPlayed(player=me.id, card=c), ("CO-5.2", "CO-5.1"))
                elif cost(b, me.id, c) > unused:
                    self.refused(i, b, E.FollowerPlayed(player=me.id, card=c), "CO-5.1", "locus-short")
            if kind(c) in ("action", "action-snap"):
                self.refused(i, b, E.FollowerPlayed(player=me.id, card=c), "CO-6.1", "not-a-follower")
            if is_follower(c):
                self.refused(i, b, E.ActionPlayed(player=me.id, card=c), "CO-8.1", "not-an-action")
            if kind(c) == "follower-unique" and any(name(f.card) == name(c) for f in me.field):
                self.refused(i, b, E.FollowerPlayed(player=me.id, card=c), ("CO-6.2", "CO-5.1", "CO-5.2"))
        ready = {f.handle for f in self.ready(me)}
        for f in me.field:
            if f.handle not in ready:  # OFF, entered this turn, or attacked already
                self.refused(i, b, E.AttackDeclared(player=me.id, attacker=f.handle, target="deck"), "CO-7.3", "attacker-not-ready")
        for t in opp.field:
            self.refused(i, b, E.AttackDeclared(player=me.id, attacker=t.handle, target="deck"), "CO-7.2", "not-own-follower")
            if t.on and ready:
                self.refused(i, b, E.AttackDeclared(player=me.id, attacker=min(ready), target="follower", follower=t.handle),
                             "CO-7.4", "target-not-off")
        if ready:
            a = min(ready)
            self.refused(i, b, E.AttackDeclared(player=me.id, attacker=a, target="locus", slot=10_000), "CO-7.4", "no-such-locus")
            self.refused(i, b, E.AttackDeclared(player=opp.id, attacker=a, target="deck"), "CO-7.1", "not-turn-player")
        for n, ab in enumerate(CARDS[me.colossus].get("colossus_abilities", [])):
            if (me.id, n) in self.colossus_used:
                self.refused(i, b, E.ColossusAbilityActivated(player=me.id, ability=n), "CO-8.4", "colossus-used")
            elif not gems_meet(ab["requires"], self.gems_for(me, "colossus_ability_scope", "colossus-gems")):
                self.refused(i, b, E.ColossusAbilityActivated(player=me.id, ability=n), "CO-8.4", "colossus-gems")
        self.refused(i, b, E.ColossusAbilityActivated(player=opp.id, ability=0), "CO-8.4", "not-turn-player")
        for f in opp.field:  # the other player acts only in X-play (FAQ (game rules))
            for n, ab in enumerate(CARDS[f.card].get("abilities", [])):
                if ab.get("timing") == "activated":
                    self.refused(i, b, E.FollowerAbilityActivated(player=opp.id, follower=f.handle, ability=n), "CO-3.1", "not-turn-player")
        for c in sorted(set(opp.hand)):
            if kind(c) == "action-snap":
                self.refused(i, b, E.ActionPlayed(player=opp.id, card=c), "CO-8.2", "not-turn-player")
        face_down = [sl.id for sl in me.locus if not sl.face_up]
        self.refused(i, b, E.CompleteDeclared(player=me.id, slots=(face_down + [997, 998, 999, 1000, 1001, 1002])[:6]),
                     "CO-3.2", "declaration-timing")
        self.refused(i, b, E.MainPhaseEnded(player=opp.id), "CO-10.1", "not-turn-player")
        self.refused(i, b, E.XPlayPassed(player=me.id), "CO-9.2", "no-window")
        self.refused(i, b, E.BlockDeclined(player=opp.id), "CO-7.5", "block-timing")
        if me.deck_top:
            self.refused(i, b, E.CardDrawn(player=me.id, card=me.deck_top[0]), "CO-3.4", "no-draw-owed")

    # -- X-play, the start phase, the block, the deck hit, the opening exchange ---------------------
    def forbidden_in_xplay(self, i: int, b: Any) -> None:
        """FAQ (game rules), (attacks): only Action.Snap cards and follower abilities, by the player
        with priority; no Colossus ability during a battle."""
        pr = self.window["priority"]
        nope = other(self.setup, pr)
        self.refused(i, b, E.XPlayPassed(player=nope), "CO-9.2", "no-priority")
        self.allowed(i, b, E.XPlayPassed(player=pr), "a pass")
        p = seat(b, pr)
        self.abilities_allowed(i, b, p)
        unused = len(p.locus) - p.locus_used
        for c in sorted(set(p.hand)):
            card = CARDS[c]
            aims = {fx.get("target") for fx in card.get("effects", [])}
            payable = cost(b, pr, c) <= unused and gems_meet(card.get("gem_level", {}), self.gems_for(p, "gem_level_scope", "colossus-gems"))
            if kind(c) == "action-snap" and payable and self.attack is None and aims & {"attacker", "opponent-attacker"}:
                self.refused(i, b, E.ActionPlayed(player=pr, card=c), "CO-6.3", "no-attacker")
            if kind(c) == "action-snap" and payable and self.attack is not None and self.attack["player"] == pr \
                    and "opponent-attacker" in aims:  # CO-6.5: it answers the opponent's attack
                self.refused(i, b, E.ActionPlayed(player=pr, card=c), "CO-6.5", "own-attacker")
            if kind(c) == "action-snap" and cost(b, pr, c) <= unused \
                    and gems_meet(card.get("gem_level", {}), self.gems_for(p, "gem_level_scope", "colossus-gems")):
                if needs_choice(card.get("effects", [])):
                    self.targeted(i, b, pr, lambda t, c=c: E.ActionPlayed(player=pr, card=c, targets=t), card.get("effects", []))
                else:
                    self.allowed(i, b, E.ActionPlayed(player=pr, card=c), "an Action.Snap in X-play (FAQ (game rules))")
        for f in seat(b, nope).field:
            for n, ab in enumerate(CARDS[f.card].get("abilities", [])):
                if ab.get("timing") == "activated":
                    self.refused(i, b, E.FollowerAbilityActivated(player=nope, follower=f.handle, ability=n),
                                 ("CO-9.2", "CO-9.3"), "no-priority")
        for c in sorted(set(p.hand)):
            if kind(c) == "action":
                self.refused(i, b, E.ActionPlayed(player=pr, card=c), "CO-9.3", "not-snap")
            if is_follower(c):
                self.refused(i, b, E.FollowerPlayed(player=pr, card=c), ("CO-3.1", "CO-6.1", "CO-9.3"))
            self.refused(i, b, E.CardSet(player=pr, card=c, zone="locus"), ("CO-3.1", "CO-9.3", "CO-4.2"))
        if self.tp == pr:
            self.refused(i, b, E.ColossusAbilityActivated(player=pr, ability=0), "CO-8.4", "colossus-in-xplay")
            for f in self.ready(p):
                self.refused(i, b, E.AttackDeclared(player=pr, attacker=f.handle, target="deck"), ("CO-3.1", "CO-7.1", "CO-9.3"))
        self.refused(i, b, E.MainPhaseEnded(player=self.tp), ("CO-3.1", "CO-10.1", "CO-9.3"))

    def forbidden_in_start_phase(self, i: int, b: Any, e: Any) -> None:
        """FAQ (game rules): only the declaration, the recovery and the draw in one's start phase."""
        p = seat(b, self.tp)
        for c in sorted(set(p.hand))[:3]:
            self.refused(i, b, E.CardSet(player=p.id, card=c, zone="locus"), "CO-3.5", "not-in-this-phase")
            if is_follower(c):
                self.refused(i, b, E.FollowerPlayed(player=p.id, card=c), "CO-3.5", "not-in-this-phase")
        for f in p.field:
            self.refused(i, b, E.AttackDeclared(player=p.id, attacker=f.handle, target="deck"), "CO-3.5", "not-in-this-phase")
        self.refused(i, b, E.ColossusAbilityActivated(player=p.id, ability=0), ("CO-3.5", "CO-8.4"))
        face_up = [sl.id for sl in p.locus if sl.face_up]
        face_down = [sl.id for sl in p.locus if not sl.face_up]
        may = not self.drawn_in_start and not self.declared_turn  # before the draw, once a turn (CO-3.2)
        if not may:
            self.refused(i, b, E.CompleteDeclared(player=p.id, slots=(face_down + face_up + list(range(900, 906)))[:6]),
                         "CO-3.2", "declaration-timing")
        elif len(face_down) < 6:
            self.refused(i, b, E.CompleteDeclared(player=p.id, slots=(face_down + face_up + list(range(900, 906)))[:6]),
                         "CO-22", "too-few-face-down")
        else:
            self.allowed(i, b, E.CompleteDeclared(player=p.id, slots=face_down[:6]), "6 face-down Locus cards, D(iii)1")
            self.refused(i, b, E.CompleteDeclared(player=other(self.setup, p.id), slots=face_down[:6]), "CO-3.2", "not-turn-player")
            if face_up:  # FAQ (victory): the face-down cards only
                self.refused(i, b, E.CompleteDeclared(player=p.id, slots=face_down[:5] + face_up[:1]), "CO-3.2", "not-face-down")
            self.refused(i, b, E.CompleteDeclared(player=p.id, slots=face_down[:5]), "CO-3.2", "six-slots")

    def at_block(self, i: int, b: Any, e: Any) -> None:
        """Seed D(iii)4(v): the opponent defends with a follower in ON."""
        d = e.player
        for f in seat(b, d).field:
            ev = E.BlockDeclared(player=d, blocker=f.handle)
            if f.on:
                self.allowed(i, b, ev, "an ON follower defends")
            else:
                self.refused(i, b, ev, "CO-7.5", "blocker-off")
        self.allowed(i, b, E.BlockDeclined(player=d), "a defence is optional")
        self.refused(i, b, E.XPlayPassed(player=self.tp), ("CO-7.5", "CO-3.1", "CO-9.2"))

    def at_reveal(self, i: int, b: Any, e: Any) -> None:
        """Seed A6: as many cards as the Crush point."""
        if e.cards:
            self.refused(i, b, E.CardsRevealed(player=e.player, cards=list(e.cards)[:-1]), "CO-7.7", "reveal-count")

    def at_capture(self, i: int, b: Any, e: Any) -> None:
        """Seed A7: Gem cards among the revealed, as many as the Capture point."""
        r = self.reveal
        shown = r["cards"]
        gems = [c for c in shown if is_gem(c)]
        non = [c for c in shown if not is_gem(c)]
        if non:
            self.refused(i, b, E.GemsCaptured(player=e.player, cards=[non[0]]), "CO-7.7", "not-a-gem")
        if len(gems) > r["capture"]:
            self.refused(i, b, E.GemsCaptured(player=e.player, cards=gems[: r["capture"] + 1]), "CO-7.7", "capture-limit")
        for n in range(min(len(gems), r["capture"]) + 1):
            self.allowed(i, b, E.GemsCaptured(player=e.player, cards=gems[:n]), "up to Capture Gems (may)")
        outside = next((c for c in CARDS if is_gem(c) and Counter(shown)[c] == 0), None)
        if outside is not None and r["capture"]:
            self.refused(i, b, E.GemsCaptured(player=e.player, cards=[outside]), "CO-7.7", "not-revealed")

    def at_exchange(self, i: int, b: Any, e: Any) -> None:
        """Seed D(ii)4: up to 2 (first) and 4 (second) cards back (CO-1: the options)."""
        limit = option(self.setup, "mulligan_first" if e.player == self.first else "mulligan_second")
        hand = list(seat(b, e.player).hand)
        if len(hand) > limit:
            self.refused(i, b, E.CardsReturned(player=e.player, cards=hand[: limit + 1]), "CO-2.4", "too-many-returned")
        for n in range(min(limit, len(hand)) + 1):
            self.allowed(i, b, E.CardsReturned(player=e.player, cards=hand[:n]), f"up to {limit}")
        self.refused(i, b, E.CardsReturned(player=other(self.setup, e.player), cards=[]), "CO-2.4", "exchange-order")

    def at_discard(self, i: int, b: Any, e: Any) -> None:
        """Seed D(iii)1: 2 of the revealed cards into the discard pile (CO-22: who chooses)."""
        d = self.declared
        slots = d["slots"]
        self.refused(i, b, E.DeclarationDiscarded(player=e.player, slots=slots[:3]), "CO-3.3", "discard-two-revealed")
        self.refused(i, b, E.DeclarationDiscarded(player=e.player, slots=[slots[0], slots[0]]), "CO-3.3", "discard-two-revealed")
        self.refused(i, b, E.DeclarationDiscarded(player=other(self.setup, e.player), slots=slots[:2]), "CO-22", "discard-chooser")
        for x in slots[1:]:
            self.allowed(i, b, E.DeclarationDiscarded(player=e.player, slots=[slots[0], x]), "any 2 of the 6")


OPEN = (E.CardSet, E.FollowerPlayed, E.AttackDeclared, E.ColossusAbilityActivated, E.MainPhaseEnded)
