"""What the cards, tiles and Traits do, in one place for readers and tests: the card effects
(:mod:`card_effects`), the tiles' scoring effects (:mod:`tile_effects`), the registries of both
(:mod:`effect_kinds`) and the housekeeping on the head task (:mod:`settle`).  Importing this module
fills both registries.
"""

from __future__ import annotations

from .card_effects import after_card, place_each, play_card
from .effect_kinds import CARD_EFFECTS, TILE_EFFECTS, Effect, Params, card_effect, tile_effect
from .settle import CHOICE_TASKS, WAITING, settle_task
from .tile_effects import environment, kill_around, land, lift, swap_spaces, wind

__all__ = ["CARD_EFFECTS", "CHOICE_TASKS", "TILE_EFFECTS", "WAITING", "Effect", "Params", "after_card", "card_effect",
           "environment", "kill_around", "land", "lift", "place_each", "play_card", "settle_task", "swap_spaces",
           "tile_effect", "wind"]
