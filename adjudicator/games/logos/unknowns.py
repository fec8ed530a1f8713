"""LOGOS unknown identities: a seat's record names some cards as unknown (``"?"`` or null).

Only a record with unknowns reaches this module (a full-information log never does: the rules
call it when a player's ``unknown`` mode is set or an event names an unknown card).  The model
(docs/rules/logos.md, LG-35 to LG-38):

- a player whose cards are all known has ``unknown = ""`` (the judge's position, every
  full-information log);
- ``unknown = "list"``: the deck list is known but some of the player's cards are not; every card
  of the deck is then unknown (``"?"``: its order and which card left it are unknown) and
  ``unseen`` holds, as a sorted multiset, the identities of all the player's unknown cards (in the
  deck, the card slots, the discard pile, the Backup Slot, the battle);
- ``unknown = "open"``: the deck list is unknown (``{}`` in a seat's record): the cards can be any
  card of the pool, at most ``max_copies`` of each when the ruleset sets it (then ``unseen``
  starts as the pool times ``max_copies`` and every card seen is taken from it; without a limit
  nothing is counted), and, unless ``deck_size`` gives it, the deck's size is unknown
  (``deck_open``).

A card named by an event (a draw, a reveal, a Backup card, a defenseless player's cards, the
card of an effect) is taken from ``unseen``: one that is no longer there is impossible (illegal,
LG-36).  Where a derived step turns on an unknown card the engine waits for the log to state it
(``follows_stated``): every card the unknown can be is tried and the stated event must be one
of the outcomes (LG-38).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN, bare
from adjudicator.core.kernel.rulings import Illegal, Undetermined
from adjudicator.core.kernel.notation import kind_words

from . import events as E
from . import held as H
from .cards import LOOKS, Pool
from .rulebook import NS, bad
from .state import Player, State
from .values import playable_card, pool_of
from .zones import put

#: the game's rules (rules.Rules), passed in by its caller: this module reads no rules module
Rules = Any


def unknown(card: str | None) -> bool:
    """Does an event field name an unknown card (``"?"`` or null)?"""
    return card is None or card == HIDDEN


def tracked(s: State, p: Player) -> bool:
    """Are ``p``'s unknown identities counted (a deck list, or a copy limit)?"""
    return p.unknown == "list" or (p.unknown == "open" and s.options.max_copies is not None)


def open_player(s: State, pid: str) -> Player:
    """A player of the set-up whose deck list the record leaves unknown (``{}``)."""
    o = s.options
    unseen: tuple[str, ...] = ()
    if o.max_copies is not None:
        unseen = tuple(sorted(c for c in pool_of(s).cards for _ in range(o.max_copies)))
    size = o.deck_size
    return Player(pid, hp=o.start_hp, slots=(None,) * o.start_slots, deck=(HIDDEN,) * (size or 0),
                  unknown="open", unseen=unseen, deck_open=size is None)


def possible(s: State, p: Player) -> list[str]:
    """The card ids ``p``'s unknown cards can still be, each once, in pool order."""
    return list(_can_be(pool_of(s), p.unseen if tracked(s, p) else None))


@lru_cache(maxsize=4096)
def _can_be(pool: Pool, unseen: tuple[str, ...] | None) -> tuple[str, ...]:
    """The cards of ``pool`` in ``unseen`` (None: every card), each once, in pool order (cached:
    a seat's record asks on every decision of a round, with the same identities)."""
    if unseen is None:
        return tuple(pool.cards)
    left = set(unseen)
    return tuple(c for c in pool.cards if c in left)


@lru_cache(maxsize=8192)
def _playable_among(pool: Pool, ids: tuple[str, ...], counter: tuple[str | None, ...]) -> tuple[str, ...]:
    return tuple(c for c in ids if playable_card(pool, c, counter))


def to_list_mode(p: Player) -> Player:
    """A player whose cards were all known gets an unknown card: the deck's cards become unknown
    and their identities ``unseen``."""
    if p.unknown:
        return p
    return replace(p, unknown="list", unseen=p.deck, deck=(HIDDEN,) * len(p.deck))


def _where(p: Player, card: str) -> str:
    zones = [("in the discard pile", p.discard.count(card)),
             ("in the card slots", p.slots.count(card)),
             ("in the Backup Slot", int(p.backup == card)), ("in battle", int(p.battle == card))]
    seen = [f"{n} {z}" for z, n in zones if n]
    return ", ".join(seen) if seen else "none seen"


def check_reveal(s: State, p: Player, card: str, what: str, rule: str = "LG-36") -> None:
    """``card`` comes from one of ``p``'s unknown cards: it must be one it can still be."""
    if not tracked(s, p) or card in p.unseen:
        return
    name = pool_of(s).name_of(card)
    if p.unknown == "list":
        total = s.setup.decks.get(p.id, {}).get(card, 0)
        if total == 0:
            why = f"{p.id}'s deck list holds no {name}"
        else:
            why = f"all {total} {'copy' if total == 1 else 'copies'} of {name} in {p.id}'s deck list are already accounted for ({_where(p, card)})"
    else:
        n = s.options.max_copies
        why = f"all {n} {'copy' if n == 1 else 'copies'} of {name} the ruleset allows (max_copies) are already accounted for ({_where(p, card)})"
    raise bad(rule, "impossible-card", f"{what}, but {why}")


