"""Bounds on what a client controls before any handler of the replay service runs: the request
target's length (414), the time its body may take (408), and every JSON request body (one bounded
decoder: size 413, depth and syntax 400, a media type other than JSON 415)."""

from __future__ import annotations

from typing import Any

import anyio
import msgspec
from litestar import Request
from litestar.exceptions import ClientException, HTTPException
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.log import decode_json

#: the longest request target (path and query string, bytes) answered; longer: 414
MAX_URL = 131_072
#: the largest request head (request line and headers, bytes) the server reads (``serve`` gives it
#: to uvicorn's h11): a larger one is refused by uvicorn itself (400, connection closed)
MAX_REQUEST_HEAD = 1_048_576
#: the longest a request body may take to arrive, in seconds (``adjudicator serve --body-timeout``);
#: then 408 and the connection is closed
DEFAULT_BODY_TIMEOUT = 30.0
#: the largest JSON request body (a new recording, an entry, a variation to keep), in bytes
MAX_JSON_BODY = 1_000_000


# -- JSON request bodies: one bounded decoder ------------------------------------------------------

def decode_body(raw: bytes, what: str = "the request body") -> Any:
    """A JSON request body decoded as every JSON input is (:func:`adjudicator.core.kernel.log.decode_json`:
    at most :data:`MAX_JSON_BODY` bytes and ``MAX_DEPTH`` deep, checked before msgspec recurses);
    400 with the reason otherwise (never a RecursionError's 500).  The service's JSON bodies all
    come here (:class:`BoundedRequest`); a route that reads JSON text from a field (an entry that
    is an event) calls it too."""
    try:
        return decode_json(raw, what, max_bytes=MAX_JSON_BODY)
    except LogError as exc:
        raise ClientException(detail=exc.render()) from None


class BoundedRequest(Request):  # type: ignore[type-arg]
    """The service's request: its JSON body read by :func:`decode_body`.  Litestar hands a
    handler's ``data`` (``JSONBody[...]``) from :meth:`json`, so overriding it bounds every JSON
    body of every route, present and future.  JSON is accepted only as ``application/json`` (or a
    ``+json`` type): a page on another origin can send ``text/plain`` without the service's consent,
    so a body sent as that is refused (415) before anything is decoded."""

    async def json(self) -> Any:
        media = self.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
            raise HTTPException(status_code=415, detail=f"the request body is sent as application/json, not "
                                                        f"{media or 'without a content type'}; nothing done")
        announced = self.headers.get("content-length", "")
        too_big = HTTPException(status_code=413, detail=f"the request body is larger than {MAX_JSON_BODY} bytes")
        if announced.isdigit() and int(announced) > MAX_JSON_BODY:
            raise too_big
        raw = await self.body()
        if len(raw) > MAX_JSON_BODY:
            raise too_big
        return decode_body(raw)


# -- request bounds: the target's length, the body's time ----------------------------------------

class _BodyTimeout(HTTPException):
    """The request body did not arrive in time (408; the connection is closed after the answer)."""

    status_code = 408


class RequestBounds:
    """ASGI middleware bounding what a client controls before any handler runs.

    A request target (path and query string) longer than :data:`MAX_URL` answers **414** without
    reaching the handler.  A request body must arrive whole within ``body_timeout`` seconds of the
    request: a client that dribbles it is answered **408** with ``Connection: close`` (uvicorn then
    closes the connection), so slow uploads never hold a connection, a worker thread or memory for
    longer than that.  Once the body is complete, ``receive`` is passed through untimed.
    """

    def __init__(self, app: ASGIApp, body_timeout: float = DEFAULT_BODY_TIMEOUT) -> None:
        self.app, self.body_timeout = app, body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        target = (len(scope.get("raw_path") or scope["path"].encode("utf-8", "replace"))
                  + len(scope.get("query_string") or b""))
        if target > MAX_URL:
            await _send_error(send, 414, f"the request target is {target} bytes long; at most {MAX_URL} "
                                         "(a variation that long: download it as a log and upload that)")
            return
        deadline = anyio.current_time() + self.body_timeout
        complete = False
        started = False

        async def timed_receive() -> Message:
            nonlocal complete
            if complete:
                return await receive()
            try:
                with anyio.fail_after(max(0.0, deadline - anyio.current_time())):
                    message = await receive()
            except TimeoutError:
                raise _BodyTimeout(detail=f"the request body did not arrive within {self.body_timeout:g} s "
                                          "(serve --body-timeout); nothing stored",
                                   headers={"Connection": "close"}) from None
            complete = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, timed_receive, watched_send)  # type: ignore[arg-type]
        except _BodyTimeout as exc:  # raised where no handler turned it into an answer
            if started:
                raise
            await _send_error(send, 408, str(exc.detail), close=True)


class HeadAsGet:
    """HEAD wherever GET is (RFC 9110 9.3.2: the same answer without its body).  Litestar routes
    HEAD only to handlers declared for it, and its middleware runs after routing, so this wraps
    the app's ASGI handler (``create_app``): a HEAD request is routed and answered as GET, every
    header kept (``Content-Length`` too), the body dropped."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return

        async def bodiless(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {"type": "http.response.body", "body": b"", "more_body": message.get("more_body", False)}  # type: ignore[assignment]
            await send(message)

        await self.app(dict(scope, method="GET"), receive, bodiless)  # type: ignore[arg-type]


async def _send_error(send: Send, status: int, detail: str, close: bool = False) -> None:
    body = msgspec.json.encode({"status_code": status, "detail": detail})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})  # type: ignore[typeddict-item]
    await send({"type": "http.response.body", "body": body, "more_body": False})  # type: ignore[typeddict-item]
