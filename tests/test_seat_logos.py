"""Issue 20, LOGOS: what each seat knows.  Over generated matches (the game's playout machinery,
every effect of the sample pool, Backup calls whose card is turned face up for both, LG-39), each
seat's record (``redact --as``, :func:`adjudicator.core.kernel.seats.redact_log`) verifies ``legal`` or
``undetermined``, never ``illegal``; every condition left open names a card the record never
shows; and the two records reconcile to the full log."""

from __future__ import annotations

import itertools

import re
import tempfile
from pathlib import Path

import msgspec
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.services.reconcile import read_record, reconcile
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import run
from adjudicator.games.logos import events as E
from tests.test_logos_rules import covers

GAME = registry.get("logos")
ENC = msgspec.json.Encoder()


def _lines(events: list) -> bytes:
    return b"".join(ENC.encode(e) + b"\n" for e in events)


def _record(full: bytes, seat: str) -> list:
    return list(redact_log(parse_log(full), seat))


def _setup(seed: int, picks: str, shuffle_to: str, ruleset: str) -> E.MatchStarted:
    """The game's sample set-up, with hidden or open picks, Shuffle Hand into the discard pile or
    the deck (a move of hidden cards), and a deck-size limit that makes an unknown deck list an
    assumption."""
    s = GAME.sample_setup(seed)
    options = {**s.options, "picks": picks, "shuffle_hand_to": shuffle_to}
    if ruleset == "sized":
        options["deck_size"] = sum(next(iter(s.decks.values())).values())
    return msgspec.structs.replace(s, options=options)


def _shown(e: object, seat: str) -> bool:
    """An effect that turned card slot cards face up, named in ``seat``'s record (LG-42)."""
    return type(e) is E.EffectResolved and bool(e.cards)


def _never_shown(condition: str, record: list, seq: int) -> bool:
    """An open condition names a card the record never shows: a Backup card of round R that no
    later BackupCalled of the record names, or a player the record never shows defenseless or not."""
    m = re.search(r"(\S+)'s Backup card of round (\d+)", condition)
    if m is not None:
        who = m.group(1)
        return not any(type(e) is E.BackupCalled and e.player == who and e.card not in (None, HIDDEN) for e in record[seq:])
    m = re.match(r"(\S+) held a playable card in round \d+|one of (\S+)'s unknown slot cards is playable", condition)
    if m is not None:  # settled by the player's next battle card named, unless the record ends first
        who = m.group(1) or m.group(2)
        for e in record[seq:]:
            if getattr(e, "player", None) != who:
                continue
            if type(e) is E.PickRevealed or (type(e) is E.CardPicked and e.card not in (None, HIDDEN)):
                return False
            if type(e) is E.CardCommitted:
                break
        return True
    return "was defenseless in round" in condition


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# a resignation while the record allows several positions: the end of the match they all reach is
# derived once (before: applied in each position, so a stated GameEnded came "after the end")
@example(seed=740, with_derived=True, picks="commit-reveal", shuffle_to="discard", ruleset="standard")
@given(seed=st.integers(0, 10_000), with_derived=st.booleans(), picks=st.sampled_from(["commit-reveal", "open"]),
       shuffle_to=st.sampled_from(["discard", "deck"]), ruleset=st.sampled_from(["standard", "sized"]))
def test_each_seats_record_of_a_generated_match_is_never_illegal_and_reconciles(
        seed: int, with_derived: bool, picks: str, shuffle_to: str, ruleset: str) -> None:
    events, _ = playout(GAME, seed, max_events=400, with_derived=with_derived, setup=_setup(seed, picks, shuffle_to, ruleset))
    full = to_jsonl(events)
    assert run(parse_log(full)).verdict == "legal"
    records = {}
    for seat in events[0].players:
        rec = _record(full, seat)
        res = run(parse_log(_lines(rec)))
        assert res.verdict in ("legal", "undetermined"), (seed, seat, [v.as_dict() for v in res.violations])
        assert res.events == len(rec)
        # the log's decisions; derived events only as the log states them and up to an effect that
        # showed the seat the opponent's cards (LG-42), which that record names
        assert sum(e.kind != "X" for e in rec) == sum(e.kind != "X" for e in events)
        for u in res.undetermined:  # only conditions on a card no later event of this record shows
            assert _never_shown(u.condition, rec, u.seq), u
        if ruleset == "sized":
            assert res.assumptions and "meets the construction limits of LG-1.2" in res.assumptions[0]
        records[seat] = rec
    a, b = events[0].players
    with tempfile.TemporaryDirectory() as tmp:
        pa, pb = Path(tmp) / "a.jsonl", Path(tmp) / "b.jsonl"
        pa.write_bytes(_lines(records[a]))
        pb.write_bytes(_lines(records[b]))
        res = reconcile(read_record(pa), read_record(pb))
        assert not res.contradictions, res.contradictions[:3]
        merged = b"".join(ln + b"\n" for ln in res.lines)
    res = run(parse_log(merged))
    assert res.verdict == "legal"
    # the full log names each called Backup card (LG-39), so nothing is lost; the records state the
    # effects that showed a seat the opponent's cards, with the derived events before them (LG-42)
    def decisions(data: bytes) -> list:
        return [e for _line, e in parse_log(data).events if e.kind != "X"]
    assert decisions(merged) == decisions(full)
    assert msgspec.to_builtins(res.state) == msgspec.to_builtins(run(parse_log(full)).state)
    if with_derived and not any(_shown(e, s) for s in records for e in records[s]):
        # (a log that leaves derived events to the engine: the records state the public derived
        # facts the seat's engine cannot derive, the opponent's deck rebuilt or defenseless
        # (observe.shows_seat), with the derived events before them; the decisions compare above)
        assert merged == full


