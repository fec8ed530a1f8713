"""Every Trait of seed 003's component list, played and its effect checked.

``test_every_trait_has_a_test`` fails if a Trait of the package data has none.
"""

from __future__ import annotations

from typing import Callable

from adjudicator.games.colossi.state import (
    Actions, AnimalDraw, Borrow, Discard, Domineer, NamePlayer, Necro, Parasite, Peek, React, Resurrect, RevealTop,
    TakeTrait, TraitCap,
)

from .colossi_scenarios import A, B, C, NS, E, Position

TESTED: set[str] = set()


def trait(*ids: str) -> Callable:
    def mark(fn: Callable) -> Callable:
        for i in ids:
            assert i in C.traits, i
            TESTED.add(i)
        return fn
    return mark


def rejects(ruling, rule: str, code: str, *facts: str) -> None:
    assert not ruling.legal, ruling
    assert (ruling.rule, ruling.code) == (rule, NS + code), ruling
    for f in facts:
        assert f in ruling.message, (f, ruling.message)


def quiet_end(pos: Position) -> None:
    """End the turn player's turn without doing anything more (deploying nothing)."""
    pos.end_actions()
    if type(pos.head()).__name__ == "MoveBeast":
        pos.passed()
    pos.add(E.BannerPhaseChosen(player=pos.s.turn_player, choice="deploy"))
    pos.passed()


def deploy(pos: Position) -> None:
    pos.end_actions()
    if type(pos.head()).__name__ == "MoveBeast":
        pos.passed()
    pos.add(E.BannerPhaseChosen(player=pos.s.turn_player, choice="deploy"))


# == start of turn ===================================================================================

@trait("abundant")
def test_abundant_draws_two() -> None:
    pos = Position(traits={B: ["abundant"]})
    quiet_end(pos)
    assert pos.head().count == 2
    pos.add(E.CardDrawn(player=B, card="walk"))
    pos.add(E.CardDrawn(player=B, card="lure"))
    assert isinstance(pos.head(), Actions) and len(pos.p(B).hand) == 2


@trait("sly")
def test_sly_names_a_player_whose_pieces_are_roads() -> None:
    pos = Position(colossi={A: 14, B: 12}, traits={B: ["sly"]}, acolytes={(13, A): 1})
    quiet_end(pos)
    assert isinstance(pos.head(), NamePlayer)
    rejects(pos.check(E.PlayerNamed(player=B, target=B)), "CL-7.1", "sly")
    pos.add(E.PlayerNamed(player=B, target=A))
    pos.add(E.CardDrawn(player=B, card="walk"))
    pos.move(12, 13, "colossus")  # 13 holds ann's Acolyte: a road for bob this turn
    pos.move(13, 8, "colossus", road=True)
    assert pos.p(B).colossus == 8 and pos.s.info.actions == 3


@trait("mimicry")
def test_mimicry_borrows_a_trait_for_the_turn() -> None:
    pos = Position(traits={A: ["speedy"], B: ["mimicry"]})
    quiet_end(pos)
    assert isinstance(pos.head(), Borrow)
    pos.add(E.TraitBorrowed(player=B, trait="speedy"))
    assert pos.p(A).traits == () and "speedy" in pos.p(B).traits and pos.s.info.actions == 6
    pos.add(E.CardDrawn(player=B, card="walk"))
    quiet_end(pos)
    assert pos.p(A).traits == ("speedy",) and pos.p(B).traits == ("mimicry",)


@trait("soothsayer")
def test_soothsayer_peeks_and_the_draws_must_follow() -> None:
    pos = Position(traits={B: ["soothsayer"]})
    quiet_end(pos)
    assert isinstance(pos.head(), Peek)
    pos.add(E.Peeked(player=B, deck="cards"))
    assert isinstance(pos.head(), RevealTop)
    pos.add(E.TopRevealed(player=B, deck="cards", item="teleport"))
    pos.add(E.TopRevealed(player=B, deck="cards", item="pilfer"))
    # the Draw step must now draw the first card seen (CL-39)
    rejects(pos.check(E.CardDrawn(player=B, card="pilfer")), "CL-2.6", "not-in-deck", "(allowed: draw Teleport)")
    pos.add(E.CardDrawn(player=B, card="teleport"))
    assert pos.s.card_top == ("pilfer",)


# == Actions and movement ===============================================================================

