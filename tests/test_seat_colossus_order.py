"""Colossus Order: what each seat knows (issue 20, CO-39).

A seat's record (``adjudicator redact --as``, :func:`adjudicator.core.kernel.seats.redact_log`) names every
card the seat saw: a Locus card an attack turns face up or captures, the cards a Complete
Declaration shows, a card both players know is on top of a deck.  The engine takes a stated
identity as a reveal of that unknown card (checked against what it can be).  An unknown deck list
is an assumption stated once, not an undetermined event; conditions later reveals settle are no
longer listed.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel.events import HIDDEN, JudgeRuling
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import run
from adjudicator.games.colossus_order import events as E

from .co_scenarios import A, B, GAME, POOL, encode, verify_events
from .test_co_rules import covers, rejects, ruled

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "colossus-order"
COMPLETE = sorted(p for p in EXAMPLES.glob("legal-*.jsonl") if "-seat-" not in p.name)


def record_of(events: list, seat: str) -> list:
    """``seat``'s record of the full log ``events``, as ``adjudicator redact --as`` writes it."""
    return list(redact_log(parse_log(encode(events)), seat))


def events_of(path: Path) -> list:
    return [e for _, e in parse_log(path.read_bytes()).events]


# -- 1. what an attack or a declaration shows is named in both seats' records ----------------------

def test_a_locus_card_an_attack_hits_is_named_in_the_attackers_record() -> None:
    """Bob's attacks hit alice's face-down Locus cards in legal-gem-complete: bob saw each card
    (captured, or turned face up), so his record states the battle with the card."""
    events = events_of(EXAMPLES / "legal-gem-complete.jsonl")
    bob = record_of(events, B)
    hits = [e for e in bob if type(e) is E.BattleResolved]
    assert [h.card for h in hits] == ["white-gem", "sky-lancer-captain"]
    assert all(h.result == "locus-hit" for h in hits)
    revealed = [e for e in bob if type(e) is E.LocusRevealed]
    assert len(revealed) == 1 and HIDDEN not in revealed[0].cards
    res = verify_events(bob)
    assert res.verdict == "legal", (res.violations, res.undetermined)
    assert res.outcome == run(parse_log((EXAMPLES / "legal-gem-complete.jsonl").read_bytes())).outcome


@covers("CO-39.2")
@covers("CO-39.5", illegal=False, behaviour=True)
def test_a_record_that_names_the_hit_card_is_legal_and_an_impossible_one_is_not() -> None:
    """The full log with every derived event stated, as bob's seat kept it: the battle names alice's
    face-down card (before: LOG-2, the engine derived "?").  A card alice cannot have is illegal."""
    full = parse_log((EXAMPLES / "legal-gem-complete.jsonl").read_bytes())
    steps = run(full, record_steps=True).steps
    stated = [x for st in steps for x in [st.event, *st.derived]]  # the log with its consequences
    record = [GAME.redact(e, B) for e in stated]
    hit = next(i for i, e in enumerate(record) if type(e) is E.BattleResolved and e.result == "locus-hit")
    assert record[hit].card == "white-gem"  # kind X: the stated event as the full log has it
    assert verify_events(record).verdict == "legal"
    foreign = next(c for c in sorted(POOL.cards) if POOL[c].type == "colossus")  # never in a deck (CO-1.5)
    planted = record[:hit] + [msgspec.structs.replace(record[hit], card=foreign)]
    res = verify_events(planted)
    assert res.verdict == "illegal"
    v = res.violations[0]
    assert (v.rule, v.code, v.seq) == ("CO-39.2", "colossus-order/impossible-identity", hit + 1)
    ruled("CO-39.2")
    assert f"shows {POOL[foreign].name} in alice's Locus, but no {POOL[foreign].name} can be in alice's deck" in v.message
    other = record[:hit] + [msgspec.structs.replace(record[hit], slot=99)]
    assert verify_events(other).violations[0].rule == "LOG-2"


