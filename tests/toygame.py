"""A tiny game used to test the core independently of any real game ("race to N").

Players alternate; on a turn the player adds 1-3 to a shared total (``Added``); the engine derives
``TurnPassed`` after each addition and ``Won`` when the total reaches the target.  A random
``Bonus`` (kind R) may be granted when the ruleset option ``bonus`` is on.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from adjudicator.core.events import Event
from adjudicator.core.protocol import Game, Outcome, RefError
from adjudicator.core.rulings import Illegal, Rulebook, Ruling, legal


class MatchStarted(Event):
    game: str
    players: list[str]
    ruleset: str = "standard"
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


class ToyState(msgspec.Struct, frozen=True):
    setup: MatchStarted
    players: tuple[str, ...]
    target: int
    total: int = 0
    turn: int = 0
    passed: bool = True
    winner: str | None = None
    last: str | None = None


class ToyGame(Game[ToyState]):
    id: ClassVar[str] = "toy"
    name: ClassVar[str] = "Race to N (test game)"
    rulebook: ClassVar[Rulebook] = Rulebook("TOY", {"TOY-1": "two players", "TOY-2": "it must be your turn",
                                                    "TOY-3": "add 1 to 3"})
    event_types = (MatchStarted, Added, TurnPassed, Won)
    state_type = ToyState

    def validate_refs(self, setup: Any, event: Event) -> None:
        for f in ("player", "to"):
            p = getattr(event, f, None)
            if p is not None and p not in setup.players:
                raise RefError(f, f"unknown player {p!r} (players: {', '.join(setup.players)})")

    def setup_of(self, s: ToyState) -> Event:
        return s.setup

    def check_start(self, setup: Any) -> Ruling:
        if len(setup.players) != 2:
            return Illegal("TOY-1", "toy/players", f"{len(setup.players)} players").ruling()
        return legal("TOY-1", "toy/start", "ok")

    def initial_state(self, setup: Any) -> ToyState:
        return ToyState(setup, tuple(setup.players), setup.target, passed=False)

    def current(self, s: ToyState) -> str:
        return s.players[s.turn % len(s.players)]

    def check(self, s: ToyState, e: Event) -> Ruling:
        if type(e) is not Added:
            return Illegal("TOY-2", "toy/unexpected", type(e).__name__).ruling()
        if e.player != self.current(s):
            return Illegal("TOY-2", "toy/not-your-turn", f"{e.player} moved but it is {self.current(s)}'s turn").ruling()
        if not 1 <= e.n <= 3:
            return Illegal("TOY-3", "toy/bad-amount", f"n={e.n} is not 1-3").ruling()
        return legal("TOY-3", "toy/added", "ok")

    def apply(self, s: ToyState, e: Event) -> ToyState:
        t = type(e)
        if t is Added:
            return msgspec.structs.replace(s, total=s.total + e.n, passed=False, last=e.player)
        if t is Won:
            return msgspec.structs.replace(s, winner=e.player)
        if t is TurnPassed:
            return msgspec.structs.replace(s, turn=s.turn + 1, passed=True)
        return s

    def derive(self, s: ToyState) -> Event | None:
        if s.winner is not None:
            return None
        if s.total >= s.target and s.last is not None:
            return Won(player=s.last)
        if not s.passed:
            return TurnPassed(to=s.players[(s.turn + 1) % len(s.players)]) if s.last is not None else None
        return None

    def legal_events(self, s: ToyState) -> list[Event]:
        if s.winner:
            return []
        return [Added(player=self.current(s), n=n) for n in (1, 2, 3)]

    def to_act(self, s: ToyState) -> list[str]:
        return [] if s.winner else [self.current(s)]

    def outcome(self, s: ToyState) -> Outcome | None:
        return Outcome("win", s.winner, "target reached") if s.winner else None

    def players(self, s: ToyState) -> list[str]:
        return list(s.players)

    def view(self, s: ToyState, player: str | None) -> dict[str, Any]:
        return msgspec.to_builtins(s)

    def describe(self, s: ToyState, player: str | None) -> str:
        return f"total {s.total}/{s.target}, {self.current(s)} to act"


def _sample_setup(self: ToyGame, seed: int, *, long: bool = False) -> MatchStarted:
    return MatchStarted(game="toy", players=["a", "b"], target=(20_000 if long else 5 + seed % 20))


ToyGame.sample_setup = _sample_setup  # type: ignore[method-assign]


def install() -> ToyGame:
    from adjudicator.core import registry

    registry._load()
    return registry.register(ToyGame())
