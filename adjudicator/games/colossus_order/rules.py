"""Colossus Order rules: pure check / apply / derive / legal events.

``check`` raises :class:`Illegal` inside helpers and returns a Ruling; it never mutates.
``apply`` builds a new immutable State; it assumes the event was checked.
``derive`` returns the next consequence the rules force (state-based checks first: the end of
the game, a destroyed follower; then derived steps of the task queue).
``legal_events`` enumerates candidates and keeps those ``check`` accepts, so the two can never
disagree.  No clock, no randomness, no iteration over sets: every order here is a list order.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations, product
from typing import Any, Iterable, TypeVar

import msgspec
from msgspec.structs import replace

from adjudicator.core.kit import Owed, RulesBase, applies, checks, derives, head, push
from adjudicator.core.commitments import Committed, looks_like, opens, well_formed
from adjudicator.core.events import HIDDEN, bare
from adjudicator.core.rulings import Illegal, Ruling, Undetermined, legal

from . import deck, unknowns
from . import events as E
from .cards import (
    ATTACKER_TARGETS, Aura, Boost, Card, CHOSEN_TARGETS, COLOURS, CostChange, Damage, Destroy, Draw as DrawFx,
    FlipLocus, LOCUS_TARGETS, LookHand as LookHandFx, LookTop as LookTopFx, Mill as MillFx, Only, Pool, RecoverLocus,
    ReturnToHand, RevealTop as RevealTopFx, POOLS, SetStats, Switch, ToDeck, ToLocus as ToLocusFx, load_pool,
)
from .state import (
    Attack, Battle, Block, Capture, ChainItem, ChooseFirst, Declare, DiscardDeclared, Draw,
    EndTurn, Flipped, Follower, LocusSlot, Look, UnknownLocusHit, Mill, Mulligan, Player, ReplaceLocus, Reorder, Resolve, Result,
    Reveal, RevealLocus, RevealTop, Shuffle, StartTurn, State, ToLocus, Window,
)
from adjudicator.core.events import CardsLooked, CardsMoved, CardsReordered

NS = "colossus-order/"
T = TypeVar("T")


def bad(rule: str, code: str, message: str) -> Illegal:
    return Illegal(rule, NS + code, message)


# -- small pure helpers -------------------------------------------------------------------------

def pool_of(s: State) -> Pool:
    return POOLS.of_setup(s.setup)


def remove_one(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = items.index(card)
    return items[:i] + items[i + 1:]


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
        return bad("CO-7.3", "attacker-not-ready", f"{f.handle} ({f.card}) is OFF and cannot attack")
    if f.played_turn == s.turn:
        return bad("CO-7.3", "attacker-not-ready", f"{f.handle} ({f.card}) was played this turn (turn {s.turn}) and cannot attack yet")
    if f.attacked:
        return bad("CO-7.3", "attacker-not-ready", f"{f.handle} ({f.card}) already attacked this turn")
    return None


def cannot_go_off(s: State, f: Follower) -> Illegal | None:
    """Why follower ``f`` cannot pay an OFF cost now (CO-8.3, CO-9), or None."""
    if not f.on:
        return bad("CO-8.3", "already-off", f"{f.handle} ({f.card}) is OFF and cannot pay an OFF cost")
    if f.played_turn == s.turn:
        return bad("CO-9", "summoning-sick", f"{f.handle} ({f.card}) was played this turn and cannot pay an OFF cost")
    return None


def with_player(s: State, pid: str, **changes: Any) -> State:
    a, b = s.players
    if a.id == pid:
        return replace(s, players=(replace(a, **changes), b))
    return replace(s, players=(a, replace(b, **changes)))


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


class Rules(RulesBase):
    """The Colossus Order rules, bound to nothing but the pool named by each position."""

    namespace = NS

    # -- stats ---------------------------------------------------------------------------------
    def stats(self, s: State, owner: Player, f: Follower) -> tuple[int, int, int, int]:
        """Current attack, defence, crush, capture: printed + until-end-of-turn + auras."""
        pool = pool_of(s)
        c = pool[f.card]
        a = (c.attack if f.set_attack is None else f.set_attack) + f.boost[0]  # CO-37: set, then modify
        d = (c.defence if f.set_defence is None else f.set_defence) + f.boost[1]
        cr, ca = c.crush + f.boost[2], c.capture + f.boost[3]
        for g in owner.field:
            if g.handle == f.handle:
                continue
            for ab in pool[g.card].abilities:
                if ab.timing != "continuous":
                    continue
                for fx in ab.effects:
                    if type(fx) is Aura and (fx.race is None or fx.race in c.races):
                        a, d, cr, ca = a + fx.attack, d + fx.defence, cr + fx.crush, ca + fx.capture
        return a, d, cr, ca

    def locus_cost(self, s: State, p: Player, card: Card) -> int:
        cost = card.locus_cost
        if card.is_follower:
            pool = pool_of(s)
            for g in p.field:
                for ab in pool[g.card].abilities:
                    if ab.timing != "continuous":
                        continue
                    for fx in ab.effects:
                        if type(fx) is CostChange and (fx.race is None or fx.race in card.races):
                            cost += fx.delta
        return max(0, cost)

    def gem_counts(self, s: State, p: Player, scope: str) -> Counter[str]:
        pool = pool_of(s)
        gems = p.set_gems + (p.captured if scope == "colossus-gems" else ())
        return Counter(pool[g].colour for g in gems if g != HIDDEN)  # CO-39.6: unknown gems counted apart

    def meets(self, counts: Counter[str], req: dict[str, int]) -> bool:
        spare = sum(counts.values())
        for colour in COLOURS:
            n = req.get(colour, 0)
            if counts[colour] < n:
                return False
            spare -= n
        return spare >= req.get("any", 0)

    #: per pool object (one per content), never per pool id
    _weakening: dict[Any, bool] = {}

    def weakening(self, s: State) -> bool:
        """Does the pool have a card whose aura lowers Defence, or a follower without Defence?"""
        pool = pool_of(s)
        w = self._weakening.get(pool)
        if w is None:
            w = any(
                (c.is_follower and c.defence <= 0)
                or any(type(fx) is Aura and fx.defence < 0 for ab in c.abilities for fx in ab.effects)
                for c in pool.cards.values()
            )
            self._weakening[pool] = w
        return w

    def destroyed(self, s: State, owner: Player, f: Follower) -> bool:
        _, d, _, _ = self.stats(s, owner, f)
        if d <= 0:
            return True
        if s.options.destroy_when == "damage-gt-defence":
            return f.damage > d
        return f.damage >= d

    # -- what happens next ---------------------------------------------------------------------
    step_rule = "CO-3.1"

    #: the rule behind each owed step and why it is owed; None: an ordinary step of the turn's
    #: structure, cited by CO-3.1 (whose decision it is), an obligation a rule created by its own
    _OWED: dict[type, tuple[str | None, Any]] = {
        Shuffle: (None, lambda h: f"DeckShuffled by {h.player}"),
        ChooseFirst: (None, lambda h: "FirstPlayerDecided"),
        Mulligan: (None, lambda h: f"CardsReturned by {h.player} (the opening exchange, before the first turn)"),
        Block: (None, lambda h: f"BlockDeclared or BlockDeclined by {h.player} (an attack waits for the defender)"),
        Window: (None, lambda h: f"an X-play by {h.priority} (Action.Snap, follower ability or XPlayPassed) "
                                 f"(the X-play window is open and {h.priority} has priority)"),
        Reveal: ("CO-7.7", lambda h: f"CardsRevealed from {h.player}'s deck ({h.count} cards: the attack hit the deck)"),
        Capture: ("CO-7.7", lambda h: f"GemsCaptured by {h.player} (up to {h.limit} of the revealed Gem cards)"),
        ReplaceLocus: ("CO-7.8", lambda h: f"LocusReplaced by {h.player} in slot {h.slot} (a Gem was captured from "
                                           f"that Locus slot: its owner puts a card from hand face down there)"),
        DiscardDeclared: ("CO-3.3", lambda h: f"DeclarationDiscarded by {h.chooser} (the Complete Declaration failed: "
                                              f"2 of its 6 revealed Locus cards are discarded)"),
        RevealTop: ("CO-8.6", lambda h: f"TopCardRevealed by {h.player} ({h.count - h.done} more to reveal: "
                                        f"{h.source} reveals the top of {h.player}'s deck)"),
        Mill: ("CO-8.8", lambda h: f"CardMilled by {h.player} ({h.count} more: {h.source} puts the top of "
                                   f"{h.player}'s deck into the discard pile)"),
        Look: (None, lambda h: (f"CardsLooked by {h.player} at {h.owner}'s hand (CO-41: {h.source} lets "
                                f"{h.player} look at it)") if h.zone == "hand" else
               (f"CardsLooked by {h.player} at the top {h.count} cards of {h.owner}'s deck (CO-42: {h.source} lets "
                f"{h.player} look at them)")),
        Reorder: ("CO-42", lambda h: f"CardsReordered by {h.player} (the {h.count} cards looked at go back on top of "
                                     f"{h.owner}'s deck in the order {h.player} chooses)"),
        ToLocus: ("CO-43", lambda h: f"CardsMoved by {h.player} from deck to locus ({h.count} cards: {h.source} puts "
                                     f"the top of {h.player}'s deck into the Locus face down)"),
    }
    #: why a Draw is owed, by its reason
    _DRAWS: dict[str, tuple[str | None, str]] = {
        "opening": (None, "the opening hand of 7"), "exchange": (None, "as many as were returned in the opening exchange"),
        "draw-step": (None, "the draw step of the turn"), "locus-hit": ("CO-7.8", "a Gem was captured from "
                                                                            "a Locus slot: its owner draws 1"),
    }

    def owed(self, s: State, e: Any = None) -> Owed:
        h = head(s)
        if s.result is not None:
            return Owed("nothing (the match is over)", "CO-10.4")
        if h is None:
            if s.phase == "main":
                return Owed(f"{s.turn_player}'s main-phase play (open timing)")
            return Owed("nothing")
        t = type(h)
        if t is Draw:
            rule, why = self._DRAWS.get(h.reason, ("CO-8.10", "an effect makes them draw"))
            return Owed(f"CardDrawn by {h.player} ({h.count} to draw)", rule, why, h.player)
        if t is Declare:
            cip = pool_of(s)[h.card].is_follower
            return Owed(f"EffectDeclared by {h.player} for {h.card}", "CO-6.4" if cip else "CO-8.5",
                        "a CIP ability is mandatory and resolves as the follower enters" if cip else
                        "the effect resolves now and the engine does not model its text: it is declared", h.player)
        found = self._OWED.get(t)
        if found is None:
            return Owed(f"a derived event ({t.__name__})")
        rule, text = found
        if t is Look:
            rule = "CO-41" if h.zone == "hand" else "CO-42"
        expects, _, why = text(h).rpartition(" (") if text(h).endswith(")") else (text(h), "", "")
        by = getattr(h, "player", None) or getattr(h, "chooser", None) or getattr(h, "priority", None)
        return Owed(expects, rule, why[:-1], by)

    def expected(self, s: State) -> str:
        o = self.owed(s)
        return f"{o.expects} ({o.why})" if o.why else o.expects

    def open_timing(self, s: State, e: Any, rule: str = "CO-3.1") -> None:
        """The turn player's open timing in the main phase (no pending step, empty chain)."""
        if s.todo or s.phase != "main":
            if s.phase in ("start", "end"):
                raise bad("CO-3.5", "not-in-this-phase", f"{type(e).__name__} cannot be played in the {s.phase} phase (now: {self.expected(s)})")
            raise self.out_of_step(s, e)
        if e.player != s.turn_player:
            raise bad(rule, "not-turn-player", f"{type(e).__name__} by {e.player}: only the turn player {s.turn_player} may do this at open timing")

    def in_window(self, s: State, e: Any, rule: str = "CO-3.1") -> bool:
        h = head(s)
        if type(h) is Window:
            if e.player != h.priority:
                raise bad("CO-9.3", "no-priority", f"{type(e).__name__} by {e.player}: {h.priority} has priority in this X-play window")
            return True
        self.open_timing(s, e, rule)
        return False

    # -- targets ---------------------------------------------------------------------------------
    def kind_candidates(self, s: State, controller: str, kind: str) -> list[str]:
        """The followers (handles) or Locus slots (``L<id>``) of a target kind, unfiltered."""
        me, opp = s.player(controller), s.opponent(controller)
        if kind == "chosen-follower":
            return [f.handle for f in s.players[0].field] + [f.handle for f in s.players[1].field]
        if kind == "chosen-opponent-follower":
            return [f.handle for f in opp.field]
        if kind == "chosen-own-follower":
            return [f.handle for f in me.field]
        if kind in LOCUS_TARGETS:
            return [f"L{sl.id}" for sl in (me if kind == "chosen-own-locus" else opp).locus]
        return []

    def target_candidates(self, s: State, controller: str, fx: Any) -> list[str]:
        """The targets ``fx`` may choose now: of its kind, meeting its conditions (CO-6.5) or, for
        a Locus slot, with the other face up (CO-8.7)."""
        out = self.kind_candidates(s, controller, fx.target)
        if type(fx) is FlipLocus:
            owner = s.player(controller) if fx.target == "chosen-own-locus" else s.opponent(controller)
            up = {f"L{sl.id}": sl.face_up for sl in owner.locus}
            return [t for t in out if up[t] == (fx.to == "down")]
        only = getattr(fx, "only", None)
        if only is not None:
            return [h for h in out if self.unmet(s, h, only) is None]
        return out

    def unmet(self, s: State, handle: str, only: Only) -> str | None:
        """Why the follower ``handle`` does not meet ``only`` (CO-6.5), or None."""
        found = find_follower(s, handle)
        if found is None:
            return None
        p, _, f = found
        card = pool_of(s)[f.card]
        a, d, _, _ = self.stats(s, p, f)
        if only.max_attack is not None and a > only.max_attack:
            return f"{handle} ({f.card}) has attack {a}; the effect needs attack {only.max_attack} or less"
        if only.max_defence is not None and d > only.max_defence:
            return f"{handle} ({f.card}) has defence {d}; the effect needs defence {only.max_defence} or less"
        if only.max_locus_cost is not None and card.locus_cost > only.max_locus_cost:
            return f"{handle} ({f.card}) has locus cost {card.locus_cost}; the effect needs {only.max_locus_cost} or less"
        if only.race is not None and only.race not in card.races:
            return f"{handle} ({f.card}) is not a {only.race}"
        return None

    def bad_target(self, s: State, controller: str, fx: Any, t: str, what: str) -> Illegal:
        kind = fx.target
        if t in self.kind_candidates(s, controller, kind):
            if type(fx) is FlipLocus:
                face = "down" if fx.to == "up" else "up"
                return bad("CO-8.7", f"already-face-{fx.to}", f"{what}: Locus slot {t} is already face {fx.to}; "
                                                              f"the effect turns a face-{face} Locus card face {fx.to}")
            return bad("CO-6.5", "condition-unmet", f"{what}: {self.unmet(s, t, fx.only)}")
        if kind in LOCUS_TARGETS:
            whose = "own" if kind == "chosen-own-locus" else "opponent's"
            return bad("CO-6.3", "bad-target", f"{what}: target {t!r} is not one of the {whose} Locus slots "
                                               f"{self.kind_candidates(s, controller, kind)}")
        return bad("CO-6.3", "bad-target", f"{what}: target {t!r} is not a {kind.removeprefix('chosen-').replace('-', ' ')} on the field")

    def check_targets(self, s: State, controller: str, effects: list[Any], targets: list[str], what: str) -> None:
        picks = self.chosen_effects(effects)
        if len(targets) != len(picks):
            kinds = [fx.target for fx in picks]
            raise bad("CO-6.3", "target-count", f"{what} needs {len(kinds)} target(s) ({', '.join(kinds) or 'none'}), the event names {len(targets)}")
        for fx, t in zip(picks, targets):
            if t not in self.target_candidates(s, controller, fx):
                raise self.bad_target(s, controller, fx, t, what)
        for fx in effects:
            kind = getattr(fx, "target", None)
            if kind not in ATTACKER_TARGETS:
                continue
            if s.attack is None:
                raise bad("CO-6.3", "no-attacker", f"{what} targets the attacking follower, but no attack is pending")
            if kind == "opponent-attacker" and s.attack.player == controller:
                raise bad("CO-6.5", "own-attacker", f"{what} targets an opponent's attacking follower, but the attacker "
                                                    f"{s.attack.attacker} is {controller}'s own")
            why = self.unmet(s, s.attack.attacker, fx.only) if fx.only is not None else None
            if why is not None:
                raise bad("CO-6.5", "condition-unmet", f"{what}: {why}")

    def chosen_effects(self, effects: list[Any]) -> list[Any]:
        """The effects that take the next entry of an event's ``targets`` (a follower or a Locus slot)."""
        return [fx for fx in effects if getattr(fx, "target", None) in CHOSEN_TARGETS + LOCUS_TARGETS]

    def target_combos(self, s: State, controller: str, effects: list[Any]) -> list[list[str]]:
        pools = [self.target_candidates(s, controller, fx) for fx in self.chosen_effects(effects)]
        return [list(c) for c in product(*pools)]

    # -- the check (the kit's wrapper: RulesBase.check) -------------------------------------------
    def not_proposed(self, s: State, e: Any) -> Illegal:
        return bad("CO-3.1", "unexpected-event", f"{type(e).__name__} cannot be proposed")

    def precheck(self, s: State, e: Any) -> None:
        who = getattr(e, "player", None)
        if who is not None and who != s.players[0].id and who != s.players[1].id:
            raise bad("CO-3.1", "unknown-player", f"{type(e).__name__}: {who!r} is not a player of this match")

    def lookup_failed(self, s: State, e: Any) -> Illegal | None:
        """A lookup failed: an event naming a card outside the pool (the log reader rejects those,
        a proposed event may not have been through it); anything else is a defect."""
        pool = pool_of(s)
        card = getattr(e, "card", None)
        named = ([card] if card is not None else []) + [c for c in getattr(e, "cards", ()) if c is not None]
        for c in named:
            if c not in pool:
                return bad("CO-4.4", "unknown-card", f"{type(e).__name__}: {c!r} is not a card of the {s.setup.pool!r} pool")
        return None

    @checks(E.DeckShuffled, rule="CO-2.1")
    def c_shuffle(self, s: State, e: E.DeckShuffled) -> None:
        h = head(s)
        if type(h) is not Shuffle or h.player != e.player:
            if type(h) is Shuffle:
                raise bad("CO-2.1", "shuffle-order", f"DeckShuffled by {e.player}: {h.player}'s deck is shuffled first")
            raise self.out_of_step(s, e)

    @checks(E.FirstPlayerDecided, rule="CO-2.2")
    def c_first(self, s: State, e: E.FirstPlayerDecided) -> None:
        if type(head(s)) is not ChooseFirst:
            raise bad("CO-2.2", "first-player-decided", f"FirstPlayerDecided({e.player}) but {self.expected(s)} is expected" +
                      (f" (the first player is already {s.first})" if s.first else ""))

    @checks(E.CardDrawn, rule="CO-2.5")
    def c_draw(self, s: State, e: E.CardDrawn) -> None:
        h = head(s)
        if type(h) is not Draw:
            if h is None and s.phase == "main" and e.player == s.turn_player:
                why = "the first player skips the draw step of the first turn" if (s.turn == 1 and e.player == s.first) \
                    else "the draw step of this turn is over (1 card per draw step)"
                raise bad("CO-3.4", "no-draw-owed", f"CardDrawn by {e.player} on turn {s.turn}: {why}")
            raise self.out_of_step(s, e)
        if h.player != e.player:
            rule = {"opening": "CO-2.3", "draw-step": "CO-3.4"}.get(h.reason, "CO-3.1")
            raise bad(rule, "wrong-drawer", f"CardDrawn by {e.player}, but {h.player} draws now ({h.reason})")
        if unknowns.unknown(e.card):  # CO-39: a draw the record does not name
            if not s.player(e.player).deck_count:
                raise bad("CO-2.5", "not-in-deck", f"{e.player} draws a card, but the deck is empty")
            return
        self.check_next(s, e.player, e.card, "draws")

    def as_listed(self, s: State) -> bool:
        return s.options.returned_order == "as-listed"

    def check_next(self, s: State, player: str, card: str, verb: str) -> None:
        """CO-2.5/CO-2.6: ``card`` must be the card the deck can give next, given what is known."""
        p = s.player(player)
        problem = deck.next_problem(p, card, self.as_listed(s), verb)
        if problem is not None:
            if problem[1] == "impossible-identity":
                raise bad(problem[0], problem[1], f"{player} {verb} {card} from the deck, but {unknowns.where(s, p, card)}")
            raise bad(*problem)
        if p.unseen and card in p.unseen and card not in p.deck_known[:1]:  # CO-39.1: named from an unknown deck list
            problem = unknowns.breaks_construction(s, p, card, pool_of(s))
            if problem is not None:
                raise bad(*problem)

    def from_hand(self, s: State, player: str, card: str | None, what: str) -> None:
        """CO-4.4/CO-39.2: ``card`` must be in ``player``'s hand, or be what an unknown card there can be."""
        p = s.player(player)
        if unknowns.unknown(card):
            if not p.hand:
                raise bad("CO-4.4", "not-in-hand", f"{what}, but {player}'s hand is empty")
            return
        if card in p.hand:
            return
        problem = unknowns.problem(s, p, p.hand, card, what)  # type: ignore[arg-type]
        if problem is not None:
            raise bad(*problem)

    @checks(E.CardsReturned, rule="CO-2.4")
    def c_returned(self, s: State, e: E.CardsReturned) -> None:
        h = head(s)
        if type(h) is not Mulligan:
            raise self.out_of_step(s, e)
        if h.player != e.player:
            raise bad("CO-2.4", "exchange-order", f"CardsReturned by {e.player}, but {h.player} decides the opening exchange now (first player first)")
        limit = s.options.mulligan_first if e.player == s.first else s.options.mulligan_second
        if len(e.cards) > limit:
            raise bad("CO-2.4", "too-many-returned", f"{e.player} returns {len(e.cards)} cards; the {'first' if e.player == s.first else 'second'} player may return at most {limit} (CO-1)")
        hand = s.player(e.player).hand
        if not contains_multiset(hand, e.cards):
            if HIDDEN not in hand and not any(unknowns.unknown(c) for c in e.cards):
                raise bad("CO-4.4", "not-in-hand", f"{e.player} returns {e.cards}, which are not all in hand")
            self.check_returned_unknown(s, e)

    def check_returned_unknown(self, s: State, e: E.CardsReturned) -> None:
        """CO-39.2: returned cards where the hand or the event holds unknown cards."""
        p = s.player(e.player)
        if len(e.cards) > len(p.hand):
            raise bad("CO-4.4", "not-in-hand", f"{e.player} returns {len(e.cards)} cards, but holds {len(p.hand)}")
        hand, unseen = p.hand, p.unseen
        for c in sorted(c for c in e.cards if not unknowns.unknown(c)):
            if c not in hand:
                problem = unknowns.problem(s, replace(p, hand=hand, unseen=unseen), hand, c, f"{e.player} returns {c}")
                if problem is not None:
                    raise bad(*problem)
            hand, unseen = unknowns.take_named(hand, unseen, c)

    @checks(E.CompleteDeclared, rule="CO-3.2")
    def c_declared(self, s: State, e: E.CompleteDeclared) -> None:
        h = head(s)
        if not (s.phase == "start" and s.declaration_open and type(h) is Draw and h.reason == "draw-step"):
            raise bad("CO-3.2", "declaration-timing", f"Complete Declaration by {e.player} outside the start phase before the draw (now: {self.expected(s)})")
        if e.player != s.turn_player:
            raise bad("CO-3.2", "not-turn-player", f"Complete Declaration by {e.player} in {s.turn_player}'s start phase")
        p = s.player(e.player)
        down = [sl.id for sl in p.locus if not sl.face_up]
        if len(down) < 6:
            raise bad("CO-22", "too-few-face-down", f"{e.player} has {len(down)} face-down Locus cards; a Complete Declaration needs 6")
        if len(e.slots) != 6 or len(set(e.slots)) != 6:
            raise bad("CO-3.2", "six-slots", f"a Complete Declaration names 6 different Locus slots, got {e.slots}")
        for sl in e.slots:
            if sl not in down:
                raise bad("CO-3.2", "not-face-down", f"Locus slot {sl} is not one of {e.player}'s face-down Locus slots {down}")
        cond = declaration_condition(p, e.slots)
        if cond is not None:  # CO-39.4: the outcome turns on Locus cards the record does not name
            hidden = [sl.id for sl in p.locus if sl.id in e.slots and sl.card == HIDDEN]
            raise Undetermined("CO-39.4", NS + "declaration-unknown",
                               f"{e.player} declares Locus slots {sorted(e.slots)}, of which {hidden} are unknown in this record", cond)

    @checks(E.DeclarationDiscarded, rule="CO-3.3")
    def c_decl_discard(self, s: State, e: E.DeclarationDiscarded) -> None:
        h = head(s)
        if type(h) is not DiscardDeclared:
            raise self.out_of_step(s, e)
        if e.player != h.chooser:
            raise bad("CO-22", "discard-chooser", f"{e.player} chose the discards, but {h.chooser} chooses them (ruleset: {s.options.declaration_discard_chooser})")
        if len(e.slots) != 2 or len(set(e.slots)) != 2 or any(x not in h.slots for x in e.slots):
            raise bad("CO-3.3", "discard-two-revealed", f"discard 2 different slots among the revealed {list(h.slots)}, got {e.slots}")

    @checks(E.CardSet, rule="CO-4.1")
    def c_set(self, s: State, e: E.CardSet) -> None:
        self.open_timing(s, e)
        p = s.player(e.player)
        if e.card not in p.hand:
            if unknowns.unknown(e.card) and e.zone == "gem":
                raise bad("CO-39.3", "unknown-gem", f"{e.player} sets a Gem on the Colossus face up: the record must name it")
            self.from_hand(s, e.player, e.card, f"{e.player} sets {e.card}, which is not in hand")
        pool = pool_of(s)
        if e.zone == "gem":
            c = pool[e.card]
            if not c.is_gem:
                raise bad("CO-4.1", "not-a-gem", f"{e.card} ({c.type}) is not a Gem card and cannot be set on the Colossus")
            if p.gem_set:
                raise bad("CO-4.1", "gem-already-set", f"{e.player} already set a Gem this turn")
            if c.unique and any(pool[g].name == c.name for g in p.set_gems):
                raise bad("CO-4.3", "unique-gem", f"{e.player} already has the Unique Gem {c.name} set")
        else:
            if p.locus_set:
                raise bad("CO-4.2", "locus-already-set", f"{e.player} already set a Locus card this turn")
            if s.options.max_locus is not None and len(p.locus) >= s.options.max_locus:
                raise bad("CO-34", "locus-full", f"{e.player} has {len(p.locus)} Locus cards, the ruleset's maximum")

    def pay_check(self, s: State, p: Player, c: Card, what: str) -> None:
        cost = self.locus_cost(s, p, c)
        avail = available_locus(p)
        if cost > avail:
            raise bad("CO-5.1", "locus-short", f"{what} costs {cost} Locus, {p.id} has {avail} unused ({len(p.locus)} Locus cards, {p.locus_used} used this turn)")
        if c.gem_level and not self.meets(self.gem_counts(s, p, s.options.gem_level_scope), c.gem_level):
            have = dict(self.gem_counts(s, p, s.options.gem_level_scope))
            cond = self.gem_level_condition(s, p, c)
            if cond is not None:
                unknown = sum(1 for g in p.captured if g == HIDDEN)
                raise Undetermined("CO-39.6", NS + "gem-level-unknown",
                                   f"{what} needs gems {describe_gems(c.gem_level)}; {p.id} has {describe_gems(have)} and "
                                   f"{unknown} captured Gem(s) the record does not name", cond)
            raise bad("CO-5.2", "gem-level", f"{what} needs gems {describe_gems(c.gem_level)}; {p.id} has {describe_gems(have)} ({s.options.gem_level_scope}, CO-6)")

    def gem_level_condition(self, s: State, p: Player, c: Card) -> str | None:
        """CO-39.6: the condition under which ``c``'s gem level is met by captured Gems the record
        does not name (None: met by the named ones, or not even with those)."""
        if not c.gem_level or HIDDEN not in p.captured or s.options.gem_level_scope != "colossus-gems":
            return None
        counts = self.gem_counts(s, p, s.options.gem_level_scope)
        if self.meets(counts, c.gem_level):
            return None
        have = dict(counts)
        unknown = sum(1 for g in p.captured if g == HIDDEN)
        missing = {k: n - have.get(k, 0) for k, n in c.gem_level.items() if k != "any" and n > have.get(k, 0)}
        if sum(missing.values()) <= unknown and sum(have.values()) + unknown >= sum(c.gem_level.values()):
            return f"{p.id}'s unnamed captured Gems include {describe_gems(missing) if missing else 'enough of any colour'}"
        return None

    def pay_conditions(self, s: State, p: Player, c: Card) -> State:
        """``s`` remembering the CO-39.6 condition a play from ``p``'s hand was legal under (it stays open:
        a captured Gem is never named later)."""
        cond = self.gem_level_condition(s, p, c)
        return s if cond is None else replace(s, conditions=s.conditions + (cond,))

    @checks(E.FollowerPlayed, rule="CO-6.1")
    def c_follower(self, s: State, e: E.FollowerPlayed) -> None:
        self.open_timing(s, e, "CO-6.1")
        p = s.player(e.player)
        pool = pool_of(s)
        c = pool[e.card]
        if not c.is_follower:
            raise bad("CO-6.1", "not-a-follower", f"{e.card} is a {c.type}, not a follower")
        if e.card not in p.hand:
            self.from_hand(s, e.player, e.card, f"{e.player} plays {e.card}, which is not in hand")
        if c.type == "follower-unique":
            names = [pool[f.card].name for f in p.field] + [pool[i.card].name for i in s.chain if i.player == e.player and i.kind == "follower"]
            if c.name in names:
                raise bad("CO-6.2", "unique-on-field", f"{e.player} already has {c.name} on the field; a Follower Unique is limited to one per name")
        self.pay_check(s, p, c, f"{e.card}")
        effects = [fx for ab in c.abilities if ab.timing == "cip" for fx in ab.effects] if c.modelled else []
        if not e.targets and not self.target_combos(s, e.player, effects):
            return  # CO-6.4/CO-20: a mandatory CIP with no valid target: its targeted part does nothing
        self.check_targets(s, e.player, effects, e.targets, f"{e.card}'s CIP")

    @checks(E.ActionPlayed, rule="CO-8.1")
    def c_action(self, s: State, e: E.ActionPlayed) -> Ruling | None:
        c = pool_of(s)[e.card]
        windowed = self.in_window(s, e, "CO-8.2" if c.type == "action-snap" else "CO-8.1")
        p = s.player(e.player)
        if not c.is_action:
            raise bad("CO-8.1", "not-an-action", f"{e.card} is a {c.type}, not an Action")
        if windowed and c.type != "action-snap":
            raise bad("CO-9.3", "not-snap", f"{e.card} is not an Action.Snap: only Action.Snap cards can be played in X-play")
        if e.card not in p.hand:
            self.from_hand(s, e.player, e.card, f"{e.player} plays {e.card}, which is not in hand")
        self.pay_check(s, p, c, e.card)
        self.check_targets(s, e.player, c.effects if c.modelled else [], e.targets, e.card)
        if windowed:
            return legal("CO-8.2", NS + "ok", f"{e.card} (Action.Snap) played by {e.player} in X-play")
        return None

    @checks(E.FollowerAbilityActivated, rule="CO-8.3")
    def c_ability(self, s: State, e: E.FollowerAbilityActivated) -> None:
        self.in_window(s, e)
        found = find_follower(s, e.follower)
        if found is None or found[0].id != e.player:
            raise bad("CO-8.3", "not-own-follower", f"{e.follower!r} is not a follower of {e.player} on the field")
        p, _, f = found
        c = pool_of(s)[f.card]
        abilities = c.abilities
        if not (0 <= e.ability < len(abilities)) or abilities[e.ability].timing != "activated":
            raise bad("CO-8.3", "no-such-ability", f"{f.card} ({e.follower}) has no activated ability #{e.ability}")
        ab = abilities[e.ability]
        if ab.cost.off:
            refused = cannot_go_off(s, f)
            if refused is not None:
                raise refused
        if ab.cost.locus > available_locus(p):
            raise bad("CO-5.1", "locus-short", f"the ability costs {ab.cost.locus} Locus, {p.id} has {available_locus(p)} unused")
        self.check_targets(s, e.player, ab.effects if c.modelled else [], e.targets, f"{f.card}'s ability #{e.ability}")

    @checks(E.ColossusAbilityActivated, rule="CO-8.4")
    def c_colossus(self, s: State, e: E.ColossusAbilityActivated) -> None:
        if type(head(s)) is Window:
            raise bad("CO-8.4", "colossus-in-xplay", "a Colossus ability cannot be activated during X-play")
        self.open_timing(s, e, "CO-8.4")
        p = s.player(e.player)
        c = pool_of(s)[p.colossus]
        if not (0 <= e.ability < len(c.colossus_abilities)):
            raise bad("CO-8.4", "no-such-ability", f"{p.colossus} has no ability #{e.ability}")
        if e.ability in p.colossus_used:
            raise bad("CO-8.4", "colossus-used", f"{p.colossus}'s ability #{e.ability} was already used this turn")
        ab = c.colossus_abilities[e.ability]
        counts = self.gem_counts(s, p, s.options.colossus_ability_scope)
        if not self.meets(counts, ab.requires):
            raise bad("CO-8.4", "colossus-gems", f"{p.colossus}'s ability #{e.ability} needs {describe_gems(ab.requires)}; {p.id} has {describe_gems(dict(counts))} ({s.options.colossus_ability_scope}, CO-7)")
        if ab.cost.locus > available_locus(p):
            raise bad("CO-5.1", "locus-short", f"the ability costs {ab.cost.locus} Locus, {p.id} has {available_locus(p)} unused")
        self.check_targets(s, e.player, ab.effects, e.targets, f"{p.colossus}'s ability #{e.ability}")

    @checks(E.EffectDeclared, rule="CO-8.5")
    def c_effect(self, s: State, e: E.EffectDeclared) -> Ruling:
        h = head(s)
        if type(h) is Declare:
            if h.player != e.player or h.card != e.card:
                raise bad("CO-8.5", "declare-other", f"the effect of {h.card} ({h.player}) must be declared now, not {e.card} ({e.player})")
        else:
            self.open_timing(s, e, "CO-8.5")
            p = s.player(e.player)
            on_field = [f.card for f in p.field] + [p.colossus]
            if e.card not in on_field:
                raise bad("CO-8.5", "declare-source", f"{e.player} declares an effect of {e.card}, which is neither resolving nor on their field")
            if not any(ab.timing == "continuous" for ab in pool_of(s)[e.card].abilities) and e.card != p.colossus:
                raise bad("CO-8.5", "declare-timing", f"{e.card} has no continuous ability: its declared effects come when its CIP or activated ability resolves")
        if pool_of(s)[e.card].modelled:
            raise bad("CO-8.5", "modelled-card", f"{e.card}'s text is modelled by the engine; its effect cannot be declared by hand")
        for h2 in list(e.destroy) + list(e.damage) + list(e.switch_on) + list(e.switch_off) + list(e.return_to_hand):
            if find_follower(s, h2) is None:
                raise bad("CO-8.5", "declare-unknown-follower", f"the declared effect names {h2!r}, which is not a follower on the field")
        if e.draw < 0 or e.opponent_draw < 0 or any(v < 0 for v in e.damage.values()):
            raise bad("CO-8.5", "declare-negative", "a declared effect cannot draw or damage a negative amount")
        return legal("CO-8.5", NS + "declared-effect", f"{e.card}: effect declared as stated by {e.player}; not engine-checked", engine_checked=False)

    @checks(E.AttackDeclared, rule="CO-7.1")
    def c_attack(self, s: State, e: E.AttackDeclared) -> None:
        self.open_timing(s, e, "CO-7.1")
        found = find_follower(s, e.attacker)
        if found is None or found[0].id != e.player:
            raise bad("CO-7.2", "not-own-follower", f"{e.attacker!r} is not a follower of {e.player} on the field")
        _, _, f = found
        refused = not_ready(s, f)
        if refused is not None:
            raise refused
        opp = s.opponent(e.player)
        if e.target == "deck":
            if e.slot is not None or e.follower is not None:
                raise bad("CO-7.4", "target-fields", "an attack on the deck names no slot and no follower")
        elif e.target == "locus":
            if e.follower is not None or e.slot not in [sl.id for sl in opp.locus]:
                raise bad("CO-7.4", "no-such-locus", f"{opp.id} has no Locus slot {e.slot} (slots: {[sl.id for sl in opp.locus]})")
        else:
            tf = find_follower(s, e.follower)
            if e.slot is not None or tf is None or tf[0].id != opp.id:
                raise bad("CO-7.4", "no-such-target", f"{e.follower!r} is not a follower of {opp.id} on the field")
            if tf[2].on:
                raise bad("CO-7.4", "target-not-off", f"{e.follower} ({tf[2].card}) is ON; only a follower in OFF can be attacked")

    @checks(E.BlockDeclared, rule="CO-7.5")
    def c_block(self, s: State, e: E.BlockDeclared) -> None:
        h = head(s)
        if type(h) is not Block or h.player != e.player:
            raise bad("CO-7.5", "block-timing", f"BlockDeclared by {e.player}, but the position expects {self.expected(s)}")
        found = find_follower(s, e.blocker)
        if found is None or found[0].id != e.player:
            raise bad("CO-7.5", "not-own-follower", f"{e.blocker!r} is not a follower of {e.player} on the field")
        if not found[2].on:
            raise bad("CO-7.5", "blocker-off", f"{e.blocker} ({found[2].card}) is OFF; only an ON follower can block")

    @checks(E.BlockDeclined, rule="CO-7.5")
    def c_block_declined(self, s: State, e: E.BlockDeclined) -> None:
        h = head(s)
        if type(h) is not Block or h.player != e.player:
            raise bad("CO-7.5", "block-timing", f"BlockDeclined by {e.player}, but the position expects {self.expected(s)}")

    @checks(E.XPlayPassed, rule="CO-9.2")
    def c_pass(self, s: State, e: E.XPlayPassed) -> None:
        h = head(s)
        if type(h) is not Window:
            raise bad("CO-9.2", "no-window", f"XPlayPassed by {e.player}, but no X-play window is open (expected: {self.expected(s)})")
        if h.priority != e.player:
            raise bad("CO-9.2", "no-priority", f"XPlayPassed by {e.player}, but {h.priority} has priority")

    @checks(E.CardsRevealed, rule="CO-7.7")
    def c_revealed(self, s: State, e: E.CardsRevealed) -> None:
        h = head(s)
        if type(h) is not Reveal or h.player != e.player:
            raise self.out_of_step(s, e)
        if len(e.cards) != h.count:
            raise bad("CO-7.7", "reveal-count", f"{h.count} cards are revealed from {e.player}'s deck, the event names {len(e.cards)}")
        if any(c is None for c in e.cards):
            raise bad("CO-2.5", "unknown-identity", "CardsRevealed must name every revealed card in this version")
        problem = deck.top_fits(s.player(e.player), list(e.cards), self.as_listed(s))  # type: ignore[arg-type]
        if problem is not None:
            code, why = problem
            raise bad("CO-2.6" if code == "known-top" else "CO-2.5", code,
                      f"{e.cards} cannot be the top {h.count} cards of {e.player}'s deck: {why}")

    def card_step(self, s: State, e: Any, task: type) -> Any:
        """The head task of type ``task`` a one-card event by its player answers (a card named)."""
        h = head(s)
        if type(h) is not task or h.player != e.player:
            raise self.out_of_step(s, e)
        if e.card is None:
            raise bad("CO-2.5", "unknown-identity", f"{type(e).__name__} must name the card in this version")
        return h

    @checks(E.TopCardRevealed, rule="CO-8.6")
    def c_top_revealed(self, s: State, e: E.TopCardRevealed) -> None:
        h = self.card_step(s, e, RevealTop)
        p = s.player(e.player)
        if h.done < len(p.deck_known):
            if e.card != p.deck_known[h.done]:
                raise bad("CO-2.6", "known-top", f"{e.player} reveals {e.card} as card {h.done + 1} from the top, but that card "
                                                 f"is known to be {p.deck_known[h.done]} ({p.known_why[h.done]})")
            return
        problem = deck.next_problem(replace(p, deck_known=(), known_why=()), e.card, self.as_listed(s), "reveals")  # type: ignore[arg-type]
        if problem is not None:
            raise bad(*problem)

    @checks(E.CardMilled, rule="CO-8.8")
    def c_milled(self, s: State, e: E.CardMilled) -> None:
        self.card_step(s, e, Mill)
        self.check_next(s, e.player, e.card, "mills")  # type: ignore[arg-type]

    # -- private information (CO-41 to CO-43): a look at a hand or a deck's top, a reorder, a move ---
    def private_step(self, s: State, e: Any, task: type) -> Any:
        """The head task of type ``task`` that ``e`` (a core private-information event) answers."""
        h = head(s)
        who = getattr(e, "player", None) or getattr(e, "owner", None)
        if type(h) is not task or h.player != who:
            raise self.out_of_step(s, e)
        if e.source is not None and e.source != (h.source or None):  # informational, but never another card's
            rule = "CO-43" if task is ToLocus else "CO-41" if task is Look and h.zone == "hand" else "CO-42"
            raise bad(rule, "private-source", f"{type(e).__name__}: source {e.source!r}, but {h.source or 'no card'} "
                                              f"lets {who} do this (the source may be left out)")
        return h

    @checks(CardsLooked, rule="CO-41")
    def c_looked(self, s: State, e: CardsLooked) -> Ruling | None:
        h = self.private_step(s, e, Look)
        rule = "CO-41" if h.zone == "hand" else "CO-42"
        if e.owner != h.owner or e.zone != h.zone or e.slots is not None:
            what = "hand" if h.zone == "hand" else f"top {h.count} cards of the deck"
            raise bad(rule, "look-what", f"{e.player} looks at {e.owner}'s {e.zone}{' slots' if e.slots else ''}, but "
                                         f"{h.source} shows {e.player} {h.owner}'s {what} (zone {h.zone!r})")
        if h.zone == "hand":
            self.name_in_hand(s, s.player(e.owner), e.cards, f"{e.player} looks at {e.owner}'s hand")
            return None
        self.from_top(s, s.player(e.owner), e.cards, h.count, f"{e.player} looks at the top {h.count} cards of "
                                                                f"{e.owner}'s deck", rule)
        return legal(rule, NS + "ok", f"{e.player} looks at the top {h.count} cards of {e.owner}'s deck")

    def name_in_hand(self, s: State, owner: Player, cards: list[Any], what: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """CO-41: ``cards`` (``"?"`` where the record does not name one) are ``owner``'s whole hand:
        the hand and ``unseen`` with the named unknown cards named (raises Illegal otherwise)."""
        hand, unseen = owner.hand, owner.unseen
        if len(cards) != len(hand):
            raise bad("CO-41", "look-count", f"{what}: {owner.id} holds {len(hand)} cards, the event names {len(cards)}")
        known = list(c for c in hand if c != HIDDEN)
        out: list[str] = []
        for c in sorted(c for c in cards if not unknowns.unknown(c)):
            if c in known:
                known.remove(c)
            elif HIDDEN in hand and c in unseen:
                problem = unknowns.breaks_construction(s, owner, c, pool_of(s))
                if problem is not None:
                    raise bad(*problem)
                unseen = unknowns.remove_one(unseen, c)
            else:
                where = unknowns.where(s, owner, c) if HIDDEN in hand else f"{owner.id}'s hand holds {', '.join(sorted(hand)) or 'nothing'}"
                raise bad("CO-41", "not-in-hand", f"{what} and sees {c}, but {where}")
            out.append(c)
        left = sum(1 for c in cards if unknowns.unknown(c))
        return tuple(out) + tuple(known[:left]) + (HIDDEN,) * max(0, left - len(known)), unseen

    def from_top(self, s: State, owner: Player, cards: list[Any], count: int, what: str, rule: str) -> Player:
        """CO-42/CO-43: ``cards`` (top first) can be the top ``count`` cards of ``owner``'s deck in that
        order, as far as it is known (CO-2.6); ``owner`` with them taken (raises Illegal otherwise)."""
        if len(cards) != count:
            raise bad(rule, "look-count", f"{what}: the event names {len(cards)} cards, the effect {count}")
        p, as_listed = owner, self.as_listed(s)
        for i, c in enumerate(cards):
            if unknowns.unknown(c):
                p = deck.take_unknown_top(p, as_listed)[0]
                continue
            problem = deck.next_problem(p, c, as_listed, "has")
            if problem is None and p.unseen and c in p.unseen and c not in p.deck_known[:1]:
                problem = unknowns.breaks_construction(s, p, c, pool_of(s))
            if problem is not None:
                raise bad(problem[0], problem[1], f"{what}: card {i + 1} from the top is {c}, but {problem[2].split(', but ', 1)[-1]}")
            p = deck.take(p, c, as_listed)
        return p

    def taken_from_top(self, s: State, owner: Player, cards: list[Any]) -> tuple[Player, tuple[str, ...]]:
        """``owner`` with ``cards`` taken from the top of the deck in order, and their identities as the
        position knows them (``"?"``: one of ``unseen``)."""
        p, as_listed, out = owner, self.as_listed(s), []
        for c in cards:
            if unknowns.unknown(c):
                p, card = deck.take_unknown_top(p, as_listed)
            else:
                p, card = deck.take(p, c, as_listed), c
            out.append(card)
        return p, tuple(out)

    @applies(CardsLooked)
    def a_looked(self, s: State, e: CardsLooked) -> State:
        owner = s.player(e.owner)
        if e.zone == "hand":
            if HIDDEN in owner.hand and any(not unknowns.unknown(c) for c in e.cards):  # CO-41: the record names them
                try:
                    hand, unseen = self.name_in_hand(s, owner, list(e.cards), "")
                    s = with_player(s, e.owner, hand=hand, unseen=unseen)
                except Illegal:
                    pass  # an unchecked look (a judge let it stand): nothing is learnt
            return push(s, drop=1) if type(head(s)) is Look else s
        p, seen = self.taken_from_top(s, owner, list(e.cards))
        s = self.with_seat(s, replace(p, deck_peek=seen + p.deck_peek, peek_by=e.player))
        return push(s, drop=1) if type(head(s)) is Look else s

    @checks(CardsReordered, rule="CO-42")
    def c_reordered(self, s: State, e: CardsReordered) -> None:
        h = self.private_step(s, e, Reorder)
        if e.owner != h.owner or e.zone != "deck-top":
            raise bad("CO-42", "look-what", f"{e.player} puts back cards on {e.owner}'s {e.zone}, but the cards looked at "
                                            f"go back on top of {h.owner}'s deck (zone 'deck-top')")
        peek = s.player(h.owner).deck_peek[: h.count]
        if len(e.cards) != h.count:
            raise bad("CO-42", "look-count", f"{e.player} puts back {len(e.cards)} cards; {h.count} were looked at")
        named = [c for c in e.cards if not unknowns.unknown(c)]
        if named and len(named) != len(e.cards):
            raise bad("CO-42", "reorder-cards", f"{e.player} names some of the cards put back and not others: a record names "
                                                f"all (the looking seat) or none")
        if named and HIDDEN not in peek and Counter(named) != Counter(peek):
            raise bad("CO-42", "reorder-cards", f"{e.player} puts back {', '.join(named)}, but looked at {', '.join(peek)}")
        if named and HIDDEN in peek:
            rest = Counter(named)
            rest.subtract(Counter(c for c in peek if c != HIDDEN))
            if any(v < 0 for v in rest.values()) or not contains_multiset(s.player(h.owner).unseen, list(rest.elements())):
                raise bad("CO-42", "reorder-cards", f"{e.player} puts back {', '.join(named)}, which cannot be the cards looked at")

    @applies(CardsReordered)
    def a_reordered(self, s: State, e: CardsReordered) -> State:
        p = s.player(e.owner)
        n = len(e.cards)
        peek, rest = p.deck_peek[:n], p.deck_peek[n:]
        unseen = p.unseen
        if any(unknowns.unknown(c) for c in e.cards):  # the new order is unknown to this record
            known = tuple(c for c in peek if c != HIDDEN)
            new = (HIDDEN,) * n
            unseen = tuple(sorted(unseen + known)) if known else unseen
        else:
            new = tuple(e.cards)  # type: ignore[arg-type]
            for c in sorted(Counter(new) - Counter(c for c in peek if c != HIDDEN)):
                if c in unseen:
                    unseen = unknowns.remove_one(unseen, c)
        s = with_player(s, e.owner, deck_peek=new + rest, unseen=unseen)
        return push(s, drop=1) if type(head(s)) is Reorder else s

    @checks(CardsMoved, rule="CO-43")
    def c_moved(self, s: State, e: CardsMoved) -> None:
        h = self.private_step(s, e, ToLocus)
        if e.owner != h.player or (e.player is not None and e.player != h.player) or e.from_zone != "deck" or e.to_zone != "locus":
            raise bad("CO-43", "move-what", f"CardsMoved of {e.owner}'s cards from {e.from_zone} to {e.to_zone}, but {h.source} "
                                            f"moves the top of {h.player}'s deck to {h.player}'s Locus (deck -> locus)")
        if list(e.seen_by) != [h.player]:
            raise bad("CO-43", "seen-by", f"the cards go into the Locus face down, seen by {h.player} alone: seen_by "
                                          f"must be [{h.player!r}], not {list(e.seen_by)}")
        p = s.player(h.player)
        if e.slots is not None and list(e.slots) != list(range(p.next_slot, p.next_slot + h.count)):
            raise bad("CO-43", "move-slots", f"the new Locus slots are {list(range(p.next_slot, p.next_slot + h.count))}, "
                                             f"the event names {list(e.slots)}")
        self.from_top(s, p, list(e.cards), h.count, f"{h.player} moves the top {h.count} cards of the deck to the Locus", "CO-43")

    @applies(CardsMoved)
    def a_moved(self, s: State, e: CardsMoved) -> State:
        p, cards = self.taken_from_top(s, s.player(e.owner), list(e.cards))
        slots = tuple(LocusSlot(p.next_slot + i, c) for i, c in enumerate(cards))
        s = self.with_seat(s, replace(p, locus=p.locus + slots, next_slot=p.next_slot + len(slots)))
        return push(s, drop=1) if type(head(s)) is ToLocus else s

    @checks(E.GemsCaptured, rule="CO-7.7")
    def c_captured(self, s: State, e: E.GemsCaptured) -> None:
        h = head(s)
        if type(h) is not Capture or h.player != e.player:
            raise self.out_of_step(s, e)
        owner = s.player(h.owner)
        pool = pool_of(s)
        if not contains_multiset(owner.revealed, e.cards):
            raise bad("CO-7.7", "not-revealed", f"{e.cards} are not among the revealed cards {list(owner.revealed)}")
        for c in e.cards:
            if not pool[c].is_gem:
                raise bad("CO-7.7", "not-a-gem", f"{c} is not a Gem card and cannot be captured")
        if len(e.cards) > h.limit:
            raise bad("CO-7.7", "capture-limit", f"the attacker's Capture is {h.limit}; {len(e.cards)} gems named")

    @checks(E.LocusReplaced, rule="CO-7.8")
    def c_replaced(self, s: State, e: E.LocusReplaced) -> None:
        h = head(s)
        if type(h) is not ReplaceLocus or h.player != e.player:
            if type(h) is ReplaceLocus or (h is None and s.phase == "main"):
                raise bad("CO-7.8", "no-replacement-due", f"LocusReplaced by {e.player}: a Locus card is put back only by the owner "
                          f"of a Locus slot whose Gem was just captured (now: {self.expected(s)})")
            raise self.out_of_step(s, e)
        if e.card not in s.player(e.player).hand:
            self.from_hand(s, e.player, e.card, f"{e.player} places {e.card} in Locus slot {h.slot}, but it is not in hand")

    @checks(E.CommitmentOpened, rule="CO-40.2")
    def c_opened(self, s: State, e: E.CommitmentOpened) -> None:
        if s.result is not None or s.pending_ends:
            raise bad("CO-40.2", "match-over", f"{e.player} opens a commitment after the match ended")
        c = next((c for c in s.commitments if c.commitment == e.commitment), None)
        if c is None:
            shown = e.commitment if well_formed(e.commitment) else repr(e.commitment)
            raise bad("CO-40.2", "no-such-commitment", f"{e.player} opens {shown}, which no hidden card field of this "
                                                       f"match holds (or it was opened already)")
        if c.player != e.player:
            raise bad("CO-40.2", "not-own-commitment", f"{e.player} opens {c.what}: only {c.player} can open it")
        if not opens(e.commitment, e.card, e.salt):
            raise bad("CO-40.3", "bad-opening", f"{e.player} opens {c.what} as {e.card}, but sha256 of "
                                                f"\"{e.card}:{e.salt}\" is not the commitment {e.commitment}")
        if c.possible and e.card not in c.possible:
            raise bad("CO-40.4", "impossible-identity", f"{e.player} opens {c.what} as {e.card}, but that card could "
                                                        f"only be one of {', '.join(c.possible)} when it was committed")

    @applies(E.CommitmentOpened)
    def a_opened(self, s: State, e: E.CommitmentOpened) -> State:
        i = next(i for i, c in enumerate(s.commitments) if c.commitment == e.commitment)
        return replace(s, commitments=s.commitments[:i] + s.commitments[i + 1:])

    @checks(E.MainPhaseEnded, rule="CO-10.1")
    def c_main_end(self, s: State, e: E.MainPhaseEnded) -> None:
        self.open_timing(s, e, "CO-10.1")

    @checks(E.Conceded, rule="CO-10.4")
    def c_concede(self, s: State, e: E.Conceded) -> None:
        return None


    # -- apply (the kit's RulesBase.apply dispatches to the @applies handlers) ----------------------
    @applies(E.DeckShuffled)
    def a_shuffle(self, s: State, e: E.DeckShuffled) -> State:
        s = self.with_seat(s, replace(deck.shuffled(s.player(e.player)), shuffled=True))  # CO-36: the order is forgotten
        return push(s, drop=1) if type(head(s)) is Shuffle else s

    @applies(E.FirstPlayerDecided)
    def a_first(self, s: State, e: E.FirstPlayerDecided) -> State:
        second = s.other(e.player)
        s = replace(s, first=e.player)
        return push(s, Draw(e.player, 7, "opening"), Draw(second, 7, "opening"), Mulligan(e.player), Mulligan(second), StartTurn(), drop=1)

    @applies(E.CardDrawn)
    def a_draw(self, s: State, e: E.CardDrawn) -> State:
        if unknowns.unknown(e.card):  # CO-39
            p, card = deck.take_unknown_top(s.player(e.player), self.as_listed(s))
        else:
            p, card = deck.take(s.player(e.player), e.card, self.as_listed(s)), e.card  # type: ignore[arg-type]
        s = self.with_seat(s, replace(p, hand=p.hand + (card,)))
        if e.card is not None and looks_like(e.card):
            s = self.committed(s, e.player, e.card, f"{e.player}'s draw on turn {s.turn}", card)
        h = s.todo[0] if s.todo else None
        if h.__class__ is not Draw or h.player != e.player:  # a draw no rule owed (applied as stated): nothing else changes
            return s
        if h.count > 1:
            return push(s, replace(h, count=h.count - 1), drop=1)
        s = push(s, drop=1)
        if h.reason == "draw-step":
            s = replace(s, phase="main", declaration_open=False)
        return s

    @applies(E.CardsReturned)
    def a_returned(self, s: State, e: E.CardsReturned) -> State:
        p = s.player(e.player)
        hand, unseen, cards = p.hand, p.unseen, list(e.cards)
        if HIDDEN in hand or any(unknowns.unknown(c) for c in cards):  # CO-39
            named = [c for c in cards if not unknowns.unknown(c)]
            for c in named:
                hand, unseen = unknowns.take_named(hand, unseen, c)
            for i, c in enumerate(cards):
                if unknowns.unknown(c):
                    hand, unseen, cards[i] = unknowns.take_unknown(hand, unseen)
        elif contains_multiset(hand, cards):
            hand = remove_many(hand, cards)  # type: ignore[arg-type]
        else:  # cards not in hand (applied unchecked, as stated): those in hand leave it
            hand = remove_many(hand, [c for c in cards if c in hand and hand.count(c) >= cards.count(c)])  # type: ignore[arg-type]
        bottom = p.deck_bottom + tuple(cards)  # type: ignore[arg-type]
        if not self.as_listed(s):  # CO-35: known as a set, order unknown
            bottom = tuple(sorted(bottom))
        s = with_player(s, e.player, hand=hand, unseen=unseen, deck_bottom=bottom)
        for c, known in zip(e.cards, cards):
            if c is not None and looks_like(c):
                s = self.committed(s, e.player, c, f"a card {e.player} returned in the opening exchange", known)  # type: ignore[arg-type]
        h = s.todo[0] if s.todo else None
        if h.__class__ is not Mulligan or h.player != e.player:  # no exchange owed (applied unchecked): no draws
            return s
        if e.cards:
            return push(s, Draw(e.player, len(e.cards), "exchange"), drop=1)
        return push(s, drop=1)

    @applies(E.TurnStarted)
    def a_turn_started(self, s: State, e: E.TurnStarted) -> State:
        p = s.player(e.player)
        field = tuple(replace(f, on=True, attacked=False) for f in p.field)
        s = with_player(s, e.player, field=field, locus_used=0, gem_set=False, locus_set=False, colossus_used=())
        opp = s.opponent(e.player)
        if any(f.attacked for f in opp.field):
            s = with_player(s, opp.id, field=tuple(replace(f, attacked=False) for f in opp.field))
        s = replace(s, turn=e.turn, turn_player=e.player)
        if e.turn == 1 and e.player == s.first:
            return replace(push(s, drop=1), phase="main", declaration_open=False)
        return replace(push(s, Draw(e.player, 1, "draw-step"), drop=1), phase="start", declaration_open=True)

    @applies(E.CompleteDeclared)
    def a_declared(self, s: State, e: E.CompleteDeclared) -> State:
        cond = declaration_condition(s.player(e.player), e.slots) if s.player(e.player).unseen else None
        if cond is not None:  # CO-39.4: open until a stated LocusRevealed names the cards
            s = replace(s, conditions=s.conditions + (cond,))
        return replace(push(s, RevealLocus(e.player, tuple(e.slots))), declaration_open=False)

    @applies(E.LocusRevealed)
    def a_locus_revealed(self, s: State, e: E.LocusRevealed) -> State:
        pool = pool_of(s)
        p = s.player(e.player)
        if p.unseen:  # CO-39.4: a stated reveal names the unknown cards (the seat saw them)
            cond = declaration_condition(p, e.slots)
            s = self.name_slots(s, e.player, dict(zip(e.slots, e.cards)))
            if cond is not None and not any(unknowns.unknown(c) for c in e.cards):
                s = replace(s, conditions=tuple(c for c in s.conditions if c != cond))
        s = push(s, drop=1)
        if all(c is not None and c != HIDDEN and pool[c].is_gem for c in e.cards):
            return replace(s, pending_ends=s.pending_ends + (Result("win", e.player, "gem-complete"),))
        p = s.player(e.player)
        locus = tuple(replace(sl, face_up=True, known=True) if sl.id in e.slots else sl for sl in p.locus)
        s = with_player(s, e.player, locus=locus)
        chooser = e.player if s.options.declaration_discard_chooser == "declarer" else s.other(e.player)
        return push(s, DiscardDeclared(chooser, e.player, tuple(e.slots)))

    @applies(E.DeclarationDiscarded)
    def a_decl_discard(self, s: State, e: E.DeclarationDiscarded) -> State:
        h = s.todo[0]
        p = s.player(h.owner)
        gone = [sl.card for sl in p.locus if sl.id in e.slots]
        locus = tuple(replace(sl, face_up=False) if sl.id in h.slots else sl for sl in p.locus if sl.id not in e.slots)
        s = with_player(s, h.owner, locus=locus, discard=p.discard + tuple(c for c in gone if c is not None and c != HIDDEN),
                        locus_used=min(p.locus_used, len(locus)))
        return push(s, drop=1)

    @applies(E.CardSet)
    def a_set(self, s: State, e: E.CardSet) -> State:
        p = s.player(e.player)
        hand, unseen, card = self.off_hand(p, e.card)
        if e.zone == "gem":
            return with_player(s, e.player, hand=hand, unseen=unseen, set_gems=p.set_gems + (card,), gem_set=True)
        slot = LocusSlot(p.next_slot, card)
        s = with_player(s, e.player, hand=hand, unseen=unseen, locus=p.locus + (slot,), next_slot=p.next_slot + 1, locus_set=True)
        if e.card is not None and looks_like(e.card):
            s = self.committed(s, e.player, e.card, f"{e.player}'s Locus card in slot {slot.id}", card)
        return s

    def committed(self, s: State, player: str, commitment: str, what: str, card: str) -> State:
        """CO-40: ``s`` remembering a commitment a hidden field held, with what it can open to."""
        possible = (card,) if card != HIDDEN else tuple(sorted(set(s.player(player).unseen)))
        return replace(s, commitments=s.commitments + (Committed(player, commitment, what, possible),))

    def off_hand(self, p: Player, card: str | None) -> tuple[tuple[str, ...], tuple[str, ...], str]:
        """``p``'s hand without ``card``, the new ``unseen`` and the card's identity (CO-39)."""
        if unknowns.unknown(card):  # any card of the hand: a hand of known cards becomes unknown
            return unknowns.take_unknown(p.hand, p.unseen)
        if card in p.hand:
            return remove_one(p.hand, card), p.unseen, card  # type: ignore[arg-type]
        return (*unknowns.take_named(p.hand, p.unseen, card), card)  # type: ignore[arg-type]

    def _add_to_chain(self, s: State, item: ChainItem) -> State:
        s = replace(s, chain=s.chain + (item,))
        h = head(s)
        if type(h) is Window:
            return push(s, Window(s.other(item.player), 0), drop=1)
        return push(s, Window(s.turn_player, 0), Resolve())

    @applies(E.FollowerPlayed)
    def a_follower(self, s: State, e: E.FollowerPlayed) -> State:
        p = s.player(e.player)
        c = pool_of(s)[e.card]
        hand, unseen, _ = self.off_hand(p, e.card)
        if HIDDEN in p.captured:
            s = self.pay_conditions(s, p, c)
        s = with_player(s, e.player, hand=hand, unseen=unseen, locus_used=p.locus_used + self.locus_cost(s, p, c))
        return self._add_to_chain(s, ChainItem(e.player, "follower", e.card, tuple(e.targets)))

    @applies(E.ActionPlayed)
    def a_action(self, s: State, e: E.ActionPlayed) -> State:
        p = s.player(e.player)
        c = pool_of(s)[e.card]
        hand, unseen, _ = self.off_hand(p, e.card)
        if HIDDEN in p.captured:
            s = self.pay_conditions(s, p, c)
        s = with_player(s, e.player, hand=hand, unseen=unseen, locus_used=p.locus_used + self.locus_cost(s, p, c))
        return self._add_to_chain(s, ChainItem(e.player, "action", e.card, tuple(e.targets)))

    @applies(E.FollowerAbilityActivated)
    def a_ability(self, s: State, e: E.FollowerAbilityActivated) -> State:
        p, _, f = find_follower(s, e.follower)  # type: ignore[misc]
        ab = pool_of(s)[f.card].abilities[e.ability]
        if ab.cost.off:
            s = with_follower(s, e.follower, on=False)
        if ab.cost.locus:
            s = with_player(s, e.player, locus_used=s.player(e.player).locus_used + ab.cost.locus)
        return self._add_to_chain(s, ChainItem(e.player, "ability", f.card, tuple(e.targets), e.follower, e.ability))

    @applies(E.ColossusAbilityActivated)
    def a_colossus(self, s: State, e: E.ColossusAbilityActivated) -> State:
        p = s.player(e.player)
        ab = pool_of(s)[p.colossus].colossus_abilities[e.ability]
        s = with_player(s, e.player, colossus_used=p.colossus_used + (e.ability,), locus_used=p.locus_used + ab.cost.locus)
        s, tasks = self.resolve_effects(s, e.player, None, ab.effects, list(e.targets), p.colossus)
        return push(s, *tasks)

    @applies(E.EffectDeclared)
    def a_effect(self, s: State, e: E.EffectDeclared) -> State:
        if type(head(s)) is Declare:
            s = push(s, drop=1)
        for h in e.destroy:
            s = without_follower(s, h, "discard")
        for h, n in e.damage.items():
            f = find_follower(s, h)
            if f is not None:
                s = with_follower(s, h, damage=f[2].damage + n)
        for h in e.switch_on:
            s = with_follower(s, h, on=True)
        for h in e.switch_off:
            s = with_follower(s, h, on=False)
        for h in e.return_to_hand:
            s = without_follower(s, h, "hand")
        tasks = []
        if e.draw:
            tasks.append(Draw(e.player, e.draw))
        if e.opponent_draw:
            tasks.append(Draw(s.other(e.player), e.opponent_draw))
        return push(s, *tasks)

    @applies(E.AttackDeclared)
    def a_attack(self, s: State, e: E.AttackDeclared) -> State:
        s = with_follower(s, e.attacker, attacked=True, **({"on": False} if s.options.attack_taps_attacker else {}))
        card = find_follower(s, e.attacker)[2].card  # type: ignore[index]
        s = replace(s, attack=Attack(e.player, e.attacker, e.target, e.slot, e.follower, card=card))
        return push(s, Block(s.other(e.player)), Window(e.player, 0), Resolve(), Battle())

    @applies(E.BlockDeclared)
    def a_block(self, s: State, e: E.BlockDeclared) -> State:
        s = with_follower(s, e.blocker, on=False)
        s = replace(s, attack=replace(s.attack, blocker=e.blocker, defended=True))
        return push(s, drop=1)

    @applies(E.BlockDeclined)
    def a_block_declined(self, s: State, e: E.BlockDeclined) -> State:
        return push(s, drop=1)

    @applies(E.XPlayPassed)
    def a_pass(self, s: State, e: E.XPlayPassed) -> State:
        h = s.todo[0] if s.todo else None
        if h.__class__ is not Window:  # a pass with no window open (applied unchecked): nothing happens
            return s
        if h.passes + 1 < 2:
            return push(s, Window(s.other(e.player), h.passes + 1), drop=1)
        s = push(s, drop=1)
        if type(head(s)) is Resolve and not s.chain:
            s = push(s, drop=1)
        return s

    @applies(E.XPlayResolved)
    def a_resolved(self, s: State, e: E.XPlayResolved) -> State:
        item = s.chain[-1]
        s = replace(s, chain=s.chain[:-1])
        rest = s.todo[1:]
        pool = pool_of(s)
        c = pool[item.card]
        tasks: list[Any] = []
        if item.kind == "follower":
            handle = f"F{s.next_handle}"
            p = s.player(item.player)
            s = with_player(s, item.player, field=p.field + (Follower(handle, item.card, True, 0, s.turn),))
            s = replace(s, next_handle=s.next_handle + 1)
            if c.modelled:
                effects = [fx for ab in c.abilities if ab.timing == "cip" for fx in ab.effects]
                s, tasks = self.resolve_effects(s, item.player, handle, effects, list(item.targets), item.card)
            elif any(ab.timing == "cip" for ab in c.abilities):
                tasks = [Declare(item.player, item.card)]
        elif item.kind == "action":
            if c.modelled:
                s, tasks = self.resolve_effects(s, item.player, None, c.effects, list(item.targets), item.card)
            else:
                tasks = [Declare(item.player, item.card)]
            p = s.player(item.player)
            s = with_player(s, item.player, discard=p.discard + (item.card,))
        elif c.modelled:
            ab = c.abilities[item.ability]
            s, tasks = self.resolve_effects(s, item.player, item.source, ab.effects, list(item.targets), item.card)
        else:
            tasks = [Declare(item.player, item.card)]
        return replace(s, todo=tuple(tasks) + ((Resolve(),) if s.chain else ()) + rest)

    def resolve_effects(self, s: State, controller: str, source: str | None, effects: list[Any], targets: list[str],
                        source_card: str = "") -> tuple[State, list[Any]]:
        """Apply a list of effects in order; return the new state and the steps they owe (draws,
        reveals and mills: the log names the cards)."""
        tasks: list[Any] = []
        chosen = iter(targets)
        for fx in effects:
            t = type(fx)
            if t is DrawFx:
                who = controller if fx.who == "self" else s.other(controller)
                if fx.count > 0:
                    tasks.append(Draw(who, fx.count))
                continue
            if t is RecoverLocus:
                p = s.player(controller)
                s = with_player(s, controller, locus_used=max(0, p.locus_used - fx.amount))
                continue
            if t is RevealTopFx or t is MillFx:
                who = controller if fx.who == "self" else s.other(controller)
                n = min(fx.count, s.player(who).deck_count)  # never more than the deck holds
                if n > 0:
                    tasks.append(RevealTop(who, n, source_card) if t is RevealTopFx else Mill(who, n, source_card))
                continue
            if t is FlipLocus:
                target = next(chosen, None)
                s = self.flip(s, controller, fx, target)
                if fx.to == "up" and target is not None:  # CO-8.7: what it shows is named (derived)
                    owner = s.player(controller) if fx.target == "chosen-own-locus" else s.opponent(controller)
                    if any(f"L{sl.id}" == target for sl in owner.locus):
                        tasks.append(Flipped(owner.id, int(target[1:])))
                continue
            if t is LookHandFx:  # CO-41
                tasks.append(Look(controller, s.other(controller), "hand", 0, source_card))
                continue
            if t is LookTopFx:  # CO-42: as many as the deck holds
                who = controller if fx.who == "self" else s.other(controller)
                n = min(fx.count, s.player(who).deck_count)
                if n > 0:
                    tasks += [Look(controller, who, "deck-top", n, source_card), Reorder(controller, who, n, source_card)]
                continue
            if t is ToLocusFx:  # CO-43
                n = min(fx.count, s.player(controller).deck_count)
                if n > 0:
                    tasks.append(ToLocus(controller, n, source_card))
                continue
            if t in (CostChange, Aura):
                continue
            kind = fx.target
            if kind in CHOSEN_TARGETS:
                handles = [next(chosen, None)]
            elif kind == "self":
                handles = [source]
            elif kind == "attacker":
                handles = [s.attack.attacker if s.attack else None]
            elif kind == "opponent-attacker":
                handles = [s.attack.attacker if s.attack and s.attack.player != controller else None]
            elif kind == "all-opponent-followers":
                handles = [f.handle for f in s.opponent(controller).field]
            else:
                handles = [f.handle for f in s.player(controller).field]
            for h in handles:
                found = find_follower(s, h)
                if found is None:
                    continue  # the target left the field: this part fizzles (CO-20)
                f = found[2]
                only = getattr(fx, "only", None)
                if only is not None and self.unmet(s, h, only) is not None:
                    continue  # CO-6.5: a target that no longer meets the conditions is skipped
                if t is Damage:
                    s = with_follower(s, h, damage=f.damage + fx.amount)
                elif t is Destroy:
                    s = without_follower(s, h, "discard")
                elif t is Switch:
                    s = with_follower(s, h, on=fx.to == "on")
                elif t is Boost:
                    b = f.boost
                    s = with_follower(s, h, boost=(b[0] + fx.attack, b[1] + fx.defence, b[2] + fx.crush, b[3] + fx.capture))
                elif t is ReturnToHand:
                    s = without_follower(s, h, "hand")
                elif t is SetStats:
                    s = with_follower(s, h, **self.set_stats(s, f, fx))
                elif t is ToDeck:
                    s = self.to_deck(s, h, fx.where, source_card)
        return s, tasks

    def set_stats(self, s: State, f: Follower, fx: SetStats) -> dict[str, Any]:
        """CO-37: the new values; with ``latest-wins`` the boosts received so far are dropped."""
        latest = s.options.stat_setting == "latest-wins"
        b = list(f.boost)
        out: dict[str, Any] = {}
        if fx.attack is not None:
            out["set_attack"] = fx.attack
            b[0] = 0 if latest else b[0]
        if fx.defence is not None:
            out["set_defence"] = fx.defence
            b[1] = 0 if latest else b[1]
        out["boost"] = tuple(b)
        return out

    def to_deck(self, s: State, handle: str, where: str, source_card: str) -> State:
        """CO-36: a follower put on top of its owner's deck is known there; one put on the bottom
        goes under everything else, known too."""
        p, i, f = find_follower(s, handle)  # type: ignore[misc]
        field = p.field[:i] + p.field[i + 1:]
        if where == "top":
            why = f"put on top by {source_card} on turn {s.turn}"
            return with_player(s, p.id, field=field, deck_known=(f.card,) + p.deck_known, known_why=(why,) + p.known_why)
        return with_player(s, p.id, field=field, deck_under=p.deck_under + (f.card,))

    def flip(self, s: State, controller: str, fx: FlipLocus, target: str | None) -> State:
        """CO-8.7/CO-38: turn a Locus card face up or down; one turned down stays known to the opponent."""
        owner = s.player(controller) if fx.target == "chosen-own-locus" else s.opponent(controller)
        up = fx.to == "up"
        locus = tuple(replace(sl, face_up=up, known=sl.known or not up) if f"L{sl.id}" == target else sl for sl in owner.locus)
        return with_player(s, owner.id, locus=locus)

    @applies(E.BattleResolved)
    def a_battle(self, s: State, e: E.BattleResolved) -> State:
        s = replace(s, attack=None)
        s = push(s, drop=1)
        defender = s.other(e.player)
        if e.result == "follower-damaged":
            f = find_follower(s, e.follower)
            if f is not None:
                s = with_follower(s, e.follower, damage=f[2].damage + e.damage)
            if e.counter_damage:
                a = find_follower(s, e.attacker)
                if a is not None:
                    s = with_follower(s, e.attacker, damage=a[2].damage + e.counter_damage)
        elif e.result == "deck-hit" and e.damage > 0:
            s = push(s, Reveal(defender, e.damage), Capture(e.player, defender, e.capture))
        elif e.result == "locus-hit":
            if unknowns.unknown(e.card):  # CO-39.5: the record's next event says whether it was a Gem
                return push(s, UnknownLocusHit(defender, e.player, e.slot))  # type: ignore[arg-type]
            if s.player(defender).unseen:  # a stated battle names the unknown card hit (the seat saw it)
                s = self.name_slots(s, defender, {e.slot: e.card})
            s = self.locus_hit(s, e.player, defender, e.slot, e.card, e.card is not None and pool_of(s)[e.card].is_gem)  # type: ignore[arg-type]
        return s

    def locus_hit(self, s: State, attacker: str, defender: str, slot: int, card: str | None, gem: bool) -> State:
        """CO-7.8/CO-17: a Gem hit in the Locus is captured (its owner draws 1 and puts a card back
        there); another card is turned face up."""
        p = s.player(defender)
        idx = next(i for i, sl in enumerate(p.locus) if sl.id == slot)
        if gem:
            a = s.player(attacker)
            s = with_player(s, defender, locus=p.locus[:idx] + p.locus[idx + 1:])
            s = with_player(s, attacker, captured=a.captured + (card,))  # type: ignore[operator]
            return push(s, Draw(defender, 1, "locus-hit"), ReplaceLocus(defender, slot, idx))
        return with_player(s, defender, locus=p.locus[:idx] + (replace(p.locus[idx], face_up=True),) + p.locus[idx + 1:])

    def after_unknown_hit(self, s: State, e: Any) -> tuple[State, bool]:
        """CO-39.5: the position once the record's next event ``e`` has said whether the unknown
        Locus card hit was a Gem (the owner's CardDrawn: it was), and which it said."""
        h = s.todo[0]
        gem = type(e) is E.CardDrawn and e.player == h.player
        s = replace(s, conditions=s.conditions + (hit_condition(h, gem),))
        return self.locus_hit(push(s, drop=1), h.attacker, h.player, h.slot, HIDDEN, gem), gem

    def check_after_unknown_hit(self, s: State, e: Any) -> Ruling:
        h = s.todo[0]
        after, gem = self.after_unknown_hit(s, e)
        ruling = _kit_check(self, after, e)
        if ruling.verdict == "illegal":
            return ruling
        owner = s.player(h.player)
        pool = pool_of(s)
        if not unknowns.could_be(owner, pool, _is_gem if gem else _not_gem):
            what = "a Gem" if gem else "not a Gem"
            return bad("CO-39.5", "impossible-identity",
                       f"{type(e).__name__} after {h.attacker}'s attack on {h.player}'s unknown Locus slot {h.slot} "
                       f"means that card was {what}, but {h.player}'s unknown cards can only be {', '.join(unknowns.possible(owner)) or 'nothing'}").ruling()
        cond = hit_condition(h, gem)
        return Ruling("undetermined", "CO-39.5", NS + "locus-hit-unknown", ruling.message, ruling.engine_checked, condition=cond)

    @applies(E.CardsRevealed)
    def a_revealed(self, s: State, e: E.CardsRevealed) -> State:
        s = with_player(s, e.player, revealed=tuple(e.cards))
        return push(s, drop=1)

    @applies(E.GemsCaptured)
    def a_captured(self, s: State, e: E.GemsCaptured) -> State:
        h = s.todo[0]
        owner = s.player(h.owner)
        revealed = owner.revealed
        left = deck.take_top(owner, revealed, self.as_listed(s))
        rest = remove_many(revealed, e.cards)
        s = self.with_seat(s, replace(left, revealed=(), discard=owner.discard + rest))
        a = s.player(e.player)
        s = with_player(s, e.player, captured=a.captured + tuple(e.cards))
        return push(s, drop=1)

    def with_seat(self, s: State, p: Player) -> State:
        a, b = s.players
        return replace(s, players=(p, b) if a.id == p.id else (a, p))

    @applies(E.TopCardRevealed)
    def a_top_revealed(self, s: State, e: E.TopCardRevealed) -> State:
        h = s.todo[0] if s.todo else None
        if h.__class__ is not RevealTop:  # no reveal owed (applied unchecked): the card is known on top all the same
            h = RevealTop(e.player, 1, "a reveal no effect owed", len(s.player(e.player).deck_known))
            s = push(s, h)
        p = s.player(e.player)
        if h.done >= len(p.deck_known):
            below = deck.take(replace(p, deck_known=(), known_why=()), e.card, self.as_listed(s))  # type: ignore[arg-type]
            why = f"revealed by {h.source} on turn {s.turn}"
            s = self.with_seat(s, replace(below, deck_known=p.deck_known + (e.card,), known_why=p.known_why + (why,)))
        if h.done + 1 < h.count:
            return push(s, replace(h, done=h.done + 1), drop=1)
        return push(s, drop=1)

    @applies(E.CardMilled)
    def a_milled(self, s: State, e: E.CardMilled) -> State:
        h = s.todo[0] if s.todo else None
        p = deck.take(s.player(e.player), e.card, self.as_listed(s))  # type: ignore[arg-type]
        s = self.with_seat(s, replace(p, discard=p.discard + (e.card,)))
        if h.__class__ is not Mill:  # no mill owed (applied unchecked): the card is milled all the same
            return s
        if h.count > 1:
            return push(s, replace(h, count=h.count - 1), drop=1)
        return push(s, drop=1)

    @applies(E.LocusReplaced)
    def a_replaced(self, s: State, e: E.LocusReplaced) -> State:
        h = s.todo[0]
        p = s.player(e.player)
        idx = min(h.index, len(p.locus))
        hand, unseen, card = self.off_hand(p, e.card)
        locus = p.locus[:idx] + (LocusSlot(h.slot, card),) + p.locus[idx:]
        s = with_player(s, e.player, hand=hand, unseen=unseen, locus=locus)
        if e.card is not None and looks_like(e.card):
            s = self.committed(s, e.player, e.card, f"{e.player}'s Locus card put back in slot {h.slot}", card)
        return push(s, drop=1)

    @applies(E.FollowerDestroyed)
    def a_destroyed(self, s: State, e: E.FollowerDestroyed) -> State:
        return without_follower(s, e.follower, "discard")

    @applies(E.MainPhaseEnded)
    def a_main_end(self, s: State, e: E.MainPhaseEnded) -> State:
        return push(s, Window(e.player, 0), Resolve(), EndTurn())

    @applies(E.TurnEnded)
    def a_turn_ended(self, s: State, e: E.TurnEnded) -> State:
        for p in s.players:
            if any(f.damage or f.boost != (0, 0, 0, 0) or f.set_attack is not None or f.set_defence is not None for f in p.field):
                s = with_player(s, p.id, field=tuple(replace(f, damage=0, boost=(0, 0, 0, 0), set_attack=None, set_defence=None)
                                                     for f in p.field))
        return replace(push(s, StartTurn(), drop=1), phase="end")

    @applies(E.Conceded)
    def a_concede(self, s: State, e: E.Conceded) -> State:
        return replace(s, pending_ends=s.pending_ends + (Result("win", s.other(e.player), "concession"),))

    @applies(E.GameEnded)
    def a_game_ended(self, s: State, e: E.GameEnded) -> State:
        return replace(s, result=Result(e.result, e.winner, e.reason), phase="over", todo=(), pending_ends=())


    # -- derive ------------------------------------------------------------------------------------
    def derive(self, s: State) -> Any:
        if s.result is not None:
            return None
        forced = self.state_based(s)
        if forced is not None or not s.todo:
            return forced
        h = s.todo[0]
        step = self._derives.get(type(h))  # the @derives steps (RulesBase.derive_task, inlined)
        return None if step is None else step(self, s, h)

    def state_based(self, s: State) -> Any:
        """What the position forces before any task of the queue: the match's end (a pending end,
        a deck out) or a follower destroyed (CO-9); None when nothing is."""
        if s.pending_ends:
            r = s.pending_ends[0]
            return E.GameEnded(result=r.result, winner=r.winner, reason=r.reason)
        a, b = s.players
        if not a.deck_count or not b.deck_count:
            if a.deck_count == 0 and b.deck_count == 0:
                if s.options.simultaneous_deckout == "draw" or s.turn_player is None:
                    return E.GameEnded(result="draw", winner=None, reason="deck-out")
                return E.GameEnded(result="win", winner=s.other(s.turn_player), reason="deck-out")
            loser = a if a.deck_count == 0 else b
            return E.GameEnded(result="win", winner=s.other(loser.id), reason="deck-out")
        weakening = self._weakening.get(pool_of(s))
        if weakening is None:
            weakening = self.weakening(s)
        for p in s.players:
            for f in p.field:
                # only damage or a lowered Defence can destroy a follower: skip the rest fast
                if (f.damage or f.boost[1] < 0 or weakening or f.set_defence is not None) and self.destroyed(s, p, f):
                    return E.FollowerDestroyed(player=p.id, follower=f.handle, card=f.card)
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

    @derives(Battle)
    def d_battle(self, s: State, h: Battle) -> E.BattleResolved | None:
        b = self.battle(s)
        if b.card == HIDDEN and b.result == "locus-hit":  # CO-39.5: the record states what the card was
            return None
        return b

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

    # -- a seat's record: consequences that turn on a card the record leaves unknown (CO-39.4, CO-39.5) --
    def blind(self, s: State) -> Any:
        """The consequence the engine cannot derive here because it shows a card the record leaves
        unknown (``"?"`` in it), or None: a battle that hits an unknown Locus card, a Complete
        Declaration of unknown Locus cards.  The record states it with the cards named (the seat
        saw them), or goes on without it (the event with ``"?"``: the next event decides)."""
        todo = s.todo
        if not todo or s.result is not None or s.pending_ends:
            return None
        t = todo[0].__class__
        if t in _BLIND and self.state_based(s) is not None:
            return None  # a follower destroyed (or the end) comes first: the engine derives it
        if t is Battle:
            b = self.battle(s)
            return b if b.card == HIDDEN and b.result == "locus-hit" else None
        if t is RevealLocus:
            r = self.reveal_locus(s, todo[0])
            return r if HIDDEN in r.cards else None
        if t is Flipped:
            f = self.flipped(s, todo[0])
            return f if f.card == HIDDEN else None
        return None

    def follows_stated(self, s: State) -> bool:
        todo = s.todo
        if not todo or todo[0].__class__ not in _BLIND:
            return False
        return self.blind(s) is not None

    def unstated(self, s: State, blind: Any) -> State:
        """The position after the blind consequence with its unknown cards left ``"?"`` (the record
        went on without stating it) and what that forces."""
        s = _kit_apply(self, s, blind)
        for _ in range(8):  # a locus hit or a failed declaration waits for a decision at once
            d = self.derive(s)
            if d is None:
                break
            s = self.apply(s, d)
        return s

    @checks(E.BattleResolved, E.LocusRevealed, E.LocusFlipped, rule="CO-39.2")
    def c_stated(self, s: State, e: Any) -> None:
        """A consequence stated where the engine waits for it (:meth:`blind`): the same as the
        engine's but for the unknown cards, which it names as cards they can be."""
        blind = self.blind(s)
        if blind is None or type(blind) is not type(e):
            raise bad("CO-3.1", "unexpected-event", f"{type(e).__name__} cannot be proposed")
        field = "cards" if type(e) is E.LocusRevealed else "card"
        stated = getattr(e, field)
        named = [stated] if field == "card" else list(stated)
        expect = [blind.card] if field == "card" else list(blind.cards)
        merged = [c if was == HIDDEN else was for was, c in zip(expect, named)] if len(named) == len(expect) else expect
        derived = replace(blind, **{field: merged[0] if field == "card" else merged})
        if bare(e) != bare(derived):  # everything but the unknown cards is the engine's to derive (LOG-2)
            game = "the engine derives"
            raise Illegal("LOG-2", "core/derived-mismatch", f"the log states {type(e).__name__} {msgspec.json.encode(bare(e)).decode()} "
                                                           f"but {game} {msgspec.json.encode(blind).decode()} (\"?\": a card this record leaves unknown)")
        unknown_as = [HIDDEN if unknowns.unknown(c) else c for c in named]
        owner = s.player(s.other(blind.player) if type(e) is E.BattleResolved else blind.player)
        unseen = owner.unseen
        pool = pool_of(s)
        for was, c in zip(expect, unknown_as):
            if was != HIDDEN or c == HIDDEN:
                continue
            what = f"{type(e).__name__} shows {c} in {owner.id}'s Locus"
            if c not in unseen:
                raise bad("CO-39.2", "impossible-identity", f"{what}, but {unknowns.where(s, owner, c)}")
            problem = unknowns.breaks_construction(s, owner, c, pool)
            if problem is not None:
                raise bad(*problem)
            unseen = unknowns.remove_one(unseen, c)
        slots = blind.slots if field == "cards" else [blind.slot]
        for slot, c in zip(slots, unknown_as):
            cond = face_up_condition(s, owner.id, slot)
            if cond is not None and c != HIDDEN and pool[c].is_gem:  # CO-39.5: settled against the record
                raise Illegal("CO-39.5", NS + "impossible-identity", f"{type(e).__name__} shows {c}, a Gem, in {owner.id}'s "
                                                                     f"Locus slot {slot}", settles=cond)

    def name_slots(self, s: State, player: str, named: dict[int, Any]) -> State:
        """``s`` with the unknown cards of ``player``'s Locus slots named (taken from ``unseen``)."""
        p = s.player(player)
        unseen = p.unseen
        locus = []
        for sl in p.locus:
            c = named.get(sl.id)
            if sl.card == HIDDEN and c is not None and not unknowns.unknown(c):
                if c in unseen:
                    unseen = unknowns.remove_one(unseen, c)
                sl = replace(sl, card=c)
                cond = face_up_condition(s, player, sl.id) if s.conditions else None
                if cond is not None:  # CO-39.5: the card hit was not a Gem after all: settled
                    s = replace(s, conditions=tuple(x for x in s.conditions if x != cond))
            locus.append(sl)
        return with_player(s, player, locus=tuple(locus), unseen=unseen)

    @derives(EndTurn)
    def d_end_turn(self, s: State, h: EndTurn) -> E.TurnEnded:
        return E.TurnEnded(turn=s.turn, player=s.turn_player)


    def battle(self, s: State) -> E.BattleResolved:
        at = s.attack
        assert at is not None
        found = find_follower(s, at.attacker)
        base = dict(player=at.player, attacker=at.attacker)
        if found is not None:
            a, _, crush, capture = self.stats(s, found[0], found[2])
        elif s.options.attack_needs_attacker or at.card is None:
            # CO-15: an attacker that left the field before the battle deals nothing
            if at.defended:
                return E.BattleResolved(result="defended", follower=at.blocker, **base)
            return E.BattleResolved(result="fizzled", **base)
        else:
            # CO-15 off: the attack still lands, with the attacker's printed stats
            printed = pool_of(s)[at.card]
            a, crush, capture = printed.attack, printed.crush, printed.capture
        if at.defended:
            blk = find_follower(s, at.blocker)
            if blk is None:  # CO-7.9: defended even if the blocker has left the field
                return E.BattleResolved(result="defended", follower=at.blocker, **base)
            counter = self.stats(s, blk[0], blk[2])[0] if (s.options.mutual_battle_damage and found) else 0
            return E.BattleResolved(result="follower-damaged", follower=at.blocker, damage=max(0, a), counter_damage=max(0, counter), **base)
        opp = s.opponent(at.player)
        if at.target == "deck":
            return E.BattleResolved(result="deck-hit", damage=max(0, min(crush, opp.deck_count)), capture=max(0, capture), **base)
        if at.target == "locus":
            sl = next((x for x in opp.locus if x.id == at.slot), None)
            if sl is None:
                return E.BattleResolved(result="fizzled", slot=at.slot, **base)
            return E.BattleResolved(result="locus-hit", slot=sl.id, card=sl.card, **base)
        if find_follower(s, at.follower) is None:
            return E.BattleResolved(result="fizzled", follower=at.follower, **base)
        return E.BattleResolved(result="follower-damaged", follower=at.follower, damage=max(0, a), **base)

    # -- legal events ------------------------------------------------------------------------------
    def candidates(self, s: State) -> list[Any]:
        """A superset of every legal event (except declared-effect variants); ``check`` filters."""
        if s.result is not None:
            return []
        blind = self.blind(s)
        if blind is not None:  # CO-39.4/CO-39.5: what may come after the consequence the record leaves unstated
            return self.candidates(self.unstated(s, blind))
        out: list[Any] = []
        h = head(s)
        t = type(h)
        pool = pool_of(s)
        if t is Shuffle:
            out.append(E.DeckShuffled(player=h.player))
        elif t is ChooseFirst:
            out += [E.FirstPlayerDecided(player=p.id) for p in s.players]
        elif t is Draw:
            options = deck.next_options(s.player(h.player), self.as_listed(s))
            out += [E.CardDrawn(player=h.player, card=c) for c in options]
            if s.declaration_open and h.reason == "draw-step":
                out += [E.CompleteDeclared(player=s.turn_player, slots=c) for c in declarations(s.player(s.turn_player).locus)]
        elif t is Mulligan:
            p = s.player(h.player)
            limit = s.options.mulligan_first if h.player == s.first else s.options.mulligan_second
            seen: set[tuple[str, ...]] = set()
            for n in range(0, min(limit, len(p.hand)) + 1):
                for combo in permutations(p.hand, n):
                    if combo not in seen:
                        seen.add(combo)
                        out.append(E.CardsReturned(player=h.player, cards=list(combo)))
        elif t is Block:
            out.append(E.BlockDeclined(player=h.player))
            out += [E.BlockDeclared(player=h.player, blocker=f.handle) for f in s.player(h.player).field]
        elif t is Window:
            out.append(E.XPlayPassed(player=h.priority))
            out += self.play_candidates(s, h.priority, pool)
        elif t is Reveal:
            combos = deck.top_options(s.player(h.player), h.count, self.as_listed(s))  # each distinct multiset once
            out += [E.CardsRevealed(player=h.player, cards=list(c)) for c in combos]
        elif t is RevealTop:
            p = s.player(h.player)
            if h.done < len(p.deck_known):
                options = [p.deck_known[h.done]]
            else:
                options = deck.next_options(replace(p, deck_known=(), known_why=()), self.as_listed(s))
            out += [E.TopCardRevealed(player=h.player, card=c) for c in options]
        elif t is Mill:
            out += [E.CardMilled(player=h.player, card=c) for c in deck.next_options(s.player(h.player), self.as_listed(s))]
        elif t is Capture:
            gems = sorted(c for c in s.player(h.owner).revealed if pool[c].is_gem)
            for n in range(0, min(h.limit, len(gems)) + 1):
                out += [E.GemsCaptured(player=h.player, cards=list(c)) for c in sorted(set(combinations(gems, n)))]
        elif t is ReplaceLocus:
            out += [E.LocusReplaced(player=h.player, card=c) for c in sorted(set(s.player(h.player).hand))]
        elif t is DiscardDeclared:
            out += [E.DeclarationDiscarded(player=h.chooser, slots=list(c)) for c in combinations(h.slots, 2)]
        elif t is Declare:
            out.append(E.EffectDeclared(player=h.player, card=h.card))
        elif t is Look:
            owner = s.player(h.owner)
            if h.zone == "hand":
                out.append(CardsLooked(player=h.player, owner=h.owner, zone="hand", cards=sorted(owner.hand), source=h.source or None))
            else:
                out += [CardsLooked(player=h.player, owner=h.owner, zone="deck-top", cards=list(c), source=h.source or None)
                        for c in self.top_sequences(owner, h.count, self.as_listed(s))]
        elif t is Reorder:
            peek = s.player(h.owner).deck_peek[: h.count]
            out += [CardsReordered(player=h.player, owner=h.owner, zone="deck-top", cards=list(c), source=h.source or None)
                    for c in sorted(set(permutations(peek)))]
        elif t is ToLocus:
            out += [CardsMoved(owner=h.player, from_zone="deck", to_zone="locus", cards=list(c), seen_by=[h.player],
                               player=h.player, source=h.source or None)
                    for c in self.top_sequences(s.player(h.player), h.count, self.as_listed(s))]
        elif h is None and s.phase == "main":
            out += self.main_candidates(s, pool)
        out += [E.Conceded(player=p.id) for p in s.players]
        return out

    def top_sequences(self, p: Player, k: int, as_listed: bool) -> list[tuple[str, ...]]:
        """Every sequence (top first) the top ``k`` cards of ``p``'s deck can be (``k`` is at most
        ``MAX_LOOK``: a handful of distinct cards a step)."""
        if k <= 0:
            return [()]
        out = []
        for c in deck.next_options(p, as_listed):
            if c == HIDDEN:
                continue
            out += [(c, *rest) for rest in self.top_sequences(deck.take(p, c, as_listed), k - 1, as_listed)]
        return out

    def main_candidates(self, s: State, pool: Pool) -> list[Any]:
        """What the turn player could do at open timing of the main phase (before filtering)."""
        out: list[Any] = []
        me = s.player(s.turn_player)
        hand = sorted(set(me.hand) - {HIDDEN})  # an unknown card (CO-39) is named when played
        out += [E.CardSet(player=me.id, card=c, zone="gem") for c in hand]
        out += [E.CardSet(player=me.id, card=c, zone="locus") for c in hand]
        for c in hand:
            card = pool[c]
            if card.is_follower:
                effects = [fx for ab in card.abilities if ab.timing == "cip" for fx in ab.effects] if card.modelled else []
                out += [E.FollowerPlayed(player=me.id, card=c, targets=tg) for tg in self.target_combos(s, me.id, effects) or [[]]]
        out += self.play_candidates(s, me.id, pool)
        col = pool[me.colossus]
        for i, ab in enumerate(col.colossus_abilities):
            out += [E.ColossusAbilityActivated(player=me.id, ability=i, targets=tg) for tg in self.target_combos(s, me.id, ab.effects)]
        opp = s.opponent(me.id)
        off = [g.handle for g in opp.field if not g.on]  # only a follower in OFF can be attacked (CO-7.4)
        for f in me.field:
            if not_ready(s, f) is not None:  # check rejects its every attack (CO-7.3)
                continue
            out.append(E.AttackDeclared(player=me.id, attacker=f.handle, target="deck"))
            out += [E.AttackDeclared(player=me.id, attacker=f.handle, target="locus", slot=sl.id) for sl in opp.locus]
            out += [E.AttackDeclared(player=me.id, attacker=f.handle, target="follower", follower=g) for g in off]
        for c in sorted(set([f.card for f in me.field] + [me.colossus])):
            if not pool[c].modelled and (c == me.colossus or any(ab.timing == "continuous" for ab in pool[c].abilities)):
                out.append(E.EffectDeclared(player=me.id, card=c))
        out.append(E.MainPhaseEnded(player=me.id))
        return out

    def play_candidates(self, s: State, pid: str, pool: Pool) -> list[Any]:
        """Actions from hand and follower abilities ``pid`` could play now (before filtering)."""
        out: list[Any] = []
        me = s.player(pid)
        for c in sorted(set(me.hand) - {HIDDEN}):
            card = pool[c]
            if card.is_action:
                effects = card.effects if card.modelled else []
                out += [E.ActionPlayed(player=pid, card=c, targets=tg) for tg in self.target_combos(s, pid, effects)]
        for f in me.field:
            card = pool[f.card]
            for i, ab in enumerate(card.abilities):
                if ab.timing == "activated" and not (ab.cost.off and cannot_go_off(s, f) is not None):
                    out += [E.FollowerAbilityActivated(player=pid, follower=f.handle, ability=i, targets=tg)
                            for tg in self.target_combos(s, pid, ab.effects if card.modelled else [])]
        return out

    def to_act(self, s: State) -> list[str]:
        if s.result is not None:
            return []
        h = head(s)
        if type(h) in _BLIND and self.blind(s) is not None:
            return self.to_act(self.unstated(s, self.blind(s)))
        if h is None:
            return [s.turn_player] if s.phase == "main" and s.turn_player else []
        t = type(h)
        if t is ChooseFirst:
            return [p.id for p in s.players]
        for attr in ("player", "priority", "chooser"):
            v = getattr(h, attr, None)
            if v is not None:
                return [v]
        return []


#: the kit's compiled check and its apply dispatch; Rules.check/apply add one step before them:
#: a position waiting for the record to say what an unknown Locus card hit was (CO-39.5)
_kit_check = Rules.check
_kit_apply = Rules.apply


def _check(self: Rules, s: State, e: Any) -> Ruling:
    todo = s.todo
    if todo and todo[0].__class__ in _WAITING:
        t = todo[0].__class__
        if t is UnknownLocusHit:
            return self.check_after_unknown_hit(s, e)
        if e.__class__ is not _BLIND[t]:
            blind = self.blind(s)
            if blind is not None:  # the record went on without stating it
                return _check(self, self.unstated(s, blind), e)
    return _kit_check(self, s, e)


def _apply(self: Rules, s: State, e: Any) -> State:
    todo = s.todo
    if todo and todo[0].__class__ in _WAITING:
        t = todo[0].__class__
        if t is not UnknownLocusHit and e.__class__ is not _BLIND[t]:
            blind = self.blind(s)
            if blind is not None:
                s = self.unstated(s, blind)
                todo = s.todo
                t = todo[0].__class__ if todo else None
        if t is UnknownLocusHit:
            s = self.after_unknown_hit(s, e)[0]
    return _kit_apply(self, s, e)


#: the steps whose consequence may show a card the record leaves unknown (Rules.blind), and that
#: consequence's event type
_BLIND = {Battle: E.BattleResolved, RevealLocus: E.LocusRevealed, Flipped: E.LocusFlipped}
#: the steps where check and apply may first have to follow what the record leaves unstated
_WAITING = frozenset({*_BLIND, UnknownLocusHit})
_check.__doc__, _apply.__doc__ = _kit_check.__doc__, _kit_apply.__doc__
Rules.check = _check  # type: ignore[method-assign]
Rules.apply = _apply  # type: ignore[method-assign]


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


def declarations(locus: Iterable[LocusSlot]) -> list[list[int]]:
    """The slots of one Complete Declaration per distinct selection of 6 face-down Locus cards.

    Face-down slots holding the same card, equally known or unknown to the opponent, are
    interchangeable: declaring either leads to the same position up to slot numbers.  So each
    distinct selection (by card and ``known``) is listed once, naming the lowest-numbered slots
    that hold it; ``check`` accepts any other 6 face-down slots just the same.  Listing every 6 of
    the slots instead gives C(30, 6) = 593,775 declarations for a Locus of 30 cards."""
    groups: dict[tuple[str | None, bool], list[int]] = {}  # in Locus order (no set iteration)
    for sl in locus:
        if not sl.face_up:
            groups.setdefault((sl.card, sl.known), []).append(sl.id)
    ids = [sorted(g) for g in groups.values()]
    out = []
    for pick in multiset_combinations([i for i, g in enumerate(ids) for _ in g], 6):
        counts = Counter(pick)
        out.append(sorted(slot for i, n in counts.items() for slot in ids[i][:n]))
    return out


def multiset_combinations(cards: Iterable[T], k: int) -> Iterable[tuple[T, ...]]:
    """Every distinct sorted ``k``-card selection from the multiset ``cards``, in sorted order.

    ``sorted(set(combinations(cards, k)))`` gives the same, but walks every combination of the
    copies: for a deck of 600 cards and k = 3 that is 36 million tuples (a hang), against a few
    hundred distinct selections here."""
    counts = sorted(Counter(cards).items())

    def pick(i: int, left: int) -> Iterable[tuple[T, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(counts):
            return
        card, have = counts[i]
        for n in range(min(have, left), -1, -1):
            for rest in pick(i + 1, left - n):
                yield (card,) * n + rest

    return pick(0, k)
