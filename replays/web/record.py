"""The browser's new-match page (``/record``) and its JSON API (``/api/recordings``): a match
recorded as it is played, on a phone at the table, through the same
:class:`replays.record.RecordSession` as ``adjudicator record``.

Every route needs the service's upload token (``Authorization: Bearer TOKEN``): a recording is a
write, and a seat's recording shows that seat's hidden cards.  Each accepted event is appended to
the recording's log file (``--recordings DIR`` of ``adjudicator serve``) and flushed to disk before
the answer; the match is stored in the match store (verified, as an upload is) when it ends, and
whenever the recorder asks (``POST /api/recordings/ID/store``).
"""

from __future__ import annotations

import re
import threading
import uuid
from pathlib import Path
from typing import Any

import msgspec
from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.enums import MediaType
from litestar.exceptions import ClientException, HTTPException, NotFoundException
from litestar.params import FromPath, FromQuery, JSONBody

from adjudicator.core import registry
from adjudicator.core.errors import AdjudicatorError, UnknownGame
from adjudicator.core.log import read_log
from adjudicator.core.meta import header_line, meta_of
from adjudicator.core.protocol import Game
from adjudicator.replays.record import RecordSession
from .access import require_token

#: recordings open at once in one service (each holds its positions in memory)
MAX_RECORDINGS = 200
_ID = re.compile(r"^[0-9a-f]{32}$")


class NewRecording(msgspec.Struct, forbid_unknown_fields=True):
    """A new match: what ``adjudicator record``'s set-up options say."""

    game: str
    players: list[str]
    pool: str | None = None
    options: dict[str, Any] = {}
    meta: dict[str, str] = {}
    #: the game's own set-up fields (decks, seats, ruleset)
    setup: dict[str, Any] = {}
    #: record one seat's view (``--as``)
    seat: str | None = None
    judge: bool = False


class Entry(msgspec.Struct, forbid_unknown_fields=True):
    """One entry: a choice's number, a few words of it, ``undo``, or an event as JSON text."""

    entry: str


class ChoiceInfo(msgspec.Struct):
    number: int
    label: str
    random: bool
    alternatives: int
    #: the event recorded when it is picked (a seat's own commitment is made when it is picked)
    event: dict[str, Any]
    #: ids of the scene's cells, pieces and cards the event concerns: touching one on the board
    #: keeps the choices that concern it
    touched: list[str] = []


class RecordingState(msgspec.Struct):
    """Where a recording stands, and what can be entered next."""

    id: str
    game: str
    game_name: str
    players: list[str]
    seat: str | None
    judge: bool
    events: int
    over: bool
    sealed: bool
    #: the result in words once over
    result: str
    meta: dict[str, str]
    header: str
    to_act: list[str]
    #: the rules wait for a random outcome: "what happened at the table?"
    random: bool
    choices: list[ChoiceInfo]
    #: the last events of the log, numbered, in words
    log: list[str]
    #: the position as text (the seat's view in seat mode) and as a scene (the viewer's drawing)
    position: str
    scene: dict[str, Any]
    #: the answer to the last entry
    message: str = ""
    ok: bool = True
    #: the stored match, once stored: its id and viewer URL
    match_id: str | None = None
    url: str | None = None


