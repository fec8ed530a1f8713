"""The LOGOS notation (adjudicator/games/logos/notation.py, posline.py; docs/games/logos.md,
"Notation") as properties over generated matches of every option mix the game's other property
tests use (tests/test_logos_play.py), hidden picks and open, every seat, and the example logs:

- every event ``e`` (decisions, random outcomes, derived events, the set-up) in the position it
  happens in reads back from its text exactly: ``parse(format(e, s), s) == e`` without envelope;
- mutated, illegal events (a wrong card, the wrong player, another commitment) read back too:
  parse is structural, not a lookup among legal events;
- the legal events of a position have pairwise different texts, each reading back to its event;
- every position in one line reads back exactly (the judge's), and a seat's line reads back as
  that seat's view; the read position passes ``check_position`` and the invariants;
- a bad text or line is a :class:`NotationError`, never another exception.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, strategies as st

from adjudicator.core.kernel.events import HIDDEN, bare
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.notation import NotationError, normalize
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.verify import settle
from adjudicator.games.logos import events as E
from adjudicator.games.logos.values import pool_of

from .logos_scenarios import GAME
from .test_logos_play import hidden_setup, mixed_setup

N = GAME.notation
EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples" / "logos").glob("*.jsonl"))
GAME_TYPES = set(E.EVENT_TYPES)


def roundtrip(e: Any, s: Any) -> str:
    text = N.format(e, s)
    assert text.isprintable() and not text.startswith("{"), text
    back = N.parse(text, s)
    assert back == bare(e), (text, e, back)
    alone = N.format(e)  # without the position: cards by id, read back as written
    assert N.parse(alone, None) == bare(e), alone
    return text


def line_roundtrip(s: Any) -> None:
    line = N.format_position(s)
    assert "\n" not in line
    back = N.parse_position(line)
    assert back == s, line
    GAME.check_position(back)
    assert GAME.invariants(back) == []
    for seat in s.setup.players[:2]:
        seen = N.parse_position(N.format_position(s, seat))
        assert seen == GAME.observe(s, seat), seat


def legal_read_back(s: Any) -> None:
    """The legal events of ``s`` have pairwise different texts, each reading back to its event."""
    legal = GAME.legal_events(s)
    texts = [normalize(N.format(x, s)) for x in legal]
    assert len(set(texts)) == len(texts), texts
    for x in legal:
        roundtrip(x, s)


def mutations(s: Any, e: Any, rng: random.Random) -> list[Any]:
    """Illegal neighbours of a decision: another card of the pool, the other player."""
    out = []
    cards = sorted(pool_of(s).cards)
    if hasattr(e, "player") and e.player in s.setup.players:
        out.append(msgspec.structs.replace(e, player=s.other(e.player)))
    if isinstance(getattr(e, "card", None), str):
        out.append(msgspec.structs.replace(e, card=rng.choice(cards)))
        out.append(msgspec.structs.replace(e, card=HIDDEN))
    if type(e) is E.CardCommitted:
        out.append(msgspec.structs.replace(e, commitment="0" * 64))
        out.append(msgspec.structs.replace(e, commitment=HIDDEN))
    if type(e) is E.StrikeResolved:
        out.append(msgspec.structs.replace(e, damage=-e.damage - 1, counter=not e.counter))
    if type(e) is E.EffectResolved:
        out.append(msgspec.structs.replace(e, cards=[rng.choice(cards), HIDDEN], copied="mimmick", value=-3))
    if type(e) is E.DirectionDetermined:
        out.append(msgspec.structs.replace(e, attacker=None, stage="after-effects"))
    return out


def check_match(setup: Any, seed: int, max_events: int = 250) -> None:
    events, _ = playout(GAME, seed, max_events=max_events, setup=setup, with_derived=True)
    rng = random.Random(seed)
    assert N.parse(N.format(events[0]), None) == events[0]
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    line_roundtrip(s)
    for e in events[1:]:
        if e.kind != "X":  # a derived event's position is the one after the decision before it
            legal_read_back(s)
        roundtrip(e, s)
        for seat in s.setup.players:  # the event as each seat saw it, in the position it sees
            roundtrip(GAME.redact(e, seat, s), GAME.observe(s, seat))
        for m in mutations(s, e, rng):
            roundtrip(m, s)
        s = GAME.apply(s, e)
        line_roundtrip(s)


@given(seed=st.integers(0, 100_000))
def test_generated_matches_under_option_mixes_read_back(seed: int) -> None:
    check_match(mixed_setup(seed), seed)


@given(seed=st.integers(0, 100_000))
def test_generated_matches_with_hidden_picks_read_back(seed: int) -> None:
    check_match(hidden_setup(seed), seed)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_logs_read_back(path: Path) -> None:
    """Every event of every example (seat records with unknown cards included) reads back in the
    position it happens in, and so does each position the log reaches (until an illegal event)."""
    events = [e for _, e in read_log(path).events]
    setup = events[0]
    assert N.parse(N.format(setup), None) == bare(setup)
    try:
        s, _ = settle(GAME, GAME.initial_state(setup))
    except Exception:  # noqa: BLE001 - an example whose set-up is illegal: its events alone
        s = None
    for e in events[1:]:
        if type(e) not in GAME_TYPES:  # the core's events are the core notation's
            s = None
            continue
        roundtrip(e, s)
        if s is None:
            continue
        line_roundtrip(s)
        legal_read_back(s)
        try:
            GAME.check(s, e)
            s, _ = settle(GAME, GAME.apply(s, e))
        except Exception:  # noqa: BLE001 - the illegal line of an illegal example ends the fold
            s = None
    if s is not None:
        line_roundtrip(s)


def test_the_words_a_player_reads() -> None:
    s, _ = settle(GAME, GAME.initial_state(E.MatchStarted(
        game="logos", players=["ann", "ben"], decks={"ann": {"ember-convert": 3}, "ben": {"iron-golem": 3}})))
    assert N.format(E.CardDrawn(player="ann", card="ember-convert"), s) == "ann: draw Ember Convert"
    assert N.parse("ANN: draw ember convert", s) == E.CardDrawn(player="ann", card="ember-convert")
    assert N.parse("ann: draw ember-convert", s) == E.CardDrawn(player="ann", card="ember-convert")
    assert N.parse("ben: backup ?", s) == E.BackupAssigned(player="ben", card=HIDDEN)
    assert N.parse("ben: commit ?", s) == E.CardCommitted(player="ben", commitment=HIDDEN)
    assert N.parse("ben: reveal Iron Golem salt ?", s) == E.PickRevealed(player="ben", card="iron-golem", salt=HIDDEN)
    got = N.parse("ann: commit Ember Convert salt secret-ann-1", s)
    assert got.commitment == "be60566a2275a499faff706ff06c0549d918072711038750c9bb89b51427b743"
    assert N.format(E.PickRevealed(player="ann", card="ember-convert", salt="a b"), s) == 'ann: reveal Ember Convert salt "a b"'
    assert N.format(E.DirectionDetermined(stage="before-effects", basis="deadlock"), s) == "deadlock"
    assert N.format(E.GameEnded(result="win", winner="ann", reason="hit-points"), s) == "ann wins (hit-points)"
    assert N.parse("ann: draw ember", s) == E.CardDrawn(player="ann", card="ember-convert")  # one legal event holds it
    with pytest.raises(NotationError) as exc:
        N.parse("ann: draw Ember Covnert", s)
    assert exc.value.candidates == ["Ember Convert"]
    with pytest.raises(NotationError) as exc:
        N.parse("carl: draw Ember Convert", s)
    assert exc.value.candidates == ["ann", "ben"]


def test_a_player_named_like_a_word_of_the_grammar_is_quoted() -> None:
    setup = E.MatchStarted(game="logos", players=["draw", "a b"], decks={"draw": {"iron-golem": 3}, "a b": {"iron-golem": 3}})
    s, _ = settle(GAME, GAME.initial_state(setup))
    for e in [E.CardDrawn(player="draw", card="iron-golem"), E.GameEnded(result="win", winner="draw", reason="x y"),
              E.GameEnded(result="draw", winner="a b", reason="stall"), E.StrikeResolved(
                  striker="a b", target="draw", attack=1, defense=2, damage=0, hp=-1_000)]:
        roundtrip(e, s)
    line_roundtrip(s)


@given(junk=st.text(max_size=60))
def test_a_bad_text_is_a_notation_error(junk: str) -> None:
    s, _ = settle(GAME, GAME.initial_state(GAME.sample_setup(1)))
    for text in (junk, "p1: " + junk, "effect p1 " + junk, "end of round " + junk, "p1 strikes " + junk):
        try:
            N.parse(text, s)
        except NotationError:
            pass


@given(seed=st.integers(0, 1000), at=st.integers(0, 10_000), junk=st.text(min_size=1, max_size=8))
def test_a_bad_position_line_is_a_notation_error(seed: int, at: int, junk: str) -> None:
    events, final = playout(GAME, seed, max_events=30, setup=hidden_setup(seed))
    line = N.format_position(final)
    at %= len(line)
    for bad in (line[:at] + junk + line[at + 1:], line[:at], line + " " + junk):
        try:
            N.parse_position(bad)
        except NotationError as exc:
            assert str(exc)


def test_the_notation_section_of_the_game_page_reads_as_it_says() -> None:
    """Each example text of docs/games/logos.md, "Notation", reads back and is written the same,
    and the position line it shows is Ben's view after event 11 of the page's complete example."""
    from .test_docs import json_blocks, sections

    doc = (Path(__file__).resolve().parent.parent / "docs" / "games" / "logos.md").read_text(encoding="utf-8")
    log = json_blocks(sections(doc, level=2)["A complete example"], "jsonl")[0][1]
    events = [GAME.decoder.decode(line.encode()) for line in log.splitlines() if line.strip()]
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    notation = sections(doc, level=2)["Notation"]
    rows = [row.split(" | ") for row in notation.splitlines() if row.startswith("| `")]
    assert len(rows) == len(E.EVENT_TYPES)
    for row in rows:
        for example in re.findall(r"`([^`]+)`", row[-1]):
            example = example.replace("\\|", "|")  # (a table cell escapes its bars)
            e = N.parse(example, s)
            assert type(e).__name__ == row[0].strip("|` "), (row[0], example)
            assert N.format(e, s) == example
    at = s
    for e in events[1:11]:
        at, _ = settle(GAME, GAME.apply(at, e))
    line = re.search(r"```text\n(logos .*)\n```", notation).group(1)
    assert line == N.format_position(at, "ben")
    assert N.parse_position(line) == GAME.observe(at, "ben")


@given(seed=st.integers(0, 100_000))
def test_a_seat_records_a_hidden_picks_match_alone_in_words(seed: int) -> None:
    """A seat at a table records a whole match alone (issue 30): what it did not see is ``?``,
    the opponent's face-down pick included (``ben: commit ?``, then ``ben: reveal C salt ?``,
    LG-35); each line is typed as text and read in the position the record reached, and the
    record verifies as the seat's record with the opponent's commitments does."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.playout import to_jsonl
    from adjudicator.core.kernel.seats import redact_log
    from adjudicator.core.kernel.verify import run

    events, _ = playout(GAME, seed, max_events=200, setup=hidden_setup(seed))
    seat = events[0].players[seed % 2]
    record = list(redact_log(parse_log(to_jsonl(events), "full"), seat))
    alone = [msgspec.structs.replace(e, commitment=HIDDEN) if type(e) is E.CardCommitted and e.player != seat
             else msgspec.structs.replace(e, salt=HIDDEN) if type(e) is E.PickRevealed and e.player != seat else e
             for e in record]
    typed = [N.parse(N.format(alone[0]), None)]
    s = GAME.initial_state(typed[0])
    for e in alone[1:]:
        while (d := GAME.derive(s)) is not None and not (e.kind == "X" and type(d) is type(e)):
            s = GAME.apply(s, d)  # the derived events the record leaves out
        if e.kind != "X":  # legal, or undetermined where it turns on the opponent's unknown cards (LG-37)
            assert GAME.check(s, e).verdict != "illegal", N.format(e, s)
            legal_read_back(s)
        typed.append(N.parse(N.format(e, s), s))
        s = GAME.apply(s, typed[-1])
    assert typed == [bare(e) for e in alone]
    before = run(parse_log(to_jsonl(record), "seat"))
    after = run(parse_log(to_jsonl(typed), "seat-alone"))
    assert after.verdict == before.verdict != "illegal", after.violations[:2]


