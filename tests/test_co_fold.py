"""Colossus Order fold: the deck's layers of unknown order searched by bisection agree with a plain
scan of the deck (CO-2.5, CO-2.6, CO-36), and a position document must keep them sorted."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from adjudicator.core.events import HIDDEN
from adjudicator.core.playout import playout
from adjudicator.games.colossus_order import deck
from adjudicator.games.colossus_order.state import Player

from .co_scenarios import GAME

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
