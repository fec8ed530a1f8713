"""LOGOS rules, one rule id at a time, then the ruleset options.

Every id of ``rulebook.RULES`` is covered: a legal case (an event governed by the rule accepted
where it applies) and an illegal case (an event rejected with a ruling citing that id, the
expected ``logos/...`` code and a message quoting the facts).  Rules whose effects the engine
derives (the battle, the effects, the combo counter) cannot reject a decision; for them the legal
case is a log stating the derived events as the rule makes them, and the illegal case the same
log with one derived event stated otherwise, which the verifier rejects under LOG-2.  Those ids
are listed in ``NEVER_REJECTS`` with the reason.  ``tests/test_every_game.py`` fails when a
rule id has no test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.verify import run
from adjudicator.games.logos import events as E
from adjudicator.games.logos.rulebook import RULES
from tests.rulecov import RuleCoverage
from adjudicator.games.logos.commitments import commitment_of
from adjudicator.games.logos.values import beats

from .logos_scenarios import A, B, GAME, NS, Script, encode, salt, setup, verify_events

#: rule id -> what the tests of that id show ("legal", "illegal", "behaviour")
_COVERAGE = RuleCoverage(RULES, NS)
COVERED = _COVERAGE.covered
covers, documents = _COVERAGE.covers, _COVERAGE.documents
rejects, accepts, ruled = _COVERAGE.rejects, _COVERAGE.accepts, _COVERAGE.ruled


def derived_rule(*ids: str):
    """A behaviour test that also shows a legal log stating the derived events and a LOG-2 case."""
    return covers(*ids, legal=True, illegal=True, behaviour=True)

#: ids that never reject a decision, and why (each has a behaviour test, and where the rule
#: shapes a derived event, a LOG-2 case for a log that states that event otherwise)
NEVER_REJECTS: dict[str, str] = {
    "LG-35": "an unknown card is never illegal in itself: an unknown deck list under limits is an assumption stated once (tests/test_logos_unknowns.py)",
    "LG-40": "what an illegal event a judge lets stand does to the position: it never rejects (tests/test_logos_unknowns.py, tests/test_logos_ruling_props.py)",
    "LG-43": "a look is derived; what a record states of it is checked under LG-36 and LG-38 (tests/test_logos_looks.py)",
    "LG-42": "what a seat's record names of the cards an effect moved: a record states it, the rules it names cards under reject (LG-36, LG-38) (tests/test_seat_logos.py)",
    "LG-41": "what a seat keeps of events a judge took back: knowledge, never a ruling (tests/test_logos_ruling_props.py)",
    "LG-46": "a seat's record where the opponent's deck may have run out: the event is undetermined on the empty deck, never illegal for it (tests/test_audit_logos_records.py)",
    "LG-37": "a decision that needs an unknown card is undetermined; where no card could do, the rule it needs rejects it (LG-2.4, LG-4.1)",
    "LG-1.3": "the starting position is derived from the set-up",
    "LG-5.1": "the direction is derived (DirectionDetermined; LOG-2 if stated otherwise)",
    "LG-5.2": "the Speed rule and the Deadlock are derived",
    "LG-5.3": "damage is derived (StrikeResolved)",
    "LG-5.4": "the counter-attack is derived",
    "LG-6.1": "the combo push is derived (RoundEnded.pushed); its consequence is checked under LG-3.3",
    "LG-7.1": "the order of the effects is derived (EffectResolved)",
    "LG-7.2": "permanent effects are derived",
    "LG-7.3": "Neutralize is derived",
    "LG-7.4": "temporary effects are derived",
    "LG-7.5": "the second DirectionDetermined is derived",
    "LG-8.1": "the end of the match is derived (GameEnded; events after it are LOG-3)",
    "LG-8.2": "a resignation is legal at any time before the end (after it: LOG-3)",
    "LG-1": "an option feeding LG-1.3",
    "LG-2": "options feeding LG-1.3 and the slot effects",
    "LG-3": "options feeding LG-1.2 (the messages cite LG-3)",
    "LG-4": "a derived DeckRebuilt, or a draw refused under LG-2.2",
    "LG-5": "the first refill is LG-2.2",
    "LG-7": "an option feeding LG-3.3 and LG-6.1",
    "LG-8": "how LG-3.3 reads the counter (its message cites LG-8)",
    "LG-9": "derived combo pushes",
    "LG-10": "derived direction",
    "LG-11": "derived order of effects",
    "LG-12": "derived Deadlock",
    "LG-13": "derived counter-attacks",
    "LG-14": "derived strikes",
    "LG-15": "derived direction and strike against a defenseless player",
    "LG-16": "derived card movements",
    "LG-18": "eligibility is checked under LG-4.1 (its message cites LG-18)",
    "LG-19": "derived Regeneration",
    "LG-20": "derived Shuffle Hand",
    "LG-21": "derived slot effects",
    "LG-22": "derived Neutralize",
    "LG-23": "derived Mimmick",
    "LG-24": "derived Berserk",
    "LG-25": "derived stat effects",
    "LG-26": "derived Color Change",
    "LG-27": "a property of the derived events",
    "LG-28": "the derived result of a resignation",
    "LG-29": "derived ends of the match",
    "LG-30": "derived card movements",
    "LG-31": "derived direction of a Life card; its option feeds LG-1.2 (the message cites LG-31)",
    "LG-32": "pool data (a bad value makes the pool unreadable); Speed feeds LG-5.2 and LG-4.1",
    "LG-33": "pool data; an unmet indicator is refused under LG-3.3",
    "LG-34": "derived effects aimed by their field",
}



def stated(s: Script) -> bytes:
    """The script's log with every derived event stated."""
    return s.lines(with_derived=True)


def misstate(s: Script, kind: type, index: int = 0, *, rule: str = "LOG-2", **changes: Any) -> Any:
    """Verify the script's log stating derived events, with the ``index``-th derived ``kind``
    event changed; return the first violation (it must be ``rule``, LOG-2 by default, on that
    line; a changed GameEnded too: the consequences still owed are compared before anything is
    "after the end")."""
    assert s.verify(with_derived=True).verdict == "legal"
    events = s.all_events()
    hits = [i for i, e in enumerate(events) if type(e) is kind]
    i = hits[index]
    events[i] = msgspec.structs.replace(events[i], **changes)
    res = run(parse_log(encode(events)))
    assert res.violations, f"changing {kind.__name__} {changes} went unnoticed"
    v = res.violations[0]
    code = {"LOG-2": "core/derived-mismatch", "LOG-3": "core/after-end"}[rule]
    assert (v.rule, v.code, v.line) == (rule, code, i + 1), v
    _COVERAGE.ruled_all()
    return v


def duel(a: list[str], b: list[str], *, options: dict[str, Any] | None = None, fill: str = "white-wall",
         extra: int = 6, ruleset: str = "standard") -> Script:
    """A match whose first refill gives ann the cards ``a`` and ben ``b`` (the decks hold them
    plus ``extra`` copies of ``fill``); the first refill is done."""
    s = Script({A: a + [fill] * extra, B: b + [fill] * extra}, options=options, ruleset=ruleset)
    s.refill({A: list(a), B: list(b)})
    return s


# ==================================================================================================
# 1 set-up
# ==================================================================================================

@covers("LG-1.1")
def test_two_players() -> None:
    accepts(GAME.check_start(setup()), "LG-1.1")
    three = setup(players=[A, B, "cy"])
    rejects(GAME.check_start(three), "LG-1.1", "two-players", "3")
    res = verify_events([three])
    assert [(v.rule, v.line) for v in res.violations] == [("LG-1.1", 1)]
    # a one-player set-up is illegal too, and nothing can be played in it
    one = setup(players=[A])
    res = run(parse_log(encode([one, E.Resigned(player=A)])), keep_going=True)
    assert [v.rule for v in res.violations] == ["LG-1.1", "LG-1.1"]
    assert res.violations[1].code == NS + "no-match"


