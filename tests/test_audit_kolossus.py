"""An independent audit of Kolossus against seed 002 (docs/rules/kolossus.md), as properties over
generated matches.

Random legal matches are played under every chapter and random ruleset options (2, 3 and 4
players, with and without a declared die generator).  At every decision the set of events the
engine lists (``legal_events``) must be exactly the set the independent oracle
(:mod:`tests.kolossus_oracle`) derives from the rule text, and every event the engine applies must
do what the rules say (the oracle's own slide of a region, beats, captures, mana, crystals, whose
turn, the end of the match).  At sampled decisions events the rules forbid (another warband, a
step out of phase, too far, a turn too many, a climb, a Defence not paid, a target out of line,
a power without the mana, an event of a later chapter, a die that is not a d4 ...) are built and
``check`` must refuse each with the rule the oracle names.

``ADJUDICATOR_PROPERTY_SCALE=N`` draws N times as many matches (tests/conftest.py)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings, strategies as st

from adjudicator.core.kernel.fold import settle
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import propose, start
from adjudicator.games.kolossus import events as E

from . import kolossus_oracle as O
from .kolossus_scenarios import GAME, T, moved, position, setup, with_warband
from .test_kolossus_play import matches as play_matches

#: the options of test_kolossus_play, and the Titan Weapons assigned otherwise (KO-25)
WEAPONS = st.fixed_dictionaries({}, optional={
    "weapons": st.dictionaries(st.sampled_from(["tuatha", "krell", "ishtari", "firbolg"]),
                               st.sampled_from(["sword", "whip", "spear", "hammer"])),
})


@st.composite
def matches(draw: Any) -> tuple[E.MatchStarted, int]:
    """A set-up of any chapter, 2 to 4 players, random options, with or without a generator."""
    match, seed = draw(play_matches())
    weapons = draw(WEAPONS)
    return (msgspec.structs.replace(match, options={**match.options, **weapons}) if weapons else match), seed


def keys(events: list[Any]) -> set[bytes]:
    return {O.key(GAME.canonical(e)) for e in events}


class Audit:
    """One generated match, checked event by event against the oracle."""

    def __init__(self, match: E.MatchStarted, seed: int, *, probes: int = 4, boost: bool = False) -> None:
        self.match = match
        #: chapter 3: at the start of every turn the warband's weapon is charged and its pool filled
        #: from its supply (a position the rules allow: mana a player could have put there), so
        #: the Titan Weapons and Powers come into play often
        self.boost = boost
        self.rng = random.Random(seed)
        self.dice = O.generator(match.seed) if match.rng else None
        self.rolled = 0
        self.probe_rate = probes
        #: the round's turns so far, the warband that captured in this round and the last capture
        self.turns: list[str] = []
        self.capturer: str | None = None
        self.last_capture: str | None = None
        self.first: str | None = None
        self.rounds_seen = 0
        self.probed = 0
        #: whose decision comes next (ch.1 II-III, ch.2 I: set-up and Great Quake in seat order)
        self.expect: str | None = None
        self.quakers: list[str] = []

    def run(self, max_events: int = 260) -> Any:
        s, _ = settle(GAME, GAME.initial_state(self.match))
        n = 0
        while GAME.outcome(s) is None and n < max_events:
            listed = GAME.legal_events(s)
            self.same_set(s, listed)
            if self.rng.random() < self.probe_rate / 40:
                self.probe(s, listed)
            weights = [GAME.playout_weight(s, e) for e in listed]
            e = self.rng.choices(listed, weights)[0]
            assert GAME.check(s, e).legal, e
            self.whose(s, e)
            s2, derived = settle(GAME, GAME.apply(s, e))
            self.effect(s, e, derived, s2)
            self.next_actor(s, e, derived, s2)
            if self.boost and s2.step == "destiny" and s2.options.chapter >= 3:
                s2 = self.charged(s2)
            self.invariants(s2)
            s, n = s2, n + 1
        return s

    @staticmethod
    def charged(s: Any) -> Any:
        w = s.warbands[s.seat]
        supply, charged, pool = w.supply, w.charged, w.pool
        if w.weapon is not None and not charged and supply >= 2:
            supply, charged = supply - 2, True
        more = min(5 - pool, supply)
        ws = list(s.warbands)
        ws[s.seat] = msgspec.structs.replace(w, supply=supply - more, pool=pool + more, charged=charged)
        return msgspec.structs.replace(s, warbands=tuple(ws))

    # -- whose decision it is ------------------------------------------------------------------------
    def whose(self, s: Any, e: Any) -> None:
        ws = [w.id for w in s.warbands]
        if self.expect is None:  # the set-up: skills (chapter 2+), then placement, from the first seat
            self.expect = ws[0]
        assert e.warband == self.expect, f"{type(e).__name__} by {e.warband}; the rules give the decision to {self.expect}"

    def next_actor(self, s: Any, e: Any, derived: list[Any], s2: Any) -> None:
        ws = [w.id for w in s.warbands]
        i = ws.index(e.warband)
        t = type(e).__name__
        if t == "SkillsChosen":
            self.expect = ws[i + 1] if i < 3 else ws[0]
        elif t == "MiniaturesPlaced":
            if i < 3:
                self.expect = ws[i + 1]
            else:  # ch.1 III: the Great Quake from the first player clockwise; KO-7: per warband or per player
                players: list[str] = []
                for w in s.warbands:
                    if s.options.quake_moves == "warband" or w.player not in players:
                        self.quakers.append(w.id)
                        players.append(w.player)
                self.expect = self.quakers.pop(0)
        elif t == "QuakeShifted" or (t == "ManaAllocated" and s.round == 0):
            owed = t == "QuakeShifted" and s.options.chapter >= 2 and s.options.invasion_mana and \
                s.warbands[i].pending > 0
            assert (s2.step == "allocate") == owed, "KO-8: the Great Quake roll's mana is allocated after the move"
            if not owed:
                self.expect = self.quakers.pop(0) if self.quakers else None
        for d in derived:
            if type(d) is E.TurnStarted:
                self.expect = d.warband

    # -- both directions: what the rules allow is listed, nothing else is ----------------------------
    def same_set(self, s: Any, listed: list[Any]) -> None:
        got = keys(listed)
        if s.step == "move":
            want = O.legal_moves(s)
        elif s.step == "act":
            want = O.legal_act(s)
        else:
            want = O.legal_other(s, self.dice)
        extra, missing = sorted(got - want)[:3], sorted(want - got)[:3]
        assert not extra and not missing, (f"step {s.step} of {s.warbands[s.seat].id}: the engine lists {extra} "
                                           f"the rules forbid and misses {missing} the rules allow")
        assert len(got) == len(listed)

    # -- what the rules forbid is refused, with the right rule ----------------------------------------
    def refuse(self, s: Any, e: Any, rules: set[str] | str) -> None:
        rules = {rules} if isinstance(rules, str) else rules
        r = GAME.check(s, e)
        assert not r.legal, f"step {s.step}: {e} is accepted ({r.message}); the rules forbid it ({sorted(rules)})"
        assert r.rule in rules, f"step {s.step}: {e} is refused under {r.rule} ({r.message}); the oracle says {sorted(rules)}"
        assert r.code != "core/engine-error"

    def probe(self, s: Any, listed: list[Any]) -> None:
        self.probed += 1
        rng = self.rng
        me = s.warbands[s.seat].id
        other = rng.choice([w.id for w in s.warbands if w.id != me])
        replace = msgspec.structs.replace
        # another warband's decision, at this step (seed 002 ch.1 II: turns go clockwise)
        for e in rng.sample(listed, min(3, len(listed))):
            if hasattr(e, "warband"):
                self.refuse(s, replace(e, warband=other), "KO-4.1")
        step = s.step
        # an event of another step (the order within a turn, ch.1 IV)
        wrong = {"destiny": E.TurnEnded(warband=me), "act": E.DestinyRolled(warband=me, value=1),
                 "roll": E.TurnEnded(warband=me), "move": E.ActivationDeclared(warband=me, character="warrior"),
                 "quake-roll": E.DestinyRolled(warband=me, value=1), "quake-shift": E.QuakeRolled(warband=me, value=1),
                 "place": E.DestinyRolled(warband=me, value=2), "skills": E.TurnEnded(warband=me),
                 "allocate": E.TurnEnded(warband=me)}
        if step in wrong:
            self.refuse(s, wrong[step], {"KO-4.1", "KO-7.2"})
        # events of a later chapter
        ch = s.options.chapter
        if ch < 3:
            self.refuse(s, E.InitiativeUsed(warband=me), "KO-8.6")
            self.refuse(s, E.EarthquakeUsed(warband=me, region="row-6", direction="E"), "KO-8.7")
            self.refuse(s, E.RebirthUsed(warband=me, character="warrior", square="a1"), "KO-8.8")
            self.refuse(s, E.WeaponUsed(warband=me, weapon="spear", targets=["f6"]), "KO-8.1")
        if ch < 2:
            self.refuse(s, E.ManaAllocated(warband=me, attack={"warrior": 1}), "KO-7.2")
        elif step != "allocate":  # KO-7.1: mana is allocated only when a turn (or Great Quake roll) gave some
            self.refuse(s, E.ManaAllocated(warband=me, attack={"warrior": 1}), "KO-7.1")
        # what the engine derives is never a decision (KO-4.1)
        self.refuse(s, E.CrystalsCaptured(warband=me, count=1), "KO-4.1")
        self.refuse(s, E.MiniatureBeaten(warband=other, character="warrior", square="a1", by=me), "KO-4.1")
        if ch >= 3 and step in ("roll", "move"):  # KO-27: Titan Powers between activations, never inside one
            for e in (E.InitiativeUsed(warband=me), E.EarthquakeUsed(warband=me, region="row-1", direction="E"),
                      E.RebirthUsed(warband=me, character="warrior", square=O.zone_of(s, s.warbands[s.seat])[0])):
                self.refuse(s, e, {"KO-4.1", "KO-27"})
        getattr(self, "probe_" + step.replace("-", "_"), lambda s, me: None)(s, me)

    def probe_skills(self, s: Any, me: str) -> None:
        for total in (3, 5):
            self.refuse(s, E.SkillsChosen(warband=me, attack={"warrior": total}), "KO-1.3")
        self.refuse(s, E.SkillsChosen(warband=me, attack={"warrior": 5}, defence={"guardian": -1}), "KO-1.3")
        cap = s.options.skill_cap
        if cap is not None and cap < 4:
            self.refuse(s, E.SkillsChosen(warband=me, defence={"colossus": 4}), "KO-24")

    def probe_place(self, s: Any, me: str) -> None:
        w = s.warbands[s.seat]
        zone = O.zone_of(s, w)
        outside = [sq for sq in ("f6", "e5", "a6", "k6", "f1", "f11") if sq not in zone]
        self.refuse(s, E.MiniaturesPlaced(warband=me, colossus=outside[0], guardians=zone[:2], warriors=zone[2:7]), "KO-1.4")
        self.refuse(s, E.MiniaturesPlaced(warband=me, colossus=zone[0], guardians=zone[1:3], warriors=zone[3:7]), "KO-1.4")
        self.refuse(s, E.MiniaturesPlaced(warband=me, colossus=zone[0], guardians=zone[0:2], warriors=zone[2:7]), "KO-1.4")

    def probe_dice(self, s: Any, make: Any, n: int) -> None:
        self.refuse(s, make([5] * n), "KO-2.1")
        self.refuse(s, make([0] * n), "KO-2.1")
        if self.dice is not None:
            want = self.dice[s.rolls:s.rolls + n]
            self.refuse(s, make([(want[0] % 4) + 1] + want[1:]), "KO-2.2")

    def probe_destiny(self, s: Any, me: str) -> None:
        self.probe_dice(s, lambda v: E.DestinyRolled(warband=me, value=v[0]), 1)

    def probe_quake_roll(self, s: Any, me: str) -> None:
        self.probe_dice(s, lambda v: E.QuakeRolled(warband=me, value=v[0]), 1)

    def probe_roll(self, s: Any, me: str) -> None:
        n = O.NDICE[s.activation.character]
        self.probe_dice(s, lambda v: E.MovementRolled(warband=me, dice=v), n)
        for wrong in {1, 2, 3, 4} - {n}:
            self.refuse(s, E.MovementRolled(warband=me, dice=[1] * wrong), "KO-4.5")

    def probe_quake_shift(self, s: Any, me: str) -> None:
        g = O.geo(s)
        allowed = O.legal_other(s, self.dice)
        for r in g.regions():
            for d in O.DIRS:
                for n in range(0, 6):
                    e = E.QuakeShifted(warband=me, region=r, direction=d, distance=n)
                    if O.key(e) not in allowed:
                        self.refuse(s, e, {"KO-3.2", "KO-3.3", "KO-3.4", "KO-3.5"})

    def probe_allocate(self, s: Any, me: str) -> None:
        w = s.warbands[s.seat]
        self.refuse(s, E.ManaAllocated(warband=me, attack={"warrior": w.pending + 1}), "KO-7.2")
        self.refuse(s, E.ManaAllocated(warband=me, defence={"colossus": -1}), "KO-7.2")
        if s.options.chapter >= 3:
            if w.pool + w.pending > 5:
                self.refuse(s, E.ManaAllocated(warband=me, pool=6 - w.pool), "KO-7.2")
            if w.pending >= 1:
                self.refuse(s, E.ManaAllocated(warband=me, weapon=1), "KO-7.2")
        elif w.pending >= 1:
            self.refuse(s, E.ManaAllocated(warband=me, pool=1), "KO-7.2")
        cap = s.options.skill_cap
        if cap is not None:
            for i, c in enumerate(O.CLASSES):
                if w.attack[i] + w.pending > cap and w.pending:
                    self.refuse(s, E.ManaAllocated(warband=me, attack={c: w.pending}), "KO-24")

    def probe_act(self, s: Any, me: str) -> None:
        w = s.warbands[s.seat]
        opts = s.options
        for c in O.CLASSES:
            if O.COST[c] > s.points:
                self.refuse(s, E.ActivationDeclared(warband=me, character=c,
                                                    square=None if opts.choose_after_roll else
                                                    next((p.square for p in s.pieces if p.warband == me and p.character == c), "a1")),
                            {"KO-4.3"})
            elif opts.choose_after_roll and not O.can_declare(s, c):
                self.refuse(s, E.ActivationDeclared(warband=me, character=c), {"KO-4.4"})
        if not opts.choose_after_roll:  # KO-11: the miniature named when declaring
            for p in s.pieces:
                if O.COST[p.character] <= s.points and p not in O.can_declare(s, p.character):
                    self.refuse(s, E.ActivationDeclared(warband=me, character=p.character, square=p.square),
                                {"KO-5.1", "KO-4.4", "KO-27"})
        else:
            self.refuse(s, E.ActivationDeclared(warband=me, character="warrior", square="a1"),
                        {"KO-11", "KO-4.3", "KO-4.4"})
        if opts.must_spend_all and any(O.can_declare(s, c) for c in O.CLASSES):
            self.refuse(s, E.TurnEnded(warband=me), "KO-10")
        if opts.chapter < 3:
            return
        allowed = O.legal_act(s)
        e = E.InitiativeUsed(warband=me)
        if O.key(e) not in allowed:
            self.refuse(s, e, "KO-8.6")
        g = O.geo(s)
        for r in self.rng.sample(g.regions(), 4):
            for d in O.DIRS:
                e = E.EarthquakeUsed(warband=me, region=r, direction=d)
                if O.key(e) not in allowed:
                    self.refuse(s, e, "KO-8.7")
        squares = [g.name(c, r) for c in range(g.n) for r in range(g.n)]
        for c in O.CLASSES:
            for sq in self.rng.sample(squares, 6) + O.zone_of(s, w):
                e = E.RebirthUsed(warband=me, character=c, square=sq)
                if O.key(e) not in allowed:
                    self.refuse(s, e, "KO-8.8")
        for weapon in ("spear", "hammer"):
            targets = [p.square for p in s.pieces] + self.rng.sample(squares, 3)
            cands = [[t] for t in targets]
            if weapon == "hammer" and len(targets) > 2:
                cands += [self.rng.sample(targets, 2) for _ in range(5)] + [[targets[0], targets[0]]]
            for ts in cands:
                e = E.WeaponUsed(warband=me, weapon=weapon, targets=ts)
                if O.key(e) not in allowed:
                    self.refuse(s, e, {"KO-8.1", "KO-8.4" if weapon == "spear" else "KO-8.5", "KO-22"})

    def probe_move(self, s: Any, me: str) -> None:
        a = s.activation
        allowed = O.legal_moves(s)
        for p in O.movers(s):
            shaped = O.shaped_paths(s, p.square, min(a.mp + 2, 16), 0 if self.rng.random() < 0.3 else 1)
            twice = O.shaped_paths(s, p.square, min(a.mp + 1, 6), 2)
            shaped += self.rng.sample(twice, min(40, len(twice)))
            for path in self.rng.sample(shaped, min(120, len(shaped))):
                for weapon in (None, "sword", "whip"):
                    e = E.MiniatureMoved(warband=me, path=path, weapon=weapon)
                    if O.key(e) in allowed:
                        continue
                    if weapon is not None and weapon not in O.weapons_in_move(s):
                        self.refuse(s, e, "KO-8.1")
                        continue
                    broken, _ = O.move_verdict(s, path, weapon)
                    assert broken, path
                    self.refuse(s, e, broken)
        # a miniature the activation cannot move (KO-5.1, KO-4.4, KO-27, KO-11)
        mine = {p.square for p in O.movers(s)}
        for p in s.pieces:
            if p.square not in mine:
                self.refuse(s, E.MiniatureMoved(warband=me, path=[p.square]), {"KO-5.1", "KO-4.4", "KO-27", "KO-11"})
        empty = next(sq for sq in ("f6", "a6", "k6", "f1", "f11", "e5") if sq not in O.occ(s))
        self.refuse(s, E.MiniatureMoved(warband=me, path=[empty]), "KO-5.1")

    # -- what each event does ------------------------------------------------------------------------
    def effect(self, s: Any, e: Any, derived: list[Any], s2: Any) -> None:
        t = type(e).__name__
        w, w2 = s.warbands[s.seat], s2.warbands[s.seat]
        table = s.options.mana_table
        ch = s.options.chapter
        beats = [d for d in derived if type(d) is E.MiniatureBeaten]
        captures = [d for d in derived if type(d) is E.CrystalsCaptured]
        if t in ("QuakeRolled", "DestinyRolled", "MovementRolled"):
            values = e.dice if t == "MovementRolled" else [e.value]
            if self.dice is not None:
                assert values == self.dice[self.rolled:self.rolled + len(values)], "KO-2.2"
            self.rolled += len(values)
        if t == "SkillsChosen":
            assert w2.supply == 16 and sum(w2.attack) + sum(w2.defence) == 4, "KO-1.3"
        elif t == "DestinyRolled":
            assert s2.points == e.value, "KO-4.2"
            if ch >= 2:  # ch.2 II: 4 - the die, from the supply
                assert w2.pending == min(table[e.value - 1], w.supply + w.pending), "KO-7.1"
        elif t == "QuakeRolled" and ch >= 2 and s.options.invasion_mana:
            assert w2.pending == min(table[e.value - 1], w.supply + w.pending), "KO-8"
        elif t == "InitiativeUsed":  # ch.3 II-b: +1, the mana the new result gives
            assert (s2.destiny, s2.points, w2.pool) == (s.destiny + 1, s.points + 1, w.pool - 1), "KO-8.6"
            assert w2.pending == min(table[s.destiny], w.supply + w.pending + 1), "KO-8.6"
        elif t == "ActivationDeclared":
            assert s2.points == s.points - O.COST[e.character], "KO-4.3"
        elif t == "MovementRolled":
            bonus = w.attack[O.CI[s.activation.character]] if ch >= 2 else 0
            assert s2.activation.mp == sum(e.dice) + bonus, "KO-4.5/KO-12"
        elif t == "MiniatureMoved":
            self.moved(s, e, beats, captures, s2)
        elif t == "WeaponUsed":
            assert [b.square for b in beats] == e.targets or sorted(b.square for b in beats) == sorted(e.targets)
            assert all(b.by == w.id for b in beats)
            assert not any(p.square in e.targets for p in s2.pieces)
            assert not w2.charged and w2.supply >= w.supply + 2 - 0, "KO-8.1: the charge returns to the supply"
        elif t in ("EarthquakeUsed", "QuakeShifted"):
            self.slid(s, e, beats, s2)
            if t == "EarthquakeUsed":
                assert w2.pool == w.pool - 3 and w2.supply == w.supply + 3, "KO-8.7"
        elif t == "RebirthUsed":
            p = O.occ(s2)[e.square]
            assert (p.warband, p.character) == (w.id, e.character), "KO-8.8"
            assert w2.pool == w.pool - O.REBIRTH[e.character], "KO-8.8"
        elif t == "TurnEnded":
            assert not any(p.activated for p in s2.pieces if p.warband == w.id), "KO-4.4: rested for the next turn"
            assert (s2.step == "allocate") == (ch >= 2 and w.pending > 0), "KO-7.2"
        elif t == "ManaAllocated":
            assert w2.pending == 0 and w2.pool == w.pool + e.pool, "KO-7.2"
            for i, c in enumerate(O.CLASSES):
                assert w2.attack[i] == w.attack[i] + e.attack.get(c, 0), "KO-7.3"
                assert w2.defence[i] == w.defence[i] + e.defence.get(c, 0), "KO-7.3"
            assert w2.charged == (w.charged or e.weapon == 2)
        self.derived(s, e, derived, s2)

    def moved(self, s: Any, e: Any, beats: list[Any], captures: list[Any], s2: Any) -> None:
        path = e.path
        broken, beaten = O.move_verdict(s, path, e.weapon)
        assert not broken
        assert sorted((b.square, b.warband, b.character) for b in beats) == \
            sorted((p.square, p.warband, p.character) for p in beaten), "KO-5.7: the enemies entered are beaten"
        mover = O.occ(s)[path[0]]
        p2 = O.occ(s2).get(path[-1])
        assert p2 is not None and p2.warband == mover.warband and p2.character == mover.character and p2.activated
        assert s2.activation is None or s2.activation.at == path[-1]
        paid = sum(O.defence(s, p) for p in beaten) if s.options.defence_mode == "cost" and e.weapon != "whip" else 0
        if s2.activation is not None:
            assert s2.activation.left == s.activation.mp - (len(path) - 1) - paid, "KO-12/KO-16"
        # KO-18: ending the move on the Citadel takes its crystals ("on-enter": passing it also does)
        cit = s.citadel
        takes = path[-1] == cit or (s.options.crystal_capture == "on-enter" and cit in path[1:])
        want = [E.CrystalsCaptured(warband=e.warband, count=s.on_citadel)] if takes and s.on_citadel else []
        assert [O.key(c) for c in captures] == [O.key(c) for c in want], (path, cit, s.options.crystal_capture)
        if captures:
            self.capturer = self.last_capture = e.warband
        if e.weapon is not None:
            w2 = s2.warbands[s.seat]
            assert not w2.charged, "KO-8.1"

    def slid(self, s: Any, e: Any, beats: list[Any], s2: Any) -> None:
        distance = getattr(e, "distance", 1)
        levels, moves, fallen, cit = O.slide(s, e.region, e.direction, distance)
        g = O.geo(s)
        for sq, lv in levels.items():
            assert O.level(s2, g, sq) == lv, f"{e}: {sq} is level {O.level(s2, g, sq)}, the slide makes it {lv}"
        assert s2.citadel == cit, "KO-3.5/KO-8.7: the Citadel moves with its region"
        before = O.occ(s)
        after = O.occ(s2)
        for frm, to in moves.items():
            p = after.get(to)
            assert p is not None and (p.warband, p.character) == (before[frm].warband, before[frm].character), "KO-8.7"
        assert sorted(b.square for b in beats) == sorted(fallen), "KO-8.7: what crosses the edge is beaten"
        assert all(b.by == ("earthquake" if type(e) is E.EarthquakeUsed else "quake") for b in beats)

    def derived(self, s: Any, e: Any, derived: list[Any], s2: Any) -> None:
        for d in derived:
            t = type(d).__name__
            if t == "RoundStarted":
                if self.rounds_seen:
                    assert len(self.turns) == 4, "ch.1 II: a round ends when every warband has had its turn"
                    want_first = self.capturer or self.first
                    assert d.first == want_first, f"KO-19: round {d.round} starts with {d.first}, not {want_first}"
                else:
                    assert d.first == s.warbands[0].id, "ch.1 II: the first player starts round 1"
                self.rounds_seen += 1
                assert not self.quakers, "ch.1 III: every Great Quake move comes before round 1"
                on = s2.on_citadel + sum(w.crystals for w in s2.warbands) - sum(w.crystals for w in s.warbands)
                assert d.crystals == on, "KO-6.1: the round's crystal joins those left on the Citadel"
                assert d.round == self.rounds_seen <= s.options.rounds, "KO-29"
                self.first, self.turns, self.capturer = d.first, [], None
            elif t == "TurnStarted":
                k = len(self.turns)
                want = s.warbands[(O.seat(s, self.first) + k) % 4].id
                assert d.warband == want, f"ch.1 II: turn {k + 1} of the round is {want}'s (clockwise), not {d.warband}'s"
                self.turns.append(d.warband)
            elif t == "GameEnded":
                self.ended(s2, d)

    def ended(self, s: Any, d: Any) -> None:
        opts = s.options
        if d.result == "win":  # the winner: the players commanding the winning alliance's warbands
            assert set(d.winner.split("+")) == {w.player for w in s.warbands if w.id in d.alliance}, d
        else:
            assert d.winner is None and not d.alliance
        alive = {w.id: sum(1 for p in s.pieces if p.warband == w.id) for w in s.warbands}
        if d.reason == "wipeout":
            assert opts.wipeout != "never"
            losers = set()
            for i, w in enumerate(s.warbands):
                mine = [x.id for x in s.warbands if x.player == w.player] if opts.wipeout == "player" else [w.id]
                if all(alive[x] == 0 for x in mine):
                    losers.add(i % 2)
            assert losers, "KO-21"
            if len(losers) == 2:
                assert d.result == "draw"
            else:
                (lost,) = losers
                assert sorted(d.alliance) == sorted([s.warbands[1 - lost].id, s.warbands[3 - lost].id]), "KO-6.5"
            return
        assert self.rounds_seen == opts.rounds and len(self.turns) == 4, "KO-6.4: after the last round"
        a0 = s.warbands[0].crystals + s.warbands[2].crystals
        a1 = s.warbands[1].crystals + s.warbands[3].crystals
        winner = None
        if opts.crystal_majority == "relative" and a0 != a1:
            winner = 0 if a0 > a1 else 1
        elif opts.crystal_majority == "absolute":
            winner = 0 if 2 * a0 > opts.rounds else 1 if 2 * a1 > opts.rounds else None
        reason = "crystal-majority"
        if winner is None and self.last_capture is not None:
            winner, reason = O.seat(s, self.last_capture) % 2, "last-crystal"
        if winner is None:
            assert (d.result, d.reason) == ("draw", "no-crystal"), "KO-20"
        else:
            assert (d.reason, sorted(d.alliance)) == (reason, sorted([s.warbands[winner].id, s.warbands[winner + 2].id])), "KO-6.4"

    def invariants(self, s: Any) -> None:
        opts = s.options
        O.occ(s)  # one miniature a square
        if opts.chapter >= 2:  # Content/ch.2 I: 20 mana a character board, none made or lost
            for w in s.warbands:
                total = w.supply + sum(w.attack) + sum(w.defence) + w.pool + w.pending + (2 if w.charged else 0)
                assert total == 20, f"{w.id}: {total} mana"
                assert w.pool <= 5, "ch.3 I: the pool holds at most 5"
        # KO-29/KO-6.1: the crystals of the match are on the Citadel, captured, or still to come
        assert s.crystals_left + s.on_citadel + sum(w.crystals for w in s.warbands) == opts.rounds
        if s.round >= 1 or s.step not in ("skills", "place"):  # (once every warband has placed its army)
            for w in s.warbands:
                for i, c in enumerate(O.CLASSES):
                    on = sum(1 for p in s.pieces if p.warband == w.id and p.character == c)
                    assert on + w.beaten[i] == O.ARMY[c], f"{w.id} {c}: {on} on the board, {w.beaten[i]} beaten"
            gone = [w for w in s.warbands if not any(p.warband == w.id for p in s.pieces)]
            if opts.wipeout == "player":  # KO-21: a player's every warband
                gone = [w for w in gone if all(x in gone for x in s.warbands if x.player == w.player)]
            if opts.wipeout != "never" and gone:
                assert s.result is not None and s.result.reason == "wipeout", "KO-21: a wiped-out warband ends the match"


@settings(max_examples=10)
@given(matches())
def test_the_engine_lists_what_the_rules_allow_and_does_what_they_say(m: tuple[E.MatchStarted, int]) -> None:
    match, seed = m
    Audit(match, seed, probes=0).run(max_events=300)


@settings(max_examples=6)
@given(matches())
def test_what_the_rules_forbid_is_refused_under_the_rule_that_forbids_it(m: tuple[E.MatchStarted, int]) -> None:
    match, seed = m
    Audit(match, seed, probes=6).run(max_events=200)


@settings(max_examples=6)
@given(matches(), st.sampled_from([{}, {"tuatha": "hammer", "krell": "spear", "ishtari": "whip", "firbolg": "sword"}]))
def test_titan_weapons_and_powers_with_charged_weapons_and_full_pools(m: tuple[E.MatchStarted, int],
                                                                      weapons: dict[str, str]) -> None:
    """Chapter 3 with every warband's weapon charged and pool full at each turn's start: the
    Sword, Whip, Spear, Hammer, Initiative, Earthquake and Rebirth both ways."""
    match, seed = m
    match = msgspec.structs.replace(match, ruleset="chapter-3",
                                    options={**match.options, "weapons": weapons} if weapons else match.options)
    Audit(match, seed, probes=5, boost=True).run(max_events=220)


@st.composite
def crowded(draw: Any) -> Any:
    """A chapter-3 position at the move of a Tua'tha miniature (mostly the Colossus): miniatures of
    every warband crowded in a corner of the board, uneven ground, random Defence skills, a charged
    weapon of any kind, any movement points."""
    c0, r0 = draw(st.integers(0, 5)), draw(st.integers(1, 6))  # a 6x6 window of the board, crowded
    squares = [f"{c}{r}" for c in "abcdefghijk"[c0:c0 + 6] for r in range(r0, r0 + 6)]
    chosen = draw(st.lists(st.sampled_from(squares), min_size=6, max_size=22, unique=True))
    codes = [draw(st.sampled_from("TKIF")) + draw(st.sampled_from("wwwgc")) for _ in chosen[1:]]
    mover = draw(st.sampled_from(["colossus", "colossus", "guardian", "warrior"]))
    spec, count = {chosen[0]: "T" + mover[0]}, {"T" + mover[0]: 1}
    for sq, code in zip(chosen[1:], codes):  # (no warband has more miniatures of a class than its army)
        if count.get(code, 0) < O.ARMY[{"w": "warrior", "g": "guardian", "c": "colossus"}[code[1]]]:
            spec[sq], count[code] = code, count.get(code, 0) + 1
    opts = {"defence_mode": draw(st.sampled_from(["cost", "threshold"])), "colossus_beatable": draw(st.booleans()),
            "allies_as_own": draw(st.booleans()), "allow_reversal": draw(st.booleans()),
            "crystal_capture": draw(st.sampled_from(["end-of-move", "on-enter"]))}
    ground = draw(st.dictionaries(st.sampled_from(squares), st.integers(1, 4), max_size=14))
    s = position(spec, step="move", ruleset="chapter-3", options=opts, character=mover, mp=draw(st.integers(0, 13)),
                 board_levels=draw(st.booleans()), levels=ground, on_citadel=draw(st.integers(0, 2)))
    weapon = draw(st.sampled_from(["sword", "whip", "spear", "hammer"]))
    for w in ("tuatha", "krell", "ishtari", "firbolg"):
        dfc = tuple(draw(st.integers(0, 3)) for _ in range(3))
        beaten = tuple(O.ARMY[c] - sum(1 for p in s.pieces if p.warband == w and p.character == c) for c in O.CLASSES)
        s = with_warband(s, w, defence=dfc, supply=max(0, 16 - sum(dfc)), attack=(0, 0, 0), pool=0, beaten=beaten)
    return with_warband(s, "tuatha", weapon=weapon, charged=True, pool=draw(st.integers(0, 5)))


@settings(max_examples=60)
@given(crowded(), st.randoms(use_true_random=False))
def test_titan_weapons_in_crowded_positions(s: Any, rnd: random.Random) -> None:
    """Ch.3 II on positions crowded with miniatures: the moves with and without the Sword or Whip,
    then the Spear's and the Hammer's targets after every sampled move, both ways, and their effects."""
    audit = Audit(s.setup, rnd.randrange(10**6), probes=0)
    listed = GAME.legal_events(s)
    audit.same_set(s, listed)
    audit.probe_move(s, s.warbands[s.seat].id)
    for e in rnd.sample(listed, min(8, len(listed))):
        s2, derived = settle(GAME, GAME.apply(s, e))
        audit.moved(s, e, [d for d in derived if type(d) is E.MiniatureBeaten],
                    [d for d in derived if type(d) is E.CrystalsCaptured], s2)
        if GAME.outcome(s2) is not None or s2.step != "act":
            continue
        after = GAME.legal_events(s2)
        audit.same_set(s2, after)
        audit.probe_act(s2, s2.warbands[s2.seat].id)
        powers = [x for x in after if type(x) in (E.WeaponUsed, E.EarthquakeUsed, E.RebirthUsed)]
        for x in [x for x in powers if type(x) is E.WeaponUsed][:4] + rnd.sample(powers, min(4, len(powers))):
            s3, derived3 = settle(GAME, GAME.apply(s2, x))
            audit.effect(s2, x, derived3, s3)


def test_every_chapter_and_seating_of_the_sample_set_ups() -> None:
    """The generated set-ups of every other property (sample_setup: chapters 1-3, 2-4 players, with
    and without a generator) played to their end against the oracle."""
    for seed in range(6):
        Audit(GAME.sample_setup(seed), seed, probes=2).run(max_events=2000)


# -- regressions: the disagreements the properties found ---------------------------------------------
def test_on_enter_capture_also_takes_the_crystals_where_a_move_of_no_steps_ends() -> None:
    """KO-18: ``on-enter`` is "passing over the Citadel *also* captures"; ending a move there still
    does, and a move of no steps by a miniature already on the Citadel ends there (found by the
    audit: the engine read ``on-enter`` as entering only, so a Colossus resting on f6 took nothing)."""
    for mode in ("end-of-move", "on-enter"):
        st_ = position({"f6": "Tc"}, step="move", character="colossus", mp=3, board_levels=True, on_citadel=2,
                       options={"crystal_capture": mode})
        ruling, derived, _ = propose(GAME, st_, moved(["f6"]))
        assert ruling.legal, ruling
        assert derived == [E.CrystalsCaptured(warband=T, count=2)], mode
        # leaving the Citadel takes nothing in either reading
        ruling, derived, _ = propose(GAME, st_, moved(["f6", "f7"]))
        assert ruling.legal and derived == [], mode


@settings(max_examples=4)
@given(matches())
def test_every_seat_sees_the_whole_match(m: tuple[E.MatchStarted, int]) -> None:
    """Seed 002 hides nothing: the board, the dice, the character boards and the mana are all on
    the table, so every player's seat record (``redact_log``) is the full log, event for event."""
    match, seed = m
    events, _ = playout(GAME, seed, max_events=150, setup=match, with_derived=True)
    full = to_jsonl(events)
    for player in match.players:
        record = list(redact_log(parse_log(full, "full"), player))
        assert [O.key(e) for e in record] == [O.key(e) for e in events], player


