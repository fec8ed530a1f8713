"""``adjudicator``: verify logs, rule on a proposed event, list legal events, show positions."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import msgspec

from adjudicator.core.kernel import position as positions
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import AdjudicatorError, LogError
from adjudicator.core.kernel.events import JudgeRuling, to_builtins
from adjudicator.core.kernel.meta import header_line
from adjudicator.core.kernel.notation import NotationError
from adjudicator.core.kernel.rulings import CORE_RULES
from adjudicator.core.kernel.log import MatchLog, decode_event, find_logs, read_log
from adjudicator.core.kernel.protocol import Game, RefError
from adjudicator.core.kernel.verify import position_at, propose

from .common import (
    EXIT_ILLEGAL, EXIT_LEGAL, EXIT_SEVERITY, EXIT_UNDETERMINED, BadInput, Main, as_option, at_option, echo, inline,
    emit_json, fail, json_option, pools_option, position_option, position_text_option,
)


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="adjudicator")
def main() -> None:
    """Rules adjudicator for Colossus Order, LOGOS, Kolossus and Colossi match logs.

    Exit codes: 0 legal, 1 illegal, 2 unreadable input or wrong usage, 3 internal error, 4 undetermined (legal only if cards the log leaves unknown are what a condition says).
    """


# -- verify --------------------------------------------------------------------------------------

from .verdicts import (  # noqa: E402  (shared with tournament check)
    MAX_CONDITIONS, _verdicts, exit_code, run_jobs, unfinished, verify_one,
)


class _Summary:
    """Counts per verdict and per rule broken (the first violation of each illegal log), and the
    unfinished logs (legal or undetermined, but stopped before the match ended)."""

    def __init__(self, require_complete: bool = False) -> None:
        self.verdicts: dict[str, int] = {"legal": 0, "undetermined": 0, "illegal": 0, "unreadable": 0, "error": 0}
        self.rules: dict[str, int] = {}
        self.unfinished = 0
        self.require_complete = require_complete
        self.worst = EXIT_LEGAL

    def add(self, doc: dict[str, Any]) -> None:
        v = doc["verdict"]
        self.verdicts[v] = self.verdicts.get(v, 0) + 1
        for viol in doc["violations"][:1]:
            self.rules[viol["rule"]] = self.rules.get(viol["rule"], 0) + 1
        self.unfinished += unfinished(doc)
        self.worst = max(self.worst, exit_code(doc, self.require_complete), key=EXIT_SEVERITY.index)

    def as_dict(self, logs: int) -> dict[str, Any]:
        return {"summary": {"logs": logs, "verdicts": self.verdicts, "unfinished": self.unfinished,
                            "rules": dict(sorted(self.rules.items(), key=lambda kv: (-kv[1], kv[0])))}}

    def text(self, logs: int) -> str:
        c = self.verdicts
        errors = f", {c['error']} internal errors" if c["error"] else ""
        undetermined = f", {c['undetermined']} undetermined" if c["undetermined"] else ""
        line = (f"{logs} logs: {c['legal']} legal{undetermined}, {c['illegal']} illegal, "
                f"{c['unreadable']} unreadable{errors}")
        if self.unfinished:
            line += f"; {self.unfinished} unfinished (no rule broken, but the match never ended)"
        if self.rules:
            line += "\nrules broken (first violation of each illegal log): " + ", ".join(
                f"{r} {n}" for r, n in sorted(self.rules.items(), key=lambda kv: (-kv[1], kv[0])))
        return line


def event_said(v: dict[str, Any]) -> str:
    """``event 12 (ann: reveal Magma Titan)``: a violation's event by number and in the game's
    notation (the set-up's by number only: its line is the header)."""
    said = v.get("event")
    return f"event {v['seq']}" + (f" ({inline(said)})" if said else "")


def _echo_verdict(doc: dict[str, Any]) -> None:
    if doc["verdict"] in ("unreadable", "error"):
        echo(f"{doc['path']}: {doc['verdict']}: {doc['error']}")
        return
    out = doc["outcome"]
    tail = ""
    if out:
        tail = f"; {out['winner']} wins by {out['reason']}" if out["winner"] else f"; {out['result']} ({out['reason']})"
    stopped = doc.get("stopped_at")
    if stopped is not None and doc["verdict"] != "illegal":  # an unfinished match: where it stopped
        echo(f"{doc['path']}: {doc['verdict']}, unfinished ({doc['events']} events, {doc['game']}; "
                   f"{describe_stop(stopped)})")
    else:
        echo(f"{doc['path']}: {doc['verdict']} ({doc['events']} events, {doc['game']}{tail})")
    if doc.get("meta"):
        echo(f"  header: {inline(header_line(doc['meta']))}")
    for v in doc["violations"]:
        echo(f"  {doc['path']}:{v['line']}: {event_said(v)}: {v['rule']} [{v['code']}] {v['message']}")
        if v.get("followers"):
            echo(f"    ({v['followers']} later events not checked: the position still waits for "
                       f"{v['waiting_for']})")
    for d in doc.get("data", []):
        where = "" if d["source"] == "shipped" else f" from {d['source']}"
        echo(f"  checked against {d['kind']} {d['id']!r} sha256 {d['sha256']}{where}")
    for w in doc.get("warnings", []):
        r = w["ruling"]
        echo(f"  warning: {doc['path']}:{w['line']}: event {w['seq']}: {w['rule']} [{w['code']}] {w['message']} "
                   f"({w['decision']} by the judge's ruling at line {r['line']})")
    for r in doc.get("rulings", []):
        echo(f"  ruling: {doc['path']}:{r['line']}: event {r['seq']}: {r['text']}")
    for u in doc.get("unopened", []):
        echo(f"  warning: {doc['path']}:{u['line']}: event {u['seq']}: commitment never opened: {u['what']} "
                   f"({u['commitment'][:19]}...)")
    if doc.get("chain_head"):
        echo(f"  sealed: the hash chain holds; the last line hashes to {doc['chain_head']} (keep it to check that line)")
    for a in doc.get("assumptions", []):
        echo(f"  assuming {a}")
    undetermined = doc.get("undetermined", [])
    for v in undetermined[:20]:
        echo(f"  {doc['path']}:{v['line']}: event {v['seq']}: {v['rule']} [{v['code']}] undetermined: "
                   f"{v['message']}; legal if {v['condition']}")
    more = doc.get("undetermined_events", 0) - min(20, len(undetermined))
    if more > 0:
        echo(f"  ... and {more} more undetermined events (--json lists up to {MAX_CONDITIONS})")
    unchecked = doc.get("not_engine_checked", [])
    if unchecked:  # one line, not one per event: declared effects are the players' word
        lines = ", ".join(str(v["line"]) for v in unchecked[:8]) + (", ..." if len(unchecked) > 8 else "")
        echo(f"  {len(unchecked)} events not engine-checked (declared effects), lines {lines}")


def describe_stop(stopped: dict[str, Any]) -> str:
    """``stopped at event 50, turn 4: bob to act`` (an unfinished match's ``stopped_at``)."""
    who = ", ".join(stopped["to_act"]) or "no one"
    turn = "" if stopped["turn"] is None else f", turn {stopped['turn']}"
    return f"stopped at event {stopped['event']}{turn}: {who} to act"


def _rate_column() -> Any:
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Rate(ProgressColumn):
        """Logs per second so far."""

        def render(self, task: Any) -> Text:
            return Text(f"{task.speed:,.0f} logs/s" if task.speed else "- logs/s")

    return Rate()


def _Rate() -> Any:  # noqa: N802 - reads as a column class in the list of columns
    return _rate_column()


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[], None]]:
    """A progress bar with rate and time left on stderr (rich), or nothing when not wanted."""
    if not enabled:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    columns = (TextColumn("verifying"), BarColumn(), MofNCompleteColumn(),
               TextColumn("[progress.percentage]{task.percentage:>3.0f}%"), _Rate(), TimeElapsedColumn(),
               TextColumn("eta"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("verify", total=total)
        yield lambda: bar.advance(task)


@main.command()
@pools_option
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@json_option
@click.option("--keep-going", is_flag=True, help="Go on after an illegal event: played on where the engine can apply it (as a judge's "
              "'stands' would), else skipped; one wrong event is one violation.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes (0: every core); the output stays in input order.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the logs that are not legal, and the summary.")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on stderr (default: when stderr is a terminal).")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help="Verify on the workers of a Dask distributed cluster (tcp://host:8786) instead of "
                   "local processes; the logs' paths must be readable on the workers.  Same output.")
@click.option("--require-complete", is_flag=True,
              help="An unfinished log (no rule broken, but the match never reached its end) is a "
                   "failure: exit code 5.")
def verify(paths: tuple[str, ...], as_json: bool, keep_going: bool, jobs: int, quiet: bool,
           progress: bool | None, cluster: str | None, require_complete: bool) -> None:
    """Verify match logs (files, or directories searched for *.jsonl): one verdict per log.

    With several logs, a summary follows (counts per verdict and per rule broken; with --json,
    one {"summary": ...} object after the per-log lines).  The exit code is the worst verdict's,
    in the order 0, 4, 5, 1, 2, 3 (5: an unfinished log, with --require-complete).
    """
    files = find_logs(list(paths))
    if not files:
        raise BadInput(f"no *.jsonl logs under {', '.join(paths)}")
    jobs = min(jobs or os.cpu_count() or 1, len(files))
    bar = sys.stderr.isatty() if progress is None else progress
    summary = _Summary(require_complete)
    with _progress(len(files), bar and len(files) > 1) as advance:
        for doc in _verdicts(files, keep_going, jobs, cluster):
            summary.add(doc)
            advance()
            if quiet and doc["verdict"] == "legal" and not (require_complete and unfinished(doc)):
                continue
            if as_json:
                emit_json(doc)
            else:
                _echo_verdict(doc)
    if len(files) > 1:
        if as_json:
            emit_json(summary.as_dict(len(files)))
        else:
            echo(summary.text(len(files)))
    sys.exit(summary.worst)


# -- positions -----------------------------------------------------------------------------------

def load_position(log_path: str | None, position: str | None, at: int | None,
                  position_text: str | None = None) -> tuple[Game, Any, MatchLog | None, int | None]:
    if [log_path, position, position_text].count(None) != 2:
        raise BadInput("give one of a LOG, --position FILE or --position-text LINE")
    try:
        if position is not None or position_text is not None:
            if at is not None:
                raise BadInput("--at goes with a LOG, not with --position")
            game, state = (positions.load(position) if position is not None
                           else positions.from_line(position_text or ""))
            return game, state, None, None
        log = read_log(log_path)
    except AdjudicatorError as exc:
        raise fail(exc) from None
    if at is not None and at > len(log.events):
        raise BadInput(f"{log_path}: --at {at} is past the last event ({len(log.events)})")
    res = position_at(log, at)
    return log.game, res.state, log, at or len(log.events)


def _rule_title(game: Game, rule: str) -> str:
    """The title of a rule id of the game's rulebook or the log format's, else ''."""
    for book in (game.rulebook, CORE_RULES):
        if rule in book:
            return book.title(rule)
    return ""


def _read_event(game: Game, state: Any, event_json: str | None, event_file: str | None) -> Any:
    if (event_json is None) == (event_file is None):
        raise BadInput("give the proposed event with --event JSON or --event-file FILE")
    if event_file is not None:
        try:
            raw = Path(event_file).read_bytes().strip()
        except OSError as exc:
            raise BadInput(f"{event_file}: cannot read ({exc.strerror})") from None
        where = event_file
    else:
        raw = event_json.encode()
        where = "--event"
    try:
        if raw.lstrip()[:1] != b"{":  # the game's notation, read in the position
            try:
                ev = game.notation.parse(raw.decode("utf-8", "replace"), state)
            except NotationError as exc:
                raise BadInput(f"{where}: {exc}") from None
        else:
            ev = decode_event(game, raw, where, None)
        game.validate_refs(game.setup_of(state), ev)
    except LogError as exc:
        raise fail(exc) from None
    except RefError as exc:
        raise BadInput(f"{where}: {exc.field}: {exc.message}") from None
    return ev


def _viewer(game: Game, st: Any, as_player: str | None) -> str | None:
    if as_player is not None and as_player not in game.players(st):
        raise BadInput(f"--as: unknown player {as_player!r} (players: {', '.join(game.players(st))})")
    return as_player


@main.command()
@pools_option
@click.argument("log_path", metavar="LOG", required=False, type=click.Path(dir_okay=False))
@at_option
@position_option
@position_text_option
@click.option("--event", "event_json", default=None, metavar="TEXT",
              help="The proposed event: in the game's notation (``alice: pass``) or as one JSON log line.")
@click.option("--event-file", default=None, type=click.Path(dir_okay=False), help="A file holding the proposed event.")
@as_option
@json_option
def check(log_path: str | None, at: int | None, position: str | None, position_text: str | None,
          event_json: str | None, event_file: str | None, as_player: str | None, as_json: bool) -> None:
    """Rule on one proposed event in the position after event N of LOG (or in --position).

    With --as PLAYER, what follows is shown as PLAYER would see it, and a ruling about what
    PLAYER cannot see says so instead of naming it.
    """
    game, state, log, _n = load_position(log_path, position, at, position_text)
    viewer = _viewer(game, state, as_player)
    ev = _read_event(game, state, event_json, event_file)
    if isinstance(ev, JudgeRuling):  # a judge's ruling is about the log, not one position
        sys.exit(_records.check_ruling(log, at, ev, as_json, viewer))
    ruling, derived, new = propose(game, state, ev)
    message = ruling.message
    if viewer is not None:
        derived = [game.redact(d, viewer, state) for d in derived]
        if game.redact(ev, viewer, state) != ev:
            message = f"(this ruling concerns what {viewer} cannot see)"
    if as_json:
        doc = {"verdict": ruling.verdict, "rule": ruling.rule, "code": ruling.code, "message": message,
               "engine_checked": ruling.engine_checked, "derived": [to_builtins(d) for d in derived]}
        if ruling.condition is not None:
            doc["condition"] = ruling.condition
        emit_json(doc)
    else:
        shown = ev if viewer is None else game.redact(ev, viewer, state)
        echo(f"{ruling.verdict}: {ruling.rule} [{ruling.code}] {message}")
        title = _rule_title(game, ruling.rule)
        if title:
            echo(f"  rule {ruling.rule}: {title}")
        echo(f"  event: {game.notation.format(shown, state)}")
        if ruling.condition is not None:
            echo(f"  legal if {ruling.condition}")
        if not ruling.engine_checked:
            echo("  (not engine-checked: the engine cannot model this effect)")
        if ruling.allowed:
            after = game.apply(state, ev)
            for d in derived:  # (redacted above for a viewer; the position is the judge's)
                echo(f"  then: {game.notation.format(d, after)}")
                after = game.apply(after, d) if viewer is None else after
            out = game.outcome(new)
            who = game.to_act(new)
            echo(f"  the match ends: {out.result} {out.winner or ''} ({out.reason})".replace("  (", " (") if out is not None
                 else f"  next to act: {', '.join(who) if who else 'no one'}")
    sys.exit(EXIT_LEGAL if ruling.legal else EXIT_UNDETERMINED if ruling.allowed else EXIT_ILLEGAL)


_grouped = positions.grouped


@main.command()
@pools_option
@click.argument("log_path", metavar="LOG", required=False, type=click.Path(dir_okay=False))
@at_option
@position_option
@position_text_option
@click.option("--paths", is_flag=True, help="List every path of a move (default: one per destination, with a count).")
@as_option
@json_option
def legal(log_path: str | None, at: int | None, position: str | None, position_text: str | None, paths: bool,
          as_player: str | None, as_json: bool) -> None:
    """Every legal event for whoever may act after event N of LOG (or in --position).

    Moves of one piece to one square by different paths are listed once, with how many paths
    (all of them with --paths).  With --as PLAYER, only events PLAYER could see in full are listed
    (random outcomes of cards hidden from PLAYER are counted, not named).
    """
    game, state, _log, _n = load_position(log_path, position, at, position_text)
    viewer = _viewer(game, state, as_player)
    events = game.legal_events(state)
    to_act = game.to_act(state)
    events, hidden = positions.seen_legal(game, state, events, viewer)
    groups = [(e, 1) for e in events] if paths else _grouped(game, events)
    if as_json:
        doc: dict[str, Any] = {"to_act": to_act, "events": [to_builtins(e) for e in events]}
        if not paths:
            doc["grouped"] = [{"event": to_builtins(e), "alternatives": n} for e, n in groups]
        if viewer is not None:
            doc["hidden"] = hidden
        emit_json(doc)
        return
    out = game.outcome(state)
    if out is not None:
        echo(f"the match is over: {out.result} {out.winner or ''} ({out.reason})".replace("  ", " "))
        return
    shown = f"; {len(groups)} shown, one per destination (--paths lists all)" if len(groups) < len(events) else ""
    echo(f"to act: {', '.join(to_act)}; {len(events)} legal events{shown}")
    for e, n in groups:
        more = f"   (+{n - 1} other paths to the same square)" if n > 1 else ""
        echo("  " + game.notation.format(e, state) + more)
    if hidden:
        echo(f"  (and {hidden} events {viewer} cannot see: outcomes that would name hidden cards)")


@main.command()
@pools_option
@click.argument("log_path", metavar="LOG", required=False, type=click.Path(dir_okay=False))
@at_option
@position_option
@position_text_option
@as_option
@json_option
@click.option("--text", "as_text", is_flag=True,
              help="The position in one line, in the game's notation (what --position-text reads back).")
def state(log_path: str | None, at: int | None, position: str | None, position_text: str | None,
          as_player: str | None, as_json: bool, as_text: bool) -> None:
    """The position after event N of LOG; --as PLAYER hides what PLAYER cannot see."""
    game, st, _log, n = load_position(log_path, position, at, position_text)
    if as_player is not None and as_player not in game.players(st):
        raise BadInput(f"--as: unknown player {as_player!r} (players: {', '.join(game.players(st))})")
    if as_text:
        try:
            echo(game.notation.format_position(st, as_player))
        except NotationError as exc:
            raise BadInput(f"--text: {exc}") from None
    elif as_json:
        emit_json(positions.document(game, st, player=as_player, at=n))
    else:
        echo(game.describe(st, as_player))


@main.command()
@click.argument("game_id", metavar="GAME")
@click.option("--pool", "pool", is_flag=True, help="The JSON Schema of a card-pool file of GAME instead.")
def schema(game_id: str, pool: bool) -> None:
    """Print the JSON Schema of one log line of GAME (--pool: of a card-pool file)."""
    try:
        game = registry.get(game_id)
    except AdjudicatorError as exc:
        raise fail(exc) from None
    if not pool:
        emit_json(game.schema())
        return
    from adjudicator.core.services.pools import pool_loader

    loader = pool_loader(game)
    if loader is None:
        raise BadInput(f"--pool: {game.id} has no card pools")
    emit_json(msgspec.json.schema(loader.file_type))


from . import games as _games  # noqa: E402  (adjudicator games: the registered games and their plugins)

main.add_command(_games.games)

from . import store as _store  # noqa: E402  (the event store commands)

main.add_command(_store.store)

from . import replay as _replay  # noqa: E402  (the terminal replay viewer)

main.add_command(_replay.replay)

from . import serve as _serve  # noqa: E402  (the replay service)

main.add_command(_serve.serve)

from . import records as _records  # noqa: E402  (seal and redact: new records made from a log)

main.add_command(_records.seal)
main.add_command(_records.redact)
main.add_command(_records.reconcile)

from . import pool as _pool  # noqa: E402  (card-pool files: check, show)

main.add_command(_pool.pool)

from . import record as _record  # noqa: E402  (recording a match as it is played)

main.add_command(_record.record)

from . import tournament as _tournament  # noqa: E402  (a whole event: tournament check)

main.add_command(_tournament.tournament)

from . import export as _export  # noqa: E402  (a self-contained replay file)

main.add_command(_export.export)

from . import convert as _convert  # noqa: E402  (adjudicator convert: JSON Lines <-> the text form)

main.add_command(_convert.convert)
