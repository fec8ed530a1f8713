"""Colossi on the fold contract (issue 33): one working position per verification
(``game.working``, adjudicator/games/colossi/fold.py), changed in place and frozen only where kept.

Properties over generated matches (every ruleset option of tests/test_colossi_properties.py):

- event by event, the working position rules as the frozen contract (``game.check`` on a State)
  does, derives the same events, and every position it freezes equals the frozen contract's
  (``game.apply`` and ``settle``), also after a take-back (``restore``), after an event it
  rejected and after an event whose apply failed (the position goes back to the one before);
- no position handed out ever changes afterwards: each is encoded when handed out and again at
  the end;
- the verifier on the working position gives what it gives on the frozen contract (the core's
  default adapter): the same steps, rulings, violations and positions, on full logs, seat records
  (unknown identities), logs with an event moved (rejections, ``--keep-going``, play-on) and the
  shipped logs with judges' rulings;
- a log event costs far less than one frozen position when nothing keeps one;
- every event ``legal_events`` offers is accepted by ``check`` and applies (the defect of seed
  8380: a road step offered for a Colossus a Teleporter had carried off).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import example, given, settings, strategies as st

from adjudicator.core.kernel.fold import PLAY_ON, SKIP, STOP, FrozenWorking, StepStream, working_for
from adjudicator.core.kernel.log import MatchLog, parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import Result, Step, ruling_dict, settle, verify
from adjudicator.games.colossi import working as working_module
from adjudicator.games.colossi.fold import JOURNAL, Working
from tests.test_colossi_properties import setup_of

from .colossi_scenarios import GAME

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "colossi"


def _enc(s: Any) -> bytes:
    return msgspec.json.encode(s)


def _data(s: Any) -> Any:
    return msgspec.to_builtins(s)


class _Frozen:
    """The game on the frozen-state contract: no ``working`` (the core's default adapter folds
    it with ``game.apply``, a new State per event and per derived event)."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        if name == "working":
            raise AttributeError(name)
        return getattr(self._game, name)


def _on(log: MatchLog, game: Any) -> MatchLog:
    return MatchLog(log.path, game, log.events, log.sealed_head, log.no_rulings)


def test_the_game_folds_on_its_own_working_position() -> None:
    state = GAME.initial_state(GAME.sample_setup(1))
    assert type(working_for(GAME, state)) is Working
    assert type(working_for(_Frozen(GAME), state)) is FrozenWorking
    w = GAME.working(state)
    assert w.freeze() is state and w.ended is None  # nothing changed yet: the position it was given


# -- the working position against the frozen contract, event by event --------------------------------------

def _reject_candidate(rng: random.Random, events: list[Any], fold: Working, s: Any) -> Any | None:
    """An event of the match the position rejects (an event from elsewhere in the log)."""
    for _ in range(6):
        ev = events[rng.randrange(1, len(events))]
        r = fold.check(ev)
        assert msgspec.to_builtins(r) == msgspec.to_builtins(GAME.check(s, ev)), ev
        if not r.allowed:
            return ev
    return None


def _fold_side_by_side(seed: int, max_events: int) -> tuple[int, int, int, int]:
    """Fold a generated match on the working position and on the frozen contract side by side
    (with take-backs, rejected events and failed applies); returns how many of each happened and
    how many positions were handed out."""
    rng = random.Random(seed)
    events, final = playout(GAME, seed, max_events=max_events, setup=setup_of(seed))
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    fold = GAME.working(s)
    handed: list[tuple[Any, bytes, int, Any]] = [(fold.freeze(), _enc(s), 0, s)]  # (position, encoding, at event, frozen contract's)
    takebacks = rejected = failed = 0
    i = 1
    while i < len(events):
        ev = events[i]
        ruling = fold.check(ev)
        assert _data(ruling) == _data(GAME.check(s, ev)), (seed, i, ev)
        assert ruling.allowed, (seed, i, ruling)
        roll = rng.random()
        if roll < 0.08:  # an event the position rejects: checking it changes nothing, playing it on may fail
            bad = _reject_candidate(rng, events, fold, s)
            if bad is not None:
                rejected += 1
                try:
                    want = settle(GAME, GAME.apply(s, bad))[0]
                except Exception:  # noqa: BLE001 - no defined effect there
                    want = None
                kept = fold.freeze() if rng.random() < 0.5 else None  # else: the journal takes the position back
                try:
                    fold.advance(bad)
                except Exception:  # noqa: BLE001
                    assert want is None, (seed, i, bad)
                    failed += 1
                    assert _data(fold.freeze()) == _data(s), (seed, i, bad)  # the position before the event
                    if kept is not None:
                        assert fold.freeze() is kept
                else:
                    assert want is not None and _data(fold.freeze()) == _data(want), (seed, i, bad)
                    fold.restore(kept if kept is not None else s)  # taken back (a judge's ruling)
                    assert _data(fold.freeze()) == _data(s)
        derived = fold.advance(ev)
        s, want_derived = settle(GAME, GAME.apply(s, ev))
        assert derived == want_derived, (seed, i, ev)
        assert fold.ended == GAME.outcome(s)
        if rng.random() < 0.3 or i == len(events) - 1:
            frozen = fold.freeze()
            assert frozen is fold.freeze()  # the same State until the position changes
            assert _data(frozen) == _data(s), (seed, i, ev)
            handed.append((frozen, _enc(frozen), i, s))
        if roll > 0.97 and takebacks < 4 and len(handed) > 2:  # a take-back to a position handed out earlier
            pos, _, at, s = handed[rng.randrange(len(handed) - 1)]
            fold.restore(pos)
            assert fold.freeze() is pos and fold.ended == GAME.outcome(s)
            takebacks += 1
            i = at + 1
            continue
        i += 1
    assert _data(s) == _data(final)
    changed = [at for pos, enc, at, _ in handed if _enc(pos) != enc]
    assert not changed, f"seed {seed}: positions handed out at events {changed[:5]} changed afterwards"
    return takebacks, rejected, failed, len(handed)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 100_000))
