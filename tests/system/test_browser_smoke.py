"""The browser itself: Chromium starts, renders the login page at tablet and phone size."""

import pytest
from django.utils import translation

from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport,name", [(TABLET, "tablet"), (PHONE, "phone")])
def test_login_page_renders_in_polish_without_horizontal_scroll(settings, live_server, new_page, viewport, name):
    page = new_page(viewport, locale="pl-PL")
    page.goto(f"{live_server.url}/accounts/login/")
    assert page.locator("h1").inner_text() == "Logowanie obsługi"
    assert_no_horizontal_scroll(page)
    font_size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert font_size >= 18
    screenshot(page, f"login-{name}")


def test_polish_is_the_default_language(settings, client):
    settings.LANGUAGE_CODE = "pl"
    with translation.override(None):
        assert "Logowanie obsługi" in client.get("/accounts/login/").content.decode()
