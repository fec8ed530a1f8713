"""The replay service against hostile or careless clients (issue 19, the web part; issue 20's
upload of a log whose pool is already stored): every JSON it decodes is bounded in size and
depth, headers built from input are encoded (RFC 6266), an upload verifies outside the store's
lock, slow bodies and over-long targets are cut off (408, 414) by a real uvicorn server, the
variation of a sealed match is sealed again, and an upload finds data the store keeps.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from adjudicator.cli.main import main
from adjudicator.core import store as store_module
from adjudicator.core.kernel.limits import MAX_DEPTH
from adjudicator.core.kernel.log import read_log, seal_lines
from adjudicator.core.store import MatchStore
from adjudicator.replays.web import create_app
from adjudicator.replays.web.app import MAX_URL
from tests.test_pools import TOKEN, case, copy_log, upload

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "examples" / "logos" / "legal-hidden-picks.jsonl"

UPLOADER = {"authorization": f"Bearer {TOKEN}", "content-type": "application/x-ndjson"}

pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with MatchStore(str(tmp_path / "h.db")) as st, TestClient(create_app(st, upload_token=TOKEN)) as c:
        yield c


def put(c: TestClient, data: bytes, name: str = "m.jsonl") -> dict[str, Any]:
    r = c.post("/api/matches", params={"name": name}, content=data, headers=UPLOADER)
    assert r.status_code in (200, 201), r.text
    return r.json()


# -- 1. every JSON the service decodes is bounded ------------------------------------------------

def test_deeply_nested_variation_is_a_clear_400(client: TestClient) -> None:
    mid = put(client, LOG.read_bytes())["match_id"]
    deep = "[" * 15_000  # (msgspec alone: a RecursionError, HTTP 500)
    for route in ("variation", "variation.jsonl"):
        r = client.get(f"/api/matches/{mid}/variation" + route.removeprefix("variation"), params={"var": deep})
        assert r.status_code == 400, (route, r.text[:300])
        assert r.json()["detail"] == f"var: JSON nested deeper than {MAX_DEPTH} levels", route
    # one level under the bound is read (and refused for what it is: not a list of events)
    shallow = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    r = client.get(f"/api/matches/{mid}/variation", params={"var": shallow})
    assert r.status_code == 400 and "nested deeper" not in r.json()["detail"], r.text
    # the size bound: a var longer than the longest target answered (only a caller in process can
    # send one: over HTTP the target's own bound, 414, comes first)
    from litestar.exceptions import HTTPException

    web = client.app.state.web
    with pytest.raises(HTTPException) as exc:
        web.variation(mid, None, "[" + " " * MAX_URL + "]", None)
    assert exc.value.status_code == 400 and exc.value.detail == f"var: the JSON text is {MAX_URL + 2} bytes long; " \
                                                                 f"at most {MAX_URL}"
    # a deep event inside a valid list is refused by the same check, naming its place
    r = client.get(f"/api/matches/{mid}/variation", params={"var": "[" + "{\"a\":" * 100 + "1" + "}" * 100 + "]"})
    assert r.status_code == 400 and "nested deeper" in r.json()["detail"], r.text


def test_deep_upload_and_deep_data_file_are_400(client: TestClient, tmp_path: Path) -> None:
    lines = LOG.read_bytes().splitlines()
    deep = b'{"type":"CardDrawn","player":"ann","card":' + b"[" * 5000 + b"]" * 5000 + b"}"
    r = client.post("/api/matches", params={"name": "deep.jsonl"}, content=b"\n".join([lines[0], deep]) + b"\n",
                    headers=UPLOADER)
    assert r.status_code == 400 and r.json()["detail"] == f"deep.jsonl:2: JSON nested deeper than {MAX_DEPTH} levels"
    _d, _f, log = case(tmp_path, "kolossus")
    board = tmp_path / "our-table.json"
    board.write_text('{"board":' + "[" * 5000 + "]" * 5000 + "}")
    r = upload(client, log, board)
    assert r.status_code == 400 and "our-table.json" in r.json()["detail"], r.text


def test_the_service_decodes_json_only_through_the_bounded_helper() -> None:
    """One helper (core/kernel/log.py decode_json, with core/kernel/limits.py's depth check) for every JSON of input."""
    src = (ROOT / "replays" / "web" / "app.py").read_text()
    assert "json.decode(" not in src and "json.loads(" not in src and "decode_json(" in src


# -- 2. headers built from input -------------------------------------------------------------------

HOSTILE = "b\u00e9n\u2603\r\nX-Injected: 1\x00\u2028"


def _header_ok(value: str) -> None:
    assert value.isascii(), value
    assert not re.search(r"[\x00-\x1f\x7f]", value), value


def _filename_star(value: str) -> str:
    m = re.search(r"filename\*=UTF-8''([^;\s]+)", value)
    assert m, value
    return urllib.parse.unquote(m.group(1), encoding="utf-8", errors="strict")


def test_download_names_are_encoded_per_rfc_6266(client: TestClient) -> None:
    text = LOG.read_text().replace('"ben"', json.dumps(HOSTILE))
    mid = put(client, text.encode(), name="\u2603\r\n\u00e9t\u00e9\".jsonl")["match_id"]
    answers = {
        "log": client.get(f"/api/matches/{mid}/log"),
        "log as": client.get(f"/api/matches/{mid}/log", params={"as": HOSTILE}),
        "document": client.get(f"/api/matches/{mid}/document", params={"at": 3}),
        "variation.jsonl": client.get(f"/api/matches/{mid}/variation.jsonl", params={"at": 3}),
    }
    for what, r in answers.items():
        assert r.status_code == 200, (what, r.text[:300])
        for name, value in r.headers.items():
            _header_ok(value)
        cd = r.headers["content-disposition"]
        assert cd.startswith('attachment; filename="'), cd
        fallback = re.search(r'filename="([^"]*)"', cd)
        assert fallback and fallback.group(1).isascii(), cd
    assert _filename_star(answers["log"].headers["content-disposition"]) == "\u2603__\u00e9t\u00e9\".jsonl"
    assert _filename_star(answers["log as"].headers["content-disposition"]) == \
        "\u2603__\u00e9t\u00e9\"-as-b\u00e9n\u2603__X-Injected: 1__.jsonl"
    assert "X-Injected" not in answers["log as"].headers
    # the body is the player's record, ids as they are (only the header is sanitised)
    assert HOSTILE in json.loads(answers["log as"].content.split(b"\n")[0])["players"]


# -- 3. an upload verifies outside the store's lock ------------------------------------------------

def test_reads_answer_while_an_upload_verifies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started, release = threading.Event(), threading.Event()
    real_run = store_module.run

    def slow_run(*args: Any, **kwargs: Any) -> Any:
        started.set()
        release.wait(20)  # the verification "takes" until the reads below are done
        return real_run(*args, **kwargs)

    with MatchStore(str(tmp_path / "lock.db")) as st:
        app = create_app(st, upload_token=TOKEN)
        with TestClient(app) as reader, TestClient(app) as writer:
            mid = put(reader, LOG.read_bytes())["match_id"]
            monkeypatch.setattr(store_module, "run", slow_run)
            answer: dict[str, Any] = {}
            other = copy_log(LOG, tmp_path / "other.jsonl", note="another match")
            t = threading.Thread(target=lambda: answer.update(r=writer.post(
                "/api/matches", params={"name": "other.jsonl"}, content=other.read_bytes(), headers=UPLOADER)))
            t.start()
            try:
                assert started.wait(20), "the upload never started verifying"
                t0 = time.monotonic()
                for path in (f"/api/matches/{mid}/events", f"/api/matches/{mid}/position", "/api/matches",
                             "/api/info"):
                    assert reader.get(path).status_code == 200, path
                waited = time.monotonic() - t0
            finally:
                release.set()
                t.join(30)
            assert waited < 2.0, f"reads waited {waited:.1f} s for a verifying upload"
            assert answer["r"].status_code == 201, answer["r"].text
            assert len(reader.get("/api/matches").json()) == 2


def test_an_upload_out_of_time_stores_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_run, real_import = store_module.run, MatchStore.import_log
    release, imported = threading.Event(), threading.Event()

    def slow_run(*args: Any, **kwargs: Any) -> Any:
        release.wait(30)  # held until the request has been answered out of time
        return real_run(*args, **kwargs)

    def import_log(self: MatchStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return real_import(self, *args, **kwargs)
        finally:
            imported.set()

    monkeypatch.setattr(store_module, "run", slow_run)
    monkeypatch.setattr(MatchStore, "import_log", import_log)
    with MatchStore(str(tmp_path / "slow.db")) as st, \
            TestClient(create_app(st, upload_token=TOKEN, upload_seconds=0.3)) as c:
        try:
            r = c.post("/api/matches", params={"name": "m.jsonl"}, content=LOG.read_bytes(), headers=UPLOADER)
        finally:
            release.set()
        assert r.status_code == 503 and "longer than 0.3 s" in r.json()["detail"], r.text
        # the abandoned verification finishes (the store's import returns): it must not have written
        assert imported.wait(30), "the abandoned import never ended"
        assert c.get("/api/matches").json() == []


# -- 5. the variation of a sealed match verifies ---------------------------------------------------

def test_variation_of_a_sealed_match_is_sealed_again(client: TestClient, tmp_path: Path) -> None:
    sealed = b"".join(ln + b"\n" for ln in seal_lines(LOG.read_bytes().splitlines()))
    mid = put(client, sealed, "sealed.jsonl")["match_id"]
    info = client.get(f"/api/matches/{mid}").json()
    assert info["chain_head"] is not None
    at = 40
    legal = client.get(f"/api/matches/{mid}/legal", params={"at": at}).json()
    first = legal["events"][0]["event"]
    var = [first]
    after = client.get(f"/api/matches/{mid}/variation", params={"at": at, "var": json.dumps(var)}).json()
    assert after["applied"] == 1, after
    var.append({**after["legal"]["events"][0]["event"], "prev": "0" * 64})  # a sender's prev is not the file's
    r = client.get(f"/api/matches/{mid}/variation.jsonl", params={"at": at, "var": json.dumps(var)})
    assert r.status_code == 200, r.text
    out = tmp_path / "variation.jsonl"
    out.write_bytes(r.content)
    assert len(r.content.splitlines()) == at + 2
    res = CliRunner().invoke(main, ["verify", str(out)])
    assert res.exit_code == 0, res.output
    assert read_log(out).chain_head is not None  # sealed: the chain runs to the last line
    # an unsealed match's variation carries no chain at all
    plain = put(client, LOG.read_bytes())["match_id"]
    r = client.get(f"/api/matches/{plain}/variation.jsonl", params={"at": at, "var": json.dumps(var)})
    out.write_bytes(r.content)
    assert b'"prev"' not in r.content and CliRunner().invoke(main, ["verify", str(out)]).exit_code == 0


# -- 6. an upload finds a pool the store already keeps ----------------------------------------------

@pytest.mark.parametrize("gid", ["colossus-order", "kolossus"])
def test_upload_finds_data_already_in_the_store(tmp_path: Path, gid: str) -> None:
    _d, f, log = case(tmp_path, gid)
    with MatchStore(str(tmp_path / "kept.db")) as st, TestClient(create_app(st, upload_token=TOKEN)) as c:
        r = upload(c, log, f)
        assert r.status_code == 201, r.text
        again = copy_log(log, tmp_path / "again.jsonl", note="a second match with the same pool")
        r = upload(c, again)  # no data file: the store keeps it
        assert r.status_code == 201 and r.json()["verdict"] == "legal", r.text
        r = c.post("/api/matches", params={"name": "again2.jsonl"}, headers=UPLOADER,
                   content=copy_log(log, tmp_path / "again2.jsonl", note="ndjson").read_bytes())
        assert r.status_code == 201, r.text


# -- 4. a real server: slow bodies get 408, long targets 414 ----------------------------------------

@pytest.fixture()
def served(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> Iterator[tuple[int, str]]:
    """``adjudicator serve --body-timeout 1 --max-connections 4`` on 127.0.0.1 (a free port); its
    port and one match id."""
    db = tmp_path / "served.db"
    with MatchStore(str(db)) as st:
        mid = st.import_log(read_log(LOG)).match_id
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    where = ["--db", str(db)]
    if backend == "postgres":
        server = request.getfixturevalue("pg_server")
        env.update(server.settings(server.database_for(os.path.abspath(db))))
        where = []
    proc = subprocess.Popen([sys.executable, "-c", "from adjudicator.cli.main import main; main()", "serve", *where,
                             "--port", "0", "--body-timeout", "1", "--max-connections", "4",
                             "--upload-token", TOKEN], cwd=ROOT, env=env,
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        line = proc.stderr.readline()
        m = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        port = int(m.group(1))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                # a whole request the server answers and closes itself: when its close reaches us,
                # the server no longer counts the probe among its connections
                with socket.create_connection(("127.0.0.1", port), timeout=5) as probe:
                    probe.sendall(b"GET /api/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    if _answer(probe).startswith(b"HTTP/1.1 200 "):
                        break
            except OSError:
                pass
            time.sleep(0.1)  # between polls
        yield port, mid
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _answer(sock: socket.socket, limit_s: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection (or ``limit_s`` passes)."""
    sock.settimeout(0.5)
    out = b""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            break
        out += chunk
    return out


def test_a_dribbled_body_is_cut_off_with_408(served: tuple[int, str]) -> None:
    port, _mid = served
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"POST /api/matches?name=slow.jsonl HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
                  "Content-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n".encode())
        t0 = time.monotonic()
        for _ in range(40):  # a byte every 0.1 s: 4 s if the server waited for all of it
            try:
                s.sendall(b"{")
            except OSError:
                break  # the server closed the connection: what the test wants
            time.sleep(0.1)
        got = _answer(s)
        took = time.monotonic() - t0
    assert got.startswith(b"HTTP/1.1 408 "), got[:200]
    assert b"body-timeout" in got and b"connection: close" in got.lower()
    assert took < 6, took


def test_a_target_over_the_bound_is_414_and_the_server_goes_on(served: tuple[int, str]) -> None:
    port, mid = served
    for size, want in ((200_000, b"HTTP/1.1 414 "), (MAX_URL // 2, b"HTTP/1.1 400 ")):
        target = f"/api/matches/{mid}/variation?var=" + "%5B" * (size // 3)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            got = _answer(s)
        assert got.startswith(want), (size, got[:200])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:  # and it still serves
        s.sendall(f"GET /api/matches/{mid} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        assert _answer(s).startswith(b"HTTP/1.1 200 ")


def test_a_slow_or_missing_request_head_is_cut_off(served: tuple[int, str]) -> None:
    port, mid = served
    for sent in (b"", b"GET /api/matches/" + mid.encode() + b" HTTP/1.1\r\nHo"):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(sent)
            t0 = time.monotonic()
            assert _answer(s, 8) == b"", sent  # closed, nothing answered
            assert time.monotonic() - t0 < 4, sent
    # a kept-alive connection that starts its next head and stops is closed too
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"GET /api/matches/{mid} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        s.settimeout(5)
        assert s.recv(15).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /api/info HTTP/1.1\r\n")
        t0 = time.monotonic()
        _answer(s, 8)
        assert time.monotonic() - t0 < 4


def _slow_upload(port: int) -> socket.socket:
    """An upload that sends one byte of its body and no more.  It asks ``Expect: 100-continue``:
    the server's ``100 Continue`` says the request was taken in (counted among the connections and
    its body read), which the test waits for instead of a pause."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(f"POST /api/matches HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
              "Content-Type: application/x-ndjson\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n".encode())
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = s.recv(1)
        assert chunk, f"the server closed the upload before 100 Continue: {got!r}"
        got += chunk
    assert got.startswith(b"HTTP/1.1 100 "), got
    s.sendall(b"{")
    return s


def test_connections_over_the_bound_get_503_until_the_slow_ones_are_cut(served: tuple[int, str]) -> None:
    port, mid = served
    get = f"GET /api/matches/{mid} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
    slow = [_slow_upload(port) for _ in range(3)]
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:  # the fourth at once
            s.sendall(get)
            assert _answer(s).startswith(b"HTTP/1.1 503 ")
        for c in slow:  # each is cut off by the body timeout (1 s)
            assert _answer(c, 5).startswith(b"HTTP/1.1 408 ")
    finally:
        for c in slow:
            c.close()
    # the closed connections leave the server's count: polled until a request is served again
    deadline = time.monotonic() + 10
    while True:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(get)
            got = _answer(s)
        if got.startswith(b"HTTP/1.1 200 ") or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert got.startswith(b"HTTP/1.1 200 "), got[:200]


def test_serve_documents_its_bounds() -> None:
    r = CliRunner().invoke(main, ["serve", "--help"])
    assert "--body-timeout" in r.output and "--max-connections" in r.output
    doc = (ROOT / "docs" / "replay.md").read_text()
    assert "--body-timeout" in doc and "414" in doc and "408" in doc and f"{MAX_URL:,}" in doc


def test_a_page_past_the_end_as_a_seat_is_empty_not_503(client: TestClient) -> None:
    """Found by the service fuzzer (seed 0): ``/events?from=<past the end>&as=<seat>`` asked the
    store for the position before that event and answered 503 "store unavailable"."""
    mid = put(client, LOG.read_bytes())["match_id"]
    for first in ("9223372036854775808", "100000"):
        r = client.get(f"/api/matches/{mid}/events", params={"from": first, "as": "ann"})
        assert r.status_code in (200, 400), r.text
        if r.status_code == 200:
            assert r.json()["events"] == []
