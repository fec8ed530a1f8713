"""The Colossus Order position: immutable msgspec Structs (a position document round-trips).

What must happen next is an explicit queue of *tasks* (``State.todo``): a draw owed, a block
decision, an X-play window, the chain to resolve, the battle, the end of the turn.  The head of the
queue says who must act (or that the engine derives the next event); an empty queue in the main
phase is the turn player's open timing.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from adjudicator.core.kit import ChooseFirst, EndTurn, Result, StartTurn, Task, TwoSeats  # noqa: F401 (the kit's, this game's)

from .events import MatchStarted


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Ruleset options (docs/rules/colossus-order.md names the gap each one settles)."""

    #: CO-1: cards the first / second player may return in the opening exchange
    mulligan_first: int = 2
    mulligan_second: int = 4
    #: CO-3: deck construction checks: strict (all) or off
    deck_validation: Literal["strict", "off"] = "strict"
    #: CO-6: which gems count toward a card's Gem Level
    gem_level_scope: Literal["colossus-gems", "set-only"] = "colossus-gems"
    #: CO-7: which gems count toward a Colossus ability's requirement
    colossus_ability_scope: Literal["set-only", "colossus-gems"] = "set-only"
    #: CO-10: declaring an attack switches the attacker OFF
    attack_taps_attacker: bool = True
    #: CO-13: a blocker also deals its Attack to the attacker
    mutual_battle_damage: bool = False
    #: CO-14: a follower is destroyed when damage >= Defence, or only when damage > Defence
    destroy_when: Literal["damage-ge-defence", "damage-gt-defence"] = "damage-ge-defence"
    #: CO-15: an attack whose attacker left the field before resolution does nothing
    attack_needs_attacker: bool = True
    #: CO-22: who picks the 2 cards discarded after a failed Complete Declaration
    declaration_discard_chooser: Literal["declarer", "opponent"] = "declarer"
    #: CO-23: both decks at 0 at once: a draw (or the turn player loses)
    simultaneous_deckout: Literal["draw", "turn-player-loses"] = "draw"
    #: CO-34: most Locus cards a player may have (None: no limit)
    max_locus: int | None = None


PRESETS: dict[str, dict[str, object]] = {
    "2013": {},
    "2014": {"mulligan_first": 3, "mulligan_second": 5},
}


class Follower(msgspec.Struct, frozen=True, gc=False):
    handle: str
    card: str
    on: bool = True
    damage: int = 0
    played_turn: int = 0
    attacked: bool = False
    #: until end of turn: attack, defence, crush, capture
    boost: tuple[int, int, int, int] = (0, 0, 0, 0)


class LocusSlot(msgspec.Struct, frozen=True, gc=False):
    id: int
    card: str | None
    face_up: bool = False
    #: known to the opponent (revealed by a failed Complete Declaration)
    known: bool = False


class Player(msgspec.Struct, frozen=True, gc=False):
    id: str
    colossus: str
    #: the part of the deck whose order nobody knows (a sorted multiset)
    deck_top: tuple[str, ...] = ()
    #: cards put on the bottom in a known order (first = nearest the top)
    deck_bottom: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    set_gems: tuple[str, ...] = ()
    captured: tuple[str, ...] = ()
    locus: tuple[LocusSlot, ...] = ()
    locus_used: int = 0
    next_slot: int = 1
    field: tuple[Follower, ...] = ()
    gem_set: bool = False
    locus_set: bool = False
    colossus_used: tuple[int, ...] = ()
    #: cards revealed from the top of the deck by a deck hit, still counted in the deck
    revealed: tuple[str, ...] = ()
    shuffled: bool = False

    @property
    def deck_count(self) -> int:
        return len(self.deck_top) + len(self.deck_bottom)


# -- tasks: what must happen next ---------------------------------------------------------------

class Shuffle(Task, tag="shuffle"):
    player: str


class Draw(Task, tag="draw"):
    player: str
    count: int
    reason: str = "effect"


class Mulligan(Task, tag="mulligan"):
    player: str


class RevealLocus(Task, tag="reveal-locus"):
    player: str
    slots: tuple[int, ...]


class DiscardDeclared(Task, tag="discard-declared"):
    chooser: str
    owner: str
    slots: tuple[int, ...]


class Block(Task, tag="block"):
    player: str


class Window(Task, tag="window"):
    #: who may add to the chain or pass now
    priority: str
    passes: int = 0


class Resolve(Task, tag="resolve"):
    pass


class Battle(Task, tag="battle"):
    pass


class Reveal(Task, tag="reveal"):
    player: str
    count: int


class Capture(Task, tag="capture"):
    player: str
    owner: str
    limit: int


class ReplaceLocus(Task, tag="replace-locus"):
    player: str
    slot: int
    #: where the slot stood in the Locus row (the replacement goes back there)
    index: int = 0


class Declare(Task, tag="declare"):
    """A card with text the engine does not model resolved: its effect must be declared."""

    player: str
    card: str


AnyTask = Shuffle | ChooseFirst | Draw | Mulligan | StartTurn | RevealLocus | DiscardDeclared | Block | Window | Resolve | Battle | Reveal | Capture | ReplaceLocus | Declare | EndTurn


class ChainItem(msgspec.Struct, frozen=True, gc=False):
    player: str
    kind: Literal["follower", "action", "ability"]
    card: str
    targets: tuple[str, ...] = ()
    source: str | None = None
    ability: int = 0


class Attack(msgspec.Struct, frozen=True, gc=False):
    player: str
    attacker: str
    target: Literal["deck", "locus", "follower"]
    slot: int | None = None
    follower: str | None = None
    blocker: str | None = None
    defended: bool = False
    #: the attacker's card, so its printed stats still count if it left the field (CO-15 off)
    card: str | None = None


class State(TwoSeats, frozen=True, gc=False):
    setup: MatchStarted
    options: Options
    players: tuple[Player, ...]
    phase: Literal["setup", "start", "main", "end", "over"] = "setup"
    turn: int = 0
    turn_player: str | None = None
    first: str | None = None
    todo: tuple[AnyTask, ...] = ()
    chain: tuple[ChainItem, ...] = ()
    attack: Attack | None = None
    next_handle: int = 1
    result: Result | None = None
    #: Complete Declaration is still possible this turn (start phase, before the draw)
    declaration_open: bool = False
    pending_ends: tuple[Result, ...] = ()
