"""Titan Weapons used after a move and Titan Powers (chapter 3: KO-8.1, KO-8.4-8.8)."""

from __future__ import annotations

from adjudicator.core.kernel.kit import checks

from . import events as E
from .basics import CI, bad, board_of, title, wname
from .board import DIRECTION_OF
from .queries import Queries
from .state import EARTHQUAKE_COST, REBIRTH_COST, WEAPONS, Activation, State, Warband


class TitanPowers(Queries):
    """The checks of WeaponUsed, EarthquakeUsed and RebirthUsed."""

    # Titan Weapons and Powers ----------------------------------------------------------------------------------
    @checks(E.WeaponUsed, rule="KO-8.1")
    def c_weapon(self, s: State, e: E.WeaponUsed) -> None:
        self.chapter(s, e, 3, "KO-8.1")
        w = self.actor(s, e, "act")
        a = s.activation
        if a is None or a.at is None or a.character != "colossus":
            raise bad("KO-8.1", "not-after-colossus-move", f"weapon used by {w.id}: the {WEAPONS[e.weapon]} is used right "
                      f"after the Colossus's move in its own activation")
        if w.weapon != e.weapon:
            raise bad("KO-8.1", "not-your-weapon", f"weapon used by {w.id}: its Colossus wields the "
                      f"{WEAPONS.get(w.weapon or '', 'no weapon')}, not the {WEAPONS[e.weapon]} (KO-25)")
        if not w.charged:
            raise bad("KO-8.1", "not-charged", f"weapon used by {w.id}: the {WEAPONS[e.weapon]} is not charged")
        self.weapon_cost(s, w, a, e)

    def weapon_cost(self, s: State, w: Warband, a: Activation, e: E.WeaponUsed) -> int:
        b = board_of(s)
        occ = self.occupancy(s)
        at = b.index[a.at]
        rule = "KO-8.4" if e.weapon == "spear" else "KO-8.5"
        if not e.targets:
            raise bad(rule, "no-target", f"weapon used by {w.id}: the {WEAPONS[e.weapon]} names no target")
        if e.weapon == "spear" and len(e.targets) != 1:
            raise bad("KO-8.4", "one-target", f"weapon used by {w.id}: the Spear of Vengeance beats one miniature, not {len(e.targets)}")
        if len(set(e.targets)) != len(e.targets):
            raise bad("KO-8.5", "same-target", f"weapon used by {w.id} names a target twice")
        total = 0
        worst = 0
        cost_mode = s.options.defence_mode == "cost"
        for tn in e.targets:
            t = self.square(s, tn, rule, f"weapon used by {w.id}")
            dc, dr = b.delta(at, t)
            dist = max(abs(dc), abs(dr))
            if e.weapon == "spear":
                if dist == 0 or not (dc == 0 or dr == 0 or abs(dc) == abs(dr)):
                    raise bad("KO-8.4", "not-in-line", f"weapon used by {w.id}: {tn} is not in a straight line "
                              f"(orthogonal or diagonal) from the Colossus on {a.at}")
                unit = (dc // dist, dr // dist)
                sq = at
                for k in range(1, dist):
                    sq = b.step[DIRECTION_OF[unit]][sq]
                    if b.names[sq] in occ:
                        p = occ[b.names[sq]]
                        raise bad("KO-8.4", "blocked", f"weapon used by {w.id}: the Spear's line {a.at}->{tn} is blocked on "
                                  f"{b.names[sq]} by the {wname(p.warband)} {title(p.character)} there")
            elif dist != 1:
                raise bad("KO-8.5", "not-adjacent", f"weapon used by {w.id}: {tn} is not next to the Colossus on {a.at}")
            p = occ.get(tn)
            if p is None:
                raise bad(rule, "no-enemy", f"weapon used by {w.id}: there is no miniature on {tn}")
            if p.warband == w.id or self.allied(s, p.warband, w.id):
                raise bad(rule, "not-enemy", f"weapon used by {w.id}: the {p.character} on {tn} is "
                          f"{'own' if p.warband == w.id else 'allied'} ({wname(p.warband)})")
            if p.character == "colossus" and not s.options.colossus_beatable:
                raise bad("KO-22", "immortal-colossus", f"weapon used by {w.id}: the {wname(p.warband)} Colossus on {tn} "
                          f"cannot be beaten (colossus_beatable off)")
            dfc = self.defence(s, p)
            total += dist + (dfc if cost_mode else 0)
            worst = max(worst, dfc)
        need = total if cost_mode else total + worst
        if need > a.left:
            raise bad(rule, "points", f"weapon used by {w.id}: the {WEAPONS[e.weapon]} needs {need} movement points "
                      f"({'distance' if e.weapon == 'spear' else '1 per target'} plus Defence); the Colossus has {a.left} left")
        return total

    @checks(E.EarthquakeUsed, rule="KO-8.7")
    def c_earthquake(self, s: State, e: E.EarthquakeUsed) -> None:
        self.chapter(s, e, 3, "KO-8.7")
        w = self.actor(s, e, "act")
        if w.pool < EARTHQUAKE_COST:
            raise bad("KO-8.7", "pool", f"earthquake used by {w.id}: costs {EARTHQUAKE_COST} mana from the pool, which holds {w.pool}")
        line = self.region(s, e, "KO-8.7", "KO-8.7")
        self.citadel_stays(s, e, line, 1, "KO-8.7")

    @checks(E.RebirthUsed, rule="KO-8.8")
    def c_rebirth(self, s: State, e: E.RebirthUsed) -> None:
        self.chapter(s, e, 3, "KO-8.8")
        w = self.actor(s, e, "act")
        cost = REBIRTH_COST[e.character]
        if w.pool < cost:
            raise bad("KO-8.8", "pool", f"rebirth used by {w.id}: a {e.character} costs {cost} mana from the pool, which holds {w.pool}")
        if w.beaten[CI[e.character]] < 1:
            raise bad("KO-8.8", "none-beaten", f"rebirth used by {w.id}: no {e.character} of {wname(w.id)} has been beaten")
        b = board_of(s)
        i = self.square(s, e.square, "KO-8.8", f"rebirth used by {w.id}")
        if i not in b.corners[w.corner]:
            raise bad("KO-8.8", "outside-zone", f"rebirth used by {w.id}: {e.square} is not in its start zone {w.corner}")
        p = self.occupancy(s).get(e.square)
        if p is not None:
            raise bad("KO-8.8", "occupied", f"rebirth used by {w.id}: {e.square} is held by the {wname(p.warband)} {title(p.character)}")
