"""Unknown identities in a seat's record of a Colossi match (issue 11; CL-2.7, CL-40)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import adjudicator.games.colossi  # noqa: F401  (registers the game)
from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.log import parse_log, read_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.verify import run, settle
from adjudicator.games.colossi import events as E
from adjudicator.games.colossi.data import content

GAME = registry.get("colossi")
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "colossi"
COMPLETE = sorted(p for p in EXAMPLES.glob("legal-*.jsonl") if "-seat-" not in p.name)


def record(events: list, player: str) -> bytes:
    enc = msgspec.json.Encoder()
    return b"".join(enc.encode(GAME.redact(e, player)) + b"\n" for e in events)


def events_of(path: Path) -> list:
    return [e for _, e in read_log(path).events]


def verdict(data: bytes, name: str = "<record>") -> object:
    return run(parse_log(data, name))


@pytest.mark.parametrize("path", COMPLETE, ids=[p.name for p in COMPLETE])
def test_every_seat_record_of_every_complete_example_is_never_illegal(path: Path) -> None:
    events = events_of(path)
    for player in events[0].players:
        data = record(events, player)
        assert b'"?"' in data
        res = verdict(data, f"{path.name} as {player}")
        assert res.verdict in ("legal", "undetermined"), (player, [v.as_dict() for v in res.violations])


def test_the_cli_redacts_and_verifies_a_seat_record(tmp_path: Path) -> None:
    for player, code, verdict_ in (("cid", 0, "legal"), ("ann", 4, "undetermined")):
        out = tmp_path / f"{player}.jsonl"
        r = CliRunner().invoke(main, ["redact", str(EXAMPLES / "legal-4p-to-50-gold.jsonl"), "--as", player, "-o", str(out)])
        assert r.exit_code == 0, r.output
        r = CliRunner().invoke(main, ["verify", str(out), "--json"])
        assert r.exit_code == code, r.output
        found = json.loads(r.output)
        assert found["verdict"] == verdict_
    # ann never saw the card dee gave cid back in a Trade: the condition says what decides it
    assert "the card given back is not the card received" in json.dumps(found)


def test_animalistic_with_a_lair_possibly_face_down_is_undetermined() -> None:
    """In bob's record both Lairs set aside are revealed before ann's Colossus turns into the Time
    Beast (legal); had one Lair stayed face down, it could be the Time Beast's (CL-40)."""
    events = events_of(EXAMPLES / "legal-2p-to-50-gold.jsonl")
    data = [GAME.redact(e, "bob") for e in events]
    n = next(i for i, e in enumerate(data) if type(e) is E.BeastDrawn)
    s, _ = settle(GAME, GAME.initial_state(data[0]))
    for e in data[1:n]:
        s, _ = settle(GAME, GAME.apply(s, e))
    drawn = data[n]
    assert GAME.check(s, drawn).verdict == "legal"
    lair = f"lair-{drawn.beast}"
    assert lair in s.unseen.tiles and s.unseen.lairs == 0
    maybe = msgspec.structs.replace(s, unseen=msgspec.structs.replace(s.unseen, lairs=1))
    r = GAME.check(maybe, drawn)
    assert (r.verdict, r.rule, r.code) == ("undetermined", "CL-40", "colossi/unknown-lair")
    assert r.condition == f"the Lair {lair} is not among the face-down tiles"


def test_an_undetermined_decision_carries_its_condition() -> None:
    events = events_of(EXAMPLES / "legal-4p-to-50-gold.jsonl")
    res = verdict(record(events, "ann"))
    assert res.verdict == "undetermined"
    conds = res.undetermined
    assert conds and conds[0].rule == "CL-6.4"
    assert conds[0].condition == "the card given back is not the card received"
    # the seats that gave and took that card saw it: their records are legal
    assert verdict(record(events, "cid")).verdict == "legal"


def test_null_is_unknown_like_the_question_mark() -> None:
    events = events_of(EXAMPLES / "legal-4p-to-50-gold.jsonl")
    data = record(events, "cid")
    assert verdict(data.replace(b'"?"', b"null")).verdict == "legal"


def test_a_planted_impossible_reveal_is_illegal_with_the_reason() -> None:
    res = run(read_log(EXAMPLES / "illegal-CL-2.7-seat-impossible-card.jsonl"))
    assert res.verdict == "illegal"
    v = res.violations[0]
    assert v.rule == "CL-2.7" and v.code == "colossi/impossible-identity"
    assert "ann plays Windfall from hand, but its only copy is already accounted for: 1 in the discard pile" in v.message


