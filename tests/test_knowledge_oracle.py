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

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import HIDDEN, CardsLooked, JudgeRuling
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import positions_before, redact_log
from adjudicator.core.kernel.verify import run, settle
from tests.test_colossi_ruling_props import continuation

SCALE = int(os.environ.get("ADJUDICATOR_PROPERTY_SCALE", "1") or "1")
#: the first LOGOS seed (CI: 1; ``ADJUDICATOR_ORACLE_SEED=N`` runs other matches than CI's)
FIRST_SEED = int(os.environ.get("ADJUDICATOR_ORACLE_SEED", "1") or "1")
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


# == LOGOS ======================================================================================================
#
# LOGOS keeps what a seat learnt from events a judge took back (LG-41): the opponent's cards in
# the card slots and the Backup Slot that those events turned face up, and one's own cards drawn
# in them and put back (on top of one's deck); and what a look a pool gives a card showed its
# owner (LG-43).  The model, per seat: ``known`` (a multiset of the
# opponent's hidden cards the seat saw), ``top`` (its own cards known on top, in no order) and
# ``order`` (its own cards known on top in order: what its look at its deck's top saw, or the
# order it put them back in, LG-44).  A card leaves ``known`` when it leaves the slots and the
# Backup Slot (picked, called, a defenseless player's cards, an effect's), ``top`` when it is
# drawn; a draw takes the first card of ``order``; Shuffle Hand into the deck forgets ``order``.
# A take-back adds the opponent's cards the span turned face up that the reinstated slots and
# Backup Slot hold, and one's own draws and looks in the span (to ``top``, past what ``order``
# holds).

LOGOS = registry.get("logos")


def _logos_shown(e: Any, before: Any) -> list[tuple[str, str]]:
    """The cards ``e`` takes out of a player's slots and Backup Slot face up: (player, card);
    ``before``: the position before ``e`` (a derived event: before the decision it follows from)."""
    t = type(e).__name__
    if t in ("PickRevealed", "CardPicked") and e.card not in (None, HIDDEN):
        return [(e.player, e.card)]
    if t == "BackupCalled":
        card = e.card or before.player(e.player).backup
        return [(e.player, card)] if card not in (None, HIDDEN) else []
    if t == "Defenseless":
        return [(e.player, c) for c in e.cards]
    if t == "EffectResolved" and (e.copied or e.effect) == "destroy-backup" and e.result == "applied":
        card = before.player(e.target).backup  # (into the discard pile, face up)
        return [(e.target, card)] if card not in (None, HIDDEN) else []
    if t == "EffectResolved" and e.cards and (e.copied or e.effect) in ("shuffle-hand", "remove-card-slot") \
            and before.options.shuffle_hand_to == "discard":
        return [(e.target, c) for c in e.cards if c != HIDDEN]
    return []


def _minus(a: list[str], b: list[str]) -> list[str]:
    left = list(a)
    for c in b:
        if c in left:
            left.remove(c)
    return left


def _within(a: list[str], b: list[str]) -> list[str]:
    pool, out = list(b), []
    for c in a:
        if c in pool:
            pool.remove(c)
            out.append(c)
    return out


def _hidden_cards(state: Any, pid: str) -> list[str]:
    p = state.player(pid)
    return [c for c in p.slots if c is not None] + ([p.backup] if p.backup is not None else [])


