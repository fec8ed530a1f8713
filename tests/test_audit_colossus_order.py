"""An independent audit of Colossus Order against its seed rules (tests/co_audit.py: the oracle,
written from /work/shared/seeds/000_c472f64d2a5590b2.txt and the interpretations of
docs/rules/colossus-order.md, reading the card pool from its TOML file).

Generated matches over random legal decks (one or two colours, 14 to 20 Gems; one seed in five
small decks of 6 to 24 cards, deck validation off) and a random choice
of every ruleset option, each event folded by the oracle: the opening (7 cards, the exchange
limits), the turn (Recovery, the draw step, nothing played in the start phase), the once-a-turn
sets, costs and Gem Levels, attacks (who, which follower, which target), blocks, the deck hit's
Crush and Capture, the Locus hit's capture and replacement, damage and destruction, the X-play
protocol and its chain, the Complete Declaration, deck-out; every card's text
(tests/co_audit_effects.py) and each seat's view (tests/co_audit_view.py).  And both directions at
the decisions (tests/co_audit_moves.py): what the seed allows is legal, what it forbids is refused
with the rule the rule page names.  CI runs fixed seeds; ``ADJUDICATOR_PROPERTY_SCALE=N`` draws N
times as many new matches and prints what they held with ``-s``
(``ADJUDICATOR_PROPERTY_SCALE=10 python3 -m pytest -s tests/test_audit_colossus_order.py -k generated``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
import msgspec
from hypothesis import given, note, settings
from hypothesis import strategies as st

from adjudicator.core.kernel.events import JudgeRuling
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import to_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import run, settle
from adjudicator.games.colossus_order import events as E

from .co_audit import CARDS, GAME, Audit, audit_setup, is_gem, random_deck, seat, steps
from .co_audit_focus import focus_setup, focus_weight
from .co_audit_moves import Probe

#: CI's matches: fixed seeds (each a random set-up, options and play)
FIXED = (0, 1, 2, 3, 4, 5, 6, 13)
EVENTS = 700
#: every how many decisions the both-directions probe runs (every one: slower, finds the same)
PROBE_EVERY = 3


#: every how many decisions a side line of uniformly chosen legal events is audited
EXPLORE = 25


def audited(seed: int, *, bold: bool = False, every: int = PROBE_EVERY) -> Probe:
    setup = audit_setup(seed)
    match = steps(setup, seed, EVENTS, bold=bold)
    return Probe(setup, every, EXPLORE).run(match)


def assert_agrees(a: Audit) -> None:
    assert not a.bad, "\n".join(a.bad[:10])


def test_fixed_matches_follow_the_seed() -> None:
    seen: Counter[str] = Counter()
    for seed in FIXED:
        a = audited(seed, bold=seed % 2 == 1)
        assert_agrees(a)
        seen.update(a.seen)
    # the fixed matches reach every rule the oracle checks
    for what in ("attacks", "blocks", "deck hits", "locus gems captured", "locus non-gems shown", "captures",
                 "follower battles", "failed declarations", "colossus abilities", "abilities", "resolved",
                 "allowed checked", "forbidden checked", "gem-complete", "FollowerDestroyed", "GameEnded"):
        assert seen[what] >= 1, (what, dict(seen))


@settings(max_examples=3, deadline=None, database=None)
@given(seed=st.integers(10, 10**6), bold=st.booleans())
def test_generated_matches_follow_the_seed(seed: int, bold: bool) -> None:
    note(f"audit seed {seed} bold={bold}")
    a = audited(seed, bold=bold)
    print(f"audit seed {seed} bold={bold}:", {k: v for k, v in sorted(a.seen.items()) if k[0].islower()}, flush=True)
    assert_agrees(a)


# -- every card of the pool (card text: the effect vocabulary, docs/games/colossus-order-cards.md) ------

#: the cards whose text the engine models with effects (and the Colossi with abilities)
EFFECT_CARDS = sorted(c for c, d in CARDS.items() if d.get("effects") or d.get("colossus_abilities")
                      or any(ab.get("effects") for ab in d.get("abilities", [])))


def used(match: list[Any], card: str) -> bool:
    return any((isinstance(st.event, E.XPlayResolved) and st.event.card == card)
               or (isinstance(st.event, E.ColossusAbilityActivated) and seat(st.before, st.event.player).colossus == card)
               for st in match)


@pytest.mark.parametrize("card", EFFECT_CARDS)
def test_every_card_does_what_its_text_says(card: str) -> None:
    """A match around each card (three copies, or its Colossus; playouts that draw and play it
    when they may): the audit agrees on every event, and the card (or Colossus ability) resolves."""
    for seed in range(1, 7):
        setup = focus_setup(card, seed)
        match = steps(setup, seed, 300, weight=focus_weight(card))
        assert_agrees(Probe(setup, 7).run(match))
        if used(match, card):
            return
    raise AssertionError(f"{card} never resolved in 6 matches around it")


# -- judges' rulings (docs/log-format.md, "Judges' rulings"; FIDE 7.5) --------------------------------

@pytest.mark.parametrize("seed", (2, 5))
def test_a_refused_event_taken_back_leaves_the_match_as_it_was(seed: int) -> None:
    """Each kind of event the audit found refused, inserted where it was refused and taken back at
    once by a judge: the log is legal, the warning cites the rule the refusal cited, the final
    position is the match's own, and every seat's record verifies (not illegal)."""
    setup = audit_setup(seed)
    match = steps(setup, seed, 400)
    a = Probe(setup, 2).run(match)
    assert_agrees(a)
    log = [setup] + [st.event for st in match if not st.derived]
    final = msgspec.to_builtins(run(parse_log(to_jsonl(log), "match.jsonl")).state)
    rng = random.Random(seed)
    kinds: dict[tuple[str, str], tuple[int, Any, Any]] = {}
    for at, ev, r in a.refusals:
        if isinstance(ev, E.CardDrawn):
            continue  # a draw shows its card: taken back, the drawer still knows it (CO-44)
        if (type(ev).__name__, r.code) not in kinds or rng.random() < 0.1:
            kinds[type(ev).__name__, r.code] = (at, ev, r)
    assert len(kinds) >= 15, sorted(kinds)
    for (name, code), (at, ev, r) in sorted(kinds.items()):
        judged = log[:at] + [ev, JudgeRuling(event=at + 1, decision="taken-back")] + log[at:]
        res = run(parse_log(to_jsonl(judged), f"taken-back-{name}.jsonl"))
        assert res.verdict == "legal", (name, code, ev, [v.as_dict() for v in res.violations][:2])
        warned = [w for w in res.warnings if w.decision == "taken-back" and w.seq == at + 1]
        assert len(warned) == 1 and warned[0].rule == r.rule, (name, code, res.warnings)
        assert msgspec.to_builtins(res.state) == final, (name, code)
        for me in setup.players:
            record = list(redact_log(parse_log(to_jsonl(judged), "judged.jsonl"), me))
            assert run(parse_log(to_jsonl(record), "record.jsonl")).verdict != "illegal", (name, code, me)


@pytest.mark.parametrize("seed", (2, 5))
def test_a_refused_event_that_stands(seed: int) -> None:
    """Each kind of refused event let stand by a judge (CO-45): where its effect on the table is
    defined, the log with legal play generated from there is legal with the warning; where it is
    not, the verdict says so in words (LOG-5), never an engine failure."""
    setup = audit_setup(seed)
    match = steps(setup, seed, 300)
    a = Probe(setup, 3).run(match)
    log = [setup] + [st.event for st in match if not st.derived]
    at_state = {}
    n = 0
    for st in match:
        if not st.derived:
            n += 1
            at_state.setdefault(n, st.before)
    kinds: dict[tuple[str, str], tuple[int, Any, Any]] = {}
    for at, ev, r in a.refusals:
        kinds.setdefault((type(ev).__name__, r.code), (at, ev, r))
    stood = undefined = 0
    for (name, code), (at, ev, r) in sorted(kinds.items()):
        ruling = JudgeRuling(event=at + 1, decision="stands")
        try:
            after, _ = settle(GAME, GAME.apply(at_state[at], ev))
        except Exception:  # noqa: BLE001 - no defined effect: the ruling cannot be followed
            res = run(parse_log(to_jsonl(log[:at] + [ev, ruling] + log[at:]), "stands.jsonl"), keep_going=True)
            assert [v.rule for v in res.violations][:2] == [r.rule, "LOG-5"], (name, code, [v.as_dict() for v in res.violations][:3])
            assert "has no defined effect on the table" in res.violations[1].message, res.violations[1].message
            undefined += 1
            continue
        rest = [st.event for st in steps(setup, seed, 20, start=after) if not st.derived]
        res = run(parse_log(to_jsonl(log[:at] + [ev, ruling] + rest), "stands.jsonl"))
        assert res.verdict == "legal", (name, code, ev, [v.as_dict() for v in res.violations][:2])
        warned = [w for w in res.warnings if w.decision == "stands" and w.seq == at + 1]
        assert len(warned) == 1 and warned[0].rule == r.rule, (name, code, res.warnings)
        stood += 1
    assert stood >= 5 and stood + undefined == len(kinds), (stood, undefined)


# -- deck construction (seed D(i), A3) ----------------------------------------------------------------

def ruling(decks: dict[str, E.DeckList]) -> Any:
    return GAME.check_start(E.MatchStarted(game=GAME.id, players=["ann", "ben"], decks=decks))


@pytest.mark.parametrize("seed", range(12))
def test_deck_construction(seed: int) -> None:
    """50 cards besides the Colossus, at most 20 Gems, at most 3 of a name (ordinary Gems exempt)."""
    rng = random.Random(seed)
    good = random_deck(rng)
    assert ruling({"ann": good, "ben": random_deck(rng)}).allowed
    cards = dict(good.cards)
    gems = [c for c in cards if is_gem(c) and not CARDS[c].get("unique")]
    others = [c for c in cards if not is_gem(c)]

    def bad(changed: dict[str, int], rule: str, code: str) -> None:
        r = ruling({"ann": E.DeckList(colossus=good.colossus, cards=changed), "ben": good})
        assert not r.allowed and (r.rule, r.code) == (rule, f"colossus-order/{code}"), (changed, r)

    bad({**cards, gems[0]: cards[gems[0]] + 1}, "CO-1.2", "deck-size")
    bad({**cards, gems[0]: cards[gems[0]] - 1}, "CO-1.2", "deck-size")
    n_gems = sum(n for c, n in cards.items() if is_gem(c))
    # one more Gem instead of one other card: a 21st Gem, else the 50 still hold
    swap = {**cards, gems[0]: cards[gems[0]] + 1, others[0]: cards[others[0]] - 1}
    if n_gems == 20:
        bad(swap, "CO-1.3", "too-many-gems")
    else:
        assert ruling({"ann": E.DeckList(colossus=good.colossus, cards={k: v for k, v in swap.items() if v}), "ben": good}).allowed
    # a fourth copy of a name (one Gem fewer keeps the 50)
    four = {**cards, others[0]: 4, gems[0]: cards[gems[0]] - (4 - cards[others[0]])}
    bad(four, "CO-1.4", "too-many-copies")
    # ordinary Gems are exempt: any number of one ordinary Gem
    assert any(cards[g] > 3 for g in gems)
    colossus = next(c for c, d in CARDS.items() if d["type"] == "colossus")
    bad({**cards, colossus: 1, gems[0]: cards[gems[0]] - 1}, "CO-1.5", "colossus-in-deck")
    r = ruling({"ann": E.DeckList(colossus=gems[0], cards=cards), "ben": good})
    assert (r.rule, r.code) == ("CO-1.5", "colossus-order/not-a-colossus"), r


# -- hidden information: what a seat's record shows -----------------------------------------------------

@pytest.mark.parametrize("seed", (0, 3, 4, 6, 9))
def test_seat_records_hide_the_opponents_hidden_cards(seed: int) -> None:
    """Seed D(ii), D(iii)4(ii): a hand, face-down Locus cards and the returned cards are hidden from
    the opponent: in a seat's record (``redact``) the opponent's Locus sets, returned cards and
    Locus replacements are unknown, the seat's own are named; the record verifies (not illegal)."""
    setup = audit_setup(seed)
    match = [setup] + [st.event for st in steps(setup, seed, 400) if not st.derived]
    log = parse_log(to_jsonl(match), f"audit-{seed}.jsonl")
    for me in setup.players:
        record = list(redact_log(log, me))
        for e in record:
            hidden = (isinstance(e, E.CardSet) and e.zone == "locus") or isinstance(e, (E.CardsReturned, E.LocusReplaced))
            if not hidden:
                continue
            cards = e.cards if isinstance(e, E.CardsReturned) else [e.card]
            if e.player == me:
                assert "?" not in cards and None not in cards, e
            else:
                assert all(c in ("?", None) for c in cards), (me, e)
        res = run(parse_log(to_jsonl(record), f"audit-{seed}-{me}.jsonl"))
        assert res.verdict != "illegal", (me, res.violations[:3])


