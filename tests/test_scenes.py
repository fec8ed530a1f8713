"""Scenes: every game's picture of a position for the replay viewers.

Over every registered game that draws its own scene (the default text-only scene is skipped):
scenes encode to JSON and back at many positions of random playouts; a player's scene is the
judge's scene with some cards turned face down, and never names a card that the player's view
(``game.view(state, player)``, the rules of ``state --as``) hides; ``turn_number`` never goes
down; a replay of every legal example gives scenes at every frame and changes at most frames.
Then game by game: what each view hides, and what ``diff`` reports for a move and a hit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.scene import Card, Scene, diff
from adjudicator.core.kernel.verify import settle
from adjudicator.replays.core import Replay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: the built-in games (their examples are under examples/<id>/); not a game a test registers
#: in-process, such as the toy plugin's, whose presence would depend on which tests ran first
GAMES = [g.id for g in registry.games()
         if (o := registry.origin(g.id)) is not None and o.distribution == registry.HOME]
#: the games that had landed when scenes came (each must draw its own)
LANDED = ("colossus-order", "logos", "kolossus")
SEEDS = (1, 2)
MAX_EVENTS = 250
ENCODER = msgspec.json.Encoder()
DECODER = msgspec.json.Decoder(Scene)


def has_scene(g: Game) -> bool:
    return type(g).scene is not Game.scene


def scene_game(gid: str) -> Game:
    g = registry.get(gid)
    if not has_scene(g):
        pytest.skip(f"{gid} uses the default text-only scene")
    return g


def positions(g: Game, seed: int, every: int = 1) -> list[Any]:
    """Settled positions along a random playout (every ``every``-th, and the last)."""
    events, _ = playout(g, seed, max_events=MAX_EVENTS)
    state, _ = settle(g, g.initial_state(events[0]))
    out = [state]
    for i, e in enumerate(events[1:], 1):
        state, _ = settle(g, g.apply(state, e))
        if i % every == 0 or i == len(events) - 1:
            out.append(state)
    return out


def hidden(c: Card) -> bool:
    return c.name is None and not c.face_up


def check_masked(g: Game, state: Any) -> None:
    """Game-neutral: each player's scene is the judge's with some cards masked (never more)."""
    judge = g.scene(state, None)
    for p in g.players(state):
        sc = g.scene(state, p)
        assert sc.view == p and judge.view is None
        assert (sc.status, sc.to_act, sc.counters, sc.board, sc.outcome, sc.players) == \
            (judge.status, judge.to_act, judge.counters, judge.board, judge.outcome, judge.players)
        assert [z.id for z in sc.zones] == [z.id for z in judge.zones]
        for zp, zj in zip(sc.zones, judge.zones):
            assert zp.count == zj.count and len(zp.cards) == len(zj.cards), zp.id
            for cp, cj in zip(zp.cards, zj.cards):
                assert cp == cj or (hidden(cp) and cp.colour is None), (p, zp.id, cp, cj)


# -- every game with a scene -------------------------------------------------------------------------

def test_the_landed_games_draw_their_own_scenes():
    for gid in LANDED:
        g = registry.get(gid)
        assert has_scene(g), f"{gid} has no scene of its own"
        assert type(g).turn_number is not Game.turn_number, f"{gid} has no turn_number"


@pytest.mark.parametrize("gid", GAMES)
def test_scenes_encode_at_every_position_and_turns_only_grow(gid):
    g = scene_game(gid)
    for seed in SEEDS:
        turns = []
        for state in positions(g, seed):
            turns.append(g.turn_number(state))
            for who in [None, *g.players(state)]:
                sc = g.scene(state, who)
                assert sc.game == g.id and sc.view == who and sc.status
                assert sc.to_act == g.to_act(state)
                assert (sc.outcome is not None) == (g.outcome(state) is not None)
                back = DECODER.decode(ENCODER.encode(sc))
                assert back == sc
                if sc.board is not None:
                    ids = [c.id for c in sc.board.cells]
                    assert len(ids) == len(set(ids))
                    if sc.board.kind == "grid":
                        assert len(ids) == sc.board.width * sc.board.height
                assert len({z.id for z in sc.zones}) == len(sc.zones)
        assert all(a <= b for a, b in zip(turns, turns[1:])), f"turn_number went down (seed {seed})"
        assert len(set(turns)) >= 4, f"turn_number barely moves: {sorted(set(turns))}"


@pytest.mark.parametrize("gid", GAMES)
def test_a_players_scene_only_masks_the_judges(gid):
    g = scene_game(gid)
    for seed in SEEDS:
        for state in positions(g, seed, every=3):
            check_masked(g, state)
            hides = HIDING.get(gid)
            if hides is not None:
                for p in g.players(state):
                    hides(g, state, p)


@pytest.mark.parametrize("gid", GAMES)
def test_replays_of_the_examples_show_every_frame(gid):
    g = scene_game(gid)
    logs = sorted((EXAMPLES / gid).glob("legal-*.jsonl"))
    assert logs, f"no legal examples for {gid}"
    for path in logs:
        r = Replay.from_file(path)
        assert r.game.id == gid and len(r) > 10
        changed = 0
        for n in range(1, len(r) + 1):
            for who in [None, *r.players()]:
                sc = r.scene(n, who)
                assert sc.view == who
            if n % 7 == 0:
                check_masked(g, r.state(n))
                hides = HIDING.get(gid)
                for p in r.players():
                    if hides is not None:
                        hides(g, r.state(n), p)
            changed += bool(r.changes(n))
        assert changed >= 0.8 * len(r), f"{path.name}: only {changed} of {len(r)} frames show a change"
        turns = [f.turn for f in r.frames]
        assert turns == sorted(turns) and len(set(turns)) >= 3, path.name
        assert r.next_turn(1) > 1


@pytest.mark.parametrize("gid", GAMES)
def test_every_example_has_a_scene_at_every_frame(gid):
    """Illegal examples too: a broken set-up or a rejected event still leaves a position to draw."""
    g = scene_game(gid)
    logs = sorted((EXAMPLES / gid).glob("illegal-*.jsonl"))
    assert logs, f"no illegal examples for {gid}"
    for path in logs:
        r = Replay.from_file(path)
        assert r.violations(), path.name
        for n in range(1, len(r) + 1):
            for who in [None, *r.players()]:
                sc = r.scene(n, who)
                assert sc.game == g.id and sc.status
                DECODER.decode(ENCODER.encode(sc))
            r.changes(n)


# -- what each game hides -------------------------------------------------------------------------------

def strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(strings(v) for v in data.values())) if data else set()
    if isinstance(data, (list, tuple)):
        return set().union(*(strings(v) for v in data)) if data else set()
    return set()


def names_visible(pool: Any, view: dict[str, Any]) -> set[str]:
    """What a player's view lets them name: the card of every card id anywhere in the view,
    and the view's own words (classes on a combo counter)."""
    words = strings(view)
    return words | {pool[s].name for s in words if s in pool}


