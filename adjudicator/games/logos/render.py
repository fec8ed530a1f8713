"""Text rendering of a LOGOS position (``adjudicator state``), per viewpoint."""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.events import HIDDEN

from .values import show_panels
from .state import State


def describe(game: Any, s: State, player: str | None) -> str:
    rules = game.rules
    lines = []
    view = "judge (everything)" if player is None else f"{player} (hidden information masked)"
    status = f"round {s.round}, {s.phase}" + (f" ({s.step})" if s.step else "")
    if s.result is not None:
        r = s.result
        status = f"round {s.round}, over: " + (f"{r.winner} wins by {r.reason}" if r.winner else f"draw ({r.reason})")
    lines.append(f"LOGOS - {status}; view: {view}; ruleset {s.setup.ruleset}, picks {s.options.picks}")
    if s.result is None and len(s.players) == 2:
        lines.append(f"next: {rules.expected(s)}; to act: {', '.join(game.to_act(s)) or '-'}")
    if s.options.combo_counter == "shared":
        lines.append(f"shared combo counter: {show_panels(s.shared_combo)}")
    for p in s.players:
        lines.append("")
        lines.append(f"[{p.id}] hit points {p.hp:,} | deck {len(p.deck)} | discard {len(p.discard)}"
                     + (" | DEFENSELESS" if p.defenseless else "") + (" | shielded (Neutralize)" if p.shield else ""))
        slots = ["-" if c is None else c for c in p.slots]
        lines.append(f"  card slots ({len(p.slots)}): {' | '.join(slots) or 'none'}")
        backup = "-" if p.backup is None else ("? (a card)" if p.backup == HIDDEN else p.backup)
        lines.append(f"  backup slot: {backup}")
        if s.options.combo_counter == "per-player":
            lines.append(f"  combo counter: {show_panels(p.combo)}")
        if p.commitment is not None and p.battle is None:
            lines.append(f"  committed: {p.commitment[:16]}...")
        if p.battle is not None:
            if p.battle != HIDDEN:
                k, a, d, sp = rules.stats(s, p)
                mods = f" after {', '.join(p.mods)}" if p.mods else ""
                lines.append(f"  battle card: {p.battle} ({k}, attack {a:,}, defense {d:,}, speed {sp}{mods})"
                             + (" - not revealed yet" if not p.public else "")
                             + (" - double combo" if p.double_combo else ""))
            else:
                lines.append("  battle card: ? (picked, not revealed yet)")
    if s.direction is not None:
        d = s.direction
        lines.append("")
        lines.append("direction: deadlock" if d.basis == "deadlock" else
                     f"direction: {d.attacker} attacks {d.defender} ({d.basis})")
    if s.effects:
        lines.append("effects to fire: " + ", ".join(f"{i.player}'s {i.card} {i.field}" for i in s.effects))
    return "\n".join(lines)