class Recordings:
    """The recordings of one service (in memory, each backed by its log file)."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.sessions: dict[str, RecordSession] = {}
        self.stored: dict[str, tuple[str, str]] = {}
        self.lock = threading.Lock()

    def get(self, rid: str) -> RecordSession:
        if not _ID.match(rid):
            raise NotFoundException(detail=f"no recording {rid!r}")
        s = self.sessions.get(rid)
        if s is None:
            path = self.dir / f"{rid}.jsonl"
            if not path.exists():
                raise NotFoundException(detail=f"no recording {rid!r}")
            s = self._open(rid, RecordSession.resume(path))  # (a service restarted: the file is the record)
        return s

    def _open(self, rid: str, s: RecordSession) -> RecordSession:
        if len(self.sessions) >= MAX_RECORDINGS:
            raise HTTPException(status_code=503, detail=f"{MAX_RECORDINGS} recordings are open: store or finish one first")
        self.sessions[rid] = s
        return s

    def new(self, doc: NewRecording) -> tuple[str, RecordSession]:
        try:
            registry.get(doc.game)
        except UnknownGame as exc:
            raise ClientException(detail=f"game: {exc}") from None
        rid = uuid.uuid4().hex
        try:
            s = RecordSession.start(self.dir / f"{rid}.jsonl", doc.game, doc.players, pool=doc.pool, options=doc.options,
                                    meta=doc.meta, fields=doc.setup, seat=doc.seat, judge=doc.judge)
        except AdjudicatorError as exc:
            raise ClientException(detail=f"the set-up is refused: {exc}") from None
        return rid, self._open(rid, s)


def _result(s: RecordSession) -> str:
    out = s.record.outcome
    if out is None:
        return "unfinished"
    return f"{out.winner} wins by {out.reason}" if out.winner else f"{out.result} ({out.reason})"


def state_of(rid: str, s: RecordSession, rec: Recordings, message: str = "", ok: bool = True) -> RecordingState:
    choices = s.choices()
    meta = meta_of(s.record.setup)
    stored = rec.stored.get(rid)
    game: Game = s.game
    return RecordingState(
        rid, game.id, game.name, list(s.record.setup.players), s.seat, s.judge, len(s.record), s.over, s.sealed,
        _result(s), meta, header_line(meta), s.to_act(), bool(choices) and all(c.random for c in choices),
        [ChoiceInfo(c.number, c.label, c.random, c.alternatives, msgspec.to_builtins(c.event), game.touched(c.event))
         for c in choices],
        s.log_words(), s.position_text(), msgspec.to_builtins(s.scene()), message, ok,
        stored[0] if stored else None, stored[1] if stored else None)


def _recordings(state: State) -> Recordings:
    return state.recordings


def _token(request: Request, state: State) -> None:

    require_token(request, state.web, "a recording")


def _store(rid: str, s: RecordSession, state: State) -> str:
    """Store the recording's log in the match store (verified, as an upload); its message."""
    rec = _recordings(state)
    web = state.web
    with web.lock:
        res = web.store.import_log(read_log(s.path), allow_illegal=True)
    rec.stored[rid] = (res.match_id, f"/matches/{res.match_id}")
    return f"stored as match {res.match_id[:8]} ({res.verdict})"


@get("/api/recordings/{rid:str}", sync_to_thread=True, tags=["recording"])
def recording_state(request: Request, state: State, rid: FromPath[str]) -> RecordingState:
    """Where a recording stands (token required)."""
    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        return state_of(rid, rec.get(rid), rec)


@post("/api/recordings", sync_to_thread=True, tags=["recording"], status_code=201)
def new_recording(request: Request, state: State, data: JSONBody[NewRecording]) -> RecordingState:
    """Start recording a new match (token required)."""
    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        rid, s = rec.new(data)
        return state_of(rid, s, rec, "the match is started: pick what happens")


@post("/api/recordings/{rid:str}/entries", sync_to_thread=True, tags=["recording"], status_code=200)
def recording_entry(request: Request, state: State, rid: FromPath[str], data: JSONBody[Entry]) -> RecordingState:
    """One entry (token required): refused entries answer with the ruling, nothing recorded."""
    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        s = rec.get(rid)
        answer = s.enter(data.entry)
        message = answer.message
        if answer.ok and s.over and rid not in rec.stored:
            message += "; " + _store(rid, s, state)
        return state_of(rid, s, rec, message, answer.ok)


@post("/api/recordings/{rid:str}/store", sync_to_thread=True, tags=["recording"], status_code=200)
def recording_store(request: Request, state: State, rid: FromPath[str]) -> RecordingState:
    """Store the match as recorded so far in the match store (token required)."""
    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        s = rec.get(rid)
        return state_of(rid, s, rec, _store(rid, s, state))


@get("/api/recordings/sample-setup", sync_to_thread=False, tags=["recording"])
def sample_setup(game: FromQuery[str]) -> dict[str, Any]:
    """A legal set-up of ``game`` to start from (players and the game's own fields)."""
    try:
        g = registry.get(game)
    except UnknownGame as exc:
        raise ClientException(detail=f"game: {exc}") from None
    doc = msgspec.to_builtins(g.sample_setup(1))
    return {"players": doc["players"], "options": doc.get("options", {}),
            "setup": {k: v for k, v in doc.items() if k not in ("type", "game", "players", "options")}}


@get(["/record", "/record/{rid:str}"], include_in_schema=False, sync_to_thread=False)
def record_page() -> Response[str]:
    return Response((Path(__file__).parent / "static" / "record.html").read_text(encoding="utf-8"),
                    media_type=MediaType.HTML)