def scene_names(sc: Scene) -> set[str]:
    return {c.name for z in sc.zones for c in z.cards if c.name}


def zone(sc: Scene, zid: str):
    return next(z for z in sc.zones if z.id == zid)


def co_hides(g: Game, state: Any, player: str) -> None:
    from adjudicator.games.colossus_order.cards import load_pool

    pool = load_pool(state.setup.pool)
    view = g.view(state, player)
    sc = g.scene(state, player)
    assert scene_names(sc) <= names_visible(pool, view)
    for pd in view["players"]:
        o = pd["id"]
        hand = zone(sc, f"{o}.hand").cards
        assert len(hand) == len(pd["hand"])
        if o != player:
            assert list(pd["hand"]) == ["?"] * len(pd["hand"])
            assert all(hidden(c) and c.id is None and not c.tags for c in hand)
        else:
            # (a seat's record leaves the other seat's own hand "?" even in that seat's view)
            assert [c.name for c in hand] == [None if c == "?" else pool[c].name for c in pd["hand"]]
        locus = zone(sc, f"{o}.locus").cards
        assert len(locus) == len(pd["locus"])
        for c, sl in zip(locus, pd["locus"]):
            if sl["card"] == "?":
                assert hidden(c) and c.colour is None
            elif sl["card"] is not None:
                assert c.name == pool[sl["card"]].name
        assert zone(sc, f"{o}.deck").count == state.player(o).deck_count  # every part of the deck (CO-36)
        assert not zone(sc, f"{o}.deck").cards


