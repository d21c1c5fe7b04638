"""The season walk's kit: the venue's server (`bin/serve` on a free port over a VAR_DIR of its own,
started with tests/support/serve.py's helpers), Chromium, and the checks every page met passes.

`Walk.look(page, name)` is what the walk does on every page it meets: no server error, no English
text that the catalogue translates (on a Polish page), no sideways scroll at 390 px, and a full-page
screenshot at 390×844 and at 1280×720, numbered in walk order. `Walk.step(title)` times one step
and prints it; `Walk.pdf(page, href, name)` downloads a PDF and renders its pages with pdftoppm.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.support.polish_text import english_fragments, untranslated, visible_text  # noqa: E402
from tests.support.serve import SERVE, environment, serving  # noqa: E402

WIDE = {"width": 1280, "height": 720}
SIZES = {"390": PHONE, "1280": WIDE}
CODE = re.compile(r"<code\b[^>]*>.*?</code>", re.S)  # commands and links, typed as they are: not translated
SERVER_ERROR = re.compile(r"Server Error|Błąd serwera|Traceback")
PASSWORD = "Szachownica-Jesien-2026"  # passes Django's validators (length, common, numeric, similarity)


class WalkError(AssertionError):
    """A check the walk makes failed: the page, and what was wrong."""


class Walk:
    """One walk: the server's address, the browser, the screenshots' folder and the step clock."""

    def __init__(self, out: Path, browser, base: str, var_dir: Path):
        self.out, self.browser, self.base, self.var_dir = out, browser, base, var_dir
        self.shots = 0
        self.pages_seen: list[str] = []
        self.findings: list[str] = []
        self.fragments = english_fragments()
        self.started = time.monotonic()

    def url(self, path: str) -> str:
        return urljoin(self.base, path)

    def new_page(self, viewport=None):
        """A page in a fresh context (its own cookies), in Polish, the app's default language."""
        context = self.browser.new_context(viewport=viewport or PHONE, locale="pl-PL")
        context.set_default_timeout(30_000)
        return context.new_page()

    def go(self, page, path: str, name: str):
        page.goto(self.url(path))
        self.look(page, name)
        return page

    @contextlib.contextmanager
    def step(self, title: str):
        began = time.monotonic()
        yield
        print(f"{time.monotonic() - began:6.1f} s  {title}", flush=True)

    def look(self, page, name: str):
        """Check the page as it stands and keep it at both sizes (the phone's first)."""
        text = visible_text(CODE.sub("", page.content()))
        if SERVER_ERROR.search(text):
            raise WalkError(f"{page.url}: a server error")
        if (page.locator("html").get_attribute("lang") or "pl").startswith("pl"):
            english = untranslated(text, self.fragments)
            if english:
                raise WalkError(f"{page.url}: English text on a Polish page: {english}")
        self.shots += 1
        viewport = page.viewport_size
        for size, box in SIZES.items():
            page.set_viewport_size(box)
            if size == "390":
                wide = page.evaluate("document.documentElement.scrollWidth")
                if wide > box["width"]:
                    raise WalkError(f"{page.url}: {wide} px wide at 390 px")
            page.screenshot(path=str(self.out / f"{self.shots:03d}-{name}-{size}.png"), full_page=True)
        page.set_viewport_size(viewport)
        self.pages_seen.append(name)

    def pdf(self, page, href: str, name: str) -> Path:
        """Download a PDF with the page's cookies (a batch PDF waits on its progress page) and
        render every page of it to PNG with pdftoppm."""
        deadline = time.monotonic() + 120
        while True:
            response = page.context.request.get(self.url(href))
            if response.headers.get("content-type", "").startswith("application/pdf"):
                break
            if time.monotonic() > deadline or not response.ok:
                raise WalkError(f"{href}: no PDF ({response.status})")
            time.sleep(0.5)  # the task worker makes the batch PDF: asked again until it is ready
        self.shots += 1
        path = self.out / f"{self.shots:03d}-{name}.pdf"
        path.write_bytes(response.body())
        subprocess.run(["pdftoppm", "-png", "-r", "60", str(path), str(path.with_suffix(""))], check=True)
        return path


@contextlib.contextmanager
def venue_server():
    """`bin/serve` as `make run DEMO=0` starts it, on a free port over a fresh VAR_DIR; yields
    (base URL, VAR_DIR, its environment)."""
    with tempfile.TemporaryDirectory(prefix="season-walk-") as folder:
        var_dir = Path(folder)
        env = environment(var_dir, DEMO="0", PYTHON=sys.executable)
        log = open(var_dir / "serve.log", "w")
        process = subprocess.Popen([SERVE], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            serving(env["PORT"], process, timeout=180)
            yield f"http://127.0.0.1:{env['PORT']}/", var_dir, env
        finally:
            process.terminate()
            process.wait(timeout=30)
            log.close()


@contextlib.contextmanager
def chromium():
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def manage(env, *args, **extra):
    """A command as the operator types it in the project's folder, beside the running server."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**env, **extra},
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
