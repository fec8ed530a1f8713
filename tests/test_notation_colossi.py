"""The Colossi notation (issue 30): every event in a player's words and every position in one line,
read back exactly (docs/games/colossi.md, "Notation").

Properties over generated matches under every ruleset option the engine's property tests use
(tests/test_colossi_properties.py), every seat: each event of a match, of a seat's record of it
and of every example log reads back from its text in the position it happens in; the legal
events of a position have distinct texts that read back; mutated events (another card, another
space, another player: illegal events) read back too, and any other variant is an event or a
NotationError; each position (the judge's and every seat's view) reads back from its line.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import msgspec
import pytest
from hypothesis import example, given, settings, strategies as st

from adjudicator.core.kernel.events import HIDDEN, bare
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.notation import NotationError, normalize
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import positions_before, redact_log
from adjudicator.games.colossi import events as E
from adjudicator.games.colossi.data import content
from adjudicator.games.colossi.notation import TEMPLATES
from adjudicator.games.colossi.position_text import MAX_LINE
from tests.test_colossi_properties import OPTIONS, setup_of
from tests.test_conformance import _mutations, _vocabulary

from .colossi_scenarios import GAME

N = GAME.notation
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "colossi"


def match(seed: int, n: int = 500) -> list:
    events, _ = playout(GAME, seed, max_events=n, setup=setup_of(seed), with_derived=seed % 2 == 0)
    return events


def with_positions(events: list) -> list[tuple]:
    """Each event with the position it happens in."""
    log = parse_log(to_jsonl(events), "<match>")
    return list(zip([e for _line, e in log.events], positions_before(log)))


def seat_record(events: list, player: str) -> list:
    return list(redact_log(parse_log(to_jsonl(events), "<match>"), player))


def own(e) -> bool:
    """An event of the game (the core's rulings and private looks are the base notation's)."""
    return type(e) in GAME.event_types


def assert_reads_back(e, s) -> str:
    text = N.format(e, s)
    assert N.parse(text, s) == bare(e), text
    return text


# == events ============================================================================================

def test_every_event_type_has_a_form() -> None:
    shaped = {E.MatchStarted, E.GameEnded}  # their own grammar (notation.format_start / format_end)
    assert set(GAME.event_types) == set(TEMPLATES) | shaped


@settings(max_examples=8)
@given(seed=st.integers(0, 100_000))
def test_every_event_of_a_match_and_of_a_seat_record_reads_back(seed: int) -> None:
    events = match(seed)
    seat = events[0].players[seed % len(events[0].players)]
    for log in (events, seat_record(events, seat)):
        for e, s in with_positions(log):
            if own(e):
                text = assert_reads_back(e, s)
                if " " not in "".join(events[0].players):  # ids without spaces: the text alone reads
                    assert N.parse(text) == bare(e), text


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_event_of_every_example_reads_back(path: Path) -> None:
    log = parse_log(path.read_bytes(), path.name)
    for (_line, e), s in zip(log.events, positions_before(log)):
        if own(e):
            assert_reads_back(e, s)


@settings(max_examples=6)
@given(seed=st.integers(0, 100_000))
def test_legal_events_have_distinct_texts_that_read_back(seed: int) -> None:
    rng = random.Random(seed)
    pairs = with_positions(match(seed, 400))
    for _e, s in rng.sample(pairs[1:], min(40, len(pairs) - 1)):
        legal = GAME.legal_events(s)
        texts = [normalize(N.format(e, s)) for e in legal]
        assert len(set(texts)) == len(texts), sorted(t for t in texts if texts.count(t) > 1)[:4]
        for e, t in zip(legal, texts):
            assert N.parse(t, s) == e, t


def wrong(e, s, rng: random.Random):
    """``e`` with one name swapped for another of its kind (a wrong card, space, player, Trait):
    an event the rules may refuse, which the notation still writes and reads."""
    C = content()
    pools = {"card": sorted(C.cards), "discard": sorted(C.cards), "trait": sorted(C.traits),
             "beast": sorted(C.beasts), "tile": sorted(C.tiles), "player": list(s.setup.players),
             "target": list(s.setup.players), "victim": list(s.setup.players)}
    out = []
    for f in msgspec.structs.fields(type(e)):
        v = getattr(e, f.name)
        if f.name in pools and isinstance(v, str):
            out.append(msgspec.structs.replace(e, **{f.name: rng.choice(pools[f.name])}))
        elif f.name in ("space", "to", "victim_space", "count", "amount", "value", "turn", "gold") and isinstance(v, int):
            out.append(msgspec.structs.replace(e, **{f.name: rng.choice([v + 1, -1, 99, 10**6])}))
    return out


def decoded(variants: list[dict]) -> list:
    """The variants that are events of the game (right shapes), any names."""
    out = []
    for d in variants:
        try:
            out.append(GAME.decoder.decode(msgspec.json.encode(d)))
        except msgspec.ValidationError:
            pass
    return out


@settings(max_examples=6)
@given(seed=st.integers(0, 100_000))
def test_mutated_and_illegal_events_read_back_or_are_refused_by_name(seed: int) -> None:
    rng = random.Random(seed)
    events = match(seed, 400)
    vocab = _vocabulary(events)
    pairs = with_positions(events)
    for e, s in rng.sample(pairs, min(60, len(pairs))):
        if not own(e) or type(e) is E.MatchStarted:
            continue
        for m in wrong(bare(e), s, rng):
            assert_reads_back(m, s)
        for m in decoded(_mutations(e, rng, vocab)):
            text = N.format(m, s)
            try:
                back = N.parse(text, s)
            except NotationError:
                continue  # a name of no component or player ("nobody", "F999", ""): refused, named
            assert back == bare(m), text


def test_names_ids_and_case_are_read() -> None:
    events = match(3, 200)
    s = with_positions(events)[-1][1]
    p = s.setup.players[0]
    want = E.CardPlayed(player=p, card="short-rest", space=5)
    for text in (f"{p}: play Short Rest at 5", f"{p.upper()}: PLAY short-rest AT 5", f"  {p}:play   short rest at 5 "):
        assert N.parse(text, s) == want
    assert N.format(want, s) == f"{p}: play Short Rest at 5"
    assert N.parse(f"{p}: top of tiles: Lair: Wind Beast", s) == E.TopRevealed(
        player=p, deck="tiles", item="lair-wind-beast")
    assert N.parse(f"{p}: draw ?", s) == E.CardDrawn(player=p, card=HIDDEN)
    assert N.parse(f"{p}: draw -", s) == E.CardDrawn(player=p, card=None)


def test_an_unknown_name_is_answered_with_the_closest() -> None:
    s = with_positions(match(3, 200))[-1][1]
    p = s.setup.players[0]
    with pytest.raises(NotationError) as err:
        N.parse(f"{p}: play Shrot Rest at 5", s)
    assert "unknown card" in str(err.value)
    assert err.value.candidates == [f"{p}: play Short Rest at 5"]
    with pytest.raises(NotationError) as err:
        N.parse("nobody: pass", s)
    assert "unknown player" in str(err.value)
    with pytest.raises(NotationError) as err:
        N.parse(f"{p}: plya Bolster", s)
    assert err.value.candidates == ["{player}: play {card}[ at {space}][ on {target}][ targets {targets}][ beast {beast}]"
                                    "[ dir {direction}][ trait {trait}]", "{player}: place {count} at {space}"]
    with pytest.raises(NotationError):
        N.parse("x" * 200_000, s)
    with pytest.raises(NotationError, match="95999 characters"):  # not diagnosed: no quadratic reading
        N.parse("a: b to " * 12_000, s)


def test_the_set_up_and_the_end_read_back() -> None:
    setup = E.MatchStarted(game="colossi", players=["ann", "bob b", "cid"], ruleset="first-game",
                           options={"gold_target": 20, "board": "square27"}, meta={"event": "Spring Open; round 2"})
    text = N.format(setup)
    assert text.startswith('start colossi: ann, "bob b", cid; ruleset first-game')
    assert N.parse(text) == setup
    end = E.GameEnded(result="draw", winner=None, reason="gold-tie", gold={"ann": 50, "cid": 50})
    assert N.format(end) == "game over: draw by gold-tie; gold ann 50, cid 50"
    assert N.parse(N.format(end)) == end
    with pytest.raises(NotationError):
        N.parse("start colossi: ann; colour blue")


# == positions =========================================================================================

@settings(max_examples=8)
@given(seed=st.integers(0, 100_000))
def test_every_position_reads_back_from_its_line(seed: int) -> None:
    rng = random.Random(seed)
    events, final = playout(GAME, seed, max_events=500, setup=setup_of(seed))
    positions = [s for _e, s in with_positions(events)][1:] + [final]  # (none before MatchStarted)
    for s in rng.sample(positions, min(30, len(positions))) + [final]:
        line = N.format_position(s)
        assert "\n" not in line
        back = N.parse_position(line)
        assert back == s, line
        GAME.check_position(back)
        assert GAME.invariants(back) == []
        for seat in s.setup.players:
            assert N.parse_position(N.format_position(s, seat)) == GAME.observe(s, seat)


@settings(max_examples=4)
@given(seed=st.integers(0, 100_000))
def test_the_positions_of_a_seat_record_read_back(seed: int) -> None:
    events = match(seed, 300)
    record = seat_record(events, events[0].players[-1])
    for _e, s in with_positions(record)[1::9]:
        back = N.parse_position(N.format_position(s))
        assert back == s
        assert GAME.invariants(back) == []


def test_a_position_line_is_compact_and_hides_what_a_seat_cannot_see() -> None:
    events, s = playout(GAME, 4, max_events=300, setup=setup_of(0))
    line = N.format_position(s)
    assert line.startswith("colossi p1,p2 ") and "todo=(" in line
    assert N.parse_position("  " + line.replace(" ", "   ") + " ") == s  # a judge's spacing
    seat = N.format_position(s, "p1")
    assert "card_deck=(?*" in seat
    other = s.player("p2")
    if other.hand:
        assert f"p2(gold={other.gold},hand=(?" in seat


@pytest.mark.parametrize("line, part", [
    ("kolossus p1,p2 - p1/p2", "starts with 'colossi'"),
    ("colossi p1,p2(colour=blue) - p1/p2", "no field 'colour'"),
    ("colossi p1,p2 27 p1(gold=x)/p2", "player p1: a number expected"),
    ("colossi p1,p2 27 p1/p2 todo=(dance(p1))", "todo: a task of the queue expected"),
    ("colossi p1,p2 27 p1/p2 card_deck=(?*999999)", "card_deck: a run of 2 to"),
    ("colossi p1,p2 27 p1/p2 turn=5 bogus", "a field of the position"),
    ("colossi p1,p2 26 p1/p2", "the island has 27 spaces"),
    ("colossi p1,p2 27 p1(hand=(no-such-card))/p2", "unknown card 'no-such-card'"),
    ("colossi p1,p2 27 p1(gold=-3)/p2", "players[0].gold"),
    ("colossi p1,p2(options={a=" + "(" * 40 + ")})", "nested deeper"),
    ("colossi p1,p2,p3,p4,p5 27 p1/p2/p3/p4/p5", "the set-up: Colossi: Banners, Acolytes and Beasts is played by 2 to 4"),
    ("colossi p1,p2(options={board=atlantis}) 27 p1/p2", "no island board named 'atlantis'"),
])
def test_a_bad_position_line_names_the_part(line: str, part: str) -> None:
    with pytest.raises(NotationError) as err:
        N.parse_position(line)
    assert part in str(err.value)


def test_a_line_longer_than_the_bound_is_refused() -> None:
    with pytest.raises(NotationError, match="at most"):
        N.parse_position("colossi " + "p" * MAX_LINE)


@settings(max_examples=60)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 2_000), junk=st.text(max_size=6))
def test_a_damaged_line_is_read_or_refused_never_crashes(seed: int, cut: int, junk: str) -> None:
    events, s = playout(GAME, seed % 50, max_events=120, setup=setup_of(seed % 50))
    line = N.format_position(s)
    cut %= len(line)
    damaged = line[:cut] + junk + line[cut + 1:]
    try:
        back = N.parse_position(damaged)
    except NotationError:
        return
    GAME.check_position(back)


def test_the_documented_examples_read_as_their_events() -> None:
    """Every row of the table in docs/games/colossi.md ("Notation"): its example reads as an
    event of its type and is written back as it stands."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "games" / "colossi.md").read_text()
    table = doc.split("| event | form | example |\n| --- | --- | --- |\n", 1)[1].split("\n\n", 1)[0]
    rows = [r.split("|") for r in table.splitlines()]
    seen = set()
    for row in rows:
        name, example = row[1].strip(), row[3].strip().strip("`")
        e = N.parse(example)
        assert type(e).__name__ == name, example
        assert N.format(e) == example
        seen.add(type(e))
    assert seen == set(GAME.event_types)


