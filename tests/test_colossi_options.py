"""Colossi ruleset options where the seed is silent and tables differ (issue 32, item 9; CL-23,
CL-46, CL-47): each one both ways, today's reading the default.

- ``discards_shown`` (CL-46): a hand-limit discard and the Oasis' discard shown to every seat, or
  face down (the other seats' records write ``"?"``, the discard pile's cards are hidden from them,
  the Oasis' move is seen by its owner alone), checked on positions and over generated matches;
- ``void_tile`` (CL-23): The Void's new tile from the tile deck first, or from the box first;
- ``trade_different`` (CL-47): a Trade's different card is another name, or another copy too.
"""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.core.kernel.events import HIDDEN, CardsMoved
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import positions_before, redact_log
from adjudicator.core.kernel.verify import run
from adjudicator.games.colossi.state import Discard, NewHand, TradeBack, TradeGive, Void, VoidTile

from .colossi_scenarios import A, B, GAME, E, Position
from .test_colossi_tiles import rejects, score, to_rest


# == CL-46 discards shown or face down ==================================================================

@pytest.mark.parametrize("shown", [True, False])
def test_a_hand_limit_discard_is_shown_or_face_down(shown: bool) -> None:
    pos = Position(hands={A: ["poverty", "walk", "walk", "lure", "lure"]}, options={"discards_shown": shown})
    pos.play("poverty")
    assert isinstance(pos.head(), Discard)
    before = pos.s
    ev = E.CardDiscarded(player=A, card="lure")
    pos.add(ev)
    assert GAME.redact(ev, A, before) == ev  # its owner sees it
    seen = GAME.redact(ev, B, before)
    assert seen.card == ("lure" if shown else HIDDEN)
    assert ("lure" in GAME.observe(pos.s, B).discard) == shown
    assert len(GAME.observe(pos.s, B).discard) == len(pos.s.discard)  # (the pile's size stays public)


@pytest.mark.parametrize("shown", [True, False])
def test_the_oasis_discard_is_seen_by_every_seat_or_by_its_owner(shown: bool) -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "oasis"}, banners={3: [A]}, hands={A: ["walk", "lure"]},
                   options={"discards_shown": shown})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), NewHand)
    everyone = CardsMoved(owner=A, from_zone="hand", to_zone="discard", cards=["walk", "lure"], seen_by=[A, B],
                          player=A, source="oasis")
    owner = msgspec.structs.replace(everyone, seen_by=[A])
    right, wrong = (everyone, owner) if shown else (owner, everyone)
    rejects(pos.check(wrong), "CL-42", "oasis-hand")
    before = pos.s
    pos.add(right)
    assert GAME.redact(right, B, before).cards == (["walk", "lure"] if shown else [HIDDEN, HIDDEN])


def _discards(events: list) -> list[int]:
    before = positions_before(parse_log(to_jsonl(events), "m"))
    return [k for k, e in enumerate(events) if type(e) is E.CardDiscarded and before[k].todo
            and type(before[k].todo[0]) is Discard]


def test_face_down_discards_over_generated_matches() -> None:
    """Matches played under ``discards_shown = false``: legal; every hand-limit discard is ``"?"``
    in the other seats' records, named in its owner's; every record verifies without an illegal
    verdict.  The same matches under the default name it in every record."""
    found = 0
    for seed in range(12):
        base = GAME.sample_setup(seed)
        for shown in (False, True):
            setup = msgspec.structs.replace(base, options={**base.options, "discards_shown": shown})
            events, _ = playout(GAME, seed, setup=setup, max_events=400)
            ks = _discards(events)
            if not ks:
                continue
            assert run(parse_log(to_jsonl(events), "m")).verdict == "legal"
            for seat in events[0].players:
                record = list(redact_log(parse_log(to_jsonl(events), "m"), seat))
                for k in ks:
                    mine = events[k].player == seat
                    assert (record[k].card == events[k].card) == (mine or shown), (seed, shown, seat, k)
                res = run(parse_log(to_jsonl(record), f"m@{seat}"))
                assert res.verdict != "illegal", [v.as_dict() for v in res.violations]
            found += 1
        if found >= 4:
            break
    assert found >= 4


# == CL-23 The Void's new tile ==========================================================================

@pytest.mark.parametrize("where", ["deck-first", "box-first"])
def test_the_voids_new_tile_comes_from_the_deck_or_the_box_first(where: str) -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "the-void", 20: "volcano"}, banners={3: [A], 20: [A]},
                   tile_deck=["grass-blue"], acolytes={(20, A): 1}, options={"void_tile": where})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), Void)
    pos.add(E.SpaceChosen(player=A, space=20))
    assert isinstance(pos.head(), VoidTile)
    box = sorted(set(pos.s.tile_box))
    legal = sorted(e.tile for e in pos.legal())
    assert legal == (["grass-blue"] if where == "deck-first" else box)
    other = next(t for t in box if t != "volcano")
    assert pos.check(E.TileReplaced(space=20, tile=other)).legal == (where == "box-first")
    assert pos.check(E.TileReplaced(space=20, tile="grass-blue")).legal == (where == "deck-first")
    pos.add(E.TileReplaced(space=20, tile=legal[0]))
    assert pos.sp(20).tile == legal[0]
    assert pos.s.tile_deck == (("grass-blue",) if where == "box-first" else ())  # the deck kept, or drawn from


