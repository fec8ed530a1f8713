"""Data a match names by id (card pools, boards, islands), optionally pinned by a content hash.

A log names its data by id (``MatchStarted.pool``, ``options.board``) and may pin it by the
sha256 of its *canonical content* (``pool_sha256``, ``board_sha256``).  Canonical content: the
file's document as decoded (a TOML table or a JSON object, before any game-specific reading)
encoded by msgspec as JSON with object keys sorted (``msgspec.json.encode(doc, order="sorted")``);
so a TOML file and a JSON file that hold the same document pin alike, and whitespace, comments
and key order do not matter.  Its sha256 (64 lowercase hex digits) is the pin.

Where an id is looked for, in order (:class:`Sources`):

1. the data shipped with the package;
2. every directory of ``--pools DIR`` (repeatable) and of ``ADJUDICATOR_POOLS``
   (``os.pathsep``-separated), in that order; in each, ``DIR/<game>/<file>`` then ``DIR/<file>``,
   where ``<file>`` is the game's file name for that id (``<id>.toml`` or ``<id>.json``;
   Colossi islands ``board-<id>.json`` or ``board-<id>.toml``);
3. the contents the caller supplies (the event store's, an upload's).

A pinned id takes the candidate with exactly that hash, wherever it is; none is an error naming
the id, the hash and the places searched.  An unpinned id takes the shipped or directory file;
two such files with the same id and different content are an error naming both (choose another
id, or pin), and only when no file exists does supplied content count (several versions there
are an error too, unless the caller binds the id to one hash: :attr:`Sources.pins`).

An id is a name, never a path: letters, digits, ``.``, ``_`` and ``-``, starting with a letter or
a digit, at most :data:`~adjudicator.core.kernel.limits.MAX_NAME` characters.  The engine asks for
data with :meth:`DataKind.load`; the sources in effect are a context variable (:func:`using`),
which every CLI command sets from its ``--pools`` options, and which worker processes are given
explicitly (:func:`worker_config`), so they resolve exactly as their parent does.
"""

from __future__ import annotations

import contextvars
import hashlib
import itertools
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from .documents import parse_text
from .errors import DataError
from .limits import MAX_DATA_BYTES, MAX_NAME

T = TypeVar("T")

#: the environment variable listing directories of user data (``os.pathsep``-separated)
ENV = "ADJUDICATOR_POOLS"
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_SHA = re.compile(r"[0-9a-f]{64}")


def canonical(doc: Any) -> bytes:
    """The canonical content of a decoded data document: msgspec JSON with sorted keys."""
    return msgspec.json.encode(doc, order="sorted")


def sha256_of(doc: Any) -> str:
    """The pin of a decoded data document: sha256 (hex) of :func:`canonical`."""
    return hashlib.sha256(canonical(doc)).hexdigest()


def read_document(path: str | Path) -> Any:
    """A data file's document: JSON for ``.json``, TOML otherwise (bounded in size)."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_DATA_BYTES:
            raise DataError(str(path), f"{size} bytes; a data file holds at most {MAX_DATA_BYTES}")
        raw = p.read_bytes()
    except OSError as exc:
        raise DataError(str(path), f"cannot read ({exc.strerror})") from None
    return decode_document(raw, str(path))


def decode_document(raw: bytes, name: str) -> Any:
    """A data file's bytes decoded: JSON when ``name`` ends in ``.json``, TOML otherwise (the
    parsing of :func:`adjudicator.core.kernel.documents.parse_text`: bounded depth, the line of an error)."""
    if len(raw) > MAX_DATA_BYTES:
        raise DataError(name, f"{len(raw)} bytes; a data file holds at most {MAX_DATA_BYTES}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(name, f"not UTF-8 text (byte {exc.start})") from None
    return parse_text(text, name)


def inside(path: Path, root: Path) -> None:
    """Refuse (:class:`DataError`) a file of the ``--pools`` directory ``root`` that is, or lies
    behind, a symbolic link to somewhere outside ``root``: the directory's files are its own."""
    try:
        real, base = path.resolve(), root.resolve()
    except (OSError, RuntimeError) as exc:  # a loop of links
        raise DataError(str(path), f"cannot follow its symbolic links ({exc})") from None
    if not real.is_relative_to(base):
        raise DataError(str(path), f"a symbolic link to {real}, outside the --pools directory {root}: refused "
                                   f"(copy the file into {root}, or name the directory that holds it with --pools)")


