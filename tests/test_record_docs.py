"""README.md's "Recording a match" block runs word for word (bash, with this checkout's
``adjudicator`` first on PATH); docs/record.md names every option of ``adjudicator record``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from adjudicator.cli.main import main
from tests.test_readme import block_after

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_recording_block_runs(tmp_path: Path) -> None:
    block = block_after("recording")
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    env.pop("ADJUDICATOR_DB", None)
    r = subprocess.run(["bash", "-e", "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    assert "recorded 3: set aside Lair: Blood Beast" in r.stdout  # (the notation)
    assert "club.jsonl: legal, unfinished (4 events, colossi" in r.stdout
    assert "  header: event: Club night; round: 3" in r.stdout
    listed = [ln for ln in r.stdout.splitlines() if "colossi  ann,bob" in ln]
    assert len(listed) == 1 and "[event: Club night; round: 3]" in listed[0]
    lines = (tmp_path / "club.jsonl").read_text().splitlines()
    assert json.loads(lines[3]) == {"type": "TileSetAside", "tile": "lair-time-beast"}


def test_docs_record_md_names_every_option() -> None:
    text = (ROOT / "docs" / "record.md").read_text()
    cmd = main.commands["record"]
    for p in cmd.params:
        for opt in getattr(p, "opts", []):
            if opt.startswith("--"):
                assert f"`{opt}" in text, f"docs/record.md does not describe {opt}"
