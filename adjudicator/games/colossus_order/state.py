"""The Colossus Order position: immutable msgspec Structs (a position document round-trips).

What must happen next is an explicit queue of *tasks* (``State.todo``): a draw owed, a block
decision, an X-play window, the chain to resolve, the battle, the end of the turn.  The head of the
queue says who must act (or that the engine derives the next event); an empty queue in the main
phase is the turn player's open timing.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from adjudicator.core.kernel.commitments import Committed
from adjudicator.core.kernel.kit import ChooseFirst, EndTurn, Result, StartTurn, Task, TwoSeats  # noqa: F401 (the kit's, this game's)

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
    #: CO-35: the cards returned in the opening exchange are known as a set at the bottom of the
    #: deck (their order unknown), or in the order the log lists them
    returned_order: Literal["unknown", "as-listed"] = "unknown"
    #: CO-37: an Attack or Defence set to a value is the base that boosts and auras add to
    #: (``set-then-modify``), or it also cancels the boosts received before it (``latest-wins``)
    stat_setting: Literal["set-then-modify", "latest-wins"] = "set-then-modify"


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
    #: until end of turn: Attack / Defence set to a value (CO-37), None: not set
    set_attack: int | None = None
    set_defence: int | None = None


class LocusSlot(msgspec.Struct, frozen=True, gc=False):
    id: int
    card: str | None
    face_up: bool = False
    #: known to the opponent (revealed by a failed Complete Declaration)
    known: bool = False


class Player(msgspec.Struct, frozen=True, gc=False):
    """One seat.  The deck, from the top (CO-36): ``deck_known`` (cards known to both players, in
    order), ``deck_peek`` (cards one player looked at, in order, CO-42), ``deck_top`` (the part whose order nobody knows), ``deck_bottom`` (the cards returned
    in the opening exchange, known to their owner: a sorted set, or in the listed order with
    ``returned_order = "as-listed"``), ``deck_under`` (cards put on the bottom by effects, known
    to both, in order)."""

    id: str
    colossus: str
    #: the part of the deck whose order nobody knows (a sorted multiset)
    deck_top: tuple[str, ...] = ()
    #: the cards returned to the bottom in the opening exchange (first = nearest the top)
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
    #: the cards known to be on top of the deck, top first (revealed and left there, put there)
    deck_known: tuple[str, ...] = ()
    #: for each card of ``deck_known``: how it became known ("revealed by X on turn 5")
    known_why: tuple[str, ...] = ()
    #: cards put on the bottom by effects, below everything else, top first (known to both)
    deck_under: tuple[str, ...] = ()
    #: CO-42: the top cards of the deck one player looked at and put back, in that order (below
    #: ``deck_known``); known to ``peek_by`` alone
    deck_peek: tuple[str, ...] = ()
    peek_by: str | None = None
    #: CO-39: the identities the player's unknown cards (``"?"`` in deck, hand, Locus) can still be,
    #: a sorted multiset (empty while every card is known: the full-information path never reads it)
    unseen: tuple[str, ...] = ()
    #: CO-42.3: the top cards of the deck put back by a look whose new order this record does not
    #: know (the opponent's own look): which cards they are, as far as known (``"?"`` the others),
    #: a sorted multiset, below ``deck_known``, above ``deck_peek`` (empty in a full log)
    deck_mixed: tuple[str, ...] = ()
    #: CO-39.8: the cards the hand's unknown ones are among, once an unknown card left a hand that
    #: held known ones (a sorted multiset, ``"?"``: any card of ``unseen``; empty: no limit)
    hand_could: tuple[str, ...] = ()
    #: CO-42.3: the cards the unknown ones of ``deck_mixed`` are among, once a card of that set was
    #: taken unnamed while the set held named ones (the opponent's draw of one of them: a sorted
    #: multiset, ``"?"``: any card of ``unseen``; empty: no limit beyond ``unseen``)
    mixed_could: tuple[str, ...] = ()

    @property
    def deck_count(self) -> int:
        return (len(self.deck_known) + len(self.deck_mixed) + len(self.deck_peek) + len(self.deck_top) + len(self.deck_bottom)
                + len(self.deck_under))


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


class RevealTop(Task, tag="reveal-top"):
    """An effect reveals the top ``count`` cards of ``player``'s deck; ``done`` are revealed."""

    player: str
    count: int
    source: str = ""
    done: int = 0


