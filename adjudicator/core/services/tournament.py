"""A tournament: its manifest (players, registered deck lists, rounds, tables, logs, reported
results) and the report that ties the logs to it (docs/tournament.md).

The manifest is a TOML file (``.json``: JSON) read through the bounded data readers; every
refusal names the file, the line and the field.  Checking a tournament has two halves: each
table's logs are verified where the work is (``adjudicator.cli.tournament``: worker processes or
a Dask cluster give back one *table document* per table), and :func:`assess` turns the manifest
and those documents into the report: one problem per finding, each with its round, table, the
manifest's line and, where it has one, the log's file and line.  Nothing here names a game: the
registered deck lists are read with the game's ``deck_type`` and compared with ``deck_counts``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.data import is_json, parse_text, read_data, read_text
from adjudicator.core.kernel.errors import AdjudicatorError, DataError, LogError
from adjudicator.core.kernel.rulings import Illegal, Undetermined
from adjudicator.core.kernel.limits import MAX_MANIFEST_BYTES, MAX_MANIFEST_TOKENS, MAX_NAME, MAX_PLAYERS
from .standings import Points, Scoring, compute, table_points

#: bounds on what a manifest may hold (docs/tournament.md, "Limits")
MAX_ROUNDS = 1_000
MAX_TABLES = 100_000
MAX_ENTRANTS = 100_000
MAX_TEXT = 1_000

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]
Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]


class Entrant(msgspec.Struct, forbid_unknown_fields=True):
    """A player of the event; ``deck`` (inline) or ``deck_file`` (a TOML or JSON file, relative
    to the manifest) is the list the player registered, in the shape the game's logs write it."""

    id: Name
    name: Text | None = None
    deck: Any = None
    deck_file: Text | None = None


class Table(msgspec.Struct, forbid_unknown_fields=True):
    """One table of a round: its players, its log (``log``: one full log; ``seats``: one record
    per seat, player -> file) and the result the players reported (a player id, players joined by
    ``+`` for a shared win, or ``draw``)."""

    table: Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLES)]
    players: Annotated[list[Name], msgspec.Meta(min_length=1, max_length=MAX_PLAYERS)]
    log: Text | None = None
    seats: Annotated[dict[Name, Text], msgspec.Meta(max_length=MAX_PLAYERS)] | None = None
    result: Text | None = None
    #: the points per player written on the result slip (checked against the log's result under ``scoring``)
    points: Annotated[dict[Name, Points], msgspec.Meta(max_length=MAX_PLAYERS)] | None = None


class Round(msgspec.Struct, forbid_unknown_fields=True):
    """One round: its tables, the players given a bye in it and the players who left the event
    after it (``drops``: not paired again, their results kept)."""

    round: Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)]
    tables: Annotated[list[Table], msgspec.Meta(max_length=MAX_TABLES)] = []
    byes: Annotated[list[Name], msgspec.Meta(max_length=MAX_ENTRANTS)] = []
    drops: Annotated[list[Name], msgspec.Meta(max_length=MAX_ENTRANTS)] = []


class Ruling(msgspec.Struct, forbid_unknown_fields=True):
    """A judge's ruling made outside any log (between rounds, on a slip): the round and table it
    is about, the players it concerns, its grounds and what it decides: the table's ``result``
    (a player id, ``a+b`` or ``draw``: the standings count it, the table's disputed log or not)."""

    round: Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)]
    table: Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLES)]
    grounds: Text
    players: Annotated[list[Name], msgspec.Meta(max_length=MAX_PLAYERS)] = []
    result: Text | None = None
    #: a penalty it gives (``warning``, ``game-loss``, ...), listed under each player it names
    penalty: Text | None = None


class Penalties(msgspec.Struct, forbid_unknown_fields=True):
    """The penalty rule for illegal events (``[penalties]``): ``warning-then-game-loss`` (FIDE
    7.5.5's: a player's first illegal event a warning, the second a game loss) counted per
    ``game`` or over the whole ``event``; ``none``: no penalty reported."""

    rule: Literal["none", "warning-then-game-loss"] = "none"
    scope: Literal["game", "event"] = "game"
    #: a game loss given outside any log (a ``[[rulings]]`` ``penalty = "game-loss"``, made when
    #: the game it concerns was over) carried over to the player's next table, whose game it
    #: decides (as the Magic Infraction Procedure Guide's game loss between matches); false: listed only
    carry_over: bool = False


