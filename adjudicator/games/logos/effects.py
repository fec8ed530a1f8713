"""What a LOGOS effect field does when it fires: :func:`fire` (the event that reports it and the
position after it) and one function per effect kind (:data:`FIRE`)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from . import events as E
from . import unknowns as U
from .cards import CARD_EFFECTS, DECK_LOOK
from .observe import shown_to
from .phases import Phases
from .state import DeckLook, EffectItem, Player, State
from .values import card_stats, pool_of, pool_of_setup
from .zones import sorted_add, with_player

#: Berserk works on a player below this many hit points (seed 001, Berserk)
CRITICAL_HP = 25_000

_EMPTY3: tuple[None, None, None] = (None, None, None)


def fire(r: Phases, s: State, item: EffectItem) -> tuple[E.EffectResolved, State]:
    """One effect field fires: the event that reports it and the position after it.  Mimmick
    first finds the effect it copies; a shield blocks; each kind then does its own (:data:`FIRE`)."""
    pool = s.pool or pool_of_setup(s.setup)
    a, b = s.players
    owner, opp = (a, b) if a.id == item.player else (b, a)
    card = pool[item.card]
    fx = card.left if item.field == "left" else card.right
    assert fx is not None
    target = opp if item.field == "left" else owner
    copied: str | None = None
    value: int | None = None
    result: str | None = None
    effect = fx.do
    rest = s.effects[1:]
    s.effects = rest
    if not rest:
        s.step = "after-effects"
    if effect == "mimmick":
        src = None if opp.battle is None else pool[opp.battle].field(item.field)
        if opp.battle is None:
            result = "no-target"
        elif src is None or src.do == "mimmick":
            result, copied = "no-change", None if src is None else src.do
        else:
            copied = src.do
            if s.options.mimmick_target == "by-source-field":
                target = owner if item.field == "left" else opp
            fx = src
    if fx.do == DECK_LOOK:  # LG-44: a look at one's own deck, copied by a Mimmick too
        target = owner
    if result is not None:
        pass
    elif target.shield:
        result = "blocked"
    elif fx.do in CARD_EFFECTS and target.battle is None:
        result = "no-target"
    else:
        s, result, value = FIRE[fx.do](r, s, target, owner, item, fx)
        if result == "applied" and fx.do in MOVES_CARDS:  # LG-42: the cards it moved, named
            moved = moved_cards(fx.do, target.slots, target.backup)
            if moved:
                return E.EffectResolved(player=item.player, card=item.card, field=item.field, effect=effect,
                                        target=target.id, result=result, copied=copied, value=value,
                                        cards=moved), s  # type: ignore[arg-type]
    return E.EffectResolved(player=item.player, card=item.card, field=item.field, effect=effect, target=target.id,
                            result=result, copied=copied, value=value), s  # type: ignore[arg-type]


#: the effects that move cards out of the target's card slots (LG-42: EffectResolved.cards) or
#: show them to the card's owner (LG-43)
MOVES_CARDS = frozenset({"shuffle-hand", "remove-card-slot", "look-slots", "look-backup"})


def moved_cards(effect: str, slots: tuple[str | None, ...], backup: str | None = None) -> list[str]:
    """The cards ``effect`` (applied) moves out of card slots ``slots``, in slot order: every card
    (Shuffle Hand), the card of the rightmost slot when no slot is empty (Remove Card Slot); or
    shows: every card of the slots (a look at them), the Backup card (a look at it, LG-43)."""
    if effect == "look-backup":
        return [] if backup is None else [backup]
    if effect == "shuffle-hand" or effect == "look-slots":
        return [c for c in slots if c is not None]
    return [] if not slots or None in slots else [slots[-1]]  # type: ignore[list-item]


# -- what each effect kind does when it fires ------------------------------------------------------------

#: what firing returns: the position after it, the result (``applied``, ``no-change``, ``no-target``)
#: and the value it reports (a slot count, hit points gained, cards moved; None when none)
Fired = tuple[State, str, "int | None"]
#: effect kind -> what it does (``fn(rules, state, target, owner, item, effect)``): one per kind of
#: ``cards.EffectName`` but Mimmick, which fires the effect it copies
FIRE: dict[str, Any] = {}


def _fires(*kinds: str) -> Any:
    def mark(fn: Any) -> Any:
        for k in kinds:
            FIRE[k] = fn
        return fn
    return mark


@_fires("add-card-slot")
def _add_card_slot(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if len(target.slots) < s.options.max_slots:
        return with_player(s, target.id, slots=target.slots + (None,)), "applied", len(target.slots) + 1
    return s, "no-change", len(target.slots)


@_fires("remove-card-slot")
def _remove_card_slot(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    slots = target.slots
    if len(slots) <= s.options.min_slots:
        return s, "no-change", len(slots)
    if None in slots:  # the rightmost empty slot goes
        i = len(slots) - 1 - slots[::-1].index(None)
        return with_player(s, target.id, slots=slots[:i] + slots[i + 1:]), "applied", len(slots) - 1
    return with_player(s, target.id, slots=slots[:-1], discard=target.discard + (slots[-1],)), "applied", len(slots) - 1


@_fires("regeneration")
def _regeneration(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    opts = s.options
    _, a, d, _ = r.stats(s, owner) if owner.battle == item.card else card_stats(pool_of(s), item.card, ())
    cap = opts.start_hp if opts.hp_cap == "start-hp" else None
    hp = target.hp + max(0, a + d)
    if cap is not None:
        hp = max(target.hp, min(cap, hp))
    value = hp - target.hp
    return (with_player(s, target.id, hp=hp), "applied", value) if value else (s, "no-change", value)


@_fires("shuffle-hand")
def _shuffle_hand(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    cards = tuple(c for c in target.slots if c is not None)
    if not cards:
        return s, "no-change", 0
    empty = (None,) * len(target.slots)
    if s.options.shuffle_hand_to == "deck" and target.unknown:
        deck, unseen = U.to_deck(target, cards, U.tracked(s, target))
        return with_player(s, target.id, slots=empty, deck=deck, unseen=unseen, top=()), "applied", len(cards)
    if s.options.shuffle_hand_to == "deck":
        return with_player(s, target.id, slots=empty, deck=sorted_add(target.deck, cards), top=()), "applied", len(cards)
    return with_player(s, target.id, slots=empty, discard=target.discard + cards), "applied", len(cards)


@_fires("look-slots", "look-backup")
def _look(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    """LG-43: the card's owner sees the target's card slots (or Backup card); nothing moves.  What
    the owner learns of the opponent's cards is kept as a take-back's is (``State.seen``)."""
    cards = moved_cards(fx.do, target.slots, target.backup)
    if not cards:
        return s, "no-change", 0
    if target.id != owner.id:
        s = shown_to(s, target.id, cards)
    return s, "applied", len(cards)


@_fires(DECK_LOOK)
def _look_deck(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    """LG-44: the owner looks at the top of its own deck: the battle waits for the cards seen
    (``CardsLooked``, a random outcome the log states: as many as the deck holds, up to the
    count) and, with ``reorder``, the order they go back in (``CardsReordered``).  Applied
    whatever the deck holds (a record may not know its size; a look at an empty deck sees none)."""
    s.look = DeckLook(owner.id, fx.count or 1, item.card, fx.reorder, s.step)
    s.step = "look"
    return s, "applied", None


@_fires("destroy-combo")
def _destroy_combo(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if s.options.combo_counter == "per-player":
        if target.combo == _EMPTY3:
            return s, "no-change", None
        return with_player(s, target.id, combo=_EMPTY3), "applied", None
    if s.shared_combo == _EMPTY3:
        return s, "no-change", None
    s.shared_combo = _EMPTY3
    return s, "applied", None


@_fires("destroy-backup")
def _destroy_backup(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if target.backup is None:
        return s, "no-change", None
    return with_player(s, target.id, backup=None, discard=target.discard + (target.backup,)), "applied", None


@_fires("neutralize")
def _neutralize(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    return with_player(s, target.id, shield=True, mods=(), double_combo=False), "applied", None


@_fires("double-combo")
def _double_combo(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if target.battle is None:
        return s, "no-target", None
    return with_player(s, target.id, double_combo=True), "applied", None


@_fires("berserk")
def _berserk(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if target.hp < CRITICAL_HP:
        return with_player(s, target.id, mods=target.mods + ("berserk",)), "applied", None
    return s, "no-change", None


@_fires("color-change")
def _color_change(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    if r.stats(s, target)[0] == fx.src:
        return with_player(s, target.id, mods=target.mods + (f"color:{fx.to}",)), "applied", None
    return s, "no-change", None


@_fires("maximize", "minimize", "swap-values")
def _modify(r: Phases, s: State, target: Player, owner: Player, item: EffectItem, fx: Any) -> Fired:
    return with_player(s, target.id, mods=target.mods + (fx.do,)), "applied", None
