"""The benchmark's row "positions made per log event" (benchmarks/positions.py, issue 33): a number
for every registered game whatever contract it is on, and a count that means what it says: the
frozen-state contract makes one position per event and derived event, LOGOS's working position
(adjudicator/games/logos/working.py) makes none for an event nobody keeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.verify import run
from adjudicator.games.logos.game import Logos
from benchmarks import positions
from benchmarks.corpus import CorpusFile, generate_corpus


def _corpus(gid: str, tmp_path: Path, n: int = 3) -> list[CorpusFile]:
    return generate_corpus(registry.get(gid), str(tmp_path), n, max_events=400, report=lambda _m: None)


@pytest.mark.parametrize("gid", [g.id for g in registry.games()])
def test_every_game_has_the_row_and_its_count_leaves_the_game_as_it_was(gid: str, tmp_path: Path) -> None:
    game = registry.get(gid)
    files = _corpus(gid, tmp_path)
    before = {name: vars(game).get(name) for name in ("apply", "check", "derive", "outcome")}
    res = positions.measure(game, files)
    per = res["positions_per_event"]
    assert isinstance(per, float) and per > 0, res  # (a match makes its first position at least)
    assert res["positions_events"] == sum(f.events - 1 for f in files)
    assert {name: vars(game).get(name) for name in before} == before
    assert run(parse_log(Path(files[0].path).read_bytes(), files[0].path)).verdict == "legal"
    rows = positions.render(res)
    assert rows[0][0].strip() == "positions made per log event" and rows[0][1].startswith(f"{per:.2f} frozen")
    assert rows[0][3] == ("PASS" if per <= 1 else "MISS")


def test_the_count_is_one_per_applied_event_on_the_frozen_contract_and_none_on_logos_working(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.get("logos")
    files = _corpus("logos", tmp_path)
    own = positions.measure(game, files)
    assert own["positions_contract"] == "own working position"
    assert own["positions_made"] <= 2 * len(files)  # the first position and Result.state of each match
    monkeypatch.setattr(Logos, "working", None)  # the default adapter: a new frozen position per apply
    frozen = positions.measure(game, files)
    assert frozen["positions_contract"] == "frozen states"
    assert frozen["positions_per_event"] > 2.0, frozen  # events and the derived events they force (2.3)


@pytest.mark.parametrize("gid", [g.id for g in registry.games()])
def test_the_count_leaves_the_folds_path_as_it_is_unwatched(gid: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fold recognises a kit game's own outcome, check and apply by their ``__func__`` and
    takes a shorter way (``outcome`` only once ``result`` is set): the count's wrappers keep it,
    so what is counted is what a verification nobody watches makes."""
    from adjudicator.core.kernel import verify as core_verify
    from adjudicator.core.kernel.kit import direct_apply, direct_check, direct_outcome

    game = registry.get(gid)
    files = _corpus(gid, tmp_path, 1)

    def ways() -> tuple[Any, ...]:
        d, a = direct_check(game.check), direct_apply(game.apply)
        return direct_outcome(game.outcome), d and (d[0], d[1]), a

    unwatched, seen = ways(), []
    run = core_verify.run
    monkeypatch.setattr(core_verify, "run", lambda log: (seen.append(ways()), run(log))[1])
    positions.measure(game, files)
    assert seen == [unwatched]


def test_colossus_order_freezes_no_position_for_an_event_nobody_keeps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its working position (games/colossus_order/working.py) freezes a match's first position
    and the result's: the count says so (it said one per event while its wrapper of ``outcome``
    made the fold freeze a position after every event to ask it), and so does a count of every
    frozen position the working position builds."""
    from adjudicator.games.colossus_order import working as W

    built = [0]
    state_type = W.State

    def counted(*values: Any) -> Any:
        built[0] += 1
        return state_type(*values)

    files = _corpus("colossus-order", tmp_path)
    monkeypatch.setattr(W, "State", counted)
    res = positions.measure(registry.get("colossus-order"), files)
    assert res["positions_made"] <= 2 * len(files) and res["positions_per_event"] <= 0.01, res
    assert built[0] <= len(files), built
