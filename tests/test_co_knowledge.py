"""What a seat's record of a Colossus Order match keeps knowing (issue 32, item 3): the opponent's
own look at their deck top (CO-42.3), a judge's take-back of a look at a hand (CO-44), an unnamed
card leaving a hand that held known ones (CO-39.8).  Each case: what the record knows after it,
and an event that contradicts that knowledge flagged in the record."""

from __future__ import annotations

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN, CardsLooked, CardsReordered
from adjudicator.core.kernel.verify import settle
from adjudicator.games.colossus_order import deck as D
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order.state import Mill, Player

from .co_scenarios import A, B, GAME, POOL, verify_events
from .test_co_rules import covers, documents, rejects


def _seat_helpers():
    """tests/test_seat_colossus_order's helpers, imported when used: that module imports
    test_co_rules, which imports this one (a module-level import is a cycle when that module is
    collected first, as running tests/test_co_reveal_order.py alone does)."""
    from . import test_seat_colossus_order as seat

    return seat._legal, seat._scrying, seat.record_of


def _with(state, p: Player):
    return replace(state, players=tuple(p if q.id == p.id else q for q in state.players))


def _alices_record_with_bobs_top_known(top: str):
    """Alice's record of Tidal Scrying (bob looks at his top 2 cards and puts them back in another
    order), where alice knows ``top`` is bob's top card (known to both, as after a reveal): the
    position before the look, and the look and reorder as her record states them (``"?"``)."""
    _legal, _scrying, record_of = _seat_helpers()
    s = _scrying()
    look = next(x for x in _legal(s, CardsLooked) if x.cards[0] != x.cards[1])
    s.add(look)
    s.add(CardsReordered(player=B, owner=B, zone="deck-top", cards=list(reversed(look.cards))))
    record = record_of(s.events(), A)
    at = next(i for i, e in enumerate(record) if type(e) is CardsLooked)
    state = verify_events(record[:at]).state
    bob = state.player(B)
    assert bob.deck_top[0] == HIDDEN and not bob.deck_known
    bob = replace(bob, deck_top=bob.deck_top[1:], deck_known=(top,), known_why=("revealed by a test",))
    return _with(state, bob), record[at:at + 2]


def _apply(state, events):
    for e in events:
        assert GAME.check(state, e).legal, (e, GAME.check(state, e))
        state, _ = settle(GAME, GAME.apply(state, e))
    return state


@documents("CO-42.3")
def test_the_opponents_own_look_leaves_the_cards_the_record_knew_among_the_top() -> None:
    """CO-42.3: bob's own look at his top 2 and their new order are ``"?"`` in alice's record, but
    she knew his top card: it is still one of the top 2 (a set, order unknown), so milling two
    other cards is illegal there, and milling it first or second is legal."""
    state, (look, reorder) = _alices_record_with_bobs_top_known("ash")
    assert look.cards == [HIDDEN, HIDDEN] and reorder.cards == [HIDDEN, HIDDEN]
    after = _apply(state, [look, reorder])
    bob = after.player(B)
    assert sorted(bob.deck_mixed) == sorted(["ash", HIDDEN]) and not bob.deck_known
    assert bob.deck_count == state.player(B).deck_count
    zone = next(z for z in GAME.scene(after, A).zones if z.id == f"{B}.deck-mixed")  # the record's view shows the set
    assert "order not known" in zone.label and sorted(c.name or "?" for c in zone.cards)[-1] != "?"
    milling = replace(after, todo=(Mill(B, 2, "a test"),) + after.todo)
    other = next(c for c in bob.unseen if c != "ash")
    first = _apply(milling, [E.CardMilled(player=B, card=other)])
    ruling = GAME.check(first, E.CardMilled(player=B, card=other))
    assert (ruling.verdict, ruling.rule, ruling.code) == ("illegal", "CO-2.6", "colossus-order/not-next-card"), ruling
    assert "put back by a look" in ruling.message
    assert GAME.check(first, E.CardMilled(player=B, card="ash")).legal
    assert GAME.check(milling, E.CardMilled(player=B, card="ash")).legal


