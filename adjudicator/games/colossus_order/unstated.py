"""A seat's record (CO-39.2, CO-39.4, CO-39.5): the consequences the engine cannot derive because they
show a card the record leaves unknown, stated by the record or left out of it.

A mixin of :class:`~adjudicator.games.colossus_order.rules.Rules` (its methods call one
another through ``self``); pure: check handlers raise or return a ruling, apply handlers
return a new position.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from adjudicator.core.kernel.kit import checks
from adjudicator.core.kernel.events import HIDDEN, bare
from adjudicator.core.kernel.rulings import Illegal, Ruling, Undetermined
from adjudicator.core.kernel.notation import kind_words

from . import unknowns
from . import events as E
from .state import Battle, Flipped, UnknownLocusHit, RevealLocus, State
from .positions import NS, bad, frozen, pool_of, with_player, _is_gem, _not_gem, push, put
from .conditions import face_up_condition, hit_condition
from .words import words

#: the steps whose consequence may show a card the record leaves unknown (Rules.blind), and that
#: consequence's event type
BLIND = {Battle: E.BattleResolved, RevealLocus: E.LocusRevealed, Flipped: E.LocusFlipped}
#: the steps where check and apply may first have to follow what the record leaves unstated
#: (:func:`seat_check_of`, :func:`seat_apply`)
WAITING = frozenset({*BLIND, UnknownLocusHit})


class Unstated:
    """A seat's record."""

    def after_unknown_hit(self, s: State, e: Any) -> tuple[State, bool]:
        """CO-39.5: the position once the record's next event ``e`` has said whether the unknown
        Locus card hit was a Gem (the owner's CardDrawn: it was), and which it said."""
        h = s.todo[0]
        gem = type(e) is E.CardDrawn and e.player == h.player
        s = put(s, conditions=s.conditions + (hit_condition(h, gem),))
        return self.locus_hit(push(s, drop=1), h.attacker, h.player, h.slot, HIDDEN, gem), gem

    def check_after_unknown_hit(self, s: State, e: Any) -> Ruling:
        h = s.todo[0]
        after, gem = self.after_unknown_hit(s, e)
        ruling = self._kit_check(after, e)
        if ruling.verdict == "illegal":
            return ruling
        owner = s.player(h.player)
        pool = pool_of(s)
        if not unknowns.could_be(owner, pool, _is_gem if gem else _not_gem):
            what = "a Gem" if gem else "not a Gem"
            return bad("CO-39.5", "impossible-identity",
                       f"{kind_words(e)} after {h.attacker}'s attack on {h.player}'s unknown Locus slot {h.slot} "
                       f"means that card was {what}, but {h.player}'s unknown cards can only be {', '.join(unknowns.possible(owner)) or 'nothing'}").ruling()
        cond = hit_condition(h, gem)
        return Ruling("undetermined", "CO-39.5", NS + "locus-hit-unknown", ruling.message, ruling.engine_checked, condition=cond)

    def blind(self, s: State) -> Any:
        """The consequence the engine cannot derive here because it shows a card the record leaves
        unknown (``"?"`` in it), or None: a battle that hits an unknown Locus card, a Complete
        Declaration of unknown Locus cards.  The record states it with the cards named (the seat
        saw them), or goes on without it (the event with ``"?"``: the next event decides)."""
        todo = s.todo
        if not todo or s.result is not None or s.pending_ends:
            return None
        t = todo[0].__class__
        if t in BLIND and self.state_based(s) is not None:
            return None  # a follower destroyed (or the end) comes first: the engine derives it
        if t is Battle:
            b = self.battle(s)
            return b if b.card == HIDDEN and b.result == "locus-hit" else None
        if t is RevealLocus:
            r = self.reveal_locus(s, todo[0])
            return r if HIDDEN in r.cards else None
        if t is Flipped:
            f = self.flipped(s, todo[0])
            return f if f.card == HIDDEN else None
        return None

    def follows_stated(self, s: State) -> bool:
        todo = s.todo
        if not todo or todo[0].__class__ not in BLIND:
            return False
        return self.blind(s) is not None

    def unstated(self, s: State, blind: Any) -> State:
        """The position after the blind consequence with its unknown cards left ``"?"`` (the record
        went on without stating it) and what that forces."""
        s = self._kit_apply(s, blind)
        for _ in range(8):  # a locus hit or a failed declaration waits for a decision at once
            d = self.derive(s)
            if d is None:
                break
            s = self.apply(s, d)
        return s

    @checks(E.BattleResolved, E.LocusRevealed, E.LocusFlipped, rule="CO-39.2")
    def c_stated(self, s: State, e: Any) -> None:
        """A consequence stated where the engine waits for it (:meth:`blind`): the same as the
        engine's but for the unknown cards, which it names as cards they can be."""
        blind = self.blind(s)
        if blind is None or type(blind) is not type(e):
            raise bad("CO-3.1", "unexpected-event", f"{kind_words(e)} cannot be proposed")
        field = "cards" if type(e) is E.LocusRevealed else "card"
        stated = getattr(e, field)
        named = [stated] if field == "card" else list(stated)
        expect = [blind.card] if field == "card" else list(blind.cards)
        merged = [c if was == HIDDEN else was for was, c in zip(expect, named)] if len(named) == len(expect) else expect
        derived = replace(blind, **{field: merged[0] if field == "card" else merged})
        if bare(e) != bare(derived):  # everything but the unknown cards is the engine's to derive (LOG-2)
            game = "the engine derives"
            raise Illegal("LOG-2", "core/derived-mismatch", f"the log states {words(e, s) or kind_words(e)} "
                                                           f"but {game} {words(blind, s) or kind_words(blind)} (\"?\": a card this record leaves unknown)")
        unknown_as = [HIDDEN if unknowns.unknown(c) else c for c in named]
        owner = s.player(s.other(blind.player) if type(e) is E.BattleResolved else blind.player)
        unseen = owner.unseen
        pool = pool_of(s)
        shown: list[str] = []  # named from the unknown cards by this event: they count (CO-39.1)
        for was, c in zip(expect, unknown_as):
            if was != HIDDEN or c == HIDDEN:
                continue
            what = f"{kind_words(e)} shows {c} in {owner.id}'s Locus"
            if c not in unseen:
                raise bad("CO-39.2", "impossible-identity", f"{what}, but {unknowns.where(s, owner, c)}")
            problem = unknowns.breaks_construction(s, owner, c, pool, shown)
            if problem is not None:
                raise bad(*problem)
            unseen = unknowns.remove_one(unseen, c)
            shown.append(c)
        slots = blind.slots if field == "cards" else [blind.slot]
        for slot, c in zip(slots, unknown_as):
            cond = face_up_condition(s, owner.id, slot)
            if cond is not None and c != HIDDEN and pool[c].is_gem:  # CO-39.5: settled against the record
                raise Illegal("CO-39.5", NS + "impossible-identity", f"{kind_words(e)} shows {c}, a Gem, in {owner.id}'s "
                                                                     f"Locus slot {slot}", settles=cond)

    def name_slots(self, s: State, player: str, named: dict[int, Any]) -> State:
        """``s`` with the unknown cards of ``player``'s Locus slots named (taken from ``unseen``)."""
        p = s.player(player)
        unseen = p.unseen
        locus = []
        for sl in p.locus:
            c = named.get(sl.id)
            if sl.card == HIDDEN and c is not None and not unknowns.unknown(c):
                if c in unseen:
                    unseen = unknowns.remove_one(unseen, c)
                sl = replace(sl, card=c)
                cond = face_up_condition(s, player, sl.id) if s.conditions else None
                if cond is not None:  # CO-39.5: the card hit was not a Gem after all: settled
                    s = put(s, conditions=tuple(x for x in s.conditions if x != cond))
            locus.append(sl)
        return with_player(s, player, locus=tuple(locus), unseen=unseen)