class Knows:
    """The LOGOS model: per seat, the opponent's hidden cards it saw and its own cards on top."""

    def __init__(self, players: list[str]) -> None:
        self.known: dict[str, list[str]] = {p: [] for p in players}
        self.top: dict[str, list[str]] = {p: [] for p in players}
        self.order: dict[str, list[str]] = {p: [] for p in players}
        self.other = {players[0]: players[1], players[1]: players[0]}

    def copy(self) -> "Knows":
        k = Knows(list(self.known))
        k.known = {p: list(v) for p, v in self.known.items()}
        k.top = {p: list(v) for p, v in self.top.items()}
        k.order = {p: list(v) for p, v in self.order.items()}
        return k

    def on_top(self, seat: str) -> list[str]:
        """What ``seat`` knows on top of its deck: ``order`` first, then the rest of ``top``."""
        return self.order[seat] + _minus(self.top[seat], self.order[seat])

    def fold(self, e: Any, before: Any) -> None:
        if type(e).__name__ == "EffectResolved" and (e.copied or e.effect) in ("look-slots", "look-backup") \
                and e.result == "applied" and e.target != e.player and e.cards:  # a look (LG-43): the owner saw them
            fresh = _minus(_hidden_cards(before, e.target), self.known[e.player])
            self.known[e.player] += _within(list(e.cards), fresh)
        for owner, card in _logos_shown(e, before):
            seat = self.other[owner]
            if card in self.known[seat]:
                self.known[seat].remove(card)
        t = type(e).__name__
        if t in ("CardsLooked", "CardsReordered") and e.owner == e.player:  # LG-44, top first
            self.order[e.player] = list(e.cards) + self.order[e.player][len(e.cards):]
        if t == "CardDrawn" and self.order[e.player]:
            assert self.order[e.player].pop(0) == e.card, "a draw takes the first card known on top"
        if t == "CardDrawn" and e.card in self.top[e.player]:
            self.top[e.player].remove(e.card)
        if t == "EffectResolved" and (e.copied or e.effect) == "shuffle-hand" and e.result == "applied" \
                and before.options.shuffle_hand_to == "deck":
            self.order[e.target] = []

    def still(self, after: Any) -> None:
        """What each seat knows, of the cards the opponent's slots and Backup Slot still hold."""
        for seat, owner in self.other.items():
            self.known[seat] = _within(self.known[seat], _hidden_cards(after, owner))

    def taken_back(self, reinstated: Any, span: list[tuple[Any, Any]]) -> None:
        """A take-back to ``reinstated`` (the full position before the span; ``span``: its events
        with the full position before each)."""
        at, table = [], None  # each event with the position before the decision it follows from
        for e, b in span:
            table = b if e.kind != "X" or table is None else table
            at.append((e, table))
        for seat, owner in self.other.items():
            shown = [c for e, b in at for o, c in _logos_shown(e, b) if o == owner]
            fresh = _minus(_hidden_cards(reinstated, owner), self.known[seat])
            self.known[seat] += _within(shown, fresh)
            drawn = [e.card for e, _b in span if type(e).__name__ == "CardDrawn" and e.player == seat]
            for e, _b in span:  # (what its own looks saw: drawn or not, on top)
                if type(e).__name__ == "CardsLooked" and e.player == seat == e.owner:
                    drawn += _minus(list(e.cards), drawn)
            deck = _minus(_minus(list(reinstated.player(seat).deck), self.top[seat]), self.order[seat])
            self.top[seat] += _within(drawn, deck)


def logos_model(log: list[Any], positions: list[Any]) -> Knows:
    """The LOGOS model after ``log`` (``positions[i]``: the full position before ``log[i]``, as the
    table had it, a ruling's events folded as played)."""
    k = Knows(list(log[0].players))
    history = [k.copy()]
    for i, e in enumerate(log[1:], 1):
        history.append(k.copy())
        if type(e) is JudgeRuling and e.decision == "taken-back":
            first = e.event - 1
            k = history[first].copy()
            k.taken_back(positions[first], [(log[j], positions[j]) for j in range(first, i)])
        else:
            k.fold(e, positions[i])
        if i + 1 < len(positions):  # a known card that left the card slots and Backup Slot is known there no more
            k.still(positions[i + 1])
    return k


def _with_derived(events: list[Any]) -> list[Any]:
    """A LOGOS match with its derived events stated (the model reads them as the table saw them)."""
    state, derived = settle(LOGOS, LOGOS.initial_state(events[0]))
    out = [events[0], *derived]
    for e in events[1:]:
        state, derived = settle(LOGOS, LOGOS.apply(state, e))
        out += [e, *derived]
    return out


def _seat_view(state: Any, seat: str, owner: str) -> tuple[list[str], list[str]]:
    """What ``seat`` sees named of ``owner``'s slots and Backup Slot (sorted), and of its own
    deck's top (top first)."""
    v = LOGOS.observe(state, seat)
    o, me = v.player(owner), v.player(seat)
    named = sorted(c for c in list(o.slots) + [o.backup] if c not in (None, HIDDEN))
    return named, [c for c in me.deck if c != HIDDEN]


def _same_top(view: list[str], k: Knows, seat: str) -> bool:
    """The view names what the model knows on top: ``order`` first, in order, then the rest."""
    want = k.on_top(seat)
    return view[:len(k.order[seat])] == k.order[seat] and sorted(view) == sorted(want)


