"""A bounded run of the command line's fuzz surfaces (``python -m benchmarks --fuzz N --fuzz-surface
plugins|record-script|manifest``): hostile plugin distributions, mutated ``record --script`` runs
and mutated tournament manifests, through the commands in process."""

from __future__ import annotations

import pytest

from benchmarks.fuzz_cli import CLI_SURFACES, Finding, exercise_manifest, fuzz_cli, hostile_distribution
from benchmarks.fuzz_surfaces import surfaces


@pytest.mark.parametrize("surface", ["plugins", "manifest"])
def test_hostile_inputs_never_crash_or_hang(surface: str) -> None:
    rep = fuzz_cli(surface, 40, seed=3)
    assert rep.inputs == 40
    assert rep.crashes == [], rep.crashes[:5]
    assert rep.hangs == [], rep.hangs[:5]
    assert rep.peak_bytes > 0  # (the process's peak: the 256 MiB bound is python -m benchmarks --fuzz's, run alone)
    # the inputs reach past the readers: some are refused (2), some checked (0 or 1)
    outcomes = {k.rsplit(":", 1)[-1] for k in rep.by_kind}
    assert "exit2" in outcomes and (outcomes & {"exit0", "exit1"}), rep.by_kind


def test_record_script_inputs_are_answered_with_documented_codes() -> None:
    rep = fuzz_cli("record-script", 24, seed=2)
    assert rep.inputs == 24 and rep.hangs == []
    # the recorder echoing control characters raw is issue 29 item 10 (branch `recorder`); any
    # other crash is a new finding
    assert [c for c in rep.crashes if "raw control character" not in c] == [], rep.crashes[:5]
    assert {k.rsplit(":", 1)[-1] for k in rep.by_kind} & {"exit0", "exit1"}, rep.by_kind


def test_the_surfaces_are_registered() -> None:
    assert all(surfaces()[name] is fuzz_cli for name in CLI_SURFACES)


def test_a_finding_is_reported_as_a_crash(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks can fail: a CSV cell that starts a formula is a finding."""
    import benchmarks.fuzz_cli as fc

    class Result:
        exit_code = 1
        stdout = output = "round,table\n=1+1,2\n"

    monkeypatch.setattr(fc, "_invoke", lambda *_a, **_k: Result())
    with pytest.raises(Finding, match="starts a formula"):
        exercise_manifest(tmp_path / "m.json", b"{}", "csv")
    Result.output = "\x1b]0;x\x07"
    with pytest.raises(Finding, match="control character"):
        exercise_manifest(tmp_path / "m.json", b"{}", "plain")


def test_a_hostile_distribution_is_written(tmp_path) -> None:
    import random

    hostile_distribution(random.Random(1), tmp_path, 0)
    assert list(tmp_path.glob("*.dist-info/entry_points.txt"))