def logos_hides(g: Game, state: Any, player: str) -> None:
    from adjudicator.games.logos.cards import load_pool

    pool = load_pool(state.setup.pool)
    view = g.view(state, player)
    sc = g.scene(state, player)
    assert scene_names(sc) - {"empty"} <= names_visible(pool, view)
    for pd in view["players"]:
        o = pd["id"]
        slots = zone(sc, f"{o}.slots").cards
        assert len(slots) == len(pd["slots"])
        for c, v in zip(slots, pd["slots"]):
            if v is None:
                assert c.name is None and c.tags == ["empty"]
            elif v == "?":
                assert hidden(c)
            else:
                assert c.name == pool[v].name
        backup = zone(sc, f"{o}.backup").cards
        assert len(backup) == (pd["backup"] is not None)
        if pd["backup"] == "?":
            assert hidden(backup[0])
        pick, battle = zone(sc, f"{o}.pick").cards, zone(sc, f"{o}.battle").cards
        if pd["battle"] == "?":
            assert len(pick) == 1 and hidden(pick[0]) and not battle
        elif pd["battle"] is not None:
            assert [c.name for c in pick + battle] == [pool[pd["battle"]].name]
        elif pd["commitment"] is not None:
            assert len(pick) == 1 and hidden(pick[0]) and not battle
        else:
            assert not pick and not battle
        assert zone(sc, f"{o}.deck").count == len(state.player(o).deck)


def kolossus_hides(g: Game, state: Any, player: str) -> None:
    judge = g.scene(state, None)
    assert g.scene(state, player) == msgspec.structs.replace(judge, view=player)


HIDING = {"colossus-order": co_hides, "logos": logos_hides, "kolossus": kolossus_hides}


def test_logos_hidden_picks_stay_hidden_until_revealed():
    """The commit-reveal example: a commitment is face down even for the judge, and the opponent
    never sees a pick before PickRevealed."""
    g = registry.get("logos")
    r = Replay.from_file(EXAMPLES / "logos" / "legal-hidden-picks.jsonl")
    seen = 0
    for f in r.frames:
        if f.type != "CardCommitted" or f.mark != "legal":
            continue
        state = r.state(f.number)
        who = f.event.player
        other = state.other(who)
        for view in (None, who, other):
            pick = zone(g.scene(state, view), f"{who}.pick").cards
            assert len(pick) == 1 and hidden(pick[0]) and "committed" in pick[0].tags
        # the card is still in a slot: its owner and the judge see it, the opponent does not
        mine = [c.name for c in zone(g.scene(state, who), f"{who}.slots").cards if c.name]
        theirs = zone(g.scene(state, other), f"{who}.slots").cards
        assert mine and all(hidden(c) or "empty" in c.tags for c in theirs)
        seen += 1
    assert seen >= 4


def test_co_opponent_hand_is_face_down():
    g = registry.get("colossus-order")
    r = Replay.from_file(EXAMPLES / "colossus-order" / "legal-deck-out.jsonl")
    n = max(range(1, len(r) + 1), key=lambda n: min(len(p.hand) for p in r.state(n).players))
    state = r.state(n)
    a, b = g.players(state)
    hand = state.player(b).hand
    assert hand
    judge = [c.name for c in zone(g.scene(state, None), f"{b}.hand").cards]
    own = [c.name for c in zone(g.scene(state, b), f"{b}.hand").cards]
    opp = zone(g.scene(state, a), f"{b}.hand").cards
    assert judge == own and all(judge)
    assert len(opp) == len(hand) and all(hidden(c) for c in opp)
    assert not set(judge) & {c.name for c in opp}


# -- diffs ------------------------------------------------------------------------------------------------

def test_diff_reports_a_kolossus_piece_moving():
    g = registry.get("kolossus")
    r = Replay.from_file(EXAMPLES / "kolossus" / "legal-chapter-1.jsonl")
    moves = [f for f in r.frames if f.type == "MiniatureMoved" and f.mark == "legal" and f.event.path[0] != f.event.path[-1]]
    assert moves
    for f in moves[:10]:
        path = f.event.path
        before, after = r.scene(f.number - 1), r.scene(f.number)
        cells = {c.id: c for c in after.board.cells}
        moved = cells[path[-1]].pieces
        assert len(moved) == 1 and moved[0].owner == f.event.warband
        assert not cells[path[0]].pieces
        changes = r.changes(f.number)
        assert f"{path[0]}: empty" in changes
        assert f"{path[-1]}: {moved[0].label}" in changes
        assert diff(before, after) == changes
    # a move straight from the rules, outside any log
    state = next(s for s in positions(g, 3) if s.step == "move")
    move = next(e for e in g.legal_events(state) if e.path[0] != e.path[-1])
    after, _ = settle(g, g.apply(state, move))
    lines = diff(g.scene(state, None), g.scene(after, None))
    assert f"{move.path[0]}: empty" in lines
    assert any(line.startswith(f"{move.path[-1]}: ") and line != f"{move.path[-1]}: empty" for line in lines)


