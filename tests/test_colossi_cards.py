"""Every Colossus card of seed 003's component list: played, and its effect checked.

One test per card id (the copies of a card share it); ``test_every_card_has_a_test`` fails if a
card of the package data has none.  Positions are made up with ``Position`` (turn 1, ann to act):
on the default island 13's neighbours are 14 E, 8 NE, 7 NW, 12 W, 18 SW and 19 SE.
"""

from __future__ import annotations

from typing import Callable

from adjudicator.games.colossi.state import (
    Companions, Contribute, Deploy, Discard, Dominion, Draw, GrowthDrop, GrowthPick, Influence, Mimesis, Miracle,
    PlaceChoice, Purge, Recall, Rest, Rolls, Sabotage, Solidarity, TraitCap, Walk,
)

from .colossi_scenarios import A, B, C, CC, NS, E, Position

TESTED: set[str] = set()


def card(*ids: str) -> Callable:
    def mark(fn: Callable) -> Callable:
        for i in ids:
            assert i in C.cards, i
            TESTED.add(i)
        return fn
    return mark


def rejects(ruling, rule: str, code: str, *facts: str) -> None:
    assert not ruling.legal, ruling
    assert (ruling.rule, ruling.code) == (rule, NS + code), ruling
    for f in facts:
        assert f in ruling.message, (f, ruling.message)


def draw(pos: Position, *cards: str) -> None:
    for c in cards:
        pos.add(E.CardDrawn(player=pos.head().player, card=c))


# == Actions ========================================================================================

@card("bolster")
def test_bolster_one_acolyte_on_each_space_with_one() -> None:
    pos = Position(acolytes={(3, A): 1, (5, A): 2, (20, B): 1}, hands={A: ["bolster"]})
    pos.play("bolster")
    assert (pos.acol(3, A), pos.acol(5, A), pos.acol(20, B)) == (2, 3, 1)
    assert pos.p(A).acolytes == 5 and pos.s.info.actions == 3


@card("bolster")
def test_bolster_short_of_acolytes_lets_the_player_choose() -> None:
    # Sacrifice: at most 4 on the board; 3 spaces with 1 each -> only 1 more: the player picks
    pos = Position(acolytes={(3, A): 1, (5, A): 1, (20, A): 1}, hands={A: ["bolster"]}, curses={A: ["sacrifice"]})
    pos.play("bolster")
    assert isinstance(pos.head(), PlaceChoice) and pos.head().left == 1
    rejects(pos.check(E.SpaceChosen(player=A, space=4)), "CL-6.4", "place-choice", "choose 4")
    pos.add(E.SpaceChosen(player=A, space=20))
    assert (pos.acol(3, A), pos.acol(5, A), pos.acol(20, A)) == (1, 1, 2)


@card("commandeer")
def test_commandeer_replaces_an_opponents_banner() -> None:
    pos = Position(banners={5: [B], 6: [A]}, hands={A: ["commandeer"]})
    rejects(pos.check(E.CardPlayed(player=A, card="commandeer", space=6)), "CL-6.2", "bad-choice", "possible: space 5")
    rejects(pos.check(E.CardPlayed(player=A, card="commandeer")), "CL-6.2", "bad-choice")
    pos.play("commandeer", space=5)
    assert pos.sp(5).banners == (A,) and pos.p(B).banners == 6 and pos.p(A).banners == 4


@card("convene")
def test_convene_pulls_adjacent_acolytes() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(14, B): 2, (7, A): 1, (15, B): 1}, hands={A: ["convene"]})
    pos.play("convene")
    assert pos.acol(13, B) == 2 and pos.acol(13, A) == 1 and pos.acol(15, B) == 1
    assert pos.acol(14, B) == 0 and pos.acol(7, A) == 0


