"""Fixtures of the browser tests: the built book served over HTTP, one headless Chromium per session.

The check that Chromium exists (a skip outside CI, a failure in CI) is in test_pages.py, which every
browser test module imports; the browser is started only when a test asks for it.
"""

from __future__ import annotations

import functools
import http.server
import os
import socket
import threading
from pathlib import Path

import pytest

from cmtlab._paths import REPO

HTML_DIR = Path(os.environ.get("CMTLAB_BOOK_HTML", REPO / "_build" / "quick" / "_build" / "html"))
CHROMIUM = os.environ.get("CMTLAB_CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output readable
        pass


@pytest.fixture(scope="session")
def base_url():
    if not (HTML_DIR / "index.html").exists():
        pytest.fail(f"no built book in {HTML_DIR} (run `make book-quick` or set CMTLAB_BOOK_HTML)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    handler = functools.partial(_QuietHandler, directory=str(HTML_DIR))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def context(browser):
    ctx = browser.new_context()  # shared, so the theme's assets are fetched once
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    pg = context.new_page()
    yield pg
    pg.close()


@pytest.fixture(scope="module")
def page_at(browser):
    """``page_at(viewport)``: one page per window size (``{"width": …, "height": …}``) for the module's
    tests, each in its own browser context, all closed when the module ends."""
    contexts, pages = [], {}

    def open_page(viewport: dict):
        key = (viewport["width"], viewport["height"])
        if key not in pages:
            contexts.append(browser.new_context(viewport=viewport))
            pages[key] = contexts[-1].new_page()
        return pages[key]

    yield open_page
    for c in contexts:
        c.close()

