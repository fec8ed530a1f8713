"""Kolossus rules: pure check / apply / derive / legal events.

``check`` raises :class:`Illegal` inside helpers and returns a Ruling; it never mutates.
``apply`` builds a new immutable State; it assumes the event was checked.
``derive`` returns the next consequence the rules force: first the reports of what a decision
did (a miniature beaten, crystals captured), then a due end of the match, then the derived steps
(a round or a turn starting, the end after the last round).
``legal_events`` enumerates candidates and keeps those ``check`` accepts, so the two can never
disagree.  No clock, no global random source, no iteration over sets: every order here is a list
or board order.  Dice are recorded events; a declared generator is a locally seeded
``random.Random(seed)`` whose sequence is a pure function of the seed.
"""

from __future__ import annotations

import random
import threading
from itertools import combinations, product
from collections.abc import Callable, Iterator
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kit import Owed, RulesBase, applies, checks
from adjudicator.core.rulings import Illegal, Ruling, Undefined, legal

from . import events as E
from .board import DIRECTION_OF, DIRECTIONS, OPPOSITE, Board, load_board, step_name
from .state import (
    ARMY, CHARACTERS, COST, DICE, EARTHQUAKE_COST, INITIAL_SKILLS, MANA, POOL_MAX, REBIRTH_COST,
    WARBANDS, WEAPON_CHARGE, WEAPONS, Activation, Piece, Result, State, Warband,
)

NS = "kolossus/"
CI = {"warrior": 0, "guardian": 1, "colossus": 2}
RNGS = ("python-random",)
#: steps that the engine derives (nobody acts there)
DERIVED_STEPS = ("round-start", "turn-start", "game-end", "over")


def bad(rule: str, code: str, message: str) -> Illegal:
    return Illegal(rule, NS + code, message)


def title(c: str) -> str:
    return c.capitalize()


def wname(w: str) -> str:
    return WARBANDS.get(w, w)


def board_of(s: State) -> Board:
    return load_board(s.options.board, s.setup.board_sha256)


class Walk:
    """What a checked move does: the path (board indices), the miniatures it beats, what is left."""

    __slots__ = ("path", "beaten", "left", "capture", "mover", "turn_at", "defence_paid")

    def __init__(self, path: list[int], beaten: list[Piece], left: int, capture: bool, mover: Piece,
                 turn_at: int, defence_paid: int) -> None:
        self.path = path
        self.beaten = beaten
        self.left = left
        self.capture = capture
        self.mover = mover
        self.turn_at = turn_at
        self.defence_paid = defence_paid


def _ray(step: tuple[int, ...], path: list[int], mp: int,
         blocked: Callable[[int, int], tuple[bool, bool]]) -> Iterator[tuple[list[int], bool]]:
    """The paths that extend ``path`` square by square along one direction (``step``: the next
    square of each, -1 off the board) within ``mp`` steps, each with whether the move must stop
    there; a square that cannot be entered ends the ray."""
    path = list(path)
    sq = path[-1]
    while len(path) - 1 < mp:
        nxt = step[sq]
        if nxt < 0:
            return
        stop, halt = blocked(sq, nxt)
        if stop:
            return
        path.append(nxt)
        sq = nxt
        yield list(path), halt
        if halt:
            return


