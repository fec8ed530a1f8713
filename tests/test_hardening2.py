"""Hostile input, second round (issue 19, the local parts): one test per defect.

Each test failed on the code before the fix: TOML data files that took gigabytes or crashed the
reader, symlinks out of a ``--pools`` folder, a hanging ``--cluster`` address, worker processes
outliving a killed parent, ``-o`` overwriting its own input, terminal escapes from input.
"""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel.boundedtoml import load_toml_bounded
from adjudicator.core.kernel.errors import DataError
from adjudicator.core.kernel.limits import MAX_DATA_BYTES, MAX_DEPTH, MAX_DOTTED_KEY
from benchmarks.fuzz_data import hostile_files

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
MB = 1_000_000


def cli(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, env=env)


# -- 1. hostile TOML data files ----------------------------------------------------------------

#: a 1 MB TOML file of each hostile shape (the benchmark's, which times them), and what its refusal says
REASONS = {
    "dotted-key": f"more than {MAX_DOTTED_KEY} parts", "deep-arrays": f"deeper than {MAX_DEPTH} levels",
    "deep-inline-tables": f"deeper than {MAX_DEPTH}", "dotted-header": f"more than {MAX_DOTTED_KEY} parts",
    "tiny-keys": "pieces", "huge-string": "a string of more than", "huge-array": "pieces",
}
HOSTILE = {shape: (text, REASONS[shape]) for shape, text in hostile_files(MB).items()}
HOSTILE["nested-dotted-inline"] = ("x = " + "{a.a.a.a.a.a.a.a=" * 2000 + "1" + "}" * 2000 + "\n", f"deeper than {MAX_DEPTH}")


