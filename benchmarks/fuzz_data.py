"""Fuzz surfaces of the data files and the files the commands write (issue 19).

* ``pool-toml`` and ``pool-json``: card pools, boards and islands, mutated (a value replaced, a
  line dropped, cut or doubled, a bracket or quote inserted, bytes that are not UTF-8) and hostile
  (the shapes that broke the TOML reader: deep arrays and inline tables, long dotted keys and
  headers, a million tiny keys, huge strings, up to about 1 MB), through everything that reads
  them: ``pool check`` and ``pool show`` for each game with pools, loading as a pool, a board and
  an island, the canonical content the store keeps.
* ``output``: ``seal``, ``redact`` and ``reconcile`` through the command line with ``-o`` at the
  input, a link to it, an existing file (with and without ``--force``), a folder, a missing
  folder, a long or control-character name; besides a crash, a changed input, a file replaced
  without ``--force`` or a temporary file left behind is a finding.

Listed in :func:`benchmarks.fuzz_surfaces.surfaces`: ``python -m benchmarks --fuzz N`` runs them after
the games, each in a child process with its peak memory (``--fuzz-surface pool-toml`` alone);
:func:`hostile_figures` times the 1 MB hostile TOML shapes.
"""

from __future__ import annotations

import random
import resource
import time
from dataclasses import dataclass
from typing import Any, Callable

import msgspec

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.playout import playout, to_jsonl

from .fuzz import HANG_SECONDS, Report, absurd, encode, mutate_doc, mutate_lines, timed_run

#: the surfaces of this module
DATA_SURFACES = ("pool-toml", "pool-json", "output")


@dataclass
class SurfaceReport(Report):
    """A surface's report with the peak resident memory of the process that ran it."""

    peak_bytes: int = 0


def toml_value(v: Any) -> str:
    """``v`` (a JSON value, deep placeholders allowed) as a TOML inline value."""
    if isinstance(v, str) and v.startswith("__DEEP_") and v.endswith("__"):
        n = int(v[7:-2])
        return "[" * n + "0" + "]" * n
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return '"null"'  # TOML has no null: the nearest mistake a writer makes
    if isinstance(v, (int, float)):
        return repr(v) if isinstance(v, int) or v == v and abs(v) != float("inf") else "nan"
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json_string(str(k))} = {toml_value(x)}" for k, x in v.items()) + "}"
    return json_string(str(v))


def json_string(s: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, but for ``\\/`` which JSON never writes)."""
    return msgspec.json.encode(s).decode()


def to_toml(doc: Any) -> str:
    """A pool or board document as a TOML file: top-level keys, then ``[[card]]`` tables."""
    if not isinstance(doc, dict):
        return "value = " + toml_value(doc) + "\n"
    head = [f"{json_string(str(k))} = {toml_value(v)}" for k, v in doc.items()
            if not (k == "card" and isinstance(v, list) and all(isinstance(c, dict) for c in v))]
    out = "\n".join(head) + "\n"
    cards = doc.get("card")
    if isinstance(cards, list) and all(isinstance(c, dict) for c in cards):
        for c in cards:
            out += "\n[[card]]\n" + "".join(f"{json_string(str(k))} = {toml_value(v)}\n" for k, v in c.items())
    return out


def hostile_files(size: int = 1_000_000) -> dict[str, str]:
    """A TOML data file of about ``size`` characters of each shape that broke the reader."""
    half, quarter = size // 2, size // 4
    return {
        "dotted-key": "a" + ".a" * (half - 4) + " = 1\n",
        "deep-arrays": "x = " + "[" * (half - 4) + "]" * (half - 4) + "\n",
        "deep-inline-tables": "x = " + "{a=" * quarter + "1" + "}" * quarter + "\n",
        "dotted-header": "[" + "a." * (half - 4) + "a]\nx = 1\n",
        "tiny-keys": "".join(f"k{i}=1\n" for i in range(size // 8)),
        "huge-string": 'description = "' + "y" * (size - 20) + '"\n',
        "huge-array": "x = [" + "0," * (half - 4) + "]\n",
    }


def hostile_figures(size: int = 1_000_000) -> list[dict[str, Any]]:
    """Seconds and peak traced memory (MiB) of refusing each :func:`hostile_files` shape."""
    import tracemalloc

    from adjudicator.core.kernel.boundedtoml import load_toml_bounded

    rows = []
    for shape, text in hostile_files(size).items():
        raw = text.encode()
        t0 = time.perf_counter()
        refused = _refusal(load_toml_bounded, raw, shape)
        seconds = time.perf_counter() - t0
        tracemalloc.start()  # a second run for the memory (tracing slows it down)
        _refusal(load_toml_bounded, raw, shape)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        rows.append({"shape": shape, "bytes": len(raw), "seconds": round(seconds, 3), "peak_mib": round(peak, 1),
                     "refused": refused})
    return rows


def _refusal(load: Callable[[bytes, str], Any], raw: bytes, shape: str) -> str:
    try:
        load(raw, f"{shape}.toml")
    except AdjudicatorError as exc:
        return str(exc)
    return ""


def hostile_toml(rng: random.Random) -> str:
    """One of the shapes that broke the TOML reader, at a random size (up to about 1 MB)."""
    n = rng.choice([10, 70, 1000, 5000, 50_000, 300_000])
    return rng.choice([
        lambda: "a" + ".a" * n + " = 1\n",
        lambda: "x = " + "[" * n + "]" * n + "\n",
        lambda: "x = " + "{a=" * n + "1" + "}" * n + "\n",
        lambda: "[" + "a." * n + "a]\n",
        lambda: "[[" + "b." * min(n, 100) + "b]]\n" * 3,
        lambda: "".join(f"k{i}=1\n" for i in range(n)),
        lambda: "x = [" + "0," * n + "]\n",
        lambda: 'x = "' + "y" * (3 * n) + '"\n',
        lambda: "x = '''" + "y'" * n + "'''\n",
        lambda: 'x = """' + '\\"' * n + '"""\n',
        lambda: "#" * n + "\n" * n,
        lambda: "x = " + "1" * min(n, 10_000) + "\n",
        lambda: 'x = "\\u001b]0;pwned\\u0007"\n',
        lambda: "x = {" + ",".join(f"k{i}.a.b = 1" for i in range(min(n, 5000))) + "}\n",
    ])()


