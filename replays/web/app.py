"""The replay service: a Litestar app over the event store.

JSON API (every answer a msgspec Struct; errors are ``{"status_code": ..., "detail": reason}``):

* ``GET  /api/info``: the registered games, the upload size limit, whether illegal logs are stored.
* ``GET  /api/games``: the registered games.
* ``GET  /api/matches?game=&player=&verdict=``: the stored matches, filtered.
* ``POST /api/matches?name=FILE``: upload a log (the body is the JSON Lines log; or multipart
  with a ``log`` file and the card pool, board or island files it names as ``pool`` files: see
  docs/replay.md).  It is read,
  verified and stored, and the answer gives the verdict and the violations.  An illegal log is
  stored with its verdict (201), because a judge uploads a disputed match to look at the
  position where the dispute arose; a service started with ``allow_illegal=False``
  (``adjudicator serve --refuse-illegal``) answers 422 with the verdict instead and stores
  nothing.  A log already stored answers 200 with its stored verdict.  An unreadable log (400,
  ``file:line: field: what``) or one over the size limit (413) stores nothing.
* ``GET  /api/matches/{id}``: one match's summary (``id`` may be a unique prefix).
* ``GET  /api/matches/{id}/events``: every log event with its ruling and mark (legal, illegal,
  unchecked, derived, undetermined with its ``condition``; stands, taken-back, ruling), the
  consequences it forced and its turn number.
* ``GET  /api/matches/{id}/position?at=N&as=PLAYER``: the position after event N as a scene from
  the judge's view (no ``as``) or one player's, and what event N changed.  The state comes from
  the store's snapshots (``MatchStore.state_at``), so a late seek does not replay the match.
* ``GET  /api/matches/{id}/legal?at=N``: who may act after event N and every legal event there.

Pages (static files in ``replays/web/static``, no build step): ``/`` (the match list and an
upload form) and ``/matches/{id}?at=N&as=PLAYER`` (the viewer).  OpenAPI: ``/schema/openapi.json``.

A match in progress (no outcome, no violation) is shown without the token only as the public
sees it (:meth:`WebService.shown_view`); a seat's or the judge's view of it needs the token.
Every JSON request body is read by one bounded decoder (bounds.BoundedRequest), HEAD is
answered wherever GET is (bounds.HeadAsGet), and the OpenAPI document is completed by schema.py.

Nothing here names a game: games come from the registry, positions from ``game.scene``.
"""

from __future__ import annotations

import tempfile
import threading
import unicodedata
import urllib.parse
from collections import OrderedDict
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _pkg_version
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Annotated, Any, Literal

import anyio.to_thread
import msgspec
from litestar import Litestar, Request, Response, get, post
from litestar.middleware import DefineMiddleware
from litestar.datastructures import State
from litestar.enums import MediaType
from litestar.exceptions import ClientException, HTTPException, NotFoundException
from litestar.openapi import OpenAPIConfig, ResponseSpec
from litestar.openapi.spec import OpenAPIMediaType
from litestar.openapi.spec import Operation, RequestBody, Schema
from litestar.params import FromPath, FromQuery, QueryParameter

from adjudicator.core.kernel import position as positions
from adjudicator.core.store import recordings as recording_store
from adjudicator.core.kernel import registry, sources
from adjudicator.core.kernel.errors import AdjudicatorError, LogError, UnknownGame
from adjudicator.core.kernel.limits import MAX_DATA_FILES
from adjudicator.core.kernel.log import decode_event, decode_json, parse_log, seal_lines
from adjudicator.core.kernel.meta import parse_filters
from adjudicator.core.kernel.protocol import Game, RefError
from adjudicator.core.kernel.verify import propose
from adjudicator.core.kernel.scene import Scene, diff
from adjudicator.core.store import (
    ABORTED, ALREADY_STORED, REFUSED, STORED, AmbiguousMatch, MatchStore, MatchSummary, StoreError,
    UnknownMatch,
)
from adjudicator.replays.core import card_texts, make_frame, seen_by

from .access import SPECTATOR, _web, authorised, require_token
from .answers import (
    CardText, EventInfo, GameInfo, LegalEvent, LegalEvents, MatchEvents, MatchInfo, Position, ServiceInfo,
    UploadResult, Variation, VariationStep, ViolationInfo,
)
from .schema import operation_id, render_plugins
from .errors import ErrorAnswer, _domain_error, _errors, _internal_error  # noqa: F401 (ErrorAnswer: the API's)
from .bounds import DEFAULT_BODY_TIMEOUT, MAX_REQUEST_HEAD, MAX_URL, BoundedRequest, HeadAsGet, RequestBounds  # noqa: F401 (serve's)

#: the largest upload accepted, in bytes (``adjudicator serve --max-upload``)
DEFAULT_MAX_UPLOAD = 5_000_000
#: the most events one analysis variation may hold
MAX_VARIATION = 500
#: events per page of ``/api/matches/{id}/events`` (default and largest)
DEFAULT_PAGE = 1000
MAX_PAGE = 10_000
#: the longest an upload's verification may take (``adjudicator serve --upload-seconds``)
DEFAULT_UPLOAD_SECONDS = 20.0
#: the most events one upload may hold (a bound on its verification time and memory)
MAX_UPLOAD_EVENTS = 200_000
#: the environment variable that may hold the upload token (``serve --upload-token``)
TOKEN_ENV = "ADJUDICATOR_UPLOAD_TOKEN"
#: the content types an upload may have: no simple cross-site request can send either with a token
UPLOAD_TYPES = ("application/x-ndjson", "multipart/form-data")
#: where the pages, the script and the style sheet live
STATIC = Path(__file__).parent / "static"

