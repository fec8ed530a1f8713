"""The LOGOS game object: plugs the rules into the core protocol and the registry."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import msgspec

from adjudicator.core.kernel.events import HIDDEN, Event
from adjudicator.core.kernel.kit import DataField, KitGame, Refs, check_player_ids
from adjudicator.core.kernel.protocol import RefError
from adjudicator.core.kernel.refs import Names, check_deck_lists

from . import events as E
from .cards import CLASSES, MAX_LOOK, POOLS, Pool, load_pool
from .rulebook import bad
from .observe import keep_seen
from .state import Options, Player, State
from .pending import open_conditions
from .unknowns import open_player
from .working import LogosWorking

#: ``RoundEnded.pushed[].counter`` names a player or this shared counter
SHARED = "shared"

#: fields naming cards both players see, which no seat's record may leave unknown (LG-35)
MUST_NAME: dict[type, str] = {E.Defenseless: "cards", E.PickRevealed: "card", E.EffectResolved: "card"}
MUST_NAME_WHY: dict[type, str] = {
    E.Defenseless: "a defenseless player's cards are discarded face up in front of both players",
    E.PickRevealed: "a revealed pick is shown to both players",
    E.EffectResolved: "the card whose effect fires is a battle card, face up in front of both players",
}


def option_limits(o: Options) -> None:
    """Impossible option values make the log unreadable."""
    limits = [
        ("start_hp", o.start_hp >= 1, "must be at least 1"),
        ("min_slots", 0 <= o.min_slots <= o.start_slots, f"must be between 0 and start_slots ({o.start_slots})"),
        ("max_slots", o.start_slots <= o.max_slots <= 64, f"must be between start_slots ({o.start_slots}) and 64"),
        ("start_slots", 0 <= o.start_slots <= 64, "must be between 0 and 64"),
        ("deck_size", o.deck_size is None or o.deck_size >= 0, "must not be negative"),
        ("max_copies", o.max_copies is None or o.max_copies >= 1, "must be at least 1"),
        ("max_counters", 0 <= o.max_counters <= 1000, "must be between 0 and 1000"),
        ("defenseless_defense", o.defenseless_defense >= 0, "must not be negative"),
        ("max_rounds", o.max_rounds is None or o.max_rounds >= 1, "must be at least 1"),
        ("stall_rounds", o.stall_rounds >= 1, "must be at least 1"),
        ("max_life", o.max_life is None or o.max_life >= 0, "must not be negative"),
    ]
    for name, ok, why in limits:
        if not ok:
            raise RefError(f"options.{name}", f"{getattr(o, name)!r} {why}")


class Logos(KitGame[State]):
    id: ClassVar[str] = "logos"
    #: a tournament's registered deck lists have the shape of the log's (docs/tournament.md)
    deck_type: ClassVar[Any] = dict[str, int]
    name: ClassVar[str] = "LOGOS"
    setup_rule = "LG-1.1"
    refs = Refs(player="player", winner="player", striker="player", target="player", attacker="player",
                defender="player", card="card", cards=["card"])
    data_fields = (DataField(POOLS.kind, "pool", "pool_sha256"),)

    def check_options(self, opts: Options) -> None:
        option_limits(opts)

    # -- references ------------------------------------------------------------------------------
    def setup_context(self, setup: Any) -> dict[str, Names]:
        cards = POOLS.names(setup.pool, setup.pool_sha256)
        # a card may be unknown ("?") in a seat's record (LG-35); null is not a name and passes.
        # Still a mapping of the pool's cards (card_info reads it); "?" maps to no card
        return {**super().setup_context(setup), "card": Names({**cards.known, HIDDEN: None}, cards.unknown)}

    validate_more_types = (*MUST_NAME, E.RoundEnded)

    def validate_more(self, setup: Any, event: Event, ctx: dict[str, Names]) -> None:
        t = type(event)
        if t in MUST_NAME:  # LG-35: cards shown to both players are named in every seat's record
            field = MUST_NAME[t]
            value = getattr(event, field)
            for i, c in enumerate(value if isinstance(value, list) else [value]):
                if c is None or c == HIDDEN:
                    where = f"{field}[{i}]" if isinstance(value, list) else field
                    raise RefError(where, f"{c!r}: {MUST_NAME_WHY[t]}, so every seat's record names it (LG-35); "
                                   "only a card the seat did not see may be unknown")
            return
        if t is E.RoundEnded:
            players = ctx["player"].known
            for i, push in enumerate(event.pushed):
                if push.counter != SHARED and push.counter not in players:
                    raise RefError(f"pushed[{i}].counter", f"unknown counter {push.counter!r} (a player id or {SHARED!r})")

    def validate_setup(self, setup: E.MatchStarted) -> None:
        check_player_ids(setup.players)
        if SHARED in setup.players:
            raise RefError("players", f"{SHARED!r} is reserved (it names the shared combo counter)")
        check_deck_lists(setup.players, setup.decks, POOLS.names(setup.pool, setup.pool_sha256), counts=lambda d: d,
                         field=lambda p, cid: f"decks.{p}.{cid}")
        self.options_of(setup)

    # -- start -------------------------------------------------------------------------------------
    def check_setup(self, setup: Any) -> None:
        self.check_seats(setup, 2, 2, "two-players")
        opts = self.options_of(setup)
        for p in setup.players:
            deck = setup.decks[p]
            if not deck:  # LG-35: a deck list the record leaves unknown (an assumption, stated once)
                continue
            total = sum(deck.values())
            if opts.deck_size is not None and total != opts.deck_size:
                raise bad("LG-1.2", "deck-size", f"{p}'s deck holds {total} cards; the ruleset ({setup.ruleset}) asks for exactly {opts.deck_size} (LG-3)")
            if opts.max_copies is not None:
                for cid, n in sorted(deck.items()):
                    if n > opts.max_copies:
                        raise bad("LG-1.2", "too-many-copies", f"{p}'s deck holds {n} copies of {cid}; the ruleset allows {opts.max_copies} (LG-3)")
            if opts.max_life is not None:
                pool = load_pool(setup.pool)
                life = sum(n for cid, n in deck.items() if pool[cid].klass == "life")
                if life > opts.max_life:
                    raise bad("LG-1.2", "too-many-life", f"{p}'s deck holds {life} Life cards; the ruleset allows {opts.max_life} (LG-31)")

    def assumptions(self, state: State) -> list[str]:
        """LG-35: an unknown deck list is taken to meet the ruleset's construction limits, stated
        once beside the verdict (a card that breaks them is illegal, LG-36)."""
        o = state.options
        limits = [f"exactly {o.deck_size} cards"] if o.deck_size is not None else []
        limits += [f"at most {o.max_copies} copies of a card"] if o.max_copies is not None else []
        limits += [f"at most {o.max_life} Life cards"] if o.max_life is not None else []
        unseen = [p for p in state.setup.players[:2] if not state.setup.decks.get(p)]
        if not unseen or not limits:
            return []
        who = " and ".join(f"{p}'s" for p in unseen)
        lists = "deck list" if len(unseen) == 1 else "deck lists"
        return [f"{who} {lists}, unknown to this record, {'meets' if len(unseen) == 1 else 'meet'} "
                f"the construction limits of LG-1.2 ({', '.join(limits)})"]

    def open_conditions(self, state: State) -> set[str] | None:
        """LG-37: the conditions of a seat's record no later event settled."""
        return open_conditions(state) if state.unknowns else None

    def initial_state(self, setup: Any) -> State:
        opts = self.options_of(setup)
        players = []
        for p in setup.players[:2]:
            if not setup.decks[p]:  # LG-35: unknown deck list
                players.append(open_player(State(setup=setup, options=opts, players=()), p))
                continue
            cards = tuple(sorted(c for c, n in setup.decks[p].items() for _ in range(max(0, n))))
            players.append(Player(p, hp=opts.start_hp, slots=(None,) * opts.start_slots, deck=cards))
        s = State(setup=setup, options=opts, players=tuple(players), unknowns=any(p.unknown for p in players))
        if len(players) != 2:
            return State(setup=setup, options=opts, players=tuple(players), phase="over")
        return self.rules.run(self.rules.after_refill, s)

    # check, apply, derive, legal_events, to_act: bound to self.rules by the kit; outcome, players too

    def working(self, state: State) -> LogosWorking:
        """The fold's working position of one verification (working.py: apply in place, a
        frozen position only where one is kept)."""
        return LogosWorking(self, state)

    # -- views ---------------------------------------------------------------------------------------
    # what a player sees: observe.py (view, redact, scene and describe go through it)

    def check_position(self, state: State) -> None:
        pool = load_pool(state.setup.pool, state.setup.pool_sha256)
        ids = [p.id for p in state.players]
        if ids != list(state.setup.players[:2]):
            raise msgspec.ValidationError(f"players {ids} differ from the set-up's {state.setup.players} - at `$.players`")
        for i, p in enumerate(state.players):
            named = list(p.deck) + list(p.discard) + [c for c in p.slots if c is not None] + \
                [c for c in (p.backup, p.battle) if c is not None] + list(p.top) + list(p.held)
            for c in named:
                if c not in pool and c != HIDDEN:
                    raise msgspec.ValidationError(f"unknown card {c!r} - at `$.players[{i}]`")
            for m in p.mods:
                if m not in ("maximize", "minimize", "swap-values", "berserk") and not (
                        m.startswith("color:") and m[6:] in CLASSES):
                    raise msgspec.ValidationError(f"unknown temporary effect {m!r} - at `$.players[{i}].mods`")
        for k in state.seen:
            if k.player not in ids or any(c not in pool for c in k.shown + k.top):
                raise msgspec.ValidationError(f"unknown player or card in what {k.player!r} was seen to hold - at `$.seen`")
        for it in state.effects:
            if it.card not in pool or it.player not in ids:
                raise msgspec.ValidationError(f"unknown effect source {it.player}/{it.card} - at `$.effects`")
        look = state.look  # LG-44: a look under way names a player, a card, at most MAX_LOOK cards
        if look is not None and (look.player not in ids or look.source not in pool or not 0 <= look.count <= MAX_LOOK):
            raise msgspec.ValidationError(f"a look under way by {look.player!r} of {look.count} card(s) with "
                                          f"{look.source!r}: unknown player or card, or not 0 to {MAX_LOOK} cards - at `$.look`")

    def keep_seen(self, state: State, annulled: State) -> State:
        """LG-41: what a seat saw in events a judge took back stays known to it (observe.py)."""
        return keep_seen(state, annulled)

    def keep_seen_of(self, state: State, annulled: State, events: Sequence[Event]) -> State:
        """:meth:`keep_seen`, told the events taken back (what they named face up, LG-41)."""
        return keep_seen(state, annulled, events)

    # describe (render.py) and scene (scene.py): the kit's defaults

    def turn_number(self, state: State) -> int:
        """The round (a LOGOS turn is a round both players play)."""
        return state.round

    # -- generated matches ---------------------------------------------------------------------
    def sample_setup(self, seed: int, *, long: bool = False) -> E.MatchStarted:
        """Two random decks of the sample pool, open picks (LG-6) so that every choice can be
        listed; every third seed, decks built around a combo card (:func:`chain_deck`), so that
        the cards a random deck can hardly meet are played too; ``long``: hit points for
        thousands of rounds (random decks only)."""
        pool = load_pool("sample")
        build = chain_deck if seed % 3 == 2 and not long else build_deck
        decks = {"p1": build(pool, seed * 2 + 1), "p2": build(pool, seed * 2 + 2)}
        options: dict[str, Any] = {"picks": "open"}
        if long:
            options["start_hp"] = 500_000_000
        return E.MatchStarted(game=self.id, players=["p1", "p2"], decks=decks, options=options)

    def playout_weight(self, state: State, event: Event) -> float:
        """Random playouts rarely resign and seldom fill the Backup Slot."""
        t = type(event)
        if t is E.Resigned:  # never in the long set-up (500,000,000 hit points): those matches run on
            return 0.0 if state.options.start_hp > 1_000_000 else 0.0002
        if t is E.BackupAssigned:
            return 0.3
        return 1.0