# -- deck-out (seed C1, FAQ (victory); CO-23) ------------------------------------------------------------

def test_no_event_empties_both_decks() -> None:
    """Every event of the fixed matches changes at most one player's deck size, so both decks never
    reach 0 at once in play (the finding behind the DEAD entry of tests/test_options_behaviour.py)."""
    for seed in FIXED:
        for st in steps(audit_setup(seed), seed, EVENTS, bold=True):
            moved = [p.id for p, q in zip(st.before.players, st.after.players) if p.deck_count != q.deck_count]
            assert len(moved) <= 1, (seed, st.event, moved)


def test_both_decks_empty_from_the_start() -> None:
    """The one position with both decks at 0 at once: the set-up (deck validation off).  Before the
    first turn there is no turn player: a draw under both values of simultaneous_deckout (CO-23)."""
    empty = E.DeckList(colossus="dawn-bastion-colossus", cards={})
    for value in ("draw", "turn-player-loses"):
        setup = E.MatchStarted(game=GAME.id, players=["ann", "ben"], decks={"ann": empty, "ben": empty},
                               options={"deck_validation": "off", "simultaneous_deckout": value})
        res = run(parse_log(to_jsonl([setup]), "empty.jsonl"))
        assert res.verdict == "legal" and res.outcome.result == "draw", (value, res.outcome)


# -- CO-48: an Attack below 0 deals no damage ----------------------------------------------------------

def test_an_attack_below_zero_deals_no_damage() -> None:
    """CO-48 (found by this audit: the seed compares Attack with Defence, A8, and says nothing of an
    Attack below 0): Bob's Bone Sentry (2/2) attacks, Ann blocks with Bastion Squire and gives the
    attacker -3 Attack (Blinding Radiance): the battle deals 0 damage, not -1."""
    from tests.co_scenarios import B
    from tests.test_co_rules import duel

    s = duel(a=["blinding-radiance"])  # ann's Bastion Squire F1, ben's Bone Sentry F2; 2 white Gems
    squire, sentry = "F1", "F2"
    s.end_turn()
    s.attack(sentry)
    s.block(squire)
    s.pass_()  # bob
    s.play("blinding-radiance")  # ann: the attacker gets -3 Attack
    s.pass_window()
    battle = s.last_derived()[-1]
    assert battle == E.BattleResolved(player=B, attacker=sentry, result="follower-damaged", follower=squire, damage=0)
    assert s.stats(sentry)[0] == -1 and s.follower(squire).damage == 0
