"""``adjudicator replay LOG|MATCH_ID``: step through a match in the terminal (a Textual app).

A LOG path is read and verified; anything else names a stored match (its id or a unique
prefix, in the store ``--db`` or ``$ADJUDICATOR_DB`` or ``./adjudicator.db``).  Bad input (no
such file, an unreadable log, an unknown match, an unknown player, ``--at`` past the end) is a
clean error with exit code 2, checked before the app starts.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from adjudicator.core.kernel import position as positions
from adjudicator.core.kernel import registry, sources
from adjudicator.core.kernel.errors import AdjudicatorError
from adjudicator.core.store import MatchStore, store_env
from adjudicator.replays.core import Replay

from .common import BadInput, as_option, fail, pools_option, position_option, position_text_option
from .store import db_option


def _looks_like_a_path(ref: str) -> bool:
    return os.sep in ref or "/" in ref or ref.endswith(".jsonl") or ref.startswith(".")


def load_replay(source: str, db: str | None = None) -> Replay:
    """The replay of a log file, or of a stored match (id or unique prefix)."""
    if Path(source).exists() or _looks_like_a_path(source):
        try:
            return Replay.from_file(source)
        except AdjudicatorError as exc:
            raise fail(exc) from None
    env, location = store_env(db)
    if env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
        dbfile = env.get("SQLITE_DBNAME", "")
        if dbfile and dbfile != ":memory:" and not os.path.exists(dbfile):
            raise BadInput(f"{source}: no such log file, and no match store at {dbfile} to look it up in "
                           "(--db PATH or $ADJUDICATOR_DB)")
    try:
        with MatchStore(db) as store:
            match_id = store.resolve(source)
            summary = store.summary(match_id)
            sources.install(store.data_sources(match_id))  # the match's own pool/board, kept by the store
            game = registry.get(summary.game)
            events = [e.event for e in store.get_log(match_id)]
    except AdjudicatorError as exc:
        raise fail(exc) from None
    name = f"match {match_id[:8]}" + (f" ({summary.source})" if summary.source else "")
    try:
        return Replay.from_events(game, events, name)
    except AdjudicatorError as exc:
        raise fail(exc) from None


def build_app(source: str | None, at: int | None = None, as_player: str | None = None, db: str | None = None,
              position: str | None = None, position_text: str | None = None):
    """The app for ``adjudicator replay`` with every argument checked (BadInput, exit 2)."""
    from adjudicator.replays.tui import ReplayApp

    if [source, position, position_text].count(None) != 2:
        raise BadInput("give one of a LOG|MATCH_ID, --position FILE or --position-text LINE")
    if source is None:
        try:
            game, state = (positions.load(position) if position is not None
                           else positions.from_line(position_text or ""))
        except AdjudicatorError as exc:
            raise fail(exc) from None
        replay = Replay.from_position(game, state, position or "--position-text")
        source = replay.title
    else:
        replay = load_replay(source, db)
    if at is not None and not 1 <= at <= len(replay):
        raise BadInput(f"{source}: --at {at} is outside the log (events 1-{len(replay)})")
    players = replay.players()
    if as_player is not None and as_player not in players:
        raise BadInput(f"--as: unknown player {as_player!r} (players: {', '.join(players)})")
    return ReplayApp(replay, at=at, view=as_player)


@click.command()
@pools_option
@click.argument("source", metavar="LOG|MATCH_ID", required=False)
@click.option("--at", "at", type=click.IntRange(min=1), default=None, metavar="N",
              help="Open at event N (1 = MatchStarted); default: the first event.")
@as_option
@db_option
@position_option
@position_text_option
def replay(source: str | None, at: int | None, as_player: str | None, db: str | None, position: str | None,
           position_text: str | None) -> None:
    """Step through a match in the terminal: a log file, or a stored match id (or unique prefix).

    --position FILE or --position-text LINE opens one position instead (a position line, as
    `state --text` prints it, or a position document): a table nobody logged.

    Keys: right/left one event, up/down one turn, Home/End, g go to event N, v change the
    viewpoint, n/p next/previous violation, / search event types, ? help, q quit.
    """
    app = build_app(source, at, as_player, db, position, position_text)
    app.run()


__all__ = ["build_app", "load_replay", "replay"]