class Mill(Task, tag="mill"):
    """An effect puts the top ``count`` cards of ``player``'s deck into the discard pile."""

    player: str
    count: int
    source: str = ""


class UnknownLocusHit(Task, tag="unknown-locus-hit"):
    """CO-39.5: an attack hit a Locus card the record does not name.  The record's next event
    decides: the owner's CardDrawn (a Gem was captured: CO-7.8) or anything else (not a Gem)."""

    player: str
    attacker: str
    slot: int


class Declare(Task, tag="declare"):
    """A card with text the engine does not model resolved: its effect must be declared."""

    player: str
    card: str


class Look(Task, tag="look"):
    """CO-41/CO-42: ``player`` looks at ``owner``'s hand (``zone = "hand"``) or the top ``count``
    cards of ``owner``'s deck (``zone = "deck-top"``), by the effect of ``source``."""

    player: str
    owner: str
    zone: str
    count: int = 0
    source: str = ""


class Reorder(Task, tag="reorder"):
    """CO-42: ``player`` puts the cards it looked at back on top of ``owner``'s deck, in any order."""

    player: str
    owner: str
    count: int
    source: str = ""
    #: the record named the cards looked at (else it saw a look, not the cards: CO-42.3)
    seen: bool = True


class ToLocus(Task, tag="to-locus"):
    """CO-43: the top ``count`` cards of ``player``'s deck go into the Locus face down."""

    player: str
    count: int
    source: str = ""


class MoveCards(Task, tag="move-cards"):
    """CO-46: up to ``count`` of ``player``'s cards go from ``from_zone`` to ``to_zone`` (a card's
    ``move`` effect): seen by ``seen_by`` (``owner`` or ``both``), each passing ``only`` (kind,
    colour, card id; empty: any); ``slots``: the Locus slots the cards go into (a swap's emptied
    slots), else new ones."""

    player: str
    from_zone: str
    to_zone: str
    count: int
    seen_by: str = "owner"
    only: tuple[str | None, str | None, str | None] = (None, None, None)
    slots: tuple[int, ...] | None = None
    #: fill the slots the move before it emptied (``slot = "emptied"``)
    emptied: bool = False
    source: str = ""


class Flipped(Task, tag="flipped"):
    """CO-8.7: ``player``'s Locus slot ``slot`` was turned face up by an effect: what it shows follows."""

    player: str
    slot: int


AnyTask = MoveCards | Flipped | Shuffle | ChooseFirst | Draw | Mulligan | StartTurn | RevealLocus | DiscardDeclared | Block | Window | Resolve | Battle | Reveal | Capture | ReplaceLocus | RevealTop | Mill | Declare | EndTurn | UnknownLocusHit | Look | Reorder | ToLocus


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
    #: CO-40: commitments held by hidden card fields and not opened yet, oldest first
    commitments: tuple[Committed, ...] = ()
    #: CO-39: the conditions of undetermined events that later events have not settled yet, oldest
    #: first (``Game.open_conditions``; always empty in a full-information log)
    conditions: tuple[str, ...] = ()


#: the fields of a position (the working position's first fields, in this order)
STATE_FIELDS = State.__struct_fields__

#: the verifier's working position (:mod:`.working`): the fields of :class:`State`, settable
#: (:func:`~.positions.put`), with the seats' lookups of a position, and ``pool``: the pool the
#: set-up names in the data sources in effect, found once per verification (:func:`~.unknowns.s_pool`
#: reads it instead of asking the sources on every call).  Never decoded or encoded.
Position = msgspec.defstruct(
    "Position", [*((f, Any) for f in STATE_FIELDS), ("pool", Any)], module=__name__, gc=False,
    namespace={"player": TwoSeats.player, "opponent": TwoSeats.opponent, "other": TwoSeats.other})