@covers("CO-39.4", illegal=False, behaviour=True)
def test_a_stated_declaration_reveal_settles_its_condition() -> None:
    """Without the reveal the declaration is undetermined (CO-39.4); with it, legal: the condition
    is settled and no longer listed."""
    events = events_of(EXAMPLES / "legal-gem-complete.jsonl")
    bob = record_of(events, B)
    reveal = next(i for i, e in enumerate(bob) if type(e) is E.LocusRevealed)
    without = bob[:reveal] + bob[reveal + 1:]
    res = verify_events(without)
    assert [u.rule for u in res.undetermined] == ["CO-39.4"]
    assert verify_events(bob).undetermined == []


def test_a_record_without_the_stated_battle_still_follows_the_next_event() -> None:
    """A client that writes no derived events: the old reading (CO-39.5, the next event decides)."""
    events = events_of(EXAMPLES / "legal-gem-complete.jsonl")
    bob = [GAME.redact(e, B) for e in events]
    res = verify_events(bob)
    assert res.verdict == "undetermined"
    assert {u.rule for u in res.undetermined} == {"CO-39.4", "CO-39.5"}


# -- 2. an unknown deck list is an assumption ---------------------------------------------------------

@covers("CO-39", "CO-39.1", illegal=False, behaviour=True)
@pytest.mark.parametrize("path", COMPLETE, ids=lambda p: p.name)
def test_each_seat_record_of_every_legal_example_verifies_legal(path: Path) -> None:
    full = run(parse_log(path.read_bytes()))
    events = events_of(path)
    for seat in events[0].players:
        res = verify_events(record_of(events, seat))
        assert res.verdict == "legal", (seat, res.violations, res.undetermined)
        other = next(p for p in events[0].players if p != seat)
        assert res.assumptions == [f"{other}'s deck list, unknown to this record, meets the construction rules "
                                   f"(CO-1.2 to CO-1.5: 50 cards, at most 20 Gems, at most 3 of a name, no Colossus; CO-39.1)"]
        assert res.outcome == full.outcome


def test_redact_verify_reconcile_through_the_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    src = EXAMPLES / "legal-gem-complete.jsonl"
    for seat in (A, B):
        r = runner.invoke(main, ["redact", str(src), "--as", seat, "-o", str(tmp_path / f"{seat}.jsonl")])
        assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["verify", "--jobs", "1", str(tmp_path / "alice.jsonl"), str(tmp_path / "bob.jsonl")])
    assert r.exit_code == 0, r.output
    assert r.output.count("assuming ") == 2 and "bob's deck list, unknown to this record, meets the construction rules" in r.output
    r = runner.invoke(main, ["verify", "--jobs", "1", "--json", str(tmp_path / "bob.jsonl")])
    doc = msgspec.json.decode(r.output.splitlines()[0].encode())
    assert doc["verdict"] == "legal" and "alice's deck list" in doc["assumptions"][0]
    r = runner.invoke(main, ["reconcile", str(tmp_path / "alice.jsonl"), str(tmp_path / "bob.jsonl"),
                             "-o", str(tmp_path / "merged.jsonl")])
    assert r.exit_code == 0, r.output
    merged = parse_log((tmp_path / "merged.jsonl").read_bytes())
    assert run(merged).verdict == "legal"
    full = [e for _, e in parse_log(src.read_bytes()).events]
    assert [e for _, e in merged.events if e.kind != "X"] == [e for e in full if e.kind != "X"]


