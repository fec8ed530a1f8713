"""Movement (KO-5, KO-8.1-8.3): a move checked square by square, what it does (:class:`Walk`),
and what an illegal move a judge's ruling lets stand does (KO-40)."""

from __future__ import annotations

from typing import Any

import msgspec

from adjudicator.core.kernel.kit import LazyLegal, checks
from adjudicator.core.kernel.rulings import Illegal, Undefined

from . import events as E
from .basics import NS, TITLES, bad, board_of, title, wname
from .board import DIRECTION_OF, OPPOSITE, Board, step_name
from .queries import Queries
from .state import WARBANDS, WEAPON_CHARGE, WEAPONS, Activation, Piece, State

_OK = NS + "ok"


class Walk(msgspec.Struct, gc=False):
    """What a checked move does: the miniatures it beats, what is left, the squares of its path.
    (A struct: built in one call per move.)"""

    beaten: list[Piece]
    left: int
    capture: bool
    mover: Piece
    turn_at: int
    defence_paid: int
    #: the squares of the path by name
    names: list[str]
    #: the mover's index in the position's pieces
    mover_at: int


class Movement(Queries):
    """The check of MiniatureMoved."""

    # movement --------------------------------------------------------------------------------------------------
    def resolve_path(self, e: E.MiniatureMoved) -> list[str]:
        compact = e.start is not None or e.direction is not None or e.steps is not None or e.turn is not None \
            or e.turn_steps is not None
        if not compact:
            if not e.path:
                raise bad("KO-5.2", "empty-path", "miniature moved names no path (a move of no steps is the path of its own square)")
            return list(e.path)
        if e.start is None:
            raise bad("KO-5.2", "compact-incomplete", "miniature moved: a move given by direction needs its start square")
        steps = e.steps or 0
        turn_steps = e.turn_steps or 0
        if steps < 0 or turn_steps < 0:
            raise bad("KO-5.2", "bad-length", f"miniature moved: steps {steps}, turn_steps {turn_steps}; lengths are not negative")
        if steps and e.direction is None:
            raise bad("KO-5.2", "compact-incomplete", f"miniature moved: {steps} steps from {e.start} need a direction")
        if (e.turn is None) != (e.turn_steps is None) or (e.turn is not None and (steps < 1 or turn_steps < 1 or e.turn == e.direction)):
            raise bad("KO-5.2", "bad-turn", "miniature moved: a change of direction needs steps before it, a new direction "
                      "(turn) and steps after it (turn_steps)")
        if steps + turn_steps > 60:
            raise bad("KO-5.4", "too-far", f"miniature moved: {steps + turn_steps} steps; no board is that large")
        path = [e.start]
        at: str | None = e.start
        for direction, n in ((e.direction, steps), (e.turn, turn_steps)):
            for _ in range(n):
                nxt = step_name(at, direction, 1) if at is not None else None
                if nxt is None:
                    raise bad("KO-5.2", "off-board", f"miniature moved: step {len(path)} from {at} {direction} leaves the board")
                path.append(nxt)
                at = nxt
        if e.path and list(e.path) != path:
            raise bad("KO-5.2", "path-mismatch", f"miniature moved gives the path {e.path} and a direction form that "
                      f"walks {path}; they must agree")
        return path

    def _start(self, s: State, e: E.MiniatureMoved) -> tuple[Any, Activation, list[Any], Board, int, dict[str, int],
                                                              Piece, int]:
        """Where a move starts (KO-11): a square of the board holding the warband's miniature of
        the activated class, the one the activation named.  The acting warband, the activation,
        the path's squares, the board, the start's index, the square index, the mover and its
        index in the position's pieces."""
        w = self.actor(s, e, "move")
        a = s.activation
        assert a is not None
        if e.start is None and e.direction is None and e.steps is None and e.turn is None and e.turn_steps is None \
                and e.path:
            names = e.path  # (the usual form: the path of squares; resolve_path would copy it)
        else:
            names = self.resolve_path(e)
        b = board_of(s)
        first = names[0]
        start = b.index.get(first) if isinstance(first, str) else None
        if start is None:
            raise bad("KO-5.2", "unknown-square", f"miniature moved: {first!r} is not a square of the board")
        pieces = s.pieces
        k = s.squares  # (square_index, a working position's kept answer read inline: once per move)
        at = k[1] if k is not None and k[0] is pieces else self.square_index(s)
        ch = a.character
        mover_at = at.get(first)
        p = None if mover_at is None else pieces[mover_at]
        if p is not None and p.warband == w.id and p.character == ch and not p.activated and not p.reborn:
            mover = p  # (what mover_ok accepts at once)
        else:
            mover = self.mover_ok(s, w, ch, p, first, "miniature moved")
        if a.square is not None and first != a.square:
            raise bad("KO-11", "not-the-named-miniature", f"miniature moved starts on {first}; the activation named the "
                      f"{ch} on {a.square}")
        return w, a, names, b, start, at, mover, mover_at  # type: ignore[return-value]

    def walk(self, s: State, e: E.MiniatureMoved) -> Walk:
        """Check a move square by square; the result says what it does."""
        c = self._walk  # (kept for the position checked: a working position that still equals it counts)
        if c is not None and c[1] is e and (c[0] is s or c[0] is getattr(s, "_frozen", None)):
            return c[2]
        w, a, names, b, start, at, mover, mover_at = self._start(s, e)
        ch, weapon = a.character, e.weapon
        if weapon is not None:
            self._check_weapon(s, e, w, ch, weapon)
        pieces = s.pieces
        mp = a.mp
        colossus = ch == "colossus"
        n = len(names) - 1
        here = start
        prev_dir: str | None = None
        turn_at = 0
        extra = 0
        beaten: list[Piece] = []
        adjacent = b.adjacent
        levels = s.levels
        for i in range(1, n + 1):
            tn = names[i]
            try:
                t, dname = adjacent[here][tn]
            except (KeyError, TypeError):  # not a neighbour's name (or not a name: unhashable): say why
                t, dname = self._not_a_step(b, here, names, i)
            if prev_dir is not None and dname != prev_dir:
                turn_at = _turn(i, names[i - 1], tn, ch, prev_dir, dname, turn_at, s.options.allow_reversal)
            prev_dir = dname
            if i + extra > mp:
                raise bad("KO-5.4", "too-far", f"step {i} {names[i - 1]}->{tn} is beyond the {mp} movement points"
                          + (f" ({extra} already paid for Defence)" if extra else ""))
            if not colossus and not -1 <= levels[t] - levels[here] <= 1:
                _jump(i, names[i - 1], tn, levels[here], levels[t])
            here = t
            k = at.get(tn)
            if k is None:
                continue
            p = pieces[k]
            if p is mover or p in beaten:
                continue
            dfc = self._meet(s, e, w, p, i, n, names, mp - i - extra)
            if dfc is None:
                continue
            if s.options.defence_mode == "cost":
                extra += dfc
            beaten.append(p)
        if weapon is not None:
            self._weapon_used(weapon, beaten, names)
        result = Walk(beaten, mp - n - extra, s.on_citadel != 0 and self._captures(s, names), mover, turn_at,
                      extra, names, mover_at)
        self._walk = (s, e, result)
        return result

    @staticmethod
    def _not_a_step(b: Board, here: int, names: list[Any], i: int) -> tuple[int, str]:
        """Step ``i`` does not name a neighbouring square of ``here``: why (KO-5.2)."""
        an, tn = names[i - 1], names[i]
        t = b.index.get(tn) if isinstance(tn, str) else None
        if t is None:
            raise bad("KO-5.2", "off-board", f"step {i} {an}->{tn}: {tn!r} is not a square of the board")
        size = b.size
        dname = DIRECTION_OF.get((t % size - here % size, t // size - here // size))
        if dname is None:
            raise bad("KO-5.2", "not-a-step", f"step {i} {an}->{tn} is not a step to a neighbouring square")
        return t, dname  # (unreachable on a well-formed board: its neighbour table holds every step)

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
        for name in names:
            if not isinstance(name, str) or name not in b.index:
                raise Undefined(f"miniature moved: {name!r} is not a square of the {b.size}x{b.size} board")
        occ = self.occupancy(s)
        mover = occ.get(names[0])
        if mover is None:
            raise Undefined(f"miniature moved: there is no miniature on {names[0]} to move")
        there = occ.get(names[-1])
        beaten: list[Piece] = []
        if there is not None and there is not mover:
            if there.warband == mover.warband or self.allied(s, there.warband, mover.warband):
                raise Undefined(f"miniature moved: {names[-1]} holds the {wname(there.warband)} {title(there.character)}, "
                                f"on the {wname(mover.warband)} {title(mover.character)}'s side; a square holds one miniature")
            beaten.append(there)
        mp = s.activation.mp if s.activation is not None else 0
        return Walk(beaten, max(0, mp - (len(names) - 1)), self._captures(s, names), mover, 0, 0, names,
                    self.square_index(s)[names[0]])

    def _check_weapon(self, s: State, e: E.MiniatureMoved, w: Any, ch: str, weapon: str) -> None:
        """A Titan Weapon: chapter 3, the warband's own Colossus, charged (KO-8.1)."""
        self.chapter(s, e, 3, "KO-8.1")
        if ch != "colossus":
            raise bad("KO-8.1", "not-colossus", f"miniature moved: only a Colossus wields a Titan Weapon; this is a {ch}")
        if w.weapon != weapon:
            raise bad("KO-8.1", "not-your-weapon", f"miniature moved: the {wname(w.id)} Colossus wields the "
                      f"{WEAPONS.get(w.weapon or '', 'no weapon')}, not the {WEAPONS[weapon]} (KO-25)")
        if not w.charged:
            raise bad("KO-8.1", "not-charged", f"miniature moved: the {WEAPONS[weapon]} is not charged with {WEAPON_CHARGE} mana")

    def _meet(self, s: State, e: E.MiniatureMoved, w: Any, p: Piece, i: int, n: int, names: list[Any],
              left: int) -> int | None:
        """Step ``i`` enters a square held by ``p``: None to pass an own (or allied) miniature,
        else the enemy's Defence the move pays to beat it."""
        opts = s.options
        an, tn = names[i - 1], names[i]
        own = p.warband == w.id
        ally = own or self.allied(s, p.warband, w.id)
        if own or (opts.allies_as_own and ally):
            if i == n:
                whose = "its own" if own else "an allied"
                raise bad("KO-5.6", "ends-on-own", f"step {i} {an}->{tn} ends the move on {tn}, held by {whose} "
                          f"{wname(p.warband)} {title(p.character)}")
            return None
        if ally:
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
    def _weapon_used(weapon: str | None, beaten: list[Piece], names: list[str]) -> None:
        """The Sword must carry the move on past a beaten enemy (KO-8.2); the Whip must beat one (KO-8.3).
        (``names``: the path's squares, each a square of the board by its one name.)"""
        if weapon == "sword" and not any(p.square != names[-1] for p in beaten):
            raise bad("KO-8.2", "sword-unused", "miniature moved with the Sword of Storm: the move must go on after beating "
                      "an enemy, or the Sword is not used")
        if weapon == "whip" and not beaten:
            raise bad("KO-8.3", "whip-unused", "miniature moved with the Whip of Wrath beats nobody")

    @staticmethod
    def _captures(s: State, names: list[str]) -> bool:
        """Does the move capture the Citadel's crystals (where the move ends; with ``on-enter`` also
        on the way, KO-18)?  A move of no steps ends where it starts, so a miniature already on the
        Citadel captures in both readings; one that only leaves it captures in neither.
        (``names``: the path's squares, each a square of the board by its one name.)"""
        if not s.on_citadel:
            return False
        cit = s.citadel
        return names[-1] == cit or (s.options.crystal_capture == "on-enter" and cit in names[1:])

    @checks(E.MiniatureMoved, rule="KO-5.1")
    def c_move(self, s: State, e: E.MiniatureMoved) -> LazyLegal:
        # (the words are written only when someone reads them: the verify loop reads the verdict)
        return LazyLegal("KO-5.1", _OK, _moved, s, e, self.walk(s, e))  # (lazy_legal's, without its frame)


def _moved(s: State, e: E.MiniatureMoved, wk: Walk) -> str:
    """A legal move in words: who moves what where, and what it beats and captures."""
    names = wk.names
    what = f"{WARBANDS.get(e.warband, e.warband)} {TITLES[wk.mover.character]} {names[0]}->{names[-1]} " \
           f"({len(names) - 1} of {s.activation.mp if s.activation else 0} movement points" \
           + (f", change of direction at step {wk.turn_at})" if wk.turn_at else ")")
    if wk.beaten:
        what += "; beats " + ", ".join(f"the {wname(p.warband)} {title(p.character)} on {p.square}" for p in wk.beaten)
    if wk.capture:
        what += f"; captures {s.on_citadel} crystal(s) on the Citadel"
    return what


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