# -- headers built from input -----------------------------------------------------------------

#: what RFC 5987 lets stand unencoded in an ext-value (``attr-char``)
_ATTR_CHARS = "!#$&+-.^_`|~"


def _attachment(name: str) -> dict[str, str]:
    """The ``Content-Disposition`` of a download named ``name`` (an upload's file name, a player
    id: any text), per RFC 6266: an ASCII ``filename`` (every other character ``_``) for old
    clients and ``filename*=UTF-8''...`` (percent-encoded) with the name itself.  Control and
    format characters, line and paragraph separators and path separators become ``_`` first:
    nothing from input reaches a header as it was sent."""
    clean = "".join("_" if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") or ch in "/\\" else ch
                    for ch in name)[:200].strip() or "download"
    fallback = "".join(ch if " " <= ch <= "~" and ch not in '"%' else "_" for ch in clean)
    encoded = urllib.parse.quote(clean, safe=_ATTR_CHARS, encoding="utf-8")
    return {"Content-Disposition": f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{encoded}"}


# -- the service -------------------------------------------------------------------------------


def _legal_events(game: Game, state: Any, mid: str, n: int, limit: int, view: str | None) -> LegalEvents:
    """Who may act and the legal events in ``state``, as ``view`` may see them."""
    out = game.outcome(state)
    events, hidden = positions.seen_legal(game, state, game.legal_events(state) if out is None else [], view)
    shown = [LegalEvent(type(e).__name__, game.notation.format(e, state), msgspec.to_builtins(e))
             for e in events[:max(0, limit)]]
    return LegalEvents(mid, n, game.to_act(state), len(events), shown,
                       None if out is None else f"{out.result} {out.winner or ''} ({out.reason})".replace("  ", " "),
                       hidden)


def _result_text(outcome: dict[str, Any] | None) -> str:
    if not outcome:
        return "unfinished"
    if outcome.get("winner"):
        return f"{outcome['winner']} wins by {outcome['reason']}"
    return f"{outcome['result']} ({outcome['reason']})"


def _game_name(game_id: str) -> str:
    try:
        return registry.get(game_id).name
    except UnknownGame:
        return game_id


def shown_source(source: str) -> str:
    """A stored match's source as an answer shows it: the file name only.  The store keeps where a
    log came from (an import's path, a recording's file in ``--recordings DIR``): paths of the
    server's file system, which no answer gives away."""
    return PurePath(source.replace("\\", "/")).name


def _bad(detail: str) -> ClientException:
    return ClientException(detail=detail)


def _too_slow(name: str, seconds: float) -> HTTPException:
    return HTTPException(status_code=503, detail=f"{name}: verification took longer than {seconds:g} s; nothing "
                                                 "stored (import a log this long with `adjudicator store import`)")


class _LRU(OrderedDict):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: Any, value: Any) -> Any:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
        return value

    def find(self, key: Any) -> Any:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value


