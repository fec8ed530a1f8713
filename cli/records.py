"""``adjudicator seal`` and ``adjudicator redact``: new records made from a log.

``seal`` adds the hash chain (``prev`` on every line after MatchStarted: the sha256 of the line
before it as written), so that ``verify`` names the first line edited, inserted or removed
afterwards.  ``redact --as PLAYER`` writes the record that player's seat kept: every event as
``observe.py`` shows it to that seat (what it could not see masked), without the chain (it is a
different record).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click
import msgspec

from adjudicator.core.errors import AdjudicatorError
from adjudicator.core.log import line_hash, read_log

from .common import BadInput, fail, pools_option


def _lines(path: str) -> list[bytes]:
    try:
        return [ln.strip() for ln in Path(path).read_bytes().split(b"\n") if ln.strip()]
    except OSError as exc:
        raise BadInput(f"{path}: cannot read ({exc.strerror})") from None


def _write(lines: Iterable[bytes], output: str | None) -> None:
    data = b"".join(ln + b"\n" for ln in lines)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise BadInput(f"{output}: cannot write ({exc.strerror})") from None


def _checked(path: str) -> Any:
    """The log, read and checked line by line (an unreadable log, or a broken chain, exits 2)."""
    try:
        return read_log(path)
    except AdjudicatorError as exc:
        raise fail(exc) from None


def sealed(lines: list[bytes]) -> list[bytes]:
    """``lines`` with the hash chain: MatchStarted as it is (no prev), each later line with the
    prev of the line before it as written here."""
    out: list[bytes] = []
    for i, raw in enumerate(lines):
        doc = msgspec.json.decode(raw)
        doc.pop("prev", None)
        if i:
            doc["prev"] = line_hash(out[-1])
        out.append(msgspec.json.encode(doc))
    return out


@click.command()
@pools_option
@click.argument("log_path", metavar="LOG", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the sealed log here (default: standard output).")
def seal(log_path: str, output: str | None) -> None:
    """Add the hash chain to a log: each line after MatchStarted gets "prev", the sha256 of the
    line before it as written.  `verify` then names the first line changed since.  A log that does
    not read (or whose chain is already broken) is refused (exit 2)."""
    _checked(log_path)
    _write(sealed(_lines(log_path)), output)


@click.command()
@pools_option
@click.argument("log_path", metavar="LOG", type=click.Path(dir_okay=False))
@click.option("--as", "as_player", required=True, metavar="PLAYER", help="The seat whose record to write.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the redacted log here (default: standard output).")
def redact(log_path: str, as_player: str, output: str | None) -> None:
    """Write the log PLAYER's seat kept: every event as that seat saw it, what it could not see
    masked ("?"), as the viewers and `state --as` show it."""
    log = _checked(log_path)
    players = list(log.setup.players)
    if as_player not in players:
        raise BadInput(f"--as: unknown player {as_player!r} (players: {', '.join(players)})")
    enc = msgspec.json.Encoder()
    game = log.game
    _write((enc.encode(msgspec.structs.replace(game.redact(e, as_player), prev=None)) for _line, e in log.events),
           output)