class Manifest(msgspec.Struct, forbid_unknown_fields=True):
    """A tournament manifest (docs/tournament.md)."""

    name: Text
    game: Name
    players: Annotated[list[Entrant], msgspec.Meta(max_length=MAX_ENTRANTS)]
    rounds: Annotated[list[Round], msgspec.Meta(max_length=MAX_ROUNDS)]
    #: ISO dates (``2026-04-11``), first to last
    dates: Annotated[list[Text], msgspec.Meta(max_length=MAX_ROUNDS)] = []
    #: the card pool (Colossus Order, LOGOS) or board (Kolossus, Colossi) every log must name
    pool: Name | None = None
    board: Name | None = None
    #: the folder the logs' paths are relative to (default: the manifest's own)
    logs: Text | None = None
    #: points and tiebreakers of the standings (docs/tournament.md, "Standings")
    scoring: Scoring = msgspec.field(default_factory=Scoring)
    #: what each illegal event earns (docs/tournament.md, "Penalties")
    penalties: Penalties = msgspec.field(default_factory=Penalties)
    #: ``finding``: the same players at one table again is a ``rematch`` problem; ``allowed``: not
    rematches: Literal["finding", "allowed"] = "finding"
    #: judges' rulings made outside any log
    rulings: Annotated[list[Ruling], msgspec.Meta(max_length=MAX_TABLES)] = []


def manifest_schema() -> dict[str, Any]:
    """The JSON Schema of a manifest (``adjudicator tournament schema``)."""
    return msgspec.json.schema(Manifest)


# -- reading ----------------------------------------------------------------------------------------

_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*(players|rulings|rounds|rounds[ \t]*\.[ \t]*tables)[ \t]*\]\]", re.M)


@dataclass
class Lines:
    """Where each ``[[players]]``, ``[[rounds]]`` and ``[[rounds.tables]]`` entry starts (a
    layout without those headers, inline arrays or JSON: no lines, the entry named instead)."""

    players: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    #: per round: its tables' lines
    tables: list[list[int]] = field(default_factory=list)
    rulings: list[int] = field(default_factory=list)

    @classmethod
    def scan(cls, text: str) -> Lines:
        out = cls()
        line, at = 1, 0  # counted on from the previous header: linear in the text
        for m in _HEADER.finditer(text):
            line += text.count("\n", at, m.start())
            at = m.start()
            kind = re.sub(r"[ \t]", "", m.group(1))
            if kind == "players":
                out.players.append(line)
            elif kind == "rulings":
                out.rulings.append(line)
            elif kind == "rounds":
                out.rounds.append(line)
                out.tables.append([])
            elif out.tables:
                out.tables[-1].append(line)
        return out

    def table(self, r: int, t: int) -> int | None:
        return self.tables[r][t] if r < len(self.tables) and t < len(self.tables[r]) else None

    def player(self, i: int) -> int | None:
        return self.players[i] if i < len(self.players) else None


@dataclass
class TableRef:
    """One table as the checker sees it: its place, the manifest's line, the files."""

    index: int
    round: int
    table: int
    line: int | None
    players: list[str]
    result: str | None
    #: the slip's points per player, or None
    points: dict[str, float] | None
    #: one full log (absolute path), or None
    log: str | None
    #: player -> that seat's record (absolute path)
    seats: dict[str, str] | None

    def job(self) -> dict[str, Any]:
        """What a worker needs to check this table's logs."""
        return {"index": self.index, "log": self.log, "seats": self.seats}


@dataclass
class Tournament:
    path: str
    manifest: Manifest
    game: Any
    lines: Lines
    #: player -> registered deck list as card -> copies (games with deck lists)
    decks: dict[str, dict[str, int]]
    #: player -> the registered list as the game's ``deck_type`` (checked once against the construction rules)
    registered: dict[str, Any]
    #: player -> where the registered list is (``manifest.toml:12`` or the deck file)
    deck_where: dict[str, str]
    tables: list[TableRef]

    def where(self, line: int | None) -> str:
        return self.path if line is None else f"{self.path}:{line}"


def _err(path: str, line: int | None, message: str, fld: str | None = None) -> LogError:
    return LogError(path, line, message, fld)


def _convert(data: Any, path: str) -> Manifest:
    try:
        return msgspec.convert(data, Manifest)
    except msgspec.ValidationError as exc:
        text = str(exc)
        m = re.match(r"^(?P<msg>.*?)(?: - at `\$\.?(?P<at>[^`]*)`)?$", text, re.S)
        msg, at = (m.group("msg"), m.group("at")) if m else (text, None)
        fm = re.search(r"(missing required field|unknown field) `([^`]+)`", msg)
        if fm:
            at = f"{at}.{fm.group(2)}" if at else fm.group(2)
            msg = "required field is missing" if fm.group(1).startswith("missing") else "unknown field"
        return _raise_at(path, data, at, msg[:1].lower() + msg[1:])


def _raise_at(path: str, data: Any, at: str | None, msg: str) -> Any:
    """Raise the error of field path ``at`` (``rounds[2].tables[0].players``) with its line."""
    lines = Lines.scan(read_text(path, MAX_MANIFEST_BYTES)) if not is_json(path) else Lines()
    line = None
    if at:
        m = re.match(r"rounds\[(\d+)\](?:\.tables\[(\d+)\])?", at)
        if m:
            r = int(m.group(1))
            line = lines.table(r, int(m.group(2))) if m.group(2) else (lines.rounds[r] if r < len(lines.rounds) else None)
        m = re.match(r"players\[(\d+)\]", at)
        if m:
            line = lines.player(int(m.group(1)))
        m = re.match(r"rulings\[(\d+)\]", at)
        if m and int(m.group(1)) < len(lines.rulings):
            line = lines.rulings[int(m.group(1))]
    raise _err(path, line, msg, at)


