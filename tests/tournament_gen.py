"""Generated tournaments (issue 21): a manifest, its logs and the problems planted in them.

``generate(directory, game_id, players=..., rounds=..., plant=...)`` writes ``manifest.toml``,
the registered deck lists (inline, and every eighth as a deck file), and one log per table (or
one record per seat at every fifth table), each a random legal match of the game's own playout
(:func:`adjudicator.core.kernel.playout.playout`) between the table's players with their registered
decks, run to its end.  ``plant`` names the problems to plant, one table each; the result lists
each planted problem with its round, table, the manifest's line of the table and the file and
line it is at, computed from what the generator wrote (never by the checker under test).

Used by tests/test_tournament.py and ``python -m benchmarks --tournament N``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.services.pairings import toml_value
from adjudicator.core.kernel.playout import playout
from adjudicator.core.kernel.verify import run

#: every kind the Colossus Order tournament plants (one table each), besides a judge's penalty
ALL_PLANTS = ("illegal", "unfinished", "result-mismatch", "deck", "table-mismatch", "missing-log",
              "duplicate-log", "seated-twice", "seat-conflict", "unreadable", "undetermined", "wrong-game")
#: the planted problems of the 64-player desk test (issue 31): every kind, each once; the plants
#: after ALL_PLANTS are not tables' own (a registration) or need the event's other plants
DESK_PLANTS = ALL_PLANTS + ("registration", "seen-deck", "copied-log", "copied-rematch", "impossible-seat", "log-and-seats",
                            "no-result", "points-mismatch", "rematch")
#: plants that are no one table's (never given a table of their own)
EVENT_PLANTS = ("registration",)
#: the kind of problem a plant is reported as, where it is not the plant's own name
REPORTED = {"wrong-game": "table-mismatch", "seen-deck": "deck", "impossible-seat": "illegal",
            "log-and-seats": "seat-conflict", "copied-rematch": "copied-log"}

_enc = msgspec.json.Encoder()


@dataclass
class Planted:
    kind: str
    #: None: a finding of the event (a registration)
    round: int | None
    #: None: a finding of the round (an unpaired player)
    table: int | None
    manifest_line: int
    file: str | None
    line: int | None
    player: str | None = None


@dataclass
class Generated:
    directory: Path
    manifest: Path
    planted: list[Planted] = field(default_factory=list)
    #: (round, table, player, file, line) of the judge's penalty written into one log
    penalty: tuple[int, int, str, str, int] | None = None
    tables: int = 0


_toml = toml_value


# -- set-ups per game (the generator's own knowledge; the checker never needs it) -----------------

def _decks(game: Any, players: list[str], seed: int) -> dict[str, Any]:
    """Each player's registered deck list (None: the game has none)."""
    out = {}
    for i, p in enumerate(players):
        if game.deck_type is None:
            out[p] = None
        else:
            out[p] = game.sample_setup(seed * 1000 + i).decks["p1"]
    return out


def _setup(game: Any, names: list[str], decks: dict[str, Any], seed: int) -> Any:
    base = game.sample_setup(seed)
    if game.deck_type is not None:
        return msgspec.structs.replace(base, players=names, decks={p: decks[p] for p in names})
    if hasattr(base, "seats"):  # Kolossus: a seed of four players, each seat renamed
        s = seed
        while len(game.sample_setup(s).players) != len(names):
            s += 1
        base = game.sample_setup(s)
        rename = dict(zip(base.players, names))
        seats = [msgspec.structs.replace(x, player=rename[x.player]) for x in base.seats]
        return msgspec.structs.replace(base, players=names, seats=seats)
    s = seed
    while len(game.sample_setup(s).players) != len(names):
        s += 1
    return msgspec.structs.replace(game.sample_setup(s), players=names)


def _match(game: Any, names: list[str], decks: dict[str, Any], seed: int) -> tuple[list[Any], Any]:
    """A random legal match between ``names`` run to its end (the first seed that ends)."""
    for s in range(seed, seed + 50):
        events, state = playout(game, s, setup=_setup(game, names, decks, s), max_events=20_000)
        if game.outcome(state) is not None:
            return events, game.outcome(state)
    raise AssertionError(f"{game.id}: no playout between {names} ended")


