"""What every shipped game must have, parametrised over the registry: docs, options, examples and
rule coverage.

A game package under ``adjudicator/games/`` gets all of these by being registered; it declares in
:data:`PROFILES` only what cannot be found from the registry (how many gaps the design analysis
numbers for it, the module of its rule tests, the module generating its examples).  The checks:

- **rules doc** (``docs/rules/<game>.md``): every gap has an entry with its question, the engine's
  interpretation and its option; every ruleset option and its values and every preset are named;
  each option is named in the entry of the gap it settles (the ``#: <PREFIX>-<n>:`` comment above
  it in ``state.Options``);
- **game doc** (``docs/games/<game>.md``): its complete example verifies as a legal, finished
  match, also without the derived (X) lines;
- **examples** (``examples/<game>/``): each verifies with the verdict its name gives (an illegal
  one at its last line, citing the rule in its name, alone under ``--keep-going``); there are a
  legal complete match and illegal logs breaking at least :attr:`Profile.min_rules` rules; the
  README has a line per file; ``check`` rules on the offending line as ``verify`` does; the files
  are what the generator gives;
- **rule coverage**: every rule id of the rulebook has a legal and an illegal test (or, for an id
  that can never reject, a behaviour test) in the game's rule tests.

``tests/test_docs.py`` checks the rule ids, codes and event sections of every game.
"""

from __future__ import annotations

import importlib
import inspect
import re
import typing
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.log import parse_log, read_log
from adjudicator.core.kernel.verify import run

from .test_docs import entry_text, game_doc, has_entry, json_blocks, read, rules_doc, sections

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Profile:
    #: how many gaps the design analysis numbers for the game (``<PREFIX>-1`` ..)
    gaps: int
    #: the module of the game's rule tests (it builds a ``tests.rulecov.RuleCoverage``)
    rule_tests: str
    #: the module generating ``examples/<game>/`` (``OUT``, ``generate()``)
    examples: str
    #: the illegal examples must break at least this many different rules
    min_rules: int = 10


PROFILES: dict[str, Profile] = {
    "colossus-order": Profile(34, "tests.test_co_rules", "tests.make_co_examples"),
    "logos": Profile(30, "tests.test_logos_rules", "tests.logos_make_examples"),
    "kolossus": Profile(31, "tests.test_kolossus_rules", "tests.make_kolossus_examples", min_rules=12),
    "colossi": Profile(28, "tests.test_colossi_rules", "tests.colossi_make_examples", min_rules=12),
}

# the shipped games (tests may register a test-only game; it has no docs)
GAMES = [g.id for g in registry.games() if type(g).__module__.startswith("adjudicator.games.")]


def prefix(gid: str) -> str:
    return registry.get(gid).rulebook.prefix


def test_every_shipped_game_has_a_profile() -> None:
    missing = sorted(set(GAMES) - set(PROFILES))
    assert not missing, f"add these games to PROFILES in {__name__}: {missing}"
    assert set(PROFILES) <= set(GAMES)


# -- the rules document: gaps and options -------------------------------------------------------------

def gaps(gid: str) -> list[str]:
    """The design analysis's gaps and every undotted (gap) id of the rulebook."""
    p = prefix(gid)
    found = {f"{p}-{n}" for n in range(1, PROFILES[gid].gaps + 1)}
    found |= {rid for rid in registry.get(gid).rulebook.ids() if "." not in rid}
    return sorted(found, key=lambda r: int(r.split("-")[1]))


@pytest.mark.parametrize("gid", GAMES)
def test_every_gap_has_an_entry_with_question_interpretation_and_option(gid: str) -> None:
    text = read(rules_doc(gid))
    problems = []
    for gap in gaps(gid):
        if not has_entry(text, gap):
            problems.append(f"no entry for the gap {gap}")
            continue
        body = entry_text(text, gap)
        if not ("*Question.*" in body and "*Engine.*" in body and "*Option:*" in body):
            problems.append(f"{gap}: the entry must state *Question.*, *Engine.* and *Option:* (or none)")
    assert not problems, f"docs/rules/{gid}.md:\n" + "\n".join(problems)


