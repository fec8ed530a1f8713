"""Card text from the match's own pool (Colossi: its shipped cards) in the viewers: the position document of the JSON API
(``cards``), the Textual viewer's card pane (``c``), the browser viewer's card panel (click) and
tooltip (hover).  A seat's view never carries the text of a card that seat cannot see."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from adjudicator.core.kernel import registry
from adjudicator.core.store import MatchStore
from adjudicator.replays.core import Replay
from adjudicator.replays.tui import ReplayApp
from adjudicator.replays.web import create_app
from adjudicator.games.colossus_order.cards import card_info as co_info, load_pool as co_pool
from adjudicator.games.logos.cards import card_info as lg_info, load_pool as lg_pool
from adjudicator.core.kernel.log import read_log
from adjudicator.games.colossi.data import content as colossi_content

ROOT = Path(__file__).resolve().parent.parent
#: a legal example with hidden cards per game with card texts, and the pool's own texts
CASES = {
    "colossus-order": (ROOT / "examples/colossus-order/legal-deck-out.jsonl", lambda: {c: co_info(v) for c, v in co_pool("sample").items()}),
    "logos": (ROOT / "examples/logos/legal-hidden-picks.jsonl", lambda: {c: lg_info(v) for c, v in lg_pool("sample").items()}),
    # no pool file: the package's own cards, their name and text (the kit's default card_info)
    "colossi": (ROOT / "examples/colossi/legal-2p-to-50-gold.jsonl",
                lambda: {c: {"id": c, "name": v.name, "text": v.text, "facts": []} for c, v in colossi_content().cards.items()}),
}
KOLOSSUS = sorted((ROOT / "examples/kolossus").glob("legal-*.jsonl"))[0]


@functools.cache
def replay(path: Path) -> Replay:
    return Replay.from_file(path)


def shown_cards(scene: dict[str, Any]) -> list[str]:
    return [c["card"] for z in scene.get("zones", []) for c in z.get("cards", []) if c.get("card")]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, str]]]:
    store = MatchStore(str(tmp_path_factory.mktemp("cards") / "store.db"))
    ids = {}
    for path in [p for p, _ in CASES.values()] + [KOLOSSUS]:
        store.import_log(read_log(path), allow_illegal=True)
        ids[path.name] = next(m.match_id for m in store.matches() if Path(m.source).resolve() == path.resolve())
    with TestClient(create_app(store)) as c:
        yield c, ids
    store.close()


@pytest.mark.parametrize("gid", sorted(CASES))
def test_the_position_carries_the_text_of_every_card_it_shows(client: Any, gid: str) -> None:
    c, ids = client
    path, texts = CASES[gid]
    pool = texts()
    r = replay(path)
    hidden_somewhere = False
    for n in sorted({1, len(r) // 3, len(r) // 2, len(r)} | set(range(2, len(r), max(1, len(r) // 12)))):
        judge = c.get(f"/api/matches/{ids[path.name]}/position?at={n}").json()
        assert set(judge["cards"]) == set(shown_cards(judge["scene"]))
        for cid, info in judge["cards"].items():
            assert info == pool[cid]  # the pool's own name, text and facts
        for seat in r.players():
            doc = c.get(f"/api/matches/{ids[path.name]}/position?at={n}&as={seat}").json()
            # a seat gets the texts of the cards its own scene shows, and of no other
            assert set(doc["cards"]) == set(shown_cards(doc["scene"]))
            for z in doc["scene"].get("zones", []):
                for card in z.get("cards", []):
                    if "name" not in card:
                        assert "card" not in card
            hidden_somewhere |= bool(set(judge["cards"]) - set(doc["cards"]))
    assert hidden_somewhere, "no position hides a card from a seat: the test proves nothing about hiding"


def test_a_game_without_card_texts_sends_none(client: Any) -> None:
    c, ids = client
    doc = c.get(f"/api/matches/{ids[KOLOSSUS.name]}/position").json()
    assert doc["cards"] == {}


def test_the_game_hook_reads_the_matchs_own_pool() -> None:
    game = registry.get("colossus-order")
    setup = replay(CASES["colossus-order"][0]).state(1).setup
    info = game.card_info(setup, "dark-strike")
    assert info is not None and info["name"] == "Dark Strike" and info["text"] == co_pool("sample")["dark-strike"].text
    assert game.card_info(setup, "no-such-card") is None
    assert registry.get("kolossus").card_info(replay(KOLOSSUS).state(1).setup, "anything") is None


# -- the Textual viewer -----------------------------------------------------------------------------

@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize("gid", sorted(CASES))
async def test_tui_card_pane_shows_the_selected_cards_text(gid: str) -> None:
    path, texts = CASES[gid]
    r = replay(path)
    pool = texts()
    n = len(r)
    seat = r.players()[0]
    app = ReplayApp(r, at=n, view=seat)
    async with app.run_test(size=(160, 50)) as pilot:
        pane = app.query_one("#card")
        assert not pane.has_class("shown") and app.card is None
        expected = list(r.cards(n, seat))
        assert expected
        seen = []
        for _ in expected:
            await pilot.press("c")
            await pilot.pause()
            assert pane.has_class("shown") and pane.display
            shown = str(pane.render())
            info = pool[app.card]
            assert info["name"] in shown and info["text"].split(".")[0] in shown.replace("\n", " ")
            seen.append(app.card)
        assert seen == expected  # c walks every card this seat may read, in the scene's order
        await pilot.press("c")
        await pilot.pause()
        assert app.card == expected[0]  # and wraps
        await pilot.press("escape")
        await pilot.pause()
        assert not pane.has_class("shown") and app.card is None


@pytest.mark.anyio
async def test_tui_card_pane_never_shows_a_card_the_seat_cannot_see() -> None:
    path, _ = CASES["colossus-order"]
    r = replay(path)
    n = next(i for i in range(1, len(r) + 1) if set(r.cards(i)) - set(r.cards(i, r.players()[0])))
    seat = r.players()[0]
    secret = set(r.cards(n)) - set(r.cards(n, seat))
    app = ReplayApp(r, at=n, view=seat)
    async with app.run_test(size=(160, 50)) as pilot:
        for _ in range(len(r.cards(n, seat)) + 1):
            await pilot.press("c")
            await pilot.pause()
            assert app.card not in secret
        # the judge's selection of a secret card closes when the view turns to the seat
        app.view = None
        await pilot.pause()
        app.card = sorted(secret)[0]
        app.refresh_all()
        assert app.query_one("#card").has_class("shown")
        app.view = seat
        await pilot.pause()
        assert app.card is None and not app.query_one("#card").has_class("shown")