def _swapped_deck(game: Any, deck: Any, seed: int) -> tuple[Any, str]:
    """``deck`` with one card the registered list does not allow (a card not on it, or one copy
    more): a deck list that is still legal; and that card."""
    base = game.deck_counts(deck)
    for s in range(seed, seed + 200):
        other = game.deck_counts(game.sample_setup(s).decks["p1"])
        if hasattr(deck, "colossus"):  # Colossus Order: a same-colour deck, one name swapped
            if game.sample_setup(s).decks["p1"].colossus != deck.colossus:
                continue
            new = [c for c in other if c not in base]
            old = [c for c in deck.cards if base[c] == other.get(new[0], 0)] if new else []
            if not new or not old:
                continue
            cards = {c: n for c, n in deck.cards.items() if c != old[-1]}
            cards[new[0]] = other[new[0]]
            return msgspec.structs.replace(deck, cards=cards), new[0]
        ones = [c for c, n in deck.items() if n == 1]
        twos = [c for c, n in deck.items() if n == 2]
        if ones and twos:  # LOGOS: one card one copy more, another one fewer
            new = dict(deck)
            new[ones[0]], new[twos[0]] = 2, 1
            return new, ones[0]
    raise AssertionError("no deck to swap with")


def _broken_deck(game: Any, deck: Any) -> Any:
    """``deck`` with one card's copies raised to 9 (a list the construction rules refuse)."""
    if hasattr(deck, "cards"):  # Colossus Order
        card = sorted(deck.cards)[0]
        return msgspec.structs.replace(deck, cards={**deck.cards, card: 9})
    card = sorted(deck)[0]
    return {**deck, card: 9}


#: events whose card fields hold another player's cards (the generator's own list): type ->
#: field -> "opponent" or the field naming the owner
_OTHERS = {"GemsCaptured": {"cards": "opponent"}, "BattleResolved": {"card": "opponent"},
           "EffectResolved": {"cards": "target"}}


def _first_use(lines: list[bytes], player: str, card: str) -> int:
    """The first line that shows ``card`` as ``player``'s (their own event, or an opponent's that
    names it: a captured Gem, a hit Locus card)."""
    for i, raw in enumerate(lines, start=1):
        doc = json.loads(raw)
        for fld in ("card", "cards"):
            value = doc.get(fld)
            cards = value if isinstance(value, list) else [value]
            how = _OTHERS.get(doc.get("type"), {}).get(fld)
            owner = doc.get("owner") or doc.get("player") if how is None else doc.get(how) if how != "opponent" else \
                (None if doc.get("player") == player or "player" not in doc else player)
            if owner == player and card in cards:
                return i
    return 1


def _verdict(game: Any, lines: list[bytes]) -> Any:
    return run(parse_log(b"".join(lines), "gen"))


def _illegal(game: Any, lines: list[bytes]) -> tuple[list[bytes], int]:
    """The log with one decision line repeated right after itself where that is illegal; the line."""
    for k in range(20, len(lines) - 1):
        doc = json.loads(lines[k])
        cls = game.event_class(doc["type"])
        if cls is None or cls.kind != "D":
            continue
        cand = lines[:k + 1] + [lines[k]] + lines[k + 1:]
        res = _verdict(game, cand)
        if res.violations and res.violations[0].line == k + 2:
            return cand, k + 2
    raise AssertionError("no decision whose repetition is illegal")


def _lone_record(game: Any, names: list[str], decks: dict[str, Any], seed: int) -> tuple[list[bytes], tuple[int, str]]:
    """One seat's record of a match between ``names`` that verifies undetermined; the line of its
    first undetermined event and the match's result."""
    for s in range(seed, seed + 200, 7):
        events, outcome = _match(game, names, decks, s)
        for p in names:
            rec = [_enc.encode(game.redact(e, p)) + b"\n" for e in events]
            res = _verdict(game, rec)
            if res.undetermined and not res.violations:
                return rec, (res.undetermined[0].line, "draw" if outcome.result == "draw" else outcome.winner)
    raise AssertionError("no seat's record is undetermined")


