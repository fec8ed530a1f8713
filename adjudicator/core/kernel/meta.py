"""The match header: ``MatchStarted.meta`` (docs/log-format.md, "The match header").

A bounded map of text (event, round, table, date, judge, player names, deck registration ids, or
any key of the organiser's) that says where and when a match was played.  It is never
rule-bearing: no engine reads it, and it changes no verdict.  An old log without it reads and
stores exactly as before (an empty header is not written).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

#: the most keys a header may hold, the longest key and the longest value (characters)
MAX_META_KEYS = 32
MAX_META_KEY = 40
MAX_META_VALUE = 200

#: the keys a header commonly holds, in the order viewers show them (any other key is shown after)
KNOWN_KEYS = ("event", "round", "table", "date", "judge")


def meta_error(meta: Any) -> str | None:
    """Why ``meta`` is not a header within the bounds, or None."""
    if not meta:
        return None
    if len(meta) > MAX_META_KEYS:
        return f"{len(meta)} keys; at most {MAX_META_KEYS}"
    for k, v in meta.items():
        if not k or len(k) > MAX_META_KEY:
            return f"key {k[:60]!r}: a key is 1 to {MAX_META_KEY} characters"
        if len(v) > MAX_META_VALUE:
            return f"{k}: {len(v)} characters; at most {MAX_META_VALUE}"
    return None


def meta_of(setup: Any) -> dict[str, str]:
    """The header of a set-up (MatchStarted), known keys first ({} for a log without one)."""
    meta = getattr(setup, "meta", None) or {}
    return ordered(meta)


def ordered(meta: Mapping[str, str]) -> dict[str, str]:
    known = [k for k in KNOWN_KEYS if k in meta]
    return {k: meta[k] for k in known + sorted(k for k in meta if k not in KNOWN_KEYS)}


def header_line(meta: Mapping[str, str]) -> str:
    """The header in one line (``event: Spring Open; round: 3; table: 12``), '' when empty."""
    return "; ".join(f"{k}: {v}" for k, v in ordered(meta).items())


def parse_filters(items: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` filters (``--meta round=3``); ValueError naming the bad one."""
    out: dict[str, str] = {}
    for item in items:
        k, sep, v = item.partition("=")
        if not sep or not k:
            raise ValueError(f"{item!r}: a header filter is KEY=VALUE (e.g. round=3)")
        out[k] = v
    return out


def matches(meta: Mapping[str, str], filters: Mapping[str, str]) -> bool:
    """Does a header hold every ``KEY=VALUE`` of ``filters`` (exactly)?"""
    return all(meta.get(k) == v for k, v in filters.items())
