"""Pairings and results in and out of a tournament manifest (docs/tournament.md, "Pairings in
and out"): a spreadsheet's CSV (one row per table) and FIDE's Tournament Report File (TRF16,
what Swiss-Manager, Vega and JaVaFo read and write), and the manifest written back as TOML.

TRF was chosen because its layout is public and fixed-width (FIDE Handbook C.04 Annex 2): every
player line (``001``) holds the player's starting rank and name in fixed columns and, from
column 92, one ten-character block per round (opponent's starting rank, colour, result), so a
reader can be exact.  It pairs two players a board and numbers no boards: an imported round's
tables are numbered in the order of their first player's starting rank.

Every refusal names the file, the line and the column (:class:`LogError`, exit 2).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.core.kernel.data import read_text
from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.limits import MAX_MANIFEST_BYTES
from .tournament import MAX_TABLES, Entrant, Manifest, Round, Table

CSV_FIELDS = ("round", "table", "players", "result", "log", "seats")

#: TRF results a reader turns into a table's result (the player's own code); byes by code
_TRF_WIN, _TRF_DRAW, _TRF_LOSS = "1+W", "=D", "0-L"
_TRF_BYES = "FU"


def _ids(text: str) -> list[str]:
    return [x for x in re.split(r"[\s;]+", text.strip()) if x]


def _merge(base: Manifest, rounds: dict[int, Round], players: list[Entrant]) -> Manifest:
    """``base`` with the imported rounds (a round in both: the import's tables and byes, the
    base's drops) and the players it does not list yet."""
    out = {r.round: r for r in base.rounds}
    for n, r in rounds.items():
        old = out.get(n)
        tables = r.tables
        if old is not None:  # the same tables as BASE's (by players): BASE's numbers, logs and seats, sorted
            was = {frozenset(t.players): t for t in old.tables}
            if all(not t.log and not t.seats and frozenset(t.players) in was for t in tables):
                tables = sorted((msgspec.structs.replace(t, table=was[frozenset(t.players)].table,
                                                        players=list(was[frozenset(t.players)].players),
                                                        log=was[frozenset(t.players)].log,
                                                        seats=was[frozenset(t.players)].seats) for t in tables),
                                key=lambda t: t.table)
        out[n] = msgspec.structs.replace(r, tables=tables, drops=list(old.drops) if old else [])
    known = {e.id for e in base.players}
    return msgspec.structs.replace(base, rounds=[out[n] for n in sorted(out)],
                                   players=list(base.players) + [e for e in players if e.id not in known])


def read_csv(path: str, base: Manifest) -> Manifest:
    """A spreadsheet's pairings and results: a header row, then one row per table (``round``,
    ``table``, ``players`` -- ids separated by spaces or ``;`` --, ``result``, ``log``, ``seats``
    -- ``player=file`` separated the same way); a row
    whose table is ``bye`` gives its players a bye.  Players must be the base manifest's."""
    rows = csv.reader(io.StringIO(read_text(path, MAX_MANIFEST_BYTES)))
    cols = _csv_header(path, next(rows, None))
    known = {e.id for e in base.players}
    new: dict[str, Entrant] = {}
    rounds: dict[int, Round] = {}
    seen: dict[tuple[int, int], int] = {}
    count = 0
    for row in rows:
        line = rows.line_num
        if not any(x.strip() for x in row):
            continue
        if len(row) != len(cols):
            raise LogError(path, line, f"{len(row)} cells, the header has {len(cols)}")
        cell = dict(zip(cols, (x.strip() for x in row)))
        count += 1
        if count > MAX_TABLES:
            raise LogError(path, line, f"more than {MAX_TABLES} rows")
        rnd = _number(path, line, "round", cell["round"])
        players = _ids(cell["players"])
        if not players:
            raise LogError(path, line, "no players", "players")
        for p in players:
            if len(p) > 64:
                raise LogError(path, line, f"a player id of {len(p)} characters (at most 64)", "players")
            if not known:  # a new event: its players are the pairings'
                new.setdefault(p, Entrant(p))
            elif p not in known:
                raise LogError(path, line, f"unknown player {p!r} (not in the manifest's players)", "players")
        r = rounds.setdefault(rnd, Round(rnd))
        if cell["table"].lower() == "bye":
            r.byes.extend(players)
            continue
        table = _number(path, line, "table", cell["table"])
        if (rnd, table) in seen:
            raise LogError(path, line, f"round {rnd} table {table} is already on line {seen[(rnd, table)]}", "table")
        seen[(rnd, table)] = line
        result = _csv_result(path, line, cell, players)
        seats = _csv_seats(path, line, cell, players)
        r.tables.append(Table(table, players, log=cell.get("log") or None, seats=seats, result=result))
    return _merge(base, rounds, list(new.values()))


def _csv_header(path: str, header: list[str] | None) -> list[str]:
    """The columns of a pairings CSV's header row, each known and the needed ones there."""
    if header is None:
        raise LogError(path, 1, "empty file: a header row (round, table, players, result) is needed")
    cols = [h.strip().lower() for h in header]
    for need in ("round", "table", "players"):
        if need not in cols:
            raise LogError(path, 1, f"no column {need!r} (the columns: {', '.join(CSV_FIELDS)})")
    for c in cols:
        if c not in CSV_FIELDS:
            raise LogError(path, 1, f"unknown column {c!r} (the columns: {', '.join(CSV_FIELDS)})")
    return cols


def _csv_result(path: str, line: int, cell: dict[str, str], players: list[str]) -> str | None:
    result = cell.get("result") or None
    if result is not None and result.lower() != "draw":
        for w in result.split("+"):
            if w.strip() not in players:
                raise LogError(path, line, f"{w.strip()!r} is not a player of the table (a player id, a+b or draw)",
                               "result")
    return result


def _csv_seats(path: str, line: int, cell: dict[str, str], players: list[str]) -> dict[str, str] | None:
    if not cell.get("seats"):
        return None
    seats = {}
    for item in _ids(cell["seats"]):
        who, eq, f = item.partition("=")
        if not eq or who not in players or not f:
            raise LogError(path, line, f"{item!r} is not player=file of a player of the table", "seats")
        seats[who] = f
    if cell.get("log"):
        raise LogError(path, line, "give log (one full log) or seats (one record per seat), not both", "seats")
    return seats


def _number(path: str, line: int, col: str, text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,6}", text) or int(text) < 1:
        raise LogError(path, line, f"{text!r} is not a number from 1", col)
    return int(text)


def csv_rows(man: Manifest) -> list[list[Any]]:
    """The manifest's pairings and results as :func:`read_csv` reads them (after ``CSV_FIELDS``)."""
    rows: list[list[Any]] = []
    for r in man.rounds:
        rows += [[r.round, t.table, " ".join(t.players), t.result or "", t.log or "",
                  " ".join(f"{p}={f}" for p, f in (t.seats or {}).items())] for t in r.tables]
        if r.byes:
            rows.append([r.round, "bye", " ".join(r.byes), "", "", ""])
    return rows


# -- TRF16 -----------------------------------------------------------------------------------------

def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64] or "player"


