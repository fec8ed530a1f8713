"""Options defined once and shared by the commands; the CLI's error type and exit codes.

Exit codes (documented in README.md):
  0  every log / the proposed event is legal
  1  a log / the proposed event is illegal
  2  unreadable input or wrong usage
  3  an internal error (a defect of the adjudicator: please report it with the input)
  4  undetermined (legal only under a condition on cards the log leaves unknown)
  5  unfinished, with ``--require-complete``: no rule broken, but the match never reached its end
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import click
import msgspec

from adjudicator.core.kernel import sources
from adjudicator.core.kernel.errors import AdjudicatorError, LogError

F = TypeVar("F", bound=Callable[..., Any])

EXIT_LEGAL = 0
EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
#: no rule broken, but some event is legal only under a condition on cards the log leaves unknown
EXIT_UNDETERMINED = 4
#: ``--require-complete``: a log that breaks no rule but stops before the match ended
EXIT_UNFINISHED = 5
#: the exit code of a batch is its worst verdict's, in this order (least severe first)
EXIT_SEVERITY = (EXIT_LEGAL, EXIT_UNDETERMINED, EXIT_UNFINISHED, EXIT_ILLEGAL, EXIT_BAD_INPUT, EXIT_INTERNAL)

BUG_REPORT = "this is a defect of the adjudicator, not of the input: please report it with the input"


def internal_error_line(exc: BaseException, where: str | None = None) -> str:
    """The one line printed for an internal error (never a traceback)."""
    what = f"{type(exc).__name__}: {exc}"
    if len(what) > 300:
        what = what[:297] + "..."
    return f"internal error{' on ' + where if where else ''}: {what} ({BUG_REPORT})"


#: what reaches a terminal from input only as an escape: C0 controls but tab and newline (ESC, BEL,
#: CR, backspace ...), DEL and the C1 controls (U+0080-U+009F: CSI, OSC ... in one character), the
#: bidirectional overrides and isolates (U+202E makes a line read backwards) and the Unicode line
#: and paragraph separators
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
#: the same, and the line breaks and tabs a value inside one line must not hold
_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def inline(text: str) -> str:
    """``text`` as a value inside one line: :func:`safe`, and its newlines and tabs written as
    ``\\x0a``/``\\x09`` (a newline in a header value or a player's name cannot print a line of its
    own that reads like a verdict)."""
    return _IN_LINE.sub(_escape, text) if _IN_LINE.search(text) else text


def safe(text: str) -> str:
    """``text`` with every control character written as ``\\xNN``: a player id, a note, a ruling's
    reason, a card's name or a file name from the input can never set a terminal's title, move its
    cursor or change its colours (``\\x1b]0;pwned\\x07`` is printed as those characters)."""
    return _CONTROLS.sub(_escape, text) if _CONTROLS.search(text) else text


def echo(message: Any = "", err: bool = False) -> None:
    """The CLI's one way to print text (every command's text output and errors): click.echo of
    the message with its control characters escaped (:func:`safe`)."""
    click.echo(safe(str(message)), err=err)


class Main(click.Group):
    """The command group: an unexpected exception becomes exit code 3 with one line, not a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:  # click's own messages quote input too (a file name)
            exc.message = safe(exc.message)
            raise
        except (click.exceptions.Exit, click.Abort, SystemExit, KeyboardInterrupt):
            raise
        except BrokenPipeError:  # the reader went away (``| head``): not an error of ours
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(141)
        except Exception as exc:  # noqa: BLE001 - the last line of defence, reported as a bug
            inputs = " ".join(a for a in ctx.args or [] if not a.startswith("-"))
            echo("error: " + internal_error_line(exc, inputs or None), err=True)
            ctx.exit(EXIT_INTERNAL)


