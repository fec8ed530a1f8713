"""Fuzz surfaces of the command line's other inputs (issue 29): plugins, ``record --script`` and
tournament manifests, each through the command a user runs (click's runner, in process).

* ``plugins``: a hostile third-party distribution on ``sys.path`` per input: entry-point metadata
  that is not UTF-8 or not an ini file, a METADATA file that is garbage, entry points naming a
  missing module or attribute, a module that raises (any exception, ``SystemExit``,
  ``KeyboardInterrupt``, a ``RecursionError``), hangs past the import time limit, registers a
  built-in game's id (then raises or not), registers something that is not a game or returns
  nothing.  Each input runs ``adjudicator games`` and ``verify`` of a shipped Kolossus log with
  the registry as a fresh process has it.  Besides an escaping exception, a finding is: ``verify``
  not legal with exit 0, ``games`` exiting other than 0 or 2, a built-in game missing or replaced,
  a traceback or a raw control character in the output.
* ``record-script``: ``adjudicator record NEW --game G --players ... --setup JSON --script -`` of
  every game, with the set-up (its JSON mutated like the event fuzzer's documents, deep, or not an
  object), ``--option`` values and the script's entries (numbers, words, ``undo``, legal events'
  JSON mutated, control characters, long and deep lines) mutated.  A finding: an exit code outside
  the documented 0, 1, 2, an escaping exception, a raw control character in the output.
* ``manifest``: a generated LOGOS tournament (tests/tournament_gen.py: planted problems, seat
  records) whose manifest, as TOML and as JSON, is mutated (a value replaced, lines dropped, cut or
  doubled, brackets inserted, not UTF-8) or hostile (the TOML shapes that broke the reader, deep
  JSON, many tables), through ``tournament check`` plain, ``--json`` and ``--csv``.  A finding: an
  exit code outside 0-2, an escaping exception, a raw control character, a CSV cell that starts a
  formula.

Listed in :func:`benchmarks.fuzz_surfaces.surfaces`: ``python -m benchmarks --fuzz N
--fuzz-surface plugins`` (each surface in a child process with its peak memory).
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import resource
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.playout import playout

from .fuzz import HANG_SECONDS, absurd, encode, mutate_doc, timed_run
from .fuzz_data import SurfaceReport, hostile_toml, mutate_text

CLI_SURFACES = ("plugins", "record-script", "manifest")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KOLOSSUS = EXAMPLES / "kolossus" / "legal-chapter-1.jsonl"
BUILTIN = ("colossi", "colossus-order", "kolossus", "logos")
#: a raw control character a terminal would act on (C0 but tab and newline, DEL, C1, bidi overrides)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: the plugin import time limit during the run (a hanging plugin sleeps a little longer)
PLUGIN_SECONDS = 0.2


class Finding(Exception):
    """A broken promise of the command (not an exception of the code under test)."""


def _invoke(args: list[str], stdin: str | bytes | None = None) -> Any:
    from click.testing import CliRunner

    from adjudicator.cli.main import main

    r = CliRunner().invoke(main, args, input=stdin)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r


def _check_output(what: str, text: str) -> None:
    if "Traceback (most recent call last)" in text:
        raise Finding(f"{what}: a traceback in the output: {text[-300:]!r}")
    m = _CONTROL.search(text)
    if m:
        raise Finding(f"{what}: a raw control character {m.group()!r} in the output: "
                      f"{text[max(0, m.start() - 60):m.start() + 20]!r}")


# -- plugins ---------------------------------------------------------------------------------------

_RAISES = ("raise ValueError('broken plugin')", "raise SystemExit(5)", "raise SystemExit('bye')",
           "raise KeyboardInterrupt", "raise MemoryError", "raise RecursionError",
           "def f(n): return f(n + 1)\nf(0)", "import no_such_module_anywhere", "1/0",
           "raise BaseException('odd')", "raise GeneratorExit")


def _plugin_module(rng: random.Random) -> tuple[str, str]:
    """(the entry point's object reference, the module's source) of one hostile plugin."""
    builtin = rng.choice(BUILTIN)
    impostor = (f"from adjudicator.core.kernel import registry\nclass Impostor:\n    id = {builtin!r}\n"
                f"    name = 'not {builtin}'\nregistry.register(Impostor())\n")
    kind = rng.randrange(9)
    if kind == 0:
        return "", rng.choice(_RAISES) + "\n"
    if kind == 1:
        return "", f"import time\ntime.sleep({PLUGIN_SECONDS * rng.choice([2, 5])})\n"
    if kind == 2:
        return "", impostor + rng.choice(("", *_RAISES)) + "\n"
    if kind == 3:
        return ":make", "def make():\n    " + rng.choice(_RAISES).replace("\n", "\n    ") + "\n"
    if kind == 4:
        return ":make", rng.choice(["make = 42\n", "def make():\n    return None\n",
                                    "def make():\n    return [object(), 'kolossus']\n"])
    if kind == 5:
        return ":missing", "x = 1\n"
    if kind == 6:  # a game registered under a built-in id by a callable, then a failure
        return ":make", impostor.replace("registry.register(Impostor())\n", "") + (
            "def make():\n    registry.register(Impostor())\n    " + rng.choice(_RAISES).split("\n")[0] + "\n")
    if kind == 7:  # a reason that would drive the terminal
        return "", "raise ValueError('\\x1b]0;pwned\\x07\\u202e\\nFAILED\\tfake row')\n"
    return "", f"raise ValueError('x' * {rng.choice([1000, 1_000_000])})\n"


def hostile_distribution(rng: random.Random, root: Path, i: int) -> None:
    """One to three hostile distributions in ``root`` (a folder put on ``sys.path``)."""
    for k in range(rng.choice([1, 1, 2, 3])):
        name = f"fz{i}_{k}"
        info = root / f"{name}-1.0.dist-info"
        info.mkdir()
        meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n".encode()
        lines = []
        for j in range(rng.choice([1, 1, 2])):
            ref, src = _plugin_module(rng)
            mod = f"{name}_m{j}"
            (root / f"{mod}.py").write_text(src)
            ep = rng.choice([f"{name}{j}", rng.choice(BUILTIN), "x" * 300, "\x1b[31mred", "ünï"])
            lines.append(f"{ep} = {mod}{ref}")
        eps = ("[adjudicator.games]\n" + "\n".join(lines) + "\n").encode()
        r = rng.random()
        if r < 0.1:
            eps = eps[:rng.randrange(len(eps))] + bytes([0xFF, 0xFE, 0x00]) + eps
        elif r < 0.18:
            eps = rng.choice([b"[adjudicator.games\nx = = =\n", b"no section\n", b"[adjudicator.games]\n= nothing\n",
                              b"[adjudicator.games]\n" + b"k = v:" * 5000 + b"\n"])
        elif r < 0.24:
            meta = rng.choice([b"\xff\xfe garbage", b"", b"Name:\n" * 10, meta + b"Name: other\n"])
        (info / "METADATA").write_bytes(meta)
        (info / "entry_points.txt").write_bytes(eps)


@contextmanager
def fresh_registry(folder: Path) -> Iterator[None]:
    """The registry as a fresh process with ``folder`` on ``sys.path`` has it (the built-in games
    already imported), restored afterwards with the plugins' own modules dropped."""
    import importlib

    registry.games()
    saved = {n: getattr(registry, n) for n in ("_GAMES", "_ORIGINS", "_FAILURES", "_TRIED", "_all_loaded")}
    registry._GAMES, registry._ORIGINS = dict(saved["_GAMES"]), dict(saved["_ORIGINS"])
    registry._FAILURES, registry._TRIED = list(saved["_FAILURES"]), set(saved["_TRIED"])
    registry._all_loaded = False
    modules = set(sys.modules)
    limit, timeout = sys.getrecursionlimit(), os.environ.get("ADJUDICATOR_PLUGIN_TIMEOUT")
    os.environ["ADJUDICATOR_PLUGIN_TIMEOUT"] = str(PLUGIN_SECONDS)
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        for n in set(sys.modules) - modules:  # the plugins' own modules (never one they imported)
            if str(getattr(sys.modules[n], "__file__", None) or "").startswith(str(folder)):
                sys.modules.pop(n, None)
        for n, v in saved.items():
            setattr(registry, n, v)
        sys.setrecursionlimit(limit)
        if timeout is None:
            os.environ.pop("ADJUDICATOR_PLUGIN_TIMEOUT", None)
        else:
            os.environ["ADJUDICATOR_PLUGIN_TIMEOUT"] = timeout
        importlib.invalidate_caches()


