"""The time to check a whole tournament (``adjudicator tournament check``) with ``--jobs 1`` and
``--jobs 2``: a generated Colossus Order event of about N matches (tests/tournament_gen.py: ten
rounds, seat records at every fifth table, nothing planted), checked twice in this process through
the same function the command runs."""

from __future__ import annotations

import math
import os
from time import perf_counter as perf
from typing import Any, Callable

from .corpus import BenchmarkError

#: rounds of the generated event (the matches are spread over them)
ROUNDS = 10


def measure(matches: int, workdir: str, say: Callable[[str], None]) -> dict[str, Any]:
    from adjudicator.cli.tournament import check_tournament
    from tests.tournament_gen import generate

    rounds = min(ROUNDS, matches)
    per_round = math.ceil(matches / rounds)
    directory = os.path.join(workdir, "tournament")
    say(f"[tournament] generating {per_round * rounds} Colossus Order matches ({2 * per_round} players, "
        f"{rounds} rounds) ...")
    t0 = perf()
    gen = generate(directory, "colossus-order", players=2 * per_round, rounds=rounds, plant=(), penalty=False)
    generated = perf() - t0
    out: dict[str, Any] = {"tables": gen.tables, "rounds": rounds, "players": 2 * per_round,
                           "generate_s": generated}
    for jobs in (1, 2):
        t0 = perf()
        report = check_tournament(str(gen.manifest), jobs, None)
        out[f"jobs_{jobs}_s"] = perf() - t0
        if report["summary"]["problems"]:  # a clean event must check clean: else the figure is not honest
            raise BenchmarkError(f"the generated tournament reports {report['summary']['problems']} problems")
        say(f"[tournament] --jobs {jobs}: {out[f'jobs_{jobs}_s']:.1f} s")
    out["events"] = sum(t["events"] or 0 for t in report["tables"])
    out["speedup"] = out["jobs_1_s"] / out["jobs_2_s"]
    out["tables_per_s_jobs_2"] = gen.tables / out["jobs_2_s"]
    return out


def render(r: dict[str, Any]) -> str:
    return (f"tournament check ({r['tables']} matches, {r['events']:,} events, {r['players']} players, "
            f"{r['rounds']} rounds; generated in {r['generate_s']:.0f} s):\n"
            f"  --jobs 1: {r['jobs_1_s']:.1f} s   --jobs 2: {r['jobs_2_s']:.1f} s   "
            f"(x{r['speedup']:.2f}; {r['tables_per_s_jobs_2']:.0f} matches/s)")
