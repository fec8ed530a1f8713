"""An independent oracle for the Colossi audit (tests/test_audit_colossi*.py).

Written from the seed text (``/work/shared/seeds/003_c5a1c17b574fba60.txt``) and the data files
alone: the island's neighbours are read from the board JSON, the Loot a tile yields from
``tiles.json``, and control is computed from the seed's table here, never by the engine's helpers
(``engine.control``, ``engine.action_allowance`` ...).  The engine's position is read only as the
table: where the pieces, Banners, cubes and cards are.

``trace`` replays a generated match (the same weighted random choice among ``legal_events`` as
``playout``) and keeps every position, so a property can look at the position before and after
each event.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

import adjudicator.games.colossi  # noqa: F401  (registers the game)
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import Event, bare, encode_line
from adjudicator.core.kernel.verify import settle
from adjudicator.games.colossi import events as E

GAME = registry.get("colossi")
DATA = Path(adjudicator.games.colossi.__file__).resolve().parent / "data"

#: every ruleset option at a non-default value once, the presets, and 2 to 4 players by seed
OPTIONS: list[dict[str, Any]] = [
    {}, {"use_traits": False}, {"end_mode": "immediate"}, {"board": "square27"},
    {"beasts_enter_unexplored": True}, {"beast_kills_on_space": True}, {"hand_limit_timing": "end-of-turn"},
    {"voluntary_trait_discard": True}, {"loot_on_explore": "immediate"}, {"card_costs_action": False},
    {"deploy_can_move_banners": False}, {"forced_payment": "nothing"}, {"tie": "first-to-target"},
    {"reshuffle_discard": False}, {"gold_target": 20}, {"discards_shown": False}, {"void_tile": "box-first"},
    {"trade_different": "copy"}, {"growth_traits": "private"}, {"use_traits": False, "board": "square27"},
]
PRESETS = ["standard", "first-game", "immediate-win"]


def setup_of(seed: int, *, target: int | None = None) -> E.MatchStarted:
    n = 2 + seed % 3
    options = dict(OPTIONS[seed % len(OPTIONS)])
    if target is not None:
        options.setdefault("gold_target", target)
    ruleset = PRESETS[(seed // len(OPTIONS)) % len(PRESETS)]
    return E.MatchStarted(game="colossi", players=[f"p{i + 1}" for i in range(n)], ruleset=ruleset,
                          options=options)


# -- the table from the data files ------------------------------------------------------------------

def neighbours(board: str) -> dict[int, set[int]]:
    doc = json.loads((DATA / f"board-{board}.json").read_text())
    return {s["id"]: set(s["neighbours"].values()) for s in doc["spaces"]}


def tile_yield() -> dict[str, dict[str, int]]:
    """What each tile puts down at Replenish (seed: "any tile that produces Loot cubes")."""
    doc = json.loads((DATA / "tiles.json").read_text())
    return {t["id"]: dict(t.get("produces") or {}) for t in doc["tiles"]}


def tile_kinds() -> dict[str, tuple[str, int]]:
    doc = json.loads((DATA / "tiles.json").read_text())
    return {t["id"]: (t["kind"], t.get("copies", 1)) for t in doc["tiles"]}


def card_copies() -> Counter[str]:
    doc = json.loads((DATA / "cards.json").read_text())
    return Counter({c["id"]: c.get("copies", 1) for c in doc["cards"]})


def trait_ids() -> list[str]:
    doc = json.loads((DATA / "traits.json").read_text())
    return [t["id"] for t in doc["traits"]]


YIELD = tile_yield()
KINDS = tile_kinds()


def controller(s: Any, space: int) -> str | None:
    """The seed's *Control* table: no Colossus -> the most Acolytes; one Colossus -> its owner;
    several -> the Colossus whose owner has the most Acolytes there; a tie -> nobody."""
    sp = s.spaces[space]
    ids = [p.id for p in s.players]
    count = {pid: (sp.acolytes[i] if i < len(sp.acolytes) else 0) for i, pid in enumerate(ids)}
    if len(sp.colossi) == 1:
        return sp.colossi[0]
    pool = list(sp.colossi) if sp.colossi else [pid for pid in ids if count[pid] > 0]
    if not pool:
        return None
    best = max(count[pid] for pid in pool)
    top = [pid for pid in pool if count[pid] == best]
    return top[0] if len(top) == 1 else None


def acolytes_at(s: Any, space: int, pid: str) -> int:
    i = [p.id for p in s.players].index(pid)
    a = s.spaces[space].acolytes
    return a[i] if i < len(a) else 0


def plain(s: Any, pid: str) -> bool:
    """No Trait, borrowed Trait, Curse or Beast form: the seed's basic rules apply to this player
    unchanged (the component texts that change them are audited separately)."""
    p = s.player(pid)
    return not p.traits and not p.curses and p.animal is None and s.info.borrowed is None


def head(s: Any) -> Any:
    return s.todo[0] if s.todo else None


def head_kind(s: Any) -> str:
    h = head(s)
    return type(h).__name__ if h is not None else ""


def key(e: Event) -> bytes:
    return encode_line(bare(GAME.canonical(e)))


def legal_keys(s: Any) -> set[bytes]:
    return {key(e) for e in GAME.legal_events(s)}


class Step(NamedTuple):
    before: Any
    event: Event
    derived: list[Event]
    after: Any


def trace(seed: int, setup: E.MatchStarted | None = None, max_events: int = 1200) -> tuple[list[Event], list[Step]]:
    """A generated legal match: its set-up's derived events, and each decision with the positions
    around it (the same weighted choice as ``adjudicator.core.kernel.playout.playout``)."""
    rng = random.Random(seed)
    setup = setup if setup is not None else setup_of(seed)
    state = GAME.initial_state(setup)
    state, first = settle(GAME, state)
    steps: list[Step] = []
    while GAME.outcome(state) is None and len(steps) < max_events:
        options = GAME.legal_events(state)
        if not options:
            break
        weights = [GAME.playout_weight(state, e) for e in options]
        event = rng.choices(options, weights)[0]
        after, derived = settle(GAME, GAME.apply(state, event))
        steps.append(Step(state, event, derived, after))
        state = after
    return [setup, *first], steps


def events_of(setup: E.MatchStarted, first: list[Event], steps: list[Step]) -> list[Event]:
    out = [setup]
    for st in steps:
        out.append(st.event)
    return out


def decode(d: dict[str, Any]) -> Event | None:
    try:
        return GAME.decoder.decode(msgspec.json.encode(d))
    except msgspec.ValidationError:
        return None


def check(s: Any, e: Event) -> Any:
    return GAME.check(s, e)