LSTATS: Counter[str] = Counter()


def _logos_check(log: list[Any], name: str) -> None:
    full = _verify(log, name)
    assert full.verdict == "legal", (name, [v.as_dict() for v in full.violations])
    positions = positions_before(parse_log(to_jsonl(log), name))
    k = logos_model(log, positions)
    for seat, owner in k.other.items():
        rec = _verify(_record(log, seat), f"{name}@{seat}")
        assert rec.verdict != "illegal", (name, seat, [v.as_dict() for v in rec.violations])
        known, top = _seat_view(full.state, seat, owner)
        assert known == sorted(k.known[seat]) and _same_top(top, k, seat), (name, seat, "full log", top, k.on_top(seat))
        r_known, r_top = _seat_view(rec.state, seat, owner)
        assert _same_top(r_top, k, seat), (name, seat, "record's own top", r_top, k.on_top(seat))
        # (LG-41: a record does not name an opponent's unknown card from events taken back; it
        # never names one the seat does not know)
        assert not _minus(r_known, known), (name, seat, "record names more than the seat saw")
        LSTATS["seat checks"] += 1
        LSTATS["opponent's cards known"] += len(known)
        LSTATS["own cards known on top"] += len(top)


def _logos_spans(events: list[Any], rng: random.Random,
                 wants: tuple[str, ...] = ("PickRevealed", "CardDrawn", "BackupCalled", "CardPicked")) -> list[tuple[int, int]]:
    starts = [k for k in range(2, len(events) - 6) if events[k].kind in "DR"]
    rng.shuffle(starts)
    out = []
    for want in wants:
        for k in starts[:80]:
            m = rng.randrange(1, 9)
            if k + m >= len(events) or events[k + m].kind == "X":  # (no consequence still owed at the ruling)
                continue
            if any(type(e).__name__ == want for e in events[k:k + m]):
                out.append((k, m))
                break
    return out


def _logos_run(chunk: int, setups: Any, wants: tuple[str, ...] | None = None) -> None:
    from tests.test_logos_ruling_props import _continue

    first = FIRST_SEED + chunk * MATCHES
    for seed in range(first, first + MATCHES):
        events = _with_derived(playout(LOGOS, seed, max_events=160, setup=setups(seed))[0])
        rng = random.Random(seed)
        LSTATS["matches"] += 1
        LSTATS["looks"] += sum(type(e).__name__ == "EffectResolved" and e.effect.startswith("look-")
                               and e.result == "applied" for e in events)
        LSTATS["deck looks"] += sum(type(e) is CardsLooked for e in events)
        LSTATS["reorders"] += sum(type(e).__name__ == "CardsReordered" for e in events)
        _logos_check(events, f"logos-{seed}")
        for k, m in _logos_spans(events, rng, *([wants] if wants else [])):
            ruling = JudgeRuling(event=k + 1, decision="taken-back", judge="the floor judge")
            prefix = events[:k + m] + [ruling]
            again = prefix + events[k:]
            if _verify(again, "again").verdict != "legal":
                back = _verify(prefix, "back").state
                more, _ = _continue(back, rng, 40)
                again = prefix + more
            LSTATS["take-backs"] += 1
            for t in ("PickRevealed", "CardPicked", "CardDrawn", "BackupCalled", "Defenseless", "CardsLooked"):
                LSTATS[f"{t} taken back"] += sum(type(e).__name__ == t for e in events[k:k + m])
            _logos_check(prefix, f"logos-{seed}-{k}-{m}-at-ruling")
            _logos_check(again, f"logos-{seed}-{k}-{m}")


@pytest.mark.parametrize("chunk", range(SCALE))
def test_logos_seat_knowledge_matches_the_oracle(chunk: int) -> None:
    from tests.test_logos_ruling_props import _setup

    _logos_run(chunk, _setup)
    print(f"\nlogos oracle (chunk {chunk}): {dict(LSTATS)}")


