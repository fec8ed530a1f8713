"""adjudicator: an event-sourced rules adjudicator and replay service.

The game-agnostic kernel lives in :mod:`adjudicator.core`; each game is a package under
:mod:`adjudicator.games` that registers itself with :mod:`adjudicator.core.registry`.
"""

__version__ = "0.1.0"
