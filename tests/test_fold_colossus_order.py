"""Colossus Order on the fold contract (issue 33): its working position (games/colossus_order/
working.py) changes in place, hands out frozen positions only where a caller keeps one, and folds
exactly as the frozen-state contract (``game.apply``, the default adapter) does.

Properties over generated matches (full logs, each seat's record, logs with one event moved or
removed) and the game's shipped logs:

- event by event, the working position's rulings, derived events and frozen positions equal the
  frozen contract's (:class:`~adjudicator.core.kernel.fold.FrozenWorking` over ``game.apply``);
- no position handed out ever changes afterwards, including after a take-back (``restore``), a
  rejected event and an event whose application failed (undone);
- ``verify`` with the working position and with the default adapter gives the same verdicts,
  rulings, steps and positions, stopping, skipping or playing on after a rejection (judges'
  rulings: the shipped logs);
- a log event costs no frozen position when nothing keeps one (the plain visitor).
"""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.fold import PLAY_ON, SKIP, STOP, FrozenWorking, StepRecorder, Visitor, settle
from adjudicator.core.kernel.log import MatchLog, parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import Result, ruling_dict, verify
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order import working as W
from adjudicator.games.colossus_order.positions import put
from adjudicator.games.colossus_order.state import State

GAME = registry.get("colossus-order")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "colossus-order"
SEEDS = (1, 4, 9)
MAX_EVENTS = 600


def _logs(seed: int) -> list[tuple[str, bytes]]:
    """A generated match: in full, with derived events stated, as each seat kept it, and with one
    event moved or removed."""
    events, _ = playout(GAME, seed, max_events=MAX_EVENTS, with_derived=seed % 2 == 1)
    data = to_jsonl(events)
    out = [(f"co-{seed}", data)]
    for seat in ("p1", "p2"):
        out.append((f"co-{seed}-as-{seat}", to_jsonl(list(redact_log(parse_log(data, "full"), seat)))))
    rng = random.Random(seed)
    moved = list(events)
    moved.insert(rng.randrange(1, len(moved)), moved.pop(rng.randrange(1, len(moved))))
    out.append((f"co-{seed}-moved", to_jsonl(moved)))
    removed = list(events)
    removed.pop(rng.randrange(1, len(removed)))
    out.append((f"co-{seed}-removed", to_jsonl(removed)))
    return out


def _enc(x: Any) -> bytes:
    return msgspec.json.encode(x)


class _Handed:
    """Every position handed out, with its encoding when it was handed out."""

    def __init__(self) -> None:
        self.kept: list[tuple[str, Any, bytes]] = []

    def __call__(self, where: str, pos: Any) -> Any:
        assert type(pos) is State, where
        self.kept.append((where, pos, _enc(pos)))
        return pos

    def unchanged(self) -> None:
        changed = [w for w, pos, enc in self.kept if _enc(pos) != enc]
        assert not changed, f"positions handed out changed afterwards: {changed[:5]}"


def _fold_both(events: list[Any], rng: random.Random, handed: _Handed) -> int:
    """Fold ``events`` on the working position and on the frozen contract side by side, as the
    verifier does (a stated derived event confirms; an illegal one is not applied); take back to a
    kept position now and then.  Returns how many events were applied."""
    start, derived = settle(GAME, GAME.initial_state(events[0]))
    mine, ref = GAME.working(start), FrozenWorking(GAME, start)
    assert type(mine) is W.Working and mine.freeze() is start
    mine.keep_base = ref.keep_base = rng.random() < 0.5  # (a judge's base: the position before consequences)
    pending: deque[Any] = deque(derived)
    kept: list[tuple[int, Any, Any, list[Any]]] = []  # (event index, the two frozen positions, pending)
    applied, i, takebacks = 0, 0, 0
    while i < len(events) - 1:
        ev = events[i + 1]
        i += 1
        if pending and ev.kind == "X" and ev == pending[0]:
            pending.popleft()
            continue
        before = mine.freeze()
        ruling = mine.check(ev)
        assert msgspec.to_builtins(ruling) == msgspec.to_builtins(ref.check(ev)), (i, ev)
        assert mine.freeze() is before and _enc(before) == _enc(ref.freeze()), (i, "check changed the position")
        if ruling.verdict == "illegal":
            continue
        pending.clear()
        got = mine.advance(ev)
        assert msgspec.to_builtins(got) == msgspec.to_builtins(ref.advance(ev)), (i, ev)
        pending.extend(got)
        applied += 1
        if mine.keep_base:
            assert _enc(handed(f"base {i}", mine.base)) == _enc(ref.base), (i, ev)
        assert mine.ended == ref.ended, i
        pos = handed(f"event {i}", mine.freeze())
        assert mine.freeze() is pos  # the same object until the position changes
        assert _enc(pos) == _enc(ref.freeze()), (i, ev)
        if rng.random() < 0.05:
            kept.append((i, pos, ref.freeze(), list(pending)))
        if kept and takebacks < 3 and rng.random() < 0.02:  # a take-back to a kept position (no refold), then on
            i, back, ref_back, was_pending = kept[rng.randrange(len(kept))]
            mine.restore(back)
            ref.restore(ref_back)
            pending, takebacks = deque(was_pending), takebacks + 1
            assert mine.freeze() is back and mine.ended == ref.ended
    return applied


