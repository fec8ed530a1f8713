"""What one player sees of a LOGOS match: the one place its hiding is written.

:func:`observe` masks a position, :func:`redact` an event; the judge (``player=None``) is never
passed here.  ``view``, ``scene``, the text render and the viewers' event lists all go through
these two (via :class:`~adjudicator.core.kernel.kit.KitGame`):

- nobody sees a deck (its order is unknown to everybody; the deck keeps its size);
- the opponent's card slots, Backup card and committed battle card until it is revealed;
- the opponent's deck list;
- and, in events, the opponent's draws and Backup card (a hidden pick is a commitment; an open
  pick, option ``picks = "open"``, is public at once: LG-6).

A hidden pick's commitment (a hash) is public; the card behind it is unknown even to the judge
until ``PickRevealed`` opens it, so the judge's position holds no identity for it to mask.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN, CardsLooked, Event, hidden, masked
from adjudicator.core.kernel.kit import seated

from . import events as E
from .cards import LOOKS
from .state import Player, Seen, State


def observe(s: State, player: str) -> State:
    """The position as ``player`` sees it: hidden cards are :data:`HIDDEN`, sizes kept; a card the
    seat saw in events a judge took back stays named (LG-41)."""
    if s.seen:
        seen = tuple(Seen(k.player, top=k.top) if k.player == player else Seen(k.player, shown=k.shown)
                     for k in s.seen if (k.top if k.player == player else k.shown))
        return seated(s, player, lambda p, mine: _seat_knowing(s, p, mine), setup=redact(s.setup, player), seen=seen)
    return seated(s, player, _seat, setup=redact(s.setup, player))


def _seat(p: Player, mine: bool) -> Player:
    if mine:  # LG-44: the cards a look of its own put on top, in order, above the unknown rest
        return replace(p, deck=p.top + hidden(p.deck[len(p.top):]) if p.top else hidden(p.deck))
    return replace(p, deck=hidden(p.deck), top=hidden(p.top), slots=tuple(None if c is None else HIDDEN for c in p.slots),
                   backup=None if p.backup is None else HIDDEN,
                   battle=p.battle if p.battle is None or p.public else HIDDEN)


def _seat_knowing(s: State, p: Player, mine: bool) -> Player:
    """:func:`_seat` with what the viewer learnt of ``p``'s cards (LG-41): its own cards known on
    top of its deck first, the opponent's cards it saw in their card slots and Backup Slot."""
    k = _knowledge(s, p.id)
    q = _seat(p, mine)
    if mine:  # the cards known in order (LG-44) first, then those known on top in no order (LG-41)
        more = tuple(_minus(k.top, p.top))
        return replace(q, deck=p.top + more + q.deck[len(p.top) + len(more):]) if more else q
    if not k.shown:
        return q
    known = list(k.shown)
    slots = []
    for c in p.slots:
        if c is not None and c in known:
            known.remove(c)
            slots.append(c)
        else:
            slots.append(None if c is None else HIDDEN)
    backup = q.backup
    if p.backup is not None and p.backup in known:
        backup = p.backup
    return replace(q, slots=tuple(slots), backup=backup)


def _knowledge(s: State, pid: str) -> Seen:
    for k in s.seen:
        if k.player == pid:
            return k
    return Seen(pid)


def shown_to_opponent(s: State, pid: str) -> tuple[str, ...]:
    """The cards of ``pid``'s card slots and Backup Slot its opponent saw (LG-41)."""
    return _knowledge(s, pid).shown if s.seen else ()


# -- LG-41: a seat cannot unsee --------------------------------------------------------------------

def _hidden_zones(p: Player) -> list[str]:
    """The cards of ``p`` its opponent cannot see: card slots and Backup Slot (named only)."""
    out = [c for c in p.slots if c is not None and c != HIDDEN]
    if p.backup is not None and p.backup != HIDDEN:
        out.append(p.backup)
    return out


def _face_up(p: Player) -> list[str]:
    """The cards of ``p`` both seats see: the discard pile and a battle card shown."""
    out = [c for c in p.discard if c != HIDDEN]
    if p.battle is not None and p.battle != HIDDEN and p.public:
        out.append(p.battle)
    return out


def _minus(a: list[str] | tuple[str, ...], b: list[str] | tuple[str, ...]) -> list[str]:
    """The multiset ``a`` without ``b``."""
    left = list(a)
    for c in b:
        if c in left:
            left.remove(c)
    return left


