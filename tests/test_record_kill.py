"""``kill -9`` of ``adjudicator record`` mid-match, 20 times at random moments: the log on disk
verifies each time and holds every event the recorder had accepted before the kill (each is
flushed to disk before it is acknowledged); the next run resumes it."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import threading
import sys
import time
from pathlib import Path

import adjudicator

ROOT = Path(__file__).resolve().parent.parent
CHOICES = re.compile(r"; (\d+) choices(?:;|$)")  # ("...; 4 choices; Enter: bob: pass": the default)
ACCEPTED = re.compile(r"^accepted (\d+)$")


def run_until_killed(log: Path, rng: random.Random) -> int:
    """One run of the recorder on ``log``: random entries, then kill -9; the most events it said
    it had accepted."""
    args = [sys.executable, "-m", "adjudicator", "record", str(log), "--script", "-"]
    if not log.exists():
        args += ["--game", "colossi", "--players", "ann,bob", "--meta", "event=kill test"]
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, bufsize=1, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    entries = rng.randint(1, 12)
    accepted = 0
    watchdog = threading.Timer(60, p.kill)  # a prompt the loop does not read never hangs the suite
    watchdog.start()
    try:
        assert p.stdin is not None and p.stdout is not None
        sent = 0
        while True:
            line = p.stdout.readline()
            if not line:
                raise AssertionError(f"the recorder stopped: {p.stderr.read() if p.stderr else ''}")
            line = line.rstrip("\n")
            m = ACCEPTED.match(line)
            if m:
                accepted = int(m.group(1))
            m = CHOICES.search(line)
            if m and int(m.group(1)) > 0:
                if sent == entries:
                    break
                p.stdin.write(f"{rng.randint(1, int(m.group(1)))}\n")
                p.stdin.flush()
                sent += 1
                if sent == entries:  # kill while it works on this entry, at a random moment
                    time.sleep(rng.random() * 0.05)
                    break
    finally:
        watchdog.cancel()
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=30)
        for f in (p.stdin, p.stdout, p.stderr):
            if f is not None:
                f.close()
    return accepted


def test_kill_9_twenty_times(tmp_path):
    log = tmp_path / "killed.jsonl"
    rng = random.Random(20261126)
    before: list = []
    for _round in range(20):
        accepted = run_until_killed(log, rng)
        assert log.exists()
        match = adjudicator.read_log(log)
        verdict = match.verify()
        assert verdict.verdict == "legal", verdict.violations
        events = match.events
        assert len(events) >= accepted  # every acknowledged event is on disk
        assert events[:len(before)] == before  # nothing recorded before is lost or changed
        assert events[0].meta == {"event": "kill test"}
        before = events
    assert len(before) > 20
