"""The live event page (issue 31, docs/tournament.md "In the service"): the service's tournament
page updated as its tables record, over server-sent events.

A recording whose match header names a stored tournament (``event``: the tournament's name,
``round`` and ``table``) publishes each entry it records (:func:`publish`): the table, its
players, how many events it holds and its latest event in the game's notation, as the public
sees it (every seat's hidden cards masked: no token is needed to watch, as for a match's public
view); the findings the entry makes and, the entry that finishes a round's last table, the
standings after that round (:mod:`.live_tables`).  Each watcher of
``/api/tournaments/{ref}/live`` is one bounded queue: at most :data:`MAX_WATCHERS` at once (503
beyond), each at most :data:`MAX_QUEUE` messages behind (a slower one is closed; the page's
EventSource reconnects, and is sent everything recorded so far again in one ``snapshot``).  At
most :data:`MAX_FOLLOWED` tournaments are followed at once (the one followed longest is let go).
Nothing waits on a clock: a message is sent when its entry is recorded.
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

from .access import _web
from .live_tables import Followed

#: watchers of live pages at once, over every tournament
MAX_WATCHERS = 64
#: messages a watcher may be behind before it is closed
MAX_QUEUE = 256
#: tournaments followed at once (their tables' findings and results kept)
MAX_FOLLOWED = 16


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
        #: tournament name -> its tables as recorded live (insertion order: the oldest first)
        self.followed: dict[str, Followed] = {}
        #: names recordings gave that no stored tournament has (looked up again at a recording's
        #: start and end, or once a page watches it)
        self.unknown: dict[str, None] = {}

    def follow(self, name: str, report: dict[str, Any]) -> Followed:
        """(Under :attr:`lock`.)  The tournament ``name`` followed, its stored ``report`` read again."""
        f = self.followed.get(name)
        if f is None:
            while len(self.followed) >= MAX_FOLLOWED:
                self.followed.pop(next(iter(self.followed)))
            f = self.followed[name] = Followed(report)
        else:
            f.load(report)
        self.unknown.pop(name, None)
        return f

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
    names (``event``), if it is stored, where the table stands, as the public sees it, and what
    the entry found (:meth:`Followed.update`)."""
    name = meta.get("event")
    if not name:
        return
    live = live_of(state)
    players = list(s.record.setup.players)
    try:
        key = (int(meta.get("round", "")), int(meta.get("table", "")))
    except ValueError:
        key = None
    with live.lock:
        f, unknown = live.followed.get(name), name in live.unknown
    ends = len(s.record) <= 1 or s.over  # a table's start or end: the stored report read again
    if (f is None and not unknown) or (ends and (f is None or key in f.entries)):
        report = _stored(state, name)
        with live.lock:
            if report is None:
                while len(live.unknown) >= MAX_FOLLOWED:
                    live.unknown.pop(next(iter(live.unknown)))
                live.unknown[name] = None
                return
            f = live.follow(name, report)
    if f is None:
        return
    with live.lock:
        if key not in f.entries:
            return  # no table of the stored report: nothing to follow
        messages = f.update(key, str(s.path), s, players)
    for kind, item in messages:
        live.send(name, {**item, "sse": kind})  # (the SSE message's event name)


def _stored(state: State, name: str) -> dict[str, Any] | None:
    """The stored report of the tournament named ``name`` (None: there is none; a name that is
    only a prefix of a tournament's id names none here)."""
    web = _web(state)
    with web.lock:
        try:
            report = tournament_store.report(web.store, name)
        except tournament_store.UnknownTournament:
            return None
    return report if report["tournament"]["name"] == name else None


def _report(state: State, ref: str) -> dict[str, Any]:
    web = _web(state)
    with web.lock:
        return tournament_store.report(web.store, ref)