def load(path: str | Path) -> Tournament:
    """Read and check a manifest: every refusal names file, line and field (exit 2)."""
    p = str(path)
    try:
        text = read_text(path, MAX_MANIFEST_BYTES)
        data = parse_text(text, path, max_bytes=MAX_MANIFEST_BYTES, max_tokens=MAX_MANIFEST_TOKENS)
    except DataError as exc:
        raise _err(exc.path, None, exc.reason) from None
    man = _convert(data, p)
    lines = Lines.scan(text) if not is_json(path) else Lines()
    try:
        game = registry.get(man.game)
    except AdjudicatorError as exc:
        raise _err(p, None, str(exc), "game") from None
    base = Path(p).parent  # the logs' paths as the manifest's path was given (relative stays relative)
    logs = base / man.logs if man.logs else base
    known: dict[str, int] = {}
    decks: dict[str, dict[str, int]] = {}
    registered: dict[str, Any] = {}
    deck_where: dict[str, str] = {}
    for i, ent in enumerate(man.players):
        where = f"players[{i}]"
        if ent.id in known:
            raise _err(p, lines.player(i), f"player {ent.id!r} is listed twice", f"{where}.id")
        known[ent.id] = i
        deck, deck_at = ent.deck, f"{p}:{lines.player(i)}" if lines.player(i) else p
        if ent.deck_file is not None:
            if deck is not None:
                raise _err(p, lines.player(i), "give deck or deck_file, not both", f"{where}.deck_file")
            f = base / ent.deck_file
            try:
                deck = read_data(f)
            except DataError as exc:
                raise _err(p, lines.player(i), f"{exc.path}: {exc.reason}", f"{where}.deck_file") from None
            deck_at = str(ent.deck_file)
        if deck is None:
            continue
        if game.deck_type is None:
            raise _err(p, lines.player(i), f"{game.id} has no deck lists", f"{where}.deck")
        try:
            registered[ent.id] = msgspec.convert(deck, game.deck_type)
            decks[ent.id] = game.deck_counts(registered[ent.id])
        except msgspec.ValidationError as exc:
            raise _err(p, lines.player(i), f"not a {game.id} deck list: {exc}", f"{where}.deck") from None
        deck_where[ent.id] = deck_at
    tables = _tables(p, man, lines, known, logs)
    _check_rounds(p, man, lines, known, tables)
    return Tournament(p, man, game, lines, decks, registered, deck_where, tables)


def _tables(p: str, man: Any, lines: Lines, known: dict[str, int], logs: Path) -> list[TableRef]:
    """The manifest's tables, in order, each checked against the players listed."""
    tables: list[TableRef] = []
    for r, rnd in enumerate(man.rounds):
        for t, tab in enumerate(rnd.tables):
            where, line = f"rounds[{r}].tables[{t}]", lines.table(r, t)
            for pl in tab.players:
                if pl not in known:
                    raise _err(p, line, f"unknown player {pl!r} (not in players)", f"{where}.players")
            for pl in [*(tab.seats or {}), *(tab.points or {})]:
                if pl not in tab.players:
                    raise _err(p, line, f"{pl!r} is not a player of this table",
                               f"{where}.{'seats' if pl in (tab.seats or {}) else 'points'}")
            if len(tables) >= MAX_TABLES:
                raise _err(p, line, f"more than {MAX_TABLES} tables", where)
            tables.append(TableRef(
                len(tables), rnd.round, tab.table, line, list(tab.players), tab.result, tab.points,
                None if tab.log is None else str(logs / tab.log),
                None if tab.seats is None else {pl: str(logs / f) for pl, f in tab.seats.items()}))
    return tables


def _check_rounds(p: str, man: Manifest, lines: Lines, known: dict[str, int], tables: list[TableRef]) -> None:
    """Byes, drops and rulings name known players, tables that exist and their results' players."""
    for r, rnd in enumerate(man.rounds):
        line = lines.rounds[r] if r < len(lines.rounds) else None
        for what in ("byes", "drops"):
            for pl in getattr(rnd, what):
                if pl not in known:
                    raise _err(p, line, f"unknown player {pl!r} (not in players)", f"rounds[{r}].{what}")
    at = {(t.round, t.table): t for t in tables}
    for i, ru in enumerate(man.rulings):
        where, line = f"rulings[{i}]", lines.rulings[i] if i < len(lines.rulings) else None
        ref = at.get((ru.round, ru.table))
        if ref is None:
            raise _err(p, line, f"round {ru.round} has no table {ru.table}", f"{where}.table")
        for pl in ru.players:
            if pl not in ref.players:
                raise _err(p, line, f"{pl!r} is not a player of round {ru.round} table {ru.table}", f"{where}.players")
        if ru.result is not None and ru.result.strip().lower() != "draw":
            for pl in _winners(ru.result):
                if pl not in ref.players:
                    raise _err(p, line, f"{pl!r} is not a player of round {ru.round} table {ru.table}",
                               f"{where}.result")