@example(seed=0)
@example(seed=8380)
def test_the_working_position_folds_as_the_frozen_contract(seed: int) -> None:
    _fold_side_by_side(seed, 500)


def test_the_side_by_side_fold_takes_back_rejects_and_fails() -> None:
    """The property above exercises what it claims: over a few matches there were take-backs,
    rejected events and applies that failed (the position went back)."""
    totals = [0, 0, 0, 0]
    for seed in (1, 2, 3, 4):
        for k, n in enumerate(_fold_side_by_side(seed, 700)):
            totals[k] += n
    takebacks, rejected, failed, handed = totals
    assert takebacks >= 2 and rejected >= 10 and failed >= 2 and handed > 100, totals


def test_a_failed_apply_long_after_the_last_frozen_position_goes_back() -> None:
    """The journal: a failure after more than JOURNAL events advanced unfrozen goes back to the
    position before the event (the working position froze a checkpoint on the way)."""
    events, _ = playout(GAME, 7, max_events=3 * JOURNAL + 20, setup=setup_of(7))
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    fold = GAME.working(s)
    for ev in events[1:]:
        fold.advance(ev)
        s = settle(GAME, GAME.apply(s, ev))[0]
    assert 0 < len(fold.since) <= JOURNAL
    move = next(e for e in events if type(e).__name__ == "Moved")
    stray = msgspec.structs.replace(move, space=len(s.spaces) - 1, to=0, player=s.players[0].id)  # nothing there to move
    with pytest.raises(Exception):  # noqa: B017 - whatever the handler raises
        GAME.apply(s, stray)
    with pytest.raises(Exception):  # noqa: B017
        fold.advance(stray)
    assert _data(fold.freeze()) == _data(s)


# -- the verifier on the working position and on the frozen contract ------------------------------------

def _logs(seed: int) -> list[tuple[str, bytes]]:
    events, _ = playout(GAME, seed, max_events=400, setup=setup_of(seed), with_derived=seed % 2 == 1)
    data = to_jsonl(events)
    log = parse_log(data, "full")
    out = [(f"{seed}", data), (f"{seed}-as-p1", to_jsonl(list(redact_log(log, "p1"))))]
    rng = random.Random(seed)
    moved = list(events)
    ev = moved.pop(rng.randrange(1, len(moved)))
    moved.insert(rng.randrange(1, len(moved) + 1), ev)
    out.append((f"{seed}-moved", to_jsonl(moved)))
    return out


def _summary(res: Result) -> dict[str, Any]:
    return {"verdict": res.verdict, "events": res.events,
            "violations": [v.as_dict() for v in res.violations], "warnings": [w.as_dict() for w in res.warnings],
            "rulings": [ruling_dict(*r) for r in res.rulings],
            "undetermined": [v.as_dict() for v in res.undetermined], "unchecked": [v.as_dict() for v in res.unchecked],
            "state": _data(res.state)}


def _steps_of(log: MatchLog, then: str) -> tuple[Result, list[tuple[Any, ...]], list[tuple[Any, bytes]]]:
    steps: list[tuple[Any, ...]] = []
    handed: list[tuple[Any, bytes]] = []

    def keep(st: Step) -> None:
        steps.append((st.seq, st.line, _data(st.ruling), st.applied, _data(st.derived), _data(st.state)))
        if st.state is not None:
            handed.append((st.state, _enc(st.state)))

    return verify(log, StepStream(keep, after_rejection=then)), steps, handed


