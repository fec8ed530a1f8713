"""The verifier's fold against a straightforward reference fold (issue 22).

The reference below reads the protocol as docs/log-format.md states it and takes no shortcut:
for each event, in order, a derived event the log states is compared with the engine's next
consequence still owed (LOG-2); any other event is checked in the position (``game.check``),
after the end of the match it is LOG-3; a legal one is applied (``game.apply``) and then every
consequence the rules force, one ``derive``/``apply`` at a time.  Verification stops at the first
illegal event.  A seat's record may state a consequence its engine cannot derive (it waits on an
unknown identity: ``follows_stated``): it is checked and applied like a decision.

The real path (``verify.run``: plain, with its steps recorded, and ``position_at``) must give the
same rulings as data, the same violations, undetermined events and unchecked events, and the
same positions (``msgspec.to_builtins``) after sampled events and at the end, on generated
matches of every registered game, on the same matches with one event moved or removed (mostly
illegal), and on the record each seat kept (games that hide something).
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import bare
from adjudicator.core.kernel.log import MatchLog, parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.rulings import Ruling
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.notation import kind_words
from adjudicator.core.kernel.verify import position_at, run
from adjudicator.core.kernel.verify import said as verify_said

GAMES = [g.id for g in registry.games()]
#: fixed seeds (every run checks the same matches); short matches keep the file under ~20 s
SEEDS = (3, 11, 29, 47, 101)
MAX_EVENTS = 400


class Reference:
    """The reference fold of one log: rulings (event number -> ruling as data), the position
    after each event reached, and the verdict's lists as :class:`~adjudicator.core.kernel.verify.Result`
    states them (violation, undetermined and unchecked events as ``as_dict`` data)."""

    def __init__(self, log: MatchLog, keep_going: bool = False) -> None:
        game = self.game = log.game
        #: ``--keep-going`` for the viewers: an illegal event is reported and skipped; a rejection
        #: while nothing was applied since the last violation is grouped under it (its
        #: ``followers``, with what the position ``waiting_for``), unless it is an engine failure
        #: (LOG-4) or a ruling that cannot be followed (LOG-5)
        self.keep_going = keep_going
        self.root: int | None = None
        self.rulings: dict[int, dict[str, Any]] = {}
        self.positions: dict[int, Any] = {}
        self.violations: list[dict[str, Any]] = []
        self.undetermined: list[dict[str, Any]] = []
        self.unchecked: list[dict[str, Any]] = []
        events = log.events
        line, setup = events[0]
        state = game.initial_state(setup)
        owed: deque[Any] = deque()
        state = self.consequences(state, owed)
        if not self.rule(1, line, game.check_start(setup), state):
            self.final, self.events = state, 1
            return
        number = 1
        for number, (line, ev) in enumerate(list(events)[1:], start=2):
            if ev.kind == "X" and (owed or (game.outcome(state) is None and not game.follows_stated(state))):
                expected = owed.popleft() if owed else None
                if expected is not None and bare(expected) == bare(ev):
                    self.rule(number, line, Ruling("legal", "LOG-2", "core/derived", "matches the engine's derivation"), state)
                    continue
                why = (f"the engine derived {game.describe_event(expected, state)} at this point" if expected is not None
                       else self.derives_here(state))
                ruling = Ruling("illegal", "LOG-2", "core/derived-mismatch",
                                f"the log states {game.describe_event(ev, state)} but {why}")
            elif game.outcome(state) is not None:
                ruling = Ruling("illegal", "LOG-3", "core/after-end",
                                f"{kind_words(ev)} comes after the match ended ({game.outcome(state).reason})")
            else:
                owed.clear()  # a decision comes: consequences the log never stated stay applied
                ruling = game.check(state, ev)
            if ruling.verdict != "illegal":
                state = self.consequences(game.apply(state, ev), owed)
                self.root = None  # the position moved: a later rejection is a violation of its own
            if not self.rule(number, line, ruling, state, ev):
                break
        self.final, self.events = state, number
        still = game.open_conditions(state) if self.undetermined else None
        if still is not None:
            self.undetermined = [v for v in self.undetermined if v["condition"] in still]

    def consequences(self, state: Any, owed: deque[Any]) -> Any:
        """Every consequence the rules force, applied one at a time (each owed to the log)."""
        while (d := self.game.derive(state)) is not None:
            state = self.game.apply(state, d)
            owed.append(d)
        return state

    def derives_here(self, state: Any) -> str:
        nxt = self.game.derive(state)
        return "the engine derives nothing here" if nxt is None else f"the engine derives {self.game.describe_event(nxt, state)}"

    def rule(self, number: int, line: int, ruling: Ruling, state: Any, ev: Any = None) -> bool:
        """Keep the ruling on event ``number`` and the position after it; False: stop here."""
        where = {"seq": number, "line": line, "rule": ruling.rule, "code": ruling.code}
        if ruling.verdict == "illegal":
            if ruling.settles is not None:  # it contradicts an earlier undetermined event
                for i, v in enumerate(self.undetermined):
                    if v["condition"] == ruling.settles:
                        del self.undetermined[i]
                        ruling = msgspec.structs.replace(ruling, message=(
                            f"{ruling.message}; it contradicts event {v['seq']} (line {v['line']}), "
                            f"which was legal only if {v['condition']}"))
                        break
            self.rulings[number] = msgspec.to_builtins(ruling)
            if self.root is not None and ruling.rule not in ("LOG-4", "LOG-5"):
                v = self.violations[self.root]
                v["followers"] = v.get("followers", 0) + 1
                v.setdefault("waiting_for", self.game.waiting_for(state))
            else:
                said = verify_said(self.game, ev, state, number)  # (the event in words, as verify names it)
                self.violations.append(where | {"message": ruling.message} | ({"event": said} if said else {}))
                self.root = len(self.violations) - 1 if number > 1 else None
            return self.keep_going
        self.rulings[number] = msgspec.to_builtins(ruling)
        self.positions[number] = state
        if ruling.rule != "LOG-2" or number == 1:
            if not ruling.engine_checked:
                self.unchecked.append(where | {"message": ruling.message})
            if ruling.condition is not None:
                self.undetermined.append(where | {"message": ruling.message, "condition": ruling.condition})
        return True


def _data(state: Any) -> Any:
    return msgspec.to_builtins(state)


def _compare(log_bytes: bytes, name: str, keep_going: bool = False) -> Reference:
    """The real paths against the reference on one log; returns the reference."""
    ref = Reference(parse_log(log_bytes, name), keep_going)
    res = run(parse_log(log_bytes, name), keep_going=keep_going)
    assert [v.as_dict() for v in res.violations] == ref.violations, name
    assert [v.as_dict() for v in res.undetermined] == ref.undetermined, name
    assert [v.as_dict() for v in res.unchecked] == ref.unchecked, name
    assert res.events == ref.events, name
    assert _data(res.state) == _data(ref.final), name
    stepped = run(parse_log(log_bytes, name), record_steps=True, keep_going=keep_going)
    assert stepped.steps is not None
    assert {s.seq: msgspec.to_builtins(s.ruling) for s in stepped.steps} == ref.rulings, name
    rng = random.Random(name)
    reached = sorted(ref.positions)
    sample = sorted(set(rng.sample(reached, min(8, len(reached))) + [reached[-1]]))
    by_seq = {s.seq: s for s in stepped.steps}
    for n in sample:
        assert _data(by_seq[n].state) == _data(ref.positions[n]), f"{name}: the position after event {n}"
    if not ref.violations or keep_going:  # the viewers' road to a position (position_at) on a log read whole
        for n in sample[-3:]:
            assert _data(position_at(parse_log(log_bytes, name), n).state) == _data(ref.positions[n]), \
                f"{name}: position_at({n})"
    return ref


def _mutated(events: list[Any], rng: random.Random) -> list[Any]:
    """``events`` with one event moved to another place or removed (never MatchStarted)."""
    out = list(events)
    i = rng.randrange(1, len(out))
    ev = out.pop(i)
    if rng.random() < 0.7 and len(out) > 1:
        out.insert(rng.randrange(1, len(out) + 1), ev)
    return out


@pytest.mark.parametrize("gid", GAMES)
def test_reference_fold_on_generated_matches(gid: str) -> None:
    g = registry.get(gid)
    verdicts: dict[str, int] = {}
    for seed in SEEDS:
        for with_derived in (False, True):
            events, final = playout(g, seed, max_events=MAX_EVENTS, with_derived=with_derived)
            ref = _compare(to_jsonl(events), f"{gid}-{seed}-{with_derived}")
            assert ref.violations == [] and _data(ref.final) == _data(final)
            rng = random.Random(seed)
            for k in range(3):  # one event moved or removed: the first illegal event and the position there
                ref = _compare(to_jsonl(_mutated(events, rng)), f"{gid}-{seed}-{with_derived}-mutated-{k}")
                v = "illegal" if ref.violations else "legal"
                verdicts[v] = verdicts.get(v, 0) + 1
    assert verdicts.get("illegal", 0) >= 6, verdicts  # the mutations do reach the rejecting paths


@pytest.mark.parametrize("gid", GAMES)
def test_reference_fold_keeps_going_as_the_verifier(gid: str) -> None:
    """``--keep-going`` (the viewers' positions: an illegal event skipped): the same rulings,
    violations grouped the same way (followers, what the position waited for) and positions as
    the reference that skips, on matches with events moved or removed, and each seat's record."""
    g = registry.get(gid)
    grouped = 0
    for seed in SEEDS:
        events, _final = playout(g, seed, max_events=MAX_EVENTS, with_derived=seed % 2 == 1)
        rng = random.Random(seed * 7)
        for k in range(3):
            mutated = _mutated(_mutated(events, rng), rng)  # two events moved or removed
            ref = _compare(to_jsonl(mutated), f"{gid}-{seed}-keep-going-{k}", keep_going=True)
            grouped += sum(1 for v in ref.violations if v.get("followers"))
        seat = events[0].players[-1]
        record = to_jsonl(list(redact_log(parse_log(to_jsonl(_mutated(events, rng)), "m"), seat)))
        _compare(record, f"{gid}-{seed}-keep-going-as-{seat}", keep_going=True)
    assert grouped >= 1  # the grouping of follow-on rejections is reached


@pytest.mark.parametrize("gid", GAMES)
def test_reference_fold_on_seat_records(gid: str) -> None:
    g = registry.get(gid)
    for seed in SEEDS:
        events, _final = playout(g, seed, max_events=MAX_EVENTS)
        data = to_jsonl(events)
        log = parse_log(data, "full")
        for seat in log.setup.players:  # type: ignore[attr-defined]
            record = to_jsonl(list(redact_log(parse_log(data, "full"), seat)))
            ref = _compare(record, f"{gid}-{seed}-as-{seat}")
            assert ref.violations == [], ref.violations  # a seat's record of a legal match is never illegal


@pytest.mark.parametrize("block", [7, 64, 1 << 18])
def test_streamed_log_reads_as_the_log_read_whole(block: int, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``adjudicator verify``'s road (a streamed log: a first pass in blocks that counts the lines
    and finds the judges' rulings, then one line at a time) gives what a log read whole gives,
    whatever the block boundaries cut (a ruling's type, blank lines, a line's end)."""
    from pathlib import Path

    from adjudicator.core.kernel import log as logmod
    from adjudicator.core.kernel.verify import ruling_dict

    monkeypatch.setattr(logmod, "_BLOCK", block)
    examples = Path(__file__).resolve().parent.parent / "examples"
    illegal = 0
    for example in sorted(examples.glob("*/legal-judge-*.jsonl"))[:4]:
        lines = example.read_bytes().splitlines()
        data = b"\n".join(lines) + b"\n\n  \r\n "  # blank lines at the end (the rulings name lines), no final newline
        path = tmp_path / f"{example.parent.name}-{example.name}"
        path.write_bytes(data)
        whole = run(parse_log(data, str(path)))
        assert whole.verdict == "legal" and whole.rulings, example
        streamed = logmod.stream_log(path)
        res = run(streamed)
        streamed.events.drain()
        assert res.verdict == whole.verdict and res.events == whole.events, example
        assert [ruling_dict(*r) for r in res.rulings] == [ruling_dict(*r) for r in whole.rulings], example
        assert [w.as_dict() for w in res.warnings] == [w.as_dict() for w in whole.warnings], example
        assert _data(res.state) == _data(whole.state), example
        cut = tmp_path / f"cut-{path.name}"  # one event left out: illegal, its rulings may no longer fit
        cut.write_bytes(b"\n".join(lines[:len(lines) // 2] + lines[len(lines) // 2 + 1:]) + b"\n")
        for p in (path, cut):  # verify --keep-going's road, streamed, as the log read whole
            kept = run(parse_log(p.read_bytes(), str(p)), keep_going=True, play_on=True, record_steps=True)
            streamed = logmod.stream_log(p)
            steps: list[Any] = []
            going = run(streamed, keep_going=True, play_on=True, on_step=steps.append)
            streamed.events.drain()
            assert [v.as_dict() for v in going.violations] == [v.as_dict() for v in kept.violations], p
            assert [w.as_dict() for w in going.warnings] == [w.as_dict() for w in kept.warnings], p
            assert [(s.seq, msgspec.to_builtins(s.ruling), _data(s.state)) for s in steps] == \
                [(s.seq, msgspec.to_builtins(s.ruling), _data(s.state)) for s in kept.steps or []], p
            illegal += p is cut and going.verdict == "illegal"
    assert illegal >= 2  # the rejecting paths are reached
    long = tmp_path / "long.jsonl"
    first = (examples / "logos" / "legal-judge-stands.jsonl").read_bytes().splitlines()[0]
    if block < 1 << 16:  # a line over the limit in tiny blocks: a smaller limit (the same code path)
        monkeypatch.setattr(logmod, "MAX_LINE_BYTES", 50 * block + len(first))
    long.write_bytes(first + b"\n\n" + b" " * (logmod.MAX_LINE_BYTES + 1) + b"\n")
    with pytest.raises(logmod.LogError) as info:
        logmod.stream_log(long)
    assert info.value.line == 3 and "longer than" in info.value.reason


def test_a_log_read_whole_skips_the_scan_for_rulings_only_when_its_bytes_hold_none() -> None:
    """``parse_log`` notes bytes that cannot hold a judge's ruling (``no_rulings``: no
    ``JudgeRuling``, no ``\\u`` escape that could spell one); a ruling written with an escape is
    still found and followed, as written plainly."""
    from pathlib import Path

    from adjudicator.core.kernel.log import judge_rulings
    from adjudicator.core.kernel.verify import ruling_dict

    example = Path(__file__).resolve().parent.parent / "examples" / "logos" / "legal-judge-stands.jsonl"
    plain = example.read_bytes()
    escaped = plain.replace(b'"JudgeRuling"', b'"\\u004audgeRuling"')
    assert escaped != plain
    logs = [parse_log(data, "x") for data in (plain, escaped)]
    assert [log.no_rulings for log in logs] == [False, False]
    assert judge_rulings(logs[0]) == judge_rulings(logs[1]) != []
    a, b = run(logs[0]), run(logs[1])
    assert a.verdict == b.verdict == "legal" and [ruling_dict(*r) for r in a.rulings] == [ruling_dict(*r) for r in b.rulings]
    events, _ = playout(registry.get("logos"), 3, max_events=60)
    none = parse_log(to_jsonl(events), "y")
    assert none.no_rulings and judge_rulings(none) == [] and run(none).verdict == "legal"


@pytest.mark.parametrize("gid", GAMES)
def test_a_judges_taking_back_restores_the_position_before_the_event(gid: str) -> None:
    """A judge's ruling takes back a decision and the events after it; the table then plays them
    again.  Against the reference fold of the match as played: every step after the ruling has
    the ruling and the position the same event had there (the position restored is the one kept
    before the event, never a refold), the verdict is legal with one ``taken-back`` warning.  A
    game whose seats keep what the events taken back showed them (``keep_seen``) is held to the
    verdict, the warning and the rulings only."""
    from adjudicator.core.kernel.events import JudgeRuling
    from adjudicator.core.kernel.protocol import Game

    g = registry.get(gid)
    open_information = type(g).keep_seen is Game.keep_seen
    for seed in SEEDS[:3]:
        events, _final = playout(g, seed, max_events=MAX_EVENTS, with_derived=seed % 2 == 1)
        ref = Reference(parse_log(to_jsonl(events), "played"))
        rng = random.Random(seed)
        decisions = [i for i in range(1, len(events) - 1) if events[i].kind in ("D", "R")]
        i0 = rng.choice(decisions[len(decisions) // 3:])  # event number i0 + 1 is taken back
        m = rng.randrange(0, min(4, len(events) - i0))  # with the m events after it
        t = i0 + 1 + m  # the ruling is event t + 1
        log = events[:t] + [JudgeRuling(event=i0 + 1, decision="taken-back")] + events[i0:]
        res = run(parse_log(to_jsonl(log), f"{gid}-{seed}-taken-back"), record_steps=True)
        name = f"{gid}-{seed}: event {i0 + 1} taken back at event {t + 1}"
        assert res.verdict == "legal" and res.violations == [], name
        assert [(w.seq, w.decision, w.taken_back_with) for w in res.warnings] == [(i0 + 1, "taken-back", m)], name
        assert res.steps is not None
        replayed = {s.seq - (t + 1) + i0: s for s in res.steps if s.seq > t + 1}  # original number -> step
        for n, st in replayed.items():
            assert msgspec.to_builtins(st.ruling) == ref.rulings[n], f"{name}: event {n} replayed"
            if open_information:
                assert _data(st.state) == _data(ref.positions[n]), f"{name}: the position after event {n} replayed"
        if open_information:
            assert _data(res.state) == _data(ref.final), name
