"""The Colossi position: immutable msgspec Structs (a judge's view round-trips).

What must happen next is an explicit queue of *tasks* (``State.todo``): a draw owed, a choice a
card asks for, the Actions of the turn player, the Banner phase, the end of the turn.  The head of
the queue says who acts (or that the engine derives the next event).  A few tasks are the engine's
own continuations (``Op`` tasks such as scoring a space): they never wait for an event, the engine
runs them as soon as they reach the head.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from adjudicator.core.kernel.kit import ChooseFirst, EndTurn, Result, StartTurn, Task  # noqa: F401 (the kit's, this game's)

from .events import MatchStarted


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Ruleset options (docs/rules/colossi.md names the gap each one settles)."""

    #: CL-1: the island layout, a data file data/board-<name>.json ("hex27" or "square27")
    board: str = "hex27"
    #: CL-3: reaching the Gold target ends the match at once, or after equal turns
    end_mode: Literal["equal-turns", "immediate"] = "equal-turns"
    #: CL-3: a tie on Gold at the end is shared, or goes to whoever reached the target first
    tie: Literal["shared", "first-to-target"] = "shared"
    #: CL-3: the Gold target (generated long matches raise it)
    gold_target: int = 50
    #: CL-5: playing a Colossus card costs an Action
    card_costs_action: bool = True
    #: CL-8: when a newly explored tile gets its Loot cubes
    loot_on_explore: Literal["next-replenish", "immediate"] = "next-replenish"
    #: CL-12: Beasts may enter (and so explore) unexplored spaces
    beasts_enter_unexplored: bool = False
    #: CL-13: every Beast kills the Acolytes on its space
    beast_kills_on_space: bool = False
    #: CL-14: Deploy may also move one's deployed Banners
    deploy_can_move_banners: bool = True
    #: CL-18: when the hand limit is enforced
    hand_limit_timing: Literal["immediate", "end-of-turn"] = "immediate"
    #: CL-19: a player may discard one of their Traits during their Actions
    voluntary_trait_discard: bool = False
    #: CL-20: an empty Colossus card deck is refilled from the discard pile
    reshuffle_discard: bool = True
    #: CL-24: a forced payment larger than the payer's Gold takes what there is, or nothing
    forced_payment: Literal["all-you-have", "nothing"] = "all-you-have"
    #: CL-27: play with Traits (the designer's note leaves them out of a first game)
    use_traits: bool = True
    #: CL-46: the cards discarded from a hand by the hand limit and the Oasis are shown to every seat
    #: (the discard pile face up), or only their owner sees them (the discard pile face down)
    discards_shown: bool = True
    #: CL-23: The Void's new tile comes from the tile deck first (the box when it is empty), or from the box first
    void_tile: Literal["deck-first", "box-first"] = "deck-first"
    #: CL-47: a Trade's "different card" given back is another name, or another copy (the same name)
    trade_different: Literal["name", "copy"] = "name"
    #: CL-48: the Traits a Growth draws are turned up for every seat, or seen by each player as the
    #: pool reaches it (the Growth player first)
    growth_traits: Literal["public", "private"] = "public"


PRESETS: dict[str, dict[str, object]] = {
    "standard": {},
    "first-game": {"use_traits": False},
    "immediate-win": {"end_mode": "immediate"},
}


class Space(msgspec.Struct, frozen=True, gc=False):
    #: the tile id, None while unexplored
    tile: str | None = None
    #: the owner of a Starting Environment
    owner: str | None = None
    gold: int = 0
    blue: int = 0
    green: int = 0
    #: owners of the Colossi here
    colossi: tuple[str, ...] = ()
    #: Acolytes here, per seat (the order of MatchStarted.players)
    acolytes: tuple[int, ...] = ()
    #: owners of the Banners here (two of one owner with Resolute)
    banners: tuple[str, ...] = ()
    beasts: tuple[str, ...] = ()
    #: Deep Mines: how many Rests scored it so far
    mines: int = 0

    @property
    def loot(self) -> int:
        return self.gold + self.blue + self.green