def exercise_plugins(folder: Path) -> str:
    """``verify`` of a shipped Kolossus log and ``adjudicator games`` beside the plugins in ``folder``."""
    with fresh_registry(folder):
        v = _invoke(["verify", str(KOLOSSUS)])
        _check_output("verify", v.output)
        if v.exit_code != 0 or "legal (" not in v.output:
            raise Finding(f"verify of a built-in game's log: exit {v.exit_code}: {v.output[-300:]!r}")
        g = _invoke(["games"])
        _check_output("games", g.output)
        if g.exit_code not in (0, 2):
            raise Finding(f"games: exit {g.exit_code}: {g.output[-300:]!r}")
        rows = [line.split("\t") for line in g.stdout.splitlines()]
        ours = {row[0]: row for row in rows if len(row) > 2 and row[1] != "FAILED"}
        for gid in BUILTIN:
            if gid not in ours or "not " + gid in ours[gid][1]:
                raise Finding(f"games: the built-in {gid} is missing or replaced: {g.stdout[-400:]!r}")
        return f"exit{g.exit_code}"


# -- record --script -------------------------------------------------------------------------------

def _setup_fields(setup: Any) -> dict[str, Any]:
    doc = msgspec.to_builtins(setup)
    return {k: v for k, v in doc.items() if k not in ("type", "seq", "game", "players", "options", "ruleset", "meta",
                                                       "prev", "note", "time")}


