"""``W``, the working position the rules edit in place: it holds the State's fields (tuples copied
into lists on first write), applies one event with all its immediate consequences
(``Rules.apply_to``: the handlers of :mod:`applies`, the engine's continuations of :mod:`pump`)
and freezes a State only when one is kept (:meth:`W.freeze`).  One working position serves a whole
verification (:mod:`fold`, the fold contract); ``Rules.apply`` (the frozen contract) makes one per
event.
"""

from __future__ import annotations

from typing import Any, Iterable

from msgspec.structs import astuple, replace

from adjudicator.core.kernel.rulings import Undefined

from .data import board, content
from .engine import (
    GOLDEN_DROP, acol, acolyte_protected, acolyte_room, beast_space, counted_traits, deadly,
    from_seat, hand_limit, has, holders, produces, seats, tparam, trait_cap,
)
from .state import AnimalDraw, Discard, Draw, Explore, Necro, Player, React, Resurrect, ScoreOp, Space, State, TraitCap


#: the fields of a position, in order: ``freeze`` passes them to ``State`` in this order
_FIELDS = ("setup", "options", "players", "spaces", "first", "turn", "turn_player", "info", "road", "todo", "tile_top",
           "tile_deck", "tile_box", "card_top", "card_deck", "tile_seen", "card_seen", "discard", "trait_deck",
           "trait_row", "trait_discard", "growth", "pile", "reached", "result", "unseen")
assert State.__struct_fields__ == _FIELDS, "colossi: W.freeze lists the State's fields in their order"


# == the working copy =====================================================================================

