"""The audit's oracle of card text (tests/co_audit.py): what each effect of the pool's vocabulary
does when its card, ability or Colossus ability resolves, read from the card's TOML entry and its
words (docs/games/colossus-order-cards.md), compared with the position after the resolution and the
events it owes (draws, mills, reveals).  Seed D(iii)4(iv): an Action goes to the discard pile after
resolving; FAQ (game rules): a CIP takes effect (mandatory); CO-6.3/CO-6.5: a target that left the
field, or no longer meets the effect's conditions, is skipped.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.core.kernel.events import CardsLooked, CardsMoved, CardsReordered
from adjudicator.games.colossus_order import events as E

from .co_audit import CARDS, Audit, deck_size, follower_stats, handles, other, seat

#: an effect's target when its entry names none (cards.py's defaults, restated by the cards page)
DEFAULT_TARGET = {"damage": "chosen-opponent-follower", "destroy": "chosen-opponent-follower",
                  "switch": "chosen-follower", "boost": "self", "return-to-hand": "chosen-opponent-follower",
                  "set-stats": "chosen-opponent-follower", "to-deck": "chosen-opponent-follower",
                  "flip-locus": "chosen-opponent-locus"}
STATS = ("attack", "defence", "crush", "capture")


class EffectAudit(Audit):
    """The audit with the card text's effects checked at each resolution."""

    def __init__(self, setup: E.MatchStarted) -> None:
        super().__init__(setup)
        #: the draws, mills and reveals a resolution owes, in order: (kind, player)
        self.owed: list[tuple[str, str]] = []

    def resolved(self, i: int, e: Any, b: Any, a: Any, info: dict[str, Any]) -> None:
        card = CARDS[e.card]
        if not card.get("modelled", True):
            return
        if info.get("kind") == "follower":
            f = handles(seat(a, e.player)).get(e.follower)
            if f is None or f.card != e.card:
                self.fail(i, e, "the follower does not enter its player's field")
                return
            effects = [fx for ab in card.get("abilities", []) if ab.get("timing") == "cip" for fx in ab.get("effects", [])]
            self.effects(i, e, b, a, e.player, effects, list(info["targets"]), e.follower)
            self.seen["followers entered"] += 1
        elif info.get("kind") == "action":
            if (Counter(seat(a, e.player).discard) - Counter(seat(b, e.player).discard))[e.card] != 1:
                self.fail(i, e, "the Action is not put into the discard pile after resolving")
            self.effects(i, e, b, a, e.player, card.get("effects", []), list(info["targets"]), None)
        elif info.get("kind") == "ability":
            ab = card.get("abilities", [])[info["ability"]]
            self.effects(i, e, b, a, e.player, ab.get("effects", []), list(info["targets"]), info["source"])

    def whom(self, b: Any, a: Any, controller: str, target: str, targets: list[str], source: str | None) -> list[str]:
        opp = other(self.setup, controller)
        if target.startswith("chosen-"):
            return [targets.pop(0)] if targets else []
        if target == "self":
            return [source] if source else []
        if target in ("attacker", "opponent-attacker"):
            at = self.attack
            if at is None or (target == "opponent-attacker" and at["player"] == controller):
                return []
            return [at["attacker"]]
        side = controller if target == "all-own-followers" else opp
        hs = [f.handle for f in seat(b, side).field]
        if source and side == controller and source not in hs and source in handles(seat(a, side)):
            hs.append(source)  # a CIP's "your followers" counts the follower entering
        return hs

    def meets(self, b: Any, f: Any, only: dict[str, Any] | None) -> bool:
        if not only:
            return True
        st = follower_stats(b, f)
        c = CARDS[f.card]
        return (st[0] <= only.get("max_attack", st[0]) and st[1] <= only.get("max_defence", st[1])
                and c.get("locus_cost", 0) <= only.get("max_locus_cost", c.get("locus_cost", 0))
                and (only.get("race") is None or only["race"] in c.get("races", [])))

    def effects(self, i: int, e: Any, b: Any, a: Any, controller: str, effects: list[dict[str, Any]],
                targets: list[str], source: str | None) -> None:
        exp: dict[str, dict[str, Any]] = {}
        fields = {f.handle: (p.id, f) for p in b.players for f in p.field}
        if source and source not in fields:
            for p in a.players:
                for f in p.field:
                    if f.handle == source:
                        fields[source] = (p.id, f.__class__(handle=f.handle, card=f.card, played_turn=f.played_turn))
        opp = other(self.setup, controller)
        for fx in effects:
            do = fx["do"]
            who = controller if fx.get("who", "self" if do != "mill" else "opponent") == "self" else opp
            if do == "draw":
                self.owed += [("draw", who)] * fx.get("count", 1)
            elif do == "mill":
                self.owed += [("mill", who)] * min(fx.get("count", 1), deck_size(seat(b, who)))
            elif do == "reveal-top":
                self.owed += [("reveal", who)] * min(fx.get("count", 1), deck_size(seat(b, who)))
            elif do == "deck-to-locus":  # CO-43: the top cards go face down into new Locus slots
                self.owed += [("to-locus", controller)] * min(fx.get("count", 1), deck_size(seat(b, controller)))
            elif do in ("look-hand", "look-top"):  # CO-41, CO-42: the controller looks
                self.owed.append(("look-" + do[5:], controller))
            elif do == "recover-locus":
                exp.setdefault("locus", {"used": seat(b, controller).locus_used})
                exp["locus"]["used"] = max(0, exp["locus"]["used"] - fx.get("amount", 1))
            elif do == "flip-locus":
                t = targets.pop(0) if targets else None
                side = controller if fx.get("target", DEFAULT_TARGET[do]) == "chosen-own-locus" else opp
                if t is not None:
                    exp["L" + side + t] = {"side": side, "slot": int(t[1:]), "up": fx["to"] == "up"}
            elif do in DEFAULT_TARGET:
                for h in self.whom(b, a, controller, fx.get("target", DEFAULT_TARGET[do]), targets, source):
                    if h not in fields or not self.meets(b, fields[h][1], fx.get("only")):
                        continue  # CO-6.3, CO-6.5: skipped
                    x = exp.setdefault(h, {"damage": 0, "boost": [0, 0, 0, 0], "on": None, "gone": None, "set": False})
                    if x["gone"]:
                        continue
                    if do == "damage":
                        x["damage"] += fx["amount"]
                    elif do == "boost":
                        x["boost"] = [v + fx.get(k, 0) for v, k in zip(x["boost"], STATS)]
                    elif do == "switch":
                        x["on"] = fx["to"] == "on"
                    elif do == "set-stats":
                        x["set"] = (fx.get("attack"), fx.get("defence"))
                    else:
                        x["gone"] = {"destroy": "discard", "return-to-hand": "hand"}.get(do) or "deck-" + fx.get("where", "bottom")
        self.compare(i, e, b, a, exp, fields)

    def compare(self, i: int, e: Any, b: Any, a: Any, exp: dict[str, Any], fields: dict[str, Any]) -> None:
        for h, x in exp.items():
            if h == "locus":
                if seat(a, e.player).locus_used != x["used"]:
                    self.fail(i, e, f"Locus points used {seat(a, e.player).locus_used}, expected {x['used']}")
                continue
            if h.startswith("L"):
                sl = next((s for s in seat(a, x["side"]).locus if s.id == x["slot"]), None)
                if sl is None or sl.face_up != x["up"]:
                    self.fail(i, e, f"Locus slot {x['slot']} of {x['side']} is not turned {'up' if x['up'] else 'down'}")
                self.seen["locus flips"] += 1
                continue
            owner, fb = fields[h]
            fa = handles(seat(a, owner)).get(h)
            self.seen["effects on followers"] += 1
            if x["gone"]:
                if fa is not None:
                    self.fail(i, e, f"{h} ({fb.card}) stays on the field; the effect sends it to {x['gone']}")
                    continue
                pa, pb = seat(a, owner), seat(b, owner)
                where = {"discard": (pa.discard, pb.discard), "hand": (pa.hand, pb.hand)}.get(x["gone"])
                if where is not None and (Counter(where[0]) - Counter(where[1]))[fb.card] < 1:
                    self.fail(i, e, f"{h} ({fb.card}) is not put into its owner's {x['gone']}")
                if x["gone"] == "deck-top" and (not pa.deck_known or pa.deck_known[0] != fb.card):
                    self.fail(i, e, f"{h} ({fb.card}) is not on top of its owner's deck")
                if x["gone"] == "deck-bottom" and (not pa.deck_under or pa.deck_under[-1] != fb.card):
                    self.fail(i, e, f"{h} ({fb.card}) is not at the bottom of its owner's deck")
                self.seen["followers removed by effects"] += 1
                continue
            if fa is None:
                self.fail(i, e, f"{h} ({fb.card}) left the field; the effect does not remove it")
                continue
            if fa.damage != fb.damage + x["damage"]:
                self.fail(i, e, f"{h} has {fa.damage} damage, expected {fb.damage} + {x['damage']}")
            if not x["set"] and list(fa.boost) != [p + q for p, q in zip(fb.boost, x["boost"])]:
                self.fail(i, e, f"{h}'s boosts are {fa.boost}, expected {fb.boost} + {x['boost']}")
            if x["set"] and any(v is not None and v != w for v, w in zip(x["set"], (fa.set_attack, fa.set_defence))):
                self.fail(i, e, f"{h}'s Attack/Defence are set to {(fa.set_attack, fa.set_defence)}, not {x['set']}")
            if x["on"] is not None and fa.on != x["on"]:
                self.fail(i, e, f"{h} is not switched {'ON' if x['on'] else 'OFF'}")

    # the events a resolution owes, in order, before anything else (CO-8.6, CO-8.8, CO-8.10)
    def owed_event(self, i: int, e: Any, what: str) -> None:
        if self.owed and self.owed[0] == (what, e.player):
            self.owed.pop(0)
            self.seen[f"owed {what}s"] += 1
        elif self.owed:
            self.fail(i, e, f"the resolution owes {self.owed[0]} first")

    def on_CardDrawn(self, i: int, e: Any, b: Any, a: Any) -> None:
        super().on_CardDrawn(i, e, b, a)
        if self.owed:
            self.owed_event(i, e, "draw")

    def on_CardMilled(self, i: int, e: Any, b: Any, a: Any) -> None:
        self.owed_event(i, e, "mill")
        if (Counter(seat(a, e.player).discard) - Counter(seat(b, e.player).discard))[e.card] != 1 \
                or deck_size(seat(a, e.player)) != deck_size(seat(b, e.player)) - 1:
            self.fail(i, e, "the milled card does not go from the deck to the discard pile")

    def on_TopCardRevealed(self, i: int, e: Any, b: Any, a: Any) -> None:
        self.owed_event(i, e, "reveal")
        if deck_size(seat(a, e.player)) != deck_size(seat(b, e.player)):
            self.fail(i, e, "a revealed card stays in the deck (FAQ (victory))")

    def on_CardsLooked(self, i: int, e: Any, b: Any, a: Any) -> None:
        if self.owed and self.owed[0][0].startswith("look-"):
            what, who = self.owed.pop(0)
            if e.player != who or (what == "look-hand") != (e.zone == "hand"):
                self.fail(i, e, f"the resolution owes {what} by {who}")
            if e.zone == "hand" and Counter(e.cards) != Counter(seat(b, e.owner).hand):
                self.fail(i, e, f"the look shows {e.cards}, the hand holds {seat(b, e.owner).hand}")
            self.seen["owed looks"] += 1

    def on_CardsMoved(self, i: int, e: Any, b: Any, a: Any) -> None:
        n = 0
        while self.owed and self.owed[0] == ("to-locus", e.owner):
            self.owed.pop(0)
            n += 1
        if n and e.from_zone == "deck" and e.to_zone == "locus":
            pb, pa = seat(b, e.owner), seat(a, e.owner)
            new = [sl for sl in pa.locus if sl.id not in {x.id for x in pb.locus}]
            if len(e.cards) != n or [sl.card for sl in new] != list(e.cards) or any(sl.face_up for sl in new) \
                    or deck_size(pa) != deck_size(pb) - n:
                self.fail(i, e, f"{n} deck cards do not go face down into new Locus slots")
            self.seen["owed moves to the Locus"] += 1

    def timing(self, i: int, e: Any, b: Any) -> None:
        super().timing(i, e, b)
        if self.owed and not isinstance(e, (E.CardDrawn, E.CardMilled, E.TopCardRevealed, E.Conceded, CardsLooked, CardsMoved,
                                            CardsReordered)):
            self.fail(i, e, f"a decision while {self.owed} are owed")
