"""Colossi rules, one rule id at a time, then the ruleset options.

Every id of ``rulebook.RULES`` is covered: a legal case (an event governed by the rule accepted
where it applies) and an illegal case (an event rejected with a ruling citing that id, the
expected ``colossi/...`` code and a message quoting the facts).  Ids that by nature never reject
an event (derived consequences, interpretations enforced under another id) are listed in
``NEVER_REJECTS`` with the reason and get a test of the documented behaviour instead.
``tests/test_every_game.py`` fails when a rule id has no test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec.structs import replace

from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.events import CardsLooked, CardsMoved
from adjudicator.core.kernel.log import parse_log
from adjudicator.games.colossi import engine as Q
from adjudicator.games.colossi.rulebook import RULES
from tests.rulecov import RuleCoverage
from adjudicator.games.colossi.state import Actions, BannerChoice, Discard, Draft, Draw, MoveBeast, PlaceStart, Rest

from .colossi_scenarios import A, B, CC, D, GAME, NS, E, Match, Position, encode, setup, verify_events

_COVERAGE = RuleCoverage(RULES, NS)
COVERED = _COVERAGE.covered
covers, documents = _COVERAGE.covers, _COVERAGE.documents
rejects, accepts = _COVERAGE.rejects, _COVERAGE.accepts

NEVER_REJECTS: dict[str, str] = {
    "CL-40": "unknown identities never reject: a name is checked under CL-2.7, a decision turning on one is "
             "undetermined (tests/test_colossi_unknowns.py)",
    "CL-3.5": "deaths are consequences of moves and effects, applied by the engine",
    "CL-3.6": "guarded Acolytes are simply not killed or moved by effects; a choice naming one is refused "
              "under CL-6.4, a guarded Banner under CL-4.3",
    "CL-4.1": "control decides CL-4.2 / CL-4.4 (the message says who controls the space)",
    "CL-4.7": "what scoring gives is derived",
    "CL-5.5": "the end of the match is derived (TargetReached, GameEnded); events after it are LOG-3",
    "CL-1": "the board file feeds CL-3.1 (neighbours) and the direction choices",
    "CL-2": "pushes off the island are derived deaths (CL-3.5)",
    "CL-3": "the end is derived",
    "CL-4": "a reading: only the Gold victory is implemented",
    "CL-5": "the option feeds CL-2.3",
    "CL-6": "enforced as CL-3.3",
    "CL-7": "enforced as CL-3.2",
    "CL-8": "when Loot appears is derived",
    "CL-9": "tile data",
    "CL-10": "Replenish is derived",
    "CL-11": "scoring is derived",
    "CL-12": "the option feeds CL-2.4 and CL-6.4",
    "CL-13": "deaths are derived",
    "CL-15": "enforced as CL-4.2, CL-4.3 and CL-4.5",
    "CL-16": "control is computed for each Banner event (CL-4.2)",
    "CL-17": "which tile effect runs when is derived",
    "CL-18": "the option decides when the CL-5.2 discard is asked",
    "CL-20": "refilling the deck is derived",
    "CL-21": "the set-up order is enforced under CL-1.2 .. CL-1.6",
    "CL-22": "enforced as CL-1.1",
    "CL-23": "where The Void's tile comes from is derived (CL-2.6 checks it)",
    "CL-24": "payments are derived; optional payments need the Gold (CL-5.1)",
    "CL-25": "enforced as CL-3.7",
    "CL-26": "Beast passives are derived",
    "CL-27": "the option removes the Trait steps",
    "CL-28": "a permission",
    "CL-29": "exploring by an effect is derived",
    "CL-30": "a reading of CL-3.6",
    "CL-31": "whether a Banner returns is derived",
    "CL-32": "the reaction tasks are derived; answers are checked under CL-7.4",
    "CL-33": "derived",
    "CL-34": "derived",
    "CL-35": "derived",
    "CL-36": "feeds CL-3.1",
    "CL-37": "answers are checked under CL-6.4",
    "CL-38": "orders are derived",
    "CL-39": "the known top is checked under CL-2.6",
    "CL-43": "what apply makes of an event a judge lets stand (tests/test_colossi_ruling_props.py)",
    "CL-44": "what a taking back keeps (Game.keep_seen; tests/test_colossi_ruling_props.py)",
    "CL-46": "the option decides what a seat's record shows (tests/test_colossi_options.py) and the Oasis move's "
             "seen_by (CL-42)",
    "CL-47": "the option decides the answers of a Trade's card given back, checked under CL-6.4 "
             "(tests/test_colossi_options.py)",
    "CL-48": "the option decides what a seat's record shows of a Growth's draws (tests/test_colossi_options.py)",
    "CL-45": "a Trade's answer passed over by an unknown hand is undetermined; a hand shown to hold another "
             "card is out of step under CL-2.1 (tests/test_seat_colossi.py)",
}



def setup_until(stop: type) -> Match:
    """A real match, set up step by step until the head task is ``stop``."""
    m = Match()
    m.add(E.FirstPlayerDetermined(player=A))
    while type(m.head()) is not stop:
        m.add(m.first_legal())
    return m


# == 1 set-up =========================================================================================

@covers("CL-1.1")
def test_two_to_four_players() -> None:
    for n in (2, 3, 4):
        accepts(GAME.check_start(setup([A, B, CC, D][:n])), "CL-1.1")
    rejects(GAME.check_start(setup([A, B, CC, D, "eve"])), "CL-1.1", "player-count", "5")
    res = verify_events([setup([A])])
    assert [(v.rule, v.line) for v in res.violations] == [("CL-1.1", 1)]


@covers("CL-1.2")
def test_first_player_first_and_once() -> None:
    m = Match()
    rejects(m.check(E.TileSetAside(tile="lair-wind-beast")), "CL-1.2", "first-player-first")
    accepts(m.add(E.FirstPlayerDetermined(player=B)), "CL-1.2")
    rejects(m.check(E.FirstPlayerDetermined(player=A)), "CL-1.2", "first-player-decided", "bob")


@covers("CL-1.3")
def test_tile_deck_two_lairs_then_eight_environments() -> None:
    m = Match()
    m.add(E.FirstPlayerDetermined(player=A))
    rejects(m.check(E.TileSetAside(tile="volcano")), "CL-1.3", "tile-deck", "set aside Volcano")
    accepts(m.add(E.TileSetAside(tile="lair-wind-beast")), "CL-1.3")
    rejects(m.check(E.TileSetAside(tile="lair-wind-beast")), "CL-1.3", "tile-deck")
    m.add(E.TileSetAside(tile="lair-time-beast"))
    rejects(m.check(E.TileSetAside(tile="lair-blood-beast")), "CL-1.3", "tile-deck")
    accepts(m.add(E.TileSetAside(tile="volcano")))
    for t in ("market", "moat", "oasis", "ruins", "golden-dunes", "hallowed-ground", "deep-mines"):
        m.add(E.TileSetAside(tile=t))
    assert len(m.s.tile_deck) == 26 and m.s.tile_deck.count("grass-gold") == 8


@covers("CL-1.4")
def test_trait_row_and_draft() -> None:
    m = setup_until(Draft)
    assert len(m.s.trait_row) == 3
    row = list(m.s.trait_row)
    rejects(m.check(E.TraitTaken(player=B, trait=row[0], source="row")), "CL-1.4", "not-your-decision", "ann")
    rejects(m.check(E.TraitTaken(player=A, trait=row[0], source="deck")), "CL-1.4", "draft")
    accepts(m.add(E.TraitTaken(player=A, trait=row[0], source="row")), "CL-1.4")
    assert len(m.s.trait_row) == 2  # refilled before bob chooses
    m.add(m.first_legal(E.TraitRevealed))
    assert len(m.s.trait_row) == 3


@covers("CL-1.5")
def test_three_cards_dealt_each_in_seat_order() -> None:
    m = setup_until(Draw)
    rejects(m.check(E.CardDrawn(player=B, card="walk")), "CL-1.5", "not-your-decision", "ann")
    for _ in range(3):
        accepts(m.add(E.CardDrawn(player=A, card="walk")))
    assert m.head() == Draw(B, 3)


@covers("CL-1.6")
def test_starting_tiles_on_empty_spaces() -> None:
    m = setup_until(PlaceStart)
    accepts(m.add(E.StartPlaced(player=A, space=12)), "CL-1.6")
    assert m.sp(12).tile == "start" and m.p(A).colossus == 12 and (m.sp(12).gold, m.sp(12).blue) == (1, 1)
    rejects(m.check(E.StartPlaced(player=B, space=12)), "CL-1.6", "start-space", "start 12")
    rejects(m.check(E.StartPlaced(player=A, space=13)), "CL-1.6", "not-your-decision")


# == 2 the turn =========================================================================================

@covers("CL-2.1")
def test_only_the_player_whose_decision_it_is() -> None:
    pos = Position()
    rejects(pos.check(E.Moved(player=B, piece="colossus", space=14, to=15)), "CL-2.1", "not-your-decision", "ann")
    rejects(pos.check(E.BannerPhaseChosen(player=A, choice="rest")), "CL-2.1", "out-of-step", "ann's Actions")
    rejects(GAME.check(pos.s, E.TurnEnded(turn=1, player=A)), "CL-2.1", "unexpected-event")
    accepts(pos.move(12, 13, "colossus"))


@covers("CL-2.2")
def test_turn_start_replenish_then_draw() -> None:
    pos = Position()
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    pos.passed()
    assert [type(d).__name__ for d in pos.last_derived()] == ["TurnEnded", "TurnStarted", "LootReplenished"]
    assert pos.head() == Draw(B, 1)
    rejects(pos.check(E.Moved(player=B, piece="colossus", space=14, to=15)), "CL-2.2", "turn-start-first", "card drawn by bob")
    accepts(pos.add(E.CardDrawn(player=B, card="walk")))
    assert isinstance(pos.head(), Actions)


@covers("CL-2.3")
def test_four_actions() -> None:
    pos = Position(hands={A: ["pilfer"]})
    for a, b in ((12, 13), (13, 14), (14, 15)):
        accepts(pos.move(a, b, "colossus"), "CL-3.1")
    accepts(pos.play("pilfer"))  # the fourth Action
    pos.add(E.CardDrawn(player=A, card="walk"))
    pos.add(E.CardDrawn(player=A, card="walk"))
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=15, to=10)), "CL-2.3", "no-actions-left", "Action 5", "4")
    pos.end_actions()
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=15, to=10)), "CL-2.3", "actions-over")


@covers("CL-2.4")
def test_move_beast_step() -> None:
    pos = Position(beasts={"time-beast": 20}, unexplored=[26])
    rejects(pos.check(E.BeastMoved(player=A, beast="time-beast", to=21)), "CL-2.4", "not-now")
    pos.end_actions()
    assert isinstance(pos.head(), MoveBeast)
    rejects(pos.check(E.BeastMoved(player=A, beast="time-beast", to=26)), "CL-2.4", "beast-step", "Time Beast to 21")
    rejects(pos.check(E.BeastMoved(player=A, beast="time-beast", to=3)), "CL-2.4", "beast-step")
    accepts(pos.add(E.BeastMoved(player=A, beast="time-beast", to=21)), "CL-2.4")
    assert pos.head() == BannerChoice(A)


@covers("CL-2.5")
def test_deploy_or_rest_not_both() -> None:
    pos = Position(banners={3: [A]}, loot={12: (1, 0, 0)})
    pos.end_actions()
    accepts(pos.add(E.BannerPhaseChosen(player=A, choice="deploy")), "CL-2.5")
    pos.add(E.BannerRaised(player=A, space=12))
    rejects(pos.check(E.BannerScored(player=A, space=3)), "CL-2.5", "deploy-not-rest", "Dominate")
    rejects(pos.check(E.BannerPhaseChosen(player=A, choice="rest")), "CL-2.5", "one-banner-phase", "deploy")
    pos2 = Position(banners={3: [A], 4: [A]})
    pos2.end_actions()
    pos2.add(E.BannerPhaseChosen(player=A, choice="rest"))
    pos2.add(E.BannerScored(player=A, space=3))
    rejects(pos2.check(E.BannerRaised(player=A, space=12)), "CL-2.5", "one-banner-phase", "rest")


@covers("CL-2.6")
def test_drawn_things_come_from_their_deck() -> None:
    pos = Position(hands={A: ["pilfer"]}, deck=["walk", "walk", "lure"])
    pos.play("pilfer")
    rejects(pos.check(E.CardDrawn(player=A, card="teleport")), "CL-2.6", "not-in-deck", "Teleport")
    accepts(pos.add(E.CardDrawn(player=A, card="walk")), "CL-2.6")
    pos2 = Position(hands={A: ["ritual-sacrifice"]}, colossi={A: 13, B: 2}, acolytes={(14, B): 1})
    pos2.play("ritual-sacrifice")
    rejects(pos2.check(E.DieRolled(player=A, value=0)), "CL-2.6", "die")
    accepts(pos2.add(E.DieRolled(player=A, value=6)))


@covers("CL-42")
def test_the_oasis_discard_is_written_with_the_whole_hand_seen_by_every_seat() -> None:
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "oasis"}, banners={3: [A]}, hands={A: ["walk", "lure"]})
    pos.end_actions()
    if type(pos.head()).__name__ == "MoveBeast":
        pos.passed()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    pos.add(E.BannerScored(player=A, space=3))
    assert type(pos.head()).__name__ == "NewHand"
    # the discard is owed before the six draws
    r = pos.check(E.CardDrawn(player=A, card="pilfer"))
    assert (r.verdict, r.rule) == ("illegal", "CL-42"), r
    rejects(pos.check(CardsMoved(owner=A, from_zone="hand", to_zone="discard", cards=["walk"], seen_by=[A, B],
                                 player=A)), "CL-42", "oasis-hand")
    rejects(pos.check(CardsMoved(owner=A, from_zone="hand", to_zone="discard", cards=["lure", "walk"], seen_by=[A],
                                 player=A)), "CL-42", "oasis-hand")  # the discard pile is face up
    accepts(pos.add(CardsMoved(owner=A, from_zone="hand", to_zone="discard", cards=["walk", "lure"], seen_by=[B, A],
                               player=A, source="oasis")), "CL-42")
    assert pos.p(A).hand == () and sorted(pos.s.discard) == ["lure", "walk"]
    assert type(pos.head()).__name__ == "Draw" and pos.head().count == 6


@covers("CL-41")
def test_a_soothsayer_looks_at_the_items_another_seat_saw_on_top() -> None:
    """examples/colossi/legal-4p-soothsayer-looks.jsonl: bob peeks at the tile deck whose top ann
    looked at; bob's CardsLooked names them, top first, before any TopRevealed."""
    from adjudicator.core.kernel.log import read_log
    from adjudicator.core.kernel.verify import run

    log = read_log(Path(__file__).resolve().parent.parent / "examples/colossi/legal-4p-soothsayer-looks.jsonl")
    events = [e for _, e in log.events]
    k = next(i for i, e in enumerate(events) if type(e) is CardsLooked)
    state = run(log, upto=k).state
    assert type(state.todo[0]).__name__ == "LookTop"
    look = events[k]
    accepts(GAME.check(state, look), "CL-41")
    accepts(GAME.check(state, replace(look, source=None)), "CL-41")
    alt = next(x for x in ("oasis", "market") if x != look.cards[0])
    rejects(GAME.check(state, replace(look, cards=[alt] + look.cards[1:])), "CL-41", "soothsayer-look")
    rejects(GAME.check(state, replace(look, cards=look.cards[:1])), "CL-41", "soothsayer-look")
    r = GAME.check(state, events[k + 1])  # the look left out
    assert (r.verdict, r.rule) == ("illegal", "CL-41"), r


