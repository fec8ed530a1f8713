"""Judges' rulings (``JudgeRuling``, LOG-5; docs/log-format.md, "Judges' rulings").

The examples ``legal-judge-stands.jsonl`` / ``legal-judge-taken-back.jsonl`` of every game with
hidden information verify to the end with the irregularity as a warning; a ruling that cannot be
followed is reported under LOG-5; ``check --event`` answers for a proposed ruling.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from adjudicator.core.kernel.events import JudgeRuling, encode_line
from adjudicator.core.kernel.log import parse_log, read_log, stream_log
from adjudicator.core.kernel.verify import run
from adjudicator.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"colossus-order": "legal-gem-complete.jsonl", "logos": "legal-hidden-picks.jsonl",
         "colossi": "legal-2p-to-50-gold.jsonl"}


def ex(gid: str, name: str) -> Path:
    return ROOT / "examples" / gid / name


def lines_of(path: Path) -> list[bytes]:
    return [ln for ln in path.read_bytes().split(b"\n") if ln.strip()]


def verify(lines: list[bytes], **kw):
    return run(parse_log(b"".join(ln + b"\n" for ln in lines), "t.jsonl"), **kw)


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def ruling(**fields) -> bytes:
    return json.dumps({"type": "JudgeRuling", **fields}).encode()


def inserted(gid: str) -> tuple[list[bytes], int]:
    """The taken-back example's lines and the number of the event it takes back."""
    lines = lines_of(ex(gid, "legal-judge-taken-back.jsonl"))
    n = next(i for i, ln in enumerate(lines, start=1) if b'"JudgeRuling"' in ln) - 1
    return lines, n


@pytest.mark.parametrize("gid", GAMES)
def test_an_illegal_event_that_stands_verifies_to_the_end_with_the_warning(gid: str) -> None:
    path = ex(gid, "legal-judge-stands.jsonl")
    res = run(read_log(path))
    assert res.verdict == "legal" and res.events == len(lines_of(path)), [v.as_dict() for v in res.violations]
    [w] = res.warnings
    assert w.decision == "stands" and w.rule.split("-")[0] in ("CO", "LG", "CL")
    assert [r.decision for _s, _l, r in res.rulings] == ["stands", "penalty", "result"]
    assert res.outcome is not None and res.outcome.reason.startswith("judge's ruling on event")
    # without the ruling the same log is illegal at that event, under the rule the warning names
    plain = [ln for ln in lines_of(path) if b'"JudgeRuling"' not in ln]
    bad = verify(plain)
    assert bad.verdict == "illegal" and bad.violations[0].seq == w.seq and bad.violations[0].rule == w.rule
    # the CLI (streamed) says the same, the warning beside the verdict
    r = invoke("verify", path)
    assert r.exit_code == 0, r.output
    assert f"{path}: legal (" in r.output and f"  warning: {path}:{w.line}: event {w.seq}: {w.rule} [" in r.output
    doc = json.loads(invoke("verify", "--json", path).output)
    assert doc["verdict"] == "legal" and doc["warnings"][0]["decision"] == "stands"
    assert [x["ruling"]["decision"] for x in doc["rulings"]] == ["stands", "penalty", "result"]
    assert doc["outcome"]["winner"] == res.outcome.winner


@pytest.mark.parametrize("gid", GAMES)
def test_a_taken_back_event_continues_from_the_earlier_position(gid: str) -> None:
    lines, n = inserted(gid)
    res = run(read_log(ex(gid, "legal-judge-taken-back.jsonl")))
    assert res.verdict == "legal", [v.as_dict() for v in res.violations]
    [w] = res.warnings
    assert (w.seq, w.decision, w.ruling_seq) == (n, "taken-back", n + 1)
    original = run(read_log(ex(gid, GAMES[gid])))
    assert res.state == original.state and res.outcome == original.outcome  # as if it was never played
    streamed = run(stream_log(ex(gid, "legal-judge-taken-back.jsonl")))
    assert streamed.state == res.state and streamed.warnings == res.warnings


