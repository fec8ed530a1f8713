"""Colossus Order: the Complete Declarations ``legal_events`` lists (one per distinct selection).

A long match's Locus may hold 30 face-down cards; listing every 6 of its slots would be
C(30, 6) = 593,775 declarations.  ``legal_events`` lists one per distinct selection of 6 cards
(by card and whether the opponent knows it), and every one it lists checks legal.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import position as positions
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order.rules import declarations, with_player
from adjudicator.games.colossus_order.state import LocusSlot, State

from .co_scenarios import A, B, GAME, Script


def declaring(locus: list[LocusSlot]) -> State:
    """Alice's start phase before her draw (the Complete Declaration step), with ``locus``."""
    s = Script()
    s.develop(6)
    s.end_turn()
    s.end_main()
    st = s.state()
    assert st.turn_player == A and st.phase == "start" and st.declaration_open
    return with_player(st, A, locus=tuple(locus), next_slot=max(sl.id for sl in locus) + 1)


def key(sl: LocusSlot) -> tuple[Any, ...]:
    return (sl.card, sl.known)


def selections_of_six(locus: list[LocusSlot]) -> int:
    """How many distinct multisets of 6 keys the face-down slots hold: the coefficient of x^6
    in the product over keys of (1 + x + ... + x^copies)."""
    poly = [1] + [0] * 6
    for copies in Counter(key(sl) for sl in locus if not sl.face_up).values():
        poly = [sum(poly[i - j] for j in range(min(i, copies) + 1)) for i in range(7)]
    return poly[6]


def long_locus() -> list[LocusSlot]:
    """30 face-down slots of 8 cards (some copies known to the opponent) and 3 face-up ones."""
    cards = ["white-gem", "white-gem", "white-gem", "heroic-knight", "bastion-squire", "ash",
             "white-gem", "spurring-griffin", "white-gem", "heroic-knight", "dawn-sparrowhawk",
             "temple-healer", "white-gem", "ash", "bastion-squire"]
    down = [LocusSlot(i + 1, cards[i % len(cards)], known=i % 7 == 3) for i in range(30)]
    up = [LocusSlot(31 + i, "heroic-knight", face_up=True) for i in range(3)]
    return down[:10] + up + down[10:]


def test_long_locus_lists_one_declaration_per_distinct_selection() -> None:
    locus = long_locus()
    st = declaring(locus)
    listed = [e for e in GAME.legal_events(st) if type(e) is E.CompleteDeclared]
    assert len(listed) == selections_of_six(locus) == 2250  # not C(30, 6) = 593,775
    by_id = {sl.id: sl for sl in locus}
    seen = {tuple(sorted(key(by_id[x]) for x in e.slots)) for e in listed}
    assert len(seen) == len(listed)  # no two listed declarations reveal the same selection
    for e in listed:
        assert GAME.check(st, e).legal
        assert all(not by_id[x].face_up for x in e.slots) and len(set(e.slots)) == 6
    # a declaration not listed (other slots with the same cards) is just as legal
    other = E.CompleteDeclared(player=A, slots=[x.id for x in locus if not x.face_up][-6:])
    assert other not in listed and GAME.check(st, other).legal


def test_every_selection_of_a_small_locus_is_listed() -> None:
    """Against the brute force: every 6 face-down slots reveal a selection that is listed once."""
    cards = ["white-gem", "ash", "white-gem", "heroic-knight", "white-gem", "ash", "black-gem",
             "white-gem", "heroic-knight", "white-gem", "ash", "white-gem"]
    locus = [LocusSlot(i + 1, c, known=i in (1, 4)) for i, c in enumerate(cards)]
    locus.append(LocusSlot(13, "white-gem", face_up=True))
    down = [sl for sl in locus if not sl.face_up]
    every = {tuple(sorted(map(key, combo))) for combo in combinations(down, 6)}
    by_id = {sl.id: sl for sl in locus}
    listed = declarations(locus)
    assert sorted(tuple(sorted(key(by_id[x]) for x in slots)) for slots in listed) == sorted(every)
    assert len(listed) == selections_of_six(locus) < 924  # C(12, 6) without the grouping
    st = declaring(locus)
    assert [e.slots for e in GAME.legal_events(st) if type(e) is E.CompleteDeclared] == listed


def test_fewer_than_six_face_down_lists_no_declaration() -> None:
    locus = [LocusSlot(i + 1, "white-gem", face_up=i == 0) for i in range(6)]
    assert declarations(locus) == []
    assert not [e for e in GAME.legal_events(declaring(locus)) if type(e) is E.CompleteDeclared]


def test_legal_as_the_opponent_counts_the_declarations_without_listing_them(tmp_path: Path) -> None:
    """Which declarations are listed tells which face-down slots hold the same card: the
    opponent (``legal --as``) is told how many there are, never which; the declarer sees them."""
    locus = long_locus()
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(positions.document(GAME, declaring(locus))))
    run = CliRunner().invoke
    judge = json.loads(run(main, ["legal", "--position", str(pos), "--json"]).output)
    declared = [e for e in judge["events"] if e["type"] == "CompleteDeclared"]
    assert len(declared) == selections_of_six(locus)
    mine = json.loads(run(main, ["legal", "--position", str(pos), "--as", A, "--json"]).output)
    assert mine["events"] == judge["events"] and mine["hidden"] == 0
    theirs = json.loads(run(main, ["legal", "--position", str(pos), "--as", B, "--json"]).output)
    assert not [e for e in theirs["events"] if e["type"] == "CompleteDeclared"]
    assert theirs["hidden"] >= len(declared)
    text = run(main, ["legal", "--position", str(pos), "--as", B]).output
    assert "CompleteDeclared" not in text and f"events {B} cannot see" in text


def test_long_playouts_neither_win_by_declaration_nor_grow_the_locus_without_end() -> None:
    """The long set-up (deck validation off, the benchmark's million-event matches): a random
    playout never picks the winning declaration, nor sets a Locus card past LONG_LOCUS."""
    from msgspec.structs import replace

    from adjudicator.games.colossus_order.game import LONG_LOCUS

    st = declaring([LocusSlot(i + 1, "white-gem") for i in range(6)] + [LocusSlot(7, "ash")])
    win = E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 6])
    fail = E.CompleteDeclared(player=A, slots=[2, 3, 4, 5, 6, 7])
    assert GAME.playout_weight(st, win) > 0 and GAME.playout_weight(st, fail) > 0
    long = replace(st, options=replace(st.options, deck_validation="off"))
    assert GAME.playout_weight(long, win) == 0 and GAME.playout_weight(long, fail) > 0
    put = E.CardSet(player=A, card="ash", zone="locus")
    full = with_player(long, A, locus=tuple(LocusSlot(i + 1, "ash") for i in range(LONG_LOCUS)))
    assert GAME.playout_weight(full, put) == 0 and GAME.playout_weight(long, put) > 0
    assert GAME.playout_weight(with_player(st, A, locus=full.player(A).locus), put) > 0
