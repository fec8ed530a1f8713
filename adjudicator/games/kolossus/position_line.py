"""A Kolossus position in one line (FEN's idea), and the set-up in a few words.

Fields separated by spaces (docs/games/kolossus.md, "The position in one line", says each)::

    RULESET SEATS LEVELS PIECES WARBANDS STEP:SEAT [key=value | flag ...]

    chapter-3 T=ann@NW,K=ben@NE,I=cat@SE,F=dan@SW = Tc:a9/Tg:b9,c11/Tw:a10,b10~,c10,a11,b11/...
        T:s13,a0.0.1,d2.0.1,p1,wsword/K:.../I:.../F:... act:T seed=13 rng=python-random round=1
        crystals=11/1 destiny=2 points=1 acted rolls=12

- ``RULESET``: the preset (``chapter-1``); ``SEATS``: clockwise from the first player,
  ``letter=player@corner`` (T Tua'tha, K Krell, I Ishtari, F Firbolg).
- ``LEVELS``: ``=`` (the board file's levels), else the rows from the top (11) down, ``/``
  between them, each a digit per square or ``=`` (that row as in the board file).  The Citadel of
  Time is the one square at level 5 (else ``citadel=SQUARE``).
- ``PIECES``: runs of miniatures of one warband and class, in the position's order:
  ``Tc:a9/Tg:b9,c11``; after a square ``~`` = activated this turn, ``+`` = reborn this turn; ``-``:
  none.
- ``WARBANDS``: per seat, the letter, then ``:`` and what is not 0: ``c`` crystals, ``b`` beaten
  (Warriors.Guardians.Colossus), ``s`` mana supply, ``a``/``d`` Attack/Defence (W.G.C), ``g`` mana
  gained this turn, ``p`` pool, ``w`` the Titan Weapon, ``*`` charged.
- ``STEP:SEAT``: what happens next (``act``, ``place``, ...) and for whom.
- then, where not the default: ``round=``, ``first=``, ``order=`` (turns done), ``quaked=``
  (regions moved in the Great Quake), ``quakers=``, ``quake=`` (its die), ``destiny=``,
  ``points=``, the flags ``initiative`` and ``acted``, ``activation=class,square,dice,mp,at,left``
  (``-``: none), ``crystals=TO_COME/ON_CITADEL``, ``last=``/``captured=`` (who took the last
  crystal / this round), ``rolls=`` (dice so far), ``queue=`` (reports due: ``Tw@f6<K`` a
  beaten miniature, ``T*2`` crystals taken), ``ending=``/``result=``
  (``win:ann+cat:T+I:reason``); and the set-up's ``players=``, ``seed=``, ``rng=``, ``sha=`` (the
  board's sha256), ``game=``, ``o.OPTION=JSON`` and ``m.KEY=TEXT``.

Free text is percent-encoded (``%20`` a space); every count and size is bounded.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote

import msgspec

from adjudicator.core.kernel.notation import MAX_TEXT, NotationError

from . import events as E
from .board import load_board
from .state import CHARACTERS, Activation, Piece, Result, State, Warband

LETTER = {"tuatha": "T", "krell": "K", "ishtari": "I", "firbolg": "F"}
OF_LETTER = {v: k for k, v in LETTER.items()}
CLASS = {"warrior": "w", "guardian": "g", "colossus": "c"}
OF_CLASS = {v: k for k, v in CLASS.items()}
STEPS = ("skills", "place", "quake-roll", "quake-shift", "allocate", "round-start", "turn-start", "destiny", "act",
         "roll", "move", "game-end", "over")
_INT = re.compile(r"^-?[0-9]{1,12}$")
MAX_FIELDS = 5_000
MAX_LIST = 1_000
#: values written in one token: only these (and letters, digits) are not percent-encoded
SAFE = "-_.'?"
SAFE_TEXT = "-_.'?+[]{}\":,/@=!*()<>~^|#&;$`\\"


def enc(s: str, safe: str = SAFE) -> str:
    return "%-" if s == "" else quote(s, safe=safe)


def dec(s: str) -> str:
    return "" if s == "%-" else unquote(s)


def _wl(w: str) -> str:
    return LETTER.get(w) or enc(w)


def _lw(s: str) -> str:
    return OF_LETTER.get(s) or dec(s)


class _Fail(Exception):
    def __init__(self, part: str, message: str) -> None:
        self.part, self.message = part, message


def _int(part: str, v: str) -> int:
    if not _INT.match(v):
        raise _Fail(part, f"{v!r} is not a number")
    return int(v)


def _ints(part: str, v: str, n: int) -> tuple[int, ...]:
    xs = v.split(".")
    if len(xs) != n:
        raise _Fail(part, f"{v!r}: {n} numbers joined by '.'")
    return tuple(_int(part, x) for x in xs)


# == the set-up ==============================================================================================

def default_players(seats: list[Any]) -> list[str]:
    return list(dict.fromkeys(s.player for s in seats))


def format_setup(setup: Any) -> str:
    """``RULESET SEATS [players=] [seed=] [rng=] [sha=] [game=] [o.X=] [m.X=]``."""
    seats = ",".join(f"{_wl(s.warband)}={enc(s.player)}@{enc(s.corner)}" for s in setup.seats) or "-"
    out = [enc(setup.ruleset), seats]
    if setup.players != default_players(setup.seats):
        out.append("players=" + (",".join(enc(p) for p in setup.players) or "-"))
    if setup.game != "kolossus":
        out.append(f"game={enc(setup.game)}")
    if setup.seed is not None:
        out.append(f"seed={setup.seed}")
    if setup.rng is not None:
        out.append(f"rng={enc(setup.rng)}")
    if setup.board_sha256 is not None:
        out.append(f"sha={enc(setup.board_sha256)}")
    for k, v in setup.options.items():
        out.append(f"o.{enc(k)}={_option_text(v)}")
    for k, v in setup.meta.items():
        out.append(f"m.{enc(k)}={enc(v, SAFE_TEXT)}")
    return " ".join(out)


def _option_text(v: Any) -> str:
    if isinstance(v, str) and v and re.match(r"^[A-Za-z0-9_.-]+$", v):
        try:
            msgspec.json.decode(v)
        except msgspec.DecodeError:
            return v
    return enc(msgspec.json.encode(v).decode(), SAFE_TEXT)


def _option_value(part: str, text: str) -> Any:
    raw = dec(text)
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError:
        if re.match(r"^[A-Za-z0-9_.-]+$", raw):
            return raw
        raise _Fail(part, f"{raw[:60]!r} is not a JSON value") from None


SETUP_KEYS = ("players", "game", "seed", "rng", "sha")


def setup_from(ruleset: str, seats_tok: str, keys: dict[str, str]) -> E.MatchStarted:
    seats = []
    if seats_tok != "-":
        for item in seats_tok.split(","):
            m = re.match(r"^([^=]+)=([^@]+)@(.+)$", item)
            if m is None:
                raise _Fail("seats", f"{item!r}: letter=player@corner (T=ann@NW)")
            seats.append(E.Seat(warband=_lw(m.group(1)), player=dec(m.group(2)), corner=dec(m.group(3))))
    if len(seats) > 8:
        raise _Fail("seats", f"{len(seats)} seats; Kolossus has 4")
    players = default_players(seats)
    if "players" in keys:
        players = [] if keys["players"] == "-" else [dec(p) for p in keys["players"].split(",")]
    options: dict[str, Any] = {}
    meta: dict[str, str] = {}
    for k, v in keys.items():
        if k.startswith("o."):
            options[dec(k[2:])] = _option_value(k, v)
        elif k.startswith("m."):
            meta[dec(k[2:])] = dec(v)
    return E.MatchStarted(game=dec(keys.get("game", "kolossus")), players=players, seats=seats, ruleset=dec(ruleset),
                          options=options, meta=meta,
                          seed=_int("seed", keys["seed"]) if "seed" in keys else None,
                          rng=dec(keys["rng"]) if "rng" in keys else None,
                          board_sha256=dec(keys["sha"]) if "sha" in keys else None)


def split_keys(part_of: str, tokens: list[str], allowed: tuple[str, ...], flags: tuple[str, ...] = ()) -> dict[str, str]:
    keys: dict[str, str] = {}
    for t in tokens:
        k, eq, v = t.partition("=")
        if not eq:
            if t not in flags:
                raise _Fail(t, f"{t!r} is neither key=value nor a flag ({', '.join(flags) or 'none here'})")
            k, v = t, ""
        elif not (k in allowed or k.startswith("o.") or k.startswith("m.")):
            raise _Fail(k, f"unknown key {k!r} (keys: {', '.join(allowed)}, o.OPTION, m.KEY)")
        if k in keys:
            raise _Fail(k, f"{k} given twice")
        keys[k] = v
    return keys


def parse_setup(text: str, whole: str | None = None) -> E.MatchStarted:
    """The set-up :func:`format_setup` wrote (``start`` event text without its first word)."""
    tokens = text.split()
    try:
        if len(tokens) < 2:
            raise _Fail("set-up", "the ruleset and the seats (chapter-1 T=ann@NW,K=ben@NE,I=cat@SE,F=dan@SW)")
        if len(tokens) > MAX_FIELDS:
            raise _Fail("set-up", f"more than {MAX_FIELDS} fields")
        return setup_from(tokens[0], tokens[1], split_keys("set-up", tokens[2:], SETUP_KEYS))
    except _Fail as f:
        raise NotationError((whole or text)[:80], f"set-up, {f.part}: {f.message}") from None


# == the position ============================================================================================

def _letter_of_seat(s: State, i: int | None) -> str:
    if i is None:
        return "-"
    return LETTER.get(s.warbands[i].id, str(i)) if 0 <= i < len(s.warbands) else str(i)


def _seat_of_letter(part: str, warbands: tuple[Warband, ...], v: str) -> int:
    if _INT.match(v):
        return int(v)
    wid = OF_LETTER.get(v)
    for i, w in enumerate(warbands):
        if w.id == wid:
            return i
    raise _Fail(part, f"{v!r} is the letter of no warband of this match")


def _result_text(r: Result) -> str:
    return f"{r.result}:{'-' if r.winner is None else enc(r.winner, SAFE + '+')}:" \
           f"{'+'.join(_wl(a) for a in r.alliance) or '-'}:{enc(r.reason)}"


def _result(part: str, v: str) -> Result:
    xs = v.split(":")
    if len(xs) != 4 or xs[0] not in ("win", "draw"):
        raise _Fail(part, f"{v!r}: win|draw:winner|-:alliance|-:reason")
    return Result(xs[0], None if xs[1] == "-" else dec(xs[1]),  # type: ignore[arg-type]
                  () if xs[2] == "-" else tuple(_lw(a) for a in xs[2].split("+")), dec(xs[3]))


def _levels_text(s: State, board: Any) -> str:
    if s.levels == board.levels:
        return "="
    n = board.size
    rows = []
    for r in range(n - 1, -1, -1):
        row = s.levels[r * n:(r + 1) * n]
        rows.append("=" if row == board.levels[r * n:(r + 1) * n] else "".join(map(str, row)))
    return "/".join(rows)


def _levels(text: str, board: Any) -> tuple[int, ...]:
    if text == "=":
        return board.levels
    n = board.size
    rows = text.split("/")
    if len(rows) != n:
        raise _Fail("levels", f"{len(rows)} rows; the {board.name} board has {n} (top row first, '/' between)")
    out: list[int] = []
    for k, row in enumerate(reversed(rows)):
        if row == "=":
            out += board.levels[k * n:(k + 1) * n]
        elif len(row) == n and row.isdigit():
            out += [int(c) for c in row]
        else:
            raise _Fail("levels", f"row {k + 1}: {row!r}; {n} digits or '='")
    return tuple(out)


def _pieces_text(s: State) -> str:
    runs: list[str] = []
    last = None
    for p in s.pieces:
        key = (p.warband, p.character)
        sq = enc(p.square) + ("~" if p.activated else "") + ("+" if p.reborn else "")
        if key == last:
            runs[-1] += "," + sq
        else:
            runs.append(f"{_wl(p.warband)}{CLASS.get(p.character, '?')}:{sq}")
        last = key
    return "/".join(runs) or "-"


def _pieces(text: str) -> tuple[Piece, ...]:
    if text == "-":
        return ()
    out: list[Piece] = []
    for run in text.split("/"):
        m = re.match(r"^(.+?)([wgc]):(.+)$", run)
        if m is None:
            raise _Fail("pieces", f"{run!r}: a warband letter, a class (w, g, c), ':' and squares (Tw:a10,b10)")
        for sq in m.group(3).split(","):
            f = re.match(r"^([^~+]+)(~?)(\+?)$", sq)
            if f is None:
                raise _Fail("pieces", f"{sq!r}: a square, then ~ (activated) and + (reborn)")
            out.append(Piece(dec(f.group(1)), _lw(m.group(1)), OF_CLASS[m.group(2)],  # type: ignore[arg-type]
                             activated=bool(f.group(2)), reborn=bool(f.group(3))))
            if len(out) > MAX_LIST:
                raise _Fail("pieces", f"more than {MAX_LIST} miniatures")
    return tuple(out)


def _warband_text(w: Warband) -> str:
    items = []
    if w.crystals:
        items.append(f"c{w.crystals}")
    for key, v in (("b", w.beaten), ("a", w.attack), ("d", w.defence)):
        if any(v):
            items.append(key + ".".join(map(str, v)))
    for key, n in (("s", w.supply), ("g", w.pending), ("p", w.pool)):
        if n:
            items.append(f"{key}{n}")
    if w.weapon is not None:
        items.append("w" + enc(w.weapon))
    if w.charged:
        items.append("*")
    return _wl(w.id) + (":" + ",".join(items) if items else "")


def _warbands(text: str, seats: list[Any]) -> tuple[Warband, ...]:
    parts = text.split("/") if text != "-" else []
    if len(parts) > len(seats) or len(parts) > 4:
        raise _Fail("warbands", f"{len(parts)} warbands; the set-up seats {len(seats)}")
    out = []
    for i, t in enumerate(parts):
        head, _, rest = t.partition(":")
        seat = seats[i]
        if _lw(head) != seat.warband:
            raise _Fail("warbands", f"warband {i + 1} is {head!r}; the seats say {_wl(seat.warband)} (seat order)")
        f: dict[str, Any] = {}
        for item in rest.split(",") if rest else []:
            k, v = item[:1], item[1:]
            if k in f:
                raise _Fail("warbands", f"{head}: {k} given twice")
            if k in "bad" and k:
                f[k] = _ints("warbands", v, 3)
            elif k in "csgp" and k:
                f[k] = _int("warbands", v)
            elif k == "w":
                f[k] = dec(v)
            elif item == "*":
                f[k] = True
            else:
                raise _Fail("warbands", f"{head}: {item!r}; c b s a d g p w * (see the grammar)")
        out.append(Warband(seat.warband, seat.player, seat.corner, beaten=f.get("b", (0, 0, 0)), crystals=f.get("c", 0),
                           supply=f.get("s", 0), attack=f.get("a", (0, 0, 0)), defence=f.get("d", (0, 0, 0)),
                           pending=f.get("g", 0), pool=f.get("p", 0), weapon=f.get("w"), charged=f.get("*", False)))
    return tuple(out)


def _queue_text(q: Any) -> str:
    if type(q) is E.CrystalsCaptured:
        return f"{_wl(q.warband)}*{q.count}"
    by = LETTER.get(q.by) or enc(q.by)
    return f"{_wl(q.warband)}{CLASS.get(q.character, '?')}@{enc(q.square)}<{by}"


def _queue(text: str) -> tuple[Any, ...]:
    out: list[Any] = []
    for item in text.split(","):
        m = re.match(r"^(.+?)\*(-?[0-9]{1,9})$", item)
        if m is not None:
            out.append(E.CrystalsCaptured(warband=_lw(m.group(1)), count=int(m.group(2))))
            continue
        m = re.match(r"^(.+?)([wgc])@([^<]+)<(.+)$", item)
        if m is None:
            raise _Fail("queue", f"{item!r}: Tw@f6<K (a beaten miniature) or T*2 (crystals taken)")
        out.append(E.MiniatureBeaten(warband=_lw(m.group(1)), character=OF_CLASS[m.group(2)],  # type: ignore[arg-type]
                                     square=dec(m.group(3)), by=_lw(m.group(4))))
        if len(out) > MAX_LIST:
            raise _Fail("queue", f"more than {MAX_LIST} reports")
    return tuple(out)


def _activation_text(a: Activation) -> str:
    return ",".join([a.character, "-" if a.square is None else enc(a.square), ".".join(map(str, a.dice)) or "-",
                     str(a.mp), "-" if a.at is None else enc(a.at), str(a.left)])


def _activation(v: str) -> Activation:
    xs = v.split(",")
    if len(xs) != 6 or xs[0] not in CHARACTERS:
        raise _Fail("activation", f"{v!r}: class,square|-,dice|-,mp,at|-,left (colossus,-,2.2.2,9,d6,0)")
    dice = () if xs[2] == "-" else tuple(_int("activation", d) for d in xs[2].split("."))
    if len(dice) > 9:
        raise _Fail("activation", "more than 9 dice")
    return Activation(xs[0], None if xs[1] == "-" else dec(xs[1]), dice, _int("activation", xs[3]),  # type: ignore[arg-type]
                      None if xs[4] == "-" else dec(xs[4]), _int("activation", xs[5]))


STATE_KEYS = ("round", "first", "order", "quaked", "quakers", "quake", "destiny", "points", "activation", "crystals",
              "last", "captured", "rolls", "queue", "ending", "result", "citadel")
FLAGS = ("initiative", "acted")


def format_position(s: State) -> str:
    """The line of ``s`` (the module's grammar)."""
    seats = s.setup.seats
    if any(i >= len(seats) or (w.id, w.player, w.corner) != (seats[i].warband, seats[i].player, seats[i].corner)
           for i, w in enumerate(s.warbands)):
        raise NotationError("", "the warbands of this position are not the set-up's seats: no position line")
    board = load_board(s.options.board, s.setup.board_sha256)
    head = format_setup(s.setup).split(" ")
    out = head[:2] + [_levels_text(s, board), _pieces_text(s), "/".join(_warband_text(w) for w in s.warbands) or "-",
                      f"{s.step}:{_letter_of_seat(s, s.seat)}"]
    if s.round:
        out.append(f"round={s.round}")
    if s.first:
        out.append(f"first={_letter_of_seat(s, s.first)}")
    if s.order:
        out.append(f"order={s.order}")
    if s.quaked:
        out.append("quaked=" + ",".join(enc(r) for r in s.quaked))
    if s.quakers:
        out.append("quakers=" + ",".join(enc(p) for p in s.quakers))
    for key, n in (("quake", s.quake_roll), ("destiny", s.destiny), ("points", s.points)):
        if n:
            out.append(f"{key}={n}")
    out += [f for f in FLAGS if getattr(s, f)]
    if s.activation is not None:
        out.append("activation=" + _activation_text(s.activation))
    if s.crystals_left or s.on_citadel:
        out.append(f"crystals={s.crystals_left}/{s.on_citadel}")
    if s.last_capture is not None:
        out.append(f"last={_letter_of_seat(s, s.last_capture)}")
    if s.captured_by is not None:
        out.append(f"captured={_letter_of_seat(s, s.captured_by)}")
    if s.rolls:
        out.append(f"rolls={s.rolls}")
    if s.queue:
        out.append("queue=" + ",".join(_queue_text(q) for q in s.queue))
    if s.ending is not None:
        out.append("ending=" + _result_text(s.ending))
    if s.result is not None:
        out.append("result=" + _result_text(s.result))
    five = [i for i, v in enumerate(s.levels) if v == 5]
    if len(five) != 1 or board.names[five[0]] != s.citadel:
        out.append(f"citadel={enc(s.citadel)}")
    return " ".join(out + head[2:])


def parse_position(game: Any, text: str) -> State:
    """The position a :func:`format_position` line writes, checked (``check_position`` and the
    invariants); a :class:`NotationError` names the field it cannot read."""
    if len(text) > MAX_TEXT:
        raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
    try:
        s = _read_state(game, text.split())
    except _Fail as f:
        raise NotationError(text[:80], f"position line, {f.part}: {f.message}") from None
    try:
        game.check_position(s)
    except msgspec.ValidationError as exc:
        raise NotationError(text[:80], f"position line: {exc}") from None
    broken = game.invariants(s)
    if broken:
        raise NotationError(text[:80], "position line: " + "; ".join(f"{k}: {m}" for k, m in broken[:5]))
    return s


def _read_state(game: Any, tokens: list[str]) -> State:
    """The fields of a line (split at spaces) as a position, unchecked (:class:`_Fail` naming one)."""
    if len(tokens) < 6:
        raise _Fail("position", f"{len(tokens)} fields; RULESET SEATS LEVELS PIECES WARBANDS STEP:SEAT [key=value ...]")
    if len(tokens) > MAX_FIELDS:
        raise _Fail("position", f"more than {MAX_FIELDS} fields")
    keys = split_keys("position", tokens[6:], SETUP_KEYS + STATE_KEYS, FLAGS)
    setup = setup_from(tokens[0], tokens[1], keys)
    try:
        game.validate_setup(setup)
        opts = game.options_of(setup)
        board = load_board(opts.board, setup.board_sha256)
    except Exception as exc:  # noqa: BLE001 - the set-up's own error, named
        raise _Fail("set-up", str(exc)) from None
    levels = _levels(tokens[2], board)
    pieces = _pieces(tokens[3])
    warbands = _warbands(tokens[4], setup.seats)
    step, _, seat = tokens[5].partition(":")
    if step not in STEPS:
        raise _Fail("step", f"{step!r}; one of {', '.join(STEPS)}")
    five = [i for i, v in enumerate(levels) if v == 5]
    citadel = dec(keys["citadel"]) if "citadel" in keys else (board.names[five[0]] if len(five) == 1 else "")
    if not citadel:
        raise _Fail("citadel", f"{len(five)} squares at level 5: name the Citadel (citadel=f6)")
    left, on = _crystals(keys)

    def num(k: str) -> int:
        return _int(k, keys[k]) if k in keys else 0

    def seat_key(k: str) -> int | None:
        return _seat_of_letter(k, warbands, keys[k]) if k in keys else None

    return State(setup=setup, options=opts, warbands=warbands, levels=levels, citadel=citadel, pieces=pieces,
                 step=step, seat=_seat_of_letter("step", warbands, seat) if seat else 0,  # type: ignore[arg-type]
                 round=num("round"), first=seat_key("first") or 0, order=num("order"), quaked=_listed(keys, "quaked"),
                 quakers=_listed(keys, "quakers"), quake_roll=num("quake"), destiny=num("destiny"), points=num("points"),
                 initiative="initiative" in keys, acted="acted" in keys,
                 activation=_activation(keys["activation"]) if "activation" in keys else None,
                 crystals_left=left, on_citadel=on, last_capture=seat_key("last"), captured_by=seat_key("captured"),
                 rolls=num("rolls"), queue=_queue(keys["queue"]) if keys.get("queue") else (),
                 ending=_result("ending", keys["ending"]) if "ending" in keys else None,
                 result=_result("result", keys["result"]) if "result" in keys else None)


def _crystals(keys: dict[str, str]) -> tuple[int, int]:
    """``crystals=11/1``: the crystals still to come and those on the Citadel (0/0 when absent)."""
    if "crystals" not in keys:
        return 0, 0
    xs = keys["crystals"].split("/")
    if len(xs) != 2:
        raise _Fail("crystals", f"{keys['crystals']!r}: to come/on the Citadel (11/1)")
    return _int("crystals", xs[0]), _int("crystals", xs[1])


def _listed(keys: dict[str, str], k: str) -> tuple[str, ...]:
    xs = tuple(dec(x) for x in keys[k].split(",")) if keys.get(k) else ()
    if len(xs) > MAX_LIST:
        raise _Fail(k, f"more than {MAX_LIST} values")
    return xs