def check_id(noun: str, value: object) -> str:
    """``value`` as a data id, or a :class:`DataError` (an id is never a path)."""
    if not isinstance(value, str) or not _ID.fullmatch(value) or len(value) > MAX_NAME:
        shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
        raise DataError(f"{noun} {shown}", f"a {noun} id is letters, digits, '.', '_' and '-' (starting with a "
                                           f"letter or a digit), at most {MAX_NAME} characters; never a path")
    return value


def check_sha256(field: str, value: object) -> None:
    """Raise :class:`DataError` unless ``value`` is None or 64 lowercase hex digits."""
    if value is not None and (not isinstance(value, str) or not _SHA.fullmatch(value)):
        raise DataError(field, "a sha256 pin is 64 lowercase hex digits (`adjudicator` prints it in every verdict)")


@dataclass(frozen=True)
class DataRef:
    """Which content a match was checked against: what a verdict reports."""

    game: str
    kind: str
    id: str
    sha256: str
    #: where it was found: ``shipped``, a file path in a ``--pools`` directory, ``store``, ``upload``
    source: str

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "id": self.id, "sha256": self.sha256, "source": self.source}


@dataclass(frozen=True)
class Candidate:
    """One document found for an id: the document, its pin, where it came from."""

    doc: Any
    sha256: str
    source: str
    #: how errors in it name it (the file name of shipped data, never the install path)
    origin: str = ""


class DataKind(Generic[T]):
    """One kind of data file of one game (``colossus-order`` ``pool``, ``kolossus`` ``board``).

    ``file_names(id)`` are the file names that may hold it; ``build(doc, origin, id)`` reads a
    document into the game's object (raising :class:`DataError` naming ``origin``), checking that
    the document names itself ``id``.  A built object is a pure function of its content, cached by
    hash.
    """

    def __init__(self, game: str, kind: str, shipped: Path, file_names: Callable[[str], Iterable[str]],
                 build: Callable[[Any, str, str], T], noun: str | None = None) -> None:
        self.game, self.kind, self.shipped = game, kind, shipped
        self.file_names = file_names
        self.build = build
        self.noun = noun or kind
        self._built: dict[str, T] = {}
        self._lock = threading.Lock()
        #: the last answer of :meth:`load`: (sources, id, sha256, object).  An engine asks for its
        #: match's data on every event; a Sources never changes what an id means once found, so
        #: the same question in the same sources has the same answer (swapped whole: thread-safe)
        self._last: tuple[Any, str, str | None, T] | None = None

    def __repr__(self) -> str:
        return f"DataKind({self.game!r}, {self.kind!r})"

    def find(self, id: str, sha256: str | None = None) -> tuple[T, DataRef]:
        """The object and reference of ``id`` (pinned to ``sha256`` when given) in the sources in effect."""
        return current().find(self, id, sha256)

    def load(self, id: str, sha256: str | None = None) -> T:
        src = current()
        last = self._last
        if last is not None and last[0] is src and last[1] == id and last[2] == sha256:
            return last[3]
        obj = src.find(self, id, sha256)[0]
        self._last = (src, id, sha256, obj)
        return obj

    def built(self, c: Candidate, id: str) -> T:
        obj = self._built.get(c.sha256)
        if obj is None:
            obj = self.build(c.doc, c.origin or c.source, id)
            with self._lock:
                if len(self._built) >= 256:  # bounded: a long-running service sees many uploads
                    self._built.clear()
                self._built[c.sha256] = obj
        return obj

    def shipped_ids(self) -> list[str]:
        """The ids of the data shipped with the package (for "no such id" messages)."""
        out = set()
        for p in self.shipped.iterdir():
            for i in (p.stem, p.stem.removeprefix("board-")):
                if _ID.fullmatch(i) and p.name in set(self.file_names(i)):
                    out.add(i)
        return sorted(out)


#: a supplier of content beyond the files: (kind, id) -> candidates (the store's, an upload's)
Supplier = Callable[[DataKind[Any], str], list[Candidate]]