def test_a_look_at_one_card_put_back_changes_nothing_of_what_the_record_knew() -> None:
    """CO-42.3: one card put back is where it was: alice still knows it on top."""
    p = Player(B, "x", deck_known=("ash",), known_why=("revealed",), deck_top=(HIDDEN,) * 3, unseen=("a", "b", "c"))
    assert D.mixed_top(p, 1, False) is p
    q = D.mixed_top(p, 2, False)
    assert (q.deck_known, q.deck_mixed, q.deck_top) == ((), (HIDDEN, "ash"), (HIDDEN,) * 2)
    assert D.next_options(q, False) == [HIDDEN, "ash"]


def _bobs_record_at_the_raven_look():
    """Bob's record of Spying Raven (bob looks at alice's hand, CO-41): the position just before
    the look, and the look as his record states it (alice's whole hand named)."""
    from .co_scenarios import BLACK_CARDS, Script

    s = Script(hands={B: ["spying-raven"], A: ["ash", "heroic-knight", "bastion-squire"]},
               decks={B: BLACK_CARDS[:9] + ["spying-raven"]})
    s.develop(1)
    s.end_turn()
    s.play("spying-raven")
    s.pass_window()
    _legal, _, record_of = _seat_helpers()
    [look] = _legal(s, CardsLooked)
    s.add(look)
    record = record_of(s.events(), B)
    at = next(i for i, e in enumerate(record) if type(e) is CardsLooked)
    before = verify_events(record[:at]).state
    assert set(before.player(A).hand) == {HIDDEN}
    return before, record[at]


@documents("CO-44")
def test_a_taken_back_look_at_a_hand_keeps_its_cards_named_after_an_unnamed_card_left() -> None:
    """CO-44 (FIDE 7.5): the events taken back set an unnamed card of alice's face down, then bob
    looked at her hand (his record names the 5 cards left).  The position returns to before the
    set: her hand holds 6 cards again, the 5 bob saw named and one he did not see (any unknown)."""
    before, look = _bobs_record_at_the_raven_look()
    set_down = E.CardSet(player=A, card=HIDDEN, zone="locus")
    table = GAME.apply(before, set_down)  # (applied as stated: a judge takes it back)
    named = list(look.cards[:-1])
    table, _ = settle(GAME, GAME.apply(table, replace(look, cards=named)))
    assert sorted(table.player(A).hand) == sorted(named)
    kept = GAME.keep_seen(before, table).player(A)
    assert sorted(c for c in kept.hand if c != HIDDEN) == sorted(named) and kept.hand.count(HIDDEN) == 1
    assert len(kept.unseen) == len(before.player(A).unseen) - len(named)
    # a draw meanwhile (a card entered the hand): the look may have named it, nothing is kept
    drawn = replace(table, players=tuple(replace(p, deck_top=p.deck_top[1:]) if p.id == A else p for p in table.players))
    assert GAME.keep_seen(before, drawn).player(A).hand == before.player(A).hand


@covers("CO-39.8")
def test_a_card_the_hand_cannot_hold_once_an_unnamed_card_left_it_is_flagged() -> None:
    """CO-39.8: bob's record names alice's 6 cards (a look); she sets one face down unnamed.  Her
    hand is then 5 of those 6: a card among them can be played, one not among them (though copies
    are unaccounted for) cannot, and the reason says which cards the hand can hold."""
    before, look = _bobs_record_at_the_raven_look()
    state, _ = settle(GAME, GAME.apply(before, look))
    state = GAME.apply(state, E.CardSet(player=A, card=HIDDEN, zone="locus"))
    alice = state.player(A)
    assert alice.hand == (HIDDEN,) * 5 and alice.hand_could == tuple(sorted(look.cards))
    state = replace(state, turn_player=A, phase="main", todo=(), chain=(), attack=None)
    from adjudicator.games.colossus_order.cards import load_pool

    pool = load_pool("sample")
    other = next(c for c in sorted(set(alice.unseen)) if pool[c].is_follower and c not in look.cards)
    rejects(GAME.check(state, E.FollowerPlayed(player=A, card=other)), "CO-39.8", "impossible-identity", "can only be among",
            "a card left that hand unnamed")
    held = next(c for c in look.cards if pool[c].is_follower)
    assert GAME.check(state, E.FollowerPlayed(player=A, card=held)).rule != "CO-39.8"  # a card among them (its cost aside)
    # an unknown card drawn meanwhile could be anything: the same play is no longer flagged so
    drawn = settle(GAME, GAME.apply(replace(state, todo=()), E.CardDrawn(player=A, card=HIDDEN)))[0]
    assert HIDDEN in drawn.player(A).hand_could
    assert GAME.check(replace(drawn, todo=()), E.FollowerPlayed(player=A, card=other)).rule != "CO-39.8"


