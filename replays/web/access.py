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


def require_token(request: Request, web: WebService, what: str) -> None:
    """Refuse a write (an upload, a recording) without the service's token: 403 when the service
    has none (read-only), 401 when the request does not carry it."""
    if web.upload_token is None:
        raise HTTPException(status_code=403, detail="uploads are disabled: this service is read-only (start it "
                                                    "with `adjudicator serve --upload-token TOKEN` to accept uploads)")
    given = request.headers.get("authorization", "")
    scheme, _, token = given.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode(), web.upload_token.encode()):
        raise HTTPException(status_code=401, detail=f"{what} needs the service's token "
                                                    "(header `Authorization: Bearer TOKEN`); nothing stored",
                            headers={"WWW-Authenticate": "Bearer"})
