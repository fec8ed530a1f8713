"""An independent audit of LOGOS against its rule document (seed 001 and docs/rules/logos.md).

Matches are generated over many seeds and every ruleset option, and played against an independent
referee written from the rule text (tests/logos_oracle.py, which imports no rule helper of the
engine).  At every step of every match:

* the decisions the referee allows are exactly the ones the engine lists (``legal_events``), and
  each is accepted by ``check`` (the referee chooses the next decision among its own, so a rule
  the engine forgets to list would show as a refusal);
* what the engine derives after each decision (a deck rebuilt, a defenseless player, each
  direction, each effect, each strike, the end of a round with its combo pushes, the end of the
  match) is what the referee derives, event for event;
* decisions the rules forbid (wrong player, wrong card, a card not in the slots or the deck, a
  combo not met, a Backup card not eligible or the last playable card, a second pick, out of
  phase) are refused with the rule id the rule document names;
* each seat's record of the event (``redact``) hides what the rules hide from that seat.

Matches are drawn with hypothesis (``PROPERTY_SCALE``: ``ADJUDICATOR_PROPERTY_SCALE=N`` draws
N times as many, new ones each run).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings, strategies as st

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.verify import propose, start
from adjudicator.games.logos import events as E

from .logos_oracle import Referee, backup_ok, combo_ok, sha
from .logos_scenarios import GAME, POOL

#: every ruleset option and the values a generated match may take (the default among them)
OPTIONS: dict[str, list[Any]] = {
    "start_hp": [100_000, 30_000, 60_000],
    "start_slots": [3, 0, 1, 2, 4, 5],
    "on_empty_deck": ["reshuffle-discard", "stay-empty"],
    "picks": ["commit-reveal", "open"],
    "combo_counter": ["per-player", "shared"],
    "push_on_deadlock": [False, True],
    "effect_order": ["defender-first", "attacker-first"],
    "field_order": ["left-then-right", "right-then-left"],
    "deadlock_before_effects": [True, False],
    "max_counters": [1, 0, 2, 3],
    "defenseless_defense": [0, 5000],
    "backup_call_order": ["defender-first", "attacker-first"],
    "hp_cap": ["start-hp", "none"],
    "shuffle_hand_to": ["discard", "deck"],
    "mimmick_target": ["by-mimmick-field", "by-source-field"],
    "resign_result": ["draw", "opponent-wins"],
    "max_rounds": [None, 12, 40],
    "stall_rounds": [3, 1, 2],
}

SCALE_SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def audit_setup(seed: int) -> E.MatchStarted:
    """The sample set-up of ``seed`` (random decks, or decks built around a combo card) with a
    seeded choice of every option; small decks now and then, so that decks run out."""
    rng = random.Random(seed)
    base = GAME.sample_setup(seed)
    options: dict[str, Any] = {}
    for name in sorted(OPTIONS):
        if rng.random() < 0.4:
            options[name] = rng.choice(OPTIONS[name])
    slots = options.get("start_slots", 3)
    options["min_slots"] = rng.choice([0, 1]) if slots >= 1 else 0
    options["min_slots"] = min(options["min_slots"], slots)
    options["max_slots"] = max(slots, rng.choice([4, 6, 8]))
    decks = base.decks
    if rng.random() < 0.25:  # a small deck: the refill meets an empty deck (LG-4)
        decks = {p: dict(list(d.items())[: rng.randint(3, 6)]) for p, d in decks.items()}
    return msgspec.structs.replace(base, options=options, decks=decks)


def key(e: Any) -> tuple[Any, ...]:
    """A decision as the referee names it: (type, player, card)."""
    t = type(e).__name__
    if t == "CardCommitted":
        return (t, e.player, "commitment")
    if t == "PickRevealed":
        return (t, e.player, e.card)
    if t in ("BackupCalled", "BackupPassed", "Resigned"):
        return (t, e.player, None)
    return (t, e.player, e.card)


def derived_dict(e: Any) -> dict[str, Any]:
    d = {f: msgspec.to_builtins(getattr(e, f)) for f in e.__struct_fields__}
    d["type"] = type(e).__name__
    return d


def same(engine: list[Any], ours: list[dict[str, Any]], where: str) -> None:
    got = [derived_dict(e) for e in engine]
    for i in range(max(len(got), len(ours))):
        g = got[i] if i < len(got) else None
        o = ours[i] if i < len(ours) else None
        if g is None or o is None or any(g.get(k) != v for k, v in o.items()):
            raise AssertionError(f"{where}: derived event {i}: engine {g} but the rules give {o}\n"
                                 f"engine: {got}\nrules: {ours}")


def to_event(ref: Referee, t: tuple[Any, ...], salts: dict[str, str]) -> Any:
    kind, pid, card = t
    if kind == "CardCommitted":
        salts[pid] = f"audit-{ref.round}-{pid}-{random.Random(hash((ref.round, pid))).random()}"
        return E.CardCommitted(player=pid, commitment=sha(card, salts[pid]))
    if kind == "PickRevealed":
        return E.PickRevealed(player=pid, card=card, salt=salts[pid])
    if kind == "BackupCalled":
        return E.BackupCalled(player=pid)
    if kind in ("BackupPassed", "Resigned"):
        return getattr(E, kind)(player=pid)
    return getattr(E, kind)(player=pid, card=card)


def weight(t: tuple[Any, ...]) -> float:
    return {"Resigned": 0.0002, "BackupAssigned": 0.4, "BackupCalled": 0.6}.get(t[0], 1.0)


def play_against_referee(setup: E.MatchStarted, seed: int, max_decisions: int = 400,
                         probe: Any = None, trace: list[Any] | None = None, pool: Any = POOL) -> tuple[Referee, Any, list[Any]]:
    """Play ``setup`` with decisions the referee allows, comparing the engine at every step;
    ``probe(state, ref)`` runs before each decision (the refusal checks).  Returns the referee,
    the engine's last position and the log (derived events included)."""
    rng = random.Random(seed)
    state, ruling, derived = start(GAME, setup)
    assert ruling.legal, ruling
    ref = Referee(setup, pool)
    same(derived, ref.drain(), "set-up")
    log: list[Any] = [setup, *derived]
    salts: dict[str, str] = {}
    for n in range(max_decisions):
        if ref.over is not None:
            assert GAME.outcome(state) is not None, "the rules ended the match, the engine did not"
            break
        assert GAME.outcome(state) is None, f"the engine ended the match ({GAME.outcome(state)}), the rules did not"
        ours = ref.legal()
        listed = GAME.legal_events(state)
        theirs = {key(e) for e in listed if type(e) is not E.PickRevealed}
        want = {("CardCommitted", t[1], "commitment") if t[0] == "CardCommitted" else t for t in ours
                if t[0] != "PickRevealed"}
        assert theirs == want, (f"decision {n} (round {ref.round}, {ref.phase}): the engine lists {sorted(theirs - want)} "
                                f"the rules forbid, and not {sorted(want - theirs)} the rules allow")
        acting = sorted({d[1] for d in ours if d[0] != "Resigned"})
        assert sorted(GAME.to_act(state)) == acting, (f"decision {n} (round {ref.round}, {ref.phase}): the engine "
                                                      f"waits for {GAME.to_act(state)}, the rules for {acting}")
        if probe is not None:
            probe(state, ref)
        choice = rng.choices(ours, [weight(t) for t in ours])[0]
        event = to_event(ref, choice, salts)
        before = state
        ruling, derived, state = propose(GAME, state, event)
        assert ruling.legal, f"decision {n}: {event} is allowed by the rules but refused: {ruling}"
        if trace is not None:
            trace.append((before, copy.deepcopy(ref), event, derived, state))
        ref.take(*choice)
        same(derived, ref.drain(), f"after decision {n} {GAME.describe_event(event)}")
        log += [event, *derived]
    return ref, state, log


