"""LOGOS looks a pool can give a card (LG-43; issue 32, item 8): ``look-slots`` (its owner sees
the opponent's card slots) and ``look-backup`` (the opponent's Backup card).  Done as a user
would: a pool file with a card of each kind, a match of it recorded with ``adjudicator record
--script``, verified, redacted for each seat (``redact --as``), each record verified, and the two
records reconciled into the recorded log; the looker's view of the full log names what it saw.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry, sources
from adjudicator.core.kernel.events import HIDDEN, encode_line
from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.verify import run, settle
from tests.test_logos_rules import covers, ruled

GAME = registry.get("logos")
SAMPLE = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "logos" / "data" / "sample.toml"
LOOKS = '''
[[card]]
id = "glass-eye"
name = "Glass Eye"
class = "information"
attack = 9000
defense = 9000
speed = 60
left = { do = "look-slots" }
text = "Its owner looks at the opponent's card slots."

[[card]]
id = "vault-peeker"
name = "Vault Peeker"
class = "neutral"
attack = 8000
defense = 8000
speed = 65
left = { do = "look-backup" }
text = "Its owner looks at the opponent's Backup card."
'''


@pytest.fixture
def pools(tmp_path: Path) -> Path:
    d = tmp_path / "pools"
    d.mkdir()
    (d / "looks.toml").write_text(SAMPLE.read_text().replace('pool = "sample"', 'pool = "looks"', 1) + LOOKS)
    return d


def _match(pools: Path) -> tuple[Any, list[Any], list[Any]]:
    """A generated match of the pool in which both looks fire and show cards: its set-up, its
    decisions and random outcomes, and the looks' events (derived)."""
    with sources.using(sources.Sources([pools])):
        for seed in range(40):
            base = GAME.sample_setup(seed)
            decks = {p: {**d, "glass-eye": 2, "vault-peeker": 2} for p, d in base.decks.items()}
            setup = msgspec.structs.replace(base, pool="looks", decks=decks)
            events, _ = playout(GAME, seed, setup=setup, max_events=220)
            state, _ = settle(GAME, GAME.initial_state(events[0]))
            looks = []
            for e in events[1:]:
                state, derived = settle(GAME, GAME.apply(state, e))
                looks += [d for d in derived if type(d).__name__ == "EffectResolved" and d.effect.startswith("look-")
                          and d.result == "applied" and d.target != d.player]
            if {d.effect for d in looks} == {"look-slots", "look-backup"}:
                return setup, events, looks
    raise AssertionError("no generated match fires both looks")


@covers("LG-43", illegal=False, behaviour=True)
def test_a_look_of_each_kind_recorded_verified_redacted_and_reconciled(pools: Path, tmp_path: Path) -> None:
    setup, events, looks = _match(pools)
    for seat, out in record_redact_reconcile(pools, "looks", setup, events[1:], tmp_path).items():
        text = out.read_text()
        for d in looks:  # the looker's record states what each look showed it (the log leaves it out)
            line = f'"effect":"{d.effect}","target":"{d.target}","result":"applied"'
            assert (line in text and json.dumps(d.cards, separators=(",", ":")) in text) == (seat == d.player), seat


