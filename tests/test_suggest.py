"""Errors that say how to fix them (adjudicator/core/kernel/suggest.py): a mistyped log line names the
valid values and the closest one; ``pool check`` names the targets of that effect kind and every
problem of a card."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import adjudicator
from adjudicator.core.kernel.suggest import closest, hint
from adjudicator.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
FIRST = {
    "colossus-order": "examples/colossus-order/legal-gem-complete.jsonl",
    "logos": "examples/logos/legal-open-picks.jsonl",
    "kolossus": "examples/kolossus/legal-chapter-1.jsonl",
    "colossi": "examples/colossi/legal-2p-to-50-gold.jsonl",
}

# (game, the mistyped second line, the field named, what the message must say)
MISTYPED = [
    ("colossus-order", {"type": "PlayFollower", "player": "alice", "card": "ember-imp"}, "type",
     ["did you mean 'FollowerPlayed'?", "event types: ", "CardDrawn", "JudgeRuling"]),
    ("colossus-order", {"type": "CardSet", "player": "alice", "card": "red-gem", "zone": "gems"}, "zone",
     ["did you mean 'gem'?", "valid: gem, locus"]),
    ("colossus-order", {"type": "CardDrawn", "player": "alice", "card": "ember_imp"}, "card",
     ["unknown card 'ember_imp'", "did you mean 'ember-imp'?"]),
    ("colossus-order", {"type": "CardDrawn", "player": "alice", "crad": "red-gem"}, "crad",
     ["unknown field", "did you mean 'card'?", "fields of CardDrawn: card, player"]),
    ("logos", {"type": "CardPicked", "player": "an", "card": "iron-golem"}, "player",
     ["unknown player 'an'", "did you mean 'ann'?"]),
    ("logos", {"type": "cardpicked", "player": "ann", "card": "iron-golem"}, "type",
     ["did you mean 'CardPicked'?"]),
    ("logos", {"type": "CardPicked", "player": "ann", "card": "iron-golen"}, "card",
     ["did you mean 'iron-golem'?"]),
    ("kolossus", {"type": "QuakeShifted", "warband": "tuatha", "region": "column-f", "direction": "SS", "distance": 2},
     "direction", ["valid: E, N, NE, NW, S, SE, SW, W", "did you mean"]),
    ("kolossus", {"type": "MiniatureMoved", "warbnd": "tuatha", "path": ["b9", "c10"]}, "warbnd",
     ["did you mean 'warband'?", "fields of MiniatureMoved: "]),
    ("colossi", {"type": "Moved", "player": "ann", "piece": "colossos", "space": 1, "to": 2}, "piece",
     ["did you mean 'colossus'?", "valid: "]),
]


@pytest.mark.parametrize("game, line, field, says", MISTYPED)
def test_a_mistyped_line_names_the_valid_values_or_the_closest(tmp_path, game, line, field, says):
    import json

    first = (ROOT / FIRST[game]).read_text().splitlines()[0]
    log = tmp_path / "bad.jsonl"
    log.write_text(first + "\n" + json.dumps(line) + "\n")
    with pytest.raises(adjudicator.LogError) as exc:
        adjudicator.read_log(log)
    assert exc.value.line == 2 and exc.value.field == field, str(exc.value)
    for text in says:
        assert text in exc.value.reason, exc.value.reason
    # the command line says the same, exit 2
    r = CliRunner().invoke(main, ["verify", str(log)])
    assert r.exit_code == 2 and f"bad.jsonl:2: {field}: " in r.output and says[0] in r.output


def test_closest_is_deterministic_and_bounded():
    assert closest("ember_gem", ["ember-gem", "ember-imp"]) == "ember-gem"
    assert closest("x" * 1000, ["x"]) is None
    assert closest("zzzz", ["alpha", "beta"]) is None
    assert hint("b", ["c", "a"]) == " (valid: a, c)"
    assert hint("q", [str(i) for i in range(100)]) == ""  # too many to list, none close


POOL = """\
pool = "t"

[[card]]
id = "bad-bolt"
name = "Bad Bolt"
type = "action"
colour = "red"
text = "Deal 2."
effects = [{do = "damage", amount = 2, target = "chosen-opponent-folower"}, {do = "flip-locus", target = "chosen-opponent-follower"}]

[[card]]
id = "two-bad"
name = "Two Bad"
type = "follower"
colour = "redd"
atack = 1
defence = "x"
text = "x"
"""


def test_pool_check_names_the_targets_of_each_effect_kind_and_every_problem(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text(POOL)
    r = CliRunner().invoke(main, ["pool", "check", str(f), "--game", "colossus-order"])
    assert r.exit_code == 2
    out = r.output
    assert ("t.toml:9: card 'bad-bolt': effects[0].target: Invalid enum value 'chosen-opponent-folower' (one of: "
            "all-opponent-followers, all-own-followers, attacker, chosen-follower, chosen-opponent-follower, "
            "chosen-own-follower, opponent-attacker, self) (did you mean 'chosen-opponent-follower'?)") in out
    # the second effect is a flip-locus: its targets are Locus slots
    assert ("effects[1].target: Invalid enum value 'chosen-opponent-follower' (one of: chosen-opponent-locus, "
            "chosen-own-locus) (did you mean 'chosen-opponent-locus'?)") in out
    # every problem of one card
    two = [ln for ln in out.splitlines() if "card 'two-bad'" in ln]
    assert len(two) == 3, out
    assert any("colour: " in ln and "(did you mean 'red'?)" in ln for ln in two)
    assert any("atack: unknown field" in ln and "(did you mean 'attack'?)" in ln for ln in two)
    assert any("defence: Expected `int`, got `str`" in ln for ln in two)


def test_a_card_that_does_not_decode_still_gets_the_games_checks(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text('pool = "t"\n\n[[card]]\nid = "two-bad"\nname = "Two Bad"\ntype = "follower"\ncolour = "redd"\n'
                 'defence = 0\nattack = -1\ntext = "x"\n')
    r = CliRunner().invoke(main, ["pool", "check", str(f), "--game", "colossus-order", "--json"])
    import json

    doc = json.loads(r.output)
    fields = sorted(p["field"] for p in doc["problems"] if p["card"] == "two-bad")
    assert fields == ["attack", "colour", "defence"], doc["problems"]
