"""The dashboard's notice of a server error, from the database and for its own organisation only,
and each test's own error log file.

An error logged by one test must never reach another's dashboard: the shared log used to, and
its full path, on a 390 px phone, ran off the screen. With several app servers a file is each
machine's own and every organiser saw every error: the errors are rows with their organisation.
"""

import logging
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from organiser.server_log import errors_seen_by
from tests.factories import checked_in
from tests.support.browser import PHONE, TABLET, signed_in_page
from tests.support.isolation import error_log_at
from tests.support.server_errors import fail_in_a_view, two_sides
from tournament import server_errors
from tournament.models import ServerError, Tournament

NOTICE = "The server logged an error"


def log_an_error():
    logging.getLogger("organiser").error("Internal Server Error: /staff/test/")


def test_an_error_logged_in_a_test_goes_to_the_tests_own_log_only(settings, own_data_folder):
    configured = Path(settings.LOGGING["handlers"]["error_file"]["filename"])
    size_before = configured.stat().st_size if configured.exists() else 0

    log_an_error()

    assert "/staff/test/" in (own_data_folder / "log" / "errors.log").read_text(encoding="utf-8")
    assert (configured.stat().st_size if configured.exists() else 0) == size_before


@pytest.mark.django_db
def test_the_dashboard_tells_of_a_server_error_and_names_its_file_apart(organiser, settings, monkeypatch):
    checked_in(4)
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    assert NOTICE not in client.get("/staff/test/").content.decode()

    fail_in_a_view(monkeypatch, client, "/staff/test/?from=tablet")

    page = client.get("/staff/test/").content.decode()
    assert NOTICE in page and "send the server's error log" in page
    assert f'<span class="server-log-file">The log is the file {settings.ERROR_LOG} on that computer.</span>' in page
    assert 'GET <span class="server-error-path">/staff/test/?from=tablet</span>' in page
    error = ServerError.objects.get()
    assert (error.tournament, error.host) == (Tournament.objects.get(slug="test"), error.tournament.host)
    assert error.exception == "builtins.RuntimeError" and error.message == "a bug in the dashboard"
    assert "raise RuntimeError" in error.traceback
    assert "a bug in the dashboard" in (settings.ERROR_LOG).read_text(encoding="utf-8")  # the file as before


@pytest.mark.django_db
def test_an_organisation_sees_its_own_errors_only_and_the_operator_those_of_no_organisation(monkeypatch):
    a, b = two_sides()
    organiser_a, organiser_b = a.client, b.client

    fail_in_a_view(monkeypatch, organiser_a, "/staff/alpha/")

    assert NOTICE in organiser_a.get("/staff/alpha/").content.decode()
    assert NOTICE not in organiser_b.get("/staff/beta/").content.decode()
    assert ServerError.objects.get().host == a.tournament.host

    ServerError.objects.create(method="GET", path="/staff/no-organisation/", exception="builtins.ValueError")
    operator = User.objects.create_superuser("operator")
    assert [e.path for e in errors_seen_by(b.tournament, operator).errors] == ["/staff/no-organisation/"]
    assert [e.path for e in errors_seen_by(a.tournament, a.people["organiser"]).errors] == ["/staff/alpha/"]
    assert errors_seen_by(b.tournament, b.people["organiser"]) is None


@pytest.mark.django_db
def test_a_bounded_number_is_kept_per_organisation(monkeypatch):
    monkeypatch.setattr(server_errors, "KEPT", 3)
    a, b = two_sides()
    organiser_a, organiser_b = a.client, b.client
    fail_in_a_view(monkeypatch, organiser_b, "/staff/beta/")
    for number in range(5):
        fail_in_a_view(monkeypatch, organiser_a, f"/staff/alpha/?try={number}")

    kept = ServerError.objects.filter(host=a.tournament.host).order_by("when", "pk").values_list("path", flat=True)
    assert list(kept) == ["/staff/alpha/?try=2", "/staff/alpha/?try=3", "/staff/alpha/?try=4"]
    assert ServerError.objects.filter(host=b.tournament.host).count() == 1


@pytest.mark.django_db
def test_recording_never_raises_when_the_database_refuses(monkeypatch, organiser):
    checked_in(4)
    client = Client(raise_request_exception=False)
    client.force_login(organiser)

    def refused(*args, **kwargs):
        from django.db import DatabaseError

        raise DatabaseError("the database is gone")

    monkeypatch.setattr(ServerError.objects, "create", refused)
    fail_in_a_view(monkeypatch, client, "/staff/test/")  # still the 500 page, not a crash of the handler
    assert not ServerError.objects.exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport, path_shown", [(PHONE, False), (TABLET, True)])
def test_the_notice_wraps_and_a_phone_is_shown_no_server_path(
    new_page, live_server, client, organiser, settings, own_data_folder, viewport, path_shown
):
    tournament = checked_in(4)
    deep = own_data_folder / ("a-folder-with-a-long-name-on-the-server-" * 4) / "log" / "errors.log"
    with error_log_at(deep):
        settings.ERROR_LOG = deep
        path = "/staff/test/" + "a-long-address-of-a-page-" * 6
        ServerError.objects.create(host=tournament.host, method="GET", path=path, exception="builtins.ValueError")
        page = signed_in_page(new_page, live_server, client, organiser, viewport)
        page.goto(f"{live_server.url}/staff/test/")

        assert page.get_by_text(NOTICE).is_visible()
        assert page.get_by_text(str(deep), exact=False).is_visible() is path_shown
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
