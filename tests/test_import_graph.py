"""The shape of the house, read from the imports: no import circle, core imports no game, no long file.

The graph: one node per module of ``adjudicator/`` (with ``cli/`` and ``replays/``, which install
as ``adjudicator.cli`` and ``adjudicator.replays``) and ``benchmarks/``, read with ``ast`` (nothing
is imported).  An edge A -> B is an ``import`` or ``from ... import`` statement in A that names B
(``from P import name`` names the module ``P.name`` when there is one, else ``P``; relative imports
are resolved), wherever it stands: at module level or inside a function or method (an import
deferred into a function still makes A depend on B; deferring it hides a circle, it does not
remove it).  Imports under ``if TYPE_CHECKING:`` do not count (they never run), nor does the
package a named module sits in (importing ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py``
too, but that is Python's loading order, not a dependency the importing module chose), nor a
string handed to ``importlib.import_module`` (the registry's entry points are data).

Asserted: (a) the graph has no cycle (each strongly connected component is printed as one cycle,
every import with its file and line); (b) nothing in ``adjudicator/core`` imports a module of
``adjudicator.games``; (c) no ``.py`` file under ``adjudicator/`` (nor ``cli/``, ``replays/``: they install inside it) is over 900 lines.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: source folder -> the package it installs as
TREES = {"adjudicator": "adjudicator", "cli": "adjudicator.cli", "replays": "adjudicator.replays", "recorder": "adjudicator.recorder",
         "benchmarks": "benchmarks"}
MAX_LINES = 900


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.path}:{self.line})"


def modules() -> dict[str, Path]:
    """Every module of the trees, by its installed dotted name."""
    out: dict[str, Path] = {}
    for folder, package in TREES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package, *parts])] = path
    return out


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, except those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child.test):
                for stmt in child.orelse:
                    walk(stmt)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            walk(child)

    walk(tree)
    return found


def imports(mods: dict[str, Path]) -> list[Import]:
    """Every edge between two modules of the trees."""
    edges: list[Import] = []
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        rel = str(path.relative_to(ROOT))
        for stmt in _statements(ast.parse(path.read_text("utf-8"), rel)):
            if isinstance(stmt, ast.Import):
                targets = [a.name for a in stmt.names]
            else:
                base = stmt.module or ""
                if stmt.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (stmt.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in stmt.names]
            for target in dict.fromkeys(targets):
                while target and target not in mods and "." in target:
                    target = target.rpartition(".")[0]  # import a.b.c of a module a.b: the edge is to a.b
                if target in mods and target != name:
                    edges.append(Import(name, target, rel, stmt.lineno))
    return edges


def cycles(edges: list[Import]) -> list[tuple[list[str], list[Import]]]:
    """Each strongly connected component of more than one module (Tarjan), with one cycle through
    it: the modules that import each other, and a chain of imports that shows it."""
    graph: dict[str, list[Import]] = {}
    for e in edges:
        graph.setdefault(e.source, []).append(e)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[list[str]] = []

    def connect(v: str) -> None:  # iterative enough for this size: the depth is the import depth
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for e in graph.get(v, []):
            if e.target not in index:
                connect(e.target)
                low[v] = min(low[v], low[e.target])
            elif e.target in on:
                low[v] = min(low[v], index[e.target])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return [(comp, _cycle_in(comp, graph)) for comp in sorted(comps)]


def _cycle_in(comp: list[str], graph: dict[str, list[Import]]) -> list[Import]:
    """A shortest cycle through the component's first module, as the chain of its imports."""
    members = set(comp)
    start = comp[0]
    paths: dict[str, list[Import]] = {start: []}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for e in graph.get(v, []):
                if e.target not in members:
                    continue
                if e.target == start:
                    return paths[v] + [e]
                if e.target not in paths:
                    paths[e.target] = paths[v] + [e]
                    nxt.append(e.target)
        frontier = nxt
    raise AssertionError(f"no cycle through {start} in {comp}")


def render(comp: list[str], cycle: list[Import]) -> str:
    chain = " -> ".join([cycle[0].source, *(e.target for e in cycle)])
    head = chain if len(comp) == len(cycle) else f"{chain}  (one circle of the {len(comp)} modules {', '.join(comp)})"
    return head + "\n" + "\n".join(f"    {e}" for e in cycle)


@functools.cache
def project_imports() -> tuple[Import, ...]:
    """The project's import edges, read once per session."""
    return tuple(imports(modules()))


def test_no_import_circle() -> None:
    found = cycles(list(project_imports()))
    assert not found, f"{len(found)} import circle(s):\n" + "\n".join(render(*c) for c in found)


def test_core_imports_no_game() -> None:
    bad = [e for e in project_imports()
           if e.source.startswith("adjudicator.core.") and e.target.startswith("adjudicator.games")]
    assert not bad, "adjudicator/core imports a game:\n" + "\n".join(f"    {e}" for e in bad)


def test_no_file_over_900_lines() -> None:
    """adjudicator/, and cli/ and replays/, which install inside the adjudicator namespace."""
    files = [p for top in ("adjudicator", "cli", "replays", "recorder") for p in sorted((ROOT / top).rglob("*.py"))]
    long = {str(p.relative_to(ROOT)): n for p in files
            if (n := len(p.read_text("utf-8").splitlines())) > MAX_LINES}
    assert not long, f"files over {MAX_LINES} lines: " + ", ".join(f"{p} ({n})" for p, n in long.items())


# -- the test's own parts, on a made-up tree ----------------------------------------------------------

def test_the_graph_reads_relative_function_level_and_type_checking_imports(tmp_path: Path, monkeypatch) -> None:
    pkg = tmp_path / "adjudicator"
    (pkg / "core").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "__init__.py").write_text("")
    (pkg / "core" / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n"
                                       "def f():\n    from .b import thing\n")
    (pkg / "core" / "b.py").write_text("import adjudicator.core.a\n")
    (pkg / "core" / "c.py").write_text("from adjudicator.core import a\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    monkeypatch.setitem(globals(), "TREES", {"adjudicator": "adjudicator"})
    edges = imports(modules())
    assert sorted(map(str, edges)) == [
        "adjudicator.core.a -> adjudicator.core.b (adjudicator/core/a.py:5)",
        "adjudicator.core.b -> adjudicator.core.a (adjudicator/core/b.py:1)",
        "adjudicator.core.c -> adjudicator.core.a (adjudicator/core/c.py:1)",
    ]
    ((comp, cycle),) = cycles(edges)
    assert comp == ["adjudicator.core.a", "adjudicator.core.b"]
    assert render(comp, cycle).splitlines() == [
        "adjudicator.core.a -> adjudicator.core.b -> adjudicator.core.a",
        "    adjudicator.core.a -> adjudicator.core.b (adjudicator/core/a.py:5)",
        "    adjudicator.core.b -> adjudicator.core.a (adjudicator/core/b.py:1)",
    ]


def test_tests_and_benchmarks_import_the_installed_names_only() -> None:
    """``cli/`` and ``replays/`` install as ``adjudicator.cli`` and ``adjudicator.replays``: a test
    importing ``cli.main`` loads a second copy of the module beside ``adjudicator.cli.main`` (two
    module objects, two registries of click commands; issue 29, item 14)."""
    import ast

    bad = []
    for folder in ("tests", "benchmarks"):
        for path in sorted((ROOT / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                names = ([node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                         else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
                bad += [f"{path.relative_to(ROOT)}:{node.lineno}: {n}" for n in names
                        if n.split(".")[0] in ("cli", "replays", "recorder")]
    assert not bad, "import adjudicator.cli / adjudicator.replays instead: " + ", ".join(bad)
