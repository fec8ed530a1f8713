"""An independent audit of Colossus Order against its seed (the 2013 beginner guide,
/work/shared/seeds/000_c472f64d2a5590b2.txt): generated matches and a small oracle of the seed's
rules, written from the rule text alone, for tests/test_audit_colossus_order*.py.

The oracle reads the card pool from its TOML file (never the engine's card model), keeps its own
tallies from the log (the turn, who set what this turn, which follower attacked or entered, the
X-play window and its chain) and reads the engine's positions only for the contents of zones
(hands, fields, Locus rows, deck sizes), never for a decision the rules make.  Where the seed is
silent it follows the project's documented interpretation (docs/rules/colossus-order.md, the
gap's id is named beside the check).
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.core.kernel import registry
from adjudicator.games.colossus_order import events as E

GAME = registry.get("colossus-order")
POOL_FILE = Path(__file__).resolve().parent.parent / "adjudicator/games/colossus_order/data/sample.toml"
CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in tomllib.loads(POOL_FILE.read_text())["card"]}
COLOURS = ("white", "black", "blue", "red")


# -- the card pool, read from the TOML file ----------------------------------------------------------

def kind(card: str | None) -> str:
    return "" if card is None or card not in CARDS else CARDS[card]["type"]


def is_gem(card: str | None) -> bool:
    return kind(card) == "gem"


def is_follower(card: str | None) -> bool:
    return kind(card) in ("follower", "follower-unique")


def name(card: str) -> str:
    return CARDS[card]["name"]


def gems_meet(need: dict[str, int], gems: list[str]) -> bool:
    """A Gem Level (or a Colossus requirement): each colour's count met by gems of that colour,
    ``any`` by the gems left over (seed A2; the shape is CO-8)."""
    have = Counter(CARDS[g]["colour"] for g in gems)
    left = len(gems)
    for colour, n in need.items():
        if colour == "any":
            continue
        if have[colour] < n:
            return False
        left -= n
    return left >= need.get("any", 0)


#: continuous text that changes a card's cost or a follower's stats (the oracle's exact arithmetic
#: holds only where none of them is on the field)
CONTINUOUS = {c for c, d in CARDS.items() if any(a.get("timing") == "continuous" for a in d.get("abilities", []))}


# -- set-ups -------------------------------------------------------------------------------------------

def random_deck(rng: random.Random, colours: list[str] | None = None) -> E.DeckList:
    """A legal deck (seed D(i)): 50 cards besides the Colossus, at most 20 Gem cards, at most 3
    of a name (ordinary Gems exempt); one or two colours (FAQ: colours may be mixed)."""
    colours = colours or rng.sample(COLOURS, rng.choice((1, 1, 2)))
    colossus = next(c for c, d in CARDS.items() if d["type"] == "colossus" and d["colour"] == colours[0])
    others = sorted(c for c, d in CARDS.items() if d["type"] not in ("colossus", "gem")
                    and all(k in (*colours, "any") for k in d.get("gem_level", {})))
    rng.shuffle(others)
    n_gems = rng.randint(14, 20)
    cards: Counter[str] = Counter()
    for c in others:
        if sum(cards.values()) >= 50 - n_gems:
            break
        cards[c] = min(rng.randint(1, 3), 50 - n_gems - sum(cards.values()))
    uniques = [c for c, d in CARDS.items() if d["type"] == "gem" and d.get("unique") and d["colour"] in colours]
    for u in uniques[:1]:
        cards[u] = rng.randint(0, 2)
    plain = [c for c, d in CARDS.items() if d["type"] == "gem" and not d.get("unique") and d["colour"] in colours]
    while sum(cards.values()) < 50:
        cards[rng.choice(plain)] += 1
    return E.DeckList(colossus=colossus, cards={c: n for c, n in sorted(cards.items()) if n})


def random_options(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A ruleset preset and a random choice of option overrides (each option of
    docs/rules/colossus-order.md, "Rulesets and options", at one of its values, or left out)."""
    choices: dict[str, list[Any]] = {
        "mulligan_first": [0, 1, 2, 3], "mulligan_second": [0, 2, 4, 5],
        "gem_level_scope": ["colossus-gems", "set-only"],
        "colossus_ability_scope": ["set-only", "colossus-gems"],
        "attack_taps_attacker": [True, False], "mutual_battle_damage": [True, False],
        "destroy_when": ["damage-ge-defence", "damage-gt-defence"],
        "attack_needs_attacker": [True, False],
        "declaration_discard_chooser": ["declarer", "opponent"],
        "simultaneous_deckout": ["draw", "turn-player-loses"],
        "max_locus": [None, 4, 7, 9], "returned_order": ["unknown", "as-listed"],
        "stat_setting": ["set-then-modify", "latest-wins"],
    }
    opts = {k: rng.choice(v) for k, v in choices.items() if rng.random() < 0.6}
    return rng.choice(("2013", "2014")), opts


def small_deck(rng: random.Random) -> E.DeckList:
    """A deck of 6 to 24 cards (deck validation off, CO-3): the match reaches deck-out in the
    opening, on the first turns or in a few deck hits."""
    d = random_deck(rng)
    cards = [c for c, n in d.cards.items() for _ in range(n)]
    rng.shuffle(cards)
    return E.DeckList(colossus=d.colossus, cards=dict(Counter(cards[: rng.randint(6, 24)])))


