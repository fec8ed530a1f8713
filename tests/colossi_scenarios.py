"""Builders for readable Colossi tests: real matches from MatchStarted, and made-up positions.

``Match`` plays a real log from ``MatchStarted`` (set-up events named by the test or filled with
the first legal choice) and lets a test append events through the engine's own ``propose``: an
illegal step fails loudly with the engine's ruling.  ``Position`` builds a mid-game position
directly (tiles, pieces, Banners, Loot, hands, Traits) at the start of the turn player's Actions,
so a test of one card or tile can set the scene in a few lines; it checks the position's counts
(10 Acolytes and 6 Banners per player) before it starts.

Players are ``ann``, ``bob`` (and ``cid``, ``dee``); on the default island space 13 is the centre
and its neighbours are 14 (E), 8 (NE), 7 (NW), 12 (W), 18 (SW) and 19 (SE).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

import msgspec
from msgspec.structs import replace

import adjudicator.games.colossi  # noqa: F401  (registers the game for these tests)
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.rulings import Ruling
from adjudicator.core.kernel.verify import propose, run, settle, start
from adjudicator.games.colossi import engine as Q
from adjudicator.games.colossi import events as E
from adjudicator.games.colossi.data import board, content
from adjudicator.games.colossi.state import Actions, EndTurn, Player, Space, State, TurnInfo

GAME = registry.get("colossi")
C = content()
HEX = board("hex27")
A, B, CC, D = "ann", "bob", "cid", "dee"
NS = "colossi/"


def setup(players: list[str] | None = None, **options: Any) -> E.MatchStarted:
    return E.MatchStarted(game="colossi", players=players or [A, B], options=options)


def encode(events: Iterable[Event]) -> bytes:
    enc = msgspec.json.Encoder()
    return b"".join(enc.encode(e) + b"\n" for e in events)


def verify_events(events: Iterable[Event]) -> Any:
    return run(parse_log(encode(events)))


class StepFailed(AssertionError):
    pass


class Base:
    """What a Match and a Position share: the state, check, add."""

    _state: State
    log: list[tuple[Event, list[Event]]]

    @property
    def s(self) -> State:
        return self._state

    def state(self) -> State:
        return self._state

    def head(self) -> Any:
        return self._state.todo[0] if self._state.todo else None

    def p(self, pid: str) -> Player:
        return self._state.player(pid)

    def sp(self, i: int) -> Space:
        return self._state.spaces[i]

    def acol(self, i: int, pid: str) -> int:
        return Q.acol(self._state.spaces[i], self._state.seat(pid))

    def check(self, event: Event) -> Ruling:
        return propose(GAME, self._state, event)[0]

    def legal(self) -> list[Event]:
        return GAME.legal_events(self._state)

    def add(self, event: Event, note: str | None = None) -> Ruling:
        if note is not None:
            event = msgspec.structs.replace(event, note=note)
        ruling, derived, new = propose(GAME, self._state, event)
        if not ruling.legal:
            raise StepFailed(f"{GAME.describe_event(event)} rejected: {ruling.rule} [{ruling.code}] {ruling.message}\n"
                             f"expected: {GAME.rules.expected(self._state)}")
        self._state = new
        self.log.append((event, derived))
        return ruling

    def last_derived(self) -> list[Event]:
        return self.log[-1][1]

    # -- shorthands ------------------------------------------------------------------------------------
    def move(self, space: int, to: int, piece: str = "acolyte", player: str | None = None, road: bool = False,
             owner: str | None = None) -> Ruling:
        return self.add(E.Moved(player=player or self.who(), piece=piece, space=space, to=to, road=road, owner=owner))

    def play(self, card: str, player: str | None = None, **choices: Any) -> Ruling:
        return self.add(E.CardPlayed(player=player or self.who(), card=card, **choices))

    def end_actions(self) -> Ruling:
        return self.add(E.ActionsEnded(player=self._state.turn_player))

    def passed(self, player: str | None = None) -> Ruling:
        return self.add(E.Passed(player=player or self.who()))

    def who(self) -> str:
        h = self.head()
        p = getattr(h, "player", None)
        return p or self._state.turn_player

    def gold(self, pid: str) -> int:
        return self.p(pid).gold


class Match(Base):
    """A real match from MatchStarted; ``play_setup()`` runs the set-up with the given choices."""

    def __init__(self, match: E.MatchStarted | None = None, **options: Any) -> None:
        self.setup = match or setup(None, **options)
        st, ruling, derived = start(GAME, self.setup)
        self.start_ruling = ruling
        self._state = st
        self.log = [(self.setup, derived)]

    def lines(self, with_derived: bool = False) -> bytes:
        out: list[Event] = []
        for e, ds in self.log:
            out.append(e)
            if with_derived:
                out.extend(ds)
        return encode(out)

    def verify(self) -> Any:
        return run(parse_log(self.lines()))

    def first_legal(self, kind: type | None = None) -> Event:
        for e in self.legal():
            if kind is None or type(e) is kind:
                return e
        raise StepFailed(f"no legal {kind} now ({GAME.rules.expected(self._state)})")

    def play_setup(self, first: str = A, lairs: tuple[str, str] = ("lair-wind-beast", "lair-time-beast"),
                   environments: tuple[str, ...] = ("volcano", "market", "moat", "oasis", "ruins", "golden-dunes",
                                                    "hallowed-ground", "deep-mines"),
                   traits: dict[str, str] | None = None, hands: dict[str, list[str]] | None = None,
                   starts: dict[str, int] | None = None) -> "Match":
        """The whole set-up, then stop at the first player's Actions on turn 1."""
        self.add(E.FirstPlayerDetermined(player=first))
        for t in lairs + tuple(environments):
            self.add(E.TileSetAside(tile=t))
        if self._state.options.use_traits:
            row = ["sly", "speedy", "abundant"]
            for t in row:
                self.add(E.TraitRevealed(trait=t))
            order = Q.from_seat(self._state, first)
            wanted = traits or {}
            spare = [t for t in ("territorial", "protective", "alchemist", "mercantile") if t not in wanted.values()]
            for p in order:
                tr = wanted.get(p) or spare.pop(0)
                self.add(E.TraitTaken(player=p, trait=tr, source="row" if tr in self._state.trait_row else "deck"))
                while type(self.head()).__name__ == "RevealTrait":
                    self.add(self.first_legal(E.TraitRevealed))
        hands = hands or {}
        for p in Q.from_seat(self._state, first):
            cards = list(hands.get(p, []))
            for k in range(3):
                self.add(E.CardDrawn(player=p, card=cards[k] if k < len(cards) else self.filler()))
        spots = starts or {}
        default = [12, 14, 2, 24]
        for k, p in enumerate(Q.from_seat(self._state, first)):
            self.add(E.StartPlaced(player=p, space=spots.get(p, default[k])))
        # Replenish is derived; the first Draw
        self.add(E.CardDrawn(player=first, card=self.filler()))
        return self

    def filler(self) -> str:
        deck = Counter(self._state.card_deck)
        for c in ("pilfer", "walk", "lure", "secure", "short-rest"):
            if deck[c] > 0:
                return c
        return sorted(deck)[0]


