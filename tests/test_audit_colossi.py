"""An independent audit of Colossi against its seed text: the set-up, the turn, movement, control,
Banners, the end, as properties over generated matches under every ruleset option.

Each property restates a sentence of the seed (quoted in its docstring) with its own small oracle
(tests/colossi_audit_oracle.py: the island read from the board file, control from the seed's
table), checks that what the rule allows is listed by ``legal_events`` and accepted by ``check``,
and that what it forbids is refused with the rule id docs/rules/colossi.md gives.  Players under a
Trait, a Curse or a Beast form are left to the component tests: the oracle is the seed's basic
rules.  ``ADJUDICATOR_PROPERTY_SCALE=N`` draws more matches.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from .colossi_audit_oracle import (
    GAME, KINDS, YIELD, acolytes_at, card_copies, check, controller, decode, head, head_kind, key,
    legal_keys, neighbours, plain, setup_of, trace, trait_ids,
)
from .colossi_scenarios import E

SEEDS = st.integers(0, 1_000_000)


def costly(s, e, tp: str) -> bool:
    """Seed: "it costs 1 Action to move your Colossus or an Acolyte 1 space"; "For the cost of 1
    Movement, place an Acolyte"; an Action may "play a Colossus card" (CL-5 option)."""
    if type(e) is E.Moved:
        return e.player == tp and not e.road and e.owner is None and head_kind(s) == "Actions"
    if type(e) is E.AcolyteSpawned:
        return True
    if type(e) is E.CardPlayed:
        return s.options.card_costs_action
    return False


def turns(steps):
    """Split a trace into turns: (turn player, the decisions taken in that turn's position)."""
    out: list[tuple[str, list]] = []
    for stp in steps:
        b = stp.before
        if b.turn < 1 or b.turn_player is None:
            continue
        if not out or out[-1][0] != (b.turn, b.turn_player):
            out.append(((b.turn, b.turn_player), []))
        out[-1][1].append(stp)
    return [(tp, ts) for (_, tp), ts in out]


# == set-up ========================================================================================

