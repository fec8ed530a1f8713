"""What the LOGOS documents promise beyond what every game's do: the complete example of the log
page ends as the page says with the commitment it shows; the sample pool is listed card by card
and covers the seed; a malformed pool names the file, the card and the field.
(``tests/test_every_game.py`` checks, for every shipped game, its gaps, options, complete example,
examples and rule coverage.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.verify import run
from adjudicator.games.logos.cards import load_pool

from .logos_scenarios import GAME
from .test_docs import json_blocks, sections

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules" / "logos.md"
GAME_DOC = ROOT / "docs" / "games" / "logos.md"
GAPS = [f"LG-{n}" for n in range(1, 31)]


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


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
    # every effect in each field, the panels of every colour, Speed 99 and 100 (docs: V-4 to V-7)
    for side in ("left", "right"):
        on_side = {fx.do for c in pool.cards.values() if (fx := c.field(side)) is not None}
        assert on_side == set(PERMANENT + TEMPORARY), (side, set(PERMANENT + TEMPORARY) - on_side)
    assert {p for c in pool.cards.values() for p in c.combo} == set(CLASSES) | {"grey"}
    speeds = {c.speed: c for c in pool.cards.values()}
    assert not speeds[99].backup_eligible and any(c.speed == 100 and c.backup_eligible for c in pool.cards.values())
    assert any(c.speed >= 100 and c.has_combo for c in pool.cards.values())
    changes = {(fx.src, fx.to) for c in pool.cards.values() for fx in (c.left, c.right) if fx is not None and fx.do == "color-change"}
    assert any(src == "life" for src, _ in changes) and any(to == "life" for _, to in changes)
    assert any(c.has_combo and "grey" in c.combo for c in pool.cards.values())
    assert sum(c.backup_eligible for c in pool.cards.values()) >= 3
    keeper = pool["archive-keeper"]
    assert (keeper.klass, keeper.attack, keeper.defense, keeper.speed, keeper.combo) == (
        "information", 5000, 20000, 70, ("grey", "information", "information"))
    assert keeper.right is not None and keeper.right.do == "regeneration" and keeper.left is None


def test_a_malformed_pool_names_the_file_card_and_field(tmp_path: Path) -> None:
    from adjudicator.core.kernel.errors import DataError
    from adjudicator.games.logos.cards import load_pool_file

    cases = {
        'attack = "lots"': "card 'bad-card'",
        'left = { do = "color-change", from = "matter" }': "left: color-change needs both",
        'left = { do = "teleport" }': "card 'bad-card'",
        "speed = -1": "speed: must not be negative",
        'combo = ["grey", "grey"]': "card 'bad-card'",
        # what the game does not allow (docs/rules/logos.md, "What a card can be", LG-32, LG-26, LG-33)
        "attack = 1000000001": "attack: 1000000001 is over the limit of 1,000,000,000",
        "attack = " + "9" * 5000: "an integer of more than 4,300 digits",
        'left = { do = "color-change", from = "life", to = "life" }': "left: color-change from 'life' to itself",
        'right = { do = "berserk", to = "life" }': "right: only color-change takes 'from' and 'to'",
        'right = { do = "color-change", to = "life" }': "right: color-change needs both 'from' and 'to'",
        'combo = ["grey", "purple", "grey"]': "card 'bad-card'",
        'class = "shadow"': "card 'bad-card'",
        "speed = 99.5": "card 'bad-card'",
    }
    for line, why in cases.items():
        base = {"class": 'class = "matter"', "attack": "attack = 1", "speed": "speed = 1"}
        key = line.split(" ")[0]
        body = "\n".join(v for k, v in base.items() if k != key)
        p = tmp_path / "broken.toml"
        p.write_text(f'pool = "broken"\n[[card]]\nid = "bad-card"\nname = "Bad"\ndefense = 1\n{body}\n{line}\n')
        with pytest.raises(DataError) as exc:
            load_pool_file(p)
        assert str(p) in str(exc.value) and why in str(exc.value), (line, str(exc.value))
    p = tmp_path / "other.toml"
    p.write_text('pool = "sample"\n')
    with pytest.raises(DataError):
        load_pool_file(p)
    with pytest.raises(DataError):
        load_pool("no-such-pool")
