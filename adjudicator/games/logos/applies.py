"""The LOGOS apply handlers: one per event type, each a pure function of the position and a
checked event, and the defined effect of an irregular event a judge let stand (LG-40)."""

from __future__ import annotations

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.kit import applies
from adjudicator.core.kernel.rulings import Undefined

from . import events as E
from . import unknowns as U
from .decktop import next_top
from .effects import fire
from .pending import settle as settle_pending
from .phases import Phases
from .state import Direction, Player, Result, State
from .working import freeze, thaw
from .zones import empty_slot, remove_first, sorted_add, with_player


class Applies(Phases):
    """The apply handlers of the LOGOS rules."""

    @applies(E.CardDrawn)
    def a_drawn(self, s: State, e: E.CardDrawn) -> State:
        a, b = s.players
        p = a if a.id == e.player else b
        try:
            i = p.slots.index(None)
        except ValueError:  # no empty slot: a draw a judge let stand (LG-40)
            return self.irregular_draw(s, p, e)
        if p.unknown or e.card is None or e.card == HIDDEN:
            card = HIDDEN if e.card is None or e.card == HIDDEN else e.card
            q = U.to_list_mode(p) if card == HIDDEN else p
            if card != HIDDEN:
                q = U.take(s, q, card)
            deck = q.deck[1:] if q.deck else q.deck
            return self.after_refill(U.with_player_struct(s, replace(q, slots=p.slots[:i] + (card,) + p.slots[i + 1:], deck=deck,
                                                                     top=next_top(p, card))))
        deck = p.deck
        try:
            j = deck.index(e.card)
        except ValueError:  # a card the deck does not hold: a draw a judge let stand (LG-40)
            return self.irregular_draw(s, p, e)
        slots = p.slots
        q = replace(p, slots=slots[:i] + (e.card,) + slots[i + 1:], deck=deck[:j] + deck[j + 1:])
        if p.top:  # LG-44: the first card known on top is drawn
            q = replace(q, top=next_top(p, e.card))
        s.players = (q, b) if p is a else (a, q)
        return self.after_refill(s)

    @applies(E.DeckRebuilt)
    def a_rebuilt(self, s: State, e: E.DeckRebuilt) -> State:
        p = s.player(e.player)
        if p.unknown:
            deck, unseen = U.to_deck(p, p.discard, U.tracked(s, p))
            return with_player(s, e.player, deck=deck, unseen=unseen, discard=())
        return with_player(s, e.player, deck=sorted_add(p.deck, p.discard), discard=())

    @applies(E.Defenseless)
    def a_defenseless(self, s: State, e: E.Defenseless) -> State:
        p = s.player(e.player)
        cards = tuple(c for c in p.slots if c is not None)
        s = with_player(s, e.player, slots=(None,) * len(p.slots), discard=p.discard + cards, defenseless=True)
        s.due = s.due[1:]
        return self.after_pick(s)

    @applies(E.BackupAssigned)
    def a_assigned(self, s: State, e: E.BackupAssigned) -> State:
        p = s.player(e.player)
        if p.backup is not None:  # LG-40: a second Backup card a judge let stand replaces the first
            p = replace(p, discard=p.discard + (p.backup,), backup=None)
            s = U.with_player_struct(s, p) if s.unknowns else with_player(s, p.id, discard=p.discard, backup=None)
        if e.card is None or e.card == HIDDEN or e.card not in p.slots:
            self.in_slots(p, e.card, "put in the Backup Slot")
            q, slots = U.take_slot(s, p, e.card)
            return U.with_player_struct(s, replace(q, slots=slots, backup=HIDDEN if e.card is None else e.card))
        return with_player(s, e.player, slots=empty_slot(p.slots, e.card), backup=e.card)

    @applies(E.CardPicked)
    def a_picked(self, s: State, e: E.CardPicked) -> State:
        if s.pending and e.card is not None and e.card != HIDDEN:
            s = settle_pending(s, f"battle:{e.player}:{s.round}")
        if s.phase != "pick":  # LG-40: a late play a judge let stand
            return self.late_play(s, e.player, e.card)
        a, b = s.players
        p = a if a.id == e.player else b
        card = e.card
        if p.battle is not None:  # LG-40: a second battle card a judge let stand replaces the first
            return self.after_pick(U.with_player_struct(s, self.second_battle_card(s, p, card)))
        if card is None or card == HIDDEN or card not in p.slots:
            self.in_slots(p, card, "play")
            q, slots = U.take_slot(s, p, card)
            return self.after_pick(U.with_player_struct(s, replace(q, slots=slots, battle=HIDDEN if card is None else card, public=True)))
        # LG-6: an open pick is named openly, so everybody sees it at once (a seat's record names it)
        slots = p.slots
        i = slots.index(card)
        q = replace(p, slots=slots[:i] + (None,) + slots[i + 1:], battle=card, public=True)
        s.players = (q, b) if p is a else (a, q)
        return self.after_pick(s)

    # -- LG-40: an irregular event a judge let stand (verify follows it: apply is total) ----------
    def irregular_draw(self, s: State, p: Player, e: E.CardDrawn) -> State:
        """A draw with no empty slot to fill goes to the discard pile; a card the deck does not hold
        is taken from nowhere (the deck keeps its cards)."""
        card = HIDDEN if e.card is None else e.card
        deck = remove_first(p.deck, card) if card in p.deck else p.deck
        if p.top:
            p = replace(p, top=next_top(p, card))
            s = with_player(s, p.id, top=p.top)
        if None in p.slots:
            i = p.slots.index(None)
            return self.after_refill(with_player(s, p.id, deck=deck, slots=p.slots[:i] + (card,) + p.slots[i + 1:]))
        return with_player(s, p.id, deck=deck, discard=p.discard + (card,))

    def late_play(self, s: State, pid: str, card: str | None) -> State:
        """A battle card played when no round takes it (its round resolved, or not begun): it
        leaves the card slots (when it is there, or an unknown card is) for the discard pile; the
        round goes on as it was."""
        p = s.player(pid)
        shown = HIDDEN if card is None else card
        if shown not in p.slots and HIDDEN not in p.slots:  # a card from nowhere: no effect to define
            raise Undefined(f"{pid} has no {shown} in its card slots to play")
        q, slots = U.take_slot(s, p, shown)
        p = replace(q, slots=slots)
        p = replace(p, discard=p.discard + (shown,))
        return U.with_player_struct(s, p) if shown == HIDDEN or s.unknowns else with_player(s, pid, slots=p.slots, discard=p.discard)

    @staticmethod
    def in_slots(p: Player, card: str | None, what: str) -> None:
        """A named card that is neither in ``p``'s card slots nor can be one of its unknown slot
        cards comes from nowhere: an event a judge let stand with no effect to define (LG-40)."""
        if card is not None and card != HIDDEN and card not in p.slots and HIDDEN not in p.slots:
            raise Undefined(f"{p.id} has no {card} in its card slots to {what}")

    def second_battle_card(self, s: State, p: Player, card: str | None) -> Player:
        """A player who already sent a battle card this round sends another (a judge let it stand):
        it leaves the slots and replaces the first, which goes to the discard pile with its
        temporary effects (LG-40)."""
        self.in_slots(p, card, "play")
        q, slots = U.take_slot(s, p, card)
        shown = HIDDEN if card is None else card
        return replace(q, slots=slots, discard=q.discard + (q.battle,), battle=shown, mods=(), public=True)

    def late_call(self, s: State, p: Player) -> State:
        """A Backup call outside the window: the Backup card replaces the battle card when there
        are both (no effect fires: the window is where they queue); otherwise nothing changes."""
        if p.backup is None or p.battle is None:
            return s
        return with_player(s, p.id, discard=p.discard + (p.battle,), battle=p.backup, backup=None, mods=(), public=True)

    @applies(E.CardCommitted)
    def a_committed(self, s: State, e: E.CardCommitted) -> State:
        return self.after_pick(with_player(s, e.player, commitment=e.commitment))

    @applies(E.PickRevealed)
    def a_revealed(self, s: State, e: E.PickRevealed) -> State:
        if s.pending:  # P's battle card of this round named: it was playable (LG-37)
            s = settle_pending(s, f"battle:{e.player}:{s.round}")
        if s.phase != "pick" and s.phase != "reveal":  # LG-40: a play after its round resolved, let stand
            return self.late_play(s, e.player, e.card)
        p = s.player(e.player)
        if p.battle is not None:  # LG-40: a second battle card a judge let stand replaces the first
            return self.after_reveal(U.with_player_struct(s, self.second_battle_card(s, p, e.card)))
        if e.card not in p.slots:
            self.in_slots(p, e.card, "play")
            q, slots = U.take_slot(s, p, e.card)
            return self.after_reveal(U.with_player_struct(s, replace(q, slots=slots, battle=e.card, public=True)))
        s = with_player(s, e.player, slots=empty_slot(p.slots, e.card), battle=e.card, public=True)
        return self.after_reveal(s)

    @applies(E.DirectionDetermined)
    def a_direction(self, s: State, e: E.DirectionDetermined) -> State:
        return self.directed(s, Direction(e.basis, e.attacker, e.defender), e.stage)

    def directed(self, s: State, d: Direction, stage: str) -> State:
        """The direction ``d`` found at ``stage``: the effects queued, the Backup window or the
        strike, or the end of the battle (derive applies it so on the fold's working position)."""
        if stage == "before-effects":
            if d.basis == "deadlock" and s.options.deadlock_before_effects:
                s.direction = d
                return self.start_push(s, True)
            if d.basis == "deadlock":
                pids = [p.id for p in s.players]
            elif s.options.effect_order == "defender-first":
                pids = [d.defender, d.attacker]  # type: ignore[list-item]
            else:
                pids = [d.attacker, d.defender]  # type: ignore[list-item]
            items = self.queue_effects(s, pids)
            if items:
                s.direction, s.effects, s.step = d, items, "effects"
                return s
            # LG-7.5: no effect fired, so nothing can have changed the direction
        s.direction = d
        if d.basis == "deadlock":
            return self.start_push(s, True)
        return self.open_window(s)

    @applies(E.EffectResolved)
    def a_effect(self, s: State, e: E.EffectResolved) -> State:
        return fire(self, s, s.effects[0])[1]

    #: (frozen position, the event of the effect at the head of its queue, the position after it)
    #: of the last :meth:`fire_next` on a frozen position: a seat's record asks it of one position
    #: up to three times (whether it shows unseen cards, what follows, derive)
    _fired: tuple[State, E.EffectResolved, State] | None = None

    def fire_next(self, s: State) -> tuple[E.EffectResolved, State]:
        """The effect at the head of the queue fires: its event and the position after it (in
        place on a working position, a new one for a frozen one)."""
        if s.__class__ is not State:
            return fire(self, s, s.effects[0])
        m = self._fired
        if m is not None and m[0] is s:
            return m[1], m[2]
        w = thaw(s)
        ev = fire(self, w, w.effects[0])[0]
        new = freeze(w)
        self._fired = (s, ev, new)
        return ev, new

    @applies(E.BackupCalled)
    def a_called(self, s: State, e: E.BackupCalled) -> State:
        p = s.player(e.player)
        if s.step != "backup" or p.battle is None or p.backup is None:  # LG-40: a call a judge let stand
            return self.late_call(s, p)
        if p.backup == HIDDEN and e.card is not None and e.card != HIDDEN:  # LG-39: named as it turns face up
            s = settle_pending(U.with_player_struct(s, replace(U.take(s, p, e.card), backup=e.card)), f"backup:{e.player}")
            p = s.player(e.player)
        assert p.battle is not None
        s = with_player(s, e.player, discard=p.discard + (p.battle,), battle=p.backup, backup=None, mods=(), public=True)
        if p.backup == HIDDEN:  # LG-38: the log states what the called card does
            s.priority, s.passed, s.effects, s.step, s.blind_step = None, (), (), "blind", "called"
            return s
        items = self.queue_effects(s, [e.player])
        s.priority, s.passed, s.effects, s.step = None, (), items, "effects" if items else "after-effects"
        return s

    @applies(E.BackupPassed)
    def a_passed(self, s: State, e: E.BackupPassed) -> State:
        if s.step != "backup":  # LG-40: a pass outside the window changes nothing
            return s
        s.passed += (e.player,)
        return self.open_window(s)

    @applies(E.StrikeResolved)
    def a_strike(self, s: State, e: E.StrikeResolved) -> State:
        if s.step != "strike" or s.striker is None or s.direction is None:
            return self.unowed_strike(s, e)
        ev, new = self.strike(s)
        if e.hp != ev.hp and e.target == ev.target and len(new.players) == 2:
            # LG-40: a wrongly stated strike a judge lets stand: the stated hit points are what
            # both players then played on
            return with_player(new, e.target, hp=e.hp)
        return new

    @staticmethod
    def unowed_strike(s: State, e: E.StrikeResolved) -> State:
        """LG-40: a strike the rules do not derive here (a counter-strike stated where the round
        ends), stated and let stand by a judge: its target is left with the hit points stated
        (what both players played on); the battle goes on as it was (the round still ends)."""
        if e.target not in (p.id for p in s.players):
            raise Undefined(f"{e.target} is not a player of this match")
        return with_player(s, e.target, hp=e.hp)

    @applies(E.RoundEnded)
    def a_round_ended(self, s: State, e: E.RoundEnded) -> State:
        a, b = s.players
        both = a.defenseless and b.defenseless
        shared, ca, cb = s.shared_combo, a.combo, b.combo
        for push in s.pushes:
            if push.counter == "shared":
                for colour in push.colours:
                    shared = (colour, shared[0], shared[1])
            else:
                c = a.combo if a.id == push.counter else b.combo
                for colour in push.colours:
                    c = (colour, c[0], c[1])
                if push.counter == a.id:
                    ca = c
                elif push.counter == b.id:
                    cb = c
        s.players = (_round_over(a, ca), _round_over(b, cb))
        s.round, s.phase, s.step, s.direction, s.effects = s.round + 1, "refill", "", None, ()
        s.priority, s.passed, s.striker, s.strikes, s.pushes = None, (), None, 0, ()
        s.shared_combo, s.stall = shared, s.stall + 1 if both else 0
        return self.after_refill(s)

    @applies(E.Resigned)
    def a_resigned(self, s: State, e: E.Resigned) -> State:
        if s.options.resign_result == "draw":
            end = Result("draw", None, "resignation")
        else:
            end = Result("win", s.other(e.player), "resignation")
        s.pending_end = end
        return s

    @applies(E.GameEnded)
    def a_game_ended(self, s: State, e: E.GameEnded) -> State:
        s.result, s.phase, s.step, s.pending_end = Result(e.result, e.winner, e.reason), "over", "", None
        return s


def _round_over(p: Player, combo: tuple[str | None, str | None, str | None]) -> Player:
    """``p`` once the round is over: the battle card in the discard pile, this round's marks gone,
    the combo counter ``combo``."""
    discard = p.discard + (p.battle,) if p.battle is not None else p.discard
    return replace(p, discard=discard, commitment=None, battle=None, public=False, defenseless=False,
                   mods=(), double_combo=False, shield=False, combo=combo)