@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_setup_deals_what_the_seed_lists(seed: int) -> None:
    """Setup: "1 Starting Environment tile, 1 Colossus, 6 Banners, and 10 Acolytes"; "Deal each
    player 3 Colossus Cards"; "16 Grass Tiles ... 2 [Lairs] ... draw 8 [Environments] ... these 26
    Tiles"; "lay out 3 face-up [Traits]" and "each player has a Trait"; Colossi on their Starting
    Environment, placed on unoccupied spaces, with its Loot cubes."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=60)
    ids = list(setup.players)
    placed = next(k for k, stp in enumerate(steps) if any(type(d) is E.TurnStarted for d in stp.derived))
    s = steps[placed].after
    first = s.first
    order = ids[ids.index(first):] + ids[:ids.index(first)]
    deck = Counter(s.tile_deck) + Counter(s.tile_top)
    assert sum(deck.values()) == 26
    assert deck["grass-gold"] + deck["grass-blue"] + deck["grass-green"] == 16
    assert sum(n for t, n in deck.items() if KINDS[t][0] == "lair") == 2
    assert sum(n for t, n in deck.items() if KINDS[t][0] == "environment") == 8
    assert all(n == 1 for t, n in deck.items() if KINDS[t][0] != "grass")
    starts = [stp.event for stp in steps[:placed + 1] if type(stp.event) is E.StartPlaced]
    assert [e.player for e in starts] == order
    assert len({e.space for e in starts}) == len(ids)
    dealt = [stp.event.player for stp in steps[:placed + 1] if type(stp.event) is E.CardDrawn]
    assert dealt == [p for p in order for _ in range(3)]
    traits_on = s.options.use_traits
    drafted = [stp.event.player for stp in steps[:placed + 1] if type(stp.event) is E.TraitTaken]
    assert drafted == (order if traits_on else [])
    assert len(s.trait_row) == (3 if traits_on else 0)
    for e in starts:
        p = s.player(e.player)
        sp = s.spaces[e.space]
        assert p.colossus == e.space and sp.colossi == (e.player,) and sp.tile == "start" and sp.owner == e.player
        assert (sp.gold, sp.blue, sp.green) == (YIELD["start"].get("gold", 0), YIELD["start"].get("blue", 0),
                                                YIELD["start"].get("green", 0))
        assert len(p.hand) == 3 and p.banners == 6 and p.acolytes == 10 and p.gold == 0
        assert len(p.traits) == (1 if traits_on else 0)
    assert s.turn_player == first
    # both directions at each placement: any space without a tile, never one with a tile
    for stp in steps[:placed + 1]:
        if type(stp.event) is not E.StartPlaced:
            continue
        b = stp.before
        for i, sp in enumerate(b.spaces):
            r = check(b, E.StartPlaced(player=stp.event.player, space=i))
            assert r.legal == (sp.tile is None), (i, r)
            if not r.legal:
                assert r.rule == "CL-1.6", r
        other = next(p for p in ids if p != stp.event.player)
        r = check(b, E.StartPlaced(player=other, space=stp.event.space))
        assert not r.legal


# == the turn ======================================================================================

@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_turns_go_round_and_start_with_replenish_then_a_draw(seed: int) -> None:
    """Gameplay: turns in seat order; Action Phase 1 "Replenish: For any tile that produces Loot
    cubes, but currently has no Loot cubes on it, place corresponding Loot cubes on it", 2 "Draw:
    Draw 1 Colossus Card" before any Action."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=700)
    ids = list(setup.players)
    started = [d for stp in steps for d in stp.derived if type(d) is E.TurnStarted]
    assert started, "no turn started"
    first = ids.index(started[0].player)
    assert [d.player for d in started] == [ids[(first + k) % len(ids)] for k in range(len(started))]
    assert [d.turn for d in started] == list(range(1, len(started) + 1))
    for stp in steps:
        for d in stp.derived:
            if type(d) is E.LootReplenished:
                a = stp.after
                for i, sp in enumerate(a.spaces):
                    y = YIELD.get(sp.tile or "", {})
                    if i in d.spaces:
                        assert y, (i, sp.tile)
                        assert (sp.gold, sp.blue, sp.green) >= (y.get("gold", 0), y.get("blue", 0), y.get("green", 0))
                    elif y and not sp.beasts:
                        assert sp.loot > 0, (i, sp.tile, d.spaces)
    for tp, tsteps in turns(steps):
        acts = [k for k, stp in enumerate(tsteps) if costly(stp.before, stp.event, tp)]
        if not acts:
            continue
        before_first = tsteps[:acts[0]]
        drawn = [stp for stp in before_first if type(stp.event) is E.CardDrawn and stp.event.player == tp]
        s0 = tsteps[0].before if tsteps else None
        if s0 is not None and plain(tsteps[0].after, tp) and (s0.card_deck or s0.card_top or s0.discard and s0.options.reshuffle_discard):
            assert len(drawn) >= 1, (tp, [type(x.event).__name__ for x in before_first])


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_a_plain_turn_has_four_actions(seed: int) -> None:
    """Action Phase 3: "Take 4 Actions"; Movement: "You have 4 Actions on your turn".  For a player
    with no Trait or Curse, no Time Beast's Lair on the island: at most 4 paid Actions a turn, and
    with 4 used every paid move, spawn or card is refused (CL-2.3)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    for tp, tsteps in turns(steps):
        if not tsteps or not all(plain(stp.before, tp) for stp in tsteps):
            continue
        if any(sp.tile == "lair-time-beast" for stp in tsteps for sp in stp.after.spaces):
            continue
        if any(type(stp.event) is E.CardPlayed and stp.event.card == "dominate" for stp in tsteps):
            continue
        used = 0
        for stp in tsteps:
            if costly(stp.before, stp.event, tp) and head_kind(stp.before) == "Actions":
                used += 1
            s = stp.after
            h = head(s)
            if used >= 4 and type(h).__name__ == "Actions" and h.player == tp:
                p = s.player(tp)
                c = p.colossus
                for n in sorted(neighbours(s.options.board)[c])[:2]:
                    r = check(s, E.Moved(player=tp, piece="colossus", space=c, to=n))
                    assert not r.legal and r.rule == "CL-2.3", r
                if p.acolytes:
                    r = check(s, E.AcolyteSpawned(player=tp, space=c))
                    assert not r.legal and r.rule == "CL-2.3", r
                for card in sorted(set(p.hand))[:2]:
                    r = check(s, E.CardPlayed(player=tp, card=card))
                    if s.options.card_costs_action:
                        assert not r.legal, r
        assert used <= 4, (tp, used)


# == movement ======================================================================================

def _actions_positions(steps, tp_plain: bool = True):
    for stp in steps:
        s = stp.after
        h = head(s)
        if type(h).__name__ == "Actions" and s.turn_player == h.player and (not tp_plain or plain(s, h.player)):
            yield s, h.player


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_a_step_goes_to_a_neighbouring_space_and_nowhere_else(seed: int) -> None:
    """Movement: "it costs 1 Action to move your Colossus or an Acolyte 1 space in any direction".
    From each own piece every neighbouring space (the board file's) is a legal step while Actions
    are left; a space further away is refused (CL-3.1); another player's step is refused (CL-2.1)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=800)
    rng = random.Random(seed)
    positions = list(_actions_positions(steps))
    for s, tp in rng.sample(positions, min(12, len(positions))):
        if any(sp.tile == "lair-time-beast" for sp in s.spaces) or s.info.dominate:
            continue
        nb = neighbours(s.options.board)
        keys = legal_keys(s)
        p = s.player(tp)
        pieces = [("colossus", p.colossus)] + [("acolyte", i) for i in range(len(s.spaces))
                                                if acolytes_at(s, i, tp) > 0]
        for piece, at in pieces[:4]:
            for to in sorted(nb[at]):
                e = E.Moved(player=tp, piece=piece, space=at, to=to)
                r = check(s, e)
                if r.legal:
                    assert key(e) in keys, e
                elif r.rule != "CL-2.3":  # Actions used up
                    raise AssertionError(f"{e} refused: {r}")
            far = [i for i in range(len(s.spaces)) if i != at and i not in nb[at]]
            for to in rng.sample(far, min(3, len(far))):
                r = check(s, E.Moved(player=tp, piece=piece, space=at, to=to))
                assert not r.legal and r.rule in ("CL-3.1", "CL-2.3"), (at, to, r)
        for other in s.players:
            if other.id != tp and other.colossus is not None:
                to = sorted(nb[other.colossus])[0]
                r = check(s, E.Moved(player=other.id, piece="colossus", space=other.colossus, to=to))
                assert not r.legal and r.rule == "CL-2.1", r


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_a_spawn_puts_an_acolyte_on_the_own_colossus_space(seed: int) -> None:
    """Spawn an Acolyte: "For the cost of 1 Movement, place an Acolyte from your hand onto your
    Colossus's space" (CL-3.4), then "You may immediately move that Acolyte to an adjacent space for
    free using Road Movement"."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=800)
    rng = random.Random(seed)
    positions = list(_actions_positions(steps))
    for s, tp in rng.sample(positions, min(12, len(positions))):
        if s.info.dominate:
            continue  # CL-6.3: no Action after Dominate
        p = s.player(tp)
        nb = neighbours(s.options.board)
        r = check(s, E.AcolyteSpawned(player=tp, space=p.colossus))
        deadly = s.spaces[p.colossus].tile == "mountaintop-of-the-giants" or s.spaces[p.colossus].beasts
        if p.acolytes == 0:
            assert not r.legal and r.rule == "CL-3.4", r
        elif r.legal:
            assert key(E.AcolyteSpawned(player=tp, space=p.colossus)) in legal_keys(s)
            after, _ = settle_apply(s, E.AcolyteSpawned(player=tp, space=p.colossus))
            if deadly:
                continue
            assert after.player(tp).acolytes == p.acolytes - 1
            assert acolytes_at(after, p.colossus, tp) == acolytes_at(s, p.colossus, tp) + 1
            if head_kind(after) == "Actions":
                for to in sorted(nb[p.colossus]):
                    e = E.Moved(player=tp, piece="acolyte", space=p.colossus, to=to, road=True)
                    rr = check(after, e)
                    assert rr.legal, (e, rr)
        else:
            assert r.rule == "CL-2.3", r
        for i in sorted(nb[p.colossus])[:3]:
            if tp in s.spaces[i].colossi:
                continue
            r = check(s, E.AcolyteSpawned(player=tp, space=i))
            assert not r.legal and r.rule in ("CL-3.4", "CL-2.3"), r


def settle_apply(s, e):
    from adjudicator.core.kernel.verify import settle

    return settle(GAME, GAME.apply(s, e))


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_road_movement_continues_only_from_a_space_with_an_own_piece(seed: int) -> None:
    """Road Movement: "When moving into a space that already contains your Colossus or 1 of your
    Acolytes, you may continue onward to any adjacent space for free. If you have your Colossus or
    Acolytes in multiple adjacent spaces, move long distances using just 1 Movement."  After a step
    (paid, or itself a road step) into a Grass or Starting space: a road step on, to any neighbour
    the move has not entered (CL-6), is legal and free when the space held an own piece, refused
    (CL-3.3) when it did not."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    path: list[int] = []
    for stp in steps:
        s0, e, s1 = stp.before, stp.event, stp.after
        if type(e) is not E.Moved or e.owner is not None or head_kind(s0) != "Actions":
            path = []
            continue
        path = (path if e.road and path and path[-1] == e.space else [e.space]) + [e.to]
        tp = e.player
        t = e.to
        sp = s0.spaces[t]
        if not plain(s0, tp) or sp.tile is None or KINDS[sp.tile][0] not in ("grass", "start") or sp.beasts:
            continue
        h = head(s1)
        if type(h).__name__ != "Actions" or h.player != tp:
            continue
        held = tp in sp.colossi or acolytes_at(s0, t, tp) > 0
        used = s1.info.actions
        for n in sorted(neighbours(s1.options.board)[t]):
            if n in path:
                continue
            road = E.Moved(player=tp, piece=e.piece, space=t, to=n, road=True)
            r = check(s1, road)
            if held:
                assert r.legal, (road, r, s1.road, path)
                assert key(road) in legal_keys(s1)
                s2, _ = settle_apply(s1, road)
                if s2.turn_player == tp:
                    assert s2.info.actions == used, "a road step costs no Action"
            else:
                assert not r.legal and r.rule == "CL-3.3", (road, r)


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_moving_into_an_unexplored_space_explores_it_and_ends_the_move(seed: int) -> None:
    """Exploring: "When moving into a space that has no tile on it ... Draw an Environment tile from
    the deck you built during Setup. If it is a Beast Lair, immediately put the corrosponding Beast
    on that space."  The tile comes from the tile deck; no road step goes on from there (CL-7)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    for k, stp in enumerate(steps):
        e = stp.event
        if type(e) is not E.TileExplored:
            continue
        s0, s1 = stp.before, stp.after
        assert s0.spaces[e.space].tile is None
        assert e.tile in s0.tile_deck or e.tile in s0.tile_top or e.tile in s0.tile_box, e
        assert s1.spaces[e.space].tile == e.tile
        if KINDS[e.tile][0] == "lair":
            beast = e.tile.removeprefix("lair-")
            assert beast in s1.spaces[e.space].beasts, (e, s1.spaces[e.space])
        if e.tile in s0.tile_deck or e.tile in s0.tile_top:
            assert (Counter(s0.tile_deck) + Counter(s0.tile_top))[e.tile] - 1 == \
                (Counter(s1.tile_deck) + Counter(s1.tile_top))[e.tile]
        h = head(s1)
        prev = steps[k - 1].event if k else None
        if type(h).__name__ == "Actions" and type(prev) is E.Moved and prev.to == e.space and not prev.owner:
            for n in sorted(neighbours(s1.options.board)[e.space]):
                r = check(s1, E.Moved(player=prev.player, piece=prev.piece, space=e.space, to=n, road=True))
                assert not r.legal, r


# == control and Banners ===========================================================================

@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_a_banner_is_raised_exactly_on_the_spaces_the_seed_says_one_controls(seed: int) -> None:
    """Banners: "You can raise your Banners at the end of your turn on spaces you Control. There
    can only be 1 Banner on a given space. If there was an opponent's Banner ... return it to its
    owner's hand"; Control (the table).  In each Deploy of a player with no Trait or Curse,
    ``BannerRaised`` is legal exactly on the spaces the seed's table gives them that hold no Banner
    of theirs (CL-4.2 refuses the others)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    for stp in steps:
        s = stp.after
        h = head(s)
        if type(h).__name__ != "Deploy" or not plain(s, h.player):
            continue
        pid = h.player
        p = s.player(pid)
        keys = legal_keys(s)
        if any(o.traits for o in s.players if o.id != pid):
            guarded = True
        else:
            guarded = False
        for i, sp in enumerate(s.spaces):
            e = E.BannerRaised(player=pid, space=i)
            r = check(s, e)
            mine = controller(s, i) == pid
            if "stone-beast" in sp.beasts or guarded and any(o != pid for o in sp.banners):
                continue
            expect = mine and p.banners > 0 and pid not in sp.banners
            assert r.legal == expect, (i, controller(s, i), sp, r)
            assert (key(e) in keys) == expect
            if not mine:
                assert r.rule == "CL-4.2", r
            if expect and sp.banners:
                after, _ = settle_apply(s, e)
                for o in set(sp.banners):
                    assert after.player(o).banners == s.player(o).banners + sp.banners.count(o)
                assert after.spaces[i].banners == (pid,)


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_a_rest_collects_every_banner_and_its_loot(seed: int) -> None:
    """Rest: "Collect each of your deployed Banners, in any order you choose. Each time you collect
    a Banner, collect the reward for that space"; Loot: "For each golden Loot cube, collect 1 Gold";
    "For each blue Loot cube, draw 1 Colossus Card".  A Rest may not stop before every Banner is
    collected (CL-4.6); a Grass or Starting space scored pays its gold cubes exactly, and the cubes
    leave (CL-11)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    for k, stp in enumerate(steps):
        s0, e, s1 = stp.before, stp.event, stp.after
        h = head(s0)
        if type(h).__name__ == "Rest" and type(e) is E.BannerScored and plain(s0, e.player):
            sp = s0.spaces[e.space]
            if sp.tile and KINDS[sp.tile][0] in ("grass", "start") and not sp.beasts and not e.keep:
                gained = s1.player(e.player).gold - s0.player(e.player).gold
                assert gained == sp.gold, (e, sp, gained)
                assert s1.spaces[e.space].loot == 0 or any(type(d) is E.LootReplenished for d in stp.derived)
                assert e.player not in s1.spaces[e.space].banners
                draws = 0
                for nxt in steps[k + 1:]:
                    if type(nxt.event) is E.CardDrawn and nxt.event.player == e.player:
                        draws += 1
                    elif type(nxt.event) in (E.CardDiscarded, E.TraitTaken, E.TraitRevealed, E.TraitDiscarded):
                        continue
                    else:
                        break
                if len(s0.card_deck) + len(s0.card_top) >= sp.blue:
                    assert draws == sp.blue, (e, sp, draws)
                # "For each green Loot cube, gain 1 Trait" (none without Traits: CL-27)
                gained = 0
                for nxt in steps[k + 1:]:
                    if type(nxt.event) is E.TraitTaken and nxt.event.player == e.player:
                        gained += 1
                    elif type(nxt.event) not in (E.CardDrawn, E.CardDiscarded, E.TraitRevealed, E.TraitDiscarded):
                        break
                supply = len(s0.trait_row) + len(s0.trait_deck) + len(s0.trait_discard)
                if supply >= sp.green + 3:
                    assert gained == (sp.green if s0.options.use_traits else 0), (e, sp, gained)
        if type(h).__name__ == "Rest":
            left = [i for i, x in enumerate(s0.spaces) if h.player in x.banners and i not in h.done]
            r = check(s0, E.Passed(player=h.player))
            if left and not getattr(h, "stone", False):
                assert not r.legal and r.rule == "CL-4.6", (left, r)
            r = check(s0, E.BannerRaised(player=h.player, space=s0.player(h.player).colossus))
            assert not r.legal, r
    for tp, tsteps in turns(steps):
        chosen = [stp.event.choice for stp in tsteps if type(stp.event) is E.BannerPhaseChosen]
        dominate = any(type(stp.event) is E.CardPlayed and stp.event.card == "dominate" for stp in tsteps)
        assert len(chosen) <= (2 if dominate else 1), (tp, chosen)
        if "rest" in chosen and tsteps[-1].after.turn_player != tp and plain(tsteps[0].before, tp):
            end = next((stp.after for stp in tsteps if any(type(d) is E.TurnEnded for d in stp.derived)), None)
            if end is not None and not any(sp.tile in ("lair-stone-beast", "lair-time-beast") for sp in end.spaces):
                assert not any(tp in sp.banners for sp in end.spaces), tp


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_a_deploy_never_scores_and_a_rest_never_raises(seed: int) -> None:
    """Banner Phase: "you will do 1 (but not both) of the following: Deploy ... Rest" (CL-2.5); a
    Banner raised outside the Banner phase is refused (CL-4.2)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=700)
    for stp in steps:
        s = stp.after
        h = head(s)
        kind = type(h).__name__
        if kind == "Deploy" and plain(s, h.player):
            for i, sp in enumerate(s.spaces):
                if h.player in sp.banners:
                    r = check(s, E.BannerScored(player=h.player, space=i))
                    assert not r.legal and r.rule == "CL-2.5", r
        if kind == "Actions" and plain(s, h.player):
            p = s.player(h.player)
            r = check(s, E.BannerRaised(player=h.player, space=p.colossus))
            assert not r.legal and r.rule == "CL-4.2", r
            r = check(s, E.BannerPhaseChosen(player=h.player, choice="rest"))
            assert not r.legal, r


