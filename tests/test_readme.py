"""README.md's quick start and serve example, run word for word in a fresh virtualenv.

The commands are read from the README itself (the ```sh block after ``<!-- quickstart -->`` and
after ``<!-- serve -->``), so they cannot rot.  They run in a copy of the repository, where the
quick start creates ``.venv`` and installs the project with its dependencies.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IGNORE = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis",
                                "*.db", "*.db-*", "build", "dist")


def block_after(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    m = re.search(re.escape(f"<!-- {marker} -->") + r"\s*```sh\n(.*?)```", text, re.S)
    assert m, f"README.md has no ```sh block after <!-- {marker} -->"
    return m.group(1).strip()


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "ADJUDICATOR_DB")}
    return env


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("readme") / "adjudicator"
    shutil.copytree(ROOT, dest, ignore=IGNORE)
    return dest


@pytest.fixture(scope="module")
def quickstart(checkout: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", block_after("quickstart")], cwd=checkout, env=clean_env(),
                          capture_output=True, text=True, timeout=1500)


def test_quick_start_in_a_fresh_virtualenv(checkout: Path, quickstart: subprocess.CompletedProcess[str]) -> None:
    r = quickstart
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    assert (checkout / ".venv" / "bin" / "adjudicator").exists()
    legal = sorted(checkout.glob("examples/*/legal-*.jsonl"))
    verdicts = [line for line in r.stdout.splitlines() if ": legal (" in line]
    assert len(verdicts) == len(legal) >= 4, r.stdout
    # and one illegal verdict with its line, rule and reason, and the exit code that says "illegal"
    assert "illegal-CO-7.3-attacker-not-ready.jsonl: illegal (" in r.stdout
    assert ":47: event 47 (alice: attack F4 -> deck): CO-7.3 [colossus-order/attacker-not-ready]" in r.stdout
    assert r.stdout.rstrip().endswith("exit code 1")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_serve_example(checkout: Path, quickstart: subprocess.CompletedProcess[str]) -> None:
    assert quickstart.returncode == 0
    if not _free(8080):
        pytest.skip("port 8080 (the README's) is taken on this machine")
    cmd = ". .venv/bin/activate && " + block_after("serve")
    proc = subprocess.Popen(["bash", "-c", cmd], cwd=checkout, env=clean_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        info = None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen("http://127.0.0.1:8080/api/info", timeout=2) as resp:
                    info = json.loads(resp.read())
                    break
            except OSError:
                time.sleep(0.5)
        said = proc.stdout.read() if proc.poll() is not None and proc.stdout else "no answer"
        if info is None and "address is already in use" in said:  # taken between the check and the bind
            pytest.skip("port 8080 (the README's) was taken by another process while the server started")
        assert info is not None, said
        examples = list(checkout.glob("examples/*/*.jsonl"))
        assert info["matches"] == len(examples)
        assert info["uploads"] is False  # no token given: read-only
        with urllib.request.urlopen("http://127.0.0.1:8080/", timeout=5) as resp:
            assert b"upload-form" in resp.read()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
