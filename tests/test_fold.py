"""The fold contract (adjudicator/core/kernel/fold.py, issue 33): the working position and the visitors.

Properties over generated matches of every registered game (full logs, each seat's record, logs
with one event moved or removed, verified with and without ``--keep-going``) and over the shipped
logs with judges' rulings:

- no position handed out ever changes afterwards (a step's ``state``, ``Result.state``): each is
  encoded when it is handed out and again at the end;
- what a caller wants never changes the verdict: the plain visitor, :class:`StepRecorder` and
  :class:`StepStream` give the same violations, warnings, rulings, undetermined and unchecked
  events and final position, and ``upto`` gives the position the steps had at that event;
- a game's own working position (``game.working``) that hands out copies, never its working
  position, gives what the default adapter gives (the loop keeps no position it did not freeze,
  and a take-back restores a kept one).
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.fold import (
    PLAY_ON,
    SKIP,
    STOP,
    FrozenWorking,
    StepRecorder,
    StepStream,
    Visitor,
    working_for,
)
from adjudicator.core.kernel.log import MatchLog, parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import Result, Step, run, ruling_dict, verify

GAMES = [g.id for g in registry.games()]
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SEEDS = (5, 17)
MAX_EVENTS = 300


def _logs(gid: str) -> list[tuple[str, bytes]]:
    """Generated matches of ``gid``: full, with derived events stated, as each seat kept it, and
    with one event moved or removed; then the game's shipped logs with judges' rulings."""
    g = registry.get(gid)
    out: list[tuple[str, bytes]] = []
    for seed in SEEDS:
        events, _ = playout(g, seed, max_events=MAX_EVENTS, with_derived=seed % 2 == 1)
        data = to_jsonl(events)
        out.append((f"{gid}-{seed}", data))
        seat = parse_log(data, "full").setup.players[0]  # type: ignore[attr-defined]
        out.append((f"{gid}-{seed}-as-{seat}", to_jsonl(list(redact_log(parse_log(data, "full"), seat)))))
        rng = random.Random(seed)
        for k in range(2):
            moved = list(events)
            ev = moved.pop(rng.randrange(1, len(moved)))
            moved.insert(rng.randrange(1, len(moved) + 1), ev)
            out.append((f"{gid}-{seed}-moved-{k}", to_jsonl(moved)))
    for path in sorted((EXAMPLES / gid).glob("*judge*.jsonl")):
        out.append((path.name, path.read_bytes()))
    return out


def _summary(res: Result) -> dict[str, Any]:
    return {"verdict": res.verdict, "events": res.events,
            "violations": [v.as_dict() for v in res.violations],
            "warnings": [w.as_dict() for w in res.warnings],
            "rulings": [ruling_dict(*r) for r in res.rulings],
            "undetermined": [v.as_dict() for v in res.undetermined],
            "unchecked": [v.as_dict() for v in res.unchecked],
            "state": msgspec.to_builtins(res.state)}


def _step_data(st: Step) -> tuple[Any, ...]:
    return (st.seq, st.line, msgspec.to_builtins(st.ruling), st.applied, msgspec.to_builtins(st.derived),
            msgspec.to_builtins(st.state), msgspec.to_builtins(st.table))


@pytest.mark.parametrize("gid", GAMES)
def test_no_position_handed_out_changes_afterwards(gid: str) -> None:
    for name, data in _logs(gid):
        for then in (STOP, SKIP, PLAY_ON):
            handed: list[tuple[Any, bytes]] = []

            def keep(st: Step) -> None:
                for pos in (st.state, st.table):
                    if pos is not None:
                        handed.append((pos, msgspec.json.encode(pos)))

            res = verify(parse_log(data, name), StepStream(keep, after_rejection=then))
            assert handed, name
            final = msgspec.json.encode(res.state)
            later = run(parse_log(data, name), keep_going=then != STOP, play_on=then == PLAY_ON)  # another fold
            assert msgspec.json.encode(later.state) == final, name
            changed = [i for i, (pos, enc) in enumerate(handed) if msgspec.json.encode(pos) != enc]
            assert not changed, f"{name} ({then}): positions handed out at steps {changed[:5]} changed afterwards"
            assert msgspec.json.encode(res.state) == final


@pytest.mark.parametrize("gid", GAMES)
def test_what_a_caller_wants_never_changes_the_verdict(gid: str) -> None:
    for name, data in _logs(gid):
        for then in (STOP, SKIP, PLAY_ON):
            plain = verify(parse_log(data, name), Visitor(after_rejection=then))
            recorded = verify(parse_log(data, name), StepRecorder(after_rejection=then))
            streamed: list[Step] = []
            stream = verify(parse_log(data, name), StepStream(streamed.append, after_rejection=then))
            assert _summary(plain) == _summary(recorded) == _summary(stream), f"{name} ({then})"
            assert recorded.steps is not None and plain.steps is None and stream.steps is None
            assert [_step_data(s) for s in recorded.steps] == [_step_data(s) for s in streamed], name
            if then == SKIP and len(recorded.steps) > 3:  # a position at event N (the viewers' --at)
                n = recorded.steps[len(recorded.steps) // 2].seq
                at = verify(parse_log(data, name), Visitor(upto=n, after_rejection=SKIP))
                before = [s for s in recorded.steps if s.seq <= n and s.state is not None]
                assert at.events == n and msgspec.to_builtins(at.state) == msgspec.to_builtins(before[-1].state), name


class _CopyingWorking(FrozenWorking):
    """A game's own working position that hands out copies: ``freeze`` returns a deep copy of the
    working position (the same copy until the position changes), ``restore`` takes a copy in."""

    __slots__ = ("_frozen",)

    def __init__(self, game: Any, state: Any) -> None:
        super().__init__(game, state)
        self._frozen: Any = None
        advance, freeze, restore = self.advance, self.freeze, self.restore

        def copied_advance(event: Any) -> list[Any]:
            derived = advance(event)
            self._frozen = None
            if self.keep_base:
                self.base = copy.deepcopy(self.base)
            return derived

        def copied_freeze() -> Any:
            if self._frozen is None:
                self._frozen = copy.deepcopy(freeze())
            return self._frozen

        def copied_restore(kept: Any) -> None:
            restore(copy.deepcopy(kept))
            self._frozen = kept

        self.advance, self.freeze, self.restore = copied_advance, copied_freeze, copied_restore  # type: ignore[method-assign]


class _OwnWorking:
    """``game`` with a working position of its own (everything else the game's)."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def working(self, state: Any) -> _CopyingWorking:
        return _CopyingWorking(self._game, state)


@pytest.mark.parametrize("gid", GAMES)
def test_a_games_own_working_position_is_used(gid: str) -> None:
    """A built-in game without ``working`` gets the default adapter; a game that defines
    ``working`` gets its own (a built-in one's, or a wrapper's)."""
    g = registry.get(gid)
    state = g.initial_state(g.sample_setup(1))
    own = getattr(g, "working", None)
    assert type(working_for(g, state)) is (FrozenWorking if own is None else type(own(state)))
    assert type(working_for(_OwnWorking(g), state)) is _CopyingWorking
    with pytest.raises(ValueError, match="after_rejection"):
        Visitor(after_rejection="ignore")


@pytest.mark.parametrize("gid", GAMES)
def test_a_working_position_that_hands_out_copies_folds_as_the_default(gid: str) -> None:
    for name, data in _logs(gid):
        for then in (STOP, PLAY_ON):
            default = verify(parse_log(data, name), StepRecorder(after_rejection=then))
            log = parse_log(data, name)
            own: MatchLog = MatchLog(log.path, _OwnWorking(log.game), log.events, log.sealed_head,  # type: ignore[arg-type]
                                     log.no_rulings)
            mine = verify(own, StepRecorder(after_rejection=then))
            assert _summary(mine) == _summary(default), f"{name} ({then})"
            assert [_step_data(s) for s in mine.steps or []] == [_step_data(s) for s in default.steps or []], name


def test_the_fold_modules_toy_game_runs_as_written() -> None:
    """The toy game in the fold module's docstring (docs/adding-a-game.md points to it) is a
    doctest: the default adapter advances, settles and restores a kept position."""
    import doctest

    from adjudicator.core.kernel import fold

    res = doctest.testmod(fold, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert res.attempted >= 8 and res.failed == 0, res
