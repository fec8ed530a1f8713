"""Judges' rulings marked in both viewers and the JSON API: an illegal event that stands (!), an
event taken back (↶), the ruling itself (§); a ruling that cannot be followed is illegal (✗)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from litestar.testing import TestClient

from adjudicator.core.store import MatchStore
from adjudicator.replays.core import ILLEGAL, RULING, STANDS, TAKEN_BACK, Replay
from adjudicator.replays.terminal import MARKS, mark_text
from adjudicator.replays.tui import ReplayApp
from adjudicator.replays.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
STANDS_LOG = ROOT / "examples" / "colossus-order" / "legal-judge-stands.jsonl"
TAKEN_LOG = ROOT / "examples" / "colossus-order" / "legal-judge-taken-back.jsonl"


def marks(r: Replay) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for f in r.frames:
        out.setdefault(f.mark, []).append(f.number)
    return out


def test_replay_frames_mark_what_the_rulings_made_of_events() -> None:
    r = Replay.from_file(STANDS_LOG)
    m = marks(r)
    [irregular] = m[STANDS]
    assert m[RULING] == [irregular + 1, irregular + 2, len(r)]  # stands, penalty, result
    assert ILLEGAL not in m and r.violations() == []
    assert r.frames[irregular - 1].verdict == "illegal"  # the engine's ruling on it is kept
    t = Replay.from_file(TAKEN_LOG)
    [back] = marks(t)[TAKEN_BACK]
    assert marks(t)[RULING] == [back + 1]
    assert t.state(back + 1) == t.state(back - 1)  # the ruling leaves the position before it
    for player in t.players():
        seen = t.frames_for(player)[back - 1]
        assert seen.mark == TAKEN_BACK and (seen.message == t.frames[back - 1].message
                                            or "cannot see" in seen.message)


def test_a_ruling_that_cannot_be_followed_is_marked_illegal(tmp_path: Path) -> None:
    lines = STANDS_LOG.read_bytes().splitlines()[:20]
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(lines + [b'{"type":"JudgeRuling","event":10,"decision":"stands"}']) + b"\n")
    r = Replay.from_file(bad)
    assert r.frames[-1].mark == ILLEGAL and r.frames[-1].code == "core/bad-ruling" and r.violations() == [21]


def test_the_terminal_marks() -> None:
    assert {MARKS[k][0] for k in (STANDS, TAKEN_BACK, RULING)} == {"!", "↶", "§"}
    assert mark_text(STANDS).plain == "!"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
async def test_the_tui_shows_the_marks_and_what_they_mean() -> None:
    r = Replay.from_file(STANDS_LOG)
    [irregular] = marks(r)[STANDS]
    app = ReplayApp(r, at=irregular)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        strips = [s.text for s in app.screen._compositor.render_strips()]
        region = app.query_one("#ruling").region
        ruling = " ".join(line[region.x:region.x + region.width] for line in strips[region.y:region.y + region.height])
        ruling = re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", ruling))
        assert "! illegal" in ruling and "stands by a judge's ruling" in ruling
        region = app.query_one("#events").region
        rows = [line[region.x:region.x + region.width] for line in strips[region.y:region.y + region.height]]
        assert any(re.search(rf"!\s+{irregular} ", row) for row in rows)
        assert any(re.search(rf"§\s+{irregular + 1} ", row) for row in rows)


def test_the_json_api_and_the_browser_viewer_carry_the_marks(tmp_path: Path) -> None:
    with MatchStore(str(tmp_path / "m.db")) as st:
        mid = st.import_file(STANDS_LOG).match_id
        tid = st.import_file(TAKEN_LOG).match_id
        client = TestClient(create_app(st))
        events = client.get(f"/api/matches/{mid}/events", params={"limit": 1000}).json()["events"]
        by_mark = {}
        for e in events:
            by_mark.setdefault(e["mark"], []).append(e["number"])
        expected = marks(Replay.from_file(STANDS_LOG))
        assert by_mark[STANDS] == expected[STANDS] and by_mark[RULING] == expected[RULING]
        taken = client.get(f"/api/matches/{tid}/events", params={"limit": 1000}).json()["events"]
        assert [e["number"] for e in taken if e["mark"] == TAKEN_BACK] == marks(Replay.from_file(TAKEN_LOG))[TAKEN_BACK]
        pos = client.get(f"/api/matches/{mid}/position", params={"at": expected[STANDS][0]}).json()
        assert pos["mark"] == STANDS
        page = client.get(f"/matches/{mid}").text + client.get("/static/viewer.js").text
    assert "mark-stands" in page and "taken-back" in page and "judge's ruling" in page
    css = (ROOT / "replays" / "web" / "static" / "style.css").read_text()
    assert all(f".mark-{m} .mark" in css for m in (STANDS, TAKEN_BACK, RULING))