def moves(events: list) -> list[list]:
    """The runs of steps of one piece in a row (a whole move)."""
    runs: list[list] = []
    for e in events:
        if type(e) is not E.Moved:
            continue
        last = runs[-1][-1] if runs else None
        if last is not None and (last.player, last.piece, last.owner, last.to) == (e.player, e.piece, e.owner, e.space):
            runs[-1].append(e)
        else:
            runs.append([e])
    return runs


@settings(max_examples=4)
@given(seed=st.integers(0, 100_000))
def test_a_whole_move_is_one_entry(seed: int) -> None:
    events = match(seed, 600)
    pairs = with_positions(events)
    for e, s in pairs[1:200]:
        if own(e):
            assert N.parse_entry(N.format(e, s), s) == [bare(e)]
    for run in moves(events):
        first = run[0]
        hops = "".join(("=" if m.road else "-") + str(m.to) for m in run)
        owner = f" of {first.owner}" if first.owner else ""
        text = f"{first.player}: {first.piece}{owner} {first.space}{hops}"
        assert N.parse_entry(text, pairs[-1][1]) == [bare(m) for m in run], text
    assert N.parse_entry("p1: colossus 3-4-5=6") == [
        E.Moved(player="p1", piece="colossus", space=3, to=4), E.Moved(player="p1", piece="colossus", space=4, to=5),
        E.Moved(player="p1", piece="colossus", space=5, to=6, road=True)]


