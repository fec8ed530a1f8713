"""A judge's ruling on a derived (X) event the log states wrongly (docs/log-format.md, "Judges'
rulings"): ``stands`` puts the stated values in place of the engine's derivation and the players'
later events are checked in that position; ``corrected`` reads the line as the engine's derivation.

One test per game, on the game's LOG-2 example (a derived event stated with other values), the
match then played on (by the game's own legal events) from the position the ruling leaves.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel.events import encode_line
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.verify import run, settle

ROOT = Path(__file__).resolve().parent.parent
#: each game's log whose last line states a derived event other than the engine's derivation
WRONG = {
    "colossus-order": "illegal-LOG-2-derived-mismatch.jsonl",
    "logos": "illegal-LOG-2-strike-ignores-defense.jsonl",
    "kolossus": "illegal-LOG-2-derived-mismatch.jsonl",
    "colossi": "illegal-LOG-2-wrong-turn-ended.jsonl",
}


def lines_of(path: Path) -> list[bytes]:
    return [ln for ln in path.read_bytes().split(b"\n") if ln.strip()]


def verify(lines: list[bytes], **kw):
    return run(parse_log(b"".join(ln + b"\n" for ln in lines), "t.jsonl"), **kw)


def played_on(lines: list[bytes], seed: int, n: int = 40) -> list[bytes]:
    """``lines`` and up to ``n`` more events the game allows in the position they leave (picked
    by a seeded generator among its legal events): the players going on from there."""
    res = verify(lines)
    assert res.verdict == "legal", [v.as_dict() for v in res.violations]
    game, state = res.game, res.state
    rng = random.Random(seed)
    more: list[bytes] = []
    for _ in range(n):
        if game.outcome(state) is not None:
            break
        options = game.legal_events(state)
        if not options:
            break
        ev = rng.choice(options)
        state, _derived = settle(game, game.apply(state, ev))
        more.append(encode_line(ev))
    return lines + more


def ruled(gid: str, decision: str) -> tuple[list[bytes], int]:
    lines = lines_of(ROOT / "examples" / gid / WRONG[gid])
    n = len(lines)
    return lines + [json.dumps({"type": "JudgeRuling", "event": n, "decision": decision,
                                "reason": "both players played on"}).encode()], n


@pytest.mark.parametrize("gid", WRONG)
def test_a_wrongly_stated_derived_event_that_stands_is_played_on(gid: str) -> None:
    plain = verify(lines_of(ROOT / "examples" / gid / WRONG[gid]))
    [v] = plain.violations
    assert v.rule == "LOG-2"
    lines, n = ruled(gid, "stands")
    log = played_on(lines, seed=7)
    assert len(log) > len(lines)
    res = verify(log)
    assert res.verdict == "legal", [x.as_dict() for x in res.violations]
    [w] = res.warnings
    assert (w.seq, w.rule, w.decision, w.ruling_seq) == (n, "LOG-2", "stands", n + 1)
    # the stated values stand: the position differs from the one the engine's derivation gives
    corrected, _n = ruled(gid, "corrected")
    assert verify(lines).state != verify(corrected).state
    # the CLI says the same, the warning beside the verdict
    p = Path(f"/tmp/judge-derived-{gid}.jsonl")
    p.write_bytes(b"".join(ln + b"\n" for ln in log))
    r = CliRunner().invoke(main, ["verify", str(p)])
    assert r.exit_code == 0 and f"warning: {p}:{n}: event {n}: LOG-2 [core/derived-mismatch]" in r.output, r.output
    assert "(stands by the judge's ruling" in r.output


@pytest.mark.parametrize("gid", WRONG)
def test_a_wrongly_stated_derived_event_corrected_is_read_as_the_engines(gid: str) -> None:
    lines, n = ruled(gid, "corrected")
    log = played_on(lines, seed=11)
    res = verify(log, record_steps=True)
    assert res.verdict == "legal", [x.as_dict() for x in res.violations]
    [w] = res.warnings
    assert (w.seq, w.rule, w.decision) == (n, "LOG-2", "corrected")
    # the position is the one the engine's derivation gives: as if the line had stated it
    engine = verify(lines_of(ROOT / "examples" / gid / WRONG[gid])[:-1])
    assert res.steps[n].state == engine.state
    assert [s.judged for s in res.steps[n - 1:n + 1]] == ["corrected", "ruling"]
    assert "is corrected" in res.steps[n].ruling.message


def test_a_ruling_on_a_derived_event_that_cannot_be_followed_says_why() -> None:
    gid = "kolossus"
    lines = lines_of(ROOT / "examples" / gid / WRONG[gid])
    n = len(lines)
    back = verify(lines + [json.dumps({"type": "JudgeRuling", "event": n, "decision": "taken-back"}).encode()], keep_going=True)
    assert [v.rule for v in back.violations] == ["LOG-2", "LOG-5"]
    assert "cannot take a consequence back" in back.violations[1].message
    right = lines_of(ROOT / "examples" / "kolossus" / "legal-chapter-1.jsonl")[:14]
    # a decision cannot be corrected; a derived event the engine derives is no irregularity
    k = next(i for i, ln in enumerate(right, 1) if b'"DestinyRolled"' in ln)
    bad = verify(right + [json.dumps({"type": "JudgeRuling", "event": k, "decision": "corrected"}).encode()], keep_going=True)
    assert [v.rule for v in bad.violations] == ["LOG-5"] and "only a derived (X) event" in bad.violations[0].message


def test_a_store_import_keeps_the_position_a_stated_derived_event_left(tmp_path: Path) -> None:
    from adjudicator.core.store import MatchStore

    lines, n = ruled("kolossus", "stands")
    log = played_on(lines, seed=3, n=30)
    p = tmp_path / "stands.jsonl"
    p.write_bytes(b"".join(ln + b"\n" for ln in log))
    res = verify(log, record_steps=True)
    for read in (lambda: parse_log(p.read_bytes(), str(p)), None):  # in memory, and streamed from the file
        with MatchStore(memory=True, snapshot_every=1000) as store:
            out = store.import_log(read()) if read is not None else store.import_file(p)
            for at in (n - 1, n, n + 1, len(log)):
                assert store.state_at(str(out.match_id), at)[1] == res.steps[at - 1].state, at
            stepped = list(store.steps(str(out.match_id), n - 1, len(log)))
            assert [s.state for s in stepped] == [s.state for s in res.steps[n - 2:]]


def test_check_answers_what_follows_from_a_ruling_on_a_derived_event() -> None:
    """``check --event`` a proposed ruling: "stands" goes on from the stated warband's turn,
    "corrected" from the engine's."""
    path = ROOT / "examples" / "kolossus" / WRONG["kolossus"]
    n = len(lines_of(path))
    answers = {}
    for decision in ("stands", "corrected"):
        r = CliRunner().invoke(main, ["check", str(path), "--at", str(n), "--event",
                                      json.dumps({"type": "JudgeRuling", "event": n, "decision": decision})])
        assert r.exit_code == 0 and f"({decision})" in r.output, r.output
        answers[decision] = r.output
    assert "destiny rolled by ishtari" in answers["stands"] and "destiny rolled by krell" in answers["corrected"]
