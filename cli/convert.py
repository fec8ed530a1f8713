"""``adjudicator convert LOG``: a match between JSON Lines and its text form (docs/notation.md),
lossless both ways: JSON Lines -> text -> JSON Lines gives the same bytes."""

from __future__ import annotations

import click

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.log import _split_lines, log_bytes, parse_log
from adjudicator.core.kernel.textlog import is_text, read_text, write_text

from .common import check_output, fail, output_option, pools_option, write_output


def to_text(data: bytes, path: str) -> str:
    """The text form of the JSON Lines log ``data`` (LogError where it is unreadable)."""
    log = parse_log(data, path)
    return write_text(log.game, [raw for _, raw in _split_lines(data)], [e for _, e in log.events])


def to_jsonl(data: bytes, path: str) -> bytes:
    """The JSON Lines of the text form ``data``, read and checked as a log is (LogError naming the
    text's line otherwise)."""
    parse_log(data, path)
    return b"".join(raw + b"\n" for _, raw in read_text(data, path))


@click.command()
@pools_option
@click.argument("log_path", metavar="LOG", type=click.Path(dir_okay=False))
@click.option("--to", "to", type=click.Choice(["text", "jsonl"]), default=None,
              help="The form to write (default: the other one than LOG's, which is sniffed by content).")
@output_option("the converted match")
def convert(log_path: str, to: str | None, output: str | None, force: bool) -> None:
    """Convert a match log between JSON Lines and its text form (one event a line in the game's
    notation, header tags, notes and variations): JSON Lines -> text -> JSON Lines is byte for
    byte.  Unreadable input: the file, line and part, exit 2."""
    check_output(output, force, [log_path])
    try:
        data = log_bytes(log_path)
        target = to or ("jsonl" if is_text(data) else "text")
        if target == "text":
            out = to_text(to_jsonl(data, log_path) if is_text(data) else data, log_path).encode()
        else:
            out = to_jsonl(data, log_path) if is_text(data) else (parse_log(data, log_path) and data)
    except AdjudicatorError as exc:
        raise fail(exc) from None
    write_output(output, force, [log_path], out)
