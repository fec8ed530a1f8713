"""What one player sees of a Colossus Order match: the one place its hiding is written.

:func:`observe` masks a position, :func:`redact` an event; the judge (``player=None``) is never
passed here.  ``view``, ``scene``, the text render and the viewers' event lists all go through
these two (via :class:`~adjudicator.core.kernel.kit.KitGame`), so what a seat cannot see is decided once:

- nobody sees the unknown part of a deck (it keeps its size); the cards a player returned to the
  bottom in the opening exchange stay known to that player only; the cards known on top of a deck
  (revealed and left there) and those put on its bottom by an effect are known to both (CO-36);
- the opponent's hand, and the opponent's Locus cards that are face down and not known (a failed
  Complete Declaration makes them known);
- the opponent's deck list (the Colossus is public);
- and, in events, the opponent's draws, returned cards, Locus cards set or replaced face down
  (a commitment held there instead of the card is public: it stays, CO-40).
"""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from adjudicator.core.kernel.commitments import looks_like
from adjudicator.core.kernel.events import HIDDEN, Event, hidden, masked
from adjudicator.core.kernel.kit import seated

from . import deck, unknowns
from . import events as E
from .state import LocusSlot, Player, State
from .unknowns import unknown


def observe(s: State, player: str) -> State:
    """The position as ``player`` sees it: hidden cards are :data:`HIDDEN`, sizes kept; the cards
    a player looked at on top of a deck (CO-42) are shown to that player alone."""
    return seated(s, player, lambda p, mine: _seat(p, mine, player), setup=redact(s.setup, player))


def _seat(p: Player, mine: bool, viewer: str | None = None) -> Player:
    peek = p.deck_peek if p.peek_by == viewer else hidden(p.deck_peek)  # CO-42: the looker's alone
    if mine:
        return replace(p, deck_top=hidden(p.deck_top), deck_peek=peek)
    return replace(p, deck_top=hidden(p.deck_top), deck_bottom=hidden(p.deck_bottom), hand=hidden(p.hand),
                   locus=tuple(_slot(sl) for sl in p.locus), deck_peek=peek)


def _slot(sl: LocusSlot) -> LocusSlot:
    return sl if sl.face_up or sl.known or sl.card is None else replace(sl, card=HIDDEN)


def redact(event: Event, player: str, state: State | None = None) -> Event:
    """``event`` as ``player`` saw it at the table; ``state``, the full position before it, says
    what the seat knew then: a card drawn from the top of a deck where both players know it
    (revealed and left there, put there or under it by an effect, CO-36) stays named."""
    t = type(event)
    if t is E.MatchStarted:
        return replace(event, decks={p: (d if p == player else _unknown_list(d, event)) for p, d in event.decks.items()})
    if getattr(event, "player", player) == player:
        return event
    if t is E.CardDrawn:
        if looks_like(event.card) or (state is not None and event.card == _known_top(state, event.player, player)):
            return event  # a commitment is public (CO-40); so is a card the seat knows is on top
        return masked(event, "card")  # (a draw the log names otherwise: the seat saw a card drawn, not which)
    if t is E.LocusReplaced or (t is E.CardSet and event.zone == "locus"):
        return event if looks_like(event.card) else masked(event, "card")  # a commitment is public (CO-40)
    if t is E.CardsReturned:
        return replace(event, cards=[c if looks_like(c) else HIDDEN for c in event.cards])
    return event


def _unknown_list(d: E.DeckList, setup: E.MatchStarted) -> E.DeckList:
    """The opponent's deck list as a seat sees it (CO-39.1): the Colossus, and the deck's size
    where the construction rules do not fix it (``deck_validation = "off"``)."""
    off = setup.options.get("deck_validation") == "off"
    return E.DeckList(colossus=d.colossus, cards={}, size=sum(d.cards.values()) if off else None)