@card("convert")
def test_convert_replaces_opponent_acolytes_until_the_hand_is_out() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(13, B): 3, (20, A): 8}, hands={A: ["convert"]})
    pos.play("convert")
    assert pos.acol(13, A) == 2 and pos.acol(13, B) == 1  # ann had 2 Acolytes in hand
    assert pos.p(B).acolytes == 7 + 2 and pos.p(A).acolytes == 0


@card("dominate")
def test_dominate_first_action_then_deploy_and_rest() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={3: [A]}, loot={3: (2, 0, 0), 13: (1, 0, 0)},
                   hands={A: ["dominate", "pilfer"]})
    pos.play("dominate")
    assert pos.s.info.actions == 0
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=13, to=14)), "CL-6.3", "after-dominate")
    rejects(pos.check(E.CardPlayed(player=A, card="pilfer")), "CL-6.3", "after-dominate")
    pos.end_actions()
    assert isinstance(pos.head(), Deploy) and isinstance(pos.s.todo[1], Rest)
    pos.add(E.BannerRaised(player=A, space=13))
    pos.passed()
    pos.add(E.BannerScored(player=A, space=3))
    pos.add(E.BannerScored(player=A, space=13))
    assert pos.gold(A) == 2 + 1  # the Loot of 3, then 13's grass


@card("dominate")
def test_dominate_must_be_the_first_action() -> None:
    pos = Position(colossi={A: 13, B: 2}, hands={A: ["dominate"]})
    pos.move(13, 14, "colossus")
    rejects(pos.check(E.CardPlayed(player=A, card="dominate")), "CL-6.3", "dominate-first", "first Action")


@card("influence", "divine-influence")
def test_influence_each_player_moves_an_opponents_colossus() -> None:
    for c in ("influence", "divine-influence"):
        pos = Position(colossi={A: 13, B: 20}, acolytes={(15, B): 1}, hands={A: [c]})
        pos.play(c)
        assert isinstance(pos.head(), Influence) and pos.head().player == A
        rejects(pos.check(E.Moved(player=A, piece="colossus", space=13, to=14, owner=A)), "CL-6.4", "influence")
        # ann moves bob's Colossus 20 -> 15, which holds bob's Acolyte: it may ride bob's road on
        pos.add(E.Moved(player=A, piece="colossus", space=20, to=15, owner=B))
        pos.add(E.Moved(player=A, piece="colossus", space=15, to=10, owner=B, road=True))
        assert pos.p(B).colossus == 10
        # 10 holds nothing of bob's: ann's part ends by itself; bob moves ann's Colossus
        assert isinstance(pos.head(), Influence) and pos.head().player == B
        pos.add(E.Moved(player=B, piece="colossus", space=13, to=18, owner=A))
        assert pos.p(A).colossus == 18 and pos.s.info.actions == 3


@card("intimidate")
def test_intimidate_pushes_adjacent_acolytes_away() -> None:
    # ann's Colossus on 6: 0 is its NW neighbour and has nothing further NW (off the island)
    pos = Position(colossi={A: 6, B: 20}, acolytes={(0, B): 2, (7, B): 1, (12, A): 1}, hands={A: ["intimidate"]})
    pos.play("intimidate")
    assert pos.acol(0, B) == 0 and pos.p(B).acolytes == 10 - 1  # two died, back in hand
    assert pos.acol(8, B) == 1 and pos.acol(18, A) == 1  # 7 -> E 8; 12 -> SE 18


@card("magnetize")
def test_magnetize_moves_loot_to_the_colossus() -> None:
    pos = Position(colossi={A: 13, B: 2}, loot={20: (2, 1, 1)}, hands={A: ["magnetize"]})
    rejects(pos.check(E.CardPlayed(player=A, card="magnetize", space=19)), "CL-6.2", "bad-choice")
    pos.play("magnetize", space=20)
    assert (pos.sp(13).gold, pos.sp(13).blue, pos.sp(13).green) == (2, 1, 1) and pos.sp(20).loot == 0


