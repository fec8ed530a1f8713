"""The service's OpenAPI document, complete: what Litestar derives from the handlers, and what it
cannot know, added here once the app is built (:func:`complete`).

A generated client (Schemathesis, tests/test_hardening3_schema.py) trusts the document, so it
says what the service does:

* the bearer token (``components.securitySchemes.bearer``): required by the writes and the
  recordings, optional on the reads of a match (a match in progress shows more with it);
* every error status an operation gives (401/403 of the token, 404 of an id, 413/415 of a body,
  503 of the store), each with the JSON error document;
* the content type of each download (the log and a variation as ``application/x-ndjson``, the
  replay file as ``text/html``, the position document as ``application/json``);
* the upload as either body: ``application/x-ndjson`` or ``multipart/form-data`` with a ``log``
  file and the ``pool``/``board``/``island`` files it names;
* request bodies that refuse unknown fields say so (``additionalProperties: false``);
* HEAD wherever GET is (bounds.HeadAsGet), with its own operation id;
* operation ids from the handlers' names (``match_events``, never ``Asynccallable``).
"""

from __future__ import annotations

import copy
import typing
from typing import Any

import msgspec
from litestar import Litestar, Request
from litestar.openapi.plugins import JsonRenderPlugin, RedocRenderPlugin, SwaggerRenderPlugin

from adjudicator.core.kernel.limits import MAX_DATA_FILES

from .bounds import MAX_URL

#: operations only the token may call ((method, path) as the document names them)
TOKEN_REQUIRED = frozenset({
    ("post", "/api/matches"), ("post", "/api/recordings"), ("get", "/api/recordings/{rid}"),
    ("post", "/api/recordings/{rid}/entries"), ("post", "/api/recordings/{rid}/store"),
    ("get", "/api/recordings/reconcile"), ("post", "/api/matches/{match_id}/variations"),
})
#: reads that show more with the token: a match in progress (the judge's view, a seat's)
TOKEN_SHOWS_MORE = ("/api/matches/{match_id}/",)
#: operations that name stored things in their query (not their path): an unknown one is 404
IDS_IN_QUERY = ("/api/recordings/reconcile",)
#: the downloads and their content types (every other answer is application/json)
DOWNLOADS = {
    "/api/matches/{match_id}/log": "application/x-ndjson",
    "/api/matches/{match_id}/variation.jsonl": "application/x-ndjson",
    "/api/matches/{match_id}/export.html": "text/html",
}
#: the data files a multipart upload may carry beside its log (app.DATA_FIELDS)
DATA_FIELDS = ("pool", "board", "island")

_ERROR_REF = {"$ref": "#/components/schemas/ErrorAnswer"}
_WHY = {
    401: "the request lacks the service's token (Authorization: Bearer TOKEN)",
    403: "the service has no token (read-only): writes, and what only the token may see, are refused",
    404: "nothing stored under this id or name",
    413: "the request body is larger than its bound",
    415: "the request body is sent with another media type than the operation accepts",
    503: "the store is unavailable, or the work ran over its time budget; nothing stored",
}


def _unwrapped(fn: Any) -> Any:
    """A handler's own function (Litestar wraps a sync one in ``AsyncCallable``, maybe twice)."""
    for _ in range(8):
        inner = getattr(fn, "func", None) or getattr(fn, "__wrapped__", None)
        if inner is None:
            break
        fn = inner
    return fn


def operation_id(handler: Any, method: str, _components: Any) -> str:
    """The handler function's own name (``GET``/``HEAD`` both answer one handler: see
    :func:`complete`).  Litestar's default titles ``handler_name``, which reads ``Asynccallable``
    for a handler it wrapped."""
    fn = _unwrapped(handler.fn)
    name = getattr(fn, "__name__", None) or handler.handler_name
    return name if len(handler.http_methods) == 1 else f"{name}_{method.lower()}"


def _answer(op: dict[str, Any], status: int, why: str) -> None:
    op["responses"].setdefault(str(status), {"description": why, "content": {"application/json": {"schema": _ERROR_REF}}})


def _closed_bodies(app: Litestar) -> set[str]:
    """The names of the request bodies (msgspec Structs) that refuse unknown fields."""
    out: set[str] = set()
    for route in app.routes:
        for handler in getattr(route, "route_handlers", []):
            fn = _unwrapped(handler.fn)
            try:
                hints = typing.get_type_hints(fn, include_extras=True)
            except (NameError, TypeError):  # a handler whose hints do not resolve: no body to close
                continue
            data = hints.get("data")
            while typing.get_origin(data) is typing.Annotated:
                data = typing.get_args(data)[0]
            if isinstance(data, type) and issubclass(data, msgspec.Struct) and data.__struct_config__.forbid_unknown_fields:
                out.add(data.__name__)
    return out


