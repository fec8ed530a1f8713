"""What a follower's stats are now and what a player's Gems meet (printed values, boosts, auras, cost
changes; CO-5, CO-37).

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.kernel.events import HIDDEN

from .cards import Aura, Card, COLOURS, CostChange
from .state import Follower, Player, State
from .positions import pool_of


class Stats:
    """What a follower's stats are now and what a player's Gems meet."""

    def stats(self, s: State, owner: Player, f: Follower) -> tuple[int, int, int, int]:
        """Current attack, defence, crush, capture: printed + until-end-of-turn + auras."""
        pool = pool_of(s)
        c = pool[f.card]
        a = (c.attack if f.set_attack is None else f.set_attack) + f.boost[0]  # CO-37: set, then modify
        d = (c.defence if f.set_defence is None else f.set_defence) + f.boost[1]
        cr, ca = c.crush + f.boost[2], c.capture + f.boost[3]
        for g in owner.field:
            if g.handle == f.handle:
                continue
            for ab in pool[g.card].abilities:
                if ab.timing != "continuous":
                    continue
                for fx in ab.effects:
                    if type(fx) is Aura and (fx.race is None or fx.race in c.races):
                        a, d, cr, ca = a + fx.attack, d + fx.defence, cr + fx.crush, ca + fx.capture
        return a, d, cr, ca

    def locus_cost(self, s: State, p: Player, card: Card) -> int:
        cost = card.locus_cost
        if card.is_follower:
            pool = pool_of(s)
            for g in p.field:
                for ab in pool[g.card].abilities:
                    if ab.timing != "continuous":
                        continue
                    for fx in ab.effects:
                        if type(fx) is CostChange and (fx.race is None or fx.race in card.races):
                            cost += fx.delta
        return max(0, cost)

    def gem_counts(self, s: State, p: Player, scope: str) -> dict[str, int]:
        """Gems per colour (a plain dict: every play and Colossus ability asks; a Counter's
        construction and its missing keys are Python calls of their own)."""
        pool = pool_of(s)
        gems = p.set_gems + (p.captured if scope == "colossus-gems" else ())
        counts: dict[str, int] = {}
        for g in gems:
            if g != HIDDEN:  # CO-39.6: unknown gems counted apart
                colour = pool[g].colour
                counts[colour] = counts.get(colour, 0) + 1
        return counts

    def meets(self, counts: Mapping[str, int], req: dict[str, int]) -> bool:
        spare = sum(counts.values())
        for colour in COLOURS:
            n = req.get(colour, 0)
            if counts.get(colour, 0) < n:
                return False
            spare -= n
        return spare >= req.get("any", 0)

    #: per pool object (one per content), never per pool id
    _weakening: dict[Any, bool] = {}
    #: the set-up last asked about, the data sources in effect then, and its pool's answer: the
    #: state-based check asks after every event (the pool's own cache, PoolLoader.of_setup, kept
    #: the same way, without its four calls); the tuple is swapped whole, so threads never see half
    _weak_last: tuple[Any, Any, bool] = (None, None, False)

    def weakening(self, s: State, src: Any) -> bool:
        """Does the pool have a card whose aura lowers Defence, or a follower without Defence?
        (``src``: the data sources in effect, :func:`~adjudicator.core.kernel.sources.current`)"""
        last = self._weak_last
        if last[0] is s.setup and last[1] is src:
            return last[2]
        pool = pool_of(s)
        w = self._weakening.get(pool)
        if w is None:
            w = any(
                (c.is_follower and c.defence <= 0)
                or any(type(fx) is Aura and fx.defence < 0 for ab in c.abilities for fx in ab.effects)
                for c in pool.cards.values()
            )
            self._weakening[pool] = w
        self._weak_last = (s.setup, src, w)
        return w

    def destroyed(self, s: State, owner: Player, f: Follower) -> bool:
        _, d, _, _ = self.stats(s, owner, f)
        if d <= 0:
            return True
        if s.options.destroy_when == "damage-gt-defence":
            return f.damage > d
        return f.damage >= d