@SCALE_SETTINGS
@given(seed=st.integers(0, 100_000))
def test_the_engine_plays_as_the_rules_read_under_every_option(seed: int) -> None:
    """Legal decisions, their acceptance and every derived consequence agree with the referee."""
    play_against_referee(audit_setup(seed), seed)


def test_the_audit_reaches_every_rule() -> None:
    """The generated matches of the audit reach every effect (applied, and blocked or without
    effect), every basis of direction, counters, Backup calls, defenseless players, rebuilt decks
    and every end of a match, so the agreement above covers them."""
    seen: set[str] = set()
    for seed in range(30):
        _, _, log = play_against_referee(audit_setup(seed), seed)
        for e in log:
            t = type(e).__name__
            seen.add(t)
            if t == "EffectResolved":
                seen.add(f"{e.copied or e.effect}:{e.result}")
                if e.copied and e.result == "applied":
                    seen.add("copied")
            elif t == "DirectionDetermined":
                seen.add(f"basis:{e.basis}")
            elif t == "StrikeResolved" and e.counter:
                seen.add("counter")
            elif t == "GameEnded":
                seen.add(f"end:{e.reason}")
    need = {"BackupCalled", "BackupPassed", "Defenseless", "DeckRebuilt", "counter", "basis:class", "basis:speed",
            "basis:deadlock", "basis:defenseless", "end:hit-points"}
    need |= {f"{x}:applied" for x in ("add-card-slot", "remove-card-slot", "regeneration", "shuffle-hand", "destroy-combo",
                                      "destroy-backup", "neutralize", "maximize", "minimize", "swap-values", "double-combo",
                                      "berserk", "color-change")}
    need |= {"copied", "neutralize:blocked", "berserk:no-change", "color-change:no-change"}
    assert need <= seen, sorted(need - seen)