def mutate_text(rng: random.Random, text: str) -> bytes:
    """A data file's text with one to three line or byte mutations."""
    lines = text.split("\n")
    for _ in range(rng.choice([1, 1, 2, 3])):
        r = rng.random()
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines.append("")
        elif r < 0.25:
            del lines[i]
        elif r < 0.4:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif r < 0.55:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        elif r < 0.7:
            j = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + rng.choice(["[", "]", "{", "}", '"', "'", "=", ".", ",", "#", '"""', "\\"]) + lines[i][j:]
        elif r < 0.85:
            lines.insert(i, hostile_toml(rng).rstrip("\n"))
        else:
            head, _, value = lines[i].partition("=")
            lines[i] = head + "= " + toml_value(absurd(rng, {}))
    raw = "\n".join(lines).encode()
    if rng.random() < 0.05:
        raw += bytes([rng.choice([0xFF, 0xC3, 0x00, 0x80])])
    return raw


def _data_material() -> list[tuple[str, str, Any, str]]:
    """(file name, game, document, TOML text or "") of every shipped data file."""
    from pathlib import Path

    from adjudicator.core.kernel.data import read_data

    root = Path(__file__).resolve().parent.parent / "adjudicator" / "games"
    out = []
    for p in sorted(root.glob("*/data/*")):
        if p.suffix in (".toml", ".json"):
            game = p.parent.parent.name.replace("_", "-")
            out.append((p.name, game, read_data(p), p.read_text() if p.suffix == ".toml" else ""))
    return out


def exercise_data(path: Any, game_id: str) -> str:
    """What the command line does with a data file: ``pool check``/``pool show`` (each game with
    pools), loading it as a pool, board or island, its canonical content (the store's)."""
    from adjudicator.core.services import pools as poolcheck
    from adjudicator.core.kernel import sources
    from adjudicator.core.kernel.data import read_bytes

    outcome = "problems"
    for game in registry.games():
        loader = poolcheck.pool_loader(game)
        if loader is None:
            continue
        report = poolcheck.check_pool(path, loader, game.id)
        if not report.problems:
            outcome = "read"
            for card in report.cards:
                poolcheck.card_info(game, card)
        try:
            loader.load_file(path)
        except AdjudicatorError:
            pass
    try:
        doc = sources.decode_document(read_bytes(path), str(path))
    except AdjudicatorError:
        return "unreadable"
    sources.sha256_of(doc)
    from adjudicator.games.colossi.data import ISLANDS
    from adjudicator.games.kolossus.board import BOARDS

    for kind in (ISLANDS, BOARDS):
        try:
            kind.build(doc, str(path), "fuzz")
        except AdjudicatorError:
            pass
    return outcome


#: where ``-o`` may point: (name, how to prepare it in the folder, is it the input)
_TARGETS = ("fresh", "input", "symlink-to-input", "hardlink-to-input", "existing", "existing-forced",
            "directory", "missing-folder", "long-name", "control-chars", "dangling-symlink")


