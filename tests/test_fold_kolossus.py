"""Kolossus on the fold contract (issue 33): one working :class:`Position` per verification
(adjudicator/games/kolossus/working.py), frozen only where a caller keeps one.

Properties over generated matches of every chapter, with and without a declared die generator:

- the working fold (``game.working``) gives, event by event, the rulings, derived events and
  positions of the frozen contract (``game.apply`` and ``settle``, a new State per event);
- ``freeze`` hands out the same State until the position changes, and no position handed out
  ever changes afterwards (each is encoded when handed out and again at the end), also after a
  take-back (``restore`` of a kept position, then the log again from there), after a rejected
  event (``check`` changes nothing) and after an event whose apply raises midway (the position
  is the one before it);
- a verification through the working fold gives the verdicts, rulings and steps of the same
  verification on the default adapter, with events moved out of order and ``--keep-going``;
- a verification that keeps no position builds almost none: at most one per 1024 log events
  besides the final one (the frozen contract built about three per event).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel.fold import (
    PLAY_ON,
    SKIP,
    STOP,
    FrozenWorking,
    StepRecorder,
    Visitor,
    settle,
    working_for,
)
from adjudicator.core.kernel.kit import LazyLegal
from adjudicator.core.kernel.log import MatchLog, parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.rulings import Undefined
from adjudicator.core.kernel.verify import verify
from adjudicator.games.kolossus import events as E
from adjudicator.games.kolossus.working import JOURNAL, Fold, Position

from .kolossus_scenarios import GAME
from .test_fold import _logs as fold_logs

#: chapter 1 + seed % 3, a declared generator on even seeds (game.sample_setup)
SEEDS = [0, 1, 2, 3, 4, 5]


def _ruling(r: Any) -> tuple[str, str, str]:
    r = r.ruling() if r.__class__ is LazyLegal else r
    return (r.verdict, r.rule, r.code)


def _out_of_step(log: list[Any], k: int) -> Any:
    """An event of the match from elsewhere (a rejection here, mostly)."""
    return log[1 + (k * 7919) % (len(log) - 1)]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_working_fold_gives_the_frozen_folds_positions_and_changes_none_it_handed_out(seed: int) -> None:
    log, final = playout(GAME, seed, max_events=2500)
    s, _ = settle(GAME, GAME.initial_state(log[0]))
    w = GAME.working(s)
    assert type(w) is Fold and w.freeze() is s  # (nothing applied yet: the State it was given)
    frozen = [s]
    handed: list[tuple[Any, bytes]] = [(s, msgspec.json.encode(s))]
    rejected = failed = 0
    for k, ev in enumerate(log[1:]):
        other = _out_of_step(log, k)  # a rejected event first: check changes nothing
        before = w.freeze()
        if _ruling(GAME.check(s, other))[0] == "illegal":
            assert _ruling(w.check(other)) == _ruling(GAME.check(s, other)), (k, other)
            rejected += 1
        assert w.freeze() is before
        if k % 11 == 5 and s.options.chapter >= 3 and s.step == "act":  # an apply that raises after writing
            with pytest.raises(Undefined):
                w.advance(E.EarthquakeUsed(warband=s.current.id, region="row-99", direction="N"))
            assert msgspec.json.encode(w.freeze()) == msgspec.json.encode(s) and w.ended is None
            failed += 1
        assert _ruling(w.check(ev)) == _ruling(GAME.check(s, ev)), (k, ev)
        derived = w.advance(ev)
        s, want = settle(GAME, GAME.apply(s, ev))
        assert derived == want, (k, ev)
        got = w.freeze()
        assert got == s and w.freeze() is got, (k, ev)
        assert w.ended == GAME.outcome(s)
        frozen.append(got)
        handed.append((got, msgspec.json.encode(got)))
    assert s == final and rejected > 20, rejected
    assert failed > 0 or final.options.chapter < 3
    # a take-back: a kept position again, the log again from there (never from the start)
    for back in (len(frozen) // 2, 1, len(frozen) - 1):
        w.restore(frozen[back])
        assert w.freeze() is frozen[back] and w.ended == GAME.outcome(frozen[back])
        for k, ev in enumerate(log[back + 1:], start=back):
            assert _ruling(w.check(ev))[0] != "illegal", (k, ev)
            w.advance(ev)
            assert w.freeze() == frozen[k + 1], (back, k, ev)
            handed.append((w.freeze(), msgspec.json.encode(w.freeze())))
    changed = [i for i, (pos, enc) in enumerate(handed) if msgspec.json.encode(pos) != enc]
    assert not changed, f"positions handed out at {changed[:5]} changed afterwards"


@pytest.mark.parametrize("seed", [2, 5])
def test_an_apply_that_raises_leaves_the_position_before_it_with_nothing_kept_for_long(seed: int) -> None:
    """The position before a raising event comes from the last kept one and the journal of the
    events since (no copy per event): raised after a hundred events nobody kept, then kept,
    then raised again at once, it is the frozen fold's position each time."""
    log, _ = playout(GAME, seed, max_events=2500)  # (seeds 2 and 5: chapter 3, Titan Powers)
    s, _ = settle(GAME, GAME.initial_state(log[0]))
    w = GAME.working(s)
    raised, due = 0, 100
    for k, ev in enumerate(log[1:]):
        if k >= due and s.step == "act":
            due = k + 100
            for _ in range(2):  # (the second: right after the first, whose freeze kept a position)
                with pytest.raises(Undefined):
                    w.advance(E.EarthquakeUsed(warband=s.current.id, region="row-99", direction="N"))
                assert w.freeze() == s and w.ended is None, k
                raised += 1
        w.advance(ev)
        s, _ = settle(GAME, GAME.apply(s, ev))
    assert w.freeze() == s and raised >= 4, raised


