"""The Colossus Order game object: plugs the rules into the core protocol and the registry."""

from __future__ import annotations

from collections import Counter
from itertools import chain, repeat
from typing import Any, ClassVar

import msgspec
from msgspec.structs import replace

from adjudicator.core.kernel.events import CardsLooked, CardsMoved, CardsReordered, Event
from adjudicator.core.kernel.commitments import PREFIX, looks_like, well_formed
from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.kit import DataField, KitGame, Names, Refs, check_player_ids, sorted_fields
from adjudicator.core.kernel.protocol import RefError
from adjudicator.core.kernel.refs import check_deck_lists

from . import events as E
from . import observe
from .cards import COLOURS, POOLS, load_pool
from .positions import bad
from .state import ChooseFirst, Player, Shuffle, State
from .unknowns import MAX_OPEN_DECK, UNKNOWN_DECK_SIZE, open_size, open_unseen
from .working import Working

#: the fields a seat's record may leave unknown (``"?"``/null, CO-39): what observe.redact masks
#: and the derived events that name such a card (reveals and plays must be named)
_MAY_BE_UNKNOWN: dict[type, str] = {E.CardDrawn: "card", E.CardSet: "card", E.LocusReplaced: "card",
                                    E.CardsReturned: "cards", E.LocusRevealed: "cards", E.BattleResolved: "card", E.LocusFlipped: "card",
                                    CardsLooked: "cards", CardsReordered: "cards", CardsMoved: "cards"}


def _hidden_name(value: Any) -> bool:
    """``"?"`` or a commitment, in a card field or among a list's entries."""
    if isinstance(value, list):
        return any(_hidden_name(v) for v in value)
    return value == HIDDEN or looks_like(value)


def _malformed(value: Any) -> str | None:
    """The first malformed commitment of a card field (a card or a list of cards), or None."""
    return next((v for v in (value if isinstance(value, list) else [value]) if looks_like(v) and not well_formed(v)), None)


def _blanked(value: Any) -> Any:
    """A card field without its unknown or committed cards (null in their place), for the reference check."""
    return [None if _hidden_name(v) else v for v in value] if isinstance(value, list) else None


