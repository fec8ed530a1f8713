"""The toy position as a scene for the viewers: the total as a counter, whose turn it is."""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.scene import Counter, PlayerInfo, Scene


def scene(game: Any, state: Any, player: str | None) -> Scene:
    to_act = game.to_act(state)
    status = f"turn {state.turn + 1}, {to_act[0]} to add" if to_act else f"{state.winner} reached {state.target}"
    return Scene(
        game=game.id, view=player, status=status,
        players=[PlayerInfo(p, p) for p in state.players],
        to_act=to_act,
        counters=[Counter("total", "total", state.total, max=state.target)],
        outcome=None if state.winner is None else f"{state.winner} wins",
    )


def turn_number(state: Any) -> int:
    return state.turn + 1
