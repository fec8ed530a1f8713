"""``record``'s readers bounded like every other file (issue 29 item 11): a set-up read from a
device, deep JSON in ``--setup``/``--option``/the salts file, a salts file of the wrong shape, a
huge script line, the salts file's permissions, ``--script``'s exit code when an entry was not
recorded, and a resumed log whose stated derived events differ from the engine's.  Each answered
with exit 2 (or the documented code) and a message, never a traceback, a hang or a memory bomb."""

from __future__ import annotations

import io
import json
import shutil
import time
import tracemalloc

import msgspec
from click.testing import CliRunner

import adjudicator
from adjudicator.recorder.session import MAX_ENTRY, RecordSession
from adjudicator.recorder.files import SALTS_SUFFIX
from adjudicator.cli.main import main
from adjudicator.cli.record import run_script

DEEP = "[" * 5000 + "]" * 5000


def run(*args: str, input: str = "") -> object:
    return CliRunner().invoke(main, list(args), input=input)


def new(tmp_path, *extra: str, input: str = "") -> object:
    return run("record", str(tmp_path / "m.jsonl"), "--game", "colossi", "--players", "a,b", *extra,
               "--script", "-", input=input)


def test_a_set_up_from_a_device_is_refused_at_once(tmp_path):
    t0 = time.perf_counter()
    r = new(tmp_path, "--setup", "@/dev/zero")
    assert r.exit_code == 2 and "not a regular file" in r.output and time.perf_counter() - t0 < 5
    r = new(tmp_path, "--setup", f"@{tmp_path}")
    assert r.exit_code == 2 and "not a regular file" in r.output
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * 5_000_000)
    r = new(tmp_path, "--setup", f"@{big}")
    assert r.exit_code == 2 and "larger than" in r.output


def test_deep_json_in_setup_and_option_is_refused(tmp_path):
    r = new(tmp_path, "--setup", '{"x": ' + DEEP + "}")
    assert r.exit_code == 2 and "deeper than" in r.output, r.output
    f = tmp_path / "deep.json"
    f.write_text('{"x": ' + DEEP + "}")
    r = new(tmp_path, "--setup", f"@{f}")
    assert r.exit_code == 2 and "deeper than" in r.output, r.output
    r = new(tmp_path, "--option", "x=" + DEEP)
    assert r.exit_code == 2 and "deeper than" in r.output, r.output
    assert "Traceback" not in r.output and not (tmp_path / "m.jsonl").exists()


def seat_log(tmp_path):
    g = adjudicator.game("logos")
    doc = msgspec.to_builtins(g.sample_setup(1))
    log = tmp_path / "seat.jsonl"
    s = RecordSession.start(log, g.id, doc["players"], fields={"decks": doc["decks"]}, seat=doc["players"][0])
    assert s.enter("1").ok
    return log


def test_the_salts_file_is_the_owners_and_read_with_bounds(tmp_path):
    log = seat_log(tmp_path)
    side = tmp_path / ("seat.jsonl" + SALTS_SUFFIX)
    assert side.stat().st_mode & 0o777 == 0o600
    for bad, why in [('{"player": "p1", "commitments": ' + DEEP + "}", "deeper than"),
                     ('{"player": "p1", "commitments": [1, 2]}', "not a salts file"),
                     ('{"player": "p1", "commitments": {"c": {"value": 1}}}', "not a salts file"),
                     ("[]", "not a salts file"), ("not json", "not JSON")]:
        side.write_text(bad)
        r = run("record", str(log), "--script", "-")
        assert r.exit_code == 2 and why in r.output and "Traceback" not in r.output, (bad[:40], r.output)
    side.unlink()
    side.symlink_to("/dev/zero")
    r = run("record", str(log), "--script", "-")
    assert r.exit_code == 2 and "not a regular file" in r.output


def test_a_huge_script_line_is_read_in_bounded_memory(tmp_path):
    session = RecordSession.start(tmp_path / "c.jsonl", "colossi", ["a", "b"])

    class Endless(io.TextIOBase):
        """A 300 MB line, made as it is read (never held whole), then one good entry."""

        def __init__(self) -> None:
            self.left = 300_000_000
            self.tail = ["1\n"]

        def readline(self, size: int = -1) -> str:
            if self.left > 0:
                n = min(self.left, size if size > 0 else 1 << 20)
                self.left -= n
                return "x" * n if self.left else "x" * (n - 1) + "\n"
            return self.tail.pop() if self.tail else ""

    tracemalloc.start()
    try:
        code = run_script(session, Endless())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * MAX_ENTRY + 5_000_000, peak  # (the line is 300 MB)
    assert code == 2 and len(session.record) == 2  # the good entry recorded, the long one not


def test_script_exits_non_zero_when_an_entry_was_not_recorded(tmp_path):
    assert new(tmp_path, input="1\n").exit_code == 0
    assert run("record", str(tmp_path / "m.jsonl"), "--script", "-", input="no such thing\n").exit_code == 2
    assert run("record", str(tmp_path / "m.jsonl"), "--script", "-", input="99\n").exit_code == 2
    r = run("record", str(tmp_path / "m.jsonl"), "--script", "-", input='{"type": "Passed", "player": "a"}\n')
    assert r.exit_code == 1 and "refused" in r.output
    # a match-ending entry never confirmed is not recorded
    log = tmp_path / "l.jsonl"
    decks = json.dumps({"decks": msgspec.to_builtins(adjudicator.game("logos").sample_setup(0).decks)})
    r = run("record", str(log), "--game", "logos", "--players", "p1,p2", "--setup", decks, "--script", "-",
            input="p1 resign\n")
    assert r.exit_code == 2 and "not confirmed" in r.output and len(adjudicator.read_log(log)) == 1


def test_resume_checks_stated_derived_events(tmp_path):
    bad = tmp_path / "bad.jsonl"
    shutil.copy("examples/colossus-order/illegal-LOG-2-derived-mismatch.jsonl", bad)
    r = run("record", str(bad), "--script", "-")
    assert r.exit_code == 2 and "LOG-2" in r.output and "not resumed" in r.output, r.output
    # the same match with every derived event stated as the engine derives it resumes
    src = adjudicator.read_log("examples/colossus-order/legal-gem-complete.jsonl")
    rec = RecordSession.start(tmp_path / "x.jsonl", src.game.id, src.setup.players,
                              fields={"decks": msgspec.to_builtins(src.setup.decks)})
    rec.autopass = False
    for ev in src.events[1:40]:
        assert rec.push(ev).ok
    good = tmp_path / "good.jsonl"
    good.write_bytes(rec.record.to_jsonl(derived=True))
    assert len(good.read_bytes().splitlines()) > len(rec.record.events)  # (derived events stated)
    again = RecordSession.resume(good)
    assert [e for e in again.record.events if e.kind != "X"] == rec.record.events
