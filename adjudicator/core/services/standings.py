"""Standings of a tournament: points by the event's scoring and the tiebreakers its regulations
name, after every round and at the end (docs/tournament.md, "Standings").

The standings count only the results a log or a ruling confirms: a table whose log is
missing, illegal, unfinished, contradicted by the other seat's record or by the reported result
is *disputed* and named in the round's ``disputed`` list until a ruling made outside the log
(``[[rulings]]`` with a ``result``) settles it; it is never counted silently.  Nothing here names
a game: a result is the verdict's outcome (``winner`` -- players joined by ``+`` -- or a draw).

Arithmetic is exact (:class:`fractions.Fraction`); the report rounds the percentages to four
places.  Every order is by value, then by player id: the standings are a function of the
manifest and the logs alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, Literal

import msgspec

#: the tiebreakers a manifest may name, in the words of docs/tournament.md
TIEBREAKERS = ("omw", "gw", "ogw", "buchholz", "sonneborn-berger", "head-to-head")
Tiebreaker = Literal["omw", "gw", "ogw", "buchholz", "sonneborn-berger", "head-to-head"]
Points = Annotated[float, msgspec.Meta(ge=-1000, le=1000)]

#: the floor of every win percentage (Magic Tournament Rules, appendix C)
FLOOR = Fraction(1, 3)

#: the problems that leave a table's result unconfirmed (a ruling outside the log settles it)
DISPUTING = ("missing-log", "duplicate-log", "copied-log", "seated-twice", "table-mismatch", "unreadable", "error", "illegal",
             "seat-conflict", "undetermined", "unfinished", "result-mismatch", "points-mismatch")


class Scoring(msgspec.Struct, forbid_unknown_fields=True):
    """The event's scoring (``[scoring]``): points for a win, a draw, a loss and a bye; how a
    match ended by resignation scores (``draw``: the resigner scores a draw, as some LOGOS
    events rule); the tiebreakers, in order."""

    win: Points = 3
    draw: Points = 1
    loss: Points = 0
    #: points for a bye (default: a win's)
    bye: Points | None = None
    resignation: Literal["loss", "draw"] = "loss"
    tiebreakers: Annotated[list[Tiebreaker], msgspec.Meta(max_length=len(TIEBREAKERS))] = msgspec.field(
        default_factory=lambda: ["omw", "gw", "ogw"])


def _q(x: float) -> Fraction:
    return Fraction(x).limit_denominator(1000)


@dataclass
class Game:
    """One player's confirmed result at one table."""

    round: int
    table: int | None
    #: the other players of the table (none: a bye)
    opponents: list[str]
    points: Fraction
    #: the share of a win this player took (1 win, draw/win for a draw, 0 a loss)
    share: Fraction


@dataclass
class _Player:
    id: str
    games: list[Game] = field(default_factory=list)
    dropped: int | None = None


def table_points(scoring: Scoring, players: list[str], outcome: dict[str, Any]) -> dict[str, Fraction]:
    """Each player's points for a result (``outcome``: ``result`` and ``winner``, as a verdict's)."""
    win, draw, loss = _q(scoring.win), _q(scoring.draw), _q(scoring.loss)
    if outcome.get("result") == "loss":  # every player lost the game (each earned a game loss)
        return {p: loss for p in players}
    if outcome.get("result") == "draw" or not outcome.get("winner"):
        return {p: draw for p in players}
    winners = {w.strip() for w in str(outcome["winner"]).split("+")}
    resigned = outcome.get("reason") == "resignation" and scoring.resignation == "draw"
    return {p: win if p in winners else (draw if resigned else loss) for p in players}


def confirmed(table: dict[str, Any], rulings: dict[tuple[int, int], dict[str, Any]]) -> tuple[dict[str, Any] | None, str]:
    """A table's confirmed outcome and its source (``ruling``, ``log``), or None and why not."""
    ruled = rulings.get((table["round"], table["table"]))
    if ruled is not None:
        return ruled, "ruling"
    lost = {p["player"] for p in table.get("penalties", []) if p["penalty"] == "game-loss"}
    if lost:  # the penalty decides the game: the players who earned a game loss lose it
        others = [p for p in table["players"] if p not in lost]
        return ({"result": "win", "winner": "+".join(others), "reason": "game loss"} if others
                else {"result": "loss", "winner": None, "reason": "game loss"}), "penalty"
    kinds = [p["kind"] for p in table["problems"] if p["kind"] in DISPUTING]
    if kinds:
        return None, ", ".join(dict.fromkeys(kinds))
    if table.get("outcome") is None:
        return None, "no result"
    return table["outcome"], "log"


