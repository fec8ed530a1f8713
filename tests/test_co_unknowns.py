"""Colossus Order: a seat's record with unknown identities (issue 11, CO-39).

Every complete example, redacted per seat as ``adjudicator redact`` writes it, verifies ``legal``
or ``undetermined``; so does every generated match; a planted impossible reveal is ``illegal`` with
the reason; an undetermined decision carries its condition; a full-information log is unchanged.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.cli.main import main
from adjudicator.core.kernel.commitments import commitment_of
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.protocol import RefError
from adjudicator.core.kernel.verify import run
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order.state import LocusSlot
from adjudicator.games.colossus_order.unknowns import open_unseen

from .co_scenarios import A, B, GAME, POOL, Script, encode, verify_events
from .test_co_rules import accepts, covers, rejects, ruled

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "colossus-order"
COMPLETE = sorted(p for p in EXAMPLES.glob("legal-*.jsonl") if "-seat-" not in p.name)


def seat_record(events: list, seat: str) -> list:
    """The record ``seat`` kept: every event as ``adjudicator redact`` writes it."""
    return [GAME.redact(e, seat) for e in events]


def events_of(path: Path) -> list:
    return [e for _, e in parse_log(path.read_bytes()).events]


@covers("CO-39", "CO-39.1", illegal=False, behaviour=True)
@pytest.mark.parametrize("path", COMPLETE, ids=lambda p: p.name)
def test_each_seat_record_of_every_complete_example_is_never_illegal(path: Path) -> None:
    """Redacted event by event (a client that states no derived event; ``redact`` states more:
    tests/test_seat_colossus_order.py)."""
    events = events_of(path)
    full = run(parse_log(path.read_bytes()))
    for seat in events[0].players:
        res = verify_events(seat_record(events, seat))
        assert res.verdict in ("legal", "undetermined"), (seat, res.violations)
        assert "CO-39.1" not in {u.rule for u in res.undetermined}  # an assumption, stated once
        assert len(res.assumptions) == 1 and "construction rules (CO-1.2 to CO-1.5" in res.assumptions[0]
        assert res.outcome == full.outcome or res.outcome is None


def test_a_seat_record_through_the_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    src = EXAMPLES / "legal-gem-complete.jsonl"
    out = tmp_path / "bob.jsonl"
    r = runner.invoke(main, ["redact", str(src), "--as", "bob", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert f'"card":"{HIDDEN}"' in out.read_text()
    assert '"type":"BattleResolved","player":"bob","attacker":"F5","result":"locus-hit","slot":2,"card":"white-gem"' in out.read_text()
    r = runner.invoke(main, ["verify", "--jobs", "1", str(out)])
    assert r.exit_code == 0, r.output  # every card a decision turns on was shown to bob
    assert "legal" in r.output and "assuming alice's deck list, unknown to this record" in r.output
    r = runner.invoke(main, ["verify", "--jobs", "1", "--json", str(out)])
    assert r.exit_code == 0
    doc = msgspec.json.decode(r.output.splitlines()[0].encode())
    assert doc["verdict"] == "legal" and "undetermined" not in doc


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_a_redacted_generated_match_never_verifies_illegal(seed: int) -> None:
    events, _ = playout(GAME, seed, max_events=700)
    assert run(parse_log(encode(events))).verdict == "legal"
    for seat in events[0].players:
        res = verify_events(seat_record(events, seat))
        assert res.verdict in ("legal", "undetermined"), (seed, seat, res.violations)


@covers("CO-39.2")
def test_a_card_named_from_unknown_cards_must_still_be_unaccounted_for() -> None:
    """Bob's hand is unknown in alice's record; a card he plays must be one he can still have."""
    s = Script()
    record = seat_record(s.events(), A)
    v = verify_events(record)
    assert v.verdict == "legal"
    state = v.state
    bob = state.player(B)
    assert set(bob.hand) == {HIDDEN} and len(bob.unseen) == len(open_unseen(POOL))
    # three copies of a follower accounted for, a fourth played from the unknown hand
    card = "grave-rat"
    for _ in range(3):
        bob = msgspec.structs.replace(bob, discard=bob.discard + (card,), unseen=_minus(bob.unseen, card))
    state = msgspec.structs.replace(state, players=(state.players[0], bob) if state.players[1].id == B else (bob, state.players[1]),
                                    turn_player=B)
    ruling = GAME.check(state, E.CardSet(player=B, card=card, zone="locus"))
    rejects(ruling, "CO-39.2", "impossible-identity", "bob sets Grave Rat", "all 3 copies", "3 in the discard pile")
    accepts(GAME.check(state, E.CardSet(player=B, card="ash", zone="locus")), "CO-4.1")


def _minus(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = items.index(card)
    return items[:i] + items[i + 1:]


def test_a_registered_deck_list_bounds_what_an_unknown_card_can_be() -> None:
    """With the opponent's deck list in the record, a card outside it is impossible."""
    s = Script()
    record = seat_record(s.events(), A)
    record[0] = s.events()[0]  # alice's record keeps bob's registered list
    v = verify_events(record)
    assert v.verdict == "legal"
    bob = v.state.player(B)
    foreign = next(c for c in sorted(POOL.cards) if c not in record[0].decks[B].cards and POOL[c].type != "colossus")
    assert HIDDEN in bob.hand and sorted(bob.unseen) == sorted(c for c, n in record[0].decks[B].cards.items()
                                                              for _ in range(n) if c not in v.state.player(B).hand)
    ruling = GAME.check(msgspec.structs.replace(v.state, turn_player=B), E.CardSet(player=B, card=foreign, zone="locus"))
    assert ruling.verdict == "illegal" and ruling.rule == "CO-39.2" and f"no {POOL[foreign].name} can be in bob's deck" in ruling.message


