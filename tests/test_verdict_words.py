"""A verdict names the event in the game's notation (people read words): every illegal example's
violation carries the event as its game writes it, in the position where it happened, and
``verify`` prints it beside the event number."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.verify import SAID_MAX, run, said

EXAMPLES = sorted(Path(__file__).resolve().parent.parent.glob("examples/*/illegal-*.jsonl"))
#: a type name such as ``CardDrawn`` or a field dump such as ``card=x``: not a player's words
REPR = re.compile(r"\b[A-Z][a-z]+[A-Z][A-Za-z]*\(|[{}]|\b\w+=\S")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_violation_names_its_event_in_the_notation(path: Path) -> None:
    log = read_log(path)
    res = run(log)
    assert res.violations, path
    v = res.violations[0]
    if v.seq == 1:  # the set-up: its line is the header, no event words
        assert v.event is None
        return
    game = res.game
    before = run(log, upto=v.seq - 1).state
    ev = log.events[v.seq - 1][1]
    assert v.event == said(game, ev, before, v.seq)
    assert v.event and len(v.event) <= SAID_MAX
    assert not REPR.search(v.event), v.event
    out = CliRunner().invoke(main, ["verify", str(path)]).output
    assert f":{v.line}: event {v.seq} ({v.event}): {v.rule} [{v.code}]" in out, out


def test_an_event_its_game_cannot_name_falls_back_without_raising() -> None:
    path = next(p for p in EXAMPLES if "colossus-order" in str(p) and "not-in-deck" in p.name)
    log = read_log(path)
    game = log.game

    class Broken:
        kind = "D"

    text = said(game, Broken(), None, 5)  # type: ignore[arg-type]
    assert text == "Broken"
    assert said(game, log.events[0][1], None, 1) is None
