"""LOGOS as a whole: random playouts from ``legal`` under every ruleset option, hidden picks,
player views, position documents, the event store, and mutated logs.

The conformance suite runs the same properties over ``sample_setup`` (open picks) once the game is
registered; these tests add hidden picks (commit and reveal) and option mixes, so every path of
the rules is exercised by generated matches too.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from adjudicator.core.kernel import position
from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.events import bare, encode_line
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.store import MatchStore
from adjudicator.core.kernel.verify import run, settle
from adjudicator.games.logos import events as E
from adjudicator.games.logos.commitments import commitment_of

from .logos_scenarios import A, B, GAME, POOL, Script

#: option values that change how a generated match goes (each list: values besides the default)
OPTION_MIXES: dict[str, list[Any]] = {
    "picks": ["commit-reveal"],
    "combo_counter": ["shared"],
    "push_on_deadlock": [True],
    "effect_order": ["attacker-first"],
    "field_order": ["right-then-left"],
    "deadlock_before_effects": [False],
    "max_counters": [0, 3],
    "defenseless_defense": [5000],
    "backup_call_order": ["attacker-first"],
    "hp_cap": ["none"],
    "shuffle_hand_to": ["deck"],
    "mimmick_target": ["by-source-field"],
    "resign_result": ["opponent-wins"],
    "on_empty_deck": ["stay-empty"],
    "start_slots": [1, 5],
    "max_rounds": [15],
    "stall_rounds": [1],
}


def mixed_setup(seed: int) -> E.MatchStarted:
    """The sample set-up with a seeded choice of non-default options."""
    rng = random.Random(seed)
    base = GAME.sample_setup(seed)
    options = dict(base.options)
    for name in sorted(OPTION_MIXES):
        if rng.random() < 0.35:
            options[name] = rng.choice(OPTION_MIXES[name])
    if rng.random() < 0.5:
        options["picks"] = "commit-reveal"
    if options.get("start_slots") == 5:
        options["max_slots"] = 8
    if options.get("start_slots") == 1:
        options["min_slots"] = 0
    return msgspec.structs.replace(base, options=options)


def hidden_setup(seed: int) -> E.MatchStarted:
    base = GAME.sample_setup(seed)
    return msgspec.structs.replace(base, options={**base.options, "picks": "commit-reveal"})


def play(setup: E.MatchStarted, seed: int, max_events: int = 400, with_derived: bool = False) -> tuple[list[Any], Any]:
    return playout(GAME, seed, max_events=max_events, setup=setup, with_derived=with_derived)


@given(seed=st.integers(0, 100_000))
def test_playouts_with_hidden_picks_verify_as_legal(seed: int) -> None:
    events, final = play(hidden_setup(seed), seed)
    if len(events) > 20:  # (a random playout may resign at once)
        assert any(type(e) is E.CardCommitted for e in events) and any(type(e) is E.PickRevealed for e in events)
    res = run(parse_log(to_jsonl(events), "hidden"))
    assert res.violations == [], res.violations[:3]
    assert msgspec.to_builtins(res.state) == msgspec.to_builtins(final)


@given(seed=st.integers(0, 100_000))
def test_playouts_under_option_mixes_verify_as_legal(seed: int) -> None:
    setup = mixed_setup(seed)
    events, final = play(setup, seed, with_derived=True)
    res = run(parse_log(to_jsonl(events), "mixed"))
    assert res.violations == [], (setup.options, res.violations[:3])
    assert msgspec.to_builtins(res.state) == msgspec.to_builtins(final)
    # without the derived events the log verifies the same
    plain = [e for e in events if e.kind != "X"]
    res2 = run(parse_log(to_jsonl(plain), "mixed-plain"))
    assert res2.violations == [] and msgspec.to_builtins(res2.state) == msgspec.to_builtins(final)


def test_generated_matches_end_and_use_every_effect() -> None:
    """Generated matches end, play every card of the sample pool (every third seed builds its
    decks around a combo card), fire each effect from each field and apply every effect."""
    ends: dict[str, int] = {}
    effects: set[str] = set()
    fields: set[tuple[str, str]] = set()
    played: set[str] = set()
    features: set[str] = set()
    for seed in range(40):
        events, final = play(mixed_setup(seed), seed, max_events=5000, with_derived=True)
        out = GAME.outcome(final)
        assert out is not None, f"seed {seed} did not end"
        ends[out.reason] = ends.get(out.reason, 0) + 1
        for e in events:
            if type(e) is E.CardPicked or type(e) is E.PickRevealed:
                played.add(e.card)
            if type(e) is E.EffectResolved:
                fields.add((e.field, e.effect))
            if type(e) is E.EffectResolved and e.result == "applied":
                effects.add(e.copied or e.effect)
                if e.copied:
                    effects.add("mimmick")
            if type(e) is E.StrikeResolved and e.counter:
                features.add("counter")
            if type(e) is E.DirectionDetermined and e.basis == "deadlock":
                features.add("deadlock")
            if type(e) in (E.BackupCalled, E.Defenseless, E.DeckRebuilt):
                features.add(type(e).__name__)
    from adjudicator.games.logos.cards import PERMANENT, TEMPORARY

    assert set(PERMANENT + TEMPORARY) <= effects, set(PERMANENT + TEMPORARY) - effects
    every = {(f, x) for f in ("left", "right") for x in PERMANENT + TEMPORARY}
    assert every <= fields, every - fields
    assert set(POOL) <= played, set(POOL) - played
    assert {"counter", "deadlock", "BackupCalled", "Defenseless", "DeckRebuilt"} <= features, features
    assert ends.get("hit-points", 0) >= 8, ends


def _key(e: Any) -> bytes:
    return encode_line(bare(e))


@given(seed=st.integers(0, 100_000))
def test_legal_and_check_agree_with_hidden_picks(seed: int) -> None:
    """Every listed event passes check; a mutated event that passes check is listed, except a
    commitment, which may be any 64-digit hex value (legal lists commitments made with the
    example salt only)."""
    rng = random.Random(seed)
    events, _ = play(mixed_setup(seed), seed)
    log = parse_log(to_jsonl(events), "p")
    for n in sorted(rng.sample(range(1, len(events) + 1), min(6, len(events)))):
        state = run(log, upto=n).state
        if GAME.outcome(state) is not None:
            continue
        listed = GAME.legal_events(state)
        keys = {_key(e) for e in listed}
        assert len(keys) == len(listed)
        for e in listed:
            assert GAME.check(state, e).legal, e
        probes = listed + ([events[n]] if n < len(events) else [])
        for e in probes[:30]:
            data = msgspec.to_builtins(e)
            for k, v in data.items():
                if k == "type" or not isinstance(v, str):
                    continue
                for new in ("ann", "p1", "p2", "iron-golem", "spark-wisp", "storm-coil", "", "0" * 64):
                    try:
                        m = GAME.decoder.decode(msgspec.json.encode({**data, k: new}))
                    except msgspec.ValidationError:
                        continue
                    ruling = GAME.check(state, m)
                    assert ruling.code != "core/engine-error"
                    if ruling.legal and type(m) is not E.CardCommitted:
                        assert _key(m) in keys, (n, m)


@settings(max_examples=15)
@given(seed=st.integers(0, 100_000), data=st.data())
def test_mutated_logs_get_rulings_never_exceptions(seed: int, data: st.DataObject) -> None:
    events, _ = play(mixed_setup(seed), seed, max_events=300, with_derived=data.draw(st.booleans()))
    i = data.draw(st.integers(1, len(events) - 1))
    raw = msgspec.to_builtins(events[i])
    fields = [k for k in raw if k != "type"]
    if fields:
        k = data.draw(st.sampled_from(fields))
        raw[k] = data.draw(st.one_of(
            st.integers(-10, 10**9), st.text(max_size=12), st.sampled_from(["ann", "p1", "p2", "shared", "iron-golem"]),
            st.lists(st.sampled_from(["matter", "p1", "iron-golem"]), max_size=3), st.booleans(), st.none()))
    lines = to_jsonl(events[:i]) + msgspec.json.encode(raw) + b"\n" + to_jsonl(events[i + 1:])
    try:
        log = parse_log(lines, "mutated")
    except LogError:
        return
    res = run(log, keep_going=True)
    assert all(v.code != "core/engine-error" for v in res.violations), res.violations


@settings(max_examples=10)
@given(seed=st.integers(0, 100_000), frac=st.floats(0, 1))
def test_position_documents_round_trip(seed: int, frac: float) -> None:
    events, _ = play(mixed_setup(seed), seed)
    n = max(1, int(len(events) * frac))
    state = run(parse_log(to_jsonl(events), "p"), upto=n).state
    doc = position.document(GAME, state, at=n)
    back = GAME.load_state(msgspec.json.decode(msgspec.json.encode(doc))["state"])
    assert msgspec.to_builtins(back) == msgspec.to_builtins(state)
    assert [_key(e) for e in GAME.legal_events(back)] == [_key(e) for e in GAME.legal_events(state)]
    for pid in GAME.players(state):
        msgspec.json.encode(position.document(GAME, state, player=pid, at=n))
        assert GAME.describe(state, pid)


@settings(max_examples=6)
@given(seed=st.integers(0, 100_000))
def test_store_round_trip(seed: int) -> None:
    events, _ = play(mixed_setup(seed), seed, max_events=250)
    log = parse_log(to_jsonl(events), "p")
    with MatchStore(memory=True, snapshot_every=13) as store:
        res = store.import_log(log)
        assert res.created and res.verdict == "legal"
        again = store.import_log(log)
        assert not again.created
        state = GAME.initial_state(events[0])
        state, _ = settle(GAME, state)
        for n in range(1, len(events) + 1):
            if n > 1:
                state, _ = settle(GAME, GAME.apply(state, events[n - 1]))
            _, stored = store.state_at(res.match_id, n)
            assert msgspec.to_builtins(stored) == msgspec.to_builtins(state), f"event {n}"


# ==================================================================================================
# views: --as PLAYER hides the other player's slots, Backup card and unrevealed pick
# ==================================================================================================

def test_view_hides_slots_backup_and_unrevealed_pick_open_picks() -> None:
    s = Script({A: ["spark-wisp", "iron-golem", "iron-golem"] + ["white-wall"] * 5, B: ["storm-coil"] * 8},
               options={"picks": "open"})
    s.refill({A: ["spark-wisp", "iron-golem", "iron-golem"]})
    s.assign(A, "spark-wisp")
    s.add(E.CardPicked(player=A, card="iron-golem"))
    judge = GAME.view(s.s, None)
    ann_view, ben_view = GAME.view(s.s, A), GAME.view(s.s, B)
    ann_b, ben_a = ben_view["players"][0], ann_view["players"][1]
    # an open pick is public at once (LG-6): ben sees ann's battle card, not her slots or Backup card
    assert list(ann_b["slots"]) == [None, None, "?"] and ann_b["backup"] == "?" and ann_b["battle"] == "iron-golem"
    assert list(ben_a["slots"]) == ["?", "?", "?"]
    assert ann_view["players"][0]["battle"] == "iron-golem" and ann_view["players"][0]["backup"] == "spark-wisp"
    assert judge["players"][0]["battle"] == "iron-golem"
    assert ben_view["setup"]["decks"][A] == {} and ben_view["setup"]["decks"][B] == judge["setup"]["decks"][B] != {}
    assert list(ann_view["players"][0]["deck"]) == ["?"] * 5  # nobody sees a deck's order: its size only
    text = GAME.describe(s.s, B)
    assert "spark-wisp" not in text and "battle card: iron-golem" in text
    s.add(E.CardPicked(player=B, card="storm-coil"))
    s.battle()
    assert GAME.view(s.s, B)["players"][0]["backup"] == "?"


def test_view_with_hidden_picks() -> None:
    s = Script()
    s.refill({A: ["iron-golem"] * 3, B: ["storm-coil"] * 3})
    s.commit(A, "iron-golem")
    v = GAME.view(s.s, B)["players"][0]
    assert v["commitment"] == commitment_of("iron-golem", f"secret-{A}-1") and v["battle"] is None
    s.commit(B, "storm-coil")
    s.reveal(A, "iron-golem")
    assert GAME.view(s.s, B)["players"][0]["battle"] == "iron-golem"  # revealed: public
    assert GAME.view(s.s, A)["players"][1]["battle"] is None
    doc = position.document(GAME, s.s, player=B)
    with pytest.raises(LogError):
        position.from_document(msgspec.json.decode(msgspec.json.encode(doc)))


def test_legal_lists_reveals_it_can_open() -> None:
    s = Script()
    s.refill({A: ["iron-golem", "storm-coil", "white-wall"], B: ["storm-coil"] * 3})
    listed = GAME.legal_events(s.s)
    commits = [e for e in listed if type(e) is E.CardCommitted and e.player == A]
    assert len(commits) == 3  # one per distinct playable card, with the example salt
    s.add(commits[1])
    s.add([e for e in GAME.legal_events(s.s) if type(e) is E.CardCommitted][0])
    reveals = [e for e in GAME.legal_events(s.s) if type(e) is E.PickRevealed]
    assert [(e.player, e.card) for e in reveals] == [(A, "storm-coil"), (B, "storm-coil")]
    # a secret salt cannot be guessed: legal then offers only the resignations for that player
    t = Script()
    t.refill()
    t.commit(A, "iron-golem")
    t.commit(B, "iron-golem")
    assert [type(e).__name__ for e in GAME.legal_events(t.s)] == ["Resigned", "Resigned"]
    assert GAME.to_act(t.s) == [A, B]


# -- any pool: random cards the game allows, played out ---------------------------------------------

_CLASSES = ("matter", "energy", "information", "neutral", "life")
_EFFECTS = ("add-card-slot", "remove-card-slot", "regeneration", "shuffle-hand", "destroy-combo", "destroy-backup",
            "neutralize", "maximize", "minimize", "swap-values", "double-combo", "mimmick", "berserk", "color-change")
_STAT = st.one_of(st.sampled_from([0, 1, 99, 100, 25_000, 1_000_000_000]), st.integers(0, 40_000))
_EFFECT = st.one_of(st.none(), st.sampled_from(_EFFECTS).flatmap(
    lambda e: st.tuples(st.just(e), st.sampled_from(_CLASSES), st.sampled_from(_CLASSES)).filter(lambda t: t[1] != t[2])
    if e == "color-change" else st.just((e, None, None))))


def _effect_toml(fx: Any) -> str:
    do, src, to = fx
    return f'{{ do = "{do}", from = "{src}", to = "{to}" }}' if src else f'{{ do = "{do}" }}'


_CARD = st.tuples(st.sampled_from(_CLASSES), _STAT, _STAT, _STAT,
                  st.tuples(*[st.sampled_from(("grey",) * 10 + _CLASSES)] * 3), _EFFECT, _EFFECT)


@settings(max_examples=25, deadline=None)
@given(cards=st.lists(_CARD, min_size=3, max_size=10), seed=st.integers(0, 10_000))
def test_a_pool_of_any_cards_the_game_allows_plays_out(cards: list[Any], seed: int) -> None:
    """Random pools (any class, values from 0 to the limit, Speed 99 and 100, any indicator, any
    effect in either field, any Color Change): a generated match verifies as legal, its derived
    events stated or not, and every position keeps the invariants."""
    import tempfile
    from pathlib import Path

    from adjudicator.core.kernel import sources
    from adjudicator.games.logos.invariants import invariants

    from .logos_scenarios import clear_pool_caches

    text = 'pool = "any-cards"\n'
    for i, (klass, a, d, sp, combo, left, right) in enumerate(cards):
        text += (f'\n[[card]]\nid = "c{i}"\nname = "C{i}"\nclass = "{klass}"\nattack = {a}\ndefense = {d}\nspeed = {sp}\n'
                 f'combo = ["{combo[0]}", "{combo[1]}", "{combo[2]}"]\n')
        text += "".join(f"{side} = {_effect_toml(fx)}\n" for side, fx in (("left", left), ("right", right)) if fx is not None)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "any-cards.toml").write_text(text)
        with sources.using(sources.Sources([tmp])):
            try:
                decks = {p: {f"c{i}": 3 for i in range(len(cards))} for p in ("p1", "p2")}
                setup = E.MatchStarted(game="logos", pool="any-cards", players=["p1", "p2"], decks=decks,
                                       options={"picks": "open", "max_rounds": 40})
                events, final = play(setup, seed, max_events=800, with_derived=True)
                res = run(parse_log(to_jsonl(events), "any"))
                assert res.violations == [], res.violations[:3]
                assert msgspec.to_builtins(res.state) == msgspec.to_builtins(final)
                plain = run(parse_log(to_jsonl([e for e in events if e.kind != "X"]), "any-plain"))
                assert plain.violations == [] and msgspec.to_builtins(plain.state) == msgspec.to_builtins(final)
                assert invariants(final) == []
            finally:
                clear_pool_caches()