def _entry(rng: random.Random, legal: list[bytes]) -> str:
    r = rng.random()
    if r < 0.3:
        return str(rng.choice([1, 2, 3, 0, -1, 10**30, 7]))
    if r < 0.5 and legal:
        return rng.choice(legal).decode()
    if r < 0.7 and legal:
        return encode(mutate_doc(rng, json.loads(rng.choice(legal)))).decode()
    return rng.choice([
        "undo", "undo undo", "help", "?", "", " ", "end turn", "pass", "\x1b]0;pwned\x07", "\u202eevil",
        "x" * rng.choice([100, 5000, 200_000]), "[" * rng.choice([10, 5000]), '{"type": ' * 3000,
        "stands taken-back", "{}", "null", '{"type": "MatchStarted"}', "1 2 3", "\x00\x01", "🎲",
    ])


def _record_material() -> list[tuple[str, list[str], dict[str, Any], list[bytes]]]:
    """(game, players, set-up fields, legal events' JSON of a playout) of every built-in game."""
    out = []
    for gid in BUILTIN:
        game = registry.get(gid)
        events, _ = playout(game, 1, max_events=40)
        legal = [msgspec.json.encode(e) for e in events[1:]]
        out.append((gid, list(events[0].players), _setup_fields(events[0]), legal))
    return out


def exercise_record(folder: Path, gid: str, players: list[str], setup: Any, options: list[str], script: str) -> str:
    log = folder / "rec.jsonl"
    for p in folder.iterdir():
        p.unlink()
    args = ["record", str(log), "--game", gid, "--players", ",".join(players), "--script", "-"]
    if setup is not None:
        args += ["--setup", setup if isinstance(setup, str) else encode(setup).decode()]
    for o in options:
        args += ["--option", o]
    r = _invoke(args, script)
    _check_output("record --script", r.output)
    if r.exit_code not in (0, 1, 2):
        raise Finding(f"record --script: exit {r.exit_code}: {r.output[-300:]!r}")
    return f"exit{r.exit_code}"


# -- manifests -------------------------------------------------------------------------------------

def _manifest_material(root: Path) -> tuple[Path, str, Any]:
    """A generated LOGOS tournament in ``root``: (manifest path, its TOML text, its document)."""
    import tomllib

    from tests.tournament_gen import generate

    gen = generate(root, "logos", players=6, rounds=2, seed=3)
    text = gen.manifest.read_text()
    return gen.manifest, text, tomllib.loads(text)


def _hostile_manifest(rng: random.Random, doc: Any) -> bytes:
    """A JSON manifest of a hostile shape: deep, many tables, huge strings."""
    n = rng.choice([10, 1000, 20_000])
    r = rng.randrange(4)
    if r == 0:
        return b'{"name": "x", "game": "logos", "rounds": ' + b"[" * n + b"]" * n + b"}"
    if r == 1:
        tables = [{"table": t, "players": ["p01", "p02"], "log": f"t{t}.jsonl"} for t in range(n)]
        return encode({**doc, "rounds": [{"round": 1, "tables": tables}]})
    if r == 2:
        return encode({**doc, "name": "\x1b]0;pwned\x07=cmd|' /C calc'!A0" * min(n, 2000)})
    return encode({**doc, "players": [{"id": f"p{k}", "name": "=HYPERLINK(\"x\")\u202e"} for k in range(n)]})


