"""LOGOS's look at one's own deck top with a reorder (LG-44; issue 32, item 8, the third kind):
the pool's ``look-deck`` (a count, ``reorder: true|false``).  As a user would: a pool file with a
card of each kind, a match of it recorded with ``adjudicator record --script``, verified, redacted
for each seat (``redact --as``), each record verified, the two records reconciled into the log.
Then properties over generated matches: every draw after a look takes the first card known on
top, and a draw changed to another card of the deck is illegal at that event in the full log and
in the looker's record (not in the opponent's, which never saw the cards); the looker's view
names the known top in order, the opponent's hides it; the pool refuses a malformed look.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import sources
from adjudicator.core.kernel.errors import DataError
from adjudicator.core.kernel.events import HIDDEN, CardsLooked, CardsReordered, encode_line
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import run, settle
import tests.test_logos_looks as look_tests  # (its names read when the tests run: the two import each other's)
from tests.logos_scenarios import GAME
from tests.test_logos_rules import covers, ruled

SAMPLE = Path(look_tests.__file__).resolve().parent.parent / "adjudicator" / "games" / "logos" / "data" / "sample.toml"
DECK_LOOKS = '''
[[card]]
id = "deep-scry"
name = "Deep Scry"
class = "information"
attack = 9000
defense = 9000
speed = 60
right = { do = "look-deck", count = 3, reorder = true }
text = "Its owner looks at the top three cards of its deck and puts them back in any order."

[[card]]
id = "still-glance"
name = "Still Glance"
class = "neutral"
attack = 8000
defense = 8000
speed = 65
right = { do = "look-deck", count = 2 }
text = "Its owner looks at the top two cards of its deck and leaves them as they are."
'''


def write_pool(d: Path) -> Path:
    d.mkdir(exist_ok=True)
    (d / "decklook.toml").write_text(SAMPLE.read_text().replace('pool = "sample"', 'pool = "decklook"', 1) + DECK_LOOKS)
    return d


@pytest.fixture
def pools(tmp_path: Path) -> Path:
    return write_pool(tmp_path / "pools")


def deck_setup(seed: int) -> Any:
    """A sample set-up with three Deep Scry and two Still Glance in each deck (hidden picks on odd seeds)."""
    base = GAME.sample_setup(seed)
    decks = {p: {**d, "deep-scry": 3, "still-glance": 2} for p, d in base.decks.items()}
    options = {**base.options, "picks": "commit-reveal"} if seed % 2 else base.options
    return msgspec.structs.replace(base, pool="decklook", decks=decks, options=options)


def full_log(seed: int, max_events: int = 300) -> list[Any]:
    """A generated match of the pool with its derived events stated."""
    return playout(GAME, seed, setup=deck_setup(seed), max_events=max_events, with_derived=True)[0]


def reordered_match() -> list[Any]:
    """The first generated match (seeds 0-19) with a reorder."""
    for seed in range(20):
        events = full_log(seed)
        if any(type(e) is CardsReordered for e in events):
            return events
    raise AssertionError("no generated match reorders")


def _verify(events: list[Any], name: str = "log") -> Any:
    return run(parse_log(to_jsonl(events), name))


def _record(events: list[Any], seat: str) -> list[Any]:
    return list(redact_log(parse_log(to_jsonl(events), "full"), seat))


@covers("LG-44", illegal=False, behaviour=True)
def test_a_deck_look_of_each_kind_recorded_verified_redacted_and_reconciled(pools: Path, tmp_path: Path) -> None:
    with sources.using(sources.Sources([pools])):
        for seed in range(20):
            events = full_log(seed)
            kinds = {(e.source, type(e).__name__) for e in events if type(e) in (CardsLooked, CardsReordered)}
            if {("deep-scry", "CardsReordered"), ("still-glance", "CardsLooked")} <= kinds:
                break
        else:
            raise AssertionError("no generated match looks with both cards")
    decisions = [e for e in events[1:] if e.kind != "X"]
    looks = [e for e in events if type(e) in (CardsLooked, CardsReordered)]
    for seat, out in look_tests.record_redact_reconcile(pools, "decklook", events[0], decisions, tmp_path).items():
        mine = [json.loads(line) for line in out.read_text().splitlines() if '"CardsLooked"' in line
                or '"CardsReordered"' in line]
        assert len(mine) == len(looks)
        for d, m in zip(looks, mine):  # the looker's record names the cards, the other's has them as "?"
            assert m["cards"] == (list(d.cards) if d.player == seat else [HIDDEN] * len(d.cards)), (seat, m)


def _known_tops(events: list[Any]) -> list[dict[str, list[str]]]:
    """The model of each player's known top before each event (index i: before ``events[i]``),
    from the log alone: a look's cards (top first) over what was known below them, a reorder's
    order over the rest, a draw takes the first; Shuffle Hand into the deck forgets it."""
    tops: dict[str, list[str]] = {p: [] for p in events[0].players}
    out = []
    for e in events:
        out.append({p: list(v) for p, v in tops.items()})
        t = type(e)
        if t in (CardsLooked, CardsReordered):
            tops[e.player] = list(e.cards) + tops[e.player][len(e.cards):]
        elif t.__name__ == "CardDrawn" and tops[e.player]:
            assert tops[e.player].pop(0) == e.card, "a draw after a look takes the first card known on top"
        elif t.__name__ == "EffectResolved" and (e.copied or e.effect) == "shuffle-hand" and e.result == "applied":
            tops[e.target] = [] if events[0].options.get("shuffle_hand_to") == "deck" else tops[e.target]
    out.append(tops)
    return out


@covers("LG-44", legal=True, illegal=True, behaviour=True)
def test_draws_take_the_known_top_and_another_card_is_illegal(pools: Path) -> None:
    """Over generated matches (seeds 0-11): the engine's known top is the model's after every
    event; the looker's view names it in order and the opponent's does not; the first draw of a
    known card, changed to another card its deck holds, is illegal at that event in the full log
    and in the looker's record, and stays legal in the opponent's (which never saw the look)."""
    mutated = drawn = 0
    with sources.using(sources.Sources([pools])):
        for seed in range(12):
            events = full_log(seed, 260)
            rng = random.Random(seed)
            tops = _known_tops(events)
            state, _ = settle(GAME, GAME.initial_state(events[0]))
            for i, e in enumerate(events[1:], 1):
                state = GAME.apply(state, e)
                for p in state.players:
                    assert list(p.top) == tops[i + 1][p.id], (seed, i, p.id)
                    other = next(q.id for q in state.players if q.id != p.id)
                    mine, theirs = GAME.observe(state, p.id).player(p.id), GAME.observe(state, other).player(p.id)
                    assert list(mine.deck[:len(p.top)]) == list(p.top)
                    assert set(theirs.deck) <= {HIDDEN} and set(theirs.top) <= {HIDDEN}
            for i, e in enumerate(events):
                if type(e).__name__ != "CardDrawn" or not tops[i][e.player]:
                    continue
                drawn += 1
                before = _verify(events[:i], "before").state
                others = sorted({c for c in before.player(e.player).deck if c != e.card})
                if not others:
                    continue
                bad = msgspec.structs.replace(e, card=rng.choice(others))
                res = _verify(events[:i] + [bad], "mutated")
                assert res.verdict == "illegal" and res.violations[0].seq == i + 1, (seed, i)
                assert res.violations[0].rule == "LG-44" and "not-top" in res.violations[0].code
                ruled("LG-44")
                mine = _verify(_record(events[:i] + [bad], e.player), "looker")
                assert mine.verdict == "illegal" and mine.violations[0].seq == i + 1, (seed, i, mine.verdict)
                other = next(p for p in events[0].players if p != e.player)
                theirs = _verify(_record(events[:i] + [bad], other), "other")
                assert theirs.verdict != "illegal", (seed, i, [v.as_dict() for v in theirs.violations])
                mutated += 1
                break
    assert drawn and mutated >= 6, (drawn, mutated)


@covers("LG-44", legal=False, illegal=True)
def test_a_look_or_reorder_that_cannot_be(pools: Path) -> None:
    """A look naming a card off the top, the wrong number, a reorder of other cards: illegal."""
    with sources.using(sources.Sources([pools])):
        events = reordered_match()
        i = next(k for k, e in enumerate(events) if type(e) is CardsReordered)
        j = max(k for k in range(i) if type(events[k]) is CardsLooked)
        look, order = events[j], events[i]
        wrong = [list(look.cards)[1], list(look.cards)[0], *list(look.cards)[2:]]
        deck = _verify(events[:j]).state.player(look.player).deck
        stranger = next(c for c in sorted(GAME.rules.pool(_verify(events[:1]).state).cards) if c not in deck)
        for bad, code in ((msgspec.structs.replace(look, cards=list(look.cards)[:-1]), "look-count"),
                          (msgspec.structs.replace(look, cards=[stranger, *list(look.cards)[1:]]), "not-top"),
                          (msgspec.structs.replace(look, cards=[HIDDEN, *list(look.cards)[1:]]), "look-cards"),
                          (msgspec.structs.replace(look, owner=next(p for p in events[0].players if p != look.player)), "look-what")):
            res = _verify(events[:j] + [bad])
            assert res.verdict == "illegal" and res.violations[0].seq == j + 1 and code in res.violations[0].code, \
                (code, [v.as_dict() for v in res.violations])
            ruled("LG-44")
        assert _verify(events[:i] + [msgspec.structs.replace(order, cards=wrong)]).verdict == "legal" or wrong == list(look.cards)
        other = msgspec.structs.replace(order, cards=[stranger, *list(order.cards)[1:]])
        res = _verify(events[:i] + [other])
        assert res.verdict == "illegal" and "reorder-cards" in res.violations[0].code
        # out of turn: a look where none is owed
        res = _verify(events[:j] + [order])
        assert res.verdict == "illegal" and res.violations[0].seq == j + 1


def test_the_position_line_keeps_a_look_under_way(pools: Path) -> None:
    """The known top and the look under way survive ``format_position`` / ``parse_position``."""
    with sources.using(sources.Sources([pools])):
        events = reordered_match()
        i = next(k for k, e in enumerate(events) if type(e) is CardsReordered)
        for state in (_verify(events[:i]).state, _verify(events[:i + 1]).state):
            line = GAME.notation.format_position(state)
            assert GAME.notation.parse_position(line) == state, line


@pytest.mark.parametrize("line, why", [
    ('right = { do = "look-deck" }', "look-deck needs a count from 1 to 3"),
    ('right = { do = "look-deck", count = 4 }', "look-deck needs a count from 1 to 3"),
    ('left = { do = "look-deck", count = 2 }', "it goes in the right field"),
    ('right = { do = "berserk", count = 2 }', "only look-deck takes 'count' and 'reorder'"),
])
def test_a_malformed_deck_look_names_the_file_card_and_field(tmp_path: Path, line: str, why: str) -> None:
    from adjudicator.games.logos.cards import load_pool_file

    p = tmp_path / "broken.toml"
    p.write_text(f'pool = "broken"\n[[card]]\nid = "bad-card"\nname = "Bad"\nclass = "matter"\nattack = 1\n'
                 f'defense = 1\nspeed = 1\n{line}\n')
    with pytest.raises(DataError) as exc:
        load_pool_file(p)
    assert str(p) in str(exc.value) and why in str(exc.value), str(exc.value)


def test_a_position_with_an_impossible_look_is_refused(pools: Path) -> None:
    """A judge's position may not hold a look of more cards than a pool may print (the cards it
    can see would be listed), by a stranger, or of a card of no pool."""
    from adjudicator.core.kernel.notation import NotationError

    with sources.using(sources.Sources([pools])):
        events = reordered_match()
        i = next(k for k, e in enumerate(events) if type(e) is CardsReordered)
        state = _verify(events[:i]).state
        for bad in ({"count": 10**9}, {"player": "nobody"}, {"source": "no-such-card"}):
            odd = msgspec.structs.replace(state, look=msgspec.structs.replace(state.look, **bad))
            with pytest.raises((NotationError, msgspec.ValidationError)):
                GAME.notation.parse_position(GAME.notation.format_position(odd))


@covers("LG-44", legal=True, illegal=False, behaviour=True)
def test_a_draw_off_the_known_top_a_judge_lets_stand(pools: Path) -> None:
    """LG-40 with LG-44: a draw of another card than the first known on top, let stand by a
    judge, takes that card (out of the known top when every copy left is there); the match goes
    on legally from there, every later draw still taking the first card known on top."""
    from adjudicator.core.kernel.events import JudgeRuling
    from tests.test_logos_ruling_props import _continue

    done = 0
    with sources.using(sources.Sources([pools])):
        for seed in range(12):
            events = full_log(seed, 200)
            tops = _known_tops(events)
            i = next((k for k, e in enumerate(events) if type(e).__name__ == "CardDrawn" and len(tops[k][e.player]) >= 2), None)
            if i is None:
                continue
            e = events[i]
            bad = msgspec.structs.replace(e, card=tops[i][e.player][1])
            ruling = JudgeRuling(event=i + 1, decision="stands", judge="the floor judge")
            assert _verify(events[:i] + [bad]).violations[0].rule == "LG-44"
            res = _verify(events[:i] + [bad, ruling])
            assert res.verdict == "legal" and [w.seq for w in res.warnings] == [i + 1], [v.as_dict() for v in res.violations]
            p = res.state.player(e.player)
            assert all(p.deck.count(c) >= p.top.count(c) for c in p.top) and bad.card not in p.top[:1], (p.top, p.deck)
            more, _ = _continue(res.state, random.Random(seed), 60)
            again = _verify(events[:i] + [bad, ruling] + more)
            assert again.verdict == "legal", [v.as_dict() for v in again.violations][:3]
            done += 1
    assert done >= 3, done


def test_each_seat_records_its_own_record_of_a_match_with_deck_looks(pools: Path, tmp_path: Path) -> None:
    """``record --as SEAT --script``: each seat enters its own record of a match with looks (the
    looker its cards, the other ``"?"`` for each, as the recorder offers them); the record written
    is that seat's record (``redact --as``) and verifies (legal, or undetermined on cards unseen)."""
    with sources.using(sources.Sources([pools])):
        events = reordered_match()
        records = {seat: _record(events, seat) for seat in events[0].players}
    setup = events[0]
    for seat, rec in records.items():
        script = "".join(encode_line(e).decode() + "\n" for e in rec[1:] if e.kind != "X")
        given = json.dumps({"decks": {p: (d if p == seat else {}) for p, d in setup.decks.items()}, "options": setup.options})
        out = tmp_path / f"{seat}.jsonl"
        r = CliRunner().invoke(main, ["record", str(out), "--pools", str(pools), "--game", "logos", "--players", "p1,p2",
                                      "--as", seat, "--pool", "decklook", "--setup", given, "--script", "-"], input=script)
        assert r.exit_code == 0, r.output[-2000:]
        written = [json.loads(line) for line in out.read_text().splitlines()]
        mine = [x for x in written if x["type"] in ("CardsLooked", "CardsReordered")]
        want = [e for e in rec if type(e) in (CardsLooked, CardsReordered)]
        assert [x["cards"] for x in mine] == [list(e.cards) for e in want] and want, seat
        r = CliRunner().invoke(main, ["verify", "--pools", str(pools), str(out)])
        assert r.exit_code in (0, 4), r.output
