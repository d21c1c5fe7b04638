"""The host names the server answers to (config/hosts.py) and the app's own error pages
(config/errors.py): a foreign name gets 400; no page shows a traceback, in either language."""

import pytest
from django.test import RequestFactory
from django.utils import translation

from config import errors

LANGUAGE = {"pl": {"HTTP_ACCEPT_LANGUAGE": "pl"}, "en": {"HTTP_ACCEPT_LANGUAGE": "en"}}


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1:8000", "localhost", "192.168.1.10:8000", "10.0.0.5", "[fe80::1]:8000", "[::1]:8000", "testserver"],
)
def test_loopback_names_and_addresses_are_served(client, db, host):
    assert client.get("/", HTTP_HOST=host).status_code == 200


@pytest.mark.parametrize("host", ["rebinding.example", "192.168.1.10.nip.io", "evil.localhost.example", "bad host"])
def test_any_other_name_gets_the_apps_400_page(client, db, host):
    answer = client.get("/", HTTP_HOST=host)
    assert answer.status_code == 400
    assert b"This address cannot be opened here" in answer.content and b"Traceback" not in answer.content


def test_names_from_public_url_and_allowed_hosts_are_served(client, db, settings):
    settings.SERVED_HOSTS = ["rummikub.example.org", ".club.example"]
    assert client.get("/", HTTP_HOST="rummikub.example.org").status_code == 200
    assert client.get("/", HTTP_HOST="results.club.example").status_code == 200
    assert client.get("/", HTTP_HOST="other.example.org").status_code == 400


@pytest.mark.parametrize(
    "language, heading", [("pl", "Nie znaleźliśmy tej strony"), ("en", "We could not find this page")]
)
def test_a_missing_page_is_the_apps_own_in_the_visitors_language(client, db, language, heading):
    answer = client.get("/no-such-page/", **LANGUAGE[language])
    assert answer.status_code == 404
    assert heading in answer.content.decode() and "Traceback" not in answer.content.decode()


@pytest.mark.parametrize("language, heading", [("pl", "Coś poszło nie tak"), ("en", "Something went wrong")])
def test_a_server_error_is_the_apps_own_page(db, language, heading):
    request = RequestFactory().get("/")
    with translation.override(language):
        answer = errors.server_error(request)
    assert answer.status_code == 500 and answer["Cache-Control"] == "no-store"
    assert heading in answer.content.decode()


def test_when_the_page_itself_fails_a_plain_page_says_it_in_both_languages(db, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the database is gone")

    monkeypatch.setattr(errors, "render", broken)
    answer = errors.server_error(RequestFactory().get("/"))
    text = answer.content.decode()
    assert answer.status_code == 500
    assert "Coś poszło nie tak" in text and "Something went wrong" in text and "database" not in text