# -- what the rules forbid ------------------------------------------------------------------------

#: a commitment's salt the probes use (any text; the probes never reveal with it)
PROBE_SALT = "probe"


def forbidden(ref: Referee) -> list[tuple[Any, set[str], str]]:
    """Decisions the rule text forbids in the referee's position, each with the rule ids the
    rule document gives for the refusal and why.  Built from the referee's own position."""
    out: list[tuple[Any, set[str], str]] = []
    o = ref.o
    open_picks = o["picks"] == "open"
    pool = ref.pool
    pool_ids = sorted(pool.cards)
    a, b = (ref.p[pid] for pid in ref.ids)

    def pick(pid: str, card: str) -> Any:
        return E.CardPicked(player=pid, card=card) if open_picks else E.CardCommitted(player=pid, commitment=sha(card, PROBE_SALT))

    wrong_form = {"LG-6"}  # LG-6: the other form of pick than the ruleset's
    for s in (a, b):
        chosen = s.picked or s.commitment is not None
        out.append((E.CardCommitted(player=s.id, commitment=sha(pool_ids[0], "x")) if open_picks
                    else E.CardPicked(player=s.id, card=pool_ids[0]), wrong_form, "the other form of pick (LG-6)"))
        if ref.phase != "refill":
            out.append((E.CardDrawn(player=s.id, card=pool_ids[0]), {"LG-2.2"}, "a draw outside the refill (LG-2.2)"))
        if ref.phase != "window":
            out.append((E.BackupCalled(player=s.id), {"LG-4.2"}, "a Backup call outside the window (LG-4.2)"))
            out.append((E.BackupPassed(player=s.id), {"LG-4.2"}, "a Backup pass outside the window (LG-4.2)"))
        elif ref.asked != s.id:
            out.append((E.BackupCalled(player=s.id), {"LG-4.2"}, "a Backup call by the player not asked (LG-4.2)"))
            out.append((E.BackupPassed(player=s.id), {"LG-4.2"}, "a Backup pass by the player not asked (LG-4.2)"))
        else:
            wrong = next(c for c in pool_ids if c != s.backup)
            out.append((E.BackupCalled(player=s.id, card=wrong), {"LG-39"}, "a Backup call naming another card (LG-39)"))
        if ref.phase == "refill":
            nxt = ref.refill_player()
            assert nxt is not None
            if s is nxt:
                missing = [c for c in pool_ids if s.deck[c] <= 0]
                if missing:
                    out.append((E.CardDrawn(player=s.id, card=missing[0]), {"LG-2.3"}, "a card the deck does not hold (LG-2.3)"))
            else:
                out.append((E.CardDrawn(player=s.id, card=pool_ids[0]), {"LG-2.2"}, "the other player's slots first (LG-2.2)"))
            out.append((E.BackupAssigned(player=s.id, card=pool_ids[0]), {"LG-4.1"}, "a Backup assignment in the refill (LG-4.1)"))
            if open_picks:
                out.append((pick(s.id, pool_ids[0]), {"LG-2.1", "LG-2.2"}, "a pick in the refill (LG-2.1)"))
        elif ref.phase == "pick":
            if s.defenseless:
                out.append((pick(s.id, pool_ids[0]), {"LG-2.4"}, "a pick by a defenseless player (LG-2.4)"))
                out.append((E.BackupAssigned(player=s.id, card=pool_ids[0]), {"LG-2.4"}, "a Backup card from a defenseless player (LG-2.4)"))
            elif chosen:
                out.append((pick(s.id, pool_ids[0]), {"LG-3.1"}, "a second pick (LG-3.1)"))
                out.append((E.BackupAssigned(player=s.id, card=pool_ids[0]), {"LG-4.1"}, "a Backup card after the pick (LG-4.1)"))
            else:
                held = [c for c in s.slots if c is not None]
                if open_picks:
                    absent = [c for c in pool_ids if c not in held]
                    if absent:
                        out.append((pick(s.id, absent[0]), {"LG-3.2"}, "a card not in the slots (LG-3.2)"))
                    for c in held:
                        if not combo_ok(pool[c], ref.counter(s.id)):
                            out.append((pick(s.id, c), {"LG-3.3"}, f"{c}: a combo not met (LG-3.3)"))
                else:
                    out.append((E.CardCommitted(player=s.id, commitment="not-a-hash"), {"LG-3.4"}, "a malformed commitment (LG-3.4)"))
                    out.append((E.PickRevealed(player=s.id, card=held[0] if held else pool_ids[0], salt="x"), {"LG-3.4"},
                                "a reveal before the commitments (LG-3.4)"))
                if s.backup is not None:
                    for c in held:
                        if backup_ok(pool[c]):
                            out.append((E.BackupAssigned(player=s.id, card=c), {"LG-4.1"}, "one Backup Slot (LG-4.1, LG-18)"))
                else:
                    for c in sorted(set(held)):
                        if not backup_ok(pool[c]):
                            out.append((E.BackupAssigned(player=s.id, card=c), {"LG-4.1"}, f"{c} is not eligible (LG-4.1)"))
                        else:
                            rest = list(s.slots)
                            rest[rest.index(c)] = None
                            if not any(x is not None and combo_ok(pool[x], ref.counter(s.id)) for x in rest):
                                out.append((E.BackupAssigned(player=s.id, card=c), {"LG-17"}, f"{c} is the last playable card (LG-17)"))
                    eligible = [c for c in pool_ids if backup_ok(pool[c]) and c not in held]
                    if eligible:
                        out.append((E.BackupAssigned(player=s.id, card=eligible[0]), {"LG-4.1"}, "an eligible card not in the slots (LG-4.1)"))
        elif ref.phase == "reveal":
            if s.commitment is not None and not s.picked:
                out.append((E.PickRevealed(player=s.id, card=s.commitment, salt="wrong-salt"), {"LG-3.4"}, "a reveal that does not open the commitment (LG-3.4)"))
            elif s.picked:
                out.append((E.PickRevealed(player=s.id, card=s.battle or pool_ids[0], salt="x"), {"LG-3.4"}, "a second reveal (LG-3.4)"))
            if not s.defenseless:
                out.append((E.CardCommitted(player=s.id, commitment=sha(pool_ids[0], "x")) if not open_picks else pick(s.id, pool_ids[0]),
                            {"LG-3.1"}, "a second commitment (LG-3.1)"))
            out.append((E.BackupAssigned(player=s.id, card=pool_ids[0]), {"LG-4.1", "LG-2.4"}, "a Backup assignment after the picks (LG-4.1)"))
        elif ref.phase == "window":
            if not s.defenseless and open_picks:
                out.append((pick(s.id, pool_ids[0]), {"LG-3.1"}, "a pick in the battle (LG-3.1)"))
            out.append((E.BackupAssigned(player=s.id, card=pool_ids[0]), {"LG-4.1", "LG-2.4"}, "a Backup assignment in the battle (LG-4.1)"))
    return out


