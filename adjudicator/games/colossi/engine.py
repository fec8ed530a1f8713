"""The Colossi engine's read-only queries on a position (the caps, control, roads, Beasts).

Queries take any object with the position's fields (a frozen :class:`State` or a working copy,
:class:`working.W`), so ``check`` and ``apply`` ask the same questions the same way.  Nothing here
reads a clock or a random source; every order is a list order (seats, directions, space numbers).
"""

from __future__ import annotations

from typing import Any

from .data import Board, Content, board, content
from .state import Item, Player, Space, TurnInfo

BASE_ACTIONS = 4
BASE_HAND = 6
BASE_TRAITS = 2
ACOLYTES = 10
BANNERS = 6
#: the Golden Beast leaves one gold cube on each space it leaves
GOLDEN_DROP = 1


# == queries (State or W) ================================================================================

def C() -> Content:
    return content()


def B(x: Any) -> Board:
    return board(x.options.board, x.setup.board_sha256)


def seats(x: Any) -> tuple[str, ...]:
    return tuple([p.id for p in x.players])  # a list first: cheaper than a generator (a hot path)


def seat(x: Any, pid: str) -> int:
    for i, p in enumerate(x.players):
        if p.id == pid:
            return i
    raise KeyError(pid)


def player(x: Any, pid: str) -> Player:
    for p in x.players:
        if p.id == pid:
            return p
    raise KeyError(pid)


def is_player(x: Any, pid: Any) -> bool:
    if isinstance(pid, str):
        for p in x.players:  # a loop, not any(generator): checked once per proposed event
            if p.id == pid:
                return True
    return False


def from_seat(x: Any, pid: str) -> list[str]:
    """Every player in seat order (clockwise) starting with ``pid``."""
    ids = seats(x)
    i = ids.index(pid)
    return list(ids[i:] + ids[:i])


def opponents(x: Any, pid: str) -> list[str]:
    return from_seat(x, pid)[1:]


def has(x: Any, pid: str | None, trait: str) -> bool:
    if pid is None:
        return False
    for p in x.players:
        if p.id == pid:
            return trait in p.traits
    return False


def holders(x: Any, trait: str) -> list[str]:
    """Players with ``trait`` in play, in seat order from the turn player."""
    for p in x.players:  # (mostly nobody: no list built then)
        if trait in p.traits:
            break
    else:
        return []
    start = x.turn_player or x.first or x.players[0].id
    return [p for p in from_seat(x, start) if trait in player(x, p).traits]


#: (trait, parameter) -> its value, for the content it was read from (a new content, a new table)
_TPARAM: dict[tuple[str, str], int] = {}
_TPARAM_OF: list[Content] = []


def tparam(trait: str, name: str) -> int:
    c = content()
    if not _TPARAM_OF or _TPARAM_OF[0] is not c:
        _TPARAM.clear()
        _TPARAM_OF[:] = [c]
    v = _TPARAM.get((trait, name))
    if v is None:
        v = _TPARAM[(trait, name)] = int(c.traits[trait].effect.params[name])
    return v


#: the limits of a player without curses (shared: callers only read it)
_NO_LIMITS: dict[str, int] = {}


def curse_limits(p: Player) -> dict[str, int]:
    if not p.curses:
        return _NO_LIMITS
    out: dict[str, int] = {}
    cards = C().cards
    for c in p.curses:
        fx = cards[c].effect
        if fx.kind == "curse-limit":
            lim = str(fx.params["limit"])
            out[lim] = min(out.get(lim, 99), int(fx.params["value"]))
    return out


def hand_limit(x: Any, pid: str) -> int:
    p = player(x, pid)
    if not p.curses and "ludicrously-capacious" not in p.traits:
        return BASE_HAND
    limits = []
    if "ludicrously-capacious" in p.traits:
        limits.append(tparam("ludicrously-capacious", "hand"))
    lim = curse_limits(p).get("hand") if p.curses else None
    if lim is not None:
        limits.append(lim)
    return min(limits) if limits else BASE_HAND


def trait_cap(x: Any, pid: str) -> int:
    p = player(x, pid)
    if not p.curses:
        return BASE_TRAITS
    lim = curse_limits(p).get("traits") if p.curses else None
    return min(BASE_TRAITS, lim) if lim is not None else BASE_TRAITS


def counted_traits(x: Any, pid: str) -> int:
    p = player(x, pid)
    n = len(p.traits)
    if x.turn_player == pid and x.info.borrowed in p.traits:
        n -= 1
    return n


def acolyte_cap(x: Any, pid: str) -> int:
    p = player(x, pid)
    if not p.traits and not p.curses:
        return ACOLYTES
    caps = [ACOLYTES]
    if "miserly" in p.traits:
        caps.append(tparam("miserly", "acolytes"))
    if "necromancer" in p.traits:
        caps.append(tparam("necromancer", "acolytes"))
    lim = curse_limits(p).get("acolytes") if p.curses else None
    if lim is not None:
        caps.append(lim)
    return min(caps)


def banner_cap(x: Any, pid: str) -> int:
    p = player(x, pid)
    if not p.traits and not p.curses:
        return BANNERS
    caps = [BANNERS]
    for t, key in (("miserly", "banners"), ("nomadic", "banners"), ("monolithic", "banners")):
        if t in p.traits:
            caps.append(tparam(t, key))
    lim = curse_limits(p).get("banners") if p.curses else None
    if lim is not None:
        caps.append(lim)
    return min(caps)


def acolytes_in_play(x: Any, pid: str) -> int:
    return ACOLYTES - player(x, pid).acolytes


def banners_in_play(x: Any, pid: str) -> int:
    return BANNERS - player(x, pid).banners