def test_events_after_a_taken_back_one_are_taken_back_with_it() -> None:
    gid = "colossus-order"
    lines = lines_of(ex(gid, GAMES[gid]))
    original = run(read_log(ex(gid, GAMES[gid])), record_steps=True)
    k = 40  # take back event 41 (legal) and the three after it, then replay them from there
    log = lines[:44] + [ruling(event=41, decision="taken-back", reason="agreed")] + lines[40:]
    res = verify(log, record_steps=True)
    assert res.verdict == "legal", [v.as_dict() for v in res.violations]
    assert res.state == original.state
    assert [s.judged for s in res.steps[k:45]] == ["taken-back", "void", "void", "void", "ruling"]
    assert res.steps[44].state == original.steps[k - 1].state  # the ruling leaves the position before event 41
    [w] = res.warnings
    assert w.rule != "LOG-5" and w.taken_back_with == 3


BAD = [
    (dict(event=99_999, decision="taken-back"), "but the log has"),
    (dict(event=0, decision="penalty", penalty="x"), "numbered from 1"),
    (dict(event=1, decision="stands"), "MatchStarted"),
    (dict(event=10, decision="stands"), "is legal"),
    (dict(event=10, line=9, decision="taken-back"), "is on line 10"),
    (dict(event=10, decision="result", result="win"), "names its `winner`"),
    (dict(event=10, decision="result", result="draw", winner="alice"), "names its `winner`"),
    (dict(event=10, decision="penalty"), "what the penalty is"),
    (dict(event=10, decision="stands", result="draw"), "belong to a result ruling"),
]


@pytest.mark.parametrize(("fields", "why"), BAD, ids=[w for _f, w in BAD])
def test_a_ruling_that_cannot_be_followed_is_reported(fields: dict, why: str) -> None:
    lines = lines_of(ex("colossus-order", "legal-gem-complete.jsonl"))[:30]
    res = verify(lines + [ruling(**fields)])
    [v] = res.violations
    assert (v.seq, v.line, v.rule, v.code) == (31, 31, "LOG-5", "core/bad-ruling"), v
    assert why in v.message, v.message


def test_a_ruling_on_a_later_event_or_twice_on_one_is_reported() -> None:
    lines = lines_of(ex("colossus-order", "legal-gem-complete.jsonl"))
    future = verify(lines[:30] + [ruling(event=33, decision="taken-back")] + lines[30:40])
    assert future.violations[0].seq == 31 and "comes after it" in future.violations[0].message
    twice = verify(lines[:30] + [ruling(event=30, decision="taken-back"), ruling(event=30, decision="taken-back")],
                   keep_going=True)
    assert [v.seq for v in twice.violations] == [32] and "already ruled on" in twice.violations[0].message
    within = verify(lines[:30] + [ruling(event=28, decision="taken-back"), ruling(event=29, decision="taken-back")])
    assert [v.seq for v in within.violations] == [32] and "was taken back" in within.violations[0].message


def test_after_a_result_ruling_the_match_is_over() -> None:
    lines = lines_of(ex("colossus-order", "legal-gem-complete.jsonl"))
    res = verify(lines[:30] + [ruling(event=30, decision="result", result="draw", reason="agreed")] + lines[30:32])
    [v] = res.violations
    assert (v.seq, v.rule, v.code) == (32, "LOG-3", "core/after-end")
    assert res.outcome.result == "draw" and "agreed" in res.outcome.reason


def test_an_event_the_engine_cannot_apply_unchecked_cannot_stand(monkeypatch) -> None:
    path = ex("colossus-order", "legal-judge-stands.jsonl")
    log = read_log(path)
    [w] = run(log).warnings
    irregular = log.events[w.seq - 1][1]
    apply = log.game.apply

    def fails(state, event):  # apply is total on checked events only: this engine's is not on this one
        if event is irregular:
            raise KeyError("not applicable")
        return apply(state, event)

    monkeypatch.setattr(log.game, "apply", fails)
    res = run(log, keep_going=True)
    assert res.verdict == "illegal" and not res.warnings
    assert [(v.seq, v.rule) for v in res.violations[:2]] == [(w.seq, w.rule), (w.ruling_seq, "LOG-5")]
    assert "cannot apply event" in res.violations[1].message