@trait("ludicrously-capacious")
def test_ludicrously_capacious() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["ludicrously-capacious"]},
                   hands={A: ["walk", "walk", "lure", "lure", "pilfer", "pilfer", "secure"]})
    assert pos.s.info.actions == 5 and not isinstance(pos.head(), Discard)  # hand limit 8
    pos.move(13, 14, "colossus")
    pos.add(E.AcolyteSpawned(player=A, space=14))
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=14, to=15)), "CL-7.5", "move-limit", "2")


@trait("speedy")
def test_speedy_six_actions_one_card() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["speedy"]}, hands={A: ["pilfer", "pilfer"]})
    assert pos.s.info.actions == 6
    pos.play("pilfer")
    pos.add(E.CardDrawn(player=A, card="walk"))
    pos.add(E.CardDrawn(player=A, card="walk"))
    rejects(pos.check(E.CardPlayed(player=A, card="pilfer")), "CL-6.3", "one-card")


@trait("underworld")
def test_underworld_joins_banner_spaces() -> None:
    pos = Position(colossi={A: 3, B: 2}, banners={3: [A], 25: [A]}, traits={A: ["underworld"]})
    pos.move(3, 25, "colossus")
    assert pos.p(A).colossus == 25
    pos2 = Position(colossi={A: 3, B: 2}, banners={3: [A], 25: [A]})
    rejects(pos2.check(E.Moved(player=A, piece="colossus", space=3, to=25)), "CL-3.1", "not-adjacent")


@trait("zoophilic")
def test_zoophilic_spawns_near_a_beast() -> None:
    pos = Position(colossi={A: 13, B: 2}, beasts={"time-beast": 25}, traits={A: ["zoophilic"]})
    pos.add(E.AcolyteSpawned(player=A, space=26))
    assert pos.acol(26, A) == 1
    rejects(pos.check(E.AcolyteSpawned(player=A, space=0)), "CL-3.4", "spawn-space")


@trait("domineering")
def test_domineering_pushes_what_the_colossus_meets() -> None:
    pos = Position(colossi={A: 13, B: 14}, beasts={"time-beast": 14}, traits={A: ["domineering"]})
    pos.move(13, 14, "colossus")
    assert isinstance(pos.head(), Domineer)
    pos.add(E.Moved(player=A, piece="colossus", space=14, to=15, owner=B))
    pos.add(E.BeastMoved(player=A, beast="time-beast", to=20))
    assert pos.p(B).colossus == 15 and pos.sp(20).beasts == ("time-beast",) and isinstance(pos.head(), Actions)


@trait("boldness")
def test_boldness_buys_actions() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["boldness"]}, gold={A: 3})
    pos.add(E.ActionBought(player=A))
    assert pos.s.info.actions == 5 and pos.gold(A) == 1
    rejects(pos.check(E.ActionBought(player=A)), "CL-5.1", "not-enough-gold", "2")


@trait("mercantile")
def test_mercantile_buys_cards() -> None:
    pos = Position(traits={A: ["mercantile"]}, gold={A: 1})
    pos.add(E.CardBought(player=A))
    pos.add(E.CardDrawn(player=A, card="walk"))
    assert pos.p(A).hand == ("walk",) and pos.gold(A) == 0
    rejects(pos.check(E.CardBought(player=A)), "CL-5.1", "not-enough-gold")


@trait("beast-whisperer")
def test_beast_whisperer_once_a_turn() -> None:
    pos = Position(beasts={"golden-beast": 20}, traits={A: ["beast-whisperer"]}, gold={A: 3})
    pos.add(E.BeastMoved(player=A, beast="golden-beast", to=21))
    assert pos.gold(A) == 2 and pos.sp(21).beasts == ("golden-beast",)
    rejects(pos.check(E.BeastMoved(player=A, beast="golden-beast", to=20)), "CL-7.2", "whisperer-used")


@trait("alchemist")
def test_alchemist_turns_things_into_gold() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["alchemist", "sly"]}, hands={A: ["walk"]},
                   banners={3: [A]}, acolytes={(4, A): 1})
    pos.add(E.Alchemized(player=A, what="card", item="walk"))
    pos.add(E.Alchemized(player=A, what="trait", item="sly"))
    pos.add(E.Alchemized(player=A, what="banner", space=3))
    pos.add(E.Alchemized(player=A, what="acolyte", space=4))
    assert pos.gold(A) == 4 and pos.p(A).banners == 6 and pos.p(A).acolytes == 10 and pos.p(A).traits == ("alchemist",)
    rejects(pos.check(E.Alchemized(player=A, what="card", item="walk")), "CL-7.3", "nothing-to-turn")


