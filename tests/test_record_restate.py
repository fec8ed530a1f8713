"""A whole match entered event by event, forced events included (a script of the full log, or a
person who enters the card the deck had to give): the recorder fills a forced event in, and the
same event entered next is answered "recorded already", never refused (recorder/session.py
``_restated``).  Over generated matches of every game."""

from __future__ import annotations

import json

import msgspec
import pytest

from adjudicator.core.kernel.events import bare
from adjudicator.core.kernel.playout import playout
from adjudicator.recorder.session import RecordSession
from tests.test_record import SHORT, setup_of


@pytest.mark.parametrize("gid", list(SHORT))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_event_of_a_match_entered_records_the_match(tmp_path, gid, seed):
    g, setup = setup_of(gid, seed)
    session = RecordSession.start(tmp_path / "m.jsonl", gid, setup["players"], options=setup["options"],
                                  fields=setup["fields"])
    start = session.record.setup
    events, _ = playout(g, seed, setup=start, max_events=400)
    said = 0
    for ev in events[1:]:
        if ev.kind == "X":  # derived: the recorder states it
            continue
        answer = session.enter(json.dumps(msgspec.to_builtins(ev)))
        if answer.confirm:
            answer = session.enter("y")
        assert answer.ok, (gid, seed, ev, answer.message)
        said += answer.message.startswith("recorded already")
    assert [bare(e) for e in session.record.events] == [bare(e) for e in events], (gid, seed)
    RESTATED[gid] = RESTATED.get(gid, 0) + said


#: restated entries per game over the parametrized matches (the next test says some were)
RESTATED: dict[str, int] = {}


def test_the_matches_held_forced_events_restated():
    """The matches above are not all free of forced events: the restating was exercised."""
    if len(RESTATED) < len(SHORT):
        pytest.skip("run with the matches above (the whole file)")
    assert sum(RESTATED.values()) > 0, RESTATED


def test_a_restated_event_that_differs_is_judged_as_usual(tmp_path):
    """Only the very event filled in counts as restated: anything else is an ordinary entry."""
    gid = "logos"
    g, setup = setup_of(gid, 1)
    session = RecordSession.start(tmp_path / "m.jsonl", gid, setup["players"], options=setup["options"],
                                  fields=setup["fields"])
    session._restatable = []
    answer = session.enter('{"type":"Conceded","player":"nobody"}')
    assert not answer.ok and "recorded already" not in answer.message


@pytest.mark.parametrize("gid", list(SHORT))
def test_undo_never_rerolls(tmp_path, gid):
    """``undo`` of an entry that showed the table a random outcome is refused (a judge's ruling);
    a decision is taken back; a judge's session may take back either (the guide: undo never re-rolls)."""
    g, setup = setup_of(gid, 3)
    for judge in (False, True):
        session = RecordSession.start(tmp_path / f"m{judge}.jsonl", gid, setup["players"], options=setup["options"],
                                      fields=setup["fields"], judge=judge)
        events, _ = playout(g, 3, setup=session.record.setup, max_events=300)
        kinds = set()
        for ev in events[1:]:
            if ev.kind == "X" or session.over:
                continue
            before = len(session.record)
            answer = session.enter(json.dumps(msgspec.to_builtins(ev)))
            if answer.confirm:
                break
            if not answer.ok or answer.message.startswith("recorded already") or answer.filled:
                continue
            undo = session.undo()
            if ev.kind == "R" and not judge:
                assert not undo.ok and "judge" in undo.message and len(session.record) > before, undo.message
            else:
                assert undo.ok and len(session.record) == before, undo.message
            kinds.add(ev.kind)
            if undo.ok:
                assert session.enter(json.dumps(msgspec.to_builtins(ev))).ok  # (and on with the match)
        assert "R" in kinds, (gid, kinds)
