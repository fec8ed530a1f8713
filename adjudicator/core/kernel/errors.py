"""Errors for input the adjudicator cannot read.

Illegal play is never an error: it is a :class:`~adjudicator.core.kernel.rulings.Ruling`.  These
exceptions are for input that cannot be read at all (bad JSON, unknown event type, wrong field
type, unknown card or player, a gap in ``seq``): they carry the file, the line and the field so
the CLI can print ``file:line: field: what is wrong`` and exit 2.
"""

from __future__ import annotations


class AdjudicatorError(Exception):
    """Base class of every error the adjudicator raises on purpose."""


class LogError(AdjudicatorError):
    """A log (or a single event, or a position file) that cannot be read."""

    def __init__(self, path: str, line: int | None, message: str, field: str | None = None):
        self.path = path
        self.line = line
        self.field = field
        self.reason = message
        super().__init__(self.render())

    def render(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        what = self.reason if not self.field else f"{self.field}: {self.reason}"
        return f"{where}: {what}"


class UnknownGame(AdjudicatorError):
    def __init__(self, game: str, known: list[str]):
        self.game = game
        super().__init__(f"unknown game {game!r} (registered: {', '.join(known) or 'none'})")


class DataError(AdjudicatorError):
    """A game data file (card pool, board) that cannot be read."""

    def __init__(self, path: str, message: str):
        self.path = path
        self.reason = message
        super().__init__(f"{path}: {message}")