@documents("CL-43")
def test_an_irregular_event_let_stand_does_what_it_says_or_has_no_defined_effect() -> None:
    """An ActionsEnded by a player not in their Actions changes nothing; a card played that is not
    in hand, or a piece moved that is not there, has no defined effect (Undefined, in words)."""
    from adjudicator.core.kernel.rulings import Undefined

    m = setup_until(Actions)
    s, me = m.state(), m.head().player
    other = next(p.id for p in s.players if p.id != me)
    assert GAME.apply(s, E.ActionsEnded(player=other)) == s
    card = next(c for c in sorted(Q.C().cards) if c not in s.player(me).hand)
    with pytest.raises(Undefined, match=f"{me} has no {card} in hand"):
        GAME.apply(s, E.CardPlayed(player=me, card=card))
    empty = next(i for i, sp in enumerate(s.spaces) if not sp.colossi and not any(sp.acolytes))
    with pytest.raises(Undefined, match=f"{me} has no acolyte on space {empty}"):
        GAME.apply(s, E.Moved(player=me, piece="acolyte", space=empty, to=Q.B(s).adj[empty][0]))


@documents("CL-44")
def test_a_card_drawn_and_taken_back_goes_back_on_top_known_to_its_drawer() -> None:
    from adjudicator.core.kernel.events import HIDDEN
    from adjudicator.core.kernel.verify import settle

    m = setup_until(Draw)
    s, me = m.state(), m.head().player
    card = sorted(s.card_deck)[0]
    annulled, _ = settle(GAME, GAME.apply(s, E.CardDrawn(player=me, card=card)))
    kept = GAME.keep_seen(s, annulled)
    assert (kept.card_top, kept.card_seen) == ((card,), ((me,),))
    assert sorted(kept.card_deck + kept.card_top) == sorted(s.card_deck)
    other = next(p.id for p in s.players if p.id != me)
    assert GAME.observe(kept, me).card_top == (card,) and GAME.observe(kept, other).card_top == (HIDDEN,)
    assert GAME.keep_seen(s, s) is s  # nothing seen, nothing kept


