"""Browser tests of the built book: every chapter in _toc.yml opened in headless Chromium.

The HTML directory comes from CMTLAB_BOOK_HTML (default: the quick build of `make test`,
_build/quick/_build/html). Chromium is the system one (/usr/bin/chromium, or CMTLAB_CHROMIUM);
Playwright's own browser downloads are never used. Outside CI the module is skipped when
Chromium is missing; in CI (CI=true) that is a failure.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

from conftest import CHROMIUM, HTML_DIR, IN_CI, REPO

MATH_TIMEOUT_MS = 30_000

if not Path(CHROMIUM).exists():
    if IN_CI:
        raise RuntimeError(f"{CHROMIUM} is missing in CI: install it (apt-get install -y chromium)")
    pytest.skip(
        f"{CHROMIUM} not found: install Chromium (apt-get install -y chromium) to run the browser tests",
        allow_module_level=True,
    )


def _toc_files(toc_path: Path = REPO / "_toc.yml") -> list[str]:
    """Every document of the jb-book toc (root, parts, chapters, sections), in order."""
    toc = yaml.safe_load(toc_path.read_text(encoding="utf-8"))
    files = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                files.append(entry["file"])
            walk(entry.get("sections"))
            walk(entry.get("chapters"))

    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return [str(Path(f).with_suffix("")) for f in files]


PAGES = _toc_files()


# The fixtures (base_url, browser, context, page) are in conftest.py, shared with the other browser tests.

def test_toc_lists_pages():
    assert "book/intro" == PAGES[0]
    assert any(p.startswith("notebooks/") for p in PAGES)
    for p in PAGES:
        assert (HTML_DIR / f"{p}.html").exists(), f"{p}.html was not built"


@pytest.mark.parametrize("doc", PAGES)
def test_page(page, base_url, doc):
    errors: list[str] = []
    failed: list[str] = []
    external: list[str] = []
    host = urlparse(base_url).netloc

    page.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("requestfailed", lambda req: failed.append(f"{req.url} ({req.failure})"))
    page.on(
        "response",
        lambda resp: failed.append(f"{resp.url} (HTTP {resp.status})")
        if resp.status >= 400 and not resp.url.endswith("/favicon.ico")
        else None,
    )

    def route(r):
        if urlparse(r.request.url).netloc in (host, "") or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:  # the book must work offline: nothing may be fetched from the internet
            external.append(r.request.url)
            r.abort()

    page.route("**/*", route)

    url = f"{base_url}/{doc}.html"
    response = page.goto(url, wait_until="load")
    assert response is not None and response.status == 200, f"{url}: HTTP {response and response.status}"
    page.wait_for_load_state("networkidle")

    source = response.text()
    has_math = any(marker in source for marker in ("\\(", "$$", 'class="math'))
    if has_math:
        page.wait_for_function(
            "() => window.MathJax && MathJax.startup && MathJax.startup.promise",
            timeout=MATH_TIMEOUT_MS,
        )
        page.evaluate("() => MathJax.startup.promise")
        page.wait_for_selector("mjx-container", state="attached", timeout=MATH_TIMEOUT_MS)
        assert page.locator("mjx-container").count() > 0, f"{doc}: math present but not typeset"
        assert page.locator("mjx-merror").count() == 0, f"{doc}: MathJax reported a TeX error"

    broken = page.evaluate(
        """() => Array.from(document.images)
               .filter(img => !(img.complete && img.naturalWidth > 0))
               .map(img => img.currentSrc || img.src)"""
    )
    assert not broken, f"{doc}: images that did not load: {broken}"

    if doc.startswith("notebooks/"):
        figures = page.locator(".cell_output img").count()
        assert figures > 0, f"{doc}: no figure in the cell outputs"
        tables = page.locator(".cell_output table").count()
        assert tables > 0, f"{doc}: no HTML table (paper-vs-reproduction) in the cell outputs"

    page.wait_for_load_state("networkidle")
    local_failed = [f for f in failed if urlparse(f.split(" ")[0]).netloc == host]
    assert not local_failed, f"{doc}: failed requests: {local_failed}"
    assert not external, f"{doc}: requests to the internet: {external}"
    assert not errors, f"{doc}: browser errors: {errors}"
