"""Draw a :class:`~adjudicator.core.kernel.scene.Scene` as coloured terminal text (Rich ``Text`` lines).

Generic over every scene: a grid, hex or graph board becomes a text grid (background for the
cell's level or terrain, foreground for the pieces' owners, a text style per piece kind, a
coloured edge for the cell's controller); zones become lists of cards (a hidden card is ``▒``);
counters, notes and the outcome follow.  A game with the default text-only scene shows its status
and notes.  Colours are picked from the names in the scene only (never from a game id), and the
same name always gets the same colour, so a board keeps its look from one event to the next.

The terminal viewer (:mod:`replays.tui`) shows the result; :func:`scene_text` is usable alone
(``rich.print``) and in tests.
"""

from __future__ import annotations

import textwrap
import zlib
from collections import Counter as Counter_
from collections.abc import Iterable

from rich.color import Color, ColorParseError
from rich.style import Style
from rich.text import Text

from adjudicator.core.kernel.scene import Board, Card, Cell, Counter, Scene, Zone

#: colours for players (and other owners) without a usable colour of their own, in seat order
OWNER_PALETTE = ("dodger_blue1", "red1", "green3", "gold1", "magenta", "cyan", "orange1", "medium_purple1")
#: backgrounds for cell levels 0, 1, 2, ... (higher levels reuse the last one)
LEVEL_BACKGROUNDS = ("#202020", "#1f3a24", "#2f5227", "#5c5a26", "#6e4a2a", "#7a3030", "#5e2f6e", "#2f4470")
#: backgrounds for terrain names (hashed; a few common words get their natural colour first)
TERRAIN_BACKGROUNDS = ("#2a3f5f", "#3f5f2a", "#5f2a3f", "#5f4a2a", "#2a5f55", "#4a2a5f", "#55552a", "#3a3a3a")
NATURAL_TERRAIN = {
    "water": "#1f3f6f", "sea": "#1f3f6f", "lake": "#1f3f6f", "river": "#25507a",
    "grass": "#2f5a27", "plain": "#3b5a27", "plains": "#3b5a27", "meadow": "#2f5a27",
    "forest": "#1f4020", "woods": "#1f4020", "wood": "#1f4020", "jungle": "#1a4a2a",
    "hill": "#5a4f27", "hills": "#5a4f27", "mountain": "#4a4a4a", "mountains": "#4a4a4a",
    "rock": "#444444", "desert": "#6f5f2a", "sand": "#6f5f2a", "swamp": "#3f4a2a",
    "lava": "#6f2a1f", "ice": "#4f6a7a", "snow": "#5f6f7a", "ruins": "#4f3f3f",
}
#: card tints for colour names that are not terminal colours (hashed)
CARD_TINTS = ("sky_blue1", "light_salmon1", "pale_green1", "khaki1", "plum1", "aquamarine1", "light_goldenrod1", "thistle1")
#: text styles for piece kinds, in the order of the kinds' names
KIND_STYLES = ("", "bold", "underline", "italic", "bold underline", "reverse", "bold italic", "strike")
#: the marks of the event list (shared with the web viewer's vocabulary in replays.core)
MARKS = {"legal": ("✓", "green"), "illegal": ("✗", "bold red"), "unchecked": ("?", "yellow"), "derived": ("·", "cyan"),
         # judges' rulings: an illegal event that stands, an event taken back, a ruling followed
         "stands": ("!", "bold magenta"), "taken-back": ("↶", "magenta"), "ruling": ("§", "bold blue"),
         # legal only if an identity the record leaves unknown is what the condition says
         "undetermined": ("◇", "bold dark_orange")}
#: what a mark means, in words (the viewers' ruling panels)
MARK_HINTS = {
    "unchecked": "not engine-checked",
    "derived": "derived by the engine",
    "stands": "illegal, but it stands by a judge's ruling: the position continued from it (a warning)",
    "taken-back": "taken back by a judge's ruling: the position is the one before it",
    "ruling": "a judge's ruling, followed",
    "undetermined": "legal only if the condition below holds; followed as if it does",
}
HIDDEN = "▒"
#: an unknown card (its identity left unknown by the record: ``Card.possible``)
UNKNOWN = "◇"


def _hash_pick(name: str, options: tuple[str, ...]) -> str:
    return options[zlib.crc32(name.encode()) % len(options)]


