"""The CLI as a user meets it: exit codes, messages, JSON shapes, position round trips."""

from __future__ import annotations

import json

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.cli.main import main

CO = registry.get("colossus-order")


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    events, final = playout(CO, 11, max_events=5000)
    p = tmp_path_factory.mktemp("logs") / "m.jsonl"
    p.write_bytes(to_jsonl(events))
    return p, events, final


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_verify_json_shape(match):
    p, events, final = match
    r = invoke("verify", p, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert set(doc) >= {"path", "game", "verdict", "events", "violations", "outcome"}
    assert doc["verdict"] == "legal" and doc["events"] == len(events) and doc["game"] == "colossus-order"
    assert doc["outcome"]["result"] == final.result.result
    assert doc["outcome"]["winner"] == final.result.winner


def test_legal_json_lists_events_that_check_accepts(match):
    p, events, _ = match
    at = 40
    r = invoke("legal", p, "--at", at, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["to_act"] and doc["events"]
    for e in doc["events"][:30]:
        c = invoke("check", p, "--at", at, "--event", json.dumps(e), "--json")
        assert c.exit_code == 0, (e, c.output)
        assert json.loads(c.output)["verdict"] == "legal"


def test_check_names_rule_and_exit_code_for_an_illegal_event(match):
    p, events, _ = match
    # the event recorded at line 41 is legal at 40; the same event at 41 (after it) usually is not
    nxt = msgspec.json.encode(events[40]).decode()
    ok = invoke("check", p, "--at", 40, "--event", nxt, "--json")
    assert ok.exit_code == 0 and json.loads(ok.output)["verdict"] == "legal"
    bad = invoke("check", p, "--at", 40, "--event", json.dumps({"type": "AttackDeclared", "player": "p1",
                                                                  "attacker": "F999", "target": "deck"}), "--json")
    assert bad.exit_code == 1
    doc = json.loads(bad.output)
    assert doc["verdict"] == "illegal" and doc["rule"].startswith("CO-") and doc["code"].startswith("colossus-order/")
    assert "derived" in doc and doc["derived"] == []


def test_check_reports_what_follows(match):
    """A legal MainPhaseEnded + passes lead to the derived end of turn and next turn."""
    p, events, _ = match
    log = [msgspec.to_builtins(e) for e in events]
    for i, e in enumerate(log):
        if e["type"] == "XPlayPassed" and i > 30 and log[i - 1]["type"] == "XPlayPassed" and log[i - 2]["type"] == "MainPhaseEnded":
            at = i  # before the second pass
            break
    r = invoke("check", p, "--at", at, "--event", json.dumps(log[i]), "--json")
    assert r.exit_code == 0, r.output
    derived = [d["type"] for d in json.loads(r.output)["derived"]]
    assert derived[:2] == ["TurnEnded", "TurnStarted"]


def test_state_position_round_trip_through_check_and_legal(match, tmp_path):
    p, events, _ = match
    at = 120
    r = invoke("state", p, "--at", at, "--json")
    assert r.exit_code == 0
    pos = tmp_path / "pos.json"
    pos.write_text(r.output)
    via_log = json.loads(invoke("legal", p, "--at", at, "--json").output)
    via_pos = json.loads(invoke("legal", "--position", pos, "--json").output)
    assert via_log == via_pos
    again = invoke("state", "--position", pos, "--json")
    assert json.loads(again.output)["state"] == json.loads(r.output)["state"]


def test_state_as_player_hides_the_opponents_hand_and_facedown_locus(match):
    p, events, _ = match
    at = 200
    judge = json.loads(invoke("state", p, "--at", at, "--json").output)["state"]
    p1 = json.loads(invoke("state", p, "--at", at, "--json", "--as", "p1").output)
    assert p1["view"] == "p1"
    me, opp = p1["state"]["players"]
    assert me["id"] == "p1"
    assert me["hand"] == judge["players"][0]["hand"]
    assert opp["hand"] == ["?"] * len(judge["players"][1]["hand"])
    for seat, judged in ((me, judge["players"][0]), (opp, judge["players"][1])):  # sizes kept, order hidden
        assert seat["deck_top"] == ["?"] * len(judged["deck_top"])
    assert me["deck_bottom"] == judge["players"][0]["deck_bottom"]
    assert opp["deck_bottom"] == ["?"] * len(judge["players"][1]["deck_bottom"])
    for sl_view, sl in zip(opp["locus"], judge["players"][1]["locus"]):
        if not sl["face_up"] and not sl["known"]:
            assert sl_view["card"] == "?"
    assert p1["state"]["setup"]["decks"]["p2"]["cards"] == {}
    assert p1["state"]["setup"]["decks"]["p1"] == judge["setup"]["decks"]["p1"]
    text = invoke("state", p, "--at", at, "--as", "p1").output
    for card in judge["players"][1]["hand"]:
        assert f"hand: " not in text.split("[p2]")[1].split("\n")[1] or card not in text.split("[p2]")[1]


def test_player_view_position_is_refused_by_check(match, tmp_path):
    p, _, _ = match
    pos = tmp_path / "p1.json"
    pos.write_text(invoke("state", p, "--at", 50, "--json", "--as", "p1").output)
    r = invoke("legal", "--position", pos)
    assert r.exit_code == 2
    assert "view" in r.output and "judge" in r.output


def test_bad_usage_and_bad_event_exit_2(match, tmp_path):
    p, _, _ = match
    assert invoke("check", p, "--at", 10).exit_code == 2  # no event
    r = invoke("check", p, "--event", "{not json")
    assert r.exit_code == 2 and "--event" in r.output and "not valid JSON" in r.output
    r = invoke("check", p, "--event", json.dumps({"type": "CardSet", "player": "p1", "card": "no-such-card", "zone": "gem"}))
    assert r.exit_code == 2 and "card" in r.output and "no-such-card" in r.output
    r = invoke("check", p, "--event", json.dumps({"type": "CardSet", "player": "zed", "card": "red-gem", "zone": "gem"}))
    assert r.exit_code == 2 and "unknown player 'zed'" in r.output
    r = invoke("check", p, "--event", json.dumps({"type": "CardSet", "player": "p1", "card": "red-gem", "zone": 3}))
    assert r.exit_code == 2 and "zone" in r.output
    r = invoke("state", p, "--at", 10**6)
    assert r.exit_code == 2 and "past the last event" in r.output
    r = invoke("state", p, "--as", "nobody")
    assert r.exit_code == 2 and "nobody" in r.output
    r = invoke("state", tmp_path / "missing.jsonl")
    assert r.exit_code == 2 and "no such file" in r.output
    r = invoke("schema", "chess")
    assert r.exit_code == 2 and "unknown game 'chess'" in r.output


def test_schema_describes_every_event():
    r = invoke("schema", "colossus-order")
    assert r.exit_code == 0
    schema = json.loads(r.output)
    names = set(schema["$defs"])
    for cls in CO.event_types:
        assert cls.__name__ in names


def test_verify_directory_mixed_verdicts_exit_codes(tmp_path, match):
    p, events, _ = match
    good = tmp_path / "a" / "good.jsonl"
    good.parent.mkdir()
    good.write_bytes(p.read_bytes())
    illegal = tmp_path / "a" / "b" / "illegal.jsonl"
    illegal.parent.mkdir()
    lines = p.read_bytes().splitlines(keepends=True)
    bad_line = json.dumps({"type": "CardSet", "player": "p1", "card": "red-gem", "zone": "gem"}).encode() + b"\n"
    illegal.write_bytes(b"".join(lines[:3]) + bad_line)
    r = invoke("verify", tmp_path / "a")
    assert r.exit_code == 1, r.output
    assert f"{illegal}:4: event 4 (p1: set Red Gem" in r.output and "): CO-" in r.output
    unreadable = tmp_path / "a" / "z.jsonl"
    unreadable.write_bytes(b'{"type": "MatchStarted"')
    r = invoke("verify", tmp_path / "a", "--json")
    assert r.exit_code == 2
    docs = [json.loads(line) for line in r.output.splitlines()]
    verdicts = [d["verdict"] for d in docs[:-1]]
    assert sorted(verdicts) == ["illegal", "legal", "unreadable"]
    assert docs[-1]["summary"]["verdicts"] == {"legal": 1, "undetermined": 0, "illegal": 1, "unreadable": 1, "error": 0}


def test_keep_going_reports_every_violation(tmp_path, match):
    p, events, _ = match
    lines = p.read_bytes().splitlines(keepends=True)
    bad_line = json.dumps({"type": "CompleteDeclared", "player": "p1", "slots": [1]}).encode() + b"\n"
    f = tmp_path / "two.jsonl"
    f.write_bytes(b"".join(lines[:30]) + bad_line + b"".join(lines[30:60]) + bad_line + b"".join(lines[60:]))
    one = json.loads(invoke("verify", f, "--json").output)
    both = json.loads(invoke("verify", f, "--json", "--keep-going").output)
    assert len(one["violations"]) == 1
    assert len(both["violations"]) >= 2
    assert [v["line"] for v in both["violations"]][:2] == [31, 62]


def test_invalid_utf8_is_unreadable_not_a_crash(match, tmp_path):
    p, _, _ = match
    lines = p.read_bytes().splitlines(keepends=True)
    f = tmp_path / "latin1.jsonl"
    f.write_bytes(lines[0] + b'{"type":"DeckShuffled","player":"p1","note":"caf\xe9"}\n' + b"".join(lines[2:]))
    r = invoke("verify", f)
    assert r.exit_code == 2
    assert f"{f}:2: not valid UTF-8" in r.output
