"""The Colossi scene (adjudicator/games/colossi/scene.py): the island as a hex board, hands masked
as ``state --as`` masks them, control as the engine rules it, and a turn number that only grows.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.scene import Scene, diff
from adjudicator.core.kernel.verify import settle
from adjudicator.games.colossi import engine as Q
from adjudicator.games.colossi import events as E
from adjudicator.games.colossi.data import board, content
from adjudicator.games.colossi.state import Actions
from adjudicator.replays.core import Replay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "colossi" / "legal-2p-to-50-gold.jsonl"
ENCODER = msgspec.json.Encoder()
DECODER = msgspec.json.Decoder(Scene)
G = registry.get("colossi")
#: 2, 3 and 4 players (sample_setup: 2 + seed % 3)
SEEDS = (3, 1, 2)
MAX_EVENTS = 300


@lru_cache(maxsize=None)
def trail(seed: int, board_name: str | None = None) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(settled positions, events) of a random playout: position i follows events[:i + 1]."""
    setup = G.sample_setup(seed)
    if board_name is not None:
        setup = msgspec.structs.replace(setup, options={"board": board_name})
    events, _ = playout(G, seed, max_events=MAX_EVENTS, setup=setup)
    state, _ = settle(G, G.initial_state(events[0]))
    states = [state]
    for e in events[1:]:
        state, _ = settle(G, G.apply(state, e))
        states.append(state)
    return tuple(states), tuple(events)


@lru_cache(maxsize=1)
def replay() -> Replay:
    return Replay.from_file(EXAMPLE)


def zone(sc: Scene, zid: str):
    return next(z for z in sc.zones if z.id == zid)


def cells(sc: Scene) -> dict[str, Any]:
    assert sc.board is not None
    return {c.id: c for c in sc.board.cells}


def strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(strings(v) for v in data.values())) if data else set()
    if isinstance(data, (list, tuple)):
        return set().union(*(strings(v) for v in data)) if data else set()
    return set()


# -- every position ---------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_scenes_round_trip_through_json_at_playout_positions(seed):
    states, _ = trail(seed)
    assert len(states) > 100
    for state in states[::2] + states[-1:]:
        for who in [None, *G.players(state)]:
            sc = G.scene(state, who)
            assert sc.game == "colossi" and sc.view == who and sc.status
            assert sc.to_act == G.to_act(state)
            assert DECODER.decode(ENCODER.encode(sc)) == sc
            assert msgspec.json.decode(msgspec.json.encode(msgspec.to_builtins(sc)), type=Scene) == sc
            assert len(sc.board.cells) == 27 and len(cells(sc)) == 27
            assert len({z.id for z in sc.zones}) == len(sc.zones)
            assert len({c.id for c in sc.counters}) == len(sc.counters)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_board_shows_every_piece_and_loot_cube(seed):
    states, _ = trail(seed)
    C = content()
    for state in states[::15] + states[-1:]:
        sc = G.scene(state, None)
        ids = Q.seats(state)
        for i, sp in enumerate(state.spaces):
            c = cells(sc)[str(i)]
            kinds = [p.kind for p in c.pieces]
            assert sorted(p.owner for p in c.pieces if p.kind == "colossus") == sorted(sp.colossi)
            assert sorted(p.owner for p in c.pieces if p.kind == "banner") == sorted(sp.banners)
            assert sorted(p.id.split(":")[1] for p in c.pieces if p.kind == "beast") == sorted(sp.beasts)
            assert all(p.owner is None for p in c.pieces if p.kind == "beast")
            acol = {p.owner: int(p.label[1:]) for p in c.pieces if p.kind == "acolyte"}
            assert acol == {ids[k]: n for k, n in enumerate(sp.acolytes) if n}
            assert len(kinds) == len(sp.colossi) + len(sp.banners) + len(sp.beasts) + len(acol)
            assert c.markers.count("loot:gold") == sp.gold
            assert c.markers.count("loot:blue") == sp.blue
            assert c.markers.count("loot:green") == sp.green
            if sp.tile is None:
                assert c.terrain == "unexplored" and c.label == str(i)
            else:
                t = C.tiles[sp.tile]
                assert c.terrain == (t.kind if t.kind in ("grass", "start") else t.id)
                assert c.label.startswith(f"{i} ") and len(c.label) > len(str(i)) + 1
        pieces = [p for c in sc.board.cells for p in c.pieces]
        assert len({p.id for p in pieces}) == len(pieces)
        assert sum(p.kind == "colossus" for p in pieces) == sum(p.colossus is not None for p in state.players)


