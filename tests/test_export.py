"""``adjudicator export LOG -o match.html``: a self-contained replay file (issue 21, point 4).

It holds only the viewpoints asked for: a seat's file names none of the other seat's hidden
cards (the cards of the other seat's deck list that the seat's own record never names), while
the judge's file does (so the check can fail).  It opens from disk in Chromium with the network
blocked, steps and switches viewpoints.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.verify import run

from .offline_browser import CHROMIUM, offline_page

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "docs" / "screenshots"
LOGS = {
    "colossus-order": ROOT / "examples/colossus-order/legal-gem-complete.jsonl",
    "logos": ROOT / "examples/logos/legal-hidden-picks.jsonl",
}
#: the events of each log the test exports (a LOGOS match shows every card by its end: its start)
PREFIX = {"colossus-order": None, "logos": 12}


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def _data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="export-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))


def _unseen(path: Path, seat: str) -> set[str]:
    """Card ids the other seats' deck lists hold that ``seat`` never sees: neither its own record
    nor the consequences the rules derived (as the seat saw them) name them."""
    log = read_log(path)
    game = log.game
    steps = run(log, record_steps=True).steps
    record = b"".join(msgspec.json.encode(game.redact(e, seat)) for s in steps
                      for e in [s.event, *s.derived]).decode()
    named = {c for p, d in log.events[0][1].decks.items() if p != seat for c in game.deck_counts(d)}
    return {c for c in named if f'"{c}"' not in record}


def _named(card: str, page: str) -> bool:
    return re.search(rf"(?<![a-z0-9-]){re.escape(card)}(?![a-z0-9-])", page) is not None


@pytest.mark.parametrize("gid", sorted(LOGS))
def test_a_seats_file_holds_none_of_the_other_seats_hidden_cards(tmp_path, gid):
    path = LOGS[gid]
    if PREFIX[gid]:
        path = tmp_path / "start.jsonl"
        path.write_bytes(b"".join(LOGS[gid].read_bytes().splitlines(keepends=True)[:PREFIX[gid]]))
    seat = read_log(path).events[0][1].players[1]
    unseen = _unseen(path, seat)
    assert unseen, "the example must hide something from the seat"
    out = tmp_path / "seat.html"
    r = invoke("export", path, "-o", out, "--as", seat)
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert [c for c in unseen if _named(c, page)] == []
    assert list(_data(page)["views"]) == [seat]
    # the public view hides them too; the judge's view holds them (the check can fail)
    invoke("export", path, "-o", tmp_path / "public.html")
    public = (tmp_path / "public.html").read_text()
    assert list(_data(public)["views"]) == ["public"] and [c for c in unseen if _named(c, public)] == []
    invoke("export", path, "-o", tmp_path / "judge.html", "--as", "judge")
    judge = (tmp_path / "judge.html").read_text()
    assert all(_named(c, judge) for c in unseen)


def test_bad_viewpoints_and_missing_logs_are_usage_errors(tmp_path):
    r = invoke("export", LOGS["logos"], "-o", tmp_path / "x.html", "--as", "zed")
    assert r.exit_code == 2 and "unknown player 'zed'" in r.output and not (tmp_path / "x.html").exists()
    r = invoke("export", tmp_path / "none.jsonl", "-o", tmp_path / "x.html")
    assert r.exit_code == 2 and "no such file" in r.output


def test_every_game_exports(tmp_path):
    shipped = [g.id for g in registry.games() if (ROOT / "examples" / g.id).is_dir()]  # (not a test's toy game)
    assert len(shipped) >= 4
    for gid in shipped:
        path = next(iter(sorted((ROOT / "examples" / gid).glob("legal-*.jsonl"))))
        r = invoke("export", path, "-o", tmp_path / f"{gid}.html")
        assert r.exit_code == 0, r.output
        data = _data((tmp_path / f"{gid}.html").read_text())
        view = data["views"]["public"]
        assert len(view["events"]) == len(view["positions"]) == len(read_log(path).events)


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing")
def test_the_file_opens_from_disk_with_the_network_blocked_steps_and_switches_views(tmp_path):
    path = LOGS["colossus-order"]
    out = tmp_path / "match.html"
    assert invoke("export", path, "-o", out, "--as", "public", "--as", "alice").exit_code == 0
    with offline_page() as off:
        pg = off.page
        pg.goto(out.as_uri() + "?at=120")
        pg.wait_for_function("document.body.dataset.ready === '1'")
        assert pg.locator("#pos").inner_text() == "120 / 225"
        # the card texts of the position are answered from the file (each kept once)
        cards = pg.evaluate("fetch('/api/matches/x/position?at=120').then(r => r.json()).then(p => p.cards)")
        assert cards and all(c["id"] == k and c["name"] for k, c in cards.items())
        pg.click("#next")
        pg.wait_for_function("document.getElementById('pos').textContent === '121 / 225'")
        pg.keyboard.press("End")
        pg.wait_for_function("document.getElementById('pos').textContent === '225 / 225'")
        assert "alice wins" in pg.locator("#verdict").inner_text()
        assert pg.locator("#view option").all_inner_texts() == ["public (no hidden cards)", "alice"]
        pg.select_option("#view", "alice")
        pg.wait_for_function("document.body.dataset.ready === '1'")
        assert pg.locator("#scene").inner_text()
        if os.environ.get("ADJUDICATOR_SCREENSHOTS") == "1":
            pg.goto(out.as_uri() + "?at=120&as=alice")
            pg.wait_for_function("document.body.dataset.ready === '1'")
            pg.screenshot(path=str(SHOTS / "export-colossus-order.png"))
        assert off.errors == []
    assert off.only_local


def test_the_service_offers_the_same_file(tmp_path):
    """``GET /api/matches/{id}/export.html?as=...``: the file ``export`` writes, for a stored match."""
    from litestar.testing import TestClient

    from adjudicator.core.store import MatchStore
    from adjudicator.replays.web import create_app

    path = LOGS["colossus-order"]
    st = MatchStore(str(tmp_path / "s.db"))
    try:
        mid = st.import_file(path).match_id
        with TestClient(create_app(st)) as c:
            r = c.get(f"/api/matches/{mid}/export.html", params={"as": "bob"})
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
            assert "attachment" in r.headers["content-disposition"]
            assert invoke("export", path, "-o", tmp_path / "cli.html", "--as", "bob").exit_code == 0
            served = _data(r.text)
            written = _data((tmp_path / "cli.html").read_text())
            assert served["views"] == written["views"] and list(served["views"]) == ["bob"]
            r = c.get(f"/api/matches/{mid}/export.html")
            assert list(_data(r.text)["views"]) == ["public"]
            r = c.get(f"/api/matches/{mid}/export.html", params={"as": "zed"})
            assert r.status_code == 400 and "unknown player 'zed'" in r.json()["detail"]
    finally:
        st.close()