class Sources:
    """Where data ids are looked for (see the module docstring); caches what it found.

    Make a new one when the files may have changed (each CLI command makes its own).
    """

    def __init__(self, dirs: Iterable[str | Path] = (), supplier: Supplier | None = None,
                 pins: Mapping[tuple[str, str, str], str] | None = None,
                 files: Iterable[tuple[str, Any]] = ()) -> None:
        self.dirs: tuple[Path, ...] = tuple(Path(d) for d in dirs)
        #: (file name, decoded document) given with a request (an upload): searched like the
        #: files of a directory, after the --pools directories
        self.files: tuple[tuple[str, Any], ...] = tuple(files)
        self.supplier = supplier
        #: (game, kind, id) -> sha256: the content an unpinned id means here (a stored match's)
        self.pins: dict[tuple[str, str, str], str] = dict(pins or {})
        self._found: dict[tuple[str, str, str, str | None], tuple[Any, DataRef]] = {}
        #: (game, kind, sha256) -> the document found (what the store keeps)
        self._docs: dict[tuple[str, str, str], Any] = {}
        self._lock = threading.Lock()
        self.serial = next(_serials)

    @classmethod
    def from_env(cls, dirs: Iterable[str | Path] = ()) -> Sources:
        """``dirs`` (``--pools``), then the directories of ``ADJUDICATOR_POOLS``."""
        env = [d for d in os.environ.get(ENV, "").split(os.pathsep) if d]
        return cls([*dirs, *env])

    def derive(self, supplier: Supplier | None = None, pins: Mapping[tuple[str, str, str], str] | None = None,
               files: Iterable[tuple[str, Any]] = ()) -> Sources:
        """The same directories and files with more: a supplier after this one's (the store), pins
        (a stored match's), files given with a request (an upload's)."""
        first = self.supplier
        both = supplier if first is None else first if supplier is None else (
            lambda kind, i: [*first(kind, i), *supplier(kind, i)])
        return Sources(self.dirs, both, {**self.pins, **(pins or {})}, (*self.files, *files))

    def find(self, kind: DataKind[T], id: str, sha256: str | None = None) -> tuple[T, DataRef]:
        key = (kind.game, kind.kind, id, sha256)
        hit = self._found.get(key)
        if hit is None:
            hit = self._resolve(kind, id, sha256)
            with self._lock:
                self._found[key] = hit
        return hit

    def searched(self) -> str:
        places = ["the shipped data"] + [f"{d}" for d in self.dirs]
        if not self.dirs:
            places.append(f"no --pools directory (nor {ENV})")
        if self.files:
            places.append("the files uploaded: " + ", ".join(n for n, _ in self.files))
        if self.supplier is not None:
            places.append("the event store / upload")
        return "; ".join(places)

    def paths(self, kind: DataKind[Any], id: str) -> Iterator[tuple[Path, str, Path | None]]:
        """The files that may hold ``id``, in search order, with how a verdict names them and the
        directory they must stay in (None: the shipped data)."""
        names = list(kind.file_names(id))
        for n in names:
            yield kind.shipped / n, "shipped", None
        for d in self.dirs:
            for folder in (d / kind.game, d):
                for n in names:
                    yield folder / n, str(folder / n), d

    def candidates(self, kind: DataKind[Any], id: str) -> list[Candidate]:
        names = set(kind.file_names(id))
        out = []
        for path, label, root in self.paths(kind, id):
            try:
                found = path.is_file()  # a device, a FIFO, a folder: not a data file
            except OSError:
                found = False
            if found:
                if root is not None:
                    inside(path, root)
                doc = read_document(path)
                out.append(Candidate(doc, sha256_of(doc), label, path.name if label == "shipped" else label))
        for name, doc in self.files:
            if name in names:
                out.append(Candidate(doc, sha256_of(doc), f"upload {name}"))
        return out

    def _resolve(self, kind: DataKind[T], id: str, sha256: str | None) -> tuple[T, DataRef]:
        check_id(kind.noun, id)
        what = f"{kind.noun} {id!r}"
        pinned = sha256 if sha256 is not None else self.pins.get((kind.game, kind.kind, id))
        files = self.candidates(kind, id)
        supplied = self.supplier(kind, id) if self.supplier is not None else []
        if pinned is not None:
            chosen = next((c for c in [*files, *supplied] if c.sha256 == pinned), None)
            if chosen is None:
                seen = "; ".join(f"{c.source} has sha256 {c.sha256}" for c in [*files, *supplied])
                raise DataError(what, f"no {kind.noun} named {id!r} with sha256 {pinned} (searched: {self.searched()})"
                                      + (f"; found another content: {seen}" if seen else ""))
        elif files:
            chosen = files[0]
            other = next((c for c in files[1:] if c.sha256 != chosen.sha256), None)
            if other is not None:
                raise DataError(what, f"two different {kind.noun}s with this id: {chosen.source} (sha256 "
                                      f"{chosen.sha256}) and {other.source} (sha256 {other.sha256}); rename one, "
                                      f"or pin the one the match used by its sha256")
        elif len({c.sha256 for c in supplied}) == 1:
            chosen = supplied[0]
        elif supplied:
            raise DataError(what, f"{len({c.sha256 for c in supplied})} versions of {kind.noun} {id!r} are stored; "
                                  f"the match must pin one by its sha256")
        else:
            known = ", ".join(kind.shipped_ids())
            raise DataError(what, f"no {kind.noun} named {id!r} (searched: {self.searched()}; shipped: {known})")
        obj = kind.built(chosen, id)
        with self._lock:
            self._docs[(kind.game, kind.kind, chosen.sha256)] = chosen.doc
        return obj, DataRef(kind.game, kind.kind, id, chosen.sha256, chosen.source)

    def content(self, ref: DataRef) -> bytes:
        """The canonical content of data this found (what the store keeps, by hash)."""
        return canonical(self._docs[(ref.game, ref.kind, ref.sha256)])


