"""One log's verdict document and the fan-out of many logs over worker processes or a Dask
cluster: what ``adjudicator verify`` and ``adjudicator tournament check`` share (neither imports
the other)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from adjudicator.core.kernel import sources
from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.log import stream_log
from adjudicator.core.kernel.meta import meta_of
from adjudicator.core.kernel.verify import ENGINE_FAILURE, ruling_dict, run

from .common import (
    BUG_REPORT, EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_INTERNAL, EXIT_LEGAL, EXIT_UNDETERMINED, EXIT_UNFINISHED,
    internal_error_line, process_pool,
)


def _outcome_dict(res: Any) -> dict[str, Any] | None:
    out = res.outcome  # a judge's result ruling, else the position's own
    return None if out is None else {"result": out.result, "winner": out.winner, "reason": out.reason}


def verify_one(path: Path, keep_going: bool) -> dict[str, Any]:
    """One log's verdict; a crash on this log is this log's verdict (``error``), never the batch's."""
    try:
        return _verify_one(path, keep_going)
    except Exception as exc:  # noqa: BLE001 - reported as this log's verdict, exit code 3
        return {"path": str(path), "game": None, "verdict": "error", "events": 0, "violations": [],
                "outcome": None, "complete": False, "error": internal_error_line(exc, str(path))}


def _verify_one(path: Path, keep_going: bool) -> dict[str, Any]:
    log = None
    try:  # streamed: memory bounded by the position and one line, not by the log
        log = stream_log(path)
        data = [r.as_dict() for r in log.game.data_used(log.events[0][1])]
        meta = meta_of(log.events[0][1])  # (now: a streamed log is read front to back)
        res = run(log, keep_going=keep_going, play_on=keep_going)
        log.events.drain()  # type: ignore[attr-defined]
    except LogError as exc:
        return {"path": str(path), "game": None, "verdict": "unreadable", "events": 0, "violations": [],
                "outcome": None, "complete": False, "error": exc.render()}
    finally:
        if log is not None:
            log.events.close()  # type: ignore[attr-defined]
    doc = {
        "path": str(path),
        "game": log.game.id,
        "verdict": res.verdict,
        "events": len(log.events),
        "violations": [v.as_dict() for v in res.violations],
        "outcome": _outcome_dict(res),
        "complete": res.complete,
    }
    stopped = res.stopped_at()
    if stopped is not None:  # an unfinished match: where it stopped
        doc["stopped_at"] = stopped
    if data:  # which content the match was checked against (id and sha256): reproducible
        doc["data"] = data
    if meta:  # the match header (docs/log-format.md, "The match header"): shown, never judged
        doc["meta"] = meta
    if res.warnings or res.rulings:  # judges' rulings (docs/log-format.md, "Judges' rulings")
        doc["warnings"] = [w.as_dict() for w in res.warnings]
        doc["rulings"] = [ruling_dict(seq, line, r) for seq, line, r in res.rulings]
    if res.unchecked:
        doc["not_engine_checked"] = [v.as_dict() for v in res.unchecked]
    if res.unopened:  # commitments never opened (docs/log-format.md, "Commitments"): warnings
        doc["unopened"] = [u.as_dict() for u in res.unopened]
    if res.assumptions:  # what a seat's record is verified under (Game.assumptions)
        doc["assumptions"] = list(res.assumptions)
    if res.undetermined:
        doc["undetermined"] = [v.as_dict() for v in res.undetermined[:MAX_CONDITIONS]]
        doc["undetermined_events"] = len(res.undetermined)
    head = log.events.chain_head  # type: ignore[attr-defined]
    if head is not None:
        doc["chain_head"] = head
    failed = next((v for v in res.violations if v.rule == ENGINE_FAILURE), None)
    if failed is not None:  # an engine defect is not a verdict on the log: exit code 3
        doc["verdict"] = "error"
        doc["error"] = (f"internal error on {path}:{failed.line}: {failed.message} "
                        f"({BUG_REPORT})")
    return doc


#: at most this many undetermined events are listed per log (their count is always given)
MAX_CONDITIONS = 1000


def _verify_path(path: str, keep_going: bool, config: tuple[Any, ...] = ()) -> dict[str, Any]:
    """One log's verdict document (a worker process's job), its data resolved as in the parent
    (``config``: :func:`adjudicator.core.kernel.sources.worker_config`)."""
    if config:
        with sources.using(sources.for_worker(config)):
            return verify_one(Path(path), keep_going)
    return verify_one(Path(path), keep_going)


def _verdicts(files: list[Path], keep_going: bool, jobs: int, cluster: str | None = None) -> Iterator[dict[str, Any]]:
    """Every log's verdict, in input order, from ``jobs`` worker processes (1: this process) or
    from the workers of a Dask cluster."""
    return run_jobs([str(f) for f in files], keep_going, jobs, cluster, _verify_path)


def run_jobs(items: list[str], keep_going: bool, jobs: int, cluster: str | None,
             worker: Callable[..., dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """``worker(item, keep_going, config)`` for every item, in input order, on ``jobs`` worker
    processes (1: this process) or on a Dask cluster's workers (``config``: where data ids are
    found, :func:`adjudicator.core.kernel.sources.worker_config`)."""
    if cluster is not None:
        from .cluster import cluster_verdicts

        yield from cluster_verdicts(cluster, items, keep_going, worker, sources.worker_config())
        return
    if jobs <= 1:
        for item in items:
            yield worker(item, keep_going)
        return
    chunk = max(1, min(32, len(items) // (jobs * 8)))
    with process_pool(jobs) as pool:
        config = sources.worker_config()
        yield from pool.map(worker, items, [keep_going] * len(items), [config] * len(items), chunksize=chunk)


def unfinished(doc: dict[str, Any]) -> bool:
    """A log that breaks no rule (legal or undetermined) but stops before the match ended."""
    return doc["verdict"] in ("legal", "undetermined") and not doc.get("complete", False)


def exit_code(doc: dict[str, Any], require_complete: bool = False) -> int:
    """One verdict document's exit code (``require_complete``: an unfinished log's is 5)."""
    if require_complete and unfinished(doc):
        return EXIT_UNFINISHED
    return {"error": EXIT_INTERNAL, "unreadable": EXIT_BAD_INPUT, "illegal": EXIT_ILLEGAL,
            "undetermined": EXIT_UNDETERMINED}.get(doc["verdict"], EXIT_LEGAL)
