"""How cost grows: events/s against the length of a log and the size of a corpus, and ``verify
--jobs 1`` against ``--jobs 2`` (part of every ``python -m benchmarks`` run, per game).

* **Log length**: one generated match of each length (1k, 10k, 100k and 1M events; ``--quick``
  1k and 10k; ``--lengths`` for others), verified as ``adjudicator verify`` does (streamed), and
  the peak memory of ``adjudicator verify`` on the longest (a child process's ``VmHWM``).
  A game whose generated long matches end sooner (``sample_setup(long=True)``) gets its longest
  of three seeds, with its real length in the table.  Cost is linear
  when the rate stays flat; the ratio of the longest log's rate to the shortest's is printed.
* **Corpus size**: the first 10, 100, ... logs of the run's corpus, verified in this process.
* **Jobs**: the whole corpus verified the way ``adjudicator verify --jobs N`` does it (the
  command's own worker pool, output in input order), with 1 and with 2 workers; the target is a
  speedup of at least 1.8 on a 1,000-log corpus (the default corpus size).
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adjudicator.cli.main import _verdicts, verify_one
from adjudicator.core.kernel.protocol import Game

from .corpus import BenchmarkError, IllegalMatch, generate_long, verify_pass
from .memory import peak_rss

perf = time.perf_counter

#: the speedup of --jobs 2 over --jobs 1 the issue asks for
JOBS_SPEEDUP_MIN = 1.8
#: the longest log's rate must stay within this share of the shortest's (linear cost)
LINEAR_MIN = 0.5


def _verify_file(path: str) -> tuple[int, float]:
    gc.collect()
    t0 = perf()
    doc = verify_one(Path(path), False)
    dt = perf() - t0
    if doc["verdict"] != "legal":
        raise IllegalMatch(path, f"{doc['verdict']}: {doc.get('error') or doc['violations'][:1]}")
    return doc["events"], dt


def by_length(game: Game, directory: str, lengths: Sequence[int], say: Any) -> list[dict[str, Any]]:
    rows = []
    for n in lengths:
        if rows and rows[-1]["events"] < n // 10:  # the game's long matches end sooner: no longer log to make
            break
        path, events = generate_long(game, directory, n, first_seed=1000, at_least=0.8, tries=3)
        runs = [_verify_file(path) for _ in range(3 if n <= 100_000 else 1)]
        rate = statistics.median(e / dt for e, dt in runs)
        row: dict[str, Any] = {"events": events, "events_per_s": rate}
        if n == max(lengths) or events < n:  # the longest log: `adjudicator verify`'s peak memory, in a child process
            rss, _s, code = peak_rss(["verify", path])
            row["verify_peak_mib"] = round(rss / 2**20, 1) if code == 0 else None
        say(f"  [{game.id}] a log of {events:,} events: verify {rate:,.0f} events/s"
            + (f", peak {row['verify_peak_mib']} MiB" if "verify_peak_mib" in row else ""))
        rows.append(row)
        os.remove(path)
    return rows


def by_corpus(game: Game, files: Sequence[Any], say: Any) -> list[dict[str, Any]]:
    rows = []
    k = 10
    while k <= len(files):
        gc.collect()
        p = verify_pass(files[:k])
        say(f"  [{game.id}] a corpus of {k:,} logs: verify {p.rate:,.0f} events/s")
        rows.append({"logs": k, "events": p.events, "events_per_s": p.rate})
        k *= 10
    return rows


def by_jobs(game: Game, files: Sequence[Any], say: Any) -> dict[str, Any]:
    paths = [Path(f.path) for f in files]
    out: dict[str, Any] = {"logs": len(paths), "cpus": os.cpu_count()}
    for jobs in (1, 2):
        gc.collect()
        t0 = perf()
        docs = list(_verdicts(paths, False, jobs))
        out[f"jobs_{jobs}_s"] = perf() - t0
        bad = [d for d in docs if d["verdict"] != "legal"]
        if bad:
            raise IllegalMatch(bad[0]["path"], f"--jobs {jobs}: {bad[0]['verdict']}")
    out["speedup"] = out["jobs_1_s"] / out["jobs_2_s"]
    say(f"  [{game.id}] --jobs 1: {out['jobs_1_s']:.2f} s, --jobs 2: {out['jobs_2_s']:.2f} s "
        f"({out['speedup']:.2f}x) on {len(paths):,} logs")
    return out


def import_by_jobs(game: Game, files: Sequence[Any], directory: str, say: Any) -> dict[str, Any]:
    """``store import --jobs 1`` against ``--jobs 2`` (workers verify and encode, one writer)
    on the import subset, each into a fresh SQLite store."""
    from adjudicator.cli.store import _imports
    from adjudicator.core.store import MatchStore

    paths = [Path(f.path) for f in files]
    out: dict[str, Any] = {"logs": len(paths)}
    for jobs in (1, 2):
        with MatchStore(os.path.join(directory, f"import-jobs-{jobs}.db")) as st:
            gc.collect()
            t0 = perf()
            done = [r for _f, kind, r in _imports(st, paths, False, jobs) if kind == "stored" and r.created]
            out[f"jobs_{jobs}_s"] = perf() - t0
        if len(done) != len(paths):
            raise BenchmarkError(f"{game.id}: store import --jobs {jobs} stored {len(done)} of {len(paths)} logs")
    out["events"] = sum(f.events for f in files)
    out["speedup"] = out["jobs_1_s"] / out["jobs_2_s"]
    say(f"  [{game.id}] store import --jobs 1: {out['jobs_1_s']:.2f} s, --jobs 2: {out['jobs_2_s']:.2f} s "
        f"({out['speedup']:.2f}x) on {len(paths):,} logs")
    return out


def measure(game: Game, files: Sequence[Any], directory: str, lengths: Sequence[int], say: Any,
            import_files: Sequence[Any] = ()) -> dict[str, Any]:
    lengths_rows = by_length(game, directory, lengths, say)
    first, last = lengths_rows[0]["events_per_s"], lengths_rows[-1]["events_per_s"]
    return {
        "by_length": lengths_rows,
        "length_linearity": last / first,
        "by_corpus": by_corpus(game, files, say),
        "jobs": by_jobs(game, files, say),
        "import_jobs": import_by_jobs(game, import_files or files, directory, say),
    }


def render(r: dict[str, Any]) -> list[str]:
    """The scaling rows of one game's table."""
    s = r["scaling"]
    lengths = ", ".join(f"{x['events']:,}: {x['events_per_s']:,.0f}" for x in s["by_length"])
    longest = s["by_length"][-1]
    corpus = ", ".join(f"{x['logs']:,}: {x['events_per_s']:,.0f}" for x in s["by_corpus"])
    j = s["jobs"]
    linear = s["length_linearity"] >= LINEAR_MIN
    fast = j["speedup"] >= JOBS_SPEEDUP_MIN
    return [
        f"  events/s by log length ({lengths}); longest/shortest {s['length_linearity']:.2f} "
        f"(target >= {LINEAR_MIN}: {'PASS' if linear else 'MISS'})",
        f"  verify of the {longest['events']:,}-event log: peak memory {longest.get('verify_peak_mib')} MiB "
        f"(child process; target < 64 MiB for 1,000,000 events)",
        f"  events/s by corpus size in logs ({corpus})",
        f"  verify --jobs 1: {j['jobs_1_s']:.2f} s, --jobs 2: {j['jobs_2_s']:.2f} s on {j['logs']:,} logs "
        f"({j['cpus']} CPUs): {j['speedup']:.2f}x (target >= {JOBS_SPEEDUP_MIN}x on 1,000 logs: "
        f"{'PASS' if fast else 'MISS'})",
        f"  store import --jobs 1: {s['import_jobs']['jobs_1_s']:.2f} s, --jobs 2: {s['import_jobs']['jobs_2_s']:.2f} s "
        f"on {s['import_jobs']['logs']:,} logs: {s['import_jobs']['speedup']:.2f}x "
        f"({s['import_jobs']['events'] / s['import_jobs']['jobs_2_s']:,.0f} events/s on 2 workers)",
    ]