def ruled_outcomes(man: Manifest) -> dict[tuple[int, int], dict[str, Any]]:
    """(round, table) -> the outcome the last ruling with a result gives it."""
    out = {}
    for ru in man.rulings:
        if ru.result is not None:
            draw = ru.result.strip().lower() == "draw"
            out[(ru.round, ru.table)] = {"result": "draw" if draw else "win", "reason": "ruling",
                                         "winner": None if draw else "+".join(sorted(_winners(ru.result)))}
    return out


def standings(tour: Tournament, report: dict[str, Any]) -> dict[str, Any]:
    """The report's standings after every round (:func:`adjudicator.core.services.standings.compute`)."""
    man = tour.manifest
    return compute(report, man.scoring, [e.id for e in man.players],
                   {r.round: list(r.byes) for r in man.rounds if r.byes},
                   {r.round: list(r.drops) for r in man.rounds if r.drops}, ruled_outcomes(man))


# -- the report ------------------------------------------------------------------------------------

#: every kind of problem, in the order a table's problems are listed (docs/tournament.md)
KINDS = ("missing-log", "duplicate-log", "copied-log", "seated-twice", "table-mismatch", "unreadable", "error", "illegal",
         "seat-conflict", "undetermined", "unfinished", "result-mismatch", "no-result", "points-mismatch", "deck",
         "rematch", "unpaired", "registration")


@dataclass
class Problem:
    kind: str
    #: None: a finding of the event (``registration``)
    round: int | None
    #: None: a finding of the round, not of a table (``unpaired``)
    table: int | None
    #: the manifest's line of the table
    manifest_line: int | None
    message: str
    #: the log file and line the problem is at (None: the manifest's entry only)
    file: str | None = None
    line: int | None = None
    player: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round, "table": self.table, "manifest_line": self.manifest_line,
                "file": self.file, "line": self.line, "player": self.player, "message": self.message}


def _winners(text: str) -> frozenset[str]:
    return frozenset(x.strip() for x in text.split("+") if x.strip())


def describe_result(outcome: dict[str, Any] | None) -> str:
    if outcome is None:
        return "no result"
    if outcome.get("winner"):
        return f"{outcome['winner']} wins ({outcome['reason']})"
    return f"{outcome['result']} ({outcome['reason']})"


def result_matches(reported: str, outcome: dict[str, Any]) -> bool:
    if reported.strip().lower() == "draw":
        return outcome["result"] == "draw"
    return outcome["winner"] is not None and _winners(reported) == _winners(outcome["winner"])