class Player(msgspec.Struct, frozen=True, gc=False):
    id: str
    gold: int = 0
    #: Colossus cards in hand (sorted)
    hand: tuple[str, ...] = ()
    #: Acolytes and Banners in hand
    acolytes: int = 10
    banners: int = 6
    #: Traits in play, in the order gained
    traits: tuple[str, ...] = ()
    #: Curses that stay in front of the player
    curses: tuple[str, ...] = ()
    #: the Colossus's space (None before set-up)
    colossus: int | None = None
    #: own turns started so far
    turns: int = 0
    #: Animalistic: the Beast the Colossus behaves like, until the end of own turn number ``animal_until``
    animal: str | None = None
    animal_until: int = 0


class TurnInfo(msgspec.Struct, frozen=True, gc=False):
    """What the turn player has used this turn."""

    actions: int = 0
    moves: int = 0
    cards: int = 0
    acted: bool = False
    dominate: bool = False
    whispered: int = 0
    sly: str | None = None
    borrowed: str | None = None
    lender: str | None = None
    banner: str | None = None
    #: Deploy: spaces raised this Deploy (Nomadic may score them) and those already scored
    raised: tuple[int, ...] = ()
    nomad_scored: tuple[int, ...] = ()
    #: Time Beast's lair: Actions owed after the Rest
    extra: int = 0


class Road(msgspec.Struct, frozen=True, gc=False):
    """The last step of a move: may the piece go on by Road Movement (``open``)?"""

    player: str
    piece: str
    owner: str
    at: int
    visited: tuple[int, ...]
    open: bool
    #: the space held none of the owner's pieces (why the road is closed)
    why: str = ""


# -- tasks ------------------------------------------------------------------------------------------

class SetAside(Task, tag="set-aside"):
    kind: Literal["lair", "environment"]


class RevealTrait(Task, tag="reveal-trait"):
    pass


class Draft(Task, tag="draft"):
    player: str


class Draw(Task, tag="draw"):
    player: str
    count: int = 1


class PlaceStart(Task, tag="place-start"):
    player: str


class NamePlayer(Task, tag="name-player"):
    player: str


class Borrow(Task, tag="borrow"):
    player: str


class Peek(Task, tag="peek"):
    player: str


class RevealTop(Task, tag="reveal-top"):
    player: str
    deck: Literal["tiles", "cards"]
    count: int


class Replenish(Task, tag="replenish"):
    pass


class Actions(Task, tag="actions"):
    player: str
    extra: bool = False


class MoveBeast(Task, tag="move-beast"):
    player: str


class BannerChoice(Task, tag="banner-choice"):
    player: str


class Deploy(Task, tag="deploy"):
    player: str


class Rest(Task, tag="rest"):
    player: str
    #: spaces already collected in this Rest (kept Banners stay there)
    done: tuple[int, ...] = ()
    kept: int = 0
    #: the Stone Beast's lair was scored in this Rest
    stone: bool = False


class Explore(Task, tag="explore"):
    space: int
    #: who caused the exploration (arrival kills are theirs)
    by: str


class Discard(Task, tag="discard"):
    player: str


class TraitCap(Task, tag="trait-cap"):
    player: str


class TakeTrait(Task, tag="take-trait"):
    player: str


class PlaceChoice(Task, tag="place-choice"):
    """Bolster / Reinforcements without enough Acolytes: pick the spaces one by one."""

    player: str
    spaces: tuple[int, ...]
    left: int


class Companions(Task, tag="companions"):
    player: str
    target: str
    max: int


class Influence(Task, tag="influence"):
    player: str
    moved: bool = False


class Purge(Task, tag="purge"):
    player: str
    space: int
    #: Acolytes still to move, per seat
    left: tuple[int, ...]


class Recall(Task, tag="recall"):
    player: str


class Victim(msgspec.Struct, frozen=True, gc=False):
    space: int
    owner: str


