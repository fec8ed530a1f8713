"""The corpus of a benchmark run and the passes over it: generated matches written as JSON Lines
files, the verify and decode passes, the long match (see :mod:`benchmarks.runner`).

Shared by the run (:mod:`benchmarks.runner`) and its parts (:mod:`benchmarks.scaling`,
:mod:`benchmarks.tournament`, :mod:`benchmarks.profile`), which import it and never the runner.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.verify import run

perf = time.perf_counter

#: events a corpus match may reach (a match still running then is a valid log, in progress)
CORPUS_MAX_EVENTS = 5000
#: seeds tried for the long match before giving up
LONG_SEED_TRIES = 40


class BenchmarkError(AdjudicatorError):
    """The benchmark cannot produce honest figures (exit 1)."""


class IllegalMatch(BenchmarkError):
    """A generated match did not verify legal: verification (or generation) is broken."""

    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(f"{path}: a generated match does not verify legal: {detail}")


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- the corpus --------------------------------------------------------------------------------

@dataclass(frozen=True)
class CorpusFile:
    path: str
    seed: int
    #: log events (lines) in the file
    events: int
    #: the outcome the generator reached (``msgspec.to_builtins``), None while in progress
    outcome: Any


def _outcome(game: Game, state: Any) -> Any:
    out = game.outcome(state) if state is not None else None
    return None if out is None else msgspec.to_builtins(out)


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def generate_corpus(game: Game, directory: str, matches: int, *, max_events: int = CORPUS_MAX_EVENTS,
                    first_seed: int = 0, report: Callable[[str], None] = say) -> list[CorpusFile]:
    """``matches`` random legal matches of ``game`` (seeds ``first_seed``...), one file each."""
    files: list[CorpusFile] = []
    step = max(1, matches // 10)
    for i in range(matches):
        seed = first_seed + i
        log, state = playout(game, seed, max_events=max_events)
        path = os.path.join(directory, f"{game.id}-{seed:06d}.jsonl")
        with open(path, "wb") as f:
            f.write(to_jsonl(log))
        files.append(CorpusFile(path, seed, len(log), _outcome(game, state)))
        if (i + 1) % step == 0 or i + 1 == matches:
            report(f"  [{game.id}] generated {i + 1}/{matches} matches")
    return files


# -- verify and decode passes ------------------------------------------------------------------

@dataclass(frozen=True)
class Pass:
    events: int
    seconds: float
    #: of which reading and ``parse_log`` (the rest is ``verify.run``); verify passes only
    parse_seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.events / self.seconds


def _violation_text(res: Any) -> str:
    v = res.violations[0]
    return f"event {v.seq} (line {v.line}): {v.rule} [{v.code}] {v.message}"


def verify_pass(files: Sequence[CorpusFile], *, thorough: bool = False) -> Pass:
    """Read, parse and verify every file, as ``adjudicator verify`` does (minus printing).

    Raises :class:`IllegalMatch` for a match that does not verify legal; ``thorough`` also
    checks that the whole log was read and that the verified outcome is the generator's.
    """
    events = 0
    parse_s = 0.0
    t0 = perf()
    for f in files:
        ta = perf()
        log = parse_log(_read(f.path), f.path)
        tb = perf()
        res = run(log)
        parse_s += tb - ta
        if res.violations:
            raise IllegalMatch(f.path, _violation_text(res))
        events += len(log.events)
        if thorough:
            if len(log.events) != f.events or res.events != f.events:
                raise IllegalMatch(f.path, f"{f.events} events generated, {len(log.events)} read, "
                                           f"{res.events} verified")
            got = _outcome(log.game, res.state)
            if got != f.outcome:
                raise IllegalMatch(f.path, f"the generator ended with outcome {f.outcome}, the verifier with {got}")
    return Pass(events, perf() - t0, parse_s)


def decode_pass(game: Game, files: Sequence[CorpusFile]) -> Pass:
    """The msgspec ceiling: read bytes, split lines, decode each with the game's decoder."""
    decode = game.decoder.decode
    events = 0
    t0 = perf()
    for f in files:
        lines = _read(f.path).splitlines()
        for line in lines:
            decode(line)
        events += len(lines)
    return Pass(events, perf() - t0)


# -- the long match --------------------------------------------------------------------------

def generate_long(game: Game, directory: str, long_events: int, *, first_seed: int = 0,
                  at_least: float = 1.0, tries: int = LONG_SEED_TRIES) -> tuple[str, int]:
    """A match of exactly ``long_events`` log events (successive seeds; truncated: in progress),
    or a whole match that ended after ``at_least`` of them.  With ``at_least`` below 1 (the
    scaling table), after ``tries`` seeds the longest match made is taken, however long."""
    best: list[Any] = []
    for seed in range(first_seed, first_seed + tries):
        t0 = perf()
        log, _state = playout(game, seed, max_events=long_events, long=True)
        say(f"  [{game.id}] long match, seed {seed}: {len(log):,} events in {perf() - t0:.1f} s")
        if len(log) > len(best):
            best = log
        if len(log) >= long_events * at_least:
            break
    if len(best) >= long_events or at_least < 1:
        path = os.path.join(directory, f"{game.id}-long-{first_seed}-{len(best)}.jsonl")
        with open(path, "wb") as f:
            f.write(to_jsonl(best[:long_events]))
        return path, min(len(best), long_events)
    raise BenchmarkError(f"{game.id}: no playout reached {long_events} events in {tries} seeds "
                         f"(sample_setup(long=True) should make long matches)")
