"""Per-viewer events: a player's event list names nothing that player could not see."""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.playout import playout
from adjudicator.replays.core import Replay

SHIPPED = [g.id for g in registry.games() if type(g).__module__.startswith("adjudicator.games.")]


@pytest.mark.parametrize("gid", SHIPPED)
def test_redact_keeps_type_and_shape_and_never_touches_the_judges_view(gid):
    g = registry.get(gid)
    events, state = playout(g, 5, max_events=600)
    players = g.players(state)
    for e in events:
        assert g.redact(e, None) is e
        for p in players:
            r = g.redact(e, p)
            assert type(r) is type(e)
            assert g.redact(r, p) == r  # idempotent
            before, after = msgspec.to_builtins(e), msgspec.to_builtins(r)
            assert before.keys() == after.keys()
            for k, v in after.items():
                if isinstance(v, list) and v != before[k]:
                    assert len(v) == len(before[k]) and set(v) == {HIDDEN}
            msgspec.json.encode(r)
            if getattr(e, "player", None) == p and type(e).__name__ != "MatchStarted":
                assert r == e, f"{p} must see their own {e}"


def _hidden(gid, event_type, field, owner_field="player"):
    """For every event of that type, the other players see ``field`` masked."""
    g = registry.get(gid)
    seen = 0
    for seed in range(3):
        events, state = playout(g, seed, max_events=800)
        for e in events:
            if type(e).__name__ != event_type:
                continue
            for p in g.players(state):
                r = g.redact(e, p)
                if p == getattr(e, owner_field):
                    assert getattr(r, field) == getattr(e, field)
                else:
                    v = getattr(r, field)
                    assert v == HIDDEN or (isinstance(v, list) and set(v) <= {HIDDEN}), (p, e, r)
                    seen += 1
    assert seen, f"no {event_type} in the playouts"


def test_colossus_order_hides_the_opponents_draws_and_face_down_locus():
    _hidden("colossus-order", "CardDrawn", "card")
    g = registry.get("colossus-order")
    from adjudicator.games.colossus_order import events as E

    down = E.CardSet(player="alice", card="red-gem", zone="locus")
    gem = E.CardSet(player="alice", card="red-gem", zone="gem")
    assert g.redact(down, "bob").card == HIDDEN
    assert g.redact(gem, "bob").card == "red-gem"  # a set gem is face up


def test_logos_hides_the_opponents_draws():
    _hidden("logos", "CardDrawn", "card")


def test_colossi_hides_other_players_draws():
    _hidden("colossi", "CardDrawn", "card")


def test_replay_event_list_of_a_player_view_names_no_opponent_draw():
    r = Replay.from_file("examples/colossus-order/legal-gem-complete.jsonl")
    for f in r.frames:
        if f.type == "CardDrawn" and f.event.player == "bob":
            card = r.game.notation.card_name(r.result.state, f.event.card)  # (the notation names it)
            mine = r.frame(f.number, "bob")
            theirs = r.frame(f.number, "alice")
            assert card in mine.text
            assert card not in theirs.text and theirs.text.endswith("draw ?")
    assert r.frame(1, "alice").event.decks["bob"].cards == {}
    assert r.frame(1, None).event.decks["bob"].cards
