"""A bounded run of the fuzzer's ``service`` surface (the long one: ``python -m benchmarks --fuzz N
--fuzz-surface service``): hostile query parameters, path segments, headers and uploads against
the replay service in process; no 5xx answer and no request over a few seconds.
"""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.replays.web import app as web_app
from benchmarks.fuzz_surfaces import surfaces
from benchmarks.fuzz_service import fuzz_service
from benchmarks.runner import main as bench_main

REQUESTS = 600


def test_hostile_requests_never_crash_or_hang() -> None:
    rep = fuzz_service("service", REQUESTS, seed=11, hang_seconds=3.0)
    assert rep.inputs >= REQUESTS * 0.9
    assert rep.crashes == [], rep.crashes[:5]
    assert rep.hangs == [], rep.hangs[:5]
    assert rep.statuses is not None
    # the requests reach past the checks: many answer 200, uploads are stored, some are refused
    assert rep.statuses.get(200, 0) >= REQUESTS // 5, rep.statuses
    assert rep.statuses.get(201, 0) >= 1 and rep.statuses.get(400, 0) >= REQUESTS // 10, rep.statuses
    assert rep.peak_bytes > 0  # (the process's peak: the 256 MiB bound is python -m benchmarks --fuzz's, run alone)


def test_the_service_surface_finds_the_unbounded_var(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``var`` decoded without the depth check (the defect of issue 19), the fuzzer reports
    the 500s it causes."""

    def unbounded(raw: str, *_args: object, **_kwargs: object) -> object:
        return msgspec.json.decode(raw.encode())

    monkeypatch.setattr(web_app, "decode_json", unbounded)
    rep = fuzz_service("service", 400, seed=3)
    assert any(" 500 " in c and "RecursionError" in c for c in rep.crashes), rep.statuses


def test_the_surface_is_registered_and_selectable() -> None:
    """As a user runs it: in a process of its own (the fuzzed child is forked from it, and its peak
    memory, held under FUZZ_PEAK_MIB, would count a test process's pages too)."""
    import subprocess
    import sys
    from pathlib import Path

    assert surfaces()["service"] is fuzz_service
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-m", "benchmarks", "--fuzz", "30", "--fuzz-surface", "service"], cwd=root,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert r.stdout.splitlines()[1].split()[:4] == ["service", "30", "0", "0"], r.stdout
    assert bench_main(["--fuzz", "1", "--fuzz-surface", "nothing"]) == 2


def test_a_stuck_request_is_a_hang_and_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request that does not answer in ten times the hang limit (a planted defect: the position
    takes 4 s) is reported and ends the run, which never waits for it."""
    import threading
    import time

    release, entered = threading.Event(), threading.Event()

    def stuck(*_args: object) -> None:
        entered.set()
        release.wait(60)

    monkeypatch.setattr(web_app.WebService, "position", stuck)
    before = set(threading.enumerate())
    t0 = time.monotonic()
    try:
        rep = fuzz_service("service", 300, seed=5, hang_seconds=0.2)
        assert time.monotonic() - t0 < 30
        assert entered.is_set()
        # the stuck request is the last input (a slow answer over 0.2 s before it, on a loaded
        # machine, is reported too, and is not what this test is about)
        stopped = [h for h in rep.hangs if "the run stops here" in h]
        assert len(stopped) == 1 and rep.hangs[-1] == stopped[0], rep.hangs
        assert "no answer in 2 s" in stopped[0] and "/position" in stopped[0] and rep.inputs < 300
    finally:
        # the planted request ends; the run's client and store close behind it: the run's request
        # thread (``go``) and its closing thread (``close``) end (the thread pool's idle workers may stay)
        release.set()
        deadline = time.monotonic() + 30
        run_threads = [t for t in set(threading.enumerate()) - before if t.name.endswith(("(go)", "(close)"))]
        for t in run_threads:
            t.join(max(0.0, deadline - time.monotonic()))
    assert run_threads and not [t for t in run_threads if t.is_alive()], "the stuck request or the closing never ended"