# == what holds at every position =================================================================

@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_components_are_conserved_and_limits_hold(seed: int) -> None:
    """Setup: 10 Acolytes and 6 Banners each ("When your Acolytes die, they return to your hand");
    "Colossi cannot die, and remain on the island"; "There can only be 1 Banner on a given space";
    the hand limit of 6 (CL-5.2, immediate by default: nothing happens until the player discarded)
    and 2 Traits (CL-5.3); every card, tile and Trait is somewhere; Gold never below 0 (CL-24)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    copies = card_copies()
    n_traits = len(trait_ids())
    for stp in steps:
        s = stp.after
        if not s.spaces or s.turn == 0 or any(type(t).__name__ == "Launch" for t in s.todo):
            continue  # Launchpad: the lifted components are put down one by one (CL-38)
        for p in s.players:
            on_board = sum(acolytes_at(s, i, p.id) for i in range(len(s.spaces)))
            flags = sum(sp.banners.count(p.id) for sp in s.spaces)
            assert on_board + p.acolytes == 10, (p.id, on_board, p.acolytes, stp.event)
            assert flags + p.banners == 6, (p.id, flags, p.banners, stp.event)
            where = [i for i, sp in enumerate(s.spaces) if p.id in sp.colossi]
            assert where == [p.colossus], (p.id, where, p.colossus)
            assert p.gold >= 0
            owed = any(type(t).__name__ in ("Discard",) and t.player == p.id for t in s.todo)
            if s.options.hand_limit_timing == "immediate" and not owed:
                limit = 6
                if "ludicrously-capacious" in p.traits:
                    limit = 8
                if "poverty" in p.curses:
                    limit = 3
                assert len(p.hand) <= limit, (p.id, p.hand, p.traits, p.curses, [type(t).__name__ for t in s.todo])
            capped = any(type(t).__name__ in ("TraitCap", "Growth", "GrowthPick", "GrowthDrop") and
                         getattr(t, "player", None) == p.id for t in s.todo)
            if not capped:
                cap = 1 if "austerity" in p.curses else 2
                own = len(p.traits) - (1 if s.info.borrowed and p.id == s.turn_player else 0)  # Mimicry's
                assert own <= cap, (p.id, p.traits, [type(t).__name__ for t in s.todo])
        for i, sp in enumerate(s.spaces):
            assert len(set(sp.banners)) <= 1, (i, sp.banners)
        hands = Counter(c for p in s.players for c in p.hand)
        curses = Counter(c for p in s.players for c in p.curses)
        cards = Counter(s.card_deck) + Counter(s.card_top) + Counter(s.discard) + Counter(s.pile) + hands + curses
        if s.unseen is None and not any(type(t).__name__ == "Exchange" for t in s.todo):
            assert cards == copies or sum(cards.values()) == sum(copies.values()) - 1, (cards - copies, copies - cards)
        traits = len(s.trait_deck) + len(s.trait_row) + len(s.trait_discard) + len(s.growth) + \
            sum(len(p.traits) for p in s.players)
        if s.options.use_traits:
            assert traits == n_traits, traits  # a borrowed Trait moves to the borrower (Mimicry)
        board = [sp.tile for sp in s.spaces if sp.tile]
        tiles = Counter(board) + Counter(s.tile_deck) + Counter(s.tile_top) + Counter(s.tile_box)
        assert tiles["start"] <= len(s.players)  # The Void may swap a Starting Environment away
        # a Grass tile The Void replaces leaves the game (CL-23); Environments and Lairs go to the box
        assert tiles["grass-gold"] + tiles["grass-blue"] + tiles["grass-green"] <= 16
        for t, (kind, n) in KINDS.items():
            if kind in ("environment", "lair"):
                assert tiles[t] == n, (t, tiles[t])


# == the end =======================================================================================

@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_the_match_ends_after_equal_turns_and_the_most_gold_wins(seed: int) -> None:
    """Game End: "The game ends when any player has 50 Gold. Each player must take an equal number
    of turns. So once a player reaches 50, continue taking turns until you reach the player who took
    the first turn of the game" (CL-3: ``end_mode``, ``tie``, ``gold_target``)."""
    setup = setup_of(seed, target=15)
    _, steps = trace(seed, setup, max_events=3000)
    final = steps[-1].after
    out = GAME.outcome(final)
    assert out is not None, "no end within 3000 decisions at a target of 15"
    target = final.options.gold_target
    ids = [p.id for p in final.players]
    reached_at = next(k for k, stp in enumerate(steps) if any(p.gold >= target for p in stp.after.players))
    if final.options.end_mode == "immediate":
        assert reached_at == len(steps) - 1
        reached = [p.id for p in steps[reached_at].after.players if p.gold >= target]
        if len(reached) == 1:
            assert out.winner == reached[0], out
        else:  # reached together: the most Gold, a tie as the option says
            assert out.winner in reached or out.winner is None, out
        return
    started_after = [d for stp in steps[reached_at + 1:] for d in stp.derived if type(d) is E.TurnStarted]
    assert len({p.turns for p in final.players}) == 1, [(p.id, p.turns) for p in final.players]
    ended = [d for stp in steps for d in stp.derived if type(d) is E.TurnEnded]
    first = final.first
    assert ended[-1].player == ids[(ids.index(first) - 1) % len(ids)]
    assert len(started_after) < len(ids)
    best = max(p.gold for p in final.players)
    top = [p.id for p in final.players if p.gold == best]
    if len(top) == 1:
        assert out.winner == top[0], (out, top)
    elif final.options.tie == "shared":
        assert out.winner is None and out.result != "win", out
    else:  # "first-to-target": the tied player who reached the target first (in this trace's order)
        order: list[str] = []
        for stp in steps:
            order += [p.id for p in stp.after.players if p.gold >= target and p.id not in order]
        assert out.winner == next(pid for pid in order if pid in top), (out, order, top)