@covers("CL-2.7")
def test_a_card_named_from_unknown_cards_must_still_be_possible() -> None:
    """bob's record (examples/colossi/illegal-CL-2.7-...): ann's hand is unknown to him; the card she
    really played is accepted there, one whose only copy is in the discard pile is not."""
    from pathlib import Path

    from adjudicator.core.kernel.verify import settle

    root = Path(__file__).resolve().parent.parent / "examples" / "colossi"
    planted = parse_log((root / "illegal-CL-2.7-seat-impossible-card.jsonl").read_bytes()).events
    played = [e for _, e in parse_log((root / "legal-2p-to-50-gold.jsonl").read_bytes()).events][len(planted) - 1]
    s, _ = settle(GAME, GAME.initial_state(planted[0][1]))
    for _, e in planted[1:-1]:
        s, _ = settle(GAME, GAME.apply(s, e))
    assert "?" in s.player(A).hand and s.unseen is not None
    rejects(GAME.check(s, planted[-1][1]), "CL-2.7", "impossible-identity", "Windfall", "1 in the discard pile")
    assert type(played) is E.CardPlayed and played.player == A
    accepts(GAME.check(s, played))


@documents("CL-45")
def test_a_trade_answer_passed_over_in_a_seat_record_is_undetermined_and_pays_the_gold() -> None:
    from .test_seat_colossi import passed_over_trade, seat, verdict

    events, k = passed_over_trade()
    res = verdict(seat(events, "dee")[:k + 1])
    v = res.undetermined[-1]
    assert (res.verdict, v.seq, v.rule, v.condition) == ("undetermined", k + 1, "CL-45",
                                                          "cid holds no card other than the card received from bob")
    assert [p.gold for p in res.state.players] == [p.gold for p in verdict(events[:k + 1]).state.players]


