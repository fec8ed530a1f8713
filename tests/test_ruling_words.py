"""A refusal speaks a judge's words (people read words): over generated matches of every game,
legal decisions are mutated (the wrong player, another card of the pool, a decision from
another point of the match: out of phase) and every message of a refusal is checked to hold no
event type name (``CardDrawn``), no ``key=value`` dump and no card id of the pool where the
card's name differs from its id (``magma-titan`` for Magma Titan).

The mutations are the game's own events and fields (``game.refs`` says which field names a card
or a player, ``game.context`` which cards the pool holds), so a new game or event is covered as
it comes; the games' own ruling properties (tests/test_*_ruling_props.py) check the verdicts."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import CORE_EVENTS, HIDDEN
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.notation import ACTORS
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.verify import run, settle

GAMES = ("colossus-order", "logos", "kolossus", "colossi")
#: events of a generated match, and decisions mutated in it
MATCH_EVENTS = 400
POINTS = 12
#: a field dump: ``space=19``, ``card=audacity``
DUMP = re.compile(r"\b[a-z_]+=\S")


def _match(game: Any, seed: int) -> tuple[list[Any], list[Any]]:
    """A generated match and the settled position before each of its events (index 0: none)."""
    events, _ = playout(game, seed, max_events=MATCH_EVENTS)
    state, _ = settle(game, game.initial_state(events[0]))
    before: list[Any] = [None]
    for e in events[1:]:
        before.append(state)
        state, _ = settle(game, game.apply(state, e))
    return events, before


def _cards(game: Any, setup: Any) -> tuple[list[str], dict[str, str]]:
    """The pool's card ids, and those whose name is not the id (id -> name)."""
    names = game.context(setup).get("card")
    if names is None:
        return [], {}
    ids = sorted(c for c in names.known if isinstance(c, str) and c != HIDDEN)
    named: dict[str, str] = {}
    for c in ids:
        info = game.card_info(setup, c)
        if info and info.get("name") and info["name"] != c:
            named[c] = info["name"]
    return ids, named


def _mutations(game: Any, state: Any, event: Any, other: Any, cards: list[str], rng: random.Random) -> list[tuple[str, Any]]:
    """``event`` by another player, with another card of the pool in each card field, and
    ``other`` (a decision of another point of the match) in this position."""
    out: list[tuple[str, Any]] = [("out-of-phase", other)]
    fields = type(event).__struct_fields__
    actor = next((a for a in ACTORS if a in fields and isinstance(getattr(event, a), str)), None)
    if actor is not None:
        players = [p for p in game.players(state) if p != getattr(event, actor)]
        if players:
            out.append(("wrong-player", msgspec.structs.replace(event, **{actor: rng.choice(players)})))
    single = dict(game.refs.single)
    lists = dict(game.refs.lists)
    for f in fields:
        v = getattr(event, f)
        if cards and single.get(f) == "card" and isinstance(v, str):
            out.append(("another-card", msgspec.structs.replace(event, **{f: rng.choice(cards)})))
        elif cards and lists.get(f) == "card" and isinstance(v, list) and v:
            new = list(v)
            new[rng.randrange(len(new))] = rng.choice(cards)
            out.append(("another-card", msgspec.structs.replace(event, **{f: new})))
    return out


def _faults(message: str, types: set[str], named: dict[str, str]) -> list[str]:
    found = [w for w in re.findall(r"\b[A-Z][A-Za-z]+\b", message) if w in types]
    found += DUMP.findall(message)
    found += [c for c in named if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", message)]
    return found


def refusals(game_id: str, seed: int) -> list[tuple[str, str, str, list[str]]]:
    """Every refusal of a mutated decision of the match ``seed`` whose message is not in words:
    (kind, the event's type, the message, what is wrong in it)."""
    game = registry.get(game_id)
    rng = random.Random(seed)
    events, before = _match(game, seed)
    ids, named = _cards(game, events[0])
    types = {t.__name__ for t in game.event_types} | {t.__name__ for t in CORE_EVENTS}
    decisions = [i for i in range(1, len(events)) if events[i].kind == "D"]
    bad: list[tuple[str, str, str, list[str]]] = []
    checked = 0
    for i in sorted(rng.sample(decisions, min(POINTS, len(decisions)))):
        other = events[rng.choice(decisions)]
        for kind, ev in _mutations(game, before[i], events[i], other, ids, rng):
            r = game.check(before[i], ev)  # (never raises: a ruling for any decoded event)
            if r.verdict != "illegal":
                continue
            checked += 1
            faults = _faults(r.message, types, named)
            if faults:
                bad.append((kind, type(ev).__name__, r.message, faults))
    assert checked, f"{game_id} seed {seed}: no mutation was refused"
    return bad


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=5)
@given(seed=st.integers(0, 10_000))
@example(seed=366)  # (a random draw found Colossi's card choices written as beast=blood-beast)
def test_every_refusal_names_events_and_cards_in_words(game_id: str, seed: int) -> None:
    bad = refusals(game_id, seed)
    assert not bad, "\n".join(f"{k} {t}: {m!r} ({', '.join(f)})" for k, t, m, f in bad[:12])


