"""``adjudicator games``: every registered game and where it comes from.

Each game is listed with its id, name, the distribution (package) and version that provides it,
its entry point in the ``adjudicator.games`` group and its rulebook's prefix; a game registered
in-process (a test's, a script's) has no distribution and names the module of its class.  A plugin
whose entry point failed to load is listed as failed, with the reason, and the exit code is 2;
the other games are listed all the same.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from adjudicator.core.kernel import registry

from .common import EXIT_BAD_INPUT, echo, emit_json, json_option


def game_rows() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The registered games and the failed entry points, as JSON-ready rows."""
    rows = []
    for g in registry.games():
        where = registry.origin(g.id)
        rows.append({
            "id": g.id, "name": g.name,
            "distribution": where.distribution if where else None,
            "version": where.version if where else None,
            "entry_point": where.entry_point if where else None,
            "module": type(g).__module__,
            "rulebook": g.rulebook.prefix,
        })
    failed = [{"entry_point": f.origin.entry_point, "name": f.name, "distribution": f.origin.distribution,
               "version": f.origin.version, "reason": f.reason} for f in registry.failures()]
    return rows, failed


@click.command()
@json_option
def games(as_json: bool) -> None:
    """List the registered games: id, name, the package (and version) it comes from, its entry
    point and rulebook prefix; a plugin that failed to load is listed with the reason (exit code 2)."""
    rows, failed = game_rows()
    if as_json:
        emit_json({"games": rows, "failed": failed})
    else:
        for r in rows:
            source = (f"{r['distribution']} {r['version']}" if r["distribution"] else
                      f"(in-process: {r['module']})")
            echo("\t".join([r["id"], r["name"], source, r["entry_point"] or "-", r["rulebook"]]))
        for f in failed:
            source = f"{f['distribution']} {f['version']}" if f["distribution"] else "(unknown distribution)"
            echo("\t".join([f["name"], "FAILED", source, f["entry_point"], f["reason"]]))
    if failed:
        if not as_json:
            echo(f"error: {len(failed)} game plugin(s) failed to load (the games above are usable)", err=True)
        sys.exit(EXIT_BAD_INPUT)
