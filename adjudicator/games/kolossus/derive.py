"""Derive: the next consequence the rules force (reports of what a decision did, a due end, the
derived steps of rounds and turns, the end after the last round: KO-19, KO-20)."""

from __future__ import annotations

from typing import Any

from . import events as E
from .basics import DERIVING
from .queries import Queries
from .state import Result, State


class Derive(Queries):
    """The derived events."""

    # -- derive ------------------------------------------------------------------------------------------------
    def derive(self, s: State) -> Any:
        if not s.queue and s.ending is None and s.step not in DERIVING:  # the usual case: a player's step
            return None
        if s.result is not None or len(s.warbands) != 4:
            return None
        if s.queue:
            return s.queue[0]
        r = s.ending
        if r is not None:
            return E.GameEnded(result=r.result, winner=r.winner, alliance=list(r.alliance), reason=r.reason)
        step = s.step
        if step == "turn-start":
            return E.TurnStarted(round=s.round, warband=s.current.id)
        if step == "round-start":
            first = s.captured_by if s.captured_by is not None else s.first
            return E.RoundStarted(round=s.round + 1, first=s.warbands[first].id,
                                  crystals=s.on_citadel + (1 if s.crystals_left > 0 else 0))
        if step == "game-end":
            r = self.crystal_result(s)
            return E.GameEnded(result=r.result, winner=r.winner, alliance=list(r.alliance), reason=r.reason)
        return None

    def crystal_result(self, s: State) -> Result:
        a0 = s.warbands[0].crystals + s.warbands[2].crystals
        a1 = s.warbands[1].crystals + s.warbands[3].crystals
        if s.options.crystal_majority == "relative":
            if a0 != a1:
                return self.win(s, 0 if a0 > a1 else 1, "crystal-majority")
        else:
            total = s.options.rounds
            for alliance, n in ((0, a0), (1, a1)):
                if 2 * n > total:
                    return self.win(s, alliance, "crystal-majority")
        if s.last_capture is None:
            return Result("draw", None, (), "no-crystal")
        return self.win(s, s.last_capture % 2, "last-crystal")