def refusals(state: Any, ref: Referee) -> None:
    for event, rules, why in forbidden(ref):
        ruling = GAME.check(state, event)
        assert not ruling.legal, f"round {ref.round} {ref.phase}: {event} is forbidden ({why}) but {ruling.verdict}: {ruling}"
        assert ruling.rule in rules, f"round {ref.round} {ref.phase}: {event} ({why}) refused with {ruling.rule} [{ruling.code}] {ruling.message}"


@SCALE_SETTINGS
@given(seed=st.integers(0, 100_000))
def test_what_the_rules_forbid_is_refused_with_the_rule_that_forbids_it(seed: int) -> None:
    """At every step of a generated match, each decision the rules forbid there is refused, citing
    the rule the rule document gives; after the end, every decision is refused (LOG-3)."""
    ref, state, _ = play_against_referee(audit_setup(seed), seed, probe=refusals)
    if ref.over is not None:
        for pid in ref.ids:
            for event in (E.Resigned(player=pid), E.CardDrawn(player=pid, card="iron-golem"), E.BackupPassed(player=pid)):
                ruling = propose(GAME, state, event)[0]
                assert not ruling.legal and ruling.rule == "LOG-3", ruling


# -- what each seat may see -----------------------------------------------------------------------

def seat_sees(state: Any, ref: Referee, event: Any) -> None:
    """Each seat's record of ``event`` and view of the position hide what the rules hide from it:
    the opponent's draws, Backup card, card slots and deck (and the card behind a commitment)."""
    for seat in ref.ids:
        r = GAME.redact(event, seat, state)
        t = type(event)
        mine = getattr(event, "player", None) == seat
        if t in (E.CardDrawn, E.BackupAssigned):
            if mine:
                assert r == event, (seat, event, r)
            else:
                assert r.card in (None, HIDDEN), f"{seat}'s record names the opponent's {t.__name__} card: {r}"
        elif t in (E.CardPicked, E.PickRevealed, E.CardCommitted, E.BackupPassed, E.Resigned):
            assert r == event, f"{seat}'s record changes a public event: {event} -> {r}"
        view = GAME.view(state, seat)
        for p in view["players"]:
            if p["id"] == seat:
                continue
            real = ref.p[p["id"]]
            assert all(c in (None, HIDDEN) for c in p["slots"]), f"{seat} sees the opponent's slots {p['slots']}"
            assert len(p["slots"]) == len(real.slots)
            assert p["backup"] in (None, HIDDEN) and (p["backup"] is None) == (real.backup is None)
            assert all(c == HIDDEN for c in p["deck"]) and len(p["deck"]) == sum(real.deck.values())


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000))
def test_each_seat_sees_only_what_the_rules_show_it(seed: int) -> None:
    """Seed 001 (Effects: "after both players have set down their cards"): a pick is hidden until
    both are down; the Guide (analysis 3.1): the slots and the Backup card are a player's own.
    Derived events that name cards moved into a deck name them for their owner only (LG-42)."""
    setup = audit_setup(seed)
    trace: list[Any] = []
    play_against_referee(setup, seed, max_decisions=150, trace=trace)
    into_deck = setup.options.get("shuffle_hand_to") == "deck"
    for before, ref, event, derived, after in trace:
        seat_sees(before, ref, event)
        for e in derived:  # Shuffle Hand into a deck names its cards for their owner only
            if type(e) is E.EffectResolved and e.cards and (e.copied or e.effect) == "shuffle-hand" and after.result is None:
                for seat in setup.players:
                    r = GAME.redact(e, seat, after)
                    if into_deck and seat != e.target:
                        assert all(c in (None, HIDDEN) for c in r.cards), (seat, e, r)
                    else:
                        assert r.cards == e.cards, (seat, e, r)


