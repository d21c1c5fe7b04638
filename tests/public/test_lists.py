"""The public home page and an organisation's page page through their rows with a search, in the
same number of queries for 2 organisations as for 25 (more than a page), and the home page is kept
in the shared cache for visitors who are not signed in until a tournament or organisation changes."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.support.lists import service
from tournament import shared_cache
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    shared_cache.clear()
    yield
    shared_cache.clear()


def queries_of(client, path):
    shared_cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries), response.content.decode()


@pytest.mark.parametrize("path", ["/", "/?q=klub+00", "/o/klub-000/", "/o/klub-000/?q=turniej"])
def test_a_public_list_costs_the_same_queries_for_2_organisations_as_for_25(client, path):
    service(2, 3)
    small, _ = queries_of(client, path)
    service(23, 3, first=2)  # 25 organisations, 75 tournaments: more than a page of each
    large, _ = queries_of(client, path)
    # Several organisations with tournaments? then the count, the page and its tournaments' counts;
    # an organisation's page: the organisation, the count, the page and its seasons.
    assert small == large <= 4


def test_the_home_page_lists_20_organisations_a_page_and_searches_them(client):
    service(25, 1)
    _, first = queries_of(client, "/")
    assert "Klub 019" in first and "Klub 020" not in first and 'href="?page=2"' in first
    _, second = queries_of(client, "/?page=2")
    assert "Klub 020" in second and "Klub 024" in second and "Klub 019" not in second
    _, found = queries_of(client, "/?q=KLUB+024")
    assert "Klub 024" in found and "Klub 023" not in found
    _, none = queries_of(client, "/?q=warszawa")
    assert "Klub 0" not in none and "Nothing matches the search." in none


def test_the_home_page_is_kept_for_visitors_until_a_tournament_changes(client):
    service(2, 1)
    queries_of(client, "/")  # rendered and kept
    with CaptureQueriesContext(connection) as queries:
        kept = client.get("/").content.decode()
    assert len(queries) == 0 and "Klub 001" in kept
    Tournament.objects.create(host=service(1, 0, first=7)[0], name="Nowy", slug="nowy", date="2026-03-01")
    assert "Klub 007" in client.get("/").content.decode()


def test_an_organisations_page_lists_its_tournaments_upcoming_first_a_page_at_a_time(client):
    service(1, 25)
    _, first = queries_of(client, "/o/klub-000/")
    # All past (2020, weekly from 1 January): the most recent first, 20 on the first page.
    assert first.index("Turniej 000-24") < first.index("Turniej 000-5") and "Turniej 000-4<" not in first
    _, second = queries_of(client, "/o/klub-000/?page=2")
    assert "Turniej 000-4<" in second and "Turniej 000-0<" in second