def test_an_unknown_draw_makes_the_deck_unknown_and_a_later_name_is_checked() -> None:
    setup = E.MatchStarted(game="colossi", players=["ann", "bob"])
    events, _ = playout(GAME, 5, setup=setup, max_events=120)
    s, _ = settle(GAME, GAME.initial_state(setup))
    for e in events[1:]:
        e = GAME.redact(e, "ann")
        assert GAME.check(s, e).verdict != "illegal"
        s, _ = settle(GAME, GAME.apply(s, e))
    assert s.unseen is not None
    bob = s.player("bob")
    assert bob.hand.count("?") == len(bob.hand) > 0
    assert len(s.unseen.cards) == sum(z.count("?") for z in (s.card_deck, s.card_top, s.discard, s.pile)) \
        + sum(p.hand.count("?") for p in s.players)
    # the scene shows bob's unknown cards with what they can still be (each once)
    scene = GAME.scene(s, None)
    hand = next(z for z in scene.zones if z.id == "bob.hand")
    possible = hand.cards[0].possible
    assert possible and len(possible) == len(set(possible)) and set(possible) == set(s.unseen.cards)


def test_a_full_information_log_never_carries_unseen() -> None:
    events = events_of(EXAMPLES / "legal-2p-to-50-gold.jsonl")
    s, _ = settle(GAME, GAME.initial_state(events[0]))
    for e in events[1:200]:
        s, _ = settle(GAME, GAME.apply(s, e))
        assert s.unseen is None


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_property_a_redacted_legal_match_never_verifies_illegal(seed: int) -> None:
    events, _ = playout(GAME, seed, max_events=700)
    assert run(parse_log(to_jsonl(events), "full")).verdict == "legal"
    for player in events[0].players:
        res = verdict(record(events, player), f"seed {seed} as {player}")
        assert res.verdict in ("legal", "undetermined"), (seed, player, [v.as_dict() for v in res.violations])


def test_a_third_lair_explored_from_the_unknown_tile_deck_is_illegal() -> None:
    """Two Lairs are set aside face down: once both are revealed, no unknown tile of the deck is a
    Lair, though the Lairs left in the box are unseen too (CL-1.3, CL-2.7)."""
    events = events_of(EXAMPLES / "legal-4p-to-50-gold.jsonl")
    data = [GAME.redact(e, "bob") for e in events]
    s, _ = settle(GAME, GAME.initial_state(data[0]))
    lairs = 0
    for e in data[1:]:
        if type(e) is E.TileExplored and e.tile.startswith("lair-"):
            lairs += 1
        s, _ = settle(GAME, GAME.apply(s, e))
        if lairs == 2 and s.todo and type(s.todo[0]).__name__ == "Explore" and "?" in s.tile_deck + s.tile_top:
            break
    else:  # the example explores both Lairs, then more: a changed example must not pass silently
        pytest.fail("no exploration after both Lairs in the example: the test needs another position")
    assert s.unseen.lairs == 0 and s.unseen.environments > 0
    kinds = content().tiles
    box_lair = next(t for t in s.unseen.tiles if kinds[t].kind == "lair")
    env = next(t for t in s.unseen.tiles if kinds[t].kind == "environment")
    space = s.todo[0].space
    bad = GAME.check(s, E.TileExplored(space=space, tile=box_lair))
    assert bad.verdict == "illegal" and bad.rule == "CL-2.7", bad
    assert "hold no lair any more" in bad.message
    assert GAME.check(s, E.TileExplored(space=space, tile=env)).verdict == "legal"


def test_a_seat_records_position_document_loads(tmp_path: Path) -> None:
    """``state --json`` of a seat's record keeps its placeholders and ``unseen``; ``legal
    --position`` reads it back; a name ``unseen`` cannot hold is refused with its field."""
    rec = tmp_path / "bob.jsonl"
    rec.write_bytes(record(events_of(EXAMPLES / "legal-2p-to-50-gold.jsonl"), "bob"))
    r = CliRunner().invoke(main, ["state", str(rec), "--at", "300", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["state"]["unseen"]["cards"] and "?" in doc["state"]["card_deck"]
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(doc))
    r = CliRunner().invoke(main, ["legal", "--position", str(pos)])
    assert r.exit_code == 0, r.output
    doc["state"]["unseen"]["cards"][0] = "zzz"
    pos.write_text(json.dumps(doc))
    r = CliRunner().invoke(main, ["legal", "--position", str(pos)])
    assert r.exit_code == 2 and "state.unseen.cards[0]: 'zzz' is not one of the cards" in r.output, r.output