@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_hostile_toml_is_refused_within_64_mib(shape: str) -> None:
    text, why = HOSTILE[shape]
    raw = text.encode()
    assert 0.6 * MB < len(raw) <= 1.2 * MB or shape == "nested-dotted-inline"
    tracemalloc.start()
    try:
        with pytest.raises(DataError) as err:
            load_toml_bounded(raw, f"{shape}.toml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, f"{shape}: {peak / 2**20:.0f} MiB"
    assert why in str(err.value) and f"{shape}.toml:" in str(err.value), str(err.value)


def test_ordinary_toml_still_reads() -> None:
    text = ('pool = "p"\n# a comment with "quotes" [and] {braces}\n[[card]]\nid = "a.b"\n'
            'x = [1.5, 2.5, {c.d = "e"}]\ns = """multi\n"line" ""\n"""\nt = \'\'\'lit\'\'\'\n'
            '"quoted.key".z = 1\n[tab.le]\nk = {a = [[1], [2]]}\n')
    import tomllib

    assert load_toml_bounded(text, "ok.toml") == tomllib.loads(text)
    for p in (ROOT / "adjudicator" / "games").glob("*/data/*.toml"):
        assert load_toml_bounded(p.read_bytes(), p.name) == tomllib.loads(p.read_text())


def test_the_limit_names_the_line() -> None:
    text = 'pool = "p"\n\n[[card]]\nid = "x"\nv = ' + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n"
    with pytest.raises(DataError, match=r"^deep\.toml:5: not read \(the document nested deeper than 64"):
        load_toml_bounded(text, "deep.toml")
    with pytest.raises(DataError, match="larger than"):
        load_toml_bounded(b"#" * (MAX_DATA_BYTES + 1), "big.toml")


def _log_naming_pool(tmp_path: Path, pool: str) -> Path:
    src = EX / "colossus-order" / "legal-gem-complete.jsonl"
    lines = src.read_text().splitlines()
    first = json.loads(lines[0])
    first["pool"] = pool
    first.pop("pool_sha256", None)
    log = tmp_path / "match.jsonl"
    log.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    return log


@pytest.mark.parametrize("shape", ["deep-arrays", "dotted-key", "deep-inline-tables", "dotted-header"])
def test_hostile_pool_everywhere_is_exit_2(tmp_path: Path, shape: str) -> None:
    text, why = HOSTILE[shape]
    text = text[:200_000] if shape != "deep-inline-tables" else "x = " + "{a=" * 200 + "1" + "}" * 200 + "\n"
    pools = tmp_path / "pools"
    pools.mkdir()
    (pools / "hostile.toml").write_text(text)
    if shape == "dotted-key":
        (pools / "hostile.toml").write_text("a" + ".a" * 5000 + " = 1\n")
    log = _log_naming_pool(tmp_path, "hostile")
    for args, env in (((log, "--pools", pools), None), ((log,), {"ADJUDICATOR_POOLS": str(pools)})):
        r = cli("verify", *args, env=env)
        assert r.exit_code == 2, r.output
        assert "hostile.toml:1: not read" in r.output and "Traceback" not in r.output, r.output
    for cmd in ("check", "show"):
        r = cli("pool", cmd, pools / "hostile.toml", "--game", "colossus-order")
        assert r.exit_code == 2 and "hostile.toml:1" in r.output and "not read" in r.output, r.output


def test_hostile_board_is_exit_2(tmp_path: Path) -> None:
    from adjudicator.games.kolossus.board import load_board_file

    board = tmp_path / "zz.toml"
    board.write_text("id = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(DataError, match="zz.toml:1: not read"):
        load_board_file(board)


def test_hostile_json_pool_and_stored_content(tmp_path: Path) -> None:
    from adjudicator.core.kernel.sources import decode_document

    with pytest.raises(DataError, match="nested deeper than 64"):
        decode_document(b'{"pool": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "store#pool/x.json")


# -- 6. -o never overwrites an input, an existing file only with --force --------------------------

LOG = EX / "colossus-order" / "legal-gem-complete.jsonl"


def _commands(log: Path, other: Path, out: Path) -> list[list[Any]]:
    return [["redact", log, "--as", "alice", "-o", out], ["seal", log, "-o", out],
            ["reconcile", log, other, "-o", out]]


@pytest.mark.parametrize("which", [0, 1, 2])
def test_output_never_replaces_an_input(tmp_path: Path, which: int) -> None:
    log = tmp_path / "match.jsonl"
    log.write_bytes(LOG.read_bytes())
    other = tmp_path / "other.jsonl"
    other.write_bytes(LOG.read_bytes())
    (tmp_path / "link.jsonl").symlink_to(log)
    os.link(other, tmp_path / "hard.jsonl")
    for out in (log, tmp_path / "link.jsonl", tmp_path / "hard.jsonl" if which == 2 else log):
        for force in ([], ["--force"]):
            args = _commands(log, other, out)[which] + force
            r = cli(*args)
            assert r.exit_code == 2, (args, r.output)
            assert "(the same file); write the output elsewhere" in r.output, r.output
            assert log.read_bytes() == LOG.read_bytes() and other.read_bytes() == LOG.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard.jsonl", "link.jsonl", "match.jsonl", "other.jsonl"]


@pytest.mark.parametrize("which", [0, 1, 2])
def test_output_replaces_an_existing_file_only_with_force(tmp_path: Path, which: int) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("precious\n")
    args = _commands(LOG, LOG, out)[which]
    r = cli(*args)
    assert r.exit_code == 2 and "the file exists; --force replaces it" in r.output, r.output
    assert out.read_text() == "precious\n"
    r = cli(*args, "--force")
    assert r.exit_code == 0, r.output
    written = out.read_bytes()
    assert written != b"precious\n" and written.count(b"\n") == LOG.read_bytes().count(b"\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]  # no temporary file left
    fresh = tmp_path / "fresh.jsonl"
    r = cli(*_commands(LOG, LOG, fresh)[which])
    assert r.exit_code == 0 and fresh.read_bytes() == written, r.output
    assert oct(fresh.stat().st_mode & 0o777) != "0o600"  # the umask's mode, not the temporary file's


# -- 7. terminal escapes from input never reach the terminal -------------------------------------

#: OSC (set the window title), CSI (colour, clear screen), C1 CSI, BEL, backspace, CR, DEL
EVIL = "\x1b]0;pwned\x07\x1b[31m\x9b2J\x08\r\x7f\x85"
RAW = __import__("re").compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def _evil_logs(tmp_path: Path) -> dict[str, Path]:
    """Logs whose player ids, notes, rulings' texts, a card id and the file name hold escapes."""
    out: dict[str, Path] = {}
    evil_ann = "ann" + EVIL
    events = [json.loads(x) for x in (EX / "logos" / "legal-judge-stands.jsonl").read_text().splitlines()]
    events = [_renamed(e, {"ann": evil_ann}) for e in events]
    for e in events:
        if e["type"] == "JudgeRuling":
            e.update(judge="judge" + EVIL, reason=(e.get("reason") or "") + EVIL)
            if e["decision"] == "penalty":
                e["penalty"] = "a warning" + EVIL
    events[3]["note"] = "a note" + EVIL
    out["players"] = tmp_path / f"m{EVIL}.jsonl"
    out["players"].write_text("".join(json.dumps(e) + "\n" for e in events))
    bad = [dict(e) for e in events[:5]]
    bad[2]["card"] = "no-such" + EVIL
    out["card"] = tmp_path / "card.jsonl"
    out["card"].write_text("".join(json.dumps(e) + "\n" for e in bad))
    return out


def _no_raw_controls(r: Any, what: str) -> None:
    for stream in (r.stdout, r.stderr):
        found = RAW.search(stream)
        assert found is None, f"{what}: a raw {found.group()!r} reached the terminal: {stream[:600]!r}"


def test_no_terminal_escape_reaches_the_terminal(tmp_path: Path) -> None:
    logs = _evil_logs(tmp_path)
    log, card = logs["players"], logs["card"]
    evil_ann = "ann" + EVIL
    runs: list[tuple[str, list[Any], set[int]]] = [
        ("verify", ["verify", log], {0}),
        ("verify unreadable card", ["verify", card], {2}),
        ("verify a missing file", ["verify", tmp_path / f"gone{EVIL}.jsonl"], {2}),
        ("check", ["check", log, "--at", "20", "--event", json.dumps({"type": "Resigned", "player": evil_ann})], {0, 1}),
        ("check an unknown player", ["check", log, "--at", "20", "--event",
                                    json.dumps({"type": "Resigned", "player": "x" + EVIL})], {2}),
        ("check a ruling", ["check", log, "--at", "78", "--event", json.dumps(
            {"type": "JudgeRuling", "event": 78, "decision": "stands", "reason": EVIL, "judge": EVIL})], {0, 1}),
        ("legal", ["legal", log, "--at", "20"], {0}),
        ("state", ["state", log, "--at", "20"], {0}),
        ("state --as", ["state", log, "--at", "20", "--as", evil_ann], {0}),
        ("state --as unknown", ["state", log, "--as", EVIL], {2}),
        ("redact", ["redact", log, "--as", evil_ann, "-o", tmp_path / "ann.jsonl"], {0}),
        ("reconcile", ["reconcile", log, tmp_path / "ann.jsonl"], {0, 1}),
    ]
    for what, args, codes in runs:
        r = cli(*args)
        assert r.exit_code in codes, (what, r.output)
        _no_raw_controls(r, what)
    r = cli("verify", log)
    assert "\\x1b]0;pwned\\x07" in r.output  # shown, escaped: the judge sees what the log holds
    r = cli("verify", "--json", log)  # JSON: C0 escaped by JSON itself, DEL and C1 as \\u00NN; the same text
    _no_raw_controls(r, "verify --json")
    assert json.loads(r.stdout.splitlines()[0])["path"] == str(log)
    db = tmp_path / "s.db"
    for what, args in (("store import", ["store", "import", "--db", db, log, "--jobs", "1"]),
                       ("store list", ["store", "list", "--db", db]),
                       ("store show", ["store", "show", "--db", db, "--at", "20"])):
        if what == "store show":
            args.insert(2, json.loads(cli("store", "list", "--db", db, "--json").stdout.splitlines()[0])["match_id"])
        r = cli(*args)
        assert r.exit_code == 0, (what, r.output)
        _no_raw_controls(r, what)


CARD = ('class = "information"\nattack = 5000\ndefense = 20000\nspeed = 70\n'
        'combo = ["grey", "information", "information"]\nright = { do = "regeneration" }\nrarity = "uncommon"\n')


def test_no_terminal_escape_from_a_pool_file(tmp_path: Path) -> None:
    esc = json.dumps(EVIL)[1:-1]  # as a TOML basic string writes it: \\u001b ...
    pool = tmp_path / "evil.toml"
    pool.write_text(f'pool = "evil"\ndescription = "{esc}"\n\n[[card]]\nid = "ash"\nname = "Ash{esc}"\n'
                    f'text = "burns{esc}"\n{CARD}\n[[card]]\nid = "b{esc}"\nname = "B"\n')
    for args in (["pool", "check", pool, "--game", "logos"], ["pool", "show", pool, "--game", "logos"],
                 ["pool", "show", pool, "--game", "logos", "--card", "ash"]):
        r = cli(*args)
        _no_raw_controls(r, " ".join(map(str, args)))
    pool.write_text(f'pool = "evil"\ndescription = "{esc}"\n\n[[card]]\nid = "ash"\nname = "Ash{esc}"\n'
                    f'text = "burns{esc}"\n{CARD}')
    for args in (["pool", "show", pool, "--game", "logos"], ["pool", "show", pool, "--game", "logos", "--card", "ash"]):
        r = cli(*args)
        assert r.exit_code == 0, r.output
        assert "burns" in r.output
        _no_raw_controls(r, " ".join(map(str, args)))


# -- 5. worker processes die with their parent ------------------------------------------------------

def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("command", ["verify", "store import"])
def test_workers_die_with_a_killed_parent(tmp_path: Path, command: str) -> None:
    import select
    import signal
    import subprocess
    import sys
    import time

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    src = EX / "colossi" / "legal-judge-taken-back.jsonl"
    for i in range(400):
        os.link(src, corpus / f"m{i:03d}.jsonl")
    args = ["verify", "--no-progress"] if command == "verify" else ["store", "import", "--db", str(tmp_path / "s.db")]
    proc = subprocess.Popen([sys.executable, "-m", "adjudicator", *args, "--jobs", "2", str(corpus)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            workers = _children(proc.pid)
        assert len(workers) >= 2, f"no workers seen (exit {proc.poll()})"
        # the workers have started on the logs: the first log's line arrives (a line per log)
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready and proc.stdout is not None and proc.stdout.readline(), f"no log done (exit {proc.poll()})"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [w for w in workers if _alive(w)]
        assert left == [], f"workers {left} outlived their parent"
    finally:
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_the_watchdog_without_prctl_ends_an_orphaned_worker(tmp_path: Path) -> None:
    """Where prctl is not available, the worker's thread sees its parent gone within a second."""
    import subprocess
    import sys
    import time

    script = (
        "import os, sys, time\n"
        "from adjudicator.cli import common\n"
        "r, w = os.pipe()\n"
        "middle = os.getpid()\n"
        "if os.fork() == 0:\n"
        "    sys.platform = 'elsewhere'\n"
        "    common.die_with_parent(middle)\n"
        "    os.write(w, str(os.getpid()).encode() + b'\\n')\n"
        "    time.sleep(60)\n"
        "    os._exit(0)\n"
        "print(os.read(r, 100).decode().strip(), flush=True)\n"
        "os._exit(0)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    worker = int(out.stdout.strip())
    deadline = time.monotonic() + 5
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(worker)
    if alive:
        os.kill(worker, 9)
    assert not alive


# -- 4. verify --cluster with a bad address: exit 2 at once, one line --------------------------------

@pytest.mark.parametrize("address,says", [
    ("bogus://x", "the scheme 'bogus' does not reach a scheduler"),
    ("localhost", "the scheduler's port is missing"),
    ("tcp://host:70000", "the scheduler's port is missing or not 1 to 65535"),
    ("tcp://exa mple:8786", "not a scheduler address"),
    ("tcp://127.0.0.1:9", "cannot reach the scheduler (Connection refused)"),
])
def test_a_bad_cluster_address_is_one_line_and_quick(address: str, says: str) -> None:
    import subprocess
    import sys
    import time

    pytest.importorskip("dask.distributed")
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "adjudicator", "verify", "--cluster", address, str(EX / "kolossus")],
                       capture_output=True, text=True, timeout=120)
    took = time.monotonic() - t0
    assert r.returncode == 2, r.stderr
    assert r.stdout == "" and r.stderr.count("\n") == 1 and says in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert took < 15, f"{took:.0f} s"


@pytest.mark.parametrize("reply", [b"", b"\xff" * 64])
def test_a_port_that_is_not_a_scheduler_is_exit_2(monkeypatch: pytest.MonkeyPatch, reply: bytes) -> None:
    """A port that accepts and stays silent, or answers garbage: Dask's error is one line, exit 2."""
    import socket
    import threading
    import time

    pytest.importorskip("dask.distributed")
    from adjudicator.cli import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "2s")
    server = socket.create_server(("127.0.0.1", 0))
    conns: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                c, _ = server.accept()
            except OSError:
                return
            conns.append(c)
            if reply:
                c.sendall(reply)

    threading.Thread(target=serve, daemon=True).start()
    try:
        t0 = time.monotonic()
        r = cli("verify", "--cluster", f"tcp://127.0.0.1:{server.getsockname()[1]}", EX / "kolossus")
        assert r.exit_code == 2 and "cannot reach the scheduler" in r.output and "Traceback" not in r.output, r.output
        assert time.monotonic() - t0 < 20
    finally:
        server.close()
        for c in conns:
            c.close()


# -- 3. symbolic links out of a --pools directory ----------------------------------------------------

def _club_pool(folder: Path) -> Path:
    """The shipped Colossus Order pool under another id (``club``)."""
    src = (ROOT / "adjudicator" / "games" / "colossus_order" / "data" / "sample.toml").read_text()
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "club.toml"
    out.write_text(src.replace('pool = "sample"', 'pool = "club"', 1))
    return out


def test_a_symlink_out_of_the_pools_directory_is_refused(tmp_path: Path) -> None:
    outside = _club_pool(tmp_path / "elsewhere")
    pools = tmp_path / "pools"
    pools.mkdir()
    (pools / "club.toml").symlink_to(outside)
    log = _log_naming_pool(tmp_path, "club")
    for args, env in (((log, "--pools", pools), None), ((log,), {"ADJUDICATOR_POOLS": str(pools)})):
        r = cli("verify", *args, env=env)
        assert r.exit_code == 2, r.output
        assert f"a symbolic link to {outside}, outside the --pools directory" in r.output, r.output
    # a link to a game folder outside is refused the same way
    (pools / "club.toml").unlink()
    (pools / "colossus-order").symlink_to(outside.parent, target_is_directory=True)
    r = cli("verify", log, "--pools", pools)
    assert r.exit_code == 2 and "outside the --pools directory" in r.output, r.output
    # a link that stays inside, and the real file, are read
    (pools / "colossus-order").unlink()
    real = _club_pool(pools / "own")
    (pools / "club.toml").symlink_to(real)
    r = cli("verify", log, "--pools", pools)
    assert r.exit_code == 0 and "checked against pool 'club'" in r.output, r.output
    r = cli("verify", log, "--pools", outside.parent)
    assert r.exit_code == 0, r.output


def test_a_json_pool_of_tiny_cards_is_refused_before_it_is_built() -> None:
    """3.5 MB of ``{"id": "cN"}`` took 440 MB and 1,000,000 problem lines in ``pool check``."""
    from adjudicator.core.kernel.data import parse_text
    from adjudicator.core.kernel.limits import MAX_DATA_TOKENS

    text = '{"pool": "big", "card": [' + ",".join(f'{{"id": "c{i}"}}' for i in range(200_000)) + "]}"
    tracemalloc.start()
    try:
        with pytest.raises(DataError, match=f"more than {MAX_DATA_TOKENS} pieces"):
            parse_text(text, "big.json")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, peak
    # commas inside strings are not pieces: a long text full of them still reads
    doc = parse_text('{"pool": "p", "description": "' + ", " * 150_000 + '"}', "p.json")
    assert doc["description"].count(",") == 150_000