@documents("CL-40")
def test_a_seat_record_keeps_unknown_cards_and_tiles_as_placeholders() -> None:
    from pathlib import Path

    from adjudicator.core.kernel.verify import run

    root = Path(__file__).resolve().parent.parent / "examples" / "colossi"
    events = [e for _, e in parse_log((root / "legal-2p-to-50-gold.jsonl").read_bytes()).events][:40]
    data = encode([GAME.redact(e, B) for e in events])
    assert b'{"type":"TileSetAside","tile":"?"}' in data and b'"player":"ann","card":"?"' in data
    res = run(parse_log(data, "bob.jsonl"))
    assert res.verdict == "legal", res.violations
    s = res.state
    assert set(s.player(A).hand) == {"?"} and "?" in s.tile_deck
    assert len(s.unseen.cards) == len(s.player(A).hand) + s.card_deck.count("?")


# == 3 movement =========================================================================================

@covers("CL-3.1")
def test_moves_go_one_space_with_own_pieces() -> None:
    pos = Position(acolytes={(3, A): 1, (20, B): 1})
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=12, to=14)), "CL-3.1", "not-adjacent", "12 and 14")
    rejects(pos.check(E.Moved(player=A, piece="acolyte", space=4, to=3)), "CL-3.1", "no-piece", "space 4")
    rejects(pos.check(E.Moved(player=A, piece="acolyte", space=20, to=21, owner=B)), "CL-3.1", "not-your-piece")
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=12, to=99)), "CL-3.1", "no-such-space")
    accepts(pos.move(3, 4), "CL-3.1")


@covers("CL-3.2")
def test_exploring_draws_a_tile_and_ends_the_move() -> None:
    pos = Position(unexplored=[13], tile_deck=["volcano", "grass-blue"], acolytes={(12, A): 1})
    pos.move(12, 13)
    rejects(pos.check(E.TileExplored(space=13, tile="market")), "CL-3.2", "not-in-tile-deck", "explore 13 Volcano")
    accepts(pos.add(E.TileExplored(space=13, tile="grass-blue")), "CL-3.2")
    rejects(pos.check(E.Moved(player=A, piece="acolyte", space=13, to=14, road=True)), "CL-3.2", "move-ended")


@covers("CL-3.3")
def test_road_movement() -> None:
    pos = Position(acolytes={(13, A): 1, (14, A): 1, (7, B): 1})
    # 12 -> 13 (ann's Acolyte there: a road) -> 14 (another) -> 15, one Action
    pos.move(12, 13, "colossus")
    accepts(pos.move(13, 14, "colossus", road=True), "CL-3.1")
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=14, to=13, road=True)), "CL-3.3", "revisit", "13")
    pos.move(14, 15, "colossus", road=True)
    assert pos.s.info.actions == 3 and pos.p(A).colossus == 15
    # 15 held nothing of ann's: the move is over
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=15, to=10, road=True)), "CL-3.3", "no-own-piece", "15")
    pos.move(13, 7)  # an Acolyte onto bob's Acolyte: not a road for ann
    rejects(pos.check(E.Moved(player=A, piece="acolyte", space=7, to=2, road=True)), "CL-3.3", "no-own-piece")
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=15, to=10, road=True)), "CL-3.3", "no-road")


@covers("CL-3.4")
def test_spawn() -> None:
    pos = Position(acolytes={(3, A): 10})
    rejects(pos.check(E.AcolyteSpawned(player=A, space=12)), "CL-3.4", "no-acolyte-in-hand")
    pos2 = Position()
    rejects(pos2.check(E.AcolyteSpawned(player=A, space=13)), "CL-3.4", "spawn-space", "(12)")
    accepts(pos2.add(E.AcolyteSpawned(player=A, space=12)), "CL-3.4")
    accepts(pos2.move(12, 13, road=True))  # the new Acolyte moves on for free (the Colossus is a road)
    assert pos2.acol(13, A) == 1 and pos2.s.info.actions == 3


