"""Position documents: a settled position as JSON, accepted back by ``check``/``legal --position``.

``{"format": "adjudicator.position/1", "game": "<id>", "view": "judge" | "<player>",
   "at": <event number or null>, "to_act": [...], "state": {...}}``

Only the judge's view can be loaded back: a player's view hides information the rules need.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from . import registry
from .errors import AdjudicatorError, LogError, UnknownGame
from .limits import MAX_PLAYERS, MAX_POSITION_BYTES, MAX_POSITION_LINE
from .log import decode_json
from .protocol import Game, RefError

FORMAT = "adjudicator.position/1"


def document(game: Game, state: Any, *, player: str | None = None, at: int | None = None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": game.id,
        "view": player or "judge",
        "at": at,
        "to_act": game.to_act(state),
        "state": game.view(state, player),
    }


def load(path: str | Path) -> tuple[Game, Any]:
    p = str(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_POSITION_BYTES + 1)
    except OSError as exc:
        raise LogError(p, None, f"cannot read position file ({exc.strerror})") from None
    return from_bytes(raw, p)


def from_bytes(raw: bytes, path: str = "<position>") -> tuple[Game, Any]:
    """A position document from its bytes: strict UTF-8 JSON, bounded in size and depth; or a
    position line (a game's notation, FEN's idea: :func:`from_line`), sniffed by content."""
    if len(raw) > MAX_POSITION_BYTES:
        raise LogError(path, None, f"a position document is at most {MAX_POSITION_BYTES} bytes")
    head = raw.lstrip()[:1]
    if head and head != b"{":
        try:
            return from_line(raw.decode("utf-8"), path)
        except UnicodeDecodeError as exc:
            raise LogError(path, None, f"not valid UTF-8 (byte {exc.start}: {exc.reason})") from None
    return from_document(decode_json(raw, path, None, MAX_POSITION_BYTES), path)



def from_line(text: str, path: str = "--position-text") -> tuple[Game, Any]:
    """A position in one line (``game.notation.format_position``): the registered game whose
    notation reads it (exactly one must), checked as a position document is (its invariants, a
    trial use).  :class:`LogError` saying what each game's notation could not read."""
    from .notation import NotationError

    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) != 1:
        raise LogError(path, None, f"a position line is one line of text, not {len(lines)}")
    line = lines[0].strip()
    if len(line) > MAX_POSITION_LINE:
        raise LogError(path, None, f"a position line is at most {MAX_POSITION_LINE} characters")
    found: list[tuple[Game, Any]] = []
    why: list[str] = []
    for game in registry.games():
        try:
            found.append((game, game.notation.parse_position(line)))
        except NotationError as exc:
            why.append(f"{game.id}: {exc.reason}")
        except Exception as exc:  # noqa: BLE001 - one game's defect is no answer for the others
            why.append(f"{game.id}: {type(exc).__name__}")
    if not found:
        raise LogError(path, 1, "no game reads this position line (" + "; ".join(why) + ")")
    if len(found) > 1:
        raise LogError(path, 1, f"the position line reads as a position of {', '.join(g.id for g, _ in found)}")
    game, state = found[0]
    broken = game.invariants(state)
    if broken:
        where, reason = broken[0]
        raise LogError(path, 1, reason, where or None)
    _trial(game, state, path)
    return game, state


