"""Results out of ``tournament check`` as CSV files a spreadsheet opens: the standings after
every round and the findings, one row each (docs/tournament.md, "CSV files").

Every cell that starts like a formula is written with a ``'`` before it (``_cell``) and every
control character as ``\\xNN``: a player's name cannot run in the organiser's spreadsheet.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from .common import safe

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