def test_generated_matches_call_backup_cards_and_name_them_in_both_records() -> None:
    """The property's matches use the event that shows a hidden card (a called Backup card,
    LG-39): it occurs, and both seats' records name the card."""
    shown = 0
    for seed in range(12):
        events, _ = playout(GAME, seed, max_events=400)
        full = to_jsonl(events)
        for seat in events[0].players:
            for e in _record(full, seat):
                if type(e) is E.BackupCalled:
                    assert e.card is not None and e.card != HIDDEN
                    shown += 1
    assert shown >= 4


def test_every_seat_record_of_the_shipped_legal_examples() -> None:
    """Each seat's record of every shipped legal LOGOS example verifies legal, or undetermined
    only on an unknown Backup card never called (its eligibility turns on a card never shown) or
    on a player the record never shows as defenseless or not."""
    root = Path(__file__).resolve().parent.parent / "examples" / "logos"
    for path in sorted(p for p in root.glob("legal-*.jsonl") if "-seat-" not in p.name):
        full = path.read_bytes()
        players = msgspec.json.decode(full.splitlines()[0])["players"]
        for seat in players:
            res = run(parse_log(_lines(_record(full, seat))))
            assert res.verdict in ("legal", "undetermined") and not res.violations, (path.name, seat)
            for u in res.undetermined:
                assert "Backup card of round" in u.condition or "was defenseless in round" in u.condition, (path.name, seat, u)


def test_the_seat_example_names_what_ann_saw_and_verifies_legal() -> None:
    """The shipped seat record (``redact --as ann``): ben's called Backup cards named (LG-39), legal."""
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "logos" / "legal-seat-ann-hidden-picks.jsonl"
    rec = [GAME.decoder.decode(ln) for ln in path.read_bytes().splitlines()]
    calls = [e for e in rec if type(e) is E.BackupCalled and e.player == "ben"]
    assert calls and all(e.card not in (None, HIDDEN) for e in calls)
    assert rec[0].decks["ben"] == {} and any(type(e) is E.CardDrawn and e.card == HIDDEN for e in rec)
    res = run(parse_log(path.read_bytes()))
    assert res.verdict == "legal" and not res.undetermined


def test_logos_refuses_the_private_look_events_it_has_no_rule_for() -> None:
    """LOG-6: LOGOS has no private move (CardsMoved); its one private look, a look at one's own
    deck top and its reorder (LG-44), is out of step where no look-deck effect fired."""
    from adjudicator.core.kernel.events import CardsLooked, CardsMoved, CardsReordered

    events, _ = playout(GAME, 0, max_events=20)
    head = to_jsonl(events)
    for ev, rule, code in ((CardsLooked(player="p1", owner="p2", zone="slots", cards=["iron-golem"]), None, "out-of-step"),
                           (CardsReordered(player="p1", owner="p1", zone="deck-top", cards=["iron-golem"]), None, "out-of-step"),
                           (CardsMoved(owner="p2", from_zone="slots", to_zone="discard", cards=["iron-golem"], seen_by=["p1", "p2"]),
                            "LOG-6", "core/no-private-event")):
        res = run(parse_log(head + ENC.encode(ev) + b"\n"))
        assert res.verdict == "illegal"
        v = res.violations[0]
        assert v.seq == len(events) + 1 and v.code.endswith(code) and rule in (None, v.rule), v


