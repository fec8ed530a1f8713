"""Complete or unfinished: every verdict says whether the match reached its end (issue 21, point 1)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.verify import run

FULL = "examples/colossus-order/legal-gem-complete.jsonl"
ILLEGAL = "examples/colossus-order/illegal-CO-7.3-attacker-not-ready.jsonl"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def fragment(tmp_path):
    """The first 50 events of a finished match: a log that simply stops."""
    p = tmp_path / "fragment.jsonl"
    lines = open(FULL, "rb").read().splitlines(keepends=True)
    p.write_bytes(b"".join(lines[:50]))
    return p


def test_a_fragment_is_legal_but_unfinished_and_says_where_it_stopped(fragment):
    r = invoke("verify", fragment)
    assert r.exit_code == 0, r.output
    assert f"{fragment}: legal, unfinished (50 events, colossus-order; stopped at event 50, turn 4: bob to act)" in r.output
    r = invoke("verify", "--json", fragment)
    doc = json.loads(r.output)
    assert doc["complete"] is False and doc["outcome"] is None
    assert doc["stopped_at"] == {"event": 50, "turn": 4, "to_act": ["bob"]}


def test_a_finished_match_is_complete():
    r = invoke("verify", "--json", FULL)
    doc = json.loads(r.output)
    assert doc["complete"] is True and "stopped_at" not in doc
    assert "unfinished" not in invoke("verify", FULL).output


def test_the_summary_counts_unfinished_logs_and_require_complete_exits_5(fragment):
    r = invoke("verify", "--json", fragment, FULL)
    assert r.exit_code == 0
    assert json.loads(r.output.splitlines()[-1])["summary"]["unfinished"] == 1
    assert "1 unfinished" in invoke("verify", fragment, FULL).output
    r = invoke("verify", "--require-complete", fragment, FULL)
    assert r.exit_code == 5, r.output
    assert invoke("verify", "--require-complete", FULL).exit_code == 0
    # --quiet still prints the unfinished log when it is a failure
    r = invoke("verify", "--require-complete", "--quiet", fragment, FULL)
    assert str(fragment) in r.output and FULL not in r.output.split("\n")[0]


def test_exit_code_order_puts_unfinished_between_undetermined_and_illegal(fragment):
    # an illegal log is worse than an unfinished one: 1
    assert invoke("verify", "--require-complete", fragment, ILLEGAL).exit_code == 1
    # an illegal log is never called unfinished (it stopped at its violation)
    doc = json.loads(invoke("verify", "--json", ILLEGAL).output)
    assert doc["verdict"] == "illegal" and doc["complete"] is False
    assert "unfinished" not in invoke("verify", ILLEGAL).output


@pytest.mark.parametrize("game_id", [g.id for g in registry.games()])
def test_every_game_says_complete_or_unfinished(game_id):
    from adjudicator.core.kernel.playout import playout

    game = registry.get(game_id)
    events, final = playout(game, 3, max_events=40)
    from adjudicator.core.kernel.log import MatchLog

    log = MatchLog("gen", game, [(i + 1, e) for i, e in enumerate(events)])
    res = run(log)
    assert res.verdict == "legal" and res.complete is (game.outcome(final) is not None)
    stop = res.stopped_at()
    if not res.complete:
        assert stop["event"] == len(events) and stop["to_act"] == game.to_act(final)