@card("pilfer")
def test_pilfer_draws_two() -> None:
    pos = Position(hands={A: ["pilfer"]})
    pos.play("pilfer")
    assert isinstance(pos.head(), Draw) and pos.head().count == 2
    draw(pos, "walk", "lure")
    assert pos.p(A).hand == ("lure", "walk")
    assert pos.s.discard == ("pilfer",)


@card("purge")
def test_purge_moves_each_acolyte_to_a_neighbour_of_choice() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(13, A): 1, (13, B): 1}, hands={A: ["purge"]})
    pos.play("purge")
    assert isinstance(pos.head(), Purge)
    rejects(pos.check(E.Moved(player=A, piece="acolyte", space=13, to=20, owner=B)), "CL-6.4", "purge")
    pos.add(E.Moved(player=A, piece="acolyte", space=13, to=14, owner=B))
    pos.add(E.Moved(player=A, piece="acolyte", space=13, to=7))
    assert pos.acol(14, B) == 1 and pos.acol(7, A) == 1 and not isinstance(pos.head(), Purge)


@card("recall")
def test_recall_brings_any_number_of_acolytes_home() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(3, A): 1, (20, A): 2}, hands={A: ["recall"]})
    pos.play("recall")
    pos.add(E.Moved(player=A, piece="acolyte", space=20, to=13))
    pos.add(E.Moved(player=A, piece="acolyte", space=3, to=13))
    assert isinstance(pos.head(), Recall)
    pos.passed()
    assert pos.acol(13, A) == 2 and pos.acol(20, A) == 1


@card("replace")
def test_replace_swaps_two_colossi() -> None:
    pos = Position([A, B, CC], colossi={A: 13, B: 20, CC: 2}, hands={A: ["replace"]})
    rejects(pos.check(E.CardPlayed(player=A, card="replace", targets=[B])), "CL-6.2", "bad-choice")
    pos.play("replace", targets=[CC, B])  # any order
    assert (pos.p(B).colossus, pos.p(CC).colossus) == (2, 20)


@card("ritual-sacrifice")
def test_ritual_sacrifice_rolls_for_every_acolyte_near() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(13, A): 1, (14, B): 2, (20, B): 1}, hands={A: ["ritual-sacrifice"]})
    pos.play("ritual-sacrifice")
    assert isinstance(pos.head(), Rolls) and len(pos.head().victims) == 3
    rejects(pos.check(E.DieRolled(player=A, value=7)), "CL-2.6", "die")
    pos.add(E.DieRolled(player=A, value=3))  # ann's own on 13 survives
    pos.add(E.DieRolled(player=A, value=2))  # one of bob's on 14 dies
    pos.add(E.DieRolled(player=A, value=6))
    assert (pos.acol(13, A), pos.acol(14, B), pos.acol(20, B)) == (1, 1, 1)


@card("sabotage")
def test_sabotage_removes_unguarded_banners() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={3: [B], 5: [B], 20: [A], 9: [B]}, acolytes={(5, A): 1},
                   hands={A: ["sabotage"]})
    pos.play("sabotage")
    assert isinstance(pos.head(), Sabotage)
    rejects(pos.check(E.SpaceChosen(player=A, space=5)), "CL-6.4", "sabotage")
    pos.add(E.SpaceChosen(player=A, space=3))
    pos.add(E.SpaceChosen(player=A, space=20))
    pos.passed()
    assert pos.sp(3).banners == () and pos.sp(20).banners == () and pos.sp(5).banners == (B,)
    assert pos.p(B).banners == 6 - 2 and pos.p(A).banners == 6


@card("secure")
def test_secure_trades_acolytes_for_a_banner() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(3, A): 2, (5, A): 1}, banners={3: [B]}, hands={A: ["secure"]})
    rejects(pos.check(E.CardPlayed(player=A, card="secure", space=5)), "CL-6.2", "bad-choice", "possible: space 3")
    pos.play("secure", space=3)
    assert pos.acol(3, A) == 0 and pos.p(A).acolytes == 9 and pos.sp(3).banners == (A,) and pos.p(B).banners == 6


