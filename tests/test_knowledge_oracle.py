"""The knowledge oracle (issue 32): an independent, deliberately simple model of what each seat
knows, folded from the full log by its own small rules (written from the rule documents: CL-39,
CL-41, CL-44 and FIDE 7.5; no import of the engine's knowledge code), compared with the engine's
knowledge over generated matches with looks (Soothsayer), draws, hidden hands and judges'
take-backs.

Colossi keeps its knowledge in the order of its face-down decks: which item lies at each place of
the Colossus deck's and the tile deck's known top, and who saw it.  The model holds each deck's
top as a list of ``(item, seers)``, top first:

- a look (``TopRevealed``) puts the next item on the top, seen by the looker; a look at the items
  already on top (``CardsLooked``) adds the looker to their seers;
- a draw (``CardDrawn``), a tile explored or replaced from the deck, takes the first item;
- a take-back returns the model to before the first event taken back, then puts on top the items
  those events took from the deck, in the order taken (each seen by whoever saw it on top and by
  its taker; a tile by everyone), above what those events left on top.

For every seat, the model's top (an item the seat did not see as ``"?"``) must equal the engine's
view of the full log's position (``observe``) and the view of that seat's own record
(``redact --as``, verified), and the seat's own hand in its record must be its hand in the full
log.  The property on top: a draw of a known item, changed in the seat's record to another card
the deck holds, is flagged illegal at that very event.

The suite runs a few fixed matches; ``ADJUDICATOR_PROPERTY_SCALE=N`` runs N times as many (the
issue's closing run: ``ADJUDICATOR_PROPERTY_SCALE=50``, 200 matches); the counts of what the
matches held are printed (``-s``).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from adjudicator.core import registry
from adjudicator.core.events import HIDDEN, CardsLooked, JudgeRuling
from adjudicator.core.log import parse_log
from adjudicator.core.playout import playout, to_jsonl
from adjudicator.core.seats import redact_log
from adjudicator.core.verify import run
from tests.test_colossi_ruling_props import continuation

SCALE = int(os.environ.get("ADJUDICATOR_PROPERTY_SCALE", "1") or "1")
COLOSSI = registry.get("colossi")
#: matches per run at scale 1 (fixed seeds: every CI run checks the same ones)
MATCHES = 4


def _verify(events: list[Any], name: str) -> Any:
    return run(parse_log(to_jsonl(events), name))


def _record(events: list[Any], seat: str) -> list[Any]:
    return list(redact_log(parse_log(to_jsonl(events), "full"), seat))


# == the model ==================================================================================================

class Tops:
    """Each face-down deck's known top, as the model folds it: ``{"cards": [...], "tiles": [...]}``
    of ``[item, seers]``; ``tiles_left``: how many tiles the tile deck holds (a tile turned up
    while it is empty comes from the box and never goes back on top)."""

    def __init__(self, players: list[str], tiles_left: int) -> None:
        self.players = players
        self.top: dict[str, list[list[Any]]] = {"cards": [], "tiles": []}
        self.tiles_left = tiles_left
        #: what the events took from each deck: (deck, item, seers at the time, taker's seers)
        self.taken: list[tuple[str, str, set[str], set[str]]] = []

    def copy(self) -> "Tops":
        t = Tops(self.players, self.tiles_left)
        t.top = {k: [[x, set(w)] for x, w in v] for k, v in self.top.items()}
        return t

    def take(self, deck: str, item: str, taker: set[str]) -> None:
        top = self.top[deck]
        seers: set[str] = set()
        if top:
            x, seers = top.pop(0)
            assert x == item, (deck, x, item)
        self.taken.append((deck, item, set(seers), taker))

    def fold(self, e: Any) -> None:
        t = type(e).__name__
        if t == "TopRevealed":
            self.top[e.deck].append([e.item, {e.player}])
        elif t == "CardsLooked" and e.zone in ("card-deck-top", "tile-deck-top"):
            deck = "cards" if e.zone == "card-deck-top" else "tiles"
            for item in self.top[deck][:len(e.cards)]:
                item[1].add(e.player)
        elif t == "CardDrawn":
            self.take("cards", e.card, {e.player})
        elif t == "TileSetAside":
            self.tiles_left += 1
        elif t in ("TileExplored", "TileReplaced"):
            if self.tiles_left > 0:  # (from the deck; else from the box)
                self.tiles_left -= 1
                self.take("tiles", e.tile, set(self.players))

    def taken_back(self, before: "Tops", span: list[Any]) -> "Tops":
        """FIDE 7.5 with what was seen kept: ``before`` (the model before the span) with the span's
        takes back on top in the order taken, above what the span left on top."""
        during = before.copy()
        for e in span:
            during.fold(e)
        out = before.copy()
        for deck in ("cards", "tiles"):
            back = [[x, seen | taker] for d, x, seen, taker in during.taken if d == deck]
            out.top[deck] = back + during.top[deck]
        return out

    def seen_by(self, seat: str, deck: str) -> tuple[str, ...]:
        return tuple(x if seat in w else HIDDEN for x, w in self.top[deck])


def model(events: list[Any], tiles_left: int) -> Tops:
    """The model after ``events`` (a full log with ``taken-back`` rulings)."""
    return models(events, tiles_left)[-1]


def models(events: list[Any], tiles_left: int) -> list[Tops]:
    """The model before each event of ``events`` (index i: before ``events[i]``; the last: after all)."""
    tops = Tops(list(events[0].players), tiles_left)
    history: list[Tops] = [tops.copy()]
    for i, e in enumerate(events[1:], 1):
        history.append(tops.copy())
        if type(e) is JudgeRuling and e.decision == "taken-back":
            k = e.event - 1  # the list index of the first event taken back
            span = [x for x in events[k:i] if type(x) is not JudgeRuling]
            tops = tops.taken_back(history[k], span)
            tops.taken = []
            continue
        tops.fold(e)
    history.append(tops)
    return history


# == the generated matches ==========================================================================================

def _colossi_matches(n: int, first: int) -> list[tuple[int, list[Any]]]:
    return [(seed, playout(COLOSSI, seed, max_events=260)[0]) for seed in range(first, first + n)]


def _spans(events: list[Any], rng: random.Random) -> list[tuple[int, int]]:
    """Spans of events to take back, each starting at a decision or random outcome: one holding
    a look, one a draw, one a tile turned up, where the match has them."""
    starts = [k for k in range(2, len(events) - 6) if events[k].kind in "DR"]
    rng.shuffle(starts)
    out = []
    for want in ("TopRevealed", "CardDrawn", "TileExplored"):
        for k in starts[:80]:
            m = rng.randrange(1, 7)
            if any(type(e).__name__ == want for e in events[k:k + m]):
                out.append((k, m))
                break
    return out


STATS: Counter[str] = Counter()


def _check_seats(log: list[Any], tops: Tops, name: str) -> Any:
    full = _verify(log, name)
    assert full.verdict == "legal", (name, [v.as_dict() for v in full.violations])
    for seat in log[0].players:
        rec = _verify(_record(log, seat), f"{name}@{seat}")
        assert rec.verdict != "illegal", (name, seat, [v.as_dict() for v in rec.violations])
        mine, engine = COLOSSI.observe(rec.state, seat), COLOSSI.observe(full.state, seat)
        for deck, field in (("cards", "card_top"), ("tiles", "tile_top")):
            want = tops.seen_by(seat, deck)
            assert getattr(engine, field) == want, (name, seat, deck, "full log", getattr(engine, field), want)
            assert getattr(mine, field) == want, (name, seat, deck, "record", getattr(mine, field), want)
        assert rec.state.player(seat).hand == full.state.player(seat).hand, (name, seat)
        STATS["seat checks"] += 1
    return full


def _mutated_draw(log: list[Any], tops_at: list[Tops], rng: random.Random, name: str) -> bool:
    """The first draw (after the last ruling) of a card a seat knows on top (another seat than the
    drawer where one does), changed in that seat's record to another card the deck holds:
    illegal at that very event."""
    last = max((i for i, e in enumerate(log) if type(e) is JudgeRuling), default=0)
    for i in range(last + 1, len(log)):
        e = log[i]
        if type(e).__name__ != "CardDrawn" or not tops_at[i].top["cards"]:
            continue
        x, seers = tops_at[i].top["cards"][0]
        seer = next((p for p in sorted(seers) if p != e.player), None) or next(iter(sorted(seers)), None)
        if seer is None:
            continue
        record = _record(log[:i + 1], seer)
        assert record[i].card == x
        state = _verify(log[:i], "before").state
        others = sorted({c for c in state.card_deck if c != x})
        if not others:
            continue
        record[i] = msgspec.structs.replace(record[i], card=rng.choice(others))
        res = _verify(record, f"{name}-mutated@{seer}")
        assert res.verdict == "illegal" and res.violations[0].seq == i + 1, \
            (name, seer, i + 1, [v.as_dict() for v in res.violations])
        STATS["mutations flagged"] += 1
        STATS["of them, of another seat's knowledge"] += seer != e.player
        return True
    return False


def _tiles_left(setup: Any) -> int:
    return len(COLOSSI.initial_state(setup).tile_deck)


@pytest.mark.parametrize("chunk", range(SCALE))
def test_colossi_seat_knowledge_matches_the_oracle(chunk: int) -> None:
    for seed, events in _colossi_matches(MATCHES, 1 + chunk * MATCHES):
        rng = random.Random(seed)
        left = _tiles_left(events[0])
        STATS["matches"] += 1
        STATS["looks"] += sum(type(e).__name__ == "TopRevealed" or type(e) is CardsLooked for e in events)
        logs = [("plain", events, 0)]
        for k, m in _spans(events, rng):
            ruling = JudgeRuling(event=k + 1, decision="taken-back", judge="the floor judge")
            prefix = events[:k + m] + [ruling]
            again = prefix + events[k:]
            if _verify(again, "again").verdict != "legal":  # (a look taken back is not owed again)
                back = _verify(prefix, "back").state
                again = prefix + continuation(back, rng)[0]
            logs.append((f"taken-back-{k}-{m}", again, k + m))
            STATS["take-backs"] += 1
            for t in ("CardDrawn", "TileExplored", "TopRevealed"):
                STATS[f"{t} taken back"] += sum(type(e).__name__ == t for e in events[k:k + m])
        for what, log, r in logs:
            history = models(log, left)
            _check_seats(log, history[-1], f"colossi-{seed}-{what}")
            if r:  # at the ruling too
                _check_seats(log[:r + 1], history[r + 1], f"colossi-{seed}-{what}-at-ruling")
            _mutated_draw(log, history, rng, f"colossi-{seed}-{what}")
    print(f"\ncolossi oracle (chunk {chunk}): {dict(STATS)}")
