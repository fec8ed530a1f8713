"""The LOGOS round, phase by phase: reading the position (playable cards, the refill, the
direction), what the position waits for, and the transitions apply makes from step to step:
Phase 1 after the refill and the picks, the battle's direction, effects queue, Backup window and
strikes, and the combo pushes that end the round.

:class:`Phases` is the base of the rules (checks.py and applies.py build on it; rules.py joins
them)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.kit import Owed, RulesBase

from . import events as E
from . import unknowns as U
from .cards import Pool
from .rulebook import NS
from .state import Direction, EffectItem, Player, Push, State
from .values import beats, card_stats, plain_cards, playable_card, pool_of, pool_of_setup
from .zones import picked


class Phases(RulesBase):
    """Reading a LOGOS position and stepping it from phase to phase."""

    namespace = NS
    #: (position, the player whose empty slots are refilled next) of the last refill step found by
    #: after_refill (refill_next's answer: derive and the next draw's check ask it of that position)
    _refill: tuple[State, Player] | None = None

    # -- reading the position ------------------------------------------------------------------
    #: the match's pool (values.pool_of)
    pool = staticmethod(pool_of)

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
        return _armed(pool_of(s), p.slots, self.counter(s, p))

    def refill_next(self, s: State) -> Player | None:
        """The first player (seat order) with an empty slot that the deck (or discard) can fill."""
        reshuffle = s.options.on_empty_deck == "reshuffle-discard"
        for p in s.players:
            if not all(p.slots) and (p.deck or p.deck_open or (reshuffle and p.discard)):  # an empty slot (card ids are never "")
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
        pool = pool_of(s)
        ka, _, _, sa = card_stats(pool, a.battle, a.mods)
        kb, _, _, sb = card_stats(pool, b.battle, b.mods)
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
                return Owed(f"card drawn by {p.id}", "LG-2.2", f"{p.slots.count(None)} empty card slot(s) to refill: "
                            "every empty slot takes a card at the start of the round", p.id)
        if s.phase == "pick":
            who = [p.id for p in s.players if not p.defenseless and not picked(s, p)]
            verb = "card picked" if s.options.picks == "open" else "card committed"
            return Owed(f"{verb} by {' and '.join(who)}", None, "backup assigned first, if wanted")
        if s.phase == "reveal":
            who = [p.id for p in s.players if p.commitment is not None and p.battle is None]
            return Owed(f"pick revealed by {' and '.join(who)}", "LG-3.4",
                        "both picks are committed: each is revealed before the battle", who[0] if len(who) == 1 else None)
        if s.phase == "battle" and s.step == "backup":
            return Owed(f"backup called or backup passed by {s.priority}")
        if s.phase == "battle" and s.look is not None:  # LG-44
            who, src = s.look.player, s.look.source
            if s.step == "reorder":
                return Owed(f"cards reordered by {who}", "LG-44", f"{src} lets {who} put the {s.look.count} cards it saw "
                            "back on top of its deck in the order it chooses", who)
            return Owed(f"cards looked by {who}", "LG-44", f"{src} shows {who} the top {s.look.count} card(s) of its deck", who)
        return Owed("a derived event")

    def expected(self, s: State) -> str:
        o = self.owed(s)
        return f"{o.expects} ({o.why})" if o.why else o.expects

    # -- transitions (used by apply) -------------------------------------------------------------
    def after_refill(self, s: State) -> State:
        """Phase 1 begins once no empty slot can be filled; players without a playable card
        are due to be declared defenseless (LG-2.4)."""
        if s.phase != "refill":
            return s
        a, b = s.players
        reshuffle = s.options.on_empty_deck == "reshuffle-discard"
        for p in (a, b):  # a slot still to refill (refill_next)
            if not all(p.slots) and (p.deck or p.deck_open or (reshuffle and p.discard)):  # an empty slot (card ids are never "")
                self._refill = (s, p)  # derive and the draw's check ask the same of this position
                return s
        if a.unknown or b.unknown:
            due = tuple(p.id for p in s.players if not self.armed(s, p))
        else:  # every card known: one pool lookup for both players
            pool = s.pool or pool_of_setup(s.setup)
            if s.options.combo_counter == "per-player":
                ca, cb = a.combo, b.combo
            else:
                ca = cb = s.shared_combo
            if _armed(pool, a.slots, ca):
                due = () if _armed(pool, b.slots, cb) else (b.id,)
            else:
                due = (a.id,) if _armed(pool, b.slots, cb) else (a.id, b.id)
        s.phase, s.due = "pick", due
        return s

    def after_pick(self, s: State) -> State:
        """Phase 1 is over once every player is defenseless or has picked / committed."""
        a, b = s.players
        for p in (a, b):
            if not p.defenseless and p.battle is None and p.commitment is None:  # not picked yet
                return s
        if s.options.picks == "open":
            if a.public != (a.battle is not None) or b.public != (b.battle is not None):
                s.players = (replace(a, public=a.battle is not None), replace(b, public=b.battle is not None))
            return self.enter_battle(s)
        if a.commitment is not None or b.commitment is not None:
            s.phase = "reveal"
            return s
        return self.enter_battle(s)

    def after_reveal(self, s: State) -> State:
        if any(p.commitment is not None and p.battle is None for p in s.players):
            return s
        return self.enter_battle(s)

    def enter_battle(self, s: State) -> State:
        a, b = s.players
        if a.battle is None and b.battle is None:  # nobody sends a card
            s.phase = "battle"
            return self.start_push(s, False)
        if a.battle == HIDDEN or b.battle == HIDDEN:  # LG-38: the log states what follows
            s.phase, s.step, s.blind_step = "battle", "blind", "direction"
            return s
        s.phase, s.step = "battle", "direction"
        return s

    def queue_effects(self, s: State, pids: list[str]) -> tuple[EffectItem, ...]:
        left_first = s.options.field_order == "left-then-right"
        pool = pool_of(s)
        a, b = s.players
        items = []
        for pid in pids:
            p = a if a.id == pid else b
            battle = p.battle
            if battle is None:
                continue
            card = pool[battle]
            first, second = (card.left, card.right) if left_first else (card.right, card.left)
            if first is not None:
                items.append(EffectItem(pid, battle, "left" if left_first else "right"))
            if second is not None:
                items.append(EffectItem(pid, battle, "right" if left_first else "left"))
        return tuple(items)

    def open_window(self, s: State) -> State:
        """After the direction following the effects: the Backup window, else the strike."""
        d = s.direction
        assert d is not None and d.attacker is not None and d.defender is not None
        order = (d.defender, d.attacker) if s.options.backup_call_order == "defender-first" else (d.attacker, d.defender)
        a, b = s.players
        if a.backup is not None or b.backup is not None:
            passed = s.passed
            for pid in order:
                p = a if a.id == pid else b
                if p.battle is not None and p.backup is not None and pid not in passed:
                    s.step, s.priority = "backup", pid
                    return s
        s.step, s.priority, s.passed, s.striker, s.strikes = "strike", None, (), d.attacker, 0
        return s

    def start_push(self, s: State, deadlock: bool) -> State:
        """The end of the battle: the colours each counter receives (LG-6.1, LG-9)."""
        pushes: tuple[Push, ...] = ()
        if not deadlock or s.options.push_on_deadlock:
            pool = s.pool or pool_of_setup(s.setup)
            if s.options.combo_counter == "per-player":  # each counter its own colours, in seat order
                per: list[Push] = []
                for p in s.players:
                    if p.battle is not None:
                        colour = card_stats(pool, p.battle, p.mods)[0]
                        per.append(Push(p.id, (colour, colour) if p.double_combo else (colour,)))
                pushes = tuple(per)
            else:
                d = s.direction
                if d is not None and d.defender is not None and d.attacker is not None:
                    order = [d.defender, d.attacker]
                else:
                    order = [p.id for p in s.players]
                cols = tuple(c for pid in order if (p := s.player(pid)).battle is not None for c in _colours(pool, p))
                pushes = (Push("shared", cols),) if cols else ()
        s.step, s.pushes, s.priority, s.striker, s.effects = "push", pushes, None, None, ()
        return s

    @staticmethod
    def seat(s: State, pid: str) -> int:
        return 0 if s.players[0].id == pid else 1

    # -- strikes ---------------------------------------------------------------------------------
    def strike(self, s: State) -> tuple[E.StrikeResolved, State]:
        assert s.striker is not None and s.direction is not None
        a, b = s.players
        att, de = (a, b) if a.id == s.striker else (b, a)
        pool = s.pool or pool_of_setup(s.setup)
        atk = card_stats(pool, att.battle, att.mods)[1]
        dfn = card_stats(pool, de.battle, de.mods)[2] if de.battle is not None else s.options.defenseless_defense
        damage = atk - dfn if atk > dfn else 0
        hp = de.hp - damage
        ev = E.StrikeResolved(striker=att.id, target=de.id, attack=atk, defense=dfn, damage=damage, hp=hp, counter=s.strikes > 0)
        players = (replace(a, hp=hp), b) if de is a else (a, replace(b, hp=hp))
        strikes = s.strikes + 1
        if damage == 0 and s.direction.basis == "speed" and strikes <= s.options.max_counters:
            s.players, s.striker, s.strikes = players, de.id, strikes
            return ev, s
        s.players, s.strikes = players, strikes
        return ev, self.start_push(s, False)


def _colours(pool: Pool, p: Player) -> tuple[str, ...]:
    """The colours ``p``'s battle card pushes at the end of the round (twice with Double Combo)."""
    colour = card_stats(pool, p.battle, p.mods)[0]
    return (colour, colour) if p.double_combo else (colour,)


def _armed(pool: Pool, slots: tuple[str | None, ...], counter: tuple[str | None, ...]) -> bool:
    """Does one of ``slots`` (every card known) hold a card playable with ``counter``?"""
    plain = plain_cards(pool)
    for c in slots:
        if c in plain:
            return True
    for c in slots:
        if c is not None and playable_card(pool, c, counter):
            return True
    return False
