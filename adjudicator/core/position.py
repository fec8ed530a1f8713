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
from .errors import LogError, UnknownGame
from .protocol import Game

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
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise LogError(p, None, f"cannot read position file ({exc.strerror})") from None
    try:
        doc = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise LogError(p, None, f"not valid JSON ({exc})") from None
    return from_document(doc, p)


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
    try:
        state = game.load_state(doc.get("state"))
    except msgspec.ValidationError as exc:
        text = str(exc)
        field = None
        if " - at `$" in text:
            text, _, fp = text.partition(" - at `$")
            field = "state" + fp.rstrip("`")
        raise LogError(path, None, text, field or "state") from None
    return game, state
