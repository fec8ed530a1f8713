"""Colossi checks: why a proposed event is illegal where it happens.

``Checks`` holds the check handlers of the Rules (a mixin of :class:`rules.Rules`): the Actions
(a move, a spawn, a card, a Trait's action), the Banner phase (Deploy, Rest) and the answers to a
choice; each raises :class:`Illegal` (``bad``) and never mutates.  ``ok`` is the legal ruling.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.events import PRIVATE_EVENTS
from adjudicator.core.kernel.rulings import Illegal, Ruling, legal
from adjudicator.core.kernel.notation import kind_words

from . import engine as Q
from . import events as E
from .data import content
from .engine import acol
from .options import (
    ANSWERS, CHOICES, FAST, Q_desc, bannerable, beast_steps, canon, canonical, card_fields, card_params, control_text,
    in_board, name, spawn_spaces, task_options,
)
from .state import (
    Actions, BannerChoice, Borrow, ChooseFirst, Deploy, Draw, MoveBeast, NamePlayer, Peek, Replenish, Rest, RevealTop,
    State,
)


NS = "colossi/"


def bad(rule: str, code: str, message: str) -> Illegal:
    return Illegal(rule, NS + code, message)


_OK: dict[tuple[str, str], Ruling] = {}
#: the rule an action of the Actions step is legal under (CL-2.1: any other)
_RULE_OF = {E.Moved: "CL-3.1", E.AcolyteSpawned: "CL-3.4", E.CardPlayed: "CL-6.1", E.BeastMoved: "CL-7.2",
            E.ActionBought: "CL-7.2", E.CardBought: "CL-7.2", E.Alchemized: "CL-7.3",
            E.TraitDiscarded: "CL-19", E.ActionsEnded: "CL-2.3"}


def ok(rule: str, message: str = "legal") -> Ruling:
    """The legal ruling citing ``rule`` (made once per rule and message: a Ruling is immutable,
    and the verify loop asks for one per event)."""
    r = _OK.get((rule, message))
    if r is None:
        r = _OK[(rule, message)] = legal(rule, NS + "ok", message)
    return r


class Checks:
    """The check handlers of :class:`rules.Rules` (a mixin)."""

    def misplaced(self, s: Any, e: Any, h: Any) -> None:
        """Specific answers for events at the wrong step (set-up, the start of a turn, the Banner phase)."""
        t = type(e)
        if t in PRIVATE_EVENTS:
            raise self.not_proposed(s, e)
        if t is E.FirstPlayerDetermined and s.first is not None:
            raise bad("CL-1.2", "first-player-decided", f"the first player is already {s.first}; it is determined once, "
                      "before anything else")
        if t is not E.FirstPlayerDetermined and s.first is None and type(h) is ChooseFirst:
            raise bad("CL-1.2", "first-player-first", f"{kind_words(t)} before the first player is determined (CL-21)")
        tp = s.turn_player
        who = getattr(e, "player", None)
        if who != tp or tp is None:
            return
        chosen = s.info.banner
        if t is E.BannerPhaseChosen and chosen is not None:
            raise bad("CL-2.5", "one-banner-phase", f"{tp} already chose to {chosen} this turn; a turn has one Banner phase, "
                      "Deploy or Rest (only Dominate allows both)")
        if t in (E.BannerRaised, E.BannerMoved) and type(h) is Rest:
            raise bad("CL-2.5", "one-banner-phase", f"{tp} chose to rest this turn; raising Banners is the Deploy, and a turn "
                      "has Deploy or Rest, not both (only Dominate allows both)")
        if t is E.BannerRaised and type(h) is Actions:
            raise bad("CL-4.2", "not-in-deploy", f"Banners are raised in the Deploy of the Banner phase, after {tp}'s Actions "
                      "(actions ended), not during them")
        if t in (E.Moved, E.AcolyteSpawned, E.CardPlayed, E.ActionsEnded) and s.turn > 0 \
                and type(h) in (Draw, Replenish, NamePlayer, Borrow, Peek, RevealTop) \
                and any(type(x) is Actions and x.player == tp for x in s.todo):
            raise bad("CL-2.2", "turn-start-first", f"{kind_words(t)} before the start of {tp}'s turn is over: the position "
                      f"expects {self.expected(s)}")
        if t is E.Passed and type(h) is Rest:
            left = [i for i, sp in enumerate(s.spaces) if tp in sp.banners and i not in h.done]
            raise bad("CL-4.6", "collect-all", f"a Rest collects every Banner of {tp}: still on {left}")
        if t in (E.Moved, E.AcolyteSpawned, E.CardPlayed) and type(h) in (MoveBeast, BannerChoice, Deploy, Rest):
            raise bad("CL-2.3", "actions-over", f"{tp}'s Actions are over this turn (now: {self.expected(s)})")
        if t is E.BeastMoved and type(h) is Actions and not Q.has(s, tp, "beast-whisperer"):
            raise bad("CL-2.4", "not-now", "a Beast is moved in the Move Beast step after the Actions (actions ended first)")

    # -- Actions -------------------------------------------------------------------------------------
    def c_actions(self, s: State, e: Any, h: Actions) -> None:
        p = h.player
        t = type(e)
        info = s.info
        if t is E.Moved:
            self.c_move(s, e, p)
        elif t is E.AcolyteSpawned:
            self.c_spawn(s, e, p)
        elif t is E.CardPlayed:
            self.c_card(s, e, p)
        elif t is E.BeastMoved:
            if not Q.has(s, p, "beast-whisperer"):
                raise bad("CL-2.4", "not-now", "a Beast is moved in the Move Beast step after the Actions (actions ended first)")
            if info.whispered >= Q.tparam("beast-whisperer", "per_turn"):
                raise bad("CL-7.2", "whisperer-used", f"{p} already used Beast Whisperer this turn (once per turn)")
            self.need_gold(s, p, Q.tparam("beast-whisperer", "gold"), "Beast Whisperer")
            self.c_beast_step(s, e)
        elif t is E.ActionBought:
            if not Q.has(s, p, "boldness"):
                raise bad("CL-7.2", "no-boldness", f"{p} does not have Boldness: Actions cannot be bought")
            if info.dominate:
                raise bad("CL-6.3", "after-dominate", f"{p} played Dominate: no more Actions this turn")
            self.need_gold(s, p, Q.tparam("boldness", "gold"), "an extra Action (Boldness)")
        elif t is E.CardBought:
            if not Q.has(s, p, "mercantile"):
                raise bad("CL-7.2", "no-mercantile", f"{p} does not have Mercantile: cards cannot be bought")
            self.need_gold(s, p, Q.tparam("mercantile", "gold"), "a card (Mercantile)")
        elif t is E.Alchemized:
            self.c_alchemy(s, e, p)
        elif t is E.TraitDiscarded:
            if not s.options.voluntary_trait_discard:
                raise bad("CL-19", "no-voluntary-discard", "a Trait cannot be discarded at will in this ruleset "
                          "(option voluntary_trait_discard)")
            if e.trait not in s.player(p).traits:
                raise bad("CL-19", "no-such-trait", f"{p} has no Trait {e.trait!r} in play")

    def need_gold(self, s: Any, p: str, n: int, what: str) -> None:
        g = s.player(p).gold
        if g < n:
            raise bad("CL-5.1", "not-enough-gold", f"{what} costs {n} Gold; {p} has {g}")

    def need_action(self, s: Any, p: str, what: str) -> None:
        info = s.info
        if info.dominate:
            raise bad("CL-6.3", "after-dominate", f"{p} played Dominate this turn: no Action may follow it ({what})")
        if info.actions < 1:
            used = info.moves + (info.cards if s.options.card_costs_action else 0)
            raise bad("CL-2.3", "no-actions-left", f"{what} would be Action {used + 1}; {p} has used all {used} Actions of this turn")

    def c_move(self, s: State, e: E.Moved, p: str) -> None:
        if not in_board(s, e.space) or not in_board(s, e.to):
            raise bad("CL-3.1", "no-such-space", f"moved {e.space}->{e.to}: the island has spaces 0 to {len(s.spaces) - 1}")
        if e.owner is not None:
            raise bad("CL-3.1", "not-your-piece", f"in the Actions {p} moves own pieces only (owner {e.owner!r} given)")
        if e.road:
            r = s.road
            if r is None or r.player != p:
                raise bad("CL-3.3", "no-road", f"Road Movement continues a move, but {p}'s last event was not a step of a piece")
            if r.piece != e.piece or r.at != e.space:
                raise bad("CL-3.3", "no-road", f"the last step took {p}'s {r.piece} to {r.at}; only that piece can go on by "
                          f"Road Movement (not the {e.piece} on {e.space})")
            if not r.open and r.why == "explored":
                raise bad("CL-3.2", "move-ended", f"{p}'s {r.piece} explored {r.at}: exploring ends the move (CL-7)")
            if not r.open:
                raise bad("CL-3.3", "no-own-piece", f"{p}'s {r.piece} entered {r.at}, which held {r.why or 'no piece of ' + p}: "
                          f"Road Movement cannot go on from there")
            if not (s.player(p).colossus == r.at if e.piece == "colossus" else acol(s.spaces[r.at], s.seat(p)) > 0):
                raise bad("CL-3.3", "no-road", f"{p}'s {r.piece} is no longer on {r.at}, where its move took it (something "
                          "carried it off since): that move is over, and Road Movement cannot go on")
            if e.to not in Q.move_adjacent(s, p, e.space, own=True):
                raise bad("CL-3.1", "not-adjacent", f"{e.space} and {e.to} are not neighbours")
            if e.to in r.visited:
                raise bad("CL-3.3", "revisit", f"this move already went through {e.to} (path {list(r.visited)}); a move "
                          "never enters a space twice")
            return
        sp = s.spaces[e.space]
        me = s.player(p)
        if e.piece == "colossus" and me.colossus != e.space:
            raise bad("CL-3.1", "no-piece", f"{p}'s Colossus is on {me.colossus}, not on {e.space}")
        if e.piece == "acolyte" and acol(sp, s.seat(p)) < 1:
            raise bad("CL-3.1", "no-piece", f"{p} has no Acolyte on space {e.space}")
        self.need_action(s, p, f"moving from {e.space} to {e.to}")
        if Q.has(s, p, "ludicrously-capacious") and s.info.moves >= Q.tparam("ludicrously-capacious", "moves"):
            raise bad("CL-7.5", "move-limit", f"{p} already used {s.info.moves} Actions on movement this turn "
                      f"(Ludicrously Capacious allows {Q.tparam('ludicrously-capacious', 'moves')})")
        if e.to not in Q.move_adjacent(s, p, e.space, own=True):
            raise bad("CL-3.1", "not-adjacent", f"{e.space} and {e.to} are not neighbours: a move goes one space")

    def c_spawn(self, s: State, e: E.AcolyteSpawned, p: str) -> None:
        if not in_board(s, e.space):
            raise bad("CL-3.4", "spawn-space", f"space {e.space} is not on the island")
        me = s.player(p)
        if me.acolytes < 1:
            raise bad("CL-3.4", "no-acolyte-in-hand", f"{p} has no Acolyte in hand (all 10 are on the board)")
        self.need_action(s, p, "spawning an Acolyte")
        if Q.has(s, p, "ludicrously-capacious") and s.info.moves >= Q.tparam("ludicrously-capacious", "moves"):
            raise bad("CL-7.5", "move-limit", f"{p} already used {s.info.moves} Actions on movement this turn "
                      f"(Ludicrously Capacious allows {Q.tparam('ludicrously-capacious', 'moves')})")
        if Q.acolytes_in_play(s, p) >= Q.acolyte_cap(s, p):
            raise bad("CL-3.7", "acolyte-cap", f"{p} has {Q.acolytes_in_play(s, p)} Acolytes on the board, the most allowed")
        if e.space not in spawn_spaces(s, p):
            raise bad("CL-3.4", "spawn-space", f"an Acolyte is spawned on {p}'s Colossus's space ({me.colossus})"
                      + (" or on or next to a Beast (Zoophilic)" if Q.has(s, p, "zoophilic") else "") + f", not on {e.space}")

    def c_card(self, s: State, e: E.CardPlayed, p: str) -> None:
        C = content()
        if e.card not in C.cards:
            raise bad("CL-6.1", "unknown-card", f"{e.card!r} is not a Colossi card")
        me = s.player(p)
        if e.card not in me.hand:
            raise bad("CL-6.1", "not-in-hand", f"{p} has no {name(e.card)} in hand")
        if s.info.dominate:
            raise bad("CL-6.3", "after-dominate", f"{p} played Dominate this turn: no Action may follow it")
        if s.options.card_costs_action:
            self.need_action(s, p, f"playing {name(e.card)}")
        if Q.has(s, p, "speedy") and s.info.cards >= Q.tparam("speedy", "cards"):
            raise bad("CL-6.3", "one-card", f"{p} already played a card this turn (Speedy: one card a turn)")
        if C.cards[e.card].effect.kind == "dominate" and s.info.acted:
            raise bad("CL-6.3", "dominate-first", f"Dominate must be the first Action of the turn; {p} already acted")
        given = card_fields(canonical(e))
        opts = card_params(s, p, e.card)
        if given in opts:
            return
        needs = C.cards[e.card].needs
        extra = [f for f in given if f not in needs]
        if extra:
            raise bad("CL-6.2", "bad-choice", f"{name(e.card)} takes no {', '.join(extra)}")
        if not opts:
            raise bad("CL-6.2", "no-choice", f"{name(e.card)} cannot be played now: nothing on the island fits it")
        shown = "; ".join(" ".join(f"{k} {v}" for k, v in o.items()) for o in opts[:6]) + (" ..." if len(opts) > 6 else "")
        got = " ".join(f"{k} {v}" for k, v in given.items()) or "no choice"
        raise bad("CL-6.2", "bad-choice", f"{name(e.card)} with {got} does not fit its text ({C.cards[e.card].text}); "
                  f"possible: {shown}")

    def c_beast_step(self, s: Any, e: E.BeastMoved) -> None:
        if e.beast not in content().beasts or Q.beast_space(s, e.beast) is None:
            raise bad("CL-2.4", "no-such-beast", f"the Beast {e.beast!r} is not on the island")
        if e.to not in beast_steps(s, e.beast):
            raise bad("CL-2.4", "beast-step", f"the {e.beast} on {Q.beast_space(s, e.beast)} can go to "
                      f"{beast_steps(s, e.beast)} (neighbouring explored spaces), not {e.to}")

    def c_alchemy(self, s: State, e: E.Alchemized, p: str) -> None:
        if not Q.has(s, p, "alchemist"):
            raise bad("CL-7.3", "no-alchemist", f"{p} does not have Alchemist")
        me = s.player(p)
        ok = False
        if e.what == "card":
            ok = e.space is None and e.item in me.hand
        elif e.what == "trait":
            ok = e.space is None and e.item in me.traits
        elif e.item is None and in_board(s, e.space):
            sp = s.spaces[e.space]
            ok = (p in sp.banners) if e.what == "banner" else acol(sp, s.seat(p)) > 0
        if not ok:
            what = e.item if e.space is None else f"space {e.space}"
            raise bad("CL-7.3", "nothing-to-turn", f"{p} has no {e.what} {what} to turn into Gold")

    # -- the Banner phase ---------------------------------------------------------------------------------
    def c_deploy(self, s: State, e: Any, h: Deploy) -> None:
        p = h.player
        t = type(e)
        if t is E.Passed:
            return
        if t is E.BannerScored:
            if not Q.has(s, p, "nomadic"):
                raise bad("CL-2.5", "deploy-not-rest", f"{p} is deploying: scoring Banners is the Rest, and a turn has Deploy "
                          "or Rest, not both (only Dominate allows both)")
            if e.keep or e.space not in s.info.raised or e.space in s.info.nomad_scored or not in_board(s, e.space) \
                    or p not in s.spaces[e.space].banners:
                raise bad("CL-2.5", "nomadic-score", f"Nomadic scores a Banner raised in this Deploy, once: "
                          f"raised {list(s.info.raised)}, scored {list(s.info.nomad_scored)}")
            return
        if t is E.BannerRaised:
            self.c_raise(s, p, e.space, "CL-4.2")
            return
        # BannerMoved
        if not s.options.deploy_can_move_banners:
            raise bad("CL-14", "no-banner-moves", "deployed Banners cannot be moved in this ruleset (option deploy_can_move_banners)")
        if not in_board(s, e.space) or p not in s.spaces[e.space].banners:
            raise bad("CL-4.4", "no-banner-there", f"{p} has no Banner on space {e.space}")
        if e.to == e.space:
            raise bad("CL-4.4", "same-space", "a Banner moves to another space")
        self.c_raise(s, p, e.to, "CL-4.4", moving=True)

    def c_raise(self, s: Any, p: str, i: int, rule: str, moving: bool = False) -> None:
        if not in_board(s, i):
            raise bad(rule, "not-controlled", f"space {i} is not on the island")
        me = s.player(p)
        if not moving:
            if me.banners < 1:
                raise bad("CL-4.2", "no-banner-in-hand", f"{p} has no Banner in hand (all 6 are on the board)")
            if Q.banners_in_play(s, p) >= Q.banner_cap(s, p):
                raise bad("CL-4.5", "banner-cap", f"{p} has {Q.banners_in_play(s, p)} Banners on the board, the most allowed "
                          f"({Q.banner_cap(s, p)})")
        if Q.control(s, i) != p:
            raise bad(rule, "not-controlled", f"{p} does not control space {i}: {control_text(s, i)}")
        why = bannerable(s, p, i)
        if why is not None:
            raise bad("CL-4.3", "guarded-banner" if "cannot be replaced" in why else "one-banner", why)

    def c_rest(self, s: State, e: Any, h: Rest) -> None:
        p = h.player
        if not in_board(s, e.space) or p not in s.spaces[e.space].banners:
            raise bad("CL-4.6", "no-banner-there", f"{p} has no Banner on space {e.space} to collect")
        if e.space in h.done:
            raise bad("CL-4.6", "already-collected", f"the Banner on {e.space} was collected in this Rest already")
        if e.keep:
            stone = h.stone or s.spaces[e.space].tile == "lair-stone-beast"
            mx = int(content().tiles["lair-stone-beast"].rest.params["max"])
            if not stone or h.kept >= mx:
                raise bad("CL-4.6", "cannot-keep", "a scored Banner stays on the board only after the Stone Beast's lair was "
                          f"scored in this Rest, at most {mx} ({h.kept} kept)")

    # -- choices -------------------------------------------------------------------------------------------
    def c_choice(self, s: State, e: Any, h: Any) -> Ruling:
        t = type(h)
        rule, code, optional, what = CHOICES[t]
        if type(e) is E.Passed:
            return ok(rule, "declined")
        fast = FAST.get(t)
        if fast is not None and type(e) in ANSWERS[t] and fast(s, h, e):
            return ok(rule)
        opts = task_options(s, h)
        ce = canon(e)
        if ce in opts:
            return ok(rule)
        shown = ", ".join(Q_desc(o) for o in opts[:8]) + (" ..." if len(opts) > 8 else "")
        raise bad(rule, code, f"{Q_desc(ce)} is not {what} here (allowed: {shown or 'none'})")
