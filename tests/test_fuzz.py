"""A bounded fuzz run in the suite (the long one is ``python -m benchmarks --fuzz N``).

Seeded mutations of real logs, proposed events and position documents of every registered game
go through what the command line does with them; no exception may escape but the documented
ones (unreadable input, exit code 2), and no input may hang.  A few seconds per game here.
"""

from __future__ import annotations

import pytest

from adjudicator.core import registry
from benchmarks.fuzz import encode, fuzz_game, mutate_doc

PER_GAME = 5000


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
