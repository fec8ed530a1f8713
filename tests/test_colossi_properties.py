"""Properties of the Colossi engine over generated matches (beyond the shared conformance suite).

Random legal playouts (bounded in length, under every ruleset option) verify as legal with the
same final position, with or without their derived events; at positions deep into those matches
``legal`` and ``check`` agree both ways and mutated events get a ruling, never an exception; a
complete match survives the event store round trip.
"""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings, strategies as st

from adjudicator.core.kernel.events import bare, encode_line
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.store import MatchStore
from adjudicator.core.kernel.verify import run, settle
from tests.test_conformance import _mutations, _vocabulary

from .colossi_scenarios import GAME, E

OPTIONS = [{}, {"use_traits": False}, {"end_mode": "immediate"}, {"board": "square27"},
           {"beasts_enter_unexplored": True}, {"beast_kills_on_space": True}, {"hand_limit_timing": "end-of-turn"},
           {"voluntary_trait_discard": True}, {"loot_on_explore": "immediate"}, {"card_costs_action": False},
           {"deploy_can_move_banners": False}, {"forced_payment": "nothing"}, {"tie": "first-to-target"},
           {"reshuffle_discard": False}, {"gold_target": 20}]


def setup_of(seed: int) -> E.MatchStarted:
    n = 2 + seed % 3
    return E.MatchStarted(game="colossi", players=[f"p{i + 1}" for i in range(n)], options=OPTIONS[seed % len(OPTIONS)])


def key(e) -> bytes:
    return encode_line(bare(GAME.canonical(e)))


@settings(max_examples=12)
@given(seed=st.integers(0, 100_000))
def test_long_playouts_under_every_option_verify(seed: int) -> None:
    events, final = playout(GAME, seed, max_events=1500, setup=setup_of(seed), with_derived=seed % 2 == 0)
    res = run(parse_log(to_jsonl(events), "p"))
    assert res.violations == [], res.violations[:2]
    assert msgspec.to_builtins(res.state) == msgspec.to_builtins(final)


@settings(max_examples=6)
@given(seed=st.integers(0, 100_000))
def test_deep_positions_agree_and_mutations_get_rulings(seed: int) -> None:
    rng = random.Random(seed)
    events, _ = playout(GAME, seed, max_events=1200, setup=setup_of(seed))
    log = parse_log(to_jsonl(events), "p")
    vocab = _vocabulary(events)
    for n in sorted(rng.sample(range(len(events) // 2, len(events)), min(4, len(events) // 2))):
        state = run(log, upto=n).state
        if GAME.outcome(state) is not None:
            continue
        listed = GAME.legal_events(state)
        keys = {key(e) for e in listed}
        assert len(keys) == len(listed)
        probes = listed[:30] + ([events[n]] if n < len(events) else [])
        for e in probes:
            for d in _mutations(e, rng, vocab):
                try:
                    m = GAME.decoder.decode(msgspec.json.encode(d))
                except msgspec.ValidationError:
                    continue
                r = GAME.check(state, m)
                assert r.code != "core/engine-error"
                if r.legal:
                    assert key(m) in keys, (n, d)
                    GAME.apply(state, m)


def test_a_complete_match_round_trips_through_the_store() -> None:
    events, final = playout(GAME, 11, max_events=4000, setup=setup_of(0))
    assert GAME.outcome(final) is not None
    log = parse_log(to_jsonl(events), "complete")
    with MatchStore(memory=True, snapshot_every=50) as store:
        res = store.import_log(log)
        assert res.created and res.verdict == "legal"
        state, _ = settle(GAME, GAME.initial_state(events[0]))
        for n in range(2, len(events) + 1):
            state, _ = settle(GAME, GAME.apply(state, events[n - 1]))
            if n % 97 == 0 or n == len(events):
                _, stored = store.state_at(res.match_id, n)
                assert msgspec.to_builtins(stored) == msgspec.to_builtins(state), n


def test_long_setup_raises_the_target() -> None:
    long = GAME.sample_setup(1, long=True)
    assert long.options["gold_target"] >= 100_000
    events, final = playout(GAME, 1, max_events=2500, long=True)
    assert len(events) == 2500 and GAME.outcome(final) is None


def test_most_standard_matches_end() -> None:
    ended = 0
    for seed in range(8):
        _, final = playout(GAME, seed, max_events=5000)
        ended += GAME.outcome(final) is not None
    assert ended >= 7
