"""The Colossus Order notation (issue 30): properties over generated matches of every ruleset and
option set the game's other property tests use, every seat's record and every example log.

1. Round trip: for every event ``e`` in the position ``s`` it happens in,
   ``parse(format(e, s), s) == e`` without its envelope; without a position too (ids for names).
2. Legal events: in every position their texts are pairwise distinct and each reads back as itself.
3. Illegal events (a wrong card, a wrong follower, a wrong slot, a wrong seat, a value the pool
   does not have) are written and read back exactly too: reading is structural, not a lookup.
4. A position in one line: ``parse_position(format_position(s)) == s`` and, for a seat,
   ``== game.observe(s, seat)``; the parsed position passes ``check_position`` and the invariants.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator

import msgspec
import pytest
from hypothesis import given, strategies as st
from msgspec.structs import replace

import adjudicator
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import CORE_EVENTS, HIDDEN, JudgeRuling, bare
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.notation import NotationError, normalize
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import run
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order.cards import load_pool
from adjudicator.games.colossus_order.notation import card_by_name

GAME = registry.get("colossus-order")
N = GAME.notation
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "colossus-order").glob("*.jsonl"))
POOL = load_pool("sample")
#: events of a generated match (short enough to keep the file fast)
MATCH_EVENTS = 250

#: the rulesets and option sets of the game's property tests and rule tests
OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("2013", {}),
    ("2014", {}),
    ("2013", {"mutual_battle_damage": True, "attack_taps_attacker": False, "returned_order": "as-listed"}),
    ("2014", {"destroy_when": "damage-gt-defence", "declaration_discard_chooser": "opponent",
              "stat_setting": "latest-wins", "max_locus": 3, "gem_level_scope": "set-only",
              "colossus_ability_scope": "colossus-gems", "attack_needs_attacker": False,
              "simultaneous_deckout": "turn-player-loses"}),
]


def match(seed: int, which: int) -> list[Any]:
    ruleset, options = OPTION_SETS[which]
    setup = replace(GAME.sample_setup(seed), ruleset=ruleset, options=options)
    events, _ = playout(GAME, seed, max_events=MATCH_EVENTS, with_derived=True, setup=setup)
    return events


def steps_of(events: list[Any]) -> Iterator[tuple[Any, Any]]:
    """Every event of a log (the derived ones the verifier adds included) with the position it
    happens in (a derived event: the position its cause happened in)."""
    res = run(parse_log(to_jsonl(events), "n.jsonl"), record_steps=True, keep_going=True)
    before = None
    for step in res.steps:
        yield step.event, before
        for d in step.derived:
            yield d, before
        before = step.state if step.state is not None else before


def round_trip(e: Any, s: Any) -> None:
    want = bare(e)
    text = N.format(e, s)
    assert "\n" not in text
    got = N.parse(text, s)
    assert got == want, (text, want, got)
    if type(e) not in CORE_EVENTS:
        text = N.format(e, None)
        assert N.parse(text, None) == want, (text, want)


def check_log(events: list[Any]) -> int:
    count = 0
    for e, s in steps_of(events):
        if type(e) in CORE_EVENTS and s is None:
            continue
        if type(e) is JudgeRuling:  # the core notation's (read as JSON)
            assert N.parse(msgspec.json.encode(e).decode(), s) == e
            continue
        if type(e) in CORE_EVENTS:  # the private looks: the core's words, read back here
            assert N.parse(N.format(e, s), s) == bare(e), N.format(e, s)
            continue
        if type(e) is E.MatchStarted:  # the set-up: one line that reads back to the very bytes, and its JSON
            back = N.parse(N.format(e, s), s)
            assert N.format(e, s).startswith("start ") and back == e
            assert msgspec.json.encode(back) == msgspec.json.encode(e)
            for seat in e.players:  # a seat's record: the opponent's list unknown (its size only)
                seen = adjudicator.game("colossus-order").redact(e, seat)
                assert N.parse(N.format(seen, s), s) == seen
            assert N.parse(msgspec.json.encode(e).decode(), s) == e
            continue
        round_trip(e, s)
        count += 1
    return count


# -- 1. round trip ------------------------------------------------------------------------------

@given(seed=st.integers(0, 10_000), which=st.integers(0, len(OPTION_SETS) - 1))
def test_every_event_of_a_generated_match_reads_back_as_itself(seed: int, which: int) -> None:
    assert check_log(match(seed, which)) > 20


@given(seed=st.integers(0, 10_000))
def test_every_event_of_each_seats_record_reads_back_as_itself(seed: int) -> None:
    events = match(seed, seed % len(OPTION_SETS))
    log = parse_log(to_jsonl(events), "full.jsonl")
    for seat in events[0].players:
        record = list(redact_log(log, seat))
        assert any(getattr(e, "card", None) == HIDDEN for e in record)
        assert check_log(record) > 20


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_event_of_every_example_reads_back_as_itself(path: Path) -> None:
    events = [e for _, e in parse_log(path.read_bytes(), path.name).events]
    n = check_log(events)
    assert n >= 1 or not path.name.startswith("legal-")
    if path.name.startswith("legal-") and "-seat-" not in path.name:  # and each seat's record of it
        log = parse_log(path.read_bytes(), path.name)
        for seat in events[0].players:
            assert check_log(list(redact_log(log, seat))) >= 1


def test_every_event_type_of_the_game_is_written_in_words() -> None:
    """Every type but the set-up has a text of its own (no field names, no reprs)."""
    from adjudicator.games.colossus_order.notation import _FORMAT

    assert set(E.EVENT_TYPES) <= set(_FORMAT)


# -- 2. legal events ---------------------------------------------------------------------------

@given(seed=st.integers(0, 10_000), which=st.integers(0, len(OPTION_SETS) - 1))
def test_the_legal_events_of_a_position_have_distinct_texts_that_read_back(seed: int, which: int) -> None:
    events = match(seed, which)
    rng = random.Random(seed)
    seen = 0
    for e, s in steps_of(events):
        if s is None or GAME.outcome(s) is not None or rng.random() > 0.3:
            continue
        legal = GAME.legal_events(s)
        texts = [N.format(x, s) for x in legal]
        norm = [normalize(t) for t in texts]
        assert len(set(norm)) == len(norm), [t for t in texts if norm.count(normalize(t)) > 1]
        for t, x in zip(texts, legal):
            assert N.parse(t, s) == x, t
        seen += len(legal)
    assert seen > 0


# -- 3. illegal events: written and read exactly ------------------------------------------------

def _mutants(e: Any, s: Any, rng: random.Random) -> list[Any]:
    cards = sorted(POOL.cards)
    handles = [f.handle for p in s.players for f in p.field] + ["F99"]
    out = []
    for f in msgspec.structs.fields(type(e)):
        v = getattr(e, f.name)
        if f.name in ("seq", "at", "note", "prev"):
            continue
        if f.name in ("card",) and isinstance(v, str):
            out += [replace(e, card=rng.choice(cards)), replace(e, card="no such card")]
        elif f.name == "cards" and isinstance(v, list):
            out += [replace(e, cards=v + [rng.choice(cards)]), replace(e, cards=[rng.choice(cards), HIDDEN, None][: len(v) + 1])]
        elif f.name in ("follower", "attacker", "blocker") and isinstance(v, str):
            out += [replace(e, **{f.name: rng.choice(handles)}), replace(e, **{f.name: "colossus"})]
        elif f.name == "targets":
            out.append(replace(e, targets=v + [rng.choice(handles)]))
        elif f.name in ("slot", "turn", "ability", "damage") and isinstance(v, int):
            out.append(replace(e, **{f.name: rng.choice([v + 1, -1, 10**6])}))
        elif f.name == "slots":
            out.append(replace(e, slots=list(reversed(v)) + [rng.randint(-2, 40)]))
        elif f.name == "player":
            other = [p for p in s.setup.players if p != v]
            out += [replace(e, player=other[0]), replace(e, player="nobody here")]
        elif f.name == "zone":
            out.append(replace(e, zone="locus" if v == "gem" else "gem"))
    if type(e) is E.FollowerPlayed:
        out.append(E.ActionPlayed(player=e.player, card=e.card, targets=e.targets))
    if type(e) is E.ActionPlayed:
        out.append(E.FollowerPlayed(player=e.player, card=e.card, targets=e.targets))
    return out


@given(seed=st.integers(0, 10_000))
def test_illegal_events_are_written_and_read_back_exactly(seed: int) -> None:
    events = match(seed, seed % len(OPTION_SETS))
    rng = random.Random(seed)
    n = 0
    for e, s in steps_of(events):
        if s is None or type(e) in CORE_EVENTS or rng.random() > 0.2:
            continue
        for m in _mutants(e, s, rng):
            round_trip(m, s)
            n += 1
    assert n > 0


def test_the_short_forms_names_ids_and_errors() -> None:
    events = match(3, 0)
    s = next(s for e, s in steps_of(events) if s is not None and s.phase == "main" and s.todo
             and getattr(s.todo[0], "priority", None))
    who = s.todo[0].priority
    assert N.parse("pass", s) == N.parse("p", s) == E.XPlayPassed(player=who)
    assert N.format(E.XPlayPassed(player=who), s) == f"{who}: pass"
    assert N.parse("P1:  DRAW  sky lancer captain", s) == E.CardDrawn(player="p1", card="sky-lancer-captain")
    assert N.parse("p1: draw sky-lancer-captain", s) == E.CardDrawn(player="p1", card="sky-lancer-captain")
    assert N.parse("p1: set heart of piadin as a gem", s) == E.CardSet(player="p1", card="heart-of-piadin", zone="gem")
    assert N.parse("p2: return morvane, the hollow queen, white gem", s).cards == ["morvane-the-hollow-queen", "white-gem"]
    with pytest.raises(NotationError) as x:
        N.parse("p1: draw Sky Lancer Captian", s)
    assert x.value.candidates == ["p1: draw Sky Lancer Captain"]
    with pytest.raises(NotationError) as x:
        N.parse("p1: drwa Sky Lancer Captain", s)
    assert x.value.candidates == ["p1: draw Sky Lancer Captain"]
    with pytest.raises(NotationError) as x:
        N.parse("p1: play White Gem", s)
    assert x.value.candidates == ["p1: play follower White Gem", "p1: play action White Gem"]
    assert N.parse("p1: play follower White Gem", s) == E.FollowerPlayed(player="p1", card="white-gem")
    assert card_by_name(s.setup, "★ash★") == card_by_name(s.setup, "ASH") == "ash"
    with pytest.raises(NotationError):
        N.parse("p1: draw " + "x" * 200_000, s)


# -- 4. a position in one line -------------------------------------------------------------------

def positions_of(events: list[Any]) -> Iterator[Any]:
    seen = set()
    for _, s in steps_of(events):
        if s is not None and id(s) not in seen:
            seen.add(id(s))
            yield s


def line_round_trip(s: Any) -> None:
    line = N.format_position(s)
    assert "\n" not in line
    back = N.parse_position(line)
    assert back == s, line
    assert msgspec.to_builtins(back) == msgspec.to_builtins(s)
    GAME.check_position(back)
    assert GAME.invariants(back) == GAME.invariants(s)
    for seat in s.setup.players:
        view = GAME.observe(s, seat)
        seen = N.format_position(s, seat)
        assert N.parse_position(seen) == view, seen
        assert GAME.invariants(N.parse_position(seen)) == GAME.invariants(view)


@given(seed=st.integers(0, 10_000), which=st.integers(0, len(OPTION_SETS) - 1))
def test_every_position_of_a_generated_match_reads_back_from_its_line(seed: int, which: int) -> None:
    rng = random.Random(seed)
    n = 0
    for s in positions_of(match(seed, which)):
        if rng.random() < 0.5:  # half the positions of each match: more matches in the same time
            line_round_trip(s)
            n += 1
    assert n > 10


@pytest.mark.parametrize("path", [p for p in EXAMPLES if p.name.startswith("legal-")], ids=lambda p: p.name)
def test_every_position_of_an_example_reads_back_from_its_line(path: Path) -> None:
    events = [e for _, e in parse_log(path.read_bytes(), path.name).events]
    for s in positions_of(events):
        line_round_trip(s)


def test_a_position_line_that_cannot_be_read_names_the_part() -> None:
    s = next(s for s in positions_of(match(3, 0)) if s.phase == "main" and any(p.field for p in s.players))
    line = N.format_position(s)
    assert " field=[F" in line and ":t" in line and "locus=[" in line  # the short forms are used
    cases = {
        "": "the match, then ' / '",
        line.replace(" hand=[", " hadn=[", 1): "seat section 1",
        line.replace("deck_top=[", "deck_top=[nonsense-card,", 1): "nonsense-card",
        line.replace("field=[F", "field=[F1:x:sleepy,F", 1): "sleepy",
        line.replace(" / ", " / p1 x {} hand=[a*99999999] / ", 1): "repeat count",
        line.replace("hand=[", "hand=[" + "[" * 50, 1): "nested deeper",
        "x" * 3_000_000: "at most",
        line.replace("sample 2013", "sample 1999", 1): "1999",
    }
    for text, words in cases.items():
        with pytest.raises(NotationError) as x:
            N.parse_position(text)
        assert words in str(x.value), (words, str(x.value)[:300])


def test_every_example_of_the_notation_table_in_the_docs_reads() -> None:
    """docs/games/colossus-order.md, "Notation": each example text names its event type's row and
    reads as that type and is the text format writes (in a position of the example match)."""
    import re

    doc = (ROOT / "docs" / "games" / "colossus-order.md").read_text()
    table = doc[doc.index("## Notation"):doc.index("### A position in one line")]
    events = [e for _, e in parse_log((ROOT / "examples" / "colossus-order" / "legal-gem-complete.jsonl").read_bytes()).events]
    s = run(parse_log(to_jsonl(events)), upto=60).state
    rows = [r for r in table.splitlines() if r.startswith("| ") and "`" in r.split("|")[3]]
    assert len(rows) >= 30
    for row in rows:
        names, _, examples = (c.strip() for c in row.strip("|").split(" | "))
        if names == "MatchStarted":
            continue
        for text in re.findall(r"`([^`]+)`", examples):
            e = N.parse(text, s)
            assert type(e).__name__ in names, (text, e)
            assert N.format(e, s) == text  # the table shows what format writes


@given(seed=st.integers(0, 10_000))
def test_an_attack_and_its_declined_block_are_one_entry(seed: int) -> None:
    """``<attack>, no block`` is the attack and the defender's BlockDeclined, as the match has them;
    every other entry is one event."""
    events = match(seed, seed % len(OPTION_SETS))
    pairs = 0
    decisions = [(e, s) for e, s in steps_of(events) if s is not None and e.kind != "X" and type(e) not in CORE_EVENTS]
    for (e, s), (nxt, _) in zip(decisions, decisions[1:]):
        if type(e) is E.AttackDeclared and type(nxt) is E.BlockDeclined:
            assert N.parse_entry(N.format(e, s) + ", no block", s) == [bare(e), bare(nxt)]
            pairs += 1
        assert N.parse_entry(N.format(e, s), s) == [bare(e)]
    if pairs == 0:
        assert not any(type(e) is E.BlockDeclined for e, _ in decisions)


@given(seed=st.integers(0, 10_000), junk=st.text(max_size=40))
def test_any_text_is_an_event_or_a_notation_error(seed: int, junk: str) -> None:
    """Texts of a match cut, spliced and mixed with junk: read or refused by name, never a traceback."""
    rng = random.Random(seed)
    pairs = [(e, s) for e, s in steps_of(match(seed, 0)[:80]) if s is not None]
    texts = [N.format(e, s) for e, s in pairs]
    for _ in range(60):
        t = rng.choice(texts)
        i, j = sorted(rng.randrange(len(t) + 1) for _ in range(2))
        for probe in (t[:i] + junk + t[j:], t[:i], junk, t.replace(" ", rng.choice(["", "  ", ";", ",", " -> "]))):
            for s in (rng.choice(pairs)[1], None):
                try:
                    N.parse(probe, s)
                    N.parse_entry(probe, s)
                except NotationError:
                    pass
    line = N.format_position(pairs[-1][1])
    for _ in range(20):
        i, j = sorted(rng.randrange(len(line) + 1) for _ in range(2))
        try:
            N.parse_position(line[:i] + junk + line[j:])
        except NotationError:
            pass


def test_no_control_character_is_written_raw() -> None:
    """A value with a terminal escape (a seat, a card id, a reason) is written as a JSON string
    (escaped) and read back."""
    s = next(s for _, s in steps_of(match(1, 0)[:20]) if s is not None)
    for e in (E.CardDrawn(player="p1", card="\x1b[31mred"), E.GameEnded(result="win", winner="p1", reason="\x1b]0;x\x07"),
              E.XPlayPassed(player="p\x1b2"), E.BlockDeclared(player="p2", blocker="F1\x1b")):
        for state in (s, None):
            text = N.format(e, state)
            assert "\x1b" not in text and "\x07" not in text, text
            assert N.parse(text, state) == e
    line = N.format_position(replace(s, conditions=("\x1b[2J",)))
    assert "\x1b" not in line and N.parse_position(line).conditions == ("\x1b[2J",)


def test_quoted_text_keeps_its_spacing() -> None:
    s = next(s for _, s in steps_of(match(1, 0)[:20]) if s is not None)
    e = E.EffectDeclared(player="p1", card="herald-of-the-dawn", text="two  spaces,\ta tab; and \"quotes\" -> here",
                         damage={"F1": 2, "odd handle": 1})
    assert N.parse(N.format(e, s), s) == e
    assert N.parse("  p1:   effect  Herald of the Dawn;  says \"a  b\" ", s).text == "a  b"
    odd = E.FollowerPlayed(player="p1", card="a -> b", targets=["x -> y", "F2"])
    assert N.parse(N.format(odd, s), s) == odd