@dataclass(frozen=True)
class DataField:
    """Where a game's set-up names one data file: the id (``pool``, or ``options.board`` for a
    ruleset option) and the ``MatchStarted`` field pinning it (``pool_sha256``)."""

    kind: DataKind[Any]
    field: str
    pin: str

    def id_of(self, game: Any, setup: Any) -> str:
        if self.field.startswith("options."):
            return getattr(game.options_of(setup), self.field.removeprefix("options."))
        return getattr(setup, self.field)

    def find(self, game: Any, setup: Any) -> tuple[Any, DataRef]:
        """The object and reference the set-up names (raises ``RefError`` naming the field)."""
        from .protocol import RefError

        pin = getattr(setup, self.pin, None)
        try:
            check_sha256(self.pin, pin)
        except DataError as exc:
            raise RefError(self.pin, exc.reason) from None
        try:
            return self.kind.find(self.id_of(game, setup), pin)
        except DataError as exc:
            raise RefError(self.field, str(exc)) from None


_serials = itertools.count(1)
_CURRENT: contextvars.ContextVar[Sources | None] = contextvars.ContextVar("adjudicator_sources", default=None)
_default: list[Sources] = []


def current() -> Sources:
    """The sources in effect: the innermost :func:`using`, else ``ADJUDICATOR_POOLS`` alone (as
    it was when first needed: the engine asks on every event, the environment is read once)."""
    s = _CURRENT.get()
    if s is not None:
        return s
    if not _default:
        _default.append(Sources.from_env())
    return _default[0]


@contextmanager
def using(sources: Sources) -> Iterator[Sources]:
    """Resolve data ids through ``sources`` inside the block."""
    token = _CURRENT.set(sources)
    try:
        yield sources
    finally:
        _CURRENT.reset(token)


def install(sources: Sources) -> None:
    """Make ``sources`` the ones in effect in this context for good (a CLI command, a worker)."""
    _CURRENT.set(sources)


def worker_config() -> tuple[Any, ...]:
    """What a worker process (``--jobs``, ``--cluster``) is given to resolve as this one does:
    the directories in effect, and which command's sources they are (so a worker's cache never
    outlives the command)."""
    s = current()
    return (tuple(str(d) for d in s.dirs), os.getpid(), s.serial)


_workers: dict[tuple[Any, ...], Sources] = {}


def for_worker(config: tuple[Any, ...]) -> Sources:
    """The sources a worker uses for ``config`` (one per command: kept across its logs)."""
    s = _workers.get(config)
    if s is None:
        _workers.clear()
        s = _workers[config] = Sources(config[0])
    return s
