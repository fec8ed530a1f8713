"""The Colossi game object: plugs the rules into the core protocol and the registry."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from adjudicator.core.errors import DataError
from adjudicator.core.options import resolve_options
from adjudicator.core.events import Event, masked
from adjudicator.core.protocol import Game, Outcome, RefError
from adjudicator.core.rulings import Illegal, Rulebook, Ruling, legal

from . import events as E
from .data import board, content
from .rulebook import RULEBOOK
from .rules import NS, Rules, bad, canonical
from .state import PRESETS, ChooseFirst, Options, Player, Space, State

MIN_PLAYERS, MAX_PLAYERS = 2, 4


def options_of(setup: E.MatchStarted) -> Options:
    """The ruleset preset with the log's overrides."""
    opts = resolve_options(Options, PRESETS, setup.ruleset, setup.options)
    try:
        board(opts.board)
    except DataError as exc:
        raise RefError("options.board", str(exc)) from None
    if opts.gold_target < 1:
        raise RefError("options.gold_target", f"the Gold target must be at least 1, got {opts.gold_target}")
    return opts


#: event fields naming a player / a card / a Trait / a tile / a Beast / a space
_PLAYER_FIELDS = ("player", "target", "victim", "winner")
_SPACE_FIELDS = ("space", "victim_space")