@pytest.mark.parametrize("seed", [3, 8, 10])  # (seed % 3: each third of the judges' examples)
def test_the_verifier_gives_the_same_on_the_working_position(seed: int) -> None:
    judged = sorted(EXAMPLES.glob("*judge*.jsonl"))  # (a take-back restores a kept position; "stands" plays on)
    assert len(judged) >= 2, judged
    logs = _logs(seed) + [(p.name, p.read_bytes()) for p in judged][seed % 3::3]
    for name, data in logs:
        for then in (STOP, SKIP, PLAY_ON):
            mine, steps, handed = _steps_of(parse_log(data, name), then)
            frozen, frozen_steps, _ = _steps_of(_on(parse_log(data, name), _Frozen(GAME)), then)
            assert _summary(mine) == _summary(frozen), f"{name} ({then})"
            assert steps == frozen_steps, f"{name} ({then})"
            changed = [k for k, (pos, enc) in enumerate(handed) if _enc(pos) != enc]
            assert not changed, f"{name} ({then}): positions handed out at steps {changed[:5]} changed afterwards"


def test_a_log_event_costs_less_than_one_frozen_position_when_nothing_keeps_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Positions made (States built by the working position) per log event: plain verification
    freezes a checkpoint every JOURNAL events and the final position; steps kept freeze one per
    event; the frozen contract (the default adapter) builds one per event and per derived event."""
    made = [0]
    real = working_module.State

    def counted(*args: Any) -> Any:
        made[0] += 1
        return real(*args)

    monkeypatch.setattr(working_module, "State", counted)
    datas = [to_jsonl(playout(GAME, seed, max_events=1000, setup=setup_of(seed))[0]) for seed in (0, 1, 2)]
    per: dict[str, float] = {}
    for how in ("plain", "steps", "frozen"):
        made[0] = events = 0
        for k, data in enumerate(datas):
            log = parse_log(data, f"m{k}")
            if how == "frozen":
                log = _on(log, _Frozen(GAME))
            res = verify(log, StepStream(lambda st: None) if how == "steps" else None)
            assert res.verdict == "legal"
            events += res.events - 1
        per[how] = made[0] / events
    assert per["plain"] <= 2 / JOURNAL, per
    assert 0.9 <= per["steps"] <= 1.05, per
    assert per["frozen"] > 1.0, per  # (a derived event costs one more: what the working position saves)


# -- what legal_events offers applies ------------------------------------------------------------------------

@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 100_000))
@example(seed=8380)
def test_every_event_legal_events_offers_is_accepted_and_applies(seed: int) -> None:
    events, _ = playout(GAME, seed, max_events=400, setup=setup_of(seed))
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    offered = 0
    for ev in events[1:]:
        if GAME.outcome(s) is not None:
            break
        fold = GAME.working(s)
        for e in GAME.legal_events(s):
            assert GAME.check(s, e).allowed and fold.check(e).allowed, (seed, e)
            settle(GAME, GAME.apply(s, e))  # never an exception
            offered += 1
        s = settle(GAME, GAME.apply(s, ev))[0]
    assert offered > len(events)


def test_no_road_step_for_a_colossus_carried_off() -> None:
    """Seed 8380 (3 players, deploy_can_move_banners off): p3's Colossus stepped 17->18, then a
    Teleporter swapped 18 with 20, carrying it off; the road step 18->12 was offered and then had
    no piece to move.  It is not offered now, and it is illegal (CL-6, enforced as CL-3.3: colossi/no-road)."""
    events, _ = playout(GAME, 8380, max_events=400, setup=setup_of(8380))
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    for k, ev in enumerate(events[1:], start=1):
        if type(ev).__name__ == "SpaceChosen" and s.road is not None and s.road.open \
                and s.players[2].colossus == s.road.at == 18 and ev.space == 20:
            break
        s = settle(GAME, GAME.apply(s, ev))[0]
    else:
        pytest.fail("seed 8380 no longer reaches the Teleporter swap")
    s = settle(GAME, GAME.apply(s, events[k]))[0]
    assert s.road is not None and s.road.open and s.road.at == 18 and s.players[2].colossus == 20
    road_step = msgspec.structs.replace(
        next(e for e in events if type(e).__name__ == "Moved"), player="p3", piece="colossus", space=18, to=12, road=True,
        owner=None)
    assert road_step not in GAME.legal_events(s)
    r = GAME.check(s, road_step)
    assert (r.verdict, r.rule, r.code) == ("illegal", "CL-3.3", "colossi/no-road"), r
    assert "no longer on 18" in r.message