class BadInput(click.ClickException):
    """Unreadable input: printed as ``error: file:line: field: what`` with exit code 2."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file: Any = None) -> None:
        echo(f"error: {self.format_message()}", err=True)


def fail(exc: AdjudicatorError | str) -> BadInput:
    return BadInput(exc.render() if isinstance(exc, LogError) else str(exc))


at_option = click.option(
    "--at", "at", type=click.IntRange(min=1), default=None, metavar="N",
    help="The position after event N (1 = MatchStarted); default: the end of the log.",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
as_option = click.option(
    "--as", "as_player", default=None, metavar="PLAYER",
    help="Show only what PLAYER can see (default: the judge's view, everything).",
)
position_option = click.option(
    "--position", "position", type=click.Path(dir_okay=False), default=None,
    help="Read the position from a file instead of a log: a position document (state --json) or a "
         "position line (state --text), sniffed by content.",
)
position_text_option = click.option(
    "--position-text", "position_text", default=None, metavar="LINE",
    help="The position as one line in the game's notation (what state --text prints), instead of a log.",
)



def _install_pools(ctx: click.Context, _param: click.Parameter, value: tuple[str, ...]) -> None:
    """Every command that reads logs resolves data ids through ``--pools`` then
    ``ADJUDICATOR_POOLS`` (a fresh :class:`Sources` per command: edited files are seen)."""
    dirs = [str(Path(d).resolve()) for d in value]
    ctx.with_resource(sources.using(sources.Sources.from_env(dirs)))


pools_option = click.option(
    "--pools", multiple=True, metavar="DIR", expose_value=False, callback=_install_pools,
    type=click.Path(exists=True, file_okay=False),
    help="A directory of card pools, boards and islands the logs may name by id (repeatable; "
         "after the shipped data, before ADJUDICATOR_POOLS). See docs/own-cards.md.",
)

def output_option(what: str, required: bool = False) -> Callable[[F], F]:
    """``-o/--output FILE`` and ``--force``, the same on every command that writes a file: ``what``
    says what is written (see :func:`check_output` and :func:`write_output`); without
    ``required``, no ``-o`` is standard output."""

    def decorate(f: F) -> F:
        f = click.option("--force", is_flag=True,
                         help="With -o: replace FILE if it exists (never one of the command's inputs).")(f)
        default = "" if required else " (default: standard output)"
        return click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                            required=required,
                            help=f"Write {what} to FILE{default}; an existing FILE only with --force, an input "
                                 f"of the command never.")(f)

    return decorate


def check_output(output: str | None, force: bool, inputs: Iterable[str]) -> None:
    """Refuse ``-o output`` (exit 2) when it is one of ``inputs`` (the same file, by any name:
    a symlink, a hard link), or exists and ``force`` is not given.  Called before any work, and
    again by :func:`write_output` just before the file is replaced."""
    if output is None:
        return
    out = Path(output)
    try:
        exists = out.exists() or out.is_symlink()
    except OSError as exc:
        raise BadInput(f"-o {output}: cannot write ({exc.strerror})") from None
    if not exists:
        return
    for i in inputs:
        try:
            same = os.path.samefile(out, i)
        except OSError:
            same = False
        if same:
            raise BadInput(f"-o {output}: it is the input {i} (the same file); write the output elsewhere")
    if not force:
        raise BadInput(f"-o {output}: the file exists; --force replaces it")


def write_output(output: str | None, force: bool, inputs: Iterable[str], data: bytes) -> None:
    """``data`` to standard output, or to ``output`` atomically: a temporary file in the same
    directory, flushed to disk (fsync), then renamed over ``output`` (so a reader, or a crash,
    never sees half a file, and a refused ``output`` is left untouched)."""
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    inputs = list(inputs)
    check_output(output, force, inputs)
    out = Path(output)
    folder = out.parent
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{out.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        if force:
            check_output(output, force, inputs)  # the same file may have appeared meanwhile
            os.replace(tmp, out)
        else:
            os.link(tmp, out)  # never replaces: a file that appeared since the check stays
            os.unlink(tmp)
        tmp = None
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except FileExistsError:
        raise BadInput(f"-o {output}: the file exists; --force replaces it") from None
    except OSError as exc:
        raise BadInput(f"-o {output}: cannot write ({exc.strerror or exc})") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def process_pool(jobs: int) -> Any:
    """The worker processes of ``--jobs`` (``verify``, ``store import``): a ProcessPoolExecutor
    (fork) whose workers die with this process, however it ends (kill -9 included)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
                               initializer=die_with_parent, initargs=(os.getpid(),))


#: how often a worker without prctl looks whether its parent is still there (seconds)
PARENT_POLL = 0.5


def die_with_parent(parent: int) -> None:
    """A worker process's initializer: end this process when ``parent`` ends.  On Linux the kernel
    sends it SIGKILL then (prctl PR_SET_PDEATHSIG); elsewhere a daemon thread polls the parent
    pid.  A parent already gone before this ran (the race) ends the worker at once."""
    import signal

    armed = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:
        os._exit(EXIT_INTERNAL)
    if not armed:
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(PARENT_POLL)
            os._exit(EXIT_INTERNAL)

        threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


_enc = msgspec.json.Encoder()


#: JSON escapes C0 controls itself; DEL and the C1 controls are written \\u00NN too (still JSON)
_JSON_CONTROLS = re.compile("[\x7f-\x9f]")


def emit_json(obj: Any) -> None:
    text = _enc.encode(obj).decode()
    if _JSON_CONTROLS.search(text):
        text = _JSON_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    sys.stdout.write(text + "\n")
