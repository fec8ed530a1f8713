"""Undetermined rulings and unknown cards in the browser viewer, in a real headless Chromium
(the pattern of tests/test_web_browser.py), over the wrapped toy game of
tests/test_unknown_view.py: the ◇ mark and the condition in the ruling panel, ``n``/``p``
stopping at undetermined rulings, an unknown card drawn as unknown with what it can still be on
hover (its title) and on click (the card panel)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.core.store import MatchStore
from adjudicator.replays.core import Replay
from tests.test_unknown_view import ADDS, CONDITION, ILLEGAL_AT, POOL, POSSIBLE, UNDETERMINED_AT, patch_toy, write_log
from tests.test_web_browser import CHROMIUM, Live, browser, page, wait_at  # noqa: F401 - fixtures

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Live, str, Path]]:
    from tests.toygame import install

    install()
    with pytest.MonkeyPatch.context() as mp:
        patch_toy(mp)
        tmp = tmp_path_factory.mktemp("unknown-browser")
        log = write_log(tmp / "unsure.jsonl", ADDS)
        store = MatchStore(str(tmp / "store.db"))
        mid = store.import_file(log, allow_illegal=True).match_id
        srv = Live(store)
        yield srv, mid, log
        srv.stop()
        store.close()


def test_undetermined_rulings_are_marked_and_stopped_at(served: Any, page: Any) -> None:
    live, mid, log = served
    assert Replay.from_file(log).stops() == UNDETERMINED_AT + [ILLEGAL_AT]
    page.goto(f"{live.url}/matches/{mid}?at=1")
    wait_at(page, 1)
    for n in UNDETERMINED_AT:
        assert "mark-undetermined" in page.locator(f"#ev-{n}").get_attribute("class").split()
        assert page.locator(f"#ev-{n} .mark").text_content() == "\u25c7"
    page.keyboard.press("n")
    wait_at(page, UNDETERMINED_AT[0])
    ruling = page.locator("#ruling")
    assert "mark-undetermined" in ruling.get_attribute("class")
    assert page.locator("#ruling .condition").text_content() == f"legal if {CONDITION}"
    assert "TOY-3" in ruling.inner_text()
    page.keyboard.press("n")
    wait_at(page, UNDETERMINED_AT[1])
    page.keyboard.press("n")
    wait_at(page, ILLEGAL_AT)
    page.keyboard.press("p")
    wait_at(page, UNDETERMINED_AT[1])
    assert page.locator(".legend .mark-undetermined").count() == 1


def test_an_unknown_card_shows_what_it_can_still_be(served: Any, page: Any) -> None:
    live, mid, _log = served
    page.goto(f"{live.url}/matches/{mid}?at=3")
    wait_at(page, 3)
    card = page.locator("#scene .card.unknown")
    assert card.count() == 1
    assert card.get_attribute("data-possible") == " ".join(POSSIBLE)
    tip = card.locator("title").text_content()
    assert tip.startswith("unknown card: can still be 2")
    assert all(f"{POOL[c][0]} ({c})" in tip for c in POSSIBLE)
    assert page.locator("#card-panel").is_hidden()
    card.click()
    panel = page.locator("#card-panel")
    panel.wait_for(state="visible")
    assert page.locator("#card-name").text_content() == "Unknown card"
    items = page.locator("#card-possible li").all_inner_texts()
    assert [i.split()[-1] for i in items] == POSSIBLE
    assert [" ".join(i.split()[:-1]) for i in items] == [POOL[c][0] for c in POSSIBLE]
    # the known card of the same hand still shows its own text, and the list goes away
    page.locator('#scene [data-pool-card="seven"]').first.click()
    page.wait_for_function("document.getElementById('card-name').textContent === 'Seven of Cups'")
    assert page.locator("#card-possible").is_hidden() and page.locator("#card-text").text_content() == "Add 7."