class W:
    """A mutable copy of a State (``load`` takes one in, ``freeze()`` gives one out).

    ``made`` is the State this working copy equals (what ``freeze`` returns until the position
    changes), None once it has changed: whoever starts changing it clears it first
    (``Rules.apply_to``, :func:`pump.no_card_back`).  The check handlers and the engine's queries
    read it as they read a State (its fields, ``player`` and ``seat``)."""

    def __init__(self, s: State) -> None:
        self.B = board(s.options.board, s.setup.board_sha256)
        self.C = content()
        self._seat = {p.id: i for i, p in enumerate(s.players)}
        self.load(s)

    def load(self, s: State) -> None:
        """Make ``s`` (a position of the same match: the same island, the same seats) the working
        position: a take-back, a position the unknown identities resolved (unknowns.prepare)."""
        # every field of the position, as it is (tuples until the first write: then lists); set
        # one by one, as attributes (a dict written as a whole reads slower ever after)
        (self.setup, self.options, self.players, self.spaces, self.first, self.turn, self.turn_player, self.info,
         self.road, _, self.tile_top, self.tile_deck, self.tile_box, self.card_top, self.card_deck, self.tile_seen,
         self.card_seen, self.discard, self.trait_deck, self.trait_row, self.trait_discard, self.growth, self.pile,
         self.reached, self.result, self.unseen) = astuple(s)
        self.todo = list(s.todo)
        #: tasks queued by the event under way, put at the head of ``todo`` by ``flush``
        self.buf: list[Any] = []
        self.made: State | None = s

    def freeze(self) -> State:
        """The position as a State that shares nothing mutable with this working copy (which goes
        on to the next event); the same State until the position changes."""
        made = self.made
        if made is not None:
            return made
        if self.buf:
            self.flush()
        players = self.players if type(self.players) is tuple else tuple(self.players)
        spaces = self.spaces if type(self.spaces) is tuple else tuple(self.spaces)
        made = self.made = State(
            self.setup, self.options, players, spaces, self.first, self.turn, self.turn_player, self.info,
            self.road, tuple(self.todo), self.tile_top, self.tile_deck, self.tile_box, self.card_top, self.card_deck,
            self.tile_seen, self.card_seen, self.discard, self.trait_deck, self.trait_row, self.trait_discard,
            self.growth, self.pile, self.reached, self.result, self.unseen)
        return made

    # -- basics -------------------------------------------------------------------------------------
    def P(self, pid: str) -> Player:
        return self.players[self._seat[pid]]

    def setP(self, pid: str, **kw: Any) -> None:
        if type(self.players) is tuple:
            self.players = list(self.players)
        i = self._seat[pid]
        self.players[i] = replace(self.players[i], **kw)

    def S(self, i: int) -> Space:
        return self.spaces[i]

    def setS(self, i: int, **kw: Any) -> None:
        if type(self.spaces) is tuple:
            self.spaces = list(self.spaces)
        self.spaces[i] = replace(self.spaces[i], **kw)

    def si(self, pid: str) -> int:
        return self._seat[pid]

    #: as State's: the check handlers read a working position as they read a State
    player, seat = P, si

    def setinfo(self, **kw: Any) -> None:
        self.info = replace(self.info, **kw)

    def later(self, *tasks: Any) -> None:
        self.buf.extend(tasks)

    def flush(self) -> None:
        if self.buf:
            self.todo[0:0] = self.buf
            self.buf = []

    def pop(self) -> Any:
        return self.todo.pop(0)

    def set_head(self, task: Any) -> None:
        self.todo[0] = task

    def order_from(self, pid: str) -> list[str]:
        return from_seat(self, pid)

    # -- gold, cards, Traits ------------------------------------------------------------------------
    def gain(self, pid: str, n: int) -> None:
        if n <= 0:
            return
        p = self.P(pid)
        if "miserly" in p.traits:
            n += tparam("miserly", "bonus")
        self.setP(pid, gold=p.gold + n)

    def pay(self, pid: str, n: int, forced: bool) -> int:
        """Take ``n`` Gold from ``pid`` (a forced payment takes what there is, CL-24)."""
        p = self.P(pid)
        if p.gold >= n:
            paid = n
        elif forced and self.options.forced_payment == "all-you-have":
            paid = p.gold
        else:
            paid = 0
        if paid:
            self.setP(pid, gold=p.gold - paid)
        return paid

    def transfer(self, frm: str, to: str, n: int) -> None:
        self.gain(to, self.pay(frm, n, forced=True))

    def add_cards(self, pid: str, cards: Iterable[str]) -> None:
        p = self.P(pid)
        self.setP(pid, hand=tuple(sorted(p.hand + tuple(cards))))
        self.hand_check(pid)

    def remove_card(self, pid: str, card: str) -> None:
        hand = list(self.P(pid).hand)
        try:
            hand.remove(card)
        except ValueError:  # (a checked event always finds it: a judge's stands cannot take it)
            raise Undefined(f"{pid} has no {card} in hand") from None
        self.setP(pid, hand=tuple(hand))

    def to_discard(self, cards: Iterable[str]) -> None:
        self.discard = tuple(sorted(self.discard + tuple(cards)))

    def hand_check(self, pid: str) -> None:
        if self.options.hand_limit_timing != "immediate":
            return
        if len(self.P(pid).hand) > hand_limit(self, pid):
            if not any(type(t) is Discard and t.player == pid for t in self.buf + self.todo[:1]):
                self.later(Discard(pid))

    def draw(self, pid: str, n: int) -> None:
        if n > 0:
            self.later(Draw(pid, n))

    def gain_trait(self, pid: str, trait: str) -> None:
        p = self.P(pid)
        if trait == "animalistic":
            others = [t for t in p.traits if t != trait]
            for t in others:
                self.lose_trait(pid, t)
            p = self.P(pid)
            self.setP(pid, traits=p.traits + (trait,), animal=None, animal_until=p.turns + 1)
            self.later(AnimalDraw(pid))
        else:
            self.setP(pid, traits=p.traits + (trait,))
        self.trait_check(pid)

    def trait_check(self, pid: str) -> None:
        if counted_traits(self, pid) > trait_cap(self, pid):
            if not any(type(t) is TraitCap and t.player == pid for t in self.buf + self.todo[:1]):
                self.later(TraitCap(pid))

    def lose_trait(self, pid: str, trait: str, discard: bool = True) -> None:
        p = self.P(pid)
        if trait not in p.traits:
            return
        traits = list(p.traits)
        traits.remove(trait)
        kw: dict[str, Any] = {"traits": tuple(traits)}
        if trait == "animalistic":
            kw.update(animal=None, animal_until=0)
        self.setP(pid, **kw)
        if self.turn_player == pid and self.info.borrowed == trait:
            self.setinfo(borrowed=None, lender=None)
        if discard:
            self.trait_discard = tuple(sorted(self.trait_discard + (trait,)))
        self.hand_check(pid)  # a lower hand limit now (Ludicrously Capacious lost) owes a discard (CL-5.2)
        if trait == "protective" and p.colossus is not None:
            self.unguarded(p.colossus, pid, self.turn_player or pid)
        elif trait == "animalistic" and p.colossus is not None:  # a Colossus that was the Stone Beast (CL-35)
            self.unguarded(p.colossus, None, self.turn_player or pid)

    def unguarded(self, i: int, pid: str | None, by: str) -> None:
        """A guard on ``i`` may have been lifted (the Stone Beast left; a Protective Colossus stepped
        off, was carried off by a card or a tile, or lost the Trait; a Colossus stopped acting as
        the Stone Beast): ``pid``'s Acolytes there (everyone's for None) die if the space kills
        (Mountaintop, the Blood Beast: CL-3.5, CL-3.6).  Those still guarded are not touched
        (``deadly`` asks), so a caller unsure whether the guard went may call it."""
        sp = self.spaces[i]
        for k, q in enumerate(seats(self)):
            if (pid is None or q == pid) and acol(sp, k) and deadly(self, i, q):
                self.kill(i, q, acol(self.spaces[i], k), by)

    # -- the board ----------------------------------------------------------------------------------
    def add_acol(self, i: int, pid: str, n: int) -> None:
        sp = self.spaces[i]
        k = self._seat[pid]
        a = list(sp.acolytes)
        a[k] = max(0, a[k] + n)
        self.setS(i, acolytes=tuple(a))

    def set_colossus(self, pid: str, to: int | None) -> None:
        frm = self.P(pid).colossus
        if frm is not None:
            c = list(self.spaces[frm].colossi)
            if pid in c:
                c.remove(pid)
                self.setS(frm, colossi=tuple(c))
        if to is not None:
            self.setS(to, colossi=self.spaces[to].colossi + (pid,))
        self.setP(pid, colossus=to)

    def produce(self, i: int) -> None:
        sp = self.spaces[i]
        pr = produces(sp)
        if pr:
            self.setS(i, gold=sp.gold + pr.get("gold", 0), blue=sp.blue + pr.get("blue", 0),
                      green=sp.green + pr.get("green", 0))

    def add_gold_cubes(self, i: int, n: int) -> None:
        if n > 0:
            self.setS(i, gold=self.spaces[i].gold + n)

    def move_cubes(self, frm: int, to: int) -> None:
        a, b = self.spaces[frm], self.spaces[to]
        if a.loot == 0 or frm == to:
            return
        self.setS(to, gold=b.gold + a.gold, blue=b.blue + a.blue, green=b.green + a.green)
        self.setS(frm, gold=0, blue=0, green=0)

    def explore_pending(self, i: int) -> bool:
        return any(type(t) is Explore and t.space == i for t in self.buf + self.todo)

    # -- deaths -------------------------------------------------------------------------------------
    def kill(self, i: int, owner: str, n: int, by: str, on_board: bool = True) -> int:
        """``n`` of ``owner``'s Acolytes on ``i`` die (those pushed off the island were taken off
        ``i`` already: ``on_board=False``).  They go back to hand; the triggers are queued."""
        if n <= 0:
            return 0
        if on_board:
            if acolyte_protected(self, i, owner):
                return 0
            n = min(n, acol(self.spaces[i], self._seat[owner]))
            if n <= 0:
                return 0
            self.add_acol(i, owner, -n)
        p = self.P(owner)
        self.setP(owner, acolytes=p.acolytes + n)
        if by != owner and has(self, by, "blood-thirsty"):
            self.gain(by, n * tparam("blood-thirsty", "gold"))
        self.death_triggers(i, owner, n)
        return n

    def death_triggers(self, i: int, owner: str, n: int) -> None:
        if has(self, owner, "resurrecting"):
            cs = self.P(owner).colossus
            if cs is not None and not deadly(self, cs, owner):
                self.later(Resurrect(owner, n))
        for h in holders(self, "necromancer"):
            if h != owner:
                self.later(Necro(h, i, n))
        for h in holders(self, "reactive"):
            self.later(React(h, i))

    # -- movement -----------------------------------------------------------------------------------
    def step_piece(self, kind: str, owner: str, frm: int, to: int, by: str) -> bool:
        """Move one piece one space (or anywhere, for effects); returns False if it was lost on the
        way (an Acolyte that died on arrival)."""
        if kind == "colossus":
            self.colossus_leaves(owner, frm, to, by)
            self.set_colossus(owner, to)
            if has(self, owner, "protective"):
                self.unguarded(frm, owner, by)  # Protective's guard goes with the Colossus
            if self.acts_as(owner) == "guards":  # so does a Stone Beast Colossus's (judged above while it stood)
                self.unguarded(frm, None, by)
        else:
            self.add_acol(frm, owner, -1)
            self.add_acol(to, owner, 1)
        return self.arrive(kind, owner, to, by)

    def acts_as(self, owner: str) -> str | None:
        """The Beast passive ``owner``'s Colossus has (Animalistic, CL-35), None without one."""
        a = self.P(owner).animal
        return self.C.beasts[a].beast.passive if a is not None and a in self.C.beasts else None

    def colossus_leaves(self, owner: str, frm: int, to: int, by: str) -> None:
        passive = self.acts_as(owner)
        if passive is not None:
            self.beast_leaves(passive, frm, to, by)

    def arrive(self, kind: str, owner: str, to: int, by: str, count: int = 1) -> bool:
        sp = self.spaces[to]
        if sp.tile is None:
            if not self.explore_pending(to):
                self.later(Explore(to, by))
            return True
        trig = self.C.tiles[sp.tile].trigger
        if trig is not None and trig.kind == "gold-on-entry":
            self.add_gold_cubes(to, int(trig.params["amount"]) * count)
        if kind == "acolyte":
            if deadly(self, to, owner):
                self.kill(to, owner, count, by)
                return False
        elif kind == "colossus":
            passive = self.acts_as(owner)
            if passive is not None:
                self.beast_enters(passive, to, by)
        return True

    def place(self, pid: str, i: int, n: int, by: str) -> int:
        """Put up to ``n`` Acolytes of ``pid`` from hand on ``i`` (hand and caps permitting)."""
        k = min(n, acolyte_room(self, pid))
        if k <= 0:
            return 0
        p = self.P(pid)
        self.setP(pid, acolytes=p.acolytes - k)
        self.add_acol(i, pid, k)
        self.arrive("acolyte", pid, i, by, count=k)
        return k

    def push_acolytes(self, moves: list[tuple[int, str, int, int | None]], by: str) -> None:
        """Simultaneous forced moves: (from, owner, count, to or None = off the island)."""
        for frm, owner, n, _ in moves:
            self.add_acol(frm, owner, -n)
        for frm, owner, n, to in moves:
            if to is None:
                self.kill(frm, owner, n, by, on_board=False)
            else:
                self.add_acol(to, owner, n)
                self.arrive("acolyte", owner, to, by, count=n)

    # -- Beasts -------------------------------------------------------------------------------------
    def beast_leaves(self, passive: str, frm: int, to: int, by: str) -> None:
        if passive == "guards":
            self.unguarded(frm, None, by)
        elif passive == "drops-gold":
            self.add_gold_cubes(frm, GOLDEN_DROP)
        elif passive == "carries-loot":
            self.move_cubes(frm, to)
        elif passive == "carries-acolytes":
            sp = self.spaces[frm]
            moves = []
            for k, pid in enumerate(seats(self)):
                n = acol(sp, k)
                if n and not acolyte_protected(self, frm, pid):
                    moves.append((frm, pid, n, to))
            self.push_acolytes(moves, by)

    def beast_enters(self, passive: str, to: int, by: str) -> None:
        if passive == "kills-acolytes" or self.options.beast_kills_on_space:
            sp = self.spaces[to]
            for k, pid in enumerate(seats(self)):
                if acol(sp, k):
                    self.kill(to, pid, acol(sp, k), by)
        if passive == "reproduces-loot":
            self.produce(to)
        elif passive == "scores-banners":
            owners: list[str] = []
            for o in self.spaces[to].banners:
                if o not in owners:
                    owners.append(o)
            for o in owners:
                self.later(ScoreOp(o, to, rest=False))

    def move_beast(self, beast: str, to: int, by: str) -> None:
        frm = beast_space(self, beast)
        passive = self.C.beasts[beast].beast.passive
        if frm is not None:
            bs = list(self.spaces[frm].beasts)
            bs.remove(beast)
            self.setS(frm, beasts=tuple(bs))
            self.beast_leaves(passive, frm, to, by)
        self.setS(to, beasts=self.spaces[to].beasts + (beast,))
        if self.spaces[to].tile is None:
            if not self.explore_pending(to):
                self.later(Explore(to, by))
        self.beast_enters(passive, to, by)

    # -- Banners ------------------------------------------------------------------------------------
    def put_banner(self, pid: str, i: int, by_move_from: int | None = None) -> None:
        """Raise (or move, from ``by_move_from``) ``pid``'s Banner on ``i``; an opponent's Banner
        there goes back to its owner (CL-4.3) with its owner's Traits (Extortionist, Vengeful)."""
        sp = self.spaces[i]
        replaced = [o for o in sp.banners if o != pid]
        mine = tuple(o for o in sp.banners if o == pid)
        for o in replaced:
            self.setP(o, banners=self.P(o).banners + 1)
        if by_move_from is None:
            self.setP(pid, banners=self.P(pid).banners - 1)
        else:
            bs = list(self.spaces[by_move_from].banners)
            if pid not in bs:
                raise Undefined(f"{pid} has no Banner on space {by_move_from} to move")
            bs.remove(pid)
            self.setS(by_move_from, banners=tuple(bs))
        self.setS(i, banners=mine + (pid,))
        if self.spaces[i].tile is not None:
            trig = self.C.tiles[self.spaces[i].tile].trigger
            if trig is not None and trig.kind == "gold-on-banner":
                self.add_gold_cubes(i, int(trig.params["amount"]))
        seen: list[str] = []
        for o in replaced:
            if o in seen:
                continue
            seen.append(o)
            if has(self, o, "extortionist"):
                self.transfer(pid, o, tparam("extortionist", "gold"))
            if has(self, o, "vengeful"):
                sp = self.spaces[i]
                for k, q in enumerate(seats(self)):
                    if acol(sp, k):
                        self.kill(i, q, acol(sp, k), o)
        for h in holders(self, "territorial"):
            if h != pid and any(h in self.spaces[a].banners for a in self.B.adj[i]):
                self.gain(h, tparam("territorial", "gold"))

    def take_banners(self, pid: str, i: int) -> int:
        sp = self.spaces[i]
        n = sum(1 for o in sp.banners if o == pid)
        if n:
            self.setS(i, banners=tuple(o for o in sp.banners if o != pid))
            self.setP(pid, banners=self.P(pid).banners + n)
        return n
