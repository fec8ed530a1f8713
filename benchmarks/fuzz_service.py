"""The fuzzer's "service" surface: hostile requests against the replay service, in process.

A store in a temporary directory holds a few example matches of every registered game (one
sealed); the app (``create_app``, with an upload token) answers requests made through Litestar's
test client, so every layer a real request crosses runs (routing, parameter parsing, the
request bounds, the handlers, the exception handlers), without sockets.  Each request is a real
one (a route of the API or a page, a stored match's id, a position, a legal event) with one to
three mutations:

* **query parameters** (``at``, ``as``, ``var``, ``from``, ``limit``, ``game``, ``player``,
  ``verdict``, ``name``): absurd numbers (huge, negative, ``1e309``, ``NaN``), long or unicode
  strings with control characters, repeated or unknown parameters, a variation (``var``) that is
  a real list of legal events mutated like the event fuzzer's documents (deep nesting too);
* **path segments**: the match id replaced by a prefix, another id, a traversal, percent-escapes,
  a very long or empty segment, or an unknown sub-route;
* **request headers**: odd ``Content-Type``, ``Authorization``, ``Content-Length``, ``Range``,
  ``Accept`` and unknown headers; and uploads (``POST /api/matches``) of mutated logs, with or
  without the token, as ndjson or multipart with hostile file names.

A **crash** is any 5xx answer (other than the documented 503 of an upload over its time budget)
or an exception out of the app; a **hang** is a request over ``hang_seconds``.  Registered as
``service`` in :func:`benchmarks.fuzz_surfaces.surfaces`: ``python -m benchmarks --fuzz N`` runs it after
the games (``--fuzz-surface service`` alone), in a child process, and reports its peak memory.
"""

from __future__ import annotations

import logging
import random
import resource
import shutil
import tempfile
import threading
import time
import traceback
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import httpx
import msgspec

from .fuzz import Report, encode, mutate_doc, mutate_lines

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
TOKEN = "fuzz-token"
#: a request slower than this is a hang
HANG_SECONDS = 3.0
#: example matches stored per game (legal and illegal)
PER_GAME = 3


@dataclass
class ServiceReport(Report):
    """A surface's report with the peak resident memory of the process that ran it."""

    peak_bytes: int = 0
    #: answers by status code
    statuses: dict[int, int] | None = None


@dataclass
class _Match:
    id: str
    game: str
    players: list[str]
    events: int
    #: JSON lists of legal events at a few positions: (at, [event, ...])
    variations: list[tuple[int, list[Any]]]
    lines: list[bytes]


# -- hostile values ------------------------------------------------------------------------------

def _number(rng: random.Random, real: int) -> str:
    return rng.choice([str(real), str(real + 1), "0", "-1", str(-real), str(10 ** rng.choice([6, 12, 19, 40])),
                       "1e309", "NaN", "inf", "0x10", "1.5", " 3", "", "٣", str(2 ** 63), "9" * 400])


