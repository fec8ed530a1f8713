"""The per-game profile of one verify pass (part of every ``python -m benchmarks`` run).

cProfile around one pass over (a part of) the corpus, as :func:`benchmarks.corpus.verify_pass`
reads and verifies it.  The report keeps the top entries by ``tottime`` (the time spent in the
function itself), each named ``file:line:function`` with the path shortened to the package
(``core/kernel/verify.py:301:run``), and the share of the time spent in the game-agnostic core
(``adjudicator/core/``) against the game's package and the rest (msgspec, the interpreter).
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
from collections.abc import Callable, Sequence
from typing import Any

#: entries of the profile printed in the normal run
TOP = 5
#: corpus matches profiled in the normal run (cProfile slows a pass several times over)
PROFILE_MATCHES = 30

_ROOT = os.sep + "adjudicator" + os.sep


def short(filename: str, line: int, name: str) -> str:
    """``file:line:function`` with the path cut to the package (``core/kernel/verify.py:301:run``;
    ``games/colossi/rules.py:88:check``), built-ins as cProfile names them (``~:0:<len>``)."""
    i = filename.rfind(_ROOT)
    if i >= 0:
        filename = filename[i + len(_ROOT):]
    elif filename != "~":
        filename = os.path.basename(filename)
    return f"{filename}:{line}:{name}".replace(os.sep, "/")


def area(filename: str) -> str:
    """``core`` (adjudicator/core/), ``game`` (adjudicator/games/) or ``other``."""
    p = filename.replace(os.sep, "/")
    if "/adjudicator/core/" in p:
        return "core"
    if "/adjudicator/games/" in p:
        return "game"
    return "other"


def summarize(stats: pstats.Stats, top: int = TOP) -> dict[str, Any]:
    """The top entries by tottime and the shares of core, game and other in the total."""
    entries = []
    shares = {"core": 0.0, "game": 0.0, "other": 0.0}
    total = 0.0
    for (filename, line, name), (_cc, calls, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        total += tt
        shares[area(filename)] += tt
        entries.append((tt, ct, calls, short(filename, line, name)))
    entries.sort(key=lambda e: (-e[0], e[3]))
    return {
        "total_s": total,
        "top": [{"where": w, "tottime_s": tt, "cumtime_s": ct, "calls": calls} for tt, ct, calls, w in entries[:top]],
        "core_share": shares["core"] / total if total else 0.0,
        "game_share": shares["game"] / total if total else 0.0,
        "other_share": shares["other"] / total if total else 0.0,
    }


def profile(fn: Callable[[], Any], top: int = TOP) -> tuple[dict[str, Any], pstats.Stats]:
    """Run ``fn`` under cProfile: its summary, and the stats for a fuller print."""
    pr = cProfile.Profile()
    pr.enable()
    try:
        fn()
    finally:
        pr.disable()
    stats = pstats.Stats(pr, stream=io.StringIO())
    return summarize(stats, top), stats


def measure(files: Sequence[Any], verify_pass: Callable[[Sequence[Any]], Any], *, full: bool = False,
            say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The profile of one verify pass: over the first :data:`PROFILE_MATCHES` files, or all of
    them with ``full`` (``--profile``, which also prints the top 15 with their callers' totals)."""
    part = list(files) if full else list(files[:PROFILE_MATCHES])
    summary, stats = profile(lambda: verify_pass(part))
    summary["matches"] = len(part)
    if full and say is not None:
        out = io.StringIO()
        stats.stream = out  # type: ignore[attr-defined]
        stats.sort_stats("tottime").print_stats(15)
        say(out.getvalue())
    return summary


def render(p: dict[str, Any]) -> list[str]:
    """The profile's lines of the report."""
    lines = [f"  profile of one verify pass ({p['matches']} matches, {p['total_s']:.2f} s under cProfile): "
             f"core {p['core_share']:.0%}, game {p['game_share']:.0%}, other {p['other_share']:.0%}; "
             f"top {len(p['top'])} by tottime:"]
    for e in p["top"]:
        lines.append(f"    {e['tottime_s']:7.3f} s  (cum {e['cumtime_s']:.3f} s, {e['calls']:,} calls)  {e['where']}")
    return lines
