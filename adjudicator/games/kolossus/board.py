"""The Kolossus board as data: levels per square, start zones, regions, and its geometry.

A board is a TOML file in ``data/`` decoded with msgspec (``data/zikkurat-11.toml`` is the
project's reading of seed 002, see docs/rules/kolossus.md KO-1/KO-2/KO-3).  A malformed file
fails with :class:`DataError` naming the file and the entry at fault.

Squares are named like chess squares: a column letter (``a`` on the west edge) and a row number
(``1`` on the south edge), so ``f6`` is the centre of the 11x11 board.  Internally a square is an
index ``(row - 1) * size + column``.  Regions are whole rows (``row-6``) and columns
(``column-f``); a row slides east or west (``E``/``W``), a column north or south (``N``/``S``).
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from adjudicator.core.kernel.data import decode, read_toml
from adjudicator.core.kernel.errors import DataError
from adjudicator.core.kernel.sources import DataKind

DATA = Path(__file__).parent / "data"

#: the 8 directions: name -> (columns east, rows north)
DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}
DIRECTION_OF: dict[tuple[int, int], str] = {v: k for k, v in DIRECTIONS.items()}
OPPOSITE: dict[str, str] = {k: DIRECTION_OF[(-v[0], -v[1])] for k, v in DIRECTIONS.items()}

_SQUARE = re.compile(r"^([a-z])([1-9][0-9]?)$")
_REGION = re.compile(r"^(row-([1-9][0-9]?)|column-([a-z]))$")
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def square_key(name: str) -> tuple[int, int]:
    """Sort key of a square name (row, column); names that are not squares sort last."""
    m = _SQUARE.match(name) if isinstance(name, str) else None
    if m is None:
        return (10**6, 0)
    return (int(m.group(2)), LETTERS.index(m.group(1)))


def step_name(name: str, direction: str, n: int) -> str | None:
    """The square ``n`` steps from ``name`` in ``direction`` (board-independent naming), or None."""
    m = _SQUARE.match(name)
    d = DIRECTIONS.get(direction)
    if m is None or d is None:
        return None
    col = LETTERS.index(m.group(1)) + d[0] * n
    row = int(m.group(2)) + d[1] * n
    if not (0 <= col < 26 and 1 <= row <= 99):
        return None
    return f"{LETTERS[col]}{row}"


class _Corner(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    squares: list[str]


class _BoardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    board: str
    levels: list[str]
    corner: list[_Corner]
    central_regions: list[str] = []
    description: str = ""


class Board:
    """A loaded board: immutable, shared by every position that names it."""

    def __init__(self, name: str, description: str, levels: tuple[int, ...], size: int,
                 corners: dict[str, tuple[int, ...]], central: tuple[str, ...]) -> None:
        self.name = name
        self.description = description
        self.size = size
        self.levels = levels
        self.corners = corners
        #: corner names in clockwise order
        self.corner_order: tuple[str, ...] = tuple(corners)
        self.central_regions = central
        n = size * size
        self.names: tuple[str, ...] = tuple(f"{LETTERS[i % size]}{i // size + 1}" for i in range(n))
        self.index: dict[str, int] = {nm: i for i, nm in enumerate(self.names)}
        self.citadel = levels.index(5)
        # regions: id -> the squares of the line in increasing order (west->east, south->north)
        self.regions: dict[str, tuple[int, ...]] = {}
        for r in range(size):
            self.regions[f"row-{r + 1}"] = tuple(r * size + c for c in range(size))
        for c in range(size):
            self.regions[f"column-{LETTERS[c]}"] = tuple(r * size + c for r in range(size))
        self.region_ids: tuple[str, ...] = tuple(self.regions)
        # neighbour table: (square, direction) -> square or -1
        self.step: dict[str, tuple[int, ...]] = {}
        for dname, (dc, dr) in DIRECTIONS.items():
            out = []
            for i in range(n):
                c, r = i % size + dc, i // size + dr
                out.append(r * size + c if 0 <= c < size and 0 <= r < size else -1)
            self.step[dname] = tuple(out)
        self.zone_of: dict[int, str] = {sq: name for name, sqs in corners.items() for sq in sqs}
        #: per square: the name of each neighbouring square -> (its index, the direction of the step)
        self.adjacent: tuple[dict[str, tuple[int, str]], ...] = tuple(
            {self.names[t]: (t, d) for d, t in ((d, self.step[d][i]) for d in DIRECTIONS) if t >= 0} for i in range(n))

    def region_axis(self, region: str) -> str:
        return "row" if region.startswith("row-") else "column"

    def region_directions(self, region: str) -> tuple[str, str]:
        """The two directions a region may slide: (towards higher index, towards lower index)."""
        return ("E", "W") if region.startswith("row-") else ("N", "S")

    def delta(self, a: int, b: int) -> tuple[int, int]:
        s = self.size
        return (b % s - a % s, b // s - a // s)

    def coords(self, sq: int) -> tuple[int, int]:
        return sq % self.size, sq // self.size


def _fail(path: str, msg: str) -> DataError:
    return DataError(path, msg)


def load_board_file(path: str | Path) -> Board:
    """A board file by path (its ``board`` must be its file name)."""
    return board_from_document(read_toml(path), str(path), Path(path).stem)


def board_from_document(doc: object, p: str, name: str) -> Board:
    """A board from its decoded document; ``p`` names it in errors, ``name`` is its id."""
    bf = decode(doc, _BoardFile, p)
    if bf.board != name:
        raise _fail(p, f"board: the file names its board {bf.board!r}; it must match the file name {name!r}")
    size = len(bf.levels)
    if not 3 <= size <= 26:
        raise _fail(p, f"levels: {size} rows; a board has 3 to 26 rows")
    levels: list[int] = [0] * (size * size)
    for i, row in enumerate(bf.levels):
        rownum = size - i
        if len(row) != size:
            raise _fail(p, f"levels[{i}] (row {rownum}): {len(row)} squares; the board is {size} squares wide (square)")
        for c, ch in enumerate(row):
            if ch not in "12345":
                raise _fail(p, f"levels[{i}] (row {rownum}), square {LETTERS[c]}{rownum}: level {ch!r}; levels are 1 to 5")
            levels[(rownum - 1) * size + c] = int(ch)
    if levels.count(5) != 1:
        raise _fail(p, f"levels: {levels.count(5)} squares at level 5; the board has exactly one Citadel of Time")
    names = {f"{LETTERS[i % size]}{i // size + 1}": i for i in range(size * size)}
    if len(bf.corner) != 4:
        raise _fail(p, f"corner: {len(bf.corner)} start zones; there are 4 (one per warband), clockwise")
    corners: dict[str, tuple[int, ...]] = {}
    taken: dict[int, str] = {}
    for j, c in enumerate(bf.corner):
        where = f"corner[{j}] ({c.name!r})"
        if not c.name or c.name in corners:
            raise _fail(p, f"{where}: name must be non-empty and distinct")
        if len(c.squares) < 8:
            raise _fail(p, f"{where}: squares: {len(c.squares)} squares; a start zone holds the 8 miniatures of a warband")
        sqs = []
        for k, nm in enumerate(c.squares):
            if nm not in names:
                raise _fail(p, f"{where}: squares[{k}]: {nm!r} is not a square of this {size}x{size} board")
            sq = names[nm]
            if sq in taken:
                raise _fail(p, f"{where}: squares[{k}]: {nm} is also in start zone {taken[sq]!r}")
            taken[sq] = c.name
            sqs.append(sq)
        corners[c.name] = tuple(sorted(sqs))
    regions = [f"row-{r + 1}" for r in range(size)] + [f"column-{LETTERS[c]}" for c in range(size)]
    for k, r in enumerate(bf.central_regions):
        if r not in regions:
            raise _fail(p, f"central_regions[{k}]: {r!r} is not a region of this board (row-1 .. column-{LETTERS[size - 1]})")
    return Board(bf.board, bf.description, tuple(levels), size, corners, tuple(bf.central_regions))


#: boards by id: ``<id>.toml`` (or ``.json``) shipped in ``data/``, in a ``--pools`` directory, in the store
BOARDS: DataKind[Board] = DataKind("kolossus", "board", DATA, lambda i: (f"{i}.toml", f"{i}.json"), board_from_document)


def load_board(name: str, sha256: str | None = None) -> Board:
    """The board ``name`` (``zikkurat-11`` is the default reading), pinned to ``sha256`` when given
    (``MatchStarted.board_sha256``), from the sources in effect (:mod:`adjudicator.core.kernel.sources`)."""
    return BOARDS.load(name, sha256)


def valid_region(name: object) -> bool:
    return isinstance(name, str) and _REGION.match(name) is not None
