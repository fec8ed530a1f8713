"""LOGOS rules: pure check / apply / derive / legal events.

``check`` raises :class:`Illegal` inside helpers and returns a Ruling; it never mutates.
``apply`` builds a new immutable State; it assumes the event was checked.
``derive`` returns the next consequence the rules force: the end of the match first (a pending
resignation, hit points at 0, a stall or the round limit), then the derived steps of the round
(a deck rebuilt, a defenseless player, the direction, each effect, each strike, the end of the
round with its combo pushes).  ``legal_events`` enumerates candidates and keeps those ``check`` accepts,
so the two never disagree.  No clock, no randomness, no iteration over sets: every order here is
a list order (players in seat order, cards in id order).
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Any

from msgspec.structs import replace

from adjudicator.core.events import HIDDEN, PRIVATE_EVENTS
from adjudicator.core.kit import Owed, RulesBase, applies, checks
from adjudicator.core.rulings import Illegal, Undefined

from . import events as E
from . import unknowns as U
from .cards import BACKUP_SPEED, CARD_EFFECTS, POOLS, Card, Pool, load_pool
from .state import Direction, EffectItem, Player, Push, Result, State

NS = "logos/"

#: Berserk works on a player below this many hit points (seed 001, Berserk)
CRITICAL_HP = 25_000

_HEX64 = re.compile(r"[0-9a-f]{64}")
_BEATS = frozenset({("matter", "energy"), ("energy", "information"), ("information", "matter")})
_EMPTY3: tuple[None, None, None] = (None, None, None)


def bad(rule: str, code: str, message: str) -> Illegal:
    return Illegal(rule, NS + code, message)


# -- small pure helpers -------------------------------------------------------------------------

def commitment_of(card: str, salt: str) -> str:
    """The commitment that ``PickRevealed(card, salt)`` opens: sha256 hex of ``<card>:<salt>``."""
    return hashlib.sha256(f"{card}:{salt}".encode("utf-8")).hexdigest()


def example_salt(round_no: int, player: str) -> str:
    """The salt ``legal`` uses for the commitments it lists (a real player keeps a secret one)."""
    return f"r{round_no}-{player}"


def beats(x: str, y: str) -> bool:
    """Does class ``x`` beat class ``y`` (LG-5.1)?  Same classes beat nobody."""
    if x == y:
        return False
    if x == "life":
        return True
    if y == "life":
        return False
    if y == "neutral":
        return True
    if x == "neutral":
        return False
    return (x, y) in _BEATS


def pool_of(s: State) -> Pool:
    """The match's pool (by id, pinned by hash when the set-up pins it)."""
    return POOLS.of_setup(s.setup)


@lru_cache(maxsize=8192)
def card_stats(pool: Pool, card: str, mods: tuple[str, ...]) -> tuple[str, int, int, int]:
    """Class, Attack, Defense, Speed of ``card`` of ``pool`` after the temporary effects ``mods``
    (LG-25); cached per pool object (one per content), never per pool id."""
    c = pool[card]
    k, a, d = c.klass, c.attack, c.defense
    for m in mods:
        if m == "maximize":
            a = d = max(a, d)
        elif m == "minimize":
            a = d = min(a, d)
        elif m == "swap-values":
            a, d = d, a
        elif m == "berserk":
            a, d = 2 * a, 2 * d
        elif m.startswith("color:"):
            k = m[6:]
    return k, a, d, c.speed


def matches(card: Card, counter: tuple[str | None, ...]) -> bool:
    """LG-3.3 / LG-8: every panel of the indicator is grey or equals the counter's panel."""
    for want, have in zip(card.combo, counter):
        if want != "grey" and want != have:
            return False
    return True


@lru_cache(maxsize=65536)
def playable_card(pool: Pool, card: str, counter: tuple[str | None, ...]) -> bool:
    c = pool[card]
    return not c.has_combo or matches(c, counter)


def show_panels(panels: tuple[Any, ...]) -> str:
    return "[" + ", ".join("empty" if p is None else str(p) for p in panels) + "]"


