"""Invariants of positions (``Game.invariants``) hold in every position the rules can reach.

A check that can fail: the invariants are asserted after every applied event, decisions and
derived consequences alike, in random playouts of every registered game (and the toy game), and
after every *mutated* event that ``check`` accepts, so a ``check`` that accepts too much shows up
as a broken position.  And they do fail on positions the rules cannot reach.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.log import decode_event
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.verify import settle
from tests.test_conformance import _mutations, _vocabulary
from tests.toygame import install

install()
GAMES = [g.id for g in registry.games()]


def _fold_checked(g, events):
    """Every position of a playout (derived events stated), checking invariants after each."""
    state = g.initial_state(events[0])
    assert g.invariants(state) == []
    for n, e in enumerate(events[1:], start=2):
        state = g.apply(state, e)
        broken = g.invariants(state)
        assert broken == [], f"after event {n} ({type(e).__name__}): {broken[:3]}"
        yield n, state


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
@pytest.mark.parametrize("gid", GAMES)
def test_invariants_hold_after_every_event_of_a_playout(gid, seed):
    g = registry.get(gid)
    events, _ = playout(g, seed, max_events=400, with_derived=True)
    for _ in _fold_checked(g, events):
        pass


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000))
@pytest.mark.parametrize("gid", GAMES)
def test_accepted_mutations_keep_the_invariants(gid, seed):
    g = registry.get(gid)
    rng = random.Random(seed)
    events, _ = playout(g, seed, max_events=300)
    vocab = _vocabulary(events)
    state, _ = settle(g, g.initial_state(events[0]))
    picks = set(rng.sample(range(1, len(events)), min(12, len(events) - 1)))
    for i, e in enumerate(events[1:], start=1):
        if i in picks:
            for d in _mutations(e, rng, vocab):
                try:
                    m = decode_event(g, msgspec.json.encode(d), "mutated", None)
                    g.validate_refs(g.setup_of(state), m)
                except (AdjudicatorError, Exception):  # unreadable mutations are not for check
                    continue
                if g.check(state, m).legal:
                    after, _ = settle(g, g.apply(state, m))
                    broken = g.invariants(after)
                    assert broken == [], f"{d} was accepted after event {i} and broke {broken[:3]}"
        state, _ = settle(g, g.apply(state, e))


@pytest.mark.parametrize("gid", [x for x in GAMES if x != "toy"])
def test_invariants_catch_a_position_the_rules_cannot_reach(gid):
    """Each game's invariants reject a player reference and a number that cannot be."""
    g = registry.get(gid)
    events, _ = playout(g, 2, max_events=60)
    state, _ = settle(g, g.initial_state(events[0]))
    for e in events[1:]:
        state, _ = settle(g, g.apply(state, e))
    data = msgspec.json.decode(msgspec.json.encode(state))
    broken_player = _replace_first(data, ("player", "turn_player", "warband", "priority", "striker", "id"), "nobody-at-all")
    assert broken_player, "no player field found"
    assert g.invariants(msgspec.convert(data, type(state))) != []
    data = msgspec.json.decode(msgspec.json.encode(state))
    assert _replace_first(data, ("turn", "round", "rolls"), 10 ** 12, kind=int)
    assert g.invariants(msgspec.convert(data, type(state))) != []


def _replace_first(doc, names, value, kind=str) -> bool:
    if isinstance(doc, dict):
        for k in list(doc):
            if k in names and isinstance(doc[k], kind) and not isinstance(doc[k], bool):
                doc[k] = value
                return True
        return any(_replace_first(v, names, value, kind) for k, v in doc.items() if k not in ("setup", "options"))
    if isinstance(doc, (list, tuple)):
        return any(_replace_first(v, names, value, kind) for v in doc)
    return False