def test_check_answers_what_follows_from_a_proposed_ruling() -> None:
    gid = "colossus-order"
    lines, n = inserted(gid)
    prefix = Path(ex(gid, "legal-judge-taken-back.jsonl"))
    r = invoke("check", prefix, "--at", n, "--event", json.dumps({"type": "JudgeRuling", "event": n, "decision": "stands"}))
    assert r.exit_code == 0 and r.output.startswith("legal: LOG-5 [core/ruling] event"), r.output
    assert "  warning: line" in r.output and "then: to act:" in r.output
    r = invoke("check", prefix, "--at", n, "--json", "--event",
               json.dumps({"type": "JudgeRuling", "event": n, "decision": "taken-back"}))
    doc = json.loads(r.output)
    assert r.exit_code == 0 and doc["warnings"][0]["decision"] == "taken-back" and doc["to_act"]
    r = invoke("check", prefix, "--at", n, "--event", json.dumps({"type": "JudgeRuling", "event": n - 1, "decision": "stands"}))
    assert r.exit_code == 1 and "LOG-5 [core/bad-ruling]" in r.output
    r = invoke("check", "--position", "x.json", "--event", json.dumps({"type": "JudgeRuling", "event": 2, "decision": "stands"}))
    assert r.exit_code == 2


def test_the_ruling_event_is_in_every_game_schema_and_not_a_game_event() -> None:
    from adjudicator.core.kernel import registry

    for g in registry.games():
        assert JudgeRuling not in g.event_types
        assert g.event_class("JudgeRuling") is JudgeRuling
        assert "JudgeRuling" in json.dumps(g.schema()) and '"corrected"' in json.dumps(g.schema())
        ev = g.decoder.decode(encode_line(JudgeRuling(event=2, decision="penalty", penalty="x")))
        assert type(ev) is JudgeRuling


def test_the_python_api_gives_warnings_rulings_and_the_judges_result(tmp_path: Path) -> None:
    import adjudicator
    from adjudicator.core.kernel.log import seal_lines

    v = adjudicator.read_log(ex("logos", "legal-judge-stands.jsonl")).verify()
    assert v.legal and [w.decision for w in v.warnings] == ["stands"]
    assert [r.decision for _s, _l, r in v.rulings] == ["stands", "penalty", "result"]
    assert v.outcome.reason.startswith("judge's ruling") and v.chain_head is None
    sealed = tmp_path / "s.jsonl"
    sealed.write_bytes(b"".join(ln + b"\n" for ln in seal_lines(lines_of(ex("logos", "legal-judge-stands.jsonl")))))
    assert adjudicator.read_log(sealed).verify().chain_head is not None


def test_the_number_of_rulings_is_bounded(tmp_path: Path, monkeypatch) -> None:
    import adjudicator.core.kernel.log as log_module

    monkeypatch.setattr(log_module, "MAX_RULINGS", 2)
    lines = lines_of(ex("colossus-order", "legal-gem-complete.jsonl"))[:20]
    p = tmp_path / "many.jsonl"
    p.write_bytes(b"\n".join(lines + [ruling(event=5, decision="penalty", penalty="x")] * 3) + b"\n")
    r = invoke("verify", p)
    assert r.exit_code == 2 and f"{p}:23: more than 2 judges' rulings in one log" in r.output, r.output
    with pytest.raises(Exception, match="more than 2 judges' rulings"):
        run(read_log(p))
    # a note that names the type, or text with escapes, is no ruling
    q = tmp_path / "notes.jsonl"
    noted = [ln[:-1] + b',"note":"JudgeRuling \\u00e9"}' for ln in lines[1:]]
    q.write_bytes(b"\n".join(lines[:1] + noted) + b"\n")
    assert invoke("verify", q).exit_code == 0