@dataclass
class WebService:
    """The store behind the API, with small caches (stored matches never change).

    Reads of the store are serialised by ``lock`` (handlers run in worker threads); an upload
    verifies and writes under ``writing`` alone, so reads answer while it verifies.
    """

    store: MatchStore
    max_upload: int = DEFAULT_MAX_UPLOAD
    allow_illegal: bool = True
    version: str = "0"
    #: the token an upload must present (``Authorization: Bearer TOKEN``); None: no uploads
    upload_token: str | None = None
    #: the longest an upload's verification may take, in seconds (then 503, nothing stored)
    upload_seconds: float = DEFAULT_UPLOAD_SECONDS
    lock: threading.RLock = field(default_factory=threading.RLock)
    #: one upload verifies and writes at a time (the store has one writer)
    writing: threading.Lock = field(default_factory=threading.Lock)
    _scenes: _LRU = field(default_factory=lambda: _LRU(512))

    # -- matches -----------------------------------------------------------------------------
    def resolve(self, ref: str) -> str:
        """The stored match ``ref`` names; every request about one match starts here, so the
        match's own pool, board or island (kept by the store) is installed for the rest of the
        request (each request runs in a context of its own: nothing leaks to the next)."""
        try:
            with self.lock:
                mid = self.store.resolve(ref)
                sources.install(self.store.data_sources(mid))
                return mid
        except UnknownMatch:
            raise NotFoundException(detail=f"no stored match {ref!r}") from None
        except AmbiguousMatch as exc:
            raise _bad(str(exc)) from None

    def info(self, m: MatchSummary) -> MatchInfo:
        return MatchInfo(m.match_id, m.game, _game_name(m.game), list(m.players), m.verdict, m.violations,
                         m.events, _result_text(m.outcome), m.outcome, shown_source(m.source), m.chain_head,
                         list(m.data), dict(m.meta))

    # -- who may see what ----------------------------------------------------------------------
    def in_progress(self, mid: str) -> bool:
        """A match still being played: no outcome, and no violation that made it a dispute (an
        illegal log is brought to the judge, its match is over at the violation).  A seat's
        recording stored with "Store now" is one, and its log holds that seat's hidden cards."""
        with self.lock:
            m = self.store.summary(mid)
        return m.outcome is None and m.verdict != "illegal"

    def shown_view(self, request: Request, ref: str, view: str | None, what: str = "") -> str | None:
        """The viewpoint a request about match ``ref`` is answered from: the one asked for (None:
        the judge's), unless the match is in progress and the request lacks the token; then the
        public view (:data:`SPECTATOR`: every seat's hidden cards masked), and a seat's view asked
        for is refused (401; 403 on a service without a token).  Hidden cards of a match being
        played are served only with the authority to see them."""
        mid = self.resolve(ref)
        if authorised(request, self) or not self.in_progress(mid):
            return view or None
        with self.lock:
            players = self.store.summary(mid).players
        if view or SPECTATOR in players:
            require_token(request, self, what or f"as={view}: a seat's view of a match in progress", write=False)
        return SPECTATOR

    def summary(self, ref: str) -> MatchInfo:
        mid = self.resolve(ref)
        with self.lock:
            return self.info(self.store.summary(mid))

    def matches(self, game: str | None, player: str | None, verdict: str | None,
                meta: dict[str, str] | None = None) -> list[MatchInfo]:
        if game:
            try:
                registry.get(game)
            except UnknownGame as exc:
                raise _bad(f"game: {exc}") from None
        with self.lock:
            found = self.store.matches(game or None, meta)
            gone = recording_store.replaced(self.store)  # (a recording stored again: the newer match only)
        return [self.info(m) for m in found if m.match_id not in gone
                and (not player or player in m.players) and (not verdict or m.verdict == verdict)]

    # -- events ------------------------------------------------------------------------------
    def events(self, ref: str, view: str | None = None, first: int = 1, limit: int = DEFAULT_PAGE) -> MatchEvents:
        """One page of log events with their rulings (memory bounded by the page, not the match)."""
        mid = self.resolve(ref)
        if first < 1:
            raise _bad(f"from: {first}; events are numbered from 1")
        if not 1 <= limit <= MAX_PAGE:
            raise _bad(f"limit: {limit}; 1 to {MAX_PAGE}")
        with self.lock:
            info = self.info(self.store.summary(mid))
            violations = [v.seq for v in self.store.violations(mid)]
            total = self.store.length(mid)
            game = registry.get(info.game)
            out: list[EventInfo] = []
            last_turn = 0
            players: list[str] | None = None
            # the position before each event (what the seat knew then), for its record of it
            before = (self.store.state_at(mid, first - 1)[1]  # (a page past the end has no events)
                      if view is not None and 1 < first <= total else None)
            for step in self.store.steps(mid, first, first + limit - 1):
                if players is None and step.state is not None:
                    players = game.players(step.state)
                    if view is not None and view not in players and view != SPECTATOR:
                        raise _bad(f"as: unknown player {view!r} (players: {', '.join(players)})")
                frame = make_frame(game, step.seq, step.line, step.event, step.ruling, step.applied,
                                   step.derived, step.state)
                f = seen_by(game, frame, step.derived, view, before)
                before = step.state if step.state is not None else before
                last_turn = f.turn if step.state is not None else last_turn
                out.append(EventInfo(f.number, f.line, f.type, f.kind, f.text, f.mark, f.verdict, f.rule, f.code,
                                     f.message, list(f.derived), f.turn if step.state is not None else last_turn,
                                     msgspec.to_builtins(f.event), f.condition, f.note))
        if view is not None and players is None:
            raise _bad(f"as: unknown player {view!r} (no position: the engine failed on MatchStarted)")
        end = first + len(out)
        return MatchEvents(info, violations, out, total, first, end if end <= total else None)

    # -- positions ---------------------------------------------------------------------------
    def _where(self, ref: str, at: int | None) -> tuple[str, int, int]:
        mid = self.resolve(ref)
        with self.lock:
            total = self.store.length(mid)
        n = total if at is None else at
        if not 1 <= n <= total:
            raise _bad(f"at: event {n} is outside the match (events 1-{total})")
        return mid, n, total

    def _state(self, mid: str, n: int) -> tuple[Game, Any]:
        with self.lock:
            return self.store.state_at(mid, n)

    def _scene(self, mid: str, n: int, view: str | None) -> tuple[Scene, list[str], int, dict[str, CardText]]:
        key = (mid, n, view)
        with self.lock:
            hit = self._scenes.find(key)
        if hit is not None:
            return hit
        game, state = self._state(mid, n)
        if state is None:
            if view is not None:
                raise _bad(f"as: unknown player {view!r} (no position: the engine failed on MatchStarted)")
            scene = Scene(game=game.id, view=None, status="no position: the engine failed on MatchStarted")
            players, turn, cards = [], 0, {}
        else:
            players = game.players(state)
            if view is not None and view not in players and view != SPECTATOR:
                raise _bad(f"as: unknown player {view!r} (players: {', '.join(players)}; no 'as' is the judge's view)")
            scene, turn = game.scene(state, view), game.turn_number(state)
            cards = {cid: msgspec.convert(info, CardText) for cid, info in card_texts(game, state, scene).items()}
        value = (scene, players, turn, cards)
        with self.lock:
            self._scenes.put(key, value)
        return value

    def position(self, ref: str, at: int | None, view: str | None) -> Position:
        mid, n, total = self._where(ref, at)
        view = view or None
        scene, players, turn, cards = self._scene(mid, n, view)
        if n == 1:
            changes = ["the match starts"]
        else:
            before = self._scene(mid, n - 1, view)[0]
            changes = diff(before, scene)
        touched, mark = self._touched(mid, n, view)
        return Position(mid, n, total, view, players, turn, scene, changes, touched, mark, cards)

    def _touched(self, mid: str, n: int, view: str | None) -> tuple[list[str], str]:
        """What event ``n`` concerns (as ``view`` saw it) and its mark."""
        with self.lock:
            step = next(iter(self.store.steps(mid, n, n)), None)
            game = registry.get(self.store.summary(mid).game)
        if step is None:
            return [], ""
        before = self._state(mid, n - 1)[1] if view and n > 1 else None  # what the seat knew (CL-46)
        ev = game.redact(step.event, view, before)
        return game.touched(ev), make_frame(game, step.seq, step.line, step.event, step.ruling, step.applied,
                                            [], step.state).mark

    def legal(self, ref: str, at: int | None, limit: int, view: str | None = None) -> LegalEvents:
        if view:
            mid, n, game, state = self.settled(ref, at, view)
        else:
            mid, n, _total = self._where(ref, at)
            game, state = self._state(mid, n)
        if state is None:
            return LegalEvents(mid, n, [], 0, [], "no position: the engine failed on MatchStarted")
        return _legal_events(game, state, mid, n, limit, view or None)

    # -- analysis: variations ---------------------------------------------------------------
    def _variation_events(self, game: Game, state: Any, raw: str) -> list[Any]:
        try:
            items = decode_json(raw, "var", max_bytes=MAX_URL) if raw.strip() else []
        except LogError as exc:
            raise _bad(exc.render()) from None
        if not isinstance(items, list) or len(items) > MAX_VARIATION:
            raise _bad(f"var: a JSON list of at most {MAX_VARIATION} events")
        out = []
        setup = game.setup_of(state)
        for i, item in enumerate(items):
            try:
                ev = decode_event(game, msgspec.json.encode(item), f"var[{i}]", None)
                game.validate_refs(setup, ev)
            except LogError as exc:
                raise _bad(exc.render()) from None
            except RefError as exc:
                raise _bad(f"var[{i}]: {exc.field}: {exc.message}") from None
            out.append(ev)
        return out

    def settled(self, ref: str, at: int | None, view: str | None = None) -> tuple[str, int, Game, Any]:
        """The match id, event number, game and position after event ``at``, ``view`` checked."""
        mid, n, _total = self._where(ref, at)
        game, state = self._state(mid, n)
        if state is None:
            raise _bad("no position: the engine failed on MatchStarted")
        if view and view not in game.players(state) and view != SPECTATOR:
            raise _bad(f"as: unknown player {view!r} (players: {', '.join(game.players(state))})")
        return mid, n, game, state

    def variation(self, ref: str, at: int | None, raw: str, view: str | None, limit: int = 200) -> Variation:
        """Rule on each event of a variation from the position after event ``at`` (nothing stored)."""
        mid, n, game, state = self.settled(ref, at, view)
        steps: list[VariationStep] = []
        applied = 0
        for ev in self._variation_events(game, state, raw):
            ruling, derived, new = propose(game, state, ev)
            shown = game.redact(ev, view or None, state)
            steps.append(VariationStep(type(ev).__name__, game.describe_event(shown), ruling.verdict, ruling.rule,
                                       ruling.code, ruling.message, [game.describe_event(game.redact(d, view or None, state))
                                                                     for d in derived], msgspec.to_builtins(shown),
                                       ruling.condition))
            if not ruling.allowed:  # an undetermined event is followed, as verify follows it
                break
            state, applied = new, applied + 1
        legal = _legal_events(game, state, mid, n, limit, view or None)
        return Variation(mid, n, view or None, steps, applied, game.scene(state, view or None), legal)

    def variation_log(self, ref: str, at: int | None, raw: str) -> tuple[str, bytes]:
        """The log up to event ``at`` followed by the variation's legal events (a new match)."""
        mid, n, game, state = self.settled(ref, at)
        with self.lock:
            logged = [e.event for e in self.store.get_log(mid) if e.seq <= n]
            sealed = self.store.summary(mid).chain_head is not None
        kept = []
        for ev in self._variation_events(game, state, raw):
            ruling, _derived, new = propose(game, state, ev)
            if not ruling.allowed:
                break
            # the variation's own numbering and links are the file's, not the sender's
            kept.append(msgspec.structs.replace(ev, seq=None if ev.seq is None else n + len(kept) + 1, prev=None))
            state = new
        enc = msgspec.json.Encoder()
        lines = [enc.encode(e) for e in logged + kept]
        if sealed:  # a sealed match's variation is sealed again: the chain runs on through it
            lines = seal_lines(lines)
        return f"{mid[:8]}-at-{n}-variation.jsonl", b"".join(ln + b"\n" for ln in lines)

    # -- upload ------------------------------------------------------------------------------
    def upload(self, data: bytes, name: str, cancelled: threading.Event | None = None,
               files: list[tuple[str, bytes]] | None = None) -> tuple[UploadResult, int]:
        """Read, verify and store one log; the answer and its HTTP status.

        ``cancelled`` is set when the request ran out of time: the log is then not stored.
        ``files`` are the data files sent with it (file name, bytes): its card pool, board or
        island, found by id like the files of a ``--pools`` directory (and kept by the store).
        """
        docs = []
        for fn, raw in files or []:
            try:
                docs.append((fn, sources.decode_document(raw, fn)))
            except AdjudicatorError as exc:
                raise _bad(f"{name}: {exc}") from None
        # searched like the CLI's: the shipped data, --pools, $ADJUDICATOR_POOLS, the files sent
        # with the upload, then the contents the store keeps (read under the lock)
        with sources.using(sources.current().derive(supplier=self._kept_data, files=docs)):
            return self._upload(data, name, cancelled)

    def _kept_data(self, kind: sources.DataKind[Any], data_id: str) -> list[sources.Candidate]:
        with self.lock:
            return self.store.supply(kind, data_id)

    def _upload(self, data: bytes, name: str, cancelled: threading.Event | None) -> tuple[UploadResult, int]:
        """Read, verify and store without the readers' lock: the store streams the log into one
        transaction of its own (SQLite in WAL mode, a PostgreSQL pool), which reads do not wait
        for; uploads take turns (``writing``), one writer at a time as the store wants."""
        if data.count(b"\n") > MAX_UPLOAD_EVENTS:
            raise HTTPException(status_code=413, detail=f"{name}: more than {MAX_UPLOAD_EVENTS} events in one "
                                                        "upload; import it with `adjudicator store import`")
        try:
            log = parse_log(data, name)
            with self.writing:
                if cancelled is not None and cancelled.is_set():
                    raise _too_slow(name, self.upload_seconds)
                res = self.store.import_log(log, allow_illegal=self.allow_illegal,
                                            proceed=None if cancelled is None else (lambda: not cancelled.is_set()))
        except LogError as exc:
            raise _bad(exc.render()) from None
        except StoreError:
            raise
        except AdjudicatorError as exc:
            raise _bad(f"{name}: {exc}") from None
        if res.status == ABORTED:  # out of time: the store withdrew it, nothing written
            raise _too_slow(name, self.upload_seconds)
        violations = [ViolationInfo(v.seq, v.line, v.rule, v.code, v.message) for v in res.violations]
        status = {STORED: 201, ALREADY_STORED: 200, REFUSED: 422}[res.status]
        url = None if res.status == REFUSED else f"/matches/{res.match_id}"
        return UploadResult(res.match_id, res.status, res.status == STORED, res.verdict, log.game.id,
                            res.events, violations, url), status


