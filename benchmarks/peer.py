"""The peer to beat: python-chess parsing and validating PGN (``chess.pgn.read_game``).

A corpus of random legal games is generated once with a seeded generator (python-chess's own
move generation), written as PGN, and each timed pass reads it back with ``read_game``, which
parses every move and checks it is legal in its position: the peer of ``adjudicator verify``.
Its figure is moves per second; our verify passes run interleaved with its passes in the same
process, so machine noise hits both alike, and the ratio is what is reported.
"""

from __future__ import annotations

import io
import random
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class PeerPass:
    moves: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


def available() -> bool:
    try:
        import chess.pgn  # noqa: F401
    except ImportError:
        return False
    return True


def corpus(games: int = 300, max_plies: int = 150, seed: int = 1) -> str:
    """``games`` random legal games of up to ``max_plies`` plies, as one PGN text."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = io.StringIO()
    for i in range(games):
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["Event"] = f"random {i}"
        node = game
        for _ in range(max_plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            mv = rng.choice(moves)
            node = node.add_variation(mv)
            board.push(mv)
        game.headers["Result"] = board.result(claim_draw=False) if board.is_game_over() else "*"
        print(game, file=out, end="\n\n")
    return out.getvalue()


def read_pass(pgn: str) -> PeerPass:
    """Parse and validate every game of ``pgn`` (python-chess checks each move's legality)."""
    import chess.pgn

    stream = io.StringIO(pgn)
    moves = 0
    t0 = time.perf_counter()
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        if game.errors:
            raise ValueError(f"python-chess rejected a generated game: {game.errors[0]}")
        moves += sum(1 for _ in game.mainline_moves())
    return PeerPass(moves, time.perf_counter() - t0)
