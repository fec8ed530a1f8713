"""The recorder under judges (issue 31): a log that holds an irregularity (an illegal event no
ruling follows) is resumed by a judge, who rules on that earlier event later; anyone else is
refused, as before.  Tried on generated matches with a planted illegal repetition."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import adjudicator
from adjudicator.cli.main import main
from adjudicator.core import registry
from adjudicator.core.errors import LogError
from adjudicator.replays.record import RecordSession

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
