"""docs/own-cards.md, run as a reader would: every ```sh block, in order, in an empty directory.

The commands are read from the page itself, so the tutorial cannot rot: the pool it writes, the
pinned match, the verdict, the store, and the refusal after the pool is edited.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "own-cards.md"


def blocks(kind: str) -> list[str]:
    return re.findall(r"```" + kind + r"\n(.*?)```", PAGE.read_text(), re.S)


def test_the_tutorial_runs_as_written(tmp_path: Path) -> None:
    script = "\n".join(blocks("sh"))
    assert "--pools my-pools" in script and "pool_sha256" in script
    env = {k: v for k, v in os.environ.items() if k not in ("ADJUDICATOR_POOLS", "ADJUDICATOR_DB")}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    r = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    out = r.stdout
    # step 3: the pinned match verifies against the pool of the directory
    legal, checked = blocks("text")[0].strip().splitlines()
    assert legal in out, (out, r.stderr)
    pool = tmp_path / "my-pools" / "club-cards.toml"
    assert checked.replace("from my-pools/club-cards.toml", f"from {pool}") in out
    # step 4: stored, and shown from the store
    assert "club-match.jsonl: legal, 28 events, stored" in out and out.split()[0] != ""
    assert "Colossus Order" in out and "ann" in out
    # step 5: after the edit, the pinned match is unreadable (exit code 2), naming id, hash and where
    sha = re.search(r'"pool_sha256":"([0-9a-f]{64})"', script).group(1)
    assert f"card pool 'club-cards': no card pool named 'club-cards' with sha256 {sha}" in out
    assert f"{pool} has sha256 " in out and out.rstrip().endswith("exit code 2")
    assert r.returncode == 0, r.stderr


def test_the_match_id_the_tutorial_shows_is_the_stored_one(tmp_path: Path) -> None:
    """``store show ... ce0d63cf``: the id is the content's (the same log always gets it)."""
    from adjudicator.core.kernel import sources
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.store import match_id_of

    script = "\n".join(blocks("sh"))
    log = re.search(r"cat > club-match.jsonl <<'EOF'\n(.*?)EOF", script, re.S).group(1)
    pool = re.search(r"cat > my-pools/club-cards.toml <<'EOF'\n(.*?)EOF", script, re.S).group(1)
    (tmp_path / "club-cards.toml").write_text(pool)
    with sources.using(sources.Sources([tmp_path])):
        mid = str(match_id_of(parse_log(log.encode(), "club-match.jsonl")))
    shown = re.search(r"store show --db club.db (\w+)", script).group(1)
    assert mid.startswith(shown)