@covers("LG-1.2")
@covers("LG-3", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_deck_construction_limits() -> None:
    # no limits in the standard ruleset (LG-3)
    accepts(GAME.check_start(setup({A: ["iron-golem"] * 40, B: ["white-wall"]})))
    # the demo preset asks for exactly 25 cards
    ok = {A: {"iron-golem": 13, "storm-coil": 12}, B: {"white-wall": 25}}
    accepts(GAME.check_start(setup(ok, ruleset="demo")))
    short = {A: {"iron-golem": 12, "storm-coil": 12}, B: {"white-wall": 25}}
    rejects(GAME.check_start(setup(short, ruleset="demo")), "LG-1.2", "deck-size", "ann", "24", "25", "(LG-3)")
    # a copy limit
    accepts(GAME.check_start(setup(options={"max_copies": 4})))
    rejects(GAME.check_start(setup({B: {"white-wall": 5}}, options={"max_copies": 4})), "LG-1.2", "too-many-copies",
            "ben", "5 copies of White Wall", "4")


@derived_rule("LG-1.3", "LG-1", "LG-2", "LG-5")
def test_starting_position() -> None:
    s = Script()
    for p in s.s.players:
        assert (p.hp, len(p.slots), p.backup, p.combo) == (100_000, 3, None, (None, None, None))
    # LG-5: round 1 fills all three slots of each player, first player first; no mulligan
    assert GAME.to_act(s.s) == [A]
    s.refill({A: ["iron-golem"] * 3, B: ["storm-coil"] * 3})
    assert [p.slots for p in s.s.players] == [("iron-golem",) * 3, ("storm-coil",) * 3]
    assert s.s.phase == "pick"
    s.play("iron-golem", "storm-coil")
    assert s.hp(B) == 100_000 - (18_000 - 9_000)
    # the hit points a strike states follow from the starting hit points
    misstate(s, E.StrikeResolved, hp=191_000)
    s2 = Script(options={"start_hp": 50_000, "start_slots": 4})
    assert [(p.hp, len(p.slots)) for p in s2.s.players] == [(50_000, 4), (50_000, 4)]


# ==================================================================================================
# 2 the round: refill, defenseless
# ==================================================================================================

@covers("LG-2.1")
def test_only_the_expected_player_with_an_event_the_step_allows() -> None:
    s = Script()
    accepts(s.check(E.CardDrawn(player=A, card="iron-golem")), "LG-2.2")
    # ann skipping her own owed refill: the rule that owes it (LG-2.2); ben acting: whose turn it is
    rejects(s.check(E.CardCommitted(player=A, commitment="0" * 64)), "LG-2.2", "out-of-step", "card drawn by ann",
            "every empty slot takes a card")
    rejects(s.check(E.CardCommitted(player=B, commitment="0" * 64)), "LG-2.1", "out-of-step", "card drawn by ann")
    rejects(s.check(E.CardDrawn(player="cy", card="iron-golem")), "LG-2.1", "unknown-player", "'cy'")
    # a derived event proposed to check directly (propose answers LOG-2 before check sees it)
    rejects(GAME.check(s.s, E.RoundEnded(round=1)), "LG-2.1", "unexpected-event", "round ended")
    rejects(GAME.check(s.s, setup()), "LG-2.1", "unexpected-event", "match started")
    s.refill()
    s.commit(A, "iron-golem")
    s.commit(B, "storm-coil")
    rejects(s.check(E.CardDrawn(player=A, card="iron-golem")), "LG-2.2", "no-draw-owed", "pick revealed by ann and ben")


@covers("LG-2.2")
def test_refill_first_player_first_slots_left_to_right() -> None:
    s = Script()
    rejects(s.check(E.CardDrawn(player=B, card="iron-golem")), "LG-2.2", "wrong-drawer", "ann's empty slots", "3 to fill")
    s.draw("quiet-index", A)
    s.draw("iron-golem", A)
    assert s.player(A).slots == ("quiet-index", "iron-golem", None)
    s.draw("white-wall", A)
    accepts(s.check(E.CardDrawn(player=B, card="iron-golem")), "LG-2.2")
    s.refill()
    rejects(s.check(E.CardDrawn(player=A, card="iron-golem")), "LG-2.2", "no-draw-owed", "card committed by ann and ben")
    # after a round only the emptied slot is refilled
    s.play("quiet-index", "iron-golem")
    assert s.player(A).slots == (None, "iron-golem", "white-wall")
    s.draw("storm-coil", A)
    assert s.player(A).slots == ("storm-coil", "iron-golem", "white-wall")
    assert GAME.to_act(s.s) == [B]


@covers("LG-2.3")
def test_a_drawn_card_comes_from_the_deck() -> None:
    s = Script({A: ["iron-golem", "iron-golem", "storm-coil", "white-wall"], B: ["white-wall"] * 4})
    rejects(s.check(E.CardDrawn(player=A, card="quiet-index")), "LG-2.3", "not-in-deck", "Quiet Index", "4 cards left")
    s.draw("iron-golem", A)
    s.draw("iron-golem", A)
    rejects(s.check(E.CardDrawn(player=A, card="iron-golem")), "LG-2.3", "not-in-deck", "no Iron Golem", "2 cards left")
    accepts(s.check(E.CardDrawn(player=A, card="storm-coil")))


@covers("LG-2.4")
@covers("LG-15", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_no_playable_card_makes_a_player_defenseless() -> None:
    # magma-titan needs a MATTER card in the latest panel: an empty counter never matches it
    s = Script({A: ["magma-titan"] * 3 + ["iron-golem"] * 3, B: ["storm-coil"] * 6})
    s.refill({A: ["magma-titan"] * 3})
    assert s.last_derived() == [E.Defenseless(player=A, cards=["magma-titan"] * 3)]
    assert s.player(A).slots == (None, None, None) and s.player(A).discard == ("magma-titan",) * 3
    assert GAME.to_act(s.s) == [B]
    rejects(s.check(E.CardCommitted(player=A, commitment=commitment_of("magma-titan", "x"))), "LG-2.4", "defenseless",
            "no playable card")
    rejects(s.check(E.BackupAssigned(player=A, card="magma-titan")), "LG-2.4", "defenseless")
    accepts(s.commit(B, "storm-coil"))
    rejects(s.check(E.PickRevealed(player=A, card="magma-titan", salt="x")), "LG-2.4", "defenseless")
    s.reveal(B, "storm-coil")
    # LG-15: ben attacks a player without a card: Defense 0
    assert [type(d).__name__ for d in s.last_derived()][:1] == ["DirectionDetermined"]
    assert s.derived_of(E.DirectionDetermined)[0] == E.DirectionDetermined(stage="before-effects", basis="defenseless",
                                                                           attacker=B, defender=A)
    strike = s.derived_of(E.StrikeResolved)[0]
    assert (strike.attack, strike.defense, strike.damage) == (20_000, 0, 20_000)
    # the defenseless player's counter receives nothing
    assert s.derived_of(E.RoundEnded)[0].pushed == [E.ComboPush(counter=B, colours=["energy"])]
    assert s.verify().verdict == "legal"


# ==================================================================================================
# 3 the battle card
# ==================================================================================================

@covers("LG-3.1")
def test_one_card_per_player_per_round() -> None:
    s = duel(["iron-golem"] * 3, ["storm-coil"] * 3, options={"picks": "open"})
    accepts(s.add(E.CardPicked(player=A, card="iron-golem")), "LG-3.1")
    rejects(s.check(E.CardPicked(player=A, card="iron-golem")), "LG-3.1", "already-picked", "already sent")
    h = duel(["iron-golem"] * 3, ["storm-coil"] * 3)
    h.commit(A, "iron-golem")
    rejects(h.check(E.CardCommitted(player=A, commitment=commitment_of("iron-golem", "again"))), "LG-3.1",
            "already-picked", "already committed")
    h.commit(B, "storm-coil")
    rejects(h.check(E.CardCommitted(player=B, commitment=commitment_of("storm-coil", "again"))), "LG-3.1", "already-picked")


@covers("LG-3.2")
def test_the_battle_card_comes_from_a_slot() -> None:
    s = duel(["iron-golem", "storm-coil", "white-wall"], ["storm-coil"] * 3, options={"picks": "open"})
    rejects(s.check(E.CardPicked(player=A, card="quiet-index")), "LG-3.2", "not-in-slots", "Iron Golem, Storm Coil, White Wall")
    accepts(s.check(E.CardPicked(player=A, card="white-wall")))
    # hidden picks: a commitment to a card not in the slots fails when it is revealed
    h = duel(["iron-golem"] * 3, ["storm-coil"] * 3)
    h.commit(A, "quiet-index")
    h.commit(B, "storm-coil")
    rejects(h.check(E.PickRevealed(player=A, card="quiet-index", salt=salt(A, 1))), "LG-3.2", "not-in-slots", "Quiet Index")


@covers("LG-3.3", "LG-8", "LG-9", "LG-6.1")
def test_combo_requirement_against_the_counter() -> None:
    # magma-titan needs [matter, grey, grey]; archive-keeper [grey, information, information]
    a = ["iron-golem", "magma-titan", "archive-keeper"] + ["quiet-index"] * 5
    s = Script({A: a + ["white-wall"] * 6, B: ["storm-coil"] * 12}, options={"picks": "open"})
    s.refill({A: ["quiet-index", "magma-titan", "archive-keeper"]})
    # round 1: the counter is empty: an empty panel matches only grey (LG-8)
    rejects(s.check(E.CardPicked(player=A, card="magma-titan")), "LG-3.3", "combo-mismatch",
            "[matter, grey, grey]", "[empty, empty, empty]", "LG-8")
    s.play("quiet-index", "storm-coil")
    assert s.player(A).combo == ("information", None, None)
    s.refill({A: ["iron-golem"]})
    rejects(s.check(E.CardPicked(player=A, card="magma-titan")), "LG-3.3", "combo-mismatch", "[information, empty, empty]")
    s.play("iron-golem", "storm-coil")
    assert s.player(A).combo == ("matter", "information", None)
    s.refill({A: ["quiet-index"]})
    accepts(s.check(E.CardPicked(player=A, card="magma-titan")))
    # archive-keeper needs INFORMATION two and three rounds ago
    rejects(s.check(E.CardPicked(player=A, card="archive-keeper")), "LG-3.3", "combo-mismatch", "[matter, information, empty]")
    s.play("quiet-index", "storm-coil")
    s.refill({A: ["quiet-index"]})
    s.play("quiet-index", "storm-coil")
    assert s.player(A).combo == ("information", "information", "matter")
    s.refill({A: ["quiet-index"]})
    rejects(s.check(E.CardPicked(player=A, card="archive-keeper")), "LG-3.3", "combo-mismatch")
    s.play("quiet-index", "storm-coil")
    s.refill({A: ["white-wall"]})
    assert s.player(A).combo == ("information", "information", "information")
    accepts(s.check(E.CardPicked(player=A, card="archive-keeper")))
    s.play("white-wall", "storm-coil")
    s.refill({A: ["white-wall"]})
    # a Neutral card last round does not matter: the first panel is grey
    assert s.player(A).combo == ("neutral", "information", "information")
    accepts(s.check(E.CardPicked(player=A, card="archive-keeper")))
    # the push is derived: a log stating another colour is refused (LOG-2)
    misstate(s, E.RoundEnded, 0, pushed=[E.ComboPush(counter=A, colours=["energy"]), E.ComboPush(counter=B, colours=["energy"])])


@covers("LG-3.4", "LG-6")
def test_hidden_picks_commit_then_reveal() -> None:
    s = duel(["iron-golem"] * 3, ["storm-coil"] * 3)
    rejects(s.check(E.CardCommitted(player=A, commitment="iron-golem")), "LG-3.4", "bad-commitment", "64 lowercase hex")
    rejects(s.check(E.CardCommitted(player=A, commitment="A" * 64)), "LG-3.4", "bad-commitment")
    rejects(s.check(E.PickRevealed(player=A, card="iron-golem", salt="s")), "LG-3.4", "not-committed")
    accepts(s.commit(A, "iron-golem"), "LG-3.4")
    # nobody reveals before both have committed
    rejects(s.check(E.PickRevealed(player=A, card="iron-golem", salt=salt(A, 1))), "LG-3.4",
            "reveal-before-commitments", "before ben committed")
    s.commit(B, "storm-coil")
    rejects(s.check(E.PickRevealed(player=A, card="iron-golem", salt="wrong")), "LG-3.4", "commitment-mismatch",
            "Iron Golem with salt 'wrong'")
    rejects(s.check(E.PickRevealed(player=B, card="iron-golem", salt=salt(B, 1))), "LG-3.4", "commitment-mismatch")
    accepts(s.reveal(A, "iron-golem"), "LG-3.4")
    rejects(s.check(E.PickRevealed(player=A, card="iron-golem", salt=salt(A, 1))), "LG-3.4", "already-revealed")
    accepts(s.reveal(B, "storm-coil"))
    # LG-6: the log form must be the ruleset's
    rejects(s.copy().check(E.CardPicked(player=A, card="iron-golem")), "LG-6", "commitment-required")
    o = duel(["iron-golem"] * 3, ["storm-coil"] * 3, options={"picks": "open"})
    rejects(o.check(E.CardCommitted(player=A, commitment=commitment_of("iron-golem", "x"))), "LG-6", "open-picks")
    rejects(o.check(E.PickRevealed(player=A, card="iron-golem", salt="x")), "LG-6", "open-picks")
    accepts(o.check(E.CardPicked(player=A, card="iron-golem")), "LG-3.1")


def test_commitment_is_sha256_of_card_colon_salt() -> None:
    import hashlib

    assert commitment_of("iron-golem", "abc") == hashlib.sha256(b"iron-golem:abc").hexdigest()


# ==================================================================================================
# 4 the Backup Slot
# ==================================================================================================

@covers("LG-4.1", "LG-17")
@covers("LG-18", illegal=False, behaviour=True)  # shown illegal under the rule the ruling cites
def test_backup_assignment() -> None:
    s = duel(["spark-wisp", "iron-golem", "solar-flare"], ["storm-coil"] * 3)
    # Speed 85 is not enough; solar-flare has a combo requirement (Speed 90 anyway)
    rejects(s.check(E.BackupAssigned(player=A, card="iron-golem")), "LG-4.1", "not-eligible", "Speed 40")
    rejects(s.check(E.BackupAssigned(player=A, card="quiet-index")), "LG-4.1", "not-in-slots", "Spark Wisp, Iron Golem, Solar Flare")
    accepts(s.assign(A, "spark-wisp"), "LG-4.1")
    assert s.player(A).backup == "spark-wisp" and s.player(A).slots == (None, "iron-golem", "solar-flare")
    s2 = duel(["spark-wisp", "quake-hammer", "iron-golem"], ["storm-coil"] * 3)
    s2.assign(A, "spark-wisp")
    rejects(s2.check(E.BackupAssigned(player=A, card="quake-hammer")), "LG-4.1", "backup-occupied", "LG-18")
    # after the pick: too late
    s3 = duel(["spark-wisp", "iron-golem", "iron-golem"], ["storm-coil"] * 3)
    s3.commit(A, "iron-golem")
    rejects(s3.check(E.BackupAssigned(player=A, card="spark-wisp")), "LG-4.1", "after-pick")
    # outside Phase 1
    s4 = Script()
    rejects(s4.check(E.BackupAssigned(player=A, card="iron-golem")), "LG-4.1", "backup-timing", "Phase 1")
    # phoenix-core: Speed 110 but a combo requirement
    s5 = duel(["phoenix-core", "iron-golem", "iron-golem"], ["storm-coil"] * 3)
    rejects(s5.check(E.BackupAssigned(player=A, card="phoenix-core")), "LG-4.1", "not-eligible",
            "[information, information, grey]")
    # LG-17: the last playable card must go into battle
    s6 = duel(["spark-wisp", "magma-titan", "magma-titan"], ["storm-coil"] * 3)
    rejects(s6.check(E.BackupAssigned(player=A, card="spark-wisp")), "LG-17", "last-playable", "last playable card")


@covers("LG-4.2", "LG-30", "LG-16")
def test_backup_call_replaces_the_battle_card() -> None:
    s = duel(["spark-wisp", "iron-golem", "iron-golem"], ["quiet-index"] * 3)
    rejects(s.check(E.BackupCalled(player=A)), "LG-4.2", "no-window", "card committed by ann and ben")
    s.assign(A, "spark-wisp")
    s.play("iron-golem", "quiet-index", passes=False)
    # INFORMATION beats MATTER: ben attacks, and ann (the Defender) is asked first
    assert s.s.direction.attacker == B and s.window() == A
    rejects(s.check(E.BackupCalled(player=B)), "LG-4.2", "not-asked", "ann is asked now")
    rejects(s.check(E.BackupPassed(player=B)), "LG-4.2", "not-asked")
    accepts(s.call(A), "LG-4.2")
    # spark-wisp (ENERGY) replaces iron-golem and its right field (swap-values) fires; ENERGY
    # beats INFORMATION, so the direction turns and ann attacks
    kinds = [type(d).__name__ for d in s.last_derived()]
    assert kinds[:2] == ["EffectResolved", "DirectionDetermined"], kinds
    assert s.last_derived()[1] == E.DirectionDetermined(stage="after-effects", basis="class", attacker=A, defender=B)
    strike = s.derived_of(E.StrikeResolved)[0]
    assert (strike.striker, strike.attack, strike.defense) == (A, 6000, 8000)  # swapped 14000/6000
    # LG-16 / LG-30: the replaced card and the Backup card end in the discard pile
    assert s.player(A).discard == ("iron-golem", "spark-wisp") and s.player(A).backup is None
    assert s.check(E.BackupCalled(player=A)).code == NS + "no-window"
    # no effect fired before the call, so the direction was determined once before it
    assert [d.stage for d in s.derived_of(E.DirectionDetermined)] == ["before-effects", "after-effects"]
    misstate(s, E.DirectionDetermined, 1, attacker=B, defender=A)


def test_backup_window_asks_each_player_with_a_backup_card() -> None:
    s = duel(["spark-wisp", "iron-golem", "iron-golem"], ["data-ghost", "quiet-index", "quiet-index"])
    s.assign(A, "spark-wisp")
    s.assign(B, "data-ghost")
    s.play("iron-golem", "quiet-index", passes=False)
    assert s.window() == A  # the defender first
    s.pass_(A)
    assert s.window() == B
    s.call(B)
    # after a call the window opens again for those who still hold a Backup card
    assert s.window() == A
    s.pass_(A)
    assert s.window() is None and s.s.phase == "refill"


# ==================================================================================================
# 5 the battle
# ==================================================================================================

@derived_rule("LG-5.1", "LG-10")
def test_direction_from_the_classes() -> None:
    order = ["matter", "energy", "information"]
    for i, x in enumerate(order):
        assert beats(x, order[(i + 1) % 3]) and not beats(order[(i + 1) % 3], x)
    for x in order:
        assert beats("life", x) and beats(x, "neutral") and not beats("neutral", x) and not beats(x, "life")
    assert beats("life", "neutral") and not beats("neutral", "life")
    assert not any(beats(x, x) for x in order + ["neutral", "life"])
    s = duel(["storm-coil"] * 3, ["iron-golem"] * 3)
    s.play("storm-coil", "iron-golem")
    assert s.derived_of(E.DirectionDetermined)[0] == E.DirectionDetermined(stage="before-effects", basis="class", attacker=B, defender=A)
    assert s.verify(with_derived=True).verdict == "legal"
    misstate(s, E.DirectionDetermined, 0, attacker=A, defender=B)
    # LG-10: Neutral against Neutral uses Speed
    n = duel(["white-wall"] * 3, ["pale-mender"] * 3)
    n.play("white-wall", "pale-mender")
    assert n.derived_of(E.DirectionDetermined)[0].basis == "speed"


@derived_rule("LG-5.2", "LG-12")
def test_same_class_speed_and_deadlock() -> None:
    s = duel(["iron-golem"] * 3, ["rust-swarm"] * 3)  # both MATTER, Speed 40 and 80
    s.play("iron-golem", "rust-swarm")
    assert s.derived_of(E.DirectionDetermined)[0] == E.DirectionDetermined(stage="before-effects", basis="speed", attacker=B, defender=A)
    # the same card on both sides: Deadlock; LG-12: no effects, no strike, no push
    d = duel(["rust-swarm"] * 3, ["rust-swarm"] * 3)
    d.play("rust-swarm", "rust-swarm")
    assert [type(x).__name__ for x in d.last_derived()] == ["DirectionDetermined", "RoundEnded"]
    assert d.last_derived()[0] == E.DirectionDetermined(stage="before-effects", basis="deadlock")
    assert d.player(A).combo == (None, None, None) and d.hp(A) == d.hp(B) == 100_000
    misstate(d, E.DirectionDetermined, 0, basis="speed", attacker=A, defender=B)


@derived_rule("LG-5.3")
def test_damage_is_attack_minus_defense_when_positive() -> None:
    s = duel(["iron-golem"] * 3, ["storm-coil"] * 3)
    s.play("iron-golem", "storm-coil")
    assert s.derived_of(E.StrikeResolved) == [E.StrikeResolved(striker=A, target=B, attack=18_000, defense=9_000, damage=9_000, hp=91_000)]
    w = duel(["storm-coil"] * 3, ["white-wall"] * 3)  # white-wall: Defense 24,000 > 20,000
    w.play("storm-coil", "white-wall")
    assert w.derived_of(E.StrikeResolved)[0].damage == 0 and w.hp(B) == 100_000
    misstate(s, E.StrikeResolved, damage=8_000)


@derived_rule("LG-5.4", "LG-13", "LG-14")
def test_counter_attack_when_the_first_strike_does_no_damage() -> None:
    # stone-sentinel maximizes itself to 19,000/19,000; iron-golem (faster) hits 18,000 into it
    s = duel(["stone-sentinel"] * 3, ["iron-golem"] * 3)
    s.play("stone-sentinel", "iron-golem")
    assert s.derived_of(E.StrikeResolved) == [
        E.StrikeResolved(striker=B, target=A, attack=18_000, defense=19_000, damage=0, hp=100_000),
        E.StrikeResolved(striker=A, target=B, attack=19_000, defense=12_000, damage=7_000, hp=93_000, counter=True),
    ]
    # LG-13: at most one counter-attack even when it does no damage either
    w = duel(["white-wall"] * 3, ["pale-mender"] * 3)
    w.play("white-wall", "pale-mender")
    assert [x.damage for x in w.derived_of(E.StrikeResolved)] == [0, 0]
    # LG-14: different classes never counter-attack
    c = duel(["storm-coil"] * 3, ["white-wall"] * 3)
    c.play("storm-coil", "white-wall")
    assert len(c.derived_of(E.StrikeResolved)) == 1
    # LG-14: a first strike that does damage is not answered
    d = duel(["iron-golem"] * 3, ["rust-swarm"] * 3)
    d.play("iron-golem", "rust-swarm")
    assert len(d.derived_of(E.StrikeResolved)) == 1
    misstate(s, E.StrikeResolved, 1, counter=False)


# ==================================================================================================
# 7 effects
# ==================================================================================================

@derived_rule("LG-7.1", "LG-11")
def test_defender_effects_first_left_then_right() -> None:
    # ivory-scribe (neutral, defender): left double-combo, right shuffle-hand; rust-swarm attacks
    s = duel(["ivory-scribe", "iron-golem", "white-wall"], ["rust-swarm"] * 3)
    s.play("ivory-scribe", "rust-swarm")
    fx = s.derived_of(E.EffectResolved)
    assert [(e.player, e.field, e.effect, e.target) for e in fx] == [
        (A, "left", "double-combo", B), (A, "right", "shuffle-hand", A), (B, "left", "destroy-combo", A)]
    misstate(s, E.EffectResolved, 0, target=A)


@derived_rule("LG-7.2", "LG-19", "LG-20", "LG-21")
def test_permanent_effects() -> None:
    # Add Card Slot (tide-turbine, right)
    s = duel(["tide-turbine"] * 3, ["iron-golem"] * 3)
    s.play("tide-turbine", "iron-golem")
    assert len(s.player(A).slots) == 4 and s.derived_of(E.EffectResolved)[0].value == 4
    # Remove Card Slot (forge-breaker needs MATTER two rounds ago; hollow-echo has it too)
    r = duel(["hollow-echo"] * 3, ["quiet-index", "iron-golem", "storm-coil"])
    r.play("hollow-echo", "quiet-index")
    # ben's slot of quiet-index is empty: that slot goes (LG-21)
    assert r.player(B).slots == ("iron-golem", "storm-coil") and r.player(B).discard == ("quiet-index",)
    # Regeneration: Attack + Defense of its card, capped at the starting hit points (LG-19)
    g = duel(["storm-coil", "storm-coil", "pale-mender"], ["iron-golem"] * 6)
    g.play("storm-coil", "iron-golem")  # ann loses 18,000 - 9,000
    assert g.hp(A) == 91_000
    g.refill()
    g.play("pale-mender", "iron-golem")  # heals 15,000 up to 100,000, then takes 18,000 - 12,000
    regen = g.derived_of(E.EffectResolved)[-1]
    assert (regen.effect, regen.value) == ("regeneration", 9_000)
    assert g.hp(A) == 100_000 - 6_000
    # Shuffle Hand (arc-lancer, left): ben's cards in the slots go to the discard pile (LG-20)
    h = duel(["arc-lancer"] * 3, ["quiet-index", "white-wall", "storm-coil"])
    h.play("arc-lancer", "quiet-index")
    assert h.player(B).slots == (None, None, None) and h.player(B).discard == ("white-wall", "storm-coil", "quiet-index")
    assert GAME.to_act(h.s) == [A]  # ann refills 1 slot, then ben 3
    h.refill()
    assert h.player(B).slots.count(None) == 0
    # Destroy Combo (rust-swarm, left)
    c = duel(["quiet-index"] * 6, ["rust-swarm"] * 6, options={"picks": "open"})
    c.play("quiet-index", "rust-swarm")
    assert c.player(A).combo == ("information", None, None)
    c.refill()
    c.play("quiet-index", "rust-swarm")
    assert c.player(A).combo == ("information", None, None)  # emptied, then this round's push
    # Destroy Backup (quake-hammer, left)
    b = duel(["quake-hammer", "iron-golem", "iron-golem"], ["spark-wisp", "storm-coil", "storm-coil"])
    b.assign(B, "spark-wisp")
    b.play("quake-hammer", "storm-coil")
    assert b.player(B).backup is None and "spark-wisp" in b.player(B).discard
    misstate(g, E.EffectResolved, -1, value=15_000)


@derived_rule("LG-7.3", "LG-22")
def test_neutralize_shields_the_target() -> None:
    # blank-shield (right: Neutralize its owner) against null-prism (left: Swap Values), both
    # Neutral: blank-shield (Speed 100) attacks, null-prism (Speed 65) defends
    s = duel(["blank-shield"] * 3, ["null-prism"] * 3)
    s.play("blank-shield", "null-prism")
    # null-prism (slower) defends: its swap on ann's card fires first, then ann's shield cancels it
    fx = s.derived_of(E.EffectResolved)
    assert [(e.player, e.effect, e.target, e.result) for e in fx] == [
        (B, "swap-values", A, "applied"), (A, "neutralize", A, "applied")]
    strike = s.derived_of(E.StrikeResolved)[0]
    assert (strike.striker, strike.attack) == (A, 0)  # blank-shield is back at 0/18,000
    # ENERGY (static-field) attacks INFORMATION (signal-jammer): ben's Neutralize shields ann
    # first; ann's own Neutralize still fires, because it aims at ben
    t = duel(["static-field"] * 3, ["signal-jammer"] * 3)
    t.play("static-field", "signal-jammer")
    fx = t.derived_of(E.EffectResolved)
    assert [(e.player, e.target, e.result) for e in fx] == [(B, A, "applied"), (A, B, "applied")]
    # a later effect aimed at a shielded player is blocked: ben shields ann with signal-jammer,
    # then ann's own right field (tide-turbine's Add Card Slot) aims at ann
    u = duel(["tide-turbine"] * 3, ["signal-jammer"] * 3)  # ENERGY attacks INFORMATION
    u.play("tide-turbine", "signal-jammer")
    fx = u.derived_of(E.EffectResolved)
    assert [(e.player, e.effect, e.target, e.result) for e in fx] == [
        (B, "neutralize", A, "applied"), (A, "add-card-slot", A, "blocked")]
    assert len(u.player(A).slots) == 3
    misstate(s, E.EffectResolved, 1, result="blocked")


@derived_rule("LG-7.4", "LG-23", "LG-24", "LG-25", "LG-26")
def test_temporary_effects() -> None:
    # Minimize (logic-bomb, left) on iron-golem: 12,000/12,000; swap (null-prism) etc.
    s = duel(["logic-bomb"] * 3, ["iron-golem"] * 3)
    s.play("logic-bomb", "iron-golem")  # information beats matter: ann attacks 22,000 into 12,000
    assert s.derived_of(E.StrikeResolved)[0].defense == 12_000
    # Mimmick (data-ghost, left) copies rust-swarm's left field (destroy-combo) at ben
    m = duel(["quiet-index", "data-ghost", "data-ghost"], ["iron-golem", "rust-swarm", "rust-swarm"], options={"picks": "open"})
    m.play("quiet-index", "iron-golem")
    assert m.player(B).combo == ("matter", None, None)
    m.refill()
    m.play("data-ghost", "rust-swarm")
    fx = m.derived_of(E.EffectResolved)
    assert [(e.player, e.effect, e.copied, e.target, e.result) for e in fx] == [
        (B, "destroy-combo", None, A, "applied"), (A, "mimmick", "destroy-combo", B, "applied")]
    # Mimmick of an empty field does nothing
    n = duel(["mirror-protocol"] * 3, ["iron-golem"] * 3)
    n.play("mirror-protocol", "iron-golem")
    assert n.derived_of(E.EffectResolved)[0].result == "no-change"
    # Berserk below 25,000 hit points only (LG-24)
    k = duel(["dynamo-knight"] * 3, ["iron-golem"] * 3)
    k.play("dynamo-knight", "iron-golem")
    assert k.derived_of(E.EffectResolved)[0].result == "no-change"
    # Color Change only from the named class (LG-26)
    c = duel(["ember-convert"] * 3, ["storm-coil"] * 3)
    c.play("ember-convert", "storm-coil")
    assert c.derived_of(E.EffectResolved)[0].result == "no-change"
    # temporary effects end with the round
    assert all(p.mods == () for p in s.s.players)
    misstate(m, E.EffectResolved, 1, copied="minimize")


@derived_rule("LG-7.5")
def test_color_change_flips_the_direction() -> None:
    s = duel(["ember-convert"] * 3, ["quiet-index"] * 3)
    s.play("ember-convert", "quiet-index")
    dirs = s.derived_of(E.DirectionDetermined)
    assert dirs == [
        E.DirectionDetermined(stage="before-effects", basis="class", attacker=B, defender=A),
        E.DirectionDetermined(stage="after-effects", basis="class", attacker=A, defender=B)]
    assert s.derived_of(E.StrikeResolved)[0] == E.StrikeResolved(striker=A, target=B, attack=14_000, defense=8_000, damage=6_000, hp=94_000)
    # the counter receives the changed colour (LG-9)
    assert s.player(B).combo == ("energy", None, None)
    misstate(s, E.DirectionDetermined, 1, attacker=B, defender=A)


# ==================================================================================================
# 8 end of the match
# ==================================================================================================

@derived_rule("LG-8.1")
def test_hit_points_at_zero_end_the_match() -> None:
    s = duel(["iron-golem"] * 3, ["storm-coil"] * 3, options={"start_hp": 9_000})
    s.play("iron-golem", "storm-coil")
    assert s.last_derived()[-1] == E.GameEnded(result="win", winner=A, reason="hit-points")
    assert s.verify().outcome.winner == A
    events = s.events() + [E.CardDrawn(player=A, card="iron-golem")]
    v = verify_events(events).violations[0]
    assert v.rule == "LOG-3"
    misstate(s, E.GameEnded, winner=B)  # the wrong winner is LOG-2 at its line, not LOG-3


@covers("LG-8.2", "LG-28", illegal=False, behaviour=True)  # a resignation is never illegal in itself (after the end: LOG-3)
def test_resign_at_any_time() -> None:
    s = Script()
    accepts(s.check(E.Resigned(player=B)), "LG-8.2")
    s.add(E.Resigned(player=B))
    assert s.last_derived() == [E.GameEnded(result="draw", winner=None, reason="resignation")]
    v = verify_events(s.events() + [E.Resigned(player=A)]).violations[0]
    assert (v.rule, v.code) == ("LOG-3", "core/after-end")


# ==================================================================================================
# the other gaps
# ==================================================================================================

@derived_rule("LG-4")
def test_an_empty_deck_takes_the_discard_pile() -> None:
    s = Script({A: ["iron-golem"] * 4, B: ["storm-coil"] * 12})
    s.round("iron-golem", "storm-coil")
    assert E.DeckRebuilt not in map(type, s.derived())
    s.round("iron-golem", "storm-coil")
    # ann's deck is empty and a slot waits: the two cards of the discard pile become the deck
    assert s.last_derived()[-1] == E.DeckRebuilt(player=A, count=2)
    assert s.player(A).deck == ("iron-golem", "iron-golem") and s.player(A).discard == ()
    s.refill()
    assert s.player(A).slots == ("iron-golem",) * 3 and s.player(A).deck == ("iron-golem",)
    misstate(s, E.DeckRebuilt, count=3)


@documents("LG-27")
def test_one_event_changes_one_players_hit_points() -> None:
    from adjudicator.core.kernel.playout import playout

    for seed in range(5):
        events, _ = playout(GAME, seed, max_events=2000, with_derived=True)
        for e in events:
            if isinstance(e, E.GameEnded):
                assert e.result == "win" or e.reason != "hit-points"


def test_a_stall_ends_the_match() -> None:
    s = Script({A: ["magma-titan"] * 9, B: ["magma-titan"] * 9})
    s.refill()
    s.refill()
    s.refill()
    assert s.s.result is not None and (s.s.result.result, s.s.result.reason) == ("draw", "stall")
    assert s.s.round == 4
    # an empty deck list is a deck list the record leaves unknown (LG-35): the engine derives no
    # round from it, it waits for the record's draws
    t = Script({A: {}, B: {}})
    assert t.s.result is None and t.s.phase == "refill"
    assert [p.deck_open for p in t.s.players] == [True, True]


# ==================================================================================================
# ruleset options: each one changes a verdict on the same log (every option is shown to change a
# ruling by tests/test_options_behaviour.py; these show the reading of each)
# ==================================================================================================

def under(events: list[Any], **options: Any) -> Any:
    """Verify ``events`` with the options of their MatchStarted changed."""
    first = events[0]
    out = [msgspec.structs.replace(first, options={**first.options, **options})] + list(events[1:])
    return verify_events(out)


def first_violation(res: Any) -> tuple[str, str]:
    v = res.violations[0]
    return v.rule, v.code


def test_option_start_hp() -> None:
    s = duel(["iron-golem"] * 3, ["storm-coil"] * 3)
    s.play("iron-golem", "storm-coil")
    s.refill()
    assert under(s.events()).verdict == "legal"
    res = under(s.events(), start_hp=9_000)
    assert first_violation(res) == ("LOG-3", "core/after-end")  # ben's 9,000 are gone in round 1


def test_option_start_slots() -> None:
    s = Script({A: ["iron-golem"] * 6, B: ["storm-coil"] * 6}, options={"start_slots": 4})
    s.refill()
    assert under(s.events()).verdict == "legal"
    res = under(s.events(), start_slots=3)
    assert first_violation(res) == ("LG-2.2", "logos/wrong-drawer")  # ann's 4th draw


def test_option_min_slots() -> None:
    s = duel(["hollow-echo"] * 3, ["quiet-index", "iron-golem", "storm-coil"], options={"min_slots": 3})
    s.play("hollow-echo", "quiet-index")
    s.refill()
    assert len(s.player(B).slots) == 3
    assert under(s.events()).verdict == "legal"
    res = under(s.events(), min_slots=1)  # ben's empty slot is removed: no draw owed to ben
    assert first_violation(res) == ("LG-2.2", "logos/no-draw-owed")


def test_option_max_slots() -> None:
    s = duel(["tide-turbine"] * 3, ["iron-golem"] * 3)
    s.play("tide-turbine", "iron-golem")
    s.refill()
    assert len(s.player(A).slots) == 4
    res = under(s.events(), max_slots=3)  # no fourth slot: ann's second draw is ben's turn
    assert first_violation(res) == ("LG-2.2", "logos/wrong-drawer")


def test_option_deck_limits() -> None:
    log = [setup({A: {"iron-golem": 24}, B: {"white-wall": 24}})]
    assert under(log).verdict == "legal"
    assert under(log, deck_size=24).verdict == "legal"
    assert first_violation(under(log, deck_size=25)) == ("LG-1.2", "logos/deck-size")
    assert first_violation(under(log, max_copies=4)) == ("LG-1.2", "logos/too-many-copies")


def test_option_on_empty_deck() -> None:
    s = Script({A: ["iron-golem"] * 4, B: ["storm-coil"] * 12})
    s.round("iron-golem", "storm-coil")
    s.round("iron-golem", "storm-coil")
    s.refill()
    assert under(s.events()).verdict == "legal"
    res = under(s.events(), on_empty_deck="stay-empty")  # the slot stays empty: ben draws next
    assert first_violation(res) == ("LG-2.2", "logos/wrong-drawer")


def test_option_picks() -> None:
    s = duel(["iron-golem"] * 3, ["storm-coil"] * 3, options={"picks": "open"})
    s.play("iron-golem", "storm-coil")
    assert under(s.events()).verdict == "legal"
    assert first_violation(under(s.events(), picks="commit-reveal")) == ("LG-6", "logos/commitment-required")
    h = duel(["iron-golem"] * 3, ["storm-coil"] * 3)
    h.play("iron-golem", "storm-coil")
    assert first_violation(under(h.events(), picks="open")) == ("LG-6", "logos/open-picks")


@documents("LG-7")
def test_option_combo_counter() -> None:
    # round 1: ann's ENERGY attacks ben's INFORMATION; round 2: ben plays archive-oracle, which
    # needs INFORMATION in the latest panel
    s = duel(["storm-coil"] * 3, ["quiet-index", "archive-oracle", "quiet-index"])
    s.play("storm-coil", "quiet-index")
    s.refill()
    s.play("storm-coil", "archive-oracle")
    assert under(s.events()).verdict == "legal"
    # one shared counter: ben's INFORMATION (the Defender's) then ann's ENERGY: [energy, information]
    res = under(s.events(), combo_counter="shared")
    assert first_violation(res) == ("LG-3.3", "logos/combo-mismatch")
    assert "[energy, information, empty]" in res.violations[0].message


def test_option_push_on_deadlock() -> None:
    s = duel(["rust-swarm", "magma-titan", "iron-golem"], ["rust-swarm"] * 3, options={"push_on_deadlock": True})
    s.play("rust-swarm", "rust-swarm")
    s.refill()
    s.play("magma-titan", "rust-swarm")  # needs MATTER last round: the Deadlock pushed it
    assert under(s.events()).verdict == "legal"
    assert first_violation(under(s.events(), push_on_deadlock=False)) == ("LG-3.3", "logos/combo-mismatch")


def derived_part(res) -> str:
    """What a LOG-2 message says the engine derived (the event in the game's notation)."""
    msg = res.violations[0].message
    assert " but the engine derive" in msg, msg
    return msg.split(" but the engine derive", 1)[1]


def test_option_effect_and_field_order() -> None:
    s = duel(["ivory-scribe", "iron-golem", "white-wall"], ["rust-swarm"] * 3)
    s.play("ivory-scribe", "rust-swarm")
    log = list(s.all_events())
    assert under(log).verdict == "legal"
    res = under(log, effect_order="attacker-first")
    assert first_violation(res) == ("LOG-2", "core/derived-mismatch")
    assert "ben" in derived_part(res)  # the Attacker's destroy-combo comes first
    res = under(log, field_order="right-then-left")
    assert "right" in derived_part(res) and "shuffle" in derived_part(res).lower()


def test_option_deadlock_before_effects() -> None:
    s = duel(["rust-swarm"] * 6, ["rust-swarm"] * 6)
    s.play("rust-swarm", "rust-swarm")
    log = list(s.all_events())
    assert under(log).verdict == "legal"
    res = under(log, deadlock_before_effects=False)  # the effects fire in a Deadlock too
    assert first_violation(res) == ("LOG-2", "core/derived-mismatch")
    assert "effect" in derived_part(res).lower()


def test_option_max_counters() -> None:
    s = duel(["white-wall"] * 3, ["pale-mender"] * 3)
    s.play("white-wall", "pale-mender")
    log = list(s.all_events())
    assert under(log).verdict == "legal"
    res = under(log, max_counters=2)  # a second counter-attack (by pale-mender) follows
    assert first_violation(res) == ("LOG-2", "core/derived-mismatch")
    assert "ben counters" in derived_part(res)  # (the notation: "ben counters ann: ...")
    assert first_violation(under(log, max_counters=0)) == ("LOG-2", "core/derived-mismatch")


def test_option_defenseless_defense() -> None:
    s = Script({A: ["magma-titan"] * 3 + ["iron-golem"] * 3, B: ["storm-coil"] * 6})
    s.refill({A: ["magma-titan"] * 3})
    s.play(None, "storm-coil")
    log = list(s.all_events())
    assert under(log).verdict == "legal"
    res = under(log, defenseless_defense=5_000)
    assert first_violation(res) == ("LOG-2", "core/derived-mismatch")
    assert "damage 15,000" in derived_part(res)


def test_option_backup_call_order() -> None:
    s = duel(["spark-wisp", "iron-golem", "iron-golem"], ["data-ghost", "quiet-index", "quiet-index"])
    s.assign(A, "spark-wisp")
    s.assign(B, "data-ghost")
    s.play("iron-golem", "quiet-index", passes=False)
    s.pass_(A)  # ann defends: asked first
    assert under(s.events()).verdict == "legal"
    res = under(s.events(), backup_call_order="attacker-first")
    assert first_violation(res) == ("LG-4.2", "logos/not-asked")
    assert "ben is asked now" in res.violations[0].message


def test_option_hp_cap() -> None:
    s = duel(["pale-mender"] * 3, ["quiet-index"] * 3)
    s.play("pale-mender", "quiet-index")
    regen = s.derived_of(E.EffectResolved)[0]
    assert (regen.result, regen.value) == ("no-change", 0)  # already at 100,000
    log = list(s.all_events())
    res = under(log, hp_cap="none")
    assert first_violation(res) == ("LOG-2", "core/derived-mismatch")
    assert "value 15,000" in derived_part(res)


def test_option_shuffle_hand_to() -> None:
    s = duel(["arc-lancer"] * 3, ["quiet-index", "logic-bomb", "cipher-drone"], fill="white-wall",
             options={"shuffle_hand_to": "deck"})
    s.play("arc-lancer", "quiet-index")
    s.refill({B: ["logic-bomb"]})  # back in the deck
    assert under(s.events()).verdict == "legal"
    res = under(s.events(), shuffle_hand_to="discard")
    assert first_violation(res) == ("LG-2.3", "logos/not-in-deck")


def test_option_mimmick_target() -> None:
    s = duel(["data-ghost"] * 3, ["rust-swarm"] * 3)
    s.play("data-ghost", "rust-swarm")
    log = list(s.all_events())
    assert under(log).verdict == "legal"
    res = under(log, mimmick_target="by-source-field")  # rust-swarm's left field aims at ann
    assert first_violation(res) == ("LOG-2", "core/derived-mismatch")
    assert "mimmick on ann" in derived_part(res)


def test_option_resign_result() -> None:
    s = Script()
    s.add(E.Resigned(player=A))
    log = list(s.all_events())
    res = under(log)
    assert res.verdict == "legal" and (res.outcome.result, res.outcome.winner) == ("draw", None)
    res = under(log, resign_result="opponent-wins")  # the stated draw contradicts the engine's end
    assert first_violation(res) == ("LOG-2", "core/derived-mismatch")
    plain = under(s.events(), resign_result="opponent-wins")
    assert (plain.outcome.result, plain.outcome.winner, plain.outcome.reason) == ("win", B, "resignation")


@documents("LG-29")
def test_option_round_limits() -> None:
    s = duel(["iron-golem"] * 3, ["storm-coil"] * 3)
    s.play("iron-golem", "storm-coil")
    s.refill()
    assert under(s.events()).verdict == "legal"
    res = under(s.events(), max_rounds=1)
    assert first_violation(res) == ("LOG-3", "core/after-end")
    assert under(s.events()[:-1], max_rounds=1).outcome.reason == "round-limit"
    t = Script({A: ["magma-titan"] * 9, B: ["magma-titan"] * 9}, options={"stall_rounds": 3})
    t.refill()
    t.refill()
    assert under(t.events()).verdict == "legal"
    assert first_violation(under(t.events(), stall_rounds=1)) == ("LOG-3", "core/after-end")


def test_bad_options_are_unreadable() -> None:
    from adjudicator.core.kernel.errors import LogError

    for opts, field in (({"hand_limit": 7}, "options.hand_limit"), ({"start_slots": "three"}, "options.start_slots"),
                        ({"min_slots": 5}, "options.min_slots"), ({"stall_rounds": 0}, "options.stall_rounds")):
        with pytest.raises(LogError) as exc:
            parse_log(encode([setup(options=opts)]))
        assert exc.value.line == 1 and exc.value.field == field, (opts, exc.value)
    with pytest.raises(LogError) as exc:
        parse_log(encode([setup(ruleset="2012")]))
    assert exc.value.field == "ruleset"


# ==================================================================================================
# every rule id is covered
# ==================================================================================================

def test_never_rejects_ids_are_never_cited_by_a_rejection() -> None:
    from adjudicator.games.logos import rules

    # every module of the package (the rules are split by concern: checks.py, phases.py, ...)
    src = "".join(f.read_text() for f in sorted(Path(rules.__file__).parent.glob("*.py")))
    cited = set(re.findall(r'bad\(\s*"(LG-[0-9.]+)"', src))
    assert {"LG-2.1", "LG-3.3", "LG-6", "LG-17", "LG-1.2"} <= cited
    assert not (cited & set(NEVER_REJECTS)), cited & set(NEVER_REJECTS)
    assert cited <= set(RULES), cited - set(RULES)
    # and every id that is cited by a rejection has an illegal case here
    assert all("illegal" in COVERED[i] for i in cited)


def test_setup_context_follows_each_new_match() -> None:
    from adjudicator.core.kernel.protocol import RefError

    first = setup(players=["p1", "p2"])
    GAME.validate_refs(first, first)
    second = setup()
    GAME.validate_refs(second, second)
    GAME.validate_refs(second, E.Resigned(player=A))
    with pytest.raises(RefError):
        GAME.validate_refs(second, E.Resigned(player="p1"))


def test_unreadable_references() -> None:
    from adjudicator.core.kernel.errors import LogError

    base = encode([setup()])
    cases = [
        (b'{"type":"CardDrawn","player":"ann","card":"excalibur"}', "card", "unknown card 'excalibur'"),
        (b'{"type":"Resigned","player":"cy"}', "player", "unknown player 'cy'"),
        (b'{"type":"StrikeResolved","striker":"ann","target":"cy","attack":1,"defense":1,"damage":0,"hp":1}', "target", "'cy'"),
        (b'{"type":"RoundEnded","round":1,"pushed":[{"counter":"cy","colours":["matter"]}]}', "pushed[0].counter", "unknown counter"),
        (b'{"type":"Defenseless","player":"ann","cards":["nope"]}', "cards[0]", "unknown card"),
    ]
    for line, field, why in cases:
        with pytest.raises(LogError) as exc:
            parse_log(base + line + b"\n")
        assert exc.value.line == 2 and exc.value.field == field and why in exc.value.reason, exc.value
    for bad_setup, field in ((setup({A: {"excalibur": 1}}), "decks.ann.excalibur"),
                             (setup({A: {"iron-golem": -1}}), "decks.ann.iron-golem"),
                             (setup(players=[A, A]), "players"), (setup(players=[A, "shared"]), "players")):
        with pytest.raises(LogError) as exc:
            parse_log(encode([bad_setup]))
        assert exc.value.field == field, exc.value


def test_every_effect_kind_fires_through_one_handler() -> None:
    """The kinds a pool may name (``cards.EffectName``) are the handlers of ``effects.FIRE`` (Mimmick
    fires the effect it copies), so a kind cannot be listed without a handler or the reverse."""
    import typing

    from adjudicator.games.logos import cards, effects

    kinds = set(typing.get_args(cards.EffectName))
    assert set(effects.FIRE) == kinds - {"mimmick"}
    assert set(cards.PERMANENT) | set(cards.TEMPORARY) | set(cards.LOOKS) | {cards.DECK_LOOK} == kinds
    assert cards.CARD_EFFECTS <= kinds



def _package_imports() -> dict[str, set[str]]:
    """Module -> the modules of the LOGOS package it imports (every import statement, AST)."""
    import ast

    from adjudicator.games.logos import rules

    package = Path(rules.__file__).parent
    here = {f.stem for f in package.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for f in sorted(package.glob("*.py")):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                deps |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("adjudicator.games.logos"):
                rest = node.module[len("adjudicator.games.logos"):].lstrip(".")  # type: ignore[index]
                deps |= {rest.split(".")[0]} if rest else {a.name for a in node.names}
        graph[f.stem] = (deps & here) - {f.stem}
    return graph


def test_the_package_reads_in_one_direction() -> None:
    """Issue 23: no module of the package imports, directly or not, a module that imports it back
    (events -> state -> rules and effects -> game glue), and loading the card data imports none of
    the modules that interpret it."""
    graph = _package_imports()

    def reach(m: str) -> set[str]:
        seen: set[str] = set()
        todo = [m]
        while todo:
            for d in graph[todo.pop()] - seen:
                seen.add(d)
                todo.append(d)
        return seen

    circles = sorted(m for m in graph if m in reach(m))
    assert not circles, f"modules on an import circle: {circles}"
    assert reach("cards") <= {"events"}, reach("cards")
    assert not reach("events") and reach("state") <= {"events"}
    assert {"rules", "checks", "applies", "effects", "phases"}.isdisjoint(reach("unknowns"))

# ==================================================================================================
# the card vocabulary: any card the game allows (docs/rules/logos.md, "What a card can be")
# ==================================================================================================

@pytest.fixture
def own_pool(tmp_path: Path) -> Any:
    """``own_pool(name, cards_toml)``: a pool the set-up can name, for one test (written to a
    temporary directory searched like ``--pools DIR``; each call resolves ids afresh)."""
    import contextlib

    from adjudicator.core.kernel import sources

    with contextlib.ExitStack() as stack:
        def make(name: str, cards_toml: str) -> None:
            (tmp_path / f"{name}.toml").write_text(f'pool = "{name}"\n\n{cards_toml}')
            stack.enter_context(sources.using(sources.Sources([tmp_path])))

        yield make


def card_toml(cid: str, klass: str, attack: int = 10_000, defense: int = 10_000, speed: int = 50, **more: str) -> str:
    lines = [f'[[card]]\nid = "{cid}"\nname = "{cid}"\nclass = "{klass}"\nattack = {attack}\ndefense = {defense}\nspeed = {speed}']
    lines += [f"{k} = {v}" for k, v in more.items()]
    return "\n".join(lines) + "\n\n"


def test_option_max_life() -> None:
    log = [setup({A: {"heart-of-genesis": 2, "world-tree": 1, "iron-golem": 9}, B: {"white-wall": 12}})]
    assert under(log).verdict == "legal"
    assert under(log, max_life=3).verdict == "legal"
    res = under(log, max_life=2)
    assert first_violation(res) == ("LG-1.2", "logos/too-many-life")
    assert "ann's deck holds 3 Life cards; the ruleset allows 2 (LG-31)" in res.violations[0].message
    from adjudicator.core.kernel.errors import LogError

    with pytest.raises(LogError) as exc:
        parse_log(encode([setup(options={"max_life": -1})]))
    assert exc.value.field == "options.max_life"


@derived_rule("LG-31", "LG-33")
def test_life_cards_and_a_purple_combo_panel() -> None:
    # ann: two INFORMATION rounds, then phoenix-core (LIFE), then violet-bloom (needs LIFE last round)
    s = Script({A: ["quiet-index"] * 2 + ["phoenix-core", "violet-bloom"] + ["white-wall"] * 4, B: ["iron-golem"] * 12},
               options={"picks": "open"})
    s.refill({A: ["quiet-index", "phoenix-core", "violet-bloom"]})
    rejects(s.check(E.CardPicked(player=A, card="violet-bloom")), "LG-3.3", "combo-mismatch",
            "Violet Bloom needs the combo [life, grey, grey]", "[empty, empty, empty]")
    s.play("quiet-index", "iron-golem")
    s.round("quiet-index", "iron-golem", {A: ["quiet-index"]})
    s.round("phoenix-core", "iron-golem", {A: ["white-wall"]})
    # LIFE beats MATTER: ann attacks; the counter receives purple
    assert s.derived_of(E.DirectionDetermined)[-2] == E.DirectionDetermined(stage="before-effects", basis="class", attacker=A, defender=B)
    assert s.player(A).combo == ("life", "information", "information")
    s.refill({A: ["white-wall"]})
    accepts(s.check(E.CardPicked(player=A, card="violet-bloom")), "LG-3.1")
    s.play("violet-bloom", "iron-golem")
    fx = [(e.field, e.effect, e.target, e.result, e.value) for e in s.derived_of(E.EffectResolved)[-2:]]
    # LG-34: its left Add Card Slot gives ben a slot; its right Destroy Combo empties ann's own counter
    assert fx == [("left", "add-card-slot", B, "applied", 4), ("right", "destroy-combo", A, "applied", None)]
    assert len(s.player(B).slots) == 4 and s.player(A).combo == ("life", None, None)
    misstate(s, E.EffectResolved, -1, target=B)
    misstate(s, E.EffectResolved, -2, value=3)


@derived_rule("LG-31", "LG-26")
def test_a_color_change_takes_a_life_card_down() -> None:
    # ben: two INFORMATION rounds, then phoenix-core; ann answers with dusk-veil (LIFE -> Neutral on
    # the opposing card, Neutral -> INFORMATION on itself)
    s = Script({A: ["iron-golem"] * 2 + ["dusk-veil"] + ["white-wall"] * 6,
                B: ["quiet-index"] * 2 + ["phoenix-core", "violet-bloom"] + ["storm-coil"] * 6}, options={"picks": "open"})
    s.round("iron-golem", "quiet-index", {A: ["iron-golem", "iron-golem", "dusk-veil"], B: ["quiet-index", "quiet-index", "phoenix-core"]})
    s.round("iron-golem", "quiet-index", {B: ["violet-bloom"]})
    s.round("dusk-veil", "phoenix-core", {A: ["white-wall"], B: ["storm-coil"]})
    dirs = s.derived_of(E.DirectionDetermined)[-2:]
    assert dirs == [E.DirectionDetermined(stage="before-effects", basis="class", attacker=B, defender=A),
                    E.DirectionDetermined(stage="after-effects", basis="class", attacker=A, defender=B)]
    fx = [(e.player, e.field, e.effect, e.copied, e.result) for e in s.derived_of(E.EffectResolved)[-4:]]
    assert fx == [(A, "left", "color-change", None, "applied"), (A, "right", "color-change", None, "applied"),
                  (B, "left", "mimmick", "color-change", "no-change"), (B, "right", "maximize", None, "applied")]
    # ben's card was Neutral at the end of the battle: no purple panel, so violet-bloom cannot follow
    assert s.player(B).combo == ("neutral", "information", "information")
    s.refill({A: ["white-wall"], B: ["storm-coil"]})
    rejects(s.check(E.CardPicked(player=B, card="violet-bloom")), "LG-3.3", "combo-mismatch", "[neutral, information, information]")
    misstate(s, E.DirectionDetermined, -1, attacker=B, defender=A)


@derived_rule("LG-32", "LG-18")
def test_speed_99_is_ordinary_and_speed_100_is_a_backup_speed() -> None:
    s = duel(["threshold-runner", "static-field", "century-gate"], ["storm-coil"] * 3)
    rejects(s.check(E.BackupAssigned(player=A, card="threshold-runner")), "LG-4.1", "not-eligible", "Speed 99")
    rejects(s.check(E.BackupAssigned(player=A, card="century-gate")), "LG-4.1", "not-eligible", "combo requirement [grey, grey, neutral]")
    accepts(s.assign(A, "static-field"), "LG-4.1")
    # ENERGY 99 against ENERGY 75: the faster attacks; threshold-runner's right field destroys
    # ann's own Backup card (LG-34), so no Backup window opens
    s.play("threshold-runner", "storm-coil")
    assert s.derived_of(E.DirectionDetermined)[0] == E.DirectionDetermined(stage="before-effects", basis="speed", attacker=A, defender=B)
    assert s.player(A).backup is None and "static-field" in s.player(A).discard
    assert [(e.field, e.effect, e.target, e.result) for e in s.derived_of(E.EffectResolved)] == [
        ("left", "berserk", B, "no-change"), ("right", "destroy-backup", A, "applied")]
    misstate(s, E.EffectResolved, 1, result="no-change")
    # Speed 100 beats Speed 99 in a race like any higher Speed; two Speeds of 100 are a Deadlock
    r = duel(["static-field"] * 3, ["threshold-runner"] * 3)
    r.play("static-field", "threshold-runner")
    assert r.derived_of(E.DirectionDetermined)[0] == E.DirectionDetermined(stage="before-effects", basis="speed", attacker=A, defender=B)
    d = duel(["static-field"] * 3, ["static-field"] * 3)
    d.play("static-field", "static-field")
    assert d.derived_of(E.DirectionDetermined) == [E.DirectionDetermined(stage="before-effects", basis="deadlock")]
    # Speed 0 and Defense 0 are ordinary values
    z = duel(["tithe-engine"] * 3, ["iron-golem"] * 3)
    z.play("tithe-engine", "iron-golem")
    assert z.derived_of(E.DirectionDetermined)[0].attacker == B
    assert z.derived_of(E.StrikeResolved)[0] == E.StrikeResolved(striker=B, target=A, attack=18_000, defense=0, damage=18_000, hp=82_000)
    misstate(r, E.DirectionDetermined, 0, attacker=B, defender=A)


@derived_rule("LG-34", "LG-33", "LG-19", "LG-24")
def test_effects_aimed_the_other_way() -> None:
    # left Regeneration heals the opponent by the card's own Attack + Defense; right Remove Card
    # Slot costs the owner the slot its battle card left
    s = Script({A: ["iron-golem"] * 3 + ["tithe-engine"] * 3, B: ["storm-coil"] * 6}, options={"picks": "open"})
    s.round("iron-golem", "storm-coil", {A: ["iron-golem", "iron-golem", "tithe-engine"]})
    assert s.hp(B) == 91_000
    s.round("tithe-engine", "storm-coil")
    assert [(e.field, e.effect, e.target, e.result, e.value) for e in s.derived_of(E.EffectResolved)] == [
        ("left", "regeneration", B, "applied", 9_000), ("right", "remove-card-slot", A, "applied", 2)]
    assert s.derived_of(E.StrikeResolved)[-1] == E.StrikeResolved(striker=A, target=B, attack=26_000, defense=9_000, damage=17_000, hp=83_000)
    assert len(s.player(A).slots) == 2
    # left Berserk doubles the opposing card when the opponent is below 25,000 hit points
    k = duel(["threshold-runner"] * 3, ["iron-golem"] * 3, options={"start_hp": 20_000})
    k.play("threshold-runner", "iron-golem")
    assert k.derived_of(E.EffectResolved)[0].result == "applied"
    assert k.derived_of(E.StrikeResolved)[0] == E.StrikeResolved(striker=B, target=A, attack=36_000, defense=7_000, damage=29_000, hp=-9_000)
    # century-gate (a white panel: Neutral three rounds ago): left Maximize on the opposing card,
    # right Minimize on itself
    c = Script({A: ["white-wall", "iron-golem", "iron-golem", "century-gate"] + ["quiet-index"] * 4,
                B: ["iron-golem"] * 8 + ["storm-coil"] * 4}, options={"picks": "open"})
    c.round("white-wall", "iron-golem", {A: ["white-wall", "iron-golem", "iron-golem"], B: ["iron-golem", "storm-coil", "iron-golem"]})
    c.round("iron-golem", "storm-coil", {A: ["century-gate"]})
    c.refill({A: ["quiet-index"]})
    rejects(c.check(E.CardPicked(player=A, card="century-gate")), "LG-3.3", "combo-mismatch", "[grey, grey, neutral]", "[matter, neutral, empty]")
    c.play("quiet-index", "iron-golem")
    c.round("century-gate", "iron-golem", {A: ["quiet-index"]})
    assert [(e.field, e.effect, e.target, e.result) for e in c.derived_of(E.EffectResolved)] == [
        ("left", "maximize", B, "applied"), ("right", "minimize", A, "applied")]
    assert c.derived_of(E.StrikeResolved)[-1] == E.StrikeResolved(striker=A, target=B, attack=12_000, defense=18_000, damage=0, hp=c.hp(B))
    # each aimed the other way is stated as the engine derives it, or the log breaks LOG-2
    misstate(s, E.EffectResolved, 0, target=A)
    misstate(s, E.EffectResolved, 1, value=3)
    misstate(k, E.EffectResolved, 0, result="no-change")
    misstate(c, E.EffectResolved, -2, target=A)
    misstate(c, E.StrikeResolved, -1, defense=12_000, damage=0)


CLASS_NAMES = ["matter", "energy", "information", "neutral", "life"]


@derived_rule("LG-26", "LG-7.5")
def test_color_change_between_any_two_classes(own_pool: Any) -> None:
    """All 20 ordered pairs of classes: the changed card fights and is pushed as its new class; a
    card of another class is left alone."""
    toml = "".join(card_toml(f"plain-{k}", k) for k in CLASS_NAMES)
    pairs = [(x, y) for x in CLASS_NAMES for y in CLASS_NAMES if x != y]
    toml += "".join(card_toml(f"turn-{x}-{y}", "matter", speed=60, left=f'{{ do = "color-change", from = "{x}", to = "{y}" }}')
                    for x, y in pairs)
    own_pool("every-change", toml)
    for x, y in pairs:
        turn, other = f"turn-{x}-{y}", next(k for k in CLASS_NAMES if k != x)
        for target, changed in ((x, y), (other, other)):
            match = setup({A: {turn: 4}, B: {f"plain-{target}": 4}}, options={"picks": "open"})
            s = Script(match=msgspec.structs.replace(match, pool="every-change"))
            s.round(turn, f"plain-{target}")
            fx = s.derived_of(E.EffectResolved)
            assert [e.result for e in fx] == ["applied" if target == x else "no-change"], (x, y, target)
            after = s.derived_of(E.DirectionDetermined)[-1]
            if changed == "matter":
                assert after.basis == "speed" and after.attacker == A, (x, y, after)
            else:
                assert after.attacker == (A if beats("matter", changed) else B), (x, y, after)
            assert s.player(B).combo[0] == changed, (x, y, target)
            if target == x:  # a log that states the change as not made breaks LOG-2
                misstate(s, E.EffectResolved, 0, result="no-change")


def test_a_pool_holds_any_card_the_game_allows(tmp_path: Path) -> None:
    """Every class, every combo indicator, every effect in either field, every Color Change pair,
    the boundary values: one pool holds them all."""
    from adjudicator.games.logos.cards import MAX_STAT, PERMANENT, TEMPORARY, load_pool_file

    panels = ["grey"] + CLASS_NAMES
    toml = "".join(card_toml(f"combo-{i}-{j}-{k}", "neutral", combo=f'["{panels[i]}", "{panels[j]}", "{panels[k]}"]')
                   for i in range(6) for j in range(6) for k in range(6))
    effects = [e for e in PERMANENT + TEMPORARY if e != "color-change"]
    for side in ("left", "right"):
        toml += "".join(card_toml(f"{side}-{e}", "life", **{side: f'{{ do = "{e}" }}'}) for e in effects)
        toml += "".join(card_toml(f"{side}-{x}-{y}", "energy", **{side: f'{{ do = "color-change", from = "{x}", to = "{y}" }}'})
                        for x in CLASS_NAMES for y in CLASS_NAMES if x != y)
    toml += card_toml("edge-low", "matter", attack=0, defense=0, speed=0)
    toml += card_toml("edge-high", "information", attack=MAX_STAT, defense=MAX_STAT, speed=MAX_STAT)
    toml += card_toml("speed-99", "energy", speed=99) + card_toml("speed-100", "energy", speed=100)
    toml += card_toml("speed-100-combo", "energy", speed=100, combo='["grey", "grey", "energy"]')
    p = tmp_path / "everything.toml"
    p.write_text('pool = "everything"\n\n' + toml)
    pool = load_pool_file(p)
    assert len(pool) == 216 + 2 * (13 + 20) + 5
    assert not pool["speed-99"].backup_eligible and pool["speed-100"].backup_eligible
    assert not pool["speed-100-combo"].backup_eligible
    # what the game does not allow: tests/test_logos_docs.py, test_a_malformed_pool_names_the_file_card_and_field


def test_a_log_written_before_effect_cards_existed_still_states_the_effect() -> None:
    """LOG-2 and LG-42: ``EffectResolved.cards`` was added after logs were written; a log that
    states a Shuffle Hand without it (null, the default) confirms the engine's derivation, and a
    log that names other cards is still LOG-2."""
    s = duel(["arc-lancer"] * 3, ["quiet-index", "logic-bomb", "cipher-drone"], fill="white-wall")
    s.play("arc-lancer", "quiet-index")
    log = list(s.all_events())
    at = next(i for i, e in enumerate(log) if type(e) is E.EffectResolved and e.cards)
    assert under(log).verdict == "legal"
    old = log[:at] + [msgspec.structs.replace(log[at], cards=None)] + log[at + 1:]
    assert under(old).verdict == "legal"
    wrong = log[:at] + [msgspec.structs.replace(log[at], cards=list(reversed(log[at].cards)) + ["logic-bomb"])] + log[at + 1:]
    assert first_violation(under(wrong)) == ("LOG-2", "core/derived-mismatch")



# the unknown-identity rules (LG-35 to LG-38) are shown in their own file; importing it registers them
import tests.test_logos_unknowns  # noqa: E402,F401
import tests.test_logos_ruling_props  # noqa: E402,F401
import tests.test_seat_logos  # noqa: E402,F401
import tests.test_logos_looks  # noqa: E402,F401
import tests.test_logos_decklook  # noqa: E402,F401


@documents("LG-46")
def test_a_record_where_the_opponents_deck_ran_out_is_undetermined_on_the_empty_deck() -> None:
    """LG-46: ben's record does not show ann's deck's size; her deck ran out and stays empty
    (``on_empty_deck = "stay-empty"``), so ben's record of the next refill, where only he draws, is
    undetermined on her empty deck; ann's own record knows it: legal."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.seats import redact_log
    from adjudicator.core.kernel.verify import run

    from .logos_scenarios import Script, encode

    t = Script({A: ["iron-golem"] * 3, B: ["storm-coil"] * 5}, options={"on_empty_deck": "stay-empty", "picks": "open"})
    t.round("iron-golem", "storm-coil")
    t.round("iron-golem", "storm-coil")
    assert t.verify().verdict == "legal"
    ben = run(parse_log(encode(redact_log(parse_log(t.lines(False), "full"), B)), "ben"))
    assert ben.verdict == "undetermined" and [(u.rule, u.condition) for u in ben.undetermined] == [
        ("LG-46", "ann's deck was empty at the refill of round 2")]
    assert run(parse_log(encode(redact_log(parse_log(t.lines(False), "full"), A)), "ann")).verdict == "legal"