def audit_setup(seed: int) -> E.MatchStarted:
    """A random set-up: legal decks and random options; one seed in five small decks, deck
    validation off."""
    rng = random.Random(seed)
    ruleset, opts = random_options(rng)
    if seed % 5 == 4:
        return E.MatchStarted(game=GAME.id, players=["ann", "ben"], ruleset=ruleset,
                              options={**opts, "deck_validation": "off"},
                              decks={"ann": small_deck(rng), "ben": small_deck(rng)})
    return E.MatchStarted(game=GAME.id, players=["ann", "ben"], ruleset=ruleset, options=opts,
                          decks={"ann": random_deck(rng), "ben": random_deck(rng)})


def option(setup: E.MatchStarted, key: str) -> Any:
    """An option's value from the set-up alone: the override, else the preset's, else the default
    (the table of docs/rules/colossus-order.md)."""
    defaults = {"mulligan_first": 2, "mulligan_second": 4, "gem_level_scope": "colossus-gems",
                "colossus_ability_scope": "set-only", "attack_taps_attacker": True,
                "mutual_battle_damage": False, "destroy_when": "damage-ge-defence",
                "attack_needs_attacker": True, "declaration_discard_chooser": "declarer",
                "simultaneous_deckout": "draw", "max_locus": None}
    preset = {"2014": {"mulligan_first": 3, "mulligan_second": 5}}.get(setup.ruleset, {})
    return setup.options.get(key, preset.get(key, defaults.get(key)))


# -- generated matches ---------------------------------------------------------------------------------

class Step(msgspec.Struct):
    before: Any
    event: Any
    after: Any
    derived: bool


def bold_weight(state: Any, e: Any) -> float:
    """A bolder player than the playouts' (to reach the ends of the match in a short one): Gems
    into the Locus, winning declarations, attacks on the deck, every Gem a deck hit allows."""
    if isinstance(e, E.CompleteDeclared):
        cards = {sl.id: sl.card for sl in seat(state, e.player).locus}
        return 500.0 if all(is_gem(cards.get(x)) for x in e.slots) else 0.2
    if isinstance(e, E.CardSet):
        if e.zone == "gem":
            return 0.3
        return 30.0 if is_gem(e.card) else 0.2
    if isinstance(e, E.AttackDeclared):
        return 6.0 if e.target == "deck" else 3.0 if e.target == "follower" else 0.3
    at = state.attack
    if at is not None and at.target == "follower" and at.follower in getattr(e, "targets", ()):
        return 50.0  # an answer that touches the attacked follower (FAQ (attacks): switched ON)
    if isinstance(e, E.GemsCaptured):
        return 1.0 + 10 * len(e.cards)
    return GAME.playout_weight(state, e)


def steps(setup: E.MatchStarted, seed: int, max_events: int = 900, *, bold: bool = False,
          start: Any = None, uniform: bool = False, weight: Any = None) -> list[Step]:
    """A random legal match as the playouts pick it (adjudicator/core/kernel/playout.py; ``bold``:
    :func:`bold_weight`; ``uniform``: every legal event alike), every event (decisions, random
    outcomes and derived events) with the position before and after; from ``start`` (a settled
    position) or the set-up."""
    weight = weight or ((lambda s, e: 1.0) if uniform else bold_weight if bold else GAME.playout_weight)
    rng = random.Random(seed)
    out: list[Step] = []

    def settle(state: Any) -> Any:
        while (d := GAME.derive(state)) is not None:
            nxt = GAME.apply(state, d)
            out.append(Step(state, d, nxt, True))
            state = nxt
        return state

    state = settle(GAME.initial_state(setup)) if start is None else start
    n = 0
    while GAME.outcome(state) is None and n < max_events:
        options = GAME.legal_events(state)
        if not options:
            break
        e = rng.choices(options, [weight(state, o) for o in options])[0]
        nxt = GAME.apply(state, e)
        out.append(Step(state, e, nxt, False))
        state = settle(nxt)
        n += 1
    return out


def seat(state: Any, player: str) -> Any:
    return next(p for p in state.players if p.id == player)


def other(setup: E.MatchStarted, player: str) -> str:
    a, b = setup.players
    return b if player == a else a


def deck_size(p: Any) -> int:
    return p.deck_count


def handles(p: Any) -> dict[str, Any]:
    return {f.handle: f for f in p.field}


# -- the oracle ----------------------------------------------------------------------------------------

#: decisions that need the turn player's open timing (seed D(iii)4 and FAQ (game rules): the main
#: phase, no X-play window, no attack under way)
OPEN_TIMING = (E.CardSet, E.FollowerPlayed, E.AttackDeclared, E.ColossusAbilityActivated, E.MainPhaseEnded)
#: events that open an X-play window, or join the one open (seed D(iii)4(v), FAQ (game rules); CO-18)
PLAYS = (E.FollowerPlayed, E.ActionPlayed, E.FollowerAbilityActivated)


def auras(state: Any, f: Any) -> tuple[int, int, int, int]:
    """What the continuous text of the other followers of ``f``'s owner adds to it (the pool's
    words: "Your other <race> followers get +n")."""
    owner = next(p for p in state.players if any(g.handle == f.handle for g in p.field))
    out = [0, 0, 0, 0]
    for g in owner.field:
        if g.handle == f.handle:
            continue
        for ab in CARDS[g.card].get("abilities", []):
            for fx in ab.get("effects", []) if ab.get("timing") == "continuous" else []:
                if fx.get("do") == "aura" and fx.get("race") in (None, *CARDS[f.card].get("races", [])):
                    for n, k in enumerate(("attack", "defence", "crush", "capture")):
                        out[n] += fx.get(k, 0)
    return out[0], out[1], out[2], out[3]


