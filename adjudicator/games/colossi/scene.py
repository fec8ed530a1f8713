"""A Colossi position as a game-neutral scene (for the replay viewers).

The board is the island of the ruleset's board file.  On the default ``hex27`` island (rows of 5,
6, 5, 6 and 5 hexagons, stored in doubled-column coordinates) it is a ``hex`` board whose cells
sit at ``x = column / 2`` (so the rows of 5 are offset half a cell against the rows of 6, which
stick out on both sides) and ``y = row``; any other island (``square27``, eight directions) is a
``graph`` board at the file's coordinates.  Every space is a cell: ``terrain`` is ``grass``,
``start`` or the tile id of an Environment or lair (``unexplored`` before exploration),
``label`` the space number and a short tile name, ``controller`` the engine's control rule
(CL-4.1), pieces the Colossi (kind ``colossus``), the Beasts (``beast``, neutral), the Banners
(``banner``, one piece each) and the Acolytes (``acolyte``, one piece per owner labelled with
the count), markers one ``loot:gold`` / ``loot:blue`` / ``loot:green`` per Loot cube.  Edges
are the adjacency pairs of the board file.

Zones: each player's hand, Traits and Curses; the face-up Trait row, the Trait deck (a count),
the Trait discard, the Colossus deck (a count), its discard, the tile deck (a count), the tiles
out of the game (a count) and, while they exist, the Growth pool and the Exchange pile.
Counters: Gold (max = the Gold target), hand size (max = the hand limit), Acolytes and Banners
in hand per player; Actions left, moves and cards played this turn for the turn player.
The scene is drawn from the position as the viewer observes it (``observe.py`` decides what
is hidden): another player's hand is face-down cards without names.
"""

from __future__ import annotations

from typing import Any

import msgspec

from adjudicator.core.kernel.events import HIDDEN
from adjudicator.core.kernel.scene import Board, Card, Cell, Counter, Piece, PlayerInfo, Scene, Zone

from . import engine as Q
from .data import board, content
from .state import OPS, Actions, BannerChoice, Deploy, EndTurn, Replenish, Rest, StartTurn, State
from .unknowns import possible_cards

#: players' colours, by seat
COLOURS = ("blue", "red", "green", "yellow")
LOOT = ("gold", "blue", "green")
#: the parts of a turn (the head of the task queue, or the first of these queued behind a choice)
PHASES = {StartTurn: "start of the turn", Replenish: "Replenish", Actions: "Actions",
          BannerChoice: "Banner phase", Deploy: "Banner phase: Deploy", Rest: "Banner phase: Rest",
          EndTurn: "end of the turn"}
SETUP_STEPS = {"choose-first": "choose the first player", "set-aside": "set tiles aside",
               "reveal-trait": "reveal the Trait row", "draft": "draft Traits", "draw": "deal the hands",
               "place-start": "place the Starting Environments"}
#: short names for tiles whose names are long
SHORT = {"start": "Start", "mountaintop-of-the-giants": "Mountaintop", "hallowed-ground": "Hallowed Gd",
         "treasure-trove": "Trove", "speedy-slopes": "Slopes", "magnetic-maar": "Maar",
         "trading-post": "Trading Post", "golden-dunes": "Dunes", "beast-mantle": "Mantle"}


def short_name(tile: str) -> str:
    t = content().tiles.get(tile)
    if t is None:
        return tile
    if tile in SHORT:
        return SHORT[tile]
    if t.kind == "grass":
        return t.name.replace("Grass (", "Grass ").rstrip(")")
    if t.kind == "lair" and t.beast is not None:
        return t.beast.name.replace(" Beast", "") + " lair"
    return t.name


def terrain(tile: str | None) -> str:
    if tile is None:
        return "unexplored"
    t = content().tiles.get(tile)
    if t is None:
        return tile
    return t.kind if t.kind in ("grass", "start") else tile


