"""``adjudicator export LOG -o match.html``: one match as a self-contained replay file
(:mod:`adjudicator.replays.web.export`)."""

from __future__ import annotations

import click

from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.kernel.log import read_log

from .common import BadInput, check_output, echo, fail, output_option, pools_option, write_output


@click.command()
@pools_option
@click.argument("log_path", metavar="LOG", type=click.Path(dir_okay=False))
@output_option("the HTML replay", required=True)
@click.option("--as", "views", multiple=True, metavar="PLAYER",
              help="A viewpoint the file holds (repeatable): a player's seat, 'public' (every seat's hidden "
                   "cards masked; the default) or 'judge' (everything).  The first one is where it opens.")
def export(log_path: str, output: str, force: bool, views: tuple[str, ...]) -> None:
    """Write LOG as one self-contained HTML replay (no server, no network): the browser viewer
    with its frames inlined, holding only the viewpoints asked for (default: the public view)."""
    from adjudicator.replays.web.export import ExportError, render

    check_output(output, force, [log_path])
    try:
        page = render(read_log(log_path), list(views) or ["public"], log_path)
    except AdjudicatorError as exc:
        raise fail(exc) from None
    except ExportError as exc:
        raise BadInput(str(exc)) from None
    write_output(output, force, [log_path], page.encode("utf-8"))
    echo(f"{output}: {len(page):,} bytes, viewpoints {', '.join(dict.fromkeys(views or ('public',)))}")
