"""Issue 30, done-when: a LOGOS seat records a whole match alone (``adjudicator record --as``).

Property over generated matches (the game's playout: hidden and open picks, the sample pool and
a pool whose cards look at the opponent's cards, LG-43), from ONE seat's point of view, through
the recorder as that seat uses it: the seat's record of the match (``redact --as``, the table's
derived events stated as the seat saw them) is entered event by event, each as the seat would:

- its own picks by the listed "commit to <card>" choice (a fresh salt; the recorder reveals it);
- the opponent's hidden values by the listed unknown (``commit ?``, ``draw ?``, ``backup ?``)
  and what the table shows by its listed choice (a reveal, a called Backup card);
- where the seat's view cannot derive what the table shows (an effect moving or showing cards
  the seat has not seen, a player who may be defenseless, an opponent's deck of unknown size
  rebuilt): the listed choice when the recorder can list it (``seat.stated``), else the game's
  notation typed as the recorder's hint (``waiting``) says.

Never stuck (every entry is listed or, for what the table shows, hinted), never refused, to the
end of the match; the record verifies legal, or undetermined with its conditions stated, never
illegal.  The same through the terminal app (Textual's pilot) for whole matches.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from pathlib import Path
from typing import Any, Awaitable, Callable

import msgspec
import pytest
from click.testing import CliRunner

import adjudicator
from adjudicator.cli.main import main
from adjudicator.core.kernel import sources
from adjudicator.core.kernel.events import HIDDEN, bare, states
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import run
from adjudicator.games.logos import events as E
from adjudicator.recorder.consequences import owed
from adjudicator.recorder.session import RecordSession
from adjudicator.recorder.terminal import RecordApp
from tests.test_logos_looks import LOOKS, SAMPLE

GAME = adjudicator.game("logos")
HIDDEN_VALUE = GAME.part("seat").hidden_value
SIZE = (140, 44)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def pools_of(tmp_path: Path, pool: str) -> list[str]:
    """The pool directories a match of ``pool`` needs: the look cards' (LG-43), written to a
    directory as a user's pool file; none for the sample pool."""
    if pool == "sample":
        return []
    d = tmp_path / "pools"
    d.mkdir(exist_ok=True)
    (d / "looks.toml").write_text(SAMPLE.read_text().replace('pool = "sample"', 'pool = "looks"', 1) + LOOKS)
    return [str(d)]


def setup_of(seed: int, pool: str) -> Any:
    """A generated match's set-up: hidden picks (open every third seed), hit points low enough
    for a match to end; with the look cards, two of each in every deck."""
    base = GAME.sample_setup(seed)
    options = {**base.options, "start_hp": 30000, "picks": "open" if seed % 3 == 2 else "commit-reveal"}
    if pool == "looks":
        decks = {p: {**d, "glass-eye": 2, "vault-peeker": 2} for p, d in base.decks.items()}
        return msgspec.structs.replace(base, pool="looks", decks=decks, options=options)
    return msgspec.structs.replace(base, options=options)


def seat_record(setup: Any, seed: int, seat: str, pools: list[str]) -> list[Any]:
    """What ``seat`` saw of a generated match: its record of the full log with every derived
    event (the table shows them), as ``redact --as`` writes it."""
    with sources.using(sources.Sources(pools)):
        events, _ = playout(GAME, seed, max_events=3000, setup=setup, with_derived=True)
        assert GAME.outcome(run(parse_log(to_jsonl(events))).state) is not None, "the generated match ends"
        return list(redact_log(parse_log(to_jsonl(events)), seat))


def same(e: Any, seat: str) -> Any:
    """An event as the seat enters it: the opponent's commitment and salt unknown (the table
    shows no hash), the seat's own commitment its own (a fresh salt)."""
    e = bare(e)
    if type(e) is E.CardCommitted:
        return E.CardCommitted(player=e.player, commitment="?" if e.player != seat else "mine")
    if type(e) is E.PickRevealed:
        return E.PickRevealed(player=e.player, card=e.card, salt="?")
    return e


#: one entry as the seat types it, answered
Enter = Callable[[str], Awaitable[Any]]