@covers("CO-1.3")
def test_a_card_that_breaks_the_assumed_construction_rules_is_illegal() -> None:
    """Bob's deck list is unknown to alice's record: a 21st Gem of his is impossible (CO-1.3)."""
    events = events_of(EXAMPLES / "legal-deck-out.jsonl")
    alice = record_of(events, A)
    res = verify_events(alice)
    state = res.state
    bob = state.player(B)
    gems = [c for c in sorted(POOL.cards) if POOL[c].is_gem and not POOL[c].unique]
    shown = tuple(gems[i % len(gems)] for i in range(20))  # 20 Gems of bob's already named
    bob = msgspec.structs.replace(bob, discard=shown, unseen=tuple(sorted(bob.unseen + ("white-gem",))), hand=(HIDDEN,))
    state = msgspec.structs.replace(state, players=tuple(bob if p.id == B else p for p in state.players), result=None,
                                    pending_ends=(), todo=(), phase="main", turn_player=B, turn=99)
    state = msgspec.structs.replace(state, players=tuple(msgspec.structs.replace(p, gem_set=False) for p in state.players))
    rejects(GAME.check(state, E.CardSet(player=B, card="white-gem", zone="gem")), "CO-1.3", "too-many-gems",
            "21st Gem card", "assumed to meet CO-1.3")


# -- 3. deck validation off: the size of an unknown deck --------------------------------------------

def _tutorial(tmp_path: Path) -> Path:
    text = (ROOT / "docs" / "own-cards.md").read_text()
    log = re.search(r"cat > club-match.jsonl <<'EOF'\n(.*?)EOF", text, re.S).group(1)
    pool = re.search(r"cat > my-pools/club-cards.toml <<'EOF'\n(.*?)EOF", text, re.S).group(1)
    (tmp_path / "pools").mkdir()
    (tmp_path / "pools" / "club-cards.toml").write_text(pool)
    (tmp_path / "club-match.jsonl").write_text(log)
    return tmp_path / "club-match.jsonl"


def test_a_seat_record_of_a_match_without_deck_validation_keeps_the_deck_size(tmp_path: Path) -> None:
    """The tutorial match (deck_validation off): each seat's record verifies legal (before: the
    unknown deck {} was an empty deck, LOG-3 after a deck-out)."""
    match = _tutorial(tmp_path)
    runner = CliRunner()
    pools = ["--pools", str(tmp_path / "pools")]
    for seat in ("ann", "ben"):
        out = tmp_path / f"{seat}.jsonl"
        r = runner.invoke(main, ["redact", *pools, str(match), "--as", seat, "-o", str(out)])
        assert r.exit_code == 0, r.output
        first = msgspec.json.decode(out.read_text().splitlines()[0])
        other = "ben" if seat == "ann" else "ann"
        assert first["decks"][other] == {"colossus": "harbour-colossus", "cards": {}, "size": 8}
        r = runner.invoke(main, ["verify", "--jobs", "1", *pools, str(out)])
        assert r.exit_code == 0, r.output
        assert f"{other}'s deck list, unknown to this record, is 8 cards of the pool (deck_validation off" in r.output


def test_an_unknown_deck_size_is_bounded_and_only_for_an_unknown_list() -> None:
    from adjudicator.core.kernel.protocol import RefError

    setup = events_of(EXAMPLES / "legal-gem-complete.jsonl")[0]
    d = setup.decks[B]
    with pytest.raises(RefError) as x:
        GAME.validate_setup(msgspec.structs.replace(setup, decks={**setup.decks, B: E.DeckList(d.colossus, {}, 10**6)}))
    assert x.value.field == "decks.bob.size" and "0 to 1000" in str(x.value)
    with pytest.raises(RefError) as x:
        GAME.validate_setup(msgspec.structs.replace(setup, decks={**setup.decks, B: E.DeckList(d.colossus, d.cards, 50)}))
    assert x.value.field == "decks.bob.size" and "only for a deck list left unknown" in str(x.value)


# -- 4. the seat's record renumbers what a judge's ruling names ---------------------------------------

def test_a_judges_ruling_names_the_same_event_in_a_seat_record_that_states_more() -> None:
    events = events_of(EXAMPLES / "legal-gem-complete.jsonl")
    bob = record_of(events, B)
    hit = next(i for i, e in enumerate(bob) if type(e) is E.BattleResolved)
    later = next(i for i, e in enumerate(events) if i > hit and e.kind == "D")  # an event after the insertion
    ruling = JudgeRuling(event=later + 1, decision="penalty", penalty="a warning", player=events[later].player)
    full = events[:later + 1] + [ruling]
    record = record_of(full, B)
    moved = record[-1]
    assert type(moved) is JudgeRuling and moved.event == later + 2
    assert record[moved.event - 1] == GAME.redact(events[later], B)


