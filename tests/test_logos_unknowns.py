"""LOGOS unknown identities (issue 11; docs/rules/logos.md LG-35 to LG-38): a seat's record of a
match, as ``adjudicator redact --as PLAYER`` writes it, verifies ``legal`` or ``undetermined``,
never ``illegal``; an impossible reveal in such a record is illegal with the reason; a decision
that turns on an unknown card is undetermined with its condition."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.log import parse_log, read_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.verify import run
from adjudicator.games.logos import events as E

from tests.test_logos_rules import covers, documents, ruled

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "logos"
GAME = registry.get("logos")
COMPLETE = sorted(p for p in EXAMPLES.glob("legal-*.jsonl") if "-seat-" not in p.name)
ENC = msgspec.json.Encoder()


def record(events: list, seat: str) -> bytes:
    """The record ``seat`` kept: every event as ``game.redact`` gives it (as ``adjudicator redact``)."""
    return b"".join(ENC.encode(GAME.redact(e, seat)) + b"\n" for e in events)


def decoded(path: Path) -> list:
    return [GAME.decoder.decode(ln) for ln in path.read_bytes().splitlines()]


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("path", COMPLETE, ids=[p.name for p in COMPLETE])
@pytest.mark.parametrize("seat", ["ann", "ben"])
def test_each_seats_record_of_every_complete_example_is_never_illegal(path: Path, seat: str) -> None:
    events = decoded(path)
    assert seat in events[0].players
    res = run(parse_log(record(events, seat)))
    assert res.verdict in ("legal", "undetermined"), [v.as_dict() for v in res.violations]
    assert res.events == len(events)
    for u in res.undetermined:  # every condition names what would decide it
        assert u.condition and u.rule.startswith("LG-3")


def test_cli_redact_then_verify_a_seats_record(tmp_path: Path) -> None:
    out = tmp_path / "ben.jsonl"
    r = invoke("redact", EXAMPLES / "legal-open-picks.jsonl", "--as", "ben", "-o", out)
    assert r.exit_code == 0, r.output
    assert b'"ann":{}' in out.read_bytes() and b'"card":"?"' in out.read_bytes()
    v = invoke("verify", out)
    # every condition of ben's record is settled by later events (ann's reveals, her called Backup
    # cards named as they turn face up: LG-37, LG-39); ann's unseen deck list is an assumption
    # stated once (LG-35), not an undetermined event
    assert v.exit_code == 0, v.output
    assert v.output.startswith(f"{out}: legal")
    assert "assuming ann's deck list, unknown to this record, meets the construction limits of LG-1.2 (exactly 25 cards)" in v.output
    j = invoke("verify", out, "--json")
    doc = msgspec.json.decode(j.output.encode())
    assert doc["verdict"] == "legal" and doc["assumptions"] and "undetermined" not in doc


def test_the_full_information_examples_still_verify_legal() -> None:
    for path in COMPLETE:
        assert run(read_log(path)).verdict == "legal", path


@covers("LG-38", illegal=False)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), with_derived=st.booleans(), seat=st.sampled_from(["p1", "p2"]))
def test_a_redacted_generated_match_never_verifies_illegal(seed: int, with_derived: bool, seat: str) -> None:
    events, _ = playout(GAME, seed, max_events=400, with_derived=with_derived)
    assert run(parse_log(to_jsonl(events))).verdict == "legal"
    res = run(parse_log(record(events, seat)))
    assert res.verdict in ("legal", "undetermined"), (seed, with_derived, seat, [v.as_dict() for v in res.violations])


def test_the_seat_example_is_undetermined_with_conditions() -> None:
    res = run(read_log(EXAMPLES / "undetermined-ann-record-of-hidden-picks.jsonl"))
    assert res.verdict == "undetermined" and not res.violations
    codes = {u.code for u in res.undetermined}
    assert "logos/unknown-playable" in codes or "logos/unknown-battle-card" in codes
    assert any("ben held a playable card" in u.condition or "ben's battle card" in u.condition for u in res.undetermined)


def test_the_planted_impossible_draw_is_illegal_with_the_reason() -> None:
    path = EXAMPLES / "illegal-LG-36-impossible-draw-in-a-seat-record.jsonl"
    res = run(read_log(path))
    assert res.verdict == "illegal"
    v = res.violations[0]
    assert (v.rule, v.code) == ("LG-36", "logos/impossible-card")
    ruled("LG-36")
    assert "copies of" in v.message and "in ben's deck list are already accounted for" in v.message
    assert "in the discard pile" in v.message


ANN_DRAWS = ("magma-titan", "iron-golem", "quake-hammer")


def _open_match(**options: object) -> list:
    """ann's record: her deck list and draws, ben's deck list unknown."""
    setup = E.MatchStarted(game="logos", players=["ann", "ben"], options={"picks": "open", **options},
                           decks={"ann": dict.fromkeys(ANN_DRAWS, 1), "ben": {}})
    return [setup, *(E.CardDrawn(player="ann", card=c) for c in ANN_DRAWS)]


@covers("LG-36")
def test_an_unknown_deck_under_a_copy_limit_counts_what_it_shows() -> None:
    """ben's deck list is unknown, the ruleset allows one copy of a card: a second magma-titan of
    his is impossible (LG-36), with the reason; an unknown draw is not."""
    events = _open_match(max_copies=1)
    events += [E.CardDrawn(player="ben", card="magma-titan"), E.CardDrawn(player="ben", card=HIDDEN)]
    data = b"".join(ENC.encode(e) + b"\n" for e in events)
    ok = run(parse_log(data))
    assert ok.verdict == "legal" and not ok.violations  # ben's deck meets the limit: an assumption, stated once
    assert ok.assumptions == ["ben's deck list, unknown to this record, meets the construction limits of LG-1.2 (at most 1 copies of a card)"]
    bad = run(parse_log(data + ENC.encode(E.CardDrawn(player="ben", card="magma-titan")) + b"\n"))
    assert bad.verdict == "illegal"
    v = bad.violations[0]
    assert (v.rule, v.code) == ("LG-36", "logos/impossible-card")
    ruled("LG-36")
    assert "all 1 copy of Magma Titan the ruleset allows (max_copies) are already accounted for (1 in the card slots)" in v.message


@documents("LG-35")
def test_a_null_card_is_unknown_like_a_question_mark() -> None:
    events = _open_match()
    events += [E.CardDrawn(player="ben", card=None), E.CardDrawn(player="ben", card=HIDDEN)]
    data = b"".join(ENC.encode(e) + b"\n" for e in events)
    assert b'"card":null' in data
    res = run(parse_log(data))
    assert res.verdict == "legal", [v.as_dict() for v in res.violations]
    ben = res.state.player("ben")
    assert ben.slots[:2] == (HIDDEN, HIDDEN) and ben.unknown == "open" and ben.deck_open


@documents("LG-37")
def test_an_unknown_backup_card_is_undetermined_unless_no_card_could_go_there() -> None:
    events = _open_match()
    events += [E.CardDrawn(player="ben", card=HIDDEN)] * 3
    events += [E.BackupAssigned(player="ben", card=HIDDEN)]
    res = run(parse_log(b"".join(ENC.encode(e) + b"\n" for e in events)))
    assert res.verdict == "undetermined"
    last = res.undetermined[-1]
    assert (last.rule, last.code) == ("LG-37", "logos/unknown-backup")
    assert "ben's Backup card of round 1 has Speed above 99 and no combo requirement (" in last.condition


def test_the_scene_says_what_an_unknown_card_can_be() -> None:
    """Card.possible on ben's unknown cards in ann's record (bounded by the pool); none on the
    judge's view of the full-information log, where ann's view of ben's slots only hides them."""
    events = _open_match(max_copies=1) + [E.CardDrawn(player="ben", card="magma-titan"), E.CardDrawn(player="ben", card=HIDDEN)]
    res = run(parse_log(b"".join(ENC.encode(e) + b"\n" for e in events)))
    scene = GAME.scene(res.state, None)
    slots = next(z for z in scene.zones if z.id == "ben.slots").cards
    assert slots[0].card == "magma-titan" and slots[0].possible is None
    can = slots[1].possible
    assert can and "magma-titan" not in can and len(can) == len(set(can)) <= len(GAME.rules.pool(res.state).cards)
    full = run(read_log(EXAMPLES / "legal-hidden-picks.jsonl"), upto=12).state
    seen = GAME.scene(full, "ann")
    assert all(c.possible is None for z in seen.zones for c in z.cards)