# -- the API -----------------------------------------------------------------------------------

def _games() -> list[GameInfo]:
    return [GameInfo(g.id, g.name) for g in registry.games()]


@get("/api/info", sync_to_thread=True, tags=["service"], responses=_errors(503))
def service_info(state: State) -> ServiceInfo:
    """The registered games, the upload size limit and whether illegal uploads are stored."""
    web = _web(state)
    with web.lock:
        count = len(web.store.matches())
    return ServiceInfo(web.version, _games(), web.max_upload, web.allow_illegal, count, web.upload_token is not None)


@get("/api/games", sync_to_thread=False, tags=["service"])
def list_games() -> list[GameInfo]:
    """The registered games."""
    return _games()


@get("/api/matches", sync_to_thread=True, tags=["matches"], responses=_errors(400, 503))
def list_matches(state: State, game: FromQuery[str | None] = None, player: FromQuery[str | None] = None,
                 verdict: FromQuery[Literal["legal", "illegal", "undetermined"] | None] = None,
                 event: FromQuery[str | None] = None, round: FromQuery[str | None] = None,
                 table: FromQuery[str | None] = None, date: FromQuery[str | None] = None,
                 judge: FromQuery[str | None] = None, meta: FromQuery[list[str] | None] = None) -> list[MatchInfo]:
    """The stored matches, in import order: only one game's, one player's, or legal/illegal ones;
    ``event``, ``round``, ``table``, ``date``, ``judge`` and ``meta=KEY=VALUE`` (repeatable) keep
    the matches whose header (``MatchStarted.meta``) says so."""
    try:
        filters = parse_filters(meta or [])
    except ValueError as exc:
        raise _bad(f"meta: {exc}") from None
    for key, value in (("event", event), ("round", round), ("table", table), ("date", date), ("judge", judge)):
        if value:
            filters[key] = value
    return _web(state).matches(game, player, verdict, filters)


