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
import time
import uuid
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import msgspec
from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.enums import MediaType
from litestar.exceptions import ClientException, NotFoundException
from litestar.params import FromPath, FromQuery, JSONBody

from adjudicator.core.store import recordings as recording_store, tournaments as tournament_store
from adjudicator.core.kernel import registry
from adjudicator.core.services.decklist import deck_list_text, parse_deck_list
from adjudicator.core.kernel.errors import AdjudicatorError, LogError, UnknownGame
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.meta import header_line, meta_of
from adjudicator.core.kernel.notation import Notation, NotationError
from adjudicator.core.kernel.protocol import Game
from adjudicator.recorder.session import RecordSession
from adjudicator.recorder.files import write_atomic
from adjudicator.replays.web.access import require_token
from adjudicator.replays.web.live import publish

#: recordings held in memory at once in one service (each holds its positions); the least recently
#: used one is released for a new one (its file is the record: it is resumed when asked for again)
MAX_RECORDINGS = 200
#: a recording nobody entered anything into for this long is released (seconds)
IDLE_SECONDS = 1800.0
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
    #: player -> deck list as text, one card a line (``3 Grave Rat``): the set-up's ``decks``
    deck_lists: dict[str, str] = {}


class Entry(msgspec.Struct, forbid_unknown_fields=True):
    """One entry: a choice's number, a few words of it, ``undo``, or an event as JSON text."""

    entry: str
    #: "and then…": held open, recorded with the next entry as one (``RecordSession.push``'s ``chain``)
    chain: bool = False
    #: the events the page showed when the entry was made (its choices' numbers are that
    #: position's): an entry made on a position the record has left is refused (:func:`behind`)
    events: int | None = None


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
    #: it ends the match (a resignation, a concession, the winning move): set apart, confirmed
    ends: bool = False


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
    #: the choice one tap (or Enter) records: the pass where passing is legal, the only choice
    default: int | None = None
    #: the events of the entry held open ("and then…"), numbered, in words: recorded with the next pick
    held: list[str] = []
    #: the "and then…" toggle may chain a pick here (not in seat mode, nor once over)
    chain: bool = False
    #: in seat mode, where the seat's view waits on what the table shows: what to pick or type
    #: (the seat rules' ``stated_hint``), shown beside the entry line
    waiting: str = ""


