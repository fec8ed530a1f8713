"""Tournaments in the service: ``/tournaments/{name}`` (the report's page, each table linked to
its match's viewer), ``/api/tournaments`` and ``/api/tournaments/{name}`` (the report's JSON, as
``tournament check --json`` gives it, each table with its stored matches' ids).  Tournaments are
put in the store by ``adjudicator tournament import`` (:mod:`adjudicator.core.store.tournaments`)."""

from __future__ import annotations

import html
import os
from typing import Any
from urllib.parse import quote

from litestar import Response, get
from litestar.datastructures import State
from litestar.enums import MediaType
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from adjudicator.core.store import tournaments as tournament_store

from .report import render
from .access import _web
from .live import HANDLERS as LIVE, LIVE_BLOCK


def _report(state: State, ref: str) -> dict[str, Any]:

    web = _web(state)
    try:
        with web.lock:
            rep = without_paths(tournament_store.report(web.store, ref))
    except tournament_store.UnknownTournament as exc:
        raise NotFoundException(detail=str(exc)) from None
    # the registered deck lists are the organiser's: an opponent does not see them (the recorder's
    # picker serves them with the upload token: /api/recordings/registered-lists)
    rep.pop("registered_decks", None)
    return rep


def without_paths(report: dict[str, Any]) -> dict[str, Any]:
    """The report as the service shows it: every file named relative to the manifest's directory
    (``r3-t1.jsonl``, ``round-2/t4.jsonl``), the manifest by its name.  The stored report names
    the files where ``tournament import`` read them, paths of the importer's file system (a log's
    ``log``, ``seats`` and ``match_ids`` keys, a problem's ``file`` and message)."""
    manifest = str(report.get("tournament", {}).get("manifest") or "")
    if not manifest:
        return report
    where = os.path.dirname(manifest).rstrip("/") + "/"

    def clean(v: Any) -> Any:
        if isinstance(v, str):
            return os.path.basename(v) if v == manifest else v.replace(where, "")
        if isinstance(v, dict):
            return {clean(k): clean(x) for k, x in v.items()}
        if isinstance(v, list):
            return [clean(x) for x in v]
        return v

    return clean(report)


@get("/api/tournaments", sync_to_thread=True, tags=["tournaments"])
def list_tournaments(state: State) -> list[dict[str, Any]]:
    """Every stored tournament: id, name, game, dates and its report's summary."""

    web = _web(state)
    with web.lock:
        return tournament_store.listed(web.store)


@get("/api/tournaments/{ref:str}", sync_to_thread=True, tags=["tournaments"])
def tournament_report(state: State, ref: FromPath[str]) -> dict[str, Any]:
    """A stored tournament's report (by name, id or a unique prefix of the id): per table its
    verdict, problems (with lines), rulings and stored matches (``match_ids``), per player their
    tables, rulings and penalties, and the summary (docs/tournament.md)."""
    return _report(state, ref)


@get("/tournaments/{ref:str}", include_in_schema=False, sync_to_thread=True)
def tournament_page(state: State, ref: FromPath[str]) -> Response[str]:
    """The report's page (the same as ``tournament check --html``), each table linked to its
    match's viewer."""
    rep = _report(state, ref)
    links = {(t["round"], t["table"]): "/matches/" + quote(next(iter(t["match_ids"].values())))
             for t in rep["tables"] if t.get("match_ids")}
    page = render(rep, links)
    # served: the page also follows its tables as they record (server-sent events, replays/web/live.py)
    # (by the tournament's id: a name may hold a slash, which no path segment can carry)
    url = html.escape("/api/tournaments/" + quote(rep["tournament_id"], safe="") + "/live")
    page = page.replace("img-src data:", "img-src data:; connect-src 'self'", 1)
    page = page.replace("</body></html>", LIVE_BLOCK.format(url=url) + "</body></html>", 1)
    return Response(page, media_type=MediaType.HTML)


HANDLERS = (list_tournaments, tournament_report, tournament_page, *LIVE)
