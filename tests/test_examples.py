"""The Colossus Order example logs (``examples/colossus-order/``) and unreadable input.

Every example verifies with the verdict its name gives; an illegal example's first violation cites
the rule id in its name, on its last line.  The files are what ``tests/make_co_examples.py``
generates.  The CLI verifies the whole ``examples/`` tree, and unreadable logs exit 2 with a
``file:line: field: reason`` message, never a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.core.log import read_log
from adjudicator.core.verify import run
from adjudicator.cli.main import main

from .co_scenarios import encode, setup
from .make_co_examples import OUT, features, generate, legal_examples

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "colossus-order"
FILES = sorted(EXAMPLES.glob("*.jsonl"))
NAME = re.compile(r"^(?P<verdict>legal|illegal)-(?:(?P<rule>(?:CO|LOG)-\d+(?:\.\d+)?)-)?(?P<what>[a-z0-9.-]+)\.jsonl$")


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


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_example_verdict_matches_its_name(path: Path) -> None:
    info = parts(path)
    res = run(read_log(path))
    assert res.verdict == info["verdict"], [v.as_dict() for v in res.violations]
    if info["verdict"] == "illegal":
        assert info["rule"], "an illegal example names the rule it breaks"
        first = res.violations[0]
        assert first.rule == info["rule"], first
        # one violation, on the last line (the log stops there), whose note says what is wrong
        lines = path.read_bytes().splitlines()
        assert first.line == len(lines), first
        assert b'"note":' in lines[-1]
        keep = run(read_log(path), keep_going=True)
        assert [v.rule for v in keep.violations] == [info["rule"]]
    else:
        assert res.outcome is not None, "a legal example is a complete match"


def test_legal_examples_end_as_named_and_show_the_promised_play() -> None:
    made = {name: make() for name, make in legal_examples().items()}
    gem = made["legal-gem-complete.jsonl"]
    assert gem.state().result.reason == "gem-complete"
    assert {"block", "snap-in-xplay", "deck-capture", "locus-hit", "declaration"} <= features(gem)
    out = made["legal-deck-out.jsonl"]
    assert out.state().result.reason == "deck-out"
    assert {"block", "deck-capture", "snap-in-xplay"} <= features(out)


def test_regenerating_gives_the_committed_files() -> None:
    assert OUT == EXAMPLES
    made = generate()
    assert sorted(made) == [p.name for p in FILES]
    for name, data in made.items():
        assert (EXAMPLES / name).read_bytes() == data, f"{name} differs: run python -m tests.make_co_examples"


def test_readme_has_a_line_per_file() -> None:
    readme = (EXAMPLES / "README.md").read_text()
    for p in FILES:
        line = next((ln for ln in readme.splitlines() if f"`{p.name}`" in ln), None)
        assert line, f"README.md does not describe {p.name}"
        rule = parts(p)["rule"]
        if rule:
            assert rule in line


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


@pytest.mark.parametrize("path", [p for p in FILES if p.name.startswith("illegal-") and "CO-1." not in p.name],
                         ids=lambda p: p.name)
def test_cli_check_rules_on_the_offending_line(path: Path) -> None:
    """``check LOG --at N-1 --event LAST`` gives the same ruling as ``verify`` (exit 1)."""
    lines = path.read_bytes().splitlines()
    rule = parts(path)["rule"]
    r = invoke("check", path, "--at", len(lines) - 1, "--event", lines[-1].decode())
    assert r.exit_code == 1, r.output
    assert r.output.startswith(f"illegal: {rule} ["), r.output
    ok = invoke("check", path, "--at", len(lines) - 2, "--event", lines[-2].decode())
    assert ok.exit_code == 0 and ok.output.startswith("legal: "), ok.output


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