def seat_check_of(kit_check: Any, table: dict[type, Any], accepted: dict[type, Ruling]) -> Any:
    """The check of :class:`~adjudicator.games.colossus_order.rules.Rules`: one step a position
    waiting on what a seat's record leaves unstated takes first (:data:`WAITING`), then the kit's
    check (``kit_check``, its handler ``table`` and ``accepted`` rulings) in one frame: the verify
    loop calls it on every event.  An event the fast path does not settle by itself (no handler,
    a player who is not in the match, an error raised by a handler) is handed to ``kit_check``,
    which rules on it as it always did (a handler is pure: running it again gives the same)."""

    def seat_check(self: Any, s: State, e: Any) -> Ruling:
        todo = s.todo
        if todo and todo[0].__class__ in WAITING:
            s = frozen(s)  # (what follows applies to a copy: never to the fold's working position)
            t = todo[0].__class__
            if t is UnknownLocusHit:
                return self.check_after_unknown_hit(s, e)
            if e.__class__ is not BLIND[t]:
                blind = self.blind(s)
                if blind is not None:  # the record went on without stating it
                    return seat_check(self, self.unstated(s, blind), e)
            return kit_check(self, s, e)
        fn = table.get(e.__class__)
        who = getattr(e, "player", None)
        if fn is None or (who is not None and who != s.players[0].id and who != s.players[1].id):
            return kit_check(self, s, e)  # not proposed, or the kit's precheck rejects it
        try:
            return fn(self, s, e) or accepted[e.__class__]
        except (Illegal, Undetermined) as x:
            return self.in_words(s, x.ruling())
        except Exception:  # noqa: BLE001 - the kit's check says what a lookup error means (or raises)
            return kit_check(self, s, e)
    return seat_check


def seat_apply(self: Any, s: State, e: Any) -> State:
    todo = s.todo
    if todo and todo[0].__class__ in WAITING:
        t = todo[0].__class__
        if t is not UnknownLocusHit and e.__class__ is not BLIND[t]:
            blind = self.blind(s)
            if blind is not None:
                s = self.unstated(s, blind)
                todo = s.todo
                t = todo[0].__class__ if todo else None
        if t is UnknownLocusHit:
            s = self.after_unknown_hit(s, e)[0]
    return self._applies[e.__class__](self, s, e)  # the kit's apply (RulesBase.apply), inlined