def build_deck(pool: Pool, seed: int, size: int = 24) -> dict[str, int]:
    """A random deck of ``size`` cards: mostly cards without a combo requirement, 1-2 copies each."""
    rng = random.Random(seed)
    plain = sorted(c.id for c in pool.cards.values() if not c.has_combo)
    combo = sorted(c.id for c in pool.cards.values() if c.has_combo)
    rng.shuffle(plain)
    rng.shuffle(combo)
    deck: dict[str, int] = {}
    total = 0
    for cid in combo[:3]:
        deck[cid] = 1
        total += 1
    for cid in plain:
        if total >= size:
            break
        n = min(size - total, rng.choice((1, 2)))
        deck[cid] = n
        total += n
    return dict(sorted(deck.items()))


def chain_deck(pool: Pool, seed: int, size: int = 24) -> dict[str, int]:
    """A random deck that can meet a combo requirement: three copies of a combo card, two of a
    card of each class its indicator asks for (a class whose every card has a requirement of its
    own, such as LIFE, brings that card's enablers too, one level down), the rest as
    :func:`build_deck` fills it."""
    rng = random.Random(seed)
    combo = sorted(c.id for c in pool.cards.values() if c.has_combo)
    deck: dict[str, int] = {}

    def add(cid: str, n: int, depth: int) -> None:
        deck[cid] = deck.get(cid, 0) + n
        for panel in sorted({p for p in pool[cid].combo if p != "grey"}):
            plain = sorted(c.id for c in pool.cards.values() if c.klass == panel and not c.has_combo)
            if plain:
                add(rng.choice(plain), 2, depth)
            elif depth > 0:
                other = sorted(c.id for c in pool.cards.values() if c.klass == panel and c.id != cid)
                if other:
                    add(rng.choice(other), 2, depth - 1)

    add(rng.choice(combo), 3, 1)
    total = sum(deck.values())
    for cid, n in build_deck(pool, seed, size).items():
        if total >= size:
            break
        n = min(n, size - total)
        deck[cid] = deck.get(cid, 0) + n
        total += n
    return dict(sorted(deck.items()))