@given(names=st.lists(st.text(min_size=1, max_size=8), min_size=2, max_size=2, unique=True), seed=st.integers(0, 1000))
def test_any_player_names_read_back(names: list[str], seed: int) -> None:
    """Player ids are any distinct non-empty texts: every event and position of a match between
    them reads back (a name holding a space, a mark of the grammar or a word of it is quoted)."""
    if "shared" in names:
        return
    base = hidden_setup(seed)
    setup = msgspec.structs.replace(base, players=names, decks=dict(zip(names, base.decks.values())))
    events, _ = playout(GAME, seed, max_events=60, setup=setup, with_derived=True)
    assert N.parse(N.format(events[0]), None) == events[0]
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    for e in events[1:]:
        roundtrip(e, s)
        s = GAME.apply(s, e)
    line_roundtrip(s)


def test_every_field_of_a_position_reads_back() -> None:
    """Each field the line writes, set to a value no generated match need reach (what a seat saw
    in events taken back, LG-41; a partial direction; an empty push; an end waiting), reads back
    in the judge's line and in each seat's."""
    from adjudicator.games.logos.state import Direction, EffectItem, Pending, Push, Result, Seen

    events, s = playout(GAME, 7, max_events=40, setup=hidden_setup(7))
    cards = sorted(pool_of(s).cards)
    a, b = s.players
    variants = [
        msgspec.structs.replace(s, seen=(Seen(a.id, shown=(cards[0],), top=(cards[1], cards[1])), Seen(b.id, top=(cards[2],)))),
        msgspec.structs.replace(s, direction=Direction("class", a.id, None), effects=(EffectItem(b.id, cards[3], "right"),),
                                pushes=(Push("shared", ()), Push(a.id, ("life", "life"))), shared_combo=("matter", None, "grey"),
                                pending_end=Result("draw", None, "round limit"), priority=b.id, passed=(a.id,), striker=a.id,
                                strikes=2, due=(b.id,), stall=2, blind_step="called", assumed="a b, c=d",
                                pending=(Pending("ben's card was playable", ("battle:ben:3",)),)),
        msgspec.structs.replace(s, players=(msgspec.structs.replace(a, slots=(None, HIDDEN, cards[4]), mods=("maximize", "color:life"),
                                                                     double_combo=True, shield=True, unknown="list",
                                                                     unseen=(cards[0],) * 3, deck_open=True, battle=HIDDEN,
                                                                     commitment=HIDDEN, public=True, defenseless=True), b)),
    ]
    for v in variants:
        line = N.format_position(v)
        assert N.parse_position(line) == v, line
        for seat in (a.id, b.id):
            assert N.parse_position(N.format_position(v, seat)) == GAME.observe(v, seat)


