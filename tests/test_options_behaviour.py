"""Every ruleset option of every registered game changes a ruling (issue 29, item 14).

The gate measures behaviour, not test names: for each option of ``game.options_type`` and each other
value of it (a bool flipped, every other ``Literal`` value, a few integers, the alternatives named in
``ALTERNATIVES`` for free-form values), random legal matches are searched for a position where the
option matters: an event of the log whose ruling (verdict and code) or derived events differ between
the two values, or a position whose legal events differ, or a position whose public view
(``game.view`` without the set-up and options it restates) differs: an option that only moves Gold
shows there; or (last) what a seat sees of a position (``game.view(state, seat)``): an option that
only shows or hides a card shows there.  The matches searched are the game's shipped examples (``examples/<game>/``: set-ups a
playout never makes, such as a short deck) and matches played out from the game's own
``sample_setup`` under every preset, under the default value and under the other value, so an option
whose effect only shows in a line of play that the default forbids is found too.

An option no match reaches is a failure: either the option does nothing (a bug in the engine or a
dead option) or the playouts never get there, and then the game's sample set-ups need widening.
"""

from __future__ import annotations

import functools
import typing
from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.verify import propose, start

#: values to try for options whose type does not enumerate them (free-form strings, tables, maps)
ALTERNATIVES: dict[tuple[str, str], list[Any]] = {
    ("kolossus", "board"): ["zikkurat-11-edge"],
    ("kolossus", "mana_table"): [(0, 0, 0, 0), (9, 9, 9, 9)],
    ("kolossus", "weapons"): [{"tuatha": "whip"}, {"krell": "spear", "tuatha": "hammer"}],
    ("colossi", "board"): ["square27"],
}
#: sample set-ups (seed, long) whose playouts reach a position where the option matters and which the
#: default seeds miss (found by a wider search: ``python tests/test_options_behaviour.py GAME OPTION``)
EXTRA_SEEDS: dict[tuple[str, str], list[tuple[int, bool]]] = {
    ("colossi", "forced_payment"): [(14, False)],  # a forced payment short of Gold at event 280
}
#: options that change nothing any log can reach (a finding: the option is dead), with the reason
DEAD: dict[tuple[str, str], str] = {
    ("colossus-order", "simultaneous_deckout"): (
        "no event empties both decks at once and deck-out is checked after every event; two empty "
        "decks from the start are a draw under both settings (tests/test_co_rules.py)"),
}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SEEDS = 4
#: how many matches are played out under the other value of an option (per value)
ALT_SEEDS = 8

CASES = [(g.id, name) for g in registry.games()
         for name in g.options_type.__struct_fields__]


def alternatives(game: Game, name: str) -> list[Any]:
    """The values of option ``name`` other than its default that the search tries."""
    hint = typing.get_type_hints(game.options_type)[name]
    default = getattr(game.options_type(), name)
    args = typing.get_args(hint)
    if (game.id, name) in ALTERNATIVES:
        out = ALTERNATIVES[game.id, name]
    elif hint is bool:
        out = [not default]
    elif typing.get_origin(hint) is typing.Literal:
        out = list(args)
    elif hint is int:
        out = [default - 1, default + 1, 0, 1, 2]
    elif int in args and type(None) in args:
        out = [1, 2, 3, 10, 25, None]
    else:
        raise AssertionError(f"{game.id}: option {name} of type {hint} needs values in ALTERNATIVES")
    return [v for v in out if v != default]


def with_option(setup: Event, name: str, value: Any) -> Event:
    return msgspec.structs.replace(setup, options={**setup.options, name: value})


def accepts(game: Game, setup: Event) -> bool:
    """Can a match start from ``setup`` at all (an option value out of its bounds cannot)?"""
    try:
        game.initial_state(setup)
    except Exception:  # noqa: BLE001 - any refusal of the set-up: the value is not one to compare
        return False
    return True


@functools.cache
def default_logs(gid: str) -> list[list[Event]]:
    """Random legal matches from the game's sample set-ups, one per (seed, preset)."""
    game = registry.get(gid)
    setups = []
    for seed in range(SEEDS):
        base = game.sample_setup(seed)
        setups.append(base)
        setups += [msgspec.structs.replace(base, options={**base.options, **game.presets[p]}) for p in sorted(game.presets)]
    return [playout(game, k, setup=s)[0] for k, s in enumerate(setups) if accepts(game, s)]


@functools.cache
def example_logs(gid: str) -> list[list[Event]]:
    """The game's shipped example logs (those that name this game and read)."""
    out = []
    for path in sorted((EXAMPLES / gid).glob("*.jsonl")):
        log = read_log(path)
        if log.game.id == gid:
            out.append([e for _line, e in log.events])
    return out


def _view(game: Game, state: Any) -> bytes:
    view = {k: v for k, v in game.view(state, None).items() if k not in ("setup", "options")}
    return msgspec.json.encode(view, order="sorted")