def _known_top(s: State, owner: str, player: str) -> str | None:
    """The top card of ``owner``'s deck where ``player`` knows it: known to both (CO-36), or looked
    at by ``player`` (CO-42); else None.  A draw the full log names otherwise is not what the seat
    saw (issue 32: the record says ``"?"``, never the log's card)."""
    p = s.player(owner)
    if p.deck_known:
        return p.deck_known[0]
    if p.deck_peek:
        return p.deck_peek[0] if p.peek_by == player else None
    return p.deck_under[0] if not p.deck_top and not p.deck_bottom and not p.deck_mixed and p.deck_under else None


def shows_seat(event: Event, player: str, state: State | None) -> bool:
    """A derived event a log leaves out that shows ``player`` an opponent's Locus card its record
    leaves unknown (face down, not known to it): the attack that hits it (CO-39.5), the Complete
    Declaration that reveals it (CO-39.4).  The seat's record states it (``redact``)."""
    t = type(event)
    if t is E.BattleResolved:
        if event.result != "locus-hit" or event.player != player or state is None:
            return False
        owner = state.opponent(player)
        return any(sl.id == event.slot and not (sl.face_up or sl.known) for sl in owner.locus)
    if t is E.LocusRevealed or t is E.LocusFlipped:
        if event.player == player or state is None:
            return False
        owner = state.player(event.player)
        slots = event.slots if t is E.LocusRevealed else [event.slot]
        return any(sl.id in slots and not sl.known for sl in owner.locus)
    return False


# -- a taking back (CO-44): what the seats saw is not unseen ---------------------------------------

#: how a card put back on a deck by a taking back became known to both players (``known_why``)
TAKEN_BACK_WHY = "seen by both players in events a judge's ruling took back (CO-44)"


def keep_seen(state: State, annulled: State) -> State:
    """CO-44 (FIDE 7.5): the position a judge's taking back returns to (``state``) with what the seats
    learnt in the events taken back (``annulled``: the position those events left at the table) kept.
    The cards those events took from the top of a deck go back on top, in the order they came off
    it, known to the seats that saw them: a card a player drew to the deck owner alone
    (``deck_peek``), a card shown to both (discarded, played, captured, revealed) to both
    (``deck_known``), a single card looked at to the looker; a look at a hand leaves the cards the
    looker's record named there named.  Where the order they came off in is not known (two or more
    cards that did not all stay in the hand they were drawn to), nothing is kept of it (CO-44)."""
    as_listed = state.options.returned_order == "as-listed"
    players = tuple(_named_hand(_kept(p, a, as_listed), a) for p, a in zip(state.players, annulled.players))
    if all(x is y for x, y in zip(players, state.players)):
        return state
    return replace(state, players=players)


def _deck(p: Player) -> Counter[str]:
    return Counter(p.deck_known + p.deck_peek + p.deck_mixed + p.deck_top + p.deck_bottom + p.deck_under)


def _excess(after: tuple[str, ...], before: tuple[str, ...]) -> list[str]:
    """The cards of ``after`` beyond those of ``before`` (multisets), in ``after``'s order."""
    left = Counter(before)
    out = []
    for c in after:
        if left[c] > 0:
            left[c] -= 1
        else:
            out.append(c)
    return out


