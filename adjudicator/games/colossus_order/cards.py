"""Colossus Order cards as data: the card model, the effect vocabulary, and pool loading.

A card pool is a TOML file in ``data/`` (``[[card]]`` tables) decoded with msgspec into
:class:`Card` values; a malformed pool fails with the file and the card id/field at fault.
Card text is restated in the pool's own words (``text``) and modelled by ``abilities``/``effects``
built from a small vocabulary (the ``do`` tag).  A card whose text the vocabulary cannot express
has ``modelled = false``: it can still be played, its costs are checked, and its effect is logged
as an ``EffectDeclared`` event that verdicts mark as not engine-checked.
"""

from __future__ import annotations

from pathlib import Path
from collections.abc import Iterator
from typing import Any, Literal, Union

import msgspec

from adjudicator.core.kernel.data import Pool, PoolLoader  # noqa: F401 (Pool: this game's pools)

DATA = Path(__file__).parent / "data"

Colour = Literal["white", "black", "blue", "red"]
COLOURS: tuple[str, ...] = ("white", "black", "blue", "red")
CardType = Literal["follower", "follower-unique", "action", "action-snap", "colossus", "gem"]

#: who an effect acts on.  ``chosen-*`` take the next entry of the event's ``targets`` list.
Target = Literal[
    "self",                    # the follower whose ability this is
    "chosen-follower",         # any follower on the field (either player's)
    "chosen-opponent-follower",
    "chosen-own-follower",
    "attacker",                # the attacking follower of the pending attack
    "opponent-attacker",       # the attacking follower, only when it is the opponent's (a response)
    "all-opponent-followers",
    "all-own-followers",
]
CHOSEN_TARGETS = ("chosen-follower", "chosen-opponent-follower", "chosen-own-follower")
ATTACKER_TARGETS = ("attacker", "opponent-attacker")
#: which Locus slots a ``flip-locus`` effect may choose (the next entry of ``targets``: ``L<slot id>``;
#: slot ids are per player, so the kind says whose)
LocusTarget = Literal["chosen-own-locus", "chosen-opponent-locus"]
LOCUS_TARGETS = ("chosen-own-locus", "chosen-opponent-locus")


