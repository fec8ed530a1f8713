"""Who may do what through the replay service, and where its state is: the pieces the route
modules (app.py, export.py, record.py, tournament.py) share, so none of them imports another."""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from litestar import Request
from litestar.datastructures import State
from litestar.exceptions import HTTPException

if TYPE_CHECKING:
    from .app import WebService


def _web(state: State) -> WebService:
    """The service (its store, limits and token) a request is answered by."""
    return state.web


#: the viewer id of the public view: no seat has it, so every seat's hidden cards are masked (the
#: game's own ``observe`` and ``redact``); what anyone is shown of a match in progress
SPECTATOR = "the public"


def authorised(request: Request, web: WebService) -> bool:
    """Whether the request carries the service's token (``Authorization: Bearer TOKEN``)."""
    if web.upload_token is None:
        return False
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), web.upload_token.encode())


def require_token(request: Request, web: WebService, what: str, write: bool = True) -> None:
    """Refuse a request without the service's token: a write (an upload, a recording) or a read of
    what only the token may see (a match in progress as the judge or a seat: ``write=False``).
    403 when the service has no token (read-only), 401 when the request does not carry it."""
    if authorised(request, web):
        return
    if web.upload_token is None:
        raise HTTPException(status_code=403, detail=(
            "uploads are disabled: this service is read-only (start it with `adjudicator serve --upload-token "
            "TOKEN` to accept uploads)") if write else (
            f"{what} needs the service's token, and this service has none (`adjudicator serve --upload-token "
            "TOKEN`); without it only the public view is shown"))
    raise HTTPException(status_code=401, detail=f"{what} needs the service's token (header `Authorization: Bearer "
                                                f"TOKEN`); {'nothing stored' if write else 'without it only the public view is shown'}",
                        headers={"WWW-Authenticate": "Bearer"})
