"""The text form of a match (docs/notation.md, adjudicator/core/kernel/textlog.py): lossless both ways,
read by every command that reads a log, its errors naming the text's file and line.

- every example converts to text and back byte for byte, sealed (``prev``) and numbered (``seq``)
  copies included, and so do generated matches of every registered game (derived events stated);
- the text form reads as the same events as its JSON Lines, with the text's line numbers;
- a match typed by hand (tags, the notation, no numbers, a comment and a variation) verifies
  through the CLI, and a wrong line is named (exit 1 illegal, exit 2 unreadable with file:line).
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.cli.convert import to_jsonl, to_text
from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import bare
from adjudicator.core.kernel.log import parse_log, seal_lines
from adjudicator.core.kernel.playout import playout, to_jsonl as events_jsonl
from adjudicator.core.kernel.textlog import is_text, read_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(ROOT.glob("examples/*/*.jsonl"))
GAMES = [g.id for g in registry.games()]
#: an event line of the text form (``12. alice: pass``; a deck section's ``3 Grave Rat`` is none)
EVENT_LINE = re.compile(r"\d+\. ")


def _round_trip(data: bytes, name: str) -> str:
    text = to_text(data, name)
    assert is_text(text.encode())
    back = to_jsonl(text.encode(), name + ".txt")
    assert back == data, f"{name}: JSON Lines -> text -> JSON Lines changed the bytes"
    return text


def _numbered(data: bytes) -> bytes:
    """``data`` with every line carrying its ``seq``."""
    out = []
    for i, raw in enumerate(data.splitlines(), start=1):
        doc = msgspec.json.decode(raw)
        doc["seq"] = i
        out.append(msgspec.json.encode(doc) + b"\n")
    return b"".join(out)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_round_trips_byte_for_byte(path: Path) -> None:
    data = path.read_bytes()
    text = _round_trip(data, str(path))
    log, back = parse_log(data, str(path)), parse_log(text.encode(), "t.txt")
    assert [e for _, e in back.events] == [e for _, e in log.events]
    assert back.text and not log.text
    lines = text.splitlines()
    for line, ev in back.events[1:]:  # each event is named by its own line of the text
        assert lines[line - 1].startswith(f"{ev.seq or back.events.index((line, ev)) + 1}. ")


@pytest.mark.parametrize("path", EXAMPLES[::9], ids=lambda p: p.name)
def test_sealed_and_numbered_examples_round_trip(path: Path) -> None:
    data = path.read_bytes()
    sealed = b"".join(line + b"\n" for line in seal_lines(data.splitlines()))
    text = _round_trip(sealed, "sealed.jsonl")
    n = len(data.splitlines())
    if n > 1:  # the chain rebuilt as the JSON Lines are written, not copied
        assert text.startswith("%envelope prev") and (n < 5 or text.count('"prev"') < n // 2)
    assert parse_log(text.encode(), "s.txt").sealed_head == parse_log(sealed, "s.jsonl").sealed_head
    _round_trip(_numbered(data), "numbered.jsonl")


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_generated_matches_round_trip(game_id: str, seed: int) -> None:
    game = registry.get(game_id)
    events, _ = playout(game, seed, max_events=400, with_derived=seed == 2)
    data = events_jsonl(events)
    text = _round_trip(data, f"{game_id}-{seed}.jsonl")
    notated = [ln for ln in text.splitlines() if EVENT_LINE.match(ln) and not ln.split(". ", 1)[1].startswith("{")]
    assert len(notated) >= (len(events) - 1) // 2, "most events are written in the notation, not JSON"
    head = text[:re.search(r"^\d+\. ", text, re.M).start()]
    assert not re.search(r"^\[[a-z]\w* [\[{]", head, re.M), f"the set-up's tags are words, not JSON:\n{head}"


def test_notes_variations_and_meta_round_trip() -> None:
    game = registry.get("colossus-order")
    events, _ = playout(game, 3, max_events=40)
    setup = msgspec.structs.replace(events[0], meta={"event": "Club night", "round": "3", "table": "7"})
    events = [setup, msgspec.structs.replace(events[1], note="a comment"),
              msgspec.structs.replace(events[2], note="(3. bob: pass) (3. bob: concede)"),
              msgspec.structs.replace(events[3], note="odd } brace"), *events[4:]]
    data = events_jsonl(events)
    text = _round_trip(data, "meta.jsonl")
    assert '[Event "Club night"]' in text and '[Round "3"]' in text
    assert "{a comment}" in text and "\n  (3. bob: pass) (3. bob: concede)\n" in text
    assert '"note":"odd } brace"' in text  # a note the comment cannot hold: the line's JSON


HAND = """\
[game "colossus-order"]
[players ["alice", "bob"]]
[decks {DECKS}]
[Event "Club night"]

