"""adjudicator: an event-sourced rules adjudicator and replay service.

The public Python API (see ``docs/api.md``)::

    import adjudicator
    match = adjudicator.read_log("match.jsonl")     # a Match; LogError if unreadable
    verdict = match.verify()                         # .verdict, .violations, .outcome
    pos = match.position(at=120)                     # a Position after event 120
    pos.legal_events(); pos.is_legal(ev); pos.after(ev); pos.view("bob"); pos.scene("bob")

The game-agnostic kernel lives in :mod:`adjudicator.core`; each game is a package under
:mod:`adjudicator.games` that registers itself with :mod:`adjudicator.core.kernel.registry`.
"""

__version__ = "0.1.0"

from .api import (  # noqa: E402
    IllegalEvent, Match, Position, Proposal, Verdict, event, game, game_ids, load_position, parse,
    position_text, read_log,
)
from .build import Recording  # noqa: E402  (Match.new's recording: adjudicator.build)
from .core.kernel.errors import AdjudicatorError, LogError, UnknownGame  # noqa: E402
from .core.kernel.rulings import Ruling  # noqa: E402

__all__ = [
    "AdjudicatorError", "IllegalEvent", "LogError", "Match", "Position", "Proposal", "Recording", "Ruling",
    "UnknownGame", "Verdict", "event", "game", "game_ids", "load_position", "parse", "position_text", "read_log",
]
