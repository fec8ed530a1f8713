"""Every surface that shows a seat an event shows it as that seat's record does (``redact --as``).

A game's redaction may depend on the position before the event (Colossi's hand-limit discards
face down under ``discards_shown = false``, CL-46; a Growth's Traits drawn face down under
``growth_traits = "private"``, CL-48; a card a seat saw on top of a deck, CL-41).  A surface that
redacts an event without that position shows the seat what it never saw.  Here every surface is
compared, event by event, with :func:`adjudicator.core.kernel.seats.redact_log`'s record: the
terminal and web viewers' event lists, the exported replay file, the JSON API's events and its
variations, the recorder in seat mode and the live page of a tournament (the public's view).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import positions_before

GAME = registry.get("colossi")


def _hidden_match() -> tuple[list[Any], list[int]]:
    """A generated Colossi match under face-down discards and private Traits that holds both, and
    the numbers (0-based) of the events a seat's record hides from some seat."""
    for seed in (6, 8, 14, 15, 23, 3, 4, 5):
        base = GAME.sample_setup(seed)
        setup = msgspec.structs.replace(base, options={**base.options, "discards_shown": False,
                                                         "growth_traits": "private"})
        events, _ = playout(GAME, seed, setup=setup, max_events=400)
        before = positions_before(parse_log(to_jsonl(events), "m"))
        kinds = {type(e).__name__ for k, e in enumerate(events)
                 if any(GAME.redact(e, p, before[k]) != e for p in events[0].players)}
        if {"CardDiscarded", "TraitDrawn"} <= kinds:
            hidden = [k for k, e in enumerate(events) if type(e).__name__ in ("CardDiscarded", "TraitDrawn")
                      and any(GAME.redact(e, p, before[k]) != e for p in events[0].players)]
            return events, hidden
    pytest.fail("no generated match holds a face-down discard and a private Trait draw")


@pytest.fixture(scope="module")
def match() -> tuple[list[Any], list[int], dict[str, list[Any]]]:
    events, hidden = _hidden_match()
    before = positions_before(parse_log(to_jsonl(events), "m"))
    seen = {p: [GAME.redact(e, p, b) for e, b in zip(events, before)] for p in events[0].players}
    return events, hidden, seen


def _jsonish(x: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(x))


def test_the_match_hides_something_from_each_kind(match: Any) -> None:
    events, hidden, seen = match
    assert hidden
    for k in hidden:
        assert any(seen[p][k] != events[k] for p in seen)


def test_the_terminal_viewer_shows_a_seat_its_record(match: Any) -> None:
    from adjudicator.replays.core import Replay

    events, hidden, seen = match
    replay = Replay(parse_log(to_jsonl(events), "m.jsonl"))
    for p, record in seen.items():
        frames = replay.frames_for(p)
        for k in hidden:
            assert frames[k].event == record[k], (p, k)


def test_the_exported_replay_shows_a_seat_its_record(match: Any) -> None:
    from adjudicator.replays.web.export import frames

    events, hidden, seen = match
    players = list(events[0].players)
    out = frames(parse_log(to_jsonl(events), "m.jsonl"), players)
    for p in players:
        listed = out["views"][p]["events"]
        for k in hidden:
            assert listed[k]["event"] == _jsonish(seen[p][k]), (p, k)


def test_the_api_shows_a_seat_its_record(match: Any, tmp_path: Path) -> None:
    from litestar.testing import TestClient

    from adjudicator.core.store import MatchStore
    from adjudicator.replays.web import create_app

    events, hidden, seen = match
    store = MatchStore(str(tmp_path / "m.db"))
    path = tmp_path / "m.jsonl"
    path.write_bytes(to_jsonl(events))
    mid = store.import_file(str(path)).match_id
    try:
        with TestClient(create_app(store, upload_token="judge")) as client:
            client.headers["Authorization"] = "Bearer judge"
            for p, record in seen.items():
                got = client.get(f"/api/matches/{mid}/events?as={p}&limit={len(events)}").json()["events"]
                for k in hidden:
                    assert got[k]["event"] == _jsonish(record[k]), (p, k)
                for k in hidden[:6]:  # an event page starting at the hidden event (the position before it)
                    page = client.get(f"/api/matches/{mid}/events?as={p}&from={k + 1}&limit=1").json()["events"]
                    assert page[0]["event"] == _jsonish(record[k]), (p, k)
                for k in hidden[:6]:  # the hidden event proposed as a variation from the position before it
                    var = msgspec.json.encode([msgspec.to_builtins(events[k])]).decode()
                    r = client.get(f"/api/matches/{mid}/variation", params={"at": k, "as": p, "var": var})
                    assert r.status_code == 200, r.text
                    step = r.json()["steps"][0]
                    assert step["event"] == _jsonish(record[k]), (p, k, step)
    finally:
        store.close()