async def record_as_seat(session: RecordSession, expected: list[Any], seat: str, enter: Enter) -> Counter[str]:
    """Enter ``expected`` (the seat's record of a match) into ``session`` as the seat would (the
    module docstring), by ``enter(text)``; the counts of how (listed, stated from the list,
    typed as hinted).  Fails where an entry is neither listed nor hinted, or is refused."""
    def own_reveal(e: Any) -> bool:
        return type(e) is E.PickRevealed and e.player == seat

    def entered() -> list[Any]:
        return [e for e in session.record.events if not own_reveal(e)]

    done = 1  # events of the record matched so far (the seat's own reveals aside: the recorder's)
    derived = deque(session.record.derived)
    how: Counter[str] = Counter()
    for i, e in enumerate(expected[1:], start=1):
        want = same(e, seat)
        if own_reveal(e):
            continue
        have = entered()
        if len(have) > done and same(have[done], seat) == want:  # filled in (a forced pass)
            done += 1
            continue
        if e.kind == "X" and derived and states(derived[0], bare(e)):  # the engine's own
            derived.popleft()
            continue
        assert len(have) == done, ("filled in, but not what the table did", have[done:], e)
        choices = session.choices()
        if type(e) is E.CardCommitted and e.player == seat:
            card = next((x.card for x in expected[i:] if own_reveal(x)), None)  # (None: never turned up)
            listed = [c for c in choices if type(c.event) is E.CardCommitted and c.event.player == seat
                      and card in (None, HIDDEN_VALUE(session.view.state, c.event))]
        else:
            listed = [c for c in choices if same(c.event, seat) == want]
        ender = [c for c in session.enders() if same(c.event, seat) == want]
        if ender:  # a resignation: apart from the choices, confirmed with y
            how["ended"] += 1
            answer = await enter(session.words(ender[0].event))
            assert answer.confirm, answer.message
            answer = await enter("y")
            assert answer.ok and session.over, answer.message
            break
        if listed:
            how["stated, listed" if e.kind == "X" else "listed"] += 1
            text = str(listed[0].number)
        else:
            hint = session.waiting()
            assert e.kind == "X" and hint, (i, session.words(e), [c.label for c in choices][:8])
            how["stated, typed"] += 1
            text = session.words(e)  # (the notation, as the hint says)
        if type(e) is E.EffectResolved and (e.copied or e.effect).startswith("look-"):
            how["look stated"] += 1
        answer = await enter(text)
        assert answer.ok and session.refused is None, (i, text, answer.message)
        done += len([x for x in answer.added[:len(answer.added) - len(answer.filled)] if not own_reveal(x)])
        derived = deque(owed(GAME, session.record))
    assert session.over
    mine = [(e.card, e.player) for e in session.record.events if own_reveal(e)]
    table = [(e.card, e.player) for e in expected if own_reveal(e)]
    n = min(len(mine), len(table))
    assert mine[:n] == table[:n] and abs(len(mine) - len(table)) <= 1  # revealed by the recorder, each
    # (but the last where a resignation ended the match at the reveal: the recorder reveals the
    # seat's pick in seat order, the table may have turned it up sooner or later)
    return how


def check_record(path: Path, seat: str, other: str, pools: list[str]) -> str:
    """The record as ``verify`` reads it: legal, or undetermined with every condition stated."""
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert all(x.get("commitment") in (None, HIDDEN) for x in lines if x.get("player") == other)
    assert all(len(x["commitment"]) == 64 for x in lines if x.get("player") == seat and "commitment" in x)
    with sources.using(sources.Sources(pools)):
        res = run(parse_log(path.read_bytes()))
    assert res.verdict in ("legal", "undetermined"), [v.as_dict() for v in res.violations]
    assert all(u.condition for u in res.undetermined)
    r = CliRunner().invoke(main, ["verify", *(x for d in pools for x in ("--pools", d)), str(path)])
    assert r.exit_code == (0 if res.verdict == "legal" else 4), r.output
    return res.verdict


def start(tmp_path: Path, setup: Any, seat: str, name: str, pools: list[str]) -> RecordSession:
    doc = msgspec.to_builtins(setup)
    return RecordSession.start(tmp_path / name, GAME.id, setup.players, pool=setup.pool, options=doc["options"],
                               fields={"decks": doc["decks"]}, seat=seat, pools=pools)


@pytest.mark.anyio
@pytest.mark.parametrize("pool,seeds", [("sample", [0, 1, 2, 3, 4, 5, 15]), ("looks", range(4))])  # (15: a resignation)
async def test_a_logos_seat_records_whole_generated_matches_alone(tmp_path, pool, seeds):
    pools = pools_of(tmp_path, pool)
    how: Counter[str] = Counter()
    verdicts: Counter[str] = Counter()
    for seed in seeds:
        setup = setup_of(seed, pool)
        for seat in setup.players:
            other = next(p for p in setup.players if p != seat)
            session = start(tmp_path, setup, seat, f"{pool}-{seed}-{seat}.jsonl", pools)

            async def enter(text: str) -> Any:
                return session.enter(text)

            how += await record_as_seat(session, seat_record(setup, seed, seat, pools), seat, enter)
            verdicts[check_record(session.path, seat, other, pools)] += 1
            assert RecordSession.resume(session.path, pools=pools).seat == seat  # and it reads back as the seat's
    print(f"\n{pool}: {dict(how)} {dict(verdicts)}")
    assert how["stated, listed"] >= 1 and how["stated, typed"] >= 1  # (both ways occur)
    if pool == "looks":
        assert how["look stated"] >= 1