def exercise_output(folder: Any, data: bytes, command: str, target: str) -> str:
    """One ``seal``/``redact``/``reconcile`` with ``-o`` at ``target``, through the command line;
    a crash is an exit code outside 0-2, an escaping exception, or a broken promise: the input
    changed, an existing file replaced without --force, a temporary file left behind."""
    import os
    import shutil

    from click.testing import CliRunner

    from adjudicator.cli.main import main

    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    log = os.path.join(folder, "in.jsonl")
    with open(log, "wb") as f:
        f.write(data)
    out = os.path.join(folder, "out.jsonl")
    force: list[str] = []
    if target == "input":
        out = log
    elif target == "symlink-to-input":
        os.symlink(log, out)
    elif target == "hardlink-to-input":
        os.link(log, out)
    elif target in ("existing", "existing-forced"):
        with open(out, "wb") as f:
            f.write(b"precious\n")
        force = ["--force"] if target == "existing-forced" else []
    elif target == "directory":
        os.makedirs(out)
    elif target == "missing-folder":
        out = os.path.join(folder, "no", "such", "out.jsonl")
    elif target == "long-name":
        out = os.path.join(folder, "x" * 300 + ".jsonl")
    elif target == "control-chars":
        out = os.path.join(folder, "o\x1b]0;x\x07.jsonl")
    elif target == "dangling-symlink":
        os.symlink(os.path.join(folder, "nowhere"), out)
    args = {"seal": ["seal", log], "redact": ["redact", log, "--as", _first_player(data)],
            "reconcile": ["reconcile", log, log]}[command] + ["-o", out, *force]
    r = CliRunner().invoke(main, args)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    if r.exit_code not in (0, 1, 2):
        raise RuntimeError(f"{command} -o {target}: exit {r.exit_code}: {r.output[-300:]}")
    with open(log, "rb") as f:
        if f.read() != data:
            raise RuntimeError(f"{command} -o {target}: the input was changed")
    if target == "existing" and open(out, "rb").read() != b"precious\n":
        raise RuntimeError(f"{command} -o {target}: an existing file was replaced without --force")
    left = [n for n in os.listdir(folder) if n.endswith(".tmp")]
    if left:
        raise RuntimeError(f"{command} -o {target}: temporary files left: {left}")
    return f"exit{r.exit_code}"


def _first_player(data: bytes) -> str:
    try:
        first = msgspec.json.decode(data.split(b"\n", 1)[0])
        return str(first["players"][0])
    except Exception:  # noqa: BLE001 - a mutated first line: any name will do
        return "alice"


def fuzz_surface(surface: str, n: int, seed: int = 0, *, hang_seconds: float = HANG_SECONDS) -> SurfaceReport:
    """:func:`fuzz_game` for a surface of :data:`DATA_SURFACES`: mutated and hostile data files (TOML,
    JSON) through everything that reads them, or mutated logs through every ``-o`` command."""
    import os
    import tempfile

    rng = random.Random(f"{surface}:{seed}")
    rep = SurfaceReport(surface)
    with tempfile.TemporaryDirectory(prefix="adjudicator-fuzz-") as tmp:
        if surface == "output":
            material = []
            for game in registry.games():
                events, _ = playout(game, seed * 7 + 1, max_events=60)
                material.append(to_jsonl(events).splitlines())
        else:
            data = _data_material()
        for i in range(n):
            try:
                if surface == "output":
                    lines = material[i % len(material)]
                    raw = mutate_lines(rng, lines) if rng.random() < 0.7 else b"\n".join(lines) + b"\n"
                    command = ("seal", "redact", "reconcile")[i % 3]
                    target = rng.choice(_TARGETS)
                    kind = f"{command}:{target}"
                    act: Callable[[], str] = lambda d=raw, c=command, t=target: exercise_output(
                        os.path.join(tmp, "o"), d, c, t)
                else:
                    name, game_id, doc, text = data[i % len(data)]
                    r = rng.random()
                    if surface == "pool-toml":
                        stem = name.rsplit(".", 1)[0]
                        path = os.path.join(tmp, stem + ".toml")
                        if r < 0.45:
                            raw = to_toml(mutate_doc(rng, doc)).encode()
                        elif r < 0.8:
                            raw = mutate_text(rng, text or to_toml(doc))
                        else:
                            raw = (to_toml(doc) + hostile_toml(rng)).encode()
                    else:
                        stem = name.rsplit(".", 1)[0]
                        path = os.path.join(tmp, stem + ".json")
                        if r < 0.7:
                            raw = encode(mutate_doc(rng, doc))
                        elif r < 0.9:
                            raw = mutate_text(rng, encode(doc).decode())
                        else:
                            raw = b'{"pool": ' + b"[" * rng.choice([65, 1000, 400_000]) + b"]" * 10 + b"}"
                    with open(path, "wb") as f:
                        f.write(raw)
                    kind = "data"
                    act = lambda p=path, g=game_id: exercise_data(p, g)
            except RecursionError:  # building the input itself (never the system under test)
                continue
            rep.inputs += 1
            timed_run(rep, kind, i, act, hang_seconds)
    rep.peak_bytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return rep
