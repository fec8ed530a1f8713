"""The Python API: load a log, verify it, step to any position, ask what is legal there.

In the spirit of python-chess (``chess.pgn.read_game``, ``board.legal_moves``,
``board.is_legal``): a small set of names, exported from :mod:`adjudicator` itself.

>>> import adjudicator
>>> match = adjudicator.read_log("examples/kolossus/legal-chapter-3.jsonl")
>>> match.game.id
'kolossus'
>>> match.verify().verdict
'legal'

Positions are immutable values; :meth:`Position.after` returns a new one.  Nothing here prints,
reads a clock or a random source.  Unreadable input raises :class:`LogError` (with the file, line
and field); an illegal event is never an exception but a :class:`Ruling`, except in
:meth:`Position.after`, which refuses one with :class:`IllegalEvent`.
"""

from __future__ import annotations

import functools
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Callable, Iterable, Iterator, TypeVar

import msgspec

from .core.kernel import position as _positions
from .core.kernel import registry
from .core.kernel import sources as _sources
from .core.kernel.sources import Sources as _Sources
from .core.kernel.errors import AdjudicatorError, LogError
from .core.kernel.events import Event, JudgeRuling, encode_line
from .core.kernel.log import MatchLog, decode_event, parse_log
from .core.kernel.log import read_log as _read_log
from .core.kernel.notation import NotationError
from .core.kernel.textlog import write_text
from .core.kernel.protocol import Game, Outcome, RefError
from .core.kernel.rulings import Ruling
from .core.kernel.verify import Irregularity, Result, Violation, position_at, propose, run, start

__all__ = [
    "IllegalEvent", "Match", "Position", "Proposal", "Verdict", "event", "game", "game_ids",
    "load_position", "parse", "position_text", "read_log",
]


F = TypeVar("F", bound=Callable[..., Any])


def _in_sources(fn: F) -> F:
    """Run a method with its object's data sources in effect (``read_log(pools=...)``)."""
    @functools.wraps(fn)
    def run_in(self: Any, *args: Any, **kwargs: Any) -> Any:
        src = self._sources
        with (_sources.using(src) if src is not None else nullcontext()):
            return fn(self, *args, **kwargs)
    return run_in  # type: ignore[return-value]


class IllegalEvent(AdjudicatorError):
    """:meth:`Position.after` was given an event the rules reject; ``ruling`` says why."""

    def __init__(self, event: Event, ruling: Ruling) -> None:
        self.event = event
        self.ruling = ruling
        super().__init__(f"{type(event).__name__}: {ruling.rule} [{ruling.code}] {ruling.message}")


def game_ids() -> list[str]:
    """The ids of every registered game.

    >>> [g for g in adjudicator.game_ids() if g != "toy"]   # (the tests register a toy game too)
    ['colossi', 'colossus-order', 'kolossus', 'logos']
    """
    return registry.ids()


def game(game_id: str) -> Game:
    """The registered game with this id (raises :class:`adjudicator.core.kernel.errors.UnknownGame`)."""
    return registry.get(game_id)


def event(game_id: str | Game, data: str | bytes | dict[str, Any], state: Any = None) -> Event:
    """One event of a game, from a JSON line, a dict, or a text in the game's notation (read in
    the position ``state`` when given: docs/notation.md); raises :class:`LogError` if
    unreadable (a text that reads as several events names them).

    >>> adjudicator.event("colossus-order", '{"type": "Conceded", "player": "bob"}')
    <Conceded: bob: concede>
    """
    g = registry.get(game_id) if isinstance(game_id, str) else game_id
    if isinstance(data, str) and data.lstrip()[:1] != "{":
        try:
            return g.notation.parse(data, state)
        except NotationError as exc:
            raise LogError("<event>", None, str(exc)) from None
    raw = data if isinstance(data, (bytes, str)) else msgspec.json.encode(data)
    return decode_event(g, raw.encode() if isinstance(raw, str) else raw, "<event>", None)


@dataclass(frozen=True)
class Proposal:
    """The answer to "what if this event happened here": the ruling and, when legal, what follows."""

    ruling: Ruling
    #: the consequences the rules force (empty when the event is illegal)
    derived: list[Event]
    #: the settled position after the event (the same position when it is illegal)
    position: "Position"

    @property
    def legal(self) -> bool:
        return self.ruling.legal


