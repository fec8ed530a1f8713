"""An independent LOGOS referee for the audit tests (tests/test_audit_logos*.py).

Written from seed 001 and the defaults and options docs/rules/logos.md documents, never from the
engine: it imports no rule helper of ``adjudicator.games.logos`` (only the card data of the pool,
and plain dicts for the events it predicts).  The audit plays matches, feeds this referee each
decision the match makes, and compares what it says follows (the derived events) and what it
says may be played (the legal decisions) with the engine.

The referee keeps a position of plain Python values: per player hit points, card slots (a list,
None for an empty slot), the deck (a multiset: its order is unknown, LG-2.3), the discard pile,
the Backup card, the combo counter (newest panel first), and this round's battle card, temporary
changes to it, shield and Double Combo mark.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: seed 001 (Color): MATTER beats ENERGY, ENERGY beats INFORMATION, INFORMATION beats MATTER
CYCLE = {("matter", "energy"), ("energy", "information"), ("information", "matter")}
#: seed 001 (Berserk): "critical condition, meaning they have less then 25,000 hit points"
CRITICAL = 25_000
#: seed 001 (Stats): "a Speed Value that is higher than 99"
BACKUP_ABOVE = 99
#: the effects that act on the targeted player's battle card (docs LG-7.4, LG-15: no card, no target)
ON_CARD = {"maximize", "minimize", "swap-values", "berserk", "color-change", "double-combo"}

DEFAULTS: dict[str, Any] = {
    "start_hp": 100_000, "start_slots": 3, "min_slots": 1, "max_slots": 6, "deck_size": None, "max_copies": None,
    "on_empty_deck": "reshuffle-discard", "picks": "commit-reveal", "combo_counter": "per-player",
    "push_on_deadlock": False, "effect_order": "defender-first", "field_order": "left-then-right",
    "deadlock_before_effects": True, "max_counters": 1, "defenseless_defense": 0, "backup_call_order": "defender-first",
    "hp_cap": "start-hp", "shuffle_hand_to": "discard", "mimmick_target": "by-mimmick-field", "resign_result": "draw",
    "max_rounds": None, "stall_rounds": 3, "max_life": None,
}
PRESETS: dict[str, dict[str, Any]] = {"standard": {}, "demo": {"deck_size": 25}}


def sha(card: str, salt: str) -> str:
    """A hidden pick's commitment (docs LG-3.4): SHA-256 of ``<card>:<salt>``, lowercase hex."""
    return hashlib.sha256(f"{card}:{salt}".encode()).hexdigest()


def beats(x: str, y: str) -> bool:
    """Seed 001 (Color): Life beats every other class, every other class beats Neutral."""
    if x == y:
        return False
    if x == "life" or y == "neutral":
        return True
    if y == "life" or x == "neutral":
        return False
    return (x, y) in CYCLE


def combo_ok(card: Any, counter: list[str | None]) -> bool:
    """Seed 001 (Combo): the indicator must match the counter exactly, grey a wildcard; an empty
    counter panel matches only grey (LG-8); panel 1 against the colour pushed last (LG-3.3)."""
    return all(want == "grey" or want == have for want, have in zip(card.combo, counter))


def backup_ok(card: Any) -> bool:
    """Seed 001 (Stats): Speed higher than 99 and no Combo-Requirement (three grey panels)."""
    return card.speed > BACKUP_ABOVE and all(p == "grey" for p in card.combo)


@dataclass
class Seat:
    id: str
    hp: int
    slots: list[str | None]
    deck: Counter[str]
    discard: list[str] = field(default_factory=list)
    backup: str | None = None
    combo: list[str | None] = field(default_factory=lambda: [None, None, None])
    battle: str | None = None
    picked: bool = False
    commitment: str | None = None
    klass: str | None = None
    attack: int = 0
    defense: int = 0
    shield: bool = False
    double: bool = False
    defenseless: bool = False


class Disagreement(AssertionError):
    pass