def test_a_seats_position_document_round_trips_through_check(tmp_path: Path) -> None:
    path = EXAMPLES / "undetermined-ann-record-of-hidden-picks.jsonl"
    pos = tmp_path / "pos.json"
    r = invoke("state", path, "--at", 40, "--json")
    assert r.exit_code == 0, r.output
    pos.write_text(r.output)
    nxt = path.read_bytes().splitlines()[40].decode()
    c = invoke("check", "--position", pos, "--event", nxt)
    assert c.exit_code in (0, 4), c.output
    assert c.output.startswith(("legal: ", "undetermined: ")), c.output


@covers("LG-38", legal=False)
def test_a_stated_rebuild_of_a_deck_of_unknown_size_is_checked() -> None:
    """ben's deck size is unknown: the record may state that it was rebuilt, with the size of his
    discard pile (LG-4); another size is not what the engine would derive (LG-38)."""
    events = _open_match() + [E.DeckRebuilt(player="ben", count=5)]
    res = run(parse_log(b"".join(ENC.encode(e) + b"\n" for e in events)))
    assert res.verdict == "illegal"
    v = res.violations[0]
    assert (v.rule, v.code) == ("LG-38", "logos/stated-mismatch")
    ruled("LG-38")
    assert "ben's deck would be rebuilt from 0 discarded card(s)" in v.message