@covers("CO-39.3")
def test_a_gem_set_on_the_colossus_must_be_named() -> None:
    s = Script()
    v = verify_events(seat_record(s.events(), B))
    state = v.state
    rejects(GAME.check(state, E.CardSet(player=A, card=None, zone="gem")), "CO-39.3", "unknown-gem", "must name it")
    accepts(GAME.check(state, E.CardSet(player=A, card=None, zone="locus")), "CO-4.1")


def test_a_question_mark_outside_the_fields_that_may_be_unknown_is_unreadable() -> None:
    setup = Script().events()[0]
    with pytest.raises(RefError, match="FollowerPlayed.card must name the card"):
        GAME.validate_refs(setup, E.FollowerPlayed(player=A, card=HIDDEN))
    GAME.validate_refs(setup, E.CardDrawn(player=A, card=HIDDEN))
    GAME.validate_refs(setup, E.CardsReturned(player=A, cards=[HIDDEN, "ash"]))


@covers("CO-39.4", "CO-39.5", illegal=False, behaviour=True)
def test_undetermined_decisions_carry_their_condition() -> None:
    events = events_of(EXAMPLES / "legal-gem-complete.jsonl")
    res = verify_events(seat_record(events, B))
    conditions = {(u.rule, u.condition) for u in res.undetermined}
    assert any(r == "CO-39.4" and "not all Gems" in c for r, c in conditions)
    assert any(r == "CO-39.5" and "slot 2, hit by bob's attack, was a Gem (captured)" in c for r, c in conditions)
    assert any(r == "CO-39.5" and "was not a Gem (turned face up)" in c for r, c in conditions)


@covers("CO-39.5")
def test_an_impossible_locus_hit_branch_is_illegal() -> None:
    """Alice's record of bob: bob's Locus card hit, bob draws (it was a Gem) though no Gem is left."""
    events = events_of(EXAMPLES / "legal-gem-complete.jsonl")
    record = seat_record(events, B)
    res = verify_events(record)
    hit = next(u for u in res.undetermined if u.rule == "CO-39.5")
    upto = verify_events(record[: hit.seq - 1]).state
    assert upto.todo[0].__class__.__name__ == "Battle" and GAME.follows_stated(upto)  # the battle is the record's to state
    owner = upto.opponent(upto.attack.player)
    no_gems = msgspec.structs.replace(owner, unseen=tuple(c for c in owner.unseen if not POOL[c].is_gem))
    state = msgspec.structs.replace(upto, players=tuple(no_gems if p.id == owner.id else p for p in upto.players))
    ruling = GAME.check(state, record[hit.seq - 1])
    assert ruling.verdict == "illegal" and ruling.rule == "CO-39.5" and "means that card was a Gem" in ruling.message
    ruled("CO-39.5")


def test_full_information_examples_verify_as_before() -> None:
    for path in COMPLETE:
        assert run(parse_log(path.read_bytes())).verdict == "legal"


def test_the_scene_says_what_an_unknown_card_can_still_be() -> None:
    s = Script()
    v = verify_events(seat_record(s.events(), A))
    scene = GAME.scene(v.state, None)
    hand = next(z for z in scene.zones if z.id == f"{B}.hand")
    assert hand.cards and all(c.name is None and c.possible for c in hand.cards)
    possible = hand.cards[0].possible
    assert len(possible) == len(set(possible)) <= len(POOL.cards)
    assert possible == [c for c in POOL.cards if c in set(possible)]  # the pool's order
    full = GAME.scene(s.state(), A)  # a full-information match observed by a seat: nothing to list
    assert all(c.possible is None for z in full.zones for c in z.cards)


@covers("CO-39.6", illegal=False, behaviour=True)  # undetermined, never illegal here
def test_a_gem_level_met_only_by_unnamed_captured_gems_is_undetermined() -> None:
    s = Script(hands={A: ["white-gem", "white-gem"]})
    state = s.state()
    alice = state.player(A)
    card = next(c for c in sorted(POOL.cards) if POOL[c].is_follower and sum(POOL[c].gem_level.values()) >= 1
                and set(POOL[c].gem_level) <= {"white", "any"})
    need = sum(POOL[card].gem_level.values())
    locus = tuple(LocusSlot(i + 1, "ash") for i in range(POOL[card].locus_cost))
    bare = msgspec.structs.replace(alice, hand=alice.hand + (card,), set_gems=(), captured=(HIDDEN,) * need, locus=locus)
    state = msgspec.structs.replace(state, players=(bare, state.players[1]))
    ruling = GAME.check(state, E.FollowerPlayed(player=A, card=card))
    assert ruling.verdict == "undetermined" and ruling.rule == "CO-39.6" and "unnamed captured Gems include" in ruling.condition
    short = msgspec.structs.replace(bare, captured=(HIDDEN,) * (need - 1))
    rejects(GAME.check(msgspec.structs.replace(state, players=(short, state.players[1])), E.FollowerPlayed(player=A, card=card)),
            "CO-5.2", "gem-level")


