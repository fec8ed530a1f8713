"""The Colossi game object: plugs the rules into the core protocol and the registry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import msgspec

from adjudicator.core.kernel.events import HIDDEN, CardsLooked, CardsMoved, CardsReordered, Event
from adjudicator.core.kernel.kit import DataField, KitGame, Names, Refs
from adjudicator.core.kernel.protocol import RefError

from . import events as E
from .data import ISLANDS, board, content
from .fold import Working
from .observe import keep_seen
from .options import canonical
from .state import ChooseFirst, Options, Player, Space, State

MIN_PLAYERS, MAX_PLAYERS = 2, 4


def option_limits(opts: Options) -> None:
    """Option values the game cannot play make the log unreadable."""
    if opts.gold_target < 1:
        raise RefError("options.gold_target", f"the Gold target must be at least 1, got {opts.gold_target}")


#: event fields naming a space (a number on the island)
_SPACE_FIELDS = ("space", "victim_space", "to")
#: event type -> its fields of _SPACE_FIELDS (bounded: one entry per event type of the game)
_SPACE_FIELDS_OF: dict[type, tuple[str, ...]] = {}


#: the events whose ``cards`` list names cards (or tiles: CardsLooked at the tile deck)
_CARD_LISTS = frozenset({E.CardsContributed, CardsLooked, CardsMoved, CardsReordered})
#: the event types ``validate_more`` checks beyond their space fields
_MORE = frozenset({E.TileExplored, E.TileReplaced, E.Alchemized, E.TopRevealed, E.ComponentMoved, E.Moved,
                   E.GameEnded}) | _CARD_LISTS


class Colossi(KitGame[State]):
    id: ClassVar[str] = "colossi"
    name: ClassVar[str] = "Colossi: Banners, Acolytes and Beasts"
    setup_rule = "CL-1.1"
    #: a string ``to`` names a player (a number, a space: see validate_more)
    refs = Refs(player="player", target="player", victim="player", winner="player", to="player", targets=["player"],
                card="card", discard="card", trait="trait", tile="tile", beast="beast",
                direction="direction")
    #: the island: ``options.board`` names it, ``board_sha256`` pins it (docs/log-format.md)
    data_fields = (DataField(ISLANDS, "options.board", "board_sha256"),)

    def check_options(self, opts: Options) -> None:
        option_limits(opts)

    # -- references ---------------------------------------------------------------------------------
    def setup_context(self, setup: E.MatchStarted) -> dict[str, Names]:
        C = content()
        b = board(self.options_of(setup).board, setup.board_sha256)
        directions = b.directions
        return {
            "space": Names(range(b.size), "no space {value} on the island (spaces 0 to " + str(b.size - 1) + ")"),
            **super().setup_context(setup),
            # "?": an unknown card or tile in a seat's record (unknowns.py, CL-40)
            "card": Names({**C.cards, HIDDEN: None}, "unknown card {value!r}"),  # a mapping: the viewers read card texts from it
            # "?": a Trait drawn face down into a Growth's pool (CL-48; validate_more allows no other)
            "trait": Names(frozenset(C.traits) | {HIDDEN}, "unknown Trait {value!r}"),
            "tile": Names(frozenset(C.tiles) | {HIDDEN}, "unknown tile {value!r}"),
            "beast": Names(C.beasts, "unknown Beast {value!r} (Beasts: " + ", ".join(sorted(C.beasts)) + ")"),
            "direction": Names(frozenset(directions), "unknown direction {value!r} (this island: " + ", ".join(directions) + ")"),
        }

    def validate_more(self, setup: Any, event: Event, ctx: dict[str, Names]) -> None:
        t = type(event)
        fields = _SPACE_FIELDS_OF.get(t)
        if fields is None:  # the space fields of an event type, found once
            fields = _SPACE_FIELDS_OF[t] = tuple(f for f in _SPACE_FIELDS if f in getattr(t, "__struct_fields__", ()))
        if fields:
            spaces = ctx["space"]
            for f in fields:
                v = getattr(event, f)
                if isinstance(v, int):
                    spaces.check(f, v)
        if t is not E.TraitDrawn and getattr(event, "trait", None) == HIDDEN:
            raise RefError("trait", "only a Trait drawn face down into a Growth's pool may be unknown ('?', CL-48)")
        if t not in _MORE:  # no other check below concerns this event type
            return
        if (t is E.TileExplored or t is E.TileReplaced) and (event.tile is None or event.tile == HIDDEN):
            raise RefError("tile", "a tile turned up on the island is seen by every player: a record names it "
                                   "('?' or null cannot stand for it, CL-2.7)")
        if t is E.Alchemized or t is E.TopRevealed:
            self.validate_item(event)
        players = ctx["player"]
        if t is E.ComponentMoved and event.owner is not None:
            (ctx["beast"] if event.component == "beast" else players).check("owner", event.owner)
        if t is E.Moved and event.owner is not None:
            players.check("owner", event.owner)
        if t is E.GameEnded:
            for k in event.gold:
                players.check(f"gold.{k}", k)
        if t in _CARD_LISTS:  # cards of a hand or a deck; a look at the tile deck names tiles (CL-41)
            names = ctx["tile"] if t is CardsLooked and event.zone == "tile-deck-top" else ctx["card"]
            for i, c in enumerate(event.cards):
                if c is not None:
                    names.check(f"cards[{i}]", c)
            if t is not E.CardsContributed:
                players.check("owner", event.owner)
                for i, q in enumerate(getattr(event, "seen_by", ())):
                    players.check(f"seen_by[{i}]", q)

    def validate_item(self, event: Any) -> None:
        """The ``item`` of an Alchemized (a card or Trait) or a TopRevealed (a tile or card)."""
        C = content()
        if type(event) is E.Alchemized:
            if event.item is not None:
                pool = C.cards if event.what == "card" else C.traits if event.what == "trait" else {}
                if event.item not in pool:
                    raise RefError("item", f"unknown {event.what} {event.item!r}")
        elif event.item not in (C.tiles if event.deck == "tiles" else C.cards) and event.item not in (None, HIDDEN):
            raise RefError("item", f"unknown {'tile' if event.deck == 'tiles' else 'card'} {event.item!r}")

    # -- start ----------------------------------------------------------------------------------------
    def check_setup(self, setup: Any) -> None:
        self.check_seats(setup, MIN_PLAYERS, MAX_PLAYERS, "player-count")

    def initial_state(self, setup: Any) -> State:
        opts = self.options_of(setup)
        C = content()
        b = board(opts.board, setup.board_sha256)
        n = len(setup.players)
        players = tuple(Player(p) for p in setup.players)
        spaces = tuple(Space(acolytes=(0,) * n) for _ in range(b.size))
        grass = tuple(sorted(t for t in C.grass for _ in range(C.tiles[t].copies)))
        return State(
            setup=setup, options=opts, players=players, spaces=spaces, tile_deck=grass,
            tile_box=tuple(sorted(C.environments + C.lairs)), card_deck=C.deck,
            trait_deck=C.trait_deck if opts.use_traits else (), todo=(ChooseFirst(),),
        )

    # -- rules (check, apply, derive, legal_events, to_act: bound to self.rules by the kit) -------------
    def working(self, state: State) -> Working:
        """The fold contract (core/kernel/fold.py): one working position for a verification, changed in
        place and frozen only where a caller keeps a position (fold.py)."""
        return Working(self.rules, self.outcome, state)

    def canonical(self, event: Event) -> Event:
        return canonical(event)

    def keep_seen(self, state: State, annulled: State) -> State:
        """What the seats saw in events a judge's ruling took back, kept (CL-44: observe.py)."""
        return keep_seen(state, annulled)

    def keep_seen_of(self, state: State, annulled: State, events: Sequence[Event]) -> State:
        """:meth:`keep_seen`, the cards and tiles back on top in the order ``events`` took them (CL-44)."""
        return keep_seen(state, annulled, events)

    def open_conditions(self, state: State) -> list[str] | None:
        """The conditions of undetermined events that later events left open (CL-40); None for a
        full-information position (it has none)."""
        return None if state.unseen is None else [text for text, _tile in state.unseen.open]

    # -- views -------------------------------------------------------------------------------------------
    # what a player sees: observe.py (view, redact, scene and describe go through it)

    def touched(self, event: Event) -> list[str]:
        """The spaces an event names are the scene's cells (ids are space numbers)."""
        out = super().touched(event)
        for k, v in msgspec.to_builtins(event).items():
            if k in ("space", "to", "spaces", "start", "path") or k.endswith("_space"):
                out += [str(x) for x in (v if isinstance(v, list) else [v]) if isinstance(x, int) and str(x) not in out]
        return out

    def check_position(self, state: State) -> None:
        b = board(state.options.board, state.setup.board_sha256)
        if len(state.spaces) != b.size:
            raise msgspec.ValidationError(f"the island has {b.size} spaces, the position {len(state.spaces)} - at `$.spaces`")
        C = content()
        for p in state.players:
            for c in p.hand:
                if c not in C.cards and c != HIDDEN:  # "?": unknown in a seat's record (CL-40)
                    raise msgspec.ValidationError(f"unknown card {c!r} - at `$.players.{p.id}.hand`")

    # describe (render.py), scene and turn_number (scene.py): the kit's defaults

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