def test_the_island_is_a_hex_board_from_the_board_file():
    state = trail(3)[0][-1]
    b = G.scene(state, None).board
    data = board("hex27")
    assert (b.kind, b.width, b.height) == ("hex", 6, 5)
    rows: dict[float, list[float]] = {}
    for c in b.cells:
        rows.setdefault(c.y, []).append(c.x)
    assert [len(rows[y]) for y in sorted(rows)] == [5, 6, 5, 6, 5]
    for y, xs in rows.items():
        # rows of 6 at 0..5; rows of 5 offset by half a cell, inside them (0.5..4.5)
        assert sorted(xs) == ([0.5, 1.5, 2.5, 3.5, 4.5] if len(xs) == 5 else [0, 1, 2, 3, 4, 5])
    for i, (x, y) in enumerate(data.xy):
        c = cells(G.scene(state, None))[str(i)]
        assert (c.x, c.y) == (x / 2, y)
    pairs = {frozenset(e) for e in b.edges}
    assert len(pairs) == len(b.edges)
    assert pairs == {frozenset((str(i), str(j))) for i, adj in enumerate(data.adj) for j in adj}
    assert len(pairs) == sum(len(a) for a in data.adj) // 2


def test_another_island_is_a_graph_with_its_own_edges():
    states, _ = trail(4, "square27")
    sc = G.scene(states[-1], None)
    data = board("square27")
    assert sc.board.kind == "graph" and len(sc.board.cells) == 27
    pairs = {frozenset((str(i), str(j))) for i, a in enumerate(data.adj) for j in a}
    assert {frozenset(e) for e in sc.board.edges} == pairs
    assert [(c.x, c.y) for c in sc.board.cells] == list(data.xy)
    assert DECODER.decode(ENCODER.encode(sc)) == sc


# -- hidden information -------------------------------------------------------------------------------

def hides(state: Any, player: str) -> int:
    """``player``'s scene names no card that ``view(state, player)`` hides; returns the hidden count."""
    C = content()
    view = G.view(state, player)
    words = strings(view)
    visible = words | {C.cards[w].name for w in words if w in C.cards}
    visible |= {C.traits[w].name for w in words if w in C.traits}
    sc = G.scene(state, player)
    for z in sc.zones:
        for c in z.cards:
            if c.name is not None:
                assert c.name in visible, (player, z.id, c)
            if c.id is not None:
                assert c.id in words, (player, z.id, c)
    hidden = 0
    secret: set[str] = set()
    for p in state.players:
        hand = zone(sc, f"{p.id}.hand").cards
        assert len(hand) == len(p.hand)
        if p.id == player:
            assert [c.id for c in hand] == list(p.hand) and all(c.face_up and c.name for c in hand)
        else:
            assert all(not c.face_up and c.name is None and c.id is None and c.colour is None and not c.tags
                       for c in hand)
            hidden += len(hand)
            secret |= {cid for cid in p.hand if cid not in words}
    # the cards only another hand holds are nowhere in the scene, not even in a note or the status
    text = ENCODER.encode(sc).decode()
    for cid in secret:
        name = C.cards[cid].name
        assert f'"{cid}"' not in text and f'"{name}"' not in text
        for line in [sc.status, *sc.notes]:
            assert not re.search(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", line), (cid, line)
            assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line), (name, line)
    # decks: counts only, for everyone
    for zid in ("card-deck", "tile-deck", "trait-deck", "tile-box"):
        assert not zone(sc, zid).cards and zone(sc, zid).count is not None
    return hidden


