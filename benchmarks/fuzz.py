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

from adjudicator.core.kernel import position as positions
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.log import decode_event, parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.protocol import Game, RefError
from adjudicator.core.kernel.verify import propose, run, settle

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
        timed_run(rep, kind, i, act, hang_seconds)
    return rep


def timed_run(rep: Report, kind: str, i: int, act: Callable[[], str], hang_seconds: float) -> None:
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


def fuzz_in_child(game_id: str, n: int, seed: int, memory_bytes: int,
                  fuzz: Callable[[str, int, int], Report] | None = None) -> Report:
    """:func:`fuzz_game` (or a surface's ``fuzz``: :func:`benchmarks.fuzz_surfaces.surfaces`) in a child process whose
    address space is capped (a memory bomb is a crash)."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    q: Any = ctx.Queue()
    proc = ctx.Process(target=_child, args=(q, game_id, n, seed, memory_bytes, fuzz or fuzz_game))
    proc.start()
    result = q.get()
    proc.join()
    if isinstance(result, str):
        rep = Report(game_id, inputs=n)
        rep.crashes.append(f"the fuzzing process died: {result}")
        return rep
    return result


def _child(q: Any, game_id: str, n: int, seed: int, memory_bytes: int,
           fuzz: Callable[[str, int, int], Report]) -> None:
    import resource

    try:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        q.put(fuzz(game_id, n, seed))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        q.put(f"{type(exc).__name__}: {exc}")
