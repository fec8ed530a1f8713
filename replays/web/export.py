"""One match as a self-contained HTML replay: ``adjudicator export LOG -o match.html``.

The browser viewer (``static/match.html``, ``scene.js``, ``viewer.js``, ``style.css``) with its
frames inlined: every event's entry in the event list and every position (scene, changes, card
texts) of each viewpoint the file's author chose, computed here once, as the service computes
them.  A small script answers the viewer's API requests from those frames, so the file opens
from disk in any browser, with no server and no network (like a Pokemon Showdown replay file).

Hidden information: the file holds only the viewpoints asked for.  The default is the *public*
view: what a spectator sees, every seat's hidden cards masked (the game's own ``observe`` and
``redact`` with a viewer who holds no seat).  ``--as PLAYER`` adds that seat's view, ``--as
judge`` everything.  Nothing else of the log is written: no judge's view unless asked for, and
no download of the log.
"""

from __future__ import annotations

import html
from pathlib import Path, PurePath
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import ClientException
from litestar.params import FromPath, QueryParameter

from adjudicator.core.kernel.log import MatchLog
from adjudicator.core.kernel.meta import meta_of
from adjudicator.core.kernel.scene import Scene, diff
from adjudicator.core.kernel.verify import run
from adjudicator.replays.core import card_texts, make_frame, seen_by
from .access import SPECTATOR, _web, authorised, require_token
from .safejson import html_json

STATIC = Path(__file__).parent / "static"

#: the viewpoint names the author may ask for besides the players'
PUBLIC = "public"
JUDGE = "judge"
#: the viewer id the game is shown for the public view (no seat has it): access.SPECTATOR
#: the most events an exported replay holds (every viewpoint keeps a position per event)
MAX_EXPORT_EVENTS = 20_000
#: the most viewpoints one file holds
MAX_VIEWS = 8


class ExportError(ValueError):
    """A replay that cannot be exported as asked (an unknown viewpoint, a log too long)."""


def _viewer_id(view: str) -> str | None:
    return None if view == JUDGE else SPECTATOR if view == PUBLIC else view


def frames(log: MatchLog, views: list[str]) -> dict[str, Any]:
    """The data of the page: the match, and per viewpoint its event list and positions."""
    game = log.game
    if len(log.events) > MAX_EXPORT_EVENTS:
        raise ExportError(f"{log.path}: {len(log.events)} events; an exported replay holds at most {MAX_EXPORT_EVENTS}")
    res = run(log, keep_going=True, record_steps=True)
    steps = res.steps or []
    players = game.players(steps[0].state) if steps and steps[0].state is not None else []
    if len(views) > MAX_VIEWS:
        raise ExportError(f"--as: at most {MAX_VIEWS} viewpoints")
    for v in views:
        if v not in (PUBLIC, JUDGE) and v not in players:
            raise ExportError(f"--as: unknown player {v!r} (players: {', '.join(players)}; or {PUBLIC}, {JUDGE})")
    if SPECTATOR in players:
        raise ExportError(f"a player is named {SPECTATOR!r}: the public view cannot be told apart")
    out: dict[str, Any] = {"views": {}}
    for v in dict.fromkeys(views):
        out["views"][v] = _view(game, steps, _viewer_id(v))
    out["outcome"] = None if res.outcome is None else msgspec.to_builtins(res.outcome)
    out["verdict"] = res.verdict
    out["violations"] = [s.seq for s in steps if s.ruling.verdict == "illegal" and s.ruling.judged is None]
    out["players"] = players
    out["game"] = game.id
    out["game_name"] = game.name
    return out


def _view(game: Any, steps: list[Any], viewer: str | None) -> dict[str, Any]:
    """One viewpoint's event list and positions; each card text once (``cards``), each position
    naming the texts it shows (``card_ids``)."""
    events, positions = [], []
    texts: dict[str, Any] = {}
    before: Scene | None = None
    position: Any = None  # the position before the step (what the seat knew then: CL-41, CL-46)
    for step in steps:
        f = make_frame(game, step.seq, step.line, step.event, step.ruling, step.applied, step.derived, step.state)
        seen = seen_by(game, f, step.derived, viewer, position)
        position = step.table if step.table is not None else (step.state if step.state is not None else position)
        events.append(seen.as_dict())
        if step.state is None:
            scene, turn, cards = Scene(game=game.id, view=viewer, status="no position: the engine failed"), 0, {}
        else:
            scene, turn = game.scene(step.state, viewer), game.turn_number(step.state)
            cards = card_texts(game, step.state, scene)
        texts.update(cards)
        positions.append({
            "at": step.seq, "turn": turn, "scene": msgspec.to_builtins(scene),
            "changes": ["the match starts"] if before is None else diff(before, scene),
            "touched": game.touched(seen.event), "mark": f.mark, "card_ids": list(cards),
        })
        before = scene
    return {"events": events, "positions": positions, "cards": texts}