@pytest.mark.parametrize("seed", SEEDS)
def test_a_players_scene_names_no_card_their_view_hides(seed):
    states, _ = trail(seed)
    hidden = 0
    for state in states[::4] + states[-1:]:
        judge = G.scene(state, None)
        for p in G.players(state):
            hidden += hides(state, p)
            sc = G.scene(state, p)
            assert (sc.status, sc.board, sc.counters, sc.players, sc.notes, sc.outcome) == \
                (judge.status, judge.board, judge.counters, judge.players, judge.notes, judge.outcome)
            for zp, zj in zip(sc.zones, judge.zones, strict=True):
                assert zp.id == zj.id and zp.count == zj.count and len(zp.cards) == len(zj.cards)
                if not zp.id.endswith(".hand") or zp.owner == p:
                    assert zp == zj
    assert hidden > 0


def test_the_judge_and_the_owner_see_the_hand_the_opponent_does_not():
    r = replay()
    n = max(range(1, len(r) + 1), key=lambda n: min(len(p.hand) for p in r.state(n).players))
    state = r.state(n)
    a, b = G.players(state)
    hand = state.player(b).hand
    assert hand
    names = [content().cards[c].name for c in hand]
    assert [c.name for c in zone(G.scene(state, None), f"{b}.hand").cards] == names
    assert [c.name for c in zone(G.scene(state, b), f"{b}.hand").cards] == names
    theirs = zone(G.scene(state, a), f"{b}.hand").cards
    assert len(theirs) == len(hand) and all(c.name is None and not c.face_up for c in theirs)


# -- control --------------------------------------------------------------------------------------------

def test_control_on_cells_is_the_engines_control():
    seen = 0
    for seed in SEEDS:
        states, _ = trail(seed)
        for state in states[::25] + states[-1:]:
            sc = G.scene(state, G.players(state)[0])
            for i in range(len(state.spaces)):
                assert cells(sc)[str(i)].controller == Q.control(state, i)
                seen += cells(sc)[str(i)].controller is not None
    assert seen > 10


def test_control_follows_the_rule_on_made_up_spaces():
    """CL-4.1 by hand: a lone Colossus controls; two Colossi go by their owners' Acolytes; without
    Colossi the most Acolytes control; a tie controls nothing."""
    state = trail(1)[0][-1]  # three players
    a, b, c = Q.seats(state)
    S = type(state.spaces[0])
    made = {
        0: (S(tile="grass-gold", colossi=(a,), acolytes=(0, 3, 0)), a),
        1: (S(tile="grass-gold", colossi=(a, b), acolytes=(1, 2, 5)), b),
        2: (S(tile="grass-gold", colossi=(a, b), acolytes=(2, 2, 0)), None),
        3: (S(tile="grass-gold", acolytes=(1, 0, 2)), c),
        4: (S(tile="grass-gold", acolytes=(2, 2, 1)), None),
        5: (S(tile="grass-gold", acolytes=(0, 0, 0)), None),
    }
    spaces = list(state.spaces)
    for i, (sp, _) in made.items():
        spaces[i] = sp
    state = msgspec.structs.replace(state, spaces=tuple(spaces))
    sc = G.scene(state, None)
    for i, (_, who) in made.items():
        assert cells(sc)[str(i)].controller == who == Q.control(state, i)


# -- diffs -----------------------------------------------------------------------------------------------