# -- a hidden pick of a card that cannot be sent ----------------------------------------------------

def bad_commitments(state: Any, ref: Referee) -> None:
    """When one player is left to commit, a commitment to a card it cannot send is accepted
    (nobody can tell, LG-3.2) and its reveal is refused: a card not in the slots with LG-3.2,
    a card whose combo is not met with LG-3.3."""
    if ref.phase != "pick" or ref.o["picks"] == "open":
        return
    left = [pid for pid in ref.ids if not ref.p[pid].defenseless and ref.p[pid].commitment is None]
    if len(left) != 1:
        return
    s = ref.p[left[0]]
    held = [c for c in s.slots if c is not None]
    cases = [(c, "LG-3.3") for c in sorted(set(held)) if not combo_ok(ref.pool[c], ref.counter(s.id))]
    cases += [(c, "LG-3.2") for c in sorted(ref.pool.cards) if c not in held][:1]
    for card, rule in cases:
        committed = E.CardCommitted(player=s.id, commitment=sha(card, "bad"))
        ruling, _, after = propose(GAME, state, committed)
        assert ruling.legal, (committed, ruling)
        ruling = GAME.check(after, E.PickRevealed(player=s.id, card=card, salt="bad"))
        assert not ruling.legal and ruling.rule == rule, (card, rule, ruling)


