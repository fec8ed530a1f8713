"""Issue 30: the text form's set-up in words, not JSON (docs/notation.md, "The text form of a match").

- every example's header is words: ``[player "ann"]`` a player, ``[option "picks" "open"]``,
  ``[seat "tuatha" "ann" "NW"]``, the decks of Colossus Order and LOGOS as deck sections in card
  names; no tag of any example holds a JSON list or object;
- the header the first text form wrote (JSON values: ``[players ["ann","ben"]]``, ``[decks
  {...}]``, captured from every example before the change: tests/textform_headers_v1.json)
  still reads as the same set-up;
- property over generated matches of every game: set-ups with every option at another value,
  players whose names hold blanks, commas, quotes, bars and non-ASCII letters, and a header,
  convert to text and back byte for byte, and ``MatchStarted``'s notation reads back;
- a header typed by hand reads (names or ids, any case), and a typo is named with its file, line
  and field, exit 2.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from adjudicator.cli.convert import to_jsonl, to_text
from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.notation import Notation
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl as events_jsonl

from .conftest import PROPERTY_SCALE
from .test_options_behaviour import accepts, alternatives, with_option

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(ROOT.glob("examples/*/*.jsonl"))
OLD = json.loads((Path(__file__).parent / "textform_headers_v1.json").read_text(encoding="utf-8"))
#: the games with notation of their own (a plugin on the kit's generic form, as the test suite's toy
#: game, keeps JSON values in its set-up's words: exact, but not a player's words)
GAMES = [g.id for g in registry.games() if type(g.notation) is not Notation]
ALL = [g.id for g in registry.games()]
EVENT_LINE = re.compile(r"^\d+\. ", re.M)
#: a tag whose value is a JSON list or object
JSON_TAG = re.compile(r"^\[[a-z][A-Za-z0-9_-]* [\[{]", re.M)
#: player names a person may type: blanks, commas, quotes, a bar, the notation's words, letters beyond ASCII
NAMES = ["Ann Marie", "O'Brien, Jr.", 'the "kid"', "a | b", "vs", "Zoë", "start", "x: y", "ann"]


def header(text: str) -> str:
    m = EVENT_LINE.search(text)
    return text[:m.start()] if m else text


def body(text: str) -> str:
    m = EVENT_LINE.search(text)
    return text[m.start():] if m else ""


def round_trip(data: bytes, name: str) -> str:
    text = to_text(data, name)
    assert to_jsonl(text.encode(), name + ".txt") == data, f"{name}: JSON Lines -> text -> JSON Lines changed the bytes"
    return text


def test_the_captured_headers_are_every_example() -> None:
    assert sorted(OLD) == sorted(str(p.relative_to(ROOT)) for p in EXAMPLES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_writes_its_header_in_words(path: Path) -> None:
    data = path.read_bytes()
    text = round_trip(data, str(path))
    head = header(text)
    assert not JSON_TAG.search(head), head
    setup = parse_log(data, str(path)).events[0][1]
    if "[game " in head:
        assert [json.loads(m) for m in re.findall(r'^\[player (".*")\]$', head, re.M)] == list(setup.players)
        for k, v in getattr(setup, "options", {}).items():
            assert f"[option {json.dumps(k)} " in head, k
        for p in getattr(setup, "decks", {}):
            assert f"[deck {json.dumps(p)}]" in head


@pytest.mark.parametrize("key", sorted(OLD))
def test_the_first_text_forms_json_header_still_reads(key: str) -> None:
    """The header as the text form wrote it before the words (JSON values), with the events as
    they are written now, reads as the very log."""
    data = (ROOT / key).read_bytes()
    old = OLD[key]
    text = old + body(to_text(data, key))
    assert to_jsonl(text.encode(), "old.txt") == data
    if JSON_TAG.search(old):  # (a header of JSON values: the words are new)
        assert JSON_TAG.search(header(to_text(data, key))) is None


def _renamed(setup: Event, names: list[str]) -> Event:
    """``setup`` with its players renamed (every string that is a player's id, keys included)."""
    new = dict(zip(setup.players, names))

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return new.get(v, v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {walk(k): walk(x) for k, x in v.items()}
        return v

    doc = walk(msgspec.to_builtins(setup))
    return msgspec.convert(doc, type(setup))


def _setups(game_id: str) -> list[Event]:
    """Generated set-ups: the game's sample set-ups over seeds, each option of the game at every
    other value the option search tries (one option a set-up), players renamed, a header."""
    game = registry.get(game_id)
    out = []
    changes = [(name, v) for name in game.options_type.__struct_fields__ for v in alternatives(game, name)]
    n = max(len(changes), 6) * PROPERTY_SCALE
    for seed in range(n):
        setup = game.sample_setup(seed)
        if changes:
            name, value = changes[seed % len(changes)]
            setup = with_option(setup, name, value)
        if seed % 2:
            k = len(setup.players)
            setup = _renamed(setup, [NAMES[(seed + i) % len(NAMES)] for i in range(k)])
        if seed % 3 == 1:
            setup = msgspec.structs.replace(setup, meta={"event": "Club night", "round": str(seed)})
        if accepts(game, setup):
            out.append(setup)
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_generated_set_ups_round_trip_in_words(game_id: str) -> None:
    game = registry.get(game_id)
    setups = _setups(game_id)
    assert len(setups) >= 6
    worded = 0
    for k, setup in enumerate(setups):
        events, _ = playout(game, k, max_events=30, setup=setup)
        data = events_jsonl(events)
        text = round_trip(data, f"{game_id}-{k}.jsonl")
        head = header(text)
        worded += not JSON_TAG.search(head)
        n = game.notation
        back = n.parse(n.format(setup))  # (an option's tuple reads back as a list: compared as JSON)
        assert msgspec.json.encode(back) == msgspec.json.encode(setup), n.format(setup)
        nested = any(isinstance(v, dict) for v in getattr(setup, "options", {}).values())
        assert '{"' not in n.format(setup) or nested, n.format(setup)  # (no JSON object but an option's own table)
    assert worded >= len(setups) * 3 // 4, "most set-ups are written in words"


# -- typed by hand --------------------------------------------------------------------------------

def _typed(tmp_path: Path, src: str, edit: dict[str, str]) -> tuple[Path, str]:
    text = to_text((ROOT / src).read_bytes(), src)
    for old, new in edit.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "typed.txt"
    path.write_text(text)
    return path, text


def test_a_logos_header_typed_by_hand_reads_and_a_typo_is_named(tmp_path: Path) -> None:
    src = "examples/logos/legal-open-picks.jsonl"
    path, text = _typed(tmp_path, src, {"3 Storm Coil": "3x storm-coil", "3 Dynamo Knight": "3 DYNAMO  knight"})
    r = CliRunner().invoke(main, ["convert", str(path)])
    assert r.exit_code == 0 and r.output_bytes == (ROOT / src).read_bytes(), r.output
    path, text = _typed(tmp_path, src, {"3 Storm Coil": "3 Strom Coil"})
    r = CliRunner().invoke(main, ["verify", str(path)])
    line = text.splitlines().index("3 Strom Coil") + 1
    assert r.exit_code == 2 and f"typed.txt:{line}: deck: " in r.output and "did you mean: Storm Coil?" in r.output, r.output
    path, text = _typed(tmp_path, src, {'[option "picks" "open"]': '[option "pciks" "open"]'})
    r = CliRunner().invoke(main, ["verify", str(path)])
    line = text.splitlines().index('[option "pciks" "open"]') + 1
    assert r.exit_code == 2 and f"typed.txt:{line}: options.pciks: " in r.output and "picks" in r.output, r.output


@pytest.mark.parametrize("edit, part", [
    ({'[seat "tuatha" "ann" "NW"]': '[seat "tuata" "ann" "NW"]'}, "seats[0].warband"),
    ({'[seat "krell" "ben" "NE"]': '[seat "krell" "ben" "NE" "x"]'}, "seat"),
    ({'[player "ben"]': '[player "ben" "bob"]'}, "player"),
    ({'[player "ben"]': '[players ["ben"]]'}, "players"),
    ({"[seed 21]": "[seed 21 22]"}, "seed"),
    ({'[player "ben"]': '[player ben]'}, "player"),
])
def test_a_kolossus_header_typo_names_its_line_and_field(tmp_path: Path, edit: dict[str, str], part: str) -> None:
    path, text = _typed(tmp_path, "examples/kolossus/legal-chapter-1.jsonl", edit)
    new = next(iter(edit.values()))
    line = text.splitlines().index(new) + 1
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 2 and f"typed.txt:{line}: {part}: " in r.output and "Traceback" not in r.output, r.output


def test_tags_in_words_and_json_mix_and_hold_any_name(tmp_path: Path) -> None:
    """A scorekeeper's header: players in words, the seats as the first text form's JSON, an
    option in words: the same set-up as the log's."""
    src = ROOT / "examples/kolossus/legal-chapter-2.jsonl"
    setup = parse_log(src.read_bytes()).events[0][1]
    seats = msgspec.json.encode(setup.seats).decode()
    text = "\n".join(['[game "kolossus"]', *[f"[player {json.dumps(p)}]" for p in setup.players], f"[seats {seats}]",
                      f"[ruleset {json.dumps(setup.ruleset)}]", f"[seed {setup.seed}]", f'[rng "{setup.rng}"]', ""]) + "\n"
    got = parse_log(text.encode(), "h.txt").events[0][1]
    assert got == setup


def test_logos_match_started_reads_in_card_names_in_the_viewers() -> None:
    """LOGOS's first event as every viewer lists it: the players, each deck in card names, the
    other fields; read back exactly, by names or ids; a seat's record shows the opponent's list
    as ``?``; the ids' form still reads."""
    from adjudicator.games.logos import posline
    from adjudicator.replays.core import Replay

    game = registry.get("logos")
    n = game.notation
    path = ROOT / "examples/logos/legal-open-picks.jsonl"
    setup = parse_log(path.read_bytes()).events[0][1]
    text = n.format(setup)
    a, b = setup.players
    assert text.startswith(f"start {a} vs {b} | {a}: 3 Storm Coil, 3 Dynamo Knight, ") and text.endswith(" | ruleset=demo opt.picks=open")
    assert "-" not in text.split(" | ruleset")[0], text  # (names, not ids such as storm-coil)
    assert Replay.from_file(str(path)).frame(1).text == text
    assert n.parse(text) == setup
    assert n.parse(text.replace("3 Storm Coil", "3x storm-coil").replace("3 Dynamo Knight", "3 DYNAMO  KNIGHT")) == setup
    assert n.parse("start " + posline.setup_text(setup)) == setup
    seat = ROOT / "examples/logos/legal-seat-ann-hidden-picks.jsonl"
    mine = parse_log(seat.read_bytes()).events[0][1]
    assert n.format(mine).endswith(" | ben: ?") and n.parse(n.format(mine)) == mine
    with pytest.raises(Exception, match="did you mean"):
        n.parse(text.replace("3 Storm Coil", "3 Strom Coil"))


def test_the_typed_headers_of_docs_notation_md_read() -> None:
    """Each game's header a person types, as docs/notation.md shows it ("Deck sections"), reads as
    a set-up of that game and its first event."""
    doc = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    section = doc[doc.index("- **Deck sections**"):doc.index("- **Event lines**")]
    blocks = [re.sub(r"^  ", "", b, flags=re.M) for b in re.findall(r"```text\n(.*?)```", section, re.S)]
    games = []
    for b in blocks:
        log = parse_log(b.encode(), "docs/notation.md")
        assert len(log.events) == 2 and not JSON_TAG.search(b)
        games.append(log.game.id)
    assert sorted(games) == sorted(GAMES)


_PIECES = ["start ", "ann", " vs ", "ben", " | ", ": ", "3 ", "Storm Coil", ", ", "?", '"a\\q"', '"x', "ruleset=", "demo",
           "opt.picks=", "list.ann=", "*", "=", "%", "\n", "[", "]"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=6), max_size=14))
