"""Colossus Order rules, one rule id at a time, then the ruleset options and the tricky flows.

Every id of ``rulebook.RULES`` is covered here: a legal case (an event governed by the rule
accepted where it applies) and an illegal case (an event rejected with a ruling citing that id,
the expected ``colossus-order/...`` code and a message quoting the facts).  Ids that by nature
can never reject an event (derived consequences, interpretations enforced under another id) are
listed in ``NEVER_REJECTS`` with the reason, and get a test of the documented behaviour instead.
``tests/test_every_game.py`` fails when a rule id has no test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.rulings import Ruling
from adjudicator.core.kernel.verify import run
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order.rulebook import RULES
from tests.rulecov import RuleCoverage
from adjudicator.games.colossus_order.rules import available_locus
from adjudicator.games.colossus_order.state import Block, Capture, Draw, Mill, ReplaceLocus, Reveal, RevealTop, State, Window

from .co_scenarios import (
    A, B, BLACK, BLUE, GAME, POOL, RED, WHITE, Script, deck, encode, setup, verify_events,
)

NS = "colossus-order/"

#: rule id -> what the tests of that id show ("legal", "illegal", "behaviour")
_COVERAGE = RuleCoverage(RULES, NS)
COVERED = _COVERAGE.covered
covers, documents = _COVERAGE.covers, _COVERAGE.documents
rejects, accepts, ruled = _COVERAGE.rejects, _COVERAGE.accepts, _COVERAGE.ruled

#: ids that can never reject an event, and why (each still has a behaviour test)
NEVER_REJECTS: dict[str, str] = {
    "CO-39.6": "a gem level met only by unnamed captured Gems is undetermined; one they cannot meet is illegal under CO-5.2",
    "CO-40": "the commitments section: its rulings cite CO-40.2 to CO-40.4 (tests/test_co_unknowns.py)",
    "CO-35": "the cards returned below the deck are known as a set, in no order; a draw against them is refused under CO-2.6 (test_wrong_next_card_from_known_bottom)",
    "CO-39": "the fields a seat's record may leave unknown; \"?\" anywhere else is unreadable (a RefError)",
    "CO-39.1": "an unknown deck list is an assumption stated beside the verdict; a card breaking it is rejected under CO-1.3/CO-1.4",
    "CO-39.4": "a Complete Declaration of unknown Locus cards is undetermined and followed as failed",
    "CO-42.3": "the set a look put back is what the deck's order is known as; a card outside it is refused under "
               "CO-2.6 (tests/test_co_knowledge.py)",
    "CO-40.1": "a malformed commitment is unreadable (a RefError naming the line and field), never a ruling",
    "CO-6.4": "the engine resolves a CIP itself as the follower enters; no event can decline it "
              "(naming no target when one exists is rejected under CO-6.3)",
    "CO-7.6": "battle damage and destruction are derived; a stated BattleResolved/FollowerDestroyed "
              "that differs is a LOG-2 violation",
    "CO-7.9": "the result of a defended attack is derived (LOG-2 if stated otherwise)",
    "CO-9.1": "windows are opened by the engine; an X-play move outside a window is rejected under "
              "CO-9.2 / CO-9.3",
    "CO-9.4": "the chain's resolution order is derived (LOG-2 if stated otherwise)",
    "CO-10.2": "deck-out is derived after every event (LOG-2 / LOG-3 otherwise)",
    "CO-10.3": "the result of a Complete Declaration is derived",
    "CO-10.4": "a player may concede at any time (after the end: LOG-3)",
    "CO-1": "the option sets the limits CO-2.4 enforces (the message cites CO-1)",
    "CO-2": "the set-up order is enforced under CO-2.1 .. CO-2.4",
    "CO-3": "the option switches the CO-1.x checks on or off",
    "CO-4": "the counter is what CO-5.1 pays with",
    "CO-5": "slot ids are assigned by the engine",
    "CO-6": "the scope option feeds CO-5.2",
    "CO-7": "the scope option feeds CO-8.4",
    "CO-8": "the shape of a Gem Level feeds CO-5.2 / CO-8.4",
    "CO-10": "enforced as CO-7.3 (an OFF attacker)",
    "CO-11": "enforced as CO-7.5",
    "CO-12": "the order is the engine's task queue (moves out of order: CO-3.1 / CO-9.2)",
    "CO-13": "battle damage is derived",
    "CO-14": "destruction is derived",
    "CO-15": "a fizzled attack is derived",
    "CO-16": "the reveal size is derived; the capture choice is checked under CO-7.7",
    "CO-17": "the locus-hit result is derived",
    "CO-18": "enforced as CO-9.2 / CO-9.3",
    "CO-19": "the chain is derived",
    "CO-20": "a CIP target that left the field fizzles (derived)",
    "CO-21": "a classification of abilities",
    "CO-23": "deck-out is derived",
    "CO-24": "there is no hand limit to break",
    "CO-25": "enforced as CO-6.2 and CO-4.3",
    "CO-26": "end-of-turn clean-up is derived",
    "CO-27": "a permission (a snap at open timing by anyone else is CO-8.2)",
    "CO-28": "a permission",
    "CO-29": "face-up Locus cards count toward CO-5.1",
    "CO-31": "FirstPlayerDecided is checked under CO-2.2",
    "CO-32": "a permission (a not-ready attacker is CO-7.3)",
    "CO-33": "a permission",
    "CO-8.9": "the stats a set-stats effect gives are derived (a stated battle that ignores them: LOG-2); "
              "its targets are checked under CO-6.3 / CO-6.5",
    "CO-36": "what is known of a deck's order is enforced under CO-2.6",
    "CO-44": "what a taking back keeps is enforced under CO-2.6 (the next draw must be the card drawn and put back)",
    "CO-45": "what an unchecked apply makes of an illegal event; one with no defined effect is LOG-5",
    "CO-37": "the order of set values and boosts feeds the derived stats (LOG-2 otherwise)",
    "CO-38": "enforced under CO-3.2 / CO-22 (face-down slots only) and CO-8.7",
}



def types(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


def check_setup(match: E.MatchStarted) -> Ruling:
    return GAME.check_start(match)


# ==================================================================================================
# 1 deck construction
# ==================================================================================================

@covers("CO-1.1")
def test_two_players() -> None:
    accepts(check_setup(setup()), "CO-1.1")
    three = setup(players=[A, B, "carol"])
    rejects(check_setup(three), "CO-1.1", "two-players", "3")
    res = verify_events([three])
    assert [(v.rule, v.line) for v in res.violations] == [("CO-1.1", 1)]


@covers("CO-1.2")
def test_deck_of_exactly_50() -> None:
    accepts(check_setup(setup()))
    short = setup({A: deck(WHITE, size=49)})
    rejects(check_setup(short), "CO-1.2", "deck-size", "alice", "49")
    long = setup({B: deck(BLACK, size=51)})
    rejects(check_setup(long), "CO-1.2", "deck-size", "bob", "51")


@covers("CO-1.3")
def test_at_most_20_gems() -> None:
    accepts(check_setup(setup({A: deck(WHITE, gems=20)})))
    rejects(check_setup(setup({A: deck(WHITE, {"white-gem": 21})})), "CO-1.3", "too-many-gems", "21")


@covers("CO-1.4")
def test_three_copies_per_name() -> None:
    # ordinary Gems are exempt (20 of one name), 3 Unique Gems and 3 of a Follower Unique are fine
    accepts(check_setup(setup({A: deck(WHITE, {"white-gem": 17, "heart-of-piadin": 3, "ash": 3})})))
    rejects(check_setup(setup({A: deck(WHITE, {"ash": 4})})), "CO-1.4", "too-many-copies", "4", "★Ash★")
    # Unique Gems count toward the limit
    rejects(check_setup(setup({A: deck(WHITE, {"heart-of-piadin": 4})})), "CO-1.4", "too-many-copies",
            "★Heart of Piadin★")


@covers("CO-1.5")
def test_colossus_outside_the_deck() -> None:
    accepts(check_setup(setup()))
    bad = setup({A: E.DeckList(colossus="white-gem", cards=deck(WHITE).cards)})
    rejects(check_setup(bad), "CO-1.5", "not-a-colossus", "White Gem", "gem")
    inside = setup({B: deck(BLACK, {"tidal-spire-colossus": 1})})
    rejects(check_setup(inside), "CO-1.5", "colossus-in-deck", "Colossus of the Tidal Spire")


# ==================================================================================================
# 2 start of game
# ==================================================================================================

@covers("CO-2.1")
def test_decks_shuffled_first_listed_first() -> None:
    s = Script(opening=False)
    rejects(s.check(E.DeckShuffled(player=B)), "CO-2.1", "shuffle-order", "alice")
    rejects(s.check(E.FirstPlayerDecided(player=A)), "CO-2.2", "first-player-decided", "deck shuffled by")
    accepts(s.add(E.DeckShuffled(player=A)), "CO-2.1")
    accepts(s.add(E.DeckShuffled(player=B)), "CO-2.1")


@covers("CO-2.2")
def test_first_player_decided_once() -> None:
    s = Script(opening=False)
    s.add(E.DeckShuffled(player=A))
    s.add(E.DeckShuffled(player=B))
    accepts(s.add(E.FirstPlayerDecided(player=B)), "CO-2.2")
    assert s.state().first == B
    rejects(s.check(E.FirstPlayerDecided(player=A)), "CO-2.2", "first-player-decided", "already bob")


@covers("CO-2.3")
def test_opening_draws_first_player_first() -> None:
    s = Script(opening=False)
    s.add(E.DeckShuffled(player=A))
    s.add(E.DeckShuffled(player=B))
    s.add(E.FirstPlayerDecided(player=B))
    rejects(s.check(E.CardDrawn(player=A, card="white-gem")), "CO-2.3", "wrong-drawer", "bob draws now")
    for _ in range(7):
        accepts(s.draw(player=B))
    rejects(s.check(E.CardDrawn(player=B, card="black-gem")), "CO-2.3", "wrong-drawer", "alice draws now")
    for _ in range(7):
        s.draw(player=A)
    assert (len(s.player(A).hand), len(s.player(B).hand)) == (7, 7)
    assert (s.player(A).deck_count, s.player(B).deck_count) == (43, 43)


@covers("CO-2.4")
def test_opening_exchange() -> None:
    hands = {A: ["ash", "heroic-knight", "bastion-squire"], B: ["grave-rat", "dark-strike", "bone-sentry", "plague-bearer"]}
    s = Script(opening=False)
    for p in (A, B):
        s.add(E.DeckShuffled(player=p))
    s.add(E.FirstPlayerDecided(player=A))
    for p in (A, B):
        for c in hands[p]:
            s.draw(c, p)
        while len(s.player(p).hand) < 7:
            s.draw(None, p)
    # the second player may not go first
    rejects(s.check(E.CardsReturned(player=B, cards=[])), "CO-2.4", "exchange-order", "alice")
    # the first player returns at most 2
    rejects(s.check(E.CardsReturned(player=A, cards=hands[A])), "CO-2.4", "too-many-returned", "3", "at most 2", "CO-1")
    accepts(s.add(E.CardsReturned(player=A, cards=["heroic-knight", "ash"])), "CO-2.4")
    assert s.player(A).deck_bottom == ("ash", "heroic-knight")  # CO-35: a set, its order unknown
    assert isinstance(s.head(), Draw) and s.head().count == 2
    s.draw("white-gem")
    s.draw("white-gem")
    # the second player returns at most 4
    rejects(s.check(E.CardsReturned(player=B, cards=hands[B] + ["black-gem"])), "CO-2.4", "too-many-returned", "5", "at most 4")
    accepts(s.add(E.CardsReturned(player=B, cards=hands[B])))
    for _ in range(4):
        s.draw()
    assert s.state().phase == "main" and s.tp == A and s.state().turn == 1
    assert len(s.player(A).hand) == len(s.player(B).hand) == 7


@covers("CO-2.5")
def test_drawn_card_must_be_in_the_deck() -> None:
    s = Script(opening=False)
    for p in (A, B):
        s.add(E.DeckShuffled(player=p))
    s.add(E.FirstPlayerDecided(player=A))
    rejects(s.check(E.CardDrawn(player=A, card="grave-rat")), "CO-2.5", "not-in-deck", "Grave Rat")
    accepts(s.check(E.CardDrawn(player=A, card=None)), "CO-2.5")  # CO-39: a draw the record does not name
    accepts(s.add(E.CardDrawn(player=A, card="ash")), "CO-2.5")
    s.add(E.CardDrawn(player=A, card="ash"))
    s.add(E.CardDrawn(player=A, card="ash"))
    rejects(s.check(E.CardDrawn(player=A, card="ash")), "CO-2.5", "not-in-deck", "no ★Ash★ is left")


def nine_card_exchange(returned: list[str], **options: Any) -> Script:
    """Alice's 9-card deck (deck validation off): bob goes first; alice draws 7 (5 White Gems, 2
    Bastion Squires) and returns ``returned``; her 2 Ash are the unknown part above them."""
    small = E.DeckList(colossus=WHITE, cards={"white-gem": 5, "bastion-squire": 2, "ash": 2})
    s = Script(opening=False, decks={A: small}, options={"deck_validation": "off", **options})
    for p in (A, B):
        s.add(E.DeckShuffled(player=p))
    s.add(E.FirstPlayerDecided(player=B))
    for _ in range(7):
        s.draw(player=B)
    for c in ["white-gem"] * 5 + ["bastion-squire", "bastion-squire"]:
        s.draw(c, A)
    s.add(E.CardsReturned(player=B, cards=[]))
    s.add(E.CardsReturned(player=A, cards=returned))
    return s


def test_a_known_deck_bottom_must_be_drawn_in_order() -> None:
    # a 9-card deck (deck validation off): 7 drawn, 2 returned to the bottom, 2 drawn from the top;
    # afterwards only the known bottom is left and, with returned_order "as-listed" (CO-35), its
    # order is binding
    s = nine_card_exchange(["bastion-squire", "white-gem"], returned_order="as-listed")
    s.draw("ash")
    s.draw("ash")
    assert s.player(A).deck_top == () and s.player(A).deck_bottom == ("bastion-squire", "white-gem")
    s.end_turn()  # bob's turn 1 (no draw), then alice's draw step
    # (end_turn drew the next known card for alice)
    assert s.player(A).deck_bottom == ("white-gem",)
    assert s.log[-1][0] == E.CardDrawn(player=A, card="bastion-squire")


@covers()
@covers("CO-35", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_wrong_next_card_from_known_bottom() -> None:
    s = nine_card_exchange(["bastion-squire", "white-gem"], returned_order="as-listed")
    s.draw("ash")
    s.draw("ash")
    s.end_main()
    rejects(s.check(E.CardDrawn(player=A, card="white-gem")), "CO-2.6", "not-next-card", "Bastion Squire")


# ==================================================================================================
# 3 turn structure
# ==================================================================================================

@covers("CO-3.1")
def test_only_the_player_whose_decision_it_is() -> None:
    s = Script(hands={A: ["bastion-squire"]})
    rejects(s.check(E.CardSet(player=B, card="black-gem", zone="gem")), "CO-3.1", "not-turn-player",
            "bob", "only the turn player alice")
    accepts(s.set_gem("white-gem"))
    s.set_locus("white-gem")
    f1 = s.summon("bastion-squire")
    s.end_turn()
    s.set_locus("black-gem")
    s.end_turn()
    s.attack(f1)
    # during bob's block decision alice cannot set cards
    rejects(s.check(E.CardSet(player=A, card="white-gem", zone="gem")), "CO-3.1", "out-of-step",
            "block declared or block declined by bob")
    # a derived event is never proposed: core says LOG-2, the game's own check CO-3.1
    rejects(GAME.check(s.state(), E.TurnEnded(turn=3, player=A)), "CO-3.1", "unexpected-event", "cannot be proposed")
    assert s.check(E.TurnEnded(turn=3, player=A)).rule == "LOG-2"


@covers("CO-3.2", "CO-22")
def test_complete_declaration_timing_and_slots() -> None:
    s = Script()
    s.develop(6)  # each player sets 6 gems face down in the Locus (and 6 on the Colossus)
    assert len(s.player(A).locus) == 6 and s.tp == A and s.state().phase == "main"
    rejects(s.check(E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 6])), "CO-3.2", "declaration-timing",
            "alice's main-phase play")
    s.end_turn()
    s.end_main()
    # alice's start phase, before her draw
    assert s.tp == A and s.state().phase == "start" and s.state().declaration_open
    rejects(s.check(E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5])), "CO-3.2", "six-slots", "[1, 2, 3, 4, 5]")
    rejects(s.check(E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 5])), "CO-3.2", "six-slots")
    rejects(s.check(E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 9])), "CO-3.2", "not-face-down", "slot 9")
    rejects(s.check(E.CompleteDeclared(player=B, slots=[1, 2, 3, 4, 5, 6])), "CO-3.2", "not-turn-player", "bob")
    accepts(s.check(E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 6])))
    # after the draw it is too late (the seed: only in the start phase)
    s.draw()
    rejects(s.check(E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 6])), "CO-3.2", "declaration-timing")
    # CO-22: 6 face-down Locus cards are needed
    s2 = Script()
    s2.develop(5)
    s2.end_turn()
    s2.end_main()
    assert s2.tp == A and len(s2.player(A).locus) == 5
    rejects(s2.check(E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 6])), "CO-22", "too-few-face-down", "5 face-down")


def declaration_position(locus_cards: list[str], **kw: Any) -> Script:
    """alice puts ``locus_cards`` (6) into her Locus on turns 1, 3 .. 11 and stops in the start
    phase of turn 13, before her draw (the Complete Declaration step)."""
    hand = [c for c in locus_cards if not POOL[c].is_gem]
    s = Script(hands={A: hand}, **kw)
    for i, c in enumerate(locus_cards):
        s.set_locus(c)
        s.end_turn()
        if i < len(locus_cards) - 1:
            s.end_turn()
    s.end_main()
    assert s.tp == A and s.state().phase == "start" and s.state().turn == 13
    return s


@covers("CO-3.3", "CO-22")
def test_failed_declaration_discards_two_the_rest_back_face_down() -> None:
    s = declaration_position(["white-gem"] * 5 + ["bastion-squire"])
    s.add(E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 6]))
    revealed = s.last_derived()[0]
    assert revealed == E.LocusRevealed(player=A, slots=[1, 2, 3, 4, 5, 6], cards=["white-gem"] * 5 + ["bastion-squire"])
    assert s.state().result is None
    rejects(s.check(E.DeclarationDiscarded(player=A, slots=[6, 7])), "CO-3.3", "discard-two-revealed", "[6, 7]")
    rejects(s.check(E.DeclarationDiscarded(player=A, slots=[6])), "CO-3.3", "discard-two-revealed")
    rejects(s.check(E.DeclarationDiscarded(player=A, slots=[6, 6])), "CO-3.3", "discard-two-revealed")
    rejects(s.check(E.DeclarationDiscarded(player=B, slots=[1, 2])), "CO-22", "discard-chooser", "alice chooses", "declarer")
    accepts(s.add(E.DeclarationDiscarded(player=A, slots=[6, 1])), "CO-3.3")
    me = s.player(A)
    assert [sl.id for sl in me.locus] == [2, 3, 4, 5]
    assert all(not sl.face_up and sl.known for sl in me.locus)  # back face down, now known to bob
    assert sorted(me.discard) == ["bastion-squire", "white-gem"]
    # then the draw step goes on
    assert isinstance(s.head(), Draw) and s.head().reason == "draw-step"
    s.draw()
    assert s.state().phase == "main"


@documents("CO-10.3")
def test_successful_declaration_wins() -> None:
    s = declaration_position(["white-gem"] * 6)
    s.add(E.CompleteDeclared(player=A, slots=[6, 5, 4, 3, 2, 1]))
    assert types(s.last_derived()) == ["LocusRevealed", "GameEnded"]
    assert s.last_derived()[1] == E.GameEnded(result="win", winner=A, reason="gem-complete")
    assert GAME.outcome(s.state()).winner == A
    res = s.verify()
    assert res.verdict == "legal" and res.outcome.reason == "gem-complete"


@covers("CO-3.4")
def test_draw_step() -> None:
    s = Script()
    # the first player skips the draw of the first turn
    assert s.state().turn == 1 and s.state().phase == "main" and len(s.player(A).hand) == 7
    rejects(s.check(E.CardDrawn(player=A, card="white-gem")), "CO-3.4", "no-draw-owed", "turn 1", "skips")
    s.end_main()
    # bob's start phase: bob draws, alice may not
    assert isinstance(s.head(), Draw) and s.head().player == B
    rejects(s.check(E.CardDrawn(player=A, card="white-gem")), "CO-3.4", "wrong-drawer", "bob draws now")
    accepts(s.draw())
    assert len(s.player(B).hand) == 8 and s.state().phase == "main"
    rejects(s.check(E.CardDrawn(player=B, card="black-gem")), "CO-3.4", "no-draw-owed", "1 card per draw step")
    s.end_turn()
    assert len(s.player(A).hand) == 8  # alice draws from her second turn on


@covers("CO-3.5")
def test_nothing_played_in_the_start_phase() -> None:
    s = Script(hands={B: ["grave-rat", "withering-curse"]})
    s.end_main()
    assert s.state().phase == "start" and s.tp == B
    rejects(s.check(E.CardSet(player=B, card="black-gem", zone="gem")), "CO-3.5", "not-in-this-phase", "start phase")
    rejects(s.check(E.FollowerPlayed(player=B, card="grave-rat")), "CO-3.5", "not-in-this-phase")
    rejects(s.check(E.MainPhaseEnded(player=B)), "CO-3.5", "not-in-this-phase")
    s.draw()
    accepts(s.check(E.CardSet(player=B, card="black-gem", zone="gem")))
    accepts(s.check(E.FollowerPlayed(player=B, card="grave-rat")))


# ==================================================================================================
# 4 setting cards
# ==================================================================================================

@covers("CO-4.1")
def test_one_gem_per_turn() -> None:
    s = Script(hands={A: ["bastion-squire"]})
    rejects(s.check(E.CardSet(player=A, card="bastion-squire", zone="gem")), "CO-4.1", "not-a-gem", "Bastion Squire", "follower")
    accepts(s.set_gem("white-gem"), "CO-4.1")
    rejects(s.check(E.CardSet(player=A, card="white-gem", zone="gem")), "CO-4.1", "gem-already-set", "alice")
    s.end_turn()
    s.end_turn()
    accepts(s.set_gem("white-gem"))
    assert s.player(A).set_gems == ("white-gem", "white-gem")


@covers("CO-4.2")
def test_one_locus_per_turn_any_card() -> None:
    s = Script(hands={A: ["heroic-knight", "guardians-intervention"]})
    accepts(s.set_locus("heroic-knight"))  # any card type can be a Locus card
    rejects(s.check(E.CardSet(player=A, card="white-gem", zone="locus")), "CO-4.2", "locus-already-set", "alice")
    s.end_turn()
    s.end_turn()
    accepts(s.set_locus("guardians-intervention"))
    assert [(sl.id, sl.card, sl.face_up) for sl in s.player(A).locus] == [
        (1, "heroic-knight", False), (2, "guardians-intervention", False)]


@covers("CO-4.3")
@documents("CO-25")
def test_unique_gem_once_among_set_gems() -> None:
    s = Script(hands={A: ["heart-of-piadin", "heart-of-piadin"]})
    accepts(s.set_gem("heart-of-piadin"))
    s.end_turn()
    s.end_turn()
    rejects(s.check(E.CardSet(player=A, card="heart-of-piadin", zone="gem")), "CO-4.3", "unique-gem", "★Heart of Piadin★")
    accepts(s.check(E.CardSet(player=A, card="heart-of-piadin", zone="locus")))  # as a Locus card it is fine
    accepts(s.set_gem("white-gem"))  # ordinary gems: any number
    s.end_turn()
    s.end_turn()
    accepts(s.set_gem("white-gem"))


@covers("CO-4.4")
def test_card_must_be_in_hand() -> None:
    s = Script()
    rejects(s.check(E.CardSet(player=A, card="ash", zone="locus")), "CO-4.4", "not-in-hand", "★Ash★")
    rejects(s.check(E.FollowerPlayed(player=A, card="bastion-squire")), "CO-4.4", "not-in-hand", "Bastion Squire")
    rejects(s.check(E.ActionPlayed(player=A, card="guardians-intervention")), "CO-4.4", "not-in-hand")
    accepts(s.check(E.CardSet(player=A, card="white-gem", zone="locus")))


# ==================================================================================================
# 5 costs
# ==================================================================================================

@covers("CO-5.1")
@documents("CO-4")
def test_locus_cost() -> None:
    s = Script(hands={A: ["heroic-knight", "bastion-squire"]})
    s.set_gem("white-gem")
    rejects(s.check(E.FollowerPlayed(player=A, card="bastion-squire")), "CO-5.1", "locus-short",
            "costs 1 Locus", "alice has 0 unused")
    s.set_locus("white-gem")  # CO-4: a Locus card set mid-turn gives its point at once
    accepts(s.play("bastion-squire"))
    assert s.player(A).locus_used == 1
    s.pass_window()
    for _ in range(2):
        s.end_turn()
        s.end_turn()
        s.set_locus("white-gem")
    assert len(s.player(A).locus) == 3
    rejects(s.check(E.FollowerPlayed(player=A, card="heroic-knight")), "CO-5.1", "locus-short",
            "Heroic Knight costs 4 Locus", "alice has 3 unused", "3 Locus cards, 0 used")
    s.end_turn()
    s.end_turn()
    s.set_locus("white-gem")
    accepts(s.play("heroic-knight"), "CO-6.1")
    assert s.player(A).locus_used == 4


@covers("CO-5.2")
def test_gem_level() -> None:
    s = Script(hands={A: ["dawn-sparrowhawk", "spurring-griffin"]})
    s.set_locus("white-gem")
    rejects(s.check(E.FollowerPlayed(player=A, card="dawn-sparrowhawk")), "CO-5.2", "gem-level",
            "needs gems 1 white", "alice has none")
    s.set_gem("white-gem")
    accepts(s.play("dawn-sparrowhawk"))
    s.pass_window()
    s.end_turn()
    s.end_turn()
    s.set_locus("white-gem")
    s.end_turn()
    s.end_turn()
    s.set_locus("white-gem")
    assert len(s.player(A).locus) == 3 and s.player(A).set_gems == ("white-gem",)
    rejects(s.check(E.FollowerPlayed(player=A, card="spurring-griffin")), "CO-5.2", "gem-level",
            "needs gems 2 white", "1 white")
    s.set_gem("white-gem")
    accepts(s.play("spurring-griffin"))
    # gems are a threshold, never spent
    assert s.player(A).set_gems == ("white-gem", "white-gem")


# ==================================================================================================
# 6 followers
# ==================================================================================================

def duel(a: list[str] = (), b: list[str] = (), **kw: Any) -> Script:
    """Turn 1: alice sets a gem and a Locus card and plays Bastion Squire (F1, 2/2); turn 2: bob
    does the same with Bone Sentry (F2, 2/2); turn 3: alice sets another gem and Locus card.  Ends
    at alice's open timing on turn 3: F1 is ready, F2 is ON."""
    s = Script(hands={A: ["bastion-squire", *a], B: ["bone-sentry", *b]}, **kw)
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    assert s.summon("bastion-squire") == "F1"
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    assert s.summon("bone-sentry") == "F2"
    s.end_turn()
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    return s


