"""Building logs from Python (adjudicator/build.py, docs/api.md "Building a log"): what the
doctests cannot show."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

import adjudicator
from adjudicator.build import Recording
from adjudicator.core.kernel.meta import MAX_META_KEYS
from tests.test_pools import CASES, case

GAMES = ["colossus-order", "logos", "kolossus", "colossi"]


def play(m: Recording, seed: int, limit: int = 4000) -> int:
    rng = random.Random(seed)
    n = 0
    while not m.is_over() and n < limit:
        opts = m.legal()
        m.push(rng.choices(opts, [m.game.playout_weight(m.state, e) for e in opts])[0])
        n += 1
    return n


@pytest.mark.parametrize("gid", GAMES)
def test_a_whole_match_built_event_by_event_verifies(gid: str, tmp_path: Path) -> None:
    g = adjudicator.game(gid)
    m = Recording(g, g.sample_setup(3))
    n = play(m, 1)
    assert n > 20 and len(m) == n + 1
    m.save(tmp_path / "m.jsonl")
    back = adjudicator.read_log(tmp_path / "m.jsonl")
    assert back.verify().verdict == "legal"
    # spelled out with the derived events, the log verifies as well (they are checked, LOG-2)
    assert adjudicator.parse(m.to_jsonl(derived=True)).verify().verdict == "legal"
    if m.is_over():
        assert back.verify().outcome == m.outcome
        with pytest.raises(adjudicator.IllegalEvent) as exc:
            m.push(m.events[-1])
        assert exc.value.ruling.rule == "LOG-3"


def test_pop_takes_back_one_entry_and_the_position_with_it() -> None:
    m = adjudicator.Match.new("colossi", ["ann", "bob"])
    m.push({"type": "FirstPlayerDetermined", "player": "bob"})
    before = m.board.view()
    m.push(m.legal()[0])
    assert m.board.view() != before
    m.pop()
    assert m.board.view() == before and len(m) == 2
    m.pop()
    with pytest.raises(IndexError):
        m.pop()


def test_unreadable_events_name_the_field_and_record_nothing() -> None:
    m = adjudicator.Match.new("colossi", ["ann", "bob"])
    with pytest.raises(adjudicator.LogError) as exc:
        m.push({"type": "FirstPlayerDetermined", "player": "zed"})
    assert exc.value.field == "player"
    with pytest.raises(adjudicator.LogError):
        m.push('{"type": "MatchStarted", "game": "colossi", "players": ["a", "b"]}')
    assert len(m) == 1


def test_set_up_errors() -> None:
    with pytest.raises(adjudicator.LogError) as exc:
        adjudicator.Match.new("colossi", ["ann", "bob"], meta={f"k{i}": "v" for i in range(MAX_META_KEYS + 1)})
    assert exc.value.field == "meta"
    with pytest.raises(adjudicator.LogError) as exc:
        adjudicator.Match.new("logos", ["ann", "ben"], decks={"ann": {"no-such-card": 24}, "ben": {}})
    assert "no-such-card" in str(exc.value)
    # a set-up the rules refuse: the typed error with the ruling
    with pytest.raises(adjudicator.IllegalEvent) as bad:
        adjudicator.Match.new("colossi", ["a", "b", "c", "d", "e"])
    assert bad.value.ruling.rule == "CL-1.1"


@pytest.mark.parametrize("gid", list(CASES))
def test_own_data_by_directory(tmp_path: Path, gid: str) -> None:
    d, f, log = case(tmp_path, gid)
    with pytest.raises(adjudicator.LogError):
        adjudicator.read_log(log)
    match = adjudicator.read_log(log, pools=[d])
    assert match.verify().verdict == "legal"
    assert match.position(at=5).legal_events()  # positions keep the directories
    setup = msgspec.to_builtins(match.setup)
    fields = {k: v for k, v in setup.items() if k not in ("type", "game", "players", "pool", "options")}
    pool = setup.get("pool") or setup.get("options", {}).get("board")
    opts = {k: v for k, v in setup.get("options", {}).items() if k != "board"}
    m = adjudicator.Match.new(gid, setup["players"], pool=pool, options=opts, pools=[d], **fields)
    for ev in match.events[1:30]:
        if ev.kind != "X":
            m.push(ev)
    assert m.verify().verdict == "legal"  # built and verified with the user's data
    assert adjudicator.read_log(log, pools=[d]).position(at=len(m)).view() == m.board.view()


def test_a_judge_ruling_is_recorded_with_the_event_it_rules_on() -> None:
    src = adjudicator.read_log("examples/colossus-order/illegal-CO-7.3-attacker-not-ready.jsonl")
    m = Recording.resume(adjudicator.parse(b"".join(msgspec.json.encode(e) + b"\n" for e in src.events[:-1])))
    bad = src.events[-1]
    with pytest.raises(adjudicator.IllegalEvent):
        m.push(bad)
    ruling = m.push_ruled(bad, "stands", judge="J. Doe", reason="missed at the table")
    assert ruling.event == len(m) - 1
    v = adjudicator.parse(m.to_jsonl()).verify()
    assert v.verdict == "legal" and v.warnings[0].rule == "CO-7.3"
    m.pop()
    assert len(m) == len(src) - 1
    m.push_ruled(bad, "taken-back")
    assert adjudicator.parse(m.to_jsonl()).verify().verdict == "legal"
    # resuming a log with a ruling keeps it with its event
    again = Recording.resume(adjudicator.parse(m.to_jsonl()))
    assert again.to_jsonl() == m.to_jsonl()