class SideBySide(msgspec.Struct):
    """Two seats' records of one match side by side, and what ``reconcile`` makes of them."""

    a: str
    b: str
    seat_a: str | None
    seat_b: str | None
    #: each record's events, numbered, in words
    lines_a: list[str]
    lines_b: list[str]
    #: where the records disagree (their lines), empty when they make one log
    contradictions: list[dict[str, Any]]
    #: the merged log's verdict and length (None when they contradict each other)
    merged_verdict: str | None
    merged_events: int


@get("/api/recordings/reconcile", sync_to_thread=True, tags=["recording"])
def recordings_reconcile(request: Request, state: State, a: FromQuery[str], b: FromQuery[str]) -> SideBySide:
    """The judge's view of two recordings of one match (token required): both logs side by side
    and ``adjudicator reconcile``'s answer, with the merged log's verdict."""
    from adjudicator.core.log import parse_log
    from adjudicator.core.reconcile import read_record, reconcile
    from adjudicator.core.verify import run
    from adjudicator.replays.words import event_words

    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        sa, sb = rec.get(a), rec.get(b)
        merged = reconcile(read_record(sa.path), read_record(sb.path))
        verdict, count = None, 0
        if not merged.contradictions:
            log = parse_log(b"".join(line + b"\n" for line in merged.lines), "merged.jsonl")
            verdict, count = run(log).verdict, len(log.events)

        def words(s: RecordSession) -> list[str]:
            return [f"{i}. {event_words(s.game, e)}" for i, e in enumerate(s.record.events, start=1)]

        return SideBySide(a, b, sa.seat, sb.seat, words(sa), words(sb),
                          [c.as_dict() for c in merged.contradictions], verdict, count)


# -- variations kept with a stored match (the analysis board's) ---------------------------------------

#: the longest name of a kept variation
MAX_VARIATION_NAME = 100


class KeepVariation(msgspec.Struct, forbid_unknown_fields=True):
    """A variation to keep with a stored match: the events after event ``at``."""

    at: int
    events: list[dict[str, Any]]
    name: str = ""


class StoredVariation(msgspec.Struct):
    number: int
    at: int
    name: str
    events: list[dict[str, Any]]
    #: the viewer at the variation
    url: str


def _stored(mid: str, number: int, at: int, name: str, events: list[dict[str, Any]]) -> StoredVariation:
    from urllib.parse import quote

    var = quote(msgspec.json.encode(events).decode())
    return StoredVariation(number, at, name, events, f"/matches/{mid}?at={at}&var={var}")


@get("/api/matches/{match_id:str}/variations", sync_to_thread=True, tags=["positions"])
def match_variations(state: State, match_id: FromPath[str]) -> list[StoredVariation]:
    """The variations kept with a stored match (the analysis board's), in the order kept."""
    web = state.web
    mid = web.resolve(match_id)
    with web.lock:
        kept = web.store.variations(mid)
    return [_stored(mid, i, v.at, v.name, v.events) for i, v in enumerate(kept, start=1)]


@post("/api/matches/{match_id:str}/variations", sync_to_thread=True, tags=["positions"], status_code=201)
def keep_variation(request: Request, state: State, match_id: FromPath[str], data: JSONBody[KeepVariation]) -> StoredVariation:
    """Keep a variation with a stored match (token required): its events legal in turn after
    event ``at`` are kept (the first illegal one and what follows are not)."""
    from adjudicator.core.verify import propose

    _token(request, state)
    web = state.web
    if len(data.name) > MAX_VARIATION_NAME:
        raise ClientException(detail=f"name: at most {MAX_VARIATION_NAME} characters")
    mid, n, game, pos = web.settled(match_id, data.at)
    kept = []
    for ev in web._variation_events(game, pos, msgspec.json.encode(data.events).decode()):
        ruling, _derived, pos = propose(game, pos, ev)
        if not ruling.allowed:
            break
        kept.append(msgspec.to_builtins(ev))
    if not kept:
        raise ClientException(detail="the variation has no event legal after event " + str(n))
    with web.lock:
        web.store.add_variation(mid, n, data.name, kept)
        number = len(web.store.variations(mid))
    return _stored(mid, number, n, data.name, kept)


ROUTES = [sample_setup, recordings_reconcile, match_variations, keep_variation, recording_state, new_recording, recording_entry, recording_store, record_page]