def complete(app: Litestar, schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (Litestar's document of ``app``) with what the module docstring lists."""
    doc = copy.deepcopy(schema)
    comps = doc.setdefault("components", {})
    comps.setdefault("securitySchemes", {})["bearer"] = {
        "type": "http", "scheme": "bearer",
        "description": "The service's upload token (`adjudicator serve --upload-token TOKEN`)."}
    schemas = comps.setdefault("schemas", {})
    schemas.setdefault("ErrorAnswer", {"type": "object", "required": ["status_code", "detail"],
                                       "properties": {"status_code": {"type": "integer"}, "detail": {"type": "string"}}})
    for name in _closed_bodies(app):
        if name in schemas:
            schemas[name]["additionalProperties"] = False
    for path, item in doc.get("paths", {}).items():
        for method, op in list(item.items()):
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            _operation(path, method, op)
        if "get" in item and "head" not in item:
            head = copy.deepcopy(item["get"])
            head["operationId"] = head.get("operationId", path) + "_head"
            head["summary"] = "HEAD: " + head.get("summary", "")
            for answer in head.get("responses", {}).values():
                answer.pop("content", None)  # the same answer without its body
            item["head"] = head
    upload = doc.get("paths", {}).get("/api/matches", {}).get("post")
    if upload is not None:
        upload["requestBody"] = {"required": True, "description": "A match log: JSON Lines, MatchStarted first; or a "
                                 "multipart form with the log as `log` and the data files it names.", "content": {
            "application/x-ndjson": {"schema": {"type": "string"}},
            "multipart/form-data": {"schema": {
                "type": "object", "required": ["log"], "additionalProperties": False,
                "properties": {"log": {"type": "string", "format": "binary"},
                               **{f: {"type": "array", "maxItems": MAX_DATA_FILES, "items": {"type": "string", "format": "binary"}}
                                  for f in DATA_FIELDS}}},
                "encoding": {"log": {"contentType": "application/x-ndjson, application/octet-stream"}}}}}
    return doc


def _operation(path: str, method: str, op: dict[str, Any]) -> None:
    """One operation's answers, security, parameter bounds and download types (see :func:`complete`)."""
    responses = op.setdefault("responses", {})
    if (method, path) in TOKEN_REQUIRED:
        op["security"] = [{"bearer": []}]
        _answer(op, 401, _WHY[401])
        _answer(op, 403, _WHY[403])
    elif path.startswith(TOKEN_SHOWS_MORE):
        op["security"] = [{}, {"bearer": []}]
        _answer(op, 401, _WHY[401] + ": a seat's or the judge's view of a match in progress")
        _answer(op, 403, _WHY[403])
    if "{" in path or path in IDS_IN_QUERY:
        _answer(op, 404, _WHY[404])
    if path.startswith("/api/"):
        _answer(op, 503, _WHY[503])
    if "requestBody" in op:
        _answer(op, 413, _WHY[413])
        _answer(op, 415, _WHY[415])
    for param in op.get("parameters", []):
        if param.get("name") == "at" and param.get("in") == "query":  # an event number (checked by the service)
            for choice in param.get("schema", {}).get("oneOf", [param.get("schema", {})]):
                if choice.get("type") == "integer":
                    choice["minimum"] = 1
        if param.get("name") == "var":
            param.setdefault("schema", {})["maxLength"] = MAX_URL
    kind = DOWNLOADS.get(path)
    if kind is not None and method == "get":
        ok = responses.setdefault("200", {"description": "the download"})
        ok["content"] = {kind: {"schema": {"type": "string"}}}


class CompleteJson(JsonRenderPlugin):
    """``/schema/openapi.json``: :func:`complete`'s document, built on first use (as Litestar
    builds its own: the routes are all registered by then) and kept.  One per app."""

    def __init__(self) -> None:
        super().__init__(path="/openapi.json")
        self._doc: dict[str, Any] | None = None

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:  # type: ignore[type-arg]
        if self._doc is None:
            self._doc = complete(request.app, openapi_schema)
        return self.render_json(request, self._doc)


def render_plugins() -> list[Any]:
    """The schema's pages: the completed JSON document, ReDoc at ``/schema`` and Swagger UI at
    ``/schema/swagger`` (both load their scripts from the internet)."""
    return [CompleteJson(), RedocRenderPlugin(path=["/", "/redoc"]), SwaggerRenderPlugin()]