class ColossusOrder(KitGame[State]):
    id: ClassVar[str] = "colossus-order"
    #: a tournament's registered deck lists have the shape of the log's (docs/tournament.md)
    deck_type: ClassVar[Any] = E.DeckList
    name: ClassVar[str] = "Colossus Order"
    setup_rule = "CO-1.1"
    refs = Refs(player="player", winner="player", owner="player", card="card", cards=["card"], seen_by=["player"])
    data_fields = (DataField(POOLS.kind, "pool", "pool_sha256"),)
    #: one Complete Declaration per distinct selection of face-down cards (rules.declarations)
    listed_by_hidden = (E.CompleteDeclared,)

    # -- the fold contract (core/kernel/fold.py) -----------------------------------------------------------
    def working(self, state: State) -> Any:
        """One verification's working position (working.py): changed in place by each event,
        frozen only where the verifier keeps a position."""
        return Working(self, state)

    # -- references ------------------------------------------------------------------------------
    def setup_context(self, setup: Any) -> dict[str, Names]:
        return {**super().setup_context(setup), "card": POOLS.names(setup.pool, setup.pool_sha256)}

    def validate_refs(self, setup: Any, event: Event) -> None:
        """The kit's reference check; a card field a seat's record may leave unknown (CO-39) may
        hold ``"?"`` or a commitment (CO-40) instead of a card id: checked again without them.

        A seat's record holds such a field on most lines: checked without them at once (an
        exception per line made reading a record eight times as slow as reading the full log); a
        problem found that way is named by the full check below, as it always was."""
        name = _MAY_BE_UNKNOWN.get(event.__class__)
        if name is not None:
            value = getattr(event, name)  # (a card id, most lines: _hidden_name inlined)
            if value is not None and (value == HIDDEN or value.startswith(PREFIX) if value.__class__ is str else _hidden_name(value)) \
                    and not _malformed(value):
                try:
                    KitGame.validate_refs(self, setup, replace(event, **{name: _blanked(value)}))
                    return
                except RefError:
                    pass
        try:
            KitGame.validate_refs(self, setup, event)
        except RefError as x:
            name = x.field.partition("[")[0]
            value = getattr(event, name, None) if name in ("card", "cards") else None
            if value is None or not _hidden_name(value):
                raise
            if _MAY_BE_UNKNOWN.get(type(event)) != name:
                fields = ", ".join(sorted(f"{k.__name__}.{f}" for k, f in _MAY_BE_UNKNOWN.items()))
                raise RefError(x.field, f"{type(event).__name__}.{name} must name the card "
                                        f"(only {fields} may be unknown or committed)") from None
            bad = _malformed(value)
            if bad is not None:
                raise RefError(x.field, f"malformed commitment {bad!r}: sha256: and 64 lowercase hex digits (CO-40.1)") from None
            KitGame.validate_refs(self, setup, replace(event, **{name: _blanked(value)}))

    #: CO-40: the events whose hidden card field may hold a commitment
    committing: ClassVar[frozenset[type]] = frozenset({E.CardDrawn, E.CardSet, E.LocusReplaced, E.CardsReturned})

    def commitments_in(self, event: Any) -> list[str]:
        """The commitments ``event`` (one of :attr:`committing`) holds."""
        if event.__class__ is E.CardsReturned:
            return [v for v in event.cards if v is not None and looks_like(v)]
        card = event.card  # a card of the pool most of the time (the verify loop asks on every draw: looks_like inlined)
        return [card] if card.__class__ is str and card.startswith(PREFIX) else []

    def unopened(self, state: State) -> list[Any]:
        """CO-40: the commitments of the match never opened (verify lists them beside the verdict)."""
        return list(state.commitments)

    def validate_setup(self, setup: E.MatchStarted) -> None:
        check_player_ids(setup.players)
        cards = self.context(setup)["card"]
        for p, deck in setup.decks.items():
            cards.check(f"decks.{p}.colossus", deck.colossus)
        check_deck_lists(setup.players, setup.decks, cards, counts=lambda d: d.cards,
                         field=lambda p, cid: f"decks.{p}.cards.{cid}")
        for p, deck in setup.decks.items():
            if deck.size is not None and (deck.cards or not 0 <= deck.size <= MAX_OPEN_DECK):
                raise RefError(f"decks.{p}.size", f"the size of a deck list left unknown (cards: {{}}) is 0 to {MAX_OPEN_DECK}"
                               if not deck.cards else "size is given only for a deck list left unknown (cards: {})")
        self.options_of(setup)

    # -- start -------------------------------------------------------------------------------------
    def check_setup(self, setup: Any) -> None:
        self.check_seats(setup, 2, 2, "two-players")
        opts = self.options_of(setup)
        if opts.deck_validation == "strict":
            pool = load_pool(setup.pool, setup.pool_sha256)
            for p in setup.players:
                deck = setup.decks[p]
                if not deck.cards:  # CO-39.1: a deck list the record leaves unknown (an assumption, stated once)
                    if pool[deck.colossus].type != "colossus":
                        raise bad("CO-1.5", "not-a-colossus", f"{p}'s Colossus {deck.colossus!r} is a {pool[deck.colossus].type}")
                    if deck.size is not None and deck.size != UNKNOWN_DECK_SIZE:
                        raise bad("CO-1.2", "deck-size", f"{p}'s deck holds {deck.size} cards besides the Colossus; it must hold exactly 50")
                    continue
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

    def initial_state(self, setup: Any) -> State:
        opts = self.options_of(setup)
        players = []
        for p in setup.players[:2]:
            deck = setup.decks[p]
            if not deck.cards and (opts.deck_validation == "strict" or deck.size is not None):  # CO-39.1: unknown
                pool = load_pool(setup.pool, setup.pool_sha256)
                size = open_size(deck, opts)
                copies = None if opts.deck_validation == "strict" else size
                players.append(Player(p, deck.colossus, deck_top=(HIDDEN,) * size, unseen=open_unseen(pool, copies)))
                continue
            # the sorted multiset, by card id (a long match's deck holds 26,000 cards: no loop per card)
            cards = tuple(chain.from_iterable(repeat(c, max(0, n)) for c, n in sorted(deck.cards.items())))
            players.append(Player(p, deck.colossus, deck_top=cards))
        todo = tuple(Shuffle(p.id) for p in players) + (ChooseFirst(),)
        return State(setup=setup, options=opts, players=tuple(players), todo=todo)

    # -- a seat's record (CO-39) -----------------------------------------------------------------
    def assumptions(self, state: State) -> list[str]:
        """CO-39.1: what the verdict assumes of each deck list the record leaves unknown."""
        out = []
        for p in state.setup.players:
            deck = state.setup.decks.get(p)
            if deck is None or deck.cards or (state.options.deck_validation == "off" and deck.size is None):
                continue  # known, or (deck validation off, no size) an empty deck
            if state.options.deck_validation == "strict":
                out.append(f"{p}'s deck list, unknown to this record, meets the construction rules "
                           f"(CO-1.2 to CO-1.5: {UNKNOWN_DECK_SIZE} cards, at most 20 Gems, at most 3 of a name, no Colossus; CO-39.1)")
            else:
                out.append(f"{p}'s deck list, unknown to this record, is {open_size(deck, state.options)} cards of "
                           f"the pool (deck_validation off: no construction rules; CO-39.1)")
        return out

    def keep_seen(self, state: State, annulled: State) -> State:
        """CO-44: a taking back keeps what the seats saw (observe.keep_seen, beside the game's hiding)."""
        return observe.keep_seen(state, annulled)

    def open_conditions(self, state: State) -> tuple[str, ...]:
        """CO-39: the conditions later events have not settled (a stated reveal settles them)."""
        return state.conditions

    # -- rules (check, apply, derive, legal_events, to_act: bound to self.rules by the kit) ------------
    _SET_FIELDS = {E.CompleteDeclared: "slots", E.DeclarationDiscarded: "slots",
                   E.GemsCaptured: "cards", E.CardsRevealed: "cards"}

    #: a look at a hand names its cards in any order (a hand has none: CO-41); a look at a deck's top
    #: names them in the deck's order
    _HAND_LOOK = {CardsLooked: "cards"}

    def canonical(self, event: Event) -> Event:
        if event.__class__ is CardsLooked and event.zone == "hand":  # type: ignore[attr-defined]
            return sorted_fields(event, self._HAND_LOOK)
        return sorted_fields(event, self._SET_FIELDS)

    # what a player sees: observe.py (view, redact, scene and describe go through it)

    def check_position(self, state: State) -> None:
        pool = load_pool(state.setup.pool, state.setup.pool_sha256)
        for p in state.players:
            for zone in ("deck_known", "deck_peek", "deck_mixed", "deck_top", "deck_bottom", "deck_under", "hand", "discard", "set_gems", "captured", "revealed", "hand_could", "mixed_could"):
                cards = getattr(p, zone)
                unknown = {c for c in set(cards) if c not in pool and c != HIDDEN}  # (each name once: a deck
                if unknown:                                                         # holds 26,000 cards)
                    c = next(c for c in cards if c in unknown)
                    raise msgspec.ValidationError(f"unknown card {c!r} - at `$.players.{p.id}.{zone}`")
            # the multisets a position keeps sorted (the deck's checks and draws search them by bisection)
            for zone in ("deck_top", "unseen", "deck_mixed", "hand_could", "mixed_could") + (("deck_bottom",) if state.options.returned_order != "as-listed" else ()):
                cards = getattr(p, zone)
                if list(cards) != sorted(cards):  # (in C: a seek loads long decks from snapshots)
                    raise msgspec.ValidationError(f"{zone} is a multiset of unknown order and must be sorted - at `$.players.{p.id}.{zone}`")

    # describe (render.py), scene (scene.py), turn_number (state.turn): the kit's defaults

    # -- generated matches ---------------------------------------------------------------------
    def deck_counts(self, deck: E.DeckList) -> dict[str, int]:
        """The Colossus counts as one copy of its card beside the deck's cards."""
        out = {deck.colossus: 1}
        for card, n in deck.cards.items():
            out[card] = out.get(card, 0) + n
        return out

    def sample_setup(self, seed: int, *, long: bool = False) -> E.MatchStarted:
        """Two mono-colour decks of the sample pool; ``long``: :data:`LONG_COPIES` times the cards
        (26,000 a deck, deck validation off): over a million events before a deck runs out (no
        concession and no winning Complete Declaration in those matches, see ``playout_weight``)."""
        pool = load_pool("sample")
        c1 = COLOURS[seed % 4]
        c2 = COLOURS[(seed // 4 + 1 + seed) % 4]
        decks = {"p1": build_deck(pool, c1, seed * 2 + 1), "p2": build_deck(pool, c2, seed * 2 + 2)}
        if not long:
            return E.MatchStarted(game=self.id, players=["p1", "p2"], decks=decks)
        decks = {p: E.DeckList(colossus=d.colossus, cards={c: n * LONG_COPIES for c, n in d.cards.items()})
                 for p, d in decks.items()}
        return E.MatchStarted(game=self.id, players=["p1", "p2"], decks=decks, options={"deck_validation": "off"})

    def playout_weight(self, state: State, event: Event) -> float:
        """Random playouts rarely concede, prefer small opening exchanges, and end turns."""
        t = type(event)
        long = state.options.deck_validation == "off"
        if t is E.Conceded:  # never in the long set-up (deck validation off): those matches run on
            return 0.0 if long else 0.00002
        if long and t is E.CompleteDeclared and self.all_gems(state, event):
            return 0.0  # never the winning declaration in the long set-up
        if long and t is E.CardSet and event.zone == "locus" and len(state.player(event.player).locus) >= LONG_LOCUS:
            return 0.0  # face-up Locus cards stay: a Locus that grew all match long would slow every step
        if t is E.CardsReturned:
            return 1.0 / (1 + 10 * len(event.cards) ** 2)
        if t is E.MainPhaseEnded:
            return 1.5
        if t is E.XPlayPassed:
            return 4.0
        return 1.0

    def all_gems(self, state: State, event: E.CompleteDeclared) -> bool:
        """The declared slots hold 6 Gems (the declaration would win)."""
        pool = load_pool(state.setup.pool)
        cards = {sl.id: sl.card for sl in state.player(event.player).locus}
        return all(cards.get(x) is not None and pool[cards[x]].is_gem for x in event.slots)


#: how many times the cards of a sample deck a long generated match plays with
LONG_COPIES = 520
#: a long generated match sets no more Locus cards once a player has this many
LONG_LOCUS = 16


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
