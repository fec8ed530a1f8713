"""``adjudicator pool check|show FILE``: a card-pool file's problems, its cards.

``pool check`` reports every problem of a pool file (TOML, or JSON for ``.json``), each with the
file, the line and the card id, and lists the cards whose effects are declared by the players
(not engine-checked); exit code 0 when the file is clean, 2 when it has problems or cannot be
read.  ``pool show`` lists the cards of a pool that loads, or one card's full data and text.
Without ``--game``, the game whose card model fits the file best (fewest problems) is used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import msgspec

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.services.pools import PoolReport, card_info, check_pool, pool_loader

from .common import EXIT_BAD_INPUT, BadInput, echo, emit_json, fail, json_option, safe


def pool_games() -> list[Any]:
    """The registered games that have card pools."""
    return [g for g in registry.games() if pool_loader(g) is not None]


def _check(path: str, game_id: str | None) -> PoolReport:
    if not Path(path).is_file():
        raise BadInput(f"{path}: no such pool file")
    if game_id is not None:
        try:
            game = registry.get(game_id)
        except AdjudicatorError as exc:
            raise fail(exc) from None
        loader = pool_loader(game)
        if loader is None:
            names = ", ".join(g.id for g in pool_games())
            raise BadInput(f"--game: {game_id} has no card pools (games with pools: {names})")
        return check_pool(path, loader, game.id)
    reports = [check_pool(path, pool_loader(g), g.id) for g in pool_games()]  # type: ignore[arg-type]
    reports.sort(key=lambda r: len(r.problems))
    if len(reports) > 1 and len(reports[0].problems) == len(reports[1].problems):
        tied = ", ".join(r.game for r in reports if len(r.problems) == len(reports[0].problems))
        raise BadInput(f"{path}: it could be a pool of {tied}: name the game with --game")
    return reports[0]


game_option = click.option("--game", "game_id", default=None, metavar="GAME",
                           help="The game the pool is for (default: the game whose cards fit the file best).")


@click.group()
def pool() -> None:
    """Card-pool files (TOML, or JSON for .json): check them, show their cards."""


@pool.command()
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@game_option
@json_option
def check(path: str, game_id: str | None, as_json: bool) -> None:
    """Report every problem of the pool FILE, with its line and card; exit 0 clean, 2 problems."""
    report = _check(path, game_id)
    if as_json:
        emit_json(report.as_dict())
    else:
        for p in report.problems:
            echo(p.render(report.path))
        n = len(report.problems)
        state = "clean" if n == 0 else f"{n} problem{'s' if n != 1 else ''}"
        cards = len(report.cards)
        echo(f"{report.path}: {report.game} pool {report.pool!r}, {cards} card{'s' if cards != 1 else ''} read, {state}")
        if report.declared:
            echo(f"declared effects (not engine-checked): {', '.join(report.declared)}")
    if report.problems:
        click.get_current_context().exit(EXIT_BAD_INPUT)


def _unset_dropped(value: Any) -> Any:
    """``value`` without the fields left unset (``None``) in its tables, as a pool file writes it."""
    if isinstance(value, dict):
        return {k: _unset_dropped(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_unset_dropped(v) for v in value]
    return value


@pool.command()
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--card", "card_id", default=None, metavar="ID", help="Show this card's full data and text.")
@game_option
@json_option
def show(path: str, card_id: str | None, game_id: str | None, as_json: bool) -> None:
    """The cards of the pool FILE as a table, or one card's full data and text (--card)."""
    report = _check(path, game_id)
    if report.problems:
        first = report.problems[0].render(report.path)
        more = len(report.problems) - 1
        raise BadInput(first + (f" (and {more} more problems: adjudicator pool check {path})" if more else ""))
    game = registry.get(report.game)
    by_id = {c.id: c for c in report.cards}
    if card_id is not None:
        card = by_id.get(card_id)
        if card is None:
            raise BadInput(f"--card: no card {card_id!r} in {path} ({len(by_id)} cards)")
        data = msgspec.to_builtins(card)
        if as_json:
            emit_json({"game": report.game, "pool": report.pool, "card": data, "info": card_info(game, card)})
            return
        info = card_info(game, card)
        echo(f"{info['name']} ({card.id})")
        if info["facts"]:
            echo(" · ".join(info["facts"]))
        if info["text"]:
            echo("")
            echo(click.wrap_text(info["text"], 88))
        echo("")
        for key, value in data.items():
            if key != "text":
                echo(f"{key} = {msgspec.json.encode(_unset_dropped(value)).decode()}")
        return
    infos = [card_info(game, c) for c in report.cards]
    if as_json:
        emit_json({"game": report.game, "pool": report.pool, "cards": infos, "declared": report.declared})
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # the pool's texts as plain Text (never rich markup), their control characters escaped
    table = Table(title=Text(safe(f"{report.game} pool {report.pool!r}: {len(infos)} cards")), title_justify="left")
    for column in ("id", "name", "facts", "text"):
        table.add_column(column, overflow="fold")
    for info in infos:
        table.add_row(*(Text(safe(x)) for x in (info["id"], info["name"], " · ".join(info["facts"]), info["text"])))
    Console(soft_wrap=False).print(table)