def compute(report: dict[str, Any], scoring: Scoring, entrants: list[str],
            byes: dict[int, list[str]], drops: dict[int, list[str]],
            rulings: dict[tuple[int, int], dict[str, Any]]) -> dict[str, Any]:
    """The standings after every round: per round its rows (rank, player, points, record,
    tiebreakers) and its disputed tables.  ``byes`` and ``drops``: round -> players given a bye
    in it, players who left after it; ``rulings``: (round, table) -> a ruled outcome."""
    rounds = sorted({t["round"] for t in report["tables"]} | set(byes) | set(drops))
    out = []
    for upto in rounds:
        players = {p: _Player(p) for p in entrants}
        disputed = []
        for t in report["tables"]:
            if t["round"] > upto:
                continue
            outcome, why = confirmed(t, rulings)
            if outcome is None:
                disputed.append({"round": t["round"], "table": t["table"], "players": t["players"], "why": why})
                continue
            pts = table_points(scoring, t["players"], outcome)
            for p in t["players"]:
                share = pts[p] / _q(scoring.win) if scoring.win else Fraction(0)
                players[p].games.append(Game(t["round"], t["table"], [o for o in t["players"] if o != p], pts[p], share))
        bye = _q(scoring.win if scoring.bye is None else scoring.bye)
        for r, who in byes.items():
            for p in who if r <= upto else []:
                players[p].games.append(Game(r, None, [], bye, Fraction(1)))
        for r, who in drops.items():
            for p in who if r <= upto else []:
                was = players[p].dropped
                players[p].dropped = r if was is None else min(was, r)
        out.append({"round": upto, "rows": _rows(players, scoring), "disputed": disputed})
    # what the standings were computed from besides the tables (:func:`recompute`'s inputs)
    return {"scoring": msgspec.to_builtins(scoring), "entrants": list(entrants),
            "byes": [{"round": r, "players": list(byes[r])} for r in sorted(byes)],
            "drops": [{"round": r, "players": list(drops[r])} for r in sorted(drops)],
            "ruled": [{"round": r, "table": t, "outcome": rulings[(r, t)]} for r, t in sorted(rulings)],
            "rounds": out}


def recompute(standings: dict[str, Any], tables: list[dict[str, Any]]) -> dict[str, Any]:
    """A report's ``standings`` computed again over ``tables`` (the report's tables, some of
    them as the live page sees them: a result just recorded), from the inputs those standings
    keep (scoring, entrants, byes, drops, ruled results): the report's computation, not a second
    one (the live event page, replays/web/live.py)."""
    return compute({"tables": tables}, msgspec.convert(standings["scoring"], Scoring), standings.get("entrants", []),
                   {x["round"]: x["players"] for x in standings.get("byes", [])},
                   {x["round"]: x["players"] for x in standings.get("drops", [])},
                   {(x["round"], x["table"]): x["outcome"] for x in standings.get("ruled", [])})


def _pct(pts: Fraction, n: int, win: Fraction) -> Fraction:
    return max(FLOOR, pts / (win * n)) if n and win else FLOOR


def _rows(players: dict[str, _Player], scoring: Scoring) -> list[dict[str, Any]]:
    win = _q(scoring.win)
    points = {p: sum((g.points for g in x.games), Fraction(0)) for p, x in players.items()}
    played = {p: len(x.games) for p, x in players.items()}
    mw = {p: _pct(points[p], played[p], win) for p in players}
    # a table is one game: game points are the match's (a bye: a won game)
    gw = mw

    def opp_avg(pct: dict[str, Fraction], p: str) -> Fraction:
        opps = [o for g in players[p].games for o in g.opponents]
        return sum((pct[o] for o in opps), Fraction(0)) / len(opps) if opps else Fraction(0)

    breaks: dict[str, dict[str, Fraction]] = {
        "omw": {p: opp_avg(mw, p) for p in players},
        "gw": gw,
        "ogw": {p: opp_avg(gw, p) for p in players},
        "buchholz": {p: sum((points[o] for g in players[p].games for o in g.opponents), Fraction(0)) for p in players},
        "sonneborn-berger": {p: sum((points[o] * g.share for g in players[p].games for o in g.opponents), Fraction(0))
                             for p in players},
    }
    keys: dict[str, list[Fraction]] = {p: [points[p]] for p in players}
    for tb in scoring.tiebreakers:
        if tb == "head-to-head":
            groups: dict[tuple[Fraction, ...], list[str]] = {}
            for p in players:
                groups.setdefault(tuple(keys[p]), []).append(p)
            for group in groups.values():
                inside = set(group)
                for p in group:
                    keys[p].append(sum((g.points for g in players[p].games if g.opponents and set(g.opponents) <= inside),
                                       Fraction(0)) if len(group) > 1 else Fraction(0))
        else:
            for p in players:
                keys[p].append(breaks[tb][p])
    order = sorted(players, key=lambda p: ([-k for k in keys[p]], p))
    rows, rank = [], 0
    for i, p in enumerate(order):
        if i == 0 or keys[p] != keys[order[i - 1]]:
            rank = i + 1
        g = players[p].games
        rows.append({
            "rank": rank, "player": p, "points": _num(points[p]), "played": played[p],
            "wins": sum(1 for x in g if x.share == 1 and x.opponents),
            "draws": sum(1 for x in g if 0 < x.share < 1),
            "losses": sum(1 for x in g if x.share == 0 and x.opponents),
            "byes": sum(1 for x in g if not x.opponents), "dropped": players[p].dropped,
            "tiebreakers": {tb: _num(k) for tb, k in zip(scoring.tiebreakers, keys[p][1:])},
        })
    return rows


def _num(x: Fraction) -> float | int:
    """A value for the report: a whole number as an int, else rounded to four places."""
    return int(x) if x.denominator == 1 else round(float(x), 4)