@card("short-rest")
def test_short_rest_scores_one_banner_now() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={3: [A]}, loot={3: (2, 1, 0)}, hands={A: ["short-rest"]})
    pos.play("short-rest", space=3)
    draw(pos, "walk")
    assert pos.gold(A) == 2 and "walk" in pos.p(A).hand and pos.p(A).banners == 6 and pos.sp(3).loot == 0


@card("steal")
def test_steal_takes_an_opponents_trait() -> None:
    pos = Position(traits={A: ["sly", "abundant"], B: ["speedy"]}, hands={A: ["steal"]})
    rejects(pos.check(E.CardPlayed(player=A, card="steal", trait="sly")), "CL-6.2", "bad-choice")
    pos.play("steal", trait="speedy")
    assert pos.p(B).traits == () and "speedy" in pos.p(A).traits
    assert isinstance(pos.head(), TraitCap)  # three Traits: discard one
    pos.add(E.TraitDiscarded(player=A, trait="sly"))
    assert pos.p(A).traits == ("abundant", "speedy") and pos.s.trait_discard == ("sly",)


@card("teleport")
def test_teleport_moves_any_colossus_anywhere() -> None:
    pos = Position(colossi={A: 13, B: 2}, unexplored=[26], tile_deck=["volcano"], hands={A: ["teleport"]})
    pos.play("teleport", target=B, space=26)
    assert pos.p(B).colossus == 26
    pos.add(E.TileExplored(space=26, tile="volcano"))  # an unexplored space is explored (CL-29)
    assert pos.sp(26).tile == "volcano"


@card("vandalize")
def test_vandalize_discards_an_opponents_trait() -> None:
    pos = Position(traits={B: ["speedy", "sly"]}, hands={A: ["vandalize"]})
    pos.play("vandalize", trait="sly")
    assert pos.p(B).traits == ("speedy",) and pos.s.trait_discard == ("sly",)


# == Beast cards ======================================================================================

@card("lure")
def test_lure_puts_a_beast_on_the_colossus() -> None:
    pos = Position(colossi={A: 13, B: 2}, beasts={"golden-beast": 25}, hands={A: ["lure"]})
    pos.play("lure", beast="golden-beast")
    assert pos.sp(13).beasts == ("golden-beast",) and pos.sp(25).gold == 1  # it leaves a cube where it was


@card("walk")
def test_walk_moves_a_beast_twice() -> None:
    pos = Position(colossi={A: 13, B: 2}, beasts={"time-beast": 25}, unexplored=[26], hands={A: ["walk"]})
    pos.play("walk", beast="time-beast")
    assert isinstance(pos.head(), Walk)
    rejects(pos.check(E.BeastMoved(player=A, beast="time-beast", to=26)), "CL-6.4", "walk")  # unexplored (CL-12)
    pos.add(E.BeastMoved(player=A, beast="time-beast", to=20))
    pos.add(E.BeastMoved(player=A, beast="time-beast", to=15))
    assert pos.sp(15).beasts == ("time-beast",) and not isinstance(pos.head(), Walk)


@card("rampage")
def test_rampage_runs_to_the_edge() -> None:
    pos = Position(colossi={A: 13, B: 2}, beasts={"blood-beast": 11}, acolytes={(13, B): 1, (14, A): 1},
                   hands={A: ["rampage"]})
    pos.play("rampage", beast="blood-beast", direction="E")
    # 11 -> 12 -> 13 (bob's Acolyte dies) -> 14 (ann's dies) -> 15, the east edge
    assert pos.sp(15).beasts == ("blood-beast",)
    assert pos.acol(13, B) == 0 and pos.acol(14, A) == 0


