"""The shape of the Colossi package (issue 23): it reads in one direction (events -> state -> data
-> engine queries -> working copy -> options/effects -> pump -> checks/applies -> rules -> game
glue) with no import circle, every import counted (at the top of a module or inside a function),
loading the data imports none of the effects that interpret it, and no module is over 900 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import adjudicator.games.colossi as pkg

PKG = Path(pkg.__file__).parent
NAME = "adjudicator.games.colossi"
EFFECTS = {"effect_kinds", "card_effects", "tile_effects", "effects", "settle", "pump"}


def imports_of(path: Path) -> set[str]:
    """The modules of this package that ``path`` imports, anywhere in the file."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:  # from . import engine as Q
                out.update(a.name for a in node.names)
            elif node.level == 1:  # from .data import content
                out.add(node.module.split(".")[0])
            elif node.level == 0 and node.module and node.module.startswith(NAME + "."):
                out.add(node.module[len(NAME) + 1:].split(".")[0])
            elif node.level == 0 and node.module == NAME:
                out.update(a.name for a in node.names)
            elif node.level > 1:
                raise AssertionError(f"{path.name}:{node.lineno}: an import from outside the package by a relative path")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith(NAME + "."):
                    out.add(a.name[len(NAME) + 1:].split(".")[0])
    return out


def graph() -> dict[str, set[str]]:
    mods = {p.stem for p in PKG.glob("*.py")}
    g = {p.stem: imports_of(p) for p in PKG.glob("*.py")}
    for m, deps in g.items():
        assert deps <= mods, f"{m} imports {deps - mods}, not modules of the package"
    return g


def cycle(g: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``g`` (as a path that returns to its start), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for d in sorted(g[m]):
            if d == "__init__":
                continue
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(g):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def closure(g: dict[str, set[str]], m: str) -> set[str]:
    seen: set[str] = set()
    todo = [m]
    while todo:
        for d in g[todo.pop()]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def test_no_import_circle_in_the_package() -> None:
    c = cycle(graph())
    assert c is None, " -> ".join(c or [])


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_loading_the_data_imports_no_effect() -> None:
    g = graph()
    assert not closure(g, "data") & EFFECTS, closure(g, "data") & EFFECTS
    assert closure(g, "data") <= {"events", "state"}, closure(g, "data")


def test_the_layers_read_in_one_direction() -> None:
    """The lower layers never import the upper ones (a change to the rules never reaches the
    position, the data, the queries or the working copy)."""
    g = graph()
    upper = {"rules", "checks", "applies", "game", "pump", "settle", "options", "card_effects", "tile_effects"}
    for low in ("events", "state", "data", "engine", "working", "unknowns"):
        assert not closure(g, low) & upper, (low, closure(g, low) & upper)


def test_no_module_over_900_lines() -> None:
    sizes = {p.name: len(p.read_text().splitlines()) for p in PKG.glob("*.py")}
    assert max(sizes.values()) <= 900, {k: v for k, v in sizes.items() if v > 900}