def test_any_set_up_text_is_a_set_up_or_a_notation_error(parts: list[str]) -> None:
    from adjudicator.core.kernel.notation import NotationError

    n = registry.get("logos").notation
    try:
        n.parse("start " + "".join(parts))
    except NotationError:
        pass


_TAGS = ['[game "logos"]', '[game "kolossus"]', '[player "ann"]', '[player "ben" "x"]', '[players ["ann","ben"]]',
         '[option "picks" "open"]', '[option picks]', '[seat "tuatha" "ann" "NW"]', '[seat 1 2 3 4 5]', '[deck "ann"]',
         "3 Storm Coil", "3 Strom Coil", '[decks {"ann":{}}]', '[Round "3"]', '[Round 3]', '[seed 1e400]',
         '[option "a" NaN]', '[player "a"  "b"]', "", "ann: draw Storm Coil", '[x "\\q"]', '[options {"picks":"open"}]']


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TAGS), max_size=10))
def test_any_header_reads_or_is_a_log_error_naming_a_line(lines: list[str]) -> None:
    from adjudicator.core.kernel.errors import LogError
    from adjudicator.core.kernel.textlog import read_text

    try:
        read_text(("\n".join(lines) + "\n").encode(), "h.txt")
    except LogError:
        pass


@pytest.mark.parametrize("header, line, part, said", [
    ('[game "logos"]\n[playr "ann"]\n', 2, "playr", "did you mean 'player'?"),
    ('[game "logos"]\n[player "ann"]\n[optoin "picks" "open"]\n', 3, "optoin", "did you mean 'option'?"),
    ('[game "kolossus"]\n[player "ann"]\n[seats [{"warband":"tuatha","player":"ann","corner":"NW","x":1}]]\n', 3,
     "seats[0].x", "unknown field"),
    ('[game "logos"]\n[player "ann"]\n[player "ben"]\n[option "picks" "opne"]\n\n[deck "ann"]\n3 Storm Coil\n\n'
     '[deck "ben"]\n3 Iron Golem\n', 4, "options.picks", "'opne'"),
])
def test_a_mistyped_tag_is_named_by_its_line(tmp_path: Path, header: str, line: int, part: str, said: str) -> None:
    path = tmp_path / "h.txt"
    path.write_text(header + "\n")
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 2 and f"h.txt:{line}: {part}: " in r.output and said in r.output, r.output


@pytest.mark.parametrize("game_id", ALL)
def test_a_terminals_escapes_in_names_never_reach_the_header_raw(game_id: str) -> None:
    """A player or a header value holding a terminal's escape (C0 or C1) is written escaped in
    every tag and deck section (JSON's ``\\u009b``), and still converts back byte for byte."""
    game = registry.get(game_id)
    setup = game.sample_setup(4)
    setup = _renamed(setup, ["a\x9b[31m", "b\x1b]0;x\x07", "c\u0085", "d"][:len(setup.players)])
    setup = msgspec.structs.replace(setup, meta={"event": "\x9bclub"})
    events, _ = playout(game, 1, max_events=20, setup=setup)
    text = round_trip(events_jsonl(events), f"{game_id}-esc.jsonl")
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", header(text)), header(text)
    assert "\\u009b" in header(text)
