"""The recorder under judges (issue 31): a log that holds an irregularity (an illegal event no
ruling follows) is resumed by a judge, who rules on that earlier event later; anyone else is
refused, as before.  Tried on generated matches with a planted illegal repetition."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import adjudicator
from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import LogError
from adjudicator.recorder.session import RecordSession

from .tournament_gen import _decks, _enc, _illegal, _match


def _irregular(tmp_path, gid, seed):
    """A generated match's log with one decision repeated where that is illegal; its line."""
    g = registry.get(gid)
    names = ["ann", "bob"]
    events, _ = _match(g, names, _decks(g, names, seed), seed)
    lines, bad = _illegal(g, [_enc.encode(e) + b"\n" for e in events])
    path = tmp_path / f"{gid}-{seed}.jsonl"
    path.write_bytes(b"".join(lines))
    return path, bad, len(lines)


@pytest.mark.parametrize("gid,seed", [("colossus-order", 3), ("colossus-order", 8), ("logos", 2)])
@pytest.mark.parametrize("decision", ["taken-back", "stands"])
def test_a_judge_resumes_a_log_with_an_irregularity_and_rules_on_it_later(tmp_path, gid, seed, decision):
    path, bad, n = _irregular(tmp_path, gid, seed)
    before = path.read_bytes()
    with pytest.raises(LogError) as exc:  # a player (no judge) cannot resume it
        RecordSession.resume(path)
    assert exc.value.line == bad
    s = RecordSession.resume(path, judge=True)
    assert s.irregularity.startswith(f"line {bad}: ") and "rule stands|taken-back" in s.irregularity
    assert len(s.record) == bad - 1
    # nothing else until the ruling, and the file is untouched
    for entry in ("undo", "note later", "1"):
        got = s.enter(entry)
        assert not got.ok and got.message.startswith("first the judge's ruling"), (entry, got.message)
    assert path.read_bytes() == before
    got = s.rule(f"{decision} entered twice by mistake")
    if decision == "stands" and not got.ok:  # the events after it cannot follow it standing: nothing changed
        assert "cannot follow that ruling" in got.message or "cannot be followed" in got.message
        assert path.read_bytes() == before and s.irregularity
        return
    assert got.ok, got.message
    v = adjudicator.read_log(path).verify()
    assert v.verdict == "legal" and [r[2].decision for r in v.rulings] == [decision]
    assert len(adjudicator.read_log(path)) == n + 1 and s.irregularity is None and len(s.record) == n + 1


def test_the_command_line_shows_the_irregularity_and_takes_the_ruling(tmp_path):
    path, bad, n = _irregular(tmp_path, "colossus-order", 3)
    r = CliRunner().invoke(main, ["record", str(path), "--judge", "--script", "-"], input="rule taken-back typed twice\n")
    assert f"the log holds an irregularity at line {bad}: " in r.output, r.output
    assert "the judge's ruling: taken-back" in r.output
    assert adjudicator.read_log(path).verify().verdict == "legal"
    r = CliRunner().invoke(main, ["record", str(tmp_path / "x.jsonl"), "--script", "-"], input="")
    path2, bad2, _ = _irregular(tmp_path, "colossus-order", 8)
    r = CliRunner().invoke(main, ["record", str(path2), "--script", "-"], input="")
    assert r.exit_code == 2 and f":{bad2}:" in r.output and "not resumed" in r.output


@pytest.mark.parametrize("gid,seed", [("colossus-order", 4), ("colossi", 4)])
def test_undo_of_a_named_entry_where_nothing_after_depends_on_it(tmp_path, gid, seed):
    """``undo N`` on a generated match's log, for its decisions in turn: taken back, the file is
    the log without that entry (its derived events with it), every other line as it was, and
    legal; refused, the file is untouched.  At least one is taken back; a random outcome (a
    re-roll: a judge's ruling) and a derived event are always refused."""
    g = registry.get(gid)
    events, _ = _match(g, ["ann", "bob"], _decks(g, ["ann", "bob"], 1), seed)
    lines = [_enc.encode(e) + b"\n" for e in events]
    path = tmp_path / "m.jsonl"
    taken = 0
    for n in range(2, min(len(events), 130)):
        path.write_bytes(b"".join(lines))
        s = RecordSession.resume(path)
        got = s.enter(f"undo {n}")
        kind = events[n - 1].kind
        if kind != "D":
            assert not got.ok and path.read_bytes() == b"".join(lines)
            assert ("judge's ruling" if kind == "R" else "follows from the entry before it") in got.message, got.message
            continue
        if not got.ok:
            assert "depends on it" in got.message and path.read_bytes() == b"".join(lines)
            continue
        taken += 1
        end = n
        while end < len(events) and events[end].kind == "X":
            end += 1
        def unsealed(raw):  # (the match is over: the file is sealed again, each line's hash in prev)
            return [{k: v for k, v in json.loads(x).items() if k != "prev"} for x in raw]
        after = unsealed(path.read_bytes().splitlines())
        assert after[:n - 1] == unsealed(lines[:n - 1]) and after[n - 1:] == unsealed(lines[end:])
        assert adjudicator.read_log(path).verify().verdict == "legal"
        assert got.message.startswith(f"taken back: event {n} (")
    assert taken >= 1


def test_the_service_s_recording_state_says_the_irregularity_first(tmp_path):
    from adjudicator.recorder.web import Recordings, state_of

    path, bad, _ = _irregular(tmp_path, "colossus-order", 3)
    s = RecordSession.resume(path, judge=True)
    doc = state_of("r1", s, Recordings(tmp_path / "recs"))
    assert not doc.ok and doc.message.startswith(f"the log holds an irregularity at line {bad}: ")
    s.rule("taken-back typed twice")
    assert state_of("r1", s, Recordings(tmp_path / "recs")).message == ""
