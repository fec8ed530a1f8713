"""The LOGOS position: immutable msgspec Structs (a judge's view round-trips through
``msgspec.to_builtins`` / ``msgspec.convert``).

A round moves through phases: ``refill`` (empty card slots take cards from the decks, first
player first), ``pick`` (Phase 1: Backup assignments and picks or commitments; defenseless
players are marked by the engine), ``reveal`` (hidden picks opened), ``battle`` (Phase 2, in
``step``s: ``direction``, ``effects``, ``after-effects``, ``backup``, ``strike``, ``push``), then
``RoundEnded`` starts the next round.  ``over`` once the match has ended.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from adjudicator.core.kernel.kit import Result, TwoSeats  # noqa: F401 (the kit's, this game's)

from .events import MatchStarted


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Ruleset options (docs/rules/logos.md names the gap each one settles)."""

    #: LG-1: hit points each player starts with
    start_hp: int = 100_000
    #: LG-2: card slots each player starts with
    start_slots: int = 3
    #: LG-2: fewest card slots Remove Card Slot can leave
    min_slots: int = 1
    #: LG-2: most card slots Add Card Slot can give
    max_slots: int = 6
    #: LG-3: exact deck size required (None: any size)
    deck_size: int | None = None
    #: LG-3: most copies of one card in a deck (None: no limit)
    max_copies: int | None = None
    #: LG-4: an empty deck that must give a card takes the discard pile, or the slot stays empty
    on_empty_deck: Literal["reshuffle-discard", "stay-empty"] = "reshuffle-discard"
    #: LG-6: hidden picks as commitment and reveal, or picks named openly in one event
    picks: Literal["commit-reveal", "open"] = "commit-reveal"
    #: LG-7: one combo counter per player (fed by that player's cards) or one shared counter
    combo_counter: Literal["per-player", "shared"] = "per-player"
    #: LG-9: a Deadlock still pushes the battle cards' colours
    push_on_deadlock: bool = False
    #: LG-11: whose effects fire first
    effect_order: Literal["defender-first", "attacker-first"] = "defender-first"
    #: LG-11: which field of a card fires first
    field_order: Literal["left-then-right", "right-then-left"] = "left-then-right"
    #: LG-12: a Deadlock found before the effects ends the round at once (no effects)
    deadlock_before_effects: bool = True
    #: LG-13: most counter-attacks in one round
    max_counters: int = 1
    #: LG-15: the Defense a defenseless player opposes to a strike
    defenseless_defense: int = 0
    #: LG-17: who is asked first in the Backup window
    backup_call_order: Literal["defender-first", "attacker-first"] = "defender-first"
    #: LG-19: Regeneration heals up to the starting hit points, or without a cap
    hp_cap: Literal["start-hp", "none"] = "start-hp"
    #: LG-20: where Shuffle Hand puts the dumped cards
    shuffle_hand_to: Literal["discard", "deck"] = "discard"
    #: LG-23: whom a copied effect targets: as Mimmick's own field says, or as the copied field says
    mimmick_target: Literal["by-mimmick-field", "by-source-field"] = "by-mimmick-field"
    #: LG-28: a resignation ends the match as a draw, or as a win for the opponent
    resign_result: Literal["draw", "opponent-wins"] = "draw"
    #: LG-29: the match is a draw after this many rounds (None: no limit)
    max_rounds: int | None = None
    #: LG-29: the match is a draw after this many rounds in a row in which both players were defenseless
    stall_rounds: int = 3
    #: LG-31: most Life cards a deck may hold, all copies together (None: no limit)
    max_life: int | None = None


PRESETS: dict[str, dict[str, object]] = {
    "standard": {},
    # the Second Life HUD ships 25 demo cards: decks of exactly 25
    "demo": {"deck_size": 25},
}


