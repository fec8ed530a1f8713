"""Peak memory of ``adjudicator verify`` and ``adjudicator store import`` on long generated logs.

Each command runs in a child process and its peak resident set (``VmHWM``, which the child
reports as it exits) is reported beside the log's size, so the figures show whether memory grows with the log.
Targets (issue 9 and 12): both under 1 GiB for a 1,000,000-event log.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.playout import playout

ROOT = Path(__file__).resolve().parent.parent
GIB = 1024 ** 3


def generate(game_id: str, events: int, path: Path) -> int:
    """A generated match of about ``events`` events (a long set-up) written to ``path``."""
    import msgspec

    game = registry.get(game_id)
    enc = msgspec.json.Encoder()
    written = 0
    with open(path, "wb") as f:
        seed = 1
        log, _ = playout(game, seed, max_events=events, long=True)
        for e in log:
            f.write(enc.encode(e) + b"\n")
        written = len(log)
    return written


#: the child reports its own peak: VmHWM (the high-water mark of its own address space), not
#: ru_maxrss, which Linux carries over from the parent across fork and exec (a benchmark run holding
#: its corpora would be measured instead of the command)
_CHILD = ("import atexit, resource, sys\n"
          "def peak():\n"
          "    try:\n"
          "        for line in open('/proc/self/status'):\n"
          "            if line.startswith('VmHWM:'):\n"
          "                return int(line.split()[1])\n"
          "    except OSError:\n"
          "        pass\n"
          "    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
          "atexit.register(lambda: sys.stderr.write('MAXRSS %d\\n' % peak()))\n"
          "from adjudicator.cli.main import main\n"
          "main()\n")


def peak_rss(args: list[str]) -> tuple[int, float, int]:
    """(peak RSS in bytes, seconds, exit code) of the command line ARGS in a child process, which
    reports its own peak (``VmHWM``) as it exits."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, cwd=ROOT, env=env, text=True)
    peak = max((int(x.split()[1]) for x in proc.stderr.splitlines() if x.startswith("MAXRSS ")), default=0)
    return peak * 1024, time.perf_counter() - t0, proc.returncode


def measure(game_id: str, sizes: list[int]) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="adjudicator-mem-") as d:
        for n in sizes:
            path = Path(d) / f"{game_id}-{n}.jsonl"
            got = generate(game_id, n, path)
            v_rss, v_s, v_rc = peak_rss(["verify", str(path)])
            db = Path(d) / f"{n}.db"
            i_rss, i_s, i_rc = peak_rss(["store", "import", "--db", str(db), str(path)])
            rows.append({"game": game_id, "events": got, "bytes": path.stat().st_size,
                         "verify_peak_mib": round(v_rss / 2**20, 1), "verify_s": round(v_s, 1), "verify_exit": v_rc,
                         "import_peak_mib": round(i_rss / 2**20, 1), "import_s": round(i_s, 1), "import_exit": i_rc,
                         "verify_under_1gib": v_rss < GIB, "import_under_1gib": i_rss < GIB})
            path.unlink()
    return rows


def render(rows: list[dict[str, Any]]) -> str:
    out = ["peak memory (child process VmHWM)", "",
           f"{'game':<16}{'events':>10}{'verify MiB':>12}{'s':>7}{'import MiB':>12}{'s':>7}  target < 1 GiB"]
    for r in rows:
        ok = "PASS" if r["verify_under_1gib"] and r["import_under_1gib"] else "MISS"
        out.append(f"{r['game']:<16}{r['events']:>10}{r['verify_peak_mib']:>12}{r['verify_s']:>7}"
                   f"{r['import_peak_mib']:>12}{r['import_s']:>7}  {ok}")
    return "\n".join(out)