# -- 5. smaller: the rule that owes an effect's draw; a wrong draw applied as stated ------------------

def _pact() -> "Script":
    """Bob resolves Forbidden Pact (draw 2, the opponent draws 1): the draws are owed."""
    from .co_scenarios import Script

    from .co_scenarios import BLACK_CARDS

    s = Script(hands={B: ["forbidden-pact"]}, decks={B: BLACK_CARDS[:9] + ["forbidden-pact"]})
    s.develop(2)
    s.end_turn()
    assert s.tp == B and len(s.player(B).locus) >= 2
    s.play("forbidden-pact")
    s.pass_window()
    return s


@covers("CO-8.10")
def test_an_effects_draw_is_owed_under_its_own_rule() -> None:
    s = _pact()
    rejects(s.check(E.MainPhaseEnded(player=B)), "CO-8.10", "out-of-step", "card drawn by bob (2 to draw)",
            "an effect makes them draw")
    s.draw()
    s.draw()
    s.draw(player=A)
    assert s.check(E.MainPhaseEnded(player=B)).legal


def test_a_draw_no_rule_owed_can_stand_by_a_judges_ruling() -> None:
    """Before: the engine could not apply it (no draw owed: an index error), so "stands" could not
    be followed (LOG-5).  Now the card drawn is applied as stated."""
    from .co_scenarios import Script

    s = Script()
    events = s.events()
    p = s.player(A)
    card = sorted(set(p.deck_top))[0]
    wrong = E.CardDrawn(player=A, card=card)
    assert s.check(wrong).rule == "CO-3.4"
    log = events + [wrong, JudgeRuling(event=len(events) + 1, decision="stands", reason="noticed late")]
    res = verify_events(log)
    assert res.verdict == "legal", res.violations
    assert [(w.rule, w.decision) for w in res.warnings] == [("CO-3.4", "stands")]
    after = res.state.player(A)
    assert after.hand.count(card) == p.hand.count(card) + 1 and after.deck_count == p.deck_count - 1


def test_a_wrong_draw_applied_as_stated_takes_that_card_from_the_deck() -> None:
    """A draw the deck's known order forbids (CO-2.6), applied unchecked (a "stands" ruling,
    --keep-going): the card named leaves the deck, not the known top card."""
    from adjudicator.games.colossus_order import deck

    from .co_scenarios import Script

    s = Script()
    p = msgspec.structs.replace(s.player(A), deck_known=("ash",), known_why=("put on top",))
    other = next(c for c in p.deck_top if c != "ash")
    q = deck.take(p, other, False)
    assert q.deck_known == ("ash",) and q.known_why == ("put on top",)
    assert len(q.deck_top) == len(p.deck_top) - 1 and q.deck_top.count(other) == p.deck_top.count(other) - 1


# -- 6. private information: a look at a hand, at a deck's top (and its new order), a move ---------

def _resolved(seat: str, card: str, cards: list[str], colossus: str | None = None) -> "Script":
    """``seat``'s ``card`` (in a deck around ``cards``) played on its second turn and resolved."""
    from .co_scenarios import Script, deck

    s = Script(hands={seat: [card]}, decks={seat: deck(colossus, cards) if colossus else cards})
    s.develop(1)
    if seat == B:
        s.end_turn()
    s.play(card)
    s.pass_window()
    return s


def _raven() -> "Script":
    """Bob's Spying Raven enters: bob looks at alice's hand (CO-41)."""
    from .co_scenarios import BLACK_CARDS

    return _resolved(B, "spying-raven", BLACK_CARDS[:9] + ["spying-raven"])


def _scrying() -> "Script":
    """Bob (blue) resolves Tidal Scrying: he looks at his top 2 cards and puts them back (CO-42)."""
    from .co_scenarios import BLUE

    return _resolved(B, "tidal-scrying", ["tidal-scrying", "tide-scout", "windcaller-adept", "tideglass-augur"], BLUE)


