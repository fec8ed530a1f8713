"""Race to N, a tiny game on the kit: the game of the core's tests, as a plugin package.

Players alternate; on a turn the player adds 1-3 to a shared total (``Added``); the engine derives
``TurnPassed`` after each addition and ``Won`` when the total reaches the target.

Its events, position and rules fit in this one module, so it names them on the class
(``event_types``, ``state_type``, ``rules_type`` ...); a bigger game splits them into the modules
``events``, ``state``, ``rules`` of its package, where the kit finds them by name.  The rule
titles are data (``data/rules.toml``, shipped as package data); the scene is ``scene.py``, the text
of ``adjudicator state`` ``render.py``.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from typing import Any, ClassVar

import msgspec

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.kit import KitGame, MatchStartedBase, Refs, RulesBase, applies, checks
from adjudicator.core.kernel.rulings import Illegal, Rulebook

NS = "toy/"
#: the rule ids and titles, from the package's data
RULES: dict[str, str] = tomllib.loads(files(__package__).joinpath("data", "rules.toml").read_text("utf-8"))["rules"]


class MatchStarted(MatchStartedBase):
    ruleset: str = "standard"
    options: dict[str, Any] = {}
    target: int = 10


class Added(Event):
    player: str
    n: int


class TurnPassed(Event):
    kind: ClassVar[str] = "X"
    to: str


class Won(Event):
    kind: ClassVar[str] = "X"
    player: str


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class ToyState(msgspec.Struct, frozen=True):
    setup: MatchStarted
    players: tuple[str, ...]
    target: int
    total: int = 0
    turn: int = 0
    passed: bool = True
    winner: str | None = None
    last: str | None = None


def current(s: ToyState) -> str:
    return s.players[s.turn % len(s.players)]


class ToyRules(RulesBase):
    namespace = NS

    def not_proposed(self, s: ToyState, e: Event) -> Illegal:
        return Illegal("TOY-2", NS + "unexpected", type(e).__name__)

    def precheck(self, s: ToyState, e: Any) -> None:
        if e.player != current(s):
            raise Illegal("TOY-2", NS + "not-your-turn", f"{e.player} moved but it is {current(s)}'s turn")

    @checks(Added, rule="TOY-3")
    def c_added(self, s: ToyState, e: Added) -> None:
        if not 1 <= e.n <= 3:
            raise Illegal("TOY-3", NS + "bad-amount", f"n={e.n} is not 1-3")

    @applies(Added)
    def a_added(self, s: ToyState, e: Added) -> ToyState:
        return msgspec.structs.replace(s, total=s.total + e.n, passed=False, last=e.player)

    @applies(Won)
    def a_won(self, s: ToyState, e: Won) -> ToyState:
        return msgspec.structs.replace(s, winner=e.player)

    @applies(TurnPassed)
    def a_passed(self, s: ToyState, e: TurnPassed) -> ToyState:
        return msgspec.structs.replace(s, turn=s.turn + 1, passed=True)

    def derive(self, s: ToyState) -> Event | None:
        if s.winner is not None:
            return None
        if s.total >= s.target and s.last is not None:
            return Won(player=s.last)
        if not s.passed:
            return TurnPassed(to=s.players[(s.turn + 1) % len(s.players)]) if s.last is not None else None
        return None

    def candidates(self, s: ToyState) -> list[Event]:
        return [] if s.winner else [Added(player=current(s), n=n) for n in (0, 1, 2, 3, 4)]

    def to_act(self, s: ToyState) -> list[str]:
        return [] if s.winner else [current(s)]


class ToyGame(KitGame[ToyState]):
    id: ClassVar[str] = "toy"
    name: ClassVar[str] = "Race to N (test game)"
    rulebook: ClassVar[Rulebook] = Rulebook("TOY", RULES)
    event_types = (MatchStarted, Added, TurnPassed, Won)
    state_type = ToyState
    rules_type = ToyRules
    options_type = Options
    presets: ClassVar[dict[str, dict[str, Any]]] = {"standard": {}}
    refs = Refs(player="player", to="player")
    #: the viewer tests wrap ToyGame.check on the class
    bind_rules = False

    def invariants(self, state: ToyState) -> list[tuple[str, str]]:
        """The total never passes the target by more than one addition; the winner is a player."""
        out = []
        if not 0 <= state.total <= state.target + 3:
            out.append(("total", f"{state.total} is outside 0..{state.target + 3}"))
        if state.winner is not None and state.winner not in state.players:
            out.append(("winner", f"{state.winner!r} is not a player"))
        return out

    setup_rule = "TOY-1"

    def check_setup(self, setup: Any) -> None:
        if len(setup.players) != 2:
            raise Illegal("TOY-1", NS + "players", f"{len(setup.players)} players")

    def initial_state(self, setup: Any) -> ToyState:
        return ToyState(setup, tuple(setup.players), setup.target, passed=False)

    def current(self, s: ToyState) -> str:
        return current(s)

    def outcome(self, s: ToyState) -> Any:
        from adjudicator.core.kernel.protocol import Outcome

        return Outcome("win", s.winner, "target reached") if s.winner else None

    def players(self, s: ToyState) -> list[str]:
        return list(s.players)

    def sample_setup(self, seed: int, *, long: bool = False) -> MatchStarted:
        return MatchStarted(game="toy", players=["a", "b"], target=(20_000 if long else 5 + seed % 20))