@pytest.mark.parametrize("chunk", range(SCALE))
def test_logos_looks_knowledge_matches_the_oracle(chunk: int, tmp_path: Any) -> None:
    """The same with a pool whose cards look (LG-43): each deck holds two of each look card."""
    from adjudicator.core.kernel import sources
    from tests.test_logos_looks import LOOKS, SAMPLE

    (tmp_path / "looks.toml").write_text(SAMPLE.read_text().replace('pool = "sample"', 'pool = "looks"', 1) + LOOKS)

    def setups(seed: int) -> Any:
        base = LOGOS.sample_setup(seed)
        decks = {p: {**d, "glass-eye": 2, "vault-peeker": 2} for p, d in base.decks.items()}
        options = {**base.options, "picks": "commit-reveal"} if seed % 2 else base.options
        return msgspec.structs.replace(base, pool="looks", decks=decks, options=options)

    with sources.using(sources.Sources([tmp_path])):
        _logos_run(chunk, setups)
    print(f"\nlogos oracle with looks (chunk {chunk}): {dict(LSTATS)}")


@pytest.mark.parametrize("chunk", range(SCALE))
def test_logos_deck_looks_knowledge_matches_the_oracle(chunk: int, tmp_path: Any) -> None:
    """The same with a pool whose cards look at their owner's deck top, one with a reorder
    (LG-44): each deck holds three Deep Scry and two Still Glance; take-backs of spans with a
    look, a reorder or a draw."""
    from adjudicator.core.kernel import sources
    from tests.test_logos_decklook import deck_setup, write_pool

    write_pool(tmp_path)
    with sources.using(sources.Sources([tmp_path])):
        _logos_run(chunk, deck_setup, ("CardsLooked", "CardsReordered", "CardDrawn", "PickRevealed"))
    print(f"\nlogos oracle with deck looks (chunk {chunk}): {dict(LSTATS)}")


# == LOGOS: a card a seat saw, mutated in its record, is flagged (LG-45) =============================
#
# An independent model per looker, of the opponent's hidden cards, zone by zone, from the full log:
# ``slots`` (the multiset a look at the card slots showed, and ``extra``: cards drawn into them
# since, unknown to the looker) and ``backup`` (the Backup card a look showed).  A card played,
# discarded or called leaves them; a card leaving unseen (a face-down Backup assignment, Shuffle
# Hand into the deck) or the slots emptied forgets the slots; a Backup card called or destroyed
# forgets the backup.  Where an event of the opponent then names a card that the model says is
# determined (the called Backup card; a pick, a discarded card or a defenseless player's cards while
# every unknown slot card is known), that card is changed in the looker's record to another one:
# the record must be illegal at that very line.

_NAMING = ("CardPicked", "BackupCalled", "Defenseless", "EffectResolved")


class Sees:
    """What ``seat`` knows, zone by zone, of ``opp``'s hidden cards (the model above)."""

    def __init__(self, seat: str, opp: str) -> None:
        self.seat, self.opp = seat, opp
        self.slots: list[str] | None = None
        self.extra = 0
        self.backup: str | None = None

    def determined(self, e: Any) -> bool:
        """Does the model determine the card(s) ``e`` names of the opponent's?"""
        t = type(e).__name__
        if t == "BackupCalled":
            return self.backup is not None
        if t == "EffectResolved" and not (e.cards and (e.copied or e.effect) in ("shuffle-hand", "remove-card-slot")):
            return False
        return self.slots is not None and self.extra == 0 and t in _NAMING

    def fold(self, e: Any, options: Any) -> None:
        t = type(e).__name__
        if t == "EffectResolved" and e.player == self.seat and e.target == self.opp and e.result == "applied" and e.cards:
            if (e.copied or e.effect) == "look-slots":
                self.slots, self.extra = list(e.cards), 0
            elif (e.copied or e.effect) == "look-backup":
                self.backup = e.cards[0]
            return
        if getattr(e, "player", None) != self.opp and getattr(e, "target", None) != self.opp:
            return
        if t == "CardDrawn" and e.player == self.opp:
            self.extra += 1
        elif t in ("CardPicked", "PickRevealed") and e.player == self.opp and self.slots is not None:
            if e.card in self.slots:
                self.slots.remove(e.card)
            else:
                self.extra -= 1
        elif t in ("BackupAssigned", "Defenseless") and e.player == self.opp:
            self.slots = None
            self.backup = None if t == "BackupAssigned" else self.backup
        elif t == "BackupCalled" and e.player == self.opp:
            self.backup = None
        elif t == "EffectResolved" and e.target == self.opp and e.result == "applied":
            what = e.copied or e.effect
            if what == "destroy-backup":
                self.backup = None
            elif what in ("shuffle-hand", "remove-card-slot") and e.cards and self.slots is not None:
                if what == "shuffle-hand" and options.get("shuffle_hand_to") == "deck":
                    self.slots = None
                    return
                for c in e.cards:
                    if c in self.slots:
                        self.slots.remove(c)
                    else:
                        self.extra -= 1