def _cache() -> "Script":
    """Alice (red) resolves Buried Cache: her top card goes into her Locus face down (CO-43)."""
    from .co_scenarios import RED

    return _resolved(A, "buried-cache", ["buried-cache", "ember-imp", "ashland-raider", "flame-salamander"], RED)


def _legal(s: "Script", kind: type) -> list:
    return [e for e in GAME.legal_events(s.state()) if type(e) is kind]


@covers("CO-41")
def test_a_look_at_the_opponents_hand_names_its_cards_for_the_looker_alone() -> None:
    from adjudicator.core.kernel.events import CardsLooked

    s = _raven()
    [look] = _legal(s, CardsLooked)
    hand = sorted(s.player(A).hand)
    assert (look.player, look.owner, look.zone, look.cards) == (B, A, "hand", hand)
    rejects(s.check(E.MainPhaseEnded(player=B)), "CO-41", "out-of-step", "cards looked by bob at alice's hand")
    wrong = hand[:-1] + [next(c for c in ("ash", "heroic-knight") if c not in hand)]
    rejects(s.check(msgspec.structs.replace(look, cards=sorted(wrong))), "CO-41", "not-in-hand", "bob looks at alice's hand")
    rejects(s.check(msgspec.structs.replace(look, cards=hand[1:])), "CO-41", "look-count", "alice holds 6 cards")
    rejects(s.check(msgspec.structs.replace(look, zone="deck-top")), "CO-41", "look-what")
    s.add(look)
    for seat, named in ((B, True), (A, False)):
        record = record_of(s.events(), seat)
        seen = next(e for e in record if type(e) is CardsLooked)
        assert (seen.cards == hand) is named and (seen.cards == [HIDDEN] * len(hand)) is not named
        res = verify_events(record)
        assert res.verdict == "legal", (seat, res.violations)
    bob_view = verify_events(record_of(s.events(), B)).state.player(A)
    assert sorted(bob_view.hand) == hand  # what bob saw, named in his record's position


@covers("CO-42")
def test_a_look_at_the_top_of_a_deck_then_its_new_order_binds_the_draws() -> None:
    from adjudicator.core.kernel.events import CardsLooked, CardsReordered

    s = _scrying()
    looks = _legal(s, CardsLooked)
    assert looks and all(len(x.cards) == 2 and x.zone == "deck-top" and x.owner == B for x in looks)
    look = next(x for x in looks if x.cards[0] != x.cards[1])
    s.add(look)
    orders = _legal(s, CardsReordered)
    assert sorted(tuple(o.cards) for o in orders) == sorted({tuple(look.cards), tuple(reversed(look.cards))})
    rejects(s.check(msgspec.structs.replace(orders[0], cards=["ash", "ash"])), "CO-42", "reorder-cards", "looked at")
    new = list(reversed(look.cards))
    s.add(CardsReordered(player=B, owner=B, zone="deck-top", cards=new))
    assert s.player(B).deck_peek == tuple(new) and s.player(B).peek_by == B
    for viewer, names in ((B, new), (A, [None, None])):  # the viewers: the looker sees the cards
        zone = next(z for z in GAME.scene(s.state(), viewer).zones if z.id == f"{B}.deck-peek")
        assert [c.name and c.id for c in zone.cards] == names and "Looked at by bob" in zone.label
    s.end_turn()  # bob's turn ends; alice draws
    s.end_main()  # alice's turn ends: bob's draw must be the card he put on top (CO-2.6: the order is known)
    assert s.head().__class__.__name__ == "Draw" and s.head().player == B
    if new[1] != new[0]:
        rejects(s.check(E.CardDrawn(player=B, card=new[1])), "CO-2.6", "not-next-card", "looked at by bob")
    s.draw(new[0], B)
    p = s.player(B)
    for seat in (A, B):
        res = verify_events(record_of(s.events(), seat))
        assert res.verdict == "legal", (seat, res.violations)
    alice = record_of(s.events(), A)
    assert [e.cards for e in alice if type(e) in (CardsLooked, CardsReordered)] == [[HIDDEN] * 2] * 2
    assert p.deck_count  # the deck kept its size through the look


