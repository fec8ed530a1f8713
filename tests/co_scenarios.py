"""Builders for readable Colossus Order tests: legal decks, set-ups and scripted matches.

``Script`` starts a match (shuffles, first player, NAMED opening hands, opening exchanges) and
then lets a test append events through short helpers, each checked with the engine's own
``propose`` (so a builder step that is illegal fails loudly with the engine's ruling).  Boring
steps are automated: ``pass_window()`` passes until the X-play window closes, ``end_turn()``
ends the main phase, lets the final window close and draws the next player's card.

Players are ``alice`` and ``bob``; by default alice plays white (Piadin) and goes first, bob plays
black (Valden).  Decks are legal 50-card decks built by :func:`deck` around the cards a test names.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

import msgspec

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.rulings import Ruling
from adjudicator.core.kernel.verify import propose, run, start
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order.cards import load_pool
from adjudicator.games.colossus_order.deck import next_options
from adjudicator.games.colossus_order.state import Draw, State, Window

GAME = registry.get("colossus-order")
POOL = load_pool("sample")
A, B = "alice", "bob"

WHITE = "dawn-bastion-colossus"
BLACK = "umbral-throne-colossus"
BLUE = "tidal-spire-colossus"
RED = "ember-forge-colossus"

#: the cards of the default decks (3 copies each; gems are filled up to 20)
WHITE_CARDS = ["ash", "heroic-knight", "spurring-griffin", "bastion-squire", "dawn-sparrowhawk",
               "cloudmane-pegasus", "guardians-intervention", "blinding-radiance", "herald-of-the-dawn",
               "sky-lancer-captain"]
BLACK_CARDS = ["dark-strike", "grave-rat", "bone-sentry", "nightveil-assassin", "plague-bearer",
               "withering-curse", "soul-harvest", "shadow-step", "culling-plague", "ghoul-scavenger"]


def deck(colossus: str = WHITE, cards: dict[str, int] | Iterable[str] = (), *, gems: int = 20,
         gem: str | None = None, size: int = 50) -> E.DeckList:
    """A deck list holding ``cards`` (a list means 3 copies of each), filled to ``size`` cards:
    first with the Colossus colour's ordinary gem up to ``gems`` Gem cards, then with other
    non-Gem cards of the Colossus colour (3 each, by id), then of any colour.  Legal under the
    strict deck rules whenever ``cards`` respects them and ``size`` is 50."""
    wanted = dict(cards) if isinstance(cards, dict) else {c: 3 for c in cards}
    colour = POOL[colossus].colour
    gem = gem or next(c.id for c in POOL.cards.values() if c.type == "gem" and c.colour == colour and not c.unique)
    out: dict[str, int] = dict(wanted)
    total = sum(out.values())
    n_gems = sum(n for c, n in out.items() if POOL[c].is_gem)
    add = max(0, min(gems - n_gems, size - total))
    if add:
        out[gem] = out.get(gem, 0) + add
        total += add
    names = {POOL[c].name for c in out}
    fillers = sorted(POOL.cards.values(), key=lambda c: (c.colour != colour, c.id))
    for c in fillers:
        if total >= size:
            break
        if c.type in ("colossus", "gem") or c.name in names:
            continue
        n = min(3, size - total)
        out[c.id] = n
        names.add(c.name)
        total += n
    return E.DeckList(colossus=colossus, cards=out)


def default_decks() -> dict[str, E.DeckList]:
    return {A: deck(WHITE, WHITE_CARDS + ["heart-of-piadin"]), B: deck(BLACK, BLACK_CARDS + ["eye-of-valden"])}


def setup(decks: dict[str, E.DeckList | dict[str, int] | list[str]] | None = None, *,
          options: dict[str, Any] | None = None, ruleset: str = "2013",
          players: list[str] | None = None) -> E.MatchStarted:
    """A MatchStarted with legal decks; ``decks`` overrides per player (a DeckList, or the cards
    to build one around with the default Colossus of that player)."""
    players = players or [A, B]
    base = default_decks()
    lists: dict[str, E.DeckList] = {}
    for i, p in enumerate(players):
        given = (decks or {}).get(p)
        if isinstance(given, E.DeckList):
            lists[p] = given
        elif given is not None:
            lists[p] = deck(WHITE if i == 0 else BLACK, given)
        else:
            lists[p] = base.get(p) or deck(WHITE if i == 0 else BLACK)
    return E.MatchStarted(game=GAME.id, players=players, decks=lists, ruleset=ruleset, options=options or {})


def encode(events: Iterable[Event]) -> bytes:
    enc = msgspec.json.Encoder()
    return b"".join(enc.encode(e) + b"\n" for e in events)


def verify_events(events: Iterable[Event]) -> Any:
    """``verify.run`` over these events (encoded and parsed like a log file)."""
    return run(parse_log(encode(events)))


class StepFailed(AssertionError):
    pass


class Script:
    """A match built event by event.  ``Script(hands={A: [...], B: [...]})`` plays the set-up
    with those opening hands (filled to 7 with the deck's commonest card) and stops at the first
    player's open timing on turn 1."""

    def __init__(self, hands: dict[str, list[str]] | None = None, *, decks: Any = None, first: str = A,
                 options: dict[str, Any] | None = None, ruleset: str = "2013",
                 returns: dict[str, tuple[list[str], list[str]]] | None = None,
                 match: E.MatchStarted | None = None, opening: bool = True) -> None:
        self.game = GAME
        self.setup = match or setup(decks, options=options, ruleset=ruleset)
        st, ruling, derived = start(GAME, self.setup)
        if opening and not ruling.legal:
            raise StepFailed(f"illegal set-up: {ruling.rule} [{ruling.code}] {ruling.message}")
        self._state: State = st
        #: (event, derived events that followed it)
        self.log: list[tuple[Event, list[Event]]] = [(self.setup, derived)]
        self.rulings: list[Ruling] = [ruling]
        if opening:
            self.opening(hands or {}, first, returns or {})

    # -- core ------------------------------------------------------------------------------------
    def state(self) -> State:
        """The settled position after the last event."""
        return self._state

    @property
    def s(self) -> State:
        return self._state

    def events(self) -> list[Event]:
        return [e for e, _ in self.log]

    def derived(self) -> list[Event]:
        """Every derived event so far, in order."""
        return [d for _, ds in self.log for d in ds]

    def last_derived(self) -> list[Event]:
        return self.log[-1][1]

    def lines(self, with_derived: bool = False) -> bytes:
        out: list[Event] = []
        for e, ds in self.log:
            out.append(e)
            if with_derived:
                out.extend(ds)
        return encode(out)

    def verify(self, with_derived: bool = False) -> Any:
        return run(parse_log(self.lines(with_derived)))

    def check(self, event: Event) -> Ruling:
        """The engine's ruling on ``event`` now (the match does not change)."""
        return propose(GAME, self._state, event)[0]

    def add(self, event: Event, note: str | None = None) -> Ruling:
        """Append ``event``; it must be legal (else :class:`StepFailed` with the engine's ruling)."""
        if note is not None:
            event = msgspec.structs.replace(event, note=note)
        ruling, derived, new = propose(GAME, self._state, event)
        if not ruling.legal:
            raise StepFailed(f"{GAME.describe_event(event)} rejected: {ruling.rule} [{ruling.code}] {ruling.message}")
        self._state = new
        self.log.append((event, derived))
        self.rulings.append(ruling)
        return ruling

    def append_raw(self, event: Event, note: str | None = None) -> None:
        """Append ``event`` to the log without checking it (for illegal logs)."""
        if note is not None:
            event = msgspec.structs.replace(event, note=note)
        self.log.append((event, []))

    def copy(self) -> "Script":
        other = object.__new__(Script)
        other.__dict__.update(self.__dict__)
        other.log = list(self.log)
        other.rulings = list(self.rulings)
        return other

    # -- who and what ---------------------------------------------------------------------------
    @property
    def tp(self) -> str:
        return self._state.turn_player

    def other(self, pid: str) -> str:
        return self._state.other(pid)

    def player(self, pid: str) -> Any:
        return self._state.player(pid)

    def head(self) -> Any:
        return self._state.todo[0] if self._state.todo else None

    def filler(self, pid: str) -> str:
        """The card known to come next from ``pid``'s deck, else the commonest card left in the
        unknown part (ties: by id)."""
        p = self.player(pid)
        if p.deck_known or not p.deck_top:  # the next card is known, or the unknown part is used up
            return next_options(p, self._state.options.returned_order == "as-listed")[0]
        counts = Counter(p.deck_top)
        return sorted(counts, key=lambda c: (-counts[c], c))[0]

    def handle(self, card: str, player: str | None = None, nth: int = -1) -> str:
        """The handle of a follower named ``card`` on the field (the last one by default)."""
        found = [f.handle for p in self._state.players if player in (None, p.id) for f in p.field if f.card == card]
        if not found:
            raise StepFailed(f"no {card} on the field")
        return found[nth]

    def follower(self, handle: str) -> Any:
        for p in self._state.players:
            for f in p.field:
                if f.handle == handle:
                    return f
        return None

    def stats(self, handle: str) -> tuple[int, int, int, int]:
        for p in self._state.players:
            for f in p.field:
                if f.handle == handle:
                    return GAME.rules.stats(self._state, p, f)
        raise StepFailed(f"no follower {handle}")

    # -- set-up ----------------------------------------------------------------------------------
    def opening(self, hands: dict[str, list[str]], first: str = A,
                returns: dict[str, tuple[list[str], list[str]]] | None = None) -> None:
        returns = returns or {}
        for p in self.setup.players[:2]:
            self.add(E.DeckShuffled(player=p))
        self.add(E.FirstPlayerDecided(player=first))
        order = [first, self.other(first)]
        for p in order:
            want = list(hands.get(p, []))
            assert len(want) <= 7, want
            for c in want:
                self.draw(c, p)
            while len(self.player(p).hand) < 7:
                self.draw(None, p)
        for p in order:
            back, new = returns.get(p, ([], []))
            self.add(E.CardsReturned(player=p, cards=list(back)))
            for c in new:
                self.draw(c, p)
            while isinstance(self.head(), Draw):
                self.draw(None, p)

    # -- step helpers ----------------------------------------------------------------------------
    def draw(self, card: str | None = None, player: str | None = None) -> Ruling:
        h = self.head()
        who = player or (h.player if isinstance(h, Draw) else self.tp)
        return self.add(E.CardDrawn(player=who, card=card or self.filler(who)))

    def set_gem(self, card: str, player: str | None = None) -> Ruling:
        return self.add(E.CardSet(player=player or self.tp, card=card, zone="gem"))

    def set_locus(self, card: str, player: str | None = None) -> Ruling:
        return self.add(E.CardSet(player=player or self.tp, card=card, zone="locus"))

    def play_event(self, card: str, *targets: str, player: str | None = None) -> Event:
        who = player or self._priority() or self.tp
        if POOL[card].is_follower:
            return E.FollowerPlayed(player=who, card=card, targets=list(targets))
        return E.ActionPlayed(player=who, card=card, targets=list(targets))

    def play(self, card: str, *targets: str, player: str | None = None) -> Ruling:
        """Play a follower or an Action (by whoever has priority in a window, else the turn player)."""
        return self.add(self.play_event(card, *targets, player=player))

    def summon(self, card: str, *targets: str) -> str:
        """Play a follower, let the window close, return its handle."""
        self.play(card, *targets)
        self.pass_window()
        return self.handle(card, self.tp)

    def ability(self, follower: str, *targets: str, index: int = 0) -> Ruling:
        owner = next(p.id for p in self._state.players for f in p.field if f.handle == follower)
        return self.add(E.FollowerAbilityActivated(player=owner, follower=follower, ability=index, targets=list(targets)))

    def colossus(self, index: int = 0, *targets: str) -> Ruling:
        return self.add(E.ColossusAbilityActivated(player=self.tp, ability=index, targets=list(targets)))

    def attack_event(self, attacker: str, target: str | int = "deck") -> E.AttackDeclared:
        if target == "deck":
            return E.AttackDeclared(player=self.tp, attacker=attacker, target="deck")
        if isinstance(target, int):
            return E.AttackDeclared(player=self.tp, attacker=attacker, target="locus", slot=target)
        return E.AttackDeclared(player=self.tp, attacker=attacker, target="follower", follower=target)

    def attack(self, attacker: str, target: str | int = "deck") -> Ruling:
        """Declare an attack: ``"deck"``, a Locus slot id (int) or a follower handle."""
        return self.add(self.attack_event(attacker, target))

    def block(self, blocker: str) -> Ruling:
        return self.add(E.BlockDeclared(player=self.other(self.tp), blocker=blocker))

    def no_block(self) -> Ruling:
        return self.add(E.BlockDeclined(player=self.other(self.tp)))

    def _priority(self) -> str | None:
        h = self.head()
        return h.priority if isinstance(h, Window) else None

    def pass_(self) -> Ruling:
        return self.add(E.XPlayPassed(player=self._priority() or self.tp))

    def pass_window(self) -> None:
        """Pass until the current X-play window closes (and its chain resolves)."""
        while isinstance(self.head(), Window):
            self.pass_()

    def reveal(self, *cards: str) -> Ruling:
        return self.add(E.CardsRevealed(player=self.head().player, cards=list(cards)))

    def capture(self, *cards: str) -> Ruling:
        return self.add(E.GemsCaptured(player=self.tp, cards=list(cards)))

    def replace_locus(self, card: str) -> Ruling:
        return self.add(E.LocusReplaced(player=self.head().player, card=card))

    def end_main(self) -> None:
        self.add(E.MainPhaseEnded(player=self.tp))
        self.pass_window()

    def end_turn(self, draw: str | None = None) -> None:
        """End the main phase, close the final window and draw the next player's card (if owed)."""
        self.end_main()
        if isinstance(self.head(), Draw) and self.head().reason == "draw-step":
            self.draw(draw)

    def turn(self, gem: str | None = None, locus: str | None = None, draw: str | None = None) -> None:
        """A quiet turn: optionally set a gem and a Locus card, then end the turn."""
        if gem:
            self.set_gem(gem)
        if locus:
            self.set_locus(locus)
        self.end_turn(draw)

    def develop(self, rounds: int, *, draws: dict[str, list[str]] | None = None) -> None:
        """``rounds`` quiet turns each way, each player setting its filler gem on the Colossus and
        another as a Locus card every turn (draws: named cards drawn at each player's draw steps)."""
        queue = {p: list(v) for p, v in (draws or {}).items()}
        for _ in range(2 * rounds):
            me = self.tp
            g = self._gem_in_hand(me)
            if g:
                self.set_gem(g)
            g = self._gem_in_hand(me)
            if g:
                self.set_locus(g)
            nxt = self.other(me)
            self.end_turn((queue.get(nxt) or [None]).pop(0) if queue.get(nxt) else None)

    def _gem_in_hand(self, pid: str) -> str | None:
        gems = [c for c in self.player(pid).hand if POOL[c].is_gem and not POOL[c].unique]
        return gems[0] if gems else None
