"""The recorder's files: a log written atomically (beside it, flushed, renamed over it), and a
seat's side file of salts (``LOG.salts.json``, 0600: the salts open the seat's commitments), read
as every input is (a regular file, bounded in size and depth, of the right shape)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from adjudicator.core.services.decklist import read_bounded
from adjudicator.core.kernel.errors import DataError, LogError
from adjudicator.core.kernel.limits import depth_error

#: the side file of a seat's salts, beside the log
SALTS_SUFFIX = ".salts.json"
#: the largest salts file read back (bytes): 64 hex + a value + 32 hex per commitment
MAX_SALTS_BYTES = 20_000_000


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent or Path("."), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, mode: int = 0o666) -> None:
    """``data`` as the whole of ``path``: written beside it, flushed, renamed over it; ``mode``
    (less the umask) is the new file's from its creation (0600 for secrets: never readable by
    others, not even for a moment)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        os.unlink(tmp)  # a stale one (or a link someone put there) is never written through
    except FileNotFoundError:
        pass
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path)


def _salts_doc(path: Path) -> dict[str, Any]:
    """The side file beside ``path`` read as every input is (a regular file, bounded in size and
    depth) and of the right shape: ``{"player": str, "commitments": {str: {"value", "salt"}}}``."""
    side = str(path) + SALTS_SUFFIX
    try:
        raw = read_bounded(side, "the salts file", MAX_SALTS_BYTES)
    except DataError as exc:
        raise LogError(side, None, exc.reason.removeprefix("the salts file: ")) from None
    deep = depth_error(raw, 8)
    if deep is not None:
        raise LogError(side, None, f"not a salts file ({deep})")
    try:
        doc = json.loads(raw)
    except ValueError as exc:
        raise LogError(side, None, f"not a salts file (not JSON: {exc})") from None
    coms = doc.get("commitments") if isinstance(doc, dict) else None
    if not isinstance(coms, dict) or not isinstance(doc.get("player"), str) or not all(
            isinstance(c, str) and isinstance(v, dict) and isinstance(v.get("value"), str) and isinstance(v.get("salt"), str)
            for c, v in coms.items()):
        raise LogError(side, None, 'not a salts file: {"player": "<seat>", "commitments": {"<commitment>": '
                                   '{"value": "<card>", "salt": "<hex>"}}}', "commitments")
    return doc


def resumed_seat(path: Path, seat: str | None) -> str | None:
    """The seat a log is resumed as: the one its side file names (None: a full record); another
    ``seat`` asked for, or one for a full record, is refused."""
    side = Path(str(path) + SALTS_SUFFIX)
    owner = salts_owner(path) if side.exists() or os.path.islink(side) else None
    if owner is not None and seat is not None and seat != owner:
        raise LogError(str(path), None, f"--as {seat}: this is {owner}'s record (resumed as {owner}: leave --as out)")
    if owner is None and seat is not None:
        raise LogError(str(path), None, f"--as {seat}: this is a full record (no {side.name}): it is resumed as one (leave --as out)")
    return owner


def load_salts(path: Path) -> dict[str, tuple[str, str]]:
    """The seat's salts kept beside the log (empty when there is no side file)."""
    side = Path(str(path) + SALTS_SUFFIX)
    if not side.exists() and not side.is_symlink():
        return {}
    return {c: (v["value"], v["salt"]) for c, v in _salts_doc(path)["commitments"].items()}


def salts_owner(path: Path) -> str:
    """The seat whose record ``path`` is (its side file's ``player``)."""
    return str(_salts_doc(path)["player"])


def save_salts(path: Path, seat: str | None, salts: Mapping[str, tuple[str, str]]) -> None:
    """The side file, written atomically and readable by its owner only (0600: the salts open the
    seat's commitments; nobody else may read them before the match is over)."""
    doc = {"player": seat, "log": path.name,
           "commitments": {c: {"value": v, "salt": s} for c, (v, s) in salts.items()}}
    write_atomic(Path(str(path) + SALTS_SUFFIX), json.dumps(doc, indent=1, sort_keys=True).encode(), mode=0o600)
