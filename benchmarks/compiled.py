"""``python -m benchmarks.compiled``: is compiling the engines with mypyc worth it? (issue 22)

Nothing in the repository is compiled; this evaluation builds, in a temporary directory, one copy
of the package per *module set* with the set's modules compiled by mypyc (``pip install mypy``;
gcc and the Python headers, Debian's ``python3-dev``), and an interpreted copy beside them.  Each
copy runs in its own process, as the benchmark does (``benchmarks.sidebyside.measure_verify_decode``:
verify passes interleaved with python-chess's ``read_game`` passes, the median ratio reported),
over one corpus of generated matches shared by every copy; copies are measured in turn, ``rounds``
times, so that the load of the machine hits them alike.  It prints, per set and game, the build
time, the verify / python-chess ratio interpreted and compiled, the speed-up, and whether every
verdict is unchanged: the generated corpus and ``examples/<game>/`` verified in both copies give
the same verdict, violations, warnings, outcome and final position (its JSON).

What mypyc needs of this code base, applied to the copies only (``PATCHES``; the figures and
what adoption would take are at the end of this docstring):

- mypy type errors do not stop the build (``ignore_errors``: the code base is not mypy-clean)
  and a name may be re-bound with another type (``allow_redefinition_new``);
- ``@checks``/``@applies`` mark handlers with a function attribute; a compiled method has no
  ``__dict__``, so the marks go to a side table (``core/kernel/kit.py``);
- a method defined twice in one class body (Colossi's ``Rules.check``) is a C symbol defined
  twice: the first is renamed;
- a compiled function checks its annotations: ``MatchLog.events: list[...]`` holds a
  ``StreamedEvents`` (a Sequence) when a log is streamed, a TypeError once compiled: annotated
  ``Sequence``;
- a compiled class has a fixed layout and no ``__dict__``; Colossi's working copy ``W`` sets
  fields by name and reads ``__dict__``, so it is declared a plain Python class
  (``@mypyc_attr(native_class=False)``: its methods are still compiled);
- msgspec Structs must stay in interpreted modules: mypyc erases their annotations to the bare
  runtime class (``list[Corner]`` becomes ``list``), so msgspec would silently stop validating
  their fields (and a field named ``type`` annotated ``Any`` becomes one that must hold a
  ``type``: ``core/kernel/log.py``'s ``_Typed`` then decodes no line, and no judge's ruling is found).
  No module of a set defines a Struct class (``_Typed`` is made with ``msgspec.defstruct``).

Exit codes: 0 every verdict unchanged, 1 a verdict differs, 2 usage or mypyc missing, 3 a build
or a worker failed.  ``--keep DIR`` keeps the copies (run tests against one with
``PYTHONPATH=DIR/<set> python -m pytest ...`` from that directory).

Measured on 2026-11-26 (main at 8a3f149; mypy/mypyc 2.4.1, Cython 3.3.1, gcc 12.2, CPython
3.11.7, two cores).  Instructions per verified event (callgrind: the same whatever the load; 10
generated Kolossus matches, 3,816 events; 6 Colossi matches, 4,824 events) and verify /
python-chess timed side by side (30 matches, 3 passes, median of 3 rounds, on a quiet spell):

=====================================  ========================  ========================
compiled                               Kolossus                  Colossi
=====================================  ========================  ========================
nothing (interpreted)                  72,053 instr.; 1.86x      179,220 instr.; 0.71x
kolossus: its rules.py                 60,072 (1.20x); 2.77x     (not its code)
colossi: its engine, effects, rules    (not its code)            155,162 (1.16x); 1.02x
core: verify.py, log.py                68,373 (1.05x)            178,040 (1.01x)
all of these                           55,962 (1.29x); 2.90x     149,717 (1.20x); 1.05x
Cython (pure-Python mode, no source    67,345 (1.07x); 2.38x     146,156 (1.23x); 1.00x
change) on the same engine modules
=====================================  ========================  ========================

Timed, the speed-up is larger than the instruction count says (Kolossus 1.49x with its rules
compiled, 1.56x with all; Colossi 1.43x and 1.47x; Cython 1.28x and 1.40x).  While seven other
sessions loaded the machine (load average 6 to 9) a timed ratio moved by up to 2x between rounds
(the kolossus set once "sped up" Colossi 1.96x, which it cannot): there, go by ``--callgrind``.
Build time (wall): kolossus 41 s quiet, 57-131 s loaded; colossi 159-282 s loaded; core 65-113 s;
all 454 s loaded; Cython kolossus 329 s, colossi 180 s (loaded).  The compiled modules weigh
5.4 MB.  Every verdict of the generated matches and of ``examples/`` was unchanged; against the
"all" build 285 of 286 tests of test_examples, test_kolossus_*, test_colossi_{examples,rules,
fast,unknowns}, test_seat_colossi, test_judge_*, test_rulings and test_cli_verify_many passed
(the other reads ``rules.__file__`` as source, a .so once compiled); the Cython Colossi build
passed the 111 Colossi and example tests run against it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: the module sets compiled, each in a copy of its own (paths inside the package)
SETS: dict[str, tuple[str, ...]] = {
    "kolossus": ("adjudicator/games/kolossus/rules.py",),
    "colossi": ("adjudicator/games/colossi/engine.py", "adjudicator/games/colossi/effects.py",
                "adjudicator/games/colossi/rules.py"),
    "core": ("adjudicator/core/kernel/verify.py", "adjudicator/core/kernel/log.py"),
}
#: every set at once: what compiling would give a user
SETS["all"] = tuple(m for mods in list(SETS.values()) for m in mods)
#: the games measured for a set by default
GAMES_OF: dict[str, tuple[str, ...]] = {"kolossus": ("kolossus",), "colossi": ("colossi",),
                                        "core": ("kolossus", "colossi"), "all": ("kolossus", "colossi")}

MYPY_CONFIG = """[mypy]
follow_imports = silent
ignore_missing_imports = True
allow_redefinition_new = True
local_partial_types = True
ignore_errors = True
"""

#: (file, text, replacement): the source changes a compiled copy needs (module docstring)
PATCHES: tuple[tuple[str, str, str], ...] = (
    ("adjudicator/core/kernel/kit.py",
     '    def mark(fn: Callable) -> Callable:\n'
     '        fn.__dict__.setdefault("_kit_roles", []).append((role, types, rule))\n',
     '    def mark(fn: Callable) -> Callable:\n'
     '        try:\n'
     '            fn.__dict__.setdefault("_kit_roles", []).append((role, types, rule))\n'
     '        except AttributeError:  # a method compiled by mypyc has no __dict__\n'
     '            _ROLES.setdefault(fn, []).append((role, types, rule))\n'),
    ("adjudicator/core/kernel/kit.py",
     "def _mark(role: str",
     "_ROLES: dict[Any, list[Any]] = {}\n\n\n"
     "def _roles(fn: Any) -> Any:\n"
     "    found = getattr(fn, '_kit_roles', None)\n"
     "    if found is not None:\n"
     "        return found\n"
     "    try:\n"
     "        return _ROLES.get(fn, ())\n"
     "    except TypeError:  # an unhashable class attribute\n"
     "        return ()\n\n\n"
     "def _mark(role: str"),
    ("adjudicator/core/kernel/kit.py", 'getattr(fn, "_kit_roles", ())', "_roles(fn)"),
    ("adjudicator/games/colossi/rules.py",
     "    def check(self, s: State, e: Any) -> Ruling:\n        try:\n",
     "    def _check_known(self, s: State, e: Any) -> Ruling:\n        try:\n"),
    ("adjudicator/games/colossi/rules.py", "\n    _check_known = check\n", "\n"),
    ("adjudicator/games/colossi/engine.py", "\nclass W:\n",
     "\n@mypyc_attr(native_class=False)  # fields set by name, read through __dict__\nclass W:\n"),
    ("adjudicator/games/colossi/engine.py", "from __future__ import annotations\n",
     "from __future__ import annotations\n\nfrom mypy_extensions import mypyc_attr\n"),
    ("adjudicator/core/kernel/log.py", "class _Typed(msgspec.Struct):\n    type: Any = None\n",
     "_Typed = msgspec.defstruct('_Typed', [('type', Any, None)])  # a Struct made at run time\n"),
    ("adjudicator/core/kernel/log.py", "    events: list[tuple[int, Event]] = field(default_factory=list)\n",
     "    events: Sequence[tuple[int, Event]] = field(default_factory=list)\n"),
)


class Failed(Exception):
    """A step of the evaluation failed (exit 3)."""


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- the copies --------------------------------------------------------------------------------

def make_copy(dst: Path) -> Path:
    """The installed layout of the package (cli/ and replays/ inside it) and benchmarks/."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "build")
    shutil.copytree(ROOT / "adjudicator", dst / "adjudicator", ignore=skip)
    shutil.copytree(ROOT / "cli", dst / "adjudicator" / "cli", ignore=skip)
    shutil.copytree(ROOT / "replays", dst / "adjudicator" / "replays", ignore=skip)
    shutil.copytree(ROOT / "recorder", dst / "adjudicator" / "recorder", ignore=skip)
    shutil.copytree(ROOT / "benchmarks", dst / "benchmarks", ignore=skip)
    return dst