class Position:
    """A settled position of one match: who acts, what is legal, what each player sees.

    >>> pos = adjudicator.read_log("examples/kolossus/legal-chapter-3.jsonl").position(at=5)
    >>> pos.to_act
    ['ann']
    >>> len(pos.legal_events()) > 0
    True
    """

    __slots__ = ("game", "state", "at", "_sources")

    def __init__(self, game: Game, state: Any, at: int | None = None,
                 sources: _Sources | None = None) -> None:
        self.game = game
        self.state = state
        #: the event number this position follows in its log (None when unknown)
        self.at = at
        #: where its card pools, boards and islands are found (None: the sources in effect)
        self._sources = sources

    @classmethod
    def start(cls, setup: Event, game_id: str | None = None) -> "Position":
        """The settled position right after a ``MatchStarted`` event (its set-up is not judged)."""
        g = registry.get(game_id or getattr(setup, "game"))
        try:
            g.validate_refs(setup, setup)
        except RefError as exc:
            raise LogError("<setup>", None, exc.message, exc.field) from None
        state, _ruling, _derived = start(g, setup)
        return cls(g, state, 1)

    def __repr__(self) -> str:
        return f"<Position {self.game.id} at={self.at} to_act={self.to_act}>"

    @property
    @_in_sources
    def to_act(self) -> list[str]:
        """Who may or must act here (player ids; empty once the match is over)."""
        return self.game.to_act(self.state)

    @property
    @_in_sources
    def players(self) -> list[str]:
        return self.game.players(self.state)

    @property
    @_in_sources
    def outcome(self) -> Outcome | None:
        """How the match ended, or None while it goes on."""
        return self.game.outcome(self.state)

    def is_over(self) -> bool:
        return self.outcome is not None

    @_in_sources
    def legal_events(self) -> list[Event]:
        """Every legal event here; random outcomes as every event that could follow."""
        return self.game.legal_events(self.state)

    def check(self, ev: Event | str | dict[str, Any]) -> Ruling:
        """The ruling on ``ev`` here (never raises on an illegal event)."""
        return self.propose(ev).ruling

    def is_legal(self, ev: Event | str | dict[str, Any]) -> bool:
        return self.check(ev).legal

    @_in_sources
    def propose(self, ev: Event | str | dict[str, Any]) -> Proposal:
        """The ruling on ``ev`` and, when legal, what follows from it (the position is unchanged)."""
        e = ev if isinstance(ev, Event) else event(self.game, ev, self.state)
        ruling, derived, new = propose(self.game, self.state, e)
        at = None if self.at is None else self.at + (1 if ruling.allowed else 0)
        return Proposal(ruling, derived, Position(self.game, new, at, self._sources) if ruling.allowed else self)

    def after(self, ev: Event | str | dict[str, Any]) -> "Position":
        """The settled position after ``ev``; raises :class:`IllegalEvent` when it is illegal."""
        e = ev if isinstance(ev, Event) else event(self.game, ev, self.state)
        p = self.propose(e)
        if not p.legal:
            raise IllegalEvent(e, p.ruling)
        return p.position

    @_in_sources
    def san(self, ev: Event | str | dict[str, Any]) -> str:
        """``ev`` in the game's notation, as a player writes it here (SAN's idea):
        ``pos.san(pos.legal_events()[0])`` -> ``'alice: play Sky Lancer Captain -> F3'``."""
        e = ev if isinstance(ev, Event) else event(self.game, ev, self.state)
        return self.game.notation.format(e, self.state)

    @_in_sources
    def parse(self, text: str) -> Event:
        """The event ``text`` writes here, in the game's notation (or a JSON line); raises
        :class:`LogError` when it reads as none or several (their texts named)."""
        return event(self.game, text, self.state)

    @_in_sources
    def text(self, player: str | None = None) -> str:
        """The position in one line (``adjudicator state --text``; FEN's idea), from ``player``'s
        view (None: the judge's); :func:`position_text` reads it back.  Raises
        :class:`~adjudicator.core.kernel.notation.NotationError` for a game without one."""
        return self.game.notation.format_position(self.state, player)

    @_in_sources
    def view(self, player: str | None = None) -> dict[str, Any]:
        """The position as JSON-ready data from ``player``'s view (None: the judge sees all)."""
        return self.game.view(self.state, player)

    @_in_sources
    def describe(self, player: str | None = None) -> str:
        """The position as text, as ``adjudicator state`` prints it."""
        return self.game.describe(self.state, player)

    @_in_sources
    def scene(self, player: str | None = None) -> Any:
        """The position as a game-neutral scene (board, zones, counters) for viewers."""
        return self.game.scene(self.state, player)

    @_in_sources
    def document(self, player: str | None = None) -> dict[str, Any]:
        """A position document; the judge's one is accepted back by :func:`load_position`."""
        return _positions.document(self.game, self.state, player=player, at=self.at)


def load_position(path: str | Path) -> Position:
    """A position from a position document (``adjudicator state --json``) or a file holding a
    position line (``adjudicator state --text``), sniffed by content."""
    g, state = _positions.load(path)
    return Position(g, state)


def position_text(line: str) -> Position:
    """A position from its line (:meth:`Position.text`): the registered game that reads it."""
    g, state = _positions.from_line(line, "<position>")
    return Position(g, state)


