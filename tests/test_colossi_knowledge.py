"""Colossi: what a seat knows survives a judge's taking back and a record's ``"?"`` (CL-41,
CL-44; issue 32, item 3), over generated matches (2, 3 and 4 players).

- A tile turned up and taken back goes back on top of the tile deck known to every seat: each
  seat's record knows it as the full log's position shows that seat, even where the record had
  the tile deck as unknown tiles.
- A seat's record that writes ``"?"`` for another player's draw of a card the seat looked at on
  top still knows which card that player holds (the draw takes the top card).
- Cards drawn and taken back go back on top in the order drawn (which every record holds), so the
  restated draws, in that order, are legal in the full log and in every seat's record; likewise
  after any span taken back, each seat's record knows the tops as the full log shows that seat.
"""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN, JudgeRuling
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import positions_before, redact_log
from adjudicator.games.colossi import events as E
from tests.test_colossi_ruling_props import GAME, match, match_players, verify

SEEDS = (3, 4, 5, 7, 10)


def _record(events: list, seat: str) -> list:
    return list(redact_log(parse_log(to_jsonl(events), "full"), seat))


def _tops_as_seen(state, seat: str) -> tuple:
    v = GAME.observe(state, seat)
    return v.card_top, v.tile_top


def _spans(events: list, rng: random.Random, want: type | None, n: int) -> list[tuple[int, int]]:
    out = []
    for _ in range(200):
        k, m = rng.randrange(2, len(events) - 8), rng.randrange(1, 8)
        if events[k].kind not in "DR" or any(type(e) is E.CardGiven for e in events[k:k + m]):
            continue
        if want is not None and not any(type(e) is want for e in events[k:k + m]):
            continue
        out.append((k, m))
        if len(out) == n:
            break
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_what_a_span_taken_back_showed_is_known_alike_in_each_seats_record(seed: int) -> None:
    """Spans of events taken back (tiles turned up, cards drawn, looks): each seat's record
    reaches the tops the full log's position shows that seat, names and all."""
    events, _final, _before = match(seed)
    rng = random.Random(seed + 900)
    spans = _spans(events, rng, E.TileExplored, 3) + _spans(events, rng, E.CardDrawn, 3)
    assert spans
    for k, m in spans:
        log = events[:k + m] + [JudgeRuling(event=k + 1, decision="taken-back")]
        full = verify(log, "span")
        assert full.verdict == "legal", [v.as_dict() for v in full.violations]
        for seat in match_players(events):
            rec = verify(_record(log, seat), f"span@{seat}")
            assert rec.verdict != "illegal", [v.as_dict() for v in rec.violations]
            assert _tops_as_seen(rec.state, seat) == _tops_as_seen(full.state, seat), (seed, k, m, seat)


def test_a_tile_taken_back_is_named_on_top_in_every_seats_record() -> None:
    """The tile explored first in a span taken back is on top, named, in every seat's record."""
    done = 0
    for seed in SEEDS:
        events, _final, before = match(seed)
        for k, m in _spans(events, random.Random(seed), E.TileExplored, 3):
            tile = next(e.tile for e in events[k:k + m] if type(e) is E.TileExplored)
            if tile not in before[k].tile_top + before[k].tile_deck:
                continue  # (from the box: the tile deck was empty)
            log = events[:k + m] + [JudgeRuling(event=k + 1, decision="taken-back")]
            for seat in match_players(events):
                rec = verify(_record(log, seat), f"tile@{seat}").state
                assert GAME.observe(rec, seat).tile_top[:1] == (tile,), (seed, k, m, seat)
            done += 1
    assert done >= 3


def test_a_record_that_writes_a_looked_at_draw_as_unknown_keeps_what_it_knew() -> None:
    """Another player draws a card the seat saw on top (Soothsayer); the seat's record writes the
    draw as ``"?"``: the record still knows the drawer holds that card (not one of the unknowns)."""
    found = 0
    for seed in range(3, 60):
        events, _f = playout(GAME, seed, max_events=300)
        before = positions_before(parse_log(to_jsonl(events), "m"))
        for d, e in enumerate(events):
            s = before[d]
            if type(e) is not E.CardDrawn or not s.card_top or not s.card_seen[0]:
                continue
            seer = next((p for p in s.card_seen[0] if p != e.player), None)
            if seer is None:
                continue
            rec = _record(events[:d + 1], seer)
            assert rec[d] == e  # redact names it: the seat saw it
            rec[d] = replace(e, card=HIDDEN)
            res = verify(rec, "unknown-draw")
            assert res.verdict == "legal", [v.as_dict() for v in res.violations]
            assert e.card in res.state.player(e.player).hand
            assert res.state.unseen.cards.count(e.card) == verify(_record(events[:d + 1], seer)).state.unseen.cards.count(e.card)
            found += 1
        if found >= 3:
            break
    assert found >= 3


def test_cards_taken_back_go_back_in_the_order_drawn() -> None:
    """A player's two draws, the second a card whose name sorts first, taken back and drawn again
    in the same order: legal in the full log and in every seat's record."""
    found = 0
    for seed in range(3, 30):
        events, _final, before = match(seed)
        for k in range(1, len(events) - 1):
            a, b = events[k], events[k + 1]
            if not (type(a) is E.CardDrawn and type(b) is E.CardDrawn and a.player == b.player
                    and b.card < a.card and not before[k].card_top):
                continue
            log = events[:k + 2] + [JudgeRuling(event=k + 1, decision="taken-back")] + events[k:]
            res = verify(log, "again")
            assert res.verdict == "legal", [v.as_dict() for v in res.violations]
            for seat in match_players(events):
                rec = verify(_record(log, seat), f"again@{seat}")
                assert rec.verdict == "legal", (seat, [v.as_dict() for v in rec.violations])
            found += 1
            break
        if found >= 3:
            break
    assert found >= 3
