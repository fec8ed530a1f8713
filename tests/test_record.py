"""``adjudicator record`` (recorder/session.py, recorder/terminal.py, cli/record.py): complete matches
recorded through the Textual app, driven by its pilot as a player types; one seat's records with
their commitments; two LOGOS seats' records reconciled; undo; a judge's ruling; the --script mode.

Ground truth is a match played by a seeded random player on a :class:`adjudicator.build.Recording`
(the table); the recorder only sees what is typed into it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from textual.widgets import Input

import adjudicator
from adjudicator.build import Recording
from adjudicator.core.services.reconcile import read_record, reconcile
from adjudicator.recorder.session import RecordSession
from adjudicator.recorder.files import SALTS_SUFFIX, load_salts
from adjudicator.recorder.terminal import RecordApp
from adjudicator.cli.main import main

SIZE = (140, 44)
#: each game's set-up for a short complete match (ruleset options that end it early)
SHORT = {
    "colossus-order": {},  # ends by a concession after a while
    "logos": {"start_hp": 4},
    "kolossus": {"rounds": 1},
    "colossi": {"gold_target": 5},
}
ENDS = {"colossus-order": "Conceded", "logos": "Resigned"}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def setup_of(gid: str, seed: int, **options: Any) -> tuple[adjudicator.Match, dict[str, Any]]:
    g = adjudicator.game(gid)
    s = g.sample_setup(seed)
    doc = msgspec.to_builtins(s)
    opts = {**doc.get("options", {}), **SHORT[gid], **options}
    return g, {"players": doc["players"], "options": opts,
               "fields": {k: v for k, v in doc.items() if k not in ("type", "game", "players", "options")}}


def table_pick(g: Any, table: Recording, rng: random.Random, n: int, end_after: int = 60) -> Any:
    """What happens at the table next: a weighted random legal event (a concession late on where
    the game has one, so that long games end)."""
    options = table.legal()
    end = ENDS.get(g.id)
    if end and n >= end_after:
        quit_ = [e for e in options if type(e).__name__ == end]
        if quit_:
            return quit_[-1]
    weights = [g.playout_weight(table.state, e) * (0 if type(e).__name__ == end else 1) for e in options]
    return rng.choices(options, weights if sum(weights) else None)[0]


async def type_entry(pilot: Any, app: RecordApp, text: str, confirm: bool = False) -> None:
    """``text`` typed and Enter pressed; ``confirm``: a match-ending entry is confirmed (``y``)."""
    app.query_one("#entry", Input).value = text
    await pilot.press("enter")
    if confirm and app.session.confirming is not None:
        app.query_one("#entry", Input).value = "y"
        await pilot.press("enter")


def enter_ok(session: RecordSession, text: str) -> Any:
    """``text`` entered on another device (a match-ending entry confirmed)."""
    answer = session.enter(text)
    return session.enter("y") if answer.confirm else answer


def number_of(session: RecordSession, event: Any) -> str | None:
    """The number of the listed choice that records ``event`` (as the seat sees it), or None."""
    want = event if session.seat is None else session.game.redact(event, session.seat)
    return next((str(c.number) for c in session.choices() if c.event == want), None)


def screen(app: RecordApp) -> str:
    return "\n".join(s.text for s in app.screen._compositor.render_strips())


# -- a complete match of each game, the full record ---------------------------------------------

@pytest.mark.anyio
@pytest.mark.parametrize("gid", list(SHORT))
async def test_a_complete_match_recorded_in_the_terminal_verifies(tmp_path, gid):
    g, setup = setup_of(gid, 1)
    log = tmp_path / "m.jsonl"
    session = RecordSession.start(log, gid, setup["players"], options=setup["options"], fields=setup["fields"],
                                  meta={"event": "Club night", "round": "3"})
    table = Recording(g, session.record.setup)
    rng = random.Random(7)
    app = RecordApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "[event: Club night; round: 3]" in screen(app)
        n = undone = 0
        while not table.is_over():
            ev = table_pick(g, table, rng, n)
            wrong = next((c for c in session.choices() if c.event != ev and not c.random), None)
            if n >= 5 and not undone and wrong is not None:  # a wrong decision, taken back (a roll never is)
                await type_entry(pilot, app, str(wrong.number))
                assert len(session.record) >= len(table) + 1
                await pilot.press("ctrl+z")
                assert "taken back" in screen(app)
                undone = 1
            number = number_of(session, ev)
            if number is None and any(c.event == ev for c in session.enders()):
                await type_entry(pilot, app, session.words(ev))  # a match-ending entry: confirmed
                assert session.confirming == ev and "ends the match" in screen(app)
                number = "y"
            elif number is None:  # another path of a listed move (one is listed per square): typed
                assert g.legal_group(ev) is not None
                number = json.dumps(msgspec.to_builtins(ev))
            await type_entry(pilot, app, number)
            table.push(ev)
            filled = session.record.events[len(table):]  # passes that were their player's only choice
            for e in filled:
                assert not [x for x in table.legal() if x != e and not session._ends(x)], "a pass filled in by choice"
                table.push(e)
            n += 1
            assert len(session.record) == len(table), screen(app)
            # every accepted event is on disk at once
            assert len(log.read_bytes().splitlines()) == len(table)
        await pilot.pause()
        assert "over:" in screen(app) and "sealed" in screen(app)
    assert session.over and session.sealed
    verdict = adjudicator.read_log(log).verify()
    assert verdict.verdict == "legal" and verdict.outcome == table.outcome and verdict.chain_head
    # the log is the table's match, sealed
    assert [msgspec.structs.replace(e, prev=None) for e in adjudicator.read_log(log).events] == table.events


@pytest.mark.anyio
async def test_words_numbers_and_json_entries_and_refusals(tmp_path):
    log = tmp_path / "c.jsonl"
    session = RecordSession.start(log, "colossi", ["ann", "bob"], options={"gold_target": 5})
    app = RecordApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "what happened at the table? (a random outcome)" in screen(app)
        await type_entry(pilot, app, "bob first")  # a few words of one choice
        assert session.record.events[-1] == adjudicator.event("colossi", {"type": "FirstPlayerDetermined", "player": "bob"})
        await type_entry(pilot, app, "lair")  # several choices match: they are listed, nothing recorded
        assert len(session.record) == 2 and "choices match 'lair'" in screen(app)
        await type_entry(pilot, app, '{"type": "TileSetAside", "tile": "lair-time-beast"}')
        assert session.record.events[-1].tile == "lair-time-beast"
        await type_entry(pilot, app, '{"type": "Passed", "player": "ann"}')  # refused with the ruling
        assert len(session.record) == 3 and "refused: CL-1.3" in screen(app)
        await type_entry(pilot, app, '{"type": "TileSetAside", "tile": "lair-time-beest"}')
        assert "did you mean 'lair-time-beast'?" in screen(app)
        await type_entry(pilot, app, "rule stands")  # not a judge
        assert "only a judge" in screen(app)
        await type_entry(pilot, app, "note the tile was face up for a moment")  # after a refused entry:
        assert "note not written" in screen(app) and session.record.events[-1].note is None  # not on event 3
        await type_entry(pilot, app, "note the tile was face up for a moment")  # typed again: an annotation
        assert "note on event 3" in screen(app)
    back = adjudicator.read_log(log)
    assert back.verify().verdict == "legal" and back.events[-1].note == "the tile was face up for a moment"
    # the replay viewer shows it beside the event and in the ruling panel
    from adjudicator.replays.core import Replay
    from adjudicator.replays.tui import ReplayApp

    viewer = ReplayApp(Replay.from_file(log), at=3)
    async with viewer.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = "\n".join(s.text for s in viewer.screen._compositor.render_strips())
        assert "✎ the tile was face up" in text


def test_a_judge_records_a_refused_event_with_a_ruling(tmp_path):
    log = tmp_path / "j.jsonl"
    src = adjudicator.read_log("examples/colossus-order/illegal-CO-7.3-attacker-not-ready.jsonl")
    session = RecordSession.start(log, "colossus-order", src.setup.players,
                                  fields={"decks": msgspec.to_builtins(src.setup.decks)}, judge=True)
    session.autopass = False  # (the log's own passes are pushed)
    for ev in src.events[1:-1]:
        assert session.push(ev).ok
    bad = session.push(src.events[-1])
    assert not bad.ok and bad.ruling.rule == "CO-7.3" and "rule stands|taken-back" in bad.message
    ok = session.enter("rule stands the opponent agreed")
    assert ok.ok, ok.message
    v = adjudicator.read_log(log).verify()
    assert v.verdict == "legal" and v.warnings[0].rule == "CO-7.3" and v.rulings[0][2].reason == "the opponent agreed"
    assert session.undo().ok and len(adjudicator.read_log(log)) == len(src) - 1


# -- one seat's record, with commitments ------------------------------------------------------------

@pytest.mark.anyio
async def test_colossus_order_from_one_seat_with_commitments(tmp_path):
    g, setup = setup_of("colossus-order", 2)
    seat = setup["players"][0]
    log = tmp_path / "seat.jsonl"
    session = RecordSession.start(log, g.id, setup["players"], fields=setup["fields"], seat=seat)
    session.autopass = False  # (the table plays every pass itself here)
    full_setup = adjudicator.event(g, {"type": "MatchStarted", "game": g.id, "players": setup["players"],
                                       **setup["fields"]})
    table = Recording(g, full_setup)
    rng = random.Random(3)
    app = RecordApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        n = 0
        while not table.is_over():
            ev = table_pick(g, table, rng, n, end_after=80)
            number = number_of(session, ev)
            await type_entry(pilot, app, number if number is not None else json.dumps(
                msgspec.to_builtins(g.redact(ev, seat))), confirm=True)
            table.push(ev)
            n += 1
            assert session.refused is None, screen(app)
    lines = log.read_text().splitlines()
    salts = load_salts(log)
    made = [json.loads(x) for x in lines if '"card":"sha256:' in x]
    opened = [json.loads(x) for x in lines if '"CommitmentOpened"' in x]
    assert made and opened and len(salts) == len(made)
    assert all(o["commitment"] in salts and salts[o["commitment"]] == (o["card"], o["salt"]) for o in opened)
    assert len(set(s for _v, s in salts.values())) == len(salts)  # a fresh salt for each
    assert all(len(s) == 32 for _v, s in salts.values())
    # the seat's record names no card of the opponent's hand, and none of its own draws in clear
    assert not any(json.loads(x).get("type") == "CardDrawn" and json.loads(x)["player"] == seat
                   and not json.loads(x)["card"].startswith("sha256:") for x in lines[1:])
    r = CliRunner().invoke(main, ["verify", str(log)])
    assert r.exit_code in (0, 4), r.output
    assert "illegal" not in r.output.splitlines()[0]
    # resumed from disk, the session is the same (the salts read back from the side file)
    again = RecordSession.resume(log, seat=seat)
    assert again.record.to_jsonl() == session.record.to_jsonl() and again.salts == session.salts


@pytest.mark.anyio
async def test_two_logos_seats_record_one_match_and_reconcile(tmp_path):
    g, setup = setup_of("logos", 5, picks="commit-reveal")
    ann, ben = setup["players"]
    logs = {p: tmp_path / f"{p}.jsonl" for p in (ann, ben)}
    sessions = {p: RecordSession.start(logs[p], g.id, setup["players"], options=setup["options"],
                                       fields=setup["fields"], seat=p, meta={"table": "4"}) for p in (ann, ben)}
    for s in sessions.values():
        s.autopass = False  # (the table plays every pass itself here)
    table = Recording(g, adjudicator.event(g, {"type": "MatchStarted", "game": g.id, "players": setup["players"],
                                               "options": setup["options"], **setup["fields"]}))
    seat_rules = g.part("seat")
    rng = random.Random(11)
    app = RecordApp(sessions[ann])  # ann's device in the terminal; ben's device through its session
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        n = 0
        while not table.is_over():
            ev = table_pick(g, table, rng, n)
            kind = type(ev).__name__
            if kind == "PickRevealed":
                table.push(ev)  # (the example salt of the table's own list: the devices reveal their own)
                n += 1
                continue
            if kind == "CardCommitted":
                card = seat_rules.hidden_value(table.state, ev)
                own = sessions[ev.player]
                choice = next(c for c in own.choices() if c.event == ev)
                assert f"commit to {g.card_info(table.setup, card)['name']}" in choice.label  # the card's name
                if ev.player == ann:
                    await type_entry(pilot, app, str(choice.number))
                else:
                    assert own.enter(str(choice.number)).ok
                committed = own.record.events[-1] if type(own.record.events[-1]).__name__ == "CardCommitted" else \
                    next(e for e in reversed(own.record.events) if type(e).__name__ == "CardCommitted")
                other = ben if ev.player == ann else ann
                text = json.dumps(msgspec.to_builtins(committed))  # shown on the committing device
                if other == ann:
                    await type_entry(pilot, app, text)
                else:
                    assert sessions[other].enter(text).ok
                table.push(committed)
            else:
                for p, s in sessions.items():
                    number = number_of(s, ev)
                    entry = number if number is not None else json.dumps(msgspec.to_builtins(g.redact(ev, p)))
                    if p == ann:
                        await type_entry(pilot, app, entry, confirm=True)
                    else:
                        assert enter_ok(s, entry).ok
                table.push(ev)
            # reveals: each device reveals its own pick; the other records it as shown
            for p, s in sessions.items():
                other = ben if p == ann else ann
                mine = [e for e in s.record.events if type(e).__name__ == "PickRevealed" and e.player == p]
                theirs = [e for e in sessions[other].record.events if type(e).__name__ == "PickRevealed" and e.player == p]
                for e in mine[len(theirs):]:
                    text = json.dumps(msgspec.to_builtins(e))
                    if other == ann:
                        await type_entry(pilot, app, text)
                    else:
                        assert sessions[other].enter(text).ok, text
                    table.push(e)
            n += 1
            assert sessions[ann].refused is None and sessions[ben].refused is None, screen(app)
    for p in (ann, ben):
        assert sessions[p].over and Path(str(logs[p]) + SALTS_SUFFIX).exists()
        r = CliRunner().invoke(main, ["verify", str(logs[p])])
        assert r.exit_code in (0, 4), r.output
    merged = reconcile(read_record(logs[ann]), read_record(logs[ben]))
    assert not merged.contradictions, merged.contradictions
    out = tmp_path / "merged.jsonl"
    out.write_bytes(b"".join(line + b"\n" for line in merged.lines))
    v = adjudicator.read_log(out).verify()
    assert v.verdict == "legal" and v.outcome == table.outcome
    events = adjudicator.read_log(out).events
    assert events[0].meta == {"table": "4"} and msgspec.structs.replace(events[0], meta={}) == table.events[0]
    assert [msgspec.structs.replace(e, prev=None) for e in events[1:]] == table.events[1:]


# -- the command line --------------------------------------------------------------------------------

def test_record_script_starts_resumes_and_refuses(tmp_path):
    log = tmp_path / "k.jsonl"
    seats = json.dumps({"seats": [{"warband": "tuatha", "player": "ann", "corner": "NW"},
                                  {"warband": "krell", "player": "ben", "corner": "NE"},
                                  {"warband": "ishtari", "player": "ann", "corner": "SE"},
                                  {"warband": "firbolg", "player": "ben", "corner": "SW"}]})
    r = CliRunner().invoke(main, ["record", str(log), "--game", "kolossus", "--players", "ann,ben", "--setup", seats,
                                  "--option", "rounds=1", "--meta", "round=3", "--script", "-"], input="1\n2\n")
    assert r.exit_code == 0, r.output
    assert "to act: " in r.output and "accepted 2" in r.output and "accepted 3" in r.output
    r = CliRunner().invoke(main, ["record", str(log), "--script", "-"], input="undo\n1\n{\"type\": \"Nope\"}\n")
    assert r.exit_code == 2 and "taken back" in r.output  # an unreadable entry is answered: not recorded, exit 2
    assert "unknown event type 'Nope'" in r.output
    assert len(adjudicator.read_log(log)) == 3
    r = CliRunner().invoke(main, ["record", str(log), "--script", "-"], input='{"type":"TurnEnded","warband":"krell"}\n')
    assert r.exit_code == 1 and "refused: " in r.output
    # usage errors: exit 2, one line
    assert CliRunner().invoke(main, ["record", str(tmp_path / "new.jsonl"), "--script", "-"], input="").exit_code == 2
    r = CliRunner().invoke(main, ["record", str(log), "--game", "colossi", "--script", "-"], input="")
    assert r.exit_code == 2 and "resumed as it is" in r.output
    r = CliRunner().invoke(main, ["record", str(tmp_path / "x.jsonl"), "--game", "colossi", "--players", "a,b,c,d,e",
                                  "--script", "-"], input="")
    assert r.exit_code == 2 and "CL-1.1" in r.output
    r = CliRunner().invoke(main, ["record", str(tmp_path / "y.jsonl"), "--game", "colossi", "--players", "a,b",
                                  "--as", "zed", "--script", "-"], input="")
    assert r.exit_code == 2 and "not a player" in r.output


def test_choices_in_a_players_words(tmp_path):
    """The recorder's choices and log lines are the game's notation: names, not ids."""
    co = adjudicator.read_log("examples/colossus-order/legal-gem-complete.jsonl")
    session = RecordSession.start(tmp_path / "co.jsonl", co.game.id, co.setup.players,
                                  fields={"decks": msgspec.to_builtins(co.setup.decks)})
    session.autopass = False
    plays = 0
    for ev in co.events[1:80]:
        if type(ev).__name__ == "FollowerPlayed":
            label = next(c.label for c in session.choices() if c.event == ev)
            name = co.game.card_info(co.setup, ev.card)["name"]
            assert name in label and (ev.card == name or ev.card not in label), label
            assert label == co.game.notation.format(ev, session.view.state)
            plays += 1
        assert session.push(ev).ok
    assert plays and all(f"{i}. " in line for i, line in enumerate(session.log_words(), start=len(session.record) - 11))
