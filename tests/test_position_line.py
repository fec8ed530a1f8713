"""The position in one line at the CLI (docs/notation.md, "The position line"): ``state --text``
prints ``game.notation.format_position``; ``check``, ``legal`` and ``state`` read it back with
``--position-text LINE`` or ``--position FILE`` (sniffed: a position document or a line), so a
judge types the position and asks.  A game whose notation has no position form says so (exit 2).
The toy game is given a position line here (the view as JSON after ``toy:``), the way a game's
``notation.py`` gives one, so the commands are run as a user runs them."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel.notation import Notation, NotationError
from adjudicator.core.kernel.playout import playout, to_jsonl


class ToyLine(Notation):
    def format_position(self, state, seat=None):
        return "toy: " + msgspec.json.encode(self.game.view(state, seat)).decode()

    def parse_position(self, text):
        if not text.startswith("toy: "):
            raise NotationError(text[:80], "not a toy position")
        try:
            return self.game.load_state(msgspec.json.decode(text[5:]))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise NotationError(text[:80], str(exc)) from None


@pytest.fixture()
def toy_line(toy, monkeypatch):
    monkeypatch.setitem(toy.__dict__, "_notation", ToyLine(toy))
    return toy


def _log(tmp_path: Path, game, seed: int = 4) -> Path:
    events, _ = playout(game, seed, max_events=6)
    path = tmp_path / "m.jsonl"
    path.write_bytes(to_jsonl(events))
    return path


def test_state_text_then_check_and_legal_on_the_typed_line(tmp_path: Path, toy_line) -> None:
    log = _log(tmp_path, toy_line)
    run = CliRunner().invoke
    r = run(main, ["state", "--text", str(log)])
    assert r.exit_code == 0, r.output
    line = r.output.strip()
    assert line.startswith("toy: ") and "\n" not in line
    by_log = run(main, ["legal", str(log)])
    by_line = run(main, ["legal", "--position-text", line])
    assert by_line.exit_code == 0 and by_line.output == by_log.output
    assert "b: added n=1" in by_line.output  # the notation, not JSON
    (tmp_path / "pos.txt").write_text(line + "\n")
    by_file = run(main, ["legal", "--position", str(tmp_path / "pos.txt")])
    assert by_file.output == by_log.output
    r = run(main, ["check", "--position-text", line, "--event", "b: added n=2"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("legal: ") and "  event: b: added n=2\n" in r.output and "next to act:" in r.output
    r = run(main, ["check", "--position-text", line, "--event", "a: added n=2"])
    assert r.exit_code == 1 and "illegal" in r.output
    r = run(main, ["state", "--position-text", line, "--text"])
    assert r.output.strip() == line


def test_a_bad_position_line_is_exit_2(tmp_path: Path, toy_line) -> None:
    run = CliRunner().invoke
    for args in (["legal", "--position-text", "toy: {"], ["legal", "--position-text", "chess: e4"],
                 ["legal", "--position-text", "toy: {}\ntoy: {}"]):
        r = run(main, args)
        assert r.exit_code == 2 and r.output.startswith("error: --position-text"), r.output
    log = _log(tmp_path, toy_line)
    r = run(main, ["legal", str(log), "--position-text", "toy: {}"])
    assert r.exit_code == 2 and "one of a LOG" in r.output


def test_a_game_without_a_position_line_says_so(tmp_path: Path, toy) -> None:
    if type(toy.notation).format_position is not Notation.format_position:
        pytest.skip("the toy game has a position line")
    r = CliRunner().invoke(main, ["state", "--text", str(_log(tmp_path, toy))])
    assert r.exit_code == 2 and "toy has no position notation" in r.output, r.output


def test_replay_opens_a_typed_position(tmp_path: Path, toy_line) -> None:
    from adjudicator.cli.replay import build_app
    from adjudicator.cli.common import BadInput

    log = _log(tmp_path, toy_line)
    line = CliRunner().invoke(main, ["state", "--text", str(log)]).output.strip()
    app = build_app(None, position_text=line)
    assert len(app.replay) == 1
    assert toy_line.notation.format_position(app.replay.state(1)) == line
    assert app.replay.scene(1).status == toy_line.scene(toy_line.notation.parse_position(line), None).status
    (tmp_path / "p.txt").write_text(line)
    assert build_app(None, position=str(tmp_path / "p.txt")).replay.state(1) == app.replay.state(1)
    with pytest.raises(BadInput, match="one of"):
        build_app(str(log), position_text=line)
    with pytest.raises(BadInput, match="no game reads"):
        build_app(None, position_text="toy? no")


def test_check_reads_the_proposed_event_in_the_notation() -> None:
    """``check --event`` in the game's words: one legal event is ruled on, several are named
    (exit 2), and JSON still reads as before."""
    log = str(Path(__file__).resolve().parent.parent / "examples/colossus-order/legal-judge-stands.jsonl")
    run = CliRunner().invoke
    listed = run(main, ["legal", log, "--at", "30"]).output.splitlines()[1:]
    assert listed and all(not ln.strip().startswith("{") for ln in listed)
    first = listed[0].strip().split("   (+")[0]
    r = run(main, ["check", log, "--at", "30", "--event", first])
    assert r.exit_code == 0 and f"  event: {first}\n" in r.output and "next to act:" in r.output, r.output
    who = first.split(":")[0]
    r = run(main, ["check", log, "--at", "30", "--event", f"{who}:"])
    assert r.exit_code == 2 and "reads as" in r.output and first in r.output, r.output
    r = run(main, ["check", log, "--at", "30", "--event", '{"type": "MainPhaseEnded", "player": "alice"}'])
    assert r.exit_code == 1 and r.output.startswith("illegal: "), r.output
