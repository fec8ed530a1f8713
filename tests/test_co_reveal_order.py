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

from adjudicator.core.verify import settle
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
    from adjudicator.core.events import HIDDEN
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
