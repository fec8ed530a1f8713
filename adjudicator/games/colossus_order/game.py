"""The Colossus Order game object: plugs the rules into the core protocol and the registry."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import msgspec

from adjudicator.core.errors import DataError
from adjudicator.core.limits import MAX_COPIES, MAX_DECK
from adjudicator.core.options import resolve_options
from adjudicator.core.events import Event, masked
from adjudicator.core.protocol import Game, Outcome, RefError
from adjudicator.core.rulings import Illegal, Rulebook, Ruling, legal

from . import events as E
from .cards import load_pool
from .rulebook import RULEBOOK
from .rules import NS, Rules, bad
from .state import PRESETS, ChooseFirst, Options, Player, Shuffle, State

_CARD_FIELDS = ("card",)


def options_of(setup: E.MatchStarted) -> Options:
    """The ruleset preset with the log's overrides (CO-1 and the other options)."""
    return resolve_options(Options, PRESETS, setup.ruleset, setup.options)


class ColossusOrder(Game[State]):
    id: ClassVar[str] = "colossus-order"
    name: ClassVar[str] = "Colossus Order"
    rulebook: ClassVar[Rulebook] = RULEBOOK
    event_types = E.EVENT_TYPES
    state_type = State

    def __init__(self) -> None:
        super().__init__()
        self.rules = Rules()
        #: (setup, players, pool) of the last MatchStarted seen: held by reference and compared
        #: with ``is``, so a new setup can never be mistaken for an old one
        self._ctx: tuple[Any, frozenset[str], Any] | None = None
        # the verify loop calls these once per event: bind the rules directly (no extra call)
        self.check = self.rules.check  # type: ignore[method-assign]
        self.apply = self.rules.apply  # type: ignore[method-assign]
        self.derive = self.rules.derive  # type: ignore[method-assign]

    # -- references ------------------------------------------------------------------------------
    def _context(self, setup: E.MatchStarted) -> tuple[frozenset[str], Any]:
        if self._ctx is None or self._ctx[0] is not setup:
            try:
                pool = load_pool(setup.pool)
            except DataError as exc:
                raise RefError("pool", str(exc)) from None
            self._ctx = (setup, frozenset(setup.players), pool)
        return self._ctx[1], self._ctx[2]

    def validate_refs(self, setup: Any, event: Event) -> None:
        if type(event) is E.MatchStarted:
            self._validate_setup(event)
            return
        players, pool = self._context(setup)
        who = getattr(event, "player", None)
        if who is not None and who not in players:
            raise RefError("player", f"unknown player {who!r} (players: {', '.join(setup.players)})")
        winner = getattr(event, "winner", None)
        if winner is not None and winner not in players:
            raise RefError("winner", f"unknown player {winner!r} (players: {', '.join(setup.players)})")
        card = getattr(event, "card", None)
        if card is not None and card not in pool:
            raise RefError("card", f"unknown card {card!r} in pool {setup.pool!r}")
        cards = getattr(event, "cards", None)
        if cards:
            for i, c in enumerate(cards):
                if c is not None and c not in pool:
                    raise RefError(f"cards[{i}]", f"unknown card {c!r} in pool {setup.pool!r}")

    def _validate_setup(self, setup: E.MatchStarted) -> None:
        if not setup.players or len(set(setup.players)) != len(setup.players) or any(not p for p in setup.players):
            raise RefError("players", f"players must be distinct non-empty ids, got {setup.players}")
        players, pool = self._context(setup)
        for p in setup.players:
            if p not in setup.decks:
                raise RefError("decks", f"no deck list for player {p!r}")
        for p, deck in setup.decks.items():
            if p not in players:
                raise RefError(f"decks.{p}", f"deck list for unknown player {p!r}")
            if deck.colossus not in pool:
                raise RefError(f"decks.{p}.colossus", f"unknown card {deck.colossus!r} in pool {setup.pool!r}")
            for cid, n in deck.cards.items():
                if cid not in pool:
                    raise RefError(f"decks.{p}.cards.{cid}", f"unknown card {cid!r} in pool {setup.pool!r}")
                if n < 0 or n > MAX_COPIES:
                    raise RefError(f"decks.{p}.cards.{cid}", f"copies must be between 0 and {MAX_COPIES}, got {n}")
            total = sum(deck.cards.values())
            if total > MAX_DECK:
                raise RefError(f"decks.{p}.cards", f"{total} cards; a deck list holds at most {MAX_DECK}")
        options_of(setup)

    def setup_of(self, state: State) -> Event:
        return state.setup

    # -- start -------------------------------------------------------------------------------------
    def check_start(self, setup: Any) -> Ruling:
        try:
            if len(setup.players) != 2:
                raise bad("CO-1.1", "two-players", f"Colossus Order is played by 2 players; the match names {len(setup.players)}")
            opts = options_of(setup)
            if opts.deck_validation == "strict":
                pool = load_pool(setup.pool)
                for p in setup.players:
                    deck = setup.decks[p]
                    if pool[deck.colossus].type != "colossus":
                        raise bad("CO-1.5", "not-a-colossus", f"{p}'s Colossus {deck.colossus!r} is a {pool[deck.colossus].type}")
                    total = sum(deck.cards.values())
                    if total != 50:
                        raise bad("CO-1.2", "deck-size", f"{p}'s deck holds {total} cards besides the Colossus; it must hold exactly 50")
                    gems = sum(n for c, n in deck.cards.items() if pool[c].is_gem)
                    if gems > 20:
                        raise bad("CO-1.3", "too-many-gems", f"{p}'s deck holds {gems} Gem cards; at most 20")
                    names: Counter[str] = Counter()
                    for c, n in deck.cards.items():
                        card = pool[c]
                        if card.type == "colossus":
                            raise bad("CO-1.5", "colossus-in-deck", f"{p}'s deck holds the Colossus card {c!r}")
                        if not (card.is_gem and not card.unique):
                            names[card.name] += n
                    for name, n in names.items():
                        if n > 3:
                            raise bad("CO-1.4", "too-many-copies", f"{p}'s deck holds {n} cards named {name!r}; at most 3")
        except Illegal as x:
            return x.ruling()
        return legal("CO-1.1", NS + "setup", "the set-up is legal")

    def initial_state(self, setup: Any) -> State:
        opts = options_of(setup)
        players = []
        for p in setup.players[:2]:
            deck = setup.decks[p]
            cards = tuple(sorted(c for c, n in deck.cards.items() for _ in range(max(0, n))))
            players.append(Player(p, deck.colossus, deck_top=cards))
        todo = tuple(Shuffle(p.id) for p in players) + (ChooseFirst(),)
        return State(setup=setup, options=opts, players=tuple(players), todo=todo)

    # -- rules -------------------------------------------------------------------------------------
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

    _SET_FIELDS = {E.CompleteDeclared: "slots", E.DeclarationDiscarded: "slots",
                   E.GemsCaptured: "cards", E.CardsRevealed: "cards"}

    def canonical(self, event: Event) -> Event:
        f = self._SET_FIELDS.get(type(event))
        if f is None:
            return event
        values = getattr(event, f)
        try:
            ordered = sorted(values)
        except TypeError:  # None among card ids: keep as given
            return event
        return event if ordered == values else msgspec.structs.replace(event, **{f: ordered})

    def redact(self, event: Event, player: str | None) -> Event:
        """Mirror of :meth:`view`: the opponent's draws, returns and face-down cards are hidden."""
        if player is None:
            return event
        t = type(event)
        if t is E.MatchStarted:
            decks = {p: (d if p == player else E.DeckList(colossus=d.colossus, cards={})) for p, d in event.decks.items()}
            return msgspec.structs.replace(event, decks=decks)
        if getattr(event, "player", player) == player:
            return event
        if t is E.CardDrawn or t is E.LocusReplaced or (t is E.CardSet and event.zone == "locus"):
            return masked(event, "card")
        if t is E.CardsReturned:
            return masked(event, "cards")
        return event

    def outcome(self, state: State) -> Outcome | None:
        r = state.result
        return None if r is None else Outcome(r.result, r.winner, r.reason)

    def players(self, state: State) -> list[str]:
        return [p.id for p in state.players]

    # -- views ---------------------------------------------------------------------------------------
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        data = msgspec.to_builtins(state)
        if player is None:
            return data
        for pd in data["players"]:
            mine = pd["id"] == player
            pd["deck_count"] = len(pd["deck_top"]) + len(pd["deck_bottom"])
            pd["deck_top"] = "hidden"
            if not mine:
                pd["hand"] = ["?"] * len(pd["hand"])
                pd["deck_bottom"] = "hidden"
                for sl in pd.get("locus", []):
                    if not sl.get("face_up") and not sl.get("known"):
                        sl["card"] = "?"
        decks = data["setup"].get("decks", {})
        for pid in list(decks):
            if pid != player:
                decks[pid] = {"colossus": decks[pid]["colossus"], "cards": "hidden"}
        data["view"] = player
        return data

    def invariants(self, state: State) -> list[tuple[str, str]]:
        from .invariants import invariants

        return invariants(state)

    def load_state(self, data: Any) -> State:
        state = msgspec.convert(data, State)
        try:
            self.validate_refs(state.setup, state.setup)
        except RefError as exc:
            raise msgspec.ValidationError(f"{exc.message} - at `$.setup.{exc.field}`") from None
        pool = load_pool(state.setup.pool)
        for p in state.players:
            for zone in ("deck_top", "deck_bottom", "hand", "discard", "set_gems", "captured", "revealed"):
                for c in getattr(p, zone):
                    if c not in pool:
                        raise msgspec.ValidationError(f"unknown card {c!r} - at `$.players.{p.id}.{zone}`")
        return state

    def describe(self, state: State, player: str | None) -> str:
        from .render import describe

        return describe(self, state, player)

    def scene(self, state: State, player: str | None) -> Any:
        """The position as a game-neutral scene for the replay viewers (same hiding as ``view``)."""
        from .scene import scene

        return scene(self, state, player)

    def turn_number(self, state: State) -> int:
        """The turn counter (0 during the set-up)."""
        return state.turn

    # -- generated matches ---------------------------------------------------------------------
    def sample_setup(self, seed: int, *, long: bool = False) -> E.MatchStarted:
        """Two mono-colour decks of the sample pool; ``long``: twelve times the cards (CO-3 off)."""
        from .cards import COLOURS

        pool = load_pool("sample")
        c1 = COLOURS[seed % 4]
        c2 = COLOURS[(seed // 4 + 1 + seed) % 4]
        decks = {"p1": build_deck(pool, c1, seed * 2 + 1), "p2": build_deck(pool, c2, seed * 2 + 2)}
        if not long:
            return E.MatchStarted(game=self.id, players=["p1", "p2"], decks=decks)
        decks = {p: E.DeckList(colossus=d.colossus, cards={c: n * 12 for c, n in d.cards.items()})
                 for p, d in decks.items()}
        return E.MatchStarted(game=self.id, players=["p1", "p2"], decks=decks, options={"deck_validation": "off"})

    def playout_weight(self, state: State, event: Event) -> float:
        """Random playouts rarely concede, prefer small opening exchanges, and end turns."""
        t = type(event)
        if t is E.Conceded:
            return 0.00002
        if t is E.CardsReturned:
            return 1.0 / (1 + 10 * len(event.cards) ** 2)
        if t is E.MainPhaseEnded:
            return 1.5
        if t is E.XPlayPassed:
            return 4.0
        return 1.0


def build_deck(pool: Any, colour: str, seed: int) -> E.DeckList:
    """A legal 50-card deck of one colour from ``pool`` (20 gems, 30 other cards, 3 per name)."""
    import random

    rng = random.Random(seed)
    colossus = next(c.id for c in pool.cards.values() if c.type == "colossus" and c.colour == colour)
    playable = sorted(
        c.id for c in pool.cards.values()
        if c.type not in ("colossus", "gem") and all(k in (colour, "any") for k in c.gem_level)
        and (c.colour in (colour, None))
    )
    rng.shuffle(playable)
    cards: dict[str, int] = {}
    total = 0
    for cid in playable:
        if total >= 30:
            break
        n = min(3, 30 - total)
        cards[cid] = n
        total += n
    gem = next(c.id for c in pool.cards.values() if c.type == "gem" and c.colour == colour and not c.unique)
    unique = [c.id for c in pool.cards.values() if c.type == "gem" and c.colour == colour and c.unique]
    if unique:
        cards[unique[0]] = 2
        cards[gem] = 18 + (30 - total)
    else:
        cards[gem] = 20 + (30 - total)
    return E.DeckList(colossus=colossus, cards=cards)