@covers("CO-6.1")
def test_followers_played_by_the_turn_player_at_open_timing() -> None:
    s = duel(a=["guardians-intervention", "dawn-sparrowhawk"], b=["grave-rat"])
    rejects(s.check(E.FollowerPlayed(player=A, card="guardians-intervention")), "CO-6.1", "not-a-follower",
            "Guardian's Intervention", "action-snap")
    rejects(s.check(E.FollowerPlayed(player=B, card="grave-rat")), "CO-6.1", "not-turn-player", "bob", "alice")
    accepts(s.play("dawn-sparrowhawk"), "CO-6.1")
    # during the window that follows, nobody plays a follower
    rejects(s.check(E.FollowerPlayed(player=B, card="grave-rat")), "CO-3.1", "out-of-step", "X-play")
    rejects(s.check(E.FollowerPlayed(player=A, card="bastion-squire")), "CO-3.1", "out-of-step")


@covers("CO-6.2")
@documents("CO-25")
def test_one_follower_unique_of_a_name() -> None:
    s = Script(hands={A: ["ash", "ash"]})
    s.develop(3)
    assert s.tp == A and len(s.player(A).set_gems) == 3 and len(s.player(A).locus) == 3
    s.play("ash")
    s.pass_window()
    s.end_turn()
    s.end_turn()
    rejects(s.check(E.FollowerPlayed(player=A, card="ash")), "CO-6.2", "unique-on-field", "alice", "★Ash★")
    # once Ash has left the field another may be played
    s2 = Script(hands={A: ["ash", "ash"], B: ["soul-harvest"]}, decks={B: deck(BLACK, ["soul-harvest"])})
    s2.develop(3)
    ash = s2.summon("ash")
    s2.end_turn()
    s2.play("soul-harvest", ash)
    s2.pass_window()
    assert s2.player(A).field == () and s2.player(A).discard == ("ash",)
    s2.end_turn()
    accepts(s2.check(E.FollowerPlayed(player=A, card="ash")), "CO-6.1")


