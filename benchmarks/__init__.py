"""Benchmarks of the adjudicator: ``python -m benchmarks [--quick] [--json] [--games ID,...]``.

For every registered game (or the ones ``--games`` names) the run generates a corpus of random
legal matches (:func:`adjudicator.core.kernel.playout.playout`), writes it as JSON Lines files to a
temporary directory and measures, reading those files back as a user's ``adjudicator verify``
would:

* ``verify_events_per_s``: read bytes, ``parse_log``, ``verify.run``; every match must verify
  legal (a benchmark of broken verification is worthless: an illegal match is an error);
  ``verify_to_chess``: against python-chess reading and validating PGN, passes interleaved in the
  same run (target >= 3x, the long-range goal 5x; :mod:`benchmarks.peer`);
* ``decode_events_per_s``: the msgspec decode-only ceiling on the same files (read bytes, split
  lines, ``game.decoder.decode`` each line), passes interleaved with the verify passes
  (``verify_to_decode``: target >= 10%);
* ``hidden_cost``: what full-information logs pay for the hidden-information hooks the verifier
  consults (target < 5%; :mod:`benchmarks.hidden`);
* ``floor_events_per_s`` / ``floor_share``: the core floor, the same corpus read as verify reads
  it and folded with a null game (kit rules whose handlers do nothing): what the core costs per
  event, and its share of the verify time (the rest is the game's); per event, the core's time
  (``core_us_per_event``), the game's (``game_us_per_event``) and what 3x python-chess allows
  both together (``budget_us_per_event``): how much of the gap to the target is the core's and
  how much the game's (:mod:`benchmarks.floor`);
* ``import_events_per_s``: ``MatchStore.import_log`` into a fresh SQLite store, on a subset, as
  ``adjudicator store import`` imports (a commit does not wait for the disk: the files remain;
  target >= 50k events/s), ``import_full_events_per_s`` as a store holding the only copy
  imports (synchronous=FULL), ``import_verify_share`` the share of the import's time that
  ``verify.run`` alone takes; and again on a throwaway PostgreSQL server
  (``postgres.import_events_per_s``, target >= 25k events/s; :mod:`benchmarks.postgres`);
* ``profile``: cProfile of one verify pass over the first 30 matches, its top five entries by
  ``tottime`` (``file:line:function``) and the shares of the core, the game and the rest
  (:mod:`benchmarks.profile`; ``--profile``: the whole corpus, the top 15 printed);
* ``seek_ms`` / ``rebuild_ms``: on a long generated match imported into SQLite, the position at
  the end through snapshots (``state_at``) versus replayed from the first event
  (``full_rebuild_state``), plus seeks to random events in the second half.

Everything is generated afresh on each run; nothing is cached.  See :mod:`benchmarks.runner` (the
run and the report) and :mod:`benchmarks.corpus` (the corpus and the passes its parts share).
"""

from .runner import BenchmarkError, IllegalMatch, main

__all__ = ["BenchmarkError", "IllegalMatch", "main"]
