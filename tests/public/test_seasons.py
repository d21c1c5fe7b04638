"""A season's public pages: the table row by row with the hidden tournament absent and listed as
pending, a person's history, 404s, and the conditional GET that follows the tournaments' public
versions (a verification elsewhere, or the hidden tournament made public, changes the page)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services.visibility import set_visibility
from tests.factories import SEASON_PUBLIC_TABLE, SEASON_STAFF_TABLE, season_of_three
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    return season_of_three()


def page_rows(html):
    """[(rank, name, club, points, tournaments, wins)] of the season table on a page."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        cells = [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        name_and_club = re.search(r'<td class="who">.*?>([^<]+)</a>\s*<span class="org">([^<]*)</span>', row, re.S)
        rows.append((int(cells[0]), name_and_club[1], name_and_club[2], *map(int, cells[2:5])))
    return rows


def test_the_public_page_shows_the_public_table_row_by_row_and_the_pending_tournament(client, season):
    response = client.get(reverse("public:season", args=[season.slug]))
    html = response.content.decode()
    assert page_rows(html) == [row[:6] for row in SEASON_PUBLIC_TABLE]
    pending = re.search(r'id="season-pending">(.*?)</p>', html, re.S)[1]
    assert "Results pending:" in pending and "Senioriada zima-3" in pending
    assert "results pending" in html and "zima-3/" not in html  # named, never linked
    assert response["ETag"] and response["Cache-Control"] == "no-cache"


def test_once_the_hidden_tournament_is_public_the_page_changes_at_once(client, season):
    url = reverse("public:season", args=[season.slug])
    first = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    set_visibility(Tournament.objects.get(slug="zima-3"), Tournament.Visibility.LIVE, user=None, reason="koniec")
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert page_rows(second.content.decode()) == [row[:6] for row in SEASON_STAFF_TABLE]
    assert "Results pending" not in second.content.decode()


def test_a_person_moved_to_another_record_changes_the_page(client, season):
    url = reverse("public:season", args=[season.slug])
    first = client.get(url)
    player = Player.objects.get(tournament__slug="zima-1", surname="Kamińska")
    player.person = Player.objects.get(tournament__slug="zima-2", surname="Szymańska").person
    player.save(update_fields=["person"])
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    rows = page_rows(second.content.decode())
    assert (6, "Dąbrowski Adam", "UTW Toruń", 20, 1, 0) in rows
    assert ("Szymańska Olga", 18, 2) in [(name, points, played) for _r, name, _c, points, played, _w in rows]
    assert "Kamińska Zofia" not in second.content.decode()


def test_a_persons_page_shows_only_public_results(client, season):
    zak = Player.objects.get(tournament__slug="zima-1", surname="Żak").person
    html = client.get(reverse("public:season_person", args=[season.slug, zak.uid])).content.decode()
    assert "Żak Łucja" in html and "Place 3 in the season" in html and "31 points" in html and "2 tournaments" in html
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    cells = [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)]
    assert [c for i, c in enumerate(cells) if i % 3] == ["2", "20", "5", "11"]
    assert "Senioriada zima-1" in cells[0] and "Senioriada zima-2" in cells[3]
    assert "zima-3" not in body
    wisniewska = Player.objects.get(tournament__slug="zima-2", surname="Wiśniewska").person
    html = client.get(reverse("public:season_person", args=[season.slug, wisniewska.uid])).content.decode()
    assert "DQ" in html


def test_unknown_seasons_and_people_and_people_without_public_results_are_404(client, season):
    assert client.get("/s/nope/").status_code == 404
    assert client.get(f"/s/{season.slug}/person/not-a-uuid/").status_code == 404
    assert client.get(f"/s/{season.slug}/person/00000000-0000-0000-0000-000000000000/").status_code == 404
    Tournament.objects.filter(slug__in=["zima-1", "zima-2"]).update(visibility=Tournament.Visibility.HIDDEN)
    zak = Player.objects.get(tournament__slug="zima-1", surname="Żak").person
    assert client.get(reverse("public:season_person", args=[season.slug, zak.uid])).status_code == 404
    html = Client().get(reverse("public:season", args=[season.slug])).content.decode()
    assert "No tournament of this season has results to count yet." in html and "Żak" not in html


def test_polish_plurals_on_a_persons_page(client, season, settings):
    from django.utils import translation

    settings.LANGUAGE_CODE = "pl"
    zak = Player.objects.get(tournament__slug="zima-1", surname="Żak").person
    with translation.override("pl"):
        html = Client(HTTP_ACCEPT_LANGUAGE="pl").get(reverse("public:season_person", args=[season.slug, zak.uid]))
    text = html.content.decode()
    assert "31 punktów" in text and "2 turnieje" in text and "Miejsce 3 w sezonie" in text


def test_a_change_of_the_seasons_settings_changes_the_page(client, season):
    url = reverse("public:season", args=[season.slug])
    first = client.get(url)
    season.best_count = None  # every result counts: the public rows stay (two each at most), the rules line changes
    season.save()
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and "every tournament counts" in second.content.decode()


def test_the_home_page_and_the_organisations_page_list_the_seasons(client, season):
    link = f'href="{reverse("public:season", args=[season.slug])}"'
    assert link in client.get("/").content.decode()
    assert link in client.get(reverse("public:organisation", args=[season.host.slug])).content.decode()
