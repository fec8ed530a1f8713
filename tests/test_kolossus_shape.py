"""The shape of the Kolossus package (issue 23): files of bounded size, each module importing only
modules of a lower layer (events -> state -> rules -> game glue), so no import circle, and the
board's data loading imports none of the rules that interpret it."""

from __future__ import annotations

import ast
from pathlib import Path

import adjudicator.games.kolossus as package

PACKAGE = Path(package.__file__).parent
DOTTED = package.__name__

#: each module's layer: a module imports only modules of a lower layer
LAYERS: dict[str, int] = {
    "events": 0, "rulebook": 0, "board": 0,
    "state": 1,
    "basics": 2, "position_line": 2,
    "working": 3,
    "queries": 3, "notation_words": 3,
    "turns": 4, "movement": 4, "titan": 4, "derive": 4, "legal": 4, "notation_read": 4,
    "apply": 5,
    "rules": 6,
    "words": 7, "render": 7, "scene": 7, "invariants": 7, "game": 7, "notation": 7,
    "__init__": 8,
}


def imports_of(path: Path) -> set[str]:
    """The modules of the package that ``path`` imports at module level (``from .x import``,
    ``from . import x``, ``import adjudicator.games.kolossus.x``)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
            elif node.level == 0 and node.module and node.module.startswith(DOTTED + "."):
                found.add(node.module[len(DOTTED) + 1:].split(".")[0])
        elif isinstance(node, ast.Import):
            found |= {a.name[len(DOTTED) + 1:].split(".")[0] for a in node.names if a.name.startswith(DOTTED + ".")}
    return found - {path.stem}


def test_every_module_has_a_layer_and_imports_only_lower_layers() -> None:
    modules = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert sorted(LAYERS) == modules, "a module was added or removed: give it its layer here"
    wrong = [f"{m} (layer {LAYERS[m]}) imports {d} (layer {LAYERS[d]})"
             for m in modules for d in sorted(imports_of(PACKAGE / f"{m}.py")) if LAYERS[d] >= LAYERS[m]]
    assert not wrong, wrong


def test_the_layer_check_finds_an_import_upwards(tmp_path: Path) -> None:
    bad = tmp_path / "state.py"
    bad.write_text("from .rules import Rules\nfrom . import game\nimport adjudicator.games.kolossus.apply\n")
    assert imports_of(bad) == {"rules", "game", "apply"}


def test_no_file_of_the_package_is_over_800_lines() -> None:
    sizes = {p.name: len(p.read_text().splitlines()) for p in PACKAGE.glob("*.py")}
    assert sizes and max(sizes.values()) <= 800, {k: v for k, v in sizes.items() if v > 800}
