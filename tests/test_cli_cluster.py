"""``verify --cluster``: the same output as local verification, from a Dask cluster of two workers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main

distributed = pytest.importorskip("dask.distributed")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A local cluster: a scheduler and two single-threaded worker processes on 127.0.0.1."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def invoke(*args: Any) -> Any:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_cluster_output_is_the_local_output(scheduler: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"MatchStarted","game":\n')  # not JSON: unreadable, whatever games are registered
    paths = [ROOT / "examples", bad]
    local = invoke("verify", "--json", "--jobs", "1", *paths)
    remote = invoke("verify", "--json", "--cluster", scheduler, *paths)
    assert remote.exit_code == local.exit_code == 2  # the unreadable log is the worst verdict
    assert remote.output == local.output
    docs = [json.loads(line) for line in remote.output.splitlines()]
    assert docs[-1]["summary"]["logs"] == len(docs) - 1 > 40
    assert {d["verdict"] for d in docs[:-1]} == {"legal", "undetermined", "illegal", "unreadable"}  # a seat's record is undetermined
    text_local = invoke("verify", "--quiet", "--jobs", "1", *paths)
    text_remote = invoke("verify", "--quiet", "--cluster", scheduler, *paths)
    assert text_remote.output == text_local.output


def test_an_unreachable_scheduler_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.cli import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "2s")
    r = invoke("verify", "--cluster", "tcp://127.0.0.1:9", ROOT / "examples" / "kolossus")
    assert r.exit_code == 2
    assert "cannot reach the scheduler" in r.output and "Traceback" not in r.output


def test_a_tournament_checked_on_the_cluster_is_reported_as_locally(scheduler: str, tmp_path: Path) -> None:
    from tests.tournament_gen import generate

    gen = generate(tmp_path, "logos", players=4, rounds=4, plant=("unfinished", "deck"), seat_every=3)
    local = invoke("tournament", "check", "--json", "--jobs", "1", gen.manifest)
    remote = invoke("tournament", "check", "--json", "--cluster", scheduler, gen.manifest)
    assert remote.exit_code == local.exit_code == 1
    assert remote.output == local.output
    assert json.loads(remote.output)["summary"]["by_kind"] == {"unfinished": 1, "deck": 1}