def read_trf(path: str, base: Manifest) -> Manifest:
    """A TRF16 file's players (``001`` lines: starting rank, name) and rounds.  A player is the
    base manifest's player of that ``name`` (or id), else a new one (id: the name in lower case,
    words joined by ``-``).  Results: ``1``, ``+``, ``W`` a win, ``=``, ``D`` a draw, ``0``,
    ``-``, ``L`` a loss, ``F``, ``U`` a bye; the two players' codes must agree."""
    text = read_text(path, MAX_MANIFEST_BYTES)
    by_name = {e.name: e.id for e in base.players if e.name} | {e.id: e.id for e in base.players}
    players: dict[int, tuple[str, int]] = {}  # starting rank -> (id, line)
    games: dict[int, list[tuple[int, int, str, str, int]]] = {}  # round -> (me, opp, colour, code, line)
    new: list[Entrant] = []
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.startswith("001"):
            continue
        if len(raw) < 84:
            raise LogError(path, line, "a player line (001) is shorter than its 84 fixed columns")
        rank = raw[4:8].strip()
        if not rank.isdigit():
            raise LogError(path, line, f"{rank!r} is not a starting rank (columns 5-8)", "rank")
        name = raw[14:47].strip()
        if not name:
            raise LogError(path, line, "no name (columns 15-47)", "name")
        pid = by_name.get(name) or _slug(name)
        if pid not in by_name.values():
            new.append(Entrant(pid, name))
        if int(rank) in players:
            raise LogError(path, line, f"starting rank {rank} is already on line {players[int(rank)][1]}", "rank")
        players[int(rank)] = (pid, line)
        _trf_games(path, line, raw, int(rank), games)
    if len({p for p, _l in players.values()}) < len(players):
        raise LogError(path, None, "two players' names give the same id")
    rounds = {rnd: _trf_round(path, rnd, entries, players) for rnd, entries in sorted(games.items())}
    return _merge(base, rounds, new)


