"""CO-2.6 within one deck hit: the revealed cards are checked one by one against what is known of
the deck's order, not compared with the known top as a multiset (issue 32, item 1).

The property runs generated matches and, at every deck hit they reach, states each distinct order
of the cards the match revealed: the engine accepts exactly the orders an independent reading of
the deck's layers allows (the known top in its order, a part of unknown order in any order, the
returned cards only once everything above them is gone)."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from adjudicator.core.kernel.verify import settle
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order.state import Player, Reveal

from .co_scenarios import A, GAME


def fits_layers(p: Player, cards: tuple[str, ...], as_listed: bool) -> bool:
    """The oracle: ``cards`` can be the top of ``p``'s deck in this order.  Each layer, from the
    top, gives its cards in its order (ordered layers) or in any order (the others); the next layer
    starts only when the one above is used up."""
    layers = [(p.deck_known, True), (p.deck_peek, True), (p.deck_top, False), (p.deck_bottom, as_listed),
              (p.deck_under, True)]
    rest = list(cards)
    for layer, ordered in layers:
        if not rest:
            return True
        head, rest = rest[:len(layer)], rest[len(layer):]
        if ordered:
            if tuple(head) != tuple(layer[:len(head)]):
                return False
        elif Counter(head) - Counter(layer):
            return False
    return not rest


def _deck_hits(seed: int) -> list[tuple[object, E.CardsRevealed]]:
    """The positions of a generated match where a deck hit's reveal is due, with the reveal made."""
    setup = GAME.sample_setup(seed)
    state, _ = settle(GAME, GAME.initial_state(setup))
    import random

    rng = random.Random(seed)
    out = []
    for _ in range(1500):
        if GAME.outcome(state) is not None:
            break
        options = GAME.legal_events(state)
        if not options:
            break
        event = rng.choices(options, [GAME.playout_weight(state, e) for e in options])[0]
        if type(event) is E.CardsRevealed:
            out.append((state, event))
        state, _ = settle(GAME, GAME.apply(state, event))
    return out


@pytest.mark.parametrize("seed", range(16))
def test_a_deck_hits_cards_are_checked_in_order(seed: int) -> None:
    for state, event in _deck_hits(seed):
        p = state.player(event.player)
        as_listed = state.options.returned_order == "as-listed"
        for order in sorted(set(permutations(event.cards))):
            ruling = GAME.check(state, E.CardsRevealed(player=event.player, cards=list(order)))
            assert (ruling.verdict == "legal") == fits_layers(p, order, as_listed), (seed, order, ruling)


def test_a_known_top_card_listed_after_another_is_refused() -> None:
    """Ann's deck has ``reef-guard`` known on top (Tideglass Augur)
    and ``bastion-squire`` returned to the bottom; a deck hit of 3 revealing the known card second,
    or the returned card before the unknown part above it, is illegal."""
    from adjudicator.games.colossus_order import deck as D

    p = Player(A, "blue", deck_known=("reef-guard",), known_why=("revealed by tideglass-augur on turn 3",),
               deck_top=("blue-gem", "blue-gem"), deck_bottom=("bastion-squire",))
    assert D.top_fits(p, ["reef-guard", "blue-gem", "blue-gem"], False) is None
    assert D.top_fits(p, ["blue-gem", "reef-guard", "blue-gem"], False)[:2] == ("CO-2.6", "known-top")
    problem = D.top_fits(p, ["reef-guard", "blue-gem", "bastion-squire", "blue-gem"], False)
    assert problem[:2] == ("CO-2.6", "below-unknown") and "1 cards of unknown order are still above it" in problem[2]
    # an ordered part (a look put back in the chosen order, CO-42) gives its cards in that order
    peek = Player(A, "blue", deck_peek=("ash", "reef-guard"), peek_by=A, deck_top=("blue-gem",))
    assert D.top_fits(peek, ["ash", "reef-guard"], False) is None
    assert D.top_fits(peek, ["reef-guard", "ash"], False)[:2] == ("CO-2.6", "not-next-card")
    # taking them leaves the rest in order
    assert D.take_top(p, ["reef-guard", "blue-gem"], False).deck_top == ("blue-gem",)


