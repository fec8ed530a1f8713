"""The Colossi example logs (``examples/colossi/``) and the command line on them.

Every example verifies with the verdict its name gives; an illegal example's first violation cites
the rule id in its name, on its last line.  The files are what ``tests/colossi_make_examples.py``
generates.  The command line verifies, rules on, lists, shows and stores them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.core.log import read_log
from adjudicator.core.verify import run
from adjudicator.cli.main import main

from .colossi_make_examples import OUT, generate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "colossi"
FILES = sorted(EXAMPLES.glob("*.jsonl"))
NAME = re.compile(r"^(?P<verdict>legal|illegal)-(?:(?P<rule>(?:CL|LOG)-\d+(?:\.\d+)?)-)?(?P<what>[a-z0-9.-]+)\.jsonl$")
LEGAL_2P = EXAMPLES / "legal-2p-to-50-gold.jsonl"


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def parts(path: Path) -> dict[str, str | None]:
    m = NAME.match(path.name)
    assert m, path.name
    return m.groupdict()


def test_there_are_enough_examples() -> None:
    names = [p.name for p in FILES]
    assert "legal-2p-to-50-gold.jsonl" in names and "legal-4p-to-50-gold.jsonl" in names
    rules = {parts(p)["rule"] for p in FILES if parts(p)["verdict"] == "illegal"}
    assert len(rules) >= 12, rules
    assert {"CL-4.2", "CL-3.3", "CL-2.3", "CL-2.5"} <= rules


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_example_verdict_matches_its_name(path: Path) -> None:
    info = parts(path)
    res = run(read_log(path))
    assert res.verdict == info["verdict"], [v.as_dict() for v in res.violations]
    if info["verdict"] == "illegal":
        first = res.violations[0]
        assert first.rule == info["rule"], first
        lines = path.read_bytes().splitlines()
        assert first.line == len(lines) and b'"note":' in lines[-1]
        keep = run(read_log(path), keep_going=True)
        assert [v.rule for v in keep.violations] == [info["rule"]]
    else:
        out = res.outcome
        assert out is not None and out.reason == "gold"
        gold = max(p.gold for p in res.state.players)
        assert gold >= 50
        # every player took the same number of turns
        assert len({p.turns for p in res.state.players}) == 1


def test_the_legal_matches_have_two_and_four_players_and_varied_play() -> None:
    kinds = {}
    for name, n in (("legal-2p-to-50-gold.jsonl", 2), ("legal-4p-to-50-gold.jsonl", 4)):
        log = read_log(EXAMPLES / name)
        assert len(log.setup.players) == n
        kinds[name] = {type(e).__name__ for _, e in log.events}
    both = kinds["legal-2p-to-50-gold.jsonl"] | kinds["legal-4p-to-50-gold.jsonl"]
    for k in ("Moved", "AcolyteSpawned", "CardPlayed", "TileExplored", "BannerRaised", "BannerScored", "BeastMoved",
              "TraitTaken", "StartPlaced"):
        assert k in both, k


def test_regenerating_gives_the_committed_files() -> None:
    assert OUT == EXAMPLES
    made = generate()
    assert sorted(made) == [p.name for p in FILES]
    for name, data in made.items():
        assert (EXAMPLES / name).read_bytes() == data, f"{name} differs: run python -m tests.colossi_make_examples"


def test_readme_has_a_line_per_file() -> None:
    readme = (EXAMPLES / "README.md").read_text()
    for p in FILES:
        line = next((ln for ln in readme.splitlines() if f"`{p.name}`" in ln), None)
        assert line, p.name
        if parts(p)["rule"]:
            assert parts(p)["rule"] in line


@pytest.mark.parametrize("path", [p for p in FILES if p.name.startswith("illegal-") and "CL-1." not in p.name],
                         ids=lambda p: p.name)
def test_cli_check_rules_on_the_offending_line(path: Path) -> None:
    lines = path.read_bytes().splitlines()
    rule = parts(path)["rule"]
    r = invoke("check", path, "--at", len(lines) - 1, "--event", lines[-1].decode())
    assert r.exit_code == 1, r.output
    assert r.output.startswith(f"illegal: {rule} ["), r.output
    ok = invoke("check", path, "--at", len(lines) - 2, "--event", lines[-2].decode())
    assert ok.exit_code == 0 and ok.output.startswith("legal: "), ok.output


def test_cli_verify_legal_state_and_store(tmp_path: Path) -> None:
    r = invoke("verify", EXAMPLES)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"{LEGAL_2P}: legal (" in r.output
    r = invoke("legal", LEGAL_2P, "--at", 60, "--json")
    assert r.exit_code == 0
    doc = json.loads(r.output)
    assert doc["to_act"] and doc["events"]
    line = json.loads(LEGAL_2P.read_bytes().splitlines()[60])
    line.pop("note", None)
    assert line in doc["events"]
    r = invoke("state", LEGAL_2P, "--at", 200)
    assert r.exit_code == 0 and "island" in r.output and "control" in r.output and "Gold" in r.output
    hidden = invoke("state", LEGAL_2P, "--at", 200, "--as", "bob")
    assert hidden.exit_code == 0 and "cards" in hidden.output
    pos = invoke("state", LEGAL_2P, "--at", 200, "--json")
    (tmp_path / "pos.json").write_text(pos.output)
    again = invoke("legal", "--position", tmp_path / "pos.json", "--json")
    assert json.loads(again.output) == json.loads(invoke("legal", LEGAL_2P, "--at", 200, "--json").output)
    db = tmp_path / "c.db"
    r = invoke("store", "import", "--db", db, EXAMPLES / "legal-2p-to-50-gold.jsonl", EXAMPLES / "legal-4p-to-50-gold.jsonl")
    assert r.exit_code == 0, r.output
    r = invoke("store", "list", "--db", db)
    assert r.exit_code == 0 and "colossi" in r.output


def test_unreadable_colossi_lines_exit_2(tmp_path: Path) -> None:
    lines = LEGAL_2P.read_bytes().splitlines()[:40]
    cases = {
        b'{"type":"CardDrawn","player":"ann","card":"excalibur"}': ("card", "unknown card"),
        b'{"type":"Moved","player":"ann","piece":"colossus","space":3,"to":99}': ("to", "no space 99"),
        b'{"type":"CardPlayed","player":"ann","card":"rampage","beast":"wind-beast","direction":"UP"}':
            ("direction", "unknown direction"),
        b'{"type":"TraitTaken","player":"zed","trait":"sly"}': ("player", "unknown player"),
    }
    for k, (bad, (field, reason)) in enumerate(cases.items()):
        p = tmp_path / f"bad{k}.jsonl"
        p.write_bytes(b"\n".join(lines + [bad]) + b"\n")
        r = invoke("verify", p)
        assert r.exit_code == 2 and "Traceback" not in r.output, r.output
        assert f"{p}:41: {field}: " in r.output and reason in r.output, r.output
