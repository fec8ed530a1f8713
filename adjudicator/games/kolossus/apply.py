"""Apply: what each checked event does to the working position (:class:`.working.Position`,
changed in place: a field's value is replaced, never changed), the regions that slide, the
miniatures beaten and a wiped-out warband's end (KO-21).  ``Rules.apply`` runs these handlers on a
Position of the State it is given and freezes it; the fold runs them on its one Position."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.kit import applies
from adjudicator.core.kernel.rulings import Illegal, Undefined

from . import events as E
from .basics import CI, board_of, title, wname
from .movement import Movement
from .state import COST, EARTHQUAKE_COST, MANA, REBIRTH_COST, WEAPON_CHARGE, WEAPONS, Activation, Piece, Result, State
from .titan import TitanPowers
from .working import Position

class Apply(Movement, TitanPowers):
    """The apply handlers: each changes the Position ``s`` in place and returns nothing (they
    assume the event was checked; an Undefined raised midway leaves a Position the caller
    discards: the fold restores its snapshot, ``Rules.apply`` drops its copy)."""

    #: the working copy ``Rules.apply`` hands the handlers (``RulesBase.working``)
    working = Position

    def finish(self, w: Position) -> State:  # type: ignore[override]
        return w.build()

    # -- apply ------------------------------------------------------------------------------------------------
    def set_wb(self, s: Position, seat: int, **changes: Any) -> None:
        s.warbands = _wbs(s, seat, changes)

    @applies(E.SkillsChosen)
    def a_skills(self, s: Position, e: E.SkillsChosen) -> None:
        att, dfc, total = self.skills(s, e, "KO-1.3")
        self.set_wb(s, s.seat, attack=att, defence=dfc, supply=MANA - total)
        if s.seat + 1 < 4:
            s.seat += 1
        else:
            s.seat, s.step = 0, "place"

    @applies(E.MiniaturesPlaced)
    def a_placed(self, s: Position, e: E.MiniaturesPlaced) -> None:
        w = s.current.id
        new = [Piece(e.colossus, w, "colossus")] + [Piece(q, w, "guardian") for q in e.guardians] \
            + [Piece(q, w, "warrior") for q in e.warriors]
        held = self.occupancy(s)
        seen: set[str] = set()
        for p in new:  # (a placement a judge's ruling lets stand, KO-40: a square holds one miniature)
            if p.square in held or p.square in seen:
                raise Undefined(f"miniatures placed by {e.warband}: {p.square} would hold two miniatures")
            seen.add(p.square)
        s.pieces = s.pieces + tuple(new)
        if s.seat + 1 < 4:
            s.seat += 1
            return
        s.order = 0
        self.next_quake(s, 0)

    def next_quake(self, s: Position, order: int) -> None:
        k = self.quake_seat(s, order)
        if k is None:
            s.step, s.order, s.seat, s.quake_roll = "round-start", 0, s.first, 0
        else:
            s.step, s.order, s.seat, s.quake_roll = "quake-roll", k, (s.first + k) % 4, 0

    def gain(self, s: Position, value: int) -> None:
        if s.options.chapter < 2:
            return
        w = s.current
        g = self.mana_gain(s, value, w.supply + w.pending)
        self.set_wb(s, s.seat, supply=w.supply + w.pending - g, pending=g)

    @applies(E.QuakeRolled)
    def a_quake_roll(self, s: Position, e: E.QuakeRolled) -> None:
        s.quake_roll, s.rolls, s.step = e.value, s.rolls + 1, "quake-shift"
        if s.options.invasion_mana:
            self.gain(s, e.value)

    def shift(self, s: Position, region: str, direction: str, distance: int, by: str) -> None:
        """Slide a region's landscapes and miniatures; what leaves the board is gone (KO-5, KO-6)."""
        b = board_of(s)
        line = b.regions.get(region)
        if line is None:
            raise Undefined(f"{region!r} is no region of the board")
        dirs = b.region_directions(region)
        if direction not in dirs or distance < 0:  # (a slide a judge's ruling lets stand, KO-40)
            raise Undefined(f"{region} slides {dirs[0]} or {dirs[1]} by 0 or more squares, not {distance} {direction}")
        sign = 1 if direction == dirs[0] else -1
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
        s.levels, s.pieces, s.citadel = tuple(levels), tuple(pieces), citadel
        self.beat(s, fallen, by)

    def beat(self, s: Position, gone: list[Piece], by: str) -> None:
        if not gone:
            return
        s.queue = s.queue + tuple(E.MiniatureBeaten(warband=p.warband, character=p.character, square=p.square, by=by)
                                  for p in gone)
        s.ending = self.wipeout(s)  # (the queue plays no part in a wipe-out)

    def wipeout(self, s: State | Position) -> Result | None:
        mode = s.options.wipeout
        if mode == "never":
            return None
        wbs = s.warbands
        if len(wbs) == 4 and len({p.warband for p in s.pieces} & {w.id for w in wbs}) == 4:
            return None  # (the usual case: every warband still has a miniature, so nobody is wiped out)
        alive = {w.id: 0 for w in wbs}
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
    def a_quake_shift(self, s: Position, e: E.QuakeShifted) -> None:
        self.shift(s, e.region, e.direction, e.distance, "quake")
        s.quaked, s.quakers = s.quaked + (e.region,), s.quakers + (s.current.player,)
        if s.current.pending > 0:
            s.step = "allocate"
        else:
            self.next_quake(s, s.order + 1)

    @applies(E.RoundStarted)
    def a_round_started(self, s: Position, e: E.RoundStarted) -> None:
        first = s.seat_of(e.first)
        placed = 1 if s.crystals_left > 0 else 0
        s.round, s.first, s.seat, s.order, s.captured_by = e.round, first, first, 0, None
        s.crystals_left, s.on_citadel, s.step = s.crystals_left - placed, s.on_citadel + placed, "turn-start"

    @applies(E.TurnStarted)
    def a_turn_started(self, s: Position, e: E.TurnStarted) -> None:
        seat = s.seat  # the warband the event names plays (a stated turn a judge's ruling let stand)
        if s.warbands[seat].id != e.warband:
            seat = s.seat_of(e.warband)
            if seat < 0:
                raise Undefined(f"turn started names {e.warband!r}, which is no warband of this match")
            s.seat, s.order = seat, (seat - s.first) % 4
        s.step, s.destiny, s.points, s.initiative, s.acted, s.activation = "destiny", 0, 0, False, False, None

    @applies(E.DestinyRolled)
    def a_destiny(self, s: Position, e: E.DestinyRolled) -> None:
        v = e.value
        s.destiny, s.points, s.rolls, s.step = v, v, s.rolls + 1, "act"
        if s.options.chapter >= 2:
            w = s.warbands[s.seat]  # (gain, inline)
            g = self.mana_gain(s, v, w.supply + w.pending)
            s.warbands = _wbs(s, s.seat, {"supply": w.supply + w.pending - g, "pending": g})

    @applies(E.InitiativeUsed)
    def a_initiative(self, s: Position, e: E.InitiativeUsed) -> None:
        w = s.current
        self.set_wb(s, s.seat, pool=w.pool - 1, supply=w.supply + 1)
        s.destiny, s.points, s.initiative = s.destiny + 1, s.points + 1, True
        self.gain(s, s.destiny)

    @applies(E.ActivationDeclared)
    def a_activation(self, s: Position, e: E.ActivationDeclared) -> None:
        s.points, s.acted, s.step = s.points - COST[e.character], True, "roll"
        s.activation = Activation(e.character, e.square)

    @applies(E.MovementRolled)
    def a_move_roll(self, s: Position, e: E.MovementRolled) -> None:
        a = s.activation
        s.rolls = s.rolls + len(e.dice)
        if a is None:  # a roll that stands without an activation (KO-40): the dice are used, nothing moves
            return
        bonus = s.warbands[s.seat].attack[CI[a.character]] if s.options.chapter >= 2 else 0
        s.step, s.activation = "move", replace(a, dice=tuple(e.dice), mp=sum(e.dice) + bonus)

    @applies(E.MiniatureMoved)
    def a_move(self, s: Position, e: E.MiniatureMoved) -> None:
        try:
            wk = self.walk(s, e)
        except Illegal:  # a move a judge's ruling lets stand (KO-40)
            wk = self.stood_walk(s, e)
        self._walk = None  # (kept for the position's identity: the working position changes now)
        end = wk.names[-1]
        gone = wk.beaten
        mover = wk.mover
        moved = replace(mover, square=end, activated=True)
        pieces = list(s.pieces)
        pieces[wk.mover_at] = moved
        new = tuple([p for p in pieces if p not in gone]) if gone else tuple(pieces)  # (a beaten miniature is not the mover's side)
        self.moved_index(s, new, mover, end, gone)
        s.pieces = new
        a = s.activation
        if a is None:  # (a move that stands without an activation: the miniature moves, nothing else)
            self.beat(s, gone, e.warband)
            return
        s.step, s.activation = "act", replace(a, at=end, left=wk.left)
        if e.weapon is not None:
            w = s.current
            self.set_wb(s, s.seat, charged=False, supply=w.supply + WEAPON_CHARGE)
        if gone:
            self.beat(s, gone, e.warband)
        if wk.capture:
            s.queue = s.queue + (E.CrystalsCaptured(warband=e.warband, count=s.on_citadel),)

    @applies(E.WeaponUsed)
    def a_weapon(self, s: Position, e: E.WeaponUsed) -> None:
        a = s.activation
        if a is None:
            raise Undefined(f"weapon used by {e.warband}: no Colossus was activated to wield the {WEAPONS[e.weapon]}")
        w = s.current
        occ = self.occupancy(s)
        try:
            if a.at is None:  # (the Colossus has not moved: no use of it is legal, KO-8.1)
                raise Illegal("KO-8.1", "", "")
            cost = self.weapon_cost(s, w, a, e)
        except Illegal:  # a use a judge's ruling lets stand (KO-40): the miniatures targeted are beaten
            cost = 0
            missing = [t for t in e.targets if t not in occ]
            if missing:
                raise Undefined(f"weapon used by {e.warband}: there is no miniature on {missing[0]!r} to beat")
        gone = list(dict.fromkeys(occ[t] for t in e.targets))
        s.pieces, s.activation = tuple(p for p in s.pieces if p not in gone), replace(a, left=a.left - cost)
        # (the charge goes back to the supply: none when a use that stands found the weapon not charged)
        self.set_wb(s, s.seat, charged=False, supply=w.supply + (WEAPON_CHARGE if w.charged else 0))
        self.beat(s, gone, e.warband)

    @applies(E.EarthquakeUsed)
    def a_earthquake(self, s: Position, e: E.EarthquakeUsed) -> None:
        w = s.current
        self.set_wb(s, s.seat, pool=w.pool - EARTHQUAKE_COST, supply=w.supply + EARTHQUAKE_COST)
        s.activation, s.acted = self.after_power(s), True
        self.shift(s, e.region, e.direction, 1, "earthquake")

    def after_power(self, s: Position) -> Activation | None:
        """The activation after a Titan Power: none (a power ends what the last activation could
        still do); one declared and not yet moved stays when a power a judge's ruling lets stand
        came at its roll or move (KO-40)."""
        return s.activation if s.step == "roll" or s.step == "move" else None

    @applies(E.RebirthUsed)
    def a_rebirth(self, s: Position, e: E.RebirthUsed) -> None:
        w = s.current
        cost = REBIRTH_COST[e.character]
        beaten = list(w.beaten)
        beaten[CI[e.character]] -= 1
        if beaten[CI[e.character]] < 0:  # (a rebirth a judge's ruling lets stand, KO-40)
            raise Undefined(f"rebirth used: no {title(e.character)} of the {wname(w.id)} is off the board to return")
        there = self.occupancy(s).get(e.square)
        if there is not None:
            raise Undefined(f"rebirth used: {e.square} holds the {wname(there.warband)} {title(there.character)}; "
                            f"a square holds one miniature")
        self.set_wb(s, s.seat, pool=w.pool - cost, supply=w.supply + cost, beaten=tuple(beaten))
        s.pieces = s.pieces + (Piece(e.square, w.id, e.character, reborn=True),)
        s.activation, s.acted = self.after_power(s), True

    @applies(E.TurnEnded)
    def a_turn_end(self, s: Position, e: E.TurnEnded) -> None:
        w = s.warbands[s.seat]
        wid = w.id
        new = tuple([replace(p, activated=False, reborn=False) if (p.activated or p.reborn) and p.warband == wid else p
                     for p in s.pieces])  # (one pass: most miniatures rest already)
        self.same_squares(s, new)
        # (the next step read from the position before the miniatures rest: they do not change it)
        if s.options.chapter >= 2 and w.pending > 0:
            s.step = "allocate"
        else:
            self.next_turn(s)
        s.pieces, s.activation, s.points = new, None, 0

    def next_turn(self, s: Position) -> None:
        """The turn of ``s`` is over: the next warband's turn starts, or the round ends."""
        order = s.order + 1
        if order < 4:
            s.order, s.seat, s.step = order, (s.first + order) % 4, "turn-start"
        else:
            s.order, s.step = order, "game-end" if s.round >= s.options.rounds else "round-start"

    @applies(E.ManaAllocated)
    def a_allocate(self, s: Position, e: E.ManaAllocated) -> None:
        w = s.warbands[s.seat]
        att, dfc, skills = self.skills(s, e, "KO-7.2")
        used = skills + e.pool + e.weapon
        wa, wd = w.attack, w.defence
        s.warbands = _wbs(s, s.seat, {"attack": (wa[0] + att[0], wa[1] + att[1], wa[2] + att[2]),
                                      "defence": (wd[0] + dfc[0], wd[1] + dfc[1], wd[2] + dfc[2]), "pool": w.pool + e.pool,
                                      "charged": w.charged or e.weapon == WEAPON_CHARGE, "pending": 0,
                                      "supply": w.supply + w.pending - used})
        if s.round == 0:
            self.next_quake(s, s.order + 1)
        else:
            self.next_turn(s)  # (the skills do not change whose turn is next)

    @applies(E.MiniatureBeaten)
    def a_beaten(self, s: Position, e: E.MiniatureBeaten) -> None:
        seat = s.seat_of(e.warband)
        beaten = list(s.warbands[seat].beaten)
        beaten[CI[e.character]] += 1
        self.set_wb(s, seat, beaten=tuple(beaten))
        s.queue = s.queue[1:]

    @applies(E.CrystalsCaptured)
    def a_captured(self, s: Position, e: E.CrystalsCaptured) -> None:
        seat = s.seat_of(e.warband)
        self.set_wb(s, seat, crystals=s.warbands[seat].crystals + e.count)
        s.queue, s.on_citadel, s.last_capture, s.captured_by = s.queue[1:], s.on_citadel - e.count, seat, seat

    @applies(E.GameEnded)
    def a_game_ended(self, s: Position, e: E.GameEnded) -> None:
        s.result = Result(e.result, e.winner, tuple(e.alliance), e.reason)
        s.step, s.queue, s.ending = "over", (), None


def _wbs(s: State | Position, seat: int, changes: dict[str, Any]) -> tuple[Any, ...]:
    """``s.warbands`` with the warband at ``seat`` changed."""
    wbs = s.warbands
    return wbs[:seat] + (replace(wbs[seat], **changes),) + wbs[seat + 1:]