class Rolls(Task, tag="rolls"):
    player: str
    victims: tuple[Victim, ...]
    kill_at_most: int
    faces: int


class Sabotage(Task, tag="sabotage"):
    player: str
    left: int


class Walk(Task, tag="walk"):
    player: str
    beast: str
    left: int


class Domineer(Task, tag="domineer"):
    player: str
    space: int
    beasts: tuple[str, ...]
    colossi: tuple[str, ...]


class Maar(Task, tag="maar"):
    player: str
    space: int


class Market(Task, tag="market"):
    player: str
    gold: int


class Tribute(Task, tag="tribute"):
    player: str
    to: str
    gold: int


class TradeGive(Task, tag="trade-give"):
    player: str
    to: str
    gold: int


class TradeBack(Task, tag="trade-back"):
    player: str
    to: str
    card: str
    gold: int


class Mantle(Task, tag="mantle"):
    player: str


class Hungry(Task, tag="hungry"):
    player: str
    space: int


class Wind(Task, tag="wind"):
    player: str


class Item(msgspec.Struct, frozen=True, gc=False):
    component: str
    owner: str | None
    space: int


class Launch(Task, tag="launch"):
    player: str
    items: tuple[Item, ...]


class Teleporter(Task, tag="teleporter"):
    player: str
    space: int


class Void(Task, tag="void"):
    player: str


class VoidTile(Task, tag="void-tile"):
    player: str
    space: int


class Speedy(Task, tag="speedy"):
    """Speedy Slopes: each of the player's Acolytes may move once; ``fresh`` counts the unmoved."""

    player: str
    fresh: tuple[tuple[int, int], ...]


class Dominion(Task, tag="dominion"):
    player: str


class Miracle(Task, tag="miracle"):
    player: str


class Solidarity(Task, tag="solidarity"):
    player: str


class Contribute(Task, tag="contribute"):
    player: str
    gold: int


class Deal(Task, tag="deal"):
    player: str


class GrowthDraw(Task, tag="growth-draw"):
    count: int


class GrowthPick(Task, tag="growth-pick"):
    player: str


class GrowthDrop(Task, tag="growth-drop"):
    player: str
    trait: str


class Mimesis(Task, tag="mimesis"):
    player: str


class Resurrect(Task, tag="resurrect"):
    player: str
    count: int


class Necro(Task, tag="necro"):
    player: str
    space: int
    count: int


class React(Task, tag="react"):
    player: str
    space: int


class Parasite(Task, tag="parasite"):
    player: str
    card: str


class AnimalDraw(Task, tag="animal-draw"):
    player: str


class LookTop(Task, tag="look-top"):
    """Soothsayer on a deck whose top already holds looked-at items another seat saw: the player
    sees them first (``CardsLooked``, CL-41), then ``RevealTop`` turns up the rest."""

    player: str
    deck: Literal["tiles", "cards"]
    count: int


class NewHand(Task, tag="new-hand"):
    """The Oasis: the scorer's whole hand goes to the discard pile (``CardsMoved``, CL-42), then
    ``draw`` cards are drawn."""

    player: str
    draw: int


# engine continuations (never wait for an event)

class ScoreOp(Task, tag="op-score"):
    """Score ``space`` for ``player``: Loot (times ``factor``), then the tile's effect."""

    player: str
    space: int
    rest: bool
    factor: int = 1
    mono: bool = False


class LootOp(Task, tag="op-loot"):
    player: str
    space: int
    factor: int


class EnvOp(Task, tag="op-env"):
    player: str
    space: int
    tile: str
    rest: bool


class MinesOp(Task, tag="op-mines"):
    space: int


class MonoOp(Task, tag="op-mono"):
    player: str
    space: int


class RampageOp(Task, tag="op-rampage"):
    player: str
    beast: str
    direction: str


class DealOp(Task, tag="op-deal"):
    player: str


class AfterCard(Task, tag="op-after-card"):
    player: str
    card: str