def test_check_as_a_player_does_not_name_what_that_seat_cannot_see() -> None:
    path = ROOT / "examples" / "colossus-order" / "illegal-CO-2.5-card-not-in-deck.jsonl"
    n = len(lines_of(path))
    proposed = json.dumps({"type": "JudgeRuling", "event": n, "decision": "taken-back"})
    judge = json.loads(invoke("check", path, "--json", "--event", proposed).output)
    assert "★Ash★" in judge["warnings"][0]["message"]
    alice = json.loads(invoke("check", path, "--json", "--as", "alice", "--event", proposed).output)
    assert alice["warnings"][0]["message"] == "(this ruling concerns what alice cannot see)"
    bob = json.loads(invoke("check", path, "--json", "--as", "bob", "--event", proposed).output)
    assert "★Ash★" in bob["warnings"][0]["message"]


def test_a_ruling_proposed_on_a_position_alone_is_refused_under_log_5() -> None:
    from adjudicator.core.kernel.verify import propose

    log = read_log(ex("colossus-order", "legal-gem-complete.jsonl"))
    state = run(log, upto=10).state
    ruling, derived, after = propose(log.game, state, JudgeRuling(event=5, decision="taken-back"))
    assert (ruling.verdict, ruling.rule, derived, after) == ("illegal", "LOG-5", [], state)


def _teaches_nothing(game: Any, state: Any, event: Any) -> bool:
    """Whether taking ``event`` back leaves the position exactly as it was: no seat learnt a card
    from it at the table (``Game.keep_seen``).  A card drawn and taken back goes back on top, known
    to its drawer (CO-44, CL-44, LG-41), so the match's own continuation, which drew another card
    there, is not one the table could play; each game's tests/test_*_ruling_props.py covers those."""
    from adjudicator.core.kernel.verify import settle

    try:
        table = settle(game, game.apply(state, event))[0]
    except Exception:  # noqa: BLE001 - no defined effect: nothing was seen
        return True
    return game.keep_seen(state, table) == state


@settings(max_examples=8, deadline=None)
@given(gid=st.sampled_from(["colossus-order", "logos", "kolossus", "colossi"]), seed=st.integers(0, 5_000),
       where=st.floats(0.1, 0.9))
def test_an_inserted_event_taken_back_leaves_the_generated_match_as_it_was(gid: str, seed: int, where: float) -> None:
    """Property: insert into a generated match an event illegal where it stands, with a ruling
    taking it back: the log verifies legal, to the same final position, with one warning."""
    from adjudicator.core.kernel import registry
    from adjudicator.core.kernel.playout import playout

    game = registry.get(gid)
    events, final = playout(game, seed, max_events=250)
    lines = [encode_line(e) for e in events]
    res = run(parse_log(b"".join(ln + b"\n" for ln in lines), "g.jsonl"), record_steps=True)
    k = max(1, int(len(events) * where))
    state = res.steps[k - 1].state
    bad = next((e for e in events[k:] if e.kind in ("D", "R") and not game.check(state, e).legal
                and _teaches_nothing(game, state, e)), None)
    assume(bad is not None)
    log = lines[:k] + [encode_line(bad), ruling(event=k + 1, decision="taken-back")] + lines[k:]
    out = verify(log)
    assert out.verdict == "legal" and out.state == final, [v.as_dict() for v in out.violations]
    assert [(w.seq, w.decision) for w in out.warnings] == [(k + 1, "taken-back")]