@card("rampage")
def test_rampage_stops_before_an_unexplored_space() -> None:
    pos = Position(colossi={A: 13, B: 2}, beasts={"wind-beast": 11}, unexplored=[14], hands={A: ["rampage"]})
    pos.play("rampage", beast="wind-beast", direction="E")
    assert pos.sp(13).beasts == ("wind-beast",)


# == Curses ===========================================================================================

@card("austerity")
def test_austerity_one_trait_and_5_gold() -> None:
    pos = Position(traits={A: ["sly", "speedy"]}, hands={A: ["austerity"]})
    pos.play("austerity")
    assert pos.gold(A) == 5 and pos.p(A).curses == ("austerity",) and isinstance(pos.head(), TraitCap)
    pos.add(E.TraitDiscarded(player=A, trait="speedy"))
    assert pos.p(A).traits == ("sly",) and pos.s.discard == ()  # the curse stays in front of ann


@card("concession")
def test_concession_three_banners() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={3: [A], 4: [A], 5: [A]}, hands={A: ["concession"]})
    pos.play("concession")
    assert pos.gold(A) == 5
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    rejects(pos.check(E.BannerRaised(player=A, space=13)), "CL-4.5", "banner-cap", "3")


@card("haste")
def test_haste_ends_the_turn() -> None:
    pos = Position(colossi={A: 13, B: 2}, hands={A: ["haste"], B: []})
    pos.play("haste")
    assert pos.gold(A) == 5 and pos.s.turn_player == B  # no Beast move, no Banner phase
    assert [type(e).__name__ for e in pos.last_derived()][:2] == ["TurnEnded", "TurnStarted"]


@card("poverty")
def test_poverty_hand_limit_3() -> None:
    pos = Position(hands={A: ["poverty", "walk", "walk", "lure", "lure"]})
    pos.play("poverty")
    assert isinstance(pos.head(), Discard)
    pos.add(E.CardDiscarded(player=A, card="lure"))
    assert len(pos.p(A).hand) == 3 and pos.gold(A) == 5


@card("pity")
def test_pity_10_and_5() -> None:
    pos = Position([A, B, CC], hands={A: ["pity"]})
    rejects(pos.check(E.CardPlayed(player=A, card="pity", target=A)), "CL-6.2", "bad-choice")
    pos.play("pity", target=CC)
    assert (pos.gold(A), pos.gold(B), pos.gold(CC)) == (5, 0, 10)


@card("sacrifice")
def test_sacrifice_four_acolytes() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(3, A): 4}, hands={A: ["sacrifice"]})
    pos.play("sacrifice")
    assert pos.gold(A) == 5
    rejects(pos.check(E.AcolyteSpawned(player=A, space=13)), "CL-3.7", "acolyte-cap")


@card("totality")
def test_totality_everything_back_to_hand() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(3, A): 2, (13, A): 1, (13, B): 1}, banners={3: [A], 4: [B]},
                   hands={A: ["totality"]})
    pos.play("totality")
    assert pos.p(A).acolytes == 10 and pos.p(A).banners == 6 and pos.gold(A) == 5
    assert pos.acol(13, B) == 1 and pos.sp(4).banners == (B,)


# == Divine Gifts =====================================================================================

@card("abundance")
def test_abundance_three_for_me_one_for_the_others() -> None:
    pos = Position([A, B, CC], hands={A: ["abundance"]})
    pos.play("abundance")
    draw(pos, "walk", "walk", "lure")
    draw(pos, "pilfer")
    draw(pos, "secure")
    assert len(pos.p(A).hand) == 3 and pos.p(B).hand == ("pilfer",) and pos.p(CC).hand == ("secure",)


@card("audacity")
def test_audacity_two_gold_per_controlled_space_near_a_beast() -> None:
    pos = Position(colossi={A: 13, B: 2}, beasts={"stone-beast": 14}, acolytes={(15, A): 1, (20, B): 1, (3, A): 1},
                   hands={A: ["audacity"]})
    pos.play("audacity")
    # ann controls 13 and 15 (next to the Beast on 14), bob controls 20 (next to 14); 3 and 2 are far
    assert (pos.gold(A), pos.gold(B)) == (4, 2)