@covers("CO-43")
def test_a_card_moved_from_the_deck_to_the_locus_is_seen_by_its_owner_alone() -> None:
    from adjudicator.core.kernel.events import CardsMoved

    s = _cache()
    moves = _legal(s, CardsMoved)
    assert moves and all(m.seen_by == [A] and m.from_zone == "deck" and m.to_zone == "locus" for m in moves)
    move = moves[0]
    rejects(s.check(msgspec.structs.replace(move, seen_by=[A, B])), "CO-43", "seen-by", "seen by alice alone")
    rejects(s.check(msgspec.structs.replace(move, to_zone="hand")), "CO-43", "move-what")
    rejects(s.check(E.MainPhaseEnded(player=A)), "CO-43", "out-of-step", "cards moved by alice from deck to locus")
    before = len(s.player(A).locus)
    s.add(move)
    assert len(s.player(A).locus) == before + 1 and s.player(A).locus[-1].card == move.cards[0]
    for seat in (A, B):
        record = record_of(s.events(), seat)
        moved = next(e for e in record if type(e) is CardsMoved)
        assert moved.cards == (move.cards if seat == A else [HIDDEN])
        res = verify_events(record)
        assert res.verdict == "legal", (seat, res.violations)
    assert verify_events(record_of(s.events(), B)).state.player(A).locus[-1].card == HIDDEN


# -- 7. the property: every seat's record of a generated match with every hidden-card effect --------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from adjudicator.core.kernel.playout import playout  # noqa: E402
from adjudicator.core.services.reconcile import read_record, reconcile  # noqa: E402

#: the event types of the effects that reveal, show, look at or move hidden cards, and of the
#: battles and declarations that turn a face-down card face up
HIDDEN_MOVES = ("CardsLooked", "CardsReordered", "CardsMoved", "TopCardRevealed", "CardMilled", "CardsRevealed",
                "CompleteDeclared", "LocusReplaced")


def seat_setup() -> E.MatchStarted:
    from .make_co_examples import private_setup

    return private_setup()


def stays_unknown(state, v) -> bool:
    """An undetermined ruling left in the verdict turns on a card the record never names: still
    ``"?"`` at the end (a Locus slot of the declaration, or one hit, or a captured Gem)."""
    if v.rule == "CO-39.4":
        slots = [int(x) for x in v.condition.split("[", 1)[1].split("]", 1)[0].split(",")]
        owner = next(p for p in state.players if v.message.startswith(p.id))
        return any(sl.card == HIDDEN for sl in owner.locus if sl.id in slots) or not all(
            any(sl.id == x for sl in owner.locus) for x in slots)
    return any(HIDDEN in p.captured or any(sl.face_up and sl.card == HIDDEN for sl in p.locus) for p in state.players)


def check_seats(events: list, tmp: Path) -> None:
    full = parse_log(encode(events))
    assert run(full).verdict == "legal"
    paths = []
    for seat in events[0].players:
        record = record_of(events, seat)
        res = verify_events(record)
        assert res.verdict in ("legal", "undetermined"), (seat, res.violations)
        assert all(stays_unknown(res.state, v) for v in res.undetermined), (seat, res.undetermined)
        path = tmp / f"{seat}.jsonl"
        path.write_bytes(encode(record))
        paths.append(path)
    merged = reconcile(read_record(paths[0]), read_record(paths[1]))
    assert not merged.contradictions, merged.contradictions[:3]
    log = parse_log(b"".join(ln + b"\n" for ln in merged.lines))
    assert run(log).verdict == "legal"
    assert [e for _, e in log.events if e.kind != "X"] == [e for e in events if e.kind != "X"]