@SCALE_SETTINGS
@given(seed=st.integers(0, 100_000))
def test_a_hidden_pick_of_a_card_that_cannot_be_sent_is_refused_at_its_reveal(seed: int) -> None:
    setup = audit_setup(seed)
    setup = msgspec.structs.replace(setup, options={**setup.options, "picks": "commit-reveal"})
    play_against_referee(setup, seed, max_decisions=200, probe=bad_commitments)


# -- a consequence stated otherwise -----------------------------------------------------------------

#: fields of derived events and a wrong value for each (LOG-2: the engine derives them)
WRONG: dict[str, Any] = {"damage": lambda v: v + 1, "hp": lambda v: v - 1, "attack": lambda v: v + 1000,
                         "attacker": lambda v: "p1" if v == "p2" else "p2", "result": lambda v: "blocked" if v != "blocked" else "applied",
                         "basis": lambda v: "speed" if v != "speed" else "class", "winner": lambda v: "p1" if v == "p2" else "p2",
                         "count": lambda v: v + 1}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), data=st.data())
def test_a_consequence_stated_otherwise_than_the_rules_derive_is_refused(seed: int, data: st.DataObject) -> None:
    """The log of a generated match, with its derived events as the referee derives them,
    verifies legal; the same log with one derived value changed (the damage, the hit points
    left, the attacker, an effect's result, the direction's basis, the winner) breaks LOG-2 at
    that line."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.playout import to_jsonl
    from adjudicator.core.kernel.verify import run

    _, _, log = play_against_referee(audit_setup(seed), seed, max_decisions=120)
    res = run(parse_log(to_jsonl(log), "audit"))
    assert res.verdict == "legal", res.violations[:2]
    spots = [(i, f) for i, e in enumerate(log) if e.kind == "X" for f in WRONG
             if f in e.__struct_fields__ and getattr(e, f) is not None and (f != "result" or type(e) is E.EffectResolved)]
    if not spots:
        return
    i, f = data.draw(st.sampled_from(spots))
    bad = msgspec.structs.replace(log[i], **{f: WRONG[f](getattr(log[i], f))})
    res = run(parse_log(to_jsonl(log[:i] + [bad] + log[i + 1:]), "audit-bad"))
    assert res.verdict == "illegal" and res.violations[0].seq == i + 1 and res.violations[0].rule == "LOG-2", \
        (bad, [v.as_dict() for v in res.violations[:2]])


# -- a judge takes a forbidden decision back (FIDE 7.5) ---------------------------------------------

@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), data=st.data())
def test_a_forbidden_decision_taken_back_leaves_the_match_as_the_rules_play_it(seed: int, data: st.DataObject) -> None:
    """A forbidden decision inserted before a decision of a generated match, then taken back by
    a judge (FIDE 7.5: the position before it is reinstated): the rest of the match, with the
    consequences the referee derives, verifies legal with one warning citing the rule broken."""
    from adjudicator.core.kernel.events import JudgeRuling
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.playout import to_jsonl
    from adjudicator.core.kernel.verify import run

    trace: list[Any] = []
    _, _, log = play_against_referee(audit_setup(seed), seed, max_decisions=120, trace=trace)
    decisions = [i for i, e in enumerate(log) if i and e.kind != "X"]
    if not decisions:  # (no card slot at all: the match stalls before anybody decides anything)
        return
    k = data.draw(st.integers(0, len(decisions) - 1))
    i = decisions[k]
    ref = trace[k][1]
    assert trace[k][2] is log[i]
    bad = forbidden(ref)
    if not bad:
        return
    x, rules, why = data.draw(st.sampled_from(bad))
    taken = log[:i] + [x, JudgeRuling(event=i + 1, decision="taken-back", judge="audit")] + log[i:]
    res = run(parse_log(to_jsonl(taken), "taken-back"))
    assert res.verdict == "legal", (x, why, [v.as_dict() for v in res.violations[:2]])
    [w] = res.warnings
    assert w.rule in rules, (x, why, w)


# -- set-up: two players, the ruleset's deck limits (LG-1.1, LG-1.2) -------------------------------

@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_set_up_is_legal_exactly_when_the_rules_allow_it(data: st.DataObject) -> None:
    """LG-1.1: exactly two players; LG-1.2: with ``deck_size`` every deck holds exactly that many
    cards, with ``max_copies`` no deck more copies of one card, with ``max_life`` no deck more
    Life cards; the ``demo`` preset asks for 25 cards.  Checked from the deck lists alone."""
    ids = sorted(POOL.cards)
    n = data.draw(st.sampled_from([2, 2, 2, 3, 1]))
    players = [f"p{i + 1}" for i in range(n)]
    decks = {p: data.draw(st.dictionaries(st.sampled_from(ids), st.integers(1, 5), min_size=1, max_size=8)) for p in players}
    ruleset = data.draw(st.sampled_from(["standard", "demo"]))
    options: dict[str, Any] = {}
    if data.draw(st.booleans()):
        options["deck_size"] = data.draw(st.integers(0, 30))
    if data.draw(st.booleans()):
        options["max_copies"] = data.draw(st.integers(1, 4))
    if data.draw(st.booleans()):
        options["max_life"] = data.draw(st.integers(0, 3))
    setup = E.MatchStarted(game="logos", players=players, decks=decks, ruleset=ruleset, options=options)
    ruling = GAME.check_start(setup)
    size = options.get("deck_size", 25 if ruleset == "demo" else None)
    problems: list[tuple[str, str]] = []
    if n != 2:
        problems.append(("LG-1.1", "logos/two-players"))
    for p in players:
        d = decks[p]
        if size is not None and sum(d.values()) != size:
            problems.append(("LG-1.2", "logos/deck-size"))
        if "max_copies" in options and max(d.values()) > options["max_copies"]:
            problems.append(("LG-1.2", "logos/too-many-copies"))
        if "max_life" in options and sum(k for c, k in d.items() if POOL[c].klass == "life") > options["max_life"]:
            problems.append(("LG-1.2", "logos/too-many-life"))
    if not problems:
        assert ruling.legal, (setup, ruling)
    else:
        assert not ruling.legal and (ruling.rule, ruling.code) in problems, (setup, problems, ruling)


# -- each seat's record verifies to the public facts of the match -----------------------------------

@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), with_derived=st.booleans())
def test_each_seats_record_reaches_the_public_facts_the_rules_give(seed: int, with_derived: bool) -> None:
    """A seat's record (``redact --as``) of a generated match under any options is never illegal,
    and it reaches what both players saw as the referee has it: the hit points, the combo counters,
    the round and the end of the match."""
    ref, _, log = play_against_referee(audit_setup(seed), seed, max_decisions=150)
    records_agree(ref, log if with_derived else [e for e in log if e.kind != "X"])


def known_effect_mismatch(v: Any) -> bool:
    """The one defect the audit found and left open (tests/test_audit_logos_records.py): a record
    that states an effect naming the opponent's cards it moved, where the record's engine derives
    them unknown because the match ends before anybody acts again (LOG-2 on that effect)."""
    return v.rule == "LOG-2" and "but the engine derived effect" in v.message and "cards [?" in v.message


def records_agree(ref: Referee, log: list[Any]) -> None:
    """Each seat's record of ``log`` verifies legal or undetermined, to the referee's public facts."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.playout import to_jsonl
    from adjudicator.core.kernel.seats import redact_log
    from adjudicator.core.kernel.verify import run

    data = to_jsonl(log)
    for seat in ref.ids:
        record = to_jsonl(list(redact_log(parse_log(data, "full"), seat)))
        res = run(parse_log(record, f"record@{seat}"))
        if res.verdict == "illegal" and known_effect_mismatch(res.violations[0]):
            continue  # a known defect, left to the lead: test_audit_logos_records.py (xfail, strict)
        assert res.verdict in ("legal", "undetermined"), (seat, [v.as_dict() for v in res.violations[:2]])
        s = res.state
        if s.alts or GAME.follows_stated(s):  # (several positions, LG-38; or the record's log ends where
            continue                           # the record waits for it to state what an effect showed, LG-42)
        assert s.round == ref.round or ref.over is not None, (seat, s.round, ref.round)
        for p in s.players:
            mine = ref.p[p.id]
            assert p.hp == mine.hp, (seat, p.id, p.hp, mine.hp)
            assert list(p.combo) == mine.combo, (seat, p.id, p.combo, mine.combo)
            assert len(p.slots) == len(mine.slots) or ref.over is not None
        assert list(s.shared_combo) == ref.shared
        if ref.over is not None:
            assert s.result is not None and (s.result.result, s.result.winner, s.result.reason) == \
                (ref.over["result"], ref.over["winner"], ref.over["reason"])
