"""No long functions (issue 33): every function of ``adjudicator/core/`` at most 60 lines, and at
most 3 over 60 lines in the whole package (``adjudicator/``, with ``cli/`` and ``replays/``, which
install inside it).  A function's length is its ``def`` line to its last line, docstring and
comments included, read with ``ast`` (nothing is imported); nested functions count on their own
and inside the function around them.  A failure lists every function over the limit, longest first."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ("adjudicator", "cli", "replays", "recorder")
MAX_FUNCTION_LINES = 60
#: functions over the limit allowed in the whole package (none in the core)
MAX_LONG = 3


def long_functions(folder: Path, limit: int = MAX_FUNCTION_LINES) -> list[tuple[int, str]]:
    """(lines, ``path:line name``) of every function under ``folder`` longer than ``limit``."""
    out: list[tuple[int, str]] = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > limit:
                    out.append((n, f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"))
    return sorted(out, reverse=True)


def _listed(found: list[tuple[int, str]]) -> str:
    return "\n".join(f"  {n} lines  {where}" for n, where in found)


def test_no_function_of_the_core_is_over_60_lines() -> None:
    found = long_functions(ROOT / "adjudicator" / "core")
    assert not found, f"functions of adjudicator/core over {MAX_FUNCTION_LINES} lines:\n{_listed(found)}"


def test_at_most_three_functions_of_the_package_are_over_60_lines() -> None:
    found = [f for tree in TREES for f in long_functions(ROOT / tree)]
    assert len(found) <= MAX_LONG, f"{len(found)} functions over {MAX_FUNCTION_LINES} lines:\n{_listed(sorted(found, reverse=True))}"


def test_the_count_sees_a_long_function(tmp_path: Path) -> None:
    """The measure itself: a function of 61 lines is found, one of 60 is not (so the tests above
    can fail)."""
    global ROOT
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    (tmp_path / "m.py").write_text(f"def short():\n{body}\n\n\ndef long():\n{body}\n    return x0\n")
    saved, ROOT = ROOT, tmp_path
    try:
        assert [w for _, w in long_functions(tmp_path)] == ["m.py:63 long"]
    finally:
        ROOT = saved
