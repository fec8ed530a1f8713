"""Legal events: candidates, a superset of every legal event, that ``check`` filters (so the two
never disagree), and who acts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, product
from typing import Any

from . import events as E
from .basics import CI, DERIVED_STEPS, board_of
from .board import DIRECTIONS, OPPOSITE
from .queries import Queries
from .state import (
    CHARACTERS, DICE, EARTHQUAKE_COST, INITIAL_SKILLS, POOL_MAX, REBIRTH_COST, WEAPON_CHARGE, Activation, State, Warband,
)


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


class Legal(Queries):
    """Candidates and who acts."""

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
