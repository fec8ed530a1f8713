"""The replay model shared by the terminal and the web viewer.

A :class:`Replay` is a verified match held in memory: one :class:`Frame` per log event (its
ruling, its mark, the consequences it forced) and the settled position after it, so stepping
and seeking are constant time.  Frame 1 is ``MatchStarted``.  Positions are shown as scenes
(``game.scene(state, player)``), from the judge's view (``player=None``) or one player's.
Nothing here names a game: games are reached through the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.meta import meta_of
from adjudicator.core.kernel.log import MatchLog, parse_log, read_log
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.rulings import Ruling
from adjudicator.core.kernel.scene import Scene, diff
from adjudicator.core.kernel.verify import run

#: marks of a frame, as the viewers show them
LEGAL, ILLEGAL, UNCHECKED, DERIVED = "legal", "illegal", "unchecked", "derived"
#: ... and what judges' rulings made of events (docs/log-format.md, "Judges' rulings"): an illegal
#: event that stands (applied: its irregularity a warning), an event taken back (with those taken
#: back with it), a JudgeRuling followed
STANDS, TAKEN_BACK, RULING = "stands", "taken-back", "ruling"
#: ... and an event legal only if an identity the record leaves unknown is what the ruling's
#: condition says (docs/log-format.md, "Unknown identities"): followed as if it held
UNDETERMINED = "undetermined"
#: the marks ``n``/``p`` stop at in both viewers: violations, undetermined rulings and the
#: irregularities judges' rulings let stand or took back (warnings)
STOPS = frozenset({ILLEGAL, UNDETERMINED, STANDS, TAKEN_BACK})
#: Ruling.judged -> mark
#: (a derived event a ruling corrected is marked as one that stands: its irregularity a warning)
_JUDGED = {"stands": STANDS, "corrected": STANDS, "taken-back": TAKEN_BACK, "void": TAKEN_BACK, "ruling": RULING}


@dataclass(frozen=True)
class Frame:
    number: int
    line: int
    event: Event
    type: str
    kind: str
    text: str
    mark: str
    verdict: str
    rule: str
    code: str
    message: str
    derived: list[str] = field(default_factory=list)
    turn: int = 0
    #: an undetermined ruling's condition ("legal if that card is red-gem"); None otherwise
    condition: str | None = None
    #: the annotation written on the event (the envelope's ``note``), shown by the viewers
    note: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number, "line": self.line, "type": self.type, "kind": self.kind,
            "text": self.text, "mark": self.mark, "verdict": self.verdict, "rule": self.rule,
            "code": self.code, "message": self.message, "derived": self.derived, "turn": self.turn,
            "condition": self.condition, "note": self.note, "event": msgspec.to_builtins(self.event),
        }


def mark_of(event: Event, ruling: Ruling | None, applied: bool) -> str:
    """How the viewers mark an event: what a judge's ruling made of it, undetermined (legal only
    under a condition on unknown identities), derived (a stated consequence), illegal, unchecked,
    legal."""
    if ruling is None:
        return UNCHECKED
    if ruling.judged is not None and (ruling.judged != "ruling" or ruling.legal):
        return _JUDGED.get(ruling.judged, ILLEGAL)
    if ruling.verdict == UNDETERMINED:
        return UNDETERMINED
    if event.kind == "X" and ruling.verdict == "legal" and not applied:
        return DERIVED
    if ruling.verdict == "illegal":
        return ILLEGAL
    if not ruling.engine_checked:
        return UNCHECKED
    return LEGAL


#: the ruling shown for events the verifier never reached (it stopped at an engine failure)
NOT_CHECKED = Ruling("illegal", "", "", "not checked: the engine stopped at an earlier event")


def make_frame(game: Game, number: int, line: int, event: Event, ruling: Ruling | None, applied: bool,
               derived: list[Event], state: Any, before: Any = None) -> Frame:
    """One log event as the viewers show it, in the game's notation; ``state`` is the settled
    position after it, ``before`` the one it happens in (when the caller has it: the notation
    names the piece that moves there)."""
    r = ruling if ruling is not None else NOT_CHECKED
    return Frame(
        number=number, line=line, event=event, type=type(event).__name__, kind=event.kind,
        text=game.describe_event(event, before if before is not None else state), mark=mark_of(event, ruling, applied),
        verdict="unchecked" if ruling is None else r.verdict, rule=r.rule, code=r.code, message=r.message,
        derived=[game.describe_event(d, state) for d in derived],
        turn=game.turn_number(state) if state is not None else 0,
        condition=r.condition if r.verdict == UNDETERMINED else None,
        note=event.note,
    )


def seen_by(game: Game, f: Frame, derived: list[Event], player: str | None, before: Any = None) -> Frame:
    """Frame ``f`` as ``player`` saw it: its event (and what it forced) through ``game.redact``,
    so a player's event list names no card that player could not see (nor does a ruling).
    ``before``: the position before the event (what the seat knew then: a card it saw stays
    named), when the caller has it."""
    if player is None:
        return f
    ev = game.redact(f.event, player, before)
    hidden = ev != f.event
    shown = [game.redact(d, player, before) for d in derived]
    return Frame(
        number=f.number, line=f.line, event=ev, type=f.type, kind=f.kind,
        text=f.text if not hidden else game.describe_event(ev, before), mark=f.mark, verdict=f.verdict, rule=f.rule,
        code=f.code,
        message=f"(this ruling concerns what {player} cannot see)" if hidden and (
            f.verdict in ("illegal", UNDETERMINED) or f.mark in (STANDS, TAKEN_BACK)) else
        (f.message if not hidden else f"{f.type} is legal here"),
        derived=[t if d == o else game.describe_event(d, before) for t, d, o in zip(f.derived, shown, derived)],
        turn=f.turn,
        condition=None if hidden else f.condition, note=f.note,
    )


def card_texts(game: Game, state: Any, scene: Scene) -> dict[str, dict[str, Any]]:
    """The text of every card ``scene`` shows by identity (``Card.card``), then of every card an
    unknown card can still be (``Card.possible``), from the match's own pool
    (``game.card_info``), by card id in the order the scene shows them.  The scene is already a
    seat's view, so a seat gets no text of a card it cannot see (what an unknown card can still
    be comes from the deck list or the pool, which every seat may read)."""
    if state is None:
        return {}
    setup = game.setup_of(state)
    out: dict[str, dict[str, Any]] = {}
    missing: set[str] = set()

    def add(cid: str) -> None:
        if cid not in out and cid not in missing:
            info = game.card_info(setup, cid)
            if info is None:
                missing.add(cid)
            else:
                out[cid] = info

    for zone in scene.zones:
        for c in zone.cards:
            if c.card is not None:
                add(c.card)
    for zone in scene.zones:
        for c in zone.cards:
            for cid in c.possible or ():
                add(cid)
    return out


class UnknownCard(msgspec.Struct, frozen=True):
    """A card of a scene whose identity the record leaves unknown (``Card.possible`` set): where
    it lies and what it can still be (the viewers' card panes)."""

    zone: str
    zone_label: str
    index: int
    possible: list[str]

    @property
    def key(self) -> str:
        """A handle for selecting it: ``zone#index``."""
        return f"{self.zone}#{self.index}"


def unknown_cards(scene: Scene) -> list[UnknownCard]:
    """Every unknown card of ``scene`` (a card with ``possible`` set), in the scene's order."""
    return [UnknownCard(z.id, z.label, i, list(c.possible))
            for z in scene.zones for i, c in enumerate(z.cards) if c.possible is not None]


class Replay:
    """A verified match, ready to step through."""

    def __init__(self, log: MatchLog, *, title: str | None = None):
        self.log = log
        self.game: Game = log.game
        self.title = title or log.path
        #: the match header (``MatchStarted.meta``), shown by the viewers; {} for none
        self.meta: dict[str, str] = meta_of(log.setup)
        result = run(log, keep_going=True, record_steps=True)
        self.result = result
        steps = result.steps or []
        self._states: list[Any] = []
        #: the position at the table after each event (an event taken back: the one it left, what
        #: the seats saw; see adjudicator.core.kernel.seats.positions_before)
        self._table: list[Any] = []
        self._derived: list[list[Event]] = []
        self._views: dict[str, list[Frame]] = {}
        self.frames: list[Frame] = []
        game = self.game
        state = None
        for step in steps:
            before = state
            state = step.state if step.state is not None else state
            self._states.append(state)
            self._table.append(step.table if step.table is not None else state)
            self._derived.append(list(step.derived))
            self.frames.append(make_frame(game, step.seq, step.line, step.event, step.ruling, step.applied,
                                          step.derived, state, before))

    # -- loading -----------------------------------------------------------------------------------
    @classmethod
    def from_file(cls, path: str | Path) -> "Replay":
        return cls(read_log(path))

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "<upload>") -> "Replay":
        return cls(parse_log(data, name))

    @classmethod
    def from_position(cls, game: Game, state: Any, name: str) -> "Replay":
        """One position and no log (``adjudicator replay --position-text LINE``: a judge at a
        table nobody logged looks at the position typed): a single frame, its set-up's."""
        setup = game.setup_of(state)
        replay = cls(MatchLog(name, game, [(1, setup)]), title=name)
        replay._states = [state]
        replay._table = [state]
        f = replay.frames[0]
        replay.frames = [make_frame(game, 1, 1, setup, None if f.verdict == "unchecked" else
                                    Ruling(f.verdict, f.rule, f.code, f.message), True, [], state)]
        return replay

    @classmethod
    def from_events(cls, game: Game, events: list[Event], name: str) -> "Replay":
        """From events already decoded (e.g. read back from the event store)."""
        enc = msgspec.json.Encoder()
        return cls(parse_log(b"".join(enc.encode(e) + b"\n" for e in events), name), title=name)

    # -- stepping and seeking ----------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.frames)

    def clamp(self, n: int) -> int:
        return max(1, min(len(self.frames), n))

    def frame(self, n: int, player: str | None = None) -> Frame:
        """Frame ``n`` as ``player`` saw it (None: the judge's frame, everything shown)."""
        return self.frames_for(player)[self.clamp(n) - 1]

    def frames_for(self, player: str | None) -> list[Frame]:
        """Every frame as ``player`` saw it: events through ``game.redact``, so the event list of a
        player's view names no card that player could not see (nor does a ruling about one)."""
        if player is None:
            return self.frames
        cached = self._views.get(player)
        if cached is not None:
            return cached
        before = [None, *self._table[:-1]]
        out = [seen_by(self.game, f, derived, player, b) for f, derived, b in zip(self.frames, self._derived, before)]
        self._views[player] = out
        return out

    def state(self, n: int) -> Any:
        return self._states[self.clamp(n) - 1]

    def players(self) -> list[str]:
        return self.game.players(self.state(1))

    def scene(self, n: int, player: str | None = None) -> Scene:
        return self.game.scene(self.state(n), player)

    def cards(self, n: int, player: str | None = None) -> dict[str, dict[str, Any]]:
        """The text of every card the position after event ``n`` shows ``player`` (see
        :func:`card_texts`)."""
        return card_texts(self.game, self.state(n), self.scene(n, player))

    def changes(self, n: int, player: str | None = None) -> list[str]:
        """What event ``n`` changed in the position (as that player sees it)."""
        n = self.clamp(n)
        if n == 1:
            return ["the match starts"]
        return diff(self.scene(n - 1, player), self.scene(n, player))

    def next_turn(self, n: int) -> int:
        """The first frame of the next turn (or the last frame)."""
        n = self.clamp(n)
        turn = self.frames[n - 1].turn
        for f in self.frames[n:]:
            if f.turn != turn:
                return f.number
        return len(self.frames)

    def previous_turn(self, n: int) -> int:
        """The first frame of this turn, or of the previous one when already there."""
        n = self.clamp(n)
        i = n - 1
        turn = self.frames[i].turn
        start = i
        while start > 0 and self.frames[start - 1].turn == turn:
            start -= 1
        if start < i:
            return start + 1
        if start == 0:
            return 1
        prev_turn = self.frames[start - 1].turn
        j = start - 1
        while j > 0 and self.frames[j - 1].turn == prev_turn:
            j -= 1
        return j + 1

    def violations(self) -> list[int]:
        return [f.number for f in self.frames if f.mark == ILLEGAL]

    def stops(self) -> list[int]:
        """The events ``n``/``p`` stop at: violations, undetermined rulings and the events judges'
        rulings let stand or took back (:data:`STOPS`)."""
        return [f.number for f in self.frames if f.mark in STOPS]

    def next_violation(self, n: int) -> int | None:
        """The next stop (:meth:`stops`) after event ``n``."""
        return next((v for v in self.stops() if v > n), None)

    def previous_violation(self, n: int) -> int | None:
        return next((v for v in reversed(self.stops()) if v < n), None)

    def search(self, text: str, n: int, *, backwards: bool = False) -> int | None:
        """The next (or previous) frame whose event type starts with ``text`` (case-insensitive)."""
        t = text.lower()
        order = reversed(self.frames[: self.clamp(n) - 1]) if backwards else self.frames[self.clamp(n):]
        return next((f.number for f in order if f.type.lower().startswith(t) or t in f.type.lower()), None)
