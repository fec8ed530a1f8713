"""What every part of the Kolossus rules shares: the ruling namespace, class indices, the die
generators, the derived steps, the rejection helper and names in words, the board of a position."""

from __future__ import annotations

from adjudicator.core.rulings import Illegal

from .board import BOARDS, Board
from .state import CHARACTERS, WARBANDS, State

NS = "kolossus/"
CI = {"warrior": 0, "guardian": 1, "colossus": 2}
RNGS = ("python-random",)
#: steps that the engine derives (nobody acts there)
DERIVED_STEPS = ("round-start", "turn-start", "game-end", "over")


def bad(rule: str, code: str, message: str) -> Illegal:
    return Illegal(rule, NS + code, message)


def title(c: str) -> str:
    return c.capitalize()


#: the classes' names in a sentence (``title`` of each)
TITLES: dict[str, str] = {c: title(c) for c in CHARACTERS}


def wname(w: str) -> str:
    return WARBANDS.get(w, w)


def board_of(s: State) -> Board:
    """The board a position names (``load_board``: called once per check of a move, so without the hop)."""
    return BOARDS.load(s.options.board, s.setup.board_sha256)


