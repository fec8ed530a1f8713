"""An independent oracle of the Kolossus rules, written from seed 002 and docs/rules/kolossus.md,
for the audit properties (tests/test_audit_kolossus.py).

Nothing here calls the engine's rule helpers: the oracle reads a position's plain facts (the
levels of the squares, the miniatures, the warbands' character boards, the step, the activation)
and says from the rule text what may happen next and what an event must do.  It reads the board
file only for what is data by the project's reading (the start zones, KO-2; the central regions,
KO-3); the geometry (names, neighbours, lines) is its own.

Events are compared as *keys*: the event's fields as builtins, without the envelope (seq, at,
note), with a Hammer's targets as a set.
"""

from __future__ import annotations

import math
import random
from itertools import combinations
from typing import Any

import msgspec

from adjudicator.games.kolossus import events as E
from adjudicator.games.kolossus.board import load_board

LETTERS = "abcdefghijklmnopqrstuvwxyz"
DIRS: dict[str, tuple[int, int]] = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
                                    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
CLASSES = ("warrior", "guardian", "colossus")
#: seed 002 ch.1 IV.1: activation cost and movement dice per class; Content: the army
COST = {"warrior": 1, "guardian": 2, "colossus": 3}
NDICE = {"warrior": 1, "guardian": 2, "colossus": 3}
ARMY = {"warrior": 5, "guardian": 2, "colossus": 1}
#: ch.3 II-b: Rebirth prices; Earthquake 3; a weapon's charge 2; the pool at most 5
REBIRTH = {"warrior": 1, "guardian": 2, "colossus": 3}
CI = {c: i for i, c in enumerate(CLASSES)}


def key(e: Any) -> Any:
    """An event as comparable builtins (no envelope; a Hammer's targets unordered)."""
    d = msgspec.to_builtins(e)
    for k in ("seq", "at", "note"):
        d.pop(k, None)
    d = {k: v for k, v in d.items() if v is not None and v != {} and not (k == "path" and v == [])}
    if d.get("type") == "WeaponUsed":
        d["targets"] = sorted(d["targets"])
    for k in ("attack", "defence"):
        if k in d:
            d[k] = {c: n for c, n in d[k].items() if n}
            if not d[k]:
                del d[k]
    if d.get("type") == "MiniaturesPlaced":
        d["guardians"], d["warriors"] = sorted(d["guardians"]), sorted(d["warriors"])
    return msgspec.json.encode(d, order="sorted")


class Geo:
    """The square board of ``n`` x ``n`` squares: names, coordinates, lines."""

    def __init__(self, n: int) -> None:
        self.n = n
        self._xy = {f"{LETTERS[c]}{r + 1}": (c, r) for c in range(n) for r in range(n)}

    def name(self, c: int, r: int) -> str:
        return f"{LETTERS[c]}{r + 1}"

    def xy(self, sq: str) -> tuple[int, int]:
        return self._xy[sq]

    def on(self, c: int, r: int) -> bool:
        return 0 <= c < self.n and 0 <= r < self.n

    def idx(self, sq: str) -> int:
        c, r = self._xy[sq]
        return r * self.n + c

    def line(self, region: str) -> list[str]:
        """The squares of a region from its low end (west, south)."""
        if region.startswith("row-"):
            r = int(region[4:]) - 1
            return [self.name(c, r) for c in range(self.n)]
        c = LETTERS.index(region[len("column-"):])
        return [self.name(c, r) for r in range(self.n)]

    def regions(self) -> list[str]:
        return [f"row-{r + 1}" for r in range(self.n)] + [f"column-{LETTERS[c]}" for c in range(self.n)]


_GEOS: dict[int, Geo] = {}


def geo(s: Any) -> Geo:
    n = math.isqrt(len(s.levels))
    if n not in _GEOS:
        _GEOS[n] = Geo(n)
    return _GEOS[n]


def level(s: Any, g: Geo, sq: str) -> int:
    return s.levels[g.idx(sq)]


def seat(s: Any, wid: str) -> int:
    return [w.id for w in s.warbands].index(wid)


def allied(s: Any, a: str, b: str) -> bool:
    """Seed 002 ch.1 II: the warbands of diagonally opposite seats (seats 1+3, 2+4) are allies."""
    return seat(s, a) % 2 == seat(s, b) % 2


def defence(s: Any, p: Any) -> int:
    if s.options.chapter < 2:
        return 0
    return s.warbands[seat(s, p.warband)].defence[CI[p.character]]