def test_generated_matches_use_every_hidden_card_effect(tmp_path: Path) -> None:
    """The property's matches do look, reorder, move, reveal and mill: each kind in a few seeds."""
    seen: set[str] = set()
    for seed in range(4):
        events, _ = playout(GAME, seed, max_events=500, setup=seat_setup())
        seen |= {type(e).__name__ for e in events}
        check_seats(events, tmp_path)
    assert set(HIDDEN_MOVES) <= seen, set(HIDDEN_MOVES) - seen
    assert {"look-hand", "look-top", "deck-to-locus", "reveal-top", "mill", "flip-locus"} <= {
        type(fx).__name__ for fx in ()} | _effects_played(seed_events=[playout(GAME, s, max_events=500, setup=seat_setup())[0]
                                                                       for s in range(4)])


def _effects_played(seed_events: list) -> set[str]:
    """The effect kinds (``do`` tags) of the cards played or activated in these matches."""
    kinds: set[str] = set()
    for events in seed_events:
        state = None
        for e in events:
            card = getattr(e, "card", None) if type(e) in (E.FollowerPlayed, E.ActionPlayed) else None
            if card is not None:
                c = POOL[card]
                kinds |= {type(fx).__name__ for fx in c.effects} | {type(fx).__name__ for ab in c.abilities for fx in ab.effects}
    tags = {"LookHand": "look-hand", "LookTop": "look-top", "ToLocus": "deck-to-locus", "RevealTop": "reveal-top",
            "Mill": "mill", "FlipLocus": "flip-locus"}
    return {tags[k] for k in kinds if k in tags}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 100_000))
def test_each_seat_record_of_a_generated_match_is_never_illegal_and_reconciles(tmp_path_factory, seed: int) -> None:
    events, _ = playout(GAME, seed, max_events=450, setup=seat_setup())
    check_seats(events, tmp_path_factory.mktemp("seats"))


@covers("CO-2.6")
def test_a_look_follows_the_known_order_of_the_deck() -> None:
    """Order knowledge (CO-36) on a look: a card returned to the bottom cannot be looked at above
    the unknown part; a card known on top must come first."""
    from adjudicator.core.kernel.events import CardsLooked

    s = _scrying()
    state = s.state()
    bob = state.player(B)
    assert "ash" not in bob.deck_top
    low = msgspec.structs.replace(bob, deck_bottom=("ash",))
    at = msgspec.structs.replace(state, players=tuple(low if p.id == B else p for p in state.players))
    look = CardsLooked(player=B, owner=B, zone="deck-top", cards=["ash", bob.deck_top[0]])
    rejects(GAME.check(at, look), "CO-2.6", "below-unknown", "card 1 from the top is ★Ash★",
            "returned to the bottom of the deck in the opening exchange")
    known = msgspec.structs.replace(bob, deck_known=("ash",), known_why=("put on top by a test",))
    at = msgspec.structs.replace(state, players=tuple(known if p.id == B else p for p in state.players))
    rejects(GAME.check(at, msgspec.structs.replace(look, cards=[bob.deck_top[0], "ash"])), "CO-2.6", "known-top",
            "card 1 from the top is")
    assert GAME.check(at, msgspec.structs.replace(look, cards=["ash", bob.deck_top[0]])).legal


