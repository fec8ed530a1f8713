"""A seeded mutation fuzzer over every registered game: logs, proposed events, position documents.

Each input is a real one (a generated match, an event legal in a real position, a judge's
position document) with one to three mutations: a value replaced by an absurd one (huge or
negative numbers, long strings, deep nesting, another field's value, a wrong type), a line
dropped, duplicated, swapped or cut, bytes that are not UTF-8.  Each input goes through what the
command line would do with it (read, verify, rule, list legal events, show every view), and the
fuzzer records:

* a **crash**: any exception but the documented ones (``LogError`` and the other
  ``AdjudicatorError`` subclasses, which the CLI turns into exit code 2);
* a **hang**: an input that took longer than ``HANG_SECONDS``.

``python -m benchmarks --fuzz N`` runs N inputs per game (in a child process with a memory cap,
so a memory bomb is a crash, not a dead machine); ``tests/test_fuzz.py`` runs a small budget.
Deterministic: the same seed gives the same inputs.
"""

from __future__ import annotations

import random
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

import msgspec

from adjudicator.core import position as positions
from adjudicator.core import registry
from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.log import decode_event, parse_log
from adjudicator.core.playout import playout, to_jsonl
from adjudicator.core.protocol import Game, RefError
from adjudicator.core.verify import propose, run, settle

#: an input that takes longer than this is reported as a hang
HANG_SECONDS = 5.0

_enc = msgspec.json.Encoder()


@dataclass
class Report:
    game: str
    inputs: int = 0
    crashes: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    by_kind: dict[str, int] = field(default_factory=dict)
    #: the fuzzing process's peak resident memory, and what it held when it started (MiB)
    peak_mib: float = 0.0
    start_mib: float = 0.0

    def per_10k(self, what: list[str]) -> float:
        return 10_000 * len(what) / self.inputs if self.inputs else 0.0


# -- absurd values -------------------------------------------------------------------------------

def _deep(n: int) -> Any:
    """A placeholder for JSON nested ``n`` deep (spliced in by :func:`encode`: no encoder recurses so deep)."""
    return f"__DEEP_{n}__"


def encode(doc: Any) -> bytes:
    """``doc`` as JSON bytes, with the deep-nesting placeholders spliced in."""
    raw = _enc.encode(doc)
    while b'"__DEEP_' in raw:
        head, _, rest = raw.partition(b'"__DEEP_')
        n, _, tail = rest.partition(b'__"')
        raw = head + b"[" * int(n) + b"0" + b"]" * int(n) + tail
    return raw


def absurd(rng: random.Random, doc: Any) -> Any:
    """A value a hostile or careless writer might put anywhere."""
    choices: list[Callable[[], Any]] = [
        lambda: 10 ** rng.choice([3, 6, 12, 18, 30]),
        lambda: -rng.choice([1, 2, 100, 10 ** 12]),
        lambda: 0,
        lambda: 2 ** 63,
        lambda: rng.random() * 1e9,
        lambda: "",
        lambda: "x" * rng.choice([1, 70, 300, 5000]),
        lambda: "a" * 65,
        lambda: "?",
        lambda: "../../etc/passwd",
        lambda: None,
        lambda: True,
        lambda: [],
        lambda: {},
        lambda: [None] * rng.choice([1, 5, 50]),
        lambda: _deep(rng.choice([3, 40, 200, 2000])),
        lambda: {"type": "MatchStarted"},
        lambda: rng.choice(_leaves(doc)) if _leaves(doc) else 1,
    ]
    return rng.choice(choices)()


def _leaves(doc: Any) -> list[Any]:
    out: list[Any] = []

    def walk(v: Any) -> None:
        if len(out) > 400:
            return
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        else:
            out.append(v)
    walk(doc)
    return out


def _paths(doc: Any, limit: int = 2000) -> list[tuple[Any, Any]]:
    """(container, key) of every value in ``doc`` (breadth first, bounded)."""
    out: list[tuple[Any, Any]] = []
    todo = [doc]
    while todo and len(out) < limit:
        v = todo.pop(0)
        if isinstance(v, dict):
            for k in list(v):
                out.append((v, k))
                todo.append(v[k])
        elif isinstance(v, list):
            for i in range(len(v)):
                out.append((v, i))
                todo.append(v[i])
    return out


