"""Verify against decode and against the peer, side by side in one process: each pass decodes the
corpus (msgspec only), verifies it, and reads the python-chess corpus, interleaved so that noise
hits all three alike (``python -m benchmarks``; ``benchmarks.compiled`` runs the same in a copy)."""

from __future__ import annotations

import gc
import statistics
from collections.abc import Sequence
from typing import Any

from adjudicator.core.kernel.protocol import Game

from .corpus import BenchmarkError, CorpusFile, Pass, decode_pass, say, verify_pass

_PEER_PGN: list[str] = []


def peer_corpus() -> str | None:
    """The python-chess corpus (generated once per run), or None without the ``chess`` package."""
    from . import peer

    if not peer.available():
        return None
    if not _PEER_PGN:
        say("  [python-chess] generating 300 random games (the peer: chess.pgn.read_game)")
        _PEER_PGN.append(peer.corpus())
    return _PEER_PGN[0]


def measure_verify_decode(game: Game, files: Sequence[CorpusFile], passes: int) -> dict[str, Any]:
    from . import peer

    say(f"  [{game.id}] warm-up: verifying {len(files)} matches (legality and outcome checks)")
    warm = verify_pass(files, thorough=True)
    decode_pass(game, files)
    pgn = peer_corpus()
    decodes: list[Pass] = []
    verifies: list[Pass] = []
    chess_runs: list[float] = []
    for i in range(passes):
        gc.collect()
        decodes.append(decode_pass(game, files))
        gc.collect()
        verifies.append(verify_pass(files))
        if pgn is not None:  # interleaved, so that noise hits both alike
            gc.collect()
            chess_runs.append(peer.read_pass(pgn).rate)
        say(f"  [{game.id}] pass {i + 1}/{passes}: verify {verifies[-1].rate:,.0f} events/s, "
            f"decode {decodes[-1].rate:,.0f} events/s"
            + (f", python-chess {chess_runs[-1]:,.0f} moves/s" if chess_runs else ""))
    if any(p.events != warm.events for p in decodes + verifies):
        raise BenchmarkError(f"{game.id}: passes disagree on the number of events")
    v = statistics.median(p.rate for p in verifies)
    d = statistics.median(p.rate for p in decodes)
    parse_share = statistics.median(p.parse_seconds / p.seconds for p in verifies)
    chess = statistics.median(chess_runs) if chess_runs else None
    return {
        "events": warm.events,
        "verify_events_per_s": v,
        "decode_events_per_s": d,
        "verify_to_decode": v / d,
        "chess_moves_per_s": chess,
        "verify_to_chess": None if chess is None else v / chess,
        "verify_parse_share": parse_share,
        "verify_runs_events_per_s": [p.rate for p in verifies],
        "decode_runs_events_per_s": [p.rate for p in decodes],
    }