def _called_in_a_seats_record(seed: int = 0) -> tuple[object, str, list]:
    """The first Backup call of a generated match, in the other seat's record (``redact --as``),
    with the called card left out (a hand-kept record): the position after it, the caller, the
    record."""
    from adjudicator.core.kernel.seats import redact_log

    events, _ = playout(GAME, seed, max_events=300)
    k = next(i for i, e in enumerate(events) if type(e) is E.BackupCalled)
    owner = events[k].player
    seat = next(p for p in events[0].players if p != owner)
    rec = list(redact_log(parse_log(to_jsonl(events)), seat))
    j = next(i for i, e in enumerate(rec) if type(e) is E.BackupCalled)  # (a record may state derived events, LG-42)
    rec = rec[:j + 1]
    assert rec[j].card == events[k].card or events[k].card is None  # redact names the card turned face up (LG-39)
    assert rec[j].card is not None and rec[j].card != HIDDEN
    return owner, seat, rec


def test_an_unknown_called_backup_card_is_only_a_card_the_backup_slot_could_hold() -> None:
    """Issue 20: the record assumed an unknown Backup card to be one its own condition excluded
    (LG-4.1: Speed above 99, no combo requirement).  A stated consequence that only such a card
    gives is illegal, not a position the record keeps."""
    from msgspec.structs import replace

    from adjudicator.games.logos import unknowns as U

    owner, _seat, rec = _called_in_a_seats_record()
    rec[-1] = replace(rec[-1], card=None)
    s = run(parse_log(b"".join(ENC.encode(e) + b"\n" for e in rec))).state
    assert s.step == "blind"
    p = s.player(owner)
    rules = GAME.rules
    wrong = next(c for c in U.possible(s, p) if not rules.pool(s)[c].backup_eligible
                 and rules.derive(U._resume(rules, U._battle_cards(s, [p], (c,)), [owner])) is not None)
    stated = rules.derive(U._resume(rules, U._battle_cards(s, [p], (wrong,)), [owner]))
    ruling = rules.check(s, stated)
    assert not ruling.allowed or (ruling.condition and f"was {wrong}" not in ruling.condition), ruling
    assert all(rules.pool(s)[ids[0]].backup_eligible for ids, _t in U._blind_outcomes(rules, s, stated))


@covers("LG-39")
def test_a_called_backup_card_is_named_for_both_seats_and_checked() -> None:
    """LG-39: BackupCalled names the card turned face up; the other seat's record names it (redact
    --as), which settles the condition of the unknown Backup assignment; a name that is not the
    card of the Backup Slot is illegal, and an unknown Backup card named as one that could not go
    there contradicts the assignment's condition (both events named)."""
    from msgspec.structs import replace

    owner, _seat, rec = _called_in_a_seats_record()
    data = b"".join(ENC.encode(e) + b"\n" for e in rec)
    ok = run(parse_log(data))
    assert ok.verdict in ("legal", "undetermined") and not ok.violations
    assert not any("Backup card of round" in u.condition for u in ok.undetermined)  # settled by the named card
    called = rec[-1].card
    other = next(c for c in GAME.rules.pool(ok.state).cards if c != called and not GAME.rules.pool(ok.state)[c].backup_eligible)
    bad = run(parse_log(b"".join(ENC.encode(e) + b"\n" for e in [*rec[:-1], replace(rec[-1], card=other)])))
    v = bad.violations[0]
    assert (v.rule, v.code) == ("LG-4.1", "logos/not-eligible"), v
    assert "which was legal only if" in v.message and "Backup card of round" in v.message
    assert not any("Backup card of round" in u.condition for u in bad.undetermined)
    full, _ = playout(GAME, 0, max_events=300)
    k = next(i for i, e in enumerate(full) if type(e) is E.BackupCalled)
    wrong = [*full[:k], replace(full[k], card=other)]
    res = run(parse_log(to_jsonl(wrong)))
    assert (res.violations[0].rule, res.violations[0].code) == ("LG-39", "logos/wrong-backup-card")
    ruled("LG-39")
    pool = GAME.rules.pool(ok.state)
    assert f"names {pool[other].name}, but {owner}'s Backup Slot holds {pool[full[k].card].name}" in res.violations[0].message


