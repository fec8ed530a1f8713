"""Apply: what each checked event does to the position (a new immutable State), the regions that
slide, the miniatures beaten and a wiped-out warband's end (KO-21)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from adjudicator.core.kit import applies
from adjudicator.core.rulings import Illegal, Undefined

from . import events as E
from .basics import CI, board_of, title, wname
from .movement import Movement
from .state import COST, EARTHQUAKE_COST, MANA, REBIRTH_COST, WEAPON_CHARGE, WEAPONS, Activation, Piece, Result, State
from .titan import TitanPowers


class Apply(Movement, TitanPowers):
    """The apply handlers (they assume the event was checked)."""

    # -- apply ------------------------------------------------------------------------------------------------
    def with_wb(self, s: State, seat: int, **changes: Any) -> State:
        return replace(s, warbands=_wbs(s, seat, changes))

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
        held = self.occupancy(s)
        seen: set[str] = set()
        for p in new:  # (a placement a judge's ruling lets stand, KO-40: a square holds one miniature)
            if p.square in held or p.square in seen:
                raise Undefined(f"MiniaturesPlaced by {e.warband}: {p.square} would hold two miniatures")
            seen.add(p.square)
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
        s = replace(s, levels=tuple(levels), pieces=tuple(pieces), citadel=citadel)
        return self.beat(s, fallen, by)

    def beat(self, s: State, gone: list[Piece], by: str) -> State:
        if not gone:
            return s
        queue = s.queue + tuple(E.MiniatureBeaten(warband=p.warband, character=p.character, square=p.square, by=by) for p in gone)
        return replace(s, queue=queue, ending=self.wipeout(s))  # (the queue plays no part in a wipe-out)

    def wipeout(self, s: State) -> Result | None:
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
        v = e.value
        if s.options.chapter < 2:
            return replace(s, destiny=v, points=v, rolls=s.rolls + 1, step="act")
        w = s.warbands[s.seat]  # (gain, in the same replace)
        g = self.mana_gain(s, v, w.supply + w.pending)
        return replace(s, destiny=v, points=v, rolls=s.rolls + 1, step="act",
                       warbands=_wbs(s, s.seat, {"supply": w.supply + w.pending - g, "pending": g}))

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
        bonus = s.warbands[s.seat].attack[CI[a.character]] if s.options.chapter >= 2 else 0
        return replace(s, rolls=s.rolls + len(e.dice), step="move",
                       activation=replace(a, dice=tuple(e.dice), mp=sum(e.dice) + bonus))

    @applies(E.MiniatureMoved)
    def a_move(self, s: State, e: E.MiniatureMoved) -> State:
        try:
            wk = self.walk(s, e)
        except Illegal:  # a move a judge's ruling lets stand (KO-40)
            wk = self.stood_walk(s, e)
        end = wk.names[-1]
        gone = wk.beaten
        mover = wk.mover
        moved = replace(mover, square=end, activated=True)
        pieces = list(s.pieces)
        pieces[wk.mover_at] = moved
        new = tuple([p for p in pieces if p not in gone]) if gone else tuple(pieces)  # (a beaten miniature is not the mover's side)
        self.moved_index(s, new, mover, end, gone)
        a = s.activation
        if a is None:  # (a move that stands without an activation: the miniature moves, nothing else)
            return self.beat(replace(s, pieces=new), gone, e.warband)
        s = replace(s, pieces=new, step="act", activation=replace(a, at=end, left=wk.left))
        if e.weapon is not None:
            w = s.current
            s = self.with_wb(s, s.seat, charged=False, supply=w.supply + WEAPON_CHARGE)
        if gone:
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
            if a.at is None:  # (the Colossus has not moved: no use of it is legal, KO-8.1)
                raise Illegal("KO-8.1", "", "")
            cost = self.weapon_cost(s, w, a, e)
        except Illegal:  # a use a judge's ruling lets stand (KO-40): the miniatures targeted are beaten
            cost = 0
            missing = [t for t in e.targets if t not in occ]
            if missing:
                raise Undefined(f"WeaponUsed by {e.warband}: there is no miniature on {missing[0]!r} to beat")
        gone = list(dict.fromkeys(occ[t] for t in e.targets))
        s = replace(s, pieces=tuple(p for p in s.pieces if p not in gone), activation=replace(a, left=a.left - cost))
        # (the charge goes back to the supply: none when a use that stands found the weapon not charged)
        s = self.with_wb(s, s.seat, charged=False, supply=w.supply + (WEAPON_CHARGE if w.charged else 0))
        return self.beat(s, gone, e.warband)

    @applies(E.EarthquakeUsed)
    def a_earthquake(self, s: State, e: E.EarthquakeUsed) -> State:
        w = s.current
        s = self.with_wb(s, s.seat, pool=w.pool - EARTHQUAKE_COST, supply=w.supply + EARTHQUAKE_COST)
        s = replace(s, activation=self.after_power(s), acted=True)
        return self.shift(s, e.region, e.direction, 1, "earthquake")

    def after_power(self, s: State) -> Activation | None:
        """The activation after a Titan Power: none (a power ends what the last activation could
        still do); one declared and not yet moved stays when a power a judge's ruling lets stand
        came at its roll or move (KO-40)."""
        return s.activation if s.step == "roll" or s.step == "move" else None

    @applies(E.RebirthUsed)
    def a_rebirth(self, s: State, e: E.RebirthUsed) -> State:
        w = s.current
        cost = REBIRTH_COST[e.character]
        beaten = list(w.beaten)
        beaten[CI[e.character]] -= 1
        if beaten[CI[e.character]] < 0:  # (a rebirth a judge's ruling lets stand, KO-40)
            raise Undefined(f"RebirthUsed: no {title(e.character)} of the {wname(w.id)} is off the board to return")
        there = self.occupancy(s).get(e.square)
        if there is not None:
            raise Undefined(f"RebirthUsed: {e.square} holds the {wname(there.warband)} {title(there.character)}; "
                            f"a square holds one miniature")
        s = self.with_wb(s, s.seat, pool=w.pool - cost, supply=w.supply + cost, beaten=tuple(beaten))
        return replace(s, pieces=s.pieces + (Piece(e.square, w.id, e.character, reborn=True),),
                       activation=self.after_power(s), acted=True)

    @applies(E.TurnEnded)
    def a_turn_end(self, s: State, e: E.TurnEnded) -> State:
        seat = s.seat
        w = s.warbands[seat]
        wid = w.id
        pieces = s.pieces
        # (the next step read from the position before the miniatures rest: they do not change it)
        more = {"step": "allocate"} if s.options.chapter >= 2 and w.pending > 0 else self.turn_after(s)
        new = tuple([replace(p, activated=False, reborn=False) if (p.activated or p.reborn) and p.warband == wid else p
                     for p in pieces])  # (one pass: most miniatures rest already)
        self.same_squares(s, new)
        return replace(s, pieces=new, activation=None, points=0, **more)

    def turn_after(self, s: State) -> dict[str, Any]:
        """What changes when the turn of ``s`` is over: the next warband's turn starts, or the round ends."""
        order = s.order + 1
        if order < 4:
            return {"order": order, "seat": (s.first + order) % 4, "step": "turn-start"}
        return {"order": order, "step": "game-end" if s.round >= s.options.rounds else "round-start"}

    def next_turn(self, s: State) -> State:
        return replace(s, **self.turn_after(s))

    @applies(E.ManaAllocated)
    def a_allocate(self, s: State, e: E.ManaAllocated) -> State:
        w = s.warbands[s.seat]
        att, dfc, skills = self.skills(s, e, "KO-7.2")
        used = skills + e.pool + e.weapon
        wa, wd = w.attack, w.defence
        wbs = _wbs(s, s.seat, {"attack": (wa[0] + att[0], wa[1] + att[1], wa[2] + att[2]),
                               "defence": (wd[0] + dfc[0], wd[1] + dfc[1], wd[2] + dfc[2]), "pool": w.pool + e.pool,
                               "charged": w.charged or e.weapon == WEAPON_CHARGE, "pending": 0,
                               "supply": w.supply + w.pending - used})
        if s.round == 0:
            return self.next_quake(replace(s, warbands=wbs), s.order + 1)
        return replace(s, warbands=wbs, **self.turn_after(s))  # (the skills do not change whose turn is next)

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


def _wbs(s: State, seat: int, changes: dict[str, Any]) -> tuple[Any, ...]:
    """``s.warbands`` with the warband at ``seat`` changed."""
    wbs = s.warbands
    return wbs[:seat] + (replace(wbs[seat], **changes),) + wbs[seat + 1:]
