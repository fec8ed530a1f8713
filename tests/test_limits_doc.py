"""docs/log-format.md's "Limits" table against adjudicator/core/kernel/limits.py: one constant per limit.

Each row naming a constant (last column) gives its value (the first number of the "limit"
column); every ``MAX_*`` constant of limits.py has a row; limits.py defines each name once.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from adjudicator.core.kernel import limits

ROOT = Path(__file__).resolve().parent.parent


def table_rows() -> list[list[str]]:
    text = (ROOT / "docs" / "log-format.md").read_text()
    section = text.split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("|")]
    cells = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in rows]
    assert cells[0][-1] == "in `limits.py`", cells[0]
    return cells[2:]


def test_every_documented_number_is_the_constant() -> None:
    named = 0
    for row in table_rows():
        const = row[-1].strip("`")
        if const == "-":
            continue
        named += 1
        assert hasattr(limits, const), f"the Limits table names {const}, which limits.py does not define"
        number = re.search(r"\d[\d,]*", row[1])
        assert number is not None, row
        assert int(number.group().replace(",", "")) == getattr(limits, const), (row[0], row[1], const)
    assert named >= 10


def test_every_limit_is_documented_and_defined_once() -> None:
    source = (ROOT / "adjudicator" / "core" / "kernel" / "limits.py").read_text()
    names = [t.id for node in ast.parse(source).body if isinstance(node, ast.Assign)
             for t in node.targets if isinstance(t, ast.Name)]
    twice = sorted({n for n in names if names.count(n) > 1})
    assert twice == [], f"defined more than once in limits.py: {twice}"
    documented = {row[-1].strip("`") for row in table_rows()}
    missing = [n for n in names if n.startswith("MAX_") and n not in documented]
    assert missing == [], f"limits not in docs/log-format.md's Limits table: {missing}"