def red_duel() -> Script:
    """alice plays red (Flame Salamander: CIP 1 damage to a chosen opponent follower); bob has
    Grave Rat (F1, 1/1) and Bone Sentry (F2, 2/2) in play by turn 3."""
    s = Script(hands={A: ["flame-salamander", "flare-counter", "flame-salamander"], B: ["grave-rat", "bone-sentry"]},
               decks={A: deck(RED, ["flame-salamander", "flare-counter", "stoke-the-flames"])})
    s.set_gem("red-gem")
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    s.summon("grave-rat")
    s.summon("bone-sentry")
    s.end_turn()
    s.set_locus("red-gem")
    return s


@covers("CO-6.3")
def test_targets() -> None:
    s = red_duel()
    rat, sentry = s.handle("grave-rat"), s.handle("bone-sentry")
    rejects(s.check(E.FollowerPlayed(player=A, card="flame-salamander")), "CO-6.3", "target-count",
            "needs 1 target(s)", "names 0")
    rejects(s.check(E.FollowerPlayed(player=A, card="flame-salamander", targets=[rat, sentry])), "CO-6.3", "target-count", "names 2")
    rejects(s.check(E.FollowerPlayed(player=A, card="flame-salamander", targets=["F9"])), "CO-6.3", "bad-target", "'F9'",
            "opponent follower")
    rejects(s.check(E.ActionPlayed(player=A, card="flare-counter")), "CO-6.3", "no-attacker", "no attack is pending")
    accepts(s.play("flame-salamander", rat))
    s.pass_window()
    # CO-6.4: the CIP resolved as the follower entered: 1 damage destroys the 1/1 Grave Rat
    assert types(s.last_derived()) == ["XPlayResolved", "FollowerDestroyed"]
    assert s.last_derived()[1] == E.FollowerDestroyed(player=B, follower=rat, card="grave-rat")
    assert [f.card for f in s.player(B).field] == ["bone-sentry"]


@documents("CO-6.4", "CO-20")
def test_cip_is_mandatory_and_rechecks_its_target() -> None:
    # with no possible target the follower is still played; the targeted part does nothing
    s = Script(hands={A: ["flame-salamander"]}, decks={A: deck(RED, ["flame-salamander"])})
    s.set_gem("red-gem")
    s.set_locus("red-gem")
    assert E.FollowerPlayed(player=A, card="flame-salamander") in GAME.legal_events(s.state())
    s.summon("flame-salamander")
    assert [f.card for f in s.player(A).field] == ["flame-salamander"]
    # a target named on play that leaves the field before the follower enters: the CIP fizzles (CO-20)
    # bob has 1 Locus and 1 black gem: Shadow Step (snap) returns his own Grave Rat in the window
    s2 = Script(hands={A: ["flame-salamander"], B: ["grave-rat", "shadow-step"]},
                decks={A: deck(RED, ["flame-salamander"]), B: deck(BLACK, ["grave-rat", "shadow-step"])})
    s2.set_gem("red-gem")
    s2.end_turn()
    s2.set_gem("black-gem")
    s2.set_locus("black-gem")
    rat = s2.summon("grave-rat")
    s2.end_turn()
    s2.set_locus("red-gem")
    s2.play("flame-salamander", rat)
    s2.pass_()
    s2.play("shadow-step", rat)  # bob, with priority
    s2.pass_window()
    resolved = [d for d in s2.last_derived() if type(d) is E.XPlayResolved]
    assert [d.card for d in resolved] == ["shadow-step", "flame-salamander"]  # last in, first out
    assert s2.player(B).field == () and "grave-rat" in s2.player(B).hand
    assert [f.card for f in s2.player(A).field] == ["flame-salamander"]
    assert not any(type(d) is E.FollowerDestroyed for d in s2.last_derived())


# ==================================================================================================
# 7 attacks
# ==================================================================================================

@covers("CO-7.1")
def test_attacks_by_the_turn_player_at_open_timing() -> None:
    s = duel(a=["dawn-sparrowhawk"])
    rejects(s.check(E.AttackDeclared(player=B, attacker="F2", target="deck")), "CO-7.1", "not-turn-player", "bob")
    accepts(s.attack("F1"), "CO-7.1")
    s.no_block()
    rejects(s.check(E.AttackDeclared(player=A, attacker="F1", target="deck")), "CO-3.1", "out-of-step", "X-play")


@covers("CO-7.2")
def test_attacker_is_own_follower() -> None:
    s = duel()
    rejects(s.check(E.AttackDeclared(player=A, attacker="F2", target="deck")), "CO-7.2", "not-own-follower", "'F2'", "alice")
    rejects(s.check(E.AttackDeclared(player=A, attacker="F7", target="deck")), "CO-7.2", "not-own-follower", "'F7'")
    accepts(s.check(E.AttackDeclared(player=A, attacker="F1", target="deck")))


@covers("CO-7.3")
@documents("CO-9", "CO-32")
def test_attacker_must_be_ready() -> None:
    s = duel(a=["dawn-sparrowhawk"])
    s.play("dawn-sparrowhawk")
    s.pass_window()
    new = s.handle("dawn-sparrowhawk")
    # CO-9/CO-32: no first-turn rule, only: not played this turn
    rejects(s.check(s.attack_event(new)), "CO-7.3", "attacker-not-ready", new, "played this turn (turn 3)")
    accepts(s.attack("F1"))
    s.no_block()
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    rejects(s.check(s.attack_event("F1")), "CO-7.3", "attacker-not-ready", "F1 (Bastion Squire) is OFF")
    # without the tap (option), a second attack is still refused
    s = duel(options={"attack_taps_attacker": False})
    s.attack("F1")
    s.no_block()
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    assert s.follower("F1").on
    rejects(s.check(s.attack_event("F1")), "CO-7.3", "attacker-not-ready", "already attacked this turn")


@covers("CO-7.4")
def test_attack_targets() -> None:
    s = duel()
    rejects(s.check(s.attack_event("F1", "F2")), "CO-7.4", "target-not-off", "F2 (Bone Sentry) is ON")
    rejects(s.check(s.attack_event("F1", 7)), "CO-7.4", "no-such-locus", "no Locus slot 7", "[1]")
    rejects(s.check(s.attack_event("F1", "F1")), "CO-7.4", "no-such-target", "'F1'", "bob")
    rejects(s.check(E.AttackDeclared(player=A, attacker="F1", target="deck", slot=1)), "CO-7.4", "target-fields")
    accepts(s.check(s.attack_event("F1", 1)))
    accepts(s.check(s.attack_event("F1", "deck")))
    # an OFF follower can be attacked: F1 attacked on turn 3 and stays OFF during bob's turn 4
    s.attack("F1")
    s.no_block()
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    s.end_turn()
    assert not s.follower("F1").on
    accepts(s.attack("F2", "F1"), "CO-7.1")
    s.no_block()
    s.pass_window()
    assert [type(d).__name__ for d in s.last_derived()] == ["BattleResolved", "FollowerDestroyed"]
    assert s.player(A).field == ()


@covers("CO-7.5")
@documents("CO-11", "CO-12")
def test_blocks() -> None:
    s = duel()
    s.attack("F1", 1)  # a Locus attack can be blocked too (CO-11)
    # CO-12: the block decision comes first, then the X-play window
    assert isinstance(s.head(), Block) and s.head().player == B
    rejects(s.check(E.XPlayPassed(player=A)), "CO-9.2", "no-window", "block declared or block declined by bob")
    rejects(s.check(E.BlockDeclared(player=A, blocker="F1")), "CO-7.5", "block-timing", "by alice")
    rejects(s.check(E.BlockDeclared(player=B, blocker="F1")), "CO-7.5", "not-own-follower", "'F1'", "bob")
    rejects(s.check(E.BlockDeclined(player=A)), "CO-7.5", "block-timing")
    accepts(s.block("F2"), "CO-7.5")
    assert not s.follower("F2").on and s.state().attack.defended
    # one blocker per attack
    rejects(s.check(E.BlockDeclared(player=B, blocker="F2")), "CO-7.5", "block-timing", "X-play")
    assert isinstance(s.head(), Window) and s.head().priority == A
    s.pass_window()
    battle = [d for d in s.last_derived() if type(d) is E.BattleResolved][0]
    assert battle == E.BattleResolved(player=A, attacker="F1", result="follower-damaged", follower="F2", damage=2)
    # the Locus slot was not touched; the 2/2 blocker took 2 and is destroyed (CO-14)
    assert not s.player(B).locus[0].face_up
    assert s.player(B).field == ()
    # an OFF follower cannot block: alice's F1 attacked on her turn and is still OFF on bob's turn
    s = duel()
    s.attack("F1")
    s.no_block()
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    s.end_turn()
    s.attack("F2")
    rejects(s.check(E.BlockDeclared(player=A, blocker="F1")), "CO-7.5", "blocker-off", "F1 (Bastion Squire) is OFF")
    accepts(s.no_block(), "CO-7.5")


@documents("CO-7.6", "CO-26", "CO-13", "CO-14", "CO-10.1")
def test_damage_accumulates_until_end_of_turn() -> None:
    s = duel()
    s.attack("F1")
    s.no_block()
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    s.end_turn()
    # bob's turn 4: 2 black gems set -> his Colossus deals 1 damage to alice's OFF Squire (2/2)
    s.set_gem("black-gem")
    s.colossus(0, "F1")
    assert s.follower("F1").damage == 1 and s.follower("F1").on is False
    s.end_turn()
    # CO-26/CO-10.1: removed at end of turn
    assert s.follower("F1").damage == 0
    s.attack("F1")
    s.no_block()
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    s.end_turn()
    s.colossus(0, "F1")
    # the second damage of the turn adds up: 1 + 2 (Bone Sentry's attack) reaches the Defence 2
    s.attack("F2", "F1")
    s.no_block()
    s.pass_window()
    assert s.last_derived() == [
        E.BattleResolved(player=B, attacker="F2", result="follower-damaged", follower="F1", damage=2),
        E.FollowerDestroyed(player=A, follower="F1", card="bastion-squire"),
    ]
    assert s.player(A).discard == ("bastion-squire",)


def griffin_position(**kw: Any) -> Script:
    """alice's Spurring Griffin (F1: 4/3, Crush 2, Capture 1) is ready on turn 7; bob has no followers."""
    s = Script(hands={A: ["spurring-griffin"]}, **kw)
    s.develop(2)
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    assert s.summon("spurring-griffin") == "F1"
    s.end_turn()
    s.end_turn()
    return s