def occ(s: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in s.pieces:
        assert p.square not in out, f"two miniatures on {p.square}"
        out[p.square] = p
    return out


def movers(s: Any) -> list[Any]:
    """The miniatures the declared activation may move (KO-4.4, KO-11, KO-27)."""
    a, w = s.activation, s.warbands[s.seat]
    return [p for p in s.pieces if p.warband == w.id and p.character == a.character and not p.activated
            and (not p.reborn or s.options.rebirth_can_activate) and (a.square is None or a.square == p.square)]


# -- moves ------------------------------------------------------------------------------------------
def move_verdict(s: Any, path: list[str], weapon: str | None) -> tuple[set[str], list[Any]]:
    """The rules a move breaks at its first offending step (empty: legal) and what it beats.

    Seed 002 ch.1 IV.2: straight, at most the movement points; levels equal or one apart (the
    Colossus skips levels); own miniatures passed over, never ended on; entering an enemy ends the
    move and beats it; IV.1: a Warrior never turns, a Guardian or Colossus once.  Ch.2 I: the
    attacker needs the enemy's Defence left (KO-16: paid by default).  Ch.3 II: the Sword goes on
    after a beat, the Whip ignores Defence.  KO-13 (reversal), KO-15 (allies), KO-22 (immortal)."""
    g, o, opts = geo(s), occ(s), s.options
    a = s.activation
    me = s.warbands[s.seat].id
    mover = o[path[0]]
    mp, ch = a.mp, mover.character
    paid, turned, prev = 0, False, None
    beaten: list[Any] = []
    n = len(path) - 1
    for i in range(1, n + 1):
        (c0, r0), (c1, r1) = g.xy(path[i - 1]), g.xy(path[i])
        d = (c1 - c0, r1 - r0)
        assert d in DIRS.values(), path
        broken: set[str] = set()
        if prev is not None and d != prev:
            if ch == "warrior" or turned:
                broken.add("KO-5.3")
            elif not opts.allow_reversal and d == (-prev[0], -prev[1]):
                broken.add("KO-13")
            turned = True
        prev = d
        if i + paid > mp:
            broken.add("KO-5.4")
        if ch != "colossus" and abs(level(s, g, path[i]) - level(s, g, path[i - 1])) > 1:
            broken.add("KO-5.5")
        q = o.get(path[i])
        if q is not None and q is not mover and q not in beaten:
            own = q.warband == me
            ally = allied(s, q.warband, me)
            if own or (ally and opts.allies_as_own):
                if i == n:
                    broken.add("KO-5.6")
            elif ally:
                broken.add("KO-5.6")
            else:
                if i < n and weapon != "sword":
                    broken.add("KO-5.7")
                if q.character == "colossus" and not opts.colossus_beatable:
                    broken.add("KO-22")
                dfc = 0 if weapon == "whip" else defence(s, q)
                if mp - i - paid < dfc:
                    broken.add("KO-5.8")
                if opts.defence_mode == "cost":
                    paid += dfc
                beaten.append(q)
        if broken:
            return broken, beaten
    if weapon == "sword" and not any(q.square != path[-1] for q in beaten):
        return {"KO-8.2"}, beaten
    if weapon == "whip" and not beaten:
        return {"KO-8.3"}, beaten
    return set(), beaten


def shaped_paths(s: Any, start: str, longest: int, turns: int = 1) -> list[list[str]]:
    """Every path from ``start`` of at most ``longest`` steps on the board that goes straight with
    at most ``turns`` changes of direction (legal or not)."""
    g = geo(s)
    out: list[list[str]] = [[start]]

    def grow(path: list[str], d: tuple[int, int], left_turns: int) -> None:
        c, r = g.xy(path[-1])
        while len(path) - 1 < longest:
            c, r = c + d[0], r + d[1]
            if not g.on(c, r):
                return
            path = path + [g.name(c, r)]
            out.append(path)
            if left_turns:
                for d2 in DIRS.values():
                    if d2 != d:
                        grow(path, d2, left_turns - 1)

    for d in DIRS.values():
        grow([start], d, turns)
    return out


def weapons_in_move(s: Any) -> list[str | None]:
    w = s.warbands[s.seat]
    out: list[str | None] = [None]
    if s.activation.character == "colossus" and s.options.chapter >= 3 and w.charged and w.weapon in ("sword", "whip"):
        out.append(w.weapon)
    return out


def legal_moves(s: Any) -> set[bytes]:
    me = s.warbands[s.seat].id
    out: set[bytes] = set()
    for p in movers(s):
        for weapon in weapons_in_move(s):
            for path in shaped_paths(s, p.square, s.activation.mp, 0 if p.character == "warrior" else 1):
                if not move_verdict(s, path, weapon)[0]:
                    out.add(key(E.MiniatureMoved(warband=me, path=path, weapon=weapon)))
    return out


# -- the act step ---------------------------------------------------------------------------------------
def can_declare(s: Any, c: str) -> list[Any]:
    w = s.warbands[s.seat]
    if COST[c] > s.points:
        return []
    return [p for p in s.pieces if p.warband == w.id and p.character == c and not p.activated
            and (not p.reborn or s.options.rebirth_can_activate)]


def citadel_stays(s: Any, g: Geo, region: str, direction: str, distance: int) -> bool:
    """Ch.3 II-b: the Citadel of Time must not leave the board (KO-3.5 for the Great Quake)."""
    line = g.line(region)
    if s.citadel not in line:
        return True
    k = line.index(s.citadel) + (distance if direction in ("E", "N") else -distance)
    return 0 <= k < len(line)


def spear_targets(s: Any) -> list[list[str]]:
    """Ch.3 II: one miniature on one of the 8 lines, nothing in between, distance + Defence."""
    g, o = geo(s), occ(s)
    a = s.activation
    me = s.warbands[s.seat].id
    out = []
    c0, r0 = g.xy(a.at)
    for d in DIRS.values():
        c, r, dist = c0 + d[0], r0 + d[1], 1
        while g.on(c, r):
            q = o.get(g.name(c, r))
            if q is not None:
                if q.warband != me and not allied(s, q.warband, me) and \
                        (q.character != "colossus" or s.options.colossus_beatable) and dist + defence(s, q) <= a.left:
                    out.append([q.square])
                break
            c, r, dist = c + d[0], r + d[1], dist + 1
    return out


def hammer_targets(s: Any) -> list[list[str]]:
    """Ch.3 II: any of the enemies next to the Colossus, 1 + Defence each (KO-16 threshold: the
    points for every target plus the greatest Defence)."""
    g, o = geo(s), occ(s)
    a = s.activation
    me = s.warbands[s.seat].id
    c0, r0 = g.xy(a.at)
    near = []
    for d in DIRS.values():
        c, r = c0 + d[0], r0 + d[1]
        q = o.get(g.name(c, r)) if g.on(c, r) else None
        if q is not None and q.warband != me and not allied(s, q.warband, me) and \
                (q.character != "colossus" or s.options.colossus_beatable):
            near.append(q)
    out = []
    for n in range(1, len(near) + 1):
        for combo in combinations(near, n):
            ds = [defence(s, q) for q in combo]
            need = n + sum(ds) if s.options.defence_mode == "cost" else n + max(ds)
            if need <= a.left:
                out.append([q.square for q in combo])
    return out


def legal_act(s: Any) -> set[bytes]:
    w = s.warbands[s.seat]
    me, opts = w.id, s.options
    g = geo(s)
    out: list[Any] = []
    for c in CLASSES:
        ps = can_declare(s, c)
        if opts.choose_after_roll:
            if ps:
                out.append(E.ActivationDeclared(warband=me, character=c))
        else:
            out += [E.ActivationDeclared(warband=me, character=c, square=p.square) for p in ps]
    if not opts.must_spend_all or not any(can_declare(s, c) for c in CLASSES):
        out.append(E.TurnEnded(warband=me))
    if opts.chapter >= 3:
        if not s.initiative and not s.acted and s.destiny < 4 and w.pool >= 1:
            out.append(E.InitiativeUsed(warband=me))
        if w.pool >= 3:
            for r in g.regions():
                for d in (("E", "W") if r.startswith("row-") else ("N", "S")):
                    if citadel_stays(s, g, r, d, 1):
                        out.append(E.EarthquakeUsed(warband=me, region=r, direction=d))
        zone = zone_of(s, w)
        on_board = [p for p in s.pieces if p.warband == me]
        for c in CLASSES:
            beaten = ARMY[c] - sum(1 for p in on_board if p.character == c)
            if beaten > 0 and w.pool >= REBIRTH[c]:
                out += [E.RebirthUsed(warband=me, character=c, square=sq) for sq in zone if sq not in occ(s)]
        a = s.activation
        if a is not None and a.at is not None and a.character == "colossus" and w.charged:
            if w.weapon == "spear":
                out += [E.WeaponUsed(warband=me, weapon="spear", targets=t) for t in spear_targets(s)]
            elif w.weapon == "hammer":
                out += [E.WeaponUsed(warband=me, weapon="hammer", targets=t) for t in hammer_targets(s)]
    return {key(e) for e in out}


def zone_of(s: Any, w: Any) -> list[str]:
    b = load_board(s.options.board, s.setup.board_sha256)
    return [b.names[i] for i in b.corners[w.corner]]


# -- other steps --------------------------------------------------------------------------------------
def splits(total: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []

    def rec(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == 5:
            out.append(prefix + (left,))
            return
        for v in range(left + 1):
            rec(prefix + (v,), left - v)
    rec((), total)
    return out


def skills_ok(s: Any, w: Any, sp: tuple[int, ...]) -> bool:
    cap = s.options.skill_cap
    return cap is None or all(w.attack[i] + sp[i] <= cap and w.defence[i] + sp[3 + i] <= cap for i in range(3))


def as_event(cls: Any, me: str, sp: tuple[int, ...], **kw: Any) -> Any:
    return cls(warband=me, attack={c: sp[i] for i, c in enumerate(CLASSES) if sp[i]},
               defence={c: sp[3 + i] for i, c in enumerate(CLASSES) if sp[3 + i]}, **kw)


def legal_other(s: Any, dice_seq: list[int] | None) -> set[bytes]:
    """Every step but ``act`` and ``move``."""
    w = s.warbands[s.seat]
    me, opts, g = w.id, s.options, geo(s)
    out: list[Any] = []
    step = s.step

    def values(n: int) -> list[list[int]]:
        if dice_seq is not None:
            return [dice_seq[s.rolls:s.rolls + n]]
        vals: list[list[int]] = [[]]
        for _ in range(n):
            vals = [v + [x] for v in vals for x in (1, 2, 3, 4)]
        return vals

    if step == "skills":  # ch.2 I: exactly 4 on the skills
        out += [as_event(E.SkillsChosen, me, sp) for sp in splits(4) if skills_ok(s, w, sp)]
    elif step == "place":  # ch.1 II: 1 Colossus, 2 Guardians, 5 Warriors in the own corner
        zone = [q for q in zone_of(s, w) if q not in occ(s)]
        for chosen in combinations(zone, 8):
            for c in chosen:
                rest = [q for q in chosen if q != c]
                for gs in combinations(rest, 2):
                    out.append(E.MiniaturesPlaced(warband=me, colossus=c, guardians=list(gs),
                                                  warriors=[q for q in rest if q not in gs]))
    elif step == "quake-roll":
        out += [E.QuakeRolled(warband=me, value=v[0]) for v in values(1)]
    elif step == "destiny":
        out += [E.DestinyRolled(warband=me, value=v[0]) for v in values(1)]
    elif step == "roll":
        out += [E.MovementRolled(warband=me, dice=v) for v in values(NDICE[s.activation.character])]
    elif step == "quake-shift":  # ch.1 III
        b = load_board(opts.board, s.setup.board_sha256)
        regions = list(b.central_regions) if opts.quake_regions == "central" else g.regions()
        dists = [s.quake_roll] if opts.quake_distance == "exact" else list(range(1, s.quake_roll + 1))
        for r in regions:
            if r in s.quaked:
                continue
            for d in (("E", "W") if r.startswith("row-") else ("N", "S")):
                out += [E.QuakeShifted(warband=me, region=r, direction=d, distance=n) for n in dists
                        if citadel_stays(s, g, r, d, n)]
    elif step == "allocate":  # ch.2 II, ch.3 I
        pools = range(0, min(w.pending, 5 - w.pool) + 1) if opts.chapter >= 3 else [0]
        charges = [0, 2] if opts.chapter >= 3 and w.weapon is not None and not w.charged else [0]
        for pool in pools:
            for ch in charges:
                for total in range(0, w.pending - pool - ch + 1):
                    out += [as_event(E.ManaAllocated, me, sp, pool=pool, weapon=ch) for sp in splits(total)
                            if skills_ok(s, w, sp)]
    else:
        raise AssertionError(step)
    return {key(e) for e in out}


# -- what an event does -------------------------------------------------------------------------------
def slide(s: Any, region: str, direction: str, distance: int) -> tuple[dict[str, int], dict[str, str], list[str], str]:
    """KO-5/KO-6 and ch.3 II-b: a region's landscapes and miniatures move rigidly; what crosses
    the edge leaves the game; the squares left behind are bare board.  The new levels of the
    line's squares, where each miniature of the line goes, the squares whose miniature falls off,
    and where the Citadel stands."""
    g = geo(s)
    line = g.line(region)
    sign = 1 if direction in ("E", "N") else -1
    levels: dict[str, int] = {sq: 1 for sq in line}
    for k, sq in enumerate(line):
        j = k + sign * distance
        if 0 <= j < len(line):
            levels[line[j]] = level(s, g, sq)
    moves: dict[str, str] = {}
    fallen: list[str] = []
    for p in s.pieces:
        if p.square in line:
            j = line.index(p.square) + sign * distance
            if 0 <= j < len(line):
                moves[p.square] = line[j]
            else:
                fallen.append(p.square)
    cit = s.citadel
    if cit in line:
        cit = line[line.index(cit) + sign * distance]
    return levels, moves, fallen, cit


def generator(seed: int) -> list[int]:
    """KO-2.2: ``random.Random(seed).randint(1, 4)`` per die, in log order."""
    rng = random.Random(seed)
    return [rng.randint(1, 4) for _ in range(4000)]