KOLOSSUS_UNDEFINED = {  # illegal Kolossus events whose effect on the table is not defined, and why
    "illegal-KO-5.6-ends-on-own.jsonl": "a square holds one miniature",
    "illegal-KO-8.7-citadel-off-board.jsonl": "would push the Citadel of Time from k6 off the board",
}


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "examples" / "kolossus").glob("illegal-KO-*.jsonl")))
def test_every_illegal_kolossus_event_can_stand_unless_its_effect_is_undefined(name: str) -> None:
    """KO-40: Kolossus's apply is total over events whose effect on the table is defined (a move
    along an illegal path puts the miniature on its last square)."""
    lines = lines_of(ex("kolossus", name))
    [v] = verify(lines).violations
    assert v.seq == len(lines)
    res = verify(lines + [ruling(event=v.seq, decision="stands", reason="noticed too late")], keep_going=True)
    if name in KOLOSSUS_UNDEFINED:
        assert [x.rule for x in res.violations] == [v.rule, "LOG-5"]
        msg = res.violations[1].message
        assert "has no defined effect on the table" in msg and KOLOSSUS_UNDEFINED[name] in msg, msg
        assert "Error" not in msg  # never a Python exception's name
        return
    assert res.verdict == "legal", [x.as_dict() for x in res.violations]
    [w] = res.warnings
    assert (w.seq, w.rule, w.decision) == (v.seq, v.rule, "stands")
    ev = json.loads(lines[-1])
    if ev["type"] == "MiniatureMoved" and ev.get("path"):
        occupied = {p.square: p for p in res.state.pieces}
        assert occupied[ev["path"][-1]].warband == ev["warband"]  # the miniature stands on the last square


@pytest.mark.parametrize("name", sorted(KOLOSSUS_UNDEFINED))
def test_a_ruling_that_cannot_be_followed_is_reported_where_verify_stops(name: str, tmp_path: Path) -> None:
    """Without --keep-going the verifier stops at the event's own violation; the stands ruling
    on it that cannot be followed is reported then too, at its own line, with the reason."""
    lines = lines_of(ex("kolossus", name))
    [v] = verify(lines).violations
    res = verify(lines + [ruling(event=v.seq, decision="stands")])
    assert [(x.seq, x.rule) for x in res.violations] == [(v.seq, v.rule), (v.seq + 1, "LOG-5")]
    assert KOLOSSUS_UNDEFINED[name] in res.violations[1].message
    path = tmp_path / name
    path.write_bytes(b"".join(ln + b"\n" for ln in lines + [ruling(event=v.seq, decision="stands")]))
    out = CliRunner().invoke(main, ["verify", str(path)])
    assert out.exit_code == 1 and "cannot be followed" in out.output and KOLOSSUS_UNDEFINED[name] in out.output, out.output


def test_a_ruling_never_shows_a_python_exception(monkeypatch) -> None:
    """The LOG-5 message once showed ``AssertionError``: an engine that cannot apply an event says
    so in words."""
    path = ex("colossus-order", "legal-judge-stands.jsonl")
    log = read_log(path)
    [w] = run(log).warnings
    irregular = log.events[w.seq - 1][1]
    apply = log.game.apply

    def fails(state, event):
        if event is irregular:
            raise AssertionError("internal")
        return apply(state, event)

    monkeypatch.setattr(log.game, "apply", fails)
    res = run(log, keep_going=True)
    msg = next(v.message for v in res.violations if v.rule == "LOG-5")
    assert "AssertionError" not in msg and "internal" not in msg and "engine defect" in msg, msg


def test_a_taking_back_passes_the_game_what_the_table_saw(monkeypatch) -> None:
    """A seat cannot unsee: the position a taking back returns to is given to the game's
    ``keep_seen`` with the position the annulled events left at the table, and a seat's record
    redacts the annulled events in the position they were played in."""
    from adjudicator.core.kernel.seats import positions_before
    from adjudicator.core.kernel.verify import settle

    gid = "colossus-order"
    lines, n = inserted(gid)
    log = read_log(ex(gid, "legal-judge-taken-back.jsonl"))
    game = log.game
    calls = []
    monkeypatch.setattr(game, "keep_seen", lambda state, annulled: calls.append((state, annulled)) or state)
    res = run(log, record_steps=True)
    assert res.verdict == "legal"
    before = res.steps[n - 2].state
    played = settle(game, game.apply(before, log.events[n - 1][1]))[0]  # the event as it was played
    assert calls == [(before, played)]
    assert res.steps[n - 1].table == played and res.steps[n - 1].state == before
    # the seat's record: the ruling's event in the position the table saw, the next as returned to
    pos = positions_before(log)
    assert pos[n] == played and pos[n + 1] == before
