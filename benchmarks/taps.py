"""Taps per event in the browser recorder (issue 30): a scripted full match of each game recorded
on the new-match page (/record) in Chromium at a phone's size (390x844), through Playwright.

``python -m benchmarks.taps [--games ID,...] [--seed N] [--max-events N] [--shots]``

The script is a random match played on the page: at each event the choices the page shows
(their events read from the buttons) are weighed as a generated match weighs them
(``game.playout_weight``) and one is picked with a seeded RNG; the page is then tapped as a person
would to record it, and the taps counted:

- the one-tap default (the pass, or the only choice): 1 tap;
- any other choice: 1 tap; where the page offers narrowing (more than 12 choices and a board),
  the position is opened (1 tap, once: it stays open while choices are many), a square the
  event touches tapped (1) and the choice (1);
- an entry that ends the match: the choice and its confirmation (2 taps).

At every event it also checks what the page promises on a phone: the first choice is above the
fold (its bottom within the 844 px viewport, the page scrolled to the top), and the event list
shows the game's notation.  ``--shots`` saves docs/screenshots/record-<game>.png mid-match.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

PHONE = {"width": 390, "height": 844}
#: more choices than this and a board: the page narrows them by a tapped square
NARROW_OVER = 12


@dataclass
class Tally:
    game: str
    events: int = 0
    taps: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    #: events whose first choice was below the fold (should be none)
    below_fold: list[int] = field(default_factory=list)
    #: the largest distance scrolled to reach a tapped choice (px), and all of them added
    max_scroll: float = 0.0
    scrolled: float = 0.0
    #: events whose tapped choice lay below the fold (scrolled to)
    scrolls: int = 0
    seconds: float = 0.0
    over: bool = False

    def row(self) -> dict[str, Any]:
        return {"game": self.game, "events": self.events, "taps": self.taps,
                "taps_per_event": round(self.taps / max(self.events, 1), 2), "by_kind": self.by_kind,
                "below_fold": len(self.below_fold), "max_scroll_px": round(self.max_scroll),
                "events_scrolled": self.scrolls, "mean_scroll_px": round(self.scrolled / max(self.events, 1)), "over": self.over,
                "seconds": round(self.seconds, 1)}


def _ready(page: Any, events: int) -> None:
    page.wait_for_function("(n) => document.body.dataset.ready === '1' && +document.body.dataset.events !== n", arg=events)


def start_match(page: Any, url: str, token: str, gid: str, seat: str | None = None) -> None:
    """The new-match form as a person fills it: the game, the sample set-up, (the seat), Start."""
    page.goto(url + "/record")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.fill("#rec-token", token)
    page.select_option("#new-game", gid)
    page.click("#new-sample")
    page.wait_for_function("() => document.getElementById('new-players').value !== ''")
    if seat is not None:
        page.select_option("#new-seat", seat)
    page.click("#new-start")
    page.wait_for_selector("#rec-box:not([hidden])")
    page.wait_for_function("() => document.body.dataset.ready === '1'")


def first_choice_bottom(page: Any) -> float | None:
    return page.evaluate("""() => { window.scrollTo(0, 0);
      const b = document.querySelector('#rec-choices button.choice:not([hidden]), #rec-ending-choices button.choice');
      return b ? b.getBoundingClientRect().bottom : null; }""")


def record_match(page: Any, gid: str, seed: int, max_events: int, tally: Tally,
                 on_event: Any = None, seat: bool = False) -> Tally:
    """Record one scripted match on the page (see the module); ``on_event(page, n)`` after each.
    ``seat``: a seat's record (the choices weighed alike: the table's position is not known)."""
    import adjudicator

    from adjudicator.build import Recording

    game = adjudicator.game(gid)
    rng = random.Random(seed)
    t0 = time.monotonic()
    table = Recording(game, game.sample_setup(1))  # (the page's sample set-up: the position for the weights)
    while tally.events < max_events:
        if page.evaluate("() => document.body.dataset.over") == "1":
            tally.over = True
            break
        bottom = first_choice_bottom(page)
        n = int(page.evaluate("() => document.body.dataset.events"))
        if bottom is None:
            break
        if bottom > PHONE["height"]:
            tally.below_fold.append(n)
        buttons = page.evaluate("""() => [...document.querySelectorAll('#rec-choices button.choice, #rec-ending-choices button.choice')]
            .map(b => ({event: b.dataset.event, number: b.dataset.number, ends: b.classList.contains('ends'),
                        default: b.classList.contains('default'), touched: JSON.parse(b.dataset.touched)}))""")
        events = [game.decoder.decode(b["event"].encode()) for b in buttons]
        weights = [(1e-9 if b["ends"] else 1.0) if seat else max(game.playout_weight(table.state, e), 1e-9)
                   for b, e in zip(buttons, events)]
        pick = rng.choices(range(len(buttons)), weights)[0]
        b = buttons[pick]
        sel = f'button.choice[data-number="{b["number"]}"]'
        kind = "default" if b["default"] else "ends" if b["ends"] else "choice"
        taps = 0
        cells = page.evaluate("() => document.querySelectorAll('#rec-scene [data-cell]').length")
        square = next((t for t in reversed(b["touched"]) if page.locator(f'#rec-scene [data-cell="{t}"]').count()), None)
        if kind == "choice" and len(buttons) > NARROW_OVER and cells and square is not None:
            kind = "narrowed"
            if not page.evaluate("() => document.getElementById('rec-position').open"):
                page.tap("#rec-position > summary")
                taps += 1
            page.locator(f'#rec-scene [data-cell="{square}"]').first.tap()
            page.wait_for_function("() => document.body.dataset.filtered")
            taps += 1
        target = page.locator(sel).first
        top = page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().top + window.scrollY", sel)
        below = top + 60 - PHONE["height"]  # (the button's 48 px and a margin in view)
        tally.max_scroll = max(tally.max_scroll, below)
        if below > 0:
            tally.scrolls += 1
            tally.scrolled += below
        target.tap()
        taps += 1
        if kind == "ends":
            page.wait_for_selector("#rec-confirm:not([hidden])")
            page.tap("#rec-confirm-yes")
            taps += 1
        _ready(page, n)
        if not seat:
            table.push(events[pick])
            _follow_filled(game, table, int(page.evaluate("() => document.body.dataset.events")))
        tally.events += 1
        tally.taps += taps
        tally.by_kind[kind] = tally.by_kind.get(kind, 0) + 1
        if on_event is not None:
            on_event(page, tally.events)
    tally.seconds += time.monotonic() - t0
    return tally


def _follow_filled(game: Any, table: Any, events: int) -> None:
    """The passes the page's session filled in after an entry (a player's only choice, recorded
    with it: recorder/session.py), followed on ``table`` until it holds the page's ``events``."""
    from adjudicator.recorder.web import ends_match

    while len(table) < events:
        only = [e for e in game.legal_events(table.state) if not ends_match(game, table.state, e)]
        if len(only) != 1:
            raise AssertionError(f"the page holds {events} events, the table {len(table)}: no pass to fill")
        table.push(only[0])


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    from adjudicator.core.store import MatchStore
    from tests.test_web_browser import ARGS, CHROMIUM, SHOTS, UPLOAD_TOKEN, Live

    p = argparse.ArgumentParser(prog="python -m benchmarks.taps", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", default="colossus-order,logos,kolossus,colossi")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-events", type=int, default=5000)
    p.add_argument("--shots", action="store_true", help="save docs/screenshots/record-<game>.png")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        store = MatchStore(str(Path(tmp) / "s.db"))
        live = Live(store)
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            for gid in args.games.split(","):
                page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
                page.set_default_timeout(30_000)
                start_match(page, live.url, UPLOAD_TOKEN, gid)

                taken: list[int] = []

                def shot(pg: Any, n: int, gid: str = gid, taken: list[int] = taken) -> None:
                    """Mid-match, at an event with few choices: the choices and the event list in view."""
                    if args.shots and not taken and n >= 30 and int(pg.evaluate("() => document.body.dataset.choices")) <= 6:
                        pg.evaluate("() => window.scrollTo(0, 0)")
                        pg.screenshot(path=str(SHOTS / f"record-{gid}.png"), full_page=False)
                        taken.append(n)

                tally = record_match(page, gid, args.seed, args.max_events, Tally(gid), shot)
                rows.append(tally.row())
                print(json.dumps(rows[-1]) if args.json else
                      f"{gid:15} {tally.events:5} events {tally.taps:5} taps {tally.taps / max(tally.events, 1):5.2f} taps/event "
                      f"{tally.by_kind} below the fold: {len(tally.below_fold)} scrolled to: {tally.scrolls} events, "
                      f"mean {tally.scrolled / max(tally.events, 1):.0f} px, max {tally.max_scroll:.0f} px "
                      f"{'over' if tally.over else 'stopped'} {tally.seconds:.0f} s", flush=True)
                page.close()
        finally:
            browser.close()
            live.stop()
            store.close()
    return 0 if all(r["below_fold"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
