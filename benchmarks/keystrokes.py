"""Keystrokes per event in the terminal recorder (issue 30): ``python -m benchmarks --keystrokes N``.

For each game, N matches are played at a "table" (a :class:`~adjudicator.build.Recording` picking
random legal events with the game's playout weights, as :func:`adjudicator.core.playout.playout`
does) while a :class:`~replays.record.RecordSession` records them from what a person types: for
each event the shortest entry the recorder accepts (Enter alone for the default, else the
choice's number, else the game's notation, else the event as JSON; a match-ending entry and its
``y``), each entry costing its characters plus Enter (a single digit when at most nine choices are
listed is recorded at once, without Enter: ``RecordSession.at_once``).  Passes the recorder fills in (the player's
only choice) cost nothing.  The figures:

* ``keys_per_event``: keystrokes / events recorded (target <= 1.5);
* ``events_per_entry``: events recorded / entries typed;
* ``entries_per_turn``: entries typed / turns (``game.turn_number`` changes; a Kolossus turn's
  target is at most 3 entries, which needs the game's compound entries in ``parse_entry``);
* how the entries were made (``by``: enter, number, notation, json, confirm).

Every recorded log must verify ``legal`` and equal the table's events: a benchmark of a recorder
that records something else is worthless.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.build import Recording
from adjudicator.core.notation import NotationError
from adjudicator.core.protocol import Game
from adjudicator.core.verify import propose
from adjudicator.replays.record import RecordSession

#: the target of the issue: keystrokes per event in the terminal
KEYS_PER_EVENT_MAX = 1.5
#: the most events of one benchmark match (a longer one is cut there and reported)
MAX_EVENTS = 3_000
#: each game's ruleset options for a match of a few hundred events (as tests/test_record.py)
SHORT: dict[str, dict[str, Any]] = {"logos": {"start_hp": 4}, "kolossus": {"rounds": 1}, "colossi": {"gold_target": 5}}


class RecorderMismatch(Exception):
    """The recorder recorded something else than the table played (a defect)."""


def start(game: Game, seed: int, path: Path) -> tuple[RecordSession, Recording]:
    """A recorder and the table of one generated match (the game's sample set-up of ``seed``)."""
    doc = msgspec.to_builtins(game.sample_setup(seed))
    options = {**doc.get("options", {}), **SHORT.get(game.id, {})}
    fields = {k: v for k, v in doc.items() if k not in ("type", "game", "players", "options")}
    session = RecordSession.start(path, game.id, doc["players"], options=options, fields=fields)
    return session, Recording(game, session.record.setup)


def ends(game: Game, state: Any, ev: Any) -> bool:
    """Does ``ev``, a player's decision of no other field, end the match (a resignation)?"""
    if not RecordSession._bare(ev):
        return False
    ruling, _derived, after = propose(game, state, ev)
    return ruling.allowed and game.outcome(after) is not None


def shortest_entry(session: RecordSession, ev: Any) -> tuple[list[str], str]:
    """The entries a person types for ``ev`` (shortest first tried) and how (see the module)."""
    default = session.default()
    if default is not None and default.event == ev:
        return [""], "enter"
    for c in session.choices():
        if c.event == ev:
            return [str(c.number)], "number"
    if any(c.event == ev for c in session.enders()):
        return [session.words(ev), "y"], "confirm"
    text = session.words(ev)
    try:
        if session.game.notation.parse_entry(text, session.view.state) == [ev]:
            return [text], "notation"
    except NotationError:
        pass
    return [json.dumps(msgspec.to_builtins(ev))], "json"


def record_match(game: Game, seed: int, directory: str) -> dict[str, Any]:
    """One match played at the table and typed into the recorder (see the module)."""
    session, table = start(game, seed, Path(directory) / f"{game.id}-{seed}.jsonl")
    rng = random.Random(seed)
    keys = entries = 0
    typed_all: list[str] = []
    by: dict[str, int] = {}
    turns = {game.turn_number(table.state)}
    while not table.is_over() and len(table) < MAX_EVENTS:
        options = table.legal()
        if not options:
            break
        weights = [game.playout_weight(table.state, e) for e in options]
        ev = rng.choices(options, weights if sum(weights) > 0 else None)[0]
        typed, how = shortest_entry(session, ev)
        typed_all += typed
        for text in typed:
            keys += len(text) + (0 if session.at_once(text) else 1)  # (one digit of nine choices: no Enter)
            answer = session.enter(text)
            entries += 1
        if not answer.ok:
            raise RecorderMismatch(f"{game.id} seed {seed}: {typed!r} refused: {answer.message}")
        by[how] = by.get(how, 0) + 1
        table.push(ev)
        for filled in session.record.events[len(table):]:  # the passes the recorder filled in
            others = [e for e in table.legal() if e != filled and not ends(game, table.state, e)]
            if others:
                raise RecorderMismatch(f"{game.id} seed {seed}: {session.words(filled)} filled in, but "
                                       f"{session.words(others[0])} was legal too")
            table.push(filled)
        if session.record.events != table.events:
            raise RecorderMismatch(f"{game.id} seed {seed}: the recorder holds another match at event {len(table)}")
        turns.add(game.turn_number(table.state))
    verdict = session.record.verify().verdict
    if verdict != "legal" and table.is_over():
        raise RecorderMismatch(f"{game.id} seed {seed}: the recorded log verifies {verdict}")
    events = len(table) - 1
    return {"events": events, "keys": keys, "entries": entries, "turns": len(turns), "by": by,
            "over": table.is_over(), "typed": typed_all, "path": str(session.path)}


def measure(game: Game, matches: int, directory: str) -> dict[str, Any]:
    """The figures of ``matches`` generated matches of ``game`` (seeds 0 to matches-1)."""
    runs = [record_match(game, seed, directory) for seed in range(matches)]
    events = sum(r["events"] for r in runs)
    keys = sum(r["keys"] for r in runs)
    entries = sum(r["entries"] for r in runs)
    turns = sum(r["turns"] for r in runs)
    by: dict[str, int] = {}
    for r in runs:
        for k, v in r["by"].items():
            by[k] = by.get(k, 0) + v
    return {"matches": matches, "events": events, "keys": keys, "entries": entries,
            "keys_per_event": round(keys / max(1, events), 3),
            "events_per_entry": round(events / max(1, entries), 3),
            "entries_per_turn": round(entries / max(1, turns), 2), "by": by,
            "finished": sum(r["over"] for r in runs),
            "pass": keys / max(1, events) <= KEYS_PER_EVENT_MAX}


def run(games: list[Game], matches: int, as_json: bool) -> int:
    """``python -m benchmarks --keystrokes N``: the row of every game; exit 1 on a defect."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="adjudicator-keys-") as directory:
        for game in games:
            try:
                out[game.id] = measure(game, matches, directory)
            except RecorderMismatch as exc:
                print(f"error: {exc}")
                return 1
    if as_json:
        print(json.dumps({"keystrokes": out}, indent=2))
        return 0
    print(f"terminal recorder, {matches} generated matches a game (target <= {KEYS_PER_EVENT_MAX} keystrokes per event)")
    print(f"{'game':<16}{'events':>8}{'keys/event':>12}{'events/entry':>14}{'entries/turn':>14}  entries by")
    for gid, r in out.items():
        by = ", ".join(f"{k} {v}" for k, v in sorted(r["by"].items()))
        mark = "" if r["pass"] else "  (over the target)"
        print(f"{gid:<16}{r['events']:>8}{r['keys_per_event']:>12}{r['events_per_entry']:>14}{r['entries_per_turn']:>14}  {by}{mark}")
    return 0