class Player(msgspec.Struct, frozen=True, gc=False):
    id: str
    hp: int
    #: card slots left to right; None is an empty slot
    slots: tuple[str | None, ...] = ()
    #: the deck as a sorted multiset (its order is unknown to everybody)
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    backup: str | None = None
    #: the player's combo counter, panel 0 = the latest colour; None = an empty panel
    combo: tuple[str | None, str | None, str | None] = (None, None, None)
    #: this round: the commitment (hidden picks), the battle card, whether everybody may see it
    commitment: str | None = None
    battle: str | None = None
    public: bool = False
    defenseless: bool = False
    #: temporary effects on the battle card, in the order they were applied
    #: (``maximize``, ``minimize``, ``swap-values``, ``berserk``, ``color:<class>``)
    mods: tuple[str, ...] = ()
    double_combo: bool = False
    #: Neutralize: shielded for the rest of the round
    shield: bool = False
    #: unknown identities (a seat's record; unknowns.py): "" all known, "list" the deck list is
    #: known but some cards are not, "open" the deck list is unknown
    unknown: Literal["", "list", "open"] = ""
    #: the identities the player's unknown cards can still be, a sorted multiset (when counted)
    unseen: tuple[str, ...] = ()
    #: the deck's size is unknown (an unknown deck list without ``deck_size``)
    deck_open: bool = False


class Pending(msgspec.Struct, frozen=True, gc=False):
    """The condition of an undetermined event of a seat's record, kept until later events settle
    it (LG-37): ``needs`` are the keys of what settles it (pending.settle_keys): ``battle:P:R``,
    P's battle card of round R named (it was playable), ``backup:P``, P's Backup card named (it
    was eligible).  No keys: nothing the record can show settles it (it stays open)."""

    condition: str
    needs: tuple[str, ...] = ()


class EffectItem(msgspec.Struct, frozen=True, gc=False):
    """An effect field waiting to fire: ``player``'s battle card ``card``, its ``field``."""

    player: str
    card: str
    field: Literal["left", "right"]


class Direction(msgspec.Struct, frozen=True, gc=False):
    basis: Literal["class", "speed", "deadlock", "defenseless"]
    attacker: str | None = None
    defender: str | None = None


class Push(msgspec.Struct, frozen=True, gc=False):
    counter: str
    colours: tuple[str, ...]


class Seen(msgspec.Struct, frozen=True, gc=False):
    """What a seat learnt in events a judge took back and cannot unsee (LG-41; observe.py keeps
    it): ``shown``, cards in ``player``'s card slots and Backup Slot that the opponent saw; ``top``,
    cards ``player`` drew and put back, known to it on top of its deck (sorted multisets)."""

    player: str
    shown: tuple[str, ...] = ()
    top: tuple[str, ...] = ()


Phase = Literal["refill", "pick", "reveal", "battle", "over"]
Step = Literal["", "direction", "effects", "after-effects", "backup", "strike", "push", "blind"]


class State(TwoSeats, frozen=True, gc=False):
    setup: MatchStarted
    options: Options
    players: tuple[Player, ...]
    round: int = 1
    phase: Phase = "refill"
    step: Step = ""
    direction: Direction | None = None
    #: effect fields still to fire, in order
    effects: tuple[EffectItem, ...] = ()
    #: the Backup window: who is asked now, who passed since the last call
    priority: str | None = None
    passed: tuple[str, ...] = ()
    #: the strike phase: who strikes next, how many strikes so far this round
    striker: str | None = None
    strikes: int = 0
    #: combo pushes still to make at the end of the round
    pushes: tuple[Push, ...] = ()
    #: the shared counter (``combo_counter = "shared"``)
    shared_combo: tuple[str | None, str | None, str | None] = (None, None, None)
    #: players found without a playable card as Phase 1 began, still to be declared defenseless
    due: tuple[str, ...] = ()
    #: rounds in a row in which both players were defenseless
    stall: int = 0
    result: Result | None = None
    pending_end: Result | None = None
    #: step ``blind`` (a battle card is unknown: the log states what follows): the step it stands
    #: for, ``direction`` or ``called`` (a called Backup card's effects still to queue)
    blind_step: str = ""
    #: some card of the match is unknown (a seat's record): the rules of unknowns.py apply
    unknowns: bool = False
    #: a seat's record that leaves out what an unknown battle card did: the other positions the
    #: match may be in (LG-38), and what this one assumes
    alts: tuple["State", ...] = ()
    assumed: str = ""
    #: the conditions of undetermined events still open (a seat's record, LG-37): a later event
    #: that names the card settles one (dropped if it fits; illegal, naming both events, if not)
    pending: tuple[Pending, ...] = ()
    #: what a seat learnt in events a judge took back (LG-41): empty unless a take-back showed a
    #: seat a card that went back where it cannot see it
    seen: tuple[Seen, ...] = ()