def test_a_seats_record_checks_a_reveal_against_its_own_look() -> None:
    """Issue 32 item 2: in a seat's record, the cards that seat looked at (CO-42, ``deck_peek``,
    named there and nowhere else) are the top of the deck: a deck hit's reveal must give them
    first and in their order, though the rest of the deck is unknown cards (CO-39.2) that could
    be anything still unaccounted for."""
    from adjudicator.core.kernel.events import HIDDEN
    from adjudicator.games.colossus_order import deck as D

    p = Player(A, "blue", deck_peek=("ash",), peek_by=A, deck_top=(HIDDEN, HIDDEN),
               unseen=("blue-gem", "reef-guard"))
    assert D.top_fits(p, ["ash", "reef-guard"], False) is None
    left = D.take_top(p, ["ash", "reef-guard"], False)
    assert (left.deck_peek, left.peek_by, left.deck_top, left.unseen) == ((), None, (HIDDEN,), ("blue-gem",))
    # leaving out the card the seat saw, or listing it below an unknown one: refused
    assert D.top_fits(p, ["blue-gem", "reef-guard"], False)[:2] == ("CO-2.6", "not-next-card")
    assert D.top_fits(p, ["reef-guard", "ash"], False)[:2] == ("CO-2.6", "not-next-card")
    # past the look, an identity nobody can still have is refused as before
    assert D.top_fits(p, ["ash", "white-gem"], False)[:2] == ("CO-39.2", "impossible-identity")


def _bob_with_gems_named(named: int):
    """Alice's record of the deck-out example (bob's deck list unknown to it), at a position where
    ``named`` of bob's Gems are already named (in his discard pile) and his deck is unknown cards."""
    from msgspec.structs import replace

    from adjudicator.core.kernel.events import HIDDEN
    from adjudicator.games.colossus_order.unknowns import _named_cards
    from .co_scenarios import B, POOL, verify_events
    from .test_seat_colossus_order import EXAMPLES, events_of, record_of

    state = verify_events(record_of(events_of(EXAMPLES / "legal-deck-out.jsonl"), A)).state
    bob = state.player(B)
    gems = [c for c in sorted(POOL.cards) if POOL[c].is_gem and not POOL[c].unique]
    bob = replace(bob, discard=())
    elsewhere = sum(1 for c in _named_cards(state, bob) if c in POOL.cards and POOL[c].is_gem)
    assert elsewhere <= named
    shown = tuple(sorted(gems[i % len(gems)] for i in range(named - elsewhere)))
    bob = replace(bob, discard=shown, unseen=tuple(sorted(bob.unseen + ("white-gem",) * 3)), hand=(HIDDEN,),
                  deck_top=(HIDDEN,) * 6, deck_known=(), known_why=(), deck_peek=(), peek_by=None, deck_bottom=(), deck_under=())
    players = tuple(replace(bob if p.id == B else p, gem_set=False) for p in state.players)
    return replace(state, players=players, result=None, pending_ends=(), phase="main", turn_player=A, turn=99)


def test_a_deck_hits_gems_count_against_the_20_gem_total_of_an_unknown_list() -> None:
    """Issue 32 item 4 (CO-39.1): bob's list is unknown to alice's record and 19 of his Gems are
    named; a deck hit revealing two Gems names the 20th and a 21st: illegal, though each alone fits."""
    from msgspec.structs import replace

    from .co_scenarios import B

    state = replace(_bob_with_gems_named(19), todo=(Reveal(player=B, count=2),))
    ruling = GAME.check(state, E.CardsRevealed(player=B, cards=["white-gem", "white-gem"]))
    assert (ruling.verdict, ruling.rule, ruling.code) == ("illegal", "CO-1.3", "colossus-order/too-many-gems"), ruling
    assert "21st Gem card" in ruling.message
    one = replace(_bob_with_gems_named(19), todo=(Reveal(player=B, count=1),))
    assert GAME.check(one, E.CardsRevealed(player=B, cards=["white-gem"])).verdict == "legal"
    assert GAME.check(state, E.CardsRevealed(player=B, cards=["white-gem", "ash"])).verdict == "legal"