def test_kolossus_board_and_warbands():
    r = Replay.from_file(EXAMPLES / "kolossus" / "legal-chapter-3.jsonl")
    sc = r.scene(len(r))
    b = sc.board
    assert (b.kind, b.width, b.height) == ("grid", 11, 11)
    assert b.columns == list("abcdefghijk") and b.rows == [str(n) for n in range(11, 0, -1)]
    cells = {c.id: c for c in b.cells}
    assert (cells["a11"].x, cells["a11"].y, cells["k1"].x, cells["k1"].y) == (0, 0, 10, 10)
    state = r.state(len(r))
    assert cells[state.citadel].terrain == "citadel" and cells[state.citadel].level == 5
    assert {c.terrain for c in b.cells} == {"board", "woods", "hills", "mountains", "citadel"}
    assert sum(len(c.pieces) for c in b.cells) == len(state.pieces)
    assert {p.kind for c in b.cells for p in c.pieces} <= {"warrior", "guardian", "colossus"}
    colours = {p.id: p.colour for p in sc.players}
    assert colours == {"tuatha": "blue", "krell": "yellow", "ishtari": "green", "firbolg": "red"}
    assert all("alliance" in p.detail for p in sc.players)
    counters = {c.id: c.value for c in sc.counters}
    for w in state.warbands:
        assert counters[f"{w.id}.crystals"] == w.crystals
    assert counters["alliance-A.crystals"] + counters["alliance-B.crystals"] == sum(w.crystals for w in state.warbands)
    assert sum(c.markers.count("crystal") for c in b.cells) == state.on_citadel


def test_kolossus_pending_move_lists_reachable_squares():
    g = registry.get("kolossus")
    state = next(s for s in positions(g, 3) if s.step == "move")
    notes = [n for n in g.scene(state, None).notes if n.startswith("reachable from ")]
    ends = {e.path[-1] for e in g.legal_events(state)}
    assert notes and ends == {sq for n in notes for sq in n.split(": ", 1)[1].split()}


def test_diff_reports_a_logos_counter_change():
    """Strikes and round ends are derived: they show in the changes of the event that forced them."""
    r = Replay.from_file(EXAMPLES / "logos" / "legal-open-picks.jsonl")
    hits = 0
    rounds = 0
    for n in range(2, len(r) + 1):
        before, after = r.state(n - 1), r.state(n)
        changes = r.changes(n)
        for p, q in zip(before.players, after.players):
            if p.hp != q.hp:
                assert f"Hit points ({p.id}): {p.hp} -> {q.hp}" in changes
                assert any(type(d).__name__ in ("StrikeResolved", "EffectResolved") for d in r._derived[n - 1])
                hits += 1
            if p.combo != q.combo:
                assert any(line.startswith(f"Combo counter ({p.id})") for line in changes)
        if after.round != before.round:
            assert f"Round: {before.round} -> {after.round}" in changes
            rounds += 1
    assert hits >= 5 and rounds >= 5


def test_co_scene_shows_followers_locus_and_the_chain():
    r = Replay.from_file(EXAMPLES / "colossus-order" / "legal-gem-complete.jsonl")
    played = [f for f in r.frames if f.type == "FollowerPlayed"]
    f = played[0]
    sc = r.scene(f.number)
    chain = zone(sc, "chain").cards
    assert len(chain) == 1 and chain[0].name and f.event.player in chain[0].tags
    assert "X-play window" in sc.status
    # once the chain resolves the follower stands on the field with its handle and stats
    later = next(n for n in range(f.number + 1, len(r) + 1) if not zone(r.scene(n), "chain").cards)
    field = zone(r.scene(later), f"{f.event.player}.field").cards
    assert field and field[-1].id.startswith("F") and {"ON", "new"} <= set(field[-1].tags)
    assert any("/" in t for t in field[-1].tags)
    state = r.state(later)
    counters = {c.id: c for c in r.scene(later).counters}
    p = state.player(f.event.player)
    assert counters[f"{p.id}.locus"].max == len(p.locus)
    assert counters[f"{p.id}.deck"].value == p.deck_count
    assert counters[f"{p.id}.hand"].value == len(p.hand)
    last = r.scene(len(r))
    assert last.outcome and "gem-complete" in last.outcome
    assert {p.colour for p in last.players} <= {"white", "black", "blue", "red"}
