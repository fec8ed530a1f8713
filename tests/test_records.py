"""``adjudicator seal`` (the hash chain) and ``adjudicator redact --as PLAYER``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel.log import line_hash, read_log
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import run

ROOT = Path(__file__).resolve().parent.parent
LEGAL = sorted((ROOT / "examples").glob("*/legal-*.jsonl"))


def invoke(*args: Any) -> Any:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_sealed_log_verifies_as_before_and_an_edited_line_is_named(path: Path, tmp_path: Path) -> None:
    sealed = tmp_path / "sealed.jsonl"
    r = invoke("seal", path, "-o", sealed)
    assert r.exit_code == 0, r.output
    lines = sealed.read_bytes().splitlines()
    docs = [json.loads(x) for x in lines]
    assert "prev" not in docs[0] and all(d["prev"] == line_hash(lines[i]) for i, d in enumerate(docs[1:]))
    assert run(read_log(sealed)).verdict == run(read_log(path)).verdict == "legal"
    assert invoke("seal", sealed).output.encode() == sealed.read_bytes()  # sealing again changes nothing
    doc = json.loads(invoke("verify", sealed, "--json").output)
    assert doc["chain_head"] == line_hash(lines[-1]) and "chain_head" not in json.loads(invoke("verify", path, "--json").output)
    assert f"the last line hashes to {line_hash(lines[-1])}" in invoke("verify", sealed).output
    # one edited line (a note added to line k) is reported at line k, exit 2
    k = len(lines) // 2
    doc = json.loads(lines[k - 1])
    doc["note"] = "edited"
    lines[k - 1] = json.dumps(doc, separators=(",", ":")).encode()
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(b"\n".join(lines) + b"\n")
    r = invoke("verify", edited)
    assert r.exit_code == 2, r.output
    assert f"{edited}:{k}: prev: the hash chain is broken" in r.output, r.output
    # a removed line is reported where the chain breaks
    removed = tmp_path / "removed.jsonl"
    removed.write_bytes(b"\n".join(sealed.read_bytes().splitlines()[:k] + sealed.read_bytes().splitlines()[k + 1:]) + b"\n")
    r = invoke("verify", removed)
    assert r.exit_code == 2 and "the hash chain is broken" in r.output


def test_the_chain_must_be_whole(tmp_path: Path) -> None:
    path = LEGAL[0]
    sealed = tmp_path / "s.jsonl"
    invoke("seal", path, "-o", sealed)
    lines = sealed.read_bytes().splitlines()
    # a line without prev in a sealed log
    doc = json.loads(lines[5])
    del doc["prev"]
    cut = lines[:5] + [json.dumps(doc, separators=(",", ":")).encode()] + lines[6:]
    (tmp_path / "a.jsonl").write_bytes(b"\n".join(cut) + b"\n")
    r = invoke("verify", tmp_path / "a.jsonl")
    assert r.exit_code == 2 and ":6: prev: the hash chain stops here" in r.output
    # prev on MatchStarted
    first = json.loads(lines[0])
    first["prev"] = "0" * 64
    (tmp_path / "b.jsonl").write_bytes(b"\n".join([json.dumps(first).encode(), *lines[1:]]) + b"\n")
    r = invoke("verify", tmp_path / "b.jsonl")
    assert r.exit_code == 2 and ":1: prev: MatchStarted opens the hash chain" in r.output
    # sealing a log that does not read is refused
    r = invoke("seal", tmp_path / "a.jsonl")
    assert r.exit_code == 2 and "hash chain" in r.output


@pytest.mark.parametrize("gid", ["colossus-order", "logos", "colossi", "kolossus"])
def test_redact_writes_the_seats_record(gid: str, tmp_path: Path) -> None:
    path = next(p for p in LEGAL if p.parent.name == gid)
    log = read_log(path)
    for p in log.setup.players:
        out = tmp_path / f"{p}.jsonl"
        r = invoke("redact", path, "--as", p, "-o", out)
        assert r.exit_code == 0, r.output
        got = [json.loads(x) for x in out.read_bytes().splitlines()]
        # each event with what the seat knew before it (core/seats.redact_log)
        want = [json.loads(json.dumps(__import__("msgspec").to_builtins(e))) for e in redact_log(log, p)]
        assert got == want
    r = invoke("redact", path, "--as", "nobody")
    assert r.exit_code == 2 and "unknown player 'nobody'" in r.output
