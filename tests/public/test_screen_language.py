"""The hall's screens speak the tournament's language (issue 31.7): the projector and the medal
ceremony always show the language set for the tournament's public screens (default: the site's,
Polish), whatever the browser showing them asks for; phones keep their own language switch."""

import pytest
from django.test import Client

from tests.factories import build_hall, settings_data
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def english_browser():
    """A projector laptop with an English browser."""
    return Client(HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")


def test_a_new_tournament_shows_its_screens_in_polish_by_default(organiser_client, settings):
    settings.LANGUAGE_CODE = "pl"
    organiser_client.post("/staff/new/", {**settings_data(), "public_language": "pl"})
    assert Tournament.objects.get().public_language == "pl"
    assert Tournament._meta.get_field("public_language").get_default() == "pl"


@pytest.mark.parametrize("page", ["/t/test/projector/", "/t/test/ceremony/"])
def test_the_projector_and_the_ceremony_use_the_tournaments_language_whatever_the_browser(page):
    tournament = build_hall()
    Tournament.objects.filter(pk=tournament.pk).update(public_language="pl")
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):  # the whole page, and what the screen polls
        assert english_browser().get(page, **headers)["Content-Language"] == "pl"
    whole = english_browser().get(page).content.decode()
    assert '<html lang="pl">' in whole and "Przejdź do treści" in whole and "Wróć" in whole
    assert "Skip to content" not in whole and ">Back<" not in whole
    Tournament.objects.filter(pk=tournament.pk).update(public_language="en")
    polish = Client(HTTP_ACCEPT_LANGUAGE="pl")
    polish.cookies["django_language"] = "pl"
    assert "Skip to content" in polish.get(page).content.decode()


def test_phones_keep_their_own_language_on_the_other_public_pages():
    tournament = build_hall()
    Tournament.objects.filter(pk=tournament.pk).update(public_language="pl")
    phone = english_browser()
    assert "Find my table" in phone.get("/t/test/").content.decode()
    assert "Standings" in phone.get("/t/test/standings/").content.decode()
    phone.get("/language/", {"language": "pl", "next": "/t/test/"})
    assert "Znajdź mój stolik" in phone.get("/t/test/").content.decode()


def test_the_ceremony_click_answers_in_the_halls_language(head_referee_client):
    tournament = build_hall()
    Tournament.objects.filter(pk=tournament.pk).update(public_language="pl")
    head_referee_client.cookies["django_language"] = "en"
    asked = head_referee_client.get("/t/test/ceremony/?confirm=next", HTTP_HX_REQUEST="true").content.decode()
    assert "Tak, odsłoń miejsce 3" in asked
    response = head_referee_client.post(
        "/t/test/results-control/",
        {"ceremony": "next", "seen_step": "0"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="ceremony-stage",
    )
    assert "Odsłonięto miejsce 3." in response.content.decode()
    control = head_referee_client.get("/t/test/results-control/").content.decode()
    assert "What the public sees" in control  # the head referee's own page keeps the head referee's language


def test_the_language_is_a_setting_of_the_settings_form_and_of_the_exchange_file(organiser_client):
    from organiser.interchange.export import export_tournament

    tournament = build_hall()
    form = organiser_client.get("/staff/test/settings/").content.decode()
    assert 'name="public_language"' in form
    response = organiser_client.post("/staff/test/settings/", settings_data(tournament, public_language="en"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.public_language == "en"
    assert export_tournament(tournament)["tournament"]["settings"]["public_language"] == "en"
