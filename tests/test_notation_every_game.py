"""Every registered game's notation (adjudicator/core/kernel/notation.py, the game's ``notation.py``),
as properties over generated matches (docs/notation.md):

- **round trip**: every event ``e`` of a generated match (decisions, random outcomes, derived
  events) reads back from its text in the position ``s`` it happens in:
  ``parse(format(e, s), s) == e``;
- **distinct**: no two legal events of a position share a text (so a typed text names one);
- **position line**: ``parse_position(format_position(s))`` is the position again for the judge
  (it writes the same line, and the rules see the same position: who acts, every legal event,
  the outcome), at every fifth position of a match; a seat's line is one line too;
- the core's events (a judge's ruling, the private looks) round trip in every game, and the
  generic form of a game without a notation of its own (the plugin toy game) too.
"""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import CardsLooked, CardsMoved, CardsReordered, Event, JudgeRuling
from adjudicator.core.kernel.notation import Notation, NotationError, normalize
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.verify import settle

GAMES = [g.id for g in registry.games()]
#: the games with notation of their own (a plugin on the kit's generic form, as the test suite's toy
#: game, writes its set-up as ``match started key=value ...``: exact, but not a player's words)
WORDED = [g.id for g in registry.games() if type(g.notation) is not Notation]
SEEDS = (1, 2)
MAX_EVENTS = 150


def _positions(game, seed: int) -> list[tuple[object, Event]]:
    """(the position before it, the event) of every event of a generated match after MatchStarted,
    derived events included."""
    log, _ = playout(game, seed, max_events=MAX_EVENTS)
    state = game.initial_state(log[0])
    out = []
    d = game.derive(state)
    while d is not None:
        out.append((state, d))
        state = game.apply(state, d)
        d = game.derive(state)
    for ev in log[1:]:
        out.append((state, ev))
        state = game.apply(state, ev)
        d = game.derive(state)
        while d is not None:
            out.append((state, d))
            state = game.apply(state, d)
            d = game.derive(state)
    return out


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_reads_back_from_its_text(game_id: str, seed: int) -> None:
    game = registry.get(game_id)
    n = game.notation
    wrong = []
    for state, ev in _positions(game, seed):
        text = n.format(ev, state)
        assert text and "\n" not in text and not text.startswith("{"), f"{type(ev).__name__}: {text!r}"
        try:
            back = n.parse(text, state)
        except NotationError as exc:
            back = f"NotationError: {exc}"
        if back != ev:
            wrong.append(f"{text!r} -> {back!r} (not {ev!r})")
    assert not wrong, f"{len(wrong)} events do not read back, e.g.:\n" + "\n".join(wrong[:5])


@pytest.mark.parametrize("game_id", WORDED)
def test_the_set_up_reads_back_from_its_words(game_id: str) -> None:
    """``MatchStarted`` (the first event every viewer lists) in the game's words: no JSON object,
    read back exactly, for the sample set-ups of many seeds (issue 30)."""
    game = registry.get(game_id)
    n = game.notation
    for seed in range(12):
        setup = game.sample_setup(seed)
        text = n.format(setup)
        assert text.startswith("start ") and '{"' not in text and "\n" not in text, text
        assert msgspec.json.encode(n.parse(text)) == msgspec.json.encode(setup), text


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_id", GAMES)
def test_legal_events_have_distinct_texts(game_id: str, seed: int) -> None:
    game = registry.get(game_id)
    n = game.notation
    seen_types: set[type] = set()
    for state, ev in _positions(game, seed)[::3]:
        texts: dict[str, Event] = {}
        for e in game.legal_events(state):
            t = normalize(n.format(e, state))
            assert t not in texts or texts[t] == e, f"{t!r} is the text of {texts[t]!r} and of {e!r}"
            texts[t] = e
            seen_types.add(type(e))
    assert seen_types


@pytest.mark.parametrize("game_id", GAMES)
def test_the_position_line_reads_back(game_id: str) -> None:
    game = registry.get(game_id)
    n = game.notation
    if type(n).format_position is Notation.format_position:  # (a plugin without one: the toy game of other tests)
        pytest.skip(f"{game_id} has no position notation (the base's)")
    for state, _ in _positions(game, 1)[::5]:
        line = n.format_position(state)
        assert "\n" not in line
        back = n.parse_position(line)
        assert n.format_position(back) == line  # the line reads back as itself
        # and as the same position for the rules: who acts, what is legal, how it ended
        assert game.to_act(back) == game.to_act(state) and game.outcome(back) == game.outcome(state), line
        assert ([msgspec.to_builtins(e) for e in game.legal_events(back)]
                == [msgspec.to_builtins(e) for e in game.legal_events(state)]), line
        for seat in game.players(state):  # what one seat knows, in one line too
            assert "\n" not in n.format_position(state, seat)


CORE = [
    JudgeRuling(event=22, decision="stands", reason="the card was shown: it stands", judge="Ann Smith"),
    JudgeRuling(event=7, decision="taken-back", line=9),
    JudgeRuling(event=3, decision="result", result="win", winner="p1", reason="conceded"),
    JudgeRuling(event=4, decision="penalty", player="p2", penalty="game loss"),
    CardsLooked(player="p1", owner="p2", zone="hand", cards=["x", "y"], source="a spy"),
    CardsLooked(player="p1", owner="p2", zone="deck-top", cards=["?", "?", "?"]),
    CardsReordered(player="p1", owner="p2", zone="deck-top", cards=["a", "b", "c"]),
    CardsMoved(owner="p1", from_zone="deck", to_zone="locus", cards=["a"], seen_by=["p1", "p2"], player="p1",
               slots=[2]),
    CardsMoved(owner="p1", from_zone="hand", to_zone="discard", cards=["?", "?"]),
]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("ev", CORE, ids=lambda e: e.type_name())
def test_the_core_events_read_back_in_every_game(game_id: str, ev: Event) -> None:
    n = registry.get(game_id).notation
    text = n.format(ev)
    assert n.parse(text) == ev, text


def test_the_generic_form_reads_back_for_a_game_without_a_notation(toy) -> None:
    from adjudicator.core.kernel.notation import Notation

    assert type(toy.notation) is Notation
    log, _ = playout(toy, 4, with_derived=True)
    state = toy.initial_state(log[0])
    state, _ = settle(toy, state)
    for ev in [log[0], *log[1:], *CORE]:
        text = toy.notation.format(ev)
        assert toy.notation.parse(text) == ev, text
    assert toy.notation.format(log[0]).startswith("match started game=toy players=[")
    co = registry.get("colossus-order")  # a game's set-up line reads back (issue 30: Colossus Order's too)
    setup = playout(co, 1, max_events=1)[0][0]
    assert co.notation.parse(co.notation.format(setup)) == setup
    with pytest.raises(NotationError, match="no event type"):
        toy.notation.parse("a: flies away", None)
    with pytest.raises(NotationError, match="no event type .added n 3."):
        toy.notation.parse("a: added n 3", None)
    with pytest.raises(NotationError, match="expected key=value"):
        toy.notation.parse("a: added n=3 4", None)
