"""A LOGOS position as a game-neutral scene (for the replay viewers).

Each player has zones (card slots, the Backup Slot, the pick, the battle card, the combo
counter, discard pile, deck) and counters (the round, hit points, card slots).  Cards and combo
panels are tinted in their class's printed colour (matter red, energy green, information blue,
neutral white, life purple) and tagged with the class.  The scene is drawn
from the position as the viewer observes it (``observe.py`` decides what is hidden; a hidden
card is drawn face down).  A commitment (hidden pick) is a face-down card for everybody, the
judge included, until it is opened.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.scene import Card, Counter, PlayerInfo, Scene, Zone

from .cards import COLOUR_OF, Pool, load_pool
from .state import Player, State
from .unknowns import possible
from .values import card_stats, pool_of

#: players have no colour of their own: seat colours for the viewers
_SEAT_COLOURS = ("blue", "red")


def _card(pool: Pool, cid: str, card_id: str | None = None, extra: list[str] | None = None) -> Card:
    c = pool.get(cid)
    if c is None:
        return Card(id=card_id or cid, name=cid, tags=extra or [])
    tags = [c.klass, f"attack {c.attack:,}", f"defense {c.defense:,}", f"speed {c.speed}"]
    if c.has_combo:
        tags.append("combo " + "/".join(c.combo))
    return Card(id=card_id or cid, name=c.name, colour=COLOUR_OF.get(c.klass), tags=tags + (extra or []), card=cid)


def _battle(s: State, pool: Pool, p: Player, cid: str, extra: list[str]) -> Card:
    """The battle card with its current values (after the temporary effects)."""
    c = pool.get(cid)
    if c is None:
        return Card(id=cid, name=cid, tags=extra)
    k, a, d, sp = card_stats(pool_of(s), cid, p.mods)
    tags = [k, f"attack {a:,}", f"defense {d:,}", f"speed {sp}"] + [f"effect {m}" for m in p.mods]
    if p.double_combo:
        tags.append("double combo")
    return Card(id=cid, name=c.name, colour=COLOUR_OF.get(k), tags=tags + extra, card=cid)


def _panels(panels: tuple[str | None, ...]) -> list[Card]:
    """A combo counter: panel 1 holds the latest colour."""
    return [Card(id=f"panel {i + 1}", name=p or "empty", colour=COLOUR_OF.get(p) if p else None, tags=[p] if p else ["empty"])
            for i, p in enumerate(panels)]


def scene(game: Any, s: State, player: str | None) -> Scene:
    pool = load_pool(s.setup.pool, s.setup.pool_sha256)
    opts = s.options
    zones: list[Zone] = []
    counters: list[Counter] = [Counter(id="round", label="Round", value=s.round, max=opts.max_rounds)]
    infos: list[PlayerInfo] = []
    for seat, p in enumerate(s.players):
        detail = ["first player" if seat == 0 else "second player"]
        if p.defenseless:
            detail.append("defenseless")
        if p.shield:
            detail.append("shielded (Neutralize)")
        infos.append(PlayerInfo(id=p.id, label=p.id, colour=_SEAT_COLOURS[seat % 2], detail=", ".join(detail)))
        zones += _seat_zones(s, pool, p)
        counters += [
            Counter(id=f"{p.id}.hp", label="Hit points", value=p.hp, owner=p.id, max=opts.start_hp),
            Counter(id=f"{p.id}.slots", label="Card slots", value=len(p.slots), owner=p.id, max=opts.max_slots),
        ]
    if opts.combo_counter == "shared":
        zones.append(Zone(id="shared.combo", label="Shared combo counter", cards=_panels(s.shared_combo)))
    status, outcome = _status(game, s)
    return Scene(game=game.id, view=player, status=status, players=infos, to_act=game.to_act(s),
                 zones=zones, counters=counters, notes=_notes(game, s, pool), outcome=outcome)


def _seat_zones(s: State, pool: Pool, p: Player) -> list[Zone]:
    """One player's zones: card slots, Backup slot, pick, battle card, combo counter, discard, deck."""
    o = p.id
    # a card the record leaves unknown (LG-35): what it can still be; a card hidden from this
    # viewer (observe.py) says nothing
    can = possible(s, p) if p.unknown else None
    unknown = Card(face_up=False, possible=can)
    slots = []
    for i, c in enumerate(p.slots):
        sid = f"slot {i + 1}"
        if c is None:
            slots.append(Card(id=sid, tags=["empty"]))
        elif c == HIDDEN:
            slots.append(Card(id=sid, face_up=False, possible=can))
        else:
            slots.append(_card(pool, c, sid))
    backup = []
    if p.backup is not None:
        backup.append(Card(id="backup", face_up=False, possible=can) if p.backup == HIDDEN else _card(pool, p.backup, "backup"))
    # the pick: chosen (or committed to) but not revealed yet
    pick: list[Card] = []
    battle: list[Card] = []
    if p.battle is not None and not p.public:
        pick.append(Card(face_up=False, tags=["picked"]) if p.battle == HIDDEN else _battle(s, pool, p, p.battle, ["not revealed yet"]))
    elif p.battle == HIDDEN:
        battle.append(unknown)
    elif p.battle is not None:
        battle.append(_battle(s, pool, p, p.battle, []))
    elif p.commitment is not None:
        # a commitment hides the card from everybody, the judge included, until it is opened
        pick.append(Card(face_up=False, tags=["committed", p.commitment[:12]]))
    zones = [Zone(id=f"{o}.slots", label="Card slots", owner=o, cards=slots),
             Zone(id=f"{o}.backup", label="Backup slot", owner=o, cards=backup),
             Zone(id=f"{o}.pick", label="Pick", owner=o, cards=pick),
             Zone(id=f"{o}.battle", label="Battle card", owner=o, cards=battle)]
    if s.options.combo_counter == "per-player":
        zones.append(Zone(id=f"{o}.combo", label="Combo counter", owner=o, cards=_panels(p.combo)))
    zones.append(Zone(id=f"{o}.discard", label="Discard", owner=o, cards=[unknown if c == HIDDEN else _card(pool, c) for c in p.discard]))
    zones.append(Zone(id=f"{o}.deck", label="Deck", owner=o, count=len(p.deck)))
    return zones