def _recorded(cls: Any, path: Path, setup: Any, entries: list[Any], **how: Any) -> Any:
    """A recording session (``cls``) of ``setup`` with ``entries`` pushed (derived events left out)."""
    fields = {f: getattr(setup, f) for f in setup.__struct_fields__
              if f not in ("type", "game", "players", "options", "meta", "prev", "note", "kind")}
    session = cls.start(path, GAME.id, list(setup.players), options=setup.options, fields=fields, **how)
    session.autopass = False
    for e in entries:
        if e.kind != "X":
            answer = session.push(e)
            assert answer.ok, (e, answer.message)
    return session


def test_the_recorder_in_seat_mode_offers_a_seat_only_what_it_sees(match: Any, tmp_path: Path) -> None:
    """A seat's recorder lists the legal events as the seat would state them: a face-down discard
    of another seat is offered as ``"?"``, never by its card."""
    from adjudicator.recorder.session import RecordSession

    events, hidden, seen = match
    k = next(k for k in hidden if type(events[k]).__name__ == "CardDiscarded")
    seat = next(p for p in seen if seen[p][k] != events[k])
    session = _recorded(RecordSession, tmp_path / "seat.jsonl", events[0], seen[seat][1:k], seat=seat)
    offered = [c.event for c in session.choices()]
    assert seen[seat][k] in offered, offered
    assert events[k] not in offered


def test_the_live_page_shows_the_public_what_it_sees(match: Any, tmp_path: Path) -> None:
    """A tournament's live page sends each table's latest event as the public saw it: a face-down
    discard reaches the watchers as ``discard ?``, never by its card."""
    from adjudicator.recorder.session import RecordSession
    from adjudicator.replays.web import live_tables

    events, hidden, seen = match
    k = next(k for k in hidden if type(events[k]).__name__ == "CardDiscarded")
    session = _recorded(RecordSession, tmp_path / "t.jsonl", events[0], events[1:k + 1], judge=True)
    players = list(events[0].players)
    followed = live_tables.Followed({"tables": [{"round": 1, "table": 1, "players": players, "problems": [],
                                                 "outcome": None}]})
    sent = dict(followed.update((1, 1), "t", session, players))
    card = events[k].card
    assert sent["table"]["latest"].endswith("?"), sent
    assert card not in sent["table"]["latest"]


def test_every_surface_redacts_with_the_position_before_the_event() -> None:
    """Every call of ``redact`` in the viewers, the recorder and the CLI passes the position before
    the event (or None, said so, for the set-up): a call without it shows a seat what a game's
    redaction hides only in a position (the tests above catch the surfaces they reach; this one,
    the next surface written)."""
    import re

    root = Path(__file__).resolve().parent.parent
    short = []
    for folder in ("replays", "recorder", "cli"):
        for path in sorted((root / folder).rglob("*.py")):
            text = path.read_text()
            for m in re.finditer(r"\.redact\(", text):
                depth, i, commas = 1, m.end(), 0
                while depth and i < len(text):
                    c = text[i]
                    depth += c in "([{"
                    depth -= c in ")]}"
                    commas += c == "," and depth == 1
                    i += 1
                if commas < 2:
                    short.append(f"{path.relative_to(root)}:{text.count(chr(10), 0, m.start()) + 1}")
    assert not short, short
