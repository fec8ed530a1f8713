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
    # undetermined: a seat's record among the examples (issue 11)
    assert {d["verdict"] for d in docs[:-1]} - {"undetermined"} == {"legal", "illegal", "unreadable"}
    text_local = invoke("verify", "--quiet", "--jobs", "1", *paths)
    text_remote = invoke("verify", "--quiet", "--cluster", scheduler, *paths)
    assert text_remote.output == text_local.output


def test_an_unreachable_scheduler_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.cli import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "2s")
    r = invoke("verify", "--cluster", "tcp://127.0.0.1:9", ROOT / "examples" / "kolossus")
    assert r.exit_code == 2
    assert "cannot reach the scheduler" in r.output and "Traceback" not in r.output