def test_hand_could_follows_each_change_of_a_hand() -> None:
    from adjudicator.games.colossus_order.unknowns import hand_could

    p = Player(A, "x", hand=("ash", "ash", "rat"), unseen=("a", "b"))
    # an unnamed card leaves: the known cards become unknown, and are what the hand can hold
    assert hand_could(p, (HIDDEN,) * 2, ("a", "ash", "ash", "b", "rat")) == ("ash", "ash", "rat")
    q = replace(p, hand=(HIDDEN,) * 2, unseen=("a", "ash", "ash", "b", "rat"), hand_could=("ash", "ash", "rat"))
    assert hand_could(q, (HIDDEN,), ("a", "ash", "b", "rat")) == ("ash", "rat")  # ash named from the unknown ones
    assert hand_could(q, (HIDDEN,), q.unseen) == ("ash", "ash", "rat")  # another unnamed card left
    assert hand_could(q, (HIDDEN,) * 3, q.unseen) == (HIDDEN, "ash", "ash", "rat")  # an unnamed card came in
    assert hand_could(q, (), q.unseen) == ()


def _alices_record_with_bobs_top_two_known(tops: tuple[str, str]):
    """Alice's record of Tidal Scrying where she knows bob's top 2 cards (``tops``, known to both),
    after bob's own look and reorder of them (``"?"`` in her record): the set of the two."""
    state, (look, reorder) = _alices_record_with_bobs_top_known(tops[0])
    bob = state.player(B)
    unseen = bob.unseen
    for c in tops:
        unseen = unseen[:unseen.index(c)] + unseen[unseen.index(c) + 1:] if c in unseen else unseen
    bob = replace(bob, deck_top=bob.deck_top[1:], deck_known=tops, known_why=("revealed by a test",) * 2, unseen=unseen)
    return _apply(_with(state, bob), [look, reorder])


@documents("CO-42.3")
def test_an_unnamed_draw_from_a_set_leaves_the_rest_among_that_set() -> None:
    """CO-42.3: alice knows bob's top 2 cards as a set (his own look put them back); bob draws one
    unnamed (``"?"`` in her record).  His next card is still one of the two: milling a third card
    is illegal there (though copies of it are unaccounted for), milling either of the two legal,
    and a second unnamed draw leaves nothing known."""
    tops = ("tide-scout", "windcaller-adept")
    after = _alices_record_with_bobs_top_two_known(tops)
    assert sorted(after.player(B).deck_mixed) == sorted(tops)
    drawn = settle(GAME, GAME.apply(replace(after, todo=()), E.CardDrawn(player=B, card=HIDDEN)))[0]
    bob = drawn.player(B)
    assert bob.deck_count == after.player(B).deck_count - 1 and bob.hand.count(HIDDEN) == after.player(B).hand.count(HIDDEN) + 1
    milling = replace(drawn, todo=(Mill(B, 1, "a test"),) + drawn.todo)
    other = next(c for c in bob.unseen if c not in tops)
    ruling = GAME.check(milling, E.CardMilled(player=B, card=other))
    assert (ruling.verdict, ruling.rule, ruling.code) == ("illegal", "CO-2.6", "colossus-order/not-next-card"), ruling
    assert "among " + ", ".join(POOL[c].name for c in sorted(tops)) in ruling.message and "taken since, unnamed" in ruling.message
    assert bob.deck_mixed == (HIDDEN,) and bob.mixed_could == tuple(sorted(tops))
    for c in tops:
        assert GAME.check(milling, E.CardMilled(player=B, card=c)).legal
        milled = _apply(milling, [E.CardMilled(player=B, card=c)]).player(B)
        assert not milled.deck_mixed and not milled.mixed_could and len(milled.unseen) == len(bob.unseen) - 1
    zone = next(z for z in GAME.scene(drawn, A).zones if z.id == f"{B}.deck-mixed")
    assert "among" in zone.label
    # the set's last card drawn unnamed too: nothing is left of it
    again = settle(GAME, GAME.apply(replace(drawn, todo=()), E.CardDrawn(player=B, card=HIDDEN)))[0].player(B)
    assert not again.deck_mixed and not again.mixed_could
    # a shuffle forgets the set
    assert not D.shuffled(bob).mixed_could and D.shuffled(bob).deck_count == bob.deck_count


