"""A tournament manifest reaches the documented limits (issue 29 item 8; docs/tournament.md,
"Limits"): 100,000 tables in TOML and in JSON are read, within 256 MiB, in seconds (the line of
each table is found in one pass: it was quadratic, two minutes for 100,000 tables), and one more
piece than the limit allows is refused naming the file and the line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.core.kernel import limits
from adjudicator.core.kernel.errors import LogError
from adjudicator.core.services import tournament as T

ROUNDS, PER = 1000, 100  # 100,000 tables, the documented limit
PLAYERS = [f"p{i:03d}" for i in range(2 * PER)]


def _toml(rounds: int = ROUNDS) -> str:
    out = ['name = "Huge"', 'game = "kolossus"', ""]
    for p in PLAYERS:
        out += ["[[players]]", f'id = "{p}"']
    for r in range(1, rounds + 1):
        out += ["[[rounds]]", f"round = {r}"]
        for t in range(1, PER + 1):
            out += ["[[rounds.tables]]", f"table = {t}", f'players = ["{PLAYERS[2 * t - 2]}", "{PLAYERS[2 * t - 1]}"]',
                    f'log = "r{r}-t{t}.jsonl"', 'result = "draw"']
    return "\n".join(out) + "\n"


def _json() -> str:
    return json.dumps({"name": "Huge", "game": "kolossus", "players": [{"id": p} for p in PLAYERS],
                       "rounds": [{"round": r, "tables": [{"table": t, "players": PLAYERS[2 * t - 2:2 * t],
                                                          "log": f"r{r}-t{t}.jsonl", "result": "draw"}
                                                         for t in range(1, PER + 1)]} for r in range(1, ROUNDS + 1)]})


PROBE = """
import sys, time
from adjudicator.core.services import tournament as T
t0 = time.process_time()
tour = T.load(sys.argv[1])
hwm = next(int(ln.split()[1]) for ln in open("/proc/self/status") if ln.startswith("VmHWM:"))
print(len(tour.tables), tour.tables[-1].line, round(time.process_time() - t0, 1), hwm // 1024)
"""  # (VmHWM: this process's own peak; ru_maxrss keeps the forking parent's, a test run's hundreds of MiB)


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_a_manifest_of_100000_tables_is_read_within_the_memory_bound(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"manifest.{fmt}"
    path.write_text(_toml() if fmt == "toml" else _json())
    assert path.stat().st_size < limits.MAX_MANIFEST_BYTES
    r = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    tables, last_line, seconds, mib = r.stdout.split()
    assert int(tables) == ROUNDS * PER
    if fmt == "toml":
        assert int(last_line) == _toml().count("\n") - 4  # the last [[rounds.tables]] header's line
    assert int(mib) < 256, f"peak {mib} MiB"
    assert float(seconds) < 60, f"{seconds} s of CPU"


def test_more_pieces_than_a_manifest_may_hold_are_refused_with_the_line(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(T, "MAX_MANIFEST_TOKENS", 5_000)
    path = tmp_path / "manifest.toml"
    path.write_text(_toml(rounds=3))
    with pytest.raises(LogError) as err:
        T.load(path)
    assert "more than 5000 pieces" in str(err.value) and f"{path}:" in str(err.value)