@covers("CO-7.7")
@documents("CO-16")
def test_deck_hit_reveal_and_capture() -> None:
    s = griffin_position()
    bob_deck = s.player(B).deck_count
    s.attack("F1")
    s.no_block()
    s.pass_window()
    assert s.last_derived() == [E.BattleResolved(player=A, attacker="F1", result="deck-hit", damage=2, capture=1)]
    assert isinstance(s.head(), Reveal) and s.head().count == 2
    rejects(s.check(E.CardsRevealed(player=B, cards=["black-gem"])), "CO-7.7", "reveal-count", "2 cards", "names 1")
    rejects(s.check(E.CardsRevealed(player=B, cards=["black-gem", "ash"])), "CO-2.5", "not-in-deck")
    accepts(s.reveal("eye-of-valden", "black-gem"))
    assert isinstance(s.head(), Capture) and s.head().player == A and s.head().limit == 1
    rejects(s.check(E.GemsCaptured(player=A, cards=["eye-of-valden", "black-gem"])), "CO-7.7", "capture-limit", "Capture is 1")
    rejects(s.check(E.GemsCaptured(player=A, cards=["grave-rat"])), "CO-7.7", "not-revealed", "Grave Rat")
    rejects(s.check(E.GemsCaptured(player=B, cards=["black-gem"])), "CO-3.1", "out-of-step", "gems captured by alice")
    # CO-16: the attacker chooses which revealed Gem to capture
    accepts(s.capture("eye-of-valden"), "CO-7.7")
    assert s.player(A).captured == ("eye-of-valden",)
    assert s.player(B).discard == ("black-gem",)
    assert s.player(B).deck_count == bob_deck - 2


def test_capture_only_gems() -> None:
    s = griffin_position()
    s.attack("F1")
    s.no_block()
    s.pass_window()
    s.reveal("grave-rat", "black-gem")
    rejects(s.check(E.GemsCaptured(player=A, cards=["grave-rat"])), "CO-7.7", "not-a-gem", "Grave Rat")
    accepts(s.capture())  # capturing nothing is allowed
    assert s.player(A).captured == () and sorted(s.player(B).discard) == ["black-gem", "grave-rat"]


@documents("CO-16", "CO-10.2", "CO-23")
def test_deck_hit_reveals_at_most_the_deck_and_can_deck_out() -> None:
    # bob's deck holds 9 cards (deck validation off): 7 in hand, 1 left after his turn-2 draw;
    # alice's Storm Gull Flock (Crush 2) hits it on turn 3: only 1 card can be revealed
    small = E.DeckList(colossus=BLACK, cards={"black-gem": 9})
    s = Script(hands={A: ["storm-gull-flock"]}, decks={A: deck(BLUE, ["storm-gull-flock"]), B: small},
               options={"deck_validation": "off"})
    s.set_gem("blue-gem")
    s.set_locus("blue-gem")
    gull = s.summon("storm-gull-flock")
    s.end_turn()
    s.end_turn()
    assert s.player(B).deck_count == 1
    s.attack(gull)
    s.no_block()
    s.pass_window()
    assert s.last_derived() == [E.BattleResolved(player=A, attacker=gull, result="deck-hit", damage=1, capture=0)]
    s.reveal("black-gem")
    assert s.state().result is None  # revealed cards still count as the deck (seed FAQ)
    s.capture()
    # the revealed card went to the discard pile: bob's deck reached 0 and he loses at once
    assert s.last_derived() == [E.GameEnded(result="win", winner=A, reason="deck-out")]
    res = s.verify()
    assert res.verdict == "legal" and res.outcome.winner == A and res.outcome.reason == "deck-out"


@covers("CO-7.8")
@documents("CO-5")
def test_locus_hit_on_a_gem_is_captured_and_replaced_in_the_same_slot() -> None:
    s = duel(b=["grave-rat"])
    s.end_turn()
    s.set_locus("grave-rat")
    s.end_turn()
    s.set_locus("white-gem")
    assert [(sl.id, sl.card) for sl in s.player(B).locus] == [(1, "black-gem"), (2, "grave-rat")]
    rejects(s.check(E.LocusReplaced(player=B, card="black-gem")), "CO-7.8", "no-replacement-due", "whose Gem was just captured")
    s.attack("F1", 1)
    s.no_block()
    s.pass_window()
    assert s.last_derived() == [E.BattleResolved(player=A, attacker="F1", result="locus-hit", slot=1, card="black-gem")]
    assert s.player(A).captured == ("black-gem",)
    # bob draws 1, then places a card in the same slot
    assert isinstance(s.head(), Draw) and s.head().player == B
    s.draw("black-gem")
    assert isinstance(s.head(), ReplaceLocus) and s.head().slot == 1
    rejects(s.check(E.LocusReplaced(player=A, card="white-gem")), "CO-7.8", "no-replacement-due", "locus replaced by alice")
    rejects(s.check(E.LocusReplaced(player=B, card="ash")), "CO-4.4", "not-in-hand", "slot 1")
    accepts(s.replace_locus("black-gem"), "CO-7.8")
    locus = s.player(B).locus
    assert [sl.id for sl in locus] == [1, 2]  # CO-5: same id, same position
    assert not locus[0].face_up and locus[1].card == "grave-rat"
    # CO-5: a new Locus card takes a new id at the right end
    s.end_turn()
    s.set_locus("black-gem")
    assert [sl.id for sl in s.player(B).locus] == [1, 2, 3]


@documents("CO-17", "CO-29")
def test_locus_hit_on_a_non_gem_flips_it_and_it_stays() -> None:
    s = duel(b=["grave-rat"])
    s.end_turn()
    s.set_locus("grave-rat")
    s.end_turn()
    s.attack("F1", 2)
    s.no_block()
    s.pass_window()
    assert s.last_derived() == [E.BattleResolved(player=A, attacker="F1", result="locus-hit", slot=2, card="grave-rat")]
    locus = s.player(B).locus
    assert [(sl.id, sl.card, sl.face_up) for sl in locus] == [(1, "black-gem", False), (2, "grave-rat", True)]
    assert s.player(A).captured == () and s.head() is None
    # CO-29: the face-up card still gives bob a Locus point
    s.end_turn()
    assert available_locus(s.player(B)) == 2
    # hitting the face-up non-Gem again does nothing more (a face-up Locus can still be attacked)
    s.end_turn()
    s.attack("F1", 2)
    s.no_block()
    s.pass_window()
    assert s.player(B).locus == locus


@documents("CO-7.9")
def test_blocked_attack_stays_defended_when_the_blocker_leaves() -> None:
    # bob attacks alice's deck with Grave Rat; alice blocks with Bastion Squire; in X-play bob's
    # Nightveil Assassin (switch OFF: 2 damage) destroys the blocker: the attack stays defended
    s = Script(hands={A: ["bastion-squire"], B: ["grave-rat", "nightveil-assassin"]})
    s.develop(2)
    s.set_locus("white-gem")
    sq = s.summon("bastion-squire")
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    rat = s.summon("grave-rat")
    na = s.summon("nightveil-assassin")
    s.end_turn()
    s.end_turn()
    a_deck = s.player(A).deck_count
    s.attack(rat)
    s.block(sq)
    s.ability(na, sq)
    s.pass_window()
    kinds = types(s.last_derived())
    assert kinds == ["XPlayResolved", "FollowerDestroyed", "BattleResolved"]
    assert s.last_derived()[-1] == E.BattleResolved(player=B, attacker=rat, result="defended", follower=sq)
    assert s.player(A).deck_count == a_deck and s.head() is None


# ==================================================================================================
# 8 actions and abilities
# ==================================================================================================

@covers("CO-8.1")
def test_actions_at_open_timing_then_discarded() -> None:
    s = duel(a=["rally-to-the-banner"], b=["withering-curse"],
             decks={A: deck(WHITE, ["rally-to-the-banner", "bastion-squire", "guardians-intervention"])})
    rejects(s.check(E.ActionPlayed(player=A, card="bastion-squire")), "CO-8.1", "not-an-action", "Bastion Squire", "follower")
    rejects(s.check(E.ActionPlayed(player=B, card="withering-curse", targets=["F1"])), "CO-8.1", "not-turn-player",
            "bob", "only the turn player alice")
    accepts(s.play("rally-to-the-banner"), "CO-8.1")
    assert s.player(A).hand.count("rally-to-the-banner") == 0
    s.pass_window()
    assert s.player(A).discard == ("rally-to-the-banner",)
    assert s.stats("F1")[:2] == (3, 3)


@covers("CO-8.2")
@documents("CO-27")
def test_snaps_in_xplay_and_at_own_open_timing() -> None:
    s = duel(a=["guardians-intervention"], b=["dark-strike"])
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    s.end_turn()
    # a snap by the opponent needs an X-play window
    rejects(s.check(E.ActionPlayed(player=B, card="dark-strike")), "CO-8.2", "not-turn-player", "bob")
    # CO-27: the turn player may play a snap at open timing
    accepts(s.check(E.ActionPlayed(player=A, card="guardians-intervention", targets=["F1"])), "CO-8.1")
    s.attack("F1")
    s.no_block()
    s.pass_()
    accepts(s.play("dark-strike"), "CO-8.2")
    assert s.player(B).locus_used == 2  # bob pays with his own Locus points in alice's turn


@covers("CO-8.3")
def test_follower_abilities() -> None:
    s = duel(a=["cloudmane-pegasus"])
    peg = s.summon("cloudmane-pegasus")
    rejects(s.check(E.FollowerAbilityActivated(player=A, follower="F2")), "CO-8.3", "not-own-follower", "'F2'", "alice")
    rejects(s.check(E.FollowerAbilityActivated(player=A, follower="F1")), "CO-8.3", "no-such-ability", "Bastion Squire", "#0")
    rejects(s.check(E.FollowerAbilityActivated(player=A, follower=peg, ability=1, targets=["F1"])), "CO-8.3", "no-such-ability", "#1")
    s.end_turn()
    s.end_turn()
    s.attack("F1")
    s.no_block()
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    assert not s.follower("F1").on
    accepts(s.ability(peg, "F1"), "CO-8.3")
    s.pass_window()
    assert s.follower("F1").on and not s.follower(peg).on
    rejects(s.check(E.FollowerAbilityActivated(player=A, follower=peg, targets=["F1"])), "CO-8.3", "already-off", "OFF")
    # switched ON again, F1 still cannot attack a second time (seed FAQ)
    rejects(s.check(s.attack_event("F1")), "CO-7.3", "attacker-not-ready", "already attacked")


@covers("CO-9")
def test_summoning_sickness_only_for_attacks_and_off_costs() -> None:
    s = Script(hands={A: ["cloudmane-pegasus", "temple-healer", "bastion-squire"]},
               decks={A: deck(WHITE, ["cloudmane-pegasus", "temple-healer", "bastion-squire"])})
    s.develop(2)
    s.set_locus("white-gem")
    peg = s.summon("cloudmane-pegasus")
    rejects(s.check(E.FollowerAbilityActivated(player=A, follower=peg, targets=[peg])), "CO-9", "summoning-sick",
            peg, "played this turn")
    s.end_turn()
    s.end_turn()
    s.set_locus("white-gem")
    healer = s.summon("temple-healer")
    # a locus-cost ability works on the turn the follower was played
    accepts(s.ability(healer, healer), "CO-8.3")
    s.pass_window()
    assert s.stats(healer)[1] == 5


@covers("CO-8.4")
@documents("CO-28")
def test_colossus_abilities() -> None:
    s = duel(a=["bastion-squire"])
    rejects(s.check(E.ColossusAbilityActivated(player=A, ability=1)), "CO-8.4", "colossus-gems", "needs 4 white", "2 white", "set-only")
    rejects(s.check(E.ColossusAbilityActivated(player=A, ability=2)), "CO-8.4", "no-such-ability", "#2")
    rejects(s.check(E.ColossusAbilityActivated(player=B, ability=0, targets=["F1"])), "CO-8.4", "not-turn-player", "bob")
    accepts(s.colossus(0, "F1"), "CO-8.4")
    assert s.head() is None  # CO-28: no X-play window
    assert s.stats("F1")[1] == 4
    rejects(s.check(E.ColossusAbilityActivated(player=A, ability=0, targets=["F1"])), "CO-8.4", "colossus-used", "already used this turn")
    s.play("bastion-squire")
    rejects(s.check(E.ColossusAbilityActivated(player=A, ability=0, targets=["F1"])), "CO-8.4", "colossus-in-xplay", "X-play")
    s.pass_window()
    s.end_turn()
    s.end_turn()
    accepts(s.check(E.ColossusAbilityActivated(player=A, ability=0, targets=["F1"])))  # once per turn


@covers("CO-8.5")
def test_declared_effect_for_unmodelled_text() -> None:
    s = duel(a=["herald-of-the-dawn", "dawn-sparrowhawk"])
    s.play("herald-of-the-dawn")
    s.pass_window()
    # Herald's CIP is not modelled: its effect must be declared now
    assert type(s.head()).__name__ == "Declare"
    rejects(s.check(E.EffectDeclared(player=A, card="dawn-sparrowhawk")), "CO-8.5", "declare-other", "Herald of the Dawn")
    rejects(s.check(E.EffectDeclared(player=A, card="herald-of-the-dawn", destroy=["F9"])), "CO-8.5",
            "declare-unknown-follower", "'F9'")
    rejects(s.check(E.EffectDeclared(player=A, card="herald-of-the-dawn", draw=-1)), "CO-8.5", "declare-negative")
    # skipping the owed step cites the rule that owes it (a mandatory CIP ability), and says why
    rejects(s.check(E.MainPhaseEnded(player=A)), "CO-6.4", "out-of-step", "effect declared by alice for Herald of the Dawn",
            "a CIP ability is mandatory")
    ruling = s.add(E.EffectDeclared(player=A, card="herald-of-the-dawn", text="no winged beast: no card", draw=0))
    accepts(ruling, "CO-8.5")
    assert ruling.engine_checked is False and ruling.code == NS + "declared-effect"
    # a modelled card's effect cannot be declared by hand
    rejects(s.check(E.EffectDeclared(player=A, card=WHITE, draw=1)), "CO-8.5", "modelled-card", "Colossus of the Dawn Bastion")
    rejects(s.check(E.EffectDeclared(player=A, card="ash")), "CO-8.5", "declare-source", "Ash")
    res = s.verify()
    assert res.verdict == "legal"
    assert [v.rule for v in res.unchecked] == ["CO-8.5"] and "not engine-checked" in res.unchecked[0].message