def mutate_doc(rng: random.Random, doc: Any) -> Any:
    """``doc`` (a JSON value, copied) with one to three values replaced, added or removed."""
    doc = msgspec.json.decode(_enc.encode(doc)) if "__DEEP_" not in str(doc)[:100_000] else doc
    for _ in range(rng.choice([1, 1, 2, 3])):
        paths = _paths(doc)
        if not paths:
            return absurd(rng, doc)
        parent, key = rng.choice(paths)
        r = rng.random()
        old = parent[key]
        if isinstance(old, int) and not isinstance(old, bool) and r < 0.5:
            parent[key] = rng.choice([old + 1, old - 1, old * 1000, -old, old + 10 ** 12])
        elif isinstance(old, str) and r < 0.4:  # another value of the same document: a plausible mistake
            strings = [x for x in _leaves(doc) if isinstance(x, str)]
            parent[key] = rng.choice(strings) if strings else old + "x"
        elif r < 0.7:
            parent[key] = absurd(rng, doc)
        elif r < 0.85 and isinstance(parent, dict) and key != "type":
            del parent[key]
        elif isinstance(parent, list) and parent:
            parent.append(parent[rng.randrange(len(parent))])
        elif isinstance(parent, dict):
            parent["extra_" + str(rng.randrange(9))] = absurd(rng, doc)
    return doc


def mutate_lines(rng: random.Random, lines: list[bytes]) -> bytes:
    """A log with one to three mutations of its lines."""
    lines = list(lines)
    for _ in range(rng.choice([1, 1, 2, 3])):
        r = rng.random()
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines.append(b"{}")
        elif r < 0.55:
            try:
                obj = msgspec.json.decode(lines[i])
            except msgspec.DecodeError:
                obj = {}
            lines[i] = encode(mutate_doc(rng, obj))
        elif r < 0.65:
            del lines[i]
        elif r < 0.72:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif r < 0.79:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif r < 0.86:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        elif r < 0.92:
            lines[i] = lines[i] + bytes([rng.choice([0xFF, 0xC3, 0x00, 0x80])])
        else:
            lines[i] = b"[" * rng.choice([100, 1000, 100_000]) + b"]" * rng.choice([0, 100])
    return b"\n".join(lines) + (b"\n" if rng.random() < 0.9 else b"")


# -- what the CLI does with each input -------------------------------------------------------------

def _all_views(game: Game, state: Any) -> None:
    for p in [None, *game.players(state)]:
        game.view(state, p)
        game.describe(state, p)
        game.scene(state, p)


def exercise_log(data: bytes) -> str:
    try:
        log = parse_log(data, "fuzz.jsonl")
    except AdjudicatorError:
        return "unreadable"
    res = run(log, keep_going=True)
    run(log, keep_going=False)
    if res.state is not None:
        _all_views(log.game, res.state)
        for ev in log.events[:3]:
            log.game.redact(ev[1], log.game.players(res.state)[0] if log.game.players(res.state) else None)
    return res.verdict


def exercise_event(game: Game, state: Any, raw: bytes) -> str:
    try:
        ev = decode_event(game, raw, "--event", None)
        game.validate_refs(game.setup_of(state), ev)
    except AdjudicatorError:
        return "unreadable"
    except RefError:
        return "unreadable"
    ruling, _derived, new = propose(game, state, ev)
    if ruling.legal:
        game.legal_events(new)
    return ruling.verdict


def exercise_position(doc: Any) -> str:
    try:
        game, state = positions.from_bytes(doc if isinstance(doc, bytes) else encode(doc), "fuzz.json")
    except AdjudicatorError:
        return "unreadable"
    state, _ = settle(game, state)
    events = game.legal_events(state)
    for ev in events[:5]:
        propose(game, state, ev)
    _all_views(game, state)
    game.to_act(state)
    game.outcome(state)
    return "loaded"


# -- the loop -----------------------------------------------------------------------------------