@documents("CL-3.5", "CL-2", "CL-34")
def test_deaths_return_acolytes_to_hand() -> None:
    pos = Position(colossi={A: 6, B: 20}, acolytes={(0, B): 1, (5, B): 1}, hands={A: ["intimidate"]})
    pos.play("intimidate")
    assert pos.acol(0, B) == pos.acol(5, B) == 0 and pos.p(B).acolytes == 10


@documents("CL-3.6", "CL-30")
def test_guarded_acolytes_move_only_by_their_owner() -> None:
    pos = Position(colossi={A: 13, B: 2}, beasts={"stone-beast": 13}, acolytes={(13, A): 1, (13, B): 1},
                   hands={A: ["purge"]})
    pos.play("purge")  # bob's Acolyte is guarded by the Stone Beast: only ann's own moves
    rejects(pos.check(E.Moved(player=A, piece="acolyte", space=13, to=14, owner=B)), "CL-6.4", "purge")
    pos.add(E.Moved(player=A, piece="acolyte", space=13, to=14))
    assert pos.acol(13, B) == 1


@covers("CL-3.7")
@covers("CL-25", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_acolyte_caps() -> None:
    pos = Position(acolytes={(3, A): 2}, traits={A: ["miserly"]})
    accepts(pos.add(E.AcolyteSpawned(player=A, space=12)), "CL-3.4")
    rejects(pos.check(E.AcolyteSpawned(player=A, space=12)), "CL-3.7", "acolyte-cap", "3")


# == 4 control and Banners ====================================================================================

@documents("CL-4.1", "CL-16")
def test_control_table() -> None:
    pos = Position([A, B, CC], colossi={A: 13, B: 13, CC: 2}, acolytes={(13, A): 1, (13, B): 2, (5, A): 2, (5, CC): 2,
                                                                         (6, CC): 1, (2, A): 3})
    assert Q.control(pos.s, 13) == B  # two Colossi: the one with more Acolytes
    assert Q.control(pos.s, 5) is None  # no Colossus, a tie
    assert Q.control(pos.s, 6) == CC
    assert Q.control(pos.s, 2) == CC  # one Colossus beats any number of Acolytes
    assert Q.control(pos.s, 20) is None


@covers("CL-4.2")
def test_banners_only_on_controlled_spaces() -> None:
    pos = Position(acolytes={(20, B): 1, (3, A): 1, (3, B): 1})
    rejects(pos.check(E.BannerRaised(player=A, space=12)), "CL-4.2", "not-in-deploy")
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    rejects(pos.check(E.BannerRaised(player=A, space=20)), "CL-4.2", "not-controlled", "bob controls it")
    rejects(pos.check(E.BannerRaised(player=A, space=3)), "CL-4.2", "not-controlled", "a tie")
    rejects(pos.check(E.BannerRaised(player=A, space=21)), "CL-4.2", "not-controlled", "no Colossus")
    accepts(pos.add(E.BannerRaised(player=A, space=12)), "CL-4.2")
    pos3 = Position(banners={i: [A] for i in (0, 1, 3, 4, 5, 6)})
    pos3.end_actions()
    pos3.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    rejects(pos3.check(E.BannerRaised(player=A, space=12)), "CL-4.2", "no-banner-in-hand")


@covers("CL-4.3")
def test_one_banner_per_space_and_replacing() -> None:
    pos = Position(banners={12: [A], 13: [B]}, acolytes={(13, A): 1})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    rejects(pos.check(E.BannerRaised(player=A, space=12)), "CL-4.3", "one-banner", "already holds")
    accepts(pos.add(E.BannerRaised(player=A, space=13)))
    assert pos.sp(13).banners == (A,) and pos.p(B).banners == 6


@covers("CL-4.4", "CL-14")
def test_moving_deployed_banners() -> None:
    pos = Position(banners={3: [A]}, acolytes={(20, B): 1})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    rejects(pos.check(E.BannerMoved(player=A, space=4, to=12)), "CL-4.4", "no-banner-there")
    rejects(pos.check(E.BannerMoved(player=A, space=3, to=20)), "CL-4.4", "not-controlled", "bob")
    rejects(pos.check(E.BannerMoved(player=A, space=3, to=3)), "CL-4.4", "same-space")
    accepts(pos.add(E.BannerMoved(player=A, space=3, to=12)))
    assert pos.sp(12).banners == (A,) and pos.sp(3).banners == ()
    off = Position(banners={3: [A]}, options={"deploy_can_move_banners": False})
    off.end_actions()
    off.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    rejects(off.check(E.BannerMoved(player=A, space=3, to=12)), "CL-14", "no-banner-moves")


@covers("CL-4.5")
@covers("CL-15", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_banner_caps() -> None:
    pos = Position(banners={3: [A]}, traits={A: ["monolithic"]})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    rejects(pos.check(E.BannerRaised(player=A, space=12)), "CL-4.5", "banner-cap", "(1)")
    accepts(pos.add(E.BannerMoved(player=A, space=3, to=12)))


@covers("CL-4.6")
def test_rest_collects_every_banner_once() -> None:
    pos = Position(banners={3: [A], 4: [A]}, loot={3: (1, 0, 0), 4: (2, 0, 0)})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    rejects(pos.check(E.BannerScored(player=A, space=5)), "CL-4.6", "no-banner-there")
    rejects(pos.check(E.BannerScored(player=A, space=3, keep=True)), "CL-4.6", "cannot-keep")
    rejects(pos.check(E.Passed(player=A)), "CL-4.6", "collect-all", "[3, 4]")
    accepts(pos.add(E.BannerScored(player=A, space=4)), "CL-4.6")
    assert pos.gold(A) == 2 and isinstance(pos.head(), Rest)
    pos.add(E.BannerScored(player=A, space=3))
    assert pos.gold(A) == 3 and pos.p(A).banners == 6 and pos.s.turn_player == B


@documents("CL-4.7", "CL-11", "CL-17")
def test_scoring_loot_then_tile() -> None:
    pos = Position(tiles={3: "hallowed-ground"}, banners={3: [A]}, loot={3: (1, 0, 0)}, acolytes={(3, A): 1})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    pos.add(E.BannerScored(player=A, space=3))
    assert pos.gold(A) == 1 + 2 and pos.sp(3).loot == 0


# == 5 resources ===============================================================================================

@covers("CL-5.1")
@covers("CL-24", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_paying_gold() -> None:
    pos = Position(traits={A: ["mercantile"]})
    rejects(pos.check(E.CardBought(player=A)), "CL-5.1", "not-enough-gold", "has 0")
    pos2 = Position(traits={A: ["mercantile"]}, gold={A: 1})
    accepts(pos2.add(E.CardBought(player=A)), "CL-7.2")


@covers("CL-5.2")
@covers("CL-18", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_hand_limit() -> None:
    pos = Position(hands={A: ["pilfer", "walk", "walk", "lure", "lure", "secure"]})
    pos.play("pilfer")
    pos.add(E.CardDrawn(player=A, card="secure"))
    pos.add(E.CardDrawn(player=A, card="short-rest"))
    assert isinstance(pos.head(), Discard)  # 7 cards: discard down to 6 at once
    rejects(pos.check(E.CardDiscarded(player=A, card="teleport")), "CL-5.2", "hand-limit")
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=12, to=13)), "CL-5.2", "out-of-step", "hand limit")  # the rule that owes the discard
    accepts(pos.add(E.CardDiscarded(player=A, card="walk")))
    assert len(pos.p(A).hand) == 6 and isinstance(pos.head(), Actions)


@covers("CL-5.3")
def test_trait_limit() -> None:
    pos = Position(traits={A: ["sly", "speedy"], B: ["abundant"]}, hands={A: ["steal"]})
    pos.play("steal", trait="abundant")
    rejects(pos.check(E.TraitDiscarded(player=A, trait="miserly")), "CL-5.3", "trait-cap")
    accepts(pos.add(E.TraitDiscarded(player=A, trait="sly")))
    assert pos.p(A).traits == ("speedy", "abundant")


@covers("CL-5.4", "CL-19")
def test_gaining_a_trait() -> None:
    pos = Position(banners={3: [A]}, loot={3: (0, 0, 1)}, trait_row=["sly", "speedy", "abundant"])
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    pos.add(E.BannerScored(player=A, space=3))
    rejects(pos.check(E.TraitTaken(player=A, trait="sly", source="deck")), "CL-5.4", "trait-choice")
    accepts(pos.add(E.TraitTaken(player=A, trait="miserly", source="deck")))
    assert pos.p(A).traits == ("miserly",)
    # no voluntary discard in this version (option)
    p2 = Position(traits={A: ["sly"]})
    rejects(p2.check(E.TraitDiscarded(player=A, trait="sly")), "CL-19", "no-voluntary-discard")
    p3 = Position(traits={A: ["sly"]}, options={"voluntary_trait_discard": True})
    accepts(p3.add(E.TraitDiscarded(player=A, trait="sly")))


@documents("CL-5.5", "CL-3", "CL-4")
def test_the_end_equal_turns() -> None:
    pos = Position([A, B, CC], hands={B: ["pity"]}, gold={A: 45}, turn_player=B)
    pos.play("pity", target=A)  # bob, the second player, pushes ann to 55
    assert [type(d).__name__ for d in pos.last_derived()][:1] == ["TargetReached"]
    assert pos.s.reached == (A,) and GAME.outcome(pos.s) is None
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=B, choice="deploy"))
    pos.passed()
    # cid still plays: every player takes the same number of turns
    assert pos.s.turn_player == CC and GAME.outcome(pos.s) is None
    pos.add(E.CardDrawn(player=CC, card="walk"))
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=CC, choice="deploy"))
    pos.passed()
    out = GAME.outcome(pos.s)
    assert out is not None and out.winner == A and out.reason == "gold"
    assert type(pos.last_derived()[-1]).__name__ == "GameEnded"


