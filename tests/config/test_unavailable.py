"""While the database is away or too slow a request answers the app's own 503 page (both
languages, `Retry-After`, no database touched), a bug of the app still a 500; `/healthz` is 200
with one cheap query and nothing else (no session, no cookie, no cache write), 503 without a
database (config/errors.py, config/health.py)."""

from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.db import OperationalError
from django.test import Client

from config import errors

pytestmark = pytest.mark.urls("tests.config.faulty_urls")


@pytest.fixture
def browser():
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "language, words",
    [("pl", ["Chwileczkę", "proszę spróbować ponownie za 5 sekund."]), ("en", ["A moment, please", "in 5 seconds."])],
)
def test_a_request_whose_database_is_away_answers_the_apps_503_in_the_visitors_language(browser, db, language, words):
    answer = browser.get("/test/database-away/", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 503
    assert (answer["Retry-After"], answer["Cache-Control"]) == ("5", "no-store")
    page = answer.content.decode()
    assert all(word in page for word in words), page
    assert "Traceback" not in page and "Connection refused" not in page


def test_the_503_page_reads_nothing_from_the_database(rf, db, django_assert_num_queries):
    request = rf.get("/", HTTP_ACCEPT_LANGUAGE="en", HTTP_COOKIE="sessionid=abc")
    with django_assert_num_queries(0):
        answer = errors.unavailable(request)
    assert answer.status_code == 503 and b"A moment, please" in answer.content


def test_a_bug_of_the_app_is_still_a_500(browser, db):
    answer = browser.get("/test/app-wrong/")
    assert answer.status_code == 500 and "Retry-After" not in answer


@pytest.mark.postgresql
def test_a_statement_cancelled_by_its_timeout_answers_the_503_page(browser, db):
    answer = browser.get("/test/stuck-statement/", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 503 and b"A moment, please" in answer.content


def test_healthz_is_one_cheap_query_and_nothing_else(browser, db, django_assert_num_queries):
    cache.clear()
    with django_assert_num_queries(1):
        answer = browser.get("/healthz")
    assert (answer.status_code, answer.content, answer["Content-Type"]) == (200, b"ok\n", "text/plain")
    assert not answer.cookies  # no session, no CSRF cookie
    assert "no-cache" in answer["Cache-Control"]
    assert not cache._cache  # noqa: SLF001 (the local-memory cache: nothing written)


def test_healthz_is_503_when_the_database_does_not_answer(browser, db, monkeypatch):
    def refused(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr("config.health.connection", SimpleNamespace(cursor=refused))
    answer = browser.get("/healthz")
    assert (answer.status_code, answer["Retry-After"]) == (503, "5")


def test_a_missing_table_is_the_apps_fault_and_a_lost_connection_an_outage():
    from django.db import OperationalError

    from config.database import database_unavailable

    assert not database_unavailable(OperationalError("no such table: tournament_player"))  # SQLite: a 500
    assert not database_unavailable(OperationalError("no such column: x"))
    assert database_unavailable(OperationalError("server closed the connection unexpectedly"))  # a 503
    assert database_unavailable(OperationalError("terminating connection due to administrator command"))