# == CL-47 a Trade's different card ==========================================================================

@pytest.mark.parametrize("different", ["name", "copy"])
def test_a_trades_different_card_is_another_name_or_another_copy(different: str) -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "trading-post"}, banners={3: [A]},
                   hands={A: ["walk", "lure"], B: ["walk"]}, gold={B: 4}, options={"trade_different": different})
    to_rest(pos)
    score(pos, 3)
    assert isinstance(pos.head(), TradeGive)
    pos.add(E.CardGiven(player=A, to=B, card="walk"))  # bob now holds two copies of walk
    if different == "name":  # no other name: the 2 Gold are paid, nothing is asked
        assert not isinstance(pos.head(), TradeBack)
        assert pos.p(B).hand == ("walk", "walk") and pos.gold(B) == 2 and pos.gold(A) == 2
        return
    assert isinstance(pos.head(), TradeBack)
    back = E.CardGiven(player=B, to=A, card="walk")
    assert sorted(type(e).__name__ for e in pos.legal()) == ["CardGiven", "GoldPaid"]
    pos.add(back)  # another copy of it
    assert pos.p(B).hand == ("walk",) and pos.gold(B) == 4


def test_a_copy_of_the_card_received_is_not_different_by_name() -> None:
    """With another name in hand too, the default still refuses a copy of the card received."""
    for different in ("name", "copy"):
        pos = Position(colossi={A: 13, B: 2}, tiles={3: "trading-post"}, banners={3: [A]},
                       hands={A: ["walk", "lure"], B: ["walk", "pilfer"]}, gold={B: 4},
                       options={"trade_different": different})
        to_rest(pos)
        score(pos, 3)
        pos.add(E.CardGiven(player=A, to=B, card="walk"))
        assert isinstance(pos.head(), TradeBack)
        r = pos.check(E.CardGiven(player=B, to=A, card="walk"))
        if different == "name":
            rejects(r, "CL-6.4", "trade")
        else:
            assert r.legal


@pytest.mark.parametrize("different", ["name", "copy"])
def test_a_hand_of_only_the_card_received_pays_the_gold_either_way(different: str) -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "trading-post"}, banners={3: [A]},
                   hands={A: ["walk", "lure"]}, gold={B: 4}, options={"trade_different": different})
    to_rest(pos)
    score(pos, 3)
    pos.add(E.CardGiven(player=A, to=B, card="walk"))
    assert not isinstance(pos.head(), TradeBack) and pos.gold(B) == 2 and pos.gold(A) == 2


# == CL-48 Growth's Traits ====================================================================================

def test_growths_traits_turned_up_or_passed_face_down_over_generated_matches() -> None:
    """Matches with a Growth played under each reading: every seat's record names each
    ``TraitDrawn`` (public) or only the Growth player's does (private, ``"?"`` in the others);
    no record is illegal; under the private reading a seat sees the pool only once it has
    been passed to it (a record may be undetermined on other hidden cards, never illegal)."""
    found = 0
    for seed in (6, 8, 14, 15, 23):
        base = GAME.sample_setup(seed)
        for how in ("public", "private"):
            setup = msgspec.structs.replace(base, options={**base.options, "growth_traits": how})
            events, _ = playout(GAME, seed, setup=setup, max_events=400)
            before = positions_before(parse_log(to_jsonl(events), "m"))
            ks = [k for k, e in enumerate(events) if type(e) is E.TraitDrawn]
            assert ks, seed
            grower = next(t.player for t in before[ks[0]].todo if type(t).__name__ == "GrowthPick")
            for seat in events[0].players:
                record = list(redact_log(parse_log(to_jsonl(events), "m"), seat))
                for k in ks:
                    assert (record[k].trait == events[k].trait) == (how == "public" or seat == grower), (seed, seat, k)
                res = run(parse_log(to_jsonl(record), f"m@{seat}"))
                assert res.verdict != "illegal", [v.as_dict() for v in res.violations]
                pool = before[ks[-1] + 1].growth  # the whole pool drawn, before the first choice
                shown = GAME.observe(before[ks[-1] + 1], seat).growth
                assert (shown == pool) == (how == "public" or seat == grower), (seed, seat)
            found += 1
    assert found == 10


def test_an_unknown_trait_is_allowed_in_a_growth_draw_only() -> None:
    from adjudicator.core.kernel.errors import LogError

    events, _ = playout(GAME, 6, max_events=60)
    bad = events + [E.TraitTaken(player=events[0].players[0], trait=HIDDEN, source="row")]
    with pytest.raises(LogError, match="only a Trait drawn face down"):
        parse_log(to_jsonl(bad), "bad")
