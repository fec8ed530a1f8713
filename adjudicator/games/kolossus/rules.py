"""Kolossus rules: pure check / apply / derive / legal events.

``check`` raises :class:`Illegal` inside helpers and returns a Ruling; it never mutates.
``apply`` assumes the event was checked; its handlers write a working position in place
(:mod:`.working`: one per verification, a State built only where a caller keeps one; ``apply``
itself runs them on a copy of the State it is given and returns a new State).  What a check found
is kept for the apply of the same event (the walk of a move, the skills of an allocation), and
where each miniature stands is kept from one position to the next where apply knows it still
holds (:meth:`.queries.Queries.square_index`): working data keyed by the identity of the event or
of the position's pieces, never a change to a position handed out.
``derive`` returns the next consequence the rules force: first the reports of what a decision
did (a miniature beaten, crystals captured), then a due end of the match, then the derived steps
(a round or a turn starting, the end after the last round).
``legal_events`` enumerates candidates and keeps those ``check`` accepts, so the two can never
disagree.  No clock, no global random source, no iteration over sets: every order here is a list
or board order.  Dice are recorded events; a declared generator is a locally seeded
``random.Random(seed)`` whose sequence is a pure function of the seed.
"""

from __future__ import annotations

from .apply import Apply
from .basics import CI, DERIVED_STEPS, NS, RNGS, bad, board_of, title, wname
from .derive import Derive
from .legal import Legal
from .movement import Walk
from .turns import TurnChecks

__all__ = ["Rules", "Walk", "CI", "DERIVED_STEPS", "NS", "RNGS", "bad", "board_of", "title", "wname"]


class Rules(TurnChecks, Apply, Derive, Legal):
    """The Kolossus rules; positions name their board, so nothing here is bound to a match.

    One class from the parts of the package, each a concern: :mod:`.queries` (the base: what a
    position holds and owes, shared checks), :mod:`.turns` (set-up, dice, Great Quake, turns,
    mana), :mod:`.movement` (a move square by square), :mod:`.titan` (Titan Weapons and Powers),
    :mod:`.apply`, :mod:`.derive` and :mod:`.legal` (candidates and who acts)."""

    namespace = NS
