"""Keystrokes per event in the terminal recorder (issue 30): ``python -m benchmarks --keystrokes N``.

For each game, N matches are played at a "table" (a :class:`~adjudicator.build.Recording` picking
random legal events with the game's playout weights, as :func:`adjudicator.core.kernel.playout.playout`
does) while a :class:`~replays.record.RecordSession` records them from what a person types: for
each event the shortest entry the recorder accepts (Enter alone for the default, else the
choice's number, else the game's notation, else the event as JSON; a match-ending entry and its
``y``), each entry costing its characters plus Enter (a single digit when at most nine choices are
listed is recorded at once, without Enter: ``RecordSession.at_once``).  Passes the recorder fills in (the player's
only choice) cost nothing.  The figures:

* ``keys_per_event``: keystrokes / events recorded (target <= 1.5);
* ``events_per_entry``: events recorded / entries typed;
* ``entries_per_turn``: entries / turns (``game.turn_number`` changes; a Kolossus turn's
  target is at most 3 entries, which needs the game's compound entries in ``parse_entry`` and
  the picks its notation says an entry goes on from, ``notation.continues``: a pick held open
  is not an entry of its own, the entry counts in the turn it was opened in); and, split by who
  rolls the dice (``turns_by_dice``: the players' own dice, each entered, or the set-up's die
  generator, its dice filled in), the mean and the max;
* how the entries were made (``by``: enter, number, notation, json, confirm).

Two scorekeeper models, side by side for every game (``model``):

* **one pick an entry** (``one``): every pick is an entry but where the recorder holds it open
  itself (the game's ``notation.continues``);
* **chaining** (``chaining``): as above, and the scorekeeper presses the chain key (``+``, "and
  then", one keystroke more) before a pick the game's notation says a person chains with the
  next (``notation.chains(state, events, after)``, the position before the pick, its events, the
  position after them): the pick is held open and recorded with the next as one entry.  A game
  opts in through its notation; the others define no ``chains`` and their chaining row is the
  first row (their entries already say one player's decision each, and the chain key would only
  cost keys).  Kolossus chains an activation (declared, rolled, moved) after which the same
  warband still has the activation points for another activation: the scorekeeper sees the
  points left on the table; if the player ends the turn instead, ``end`` completes the entry.
  So a turn of four Warrior activations is one or two entries instead of four; the rules allow
  no fewer decisions (every roll and every move is still entered).

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
from adjudicator.core.kernel.notation import NotationError
from adjudicator.core.kernel.protocol import Game
from adjudicator.core.kernel.verify import propose
from adjudicator.recorder.session import RecordSession
from adjudicator.recorder.keys import CHAIN, TEXT, Keypad

#: the target of the issue: keystrokes per event in the terminal
KEYS_PER_EVENT_MAX = 1.5
#: the most events of one benchmark match (a longer one is cut there and reported)
MAX_EVENTS = 3_000
#: each game's ruleset options for a match of a few hundred events (as tests/test_record.py)
SHORT: dict[str, dict[str, Any]] = {"logos": {"start_hp": 4}, "kolossus": {"rounds": 1}, "colossi": {"gold_target": 5}}
#: the two scorekeeper models (the module docstring)
MODELS = ("one", "chaining")


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


def play(game: Game, seed: int, table: Recording) -> list[bool]:
    """The table's match (random legal events with the game's playout weights, ``seed``), pushed
    to ``table``; per event after the set-up, whether it was forced (the only legal event but a
    match-ending decision: what the recorder may fill in)."""
    rng = random.Random(seed)
    forced: list[bool] = []
    while not table.is_over() and len(table) < MAX_EVENTS:
        options = table.legal()
        if not options:
            break
        weights = [game.playout_weight(table.state, e) for e in options]
        ev = rng.choices(options, weights if sum(weights) > 0 else None)[0]
        forced.append(len(options) == 1 or all(e == ev or ends(game, table.state, e) for e in options))
        table.push(ev)
    return forced


def covers(got: list[Any], want: list[Any]) -> bool:
    """Are ``got`` the first events of ``want``?"""
    return got == want[:len(got)]


def line_of(keypad: Keypad, seq: list[str], want: list[Any]) -> list[str]:
    """The lines ``record --script`` reads for the entry the keys ``seq`` made (run before them):
    the choice's number, a compound's or a match-ending entry's words (then ``y``), or what was
    typed; an empty line for Enter alone."""
    seq = [k for k in seq if k != CHAIN]  # (a script's line is its own entry: the chain is the keys')
    if seq == ["enter"]:
        return [""]
    if "enter" in seq:
        text = "".join(k for k in seq if k != "enter")
        return [text[1:] if text.startswith(TEXT) else text]
    s = keypad.session
    enders = s.enders()
    for c in keypad.listed() + enders:
        ending = c in enders
        if c.events == want[:len(c.events)] and (keypad.keys_for(c) or []) + ["y"] * ending == seq:
            if c.number:
                return [str(c.number)]
            return [c.label if c.then else s.words(c.event)] + ["y"] * ending
    raise RecorderMismatch(f"no line for the keys {seq!r}")


def keys_of(keypad: Keypad, want: list[Any]) -> tuple[list[str], str, int]:
    """What a person presses to record the table's next events ``want``: the pick that records
    the most of them in the fewest keys (Enter for the default; a choice's keys through the open
    groups; a compound entry; ``0``, the keys and ``y`` for a match-ending one), else the
    notation typed (``/`` first where its first character is a key), else the event as JSON;
    with how, and how many events of ``want`` it records (before the passes filled in)."""
    session = keypad.session
    best: tuple[int, int, list[str], str] | None = None
    default = session.default()
    if default is not None and covers(default.events, want):
        best = (-len(default.events), 1, ["enter"], "enter")
    enders = session.enders()
    for c in keypad.listed() + enders:
        n = len(c.events)
        if not covers(c.events, want):
            continue
        keys = keypad.keys_for(c)
        if keys is None:
            continue
        keys = keys + ["y"] if c in enders else keys
        how = "confirm" if c in enders else "compound" if c.then else f"{len(keys)} key" + ("s" if len(keys) > 1 else "")
        if best is None or (-n, len(keys)) < best[:2]:
            best = (-n, len(keys), keys, how)
    if best is not None:
        return best[2], best[3], -best[0]
    ev = want[0]
    text, how = session.words(ev), "notation"
    try:
        if session.game.notation.parse_entry(text, session.view.state) != [ev]:
            raise NotationError(text, "another event")
    except NotationError:
        text, how = json.dumps(msgspec.to_builtins(ev)), "json"
    first = {k for k, _e in keypad.lines()}
    return ([TEXT] if text[:1] in first or text[:1] == TEXT else []) + list(text) + ["enter"], how, 1


def chained(game: Game, table: Recording, at: int, n: int) -> bool:
    """Does the chaining scorekeeper press the chain key before the pick of the table's events
    ``at`` to ``at + n - 1`` (the game's ``notation.chains``; none: never)?"""
    chains = getattr(game.notation, "chains", None)
    if chains is None:
        return False
    with table._using():
        return bool(chains(table._entries[at - 1][2], table.events[at:at + n], table._entries[at + n - 1][2]))


def record_match(game: Game, seed: int, directory: str, model: str = "one") -> dict[str, Any]:
    """One match played at the table, then kept with the recorder's keys (see the module) by the
    scorekeeper ``model`` (:data:`MODELS`)."""
    if model not in MODELS:
        raise ValueError(f"model: {model!r} is not one of {', '.join(MODELS)}")
    session, table = start(game, seed, Path(directory) / f"{game.id}-{seed}-{model}.jsonl")
    forced = play(game, seed, table)
    want = table.events  # (one entry an event: table._entries[i] is the position after event i)
    keypad = Keypad(session)
    keys = entries = 0
    pressed: list[str] = []
    lines: list[str] = []
    by: dict[str, int] = {}
    per_turn: dict[Any, int] = {}
    while len(session.record) < len(want):
        at = len(session.record)
        seq, how, n = keys_of(keypad, want[at:])
        lines += line_of(keypad, seq, want[at:])
        if model == "chaining" and chained(game, table, at, n):
            seq = [CHAIN] + seq
            by["chain key"] = by.get("chain key", 0) + 1
        if not session.holding:  # (an entry held open counts in the turn it was opened in)
            turn = game.turn_number(session.record.state)
        line = ""
        answer = None
        for k in seq:
            p = keypad.press(k, line)
            keys += 1
            line = p.line if p.consumed else line + k
            if p.answer is not None:
                answer = p.answer
                if not p.answer.held:
                    entries += 1
                    per_turn[turn] = per_turn.get(turn, 0) + 1
                if not p.answer.ok and not p.answer.confirm:
                    raise RecorderMismatch(f"{game.id} seed {seed}: {''.join(seq)!r} refused: {p.answer.message}")
        pressed += seq
        by[how] = by.get(how, 0) + 1
        if answer is None or len(session.record) <= at:
            raise RecorderMismatch(f"{game.id} seed {seed}: {seq!r} recorded nothing at event {at}")
        got = session.record.events
        if not covers(got[at:], want[at:]) or session.record.state != table._entries[len(got) - 1][2]:
            raise RecorderMismatch(f"{game.id} seed {seed}: the recorder holds another match at event {at}")
        for j, filled in enumerate(answer.filled, start=len(got) - len(answer.filled)):
            if not forced[j - 1]:
                raise RecorderMismatch(f"{game.id} seed {seed}: {session.words(filled)} filled in, but "
                                       "another event was legal too")
    if session.holding:
        raise RecorderMismatch(f"{game.id} seed {seed}: an entry is still held open at the end")
    verdict = session.record.verify().verdict
    if verdict != "legal" and table.is_over():
        raise RecorderMismatch(f"{game.id} seed {seed}: the recorded log verifies {verdict}")
    return {"events": len(want) - 1, "keys": keys, "entries": entries, "turns": len(per_turn),
            "per_turn": list(per_turn.values()), "turn_of": list(per_turn), "by": by, "dice": dice_of(session.record.setup), "over": table.is_over(), "typed": pressed, "lines": lines,
            "path": str(session.path)}


def dice_of(setup: Any) -> str:
    """Who rolls the match's dice: ``generator`` (a die generator the set-up declares, whose dice
    the recorder fills in) or ``own`` (the players' own dice, each entered)."""
    return "generator" if getattr(setup, "rng", None) is not None else "own"


def turns_by_dice(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Entries per turn (mean and max) of the matches with the players' own dice and of those
    with a die generator."""
    out: dict[str, dict[str, Any]] = {}
    for dice in ("own", "generator"):
        turns = [n for r in runs if r["dice"] == dice for n in r["per_turn"]]
        if turns:
            out[dice] = {"matches": sum(r["dice"] == dice for r in runs), "turns": len(turns),
                         "mean": round(sum(turns) / len(turns), 2), "max": max(turns)}
    return out


def measure(game: Game, matches: int, directory: str, model: str = "one") -> dict[str, Any]:
    """The figures of ``matches`` generated matches of ``game`` (seeds 0 to matches-1) kept by
    the scorekeeper ``model`` (:data:`MODELS`)."""
    runs = [record_match(game, seed, directory, model) for seed in range(matches)]
    events = sum(r["events"] for r in runs)
    keys = sum(r["keys"] for r in runs)
    entries = sum(r["entries"] for r in runs)
    per_turn = [n for r in runs for n in r["per_turn"]]
    by: dict[str, int] = {}
    for r in runs:
        for k, v in r["by"].items():
            by[k] = by.get(k, 0) + v
    return {"model": model, "matches": matches, "events": events, "keys": keys, "entries": entries,
            "keys_per_event": round(keys / max(1, events), 3),
            "events_per_entry": round(events / max(1, entries), 3),
            "entries_per_turn": round(entries / max(1, len(per_turn)), 2),
            "entries_per_turn_max": max(per_turn, default=0), "turns_by_dice": turns_by_dice(runs), "by": by,
            "finished": sum(r["over"] for r in runs),
            "pass": keys / max(1, events) <= KEYS_PER_EVENT_MAX}


def measure_both(game: Game, matches: int, directory: str) -> dict[str, Any]:
    """Both models' figures: the first model's dict with the chaining model's under ``chaining``.
    A game whose notation chains nothing (no ``chains``) is kept the same way by both, so its
    chaining figures are the first model's (``chains: False``), not measured twice."""
    one = measure(game, matches, directory)
    has = getattr(game.notation, "chains", None) is not None
    other = measure(game, matches, directory, "chaining") if has else {**one, "model": "chaining"}
    return {**one, "chains": has, "chaining": other}


def run(games: list[Game], matches: int, as_json: bool) -> int:
    """``python -m benchmarks --keystrokes N``: the rows of every game, one a scorekeeper model
    (the module docstring); exit 1 on a defect."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="adjudicator-keys-") as directory:
        for game in games:
            try:
                out[game.id] = measure_both(game, matches, directory)
            except RecorderMismatch as exc:
                print(f"error: {exc}")
                return 1
    if as_json:
        print(json.dumps({"keystrokes": out}, indent=2))
        return 0
    print(f"terminal recorder, {matches} generated matches a game (target <= {KEYS_PER_EVENT_MAX} keystrokes per event)")
    print(f"{'game':<16}{'model':<10}{'events':>8}{'keys/event':>12}{'events/entry':>14}{'entries/turn':>14}{'max':>5}"
          "  entries by")
    for gid, both in out.items():
        for r in (both, both["chaining"]):
            by = ", ".join(f"{k} {v}" for k, v in sorted(r["by"].items()))
            mark = "" if r["pass"] else "  (over the target)"
            same = "  (chains nothing: as one pick an entry)" if r["model"] == "chaining" and not both["chains"] else ""
            print(f"{gid:<16}{r['model']:<10}{r['events']:>8}{r['keys_per_event']:>12}{r['events_per_entry']:>14}"
                  f"{r['entries_per_turn']:>14}{r['entries_per_turn_max']:>5}  {by}{mark}{same}")
    for gid, both in out.items():
        for r in (both, both["chaining"]):
            split = r["turns_by_dice"]
            if "generator" in split:  # (a game whose set-ups may declare a die generator)
                print(f"{gid} ({r['model']}) entries per turn: " + "; ".join(
                    f"{'own dice' if d == 'own' else 'die generator'} mean {v['mean']}, max {v['max']} "
                    f"({v['turns']} turns of {v['matches']} matches)" for d, v in split.items()))
    return 0
