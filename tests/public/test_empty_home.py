"""A fresh install's home page (issue 36.10): with no tournament it shows the way in, the first
organiser's setup while nobody can organise, then the sign-in."""

import pytest

pytestmark = pytest.mark.django_db


def test_a_fresh_install_offers_the_setup_of_the_first_organiser(client):
    html = client.get("/").content.decode()
    assert "No tournaments yet." in html and 'href="/accounts/setup/"' in html
    assert 'href="/accounts/login/"' not in html


def test_once_an_organiser_exists_the_empty_home_offers_the_sign_in(client, organiser):
    html = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in html and "/accounts/setup/" not in html


def test_a_signed_in_organiser_is_sent_to_the_staff_pages(organiser_client):
    html = organiser_client.get("/").content.decode()
    assert 'href="/accounts/"' in html and "/accounts/login/" not in html
