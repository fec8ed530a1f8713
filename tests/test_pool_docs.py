"""The pool-file pages (docs/games/<game>-pools.md) name every field and every effect kind of the
code, and their examples do what the pages say when run as a user would."""

from __future__ import annotations

import json
import re
import tomllib
import typing
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.games.colossus_order import cards as co_cards
from adjudicator.games.logos import cards as lg_cards

ROOT = Path(__file__).resolve().parent.parent
PAGES = {"colossus-order": ROOT / "docs/games/colossus-order-pools.md", "logos": ROOT / "docs/games/logos-pools.md"}


def blocks(text: str, lang: str) -> list[str]:
    """The fenced blocks of ``text`` whose language is ``lang`` ("" for none), in order."""
    return [m.group(2) for m in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.M | re.S) if m.group(1) == lang]


def fields_of(type_: type) -> set[str]:
    return {f.encode_name for f in msgspec.structs.fields(type_)}


def code_names(text: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", text))


def test_the_co_page_names_every_field_effect_kind_and_target() -> None:
    names = code_names(PAGES["colossus-order"].read_text())
    kinds = typing.get_args(co_cards.Effect)
    assert kinds, "the effect union is empty?"
    for fx in kinds:
        tag = msgspec.inspect.type_info(fx).tag
        assert tag in names, f"effect kind {tag!r} is not documented"
        assert fields_of(fx) <= names, (tag, fields_of(fx) - names)
    for t in (co_cards.Card, co_cards.Ability, co_cards.ColossusAbility, co_cards.Cost):
        assert fields_of(t) <= names, (t.__name__, fields_of(t) - names)
    for literal in (co_cards.Target, co_cards.CardType, co_cards.Colour):
        assert set(typing.get_args(literal)) <= names, set(typing.get_args(literal)) - names


def test_the_logos_page_names_every_field_class_and_effect() -> None:
    names = code_names(PAGES["logos"].read_text())
    assert set(typing.get_args(lg_cards.EffectName)) <= names
    assert fields_of(lg_cards.Card) | fields_of(lg_cards.Effect) <= names
    assert set(typing.get_args(lg_cards.Panel)) <= names


@pytest.mark.parametrize("game", sorted(PAGES))
def test_the_example_pool_checks_as_the_page_shows(tmp_path: Path, game: str) -> None:
    text = PAGES[game].read_text()
    toml_text = blocks(text, "toml")[0]
    name = tomllib.loads(toml_text)["pool"]
    (tmp_path / f"{name}.toml").write_text(toml_text)
    r = _run_in(tmp_path, "pool", "check", f"{name}.toml")
    assert r.exit_code == 0, r.output
    shown = [b for b in blocks(text, "") if f"{name}.toml: " in b][0]
    assert r.output == shown
    # the JSON block is the same pool (its first card)
    doc = json.loads(blocks(text, "json")[0])
    (tmp_path / f"{name}.json").write_text(json.dumps(doc))
    r = _run_in(tmp_path, "pool", "check", f"{name}.json")
    assert r.exit_code == 0, r.output
    module = co_cards if game == "colossus-order" else lg_cards
    from_json = module.load_pool_file(tmp_path / f"{name}.json")
    from_toml = module.load_pool_file(tmp_path / f"{name}.toml")
    first = doc["card"][0]["id"]
    assert list(from_json) == [first]
    same = {k: v for k, v in msgspec.to_builtins(from_toml[first]).items() if k != "abilities"}
    assert {k: v for k, v in msgspec.to_builtins(from_json[first]).items() if k != "abilities"} == same


def test_the_co_page_shows_mistakes_on_their_lines(tmp_path: Path) -> None:
    text = PAGES["colossus-order"].read_text()
    toml_text = blocks(text, "toml")[0]
    broken = toml_text.replace("attack = 2\ndefence = 3", 'attack = "two"\ndefence = 3', 1) \
                      .replace('id = "ashen-verdict"', 'id = "lantern-warden"', 1)
    assert broken.count('"two"') == 1 and broken.count('id = "lantern-warden"') == 2
    (tmp_path / "clubcards.toml").write_text(broken)
    r = _run_in(tmp_path, "pool", "check", "clubcards.toml")
    assert r.exit_code == 2
    shown = [b for b in blocks(text, "") if "problems" in b][0]
    assert r.output == shown
    m = re.search(r'`attack = "two"` on line (\d+)', text)
    assert m and f"clubcards.toml:{m.group(1)}: card 'lantern-warden': attack" in r.output


def _run_in(directory: Path, *args: str):
    import os

    old = os.getcwd()
    os.chdir(directory)
    try:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.mark.parametrize("game", sorted(PAGES))
def test_the_pages_are_linked_from_the_readme_and_the_game_page(game: str) -> None:
    page = PAGES[game].name
    assert f"docs/games/{page}" in (ROOT / "README.md").read_text()
    assert f"({page})" in (ROOT / "docs/games" / f"{game}.md").read_text()


# -- the Kolossus board and Colossi island pages ------------------------------------------------

BOARD_PAGES = {"kolossus": ROOT / "docs/games/kolossus-boards.md", "colossi": ROOT / "docs/games/colossi-islands.md"}


def test_the_board_and_island_pages_name_every_field() -> None:
    from adjudicator.games.colossi import data as colossi_data
    from adjudicator.games.kolossus import board as kolossus_board

    names = code_names(BOARD_PAGES["kolossus"].read_text())
    assert fields_of(kolossus_board._BoardFile) | fields_of(kolossus_board._Corner) <= names
    names = code_names(BOARD_PAGES["colossi"].read_text())
    assert fields_of(colossi_data.BoardFile) | fields_of(colossi_data.BoardSpace) <= names | {"x", "y"}
    for game, page in BOARD_PAGES.items():
        assert f"docs/games/{page.name}" in (ROOT / "README.md").read_text()
        assert f"({page.name})" in (ROOT / "docs/games" / f"{game}.md").read_text()


def test_the_board_examples_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.core.kernel.errors import DataError
    from adjudicator.games.colossi import data as colossi_data
    from adjudicator.games.kolossus.board import load_board_file

    text = blocks(BOARD_PAGES["kolossus"].read_text(), "toml")[0]
    name = tomllib.loads(text)["board"]
    (tmp_path / f"{name}.toml").write_text(text)
    board = load_board_file(tmp_path / f"{name}.toml")
    assert board.size == len(tomllib.loads(text)["levels"]) and len(board.corners) == 4
    (tmp_path / f"{name}.toml").write_text(text.replace('"a1", "b1", "c1"', '"h1", "b1", "c1"'))
    with pytest.raises(DataError, match=re.escape("corner[3] ('SW'): squares[0]: 'h1' is not a square of this 7x7 board")):
        load_board_file(tmp_path / f"{name}.toml")
    island = json.loads(blocks(BOARD_PAGES["colossi"].read_text(), "json")[0])
    path = tmp_path / f"board-{island['name']}.json"
    path.write_text(json.dumps(island))
    loaded = colossi_data.island_from_document(json.loads(path.read_text()), str(path), island["name"])
    assert len(loaded.adj) == len(island["spaces"]) and loaded.adj[1] == (2, 0)
