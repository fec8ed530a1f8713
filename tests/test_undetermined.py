"""The third verdict, ``undetermined``, through the core: verify, the CLI's exit code 4, the JSON
conditions, the batch summary and ``check``.

A game rules ``undetermined`` when an event is legal only if a card the record leaves unknown is
what a condition says (docs/log-format.md, "Unknown identities").  Here the toy game's check is
wrapped so that an addition of 2 is undetermined, which exercises the core alone; each game's own
unknowns are tested with the game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.rulings import Undetermined
from adjudicator.core.kernel.verify import propose, run
from tests.toygame import Added, ToyGame


@pytest.fixture()
def unsure(toy, monkeypatch):
    """The toy game rules an addition of 2 undetermined ("legal if the hidden die shows 2")."""
    real = ToyGame.check

    def check(self, s, e):
        ruling = real(self, s, e)
        if ruling.legal and isinstance(e, Added) and e.n == 2:
            return Undetermined("TOY-3", "toy/unknown-die", f"{e.player} adds 2 from a hidden die",
                                "the hidden die shows 2").ruling()
        return ruling
    monkeypatch.setattr(ToyGame, "check", check)
    return toy


def _log(tmp_path: Path, name: str, adds: list[tuple[str, int]]) -> Path:
    lines = [{"type": "MatchStarted", "game": "toy", "players": ["a", "b"], "target": 50}]
    lines += [{"type": "Added", "player": p, "n": n} for p, n in adds]
    path = tmp_path / name
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_an_undetermined_event_is_followed_and_named(unsure, tmp_path):
    path = _log(tmp_path, "u.jsonl", [("a", 1), ("b", 2), ("a", 3)])
    res = run(read_log(path))
    assert res.verdict == "undetermined"
    assert not res.violations
    (u,) = res.undetermined
    assert (u.seq, u.line, u.rule, u.condition) == (3, 3, "TOY-3", "the hidden die shows 2")
    assert res.state.total == 6  # followed as if the condition held


def test_an_illegal_event_outranks_undetermined_ones(unsure, tmp_path):
    path = _log(tmp_path, "ui.jsonl", [("a", 2), ("b", 9)])
    res = run(read_log(path))
    assert res.verdict == "illegal" and res.undetermined and res.violations[0].rule == "TOY-3"


def test_propose_follows_an_undetermined_event(unsure, tmp_path):
    log = read_log(_log(tmp_path, "p.jsonl", [("a", 1)]))
    state = run(log).state
    ruling, derived, new = propose(log.game, state, Added(player="b", n=2))
    assert ruling.verdict == "undetermined" and ruling.allowed and not ruling.legal
    assert new.total == 3 and derived


def test_cli_exit_code_json_and_summary(unsure, tmp_path):
    legal = _log(tmp_path, "a-legal.jsonl", [("a", 1), ("b", 3)])
    unknown = _log(tmp_path, "b-unknown.jsonl", [("a", 2)])
    r = CliRunner().invoke(main, ["verify", "--jobs", "1", str(legal), str(unknown)])
    assert r.exit_code == 4, r.output
    assert "b-unknown.jsonl: undetermined" in r.output
    assert "b-unknown.jsonl:2: event 2: TOY-3 [toy/unknown-die] undetermined" in r.output
    assert "legal if the hidden die shows 2" in r.output
    assert "2 logs: 1 legal, 1 undetermined, 0 illegal, 0 unreadable" in r.output
    r = CliRunner().invoke(main, ["verify", "--jobs", "1", "--json", str(unknown)])
    doc = json.loads(r.output.splitlines()[0])
    assert doc["verdict"] == "undetermined" and doc["undetermined_events"] == 1
    assert doc["undetermined"][0]["condition"] == "the hidden die shows 2"
    # an illegal log in the batch makes the exit code 1: illegal is worse than undetermined
    bad = _log(tmp_path, "c-bad.jsonl", [("a", 7)])
    r = CliRunner().invoke(main, ["verify", "--jobs", "1", str(unknown), str(bad)])
    assert r.exit_code == 1
    r = CliRunner().invoke(main, ["verify", "--jobs", "1", "--quiet", str(legal), str(unknown)])
    assert "a-legal" not in r.output and "b-unknown" in r.output


def test_cli_check_says_what_would_decide(unsure, tmp_path):
    path = _log(tmp_path, "c.jsonl", [("a", 1)])
    r = CliRunner().invoke(main, ["check", str(path), "--event", '{"type":"Added","player":"b","n":2}'])
    assert r.exit_code == 4, r.output
    assert r.output.startswith("undetermined: TOY-3") and "legal if the hidden die shows 2" in r.output
    r = CliRunner().invoke(main, ["check", str(path), "--json", "--event", '{"type":"Added","player":"b","n":2}'])
    assert json.loads(r.output)["condition"] == "the hidden die shows 2"