def _impossible(game: Any, names: list[str], decks: dict[str, Any], seed: int) -> tuple[list[Any], Any, tuple[int, bytes]]:
    """A match in which the second seat's record can name, where both seats see it, a card of its
    own revealed deck its deck list cannot hold (its record alone then illegal at that line, the
    other seat's naming the real card): the match, its outcome and (index, the impossible line)."""
    b = names[1]
    pool = sorted({c for s in range(40) if game.deck_type is not None for c in game.deck_counts(game.sample_setup(s).decks["p1"])})
    for s in range(seed, seed + 60):
        events, outcome = _match(game, names, decks, s)
        rec = [_enc.encode(game.redact(e, b)) + b"\n" for e in events]
        own = game.deck_counts(decks[b])
        for k, raw in enumerate(rec):
            d = json.loads(raw)
            if d["type"] not in ("CardsRevealed", "TopCardRevealed", "CardMilled") or d.get("player") != b:
                continue
            for other in [c for c in pool if c not in own][:3]:
                bad = {**d, "cards": [other] + d["cards"][1:]} if "cards" in d else {**d, "card": other}
                cand = rec[:k] + [_enc.encode(bad) + b"\n"] + rec[k + 1:]
                res = _verdict(game, cand)
                if res.violations and res.violations[0].line == k + 1:
                    return events, outcome, (k, cand[k])
    raise AssertionError("no seat's record where a revealed card can be impossible")


def _conflict(game: Any, a: list[bytes], b: list[bytes]) -> tuple[list[bytes], int]:
    """Seat B's record with one value both seats saw changed, B's record still not illegal."""
    for k in range(10, len(b)):
        da, db = json.loads(a[k]), json.loads(b[k])
        for key, val in db.items():
            if key in ("type", "player", "seq", "at", "note", "prev") or not isinstance(val, str) or val == "?":
                continue
            if da.get(key) != val:
                continue
            others = sorted({json.loads(x).get(key) for x in b if json.loads(x).get("type") == db["type"]} - {val, "?", None})
            for o in others[:3]:
                if not isinstance(o, str):
                    continue
                cand = b[:k] + [_enc.encode({**db, key: o}) + b"\n"] + b[k + 1:]
                try:
                    res = _verdict(game, cand)
                except Exception:  # noqa: BLE001 - an unreadable candidate: try the next
                    continue
                if not res.violations:
                    return cand, k + 1
    raise AssertionError("no value to contradict")


# -- the tournament --------------------------------------------------------------------------------