def take(s: State, p: Player, card: str) -> Player:
    """``p`` after one of its unknown cards turned out to be ``card`` (checked)."""
    if not tracked(s, p) or card not in p.unseen:  # (not there: only an event a judge let stand)
        return p
    i = p.unseen.index(card)
    return replace(p, unseen=p.unseen[:i] + p.unseen[i + 1:])


def take_slot(s: State, p: Player, card: str | None) -> tuple[Player, tuple[str | None, ...]]:
    """The slot a card leaves: the leftmost holding ``card``, else the leftmost unknown card (then
    taken from ``unseen`` as ``card``); an unknown ``card``: the leftmost unknown card."""
    slots = p.slots
    if card is not None and card != HIDDEN and card in slots:
        i = slots.index(card)
    elif HIDDEN in slots:
        i = slots.index(HIDDEN)
        if card is not None and card != HIDDEN:
            p = take(s, p, card)
    else:  # an unknown card named from known slots (not a record redact writes): the leftmost card
        i = next((k for k, c in enumerate(slots) if c is not None), -1)
        if i < 0:  # no card at all (an event a judge let stand, LG-40): nothing leaves the slots
            return p, slots
    return p, slots[:i] + (None,) + slots[i + 1:]


def to_deck(p: Player, cards: tuple[str, ...], tracked_ids: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The deck and ``unseen`` of an unknown-mode player after ``cards`` go into the deck."""
    known = tuple(c for c in cards if c != HIDDEN)
    unseen = tuple(sorted(p.unseen + known)) if tracked_ids else p.unseen
    return p.deck + (HIDDEN,) * len(cards), unseen


# -- checks ------------------------------------------------------------------------------------------

def check_draw(r: Rules, s: State, p: Player, e: E.CardDrawn) -> None:
    if not p.deck and not p.deck_open:
        raise bad("LG-2.3", "not-in-deck", f"{e.player} draws a card, but the deck is empty")
    if unknown(e.card):
        return
    assert e.card is not None
    if p.unknown == "":
        if e.card not in p.deck:
            name = pool_of(s).name_of(e.card)
            raise bad("LG-2.3", "not-in-deck", f"{e.player} draws {name}, but the deck holds no {name} ({len(p.deck)} cards left)")
        return
    check_reveal(s, p, e.card, f"{e.player} draws {pool_of(s).name_of(e.card)}")


def playable_ids(r: Rules, s: State, p: Player, ids: list[str]) -> list[str]:
    return list(_playable_among(pool_of(s), tuple(ids), r.counter(s, p)))


def armed_unknown(r: Rules, s: State, p: Player) -> bool:
    """LG-2.4 for a player with unknown cards in the slots: armed for sure when a known card is
    playable, or when every card the unknown ones can be is playable."""
    pool, counter = pool_of(s), r.counter(s, p)
    if any(c is not None and c != HIDDEN and playable_card(pool, c, counter) for c in p.slots):
        return True
    if HIDDEN not in p.slots:
        return False
    can = possible(s, p)
    return bool(can) and len(playable_ids(r, s, p, can)) == len(can)


def armed_condition(r: Rules, s: State, p: Player, what: str) -> None:
    """A decision that assumes ``p`` holds a playable card: undetermined when only an unknown
    slot card can be it (LG-37)."""
    if r.armed(s, p) or HIDDEN not in p.slots:
        return
    can = playable_ids(r, s, p, possible(s, p))
    if not can:
        raise bad("LG-2.4", "defenseless", f"{what}: none of {p.id}'s card slots can hold a playable card (no card its unknown cards can be is playable)")
    raise Undetermined("LG-37", NS + "unknown-playable", f"{what}: whether {p.id} holds a playable card turns on unknown cards",
                       f"one of {p.id}'s unknown slot cards is playable in round {s.round} ({_few(can)})")


def _few(ids: list[str], n: int = 6) -> str:
    return ", ".join(ids[:n]) + (f" or {len(ids) - n} more" if len(ids) > n else "")


def check_unknown_backup(r: Rules, s: State, p: Player, e: E.BackupAssigned) -> None:
    """An unknown card goes to the Backup Slot: some card it can be must be eligible (LG-4.1)."""
    pool = pool_of(s)
    ids = [c for c in p.slots if c is not None and c != HIDDEN]
    if HIDDEN in p.slots:
        ids += possible(s, p)
    if not ids:
        held = "nothing"
        raise bad("LG-4.1", "not-in-slots", f"backup assigned by {e.player}: {e.player}'s card slots hold {held}")
    ok = sorted({c for c in ids if pool[c].backup_eligible}, key=list(pool.cards).index)
    if not ok:
        raise bad("LG-4.1", "not-eligible", f"backup assigned by {e.player}: no card {e.player}'s slots can hold has Speed above 99 and no combo requirement")
    if len(ok) < len(set(ids)):
        raise Undetermined("LG-37", NS + "unknown-backup", f"backup assigned by {e.player} names an unknown card",
                           f"{e.player}'s Backup card of round {s.round} has Speed above 99 and no combo requirement ({_few(ok)}), "
                           f"and {e.player} held another playable card in round {s.round}")


def check_unknown_pick(r: Rules, s: State, p: Player, e: E.CardPicked) -> None:
    if HIDDEN not in p.slots and not any(p.slots):
        raise bad("LG-3.2", "not-in-slots", f"card picked by {e.player}: {e.player}'s card slots hold nothing")
    can = playable_ids(r, s, p, possible(s, p))
    raise Undetermined("LG-37", NS + "unknown-pick", f"card picked by {e.player} names an unknown card",
                       f"{e.player}'s battle card of round {s.round} is playable ({_few(can)})")


def check_known_from_unknown_slot(s: State, p: Player, card: str, what: str) -> bool:
    """``card`` is not among ``p``'s known slot cards: may an unknown slot card be it?"""
    if HIDDEN not in p.slots:
        return False
    check_reveal(s, p, card, f"{what}: {pool_of(s).name_of(card)} would be one of {p.id}'s unknown slot cards")
    if (why := H.named_problem(p, card)) is not None:
        raise bad("LG-45", "not-held", f"{what}, but {why}")
    return True


# -- stated consequences (the engine cannot derive them: it follows the log) -------------------------

def unsure(s: State) -> bool:
    """Is a player who may be without a playable card one with unknown slot cards (LG-37)?"""
    return any(HIDDEN in s.player(d).slots for d in s.due)


def follows(r: Rules, s: State) -> bool:
    """Does ``s`` wait on a consequence that turns on an unknown (LG-38)?"""
    if s.result is not None or len(s.players) != 2 or s.pending_end is not None:
        return False
    if s.alts:  # several positions: the record says which (LG-38)
        return True
    if _at_end(s):  # the match ends first: that end is derived, never stated
        return False
    if s.phase == "refill":
        p = r.refill_next(s)
        return p is not None and p.deck_open and not p.deck
    if s.phase == "pick":
        return bool(s.due) and any(HIDDEN in s.player(d).slots for d in s.due)
    if s.phase == "battle" and s.step == "effects":
        return shows_unseen(r, s)
    return s.phase == "battle" and s.step == "blind"


def ran_out(r: Rules, s: State, e: Any) -> tuple[State, list[str], str | None] | None:
    """LG-46: where the refill waits on a player whose deck of unknown size holds no card known
    (``deck_open``) and no rebuild can fill it (``stay-empty``, or an empty discard pile), an
    event that is not that player's draw (nor a resignation, nor a stated rebuild) and that the
    rules allow once that deck gave no card says the deck was empty: the position with that deck
    closed empty and the refill gone on, who ran out, and the event's own condition there.
    None where nothing is passed, or where the event is not allowed even so (it is judged, and
    applied if a judge lets it stand, where it came)."""
    if s.phase != "refill" or s.alts or type(e) is E.Resigned:
        return None
    passed: list[str] = []
    t = s
    while t.phase == "refill":
        p = r.refill_next(t)
        if p is None or p.deck or not p.deck_open or getattr(e, "player", None) == p.id and type(e) in (E.CardDrawn, E.DeckRebuilt):
            break
        if t.options.on_empty_deck == "reshuffle-discard" and p.discard:  # rebuilt: the record states it (LG-35)
            break
        t = r.run(r.after_refill, _with(t, replace(p, deck_open=False)))
        passed.append(p.id)
    if not passed:
        return None
    if e.kind == "X" and not follows(r, t):  # a public fact the record states (LG-35): the engine's own there
        return (t, passed, None) if r.derive(t) == bare(e) else None
    ruling = r.check(t, e)
    return (t, passed, ruling.condition) if ruling.allowed else None


def check_ran_out(r: Rules, s: State, e: Any, out: tuple[State, list[str], str | None]) -> None:
    """LG-46: ``e``, allowed where the deck gave no card, is undetermined on the empty deck (the
    record cannot show a deck's size, so a draw the player skipped would look the same)."""
    _, passed, condition = out
    cond = "; ".join(f"{pid}'s deck was empty at the refill of round {s.round}" for pid in passed)
    if condition is not None:
        cond = f"{cond}, and {condition}"
    raise Undetermined("LG-46", NS + "unknown-deck", f"{kind_words(e)} comes where {' and '.join(passed)} would draw, "
                       "unless the deck (of a size this record does not show) was empty", cond)


def _at_end(s: State) -> bool:
    """Does the match end in ``s`` before anything else happens (hit points, stall, round limit:
    the ends ``derive`` finds first)?"""
    a, b = s.players
    o = s.options
    return a.hp <= 0 or b.hp <= 0 or s.stall >= o.stall_rounds or (o.max_rounds is not None and s.round > o.max_rounds)


def check_stated(r: Rules, s: State, e: Any) -> None:
    """A stated derived event where the position waits on an unknown (LG-38): in one position, or
    in some of several (undetermined) or none (illegal)."""
    if not follows(r, s):
        raise r.not_proposed(s, e)
    if not s.alts:
        return _check_one(r, s, e)
    branches = [replace(s, alts=()), *s.alts]
    fits, first = [], None
    for b in branches:
        try:
            _check_stated_in(r, b, e)
            fits.append(b)
        except Undetermined:
            fits.append(b)
        except Exception as x:  # noqa: BLE001 - an Illegal ruling of that position
            first = first or x
    if not fits:
        raise first if first is not None else _mismatch(r, s, e, "no position this record allows derives it")
    if len(fits) < len(branches):
        labels = [b.assumed for b in fits]
        raise Undetermined("LG-38", NS + "unknown-battle-card", f"the log states {kind_words(e)}, which only some of the positions this record allows derive",
                           labels[0] if len(labels) == 1 else f"{labels[0]} (or: {'; '.join(labels[1:3])}{' ...' if len(labels) > 3 else ''})")


def _check_stated_in(r: Rules, b: State, e: Any) -> None:
    """``e`` in one position: as a stated consequence there, or as the engine's own derivation."""
    if follows(r, b):
        _check_one(r, b, e)
    elif r.derive(b) != bare(e):
        raise _mismatch(r, b, e, "the engine derives something else here")


def _check_one(r: Rules, s: State, e: Any) -> None:
    t = type(e)
    if s.phase == "refill":
        p = r.refill_next(s)
        assert p is not None
        if t is not E.DeckRebuilt or e.player != p.id:
            raise _mismatch(r, s, e, f"{p.id}'s empty slots wait for a draw, or for the deck to be rebuilt (its size is unknown)")
        if s.options.on_empty_deck != "reshuffle-discard" or not p.discard or e.count != len(p.discard):
            raise _mismatch(r, s, e, f"{p.id}'s deck would be rebuilt from {len(p.discard)} discarded card(s) (LG-4)")
        return
    if s.phase == "pick":
        if t is not E.Defenseless or e.player not in s.due:
            raise _mismatch(r, s, e, f"a player without a playable card is declared defenseless first ({', '.join(s.due)} may be)")
        for d in s.due[: s.due.index(e.player)]:
            if HIDDEN not in s.player(d).slots:
                raise _mismatch(r, s, e, f"{d} is declared defenseless first")
        p = s.player(e.player)
        held = [c for c in p.slots if c is not None]
        if len(e.cards) != len(held):
            raise _mismatch(r, s, e, f"{p.id}'s card slots hold {len(held)} card(s), {len(e.cards)} named")
        q = p
        for have, named in zip(held, e.cards):
            if have == HIDDEN:
                check_reveal(s, q, named, f"defenseless names {named} among {p.id}'s cards")
                q = take(s, q, named)
            elif have != named:
                raise _mismatch(r, s, e, f"{p.id}'s card slots hold {have} where {named} is named")
        if (why := H.all_named_problem(p, [n for h, n in zip(held, e.cards) if h == HIDDEN])) is not None:
            raise bad("LG-45", "not-held", f"defenseless names {', '.join(e.cards)}, but {why}")
        live = playable_ids(r, s, p, [c for c in e.cards if c != HIDDEN])
        if live:
            raise bad("LG-2.4", "not-defenseless", f"defenseless names {live[0]}, which {p.id} could play: a player with a playable card is not defenseless")
        return
    if s.phase == "battle" and s.step == "effects":
        return _check_shown(r, s, e)
    outcomes = _blind_outcomes(r, s, e)
    if not outcomes:
        who = " and ".join(f"{p.id}'s ({_few(possible(s, p))})" for p in s.players if p.battle == HIDDEN)
        raise _mismatch(r, s, e, f"no card the unknown battle card {who} can be gives it")
    names = sorted({", ".join(ids) for ids, _ in outcomes})
    if len(names) > 1:
        blind = [p.id for p in s.players if p.battle == HIDDEN]
        raise Undetermined("LG-38", NS + "unknown-battle-card", f"the log states {kind_words(e)}; the unknown battle card is not yet named",
                           f"{' and '.join(blind)}'s battle card is {names[0]} (it can be {_few(names)})")


def _mismatch(r: Rules, s: State, e: Any, why: str) -> Any:
    return bad("LG-38", "stated-mismatch", f"the log states {kind_words(e)} by the engine's rules, but {why}")


def _blind_outcomes(r: Rules, s: State, e: Any) -> list[tuple[tuple[str, ...], State]]:
    """Every assignment of the unknown battle cards under which the engine derives ``e``: the cards
    (seat order) and the position with them known, each once, in pool order."""
    blind = [p for p in s.players if p.battle == HIDDEN]
    want = bare(e)
    out = []
    for ids in product(*(_battle_can_be(s, p) for p in blind)):  # a called card: one the Backup Slot could hold
        t = _battle_cards(s, blind, ids)
        if t is None:
            continue
        t = _resume(r, t, [p.id for p in blind])
        if r.derive(t) == want:
            out.append((ids, replace(t, assumed=_assume(s.assumed, _battle_label(s, blind, ids)))))
    return out


def _battle_cards(s: State, blind: list[Player], ids: tuple[str, ...]) -> State | None:
    """``s`` with the unknown battle cards of ``blind`` known as ``ids`` (seat order), or None when
    a tracked player can no longer hold one of them."""
    t = s
    for p, cid in zip(blind, ids):
        q = t.player(p.id)
        if tracked(t, q) and cid not in q.unseen:
            return None
        t = _with(t, replace(take(t, q, cid), battle=cid))
    return t


def _battle_label(s: State, blind: list[Player], ids: tuple[str, ...]) -> str:
    """The assumption an assignment of the unknown battle cards makes, in words."""
    return " and ".join(f"{p.id}'s battle card of round {s.round} was {cid}" for p, cid in zip(blind, ids))


def _with(s: State, p: Player) -> State:
    a, b = s.players
    return put(s, players=(p, b) if a.id == p.id else (a, p))


def _resume(r: Rules, s: State, pids: list[str]) -> State:
    """The position the blind step stood for, once the battle cards are known."""
    if s.blind_step == "called":
        items = r.queue_effects(s, pids)
        return put(s, step="effects" if items else "after-effects", effects=items, blind_step="")
    return put(s, step="direction", blind_step="")


def apply_stated(r: Rules, s: State, e: Any) -> State:
    """The positions after a stated consequence: every one in which it was checked to fit."""
    outs: list[State] = []
    for b in [replace(s, alts=()), *s.alts] if s.alts else [s]:
        try:
            _check_stated_in(r, b, e)
        except Undetermined:
            pass
        except Exception:  # noqa: BLE001 - a position the statement rules out
            continue
        outs += _apply_one(r, b, e) if follows(r, b) else [r.apply_plain(b, e)]
    return _merged(outs) if outs else s


def _merged(outs: list[State]) -> State:
    """One position standing for ``outs``: duplicates merged, at most :data:`MAX_ALTS`."""
    keep: list[State] = []
    seen: list[State] = []
    for t in outs:
        key = replace(t, assumed="", alts=())
        if key not in seen:
            seen.append(key)
            keep.append(replace(t, alts=()))
    keep.sort(key=lambda t: t.result is not None)
    keep = keep[:MAX_ALTS]
    if len(keep) == 1:
        return replace(keep[0], assumed="")
    return replace(keep[0], alts=tuple(keep[1:]))


def _apply_one(r: Rules, s: State, e: Any) -> list[State]:
    t = type(e)
    if s.phase == "refill":
        p = s.player(e.player)
        return [r.run(r.a_rebuilt, _with(s, replace(p, deck_open=False)), e)]
    if s.phase == "pick":
        s = replace(s, due=s.due[s.due.index(e.player):])
        p = s.player(e.player)
        slots = list(p.slots)
        named = iter(e.cards)
        for i, c in enumerate(slots):
            if c is not None:
                cid = next(named)
                if c == HIDDEN:
                    p = take(s, p, cid)
                    slots[i] = cid
        return [r.run(r.a_defenseless, _with(s, replace(p, slots=tuple(slots))), e)]
    if s.phase == "battle" and s.step == "effects":
        return [_apply_shown(r, s, e)]
    assert t is not None
    return [r.apply_plain(o, e) for _ids, o in _blind_outcomes(r, s, e)]


def with_player_struct(s: State, p: Player) -> State:
    """``s`` with ``p`` (by id) in its seat, now with an unknown card."""
    return put(_with(s, p), unknowns=True)


# -- a decision where the log leaves out what an unknown battle card did -----------------------------

def _settled(r: Rules, t: State, *, before_end: bool = False) -> State:
    """``t`` after every consequence the engine derives (bounded like the verifier's settle);
    ``before_end``: short of the end of the match (every position the record allows derives it
    alike, so the verifier derives it, and a record may state it: :func:`common_end`)."""
    for _ in range(10_000):
        d = r.derive(t)
        if d is None or (before_end and type(d) is E.GameEnded):
            return t
        t = r.apply_plain(t, d)
    return t


def common_end(r: Rules, s: State) -> Any:
    """The end of the match when every position ``s`` stands for derives the same one, else None."""
    first = r.derive(replace(s, alts=()))
    if type(first) is not E.GameEnded:
        return None
    for a in s.alts:
        if r.derive(a) != first:
            return None
    return first


#: most positions a seat's record keeps open at once (LG-38); beyond, the first are kept
MAX_ALTS = 128


def _branches(r: Rules, s: State) -> list[State]:
    """The positions ``s`` stands for: ``s`` and its alternatives, each unknown battle card as every
    card it can be (settled, labelled with the assumption), each player who may be defenseless as
    defenseless and as not.  The last answer is kept (check and apply of one event ask twice)."""
    last = r._expanded
    if last is not None and last[0] is s:
        return last[1]
    out = _expand(r, s)
    r._expanded = (s, out)
    return out


def _expand(r: Rules, s: State) -> list[State]:
    todo = [_settled(r, b) for b in (replace(s, alts=()), *s.alts)]
    out: list[State] = []
    for _ in range(4):  # an expanded position is settled: it may wait on another unknown
        more: list[State] = []
        for b in todo:
            if b.blind_step:
                more += _blind_branches(r, b)
            elif shows_unseen(r, b):  # the record leaves out what the effect showed: unknown cards moved
                more.append(_settled(r, _fire(r, b)[1]))
            elif b.due and any(HIDDEN in b.player(d).slots for d in b.due):
                more += _due_branches(r, b)
            else:
                out.append(b)
        if not more:
            break
        todo = more
    else:
        out += todo
    return out


def _blind_branches(r: Rules, s: State) -> list[State]:
    ok = []
    blind = [p for p in s.players if p.battle == HIDDEN]
    for ids in product(*(_battle_can_be(s, p) for p in blind)):
        t = _battle_cards(s, blind, ids)
        if t is not None:
            t = replace(t, assumed=_assume(s.assumed, _battle_label(s, blind, ids)))
            ok.append(_forget(s, _settled(r, _resume(r, t, [p.id for p in blind])), [p.id for p in blind]))
    return ok


def _forget(s: State, t: State, pids: list[str]) -> State:
    """Once the round of an assumed battle card is over, its identity is not counted (no deck list,
    no copy limit): it lies in the discard pile as an unknown card again, so that the positions of
    cards that did the same merge."""
    if t.round == s.round:
        return t
    for pid in pids:
        q = t.player(pid)
        if not tracked(t, q) and q.discard and q.discard[-1] != HIDDEN:
            t = _with(t, replace(q, discard=q.discard[:-1] + (HIDDEN,)))
    return t


def _assume(before: str, label: str, keep: int = 4) -> str:
    """What a position assumes: its latest ``keep`` assumptions (bounded text)."""
    parts = [x for x in before.split("; ") if x] + [label]
    return "; ".join(parts[-keep:])


def _due_branches(r: Rules, s: State) -> list[State]:
    """Players who may be without a playable card (unknown slot cards) while the log states no
    Defenseless: each either held a playable card or was defenseless (LG-37)."""
    unsure = [d for d in s.due if HIDDEN in s.player(d).slots]
    out = []
    for choice in product((False, True), repeat=len(unsure)):
        bare_ = [d for d, dl in zip(unsure, choice) if dl]
        if any(not _can_be_defenseless(r, s, s.player(d)) for d in bare_):
            continue
        if any(not playable_ids(r, s, s.player(d), possible(s, s.player(d))) for d, dl in zip(unsure, choice) if not dl):
            continue
        t = replace(s, due=tuple(d for d in s.due if d not in unsure or d in bare_))
        while t.due and t.phase == "pick":
            p = t.player(t.due[0])
            t = r.run(r.a_defenseless, t, E.Defenseless(player=p.id, cards=[c for c in p.slots if c is not None]))
        label = "; ".join(f"{d} {'was defenseless' if dl else 'held a playable card'} in round {s.round}" for d, dl in zip(unsure, choice))
        out.append(_settled(r, replace(t, alts=(), assumed=_assume(s.assumed, label))))
    return out


def _can_be_defenseless(r: Rules, s: State, p: Player) -> bool:
    can = possible(s, p)
    return len(playable_ids(r, s, p, can)) < len(can)


def _battle_can_be(s: State, p: Player) -> list[str]:
    """What an unknown battle card can be: a called Backup card is one that could go to the Backup
    Slot (LG-4.1)."""
    can = possible(s, p)
    if s.blind_step == "called":
        pool = pool_of(s)
        can = [c for c in can if pool[c].backup_eligible]
    return can


def check_branches(r: Rules, s: State, e: Any) -> None:
    """A decision where the position is one of several (an unknown battle card whose outcome the
    log leaves out, LG-38): legal in every one, undetermined in some, illegal in none.  The last
    answer is kept (the verifier's check and the apply that keeps the condition both ask)."""
    known = r._fits
    if known is not None and known[0] is s and known[1] is e:
        if known[3] is not None:
            raise known[3]
        return
    try:
        own = _own_decision(r, s, e)
        if own is not None:
            _check_held(r, s, e, own)
        else:
            _check_branches(r, s, e)
    except (Illegal, Undetermined) as x:
        r._fits = (*r._fits[:3], x)  # type: ignore[index]
        raise


#: the decisions a defenseless player cannot make (LG-2.4): in the position where the player is
#: defenseless they are illegal, whatever else is true
_OWN = (E.BackupAssigned, E.CardPicked, E.CardCommitted, E.PickRevealed)


def _own_decision(r: Rules, s: State, e: Any) -> State | None:
    """The one position a decision of the one player who may be without a playable card leaves
    (the player held one: as defenseless the decision is illegal, LG-2.4), when the record allows
    exactly those two positions; None otherwise (every position is expanded).  The same rulings
    as :func:`_check_branches`, without settling the position the decision rules out."""
    if s.alts or s.blind_step or type(e) not in _OWN or s.phase != "pick":
        return None
    unsure = [d for d in s.due if HIDDEN in s.player(d).slots]
    if unsure != [e.player]:
        return None
    p = s.player(e.player)
    if not _can_be_defenseless(r, s, p) or not playable_ids(r, s, p, possible(s, p)):
        return None
    t = replace(s, due=tuple(d for d in s.due if d != e.player))
    while t.due and t.phase == "pick":
        q = t.player(t.due[0])
        t = r.run(r.a_defenseless, t, E.Defenseless(player=q.id, cards=[c for c in q.slots if c is not None]))
    label = f"{e.player} held a playable card in round {s.round}"
    return _settled(r, replace(t, alts=(), assumed=_assume(s.assumed, label)))


def _check_held(r: Rules, s: State, e: Any, held: State) -> None:
    ruling = r.check(held, e)
    r._fits = (s, e, [held] if ruling.allowed else [], None)
    if not ruling.allowed:
        raise bad(ruling.rule or "LG-38", (ruling.code or "stated-mismatch").removeprefix(NS),
                   f"{ruling.message} (whatever the unknown battle card was)")
    if ruling.condition is not None:
        raise Undetermined(ruling.rule, ruling.code, ruling.message, f"{held.assumed}, and {ruling.condition}")
    raise Undetermined("LG-37", NS + "unknown-playable",
                       f"{kind_words(e)} is legal in only some of the positions this record allows (unknown cards decide)",
                       held.assumed)


def _check_branches(r: Rules, s: State, e: Any) -> None:
    branches = _branches(r, s)
    allowed, first, conditional = [], None, None
    for b in branches:
        ruling = r.check(b, e)
        if ruling.allowed:
            allowed.append(b)
            if ruling.condition is not None and conditional is None:
                conditional = ruling
        elif first is None:
            first = ruling
    r._fits = (s, e, allowed, None)
    if not allowed:
        if first is None:
            raise bad("LG-38", "stated-mismatch", f"{kind_words(e)}: no card the unknown battle card can be allows it")
        raise bad(first.rule or "LG-38", (first.code or "stated-mismatch").removeprefix(NS),
                   f"{first.message} (whatever the unknown battle card was)")
    if len(allowed) == len(branches) and not s.blind_step:
        return
    labels = [b.assumed for b in allowed]
    if len(allowed) == 1 and conditional is not None:  # the event's own condition, in that position
        raise Undetermined(conditional.rule, conditional.code, conditional.message, f"{labels[0]}, and {conditional.condition}")
    battle = any("battle card" in x for x in labels)
    raise Undetermined("LG-38" if battle else "LG-37", NS + ("unknown-battle-card" if battle else "unknown-playable"),
                       f"{kind_words(e)} is legal in only some of the positions this record allows (unknown cards decide)",
                       labels[0] if len(labels) == 1 else f"{labels[0]} (or: {'; '.join(labels[1:3])}{' ...' if len(labels) > 3 else ''})")


def apply_branches(r: Rules, s: State, e: Any) -> State:
    """Every position in which ``e`` is allowed, after it and what follows; duplicates merged,
    unfinished matches first."""
    outs: list[State] = []
    known = r._fits
    if known is not None and known[0] is s and known[1] is e:
        fits = known[2]
    else:
        fits = [b for b in _branches(r, s) if r.check(b, e).allowed]
    if len(fits) == 1:  # one position left: the verifier derives (and a record may state) what follows
        return replace(r.apply_plain(fits[0], e), assumed="")
    seen: list[State] = []
    for b in fits or _branches(r, s):  # none: an illegal event a judge let stand (LOG-5), wherever it applies
        try:
            t = _settled(r, r.apply_plain(b, e), before_end=True)
        except Exception:  # noqa: BLE001 - only unchecked (a judge's stands): the position it cannot be
            if fits:
                raise
            continue
        key = replace(t, assumed="")
        if key not in seen:  # the same position under another assumption: one is enough
            seen.append(key)
            outs.append(t)
    if not outs:
        raise ValueError(f"{kind_words(e)} applies in none of the positions the record allows")
    outs.sort(key=lambda t: t.result is not None)
    outs = outs[:MAX_ALTS]
    if len(outs) == 1:  # one position left: what it assumed is settled
        return replace(outs[0], assumed="")
    return replace(outs[0], alts=tuple(outs[1:]))


# -- conditions settled later (LG-37; the rest in pending.py) ---------------------------------------

def waiting(s: State, key: str) -> str | None:
    """The first open condition that ``key`` would settle (None: none)."""
    for x in s.pending:
        if key in x.needs:
            return x.condition
    return None


# -- LG-42: an effect that turns a record's unknown cards face up ------------------------------------

def _fire(r: Rules, s: State) -> tuple[Any, State]:
    return r.fire_next(s)  # (effects.py, which imports this module, through the rules)


def _shown(r: Rules, s: State) -> Any:
    """The event of the effect at the head of the queue when it turns unknown cards face up:
    Shuffle Hand into the discard pile, Remove Card Slot discarding a card (else None)."""
    ev = _fire(r, s)[0]
    if ev.cards is None or HIDDEN not in ev.cards:
        return None
    if (ev.copied or ev.effect) == "shuffle-hand" and s.options.shuffle_hand_to == "deck":
        return None  # into the deck: nobody sees them
    return ev


def shows_unseen(r: Rules, s: State) -> bool:
    """Does a seat's record wait at an effect that turns cards it does not know face up (LG-42)?
    Then the record may state the ``EffectResolved`` naming them; a record that leaves it out goes
    on with them unknown.  Where the match ends before anybody acts again, the engine derives the
    effect with them unknown and the end (nothing is left for a record to wait for)."""
    if not (s.unknowns and s.phase == "battle" and s.step == "effects" and s.effects):
        return False
    last = r._unseen  # the record asks it of one position again and again (precheck, apply, derive)
    if last is not None and last[0] is s:
        return last[1]  # type: ignore[no-any-return]
    shown = _shown(r, s)
    answer = shown is not None and _settled(r, _fire(r, s)[1]).result is None
    r._unseen = (s, answer)
    return answer


def _check_shown(r: Rules, s: State, e: Any) -> None:
    ev = _shown(r, s)
    assert ev is not None
    if type(e) is not E.EffectResolved or replace(bare(e), cards=None) != replace(ev, cards=None):
        raise _mismatch(r, s, e, f"the effect that fires now is {ev.effect} of {ev.player}'s {ev.card} ({ev.field}) on {ev.target}: {ev.result}")
    if e.cards is None or len(e.cards) != len(ev.cards):
        raise _mismatch(r, s, e, f"it moves {len(ev.cards)} card(s) out of {ev.target}'s card slots, "
                        f"{'none' if e.cards is None else len(e.cards)} named (LG-42)")
    q = s.player(ev.target)
    if (ev.copied or ev.effect) in LOOKS:
        return _check_look(s, q, e, ev)
    at = [n for h, n in zip(ev.cards, e.cards) if h == HIDDEN]  # LG-45: where the record knows what a look showed
    why = H.all_named_problem(q, at) if (ev.copied or ev.effect) == "shuffle-hand" else \
        next((w for n in at if n != HIDDEN and (w := H.named_problem(q, n))), None)
    if why is not None:
        raise bad("LG-45", "not-held", f"effect resolved names {', '.join(e.cards)}, but {why}")
    for have, named in zip(ev.cards, e.cards):
        if have != HIDDEN:
            if named != have:
                raise _mismatch(r, s, e, f"{q.id}'s card slots hold {have} where {named} is named")
        elif named != HIDDEN:
            check_reveal(s, q, named, f"effect resolved names {named} among the cards {ev.copied or ev.effect} moved")
            q = take(s, q, named)


def _check_look(s: State, q: Player, e: Any, ev: Any) -> None:
    """LG-43: the cards the record knows there among those named (in any order: it does not know
    where a card it did not see went), every other one a card the unknown ones can be."""
    left = list(e.cards)
    for have in (c for c in ev.cards if c != HIDDEN):
        if have not in left:
            raise bad("LG-38", "stated-mismatch", f"the log states effect resolved by the engine's rules, but "
                      f"{q.id}'s cards it looks at hold {have}, which it does not name")
        left.remove(have)
    for named in left:
        if named != HIDDEN:
            check_reveal(s, q, named, f"effect resolved names {named} among {q.id}'s cards it looks at")


def _apply_shown(r: Rules, s: State, e: Any) -> State:
    """The effect fired with the cards the record names in the target's unknown slots."""
    ev = _shown(r, s)
    assert ev is not None
    p = s.player(ev.target)
    if (ev.copied or ev.effect) in LOOKS:  # LG-43: checked, nothing named in place (see _check_look)
        return _fire(r, s)[1]
    slots = list(p.slots)
    where = [i for i, c in enumerate(slots) if c is not None] if (ev.copied or ev.effect) == "shuffle-hand" else [len(slots) - 1]
    for i, named in zip(where, e.cards):
        if slots[i] == HIDDEN and named != HIDDEN:
            p = take(s, p, named)
            slots[i] = named
    return _fire(r, _with(s, replace(p, slots=tuple(slots))))[1]


class Decided(Undetermined):
    """A decision judged where a seat's record left out an effect that showed it cards (LG-42): the
    ruling it has in the positions after that effect (the check wrapper gives ``ruling()``), not
    in the position waiting for the record to name them."""

    def __init__(self, ruling: Any) -> None:
        Exception.__init__(self, ruling.message)
        self._ruling = ruling

    def ruling(self) -> Any:
        return self._ruling


def check_after_shown(r: Rules, s: State, e: Any) -> None:
    """A decision where the record waits for an effect to name the cards it showed and states
    nothing of it: judged after the effect, those cards unknown (raises the ruling)."""
    _check_branches(r, s, e)  # illegal or undetermined in some positions: raised there
    raise Decided(r.check(r._fits[2][0], e))  # type: ignore[index]
