"""Issue 30: Colossus Order's set-up in words (docs/notation.md, "Deck sections").

- The text form writes the players as tags and each deck as a deck section in names
  (``[deck "alice"]``, ``colossus: Colossus of the Dawn Bastion``, ``3 Heroic Knight``), and reads
  it back byte for byte: every example, generated matches with options, a header and a pinned
  pool, and the seats' records (a deck list left unknown: ``size: N``);
- a scorekeeper types a deck section by hand (names or ids, any case, ``3x``) and ``verify`` reads
  it; a card it does not know is named with its file, line and the closest names (exit 2);
- ``MatchStarted``'s notation (the first event every viewer lists) is the set-up in words,
  ``start alice vs bob | alice: <colossus>; 3 <card>, ...``, read back exactly, and the ids' form
  (``start players=[...] decks={...}``) still reads.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

import adjudicator
from adjudicator.cli.convert import to_jsonl, to_text
from adjudicator.cli.main import main
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl as events_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.games.colossus_order.cards import POOLS
from adjudicator.replays.core import Replay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(ROOT.glob("examples/colossus-order/*.jsonl"))
GAME = adjudicator.game("colossus-order")
N = GAME.notation


def header(text: str) -> str:
    """The text form's lines before its first event line."""
    return text[: re.search(r"^\d+\. ", text, re.M).start()] if re.search(r"^\d+\. ", text, re.M) else text


def round_trip(data: bytes, name: str) -> str:
    text = to_text(data, name)
    assert to_jsonl(text.encode(), name + ".txt") == data, f"{name}: not byte for byte"
    return text


def names_of(setup: adjudicator.Event) -> dict[str, str]:
    pool = POOLS.of_setup(setup)
    return {cid: c.name for cid, c in pool.items()}


def assert_deck_sections(text: str, setup: adjudicator.Event) -> None:
    """Each deck a section in names: no JSON deck tag, the colossus and every card by name."""
    head = header(text)
    assert "[decks " not in head and '"cards"' not in head
    names = names_of(setup)
    for p, deck in setup.decks.items():
        section = head.split(f'[deck "{p}"]\n', 1)[1].split("\n\n", 1)[0].splitlines()
        assert section[0] == f"colossus: {names[deck.colossus]}"
        assert section[1:len(deck.cards) + 1] == [f"{n} {names[c]}" for c, n in deck.cards.items()]
        assert section[len(deck.cards) + 1:] == ([f"size: {deck.size}"] if deck.size is not None else [])


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_writes_its_decks_as_deck_lists_in_names(path: Path) -> None:
    data = path.read_bytes()
    text = round_trip(data, str(path))
    assert_deck_sections(text, parse_log(data, str(path)).events[0][1])


@pytest.mark.parametrize("seed", [0, 4])
def test_generated_set_ups_and_the_seats_records_round_trip_in_words(seed: int) -> None:
    """Options, a header, a pinned pool and a seat's record (the opponent's list unknown, its size
    given where deck validation is off) all read back byte for byte, the decks in names."""
    base = GAME.sample_setup(seed)
    pin = POOLS.kind.find(base.pool)[1].sha256  # (the pool pinned by its content)
    setup = msgspec.structs.replace(base, options={"deck_validation": "off"} if seed else {},
                                    meta={"event": "Club night", "round": "3"}, pool_sha256=pin)
    events, _ = playout(GAME, seed, max_events=120, setup=setup)
    data = events_jsonl(events)
    text = round_trip(data, f"co-{seed}.jsonl")
    assert_deck_sections(text, setup)
    assert '[Event "Club night"]' in text
    for seat in setup.players:
        record = list(redact_log(parse_log(data), seat))
        mine = events_jsonl(record)
        text = round_trip(mine, f"co-{seed}-{seat}.jsonl")
        assert_deck_sections(text, record[0])
        other = next(p for p in setup.players if p != seat)
        section = header(text).split(f'[deck "{other}"]\n', 1)[1].split("\n\n", 1)[0]
        assert len(section.splitlines()) <= 2  # the colossus (and the size): the list is unknown


TYPED = """\
[game "colossus-order"]
[players ["alice", "bob"]]
[Event "Club night"]

[deck "alice"]
# a scorekeeper's list: names or ids, any case, 3x
colossus: colossus of the dawn bastion
{ALICE}

[deck "bob"]
colossus: {BOB_COLOSSUS}
{BOB}

{BODY}
"""


def _typed(tmp_path: Path, typo: str | None = None) -> tuple[Path, int]:
    """A real example typed by hand: its decks as lists (alice's cards as ``3x <id>``), its first
    events in the notation; ``typo`` replaces alice's third card line.  The path and that line."""
    src = ROOT / "examples/colossus-order/legal-gem-complete.jsonl"
    log = parse_log(src.read_bytes(), str(src))
    setup = log.events[0][1]
    names = names_of(setup)
    text = to_text(b"".join(msgspec.json.encode(e) + b"\n" for _, e in log.events[:30]), "x")
    body = "\n".join(ln for ln in text.splitlines() if re.match(r"\d+\. ", ln))
    a, b = setup.players
    alice = [f"{n}x {cid}" if i % 2 else f"{n} {names[cid].upper()}" for i, (cid, n) in enumerate(setup.decks[a].cards.items())]
    if typo is not None:
        alice[2] = typo
    out = TYPED.replace("alice", a).replace("bob", b).replace("{ALICE}", "\n".join(alice))
    out = out.replace("{BOB_COLOSSUS}", names[setup.decks[b].colossus])
    out = out.replace("{BOB}", "\n".join(f"{n} {names[c]}" for c, n in setup.decks[b].cards.items())).replace("{BODY}", body)
    path = tmp_path / "typed.txt"
    path.write_text(out)
    return path, out.splitlines().index(alice[2]) + 1


def test_a_deck_section_typed_by_hand_verifies_and_a_typo_is_named(tmp_path: Path) -> None:
    path, _ = _typed(tmp_path)
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code in (0, 5), r.output
    r = CliRunner().invoke(main, ["convert", str(path)])
    assert r.exit_code == 0, r.output
    src = parse_log((ROOT / "examples/colossus-order/legal-gem-complete.jsonl").read_bytes())
    assert parse_log(r.output_bytes, "c.jsonl").events[0][1].decks == src.events[0][1].decks
    path, line = _typed(tmp_path, "3 Heroic Knigth")
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 2, r.output
    assert f"typed.txt:{line}: deck: " in r.output and "did you mean: Heroic Knight?" in r.output and "Traceback" not in r.output


def test_match_started_reads_as_the_set_up_in_words_in_the_viewers() -> None:
    path = ROOT / "examples/colossus-order/legal-gem-complete.jsonl"
    setup = parse_log(path.read_bytes()).events[0][1]
    names = names_of(setup)
    a, b = setup.players
    text = N.format(setup)
    assert text.startswith(f"start {a} vs {b} | {a}: {names[setup.decks[a].colossus]}; ")
    assert f"| {b}: {names[setup.decks[b].colossus]}; " in text and "{" not in text
    assert N.parse(text) == setup and msgspec.json.encode(N.parse(text)) == msgspec.json.encode(setup)
    assert Replay.from_file(str(path)).frame(1).text == text  # the viewers' first event
    seen = GAME.redact(setup, a)
    assert f"| {b}: {names[setup.decks[b].colossus]}; unknown" in N.format(seen) and N.parse(N.format(seen)) == seen
    from adjudicator.games.colossus_order.position_line import setup_text

    assert N.parse(setup_text(setup)) == setup  # the ids' form reads too
