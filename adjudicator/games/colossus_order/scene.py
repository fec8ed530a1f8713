"""A Colossus Order position as a game-neutral scene (for the replay viewers).

There is no board: each player has zones (hand, field, Locus row, set gems, captured gems,
discard, deck, cards revealed from the deck) and counters (deck, hand, Locus points).  The
scene is drawn from the position as the viewer observes it (``observe.py`` decides what is
hidden): a hidden card is drawn face down, and nothing is hidden here.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.scene import Card, Counter, PlayerInfo, Scene, Zone

from .cards import Pool, load_pool
from .state import (
    Block, Capture, ChooseFirst, Declare, DiscardDeclared, Draw, Follower, Mill, Mulligan, Player, ReplaceLocus, Reveal,
    RevealTop, Shuffle, State, Window,
)

#: players are drawn in their Colossus's colour; in these (seat order) when the two Colossi share one
_SEAT_COLOURS = ("blue", "red")


def _card(pool: Pool, cid: str, *, card_id: str | None = None, face_up: bool = True, tags: list[str] | None = None,
          possible: list[str] | None = None) -> Card:
    """A card as the viewer sees it (``face_up=False``: face down on the table, known to the viewer;
    a hidden card: face down, no identity, and ``possible``: what the record says it can still be)."""
    if cid == HIDDEN:
        return Card(id=card_id, face_up=False, tags=tags or [], possible=possible)
    c = pool.get(cid)
    if c is None:
        return Card(id=card_id or cid, name=cid, face_up=face_up, tags=tags or [])
    if tags is None:
        tags = [c.type]
        if c.locus_cost:
            tags.append(f"cost {c.locus_cost}")
        if c.is_follower:
            tags.append(f"{c.attack}/{c.defence}")
    return Card(id=card_id or cid, name=c.name, face_up=face_up, colour=c.colour, tags=tags, card=cid)


def _follower(game: Any, s: State, pool: Pool, owner: Player, f: Follower) -> Card:
    a, d, cr, ca = game.rules.stats(s, owner, f)
    tags = ["ON" if f.on else "OFF", f"{a}/{d}"]
    if cr:
        tags.append(f"crush {cr}")
    if ca:
        tags.append(f"capture {ca}")
    if f.damage:
        tags.append(f"damage {f.damage}")
    if f.played_turn == s.turn and s.turn:
        tags.append("new")
    if f.attacked:
        tags.append("attacked")
    c = pool.get(f.card)
    return Card(id=f.handle, name=c.name if c else f.card, colour=c.colour if c else None, tags=tags,
                card=f.card if c else None)


_STEPS = {Shuffle: "shuffle", ChooseFirst: "first player", Draw: "draw", Mulligan: "opening exchange",
          Block: "block or not", Window: "X-play window", Reveal: "reveal from the deck", Capture: "capture gems",
          ReplaceLocus: "replace a Locus card", DiscardDeclared: "discard declared cards", Declare: "declare an effect",
          RevealTop: "reveal the top of the deck", Mill: "put the top of the deck into the discard pile"}


def _step(s: State) -> str:
    """The pending step in a few words."""
    h = s.todo[0] if s.todo else None
    if h is None:
        return "open timing" if s.phase == "main" else s.phase
    return _STEPS.get(type(h), type(h).__name__)


def _name(pool: Pool, cid: str | None) -> str:
    c = pool.get(cid) if cid is not None else None
    return c.name if c is not None else str(cid)


def scene(game: Any, s: State, player: str | None) -> Scene:
    pool = load_pool(s.setup.pool, s.setup.pool_sha256)
    zones: list[Zone] = []
    counters: list[Counter] = []
    infos: list[PlayerInfo] = []
    for p, colour in zip(s.players, _colours(pool, s)):
        infos.append(_info(pool, s, p, colour))
        zones += _seat_zones(game, s, pool, p)
        free = max(0, len(p.locus) - p.locus_used)
        counters += [
            Counter(id=f"{p.id}.deck", label="Deck", value=p.deck_count, owner=p.id),
            Counter(id=f"{p.id}.hand", label="Hand", value=len(p.hand), owner=p.id),
            Counter(id=f"{p.id}.locus", label="Locus points free", value=free, owner=p.id, max=len(p.locus)),
        ]
    zones.append(Zone(id="chain", label="X-play chain (last resolves first)", cards=[
        _card(pool, i.card, card_id=f"chain {k + 1}",
              tags=[i.player, i.kind] + ([f"from {i.source}"] if i.source else []) + [f"-> {x}" for x in i.targets])
        for k, i in enumerate(s.chain)]))
    status, outcome = _status(game, s)
    return Scene(game=game.id, view=player, status=status, players=infos, to_act=game.to_act(s),
                 zones=zones, counters=counters, notes=_notes(game, s, pool), outcome=outcome)


def _colours(pool: Pool, s: State) -> list[str | None]:
    """Each seat's colour: its Colossus's, or the seat colours when two Colossi share one."""
    colours = [c.colour if (c := pool.get(p.colossus)) is not None and c.colour else None for p in s.players]
    if None in colours or len(set(colours)) < len(colours):
        colours = [_SEAT_COLOURS[i % 2] for i in range(len(s.players))]
    return colours


def _info(pool: Pool, s: State, p: Player, colour: str | None) -> PlayerInfo:
    col = pool.get(p.colossus)
    detail = [col.name if col else p.colossus]
    if s.first == p.id:
        detail.append("first player")
    if s.turn_player == p.id:
        detail.append("turn player")
    return PlayerInfo(id=p.id, label=p.id, colour=colour, detail=", ".join(detail))


def _seat_zones(game: Any, s: State, pool: Pool, p: Player) -> list[Zone]:
    """One player's zones: the Colossus (with the abilities used this turn), hand, field, Locus,
    set and captured gems, discard, deck, the cards known on top of it and the cards revealed from it."""
    o = p.id
    # CO-39: what an unknown card of the record can still be (empty in a full-information match)
    unseen = set(p.unseen)
    possible = [c for c in pool.cards if c in unseen] if unseen else None
    ctags = [f"ability {i + 1} used" for i in p.colossus_used]
    locus = []
    for sl in p.locus:
        tags = [f"slot {sl.id}", "face up" if sl.face_up else "face down"]
        if sl.known and not sl.face_up:
            tags.append("known")
        if sl.card is not None:
            locus.append(_card(pool, sl.card, card_id=f"slot {sl.id}", face_up=sl.face_up, tags=tags, possible=possible))
        else:
            locus.append(Card(id=f"slot {sl.id}", face_up=False, tags=tags))
    return [
        Zone(id=f"{o}.colossus", label="Colossus", owner=o, cards=[_card(pool, p.colossus, tags=ctags or ["colossus"])]),
        Zone(id=f"{o}.hand", label="Hand", owner=o, cards=[_card(pool, c, possible=possible) for c in p.hand]),
        Zone(id=f"{o}.field", label="Field", owner=o, cards=[_follower(game, s, pool, p, f) for f in p.field]),
        Zone(id=f"{o}.locus", label="Locus", owner=o, cards=locus),
        Zone(id=f"{o}.gems", label="Set gems", owner=o, cards=[_card(pool, c) for c in p.set_gems]),
        Zone(id=f"{o}.captured", label="Captured gems", owner=o, cards=[_card(pool, c) for c in p.captured]),
        Zone(id=f"{o}.discard", label="Discard", owner=o, cards=[_card(pool, c) for c in p.discard]),
        Zone(id=f"{o}.deck", label="Deck", owner=o, count=p.deck_count),
        Zone(id=f"{o}.deck-known", label="Known on top of the deck", owner=o, cards=[_card(pool, c) for c in p.deck_known]),
        # CO-42: the cards a player looked at and put back (named in that player's view alone)
        *([Zone(id=f"{o}.deck-peek", label=f"Looked at by {p.peek_by}, below the known top", owner=o,
                cards=[_card(pool, c) for c in p.deck_peek])] if p.deck_peek else []),
        # CO-42.3: in a seat's record, the cards a look it did not see put back, in an order it does not know
        *([Zone(id=f"{o}.deck-mixed", label="Put back on top by a look, in an order not known here"
                + (f" (among {', '.join(p.mixed_could)})" if p.mixed_could else ""), owner=o,
                cards=[_card(pool, c) for c in p.deck_mixed])] if p.deck_mixed else []),
        Zone(id=f"{o}.revealed", label="Revealed from the deck", owner=o, cards=[_card(pool, c) for c in p.revealed]),
    ]


def _status(game: Any, s: State) -> tuple[str, str | None]:
    """The status line and the outcome (None while the match goes on)."""
    if s.result is not None:
        r = s.result
        status = f"turn {s.turn}, over: {r.winner} wins by {r.reason}" if r.winner else f"turn {s.turn}, over: draw ({r.reason})"
        return status, (f"{r.winner} wins by {r.reason}" if r.winner else f"draw ({r.reason})")
    status = f"turn {s.turn}, {s.turn_player}'s {s.phase} phase" if s.turn_player else "set-up"
    who = game.to_act(s)
    if who:
        status += f"; {' and '.join(who)} to act ({_step(s)})"
    return status, None


def _notes(game: Any, s: State, pool: Pool) -> list[str]:
    """What the position waits for, the attack, the X-play chain and what was set this turn."""
    notes: list[str] = []
    if s.result is None:
        notes.append(f"waiting for: {game.rules.expected(s)}")
    at = s.attack
    if at is not None:
        if at.target == "locus":
            tgt = f"Locus slot {at.slot} of {s.other(at.player)}"
        elif at.target == "follower":
            tgt = f"follower {at.follower}"
        else:
            tgt = f"{s.other(at.player)}'s deck"
        who = f"{at.attacker} ({_name(pool, at.card)})" if at.card else at.attacker
        line = f"attack: {who} of {at.player} -> {tgt}"
        if at.blocker:
            line += f", blocked by {at.blocker}"
        notes.append(line)
    if s.chain:
        notes.append("X-play chain (last resolves first): " + " <- ".join(
            f"{_name(pool, i.card)} [{i.player}, {i.kind}{' ' + i.source if i.source else ''}"
            f"{' -> ' + ', '.join(i.targets) if i.targets else ''}]" for i in s.chain))
    for p in s.players:
        done = [w for w, flag in (("gem", p.gem_set), ("Locus card", p.locus_set)) if flag]
        if done and s.turn_player == p.id and s.result is None:
            notes.append(f"{p.id} has set a {' and a '.join(done)} this turn")
    return notes
