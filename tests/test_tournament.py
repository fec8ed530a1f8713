"""``adjudicator tournament check``: a generated event with one planted problem of each kind is
reported exactly (every planted problem with its table and line, nothing else), in every game."""

from __future__ import annotations

import csv
import io
import json

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.services.tournament import KINDS, manifest_schema

from .tournament_gen import ALL_PLANTS, DESK_PLANTS, REPORTED, generate


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def co(tmp_path_factory):
    """64 players, 6 rounds of Colossus Order, seat records at every fifth table, one of each problem
    kind of the report (issue 31's desk: all but ``error``, an internal error no log can plant)."""
    return generate(tmp_path_factory.mktemp("co"), "colossus-order", players=64, rounds=6, plant=DESK_PLANTS)


def _found(report):
    every = [p for t in report["tables"] for p in t["problems"]] + report["event_problems"]
    return sorted((p["kind"], p["round"], p["table"] or 0, p["manifest_line"], p["file"], p["line"]) for p in every)


def _planted(gen):
    return sorted((p.kind, p.round, p.table or 0, p.manifest_line, p.file, p.line) for p in gen.planted)


def test_every_planted_problem_is_found_with_its_table_and_line_and_nothing_else(co):
    r = invoke("tournament", "check", "--json", co.manifest, "--jobs", "1")
    assert r.exit_code == 1, r.output
    report = json.loads(r.output)
    # the player the seated-twice plant took off a table is unpaired (issue 31)
    assert {p.kind for p in co.planted} == {REPORTED.get(k, k) for k in DESK_PLANTS} | {"unpaired"} == set(KINDS) - {"error"}
    assert _found(report) == _planted(co)
    s = report["summary"]
    assert (s["players"], s["rounds"], s["tables"]) == (64, 6, co.tables) and s["problems"] == len(co.planted)
    # some tables were seats' records, reconciled to one legal log
    seated = [t for t in report["tables"] if t["seats"] and not t["problems"]]
    assert seated and all(t["verdict"] == "legal" and set(t["seat_verdicts"]) == set(t["players"]) for t in seated)
    # the player whose registered list breaks the construction rules played it: one finding of the
    # event, and each of their logs judged on its play (legal, its result compared), not illegal at line 1
    reg = next(p for p in co.planted if p.kind == "registration")
    theirs = [t for t in report["tables"] if reg.player in t["players"]]
    assert len(theirs) == 6 and all(t["status"] == "legal" and t["outcome"] and not t["problems"] for t in theirs)
    assert any(t["seats"] for t in theirs)  # (one of them a table of seats' records: reconciled, judged on play)
    # records that contradict each other confirm no result: no outcome, disputed in the standings
    conflict = next(p for p in co.planted if p.kind == "seat-conflict")
    tab = next(t for t in report["tables"] if (t["round"], t["table"]) == (conflict.round, conflict.table))
    assert tab["outcome"] is None
    assert (conflict.round, conflict.table) in {(d["round"], d["table"]) for d in report["standings"]["rounds"][-1]["disputed"]}
    # the player seated twice is named
    twice = next(p for t in report["tables"] for p in t["problems"] if p["kind"] == "seated-twice")
    assert twice["player"] == next(p.player for p in co.planted if p.kind == "seated-twice")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_broken_list_played_at_seats_records_is_the_one_registration_finding(tmp_path, seed):
    """The two seats' records of a table where a registered list that breaks the construction
    rules is played: each record's set-up is refused on its own, the records do not contradict
    each other; the reconciled match is judged on its play and its reported result compared."""
    gen = generate(tmp_path, "colossus-order", players=8, rounds=1, plant=("registration",), seed=seed,
                   penalty=False, seat_every=0)
    reg, = gen.planted
    report = json.loads(invoke("tournament", "check", "--json", gen.manifest).output)
    assert _found(report) == _planted(gen)
    tab, = [t for t in report["tables"] if reg.player in t["players"]]
    assert tab["seats"] and tab["status"] == "legal" and tab["outcome"]["winner"] == tab["reported"]
    assert not tab["problems"] and report["summary"]["by_kind"] == {"registration": 1}
    # a result reported wrong at that table is still found (the table is judged, not hidden at line 1)
    text = gen.manifest.read_text()
    loser = next(p for p in tab["players"] if p != tab["reported"])
    gen.manifest.write_text(text.replace(f'{tab["seats"][tab["players"][1]].rsplit("/", 1)[-1]}" }}\nresult = "{tab["reported"]}"',
                                         f'{tab["seats"][tab["players"][1]].rsplit("/", 1)[-1]}" }}\nresult = "{loser}"'))
    report = json.loads(invoke("tournament", "check", "--json", gen.manifest).output)
    assert report["summary"]["by_kind"] == {"registration": 1, "result-mismatch": 1}


