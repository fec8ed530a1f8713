"""The LOGOS example logs (``examples/logos/``) and the commands a judge uses on them.

``verify``, ``check``, ``legal``, ``state --as`` and ``store`` work on them as on any other
game's logs.
``tests/test_every_game.py`` checks, for every shipped game, its gaps, options, complete example,
examples and rule coverage: each example's verdict
matches its name, the README describes it, ``check`` rules on its offending line, and the files
are what the generator gives.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.verify import position_at, run
from adjudicator.cli.main import main

from .logos_make_examples import features, legal_examples

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "logos"
FILES = sorted(EXAMPLES.glob("*.jsonl"))
NAME = re.compile(r"^(?P<verdict>legal|illegal|undetermined)-(?:(?P<rule>(?:LG|LOG)-\d+(?:\.\d+)?)-)?(?P<what>[a-z0-9.-]+)\.jsonl$")


def invoke(*args: object, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, env=env)


def parts(path: Path) -> dict[str, str | None]:
    m = NAME.match(path.name)
    assert m, f"example file name {path.name!r} does not say its verdict (legal-... / illegal-RULE-...)"
    return m.groupdict()


def test_there_are_enough_examples() -> None:
    legal = [p for p in FILES if parts(p)["verdict"] == "legal"]
    rules = {parts(p)["rule"] for p in FILES if parts(p)["verdict"] == "illegal"}
    assert len(legal) >= 2, legal
    assert len(rules) >= 10, rules
    assert len(rules) == len([p for p in FILES if parts(p)["verdict"] == "illegal"]), "each illegal log breaks a different rule"


def test_the_complete_matches_show_the_disputed_orderings() -> None:
    made = {name: make() for name, make in legal_examples().items()}
    hidden = made["legal-hidden-picks.jsonl"]
    assert {"color-change-turns-direction", "neutralize", "blocked", "mimmick", "deadlock", "counter-attack",
            "backup-call"} <= features(hidden), features(hidden)
    assert hidden.state().options.picks == "commit-reveal"
    assert hidden.state().result.reason == "hit-points"
    opened = made["legal-open-picks.jsonl"]
    assert opened.state().options.picks == "open" and opened.setup.ruleset == "demo"
    assert {"defenseless", "backup-call", "mimmick"} <= features(opened)
    assert opened.state().result.reason == "hit-points"


# ==================================================================================================
# the commands
# ==================================================================================================

def test_cli_verify_the_examples() -> None:
    r = invoke("verify", EXAMPLES)
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    for p in FILES:
        info = parts(p)
        header = next(ln for ln in r.output.splitlines() if ln.startswith(f"{p}: "))
        assert f": {info['verdict']} (" in header and ", logos" in header, header
        if info["verdict"] == "illegal":
            v = run(read_log(p)).violations[0]
            detail = [ln for ln in r.output.splitlines() if ln.strip().startswith(f"{p}:{v.line}: ")]
            assert detail and f" {info['rule']} [{v.code}] " in detail[0], r.output
    ok = invoke("verify", EXAMPLES / "legal-hidden-picks.jsonl")
    assert ok.exit_code == 0 and "ann wins by hit-points" in ok.output, ok.output


def test_cli_check_legal_and_state_in_a_battle() -> None:
    path = EXAMPLES / "legal-hidden-picks.jsonl"
    lines = [json.loads(x) for x in path.read_bytes().splitlines()]
    # the first reveal of round 1: after it ben still has to reveal
    n = next(i for i, x in enumerate(lines, start=1) if x["type"] == "PickRevealed")
    r = invoke("check", path, "--at", n, "--event", json.dumps(lines[n]))
    assert r.exit_code == 0 and r.output.startswith("legal: LG-3.4 [logos/ok]"), r.output
    # what follows, in the notation: the direction before the effects, the effect, the direction after
    then = [ln for ln in r.output.splitlines() if ln.startswith("  then: ")]
    assert len(then) >= 3 and "ben" in then[0] and "ann" in then[1] and "ben" in then[2], r.output
    # before ann reveals: the commitments are public, the cards are not
    r = invoke("state", path, "--at", n - 1, "--as", "ben")
    assert r.exit_code == 0, r.output
    assert "ember-convert" not in r.output and "committed:" in r.output and "card slots (3): ? | ? | ?" in r.output
    judge = invoke("state", path, "--at", n - 1)
    assert "ember-convert | iron-golem | stone-sentinel" in judge.output
    r = invoke("state", path, "--at", n - 1, "--as", "ben", "--json")
    doc = json.loads(r.output)
    assert doc["view"] == "ben" and doc["state"]["players"][0]["slots"] == ["?", "?", "?"]
    assert doc["state"]["setup"]["decks"]["ann"] == {}  # a deck list the viewer cannot see
    bad = invoke("state", path, "--as", "cy")
    assert bad.exit_code == 2 and "unknown player 'cy'" in bad.output
    # legal at the reveal step: the engine cannot guess a secret salt (see docs/games/logos.md)
    r = invoke("legal", path, "--at", n - 1, "--json")
    assert r.exit_code == 0
    assert {e["type"] for e in json.loads(r.output)["events"]} == {"Resigned"}
    # legal during a refill lists every card the deck can give
    r = invoke("legal", path, "--at", 1)
    assert r.exit_code == 0 and r.output.startswith("to act: ann;"), r.output
    log = read_log(path)  # each in the notation, as the game writes it in that position
    drawn = log.game.decoder.decode(b'{"type":"CardDrawn","player":"ann","card":"ember-convert"}')
    assert f"  {log.game.notation.format(drawn, position_at(log, 1).state)}\n" in r.output


def test_cli_state_shows_an_open_pick_at_once(tmp_path: Path) -> None:
    """LG-6: an open pick is named openly, so the other seat sees it at once (and its record names
    it: docs/games/logos.md, "A seat's record")."""
    path = EXAMPLES / "legal-open-picks.jsonl"
    lines = [json.loads(x) for x in path.read_bytes().splitlines()]
    n = next(i for i, x in enumerate(lines, start=1) if x["type"] == "CardPicked")
    who, card = lines[n - 1]["player"], lines[n - 1]["card"]
    other = "ben" if who == "ann" else "ann"
    r = invoke("state", path, "--at", n, "--as", other, "--json")
    doc = json.loads(r.output)
    seat = 0 if who == "ann" else 1
    assert doc["state"]["players"][seat]["battle"] == card
    r = invoke("state", path, "--at", n, "--as", who, "--json")
    assert json.loads(r.output)["state"]["players"][seat]["battle"] == card
    # a position document round-trips through check --position
    pos = tmp_path / "pos.json"
    pos.write_text(invoke("state", path, "--at", n, "--json").output)
    nxt = json.dumps(lines[n])
    r = invoke("check", "--position", pos, "--event", nxt)
    assert r.exit_code == 0 and r.output.startswith("legal: LG-3.1"), r.output


def test_cli_store_import_list_show(tmp_path: Path) -> None:
    db = tmp_path / "logos.db"
    r = invoke("store", "import", "--db", db, EXAMPLES / "legal-hidden-picks.jsonl", EXAMPLES / "legal-open-picks.jsonl")
    assert r.exit_code == 0, r.output
    again = invoke("store", "import", "--db", db, EXAMPLES / "legal-hidden-picks.jsonl")
    assert again.exit_code == 0 and "already stored" in again.output, again.output
    refused = invoke("store", "import", "--db", db, EXAMPLES / "illegal-LG-3.4-reveal-does-not-open-commitment.jsonl")
    assert refused.exit_code == 1, refused.output
    listed = invoke("store", "list", "--db", db)
    assert listed.exit_code == 0 and listed.output.count("logos") >= 2, listed.output
    match = next(ln.split()[0] for ln in listed.output.splitlines() if "hidden-picks" in ln)
    shown = invoke("store", "show", "--db", db, match, "--at", 12, "--as", "ben")
    assert shown.exit_code == 0 and "LOGOS - round" in shown.output, shown.output
    res = run(read_log(EXAMPLES / "legal-hidden-picks.jsonl"), upto=12)
    from adjudicator.core.kernel import registry

    game = registry.get("logos")
    assert shown.output.strip() == game.describe(res.state, "ben").strip()


def test_cli_verify_a_log_of_the_new_cards_and_the_max_life_option(tmp_path: Path) -> None:
    """As a judge runs it: a log playing the cards added for the full vocabulary (LG-31 to LG-34)
    verifies; the same log under ``max_life`` 2 is illegal at its set-up (LG-1.2)."""
    import msgspec

    from .logos_scenarios import A, B, Script

    s = Script({A: ["quiet-index"] * 2 + ["phoenix-core", "violet-bloom", "tithe-engine", "century-gate"] + ["white-wall"] * 3,
                B: ["threshold-runner", "static-field", "dusk-veil"] + ["storm-coil"] * 6}, options={"picks": "open"})
    s.round("quiet-index", "threshold-runner", {A: ["quiet-index", "phoenix-core", "violet-bloom"],
                                                B: ["threshold-runner", "static-field", "dusk-veil"]})
    s.round("quiet-index", "dusk-veil", {A: ["quiet-index"]})
    s.round("phoenix-core", "storm-coil", {A: ["tithe-engine"]})
    s.round("violet-bloom", "storm-coil", {A: ["century-gate"]})
    path = tmp_path / "vocabulary.jsonl"
    path.write_bytes(s.lines())
    ok = invoke("verify", path)
    assert ok.exit_code == 0, ok.output
    events = s.events()
    events[0] = msgspec.structs.replace(events[0], options={**events[0].options, "max_life": 1})
    bad = tmp_path / "too-much-life.jsonl"
    bad.write_bytes(b"".join(msgspec.json.encode(e) + b"\n" for e in events))
    r = invoke("verify", bad)
    assert r.exit_code == 1 and "LG-1.2" in r.output and "too-many-life" in r.output, r.output
    assert "2 Life cards; the ruleset allows 1 (LG-31)" in r.output