@get("/api/matches/{match_id:str}", sync_to_thread=True, tags=["matches"], responses=_errors(400, 404, 503))
def match_summary(state: State, match_id: FromPath[str]) -> MatchInfo:
    """One stored match (``match_id`` is its id or a unique prefix)."""
    return _web(state).summary(match_id)


@get("/api/matches/{match_id:str}/events", sync_to_thread=True, tags=["matches"], responses=_errors(400, 404, 503))
def match_events(
    request: Request, state: State,
    match_id: FromPath[str],
    view: Annotated[str | None, QueryParameter(name="as", description="A player id: the events as that player saw them (default: the judge's, everything).")] = None,
    first: Annotated[int, QueryParameter(name="from", ge=1, description="The first event of the page (1 = MatchStarted).")] = 1,
    limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE, description=f"Events per page (at most {MAX_PAGE}).")] = DEFAULT_PAGE,
) -> MatchEvents:
    """One page of a match's log events with their rulings, marks and the consequences they forced.

    ``next`` is the ``from`` of the following page (None on the last one).
    """
    web = _web(state)
    return web.events(match_id, web.shown_view(request, match_id, view), first, limit)


@get("/api/matches/{match_id:str}/position", sync_to_thread=True, tags=["positions"],
     responses=_errors(400, 404, 503))