# ==================================================================================================
# 9 X-play
# ==================================================================================================

@documents("CO-9.1", "CO-19")
def test_windows_open_after_plays_blocks_and_end_of_main() -> None:
    s = duel(a=["dawn-sparrowhawk", "guardians-intervention", "cloudmane-pegasus"])
    s.end_turn()
    s.end_turn()
    s.set_locus("white-gem")  # 3 Locus
    # after a follower is played: the card waits on the chain, not yet on the field (CO-19)
    s.play("dawn-sparrowhawk")
    assert isinstance(s.head(), Window) and s.head().priority == A
    assert [i.card for i in s.state().chain] == ["dawn-sparrowhawk"] and len(s.player(A).field) == 1
    s.pass_window()
    assert [f.card for f in s.player(A).field] == ["bastion-squire", "dawn-sparrowhawk"]
    # after an Action
    s.play("guardians-intervention", "F1")
    assert isinstance(s.head(), Window) and s.head().priority == A
    s.pass_window()
    # after an attack's block decision
    s.attack("F1")
    assert isinstance(s.head(), Block)
    s.no_block()
    assert isinstance(s.head(), Window) and s.head().priority == A
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    # after a follower ability
    s.end_turn()
    s.end_turn()
    s.play("cloudmane-pegasus")
    s.pass_window()
    s.end_turn()
    s.end_turn()
    s.ability(s.handle("cloudmane-pegasus"), "F1")
    assert isinstance(s.head(), Window) and s.head().priority == A
    s.pass_window()
    # at the end of the main phase
    s.add(E.MainPhaseEnded(player=A))
    assert isinstance(s.head(), Window) and s.head().priority == A
    s.pass_()
    assert isinstance(s.head(), Window) and s.head().priority == B
    s.pass_()
    assert s.tp == B


@covers("CO-9.2")
@documents("CO-18")
def test_window_alternation_and_two_passes() -> None:
    s = duel(a=["guardians-intervention"], b=["dark-strike", "shadow-step"])
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    s.end_turn()
    s.end_turn()
    s.set_locus("black-gem")  # bob: 3 Locus cards, 2 black gems
    s.end_turn()
    rejects(s.check(E.XPlayPassed(player=A)), "CO-9.2", "no-window", "alice's main-phase play")
    s.attack("F1")
    s.no_block()
    rejects(s.check(E.XPlayPassed(player=B)), "CO-9.2", "no-priority", "alice has priority")
    accepts(s.pass_(), "CO-9.2")  # alice passes
    assert s.head().priority == B and s.head().passes == 1
    s.play("shadow-step", "F2")  # bob adds: priority back to alice, pass count reset
    assert s.head().priority == A and s.head().passes == 0
    s.pass_()
    s.play("dark-strike")  # bob again, after alice's pass
    assert s.head().priority == A
    s.pass_()
    assert s.head().priority == B
    s.pass_()  # two passes in a row: the window closes and the chain resolves
    assert types(s.last_derived())[:2] == ["XPlayResolved", "XPlayResolved"]


@covers("CO-9.3")
def test_only_snaps_and_abilities_in_xplay() -> None:
    s = duel(a=["rally-to-the-banner", "guardians-intervention"], b=["withering-curse", "dark-strike"],
             decks={A: deck(WHITE, ["rally-to-the-banner", "guardians-intervention", "bastion-squire"])})
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    s.end_turn()
    s.attack("F1")
    s.no_block()
    rejects(s.check(E.ActionPlayed(player=A, card="rally-to-the-banner")), "CO-9.3", "not-snap", "Rally to the Banner")
    rejects(s.check(E.ActionPlayed(player=B, card="dark-strike")), "CO-9.3", "no-priority", "alice has priority")
    rejects(s.check(E.CardSet(player=A, card="white-gem", zone="gem")), "CO-3.1", "out-of-step", "X-play")
    accepts(s.play("guardians-intervention", "F1"), "CO-8.2")
    rejects(s.check(E.ActionPlayed(player=B, card="withering-curse", targets=["F1"])), "CO-9.3", "not-snap", "Withering Curse")
    accepts(s.play("dark-strike"), "CO-8.2")


@documents("CO-9.4", "CO-15")
def test_lifo_and_an_attacker_destroyed_in_xplay_fizzles() -> None:
    s = duel(a=["guardians-intervention"], b=["dark-strike"])
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    s.end_turn()
    deck_before = s.player(B).deck_count
    s.attack("F1")
    s.no_block()
    s.play("guardians-intervention", "F1")  # alice first
    s.play("dark-strike")  # bob answers
    s.pass_window()
    assert s.last_derived() == [
        E.XPlayResolved(player=B, card="dark-strike"),  # last in, first out: F1 is destroyed
        E.XPlayResolved(player=A, card="guardians-intervention"),  # its target is gone: no effect
        E.BattleResolved(player=A, attacker="F1", result="fizzled"),  # CO-15: no attacker, no hit
    ]
    assert s.player(A).field == () and sorted(s.player(A).discard) == ["bastion-squire", "guardians-intervention"]
    assert s.player(B).deck_count == deck_before and s.player(B).discard == ("dark-strike",)


# ==================================================================================================
# 10 end of turn, end of game
# ==================================================================================================

@covers("CO-10.1")
def test_main_phase_ended_by_the_turn_player() -> None:
    s = duel(b=["dark-strike"])
    rejects(s.check(E.MainPhaseEnded(player=B)), "CO-10.1", "not-turn-player", "bob")
    s.attack("F1")
    s.no_block()
    rejects(s.check(E.MainPhaseEnded(player=A)), "CO-3.1", "out-of-step", "X-play")
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    accepts(s.add(E.MainPhaseEnded(player=A)), "CO-10.1")
    s.pass_window()
    assert types(s.last_derived()) == ["TurnEnded", "TurnStarted"]
    assert s.last_derived()[0] == E.TurnEnded(turn=3, player=A)


@documents("CO-10.2", "CO-23")
def test_deck_out_on_a_draw() -> None:
    # alice's deck: 8 cards: 7 in hand, 1 left; she skips turn 1's draw and draws it on turn 3
    small = E.DeckList(colossus=WHITE, cards={"white-gem": 8})
    s = Script(decks={A: small}, options={"deck_validation": "off"})
    assert s.player(A).deck_count == 1
    s.end_turn()
    s.end_main()
    s.draw()
    assert s.last_derived() == [E.GameEnded(result="win", winner=B, reason="deck-out")]
    # nothing may follow the end of the match
    late = s.check(E.CardSet(player=A, card="white-gem", zone="gem"))
    assert (late.rule, late.code) == ("LOG-3", "core/after-end")


@documents("CO-10.4")
def test_concession_at_any_time() -> None:
    s = duel()
    s.attack("F1")
    s.no_block()
    # bob concedes while alice has priority in her own window
    accepts(s.add(E.Conceded(player=B)), "CO-10.4")
    assert s.last_derived() == [E.GameEnded(result="win", winner=A, reason="concession")]
    assert s.verify().outcome.winner == A
    s2 = Script(opening=False)
    accepts(s2.add(E.Conceded(player=A)))  # even before the set-up is over
    assert s2.state().result.winner == B


# ==================================================================================================
# interpretations (design analysis numbering): documented behaviour
# ==================================================================================================

@documents("CO-2", "CO-31")
def test_set_up_order() -> None:
    s = Script(opening=False)
    names = [type(t).__name__ for t in s.state().todo]
    assert names == ["Shuffle", "Shuffle", "ChooseFirst"]
    s.add(E.DeckShuffled(player=A))
    s.add(E.DeckShuffled(player=B))
    # CO-31: the first player is an event either player can be named in (no RPS simulation)
    assert sorted(e.player for e in GAME.legal_events(s.state()) if type(e) is E.FirstPlayerDecided) == [A, B]
    s.add(E.FirstPlayerDecided(player=B))
    assert [(type(t).__name__, getattr(t, "player", None)) for t in s.state().todo] == [
        ("Draw", B), ("Draw", A), ("Mulligan", B), ("Mulligan", A), ("StartTurn", None)]


@documents("CO-4")
def test_locus_counter() -> None:
    s = duel(a=["dawn-sparrowhawk"], b=["dark-strike"])
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    s.end_turn()
    me = s.player(A)
    assert (len(me.locus), me.locus_used) == (2, 0)
    s.play("dawn-sparrowhawk")
    s.pass_window()
    assert available_locus(s.player(A)) == 1
    s.set_locus("white-gem")  # a Locus card set mid-turn adds a point at once
    assert available_locus(s.player(A)) == 2
    s.attack("F1")
    s.no_block()
    s.pass_()
    s.play("dark-strike")  # bob spends 2 of his points in alice's turn
    s.pass_window()
    assert s.player(B).locus_used == 2
    s.end_turn()
    # points are restored at the owner's own Recovery step (bob's turn 6), not at the opponent's
    assert s.player(B).locus_used == 0 and s.player(A).locus_used == 1
    s.end_turn()
    assert s.player(A).locus_used == 0


@documents("CO-6", "CO-8")
def test_gem_level_counts_captured_gems_and_any() -> None:
    rules = GAME.rules
    from collections import Counter
    req = {"white": 2, "any": 1}
    assert not rules.meets(Counter(white=2), req)
    assert rules.meets(Counter(white=3), req)
    assert rules.meets(Counter(white=2, black=1), req)
    assert not rules.meets(Counter(white=1, black=5), req)
    s = captured_white_position()
    assert s.player(A).set_gems == ("white-gem",) and s.player(A).captured == ("white-gem",)
    accepts(s.check(E.FollowerPlayed(player=A, card="spurring-griffin")))


@documents("CO-7")
def test_colossus_ability_counts_set_gems_only() -> None:
    s = captured_white_position()
    rejects(s.check(E.ColossusAbilityActivated(player=A, ability=0, targets=["F1"])), "CO-8.4", "colossus-gems",
            "needs 2 white", "1 white", "set-only")


@documents("CO-10")
def test_attacking_switches_the_attacker_off() -> None:
    s = duel()
    s.attack("F1")
    assert s.follower("F1").on is False and s.follower("F1").attacked


@documents("CO-21")
def test_ability_kinds() -> None:
    timings = {ab.timing for c in POOL.cards.values() for ab in c.abilities}
    assert timings == {"cip", "activated", "continuous"}
    s = ash_position()
    # continuous: Ash's aura gives the other winged beasts +1 Crush while Ash is on the field
    hawk = s.summon("dawn-sparrowhawk")
    assert s.stats(hawk)[2] == POOL["dawn-sparrowhawk"].crush + 1
    assert s.stats(s.handle("ash"))[2] == POOL["ash"].crush


@documents("CO-24")
def test_no_hand_limit() -> None:
    s = Script()
    for _ in range(6):
        s.end_turn()
    assert len(s.player(B).hand) == 10 and len(s.player(A).hand) == 10
    s.end_turn()
    assert len(s.player(A).hand) == 10 and s.player(A).discard == ()


@documents("CO-33")
def test_attacked_follower_switched_on_is_still_attacked() -> None:
    # turn 3: alice's Squire (F1, 2/2) attacks and stays OFF; turn 4: bob's Grave Rat (1/1) attacks
    # it; in X-play alice's Cloudmane Pegasus switches it ON: the attack still resolves, and F1,
    # which survives, stays ON
    s = Script(hands={A: ["bastion-squire", "cloudmane-pegasus"], B: ["grave-rat"]})
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    sq = s.summon("bastion-squire")
    s.end_turn()
    rat = s.summon("grave-rat")
    s.end_turn()
    s.set_locus("white-gem")
    peg = s.summon("cloudmane-pegasus")
    s.attack(sq)
    s.no_block()
    s.pass_window()
    s.reveal(s.filler(B))
    s.capture()
    s.end_turn()
    assert not s.follower(sq).on
    s.attack(rat, sq)
    s.no_block()
    s.pass_()  # bob
    s.ability(peg, sq)  # alice
    s.pass_window()
    assert s.last_derived()[-1] == E.BattleResolved(player=B, attacker=rat, result="follower-damaged", follower=sq, damage=1)
    assert s.follower(sq).on and s.follower(sq).damage == 1


def captured_white_position(**options: Any) -> Script:
    """alice (1 white gem set) captures a white gem from bob's Locus on turn 3, then has 3 Locus
    cards on turn 5 (Spurring Griffin: cost 3, 2 white gems)."""
    s = Script(hands={A: ["bastion-squire", "spurring-griffin"], B: ["white-gem"]},
               decks={B: deck(BLACK, {"white-gem": 3})}, options=options)
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    sq = s.summon("bastion-squire")
    s.end_turn()
    s.set_locus("white-gem")  # bob keeps a white gem face down in his Locus
    s.end_turn()
    s.set_locus("white-gem")
    s.attack(sq, 1)
    s.no_block()
    s.pass_window()
    s.draw()
    s.replace_locus("black-gem")
    s.end_turn()
    s.end_turn()
    s.set_locus("white-gem")
    assert len(s.player(A).locus) == 3 and s.follower(sq) is not None
    return s