def record_redact_reconcile(pools: Path, pool: str, setup: Any, decisions: list[Any], tmp_path: Path) -> dict[str, Path]:
    """As a user would: ``decisions`` recorded with ``record --script`` in a match of ``pool``,
    verified (legal), redacted for each seat and each record verified (legal, or undetermined on
    cards the seat did not see), the records reconciled and the result verified (legal): the
    seats' records."""
    log = tmp_path / f"{pool}.jsonl"
    given = json.dumps({"decks": setup.decks, "options": setup.options})
    script = "".join(encode_line(e).decode() + "\n" for e in decisions)
    r = CliRunner().invoke(main, ["record", str(log), "--pools", str(pools), "--game", "logos", "--players", "p1,p2",
                                  "--pool", pool, "--setup", given, "--script", "-"], input=script)
    assert r.exit_code == 0, r.output[-2000:]
    r = CliRunner().invoke(main, ["verify", "--pools", str(pools), str(log)])
    assert r.exit_code == 0, r.output
    records = {}
    for seat in ("p1", "p2"):
        out = tmp_path / f"{seat}.jsonl"
        r = CliRunner().invoke(main, ["redact", "--pools", str(pools), str(log), "--as", seat, "-o", str(out)])
        assert r.exit_code == 0, r.output
        r = CliRunner().invoke(main, ["verify", "--pools", str(pools), str(out)])
        assert r.exit_code in (0, 4), r.output
        records[seat] = out
    merged = tmp_path / "merged.jsonl"
    r = CliRunner().invoke(main, ["reconcile", "--pools", str(pools), str(records["p1"]), str(records["p2"]),
                                  "-o", str(merged)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["verify", "--pools", str(pools), str(merged)])
    assert r.exit_code == 0, r.output
    return records


@covers("LG-43", illegal=False, behaviour=True)
def test_the_looker_knows_what_it_saw(pools: Path) -> None:
    """After each look, the looker's view of the full log names the cards it saw there (until they
    leave), the other seat's view of its own cards is unchanged; a record naming a card the
    looked-at cards cannot be is illegal at the look."""
    setup, events, looks = _match(pools)
    with sources.using(sources.Sources([pools])):
        state, _ = settle(GAME, GAME.initial_state(events[0]))
        seen = 0
        full = [events[0]]
        for e in events[1:]:
            state, derived = settle(GAME, GAME.apply(state, e))
            full += [e, *derived]
            for d in derived:
                if type(d).__name__ == "EffectResolved" and d.effect.startswith("look-") and d.result == "applied" \
                        and d.target != d.player:
                    seen += 1
            if seen and state.seen:
                for k in state.seen:
                    viewer = next(p.id for p in state.players if p.id != k.player)
                    v = GAME.observe(state, viewer).player(k.player)
                    named = [c for c in list(v.slots) + [v.backup] if c not in (None, HIDDEN)]
                    assert sorted(named) == sorted(k.shown)
        assert seen
        # the looker's record: a look naming a card no unknown card of the target can be
        i = next(j for j, e in enumerate(full) if type(e).__name__ == "EffectResolved" and e.effect == "look-slots"
                 and e.result == "applied" and e.target != e.player)
        from adjudicator.core.kernel.seats import redact_log

        looker = full[i].player
        record = list(redact_log(parse_log(to_jsonl(full), "f"), looker))
        assert record[i].cards == full[i].cards
        assert run(parse_log(to_jsonl(record[:i + 1]), "r")).verdict != "illegal"
        stranger = "no-such-card"
        bad = msgspec.structs.replace(record[i], cards=[stranger] + list(record[i].cards[1:]))
        with pytest.raises(LogError, match=stranger):
            parse_log(to_jsonl(record[:i] + [bad]), "r")  # not a card of the pool: unreadable


@covers("LG-45", legal=True, illegal=True, behaviour=True)
def test_a_card_the_looker_saw_changed_in_its_record_is_illegal(pools: Path) -> None:
    """LG-45 (the knowledge oracle's mutation property, on a few matches): a Backup card or the
    card slots' cards a look showed, named otherwise later in the looker's record, are flagged at
    that line (tests/test_knowledge_oracle.py's model says where the card is determined); the
    records themselves, unchanged, are not illegal (the oracle checks them)."""
    from tests.test_knowledge_oracle import _logos_mutations, logos_looks_match

    rules: list[str] = []
    with sources.using(sources.Sources([pools])):
        for seed in range(1, 13):
            rules += _logos_mutations(logos_looks_match(seed), f"logos-{seed}")
    assert "LG-45" in rules and "LG-39" in rules, rules
    ruled("LG-45")