def match_position(
    request: Request, state: State, match_id: FromPath[str],
    at: Annotated[int | None, QueryParameter(description="The position after event N (1 = MatchStarted; default: the end).")] = None,
    view: Annotated[str | None, QueryParameter(name="as", description="A player id: that player's view (default: the judge's, everything).")] = None,
) -> Position:
    """The position after event N as a scene from one viewpoint, and what event N changed."""
    web = _web(state)
    return web.position(match_id, at, web.shown_view(request, match_id, view))


@get("/api/matches/{match_id:str}/legal", sync_to_thread=True, tags=["positions"],
     responses=_errors(400, 404, 503))
def match_legal(
    request: Request, state: State, match_id: FromPath[str],
    at: Annotated[int | None, QueryParameter(description="The position after event N (default: the end).")] = None,
    limit: Annotated[int, QueryParameter(ge=0, le=MAX_PAGE, description="List at most this many events (count gives them all).")] = 1000,
    view: Annotated[str | None, QueryParameter(name="as", description="A player id: list only the events that player may see in full (the others are counted in `hidden`).")] = None,
) -> LegalEvents:
    """Who may act after event N, and every legal event there."""
    web = _web(state)
    return web.legal(match_id, at, limit, web.shown_view(request, match_id, view))


@get("/api/matches/{match_id:str}/log", sync_to_thread=True, tags=["matches"], responses=_errors(400, 404, 503))
def match_log(
    request: Request, state: State, match_id: FromPath[str],
    view: Annotated[str | None, QueryParameter(name="as", description="A player id: the log as that player recorded it (what that seat could not see masked).")] = None,
) -> Response[bytes]:
    """The match's log as it was stored (JSON Lines), to download; with ``as``, one seat's record."""
    web = _web(state)
    view = web.shown_view(request, match_id, view)
    mid = web.resolve(match_id)
    with web.lock:
        logged = web.store.get_log(mid)
        info = web.store.summary(mid)
    game = registry.get(info.game)
    if view and view not in info.players and view != SPECTATOR:
        raise _bad(f"as: unknown player {view!r} (players: {', '.join(info.players)})")
    enc = msgspec.json.Encoder()
    if view:  # the seat's record: each event with what the seat knew before it (redact --as)
        from adjudicator.core.kernel.seats import redact_log

        with sources.using(web.store.data_sources(mid)):  # the match's own pool, board or island
            whole = parse_log(b"".join(enc.encode(e.event) + b"\n" for e in logged), info.source or "match.jsonl")
            body = b"".join(enc.encode(e) + b"\n" for e in redact_log(whole, view))
    else:
        body = b"".join(enc.encode(e.event) + b"\n" for e in logged)
    name = PurePath(info.source.replace("\\", "/")).name or "match.jsonl"
    if view:
        name = f"{PurePath(name).stem}-{'public' if view == SPECTATOR else 'as-' + view}.jsonl"
    return Response(body, media_type="application/x-ndjson", headers=_attachment(name))


@get("/api/matches/{match_id:str}/document", sync_to_thread=True, tags=["positions"], responses=_errors(400, 404, 503))
def match_document(
    request: Request, state: State, match_id: FromPath[str],
    at: Annotated[int | None, QueryParameter(description="The position after event N (default: the end).")] = None,
    view: Annotated[str | None, QueryParameter(name="as", description="A player id: that player's view (only the judge's loads back into check/legal).")] = None,
) -> Response[dict[str, Any]]:
    """The position document after event N (``adjudicator state --json``), to download."""
    web = _web(state)
    view = web.shown_view(request, match_id, view)
    mid, n, game, st = web.settled(match_id, at, view)
    doc = positions.document(game, st, player=view or None, at=n)
    return Response(doc, headers=_attachment(f"{mid[:8]}-at-{n}.json"))


@get("/api/matches/{match_id:str}/variation", sync_to_thread=True, tags=["positions"], responses=_errors(400, 404, 503))
def match_variation(
    request: Request, state: State, match_id: FromPath[str],
    at: Annotated[int | None, QueryParameter(description="The variation starts after event N (default: the end).")] = None,
    var: Annotated[str, QueryParameter(description="The events of the variation: a JSON list of log lines.")] = "[]",
    view: Annotated[str | None, QueryParameter(name="as", description="A player id: that player's view of the scene.")] = None,
) -> Variation:
    """The analysis board: rule on events tried from a position (each in turn; nothing is stored)
    and show the position they lead to, with what is legal there."""
    web = _web(state)
    if web.shown_view(request, match_id, view) == SPECTATOR:  # rulings from the judge's position
        require_token(request, web, "the analysis board of a match in progress", write=False)
    return web.variation(match_id, at, var, view)