@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_events_after_the_end_are_refused(seed: int) -> None:
    """Game End: once the game ended no turn goes on (LOG-3)."""
    setup = setup_of(seed, target=12)
    _, steps = trace(seed, setup, max_events=3000)
    final = steps[-1].after
    if GAME.outcome(final) is None:
        return
    tp = final.turn_player or final.players[0].id
    for e in (E.ActionsEnded(player=tp), E.BannerPhaseChosen(player=tp, choice="rest"), E.Passed(player=tp)):
        r = check(final, e)
        assert not r.legal, r


# == wrong player, wrong card, out of phase ==========================================================

@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_mutated_decisions_are_refused_with_the_rule(seed: int) -> None:
    """CL-2.1: only the player whose decision it is; CL-6.1: a card from one's hand, in the
    Actions; CL-5.2: a discard names a card of the hand; CL-2.4: the Beast moves one space to an
    explored neighbour, after the Actions."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=800)
    copies = sorted(card_copies())
    rng = random.Random(seed)
    for stp in rng.sample(steps, min(60, len(steps))):
        s, e = stp.before, stp.event
        pid = getattr(e, "player", None)
        if pid is None or e.kind != "D":
            continue
        others = [p.id for p in s.players if p.id != pid]
        wrong = decode({**_builtins(e), "player": rng.choice(others)})
        if wrong is not None and type(e) not in (E.Passed,):
            r = check(s, wrong)
            if not r.legal:
                assert r.rule in ("CL-2.1", "CL-2.2", "CL-2.4", "CL-2.5", "CL-4.6", "CL-5.2", "CL-6.4", "CL-7.4",
                                  "CL-6.1", "CL-3.1", "CL-3.4", "CL-4.2", "CL-1.4", "CL-1.6", "CL-2.3", "CL-7.1",
                                  "CL-3.3", "CL-4.4", "CL-5.4", "CL-5.3"), r
            else:
                assert key(wrong) in legal_keys(s), wrong
        if type(e) is E.CardPlayed:
            hand = s.player(pid).hand
            missing = [c for c in copies if c not in hand]
            bad = E.CardPlayed(player=pid, card=rng.choice(missing))
            r = check(s, bad)
            assert not r.legal and r.rule in ("CL-6.1", "CL-2.7"), r
        if type(e) is E.CardDiscarded and head_kind(s) == "Discard":
            hand = s.player(pid).hand
            missing = [c for c in copies if c not in hand]
            r = check(s, E.CardDiscarded(player=pid, card=rng.choice(missing)))
            assert not r.legal and r.rule == "CL-5.2", r
        if type(e) is E.BeastMoved and head_kind(s) == "MoveBeast" and plain(s, pid):
            at = next(i for i, sp in enumerate(s.spaces) if e.beast in sp.beasts)
            nb = neighbours(s.options.board)
            for to in range(len(s.spaces)):
                r = check(s, E.BeastMoved(player=pid, beast=e.beast, to=to))
                explored = s.spaces[to].tile is not None or s.options.beasts_enter_unexplored
                assert r.legal == (to in nb[at] and explored), (at, to, r)
                if not r.legal:
                    assert r.rule in ("CL-2.4", "CL-12"), r


def _builtins(e):
    import msgspec

    return msgspec.to_builtins(e)


# == Beasts, moving Banners, Traits, what a seat sees =================================================

@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_the_move_beast_step_moves_one_beast_one_space(seed: int) -> None:
    """Action Phase 4: "Move Beast: You may move a Beast 1 space" (to an explored space: CL-12,
    ``beasts_enter_unexplored``); declining is allowed; during the Actions it is refused (CL-2.4)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=700)
    rng = random.Random(seed)
    for stp in steps:
        s = stp.after
        h = head(s)
        kind = type(h).__name__
        if kind not in ("MoveBeast", "Actions") or not plain(s, h.player):
            continue
        beasts = [(b, i) for i, sp in enumerate(s.spaces) for b in sp.beasts]
        nb = neighbours(s.options.board)
        keys = legal_keys(s)
        for beast, at in beasts:
            for to in rng.sample(range(len(s.spaces)), 8) + sorted(nb[at]):
                e = E.BeastMoved(player=h.player, beast=beast, to=to)
                r = check(s, e)
                if kind == "Actions":
                    assert not r.legal and r.rule == "CL-2.4", r
                    continue
                ok = to in nb[at] and (s.spaces[to].tile is not None or s.options.beasts_enter_unexplored)
                assert r.legal == ok, (beast, at, to, r)
                assert (key(e) in keys) == ok
        if kind == "MoveBeast":
            assert check(s, E.Passed(player=h.player)).legal


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_a_deploy_moves_own_banners_to_controlled_spaces_only(seed: int) -> None:
    """Banner Phase, Deploy: "You may also move your deployed Banners to other spaces you control"
    (CL-4.4; refused under CL-14 with ``deploy_can_move_banners`` off); Banners: "You cannot move
    Banners already in play" outside it."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=700)
    for stp in steps:
        s = stp.after
        h = head(s)
        if type(h).__name__ != "Deploy" or not plain(s, h.player):
            continue
        pid = h.player
        if any(o.traits for o in s.players if o.id != pid):
            continue
        keys = legal_keys(s)
        mine = [i for i, sp in enumerate(s.spaces) if pid in sp.banners]
        for frm in mine[:2]:
            for to, sp in enumerate(s.spaces):
                if to == frm or "stone-beast" in sp.beasts or "stone-beast" in s.spaces[frm].beasts:
                    continue
                e = E.BannerMoved(player=pid, space=frm, to=to)
                r = check(s, e)
                if not s.options.deploy_can_move_banners:
                    assert not r.legal and r.rule == "CL-14", r
                    continue
                ok = controller(s, to) == pid and pid not in sp.banners
                assert r.legal == ok, (frm, to, controller(s, to), sp, r)
                assert (key(e) in keys) == ok
                if not ok and controller(s, to) != pid:
                    assert r.rule == "CL-4.4", r
        if mine and type(h).__name__ == "Deploy":
            others = [i for i, sp in enumerate(s.spaces) if sp.banners and pid not in sp.banners]
            for i in others[:2]:
                r = check(s, E.BannerMoved(player=pid, space=i, to=mine[0]))
                assert not r.legal, r


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_a_trait_comes_from_the_row_or_the_deck_top_and_the_row_stays_at_three(seed: int) -> None:
    """Traits: "At any given time there will be 3 face-up Traits and a Trait deck. When you select
    a Trait, you may draw from the deck, or choose 1 of the face-up Traits. If you choose a face-up
    Trait, replace it"; Loot: "For each green Loot cube, gain 1 Trait" (CL-5.4, CL-1.4)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    every = trait_ids()
    for stp in steps:
        s = stp.after
        h = head(s)
        if not s.options.use_traits or s.turn == 0:
            continue
        kind = type(h).__name__
        if kind in ("Actions", "Deploy", "Rest", "MoveBeast") and (s.trait_deck or s.trait_discard):
            assert len(s.trait_row) == 3, (s.trait_row, len(s.trait_deck))
        if kind in ("TakeTrait", "Draft"):
            pid = h.player
            for t in every:
                r = check(s, E.TraitTaken(player=pid, trait=t, source="row"))
                assert r.legal == (t in s.trait_row), (t, s.trait_row, r)
                rd = check(s, E.TraitTaken(player=pid, trait=t, source="deck"))
                if rd.legal:
                    assert (t in s.trait_deck or t in s.trait_discard) and t not in s.trait_row, t
                elif t in s.trait_deck and t not in s.trait_row and not s.card_top:
                    raise AssertionError(f"{t} on the Trait deck refused: {rd}")
            other = next(p.id for p in s.players if p.id != pid)
            if s.trait_row:
                r = check(s, E.TraitTaken(player=other, trait=s.trait_row[0], source="row"))
                assert not r.legal, r