def _within(a: list[str], b: list[str]) -> list[str]:
    """The multiset intersection of ``a`` and ``b``, in ``a``'s order."""
    pool, out = list(b), []
    for c in a:
        if c in pool:
            pool.remove(c)
            out.append(c)
    return out


def keep_seen(state: State, annulled: State, events: Sequence[Event] = ()) -> State:
    """The position a judge's take-back returns to (``state``) with what each seat learnt in the
    events taken back (``annulled``: the position they left at the table) kept (LG-41, FIDE 7.5):
    a card of a player's card slots or Backup Slot that the annulled events turned face up (a
    pick revealed or played openly, a called Backup card, a defenseless player's cards, a card an
    effect discarded) stays known to the opponent, and the cards a player drew in them and put back
    stay known to it, on top of its deck.  Only a card the position shows there is kept: in a
    seat's record an opponent's unknown card (``"?"``) is not named from a card the annulled events
    showed (the event taken back may have played a card from nowhere); the record names it where a
    later event shows it (``redact`` writes it, from the full log's knowledge).

    ``events`` (the events taken back, as the log states them: ``Game.keep_seen_of``) name what
    the position they left may no longer show: a card picked, called or drawn in them whose
    discard pile went back into the deck (LG-4) before the ruling."""
    if len(state.players) != 2 or len(annulled.players) != 2:
        return state
    seen = {k.player: k for k in state.seen}
    for i, p in enumerate(state.players):
        then = annulled.players[i]
        shown = _union(_minus(_face_up(then), _face_up(p)), _shown_in(events, p.id))  # turned face up by them
        k = seen.get(p.id, Seen(p.id))
        more = _within(shown, _minus(_hidden_zones(p), k.shown))
        drawn = _union([c for c in _minus(p.deck, then.deck) if c != HIDDEN],
                       [e.card for e in events if type(e) is E.CardDrawn and e.player == p.id
                        and e.card is not None and e.card != HIDDEN])
        drawn = _union(drawn, _looked(events, p.id))  # LG-44: what its own look saw is on top too
        top = tuple(sorted(_within(drawn, _minus(_minus(p.deck, k.top), p.top)))) if drawn else ()
        if more or top:
            seen[p.id] = Seen(p.id, tuple(sorted(k.shown + tuple(more))), tuple(sorted(k.top + top)))
    return replace(state, seen=tuple(seen[p.id] for p in state.players if p.id in seen))


def _looked(events: Sequence[Event], pid: str) -> list[str]:
    """The cards ``pid``'s own looks at its deck's top among ``events`` saw (LG-44), named only."""
    out: list[str] = []
    for e in events:
        if type(e) is CardsLooked and e.player == pid and e.owner == pid:
            out = _union(out, [c for c in e.cards if c is not None and c != HIDDEN])
    return out


def shown_to(s: State, pid: str, cards: list[str]) -> State:
    """``s`` with ``cards`` of ``pid``'s card slots and Backup Slot known to its opponent (a look,
    LG-43): those the position names there and the opponent did not know yet."""
    if len(s.players) != 2:
        return s
    seen = {k.player: k for k in s.seen}
    k = seen.get(pid, Seen(pid))
    more = _within([c for c in cards if c != HIDDEN], _minus(_hidden_zones(s.player(pid)), k.shown))
    if not more:
        return s
    seen[pid] = Seen(pid, tuple(sorted(k.shown + tuple(more))), k.top)
    known = tuple(seen[p.id] for p in s.players if p.id in seen)
    if s.__class__ is State:
        return replace(s, seen=known)
    s.seen = known  # a working position (working.py): in place, as every effect writes it
    return s


def _union(a: list[str], b: list[str]) -> list[str]:
    """The multiset union of ``a`` and ``b`` (each card as many times as the larger holds it)."""
    return a + _minus(b, a)


def _shown_in(events: Sequence[Event], pid: str) -> list[str]:
    """The cards of ``pid``'s card slots and Backup Slot that ``events`` name as turned face up:
    a pick revealed or made openly, a Backup card called by name, a defenseless player's cards."""
    out: list[str] = []
    for e in events:
        t = type(e)
        if t in (E.PickRevealed, E.CardPicked, E.BackupCalled) and e.player == pid:  # type: ignore[attr-defined]
            card = e.card  # type: ignore[attr-defined]
            if card is not None and card != HIDDEN:
                out.append(card)
        elif t is E.Defenseless and e.player == pid:  # type: ignore[attr-defined]
            out += [c for c in e.cards if c != HIDDEN]  # type: ignore[attr-defined]
    return out


