"""The Python API: docs/api.md's examples run as doctests, plus what they cannot show."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import pytest

import adjudicator
import adjudicator.api

ROOT = Path(__file__).resolve().parent.parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_docs_api_md_examples(at_root):
    res = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=FLAGS,
                           globs={"adjudicator": adjudicator}, verbose=False)
    assert res.attempted > 20
    assert res.failed == 0


def test_module_docstrings(at_root):
    res = doctest.testmod(adjudicator.api, optionflags=FLAGS, extraglobs={"adjudicator": adjudicator})
    assert res.attempted > 5
    assert res.failed == 0


def test_public_names_exported():
    for name in adjudicator.__all__:
        assert getattr(adjudicator, name) is not None
    assert callable(adjudicator.read_log)


def test_positions_follow_the_log(at_root):
    match = adjudicator.read_log("examples/kolossus/legal-chapter-3.jsonl")
    seen = list(match.positions())
    assert len(seen) == len(match)
    # each recorded position equals stepping there directly
    for ev, pos in seen[::97]:
        assert pos.view() == match.position(at=pos.at).view()


def test_after_illegal_raises_with_the_ruling(at_root):
    pos = adjudicator.read_log("examples/colossus-order/legal-gem-complete.jsonl").position(at=120)
    with pytest.raises(adjudicator.IllegalEvent) as exc:
        pos.after({"type": "XPlayPassed", "player": "alice"})
    assert exc.value.ruling.rule == "CO-9.2"
    assert pos.at == 120  # unchanged


def test_event_unreadable_names_the_field():
    with pytest.raises(adjudicator.LogError) as exc:
        adjudicator.event("colossus-order", {"type": "Conceded", "player": 7})
    assert exc.value.field == "player"