# == 6 cards ===================================================================================================

@covers("CL-6.1")
def test_cards_from_hand() -> None:
    pos = Position(hands={A: ["pilfer"]})
    rejects(pos.check(E.CardPlayed(player=A, card="walk")), "CL-6.1", "not-in-hand", "Walk")
    rejects(pos.check(E.CardPlayed(player=A, card="excalibur")), "CL-6.1", "unknown-card")
    accepts(pos.play("pilfer"), "CL-6.1")


@covers("CL-6.2")
def test_card_choices() -> None:
    pos = Position(hands={A: ["pilfer", "teleport", "lure"]})
    rejects(pos.check(E.CardPlayed(player=A, card="pilfer", space=3)), "CL-6.2", "bad-choice", "takes no space")
    rejects(pos.check(E.CardPlayed(player=A, card="teleport", target=B, space=14)), "CL-6.2", "bad-choice")
    rejects(pos.check(E.CardPlayed(player=A, card="lure", beast="wind-beast")), "CL-6.2", "no-choice")
    accepts(pos.play("teleport", target=B, space=20))


@covers("CL-6.3")
def test_speedy_and_dominate_limits() -> None:
    pos = Position(hands={A: ["dominate", "pilfer"]})
    pos.move(12, 13, "colossus")
    rejects(pos.check(E.CardPlayed(player=A, card="dominate")), "CL-6.3", "dominate-first")
    accepts(pos.play("pilfer"))


