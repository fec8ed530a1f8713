"""The fuzzer's other service surfaces (issue 29): every HTML page and every JSON request body of
the replay service, in process, through :func:`benchmarks.fuzz_service.fuzz_service`'s run (the
same seeded store, watchdog, crash and hang rules, peak memory).

* ``service-pages``: GET and HEAD of every page (``/``, ``/matches/ID``, ``/record``,
  ``/record/ID``, ``/tournaments/NAME``, the replay file ``/api/matches/ID/export.html`` with
  repeated ``as``, the schema's pages), over a store that also holds a match and a tournament
  whose player names, header, note and tournament name are hostile HTML (``<!--``,
  ``</script>``, quotes, U+2028).  Besides a 5xx, a defect is an HTML answer whose embedded JSON
  (``<script type="application/json">``) does not parse or holds a ``<``, or that carries one of
  the hostile texts as it was written (markup, not text).
* ``service-bodies``: every JSON body (``POST /api/recordings``, ``.../entries``, ``.../store``,
  ``POST /api/matches/ID/variations``) and the recording reads (``GET /api/recordings/ID``,
  ``/api/recordings/reconcile``): real documents (a game's sample set-up, a recording's offered
  choices, legal events) mutated like the event fuzzer's documents, deep or oversized bodies,
  other media types, with or without the token.  Every request body is read by the service's one
  bounded decoder (``replays/web/bounds.py``): a 5xx here is a body that got past it.

Registered in :func:`benchmarks.fuzz_surfaces.surfaces`: ``python -m benchmarks --fuzz N
--fuzz-surface service-pages --fuzz-surface service-bodies``.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import msgspec

from .fuzz import encode, mutate_doc
from .fuzz_service import TOKEN, ServiceReport, _Match, _number, _segment, _text, fuzz_service

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: texts that end a script element or open a comment: a page that shows one as written is broken
HOSTILE_NAME = "ann<!--</script>\"'&"
HOSTILE = {"event": "<!--x</script>\"'", "judge": "</script><script>window.pwned=1</script>", "round": "\u2028&amp;"}
HOSTILE_NOTE = "<!-- a note </script> \"quoted\" \u2029 -->"
_RAW = ("</script><script>window.pwned", HOSTILE_NAME, HOSTILE_NOTE)
_JSON_SCRIPT = re.compile(r'<script type="application/json"[^>]*>(.*?)</script>', re.S)


# -- service-pages -------------------------------------------------------------------------------

def hostile_log(path: Path) -> Path:
    """examples/logos/legal-hidden-picks.jsonl with ann renamed :data:`HOSTILE_NAME`, the header
    :data:`HOSTILE` and the note :data:`HOSTILE_NOTE` on event 4, written to ``path``: still a legal
    match (ids are only compared)."""
    lines = []
    for i, line in enumerate((EXAMPLES / "logos" / "legal-hidden-picks.jsonl").read_text().splitlines()):
        doc = json.loads(line.replace('"ann"', json.dumps(HOSTILE_NAME)))
        if i == 0:
            doc["meta"] = HOSTILE
        elif i == 3:
            doc["note"] = HOSTILE_NOTE
        lines.append(json.dumps(doc))
    path.write_text("\n".join(lines) + "\n")
    return path


def _hostile_data(store: Any, client: Any, _matches: list[_Match], workdir: Path) -> dict[str, Any]:
    """A LOGOS match with a hostile player id, header and note, and a tournament of it with a
    hostile name and player name, stored (the tournament through ``tournament import``)."""
    from click.testing import CliRunner

    from adjudicator.cli.main import main
    from adjudicator.core.kernel.log import read_log

    log = hostile_log(workdir / "hostile.jsonl")
    mid = store.import_log(read_log(log), allow_illegal=True).match_id
    manifest = workdir / "cup.toml"
    manifest.write_text("\n".join([
        f"name = {json.dumps(HOSTILE['judge'] + HOSTILE_NOTE)}", 'game = "logos"', 'dates = ["2026-04-11"]',
        "[[players]]", f"id = {json.dumps(HOSTILE_NAME)}", f"name = {json.dumps(HOSTILE['event'])}",
        "[[players]]", 'id = "ben"', 'name = "Ben"', "[[rounds]]", "round = 1", "[[rounds.tables]]", "table = 1",
        f"players = [{json.dumps(HOSTILE_NAME)}, \"ben\"]", 'log = "hostile.jsonl"', ""]))
    r = CliRunner().invoke(main, ["tournament", "import", str(manifest), "--db", str(workdir / "fuzz.db")])
    if r.exit_code != 0:
        raise RuntimeError(f"the hostile tournament was not stored: {r.output}")
    tournaments = client.get("/api/tournaments").json()
    return {"hostile": mid, "tournaments": [t["tournament_id"] for t in tournaments] + [t["name"] for t in tournaments]}


def _page_request(rng: random.Random, m: _Match, matches: list[_Match], made: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    mid = made["hostile"] if rng.random() < 0.5 else m.id
    seg = mid if rng.random() < 0.7 else _segment(rng, m, matches)
    player = rng.choice([HOSTILE_NAME, "ben", *m.players])
    page = rng.choice(["index", "match", "record", "record-id", "tournament", "tournament-api", "export", "schema"])
    params: list[tuple[str, str]] = []
    if page == "index":
        path = "/"
    elif page == "match":
        path = f"/matches/{seg}"
        params = [("at", _number(rng, rng.randint(1, 225))), ("as", _text(rng, player))]
    elif page == "record":
        path = "/record"
    elif page == "record-id":
        path = "/record/" + rng.choice(["0" * 32, "judge", seg, "x" * 300])
    elif page in ("tournament", "tournament-api"):
        ref = rng.choice(made["tournaments"]) if rng.random() < 0.7 else _text(rng, "cup")
        path = ("/tournaments/" if page == "tournament" else "/api/tournaments/") + ref[: rng.choice([8, 200])]
    elif page == "export":
        path = f"/api/matches/{seg}/export.html"
        params = [("as", rng.choice(["public", "judge", player, _text(rng, player)]))
                  for _ in range(rng.choice([0, 1, 1, 2, 3, 9]))]
    else:
        path = rng.choice(["/schema", "/schema/swagger", "/schema/openapi.json", "/schema/redoc", "/schema/" + "x" * 50])
    headers = {"authorization": f"Bearer {TOKEN}"} if rng.random() < 0.5 else {}
    return ("HEAD" if rng.random() < 0.2 else "GET"), path, {"params": params, "headers": headers}


def unsafe_html(method: str, _path: str, r: Any) -> str | None:
    """What is wrong with an HTML answer, if anything (see the module docstring)."""
    if method != "GET" or not r.headers.get("content-type", "").startswith("text/html"):
        return None
    text = r.text
    for block in _JSON_SCRIPT.findall(text):
        if "<" in block:
            return "unsafe HTML: a '<' inside embedded JSON"
        try:
            json.loads(block)
        except ValueError as exc:
            return f"unsafe HTML: the embedded JSON does not parse ({exc})"
    for raw in _RAW:
        if raw in text:
            return f"unsafe HTML: {raw!r} written as markup"
    return None


def fuzz_pages(name: str, n: int, seed: int = 0) -> ServiceReport:
    return fuzz_service(name, n, seed, requests=_page_request, prepare=_hostile_data, inspect=unsafe_html)


# -- service-bodies -------------------------------------------------------------------------------

def _recordings(_store: Any, client: Any, matches: list[_Match], _workdir: Path) -> dict[str, Any]:
    """Each game's sample set-up (a new recording's body), two recordings of LOGOS (seat and
    judge) with the choices they offer, and legal events to keep as variations."""
    from adjudicator.core.kernel import registry

    auth = {"authorization": f"Bearer {TOKEN}"}
    setups = []
    for game in registry.games():
        doc = client.get("/api/recordings/sample-setup", params={"game": game.id})
        if doc.status_code == 200:
            setups.append({"game": game.id, **doc.json()})
    rids, choices = [], []
    for body in (dict(setups[0], seat=setups[0]["players"][0]), dict(setups[-1], judge=True)):
        r = client.post("/api/recordings", json=body, headers=auth)
        if r.status_code == 201:
            rids.append(r.json()["id"])
            choices += [c["event"] for c in r.json()["choices"]]
    return {"setups": setups, "rids": rids, "choices": choices or [{"type": "Passed"}],
            "variations": [(m.id, at, ev) for m in matches for at, ev in m.variations]}


def _body(rng: random.Random, doc: Any) -> bytes:
    r = rng.random()
    if r < 0.35:
        return msgspec.json.encode(doc)
    if r < 0.85:
        try:
            return encode(mutate_doc(rng, doc))
        except RecursionError:  # building the input (never the system under test)
            return b"{}"
    deep = rng.choice([65, 1000, 3000])
    return rng.choice([b"[" * deep + b"]" * deep, b'{"a":' * deep + b"1" + b"}" * deep, b"", b"null", b"\xff\xfe",
                       b'{"entry": "' + b"x" * 1_100_000 + b'"}', b"{" + b'"k":1,' * 20_000 + b'"z":0}'])


def _body_request(rng: random.Random, m: _Match, matches: list[_Match], made: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    rid = rng.choice(made["rids"]) if made["rids"] and rng.random() < 0.85 else rng.choice(["0" * 32, "../x", "z" * 40])
    kind = rng.choice(["new", "entry", "entry", "store", "variation", "state", "reconcile"])
    method, params = "POST", []
    if kind == "new":
        path, doc = "/api/recordings", dict(rng.choice(made["setups"]))
        if rng.random() < 0.3:
            doc["meta"] = {"event": _text(rng, "club night")}
    elif kind == "entry":
        path = f"/api/recordings/{rid}/entries"
        event = rng.choice(made["choices"])
        doc = {"entry": rng.choice(["1", "2", "undo", "pass", _text(rng, "1"), json.dumps(event),
                                    encode(mutate_doc(rng, event)).decode("utf-8", "replace")])}
    elif kind == "store":
        path, doc = f"/api/recordings/{rid}/store", None
    elif kind == "variation":
        mid, at, events = rng.choice(made["variations"]) if made["variations"] else (m.id, 1, [])
        path, doc = f"/api/matches/{mid}/variations", {"at": at, "events": events, "name": _text(rng, "what if")}
    elif kind == "state":
        method, path, doc = "GET", f"/api/recordings/{rid}", None
    else:
        method, path, doc = "GET", "/api/recordings/reconcile", None
        params = [("a", rid), ("b", rng.choice(made["rids"] or [rid]))]
    headers = {"authorization": f"Bearer {TOKEN}"} if rng.random() < 0.85 else {}
    kw: dict[str, Any] = {"params": params, "headers": headers}
    if method == "POST" and (doc is not None or rng.random() < 0.3):
        kw["content"] = _body(rng, doc if doc is not None else {})
        headers["content-type"] = rng.choice(["application/json"] * 6 + [
            "text/plain", "application/x-ndjson", "", "application/json; charset=latin-1", "application/problem+json"])
    return method, path, kw


def fuzz_bodies(name: str, n: int, seed: int = 0) -> ServiceReport:
    return fuzz_service(name, n, seed, requests=_body_request, prepare=_recordings)


__all__ = ["fuzz_bodies", "fuzz_pages", "unsafe_html"]