@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_a_seat_record_hides_the_other_hands_and_the_tile_deck(seed: int) -> None:
    """Hidden information: the Colossus cards others draw and the face-down tile deck ("Shuffle these
    26 Tiles and keep them face-down") are not named in a seat's record; one's own draws are; every
    seat's record of a legal match is legal or undetermined (CL-40)."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.playout import to_jsonl
    from adjudicator.core.kernel.seats import redact_log
    from adjudicator.core.kernel.verify import run

    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=300)
    events = [setup] + [stp.event for stp in steps]
    log = parse_log(to_jsonl(events), "<full>")
    hidden = (None, "?")
    for q in setup.players:
        rec = list(redact_log(log, q))
        drawn = [e for e in rec if type(e) is E.CardDrawn]
        assert len(drawn) == sum(1 for e in events if type(e) is E.CardDrawn)
        # a card another seat looked at on top may stay named (CL-41): only Soothsayer matches differ
        looked = any(type(e) is E.Peeked for e in events)
        for e in drawn:
            if e.player == q:
                assert e.card not in hidden, e
            elif not looked:
                assert e.card in hidden, (q, e)
        assert all(e.tile in hidden for e in rec if type(e) is E.TileSetAside)
        res = run(parse_log(to_jsonl(rec), f"<{q}>"))
        assert not [v for v in res.violations if getattr(v, "verdict", "illegal") == "illegal"], res.violations[:2]


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_a_hand_over_the_limit_discards_any_of_its_cards_and_nothing_else(seed: int) -> None:
    """Colossus Cards: "You have a hand limit of 6 Cards" (CL-5.2, CL-18): the discard owed names any
    card of the hand, never another, and no other event comes first (the player owes it)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    every = sorted(card_copies())
    for stp in steps:
        s = stp.after
        h = head(s)
        if type(h).__name__ != "Discard":
            continue
        p = s.player(h.player)
        keys = legal_keys(s)
        for c in every:
            e = E.CardDiscarded(player=h.player, card=c)
            r = check(s, e)
            assert r.legal == (c in p.hand), (c, p.hand, r)
            assert (key(e) in keys) == (c in p.hand)
            if not r.legal:
                assert r.rule == "CL-5.2", r
        assert all(type(e) is E.CardDiscarded for e in GAME.legal_events(s))
        r = check(s, E.ActionsEnded(player=h.player))
        assert not r.legal, r


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_a_third_trait_makes_its_player_discard_one_of_theirs(seed: int) -> None:
    """Traits: "You can only have 2 Traits at a time, so if you gain a third, you must immediately
    discard 1 of them" (CL-5.3): any of the player's Traits, the new one too, and no other."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    every = trait_ids()
    for stp in steps:
        s = stp.after
        h = head(s)
        if type(h).__name__ != "TraitCap":
            continue
        p = s.player(h.player)
        for t in every:
            r = check(s, E.TraitDiscarded(player=h.player, trait=t))
            mine = t in p.traits and not (s.info.borrowed == t and p.id == s.turn_player)
            assert r.legal == mine, (t, p.traits, s.info.borrowed, r)
            if not r.legal and t not in p.traits:
                assert r.rule == "CL-5.3", r
        other = next(q.id for q in s.players if q.id != h.player)
        if s.player(other).traits:
            r = check(s, E.TraitDiscarded(player=other, trait=s.player(other).traits[0]))
            assert not r.legal, r


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_the_action_traits_change_the_count_as_their_texts_say(seed: int) -> None:
    """Speedy: "6 Actions a turn, but at most one card played per turn"; Ludicrously Capacious:
    "5 Actions a turn, but at most 2 of them may be moves or spawns"; both: the lower limit (seed,
    FAQ: "always choose the lower limit"); Boldness: "pay 2 Gold for one more Action"; Abundant: "Your
    Draw step draws 2 cards instead of 1".  Counted per turn, for turns whose Traits stay the same."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=1200)
    for tp, tsteps in turns(steps):
        if not tsteps:
            continue
        traits = {frozenset(stp.before.player(tp).traits) for stp in tsteps}
        if len(traits) != 1 or any(sp.tile == "lair-time-beast" for stp in tsteps for sp in stp.after.spaces):
            continue
        tr = next(iter(traits))
        if any(type(stp.event) is E.CardPlayed and stp.event.card == "dominate" for stp in tsteps):
            continue
        limits = [6] if "speedy" in tr else []
        limits += [5] if "ludicrously-capacious" in tr else []
        allowance = min(limits) if limits else 4
        allowance += sum(1 for stp in tsteps if type(stp.event) is E.ActionBought)
        paid = [stp.event for stp in tsteps if costly(stp.before, stp.event, tp) and head_kind(stp.before) == "Actions"]
        assert len(paid) <= allowance, (tp, sorted(tr), len(paid), allowance)
        if "speedy" in tr:
            assert sum(1 for e in paid if type(e) is E.CardPlayed) <= 1 or not stp.before.options.card_costs_action
            assert sum(1 for stp in tsteps if type(stp.event) is E.CardPlayed and stp.event.player == tp
                       and head_kind(stp.before) == "Actions") <= 1
        if "ludicrously-capacious" in tr:
            assert sum(1 for e in paid if type(e) in (E.Moved, E.AcolyteSpawned)) <= 2
        first_actions = next((k for k, stp in enumerate(tsteps) if head_kind(stp.before) == "Actions"), None)
        s0 = tsteps[0].before
        if first_actions is not None and "abundant" in tr and len(s0.card_deck) + len(s0.card_top) >= 2 \
                and not any(type(stp.event) is E.TraitBorrowed for stp in tsteps):
            drawn = [stp for stp in tsteps[:first_actions] if type(stp.event) is E.CardDrawn and stp.event.player == tp]
            assert len(drawn) == 2, (tp, [type(x.event).__name__ for x in tsteps[:first_actions]])


@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_a_seats_view_shows_its_own_hand_and_only_the_size_of_the_others(seed: int) -> None:
    """Hidden information in a position (``state --as``): each player sees their own hand; of the
    others' hands and the face-down decks only how many cards there are; everything on the island
    is open (CL-40)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=500)
    rng = random.Random(seed)
    for stp in rng.sample(steps, min(25, len(steps))):
        s = stp.after
        for q in s.players:
            v = GAME.view(s, q.id)
            for pv, p in zip(v["players"], s.players):
                if p.id == q.id:
                    assert sorted(pv["hand"]) == sorted(p.hand)
                else:
                    assert len(pv["hand"]) == len(p.hand) and set(pv["hand"]) <= {"?"}, (q.id, p.id, pv["hand"])
                assert pv["gold"] == p.gold and sorted(pv["traits"]) == sorted(p.traits)
            assert set(v["card_deck"]) <= {"?"} and len(v["card_deck"]) == len(s.card_deck)
            assert set(v["tile_deck"]) <= {"?"} and len(v["tile_deck"]) == len(s.tile_deck)
            assert [sp["tile"] for sp in v["spaces"]] == [sp.tile for sp in s.spaces]