def test_a_complete_declarations_gems_count_against_the_20_gem_total_of_an_unknown_list() -> None:
    """Issue 32 item 4 (CO-39.1, CO-39.4): in bob's record of the Gem-complete example, alice's list
    is unknown and her declaration's LocusRevealed names six Gems bob never saw (five white Gems and
    Heart of Piadin): with 15 of her Gems named before, they make 21 (illegal, though each alone
    fits); with 14, 20 (legal)."""
    from msgspec.structs import replace

    from adjudicator.games.colossus_order.unknowns import _named_cards
    from .co_scenarios import B, POOL, verify_events
    from .test_seat_colossus_order import EXAMPLES, events_of, record_of

    record = record_of(events_of(EXAMPLES / "legal-gem-complete.jsonl"), B)
    at = next(i for i, e in enumerate(record) if type(e) is E.LocusRevealed)
    state = verify_events(record[:at]).state
    alice = replace(state.player(A), discard=())
    elsewhere = sum(1 for c in _named_cards(state, alice) if c in POOL.cards and POOL[c].is_gem)
    verdicts = []
    for before in (15, 14):
        assert elsewhere <= before
        named = replace(alice, discard=("black-gem",) * (before - elsewhere))
        s = replace(state, players=tuple(named if p.id == A else p for p in state.players))
        verdicts.append(GAME.check(s, record[at]))
    assert (verdicts[0].verdict, verdicts[0].rule, verdicts[0].code) == ("illegal", "CO-1.3", "colossus-order/too-many-gems")
    assert verdicts[1].verdict == "legal", verdicts[1]


@pytest.mark.parametrize("seed", range(6))
def test_redact_writes_a_wrongly_stated_derived_event_as_stated(seed: int) -> None:
    """Issue 32 item 6: where the full log states a declaration's LocusRevealed wrongly (two cards
    swapped), each seat's record holds that line as the table stated it, in its place: never the
    engine's version inserted as an extra line (which shifts every line after it)."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.playout import playout
    from adjudicator.core.kernel.seats import redact_log

    from .co_scenarios import encode
    from .test_seat_colossus_order import seat_setup

    events, _ = playout(GAME, seed, max_events=450, setup=seat_setup(), with_derived=True)
    at = next((i for i, e in enumerate(events) if type(e) is E.LocusRevealed and len(set(e.cards)) > 1), None)
    if at is None:
        pytest.skip("no declaration with two different cards in this match")
    cards = list(events[at].cards)
    j = next(k for k in range(1, len(cards)) if cards[k] != cards[0])
    cards[0], cards[j] = cards[j], cards[0]
    wrong = events[:at] + [E.LocusRevealed(player=events[at].player, slots=events[at].slots, cards=cards)] + events[at + 1:]
    log = parse_log(encode(wrong))
    for seat in events[0].players:
        record = list(redact_log(log, seat))
        assert len(record) == len(wrong), seat
        assert type(record[at]) is E.LocusRevealed and list(record[at].cards) == cards, (seat, record[at])


def test_redact_writes_unknown_for_a_draw_other_than_the_top_card_the_seat_knows() -> None:
    """Issue 32 item 6: Tideglass Augur revealed reef-guard on top of alice's deck; where the full
    log has her draw blue-gem instead (illegal there), bob's record says "?" (he saw a card
    drawn, not which: no leak), and names reef-guard where the log does."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.seats import redact_log

    from .co_scenarios import B, BLUE, Script, deck, encode

    s = Script(hands={A: ["tideglass-augur"]}, decks={A: deck(BLUE, ["tideglass-augur", "reef-guard"])})
    s.set_gem("blue-gem")
    s.set_locus("blue-gem")
    augur = s.summon("tideglass-augur")
    s.end_turn()
    s.end_turn()
    s.ability(augur)
    s.pass_window()
    assert s.add(E.TopCardRevealed(player=A, card="reef-guard")).legal
    s.end_turn()
    s.end_main()
    for drawn, seen in (("blue-gem", "?"), ("reef-guard", "reef-guard")):
        events = s.events() + [E.CardDrawn(player=A, card=drawn)]
        record = list(redact_log(parse_log(encode(events)), B))
        assert len(record) == len(events) and record[-1] == E.CardDrawn(player=A, card=seen), record[-1]
