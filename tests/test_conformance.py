"""The conformance suite: properties every registered game must have.

Run over every game in the registry (plus the core's test game): random legal playouts verify as
legal; legal events and check agree both ways; a replay equals the live state; position
documents round-trip; a randomly mutated event gets a ruling, never an exception.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, strategies as st

from adjudicator.core.kernel import position, registry
from adjudicator.core.kernel.events import bare, encode_line
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.verify import run, settle
from tests.toygame import install

install()
GAMES = [g.id for g in registry.games()]
MAX_EVENTS = 400


def game(gid):
    return registry.get(gid)


@pytest.fixture(params=GAMES)
def gid(request):
    return request.param


def _key(e, g=None) -> bytes:
    return encode_line(bare(g.canonical(e) if g is not None else e))


@given(seed=st.integers(0, 10_000))
@pytest.mark.parametrize("gid", GAMES)
def test_random_playouts_verify_as_legal(gid, seed):
    g = game(gid)
    events, final = playout(g, seed, max_events=MAX_EVENTS)
    res = run(parse_log(to_jsonl(events), f"playout-{seed}"))
    assert res.violations == [], res.violations[:3]
    assert res.events == len(events)
    assert msgspec.to_builtins(res.state) == msgspec.to_builtins(final)


@pytest.mark.parametrize("gid", GAMES)
def test_many_playouts_reach_the_end(gid):
    g = game(gid)
    ended = 0
    for seed in range(12):
        events, final = playout(g, seed, max_events=5000)
        ended += g.outcome(final) is not None
    assert ended >= 10, f"only {ended} of 12 random matches of {gid} reached an end"


@given(seed=st.integers(0, 10_000))
@pytest.mark.parametrize("gid", GAMES)
def test_stated_derived_events_are_confirmed(gid, seed):
    """A log that states every derived event verifies exactly like one that leaves them out."""
    g = game(gid)
    events, final = playout(g, seed, max_events=MAX_EVENTS, with_derived=True)
    res = run(parse_log(to_jsonl(events), "with-derived"))
    assert res.violations == []
    assert msgspec.to_builtins(res.state) == msgspec.to_builtins(final)


def _mutations(e, rng: random.Random, vocabulary: dict[str, list]):
    """Variants of an event: each field replaced by another value of the same JSON shape."""
    data = msgspec.to_builtins(e)
    out = []
    for k, v in data.items():
        if k in ("type", "seq", "at", "note", "game"):
            continue
        for _ in range(3):
            d = dict(data)
            if isinstance(v, bool):
                d[k] = not v
            elif isinstance(v, int):
                d[k] = rng.choice([v + 1, v - 1, 0, -1, 10**6, rng.randint(-5, 60)])
            elif isinstance(v, str):
                d[k] = rng.choice(vocabulary["str"] + ["", "nobody", "F999"])
            elif isinstance(v, list):
                choice = rng.random()
                if choice < 0.3 and v:
                    d[k] = v[:-1]
                elif choice < 0.6:
                    d[k] = v + [rng.choice(vocabulary["str"]) if not v or isinstance(v[0], str) else rng.randint(-2, 30)]
                else:
                    d[k] = list(reversed(v))
            else:
                continue
            out.append(d)
    return out


def _vocabulary(events) -> dict[str, list]:
    strs: list[str] = []
    for e in events:
        for v in msgspec.to_builtins(e).values():
            if isinstance(v, str) and v not in strs:
                strs.append(v)
            if isinstance(v, list):
                strs += [x for x in v if isinstance(x, str) and x not in strs]
    return {"str": strs[:200]}


@given(seed=st.integers(0, 10_000))
@pytest.mark.parametrize("gid", GAMES)
def test_legal_and_check_agree_both_ways(gid, seed):
    """Every listed event passes check; every variant that passes check is listed."""
    g = game(gid)
    rng = random.Random(seed)
    events, _ = playout(g, seed, max_events=MAX_EVENTS)
    vocab = _vocabulary(events)
    log = parse_log(to_jsonl(events), "p")
    for n in sorted(rng.sample(range(1, len(events) + 1), min(6, len(events)))):
        state = run(log, upto=n).state
        if g.outcome(state) is not None:
            continue
        listed = g.legal_events(state)
        keys = {_key(e, g) for e in listed}
        assert len(keys) == len(listed), "legal_events lists a choice twice"
        for e in listed:
            assert g.check(state, e).legal, (n, e)
        probes = list(listed) + ([events[n]] if n < len(events) else [])
        for e in probes[:40]:
            for d in _mutations(e, rng, vocab):
                try:
                    m = g.decoder.decode(msgspec.json.encode(d))
                except msgspec.ValidationError:
                    continue
                ruling = g.check(state, m)
                assert ruling.code != "core/engine-error"
                if ruling.legal and ruling.engine_checked:
                    assert _key(m, g) in keys, f"after event {n}: {d} passes check but is not listed"


@given(seed=st.integers(0, 10_000))
@pytest.mark.parametrize("gid", GAMES)
def test_mutated_event_gets_a_ruling_never_an_exception(gid, seed):
    g = game(gid)
    rng = random.Random(seed)
    events, _ = playout(g, seed, max_events=MAX_EVENTS)
    vocab = _vocabulary(events)
    i = rng.randrange(1, len(events))
    for d in _mutations(events[i], rng, vocab):
        lines = to_jsonl(events[:i]) + msgspec.json.encode(d) + b"\n" + to_jsonl(events[i + 1:])
        try:
            log = parse_log(lines, "mutated")
        except Exception as exc:  # unreadable is fine, but only as a LogError
            from adjudicator.core.kernel.errors import LogError

            assert isinstance(exc, LogError), exc
            continue
        res = run(log, keep_going=True)
        for v in res.violations:
            assert v.code != "core/engine-error", v.message


@given(seed=st.integers(0, 10_000), frac=st.floats(0, 1))
@pytest.mark.parametrize("gid", GAMES)
def test_position_document_round_trip(gid, seed, frac, tmp_path_factory):
    g = game(gid)
    events, _ = playout(g, seed, max_events=MAX_EVENTS)
    n = max(1, int(len(events) * frac))
    state = run(parse_log(to_jsonl(events), "p"), upto=n).state
    doc = position.document(g, state, at=n)
    raw = msgspec.json.encode(doc)
    p = tmp_path_factory.mktemp("pos") / "pos.json"
    p.write_bytes(raw)
    g2, state2 = position.load(p)
    assert g2 is g
    assert msgspec.to_builtins(state2) == msgspec.to_builtins(state)
    assert [_key(e) for e in g.legal_events(state2)] == [_key(e) for e in g.legal_events(state)]
    # a player's view hides something but keeps the same shape of public facts
    for pid in g.players(state):
        view = position.document(g, state, player=pid, at=n)
        assert view["view"] == pid
        msgspec.json.encode(view)


@pytest.mark.parametrize("gid", GAMES)
def test_replay_equals_live_state_at_every_event(gid):
    """Folding a prefix from scratch gives the same state as the live fold at that point."""
    g = game(gid)
    events, _ = playout(g, 7, max_events=150)
    log = parse_log(to_jsonl(events), "p")
    state = g.initial_state(events[0])
    state, _ = settle(g, state)
    for n in range(2, len(events) + 1):
        state = g.apply(state, events[n - 1])
        state, _ = settle(g, state)
        assert msgspec.to_builtins(run(log, upto=n).state) == msgspec.to_builtins(state)


@pytest.mark.parametrize("gid", GAMES)
def test_rulings_cite_rules_of_the_rulebook(gid):
    from adjudicator.core.kernel.rulings import CORE_RULES

    g = game(gid)
    rng = random.Random(3)
    events, _ = playout(g, 3, max_events=MAX_EVENTS)
    vocab = _vocabulary(events)
    log = parse_log(to_jsonl(events), "p")
    seen = set()
    for n in range(1, len(events), max(1, len(events) // 15)):
        state = run(log, upto=n).state
        for e in events[n: n + 3]:
            for d in _mutations(e, rng, vocab):
                try:
                    m = g.decoder.decode(msgspec.json.encode(d))
                except msgspec.ValidationError:
                    continue
                r = g.check(state, m)
                seen.add(r.rule)
                assert r.rule in g.rulebook or r.rule in CORE_RULES, r
                assert r.code.startswith(gid + "/") or r.code.startswith("core/"), r
    assert seen


@given(seed=st.integers(0, 10_000))
@pytest.mark.parametrize("gid", GAMES)
def test_store_replay_equals_live_state_at_every_event(gid, seed):
    """Import into the event store; the stored position at every event equals the live fold."""
    from adjudicator.core.store import MatchStore

    g = game(gid)
    events, _ = playout(g, seed, max_events=250)
    log = parse_log(to_jsonl(events), "p")
    with MatchStore(memory=True, snapshot_every=17) as store:
        res = store.import_log(log)
        assert res.created and res.verdict == "legal"
        state = g.initial_state(events[0])
        state, _ = settle(g, state)
        for n in range(1, len(events) + 1):
            if n > 1:
                state, _ = settle(g, g.apply(state, events[n - 1]))
            _, stored = store.state_at(res.match_id, n)
            assert msgspec.to_builtins(stored) == msgspec.to_builtins(state), f"event {n}"