def beast_label(beast: str) -> str:
    info = content().beasts.get(beast)
    name = info.beast.name if info is not None and info.beast is not None else beast
    return name[:3]


def build_board(s: State) -> Board:
    b = board(s.options.board, s.setup.board_sha256)
    ids = Q.seats(s)
    hexes = len(b.directions) == 6
    cells: list[Cell] = []
    for i, sp in enumerate(s.spaces):
        bx, by = b.xy[i] if i < len(b.xy) else (i, 0)
        x: float = bx / 2 if hexes else bx
        pieces: list[Piece] = []
        for o in sp.colossi:
            pieces.append(Piece(id=f"colossus:{o}", label="C", owner=o, kind="colossus"))
        for beast in sp.beasts:
            pieces.append(Piece(id=f"beast:{beast}", label=beast_label(beast), kind="beast"))
        seen: dict[str, int] = {}
        for o in sp.banners:
            k = seen[o] = seen.get(o, 0) + 1
            pieces.append(Piece(id=f"banner:{o}:{i}:{k}", label="B", owner=o, kind="banner"))
        for k, n in enumerate(sp.acolytes):
            if n > 0 and k < len(ids):
                pieces.append(Piece(id=f"acolytes:{ids[k]}:{i}", label=f"a{n}", owner=ids[k], kind="acolyte"))
        markers = ["loot:gold"] * sp.gold + ["loot:blue"] * sp.blue + ["loot:green"] * sp.green
        label = str(i) if sp.tile is None else f"{i} {short_name(sp.tile)}"
        if sp.owner:
            label += f" {sp.owner}"
        cells.append(Cell(id=str(i), x=x, y=by, terrain=terrain(sp.tile), label=label,
                          controller=Q.control(s, i), pieces=pieces, markers=markers))
    edges = [(str(i), str(j)) for i, adj in enumerate(b.adj) for j in adj if i < j]
    xs = [c.x for c in cells] or [0]
    ys = [c.y for c in cells] or [0]
    width = int(max(xs) - min(xs)) + 1
    height = int(max(ys) - min(ys)) + 1
    return Board(kind="hex" if hexes else "graph", width=width, height=height, cells=cells, edges=edges)


def _card(cid: str, tags: list[str] | None = None) -> Card:
    c = content().cards.get(cid)
    if c is None:
        return Card(id=cid, name=cid, tags=tags or [])
    return Card(id=cid, name=c.name, colour=c.type, tags=[c.type] + (tags or []), card=cid)


def _cards(s: State, cids: tuple[str, ...]) -> list[Card]:
    """Cards of a zone; a hidden one face down, and in a seat's record (CL-40) with what it can
    still be (``Card.possible``: the cards no zone shows, each once, deck order)."""
    if HIDDEN not in cids:
        return [_card(c) for c in cids]
    # only a record with unknown identities says what they can be: in a seat's view of a full
    # record the list would name the very cards that view hides (tests/test_hiding.py)
    possible = (possible_cards(s) or None) if s.unseen is not None else None
    return [Card(face_up=False, possible=possible) if c == HIDDEN else _card(c) for c in cids]


def _trait(tid: str, tags: list[str] | None = None) -> Card:
    t = content().traits.get(tid)
    return Card(id=tid, name=t.name if t is not None else tid, colour="trait", tags=tags or [])


def phase(s: State) -> str:
    """The part of the turn (or of the set-up), and the step a choice adds to it."""
    h = Q.head(s)
    if s.turn_player is None:
        tag = type(h).__struct_config__.tag if h is not None else None
        return "set-up" + (f" ({SETUP_STEPS.get(str(tag), str(tag))})" if tag else "")
    if h is None:
        return "no step"
    t = type(h)
    if t in PHASES:
        return PHASES[t]
    main = next((PHASES[type(task)] for task in s.todo if type(task) in PHASES), None)
    step = type(h).__struct_config__.tag
    return f"{main}, {step}" if main else str(step)