def test_the_check_finds_type_names_dumps_and_card_ids() -> None:
    """The test's own check fails on the messages it exists to catch."""
    named = {"magma-titan": "Magma Titan"}
    types = {"CardDrawn"}
    assert _faults("CardDrawn by ben is not allowed now", types, named) == ["CardDrawn"]
    assert _faults("space=19 is not an empty space", types, named) == ["space=1"]
    assert _faults("magma-titan needs the combo", types, named) == ["magma-titan"]
    assert _faults("Magma Titan needs the combo; a card drawn by ben", types, named) == []


class _Written(Exception):
    """Raised by a refusal's words where a test forbids them."""


@pytest.mark.parametrize("game_id", GAMES)
def test_a_legal_match_is_verified_without_writing_a_refusal(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hot path: the verify loop writes words only for a refused event (a legal event's
    ruling is precomputed per type), so a legal match verifies with ``in_words`` forbidden, and
    a refusal then does reach it (the patch is in force)."""
    game = registry.get(game_id)
    events, before = _match(game, 7)

    def forbidden(self: Any, s: Any, r: Any) -> Any:
        raise _Written(r.message)

    monkeypatch.setattr(type(game.rules), "in_words", forbidden)
    res = run(parse_log(to_jsonl(events), "words.jsonl"))
    assert res.verdict == "legal", [v.as_dict() for v in res.violations]
    i = next(i for i in range(1, len(events)) if events[i].kind == "D" and any(
        a in type(events[i]).__struct_fields__ for a in ACTORS))
    e = events[i]
    actor = next(a for a in ACTORS if a in type(e).__struct_fields__)
    stranger = msgspec.structs.replace(e, **{actor: "nobody-at-all"})
    with pytest.raises(_Written):
        game.check(before[i], stranger)


def test_name_cards_writes_whole_ids_only() -> None:
    """A card id becomes its name where it stands as a whole word, never inside a longer id or
    word; a card whose name is its id, and a message naming no card, stay as they are."""
    from adjudicator.core.kernel.notation import name_cards

    class Card:
        def __init__(self, name: str) -> None:
            self.name = name

    pool = {"magma-titan": Card("Magma Titan"), "ash": Card("★Ash★"), "same": Card("same")}
    for said, want in [("magma-titan needs the combo", "Magma Titan needs the combo"),
                       ("no ash is left (ash), ash's", "no ★Ash★ is left (★Ash★), ★Ash★'s"),
                       ("Xash ash-y mash magma-titan-2", "Xash ash-y mash magma-titan-2"),
                       ("the same card", "the same card"), ("nothing here", "nothing here")]:
        assert name_cards(said, pool) == want
    # a player called like a card keeps their name (the match's players are kept)
    assert name_cards("ash already set a Gem; ash is not in hand", pool, ["ash"]) == "ash already set a Gem; ash is not in hand"


def test_a_player_named_like_a_card_keeps_the_name_in_a_refusal() -> None:
    """A Colossus Order match whose player is called ``ash`` (a card of the sample pool): the
    refusal names the player as the player, not as the card ★Ash★."""
    game = registry.get("colossus-order")
    s = game.sample_setup(1)
    p = s.players[0]
    renamed = msgspec.structs.replace(s, players=["ash", s.players[1]],
                                      decks={("ash" if k == p else k): v for k, v in s.decks.items()})
    state = game.initial_state(renamed)
    r = game.rules.in_words(state, game.rules.out_of_step(state, None, what="a Gem set", who="ash"))
    assert "★Ash★" not in r.message and "ash" in r.message, r.message


def test_a_refused_set_up_names_its_cards() -> None:
    """A set-up's refusal names the pool's cards as an event's does (the kit's check_start)."""
    game = registry.get("colossus-order")
    s = game.sample_setup(1)
    p = s.players[0]
    bad = msgspec.structs.replace(s, decks={**s.decks, p: msgspec.structs.replace(s.decks[p], colossus="red-gem")})
    r = game.check_start(bad)
    assert r.verdict == "illegal" and "'Red Gem' is a gem" in r.message and "red-gem" not in r.message, r