def _mutation(e: Any, sees: Sees, cards: list[str], plain: set[str]) -> Any:
    """``e`` with a card the model determines changed to one it cannot be (a card without a combo
    requirement where a pick needs a playable one), or None."""
    t = type(e).__name__
    if t == "BackupCalled":
        return msgspec.structs.replace(e, card=next(c for c in cards if c != sees.backup))
    others = [c for c in cards if c not in (sees.slots or []) and (t != "CardPicked" or c in plain)]
    if not others:
        return None
    if t == "CardPicked":
        return msgspec.structs.replace(e, card=others[0])
    return msgspec.structs.replace(e, cards=[others[0], *list(e.cards)[1:]])


MSTATS: Counter[str] = Counter()


def _logos_mutations(events: list[Any], name: str) -> list[str]:
    """The first determined card of each kind of event per seat that names one, mutated in the
    looker's record: illegal at that line (the rules of the rulings, returned)."""
    flagged: list[str] = []
    pool = LOGOS.rules.pool(_verify(events[:1], name).state)
    cards = sorted(pool.cards)
    plain = {c for c in cards if not pool[c].has_combo}
    options = events[0].options
    for seat, opp in zip(events[0].players, reversed(events[0].players)):
        sees, done = Sees(seat, opp), set()
        record = None
        for i, e in enumerate(events):
            t = type(e).__name__
            if t in _NAMING and t not in done and getattr(e, "player", None) != seat and sees.determined(e) \
                    and (t != "EffectResolved" or e.target == opp) and (t != "CardPicked" or e.player == opp):
                bad = _mutation(e, sees, cards, plain)
                if bad is not None:
                    record = record or _record(events, seat)
                    res = _verify(record[:i] + [bad], f"{name}-mutated@{seat}")
                    assert res.verdict == "illegal" and res.violations[0].seq == i + 1, \
                        (name, seat, i + 1, t, bad, [v.as_dict() for v in res.violations][:2])
                    MSTATS["mutations flagged"] += 1
                    MSTATS[f"of a {t}"] += 1
                    flagged.append(res.violations[0].rule)
                    done.add(t)
            sees.fold(e, options)
    return flagged


def logos_looks_match(seed: int, max_events: int = 200) -> list[Any]:
    """A generated match of the pool whose cards look (``looks``, in the sources in effect): two of
    each look card in each deck, hidden picks on odd seeds; its derived events stated."""
    base = LOGOS.sample_setup(seed)
    decks = {p: {**d, "glass-eye": 2, "vault-peeker": 2} for p, d in base.decks.items()}
    options = {**base.options, "picks": "commit-reveal"} if seed % 2 else base.options
    setup = msgspec.structs.replace(base, pool="looks", decks=decks, options=options)
    return _with_derived(playout(LOGOS, seed, max_events=max_events, setup=setup)[0])


@pytest.mark.parametrize("chunk", range(SCALE))
def test_logos_a_card_a_seat_saw_mutated_in_its_record_is_flagged(chunk: int, tmp_path: Any) -> None:
    """LG-45 over generated matches of the pool whose cards look (two of each look card in each
    deck, open picks on even seeds): the looker's record flags a card it saw changed."""
    from adjudicator.core.kernel import sources
    from tests.test_logos_looks import LOOKS, SAMPLE

    (tmp_path / "looks.toml").write_text(SAMPLE.read_text().replace('pool = "sample"', 'pool = "looks"', 1) + LOOKS)
    first = FIRST_SEED + chunk * MATCHES * 3
    with sources.using(sources.Sources([tmp_path])):
        for seed in range(first, first + MATCHES * 3):
            MSTATS["matches"] += 1
            _logos_mutations(logos_looks_match(seed), f"logos-{seed}")
    print(f"\nlogos mutations (chunk {chunk}): {dict(MSTATS)}")
    assert MSTATS["mutations flagged"] >= 3 * (chunk + 1), dict(MSTATS)