def exercise_manifest(path: Path, raw: bytes, how: str) -> str:
    path.write_bytes(raw)
    extra = {"plain": [], "json": ["--json"], "csv": ["--csv"]}[how]
    r = _invoke(["tournament", "check", str(path), "--jobs", "1", *extra])
    _check_output(f"tournament check {how}", r.output)
    if r.exit_code not in (0, 1, 2):
        raise Finding(f"tournament check: exit {r.exit_code}: {r.output[-300:]!r}")
    if how == "csv" and r.exit_code in (0, 1):
        for row in csv.reader(io.StringIO(r.stdout)):
            bad = [c for c in row if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
            if bad:
                raise Finding(f"tournament check --csv: a cell starts a formula: {bad[0][:80]!r}")
    return f"{how}:exit{r.exit_code}"


# -- the run ---------------------------------------------------------------------------------------

def _inputs(surface: str, rng: random.Random, root: Path) -> Iterator[tuple[str, Callable[[], str]]]:
    """The surface's inputs, endless: (kind, the run of one input)."""
    if surface == "record-script":
        material = _record_material()
        (root / "rec").mkdir()
    elif surface == "manifest":
        manifest, text, doc = _manifest_material(root / "event")
    i = 0
    while True:
        i += 1
        if surface == "plugins":
            folder = root / f"p{i}"
            folder.mkdir()
            hostile_distribution(rng, folder, i)
            yield "plugins", lambda f=folder: exercise_plugins(f)
        elif surface == "record-script":
            gid, players, fields, legal = material[i % len(material)]
            r = rng.random()
            setup: Any = (fields if r < 0.3 else mutate_doc(rng, fields) if r < 0.8 else
                          rng.choice(["[1, 2]", "not json", "{" * 5000, "@/etc/hostname", "@/nonexistent", "@/tmp",
                                      '{"decks": ' * 400, encode(absurd(rng, fields)).decode()]))
            options = [f"{k}={v}" for k, v in (("x", 1), ("rounds", 1), ("start_hp", -5), ("board", "../../etc"),
                                               ("deck_size", "[[[[1]]]]")) if rng.random() < 0.15]
            script = "\n".join(_entry(rng, legal) for _ in range(rng.choice([1, 3, 8, 20])))
            yield f"record:{gid}", lambda g=gid, p=players, s=setup, o=options, sc=script: exercise_record(
                root / "rec", g, p, s, o, sc)
        else:
            r = rng.random()
            if r < 0.4:
                raw, suffix = mutate_text(rng, text), ".toml"
            elif r < 0.55:
                raw, suffix = (text + hostile_toml(rng)).encode(), ".toml"
            elif r < 0.85:
                raw, suffix = encode(mutate_doc(rng, doc)), ".json"
            else:
                raw, suffix = _hostile_manifest(rng, doc), ".json"
            how = rng.choice(["plain", "json", "csv"])
            yield f"manifest{suffix}", lambda d=raw, s=suffix, h=how: exercise_manifest(
                manifest.with_name("fuzzed" + s), d, h)


def fuzz_cli(surface: str, n: int, seed: int = 0, *, hang_seconds: float = HANG_SECONDS) -> SurfaceReport:
    """``n`` inputs of a surface of :data:`CLI_SURFACES` (the module docstring says what each is)."""
    rng = random.Random(f"{surface}:{seed}")
    rep = SurfaceReport(surface)
    with tempfile.TemporaryDirectory(prefix="adjudicator-fuzz-") as tmp:
        made = _inputs(surface, rng, Path(tmp))
        for i in range(n):
            try:
                kind, act = next(made)
            except RecursionError:  # building the input itself (never the system under test)
                made = _inputs(surface, rng, Path(tempfile.mkdtemp(dir=tmp)))
                continue
            rep.inputs += 1
            timed_run(rep, kind, i, act, hang_seconds)
    rep.peak_bytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return rep