# ==================================================================================================
# commitments (CO-40): a hidden card field holds sha256 of card and salt, opened later
# ==================================================================================================

def committed_match(salt: str = "s3cret") -> tuple[list, int, str, str]:
    """A short match whose bob's first draw is recorded as a commitment: (events, its index, card, commitment)."""
    events = list(Script().events())
    i = next(i for i, e in enumerate(events) if type(e) is E.CardDrawn and e.player == B)
    card = events[i].card
    c = commitment_of(card, salt)
    events[i] = msgspec.structs.replace(events[i], card=c)
    return events, i, card, c


@covers("CO-40.2", "CO-40.3")
@covers("CO-40", illegal=False, behaviour=True)  # the commitment's rulings cite CO-40.2/CO-40.3
def test_a_committed_draw_opened_later_verifies_and_a_bad_opening_is_illegal() -> None:
    events, i, card, c = committed_match()
    opened = verify_events(events + [E.CommitmentOpened(player=B, commitment=c, card=card, salt="s3cret")])
    assert opened.verdict == "legal" and not opened.unopened, opened.violations
    state = verify_events(events).state
    accepts(GAME.check(state, E.CommitmentOpened(player=B, commitment=c, card=card, salt="s3cret")), "CO-40.2")
    rejects(GAME.check(state, E.CommitmentOpened(player=B, commitment=c, card=card, salt="wrong")),
            "CO-40.3", "bad-opening", "with salt 'wrong' does not hash to")
    rejects(GAME.check(state, E.CommitmentOpened(player=A, commitment=c, card=card, salt="s3cret")),
            "CO-40.2", "not-own-commitment", "only bob can open it")
    other = commitment_of(card, "other")
    rejects(GAME.check(state, E.CommitmentOpened(player=B, commitment=other, card=card, salt="other")),
            "CO-40.2", "no-such-commitment", other)
    after = opened.state
    rejects(GAME.check(after, E.CommitmentOpened(player=B, commitment=c, card=card, salt="s3cret")),
            "CO-40.2", "no-such-commitment", "opened already")


@covers("CO-40.4")
def test_an_opening_must_name_a_card_the_hidden_one_could_be() -> None:
    foreign = next(c for c in sorted(POOL.cards) if c not in Script().events()[0].decks[B].cards and POOL[c].type != "colossus")
    events = list(Script().events())
    i = next(i for i, e in enumerate(events) if type(e) is E.CardDrawn and e.player == B)
    c = commitment_of(foreign, "x")
    events[i] = msgspec.structs.replace(events[i], card=c)
    state = verify_events(events).state
    rejects(GAME.check(state, E.CommitmentOpened(player=B, commitment=c, card=foreign, salt="x")),
            "CO-40.4", "impossible-identity", f"as {POOL[foreign].name}")
    ok, _, card, good = committed_match()
    accepts(GAME.check(verify_events(ok).state, E.CommitmentOpened(player=B, commitment=good, card=card, salt="s3cret")), "CO-40.2")


@covers("CO-40.1", legal=True, illegal=False, behaviour=True)
def test_a_commitment_never_opened_is_a_warning_beside_the_verdict(tmp_path: Path) -> None:
    events, i, card, c = committed_match()
    res = verify_events(events)
    assert res.verdict == "legal"
    (u,) = res.unopened
    assert (u.seq, u.line, u.player, u.commitment) == (i + 1, i + 1, B, c) and "bob's draw" in u.what
    path = tmp_path / "committed.jsonl"
    path.write_bytes(encode(events))
    r = CliRunner().invoke(main, ["verify", "--jobs", "1", str(path)])
    assert r.exit_code == 0, r.output
    assert f"committed.jsonl:{i + 1}: event {i + 1}: commitment never opened: bob's draw" in r.output
    r = CliRunner().invoke(main, ["verify", "--jobs", "1", "--json", str(path)])
    doc = msgspec.json.decode(r.output.splitlines()[0].encode())
    assert doc["unopened"][0]["commitment"] == c and doc["verdict"] == "legal"
    # the commitment is public: a seat's record keeps it (redact masks only the card)
    assert GAME.redact(events[i], A).card == c
    # a malformed commitment is unreadable (exit code 2), naming the line and the field
    bad = list(events)
    bad[i] = msgspec.structs.replace(events[i], card="sha256:xyz")
    path.write_bytes(encode(bad))
    r = CliRunner().invoke(main, ["verify", "--jobs", "1", str(path)])
    assert r.exit_code == 2 and f"committed.jsonl:{i + 1}: card: malformed commitment 'sha256:xyz'" in r.output, r.output
