"""The documentation of unknown identities: README.md's "Records kept at one seat" commands run word
for word on the shipped examples, docs/log-format.md's "Unknown identities" section says what it
must, and Kolossus (no hidden information) is untouched by it: ``redact`` of every Kolossus
example is the example itself, and it verifies legal."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.verify import run
from tests.test_readme import block_after

ROOT = Path(__file__).resolve().parent.parent
#: verdicts a seat's record of a legal match may have, by exit code
SEAT_CODES = {0: "legal", 4: "undetermined"}


def commands(block: str) -> list[list[str]]:
    """The block's commands (continuations joined, comments dropped), without ``adjudicator``."""
    out = []
    for line in block.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words:
            assert words[0] == "adjudicator", line
            out.append(words[1:])
    return out


def test_the_readme_seat_records_block_runs_on_the_shipped_examples(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    cmds = commands(block_after("seat-records"))
    assert [c[0] for c in cmds] == ["redact", "redact", "verify", "verify", "reconcile", "verify", "redact"]
    for args in cmds:
        r = CliRunner().invoke(main, args)
        if args[0] == "verify" and "merged.jsonl" not in args:
            # a seat's record of a legal match: legal (no decision turns on a card never shown)
            assert r.exit_code == 0 and r.exit_code in SEAT_CODES, (args, r.output)
            if "--json" in args:
                doc = json.loads(r.output.splitlines()[0])
                assert doc["verdict"] == SEAT_CODES[r.exit_code]
                assert all(u["condition"] for u in doc.get("undetermined", []))
            continue
        assert r.exit_code == 0, (args, r.output)
    # the original back, with the derived events bob's record states because he saw their cards (the
    # Locus cards his attacks hit, alice's declaration: docs/log-format.md, "Unknown identities")
    merged = read_log(tmp_path / "merged.jsonl")
    original = read_log(ROOT / "examples/colossus-order/legal-gem-complete.jsonl")
    assert run(merged).verdict == "legal"
    assert [e for _l, e in merged.events if e.kind != "X"] == [e for _l, e in original.events if e.kind != "X"]
    assert [type(e).__name__ for _l, e in merged.events if e.kind == "X"] == ["BattleResolved", "BattleResolved", "LocusRevealed"]
    assert (tmp_path / "ann.jsonl").read_bytes() == (ROOT / "examples/kolossus/legal-chapter-1.jsonl").read_bytes()


KOLOSSUS = sorted(ROOT.glob("examples/kolossus/legal-*.jsonl"))


@pytest.mark.parametrize("path", KOLOSSUS, ids=lambda p: p.name)
def test_redact_of_a_kolossus_example_is_the_identity_and_verifies_legal(tmp_path: Path, path: Path) -> None:
    players = read_log(path).events[0][1].players
    for player in players:
        out = tmp_path / f"{player}.jsonl"
        r = CliRunner().invoke(main, ["redact", str(path), "--as", player, "-o", str(out)])
        assert r.exit_code == 0, r.output
        assert out.read_bytes() == path.read_bytes()
        r = CliRunner().invoke(main, ["verify", str(out)])
        assert r.exit_code == 0 and f"{out}: legal" in r.output, r.output
    assert KOLOSSUS and run(read_log(path)).verdict == "legal"


def test_the_log_format_documents_unknown_identities() -> None:
    text = (ROOT / "docs" / "log-format.md").read_text()
    m = re.search(r"^## Unknown identities\n(.*?)(?=^## )", text, re.M | re.S)
    assert m, "docs/log-format.md has no section 'Unknown identities'"
    section = m.group(1)
    for needed in ('`"?"`', "`null`", "can still be", "**illegal**", "`undetermined`", "condition",
                   "exit code 4", "adjudicator redact", "adjudicator reconcile", "### Kolossus",
                   "judge's ruling"):
        assert needed in section, needed
    assert "| 4 |" in text  # the exit code table
    readme = (ROOT / "README.md").read_text()
    assert "## Records kept at one seat" in readme and "docs/log-format.md#unknown-identities" in readme