class Colossi(Game[State]):
    id: ClassVar[str] = "colossi"
    name: ClassVar[str] = "Colossi: Banners, Acolytes and Beasts"
    rulebook: ClassVar[Rulebook] = RULEBOOK
    event_types = E.EVENT_TYPES
    state_type = State

    def __init__(self) -> None:
        super().__init__()
        self.rules = Rules()
        #: (setup, players, board size, directions) of the last MatchStarted seen (compared with ``is``)
        self._ctx: tuple[Any, frozenset[str], int, tuple[str, ...]] | None = None
        self.check = self.rules.check  # type: ignore[method-assign]
        self.apply = self.rules.apply  # type: ignore[method-assign]
        self.derive = self.rules.derive  # type: ignore[method-assign]

    # -- references ---------------------------------------------------------------------------------
    def _context(self, setup: E.MatchStarted) -> tuple[frozenset[str], int, tuple[str, ...]]:
        if self._ctx is None or self._ctx[0] is not setup:
            opts = options_of(setup)
            b = board(opts.board)
            self._ctx = (setup, frozenset(setup.players), b.size, b.directions)
        return self._ctx[1], self._ctx[2], self._ctx[3]

    def validate_refs(self, setup: Any, event: Event) -> None:
        if type(event) is E.MatchStarted:
            self._validate_setup(event)
            return
        players, size, directions = self._context(setup)
        C = content()
        known = ", ".join(setup.players)

        def player(field: str, v: Any) -> None:
            if v is not None and v not in players:
                raise RefError(field, f"unknown player {v!r} (players: {known})")

        for f in _PLAYER_FIELDS:
            player(f, getattr(event, f, None))
        to = getattr(event, "to", None)
        if isinstance(to, str):
            player("to", to)
        elif isinstance(to, int) and not 0 <= to < size:
            raise RefError("to", f"no space {to} on the island (spaces 0 to {size - 1})")
        for f in _SPACE_FIELDS:
            v = getattr(event, f, None)
            if isinstance(v, int) and not 0 <= v < size:
                raise RefError(f, f"no space {v} on the island (spaces 0 to {size - 1})")
        for i, v in enumerate(getattr(event, "targets", None) or []):
            player(f"targets[{i}]", v)
        for f in ("card", "discard"):
            v = getattr(event, f, None)
            if isinstance(v, str) and v not in C.cards:
                raise RefError(f, f"unknown card {v!r}")
        for i, v in enumerate(getattr(event, "cards", None) or []):
            if v not in C.cards:
                raise RefError(f"cards[{i}]", f"unknown card {v!r}")
        tr = getattr(event, "trait", None)
        if isinstance(tr, str) and tr not in C.traits:
            raise RefError("trait", f"unknown Trait {tr!r}")
        tile = getattr(event, "tile", None)
        if isinstance(tile, str) and tile not in C.tiles:
            raise RefError("tile", f"unknown tile {tile!r}")
        beast = getattr(event, "beast", None)
        if isinstance(beast, str) and beast not in C.beasts:
            raise RefError("beast", f"unknown Beast {beast!r} (Beasts: {', '.join(sorted(C.beasts))})")
        d = getattr(event, "direction", None)
        if isinstance(d, str) and d not in directions:
            raise RefError("direction", f"unknown direction {d!r} (this island: {', '.join(directions)})")
        t = type(event)
        if t is E.Alchemized and event.item is not None:
            pool = C.cards if event.what == "card" else C.traits if event.what == "trait" else {}
            if event.item not in pool:
                raise RefError("item", f"unknown {event.what} {event.item!r}")
        if t is E.TopRevealed and event.item not in (C.tiles if event.deck == "tiles" else C.cards):
            raise RefError("item", f"unknown {'tile' if event.deck == 'tiles' else 'card'} {event.item!r}")
        if t is E.ComponentMoved and event.owner is not None:
            if event.component == "beast":
                if event.owner not in C.beasts:
                    raise RefError("owner", f"unknown Beast {event.owner!r}")
            else:
                player("owner", event.owner)
        if t is E.Moved:
            player("owner", event.owner)
        if t is E.GameEnded:
            for k in event.gold:
                player(f"gold.{k}", k)

    def _validate_setup(self, setup: E.MatchStarted) -> None:
        if not setup.players or len(set(setup.players)) != len(setup.players) or any(not p for p in setup.players):
            raise RefError("players", f"players must be distinct non-empty ids, got {setup.players}")
        options_of(setup)

    def invariants(self, state: State) -> list[tuple[str, str]]:
        from .invariants import invariants

        return invariants(state)

    def setup_of(self, state: State) -> Event:
        return state.setup

    # -- start ----------------------------------------------------------------------------------------
    def check_start(self, setup: Any) -> Ruling:
        try:
            n = len(setup.players)
            if not MIN_PLAYERS <= n <= MAX_PLAYERS:
                raise bad("CL-1.1", "player-count", f"Colossi is played by 2 to 4 players; the match names {n}")
        except Illegal as x:
            return x.ruling()
        return legal("CL-1.1", NS + "setup", "the set-up is legal")

    def initial_state(self, setup: Any) -> State:
        opts = options_of(setup)
        C = content()
        b = board(opts.board)
        n = len(setup.players)
        players = tuple(Player(p) for p in setup.players)
        spaces = tuple(Space(acolytes=(0,) * n) for _ in range(b.size))
        grass = tuple(sorted(t for t in C.grass for _ in range(C.tiles[t].copies)))
        return State(
            setup=setup, options=opts, players=players, spaces=spaces, tile_deck=grass,
            tile_box=tuple(sorted(C.environments + C.lairs)), card_deck=C.deck,
            trait_deck=C.trait_deck if opts.use_traits else (), todo=(ChooseFirst(),),
        )

    # -- rules ------------------------------------------------------------------------------------------
    def check(self, state: State, event: Event) -> Ruling:
        return self.rules.check(state, event)

    def apply(self, state: State, event: Event) -> State:
        return self.rules.apply(state, event)

    def derive(self, state: State) -> Event | None:
        return self.rules.derive(state)

    def legal_events(self, state: State) -> list[Event]:
        return self.rules.legal_events(state)

    def to_act(self, state: State) -> list[str]:
        return self.rules.to_act(state)

    def canonical(self, event: Event) -> Event:
        return canonical(event)

    def outcome(self, state: State) -> Outcome | None:
        r = state.result
        return None if r is None else Outcome(r.result, r.winner, r.reason)

    def players(self, state: State) -> list[str]:
        return [p.id for p in state.players]

    # -- views -------------------------------------------------------------------------------------------
    def redact(self, event: Event, player: str | None) -> Event:
        """Mirror of :meth:`view`: other players' hands and the face-down decks are hidden."""
        if player is None:
            return event
        t = type(event)
        if t is E.TileSetAside:
            return masked(event, "tile")
        if t is E.CardGiven:
            return event if player in (event.player, event.to) else masked(event, "card")
        if getattr(event, "player", player) == player:
            return event
        if t in (E.CardDrawn, E.CardDealt):
            return masked(event, "card")
        if t is E.CardsContributed:
            return masked(event, "cards")
        if t is E.TopRevealed:
            return masked(event, "item")
        return event

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        data = msgspec.to_builtins(state)
        if player is None:
            return data
        for pd in data["players"]:
            if pd["id"] != player:
                pd["hand"] = ["?"] * len(pd["hand"])
        for f in ("tile_deck", "card_deck", "trait_deck", "tile_top", "card_top", "tile_box"):
            data[f] = {"hidden": len(data[f])}
        data["view"] = player
        return data

    def load_state(self, data: Any) -> State:
        state = msgspec.convert(data, State)
        try:
            self.validate_refs(state.setup, state.setup)
        except RefError as exc:
            raise msgspec.ValidationError(f"{exc.message} - at `$.setup.{exc.field}`") from None
        b = board(state.options.board)
        if len(state.spaces) != b.size:
            raise msgspec.ValidationError(f"the island has {b.size} spaces, the position {len(state.spaces)} - at `$.spaces`")
        C = content()
        for p in state.players:
            for c in p.hand:
                if c not in C.cards:
                    raise msgspec.ValidationError(f"unknown card {c!r} - at `$.players.{p.id}.hand`")
        return state

    def describe(self, state: State, player: str | None) -> str:
        from .render import describe

        return describe(self, state, player)

    def scene(self, state: State, player: str | None) -> Any:
        from .scene import scene

        return scene(self, state, player)

    def turn_number(self, state: State) -> int:
        from .scene import turn_number

        return turn_number(state)

    # -- generated matches ---------------------------------------------------------------------------------
    def sample_setup(self, seed: int, *, long: bool = False) -> E.MatchStarted:
        """2 to 4 players (by seed); ``long``: a Gold target no match reaches (CL-3 option)."""
        n = 2 + seed % 3
        players = [f"p{i + 1}" for i in range(n)]
        if long:
            return E.MatchStarted(game=self.id, players=players, options={"gold_target": 1_000_000})
        return E.MatchStarted(game=self.id, players=players)

    def playout_weight(self, state: State, event: Event) -> float:
        from .bot import weight

        return weight(state, event)