@pytest.mark.anyio
@pytest.mark.parametrize("seed,at", [(1, 0), (3, 1)])
async def test_a_logos_seat_records_a_whole_match_in_the_terminal(tmp_path, seed, at):
    """The terminal app (Textual's pilot): the seat types a choice's number or the hinted
    notation on the entry line, to the end of the match; the hint is on the screen."""
    from textual.widgets import Input

    setup = setup_of(seed, "sample")
    seat = setup.players[at]
    session = start(tmp_path, setup, seat, "seat.jsonl", [])
    app = RecordApp(session)
    hints = 0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()

        async def enter(text: str) -> Any:
            nonlocal hints
            waiting = session.waiting()
            if waiting and not text.isdigit():
                shown = "\n".join(s.text for s in app.screen._compositor.render_strips())
                assert "the table shows" in shown
                hints += 1
            app.query_one("#entry", Input).value = text
            await pilot.press("enter")
            await pilot.pause()
            return app.last

        await record_as_seat(session, seat_record(setup, seed, seat, []), seat, enter)
        await pilot.pause()
        assert "sealed" in "\n".join(s.text for s in app.screen._compositor.render_strips())
    check_record(session.path, seat, next(p for p in setup.players if p != seat), [])


@pytest.mark.anyio
async def test_a_logos_seat_records_a_whole_match_with_record_script(tmp_path):
    """``adjudicator record --as SEAT --script -``: the entries a seat typed for a whole match
    (the session's, above), read from standard input, record the same match; the hint of what
    the table shows is printed where the view waits on it; the record verifies."""
    setup = setup_of(3, "sample")
    seat = setup.players[1]
    session = start(tmp_path, setup, seat, "typed.jsonl", [])
    typed: list[str] = []

    async def enter(text: str) -> Any:
        typed.append(text)
        return session.enter(text)

    how = await record_as_seat(session, seat_record(setup, 3, seat, []), seat, enter)
    assert how["stated, typed"] + how["stated, listed"] >= 1
    log = tmp_path / "script.jsonl"
    doc = msgspec.to_builtins(setup)
    args = ["record", str(log), "--game", "logos", "--players", ",".join(setup.players), "--as", seat,
            "--setup", json.dumps({"decks": doc["decks"]}), "--script", "-"]
    args += [x for k, v in doc["options"].items() for x in ("--option", f"{k}={json.dumps(v)}")]
    r = CliRunner().invoke(main, args, input="\n".join(typed) + "\n")
    assert r.exit_code == 0, r.output[-2000:]
    assert "the table shows" in r.output and "is sealed" in r.output
    check_record(log, seat, setup.players[0], [])
    strip = [{k: v for k, v in json.loads(x).items() if k not in ("commitment", "salt", "prev")} for x in log.read_text().splitlines()]
    want = [{k: v for k, v in json.loads(x).items() if k not in ("commitment", "salt", "prev")} for x in session.path.read_text().splitlines()]
    assert strip[1:] == want[1:] and strip[0]['decks'] == want[0]['decks'], [(a, b) for a, b in zip(strip, want) if a != b][:2]  # the same match (the seat's salts aside: fresh each time)


@pytest.mark.anyio
async def test_the_browser_recorder_says_what_the_table_shows(tmp_path):
    """The recording page's state (recorder/web.py): where the seat's view waits on what the
    table shows, its ``waiting`` is the hint (what to pick or type)."""
    from types import SimpleNamespace

    import adjudicator.replays.web  # noqa: F401  (the service first: recorder.web is its part)
    from adjudicator.recorder.web import state_of

    setup = setup_of(3, "sample")
    seat = setup.players[1]
    session = start(tmp_path, setup, seat, "web.jsonl", [])

    class Waiting(Exception):
        pass

    async def enter(text: str) -> Any:
        answer = session.enter(text)
        if session.waiting():
            raise Waiting
        return answer

    with pytest.raises(Waiting):
        await record_as_seat(session, seat_record(setup, 3, seat, []), seat, enter)
    doc = state_of("r", session, SimpleNamespace(stored={}))  # type: ignore[arg-type]
    assert doc.waiting == session.waiting() and doc.waiting.startswith("the table shows") and doc.ok
    assert doc.waiting not in doc.message  # (its own field: the page shows it beside the entry line)