class Position(Base):
    """A made-up position at the start of the turn player's Actions (turn 1 by default).

    ``tiles``: space -> tile id (other spaces are explored Grass (gold) unless ``unexplored``);
    ``colossi``: player -> space; ``acolytes``: (space, player) -> count; ``banners``: space -> owners;
    ``beasts``: Beast -> space; ``loot``: space -> (gold, blue, green); ``hands``, ``traits``,
    ``curses``: player -> ids; ``gold``: player -> Gold; ``deck``: the Colossus cards left to draw
    (default: every card not in a hand).
    """

    def __init__(self, players: list[str] | None = None, *, tiles: dict[int, str] | None = None,
                 unexplored: Iterable[int] = (), colossi: dict[str, int] | None = None,
                 acolytes: dict[tuple[int, str], int] | None = None, banners: dict[int, list[str]] | None = None,
                 beasts: dict[str, int] | None = None, loot: dict[int, tuple[int, int, int]] | None = None,
                 hands: dict[str, list[str]] | None = None, traits: dict[str, list[str]] | None = None,
                 curses: dict[str, list[str]] | None = None, gold: dict[str, int] | None = None,
                 deck: list[str] | None = None, tile_deck: list[str] | None = None,
                 trait_row: list[str] | None = None, trait_deck: list[str] | None = None,
                 turn_player: str | None = None, options: dict[str, Any] | None = None) -> None:
        players = players or [A, B]
        match = setup(players, **(options or {}))
        base = GAME.initial_state(match)
        n = len(players)
        size = len(base.spaces)
        tiles = tiles or {}
        unexplored = set(unexplored)
        colossi = colossi if colossi is not None else {p: [12, 14, 2, 24][k] for k, p in enumerate(players)}
        acolytes = acolytes or {}
        banners = banners or {}
        beasts = beasts or {}
        loot = loot or {}
        spaces = []
        for i in range(size):
            tile = None if i in unexplored else tiles.get(i, "grass-gold")
            g, b, gr = loot.get(i, (0, 0, 0))
            spaces.append(Space(
                tile=tile, gold=g, blue=b, green=gr,
                colossi=tuple(p for p in players if colossi.get(p) == i),
                acolytes=tuple(acolytes.get((i, p), 0) for p in players),
                banners=tuple(banners.get(i, [])),
                beasts=tuple(bst for bst, at in sorted(beasts.items()) if at == i),
            ))
        hands = hands or {}
        traits = traits or {}
        ps = []
        for p in players:
            on_board = sum(v for (i, q), v in acolytes.items() if q == p)
            flags = sum(owners.count(p) for owners in banners.values())
            assert on_board <= 10 and flags <= 6, (p, on_board, flags)
            ps.append(Player(p, gold=(gold or {}).get(p, 0), hand=tuple(sorted(hands.get(p, []))),
                             acolytes=10 - on_board, banners=6 - flags, traits=tuple(traits.get(p, [])),
                             curses=tuple((curses or {}).get(p, [])), colossus=colossi.get(p), turns=1))
        used = Counter(c for h in hands.values() for c in h) + Counter(c for cs in (curses or {}).values() for c in cs)
        if deck is None:
            left = Counter(C.deck) - used
            deck = sorted(left.elements())
        tp = turn_player or players[0]
        st = replace(base, players=tuple(ps), spaces=tuple(spaces), first=players[0], turn=1, turn_player=tp,
                     card_deck=tuple(sorted(deck)), tile_deck=tuple(sorted(tile_deck or [])),
                     tile_box=tuple(sorted(t for t in C.environments + C.lairs if t not in tiles.values())),
                     trait_row=tuple(trait_row or []),
                     trait_deck=tuple(sorted(trait_deck if trait_deck is not None else
                                             [t for t in C.traits if not any(t in v for v in traits.values())
                                              and t not in (trait_row or [])])),
                     todo=(Actions(tp), EndTurn()))
        st = replace(st, info=TurnInfo(actions=Q.action_allowance(st, tp)))
        self._state, _ = settle(GAME, st)
        self.log = []

    def with_info(self, **kw: Any) -> "Position":
        self._state = replace(self._state, info=replace(self._state.info, **kw))
        return self
