"""The checks of set-up, dice, the Great Quake, turns and mana (KO-1, KO-3, KO-4, KO-7, KO-8.6)."""

from __future__ import annotations

from adjudicator.core.kernel.kit import checks

from . import events as E
from .basics import bad, board_of, title, wname
from .queries import Queries
from .state import ARMY, CHARACTERS, COST, DICE, INITIAL_SKILLS, POOL_MAX, WEAPON_CHARGE, WEAPONS, State, Warband


class TurnChecks(Queries):
    """Checks of the events that set up the match and run its turns."""

    # set-up ----------------------------------------------------------------------------------------------
    @checks(E.SkillsChosen, rule="KO-1.3")
    def c_skills(self, s: State, e: E.SkillsChosen) -> None:
        w = self.actor(s, e, "skills")
        att, dfc, total = self.skills(s, e, "KO-1.3")
        if total != INITIAL_SKILLS:
            raise bad("KO-1.3", "skills-total", f"skills chosen by {w.id} puts {total} mana on skills; exactly {INITIAL_SKILLS} are distributed")
        self.skill_cap(s, e, w, att, dfc, "KO-1.3")

    @checks(E.MiniaturesPlaced, rule="KO-1.4")
    def c_placed(self, s: State, e: E.MiniaturesPlaced) -> None:
        w = self.actor(s, e, "place")
        b = board_of(s)
        if len(e.guardians) != ARMY["guardian"] or len(e.warriors) != ARMY["warrior"]:
            raise bad("KO-1.4", "army", f"miniatures placed by {w.id} places {len(e.guardians)} Guardians and {len(e.warriors)} "
                      f"Warriors; a warband has 1 Colossus, 2 Guardians and 5 Warriors")
        zone = b.corners[w.corner]
        seen: list[str] = []
        held = self.occupancy(s)
        for sq in [e.colossus, *e.guardians, *e.warriors]:
            i = self.square(s, sq, "KO-1.4", f"miniatures placed by {w.id}")
            if sq in seen:
                raise bad("KO-1.4", "same-square", f"miniatures placed by {w.id} places two miniatures on {sq}")
            if sq in held:  # (only after an event a judge's ruling let stand: start zones are empty before)
                p = held[sq]
                raise bad("KO-1.4", "occupied", f"miniatures placed by {w.id}: {sq} is held by the {wname(p.warband)} "
                          f"{title(p.character)}")
            if i not in zone:
                raise bad("KO-1.4", "outside-zone", f"miniatures placed by {w.id}: {sq} is not in its start zone {w.corner} "
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

    @checks(E.QuakeShifted, rule="KO-3.4")
    def c_quake_shift(self, s: State, e: E.QuakeShifted) -> None:
        self.actor(s, e, "quake-shift")
        b = board_of(s)
        line = self.region(s, e, "KO-3.4", "KO-3.2")
        if s.options.quake_regions == "central" and e.region not in b.central_regions:
            raise bad("KO-3.2", "not-central", f"quake shifted: {e.region} is not one of the central regions "
                      f"({', '.join(b.central_regions)})")
        if e.region in s.quaked:
            raise bad("KO-3.3", "region-moved", f"quake shifted: {e.region} already moved in the Great Quake")
        roll = s.quake_roll
        if s.options.quake_distance == "exact":
            if e.distance != roll:
                raise bad("KO-3.4", "distance", f"quake shifted moves {e.region} {e.distance} squares; the Great Quake die "
                          f"shows {roll}, so it moves exactly {roll} (KO-4)")
        elif not 1 <= e.distance <= roll:
            raise bad("KO-3.4", "distance", f"quake shifted moves {e.region} {e.distance} squares; the die shows {roll}, "
                      f"so 1 to {roll} (KO-4, up-to)")
        self.citadel_stays(s, e, line, e.distance, "KO-3.5")

    # turns -------------------------------------------------------------------------------------------------
    @checks(E.InitiativeUsed, rule="KO-8.6")
    def c_initiative(self, s: State, e: E.InitiativeUsed) -> None:
        self.chapter(s, e, 3, "KO-8.6")
        w = self.actor(s, e, "act")
        if s.initiative:
            raise bad("KO-8.6", "once", f"initiative used by {w.id}: Initiative was already used this turn")
        if s.acted:
            raise bad("KO-8.6", "too-late", f"initiative used by {w.id}: Initiative is used right after the die of destiny, "
                      f"before anything else this turn")
        if s.destiny >= 4:
            raise bad("KO-8.6", "max-four", f"initiative used by {w.id}: the die of destiny shows {s.destiny}; it cannot go above 4")
        if w.pool < 1:
            raise bad("KO-8.6", "pool", f"initiative used by {w.id}: costs 1 mana from the pool, which holds {w.pool}")

    @checks(E.ActivationDeclared, rule="KO-4.3")
    def c_activation(self, s: State, e: E.ActivationDeclared) -> None:
        w = self.actor(s, e, "act")
        c = e.character
        if COST[c] > s.points:
            raise bad("KO-4.3", "points", f"activation declared by {w.id}: a {title(c)} costs {COST[c]} activation points; "
                      f"{s.points} left of {s.destiny}")
        if s.options.choose_after_roll:
            if e.square is not None:
                raise bad("KO-11", "square-named", f"activation declared by {w.id} names {e.square}; the miniature is chosen "
                          f"after the movement roll (choose_after_roll)")
            if not self.any_activatable(s, w.id, c):
                raise bad("KO-4.4", "none-left", self.none_left(s, w, c))
            return
        if e.square is None:
            raise bad("KO-11", "square-missing", f"activation declared by {w.id}: with choose_after_roll off the miniature "
                      f"is named when declaring (square)")
        self.square(s, e.square, "KO-5.1", f"activation declared by {w.id}")
        p = self.occupancy(s).get(e.square)
        self.mover_ok(s, w, c, p, e.square, "activation declared")

    def none_left(self, s: State, w: Warband, c: str) -> str:
        mine = [p for p in s.pieces if p.warband == w.id and p.character == c]
        if not mine:
            return f"activation declared by {w.id}: no {c} of {wname(w.id)} is on the board"
        return (f"activation declared by {w.id}: every {c} of {wname(w.id)} on the board "
                f"({', '.join(p.square for p in mine)}) was already activated this turn"
                + (" or was reborn this turn (KO-27)" if any(p.reborn for p in mine) else ""))

    @checks(E.TurnEnded, rule="KO-4.6")
    def c_turn_end(self, s: State, e: E.TurnEnded) -> None:
        w = self.actor(s, e, "act")
        if s.options.must_spend_all:
            for c in CHARACTERS:
                if COST[c] <= s.points and self.activatable(s, w.id, c):
                    raise bad("KO-10", "points-left", f"turn ended by {w.id}: {s.points} activation points are left and a "
                              f"{c} can still be activated (must_spend_all)")

    @checks(E.ManaAllocated, rule="KO-7.2")
    def c_allocate(self, s: State, e: E.ManaAllocated) -> None:
        self.chapter(s, e, 2, "KO-7.2")
        w = self.actor(s, e, "allocate")
        att, dfc, skills = self.skills(s, e, "KO-7.2")
        if e.pool < 0 or e.weapon < 0:
            raise bad("KO-7.2", "negative", f"mana allocated by {w.id}: pool {e.pool}, weapon {e.weapon}; amounts are not negative")
        total = skills + e.pool + e.weapon
        if total > w.pending:
            raise bad("KO-7.2", "too-much", f"mana allocated by {w.id} allocates {total} mana; {w.pending} were gained this turn")
        if s.options.chapter < 3 and (e.pool or e.weapon):
            raise bad("KO-7.2", "pool-before-chapter-3", f"mana allocated by {w.id}: the mana pool and Titan Weapons belong to "
                      f"chapter 3; this match plays chapter {s.options.chapter}")
        if w.pool + e.pool > POOL_MAX:
            raise bad("KO-7.2", "pool-full", f"mana allocated by {w.id}: the pool would hold {w.pool + e.pool} mana; at most {POOL_MAX}")
        if e.weapon:
            if e.weapon != WEAPON_CHARGE:
                raise bad("KO-7.2", "weapon-charge", f"mana allocated by {w.id}: a Titan Weapon is charged with exactly "
                          f"{WEAPON_CHARGE} mana, not {e.weapon}")
            if w.weapon is None:
                raise bad("KO-7.2", "no-weapon", f"mana allocated by {w.id}: its Colossus has no Titan Weapon to charge (KO-25)")
            if w.charged:
                raise bad("KO-7.2", "weapon-charged", f"mana allocated by {w.id}: the {WEAPONS[w.weapon or 'sword']} is already charged")
        self.skill_cap(s, e, w, att, dfc, "KO-7.2")
