"""Bounds on every size that input controls (documented in docs/log-format.md, "Limits").

A log, a proposed event, a position document or an upload that exceeds one of these is
*unreadable* (exit 2, HTTP 400/413), never a crash, a hang or a memory bomb.  Games bound their
own counts (copies of a card in a deck list, dice rolls) with :func:`count`.
"""

from __future__ import annotations

#: the deepest JSON nesting accepted in a log line, an event or a position document
MAX_DEPTH = 64
#: the longest log line (bytes)
MAX_LINE_BYTES = 1_000_000
#: the most events in one log
MAX_EVENTS = 10_000_000
#: the largest text form of a match (bytes; docs/notation.md): it is read whole
MAX_TEXT_BYTES = 50_000_000
#: judges' rulings (JudgeRuling lines) in one log
MAX_RULINGS = 10_000
#: the most players a match may name (every game seats far fewer; the rules judge the real count)
MAX_PLAYERS = 64
#: the longest name of a card pool, board, island or other data file a log may name
MAX_NAME = 64
#: the largest data file (card pool, board, island), wherever it is read from: a path, a
#: ``--pools`` directory, ``ADJUDICATOR_POOLS``, the store, an upload (bytes)
MAX_DATA_BYTES = 4_000_000
#: a data file's document: the parts of one dotted key or table header (TOML)
MAX_DOTTED_KEY = 16
#: a TOML data file's pieces: keys, values, brackets, commas, dots, strings, comments and lines
#: (a 30 KB pool has about 5,000; so the keys, array items and tables a file may hold are bounded)
MAX_DATA_TOKENS = 100_000
#: a data file's document: the longest string (characters)
MAX_DATA_STRING = 100_000
#: the most data files (pools, boards, islands) one upload may carry
MAX_DATA_FILES = 16
#: the most copies of one card in a deck list, and the most cards a deck list may hold
MAX_COPIES = 10_000
MAX_DECK = 100_000
#: a tournament manifest (TOML or JSON; docs/tournament.md): its bytes and its pieces, sized for
#: the documented 100,000 tables (a table is about 100 bytes and 25 pieces of TOML)
MAX_MANIFEST_BYTES = 20_000_000
MAX_MANIFEST_TOKENS = 4_000_000
#: the largest position document (bytes)
MAX_POSITION_BYTES = 50_000_000
#: the longest position line (characters; docs/notation.md)
MAX_POSITION_LINE = 1_000_000


def depth_error(raw: bytes | str, limit: int = MAX_DEPTH) -> str | None:
    """Why ``raw`` (one JSON text) nests deeper than ``limit``, or None.

    Runs before any decoder (msgspec recurses, and a deep enough text would exhaust the stack).
    Cheap on ordinary input: the depth can only exceed ``limit`` when the text holds more than
    ``limit`` opening brackets, which is counted first.
    """
    data = raw.encode() if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") <= limit:
        return None
    depth = 0
    in_string = False
    escaped = False
    for b in data:
        if in_string:
            if escaped:
                escaped = False
            elif b == 0x5C:  # backslash
                escaped = True
            elif b == 0x22:  # quote
                in_string = False
        elif b == 0x22:
            in_string = True
        elif b == 0x5B or b == 0x7B:  # [ {
            depth += 1
            if depth > limit:
                return f"JSON nested deeper than {limit} levels"
        elif b == 0x5D or b == 0x7D:
            depth -= 1
    return None


def count(value: int, field: str, limit: int) -> str | None:
    """Why a count taken from input is out of bounds (negative or over ``limit``), or None."""
    if value < 0:
        return f"{field}: a negative count ({value})"
    if value > limit:
        return f"{field}: {value} is over the limit of {limit}"
    return None