def test_player_ids_with_spaces_colons_and_capitals_read_back() -> None:
    setup = E.MatchStarted(game="colossi", players=["ann lee", "Bob:2", "c,d"])
    events, final = playout(GAME, 5, max_events=300, setup=setup)
    for e, s in with_positions(events):
        if own(e):
            assert_reads_back(e, s)
        if s is not None and e is events[-1]:
            assert N.parse_position(N.format_position(s, "Bob:2")) == GAME.observe(s, "Bob:2")
    assert N.parse_position(N.format_position(final)) == final
    assert N.parse("BOB:2: pass", final) == E.Passed(player="Bob:2")
    assert N.parse("Bob: PLAY bolster") == E.CardPlayed(player="Bob", card="bolster")  # no position: as typed
    assert N.parse_entry("Ann: Colossus 3-4=5") == [E.Moved(player="Ann", piece="colossus", space=3, to=4),
                                                    E.Moved(player="Ann", piece="colossus", space=4, to=5, road=True)]


def test_the_documented_snippet_runs() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "games" / "colossi.md").read_text()
    code = doc.split("## Notation", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    _events, position = playout(GAME, 2, max_events=150, setup=E.MatchStarted(game="colossi", players=["ann", "bob"]))
    space: dict = {"position": position}
    for line in code.splitlines():  # each line as written (the expected values are in the comments)
        exec(line.split("  #", 1)[0], space)
    assert space["event"] == E.CardPlayed(player="ann", card="short-rest", space=5)
    assert space["notation"].parse_position(space["line"]) == position


def test_the_directions_of_an_island_from_a_pools_directory_are_read(tmp_path: Path) -> None:
    """An island of a ``--pools`` directory may name its directions otherwise (``east``): the
    position's island lends them to the notation."""
    import json

    from adjudicator.core.kernel import sources

    text = (Path(E.__file__).parent / "data" / "board-hex27.json").read_text()
    for d, new in (("NE", "northeast"), ("NW", "northwest"), ("SW", "southwest"), ("SE", "southeast"), ("E", "east"),
                   ("W", "west")):
        text = text.replace(f'"{d}"', f'"{new}"')
    doc = json.loads(text)
    doc["name"] = "windy"
    (tmp_path / "board-windy.json").write_text(json.dumps(doc))
    with sources.using(sources.Sources([tmp_path])):
        setup = E.MatchStarted(game="colossi", players=["ann", "bob"], options={"board": "windy"})
        state = GAME.initial_state(setup)
        e = E.DirectionChosen(player="ann", direction="northeast")
        assert N.format(e, state) == "ann: choose northeast"
        assert N.parse("ann: choose NorthEast", state) == e
        with pytest.raises(NotationError) as err:
            N.parse("ann: play Rampage dir northeastt", state)
        assert err.value.candidates == ["ann: play Rampage dir northeast"]
        assert N.parse_position(N.format_position(state)) == state


@pytest.mark.parametrize("name", ["legal-2p-to-50-gold.jsonl", "legal-4p-soothsayer-looks.jsonl"])
def test_every_seat_record_of_an_example_reads_back(name: str) -> None:
    events = [e for _line, e in parse_log((EXAMPLES / name).read_bytes(), name).events]
    for seat in events[0].players:
        for e, s in with_positions(seat_record(events, seat)):
            if own(e):
                assert_reads_back(e, s)


@functools.lru_cache(maxsize=1)
def small_position():
    return with_positions(match(3, 120))[-1][1]


@settings(max_examples=200)
@given(text=st.one_of(
    st.text(max_size=60),
    st.builds(lambda a, b: a + b, st.sampled_from(["p1: ", "p2: play ", "start colossi: p1, p2; ", "game over: ",
                                                   "p1: colossus ", "explore ", "p1: contribute "]), st.text(max_size=40))))
def test_any_text_is_an_event_or_a_notation_error(text: str) -> None:
    s = small_position()
    for state in (s, None):
        try:
            N.parse(text, state)
            N.parse_entry(text, state)
        except NotationError:
            pass


def test_deep_json_in_a_set_up_is_refused() -> None:
    with pytest.raises(NotationError, match="nested too deep"):
        N.parse("start colossi: a; options " + "[" * 50_000)


@pytest.mark.parametrize("k", range(len(OPTIONS)), ids=lambda k: ",".join(OPTIONS[k]) or "standard")
def test_under_every_option_set_events_and_positions_read_back(k: int) -> None:
    """Each option set of the engine's property tests once (the properties above draw seeds)."""
    events = match(k, 250)
    assert events[0].options == OPTIONS[k]
    for i, (e, s) in enumerate(with_positions(events)):
        if own(e):
            assert_reads_back(e, s)
        if s is not None and i % 25 == 0:
            assert N.parse_position(N.format_position(s)) == s


@settings(max_examples=4)
@given(seed=st.integers(0, 100_000))
@example(seed=679)  # a Banner kept on the board (Stone Beast's lair) followed by a plain score
def test_banners_and_spawns_of_one_player_in_a_row_are_one_entry(seed: int) -> None:
    events = [e for e in match(seed, 600) if own(e)]
    runs: list[list] = []
    for e in events:
        same = (runs and type(runs[-1][0]) is type(e) and getattr(runs[-1][0], "player", None) == getattr(e, "player", None)
                and not getattr(runs[-1][0], "keep", False))  # (a Banner kept on the board is written alone)
        if type(e) in (E.BannerRaised, E.AcolyteSpawned) or (type(e) is E.BannerScored and not e.keep):
            if same:
                runs[-1].append(e)
            else:
                runs.append([e])
        else:
            runs.append([e])
    lists = [r for r in runs if len(r) > 1]
    for run in lists:
        verb = {E.BannerRaised: "banner", E.BannerScored: "score", E.AcolyteSpawned: "spawn"}[type(run[0])]
        text = f"{run[0].player}: {verb} " + ", ".join(str(e.space) for e in run)
        assert N.parse_entry(text) == run, text
    assert N.parse_entry("p1: banner 3, 5,7") == [E.BannerRaised(player="p1", space=n) for n in (3, 5, 7)]
    with pytest.raises(NotationError):
        N.parse_entry("p1: pay 3, 5")  # (not a listed event)
