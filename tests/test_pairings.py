"""Pairings and results in and out (issue 31): a spreadsheet's CSV and FIDE's TRF16 import into a
manifest and export from it with nothing lost, and every bad row is refused with its line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main

from .tournament_gen import generate


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    return generate(tmp_path_factory.mktemp("pairings"), "logos", players=8, rounds=3, plant=(), penalty=False)


def _pairings(manifest):
    """Per round: each table's players (as a set) and result, and the byes."""
    from adjudicator.core.services.tournament import load

    man = load(manifest).manifest
    return {r.round: (sorted((sorted(t.players), t.result) for t in r.tables), sorted(r.byes)) for r in man.rounds}


def test_csv_round_trip_and_the_imported_event_checks_the_same(event):
    d = event.manifest.parent
    out = invoke("tournament", "export-pairings", event.manifest)
    assert out.exit_code == 0, out.output
    (d / "pairings.csv").write_text(out.output)
    r = invoke("tournament", "import-pairings", d / "pairings.csv", "--manifest", event.manifest, "-o", d / "in.toml")
    assert r.exit_code == 0, r.output
    assert "8 players, 3 rounds, 12 tables" in r.output
    again = invoke("tournament", "export-pairings", d / "in.toml")
    assert again.output == out.output
    assert _pairings(d / "in.toml") == _pairings(event.manifest)
    one = json.loads(invoke("tournament", "check", "--json", event.manifest, "-j", "1").output)
    two = json.loads(invoke("tournament", "check", "--json", d / "in.toml", "-j", "1").output)
    assert [(t["round"], t["table"], t["status"], t["problems"]) for t in two["tables"]] == \
        [(t["round"], t["table"], t["status"], t["problems"]) for t in one["tables"]]
    assert two["standings"]["rounds"] == one["standings"]["rounds"]


def test_trf_round_trip(event):
    d = event.manifest.parent
    trf = invoke("tournament", "export-pairings", event.manifest, "--format", "trf")
    assert trf.exit_code == 0, trf.output
    (d / "event.trf").write_text(trf.output)
    r = invoke("tournament", "import-pairings", d / "event.trf", "--manifest", event.manifest, "-o", d / "trf.toml")
    assert r.exit_code == 0, r.output
    assert _pairings(d / "trf.toml") == _pairings(event.manifest)
    assert invoke("tournament", "export-pairings", d / "trf.toml", "--format", "trf").output == trf.output
    # the same tables as the manifest's: its table numbers, seat order and logs kept, so it checks the same
    one = json.loads(invoke("tournament", "check", "--json", event.manifest, "-j", "1").output)
    two = json.loads(invoke("tournament", "check", "--json", d / "trf.toml", "-j", "1").output)
    assert [(t["round"], t["table"], t["players"], t["status"]) for t in two["tables"]] == \
        [(t["round"], t["table"], t["players"], t["status"]) for t in one["tables"]]


def _trf_line(rank, name, rounds):
    head = f"001 {rank:>4}      {name:<33} {'':>4} {'':>3} {'':>11} {'':>10} {'':>4} {'':>4}"
    return head + "".join(f"  {b}" for b in rounds)


def test_a_hand_written_trf_file(tmp_path):
    """Columns as FIDE's TRF16 sets them: rank 5-8, name 15-47, round blocks from column 92."""
    lines = ["012 Club Swiss", "062 3",
             _trf_line(1, "Ann Archer", ["   2 w 1", "   3 b ="]),
             _trf_line(2, "Ben Bishop", ["   1 b 0", "0000 - F"]),
             _trf_line(3, "Cid Castle", ["0000 - U", "   1 w ="])]
    assert lines[2][91:99] == "   2 w 1"  # column 92 is index 91
    (tmp_path / "club.trf").write_text("\n".join(lines) + "\n")
    r = invoke("tournament", "import-pairings", tmp_path / "club.trf", "--game", "logos", "--name", "Club Swiss",
               "-o", tmp_path / "m.toml")
    assert r.exit_code == 0, r.output
    from adjudicator.core.services.tournament import load

    man = load(tmp_path / "m.toml").manifest
    assert [(e.id, e.name) for e in man.players] == [("ann-archer", "Ann Archer"), ("ben-bishop", "Ben Bishop"),
                                                    ("cid-castle", "Cid Castle")]
    assert [[(t.table, t.players, t.result) for t in r.tables] for r in man.rounds] == [
        [(1, ["ann-archer", "ben-bishop"], "ann-archer")], [(1, ["cid-castle", "ann-archer"], "draw")]]
    assert [r.byes for r in man.rounds] == [["cid-castle"], ["ben-bishop"]]


@pytest.mark.parametrize("rows,where,message", [
    ("round,table,players,result\n1,1,p01 p02,p01\n1,1,p03 p04,p03\n", ":3: table:", "already on line 2"),
    ("round,table,players,result\n1,1,p01 zed,p01\n", ":2: players:", "unknown player 'zed'"),
    ("round,table,players,result\nx,1,p01 p02,p01\n", ":2: round:", "not a number"),
    ("round,table,players,result\n1,1,p01 p02,p03\n", ":2: result:", "'p03' is not a player of the table"),
    ("round,table,players,result\n1,1,p01 p02\n", ":2:", "3 cells, the header has 4"),
    ("round,board,players\n", ":1:", "no column 'table'"),
    ("round,table,players,result,colour\n", ":1:", "unknown column 'colour'"),
])
def test_a_bad_csv_row_names_its_line_and_column(event, tmp_path, rows, where, message):
    (tmp_path / "bad.csv").write_text(rows)
    r = invoke("tournament", "import-pairings", tmp_path / "bad.csv", "--manifest", event.manifest)
    assert r.exit_code == 2 and f"bad.csv{where}" in r.output and message in r.output, r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("blocks,message", [
    ((["   2 w 1"], ["   1 b 1"]), "bad.trf:1: round 1: result '1' against ben-bishop's '1' (line 2)"),
    ((["   2 w 1"], ["   3 b 0"]), "does not name this player"),
    ((["   2 w X"], ["   1 b 0"]), "'X' is not a TRF result code"),
    ((["0000 - H"], ["0000 - F"]), "half-point bye has no manifest form"),
])
def test_a_bad_trf_line_is_refused_with_its_line(tmp_path, blocks, message):
    lines = [_trf_line(1, "Ann Archer", blocks[0]), _trf_line(2, "Ben Bishop", blocks[1])]
    (tmp_path / "bad.trf").write_text("\n".join(lines) + "\n")
    r = invoke("tournament", "import-pairings", tmp_path / "bad.trf", "--game", "logos")
    assert r.exit_code == 2 and "bad.trf:" in r.output and message in r.output, r.output