class Rules(RulesBase):
    """The Kolossus rules; positions name their board, so nothing here is bound to a match."""

    namespace = NS

    def __init__(self) -> None:
        self._occ: tuple[Any, dict[str, Piece]] | None = None
        self._walk: tuple[Any, Any, Walk] | None = None
        #: seed -> (generator, the results it gave so far): a cache of a pure function of the seed
        self._gens: dict[int, tuple[random.Random, list[int]]] = {}
        #: the generators advance in place: one thread at a time (the web service verifies
        #: uploads on worker threads; two matches of one seed must each see its sequence)
        self._gens_lock = threading.Lock()

    # -- small helpers -----------------------------------------------------------------------------
    def occupancy(self, s: State) -> dict[str, Piece]:
        c = self._occ
        if c is not None and c[0] is s.pieces:
            return c[1]
        occ = {p.square: p for p in s.pieces}
        self._occ = (s.pieces, occ)
        return occ

    def allied(self, s: State, a: str, b: str) -> bool:
        return s.seat_of(a) % 2 == s.seat_of(b) % 2

    def defence(self, s: State, p: Piece) -> int:
        if s.options.chapter < 2:
            return 0
        w = s.wb(p.warband)
        return w.defence[CI[p.character]] if w is not None else 0

    def generated(self, seed: int, start: int, n: int) -> list[int]:
        with self._gens_lock:
            ent = self._gens.get(seed)
            if ent is None:
                if len(self._gens) > 256:
                    self._gens.clear()
                ent = (random.Random(seed), [])
                self._gens[seed] = ent
            rng, seq = ent
            while len(seq) < start + n:
                seq.append(rng.randint(1, 4))
            return seq[start:start + n]

    def can_activate(self, s: State, p: Piece, warband: str, character: str) -> bool:
        return (p.warband == warband and p.character == character and not p.activated
                and (not p.reborn or s.options.rebirth_can_activate))

    def activatable(self, s: State, warband: str, character: str) -> list[Piece]:
        return [p for p in s.pieces if self.can_activate(s, p, warband, character)]

    def mana_gain(self, s: State, value: int, supply: int) -> int:
        if not 1 <= value <= 4:
            return 0
        return max(0, min(s.options.mana_table[value - 1], supply))

    def quake_seat(self, s: State, order: int) -> int | None:
        """The seat of the ``order``-th Great Quake move (skipping players who moved, KO-7)."""
        for k in range(order, 4):
            seat = (s.first + k) % 4
            if s.options.quake_moves == "warband" or s.warbands[seat].player not in s.quakers:
                return k
        return None

    def players_of(self, s: State, alliance: int) -> str:
        out: list[str] = []
        for i in (alliance, alliance + 2):
            p = s.warbands[i].player
            if p not in out:
                out.append(p)
        return "+".join(out)

    def win(self, s: State, alliance: int, reason: str) -> Result:
        return Result("win", self.players_of(s, alliance),
                      (s.warbands[alliance].id, s.warbands[alliance + 2].id), reason)

    # -- what happens next ------------------------------------------------------------------------------
    step_rule = "KO-4.1"

    def owed(self, s: State, e: Any = None) -> Owed:
        """What the position waits for: the mana a turn gave is owed by KO-7.2 (and a ManaAllocated
        with none to allocate breaks KO-7.1); every other step by the general rule KO-4.1."""
        if s.result is not None:
            return Owed("nothing (the match is over)")
        if s.queue or s.ending is not None or s.step in DERIVED_STEPS:
            return Owed("a derived event")
        if len(s.warbands) != 4:
            return Owed("nothing (the set-up does not seat four warbands)")
        w = s.current.id
        a = s.activation
        if type(e) is E.ManaAllocated and s.step != "allocate":
            # (by any warband: no mana waits for anyone, so KO-7.1 is the rule broken, not whose step it is)
            return Owed(self._expects(s, w, a), "KO-7.1", "no mana waits to be allocated: a turn gives 4 minus the "
                        "die of destiny, so a roll of 4 gives none, and what a turn gave was allocated already")
        rule, why = {
            "quake-shift": (None, f"the Great Quake: the roll of {s.quake_roll} slides a region"),
            "allocate": ("KO-7.2", f"the turn gave {s.current.pending} mana, which goes to the skills before play "
                                   "goes on"),
        }.get(s.step, (None, ""))
        return Owed(self._expects(s, w, a), rule, why, w)

    def _expects(self, s: State, w: str, a: Activation | None) -> str:
        return {
            "skills": f"SkillsChosen by {w}",
            "place": f"MiniaturesPlaced by {w}",
            "quake-roll": f"QuakeRolled by {w}",
            "quake-shift": f"QuakeShifted by {w}",
            "allocate": f"ManaAllocated by {w}",
            "destiny": f"DestinyRolled by {w}",
            "act": f"an activation, a Titan Power or TurnEnded by {w} ({s.points} activation points left)",
            "roll": f"MovementRolled by {w} ({DICE[a.character] if a else '?'} dice for the {title(a.character) if a else '?'})",
            "move": f"MiniatureMoved by {w} (a {title(a.character) if a else '?'} with {a.mp if a else '?'} movement points)",
        }.get(s.step, s.step)

    def expected(self, s: State) -> str:
        o = self.owed(s)
        return f"{o.expects} ({o.why})" if o.why else o.expects

    def actor(self, s: State, e: Any, *steps: str) -> Warband:
        """The acting warband: known, at a step allowing the event, and the one whose step it is."""
        if s.wb(e.warband) is None:
            raise bad("KO-4.1", "unknown-warband", f"{type(e).__name__}: {e.warband!r} is not a warband of this match "
                      f"({', '.join(w.id for w in s.warbands)})")
        if s.result is not None or s.queue or s.ending is not None or s.step not in steps:
            raise self.out_of_step(s, e)
        if e.warband != s.current.id:
            raise bad("KO-4.1", "not-your-step", f"{type(e).__name__} by {e.warband}: it is {s.current.id}'s step "
                      f"({self.expected(s)})")
        return s.current

    def chapter(self, s: State, e: Any, n: int, rule: str) -> None:
        if s.options.chapter < n:
            raise bad(rule, "chapter", f"{type(e).__name__} belongs to chapter {n}; this match plays chapter {s.options.chapter}")

    def square(self, s: State, name: Any, rule: str, what: str) -> int:
        i = board_of(s).index.get(name) if isinstance(name, str) else None
        if i is None:
            raise bad(rule, "unknown-square", f"{what}: {name!r} is not a square of the {board_of(s).size}x{board_of(s).size} board")
        return i

    def dice(self, s: State, e: Any, values: list[int], n: int) -> None:
        if len(values) != n:
            raise bad("KO-4.5", "dice-count", f"{type(e).__name__} records {len(values)} dice; this roll takes {n} d4")
        for v in values:
            if not 1 <= v <= 4:
                raise bad("KO-2.1", "not-a-d4", f"{type(e).__name__}: {v} is not the result of a d4 (1 to 4)")
        setup = s.setup
        if setup.rng is not None and setup.seed is not None:
            want = self.generated(setup.seed, s.rolls, n)
            if list(values) != want:
                first = s.rolls + 1
                which = f"die {first}" if n == 1 else f"dice {first}-{first + n - 1}"
                raise bad("KO-2.2", "roll-mismatch", f"{type(e).__name__} records {list(values)}; the declared generator "
                          f"{setup.rng} (seed {setup.seed}) gives {want} for {which} of the match")

    def skills(self, s: State, e: Any, rule: str) -> tuple[tuple[int, int, int], tuple[int, int, int], int]:
        att, dfc = [0, 0, 0], [0, 0, 0]
        for name, target in (("attack", att), ("defence", dfc)):
            for k, v in getattr(e, name).items():
                if k not in CI:
                    raise bad(rule, "unknown-class", f"{type(e).__name__}: {name} names {k!r}; the classes are warrior, guardian, colossus")
                if v < 0:
                    raise bad(rule, "negative", f"{type(e).__name__}: {name}.{k} is {v}; mana cannot be taken back")
                target[CI[k]] = v
        return (att[0], att[1], att[2]), (dfc[0], dfc[1], dfc[2]), sum(att) + sum(dfc)

    def skill_cap(self, s: State, e: Any, w: Warband, att: tuple[int, ...], dfc: tuple[int, ...], rule: str) -> None:
        cap = s.options.skill_cap
        if cap is None:
            return
        for name, now, add in (("attack", w.attack, att), ("defence", w.defence, dfc)):
            for i, c in enumerate(CHARACTERS):
                if now[i] + add[i] > cap:
                    raise bad("KO-24", "skill-cap", f"{type(e).__name__}: {c} {name} would hold {now[i] + add[i]} mana; "
                              f"the ruleset caps a skill at {cap}")

    # -- the check ----------------------------------------------------------------------------------------
    # (the kit's wrapper RulesBase.check calls these, then the @checks handler)
    def not_proposed(self, s: State, e: Any) -> Illegal:
        return bad("KO-4.1", "derived-event", f"{type(e).__name__} is derived by the engine; it is never proposed")

    def precheck(self, s: State, e: Any) -> None:
        if len(s.warbands) != 4:
            raise bad("KO-1.1", "four-seats", f"{type(e).__name__}: the set-up seats {len(s.warbands)} warbands, "
                      f"so nothing can be played")

    # set-up ----------------------------------------------------------------------------------------------
    @checks(E.SkillsChosen, rule="KO-1.3")
    def c_skills(self, s: State, e: E.SkillsChosen) -> None:
        w = self.actor(s, e, "skills")
        att, dfc, total = self.skills(s, e, "KO-1.3")
        if total != INITIAL_SKILLS:
            raise bad("KO-1.3", "skills-total", f"SkillsChosen by {w.id} puts {total} mana on skills; exactly {INITIAL_SKILLS} are distributed")
        self.skill_cap(s, e, w, att, dfc, "KO-1.3")

    @checks(E.MiniaturesPlaced, rule="KO-1.4")
    def c_placed(self, s: State, e: E.MiniaturesPlaced) -> None:
        w = self.actor(s, e, "place")
        b = board_of(s)
        if len(e.guardians) != ARMY["guardian"] or len(e.warriors) != ARMY["warrior"]:
            raise bad("KO-1.4", "army", f"MiniaturesPlaced by {w.id} places {len(e.guardians)} Guardians and {len(e.warriors)} "
                      f"Warriors; a warband has 1 Colossus, 2 Guardians and 5 Warriors")
        zone = b.corners[w.corner]
        seen: list[str] = []
        for sq in [e.colossus, *e.guardians, *e.warriors]:
            i = self.square(s, sq, "KO-1.4", f"MiniaturesPlaced by {w.id}")
            if sq in seen:
                raise bad("KO-1.4", "same-square", f"MiniaturesPlaced by {w.id} places two miniatures on {sq}")
            if i not in zone:
                raise bad("KO-1.4", "outside-zone", f"MiniaturesPlaced by {w.id}: {sq} is not in its start zone {w.corner} "
                          f"({', '.join(b.names[j] for j in zone)})")
            seen.append(sq)

    # dice --------------------------------------------------------------------------------------------------
    @checks(E.QuakeRolled, rule="KO-3.1")
    def c_quake_roll(self, s: State, e: E.QuakeRolled) -> None:
        self.actor(s, e, "quake-roll")
        self.dice(s, e, [e.value], 1)

    @checks(E.DestinyRolled, rule="KO-4.2")
    def c_destiny(self, s: State, e: E.DestinyRolled) -> None:
        self.actor(s, e, "destiny")
        self.dice(s, e, [e.value], 1)

    @checks(E.MovementRolled, rule="KO-4.5")
    def c_move_roll(self, s: State, e: E.MovementRolled) -> None:
        self.actor(s, e, "roll")
        a = s.activation
        assert a is not None
        self.dice(s, e, e.dice, DICE[a.character])

    # regions -----------------------------------------------------------------------------------------------
    def region(self, s: State, e: Any, rule_axis: str, rule_region: str) -> tuple[int, ...]:
        """The squares of the region an event slides, checked to exist and to slide along itself."""
        b = board_of(s)
        line = b.regions.get(e.region) if isinstance(e.region, str) else None
        if line is None:
            raise bad(rule_region, "unknown-region", f"{type(e).__name__}: {e.region!r} is not a region of this board "
                      f"(row-1 .. row-{b.size}, column-a .. column-{b.names[b.size - 1][0]})")
        dirs = b.region_directions(e.region)
        if e.direction not in dirs:
            raise bad(rule_axis, "wrong-direction", f"{type(e).__name__}: {e.region} is a {b.region_axis(e.region)}; "
                      f"it slides {dirs[0]} or {dirs[1]}, not {e.direction}")
        return line

    def citadel_stays(self, s: State, e: Any, line: tuple[int, ...], distance: int, rule: str) -> None:
        b = board_of(s)
        cit = b.index[s.citadel]
        if cit in line:
            k = line.index(cit) + (distance if e.direction == b.region_directions(e.region)[0] else -distance)
            if not 0 <= k < len(line):
                raise bad(rule, "citadel-off-board", f"{type(e).__name__}: sliding {e.region} {distance} {e.direction} "
                          f"would push the Citadel of Time from {s.citadel} off the board")

    @checks(E.QuakeShifted, rule="KO-3.4")
    def c_quake_shift(self, s: State, e: E.QuakeShifted) -> None:
        self.actor(s, e, "quake-shift")
        b = board_of(s)
        line = self.region(s, e, "KO-3.4", "KO-3.2")
        if s.options.quake_regions == "central" and e.region not in b.central_regions:
            raise bad("KO-3.2", "not-central", f"QuakeShifted: {e.region} is not one of the central regions "
                      f"({', '.join(b.central_regions)})")
        if e.region in s.quaked:
            raise bad("KO-3.3", "region-moved", f"QuakeShifted: {e.region} already moved in the Great Quake")
        roll = s.quake_roll
        if s.options.quake_distance == "exact":
            if e.distance != roll:
                raise bad("KO-3.4", "distance", f"QuakeShifted moves {e.region} {e.distance} squares; the Great Quake die "
                          f"shows {roll}, so it moves exactly {roll} (KO-4)")
        elif not 1 <= e.distance <= roll:
            raise bad("KO-3.4", "distance", f"QuakeShifted moves {e.region} {e.distance} squares; the die shows {roll}, "
                      f"so 1 to {roll} (KO-4, up-to)")
        self.citadel_stays(s, e, line, e.distance, "KO-3.5")

    # turns -------------------------------------------------------------------------------------------------
    @checks(E.InitiativeUsed, rule="KO-8.6")
    def c_initiative(self, s: State, e: E.InitiativeUsed) -> None:
        self.chapter(s, e, 3, "KO-8.6")
        w = self.actor(s, e, "act")
        if s.initiative:
            raise bad("KO-8.6", "once", f"InitiativeUsed by {w.id}: Initiative was already used this turn")
        if s.acted:
            raise bad("KO-8.6", "too-late", f"InitiativeUsed by {w.id}: Initiative is used right after the die of destiny, "
                      f"before anything else this turn")
        if s.destiny >= 4:
            raise bad("KO-8.6", "max-four", f"InitiativeUsed by {w.id}: the die of destiny shows {s.destiny}; it cannot go above 4")
        if w.pool < 1:
            raise bad("KO-8.6", "pool", f"InitiativeUsed by {w.id}: costs 1 mana from the pool, which holds {w.pool}")

    @checks(E.ActivationDeclared, rule="KO-4.3")
    def c_activation(self, s: State, e: E.ActivationDeclared) -> None:
        w = self.actor(s, e, "act")
        c = e.character
        if COST[c] > s.points:
            raise bad("KO-4.3", "points", f"ActivationDeclared by {w.id}: a {title(c)} costs {COST[c]} activation points; "
                      f"{s.points} left of {s.destiny}")
        if s.options.choose_after_roll:
            if e.square is not None:
                raise bad("KO-11", "square-named", f"ActivationDeclared by {w.id} names {e.square}; the miniature is chosen "
                          f"after the movement roll (choose_after_roll)")
            if not any(self.can_activate(s, p, w.id, c) for p in s.pieces):
                raise bad("KO-4.4", "none-left", self.none_left(s, w, c))
            return
        if e.square is None:
            raise bad("KO-11", "square-missing", f"ActivationDeclared by {w.id}: with choose_after_roll off the miniature "
                      f"is named when declaring (square)")
        self.square(s, e.square, "KO-5.1", f"ActivationDeclared by {w.id}")
        p = self.occupancy(s).get(e.square)
        self.mover_ok(s, w, c, p, e.square, "ActivationDeclared")

    def none_left(self, s: State, w: Warband, c: str) -> str:
        mine = [p for p in s.pieces if p.warband == w.id and p.character == c]
        if not mine:
            return f"ActivationDeclared by {w.id}: no {c} of {wname(w.id)} is on the board"
        return (f"ActivationDeclared by {w.id}: every {c} of {wname(w.id)} on the board "
                f"({', '.join(p.square for p in mine)}) was already activated this turn"
                + (" or was reborn this turn (KO-27)" if any(p.reborn for p in mine) else ""))

    def mover_ok(self, s: State, w: Warband, c: str, p: Piece | None, sq: str, what: str) -> Piece:
        if p is None:
            raise bad("KO-5.1", "no-miniature", f"{what} by {w.id}: there is no miniature on {sq}")
        if p.warband != w.id:
            raise bad("KO-5.1", "not-own", f"{what} by {w.id}: the miniature on {sq} is the {wname(p.warband)} {title(p.character)}")
        if p.character != c:
            raise bad("KO-5.1", "wrong-class", f"{what} by {w.id}: the miniature on {sq} is a {title(p.character)}; "
                      f"the activation is for a {title(c)}")
        if p.activated:
            raise bad("KO-4.4", "already-activated", f"{what} by {w.id}: the {title(c)} on {sq} was already activated this turn")
        if p.reborn and not s.options.rebirth_can_activate:
            raise bad("KO-27", "reborn-rests", f"{what} by {w.id}: the {title(c)} on {sq} was reborn this turn and cannot be "
                      f"activated until the next (rebirth_can_activate)")
        return p

    @checks(E.TurnEnded, rule="KO-4.6")
    def c_turn_end(self, s: State, e: E.TurnEnded) -> None:
        w = self.actor(s, e, "act")
        if s.options.must_spend_all:
            for c in CHARACTERS:
                if COST[c] <= s.points and self.activatable(s, w.id, c):
                    raise bad("KO-10", "points-left", f"TurnEnded by {w.id}: {s.points} activation points are left and a "
                              f"{c} can still be activated (must_spend_all)")

    @checks(E.ManaAllocated, rule="KO-7.2")
    def c_allocate(self, s: State, e: E.ManaAllocated) -> None:
        self.chapter(s, e, 2, "KO-7.2")
        w = self.actor(s, e, "allocate")
        att, dfc, skills = self.skills(s, e, "KO-7.2")
        if e.pool < 0 or e.weapon < 0:
            raise bad("KO-7.2", "negative", f"ManaAllocated by {w.id}: pool {e.pool}, weapon {e.weapon}; amounts are not negative")
        total = skills + e.pool + e.weapon
        if total > w.pending:
            raise bad("KO-7.2", "too-much", f"ManaAllocated by {w.id} allocates {total} mana; {w.pending} were gained this turn")
        if s.options.chapter < 3 and (e.pool or e.weapon):
            raise bad("KO-7.2", "pool-before-chapter-3", f"ManaAllocated by {w.id}: the mana pool and Titan Weapons belong to "
                      f"chapter 3; this match plays chapter {s.options.chapter}")
        if w.pool + e.pool > POOL_MAX:
            raise bad("KO-7.2", "pool-full", f"ManaAllocated by {w.id}: the pool would hold {w.pool + e.pool} mana; at most {POOL_MAX}")
        if e.weapon:
            if e.weapon != WEAPON_CHARGE:
                raise bad("KO-7.2", "weapon-charge", f"ManaAllocated by {w.id}: a Titan Weapon is charged with exactly "
                          f"{WEAPON_CHARGE} mana, not {e.weapon}")
            if w.weapon is None:
                raise bad("KO-7.2", "no-weapon", f"ManaAllocated by {w.id}: its Colossus has no Titan Weapon to charge (KO-25)")
            if w.charged:
                raise bad("KO-7.2", "weapon-charged", f"ManaAllocated by {w.id}: the {WEAPONS[w.weapon or 'sword']} is already charged")
        self.skill_cap(s, e, w, att, dfc, "KO-7.2")

    # movement --------------------------------------------------------------------------------------------------
    def resolve_path(self, e: E.MiniatureMoved) -> list[str]:
        compact = e.start is not None or e.direction is not None or e.steps is not None or e.turn is not None \
            or e.turn_steps is not None
        if not compact:
            if not e.path:
                raise bad("KO-5.2", "empty-path", "MiniatureMoved names no path (a move of no steps is the path of its own square)")
            return list(e.path)
        if e.start is None:
            raise bad("KO-5.2", "compact-incomplete", "MiniatureMoved: a move given by direction needs its start square")
        steps = e.steps or 0
        turn_steps = e.turn_steps or 0
        if steps < 0 or turn_steps < 0:
            raise bad("KO-5.2", "bad-length", f"MiniatureMoved: steps {steps}, turn_steps {turn_steps}; lengths are not negative")
        if steps and e.direction is None:
            raise bad("KO-5.2", "compact-incomplete", f"MiniatureMoved: {steps} steps from {e.start} need a direction")
        if (e.turn is None) != (e.turn_steps is None) or (e.turn is not None and (steps < 1 or turn_steps < 1 or e.turn == e.direction)):
            raise bad("KO-5.2", "bad-turn", "MiniatureMoved: a change of direction needs steps before it, a new direction "
                      "(turn) and steps after it (turn_steps)")
        if steps + turn_steps > 60:
            raise bad("KO-5.4", "too-far", f"MiniatureMoved: {steps + turn_steps} steps; no board is that large")
        path = [e.start]
        at: str | None = e.start
        for direction, n in ((e.direction, steps), (e.turn, turn_steps)):
            for _ in range(n):
                nxt = step_name(at, direction, 1) if at is not None else None
                if nxt is None:
                    raise bad("KO-5.2", "off-board", f"MiniatureMoved: step {len(path)} from {at} {direction} leaves the board")
                path.append(nxt)
                at = nxt
        if e.path and list(e.path) != path:
            raise bad("KO-5.2", "path-mismatch", f"MiniatureMoved gives the path {e.path} and a direction form that "
                      f"walks {path}; they must agree")
        return path

    def walk(self, s: State, e: E.MiniatureMoved) -> Walk:
        """Check a move square by square; the result says what it does."""
        c = self._walk
        if c is not None and c[0] is s and c[1] is e:
            return c[2]
        w, names, start, occ, mover = self._walk_start(s, e)
        a = s.activation
        assert a is not None
        ch = a.character
        weapon = e.weapon
        if weapon is not None:
            self._check_weapon(s, e, w, ch, weapon)
        opts = s.options
        b = board_of(s)
        index, size, levels = b.index, b.size, s.levels
        mp = a.mp
        colossus = ch == "colossus"
        cost_mode = opts.defence_mode == "cost"
        n = len(names) - 1
        path = [start]
        prev_dir: str | None = None
        turn_at = 0
        extra = 0
        beaten: list[Piece] = []
        for i in range(1, n + 1):
            an, tn = names[i - 1], names[i]
            t = index.get(tn) if isinstance(tn, str) else None
            here = path[-1]
            if t is None:
                raise bad("KO-5.2", "off-board", f"step {i} {an}->{tn}: {tn!r} is not a square of the board")
            dname = DIRECTION_OF.get((t % size - here % size, t // size - here // size))
            if dname is None:
                raise bad("KO-5.2", "not-a-step", f"step {i} {an}->{tn} is not a step to a neighbouring square")
            if prev_dir is not None and dname != prev_dir:
                turn_at = _turn(i, an, tn, ch, prev_dir, dname, turn_at, opts.allow_reversal)
            prev_dir = dname
            if i + extra > mp:
                raise bad("KO-5.4", "too-far", f"step {i} {an}->{tn} is beyond the {mp} movement points"
                          + (f" ({extra} already paid for Defence)" if extra else ""))
            if not colossus and abs(levels[t] - levels[here]) > 1:
                _jump(i, an, tn, levels[here], levels[t])
            path.append(t)
            p = occ.get(tn)
            if p is None or p is mover or p in beaten:
                continue
            dfc = self._meet(s, e, w, p, i, n, names, mp - i - extra)
            if dfc is None:
                continue
            if cost_mode:
                extra += dfc
            beaten.append(p)
        self._weapon_used(weapon, beaten, path, index)
        result = Walk(path, beaten, mp - n - extra, self._captures(s, path, index), mover, turn_at, extra)
        self._walk = (s, e, result)
        return result

    def stood_walk(self, s: State, e: E.MiniatureMoved) -> Walk:
        """What an illegal move does when a judge's ruling lets it stand (KO-40): the miniature on
        the path's first square goes to its last square, beating an enemy miniature there; the
        squares between are not walked.  A path off the board, no miniature to move, or a last
        square held by an own or allied miniature has no defined effect (:class:`Undefined`)."""
        b = board_of(s)
        try:
            names = self.resolve_path(e)
        except Illegal as x:
            raise Undefined(x.message) from None
        path: list[int] = []
        for name in names:
            i = b.index.get(name) if isinstance(name, str) else None
            if i is None:
                raise Undefined(f"MiniatureMoved: {name!r} is not a square of the {b.size}x{b.size} board")
            path.append(i)
        occ = self.occupancy(s)
        mover = occ.get(names[0])
        if mover is None:
            raise Undefined(f"MiniatureMoved: there is no miniature on {names[0]} to move")
        there = occ.get(names[-1])
        beaten: list[Piece] = []
        if there is not None and there is not mover:
            if there.warband == mover.warband or self.allied(s, there.warband, mover.warband):
                raise Undefined(f"MiniatureMoved: {names[-1]} holds the {wname(there.warband)} {title(there.character)}, "
                                f"on the {wname(mover.warband)} {title(mover.character)}'s side; a square holds one miniature")
            beaten.append(there)
        mp = s.activation.mp if s.activation is not None else 0
        return Walk(path, beaten, max(0, mp - (len(path) - 1)), self._captures(s, path, b.index), mover, 0, 0)

    def _walk_start(self, s: State, e: E.MiniatureMoved) -> tuple[Any, list[Any], int, dict[str, Piece], Piece]:
        """The mover: a square of the board holding the warband's miniature of the activated
        class, the one the activation named (KO-11)."""
        w = self.actor(s, e, "move")
        a = s.activation
        assert a is not None
        names = self.resolve_path(e)
        start = board_of(s).index.get(names[0]) if isinstance(names[0], str) else None
        if start is None:
            raise bad("KO-5.2", "unknown-square", f"MiniatureMoved: {names[0]!r} is not a square of the board")
        occ = self.occupancy(s)
        ch = a.character
        mover = self.mover_ok(s, w, ch, occ.get(names[0]), names[0], "MiniatureMoved")
        if a.square is not None and names[0] != a.square:
            raise bad("KO-11", "not-the-named-miniature", f"MiniatureMoved starts on {names[0]}; the activation named the "
                      f"{ch} on {a.square}")
        return w, names, start, occ, mover

    def _check_weapon(self, s: State, e: E.MiniatureMoved, w: Any, ch: str, weapon: str) -> None:
        """A Titan Weapon: chapter 3, the warband's own Colossus, charged (KO-8.1)."""
        self.chapter(s, e, 3, "KO-8.1")
        if ch != "colossus":
            raise bad("KO-8.1", "not-colossus", f"MiniatureMoved: only a Colossus wields a Titan Weapon; this is a {ch}")
        if w.weapon != weapon:
            raise bad("KO-8.1", "not-your-weapon", f"MiniatureMoved: the {wname(w.id)} Colossus wields the "
                      f"{WEAPONS.get(w.weapon or '', 'no weapon')}, not the {WEAPONS[weapon]} (KO-25)")
        if not w.charged:
            raise bad("KO-8.1", "not-charged", f"MiniatureMoved: the {WEAPONS[weapon]} is not charged with {WEAPON_CHARGE} mana")

    def _meet(self, s: State, e: E.MiniatureMoved, w: Any, p: Piece, i: int, n: int, names: list[Any],
              left: int) -> int | None:
        """Step ``i`` enters a square held by ``p``: None to pass an own (or allied) miniature,
        else the enemy's Defence the move pays to beat it."""
        opts = s.options
        an, tn = names[i - 1], names[i]
        if p.warband == w.id or (opts.allies_as_own and self.allied(s, p.warband, w.id)):
            if i == n:
                whose = "its own" if p.warband == w.id else "an allied"
                raise bad("KO-5.6", "ends-on-own", f"step {i} {an}->{tn} ends the move on {tn}, held by {whose} "
                          f"{wname(p.warband)} {title(p.character)}")
            return None
        if self.allied(s, p.warband, w.id):
            raise bad("KO-5.6", "ally-blocks", f"step {i} {an}->{tn} enters {tn}, held by an allied {wname(p.warband)} "
                      f"{title(p.character)}; with allies_as_own off allies block the way (KO-15)")
        # an enemy
        if i < n and e.weapon != "sword":
            raise bad("KO-5.7", "through-enemy", f"step {i} {an}->{tn} enters {tn}, held by an enemy {wname(p.warband)} "
                      f"{title(p.character)}: the move ends there, it cannot go on to {names[i + 1]}")
        if p.character == "colossus" and not opts.colossus_beatable:
            raise bad("KO-22", "immortal-colossus", f"step {i} {an}->{tn}: the {wname(p.warband)} Colossus on {tn} "
                      f"cannot be beaten (colossus_beatable off)")
        dfc = 0 if e.weapon == "whip" else self.defence(s, p)
        if left < dfc:
            raise bad("KO-5.8", "defence", f"step {i} {an}->{tn} beats the {wname(p.warband)} {title(p.character)} "
                      f"(Defence {dfc}) with {left} movement points left; it needs {dfc}")
        return dfc

    @staticmethod
    def _weapon_used(weapon: str | None, beaten: list[Piece], path: list[int], index: dict[str, int]) -> None:
        """The Sword must carry the move on past a beaten enemy (KO-8.2); the Whip must beat one (KO-8.3)."""
        if weapon == "sword" and not any(index[p.square] != path[-1] for p in beaten):
            raise bad("KO-8.2", "sword-unused", "MiniatureMoved with the Sword of Storm: the move must go on after beating "
                      "an enemy, or the Sword is not used")
        if weapon == "whip" and not beaten:
            raise bad("KO-8.3", "whip-unused", "MiniatureMoved with the Whip of Wrath beats nobody")

    @staticmethod
    def _captures(s: State, path: list[int], index: dict[str, int]) -> bool:
        """Does the move capture the Citadel's crystals (where the move ends, or on the way: an option)?"""
        if not s.on_citadel:
            return False
        cit = index[s.citadel]
        return path[-1] == cit if s.options.crystal_capture == "end-of-move" else cit in path[1:]

    @checks(E.MiniatureMoved, rule="KO-5.1")
    def c_move(self, s: State, e: E.MiniatureMoved) -> Ruling:
        wk = self.walk(s, e)
        b = board_of(s)
        what = f"{wname(e.warband)} {title(wk.mover.character)} {b.names[wk.path[0]]}->{b.names[wk.path[-1]]} " \
               f"({len(wk.path) - 1} of {s.activation.mp if s.activation else 0} movement points"
        what += f", change of direction at step {wk.turn_at})" if wk.turn_at else ")"
        if wk.beaten:
            what += "; beats " + ", ".join(f"the {wname(p.warband)} {title(p.character)} on {p.square}" for p in wk.beaten)
        if wk.capture:
            what += f"; captures {s.on_citadel} crystal(s) on the Citadel"
        return legal("KO-5.1", NS + "ok", what)

    # Titan Weapons and Powers ----------------------------------------------------------------------------------
    @checks(E.WeaponUsed, rule="KO-8.1")
    def c_weapon(self, s: State, e: E.WeaponUsed) -> None:
        self.chapter(s, e, 3, "KO-8.1")
        w = self.actor(s, e, "act")
        a = s.activation
        if a is None or a.at is None or a.character != "colossus":
            raise bad("KO-8.1", "not-after-colossus-move", f"WeaponUsed by {w.id}: the {WEAPONS[e.weapon]} is used right "
                      f"after the Colossus's move in its own activation")
        if w.weapon != e.weapon:
            raise bad("KO-8.1", "not-your-weapon", f"WeaponUsed by {w.id}: its Colossus wields the "
                      f"{WEAPONS.get(w.weapon or '', 'no weapon')}, not the {WEAPONS[e.weapon]} (KO-25)")
        if not w.charged:
            raise bad("KO-8.1", "not-charged", f"WeaponUsed by {w.id}: the {WEAPONS[e.weapon]} is not charged")
        self.weapon_cost(s, w, a, e)

    def weapon_cost(self, s: State, w: Warband, a: Activation, e: E.WeaponUsed) -> int:
        b = board_of(s)
        occ = self.occupancy(s)
        at = b.index[a.at]
        rule = "KO-8.4" if e.weapon == "spear" else "KO-8.5"
        if not e.targets:
            raise bad(rule, "no-target", f"WeaponUsed by {w.id}: the {WEAPONS[e.weapon]} names no target")
        if e.weapon == "spear" and len(e.targets) != 1:
            raise bad("KO-8.4", "one-target", f"WeaponUsed by {w.id}: the Spear of Vengeance beats one miniature, not {len(e.targets)}")
        if len(set(e.targets)) != len(e.targets):
            raise bad("KO-8.5", "same-target", f"WeaponUsed by {w.id} names a target twice")
        total = 0
        worst = 0
        cost_mode = s.options.defence_mode == "cost"
        for tn in e.targets:
            t = self.square(s, tn, rule, f"WeaponUsed by {w.id}")
            dc, dr = b.delta(at, t)
            dist = max(abs(dc), abs(dr))
            if e.weapon == "spear":
                if dist == 0 or not (dc == 0 or dr == 0 or abs(dc) == abs(dr)):
                    raise bad("KO-8.4", "not-in-line", f"WeaponUsed by {w.id}: {tn} is not in a straight line "
                              f"(orthogonal or diagonal) from the Colossus on {a.at}")
                unit = (dc // dist, dr // dist)
                sq = at
                for k in range(1, dist):
                    sq = b.step[DIRECTION_OF[unit]][sq]
                    if b.names[sq] in occ:
                        p = occ[b.names[sq]]
                        raise bad("KO-8.4", "blocked", f"WeaponUsed by {w.id}: the Spear's line {a.at}->{tn} is blocked on "
                                  f"{b.names[sq]} by the {wname(p.warband)} {title(p.character)} there")
            elif dist != 1:
                raise bad("KO-8.5", "not-adjacent", f"WeaponUsed by {w.id}: {tn} is not next to the Colossus on {a.at}")
            p = occ.get(tn)
            if p is None:
                raise bad(rule, "no-enemy", f"WeaponUsed by {w.id}: there is no miniature on {tn}")
            if p.warband == w.id or self.allied(s, p.warband, w.id):
                raise bad(rule, "not-enemy", f"WeaponUsed by {w.id}: the {p.character} on {tn} is "
                          f"{'own' if p.warband == w.id else 'allied'} ({wname(p.warband)})")
            if p.character == "colossus" and not s.options.colossus_beatable:
                raise bad("KO-22", "immortal-colossus", f"WeaponUsed by {w.id}: the {wname(p.warband)} Colossus on {tn} "
                          f"cannot be beaten (colossus_beatable off)")
            dfc = self.defence(s, p)
            total += dist + (dfc if cost_mode else 0)
            worst = max(worst, dfc)
        need = total if cost_mode else total + worst
        if need > a.left:
            raise bad(rule, "points", f"WeaponUsed by {w.id}: the {WEAPONS[e.weapon]} needs {need} movement points "
                      f"({'distance' if e.weapon == 'spear' else '1 per target'} plus Defence); the Colossus has {a.left} left")
        return total

    @checks(E.EarthquakeUsed, rule="KO-8.7")
    def c_earthquake(self, s: State, e: E.EarthquakeUsed) -> None:
        self.chapter(s, e, 3, "KO-8.7")
        w = self.actor(s, e, "act")
        if w.pool < EARTHQUAKE_COST:
            raise bad("KO-8.7", "pool", f"EarthquakeUsed by {w.id}: costs {EARTHQUAKE_COST} mana from the pool, which holds {w.pool}")
        line = self.region(s, e, "KO-8.7", "KO-8.7")
        self.citadel_stays(s, e, line, 1, "KO-8.7")

    @checks(E.RebirthUsed, rule="KO-8.8")
    def c_rebirth(self, s: State, e: E.RebirthUsed) -> None:
        self.chapter(s, e, 3, "KO-8.8")
        w = self.actor(s, e, "act")
        cost = REBIRTH_COST[e.character]
        if w.pool < cost:
            raise bad("KO-8.8", "pool", f"RebirthUsed by {w.id}: a {e.character} costs {cost} mana from the pool, which holds {w.pool}")
        if w.beaten[CI[e.character]] < 1:
            raise bad("KO-8.8", "none-beaten", f"RebirthUsed by {w.id}: no {e.character} of {wname(w.id)} has been beaten")
        b = board_of(s)
        i = self.square(s, e.square, "KO-8.8", f"RebirthUsed by {w.id}")
        if i not in b.corners[w.corner]:
            raise bad("KO-8.8", "outside-zone", f"RebirthUsed by {w.id}: {e.square} is not in its start zone {w.corner}")
        p = self.occupancy(s).get(e.square)
        if p is not None:
            raise bad("KO-8.8", "occupied", f"RebirthUsed by {w.id}: {e.square} is held by the {wname(p.warband)} {title(p.character)}")


    # -- apply ------------------------------------------------------------------------------------------------
    def with_wb(self, s: State, seat: int, **changes: Any) -> State:
        wbs = list(s.warbands)
        wbs[seat] = replace(wbs[seat], **changes)
        return replace(s, warbands=tuple(wbs))

    @applies(E.SkillsChosen)
    def a_skills(self, s: State, e: E.SkillsChosen) -> State:
        att, dfc, total = self.skills(s, e, "KO-1.3")
        s = self.with_wb(s, s.seat, attack=att, defence=dfc, supply=MANA - total)
        if s.seat + 1 < 4:
            return replace(s, seat=s.seat + 1)
        return replace(s, seat=0, step="place")

    @applies(E.MiniaturesPlaced)
    def a_placed(self, s: State, e: E.MiniaturesPlaced) -> State:
        w = s.current.id
        new = [Piece(e.colossus, w, "colossus")] + [Piece(q, w, "guardian") for q in e.guardians] \
            + [Piece(q, w, "warrior") for q in e.warriors]
        s = replace(s, pieces=s.pieces + tuple(new))
        if s.seat + 1 < 4:
            return replace(s, seat=s.seat + 1)
        s = replace(s, order=0)
        return self.next_quake(s, 0)

    def next_quake(self, s: State, order: int) -> State:
        k = self.quake_seat(s, order)
        if k is None:
            return replace(s, step="round-start", order=0, seat=s.first, quake_roll=0)
        return replace(s, step="quake-roll", order=k, seat=(s.first + k) % 4, quake_roll=0)

    def gain(self, s: State, value: int) -> State:
        if s.options.chapter < 2:
            return s
        w = s.current
        g = self.mana_gain(s, value, w.supply + w.pending)
        return self.with_wb(s, s.seat, supply=w.supply + w.pending - g, pending=g)

    @applies(E.QuakeRolled)
    def a_quake_roll(self, s: State, e: E.QuakeRolled) -> State:
        s = replace(s, quake_roll=e.value, rolls=s.rolls + 1, step="quake-shift")
        return self.gain(s, e.value) if s.options.invasion_mana else s

    def shift(self, s: State, region: str, direction: str, distance: int, by: str) -> State:
        """Slide a region's landscapes and miniatures; what leaves the board is gone (KO-5, KO-6)."""
        b = board_of(s)
        line = b.regions.get(region)
        if line is None:
            raise Undefined(f"{region!r} is no region of the board")
        sign = 1 if direction == b.region_directions(region)[0] else -1
        n = len(line)
        levels = list(s.levels)
        old = [s.levels[i] for i in line]
        for k, i in enumerate(line):
            j = k - sign * distance
            levels[i] = old[j] if 0 <= j < n else 1
        pos = {b.names[i]: k for k, i in enumerate(line)}
        pieces: list[Piece] = []
        fallen: list[Piece] = []
        for p in s.pieces:
            k = pos.get(p.square)
            if k is None:
                pieces.append(p)
                continue
            j = k + sign * distance
            if 0 <= j < n:
                pieces.append(replace(p, square=b.names[line[j]]))
            else:
                fallen.append(p)
        citadel = s.citadel
        if citadel in pos:
            j = pos[citadel] + sign * distance
            if not 0 <= j < n:  # (a shift a judge's ruling lets stand: the Citadel has nowhere to go)
                raise Undefined(f"sliding {region} {distance} {direction} would push the Citadel of Time from "
                                f"{citadel} off the board")
            citadel = b.names[line[j]]
        s = replace(s, levels=tuple(levels), pieces=tuple(pieces), citadel=citadel)
        return self.beat(s, fallen, by)

    def beat(self, s: State, gone: list[Piece], by: str) -> State:
        if not gone:
            return s
        queue = s.queue + tuple(E.MiniatureBeaten(warband=p.warband, character=p.character, square=p.square, by=by) for p in gone)
        s = replace(s, queue=queue)
        return replace(s, ending=self.wipeout(s))

    def wipeout(self, s: State) -> Result | None:
        mode = s.options.wipeout
        if mode == "never":
            return None
        alive = {w.id: 0 for w in s.warbands}
        for p in s.pieces:
            alive[p.warband] += 1
        losers: list[int] = []
        if mode == "warband":
            for i, w in enumerate(s.warbands):
                if alive[w.id] == 0 and i % 2 not in losers:
                    losers.append(i % 2)
        else:
            for i, w in enumerate(s.warbands):
                mine = [x.id for x in s.warbands if x.player == w.player]
                if all(alive[x] == 0 for x in mine) and i % 2 not in losers:
                    losers.append(i % 2)
        if not losers:
            return None
        if len(losers) == 2:
            return Result("draw", None, (), "wipeout")
        return self.win(s, 1 - losers[0], "wipeout")

    @applies(E.QuakeShifted)
    def a_quake_shift(self, s: State, e: E.QuakeShifted) -> State:
        s = self.shift(s, e.region, e.direction, e.distance, "quake")
        s = replace(s, quaked=s.quaked + (e.region,), quakers=s.quakers + (s.current.player,))
        if s.current.pending > 0:
            return replace(s, step="allocate")
        return self.next_quake(s, s.order + 1)

    @applies(E.RoundStarted)
    def a_round_started(self, s: State, e: E.RoundStarted) -> State:
        first = s.seat_of(e.first)
        placed = 1 if s.crystals_left > 0 else 0
        return replace(s, round=e.round, first=first, seat=first, order=0, captured_by=None,
                       crystals_left=s.crystals_left - placed, on_citadel=s.on_citadel + placed, step="turn-start")

    @applies(E.TurnStarted)
    def a_turn_started(self, s: State, e: E.TurnStarted) -> State:
        seat = s.seat  # the warband the event names plays (a stated turn a judge's ruling let stand)
        if s.warbands[seat].id != e.warband:
            seat = s.seat_of(e.warband)
            if seat < 0:
                raise Undefined(f"TurnStarted names {e.warband!r}, which is no warband of this match")
            s = replace(s, seat=seat, order=(seat - s.first) % 4)
        return replace(s, step="destiny", destiny=0, points=0, initiative=False, acted=False, activation=None)

    @applies(E.DestinyRolled)
    def a_destiny(self, s: State, e: E.DestinyRolled) -> State:
        s = replace(s, destiny=e.value, points=e.value, rolls=s.rolls + 1, step="act")
        return self.gain(s, e.value)

    @applies(E.InitiativeUsed)
    def a_initiative(self, s: State, e: E.InitiativeUsed) -> State:
        w = s.current
        s = self.with_wb(s, s.seat, pool=w.pool - 1, supply=w.supply + 1)
        s = replace(s, destiny=s.destiny + 1, points=s.points + 1, initiative=True)
        return self.gain(s, s.destiny)

    @applies(E.ActivationDeclared)
    def a_activation(self, s: State, e: E.ActivationDeclared) -> State:
        return replace(s, points=s.points - COST[e.character], acted=True, step="roll",
                       activation=Activation(e.character, e.square))

    @applies(E.MovementRolled)
    def a_move_roll(self, s: State, e: E.MovementRolled) -> State:
        a = s.activation
        if a is None:  # a roll that stands without an activation (KO-40): the dice are used, nothing moves
            return replace(s, rolls=s.rolls + len(e.dice))
        bonus = s.current.attack[CI[a.character]] if s.options.chapter >= 2 else 0
        return replace(s, rolls=s.rolls + len(e.dice), step="move",
                       activation=replace(a, dice=tuple(e.dice), mp=sum(e.dice) + bonus))

    @applies(E.MiniatureMoved)
    def a_move(self, s: State, e: E.MiniatureMoved) -> State:
        try:
            wk = self.walk(s, e)
        except Illegal:  # a move a judge's ruling lets stand (KO-40)
            wk = self.stood_walk(s, e)
        b = board_of(s)
        end = b.names[wk.path[-1]]
        gone = wk.beaten
        pieces = []
        for p in s.pieces:
            if p is wk.mover:
                pieces.append(replace(p, square=end, activated=True))
            elif p not in gone:
                pieces.append(p)
        a = s.activation
        if a is None:  # (a move that stands without an activation: the miniature moves, nothing else)
            return self.beat(replace(s, pieces=tuple(pieces)), gone, e.warband)
        s = replace(s, pieces=tuple(pieces), step="act", activation=replace(a, at=end, left=wk.left))
        if e.weapon is not None:
            w = s.current
            s = self.with_wb(s, s.seat, charged=False, supply=w.supply + WEAPON_CHARGE)
        s = self.beat(s, gone, e.warband)
        if wk.capture:
            s = replace(s, queue=s.queue + (E.CrystalsCaptured(warband=e.warband, count=s.on_citadel),))
        return s

    @applies(E.WeaponUsed)
    def a_weapon(self, s: State, e: E.WeaponUsed) -> State:
        a = s.activation
        if a is None:
            raise Undefined(f"WeaponUsed by {e.warband}: no Colossus was activated to wield the {WEAPONS[e.weapon]}")
        w = s.current
        occ = self.occupancy(s)
        try:
            cost = self.weapon_cost(s, w, a, e)
        except Illegal:  # a use a judge's ruling lets stand (KO-40): the miniatures targeted are beaten
            cost = 0
            missing = [t for t in e.targets if t not in occ]
            if missing:
                raise Undefined(f"WeaponUsed by {e.warband}: there is no miniature on {missing[0]!r} to beat")
        gone = list(dict.fromkeys(occ[t] for t in e.targets))
        s = replace(s, pieces=tuple(p for p in s.pieces if p not in gone), activation=replace(a, left=a.left - cost))
        s = self.with_wb(s, s.seat, charged=False, supply=w.supply + WEAPON_CHARGE)
        return self.beat(s, gone, e.warband)

    @applies(E.EarthquakeUsed)
    def a_earthquake(self, s: State, e: E.EarthquakeUsed) -> State:
        w = s.current
        s = self.with_wb(s, s.seat, pool=w.pool - EARTHQUAKE_COST, supply=w.supply + EARTHQUAKE_COST)
        s = replace(s, activation=None, acted=True)
        return self.shift(s, e.region, e.direction, 1, "earthquake")

    @applies(E.RebirthUsed)
    def a_rebirth(self, s: State, e: E.RebirthUsed) -> State:
        w = s.current
        cost = REBIRTH_COST[e.character]
        beaten = list(w.beaten)
        beaten[CI[e.character]] -= 1
        s = self.with_wb(s, s.seat, pool=w.pool - cost, supply=w.supply + cost, beaten=tuple(beaten))
        return replace(s, pieces=s.pieces + (Piece(e.square, w.id, e.character, reborn=True),), activation=None, acted=True)

    @applies(E.TurnEnded)
    def a_turn_end(self, s: State, e: E.TurnEnded) -> State:
        wid = s.current.id
        if any(p.warband == wid and (p.activated or p.reborn) for p in s.pieces):
            s = replace(s, pieces=tuple(replace(p, activated=False, reborn=False) if p.warband == wid and (p.activated or p.reborn)
                                        else p for p in s.pieces))
        s = replace(s, activation=None, points=0)
        if s.options.chapter >= 2 and s.current.pending > 0:
            return replace(s, step="allocate")
        return self.next_turn(s)

    def next_turn(self, s: State) -> State:
        order = s.order + 1
        if order < 4:
            return replace(s, order=order, seat=(s.first + order) % 4, step="turn-start")
        return replace(s, order=order, step="game-end" if s.round >= s.options.rounds else "round-start")

    @applies(E.ManaAllocated)
    def a_allocate(self, s: State, e: E.ManaAllocated) -> State:
        w = s.current
        att, dfc, skills = self.skills(s, e, "KO-7.2")
        used = skills + e.pool + e.weapon
        s = self.with_wb(s, s.seat, attack=tuple(x + y for x, y in zip(w.attack, att)),
                         defence=tuple(x + y for x, y in zip(w.defence, dfc)), pool=w.pool + e.pool,
                         charged=w.charged or e.weapon == WEAPON_CHARGE, pending=0, supply=w.supply + w.pending - used)
        if s.round == 0:
            return self.next_quake(s, s.order + 1)
        return self.next_turn(s)

    @applies(E.MiniatureBeaten)
    def a_beaten(self, s: State, e: E.MiniatureBeaten) -> State:
        seat = s.seat_of(e.warband)
        w = s.warbands[seat]
        beaten = list(w.beaten)
        beaten[CI[e.character]] += 1
        s = self.with_wb(s, seat, beaten=tuple(beaten))
        return replace(s, queue=s.queue[1:])

    @applies(E.CrystalsCaptured)
    def a_captured(self, s: State, e: E.CrystalsCaptured) -> State:
        seat = s.seat_of(e.warband)
        s = self.with_wb(s, seat, crystals=s.warbands[seat].crystals + e.count)
        return replace(s, queue=s.queue[1:], on_citadel=s.on_citadel - e.count, last_capture=seat, captured_by=seat)

    @applies(E.GameEnded)
    def a_game_ended(self, s: State, e: E.GameEnded) -> State:
        return replace(s, result=Result(e.result, e.winner, tuple(e.alliance), e.reason), step="over", queue=(), ending=None)


    # -- derive ------------------------------------------------------------------------------------------------
    def derive(self, s: State) -> Any:
        if s.result is not None or len(s.warbands) != 4:
            return None
        if s.queue:
            return s.queue[0]
        r = s.ending
        if r is not None:
            return E.GameEnded(result=r.result, winner=r.winner, alliance=list(r.alliance), reason=r.reason)
        step = s.step
        if step == "turn-start":
            return E.TurnStarted(round=s.round, warband=s.current.id)
        if step == "round-start":
            first = s.captured_by if s.captured_by is not None else s.first
            return E.RoundStarted(round=s.round + 1, first=s.warbands[first].id,
                                  crystals=s.on_citadel + (1 if s.crystals_left > 0 else 0))
        if step == "game-end":
            r = self.crystal_result(s)
            return E.GameEnded(result=r.result, winner=r.winner, alliance=list(r.alliance), reason=r.reason)
        return None

    def crystal_result(self, s: State) -> Result:
        a0 = s.warbands[0].crystals + s.warbands[2].crystals
        a1 = s.warbands[1].crystals + s.warbands[3].crystals
        if s.options.crystal_majority == "relative":
            if a0 != a1:
                return self.win(s, 0 if a0 > a1 else 1, "crystal-majority")
        else:
            total = s.options.rounds
            for alliance, n in ((0, a0), (1, a1)):
                if 2 * n > total:
                    return self.win(s, alliance, "crystal-majority")
        if s.last_capture is None:
            return Result("draw", None, (), "no-crystal")
        return self.win(s, s.last_capture % 2, "last-crystal")

    # -- legal events --------------------------------------------------------------------------------------------
    def roll_values(self, s: State, n: int) -> list[list[int]]:
        if s.setup.rng is not None and s.setup.seed is not None:
            return [self.generated(s.setup.seed, s.rolls, n)]
        return [list(v) for v in product((1, 2, 3, 4), repeat=n)]

    def skill_splits(self, total: int) -> list[tuple[int, ...]]:
        """Every way to put ``total`` mana on the 6 skills (attack W/G/C, defence W/G/C)."""
        out: list[tuple[int, ...]] = []

        def rec(prefix: tuple[int, ...], left: int) -> None:
            if len(prefix) == 5:
                out.append(prefix + (left,))
                return
            for v in range(left, -1, -1):
                rec(prefix + (v,), left - v)
        rec((), total)
        return out

    def as_dicts(self, split: tuple[int, ...]) -> tuple[dict[str, int], dict[str, int]]:
        att = {c: split[i] for i, c in enumerate(CHARACTERS) if split[i]}
        dfc = {c: split[3 + i] for i, c in enumerate(CHARACTERS) if split[3 + i]}
        return att, dfc

    def move_candidates(self, s: State) -> list[E.MiniatureMoved]:
        """Every straight or once-turned path within the movement points, pruned where a step
        breaks a rule every longer path would break too; ``check`` decides the rest."""
        a = s.activation
        assert a is not None
        w = s.current
        b = board_of(s)
        occ = self.occupancy(s)
        names = b.names
        levels = s.levels
        out: list[E.MiniatureMoved] = []
        weapons: list[str | None] = [None]
        if a.character == "colossus" and s.options.chapter >= 3 and w.charged and w.weapon in ("sword", "whip"):
            weapons.append(w.weapon)
        turns = a.character != "warrior"
        opts = s.options
        for p in self.activatable(s, w.id, a.character):
            if a.square is not None and p.square != a.square:
                continue
            start = b.index[p.square]
            for weapon in weapons:
                sword = weapon == "sword"

                def blocked(frm: int, to: int) -> tuple[bool, bool]:
                    """(cannot enter ``to``, cannot go on after ``to``)."""
                    if a.character != "colossus" and abs(levels[to] - levels[frm]) > 1:
                        return True, True
                    q = occ.get(names[to])
                    if q is None or q is p:
                        return False, False
                    if q.warband == w.id or (opts.allies_as_own and self.allied(s, q.warband, w.id)):
                        return False, False
                    if self.allied(s, q.warband, w.id):
                        return True, True
                    return False, not sword

                if weapon is None:
                    out.append(E.MiniatureMoved(warband=w.id, path=[names[start]]))
                for d1 in DIRECTIONS:
                    for path, halt in _ray(b.step[d1], [start], a.mp, blocked):
                        out.append(E.MiniatureMoved(warband=w.id, path=[names[i] for i in path], weapon=weapon))
                        if halt or not turns:
                            continue
                        for d2 in DIRECTIONS:  # one change of direction (Guardian, Colossus)
                            if d2 == d1 or (not opts.allow_reversal and d2 == OPPOSITE[d1]):
                                continue
                            for path2, _halt in _ray(b.step[d2], path, a.mp, blocked):
                                out.append(E.MiniatureMoved(warband=w.id, path=[names[i] for i in path2], weapon=weapon))
        return out

    def candidates(self, s: State) -> list[Any]:
        """A superset of every legal event; ``check`` filters."""
        if len(s.warbands) != 4 or s.result is not None or s.queue or s.ending is not None or s.step in DERIVED_STEPS:
            return []
        w = s.current
        wid = w.id
        b = board_of(s)
        step = s.step
        out: list[Any] = []
        if step == "skills":
            for split in self.skill_splits(INITIAL_SKILLS):
                att, dfc = self.as_dicts(split)
                out.append(E.SkillsChosen(warband=wid, attack=att, defence=dfc))
        elif step == "place":
            zone = [b.names[i] for i in b.corners[w.corner]]
            for chosen in combinations(zone, 8):
                for ci in range(8):
                    rest = [x for j, x in enumerate(chosen) if j != ci]
                    for gs in combinations(rest, 2):
                        ws = [x for x in rest if x not in gs]
                        out.append(E.MiniaturesPlaced(warband=wid, colossus=chosen[ci], guardians=list(gs), warriors=ws))
        elif step == "quake-roll":
            out += [E.QuakeRolled(warband=wid, value=v[0]) for v in self.roll_values(s, 1)]
        elif step == "quake-shift":
            regions = b.central_regions if s.options.quake_regions == "central" else b.region_ids
            dists = [s.quake_roll] if s.options.quake_distance == "exact" else list(range(1, s.quake_roll + 1))
            for r in regions:
                for d in b.region_directions(r):
                    out += [E.QuakeShifted(warband=wid, region=r, direction=d, distance=n) for n in dists]
        elif step == "allocate":
            out += self.allocation_candidates(s, w)
        elif step == "destiny":
            out += [E.DestinyRolled(warband=wid, value=v[0]) for v in self.roll_values(s, 1)]
        elif step == "roll":
            a = s.activation
            assert a is not None
            out += [E.MovementRolled(warband=wid, dice=v) for v in self.roll_values(s, DICE[a.character])]
        elif step == "move":
            out += self.move_candidates(s)
        elif step == "act":
            out += self.act_candidates(s, w)
        return out

    def allocation_candidates(self, s: State, w: Warband) -> list[E.ManaAllocated]:
        """Every split of the mana a turn gave over the skills, the pool and a weapon charge."""
        out: list[E.ManaAllocated] = []
        p = w.pending
        pools = range(0, min(p, POOL_MAX - w.pool) + 1) if s.options.chapter >= 3 else [0]
        charges = [0, WEAPON_CHARGE] if s.options.chapter >= 3 and w.weapon and not w.charged else [0]
        for pool in pools:
            for charge in charges:
                left = p - pool - charge
                if left < 0:
                    continue
                for total in range(left, -1, -1):
                    for split in self.skill_splits(total):
                        att, dfc = self.as_dicts(split)
                        out.append(E.ManaAllocated(warband=w.id, attack=att, defence=dfc, pool=pool, weapon=charge))
        return out

    def act_candidates(self, s: State, w: Warband) -> list[Any]:
        """In the act step: activations, the Titan Powers of chapter 3, and TurnEnded."""
        wid, b = w.id, board_of(s)
        out: list[Any] = []
        if s.options.choose_after_roll:
            out += [E.ActivationDeclared(warband=wid, character=c) for c in CHARACTERS]
        else:
            out += [E.ActivationDeclared(warband=wid, character=p.character, square=p.square)
                    for p in s.pieces if p.warband == wid]
        if s.options.chapter >= 3:
            out.append(E.InitiativeUsed(warband=wid))
            a = s.activation
            if a is not None and a.at is not None and w.charged and w.weapon in ("spear", "hammer"):
                out += self.weapon_candidates(s, w, a)
            if w.pool >= EARTHQUAKE_COST:
                for r in b.region_ids:
                    out += [E.EarthquakeUsed(warband=wid, region=r, direction=d) for d in b.region_directions(r)]
            for c in CHARACTERS:
                if w.beaten[CI[c]] and w.pool >= REBIRTH_COST[c]:
                    out += [E.RebirthUsed(warband=wid, character=c, square=b.names[i]) for i in b.corners[w.corner]]
        out.append(E.TurnEnded(warband=wid))
        return out

    def weapon_candidates(self, s: State, w: Warband, a: Activation) -> list[E.WeaponUsed]:
        b = board_of(s)
        occ = self.occupancy(s)
        at = b.index[a.at]
        out: list[E.WeaponUsed] = []
        if w.weapon == "spear":
            for d in DIRECTIONS:
                sq = b.step[d][at]
                while sq >= 0:
                    if b.names[sq] in occ:
                        out.append(E.WeaponUsed(warband=w.id, weapon="spear", targets=[b.names[sq]]))
                        break
                    sq = b.step[d][sq]
        else:
            near = sorted((b.step[d][at] for d in DIRECTIONS if b.step[d][at] >= 0 and b.names[b.step[d][at]] in occ))
            for n in range(1, len(near) + 1):
                for combo in combinations(near, n):
                    out.append(E.WeaponUsed(warband=w.id, weapon="hammer", targets=[b.names[i] for i in combo]))
        return out

    def to_act(self, s: State) -> list[str]:
        if len(s.warbands) != 4 or s.result is not None or s.queue or s.ending is not None or s.step in DERIVED_STEPS:
            return []
        return [s.current.player]


def _turn(i: int, an: Any, tn: Any, ch: str, prev_dir: str, dname: str, turn_at: int, allow_reversal: bool) -> int:
    """Step ``i`` changes direction: a Warrior never does, others once (KO-5.3), and back the way
    they came only where the ruleset allows it (KO-13).  The step of the change."""
    if ch == "warrior":
        raise bad("KO-5.3", "warrior-turns", f"step {i} {an}->{tn} turns from {prev_dir} to {dname}; "
                  f"a Warrior moves in one direction only")
    if turn_at:
        raise bad("KO-5.3", "second-turn", f"step {i} {an}->{tn} changes direction a second time "
                  f"(the first change was at step {turn_at}, to {prev_dir})")
    if not allow_reversal and dname == OPPOSITE[prev_dir]:
        raise bad("KO-13", "reversal", f"step {i} {an}->{tn} turns back from {prev_dir} to {dname}; "
                  f"the ruleset forbids reversing (allow_reversal)")
    return i


def _jump(i: int, an: Any, tn: Any, la: int, lt: int) -> None:
    """Only a Colossus climbs or drops more than one level in a step (KO-5.5)."""
    if lt - la > 1:
        raise bad("KO-5.5", "climb", f"step {i} {an}->{tn} climbs from level {la} to {lt}; only a Colossus jumps levels")
    raise bad("KO-5.5", "drop", f"step {i} {an}->{tn} drops from level {la} to {lt}; only a Colossus jumps levels")
