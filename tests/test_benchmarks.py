"""Smoke tests of ``python -m benchmarks`` (tiny sizes; no speed assertions)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adjudicator.core.kernel import registry
from benchmarks import runner

GAME = "colossus-order"
TINY = ["--games", GAME, "--matches", "12", "--long-events", "300", "--passes", "1", "--lengths", "100,400", "--seat-lengths", "200,400", "--tournament", "0",
        "--json"]  # the tournament figures: test_tournament_figures
KEYS = ("events", "verify_events_per_s", "decode_events_per_s", "verify_to_decode",
        "import_events_per_s", "seek_ms", "rebuild_ms")


def test_json_has_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(TINY) == 0
    out = capsys.readouterr().out
    doc = json.loads(out)  # exactly one JSON object on stdout
    res = doc["games"][GAME]
    for key in KEYS:
        assert isinstance(res[key], (int, float)) and not isinstance(res[key], bool), key
        assert res[key] > 0, key
    assert res["matches"] == 12
    assert isinstance(res["positions_per_event"], float) and res["positions_per_event"] > 0  # issue 33's row
    sc = res["scaling"]
    assert [x["events"] for x in sc["by_length"]] == [100, 400] and all(x["events_per_s"] > 0 for x in sc["by_length"])
    assert sc["length_linearity"] == pytest.approx(sc["by_length"][1]["events_per_s"] / sc["by_length"][0]["events_per_s"])
    assert [x["logs"] for x in sc["by_corpus"]] == [10]
    assert sc["jobs"]["logs"] == 12 and sc["jobs"]["speedup"] == pytest.approx(sc["jobs"]["jobs_1_s"] / sc["jobs"]["jobs_2_s"])
    assert res["long_match_events"] == 300
    assert all(x["ratio"] > 0 for x in res["seat_scaling"])  # (none: a long set-up's record is unreadable)
    from tests import pg

    on_pg = pg.unavailable() is None
    assert set(res["targets"]) - {"verify_to_chess"} == {"verify_to_decode", "hidden_cost",
                                                          "import_events_per_s", "seek_ms",
                                                          *(["postgres_import_events_per_s"] if on_pg else [])}
    # issue 22's targets
    assert res["targets"]["verify_to_decode"]["min"] == 0.10
    assert res["targets"]["import_events_per_s"]["min"] == 50_000
    assert res["targets"]["hidden_cost"]["max"] == 0.05
    assert res["targets"]["hidden_cost"]["pass"] is (res["hidden_cost"] < 0.05)
    assert res["hidden_matches"] == 12 and len(res["hidden_runs_s"]) == len(res["hidden_off_runs_s"]) > 0
    # the core floor: the same corpus folded by the null game, against verify passes of the same run
    assert res["floor_events_per_s"] > 0 and len(res["floor_runs_s"]) == len(res["floor_verify_runs_s"]) > 0
    assert res["floor_share"] == pytest.approx(_median(res["floor_runs_s"]) / _median(res["floor_verify_runs_s"]))
    assert res["floor_events_per_s"] == pytest.approx(res["events"] / _median(res["floor_runs_s"]))
    assert res["core_us_per_event"] == pytest.approx(1e6 / res["floor_events_per_s"])
    assert res["core_us_per_event"] + res["game_us_per_event"] == pytest.approx(
        _median(res["floor_verify_runs_s"]) / res["events"] * 1e6)
    if res.get("chess_moves_per_s"):  # per event, what 3x python-chess allows core and game together
        assert res["budget_us_per_event"] == pytest.approx(1e6 / (3 * res["chess_moves_per_s"]))
    # import as store import does, as the only copy (FULL), and the share of it that is verifying
    assert res["import_full_events_per_s"] > 0 and 0 < res["import_verify_share"]
    assert res["hidden_cost"] == pytest.approx(_median(res["hidden_runs_s"]) / _median(res["hidden_off_runs_s"]) - 1)
    # the profile of one verify pass: the top five by tottime, named file:line:function
    prof = res["profile"]
    assert len(prof["top"]) == 5 and prof["matches"] == 12
    assert [e["tottime_s"] for e in prof["top"]] == sorted((e["tottime_s"] for e in prof["top"]), reverse=True)
    assert all(re.fullmatch(r"[^:]+:\d+:.+", e["where"]) for e in prof["top"]), prof["top"]
    assert any(e["where"].startswith(("core/", "games/")) for e in prof["top"]), prof["top"]
    assert prof["core_share"] + prof["game_share"] + prof["other_share"] == pytest.approx(1)
    if on_pg:  # import and seek on PostgreSQL beside SQLite, with the import's own target
        assert res["postgres"]["import_events_per_s"] > 0 and res["postgres"]["seek_ms"] > 0
        t = res["targets"]["postgres_import_events_per_s"]
        assert t["min"] == runner.IMPORT_PG_MIN_EVENTS_PER_S
        assert t["pass"] is (res["postgres"]["import_events_per_s"] >= runner.IMPORT_PG_MIN_EVENTS_PER_S)
    if res.get("chess_moves_per_s"):  # python-chess side by side (the bench/dev extra installs it)
        assert res["verify_to_chess"] == pytest.approx(res["verify_events_per_s"] / res["chess_moves_per_s"])
        assert res["targets"]["verify_to_chess"]["min"] == 3 and res["targets"]["verify_to_chess"]["goal"] == 5
    assert all(isinstance(t["pass"], bool) for t in res["targets"].values())


def test_human_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main([a for a in TINY if a != "--json"] + ["--no-postgres"]) == 0
    out = capsys.readouterr().out
    assert GAME in out and "verify / decode" in out
    assert re.search(r"  positions made per log event +\d+\.\d\d frozen \((frozen states|own working position), "
                     r"nothing kept\) +<= 1 +(PASS|MISS)", out)
    assert "events/s by log length (100:" in out and "verify --jobs 1:" in out
    assert "PASS" in out or "MISS" in out
    assert "import, SQLite (" in out and ">= 50,000 events/s" in out
    assert re.search(r"import, SQLite \(\d+ matches, as store import\) +[\d,]+ events/s \(verify \d+% of it\)", out)
    assert re.search(r"import, SQLite, synchronous=FULL \(the only copy\) +[\d,]+ events/s", out)
    assert re.search(r"core floor \(null rules\) +[\d,]+ events/s, \d+% of the verify time\n", out)
    assert re.search(r"  per event: core \+ game +\d+\.\d\d \+ -?\d+\.\d\d us", out)
    assert re.search(r"import, PostgreSQL +not measured", out)  # --no-postgres
    assert re.search(r"hidden-information hooks, full logs \(12 matches\) +[+-]\d+\.\d% of the verify time +< 5%", out)
    assert re.search(r"profile of one verify pass \(12 matches, .*core \d+%, game \d+%, other \d+%; top 5 by tottime:", out)
    assert len(re.findall(r"^    +\d+\.\d{3} s  \(cum .*\)  \S", out, re.M)) == 5  # (a built-in is named without a file)
    assert "target < 64 MiB for 1,000,000 events" in out


def _median(xs):  # type: ignore[no-untyped-def]
    import statistics

    return statistics.median(xs)


def test_no_import_circle_through_the_runner() -> None:
    """The runner imports the parts of a run; no part imports the runner back (issue 23)."""
    import ast

    for path in Path(runner.__file__).parent.glob("*.py"):
        if path.name in ("runner.py", "__init__.py", "__main__.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").endswith("runner"), f"{path.name}:{node.lineno} imports the runner"


def _duplicate_second_line(path: str) -> None:
    """Shuffle the first deck twice: illegal in Colossus Order (CO-2.1), still a readable log."""
    lines = Path(path).read_bytes().splitlines(keepends=True)
    Path(path).write_bytes(b"".join(lines[:2] + [lines[1]] + lines[2:]))


def test_illegal_match_is_an_error(tmp_path: Path) -> None:
    game = registry.get(GAME)
    files = runner.generate_corpus(game, str(tmp_path), 2, report=lambda _m: None)
    runner.verify_pass(files, thorough=True)  # legal as generated
    _duplicate_second_line(files[1].path)
    with pytest.raises(runner.IllegalMatch) as info:
        runner.verify_pass(files)
    assert info.value.path == files[1].path


def test_main_reports_an_illegal_corpus(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = runner.generate_corpus

    def corrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        files = real(*args, **kwargs)
        _duplicate_second_line(files[-1].path)
        return files

    monkeypatch.setattr(runner, "generate_corpus", corrupted)
    assert runner.main(TINY) == 1
    captured = capsys.readouterr()
    assert "does not verify legal" in captured.err
    assert "error" in json.loads(captured.out)


def test_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(["--games", "no-such-game", "--json"]) == 2
    assert "no-such-game" in capsys.readouterr().err


def test_tournament_figures(tmp_path: Path) -> None:
    """The tournament section: a small generated event checked with --jobs 1 and 2, both timed."""
    from benchmarks import tournament

    r = tournament.measure(6, str(tmp_path), lambda _m: None)
    assert r["tables"] == 6 and r["rounds"] == 6 and r["events"] > 0
    assert r["jobs_1_s"] > 0 and r["jobs_2_s"] > 0 and r["speedup"] == pytest.approx(r["jobs_1_s"] / r["jobs_2_s"])
    assert "--jobs 1:" in tournament.render(r) and "--jobs 2:" in tournament.render(r)


def test_null_game_folds_every_event_with_the_kits_constant_ruling(tmp_path: Path) -> None:
    """The core floor's null game: every event of a real game's log accepted by the kit's one
    legal ruling of its type (the same object each time), the position never changed, and the
    log read by the real game (an unknown player is still a reading error)."""
    from adjudicator.core.kernel.errors import LogError
    from adjudicator.core.kernel.log import MatchLog, parse_log
    from adjudicator.core.kernel.verify import run
    from benchmarks import floor

    game = registry.get(GAME)
    files = runner.generate_corpus(game, str(tmp_path), 2, report=lambda _m: None)
    events, seconds = floor.null_pass(game, files)
    assert events == sum(f.events for f in files) and seconds > 0
    log = parse_log(Path(files[0].path).read_bytes(), files[0].path)
    null = floor.NullGame(game)
    res = run(MatchLog(log.path, null, log.events), record_steps=True)
    assert res.verdict == "legal" and res.events == len(log.events) and res.state is log.setup
    assert all(s.state is log.setup and s.derived == [] for s in res.steps)
    for s in res.steps[1:]:
        assert s.ruling is null.rules._legal[type(s.event)] and s.ruling.rule == "NULL-1"
    path = Path(files[0].path)
    path.write_bytes(path.read_bytes().replace(b'"player":"', b'"player":"nobody', 1))
    with pytest.raises(LogError, match="unknown player"):
        floor.null_pass(game, files)
