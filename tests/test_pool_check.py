"""Card-pool files: TOML or JSON, ``pool check`` (every problem with its line), ``pool show``,
``schema GAME --pool``, as a user runs them."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import DataError
from adjudicator.core.services.pools import _Lines, check_pool, pool_loader
from adjudicator.games.colossus_order import cards as co_cards
from adjudicator.games.logos import cards as lg_cards

CO_SAMPLE = Path(co_cards.DATA) / "sample.toml"
LG_SAMPLE = Path(lg_cards.DATA) / "sample.toml"


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


# ten planted mistakes of different kinds; each line a problem is reported on is marked MISTAKE
CO_BAD = '''pool = "bad"
description = "ten planted mistakes"
colour = "white"  # MISTAKE unknown header field

[[card]]
id = "ok-knight"
name = "OK Knight"
type = "follower"
colour = "white"
attack = 2
defence = 2

[[card]]  # MISTAKE a Follower with no Defence
id = "no-defence"
name = "No Defence"
type = "follower"
colour = "white"
attack = 3

[[card]]
id = "bad-kind"
name = "Bad Kind"
type = "action"
colour = "black"
effects = [{ do = "teleport" }]  # MISTAKE unknown effect kind

[[card]]
id = "bad-target"
name = "Bad Target"
type = "action"
colour = "black"
effects = [{ do = "destroy", target = "everyone" }]  # MISTAKE bad target

[[card]]
id = "ok-knight"  # MISTAKE duplicate id
name = "Twin"
type = "follower"
colour = "white"
attack = 1
defence = 1

[[card]]
id = "typo"
name = "Typo"
type = "follower"
colour = "white"
defence = 1
atack = 2  # MISTAKE unknown field

[[card]]
id = "wrong-type"
name = "Wrong Type"
type = "follower"
colour = "white"
attack = "three"  # MISTAKE wrong type
defence = 1

[[card]]
id = "negative"
name = "Negative"
type = "action"
colour = "red"
locus_cost = -1  # MISTAKE negative value

[[card]]
id = "green"
name = "Green"
type = "follower"
colour = "green"  # MISTAKE unknown colour
defence = 1

[[card]]
id = "odd-gem"
name = "Odd Gem"
type = "follower"
colour = "blue"
defence = 1
gem_level = { purple = 1 }  # MISTAKE unknown gem colour
'''

LG_BAD = '''pool = "bad"
colour = "red"  # MISTAKE unknown header field

[[card]]
id = "fine"
name = "Fine"
class = "matter"
attack = 1
defense = 1
speed = 10

[[card]]
id = "fine"  # MISTAKE duplicate id
name = "Fine again"
class = "energy"
attack = 1
defense = 1
speed = 10

[[card]]
id = "purple"
name = "Purple"
class = "purple"  # MISTAKE unknown class
attack = 1
defense = 1
speed = 10

[[card]]  # MISTAKE no speed
id = "slowless"
name = "Slowless"
class = "matter"
attack = 1
defense = 1

[[card]]
id = "minus"
name = "Minus"
class = "life"
attack = 1
defense = -5  # MISTAKE negative value
speed = 100

[[card]]
id = "teleporter"
name = "Teleporter"
class = "energy"
attack = 1
defense = 1
speed = 10
left = { do = "teleport" }  # MISTAKE unknown effect kind

[[card]]
id = "half-change"
name = "Half Change"
class = "energy"
attack = 1
defense = 1
speed = 10
right = { do = "color-change", from = "matter" }  # MISTAKE color-change needs both

[[card]]
id = "short-combo"
name = "Short Combo"
class = "neutral"
attack = 1
defense = 1
speed = 10
combo = ["grey", "grey"]  # MISTAKE wrong shape

[[card]]
id = "Not-A-Slug"  # MISTAKE id not a slug
name = "Shouting"
class = "neutral"
attack = 1
defense = 1
speed = 10

[[card]]
id = "stringy"
name = "Stringy"
class = "matter"
attack = "lots"  # MISTAKE wrong type
defense = 1
speed = 10
'''


def marked_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines(), 1) if "# MISTAKE" in line]


def as_json(text: str) -> str:
    return json.dumps(tomllib.loads(text), indent=2)


@pytest.mark.parametrize(("game", "text"), [("colossus-order", CO_BAD), ("logos", LG_BAD)])
def test_ten_planted_mistakes_are_all_reported_with_their_lines(tmp_path: Path, game: str, text: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    r = invoke("pool", "check", path, "--game", game)
    assert r.exit_code == 2, r.output
    problems = [line for line in r.output.splitlines() if re.match(rf"{re.escape(str(path))}:\d+: ", line)]
    expected = marked_lines(text)
    assert len(expected) == 10
    assert [int(p.split(":")[1]) for p in problems] == expected, r.output
    assert "10 problems" in r.output
    # every card problem names its card
    src = text.splitlines()
    for p in problems[1:]:
        line = int(p.split(":")[1])
        card_ids = [s.split('"')[1] for s in src[:line + 6] if s.startswith("id = ")]
        assert f"card {card_ids[-1]!r}" in p or f"card {card_ids[-2]!r}" in p, p


@pytest.mark.parametrize(("game", "text"), [("colossus-order", CO_BAD), ("logos", LG_BAD)])
def test_the_same_mistakes_in_json_point_at_their_keys(tmp_path: Path, game: str, text: str) -> None:
    toml_path, json_path = tmp_path / "bad.toml", tmp_path / "bad.json"
    toml_path.write_text(text)
    json_path.write_text(as_json(text))
    loader = pool_loader(registry.get(game))
    assert loader is not None
    from_toml = check_pool(toml_path, loader, game)
    from_json = check_pool(json_path, loader, game)
    assert [(p.card, p.field, p.message) for p in from_json.problems] == \
        [(p.card, p.field, p.message) for p in from_toml.problems]
    lines = json_path.read_text().splitlines()
    for p in from_json.problems:
        assert p.line is not None
        key = p.field.split(".")[0].split("[")[0]
        # a field's problem is on its key's line; a missing field's on the line that opens the card
        assert (key and f'"{key}":' in lines[p.line - 1]) or lines[p.line - 1].strip() == "{", (p, lines[p.line - 1])
    assert sum(lines[p.line - 1].strip() == "{" for p in from_json.problems if p.line) == 1


def test_mistakes_are_named_with_the_choices(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(CO_BAD)
    r = invoke("pool", "check", path, "--json")  # the game is found without --game
    doc = json.loads(r.output)
    assert r.exit_code == 2 and doc["game"] == "colossus-order" and not doc["ok"] and doc["cards"] == 4
    by_card = {(p["card"], p["field"]): p["message"] for p in doc["problems"]}
    assert "teleport" in by_card[("bad-kind", "effects[0].do")] and "return-to-hand" in by_card[("bad-kind", "effects[0].do")]
    assert "chosen-own-follower" in by_card[("bad-target", "effects[0].target")]
    assert "duplicate id" in by_card[("ok-knight", "id")]
    assert "Defence" in by_card[("no-defence", "defence")]
    assert "unknown field" in by_card[("typo", "atack")]


def test_loading_refuses_the_first_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(CO_BAD)
    with pytest.raises(DataError):
        co_cards.load_pool_file(path)
    lg = tmp_path / "bad-lg.toml"
    lg.write_text(LG_BAD.replace('pool = "bad"', 'pool = "bad-lg"'))
    with pytest.raises(DataError):
        lg_cards.load_pool_file(lg)


@pytest.mark.parametrize("sample", [CO_SAMPLE, LG_SAMPLE])
def test_a_pool_in_json_loads_as_its_toml(tmp_path: Path, sample: Path) -> None:
    module = co_cards if sample == CO_SAMPLE else lg_cards
    path = tmp_path / "sample.json"
    path.write_text(as_json(sample.read_text()))
    from_json, from_toml = module.load_pool_file(path), module.load_pool_file(sample)
    assert list(from_json.values()) == list(from_toml.values()) and from_json.name == "sample"
    r = invoke("pool", "check", path)
    assert r.exit_code == 0 and "clean" in r.output, r.output


def test_clean_pools_exit_0_and_list_declared_effects() -> None:
    r = invoke("pool", "check", CO_SAMPLE, "--game", "colossus-order")
    assert r.exit_code == 0, r.output
    declared = [c.id for c in co_cards.load_pool("sample").values() if not c.modelled]  # in pool order
    assert declared and f"declared effects (not engine-checked): {', '.join(declared)}" in r.output
    doc = json.loads(invoke("pool", "check", LG_SAMPLE, "--json").output)
    assert doc["ok"] and doc["game"] == "logos" and doc["declared"] == [] and doc["cards"] == len(lg_cards.load_pool("sample"))


def test_unreadable_files_and_usage_errors_exit_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('pool = "broken"\n\n[[card]]\nid = \n')
    r = invoke("pool", "check", broken, "--game", "logos")
    assert r.exit_code == 2 and f"{broken}:4: not valid TOML" in r.output, r.output
    bad_json = tmp_path / "broken.json"
    bad_json.write_text('{"pool": "broken",\n "card": [}\n')
    r = invoke("pool", "check", bad_json, "--game", "logos")
    assert r.exit_code == 2 and f"{bad_json}:2: not valid JSON" in r.output, r.output
    r = invoke("pool", "check", tmp_path / "absent.toml")
    assert r.exit_code == 2 and "no such pool file" in r.output
    r = invoke("pool", "check", CO_SAMPLE, "--game", "kolossus")
    assert r.exit_code == 2 and "kolossus has no card pools" in r.output
    r = invoke("pool", "check", CO_SAMPLE, "--game", "chess")
    assert r.exit_code == 2 and "unknown game" in r.output
    empty = tmp_path / "empty.toml"
    empty.write_text('pool = "empty"\n')
    r = invoke("pool", "check", empty)
    assert r.exit_code == 2 and "--game" in r.output  # fits every game: which one?
    assert invoke("pool", "check", empty, "--game", "logos").exit_code == 0
    misnamed = tmp_path / "misnamed.toml"
    misnamed.write_text('\npool = "other"\n')
    r = invoke("pool", "check", misnamed, "--game", "logos")
    assert r.exit_code == 2 and f"{misnamed}:2: pool:" in r.output and "file name" in r.output, r.output


def test_pool_show_lists_cards_and_one_card() -> None:
    r = invoke("pool", "show", LG_SAMPLE)
    assert r.exit_code == 0 and "archive-keeper" in r.output and "Archive Keeper" in r.output, r.output
    r = invoke("pool", "show", CO_SAMPLE, "--card", "dark-strike")
    assert r.exit_code == 0
    card = co_cards.load_pool("sample")["dark-strike"]
    assert r.output.startswith(f"{card.name} (dark-strike)") and card.text in r.output
    assert 'effects = [{"do":"destroy","target":"attacker"}]' in r.output
    doc = json.loads(invoke("pool", "show", CO_SAMPLE, "--card", "dark-strike", "--json").output)
    assert doc["card"] == msgspec.to_builtins(card) and doc["info"]["name"] == card.name
    doc = json.loads(invoke("pool", "show", LG_SAMPLE, "--json").output)
    assert [c["id"] for c in doc["cards"]] == list(lg_cards.load_pool("sample"))
    r = invoke("pool", "show", CO_SAMPLE, "--card", "nope")
    assert r.exit_code == 2 and "no card 'nope'" in r.output


def test_pool_show_refuses_a_pool_with_problems(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(CO_BAD)
    r = invoke("pool", "show", path)
    assert r.exit_code == 2 and f"{path}:3:" in r.output and "9 more problems" in r.output, r.output


@pytest.mark.parametrize(("game", "sample"), [("colossus-order", CO_SAMPLE), ("logos", LG_SAMPLE)])
def test_schema_pool_describes_the_file(game: str, sample: Path) -> None:
    r = invoke("schema", game, "--pool")
    assert r.exit_code == 0
    schema = json.loads(r.output)
    top = schema["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    assert top["required"] == ["pool"] and top["additionalProperties"] is False
    card = schema["$defs"]["Card"]
    data = tomllib.loads(sample.read_text())
    for c in data["card"]:
        assert set(c) <= set(card["properties"]), c["id"]
    assert set(card["required"]) <= set(data["card"][0])
    r = invoke("schema", "kolossus", "--pool")
    assert r.exit_code == 2 and "no card pools" in r.output


_ids = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(cards=st.lists(st.fixed_dictionaries({"id": _ids, "name": st.text(max_size=5)},
                                            optional={"text": st.text(max_size=20)}), max_size=6),
       indent=st.sampled_from([None, 1, 2, 4]))
def test_json_lines_of_every_card_key(cards: list[dict], indent: int | None) -> None:
    text = json.dumps({"pool": "p", "card": cards}, indent=indent, ensure_ascii=False)
    lines = _Lines(text, True)
    assert len(lines.cards) == len(cards)
    src = text.split("\n")  # lines as files count them (not str.splitlines: U+0085 is no line end)
    for i, c in enumerate(cards):
        for key in c:
            line = lines.card(i, key)
            assert line is not None and f'"{key}"' in src[line - 1]


def test_size_and_depth_bounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.core.kernel import documents  # where data files are read (adjudicator.core.kernel.data names it)

    big = tmp_path / "big.toml"
    big.write_text('pool = "big"\ndescription = "' + "x" * 200 + '"\n')
    monkeypatch.setattr(documents, "MAX_DATA_BYTES", 100)
    r = invoke("pool", "check", big, "--game", "logos")
    assert r.exit_code == 2 and "larger than 100 bytes" in r.output, r.output
    with pytest.raises(DataError, match="larger than 100 bytes"):
        lg_cards.load_pool_file(big)
    monkeypatch.undo()
    deep = tmp_path / "deep.json"
    deep.write_text('{"pool": "deep", "description": ' + "[" * 100 + "]" * 100 + "}")
    r = invoke("pool", "check", deep, "--game", "logos")
    assert r.exit_code == 2 and "nested deeper than 64" in r.output, r.output
    latin = tmp_path / "latin.toml"
    latin.write_bytes('pool = "latin"\ndescription = "caf\xe9"\n'.encode("latin-1"))
    r = invoke("pool", "check", latin, "--game", "logos")
    assert r.exit_code == 2 and "not UTF-8" in r.output, r.output
    not_object = tmp_path / "list.json"
    not_object.write_text("[1, 2]\n")
    r = invoke("pool", "check", not_object, "--game", "logos")
    assert r.exit_code == 2 and f"{not_object}:1: a data file in JSON is one object" in r.output, r.output


def test_cards_as_an_inline_array_are_found_by_their_id(tmp_path: Path) -> None:
    path = tmp_path / "inline.toml"
    path.write_text('pool = "inline"\ncard = [\n  { id = "one", name = "One", class = "matter", attack = 1, defense = 1, speed = 1 },\n'
                    '  { id = "two", name = "Two", class = "matter", attack = 1, defense = -1, speed = 1 },\n]\n')
    r = invoke("pool", "check", path, "--game", "logos")
    assert r.exit_code == 2 and f"{path}:4: card 'two': defense: must not be negative" in r.output, r.output


@pytest.mark.parametrize(("name", "text"), [("huge.toml", 'pool = "huge"\n[[card]]\nattack = ' + "9" * 5000 + "\n"),
                                            ("huge.json", '{"pool": "huge", "card": [{"attack": ' + "9" * 5000 + "}]}")])
def test_an_integer_python_will_not_read_is_a_problem_not_a_crash(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    r = invoke("pool", "check", path, "--game", "logos")
    assert r.exit_code == 2 and "an integer of more than 4,300 digits" in r.output, r.output


# -- the check and the loader agree ------------------------------------------------------------------

_LG_VALUES = {
    "id": st.sampled_from(["a", "b", "c", "Bad Id", 3]),
    "name": st.sampled_from(["A", 7]),
    "class": st.sampled_from(["matter", "life", "purple"]),
    "attack": st.sampled_from([0, 5, -1, "x"]),
    "defense": st.sampled_from([0, 5, -1]),
    "speed": st.sampled_from([0, 99, 100, -3]),
    "combo": st.sampled_from([["grey", "grey", "grey"], ["life", "grey", "matter"], ["grey"], ["pink", "grey", "grey"]]),
    "left": st.sampled_from([{"do": "maximize"}, {"do": "teleport"}, {"do": "color-change", "from": "life", "to": "matter"},
                             {"do": "color-change", "from": "life"}, {"do": "color-change", "from": "life", "to": "life"},
                             {"do": "minimize", "to": "life"}]),
    "rarity": st.sampled_from(["common", "mythic"]),
    "colour": st.just("red"),
}


@settings(max_examples=80, deadline=None)
@given(cards=st.lists(st.fixed_dictionaries(
    {k: _LG_VALUES[k] for k in ("id", "name", "class", "attack", "defense", "speed")},
    optional={k: _LG_VALUES[k] for k in ("combo", "left", "rarity", "colour")}), max_size=4),
    drop=st.lists(st.sampled_from(["id", "name", "attack", "speed"]), max_size=1))
def test_loading_refuses_exactly_the_pools_the_check_finds_problems_in(tmp_path_factory: pytest.TempPathFactory,
                                                                      cards: list[dict], drop: list[str]) -> None:
    if cards and drop:
        cards[0].pop(drop[0], None)
    path = tmp_path_factory.mktemp("agree") / "agree.json"
    path.write_text(json.dumps({"pool": "agree", "card": cards}, indent=1))
    report = check_pool(path, lg_cards.POOLS, "logos")
    try:
        pool = lg_cards.load_pool_file(path)
    except DataError as exc:
        assert report.problems, f"loading refused ({exc}) but the check found nothing"
        named = {p.card for p in report.problems}
        assert any(f"card {c!r}" in str(exc) for c in named if c and not c.startswith("#")) or \
            any(c and c.startswith("#") for c in named), (str(exc), report.problems)
        assert all(p.line is not None for p in report.problems if p.card is not None)
    else:
        assert not report.problems, report.problems
        assert list(pool) == [c.id for c in report.cards]
