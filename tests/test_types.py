"""The type checker over the core (issue 33: ``py.typed`` and a type checker in CI).

``[tool.mypy]`` in pyproject.toml says what is checked (``adjudicator/core``) and how; this test
runs it as a user would, so README's test command (and so CI) fails on a type error in the core.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_core_type_checks(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "no issues found" in proc.stdout


def test_the_package_says_it_is_typed() -> None:
    """PEP 561: the installed package carries ``py.typed`` (package data in pyproject.toml)."""
    assert (ROOT / "adjudicator" / "py.typed").is_file()
    assert '"adjudicator" = ["py.typed"]' in (ROOT / "pyproject.toml").read_text()