@pytest.mark.parametrize("seed", SEEDS)
def test_the_working_position_folds_as_the_frozen_contract_and_changes_no_position_handed_out(seed: int) -> None:
    rng = random.Random(seed)
    handed = _Handed()
    applied = 0
    for name, data in _logs(seed):
        applied += _fold_both([ev for _, ev in parse_log(data, name).events], rng, handed)
    assert applied > 1000 and len(handed.kept) >= applied
    handed.unchanged()


def test_a_failed_event_is_undone_and_a_kept_position_survives_a_take_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """An event applied unchecked that has no defined effect (an attack by no follower raises),
    or whose handler fails after changing the position, leaves the working position as it was; a
    position kept before is the one restored, and folding on from it gives what the first fold gave."""
    events, _ = playout(GAME, 7, max_events=MAX_EVENTS)
    start, _ = settle(GAME, GAME.initial_state(events[0]))
    w = GAME.working(start)
    handed = _Handed()
    positions = []
    for ev in events[1:]:
        w.advance(ev)
        positions.append(handed("first fold", w.freeze()))
    mid = len(positions) // 2
    w.restore(positions[mid])
    assert w.freeze() is positions[mid]
    before = w.freeze()
    with pytest.raises(Exception):
        w.advance(E.AttackDeclared(player="p1", attacker="F9999", target="deck"))
    assert w.freeze() is before and _enc(w.freeze()) == _enc(positions[mid])

    def fails_halfway(rules: Any, s: Any, e: Any) -> Any:
        put(s, turn=s.turn + 1, todo=())
        raise RuntimeError("a defect")

    monkeypatch.setitem(type(GAME.rules)._applies, E.Conceded, fails_halfway)
    with pytest.raises(RuntimeError):
        w.advance(E.Conceded(player="p1"))
    assert w.freeze() is before and _enc(w.freeze()) == _enc(positions[mid])
    monkeypatch.undo()
    for k, ev in enumerate(events[mid + 2:]):  # folding on from the kept position: the same positions
        w.advance(ev)
        assert _enc(handed("second fold", w.freeze())) == _enc(positions[mid + 1 + k])
    handed.unchanged()


class _Frozen:
    """``game`` on the frozen-state contract (no working position of its own: the default adapter)."""

    working = None

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def _summary(res: Result) -> dict[str, Any]:
    return {"verdict": res.verdict, "events": res.events,
            "violations": [v.as_dict() for v in res.violations], "warnings": [w.as_dict() for w in res.warnings],
            "rulings": [ruling_dict(*r) for r in res.rulings], "undetermined": [v.as_dict() for v in res.undetermined],
            "unchecked": [v.as_dict() for v in res.unchecked], "state": msgspec.to_builtins(res.state)}


def _steps(res: Result) -> list[Any]:
    return [(st.seq, st.line, msgspec.to_builtins(st.ruling), st.applied, msgspec.to_builtins(st.derived),
             msgspec.to_builtins(st.state), msgspec.to_builtins(st.table)) for st in res.steps or []]


def _all_logs() -> list[tuple[str, bytes]]:
    return [x for seed in SEEDS[:2] for x in _logs(seed)] + [(p.name, p.read_bytes()) for p in sorted(EXAMPLES.glob("*.jsonl"))]


@pytest.mark.parametrize("then", [STOP, SKIP, PLAY_ON])
def test_verify_on_the_working_position_gives_what_the_frozen_contract_gives(then: str) -> None:
    judged = 0
    for name, data in _all_logs():
        mine = verify(parse_log(data, name), StepRecorder(after_rejection=then))
        log = parse_log(data, name)
        frozen = MatchLog(log.path, _Frozen(log.game), log.events, log.sealed_head, log.no_rulings)  # type: ignore[arg-type]
        ref = verify(frozen, StepRecorder(after_rejection=then))
        assert _summary(mine) == _summary(ref), f"{name} ({then})"
        assert _steps(mine) == _steps(ref), f"{name} ({then})"
        judged += bool(mine.rulings)
    assert judged >= 2  # the judges' rulings of the shipped logs (a take-back, a ruling that stands)


def test_a_log_event_costs_no_frozen_position_when_nothing_keeps_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain visitor keeps no step: the working position freezes once, at the end (the
    result's position), however long the match."""
    made = [0]

    def counted(*values: Any) -> State:
        made[0] += 1
        return State(*values)

    monkeypatch.setattr(W, "State", counted)
    for seed in SEEDS:
        events, _ = playout(GAME, seed, max_events=MAX_EVENTS)
        made[0] = 0
        res = verify(parse_log(to_jsonl(events), "full"), Visitor())
        assert res.verdict == "legal" and res.events == len(events) > 100
        assert made[0] <= 1, (seed, made[0])
        made[0] = 0
        rec = verify(parse_log(to_jsonl(events), "full"), StepRecorder())
        assert made[0] <= len(events) and len({id(st.state) for st in rec.steps or []}) > 100