def follower_stats(state: Any, f: Any) -> tuple[int, int, int, int]:
    """A follower's current Attack, Defence, Crush, Capture: printed (or set, CO-37), plus this
    turn's boosts, plus the auras of its owner's other followers."""
    c = CARDS[f.card]
    base = (c.get("attack", 0) if f.set_attack is None else f.set_attack,
            c.get("defence", 0) if f.set_defence is None else f.set_defence, c.get("crush", 0), c.get("capture", 0))
    au = auras(state, f)
    return (base[0] + f.boost[0] + au[0], base[1] + f.boost[1] + au[1], base[2] + f.boost[2] + au[2],
            base[3] + f.boost[3] + au[3])


def cost(state: Any, player: str, card: str) -> int:
    """Seed A1: the Locus cost, changed by the player's followers' cost changes ("Your <race>
    followers cost 1 less locus"), never below 0 (CO-5.1)."""
    n = CARDS[card].get("locus_cost", 0)
    for g in seat(state, player).field:
        for ab in CARDS[g.card].get("abilities", []):
            for fx in ab.get("effects", []) if ab.get("timing") == "continuous" else []:
                if fx.get("do") == "cost-change" and is_follower(card) and fx.get("race") in (None, *CARDS[card].get("races", [])):
                    n += fx["delta"]
    return max(0, n)


