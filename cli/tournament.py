"""``adjudicator tournament check MANIFEST``: every log of an event against its pairings, reported
results and registered deck lists (docs/tournament.md).

Each table is one job (a worker process, or a Dask cluster's worker with ``--cluster``): it
verifies the table's log, or each seat's record and their reconciliation, hashes the files, and
reads what the log's set-up says (players, deck lists) and the first line each player is seen to
use each card.  :func:`adjudicator.core.services.tournament.assess` then makes the report.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import click
import msgspec

from adjudicator.core.kernel import sources
from adjudicator.core.services import tournament as T
from adjudicator.core.kernel.errors import AdjudicatorError, LogError
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.log import stream_log
from adjudicator.core.services.reconcile import Record, reconcile, read_record

from .common import EXIT_ILLEGAL, EXIT_LEGAL, BadInput, echo, emit_json, fail, inline, pools_option, safe
from .tournament_io import add_commands, cell, findings_csv, standings_csv
from .verdicts import run_jobs, verify_one



#: the exit code when the report finds a problem (any kind): as for an illegal log
EXIT_PROBLEMS = EXIT_ILLEGAL


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _used(ev: Any, players: list[str]) -> list[tuple[str, str]]:
    """Whose cards an event shows, as (owner, card): an event naming a ``player`` (or an ``owner``,
    as a look at the opponent's hand does) and a ``card`` (or ``cards``) shows that player's
    cards, unless its class says the field holds another's
    (``owners``: field -> the field naming the owner, or ``opponent``: the other player of two),
    as a seat's record shows the opponent's card an attack revealed (docs/tournament.md, "Deck lists")."""
    player = getattr(ev, "owner", None)  # the private-information events: whose cards were seen or moved
    player = player if isinstance(player, str) else getattr(ev, "player", None)
    if not isinstance(player, str):
        return []
    owners = getattr(type(ev), "owners", {})
    out = []
    for fld in ("card", "cards"):
        value = getattr(ev, fld, None)
        cards = [value] if isinstance(value, str) else [c for c in value if isinstance(c, str)] if isinstance(value, list) else []
        owner: Any = player
        how = owners.get(fld)
        if how == "opponent":
            others = [p for p in players if p != player]
            owner = others[0] if len(others) == 1 else None
        elif how is not None:
            owner = getattr(ev, how, None)
        if isinstance(owner, str):
            out += [(owner, c) for c in cards if c != HIDDEN]
    return out


#: the envelope of an event: not part of what a random outcome was
_ENVELOPE = ("seq", "at", "note", "prev")


def _seated(value: Any, seats: dict[str, str]) -> Any:
    """``value`` with every player's name (a string or a key) replaced by their seat (``#1``)."""
    if isinstance(value, str):
        return seats.get(value, value)
    if isinstance(value, list):
        return [_seated(x, seats) for x in value]
    if isinstance(value, dict):
        return {seats.get(k, k): _seated(x, seats) for k, x in value.items()}
    return value


class _Outcomes:
    """The fingerprint of a log's random outcomes (shuffles, draws, rolls, reveals), in order,
    each with the players named by seat: the same match copied to another table with the players
    renamed has the same one (docs/tournament.md, ``copied-log``)."""

    def __init__(self, players: list[str]) -> None:
        self.seats = {p: f"#{i + 1}" for i, p in enumerate(players)}
        self.hash, self.count = hashlib.sha256(), 0

    def add(self, ev: Any) -> None:
        if ev.kind != "R":
            return
        doc = _seated({k: v for k, v in msgspec.to_builtins(ev).items() if k not in _ENVELOPE}, self.seats)
        self.hash.update(json.dumps([type(ev).__name__, doc], sort_keys=True).encode())
        # counted only where it says what happened (a card, a roll), not just whose it was
        # (a shuffle that names no order): the same in every match, it tells no copy apart
        if any(v not in (None, HIDDEN, [], {}) and v not in self.seats.values() for v in doc.values()):
            self.count += 1

    def fingerprint(self) -> dict[str, Any]:
        return {"sha256": self.hash.hexdigest(), "outcomes": self.count}


def _scan(path: str, lines_of: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
    """The set-up's players and deck lists, the first line each player uses each card, the last
    line, and the player of each line in ``lines_of`` (the violations': who earns the penalty)."""
    log = stream_log(path)
    try:
        game = log.game
        setup = log.events[0][1]
        out: dict[str, Any] = {"players": list(getattr(setup, "players", []) or [])}
        decks = getattr(setup, "decks", None) if game.deck_type is not None else None
        if isinstance(decks, dict):
            counts = {}
            for p, d in decks.items():
                try:
                    counts[p] = game.deck_counts(msgspec.convert(msgspec.to_builtins(d), game.deck_type))
                except (msgspec.ValidationError, TypeError, AttributeError):
                    continue  # a deck list the record masks (a seat's record of the other seat)
            out["decks"] = {p: {c: n for c, n in d.items() if c != HIDDEN} for p, d in counts.items()}
        first: dict[str, dict[str, int]] = {}
        last = 0
        who: dict[str, str] = {}
        outcomes = _Outcomes(out["players"])
        for i in range(len(log.events)):
            line, ev = log.events[i]
            last = line
            outcomes.add(ev)
            if line in lines_of and isinstance(getattr(ev, "player", None), str):
                who[str(line)] = ev.player
            for owner, c in _used(ev, out["players"]):
                first.setdefault(owner, {}).setdefault(c, line)
        out["first_use"] = first
        out["violators"] = who
        out["outcomes"] = outcomes.fingerprint()
        out["last_line"] = out["end_line"] = last
        return out
    finally:
        log.events.close()  # type: ignore[attr-defined]


def _merge(paths: list[str]) -> tuple[list[bytes] | None, list[dict[str, Any]]]:
    """Reconcile the seats' records (two at a time): the merged lines, or the contradictions."""
    rec: Record = read_record(paths[0])
    for other in paths[1:]:
        b = read_record(other)
        res = reconcile(rec, b)
        if res.contradictions:
            return None, [{"message": c.message, "file": b.path if c.line_b is not None else rec.path,
                           "line": c.line_b if c.line_b is not None else c.line_a} for c in res.contradictions[:20]]
        lines = []
        for n, raw in enumerate(res.lines, start=1):
            doc = msgspec.json.decode(raw)
            doc.pop("prev", None)
            lines.append((n, raw, doc))
        rec = Record(f"{rec.path} + {b.path}", rec.game, lines, res.sealed)
    return [raw for _n, raw, _d in rec.lines], []


def check_table(item: str, keep_going: bool, config: tuple[Any, ...] = ()) -> dict[str, Any]:
    """One table's document (a worker's job; ``item``: :meth:`TableRef.job` as JSON)."""
    if config:
        with sources.using(sources.for_worker(config)):
            return _check_table(json.loads(item), keep_going)
    return _check_table(json.loads(item), keep_going)


def _check_table(job: dict[str, Any], keep_going: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"index": job["index"]}
    files = ([job["log"]] if job["log"] else []) + list((job["seats"] or {}).values())
    if not files:
        out["missing"] = [None]
        return out
    present = [f for f in files if os.path.isfile(f)]
    if len(present) < len(files):
        out["missing"] = [f for f in files if f not in present]
    out["hashes"] = {f: _sha256(f) for f in present}
    if not present:
        return out
    if job["log"] and job["seats"] and job["log"] in present:
        return _against_seats(out, job, present, keep_going)
    if job["log"] and not job["seats"]:
        return _judged(out, present[0], keep_going)
    seat_docs = {p: verify_one(Path(f), keep_going) for p, f in job["seats"].items() if f in present}
    out["seat_verdicts"] = {p: d["verdict"] for p, d in seat_docs.items()}
    bad = next((d for d in seat_docs.values() if d["verdict"] in ("unreadable", "error")), None)
    if bad is not None:
        out["verdict"] = bad
        return out
    if len(present) == 1:  # the one record there is (the other seat's is missing)
        out["partial"] = True
        return _judged(out, present[0], keep_going)
    try:
        merged, conflicts = _merge(present)
    except LogError as exc:  # pragma: no cover - each record was read by verify first
        out["verdict"] = {"path": exc.path, "verdict": "unreadable", "error": exc.render(), "violations": []}
        return out
    if merged is None:  # the records disagree: each judged as it is, the first one reported
        impossible = next((f for p, f in job["seats"].items() if f in present and seat_docs[p]["verdict"] == "illegal"), None)
        if impossible is not None:  # a record illegal on its own (a value that cannot be): that is
            out["partial"] = True   # the problem, with its line, not the disagreement it makes
            return _judged(out, impossible, keep_going)
        out["contradictions"] = conflicts
        out["partial"] = True
        return _judged(out, present[0], keep_going)
    with tempfile.TemporaryDirectory() as d:
        tmp = os.path.join(d, "reconciled.jsonl")
        with open(tmp, "wb") as f:
            f.write(b"\n".join(merged) + b"\n")
        out = _judged(out, tmp, keep_going)
    label = " + ".join(present) + " (reconciled)"
    for d in (out["verdict"], out.get("on_play", {})):
        d["path"] = label
        d["error"] = (d.get("error") or "").replace(tmp, label) or None
    return out


def _against_seats(out: dict[str, Any], job: dict[str, Any], present: list[str], keep_going: bool) -> dict[str, Any]:
    """A table with a full log and the seats' records: judged on the full log, each record
    reconciled with it; the first record that disagrees is the table's ``seat-conflict`` (at the
    record's line), or, illegal on its own, the table's ``illegal`` (docs/tournament.md)."""
    seats = {p: f for p, f in job["seats"].items() if f in present}
    seat_docs = {p: verify_one(Path(f), keep_going) for p, f in seats.items()}
    out["seat_verdicts"] = {p: d["verdict"] for p, d in seat_docs.items()}
    bad = next((d for d in seat_docs.values() if d["verdict"] in ("unreadable", "error")), None)
    if bad is not None:
        out["verdict"] = bad
        return out
    out = _judged(out, job["log"], keep_going)
    if out["verdict"]["verdict"] in ("unreadable", "error"):
        return out
    for p, f in seats.items():
        try:
            _merged, conflicts = _merge([job["log"], f])
        except LogError:  # pragma: no cover - each file was read by verify first
            continue
        if conflicts and seat_docs[p]["verdict"] == "illegal":
            return _judged({k: x for k, x in out.items() if k != "on_play"}, f, keep_going)
        if conflicts:
            out["contradictions"] = conflicts
            break
    return out


def _judged(out: dict[str, Any], path: str, keep_going: bool) -> dict[str, Any]:
    doc = verify_one(Path(path), keep_going)
    out["verdict"] = doc
    if doc["verdict"] in ("unreadable", "error"):
        return out
    lines = {v["line"] for v in doc.get("violations", [])}
    if doc["verdict"] == "illegal" and doc["violations"][0]["seq"] == 1:
        # a set-up the rules refuse (a registered list that breaks them, found once as the player's
        # ``registration``): the play after it verified on as ``--keep-going`` does, so the
        # table can be judged on its play (:func:`adjudicator.core.services.tournament.on_play`)
        play = doc if keep_going else verify_one(Path(path), True)
        out["on_play"] = play
        lines |= {v["line"] for v in play.get("violations", [])}
    info = _scan(path, lines)
    for d in (doc, out.get("on_play", doc)):
        d["last_line"], d["end_line"] = info["last_line"], info["end_line"]
    del info["last_line"], info["end_line"]
    out.update(info)
    return out


# -- output ----------------------------------------------------------------------------------------

def _text(report: dict[str, Any]) -> str:
    t = report["tournament"]
    s = report["summary"]
    dates = "" if not t["dates"] else ", " + (t["dates"][0] if len(t["dates"]) == 1 else f"{t['dates'][0]} to {t['dates'][-1]}")
    out = [f"{t['name']} ({t['game']}{dates}): "
           f"{s['players']} players, {s['rounds']} rounds, {s['tables']} tables"]
    for tab in report["tables"]:
        if not tab["problems"]:
            continue
        out.append(f"round {tab['round']} table {tab['table']} ({', '.join(tab['players'])}): {tab['status']}"
                   f"  [{t['manifest']}:{tab['manifest_line']}]")
        for p in tab["problems"]:
            where = f"{p['file']}:{p['line']}: " if p["file"] and p["line"] else (f"{p['file']}: " if p["file"] else "")
            out.append(f"  {p['kind']}: {where}{p['message']}")
    for tab in report["tables"]:
        for pen in tab.get("penalties", []):
            why = f"for event {pen['seq']}" if pen["seq"] is not None else "carried over"
            out.append(f"penalty: round {tab['round']} table {tab['table']}: {pen['player']} earns a {pen['penalty']} "
                       f"{why} ({pen['file']}:{pen['line']}: {pen['rule']})")
    for p in report.get("event_problems", []):
        out.append(("" if p["round"] is None else f"round {p['round']}: ")
                   + f"{p['kind']}: {p['message']}  [{t['manifest']}:{p['manifest_line']}]")
    pens = [p for p in report["players"] if p["rulings"]]
    if pens:
        out.append("judges' rulings by player:")
        for p in pens:
            out.append(f"  {p['id']}: {len(p['rulings'])} rulings, {len(p['penalties'])} penalties")
            for r in p["rulings"]:
                out.append(f"    round {r['round']} table {r['table']}: {r['file']}:{r['line']}: {r['text']}")
    out += _standings_text(report)
    st = ", ".join(f"{n} {k}" for k, n in s["status"].items())
    kinds = ", ".join(f"{k} {n}" for k, n in s["by_kind"].items()) or "none"
    out.append(f"{s['tables']} tables: {st}; {s['problems']} problems ({kinds})")
    return "\n".join(map(inline, out))  # each entry one line: a newline inside a value is escaped


def _standings_text(report: dict[str, Any]) -> list[str]:
    """The last round's standings, and the tables not counted in them."""
    rounds = report.get("standings", {}).get("rounds", [])
    if not rounds:
        return []
    last = rounds[-1]
    out = [f"standings after round {last['round']}:"]
    for x in last["rows"]:
        tbs = ", ".join(f"{k} {v}" for k, v in x["tiebreakers"].items())
        rec = f"{x['wins']}-{x['draws']}-{x['losses']}" + (f", {x['byes']} bye" if x["byes"] else "")
        drop = f", dropped after round {x['dropped']}" if x["dropped"] is not None else ""
        out.append(f"  {x['rank']:>3}. {x['player']}  {x['points']} points ({rec}{drop})" + (f"  [{tbs}]" if tbs else ""))
    for d in last["disputed"]:
        out.append(f"  not counted: round {d['round']} table {d['table']} ({', '.join(d['players'])}): {d['why']}")
    return out


CSV_FIELDS = ("round", "table", "players", "status", "verdict", "complete", "reported", "outcome", "events",
              "log", "problems", "kinds")


_cell = cell


def _csv(report: dict[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for t in report["tables"]:
        log = t["log"] or " ".join((t["seats"] or {}).values())
        w.writerow(map(_cell, [t["round"], t["table"], " ".join(t["players"]), t["status"], t["verdict"] or "",
                    "" if t["complete"] is None else str(t["complete"]).lower(), t["reported"] or "",
                    T.describe_result(t["outcome"]) if t["outcome"] else "", t["events"] or "", log,
                    len(t["problems"]), " ".join(p["kind"] for p in t["problems"])]))
    return buf.getvalue()


def check_tournament(manifest: str, jobs: int, cluster: str | None, keep_going: bool = False) -> dict[str, Any]:
    """Load the manifest, check every table, and make the report (an unreadable manifest raises
    :class:`LogError`)."""
    tour = T.load(manifest)
    keep_going = keep_going or tour.manifest.penalties.rule != "none"  # every illegal event earns its penalty
    items = [json.dumps(t.job()) for t in tour.tables]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(items) or 1))

    docs = []
    for ref, doc in zip(tour.tables, run_jobs(items, keep_going, jobs, cluster, check_table)):
        if "index" not in doc:  # a job the cluster lost: an internal error of that table
            doc = {"index": ref.index, "verdict": doc}
        docs.append(doc)
    return T.assess(tour, docs)


@click.group()
def tournament() -> None:
    """A whole event: its manifest (players, deck lists, rounds, tables, logs, results)."""


@tournament.command("check")
@pools_option
@click.argument("manifest", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The report as one JSON object.")
@click.option("--csv", "as_csv", is_flag=True, help="One CSV row per table.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
              help="Also write the report as one self-contained HTML page (no server, no network).")
@click.option("--replays", "replays_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="With --html: export each table's match as a replay file (public view) into DIR, "
                   "linked from the page.")
@click.option("--standings-csv", "standings_out", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE", help="Also write the standings after every round as CSV.")
@click.option("--findings-csv", "findings_out", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE", help="Also write every finding as one CSV row.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes (0: every core).")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help="Check the tables on the workers of a Dask distributed cluster (tcp://host:8786).")
def check(manifest: str, as_json: bool, as_csv: bool, html_out: str | None, replays_dir: str | None,
          standings_out: str | None, findings_out: str | None, jobs: int, cluster: str | None) -> None:
    """Check every log of a tournament against its tables, results and deck lists.

    Exit code: 0 no problem, 1 problems found (each named with its round, table and line), 2 an
    unreadable manifest or wrong usage.
    """
    if as_json and as_csv:
        raise BadInput("give --json or --csv, not both")
    if replays_dir is not None and html_out is None:
        raise BadInput("--replays goes with --html FILE (the page links the replays)")
    try:
        report = check_tournament(manifest, jobs, cluster)
    except AdjudicatorError as exc:
        raise fail(exc) from None
    if html_out is not None:
        from adjudicator.replays.web.report import render

        links = None if replays_dir is None else _replays(report, Path(replays_dir), Path(html_out).parent)
        try:
            Path(html_out).write_text(render(report, links), encoding="utf-8")
        except OSError as exc:
            raise BadInput(f"{html_out}: cannot write ({exc.strerror})") from None
    for out, make in ((standings_out, standings_csv), (findings_out, findings_csv)):
        if out is not None:
            try:
                Path(out).write_text(make(report), encoding="utf-8")
            except OSError as exc:
                raise BadInput(f"{out}: cannot write ({exc.strerror})") from None
    if as_json:
        emit_json(report)
    elif as_csv:
        sys.stdout.write(safe(_csv(report)))  # control characters escaped as everywhere on a terminal
    else:
        echo(_text(report))
    sys.exit(EXIT_PROBLEMS if report["summary"]["problems"] else EXIT_LEGAL)


def _replays(report: dict[str, Any], directory: Path, page_dir: Path) -> dict[tuple[int, int], str]:
    """Each readable table's match as a replay file (the public view) in ``directory``: the links
    (relative to the report page).  A log that cannot be exported (too long) gets no link."""
    from adjudicator.core.kernel.log import read_log
    from adjudicator.replays.web.export import ExportError, render

    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"{directory}: cannot create ({exc.strerror})") from None
    links = {}
    for t in report["tables"]:
        path = t["log"] or next(iter((t["seats"] or {}).values()), None)
        if path is None or t["verdict"] in (None, "unreadable", "error"):
            continue
        out = directory / f"r{t['round']}-t{t['table']}.html"
        try:
            out.write_text(render(read_log(path), ["public"], path), encoding="utf-8")
        except (AdjudicatorError, ExportError):
            continue
        except OSError as exc:
            raise BadInput(f"{out}: cannot write ({exc.strerror})") from None
        links[(t["round"], t["table"])] = os.path.relpath(out, page_dir)
    return links


@tournament.command("import")
@pools_option
@click.argument("manifest", type=click.Path(dir_okay=False))
@click.option("--db", "db", default=None, metavar="PATH", type=click.Path(dir_okay=False),
              help="The store (as for store import: default $ADJUDICATOR_DB, else ./adjudicator.db).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes for the check (0: every core).")
def import_(manifest: str, db: str | None, jobs: int) -> None:
    """Check a tournament and keep it in the store: every readable log (illegal ones too, with
    their verdicts) and the report, shown by the service at /tournaments/NAME.

    Exit code 0 when everything readable was stored (the report's problems are in it), 2 for an
    unreadable manifest or a store that cannot be opened.
    """
    from adjudicator.core.store import tournaments as tournament_store

    from .store import open_store

    try:
        report = check_tournament(manifest, jobs, None)
    except AdjudicatorError as exc:
        raise fail(exc) from None
    with open_store(db) as st:
        stored = 0
        for t in report["tables"]:
            files = [t["log"]] if t["log"] else list((t["seats"] or {}).values())
            t["match_ids"] = {}
            if t["verdict"] in (None, "unreadable", "error"):
                continue
            for f in files:
                if os.path.isfile(f):
                    t["match_ids"][f] = st.import_file(f, allow_illegal=True).match_id
                    stored += 1
        tid, version = tournament_store.save(st, report)
    s = report["summary"]
    echo(f"{report['tournament']['name']}: {s['tables']} tables, {stored} logs stored, {s['problems']} problems; "
               f"tournament {tid} (version {version})")


@tournament.command("schema")
def schema() -> None:
    """Print the JSON Schema of a tournament manifest."""
    emit_json(T.manifest_schema())


add_commands(tournament)
