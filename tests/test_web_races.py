"""Answers that come late, in a real headless Chromium: the pages never send a form, an entry or
a variation that reads state an answer has not yet filled in, and never show an answer to a
question no longer asked.

The browser set-up test once failed under load ("no deck list for player 'carol'") and passed
alone: the token's change (when the focus left it) asked for the registered lists again, and
their answer re-placed every deck-list box while carol's was being typed; a field moved in the
page loses the focus and the keys typed after.  Each test here holds an answer (Playwright's
``page.route``) until the moment that lost it, so the race happens every run, not once in a
hundred; every one of them failed before its fix.  ``ADJUDICATOR_BROWSER_THROTTLE=N`` (and
``ADJUDICATOR_BROWSER_LATENCY=MS``) run the phone pages slower still (tests/test_record_browser.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.test_record_browser import (  # noqa: F401 (fixtures)
    events, legal_events_at, new_match_form, phone, post, ready, registered, throttled)
from tests.test_web_browser import CHROMIUM, UPLOAD_TOKEN, Live, browser, live  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)")


def hold(page: Any, asked: Callable[[str], bool]) -> list[Any]:
    """The requests ``asked`` picks are held (their routes, to be continued by the test); the
    others go on."""
    held: list[Any] = []
    page.route(lambda url: asked(url), lambda route: held.append(route))
    return held


def arrived(page: Any, held: list[Any], n: int = 1) -> None:
    """Wait until ``n`` requests are held (the page's fetch reaches the route)."""
    deadline = time.monotonic() + 20
    while len(held) < n:
        assert time.monotonic() < deadline, f"{len(held)} of {n} requests held"
        page.wait_for_timeout(20)


# -- the new-match form ----------------------------------------------------------------------------------

def test_an_answer_that_comes_while_a_deck_list_is_typed_keeps_every_key(live: Live, phone: Any, tmp_path: Any) -> None:
    """The token typed after the game was chosen asks for the registered lists; their answer
    comes while carol's list is typed: every key typed is in her box."""
    registered(live, tmp_path)
    page = phone
    page.goto(live.url + "/record")
    ready(page)
    page.select_option("#new-game", "colossus-order")  # (no token yet: no registered lists)
    page.wait_for_selector("#new-decks:not([hidden])", state="attached")  # (empty until players are named)
    page.fill("#new-players", "alice,carol")
    page.dispatch_event("#new-players", "change")
    held = hold(page, lambda url: "/registered-lists" in url)
    page.fill("#rec-token", UPLOAD_TOKEN)
    page.focus('textarea[data-player="carol"]')  # (the token's change, as the focus leaves it: the lists asked for)
    page.keyboard.type("3 Heroic")
    arrived(page, held)
    held.pop().continue_()
    page.wait_for_selector("#new-registered-box:not([hidden])")  # the answer is in the page
    page.keyboard.type(" Knight")
    assert page.input_value('textarea[data-player="carol"]') == "3 Heroic Knight"
    assert page.evaluate("() => document.activeElement.dataset.player") == "carol"


def test_start_waits_for_the_sample_set_up_it_was_tapped_after(live: Live, phone: Any) -> None:
    """Start tapped while the sample set-up's answer is on its way: the form goes once the
    answer has filled it in (before, it went at once, without the deck lists, and was refused)."""
    page = phone
    new_match_form(page, live.url, "colossus-order")
    page.wait_for_selector("#new-decks:not([hidden])")
    page.fill("#new-players", "ann,bob")  # (typed first: the form passes the browser's own check)
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    held = hold(page, lambda url: "/sample-setup" in url)
    page.click("#new-sample")
    page.click("#new-start")
    arrived(page, held)
    page.wait_for_timeout(300)
    assert posted == [] and page.get_attribute("#new-start", "aria-busy") == "true"  # nothing sent half filled in
    held.pop().continue_()
    page.wait_for_selector("#rec-box:not([hidden])")
    ready(page)
    assert events(page) == 1 and len(posted) == 1 and page.is_hidden("#rec-error")


def test_deck_lists_missing_for_a_player_are_named_in_the_forms_words(live: Live) -> None:
    """The service, given one player's list and not the other's, says whose is missing and how to
    give it (not the set-up's "no deck list for player 'carol'")."""
    import urllib.error

    import adjudicator

    g = adjudicator.game("colossus-order")
    with pytest.raises(urllib.error.HTTPError) as err:
        post(live, "/api/recordings", {"game": g.id, "players": ["alice", "carol"],
                                       "deck_lists": {"alice": "1 Colossus of the Dawn Bastion\n17 White Gem\n", "carol": " \n"}})
    detail = err.value.read().decode()
    assert "no deck list for carol: type it in the player's box" in detail and "alice" not in detail.split("no deck list")[1]


# -- the recording: one entry at a time, on the position shown -------------------------------------------

def test_a_second_tap_before_the_answer_records_one_entry(live: Live, phone: Any) -> None:
    """A choice's number names a choice of the position shown: taps (and Enter) before the first
    tap's answer are not sent; the service refuses an entry made on a position the record has
    left (another device on the same match), saying so, nothing recorded."""
    from benchmarks.taps import start_match

    page = phone
    start_match(page, live.url, UPLOAD_TOKEN, "colossus-order")
    n = events(page)
    held = hold(page, lambda url: url.endswith("/entries"))
    page.locator("#rec-choices button.choice").first.tap()
    arrived(page, held)
    page.locator("#rec-choices button.choice").first.tap()  # (the same button: no answer yet)
    page.fill("#rec-entry", "1")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert len(held) == 1 and page.input_value("#rec-entry") == "1"  # (what is typed waits, not lost)
    held.pop().continue_()
    page.wait_for_function("(n) => document.body.dataset.ready === '1' && +document.body.dataset.events > n", arg=n)
    page.unroute_all()
    rid = page.url.rsplit("/", 1)[1]
    now = events(page)
    # the same entry from a page that still shows the position before: refused, in words
    answer = post(live, f"/api/recordings/{rid}/entries", {"entry": "1", "events": n})
    assert not answer["ok"] and answer["events"] == now
    assert answer["message"].startswith(f"nothing recorded: the record has {now} events, the page showed {n}")


# -- the viewer's analysis board and the match list ------------------------------------------------------

def test_a_second_try_before_the_answer_keeps_the_first_and_keep_waits(live: Live, browser: Any) -> None:
    """The analysis board: a second "try" before the first one's answer is not sent (it stood on
    the variation without the first, which it dropped); "keep" tapped while a step's answer is on
    its way keeps the variation with that step."""
    from tests.test_web_api import example_logs, longest_legal, stored

    mid = stored(live.store, longest_legal(example_logs()["colossi"]))
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    throttled(page)
    try:
        legal_events_at(page, live.url, mid, 40)
        held = hold(page, lambda url: "/variation?" in url)
        tries = page.locator("#legal-list button.try")
        first = page.locator("#legal-list li").nth(0).inner_text().strip()
        tries.nth(0).click()
        arrived(page, held)
        tries.nth(1).click()
        page.wait_for_timeout(300)
        assert len(held) == 1
        held.pop().continue_()
        page.wait_for_function("document.body.dataset.variation === '1' && document.body.dataset.ready === '1'")
        assert first.lstrip("\u25b6 ") in page.inner_text("#variation-steps")
        # a second step on its way, and "keep" tapped meanwhile: kept with it
        page.locator("#legal-list button.try").first.click()
        arrived(page, held)
        page.click("#variation-keep")
        page.wait_for_timeout(300)
        held.pop().continue_()
        page.wait_for_function("document.body.dataset.variation === '2' && document.body.dataset.kept === '1'")
        kept = [v for v in live.api(f"/api/matches/{mid}/variations") if v["at"] == 40]
        assert [len(v["events"]) for v in kept] == [2]
    finally:
        page.close()


def test_the_match_list_shows_the_answer_to_the_filters_as_they_are(live: Live, browser: Any) -> None:
    """Filters changed while the answer to the ones before is on its way: that answer, come late,
    is not shown under the new filters."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    throttled(page)
    try:
        page.goto(live.url + "/")
        page.wait_for_function("() => document.body.dataset.ready === '1'")
        held = hold(page, lambda url: "/api/matches?" in url and "verdict=illegal" in url)
        page.select_option("#f-verdict", "illegal")
        arrived(page, held)
        page.select_option("#f-verdict", "legal")
        page.wait_for_function("() => document.body.dataset.ready === '1'")
        legal = page.eval_on_selector_all("#matches tr", "rs => rs.map(r => r.className)")
        assert legal and set(legal) == {"verdict-legal"}
        held.pop().continue_()
        page.wait_for_timeout(500)
        assert page.eval_on_selector_all("#matches tr", "rs => rs.map(r => r.className)") == legal
        assert "verdict=legal" in page.url
    finally:
        page.close()
