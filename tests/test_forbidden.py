"""Mutations the rules forbid, which ``check`` must reject, for every game and the toy game.

The random mutations of ``tests/test_conformance.py`` show that ``check`` and ``legal_events``
agree; these show that ``check`` does not accept too much where the rules are explicit.  Each
game declares, in :data:`FORBIDDEN`, mutations of a legal event that the rules forbid whatever
the position (a card not in the player's hand, a target out of range, a count off by one, the
wrong player), with the rules that may be cited.  Over random playouts every declared mutation
is made from every listed legal event of its type, and ``check`` must reject each one citing one
of those rules; each mutation must have been tried.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from msgspec.structs import replace

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.verify import settle
from tests.toygame import install

install()
GAMES = [g.id for g in registry.games()]


@dataclass(frozen=True)
class Forbidden:
    #: what the mutation does, in words
    what: str
    #: the name of the event type it mutates
    event: str
    #: (game, state, legal event) -> the forbidden event, or None where it cannot be made
    make: Callable[[Any, Any, Any], Any]
    #: the rule ids a rejection may cite
    rules: frozenset[str]


def F(what: str, event: str, make: Callable[[Any, Any, Any], Any], *rules: str) -> Forbidden:
    return Forbidden(what, event, make, frozenset(rules))


# -- helpers ------------------------------------------------------------------------------------------

def _other_seat(g: Any, s: Any, e: Any, field: str = "player") -> Any:
    """``e`` made by a player who is not to act (None when everybody is)."""
    idle = [p for p in g.players(s) if p not in g.to_act(s)]
    return replace(e, **{field: idle[0]}) if idle else None


def _co_not_in_hand(g: Any, s: Any, e: Any) -> Any:
    from adjudicator.games.colossus_order.cards import load_pool

    hand = set(s.player(e.player).hand)
    other = next((c for c in sorted(load_pool(s.setup.pool).cards) if c not in hand), None)
    return None if other is None else replace(e, card=other)


def _co_slot_out_of_range(g: Any, s: Any, e: Any) -> Any:
    top = max((sl.id for p in s.players for sl in p.locus), default=0)
    return replace(e, slots=[*e.slots, top + 1])


def _co_foreign_attacker(g: Any, s: Any, e: Any) -> Any:
    theirs = [f.handle for f in s.opponent(e.player).field]
    return replace(e, attacker=theirs[0]) if theirs else None


def _lg_not_in_slots(g: Any, s: Any, e: Any) -> Any:
    from adjudicator.games.logos.cards import load_pool

    mine = {c for c in s.player(e.player).slots if c is not None}
    other = next((c for c in sorted(load_pool(s.setup.pool).cards) if c not in mine), None)
    return None if other is None else replace(e, card=other)


def _ko_move_from_a_foreign_square(g: Any, s: Any, e: Any) -> Any:
    """A move starting where another warband's miniature stands."""
    if not e.path:
        return None
    foreign = next((p.square for p in s.pieces if p.warband != e.warband), None)
    return None if foreign is None else replace(e, path=[foreign, *e.path[1:]])


def _ko_one_point_more(g: Any, s: Any, e: Any) -> Any:
    """One more mana point on the first attack skill than the event gives, where the event gives
    all there is (the mana gained this turn; the initial skills)."""
    if type(e).__name__ == "ManaAllocated":
        w = next(w for w in s.warbands if w.id == e.warband)
        if sum(e.attack.values()) + sum(e.defence.values()) + e.pool + e.weapon < w.pending:
            return None
    attack = dict(e.attack)
    key = next(iter(attack), "warrior")
    attack[key] = attack.get(key, 0) + 1
    return replace(e, attack=attack)


def _cl_not_in_hand(g: Any, s: Any, e: Any) -> Any:
    from adjudicator.games.colossi.data import content

    hand = set(s.player(e.player).hand)
    other = next((c for c in sorted(content().cards) if c not in hand), None)
    return None if other is None else replace(e, card=other)


