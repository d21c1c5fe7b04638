"""Browser fixtures: Playwright for Python driving Debian's Chromium.

A missing browser fails the tests (CI must not skip them). With SCREENSHOTS=1 the tests' screenshots
go to `test-artifacts/` (git-ignored), kept as artifacts of the run; without, none is taken (a
full-page screenshot costs a third of a second, over a hundred of them a minute of the suite).
"""

import os
from pathlib import Path

import pytest
from django.db import connections

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--autoplay-policy=no-user-gesture-required",  # the move timer beeps without a tap
]
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = os.environ.get("SCREENSHOTS") == "1"
DRAW_WAIT = 60_000  # ms: a draw searches the seatings, slow on a busy machine


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: install Debian's chromium package")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import expect, sync_playwright

    # expect(...) waits as long as any other step (Playwright's own default is 5 s): on a machine
    # busy with the rest of the suite a page can take longer, and a condition is waited for, not a time.
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    """new_page(viewport=TABLET) -> a page in a fresh context (its own cookies)."""
    contexts = []

    def make(viewport=TABLET, locale="en-GB", **kwargs):
        context = browser.new_context(viewport=viewport, locale=locale, **kwargs)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    # Queries made while Playwright runs may open a connection of their own (a greenlet
    # context); close it, or the test database cannot be dropped on PostgreSQL.
    connections.close_all()


def screenshot(page, name):
    """Keep a full-page screenshot of this step as a test artifact, with SCREENSHOTS=1."""
    if not SCREENSHOTS:
        return None
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def assert_no_horizontal_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    assert width <= viewport, f"page is {width}px wide in a {viewport}px viewport"


def signed_in_page(new_page, live_server, client, user, viewport=TABLET):
    """A page whose context carries a session of `user` (signed in through the test client)."""
    from django.conf import settings

    client.force_login(user)
    page = new_page(viewport)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return page
