"""A bounded fuzz run in the suite (the long one is ``python -m benchmarks --fuzz N``).

Seeded mutations of real logs, proposed events and position documents of every registered game
go through what the command line does with them; no exception may escape but the documented
ones (unreadable input, exit code 2), and no input may hang.  A few seconds per game here.
"""

from __future__ import annotations

import pytest

from adjudicator.core.kernel import registry
from benchmarks.fuzz import encode, fuzz_game, mutate_doc
from benchmarks.fuzz_data import DATA_SURFACES, fuzz_surface, to_toml

PER_GAME = 5000
#: a small share of each surface (data files through every reader; every -o command)
PER_SURFACE = {"pool-toml": 120, "pool-json": 300, "output": 150}


@pytest.mark.parametrize("game_id", registry.ids())
def test_fuzzed_inputs_never_crash_or_hang(game_id: str) -> None:
    rep = fuzz_game(game_id, PER_GAME, seed=11, hang_seconds=5.0)
    assert rep.inputs >= PER_GAME * 0.9
    assert rep.crashes == [], rep.crashes[:5]
    assert rep.hangs == [], rep.hangs[:5]
    # the mutations reach past the reader: some inputs are read and judged, not all refused
    judged = sum(n for k, n in rep.by_kind.items() if not k.endswith(":unreadable"))
    assert judged >= PER_GAME // 10, rep.by_kind


def test_the_fuzzer_finds_a_planted_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.get("kolossus")
    real = game.describe

    def planted(state, player):  # a defect: crashes on positions a mutation can reach
        if state.round > 1:
            raise IndexError("planted")
        return real(state, player)

    monkeypatch.setattr(game, "describe", planted)
    rep = fuzz_game("kolossus", 60, seed=3)
    assert any("IndexError: planted" in c for c in rep.crashes), rep.by_kind


def test_deep_placeholder_is_spliced() -> None:
    import random

    raw = encode({"a": "__DEEP_3__"})
    assert raw == b'{"a":[[[0]]]}'
    doc = mutate_doc(random.Random(1), {"x": 1, "y": [1, 2]})
    assert isinstance(doc, (dict, list, int, str, float, bool, type(None)))


@pytest.mark.parametrize("surface", DATA_SURFACES)
def test_fuzzed_surfaces_never_crash_or_hang(surface: str) -> None:
    n = PER_SURFACE[surface]
    rep = fuzz_surface(surface, n, seed=11, hang_seconds=5.0)
    assert rep.inputs >= n * 0.9
    assert rep.crashes == [], rep.crashes[:5]
    assert rep.hangs == [], rep.hangs[:5]
    outcomes = {k.rsplit(":", 1)[1] for k in rep.by_kind}
    # the mutations reach past the readers' refusals: some files read, some -o writes done
    assert outcomes & {"read", "problems", "exit0"} and outcomes & {"unreadable", "problems", "exit2"}, rep.by_kind


def test_the_surface_fuzzer_finds_planted_defects(monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.cli import records
    from adjudicator.core.kernel import sources

    real = sources.sha256_of

    def planted(doc):  # a defect: crashes on documents a mutation can make (a long run of x in a card)
        cards = doc.get("card") if isinstance(doc, dict) else None
        for c in cards if isinstance(cards, list) else []:
            if isinstance(c, dict) and any(isinstance(v, str) and v.startswith("xxxxx") for v in c.values()):
                raise IndexError("planted")
        return real(doc)

    monkeypatch.setattr(sources, "sha256_of", planted)
    rep = fuzz_surface("pool-json", 200, seed=3)
    assert any("IndexError: planted" in c for c in rep.crashes), rep.by_kind
    # -o as it was before issue 19 (no check, a plain write): the fuzzer sees the input replaced
    from pathlib import Path

    def naive(lines, output, force, inputs):
        Path(output).write_bytes(b"".join(ln + b"\n" for ln in lines))

    monkeypatch.setattr(records, "check_output", lambda *a: None)
    monkeypatch.setattr(records, "_write", naive)
    rep = fuzz_surface("output", 120, seed=3)
    assert any("the input was changed" in c or "replaced without --force" in c for c in rep.crashes), rep.by_kind


def test_to_toml_round_trips() -> None:
    import tomllib

    doc = {"pool": "p", "description": "a \"quoted\" \u001b text", "n": [1, 2.5, True, {"a": "b"}],
           "card": [{"id": "x", "cost": 1}, {"id": "y", "combo": ["a", "b"]}]}
    assert tomllib.loads(to_toml(doc)) == doc