@pytest.mark.parametrize("gid", GAMES)
def test_every_option_and_preset_is_named_with_its_values(gid: str) -> None:
    g = registry.get(gid)
    text = read(rules_doc(gid))
    hints = typing.get_type_hints(g.options_type)
    problems = []
    for name in g.options_type.__struct_fields__:
        if f"`{name}`" not in text:
            problems.append(f"option {name} is not named")
        for value in typing.get_args(hints[name]):
            if isinstance(value, str) and f'"{value}"' not in text:
                problems.append(f"option {name}: value {value!r} is not named")
    for preset in g.presets:
        if f"`{preset}`" not in text:
            problems.append(f"ruleset preset {preset} is not named")
    assert not problems, f"docs/rules/{gid}.md:\n" + "\n".join(problems)


@pytest.mark.parametrize("gid", GAMES)
def test_each_option_is_named_in_the_entry_of_its_gap(gid: str) -> None:
    g = registry.get(gid)
    options = g.options_type
    source = inspect.getsource(options)
    text = read(rules_doc(gid))
    gap = None
    seen = 0
    for line in source.splitlines():
        m = re.match(rf"\s*#:\s*({prefix(gid)}-\d+)\b", line)
        if m:
            gap = m.group(1)
            continue
        f = re.match(r"\s*(\w+)\s*:", line)
        if f and f.group(1) in options.__struct_fields__ and gap is not None:
            seen += 1
            assert f"`{f.group(1)}`" in entry_text(text, gap), \
                f"option {f.group(1)} settles {gap}, but the entry of {gap} does not name it"
    assert seen == len(options.__struct_fields__), f"every option needs a `#: {prefix(gid)}-n:` comment in state.py"


# -- the game document's complete example ------------------------------------------------------------

@pytest.mark.parametrize("gid", GAMES)
def test_the_complete_example_is_a_legal_finished_match(gid: str) -> None:
    g = registry.get(gid)
    secs = sections(read(game_doc(gid)), level=2)
    assert "A complete example" in secs, f"docs/games/{gid}.md has no `## A complete example`"
    blocks = json_blocks(secs["A complete example"], "jsonl")
    assert len(blocks) == 1, "the complete example is one ```jsonl block"
    data = blocks[0][1].encode()
    result = run(parse_log(data, "complete-example"))
    assert result.verdict == "legal", [v.as_dict() for v in result.violations]
    assert result.outcome is not None, "the example match should end"
    lines = [ln for ln in data.decode().splitlines() if ln.strip()]
    kept = [ln for ln in lines if g.decoder.decode(ln.encode()).kind != "X"]
    assert len(kept) < len(lines), "the complete example writes the derived events"
    bare = run(parse_log(("\n".join(kept) + "\n").encode(), "complete-example-without-x"))
    assert bare.verdict == "legal", [v.as_dict() for v in bare.violations]
    assert bare.outcome == result.outcome


# -- the examples -------------------------------------------------------------------------------------

def example_dir(gid: str) -> Path:
    return ROOT / "examples" / gid


def example_files(gid: str) -> list[Path]:
    return sorted(example_dir(gid).glob("*.jsonl"))


EXAMPLES = [(gid, p) for gid in GAMES for p in example_files(gid)]


def parts(gid: str, path: Path) -> dict[str, str | None]:
    name = re.compile(rf"^(?P<verdict>legal|illegal|undetermined)-(?:(?P<rule>(?:{prefix(gid)}|LOG)-\d+(?:\.\d+)?)-)?"
                      r"(?P<what>[a-z0-9.-]+)\.jsonl$")
    m = name.match(path.name)
    assert m, f"example file name {path.name!r} does not say its verdict (legal-... / illegal-RULE-...)"
    return m.groupdict()


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("gid", GAMES)
def test_there_are_enough_examples(gid: str) -> None:
    files = example_files(gid)
    legal = [p for p in files if parts(gid, p)["verdict"] == "legal"]
    rules = {parts(gid, p)["rule"] for p in files if parts(gid, p)["verdict"] == "illegal"}
    assert legal, f"examples/{gid} has no legal complete match"
    assert len(rules) >= PROFILES[gid].min_rules, f"examples/{gid}: illegal logs break only {sorted(rules)}"