# typed by the scorekeeper: the short form, no numbers, derived events left to the engine
{BODY}
"""


def _typed(tmp_path: Path, upto: int = 30, change: dict[int, str] | None = None) -> tuple[Path, list[str]]:
    """A match typed by hand: a real example's events in the notation, numbers left out."""
    src = ROOT / "examples/colossus-order/legal-judge-stands.jsonl"
    log = parse_log(src.read_bytes(), str(src))
    text = to_text(b"".join(msgspec.json.encode(bare(e)) + b"\n" for _, e in log.events[:upto]), "x")
    body = [ln.split(". ", 1)[1] for ln in text.splitlines() if EVENT_LINE.match(ln)]
    for i, new in (change or {}).items():
        body[i] = new
    decks = msgspec.json.encode(log.events[0][1].decks).decode()
    path = tmp_path / "typed.txt"
    path.write_text(HAND.replace("{DECKS}", decks).replace("{BODY}", "\n".join(body)) + "\n")
    return path, body


def test_a_hand_typed_match_verifies_through_the_cli(tmp_path: Path) -> None:
    path, body = _typed(tmp_path)
    assert all(not b.startswith("{") for b in body)
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code in (0, 5), r.output  # legal (unfinished: the match goes on)
    assert "legal" in r.output and "illegal" not in r.output
    r = CliRunner().invoke(main, ["convert", str(path)])
    assert r.exit_code == 0, r.output
    assert parse_log(r.output_bytes, "c.jsonl").events[0][1].meta == {"event": "Club night"}
    r = CliRunner().invoke(main, ["state", str(path)])
    assert r.exit_code == 0 and r.output.strip()
    r = CliRunner().invoke(main, ["legal", str(path)])
    assert r.exit_code == 0 and "legal events" in r.output and "{" not in r.output


def test_an_illegal_typed_line_is_named_by_its_text_line(tmp_path: Path) -> None:
    path, body = _typed(tmp_path, 30)
    i = next(i for i, b in enumerate(body) if b.startswith("alice: play "))
    lines = path.read_text().splitlines()
    bad = msgspec.json.encode({"type": "MainPhaseEnded", "player": "bob"}).decode()
    lines[lines.index(body[i])] = bad
    path.write_text("\n".join(lines) + "\n")
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 1, r.output
    assert f"{path}:{lines.index(bad) + 1}:" in r.output


@pytest.mark.parametrize("text, line, part", [
    ('[game "colossus-order"]\n[players ["a", "b"]\n', 2, "players"),
    ('[game "colossus-order"]\nplayers a b\n', 1, "players"),
    ('[game "no-such-game"]\n\nalice: pass\n', 1, "game"),
    ("[game \"toy\"]\n%envelope seq sideways\n", 2, "directive"),
    ("", None, None),
])
def test_unreadable_text_names_file_line_and_part(tmp_path: Path, text: str, line: int | None, part: str | None) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text or "# nothing but a comment\n")
    for cmd in (["verify"], ["state"], ["convert"]):
        r = CliRunner().invoke(main, [*cmd, str(path)])
        assert r.exit_code == 2, r.output
        where = f"{path}:{line}:" if line else f"{path}:"
        assert where in r.output and (part is None or f"{part}:" in r.output), r.output


def test_a_word_that_reads_as_no_event_is_exit_2_with_its_line(tmp_path: Path) -> None:
    path, body = _typed(tmp_path, 25)
    lines = path.read_text().splitlines()
    k = lines.index(body[-1])
    lines[k] = "alice: flies to the moon"
    path.write_text("\n".join(lines) + "\n")
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 2 and f"{path}:{k + 1}: event: 'alice: flies to the moon'" in r.output, r.output


def test_bounds(tmp_path: Path) -> None:
    deep = "(" * 100 + ")" * 100
    with pytest.raises(Exception, match="deeper"):
        read_text(b'{"type":"MatchStarted","game":"colossi","players":["a","b"]}\n' + deep.encode(), "deep.txt")
    with pytest.raises(Exception, match="never closed"):
        read_text(b'{"type":"MatchStarted","game":"colossi","players":["a","b"]}\n(a: b\n', "open.txt")


def test_seal_export_and_the_viewer_read_the_text_form(tmp_path: Path) -> None:
    from adjudicator.replays.core import Replay

    src = ROOT / "examples/colossus-order/legal-judge-stands.jsonl"
    text = tmp_path / "m.txt"
    text.write_text(to_text(src.read_bytes(), str(src)))
    run = CliRunner().invoke
    sealed = run(main, ["seal", str(text)])
    assert sealed.exit_code == 0 and sealed.output_bytes == run(main, ["seal", str(src)]).output_bytes
    r = run(main, ["export", str(text), "-o", str(tmp_path / "m.html"), "--as", "judge"])
    assert r.exit_code == 0, r.output
    replay = Replay.from_file(text)
    assert [f.text for f in replay.frames] == [f.text for f in Replay.from_file(src).frames]
    page = (tmp_path / "m.html").read_text()
    assert all(f'"text":"{f.text}"' in page for f in replay.frames[1:40] if '"' not in f.text and "?" not in f.text)
    assert replay.frames[5].line == text.read_text().splitlines().index(next(
        ln for ln in text.read_text().splitlines() if ln.startswith("6. "))) + 1  # the text's own lines