class Audit:
    """Folds a generated match, event by event, and collects every disagreement with the seed."""

    def __init__(self, setup: E.MatchStarted) -> None:
        self.setup = setup
        self.first: str | None = None
        self.turn = 0
        self.tp: str | None = None
        self.start_phase = False
        self.draw_owed = 0
        self.drawn_in_start = 0
        self.gem_sets: Counter[str] = Counter()
        self.locus_sets: Counter[str] = Counter()
        self.colossus_used: set[tuple[str, int]] = set()
        self.attacked: set[str] = set()
        self.entered: dict[str, int] = {}
        self.window: dict[str, Any] | None = None
        self.chain: list[tuple[str, str]] = []
        #: what each chain item chose when played (its targets, its source follower)
        self.items: list[dict[str, Any]] = []
        self.attack: dict[str, Any] | None = None
        self.main_ended = False
        self.opening: list[Any] = []
        self.returned: dict[str, int] = {}
        self.reveal: dict[str, Any] | None = None
        self.locus_hit: dict[str, Any] | None = None
        self.declared: dict[str, Any] | None = None
        self.declared_turn = False
        self.bad: list[str] = []
        self.seen: Counter[str] = Counter()

    def fail(self, i: int, e: Any, why: str) -> None:
        self.bad.append(f"event {i} {type(e).__name__}{msgspec.to_builtins(e)}: {why}")

    def run(self, match: list[Step]) -> "Audit":
        for i, st in enumerate(match):
            self.seen[type(st.event).__name__] += 1
            self.step(i, st, match)
        return self

    # every event
    def step(self, i: int, st: Step, match: list[Step]) -> None:
        e, b, a = st.event, st.before, st.after
        self.deck_out(i, st, match)
        if not st.derived and b.result is None:
            self.timing(i, e, b)
            self.settled(i, e, b)
            self.probe(i, st)
        handler = getattr(self, "on_" + type(e).__name__, None)
        if handler is not None:
            handler(i, e, b, a)
        for p in a.players:  # seed D(iii)4(iii): one Follower Unique of a name on a player's field
            uniq = Counter(name(f.card) for f in p.field if kind(f.card) == "follower-unique")
            if any(n > 1 for n in uniq.values()):
                self.fail(i, e, f"{p.id} has two Follower Unique of one name on the field: {uniq}")
            for f in p.field:
                self.entered.setdefault(f.handle, self.turn)

    def resolved(self, i: int, e: Any, b: Any, a: Any, info: dict[str, Any]) -> None:
        """A chain item resolved (a subclass checks its effects)."""

    def effects(self, i: int, e: Any, b: Any, a: Any, controller: str, effects: list[dict[str, Any]],
                targets: list[str], source: str | None) -> None:
        """Effects took place between ``b`` and ``a`` (a subclass checks them)."""

    def probe(self, i: int, st: Step) -> None:
        """A decision is due at ``st.before``: a subclass checks what may and may not come there."""

    def settled(self, i: int, e: Any, b: Any) -> None:
        """Seed D(iii)4(v): a follower whose damage reaches its Defence (CO-14: or exceeds it) has
        left the field before anyone decides again."""
        for p in b.players:
            for f in p.field:
                d = follower_stats(b, f)[1]
                if d <= 0 or (f.damage >= d if option(self.setup, "destroy_when") == "damage-ge-defence" else f.damage > d):
                    self.fail(i, e, f"{f.handle} ({f.card}) has {f.damage} damage and Defence {d} but is on the field")

    def deck_out(self, i: int, st: Step, match: list[Step]) -> None:
        """Seed C1 and FAQ (victory): a player loses when the deck becomes 0, at once (CO-10.2, CO-23)."""
        e, a = st.event, st.after
        if isinstance(e, E.GameEnded):
            if e.reason == "deck-out":
                empty = [p.id for p in st.before.players if deck_size(p) == 0]
                if not empty:
                    self.fail(i, e, "deck-out with no empty deck")
                elif len(empty) == 1 and e.winner != other(self.setup, empty[0]):
                    self.fail(i, e, f"{empty[0]}'s deck is empty but the winner is {e.winner}")
            return
        if a.result is not None or a.pending_ends:
            return
        empty = [p.id for p in a.players if deck_size(p) == 0]
        if empty:
            nxt = match[i + 1].event if i + 1 < len(match) else None
            if not (isinstance(nxt, E.GameEnded) and nxt.reason == "deck-out"):
                self.fail(i, e, f"{empty}'s deck is empty and the match goes on with {nxt!r}")
            elif len(empty) == 2:
                self.seen["both decks empty at once"] += 1

    def timing(self, i: int, e: Any, b: Any) -> None:
        """Who may decide now: the X-play protocol (seed D(iii)4(v), FAQ (game rules), CO-9/CO-18),
        nothing in the start and end phases but the declaration and the draw (FAQ)."""
        if isinstance(e, E.Conceded):
            return
        if self.start_phase and not isinstance(e, (E.CompleteDeclared, E.DeclarationDiscarded, E.CardDrawn)):
            self.fail(i, e, "played in the start phase")
        if isinstance(e, OPEN_TIMING) or (isinstance(e, E.ActionPlayed) and self.window is None):
            if self.window is not None or self.chain or self.attack is not None or self.tp is None \
                    or self.start_phase or self.main_ended:
                self.fail(i, e, f"not at open timing (window {self.window}, chain {self.chain}, attack {self.attack})")
            if e.player != self.tp:
                self.fail(i, e, f"by {e.player} at open timing, but {self.tp}'s turn")
        if self.window is not None and isinstance(e, (*PLAYS, E.XPlayPassed)):
            if e.player != self.window["priority"]:
                self.fail(i, e, f"{e.player} acts in X-play but {self.window['priority']} has priority")
            if isinstance(e, E.FollowerPlayed):
                self.fail(i, e, "a follower played in X-play")
            if isinstance(e, E.ActionPlayed) and kind(e.card) != "action-snap":
                self.fail(i, e, "an Action that is not an Action.Snap played in X-play")
        elif isinstance(e, E.XPlayPassed):
            self.fail(i, e, "a pass with no X-play window open")
        if self.window is not None and isinstance(e, (E.ColossusAbilityActivated, E.CardSet, E.AttackDeclared)):
            self.fail(i, e, "not allowed in X-play")

    # the opening (seed D(ii); the order is CO-2)
    def on_DeckShuffled(self, i: int, e: Any, b: Any, a: Any) -> None:
        self.opening.append(e)
        if [x.player for x in self.opening] != list(self.setup.players)[: len(self.opening)]:
            self.fail(i, e, "the decks are not shuffled first, in the order of the players (CO-2.1)")

    def on_FirstPlayerDecided(self, i: int, e: Any, b: Any, a: Any) -> None:
        self.first = e.player
        for p in b.players:
            if deck_size(p) != sum(self.setup.decks[p.id].cards.values()) or p.hand:
                self.fail(i, e, f"{p.id}'s deck is not whole before the opening draw")

    def on_CardsReturned(self, i: int, e: Any, b: Any, a: Any) -> None:
        limit = option(self.setup, "mulligan_first" if e.player == self.first else "mulligan_second")
        if len(e.cards) > limit:
            self.fail(i, e, f"returns {len(e.cards)}, at most {limit}")
        if len(seat(b, e.player).hand) != 7:
            self.fail(i, e, "the opening exchange of a hand that is not the 7 opening cards")
        if self.returned or e.player == self.first:
            if e.player != (self.first if not self.returned else other(self.setup, self.first)):
                self.fail(i, e, "exchange out of order")
        self.returned[e.player] = len(e.cards)

    def on_TurnStarted(self, i: int, e: Any, b: Any, a: Any) -> None:
        if self.turn == 0:
            for p in b.players:
                if len(p.hand) != 7:
                    self.fail(i, e, f"{p.id} starts with {len(p.hand)} cards in hand, not 7")
            if set(self.returned) != set(self.setup.players):
                self.fail(i, e, f"the first turn starts before both exchanges: {self.returned}")
            if e.player != self.first:
                self.fail(i, e, "the first turn is not the first player's")
            for p in b.players:
                if deck_size(p) != sum(self.setup.decks[p.id].cards.values()) - 7:
                    self.fail(i, e, f"{p.id}'s deck holds {deck_size(p)} cards after the opening")
        elif e.player != other(self.setup, self.tp):
            self.fail(i, e, "the turns do not alternate")
        if e.turn != self.turn + 1:
            self.fail(i, e, f"turn {e.turn} after turn {self.turn}")
        self.turn, self.tp = e.turn, e.player
        self.start_phase = True
        self.draw_owed = 0 if (e.turn == 1) else 1  # seed D(iii)3: no draw on the first player's first turn
        self.drawn_in_start = 0
        self.gem_sets.clear()
        self.locus_sets.clear()
        self.colossus_used.clear()
        self.attacked.clear()
        self.main_ended = False
        self.declared = None
        self.declared_turn = False
        p = seat(a, e.player)
        # seed D(iii)2: Recovery: every follower ON, the Locus counter removed
        if any(not f.on for f in p.field):
            self.fail(i, e, f"{e.player}'s followers are not all ON after Recovery")
        if p.locus_used != 0:
            self.fail(i, e, f"{e.player}'s Locus points are not recovered")
        if not self.draw_owed:
            self.start_phase = False

    def on_CardDrawn(self, i: int, e: Any, b: Any, a: Any) -> None:
        if self.turn == 0 and not self.returned:  # seed D(ii)2: 7 cards each, the first player first (CO-2)
            self.opening.append(e)
            n = sum(isinstance(x, E.CardDrawn) for x in self.opening)
            if e.player != (self.first if n <= 7 else other(self.setup, self.first)) or n > 14:
                self.fail(i, e, f"opening draw {n} by {e.player}")
        if self.locus_hit is not None and e.player == self.locus_hit["owner"]:
            self.locus_hit["drawn"] = True
        if not self.start_phase:
            return
        if e.player != self.tp:
            self.fail(i, e, "a draw in the start phase by the other player")
        self.drawn_in_start += 1
        if self.drawn_in_start == self.draw_owed:
            self.start_phase = False

    # the Complete Declaration (seed D(iii)1, C2, FAQ (victory))
    def on_CompleteDeclared(self, i: int, e: Any, b: Any, a: Any) -> None:
        if not self.start_phase or e.player != self.tp or self.drawn_in_start or self.declared_turn:
            self.fail(i, e, "a declaration outside the turn player's start phase before the draw")
        slots = {sl.id: sl for sl in seat(b, e.player).locus}
        if len(set(e.slots)) != 6 or any(x not in slots or slots[x].face_up for x in e.slots):
            self.fail(i, e, "not 6 different face-down slots of the declarer's own Locus")
        self.declared_turn = True
        self.declared = {"player": e.player, "slots": list(e.slots), "cards": {x: slots[x].card for x in e.slots if x in slots}}
        self.seen["declarations"] += 1

    def on_LocusRevealed(self, i: int, e: Any, b: Any, a: Any) -> None:
        d = self.declared
        if d is None or e.slots != d["slots"] or e.cards != [d["cards"][x] for x in e.slots]:
            self.fail(i, e, f"the reveal does not show the declared slots' cards {d}")
            return
        d["all_gems"] = all(is_gem(c) for c in e.cards)

    def on_GameEnded(self, i: int, e: Any, b: Any, a: Any) -> None:
        if e.reason == "gem-complete":
            d = self.declared
            if d is None or not d.get("all_gems") or e.winner != d["player"]:
                self.fail(i, e, f"gem-complete without 6 revealed Gems of the winner's: {d}")
            self.seen["gem-complete"] += 1
        elif self.declared is not None and self.declared.get("all_gems") and self.declared.get("open", True):
            pass

    def on_DeclarationDiscarded(self, i: int, e: Any, b: Any, a: Any) -> None:
        d = self.declared
        if d is None or d.get("all_gems", True):
            self.fail(i, e, "a discard with no failed declaration")
            return
        chooser = d["player"] if option(self.setup, "declaration_discard_chooser") == "declarer" \
            else other(self.setup, d["player"])
        if e.player != chooser:
            self.fail(i, e, f"{e.player} picks the discards; {chooser} should (CO-22)")
        if len(set(e.slots)) != 2 or not set(e.slots) <= set(d["slots"]):
            self.fail(i, e, "not 2 different slots among the revealed 6")
        owner_b, owner_a = seat(b, d["player"]), seat(a, d["player"])
        gone = Counter(d["cards"][x] for x in e.slots)
        if Counter(owner_a.discard) - Counter(owner_b.discard) != gone:
            self.fail(i, e, "the 2 cards are not put into the discard pile")
        left = {sl.id: sl for sl in owner_a.locus}
        for x in d["slots"]:
            if x in e.slots and x in left:
                self.fail(i, e, f"slot {x} stays in the Locus")
            if x not in e.slots and (x not in left or left[x].face_up or left[x].card != d["cards"][x]):
                self.fail(i, e, f"slot {x} is not put back face down")
        self.declared = None
        self.seen["failed declarations"] += 1

    # setting cards (seed D(iii)4(i), (ii))
    def on_CardSet(self, i: int, e: Any, b: Any, a: Any) -> None:
        pb, pa = seat(b, e.player), seat(a, e.player)
        if e.card not in pb.hand:
            self.fail(i, e, "the card is not in hand")
        if e.zone == "gem":
            self.gem_sets[e.player] += 1
            if not is_gem(e.card) or self.gem_sets[e.player] > 1:
                self.fail(i, e, "not a Gem, or a second Gem set this turn")
            if CARDS[e.card].get("unique") and any(name(g) == name(e.card) for g in pb.set_gems):
                self.fail(i, e, "a second Unique Gem of a name among the set gems (CO-4.3)")
            if Counter(pa.set_gems) - Counter(pb.set_gems) != Counter([e.card]):
                self.fail(i, e, "the Gem is not set")
        else:
            self.locus_sets[e.player] += 1
            if self.locus_sets[e.player] > 1:
                self.fail(i, e, "a second Locus card set this turn")
            cap = option(self.setup, "max_locus")
            if cap is not None and len(pb.locus) >= cap:
                self.fail(i, e, f"a Locus card beyond max_locus {cap} (CO-34)")
            new = pa.locus[-1] if pa.locus else None
            if len(pa.locus) != len(pb.locus) + 1 or new is None or new.face_up or new.card != e.card \
                    or any(new.id <= sl.id for sl in pb.locus) or pa.locus[:-1] != pb.locus:
                self.fail(i, e, "the card is not put face down at the right end of the Locus")
        self.seen["sets"] += 1

    # plays (seed A1, A2, D(iii)4(iii), (iv))
    def paid(self, i: int, e: Any, b: Any, a: Any, cost: int) -> None:
        pb, pa = seat(b, e.player), seat(a, e.player)
        used = pa.locus_used - pb.locus_used
        if len(pb.locus) - pb.locus_used < used or used < 0:
            self.fail(i, e, f"paid {used} Locus with {len(pb.locus) - pb.locus_used} unused")
        if used != cost:
            self.fail(i, e, f"paid {used} Locus, the cost is {cost}")

    def gem_level(self, i: int, e: Any, b: Any) -> None:
        p = seat(b, e.player)
        gems = list(p.set_gems) + (list(p.captured) if option(self.setup, "gem_level_scope") == "colossus-gems" else [])
        if not gems_meet(CARDS[e.card].get("gem_level", {}), gems):
            self.fail(i, e, f"the Gem Level {CARDS[e.card].get('gem_level')} is not met by {sorted(gems)}")

    def play(self, i: int, e: Any, b: Any, item: tuple[str, str], info: dict[str, Any] | None = None) -> None:
        self.items.append(info or {})
        if self.window is None:
            self.window = {"priority": self.tp, "passes": 0}
        else:
            self.window = {"priority": other(self.setup, e.player), "passes": 0}
        self.chain.append(item)

    def on_FollowerPlayed(self, i: int, e: Any, b: Any, a: Any) -> None:
        if e.card not in seat(b, e.player).hand or not is_follower(e.card):
            self.fail(i, e, "not a follower in hand")
        if kind(e.card) == "follower-unique":
            mine = [f.card for f in seat(b, e.player).field] + [c for p, c in self.chain if p == e.player]
            if any(name(c) == name(e.card) for c in mine):
                self.fail(i, e, "a second Follower Unique of a name")
        self.gem_level(i, e, b)
        self.paid(i, e, b, a, cost(b, e.player, e.card))
        self.play(i, e, b, (e.player, e.card), {"kind": "follower", "targets": list(e.targets)})

    def on_ActionPlayed(self, i: int, e: Any, b: Any, a: Any) -> None:
        if e.card not in seat(b, e.player).hand or kind(e.card) not in ("action", "action-snap"):
            self.fail(i, e, "not an Action in hand")
        self.gem_level(i, e, b)
        self.paid(i, e, b, a, cost(b, e.player, e.card))
        self.play(i, e, b, (e.player, e.card), {"kind": "action", "targets": list(e.targets)})

    def on_FollowerAbilityActivated(self, i: int, e: Any, b: Any, a: Any) -> None:
        f = handles(seat(b, e.player)).get(e.follower)
        if f is None:
            self.fail(i, e, "not a follower of the player's on the field")
            return
        abilities = [ab for ab in CARDS[f.card].get("abilities", [])]
        ab = abilities[e.ability] if 0 <= e.ability < len(abilities) else None
        if ab is None or ab.get("timing") != "activated":
            self.fail(i, e, "no such activated ability")
            return
        cost = ab.get("cost", {})
        if cost.get("off"):
            # seed D(iii)4(iii): no switch OFF for an ability on the turn it is played; FAQ (attacks):
            # the OFF of an attack is no payment
            if not f.on or self.entered.get(f.handle) == self.turn:
                self.fail(i, e, "an OFF cost paid by a follower that is OFF or entered this turn")
            g = handles(seat(a, e.player)).get(e.follower)
            if g is not None and g.on:
                self.fail(i, e, "the OFF cost is not paid")
        self.paid(i, e, b, a, cost.get("locus", 0))
        self.play(i, e, b, (e.player, f.card),
                  {"kind": "ability", "targets": list(e.targets), "source": e.follower, "ability": e.ability})
        self.seen["abilities"] += 1

    def on_ColossusAbilityActivated(self, i: int, e: Any, b: Any, a: Any) -> None:
        p = seat(b, e.player)
        abilities = CARDS[p.colossus].get("colossus_abilities", [])
        if not 0 <= e.ability < len(abilities):
            self.fail(i, e, "no such Colossus ability")
            return
        if (e.player, e.ability) in self.colossus_used:  # seed D(iii)4(vi): once per turn each
            self.fail(i, e, "a Colossus ability used twice in a turn")
        self.colossus_used.add((e.player, e.ability))
        gems = list(p.set_gems) + (list(p.captured) if option(self.setup, "colossus_ability_scope") == "colossus-gems" else [])
        if not gems_meet(abilities[e.ability]["requires"], gems):
            self.fail(i, e, f"needs {abilities[e.ability]['requires']}, has {sorted(gems)}")
        self.paid(i, e, b, a, abilities[e.ability].get("cost", {}).get("locus", 0))
        self.seen["colossus abilities"] += 1
        # CO-28: at once, no chain
        self.effects(i, e, b, a, e.player, abilities[e.ability].get("effects", []), list(e.targets), None)

    # the X-play window (CO-18)
    def on_XPlayPassed(self, i: int, e: Any, b: Any, a: Any) -> None:
        if self.window is None:
            return
        passes = self.window["passes"] + 1
        self.window = None if passes == 2 else {"priority": other(self.setup, e.player), "passes": passes}

    def on_XPlayResolved(self, i: int, e: Any, b: Any, a: Any) -> None:
        if self.window is not None or not self.chain:
            self.fail(i, e, f"resolved while the window is open or the chain is empty ({self.chain})")
            return
        top = self.chain.pop()  # seed D(iii)4(v): from the last played
        info = self.items.pop()
        if top != (e.player, e.card):
            self.fail(i, e, f"resolved out of order: the last item is {top}")
        else:
            self.resolved(i, e, b, a, info)
        self.seen["resolved"] += 1

    def on_MainPhaseEnded(self, i: int, e: Any, b: Any, a: Any) -> None:
        self.main_ended = True
        self.window = {"priority": self.tp, "passes": 0}

    def on_TurnEnded(self, i: int, e: Any, b: Any, a: Any) -> None:
        if not self.main_ended or self.window is not None or self.chain:
            self.fail(i, e, "the turn ends before the main phase and its last window")
        for p in a.players:  # seed D(iii)4(v), FAQ (attacks): damage lasts till the end of the turn
            for f in p.field:
                if f.damage or any(f.boost) or f.set_attack is not None or f.set_defence is not None:
                    self.fail(i, e, f"{f.handle} keeps damage or changes past the end of the turn")

    def on_FollowerDestroyed(self, i: int, e: Any, b: Any, a: Any) -> None:
        f = handles(seat(b, e.player)).get(e.follower)
        if f is None:
            self.fail(i, e, "no such follower")
            return
        d = follower_stats(b, f)[1]
        if not (d <= 0 or (f.damage >= d if option(self.setup, "destroy_when") == "damage-ge-defence" else f.damage > d)):
            self.fail(i, e, f"destroyed with {f.damage} damage and Defence {d}")
        if e.card not in seat(a, e.player).discard or e.follower in handles(seat(a, e.player)):
            self.fail(i, e, "not moved to the discard pile")

    # attacks (seed A6-A8, D(iii)4(v), FAQ (attacks))
    def on_AttackDeclared(self, i: int, e: Any, b: Any, a: Any) -> None:
        me, opp = seat(b, e.player), seat(b, other(self.setup, e.player))
        f = handles(me).get(e.attacker)
        if f is None:
            self.fail(i, e, "the attacker is not the player's follower on the field")
            return
        if not f.on or self.entered.get(f.handle) == self.turn or f.handle in self.attacked:
            self.fail(i, e, "the attacker is OFF, entered this turn or attacked this turn")
        self.attacked.add(f.handle)
        if e.target == "follower":
            t = handles(opp).get(e.follower)
            if t is None or t.on:
                self.fail(i, e, "the attacked follower is not an OFF follower of the opponent")
        elif e.target == "locus":
            if e.slot not in {sl.id for sl in opp.locus}:
                self.fail(i, e, "no such Locus slot of the opponent")
        g = handles(seat(a, e.player))[e.attacker]
        if g.on == option(self.setup, "attack_taps_attacker"):
            self.fail(i, e, "the attacker's ON/OFF after the declaration does not follow attack_taps_attacker (CO-10)")
        self.attack = {"player": e.player, "attacker": e.attacker, "target": e.target, "slot": e.slot,
                       "follower": e.follower, "blocker": None, "decided": False,
                       "card": f.card}
        self.seen["attacks"] += 1

    def on_BlockDeclared(self, i: int, e: Any, b: Any, a: Any) -> None:
        at = self.attack
        if at is None or at["decided"] or e.player == at["player"]:
            self.fail(i, e, "a block with no attack to block, or by the attacker")
            return
        f = handles(seat(b, e.player)).get(e.blocker)
        if f is None or not f.on:
            self.fail(i, e, "the blocker is not an ON follower of the defender")
        elif handles(seat(a, e.player))[e.blocker].on:
            self.fail(i, e, "the blocker is not switched OFF")
        at.update(blocker=e.blocker, decided=True)
        self.window = {"priority": self.tp, "passes": 0}
        self.seen["blocks"] += 1

    def on_BlockDeclined(self, i: int, e: Any, b: Any, a: Any) -> None:
        at = self.attack
        if at is None or at["decided"] or e.player == at["player"]:
            self.fail(i, e, "a declined block with no attack")
            return
        at["decided"] = True
        self.window = {"priority": self.tp, "passes": 0}

    def on_BattleResolved(self, i: int, e: Any, b: Any, a: Any) -> None:
        at, self.attack = self.attack, None
        if at is None or self.window is not None or self.chain:
            self.fail(i, e, "a battle with no attack, or before the X-play is over")
            return
        me, opp = seat(b, at["player"]), seat(b, other(self.setup, at["player"]))
        f = handles(me).get(at["attacker"])
        needs = option(self.setup, "attack_needs_attacker")
        if at["blocker"] is not None:
            # FAQ (attacks): a declared defence counts as defended, whatever happens to the blocker
            blocker = handles(opp).get(at["blocker"])
            if e.result not in ("defended", "follower-damaged") or (e.result == "follower-damaged" and e.follower != at["blocker"]):
                self.fail(i, e, "a blocked attack does not fight the blocker")
            if blocker is None:
                self.seen["blockers gone before the battle"] += 1
                if e.result != "defended":
                    self.fail(i, e, "the blocker left the field: the attack is defended")
            if f is None and needs and e.result != "defended":
                self.fail(i, e, "the attacker left the field (CO-15)")
            self.damage(i, e, b, at, f, e.follower if e.result == "follower-damaged" else None)
            self.seen["blocked battles"] += 1
            return
        if f is None and needs:
            if e.result != "fizzled":
                self.fail(i, e, "the attacker left the field: the attack fizzles (CO-15)")
            return
        if at["target"] == "deck":
            if e.result != "deck-hit":
                self.fail(i, e, "an unblocked attack on the deck does not hit it")
                return
            stats = follower_stats(b, f) if f is not None else None
            if stats is not None:
                crush, capture = max(0, stats[2]), max(0, stats[3])  # CO-48
                if e.damage != min(crush, deck_size(opp)) or e.capture != capture:
                    self.fail(i, e, f"Crush {crush} (deck {deck_size(opp)}) and Capture {capture} expected")
            self.reveal = {"owner": opp.id, "count": e.damage, "capture": e.capture, "attacker": at["player"],
                           "deck": deck_size(opp), "cards": None}
            self.seen["deck hits"] += 1
        elif at["target"] == "locus":
            slots = [sl.id for sl in opp.locus]
            if at["slot"] not in slots:
                if e.result != "fizzled":
                    self.fail(i, e, "the attacked slot is gone: the attack fizzles (CO-15)")
                return
            k = slots.index(at["slot"])
            card = opp.locus[k].card
            if e.result != "locus-hit" or e.slot != at["slot"] or e.card != card:
                self.fail(i, e, f"an unblocked attack on Locus slot {at['slot']} ({card}) does not hit it")
                return
            after = {sl.id: sl for sl in seat(a, opp.id).locus}
            if is_gem(card):  # seed D(iii)4(v): a Gem goes to the captured gems, draw 1, put 1 back
                if Counter(seat(a, at["player"]).captured) - Counter(me.captured) != Counter([card]):
                    self.fail(i, e, "the Gem is not captured")
                self.locus_hit = {"owner": opp.id, "slot": at["slot"], "index": k, "drawn": False}
                self.seen["locus gems captured"] += 1
            else:
                sl = after.get(at["slot"])
                if sl is None or not sl.face_up or sl.card != card or [s.id for s in seat(a, opp.id).locus] != slots:
                    self.fail(i, e, "a non-Gem Locus card does not stay in place face up")
                self.seen["locus non-gems shown"] += 1
        else:
            t = handles(opp).get(at["follower"])
            if t is None:
                if e.result != "fizzled":
                    self.fail(i, e, "the attacked follower is gone: the attack fizzles (CO-15)")
                return
            if e.result != "follower-damaged" or e.follower != at["follower"]:
                self.fail(i, e, "an unblocked attack on a follower does not damage it")
            self.damage(i, e, b, at, f, e.follower)
            self.seen["follower battles"] += 1
            # FAQ (attacks): a target switched ON after the declaration is still hit, and stays ON
            # if it survives
            after = handles(seat(a, opp.id)).get(at["follower"])
            if after is not None and after.on != t.on:
                self.fail(i, e, f"the battle switches {t.handle} {'OFF' if t.on else 'ON'}")
            if t.on:
                self.seen["attacked followers switched ON before the battle"] += 1

    def damage(self, i: int, e: Any, b: Any, at: dict[str, Any], f: Any, target: str | None) -> None:
        """Seed A8: the attacker's Attack against the Defence; one-way unless mutual_battle_damage
        (CO-13, blocked attacks only)."""
        if target is None or f is None:
            return
        stats = follower_stats(b, f)
        if e.damage != max(0, stats[0]):  # CO-48: below 0 deals none
            self.fail(i, e, f"deals {e.damage}, the attacker's Attack is {stats[0]}")
        opp = seat(b, other(self.setup, at["player"]))
        t = handles(opp).get(target)
        back = 0
        if at["blocker"] is not None and option(self.setup, "mutual_battle_damage") and t is not None:
            back = max(0, follower_stats(b, t)[0])
        if e.counter_damage != back:
            self.fail(i, e, f"counter damage {e.counter_damage}, expected {back}")

    def on_CardsRevealed(self, i: int, e: Any, b: Any, a: Any) -> None:
        r = self.reveal
        if r is None or e.player != r["owner"] or len(e.cards) != r["count"]:
            self.fail(i, e, f"a reveal the deck hit does not owe ({r})")
            return
        r["cards"] = list(e.cards)
        if deck_size(seat(a, e.player)) != r["deck"]:
            self.fail(i, e, "revealed cards are still part of the deck (FAQ (victory))")

    def on_GemsCaptured(self, i: int, e: Any, b: Any, a: Any) -> None:
        r, self.reveal = self.reveal, None
        if r is None or r["cards"] is None or e.player != r["attacker"]:
            self.fail(i, e, "a capture with no revealed cards")
            return
        if Counter(e.cards) - Counter(r["cards"]) or not all(is_gem(c) for c in e.cards) or len(e.cards) > r["capture"]:
            self.fail(i, e, f"captures non-revealed, non-Gem or more than Capture {r['capture']} cards")
        if Counter(seat(a, e.player).captured) - Counter(seat(b, e.player).captured) != Counter(e.cards):
            self.fail(i, e, "the Gems are not in the attacker's captured gems")
        rest = Counter(r["cards"]) - Counter(e.cards)
        owner_b, owner_a = seat(b, r["owner"]), seat(a, r["owner"])
        if Counter(owner_a.discard) - Counter(owner_b.discard) != rest:
            self.fail(i, e, "the rest of the revealed cards are not sent to the discard pile")
        if deck_size(owner_a) != r["deck"] - len(r["cards"]):
            self.fail(i, e, "the revealed cards do not leave the deck")
        self.seen["captures"] += len(e.cards)

    def on_LocusReplaced(self, i: int, e: Any, b: Any, a: Any) -> None:
        h, self.locus_hit = self.locus_hit, None
        if h is None or e.player != h["owner"] or not h["drawn"]:
            self.fail(i, e, f"a replacement no Locus hit owes, or before the draw ({h})")
            return
        row = seat(a, e.player).locus
        if h["index"] >= len(row) or row[h["index"]].id != h["slot"] or row[h["index"]].face_up or row[h["index"]].card != e.card:
            self.fail(i, e, "the new Locus card is not put face down where the captured one was (FAQ (attacks))")
        if e.card not in seat(b, e.player).hand:
            self.fail(i, e, "the replacement is not from hand")
