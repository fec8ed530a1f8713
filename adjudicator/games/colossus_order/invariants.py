"""Invariants of a Colossus Order position (checked on loaded position documents and in playouts)."""

from __future__ import annotations

from adjudicator.core.kernel.invariants import Spec, seated_scan

from .cards import load_pool
from .state import Battle, Block, Capture, DiscardDeclared, ReplaceLocus, RevealLocus, State

SPEC = Spec(
    players=frozenset({"player", "turn_player", "first", "chooser", "owner", "priority", "winner", "id", "peek_by"}),
    cards=frozenset({"colossus", "deck_top", "deck_bottom", "hand", "discard", "set_gems", "captured",
                     "revealed", "card", "deck_known", "deck_under", "deck_peek", "deck_mixed", "hand_could", "mixed_could"}),
    ints={"count": (0, 1_000), "limit": (0, 1_000), "passes": (0, 2), "turn": (0, 1_000_000),
          "next_slot": (1, 100_000), "next_handle": (1, 1_000_000), "locus_used": (0, 100_000),
          "damage": (0, 1_000_000), "slot": (0, 100_000), "slots": (0, 100_000), "index": (0, 100_000),
          "ability": (0, 100), "colossus_used": (0, 100), "id": (0, 100_000), "played_turn": (0, 1_000_000),
          "max_locus": (0, 100_000), "mulligan_first": (0, 1_000), "mulligan_second": (0, 1_000),
          "done": (0, 1_000), "set_attack": (0, 1_000_000), "set_defence": (0, 1_000_000)},
)


def invariants(s: State) -> list[tuple[str, str]]:
    ids = list(s.setup.players[:2])
    b = seated_scan(s, SPEC, [p.id for p in s.players], ids, lambda: load_pool(s.setup.pool, s.setup.pool_sha256))
    if b:
        return b.items
    handles: set[str] = set()
    for i, p in enumerate(s.players):
        slot_ids = [sl.id for sl in p.locus]
        b.check(len(set(slot_ids)) == len(slot_ids), f"players[{i}].locus", "Locus slot ids repeat")
        b.check(all(x < p.next_slot for x in slot_ids), f"players[{i}].next_slot",
                f"{p.next_slot} is not past every Locus slot id ({slot_ids})")
        b.check(len(p.known_why) == len(p.deck_known), f"players[{i}].known_why",
                "one reason per card known on top of the deck")
        for j, f in enumerate(p.field):
            b.check(f.handle not in handles, f"players[{i}].field[{j}].handle", f"{f.handle!r} is used twice")
            handles.add(f.handle)
    for k, t in enumerate(s.todo):
        if isinstance(t, (RevealLocus, DiscardDeclared, ReplaceLocus)):
            owner = s.player(getattr(t, "owner", getattr(t, "player", ids[0])))
            slots = t.slots if hasattr(t, "slots") else (t.slot,)
            have = {sl.id for sl in owner.locus}
            b.check(all(x in have for x in slots) or isinstance(t, ReplaceLocus), f"todo[{k}].slots",
                    f"{list(slots)} are not all Locus slots of {owner.id} ({sorted(have)})")
        if isinstance(t, (Battle, Block)):
            b.check(s.attack is not None, f"todo[{k}]", f"a {type(t).__name__.lower()} step needs an attack")
        if isinstance(t, Capture):
            b.check(t.player != t.owner, f"todo[{k}].owner", "a player captures the opponent's gems")
    return b.items