def test_an_entry_holds_several_events_and_a_mistyped_action_is_named() -> None:
    s, _ = settle(GAME, GAME.initial_state(E.MatchStarted(
        game="logos", players=["ann", "ben"], decks={"ann": {"ember-convert": 3}, "ben": {}},
        options={"picks": "commit-reveal"})))
    assert N.parse_entry("ann: draw Ember Convert; ann: draw ember-convert ;ann: draw ?", s) == \
        [E.CardDrawn(player="ann", card="ember-convert")] * 2 + [E.CardDrawn(player="ann", card=HIDDEN)]
    salted = E.PickRevealed(player="ann", card="ember-convert", salt='a;b "c"')
    text = N.format(salted, s)
    assert N.parse_entry(text + "; ben: reveal Ember Convert salt ?", s) == [
        salted, E.PickRevealed(player="ben", card="ember-convert", salt=HIDDEN)]
    assert N.parse_entry("ben: pass", s) == [E.BackupPassed(player="ben")]
    with pytest.raises(NotationError) as exc:
        N.parse("ann: drwa Ember Convert", s)
    assert exc.value.candidates == ["ann: draw Ember Convert"]
    with pytest.raises(NotationError):
        N.parse_entry("; ".join(["ann: pass"] * 100), s)


@given(seed=st.integers(0, 1000), data=st.data())
def test_a_mistyped_event_is_an_event_or_a_notation_error(seed: int, data: Any) -> None:
    """A text of a generated match with a character dropped, doubled or replaced reads as some
    event (that encodes as a log line) or is a NotationError: never another exception."""
    events, _ = playout(GAME, seed, max_events=60, setup=hidden_setup(seed), with_derived=True)
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    for e in events[1:]:
        text = N.format(e, s)
        at = data.draw(st.integers(0, len(text) - 1))
        ch = data.draw(st.sampled_from([":", ",", "(", ")", "[", "]", '"', " ", "?", ";", "x", "1"]))
        for bad in (text[:at] + text[at + 1:], text[:at] + text[at] + text[at:], text[:at] + ch + text[at + 1:]):
            try:
                got = N.parse(bad, s)
            except NotationError:
                continue
            msgspec.json.encode(got)
        s = GAME.apply(s, e)