def _kept(p: Player, a: Player, as_listed: bool) -> Player:
    """``p``'s deck with the top cards the annulled events showed (``a``: ``p`` at the table after
    them) put back on top, known to whoever saw them."""
    if p.revealed:  # a deck hit's cards are shown already (CO-7.7): the capture that follows shows no more
        return p
    n = p.deck_count - a.deck_count  # the cards that left the deck (a record may name some of them meanwhile)
    gone = _deck(p) - _deck(a)
    whys = p.known_why
    drawn = _excess(a.hand, p.hand)
    if n > 0 and len(drawn) == n:  # drawn and still in hand: in the order drawn, seen by the owner
        order, seers = drawn, [frozenset({p.id})] * len(drawn)
    elif n == 1:  # one card left the deck: where it went says who saw it (and, in a record, what it was)
        face_down = [sl for sl in a.locus[len(p.locus):] if not (sl.face_up or sl.known)]
        if face_down:  # into the Locus face down (CO-43): nobody saw it
            order, seers = [face_down[-1].card], [frozenset()]
        elif len(a.discard) > len(p.discard):  # milled (or drawn and played): shown to both
            order, seers = [a.discard[-1]], [_BOTH]
        elif sum(gone.values()) == 1:  # played, captured: shown to both
            order, seers = [next(iter(gone))], [_BOTH]
        else:
            return p
    elif n == 0 and len(a.revealed) == 1 and not p.revealed:  # a deck hit's single card, shown to both
        order, seers = list(a.revealed), [_BOTH]
    elif n == 0 and len(a.deck_peek) == 1 and not p.deck_peek and a.peek_by is not None:  # a look at one card
        order, seers = list(a.deck_peek), [frozenset({a.peek_by})]
    elif n == 0 and len(a.deck_known) > len(p.deck_known) and a.deck_known[:len(p.deck_known)] == p.deck_known:
        order, seers = list(a.deck_known), [_BOTH] * len(a.deck_known)  # revealed and left on top (CO-36)
        whys = a.known_why
    else:
        return p
    rest = p
    known: list[tuple[str, frozenset[str]]] = []  # the top cards, top first, and who knows each
    for card in order:
        if not unknown(card) and deck.next_problem(rest, card, as_listed, "draws") is not None:
            return p  # not the top of this deck as the position knows it: nothing to keep
        before = frozenset({"*"}) if rest.deck_known else frozenset({rest.peek_by}) if rest.deck_peek else frozenset()
        if unknown(card):
            rest, card = deck.take_unknown_top(rest, as_listed)
        else:
            rest = deck.take(rest, card, as_listed)
        known.append((card, before | seers[len(known)]))
    if rest.deck_known:
        return p  # every card came from those known to both: nothing new
    top_known, why, peek, peek_by = [], [], [], rest.peek_by if rest.deck_peek else None
    for card, who in known:
        both = "*" in who or len(who - {None}) >= 2
        if both and not peek:
            top_known.append(card)
            why.append(whys[len(top_known) - 1] if len(top_known) <= len(whys) else TAKEN_BACK_WHY)
            continue
        one = peek_by if both else next(iter(who - {None}), None)  # (a card both know, below one seat's: that seat's)
        if one is None or (peek_by is not None and one != peek_by):
            break  # a card nobody saw (or another seat's) above the rest: the rest's order is not kept
        peek.append(card)
        peek_by = one
    else:
        return replace(rest, deck_known=tuple(top_known), known_why=tuple(why),
                       deck_peek=tuple(peek) + rest.deck_peek, peek_by=peek_by)
    return p


_BOTH = frozenset({"*"})


def _named_hand(p: Player, a: Player) -> Player:
    """CO-41 in a seat's record: the cards of ``p``'s hand a look taken back named (``a``: ``p`` at
    the table after it) stay named (FIDE 7.5: what was seen stays seen), when no card entered the
    hand in the events taken back (no draw, no follower back to hand): each card the look named
    beyond those known was one of ``p``'s unknown cards then.  Cards that left the hand meanwhile
    (set face down unnamed, played) do not matter: the look named cards still there, so there
    before too."""
    unknown = p.hand.count(HIDDEN)
    if not unknown or a.deck_count < p.deck_count or not {f.handle for f in p.field} <= {f.handle for f in a.field}:
        return p
    new = Counter(c for c in a.hand if c != HIDDEN) - Counter(c for c in p.hand if c != HIDDEN)
    if not new or sum(new.values()) > unknown:
        return p
    unseen = p.unseen
    for c in sorted(new.elements()):
        i = unseen.index(c) if c in unseen else -1
        if i < 0 or unknowns.hand_problem(p, c, "") is not None:
            return p
        unseen = unseen[:i] + unseen[i + 1:]
    hand = tuple(c for c in p.hand if c != HIDDEN) + tuple(sorted(new.elements()))
    hand += (HIDDEN,) * (len(p.hand) - len(hand))
    return replace(p, hand=hand, unseen=unseen, hand_could=unknowns.hand_could(p, hand, unseen))