# == Banners =============================================================================================

@trait("nomadic")
def test_nomadic_one_banner_scored_at_once() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["nomadic"]}, loot={13: (2, 0, 0)}, acolytes={(20, A): 1})
    deploy(pos)
    pos.add(E.BannerRaised(player=A, space=13))
    rejects(pos.check(E.BannerRaised(player=A, space=20)), "CL-4.5", "banner-cap", "1")
    pos.add(E.BannerScored(player=A, space=13))
    assert pos.gold(A) == 2 and pos.sp(13).banners == (A,)


@trait("resolute")
def test_resolute_two_banners_double_loot() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["resolute"]}, loot={13: (2, 1, 0)})
    deploy(pos)
    pos.add(E.BannerRaised(player=A, space=13))
    pos.add(E.BannerRaised(player=A, space=13))
    rejects(pos.check(E.BannerRaised(player=A, space=13)), "CL-4.3", "one-banner", "two")
    pos.passed()
    pos.add(E.CardDrawn(player=B, card="walk"))
    quiet_end(pos)
    pos.add(E.CardDrawn(player=A, card="walk"))
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    pos.add(E.BannerScored(player=A, space=13))
    assert pos.gold(A) == 4 and pos.p(A).banners == 6 and pos.head().count == 2


@trait("monolithic")
def test_monolithic_scores_the_neighbours_too() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["monolithic"]}, banners={13: [A]},
                   loot={13: (1, 0, 0), 14: (1, 0, 0), 19: (2, 0, 0), 20: (5, 0, 0)})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    pos.add(E.BannerScored(player=A, space=13))
    assert pos.gold(A) == 4  # 13, 14 and 19; 20 is not a neighbour


@trait("territorial")
def test_territorial_gold_for_a_neighbouring_banner() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={14: [B]}, traits={B: ["territorial"]})
    deploy(pos)
    pos.add(E.BannerRaised(player=A, space=13))
    assert pos.gold(B) == 1


@trait("vengeful")
def test_vengeful_kills_the_acolytes_of_a_replaced_banner() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={13: [B]}, acolytes={(13, A): 2, (13, B): 1}, traits={B: ["vengeful"]})
    deploy(pos)
    pos.add(E.BannerRaised(player=A, space=13))
    assert pos.acol(13, A) == 0 and pos.acol(13, B) == 0 and pos.sp(13).banners == (A,)


@trait("extortionist")
def test_extortionist_is_paid_for_a_replaced_banner() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={13: [B]}, traits={B: ["extortionist"]}, gold={A: 5})
    deploy(pos)
    pos.add(E.BannerRaised(player=A, space=13))
    assert (pos.gold(A), pos.gold(B)) == (3, 2)


@trait("protective")
def test_protective_guards_acolytes_and_banner_with_the_colossus() -> None:
    pos = Position(colossi={A: 13, B: 14}, acolytes={(14, B): 1}, banners={14: [B]}, traits={B: ["protective"]},
                   hands={A: ["intimidate", "purge"]})
    pos.play("intimidate")
    assert pos.acol(14, B) == 1  # guarded on bob's Colossus's space
    pos.move(13, 14, "colossus")
    deploy(pos)
    # ann has the Colossus there too; with bob's 1 Acolyte bob controls 14: not ann's anyway; a check of the
    # Banner guard: Commandeer cannot take it either
    pos2 = Position(colossi={A: 13, B: 14}, banners={14: [B]}, traits={B: ["protective"]}, hands={A: ["commandeer"]})
    rejects(pos2.check(E.CardPlayed(player=A, card="commandeer", space=14)), "CL-6.2", "no-choice")


# == deaths ===============================================================================================

@trait("blood-thirsty")
def test_blood_thirsty_gold_per_kill() -> None:
    pos = Position(colossi={A: 6, B: 20}, acolytes={(0, B): 2}, traits={A: ["blood-thirsty"]}, hands={A: ["intimidate"]})
    pos.play("intimidate")
    assert pos.gold(A) == 2


@trait("resurrecting")
def test_resurrecting_dead_acolytes_go_to_the_colossus() -> None:
    pos = Position(colossi={A: 6, B: 20}, acolytes={(0, B): 2}, traits={B: ["resurrecting"]}, hands={A: ["intimidate"]})
    pos.play("intimidate")
    assert isinstance(pos.head(), Resurrect) and pos.head().count == 2
    pos.add(E.AcolytesResurrected(player=B, count=1))
    assert pos.acol(20, B) == 1 and pos.p(B).acolytes == 9


