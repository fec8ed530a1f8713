"""The LOGOS documentation covers what the engine can say.

``tests/test_docs.py`` checks rule ids, codes, event sections and JSON examples for every
registered game; this file checks the same for LOGOS on its own (so the docs are checked before
the game is registered too) and adds what is particular to LOGOS: every gap LG-1..LG-30 of the
design analysis has an entry with its question, the engine's interpretation and its option; every
ruleset option and preset is named; the complete example of the log page verifies; the sample pool
is listed card by card.
"""

from __future__ import annotations

import inspect
import re
import typing
from pathlib import Path

import pytest

from adjudicator.core.events import ENVELOPE_FIELDS
from adjudicator.core.log import parse_log
from adjudicator.core.verify import run
from adjudicator.games.logos.cards import load_pool
from adjudicator.games.logos.rulebook import RULEBOOK
from adjudicator.games.logos.state import PRESETS, Options

from .logos_scenarios import GAME
from .test_docs import entry_text, has_entry, json_blocks, prose, sections, enclosing_heading

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules" / "logos.md"
GAME_DOC = ROOT / "docs" / "games" / "logos.md"
GAPS = [f"LG-{n}" for n in range(1, 31)]


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_every_rule_id_has_an_entry() -> None:
    doc = text(RULES_DOC)
    missing = [rid for rid in RULEBOOK.ids() if not has_entry(doc, rid)]
    assert not missing, missing


def test_every_ruling_code_is_documented() -> None:
    package = ROOT / "adjudicator" / "games" / "logos"
    codes = set()
    for path in package.rglob("*.py"):
        codes |= set(re.findall(r"\bbad\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*\"([a-z0-9-]+)\"", path.read_text()))
    assert len(codes) > 20, codes
    doc = text(RULES_DOC)
    assert not [c for c in codes if f"`logos/{c}`" not in doc]


@pytest.mark.parametrize("gap", GAPS)
def test_every_gap_has_an_entry(gap: str) -> None:
    doc = text(RULES_DOC)
    assert gap in RULEBOOK.ids()
    assert has_entry(doc, gap), gap
    body = entry_text(doc, gap)
    assert "*Question.*" in body and "*Engine.*" in body and "*Option:*" in body, gap


def test_every_option_and_preset_is_named_with_its_values() -> None:
    doc = text(RULES_DOC)
    hints = typing.get_type_hints(Options)
    problems = []
    for name in Options.__struct_fields__:
        if f"`{name}`" not in doc:
            problems.append(f"option {name} is not named")
        for value in typing.get_args(hints[name]):
            if isinstance(value, str) and f'"{value}"' not in doc:
                problems.append(f"option {name}: value {value!r} is not named")
    for preset in PRESETS:
        if f"`{preset}`" not in doc:
            problems.append(f"preset {preset} is not named")
    assert not problems, problems


def test_each_option_is_documented_in_the_entry_of_its_gap() -> None:
    source = inspect.getsource(Options)
    doc = text(RULES_DOC)
    gap = None
    seen = 0
    for line in source.splitlines():
        m = re.match(r"\s*#:\s*(LG-\d+)\b", line)
        if m:
            gap = m.group(1)
            continue
        f = re.match(r"\s*(\w+)\s*:", line)
        if f and f.group(1) in Options.__struct_fields__ and gap is not None:
            seen += 1
            assert f"`{f.group(1)}`" in entry_text(doc, gap), (f.group(1), gap)
    assert seen == len(Options.__struct_fields__)


def test_every_event_has_a_section_with_its_kind_fields_and_examples() -> None:
    doc = text(GAME_DOC)
    secs = sections(prose(doc))
    problems = []
    for cls in GAME.event_types:
        name = cls.__name__
        if name not in secs:
            problems.append(f"no ### {name}")
            continue
        body = secs[name]
        if f"Kind **{cls.kind}**" not in body:
            problems.append(f"{name}: kind")
        for field in cls.__struct_fields__:
            if field not in ENVELOPE_FIELDS and f"`{field}`" not in body:
                problems.append(f"{name}: field {field}")
    names = {cls.__name__ for cls in GAME.event_types}
    seen: set[str] = set()
    for start, body in json_blocks(doc, "json"):
        pos = sum(len(x) + 1 for x in doc.split("\n")[: start - 1])
        section = enclosing_heading(doc, pos)
        assert section in names, (start, section)
        for line in body.splitlines():
            if line.strip():
                event = GAME.decoder.decode(line.encode())
                assert type(event).__name__ == section, (start, line)
                seen.add(section)
    assert names == seen, names - seen
    assert not problems, problems