class Recordings:
    """The recordings of one service: the file of each is the record; a bounded number are held
    in memory as sessions (released when stored at the end, when idle, or the least recently used
    one for a new one) and resumed from their files when asked for again."""

    def __init__(self, directory: Path, *, capacity: int = MAX_RECORDINGS, idle: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        #: rid -> session, least recently used first
        self.sessions: dict[str, RecordSession] = {}
        #: rid -> (stored match id, viewer URL) of the sessions held
        self.stored: dict[str, tuple[str, str]] = {}
        self.used: dict[str, float] = {}
        self.capacity, self.idle, self.clock = capacity, idle, clock
        self.lock = threading.Lock()

    def _side(self, rid: str) -> Path:
        """How the recording was started (seat, judge): a resumed one records the same way."""
        return self.dir / f"{rid}.as.json"

    def get(self, rid: str, store: Any = None) -> RecordSession:
        if not _ID.match(rid):
            raise NotFoundException(detail=f"no recording {rid!r}")
        self.sweep()
        s = self.sessions.get(rid)
        if s is None:
            path = self.dir / f"{rid}.jsonl"
            if not path.exists():
                raise NotFoundException(detail=f"no recording {rid!r}")
            side = self._side(rid)
            how = msgspec.json.decode(side.read_bytes()) if side.exists() else {}
            # (a service restarted, or the session was released: the file is the record)
            s = RecordSession.resume(path, seat=how.get("seat"), judge=bool(how.get("judge")))
            self._hold(rid, s)
            mid = recording_store.stored_match(store, rid) if store is not None else None
            if mid is not None:
                self.stored[rid] = (mid, f"/matches/{mid}")
        self._touch(rid)
        return s

    def _touch(self, rid: str) -> None:
        self.sessions[rid] = self.sessions.pop(rid)  # (to the end: the most recently used)
        self.used[rid] = self.clock()

    def release(self, rid: str) -> None:
        """Let the session go (its file stays the record)."""
        self.sessions.pop(rid, None)
        self.stored.pop(rid, None)
        self.used.pop(rid, None)

    def _hold(self, rid: str, s: RecordSession) -> None:
        s.fills_forced = False  # (the page offers a lone choice as its one tap; it fills in passes only)
        self.sweep()
        while len(self.sessions) >= self.capacity:
            self.release(next(iter(self.sessions)))
        self.sessions[rid] = s
        self.used[rid] = self.clock()

    def sweep(self) -> None:
        """Release the sessions idle for :data:`IDLE_SECONDS`."""
        now = self.clock()
        for rid in [r for r, t in self.used.items() if now - t >= self.idle]:
            self.release(rid)

    def new(self, doc: NewRecording) -> tuple[str, RecordSession]:
        try:
            registry.get(doc.game)
        except UnknownGame as exc:
            raise ClientException(detail=f"game: {exc}") from None
        rid = uuid.uuid4().hex
        fields = dict(doc.setup)
        try:
            if doc.deck_lists:
                lists_missing(doc.players, doc.deck_lists)
                fields["decks"] = decks_from_text(registry.get(doc.game), doc.pool, doc.players, doc.deck_lists)
            s = RecordSession.start(self.dir / f"{rid}.jsonl", doc.game, doc.players, pool=doc.pool, options=doc.options,
                                    meta=doc.meta, fields=fields, seat=doc.seat, judge=doc.judge)
        except AdjudicatorError as exc:
            raise ClientException(detail=f"the set-up is refused: {exc}") from None
        if doc.seat is not None or doc.judge:
            write_atomic(self._side(rid), msgspec.json.encode({"seat": doc.seat, "judge": doc.judge}))
        self._hold(rid, s)
        return rid, s


def decks_from_text(game: Game, pool: str | None, players: list[str], texts: dict[str, str]) -> dict[str, Any]:
    """The set-up's ``decks`` from each player's list as text, read as ``record --deck`` reads a
    file (:func:`adjudicator.core.services.decklist.parse_deck_list`: the error names the list and the line)."""
    unknown = sorted(set(texts) - set(players))
    if unknown:
        raise LogError("deck_lists", None, f"{', '.join(unknown)} is not a player of this match")
    return {p: parse_deck_list(texts[p], game, pool, f"{p}'s deck list") for p in players if p in texts}


def lists_missing(players: list[str], texts: dict[str, str]) -> None:
    """A match set up from deck lists as text needs one for every player: the players without
    one, said in the form's words (not as the set-up's missing ``decks`` entry, "no deck list for
    player 'carol'", which reads as if the lists given were lost)."""
    missing = [p for p in players if not texts.get(p, "").strip()]
    if missing:
        raise LogError("deck_lists", None, f"no deck list for {' and '.join(missing)}: type it in the player's box "
                                           "(one card a line: 3 Grave Rat) or pick a registered list")


def _result(s: RecordSession) -> str:
    out = s.record.outcome
    if out is None:
        return "unfinished"
    return f"{out.winner} wins by {out.reason}" if out.winner else f"{out.result} ({out.reason})"


def state_of(rid: str, s: RecordSession, rec: Recordings, message: str = "", ok: bool = True) -> RecordingState:
    if s.irregularity and not message:  # a judge resumed a log that holds one: the ruling comes first
        message, ok = f"the log holds an irregularity at {s.irregularity}", False
    waiting = s.waiting() or ""  # a seat's view waits on what the table shows: how to enter it (its own field)
    choices = s.choices()
    meta = meta_of(s.record.setup)
    stored = rec.stored.get(rid)
    game: Game = s.game
    state = s.view.state
    infos = []
    for c in choices:
        label = c.label if s.seat is not None and c.label.startswith(f"{s.seat}: commit to ") else words(game, c.event, state)
        infos.append(ChoiceInfo(c.number, label, c.random, c.alternatives, msgspec.to_builtins(c.event), game.touched(c.event),
                                ends=not c.random and ends_match(game, state, c.event)))
    for number, c in enumerate(s.enders(), start=len(choices) + 1):  # (the session lists them apart, unnumbered)
        infos.append(ChoiceInfo(number, words(game, c.event, state), False, 1, msgspec.to_builtins(c.event),
                                game.touched(c.event), ends=True))
    return RecordingState(
        rid, game.id, game.name, list(s.record.setup.players), s.seat, s.judge, len(s.record), s.over, s.sealed,
        _result(s), meta, header_line(meta), s.to_act(), bool(choices) and all(c.random for c in choices),
        infos, log_lines(s), s.position_text(), msgspec.to_builtins(s.scene()), message, ok,
        stored[0] if stored else None, stored[1] if stored else None, default_choice(game, infos), *chain_state(s),
        waiting=waiting)


def behind(s: RecordSession, entry: Entry) -> str | None:
    """Why an entry is not recorded when the page that made it showed a position the record has
    left (a second tap before the first one's answer, a second device on the same match): a
    choice's number names a choice of the position shown; None when it is the record's."""
    if entry.events is None or entry.events == len(s.record):
        return None
    return (f"nothing recorded: the record has {len(s.record)} events, the page showed {entry.events} "
            "(entered on a position already left); look at this one and enter again")


def chain_state(s: RecordSession) -> tuple[list[str], bool]:
    """The page's "and then…": the entry held open in words (each in the position it was entered
    in), and whether a pick may be chained here."""
    held = s.holding
    first = len(s.record) - len(held)
    lines = [f"{i}. {words(s.game, e, at)}" for i, e, at in
             zip(range(first + 1, len(s.record) + 1), held, s.record.positions_before(first))]
    return lines, s.chainable() is None


def _enter(s: RecordSession, text: str, chain: bool = False) -> Any:
    """One entry of the page: a number past the choices is a match-ending entry (numbered after
    them by :func:`state_of`), which the page confirmed before sending it: entered and confirmed
    (never chained: refused)."""
    enders, n = s.enders(), len(s.choices())
    if text.strip().isdigit() and n < int(text) <= n + len(enders):
        answer = s.enter(msgspec.json.encode(enders[int(text) - n - 1].event).decode(), chain=chain)
        return s.enter("y") if answer.confirm else answer
    return s.enter(text, chain=chain)


def words(game: Game, event: Any, state: Any = None) -> str:
    """An event as a person reads it: the game's notation (``play Sky Lancer Captain -> F3``)."""
    return game.notation.format(event, state)


def ends_match(game: Game, state: Any, event: Any) -> bool:
    """Does ``event`` end the match (a resignation, a concession, the winning move)?  The page sets
    such choices apart and asks before recording one: one tap must not end and seal a match."""
    try:
        after = game.apply(state, event)
        for _ in range(_DERIVE_LOOKAHEAD):
            if game.outcome(after) is not None:
                return True
            d = game.derive(after)
            if d is None:
                return False
            after = game.apply(after, d)
    except Exception:  # noqa: BLE001 - a legal event the engine cannot look ahead through: not flagged
        return False
    return game.outcome(after) is not None


#: derived events followed to see whether a choice ends the match
_DERIVE_LOOKAHEAD = 32


def default_choice(game: Game, choices: list[ChoiceInfo]) -> int | None:
    """The one-tap entry (Enter in the entry line): the only choice that does not end the match,
    else the pass of whoever acts (the choice whose event type is a pass), else none."""
    open_ = [c for c in choices if not c.ends]
    if len(open_) == 1:
        return open_[0].number
    passes = [c for c in open_ if "pass" in str(c.event.get("type", "")).lower()]
    return passes[0].number if len(passes) == 1 else None


def log_lines(s: RecordSession, last: int | None = 12) -> list[str]:
    """The last ``last`` events of the record (None: all but the set-up), numbered, in the game's
    notation (each in the position it was entered in), with its note."""
    rec = s.record
    evs = rec.events
    entries = rec._entries  # noqa: SLF001 - the position a Recording keeps after each entry
    out: list[str] = []
    end = len(evs)
    # from the last entry back (an entry's lines were entered in the position the one before left),
    # as far as the lines asked for: the cost is the lines shown, not the match
    for j in range(len(entries) - 1, 0, -1):
        n, before = entries[j][0], entries[j - 1][2]
        for i in range(end - 1, end - n - 1, -1):
            e = evs[i]
            out.append(f"{i + 1}. {words(s.game, e, before)}" + (f"  -- {e.note}" if e.note else ""))
        end -= n
        if last is not None and len(out) >= last:
            break
    return out[:last][::-1] if last is not None else out[::-1]


_COMMANDS = ("undo", "u", "note", "rule")


def typed(s: RecordSession, text: str) -> str:
    """An entry typed in the page's words: the choice whose label (the game's notation, as the
    buttons show it) it is or holds every word of, as its number; anything else as typed (a
    number, a command, an event as JSON, or words the session reads itself)."""
    t = text.strip()
    if not t or t.isdigit() or t.startswith("{") or t.split()[0].lower() in _COMMANDS or len(t) > 1000:
        return text
    state = s.view.state
    options = [(words(s.game, c.event, state), str(c.number)) for c in s.choices()]
    try:
        return Notation.pick(t, options)  # type: ignore[arg-type]
    except NotationError:
        return text


def _recordings(state: State) -> Recordings:
    return state.recordings


def _token(request: Request, state: State) -> None:

    require_token(request, state.web, "a recording")


def _get(state: State, rid: str) -> RecordSession:
    web = state.web
    with web.lock:
        return _recordings(state).get(rid, web.store)


def _store(rid: str, s: RecordSession, state: State) -> str:
    """Store the recording's log in the match store (verified, as an upload); its message.  A
    later store of the same recording replaces the match an earlier one made."""
    rec = _recordings(state)
    web = state.web
    with web.lock:
        res = web.store.import_log(read_log(s.path), allow_illegal=True)
        before = recording_store.note_stored(web.store, rid, res.match_id)
    rec.stored[rid] = (res.match_id, f"/matches/{res.match_id}")
    return f"stored as match {res.match_id[:8]} ({res.verdict})" + (f", replacing match {before[:8]}" if before else "")


@get("/api/recordings/{rid:str}", sync_to_thread=True, tags=["recording"])
def recording_state(request: Request, state: State, rid: FromPath[str]) -> RecordingState:
    """Where a recording stands (token required)."""
    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        return state_of(rid, _get(state, rid), rec)


@post("/api/recordings", sync_to_thread=True, tags=["recording"], status_code=201)
def new_recording(request: Request, state: State, data: JSONBody[NewRecording]) -> RecordingState:
    """Start recording a new match (token required)."""
    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        rid, s = rec.new(data)
        publish(state, s, meta_of(s.record.setup))  # a table of a tournament in progress: its live page
        return state_of(rid, s, rec, "the match is started: pick what happens")


@post("/api/recordings/{rid:str}/entries", sync_to_thread=True, tags=["recording"], status_code=200)
def recording_entry(request: Request, state: State, rid: FromPath[str], data: JSONBody[Entry]) -> RecordingState:
    """One entry (token required): refused entries answer with the ruling, nothing recorded.  The
    entry that ends the match stores it (replacing a store made mid-match) and releases the session."""
    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        s = _get(state, rid)
        stale = behind(s, data)
        if stale is not None:
            return state_of(rid, s, rec, stale, False)
        answer = _enter(s, typed(s, data.entry), data.chain)
        if answer.ok:
            publish(state, s, meta_of(s.record.setup))
        message = answer.message
        if answer.ok and s.over:
            message += "; " + _store(rid, s, state)
        out = state_of(rid, s, rec, message, answer.ok)
        if s.over and answer.ok:
            rec.release(rid)
        return out


@post("/api/recordings/{rid:str}/store", sync_to_thread=True, tags=["recording"], status_code=200)
def recording_store_now(request: Request, state: State, rid: FromPath[str]) -> RecordingState:
    """Store the match as recorded so far in the match store (token required): the recording goes
    on; a later store (the match's end) replaces this one."""
    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        s = _get(state, rid)
        out = state_of(rid, s, rec, _store(rid, s, state))
        if s.over:
            rec.release(rid)
        return out


@get("/api/recordings/sample-setup", sync_to_thread=False, tags=["recording"])
def sample_setup(game: FromQuery[str]) -> dict[str, Any]:
    """A legal set-up of ``game`` to start from (players and the game's own fields); a game with
    deck lists gives them as text too (``deck_lists``: player -> one card a line)."""
    try:
        g = registry.get(game)
    except UnknownGame as exc:
        raise ClientException(detail=f"game: {exc}") from None
    setup = g.sample_setup(1)
    doc = msgspec.to_builtins(setup)
    lists = {}
    if g.deck_type is not None and isinstance(getattr(setup, "decks", None), dict):
        lists = {p: deck_list_text(g, msgspec.to_builtins(d), getattr(setup, "pool", None)) for p, d in setup.decks.items()}
    return {"players": doc["players"], "options": doc.get("options", {}), "deck_lists": lists,
            "setup": {k: v for k, v in doc.items() if k not in ("type", "game", "players", "options", *(("decks",) if lists else ()))}}


class RegisteredList(msgspec.Struct):
    """A deck list a player registered for a stored tournament, as the form's text."""

    tournament: str
    player: str
    text: str


@get("/api/recordings/registered-lists", sync_to_thread=True, tags=["recording"])
def registered_lists(request: Request, state: State, game: FromQuery[str]) -> list[RegisteredList]:
    """The deck lists registered for the stored tournaments of ``game`` (``adjudicator tournament
    import``), for the new-match form's picker: tournament, player and the list as text (token
    required: a registered list is what an opponent does not see; the public report leaves them out)."""
    _token(request, state)
    try:
        g = registry.get(game)
    except UnknownGame as exc:
        raise ClientException(detail=f"game: {exc}") from None
    if g.deck_type is None:
        return []
    web = state.web
    out: list[RegisteredList] = []
    with web.lock:
        reports = [tournament_store.report(web.store, t["tournament_id"]) for t in tournament_store.listed(web.store)
                   if t["game"] == g.id]
    for rep in reports:
        pool = rep["tournament"].get("pool")
        for player, counts in sorted(rep.get("registered_decks", {}).items()):
            try:
                text = deck_list_text(g, counts, pool)
            except AdjudicatorError:
                break  # (a pool this service does not hold: no names to show)
            out.append(RegisteredList(rep["tournament"]["name"], player, text))
    return out


@get(["/record", "/record/{rid:str}"], include_in_schema=False, sync_to_thread=False)
def record_page() -> Response[str]:
    return Response((files("adjudicator.replays.web") / "static" / "record.html").read_text(encoding="utf-8"),
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
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.services.reconcile import read_record, reconcile
    from adjudicator.core.kernel.verify import run

    _token(request, state)
    rec = _recordings(state)
    with rec.lock:
        sa, sb = _get(state, a), _get(state, b)
        merged = reconcile(read_record(sa.path), read_record(sb.path))
        verdict, count = None, 0
        if not merged.contradictions:
            log = parse_log(b"".join(line + b"\n" for line in merged.lines), "merged.jsonl")
            verdict, count = run(log).verdict, len(log.events)

        def lines(s: RecordSession) -> list[str]:
            return [f"1. {words(s.game, s.record.events[0])}"] + log_lines(s, None)  # (the set-up, then the rest)

        return SideBySide(a, b, sa.seat, sb.seat, lines(sa), lines(sb),
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
    from adjudicator.core.kernel.verify import propose

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


ROUTES = [sample_setup, registered_lists, recordings_reconcile, match_variations, keep_variation, recording_state, new_recording, recording_entry, recording_store_now, record_page]