@pytest.mark.parametrize(("gid", "path"), EXAMPLES, ids=[f"{g}/{p.name}" for g, p in EXAMPLES])
def test_example_verdict_matches_its_name(gid: str, path: Path) -> None:
    info = parts(gid, path)
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
    elif info["verdict"] == "legal":
        assert res.outcome is not None, "a legal example is a complete match"
    else:  # a seat's record (unknown identities): conditions, never a violation
        assert res.undetermined and not res.violations


@pytest.mark.parametrize("gid", GAMES)
def test_the_examples_readme_has_a_line_per_file(gid: str) -> None:
    readme = (example_dir(gid) / "README.md").read_text(encoding="utf-8")
    for p in example_files(gid):
        line = next((ln for ln in readme.splitlines() if f"`{p.name}`" in ln), None)
        assert line, f"examples/{gid}/README.md does not describe {p.name}"
        rule = parts(gid, p)["rule"]
        if rule:
            assert rule in line, f"examples/{gid}/README.md: the line of {p.name} does not cite {rule}"


def _checkable(gid: str, p: Path) -> bool:
    """An illegal example whose offending line ``check`` can rule on (not the set-up's rules)."""
    return p.name.startswith("illegal-") and f"{prefix(gid)}-1." not in p.name


CHECKABLE = [(g, p) for g, p in EXAMPLES if _checkable(g, p)]


@pytest.mark.parametrize(("gid", "path"), CHECKABLE, ids=[f"{g}/{p.name}" for g, p in CHECKABLE])
def test_cli_check_rules_on_the_offending_line(gid: str, path: Path) -> None:
    """``check LOG --at N-1 --event LAST`` gives the same ruling as ``verify`` (exit 1), and the
    line before it (a proposed one, after the set-up) is legal."""
    lines = path.read_bytes().splitlines()
    rule = parts(gid, path)["rule"]
    r = invoke("check", path, "--at", len(lines) - 1, "--event", lines[-1].decode())
    assert r.exit_code == 1, r.output
    assert r.output.startswith(f"illegal: {rule} ["), r.output
    before = registry.get(gid).decoder.decode(lines[-2])
    if len(lines) > 2 and before.kind != "X":  # a derived event is never proposed
        ok = invoke("check", path, "--at", len(lines) - 2, "--event", lines[-2].decode())
        assert ok.exit_code == 0 and ok.output.startswith("legal: "), ok.output


@pytest.mark.parametrize("gid", GAMES)
def test_regenerating_the_examples_gives_the_committed_files(gid: str) -> None:
    maker = importlib.import_module(PROFILES[gid].examples)
    assert maker.OUT == example_dir(gid)
    made = maker.generate()
    assert sorted(made) == [p.name for p in example_files(gid)]
    for name, data in made.items():
        assert (example_dir(gid) / name).read_bytes() == data, f"{name} differs: run python -m {maker.__name__}"


# -- rule coverage ------------------------------------------------------------------------------------

@pytest.mark.parametrize("gid", GAMES)
def test_every_rule_id_has_a_legal_and_an_illegal_test(gid: str) -> None:
    tests = importlib.import_module(PROFILES[gid].rule_tests)
    coverage = tests._COVERAGE
    never = getattr(tests, "NEVER_REJECTS", {})
    rules = registry.get(gid).rulebook.ids()
    assert set(coverage.rules) == set(rules), "the coverage is built over the game's whole rulebook"
    missing = []
    for rid in rules:
        shown = coverage.covered.get(rid, set())
        if rid in never:
            if not shown & {"behaviour", "illegal"}:
                missing.append(f"{rid}: no behaviour test ({never[rid]})")
        elif not {"legal", "illegal"} <= shown:
            missing.append(f"{rid}: {sorted(shown) or 'nothing'}")
    assert not missing, f"{PROFILES[gid].rule_tests}: " + "; ".join(missing)
    assert set(never) <= set(rules)