@get("/api/matches/{match_id:str}/variation.jsonl", sync_to_thread=True, tags=["positions"], responses=_errors(400, 404, 503))
def match_variation_log(
    request: Request, state: State, match_id: FromPath[str],
    at: Annotated[int | None, QueryParameter(description="The variation starts after event N.")] = None,
    var: Annotated[str, QueryParameter(description="The events of the variation: a JSON list of log lines.")] = "[]",
) -> Response[bytes]:
    """The match up to event N followed by the variation's legal events, as a new log to download."""
    web = _web(state)
    if web.shown_view(request, match_id, None) == SPECTATOR:  # the log as recorded, up to event N
        require_token(request, web, "a variation's log of a match in progress", write=False)
    name, body = web.variation_log(match_id, at, var)
    return Response(body, media_type="application/x-ndjson", headers=_attachment(name))


@dataclass
class _UploadOperation(Operation):
    """Documents the raw JSON Lines body (the handler reads it itself to enforce the size limit)."""

    def __post_init__(self) -> None:
        self.request_body = RequestBody(
            required=True, description="A match log: JSON Lines, MatchStarted first.",
            content={"application/x-ndjson": OpenAPIMediaType(schema=Schema(type="string"))})  # type: ignore[arg-type]


def _upload_name(name: str | None) -> str:
    base = PurePath((name or "").replace("\\", "/")).name.strip()
    return (base or "upload.jsonl")[:120]


def _guard_upload(request: Request, web: WebService, fname: str) -> str:
    """Refuse an upload without the token or of a type a cross-site page can send; its media type.

    A page on another origin can only send "simple" requests (``text/plain``, form encodings,
    no ``Authorization`` header) without the service's consent, and this service grants none
    (no CORS headers): requiring the token in a header and an ndjson or multipart body means no
    such request stores anything.
    """
    require_token(request, web, f"{fname}: an upload")
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media not in UPLOAD_TYPES:
        raise HTTPException(status_code=415, detail=f"{fname}: an upload is sent as application/x-ndjson (the log "
                                                    f"as the body) or multipart/form-data (a `log` file), not "
                                                    f"{media or 'without a content type'}; nothing stored")
    return media


async def _read_body(request: Request, limit: int, too_big: HTTPException) -> bytes:
    """The request body, refused as soon as it is larger than ``limit`` (never held whole first)."""
    announced = request.headers.get("content-length")
    if announced is not None and announced.isdigit() and int(announced) > limit:
        raise too_big
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_big
        chunks.append(chunk)
    return b"".join(chunks)


#: multipart fields that carry a data file (a card pool, a board, an island) with the log
DATA_FIELDS = ("pool", "board", "island")


def _multipart_log(request: Request, body: bytes, fname: str) -> tuple[bytes, str, list[tuple[str, bytes]]]:
    """The ``log`` file of a multipart upload (the body is already read and bounded), and the
    data files sent with it (fields ``pool``, ``board``, ``island``: file name and bytes)."""
    import email.parser
    import email.policy

    ctype = request.headers.get("content-type", "")
    msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + ctype.encode("latin-1", "replace") + b"\r\n\r\n" + body)
    if not msg.is_multipart():
        raise _bad(f"{fname}: not a multipart body (no boundary in its content type?)")
    log: tuple[bytes, str] | None = None
    files: list[tuple[str, bytes]] = []
    for part in msg.iter_parts():
        field_name = part.get_param("name", header="content-disposition")
        if field_name in ("log", "file") and log is None:
            log = (part.get_payload(decode=True) or b"", _upload_name(part.get_filename() or fname))
        elif field_name in DATA_FIELDS:
            given = part.get_filename()
            if not given:
                raise _bad(f"{fname}: the `{field_name}` field carries a file with its name (<id>.toml, "
                           f"<id>.json, board-<id>.json): the name says which id it holds")
            if len(files) >= MAX_DATA_FILES:
                raise _bad(f"{fname}: more than {MAX_DATA_FILES} data files in one upload")
            files.append((PurePath(given.replace("\\", "/")).name, part.get_payload(decode=True) or b""))
    if log is None:
        raise _bad(f"{fname}: a multipart upload carries the log as a file field named `log`")
    return log[0], log[1], files


@post("/api/matches", request_max_body_size=None, tags=["matches"],
      responses={200: ResponseSpec(data_container=UploadResult, description="already stored (by content)",
                                   generate_examples=False), **_errors(400, 401, 403, 408, 413, 415, 422, 503)},
      operation_class=_UploadOperation)
