"""The live event page (issue 31, docs/tournament.md "In the service"): the service's tournament
page updated as its tables record, over server-sent events.

A recording whose match header names the tournament (``event``: the tournament's name, ``round``
and ``table``) publishes each entry it records (:func:`publish`): the table, its players, how many
events it holds and its latest event in the game's notation, as the public sees it (every seat's
hidden cards masked: no token is needed to watch, as for a match's public view).  Each watcher of
``/api/tournaments/{ref}/live`` is one bounded queue: at most :data:`MAX_WATCHERS` at once (503
beyond), each at most :data:`MAX_QUEUE` messages behind (a slower one is closed; the page's
EventSource reconnects).  Nothing waits on a clock: a message is sent when its entry is recorded.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from typing import Any

import anyio.to_thread
from litestar import get
from litestar.datastructures import State
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import FromPath
from litestar.response import ServerSentEvent, ServerSentEventMessage

from adjudicator.core.store import tournaments as tournament_store

from .access import SPECTATOR, _web

#: watchers of live pages at once, over every tournament
MAX_WATCHERS = 64
#: messages a watcher may be behind before it is closed
MAX_QUEUE = 256


class _Watcher:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop, self.queue = loop, asyncio.Queue[dict[str, Any] | None](maxsize=MAX_QUEUE)

    def offer(self, item: dict[str, Any] | None) -> None:
        """(On the watcher's loop.)  Queued; a watcher too far behind is closed instead."""
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


class Live:
    """Who watches which tournament (by name), and what is sent to them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.watchers: dict[str, list[_Watcher]] = {}

    def watch(self, name: str, loop: asyncio.AbstractEventLoop) -> _Watcher | None:
        with self.lock:
            if sum(len(w) for w in self.watchers.values()) >= MAX_WATCHERS:
                return None
            w = _Watcher(loop)
            self.watchers.setdefault(name, []).append(w)
            return w

    def leave(self, name: str, w: _Watcher) -> None:
        with self.lock:
            left = [x for x in self.watchers.get(name, []) if x is not w]
            if left:
                self.watchers[name] = left
            else:
                self.watchers.pop(name, None)

    def send(self, name: str, item: dict[str, Any]) -> None:
        """To every watcher of tournament ``name`` (from any thread)."""
        with self.lock:
            watchers = list(self.watchers.get(name, []))
        for w in watchers:
            try:
                w.loop.call_soon_threadsafe(w.offer, item)
            except RuntimeError:  # its loop is closed: the watcher is gone
                self.leave(name, w)


_LOCK = threading.Lock()


def live_of(state: State) -> Live:
    """The service's one :class:`Live` (made on first use)."""
    with _LOCK:
        live = getattr(state, "live", None)
        if live is None:
            live = Live()
            state.live = live
        return live


def publish(state: State, s: Any, meta: dict[str, str]) -> None:
    """A recording session ``s`` recorded an entry: tell the watchers of the tournament its header
    names (``event``), if any, where the table stands, as the public sees it."""
    name = meta.get("event")
    live = getattr(state, "live", None)
    if not name or live is None or name not in live.watchers:
        return
    game = s.game
    last = next((e for e in reversed(s.record.events) if e.kind != "X"), s.record.events[-1])
    shown = game.redact(last, SPECTATOR, s.record.before if last is s.record.events[-1] else None)
    live.send(name, {"round": meta.get("round", ""), "table": meta.get("table", ""),
                     "players": list(s.record.setup.players), "events": len(s.record),
                     "latest": game.notation.format(shown, None), "over": s.over})


def _name(state: State, ref: str) -> str:
    web = _web(state)
    with web.lock:
        return str(tournament_store.report(web.store, ref)["tournament"]["name"])


@get("/api/tournaments/{ref:str}/live", tags=["tournaments"])
async def tournament_live(state: State, ref: FromPath[str]) -> ServerSentEvent:
    """Server-sent events of a stored tournament's tables as they record: ``hello`` once, then a
    ``table`` message per recorded entry (round, table, players, events, the latest event in the
    notation, public view)."""
    try:
        name = await anyio.to_thread.run_sync(_name, state, ref)
    except tournament_store.UnknownTournament as exc:
        raise NotFoundException(detail=str(exc)) from None
    live = live_of(state)
    w = live.watch(name, asyncio.get_running_loop())
    if w is None:
        raise HTTPException(status_code=503, detail=f"at most {MAX_WATCHERS} live pages are watched at once")

    async def stream() -> AsyncIterator[ServerSentEventMessage]:
        try:
            yield ServerSentEventMessage(event="hello", data=json.dumps({"tournament": name}))
            while (item := await w.queue.get()) is not None:
                yield ServerSentEventMessage(event="table", data=json.dumps(item))
        finally:
            live.leave(name, w)

    return ServerSentEvent(stream())


#: the live part of the tournament page (the report's page, served): rows filled as tables record
LIVE_BLOCK = """<h2>Live</h2>
<table class="summary" id="live" data-url="{url}"><tr><th>round</th><th>table</th><th>players</th><th>events</th><th>latest event</th></tr></table>
<script>
(function () {{
  const t = document.getElementById('live');
  const es = new EventSource(t.dataset.url);
  es.addEventListener('hello', () => {{ document.body.dataset.live = '1'; }});
  es.addEventListener('table', (ev) => {{
    const d = JSON.parse(ev.data);
    const id = 'live-' + d.round + '-' + d.table;
    let r = document.getElementById(id);
    if (!r) {{ r = t.insertRow(); r.id = id; for (let i = 0; i < 5; i++) r.insertCell(); }}
    const cells = [d.round, d.table, d.players.join(' - '), d.events + (d.over ? ' (over)' : ''), d.latest];
    cells.forEach((v, i) => {{ r.cells[i].textContent = String(v); }});
    r.dataset.events = String(d.events);
  }});
}})();
</script>
"""

HANDLERS = (tournament_live,)
