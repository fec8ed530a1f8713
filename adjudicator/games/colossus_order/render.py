"""Text rendering of a Colossus Order position (``adjudicator state``), per viewpoint."""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.events import HIDDEN

from .cards import load_pool
from .state import State


def describe(game: Any, s: State, player: str | None) -> str:
    pool = load_pool(s.setup.pool, s.setup.pool_sha256)
    rules = game.rules
    lines = []
    view = "judge (everything)" if player is None else f"{player} (hidden information masked)"
    status = f"turn {s.turn}, {s.turn_player}'s {s.phase} phase" if s.turn_player else "set-up"
    if s.result is not None:
        r = s.result
        status = f"over: {r.winner} wins by {r.reason}" if r.winner else f"over: draw ({r.reason})"
    lines.append(f"Colossus Order - {status}; view: {view}; ruleset {s.setup.ruleset}")
    if s.result is None:
        lines.append(f"next: {rules.expected(s)}; to act: {', '.join(game.to_act(s)) or '-'}")
    for p in s.players:
        lines.append("")
        lines.append(f"[{p.id}] Colossus {pool[p.colossus].name} | deck {p.deck_count} | hand {len(p.hand)} | discard {len(p.discard)}")
        if any(c != HIDDEN for c in p.hand):
            lines.append(f"  hand: {', '.join(p.hand)}")
        elif not p.hand and player in (None, p.id):
            lines.append("  hand: -")
        if p.deck_known:
            lines.append(f"  deck top (known to both, top first): {', '.join(p.deck_known)}")
        if any(c != HIDDEN for c in p.deck_bottom):
            order = "order unknown" if s.options.returned_order == "unknown" else "in this order"
            lines.append(f"  deck bottom (returned, {order}): {', '.join(p.deck_bottom)}")
        if p.deck_under:
            lines.append(f"  deck bottom (put there by effects, known to both): {', '.join(p.deck_under)}")
        lines.append(f"  set gems: {', '.join(p.set_gems) or '-'} | captured: {', '.join(p.captured) or '-'}")
        slots = []
        for sl in p.locus:
            shown = sl.card
            slots.append(f"{sl.id}:{shown}{'(up)' if sl.face_up else ''}")
        lines.append(f"  locus [{len(p.locus) - p.locus_used}/{len(p.locus)} points free]: {' '.join(slots) or '-'}")
        for f in p.field:
            a, d, cr, ca = rules.stats(s, p, f)
            flags = ("ON" if f.on else "OFF") + (" attacked" if f.attacked else "") + (" new" if f.played_turn == s.turn else "")
            lines.append(f"  {f.handle} {pool[f.card].name}: {a}/{d} crush {cr} capture {ca} damage {f.damage} {flags}")
        if p.revealed:
            lines.append(f"  revealed from deck: {', '.join(p.revealed)}")
    if s.attack:
        at = s.attack
        tgt = at.target + (f" {at.slot}" if at.slot is not None else "") + (f" {at.follower}" if at.follower else "")
        lines.append("")
        lines.append(f"attack: {at.attacker} ({at.player}) -> {tgt}" + (f", blocked by {at.blocker}" if at.blocker else ""))
    if s.chain:
        lines.append("chain (last resolves first): " + " <- ".join(f"{i.card}[{i.player}]" for i in s.chain))
    return "\n".join(lines)