def test_the_desk_swiss_standings_equal_a_simple_computation_every_round(co):
    """The standings of the event with every kind planted, against the tests' own simple
    computation (tests/test_standings.py): each disputed table left out, nothing counted twice."""
    from .test_standings import _rows, simple

    report = json.loads(invoke("tournament", "check", "--json", co.manifest, "-j", "1").output)
    assert _rows(report) == simple(report, 3, 1, 0, 3, ["omw", "gw", "ogw"], {}, {}, {})
    final = report["standings"]["rounds"][-1]
    named = {(d["round"], d["table"]) for d in final["disputed"]}
    counted = {"deck", "no-result", "rematch", "registration", "unpaired"}  # (the result stands)
    want = {(p.round, p.table) for p in co.planted if p.table is not None and p.kind not in counted}
    assert named == want


def test_the_judges_penalty_is_reported_per_player_and_is_no_problem(co):
    report = json.loads(invoke("tournament", "check", "--json", co.manifest).output)
    rnd, table, player, path, line = co.penalty
    who = next(p for p in report["players"] if p["id"] == player)
    assert [(x["round"], x["table"], x["file"], x["line"]) for x in who["penalties"]] == [(rnd, table, path, line)]
    assert "slow play" in who["penalties"][0]["text"]
    tab = next(t for t in report["tables"] if (t["round"], t["table"]) == (rnd, table))
    assert tab["problems"] == [] and tab["status"] == "legal"


def test_text_csv_and_jobs_give_the_same_findings(co):
    one = json.loads(invoke("tournament", "check", "--json", co.manifest, "-j", "1").output)
    two = json.loads(invoke("tournament", "check", "--json", co.manifest, "-j", "2").output)
    assert one == two
    text = invoke("tournament", "check", co.manifest).output
    for p in co.planted:
        if p.round is None:
            assert f"\n{p.kind}: {p.player}'s " in text
        else:
            assert f"round {p.round} table {p.table} " in text if p.table else f"round {p.round}: {p.kind}: " in text
        if p.line is not None:
            assert f"{p.kind}: {p.file}:{p.line}: " in text
    assert f"{len(co.planted)} problems" in text
    assert "judges' rulings by player:" in text
    rows = list(csv.DictReader(io.StringIO(invoke("tournament", "check", "--csv", co.manifest).output)))
    assert len(rows) == co.tables
    marked = {(int(r["round"]), int(r["table"])): r["kinds"] for r in rows if r["kinds"]}
    want: dict = {}
    for p in sorted((p for p in co.planted if p.table), key=lambda p: KINDS.index(p.kind)):
        want[(p.round, p.table)] = (want.get((p.round, p.table), "") + " " + p.kind).strip()
    assert marked == want
    assert {r["status"] for r in rows} >= {"legal", "illegal", "unfinished", "missing", "unreadable"}


@pytest.mark.parametrize("game_id,table_size,plant", [
    ("logos", 2, ("result-mismatch", "deck", "unfinished")),
    ("kolossus", 4, ("result-mismatch",)),
    ("colossi", 4, ("result-mismatch", "unfinished")),
])
def test_a_tournament_in_every_other_game(tmp_path, game_id, table_size, plant):
    gen = generate(tmp_path, game_id, players=8, rounds=4, table_size=table_size, plant=plant, seat_every=3)
    r = invoke("tournament", "check", "--json", gen.manifest)
    assert r.exit_code == 1, r.output
    report = json.loads(r.output)
    assert report["summary"]["rounds"] == 4 and report["summary"]["tables"] == gen.tables
    assert _found(report) == _planted(gen)


def test_a_clean_tournament_exits_0(tmp_path):
    """(Three rounds: four players meet each other once; a fourth would be a rematch.)"""
    gen = generate(tmp_path, "logos", players=4, rounds=3, plant=(), penalty=False)
    r = invoke("tournament", "check", gen.manifest)
    assert r.exit_code == 0, r.output
    assert "0 problems (none)" in r.output


def _manifest(tmp_path, body):
    p = tmp_path / "m.toml"
    p.write_text(body)
    return p


BASE = """name = "x"
game = "logos"

[[players]]
id = "ann"

[[players]]
id = "ben"

[[rounds]]
round = 1

[[rounds.tables]]
table = 1
players = ["ann", "ben"]
log = "a.jsonl"
"""


