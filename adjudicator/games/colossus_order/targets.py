"""The targets an effect may choose, and why one cannot be chosen (CO-6.3, CO-6.5, CO-8.7).

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from adjudicator.core.kernel.rulings import Illegal

from .cards import ATTACKER_TARGETS, CHOSEN_TARGETS, FlipLocus, LOCUS_TARGETS, Only
from .state import State
from .positions import bad, find_follower, named, pool_of

#: the target kinds an event's ``targets`` names, one entry each (built once, not per effect)
_PICKED = frozenset(CHOSEN_TARGETS + LOCUS_TARGETS)


class Targets:
    """The targets an effect may choose, and why one cannot be chosen."""

    def kind_candidates(self, s: State, controller: str, kind: str) -> list[str]:
        """The followers (handles) or Locus slots (``L<id>``) of a target kind, unfiltered."""
        me, opp = s.player(controller), s.opponent(controller)
        if kind == "chosen-follower":
            return [f.handle for f in s.players[0].field] + [f.handle for f in s.players[1].field]
        if kind == "chosen-opponent-follower":
            return [f.handle for f in opp.field]
        if kind == "chosen-own-follower":
            return [f.handle for f in me.field]
        if kind in LOCUS_TARGETS:
            return [f"L{sl.id}" for sl in (me if kind == "chosen-own-locus" else opp).locus]
        return []

    def target_candidates(self, s: State, controller: str, fx: Any) -> list[str]:
        """The targets ``fx`` may choose now: of its kind, meeting its conditions (CO-6.5) or, for
        a Locus slot, with the other face up (CO-8.7)."""
        out = self.kind_candidates(s, controller, fx.target)
        if type(fx) is FlipLocus:
            owner = s.player(controller) if fx.target == "chosen-own-locus" else s.opponent(controller)
            up = {f"L{sl.id}": sl.face_up for sl in owner.locus}
            return [t for t in out if up[t] == (fx.to == "down")]
        only = getattr(fx, "only", None)
        if only is not None:
            return [h for h in out if self.unmet(s, h, only) is None]
        return out

    def unmet(self, s: State, handle: str, only: Only) -> str | None:
        """Why the follower ``handle`` does not meet ``only`` (CO-6.5), or None."""
        found = find_follower(s, handle)
        if found is None:
            return None
        p, _, f = found
        card = pool_of(s)[f.card]
        a, d, _, _ = self.stats(s, p, f)
        if only.max_attack is not None and a > only.max_attack:
            return f"{named(s, f)} has attack {a}; the effect needs attack {only.max_attack} or less"
        if only.max_defence is not None and d > only.max_defence:
            return f"{named(s, f)} has defence {d}; the effect needs defence {only.max_defence} or less"
        if only.max_locus_cost is not None and card.locus_cost > only.max_locus_cost:
            return f"{named(s, f)} has locus cost {card.locus_cost}; the effect needs {only.max_locus_cost} or less"
        if only.race is not None and only.race not in card.races:
            return f"{named(s, f)} is not a {only.race}"
        return None

    def bad_target(self, s: State, controller: str, fx: Any, t: str, what: str) -> Illegal:
        kind = fx.target
        if t in self.kind_candidates(s, controller, kind):
            if type(fx) is FlipLocus:
                face = "down" if fx.to == "up" else "up"
                return bad("CO-8.7", f"already-face-{fx.to}", f"{what}: Locus slot {t} is already face {fx.to}; "
                                                              f"the effect turns a face-{face} Locus card face {fx.to}")
            return bad("CO-6.5", "condition-unmet", f"{what}: {self.unmet(s, t, fx.only)}")
        if kind in LOCUS_TARGETS:
            whose = "own" if kind == "chosen-own-locus" else "opponent's"
            return bad("CO-6.3", "bad-target", f"{what}: target {t!r} is not one of the {whose} Locus slots "
                                               f"{self.kind_candidates(s, controller, kind)}")
        return bad("CO-6.3", "bad-target", f"{what}: target {t!r} is not a {kind.removeprefix('chosen-').replace('-', ' ')} on the field")

    def check_targets(self, s: State, controller: str, effects: list[Any], targets: list[str], what: str) -> None:
        picks = self.chosen_effects(effects)
        if len(targets) != len(picks):
            kinds = [fx.target for fx in picks]
            raise bad("CO-6.3", "target-count", f"{what} needs {len(kinds)} target(s) ({', '.join(kinds) or 'none'}), the event names {len(targets)}")
        for fx, t in zip(picks, targets):
            if t not in self.target_candidates(s, controller, fx):
                raise self.bad_target(s, controller, fx, t, what)
        for fx in effects:
            kind = getattr(fx, "target", None)
            if kind not in ATTACKER_TARGETS:
                continue
            if s.attack is None:
                raise bad("CO-6.3", "no-attacker", f"{what} targets the attacking follower, but no attack is pending")
            if kind == "opponent-attacker" and s.attack.player == controller:
                raise bad("CO-6.5", "own-attacker", f"{what} targets an opponent's attacking follower, but the attacker "
                                                    f"{s.attack.attacker} is {controller}'s own")
            why = self.unmet(s, s.attack.attacker, fx.only) if fx.only is not None else None
            if why is not None:
                raise bad("CO-6.5", "condition-unmet", f"{what}: {why}")

    def chosen_effects(self, effects: list[Any]) -> list[Any]:
        """The effects that take the next entry of an event's ``targets`` (a follower or a Locus slot)."""
        return [fx for fx in effects if getattr(fx, "target", None) in _PICKED]

    def target_combos(self, s: State, controller: str, effects: list[Any]) -> list[list[str]]:
        pools = [self.target_candidates(s, controller, fx) for fx in self.chosen_effects(effects)]
        return [list(c) for c in product(*pools)]