class _Table:
    """The checks of one table, given its worker's document."""

    def __init__(self, tour: Tournament, ref: TableRef, doc: dict[str, Any], first_of: dict[str, TableRef],
                 played: dict[str, TableRef] | None = None):
        self.tour, self.ref, self.doc = tour, ref, doc
        self.first_of = first_of
        #: each match's random outcomes (fingerprint) -> the first table they were seen at
        self.played = {} if played is None else played
        self.problems: list[Problem] = []

    def add(self, kind: str, message: str, file: str | None = None, line: int | None = None,
            player: str | None = None) -> None:
        r = self.ref
        self.problems.append(Problem(kind, r.round, r.table, r.line, message, file, line, player))

    def run(self) -> list[Problem]:
        doc = self.doc
        for f in doc.get("missing", []):
            self.add("missing-log", "no such file" if f else "the table names no log (log or seats)", f or None)
        for f, h in doc.get("hashes", {}).items():
            first = self.first_of.get(h)
            if first is not None and first.index != self.ref.index:
                self.add("duplicate-log", f"the same log (sha256 {h[:16]}...) as round {first.round} "
                         f"table {first.table}'s ({first.log or ' + '.join((first.seats or {}).values())})", f)
                return self.problems  # its checks belong to the first table it was submitted at
        v = doc.get("verdict")
        if v is None:
            return self.problems
        if v["verdict"] in ("unreadable", "error"):
            line = _line_of(v["error"], v["path"])
            text = re.sub("^" + re.escape(f"{v['path']}:{line}: " if line else f"{v['path']}: "), "", v["error"])
            self.add(v["verdict"], text, v["path"], line)
            return self.problems
        if not self._matches() or self._copied():
            return self.problems
        conflicts = doc.get("contradictions", [])
        if conflicts:  # one problem: the later disagreements follow from the first
            c, more = conflicts[0], len(conflicts) - 1
            later = "" if not more else (f" (and {more} later disagreement{'s' if more > 1 else ''} following from it, "
                                         f"first at line {conflicts[1]['line']})")
            self.add("seat-conflict", c["message"] + later, c["file"], c["line"])
        if v["verdict"] == "illegal":
            first = v["violations"][0]
            said = f" ({first['event']})" if first.get("event") else ""
            self.add("illegal", f"event {first['seq']}{said}: {first['rule']} [{first['code']}] {first['message']}",
                     v["path"], first["line"])
        elif v["verdict"] == "undetermined" and not doc.get("partial"):
            first = v["undetermined"][0]
            self.add("undetermined", f"event {first['seq']}: legal if {first['condition']}", v["path"], first["line"])
        if v["verdict"] != "illegal" and not conflicts:  # contradictory records confirm no result
            self._result(v)
        self._decks()
        return self.problems

    def _matches(self) -> bool:
        """Is the log this table's match (game, players, pool or board)?"""
        doc, ref, man = self.doc, self.ref, self.tour.manifest
        v = doc["verdict"]
        why = []
        if v["game"] != man.game:
            why.append(f"it is a {v['game']} match, the event is {man.game}")
        if sorted(doc.get("players", [])) != sorted(ref.players):
            why.append(f"its players are {', '.join(doc.get('players', []))}, the table's {', '.join(ref.players)}")
        for d in v.get("data", []):
            want = man.pool if d["kind"] == "pool" else man.board
            if want is not None and d["id"] != want:
                why.append(f"it names {d['kind']} {d['id']!r}, the event's is {want!r}")
        if why:
            self.add("table-mismatch", "the log is not this table's match: " + "; ".join(why), v["path"], 1)
        return not why

    def _copied(self) -> bool:
        """Is the log another table's match (the same random outcomes in the same order, at least
        :data:`MIN_OUTCOMES` of them, each player named by seat)?  Two matches played apart do
        not deal, draw and roll the same 20 or more outcomes in the same order, whoever plays
        them: a copy, with its players renamed or not (the log of an earlier meeting of the same
        players submitted for a rematch, or for another round).  One finding naming that table;
        the copy's other checks (its cards against the lists, its result) are that match's."""
        seen = self.doc.get("outcomes")
        if not seen or seen["outcomes"] < MIN_OUTCOMES:
            return False
        first = self.played.setdefault(seen["sha256"], self.ref)
        if first is self.ref:
            return False
        same = set(first.players) == set(self.ref.players)
        self.add("copied-log", f"the same match as round {first.round} table {first.table}'s "
                 f"({', '.join(first.players)}){'' if same else ', its players renamed'}: the same "
                 f"{seen['outcomes']} random outcomes in the same order", self.doc["verdict"]["path"])
        return True

    def _result(self, v: dict[str, Any]) -> None:
        reported = self.ref.result
        if v.get("stopped_at") is not None:
            s = v["stopped_at"]
            who = ", ".join(s["to_act"]) or "no one"
            self.add("unfinished", f"the log stops at event {s['event']} (turn {s['turn']}: {who} to act) "
                     "before the match ended", v["path"], v.get("last_line"))
            return
        if reported is None:
            self.add("no-result", f"no result reported; the log says {describe_result(v['outcome'])}", v["path"])
        elif v["outcome"] is not None and not result_matches(reported, v["outcome"]):
            self.add("result-mismatch", f"reported {reported!r}, the log says {describe_result(v['outcome'])}",
                     v["path"], v.get("end_line"))
        if self.ref.points is not None and v["outcome"] is not None:
            want = table_points(self.tour.manifest.scoring, self.ref.players, v["outcome"])
            slip = {p: self.ref.points.get(p) for p in self.ref.players}
            if any((got := slip[p]) is None or abs(got - float(want[p])) > 1e-9 for p in self.ref.players):
                show = ", ".join(f"{p} {float(want[p]):g}" for p in self.ref.players)
                gave = ", ".join(f"{p} {x:g}" if x is not None else f"{p} nothing" for p, x in slip.items())
                said = describe_result(v["outcome"])
                self.add("points-mismatch", f"the slip gives {gave}; the log's result ({said}) scores {show}",
                         v["path"], v.get("end_line"))

    def _decks(self) -> None:
        tour, doc = self.tour, self.doc
        v = doc["verdict"]
        for player, counts in sorted(doc.get("decks", {}).items()):
            registered = tour.decks.get(player)
            if registered is None:
                continue
            seen = doc.get("first_use", {}).get(player, {})
            for card, n in sorted(counts.items()):
                have = registered.get(card, 0)
                if n <= have:
                    continue
                line = seen.get(card)
                how = f"first seen used at line {line}" if line is not None else "in its deck list"
                what = "is not on" if have == 0 else f"has {n} copies, more than the {have} of"
                self.add("deck", f"{player}'s {card} ({how}) {what} the list {player} registered "
                         f"({tour.deck_where[player]})", v["path"], line if line is not None else 1, player)
        # a card seen that the log's own list of its owner does not name (a seat's record masks the
        # other seat's list): checked against the owner's registered list as it is seen; one first
        # seen at or after the log's first illegal event is that event's problem (an impossible card)
        stop = v["violations"][0]["line"] if v["verdict"] == "illegal" and v["violations"] else None
        for player, seen in sorted(doc.get("first_use", {}).items()):
            registered, listed = tour.decks.get(player), doc.get("decks", {}).get(player, {})
            if registered is None:
                continue
            for card, line in sorted(seen.items(), key=lambda x: (x[1], x[0])):
                if card not in listed and registered.get(card, 0) == 0 and (stop is None or line < stop):
                    self.add("deck", f"{player}'s {card} (first seen at line {line}) is not on the list {player} "
                             f"registered ({tour.deck_where[player]})", v["path"], line, player)


