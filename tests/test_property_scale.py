"""``ADJUDICATOR_PROPERTY_SCALE=N`` (README, "python3 -m pytest"): every property test draws N times
its examples, its own ``@settings(max_examples=...)`` included, once per test function (a
parametrized one is not scaled per parameter), with new draws."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROPERTY = '''
import pytest
from hypothesis import given, settings, strategies as st


@settings(max_examples=4)
@given(st.integers())
def test_own(n):
    pass


@pytest.mark.parametrize("k", [1, 2])
@settings(max_examples=5)
@given(st.text())
def test_param(k, s):
    pass
'''


def _ran(tmp_path: Path, scale: str) -> list[int]:
    (tmp_path / "test_p.py").write_text(PROPERTY)
    env = {k: v for k, v in os.environ.items() if k != "CI"} | {"ADJUDICATOR_PROPERTY_SCALE": scale}
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider", "-q",
                        "--hypothesis-show-statistics", "--rootdir", str(tmp_path), str(tmp_path / "test_p.py")],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return [int(n) for n in re.findall(r"(\d+) passing", r.stdout)]


def test_the_scale_multiplies_each_property_tests_examples(tmp_path: Path) -> None:
    assert _ran(tmp_path, "3") == [12, 15, 15]
    assert _ran(tmp_path, "1") == [4, 5, 5]
