"""What a verification finds: the violations, the irregularities judges' rulings decided, the
steps (one log event as the verifier saw it) and the result (:func:`adjudicator.core.kernel.verify.run`;
a module of its own so that the fold's visitors, :mod:`adjudicator.core.kernel.fold`, can name them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .commitments import Unopened
from .events import Event, JudgeRuling
from .protocol import Game, Outcome
from .rulings import Ruling


@dataclass(frozen=True)
class Violation:
    seq: int
    line: int
    rule: str
    code: str
    message: str
    #: later events rejected only because this violation left the position waiting (``--keep-going``)
    followers: int = 0
    #: what the position still waited for while they came (set when ``followers``)
    waiting_for: str | None = None
    #: an undetermined event: the condition on unknown identities that would make it legal
    condition: str | None = None
    #: the event in the game's notation, in the position where it happened (a person reads the
    #: verdict: ``ann: reveal Magma Titan``, never the event's type); None for the set-up
    event: str | None = None

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seq": self.seq, "line": self.line, "rule": self.rule, "code": self.code,
                             "message": self.message}
        if self.event is not None:
            d["event"] = self.event
        if self.followers:
            d["followers"] = self.followers
            d["waiting_for"] = self.waiting_for
        if self.condition is not None:
            d["condition"] = self.condition
        return d


@dataclass(frozen=True)
class Irregularity:
    """An event a judge's ruling decided (``decision``: ``stands``, ``taken-back`` or, for a
    derived event the log states wrongly, ``corrected``), with the engine's own ruling on it: a
    warning beside the verdict, the log left as it was written."""

    seq: int
    line: int
    rule: str
    code: str
    message: str
    decision: str
    #: the JudgeRuling's event number and line
    ruling_seq: int
    ruling_line: int
    #: events taken back with it (``taken-back``: those between it and the ruling)
    taken_back_with: int = 0

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seq": self.seq, "line": self.line, "rule": self.rule, "code": self.code,
                             "message": self.message, "decision": self.decision,
                             "ruling": {"seq": self.ruling_seq, "line": self.ruling_line}}
        if self.taken_back_with:
            d["taken_back_with"] = self.taken_back_with
        return d


@dataclass(slots=True)
class Step:
    """One log event as the verifier saw it: its ruling and the consequences it forced (slotted:
    one is made per event whenever steps are kept or handed on, the store's import included)."""

    seq: int
    line: int
    event: Event
    ruling: Ruling
    applied: bool
    derived: list[Event] = field(default_factory=list)
    #: the settled position after this step (after its derived events); None if unknown
    state: Any = None
    #: an event taken back (or taken back with one): the position it left at the table, folded
    #: unchecked (what the seats saw then; None: not taken back, or no defined effect)
    table: Any = None

    @property
    def judged(self) -> str | None:
        """What a judge's ruling made of this event (``Ruling.judged``)."""
        return self.ruling.judged


@dataclass
class Result:
    game: Game
    state: Any
    events: int
    violations: list[Violation] = field(default_factory=list)
    unchecked: list[Violation] = field(default_factory=list)
    steps: list[Step] | None = None
    #: the events judges' rulings let stand or took back, with the engine's ruling on each
    warnings: list[Irregularity] = field(default_factory=list)
    #: the judges' rulings followed: (event number, line, ruling)
    rulings: list[tuple[int, int, JudgeRuling]] = field(default_factory=list)
    #: the outcome a judge's ``result`` ruling imposed
    ruled: Outcome | None = None
    #: events legal only under a condition on identities the log leaves unknown (followed as if
    #: the condition held), each with that condition
    undetermined: list[Violation] = field(default_factory=list)
    #: commitments the log made and never opened (docs/log-format.md, "Commitments"): warnings
    unopened: list[Unopened] = field(default_factory=list)
    #: what the verdict of a seat's record rests on without an undetermined event
    #: (``Game.assumptions``: the construction rules an unknown deck list is taken to meet)
    assumptions: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """``illegal`` (a rule broken), ``undetermined`` (no rule broken, but some event is legal
        only under a condition the log cannot decide) or ``legal``."""
        if self.violations:
            return "illegal"
        return "undetermined" if self.undetermined else "legal"

    @property
    def outcome(self) -> Outcome | None:
        if self.ruled is not None:
            return self.ruled
        return None if self.state is None else self.game.outcome(self.state)

    @property
    def complete(self) -> bool:
        """Did the match reach its end (an outcome: the rules' own, or a judge's result ruling)?
        A log that simply stops is *unfinished*, whatever its verdict."""
        return self.outcome is not None

    def stopped_at(self) -> dict[str, Any] | None:
        """Where an unfinished match stopped: the last event's number, the turn (or round) and
        who was to act (None: the match is complete, or there is no position)."""
        if self.complete or self.state is None:
            return None
        try:
            return {"event": self.events, "turn": self.game.turn_number(self.state),
                    "to_act": list(self.game.to_act(self.state))}
        except Exception:  # noqa: BLE001 - a position an engine cannot describe: say where only
            return {"event": self.events, "turn": None, "to_act": []}
