"""``adjudicator record LOG``: record a match as it is played (recorder/session.py).

A new LOG needs the set-up: ``--game`` and ``--players`` with the game's own fields (``--deck
PLAYER=FILE`` for plain-text deck lists, ``--setup`` with a TOML or JSON set-up, ``--pool``,
``--ruleset``, ``--option``, ``--meta``), or ``--manifest M --round R --table T`` (a tournament's
table: its players and their registered lists); ``record --sample-setup GAME`` prints a set-up
file to edit.  An existing LOG is resumed where it stops, in the mode it was recorded in.  Without
``--script`` the terminal app (Textual) runs; with ``--script FILE`` (``-``: standard input) the
entries are read one a line and each answer is printed (for scripts and tests).

Exit codes: 0 every entry recorded, 1 some entry refused by the rules (a script), 2 a set-up or
log that cannot be read, wrong usage, or a script entry that could not be read (nothing recorded
for it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

import click
import msgspec

from adjudicator.core.kernel import registry
from adjudicator.core.services.decklist import deck_list_text, parse_setup, read_deck_list, read_setup
from adjudicator.core.kernel.errors import AdjudicatorError, DataError, LogError
from adjudicator.core.kernel.limits import depth_error
from adjudicator.core.kernel.meta import parse_filters
from adjudicator.recorder.session import MAX_ENTRY, RecordSession

from .common import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_LEGAL, BadInput, fail, pools_option, safe

#: the longest ``--option`` value or inline ``--setup`` (characters)
MAX_OPTION = 100_000
#: what a set-up file may say beside the game's own fields
SETUP_KEYS = ("game", "players", "pool", "options", "meta", "ruleset")


def _value(text: str) -> Any:
    """An option's value: JSON when it reads as JSON (``3``, ``true``, ``"x"``), else the text;
    bounded in length and depth as every JSON input."""
    if len(text) > MAX_OPTION:
        raise BadInput(f"--option: a value is at most {MAX_OPTION} characters")
    deep = depth_error(text)
    if deep is not None:
        raise BadInput(f"--option: {deep}")
    try:
        return json.loads(text)
    except ValueError:
        return text


def _setup_doc(text: str | None) -> dict[str, Any]:
    """``--setup``: inline JSON or TOML, or ``@FILE`` (a regular file, bounded)."""
    if not text:
        return {}
    try:
        if text.startswith("@"):
            return read_setup(text[1:])
        if len(text) > MAX_OPTION:
            raise BadInput(f"--setup: at most {MAX_OPTION} characters inline (use @FILE)")
        return parse_setup(text, "--setup")
    except DataError as exc:
        raise BadInput(f"--setup: {exc}") from None


def _manifest_setup(manifest: str, round_: int | None, table: int | None) -> dict[str, Any]:
    """A tournament table as a set-up: its game, players, pool or board, the players' registered
    deck lists, and the header (event, round, table)."""
    from adjudicator.core.services import tournament

    if round_ is None or table is None:
        raise BadInput("--manifest needs --round R and --table T")
    tour = tournament.load(manifest)
    man = tour.manifest
    rnd = next((r for r in man.rounds if r.round == round_), None)
    tab = next((t for t in rnd.tables if t.table == table), None) if rnd is not None else None
    if tab is None:
        raise BadInput(f"{manifest}: no table {table} in round {round_}")
    doc: dict[str, Any] = {"game": man.game, "players": list(tab.players),
                           "meta": {"event": man.name, "round": str(round_), "table": str(table)}}
    if man.pool:
        doc["pool"] = man.pool
    if man.board:
        doc["options"] = {"board": man.board}
    game = tour.game
    if game.deck_type is not None:
        decks = {}
        base = Path(manifest).parent
        for ent in man.players:
            if ent.id not in tab.players:
                continue
            deck = ent.deck
            if ent.deck_file is not None:
                deck = read_deck_list(str(base / ent.deck_file), game, man.pool)
            if deck is None:
                raise BadInput(f"{manifest}: {ent.id} registered no deck list (deck or deck_file)")
            decks[ent.id] = msgspec.to_builtins(msgspec.convert(deck, game.deck_type))
        doc["decks"] = decks
    return doc


def open_session(log: str, game: str | None, players: str | None, pool: str | None, ruleset: str | None,
                 options: tuple[str, ...], meta: tuple[str, ...], setup: str | None, seat: str | None,
                 judge: bool, decks: tuple[str, ...] = (), manifest: str | None = None,
                 round_: int | None = None, table: int | None = None) -> RecordSession:
    path = Path(log)
    try:
        if path.exists() and path.stat().st_size > 0:
            if game or players or setup or options or meta or pool or ruleset or decks or manifest:
                raise BadInput(f"{log} exists: it is resumed as it is (the set-up options are for a new log)")
            return RecordSession.resume(path, seat=seat, judge=judge)
        doc = _manifest_setup(manifest, round_, table) if manifest else {}
        doc.update(_setup_doc(setup))
        game = game or doc.pop("game", None)
        doc.pop("game", None)
        names = [p.strip() for p in players.split(",") if p.strip()] if players else doc.pop("players", None)
        doc.pop("players", None)
        if not game or not names:
            raise BadInput(f"{log} is a new log: --game and --players start a match (or a --setup file naming them, "
                           "or --manifest M --round R --table T)")
        if not isinstance(names, list) or not all(isinstance(p, str) for p in names):
            raise BadInput("--setup: players is a list of player ids")
        pool = pool or doc.pop("pool", None)
        doc.pop("pool", None)
        if ruleset:
            doc["ruleset"] = ruleset
        try:
            opts = {**(doc.pop("options", None) or {}), **{k: _value(v) for k, v in parse_filters(options).items()}}
            header = {**(doc.pop("meta", None) or {}), **parse_filters(meta)}
        except (ValueError, TypeError) as exc:
            raise BadInput(str(exc)) from None
        if decks:
            g = registry.get(game)
            lists = dict(doc.get("decks") or {})
            for item in decks:
                player, eq, file = item.partition("=")
                if not eq or not player or not file:
                    raise BadInput(f"--deck {item}: PLAYER=FILE")
                if player not in names:
                    raise BadInput(f"--deck {item}: {player!r} is not a player of this match (players: {', '.join(names)})")
                lists[player] = read_deck_list(file, g, pool)
            doc["decks"] = lists
        return RecordSession.start(path, game, names, pool=pool, options=opts, meta=header, fields=doc,
                                   seat=seat, judge=judge)
    except LogError as exc:
        raise fail(exc) from None
    except DataError as exc:
        raise BadInput(str(exc)) from None
    except AdjudicatorError as exc:  # a set-up the rules refuse (IllegalEvent carries the ruling)
        raise BadInput(f"{log}: the set-up is refused: {exc}") from None
    except OSError as exc:
        raise BadInput(f"{log}: cannot write ({exc.strerror})") from None


def sample_setup(game_id: str) -> str:
    """A set-up file (TOML) of ``game_id`` to edit: players, pool, options and the game's own
    fields; deck lists are also shown as plain-text lists (for ``--deck PLAYER=FILE``)."""
    game = registry.get(game_id)
    doc = msgspec.to_builtins(game.sample_setup(0))
    out = [f"# A set-up of {game.name} for `adjudicator record LOG --setup @THIS.toml` (edit it).",
           "# Every field is what MatchStarted holds (docs/log-format.md); --game/--players/--deck override it."]
    out += [f"{k} = {_toml(doc[k])}" for k in ("game", "players", "pool", "ruleset") if k in doc]
    rest = {k: v for k, v in doc.items() if k not in ("type", "game", "players", "pool", "ruleset", "pool_sha256")}
    out += [f"{k} = {_toml(v)}" for k, v in rest.items() if not isinstance(v, dict)]  # (before any table)
    if game.deck_type is not None and isinstance(rest.get("decks"), dict):
        for player, deck in rest["decks"].items():
            out.append(f"\n# {player}'s deck as a plain-text list (record --deck {player}=FILE reads this form):")
            out += ["#   " + line for line in deck_list_text(game, deck, doc.get("pool")).splitlines()]
    for k, v in rest.items():
        if isinstance(v, dict):
            out += _toml_table(k, v)
    return "\n".join(out) + "\n"


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v).__name__)


def _key(k: str) -> str:
    return k if k.replace("-", "").replace("_", "").isalnum() and k.isascii() else json.dumps(k)


def _toml_table(name: str, doc: dict[str, Any]) -> list[str]:
    out = [f"\n[{name}]"]
    subs = []
    for k, v in doc.items():
        if isinstance(v, dict) and v and any(isinstance(x, dict) for x in v.values()):
            subs.append((k, v))
        else:
            out.append(f"{_key(k)} = {_toml(v)}")
    for k, v in subs:
        out += _toml_table(f"{name}.{_key(k)}", v)
    return out


def _lines(entries: TextIO) -> Any:
    """The entries one a line, in bounded memory: a line longer than :data:`MAX_ENTRY` is read
    in pieces and given as None (refused without being held whole)."""
    while True:
        line = entries.readline(MAX_ENTRY + 2)
        if not line:
            return
        if len(line) > MAX_ENTRY + 1 or (len(line) == MAX_ENTRY + 2 and not line.endswith("\n")):
            while line and not line.endswith("\n"):
                line = entries.readline(65_536)
            yield None
            continue
        yield line


def run_script(session: RecordSession, entries: TextIO) -> int:
    """Read entries one a line and answer each (the choices are listed before each entry)."""
    refused = unread = 0
    show_choices(session)
    for line in _lines(entries):
        if line is None:
            click.echo(f"  ! an entry is at most {MAX_ENTRY} characters (not recorded)")
            unread += 1
            continue
        text = line.strip()
        if not text or text.startswith("#"):
            if line.strip("\r\n") != "" or not line.endswith("\n"):
                continue
            text = ""  # an empty line: Enter, the default (a bare "#" line is a comment)
        click.echo(safe(f"> {text}"))
        answer = session.enter(text)
        click.echo(safe(("  " if answer.ok or answer.confirm else "  ! ") + answer.message))
        for c in answer.candidates[:10]:
            click.echo(safe(f"    {c.number}. {c.label}"))
        for d in answer.derived:
            click.echo(safe(f"    then: {session.words(d)}"))
        if not answer.ok and not answer.confirm:
            if answer.ruling is not None:
                refused += 1
            else:
                unread += 1
        if answer.ok:  # (flushed to disk before this line is printed)
            click.echo(f"{'accepted' if answer.ruling is not None else 'the log holds'} {len(session.record)}")
            sys.stdout.flush()
        show_choices(session)
    if session.confirming is not None:
        click.echo(safe(f"  ! not confirmed: {session.words(session.confirming)} (not recorded)"))
        unread += 1
    if session.over:
        click.echo(safe(f"the match is over; {session.path} is sealed"))
    if refused or unread:
        click.echo(f"not recorded: {refused} entries refused by the rules, {unread} not read", err=True)
    return EXIT_ILLEGAL if refused else EXIT_BAD_INPUT if unread else EXIT_LEGAL


def show_choices(session: RecordSession) -> None:
    if session.irregularity:  # a judge resumed a log that holds one: the ruling comes first
        click.echo(safe(f"  ! the log holds an irregularity at {session.irregularity}"))
    if session.over:
        return
    choices, enders = session.lists()
    waiting = session.waiting()  # (a seat's view: what the table shows and the view cannot derive)
    if waiting:
        click.echo(safe(f"  {waiting}"))
    random = choices and all(c.random for c in choices)
    head = "what happened at the table? (a random outcome)" if random else f"to act: {', '.join(session.to_act()) or '-'}"
    default = session.default()
    click.echo(safe(f"{head}; {len(choices)} choices" + (f"; Enter: {default.label}" if default else "")))
    for c in choices:
        more = f"   (+{c.alternatives - 1} other paths)" if c.alternatives > 1 else ""
        click.echo(safe(f"  {c.number}. {c.label}{more}"))
    if enders:
        click.echo(safe("  ends the match (confirmed with y): " + "; ".join(c.label for c in enders)))
    sys.stdout.flush()


@click.command()
@pools_option
@click.argument("log", metavar="LOG", type=click.Path(dir_okay=False), required=False)
@click.option("--game", default=None, metavar="GAME", help="The game of a new match (a registry id).")
@click.option("--players", default=None, metavar="A,B,...", help="The players of a new match, in seat order.")
@click.option("--pool", default=None, metavar="ID", help="The card pool (Colossus Order, LOGOS) or board/island (Kolossus, Colossi).")
@click.option("--ruleset", default=None, metavar="NAME", help="The ruleset preset of a new match.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="One ruleset option (repeatable; VALUE read as JSON when it is JSON).")
@click.option("--meta", multiple=True, metavar="KEY=VALUE", help="The match header: event, round, table, date, judge, ... (repeatable).")
@click.option("--setup", default=None, metavar="TOML|JSON|@FILE", help="The set-up: the game's own fields (decks, seats), and game, players, pool, options, meta; TOML or JSON, inline or @FILE.")
@click.option("--deck", "decks", multiple=True, metavar="PLAYER=FILE", help="PLAYER's deck list: plain text, one card a line ('3 Heroic Knight'), names or ids (repeatable).")
@click.option("--manifest", default=None, metavar="FILE", help="A tournament manifest: the table's players and registered deck lists are the set-up (with --round, --table).")
@click.option("--round", "round_", default=None, type=click.IntRange(1, 1_000), metavar="R", help="The round of --manifest.")
@click.option("--table", default=None, type=click.IntRange(1, 100_000), metavar="T", help="The table of --manifest.")
@click.option("--sample-setup", "sample", default=None, metavar="GAME", help="Print a set-up file of GAME to edit (TOML) and exit.")
@click.option("--as", "seat", default=None, metavar="PLAYER", help="Record what PLAYER's seat sees; the seat's commitments get fresh salts kept in LOG.salts.json.")
@click.option("--judge", is_flag=True, help="A refused entry may be recorded, flagged, with a judge's ruling (rule stands|taken-back [reason]).")
@click.option("--script", default=None, metavar="FILE", type=click.File("r"), help="Read the entries from FILE (- : standard input), one a line, and print the answers; no terminal app.")
def record(log: str | None, game: str | None, players: str | None, pool: str | None, ruleset: str | None,
           options: tuple[str, ...], meta: tuple[str, ...], setup: str | None, decks: tuple[str, ...],
           manifest: str | None, round_: int | None, table: int | None, sample: str | None,
           seat: str | None, judge: bool, script: TextIO | None) -> None:
    """Record a match in LOG as it is played: the legal events of whoever acts, numbered, picked
    by number, by a few words, in the game's notation or typed as JSON (Enter: the default);
    random outcomes asked for as they happen; undo; every event flushed to disk at once; the log
    sealed when the match ends."""
    if sample is not None:
        try:
            click.echo(sample_setup(sample), nl=False)
        except AdjudicatorError as exc:
            raise BadInput(str(exc)) from None
        return
    if log is None:
        raise BadInput("record LOG: the log to write (or --sample-setup GAME)")
    session = open_session(log, game, players, pool, ruleset, options, meta, setup, seat, judge, decks,
                           manifest, round_, table)
    if script is not None:
        sys.exit(run_script(session, script))
    from adjudicator.recorder.terminal import RecordApp

    RecordApp(session).run()
