"""Generate the Kolossus example logs in ``examples/kolossus/``.

``python -m tests.make_kolossus_examples`` rewrites the files; ``tests/test_kolossus_examples.py``
checks that regenerating gives the committed files byte for byte.

The three complete matches (one per chapter, four players) are played by :class:`Bot`, a simple
rule-of-thumb player (beat what it can reach, run for the Citadel, spend its activation points,
charge its Titan Weapon, use Rebirth, Initiative and an Earthquake that throws enemies off the
board).  Their dice come from the generator the log declares (``"rng": "python-random"``), so the
engine checks every roll.  The illegal logs are short scripted match prefixes whose dice the log
chooses freely (no generator); their last line breaks exactly one rule and its ``note`` says what
is wrong.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Callable

import msgspec
from msgspec.structs import replace

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.verify import propose
from adjudicator.games.kolossus import events as E
from adjudicator.games.kolossus.state import CHARACTERS, State

from .kolossus_scenarios import BOARD, GAME, F, I, K, T, Script, setup

OUT = Path(__file__).resolve().parent.parent / "examples" / "kolossus"

VALUE = {"warrior": 30, "guardian": 50, "colossus": 80}


# ==================================================================================================
# a rule-of-thumb player
# ==================================================================================================

class Bot:
    def __init__(self, script: Script, seed: int) -> None:
        self.s = script
        self.rng = random.Random(seed)
        self.features: set[str] = set()

    def dist_to_citadel(self, st: State, square: str) -> int:
        a, b = BOARD.index[square], BOARD.index[st.citadel]
        dc, dr = BOARD.delta(a, b)
        return max(abs(dc), abs(dr))

    def outcome(self, event: Event) -> tuple[list[Event], State]:
        ruling, derived, new = propose(GAME, self.s.state(), event)
        assert ruling.legal, ruling
        return derived, new

    def score(self, st: State, e: Event) -> float:
        t = type(e)
        noise = self.rng.random()
        me = st.current
        if t is E.MiniatureMoved:
            derived, new = self.outcome(e)
            v = sum(VALUE[d.character] for d in derived if type(d) is E.MiniatureBeaten)
            v += sum(120 * d.count for d in derived if type(d) is E.CrystalsCaptured)
            v += 3 * (self.dist_to_citadel(st, e.path[0]) - self.dist_to_citadel(st, e.path[-1]))
            if e.weapon:
                v -= 10
            return v + 2 * noise
        if t is E.ActivationDeclared:
            return {"colossus": 30, "guardian": 20, "warrior": 10}[e.character] + 15 * noise
        if t is E.TurnEnded:
            return 5.0
        if t is E.WeaponUsed:
            return 60.0 * len(e.targets) + noise
        if t is E.RebirthUsed:
            return {"warrior": 25, "guardian": 40, "colossus": 60}[e.character] + noise
        if t is E.InitiativeUsed:
            return 35.0 if st.destiny <= 2 else -1.0
        if t is E.EarthquakeUsed:
            derived, new = self.outcome(e)
            off = [d for d in derived if type(d) is E.MiniatureBeaten]
            enemy = sum(1 for d in off if new.seat_of(d.warband) % 2 != st.seat % 2)
            own = len(off) - enemy
            return 80.0 * enemy - 200.0 * own - 50.0 + noise if off else -100.0
        if t is E.ManaAllocated:
            spent = sum(e.attack.values()) + sum(e.defence.values()) + e.pool + e.weapon
            v = 10.0 * spent + 8 * e.weapon + (6 * e.pool if me.pool + e.pool <= 4 else 0)
            return v + 6 * noise
        return noise  # set-up choices, the Great Quake, dice (one legal value with a generator)

    def step(self) -> None:
        st = self.s.state()
        options = GAME.legal_events(st)
        best = max(options, key=lambda e: self.score(st, e))
        t = type(best)
        if t is E.MiniatureMoved:
            derived, _ = self.outcome(best)
            if any(type(d) is E.MiniatureBeaten for d in derived):
                self.features.add("beat")
            if any(type(d) is E.CrystalsCaptured for d in derived):
                self.features.add("crystal")
            if best.weapon:
                self.features.add(best.weapon)
            if len(best.path) > 2 and len({BOARD.delta(BOARD.index[a], BOARD.index[b])
                                            for a, b in zip(best.path, best.path[1:])}) == 2:
                self.features.add("change-of-direction")
        elif t is E.WeaponUsed:
            self.features.add(best.weapon)
        elif t in (E.RebirthUsed, E.EarthquakeUsed, E.InitiativeUsed):
            self.features.add(t.__name__)
        self.s.add(best)

    def play(self, max_events: int = 5000) -> Script:
        while self.s.state().result is None and len(self.s.events) < max_events:
            self.step()
        return self.s


def bot_match(chapter: int, seed: int) -> tuple[Script, Bot]:
    s = Script(f"chapter-{chapter}", seed=seed, rng="python-random")
    bot = Bot(s, seed)
    bot.play()
    return s, bot


# ==================================================================================================
# the illegal logs
# ==================================================================================================

#: the scripted Great Quake of the illegal logs: (roll, region, direction) per warband
QUAKE = [(3, "row-8", "W"), (1, "row-4", "E"), (2, "column-g", "S"), (1, "column-d", "N")]


def opening(ruleset: str = "chapter-1", skills: dict[str, Any] | None = None, quake: list[Any] | None = None,
            **kw: Any) -> Script:
    """A scripted match up to the first die of destiny of round 1 (tuatha's turn)."""
    s = Script(ruleset, **kw)
    s.skills_all(skills)
    s.place_all()
    for roll, region, direction in quake or QUAKE:
        s.add(E.QuakeRolled(warband=s.turn, value=roll))
        s.add(E.QuakeShifted(warband=s.turn, region=region, direction=direction, distance=roll))
        if s.state().step == "allocate":
            s.allocate()
    return s


def bad(s: Script, event: Event, note: str) -> Script:
    ruling = s.check(event)
    assert not ruling.legal, f"{event} is legal here: {ruling}"
    s.events.append(msgspec.structs.replace(event, note=note))
    return s


def pass_turns(s: Script, n: int, destiny: int = 4) -> None:
    for _ in range(n):
        s.destiny(destiny)
        s.end_turn()


def illegal_examples() -> dict[str, Callable[[], Script]]:
    def outside_zone() -> Script:
        s = Script()
        return bad(s, E.MiniaturesPlaced(warband=T, colossus="d9", guardians=["a10", "c10"],
                                         warriors=["a9", "b9", "a11", "b11", "c11"]),
                   "the Tua'tha Colossus is placed on d9, outside the NW start zone")

    def roll_mismatch() -> Script:
        s = Script(seed=1, rng="python-random")
        s.place_all()
        want = GAME.legal_events(s.state())[0].value
        return bad(s, E.QuakeRolled(warband=T, value=want % 4 + 1),
                   f"the declared generator (python-random, seed 1) gives {want} for the first die; the log records another value")

    def not_central() -> Script:
        s = Script()
        s.place_all()
        s.add(E.QuakeRolled(warband=T, value=2))
        return bad(s, E.QuakeShifted(warband=T, region="row-2", direction="E", distance=2),
                   "row 2 is not one of the central regions (rows and columns 4 to 8)")

    def region_twice() -> Script:
        s = Script()
        s.place_all()
        s.add(E.QuakeRolled(warband=T, value=2))
        s.add(E.QuakeShifted(warband=T, region="row-6", direction="E", distance=2))
        s.add(E.QuakeRolled(warband=K, value=3))
        return bad(s, E.QuakeShifted(warband=K, region="row-6", direction="W", distance=3),
                   "row 6 already moved in the Great Quake: each region moves at most once")

    def points() -> Script:
        s = opening()
        s.destiny(2)
        return bad(s, E.ActivationDeclared(warband=T, character="colossus"),
                   "a Colossus costs 3 activation points; the die of destiny gave 2")

    def activated_twice() -> Script:
        s = opening()
        s.destiny(2)
        s.activate("warrior")
        s.roll(2)
        s.move("c11", "d11", "e11")
        s.activate("warrior")
        s.roll(1)
        return bad(s, E.MiniatureMoved(warband=T, path=["e11", "f11"]),
                   "the Warrior on e11 already moved this turn; each miniature is activated once per turn")

    def through_enemy() -> Script:
        s = opening()
        s.destiny(3)
        s.activate("colossus")
        s.roll(4, 4, 4)
        return bad(s, E.MiniatureMoved(warband=T, path=["b10", "b9", "b8", "b7", "b6", "b5", "b4", "b3", "b2"]),
                   "the Colossus enters b3, held by a Firbolg Warrior: its move ends there, it cannot go on to b2")

    def climb() -> Script:
        s = opening()
        s.destiny(1)
        s.activate("warrior")
        s.roll(3)
        return bad(s, E.MiniatureMoved(warband=T, path=["a9", "a8", "a7"]),
                   "a8 is Hills (level 3), pushed there by the Great Quake: a Warrior on level 1 cannot climb two levels")

    def second_turn() -> Script:
        s = opening()
        s.destiny(2)
        s.activate("guardian")
        s.roll(4, 3)
        return bad(s, E.MiniatureMoved(warband=T, path=["c10", "d10", "e9", "e8"]),
                   "the Guardian goes E, then SE, then S: a second change of direction")

    def too_far() -> Script:
        s = opening()
        s.destiny(1)
        s.activate("warrior")
        s.roll(2)
        return bad(s, E.MiniatureMoved(warband=T, path=["c11", "d11", "e11", "f11"]),
                   "three steps with 2 movement points")

    def ends_on_own() -> Script:
        s = opening()
        s.destiny(1)
        s.activate("warrior")
        s.roll(1)
        return bad(s, E.MiniatureMoved(warband=T, path=["b9", "b10"]),
                   "the Warrior ends its move on b10, where its own Colossus stands")

    def defence() -> Script:
        skills = {w: ({"guardian": 2}, {"guardian": 2}) for w in (T, K, I)}
        skills[F] = ({}, {"warrior": 4})
        s = opening("chapter-2", skills=skills)
        s.destiny(3)
        s.activate("colossus")
        s.roll(3, 2, 2)
        return bad(s, E.MiniatureMoved(warband=T, path=["b10", "b9", "b8", "b7", "b6", "b5", "b4", "b3"]),
                   "7 steps with 7 movement points reach the Firbolg Warrior on b3, whose Defence is 4: nothing is left for it")

    def pool_in_chapter_2() -> Script:
        s = opening("chapter-2")
        s.destiny(1)
        s.add(E.TurnEnded(warband=T))
        return bad(s, E.ManaAllocated(warband=T, attack={"warrior": 2}, pool=1),
                   "the mana pool belongs to chapter 3; in chapter 2 new mana goes to skills only")

    def spear_blocked() -> Script:
        s = opening("chapter-3")
        pass_turns(s, 2)
        s.destiny(2)  # Ishtari: 2 mana, to charge the Spear
        s.add(E.TurnEnded(warband=I))
        s.allocate(weapon=2)
        pass_turns(s, 1)
        pass_turns(s, 2)
        s.destiny(3)
        s.activate("colossus")
        s.roll(4, 4, 3)
        s.move("j2")
        return bad(s, E.WeaponUsed(warband=I, weapon="spear", targets=["j9"]),
                   "the Spear's line from the Colossus on j2 to the Krell Warrior on j9 is blocked by the Ishtari Warrior on j3")

    def citadel_off() -> Script:
        quake = [(4, "row-6", "E"), (1, "row-4", "E"), (2, "column-g", "S"), (1, "column-d", "N")]
        s = opening("chapter-3", quake=quake)
        s.destiny(1)
        s.add(E.TurnEnded(warband=T))
        s.allocate(pool=3)
        pass_turns(s, 3)
        s.destiny(1)
        s.add(E.EarthquakeUsed(warband=T, region="row-6", direction="E"))
        s.add(E.TurnEnded(warband=T))
        s.allocate(pool=3)
        pass_turns(s, 3)
        s.destiny(4)
        return bad(s, E.EarthquakeUsed(warband=T, region="row-6", direction="E"),
                   "the Great Quake moved the Citadel to j6 and an Earthquake to k6: another slide east would push it off the board")

    def initiative_late() -> Script:
        s = opening("chapter-3")
        s.destiny(1)
        s.add(E.TurnEnded(warband=T))
        s.allocate(pool=3)
        pass_turns(s, 3)
        s.destiny(2)
        s.activate("warrior")
        s.roll(2)
        s.move("c11", "d11", "e11")
        return bad(s, E.InitiativeUsed(warband=T), "Initiative comes right after the die of destiny, not after a move")

    def derived_mismatch() -> Script:
        s = opening()
        s.destiny(1)
        s.end_turn()
        wrong = E.TurnStarted(round=1, warband=I)
        return bad(s, wrong, "the log states that Ishtari plays next; the engine derives Krell, the next seat clockwise")

    return {
        "illegal-KO-1.4-outside-start-zone.jsonl": outside_zone,
        "illegal-KO-2.2-roll-mismatch.jsonl": roll_mismatch,
        "illegal-KO-3.2-region-not-central.jsonl": not_central,
        "illegal-KO-3.3-region-moved-twice.jsonl": region_twice,
        "illegal-KO-4.3-not-enough-points.jsonl": points,
        "illegal-KO-4.4-activated-twice.jsonl": activated_twice,
        "illegal-KO-5.3-second-direction-change.jsonl": second_turn,
        "illegal-KO-5.4-too-far.jsonl": too_far,
        "illegal-KO-5.5-climb-two-levels.jsonl": climb,
        "illegal-KO-5.6-ends-on-own.jsonl": ends_on_own,
        "illegal-KO-5.7-path-through-enemy.jsonl": through_enemy,
        "illegal-KO-5.8-defence.jsonl": defence,
        "illegal-KO-7.2-pool-in-chapter-2.jsonl": pool_in_chapter_2,
        "illegal-KO-8.4-spear-blocked.jsonl": spear_blocked,
        "illegal-KO-8.6-initiative-after-a-move.jsonl": initiative_late,
        "illegal-KO-8.7-citadel-off-board.jsonl": citadel_off,
        "illegal-LOG-2-derived-mismatch.jsonl": derived_mismatch,
    }


# ==================================================================================================
# the files
# ==================================================================================================

SEEDS = {1: 21, 2: 12, 3: 13}


def legal_examples() -> dict[str, Callable[[], Script]]:
    return {f"legal-chapter-{c}.jsonl": (lambda c=c: bot_match(c, SEEDS[c])[0]) for c in (1, 2, 3)}


def generate() -> dict[str, bytes]:
    return {name: make().lines() for name, make in {**legal_examples(), **illegal_examples()}.items()}


def main(argv: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in generate().items():
        (OUT / name).write_bytes(data)
        print(f"wrote {OUT / name} ({len(data.splitlines())} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
