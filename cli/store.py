"""``adjudicator store``: keep verified match logs in the event store, list them, replay them.

Exit codes as everywhere: 0 every log stored (an illegal one too, when --allow-illegal asked for
it), 1 an illegal log refused (not stored), 2 unreadable input, an unknown match or a store that
cannot be opened, 3 an internal error (that log is skipped, the batch goes on).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from contextlib import contextmanager
from typing import Any

import click

from adjudicator.core.kernel import position as positions
from adjudicator.core.kernel.errors import AdjudicatorError, LogError
from adjudicator.core.kernel.log import find_logs
from adjudicator.core.kernel.meta import header_line, parse_filters
from adjudicator.core.kernel.verify import ENGINE_FAILURE
from adjudicator.core.kernel import registry, sources
from adjudicator.core.store import (
    PREPARE_MAX_BYTES, REFUSED, ImportResult, MatchStore, MatchSummary, importing_files, prepare_log,
)

from .common import (
    BUG_REPORT, EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_INTERNAL, EXIT_LEGAL, BadInput, as_option, echo, emit_json, fail, inline,
    internal_error_line, json_option, pools_option, process_pool,
)

db_option = click.option(
    "--db", "db", default=None, metavar="PATH", type=click.Path(dir_okay=False),
    help="SQLite file of the store (default: $ADJUDICATOR_DB, else ./adjudicator.db; "
         "PERSISTENCE_MODULE and the eventsourcing settings select another database).",
)


@contextmanager
def open_store(db: str | None) -> Iterator[MatchStore]:
    """The store, with every domain error turned into a clean exit 2 (never a traceback)."""
    try:
        store = MatchStore(db)
    except AdjudicatorError as exc:
        raise fail(exc) from None
    try:
        yield store
    except AdjudicatorError as exc:
        raise fail(exc) from None
    finally:
        store.close()


@click.group()
def store() -> None:
    """Store verified match logs in the event store; list and replay stored matches."""


# -- import --------------------------------------------------------------------------------------

def _import_doc(res: ImportResult) -> dict[str, Any]:
    return {"match_id": res.match_id, "path": res.path, "verdict": res.verdict, "events": res.events,
            "stored_events": res.stored_events, "status": res.status,
            "violations": [v.as_dict() for v in res.violations]}


def _echo_import(res: ImportResult) -> None:
    tail = " (illegal; --allow-illegal stores it with its verdict)" if res.status == REFUSED else ""
    echo(f"{res.match_id}  {res.path}: {res.verdict}, {res.events} events, {res.status}{tail}")
    for v in res.violations:
        echo(f"  {res.path}:{v.line}: event {v.seq}: {v.rule} [{v.code}] {v.message}")


def _prepare(path: str, allow_illegal: bool, snapshot_every: int, config: tuple[Any, ...] = ()) -> tuple[str, Any]:
    """A worker process's job: ("ok", Prepared), ("unreadable", message), ("data", message) or
    ("error", line).  Its data is resolved as in the parent (``config``); data the worker cannot
    find ("data") may be in the store, which only the parent reads: the parent imports that log."""
    if config:
        with sources.using(sources.for_worker(config)):
            return _prepare(path, allow_illegal, snapshot_every)
    try:
        return "ok", prepare_log(path, allow_illegal, snapshot_every)
    except LogError as exc:
        return ("data" if exc.line == 1 and exc.field in _data_fields() else "unreadable"), exc.render()
    except Exception as exc:  # noqa: BLE001 - this log's verdict; the batch goes on
        return "error", internal_error_line(exc, path)


def _data_fields() -> set[str]:
    """The MatchStarted fields that name or pin data (a pool, a board) in any game."""
    return {name for g in registry.games() for f in getattr(g, "data_fields", ()) for name in (f.field, f.pin)}


def _one(st: MatchStore, f: Path, allow_illegal: bool) -> tuple[str, Any]:
    """This process imports ``f`` itself, streamed (memory: the position and one batch)."""
    try:
        return "stored", st.import_file(f, allow_illegal=allow_illegal)
    except LogError as exc:
        return "unreadable", exc.render()
    except AdjudicatorError:
        raise
    except Exception as exc:  # noqa: BLE001 - this log's verdict; the batch goes on
        return "error", internal_error_line(exc, str(f))


def _imports(st: MatchStore, files: list[Path], allow_illegal: bool, jobs: int) -> Iterator[tuple[Path, str, Any]]:
    """(file, kind, ImportResult or message) for each file, in input order.  With ``jobs`` > 1,
    worker processes verify and encode the logs and this process alone writes (one writer);
    at most two logs per worker are in flight, and a log over PREPARE_MAX_BYTES is imported here,
    streamed, in its turn."""
    if jobs <= 1:
        for f in files:
            yield (f, *_one(st, f, allow_illegal))
        return
    from collections import deque

    def written(f: Path, fut: Any) -> tuple[Path, str, Any]:
        kind, value = fut.result()
        if kind == "data":  # perhaps kept by the store: resolved here, as a serial import would
            return (f, *_one(st, f, allow_illegal))
        if kind != "ok":
            return f, kind, value
        try:
            return f, "stored", st.write_prepared(value)
        except AdjudicatorError:
            raise
        except Exception as exc:  # noqa: BLE001 - this log's verdict; the batch goes on
            return f, "error", internal_error_line(exc, str(f))

    window: deque[tuple[Path, Any]] = deque()
    config = sources.worker_config()
    with process_pool(jobs) as pool:
        for f in files:
            if f.stat().st_size > PREPARE_MAX_BYTES:
                while window:
                    yield written(*window.popleft())
                yield (f, *_one(st, f, allow_illegal))
                continue
            window.append((f, pool.submit(_prepare, str(f), allow_illegal, st.snapshot_every, config)))
            if len(window) >= 2 * jobs:
                yield written(*window.popleft())
        while window:
            yield written(*window.popleft())


@store.command("import")
@pools_option
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--allow-illegal", is_flag=True, help="Store an illegal log too, with its verdict.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes verifying the logs (0: every core); this process alone writes, "
                   "in input order.")
@db_option
@json_option
def import_(paths: tuple[str, ...], allow_illegal: bool, jobs: int, db: str | None, as_json: bool) -> None:
    """Verify match logs (files, or directories searched for *.jsonl) and store them."""
    files = find_logs(list(paths))
    if not files:
        raise BadInput(f"no *.jsonl logs under {', '.join(paths)}")
    jobs = min(jobs or os.cpu_count() or 1, len(files))
    worst = EXIT_LEGAL
    # the logs stay where they are: a commit need not wait for the disk (docs/deploy.md)
    with open_store(db) as st, importing_files():
        for f, kind, res in _imports(st, files, allow_illegal, jobs):
            if kind == "unreadable":
                worst = max(worst, EXIT_BAD_INPUT, key=_SEVERITY.index)
                if as_json:
                    emit_json({"path": str(f), "verdict": "unreadable", "status": "unreadable", "error": res})
                else:
                    echo(f"error: {res}", err=True)
                continue
            if kind == "error":
                worst = EXIT_INTERNAL
                if as_json:
                    emit_json({"path": str(f), "verdict": "error", "status": "error", "error": res})
                else:
                    echo(f"error: {res}", err=True)
                continue
            # an illegal log stored on request (--allow-illegal) is what was asked for: exit 0;
            # an illegal log refused (not stored) exits 1; an engine defect exits 3
            if any(v.rule == ENGINE_FAILURE for v in res.violations):
                worst = EXIT_INTERNAL
                echo(f"error: internal error on {f}: the engine failed ({BUG_REPORT})", err=True)
            elif res.status == REFUSED:
                worst = max(worst, EXIT_ILLEGAL, key=_SEVERITY.index)
            if as_json:
                emit_json(_import_doc(res))
            else:
                _echo_import(res)
    sys.exit(worst)


#: exit codes from the least to the most severe
_SEVERITY = (EXIT_LEGAL, EXIT_ILLEGAL, EXIT_BAD_INPUT, EXIT_INTERNAL)


# -- list ----------------------------------------------------------------------------------------

def _outcome_text(outcome: dict[str, Any] | None) -> str:
    if not outcome:
        return "unfinished"
    if outcome.get("winner"):
        return f"{outcome['winner']} wins by {outcome['reason']}"
    return f"{outcome['result']} ({outcome['reason']})"


def _echo_summary(m: MatchSummary) -> None:
    header = f"  [{inline(header_line(m.meta))}]" if m.meta else ""
    echo(f"{m.match_id}  {m.game}  {','.join(m.players)}  {m.verdict}  {m.events} events  "
         f"{_outcome_text(m.outcome)}  {m.source}{header}")


@store.command("list")
@db_option
@json_option
@click.option("--game", "game", default=None, metavar="GAME", help="Only matches of this game.")
@click.option("--verdict", "verdict", type=click.Choice(["legal", "illegal", "undetermined"]), default=None,
              help="Only matches with this verdict.")
@click.option("--meta", "meta", multiple=True, metavar="KEY=VALUE",
              help="Only matches whose header (MatchStarted.meta) has KEY equal to VALUE (repeatable: all must hold).")
def list_(db: str | None, as_json: bool, game: str | None, verdict: str | None, meta: tuple[str, ...]) -> None:
    """One line per stored match: id, game, players, verdict, events, outcome, source, and the
    match header when it has one."""
    try:
        filters = parse_filters(meta)
    except ValueError as exc:
        raise BadInput(f"--meta: {exc}") from None
    with open_store(db) as st:
        for m in st.matches(game, filters):
            if verdict is not None and m.verdict != verdict:
                continue
            if as_json:
                emit_json(m.as_dict())
            else:
                _echo_summary(m)


# -- show ----------------------------------------------------------------------------------------

@store.command("show")
@pools_option
@click.argument("match_ref", metavar="MATCH")
@click.option("--at", "at", type=click.IntRange(min=1), default=None, metavar="N",
              help="The position after log event N (1 = MatchStarted); default: the end.")
@as_option
@json_option
@db_option
def show(match_ref: str, at: int | None, as_player: str | None, as_json: bool, db: str | None) -> None:
    """The position of a stored MATCH (its id or a unique prefix) after event N.  For a sealed
    log, the hash of its last line (the chain head) follows (`chain_head` with --json)."""
    with open_store(db) as st:
        match_id = st.resolve(match_ref)
        sources.install(st.data_sources(match_id))  # the match's own pool/board, for the rest of the command
        game, state = st.state_at(match_id, at)
        n = at or st.length(match_id)
        head = st.summary(match_id).chain_head
    if state is None:
        raise BadInput(f"match {match_id}: no position (the engine failed on MatchStarted)")
    if as_player is not None and as_player not in game.players(state):
        raise BadInput(f"--as: unknown player {as_player!r} (players: {', '.join(game.players(state))})")
    if as_json:
        doc = positions.document(game, state, player=as_player, at=n)
        doc["match"] = match_id
        if head is not None:
            doc["chain_head"] = head
        emit_json(doc)
    else:
        echo(game.describe(state, as_player))
        if head is not None:  # the log was sealed: its last line's hash, to check a copy against
            echo(f"sealed: the stored log's last line hashes to {head}")


__all__ = ["store", "open_store"]