def test_a_set_with_a_limit_joins_a_larger_look_keeping_the_limit() -> None:
    """CO-42.3: a new look reaching past a set whose unknown cards are among known ones merges the
    two; the old set's cards stay among its limit, the new ones are any (``"?"``)."""
    p = Player(B, "x", deck_mixed=(HIDDEN,), mixed_could=("ash", "rat"), deck_top=(HIDDEN,) * 3, unseen=("a", "ash", "b", "rat"))
    assert D.next_problem(p, "a", False, "mills")[1] == "not-next-card"
    assert D.next_problem(p, "ash", False, "mills") is None
    q = D.mixed_top(p, 3, False)
    assert q.deck_count == p.deck_count and (q.deck_mixed, q.deck_top) == ((HIDDEN,) * 3, (HIDDEN,))
    assert q.mixed_could == (HIDDEN, HIDDEN, "ash", "rat")
    assert D.next_problem(q, "a", False, "mills") is None


@documents("CO-42")
def test_a_look_at_fewer_cards_than_are_known_on_top_leaves_the_rest_below_them() -> None:
    """CO-42: bob's top 3 cards are known to both (tide-scout, windcaller-adept, tideglass-augur);
    his Tidal Scrying looks at the top 2 and puts them back reversed.  The next card is the first
    he put back, then the second, then tideglass-augur (the third known card stays third): drawing
    tideglass-augur first is refused."""
    s = _seat_helpers()[1]()
    state = s.state()
    bob = state.player(B)
    tops = ("tide-scout", "windcaller-adept", "tideglass-augur")
    deck_top = bob.deck_top
    for c in tops:
        deck_top = deck_top[:deck_top.index(c)] + deck_top[deck_top.index(c) + 1:]
    state = _with(state, replace(bob, deck_top=deck_top, deck_known=tops, known_why=("revealed by a test",) * 3))
    look = CardsLooked(player=B, owner=B, zone="deck-top", cards=list(tops[:2]), source="tidal-scrying")
    after = _apply(state, [look, CardsReordered(player=B, owner=B, zone="deck-top", cards=[tops[1], tops[0]],
                                                source="tidal-scrying")])
    drawing = replace(after, todo=(Mill(B, 3, "a test"),) + after.todo)
    rejects(GAME.check(drawing, E.CardMilled(player=B, card=tops[2])), "CO-2.6", "not-next-card")
    rejects(GAME.check(drawing, E.CardMilled(player=B, card=tops[0])), "CO-2.6", "not-next-card")
    after = _apply(drawing, [E.CardMilled(player=B, card=c) for c in (tops[1], tops[0], tops[2])])
    assert after.player(B).deck_count == state.player(B).deck_count - 3


def test_an_unnamed_draw_from_a_set_among_one_identity_names_it() -> None:
    """CO-42.3: the set's last card is among two copies of one card (the others left): a draw the
    record does not name is that card (the hand holds it named)."""
    p = Player(B, "x", deck_mixed=(HIDDEN,), mixed_could=("ash", "ash"), deck_top=(HIDDEN,) * 2, unseen=("a", "ash", "ash"))
    q, card = D.take_unknown_top(p, False)
    assert card == "ash" and not q.deck_mixed and not q.mixed_could and q.deck_top == p.deck_top
    q, card = D.take_unknown_top(replace(p, mixed_could=("ash", "rat")), False)
    assert card == HIDDEN