def ash_position() -> Script:
    """alice has ★Ash★ on the field (turn 5) and 4 Locus cards from turn 7 on."""
    s = Script(hands={A: ["ash", "dawn-sparrowhawk", "spurring-griffin"]})
    s.develop(2)
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    s.summon("ash")
    s.end_turn()
    s.end_turn()
    s.set_locus("white-gem")
    return s


def test_ash_makes_winged_beasts_cheaper() -> None:
    s = ash_position()
    assert available_locus(s.player(A)) == 4
    s.play("spurring-griffin")  # 3 - 1
    assert s.player(A).locus_used == 2
    s.pass_window()
    s.play("dawn-sparrowhawk")  # 1 - 1
    assert s.player(A).locus_used == 2
    s.pass_window()
    # Spurring Griffin's CIP: all alice's followers +1 attack until end of turn (Ash included)
    assert s.stats(s.handle("ash"))[0] == POOL["ash"].attack + 1
    # without Ash the Griffin costs its printed 3
    s2 = Script(hands={A: ["spurring-griffin"]})
    s2.develop(2)
    s2.set_gem("white-gem")
    rejects(s2.check(E.FollowerPlayed(player=A, card="spurring-griffin")), "CO-5.1", "locus-short", "costs 3 Locus", "2 unused")


# ==================================================================================================
# ruleset options: the same log under both settings
# ==================================================================================================

@documents("CO-1")
def test_option_mulligan_limits_2013_vs_2014() -> None:
    three = ["bastion-squire", "ash", "heroic-knight"]
    for ruleset, ok in (("2013", False), ("2014", True)):
        s = Script(opening=False, ruleset=ruleset)
        for p in (A, B):
            s.add(E.DeckShuffled(player=p))
        s.add(E.FirstPlayerDecided(player=A))
        for p in (A, B):
            for c in (three if p == A else []):
                s.draw(c, p)
            while len(s.player(p).hand) < 7:
                s.draw(None, p)
        r = s.check(E.CardsReturned(player=A, cards=three))
        if ok:
            accepts(r)
        else:
            rejects(r, "CO-2.4", "too-many-returned", "at most 2")
    # the same log: legal under 2014, illegal under 2013
    s = Script(hands={A: three}, ruleset="2014", returns={A: (three, ["white-gem"] * 3), B: (["black-gem"] * 5, [])})
    assert s.verify().verdict == "legal"
    log2013 = s.lines().replace(b'"ruleset":"2014"', b'"ruleset":"2013"')
    res = run(parse_log(log2013))
    assert [(v.rule, v.code) for v in res.violations] == [("CO-2.4", NS + "too-many-returned")]


@documents("CO-3")
def test_option_deck_validation() -> None:
    short = {A: deck(WHITE, size=49)}
    assert verify_events([setup(short)]).violations[0].rule == "CO-1.2"
    assert verify_events([setup(short, options={"deck_validation": "off"})]).verdict == "legal"


def test_option_gem_level_scope() -> None:
    accepts(captured_white_position().check(E.FollowerPlayed(player=A, card="spurring-griffin")))
    s = captured_white_position(gem_level_scope="set-only")
    rejects(s.check(E.FollowerPlayed(player=A, card="spurring-griffin")), "CO-5.2", "gem-level", "1 white", "set-only")


def test_option_colossus_ability_scope() -> None:
    s = captured_white_position()
    rejects(s.check(E.ColossusAbilityActivated(player=A, ability=0, targets=["F1"])), "CO-8.4", "colossus-gems")
    s = captured_white_position(colossus_ability_scope="colossus-gems")
    accepts(s.check(E.ColossusAbilityActivated(player=A, ability=0, targets=["F1"])))


def test_option_attack_taps_attacker() -> None:
    for taps in (True, False):
        s = duel(options={"attack_taps_attacker": taps})
        s.attack("F1")
        s.no_block()
        s.pass_window()
        s.reveal(s.filler(B))
        s.capture()
        s.end_turn()
        assert s.follower("F1").on is (not taps)
        s.attack("F2")
        r = s.check(E.BlockDeclared(player=A, blocker="F1"))
        if taps:
            rejects(r, "CO-7.5", "blocker-off", "F1")
        else:
            accepts(r)


def blocked_squire(**options: Any) -> Script:
    """alice's Squire F1 (2/2) attacks; bob's Bone Sentry F2 (2/2) blocks; the window closes."""
    s = duel(options=options)
    s.attack("F1")
    s.block("F2")
    s.pass_window()
    return s


def test_option_mutual_battle_damage() -> None:
    s = blocked_squire()
    assert s.last_derived()[0] == E.BattleResolved(player=A, attacker="F1", result="follower-damaged", follower="F2", damage=2)
    assert s.follower("F1") is not None and s.follower("F2") is None
    s = blocked_squire(mutual_battle_damage=True)
    assert s.last_derived()[0] == E.BattleResolved(player=A, attacker="F1", result="follower-damaged", follower="F2",
                                                   damage=2, counter_damage=2)
    assert s.follower("F1") is None and s.follower("F2") is None
    assert types(s.last_derived()) == ["BattleResolved", "FollowerDestroyed", "FollowerDestroyed"]


def test_option_destroy_when() -> None:
    s = blocked_squire()
    assert s.follower("F2") is None
    s = blocked_squire(destroy_when="damage-gt-defence")
    assert s.follower("F2").damage == 2  # 2 damage on Defence 2 is not more than the Defence
    s.end_turn()
    assert s.follower("F2").damage == 0


def test_option_attack_needs_attacker() -> None:
    def run_it(**options: Any) -> list[Any]:
        s = duel(b=["dark-strike"], options=options)
        s.end_turn()
        s.set_gem("black-gem")
        s.set_locus("black-gem")
        s.end_turn()
        s.attack("F1")
        s.block("F2")
        s.pass_()
        s.play("dark-strike")
        s.pass_window()
        return s.last_derived()
    assert run_it()[-1] == E.BattleResolved(player=A, attacker="F1", result="defended", follower="F2")
    # off: the destroyed Bastion Squire (2/2) still deals its printed Attack to the blocker
    assert run_it(attack_needs_attacker=False)[-2:] == [
        E.BattleResolved(player=A, attacker="F1", result="follower-damaged", follower="F2", damage=2),
        E.FollowerDestroyed(player=B, follower="F2", card="bone-sentry")]

    def unblocked(**options: Any) -> list[Any]:
        s = duel(b=["dark-strike"], options=options)
        s.end_turn()
        s.set_gem("black-gem")
        s.set_locus("black-gem")
        s.end_turn()
        s.add(E.AttackDeclared(player=A, attacker="F1", target="deck"))
        s.add(E.BlockDeclined(player=B))
        s.pass_()
        s.play("dark-strike")
        s.pass_window()
        return s.last_derived()
    assert unblocked()[-1].result == "fizzled"
    hit = unblocked(attack_needs_attacker=False)[-1]
    assert hit.result == "deck-hit" and hit.damage == 1  # Bastion Squire's printed Crush


def test_option_declaration_discard_chooser() -> None:
    for chooser, other in (("declarer", B), ("opponent", A)):
        s = declaration_position(["white-gem"] * 5 + ["bastion-squire"], options={"declaration_discard_chooser": chooser})
        s.add(E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 6]))
        rejects(s.check(E.DeclarationDiscarded(player=other, slots=[1, 2])), "CO-22", "discard-chooser", chooser)
        accepts(s.add(E.DeclarationDiscarded(player=s.other(other), slots=[1, 2])))


def test_option_simultaneous_deckout() -> None:
    # No event of this engine empties both decks at once (each draw or deck hit moves one player's
    # cards and deck-out is checked after every event), so the option can only matter when both
    # decks are empty from the start; there is no turn player yet, and the engine rules a draw
    # under both settings.  One empty deck is a plain loss under both.
    empty = E.DeckList(colossus=WHITE, cards={})
    for setting in ("draw", "turn-player-loses"):
        opts = {"deck_validation": "off", "simultaneous_deckout": setting}
        both = verify_events([setup({A: empty, B: E.DeckList(colossus=BLACK, cards={})}, options=opts)])
        assert both.verdict == "legal" and both.outcome.result == "draw" and both.outcome.reason == "deck-out"
        one = verify_events([setup({A: empty}, options=opts)])
        assert one.outcome.winner == B


@covers("CO-34")
def test_option_max_locus() -> None:
    s = Script(options={"max_locus": 1})
    accepts(s.set_locus("white-gem"), "CO-4.1")
    s.end_turn()
    s.end_turn()
    rejects(s.check(E.CardSet(player=A, card="white-gem", zone="locus")), "CO-34", "locus-full", "1 Locus cards")
    s = Script()
    s.set_locus("white-gem")
    s.end_turn()
    s.end_turn()
    accepts(s.check(E.CardSet(player=A, card="white-gem", zone="locus")))


def test_unknown_option_is_unreadable() -> None:
    from adjudicator.core.kernel.errors import LogError
    line = encode([setup(options={"max_locus": 3})]).replace(b'"max_locus":3', b'"hand_limit":7')
    with pytest.raises(LogError) as exc:
        parse_log(line)
    assert exc.value.line == 1 and exc.value.field == "options.hand_limit"


# ==================================================================================================
# derived events stated in a log
# ==================================================================================================

def test_stated_derived_events_must_match() -> None:
    s = blocked_squire()
    full = s.lines(with_derived=True)
    assert b'"type":"BattleResolved"' in full and b'"type":"TurnStarted"' in full
    assert run(parse_log(full)).verdict == "legal"
    # the same log stating a different battle result
    wrong = full.replace(b'"result":"follower-damaged","follower":"F2","damage":2',
                         b'"result":"follower-damaged","follower":"F2","damage":3')
    assert wrong != full
    res = run(parse_log(wrong))
    v = res.violations[0]
    assert (v.rule, v.code) == ("LOG-2", "core/derived-mismatch")
    assert "damage 3" in v.message and "damage 2" in v.message
    # a derived event where the engine derives nothing
    lines = s.lines().splitlines(keepends=True)
    extra = b"".join(lines[:3]) + encode([E.TurnEnded(turn=1, player=A)]) + b"".join(lines[3:])
    res = run(parse_log(extra))
    assert res.violations[0].rule == "LOG-2" and "derives nothing" in res.violations[0].message


# ==================================================================================================
# every rule id is covered
# ==================================================================================================

def test_never_rejects_ids_are_never_cited_by_a_rejection() -> None:
    from adjudicator.games.colossus_order import rules
    src = "".join(p.read_text() for p in sorted(Path(rules.__file__).parent.glob("*.py")))  # the rules' every module
    ids = re.compile(r'"(CO-[0-9.]+)"')
    cited = set(re.findall(r'bad\(\s*"(CO-[0-9.]+)"', src))
    for call in re.findall(r'(?:open_timing|in_window)\([^\n]*', src):
        cited |= set(ids.findall(call))
    for table in re.findall(r'rule = \{[^}]*\}', src):
        cited |= set(ids.findall(table))
    assert {"CO-3.4", "CO-6.1", "CO-8.2"} <= cited  # the scan finds all three forms
    assert not (cited & set(NEVER_REJECTS)), cited & set(NEVER_REJECTS)
    assert cited <= set(RULES), cited - set(RULES)


def _package_imports() -> dict[str, list[str]]:
    """Module -> the modules of the Colossus Order package it imports (every import statement,
    at module level or in a function), read from the source."""
    import ast

    from adjudicator.games.colossus_order import rules
    package = Path(rules.__file__).parent
    modules = {p.stem: p for p in package.glob("*.py")}
    graph: dict[str, list[str]] = {}
    for name, path in sorted(modules.items()):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                inside = node.level == 1 or (node.module or "").startswith("adjudicator.games.colossus_order")
                mod = (node.module or "").removeprefix("adjudicator.games.colossus_order").lstrip(".")
                if inside:
                    found |= {mod.split(".")[0]} if mod else {a.name for a in node.names}
            elif isinstance(node, ast.Import):
                found |= {a.name.rsplit(".", 1)[-1] for a in node.names if a.name.startswith("adjudicator.games.colossus_order.")}
        graph[name] = sorted(m for m in found if m in modules and m != name)
    return graph


def test_the_package_imports_in_one_direction() -> None:
    """Issue 23: no import circle among the game's modules (events -> state -> rules -> glue), the
    card data never imports what interprets it, and no module holds more than 900 lines."""
    graph = _package_imports()
    order: list[str] = []
    marks: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        assert marks.get(m) != 1, f"import circle: {' -> '.join(path[path.index(m):] + [m])}"
        if marks.get(m) == 2:
            return
        marks[m] = 1
        for d in graph[m]:
            visit(d, path + [m])
        marks[m] = 2
        order.append(m)
    for m in graph:
        visit(m, [])
    assert graph["cards"] == [] and graph["events"] == [], graph  # data and events stand alone
    assert "rules" not in {d for m, ds in graph.items() if m not in ("game", "__init__") for d in ds}
    assert graph["rules"] and "deck" in graph and "rules" not in graph["deck"]
    from adjudicator.games.colossus_order import rules
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in Path(rules.__file__).parent.glob("*.py")}
    assert max(sizes.values()) <= 900, sorted(sizes.items(), key=lambda x: -x[1])[:3]


def test_setup_context_follows_each_new_match() -> None:
    """Reference checks use the players of the match being read, never a cached older one."""
    from adjudicator.core.kernel.protocol import RefError

    first = setup(players=["p1", "p2"])
    GAME.validate_refs(first, first)
    second = setup()
    GAME.validate_refs(second, second)
    player = second.players[0]
    GAME.validate_refs(second, E.DeckShuffled(player=player))
    with pytest.raises(RefError):
        GAME.validate_refs(second, E.DeckShuffled(player="p1"))