async def upload_match(
    request: Request, state: State,
    name: Annotated[str | None, QueryParameter(description="The file name to report errors against.")] = None,
) -> Response[UploadResult]:
    """Upload a match log (the body, JSON Lines): verified, stored, answered with the verdict.

    Only with the service's token (``Authorization: Bearer TOKEN``; no token configured: 403),
    as ``application/x-ndjson`` or ``multipart/form-data`` with a ``log`` file (else 415).
    201 stored (an illegal log too, with its verdict, unless the service refuses illegal logs:
    then 422 and nothing stored); 200 already stored; 400 unreadable (``file:line: field: what``);
    401 no or a wrong token; 408 a body slower than ``serve --body-timeout``; 413 over the size or
    event limit; 503 verification over its time budget or the store unavailable.  Nothing is stored
    on a 4xx or a 503.
    """
    web = _web(state)
    fname = _upload_name(name)
    media = _guard_upload(request, web, fname)
    limit = web.max_upload
    too_big = HTTPException(status_code=413, detail=f"{fname}: the upload is larger than the limit of "
                                                    f"{limit} bytes ({limit / 1_000_000:g} MB); nothing stored")
    data = await _read_body(request, limit, too_big)
    files: list[tuple[str, bytes]] = []
    if media == "multipart/form-data":
        data, fname, files = _multipart_log(request, data, fname)
    cancelled = threading.Event()
    try:
        with anyio.fail_after(web.upload_seconds):
            result, status = await anyio.to_thread.run_sync(web.upload, data, fname, cancelled, files,
                                                            abandon_on_cancel=True)
    except TimeoutError:
        cancelled.set()
        raise _too_slow(fname, web.upload_seconds) from None
    return Response(result, status_code=status)


# -- the pages ---------------------------------------------------------------------------------

def _page(name: str) -> Response[str]:
    return Response((STATIC / name).read_text(encoding="utf-8"), media_type=MediaType.HTML)


@get("/", include_in_schema=False, sync_to_thread=False)
def index_page() -> Response[str]:
    return _page("index.html")


@get("/matches/{match_id:str}", include_in_schema=False, sync_to_thread=False)
def match_page(match_id: FromPath[str]) -> Response[str]:
    return _page("match.html")


#: the static files by name, read once: a request names one of them or gets 404 (never a path to
#: look up: a long or odd name was a 500 from the file system, ENAMETOOLONG)
_STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".html": "text/html; charset=utf-8"}
_STATIC_FILES = {p.name: (p.read_bytes(), _STATIC_TYPES.get(p.suffix, "application/octet-stream"))
                 for p in sorted(STATIC.iterdir()) if p.is_file()}


@get("/static/{name:str}", include_in_schema=False, sync_to_thread=False)
def static_file(name: FromPath[str]) -> Response[bytes]:
    found = _STATIC_FILES.get(name)
    if found is None:
        raise NotFoundException(detail=f"no static file {name[:80]!r}")
    return Response(found[0], media_type=found[1], headers={"Cache-Control": "no-cache"})


# -- the app -----------------------------------------------------------------------------------

def create_app(store: MatchStore, *, max_upload: int = DEFAULT_MAX_UPLOAD, allow_illegal: bool = True,
               upload_token: str | None = None, upload_seconds: float = DEFAULT_UPLOAD_SECONDS,
               body_timeout: float = DEFAULT_BODY_TIMEOUT, debug: bool = False,
               recordings: str | Path | None = None) -> Litestar:
    """The ASGI app over ``store`` (which the caller opens and closes).

    Uploads are accepted only with ``upload_token`` (None, the default: the service is read-only).
    A request body must arrive within ``body_timeout`` seconds (else 408) and a request target
    be at most :data:`MAX_URL` bytes (else 414): :class:`RequestBounds`.  ``recordings``: the directory of
    the matches recorded in the browser (``/record``; default: a new temporary directory).
    """
    registry.games()  # every game plugin loaded now, never inside a request (each import bounded in time)
    try:
        ver = _pkg_version("adjudicator")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        ver = "0"
    web = WebService(store, max_upload=max_upload, allow_illegal=allow_illegal, version=ver,
                     upload_token=upload_token or None, upload_seconds=upload_seconds)
    from .export import match_export  # a match as a self-contained replay file (export.py)
    from .tournament import HANDLERS as tournaments  # stored tournaments (tournament.py)

    app = Litestar(
        route_handlers=[
            service_info, list_games, list_matches, match_summary, match_events, match_position, match_legal, upload_match,
            match_log, match_document, match_variation, match_variation_log, match_export, *tournaments,
            index_page, match_page, static_file, *RECORD_ROUTES,
        ],
        state=State({"web": web, "recordings": Recordings(
            Path(recordings) if recordings is not None else Path(tempfile.mkdtemp(prefix="adjudicator-recordings-")))}),
        openapi_config=OpenAPIConfig(
            title="adjudicator replay service", version=ver, path="/schema", operation_id_creator=operation_id,
            render_plugins=render_plugins(),
            description="Stored matches, their rulings and positions (as scenes); upload of match logs."),
        exception_handlers={AdjudicatorError: _domain_error, Exception: _internal_error},
        middleware=[DefineMiddleware(RequestBounds, body_timeout=body_timeout)],
        request_class=BoundedRequest,
        debug=debug,
    )
    app.asgi_handler = HeadAsGet(app.asgi_handler)  # HEAD wherever GET is (bounds.py)
    return app


from adjudicator.recorder.web import ROUTES as RECORD_ROUTES, Recordings  # noqa: E402  (the new-match page: recorder/web.py)


__all__ = [
    "DEFAULT_BODY_TIMEOUT", "DEFAULT_MAX_UPLOAD", "MAX_URL", "EventInfo", "RequestBounds", "ServiceInfo", "LegalEvents", "MatchEvents", "MatchInfo", "Position", "UploadResult",
    "WebService", "create_app",
]