@covers("CL-6.4")
@covers("CL-37", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_later_choices_fit_the_text() -> None:
    pos = Position(colossi={A: 13, B: 20}, hands={A: ["influence"]})
    pos.play("influence")
    rejects(pos.check(E.Moved(player=A, piece="colossus", space=20, to=3, owner=B)), "CL-6.4", "influence", "allowed")
    accepts(pos.add(E.Moved(player=A, piece="colossus", space=20, to=21, owner=B)), "CL-6.4")


# == 7 Traits ==================================================================================================

@covers("CL-7.1")
def test_start_of_turn_traits() -> None:
    pos = Position(traits={B: ["sly"]})
    pos.end_actions()
    pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
    pos.passed()
    rejects(pos.check(E.PlayerNamed(player=B, target=B)), "CL-7.1", "sly")
    accepts(pos.add(E.PlayerNamed(player=B, target=A)), "CL-7.1")


@covers("CL-7.2")
def test_paid_trait_abilities() -> None:
    pos = Position(gold={A: 5})
    rejects(pos.check(E.ActionBought(player=A)), "CL-7.2", "no-boldness")
    rejects(pos.check(E.CardBought(player=A)), "CL-7.2", "no-mercantile")
    pos2 = Position(gold={A: 5}, traits={A: ["boldness"]})
    accepts(pos2.add(E.ActionBought(player=A)), "CL-7.2")


@covers("CL-7.3")
def test_alchemist() -> None:
    pos = Position(hands={A: ["walk"]})
    rejects(pos.check(E.Alchemized(player=A, what="card", item="walk")), "CL-7.3", "no-alchemist")
    pos2 = Position(hands={A: ["walk"]}, traits={A: ["alchemist"]})
    rejects(pos2.check(E.Alchemized(player=A, what="banner", space=3)), "CL-7.3", "nothing-to-turn")
    accepts(pos2.add(E.Alchemized(player=A, what="card", item="walk")), "CL-7.3")


@covers("CL-7.4")
@covers("CL-32", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_reactions() -> None:
    pos = Position(colossi={A: 6, B: 20}, acolytes={(0, B): 2}, traits={B: ["resurrecting"]}, hands={A: ["intimidate"]})
    pos.play("intimidate")
    rejects(pos.check(E.AcolytesResurrected(player=B, count=3)), "CL-7.4", "resurrecting")
    accepts(pos.add(E.AcolytesResurrected(player=B, count=2)), "CL-7.4")


@covers("CL-7.5")
def test_ludicrous_move_limit() -> None:
    pos = Position(traits={A: ["ludicrously-capacious"]})
    pos.move(12, 13, "colossus")
    accepts(pos.move(13, 14, "colossus"))
    rejects(pos.check(E.AcolyteSpawned(player=A, space=14)), "CL-7.5", "move-limit")


# == gaps: behaviour =============================================================================================

@documents("CL-1", "CL-36")
def test_the_island_is_data() -> None:
    hexb, sq = Q.board("hex27"), Q.board("square27")
    assert hexb.size == sq.size == 27
    assert sorted(len(a) for a in hexb.adj).count(6) == 11
    assert len(sq.adj[13]) == 8 and len(hexb.adj[13]) == 6


@documents("CL-6", "CL-7", "CL-29")
def test_road_step_by_step_and_effects_explore() -> None:
    pos = Position(colossi={A: 13, B: 2}, unexplored=[20], tile_deck=["volcano"], hands={A: ["teleport"]})
    pos.play("teleport", target=A, space=20)
    assert pos.head().__class__.__name__ == "Explore"


@documents("CL-8", "CL-9", "CL-10", "CL-20", "CL-21", "CL-22", "CL-23", "CL-26", "CL-27", "CL-28", "CL-31", "CL-33",
           "CL-34", "CL-35", "CL-38", "CL-39", "CL-12", "CL-13", "CL-5", "CL-24", "CL-46", "CL-47", "CL-48")
def test_gap_readings_are_exercised_by_the_content_and_option_tests() -> None:
    """The gap readings are shown by the card, tile and Trait tests and the option tests below
    (CL-23's, CL-46's and CL-47's options both ways in tests/test_colossi_options.py)."""
    from . import test_colossi_cards, test_colossi_options, test_colossi_tiles, test_colossi_traits

    assert test_colossi_options.test_a_trades_different_card_is_another_name_or_another_copy

    assert test_colossi_cards.TESTED and test_colossi_tiles.TESTED and test_colossi_traits.TESTED


# == ruleset options: each changes a verdict =========================================================================

def test_option_board() -> None:
    # 14 and 20 are neighbours on the hex island; 13 and 19 diagonal neighbours on the square island differ
    hexp = Position(colossi={A: 13, B: 2})
    sq = Position(colossi={A: 10, B: 2}, options={"board": "square27"})
    assert hexp.check(E.Moved(player=A, piece="colossus", space=13, to=19)).legal
    rejects(hexp.check(E.Moved(player=A, piece="colossus", space=13, to=20)), "CL-3.1", "not-adjacent")
    assert sq.check(E.Moved(player=A, piece="colossus", space=10, to=18)).legal  # diagonal on the square island


def test_option_end_mode() -> None:
    for mode, over in (("equal-turns", False), ("immediate", True)):
        pos = Position([A, B], hands={B: ["pity"]}, gold={A: 45}, turn_player=B, options={"end_mode": mode})
        pos.play("pity", target=A)
        assert (GAME.outcome(pos.s) is not None) == over
        r = pos.check(E.ActionsEnded(player=B))
        assert r.legal != over


def test_option_tie_and_gold_target() -> None:
    res = {}
    for tie in ("shared", "first-to-target"):
        pos = Position([A, B], hands={A: ["pity"]}, gold={A: 5, B: 0}, options={"tie": tie, "gold_target": 5,
                                                                               "end_mode": "equal-turns"})
        assert pos.s.reached == (A,)  # ann is at the target already
        pos.play("pity", target=B)  # bob gets 10, ann 5 more: a tie at 10
        pos.end_actions()
        pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
        pos.passed()
        pos.add(E.CardDrawn(player=B, card="walk"))
        pos.end_actions()
        pos.add(E.BannerPhaseChosen(player=B, choice="deploy"))
        pos.passed()
        res[tie] = GAME.outcome(pos.s)
    assert res["shared"].result == "draw" and res["first-to-target"].winner == A


def test_option_card_costs_action() -> None:
    for costs in (True, False):
        pos = Position(hands={A: ["pilfer"]}, options={"card_costs_action": costs})
        for a, b in ((12, 13), (13, 14), (14, 15), (15, 10)):
            pos.move(a, b, "colossus")
        assert pos.check(E.CardPlayed(player=A, card="pilfer")).legal == (not costs)


def test_option_loot_on_explore() -> None:
    for when in ("next-replenish", "immediate"):
        pos = Position(colossi={A: 12, B: 2}, unexplored=[13], tile_deck=["grass-gold"], hands={A: ["magnetize"]},
                       options={"loot_on_explore": when})
        pos.move(12, 13, "colossus")
        pos.add(E.TileExplored(space=13, tile="grass-gold"))
        pos.move(13, 14, "colossus")
        assert pos.check(E.CardPlayed(player=A, card="magnetize", space=13)).legal == (when == "immediate")


def test_option_beasts_enter_unexplored() -> None:
    for allow in (False, True):
        pos = Position(beasts={"time-beast": 20}, unexplored=[26], tile_deck=["grass-gold"],
                       options={"beasts_enter_unexplored": allow})
        pos.end_actions()
        assert pos.check(E.BeastMoved(player=A, beast="time-beast", to=26)).legal == allow


def test_option_beast_kills_on_space() -> None:
    for kills in (False, True):
        pos = Position(beasts={"time-beast": 13}, acolytes={(12, A): 1}, options={"beast_kills_on_space": kills})
        pos.move(12, 13)
        assert pos.check(E.Moved(player=A, piece="acolyte", space=13, to=14)).legal == (not kills)


def test_option_hand_limit_timing() -> None:
    for timing in ("immediate", "end-of-turn"):
        pos = Position(hands={A: ["pilfer", "walk", "walk", "lure", "lure", "secure"]}, options={"hand_limit_timing": timing})
        pos.play("pilfer")
        pos.add(E.CardDrawn(player=A, card="secure"))
        pos.add(E.CardDrawn(player=A, card="short-rest"))
        assert pos.check(E.Moved(player=A, piece="colossus", space=12, to=13)).legal == (timing == "end-of-turn")


def test_option_voluntary_trait_discard_is_in_test_gaining_a_trait() -> None:
    p2 = Position(traits={A: ["sly"]}, options={"voluntary_trait_discard": True})
    assert p2.check(E.TraitDiscarded(player=A, trait="sly")).legal
    assert not Position(traits={A: ["sly"]}).check(E.TraitDiscarded(player=A, trait="sly")).legal


def test_option_reshuffle_discard() -> None:
    for on in (True, False):
        # an empty deck and an empty discard pile: the draws are skipped (Pilfer is discarded after them)
        pos = Position(hands={A: ["pilfer"]}, deck=[], options={"reshuffle_discard": on})
        pos.play("pilfer")
        assert isinstance(pos.head(), Actions)
        # with Walk on the discard pile, the deck is refilled from it only when the option is on
        pos2 = Position(hands={A: ["pilfer", "walk"]}, deck=[], options={"reshuffle_discard": on},
                        traits={A: ["alchemist"]})
        pos2.add(E.Alchemized(player=A, what="card", item="walk"))  # walk goes to the discard pile
        pos2.play("pilfer")
        assert pos2.check(E.CardDrawn(player=A, card="walk")).legal == on


def test_option_forced_payment() -> None:
    for how in ("all-you-have", "nothing"):
        pos = Position(banners={13: [B]}, traits={A: ["mercantile"], B: ["extortionist"]}, gold={A: 1},
                       options={"forced_payment": how}, acolytes={(13, A): 1}, colossi={A: 12, B: 2})
        pos.end_actions()
        pos.add(E.BannerPhaseChosen(player=A, choice="deploy"))
        pos.add(E.BannerRaised(player=A, space=13))  # bob's Extortionist asks 2 Gold of ann, who has 1
        assert pos.gold(A) == (0 if how == "all-you-have" else 1)


def test_option_use_traits_and_presets() -> None:
    for ruleset, traits in (("standard", True), ("first-game", False)):
        m = Match(E.MatchStarted(game="colossi", players=[A, B], ruleset=ruleset))
        m.add(E.FirstPlayerDetermined(player=A))
        for _ in range(10):
            m.add(m.first_legal())
        assert m.check(E.CardDrawn(player=A, card="walk")).legal == (not traits)
    quick = Match(E.MatchStarted(game="colossi", players=[A, B], ruleset="immediate-win"))
    assert quick.s.options.end_mode == "immediate" and quick.s.options.use_traits


def test_unknown_option_and_board_are_unreadable() -> None:
    line = encode([setup(gold_target=5)]).replace(b'"gold_target":5', b'"max_gold":7')
    with pytest.raises(LogError) as exc:
        parse_log(line)
    assert exc.value.line == 1 and exc.value.field == "options.max_gold"
    with pytest.raises(LogError) as exc:
        parse_log(encode([setup(board="moon")]))
    assert exc.value.field == "options.board"
    with pytest.raises(LogError) as exc:
        parse_log(encode([E.MatchStarted(game="colossi", players=[A, B], ruleset="2099")]))
    assert exc.value.field == "ruleset"


# == meta ====================================================================================================

def test_never_rejects_ids_are_not_cited_by_a_rejection() -> None:
    import re
    from pathlib import Path

    src = "".join(p.read_text() for p in Path(Q.__file__).parent.glob("*.py"))
    cited = set(re.findall(r'bad\("(CL-[\d.]+)"', src)) | set(re.findall(r'\("(CL-[\d.]+)", "[a-z-]+", (?:True|False)', src))
    assert not (cited & set(NEVER_REJECTS)), cited & set(NEVER_REJECTS)
