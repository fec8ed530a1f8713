"""Every tile of seed 003's component list (Grass, Starting tiles, Environments, Lairs and their
Beasts): its Loot, its scoring effect or trigger, and each Lair Beast's passive, played and checked.

``test_every_tile_and_beast_has_a_test`` fails if a tile or Beast of the package data has none.
"""

from __future__ import annotations

from typing import Callable

from adjudicator.core.kernel.events import CardsMoved
from adjudicator.games.colossi.state import (
    Actions, Explore, Hungry, Launch, Maar, Mantle, Market, Rest, Speedy, TakeTrait, Teleporter, TradeBack, TradeGive,
    Tribute, Void, VoidTile, Wind,
)

from .colossi_scenarios import A, B, C, CC, NS, E, Match, Position

TESTED: set[str] = set()


def tile(*ids: str) -> Callable:
    def mark(fn: Callable) -> Callable:
        for i in ids:
            assert i in C.tiles or i in C.beasts, i
            TESTED.add(i)
        return fn
    return mark


def rejects(ruling, rule: str, code: str, *facts: str) -> None:
    assert not ruling.legal, ruling
    assert (ruling.rule, ruling.code) == (rule, NS + code), ruling
    for f in facts:
        assert f in ruling.message, (f, ruling.message)


def to_rest(pos: Position) -> None:
    pos.end_actions()
    if type(pos.head()).__name__ == "MoveBeast":
        pos.passed()
    pos.add(E.BannerPhaseChosen(player=pos.s.turn_player, choice="rest"))
    assert isinstance(pos.head(), Rest)


def score(pos: Position, space: int, keep: bool = False) -> None:
    pos.add(E.BannerScored(player=pos.s.turn_player, space=space, keep=keep))


# == Loot ============================================================================================

@tile("grass-gold", "grass-blue", "grass-green", "start")
def test_replenish_and_loot_of_grass_and_starting_tiles() -> None:
    m = Match().play_setup(starts={A: 12, B: 14})
    # ann explores 13 (the tile deck is named by the log) and ends her turn quietly
    m.move(12, 13, "colossus")
    m.add(E.TileExplored(space=13, tile="grass-green"))
    assert m.sp(13).loot == 0  # CL-8: its Loot comes at the next Replenish
    m.end_actions()
    m.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    m.add(E.BannerRaised(player=A, space=13))
    m.passed()
    # bob's turn starts: Replenish fills every Loot tile without cubes (CL-10)
    rep = [d for d in m.last_derived() if type(d) is E.LootReplenished][0]
    assert rep.spaces == [13]
    assert (m.sp(13).green, m.sp(12).gold, m.sp(12).blue) == (1, 1, 1)
    assert C.tiles["grass-gold"].produces == {"gold": 1} and C.tiles["grass-blue"].produces == {"blue": 1}
    assert C.tiles["start"].produces == {"gold": 1, "blue": 1}
    assert sum(C.tiles[g].copies for g in C.grass) == 16


@tile("grass-gold", "grass-blue", "grass-green")
def test_scoring_loot_gold_cards_and_traits() -> None:
    pos = Position(colossi={A: 13, B: 2}, banners={3: [A]}, loot={3: (2, 1, 1)}, trait_row=["sly", "speedy", "abundant"])
    to_rest(pos)
    score(pos, 3)
    assert pos.gold(A) == 2 and pos.sp(3).loot == 0  # CL-11: the cubes leave the space
    pos.add(E.CardDrawn(player=A, card="walk"))
    assert isinstance(pos.head(), TakeTrait)
    pos.add(E.TraitTaken(player=A, trait="speedy", source="row"))
    pos.add(E.TraitRevealed(trait="sly" if "sly" in pos.s.trait_deck else pos.s.trait_deck[0]))
    assert "speedy" in pos.p(A).traits and pos.p(A).hand == ("walk",) and len(pos.s.trait_row) == 3


# == Environments ======================================================================================

@tile("beast-mantle")
def test_beast_mantle_moves_a_beast_anywhere() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "beast-mantle"}, banners={3: [A]}, beasts={"time-beast": 20})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), Mantle)
    pos.add(E.BeastMoved(player=A, beast="time-beast", to=0))
    assert pos.sp(0).beasts == ("time-beast",)