# ==================================================================================================
# the extended vocabulary (reveal-top, mill, set-stats, flip-locus, to-deck, target conditions)
# and what is known of a deck's order
# ==================================================================================================

def red_black(a_cards: list[str], b_cards: list[str] = (), **kw: Any) -> Script:
    """Alice plays red (Ember Forge), bob black.  Turn 2: bob's Bone Sentry (F1, 2/2); turn 3:
    alice's Caoren Berserker (F2, 3/2).  Ends at alice's open timing on turn 5 with 3 Locus
    points and 3 red gems; bob has 2 of each."""
    a_list = deck(RED, ["caoren-berserker", *a_cards])
    b_list = deck(BLACK, ["bone-sentry", *b_cards])
    s = Script(hands={A: ["caoren-berserker", *a_cards], B: ["bone-sentry", *b_cards]}, decks={A: a_list, B: b_list}, **kw)
    s.set_gem("red-gem")
    s.set_locus("red-gem")
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    assert s.summon("bone-sentry") == "F1"
    s.end_turn()
    s.set_gem("red-gem")
    s.set_locus("red-gem")
    assert s.summon("caoren-berserker") == "F2"
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    s.end_turn()
    s.set_gem("red-gem")
    s.set_locus("red-gem")
    return s


def view_of(s: Script, seat: str) -> State:
    """The position as ``seat`` sees it (observe.py: what the viewers and ``state --as`` show)."""
    from adjudicator.games.colossus_order.observe import observe

    return observe(s.state(), seat)


@covers("CO-8.6", "CO-2.6")
@documents("CO-36")
def test_reveal_top_stays_on_top_known_to_both_and_binds_the_next_draw() -> None:
    blue = deck(BLUE, ["tideglass-augur", "reef-guard"])
    s = Script(hands={A: ["tideglass-augur"]}, decks={A: blue})
    s.set_gem("blue-gem")
    s.set_locus("blue-gem")
    augur = s.summon("tideglass-augur")
    s.end_turn()
    s.end_turn()  # bob's turn 2; alice draws on turn 3
    size = s.player(A).deck_count
    accepts(s.ability(augur), "CO-8.3")
    s.pass_window()
    assert isinstance(s.head(), RevealTop) and s.head().count == 1
    # the revealed card is the deck owner's to name, now and only now
    rejects(s.check(E.CardDrawn(player=A, card="reef-guard")), "CO-8.6", "out-of-step", "top card revealed by alice")
    rejects(s.check(E.TopCardRevealed(player=A, card="ash")), "CO-2.5", "not-in-deck", "★Ash★")
    rejects(s.check(E.TopCardRevealed(player=A, card=None)), "CO-2.5", "unknown-identity")
    accepts(s.add(E.TopCardRevealed(player=A, card="reef-guard")), "CO-8.6")
    p = s.player(A)
    assert p.deck_known == ("reef-guard",) and p.deck_count == size  # still part of the deck (FAQ)
    assert p.known_why == ("revealed by tideglass-augur on turn 3",)
    # known to both players: bob's view shows it, the unknown part stays hidden
    seen = view_of(s, B).player(A)
    assert seen.deck_known == ("reef-guard",) and set(seen.deck_top) == {"?"}
    # outside its step the event is refused, citing the rule that owes it
    s.end_turn()
    rejects(s.check(E.TopCardRevealed(player=A, card="reef-guard")), "CO-3.1", "out-of-step")
    s.end_main()
    # alice's draw step: the known card comes first
    rejects(s.check(E.CardDrawn(player=A, card="blue-gem")), "CO-2.6", "known-top",
            "alice draws Blue Gem", "Reef Guard is known to be on top", "revealed by Tideglass Augur on turn 3")
    accepts(s.draw("reef-guard"), "CO-2.5")
    assert s.player(A).deck_known == ()