def test_diff_reports_a_piece_moving_in_the_example():
    r = replay()
    moves = [f for f in r.frames if f.type == "Moved" and f.mark == "legal"]
    assert len(moves) > 20
    for f in moves[:25]:
        e = f.event
        owner = e.owner or e.player
        before, after = r.scene(f.number - 1), r.scene(f.number)
        kind = e.piece
        old, new = cells(before), cells(after)
        count = lambda cl, sid: sum(  # noqa: E731
            (int(p.label[1:]) if p.kind == "acolyte" else 1) for p in cl[str(sid)].pieces
            if p.kind == kind and p.owner == owner)
        assert count(new, e.to) == count(old, e.to) + 1 or kind == "acolyte" and count(new, e.to) < count(old, e.to) + 1
        if kind == "colossus":
            assert count(old, e.space) == 1 and count(new, e.space) == 0 and count(new, e.to) == 1
        changes = r.changes(f.number)
        assert changes == diff(before, after)
        assert old[str(e.space)].pieces != new[str(e.space)].pieces
        for sid in (e.space, e.to):
            c = new[str(sid)]
            what = ", ".join(p.label for p in c.pieces) or "empty"
            # an Acolyte may die on arrival (a deadly space): then its destination does not change
            assert (f"{c.label}: {what}" in changes) == (old[str(sid)] != c)


def test_diff_reports_a_move_straight_from_the_rules():
    states, _ = trail(2)
    state = next(s for s in states if isinstance(Q.head(s), Actions)
                 and any(type(e) is E.Moved and e.piece == "colossus" for e in G.legal_events(s)))
    move = next(e for e in G.legal_events(state) if type(e) is E.Moved and e.piece == "colossus")
    after, _ = settle(G, G.apply(state, move))
    a, b = G.scene(state, None), G.scene(after, None)
    lines = diff(a, b)
    frm, to = cells(b)[str(move.space)], cells(b)[str(move.to)]
    assert not any(p.kind == "colossus" and p.owner == move.player for p in frm.pieces)
    assert any(p.kind == "colossus" and p.owner == move.player for p in to.pieces)
    assert any(line.startswith(f"{frm.label}: ") for line in lines)
    assert any(line.startswith(f"{to.label}: ") and "C" in line.split(": ", 1)[1].split(", ") for line in lines)
    assert any(line.startswith("Actions left") for line in lines)


# -- turns ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_turn_number_grows_by_one_per_turn_and_never_decreases(seed):
    states, events = trail(seed)
    turns = [G.turn_number(s) for s in states]
    assert turns[0] == 0 and turns[-1] > 3
    assert all(0 <= b - a <= 1 for a, b in zip(turns, turns[1:]))
    assert turns[-1] == states[-1].turn


def test_replay_of_the_example_has_a_scene_at_every_frame():
    r = replay()
    assert r.game.id == "colossi" and len(r) > 500
    players = r.players()
    assert players == ["ann", "bob"]
    started = 0
    for n in range(1, len(r) + 1):
        f = r.frames[n - 1]
        for who in [None, *players]:
            sc = r.scene(n, who)
            assert sc.view == who and sc.status and sc.board is not None
            if n % 25 == 0:
                assert DECODER.decode(ENCODER.encode(sc)) == sc
        started += f.type == "TurnStarted" or any(type(d).__name__ == "TurnStarted" for d in r._derived[n - 1])
        assert f.turn == started == G.turn_number(r.state(n))
        if n % 50 == 0:
            hides(r.state(n), "ann")
            hides(r.state(n), "bob")
    turns = [f.turn for f in r.frames]
    assert turns == sorted(turns) and turns[-1] > 10
    assert r.next_turn(1) > 1
    last = r.scene(len(r))
    assert last.outcome and "gold" in last.outcome and "over" in last.status
    gold = {c.owner: c for c in last.counters if c.id.endswith(".gold")}
    state = r.state(len(r))
    assert {p: c.value for p, c in gold.items()} == {p.id: p.gold for p in state.players}
    assert all(c.max == state.options.gold_target for c in gold.values())
    assert {p.colour for p in last.players} == {"blue", "red"}