def _cl_not_a_neighbour(g: Any, s: Any, e: Any) -> Any:
    from adjudicator.games.colossi.data import board

    b = board(s.options.board)
    near = set(b.around(e.space))
    far = next((i for i in range(len(s.spaces)) if i not in near), None)
    return None if far is None or e.road else replace(e, to=far)


#: game id -> the mutations its rules forbid
FORBIDDEN: dict[str, list[Forbidden]] = {
    "colossus-order": [
        F("a card set that is not in hand", "CardSet", _co_not_in_hand, "CO-4.4"),
        F("a follower played that is not in hand", "FollowerPlayed", _co_not_in_hand, "CO-4.4"),
        F("a Locus slot that does not exist", "CompleteDeclared", _co_slot_out_of_range, "CO-3.2"),
        F("an attack with the opponent's follower", "AttackDeclared", _co_foreign_attacker, "CO-7.2"),
        F("a player ends a main phase that is not theirs", "MainPhaseEnded", _other_seat, "CO-10.1"),
    ],
    "logos": [
        F("a pick that is not in the player's slots", "CardPicked", _lg_not_in_slots, "LG-3.2"),
        F("a Backup card that is not in the player's slots", "BackupAssigned", _lg_not_in_slots, "LG-4.1"),
    ],
    "kolossus": [
        F("a move from a square held by another warband", "MiniatureMoved", _ko_move_from_a_foreign_square, "KO-5.1"),
        F("one mana point more than was gained", "ManaAllocated", _ko_one_point_more, "KO-7.2", "KO-24"),
        F("skills adding up to one point too many", "SkillsChosen", _ko_one_point_more, "KO-1.3", "KO-24"),
        F("a warband ends a turn that is not its own", "TurnEnded",
          lambda g, s, e: _other_seat(g, s, e, "warband"), "KO-4.1"),
    ],
    "colossi": [
        F("a card played that is not in hand", "CardPlayed", _cl_not_in_hand, "CL-6.1"),
        F("a move to a space that is not a neighbour", "Moved", _cl_not_a_neighbour, "CL-3.1", "CL-6.4"),
        F("a player ends Actions that are not theirs", "ActionsEnded", _other_seat, "CL-2.1"),
    ],
    "toy": [
        F("one more than the most one may add", "Added", lambda g, s, e: replace(e, n=4) if e.n == 3 else None, "TOY-3"),
        F("a move out of turn", "Added", _other_seat, "TOY-2"),
    ],
}


def test_every_game_declares_forbidden_mutations() -> None:
    missing = [gid for gid in GAMES if not FORBIDDEN.get(gid)]
    assert not missing, f"declare in FORBIDDEN the mutations these games' rules forbid: {missing}"


@pytest.mark.parametrize("gid", GAMES)
def test_check_rejects_what_the_rules_forbid(gid: str) -> None:
    g = registry.get(gid)
    names = {cls.__name__ for cls in g.event_types}
    declared = FORBIDDEN[gid]
    for f in declared:
        assert f.event in names, f"{gid}: no event type {f.event}"
        assert f.rules <= set(g.rulebook.ids()), f"{gid}: {sorted(f.rules - set(g.rulebook.ids()))} not in the rulebook"
    tried = dict.fromkeys((f.what for f in declared), 0)
    problems: list[str] = []
    for seed in range(6):
        events, _final = playout(g, seed, max_events=500)
        s, _d = settle(g, g.initial_state(events[0]))
        for e in events[1:]:
            legal = g.legal_events(s)
            for f in declared:
                for ok in (x for x in legal if type(x).__name__ == f.event):
                    bad = f.make(g, s, ok)
                    if bad is None or bad == ok:
                        continue
                    tried[f.what] += 1
                    r = g.check(s, bad)
                    if r.legal or r.rule not in f.rules:
                        problems.append(f"seed {seed}: {f.what}: {bad} got {r.verdict} {r.rule} [{r.code}] {r.message}")
            s, _d = settle(g, g.apply(s, e))
    assert not problems, f"{len(problems)} forbidden events not rejected as the rules say:\n" + "\n".join(problems[:8])
    untried = [w for w, n in tried.items() if not n]
    assert not untried, f"{gid}: the playouts never gave a chance to try: {untried}"