def _material(game: Game, seed: int) -> tuple[list[bytes], list[tuple[Any, bytes]], list[Any]]:
    """Lines of a generated match, (position, legal event) pairs, judge's position documents."""
    events, _final = playout(game, seed, max_events=300)
    lines = to_jsonl(events).splitlines()
    state, _ = settle(game, game.initial_state(events[0]))
    pairs: list[tuple[Any, bytes]] = []
    docs: list[Any] = []
    for i, ev in enumerate(events[1:], start=1):
        if i % 25 == 0:
            legal = game.legal_events(state)
            if legal:
                pairs.append((state, _enc.encode(legal[len(legal) // 2])))
            docs.append(positions.document(game, state, at=i))
        state, _ = settle(game, game.apply(state, ev))
    docs.append(positions.document(game, state))
    return lines, pairs, docs


def fuzz_game(game_id: str, n: int, seed: int = 0, *, hang_seconds: float = HANG_SECONDS) -> Report:
    game = registry.get(game_id)
    rng = random.Random(f"{game_id}:{seed}")
    rep = Report(game_id)
    material = [_material(game, s) for s in (seed * 7 + 1, seed * 7 + 2)]
    for i in range(n):
        lines, pairs, docs = material[i % len(material)]
        kind = ("log", "event", "position")[i % 3]
        if kind == "event" and not pairs:
            kind = "log"
        try:
            if kind == "log":
                data = mutate_lines(rng, lines)
                act: Callable[[], str] = lambda d=data: exercise_log(d)
            elif kind == "event":
                state, raw = rng.choice(pairs)
                obj = msgspec.json.decode(raw)
                mutated = encode(mutate_doc(rng, obj)) if rng.random() < 0.95 else raw[: len(raw) // 2]
                act = lambda s=state, m=mutated: exercise_event(game, s, m)
            else:
                doc = mutate_doc(rng, rng.choice(docs))
                act = lambda d=doc: exercise_position(d)
        except RecursionError:  # building the input itself (never the system under test)
            continue
        rep.inputs += 1
        _timed(rep, kind, i, act, hang_seconds)
    return rep


def _rss_mib() -> float:
    """This process's resident memory now (MiB; Linux, else 0)."""
    try:
        with open("/proc/self/statm") as f:
            import os

            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def fuzz_in_child(game_id: str, n: int, seed: int, memory_bytes: int) -> Report:
    """:func:`fuzz_game` (or :func:`fuzz_surface` for a name of :data:`SURFACES`) in a child
    process whose address space is capped (a memory bomb is a crash), with its peak memory."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    q: Any = ctx.Queue()
    proc = ctx.Process(target=_child, args=(q, game_id, n, seed, memory_bytes))
    proc.start()
    result = q.get()
    proc.join()
    if isinstance(result, str):
        rep = Report(game_id, inputs=n)
        rep.crashes.append(f"the fuzzing process died: {result}")
        return rep
    return result


def _child(q: Any, game_id: str, n: int, seed: int, memory_bytes: int) -> None:
    import resource

    try:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        start = _rss_mib()
        rep = fuzz_surface(game_id, n, seed) if game_id in SURFACES else fuzz_game(game_id, n, seed)
        rep.start_mib = start
        rep.peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        q.put(rep)
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        q.put(f"{type(exc).__name__}: {exc}")


# -- data files (card pools, boards, islands) and the commands that write files (-o) ----------------

#: the surfaces beside the games: ``python -m benchmarks --fuzz N`` runs each with N inputs
SURFACES = ("pool-toml", "pool-json", "output")


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

    from adjudicator.core.boundedtoml import load_toml_bounded

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

    from adjudicator.core.data import read_data

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
    from adjudicator.core import poolcheck, sources
    from adjudicator.core.data import read_bytes

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


def fuzz_surface(surface: str, n: int, seed: int = 0, *, hang_seconds: float = HANG_SECONDS) -> Report:
    """:func:`fuzz_game` for a surface of :data:`SURFACES`: mutated and hostile data files (TOML,
    JSON) through everything that reads them, or mutated logs through every ``-o`` command."""
    import os
    import tempfile

    rng = random.Random(f"{surface}:{seed}")
    rep = Report(surface)
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
            _timed(rep, kind, i, act, hang_seconds)
    return rep


def _timed(rep: Report, kind: str, i: int, act: Callable[[], str], hang_seconds: float) -> None:
    """Run one input: its outcome, or the crash (any escaping exception) and the hang it is."""
    t0 = time.perf_counter()
    try:
        outcome = act()
    except Exception as exc:  # noqa: BLE001 - every escaping exception is a finding
        tb = traceback.extract_tb(exc.__traceback__)
        where = next((f"{f.filename.split('adjudicator/')[-1]}:{f.lineno}" for f in reversed(tb)
                      if "adjudicator" in f.filename), "?")
        rep.crashes.append(f"{kind} #{i}: {type(exc).__name__}: {str(exc)[:160]} at {where}")
        outcome = "crash"
    dt = time.perf_counter() - t0
    if dt > hang_seconds:
        rep.hangs.append(f"{kind} #{i}: {dt:.1f} s")
    key = f"{kind}:{outcome}"
    rep.by_kind[key] = rep.by_kind.get(key, 0) + 1