def patch(copy: Path) -> None:
    for rel, old, new in PATCHES:
        p = copy / rel
        text = p.read_text()
        if text.count(old) != 1:
            raise Failed(f"{rel}: the text the mypyc workaround replaces is no longer there once "
                         f"({text.count(old)} times): update benchmarks/compiled.py PATCHES\n  {old!r}")
        p.write_text(text.replace(old, new))


def build(copy: Path, modules: tuple[str, ...], config: Path) -> float:
    """Compile ``modules`` in place in ``copy``; the wall-clock seconds it took."""
    t0 = time.perf_counter()
    log = copy / "mypyc.log"
    with open(log, "wb") as out:
        proc = subprocess.run([sys.executable, "-m", "mypyc", "--config-file", str(config), *modules],
                              cwd=copy, stdout=out, stderr=subprocess.STDOUT, env=_env(copy))
    if proc.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-15:]
        raise Failed(f"mypyc failed on {', '.join(modules)} (exit {proc.returncode}); {log}:\n" + "\n".join(tail))
    return time.perf_counter() - t0


def _env(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy)
    return env


def worker(copy: Path, *args: str, under: tuple[str, ...] = ()) -> Any:
    """Run this module's worker in ``copy`` (its own process: a compiled module cannot be
    unloaded), ``under`` a tool if given; its one line of JSON on stdout (``_stderr``: its
    standard error)."""
    proc = subprocess.run([*under, sys.executable, "-m", "benchmarks.compiled", "--worker", *args],
                          cwd=copy, env=_env(copy), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise Failed(f"worker {' '.join(args)} in {copy} failed (exit {proc.returncode}):\n"
                     + proc.stderr.decode(errors="replace")[-3000:])
    out = json.loads(proc.stdout.decode())
    if isinstance(out, dict):
        out["_stderr"] = proc.stderr.decode(errors="replace")
    return out


def instructions_per_pass(copy: Path, gid: str, spec: str, work: Path) -> tuple[int, int]:
    """Instructions one verify pass over the corpus ``spec`` executes in ``copy``, counted by
    callgrind (the same count however loaded the machine is): a run with two counted passes
    less a run with one, so that start-up, imports and the warm-up pass cancel out; and the
    events of one pass."""
    totals = []
    events = 0
    for passes in (1, 2):
        got = worker(copy, "count", gid, spec, str(passes),
                     under=("valgrind", "--tool=callgrind", f"--callgrind-out-file={work / 'callgrind.out'}"))
        m = re.search(r"Collected : (\d+)", got["_stderr"])
        if m is None:
            raise Failed(f"callgrind printed no instruction count for {copy}:\n{got['_stderr'][-2000:]}")
        totals.append(int(m.group(1)))
        events = got["events"]
    return totals[1] - totals[0], events


# -- the worker (runs inside a copy) ---------------------------------------------------------------

def _files(spec: str) -> list[Any]:
    from benchmarks.corpus import CorpusFile

    return [CorpusFile(**d) for d in json.loads(Path(spec).read_text())]


def _compiled_modules() -> list[str]:
    return sorted(name for name, m in list(sys.modules.items())
                  if name.startswith("adjudicator.") and str(getattr(m, "__file__", "")).endswith(".so"))


def _fingerprint(path: str) -> dict[str, Any]:
    """What a verdict says about one log: to compare an interpreted and a compiled run."""
    import msgspec

    from adjudicator.core.kernel.errors import AdjudicatorError
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.verify import run

    with open(path, "rb") as f:
        raw = f.read()
    try:
        res = run(parse_log(raw, path))
    except AdjudicatorError as exc:
        return {"file": os.path.basename(path), "error": str(exc)}
    try:
        pos = hashlib.sha256(msgspec.json.encode(res.state)).hexdigest()
    except (TypeError, msgspec.EncodeError):
        pos = repr(res.state)
    out = res.outcome
    return {"file": os.path.basename(path), "verdict": res.verdict, "events": res.events,
            "violations": [v.as_dict() for v in res.violations + res.undetermined + res.unchecked],
            "warnings": [w.as_dict() for w in res.warnings],
            "outcome": None if out is None else msgspec.to_builtins(out), "position": pos}


def run_worker(argv: list[str]) -> int:
    from adjudicator.core.kernel import registry

    mode, gid = argv[0], argv[1]
    game = registry.get(gid)
    if mode == "generate":
        from dataclasses import asdict

        from benchmarks.corpus import generate_corpus

        directory, matches = argv[2], int(argv[3])
        os.makedirs(directory, exist_ok=True)
        files = generate_corpus(game, directory, matches, report=say)
        print(json.dumps([asdict(f) for f in files]))
    elif mode == "measure":
        from benchmarks.sidebyside import measure_verify_decode

        res = measure_verify_decode(game, _files(argv[2]), int(argv[3]))
        print(json.dumps({"ratio": res["verify_to_chess"], "verify": res["verify_events_per_s"],
                          "chess": res["chess_moves_per_s"], "compiled": _compiled_modules()}))
    elif mode == "count":
        from benchmarks.corpus import verify_pass

        files = _files(argv[2])
        events = 0
        for _ in range(1 + int(argv[3])):  # a warm-up pass (data loaded, caches filled), then the counted ones
            events = verify_pass(files).events
        print(json.dumps({"events": events, "compiled": _compiled_modules()}))
    elif mode == "verdicts":
        paths = [f.path for f in _files(argv[2])] + sorted(str(p) for p in Path(argv[3]).glob("*.jsonl"))
        print(json.dumps({"verdicts": [_fingerprint(p) for p in paths], "compiled": _compiled_modules()}))
    else:
        raise SystemExit(f"unknown worker mode {mode!r}")
    return 0


# -- the evaluation ----------------------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks.compiled", description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", default="kolossus", metavar="SET,...",
                   help=f"module sets to compile, each in its own copy ({', '.join(SETS)}; default kolossus)")
    p.add_argument("--games", default=None, metavar="ID,...", help="games measured (default: the sets' own)")
    p.add_argument("--matches", type=int, default=40, help="generated matches per game (default 40)")
    p.add_argument("--passes", type=int, default=3, help="timed verify passes per measurement (default 3)")
    p.add_argument("--rounds", type=int, default=2, help="measurements of each copy, in turn (default 2)")
    p.add_argument("--callgrind", action="store_true",
                   help="also count the instructions per verified event with valgrind's callgrind (the "
                        "same count whatever the machine's load; slow: use a small --matches)")
    p.add_argument("--keep", default=None, metavar="DIR", help="build in DIR and keep it")
    p.add_argument("--worker", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return p


def evaluate(args: argparse.Namespace) -> int:
    sets = [s for s in args.sets.split(",") if s]
    unknown = [s for s in sets if s not in SETS]
    if unknown or not sets:
        say(f"python -m benchmarks.compiled: error: unknown module set(s) {unknown}; known: {', '.join(SETS)}")
        return 2
    if args.matches < 1 or args.passes < 1 or args.rounds < 1:
        say("python -m benchmarks.compiled: error: --matches, --passes and --rounds must be at least 1")
        return 2
    try:
        import mypyc  # noqa: F401
    except ImportError:
        say("python -m benchmarks.compiled: error: mypyc is not installed (pip install mypy; gcc and "
            "the Python headers, Debian's python3-dev)")
        return 2
    games = args.games.split(",") if args.games else list(dict.fromkeys(g for s in sets for g in GAMES_OF[s]))
    from adjudicator.core.kernel import registry

    if not games or any(g not in registry.ids() for g in games):
        say(f"python -m benchmarks.compiled: error: --games {args.games!r}: known games are {', '.join(registry.ids())}")
        return 2
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="adjudicator-compiled-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        config = work / "mypy.ini"
        config.write_text(MYPY_CONFIG)
        copies = {"interpreted": make_copy(work / "interpreted")}
        builds: dict[str, float] = {}
        for s in sets:
            copies[s] = make_copy(work / s)
            patch(copies[s])
            say(f"[{s}] mypyc {' '.join(SETS[s])}")
            builds[s] = build(copies[s], SETS[s], config)
            say(f"[{s}] built in {builds[s]:.1f} s")
        corpora: dict[str, str] = {}
        for g in games:
            say(f"[{g}] generating {args.matches} matches")
            files = worker(copies["interpreted"], "generate", g, str(work / "corpus" / g), str(args.matches))
            corpora[g] = str(work / "corpus" / f"{g}.json")
            Path(corpora[g]).write_text(json.dumps(files))
        ratios: dict[tuple[str, str], list[float]] = {}
        compiled_mods: dict[str, list[str]] = {}
        for r in range(args.rounds):
            for name, copy in copies.items():
                for g in games:
                    got = worker(copy, "measure", g, corpora[g], str(args.passes))
                    ratios.setdefault((name, g), []).append(got["ratio"])
                    compiled_mods[name] = got["compiled"]
                    say(f"round {r + 1}/{args.rounds} [{name}] {g}: verify {got['verify']:,.0f} events/s, "
                        f"python-chess {got['chess']:,.0f} moves/s, ratio {got['ratio']:.2f}x")
        for s in sets:
            missing = sorted(set(_module_names(SETS[s])) - set(compiled_mods[s]))
            if missing:
                raise Failed(f"[{s}] these modules did not load compiled: {', '.join(missing)}")
        differ = 0
        verdicts: dict[tuple[str, str], int] = {}
        for g in games:
            base = worker(copies["interpreted"], "verdicts", g, corpora[g], str(ROOT / "examples" / g))["verdicts"]
            for s in sets:
                got = worker(copies[s], "verdicts", g, corpora[g], str(ROOT / "examples" / g))["verdicts"]
                bad = [a["file"] for a, b in zip(base, got) if a != b] + (["(count)"] if len(base) != len(got) else [])
                verdicts[(s, g)] = len(base)
                if bad:
                    differ += 1
                    say(f"[{s}] {g}: verdicts differ on {', '.join(bad[:10])}")
        print(report(sets, games, builds, ratios, verdicts, differ))
        if args.callgrind:
            if shutil.which("valgrind") is None:
                raise Failed("--callgrind: valgrind is not installed (Debian's valgrind)")
            counted = {}
            for name, copy in copies.items():
                for g in games:
                    counted[(name, g)] = instructions_per_pass(copy, g, corpora[g], work)
                    say(f"[{name}] {g}: {counted[(name, g)][0] / counted[(name, g)][1]:,.0f} instructions per event")
            print()
            print(report_instructions(sets, games, counted))
        return 1 if differ else 0
    except Failed as exc:
        say(f"python -m benchmarks.compiled: {exc}")
        return 3
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def _module_names(paths: tuple[str, ...]) -> list[str]:
    return [p.removesuffix(".py").replace("/", ".") for p in paths]


def report(sets: list[str], games: list[str], builds: dict[str, float], ratios: dict[tuple[str, str], list[float]],
           verdicts: dict[tuple[str, str], int], differ: int) -> str:
    rows = ["| module set | build s | game | interpreted / python-chess | compiled / python-chess | speed-up | verdicts |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for s in sets:
        for g in games:
            base, comp = ratios[("interpreted", g)], ratios[(s, g)]
            mb, mc = statistics.median(base), statistics.median(comp)
            runs = lambda xs: ", ".join(f"{x:.2f}" for x in xs)  # noqa: E731
            rows.append(f"| {s} | {builds[s]:.0f} | {g} | {mb:.2f}x ({runs(base)}) | {mc:.2f}x ({runs(comp)}) | "
                        f"{mc / mb:.2f}x | {verdicts[(s, g)]} logs, "
                        f"{'unchanged' if not differ else 'see above'} |")
    return "\n".join(rows)


def report_instructions(sets: list[str], games: list[str], counted: dict[tuple[str, str], tuple[int, int]]) -> str:
    rows = ["| module set | game | instructions / event, interpreted | compiled | interpreted / compiled |",
            "| --- | --- | --- | --- | --- |"]
    for s in sets:
        for g in games:
            (bi, be), (ci, ce) = counted[("interpreted", g)], counted[(s, g)]
            rows.append(f"| {s} | {g} | {bi / be:,.0f} | {ci / ce:,.0f} | {(bi / be) / (ci / ce):.2f}x |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.worker is not None:
        return run_worker(args.worker)
    return evaluate(args)


if __name__ == "__main__":
    raise SystemExit(main())
