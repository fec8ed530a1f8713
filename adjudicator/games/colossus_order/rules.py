"""Colossus Order rules: pure check / apply / derive / legal events.

``check`` raises :class:`Illegal` inside helpers and returns a Ruling; it never mutates.
``apply`` builds a new immutable State; it assumes the event was checked.  The same apply handlers
change the verifier's working position in place (:mod:`.working`): they change a position only
through :func:`~.positions.put`, ``push`` and ``with_player``, which replace a frozen State and set
the fields of the working position (the "pure" of each mixin's docstring: for a frozen State).
``derive`` returns the next consequence the rules force (state-based checks first: the end of
the game, a destroyed follower; then derived steps of the task queue).
``legal_events`` enumerates candidates and keeps those ``check`` accepts, so the two can never
disagree.  No clock, no randomness, no iteration over sets: every order here is a list order.

:class:`Rules` is the kit's rules class put together from one mixin per concern, each in a module
named after it (the package reads in one direction: ``events`` -> ``state`` -> ``cards``/``deck``/
``unknowns`` -> ``positions``/``conditions``/``selections`` -> the mixins -> ``rules`` -> ``game``):

- :mod:`.stats`: a follower's current stats, a player's Gems against a requirement;
- :mod:`.turns`: what the position owes, the set-up, the turn's steps, setting cards, the end;
- :mod:`.targets`: the targets an effect may choose;
- :mod:`.plays`: cards and abilities played, the X-play window and the chain;
- :mod:`.effects`: what a resolving card's effects do, and the reveals and mills they owe;
- :mod:`.combat`: attacks, blocks and battles;
- :mod:`.private`: looks, reorders and moves of hidden cards (CO-41 to CO-43);
- :mod:`.moves`: own cards' moves between zones and looks at face-down Locus cards (CO-46, CO-47);
- :mod:`.unstated`: a seat's record, where a consequence shows a card it leaves unknown;
- :mod:`.derive`: state-based consequences and the derived steps;
- :mod:`.candidates`: the legal events' candidates and who is to act.
"""

from __future__ import annotations

from msgspec.structs import replace

from adjudicator.core.kernel.kit import RulesBase
from adjudicator.core.kernel.notation import name_cards
from adjudicator.core.kernel.rulings import Ruling

from .candidates import Candidates
from .combat import Combat
from .derive import Derive
from .effects import Effects
from .moves import Moves
from .plays import Plays
from .private import Private
from .stats import Stats
from .targets import Targets
from .turns import Turns
from .unstated import Unstated, seat_apply, seat_check_of

# the names other code imports from this module (before the split by concern)
from .conditions import declaration_condition, face_up_condition, hit_condition  # noqa: F401
from .positions import (  # noqa: F401
    NS, available_locus, bad, cannot_go_off, contains_multiset, describe_gems, find_follower, not_ready, pool_of,
    remove_many, with_follower, with_player, without_follower,
)
from .selections import declarations, multiset_combinations  # noqa: F401


class Rules(Stats, Turns, Targets, Plays, Effects, Combat, Private, Moves, Unstated, Derive, Candidates, RulesBase):
    """The Colossus Order rules, bound to nothing but the pool named by each position."""

    namespace = NS

    def in_words(self, s: State, r: Ruling) -> Ruling:
        """A refusal names the pool's cards by their names (a judge reads names, not ids)."""
        said = name_cards(r.message, pool_of(s), s.setup.players)
        return r if said == r.message else replace(r, message=said)


#: the kit's compiled check and its apply dispatch; Rules.check/apply add one step before them:
#: a position waiting for the record to say what an unknown Locus card hit was (CO-39.5)
#: (:func:`~adjudicator.games.colossus_order.unstated.seat_check_of`)
Rules._kit_check = Rules.check  # type: ignore[attr-defined]
Rules._kit_apply = Rules.apply  # type: ignore[attr-defined]
seat_apply.__doc__ = Rules.apply.__doc__
Rules.check = seat_check_of(Rules.check, Rules._checks, Rules._legal)  # type: ignore[method-assign]
Rules.check.__doc__ = Rules._kit_check.__doc__  # type: ignore[attr-defined]
Rules.apply = seat_apply  # type: ignore[method-assign]
