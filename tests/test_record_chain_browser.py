"""The page's "and then…" toggle in a real headless Chromium at a phone's size (390x844): two
Kolossus activations (each declared, rolled and moved: three taps) chained into one entry, the
held events listed above the choices, the first choice and the toggle above the fold, each
held event on disk as it is tapped (the recorder's chain: tests/test_record_chain.py).  With
``ADJUDICATOR_SCREENSHOTS=1`` the page with an entry held is saved to
``docs/screenshots/web-record-chain.png``."""

from __future__ import annotations

import os
from typing import Any

import pytest

import adjudicator
from tests.test_record_browser import PHONE, phone  # noqa: F401 (fixtures)
from tests.test_web_browser import CHROMIUM, SHOTS, UPLOAD_TOKEN, Live, browser, live  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)")


def buttons(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("""() => [...document.querySelectorAll('#rec-choices button.choice')]
        .map(b => ({number: b.dataset.number, event: JSON.parse(b.dataset.event)}))""")


def tap(page: Any, number: str) -> None:
    n = int(page.evaluate("() => document.body.dataset.events"))
    page.tap(f'#rec-choices button.choice[data-number="{number}"]')
    page.wait_for_function("(n) => document.body.dataset.ready === '1' && +document.body.dataset.events > n", arg=n)


def tap_kind(page: Any, kind: str, **fields: Any) -> None:
    b = next(b for b in buttons(page) if b["event"]["type"] == kind and all(b["event"].get(k) == v for k, v in fields.items()))
    tap(page, b["number"])


def above_fold(page: Any, selector: str) -> dict[str, float]:
    return page.evaluate("""(sel) => { window.scrollTo(0, 0); const r = document.querySelector(sel).getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, height: r.height}; }""", selector)


def test_the_toggle_chains_two_kolossus_activations_into_one_entry(live: Live, phone: Any) -> None:
    from benchmarks.taps import start_match

    page = phone
    start_match(page, live.url, UPLOAD_TOKEN, "kolossus")  # (the sample set-up: the players' own dice)
    for _ in range(80):
        if buttons(page)[0]["event"]["type"] == "DestinyRolled":
            break
        tap(page, buttons(page)[0]["number"])
    tap_kind(page, "DestinyRolled", value=2)
    rid = page.url.rsplit("/", 1)[1]
    session = live.server.config.app.state.recordings.sessions[rid]
    before, groups = len(session.record), len(session._groups)
    toggle = above_fold(page, "#rec-chain")
    assert toggle["bottom"] <= PHONE["height"] and toggle["height"] >= 44, toggle
    assert page.get_attribute("#rec-chain", "aria-pressed") == "false" and page.is_hidden("#rec-held")
    page.tap("#rec-chain")
    assert page.get_attribute("#rec-chain", "aria-pressed") == "true"
    picks = [("ActivationDeclared", {"character": "warrior"}), ("MovementRolled", {}), ("MiniatureMoved", {})] * 2
    for k, (kind, fields) in enumerate(picks):
        if k == len(picks) - 1:
            page.tap("#rec-chain")  # off: the next tap records the whole entry
            assert page.get_attribute("#rec-chain", "aria-pressed") == "false"
        tap_kind(page, kind, **fields)
        assert len(adjudicator.read_log(session.path).events) == before + k + 1  # (on disk as tapped)
        if k < len(picks) - 1:
            assert page.get_attribute("#rec-chain", "aria-pressed") == "true"  # (it stays on)
            held = page.inner_text("#rec-held")
            assert held.startswith("held") and held.count(";") == k and "{" not in held, held
            assert above_fold(page, "#rec-choices button.choice")["bottom"] <= PHONE["height"]
            if k == 3 and os.environ.get("ADJUDICATOR_SCREENSHOTS") == "1":
                page.screenshot(path=str(SHOTS / "web-record-chain.png"))
    assert page.is_hidden("#rec-held") and page.inner_text("#rec-message").startswith(f"recorded {before + 6}")
    assert len(session._groups) == groups + 1 and session._groups[-1][0] == 6
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
