"""Plugins loaded in isolation (issue 29, items 2 and 3): whatever a third-party distribution does
(undecodable metadata, ``SystemExit`` or ``KeyboardInterrupt`` at import, a hang, a built-in
game's name taken and then an exit), the built-in games verify as before, the plugin is a FAILED
row of ``adjudicator games``, and no exit code of an unrelated log changes.

Each case runs the command line in a fresh process with the plugins' folder on ``PYTHONPATH``, as
a user's environment would hold them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KOLOSSUS = ROOT / "examples" / "kolossus" / "legal-chapter-1.jsonl"


def _dist(root: Path, name: str, entry_points: bytes, modules: dict[str, str]) -> None:
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_bytes(entry_points)
    for mod, src in modules.items():
        (root / f"{mod}.py").write_text(src)


def _run(root: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(root), ADJUDICATOR_PLUGIN_TIMEOUT="2")
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=root, env=env)


def test_a_distribution_with_undecodable_entry_points_hides_no_game(tmp_path: Path) -> None:
    _dist(tmp_path, "garbled", b"[adjudicator.games]\nx = \xff\xfe\x00bad\n", {})
    r = _run(tmp_path, "verify", str(KOLOSSUS))
    assert r.returncode == 0 and "legal (" in r.stdout, r.stdout + r.stderr
    r = _run(tmp_path, "games")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    rows = [line.split("\t") for line in r.stdout.splitlines()]
    assert {row[0] for row in rows if row[1] != "FAILED"} >= {"colossi", "colossus-order", "kolossus", "logos"}
    assert any(row[1] == "FAILED" and "garbled" in "\t".join(row) for row in rows), r.stdout


HOSTILE = {
    "exiter": ("exiter_plugin", "raise SystemExit(5)\n"),
    "interrupter": ("interrupt_plugin", "raise KeyboardInterrupt\n"),
    "hanger": ("hang_plugin", "import time\ntime.sleep(120)\n"),
    # a built-in game's name, registered, then an exit with the "unfinished" code
    "kolossus": ("impostor_plugin", "from adjudicator.core.kernel import registry\n"
                                    "class Impostor:\n    id = 'kolossus'\n    name = 'not Kolossus'\n"
                                    "registry.register(Impostor())\nraise SystemExit(5)\n"),
}


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    eps = "[adjudicator.games]\n" + "".join(f"{k} = {mod}\n" for k, (mod, _src) in HOSTILE.items())
    _dist(tmp_path, "hostile-games", eps.encode(), {mod: src for mod, src in HOSTILE.values()})
    return tmp_path


def test_plugins_that_exit_interrupt_or_hang_are_failed_rows(hostile: Path) -> None:
    r = _run(hostile, "games")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    rows = {(row[0], row[1]): row for row in (line.split("\t") for line in r.stdout.splitlines())}
    failed = {k[0]: v[-1] for k, v in rows.items() if k[1] == "FAILED"}
    assert set(failed) == set(HOSTILE), r.stdout
    assert failed["exiter"] == "SystemExit: 5"
    assert failed["interrupter"].startswith("KeyboardInterrupt")
    assert "did not finish in 2 s" in failed["hanger"]
    assert ("kolossus", "Kolossus: The Citadel of Time") in rows  # the built-in one, not the impostor


def test_a_hostile_plugin_changes_no_verdict_of_a_built_in_game(hostile: Path) -> None:
    r = _run(hostile, "verify", str(KOLOSSUS))
    assert r.returncode == 0 and "legal (" in r.stdout, r.stdout + r.stderr


def test_a_batch_with_a_log_of_an_unknown_game_gives_every_verdict(hostile: Path) -> None:
    unknown = hostile / "unknown.jsonl"
    unknown.write_text('{"type":"MatchStarted","seq":1,"game":"nope","players":["a","b"]}\n')
    r = _run(hostile, "verify", str(KOLOSSUS), str(unknown), "--jobs", "1")
    assert r.returncode == 2, r.stdout + r.stderr
    out = r.stdout + r.stderr
    assert "legal (" in out and "unknown game 'nope'" in out
    assert "Traceback" not in out



def test_the_service_loads_plugins_at_start_up_and_answers_every_request(hostile: Path) -> None:
    """A hanging plugin costs the service its start-up time limit once, never a request."""
    code = (
        "import json, sys, time\n"
        "from litestar.testing import TestClient\n"
        "from adjudicator.core.kernel import registry\n"
        "from adjudicator.core.store import MatchStore\n"
        "from adjudicator.replays.web import app as web\n"
        "app = web.create_app(MatchStore('db.sqlite'))\n"
        "loaded = registry._all_loaded\n"
        "with TestClient(app) as c:\n"
        "    t0 = time.monotonic(); r = c.get('/api/games'); dt = time.monotonic() - t0\n"
        "print(json.dumps([loaded, r.status_code, sorted(g['id'] for g in r.json()), dt < 1.5]))\n")
    env = dict(os.environ, PYTHONPATH=str(hostile), ADJUDICATOR_PLUGIN_TIMEOUT="2")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=hostile, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    loaded, status, ids, quick = __import__("json").loads(r.stdout.strip().splitlines()[-1])
    assert loaded and status == 200 and quick
    assert {"colossi", "colossus-order", "kolossus", "logos"} <= set(ids)
