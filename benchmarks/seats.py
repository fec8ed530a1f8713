"""Records kept at one seat against the full log (issue 19 item 14, issue 20): the same corpus
matches verified as the full log and as the first seat's record (``redact --as``, every hidden
card of the other seats unknown), interleaved passes, the time per event of each.

The figure: how many times the full log's time per event a seat's record takes (a game that
hides nothing gives about 1).  A seat's record that verifies ``illegal`` is an error: redact of a
legal match must never give one."""

from __future__ import annotations

import gc
import os
import statistics
import time
from time import perf_counter as perf
from typing import Any, Callable, Sequence

import msgspec

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import run

#: corpus matches whose seat records are verified (the first ones)
SEAT_MATCHES = 30


def _verify(paths: Sequence[str]) -> tuple[int, float, dict[str, int]]:
    events = 0
    verdicts: dict[str, int] = {}
    t0 = perf()
    for path in paths:
        with open(path, "rb") as f:
            log = parse_log(f.read(), path)
        res = run(log)
        events += len(log.events)
        verdicts[res.verdict] = verdicts.get(res.verdict, 0) + 1
    return events, perf() - t0, verdicts


def measure(game: Game, paths: Sequence[str], directory: str, passes: int, say: Callable[[str], None],
            error: Callable[[str, str], Exception]) -> dict[str, Any]:
    """Seat records of the first :data:`SEAT_MATCHES` of ``paths``, verified beside their full logs."""
    full = list(paths[:SEAT_MATCHES])
    seats = []
    enc = msgspec.json.Encoder()
    for path in full:
        with open(path, "rb") as f:
            log = parse_log(f.read(), path)
        seat = log.events[0][1].players[0]  # type: ignore[attr-defined] (every set-up names its players)
        out = os.path.join(directory, "seat-" + os.path.basename(path))
        with open(out, "wb") as f:
            f.write(b"".join(enc.encode(e) + b"\n" for e in redact_log(log, seat)))
        seats.append(out)
    _events, _s, verdicts = _verify(seats)  # warm-up, and no seat's record of a legal match is illegal
    if verdicts.get("illegal"):
        bad = next(p for p in seats if run(parse_log(open(p, "rb").read(), p)).verdict == "illegal")
        raise error(bad, "a seat's record of a legal match verifies illegal")
    full_rates, seat_rates = [], []
    for i in range(passes):
        gc.collect()
        n, s, _v = _verify(full)
        full_rates.append(n / s)
        gc.collect()
        n, s, _v = _verify(seats)
        seat_rates.append(n / s)
        say(f"  [{game.id}] seat records, pass {i + 1}/{passes}: full logs {full_rates[-1]:,.0f} events/s, "
            f"seat records {seat_rates[-1]:,.0f} events/s")
    f, s = statistics.median(full_rates), statistics.median(seat_rates)
    return {"seat_matches": len(seats), "seat_full_events_per_s": f, "seat_events_per_s": s,
            "seat_to_full_time": f / s, "seat_verdicts": verdicts}


#: the log lengths of the seat-record scaling row (issue 29: LOGOS records were quadratic), and
#: its target: a seat's record at most this many times the full log's time per event at each
SEAT_LENGTHS = (4_000, 32_000, 128_000)
SEAT_LENGTHS_QUICK = (4_000, 32_000)
SEAT_TO_FULL_MAX = 3.0


def _cpu_best(data: bytes, passes: int) -> float:
    best = float("inf")
    for _ in range(passes):
        gc.collect()
        t0 = time.process_time()
        run(parse_log(data, "<bench>"))
        best = min(best, time.process_time() - t0)
    return best


def scaling(game: Game, lengths: Sequence[int], say: Callable[[str], None], passes: int = 2) -> list[dict[str, Any]]:
    """One long generated match (``sample_setup(long=True)``, seed 1) cut at each length, verified
    as the full log and as its first seat's record (``redact --as``), best CPU time of ``passes``;
    the figure is the record's time per event over the full log's (linear: it stays flat)."""
    if not hides(game):
        return []
    from adjudicator.core.kernel.playout import playout, to_jsonl

    events, _ = playout(game, 1, max_events=max(lengths), long=True)
    rows = []
    enc = msgspec.json.Encoder()
    for n in lengths:
        if n > len(events):
            break
        full = to_jsonl(events[:n])
        seat = events[0].players[0]  # type: ignore[attr-defined]
        rec = b"".join(enc.encode(e) + b"\n" for e in redact_log(parse_log(full, "<full>"), seat))
        try:
            tf, tr = _cpu_best(full, passes), _cpu_best(rec, passes)
        except AdjudicatorError as exc:  # (Colossus Order's long set-up: decks beyond a record's bounds)
            say(f"  [{game.id}] seat record at {n:,} events not measured: {exc}")
            break
        rows.append({"events": n, "full_s": tf, "seat_s": tr, "ratio": tr / tf if tf else float("inf"),
                     "pass": tr / tf <= SEAT_TO_FULL_MAX if tf else False})
        say(f"  [{game.id}] seat record at {n:,} events: {tr / tf:.2f}x the full log's time ({tr:.2f} s / {tf:.2f} s)")
    return rows


def hides(game: Game) -> bool:
    """Does a seat's record of this game differ from the full log (some event redacted)?"""
    from adjudicator.core.kernel.playout import playout

    events, _ = playout(game, 0, max_events=200)
    players = list(events[0].players)  # type: ignore[attr-defined]
    return any(game.redact(e, p) != e for e in events for p in players)


def render_scaling(rows: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    return [(f"  seat record / full log at {r['events']:,} events", f"{r['ratio']:.2f}x per event",
             f"<= {SEAT_TO_FULL_MAX:.0f}x", "PASS" if r["pass"] else "MISS") for r in rows]