def _text(rng: random.Random, real: str) -> str:
    return rng.choice([
        real, real.upper(), real + "\x00", real + "\r\nX-Injected: 1", "", " ", "?", "judge", "null",
        "\u2603" * rng.choice([1, 50]), "é", "\ud7ff", "a" * rng.choice([65, 1000, 20_000]), "../../etc/passwd",
        "%00", "<script>alert(1)</script>", "'; DROP TABLE stored_events; --", "\u202e" + real,
        real[: len(real) // 2],
    ])


def _segment(rng: random.Random, m: _Match, others: list[_Match]) -> str:
    """A match id as a path segment: the real one, mangled."""
    return rng.choice([
        m.id, m.id[:8], m.id[:1], m.id.upper(), m.id.replace("-", ""), rng.choice(others).id,
        "00000000-0000-0000-0000-000000000000", "..", "%2e%2e", "%00", "%ff%fe", "x" * rng.choice([100, 5000]),
        urllib.parse.quote("\u2603\r\n"), "", m.id + "/../..", m.id + "%2Fevents", "-", "%",
    ])


def _var(rng: random.Random, m: _Match) -> tuple[int, str]:
    """(at, var): a real variation (legal events at a position), often mutated."""
    if not m.variations:
        return m.events, "[]"
    at, events = rng.choice(m.variations)
    r = rng.random()
    if r < 0.2:
        return at, msgspec.json.encode(events).decode()
    if r < 0.6:
        try:
            return at, encode(mutate_doc(rng, list(events))).decode("utf-8", "replace")
        except RecursionError:  # building the input (never the system under test)
            return at, "[]"
    deep = rng.choice([65, 1000, 3000])
    return at, rng.choice(["[", "{}", "null", "[" * deep, "[" * deep + "]" * deep, '[{"a":' * deep, '"x"',
                           "[1,2,3]", "[" + ",".join(["{}"] * 600) + "]", "\x00", "[\"\ud800\"]", ""])


# -- requests ------------------------------------------------------------------------------------

ROUTES = ("info", "games", "list", "match", "events", "position", "legal", "log", "document", "variation",
          "variation.jsonl", "page", "index", "static", "upload", "unknown")


def _request(rng: random.Random, m: _Match, others: list[_Match]) -> tuple[str, str, dict[str, Any]]:
    """(method, path, httpx keyword arguments) of one hostile request."""
    route = rng.choice(ROUTES)
    seg = m.id if rng.random() < 0.6 else _segment(rng, m, others)
    player = rng.choice(m.players) if m.players else "x"
    params: dict[str, Any] = {}
    kw: dict[str, Any] = {}
    method, path = "GET", f"/api/matches/{seg}"
    if route == "info":
        path = "/api/info"
    elif route == "games":
        path = "/api/games"
    elif route == "list":
        path = "/api/matches"
        params = {"game": _text(rng, m.game), "player": _text(rng, player), "verdict": _text(rng, "illegal")}
    elif route in ("events",):
        path += "/events"
        params = {"from": _number(rng, rng.randint(1, m.events)), "limit": _number(rng, 50), "as": _text(rng, player)}
    elif route in ("position", "legal", "document"):
        path += f"/{route}"
        params = {"at": _number(rng, rng.randint(1, m.events)), "as": _text(rng, player)}
        if route == "legal":
            params["limit"] = _number(rng, 20)
    elif route == "log":
        path += "/log"
        params = {"as": _text(rng, player)}
    elif route in ("variation", "variation.jsonl"):
        path += f"/{route}"
        at, var = _var(rng, m)
        params = {"at": _number(rng, at) if rng.random() < 0.3 else str(at), "var": var}
        if route == "variation":
            params["as"] = _text(rng, player)
    elif route == "page":
        path = f"/matches/{seg}"
        params = {"at": _number(rng, 3), "as": _text(rng, player)}
    elif route == "index":
        path = "/"
    elif route == "static":
        path = "/static/" + rng.choice(["scene.js", "style.css", "../app.py", "%2e%2e/app.py", "x" * 300, ""])
    elif route == "upload":
        method, path = "POST", "/api/matches"
        body = mutate_lines(rng, m.lines) if rng.random() < 0.8 else b"\n".join(m.lines) + b"\n"
        name = _text(rng, "upload.jsonl")
        headers = {"authorization": f"Bearer {TOKEN}" if rng.random() < 0.8 else rng.choice(
            ["", "Bearer", "Bearer wrong", "Basic Zm9vOmJhcg==", f"bearer {TOKEN}", f"Bearer {TOKEN}\t"])}
        if rng.random() < 0.7:
            headers["content-type"] = rng.choice(["application/x-ndjson", "application/x-ndjson; charset=latin-1",
                                                  "text/plain", "application/json", "multipart/form-data", ""])
            kw["content"] = body
        else:
            kw["files"] = [("log", (name, body, "application/x-ndjson"))] + (
                [("pool", (_text(rng, "club.toml"), b"pool = \n" if rng.random() < 0.5 else b"[" * 5000,
                           "text/plain"))] if rng.random() < 0.4 else [])
        params = {"name": name}
        kw["headers"] = headers
    else:
        path = rng.choice([f"/api/matches/{seg}/nothing", "/api/" + "x" * 3000, "/api/matches/" + seg + "/",
                           "/schema/openapi.json", "/api//matches", "/api/matches/%zz"])
    # one to three mutations of the parameters and headers
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        r = rng.random()
        if r < 0.3 and params:
            params[rng.choice(list(params))] = _text(rng, "x") if rng.random() < 0.5 else _number(rng, 1)
        elif r < 0.45 and params:
            del params[rng.choice(list(params))]
        elif r < 0.6:
            params[rng.choice(["at", "as", "var", "from", "limit", "zzz", "at[]", ""])] = _number(rng, 2)
        else:
            headers = kw.setdefault("headers", {})
            name, value = rng.choice([
                ("content-type", "application/x-ndjson; boundary=" + "b" * 500), ("accept", "*/*;q=abc"),
                ("range", "bytes=-1"), ("content-length", rng.choice(["0", "-1", "99999999999", "x"])),
                ("authorization", "Bearer " + "x" * 5000), ("x-forwarded-for", "::1, " * 100),
                ("cookie", "a=" + "b" * 4000), ("accept-encoding", "gzip;q=2, br"), ("if-none-match", "*"),
                ("transfer-encoding", "chunked"), ("expect", "100-continue"), ("origin", "https://evil.example"),
            ])
            headers[name] = value
    query = [(k, v) for k, v in params.items()]
    if rng.random() < 0.1 and query:  # a repeated parameter
        query.append(query[0])
    return method, path, {"params": query, **kw}


# -- the run -------------------------------------------------------------------------------------

def _seed_store(store: Any, client: Any) -> list[_Match]:
    """A few example matches of every game (one sealed), with legal events at a few positions."""
    from adjudicator.core.kernel import registry
    from adjudicator.core.kernel.log import parse_log, read_log, seal_lines

    matches: list[_Match] = []
    for game in registry.games():
        files = sorted((EXAMPLES / game.id).glob("*.jsonl"))[:PER_GAME]
        for i, f in enumerate(files):
            lines = f.read_bytes().splitlines()
            if i == 0:  # one sealed match per game: its variations are sealed again
                lines = seal_lines(lines)
                res = store.import_log(parse_log(b"\n".join(lines) + b"\n", f"sealed-{f.name}"), allow_illegal=True)
            else:
                res = store.import_log(read_log(f), allow_illegal=True)
            info = client.get(f"/api/matches/{res.match_id}").json()
            variations = []
            for at in sorted({1, max(1, info["events"] // 2), info["events"]}):
                legal = client.get(f"/api/matches/{res.match_id}/legal", params={"at": at, "limit": 3})
                if legal.status_code == 200 and legal.json()["events"]:
                    variations.append((at, [e["event"] for e in legal.json()["events"]]))
            matches.append(_Match(res.match_id, game.id, list(info["players"]), max(1, info["events"]),
                                  variations, lines))
    return matches


#: the 503s the service documents (not defects): an upload over its time budget, every recording slot taken
DOCUMENTED_503 = ("verification took longer", "recordings are open")


def _crash(status: int, text: str) -> bool:
    if status < 500:
        return False
    return not (status == 503 and any(why in text for why in DOCUMENTED_503))


class _Stuck(Exception):
    """A request still unanswered after the watchdog's limit: the run stops there."""

    def __init__(self, thread: threading.Thread) -> None:
        super().__init__()
        self.thread = thread


def _answered(client: Any, method: str, path: str, kw: dict[str, Any], limit: float) -> Any:
    """The client's answer, from a daemon thread given ``limit`` seconds (a stuck request cannot
    stop the run: it raises :class:`_Stuck`, and the thread is left behind)."""
    box: dict[str, Any] = {}

    def go() -> None:
        try:
            box["answer"] = client.request(method, path, **kw)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box["error"] = exc

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(limit)
    if t.is_alive():
        raise _Stuck(t)
    if "error" in box:
        raise box["error"]
    return box["answer"]


#: a surface's requests: (rng, a stored match, every stored match, what ``prepare`` made) -> (method, path, httpx kwargs)
Requests = Callable[[random.Random, _Match, list[_Match], dict[str, Any]], tuple[str, str, dict[str, Any]]]


def fuzz_service(name: str, n: int, seed: int = 0, *, hang_seconds: float = HANG_SECONDS,
                 requests: Requests | None = None,
                 prepare: Callable[[Any, Any, list[_Match], Path], dict[str, Any]] | None = None,
                 inspect: Callable[[str, str, Any], str | None] | None = None) -> ServiceReport:
    """``n`` hostile requests against the app over a seeded store (see the module docstring).

    A request over ``hang_seconds`` is a hang; one unanswered after ten times that stops the run
    (reported as a hang; the client and store are closed if it ever answers).  The other service
    surfaces (:mod:`benchmarks.fuzz_web`) run here with their own ``requests``, a ``prepare`` that
    adds to the seeded store (its answer is handed to ``requests``), and an ``inspect`` that names
    a defect in an answer that is not a 5xx (an HTML page whose embedded JSON breaks), counted as a
    crash."""
    from litestar.testing import TestClient

    from adjudicator.core.store import MatchStore
    from adjudicator.replays.web import create_app

    logging.getLogger("httpx").setLevel(logging.WARNING)
    rng = random.Random(f"{name}:{seed}")
    rep = ServiceReport(name, statuses={})
    workdir = tempfile.mkdtemp(prefix="adjudicator-fuzz-")
    st = MatchStore(str(Path(workdir) / "fuzz.db"))
    app = create_app(st, upload_token=TOKEN, upload_seconds=hang_seconds, body_timeout=hang_seconds,
                     recordings=Path(workdir) / "recordings")
    client = TestClient(app, raise_server_exceptions=False)
    client.__enter__()
    stuck: threading.Thread | None = None

    def close() -> None:
        if stuck is not None:
            stuck.join()
        client.__exit__(None, None, None)
        st.close()
        shutil.rmtree(workdir, ignore_errors=True)

    try:
        matches = _seed_store(st, client)
        made = prepare(st, client, matches, Path(workdir)) if prepare is not None else {}
        for i in range(n):
            m = rng.choice(matches)
            try:
                method, path, kw = (requests(rng, m, matches, made) if requests is not None
                                    else _request(rng, m, matches))
            except RecursionError:  # building the input itself (never the system under test)
                continue
            t0 = time.perf_counter()
            try:
                r = _answered(client, method, path, kw, 10 * hang_seconds)
            except _Stuck as exc:
                rep.inputs += 1
                rep.hangs.append(f"{method} {path[:80]} #{i}: no answer in {10 * hang_seconds:g} s; the run stops here")
                stuck = exc.thread
                break
            except (UnicodeError, ValueError, TypeError, httpx.InvalidURL):
                # the client refused to send it (httpx: a header or URL it cannot encode)
                rep.by_kind["unsendable"] = rep.by_kind.get("unsendable", 0) + 1
                continue
            except Exception as exc:  # noqa: BLE001 - out of the app: a finding
                tb = traceback.extract_tb(exc.__traceback__)
                where = next((f"{f.filename.split('adjudicator/')[-1]}:{f.lineno}" for f in reversed(tb)
                              if "adjudicator" in f.filename), "?")
                rep.inputs += 1
                rep.crashes.append(f"{method} {path[:80]} #{i}: {type(exc).__name__}: {str(exc)[:160]} at {where}")
                continue
            dt = time.perf_counter() - t0
            rep.inputs += 1
            assert rep.statuses is not None
            rep.statuses[r.status_code] = rep.statuses.get(r.status_code, 0) + 1
            route = path.split("/")[-1] if path.startswith("/api/matches/") else path.split("?")[0][:24]
            kind = f"{method} {route[:24]}:{r.status_code // 100}xx"
            rep.by_kind[kind] = rep.by_kind.get(kind, 0) + 1
            if _crash(r.status_code, r.text):
                rep.crashes.append(f"{method} {path[:80]} {str(kw.get('params'))[:120]} #{i}: "
                                   f"{r.status_code} {r.text[:200]}")
            elif inspect is not None and (found := inspect(method, path, r)):
                rep.crashes.append(f"{method} {path[:80]} {str(kw.get('params'))[:120]} #{i}: {found}")
            if dt > hang_seconds:
                rep.hangs.append(f"{method} {path[:80]} #{i}: {dt:.1f} s")
    finally:
        if stuck is None:
            close()
        else:  # after the stuck request, if it ever ends (a daemon thread: it never holds the process)
            threading.Thread(target=close, daemon=True).start()
    rep.peak_bytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return rep


__all__ = ["ServiceReport", "fuzz_service"]
