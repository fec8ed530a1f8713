"""The Kolossus rules' base: what a position holds and owes (occupancy, alliances, Defence, the
declared die generator, whose step it is), and the checks every handler shares (the acting
warband, the chapter, a square, dice, skills, a mover, a region that slides)."""

from __future__ import annotations

import random
import threading
from typing import Any

from adjudicator.core.kernel.kit import Owed, RulesBase
from adjudicator.core.kernel.rulings import Illegal
from adjudicator.core.kernel.notation import kind_words

from . import events as E
from .basics import CI, DERIVED_STEPS, NS, bad, board_of, title, wname
from .state import CHARACTERS, DICE, Activation, Piece, Result, State, Warband


class Queries(RulesBase):
    """The Kolossus rules; positions name their board, so nothing here is bound to a match."""

    namespace = NS

    def __init__(self) -> None:
        self._occ: tuple[Any, dict[str, Piece]] | None = None
        #: (pieces, square -> index in pieces): see square_index
        self._at: tuple[Any, dict[str, int]] | None = None
        #: (event, its skills): see skills
        self._skills: tuple[Any, Any] | None = None
        self._walk: tuple[Any, Any, Any] | None = None  # (state, move, movement.Walk)
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

    def square_index(self, s: State) -> dict[str, int]:
        """Where each miniature of ``s`` stands: square -> its index in ``s.pieces``.  Kept from one
        position to the next where apply knows it stays true (the miniatures rested at the end of
        a turn stand where they stood; a move without a beat changes one square): the check of a
        move reads it, and rebuilding it is most of that check's cost."""
        pieces = s.pieces
        if s.__class__ is not State:  # a working position keeps its own (no copy when a move updates it)
            k = s.squares
            if k is not None and k[0] is pieces:
                return k[1]
            at = {p.square: i for i, p in enumerate(pieces)}
            s.squares = (pieces, at)  # type: ignore[misc]
            return at
        c = self._at
        if c is not None and c[0] is pieces:
            return c[1]
        at = {p.square: i for i, p in enumerate(pieces)}
        self._at = (pieces, at)
        return at

    def same_squares(self, s: State, pieces: tuple[Piece, ...]) -> None:
        """``pieces`` stand on the squares of ``s.pieces``, in the same order: the same index."""
        k = s.squares
        if k is not None and k[0] is s.pieces:
            s.squares = (pieces, k[1])  # type: ignore[misc]
        c = self._at
        if c is not None and c[0] is s.pieces:
            self._at = (pieces, c[1])

    def moved_index(self, s: State, pieces: tuple[Piece, ...], mover: Piece, end: str, gone: list[Piece]) -> None:
        """``pieces``: ``s.pieces`` with ``mover`` moved to ``end``; with nothing beaten (``gone``)
        every other index stays, so the index of ``s`` is updated: a working position's own in
        place (nothing else holds it), the frozen positions' shared one as a new dict (the one
        handed out before is not changed)."""
        k = s.squares
        if k is not None and k[0] is s.pieces:
            if gone:
                s.squares = None  # type: ignore[misc]
            else:
                at = k[1]
                at[end] = at.pop(mover.square)
                s.squares = (pieces, at)  # type: ignore[misc]
            return
        c = self._at
        if gone or c is None or c[0] is not s.pieces:
            return
        at = dict(c[1])
        at[end] = at.pop(mover.square)
        self._at = (pieces, at)

    def allied(self, s: State, a: str, b: str) -> bool:
        return s.seat_of(a) % 2 == s.seat_of(b) % 2

    def defence(self, s: State, p: Piece) -> int:
        if s.options.chapter < 2:
            return 0
        w = s.wb(p.warband)
        return w.defence[CI[p.character]] if w is not None else 0

    def generated(self, seed: int, start: int, n: int) -> list[int]:
        ent = self._gens.get(seed)
        if ent is not None and len(ent[1]) >= start + n:  # drawn already (a sequence only grows: no lock to read it)
            return ent[1][start:start + n]
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

    def any_activatable(self, s: State, warband: str, character: str) -> bool:
        """Is some miniature :meth:`can_activate` (one loop, no call per miniature)?"""
        resting = not s.options.rebirth_can_activate
        for p in s.pieces:
            if p.warband == warband and p.character == character and not p.activated and not (p.reborn and resting):
                return True
        return False

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
            "skills": f"skills chosen by {w}",
            "place": f"miniatures placed by {w}",
            "quake-roll": f"quake rolled by {w}",
            "quake-shift": f"quake shifted by {w}",
            "allocate": f"mana allocated by {w}",
            "destiny": f"destiny rolled by {w}",
            "act": f"an activation, a Titan Power or turn ended by {w} ({s.points} activation points left)",
            "roll": f"movement rolled by {w} ({DICE[a.character] if a else '?'} dice for the {title(a.character) if a else '?'})",
            "move": f"miniature moved by {w} (a {title(a.character) if a else '?'} with {a.mp if a else '?'} movement points)",
        }.get(s.step, s.step)

    def expected(self, s: State) -> str:
        o = self.owed(s)
        return f"{o.expects} ({o.why})" if o.why else o.expects

    def actor(self, s: State, e: Any, *steps: str) -> Warband:
        """The acting warband: known, at a step allowing the event, and the one whose step it is.
        (The first question of every check handler that does not ask :meth:`chapter` first: a
        position without four warbands is rejected before anything else.)"""
        ws, seat = s.warbands, s.seat
        if len(ws) == 4 and 0 <= seat < 4:  # the usual case first: the warband whose step it is, at a step that allows the event
            cur = ws[seat]
            if e.warband == cur.id and s.result is None and not s.queue and s.ending is None and s.step in steps:
                return cur
        self.four_seats(s, e)
        if s.wb(e.warband) is None:
            raise bad("KO-4.1", "unknown-warband", f"{kind_words(e)}: {e.warband!r} is not a warband of this match "
                      f"({', '.join(w.id for w in s.warbands)})")
        if s.result is not None or s.queue or s.ending is not None or s.step not in steps:
            raise self.out_of_step(s, e)
        if e.warband != s.current.id:
            raise bad("KO-4.1", "not-your-step", f"{kind_words(e)} by {e.warband}: it is {s.current.id}'s step "
                      f"({self.expected(s)})")
        return s.current

    def chapter(self, s: State, e: Any, n: int, rule: str) -> None:
        """The event belongs to chapter ``n`` (checked first by the handlers of later chapters'
        events: the position must seat four warbands first)."""
        if len(s.warbands) != 4:
            self.four_seats(s, e)
        if s.options.chapter < n:
            raise bad(rule, "chapter", f"{kind_words(e)} belongs to chapter {n}; this match plays chapter {s.options.chapter}")

    def square(self, s: State, name: Any, rule: str, what: str) -> int:
        i = board_of(s).index.get(name) if isinstance(name, str) else None
        if i is None:
            raise bad(rule, "unknown-square", f"{what}: {name!r} is not a square of the {board_of(s).size}x{board_of(s).size} board")
        return i

    def dice(self, s: State, e: Any, values: list[int], n: int) -> None:
        if len(values) != n:
            raise bad("KO-4.5", "dice-count", f"{kind_words(e)} records {len(values)} dice; this roll takes {n} d4")
        for v in values:
            if not 1 <= v <= 4:
                raise bad("KO-2.1", "not-a-d4", f"{kind_words(e)}: {v} is not the result of a d4 (1 to 4)")
        setup = s.setup
        if setup.rng is not None and setup.seed is not None:
            ent = self._gens.get(setup.seed)
            if ent is not None and ent[1][s.rolls:s.rolls + n] == values:  # (a sequence only grows: read without the lock)
                return  # (the usual case: the dice the generator gave, drawn already)
            want = self.generated(setup.seed, s.rolls, n)
            if list(values) != want:
                first = s.rolls + 1
                which = f"die {first}" if n == 1 else f"dice {first}-{first + n - 1}"
                raise bad("KO-2.2", "roll-mismatch", f"{kind_words(e)} records {list(values)}; the declared generator "
                          f"{setup.rng} (seed {setup.seed}) gives {want} for {which} of the match")

    def skills(self, s: State, e: Any, rule: str) -> tuple[tuple[int, int, int], tuple[int, int, int], int]:
        c = self._skills
        if c is not None and c[0] is e:  # (a function of the event alone: apply reuses what its check found)
            return c[1]
        att, dfc = [0, 0, 0], [0, 0, 0]
        for name, given, target in (("attack", e.attack, att), ("defence", e.defence, dfc)):
            for k, v in given.items():
                if k not in CI:
                    raise bad(rule, "unknown-class", f"{kind_words(e)}: {name} names {k!r}; the classes are warrior, guardian, colossus")
                if v < 0:
                    raise bad(rule, "negative", f"{kind_words(e)}: {name}.{k} is {v}; mana cannot be taken back")
                target[CI[k]] = v
        found = (att[0], att[1], att[2]), (dfc[0], dfc[1], dfc[2]), sum(att) + sum(dfc)
        self._skills = (e, found)
        return found

    def skill_cap(self, s: State, e: Any, w: Warband, att: tuple[int, ...], dfc: tuple[int, ...], rule: str) -> None:
        cap = s.options.skill_cap
        if cap is None:
            return
        for name, now, add in (("attack", w.attack, att), ("defence", w.defence, dfc)):
            for i, c in enumerate(CHARACTERS):
                if now[i] + add[i] > cap:
                    raise bad("KO-24", "skill-cap", f"{kind_words(e)}: {c} {name} would hold {now[i] + add[i]} mana; "
                              f"the ruleset caps a skill at {cap}")

    # -- the check ----------------------------------------------------------------------------------------
    # (the kit's wrapper RulesBase.check calls these, then the @checks handler)
    def not_proposed(self, s: State, e: Any) -> Illegal:
        return bad("KO-4.1", "derived-event", f"{kind_words(e)} is derived by the engine; it is never proposed")

    # (no precheck: every check handler asks :meth:`chapter` or :meth:`actor` first, and both
    # reject a position without four warbands before anything else, :meth:`four_seats`; a
    # precheck would cost a call per event)
    def four_seats(self, s: State, e: Any) -> None:
        if len(s.warbands) != 4:
            raise bad("KO-1.1", "four-seats", f"{kind_words(e)}: the set-up seats {len(s.warbands)} warbands, "
                      f"so nothing can be played")

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

    # regions -----------------------------------------------------------------------------------------------
    def region(self, s: State, e: Any, rule_axis: str, rule_region: str) -> tuple[int, ...]:
        """The squares of the region an event slides, checked to exist and to slide along itself."""
        b = board_of(s)
        line = b.regions.get(e.region) if isinstance(e.region, str) else None
        if line is None:
            raise bad(rule_region, "unknown-region", f"{kind_words(e)}: {e.region!r} is not a region of this board "
                      f"(row-1 .. row-{b.size}, column-a .. column-{b.names[b.size - 1][0]})")
        dirs = b.region_directions(e.region)
        if e.direction not in dirs:
            raise bad(rule_axis, "wrong-direction", f"{kind_words(e)}: {e.region} is a {b.region_axis(e.region)}; "
                      f"it slides {dirs[0]} or {dirs[1]}, not {e.direction}")
        return line

    def citadel_stays(self, s: State, e: Any, line: tuple[int, ...], distance: int, rule: str) -> None:
        b = board_of(s)
        cit = b.index[s.citadel]
        if cit in line:
            k = line.index(cit) + (distance if e.direction == b.region_directions(e.region)[0] else -distance)
            if not 0 <= k < len(line):
                raise bad(rule, "citadel-off-board", f"{kind_words(e)}: sliding {e.region} {distance} {e.direction} "
                          f"would push the Citadel of Time from {s.citadel} off the board")
