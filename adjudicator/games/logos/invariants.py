"""Invariants of a LOGOS position (checked on loaded position documents and in playouts)."""

from __future__ import annotations

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.invariants import Spec, seated_scan

from .cards import load_pool
from .state import State

SPEC = Spec(
    players=frozenset({"id", "player", "priority", "passed", "striker", "due", "winner", "attacker",
                       "defender", "counter"}),
    player_extras=frozenset({"shared"}),
    cards=frozenset({"slots", "deck", "discard", "backup", "battle", "card", "unseen"}),
    ints={"round": (0, 10_000_000), "strikes": (0, 1_000), "stall": (0, 10_000_000),
          # hit points: one event moves them by at most 8 * MAX_STAT (a Regeneration of a card doubled
          # twice), so 10,000,000 events stay far inside this range
          "hp": (-10**18, 10**18), "start_hp": (1, 10_000_000_000),
          "max_rounds": (1, 10_000_000), "stall_rounds": (1, 10_000_000)},
)


def invariants(s: State) -> list[tuple[str, str]]:
    ids = list(s.setup.players)
    seated = [p.id for p in s.players]
    # a set-up of more than two players is judged by LG-1.1; the engine seats the first two
    def cards() -> object:  # a seat's record may hold unknown cards ("?", LG-35)
        pool = load_pool(s.setup.pool, s.setup.pool_sha256)
        return frozenset(pool.cards) | {HIDDEN} if s.unknowns else pool

    b = seated_scan(s, SPEC, seated, ids[: len(seated)] if len(seated) <= 2 else ids, cards)
    if b:
        return b.items
    o = s.options
    for i, p in enumerate(s.players):
        b.check(len(p.slots) <= max(o.max_slots, o.start_slots), f"players[{i}].slots",
                f"{len(p.slots)} slots; at most {max(o.max_slots, o.start_slots)}")
        b.check(len(p.combo) == 3, f"players[{i}].combo", "a combo counter has three panels")
    for k, e in enumerate(s.effects):
        b.check(e.player in ids, f"effects[{k}].player", f"{e.player!r} is not a player")
    return b.items
