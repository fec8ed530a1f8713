"""The turn's structure: what the position owes next, the set-up (shuffle, first player, opening hand
and exchange), the start, draw and end of a turn, the Complete Declaration, setting cards,
commitments and the end of the match (CO-2, CO-3, CO-4, CO-10, CO-40).

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.kit import Owed, applies, checks, head
from adjudicator.core.kernel.commitments import Committed, looks_like, opens, well_formed
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.rulings import Illegal, Undetermined
from adjudicator.core.kernel.notation import kind_words

from . import deck, unknowns
from . import events as E
from .state import (
    Block, Capture, ChooseFirst, Declare, DiscardDeclared, Draw, EndTurn, LocusSlot, Look, Mill, Mulligan, Player,
    MoveCards, ReplaceLocus, Reorder, Resolve, Result, Reveal, RevealLocus, RevealTop, Shuffle, StartTurn, State, ToLocus,
    Window,
)
from .positions import NS, bad, pool_of, remove_many, contains_multiset, with_player, push, put, card_words
from .unknowns import remove_one
from .conditions import declaration_condition


class Turns:
    """The turn's structure."""

    step_rule = "CO-3.1"

    #: the rule behind each owed step and why it is owed; None: an ordinary step of the turn's
    #: structure, cited by CO-3.1 (whose decision it is), an obligation a rule created by its own
    _OWED: dict[type, tuple[str | None, Any]] = {
        Shuffle: (None, lambda h: f"deck shuffled by {h.player}"),
        ChooseFirst: (None, lambda h: "first player decided"),
        Mulligan: (None, lambda h: f"cards returned by {h.player} (the opening exchange, before the first turn)"),
        Block: (None, lambda h: f"block declared or block declined by {h.player} (an attack waits for the defender)"),
        Window: (None, lambda h: f"an X-play by {h.priority} (Action.Snap, follower ability or x-play passed) "
                                 f"(the X-play window is open and {h.priority} has priority)"),
        Reveal: ("CO-7.7", lambda h: f"cards revealed from {h.player}'s deck ({h.count} cards: the attack hit the deck)"),
        Capture: ("CO-7.7", lambda h: f"gems captured by {h.player} (up to {h.limit} of the revealed Gem cards)"),
        ReplaceLocus: ("CO-7.8", lambda h: f"locus replaced by {h.player} in slot {h.slot} (a Gem was captured from "
                                           f"that Locus slot: its owner puts a card from hand face down there)"),
        DiscardDeclared: ("CO-3.3", lambda h: f"declaration discarded by {h.chooser} (the Complete Declaration failed: "
                                              f"2 of its 6 revealed Locus cards are discarded)"),
        RevealTop: ("CO-8.6", lambda h: f"top card revealed by {h.player} ({h.count - h.done} more to reveal: "
                                        f"{h.source} reveals the top of {h.player}'s deck)"),
        Mill: ("CO-8.8", lambda h: f"card milled by {h.player} ({h.count} more: {h.source} puts the top of "
                                   f"{h.player}'s deck into the discard pile)"),
        Look: (None, lambda h: (f"cards looked by {h.player} at {h.owner}'s hand (CO-41: {h.source} lets "
                                f"{h.player} look at it)") if h.zone == "hand" else
               (f"cards looked by {h.player} at {h.count} of {h.owner}'s face-down Locus cards (CO-47: {h.source} lets "
                f"{h.player} look at them)") if h.zone == "locus" else
               (f"cards looked by {h.player} at the top {h.count} cards of {h.owner}'s deck (CO-42: {h.source} lets "
                f"{h.player} look at them)")),
        Reorder: ("CO-42", lambda h: f"cards reordered by {h.player} (the {h.count} cards looked at go back on top of "
                                     f"{h.owner}'s deck in the order {h.player} chooses)"),
        MoveCards: ("CO-46", lambda h: f"cards moved by {h.player} from {h.from_zone} to {h.to_zone} (up to {h.count} "
                                       f"cards: {h.source} moves them)"),
        ToLocus: ("CO-43", lambda h: f"cards moved by {h.player} from deck to locus ({h.count} cards: {h.source} puts "
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
            return Owed(f"card drawn by {h.player} ({h.count} to draw)", rule, why, h.player)
        if t is Declare:
            card = pool_of(s)[h.card]
            cip = card.is_follower
            return Owed(f"effect declared by {h.player} for {card.name}", "CO-6.4" if cip else "CO-8.5",
                        "a CIP ability is mandatory and resolves as the follower enters" if cip else
                        "the effect resolves now and the engine does not model its text: it is declared", h.player)
        found = self._OWED.get(t)
        if found is None:
            return Owed(f"a derived event ({kind_words(t)})")
        rule, text = found
        if t is Look:
            rule = {"hand": "CO-41", "locus": "CO-47"}.get(h.zone, "CO-42")
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
                raise bad("CO-3.5", "not-in-this-phase", f"{kind_words(e)} cannot be played in the {s.phase} phase (now: {self.expected(s)})")
            raise self.out_of_step(s, e)
        if e.player != s.turn_player:
            raise bad(rule, "not-turn-player", f"{kind_words(e)} by {e.player}: only the turn player {s.turn_player} may do this at open timing")

    def in_window(self, s: State, e: Any, rule: str = "CO-3.1") -> bool:
        h = head(s)
        if type(h) is Window:
            if e.player != h.priority:
                raise bad("CO-9.3", "no-priority", f"{kind_words(e)} by {e.player}: {h.priority} has priority in this X-play window")
            return True
        self.open_timing(s, e, rule)
        return False

    def not_proposed(self, s: State, e: Any) -> Illegal:
        return bad("CO-3.1", "unexpected-event", f"{kind_words(e)} cannot be proposed")

    def precheck(self, s: State, e: Any) -> None:
        who = getattr(e, "player", None)
        if who is not None and who != s.players[0].id and who != s.players[1].id:
            raise bad("CO-3.1", "unknown-player", f"{kind_words(e)}: {who!r} is not a player of this match")

    def lookup_failed(self, s: State, e: Any) -> Illegal | None:
        """A lookup failed: an event naming a card outside the pool (the log reader rejects those,
        a proposed event may not have been through it); anything else is a defect."""
        pool = pool_of(s)
        card = getattr(e, "card", None)
        named = ([card] if card is not None else []) + [c for c in getattr(e, "cards", ()) if c is not None]
        for c in named:
            if c not in pool:
                return bad("CO-4.4", "unknown-card", f"{kind_words(e)}: {c!r} is not a card of the {s.setup.pool!r} pool")
        return None

    @checks(E.DeckShuffled, rule="CO-2.1")
    def c_shuffle(self, s: State, e: E.DeckShuffled) -> None:
        h = head(s)
        if type(h) is not Shuffle or h.player != e.player:
            if type(h) is Shuffle:
                raise bad("CO-2.1", "shuffle-order", f"deck shuffled by {e.player}: {h.player}'s deck is shuffled first")
            raise self.out_of_step(s, e)

    @checks(E.FirstPlayerDecided, rule="CO-2.2")
    def c_first(self, s: State, e: E.FirstPlayerDecided) -> None:
        if type(head(s)) is not ChooseFirst:
            raise bad("CO-2.2", "first-player-decided", f"{e.player} named first player, but {self.expected(s)} is expected" +
                      (f" (the first player is already {s.first})" if s.first else ""))

    @checks(E.CardDrawn, rule="CO-2.5")
    def c_draw(self, s: State, e: E.CardDrawn) -> None:
        h = head(s)
        if type(h) is not Draw:
            if h is None and s.phase == "main" and e.player == s.turn_player:
                why = "the first player skips the draw step of the first turn" if (s.turn == 1 and e.player == s.first) \
                    else "the draw step of this turn is over (1 card per draw step)"
                raise bad("CO-3.4", "no-draw-owed", f"card drawn by {e.player} on turn {s.turn}: {why}")
            raise self.out_of_step(s, e)
        if h.player != e.player:
            rule = {"opening": "CO-2.3", "draw-step": "CO-3.4"}.get(h.reason, "CO-3.1")
            raise bad(rule, "wrong-drawer", f"card drawn by {e.player}, but {h.player} draws now ({h.reason})")
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
            raise bad("CO-2.4", "exchange-order", f"cards returned by {e.player}, but {h.player} decides the opening exchange now (first player first)")
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
                raise bad("CO-4.1", "not-a-gem", f"{card_words(s, e.card)} ({c.type}) is not a Gem card and cannot be set on the Colossus")
            if p.gem_set:
                raise bad("CO-4.1", "gem-already-set", f"{e.player} already set a Gem this turn")
            if c.unique and any(pool[g].name == c.name for g in p.set_gems):
                raise bad("CO-4.3", "unique-gem", f"{e.player} already has the Unique Gem {c.name} set")
        else:
            if p.locus_set:
                raise bad("CO-4.2", "locus-already-set", f"{e.player} already set a Locus card this turn")
            if s.options.max_locus is not None and len(p.locus) >= s.options.max_locus:
                raise bad("CO-34", "locus-full", f"{e.player} has {len(p.locus)} Locus cards, the ruleset's maximum")

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
            raise bad("CO-40.3", "bad-opening", f"{e.player} opens {c.what} as {card_words(s, e.card)}, but {card_words(s, e.card)} "
                                                f"with salt {e.salt!r} does not hash to the commitment {e.commitment}")
        if c.possible and e.card not in c.possible:
            raise bad("CO-40.4", "impossible-identity", f"{e.player} opens {c.what} as {card_words(s, e.card)}, but that card could "
                                                        f"only be one of {', '.join(card_words(s, x) for x in c.possible)} when it was committed")

    @applies(E.CommitmentOpened)
    def a_opened(self, s: State, e: E.CommitmentOpened) -> State:
        i = next(i for i, c in enumerate(s.commitments) if c.commitment == e.commitment)
        return put(s, commitments=s.commitments[:i] + s.commitments[i + 1:])

    @checks(E.MainPhaseEnded, rule="CO-10.1")
    def c_main_end(self, s: State, e: E.MainPhaseEnded) -> None:
        self.open_timing(s, e, "CO-10.1")

    @checks(E.Conceded, rule="CO-10.4")
    def c_concede(self, s: State, e: E.Conceded) -> None:
        return None


    @applies(E.DeckShuffled)
    def a_shuffle(self, s: State, e: E.DeckShuffled) -> State:
        s = self.with_seat(s, replace(deck.shuffled(s.player(e.player)), shuffled=True))  # CO-36: the order is forgotten
        return push(s, drop=1) if type(head(s)) is Shuffle else s

    @applies(E.FirstPlayerDecided)
    def a_first(self, s: State, e: E.FirstPlayerDecided) -> State:
        second = s.other(e.player)
        s = put(s, first=e.player)
        return push(s, Draw(e.player, 7, "opening"), Draw(second, 7, "opening"), Mulligan(e.player), Mulligan(second), StartTurn(), drop=1)

    @applies(E.CardDrawn)
    def a_draw(self, s: State, e: E.CardDrawn) -> State:
        if unknowns.unknown(e.card):  # CO-39
            p, card = deck.take_unknown_top(s.player(e.player), self.as_listed(s))
        else:
            p, card = deck.take(s.player(e.player), e.card, self.as_listed(s)), e.card  # type: ignore[arg-type]
        p = replace(p, hand=p.hand + (card,))
        if card == HIDDEN and p.hand_could:  # CO-39.8: an unknown card joins those the hand's unknown ones are among
            p = replace(p, hand_could=tuple(sorted(p.hand_could + (HIDDEN,))))
        a, b = s.players
        players = (p, b) if a.id == p.id else (a, p)
        if e.card is not None and looks_like(e.card):
            s = self.committed(put(s, players=players), e.player, e.card, f"{e.player}'s draw on turn {s.turn}", card)
        todo = s.todo
        h = todo[0] if todo else None
        if h.__class__ is not Draw or h.player != e.player:  # a draw no rule owed (applied as stated): nothing else changes
            return put(s, players=players)
        if h.count > 1:
            return put(s, players=players, todo=(replace(h, count=h.count - 1),) + todo[1:])
        if h.reason == "draw-step":
            return put(s, players=players, todo=todo[1:], phase="main", declaration_open=False)
        return put(s, players=players, todo=todo[1:])

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
        a, b = s.players
        p, opp = (a, b) if a.id == e.player else (b, a)
        field = tuple(f if f.on and not f.attacked else replace(f, on=True, attacked=False) for f in p.field)
        s = with_player(s, e.player, field=field, locus_used=0, gem_set=False, locus_set=False, colossus_used=())
        if any(f.attacked for f in opp.field):
            s = with_player(s, opp.id, field=tuple(replace(f, attacked=False) for f in opp.field))
        if e.turn == 1 and e.player == s.first:
            return put(s, turn=e.turn, turn_player=e.player, todo=s.todo[1:], phase="main", declaration_open=False)
        return put(s, turn=e.turn, turn_player=e.player, todo=(Draw(e.player, 1, "draw-step"),) + s.todo[1:],
                       phase="start", declaration_open=True)

    @applies(E.CompleteDeclared)
    def a_declared(self, s: State, e: E.CompleteDeclared) -> State:
        cond = declaration_condition(s.player(e.player), e.slots) if s.player(e.player).unseen else None
        if cond is not None:  # CO-39.4: open until a stated LocusRevealed names the cards
            s = put(s, conditions=s.conditions + (cond,))
        return put(push(s, RevealLocus(e.player, tuple(e.slots))), declaration_open=False)

    @applies(E.LocusRevealed)
    def a_locus_revealed(self, s: State, e: E.LocusRevealed) -> State:
        pool = pool_of(s)
        p = s.player(e.player)
        if p.unseen:  # CO-39.4: a stated reveal names the unknown cards (the seat saw them)
            cond = declaration_condition(p, e.slots)
            s = self.name_slots(s, e.player, dict(zip(e.slots, e.cards)))
            if cond is not None and not any(unknowns.unknown(c) for c in e.cards):
                s = put(s, conditions=tuple(c for c in s.conditions if c != cond))
        s = push(s, drop=1)
        if all(c is not None and c != HIDDEN and pool[c].is_gem for c in e.cards):
            return put(s, pending_ends=s.pending_ends + (Result("win", e.player, "gem-complete"),))
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
        return put(s, commitments=s.commitments + (Committed(player, commitment, what, possible),))

    def off_hand(self, p: Player, card: str | None) -> tuple[tuple[str, ...], tuple[str, ...], str]:
        """``p``'s hand without ``card``, the new ``unseen`` and the card's identity (CO-39)."""
        if unknowns.unknown(card):  # any card of the hand: a hand of known cards becomes unknown
            return unknowns.take_unknown(p.hand, p.unseen)
        if card in p.hand:
            return remove_one(p.hand, card), p.unseen, card  # type: ignore[arg-type]
        return (*unknowns.take_named(p.hand, p.unseen, card), card)  # type: ignore[arg-type]

    def with_seat(self, s: State, p: Player) -> State:
        a, b = s.players
        return put(s, players=(p, b) if a.id == p.id else (a, p))

    @applies(E.MainPhaseEnded)
    def a_main_end(self, s: State, e: E.MainPhaseEnded) -> State:
        return push(s, Window(e.player, 0), Resolve(), EndTurn())

    @applies(E.TurnEnded)
    def a_turn_ended(self, s: State, e: E.TurnEnded) -> State:
        for p in s.players:
            if any(f.damage or f.boost != (0, 0, 0, 0) or f.set_attack is not None or f.set_defence is not None for f in p.field):
                s = with_player(s, p.id, field=tuple(replace(f, damage=0, boost=(0, 0, 0, 0), set_attack=None, set_defence=None)
                                                     for f in p.field))
        return put(s, todo=(StartTurn(),) + s.todo[1:], phase="end")

    @applies(E.Conceded)
    def a_concede(self, s: State, e: E.Conceded) -> State:
        return put(s, pending_ends=s.pending_ends + (Result("win", s.other(e.player), "concession"),))

    @applies(E.GameEnded)
    def a_game_ended(self, s: State, e: E.GameEnded) -> State:
        return put(s, result=Result(e.result, e.winner, e.reason), phase="over", todo=(), pending_ends=())