class _Frozen:
    """``GAME`` without a working position of its own: the default adapter (the frozen contract)."""

    def __getattr__(self, name: str) -> Any:
        if name == "working":
            raise AttributeError(name)
        return getattr(GAME, name)


def _logs(seed: int) -> list[tuple[str, bytes]]:
    """A longer match (derived events stated on odd seeds), then the logs the fold contract's own
    test takes (tests/test_fold.py: each seat's record, events moved, judges' rulings)."""
    events, _ = playout(GAME, seed, max_events=1500, with_derived=seed % 2 == 1)
    return [(f"k{seed}", to_jsonl(events))] + (fold_logs("kolossus") if seed == 1 else [])


def _steps(res: Any) -> list[Any]:
    return [(st.seq, msgspec.to_builtins(st.ruling), st.applied, msgspec.to_builtins(st.derived),
             msgspec.json.encode(st.state)) for st in res.steps]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_verification_on_the_working_fold_is_the_one_on_the_default_adapter(seed: int) -> None:
    for name, data in _logs(seed):
        for then in (STOP, SKIP, PLAY_ON):
            mine = verify(parse_log(data, name), StepRecorder(after_rejection=then))
            log = parse_log(data, name)
            assert type(working_for(log.game, GAME.initial_state(log.setup))) is Fold
            plain = MatchLog(log.path, _Frozen(), log.events, log.sealed_head, log.no_rulings)  # type: ignore[arg-type]
            assert type(working_for(plain.game, GAME.initial_state(log.setup))) is FrozenWorking
            theirs = verify(plain, StepRecorder(after_rejection=then))
            assert (mine.verdict, mine.events, [v.as_dict() for v in mine.violations]) == \
                (theirs.verdict, theirs.events, [v.as_dict() for v in theirs.violations]), (name, then)
            assert msgspec.json.encode(mine.state) == msgspec.json.encode(theirs.state), (name, then)
            assert _steps(mine) == _steps(theirs), (name, then)


def test_a_verification_that_keeps_no_position_builds_almost_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """Positions made per log event (issue 33's target: at most one when nothing keeps it): the
    plain visitor's verification builds the final position and one per :data:`JOURNAL` events;
    the step recorder's, one per log event that changes the position."""
    built = [0]
    build = Position.build

    def counted(self: Position) -> Any:
        built[0] += 1
        return build(self)

    monkeypatch.setattr(Position, "build", counted)
    events, _ = playout(GAME, 60, max_events=4000, long=True)
    data = to_jsonl(events)
    built[0] = 0  # (the playout applied through the frozen contract: a State per event)
    res = verify(parse_log(data, "long"), Visitor())
    assert res.verdict == "legal" and res.events == len(events) > 3 * JOURNAL
    assert built[0] <= 1 + len(events) // JOURNAL, built[0]
    built[0] = 0
    res = verify(parse_log(data, "long"), StepRecorder())
    assert len(events) // 2 < built[0] <= len(events), built[0]