def usable_colour(name: str | None) -> str | None:
    """``name`` if the terminal knows it as a colour (black is lifted to grey so it shows)."""
    if not name:
        return None
    n = name.strip().lower().replace(" ", "_").replace("-", "_")
    if n in ("black", "default"):
        return "grey58"
    try:
        Color.parse(n)
    except ColorParseError:
        return None
    return n


class Palette:
    """The colours of one scene: owners (players first, in seat order), terrains, kinds, cards."""

    def __init__(self, scene: Scene):
        self.owner: dict[str, str] = {}
        taken: list[str] = []
        for p in scene.players:
            c = usable_colour(p.colour)
            if c is not None:
                self.owner[p.id] = c
                taken.append(c)
        free = [c for c in OWNER_PALETTE if c not in taken]
        for p in scene.players:
            if p.id not in self.owner:
                self.owner[p.id] = free.pop(0) if free else _hash_pick(p.id, OWNER_PALETTE)
        others = sorted({o for o in _owners(scene) if o not in self.owner})
        for o in others:
            self.owner[o] = free.pop(0) if free else _hash_pick(o, OWNER_PALETTE)
        kinds = sorted({p.kind for c in (scene.board.cells if scene.board else []) for p in c.pieces})
        self.kind = {k: KIND_STYLES[i % len(KIND_STYLES)] for i, k in enumerate(kinds)}

    def of(self, owner: str | None) -> str:
        return self.owner.get(owner or "", "grey85") if owner else "grey85"

    @staticmethod
    def terrain(name: str) -> str:
        return NATURAL_TERRAIN.get(name.lower()) or _hash_pick(name.lower(), TERRAIN_BACKGROUNDS)

    @staticmethod
    def level(level: int) -> str:
        return LEVEL_BACKGROUNDS[max(0, min(level, len(LEVEL_BACKGROUNDS) - 1))]

    @staticmethod
    def card(colour: str | None) -> str:
        if not colour:
            return "grey93"
        return usable_colour(colour) or _hash_pick(colour.lower(), CARD_TINTS)


def _owners(scene: Scene) -> Iterable[str]:
    if scene.board is not None:
        for c in scene.board.cells:
            for p in c.pieces:
                if p.owner:
                    yield p.owner
            if c.controller:
                yield c.controller
    for z in scene.zones:
        if z.owner:
            yield z.owner
    for k in scene.counters:
        if k.owner:
            yield k.owner


# -- the board --------------------------------------------------------------------------------------

def shade(colour: str, level: int) -> str:
    """``colour`` darker for low levels and lighter for high ones (level 2 is the colour itself)."""
    rgb = Color.parse(colour).get_truecolor()
    f = 0.6 + 0.2 * max(0, min(level, 6))
    return "#" + "".join(f"{min(255, int(c * f)):02x}" for c in (rgb.red, rgb.green, rgb.blue))


def _cell_background(cell: Cell) -> str:
    """Terrain gives the hue and level the brightness; a cell with only a level gets a ramp."""
    if cell.terrain and cell.level is not None:
        return shade(Palette.terrain(cell.terrain), cell.level)
    if cell.terrain:
        return Palette.terrain(cell.terrain)
    if cell.level is not None:
        return Palette.level(cell.level)
    return "#262626"


def _cell_parts(cell: Cell) -> tuple[str, str, str]:
    """(level or name part, pieces part, markers part) of a cell's token."""
    head = "" if cell.level is None else str(cell.level)
    if cell.pieces:
        first = cell.pieces[0].label
        body = first + (f"+{len(cell.pieces) - 1}" if len(cell.pieces) > 1 else "")
    else:
        body = "" if head else (cell.label or (cell.terrain or "")[:3] or "")
    tail = ""
    if cell.markers:
        tail = "*" if len(cell.markers) == 1 else f"*{len(cell.markers)}"
    return head, body, tail


class _Canvas:
    def __init__(self, width: int, height: int):
        self.width = width
        self.rows: list[list[tuple[str, Style | str]]] = [[(" ", "")] * width for _ in range(height)]

    def put(self, row: int, col: int, text: str, style: Style | str) -> None:
        line = self.rows[row]
        for i, ch in enumerate(text):
            if 0 <= col + i < self.width:
                line[col + i] = (ch, style)

    def lines(self) -> list[Text]:
        out = []
        for line in self.rows:
            while line and line[-1] == (" ", ""):
                line = line[:-1]
            t = Text(no_wrap=True, overflow="crop")
            i = 0
            while i < len(line):  # one span per run of one style
                j = i
                while j < len(line) and line[j][1] is line[i][1]:
                    j += 1
                t.append("".join(ch for ch, _ in line[i:j]), line[i][1])
                i = j
            out.append(t)
        return out


