"""A knowledge oracle for Colossus Order's seat records (issue 32): an independent, deliberately
simple model of what each seat knows, folded from that seat's record alone (and, for what every
seat sees happen, the full log's public positions), compared with what the engine's position of
that record says the seat knows, at every line of generated matches with looks, reorders, swaps,
hidden moves and judges' take-backs (tests/test_co_moves.py's pool: the sample cards and one own
card of each move and look kind).

The oracle imports nothing of the engine's knowledge code (no ``unknowns``, ``deck``, ``observe``):

- the opponent's hand: the cards the seat knows are there (``known``), how many it does not, and,
  once an unnamed card left a hand holding known ones, which cards the unknown ones are among
  (``could``, ``?``: any);
- the opponent's face-down Locus slots the seat saw (set or moved in named, looked at, revealed);
- soundness: every card the record's position names in a zone is there in the full position, and
  every zone has the same size.

And the property: a play mutated to a card the seat knows the hand cannot hold is flagged in that
seat's record, at that event (the first no completion allows).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
from hypothesis import given, note, settings
from hypothesis import strategies as st

from adjudicator.core.kernel.events import HIDDEN, CardsLooked, CardsMoved, CardsReordered, JudgeRuling
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.sources import Sources, using
from adjudicator.core.kernel.verify import run, settle
from adjudicator.games.colossus_order import events as E

from .co_scenarios import A, B, BLACK, BLACK_CARDS, GAME, deck, encode
from .test_co_moves import NEW, _weight, write_pool

#: what the matches held, over every test of this module in the run (the report's numbers)
TALLY: Counter[str] = Counter()


def oracle_setup() -> E.MatchStarted:
    """Alice plays blue with every own move and look card (and Tidal Scrying's look at 2); bob
    plays black with Spying Raven (a look at alice's hand)."""
    from .test_co_moves import move_setup

    blue = move_setup().decks[A]
    cards = dict(blue.cards)
    other = sorted(c for c in cards if c not in NEW and c != "blue-gem")
    for c in other[-1:]:  # room for 3 Tidal Scrying
        del cards[c]
    cards["tidal-scrying"] = 3
    cards["blue-gem"] += 50 - sum(cards.values())
    black = deck(BLACK, BLACK_CARDS[:8] + ["spying-raven"])
    return E.MatchStarted(game="colossus-order", players=[A, B],
                          decks={A: E.DeckList(colossus=blue.colossus, cards=cards), B: black}, pool="club-moves")


def generate(seed: int, max_events: int = 320) -> list:
    """A generated match (the full log, derived events stated); where it holds a look (at a hand,
    a deck's top or a Locus card, by the seed), a judge's ruling takes the first one back, and the
    table plays it again."""
    rng = random.Random(seed)
    setup = oracle_setup()
    state, derived = settle(GAME, GAME.initial_state(setup))
    events = [setup] + list(derived)
    while GAME.outcome(state) is None and len(events) < max_events:
        options = GAME.legal_events(state)
        if not options:
            break
        e = rng.choices(options, [_weight(state, x) * (300 if type(x) is E.FollowerPlayed and x.card == "spying-raven"
                                                       else 1) for x in options])[0]
        state, derived = settle(GAME, GAME.apply(state, e))
        events += [e] + list(derived)
    zone = ("hand", "deck-top", "locus")[seed % 3]  # which look a judge takes back (the table then plays it again)
    at = next((i for i, e in enumerate(events) if type(e) is CardsLooked and e.zone == zone), None)
    if at is not None:
        events = events[:at + 1] + [JudgeRuling(event=at + 1, decision="taken-back", reason="the look came too early")] + events[at:]
    return events


def tally(events: list) -> None:
    TALLY["matches"] += 1
    for e in events:
        t = type(e)
        if t is CardsLooked:
            TALLY[f"looks ({e.zone})"] += 1
        elif t is CardsReordered:
            TALLY["reorders"] += 1
        elif t is CardsMoved:
            TALLY["swaps (halves)" if e.source == "vault-swap" else "hidden moves"] += 1
        elif t is JudgeRuling:
            TALLY["take-backs"] += 1


# -- the oracle --------------------------------------------------------------------------------

class HandKnowledge:
    """What one seat knows of the opponent's hand: ``known`` cards, ``unknown`` others, and
    ``could`` (None: no limit) the cards the unknown ones are among."""

    def __init__(self) -> None:
        self.known: Counter[str] = Counter()
        self.unknown = 0
        self.could: Counter[str] | None = None

    def copy(self) -> "HandKnowledge":
        h = HandKnowledge()
        h.known, h.unknown, h.could = Counter(self.known), self.unknown, None if self.could is None else Counter(self.could)
        return h

    def enter(self, card: Any) -> None:
        if card is None or card == HIDDEN:
            self.unknown += 1
            if self.could is not None:
                self.could[HIDDEN] += 1
        else:
            self.known[card] += 1

    def leave(self, card: Any) -> str | None:
        """A card leaves (``"?"``: unnamed); what it was, where that is known (every card of the
        hand known and the same), else None."""
        if (card is None or card == HIDDEN) and self.unknown == 0 and len(self.known) == 1:
            card = next(iter(self.known))
        if card is None or card == HIDDEN:
            if self.known:  # which one left is not said: the known ones are now only "among"
                self.could = (self.could if self.could is not None else Counter({HIDDEN: self.unknown})) + self.known
                self.unknown += sum(self.known.values())
                self.known = Counter()
            self.unknown -= 1
        elif self.known[card] > 0:
            self.known[card] -= 1
            self.known = +self.known
        else:
            self.unknown -= 1
            if self.could is not None:
                self.could[card if self.could[card] > 0 else HIDDEN] -= 1
                self.could = +self.could
        if self.unknown == 0 or (self.could is not None and set(self.could) <= {HIDDEN}):
            self.could = None
        return None if card is None or card == HIDDEN else card

    def looked(self, cards: list[Any]) -> None:
        self.known, self.unknown, self.could = Counter(cards), 0, None

    def allows(self, card: str) -> bool:
        return self.known[card] > 0 or (self.unknown > 0 and (self.could is None or self.could[card] > 0 or self.could[HIDDEN] > 0))


def _hand_steps(e: Any, opp: str) -> tuple[list[Any], list[Any]]:
    """The cards (as the record names them) ``e`` takes from and puts into ``opp``'s hand."""
    t = type(e)
    player = getattr(e, "player", None)
    if t is E.CardDrawn and player == opp:
        return [], [e.card]
    if t is E.CardsReturned and player == opp:
        return list(e.cards), []
    if t in (E.CardSet, E.LocusReplaced, E.FollowerPlayed, E.ActionPlayed) and player == opp:
        return [e.card], []
    if t is CardsMoved and e.owner == opp:
        return (list(e.cards) if e.from_zone == "hand" else []), (list(e.cards) if e.to_zone == "hand" else [])
    return [], []


def fold(record: list, seat: str, truth: dict[int, Any]) -> dict[int, tuple[HandKnowledge, dict[int, str]]]:
    """The oracle: line number -> (what ``seat`` knows of the opponent's hand, the opponent's
    face-down Locus cards it saw) after that line of its record."""
    opp = B if seat == A else A
    hand, slots = HandKnowledge(), {}
    out: dict[int, tuple[HandKnowledge, dict[int, str]]] = {}
    saved: dict[int, tuple[HandKnowledge, dict[int, str]]] = {}
    for n, e in enumerate(record, 1):
        saved[n] = (hand.copy(), dict(slots))
        t = type(e)
        if t is JudgeRuling and e.decision == "taken-back":
            hand, slots = saved[e.event][0].copy(), dict(saved[e.event][1])
            annulled = record[e.event - 1:n - 1]
            if len(annulled) == 1 and type(annulled[0]) is CardsLooked and annulled[0].player == seat \
                    and annulled[0].zone == "hand":  # FIDE 7.5: what was seen stays seen
                hand.looked(list(annulled[0].cards))
            out[n] = (hand.copy(), dict(slots))
            continue
        before, after = truth.get(n - 1), truth.get(n)
        if t is CardsLooked and e.player == seat and e.zone == "hand":
            hand.looked(list(e.cards))
        elif t is CardsLooked and e.player == seat and e.zone == "locus":
            slots.update({x: c for x, c in zip(e.slots or [], e.cards) if c not in (None, HIDDEN)})
        took, put = _hand_steps(e, opp)
        if t is CardsMoved and e.owner == opp and e.from_zone == "locus-down" and e.to_zone == "hand":
            put = [slots.get(x, c) if c in (None, HIDDEN) else c for x, c in zip(e.slots or [], e.cards)]
        left = [hand.leave(c) for c in took]
        if left and before is not None and after is not None and (t in (E.CardSet, E.LocusReplaced) or t is CardsMoved and e.to_zone.startswith("locus")):
            old = {sl.id for sl in before.player(opp).locus}  # the slots the cards went into, in order
            slots.update({x: c for x, c in zip([sl.id for sl in after.player(opp).locus if sl.id not in old], left) if c})
        for c in put:
            hand.enter(c)
        if not put and before is not None and after is not None:  # a follower back to hand: it was on the field
            for c in (Counter(after.player(opp).hand) - Counter(before.player(opp).hand)).elements():
                hand.enter(c)  # (a position is settled: the derived events after a line are in it)
        if t in (E.LocusRevealed,) and e.player == opp:
            slots.update({x: c for x, c in zip(e.slots, e.cards) if c not in (None, HIDDEN)})
        if t is E.LocusFlipped and e.player == opp and e.card not in (None, HIDDEN):
            slots[e.slot] = e.card
        if after is not None:  # a face-up card is seen by all (and stays seen face down); the slots that left are gone
            slots.update({sl.id: sl.card for sl in after.player(opp).locus if sl.face_up and sl.card not in (None, HIDDEN)})
            ids = {sl.id for sl in after.player(opp).locus}
            slots = {x: c for x, c in slots.items() if x in ids}
        out[n] = (hand.copy(), dict(slots))
    return out


# -- the comparison ----------------------------------------------------------------------------

def positions(lines: list) -> tuple[Any, dict[int, Any]]:
    res = run(parse_log(encode(lines)), record_steps=True)
    return res, {s.seq: s.state for s in res.steps if s.state is not None}


def _named(cards: Any) -> Counter[str]:
    return Counter(c for c in cards if c not in (None, HIDDEN))


def compare(events: list) -> None:
    full, truth = positions(events)
    assert full.verdict in ("legal", "unfinished"), [v.as_dict() for v in full.violations][:2]
    log = parse_log(encode(events))
    for seat in (A, B):
        opp = B if seat == A else A
        record = list(redact_log(log, seat))
        assert len(record) == len(events)
        res, seen = positions(record)
        assert res.verdict not in ("illegal",), (seat, [v.as_dict() for v in res.violations][:2])
        oracle = fold(record, seat, truth)
        void = {k for r, e in enumerate(record, 1) if type(e) is JudgeRuling and e.decision == "taken-back"
                for k in range(e.event, r)}  # taken back: the table's position, not the log's
        for n, pos in seen.items():
            if n not in truth or n in void or [type(t) for t in pos.todo[:1]] != [type(t) for t in truth[n].todo[:1]]:
                continue  # (CO-39.4/CO-39.5: the record waits for its next line to say what a card it leaves unknown did)
            real = truth[n]
            for p, q in zip(pos.players, real.players):  # soundness: what the record names is there
                assert len(p.hand) == len(q.hand) and p.deck_count == q.deck_count, (seat, n, p.id)
                assert not _named(p.hand) - Counter(q.hand), (seat, n, p.id, p.hand, q.hand)
                assert [sl.id for sl in p.locus] == [sl.id for sl in q.locus], (seat, n, p.id)
                for a, b in zip(p.locus, q.locus):
                    assert a.card in (None, HIDDEN) or a.card == b.card, (seat, n, p.id, a, b)
            mine, real_mine = pos.player(seat), real.player(seat)
            assert Counter(mine.hand) == Counter(real_mine.hand), (seat, n)
            hand, slots = oracle[n]
            theirs = pos.player(opp)
            assert _named(theirs.hand) == hand.known, (seat, n, record[n - 1], theirs.hand, hand.known)
            assert Counter(theirs.hand_could) == (hand.could or Counter()), (seat, n, record[n - 1], theirs.hand_could, hand.could)
            for sl in theirs.locus:
                if sl.id in slots and not sl.face_up:
                    assert sl.card == slots[sl.id], (seat, n, sl, slots[sl.id])


def mutated_play_is_flagged(events: list, rng: random.Random) -> bool:
    """Mutate the first play from the opponent's hand at which ``seat`` knows the hand cannot hold
    some follower or action of the same kind: that seat's record is flagged at that line."""
    from adjudicator.games.colossus_order.cards import load_pool

    pool = load_pool("club-moves")
    _, truth = positions(events)
    log = parse_log(encode(events))
    for seat in (A, B):
        opp = B if seat == A else A
        record = list(redact_log(log, seat))
        oracle = fold(record, seat, truth)
        for n, e in enumerate(record, 1):
            if type(e) not in (E.FollowerPlayed, E.ActionPlayed) or e.player != opp or n - 1 not in oracle:
                continue
            hand, _ = oracle[n - 1]
            kind = "is_follower" if type(e) is E.FollowerPlayed else "is_action"
            wrong = [c for c in sorted(pool.cards) if getattr(pool[c], kind) and not hand.allows(c)]
            if not wrong:
                continue
            bad = msgspec.structs.replace(events[n - 1], card=rng.choice(wrong))
            mutated = events[:n - 1] + [bad]
            rec = list(redact_log(parse_log(encode(mutated)), seat))
            res = run(parse_log(encode(rec)))
            assert res.violations and res.violations[0].seq == n, (seat, n, bad, [v.as_dict() for v in res.violations][:2])
            TALLY["mutations flagged"] += 1
            return True
    return False


def own_top(record: list, seat: str) -> dict[int, list[str]]:
    """The oracle of ``seat``'s own deck top: line number -> the cards it knows are on top, in
    order, before that line (its own look put back in the order it chose; each card taken from the
    top takes the first; anything else that changes the top forgets it)."""
    top: list[str] = []
    out: dict[int, list[str]] = {}
    for n, e in enumerate(record, 1):
        out[n] = list(top)
        t = type(e)
        if t is CardsReordered and e.player == seat and e.owner == seat:
            top = list(e.cards)
        elif t in (E.CardDrawn, E.CardMilled, E.TopCardRevealed) and e.player == seat and top:
            top = top[1:] if t is not E.TopCardRevealed else top
        elif t is CardsMoved and e.owner == seat and e.from_zone in ("deck", "deck-top"):
            top = top[len(e.cards):]
        elif t in (E.DeckShuffled, E.CardsRevealed) and e.player == seat or t is JudgeRuling or \
                t in (CardsLooked, CardsReordered) and e.owner == seat or t is CardsMoved and e.to_zone == "deck-top":
            top = []  # (a deck hit's reveal, a look by the opponent, a take-back: forgotten, never wrong)
    return out


def mutated_draw_is_flagged(events: list, rng: random.Random) -> bool:
    """Mutate the first draw of a seat's own card it knows is on top (its own look) to another
    card: that seat's record is flagged at that line (CO-2.6)."""
    _, truth = positions(events)
    log = parse_log(encode(events))
    for seat in (A, B):
        record = list(redact_log(log, seat))
        tops = own_top(record, seat)
        for n, e in enumerate(record, 1):
            if type(e) is not E.CardDrawn or e.player != seat or not tops[n]:
                continue
            assert e.card == tops[n][0], (seat, n, e, tops[n])  # the oracle agrees with the table
            others = sorted(set(truth[n - 1].player(seat).deck_top) - {tops[n][0]})
            if not others:
                continue
            bad = msgspec.structs.replace(events[n - 1], card=rng.choice(others))
            rec = list(redact_log(parse_log(encode(events[:n - 1] + [bad])), seat))
            res = run(parse_log(encode(rec)))
            assert res.violations and res.violations[0].seq == n and res.violations[0].rule == "CO-2.6", (
                seat, n, bad, [v.as_dict() for v in res.violations][:2])
            TALLY["mutations flagged"] += 1
            return True
    return False


FIXED = (0, 1, 2)


def _check(seed: int, tmp_path_factory: Any) -> None:
    pools = tmp_path_factory.mktemp("pools")
    write_pool(pools)
    with using(Sources([pools])):
        events = generate(seed)
        tally(events)
        compare(events)
        mutated_play_is_flagged(events, random.Random(seed))
        mutated_draw_is_flagged(events, random.Random(seed))


def test_the_oracle_agrees_on_fixed_matches(tmp_path_factory) -> None:
    """CI's fixed examples (a take-back of each kind of look among them)."""
    for seed in FIXED:
        _check(seed, tmp_path_factory)
    assert TALLY["take-backs"] >= 1 and TALLY["looks (hand)"] >= 1 and TALLY["mutations flagged"] >= 1, TALLY


@settings(max_examples=2, deadline=None, database=None)
@given(seed=st.integers(10, 10**6))
def test_the_oracle_agrees_on_generated_matches(tmp_path_factory, seed: int) -> None:
    """Scaled by ADJUDICATOR_PROPERTY_SCALE (=100: 200 matches); the tally is printed at the end
    (``-s``)."""
    note(f"match seed {seed}")
    print(f"match seed {seed}", flush=True)
    _check(seed, tmp_path_factory)
    print("oracle tally:", dict(sorted(TALLY.items())))