@get("/api/tournaments/{ref:str}/live", tags=["tournaments"])
async def tournament_live(state: State, ref: FromPath[str]) -> ServerSentEvent:
    """Server-sent events of a stored tournament's tables as they record: ``hello`` once, a
    ``snapshot`` of what was recorded so far (``tables``, ``findings``, ``standings``), then a
    ``table`` message per recorded entry (round, table, players, events, the latest event in the
    notation, public view, the result once over), a ``finding`` message per finding as it arises
    (round, table, players, kind, message) and a ``standings`` message once every table of a round
    has a confirmed result (the standings after that round: round, rows, disputed)."""
    try:
        report = await anyio.to_thread.run_sync(_report, state, ref)
    except tournament_store.UnknownTournament as exc:
        raise NotFoundException(detail=str(exc)) from None
    name = str(report["tournament"]["name"])
    live = live_of(state)
    w = live.watch(name, asyncio.get_running_loop())
    if w is None:
        raise HTTPException(status_code=503, detail=f"at most {MAX_WATCHERS} live pages are watched at once")

    with live.lock:
        snapshot = live.follow(name, report).snapshot()

    async def stream() -> AsyncIterator[ServerSentEventMessage]:
        try:
            yield ServerSentEventMessage(event="hello", data=json.dumps({"tournament": name}))
            yield ServerSentEventMessage(event="snapshot", data=json.dumps(snapshot))
            while (item := await w.queue.get()) is not None:  # (one dict for every watcher: read, not changed)
                yield ServerSentEventMessage(event=str(item.get("sse", "table")),
                                             data=json.dumps({k: v for k, v in item.items() if k != "sse"}))
        finally:
            live.leave(name, w)

    return ServerSentEvent(stream())


#: the live part of the tournament page (the report's page, served): rows filled as tables record,
#: findings listed as they arise, the standings after each round as it completes (every value
#: set as text: nothing a recording says is read as HTML)
LIVE_BLOCK = """<h2>Live</h2>
<table class="summary" id="live" data-url="{url}"><tr><th>round</th><th>table</th><th>players</th><th>events</th><th>latest event</th></tr></table>
<h3>Findings as they arise</h3>
<ul id="live-findings"></ul>
<div id="live-standings"></div>
<script>
(function () {{
  const t = document.getElementById('live');
  const found = document.getElementById('live-findings');
  const ranks = document.getElementById('live-standings');
  const es = new EventSource(t.dataset.url);
  function table(d) {{
    const id = 'live-' + d.round + '-' + d.table;
    let r = document.getElementById(id);
    if (!r) {{ r = t.insertRow(); r.id = id; for (let i = 0; i < 5; i++) r.insertCell(); }}
    const over = d.over ? (d.result ? ' (over: ' + d.result + ')' : ' (over)') : '';
    const cells = [d.round, d.table, d.players.join(' - '), d.events + over, d.latest];
    cells.forEach((v, i) => {{ r.cells[i].textContent = String(v); }});
    r.dataset.events = String(d.events);
  }}
  function finding(d) {{
    const id = 'finding-' + d.id;
    if (document.getElementById(id)) return;
    const li = document.createElement('li');
    li.id = id; li.dataset.kind = d.kind;
    li.textContent = 'round ' + d.round + ' table ' + d.table + ' (' + d.players.join(' - ') + '): ' + d.kind + ': ' + d.message;
    found.appendChild(li);
  }}
  function standings(d) {{
    const id = 'standings-' + d.round;
    let box = document.getElementById(id);
    if (box) box.remove();
    box = document.createElement('div'); box.id = id; box.dataset.round = String(d.round);
    const h = document.createElement('h3'); h.textContent = 'Standings after round ' + d.round; box.appendChild(h);
    const tab = document.createElement('table'); tab.className = 'summary';
    const head = tab.insertRow();
    ['rank', 'player', 'points', 'won-drawn-lost', 'tiebreakers'].forEach((v) => {{
      const th = document.createElement('th'); th.textContent = v; head.appendChild(th); }});
    d.rows.forEach((x) => {{
      const r = tab.insertRow(); r.dataset.player = x.player;
      const tbs = Object.entries(x.tiebreakers).map(([k, v]) => k + ' ' + v).join(', ');
      [x.rank, x.player, x.points, x.wins + '-' + x.draws + '-' + x.losses + (x.byes ? ', ' + x.byes + ' bye' : ''), tbs]
        .forEach((v) => {{ r.insertCell().textContent = String(v); }});
    }});
    box.appendChild(tab);
    d.disputed.forEach((x) => {{
      const p = document.createElement('p');
      p.textContent = 'not counted: round ' + x.round + ' table ' + x.table + ' (' + x.players.join(' - ') + '): ' + x.why;
      box.appendChild(p);
    }});
    ranks.prepend(box);
  }}
  es.addEventListener('hello', () => {{ document.body.dataset.live = '1'; }});
  es.addEventListener('snapshot', (ev) => {{
    const d = JSON.parse(ev.data);
    (d.tables || []).forEach(table); (d.findings || []).forEach(finding); (d.standings || []).forEach(standings);
  }});
  es.addEventListener('table', (ev) => table(JSON.parse(ev.data)));
  es.addEventListener('finding', (ev) => finding(JSON.parse(ev.data)));
  es.addEventListener('standings', (ev) => standings(JSON.parse(ev.data)));
}})();
</script>
"""

HANDLERS = (tournament_live,)