@covers("CO-39.5")
def test_a_later_stated_card_settles_an_open_condition_for_or_against_the_record() -> None:
    """A record that went on without the battle (alice's card in slot 2 "was not a Gem"): a later
    battle naming that face-up card settles the condition, or contradicts it (Ruling.settles)."""
    from adjudicator.games.colossus_order.state import Attack, Battle

    events = events_of(EXAMPLES / "legal-gem-complete.jsonl")
    bob = [GAME.redact(e, B) for e in events]
    res = verify_events(bob)
    hit = next(u for u in res.undetermined if u.condition.endswith("was not a Gem (turned face up)"))
    state = verify_events(bob[: hit.seq]).state
    assert hit.condition in state.conditions
    slot = int(hit.condition.split("slot ", 1)[1].split(",", 1)[0])
    assert any(sl.id == slot and sl.face_up and sl.card == HIDDEN for sl in state.player(A).locus)
    attacker = state.player(B).field[0].handle
    at = msgspec.structs.replace(state, todo=(Battle(),), attack=Attack(B, attacker, "locus", slot=slot))
    assert GAME.follows_stated(at)
    battle = E.BattleResolved(player=B, attacker=attacker, result="locus-hit", slot=slot, card="white-gem")
    ruling = GAME.check(at, battle)
    assert (ruling.verdict, ruling.rule, ruling.settles) == ("illegal", "CO-39.5", hit.condition)
    ruled("CO-39.5")
    other = msgspec.structs.replace(battle, card="sky-lancer-captain")
    assert GAME.check(at, other).legal
    assert hit.condition not in GAME.apply(at, other).conditions  # settled: no longer listed


# -- 8. a judge can always rule: every illegal decision or random outcome can stand ----------------

ILLEGAL = sorted(EXAMPLES.glob("illegal-CO-*.jsonl"))


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.name)
def test_every_illegal_event_of_the_examples_can_stand_by_a_judges_ruling(path: Path) -> None:
    """The engine applies an illegal event as stated (its apply is total over events whose effect
    on the table is defined), so a "stands" ruling is followed: legal, with the warning."""
    log = parse_log(path.read_bytes())
    v = run(log).violations[0]
    events = [e for _, e in log.events][: v.seq]
    if v.seq == 1:
        pytest.skip("MatchStarted can neither stand nor be taken back (LOG-5)")
    res = verify_events(events + [JudgeRuling(event=v.seq, decision="stands", reason="noticed late")])
    assert res.verdict == "legal", (path.name, res.violations)
    assert [(w.seq, w.rule, w.decision) for w in res.warnings] == [(v.seq, v.rule, "stands")]


def test_events_applied_unchecked_change_only_what_they_state() -> None:
    """A pass with no window open, a mill or a reveal no effect owed, an exchange out of turn:
    applied as stated (a "stands" ruling), never an engine failure."""
    from .co_scenarios import Script

    s = Script()
    state = s.state()
    assert GAME.apply(state, E.XPlayPassed(player=A)) == state
    card = sorted(set(state.player(A).deck_top))[0]
    milled = GAME.apply(state, E.CardMilled(player=A, card=card)).player(A)
    assert milled.discard[-1] == card and milled.deck_count == state.player(A).deck_count - 1
    shown = GAME.apply(state, E.TopCardRevealed(player=A, card=card))
    assert shown.player(A).deck_known == (card,) and shown.todo == state.todo
    back = GAME.apply(state, E.CardsReturned(player=A, cards=[state.player(A).hand[0]])).player(A)
    assert len(back.hand) == len(state.player(A).hand) - 1 and len(back.deck_bottom) == 1


def test_an_attacker_destroyed_before_its_battle_fizzles_in_a_seats_record_too() -> None:
    """Found by `python -m benchmarks` (seat records of generated matches, seed 15): an X-play
    destroyed the attacker before its battle against an unknown Locus card; the seat's record
    treated the battle as a hit it went on without stating (the slot turned face up with "?"),
    and a later Complete Declaration of that slot was ruled illegal (CO-3.2).  A destroyed
    follower (or the end of the match) comes before the battle, which then fizzles."""
    from adjudicator.core.kernel.events import encode_line
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.playout import playout
    from adjudicator.core.kernel import registry
    from adjudicator.core.kernel.seats import redact_log
    from adjudicator.core.kernel.verify import run

    game = registry.get("colossus-order")
    events, _state = playout(game, 15, max_events=5000)
    log = parse_log(b"".join(encode_line(e) + b"\n" for e in events), "m.jsonl")
    for seat in events[0].players:
        record = b"".join(encode_line(e) + b"\n" for e in redact_log(log, seat))
        res = run(parse_log(record, f"{seat}.jsonl"))
        assert res.verdict != "illegal", [v.as_dict() for v in res.violations]
