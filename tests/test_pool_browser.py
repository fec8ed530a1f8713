"""The browser viewer shows a card's text from the match's own pool: as the card's tooltip (hover)
and in the card panel (click), in a real headless Chromium against a live server (the pattern of
``tests/test_web_browser.py``).  A seat's view draws no text of a card it cannot see."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.core.kernel.log import read_log
from adjudicator.core.store import MatchStore
from adjudicator.replays.core import Replay
from tests.test_web_browser import CHROMIUM, Live, browser, page, position, wait_at  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parent.parent
LOGS = {"colossus-order": ROOT / "examples/colossus-order/legal-deck-out.jsonl",
        "logos": ROOT / "examples/logos/legal-hidden-picks.jsonl"}

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Live, dict[str, str]]]:
    store = MatchStore(str(tmp_path_factory.mktemp("cards-browser") / "store.db"))
    ids = {}
    for gid, path in LOGS.items():
        store.import_log(read_log(path), allow_illegal=True)
        ids[gid] = next(m.match_id for m in store.matches() if Path(m.source).resolve() == path.resolve())
    srv = Live(store)
    yield srv, ids
    srv.stop()
    store.close()


def drawn_texts(page: Any) -> dict[str, str]:
    """The pool card of each card drawn with a text, and its tooltip."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#scene [data-pool-card]')]
        .map(g => [g.getAttribute('data-pool-card'), (g.querySelector('title') || {}).textContent || '']))""")


@pytest.mark.parametrize("gid", sorted(LOGS))
def test_click_a_card_for_its_text_and_hover_for_its_tooltip(live: Any, page: Any, gid: str) -> None:
    srv, ids = live
    mid = ids[gid]
    n = len(Replay.from_file(LOGS[gid]))
    page.goto(f"{srv.url}/matches/{mid}?at={n}")
    wait_at(page, n)
    expected = position(srv, mid, n)["cards"]
    assert expected
    drawn = drawn_texts(page)
    assert set(drawn) == set(expected)
    for cid, tip in drawn.items():
        assert expected[cid]["text"] in tip  # hover: the tooltip holds the card's text
    assert page.locator("#card-panel").is_hidden()
    cid = sorted(expected)[0]
    page.locator(f'#scene [data-pool-card="{cid}"]').first.click()
    panel = page.locator("#card-panel")
    panel.wait_for(state="visible")
    assert page.locator("#card-name").inner_text() == expected[cid]["name"]
    assert page.locator("#card-text").inner_text() == expected[cid]["text"]
    assert page.locator("#card-id").inner_text() == cid
    assert page.locator("#card-facts").inner_text() == " · ".join(expected[cid]["facts"])
    # stepping keeps the card while it is still shown
    page.keyboard.press("ArrowLeft")
    wait_at(page, n - 1)
    assert panel.is_visible() == (cid in position(srv, mid, n - 1)["cards"])
    page.locator("#card-close").click()
    assert panel.is_hidden()


def test_a_seat_draws_no_text_of_a_card_it_cannot_see(live: Any, page: Any) -> None:
    srv, ids = live
    mid = ids["colossus-order"]
    r = Replay.from_file(LOGS["colossus-order"])
    seat = r.players()[0]
    n = next(i for i in range(1, len(r) + 1) if set(r.cards(i)) - set(r.cards(i, seat)))
    secret = set(r.cards(n)) - set(r.cards(n, seat))
    page.goto(f"{srv.url}/matches/{mid}?at={n}")
    wait_at(page, n)
    assert secret <= set(drawn_texts(page))  # the judge sees them
    page.goto(f"{srv.url}/matches/{mid}?at={n}&as={seat}")
    wait_at(page, n, seat)
    drawn = drawn_texts(page)
    assert drawn and not secret & set(drawn)
    html = page.content()
    for cid in secret:
        assert r.cards(n)[cid]["text"] not in html