def forget(before: State, after: State) -> State:
    """``after`` (the position an event left, ``before`` held what seats learnt) without what no
    longer holds: a known card that left the card slots and Backup Slot is no longer there to be
    known; a card known on top of a deck leaves it when it is drawn (LG-41)."""
    if len(after.players) != 2:
        return after
    out = []
    for k in after.seen:
        b, a = before.player(k.player), after.player(k.player)
        shown = tuple(_minus(k.shown, _minus(_hidden_zones(b), _hidden_zones(a)))) if k.shown else ()
        top = tuple(_minus(k.top, _minus(b.deck, a.deck))) if k.top else ()
        top = tuple(_within(list(top), list(a.deck)))
        if shown or top:
            out.append(Seen(k.player, shown, top))
    return replace(after, seen=tuple(out))


def _to_deck(e: E.EffectResolved, state: State | None) -> bool:
    """Did ``e`` move the cards it names into a deck (Shuffle Hand, ``shuffle_hand_to = "deck"``)?
    Without the position, assumed so (nothing is shown that might not have been)."""
    if (e.copied or e.effect) != "shuffle-hand":
        return False
    return state is None or state.options.shuffle_hand_to == "deck"


def _effect_seen(e: E.EffectResolved, player: str, state: State | None) -> E.EffectResolved:
    """LG-42: the cards an effect moved out of the target's card slots, named for the target and,
    when they went face up into the discard pile, for the opponent; shuffled into the deck, the
    opponent saw them go unseen.  ``state``: the position the log's events reached around it
    (settled); where the match ended there before anybody acted again, the opponent's record
    derives the effect with them unknown, and has them so."""
    if not e.cards or e.target == player:
        return e
    if not _to_deck(e, state) and (state is None or state.result is None):
        return e
    return replace(e, cards=[HIDDEN] * len(e.cards))


def redact(event: Event, player: str, state: State | None = None) -> Event:
    """``event`` as ``player`` saw it at the table; ``state``, the full position before it, names
    what the seat saw though the event does not: a called Backup card is turned face up for both
    players (LG-39)."""
    t = type(event)
    if t is E.BackupCalled:
        if state is not None and event.card is None and len(state.players) == 2:
            shown = state.player(event.player).backup  # type: ignore[attr-defined]
            if shown is not None and shown != HIDDEN:
                return replace(event, card=shown)
        return event
    if t is E.MatchStarted:
        return replace(event, decks={p: (d if p == player else {}) for p, d in event.decks.items()})
    if t is E.EffectResolved:
        return _effect_seen(event, player, state)  # type: ignore[arg-type]
    if getattr(event, "player", player) == player:
        return event
    if t is E.CardDrawn or t is E.BackupAssigned:  # an open pick is public (LG-6)
        if t is E.BackupAssigned and state is not None and event.card in shown_to_opponent(state, event.player):  # type: ignore[attr-defined]
            return event  # a card the seat saw in events a judge took back (LG-41)
        return masked(event, "card")
    return event


def shows_seat(event: Event, player: str, state: State | None = None) -> bool:
    """Whether the derived ``event`` is a public fact ``player``'s record must state because its own
    engine cannot derive it: the opponent's deck rebuilt from their discard pile (LG-4), which the
    table sees, while a record that does not know the opponent's deck list (LG-35) cannot tell
    when that deck runs out; the opponent declared defenseless (LG-5), which the table sees, while
    the record does not know whether their hidden cards could be played (before, the record
    stayed undetermined on it: issue 32, item 7); and what a look (LG-43) showed the seat of the
    opponent's cards.  Stated, it keeps the record's discard pile and deck as the table's
    (unstated, the opponent's discard pile grew for the whole match: a record verified in
    quadratic time, 9.5x the full log's time per event at 64,000 events, issue 29)."""
    if type(event) is E.EffectResolved:  # LG-43: what a look showed the looker, which its record cannot derive
        return event.player == player and event.target != player and event.result == "applied" \
            and (event.copied or event.effect) in LOOKS
    return (type(event) is E.DeckRebuilt or type(event) is E.Defenseless) and event.player != player