@card("authority")
def test_authority_gold_per_opponent_acolyte_on_own_space() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(13, B): 3, (2, A): 1}, hands={A: ["authority"]})
    pos.play("authority")
    assert (pos.gold(A), pos.gold(B)) == (3, 1)


@card("companionship")
def test_companionship_everyone_may_add_up_to_three() -> None:
    pos = Position(colossi={A: 13, B: 2}, hands={A: ["companionship"]})
    pos.play("companionship", target=B)
    assert isinstance(pos.head(), Companions)
    rejects(pos.check(E.AcolytesPlaced(player=A, space=2, count=4)), "CL-6.4", "companionship")
    pos.add(E.AcolytesPlaced(player=A, space=2, count=3))
    pos.passed(B)
    assert pos.acol(2, A) == 3 and pos.acol(2, B) == 0


@card("comradery")
def test_comradery_three_gold_when_sharing() -> None:
    pos = Position([A, B, CC], colossi={A: 13, B: 13, CC: 2}, hands={A: ["comradery"]})
    pos.play("comradery")
    assert (pos.gold(A), pos.gold(B), pos.gold(CC)) == (3, 3, 0)


@card("diplomacy")
def test_diplomacy_gold_for_acolytes_on_foreign_spaces() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(2, A): 2, (13, B): 1, (20, A): 1}, hands={A: ["diplomacy"]})
    pos.play("diplomacy")
    assert (pos.gold(A), pos.gold(B)) == (2, 1)


@card("dominion")
def test_dominion_everyone_may_raise_a_banner_anywhere_free() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={20: [B]}, hands={A: ["dominion"]})
    pos.play("dominion")
    assert isinstance(pos.head(), Dominion)
    rejects(pos.check(E.BannerRaised(player=A, space=20)), "CL-6.4", "dominion")
    pos.add(E.BannerRaised(player=A, space=21))  # no control needed
    pos.add(E.BannerRaised(player=B, space=22))
    assert pos.sp(21).banners == (A,) and pos.sp(22).banners == (B,)


@card("fortitude")
def test_fortitude_gold_per_controlled_neighbour() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(14, A): 1, (7, A): 1, (8, B): 1, (3, B): 1}, hands={A: ["fortitude"]})
    pos.play("fortitude")
    # ann: 14 and 7; bob (Colossus on 2): 8 and 3 (8 borders both Colossi)
    assert (pos.gold(A), pos.gold(B)) == (2, 2)


@card("miracle")
def test_miracle_everyone_may_score_a_banner() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={3: [A], 20: [B]}, loot={3: (2, 0, 0), 20: (1, 0, 0)},
                   hands={A: ["miracle"]})
    pos.play("miracle")
    assert isinstance(pos.head(), Miracle)
    pos.add(E.BannerScored(player=A, space=3))
    pos.add(E.BannerScored(player=B, space=20))
    assert (pos.gold(A), pos.gold(B)) == (2, 1) and pos.p(A).banners == 6 and pos.p(B).banners == 6


@card("reinforcements")
def test_reinforcements_an_acolyte_on_each_banner() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={3: [A], 4: [A], 20: [B]}, hands={A: ["reinforcements"]})
    pos.play("reinforcements")
    assert (pos.acol(3, A), pos.acol(4, A), pos.acol(20, B)) == (1, 1, 1)


@card("solidarity")
def test_solidarity_most_acolytes_in_hand_places_all() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(3, A): 4}, hands={A: ["solidarity"]})
    pos.play("solidarity")
    assert isinstance(pos.head(), Solidarity) and pos.head().player == B
    rejects(pos.check(E.AcolytesPlaced(player=B, space=20, count=5)), "CL-6.4", "solidarity")
    pos.add(E.AcolytesPlaced(player=B, space=20, count=10))
    assert pos.acol(20, B) == 10


