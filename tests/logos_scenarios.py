"""Builders for readable LOGOS tests: set-ups with small named decks and scripted matches.

``Script`` starts a match and lets a test append events through short helpers, each checked with
the engine's own ``propose`` (a builder step that is illegal fails loudly with the engine's
ruling).  ``refill`` draws named cards for the empty slots (first player first); ``play(a, b)``
sends one card per player, as ``CardPicked`` (open picks) or as ``CardCommitted`` +
``PickRevealed`` with a per-round salt (hidden picks, the default); ``battle()`` passes every
Backup window.  Players are ``ann`` (first) and ``ben``.
"""

from __future__ import annotations

from typing import Any, Iterable

import msgspec

import adjudicator.games.logos  # noqa: F401  (registers the game)
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.rulings import Ruling
from adjudicator.core.kernel.verify import propose, run, start
from adjudicator.games.logos import events as E
from adjudicator.games.logos.cards import load_pool
from adjudicator.games.logos.commitments import commitment_of
from adjudicator.games.logos.state import Player, State

GAME = registry.get("logos")
POOL = load_pool("sample")
A, B = "ann", "ben"
NS = "logos/"


def setup(decks: dict[str, dict[str, int] | list[str]] | None = None, *, options: dict[str, Any] | None = None,
          ruleset: str = "standard", players: list[str] | None = None) -> E.MatchStarted:
    """A MatchStarted; a deck given as a list counts each entry once (repeat ids for copies)."""
    players = players or [A, B]
    lists: dict[str, dict[str, int]] = {}
    default = {"iron-golem": 4, "storm-coil": 4, "quiet-index": 4, "white-wall": 4}
    for p in players:
        given = (decks or {}).get(p)
        if given is None:
            lists[p] = dict(default)
        elif isinstance(given, dict):
            lists[p] = dict(given)
        else:
            d: dict[str, int] = {}
            for c in given:
                d[c] = d.get(c, 0) + 1
            lists[p] = d
    return E.MatchStarted(game="logos", players=players, decks=lists, ruleset=ruleset, options=options or {})


def encode(events: Iterable[Event]) -> bytes:
    enc = msgspec.json.Encoder()
    return b"".join(enc.encode(e) + b"\n" for e in events)


def verify_events(events: Iterable[Event]) -> Any:
    return run(parse_log(encode(events)))


def salt(player: str, round_no: int) -> str:
    return f"secret-{player}-{round_no}"


class StepFailed(AssertionError):
    pass


class Script:
    def __init__(self, decks: Any = None, *, options: dict[str, Any] | None = None, ruleset: str = "standard",
                 match: E.MatchStarted | None = None, players: list[str] | None = None) -> None:
        self.game = GAME
        self.setup = match or setup(decks, options=options, ruleset=ruleset, players=players)
        st, ruling, derived = start(GAME, self.setup)
        self._state: State = st
        self.log: list[tuple[Event, list[Event]]] = [(self.setup, derived)]
        self.rulings: list[Ruling] = [ruling]

    # -- core ------------------------------------------------------------------------------------
    def state(self) -> State:
        return self._state

    @property
    def s(self) -> State:
        return self._state

    def events(self) -> list[Event]:
        return [e for e, _ in self.log]

    def derived(self) -> list[Event]:
        return [d for _, ds in self.log for d in ds]

    def last_derived(self) -> list[Event]:
        return self.log[-1][1]

    def all_events(self) -> list[Event]:
        out: list[Event] = []
        for e, ds in self.log:
            out.append(e)
            out.extend(ds)
        return out

    def lines(self, with_derived: bool = False) -> bytes:
        return encode(self.all_events() if with_derived else self.events())

    def verify(self, with_derived: bool = False) -> Any:
        return run(parse_log(self.lines(with_derived)))

    def check(self, event: Event) -> Ruling:
        return propose(GAME, self._state, event)[0]

    def add(self, event: Event, note: str | None = None) -> Ruling:
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
        if note is not None:
            event = msgspec.structs.replace(event, note=note)
        self.log.append((event, []))

    def copy(self) -> "Script":
        other = object.__new__(Script)
        other.__dict__.update(self.__dict__)
        other.log = list(self.log)
        other.rulings = list(self.rulings)
        return other

    # -- reading -----------------------------------------------------------------------------------
    def player(self, pid: str) -> Player:
        return self._state.player(pid)

    def stats(self, pid: str) -> tuple[str, int, int, int]:
        return GAME.rules.stats(self._state, self.player(pid))

    def hp(self, pid: str) -> int:
        return self.player(pid).hp

    def derived_of(self, kind: type) -> list[Any]:
        return [d for d in self.derived() if type(d) is kind]

    @property
    def hidden(self) -> bool:
        return self._state.options.picks == "commit-reveal"

    # -- steps -------------------------------------------------------------------------------------
    def draw(self, card: str, player: str | None = None) -> Ruling:
        who = player or GAME.rules.refill_next(self._state).id
        return self.add(E.CardDrawn(player=who, card=card))

    def refill(self, cards: dict[str, list[str]] | None = None) -> None:
        """Draw the named cards for each player's empty slots; unnamed draws take the deck's
        first card by id."""
        queue = {p: list(v) for p, v in (cards or {}).items()}
        while self._state.phase == "refill" and self._state.result is None:
            p = GAME.rules.refill_next(self._state)
            if p is None:
                break
            want = queue.get(p.id) or []
            self.draw(want.pop(0) if want else p.deck[0], p.id)

    def assign(self, player: str, card: str) -> Ruling:
        return self.add(E.BackupAssigned(player=player, card=card))

    def commit(self, player: str, card: str) -> Ruling:
        return self.add(E.CardCommitted(player=player, commitment=commitment_of(card, salt(player, self._state.round))))

    def reveal(self, player: str, card: str) -> Ruling:
        return self.add(E.PickRevealed(player=player, card=card, salt=salt(player, self._state.round)))

    def pick(self, player: str, card: str) -> Ruling:
        if self.hidden:
            return self.commit(player, card)
        return self.add(E.CardPicked(player=player, card=card))

    def play(self, a: str | None, b: str | None, *, passes: bool = True) -> None:
        """Both players send a card (None: that player is defenseless); then pass every window."""
        picks = [(A, a), (B, b)]
        for p, c in picks:
            if c is not None:
                self.pick(p, c)
        if self.hidden:
            for p, c in picks:
                if c is not None:
                    self.reveal(p, c)
        if passes:
            self.battle()

    def window(self) -> str | None:
        st = self._state
        return st.priority if st.phase == "battle" and st.step == "backup" else None

    def call(self, player: str | None = None) -> Ruling:
        return self.add(E.BackupCalled(player=player or self.window()))

    def pass_(self, player: str | None = None) -> Ruling:
        return self.add(E.BackupPassed(player=player or self.window()))

    def battle(self) -> None:
        while self.window() is not None:
            self.pass_()

    def round(self, a: str | None, b: str | None, draws: dict[str, list[str]] | None = None) -> None:
        """Refill (named draws), then play ``a`` against ``b``."""
        self.refill(draws)
        self.play(a, b)


def clear_pool_caches() -> None:
    """Empty the rules' caches of pool lookups (they key by the loaded pool object, never by a
    pool's id, so this only frees memory between tests that load many pools)."""
    from adjudicator.games.logos import values

    values.card_stats.cache_clear()
    values.playable_card.cache_clear()
