"""The Colossi example logs (``examples/colossi/``) and the command line on them.

The promised examples exist; the command line verifies, lists, shows and stores them.
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
from adjudicator.cli.main import main


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