@card("solidarity")
def test_solidarity_tie_does_nothing() -> None:
    pos = Position(colossi={A: 13, B: 2}, hands={A: ["solidarity"]})
    pos.play("solidarity")
    assert not isinstance(pos.head(), Solidarity)


@card("solitude")
def test_solitude_three_gold_when_alone() -> None:
    pos = Position(colossi={A: 13, B: 2}, acolytes={(3, A): 1}, hands={A: ["solitude"]})
    pos.play("solitude")
    assert (pos.gold(A), pos.gold(B)) == (3, 0)


@card("windfall")
def test_windfall_scores_every_colossus_space() -> None:
    pos = Position(colossi={A: 13, B: 2}, loot={13: (2, 0, 0), 2: (1, 0, 0)}, hands={A: ["windfall"]})
    pos.play("windfall")
    assert (pos.gold(A), pos.gold(B)) == (2, 1) and pos.sp(13).loot == 0


@card("exchange")
def test_exchange_contribute_for_gold_then_deal() -> None:
    pos = Position(colossi={A: 13, B: 2}, hands={A: ["exchange", "walk", "lure"], B: ["pilfer"]})
    pos.play("exchange")
    assert isinstance(pos.head(), Contribute)
    pos.add(E.CardsContributed(player=A, cards=["walk", "lure"]))
    pos.add(E.CardsContributed(player=B, cards=["pilfer"]))
    assert (pos.gold(A), pos.gold(B)) == (2, 1) and sorted(pos.s.pile) == ["lure", "pilfer", "walk"]
    pos.add(E.CardDealt(player=A, card="pilfer"))
    rejects(pos.check(E.CardDealt(player=B, card="secure")), "CL-2.6", "not-in-deck")
    pos.add(E.CardDealt(player=B, card="walk"))
    pos.add(E.CardDealt(player=A, card="lure"))
    assert pos.p(A).hand == ("lure", "pilfer") and pos.p(B).hand == ("walk",)


@card("growth")
def test_growth_pass_a_pool_of_traits() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["sly"]}, hands={A: ["growth"]})
    pos.play("growth")
    pos.add(E.TraitDrawn(trait="speedy"))
    pos.add(E.TraitDrawn(trait="abundant"))
    assert isinstance(pos.head(), GrowthPick) and pos.head().player == A
    pos.add(E.TraitTaken(player=A, trait="speedy", source="growth"))
    assert isinstance(pos.head(), GrowthDrop)
    pos.add(E.TraitDiscarded(player=A, trait="speedy"))  # may drop it at once
    pos.add(E.TraitTaken(player=B, trait="abundant", source="growth"))
    pos.passed(B)
    assert pos.p(A).traits == ("sly",) and pos.p(B).traits == ("abundant",)


@card("mimesis")
def test_mimesis_each_may_steal_starting_left() -> None:
    pos = Position([A, B, CC], traits={A: ["sly"], CC: ["speedy"]}, hands={A: ["mimesis"]})
    pos.play("mimesis")
    assert isinstance(pos.head(), Mimesis) and pos.head().player == B
    pos.add(E.TraitStolen(player=B, trait="sly"))
    pos.passed(CC)
    pos.add(E.TraitStolen(player=A, trait="speedy"))
    assert pos.p(B).traits == ("sly",) and pos.p(A).traits == ("speedy",) and pos.p(CC).traits == ()


@card("harvest")
def test_harvest_colossus_spaces_yield_again() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={2: "grass-blue"}, loot={13: (1, 0, 0)}, hands={A: ["harvest"]})
    pos.play("harvest")
    assert pos.sp(13).gold == 2 and pos.sp(2).blue == 1


def test_every_card_has_a_test() -> None:
    assert sorted(set(C.cards) - TESTED) == []
    assert len(C.deck) == 64
