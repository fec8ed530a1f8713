"""Kolossus under random rulesets: hypothesis draws options, chapters, seatings and dice
generators; random legal playouts (bounded in length) must verify as legal, ``legal`` and
``check`` must agree both ways, and mutated events must get a ruling, never an exception.

The conformance suite does the same for the default ruleset (``sample_setup``); this file reaches
the option paths it cannot (allies that block, no reversal, a miniature named before the roll,
any region in the Great Quake with riders falling off, threshold Defence, ...)."""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings, strategies as st

from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.verify import run

from .kolossus_scenarios import GAME, setup
from .test_conformance import _key, _mutations, _vocabulary

OPTIONS = st.fixed_dictionaries({}, optional={
    "quake_regions": st.sampled_from(["central", "all"]),
    "quake_distance": st.sampled_from(["exact", "up-to"]),
    "quake_moves": st.sampled_from(["warband", "player"]),
    "invasion_mana": st.booleans(),
    "mana_table": st.lists(st.integers(0, 4), min_size=4, max_size=4),
    "must_spend_all": st.booleans(),
    "choose_after_roll": st.booleans(),
    "allow_reversal": st.booleans(),
    "allies_as_own": st.booleans(),
    "defence_mode": st.sampled_from(["cost", "threshold"]),
    "crystal_capture": st.sampled_from(["end-of-move", "on-enter"]),
    "crystal_majority": st.sampled_from(["relative", "absolute"]),
    "wipeout": st.sampled_from(["warband", "player", "never"]),
    "colossus_beatable": st.booleans(),
    "skill_cap": st.one_of(st.none(), st.integers(1, 3)),
    "rebirth_can_activate": st.booleans(),
    "rounds": st.integers(1, 4),
    "board": st.sampled_from(["zikkurat-11", "zikkurat-11-edge"]),
})


@st.composite
def matches(draw):
    options = draw(OPTIONS)
    chapter = draw(st.sampled_from([1, 2, 3]))
    players = draw(st.sampled_from([2, 3, 4]))
    rng = draw(st.booleans())
    seed = draw(st.integers(0, 10_000))
    return setup(f"chapter-{chapter}", options, players=players, seed=seed if rng else None,
                 rng="python-random" if rng else None), seed


@settings(max_examples=20)
@given(matches())
def test_random_rulesets_play_legal_matches(m) -> None:
    match, seed = m
    events, final = playout(GAME, seed, max_events=250, setup=match)
    res = run(parse_log(to_jsonl(events), "p"))
    assert res.violations == [], res.violations[:2]
    assert msgspec.to_builtins(res.state) == msgspec.to_builtins(final)
    if match.options.get("rounds", 12) <= 2 and len(events) < 250:
        assert GAME.outcome(final) is not None


@settings(max_examples=12)
@given(matches())
def test_random_rulesets_legal_and_check_agree(m) -> None:
    match, seed = m
    rng = random.Random(seed)
    events, _ = playout(GAME, seed, max_events=200, setup=match)
    vocab = _vocabulary(events)
    log = parse_log(to_jsonl(events), "p")
    for n in sorted(rng.sample(range(1, len(events) + 1), min(5, len(events)))):
        state = run(log, upto=n).state
        if GAME.outcome(state) is not None:
            continue
        listed = GAME.legal_events(state)
        keys = {_key(e, GAME) for e in listed}
        assert len(keys) == len(listed)
        for e in listed:
            assert GAME.check(state, e).legal, e
        probes = list(listed[:30]) + ([events[n]] if n < len(events) else [])
        for e in probes:
            for d in _mutations(e, rng, vocab):
                try:
                    mut = GAME.decoder.decode(msgspec.json.encode(d))
                except msgspec.ValidationError:
                    continue
                ruling = GAME.check(state, mut)
                assert ruling.code != "core/engine-error"
                if ruling.legal:
                    assert _key(mut, GAME) in keys, f"after event {n}: {d} passes check but is not listed"