@dataclass(frozen=True)
class Verdict:
    """The verdict on a whole log: ``legal``, ``illegal`` or ``undetermined``, with every violation
    found and every event legal only under a condition on unknown cards."""

    verdict: str
    #: events verified (up to the first violation unless ``keep_going``)
    events: int
    violations: list[Violation]
    #: events accepted without the engine being able to check their effect (declared effects)
    not_engine_checked: list[Violation]
    outcome: Outcome | None
    #: the settled position where verification stopped
    position: Position
    #: the events judges' rulings let stand or took back (warnings beside the verdict), and the
    #: rulings followed as (event number, line, ruling): docs/log-format.md, "Judges' rulings"
    warnings: list[Irregularity] = field(default_factory=list)
    rulings: list[tuple[int, int, JudgeRuling]] = field(default_factory=list)
    #: the hash of the last line of a sealed log (the hash chain's head), else None
    chain_head: str | None = None
    #: events legal only if cards the log leaves unknown are what each one's ``condition`` says
    undetermined: list[Violation] = field(default_factory=list)

    #: where an unfinished match stopped (``event``, ``turn``, ``to_act``); None when complete
    stopped_at: dict[str, Any] | None = None

    @property
    def legal(self) -> bool:
        return self.verdict == "legal"

    @property
    def complete(self) -> bool:
        """Did the match reach its end (an outcome)?  A log that simply stops is unfinished."""
        return self.outcome is not None


class Match:
    """A decoded log of one match (its events in order, ``MatchStarted`` first)."""

    _sources: _Sources | None = None

    def __init__(self, log: MatchLog, sources: _Sources | None = None) -> None:
        self._log = log
        self._sources = sources

    #: the class :meth:`new` makes: the recording subclass (:class:`adjudicator.build.Recording`)
    #: names itself here when it is defined (``class Recording(Match, recording=True)``), so this
    #: module never imports the one that builds on it (``adjudicator/__init__.py`` imports both)
    _recording: ClassVar[Any] = None

    def __init_subclass__(cls, *, recording: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if recording:
            Match._recording = cls

    @staticmethod
    def new(game: str | Game, players: list[str], **kwargs: Any) -> Any:
        """Start recording a match: a :class:`adjudicator.build.Recording` (``legal()``,
        ``push(event)``, ``pop()``, ``save(path)``); see docs/api.md, "Building a log"."""
        return Match._recording.new(game, players, **kwargs)

    def __repr__(self) -> str:
        return f"<Match {self.game.id} {self.path} events={len(self)}>"

    @property
    def path(self) -> str:
        return self._log.path

    @property
    def game(self) -> Game:
        return self._log.game

    @property
    def setup(self) -> Event:
        """The ``MatchStarted`` event."""
        return self._log.events[0][1]

    @property
    def events(self) -> list[Event]:
        return [e for _, e in self._log.events]

    def lines(self) -> Iterator[tuple[int, Event]]:
        """(line number in the file, event) for every event."""
        return iter(self._log.events)

    def __len__(self) -> int:
        return len(self._log.events)

    @_in_sources
    def text(self) -> str:
        """The match's text form (``adjudicator convert``; docs/notation.md): header tags, then
        the game's notation one event a line; :func:`parse` reads it back as the same events."""
        events = self.events
        return write_text(self.game, [encode_line(e) for e in events], events)

    @_in_sources
    def san(self) -> list[str]:
        """Every event after ``MatchStarted`` in the game's notation, each in the position it
        happens in (the judge's fold of the log: ``verify``'s positions)."""
        res = run(self._log, record_steps=True)
        steps = res.steps or []
        out, before = [], steps[0].state if steps else None
        for step in steps[1:]:
            out.append(self.game.notation.format(step.event, before))
            before = step.state if step.state is not None else before
        return out

    @_in_sources
    def verify(self, *, keep_going: bool = False) -> Verdict:
        """Check every event in the position where it happened (see ``adjudicator verify``)."""
        res: Result = run(self._log, keep_going=keep_going, play_on=keep_going)
        return Verdict(res.verdict, res.events, list(res.violations), list(res.unchecked), res.outcome,
                       Position(self.game, res.state, res.events, self._sources), list(res.warnings), list(res.rulings),
                       self._log.chain_head, list(res.undetermined), res.stopped_at())

    @_in_sources
    def position(self, at: int | None = None) -> Position:
        """The settled position after event ``at`` (1 = MatchStarted; None = the end).

        Illegal events on the way are skipped, as ``adjudicator state --at`` does.
        """
        res = position_at(self._log, at)
        return Position(self.game, res.state, res.events, self._sources)

    def positions(self) -> Iterator[tuple[Event, Position]]:
        """Each event with the settled position after it, front to back (illegal ones skipped)."""
        with (_sources.using(self._sources) if self._sources is not None else nullcontext()):
            res = run(self._log, keep_going=True, record_steps=True)
        for step in res.steps or []:
            if step.state is not None:
                yield step.event, Position(self.game, step.state, step.seq, self._sources)


def read_log(path: str | Path, pools: Iterable[str | Path] = ()) -> Match:
    """Read a JSON Lines match log; raises :class:`LogError` naming file, line and field.

    ``pools``: directories holding your own card pools, boards and islands (as ``--pools``): the
    match, and every position of it, finds the data its log names there first."""
    src = _sources.Sources(list(pools)) if pools else None
    with (_sources.using(src) if src is not None else nullcontext()):
        return Match(_read_log(path), src)


def parse(data: bytes | str, path: str = "<log>") -> Match:
    """A match from the bytes of a log."""
    return Match(parse_log(data.encode() if isinstance(data, str) else data, path))