def _status(game: Any, s: State) -> tuple[str, str | None]:
    """The status line and the outcome (None while the match goes on)."""
    if s.result is not None:
        r = s.result
        outcome = f"{r.winner} wins by {r.reason}" if r.winner else f"draw ({r.reason})"
        return f"round {s.round}, over: {outcome}", outcome
    status = f"round {s.round}, {s.phase}" + (f" ({s.step})" if s.step else "")
    who = game.to_act(s)
    if who:
        status += f"; {' and '.join(who)} to act"
    return status, None


def _notes(game: Any, s: State, pool: Pool) -> list[str]:
    """What the position waits for, who is defenseless or shielded, the direction, the effects
    to fire, the Backup window, the strikes, the combo pushes and the stall count."""
    notes: list[str] = []
    if s.result is None and len(s.players) == 2:
        notes.append(f"waiting for: {game.rules.expected(s)}")
    for p in s.players:
        if p.defenseless:
            notes.append(f"{p.id} is defenseless this round")
        if p.shield:
            notes.append(f"{p.id} is shielded (Neutralize): effects on {p.id} are blocked this round")
    d = s.direction
    if d is not None:
        notes.append("direction: deadlock" if d.basis == "deadlock"
                     else f"direction: {d.attacker} attacks {d.defender} ({d.basis})")
    if s.effects:
        notes.append("effects to fire: " + ", ".join(
            f"{i.player}'s {pool[i.card].name if i.card in pool else i.card} {i.field}" for i in s.effects))
    if s.step == "backup" and s.priority:
        notes.append(f"backup window: {s.priority} may call the Backup card")
    if s.striker is not None and s.step == "strike":
        notes.append(f"strike: {s.striker} strikes next ({s.strikes} strike(s) so far)")
    for push in s.pushes:
        notes.append(f"combo push to {push.counter}: {', '.join(push.colours)}")
    if s.stall:
        notes.append(f"rounds in a row with both players defenseless: {s.stall} of {s.options.stall_rounds}")
    return notes
