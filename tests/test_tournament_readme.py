"""README's "Checking a tournament" block, run word for word; its HTML report opened in Chromium
from file:// with the network blocked, stepped through its filters (issue 21)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.offline_browser import CHROMIUM, offline_page
from tests.test_readme import ROOT, block_after

SHOTS = ROOT / "docs" / "screenshots"


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """The README block run in a directory holding a copy of examples/ (the installed command)."""
    d = tmp_path_factory.mktemp("readme-tournament")
    shutil.copytree(ROOT / "examples", d / "examples")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    r = subprocess.run(["bash", "-c", block_after("tournament")], cwd=d, env=env, capture_output=True, text=True,
                       timeout=600)
    return d, r


def test_the_readme_block_reports_the_two_problems(event):
    d, r = event
    assert r.returncode == 1, (r.stdout, r.stderr)  # the block's last command: problems found
    assert "round 3 table 1 (alice, bob): legal  [event/manifest.toml:38]" in r.stdout
    assert "result-mismatch: event/r3-t1.jsonl:81: reported 'alice', the log says bob wins" in r.stdout
    assert ("unfinished: event/r4-t1.jsonl:60: the log stops at event 60 (turn 5: alice to act) before the match "
            "ended") in r.stdout
    assert "4 tables: 3 legal, 1 unfinished; 2 problems (unfinished 1, result-mismatch 1)" in r.stdout
    report = json.loads((d / "event" / "report.json").read_text())
    assert report["summary"]["problems"] == 2
    seated = report["tables"][1]
    assert seated["seats"] and seated["verdict"] == "legal" and set(seated["seat_verdicts"]) == {"alice", "bob"}
    rows = (d / "event" / "tables.csv").read_text().splitlines()
    assert len(rows) == 5 and rows[0].startswith("round,table,players,status")
    alice = next(p for p in report["players"] if p["id"] == "alice")
    assert len(alice["penalties"]) == 1 and "a warning" in alice["penalties"][0]["text"]


def test_the_readme_excerpt_is_what_the_command_prints(event):
    _d, r = event
    text = (ROOT / "README.md").read_text()
    for line in r.stdout.splitlines():
        if line.startswith("round 4 table 1") or line.startswith("  unfinished:"):
            assert line in text, line


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing")
def test_the_html_report_opens_from_disk_with_the_network_blocked_and_filters(event):
    d, _r = event
    page_file = d / "event" / "report.html"
    html = page_file.read_text()
    assert "http://" not in html and "https://" not in html and "<link" not in html and " src=" not in html
    with offline_page(1100, 700) as off:
        pg = off.page
        pg.goto(page_file.as_uri())
        assert pg.locator("#shown").inner_text() == "4 of 4 tables shown"
        visible = lambda: pg.locator("td.cell:not(.hidden)").count()  # noqa: E731
        pg.click("button[data-filter=unfinished]")
        assert visible() == 1 and pg.locator("td.cell:not(.hidden)").get_attribute("data-status") == "unfinished"
        pg.click("button[data-filter=result]")
        assert visible() == 1 and "result-mismatch" in pg.locator("td.cell:not(.hidden)").get_attribute("data-kinds")
        pg.click("button[data-filter=illegal]")
        assert visible() == 0
        pg.click("button[data-filter=deck]")
        assert visible() == 0
        pg.click("button[data-filter=problems]")
        assert visible() == 2
        pg.click("td.cell[data-status=unfinished]")
        assert "the log stops at event 60" in pg.locator("#detail").inner_text()
        pg.click("button[data-filter=all]")
        assert visible() == 4
        # each table links its match's replay file (--replays): it opens, from disk too
        assert pg.locator("a.replay").count() == 4
        pg.click("td.cell[data-status=unfinished] a.replay")
        pg.wait_for_function("document.body.dataset.ready === '1'")
        assert pg.locator("#pos").inner_text() == "1 / 60"
        pg.keyboard.press("End")
        pg.wait_for_function("document.getElementById('pos').textContent === '60 / 60'")
        pg.go_back()
        if os.environ.get("ADJUDICATOR_SCREENSHOTS") == "1":
            pg.click("button[data-filter=problems]")
            pg.click("td.cell[data-status=legal] >> nth=2")
            pg.screenshot(path=str(SHOTS / "tournament-report.png"), full_page=True)
        assert off.errors == []
    assert off.only_local
