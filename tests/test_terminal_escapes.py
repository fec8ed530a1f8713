"""Nothing from the input reaches a terminal or a spreadsheet as anything but text (issue 29,
items 9 and 10): CSV cells that start like a formula are prefixed with ``'``; control characters,
bidirectional overrides and newlines inside a value are escaped in every text output."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
OSC = "\x1b]0;pwned\x07"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _manifest(tmp_path: Path, **swap: str) -> Path:
    for f in (ROOT / "examples" / "tournament").iterdir():
        shutil.copy(f, tmp_path / f.name)
    m = tmp_path / "manifest.toml"
    text = m.read_text()
    for old, new in swap.items():
        assert old in text
        text = text.replace(old, new, 1)
    m.write_text(text)
    return m


def test_csv_cells_that_start_like_a_formula_are_prefixed_and_controls_escaped(tmp_path: Path) -> None:
    bad = {'"r1-t1.jsonl"': json.dumps("x" + OSC + ".jsonl"), 'result = "alice"': 'result = "=HYPERLINK(1)"'}
    r = invoke("tournament", "check", "--csv", str(_manifest(tmp_path, **bad)))
    assert "\x1b" not in r.output and "\x07" not in r.output
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert any(row["log"].endswith("x\\x1b]0;pwned\\x07.jsonl") for row in rows), rows
    assert [row["reported"] for row in rows][0] == "'=HYPERLINK(1)"
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for cell in row.values())


def test_a_newline_or_a_bidi_override_in_a_name_prints_no_line_of_its_own(tmp_path: Path) -> None:
    m = _manifest(tmp_path, **{'"Example Colossus Order evening"': json.dumps("Open\nr9.jsonl: legal\u202e")})
    r = invoke("tournament", "check", str(m))
    first = r.output.splitlines()[0]
    assert first.startswith("Open\\x0ar9.jsonl: legal\\u202e"), first
    assert "\u202e" not in r.output


def test_a_newline_in_a_header_value_prints_no_fake_verdict(tmp_path: Path) -> None:
    src = (ROOT / "examples" / "kolossus" / "legal-chapter-1.jsonl").read_text().splitlines()
    first = json.loads(src[0])
    first["meta"] = {"event": "Open\nfake.jsonl: illegal (1 events)", "judge": "\u202eeve"}
    log = tmp_path / "m.jsonl"
    log.write_text("\n".join([json.dumps(first)] + src[1:]) + "\n")
    r = invoke("verify", str(log))
    assert r.exit_code == 0, r.output
    assert not any(line.startswith("fake.jsonl") for line in r.output.splitlines()), r.output
    assert "Open\\x0afake.jsonl" in r.output and "\u202e" not in r.output
