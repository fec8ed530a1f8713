"""What every part of the Kolossus rules shares: the ruling namespace, class indices, the die
generators, the derived steps, the rejection helper and names in words, the board of a position."""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.rulings import Illegal
from adjudicator.core.kernel.sources import current

from .board import BOARDS, Board
from .state import CHARACTERS, WARBANDS, State

NS = "kolossus/"
CI = {"warrior": 0, "guardian": 1, "colossus": 2}
RNGS = ("python-random",)
#: steps that the engine derives (nobody acts there)
DERIVED_STEPS = ("round-start", "turn-start", "game-end", "over")
#: the steps whose event the engine derives (``over``: none; derive and the fold's advance read it)
DERIVING = ("turn-start", "round-start", "game-end")


def bad(rule: str, code: str, message: str) -> Illegal:
    return Illegal(rule, NS + code, message)


def title(c: str) -> str:
    return c.capitalize()


#: the classes' names in a sentence (``title`` of each)
TITLES: dict[str, str] = {c: title(c) for c in CHARACTERS}


def wname(w: str) -> str:
    return WARBANDS.get(w, w)


def board_of(s: State) -> Board:
    """The board a position names (``load_board``), found again at once for the position's set-up
    and options in the same sources (each check of a move asks)."""
    src = current()
    last = _LAST[0]
    if last is not None and last[0] is s.setup and last[1] is s.options and last[2] is src:
        return last[3]
    b = BOARDS.load(s.options.board, s.setup.board_sha256)
    _LAST[0] = (s.setup, s.options, src, b)  # (one assignment: threads see this entry or the last)
    return b


#: the last (set-up, options, sources, board) board_of found
_LAST: list[tuple[Any, Any, Any, Board] | None] = [None]