@tile("deep-mines")
def test_deep_mines_gold_on_reveal_and_growing_after_rests() -> None:
    pos = Position(colossi={A: 13, B: 2}, unexplored=[14], tile_deck=["deep-mines"], banners={20: [A]})
    pos.move(13, 14, "colossus")
    pos.add(E.TileExplored(space=14, tile="deep-mines"))
    assert pos.sp(14).gold == 3
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    pos.add(E.BannerRaised(player=A, space=14))
    pos.passed()
    # bob plays on; next time ann rests on the Mines she takes 3, then 4 are added; then 5
    pos.add(E.CardDrawn(player=B, card="walk"))
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=B, choice="deploy"))
    pos.passed()
    pos.add(E.CardDrawn(player=A, card="walk"))
    to_rest(pos)
    score(pos, 14)
    assert pos.gold(A) == 3 and pos.sp(14).gold == 4 and pos.sp(14).mines == 1


@tile("golden-dunes")
def test_golden_dunes_gold_for_each_entry_and_road_passage() -> None:
    pos = Position(colossi={A: 12, B: 2}, tiles={13: "golden-dunes"}, acolytes={(13, A): 1})
    pos.move(12, 13, "colossus")  # enters the Dunes: +1 cube, and 13 holds ann's Acolyte: a road
    pos.move(13, 14, "colossus", road=True)
    pos.move(13, 12, "acolyte")
    pos.move(12, 13, "acolyte")
    assert pos.sp(13).gold == 2


@tile("hallowed-ground")
def test_hallowed_ground_two_gold_per_own_acolyte() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "hallowed-ground"}, banners={3: [A]}, acolytes={(3, A): 2, (3, B): 1})
    to_rest(pos)
    score(pos, 3)
    assert pos.gold(A) == 4


@tile("launchpad")
def test_launchpad_lifts_everything_around_and_puts_it_anywhere() -> None:
    pos = Position(colossi={A: 13, B: 4}, tiles={3: "launchpad"}, banners={3: [A], 9: [B]}, acolytes={(8, B): 1},
                   loot={2: (1, 0, 0)})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), Launch)
    # around 3 (neighbours in direction order E, W, SW, SE): bob's Colossus on 4, a gold cube on 2,
    # bob's Acolyte on 8, bob's Banner on 9, lifted in that order (CL-38)
    items = [(it.component, it.owner, it.space) for it in pos.head().items]
    assert items == [("colossus", B, 4), ("gold", None, 2), ("acolyte", B, 8), ("banner", B, 9)]
    pos.add(E.ComponentMoved(player=A, component="colossus", space=4, to=26, owner=B))
    pos.add(E.ComponentMoved(player=A, component="gold", space=2, to=13))
    rejects(pos.check(E.ComponentMoved(player=A, component="acolyte", space=8, to=3, owner=A)), "CL-6.4", "launchpad")
    pos.add(E.ComponentMoved(player=A, component="acolyte", space=8, to=26, owner=B))
    pos.add(E.ComponentMoved(player=A, component="banner", space=9, to=25, owner=B))
    assert pos.p(B).colossus == 26 and pos.acol(26, B) == 1 and pos.sp(25).banners == (B,) and pos.sp(13).gold == 1


@tile("magnetic-maar")
def test_magnetic_maar_pulls_a_neighbours_loot_first() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "magnetic-maar"}, banners={3: [A]}, loot={3: (1, 0, 0), 4: (2, 0, 0)})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), Maar)
    rejects(pos.check(E.SpaceChosen(player=A, space=20)), "CL-6.4", "magnetic-maar")
    pos.add(E.SpaceChosen(player=A, space=4))
    assert pos.gold(A) == 3


@tile("market")
def test_market_sells_cards() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "market"}, banners={3: [A]}, hands={A: ["walk", "lure", "pilfer"]})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), Market)
    pos.add(E.CardDiscarded(player=A, card="walk"))
    pos.add(E.CardDiscarded(player=A, card="lure"))
    pos.passed()
    assert pos.gold(A) == 2 and pos.p(A).hand == ("pilfer",)