class Only(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Conditions a targeted follower must meet (CO-6.5): checked when the card or ability is
    played and again when it resolves (a target that no longer meets them is skipped)."""

    #: current Attack / Defence at most this
    max_attack: int | None = None
    max_defence: int | None = None
    #: printed Locus cost at most this
    max_locus_cost: int | None = None
    #: has this race
    race: str | None = None


class _Effect(msgspec.Struct, tag_field="do", frozen=True, forbid_unknown_fields=True):
    pass


class Draw(_Effect, tag="draw"):
    """The controller (``who=self``) or the opponent draws ``count`` cards."""

    count: int = 1
    who: Literal["self", "opponent"] = "self"


class Damage(_Effect, tag="damage"):
    """Put ``amount`` damage on the target follower(s) until end of turn."""

    amount: int
    target: Target = "chosen-opponent-follower"
    only: Only | None = None


class Destroy(_Effect, tag="destroy"):
    """Send the target follower(s) to their owner's discard pile."""

    target: Target = "chosen-opponent-follower"
    only: Only | None = None


class Switch(_Effect, tag="switch"):
    """Switch the target follower(s) ON (stand) or OFF (tap)."""

    to: Literal["on", "off"]
    target: Target = "chosen-follower"
    only: Only | None = None


class Boost(_Effect, tag="boost"):
    """Change attack/defence/crush/capture of the target follower(s) until end of turn."""

    attack: int = 0
    defence: int = 0
    crush: int = 0
    capture: int = 0
    target: Target = "self"
    only: Only | None = None


class ReturnToHand(_Effect, tag="return-to-hand"):
    """Return the target follower(s) to their owner's hand."""

    target: Target = "chosen-opponent-follower"
    only: Only | None = None


class RecoverLocus(_Effect, tag="recover-locus"):
    """Move the controller's locus counter back by ``amount`` points (never below 0)."""

    amount: int = 1


class CostChange(_Effect, tag="cost-change"):
    """Continuous: followers of the controller (of ``race`` if given) cost ``delta`` locus."""

    delta: int
    race: str | None = None


class Aura(_Effect, tag="aura"):
    """Continuous: the controller's other followers (of ``race`` if given) get these stats."""

    attack: int = 0
    defence: int = 0
    crush: int = 0
    capture: int = 0
    race: str | None = None


class RevealTop(_Effect, tag="reveal-top"):
    """Reveal the top ``count`` cards of the controller's (or the opponent's) deck: they stay on
    top, in order, known to both players (CO-8.6, CO-36)."""

    count: int = 1
    who: Literal["self", "opponent"] = "self"


class Mill(_Effect, tag="mill"):
    """Put the top ``count`` cards of the controller's (or the opponent's) deck into its owner's
    discard pile (CO-8.8)."""

    count: int = 1
    who: Literal["self", "opponent"] = "opponent"


class SetStats(_Effect, tag="set-stats"):
    """Set the target follower's Attack and/or Defence to a value until end of turn (CO-8.9,
    CO-37 for the order against boosts, auras and damage)."""

    attack: int | None = None
    defence: int | None = None
    target: Target = "chosen-opponent-follower"
    only: Only | None = None


class ToDeck(_Effect, tag="to-deck"):
    """Put the target follower(s) on top of (or at the bottom of) its owner's deck, known to both
    players there (CO-36)."""

    where: Literal["top", "bottom"] = "bottom"
    target: Target = "chosen-opponent-follower"
    only: Only | None = None


class FlipLocus(_Effect, tag="flip-locus"):
    """Turn the chosen Locus card face up or face down; it stays so (CO-8.7, CO-38)."""

    to: Literal["up", "down"]
    target: LocusTarget = "chosen-opponent-locus"


class LookHand(_Effect, tag="look-hand"):
    """The controller looks at the opponent's hand: a ``CardsLooked`` naming every card, seen by
    the controller alone (CO-41)."""


#: the most cards one look at the top of a deck (or one move of its top into the Locus) may show
#: (the candidates list every order: 5 cards, 120 orders)
MAX_LOOK = 5


class LookTop(_Effect, tag="look-top"):
    """The controller looks at the top ``count`` cards of its own (or the opponent's) deck and puts
    them back in any order: a ``CardsLooked`` then a ``CardsReordered``, seen by the controller
    alone; the deck's top is then known to it in that order (CO-42)."""

    count: int = 1
    who: Literal["self", "opponent"] = "self"


class ToLocus(_Effect, tag="deck-to-locus"):
    """The top ``count`` cards of the controller's deck go into its Locus face down, each a new
    slot, seen by the controller alone: a ``CardsMoved`` from ``deck`` to ``locus`` (CO-43)."""

    count: int = 1


#: the zones a ``move`` takes cards from and puts them in (CO-46)
FromZone = Literal["hand", "locus-down", "deck-top", "discard"]
ToZone = Literal["hand", "deck-top", "deck-bottom", "locus-down", "locus-up", "discard"]
#: the destinations every seat sees a card arrive in: a move there is seen by both (CO-46)
PUBLIC_ZONES = ("deck-top", "deck-bottom", "locus-up", "discard")
#: the sources every seat sees: a card taken from the (face-up) discard pile is seen by both (CO-46)
PUBLIC_SOURCES = ("discard",)
#: the most cards one ``move`` may take
MAX_MOVE = 10


class CardFilter(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a moved card must be (CO-46): its kind (``gem``, ``follower``, ``action``), colour, or
    card id; every condition given must hold."""

    kind: Literal["gem", "follower", "action"] | None = None
    colour: Colour | None = None
    card: str | None = None


class Move(_Effect, tag="move"):
    """Up to ``count`` of the controller's cards go from zone ``from`` to zone ``to`` (CO-46): a
    ``CardsMoved`` by the controller.  From the hand, the face-down Locus or the discard pile the
    controller chooses which (up to ``count``, as many as there are); from the top of the deck the top ``count`` go,
    in order.  Into the Locus each card takes a new slot (``slot = "new"``) or, after a move out of
    the Locus in the same resolution, the slots that move emptied (``slot = "emptied"``: a swap).
    ``seen_by``: who sees the cards (``owner``, or ``both``: shown; a move to a zone everyone sees
    is shown, and so is a card taken from the face-up discard pile).  ``only``: a filter every moved
    card must pass."""

    to: ToZone
    from_: FromZone = msgspec.field(name="from", default="hand")
    count: int = 1
    seen_by: Literal["owner", "both"] = "owner"
    only: CardFilter | None = None
    slot: Literal["new", "emptied"] = "new"


class LookLocus(_Effect, tag="look-locus"):
    """The controller looks at up to ``count`` of the opponent's face-down Locus cards of its
    choice, privately: a ``CardsLooked`` with ``zone = "locus"`` and the ``slots`` (CO-47).  The
    looker then knows them (as after a failed Complete Declaration)."""

    count: int = 1


Effect = Union[Draw, Damage, Destroy, Switch, Boost, ReturnToHand, RecoverLocus, CostChange, Aura,
               RevealTop, Mill, SetStats, FlipLocus, ToDeck, LookHand, LookTop, ToLocus, Move, LookLocus]
CONTINUOUS_EFFECTS = (CostChange, Aura)


class Cost(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What an activated ability costs: switching the follower OFF and/or locus points."""

    off: bool = False
    locus: int = 0


class Ability(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A follower ability.  ``cip``: mandatory when it enters; ``activated``: used by its
    controller at open timing or in X-play; ``continuous``: always on while it is on the field."""

    timing: Literal["cip", "activated", "continuous"]
    effects: list[Effect] = []
    cost: Cost = Cost()
    text: str = ""


class ColossusAbility(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Colossus ability: once per turn, own main phase at open timing, needs set gems."""

    requires: dict[str, int] = {}
    cost: Cost = Cost()
    effects: list[Effect] = []
    text: str = ""


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    type: CardType
    colour: Colour | None = None
    locus_cost: int = 0
    #: required Colossus gems by colour, plus ``any`` for gems of any colour
    gem_level: dict[str, int] = {}
    races: list[str] = []
    attribute: str | None = None
    attack: int = 0
    defence: int = 0
    crush: int = 0
    capture: int = 0
    #: Unique Gem (one of a name on a player's field; ★name★)
    unique: bool = False
    rarity: Literal["C", "U", "R", "SR"] = "C"
    abilities: list[Ability] = []
    #: effects of an Action card, resolved in order
    effects: list[Effect] = []
    #: Colossus abilities
    colossus_abilities: list[ColossusAbility] = []
    text: str = ""
    #: False: the engine cannot model this text; its effect is logged as EffectDeclared
    modelled: bool = True

    @property
    def is_follower(self) -> bool:
        return self.type in ("follower", "follower-unique")

    @property
    def is_action(self) -> bool:
        return self.type in ("action", "action-snap")

    @property
    def is_gem(self) -> bool:
        return self.type == "gem"

    def needs_targets(self) -> int:
        return sum(1 for e in self.effects if getattr(e, "target", None) in CHOSEN_TARGETS + LOCUS_TARGETS)


def pool_problems(cards: list[Card]) -> Iterator[tuple[str, str, str]]:
    """Every problem of the decoded ``cards`` beyond their types: ``(card id, field, message)``
    (loading refuses the first; ``adjudicator pool check`` reports them all)."""
    for c in cards:
        for problem in _card_problems(c):
            yield (c.id, *problem)


def _card_problems(c: Card) -> Iterator[tuple[str, str]]:
    for colour in c.gem_level:
        if colour not in COLOURS and colour != "any":
            yield "gem_level", f"unknown colour {colour!r}"
    if c.is_gem and c.colour is None:
        yield "colour", "a gem card needs a colour"
    if c.type == "colossus" and (c.locus_cost or c.gem_level):
        yield "type", "a Colossus has no cost"
    for i, a in enumerate(c.colossus_abilities):
        for colour in a.requires:
            if colour not in COLOURS and colour != "any":
                yield f"colossus_abilities[{i}].requires", f"unknown colour {colour!r}"
    for n in ("locus_cost", "attack", "defence", "crush", "capture"):
        if getattr(c, n) < 0:
            yield n, "must not be negative"
    if c.type != "gem" and c.unique:
        yield "unique", "only Gem cards are Unique Gems (a Follower Unique is its own type)"
    if c.type != "gem" and c.type != "colossus" and c.colour is None:
        yield "colour", "every card but a Gem-less Colossus has a colour"
    for colour, n in c.gem_level.items():
        if n < 0:
            yield f"gem_level.{colour}", "must not be negative"
    if c.is_follower and c.defence <= 0:
        yield "defence", "a Follower needs a Defence of at least 1 (at 0 it could never stay on the field)"
    if c.abilities and not c.is_follower:
        yield "abilities", "only followers have abilities (Actions use effects, a Colossus colossus_abilities)"
    for i, a in enumerate(c.abilities):
        yield from _effect_problems(f"abilities[{i}]", a.effects, continuous=a.timing == "continuous")
        if a.cost.locus < 0:
            yield f"abilities[{i}].cost.locus", "must not be negative"
        if a.timing == "activated" and not a.cost.off and a.cost.locus == 0:
            yield f"abilities[{i}].cost", "an activated ability needs a cost (off or locus), or it could be used without end"
    yield from _effect_problems("effects", c.effects, continuous=False, nested=False)
    if c.effects and not c.is_action:
        yield "effects", "only Action cards have effects"
    for i, a in enumerate(c.colossus_abilities):
        yield from _effect_problems(f"colossus_abilities[{i}]", a.effects, continuous=False)
        if a.cost.locus < 0 or any(n < 0 for n in a.requires.values()):
            yield f"colossus_abilities[{i}]", "requirements and costs must not be negative"


def _effect_problems(where: str, effects: list[Any], *, continuous: bool, nested: bool = True) -> Iterator[tuple[str, str]]:
    base = f"{where}.effects" if nested else where
    for j, fx in enumerate(effects):
        is_static = isinstance(fx, CONTINUOUS_EFFECTS)
        if is_static != continuous:
            yield f"{base}[{j}]", ("a continuous ability holds only cost-change and aura" if continuous else
                                   "cost-change and aura belong in continuous abilities")
        for n in ("amount", "count"):
            if getattr(fx, n, 0) < 0:
                yield f"{base}[{j}].{n}", "must not be negative"
        if isinstance(fx, (LookTop, ToLocus)) and not 1 <= fx.count <= MAX_LOOK:
            yield f"{base}[{j}].count", f"1 to {MAX_LOOK} cards"
        if isinstance(fx, Move):
            yield from _move_problems(f"{base}[{j}]", fx, effects[:j])
        if isinstance(fx, LookLocus) and not 1 <= fx.count <= MAX_MOVE:
            yield f"{base}[{j}].count", f"1 to {MAX_MOVE} cards"
        if isinstance(fx, SetStats):
            if fx.attack is None and fx.defence is None:
                yield f"{base}[{j}]", "set-stats sets attack, defence or both"
            if (fx.attack or 0) < 0 or (fx.defence or 0) < 0:
                yield f"{base}[{j}]", "set-stats values must not be negative"


def _move_problems(where: str, fx: Move, before: list[Any]) -> Iterator[tuple[str, str]]:
    """CO-46: what a ``move`` cannot say."""
    if not 1 <= fx.count <= MAX_MOVE:
        yield f"{where}.count", f"1 to {MAX_MOVE} cards"
    if fx.from_ == fx.to:
        yield f"{where}.to", "a move goes to another zone"
    if fx.to in PUBLIC_ZONES and fx.seen_by != "both":
        yield f"{where}.seen_by", f"a card put into {fx.to} is seen by both (seen_by = \"both\")"
    if fx.from_ in PUBLIC_SOURCES and fx.seen_by != "both":  # (the pile is face up: the card stays known to both)
        yield f"{where}.seen_by", f"a card taken from the {fx.from_} pile, face up, is seen by both (seen_by = \"both\")"
    if fx.slot == "emptied" and (not fx.to.startswith("locus") or not any(
            isinstance(b, Move) and b.from_ == "locus-down" for b in before)):
        yield f"{where}.slot", "\"emptied\" fills the Locus slots an earlier move of the same card emptied"


POOLS: PoolLoader[Card] = PoolLoader(DATA, Card, problems=pool_problems)
#: a pool file by path; a pool shipped in ``data/`` by name (``sample``: the authored sample pool)
load_pool_file = POOLS.load_file
load_pool = POOLS.load


def card_info(card: Card) -> dict[str, Any]:
    """What a viewer or ``pool show`` tells of ``card``: id, name, text and short facts."""
    facts = [card.type, *([card.colour] if card.colour else [])]
    if card.locus_cost:
        facts.append(f"locus {card.locus_cost}")
    if card.gem_level:
        facts.append("gems " + " ".join(f"{k} {n}" for k, n in card.gem_level.items()))
    if card.is_follower:
        facts.append(f"{card.attack}/{card.defence}")
        facts += [f"{n} {getattr(card, n)}" for n in ("crush", "capture") if getattr(card, n)]
    if card.races:
        facts.append(", ".join(card.races))
    if card.unique:
        facts.append("unique")
    if not card.modelled:
        facts.append("declared effect")
    return {"id": card.id, "name": card.name, "text": card.text, "facts": facts}