def remove_first(items: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
    i = items.index(value)
    return items[:i] + items[i + 1:]


def empty_slot(slots: tuple[str | None, ...], card: str) -> tuple[str | None, ...]:
    """``slots`` with the leftmost slot holding ``card`` emptied."""
    i = slots.index(card)
    return slots[:i] + (None,) + slots[i + 1:]


def sorted_add(items: tuple[str, ...], more: Any) -> tuple[str, ...]:
    return tuple(sorted(items + tuple(more)))


def with_player(s: State, pid: str, **changes: Any) -> State:
    a, b = s.players
    if a.id == pid:
        return replace(s, players=(replace(a, **changes), b))
    return replace(s, players=(a, replace(b, **changes)))


def picked(s: State, p: Player) -> bool:
    """Has ``p`` sent (open picks) or committed (hidden picks) a card this round?"""
    return p.battle is not None or p.commitment is not None


class Rules(RulesBase):
    """The LOGOS rules, bound to nothing but the pool and options each position names."""

    namespace = NS

    def __init__(self) -> None:
        #: (state, derived event, next state) of the last derived step computed by ``derive``,
        #: so that ``apply`` of that very event on that very state does not compute it twice
        self._memo: tuple[Any, Any, Any] | None = None
        #: (state, positions) of the last expansion of a seat's record's positions (unknowns._branches)
        self._expanded: tuple[Any, Any] | None = None
        #: (state, event, positions that allow it) of the last check in several positions
        self._fits: tuple[Any, Any, Any] | None = None

    # -- reading the position ------------------------------------------------------------------
    @staticmethod
    def pool(s: State) -> Pool:
        return pool_of(s)

    @staticmethod
    def stats(s: State, p: Player) -> tuple[str, int, int, int]:
        assert p.battle is not None
        return card_stats(pool_of(s), p.battle, p.mods)

    @staticmethod
    def counter(s: State, p: Player) -> tuple[str | None, ...]:
        return p.combo if s.options.combo_counter == "per-player" else s.shared_combo

    def playable(self, s: State, p: Player, slots: tuple[str | None, ...] | None = None) -> list[str]:
        """The distinct cards of ``p``'s slots (or of ``slots``) that could be sent now, by id."""
        name = pool_of(s)
        counter = self.counter(s, p)
        return sorted({c for c in (p.slots if slots is None else slots) if c is not None and c != HIDDEN and playable_card(name, c, counter)})

    def armed(self, s: State, p: Player) -> bool:
        """Does ``p`` hold a playable card (LG-2.4)?"""
        if p.unknown:
            return U.armed_unknown(self, s, p)
        name = pool_of(s)
        counter = self.counter(s, p)
        for c in p.slots:
            if c is not None and playable_card(name, c, counter):
                return True
        return False

    def refill_next(self, s: State) -> Player | None:
        """The first player (seat order) with an empty slot that the deck (or discard) can fill."""
        reshuffle = s.options.on_empty_deck == "reshuffle-discard"
        for p in s.players:
            if None in p.slots and (p.deck or p.deck_open or (reshuffle and p.discard)):
                return p
        return None

    def direction(self, s: State) -> Direction | None:
        """LG-5.1 / LG-5.2 / LG-15: the direction from the battle cards as they stand."""
        a, b = s.players
        if a.battle is None and b.battle is None:
            return None
        if a.battle is None:
            return Direction("defenseless", b.id, a.id)
        if b.battle is None:
            return Direction("defenseless", a.id, b.id)
        ka, _, _, sa = self.stats(s, a)
        kb, _, _, sb = self.stats(s, b)
        if ka == kb:
            if sa == sb:
                return Direction("deadlock")
            return Direction("speed", a.id, b.id) if sa > sb else Direction("speed", b.id, a.id)
        return Direction("class", a.id, b.id) if beats(ka, kb) else Direction("class", b.id, a.id)

    # -- what happens next ---------------------------------------------------------------------
    step_rule = "LG-2.1"

    def owed(self, s: State, e: Any = None) -> Owed:
        """What the position waits for: the refill of empty slots (LG-2.2) and the reveal of a
        commitment (LG-3.4) are owed by rules of their own; every other step by LG-2.1."""
        if s.result is not None:
            return Owed("nothing (the match is over)")
        if len(s.players) != 2:
            return Owed("nothing (no match of two players)")
        if s.phase == "refill":
            p = self.refill_next(s)
            if p is not None:
                return Owed(f"CardDrawn by {p.id}", "LG-2.2", f"{p.slots.count(None)} empty card slot(s) to refill: "
                            "every empty slot takes a card at the start of the round", p.id)
        if s.phase == "pick":
            who = [p.id for p in s.players if not p.defenseless and not picked(s, p)]
            verb = "CardPicked" if s.options.picks == "open" else "CardCommitted"
            return Owed(f"{verb} by {' and '.join(who)}", None, "BackupAssigned first, if wanted")
        if s.phase == "reveal":
            who = [p.id for p in s.players if p.commitment is not None and p.battle is None]
            return Owed(f"PickRevealed by {' and '.join(who)}", "LG-3.4",
                        "both picks are committed: each is revealed before the battle", who[0] if len(who) == 1 else None)
        if s.phase == "battle" and s.step == "backup":
            return Owed(f"BackupCalled or BackupPassed by {s.priority}")
        return Owed("a derived event")

    def expected(self, s: State) -> str:
        o = self.owed(s)
        return f"{o.expects} ({o.why})" if o.why else o.expects

    # -- the check ------------------------------------------------------------------------------
    # (the kit's wrapper RulesBase.check calls these, then the @checks handler)
    def not_proposed(self, s: State, e: Any) -> Illegal:
        if type(e) in PRIVATE_EVENTS:  # LG-39: LOGOS has no private look (LOG-6)
            return super().not_proposed(s, e)
        return bad("LG-2.1", "unexpected-event", f"{type(e).__name__} cannot be proposed: the engine derives it, or it starts a match")

    def precheck(self, s: State, e: Any) -> None:
        if len(s.players) != 2:
            raise bad("LG-1.1", "no-match", "the match does not have two players, so nothing can be played")
        try:
            who = e.player
        except AttributeError:  # a stated consequence (LG-38): check_stated judges it
            return
        if who != s.players[0].id and who != s.players[1].id:
            raise bad("LG-2.1", "unknown-player", f"{type(e).__name__}: {who!r} is not a player of this match")
        if s.unknowns and (s.alts or s.step == "blind" or (s.due and U.unsure(s))) and e.kind != "X":  # LG-37, LG-38: a battle card is unknown and the log states nothing of it
            U.check_branches(self, s, e)

    @checks(E.CardDrawn, rule="LG-2.2")
    def c_drawn(self, s: State, e: E.CardDrawn) -> None:
        if s.phase != "refill":
            raise bad("LG-2.2", "no-draw-owed", f"CardDrawn by {e.player}: no card slot waits for a card now (the position expects {self.expected(s)})")
        nxt = self.refill_next(s)
        if nxt is None:
            raise self.out_of_step(s, e)
        if nxt.id != e.player:
            raise bad("LG-2.2", "wrong-drawer", f"CardDrawn by {e.player}, but {nxt.id}'s empty slots are refilled first ({nxt.slots.count(None)} to fill)")
        if nxt.unknown or e.card is None or e.card == HIDDEN:
            return U.check_draw(self, s, nxt, e)
        if e.card not in nxt.deck:
            raise bad("LG-2.3", "not-in-deck", f"{e.player} draws {e.card}, but the deck holds no {e.card} ({len(nxt.deck)} cards left)")

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
        if card not in p.slots and not U.check_known_from_unknown_slot(s, p, card, f"{p.id} sends {card}"):
            held = ", ".join(c for c in p.slots if c) or "nothing"
            raise bad("LG-3.2", "not-in-slots", f"{card} is not in {p.id}'s card slots (they hold {held})")
        c = self.pool(s)[card]
        counter = self.counter(s, p)
        if not matches(c, counter):
            whose = f"{p.id}'s counter" if s.options.combo_counter == "per-player" else "the shared counter"
            raise bad("LG-3.3", "combo-mismatch", f"{card} needs the combo {show_panels(c.combo)}, but {whose} shows {show_panels(counter)} "
                      "(grey matches anything, an empty panel only grey: LG-8)")

    @checks(E.BackupAssigned, rule="LG-4.1")
    def c_assigned(self, s: State, e: E.BackupAssigned) -> None:
        p = s.player(e.player)
        if s.phase != "pick":
            raise bad("LG-4.1", "backup-timing", f"BackupAssigned by {e.player}: the Backup Slot is filled in Phase 1 only (now: {self.expected(s)})")
        if p.defenseless:
            raise bad("LG-2.4", "defenseless", f"BackupAssigned by {e.player}: {e.player} is defenseless this round and holds no card")
        if picked(s, p):
            raise bad("LG-4.1", "after-pick", f"BackupAssigned by {e.player}: {e.player} already chose the battle card of round {s.round}; the Backup Slot is filled before the pick")
        if p.backup is not None:
            raise bad("LG-4.1", "backup-occupied", f"BackupAssigned by {e.player}: the Backup Slot already holds a card (one Backup Slot, LG-18)")
        if e.card is None or e.card == HIDDEN:
            return U.check_unknown_backup(self, s, p, e)
        if e.card not in p.slots and not U.check_known_from_unknown_slot(s, p, e.card, f"BackupAssigned by {e.player}"):
            held = ", ".join(c for c in p.slots if c) or "nothing"
            raise bad("LG-4.1", "not-in-slots", f"{e.card} is not in {e.player}'s card slots (they hold {held})")
        c = self.pool(s)[e.card]
        if c.speed < BACKUP_SPEED:
            raise bad("LG-4.1", "not-eligible", f"{e.card} has Speed {c.speed}; only a card with Speed above 99 may go to the Backup Slot")
        if c.has_combo:
            raise bad("LG-4.1", "not-eligible", f"{e.card} has the combo requirement {show_panels(c.combo)}; only a card without one may go to the Backup Slot")
        rest = empty_slot(p.slots, e.card if e.card in p.slots else HIDDEN)
        if not self.playable(s, p, rest):
            if HIDDEN in rest:
                return U.armed_condition(self, s, replace(p, slots=rest), f"BackupAssigned by {e.player}")
            raise bad("LG-17", "last-playable", f"{e.card} is {e.player}'s last playable card; it must go into battle, not to the Backup Slot")

    @checks(E.CardPicked, rule="LG-3.1")
    def c_picked(self, s: State, e: E.CardPicked) -> None:
        if s.options.picks != "open":
            raise bad("LG-6", "commitment-required", f"CardPicked by {e.player}: this match keeps picks hidden (picks = \"commit-reveal\"): log CardCommitted, then PickRevealed")
        p = s.player(e.player)
        self.pick_checks(s, p, "CardPicked")
        if e.card is None or e.card == HIDDEN:
            return U.check_unknown_pick(self, s, p, e)
        self.slot_checks(s, p, e.card)

    @checks(E.CardCommitted, rule="LG-3.4")
    def c_committed(self, s: State, e: E.CardCommitted) -> None:
        if s.options.picks != "commit-reveal":
            raise bad("LG-6", "open-picks", f"CardCommitted by {e.player}: this match names picks openly (picks = \"open\"): log CardPicked")
        p = s.player(e.player)
        self.pick_checks(s, p, "CardCommitted")
        if not _HEX64.fullmatch(e.commitment):
            raise bad("LG-3.4", "bad-commitment", f"a commitment is 64 lowercase hex digits (sha256 of '<card>:<salt>'), got {e.commitment[:80]!r}")
        if HIDDEN in p.slots:
            U.armed_condition(self, s, p, f"CardCommitted by {e.player}")

    @checks(E.PickRevealed, rule="LG-3.4")
    def c_revealed(self, s: State, e: E.PickRevealed) -> None:
        if s.options.picks != "commit-reveal":
            raise bad("LG-6", "open-picks", f"PickRevealed by {e.player}: this match names picks openly (picks = \"open\"): log CardPicked")
        p = s.player(e.player)
        if p.defenseless:
            raise bad("LG-2.4", "defenseless", f"PickRevealed by {e.player}: {e.player} is defenseless this round and sends no card")
        if p.battle is not None and s.phase in ("reveal", "battle"):
            raise bad("LG-3.4", "already-revealed", f"PickRevealed by {e.player}: {e.player} already revealed {p.battle} this round")
        if s.phase == "pick":
            if p.commitment is None:
                raise bad("LG-3.4", "not-committed", f"PickRevealed by {e.player}: there is no commitment of {e.player} to open (commit first)")
            waiting = [q.id for q in s.players if not q.defenseless and not picked(s, q)]
            raise bad("LG-3.4", "reveal-before-commitments", f"PickRevealed by {e.player} before {' and '.join(waiting)} committed: no pick is revealed until both are committed")
        if s.phase != "reveal" or p.commitment is None:
            raise self.out_of_step(s, e)
        got = commitment_of(e.card, e.salt)
        if got != p.commitment:
            raise bad("LG-3.4", "commitment-mismatch", f"sha256 of '{e.card}:{e.salt[:40]}' is {got[:16]}..., but {e.player} committed to {p.commitment[:16]}...")
        self.slot_checks(s, p, e.card)

    def window_checks(self, s: State, e: Any) -> Player:
        if s.phase != "battle" or s.step != "backup":
            raise bad("LG-4.2", "no-window", f"{type(e).__name__} by {e.player}: no Backup window is open (now: {self.expected(s)})")
        if e.player != s.priority:
            raise bad("LG-4.2", "not-asked", f"{type(e).__name__} by {e.player}: {s.priority} is asked now (LG-17: the window goes round the players in turn)")
        return s.player(e.player)

    @checks(E.BackupCalled, rule="LG-4.2")
    def c_called(self, s: State, e: E.BackupCalled) -> None:
        # the window asks only players who hold a Backup card and a battle card
        p = self.window_checks(s, e)
        if e.card is None or e.card == HIDDEN:
            return
        if p.backup != HIDDEN:  # LG-39: the card turned face up is the one in the Backup Slot
            if e.card != p.backup:
                raise bad("LG-39", "wrong-backup-card", f"BackupCalled by {e.player} names {e.card}, but {e.player}'s Backup Slot holds {p.backup}")
            return
        U.check_reveal(s, p, e.card, f"BackupCalled by {e.player} names {e.card}")
        c = self.pool(s)[e.card]
        if not c.backup_eligible:  # LG-4.1, and the condition of the unknown Backup assignment settled against it
            raise Illegal("LG-4.1", NS + "not-eligible", f"BackupCalled by {e.player} names {e.card}, which could not go to the Backup "
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


    # -- transitions (used by apply) -------------------------------------------------------------
    def after_refill(self, s: State) -> State:
        """Phase 1 begins once no empty slot can be filled; players without a playable card
        are due to be declared defenseless (LG-2.4)."""
        if s.phase == "refill" and self.refill_next(s) is None:
            return replace(s, phase="pick", due=tuple(p.id for p in s.players if not self.armed(s, p)))
        return s

    def after_pick(self, s: State) -> State:
        """Phase 1 is over once every player is defenseless or has picked / committed."""
        if any(not p.defenseless and not picked(s, p) for p in s.players):
            return s
        if s.options.picks == "open":
            a, b = s.players
            s = replace(s, players=(replace(a, public=a.battle is not None), replace(b, public=b.battle is not None)))
            return self.enter_battle(s)
        if any(p.commitment is not None for p in s.players):
            return replace(s, phase="reveal")
        return self.enter_battle(s)

    def after_reveal(self, s: State) -> State:
        if any(p.commitment is not None and p.battle is None for p in s.players):
            return s
        return self.enter_battle(s)

    def enter_battle(self, s: State) -> State:
        if all(p.battle is None for p in s.players):
            return self.start_push(replace(s, phase="battle"), deadlock=False)
        if s.players[0].battle == HIDDEN or s.players[1].battle == HIDDEN:  # LG-38: the log states what follows
            return replace(s, phase="battle", step="blind", blind_step="direction")
        return replace(s, phase="battle", step="direction")

    def queue_effects(self, s: State, pids: list[str]) -> tuple[EffectItem, ...]:
        fields = ("left", "right") if s.options.field_order == "left-then-right" else ("right", "left")
        pool = self.pool(s)
        items = []
        for pid in pids:
            p = s.player(pid)
            if p.battle is None:
                continue
            card = pool[p.battle]
            for f in fields:
                if card.field(f) is not None:
                    items.append(EffectItem(pid, p.battle, f))  # type: ignore[arg-type]
        return tuple(items)

    def open_window(self, s: State) -> State:
        """After the direction following the effects: the Backup window, else the strike."""
        d = s.direction
        assert d is not None and d.attacker is not None and d.defender is not None
        order = [d.defender, d.attacker] if s.options.backup_call_order == "defender-first" else [d.attacker, d.defender]
        for pid in order:
            p = s.player(pid)
            if p.battle is not None and p.backup is not None and pid not in s.passed:
                return replace(s, step="backup", priority=pid)
        return replace(s, step="strike", priority=None, passed=(), striker=d.attacker, strikes=0)

    def start_push(self, s: State, deadlock: bool) -> State:
        """The end of the battle: the colours each counter receives (LG-6.1, LG-9)."""
        pushes: tuple[Push, ...] = ()
        if not deadlock or s.options.push_on_deadlock:
            d = s.direction
            if d is not None and d.defender is not None and d.attacker is not None:
                order = [d.defender, d.attacker]
            else:
                order = [p.id for p in s.players]
            per = []
            for pid in order:
                p = s.player(pid)
                if p.battle is None:
                    continue
                colour = self.stats(s, p)[0]
                per.append((pid, (colour, colour) if p.double_combo else (colour,)))
            if s.options.combo_counter == "per-player":
                pushes = tuple(Push(pid, cols) for pid, cols in sorted(per, key=lambda x: self.seat(s, x[0])))
            elif per:
                pushes = (Push("shared", tuple(c for _, cols in per for c in cols)),)
        return replace(s, step="push", pushes=pushes, priority=None, striker=None, effects=())

    @staticmethod
    def seat(s: State, pid: str) -> int:
        return 0 if s.players[0].id == pid else 1

    # -- effects ---------------------------------------------------------------------------------
    def fire(self, s: State, item: EffectItem) -> tuple[E.EffectResolved, State]:
        """One effect field fires: the event that reports it and the position after it.  Mimmick
        first finds the effect it copies; a shield blocks; each kind then does its own (:data:`FIRE`)."""
        pool = self.pool(s)
        owner, opp = s.player(item.player), s.opponent(item.player)
        fx = pool[item.card].field(item.field)
        assert fx is not None
        target = opp if item.field == "left" else owner
        copied: str | None = None
        base = dict(player=item.player, card=item.card, field=item.field, effect=fx.do)
        s = replace(s, effects=s.effects[1:])
        if not s.effects:
            s = replace(s, step="after-effects")
        if fx.do == "mimmick":
            src = None if opp.battle is None else pool[opp.battle].field(item.field)
            if opp.battle is None:
                return E.EffectResolved(target=target.id, result="no-target", **base), s
            if src is None or src.do == "mimmick":
                return E.EffectResolved(target=target.id, result="no-change", copied=None if src is None else src.do, **base), s
            copied = src.do
            if s.options.mimmick_target == "by-source-field":
                target = owner if item.field == "left" else opp
            fx = src
        if target.shield:
            return E.EffectResolved(target=target.id, result="blocked", copied=copied, **base), s
        if fx.do in CARD_EFFECTS and target.battle is None:
            return E.EffectResolved(target=target.id, result="no-target", copied=copied, **base), s
        s, result, value = FIRE[fx.do](self, s, target, owner, item, fx)
        return E.EffectResolved(target=target.id, result=result, copied=copied, value=value, **base), s  # type: ignore[arg-type]

    # -- strikes ---------------------------------------------------------------------------------
    def strike(self, s: State) -> tuple[E.StrikeResolved, State]:
        assert s.striker is not None and s.direction is not None
        att, de = s.player(s.striker), s.opponent(s.striker)
        atk = self.stats(s, att)[1]
        dfn = self.stats(s, de)[2] if de.battle is not None else s.options.defenseless_defense
        damage = max(0, atk - dfn)
        hp = de.hp - damage
        ev = E.StrikeResolved(striker=att.id, target=de.id, attack=atk, defense=dfn, damage=damage, hp=hp, counter=s.strikes > 0)
        s = with_player(s, de.id, hp=hp)
        strikes = s.strikes + 1
        if damage == 0 and s.direction.basis == "speed" and strikes <= s.options.max_counters:
            return ev, replace(s, striker=de.id, strikes=strikes)
        return ev, self.start_push(replace(s, strikes=strikes), deadlock=False)

    # -- apply -----------------------------------------------------------------------------------
    def apply(self, s: State, e: Any) -> State:
        memo = self._memo
        if memo is not None and memo[0] is s and memo[1] is e:
            return memo[2]
        if s.unknowns:  # a seat's record (unknowns.py): the event's condition is kept (LG-37)
            return U.keep_condition(self, s, e, self.apply_plain)
        return self._applies[type(e)](self, s, e)

    def apply_plain(self, s: State, e: Any) -> State:
        """``apply`` without keeping the event's condition (unknowns.py applies in each of the
        positions a record allows with this)."""
        memo = self._memo
        if memo is not None and memo[0] is s and memo[1] is e:
            return memo[2]
        if s.unknowns:  # a seat's record (unknowns.py)
            if e.kind == "X":
                if U.follows(self, s):
                    return U.apply_stated(self, s, e)
            elif s.blind_step or s.alts or (s.due and U.unsure(s)):
                return U.apply_branches(self, s, e)
        return self._applies[type(e)](self, s, e)

    @applies(E.CardDrawn)
    def a_drawn(self, s: State, e: E.CardDrawn) -> State:
        p = s.player(e.player)
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
            return self.after_refill(U.with_player_struct(s, replace(q, slots=p.slots[:i] + (card,) + p.slots[i + 1:], deck=deck)))
        try:
            deck = remove_first(p.deck, e.card)
        except ValueError:  # a card the deck does not hold: a draw a judge let stand (LG-40)
            return self.irregular_draw(s, p, e)
        s = with_player(s, e.player, slots=p.slots[:i] + (e.card,) + p.slots[i + 1:], deck=deck)
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
        return self.after_pick(replace(s, due=s.due[1:]))

    @applies(E.BackupAssigned)
    def a_assigned(self, s: State, e: E.BackupAssigned) -> State:
        p = s.player(e.player)
        if p.backup is not None:  # LG-40: a second Backup card a judge let stand replaces the first
            p = replace(p, discard=p.discard + (p.backup,), backup=None)
            s = U.with_player_struct(s, p) if s.unknowns else with_player(s, p.id, discard=p.discard, backup=None)
        if e.card is None or e.card == HIDDEN or e.card not in p.slots:
            q, slots = U.take_slot(s, p, e.card)
            return U.with_player_struct(s, replace(q, slots=slots, backup=HIDDEN if e.card is None else e.card))
        return with_player(s, e.player, slots=empty_slot(p.slots, e.card), backup=e.card)

    @applies(E.CardPicked)
    def a_picked(self, s: State, e: E.CardPicked) -> State:
        if s.pending and e.card is not None and e.card != HIDDEN:
            s = U.settle(s, f"battle:{e.player}:{s.round}")
        if s.phase != "pick":  # LG-40: a late play a judge let stand
            return self.late_play(s, e.player, e.card)
        p = s.player(e.player)
        if e.card is None or e.card == HIDDEN or e.card not in p.slots:
            q, slots = U.take_slot(s, p, e.card)
            return self.after_pick(U.with_player_struct(s, replace(q, slots=slots, battle=HIDDEN if e.card is None else e.card, public=True)))
        # LG-6: an open pick is named openly, so everybody sees it at once (a seat's record names it)
        s = with_player(s, e.player, slots=empty_slot(p.slots, e.card), battle=e.card, public=True)
        return self.after_pick(s)

    # -- LG-40: an irregular event a judge let stand (verify follows it: apply is total) ----------
    def irregular_draw(self, s: State, p: Player, e: E.CardDrawn) -> State:
        """A draw with no empty slot to fill goes to the discard pile; a card the deck does not hold
        is taken from nowhere (the deck keeps its cards)."""
        card = HIDDEN if e.card is None else e.card
        deck = remove_first(p.deck, card) if card in p.deck else p.deck
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
            s = U.settle(s, f"battle:{e.player}:{s.round}")
        if s.phase != "pick" and s.phase != "reveal":  # LG-40: a play after its round resolved, let stand
            return self.late_play(s, e.player, e.card)
        p = s.player(e.player)
        if e.card not in p.slots:
            q, slots = U.take_slot(s, p, e.card)
            return self.after_reveal(U.with_player_struct(s, replace(q, slots=slots, battle=e.card, public=True)))
        s = with_player(s, e.player, slots=empty_slot(p.slots, e.card), battle=e.card, public=True)
        return self.after_reveal(s)

    @applies(E.DirectionDetermined)
    def a_direction(self, s: State, e: E.DirectionDetermined) -> State:
        d = Direction(e.basis, e.attacker, e.defender)
        s = replace(s, direction=d)
        if e.stage == "before-effects":
            if d.basis == "deadlock" and s.options.deadlock_before_effects:
                return self.start_push(s, deadlock=True)
            if d.basis == "deadlock":
                pids = [p.id for p in s.players]
            elif s.options.effect_order == "defender-first":
                pids = [d.defender, d.attacker]  # type: ignore[list-item]
            else:
                pids = [d.attacker, d.defender]  # type: ignore[list-item]
            items = self.queue_effects(s, pids)
            if items:
                return replace(s, effects=items, step="effects")
            # LG-7.5: no effect fired, so nothing can have changed the direction
        if d.basis == "deadlock":
            return self.start_push(s, deadlock=True)
        return self.open_window(s)

    @applies(E.EffectResolved)
    def a_effect(self, s: State, e: E.EffectResolved) -> State:
        return self.fire(s, s.effects[0])[1]

    @applies(E.BackupCalled)
    def a_called(self, s: State, e: E.BackupCalled) -> State:
        p = s.player(e.player)
        if s.step != "backup" or p.battle is None or p.backup is None:  # LG-40: a call a judge let stand
            return self.late_call(s, p)
        if p.backup == HIDDEN and e.card is not None and e.card != HIDDEN:  # LG-39: named as it turns face up
            s = U.settle(U.with_player_struct(s, replace(U.take(s, p, e.card), backup=e.card)), f"backup:{e.player}")
            p = s.player(e.player)
        assert p.battle is not None
        s = with_player(s, e.player, discard=p.discard + (p.battle,), battle=p.backup, backup=None, mods=(), public=True)
        if p.backup == HIDDEN:  # LG-38: the log states what the called card does
            return replace(s, priority=None, passed=(), effects=(), step="blind", blind_step="called")
        items = self.queue_effects(s, [e.player])
        return replace(s, priority=None, passed=(), effects=items, step="effects" if items else "after-effects")

    @applies(E.BackupPassed)
    def a_passed(self, s: State, e: E.BackupPassed) -> State:
        if s.step != "backup":  # LG-40: a pass outside the window changes nothing
            return s
        return self.open_window(replace(s, passed=s.passed + (e.player,)))

    @applies(E.StrikeResolved)
    def a_strike(self, s: State, e: E.StrikeResolved) -> State:
        ev, new = self.strike(s)
        if e.hp != ev.hp and e.target == ev.target and len(new.players) == 2:
            # LG-40: a wrongly stated strike a judge lets stand: the stated hit points are what
            # both players then played on
            return with_player(new, e.target, hp=e.hp)
        return new

    @applies(E.RoundEnded)
    def a_round_ended(self, s: State, e: E.RoundEnded) -> State:
        both = all(p.defenseless for p in s.players)
        shared = s.shared_combo
        combos = {}
        for push in s.pushes:
            if push.counter == "shared":
                for colour in push.colours:
                    shared = (colour, shared[0], shared[1])
            else:
                c = s.player(push.counter).combo
                for colour in push.colours:
                    c = (colour, c[0], c[1])
                combos[push.counter] = c
        players = []
        for p in s.players:
            discard = p.discard + (p.battle,) if p.battle is not None else p.discard
            players.append(replace(p, discard=discard, commitment=None, battle=None, public=False, defenseless=False,
                                   mods=(), double_combo=False, shield=False, combo=combos.get(p.id, p.combo)))
        s = replace(s, players=tuple(players), round=s.round + 1, phase="refill", step="", direction=None, effects=(),
                    priority=None, passed=(), striker=None, strikes=0, pushes=(), shared_combo=shared,
                    stall=s.stall + 1 if both else 0)
        return self.after_refill(s)

    @applies(E.Resigned)
    def a_resigned(self, s: State, e: E.Resigned) -> State:
        if s.options.resign_result == "draw":
            end = Result("draw", None, "resignation")
        else:
            end = Result("win", s.other(e.player), "resignation")
        return replace(s, pending_end=end)

    @applies(E.GameEnded)
    def a_game_ended(self, s: State, e: E.GameEnded) -> State:
        return replace(s, result=Result(e.result, e.winner, e.reason), phase="over", step="", pending_end=None)


    # -- derive ------------------------------------------------------------------------------------
    def derive(self, s: State) -> Any:
        if s.result is not None or len(s.players) != 2:
            return None
        if s.alts:  # alternatives: the record says what follows (LG-38), but an end they all reach
            return U.common_end(self, s)
        if s.pending_end is not None:
            r = s.pending_end
            return E.GameEnded(result=r.result, winner=r.winner, reason=r.reason)
        a, b = s.players
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
            step = s.step
            if step == "effects":
                ev, new = self.fire(s, s.effects[0])
                self._memo = (s, ev, new)
                return ev
            if step == "strike":
                ev, new = self.strike(s)
                self._memo = (s, ev, new)
                return ev
            if step == "direction" or step == "after-effects":
                d = self.direction(s)
                assert d is not None
                return E.DirectionDetermined(stage="before-effects" if step == "direction" else "after-effects",
                                             basis=d.basis, attacker=d.attacker, defender=d.defender)
            if step == "push":
                return E.RoundEnded(round=s.round, pushed=[E.ComboPush(counter=x.counter, colours=list(x.colours)) for x in s.pushes])
            return None
        if phase == "refill":
            p = self.refill_next(s)
            if p is not None and not p.deck and not p.deck_open:
                return E.DeckRebuilt(player=p.id, count=len(p.discard))
            return None
        if phase == "pick" and s.due:
            p = s.player(s.due[0])
            if HIDDEN in p.slots:  # LG-38: whether p holds a playable card is unknown
                return None
            return E.Defenseless(player=p.id, cards=[c for c in p.slots if c is not None])
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
        elif s.phase == "reveal":
            for p in s.players:
                if p.commitment is None or p.battle is not None:
                    continue
                salt = example_salt(s.round, p.id)
                out += [E.PickRevealed(player=p.id, card=c, salt=salt) for c in sorted({c for c in p.slots if c is not None})
                        if commitment_of(c, salt) == p.commitment]
        elif s.phase == "battle" and s.step == "backup" and s.priority is not None:
            backup = s.player(s.priority).backup
            out += [E.BackupCalled(player=s.priority, card=None if backup == HIDDEN else backup), E.BackupPassed(player=s.priority)]
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
        return []


# -- what each effect kind does when it fires ------------------------------------------------------------

#: what firing returns: the position after it, the result (``applied``, ``no-change``, ``no-target``)
#: and the value it reports (a slot count, hit points gained, cards moved; None when none)
Fired = tuple[State, str, "int | None"]
#: effect kind -> what it does (``fn(rules, state, target, owner, item, effect)``): one per kind of
#: ``cards.EffectName`` but Mimmick, which fires the effect it copies
FIRE: dict[str, Any] = {}


def _fires(*kinds: str) -> Any:
    def mark(fn: Any) -> Any:
        for k in kinds:
            FIRE[k] = fn
        return fn
    return mark


@_fires("add-card-slot")
def _add_card_slot(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if len(target.slots) < s.options.max_slots:
        return with_player(s, target.id, slots=target.slots + (None,)), "applied", len(target.slots) + 1
    return s, "no-change", len(target.slots)


@_fires("remove-card-slot")
def _remove_card_slot(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    slots = target.slots
    if len(slots) <= s.options.min_slots:
        return s, "no-change", len(slots)
    if None in slots:  # the rightmost empty slot goes
        i = len(slots) - 1 - slots[::-1].index(None)
        return with_player(s, target.id, slots=slots[:i] + slots[i + 1:]), "applied", len(slots) - 1
    return with_player(s, target.id, slots=slots[:-1], discard=target.discard + (slots[-1],)), "applied", len(slots) - 1


@_fires("regeneration")
def _regeneration(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    opts = s.options
    _, a, d, _ = r.stats(s, owner) if owner.battle == item.card else card_stats(pool_of(s), item.card, ())
    cap = opts.start_hp if opts.hp_cap == "start-hp" else None
    hp = target.hp + max(0, a + d)
    if cap is not None:
        hp = max(target.hp, min(cap, hp))
    value = hp - target.hp
    return (with_player(s, target.id, hp=hp), "applied", value) if value else (s, "no-change", value)


@_fires("shuffle-hand")
def _shuffle_hand(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    cards = tuple(c for c in target.slots if c is not None)
    if not cards:
        return s, "no-change", 0
    empty = (None,) * len(target.slots)
    if s.options.shuffle_hand_to == "deck" and target.unknown:
        deck, unseen = U.to_deck(target, cards, U.tracked(s, target))
        return with_player(s, target.id, slots=empty, deck=deck, unseen=unseen), "applied", len(cards)
    if s.options.shuffle_hand_to == "deck":
        return with_player(s, target.id, slots=empty, deck=sorted_add(target.deck, cards)), "applied", len(cards)
    return with_player(s, target.id, slots=empty, discard=target.discard + cards), "applied", len(cards)


@_fires("destroy-combo")
def _destroy_combo(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if s.options.combo_counter == "per-player":
        if target.combo == _EMPTY3:
            return s, "no-change", None
        return with_player(s, target.id, combo=_EMPTY3), "applied", None
    if s.shared_combo == _EMPTY3:
        return s, "no-change", None
    return replace(s, shared_combo=_EMPTY3), "applied", None


@_fires("destroy-backup")
def _destroy_backup(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if target.backup is None:
        return s, "no-change", None
    return with_player(s, target.id, backup=None, discard=target.discard + (target.backup,)), "applied", None


@_fires("neutralize")
def _neutralize(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    return with_player(s, target.id, shield=True, mods=(), double_combo=False), "applied", None


@_fires("double-combo")
def _double_combo(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if target.battle is None:
        return s, "no-target", None
    return with_player(s, target.id, double_combo=True), "applied", None


@_fires("berserk")
def _berserk(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if target.hp < CRITICAL_HP:
        return with_player(s, target.id, mods=target.mods + ("berserk",)), "applied", None
    return s, "no-change", None


@_fires("color-change")
def _color_change(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if r.stats(s, target)[0] == fx.src:
        return with_player(s, target.id, mods=target.mods + (f"color:{fx.to}",)), "applied", None
    return s, "no-change", None


@_fires("maximize", "minimize", "swap-values")
def _modify(r: Rules, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    return with_player(s, target.id, mods=target.mods + (fx.do,)), "applied", None