def generate(directory: str | Path, game_id: str = "colossus-order", *, players: int = 64, rounds: int = 6,
             table_size: int = 2, plant: tuple[str, ...] = ALL_PLANTS, seed: int = 1, seat_every: int = 5,
             penalty: bool = True) -> Generated:
    game = registry.get(game_id)
    root = Path(directory)
    (root / "logs").mkdir(parents=True, exist_ok=True)
    (root / "decks").mkdir(exist_ok=True)
    names = [f"p{i + 1:02d}" for i in range(players)]
    decks = _decks(game, names, seed)
    # a registered list that breaks the construction rules, played as registered (its logs'
    # set-ups are then illegal): one ``registration`` finding, the logs judged on play
    broken = names[4] if "registration" in plant else None
    if broken is not None:
        decks[broken] = _broken_deck(game, decks[broken])
    out = Generated(root, root / "manifest.toml")
    text = [f'name = "Generated {game.name} open"', 'dates = ["2026-04-11", "2026-04-12"]',
            f'game = "{game.id}"', 'logs = "logs"', 'rematches = "finding"']
    rematch_line = len(text) - 1
    pool = game.data_used(_setup(game, names[:table_size], decks, seed))
    for d in pool:
        text.append(f'{"pool" if d.kind == "pool" else "board"} = "{d.id}"')
    text.append("")
    for i, p in enumerate(names):
        if p == broken:
            out.planted.append(Planted("registration", None, None, len(text) + 1, None, None, p))  # type: ignore[arg-type]
        text.append("[[players]]")
        text.append(f'id = "{p}"')
        text.append(f'name = "Player {i + 1}"')
        if decks[p] is not None:
            value = msgspec.to_builtins(decks[p])
            if i % 8 == 7:
                (root / "decks" / f"{p}.json").write_text(json.dumps(value))
                text.append(f'deck_file = "decks/{p}.json"')
            else:
                text.append(f"deck = {_toml(value)}")
        text.append("")
    rng = random.Random(seed)
    per_round = players // table_size
    spots = _spots(tuple(k for k in plant if k not in EVENT_PLANTS), rounds, per_round)
    written: dict[tuple[int, int], tuple[Path, list[bytes]]] = {}
    match_seed = seed * 7919
    met: set[frozenset[str]] = set()
    first_round: list[list[str]] = []
    for r in range(1, rounds + 1):
        for _try in range(2000):  # pairings where no table's players met before (a rematch)
            order = names[:]
            rng.shuffle(order)
            tables = [order[i * table_size:(i + 1) * table_size] for i in range(per_round)]
            if spots.get("seated-twice", (0, 0))[0] == r:  # a player of table 1 seated at another too
                st = spots["seated-twice"][1]
                tables[st - 1] = [tables[0][0]] + tables[st - 1][1:]
            again = {}  # table -> the round-1 table whose players meet again there (planted)
            for k in ("rematch", "copied-rematch"):
                if spots.get(k, (0, 0))[0] == r:
                    # (a copy's original: a log of its own, no problem planted in it)
                    pair = next(i for i, t in enumerate(first_round) if broken not in t and i not in again.values()
                                and (k == "rematch" or ((1, i + 1) in written and not {(1, i + 1), (1, i + 2)} & set(spots.values()))))
                    again[spots[k][1] - 1] = pair
                    tables = _seat_together(tables, first_round[pair], spots[k][1] - 1)
            planted_at = {t for k, (pr, t) in spots.items() if pr == r} | {1}
            if broken in {p for t in planted_at for p in tables[t - 1]}:
                continue  # the broken list's player at no planted table (each problem alone)
            if not any(frozenset(t) in met for i, t in enumerate(tables) if i not in again):
                break
        else:  # too few players for the rounds: a series, where meeting again is allowed
            text[rematch_line] = 'rematches = "allowed"'

        met.update(frozenset(t) for t in tables)
        first_round = tables if r == 1 else first_round
        round_line = len(text) + 1
        if spots.get("seated-twice", (0, 0))[0] == r:  # the player the plant took off: unpaired
            out.planted.append(Planted("unpaired", r, None, round_line, None, None, order[(st - 1) * table_size]))
        text.append("[[rounds]]")
        text.append(f"round = {r}")
        text.append("")
        for t, seated in enumerate(tables, start=1):
            kind = next((k for k, (pr, pt) in spots.items() if (pr, pt) == (r, t)), None)
            match_seed += 1
            line = len(text) + 1
            text.append("[[rounds.tables]]")
            text.append(f"table = {t}")
            text.append(f"players = {_toml(seated)}")
            out.tables += 1
            match_decks = dict(decks)
            card = None
            if kind == "deck":
                match_decks[seated[0]], card = _swapped_deck(game, decks[seated[0]], match_seed)
            if kind == "seen-deck":  # the second seat's card off its list, its record missing: seen in the first's
                match_decks[seated[1]], card = _swapped_deck(game, decks[seated[1]], match_seed)
            opp = seated
            if kind == "table-mismatch":  # the log of a match between two other players
                opp = [n for n in names if n not in seated][:table_size]
            if kind == "wrong-game":  # a match of another game between the table's players
                other = registry.get("logos" if game.id != "logos" else "colossus-order")
                events, outcome = _match(other, opp, _decks(other, opp, seed), match_seed)
            elif kind == "impossible-seat":  # a match where one seat's record can name a value that cannot be
                events, outcome, impossible = _impossible(game, opp, match_decks, match_seed)
            else:
                events, outcome = _match(game, opp, match_decks, match_seed)
            lines = [_enc.encode(e) + b"\n" for e in events]
            result = "draw" if outcome.result == "draw" else outcome.winner
            path = root / "logs" / f"r{r}-t{t}.jsonl"
            rel = path.name
            seats = (kind in ("seat-conflict", "seen-deck", "impossible-seat", "log-and-seats") or bool(seat_every and (r * per_round + t) % seat_every == 0
                                                    and kind is None and (r, t + 1) not in (spots.get("duplicate-log"), spots.get("copied-log"))
                                                    and broken not in seated)
            ) or (kind is None and broken in seated and r == 1)  # the broken list played at seats' records too
            if kind == "illegal":
                lines, bad = _illegal(game, lines)
                out.planted.append(Planted(kind, r, t, line, str(path), bad))
            elif kind == "unfinished":
                lines = lines[:len(lines) // 2]
                out.planted.append(Planted(kind, r, t, line, str(path), len(lines)))
            elif kind == "result-mismatch":
                result = next(p for p in seated if p not in _winners(result))
                out.planted.append(Planted(kind, r, t, line, str(path), len(lines)))
            elif kind == "deck":
                out.planted.append(Planted(kind, r, t, line, str(path), _first_use(lines, seated[0], card), seated[0]))
            elif kind in ("table-mismatch", "wrong-game"):
                out.planted.append(Planted(REPORTED.get(kind, kind), r, t, line, str(path), 1))
            elif kind == "undetermined":  # one seat's record alone, where it leaves an event undetermined
                lines, at = _lone_record(game, opp, decks, match_seed)
                result = at[1]
                out.planted.append(Planted(kind, r, t, line, str(path), at[0]))
            elif kind == "unreadable":
                k = next(i for i in range(9, len(lines)) if "player" in json.loads(lines[i]))
                lines[k] = _enc.encode({**json.loads(lines[k]), "player": 7}) + b"\n"
                out.planted.append(Planted(kind, r, t, line, str(path), k + 1))
            elif kind in ("rematch", "copied-rematch"):
                out.planted.append(Planted("rematch", r, t, line, None, None))
            elif kind == "no-result":  # the slip left blank
                out.planted.append(Planted(kind, r, t, line, str(path), None))
            elif kind == "points-mismatch":  # a slip giving both players a win's points
                text.append("points = " + _toml({p: 3 for p in seated}))
                out.planted.append(Planted(kind, r, t, line, str(path), len(lines)))
            elif kind == "seated-twice":
                out.planted.append(Planted(kind, r, t, line, None, None, seated[0]))
            if penalty and out.penalty is None and kind is None and not seats and r == rounds:
                ruling = {"type": "JudgeRuling", "event": 12, "decision": "penalty", "player": seated[1],
                          "penalty": "warning", "reason": "slow play"}
                lines = lines[:12] + [_enc.encode(ruling) + b"\n"] + lines[12:]
                out.penalty = (r, t, seated[1], str(path), 13)
            if seats:
                recs = {p: [_enc.encode(game.redact(game.decoder.decode(x), p)) + b"\n" for x in lines] for p in seated}
                if kind in ("seat-conflict", "log-and-seats"):  # (with the full log too: the record disagrees with it)
                    recs[seated[1]], at = _conflict(game, recs[seated[0]], recs[seated[1]])
                    out.planted.append(Planted("seat-conflict", r, t, line, str(root / "logs" / f"r{r}-t{t}-{seated[1]}.jsonl"), at))
                if kind == "impossible-seat":
                    recs[seated[1]][impossible[0]] = impossible[1]
                    out.planted.append(Planted("illegal", r, t, line, str(root / "logs" / f"r{r}-t{t}-{seated[1]}.jsonl"),
                                               impossible[0] + 1))
                if kind == "seen-deck":
                    gone = root / "logs" / f"r{r}-t{t}-{seated[1]}.jsonl"
                    out.planted.append(Planted("missing-log", r, t, line, str(gone), None))
                    out.planted.append(Planted("deck", r, t, line, str(root / "logs" / f"r{r}-t{t}-{seated[0]}.jsonl"),
                                               _first_use(recs[seated[0]], seated[1], card), seated[1]))
                    del recs[seated[1]]
                for p, rec in recs.items():
                    (root / "logs" / f"r{r}-t{t}-{p}.jsonl").write_bytes(b"".join(rec))
                text.append("seats = " + _toml({p: f"r{r}-t{t}-{p}.jsonl" for p in seated}))
                if kind == "log-and-seats":
                    path.write_bytes(b"".join(lines))
                    text.append(f'log = "{rel}"')
            else:
                if kind == "duplicate-log":  # the log of the table before, submitted again
                    prev_path, _prev_lines = written[(r, t - 1)]
                    lines = _prev_lines
                    out.planted.append(Planted(kind, r, t, line, str(path), None))
                if kind == "copied-log":  # the table before's match, its players renamed to this table's
                    (_p, before), = [written[(r, t - 1)]]
                    rename = dict(zip(json.loads(before[0])["players"], seated))
                    lines = [_renamed(x, rename) for x in before]
                    result = _log_winner(game, lines)
                    out.planted.append(Planted(kind, r, t, line, str(path), None))
                if kind == "copied-rematch":  # the log of the players' first meeting, written again (not byte for byte)
                    (_p, before) = written[(1, again[t - 1] + 1)]
                    lines = [json.dumps(json.loads(x), separators=(", ", ": ")).encode() + b"\n" for x in before]
                    result = _log_winner(game, lines)
                    out.planted.append(Planted("copied-log", r, t, line, str(path), None))
                if kind == "missing-log":
                    out.planted.append(Planted(kind, r, t, line, str(path), None))
                else:
                    path.write_bytes(b"".join(lines))
                    written[(r, t)] = (path, lines)
                text.append(f'log = "{rel}"')
            if kind != "no-result":
                text.append(f'result = "{result}"')
            text.append("")
    out.manifest.write_text("\n".join(text))
    return out


def _renamed(line: bytes, names: dict[str, str]) -> bytes:
    """A log line with every player's name (a quoted string: a value or a key) replaced by ``names``'."""
    return re.sub(rb'"([^"\\]+)"', lambda m: b'"' + names.get(m.group(1).decode(), m.group(1).decode()).encode() + b'"', line)


def _log_winner(game: Any, lines: list[bytes]) -> str:
    res = _verdict(game, lines)
    return "draw" if res.outcome.result == "draw" else res.outcome.winner


def _seat_together(tables: list[list[str]], pair: list[str], at: int) -> list[list[str]]:
    """``tables`` with the players of ``pair`` moved to table ``at`` (swapped with its players)."""
    flat = [p for t in tables for p in t]
    size = len(tables[0])
    for k, p in enumerate(pair):
        i, j = flat.index(p), at * size + k
        flat[i], flat[j] = flat[j], flat[i]
    return [flat[i * size:(i + 1) * size] for i in range(len(tables))]


def _winners(result: str) -> set[str]:
    return set(result.split("+"))


def _spots(plant: tuple[str, ...], rounds: int, per_round: int) -> dict[str, tuple[int, int]]:
    """One (round, table) per planted kind, spread over the rounds at tables 3, 5, 7 ... (a
    duplicate at table 2, whose table 1 keeps its own log; a player seated twice comes from table 1)."""
    spots: dict[str, tuple[int, int]] = {}
    for i, kind in enumerate(plant):
        r = 1 + i % rounds
        t = 2 if kind in ("duplicate-log", "copied-log") else 3 + 2 * (i // rounds)
        r = rounds if kind in ("rematch", "copied-rematch") else r  # (players of round 1 meet again in the last)
        spot = (r, min(t, per_round))
        while spot in spots.values() and spot[1] + 2 <= per_round:  # (two kinds of the last round: one table each)
            spot = (r, spot[1] + 2)
        spots[kind] = spot
    return spots
