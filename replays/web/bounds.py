"""Bounds on what a client controls before any handler of the replay service runs: the request
target's length (414) and the time its body may take (408)."""

from __future__ import annotations

import anyio
import msgspec
from litestar.exceptions import HTTPException
from litestar.types import ASGIApp, Message, Receive, Scope, Send

#: the longest request target (path and query string, bytes) answered; longer: 414
MAX_URL = 131_072
#: the largest request head (request line and headers, bytes) the server reads (``serve`` gives it
#: to uvicorn's h11): a larger one is refused by uvicorn itself (400, connection closed)
MAX_REQUEST_HEAD = 1_048_576
#: the longest a request body may take to arrive, in seconds (``adjudicator serve --body-timeout``);
#: then 408 and the connection is closed
DEFAULT_BODY_TIMEOUT = 30.0


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


async def _send_error(send: Send, status: int, detail: str, close: bool = False) -> None:
    body = msgspec.json.encode({"status_code": status, "detail": detail})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})  # type: ignore[typeddict-item]
    await send({"type": "http.response.body", "body": body, "more_body": False})  # type: ignore[typeddict-item]