@pytest.mark.parametrize("path", [p for p in EXAMPLES if "judge" in p.name] + EXAMPLES[::11],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_numbers_and_comments_are_optional(path: Path) -> None:
    """The text without its numbers, turn marks and result reads as the same log (a judge's
    ruling that lets an event stand included: the lines after it read in the position it left)."""
    data = path.read_bytes()
    lines = [re.sub(r"^\d+\. ", "", ln) for ln in to_text(data, str(path)).splitlines() if not ln.startswith("#")]
    assert to_jsonl("\n".join(lines).encode(), "bare.txt") == data


def test_the_example_of_docs_notation_md_reads_and_converts_back() -> None:
    doc = (ROOT / "docs" / "notation.md").read_text()
    block = doc.split("```text\n[game ", 1)[1].split("```", 1)[0]
    text = ("[game " + block).encode()
    log = parse_log(text, "docs/notation.md")  # (after a change of the game's notation: regenerate it
    assert len(log.events) == 9 and log.events[0][1].meta == {"event": "Club night", "round": "3", "table": "2"}
    assert "first quake" in log.events[5][1].note and log.events[6][1].note.startswith("(7. ")
    assert to_text(to_jsonl(text, "t"), "t") == text.decode()  # with adjudicator convert)


def test_control_characters_never_reach_the_text_raw() -> None:
    """A note, a name or a reason holding a terminal's escape is written escaped (the JSON line,
    or a JSON string in the notation), and still converts back byte for byte.  (A C1 character
    inside a JSON line stays as the log holds it, JSON does not escape it: the line is copied.)"""
    game = registry.get("colossus-order")
    events, _ = playout(game, 3, max_events=20)
    events[3] = msgspec.structs.replace(events[3], note="\x1b]0;pwned\x07 and\nmore")
    from adjudicator.core.kernel.events import JudgeRuling

    events.append(JudgeRuling(event=4, decision="stands", reason="\x1b[31mred\u009b"))
    data = events_jsonl(events)
    text = _round_trip(data, "esc.jsonl")
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f]", text) and "\\u001b" in text
    assert all(not re.search("[\x80-\x9f]", ln) for ln in text.splitlines() if not ln.split(". ", 1)[-1].startswith("{"))


def test_the_readme_notation_block_runs(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from .test_readme import block_after

    src = ROOT / "examples/kolossus/legal-chapter-1.jsonl"
    (tmp_path / "examples/kolossus").mkdir(parents=True)
    (tmp_path / "examples/kolossus/legal-chapter-1.jsonl").write_bytes(src.read_bytes())
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block_after("notation")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    assert "chapter-1.txt: legal" in r.stdout and (tmp_path / "chapter-1.txt").read_text().startswith('[game "kolossus"]')


def test_redact_and_reconcile_read_the_text_form(tmp_path: Path) -> None:
    seat = ROOT / "examples/colossus-order/legal-seat-alice-gem-complete.jsonl"
    full = ROOT / "examples/colossus-order/legal-gem-complete.jsonl"
    text = tmp_path / "seat.txt"
    text.write_text(to_text(seat.read_bytes(), str(seat)))
    run = CliRunner().invoke
    a, b = run(main, ["reconcile", str(text), str(full)]), run(main, ["reconcile", str(seat), str(full)])
    assert a.exit_code == b.exit_code == 0 and a.output.replace(str(text), "X") == b.output.replace(str(seat), "X")
    a, b = run(main, ["redact", str(text), "--as", "alice"]), run(main, ["redact", str(seat), "--as", "alice"])
    assert a.exit_code == 0 and a.output_bytes == b.output_bytes


def test_convert_never_replaces_its_input_and_an_existing_file_only_with_force(tmp_path: Path) -> None:
    src = ROOT / "examples/colossi/legal-judge-stands.jsonl"
    log = tmp_path / "m.jsonl"
    log.write_bytes(src.read_bytes())
    run = CliRunner().invoke
    for force in ([], ["--force"]):
        r = run(main, ["convert", str(log), "-o", str(log), *force])
        assert r.exit_code == 2 and "the same file" in r.output, r.output
    assert log.read_bytes() == src.read_bytes()
    out = tmp_path / "m.txt"
    out.write_text("precious\n")
    r = run(main, ["convert", str(log), "-o", str(out)])
    assert r.exit_code == 2 and out.read_text() == "precious\n"
    r = run(main, ["convert", str(log), "-o", str(out), "--force"])
    assert r.exit_code == 0 and out.read_text().startswith('[game "colossi"]')
    r = run(main, ["convert", str(out), "--to", "text"])  # text to text: the same text
    assert r.exit_code == 0 and r.output == out.read_text()
    r = run(main, ["convert", str(log), "--to", "jsonl"])  # JSON Lines to JSON Lines: checked, the same
    assert r.exit_code == 0 and r.output_bytes == src.read_bytes()
