"""A page opened from disk (file://) in Debian's Chromium with every other request aborted: the
self-contained pages (tournament reports, exported replays) are tested this way."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
#: what a self-contained page may load: itself (and data: URLs)
LOCAL = ("file://", "data:")


@dataclass
class Offline:
    page: Any
    #: every request the page made (those not LOCAL were aborted)
    requests: list[str] = field(default_factory=list)
    #: uncaught script errors
    errors: list[str] = field(default_factory=list)

    @property
    def only_local(self) -> bool:
        return bool(self.requests) and all(u.startswith(LOCAL) for u in self.requests)


@contextmanager
def offline_page(width: int = 1400, height: int = 900) -> Iterator[Offline]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            off = Offline(browser.new_page(viewport={"width": width, "height": height}))
            off.page.on("pageerror", lambda e: off.errors.append(str(e)))

            def route(rt: Any) -> None:
                off.requests.append(rt.request.url)
                if rt.request.url.startswith(LOCAL):
                    rt.continue_()
                else:
                    rt.abort()

            off.page.route("**", route)
            yield off
        finally:
            browser.close()