_SHIM = """
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("export-data").textContent);
  const keys = Object.keys(DATA.views);
  const first = keys[0];
  const label = {public: "public (no hidden cards)", judge: "judge (everything)"};
  // the viewer's "" option is the file's first viewpoint; its players are the others it holds
  function key(v) { return v ? v : first; }
  function ok(body) { return Promise.resolve(new Response(JSON.stringify(body), {status: 200, headers: {"Content-Type": "application/json"}})); }
  function no(status, detail) { return Promise.resolve(new Response(JSON.stringify({status_code: status, detail: detail}), {status: status, headers: {"Content-Type": "application/json"}})); }
  const others = keys.slice(1);
  const match = {match_id: "export", game: DATA.game, game_name: DATA.game_name, players: others,
    verdict: DATA.verdict, violations: DATA.violations.length, events: DATA.views[first].events.length,
    result: DATA.result, outcome: DATA.outcome, source: DATA.source, chain_head: null, data: [],
    meta: DATA.meta || {}};
  window.fetch = function (path) {
    const u = new URL(String(path), "http://export.invalid/");
    const v = key(u.searchParams.get("as"));
    const view = DATA.views[v];
    if (!view) return no(400, "this replay file holds only these viewpoints: " + keys.join(", "));
    if (/\\/events$/.test(u.pathname)) {
      return ok({match: match, violations: DATA.violations, events: view.events, total: view.events.length, first: 1, next: null});
    }
    if (/\\/position$/.test(u.pathname)) {
      const n = parseInt(u.searchParams.get("at"), 10);
      const p = view.positions[n - 1];
      if (!p) return no(400, "at: event " + n + " is outside the match");
      const cards = {};
      for (const id of p.card_ids) cards[id] = view.cards[id];
      return ok(Object.assign({match_id: "export", events: view.positions.length, view: v === first ? null : v,
                               players: DATA.players, cards: cards}, p));
    }
    if (/\\/variations?$|\\/legal$/.test(u.pathname)) return no(400, "not in an exported replay (it needs the service)");
    return no(404, "not in an exported replay");
  };
  history.replaceState = function () {};
  document.addEventListener("DOMContentLoaded", function () {
    const sel = document.getElementById("view");
    new MutationObserver(function () {
      if (sel.options.length && sel.options[0].value === "") sel.options[0].textContent = label[first] || first;
      for (const o of sel.options) if (label[o.value]) o.textContent = label[o.value];
    }).observe(sel, {childList: true});
  });
})();
"""

#: what the exported page leaves out (each needs the service)
_HIDE = ("#download-log,#download-position,#download-replay,#legal,#variation,#variations,.home{display:none!important}")


def _script(text: str) -> str:
    return "<script>" + text.replace("</script", "<\\/script") + "</script>"


def render(log: MatchLog, views: list[str], source: str) -> str:
    """The page: ``static/match.html`` with its style and scripts inlined, the frames of ``views``
    beside them (the first viewpoint is the one the file opens at)."""
    data = frames(log, views or [PUBLIC])
    out = data["outcome"]
    data["result"] = "unfinished" if out is None else (f"{out['winner']} wins by {out['reason']}" if out["winner"]
                                                      else f"{out['result']} ({out['reason']})")
    data["source"] = source
    data["meta"] = meta_of(log.events[0][1]) if log.events else {}  # the header, as the service's match shows it
    page = (STATIC / "match.html").read_text(encoding="utf-8")
    blob = html_json(data)  # one safe encoder for JSON in HTML (safejson.py)
    style = (STATIC / "style.css").read_text(encoding="utf-8") + _HIDE
    page = page.replace('<link rel="stylesheet" href="/static/style.css">', f"<style>{style}</style>")
    page = page.replace('<script src="/static/scene.js"></script>',
                        f'<script type="application/json" id="export-data">{blob}</script>\n'
                        + _script(_SHIM) + "\n" + _script((STATIC / "scene.js").read_text(encoding="utf-8")))
    page = page.replace('<script src="/static/viewer.js"></script>',
                        _script((STATIC / "viewer.js").read_text(encoding="utf-8")))
    page = page.replace("<title>replay · adjudicator</title>",
                        f"<title>{html.escape(Path(source).name)} · replay · adjudicator</title>")
    if "/static/" in page:  # the viewer's page changed its way of loading: say so, never ship a broken file
        raise RuntimeError("static/match.html loads a file the exporter does not inline")
    return page


# -- the service's download (the viewer's "replay file" link) ---------------------------------------

def _stored_page(web: Any, match_id: str, views: list[str]) -> tuple[str, str]:
    """A stored match's replay file and its file name."""
    from adjudicator.core.kernel import registry

    mid = web.resolve(match_id)  # installs the match's own pool, board or island
    with web.lock:
        logged = web.store.get_log(mid)
        info = web.store.summary(mid)
    source = PurePath(info.source.replace("\\", "/")).name  # never a path of the server's
    log = MatchLog(source, registry.get(info.game), [(e.line, e.event) for e in logged])
    name = (PurePath(source).stem or mid[:8]).replace('"', "") + ".html"
    return render(log, views, source), name


@get("/api/matches/{match_id:str}/export.html", sync_to_thread=True, tags=["matches"])
def match_export(
    request: Request, state: State, match_id: FromPath[str],
    views: Annotated[list[str] | None, QueryParameter(
        name="as", description="A viewpoint the file holds (repeatable): a player, 'public' (the default) or 'judge'.")] = None,
) -> Response[str]:
    """The match as one self-contained HTML replay (no server, no network), holding only the
    viewpoints asked for (default: the public view, every seat's hidden cards masked)."""

    web = _web(state)
    views = list(views or [PUBLIC])
    if views != [PUBLIC] and not authorised(request, web) and web.in_progress(web.resolve(match_id)):
        require_token(request, web, "a replay file of a match in progress with another view than 'public'", write=False)
    try:
        page, name = _stored_page(web, match_id, views)
    except ExportError as exc:
        raise ClientException(detail=str(exc)) from None
    return Response(page, media_type="text/html", headers={"Content-Disposition": f'attachment; filename="{name}"'})