def _trf_games(path: str, line: int, raw: str, rank: int, games: dict[int, list[tuple[int, int, str, str, int]]]) -> None:
    """The round blocks of a TRF16 player line (columns 92 on, 10 a round) into ``games``."""
    for i, at in enumerate(range(91, len(raw), 10), start=1):
        block = raw[at:at + 8].ljust(8)
        opp, colour, code = block[0:4].strip(), block[5], block[7]
        if (not opp or opp == "0000") and code == " ":
            continue
        if code not in _TRF_WIN + _TRF_DRAW + _TRF_LOSS + _TRF_BYES + "HZ ":
            raise LogError(path, line, f"result {code!r} is not a TRF result code", f"round {i}")
        if code in "HZ":
            raise LogError(path, line, f"a {'half' if code == 'H' else 'zero'}-point bye has no "
                           "manifest form (every bye scores scoring.bye)", f"round {i}")
        if not (opp.isdigit() or (code in _TRF_BYES and opp in ("", "0000"))):
            raise LogError(path, line, f"opponent {opp!r} is not a starting rank", f"round {i}")
        games.setdefault(i, []).append((rank, int(opp or 0), colour, code, line))


def _trf_round(path: str, rnd: int, entries: list[tuple[int, int, str, str, int]],
               players: dict[int, tuple[str, int]]) -> Round:
    """One round of a TRF16 file: its byes, and its tables from the pairs whose codes agree."""
    r = Round(rnd)
    mine = {(me, opp): (colour, code, line) for me, opp, colour, code, line in entries}
    pairs = []
    for me, opp, colour, code, line in entries:
        if code in _TRF_BYES:
            r.byes.append(players[me][0])
            continue
        if opp not in players:
            raise LogError(path, line, f"no player has starting rank {opp}", f"round {rnd}")
        back = mine.get((opp, me))
        if back is None:
            raise LogError(path, line, f"{players[opp][0]} (line {players[opp][1]}) does not "
                           f"name this player as its opponent", f"round {rnd}")
        if not (code in _TRF_WIN and back[1] in _TRF_LOSS or code in _TRF_LOSS and back[1] in _TRF_WIN
                or code in _TRF_DRAW and back[1] in _TRF_DRAW or code == back[1] == " "):
            raise LogError(path, line, f"result {code!r} against {players[opp][0]}'s {back[1]!r} "
                           f"(line {back[2]})", f"round {rnd}")
        if me < opp:
            first, second = (me, opp) if colour != "b" else (opp, me)
            winner = (players[me][0] if code in _TRF_WIN else players[opp][0] if code in _TRF_LOSS
                      else "draw" if code in _TRF_DRAW else None)
            pairs.append((me, [players[first][0], players[second][0]], winner))
    for n, (_m, who, winner) in enumerate(sorted(pairs), start=1):
        r.tables.append(Table(n, who, result=winner))
    return r