@settings(max_examples=40)
@given(st.permutations(["NW", "NE", "SE", "SW"]), st.lists(st.sampled_from(["ann", "ben", "cat", "dan", "eve"]),
                                                          min_size=4, max_size=4))
def test_a_set_up_is_legal_exactly_when_the_seats_are_the_rules_seats(corners: list[str], owners: list[str]) -> None:
    """Ch.1 II: four warbands in the four corners, listed clockwise from the first player (KO-1.1);
    2 to 4 players, a player with two warbands commanding an alliance of opposite seats (KO-1.2)."""
    seats = list(zip(["tuatha", "krell", "ishtari", "firbolg"], owners, corners))
    players = list(dict.fromkeys(owners))
    clockwise = ["NW", "NE", "SE", "SW"]
    k = clockwise.index(corners[0])
    ok_order = corners == clockwise[k:] + clockwise[:k]
    ok_players = 2 <= len(players) <= 4 and all(
        owners.count(p) == 1 or (owners.count(p) == 2 and owners.index(p) + 2 == len(owners) - 1 - owners[::-1].index(p))
        for p in players)
    _state, ruling, _ = start(GAME, setup(seats=seats))
    assert ruling.legal == (ok_order and ok_players), (seats, ruling)
    if not ruling.legal:
        assert ruling.rule == ("KO-1.1" if not ok_order else "KO-1.2"), ruling


def test_the_board_holds_the_contents_of_the_box() -> None:
    """Content and ch.1 I: 49 landscapes (24 Woods at level 2, 16 Hills at 3, 8 Mountains at 4,
    the Citadel at 5) on a board of level 1 with 11 + 11 = 22 regions; ch.1 II: each warband's
    8 miniatures start in its own corner, and the corners of allied seats are diagonally opposite."""
    s = GAME.initial_state(setup("chapter-1"))
    g = O.geo(s)
    counts = {lv: list(s.levels).count(lv) for lv in (1, 2, 3, 4, 5)}
    assert counts == {1: 121 - 49, 2: 24, 3: 16, 4: 8, 5: 1}
    assert len(g.regions()) == 22 and O.level(s, g, s.citadel) == 5
    for w in s.warbands:
        zone = O.zone_of(s, w)
        assert len(zone) >= 8 and all(O.level(s, g, q) == 1 for q in zone), w.corner
    corners = [w.corner for w in s.warbands]
    assert {corners[0], corners[2]} in ({"NW", "SE"}, {"NE", "SW"})