#: a log's random outcomes are compared with other tables' only when it has this many (fewer
#: could be alike by chance: a few die rolls)
MIN_OUTCOMES = 20


def _line_of(error: str, path: str) -> int | None:
    m = re.match(re.escape(path) + r":(\d+):", error)
    return int(m.group(1)) if m else None


def assess(tour: Tournament, docs: list[dict[str, Any]]) -> dict[str, Any]:
    """The report: per table its verdict and problems, per player their tables, rulings and
    penalties, and the counts; ``docs`` are the tables' documents in table order."""
    by_index = {d["index"]: d for d in docs}
    first_of = _first_tables(tour, by_index)
    played: dict[str, TableRef] = {}
    problems: list[Problem] = []
    seated: dict[tuple[int, str], TableRef] = {}
    met: dict[frozenset[str], TableRef] = {}
    tables_out: list[dict[str, Any]] = []
    players: dict[str, dict[str, Any]] = {e.id: {"id": e.id, "name": e.name, "tables": [], "rulings": [],
                                                  "penalties": [], "problems": 0} for e in tour.manifest.players}
    registrations = _registrations(tour)
    broken = {p.player for p in registrations}
    for ref in tour.tables:
        mine = _seated_twice(tour, ref, seated) + _rematch(tour, ref, met)
        doc = on_play(tour, by_index.get(ref.index, {"index": ref.index}), broken)
        by_index[ref.index] = doc
        mine += _Table(tour, ref, doc, first_of, played).run()
        mine.sort(key=lambda p: KINDS.index(p.kind))
        problems += mine
        v = doc.get("verdict")
        status = _status(v, mine)
        rulings = [] if v is None else v.get("rulings", [])
        _log_rulings(ref, v, rulings, players)
        for pl in ref.players:
            players[pl]["tables"].append({"round": ref.round, "table": ref.table})
            players[pl]["problems"] += sum(1 for p in mine if p.player in (None, pl))
        tables_out.append(_table_out(ref, doc, status, mine, rulings))
    _penalties(tour, tables_out, by_index)
    _carried_over(tour, tables_out)
    _outside_rulings(tour, players)
    event_problems = registrations + _unpaired(tour, seated)
    for p in event_problems:
        players[p.player or ""]["problems"] += 1
    problems += event_problems
    counts: dict[str, int] = {}
    for p in problems:
        counts[p.kind] = counts.get(p.kind, 0) + 1
    man = tour.manifest
    report = {"tournament": {"name": man.name, "dates": man.dates, "game": man.game, "pool": man.pool,
                             "board": man.board, "manifest": tour.path},
              "tables": tables_out, "players": list(players.values()),
              "event_problems": [p.as_dict() for p in event_problems],
              # the deck lists players registered (card -> copies): the service's new-match form offers them
              "registered_decks": dict(sorted(tour.decks.items())),
              "summary": {"tables": len(tour.tables), "rounds": len(man.rounds), "players": len(man.players),
                          "problems": len(problems), "by_kind": {k: counts[k] for k in KINDS if k in counts},
                          "status": _count(t["status"] for t in tables_out)}}
    report["standings"] = standings(tour, report)
    return report


def _table_out(ref: TableRef, doc: dict[str, Any], status: str, mine: list[Problem],
               rulings: list[dict[str, Any]]) -> dict[str, Any]:
    """One table's entry in the report."""
    v = doc.get("verdict")
    return {
        "round": ref.round, "table": ref.table, "manifest_line": ref.line, "players": ref.players,
        "log": ref.log, "seats": ref.seats, "reported": ref.result, "status": status,
        "badge": badge(status, mine),
        "verdict": None if v is None else v["verdict"], "complete": None if v is None else v.get("complete"),
        # records that contradict each other confirm no outcome (the first one's is not the table's)
        "outcome": None if v is None or doc.get("contradictions") else v.get("outcome"),
        "events": None if v is None else v.get("events"),
        "seat_verdicts": doc.get("seat_verdicts", {}),
        "rulings": rulings,
        "problems": [p.as_dict() for p in mine],
    }


