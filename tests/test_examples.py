"""The Colossus Order example logs (``examples/colossus-order/``) and unreadable input.

The legal examples show the promised play; the CLI verifies the whole ``examples/`` tree, and
unreadable logs exit 2 with a ``file:line: field: reason`` message, never a traceback.
``tests/test_every_game.py`` checks, for every shipped game, its gaps, options, complete example,
examples and rule coverage: each example's verdict
matches its name, the README describes it, ``check`` rules on its offending line, and the files
are what the generator gives.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.verify import run
from adjudicator.cli.main import main

from .co_scenarios import encode, setup
from .make_co_examples import features, legal_examples

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "colossus-order"
FILES = sorted(EXAMPLES.glob("*.jsonl"))
NAME = re.compile(r"^(?P<verdict>legal|illegal|undetermined)-(?:(?P<rule>(?:CO|LOG)-\d+(?:\.\d+)?)-)?(?P<what>[a-z0-9.-]+)\.jsonl$")


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def parts(path: Path) -> dict[str, str | None]:
    m = NAME.match(path.name)
    assert m, f"example file name {path.name!r} does not say its verdict (legal-... / illegal-RULE-...)"
    return m.groupdict()


def test_there_are_enough_examples() -> None:
    names = [p.name for p in FILES]
    assert "legal-gem-complete.jsonl" in names and "legal-deck-out.jsonl" in names
    rules = {parts(p)["rule"] for p in FILES if parts(p)["verdict"] == "illegal"}
    assert len(rules) >= 10, rules


def test_legal_examples_end_as_named_and_show_the_promised_play() -> None:
    made = {name: make() for name, make in legal_examples().items()}
    gem = made["legal-gem-complete.jsonl"]
    assert gem.state().result.reason == "gem-complete"
    assert {"block", "snap-in-xplay", "deck-capture", "locus-hit", "declaration"} <= features(gem)
    out = made["legal-deck-out.jsonl"]
    assert out.state().result.reason == "deck-out"
    assert {"block", "deck-capture", "snap-in-xplay"} <= features(out)


def test_cli_verify_examples_tree() -> None:
    r = invoke("verify", ROOT / "examples")
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    for p in FILES:
        info = parts(p)
        header = next(ln for ln in r.output.splitlines() if ln.startswith(f"{p}: "))
        assert f": {info['verdict']} (" in header, header
        if info["verdict"] == "illegal":
            res = run(read_log(p))
            v = res.violations[0]
            detail = [ln for ln in r.output.splitlines() if ln.strip().startswith(f"{p}:{v.line}: ")]
            assert detail, r.output
            assert f" {info['rule']} [{v.code}] " in detail[0], detail[0]


def test_cli_legal_offers_the_complete_declaration() -> None:
    import json

    path = EXAMPLES / "legal-gem-complete.jsonl"
    lines = path.read_bytes().splitlines()
    r = invoke("legal", path, "--at", len(lines) - 1, "--json")
    assert r.exit_code == 0, r.output
    events = json.loads(r.output)["events"]
    declared = json.loads(lines[-1])
    declared.pop("note", None)
    assert declared in events


# ==================================================================================================
# unreadable input: exit 2, file:line: field: reason, no traceback
# ==================================================================================================

def good_lines() -> list[bytes]:
    return encode([setup()]).splitlines() + [
        b'{"type":"DeckShuffled","player":"alice"}',
        b'{"type":"DeckShuffled","player":"bob"}',
        b'{"type":"FirstPlayerDecided","player":"alice"}',
        b'{"type":"CardDrawn","player":"alice","card":"ash"}',
    ]


BAD = {
    "not-json": (4, None, "not valid JSON", lambda ls: ls[:3] + [b'{"type":"FirstPlayerDecided",'] + ls[4:]),
    "unknown-type": (3, "type", "unknown event type", lambda ls: ls[:2] + [b'{"type":"DeckCut","player":"bob"}'] + ls[3:]),
    "wrong-field-type": (5, "card", "expected `str | null`, got `int`",
                         lambda ls: ls[:4] + [b'{"type":"CardDrawn","player":"alice","card":7}']),
    "unknown-card": (5, "card", "unknown card 'excalibur'",
                     lambda ls: ls[:4] + [b'{"type":"CardDrawn","player":"alice","card":"excalibur"}']),
    "unknown-player": (4, "player", "unknown player 'carol'",
                       lambda ls: ls[:3] + [b'{"type":"FirstPlayerDecided","player":"carol"}'] + ls[4:]),
    "seq-gap": (3, "seq", "expected 3, got 4",
                lambda ls: [ls[0], ls[1][:-1] + b',"seq":2}', ls[2][:-1] + b',"seq":4}'] + ls[3:]),
    "missing-match-started": (1, "type", "the first event must be MatchStarted", lambda ls: ls[1:]),
    "missing-field": (4, "player", "required field is missing", lambda ls: ls[:3] + [b'{"type":"FirstPlayerDecided"}'] + ls[4:]),
}


@pytest.mark.parametrize("case", sorted(BAD) + ["truncated"])
def test_unreadable_logs_exit_2(case: str, tmp_path: Path) -> None:
    path = tmp_path / f"{case}.jsonl"
    if case == "truncated":
        lines = good_lines()
        data = b"\n".join(lines) + b"\n" + b'{"type":"CardDrawn","player":"al'
        line, field, reason = len(lines) + 1, None, "truncated last line"
    else:
        line, field, reason, edit = BAD[case]
        data = b"\n".join(edit(good_lines())) + b"\n"
    path.write_bytes(data)
    r = invoke("verify", path)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    where = f"{path}:{line}: " + (f"{field}: " if field else "")
    assert f"{path}: unreadable: {where}" in r.output, r.output
    assert reason in r.output, r.output
    # the same file through another command: an error line, exit 2
    r2 = invoke("state", path)
    assert r2.exit_code == 2 and "Traceback" not in r2.output
    assert f"error: {where}" in r2.output, r2.output


def test_the_good_lines_are_readable(tmp_path: Path) -> None:
    path = tmp_path / "ok.jsonl"
    path.write_bytes(b"\n".join(good_lines()) + b"\n")
    r = invoke("verify", path)
    assert r.exit_code == 0, r.output