@covers("CO-2.6")
@covers("CO-35", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_returned_cards_are_a_set_below_the_unknown_part() -> None:
    # a 9-card deck: 7 drawn, 2 returned; the returned cards come only after the 2 unknown cards,
    # and then in either order (CO-35: the log's order is not binding)
    s = nine_card_exchange(["white-gem", "bastion-squire"])
    assert s.player(A).deck_bottom == ("bastion-squire", "white-gem")
    rejects(s.check(E.CardDrawn(player=A, card="bastion-squire")), "CO-2.6", "below-unknown",
            "Bastion Squire", "returned to the bottom", "2 cards of unknown order are still above it")
    s.draw("ash")
    s.draw("ash")
    s.end_main()
    # either returned card may come first
    accepts(s.check(E.CardDrawn(player=A, card="white-gem")), "CO-2.5")
    accepts(s.check(E.CardDrawn(player=A, card="bastion-squire")), "CO-2.5")
    # the owner sees the returned set, the opponent only its size
    assert view_of(s, A).player(A).deck_bottom == ("bastion-squire", "white-gem")
    assert view_of(s, B).player(A).deck_bottom == ("?", "?")


@covers("CO-8.8")
def test_mill_puts_the_named_top_cards_into_the_discard_pile() -> None:
    s = red_black([], ["grave-tithe"])
    s.end_turn()  # bob's turn 6: 3 Locus points
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    size, discard = s.player(A).deck_count, s.player(A).discard
    accepts(s.play("grave-tithe"), "CO-8.1")
    s.pass_window()
    assert isinstance(s.head(), Mill) and s.head().player == A and s.head().count == 2
    rejects(s.check(E.CardMilled(player=B, card="black-gem")), "CO-3.1", "out-of-step", "card milled by alice")
    rejects(s.check(E.CardDrawn(player=A, card="red-gem")), "CO-8.8", "out-of-step", "card milled by alice")
    rejects(s.check(E.CardMilled(player=A, card="black-gem")), "CO-2.5", "not-in-deck", "alice mills Black Gem")
    accepts(s.add(E.CardMilled(player=A, card="red-gem")), "CO-8.8")
    accepts(s.add(E.CardMilled(player=A, card="red-gem")), "CO-8.8")
    assert s.head() is None and s.player(A).deck_count == size - 2
    assert s.player(A).discard == discard + ("red-gem", "red-gem")
    rejects(s.check(E.CardMilled(player=A, card="red-gem")), "CO-3.1", "out-of-step")


@covers("CO-8.9", "CO-37", legal=True, illegal=False)
@documents("CO-8.9", "CO-37")
def test_set_stats_replace_the_printed_value_until_end_of_turn() -> None:
    s = red_black(["molten-shackles", "flame-salamander"])
    # only an opponent's follower
    rejects(s.check(E.ActionPlayed(player=A, card="molten-shackles", targets=["F2"])), "CO-6.3", "bad-target", "'F2'")
    accepts(s.play("molten-shackles", "F1"), "CO-8.1")
    s.pass_window()
    assert s.stats("F1")[:2] == (0, 1)
    # damage is compared with the set Defence: 1 damage now destroys the 2/2 Bone Sentry
    s.play("flame-salamander", "F1")
    s.pass_window()
    assert s.follower("F1") is None and "bone-sentry" in s.player(B).discard
    accepts(s.check(E.MainPhaseEnded(player=A)))


@documents("CO-37")
def test_set_stats_order_against_boosts_by_option() -> None:
    from adjudicator.games.colossus_order.cards import SetStats
    from adjudicator.games.colossus_order.state import Follower

    fx = SetStats(attack=1)
    for option, expected in (("set-then-modify", 3), ("latest-wins", 1)):
        s = red_black([], options={"stat_setting": option})
        boosted = Follower("F2", "caoren-berserker", boost=(2, 0, 1, 0))  # +2 attack, +1 crush before the set
        after = msgspec.structs.replace(boosted, **GAME.rules.set_stats(s.state(), boosted, fx))
        assert GAME.rules.stats(s.state(), s.player(A), after)[0] == expected, option
        assert GAME.rules.stats(s.state(), s.player(A), after)[2] == 3  # crush is untouched either way
    # a boost after the set adds to the set value in both readings
    s = red_black([])
    later = Follower("F2", "caoren-berserker", set_attack=1, boost=(2, 0, 0, 0))
    assert GAME.rules.stats(s.state(), s.player(A), later)[0] == 3


def test_the_state_based_check_follows_the_pool_in_effect(tmp_path: Path) -> None:
    """The state-based check remembers the fields it last found settled, and the pool's weakening,
    per set-up and data sources in effect (issue 22): the same position judged in a pool of the same
    id where Bone Sentry's Defence is 1 destroys it (1 damage) there, and nothing again in the first."""
    from adjudicator.core.kernel import sources

    text = (Path(E.__file__).parent / "data" / "sample.toml").read_text().replace('pool = "sample"', 'pool = "club"', 1)
    plain, weak = tmp_path / "plain", tmp_path / "weak"
    plain.mkdir(), weak.mkdir()
    (plain / "club.toml").write_text(text)
    at = text.index('id = "bone-sentry"')
    end = text.index("defence = 2", at) + len("defence = 2")
    (weak / "club.toml").write_text(text[:at] + text[at:end].replace("defence = 2", "defence = 1") + text[end:])
    s = red_black([]).state()
    assert [f.card for p in s.players for f in p.field] == ["caoren-berserker", "bone-sentry"]
    bob = s.players[1]
    hurt = (msgspec.structs.replace(bob.field[0], damage=1),)
    position = msgspec.structs.replace(s, setup=msgspec.structs.replace(s.setup, pool="club", pool_sha256=None),
                                       players=(s.players[0], msgspec.structs.replace(bob, field=hurt)))
    rules = GAME.rules
    for _ in range(2):  # each time with new sources: nothing is kept from the sources before
        with sources.using(sources.Sources([plain])):
            assert rules.state_based(position) is None
            assert rules.state_based(position) is None  # (remembered)
            assert not isinstance(rules.derive(position), E.FollowerDestroyed)
            assert not isinstance(rules.derive(position), E.FollowerDestroyed)  # (derive remembers the seats)
        with sources.using(sources.Sources([weak])):
            assert rules.derive(position) == rules.state_based(position)  # the same seats, other sources
            destroyed = rules.state_based(position)
            assert isinstance(destroyed, E.FollowerDestroyed) and destroyed.card == "bone-sentry"
            assert rules.state_based(position) == destroyed
            assert rules.derive(position) == destroyed


@covers("CO-6.5")
def test_a_response_to_the_opponents_attacker_with_a_condition() -> None:
    s = red_black([], ["valdens-judgement"])
    base = s.copy()
    # the attacker's Attack is 3: Valden's Judgement destroys it in response
    s.attack("F2")
    s.no_block()
    s.pass_()
    accepts(s.play("valdens-judgement"), "CO-8.2")
    s.pass_window()
    assert s.follower("F2") is None and s.last_derived()[-1].result == "fizzled"
    # with +2 Attack (the Berserker's ability) it is out of reach
    s = base.copy()
    s.ability("F2")
    s.pass_window()
    s.attack("F2")
    s.no_block()
    s.pass_()
    rejects(s.check(E.ActionPlayed(player=B, card="valdens-judgement")), "CO-6.5", "condition-unmet",
            "F2 (Caoren Berserker) has attack 5", "attack 4 or less")
    # checked again on resolution: a boost answered after it makes it fizzle
    s = base.copy()
    s.attack("F2")
    s.no_block()
    s.pass_()
    s.play("valdens-judgement")
    s.ability("F2")
    s.pass_window()
    assert s.follower("F2") is not None


@covers("CO-6.5", legal=False)
def test_an_opponent_attacker_effect_is_no_answer_to_ones_own_attack() -> None:
    s = duel(a=["dawns-rebuke"], decks={A: deck(WHITE, ["bastion-squire", "dawns-rebuke"])})
    s.attack("F1")
    s.no_block()
    rejects(s.check(E.ActionPlayed(player=A, card="dawns-rebuke")), "CO-6.5", "own-attacker", "F1", "alice's own")


@covers("CO-2.6")
@documents("CO-36")
def test_a_follower_put_on_top_is_the_next_draw() -> None:
    s = duel(a=["dawns-rebuke"], decks={A: deck(WHITE, ["bastion-squire", "dawns-rebuke"])})
    s.end_turn()  # bob's turn 4
    s.attack("F2")
    s.no_block()
    s.pass_()
    accepts(s.play("dawns-rebuke"), "CO-8.2")
    s.pass_window()
    assert s.follower("F2") is None and s.last_derived()[-1].result == "fizzled"
    assert s.player(B).deck_known == ("bone-sentry",)
    assert view_of(s, A).player(B).deck_known == ("bone-sentry",)  # public
    s.end_turn()  # alice's turn 5
    s.end_main()
    rejects(s.check(E.CardDrawn(player=B, card="black-gem")), "CO-2.6", "known-top",
            "Bone Sentry is known to be on top of bob's deck", "put on top by Dawn's Rebuke on turn 4")
    accepts(s.draw("bone-sentry"), "CO-2.5")


@covers("CO-8.7")
@documents("CO-38")
def test_turning_locus_cards_face_up_and_face_down() -> None:
    a_list = deck(WHITE, {"bastion-squire": 1, "unveiling-dawn": 2})
    b_list = deck(BLUE, ["mistveil-keeper", "return-to-the-depths"])
    s = Script(hands={A: ["bastion-squire", "unveiling-dawn", "unveiling-dawn"], B: ["mistveil-keeper", "return-to-the-depths"]},
               decks={A: a_list, B: b_list})
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    s.end_turn()
    s.set_gem("blue-gem")
    s.set_locus("blue-gem")
    s.end_turn()
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    assert view_of(s, A).player(B).locus[0].card == "?"
    rejects(s.check(E.ActionPlayed(player=A, card="unveiling-dawn", targets=["L9"])), "CO-6.3", "bad-target", "'L9'")
    rejects(s.check(E.ActionPlayed(player=A, card="unveiling-dawn", targets=["F1"])), "CO-6.3", "bad-target")
    accepts(s.play("unveiling-dawn", "L1"), "CO-8.1")
    s.pass_window()
    assert s.player(B).locus[0].face_up and view_of(s, A).player(B).locus[0].card == "blue-gem"
    rejects(s.check(E.ActionPlayed(player=A, card="unveiling-dawn", targets=["L1"])), "CO-8.7", "already-face-up", "L1")
    squire = s.summon("bastion-squire")
    s.end_turn()
    s.set_gem("blue-gem")
    s.set_locus("blue-gem")
    rejects(s.check(E.FollowerPlayed(player=B, card="mistveil-keeper", targets=["L2"])), "CO-8.7", "already-face-down", "L2")
    accepts(s.play("mistveil-keeper", "L1"), "CO-6.1")
    s.pass_window()
    slot = s.player(B).locus[0]
    assert not slot.face_up and slot.known  # face down again, still known to alice
    assert view_of(s, A).player(B).locus[0].card == "blue-gem"
    # a face-down card again counts as a face-down Locus card (CO-3.2, CO-22)
    s.end_turn()
    s.end_turn()  # bob's turn 6: 3 Locus points, 3 blue gems
    s.set_gem("blue-gem")
    s.set_locus("blue-gem")
    # to-deck (bottom): alice's only Bastion Squire goes under everything
    accepts(s.play("return-to-the-depths", squire), "CO-8.1")
    s.pass_window()
    assert s.player(A).deck_under == ("bastion-squire",)
    s.end_main()
    rejects(s.check(E.CardDrawn(player=A, card="bastion-squire")), "CO-2.6", "below-unknown",
            "put on the bottom of the deck by an effect")


@covers("CO-2.6", legal=False, illegal=False, behaviour=True)  # the deck's answer; the rulings: the CO-2.6 tests
def test_a_deck_hit_reveals_the_known_top_card() -> None:
    from adjudicator.games.colossus_order import deck as D
    from adjudicator.games.colossus_order.state import Player

    p = Player("alice", WHITE, deck_known=("ash",), known_why=("revealed by x on turn 3",),
               deck_top=("bastion-squire", "white-gem", "white-gem"), deck_bottom=("heroic-knight",))
    assert D.top_fits(p, ["white-gem", "white-gem"], False) == (
        "CO-2.6", "known-top", "alice reveals white-gem, but ash is known to be on top of alice's deck (revealed by x on turn 3)")
    assert D.top_fits(p, ["ash", "bastion-squire"], False) is None
    assert D.top_fits(p, ["bastion-squire", "ash"], False)[1] == "known-top"  # in order, not as a multiset
    assert D.top_fits(p, ["ash", "heroic-knight"], False)[1] == "below-unknown"
    assert D.top_fits(p, ["ash", "bastion-squire", "white-gem", "white-gem", "heroic-knight"], False) is None
    assert D.top_fits(p, ["ash", "bastion-squire", "heroic-knight", "white-gem", "white-gem"], False)[1] == "below-unknown"
    left = D.take_top(p, ["ash", "white-gem"], False)
    assert left.deck_known == () and left.known_why == () and left.deck_top == ("bastion-squire", "white-gem")
    assert D.top_options(p, 2, False) == [("ash", "bastion-squire"), ("ash", "white-gem")]


@documents("CO-8.9")
def test_a_battle_stated_with_the_attack_a_set_stats_replaced_is_a_mismatch() -> None:
    s = red_black(["molten-shackles"])
    s.end_turn()  # bob's turn 6: Bone Sentry (F1, 2/2) attacks, alice blocks with the Berserker (F2)
    s.attack("F1")
    s.block("F2")
    s.pass_()
    accepts(s.play("molten-shackles", "F1"), "CO-8.2")
    s.pass_window()
    battle = next(e for e in s.last_derived() if type(e) is E.BattleResolved)
    assert (battle.follower, battle.damage) == ("F2", 0) and s.follower("F2").damage == 0
    full = s.lines(with_derived=True)
    assert run(parse_log(full)).verdict == "legal"
    wrong = full.replace(b'"result":"follower-damaged","follower":"F2"}', b'"result":"follower-damaged","follower":"F2","damage":2}')
    assert wrong != full
    v = run(parse_log(wrong)).violations[0]
    assert (v.rule, v.code) == ("LOG-2", "core/derived-mismatch") and "damage 2" in v.message


def test_generated_matches_exercise_the_new_effect_kinds() -> None:
    # random playouts (legal_events filtered by check) reach every new effect kind and the events
    # they owe; a dozen short matches suffice with the sample pool's decks
    from adjudicator.core.kernel.playout import playout

    resolved: set[str] = set()
    owed: set[str] = set()
    for seed in range(12):
        events, _ = playout(GAME, seed, with_derived=True)
        resolved |= {e.card for e in events if type(e) is E.XPlayResolved}
        owed |= {type(e).__name__ for e in events if type(e) in (E.TopCardRevealed, E.CardMilled)}
        assert run(parse_log(encode(events))).verdict == "legal"
    kinds = {type(fx).__struct_config__.tag for c in resolved for fx in POOL[c].effects + [f for a in POOL[c].abilities for f in a.effects]}
    assert {"reveal-top", "mill", "set-stats", "flip-locus", "to-deck"} <= kinds
    assert owed == {"TopCardRevealed", "CardMilled"}


@documents("CO-38")
def test_a_face_up_gem_in_the_locus_is_no_part_of_a_complete_declaration() -> None:
    s = Script(hands={A: ["unveiling-dawn"]}, decks={A: deck(WHITE, ["unveiling-dawn"])})
    s.develop(7)  # each sets a Gem on the Colossus and one as a Locus card every turn: bob has 7 Locus Gems
    assert s.tp == A and [sl.face_up for sl in s.player(B).locus] == [False] * 7
    s.play("unveiling-dawn", "L1")
    s.pass_window()
    assert s.player(B).locus[0].face_up and s.player(B).locus[0].card == "black-gem"
    s.end_main()
    rejects(s.check(E.CompleteDeclared(player=B, slots=[1, 2, 3, 4, 5, 6])), "CO-3.2", "not-face-down", "slot 1")
    accepts(s.check(E.CompleteDeclared(player=B, slots=[2, 3, 4, 5, 6, 7])), "CO-3.2")
    assert not any(type(e) is E.CompleteDeclared and 1 in e.slots for e in GAME.legal_events(s.state()))


_CARDS = ["ash", "bastion-squire", "white-gem"]


@documents("CO-36")
@given(known=st.lists(st.sampled_from(_CARDS), max_size=2), unknown=st.lists(st.sampled_from(_CARDS), max_size=4),
       returned=st.lists(st.sampled_from(_CARDS), max_size=3), under=st.lists(st.sampled_from(_CARDS), max_size=2),
       as_listed=st.booleans(), picks=st.lists(st.integers(0, 5), max_size=12))
@settings(max_examples=150, deadline=None)
def test_taking_from_the_top_follows_the_layers(known, unknown, returned, under, as_listed, picks) -> None:
    """Whatever is known of a deck, the cards the engine lets come next are exactly those it does
    not refuse, taking one keeps the rest of the deck, and a deck hit's reveal is accepted exactly
    when it is the top of some order of the deck the layers allow (CO-2.6), one reveal offered per multiset."""
    from collections import Counter
    from itertools import permutations, product

    from adjudicator.games.colossus_order import deck as D
    from adjudicator.games.colossus_order.state import Player

    p = Player(A, WHITE, deck_known=tuple(known), known_why=tuple("why" for _ in known), deck_top=tuple(sorted(unknown)),
               deck_bottom=tuple(returned if as_listed else sorted(returned)), deck_under=tuple(under))
    # the oracle: every order of the whole deck the layers allow, written out
    orders = {tuple(known) + t + b + tuple(under) for t in set(permutations(sorted(unknown)))
              for b in ({tuple(returned)} if as_listed else set(permutations(sorted(returned))))}
    for k in range(0, p.deck_count + 1):
        prefixes = {o[:k] for o in orders}
        offered = D.top_options(p, k, as_listed)
        assert set(offered) <= prefixes and {tuple(sorted(x)) for x in offered} == {tuple(sorted(x)) for x in prefixes}
        for seq in (product(_CARDS, repeat=k) if k <= 4 else prefixes):  # CO-2.6: in order, not as a multiset
            assert (D.top_fits(p, list(seq), as_listed) is None) == (seq in prefixes), (k, seq)
    for pick in picks:
        if not p.deck_count:
            break
        options = D.next_options(p, as_listed)
        assert [c for c in _CARDS if D.next_problem(p, c, as_listed, "draws") is None] == sorted(options)
        card = options[pick % len(options)]
        rest = D.take(p, card, as_listed)
        whole = Counter(p.deck_known + p.deck_top + p.deck_bottom + p.deck_under)
        whole[card] -= 1
        assert Counter(rest.deck_known + rest.deck_top + rest.deck_bottom + rest.deck_under) == +whole
        assert len(rest.known_why) == len(rest.deck_known)
        p = rest


# the unknown identities and commitments of a seat's record (CO-39, CO-40) are tested there; the
# import registers their coverage wherever this module's coverage is read
from . import test_co_unknowns  # noqa: E402,F401
from . import test_seat_colossus_order  # noqa: E402,F401
from . import test_co_knowledge  # noqa: E402,F401
from . import test_co_moves  # noqa: E402,F401


def _taken_back_draw() -> tuple[list, int, "State"]:
    """A generated match, the index of a draw of an unknown-order part of a deck after the opening,
    and the position before it."""
    from adjudicator.core.kernel.playout import playout
    from adjudicator.core.kernel.verify import settle

    events = playout(GAME, 3, max_events=120)[0]
    state = settle(GAME, GAME.initial_state(events[0]))[0]
    for i, e in enumerate(events[1:], start=1):
        if i > 20 and type(e) is E.CardDrawn and not state.player(e.player).deck_known and not state.player(e.player).deck_peek:
            return events, i, state
        state = settle(GAME, GAME.apply(state, e))[0]
    raise AssertionError("no draw to take back")


@documents("CO-44")
def test_a_draw_taken_back_stays_known_to_the_drawer_on_top_of_the_deck() -> None:
    from adjudicator.core.kernel.events import JudgeRuling

    events, i, before = _taken_back_draw()
    e = events[i]
    log = events[:i] + [e, JudgeRuling(event=i + 1, decision="taken-back")]
    back = verify_events(log).state
    p = back.player(e.player)
    assert (p.deck_peek[:1], p.peek_by, p.hand) == ((e.card,), e.player, before.player(e.player).hand)
    other = next(c for c in sorted(set(p.deck_top)) if c != e.card)
    rejects(GAME.check(back, E.CardDrawn(player=e.player, card=other)), "CO-2.6", "not-next-card", POOL[e.card].name, "looked at by")
    accepts(GAME.check(back, E.CardDrawn(player=e.player, card=e.card)), "CO-2.5")


@documents("CO-45")
def test_an_illegal_event_stands_where_its_effect_is_defined_and_says_why_where_not() -> None:
    from adjudicator.core.kernel.events import JudgeRuling

    events, i, before = _taken_back_draw()
    me = events[i].player
    declined = E.BlockDeclined(player=me)  # no block owed: it stands and changes nothing
    assert not GAME.check(before, declined).legal
    assert GAME.apply(before, declined) == before
    res = verify_events(events[:i] + [declined, JudgeRuling(event=i + 1, decision="stands")] + events[i:])
    assert res.verdict == "legal" and [w.decision for w in res.warnings] == ["stands"]
    attack = E.AttackDeclared(player=me, attacker="F99", target="deck")  # by no follower: no defined effect
    res = run(parse_log(encode(events[:i] + [attack, JudgeRuling(event=i + 1, decision="stands")] + events[i:]), "a.jsonl"),
              keep_going=True)
    assert [v.rule for v in res.violations][:2] == [GAME.check(before, attack).rule, "LOG-5"]
    assert "has no defined effect on the table: attack declared by" in res.violations[1].message
    assert "no follower 'F99' is on the field to attack" in res.violations[1].message


@documents("CO-45")
def test_a_play_let_stand_before_the_first_turn_gives_its_player_priority() -> None:
    """CO-9.2 gives the turn player priority first; before the first turn there is none: a follower
    played in the opening exchange and let stand opens a window for its player (it once gave
    priority to nobody, and the legal events named no player)."""
    from adjudicator.core.kernel.playout import playout
    from adjudicator.core.kernel.verify import settle

    events = playout(GAME, 62, max_events=40)[0]
    state = settle(GAME, GAME.initial_state(events[0]))[0]
    for e in events[1:]:
        if type(e) is E.CardDrawn and state.turn_player is None and state.player(e.player).hand:
            break
        state = settle(GAME, GAME.apply(state, e))[0]
    me = e.player
    card = next(c for c in state.player(me).hand if POOL[c].is_follower)
    play = E.FollowerPlayed(player=me, card=card)
    assert not GAME.check(state, play).legal
    after = settle(GAME, GAME.apply(state, play))[0]
    assert after.todo[0] == Window(me, 0)
    assert all(getattr(x, "player", me) == me for x in GAME.legal_events(after) if type(x) is not E.Conceded)