class Referee:
    """A LOGOS match as the rule text reads it.  ``pending`` is the list of derived events (dicts
    with ``type``) that follow from the position now; ``take(event)`` consumes one decision."""

    def __init__(self, setup: Any, pool: Any) -> None:
        self.pool = pool
        o = dict(DEFAULTS)
        o.update(PRESETS[setup.ruleset])
        o.update(setup.options)
        self.o = o
        self.ids = list(setup.players)
        self.p = {pid: Seat(pid, o["start_hp"], [None] * o["start_slots"], Counter(setup.decks[pid])) for pid in self.ids}
        self.shared: list[str | None] = [None, None, None]
        self.round = 1
        self.phase = "refill"
        self.over: dict[str, Any] | None = None
        self.resigned: str | None = None
        self.stall = 0
        self.attacker: str | None = None
        self.defender: str | None = None
        self.basis: str | None = None
        self.queue: list[tuple[str, str, str]] = []  # (player, card, field) still to fire
        self.asked: str | None = None
        self.passed: set[str] = set()
        self.striker: str | None = None
        self.strikes = 0
        self.out: list[dict[str, Any]] = []
        self._advance()

    # -- helpers -----------------------------------------------------------------------------
    def card(self, cid: str) -> Any:
        return self.pool[cid]

    def other(self, pid: str) -> Seat:
        return self.p[self.ids[1] if pid == self.ids[0] else self.ids[0]]

    def counter(self, pid: str) -> list[str | None]:
        return self.p[pid].combo if self.o["combo_counter"] == "per-player" else self.shared

    def playable(self, pid: str) -> list[str]:
        s = self.p[pid]
        return sorted({c for c in s.slots if c is not None and combo_ok(self.card(c), self.counter(pid))})

    def _emit(self, ev: dict[str, Any]) -> None:
        self.out.append(ev)

    def drain(self) -> list[dict[str, Any]]:
        out, self.out = self.out, []
        return out

    def refill_player(self) -> Seat | None:
        for pid in self.ids:
            s = self.p[pid]
            if None in s.slots and (sum(s.deck.values()) or (self.o["on_empty_deck"] == "reshuffle-discard" and s.discard)):
                return s
        return None

    # -- the legal decisions ---------------------------------------------------------------------
    def legal(self) -> list[tuple[Any, ...]]:
        """Every decision the rules allow now, as tuples ``(type, player, card)`` (commitments as
        ``("CardCommitted", player, card)``: a commitment to that card), ``Resigned`` included."""
        if self.over is not None:
            return []
        out: list[tuple[Any, ...]] = [("Resigned", pid, None) for pid in self.ids]
        if self.resigned is not None:
            return out
        if self.phase == "refill":
            s = self.refill_player()
            if s is not None:
                out += [("CardDrawn", s.id, c) for c in sorted(c for c, n in s.deck.items() if n > 0)]
        elif self.phase == "pick":
            for pid in self.ids:
                s = self.p[pid]
                if s.defenseless or s.picked or s.commitment is not None:
                    continue
                if s.backup is None:
                    for c in sorted({c for c in s.slots if c is not None}):
                        if backup_ok(self.card(c)):
                            rest = list(s.slots)
                            rest[rest.index(c)] = None
                            if any(x is not None and combo_ok(self.card(x), self.counter(pid)) for x in rest):
                                out.append(("BackupAssigned", pid, c))
                kind = "CardPicked" if self.o["picks"] == "open" else "CardCommitted"
                out += [(kind, pid, c) for c in self.playable(pid)]
        elif self.phase == "reveal":
            for pid in self.ids:
                s = self.p[pid]
                if s.commitment is not None and not s.picked:
                    out.append(("PickRevealed", pid, s.commitment))
        elif self.phase == "window":
            out += [("BackupCalled", self.asked, None), ("BackupPassed", self.asked, None)]
        return out

    # -- decisions -----------------------------------------------------------------------------
    def take(self, kind: str, pid: str, card: str | None = None) -> None:
        """Apply one legal decision (``legal`` lists it) and derive what follows."""
        if self.out:
            raise Disagreement(f"decision {kind} taken with derived events still owed: {self.out}")
        s = self.p[pid]
        if kind == "Resigned":
            self.resigned = pid
        elif kind == "CardDrawn":
            assert card is not None
            s.deck[card] -= 1
            s.slots[s.slots.index(None)] = card  # left to right (LG-2.2)
        elif kind == "BackupAssigned":
            s.slots[s.slots.index(card)] = None
            s.backup = card
        elif kind == "CardPicked":
            s.slots[s.slots.index(card)] = None
            self._send(s, card)
        elif kind == "CardCommitted":
            s.commitment = card  # the referee knows the card behind the commitment
        elif kind == "PickRevealed":
            s.slots[s.slots.index(card)] = None
            self._send(s, card)
        elif kind == "BackupCalled":
            assert s.battle is not None and s.backup is not None
            s.discard.append(s.battle)  # the replaced card (LG-16), its temporary changes vanish (LG-30)
            self._send(s, s.backup)
            s.backup = None
            self.passed = set()
            self.queue = self._fields(pid)
            self.asked = None
            self.phase = "effects-after-call"
        elif kind == "BackupPassed":
            self.passed.add(pid)
            self.asked = None
            self.phase = "window-next"
        else:
            raise AssertionError(kind)
        self._advance()

    def _send(self, s: Seat, card: str) -> None:
        c = self.card(card)
        s.battle, s.picked = card, True
        s.klass, s.attack, s.defense = c.klass, c.attack, c.defense

    # -- what follows ----------------------------------------------------------------------------
    def _advance(self) -> None:
        while self.over is None:
            if self.resigned is not None:
                r = self.o["resign_result"]
                winner = None if r == "draw" else self.other(self.resigned).id
                self._end("draw" if r == "draw" else "win", winner, "resignation")
                return
            if not self._step():
                return

    def _end(self, result: str, winner: str | None, reason: str) -> None:
        self.over = {"type": "GameEnded", "result": result, "winner": winner, "reason": reason}
        self._emit(self.over)

    def _step(self) -> bool:
        """One derived step; False when the position waits for a decision."""
        ph = self.phase
        if ph == "refill":
            s = self.refill_player()
            if s is None:
                self._phase1()
                return True
            if not sum(s.deck.values()):  # LG-4: the discard pile becomes the deck
                self._emit({"type": "DeckRebuilt", "player": s.id, "count": len(s.discard)})
                s.deck = Counter(s.discard)
                s.discard = []
                return True
            return False
        if ph == "pick":
            for pid in self.ids:
                s = self.p[pid]
                if not s.defenseless and not s.picked and s.commitment is None:
                    return False
            if self.o["picks"] != "open" and any(self.p[pid].commitment is not None for pid in self.ids):
                self.phase = "reveal"
                return True
            self._battle()
            return True
        if ph == "reveal":
            if any(self.p[pid].commitment is not None and not self.p[pid].picked for pid in self.ids):
                return False
            self._battle()
            return True
        if ph == "effects" or ph == "effects-after-call":
            if self.queue:
                self._fire(*self.queue.pop(0))
                return True
            self._direction("after-effects")
            if self.basis == "deadlock":
                self._round_end(deadlock=True)
                return True
            self.phase = "window-next"
            return True
        if ph == "window-next":
            self._window()
            return True
        if ph == "window":
            return False
        if ph == "strike":
            self._strike()
            return True
        raise AssertionError(ph)

    def _phase1(self) -> None:
        """LG-2.4: a player whose slots hold no playable card is defenseless (seat order)."""
        for pid in self.ids:
            s = self.p[pid]
            if not self.playable(pid):
                cards = [c for c in s.slots if c is not None]
                self._emit({"type": "Defenseless", "player": pid, "cards": cards})
                s.discard += cards
                s.slots = [None] * len(s.slots)
                s.defenseless = True
        self.phase = "pick"

    def _battle(self) -> None:
        a, b = (self.p[pid] for pid in self.ids)
        if a.battle is None and b.battle is None:  # both defenseless: no battle (LG-15)
            self._round_end(deadlock=False)
            return
        self._direction("before-effects")
        if self.basis == "deadlock" and self.o["deadlock_before_effects"]:
            self._round_end(deadlock=True)
            return
        if self.basis == "deadlock":
            order = list(self.ids)
        elif self.o["effect_order"] == "defender-first":
            order = [self.defender, self.attacker]
        else:
            order = [self.attacker, self.defender]
        self.queue = [x for pid in order if pid is not None for x in self._fields(pid)]
        if not self.queue:  # no effect fired: the direction stands (LG-7.5), a Deadlock ends the round
            if self.basis == "deadlock":
                self._round_end(deadlock=True)
                return
            self.phase = "window-next"
            return
        self.phase = "effects"

    def _fields(self, pid: str) -> list[tuple[str, str, str]]:
        s = self.p[pid]
        if s.battle is None:
            return []
        c = self.card(s.battle)
        fields = ["left", "right"] if self.o["field_order"] == "left-then-right" else ["right", "left"]
        return [(pid, s.battle, f) for f in fields if getattr(c, f) is not None]

    def _direction(self, stage: str) -> None:
        a, b = (self.p[pid] for pid in self.ids)
        if a.battle is None or b.battle is None:
            att, de = (a, b) if b.battle is None else (b, a)
            basis = "defenseless"
        elif a.klass == b.klass:
            sa, sb = self.card(a.battle).speed, self.card(b.battle).speed
            if sa == sb:
                att = de = None
                basis = "deadlock"
            else:
                att, de = (a, b) if sa > sb else (b, a)
                basis = "speed"
        else:
            assert a.klass is not None and b.klass is not None
            att, de = (a, b) if beats(a.klass, b.klass) else (b, a)
            basis = "class"
        self.basis = basis
        self.attacker = None if att is None else att.id
        self.defender = None if de is None else de.id
        self._emit({"type": "DirectionDetermined", "stage": stage, "basis": basis, "attacker": self.attacker,
                    "defender": self.defender})

    def _window(self) -> None:
        """LG-17: each player with a Backup card and a battle card who has not passed is asked,
        in the order of the option; when nobody is left, the strike."""
        order = [self.defender, self.attacker]
        if self.o["backup_call_order"] == "attacker-first":
            order.reverse()
        for pid in order:
            assert pid is not None
            s = self.p[pid]
            if s.backup is not None and s.battle is not None and pid not in self.passed:
                self.asked, self.phase = pid, "window"
                return
        self.passed = set()
        self.phase, self.striker, self.strikes = "strike", self.attacker, 0

    def _strike(self) -> None:
        att = self.p[self.striker]  # type: ignore[index]
        de = self.other(att.id)
        defense = de.defense if de.battle is not None else self.o["defenseless_defense"]
        damage = max(0, att.attack - defense)
        de.hp -= damage
        self._emit({"type": "StrikeResolved", "striker": att.id, "target": de.id, "attack": att.attack,
                    "defense": defense, "damage": damage, "hp": de.hp, "counter": self.strikes > 0})
        self.strikes += 1
        if de.hp <= 0:
            self._end("win", att.id, "hit-points")
            return
        # seed 001 (Stats): same class, no damage: the roles turn (at most max_counters times, LG-13)
        if damage == 0 and self.basis == "speed" and self.strikes <= self.o["max_counters"]:
            self.striker = de.id
            return
        self._round_end(deadlock=False)

    def _round_end(self, deadlock: bool) -> None:
        pushed: list[dict[str, Any]] = []
        if not deadlock or self.o["push_on_deadlock"]:
            if self.o["combo_counter"] == "per-player":
                for pid in self.ids:
                    s = self.p[pid]
                    if s.battle is not None:
                        pushed.append({"counter": pid, "colours": [s.klass] * (2 if s.double else 1)})
            else:
                order = [self.defender, self.attacker] if self.defender and self.attacker else list(self.ids)
                cols = [self.p[pid].klass for pid in order if self.p[pid].battle is not None
                        for _ in range(2 if self.p[pid].double else 1)]
                if cols:
                    pushed.append({"counter": "shared", "colours": cols})
        self._emit({"type": "RoundEnded", "round": self.round, "pushed": pushed})
        for push in pushed:
            ctr = self.shared if push["counter"] == "shared" else self.p[push["counter"]].combo
            for colour in push["colours"]:
                ctr[:] = [colour, ctr[0], ctr[1]]  # the leftmost panel, the oldest drops off (LIFO)
        both = all(self.p[pid].defenseless for pid in self.ids)
        for pid in self.ids:
            s = self.p[pid]
            if s.battle is not None:
                s.discard.append(s.battle)
            s.battle, s.picked, s.commitment, s.klass = None, False, None, None
            s.shield = s.double = s.defenseless = False
        self.stall = self.stall + 1 if both else 0
        self.round += 1
        self.attacker = self.defender = self.basis = self.striker = None
        self.queue, self.passed, self.asked = [], set(), None
        self.phase = "refill"
        if self.stall >= self.o["stall_rounds"]:
            self._end("draw", None, "stall")
        elif self.o["max_rounds"] is not None and self.round > self.o["max_rounds"]:
            self._end("draw", None, "round-limit")

    # -- effects (seed 001, Effects; docs LG-7.2 to LG-7.4) ---------------------------------------
    def _fire(self, pid: str, cid: str, fld: str) -> None:
        owner = self.p[pid]
        opp = self.other(pid)
        fx = getattr(self.card(cid), fld)
        target = opp if fld == "left" else owner
        ev: dict[str, Any] = {"type": "EffectResolved", "player": pid, "card": cid, "field": fld, "effect": fx.do,
                              "target": target.id, "copied": None, "value": None, "cards": None}
        if fx.do == "mimmick":
            src = None if opp.battle is None else getattr(self.card(opp.battle), fld)
            if opp.battle is None:
                ev["result"] = "no-target"
                return self._emit(ev)
            if src is None or src.do == "mimmick":
                ev["result"], ev["copied"] = "no-change", None if src is None else src.do
                return self._emit(ev)
            ev["copied"] = src.do
            if self.o["mimmick_target"] == "by-source-field":
                target = owner if fld == "left" else opp
                ev["target"] = target.id
            fx = src
        if target.shield:
            ev["result"] = "blocked"
            return self._emit(ev)
        if fx.do in ON_CARD and target.battle is None:
            ev["result"] = "no-target"
            return self._emit(ev)
        result, value, cards = self._effect(fx, target, owner, cid)
        ev["result"], ev["value"], ev["cards"] = result, value, cards
        self._emit(ev)

    def _effect(self, fx: Any, t: Seat, owner: Seat, cid: str) -> tuple[str, int | None, list[str] | None]:
        o = self.o
        kind = fx.do
        if kind == "add-card-slot":
            if len(t.slots) >= o["max_slots"]:
                return "no-change", len(t.slots), None
            t.slots.append(None)
            return "applied", len(t.slots), None
        if kind == "remove-card-slot":
            if len(t.slots) <= o["min_slots"]:
                return "no-change", len(t.slots), None
            if None in t.slots:
                i = max(i for i, c in enumerate(t.slots) if c is None)
                del t.slots[i]
                return "applied", len(t.slots), None
            gone = t.slots.pop()
            assert gone is not None
            t.discard.append(gone)
            return "applied", len(t.slots), [gone]
        if kind == "regeneration":
            if owner.battle == cid:
                gain = owner.attack + owner.defense
            else:
                c = self.card(cid)
                gain = c.attack + c.defense
            new = t.hp + gain
            if o["hp_cap"] == "start-hp":
                new = max(t.hp, min(new, o["start_hp"]))
            healed = new - t.hp
            t.hp = new
            return ("applied" if healed else "no-change"), healed, None
        if kind == "shuffle-hand":
            cards = [c for c in t.slots if c is not None]
            if not cards:
                return "no-change", 0, None
            t.slots = [None] * len(t.slots)
            if o["shuffle_hand_to"] == "deck":
                t.deck.update(cards)
            else:
                t.discard += cards
            return "applied", len(cards), cards
        if kind == "destroy-combo":
            ctr = t.combo if o["combo_counter"] == "per-player" else self.shared
            if ctr == [None, None, None]:
                return "no-change", None, None
            ctr[:] = [None, None, None]
            return "applied", None, None
        if kind == "destroy-backup":
            if t.backup is None:
                return "no-change", None, None
            t.discard.append(t.backup)
            t.backup = None
            return "applied", None, None
        if kind == "neutralize":
            t.shield = True
            t.double = False  # every temporary effect on the player ends (LG-7.3)
            if t.battle is not None:
                c = self.card(t.battle)
                t.klass, t.attack, t.defense = c.klass, c.attack, c.defense
            return "applied", None, None
        if kind == "double-combo":
            t.double = True
            return "applied", None, None
        if kind == "maximize":
            t.attack = t.defense = max(t.attack, t.defense)
            return "applied", None, None
        if kind == "minimize":
            t.attack = t.defense = min(t.attack, t.defense)
            return "applied", None, None
        if kind == "swap-values":
            t.attack, t.defense = t.defense, t.attack
            return "applied", None, None
        if kind == "berserk":
            if t.hp < CRITICAL:
                t.attack, t.defense = 2 * t.attack, 2 * t.defense
                return "applied", None, None
            return "no-change", None, None
        if kind == "color-change":
            if t.klass == fx.src:
                t.klass = fx.to
                return "applied", None, None
            return "no-change", None, None
        raise AssertionError(kind)
