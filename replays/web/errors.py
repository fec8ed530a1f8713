"""What the replay service answers when something goes wrong, and how its OpenAPI document says
so: the error document, the reason of each status code, the exception handlers (every error is
JSON ``{"status_code": ..., "detail": reason}``, never a traceback)."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException
from litestar.openapi import ResponseSpec

from adjudicator.core.kernel.errors import AdjudicatorError, LogError
from adjudicator.core.store import StoreError

from .answers import UploadResult


class ErrorAnswer(msgspec.Struct):
    """Every error the service gives: the HTTP status and the reason in words."""

    status_code: int
    detail: str


_WHY = {
    400: "unreadable input: the reason names the file, line and field (or the parameter)",
    408: "the request body did not arrive within the service's body timeout (serve --body-timeout)",
    414: "the request target (path and query string) is longer than the service's bound",
    401: "an upload without the service's token (Authorization: Bearer TOKEN)",
    403: "uploads are off: the service was started without an upload token",
    404: "no stored match with this id or prefix",
    413: "the upload is larger than the size or event limit; nothing stored",
    415: "an upload that is neither application/x-ndjson nor multipart/form-data",
    422: "an illegal log refused (serve --refuse-illegal); the verdict is in the answer",
    500: "an internal error of the adjudicator (please report it)",
    503: "the store is unavailable, or verification ran over its time budget; nothing stored",
}


def _errors(*codes: int) -> dict[int, ResponseSpec]:
    """The error answers a route really gives, for the OpenAPI document (every route: 414, 500)."""
    return {c: ResponseSpec(data_container=UploadResult if c == 422 else ErrorAnswer, description=_WHY[c],
                            generate_examples=False) for c in (*codes, 414, 500)}


def _json_error(status: int, detail: str) -> Response[dict[str, Any]]:
    return Response({"status_code": status, "detail": detail}, status_code=status)


def without_paths(request: Request, text: str) -> str:
    """``text`` (an error's reason) without the service's own directories: a recording's log is
    named by its file name alone (``3f2a....jsonl``), never ``/srv/recs/3f2a....jsonl``.  The
    readers name the file they read, which is right in a terminal and a leak in an answer."""
    rec = getattr(request.app.state, "recordings", None)
    for where in ([str(rec.dir)] if rec is not None else []):
        text = text.replace(where.rstrip("/") + "/", "")
    return text


#: the handlers' Python names of the parameters whose query names differ (``from`` is a keyword)
_QUERY_NAMES = {"first": "from", "view": "as", "views": "as"}


def _public_names(extra: Any) -> Any:
    """A framework error's details with each query parameter under the name a client sends."""
    if not isinstance(extra, list):
        return extra
    return [dict(e, key=_QUERY_NAMES.get(e.get("key"), e.get("key"))) if isinstance(e, dict) and e.get("source") == "query"
            else e for e in extra]


def _domain_error(_request: Request, exc: AdjudicatorError) -> Response[dict[str, Any]]:
    """An error of the store (not writable, unavailable: 503) or of the input (400), as JSON."""
    if isinstance(exc, StoreError):
        return _json_error(503, f"the match store is unavailable: {exc}")
    if isinstance(exc, LogError):
        return _json_error(400, without_paths(_request, exc.render()))
    return _json_error(400, without_paths(_request, str(exc)))


def _internal_error(_request: Request, exc: Exception) -> Response[dict[str, Any]]:
    """Anything else: an HTTP error as it was raised, or an internal error with a JSON reason."""
    if isinstance(exc, HTTPException):
        body: dict[str, Any] = {"status_code": exc.status_code, "detail": without_paths(_request, str(exc.detail))}
        if getattr(exc, "extra", None):
            body["extra"] = _public_names(exc.extra)
        return Response(body, status_code=exc.status_code, headers=getattr(exc, "headers", None))
    what = without_paths(_request, f"{type(exc).__name__}: {exc}")[:300]
    return _json_error(500, f"internal error: {what} (a defect of the adjudicator: please report it)")


