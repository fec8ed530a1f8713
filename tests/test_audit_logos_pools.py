"""The LOGOS audit (tests/test_audit_logos.py) over random pools: any card the game allows (any
class, Attack, Defense and Speed from 0 to the limit with Speed 99 and 100 among them, any combo
indicator, any of the 14 effects of seed 001 in either field, any Color Change), under every
ruleset option, played against the independent referee (tests/logos_oracle.py): the legal
decisions, every derived consequence and the refusals agree with the rule text."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings, strategies as st

from adjudicator.core.kernel import sources
from adjudicator.games.logos import events as E
from adjudicator.games.logos.cards import load_pool

from .logos_scenarios import clear_pool_caches
from .test_audit_logos import OPTIONS, play_against_referee, records_agree, refusals

CLASSES = ("matter", "energy", "information", "neutral", "life")
#: the 14 effects seed 001 names (Permanent, Temporary)
EFFECTS = ("add-card-slot", "remove-card-slot", "regeneration", "shuffle-hand", "destroy-combo", "destroy-backup",
           "neutralize", "maximize", "minimize", "swap-values", "double-combo", "mimmick", "berserk", "color-change")
STAT = st.one_of(st.sampled_from([0, 1, 99, 100, 101, 25_000, 1_000_000_000]), st.integers(0, 40_000))
EFFECT = st.one_of(st.none(), st.sampled_from(EFFECTS).flatmap(
    lambda e: st.tuples(st.just(e), st.sampled_from(CLASSES), st.sampled_from(CLASSES)).filter(lambda t: t[1] != t[2])
    if e == "color-change" else st.just((e, None, None))))
CARD = st.tuples(st.sampled_from(CLASSES), STAT, STAT, STAT, st.tuples(*[st.sampled_from(("grey",) * 8 + CLASSES)] * 3),
                 EFFECT, EFFECT)


def pool_text(cards: list[Any]) -> str:
    text = 'pool = "audit-cards"\n'
    for i, (klass, a, d, sp, combo, left, right) in enumerate(cards):
        text += (f'\n[[card]]\nid = "c{i}"\nname = "C{i}"\nclass = "{klass}"\nattack = {a}\ndefense = {d}\nspeed = {sp}\n'
                 f'combo = ["{combo[0]}", "{combo[1]}", "{combo[2]}"]\n')
        for side, fx in (("left", left), ("right", right)):
            if fx is not None:
                do, src, to = fx
                text += f'{side} = {{ do = "{do}", from = "{src}", to = "{to}" }}\n' if src else f'{side} = {{ do = "{do}" }}\n'
    return text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=st.lists(CARD, min_size=2, max_size=10), seed=st.integers(0, 100_000))
def test_any_pool_plays_as_the_rules_read(cards: list[Any], seed: int) -> None:
    rng = random.Random(seed)
    options: dict[str, Any] = {"max_rounds": 30}
    for name in sorted(OPTIONS):
        if rng.random() < 0.4:
            options[name] = rng.choice(OPTIONS[name])
    slots = options.get("start_slots", 3)
    options["min_slots"] = min(slots, rng.choice([0, 1]))
    options["max_slots"] = max(slots, rng.choice([4, 6]))
    if options.get("max_rounds") is None:
        options["max_rounds"] = 30
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "audit-cards.toml").write_text(pool_text(cards))
        with sources.using(sources.Sources([tmp])):
            try:
                pool = load_pool("audit-cards")
                decks = {p: {f"c{i}": rng.randint(1, 3) for i in range(len(cards))} for p in ("p1", "p2")}
                setup = E.MatchStarted(game="logos", pool="audit-cards", players=["p1", "p2"], decks=decks, options=options)
                ref, _, log = play_against_referee(setup, seed, max_decisions=250, probe=refusals, pool=pool)
                if seed % 3 == 0:  # each seat's record too (a third of the matches: it takes longer)
                    records_agree(ref, log if seed % 2 else [e for e in log if e.kind != "X"])
            finally:
                clear_pool_caches()
