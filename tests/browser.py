"""Look at the course as a person does: Debian's Chromium, headless, driven by Playwright.

Nothing is downloaded: Playwright drives the system browser (never ``playwright install``).
Every page is watched: console errors, uncaught exceptions, failed requests and any request
that leaves the loopback interface (which is refused, so the page must work offline).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

from autograder.pipeline.course import ROOT

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "_build" / "test-artifacts"
# Set to take the screenshots that show a whole page whole (for reading the layout by eye).
FULL_PAGE = "FULL_PAGE_SCREENSHOTS"
LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}
# Bounded waits (milliseconds): nothing here may hang CI.
PAGE_TIMEOUT_MS = 30_000


def chromium_or_skip():
    """Playwright's sync API, or skip the test with the reason when there is no browser."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does) to run browser tests")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (requirements.txt)")
    return sync_api


def launch(playwright):
    """The system Chromium, headless, without a sandbox (CI runs as root)."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"]
    )


def toc_pages(root: Path = ROOT) -> list[str]:
    """Every page of the book in reading order, as listed by ``_toc.yml`` (``book/intro``, ...)."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    pages = [toc["root"]]
    for part in toc.get("parts", []):
        pages += [entry["file"] for entry in part.get("chapters", [])]
    return pages


def toc_chapters(root: Path = ROOT) -> list[str]:
    """The chapter names in ``_toc.yml`` (``views``, ...): the book grows with each chapter."""
    return [page.removeprefix("chapters/") for page in toc_pages(root) if page.startswith("chapters/")]


# Code blocks (sources, outputs, errors) on show whose longest line is wider than the block: the
# reader would have to scroll it sideways to read the end, an error's message included.
CUT_CODE_LINES = """() => [...document.querySelectorAll('article pre')]
    .filter((pre) => pre.getBoundingClientRect().width > 0 && pre.scrollWidth > pre.clientWidth + 1)
    .slice(0, 3).map((pre) => pre.textContent.trim().slice(0, 80))"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the signature http.server calls
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        """A page closed while a file was on its way is no error of the site's; anything else is."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on a free loopback port for the duration; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@dataclass
class Watch:
    """What went wrong while a page was open."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    remote_requests: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        return (
            [f"console error: {m}" for m in self.console_errors]
            + [f"uncaught exception: {m}" for m in self.page_errors]
            + [f"failed request: {m}" for m in self.failed_requests]
            + [f"request off loopback (refused): {m}" for m in self.remote_requests]
        )


def watched_page(context):
    """A new page of ``context`` and the :class:`Watch` recording its problems.

    Requests to anything but loopback are aborted and recorded, so a page that needs the
    network shows it as a failure here rather than working by luck.
    """
    watch = Watch()

    def route(route):
        host = urlparse(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:", "about:")) or host in LOOPBACK:
            route.continue_()
        else:
            watch.remote_requests.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.on("console", lambda message: message.type == "error" and watch.console_errors.append(message.text))
    page.on("pageerror", lambda error: watch.page_errors.append(str(error)))
    page.on("requestfailed", lambda request: aborted_by_navigation(request.failure)
            or watch.failed_requests.append(f"{request.url} ({request.failure})"))

    def response(response):
        if response.status >= 400:
            watch.failed_requests.append(f"{response.url} (HTTP {response.status})")

    page.on("response", response)
    return page, watch


def screenshot(page, name: str, full_page: bool = False) -> Path:
    """Save a screenshot under ``_build/test-artifacts`` and print where it is. ``full_page``: the
    whole page, when ``FULL_PAGE_SCREENSHOTS`` is set in the environment (a long chapter costs
    Chromium seconds to draw whole); the window otherwise."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    whole = {"full_page": True} if full_page and os.environ.get(FULL_PAGE) else {}  # a locator takes no full_page
    page.screenshot(path=str(path), **whole)
    print(f"screenshot: {path}")
    return path


def aborted_by_navigation(failure: str | None) -> bool:
    """A request the page dropped because it navigated away (a click on a link while the favicon
    loads); a missing file fails with an HTTP status or another network error instead."""
    return failure == "net::ERR_ABORTED"
