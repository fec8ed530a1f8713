"""The Kolossus documents: every gap of the design analysis (KO-1..KO-31) and every ruleset option
has its entry in docs/rules/kolossus.md, and the complete example of docs/games/kolossus.md is a
legal, finished match.  (tests/test_docs.py checks rule ids, codes and events for every registered
game; these are the Kolossus-specific checks, as that file has for Colossus Order.)"""

from __future__ import annotations

import inspect
import re
import typing

import pytest

from adjudicator.core.log import parse_log
from adjudicator.core.verify import run
from adjudicator.games.kolossus.state import PRESETS, Options

from .kolossus_scenarios import GAME
from .test_docs import entry_text, game_doc, has_entry, json_blocks, read, rules_doc, sections

KO_GAPS = [f"KO-{n}" for n in range(1, 32)]
RULES_DOC = rules_doc("kolossus")


@pytest.mark.parametrize("gap", KO_GAPS)
def test_every_gap_of_the_design_analysis_has_an_entry(gap: str) -> None:
    text = read(RULES_DOC)
    assert has_entry(text, gap), f"docs/rules/kolossus.md has no entry for the gap {gap}"
    body = entry_text(text, gap)
    assert "*Question.*" in body and "*Engine.*" in body and "*Option:*" in body, gap


def test_every_option_is_named_with_its_values() -> None:
    text = read(RULES_DOC)
    hints = typing.get_type_hints(Options)
    problems = []
    for name in Options.__struct_fields__:
        if f"`{name}`" not in text:
            problems.append(f"option {name} is not named")
        for value in typing.get_args(hints[name]):
            if isinstance(value, str) and f'"{value}"' not in text:
                problems.append(f"option {name}: value {value!r} is not named")
    for preset in PRESETS:
        if f"`{preset}`" not in text:
            problems.append(f"ruleset preset {preset} is not named")
    assert not problems, "\n".join(problems)


def test_each_option_is_documented_in_the_entry_of_its_gap() -> None:
    source = inspect.getsource(Options)
    text = read(RULES_DOC)
    gap = None
    seen = 0
    for line in source.splitlines():
        m = re.match(r"\s*#:\s*(KO-\d+)\b", line)
        if m:
            gap = m.group(1)
            continue
        f = re.match(r"\s*(\w+)\s*:", line)
        if f and f.group(1) in Options.__struct_fields__ and gap is not None:
            seen += 1
            assert f"`{f.group(1)}`" in entry_text(text, gap), \
                f"option {f.group(1)} settles {gap}, but the entry of {gap} does not name it"
    assert seen == len(Options.__struct_fields__), "every option needs a `#: KO-n:` comment in state.py"


def test_the_complete_example_is_a_legal_finished_match() -> None:
    text = read(game_doc("kolossus"))
    secs = sections(text, level=2)
    blocks = json_blocks(secs["A complete example"], "jsonl")
    assert len(blocks) == 1
    data = blocks[0][1].encode()
    result = run(parse_log(data, "complete-example"))
    assert result.verdict == "legal", [v.as_dict() for v in result.violations]
    assert result.outcome is not None and result.outcome.winner == "ann+cat"
    kept = [ln for ln in data.decode().splitlines() if ln.strip() and GAME.decoder.decode(ln.encode()).kind != "X"]
    assert len(kept) < len(data.decode().splitlines())
    bare = run(parse_log(("\n".join(kept) + "\n").encode(), "without-x"))
    assert bare.verdict == "legal" and bare.outcome == result.outcome
    # the commands the page shows give what it says
    state = run(parse_log(data), upto=18).state
    assert state.step == "move" and state.activation.mp == 9
    assert len(GAME.legal_events(state)) == 512