def acolyte_room(x: Any, pid: str) -> int:
    """How many Acolytes ``pid`` may still put on the board from hand (hand and caps)."""
    return max(0, min(player(x, pid).acolytes, acolyte_cap(x, pid) - acolytes_in_play(x, pid)))


def action_allowance(x: Any, pid: str) -> int:
    p = player(x, pid)
    vals = []
    if "speedy" in p.traits:
        vals.append(tparam("speedy", "actions"))
    if "ludicrously-capacious" in p.traits:
        vals.append(tparam("ludicrously-capacious", "actions"))
    return min(vals) if vals else BASE_ACTIONS


def acol(sp: Space, i: int) -> int:
    return sp.acolytes[i] if i < len(sp.acolytes) else 0


def control(x: Any, space: int) -> str | None:
    """CL-4.1: who controls ``space`` (None on a tie or an empty space)."""
    sp = x.spaces[space]
    if sp.colossi:
        if len(sp.colossi) == 1:
            return sp.colossi[0]
        ids = seats(x)
        counts = [(acol(sp, ids.index(c)), c) for c in sp.colossi]
    else:
        if not any(sp.acolytes):
            return None
        ids = seats(x)
        counts = [(n, ids[i]) for i, n in enumerate(sp.acolytes) if n > 0]
    if not counts:
        return None
    best = max(n for n, _ in counts)
    top = [c for n, c in counts if n == best]
    return top[0] if len(top) == 1 else None


def beast_space(x: Any, beast: str) -> int | None:
    for i, sp in enumerate(x.spaces):
        if beast in sp.beasts:
            return i
    return None


def beasts_on_board(x: Any) -> list[tuple[str, int]]:
    out = []
    for i, sp in enumerate(x.spaces):
        for b in sp.beasts:
            out.append((b, i))
    return sorted(out)


def passives_at(x: Any, space: int) -> list[str]:
    """The Beast passives acting on ``space``: its Beasts, and Animalistic Colossi standing there."""
    sp = x.spaces[space]
    info = C().beasts
    out = [info[b].beast.passive for b in sp.beasts if b in info]
    for c in sp.colossi:
        a = player(x, c).animal
        if a is not None and a in info:
            out.append(info[a].beast.passive)
    return out


def guarded(x: Any, space: int) -> bool:
    return "guards" in passives_at(x, space)


def acolyte_protected(x: Any, space: int, owner: str) -> bool:
    """CL-3.6: Stone Beast's space, or an owner's Protective Colossus on the space."""
    if guarded(x, space):
        return True
    return has(x, owner, "protective") and player(x, owner).colossus == space


def banner_protected(x: Any, space: int, owner: str) -> bool:
    if guarded(x, space):
        return True
    return has(x, owner, "protective") and player(x, owner).colossus == space


def deadly(x: Any, space: int, owner: str) -> bool:
    """Would an Acolyte of ``owner`` die on ``space`` at once?"""
    sp = x.spaces[space]
    lethal = False
    if sp.tile is not None:
        trig = C().tiles[sp.tile].trigger
        lethal = trig is not None and trig.kind == "acolytes-die-here"
    if not lethal:
        ps = passives_at(x, space)
        lethal = "kills-acolytes" in ps or (x.options.beast_kills_on_space and bool(sp.beasts))
    return lethal and not acolyte_protected(x, space, owner)


def produces(sp: Space) -> dict[str, int]:
    if sp.tile is None:
        return {}
    return C().tiles[sp.tile].produces


def has_piece(x: Any, space: int, pid: str) -> bool:
    sp = x.spaces[space]
    return pid in sp.colossi or acol(sp, seat(x, pid)) > 0


def road_piece(x: Any, space: int, pid: str) -> bool:
    """Does ``space`` hold a piece that is a road for ``pid`` (own, or the Sly-named player's)?"""
    if has_piece(x, space, pid):
        return True
    named = x.info.sly if x.turn_player == pid else None
    return named is not None and has_piece(x, space, named)


def move_adjacent(x: Any, pid: str, space: int, own: bool) -> tuple[int, ...]:
    """Where a piece of ``pid`` on ``space`` may step (Underworld joins Banner spaces in own turn)."""
    adj = B(x).adj[space]
    if own and x.turn_player == pid and has(x, pid, "underworld") and pid in x.spaces[space].banners:
        extra = tuple(i for i, sp in enumerate(x.spaces) if i != space and pid in sp.banners and i not in adj)
        return adj + extra
    return adj


def explored(x: Any, space: int) -> bool:
    return x.spaces[space].tile is not None


def tile_effect_kind(sp: Space) -> str | None:
    if sp.tile is None:
        return None
    r = C().tiles[sp.tile].rest
    return r.kind if r is not None else None


def head(x: Any) -> Any:
    return x.todo[0] if x.todo else None


def new_turn_info(x: Any, pid: str) -> TurnInfo:
    return TurnInfo(actions=action_allowance(x, pid))


def launch_items(x: Any, centre: int, rng: int) -> list[Item]:
    """Everything on ``centre`` and its neighbours, in a fixed order (Launchpad)."""
    ids = seats(x)
    out: list[Item] = []
    spaces = [centre] + list(B(x).adj[centre]) if rng >= 1 else [centre]
    for i in spaces:
        sp = x.spaces[i]
        for c in sp.colossi:
            out.append(Item("colossus", c, i))
        for k, pid in enumerate(ids):
            if not acolyte_protected(x, i, pid):
                out += [Item("acolyte", pid, i)] * acol(sp, k)
        for o in sp.banners:
            out.append(Item("banner", o, i))
        for b in sp.beasts:
            out.append(Item("beast", b, i))
        out += [Item("gold", None, i)] * sp.gold + [Item("blue", None, i)] * sp.blue + [Item("green", None, i)] * sp.green
    return out

