"""Weights for random playouts (tests, benchmarks, examples): nudge random play toward Gold.

Random legal play wanders; these weights make it raise Banners, rest when Banners are out, play
cards, and rarely throw things away, so most generated matches reach the Gold target.
"""

from __future__ import annotations

from typing import Any

from . import engine as Q
from . import events as E
from .state import Actions, Deploy


def weight(s: Any, e: Any) -> float:
    t = type(e)
    if t is E.ActionsEnded:
        return 0.05 if s.info.actions > 0 else 3.0
    if t is E.Moved:
        return 1.0 if not e.road else 0.6
    if t is E.AcolyteSpawned:
        return 3.0
    if t is E.CardPlayed:
        return 4.0
    if t in (E.Alchemized, E.TraitDiscarded):
        return 0.02
    if t in (E.ActionBought, E.CardBought):
        return 0.1
    if t is E.BannerPhaseChosen:
        out = Q.banners_in_play(s, e.player)
        if e.choice == "rest":
            return 0.2 + out * 1.5
        return 3.0
    if t is E.BannerRaised:
        return 8.0
    if t is E.BannerMoved:
        return 0.1
    if t is E.Passed:
        h = s.todo[0] if s.todo else None
        if type(h) is Deploy:
            return 0.5
        return 1.0
    if t is E.BannerScored:
        return 0.3 if e.keep else 1.0
    if t is E.Moved and isinstance(s.todo[0], Actions):
        return 1.0
    return 1.0
