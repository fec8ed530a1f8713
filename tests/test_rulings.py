"""Three properties of rulings, per game (issue 14):

1. an event that skips an owed step cites the rule that owes it and says why (the per-game rule
   tests show each game's owed steps; here LOGOS's refill and every game's message);
2. when a match-ending event is followed by wrongly stated consequences, the verdict is LOG-2 at
   the first line that differs, not LOG-3 "after the end";
3. under ``--keep-going``, the events rejected only because an earlier violation left the
   position waiting are grouped under it (text and JSON), not reported one by one.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.verify import run, settle

GAMES = ["colossus-order", "logos", "kolossus", "colossi"]
ACTOR_FIELDS = ("player", "warband")


def finished(gid: str) -> list:
    """A generated match that reaches its end, with every derived event stated."""
    g = registry.get(gid)
    for seed in range(40):
        events, final = playout(g, seed, max_events=6000, with_derived=True)
        if g.outcome(final) is not None:
            return events
    raise AssertionError(f"no finished playout of {gid}")


def encode(events: list) -> bytes:
    return to_jsonl(events)


# -- 2. LOG-2 before LOG-3 after a match-ending event ---------------------------------------------

@pytest.mark.parametrize("gid", GAMES)
def test_wrong_game_end_is_log2_at_its_line(gid: str) -> None:
    events = finished(gid)
    last = len(events) - 1
    end = events[last]
    assert type(end).__name__ == "GameEnded"
    g = registry.get(gid)
    players = g.players(settle(g, g.initial_state(events[0]))[0])
    other = next((p for p in players if p != end.winner), None)
    wrong = msgspec.structs.replace(end, winner=other, result="win") if other else msgspec.structs.replace(end, reason="x")
    res = run(parse_log(encode(events[:last] + [wrong]), "wrong-end"), keep_going=True)
    assert res.violations, "the wrong GameEnded must be caught"
    v = res.violations[0]
    assert (v.rule, v.code, v.seq) == ("LOG-2", "core/derived-mismatch", last + 1), v
    # both events quoted in the game's notation
    assert v.message.startswith("the log states ") and " but the engine derived " in v.message, v.message
    assert "GameEnded(" not in v.message


@pytest.mark.parametrize("gid", GAMES)
def test_skipped_consequence_is_log2_not_log3(gid: str) -> None:
    """The match-ending decision's stated consequences with one left out (and the end stated)."""
    events = finished(gid)
    # the last decision (kind D or R) and the derived events after it
    k = max(i for i, e in enumerate(events) if e.kind != "X")
    derived = events[k + 1:]
    if len(derived) < 2:
        # only GameEnded follows: state a consequence the engine does not derive before it
        extra = msgspec.structs.replace(derived[-1], reason="something-else")
        log = events[:k + 1] + [extra] + derived
        where = k + 2
    else:
        log = events[:k + 1] + derived[1:]  # the first consequence left out, the rest stated
        where = k + 2
    res = run(parse_log(encode(log), "skipped"), keep_going=True)
    v = res.violations[0]
    assert (v.rule, v.seq) == ("LOG-2", where), v


# -- 3. follow-on violations grouped ----------------------------------------------------------------

def _broken_actor(gid: str) -> tuple[list, int]:
    """A legal match with one event early on made by the wrong player (or warband)."""
    g = registry.get(gid)
    events, _ = playout(g, 3, max_events=600)
    state, _ = settle(g, g.initial_state(events[0]))
    players = g.players(state)
    for i, e in enumerate(events[1:], start=1):
        field = next((f for f in ACTOR_FIELDS if isinstance(getattr(e, f, None), str)), None)
        if i > 20 and field and e.kind == "D":
            now = getattr(e, field)
            pool = players if field == "player" else sorted({getattr(x, field) for x in events if
                                                             isinstance(getattr(x, field, None), str)})
            other = next(p for p in pool if p != now)
            return events[:i] + [msgspec.structs.replace(e, **{field: other})] + events[i + 1:], i + 1
        state, _ = settle(g, g.apply(state, e))
    raise AssertionError("no decision to break")


@pytest.mark.parametrize("gid", GAMES)
def test_follow_ons_are_grouped_under_the_violation(gid: str) -> None:
    log, first_bad = _broken_actor(gid)
    res = run(parse_log(encode(log), "broken"), keep_going=True)
    assert res.violations, "the broken event must be caught"
    root = res.violations[0]
    assert root.seq == first_bad
    rejected = len(log) - 1 - sum(1 for _ in range(0))  # upper bound, only for the message below
    total = len(res.violations) + sum(v.followers for v in res.violations)
    assert any(v.followers for v in res.violations), res.violations[:5]
    # far fewer violations are reported than events rejected
    assert len(res.violations) * 3 <= total, (len(res.violations), total, rejected)
    grouped = next(v for v in res.violations if v.followers)
    assert grouped.waiting_for


@pytest.mark.parametrize("gid", GAMES)
def test_grouped_follow_ons_in_text_and_json(gid: str, tmp_path: Path) -> None:
    log, _first = _broken_actor(gid)
    path = tmp_path / "broken.jsonl"
    path.write_bytes(encode(log))
    # --keep-going plays a rejected event on where the engine can apply it (tests/test_keep_going.py);
    # where it cannot, the events the stuck position rejects are grouped under it
    played = run(parse_log(encode(log), "broken"), keep_going=True, play_on=True)
    r = CliRunner().invoke(main, ["verify", str(path), "--keep-going"])
    assert r.exit_code == 1
    assert ("later events not checked: the position still waits for" in r.output) == \
        any(v.followers for v in played.violations)
    r = CliRunner().invoke(main, ["verify", str(path), "--keep-going", "--json"])
    doc = json.loads(r.output)
    assert [(v["seq"], v.get("followers", 0)) for v in doc["violations"]] == [(v.seq, v.followers) for v in played.violations]
    grouped = [v for v in doc["violations"] if v.get("followers")]
    assert all(isinstance(v["waiting_for"], str) and v["waiting_for"] for v in grouped)
    assert {"seq", "line", "rule", "code", "message"} <= set(doc["violations"][0])


# -- 1. LOGOS: the refill of empty slots is owed by LG-2.2 -----------------------------------------

def test_logos_refill_owed_by_its_rule() -> None:
    """A player's pick while their empty slots still owe the refill cites LG-2.2 and says why."""
    g = registry.get("logos")
    events, _ = playout(g, 4, max_events=300)
    state, _ = settle(g, g.initial_state(events[0]))
    refill = None
    for e in events[1:]:
        owed = g.rules.owed(state)
        if refill is None and owed.rule == "LG-2.2":
            refill = (state, owed.by)
        elif refill is not None:
            pick = next((x for x in g.legal_events(state) if type(x).__name__ in ("CardPicked", "CardCommitted")
                         and x.player == refill[1]), None)
            if pick is not None:
                ruling = g.check(refill[0], pick)
                assert (ruling.rule, ruling.code) == ("LG-2.2", "logos/out-of-step"), ruling
                assert "every empty slot takes a card" in ruling.message
                return
        state, _ = settle(g, g.apply(state, e))
    pytest.fail("no refill followed by a pick in the generated match: the generator changed, pick another seed")