def _fact(v: Any) -> str:
    """One element of a task's tuple field: a number, an id, or a small struct as ``a:b:c``."""
    if isinstance(v, msgspec.Struct):
        return ":".join(str(getattr(v, f)) for f in v.__struct_fields__ if getattr(v, f) is not None)
    if isinstance(v, tuple):
        return ":".join(map(str, v))
    return str(v)


def describe_task(task: Any) -> str:
    tag = type(task).__struct_config__.tag
    who = getattr(task, "player", None)
    facts = []
    for f in task.__struct_fields__:
        v = getattr(task, f)
        if f != "player" and v not in (None, False, (), ""):
            facts.append(f"{f}={' '.join(map(_fact, v)) if isinstance(v, tuple) else v}")
    return f"{tag}" + (f" ({who})" if who else "") + (f" [{', '.join(facts)}]" if facts else "")


def scene(game: Any, s: State, player: str | None) -> Scene:
    infos: list[PlayerInfo] = []
    zones: list[Zone] = []
    counters: list[Counter] = []
    for seat, p in enumerate(s.players):
        infos.append(_info(s, seat, p))
        zones += _seat_zones(s, p)
        counters += [
            Counter(id=f"{p.id}.gold", label="Gold", value=p.gold, owner=p.id, max=s.options.gold_target),
            Counter(id=f"{p.id}.hand", label="Hand size", value=len(p.hand), owner=p.id, max=Q.hand_limit(s, p.id)),
            Counter(id=f"{p.id}.acolytes", label="Acolytes in hand", value=p.acolytes, owner=p.id),
            Counter(id=f"{p.id}.banners", label="Banners in hand", value=p.banners, owner=p.id),
        ]
    zones += _shared_zones(s)
    tp = s.turn_player
    if tp is not None and s.result is None:
        counters += [
            Counter(id="turn.actions", label="Actions left", value=max(s.info.actions, 0), owner=tp,
                    max=Q.action_allowance(s, tp)),
            Counter(id="turn.moves", label="Moves this turn", value=s.info.moves, owner=tp),
            Counter(id="turn.cards", label="Cards played this turn", value=s.info.cards, owner=tp),
        ]
    status, outcome, notes = _status(game, s)
    notes += _notes(s)
    return Scene(game=game.id, view=player, status=status, players=infos, to_act=game.to_act(s),
                 board=build_board(s), zones=zones, counters=counters, notes=notes, outcome=outcome)


def _info(s: State, seat: int, p: Any) -> PlayerInfo:
    detail = [f"seat {seat + 1}"]
    if p.colossus is not None:
        detail.append(f"Colossus on {p.colossus}")
    if s.first == p.id:
        detail.append("first player")
    if s.turn_player == p.id and s.result is None:
        detail.append("turn player")
    if p.id in s.reached:
        detail.append("reached the Gold target")
    return PlayerInfo(id=p.id, label=p.id, colour=COLOURS[seat % len(COLOURS)], detail=", ".join(detail))


def _seat_zones(s: State, p: Any) -> list[Zone]:
    """One player's hand (a hidden card face down), Traits (a lent one tagged) and Curses."""
    hand = _cards(s, p.hand)
    traits = [_trait(t, ["lent"] if s.info.lender == p.id and s.info.borrowed == t else None) for t in p.traits]
    return [Zone(id=f"{p.id}.hand", label="Hand", owner=p.id, cards=hand),
            Zone(id=f"{p.id}.traits", label="Traits", owner=p.id, cards=traits),
            Zone(id=f"{p.id}.curses", label="Curses", owner=p.id, cards=[_card(c) for c in p.curses])]