@covers("LG-42", illegal=False, behaviour=True)
def test_a_seats_record_names_the_cards_shuffle_hand_and_remove_card_slot_showed() -> None:
    """LG-42: the cards Shuffle Hand (into the discard pile) and Remove Card Slot move out of the
    opponent's card slots are face up for both: the engine's derivation names them
    (``EffectResolved.cards``); where the log states that event, each seat's record states it
    naming them (the record could not name them otherwise) and its engine follows it; shuffled
    into the deck, the opponent's record has them as ``"?"``.  A log that leaves the event out
    gives records that leave it out too: they go on with those cards unknown."""
    counts = {"discard": 0, "deck": 0}
    for seed in range(8):
        for shuffle_to in ("discard", "deck"):
            for with_derived in (False, True):
                events, _ = playout(GAME, seed, max_events=300, with_derived=with_derived,
                                    setup=_setup(seed, "open", shuffle_to, "standard"))
                full = to_jsonl(events)
                steps = run(parse_log(full), record_steps=True).steps
                # each effect that moved cards, and whether the match ended before anybody acted again
                moved = [(d, s.state.result is not None) for s in steps for d in s.derived
                         if type(d) is E.EffectResolved and d.cards]
                for seat in events[0].players:
                    rec = _record(full, seat)
                    res = run(parse_log(_lines(rec)), record_steps=True)
                    assert res.verdict in ("legal", "undetermined"), [v.as_dict() for v in res.violations]
                    named = [e for e in rec if type(e) is E.EffectResolved and e.cards]
                    if not with_derived:  # the log leaves them out, and so does the record, but in a run
                        # of derived events it states for a public fact its engine cannot derive
                        # (the opponent's deck rebuilt or defenseless: observe.shows_seat)
                        for i, e in enumerate(rec):
                            if type(e) is E.EffectResolved and e.cards:
                                run_after = [x for x in itertools.takewhile(lambda x: x.kind == "X", rec[i + 1:])]
                                assert any(type(x) in (E.DeckRebuilt, E.Defenseless) and x.player != seat
                                           for x in run_after), (seed, seat, i)
                                if e.target != seat and (shuffle_to == "deck"):
                                    assert set(e.cards) == {HIDDEN}
                        continue
                    assert len(named) == len(moved)
                    for e, (d, ended) in zip(named, moved):  # named where the seat saw them, else "?"
                        # (where the match ends before anybody acts again, the opponent's engine
                        # derives the effect with them unknown: its record has them so)
                        unseen = d.target != seat and (ended or (d.copied or d.effect) == "shuffle-hand" and shuffle_to == "deck")
                        assert e == (msgspec.structs.replace(d, cards=[HIDDEN] * len(d.cards)) if unseen else d)
                    for step in res.steps:  # the record's position has them by name in the discard pile
                        e = step.event
                        if type(e) is E.EffectResolved and e.cards and HIDDEN not in e.cards and e.target != seat and \
                                not ((e.copied or e.effect) == "shuffle-hand" and shuffle_to == "deck"):
                            assert all(c in step.state.player(e.target).discard for c in e.cards)
                            counts[shuffle_to] += 1
                        elif type(e) is E.EffectResolved and e.cards:
                            counts[shuffle_to] += 1
    assert counts["discard"] >= 5 and counts["deck"] >= 1, counts


def test_a_seats_record_states_the_opponents_deck_rebuilt_and_keeps_the_tables_discard_pile() -> None:
    """LG-4, LG-35: the table sees the opponent rebuild their deck from the discard pile; a record
    that does not know the opponent's deck list cannot derive when, so it states it (issue 29: the
    opponent's discard pile grew for the whole match, a record verified in quadratic time), and
    its position then holds the opponent's discard pile as the full log's does."""
    events, _ = playout(GAME, 1, max_events=6000, long=True)
    full = to_jsonl(events)
    rebuilt = run(parse_log(full), record_steps=True).steps
    n_rebuilt = {p: sum(type(d) is E.DeckRebuilt and d.player == p for s in rebuilt for d in s.derived)
                 for p in events[0].players}
    end = run(parse_log(full)).state
    for seat in events[0].players:
        other = next(p for p in events[0].players if p != seat)
        assert n_rebuilt[other] > 2
        rec = _record(full, seat)
        assert sum(type(e) is E.DeckRebuilt and e.player == other for e in rec) == n_rebuilt[other]
        mine = run(parse_log(_lines(rec)))
        assert mine.verdict in ("legal", "undetermined"), [v.as_dict() for v in mine.violations]
        assert len(mine.state.player(other).discard) == len(end.player(other).discard)