@trait("necromancer")
def test_necromancer_replaces_a_dead_opponent_acolyte() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "volcano"}, banners={3: [A]}, acolytes={(4, A): 1},
                   traits={B: ["necromancer"]})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    pos.add(E.BannerScored(player=A, space=3))  # the Volcano kills ann's Acolyte on 4
    assert isinstance(pos.head(), Necro)
    pos.add(E.AcolytesPlaced(player=B, space=4, count=1))
    assert pos.acol(4, B) == 1


@trait("reactive")
def test_reactive_sacrifice_to_kill() -> None:
    # Ritual Sacrifice kills bob's Acolyte on 14; bob's Acolyte on 15 (next to 14) may die to kill ann's on 20
    pos = Position(colossi={A: 13, B: 2}, acolytes={(14, B): 1, (15, B): 1, (20, A): 1}, traits={B: ["reactive"]},
                   hands={A: ["ritual-sacrifice"]})
    pos.play("ritual-sacrifice")
    pos.add(E.DieRolled(player=A, value=1))
    assert isinstance(pos.head(), React) and pos.head().space == 14
    rejects(pos.check(E.Reacted(player=B, space=15, victim=A, victim_space=12)), "CL-7.4", "reactive")
    pos.add(E.Reacted(player=B, space=15, victim=A, victim_space=20))
    assert pos.acol(15, B) == 0 and pos.acol(20, A) == 0


# == Traits and cards ===========================================================================================

@trait("parasitic")
def test_parasitic_takes_a_played_card() -> None:
    pos = Position(hands={A: ["pilfer"], B: ["walk"]}, traits={B: ["parasitic"]})
    pos.play("pilfer")
    pos.add(E.CardDrawn(player=A, card="lure"))
    pos.add(E.CardDrawn(player=A, card="lure"))
    assert isinstance(pos.head(), Parasite)
    pos.add(E.CardTaken(player=B, card="pilfer", discard="walk"))
    assert pos.p(B).hand == ("pilfer",) and pos.s.discard == ("walk",)


@trait("miserly")
def test_miserly_extra_gold_and_low_caps() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["miserly"]}, hands={A: ["pity"]}, acolytes={(3, A): 3})
    pos.play("pity", target=B)
    assert pos.gold(A) == 6
    rejects(pos.check(E.AcolyteSpawned(player=A, space=13)), "CL-3.7", "acolyte-cap")


@trait("animalistic")
def test_animalistic_colossus_becomes_a_beast_until_the_next_turn_ends() -> None:
    pos = Position(colossi={A: 13, B: 2}, traits={A: ["sly"]}, banners={3: [A]}, loot={3: (0, 0, 1)},
                   trait_row=["animalistic", "speedy", "abundant"], acolytes={(14, B): 1})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    pos.add(E.BannerScored(player=A, space=3))
    assert isinstance(pos.head(), TakeTrait)
    pos.add(E.TraitTaken(player=A, trait="animalistic", source="row"))
    pos.add(E.TraitRevealed(trait="sly" if "sly" in pos.s.trait_deck else pos.s.trait_deck[0]))
    assert pos.p(A).traits == ("animalistic",) and "sly" in pos.s.trait_discard
    assert isinstance(pos.head(), AnimalDraw)
    pos.add(E.BeastDrawn(player=A, beast="blood-beast"))
    assert pos.p(A).animal == "blood-beast"
    pos.add(E.CardDrawn(player=B, card="walk"))
    quiet_end(pos)
    pos.add(E.CardDrawn(player=A, card="walk"))
    pos.move(13, 14, "colossus")  # acts as the Blood Beast: bob's Acolyte there dies
    assert pos.acol(14, B) == 0
    quiet_end(pos)  # the end of ann's next turn: both go
    assert pos.p(A).traits == () and pos.p(A).animal is None


def test_trait_limit_two() -> None:
    pos = Position(traits={A: ["sly", "speedy"]}, hands={A: ["steal"]}, )
    pos2 = Position(traits={A: ["sly", "speedy"], B: ["abundant"]}, hands={A: ["steal"]})
    pos2.play("steal", trait="abundant")
    assert isinstance(pos2.head(), TraitCap)
    rejects(pos2.check(E.TraitDiscarded(player=A, trait="miserly")), "CL-5.3", "trait-cap")
    assert pos.p(A).traits == ("sly", "speedy")


def test_every_trait_has_a_test() -> None:
    assert sorted(set(C.traits) - TESTED) == []
    assert len(C.traits) == 27