def test_the_complete_example_is_a_legal_finished_match() -> None:
    doc = text(GAME_DOC)
    blocks = json_blocks(sections(doc, level=2)["A complete example"], "jsonl")
    assert len(blocks) == 1
    data = blocks[0][1].encode()
    result = run(parse_log(data, "complete-example"))
    assert result.verdict == "legal", [v.as_dict() for v in result.violations]
    assert (result.outcome.winner, result.outcome.reason) == ("ann", "hit-points")
    kept = [ln for ln in data.decode().splitlines() if ln.strip() and GAME.decoder.decode(ln.encode()).kind != "X"]
    bare = run(parse_log(("\n".join(kept) + "\n").encode(), "without-x"))
    assert bare.verdict == "legal" and bare.outcome == result.outcome
    # the commitment shown on the page is the one of the example
    assert "be60566a2275a499faff706ff06c0549d918072711038750c9bb89b51427b743" in data.decode()


def test_the_sample_pool_is_listed_and_covers_the_seed() -> None:
    from adjudicator.games.logos.cards import CLASSES, PERMANENT, TEMPORARY

    doc = text(RULES_DOC)
    pool = load_pool("sample")
    assert len(pool.cards) >= 31
    for cid, card in pool.cards.items():
        row = next((ln for ln in doc.splitlines() if ln.startswith(f"| `{cid}` |")), None)
        assert row, f"{cid} is not in the pool table"
        assert f"| {card.klass} | {card.attack:,} | {card.defense:,} | {card.speed} |" in row, row
    assert {c.klass for c in pool.cards.values()} == set(CLASSES)
    used = {fx.do for c in pool.cards.values() for fx in (c.left, c.right) if fx is not None}
    assert used == set(PERMANENT + TEMPORARY)
    assert any(c.has_combo and "grey" in c.combo for c in pool.cards.values())
    assert sum(c.backup_eligible for c in pool.cards.values()) >= 3
    keeper = pool["archive-keeper"]
    assert (keeper.klass, keeper.attack, keeper.defense, keeper.speed, keeper.combo) == (
        "information", 5000, 20000, 70, ("grey", "information", "information"))
    assert keeper.right is not None and keeper.right.do == "regeneration" and keeper.left is None


def test_a_malformed_pool_names_the_file_card_and_field(tmp_path: Path) -> None:
    from adjudicator.core.errors import DataError
    from adjudicator.games.logos.cards import load_pool_file

    cases = {
        'attack = "lots"': "card 'bad-card'",
        'left = { do = "color-change", from = "matter" }': "left: color-change needs both",
        'left = { do = "teleport" }': "card 'bad-card'",
        "speed = -1": "speed: must not be negative",
        'combo = ["grey", "grey"]': "card 'bad-card'",
    }
    for line, why in cases.items():
        base = {"attack": "attack = 1", "speed": "speed = 1"}
        key = line.split(" ")[0]
        body = "\n".join(v for k, v in base.items() if k != key)
        p = tmp_path / "broken.toml"
        p.write_text(f'pool = "broken"\n[[card]]\nid = "bad-card"\nname = "Bad"\nclass = "matter"\ndefense = 1\n{body}\n{line}\n')
        with pytest.raises(DataError) as exc:
            load_pool_file(p)
        assert str(p) in str(exc.value) and why in str(exc.value), (line, str(exc.value))
    p = tmp_path / "other.toml"
    p.write_text('pool = "sample"\n')
    with pytest.raises(DataError):
        load_pool_file(p)
    with pytest.raises(DataError):
        load_pool("no-such-pool")
