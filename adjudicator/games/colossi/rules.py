"""Colossi rules: pure check / apply / derive / legal events (the game's glue of the parts).

``check`` (the handlers: :mod:`checks`) raises :class:`Illegal` inside helpers and returns a
Ruling; it never mutates (it reads a State or the fold's working position, :class:`working.W`,
alike).  ``apply_to`` applies an event to a working position in place with its immediate
consequences (the handlers: :mod:`applies`) and lets the engine run its own continuations
(:mod:`pump`); ``apply`` (the frozen contract) runs it on a copy of a State and freezes a new
one.  ``derive`` gives the next consequence the
rules force (the Gold target, a turn starting or ending, Replenish, the end of the match).
``legal_events`` enumerates candidates and keeps those ``check`` accepts, so the two never
disagree.  Choices a card, tile or Trait asks for later are answered against ``task_options``
(:mod:`options`), the complete list of what the text allows at that point.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.kit import Owed, RulesBase, head
from adjudicator.core.kernel.rulings import Illegal, Ruling, Undefined, Undetermined, legal
from adjudicator.core.kernel.notation import kind_words, name_cards

from . import engine as Q
from . import events as E
from . import unknowns as U
from .applies import Applies
from .checks import Checks, NS, _RULE_OF, bad, ok
from .data import content
from .engine import acol
from .options import ANSWERS, CHOICES, answer_types, beast_steps, card_params, spawn_spaces, task_options
from .pump import no_card_back, pump
from .state import Actions, BannerChoice, Deploy, Draft, Draw, EndTurn, PlaceStart, Replenish, Rest, StartTurn, State, TradeBack
from .working import W


#: the derived events a Trade passed over may lead to in a row (CL-45; as the core bounds a run)
_MAX_DERIVED = 100_000
#: the legal ruling of each action of the Actions step (checks._RULE_OF; any other: ``ok(rule_of)``)
_OK_ACTION = {t: ok(rule) for t, rule in _RULE_OF.items()}
#: the field of an event type naming a card or tile (unknowns.FIELDS), looked up once per event
_FIELD_OF = U.FIELDS.get
#: the events answering each step (options.ANSWERS), looked up once per event applied
_ANSWERS_OF = ANSWERS.get


class Rules(Checks, Applies, RulesBase):
    """The Colossi rules (pure functions of a position)."""

    namespace = NS
    working = W

    # -- what next -------------------------------------------------------------------------------------
    step_rule = "CL-2.1"

    def owed(self, s: Any, e: Any = None) -> Owed:
        """What the position waits for: a discard down to the hand limit (CL-5.2), a Trait over the
        cap (CL-5.3) and a choice a card, tile or Trait asks for (CL-6.4) are owed by rules of
        their own; every other step by CL-2.1."""
        if s.result is not None:
            return Owed("nothing (the match is over)")
        h = head(s)
        if h is None:
            return Owed("nothing")
        t = type(h)
        who = getattr(h, "player", None)
        if t is Actions:
            return Owed(f"{h.player}'s Actions (a move, spawn or card, or actions ended)")
        if t is BannerChoice:
            return Owed(f"banner phase chosen by {h.player} (deploy or rest)")
        if t is Deploy:
            return Owed(f"{h.player}'s Deploy (banner raised, banner moved or passed)")
        if t is Rest:
            return Owed(f"{h.player}'s Rest (banner scored for each Banner)")
        if t in (StartTurn, EndTurn, Replenish):
            return Owed(f"a derived event ({kind_words(t)})")
        if t in CHOICES:
            names = " or ".join([kind_words(a) for a in answer_types(t)] + (["passed"] if CHOICES[t][2] else []))
            rule = CHOICES[t][0]
            return Owed(f"{names}{' by ' + who if who else ''}", rule, CHOICES[t][3], who)
        return Owed(kind_words(t))

    def expected(self, s: Any) -> str:
        o = self.owed(s)
        return f"{o.expects}: {o.why}" if o.why else o.expects

    def check(self, s: State | W, e: Any, known: bool = False) -> Ruling:
        """The ruling on ``e`` in ``s`` (a State or a working position).  A record with unknown
        identities first goes through :meth:`check_unknown` (``known``: it did), on a frozen
        position (unknowns.py works on States); a full-information log costs one test."""
        if not known and (type(e) in U.WATCHED or (s.unseen is not None and s.todo and type(s.todo[0]) is TradeBack)):
            if s.unseen is not None:
                return self.check_unknown(s.freeze() if s.__class__ is W else s, e)
            f = _FIELD_OF(type(e))  # unknowns.involved, inlined for a full-information position
            if f is not None:
                v = getattr(e, f)
                if (v == HIDDEN) if v.__class__ is str else U.involved(s, e):
                    return self.check_unknown(s.freeze() if s.__class__ is W else s, e)
        try:
            if s.result is not None:
                raise bad("CL-2.1", "after-end", "the match is over")
            who = getattr(e, "player", None)
            if who is not None:
                for p in s.players:  # (engine.is_player, inlined: once per proposed event)
                    if p.id == who:
                        break
                else:
                    raise bad("CL-2.1", "unknown-player", f"{kind_words(e)}: {who!r} is not a player of this match")
            if e.kind == "X":
                raise bad("CL-2.1", "unexpected-event", f"{kind_words(e)} is derived by the engine and cannot be proposed")
            if type(e) is E.MatchStarted:
                raise bad("CL-2.1", "unexpected-event", "match started can only be the first event")
            h = s.todo[0] if s.todo else None
            if h is None:
                raise self.out_of_step(s, e)
            t = type(h)
            allowed = ANSWERS.get(t, ())
            optional = t in CHOICES and CHOICES[t][2]
            if type(e) not in allowed and not (type(e) is E.Passed and optional):
                self.misplaced(s, e, h)
                raise self.out_of_step(s, e)
            hp = getattr(h, "player", None)
            if who is not None and hp is not None and who != hp:
                rule = {Draft: "CL-1.4", PlaceStart: "CL-1.6"}.get(t, "CL-1.5" if t is Draw and s.turn == 0 else "CL-2.1")
                raise bad(rule, "not-your-decision", f"{kind_words(e)} by {who}, but {hp} decides now ({self.expected(s)})")
            if t is Actions:
                self.c_actions(s, e, h)
                return _OK_ACTION.get(type(e)) or ok(self.rule_of(e))
            if t is BannerChoice:
                return legal("CL-2.5", NS + "ok", f"{e.choice} chosen")
            if t is Deploy:
                self.c_deploy(s, e, h)
                return ok("CL-4.2")
            if t is Rest:
                self.c_rest(s, e, h)
                return ok("CL-4.6")
            return self.c_choice(s, e, h)
        except Illegal as x:
            return self.in_words(s, x.ruling())

    def in_words(self, s: Any, r: Ruling) -> Ruling:
        """A refusal names the Colossus cards and the Traits by their names (a judge reads names,
        not ids; tiles keep their words: a tile's id ``start`` is also a word of the messages)."""
        C = content()
        players = s.setup.players
        said = name_cards(name_cards(r.message, C.cards, players), C.traits, players)
        return r if said == r.message else replace(r, message=said)

    def check_unknown(self, s: State, e: Any) -> Ruling:
        """:meth:`check` of an event in a record with unknown identities: unknowns.py first (an
        impossible name is illegal, CL-2.7; a decision turning on an unknown, undetermined).  An
        event that passes over a Trade's card given back by a hand the record does not show is
        checked where that player had none to give (CL-45), and is undetermined on that."""
        skipped = U.trade_back_skipped(s, e)
        if skipped is not None:
            h = s.todo[0]
            passed = f"{h.player} gives {h.to} no card back (Trade) and pays {h.gold} Gold instead"
            s = self.no_card_back(s)
        try:
            U.settled_against(s, e)
            s, e = U.check(s, e)
            U.trade_back_condition(s, e)
        except (Illegal, Undetermined) as x:
            return self.in_words(s, x.ruling())
        r = self.check(s, e, True)
        if r.verdict == "legal":
            try:
                U.beast_lair_condition(s, e)
            except Undetermined as x:
                return x.ruling()
            if skipped is not None:
                return Undetermined("CL-45", NS + "unknown-trade", f"{kind_words(e)} by {e.player}: {passed}",
                                    skipped).ruling()
        return r

    def no_card_back(self, s: State) -> State:
        """``s`` (a Trade's card given back passed over, CL-45) with the Gold paid instead and the
        engine's consequences that follow (the derived events the full log's position settled)."""
        s = no_card_back(s)
        for _ in range(_MAX_DERIVED):
            d = self.derive(s)
            if d is None:
                return s
            s = self.apply(s, d)
        raise RuntimeError("colossi: the consequences of a Trade passed over do not settle")

    def apply(self, s: State, e: Any) -> State:
        """The frozen contract (the recorder, the store, the viewers): ``s`` after ``e`` and its
        immediate consequences, a new State (:meth:`apply_to` on a working copy of ``s``)."""
        w = W(s)
        self.apply_to(w, e)
        return w.freeze()

    def apply_to(self, w: W, e: Any) -> None:
        """Apply ``e`` to the working position ``w`` in place: its handler (:mod:`applies`), then
        the engine's continuations (:mod:`pump`).  The one implementation of apply: the fold's
        working position (:mod:`fold`) and :meth:`apply` both run it.  On an exception ``w`` is
        left half-changed (the caller goes back to a kept position); a handler's failure on an
        event out of step is :class:`Undefined` (:meth:`unanswered`), on an answer to the step the
        position waits for an engine defect, raised as it is."""
        if w.unseen is not None:  # a record with unknown identities (unknowns.py): one test for a full log
            return self.apply_hidden(w, e)
        f = _FIELD_OF(type(e))  # unknowns.involved, inlined for a full-information position
        if f is not None:
            v = getattr(e, f)
            if (v == HIDDEN) if v.__class__ is str else U.involved(w, e):
                return self.apply_hidden(w, e)
        todo = w.todo  # an answer to the step the position waits for (the usual case) needs no message
        self.run(w, e, None if todo and type(e) in _ANSWERS_OF(type(todo[0]), ()) else self.unanswered(w, e))
        return None

    def run(self, w: W, e: Any, why: str | None) -> None:
        """``e``'s handler, then the engine's continuations, on ``w``; ``why``: what a handler's
        failure means (:meth:`unanswered` of the position before ``e``; None: an engine defect)."""
        w.made = None
        try:
            self._applies[type(e)](self, w, e)
            pump(w)
        except (AttributeError, IndexError, KeyError, TypeError) as x:  # (nothing is tested on the way: a handler's failure)
            if why is None:
                raise  # an answer to the step the position waits for: an engine defect
            raise Undefined(why) from x

    def apply_hidden(self, w: W, e: Any) -> None:
        """:meth:`apply_to` in a record with unknown identities: ``e`` applied in the position the
        unknowns resolve to (unknowns.prepare; a Trade's card given back passed over first, CL-45),
        then the conditions it opens or settles recorded (unknowns.conditions_after)."""
        s0 = s = w.freeze()
        if U.trade_back_skipped(s, e) is not None:
            s = self.no_card_back(s)  # (CL-45: as check_unknown)
        s, e = U.prepare(s, e)  # ``s`` itself when the event names nothing unknown
        if s is not s0:
            w.load(s)
        self.run(w, e, self.unanswered(s, e))
        after = w.freeze()
        final = U.conditions_after(s0, e, after)
        if final is not after:  # (conditions_after changes the conditions only: ``unseen``)
            w.unseen = final.unseen
            w.made = final

    def unanswered(self, s: State, e: Any) -> str | None:
        """Why ``e`` has no defined effect in ``s`` when it comes out of step and its handler needs
        what the position does not hold (the step it answers, a placed Colossus: a judge's
        ``stands`` cannot take it, CL-43); None when it answers the head step (a defect)."""
        h = s.todo[0] if s.todo else None
        if h is not None and type(e) in ANSWERS.get(type(h), ()):
            return None
        return f"{kind_words(e)} comes out of step (the position expects {self.expected(s)}), and what it does " \
               "needs what that position does not hold"

    def rule_of(self, e: Any) -> str:
        return _RULE_OF.get(type(e), "CL-2.1")

    # == derive ===========================================================================================
    def derive(self, s: State) -> Any:
        if s.result is not None:
            return None
        o = s.options
        if o.end_mode == "immediate":
            if any(p.gold >= o.gold_target for p in s.players):
                return self.game_end(s)
        else:
            for p in s.players:
                if p.gold >= o.gold_target and p.id not in s.reached:
                    return E.TargetReached(player=p.id, gold=p.gold)
        t = type(s.todo[0]) if s.todo else None
        if t is StartTurn:
            nxt = s.first if s.turn_player is None else Q.from_seat(s, s.turn_player)[1]
            if s.reached and nxt == s.first:
                return self.game_end(s)
            return E.TurnStarted(turn=s.turn + 1, player=nxt)
        if t is Replenish:  # every explored space that produces and holds no Loot
            tiles = Q.C().tiles
            return E.LootReplenished(spaces=[i for i, sp in enumerate(s.spaces) if sp.tile is not None
                                             and sp.gold + sp.blue + sp.green == 0 and tiles[sp.tile].produces])
        if t is EndTurn:
            return E.TurnEnded(turn=s.turn, player=s.turn_player)
        return None

    def game_end(self, s: State) -> E.GameEnded:
        gold = {p.id: p.gold for p in s.players}
        best = max(gold.values())
        top = [p for p in Q.seats(s) if gold[p] == best]
        if len(top) == 1:
            return E.GameEnded(result="win", winner=top[0], reason="gold", gold=gold)
        if s.options.tie == "first-to-target":
            first = next((p for p in s.reached if p in top), None)
            if first is not None:
                return E.GameEnded(result="win", winner=first, reason="gold-tie-first-to-target", gold=gold)
        return E.GameEnded(result="draw", winner=None, reason="gold-tie", gold=gold)

    # == legal events ====================================================================================
    def candidates(self, s: State) -> list[Any]:
        if s.result is not None:
            return []
        h = head(s)
        if h is None:
            return []
        t = type(h)
        if t is Actions:
            return self.action_candidates(s, h.player)
        if t is BannerChoice:
            return [E.BannerPhaseChosen(player=h.player, choice="deploy"), E.BannerPhaseChosen(player=h.player, choice="rest")]
        if t is Deploy:
            p = h.player
            out: list[Any] = [E.BannerRaised(player=p, space=i) for i in range(len(s.spaces)) if Q.control(s, i) == p]
            if s.options.deploy_can_move_banners:
                mine = [i for i, sp in enumerate(s.spaces) if p in sp.banners]
                ctrl = [i for i in range(len(s.spaces)) if Q.control(s, i) == p]
                out += [E.BannerMoved(player=p, space=i, to=j) for i in mine for j in ctrl if j != i]
            out += [E.BannerScored(player=p, space=i) for i in s.info.raised]
            out.append(E.Passed(player=p))
            return out
        if t is Rest:
            p = h.player
            out = []
            for i, sp in enumerate(s.spaces):
                if p in sp.banners and i not in h.done:
                    out.append(E.BannerScored(player=p, space=i))
                    out.append(E.BannerScored(player=p, space=i, keep=True))
            return out
        if t in CHOICES:
            out = task_options(s, h)
            if CHOICES[t][2]:
                out.append(E.Passed(player=h.player))
            return out
        return []

    def action_candidates(self, s: State, p: str) -> list[Any]:
        out: list[Any] = []
        me = s.player(p)
        k = s.seat(p)
        r = s.road
        if r is not None and r.open and r.player == p:
            out += [E.Moved(player=p, piece=r.piece, space=r.at, to=a, road=True)
                    for a in Q.move_adjacent(s, p, r.at, own=True) if a not in r.visited]
        if me.colossus is not None:
            out += [E.Moved(player=p, piece="colossus", space=me.colossus, to=a)
                    for a in Q.move_adjacent(s, p, me.colossus, own=True)]
        for i, sp in enumerate(s.spaces):
            if acol(sp, k):
                out += [E.Moved(player=p, piece="acolyte", space=i, to=a) for a in Q.move_adjacent(s, p, i, own=True)]
        out += [E.AcolyteSpawned(player=p, space=i) for i in spawn_spaces(s, p)]
        for c in U.hand_ids(s, me.hand):
            for prm in card_params(s, p, c):
                out.append(E.CardPlayed(player=p, card=c, **prm))
        if Q.has(s, p, "beast-whisperer"):
            out += [E.BeastMoved(player=p, beast=bst, to=a) for bst, _ in Q.beasts_on_board(s) for a in beast_steps(s, bst)]
        if Q.has(s, p, "boldness"):
            out.append(E.ActionBought(player=p))
        if Q.has(s, p, "mercantile"):
            out.append(E.CardBought(player=p))
        if Q.has(s, p, "alchemist"):
            out += [E.Alchemized(player=p, what="card", item=c) for c in U.hand_ids(s, me.hand)]
            out += [E.Alchemized(player=p, what="trait", item=tr) for tr in me.traits]
            out += [E.Alchemized(player=p, what="banner", space=i) for i, sp in enumerate(s.spaces) if p in sp.banners]
            out += [E.Alchemized(player=p, what="acolyte", space=i) for i, sp in enumerate(s.spaces) if acol(sp, k)]
        if s.options.voluntary_trait_discard:
            out += [E.TraitDiscarded(player=p, trait=tr) for tr in me.traits]
        out.append(E.ActionsEnded(player=p))
        return out

    def to_act(self, s: State) -> list[str]:
        if s.result is not None:
            return []
        h = head(s)
        if h is None or type(h) in (StartTurn, EndTurn, Replenish):
            return []
        p = getattr(h, "player", None)
        if p is not None:
            return [p]
        return [s.turn_player] if s.turn_player else list(Q.seats(s))