class WalkOp(Task, tag="op-walk"):
    """Re-check a Walk: the next step, or the end when the Beast is gone or stuck."""

    player: str
    beast: str
    left: int


AnyTask = (ChooseFirst | SetAside | RevealTrait | Draft | Draw | PlaceStart | StartTurn | NamePlayer | Borrow
           | Peek | RevealTop | Replenish | Actions | MoveBeast | BannerChoice | Deploy | Rest | EndTurn
           | Explore | Discard | TraitCap | TakeTrait | PlaceChoice | Companions | Influence | Purge | Recall
           | Rolls | Sabotage | Walk | Domineer | Maar | Market | Tribute | TradeGive | TradeBack | Mantle
           | Hungry | Wind | Launch | Teleporter | Void | VoidTile | Speedy | Dominion | Miracle | Solidarity
           | Contribute | Deal | GrowthDraw | GrowthPick | GrowthDrop | Mimesis | Resurrect | Necro | React
           | Parasite | AnimalDraw | LookTop | NewHand | ScoreOp | LootOp | EnvOp | MinesOp | MonoOp | RampageOp | DealOp
           | AfterCard | WalkOp)

OPS = (ScoreOp, LootOp, EnvOp, MinesOp, MonoOp, RampageOp, DealOp, AfterCard, WalkOp)


class Unseen(msgspec.Struct, frozen=True, gc=False):
    """A seat's record: the identities of the ``"?"`` cards and tiles in the zones, not yet seen
    (sorted multisets, one per placeholder; unknowns.py, CL-40)."""

    cards: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()
    #: the Traits of a Growth drawn face down (CL-48's option) and of the Trait deck they left unknown
    traits: tuple[str, ...] = ()
    #: the unknown tiles of the tile deck (and its top) set aside as Lairs, as Environments (the
    #: other unknown ones there are Grass)
    lairs: int = 0
    environments: int = 0
    #: the conditions of undetermined events still open, each with the Lair it concerns ("" for
    #: a Trade's): dropped when later events settle them (CL-40, ``Colossi.open_conditions``)
    open: tuple[tuple[str, str], ...] = ()


class State(msgspec.Struct, frozen=True, gc=False):
    setup: MatchStarted
    options: Options
    players: tuple[Player, ...]
    spaces: tuple[Space, ...] = ()
    first: str | None = None
    turn: int = 0
    turn_player: str | None = None
    info: TurnInfo = TurnInfo()
    road: Road | None = None
    todo: tuple[AnyTask, ...] = ()
    #: the face-down tile deck: a known top (Soothsayer, in order) and an unknown multiset
    tile_top: tuple[str, ...] = ()
    tile_deck: tuple[str, ...] = ()
    #: tiles out of the game (the box): The Void draws from it when the deck is empty
    tile_box: tuple[str, ...] = ()
    card_top: tuple[str, ...] = ()
    card_deck: tuple[str, ...] = ()
    #: who looked at each item of ``tile_top`` / ``card_top`` (in order; Soothsayer): a seat's
    #: record names an item it saw when another player draws or explores it (observe.redact)
    tile_seen: tuple[tuple[str, ...], ...] = ()
    card_seen: tuple[tuple[str, ...], ...] = ()
    discard: tuple[str, ...] = ()
    trait_deck: tuple[str, ...] = ()
    trait_row: tuple[str, ...] = ()
    trait_discard: tuple[str, ...] = ()
    #: Growth: the Traits being passed round; Exchange: the pile of contributed cards
    growth: tuple[str, ...] = ()
    pile: tuple[str, ...] = ()
    #: players who reached the Gold target, in order (CL-3)
    reached: tuple[str, ...] = ()
    result: Result | None = None
    #: a record with unknown identities (``"?"`` in the log): what the placeholders can be; None
    #: for a full-information log (unknowns.py)
    unseen: Unseen | None = None

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def seat(self, pid: str) -> int:
        for i, p in enumerate(self.players):
            if p.id == pid:
                return i
        raise KeyError(pid)