def write_trf(man: Manifest) -> str:
    """The manifest's players and two-player tables as TRF16 player lines (starting rank: the
    order of ``players``; points: 1 a win, 0.5 a draw or the bye).  A table of more than two
    players has no TRF form (:class:`ValueError`)."""
    rank = {e.id: i for i, e in enumerate(man.players, start=1)}
    blocks: dict[str, dict[int, str]] = {e.id: {} for e in man.players}
    points = {e.id: 0.0 for e in man.players}
    for r in man.rounds:
        for t in r.tables:
            if len(t.players) != 2:
                raise ValueError(f"round {r.round} table {t.table} has {len(t.players)} players; TRF pairs two")
            a, b = t.players
            for p in t.players:
                if r.round in blocks[p]:
                    raise ValueError(f"{p} is seated twice in round {r.round}; TRF holds one game a round")
            res = (t.result or "").strip()
            code = {a: "=", b: "="} if res.lower() == "draw" else {a: "1", b: "0"} if res == a else \
                {a: "0", b: "1"} if res == b else {a: " ", b: " "}
            for me, opp, colour in ((a, b, "w"), (b, a, "b")):
                blocks[me][r.round] = f"{rank[opp]:>4} {colour} {code[me]}"
                points[me] += {"1": 1.0, "=": 0.5}.get(code[me], 0.0)
        for p in r.byes:
            if r.round in blocks[p]:
                raise ValueError(f"{p} is seated and has a bye in round {r.round}; TRF holds one game a round")
            blocks[p][r.round] = "0000 - F"
            points[p] += 1.0
    last = max((r.round for r in man.rounds), default=0)
    out = [f"012 {man.name}"]
    for e in man.players:
        name = (e.name or e.id)[:33]
        head = f"001 {rank[e.id]:>4}      {name:<33} {'':>4} {'':>3} {'':>11} {'':>10} {points[e.id]:>4.1f} {'':>4}"
        rounds = "".join(f"  {blocks[e.id].get(n, ' ' * 8)}" for n in range(1, last + 1))
        out.append((head + rounds).rstrip())
    return "\n".join(out) + "\n"


# -- TOML out --------------------------------------------------------------------------------------

def toml_value(v: Any) -> str:
    """A TOML value (inline tables and arrays; strings as JSON writes them, which TOML reads)."""
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return json.dumps(str(v))


def _fields(d: dict[str, Any]) -> list[str]:
    return [f"{k} = {toml_value(v)}" for k, v in d.items() if v is not None and v != []]


def to_toml(man: Manifest) -> str:
    """The manifest as TOML (``[[players]]``, ``[[rounds]]`` and ``[[rounds.tables]]`` headers,
    so a later error can name its line)."""
    d = msgspec.to_builtins(man)
    out = _fields({k: d[k] for k in ("name", "dates", "game", "pool", "board", "logs") if k in d})
    out += ["", "[scoring]", *_fields(d["scoring"]), ""]
    for p in d["players"]:
        out += ["[[players]]", *_fields(p), ""]
    for r in d["rounds"]:
        out += ["[[rounds]]", *_fields({k: v for k, v in r.items() if k != "tables"}), ""]
        for t in r["tables"]:
            out += ["[[rounds.tables]]", *_fields(t), ""]
    for ru in d.get("rulings", []):
        out += ["[[rulings]]", *_fields(ru), ""]
    return "\n".join(out)


def base_manifest(path: str | None, game: str | None, name: str | None) -> Manifest:
    """The manifest the import goes into: ``path``'s (checked as ``tournament check`` does), or
    a new one of ``game``."""
    if path is not None:
        from .tournament import load

        return load(path).manifest
    if game is None:
        raise LogError("import-pairings", None, "give --manifest BASE or --game GAME", "game")
    return Manifest(name or "Imported event", game, [], [])


def read_pairings(path: str, fmt: str, base: Manifest) -> Manifest:
    """``fmt``: ``csv``, ``trf`` or ``auto`` (by the file's suffix: ``.trf``/``.txt`` is TRF)."""
    if fmt == "auto":
        fmt = "trf" if Path(path).suffix.lower() in (".trf", ".txt") else "csv"
    man = read_trf(path, base) if fmt == "trf" else read_csv(path, base)
    try:  # the structs were built field by field: checked against the manifest's bounds once
        return msgspec.convert(msgspec.to_builtins(man), Manifest)
    except msgspec.ValidationError as exc:
        raise LogError(path, None, f"the imported manifest is not valid: {exc}") from None