def _seats_views(game: Game, state: Any, players: list[str]) -> list[bytes]:
    """What each seat sees of the position (an option that only hides or shows a card shows here)."""
    out = []
    for p in players:
        view = {k: v for k, v in game.view(state, p).items() if k not in ("setup", "options")}
        out.append(msgspec.json.encode(view, order="sorted"))
    return out


def _legal(game: Game, state: Any) -> list[bytes]:
    return sorted(msgspec.json.encode(e) for e in game.legal_events(state))


def difference(game: Game, log: list[Event], name: str, value: Any, *, level: int) -> str | None:
    """Where replaying ``log`` with option ``name`` = ``value`` rules otherwise than the log's own
    options (None: nowhere up to the first event either value refuses).  ``level`` 0 compares
    rulings and derived events, 1 also the legal events of every position, 2 also its public view,
    3 also each seat's view of it."""
    one, other = log[0], with_option(log[0], name, value)
    s1, r1, d1 = start(game, one)
    s2, r2, d2 = start(game, other)
    if (r1.verdict, r1.code) != (r2.verdict, r2.code) or d1 != d2:
        return f"the set-up: {r1.code} against {r2.code}"
    for number, event in enumerate(log[1:], 2):
        if level >= 1 and _legal(game, s1) != _legal(game, s2):
            return f"the legal events before event {number}"
        if level >= 2 and _view(game, s1) != _view(game, s2):
            return f"the position before event {number}"
        if level >= 3 and _seats_views(game, s1, one.players) != _seats_views(game, s2, one.players):
            return f"a seat's view of the position before event {number}"
        r1, d1, s1 = propose(game, s1, event)
        r2, d2, s2 = propose(game, s2, event)
        if (r1.verdict, r1.code) != (r2.verdict, r2.code):
            return f"event {number}: {r1.verdict} ({r1.code}) against {r2.verdict} ({r2.code})"
        if d1 != d2:
            return f"the events derived from event {number}"
        if r1.verdict != "legal":
            return None
    return None


def evidence(gid: str, name: str) -> str | None:
    """The first difference found for option ``name`` of game ``gid``, described (None: none)."""
    game = registry.get(gid)
    own = default_logs(gid)
    logs = example_logs(gid) + own + [playout(game, seed, setup=game.sample_setup(seed, long=long))[0]
                                      for seed, long in EXTRA_SEEDS.get((gid, name), [])]
    for value in alternatives(game, name):
        if not accepts(game, with_option(own[0][0], name, value)):
            continue
        played = [playout(game, k, setup=with_option(log[0], name, value))[0]
                  for k, log in enumerate(own[:ALT_SEEDS]) if accepts(game, with_option(log[0], name, value))]
        default = getattr(game.options_type(), name)
        # a log played under ``value`` is compared against the default from its own side
        searched = logs + [[with_option(log[0], name, default)] + log[1:] for log in played]
        # rulings first (cheap), then the legal events of every position, then the positions, then
        # what each seat sees of them
        for level in (0, 1, 2, 3):
            for k, log in enumerate(searched):
                where = difference(game, log, name, value, level=level)
                if where:
                    return f"{name}={value!r}: {where} (match {k})"
    return None


@pytest.mark.parametrize(("gid", "name"), [
    pytest.param(g, n, marks=pytest.mark.xfail(strict=True, reason=DEAD[g, n])) if (g, n) in DEAD else (g, n)
    for g, n in CASES], ids=[f"{g}-{n}" for g, n in CASES])
def test_option_changes_a_ruling(gid: str, name: str) -> None:
    found = evidence(gid, name)
    assert found, (f"{gid}: no random match shows option {name} changing a ruling, derived event or legal "
                   f"event for any of {alternatives(registry.get(gid), name)!r}")


def test_alternatives_name_real_options() -> None:
    for gid, name in [*ALTERNATIVES, *DEAD, *EXTRA_SEEDS]:
        assert name in registry.get(gid).options_type.__struct_fields__, (gid, name)


if __name__ == "__main__":  # the wider search: python tests/test_options_behaviour.py GAME OPTION [SEEDS]
    import sys

    g = registry.get(sys.argv[1])
    for seed in range(int(sys.argv[3]) if len(sys.argv) > 3 else 100):
        for long in (False, True):
            match = playout(g, seed, setup=g.sample_setup(seed, long=long))[0]
            for v in alternatives(g, sys.argv[2]):
                if accepts(g, with_option(match[0], sys.argv[2], v)) and (
                        where := difference(g, match, sys.argv[2], v, level=2)):
                    print(f"seed {seed}, long={long}: {sys.argv[2]}={v!r}: {where}")
                    raise SystemExit(0)
    print("none found")
    raise SystemExit(1)
