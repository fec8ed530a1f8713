"""The fuzz surfaces beyond the games' own inputs (``python -m benchmarks --fuzz N
--fuzz-surface NAME``): name -> ``fuzz(name, n, seed) -> Report``.  The surfaces' modules build on
:mod:`benchmarks.fuzz` and this module lists them, so neither imports the other's importer."""

from __future__ import annotations

from typing import Callable

from .fuzz import Report
from .fuzz_cli import CLI_SURFACES, fuzz_cli
from .fuzz_data import DATA_SURFACES, fuzz_surface
from .fuzz_service import fuzz_service
from .fuzz_web import fuzz_bodies, fuzz_pages


def surfaces() -> dict[str, Callable[[str, int, int], Report]]:
    """Every surface by name: the data files' (:data:`benchmarks.fuzz_data.DATA_SURFACES`), then
    the replay service's (its API, its HTML pages, its JSON bodies), then the command line's other
    inputs (:data:`benchmarks.fuzz_cli.CLI_SURFACES`: plugins, ``record --script``, manifests)."""
    found: dict[str, Callable[[str, int, int], Report]] = {name: fuzz_surface for name in DATA_SURFACES}
    found["service"] = fuzz_service
    found["service-pages"] = fuzz_pages
    found["service-bodies"] = fuzz_bodies
    found.update({name: fuzz_cli for name in CLI_SURFACES})
    return found