def _shared_zones(s: State) -> list[Zone]:
    """The Trait row, deck and discard, the Colossus deck and discard, the tiles, and while they
    exist the Growth pool and the Exchange pile."""
    zones = [
        Zone(id="trait-row", label="Trait row", cards=[_trait(t) for t in s.trait_row]),
        Zone(id="trait-deck", label="Trait deck", count=len(s.trait_deck)),
        Zone(id="trait-discard", label="Trait discard", cards=[_trait(t) for t in s.trait_discard]),
        Zone(id="card-deck", label="Colossus deck", count=len(s.card_deck) + len(s.card_top)),
        Zone(id="discard", label="Colossus discard", cards=_cards(s, s.discard)),
        Zone(id="tile-deck", label="Tile deck", count=len(s.tile_deck) + len(s.tile_top)),
        Zone(id="tile-box", label="Tiles out of the game", count=len(s.tile_box)),
    ]
    if s.growth:
        zones.append(Zone(id="growth", label="Growth pool", cards=[_trait(t) for t in s.growth]))
    if s.pile:
        zones.append(Zone(id="pile", label="Exchange pile", cards=_cards(s, s.pile)))
    return zones


def _status(game: Any, s: State) -> tuple[str, str | None, list[str]]:
    """The status line, the outcome (None while the match goes on) and the pending tasks."""
    r = s.result
    if r is not None:
        outcome = f"{r.winner} wins by {r.reason}" if r.winner else f"{r.result} ({r.reason})"
        gold = ", ".join(f"{p.id} {p.gold}" for p in s.players)
        return f"turn {s.turn}, over: {outcome} (Gold: {gold})", outcome, []
    notes: list[str] = []
    expected = game.rules.expected(s)
    tp = s.turn_player
    if tp is None:
        status = f"{phase(s)}: waiting for {expected}"
    else:
        status = f"turn {s.turn}, {tp}'s turn, {phase(s)}: waiting for {expected}"
    h = Q.head(s)
    if h is not None:
        notes.append(f"pending: {describe_task(h)}")
    queued = [describe_task(t) for t in s.todo[1:] if type(t) not in OPS]
    if queued:
        notes.append("then: " + "; ".join(queued))
    return status, None, notes


def _notes(s: State) -> list[str]:
    """The Gold target reached, a piece on the road, the turn's effects (Sly, Mimicry, Dominate,
    the Time Beast's Actions, the Banner phase), the Deep Mines and Colossi acting as Beasts."""
    C = content()
    notes: list[str] = []
    over = s.result is not None
    tp = s.turn_player
    if s.reached:
        notes.append(f"Gold target {s.options.gold_target} reached by: {', '.join(s.reached)}")
    if s.road is not None and not over:
        r = s.road
        notes.append(f"{r.player} moving the {r.piece} of {r.owner}: at {r.at}, visited "
                     f"{' '.join(str(v) for v in r.visited)}, road {'open' if r.open else 'closed'}"
                     + (f" ({r.why})" if r.why else ""))
    if tp is not None and not over:
        i = s.info
        if i.sly:
            notes.append(f"{tp} named {i.sly} (Sly)")
        if i.borrowed:
            name = C.traits[i.borrowed].name if i.borrowed in C.traits else i.borrowed
            notes.append(f"{tp} borrows {name} from {i.lender} (Mimicry)")
        if i.dominate:
            notes.append(f"{tp} played Dominate this turn")
        if i.extra:
            notes.append(f"{i.extra} Actions owed after the Rest (Time Beast)")
        if i.banner == "deploy and rest":
            notes.append("Banner phase: deploy and rest (Dominate)")
    for n, sp in enumerate(s.spaces):
        if sp.mines:
            notes.append(f"Deep Mines on space {n}: scored {sp.mines} times")
    for p in s.players:
        if p.animal:
            beast = C.beasts.get(p.animal)
            name = beast.beast.name if beast is not None and beast.beast is not None else p.animal
            notes.append(f"{p.id}'s Colossus acts as the {name} until the end of their turn {p.animal_until}")
    return notes


def turn_number(s: State) -> int:
    """The turn (0 during the set-up): TurnStarted raises it by one, nothing lowers it."""
    return s.turn