@tile("moat")
def test_moat_gold_per_controlled_neighbour_and_a_steal() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "moat"}, banners={3: [A]}, acolytes={(4, A): 1, (8, A): 1},
                   gold={B: 5})
    to_rest(pos)
    score(pos, 3)
    # 3's neighbours: 4 (ann), 2 (bob's Colossus), 8 (ann), 9 -> 2 Gold, and 1 taken from bob
    assert (pos.gold(A), pos.gold(B)) == (3, 4)


@tile("mountaintop-of-the-giants")
def test_mountaintop_kills_acolytes_not_colossi() -> None:
    pos = Position(colossi={A: 12, B: 2}, tiles={13: "mountaintop-of-the-giants"}, acolytes={(12, A): 1})
    pos.move(12, 13, "acolyte")
    assert pos.acol(13, A) == 0 and pos.p(A).acolytes == 10
    pos.move(12, 13, "colossus")
    assert pos.p(A).colossus == 13


@tile("oasis")
def test_oasis_new_hand_of_six() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "oasis"}, banners={3: [A]}, hands={A: ["walk", "lure"]})
    to_rest(pos)
    score(pos, 3)
    # the hand goes face up to the discard pile, written as one event (CL-42)
    pos.add(CardsMoved(owner=A, from_zone="hand", to_zone="discard", cards=["lure", "walk"], seen_by=[A, B],
                       player=A, source="oasis"))
    assert pos.p(A).hand == () and sorted(pos.s.discard) == ["lure", "walk"]
    for c in ("pilfer", "pilfer", "secure", "secure", "secure", "teleport"):
        pos.add(E.CardDrawn(player=A, card=c))
    assert len(pos.p(A).hand) == 6


@tile("ruins")
def test_ruins_each_opponent_gives_a_card_or_two_gold() -> None:
    pos = Position([A, B, CC], colossi={A: 13, B: 2, CC: 24}, tiles={3: "ruins"}, banners={3: [A]},
                   hands={B: ["walk"], CC: []}, gold={B: 3, CC: 1})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), Tribute) and pos.head().player == B
    pos.add(E.CardGiven(player=B, to=A, card="walk"))
    # cid has no card: pays what there is (CL-24)
    assert pos.p(A).hand == ("walk",) and pos.gold(CC) == 0 and pos.gold(A) == 1


@tile("speedy-slopes")
def test_speedy_slopes_all_acolytes_here_then_each_moves_once() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "speedy-slopes"}, banners={3: [A]}, acolytes={(20, A): 8})
    to_rest(pos)
    score(pos, 3)
    assert pos.acol(3, A) == 2 and isinstance(pos.head(), Speedy)
    pos.move(3, 4)
    rejects(pos.check(E.Moved(player=A, piece="acolyte", space=4, to=10)), "CL-6.4", "speedy-slopes")
    pos.move(20, 21)
    pos.passed()
    assert (pos.acol(3, A), pos.acol(4, A), pos.acol(20, A), pos.acol(21, A)) == (1, 1, 7, 1)


@tile("teleporter")
def test_teleporter_swaps_two_spaces_then_scores_the_other() -> None:
    pos = Position(colossi={A: 13, B: 20}, tiles={3: "teleporter", 20: "hallowed-ground"}, banners={3: [A]},
                   acolytes={(3, A): 1}, loot={20: (2, 0, 0)})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), Teleporter)
    pos.add(E.SpaceChosen(player=A, space=20))
    # bob's Colossus and the 2 gold cubes went to 3, ann's Acolyte to 20; then 20 (Hallowed Ground) is
    # scored for ann: 2 Gold for her Acolyte there
    assert pos.p(B).colossus == 3 and pos.acol(20, A) == 1 and pos.sp(3).gold == 2 and pos.gold(A) == 2


@tile("trading-post")
def test_trading_post_cards_for_different_cards_or_gold() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "trading-post"}, banners={3: [A]},
                   hands={A: ["walk", "lure"], B: ["pilfer"]}, gold={B: 4})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), TradeGive)
    pos.add(E.CardGiven(player=A, to=B, card="walk"))
    assert isinstance(pos.head(), TradeBack)
    rejects(pos.check(E.CardGiven(player=B, to=A, card="walk")), "CL-6.4", "trade")  # not a different card
    pos.add(E.GoldPaid(player=B, to=A, amount=2))
    assert pos.gold(A) == 2 and pos.p(B).hand == ("pilfer", "walk")