@given(seed=st.integers(0, 10_000), at=st.integers(0, 400), words=st.text(min_size=0, max_size=40))
def test_a_seat_records_alternatives_open_conditions_and_what_it_saw_read_back_in_words(seed: int, at: int, words: str) -> None:
    """``alts`` (LG-38: each another position line after `` | ``), ``pending`` (LG-37: the
    condition in words, ``+`` for a space, then ``|<needs>``) and ``seen`` (LG-41:
    ``PLAYER:SHOWN:TOP``) read back, over positions of generated matches: no JSON in the line."""
    from adjudicator.games.logos.state import Pending, Seen

    events, _ = playout(GAME, seed, max_events=at + 2, with_derived=True)
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    states = [s]
    for e in events[1:]:
        s = GAME.apply(s, e)
        states.append(s)
    p1, p2 = s.setup.players[:2]
    c1, c2 = (sorted(s.setup.decks[p])[0] for p in (p1, p2))
    odd = msgspec.structs.replace(
        s, alts=tuple(states[-3:-1]), assumed="LG-38 " + words,
        pending=(Pending(f"{p1} held a playable card in round 1, and {words} + 100%", (f"battle:{p1}:1", f"backup:{p2}")),
                 Pending(words)),
        seen=(Seen(p1, (c1, c1), ()), Seen(p2, (), (c2,))))
    line = N.format_position(odd)
    if not set(words) & set('{}[]"'):  # (no percent-encoded JSON: a person's words may hold braces)
        assert "%7B" not in line and "%22" not in line
    assert N.parse_position(line) == odd, line