def _first_tables(tour: Tournament, by_index: dict[int, dict[str, Any]]) -> dict[str, TableRef]:
    """Each file content (sha256) -> the first table it was submitted at (a later one: a duplicate)."""
    first_of: dict[str, TableRef] = {}
    for ref in tour.tables:
        for h in by_index.get(ref.index, {}).get("hashes", {}).values():
            first_of.setdefault(h, ref)
    return first_of


def on_play(tour: Tournament, doc: dict[str, Any], broken: set[str | None]) -> dict[str, Any]:
    """``doc`` judged on its play where its only fault at the set-up is a registered list that
    breaks the construction rules: that is the player's ``registration`` finding (once, of the
    event), not one ``illegal`` per log at line 1 that would hide the table's result.  It is so
    when every deck list of the log is the one its player registered and one of those players'
    registration is broken (``broken``); the verdict is then the worker's ``--keep-going`` one
    (``on_play``) without the set-up's violations."""
    v = doc.get("verdict")
    if v is None or v.get("verdict") != "illegal" or v["violations"][0]["seq"] != 1:
        return doc
    decks = doc.get("decks", {})
    if not any(p in broken for p in decks) or any(d != tour.decks.get(p) for p, d in decks.items()):
        return doc
    play = doc.get("on_play", v)
    rest = [x for x in play["violations"] if x["seq"] != 1]
    verdict = "illegal" if rest else ("undetermined" if play.get("undetermined") else "legal")
    return {**doc, "verdict": {**play, "verdict": verdict, "violations": rest}}


def _seated_twice(tour: Tournament, ref: TableRef, seated: dict[tuple[int, str], TableRef]) -> list[Problem]:
    """A player of ``ref`` already seated at another table of its round (named at the second)."""
    out = []
    for pl in ref.players:
        other = seated.get((ref.round, pl))
        if other is not None:
            out.append(Problem("seated-twice", ref.round, ref.table, ref.line,
                               f"{pl} is also seated at table {other.table} of round {ref.round} "
                               f"({tour.where(other.line)})", None, None, pl))
        else:
            seated[(ref.round, pl)] = ref
    return out


def _log_rulings(ref: TableRef, v: Any, rulings: list[dict[str, Any]], players: dict[str, dict[str, Any]]) -> None:
    """A table's judges' rulings under the players they name (all its players when none)."""
    for r in rulings:
        who = r["ruling"].get("player")
        entry = {"round": ref.round, "table": ref.table, "file": v["path"], "line": r["line"], "text": r["text"]}
        for pl in ([who] if who in players else ref.players):
            players[pl]["rulings"].append(entry)
        if r["ruling"]["decision"] == "penalty" and who in players:
            players[who]["penalties"].append(entry)


def _outside_rulings(tour: Tournament, players: dict[str, dict[str, Any]]) -> None:
    """The rulings made outside any log (the manifest's ``[[rulings]]``), under the players they name."""
    for i, ru in enumerate(tour.manifest.rulings):
        line = tour.lines.rulings[i] if i < len(tour.lines.rulings) else None
        said = "; ".join(x for x in (f"result {ru.result}" if ru.result else "",
                                     f"penalty {ru.penalty}" if ru.penalty else "", ru.grounds) if x)
        entry = {"round": ru.round, "table": ru.table, "file": tour.path, "line": line, "text": f"ruling: {said}"}
        named = ru.players or next(t.players for t in tour.tables if (t.round, t.table) == (ru.round, ru.table))
        for pl in named:
            players[pl]["rulings"].append(entry)
            if ru.penalty:
                players[pl]["penalties"].append(entry)


#: the badge of a table, worst first: its status or a problem's kind (docs/tournament.md, "The report")
SEVERITY = ("error", "unreadable", "illegal", "missing", "missing-log", "table-mismatch", "duplicate-log", "copied-log",
            "seat-conflict", "seated-twice", "result-mismatch", "points-mismatch", "deck", "unfinished",
            "undetermined", "no-result", "rematch", "legal")


def badge(status: str, problems: list[Problem]) -> str:
    """The worst of the table's status and its problems' kinds: a legal log whose reported
    result or deck list is wrong does not wear a "legal" badge."""
    return min([status, *(p.kind for p in problems)], key=lambda k: SEVERITY.index(k) if k in SEVERITY else 0)