@tile("treasure-trove")
def test_treasure_trove_gold_when_a_banner_goes_up() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={13: "treasure-trove"}, banners={13: [B]})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    pos.add(E.BannerRaised(player=A, space=13))  # replaces bob's Banner
    assert pos.sp(13).gold == 3 and pos.p(B).banners == 6


@tile("the-void")
def test_the_void_replaces_a_tile_and_scores_own_banner() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "the-void", 20: "volcano"}, banners={3: [A], 20: [A]},
                   tile_deck=["hallowed-ground"], acolytes={(20, A): 1})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), Void)
    pos.add(E.SpaceChosen(player=A, space=20))
    assert isinstance(pos.head(), VoidTile)
    pos.add(E.TileReplaced(space=20, tile="hallowed-ground"))
    assert pos.sp(20).tile == "hallowed-ground" and "volcano" in pos.s.tile_box
    assert pos.gold(A) == 2  # ann's Banner there: scored (Hallowed Ground, one Acolyte)


@tile("volcano")
def test_volcano_kills_everything_around() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "volcano"}, banners={3: [A]},
                   acolytes={(3, B): 1, (4, A): 2, (20, B): 1})
    to_rest(pos)
    score(pos, 3)
    assert pos.acol(3, B) == 0 and pos.acol(4, A) == 0 and pos.acol(20, B) == 1


# == Lairs and their Beasts ===============================================================================

@tile("lair-wind-beast")
def test_exploring_a_lair_brings_its_beast() -> None:
    pos = Position(colossi={A: 12, B: 2}, unexplored=[13], tile_deck=["lair-wind-beast", "grass-gold"])
    pos.move(12, 13, "colossus")
    assert isinstance(pos.head(), Explore)
    pos.add(E.TileExplored(space=13, tile="lair-wind-beast"))
    assert pos.sp(13).beasts == ("wind-beast",)


@tile("lair-blood-beast", "blood-beast")
def test_blood_beast() -> None:
    pos = Position(colossi={A: 12, B: 2}, tiles={3: "lair-blood-beast"}, banners={3: [A]},
                   beasts={"blood-beast": 20}, acolytes={(12, A): 1, (21, B): 2, (25, A): 1})
    pos.move(12, 13, "acolyte")
    pos.move(13, 19, "acolyte")  # next to the Beast: fine
    pos.move(19, 20, "acolyte")  # onto the Beast: dies (passive)
    assert pos.acol(20, A) == 0 and pos.p(A).acolytes == 9
    pos.end_actions()
    pos.passed()  # no Beast move
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    score(pos, 3)  # the lair kills every Acolyte on or next to the Beast (20: 21 and 25 are neighbours)
    assert pos.acol(21, B) == 0 and pos.acol(25, A) == 0


@tile("lair-golden-beast", "golden-beast")
def test_golden_beast() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "lair-golden-beast"}, banners={3: [A]}, beasts={"golden-beast": 20})
    pos.end_actions()
    pos.add(E.BeastMoved(player=A, beast="golden-beast", to=21))
    assert pos.sp(20).gold == 1  # it drops a cube where it was
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    score(pos, 3)
    assert all(pos.sp(a).gold >= 1 for a in (15, 20, 26))


@tile("lair-hungry-beast", "hungry-beast")
def test_hungry_beast() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "lair-hungry-beast", 21: "oasis"}, banners={3: [A]},
                   beasts={"hungry-beast": 20},
                   loot={20: (2, 1, 0)})
    pos.end_actions()
    pos.add(E.BeastMoved(player=A, beast="hungry-beast", to=21))
    assert pos.sp(20).loot == 0 and (pos.sp(21).gold, pos.sp(21).blue) == (2, 1)  # carried along
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    score(pos, 3)
    assert isinstance(pos.head(), Hungry)
    pos.add(E.ComponentMoved(player=A, component="gold", space=21, to=15))
    pos.add(E.ComponentMoved(player=A, component="gold", space=21, to=26))
    rejects(pos.check(E.ComponentMoved(player=A, component="blue", space=21, to=3)), "CL-6.4", "hungry-beast")
    pos.add(E.ComponentMoved(player=A, component="blue", space=21, to=20))
    assert pos.sp(21).loot == 0 and (pos.sp(15).gold, pos.sp(26).gold, pos.sp(20).blue) == (1, 1, 1)