def from_document(doc: Any, path: str = "<position>") -> tuple[Game, Any]:
    if not isinstance(doc, dict):
        raise LogError(path, None, "a position document must be a JSON object")
    if doc.get("format") != FORMAT:
        raise LogError(path, None, f"expected {FORMAT!r}, got {doc.get('format')!r}", "format")
    if doc.get("view", "judge") != "judge":
        raise LogError(path, None, f"this is {doc.get('view')!r}'s view, which hides information; "
                       "check and legal need the judge's view (state --json without --as)", "view")
    try:
        game = registry.get(str(doc.get("game")))
    except UnknownGame as exc:
        raise LogError(path, None, str(exc), "game") from None
    st = doc.get("state")
    players = st.get("setup", {}).get("players") if isinstance(st, dict) and isinstance(st.get("setup"), dict) else None
    if isinstance(players, list) and len(players) > MAX_PLAYERS:
        raise LogError(path, None, f"{len(players)} players; at most {MAX_PLAYERS}", "state.setup.players")
    try:
        state = game.load_state(st)
    except msgspec.ValidationError as exc:
        text = str(exc)
        field = None
        if " - at `$" in text:
            text, _, fp = text.partition(" - at `$")
            field = "state" + fp.rstrip("`")
        raise LogError(path, None, text, field or "state") from None
    except RefError as exc:
        raise LogError(path, None, exc.message, f"state.setup.{exc.field}") from None
    except AdjudicatorError as exc:  # a data file the set-up names (pool, board) cannot be used
        raise LogError(path, None, _no_paths(str(exc)), "state.setup") from None
    try:
        setup = game.setup_of(state)
        game.validate_refs(setup, setup)  # the set-up as strictly as a log's first line
    except RefError as exc:
        raise LogError(path, None, exc.message, f"state.setup.{exc.field}") from None
    broken = game.invariants(state)
    if broken:
        where, why = broken[0]
        more = f" (and {len(broken) - 1} more)" if len(broken) > 1 else ""
        raise LogError(path, None, f"{why}{more}", f"state.{where}" if where else "state")
    _trial(game, state, path)
    return game, state


def _trial(game: Game, state: Any, path: str) -> None:
    """Use the position once as the commands will (settle, views, legal events, rulings): a
    position the invariants let through but the engine cannot use is refused here, with exit
    code 2, rather than failing later inside a rule (the invariants name fields; this does not)."""
    from .verify import propose, settle

    try:
        st, _ = settle(game, state)
        for p in [None, *game.players(st)]:
            game.view(st, p)
            game.describe(st, p)
            game.scene(st, p)
        for ev in game.legal_events(st)[:8]:
            propose(game, st, ev)
    except AdjudicatorError:
        raise
    except Exception as exc:  # noqa: BLE001 - reported as unreadable input, with where it failed
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = "" if tb is None else f" in {Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}"
        raise LogError(path, None, f"the position is inconsistent: the engine cannot use it ({type(exc).__name__}"
                       f"{where}); if it is a real position, please report it", "state") from None


def _no_paths(message: str) -> str:
    """A data error without the installed data path (``/site-packages/.../data/x.toml: ...``)."""
    head, sep, tail = message.partition(": ")
    return tail if sep and ("/" in head or "\\" in head) else message


def seen_legal(game: Game, state: Any, events: list[Any], player: str | None) -> tuple[list[Any], int]:
    """The legal ``events`` ``player`` may be shown, and how many others there are.

    The judge (None) is shown every event.  A seat is shown its own events, and another seat's
    only when everything they name is in what that seat observes: the random outcomes naming
    cards hidden from it (an opponent's possible draws name the cards of a deck) and an opponent's
    possible plays from a hidden hand would tell it what it cannot see, so they are only counted;
    so are another seat's events of the types ``game.listed_by_hidden`` names.
    """
    if player is None:
        return events, 0
    observed = game.observe(state, player)
    if observed is state:  # nothing hidden from this seat (a game of open information)
        return events, 0
    visible: set[str] | None = None
    seen = []
    for e in events:
        if game.redact(e, player, state) != e:
            continue
        if getattr(e, "player", player) != player:
            if type(e) in game.listed_by_hidden:  # which alternatives are listed would tell hidden cards
                continue
            if visible is None:
                visible = strings_in(msgspec.to_builtins(observed))
            if not strings_in(list(msgspec.to_builtins(e).values())) <= visible | {type(e).__name__}:
                continue
        seen.append(e)
    return seen, len(events) - len(seen)


def strings_in(data: Any) -> set[str]:
    """Every string in JSON-ready data (dict keys too)."""
    out: set[str] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            stack.extend(x)
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out


def grouped(game: Game, events: list[Any]) -> list[tuple[Any, int]]:
    """One event per ``game.legal_group`` key (the first listed, with how many share it): how
    ``adjudicator legal`` and ``adjudicator record`` list the legal events."""
    out: list[tuple[Any, int]] = []
    where: dict[str, int] = {}
    for e in events:
        key = game.legal_group(e)
        if key is None:
            out.append((e, 1))
        elif key in where:
            first, n = out[where[key]]
            out[where[key]] = (first, n + 1)
        else:
            where[key] = len(out)
            out.append((e, 1))
    return out
