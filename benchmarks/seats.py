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
from time import perf_counter as perf
from typing import Any, Callable, Sequence

import msgspec

from adjudicator.core.log import parse_log
from adjudicator.core.protocol import Game
from adjudicator.core.seats import redact_log
from adjudicator.core.verify import run

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
