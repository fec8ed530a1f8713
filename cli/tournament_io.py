"""Results out of ``tournament check`` as CSV files a spreadsheet opens: the standings after
every round and the findings, one row each (docs/tournament.md, "CSV files").

Every cell that starts like a formula is written with a ``'`` before it (``_cell``) and every
control character as ``\\xNN``: a player's name cannot run in the organiser's spreadsheet.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path
from typing import Any

import click

from adjudicator.core.services import pairings as P
from adjudicator.core.services import tournament as T
from adjudicator.core.kernel.errors import AdjudicatorError

from .common import BadInput, echo, fail, safe

#: what a spreadsheet reads as the start of a formula (OWASP's CSV injection list)
FORMULA = ("=", "+", "-", "@", "\t", "\r")

STANDINGS_FIELDS = ("round", "rank", "player", "name", "points", "played", "wins", "draws", "losses", "byes",
                    "dropped")
FINDINGS_FIELDS = ("round", "table", "kind", "player", "file", "line", "manifest_line", "message")


def cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs: text starting like a formula is prefixed with ``'``."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA) else value


def _write(header: list[str], rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([cell("" if v is None else v) for v in row])
    return safe(buf.getvalue())


def standings_csv(report: dict[str, Any]) -> str:
    """One row per player per round: the standings after that round, then its tiebreakers."""
    names = {p["id"]: p["name"] or "" for p in report["players"]}
    tbs = list(report["standings"]["scoring"]["tiebreakers"])
    rows = []
    for rnd in report["standings"]["rounds"]:
        for x in rnd["rows"]:
            rows.append([rnd["round"], x["rank"], x["player"], names.get(x["player"], ""), x["points"], x["played"],
                         x["wins"], x["draws"], x["losses"], x["byes"], x["dropped"],
                         *(x["tiebreakers"][t] for t in tbs)])
    return _write([*STANDINGS_FIELDS, *tbs], rows)


def findings_csv(report: dict[str, Any]) -> str:
    """One row per finding (a problem of a table, or of the event: an unpaired player's has no
    table)."""
    rows = [[p["round"], p["table"], p["kind"], p["player"], p["file"], p["line"], p["manifest_line"], p["message"]]
            for t in report["tables"] for p in t["problems"]]
    rows += [[p["round"], p["table"], p["kind"], p["player"], p["file"], p["line"], p["manifest_line"], p["message"]]
             for p in report.get("event_problems", [])]
    return _write(list(FINDINGS_FIELDS), rows)


def add_commands(group: click.Group) -> None:
    """``tournament import-pairings`` and ``tournament export-pairings``."""

    @group.command("import-pairings")
    @click.argument("pairings", type=click.Path(dir_okay=False))
    @click.option("--manifest", "base", type=click.Path(dir_okay=False), default=None, metavar="BASE",
                  help="The manifest the pairings go into (its players, deck lists, scoring); its other rounds kept.")
    @click.option("--game", default=None, help="Without --manifest: the game of a new event.")
    @click.option("--name", default=None, help="Without --manifest: the new event's name.")
    @click.option("--format", "fmt", type=click.Choice(["auto", "csv", "trf"]), default="auto", show_default=True,
                  help="csv: one row per table; trf: FIDE's TRF16 (Swiss-Manager's export); auto: by the suffix.")
    @click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
                  help="Write the manifest to FILE (default: standard output).")
    def import_pairings(pairings: str, base: str | None, game: str | None, name: str | None, fmt: str,
                        output: str | None) -> None:
        """Read pairings and results (a spreadsheet's CSV or a TRF16 file) into a tournament manifest.

        Exit code 0 written, 2 an unreadable file (the message names its line and column).
        """
        try:
            man = P.read_pairings(pairings, fmt, P.base_manifest(base, game, name))
            text = P.to_toml(man)
        except AdjudicatorError as exc:
            raise fail(exc) from None
        if output is None:
            sys.stdout.write(safe(text))
            return
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise BadInput(f"{output}: cannot write ({exc.strerror})") from None
        echo(f"{output}: {len(man.players)} players, {len(man.rounds)} rounds, "
             f"{sum(len(r.tables) for r in man.rounds)} tables")

    @group.command("export-pairings")
    @click.argument("manifest", type=click.Path(dir_okay=False))
    @click.option("--format", "fmt", type=click.Choice(["csv", "trf"]), default="csv", show_default=True,
                  help="csv: one row per table (as import-pairings reads it); trf: FIDE's TRF16.")
    def export_pairings(manifest: str, fmt: str) -> None:
        """Write a manifest's pairings and results as CSV or TRF16.

        Exit code 0 written, 2 an unreadable manifest (or a table TRF cannot hold).
        """
        try:
            man = T.load(manifest).manifest
            text = P.write_trf(man) if fmt == "trf" else _write(list(P.CSV_FIELDS), P.csv_rows(man))
        except AdjudicatorError as exc:
            raise fail(exc) from None
        except ValueError as exc:
            raise BadInput(f"{manifest}: {exc}") from None
        sys.stdout.write(safe(text))
