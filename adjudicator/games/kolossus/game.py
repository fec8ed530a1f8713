"""The Kolossus game object: plugs the rules into the core protocol and the registry."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.kit import DataField, KitGame, Names, Refs, check_player_ids
from adjudicator.core.kernel.protocol import RefError

from . import events as E
from .basics import CI, RNGS, bad
from .board import BOARDS, Board, load_board, square_key, step_name
from .state import CHARACTERS, MANA, WARBANDS, Options, State, Warband
from .working import Fold


def option_limits(opts: Options) -> None:
    """Option values the game cannot play make the log unreadable (KO-31 and the other options)."""
    for i, v in enumerate(opts.mana_table):
        if not 0 <= v <= 9:
            raise RefError(f"options.mana_table[{i}]", f"mana for a die of {i + 1} is {v}; 0 to 9")
    if opts.skill_cap is not None and opts.skill_cap < 1:
        raise RefError("options.skill_cap", f"a cap of {opts.skill_cap} leaves no way to place the initial "
                       f"4 mana (KO-1.3); a cap is at least 1")
    if not 1 <= opts.rounds <= 100_000:
        raise RefError("options.rounds", f"{opts.rounds} rounds; 1 to 100000")
    for k in opts.weapons:
        if k not in WARBANDS:
            raise RefError(f"options.weapons.{k}", f"unknown warband {k!r} (warbands: {', '.join(WARBANDS)})")


class Kolossus(KitGame[State]):
    id: ClassVar[str] = "kolossus"
    name: ClassVar[str] = "Kolossus: The Citadel of Time"
    setup_rule = "KO-1.1"
    refs = Refs(warband="warband", square="square", start="square", colossus="square", path=["square"],
                guardians=["square"], warriors=["square"], targets=["square"], region="region", first="warband",
                alliance=["warband"])
    #: the board: ``options.board`` names it, ``board_sha256`` pins it (docs/log-format.md)
    data_fields = (DataField(BOARDS, "options.board", "board_sha256"),)

    def check_options(self, opts: Options) -> None:
        option_limits(opts)

    # -- references ----------------------------------------------------------------------------------
    def setup_context(self, setup: E.MatchStarted) -> dict[str, Names]:
        board: Board = load_board(self.options_of(setup).board, setup.board_sha256)
        where = f"{board.size}x{board.size} board {board.name!r}"
        regions = f"row-1 .. row-{board.size}, column-a .. column-{board.names[board.size - 1][0]}"
        warbands = [s.warband for s in setup.seats]
        return {
            **super().setup_context(setup),
            "warband": Names(frozenset(warbands), "unknown warband {value!r} (this match: " + ", ".join(warbands) + ")"),
            "square": Names(board.index, "{value!r} is not a square of the " + where),
            "region": Names(board.regions, "{value!r} is not a region of this board (" + regions + ")"),
        }

    validate_more_types = (E.MiniatureBeaten, E.GameEnded)

    def validate_more(self, setup: Any, event: Event, ctx: dict[str, Names]) -> None:
        t = type(event)
        if t is E.MiniatureBeaten and event.by not in ctx["warband"].known and event.by not in ("quake", "earthquake"):
            raise RefError("by", f"{event.by!r} is neither a warband of this match nor quake/earthquake")
        if t is E.GameEnded and event.winner is not None:
            players = ctx["player"].known
            if any(p not in players for p in event.winner.split("+")):
                raise RefError("winner", f"{event.winner!r} names a player not in this match ({', '.join(setup.players)})")

    def validate_setup(self, setup: E.MatchStarted) -> None:
        check_player_ids(setup.players)
        self.options_of(setup)
        board: Board = self.data_fields[0].find(self, setup)[0]
        for i, seat in enumerate(setup.seats):
            if seat.warband not in WARBANDS:
                raise RefError(f"seats[{i}].warband", f"unknown warband {seat.warband!r} (warbands: {', '.join(WARBANDS)})")
            if seat.player not in setup.players:
                raise RefError(f"seats[{i}].player", f"{seat.player!r} is not one of the players ({', '.join(setup.players)})")
            if seat.corner not in board.corners:
                raise RefError(f"seats[{i}].corner", f"unknown corner {seat.corner!r} (board {board.name}: "
                               f"{', '.join(board.corner_order)})")
        if setup.rng is not None:
            if setup.rng not in RNGS:
                raise RefError("rng", f"unknown die generator {setup.rng!r} (known: {', '.join(RNGS)})")
            if setup.seed is None:
                raise RefError("seed", f"the generator {setup.rng} needs a seed")

    # -- start -----------------------------------------------------------------------------------------
    def check_setup(self, setup: Any) -> None:
        seats = setup.seats
        if len(seats) != 4:
            raise bad("KO-1.1", "four-seats", f"Kolossus is played by four warbands; the match seats {len(seats)} (KO-23)")
        names = [s.warband for s in seats]
        if len(set(names)) != 4:
            raise bad("KO-1.1", "warband-twice", f"each warband takes one seat; the seats are {names}")
        corners = [s.corner for s in seats]
        if len(set(corners)) != 4:
            raise bad("KO-1.1", "corner-twice", f"each seat has its own corner; the seats take {corners}")
        order = load_board(self.options_of(setup).board, setup.board_sha256).corner_order
        for i in range(4):
            want = order[(order.index(corners[i]) + 1) % 4]
            if corners[(i + 1) % 4] != want:
                raise bad("KO-1.1", "not-clockwise", f"seats are listed clockwise: after {seats[i].warband} in "
                          f"{corners[i]} comes the seat in {want}, not {corners[(i + 1) % 4]}")
        players = setup.players
        if not 2 <= len(players) <= 4:
            raise bad("KO-1.2", "player-count", f"Kolossus is played by 2 to 4 players; the match names {len(players)}")
        for p in players:
            mine = [i for i, s in enumerate(seats) if s.player == p]
            if not mine:
                raise bad("KO-1.2", "no-warband", f"player {p} commands no warband")
            if len(mine) > 2:
                raise bad("KO-1.2", "too-many-warbands", f"player {p} commands {len(mine)} warbands; at most 2")
            if len(mine) == 2 and (mine[1] - mine[0]) != 2:
                raise bad("KO-1.2", "not-allied", f"player {p} commands {seats[mine[0]].warband} and {seats[mine[1]].warband}, "
                          f"which are neighbours; two warbands of one player form an alliance (opposite seats)")

    def initial_state(self, setup: Any) -> State:
        opts = self.options_of(setup)
        board = load_board(opts.board, setup.board_sha256)
        wbs = []
        for s in setup.seats[:4]:
            supply = MANA if opts.chapter >= 2 else 0
            weapon = opts.weapons.get(s.warband) if opts.chapter >= 3 else None
            wbs.append(Warband(s.warband, s.player, s.corner, supply=supply, weapon=weapon))
        step = "skills" if opts.chapter >= 2 else "place"
        return State(setup=setup, options=opts, warbands=tuple(wbs), levels=board.levels,
                     citadel=board.names[board.citadel], step=step, crystals_left=opts.rounds)

    # -- rules (check, apply, derive, legal_events, to_act: bound to self.rules by the kit) ------------
    def working(self, state: State) -> Fold:
        """One verification's working position (the fold contract: :mod:`.working`)."""
        return Fold(self, state)

    def canonical(self, event: Event) -> Event:
        t = type(event)
        if t is E.MiniatureMoved:
            return self._canonical_move(event)
        if t is E.SkillsChosen or t is E.ManaAllocated:
            att, dfc = _skill_dict(event.attack), _skill_dict(event.defence)
            if att is None or dfc is None or (att == event.attack and dfc == event.defence
                                              and list(att) == list(event.attack) and list(dfc) == list(event.defence)):
                return event
            return msgspec.structs.replace(event, attack=att, defence=dfc)
        if t is E.MiniaturesPlaced:
            g, w = sorted(event.guardians, key=square_key), sorted(event.warriors, key=square_key)
            return event if (g == event.guardians and w == event.warriors) else msgspec.structs.replace(event, guardians=g, warriors=w)
        if t is E.WeaponUsed:
            ts = sorted(event.targets, key=square_key)
            return event if ts == event.targets else msgspec.structs.replace(event, targets=ts)
        return event

    def _canonical_move(self, e: E.MiniatureMoved) -> E.MiniatureMoved:
        """The direction form as a path (the form ``legal`` lists), when it walks on named squares."""
        if e.start is None or e.path:
            return e
        steps, turn_steps = e.steps or 0, e.turn_steps or 0
        if steps < 0 or turn_steps < 0 or steps + turn_steps > 60 or (steps and e.direction is None):
            return e
        if (e.turn is None) != (e.turn_steps is None) or (e.turn is not None and (steps < 1 or turn_steps < 1 or e.turn == e.direction)):
            return e
        path = [e.start]
        for d, n in ((e.direction, steps), (e.turn, turn_steps)):
            for _ in range(n):
                nxt = step_name(path[-1], d, 1)
                if nxt is None:
                    return e
                path.append(nxt)
        return E.MiniatureMoved(warband=e.warband, path=path, weapon=e.weapon, seq=e.seq, at=e.at, note=e.note)

    def legal_group(self, event: Event) -> str | None:
        """Moves of one miniature to one square (with the same weapon) by different paths."""
        if type(event) is E.MiniatureMoved and event.path:
            return f"{event.warband} {event.path[0]}->{event.path[-1]} {event.weapon or ''}"
        return None

    def players(self, state: State) -> list[str]:
        return list(state.setup.players)

    # -- views -----------------------------------------------------------------------------------------
    # what a player sees: everything (no observe.py: Kolossus has no hidden information)

    def check_position(self, state: State) -> None:
        board = load_board(state.options.board, state.setup.board_sha256)
        if len(state.levels) != board.size * board.size:
            raise msgspec.ValidationError(f"{len(state.levels)} levels for a {board.size}x{board.size} board - at `$.levels`")
        if len(state.warbands) != 4:
            raise msgspec.ValidationError("a position has four warbands - at `$.warbands`")
        if state.citadel not in board.index:
            raise msgspec.ValidationError(f"{state.citadel!r} is not a square - at `$.citadel`")
        for i, p in enumerate(state.pieces):
            if p.square not in board.index:
                raise msgspec.ValidationError(f"{p.square!r} is not a square - at `$.pieces[{i}].square`")
            if state.wb(p.warband) is None:
                raise msgspec.ValidationError(f"unknown warband {p.warband!r} - at `$.pieces[{i}].warband`")
        if not 0 <= state.seat < 4:
            raise msgspec.ValidationError(f"seat {state.seat} - at `$.seat`")

    # describe (render.py), scene and turn_number (scene.py): the kit's defaults

    # -- generated matches -------------------------------------------------------------------------------
    def sample_setup(self, seed: int, *, long: bool = False) -> E.MatchStarted:
        """Chapter ``1 + seed % 3``, 2 to 4 players, dice from a declared generator on even seeds.

        ``long``: chapter 3 with 60,000 rounds (over a million events) and no wipe-out end (KO-21 ``never``, KO-29 ``rounds``),
        so a match runs to many thousands of events."""
        n_players = (4, 4, 4, 2, 3)[seed % 5]
        names = ["ann", "ben", "cat", "dan"][:n_players]
        order = ["tuatha", "krell", "ishtari", "firbolg"]
        rot = seed % 4
        warbands = order[rot:] + order[:rot]
        corners = ["NW", "NE", "SE", "SW"]
        if n_players == 4:
            owners = names
        elif n_players == 2:
            owners = ["ann", "ben", "ann", "ben"]
        else:
            owners = ["ann", "ben", "ann", "cat"]
        seats = [E.Seat(warband=warbands[i], player=owners[i], corner=corners[i]) for i in range(4)]
        chapter = 1 + seed % 3
        options: dict[str, Any] = {}
        if long:
            chapter = 3
            options = {"rounds": 60_000, "wipeout": "never"}
        rng = "python-random" if seed % 2 == 0 else None
        return E.MatchStarted(game=self.id, players=names, seats=seats, ruleset=f"chapter-{chapter}", options=options,
                              seed=seed if rng else None, rng=rng)

    def playout_weight(self, state: State, event: Event) -> float:
        """Random playouts spend their activations, prefer long moves, beats and the Citadel."""
        t = type(event)
        if t is E.TurnEnded:
            return 0.02 if state.points > 0 else 1.0
        if t is E.MiniatureMoved:
            w = 1.0 + 0.2 * (len(event.path) - 1)
            occ = self.rules.occupancy(state)
            end = event.path[-1] if event.path else None
            if end in occ and occ[end].warband != event.warband:
                w += 30.0
            if end == state.citadel and state.on_citadel:
                w += 60.0
            return w
        if t is E.ManaAllocated:
            return 1.0 + 3.0 * event.pool + 2.0 * event.weapon
        if t in (E.WeaponUsed, E.EarthquakeUsed, E.RebirthUsed, E.InitiativeUsed):
            return 2.0 if t is not E.EarthquakeUsed else 0.1
        return 1.0


def _skill_dict(d: dict[str, int]) -> dict[str, int] | None:
    if any(k not in CI for k in d):
        return None
    return {c: d[c] for c in CHARACTERS if d.get(c)}
