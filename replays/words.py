"""Events in the words a player uses, for the recorder's choices (``adjudicator record``, the
browser's new-match page): ``krell: miniature moved b9 -> c10 -> d11``, ``p2: card played
fortitude``.  Game-neutral: built from the event's type and fields, never ``if game == ...``;
a game may give its own wording with a ``words.py`` module in its package (``words(event, state)``,
None to fall back to these words)."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from adjudicator.core.events import ENVELOPE_FIELDS
from adjudicator.core.protocol import Game

#: who acts, written first
ACTORS = ("player", "warband")


def type_words(name: str) -> str:
    """``MiniatureMoved`` -> ``miniature moved``; ``XPlayPassed`` -> ``x-play passed``."""
    name = re.sub(r"^X(?=[A-Z])", "X-", name)
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower()


def value_words(key: str, v: Any) -> str:
    if isinstance(v, list):
        if key == "path" or key.endswith("path"):
            return " -> ".join(map(str, v))
        return "[" + ", ".join(value_words(key, x) for x in v) + "]" if v else "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {value_words(k, x)}" for k, x in v.items()) if v else "none"
    if v is True:
        return key
    if v is None:
        return "?"
    return str(v)


def card_name(game: Game, state: Any, card: Any) -> Any:
    """The name of a card of this match's pool (``Heroic Knight``), else the value as it is."""
    if state is None or not isinstance(card, str):
        return card
    try:
        info = game.card_info(game.setup_of(state), card)
    except Exception:  # noqa: BLE001 - a name is a nicety: the id stands in
        return card
    return info["name"] if info and info.get("name") else card


def event_words(game: Game, event: Any, state: Any = None) -> str:
    """``event`` in words (see the module); ``state``, the position it happens in, lets a game
    name the piece that moves and the cards by their names."""
    part = getattr(game, "part", None)
    own = getattr(part("words"), "words", None) if part is not None else None
    if own is not None:
        text = own(event, state)
        if text:
            return text
    doc = msgspec.to_builtins(event)
    for k in ("card", "cards"):
        if k in doc:
            v = doc[k]
            doc[k] = [card_name(game, state, c) for c in v] if isinstance(v, list) else card_name(game, state, v)
    actor = next((str(doc[a]) for a in ACTORS if isinstance(doc.get(a), str)), None)
    rest = []
    for k, v in doc.items():
        if k == "type" or k in ENVELOPE_FIELDS or (k in ACTORS and str(v) == actor) or v is False:
            continue
        text = value_words(k, v)
        plain = isinstance(v, str) or k in ("path", "card", "cards", "tile", "trait", "value", "dice")
        rest.append(text if plain else f"{k.replace('_', ' ')} {text}" if text != k else text)
    body = " ".join([type_words(type(event).__name__)] + rest)
    return f"{actor}: {body}" if actor else body
