"""``adjudicator record LOG``: record a match as it is played (replays/record.py).

A new LOG needs ``--game`` and ``--players`` (and the game's own set-up: ``--setup`` with the deck
lists or seats, ``--pool``, ``--ruleset``, ``--option``, ``--meta``); an existing LOG is resumed
where it stops.  Without ``--script`` the terminal app (Textual) runs; with ``--script FILE`` (``-``:
standard input) the entries are read one a line and each answer is printed (for scripts and tests).

Exit codes: 0 every entry recorded, 1 some entry refused (a script), 2 a set-up or log that cannot
be read, or wrong usage.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

import click

from adjudicator.core.errors import AdjudicatorError, LogError
from adjudicator.core.meta import parse_filters
from adjudicator.replays.record import RecordSession

from .common import EXIT_ILLEGAL, EXIT_LEGAL, BadInput, fail, pools_option


def _value(text: str) -> Any:
    """An option's value: JSON when it reads as JSON (``3``, ``true``, ``"x"``), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _setup_fields(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    raw = text
    if text.startswith("@"):
        try:
            raw = Path(text[1:]).read_text()
        except OSError as exc:
            raise BadInput(f"--setup: {text[1:]}: cannot read ({exc.strerror})") from None
    try:
        doc = json.loads(raw)
    except ValueError as exc:
        raise BadInput(f"--setup: not a JSON object ({exc})") from None
    if not isinstance(doc, dict):
        raise BadInput("--setup: a JSON object of the game's set-up fields (decks, seats, ...)")
    return doc


def open_session(log: str, game: str | None, players: str | None, pool: str | None, ruleset: str | None,
                 options: tuple[str, ...], meta: tuple[str, ...], setup: str | None, seat: str | None,
                 judge: bool) -> RecordSession:
    path = Path(log)
    try:
        if path.exists() and path.stat().st_size > 0:
            if game or players or setup or options or meta or pool or ruleset:
                raise BadInput(f"{log} exists: it is resumed as it is (the set-up options are for a new log)")
            return RecordSession.resume(path, seat=seat, judge=judge)
        if not game or not players:
            raise BadInput(f"{log} is a new log: --game and --players start a match")
        fields = _setup_fields(setup)
        if ruleset:
            fields["ruleset"] = ruleset
        try:
            opts = {k: _value(v) for k, v in parse_filters(options).items()}
            header = parse_filters(meta)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        names = [p.strip() for p in players.split(",") if p.strip()]
        return RecordSession.start(path, game, names, pool=pool, options=opts, meta=header, fields=fields,
                                   seat=seat, judge=judge)
    except LogError as exc:
        raise fail(exc) from None
    except AdjudicatorError as exc:  # a set-up the rules refuse (IllegalEvent carries the ruling)
        raise BadInput(f"{log}: the set-up is refused: {exc}") from None
    except OSError as exc:
        raise BadInput(f"{log}: cannot write ({exc.strerror})") from None


def run_script(session: RecordSession, entries: TextIO) -> int:
    """Read entries one a line and answer each (the choices are listed before each entry)."""
    refused = 0
    show_choices(session)
    for line in entries:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        click.echo(f"> {text}")
        answer = session.enter(text)
        click.echo(("  " if answer.ok else "  ! ") + answer.message)
        for c in answer.candidates[:10]:
            click.echo(f"    {c.number}. {c.label}")
        for d in answer.derived:
            from adjudicator.replays.words import event_words

            click.echo(f"    then: {event_words(session.game, d)}")
        if not answer.ok and answer.ruling is not None:
            refused += 1
        if answer.ok:  # (flushed to disk before this line is printed)
            click.echo(f"{'accepted' if answer.ruling is not None else 'the log holds'} {len(session.record)}")
            sys.stdout.flush()
        show_choices(session)
    if session.over:
        click.echo(f"the match is over; {session.path} is sealed")
    return EXIT_ILLEGAL if refused else EXIT_LEGAL


def show_choices(session: RecordSession) -> None:
    if session.over:
        return
    choices = session.choices()
    random = choices and all(c.random for c in choices)
    head = "what happened at the table? (a random outcome)" if random else f"to act: {', '.join(session.to_act()) or '-'}"
    click.echo(f"{head}; {len(choices)} choices")
    for c in choices:
        more = f"   (+{c.alternatives - 1} other paths)" if c.alternatives > 1 else ""
        click.echo(f"  {c.number}. {c.label}{more}")
    sys.stdout.flush()


@click.command()
@pools_option
@click.argument("log", metavar="LOG", type=click.Path(dir_okay=False))
@click.option("--game", default=None, metavar="GAME", help="The game of a new match (a registry id).")
@click.option("--players", default=None, metavar="A,B,...", help="The players of a new match, in seat order.")
@click.option("--pool", default=None, metavar="ID", help="The card pool (Colossus Order, LOGOS) or board/island (Kolossus, Colossi).")
@click.option("--ruleset", default=None, metavar="NAME", help="The ruleset preset of a new match.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="One ruleset option (repeatable; VALUE read as JSON when it is JSON).")
@click.option("--meta", multiple=True, metavar="KEY=VALUE", help="The match header: event, round, table, date, judge, ... (repeatable).")
@click.option("--setup", default=None, metavar="JSON|@FILE", help="The game's own set-up fields as a JSON object (decks, seats).")
@click.option("--as", "seat", default=None, metavar="PLAYER", help="Record what PLAYER's seat sees; the seat's commitments get fresh salts kept in LOG.salts.json.")
@click.option("--judge", is_flag=True, help="A refused entry may be recorded, flagged, with a judge's ruling (rule stands|taken-back [reason]).")
@click.option("--script", default=None, metavar="FILE", type=click.File("r"), help="Read the entries from FILE (- : standard input), one a line, and print the answers; no terminal app.")
def record(log: str, game: str | None, players: str | None, pool: str | None, ruleset: str | None,
           options: tuple[str, ...], meta: tuple[str, ...], setup: str | None, seat: str | None, judge: bool,
           script: TextIO | None) -> None:
    """Record a match in LOG as it is played: the legal events of whoever acts, numbered, picked
    by number, by a few words or typed as JSON; random outcomes asked for as they happen; undo;
    every event flushed to disk at once; the log sealed when the match ends."""
    session = open_session(log, game, players, pool, ruleset, options, meta, setup, seat, judge)
    if script is not None:
        sys.exit(run_script(session, script))
    from adjudicator.replays.record_tui import RecordApp

    RecordApp(session).run()
