"""``verify`` over a corpus: every core (--jobs) with the output in input order, a summary,
--quiet, and a progress bar only where asked (or on a terminal)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.main import main

EX = str(Path(__file__).resolve().parent.parent / "examples")


def run(*args: str):
    return CliRunner().invoke(main, ["verify", *args], catch_exceptions=False)


def test_jobs_keep_the_input_order_and_the_verdicts() -> None:
    one, two = run(EX, "--jobs", "1"), run(EX, "--jobs", "2")
    assert one.exit_code == two.exit_code == 1
    assert one.output == two.output
    logs = sorted(Path(EX).rglob("*.jsonl"))
    verdict_lines = [x for x in one.output.splitlines() if x.startswith(EX) and ": " in x and " (" in x
                     and not x.startswith("  ")]
    assert [x.split(": ")[0] for x in verdict_lines] == [str(p) for p in logs]


def test_summary_in_text_and_json() -> None:
    text = run(EX).output.splitlines()
    summary = next(i for i, x in enumerate(text) if " logs: " in x and "legal" in x)
    assert text[summary + 1].startswith("rules broken (first violation of each illegal log): ")
    docs = [json.loads(x) for x in run(EX, "--json", "-j", "2").output.splitlines()]
    *logs, last = docs
    s = last["summary"]
    assert s["logs"] == len(logs) and sum(s["verdicts"].values()) == len(logs)
    assert s["verdicts"]["illegal"] == sum(1 for d in logs if d["verdict"] == "illegal")
    assert sum(s["rules"].values()) == s["verdicts"]["illegal"]


def test_quiet_prints_only_what_is_not_legal() -> None:
    out = run(EX, "--quiet").output
    assert ": legal (" not in out and ": illegal (" in out and " logs: " in out
    single = run(str(Path(EX) / "kolossus" / "legal-chapter-3.jsonl"), "--quiet")
    assert single.exit_code == 0 and single.output == ""


def test_progress_bar_only_when_asked() -> None:
    plain = CliRunner().invoke(main, ["verify", EX, "-q"])
    assert "verifying" not in plain.output  # not a terminal: no bar
    shown = CliRunner().invoke(main, ["verify", EX, "-q", "--progress"])
    assert shown.exit_code == 1 and ": illegal (" in shown.stdout
