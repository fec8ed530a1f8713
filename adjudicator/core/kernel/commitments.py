"""Commitments: a hidden value recorded as the sha256 of the value and a salt, opened later
(docs/log-format.md, "Commitments").

A commitment to ``value`` with ``salt`` is the lowercase hex sha256 of the UTF-8 text
``<value>:<salt>`` (as LOGOS hidden picks, LG-3.4).  In a field that otherwise names a card it is
written ``sha256:<64 hex digits>`` so that it cannot be mistaken for a card id.  A game keeps the
commitments made in its position (:class:`Committed`), checks each opening with :func:`opens`,
and says which were never opened (``Game.unopened(state)``); ``verify`` lists those beside the
verdict, with the line that made each (the game names the event types that can hold one,
``Game.committing``, and the commitments an event holds, ``Game.commitments_in``): a warning, not a
violation.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Iterable

import msgspec

#: how a commitment is written in a field that otherwise holds a name
PREFIX = "sha256:"
_SHAPE = re.compile(r"sha256:[0-9a-f]{64}")


def digest(value: str, salt: str) -> str:
    """The lowercase hex sha256 of ``<value>:<salt>`` (UTF-8)."""
    return hashlib.sha256(f"{value}:{salt}".encode("utf-8")).hexdigest()


def commitment_of(value: str, salt: str) -> str:
    """The commitment to ``value`` with ``salt`` as a field writes it: ``sha256:<hex>``."""
    return PREFIX + digest(value, salt)


def looks_like(value: Any) -> bool:
    """``value`` is written as a commitment (it starts with ``sha256:``; it may be malformed)."""
    return value.__class__ is str and value.startswith(PREFIX)


def well_formed(value: Any) -> bool:
    """``value`` is ``sha256:`` and 64 lowercase hex digits."""
    return value.__class__ is str and _SHAPE.fullmatch(value) is not None


def opens(commitment: str, value: str, salt: str) -> bool:
    """``value`` and ``salt`` open ``commitment`` (written with or without the prefix)."""
    return commitment.removeprefix(PREFIX) == digest(value, salt)


class Committed(msgspec.Struct, frozen=True, gc=False):
    """A commitment made in a match and not opened yet: who made it, the commitment, what it hides
    ("bob's draw on turn 4") and the values it can open to (empty: the game does not say)."""

    player: str
    commitment: str
    what: str
    possible: tuple[str, ...] = ()


class Unopened(msgspec.Struct, frozen=True):
    """A commitment never opened, as ``verify`` reports it."""

    seq: int
    line: int
    player: str
    commitment: str
    what: str

    def as_dict(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)


def report(made: dict[str, tuple[int, int]], pending: Iterable[Committed]) -> list[Unopened]:
    """The commitments never opened, each with the event number and line that made it (``made``:
    commitment -> (event number, line), as the verifier saw them; (0, 0) if it did not)."""
    return [Unopened(*made.get(c.commitment, (0, 0)), c.player, c.commitment, c.what) for c in pending]
