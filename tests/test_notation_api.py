"""The notation in the Python API (docs/api.md, docs/notation.md): events read from and written
in the game's notation in a position (``Position.san``, ``Position.parse``, ``after("text")``),
a whole match's notation and text form (``Match.san``, ``Match.text``, read back by ``parse``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import adjudicator
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.playout import playout, to_jsonl

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game_id", [g.id for g in registry.games()])
def test_a_position_writes_and_reads_its_legal_events(game_id: str) -> None:
    events, _ = playout(registry.get(game_id), 5, max_events=60)
    match = adjudicator.parse(to_jsonl(events), "m.jsonl")
    pos = match.position(at=len(events) // 2)
    for ev in pos.legal_events()[:30]:
        text = pos.san(ev)
        assert text and "{" not in text and "(" not in text.split(":")[0]
        assert pos.parse(text) == ev
        assert pos.check(text) == pos.check(ev)
    ev = pos.legal_events()[0]
    assert pos.after(pos.san(ev)).at == pos.at + 1


def test_a_match_in_the_notation_and_its_text_form() -> None:
    path = ROOT / "examples" / "colossus-order" / "legal-judge-stands.jsonl"
    match = adjudicator.read_log(path)
    sans = match.san()
    assert len(sans) == len(match) - 1 and not any(s.startswith("{") for s in sans)
    again = adjudicator.parse(match.text(), "m.txt")
    assert again.events == match.events and again.verify().verdict == match.verify().verdict


def test_an_unreadable_text_is_a_log_error() -> None:
    pos = adjudicator.read_log(ROOT / "examples" / "colossus-order" / "legal-judge-stands.jsonl").position(at=30)
    with pytest.raises(adjudicator.LogError, match="is no Colossus Order event"):
        pos.parse("bob: flies to the moon")
    with pytest.raises(adjudicator.LogError):
        adjudicator.event("colossus-order", "zed: card played card=nothing")


def test_a_recording_reads_an_entry_in_the_notation_in_its_position() -> None:
    """``Recording.push("text")`` (and ``Match`` built with it) reads the game's notation in the
    position it stands in: a Kolossus move names its piece by its square there."""
    from adjudicator.build import Recording

    g = adjudicator.game("kolossus")
    from adjudicator.core.kernel.playout import playout

    events, _ = playout(g, 2, max_events=40)
    r = Recording(g, events[0])
    for e in events[1:]:
        text = g.notation.format(e, r.state)
        if e.kind == "X":
            continue
        r.push(text)
    assert [x for x in r.events if x.kind != "X"] == [x for x in events if x.kind != "X"]