@pytest.mark.parametrize("line, field", [
    ('{"type":"Defenseless","player":"ben","cards":["iron-golem","?"]}', "cards[1]"),
    ('{"type":"PickRevealed","player":"ben","card":"?","salt":"s"}', "card"),
    ('{"type":"EffectResolved","player":"ben","card":"?","field":"left","effect":"regeneration","target":"ann","result":"applied"}', "card"),
])
def test_a_card_both_seats_see_cannot_be_unknown_in_a_record(tmp_path: Path, line: str, field: str) -> None:
    """LG-35: a field naming a card shown to both players (a defenseless player's discarded cards,
    a revealed pick, the card of an effect) is never "?" or null in a seat's record: unreadable
    (exit 2), the message naming file, line and field."""
    setup = '{"type":"MatchStarted","game":"logos","players":["ann","ben"],"options":{"picks":"open"},"decks":{"ann":{"iron-golem":3},"ben":{}}}'
    path = tmp_path / "rec.jsonl"
    path.write_text(setup + "\n" + line + "\n")
    r = invoke("verify", path)
    assert r.exit_code == 2, r.output
    assert f"{path}:2: {field}: " in r.output and "(LG-35)" in r.output and "Traceback" not in r.output


@covers("LG-40", illegal=False, behaviour=True)
@pytest.mark.parametrize("late", [
    '{"type":"PickRevealed","player":"ann","card":"%s","salt":"late"}',
    '{"type":"CardPicked","player":"ann","card":"%s"}',
    '{"type":"BackupCalled","player":"ann"}',
])
def test_a_judge_can_let_a_play_after_its_round_resolved_stand(tmp_path: Path, late: str) -> None:
    """Issue 20: a LOGOS play after its round has resolved could not stand (the engine could not
    apply it).  Now it is followed (LG-40: the card leaves the slots for the discard pile; a draw
    with no empty slot is discarded): verify is legal with the warning, and the match goes on."""
    lines = (EXAMPLES / "legal-hidden-picks.jsonl").read_text().splitlines()
    events = [GAME.decoder.decode(ln) for ln in lines]
    k = next(i for i, e in enumerate(events) if type(e) is E.PickRevealed and e.player == "ben" and i > 20) + 1  # the round resolved
    state = run(parse_log("\n".join(lines[:k]).encode() + b"\n")).state
    card = next(c for c in state.player("ann").slots if c is not None)
    bad = late % card if "%s" in late else late
    log = lines[:k] + [bad, '{"type":"JudgeRuling","event":%d,"decision":"stands","judge":"J"}' % (k + 1)]
    path = tmp_path / "stands.jsonl"
    path.write_text("\n".join(log) + "\n")
    res = run(read_log(path))
    assert not res.violations, [v.as_dict() for v in res.violations]
    assert res.verdict == "legal" and [w.seq for w in res.warnings] == [k + 1], res.warnings
    ann = res.state.player("ann")
    if "%s" in late:  # the late card left the slots for the discard pile
        assert ann.discard[-1] == card and ann.slots.count(card) == state.player("ann").slots.count(card) - 1
    else:
        assert res.state == state or ann == state.player("ann")  # no window, no battle card: nothing changes
    r = invoke("verify", path)
    assert r.exit_code == 0 and "stands" in r.output, r.output


@covers("LG-40", illegal=False, behaviour=True)
def test_a_wrongly_stated_strike_that_stands_keeps_the_stated_hit_points() -> None:
    """LG-40: a stated StrikeResolved with the wrong damage, let stand by a judge, leaves the hit
    points it states (both players then played on them); the engine's own strike otherwise."""
    from msgspec.structs import replace

    events, _ = playout(GAME, 1, max_events=200, with_derived=True)
    k = next(i for i, e in enumerate(events) if type(e) is E.StrikeResolved and e.damage > 0)
    before = GAME.initial_state(events[0])
    for e in events[1:k]:  # every event in order, the derived ones too (as the log states them)
        before = GAME.apply(before, e)
    assert GAME.derive(before) == E.StrikeResolved(**{f: getattr(events[k], f) for f in events[k].__struct_fields__})
    right = events[k]
    wrong = replace(right, damage=right.damage - 1, hp=right.hp + 1)
    assert GAME.apply(before, right).player(right.target).hp == right.hp
    assert GAME.apply(before, wrong).player(right.target).hp == right.hp + 1
