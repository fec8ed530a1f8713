"""Colossus Order fold: the deck's layers of unknown order searched by bisection agree with a plain
scan of the deck (CO-2.5, CO-2.6, CO-36), and a position document must keep them sorted."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.protocol import RefError
from adjudicator.games.colossus_order import deck
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order.state import Player

from .co_scenarios import A, GAME, Script

CARDS = ("a-gem", "b-imp", "c-knight", "d-bolt", HIDDEN)


def _scan_take(p: Player, card: str) -> tuple[str, ...]:
    """The deck's unknown part without the first copy of ``card``, found by scanning it."""
    top = list(p.deck_top)
    top.remove(card)
    return tuple(top)


@pytest.mark.parametrize("seed", range(40))
def test_bisection_agrees_with_a_scan_of_the_deck(seed: int) -> None:
    rng = random.Random(seed)
    top = tuple(sorted(rng.choice(CARDS[:4]) for _ in range(rng.randrange(0, 30))))
    unseen = tuple(sorted(rng.choice(CARDS[:4]) for _ in range(rng.randrange(0, 6))))
    p = Player("p1", "colossus", deck_top=top, unseen=unseen)
    for card in CARDS[:4]:
        assert deck.find(top, card) == (top.index(card) if card in top else -1)
        problem = deck.next_problem(p, card, False, "draws")
        assert (problem is None) == (card in top), (top, card, problem)
        if card in top:
            assert deck.take(p, card, False).deck_top == _scan_take(p, card)
    for k in range(1, 5):
        wanted = [rng.choice(CARDS[:4]) for _ in range(k)]
        fits = deck.top_fits(p, wanted, False) is None
        have = Counter(top)
        assert fits == (len(top) >= k and all(have[c] >= n for c, n in Counter(wanted).items())), (top, wanted)
        if fits:
            left = list(top)
            for c in wanted:
                left.remove(c)
            assert deck.take_top(p, wanted, False).deck_top == tuple(left)


def test_a_draw_from_an_unknown_part_holding_unknown_cards_takes_one_of_them() -> None:
    """CO-39.2: a named card that is not among the known ones is one of the unknown cards."""
    p = Player("p1", "colossus", deck_top=(HIDDEN, HIDDEN, "b-imp"), unseen=("a-gem", "c-knight"))
    assert deck.next_problem(p, "c-knight", False, "draws") is None
    after = deck.take(p, "c-knight", False)
    assert after.deck_top == (HIDDEN, "b-imp") and after.unseen == ("a-gem",)
    assert deck.next_problem(p, "d-bolt", False, "draws")[1] == "impossible-identity"


@pytest.mark.parametrize("zone", ["deck_top", "unseen", "deck_bottom"])
def test_a_position_document_with_an_unsorted_multiset_is_refused(zone: str) -> None:
    _log, state = playout(GAME, 7, max_events=30)
    doc = msgspec.to_builtins(state)
    GAME.load_state(doc)  # as the engine keeps it: accepted
    cards = doc["players"][0]
    cards[zone] = ["white-gem", "bastion-squire"]  # pool cards, out of order
    with pytest.raises(msgspec.ValidationError, match=f"{zone} is a multiset of unknown order and must be sorted"):
        GAME.load_state(doc)


def _ref_error(setup: Any, event: Any) -> tuple[str, str] | None:
    try:
        GAME.validate_refs(setup, event)
    except RefError as x:
        return x.field, str(x)
    return None


def test_a_seat_records_unknown_cards_are_read_without_an_error_and_problems_still_named() -> None:
    """CO-39/CO-40: "?" and commitments in the fields a seat's record may leave unknown are read
    at once; any other problem of the same event is named as it is for a full log."""
    setup = Script().events()[0]
    commitment = "sha256:" + "ab" * 32
    for ok in (E.CardDrawn(player=A, card=HIDDEN), E.CardDrawn(player=A, card=commitment),
               E.CardsReturned(player=A, cards=[HIDDEN, commitment, "ash"]), E.CardSet(player=A, card=HIDDEN, zone="locus")):
        assert _ref_error(setup, ok) is None, ok
    assert _ref_error(setup, E.CardsReturned(player=A, cards=[HIDDEN, "no-such-card"])) == _ref_error(
        setup, E.CardsReturned(player=A, cards=["ash", "no-such-card"]))
    assert _ref_error(setup, E.CardsReturned(player=A, cards=[HIDDEN, "no-such-card"]))[0] == "cards[1]"
    assert _ref_error(setup, E.CardDrawn(player="carol", card=HIDDEN)) == _ref_error(setup, E.CardDrawn(player="carol", card="ash"))
    field, message = _ref_error(setup, E.CardDrawn(player=A, card="sha256:xyz"))
    assert field == "card" and "malformed commitment 'sha256:xyz'" in message
    field, message = _ref_error(setup, E.FollowerPlayed(player=A, card=HIDDEN))
    assert field == "card" and "FollowerPlayed.card must name the card" in message


def test_a_look_drawn_to_the_end_leaves_no_looker_behind() -> None:
    """CO-42/CO-44: when the cards a player looked at (or drew and had taken back) are all drawn,
    nothing is known on top any more: ``peek_by`` goes with the last of them (a position that
    followed them is the one that never had them)."""
    p = Player("p1", "colossus", deck_peek=("a-gem", "b-imp"), peek_by="p2", deck_top=("c-knight",))
    once = deck.take(p, "a-gem", False)
    assert (once.deck_peek, once.peek_by) == (("b-imp",), "p2")
    twice = deck.take(once, "b-imp", False)
    assert (twice.deck_peek, twice.peek_by, twice.deck_top) == ((), None, ("c-knight",))
    assert deck.take_top(p, ["a-gem", "b-imp"], False).peek_by is None
    unknown = Player("p1", "colossus", deck_peek=(HIDDEN,), peek_by="p1", deck_top=(HIDDEN,), unseen=("a-gem", "b-imp"))
    left, card = deck.take_unknown_top(unknown, False)
    assert (card, left.deck_peek, left.peek_by) == (HIDDEN, (), None)
