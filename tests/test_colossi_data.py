"""The Colossi data files: every published component is there, and bad data is a clear DataError."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from adjudicator.core.kernel import sources
from adjudicator.core.kernel.errors import DataError
from adjudicator.games.colossi import data as D

from .colossi_scenarios import C


def test_the_component_list_is_complete() -> None:
    cards = C.cards.values()
    assert sum(c.copies for c in cards if c.type == "action") == 29
    assert sum(c.copies for c in cards if c.type == "beast") == 10
    assert sum(c.copies for c in cards if c.type == "curse") == 7
    assert sum(c.copies for c in cards if c.type == "gift") == 18
    assert len(C.environments) + len(C.lairs) == 24 and len(C.lairs) == 7
    assert len(C.traits) == 27 and len(C.beasts) == 7
    names = {c.name for c in cards}
    for n in ("Bolster", "Ritual Sacrifice", "Rampage", "Totality", "Windfall", "Influence (Divine Gift)"):
        assert n in names
    # every text is the project's own summary, never empty
    assert all(c.text for c in cards) and all(t.text for t in C.tiles.values()) and all(t.text for t in C.traits.values())


@pytest.fixture()
def data_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for f in D.DATA.iterdir():
        shutil.copy(f, tmp_path / f.name)
    monkeypatch.setattr(D, "DATA", tmp_path)
    monkeypatch.setattr(D.ISLANDS, "shipped", tmp_path)
    D.content.cache_clear()
    with sources.using(sources.Sources()):  # a fresh search: nothing found before this test is kept
        yield tmp_path
    D.content.cache_clear()


def test_a_bad_card_names_the_file_and_entry(data_copy: Path) -> None:
    doc = json.loads((data_copy / "cards.json").read_text())
    doc["cards"][3]["effect"] = {"kind": "conquer-the-world"}
    (data_copy / "cards.json").write_text(json.dumps(doc))
    with pytest.raises(DataError) as exc:
        D.content()
    assert "cards.json" in str(exc.value) and "convert" in str(exc.value) and "conquer-the-world" in str(exc.value)


def test_a_mistyped_field_names_the_entry(data_copy: Path) -> None:
    doc = json.loads((data_copy / "traits.json").read_text())
    doc["traits"][2]["effect"] = "fast"
    (data_copy / "traits.json").write_text(json.dumps(doc))
    with pytest.raises(DataError) as exc:
        D.content()
    assert "traits.json" in str(exc.value) and "ludicrously-capacious" in str(exc.value)


def test_a_board_whose_neighbours_do_not_lead_back(data_copy: Path) -> None:
    doc = json.loads((data_copy / "board-hex27.json").read_text())
    doc["spaces"][13]["neighbours"]["E"] = 15
    (data_copy / "board-hex27.json").write_text(json.dumps(doc))
    with pytest.raises(DataError) as exc:
        D.board("hex27")
    assert "board-hex27.json" in str(exc.value) and "space 13" in str(exc.value)
    with pytest.raises(DataError):
        D.board("../cards")


def test_the_effect_kinds_are_the_handlers_registries() -> None:
    """One list of kinds, declared with the data (data.CARD_KINDS, data.TILE_KINDS): every declared
    kind has its handler (effects.py's registries) with the declared parameters, every card and tile
    effect in the data has a handler, and every handler is used by some card or tile (no dead kind)."""
    from adjudicator.games.colossi.effects import CARD_EFFECTS, TILE_EFFECTS

    used_cards = {c.effect.kind for c in C.cards.values() if c.effect is not None}
    used_tiles = {t.rest.kind for t in C.tiles.values() if t.rest is not None}
    assert used_cards == set(CARD_EFFECTS)
    assert used_tiles == set(TILE_EFFECTS)
    assert D.CARD_KINDS == {k: fx.params for k, fx in CARD_EFFECTS.items()}
    assert D.TILE_KINDS == {k: fx.params for k, fx in TILE_EFFECTS.items()}
    for c in C.cards.values():  # each card gives the parameters its kind needs
        if c.effect is not None:
            assert set(CARD_EFFECTS[c.effect.kind].params) <= set(c.effect.params), c.id


def test_a_card_missing_a_parameter_its_kind_needs(data_copy: Path) -> None:
    doc = json.loads((data_copy / "cards.json").read_text())
    entry = next(c for c in doc["cards"] if (c.get("effect") or {}).get("kind") == "bolster")
    entry["effect"]["params"].pop("per_space")
    (data_copy / "cards.json").write_text(json.dumps(doc))
    with pytest.raises(DataError) as exc:
        D.content()
    assert "cards.json" in str(exc.value) and entry["id"] in str(exc.value) and "per_space" in str(exc.value)
