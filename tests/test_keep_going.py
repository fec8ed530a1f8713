"""``verify --keep-going`` goes on after a rejected event as a judge's "stands" would: the event is
applied unchecked where the engine can apply it, so the players' later events are checked in the
position they went on from, and one wrong event is one violation (docs/log-format.md,
"adjudicator verify").

Each game's generated match is cut at a position where a candidate event is illegal but has a
defined effect; that event is played there and the match goes on from the position it left.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import encode_line
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.verify import run, settle

#: (game, seed of the generated match) where the wrong event's consequences once showed as
#: further violations or grouped followers
CASES = [("colossus-order", 2), ("logos", 0), ("kolossus", 1), ("colossi", 0)]


def one_wrong_event(gid: str, seed: int) -> tuple[bytes, int, object]:
    """A generated match with one illegal event played a quarter in, the match going on from the
    position it left; the log, that event's number and the final position."""
    game = registry.get(gid)
    events, _final = playout(game, seed, max_events=200)
    state, _ = settle(game, game.initial_state(events[0]))
    for k, ev in enumerate(events[1:], 1):
        if k > len(events) // 4:
            for c in game.rules.candidates(state):
                if c.kind not in ("D", "R") or game.check(state, c).allowed:
                    continue
                try:
                    after, _ = settle(game, game.apply(state, c))
                except Exception:  # no defined effect: not this one
                    continue
                rng = random.Random(seed)
                more = []
                for _ in range(40):
                    if game.outcome(after) is not None or not game.legal_events(after):
                        break
                    e = rng.choice(game.legal_events(after))
                    more.append(e)
                    after, _ = settle(game, game.apply(after, e))
                log = events[:k] + [c] + more
                return b"".join(encode_line(e) + b"\n" for e in log), k + 1, after
        state, _ = settle(game, game.apply(state, ev))
    raise AssertionError(f"{gid} seed {seed}: no illegal candidate with a defined effect")


@pytest.mark.parametrize(("gid", "seed"), CASES)
def test_keep_going_plays_on_from_a_rejected_event(gid: str, seed: int, tmp_path: Path) -> None:
    data, wrong, final = one_wrong_event(gid, seed)
    res = run(parse_log(data, "g.jsonl"), keep_going=True, play_on=True)
    assert [(v.seq, v.followers) for v in res.violations] == [(wrong, 0)], [v.as_dict() for v in res.violations]
    assert res.state == final  # the position the players went on from
    # skipping it instead (the viewers' positions) leaves the later events in another position
    skipped = run(parse_log(data, "g.jsonl"), keep_going=True)
    assert skipped.state != final
    p = tmp_path / "one-wrong.jsonl"
    p.write_bytes(data)
    r = CliRunner().invoke(main, ["verify", "--keep-going", "--json", str(p)])
    doc = json.loads(r.output.splitlines()[0])
    assert r.exit_code == 1 and [v["seq"] for v in doc["violations"]] == [wrong], r.output


@pytest.mark.parametrize("gid", ["colossus-order", "logos", "kolossus", "colossi"])
def test_an_event_recorded_by_mistake_is_one_violation(gid: str) -> None:
    """An event written twice (a recording error: the table went on without it) is played on,
    then the next event, illegal after it but legal without it, shows the table went on without
    it: one violation, and the match verifies to its end as it was played."""
    game = registry.get(gid)
    events, final = playout(game, 5, max_events=200)
    data = b"".join(encode_line(e) + b"\n" for e in events)
    k = next(i for i in range(len(events) // 4, len(events) - 1)
             if events[i].kind == "D" and type(events[i + 1]) is not type(events[i]))
    twice = events[:k + 1] + [events[k]] + events[k + 1:]
    res = run(parse_log(b"".join(encode_line(e) + b"\n" for e in twice), "g.jsonl"), keep_going=True, play_on=True)
    assert len(res.violations) == 1 and res.violations[0].seq == k + 2, [v.as_dict() for v in res.violations]
    assert res.state == run(parse_log(data, "g.jsonl")).state == final


def test_one_wrong_colossus_order_draw_is_one_violation(tmp_path: Path) -> None:
    """The issue's case: one wrong Colossus Order draw (the log says alice draws ash, not the
    dawn-sparrowhawk she then plays) once gave sixteen violations, each later event of hers
    slipping; now the play of a card not in hand is the one violation, and the match goes on."""
    src = Path(__file__).resolve().parent.parent / "examples" / "colossus-order" / "legal-gem-complete.jsonl"
    lines = src.read_text().splitlines()
    doc = json.loads(lines[19])
    assert (doc["type"], doc["card"]) == ("CardDrawn", "dawn-sparrowhawk")
    doc["card"] = "ash"
    lines[19] = json.dumps(doc)
    p = tmp_path / "wrong-draw.jsonl"
    p.write_text("\n".join(lines) + "\n")
    skipped = run(parse_log(p.read_bytes(), str(p)), keep_going=True)
    assert len(skipped.violations) > 10  # what --keep-going said before
    r = CliRunner().invoke(main, ["verify", "--keep-going", "--json", str(p)])
    got = json.loads(r.output.splitlines()[0])
    assert r.exit_code == 1 and [(v["line"], v.get("followers", 0)) for v in got["violations"]] == [(24, 0)], r.output
    assert got["violations"][0]["rule"] == "CO-4.4" and got["outcome"]["winner"] == "alice"