@tile("lair-bountiful-beast", "bountiful-beast")
def test_bountiful_beast() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "lair-bountiful-beast", 21: "grass-blue"}, banners={3: [A]},
                   beasts={"bountiful-beast": 20})
    pos.end_actions()
    pos.add(E.BeastMoved(player=A, beast="bountiful-beast", to=21))
    assert pos.sp(21).blue == 1  # entering a Loot tile makes it yield
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    score(pos, 3)
    assert pos.sp(21).blue == 2 and pos.sp(15).gold == 1 and pos.sp(20).gold == 1


@tile("lair-stone-beast", "stone-beast")
def test_stone_beast() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "lair-stone-beast"}, banners={3: [A], 20: [B], 21: [A]},
                   beasts={"stone-beast": 20}, acolytes={(20, A): 2, (20, B): 1}, hands={A: ["ritual-sacrifice"]})
    # guarded: bob's Banner on the Beast's space cannot be replaced
    pos.end_actions()
    pos.passed()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    rejects(pos.check(E.BannerScored(player=A, space=21, keep=True)), "CL-4.6", "cannot-keep")
    score(pos, 3, keep=True)  # the lair: up to 2 Banners stay after scoring
    score(pos, 21, keep=True)
    assert pos.sp(3).banners == (A,) and pos.sp(21).banners == (A,)
    pos2 = Position(colossi={A: 13, B: 2}, beasts={"stone-beast": 20}, banners={20: [B]}, acolytes={(20, A): 2})
    pos2.end_actions()
    pos2.passed()
    pos2.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    rejects(pos2.check(E.BannerRaised(player=A, space=20)), "CL-4.3", "guarded-banner", "Stone Beast")


@tile("stone-beast")
def test_stone_beast_acolytes_cannot_be_killed_or_pushed() -> None:
    pos = Position(colossi={A: 13, B: 2}, beasts={"stone-beast": 14}, acolytes={(14, B): 2}, hands={A: ["intimidate"]})
    pos.play("intimidate")
    assert pos.acol(14, B) == 2


@tile("lair-time-beast", "time-beast")
def test_time_beast() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "lair-time-beast"}, banners={3: [A], 21: [B]},
                   beasts={"time-beast": 20}, loot={21: (2, 0, 0)})
    pos.end_actions()
    pos.add(E.BeastMoved(player=A, beast="time-beast", to=21))  # scores bob's Banner for bob (it stays)
    assert pos.gold(B) == 2 and pos.sp(21).banners == (B,)
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    score(pos, 3)
    # after the Rest: 2 more Actions for ann
    assert isinstance(pos.head(), Actions) and pos.head().extra and pos.s.info.actions == 2
    pos.move(13, 14, "colossus")
    pos.move(14, 15, "colossus")
    pos.end_actions()
    assert pos.s.turn_player == B


@tile("lair-wind-beast", "wind-beast")
def test_wind_beast() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "lair-wind-beast"}, banners={3: [A]}, beasts={"wind-beast": 20},
                   acolytes={(20, A): 2, (0, B): 1, (26, B): 1})
    pos.end_actions()
    pos.add(E.BeastMoved(player=A, beast="wind-beast", to=21))
    assert pos.acol(21, A) == 2 and pos.acol(20, A) == 0  # carried along
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    score(pos, 3)
    assert isinstance(pos.head(), Wind)
    pos.add(E.DirectionChosen(player=A, direction="E"))
    # 21 is on the east edge: ann's two die; bob's on 0 moves to 1; 26 is the edge too
    assert pos.acol(21, A) == 0 and pos.acol(1, B) == 1 and pos.acol(26, B) == 0 and pos.p(B).acolytes == 9


def test_every_tile_and_beast_has_a_test() -> None:
    assert sorted((set(C.tiles) | set(C.beasts)) - TESTED) == []
    assert len(C.environments) == 17 and len(C.lairs) == 7
