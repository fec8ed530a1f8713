"""``adjudicator seal`` and ``adjudicator redact``: new records made from a log.

``seal`` adds the hash chain (``prev`` on every line after MatchStarted: the sha256 of the line
before it as written), so that ``verify`` names the first line edited, inserted or removed
afterwards.  ``redact --as PLAYER`` writes the record that player's seat kept: every event as
``observe.py`` shows it to that seat (what it could not see masked), without the chain (it is a
different record).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click
import msgspec

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.events import JudgeRuling, to_builtins
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.log import MatchLog, read_log, seal_lines
from adjudicator.core.kernel.textlog import is_text, read_text
from adjudicator.core.kernel.verify import run

from .common import (
    EXIT_ILLEGAL, EXIT_LEGAL, BadInput, check_output, echo, emit_json, fail, json_option, output_option,
    pools_option, write_output,
)


def _lines(path: str) -> list[bytes]:
    """The JSON lines of a log file (of a match's text form: the lines it writes)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise BadInput(f"{path}: cannot read ({exc.strerror})") from None
    if is_text(data):
        try:
            return [raw for _, raw in read_text(data, path)]
        except AdjudicatorError as exc:
            raise fail(exc) from None
    return [ln.strip() for ln in data.split(b"\n") if ln.strip()]


def _write(lines: Iterable[bytes], output: str | None, force: bool, inputs: Iterable[str]) -> None:
    write_output(output, force, inputs, b"".join(ln + b"\n" for ln in lines))


def _checked(path: str) -> Any:
    """The log, read and checked line by line (an unreadable log, or a broken chain, exits 2)."""
    try:
        return read_log(path)
    except AdjudicatorError as exc:
        raise fail(exc) from None


@click.command()
@pools_option
@click.argument("log_path", metavar="LOG", type=click.Path(dir_okay=False))
@output_option("the sealed log")
def seal(log_path: str, output: str | None, force: bool) -> None:
    """Add the hash chain to a log: each line after MatchStarted gets "prev", the sha256 of the
    line before it as written.  `verify` then names the first line changed since.  A log that does
    not read (or whose chain is already broken) is refused (exit 2)."""
    check_output(output, force, [log_path])
    _checked(log_path)
    _write(seal_lines(_lines(log_path)), output, force, [log_path])


@click.command()
@pools_option
@click.argument("log_path", metavar="LOG", type=click.Path(dir_okay=False))
@click.option("--as", "as_player", required=True, metavar="PLAYER", help="The seat whose record to write.")
@output_option("the redacted log")
def redact(log_path: str, as_player: str, output: str | None, force: bool) -> None:
    """Write the log PLAYER's seat kept: every event as that seat saw it, what it could not see
    masked ("?"), as the viewers and `state --as` show it."""
    check_output(output, force, [log_path])
    log = _checked(log_path)
    players = list(log.setup.players)
    if as_player not in players:
        raise BadInput(f"--as: unknown player {as_player!r} (players: {', '.join(players)})")
    enc = msgspec.json.Encoder()
    _write((enc.encode(e) for e in redact_log(log, as_player)), output, force, [log_path])


def check_ruling(log: MatchLog | None, at: int | None, ruling: JudgeRuling, as_json: bool,
                 viewer: str | None = None) -> int:
    """``check LOG --event '{"type":"JudgeRuling",...}'``: what follows if the judge's ruling were
    written after event ``at`` (the end): whether it can be followed (LOG-5), the warning it
    leaves, and who acts then; with ``viewer``, a warning about what that seat cannot see says so
    instead of naming it.  Returns the exit code."""
    if log is None:
        raise BadInput("a JudgeRuling rules on an event of a log: give the LOG (not --position)")
    n = at or len(log.events)
    line = log.events[n - 1][0] + 1
    trial = MatchLog(log.path, log.game, [*log.events[:n], (line, ruling)])
    res = run(trial, keep_going=True, record_steps=True)
    step = res.steps[-1]
    if step.seq != n + 1:  # the engine failed on an earlier event (LOG-4): a defect, exit 3
        raise RuntimeError(f"the verification stopped at event {step.seq}: {step.ruling.message}")
    game, verdict = log.game, step.ruling
    warnings = [w.as_dict() for w in res.warnings if w.ruling_seq == n + 1]
    for w in warnings:
        target = log.events[w["seq"] - 1][1]
        before = res.steps[w["seq"] - 2].state if 2 <= w["seq"] <= len(res.steps) + 1 else None  # (what the seat knew)
        if viewer is not None and game.redact(target, viewer, before) != target:
            w["message"] = f"(this ruling concerns what {viewer} cannot see)"
    out = res.outcome
    to_act = [] if out is not None else game.to_act(res.state)
    if as_json:
        emit_json({"verdict": verdict.verdict, "rule": verdict.rule, "code": verdict.code, "message": verdict.message,
                   "warnings": warnings, "to_act": to_act,
                   "outcome": None if out is None else to_builtins(out)})
    else:
        echo(f"{verdict.verdict}: {verdict.rule} [{verdict.code}] {verdict.message}")
        for w in warnings:
            echo(f"  warning: line {w['line']}: event {w['seq']}: {w['rule']} [{w['code']}] {w['message']} "
                       f"({w['decision']})")
        if out is not None:
            echo(f"  then: the match is over ({out.result} {out.winner or ''}, {out.reason})".replace(" ,", ","))
        elif verdict.legal:
            echo(f"  then: to act: {', '.join(to_act) or 'no one'} ({game.waiting_for(res.state)})")
    return EXIT_LEGAL if verdict.legal else EXIT_ILLEGAL


@click.command()
@pools_option
@click.argument("a_path", metavar="A", type=click.Path(dir_okay=False))
@click.argument("b_path", metavar="B", type=click.Path(dir_okay=False))
@output_option("the merged log (only when the records do not contradict each other)")
@json_option
def reconcile(a_path: str, b_path: str, output: str | None, force: bool, as_json: bool) -> None:
    """Make one log of two records of the same match (e.g. two seats' `redact --as` records):
    each one's masked values filled from the other, every contradiction named with both files'
    lines.  Exit 0: no contradiction (the merged log written with -o); 1: contradictions (nothing
    written); 2: a record unreadable (or its hash chain broken)."""
    from adjudicator.core.services.reconcile import read_record
    from adjudicator.core.services.reconcile import reconcile as merge

    check_output(output, force, [a_path, b_path])
    try:
        a, b = read_record(a_path), read_record(b_path)
    except AdjudicatorError as exc:
        raise fail(exc) from None
    res = merge(a, b)
    if output is not None and not res.contradictions:
        _write(res.lines, output, force, [a_path, b_path])
    if as_json:
        emit_json({**res.as_dict(), "output": output if output is not None and not res.contradictions else None})
    else:
        _echo_reconciled(res, output)
    sys.exit(EXIT_ILLEGAL if res.contradictions else EXIT_LEGAL)


def _echo_reconciled(res: Any, output: str | None) -> None:
    a, b = res.a.path, res.b.path
    verdict = f"{len(res.contradictions)} contradictions" if res.contradictions else "no contradiction"
    echo(f"{a} + {b}: {verdict} ({len(res.lines)} events, {res.a.game.id}; {res.filled_a} values filled in "
               f"{a}, {res.filled_b} in {b}; {res.unknown} unknown to both)")
    for c in res.contradictions:
        more = f" ({c.followers} more contradictions follow from it)" if c.followers else ""
        echo(f"  {a}:{c.line_a} / {b}:{c.line_b}: {c.message}{more}")
    for path, seat in ((a, res.seat_a), (b, res.seat_b)):
        if seat is not None:
            echo(f"  {path} is {seat}'s record")
    for path, only in ((a, res.only_a), (b, res.only_b)):
        if only:
            shown = ", ".join(map(str, only[:8])) + (", ..." if len(only) > 8 else "")
            echo(f"  only in {path}: lines {shown} (taken into the merged log)")
    if output is not None:
        sealed = " (sealed: both records were)" if res.sealed else ""
        echo(f"  not written: {output}" if res.contradictions else f"  merged log written to {output}{sealed}")