def _penalties(tour: Tournament, tables: list[dict[str, Any]], docs: dict[int, dict[str, Any]]) -> None:
    """Each table's ``penalties``: per illegal event (the verdict's violations, in order), the
    player whose event it is and what it earns under the manifest's rule."""
    rule = tour.manifest.penalties
    counts: dict[Any, int] = {}
    for ref, tab in zip(tour.tables, tables):
        tab["penalties"] = []
        v = docs.get(ref.index, {}).get("verdict")
        if rule.rule == "none" or v is None or v.get("verdict") != "illegal" or tab["status"] != "illegal":
            continue
        who = docs[ref.index].get("violators", {})
        for x in v["violations"]:
            player = who.get(str(x["line"]))
            if player is None:
                continue  # an event of no player's (a random outcome): no one's penalty
            key = (player, ref.index) if rule.scope == "game" else player
            counts[key] = counts.get(key, 0) + 1
            tab["penalties"].append({"player": player, "seq": x["seq"], "line": x["line"], "file": v["path"],
                                     "rule": x["rule"], "penalty": "warning" if counts[key] == 1 else "game-loss"})


def _carried_over(tour: Tournament, tables: list[dict[str, Any]]) -> None:
    """With ``penalties.carry_over``: each game loss a ruling outside the logs gives, added to the
    penalties of the player's next table (the first of a later round), which it decides."""
    if not tour.manifest.penalties.carry_over:
        return
    for i, ru in enumerate(tour.manifest.rulings):
        if (ru.penalty or "").strip().lower() != "game-loss":
            continue
        line = tour.lines.rulings[i] if i < len(tour.lines.rulings) else None
        named = ru.players or next(t.players for t in tour.tables if (t.round, t.table) == (ru.round, ru.table))
        for pl in named:
            nxt = next((t for t in tables if t["round"] > ru.round and pl in t["players"]), None)
            if nxt is not None:
                nxt["penalties"].append({"player": pl, "seq": None, "line": line, "file": tour.path,
                                         "rule": f"carried over from the ruling on round {ru.round} table {ru.table}",
                                         "penalty": "game-loss", "carried_from": {"round": ru.round, "table": ru.table}})


def _rematch(tour: Tournament, ref: TableRef, met: dict[frozenset[str], TableRef]) -> list[Problem]:
    """The same players at one table again, in a later round (``rematches = "allowed"``: never)."""
    key = frozenset(ref.players)
    prev = met.setdefault(key, ref)
    if len(key) < 2 or prev is ref or prev.round == ref.round or tour.manifest.rematches == "allowed":
        return []
    return [Problem("rematch", ref.round, ref.table, ref.line,
                    f"{' and '.join(ref.players)} already met at round {prev.round} table {prev.table} "
                    f"({tour.where(prev.line)})")]


def _registrations(tour: Tournament) -> list[Problem]:
    """Each registered list checked once against the game's construction rules (the game's
    set-up check, the list in a sample set-up's first seat, the event's pool): one finding per
    player whose list breaks them, at the player's entry, never one per log."""
    game, out = tour.game, []
    for i, ent in enumerate(tour.manifest.players):
        deck = tour.registered.get(ent.id)
        if deck is None:
            continue
        setup = game.sample_setup(0)
        seat = setup.players[0]
        setup = msgspec.structs.replace(setup, decks={**setup.decks, seat: deck})
        if tour.manifest.pool is not None and hasattr(setup, "pool"):
            setup = msgspec.structs.replace(setup, pool=tour.manifest.pool)
        try:
            game.check_setup(setup)
        except Illegal as x:
            why = re.sub(rf"\b{re.escape(seat)}'s\b", "the", str(x))
            out.append(Problem("registration", None, None, tour.lines.player(i),
                               f"{ent.id}'s registered list ({tour.deck_where[ent.id]}): {x.rule} [{x.code}] {why}",
                               None, None, ent.id))
        except (Undetermined, AdjudicatorError):
            continue  # a list whose legality turns on what a sample cannot show: the logs' checks stand
    return out


def _unpaired(tour: Tournament, seated: dict[tuple[int, str], TableRef]) -> list[Problem]:
    """Each player neither seated nor given a bye in a round, who had not dropped before it:
    one finding of the round (its manifest line), no table."""
    out, gone = [], set()
    for r, rnd in enumerate(tour.manifest.rounds):
        line = tour.lines.rounds[r] if r < len(tour.lines.rounds) else None
        for e in tour.manifest.players:
            if e.id not in gone and (rnd.round, e.id) not in seated and e.id not in rnd.byes:
                out.append(Problem("unpaired", rnd.round, None, line,
                                   f"{e.id} is neither seated nor given a bye in round {rnd.round}",
                                   None, None, e.id))
        gone |= set(rnd.drops)
    return out


def _count(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return dict(sorted(out.items()))


def _status(v: dict[str, Any] | None, problems: list[Problem]) -> str:
    """One word per table for the report's badge: ``missing``, ``unreadable``, ``illegal``,
    ``unfinished``, ``undetermined``, ``legal``."""
    if v is None:
        return "missing"
    if v["verdict"] in ("unreadable", "error", "illegal", "undetermined"):
        return v["verdict"]
    if v.get("stopped_at") is not None:
        return "unfinished"
    return "legal"
