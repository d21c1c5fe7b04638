"""The dashboard's notice of a logged server error, and each test's own error log.

An error logged by one test must never reach another's dashboard: the shared log used to, and
its full path, on a 390 px phone, ran off the screen.
"""

import logging
from pathlib import Path

import pytest

from organiser.server_log import last_logged_error
from tests.factories import checked_in
from tests.support.browser import PHONE, TABLET, signed_in_page
from tests.support.isolation import error_log_at

NOTICE = "The server logged an error"


def log_an_error():
    logging.getLogger("organiser").error("Internal Server Error: /staff/test/")


def test_an_error_logged_in_a_test_goes_to_the_tests_own_log_only(settings, own_data_folder):
    configured = Path(settings.LOGGING["handlers"]["error_file"]["filename"])
    size_before = configured.stat().st_size if configured.exists() else 0
    assert last_logged_error() is None

    log_an_error()

    assert "/staff/test/" in (own_data_folder / "log" / "errors.log").read_text(encoding="utf-8")
    assert (configured.stat().st_size if configured.exists() else 0) == size_before
    assert last_logged_error().path == own_data_folder / "log" / "errors.log"


@pytest.mark.django_db
def test_the_dashboard_tells_of_a_logged_error_and_names_its_file_apart(organiser_client, settings):
    checked_in(4)
    assert NOTICE not in organiser_client.get("/staff/test/").content.decode()

    log_an_error()

    page = organiser_client.get("/staff/test/").content.decode()
    assert NOTICE in page and "send the server's error log" in page
    assert f'<span class="server-log-file">The log is the file {settings.ERROR_LOG} on that computer.</span>' in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport, path_shown", [(PHONE, False), (TABLET, True)])
def test_the_notice_wraps_and_a_phone_is_shown_no_server_path(
    new_page, live_server, client, organiser, settings, own_data_folder, viewport, path_shown
):
    checked_in(4)
    deep = own_data_folder / ("a-folder-with-a-long-name-on-the-server-" * 4) / "log" / "errors.log"
    with error_log_at(deep):
        settings.ERROR_LOG = deep
        log_an_error()
        page = signed_in_page(new_page, live_server, client, organiser, viewport)
        page.goto(f"{live_server.url}/staff/test/")

        assert page.get_by_text(NOTICE).is_visible()
        assert page.get_by_text(str(deep), exact=False).is_visible() is path_shown
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