@pytest.mark.parametrize("edit,where,field", [
    (lambda b: b.replace('players = ["ann", "ben"]', 'players = ["ann", "cid"]'), ":13:", "rounds[0].tables[0].players"),
    (lambda b: b.replace('log = "a.jsonl"', 'log = "a.jsonl"\nwinner = "ann"'), ":13:", "rounds[0].tables[0].winner"),
    (lambda b: b.replace('id = "ben"', 'id = "ben"\ndeck = { "no-such-card" = "two" }'), ":7:", "players[1].deck"),
    (lambda b: b.replace('id = "ben"', 'id = "ann"'), ":7:", "players[1].id"),
    (lambda b: b.replace('game = "logos"', 'game = "chess"'), "m.toml:", "game"),
])
def test_an_unreadable_manifest_names_file_line_and_field(tmp_path, edit, where, field):
    r = invoke("tournament", "check", _manifest(tmp_path, edit(BASE)))
    assert r.exit_code == 2, r.output
    assert where in r.output and f"{field}:" in r.output and "Traceback" not in r.output


def test_a_manifest_that_is_not_toml_is_unreadable(tmp_path):
    r = invoke("tournament", "check", _manifest(tmp_path, "name = \n"))
    assert r.exit_code == 2 and "not valid TOML" in r.output


def test_the_schema_describes_the_manifest():
    r = invoke("tournament", "schema")
    assert r.exit_code == 0
    assert json.loads(r.output) == manifest_schema()
    defs = manifest_schema()["$defs"]
    assert set(defs["Table"]["properties"]) == {"table", "players", "log", "seats", "result", "points"}


def test_every_kind_is_documented():
    text = open("docs/tournament.md").read()
    for kind in KINDS:
        assert f"`{kind}`" in text, kind


@pytest.fixture
def example(tmp_path):
    """The README's example event (examples/tournament/), its logs made from the examples."""
    import shutil

    from adjudicator.core.kernel.log import read_log
    from tests.test_readme import ROOT

    ev = tmp_path / "event"
    shutil.copytree(ROOT / "examples" / "tournament", ev)
    co = ROOT / "examples" / "colossus-order"
    shutil.copy(co / "legal-judge-stands.jsonl", ev / "r3-t1.jsonl")
    lines = (co / "legal-gem-complete.jsonl").read_bytes().splitlines(keepends=True)
    (ev / "r4-t1.jsonl").write_bytes(b"".join(lines[:60]))
    log = read_log(co / "legal-judge-taken-back.jsonl")
    for p in ("alice", "bob"):
        (ev / f"r2-t1-{p}.jsonl").write_bytes(b"".join(
            msgspec.json.encode(log.game.redact(e, p)) + b"\n" for _l, e in log.events))
    return ev


def test_a_missing_seat_record_is_named_and_the_other_seat_judged_alone(example):
    (example / "r2-t1-bob.jsonl").unlink()
    report = json.loads(invoke("tournament", "check", "--json", example / "manifest.toml").output)
    r2 = report["tables"][1]
    assert [(p["kind"], p["file"]) for p in r2["problems"]] == [("missing-log", str(example / "r2-t1-bob.jsonl"))]
    assert r2["seat_verdicts"].keys() == {"alice"} and r2["outcome"]["winner"] == "alice"


def test_the_same_seat_records_at_two_tables_are_a_duplicate(example):
    text = (example / "manifest.toml").read_text()
    (example / "manifest.toml").write_text(text.replace('log = "r1-t1.jsonl"', 'seats = { alice = "r2-t1-alice.jsonl", bob = "r2-t1-bob.jsonl" }'))
    report = json.loads(invoke("tournament", "check", "--json", example / "manifest.toml").output)
    kinds = [(t["round"], [p["kind"] for p in t["problems"]]) for t in report["tables"]]
    assert kinds == [(1, []), (2, ["duplicate-log"]), (3, ["result-mismatch"]), (4, ["unfinished"])]


@pytest.mark.parametrize("args,message", [
    (["--json", "--csv"], "give --json or --csv, not both"),
    (["--replays", "somewhere"], "--replays goes with --html FILE"),
])
def test_usage_errors(example, args, message):
    r = invoke("tournament", "check", example / "manifest.toml", *args)
    assert r.exit_code == 2 and message in r.output


def test_an_unwritable_html_file_is_a_usage_error(example):
    r = invoke("tournament", "check", example / "manifest.toml", "--html", example / "no" / "such" / "dir.html")
    assert r.exit_code == 2 and "cannot write" in r.output and "Traceback" not in r.output
