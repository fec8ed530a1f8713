"""The set-up in words, the game-neutral pieces (issue 30): what a game's ``MatchStarted``
notation (``start ann vs ben | ann: 3 Iron Golem, 2 Spark Wisp | ...``: Colossus Order's and
LOGOS's ``setup_words.py``) is cut with, and the guard that writes the words only where they read
back as the very set-up.

Names may hold the separators (``★Nerissa, Voice of the Tides★``, a player ``"x: y"``): a part
is cut outside quoted texts only, and a deck list's part that does not start with a count
belongs to the card name before it.  Every cut is one pass over the text (a long deck list is
never read quadratically) and bounded in parts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec

from .notation import NotationError

__all__ = ["checked", "counted", "cut", "split"]

#: the most parts one cut gives (players, decks, a deck's cards)
MAX_PARTS = 10_000
_QUOTED = r'"(?:[^"\\]|\\.)*"'
#: a deck list's part that starts a card: a count (``3 Grave Rat``, ``3x grave-rat``)
_COUNT = re.compile(r"\d{1,9}\s*[xX×]?\s+\S")


def split(text: str, sep: str) -> list[str]:
    """``text`` cut at every ``sep`` outside quoted texts, each part stripped (one pass)."""
    parts, start = [], 0
    for m in re.finditer(_QUOTED + "|" + re.escape(sep), text):
        if m.group() == sep:
            parts.append(text[start:m.start()].strip())
            start = m.end()
            if len(parts) >= MAX_PARTS:
                raise NotationError(text[:80], f"more than {MAX_PARTS} parts in one text")
    parts.append(text[start:].strip())
    return parts


def cut(text: str, sep: str) -> tuple[str, str, str]:
    """``text.partition(sep)`` at the first ``sep`` outside quoted texts."""
    for m in re.finditer(_QUOTED + "|" + re.escape(sep), text):
        if m.group() == sep:
            return text[:m.start()], sep, text[m.end():]
    return text, "", ""


def counted(text: str) -> list[str]:
    """``3 Grave Rat, 2 ★Nerissa, Voice of the Tides★`` as deck lines (``3 Grave Rat``, ...): a
    part that does not start with a count belongs to the name before it."""
    out: list[str] = []
    for part in split(text, ", "):
        if _COUNT.match(part) or not out:
            out.append(part)
        else:
            out[-1] += ", " + part
    return out


def checked(setup: Any, words: Callable[[], str], parse: Callable[[str], Any], fallback: Callable[[], str]) -> str:
    """``words()`` where :func:`parse` reads it back as the very ``setup`` (the same JSON), else
    ``fallback()`` (a game's ids' form, which its parse reads too)."""
    try:
        text = words()
        back = parse(text)
        if back is not None and msgspec.json.encode(back) == msgspec.json.encode(setup):
            return text
    except (NotationError, msgspec.ValidationError, ValueError):
        pass
    return fallback()