def board_lines(board: Board, palette: Palette, *, max_token: int = 7) -> list[Text]:
    """The board as text rows: one token per cell placed by its coordinates (grid, hex or graph)."""
    cells = list(board.cells)
    if not cells:
        return [Text(f"({board.kind} board {board.width}x{board.height}, no cells)", style="dim")]
    parts = {c.id: _cell_parts(c) for c in cells}
    longest = max(len("".join(p)) for p in parts.values())
    width = max(3, min(max_token, longest + 1))  # one blank column inside each cell, on the right
    step = width + 1  # one column before each cell: the controller's edge, or a gap
    ys = sorted({c.y for c in cells})
    row_of = {y: i for i, y in enumerate(ys)}
    min_x = min(c.x for c in cells)
    by_row: dict[float, list[float]] = {}
    for c in cells:
        by_row.setdefault(c.y, []).append(c.x)
    gaps = [b - a for xs in by_row.values() for a, b in zip(sorted(set(xs)), sorted(set(xs))[1:]) if b - a > 1e-9]
    unit = min(gaps) if gaps else 1.0
    scale = step / unit

    def col_of(x: float) -> int:
        return int(round((x - min_x) * scale))

    # row names on the left (a grid's rows, when given for every row index)
    row_names: dict[int, str] = {}
    if board.rows:
        for y in ys:
            if float(y).is_integer() and 0 <= int(y) < len(board.rows):
                row_names[row_of[y]] = board.rows[int(y)]
    left = (max(len(n) for n in row_names.values()) + 1) if row_names else 0
    span = max(col_of(c.x) for c in cells) + step
    header = 1 if board.columns else 0
    canvas = _Canvas(left + span, header + len(ys))
    if board.columns:
        seen_cols = sorted({c.x for c in cells})
        for x in seen_cols:
            if float(x).is_integer() and 0 <= int(x) < len(board.columns):
                name = board.columns[int(x)][:width]
                canvas.put(0, left + col_of(x) + 1 + (width - len(name)) // 2, name, "bold grey70")
    for r, name in row_names.items():
        canvas.put(header + r, 0, name.rjust(left - 1), "bold grey70")
    for c in cells:
        bg = _cell_background(c)
        head, body, tail = parts[c.id]
        row, col = header + row_of[c.y], left + col_of(c.x)
        if c.controller:
            canvas.put(row, col, "▐", Style(color=palette.of(c.controller)))
        token = (head + body + tail)[:width].ljust(width)
        canvas.put(row, col + 1, token, Style(bgcolor=bg, color="grey70"))
        if body and c.pieces:
            piece = c.pieces[0]
            style = Style.parse(palette.kind.get(piece.kind, "") or "none") + Style(
                color=palette.of(piece.owner), bgcolor=bg, bold=True)
            canvas.put(row, col + 1 + len(head), body[: max(0, width - len(head))], style)
        if tail and len(head) + len(body) < width:
            canvas.put(row, col + 1 + len(head) + len(body), tail[: width - len(head) - len(body)],
                       Style(color="bright_white", bgcolor=bg, bold=True))
    return canvas.lines()


def board_legend(board: Board, palette: Palette, scene: Scene) -> list[tuple[str, list[Text], str]]:
    """Keys to the board's colours, as (heading, items, separator) groups to wrap at items:
    owners, piece kinds, levels, terrains, control, markers and stacks."""
    out: list[tuple[str, list[Text], str]] = []
    owners = [p.id for p in scene.players] or sorted({p.owner for c in board.cells for p in c.pieces if p.owner})
    if owners:
        out.append(("owners", [Text.assemble(("■ ", palette.of(o)), o) for o in owners], "  "))
    if len(palette.kind) > 1:
        out.append(("kinds", [Text(k or "(none)", style=st or "none") for k, st in palette.kind.items()], "  "))
    labels: dict[str, str] = {}
    for c in board.cells:
        for piece in c.pieces:
            labels.setdefault(piece.kind or "piece", piece.label)
    if labels and board.kind != "grid":  # a compact token per cell: say how to read it
        out.append(("cells", [Text("number, tile, then the first piece", style="dim"),
                              Text("* markers (below)", style="dim"), Text("+n more pieces (stacks)", style="dim")], "; "))
        out.append(("pieces", [Text.assemble((lab, "bold"), f" {kind}") for kind, lab in labels.items()], "  "))
    levels = sorted({c.level for c in board.cells if c.level is not None})
    if levels:
        terrains = Counter_(c.terrain for c in board.cells if c.level is not None and c.terrain)
        common = terrains.most_common(1)[0][0] if terrains else None
        items = [Text(f" {lv} ", style=Style(bgcolor=shade(Palette.terrain(common), lv) if common
                                             else Palette.level(lv), color="grey93")) for lv in levels]
        if common:
            items.append(Text("(brighter is higher)", style="dim"))
        out.append(("levels", items, " "))
    terrains_seen = sorted({c.terrain for c in board.cells if c.terrain})
    if terrains_seen:
        out.append(("terrain", [Text(f" {name} ", style=Style(bgcolor=Palette.terrain(name), color="grey93"))
                                for name in terrains_seen], " "))
    if any(c.controller for c in board.cells):
        out.append(("control", [Text("▐ before a cell is its controller's colour", style="dim")], ""))
    marked = [c for c in board.cells if c.markers]
    if marked:
        out.append(("markers (*)", [Text.assemble((f"{c.label or c.id} ", "bold"), ", ".join(c.markers))
                                    for c in marked], "; "))
    crowded = [c for c in board.cells if len(c.pieces) > 1]
    if crowded:
        items = []
        for c in crowded:
            t = Text(f"{c.label or c.id} ", style="bold")
            for j, piece in enumerate(c.pieces):
                if j:
                    t.append(", ")
                t.append(piece.label, style=Style(color=palette.of(piece.owner), bold=False))
            items.append(t)
        out.append(("stacks (+n)", items, "; "))
    return out


# -- cards, zones, counters -----------------------------------------------------------------------

def card_text(card: Card, palette: Palette) -> Text:
    if card.possible is not None and not card.name:
        # an unknown card: how many identities it can still have (the card pane lists them)
        return Text(f"{UNKNOWN}?{len(card.possible)}", style="bold dark_orange")
    if not card.face_up and not card.name:
        return Text(HIDDEN * 2, style="grey50")
    t = Text()
    if not card.face_up:
        t.append(HIDDEN, style="grey50")
        t.append(card.name or "?", style=Style(color=Palette.card(card.colour), dim=True, italic=True))
    else:
        t.append(card.name or card.id or "?", style=Palette.card(card.colour))
    if card.tags:
        t.append(" [" + ", ".join(card.tags) + "]", style="dim")
    return t


def _wrap_items(prefix: Text, items: list[Text], width: int, indent: int, sep: str = " · ") -> list[Text]:
    """``prefix`` then ``items`` separated by ``sep``, wrapped at item boundaries to ``width``."""
    lines: list[Text] = []
    cur = prefix.copy()
    fresh = True
    for item in items:
        add = (0 if fresh else len(sep)) + item.cell_len
        if not fresh and cur.cell_len + add > width:
            lines.append(cur)
            cur = Text(" " * indent)
            fresh = True
        if not fresh:
            cur.append(sep, style="grey42")
        cur.append_text(item)
        fresh = False
    lines.append(cur)
    return [part for line in lines for part in _wrap_text(line, width)]  # an item wider than a line


def zone_lines(zone: Zone, palette: Palette, width: int, indent: int = 2, show_owner: bool = False) -> list[Text]:
    n = zone.count if zone.count is not None else len(zone.cards)
    head = Text(" " * indent)
    head.append(zone.label, style="bold")
    if show_owner and zone.owner:
        head.append(f" ({zone.owner})", style=palette.of(zone.owner))
    head.append(f" [{n}]: ", style="dim")
    items = [card_text(c, palette) for c in zone.cards]
    hidden_rest = (zone.count or 0) - len(zone.cards)
    if hidden_rest > 0:
        items.append(Text(f"{HIDDEN} ×{hidden_rest}", style="grey50"))
    if not items:
        items = [Text("-", style="dim")]
    return _wrap_items(head, items, width, indent + 4)


def counter_text(counter: Counter, palette: Palette) -> Text:
    t = Text()
    t.append(counter.label + " ", style="dim")
    value = f"{counter.value}" + (f"/{counter.max}" if counter.max is not None else "")
    t.append(value, style="bold")
    return t


def _wrapped(text: str, width: int, style: str = "") -> list[Text]:
    if not text:
        return [Text("")]
    lead = len(text) - len(text.lstrip(" "))
    parts = textwrap.wrap(text, width=max(10, width), subsequent_indent=" " * (lead + 2),
                          break_long_words=True, drop_whitespace=True) or [""]
    return [Text(p, style=style) for p in parts]


# -- the whole scene ----------------------------------------------------------------------------------

def scene_lines(scene: Scene, width: int = 100) -> list[Text]:
    """The scene as lines of at most ``width`` cells (the board may be wider: it is cropped)."""
    palette = Palette(scene)
    out: list[Text] = []
    out += _wrapped(scene.status, width, "bold")
    if scene.to_act:
        t = Text()
        t.append("to act: ", style="dim")
        for i, p in enumerate(scene.to_act):
            if i:
                t.append(", ")
            t.append(p, style=Style(color=palette.of(p), bold=True))
        out.append(t)
    if scene.outcome:
        out += _wrapped(f"result: {scene.outcome}", width, "bold reverse")
    if scene.board is not None:
        out.append(Text(""))
        out += board_lines(scene.board, palette)
        for heading, items, sep in board_legend(scene.board, palette, scene):
            out += _wrap_items(Text.assemble((heading + ": ", "dim")), items, width, 2, sep)
    player_ids = [p.id for p in scene.players]
    info = {p.id: p for p in scene.players}
    owners = player_ids + [o for o in dict.fromkeys(
        [z.owner for z in scene.zones if z.owner] + [k.owner for k in scene.counters if k.owner])
        if o not in info]
    for owner in owners:
        counters = [k for k in scene.counters if k.owner == owner]
        zones = [z for z in scene.zones if z.owner == owner]
        out.append(Text(""))
        head = Text()
        head.append("■ ", style=palette.of(owner))
        p = info.get(owner)
        head.append(p.label if p else owner, style=Style(color=palette.of(owner), bold=True))
        if p and p.label != p.id:
            head.append(f" ({p.id})", style="dim")
        if p and p.detail:
            head.append(f" - {p.detail}", style="dim")
        if owner in scene.to_act:
            head.append("  ◀ to act", style="bold")
        out += _wrap_text(head, width)
        if counters:
            out += _wrap_items(Text("  "), [counter_text(k, palette) for k in counters], width, 4, " | ")
        for z in zones:
            out += zone_lines(z, palette, width)
    shared_counters = [k for k in scene.counters if not k.owner]
    shared_zones = [z for z in scene.zones if not z.owner]
    if shared_counters or shared_zones:
        out.append(Text(""))
        out.append(Text("shared", style="bold"))
        if shared_counters:
            out += _wrap_items(Text("  "), [counter_text(k, palette) for k in shared_counters], width, 4, " | ")
        for z in shared_zones:
            out += zone_lines(z, palette, width)
    if scene.notes:
        out.append(Text(""))
        for note in scene.notes:
            # a preformatted line (a text table or board: runs of spaces inside) is never wrapped
            out += [Text(note)] if "  " in note.strip() else _wrapped(note, width)
    return out


def _wrap_text(t: Text, width: int) -> list[Text]:
    if t.cell_len <= width:
        return [t]
    return list(t.wrap(_console(), width))


_CONSOLE = None


def _console():
    """A console only to wrap text with (it never prints)."""
    global _CONSOLE
    if _CONSOLE is None:
        import io

        from rich.console import Console

        _CONSOLE = Console(width=200, file=io.StringIO(), color_system=None)
    return _CONSOLE


def scene_text(scene: Scene, width: int = 100) -> Text:
    """The scene as one Rich ``Text`` (lines joined), not wrapped further."""
    t = Text("\n").join(scene_lines(scene, width))
    t.no_wrap = True
    t.overflow = "crop"
    return t


def mark_text(mark: str) -> Text:
    sym, style = MARKS.get(mark, ("?", "yellow"))
    return Text(sym, style=style)


__all__ = ["MARKS", "MARK_HINTS", "HIDDEN", "UNKNOWN", "Palette", "board_lines", "board_legend", "card_text", "mark_text",
           "scene_lines", "scene_text", "usable_colour", "zone_lines"]
