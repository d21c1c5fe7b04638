"""Does the venue address answer? (accounts/venue_check.py, issue 36.) The server asks itself at
the saved address with a nonce only it can answer. On a real server started by `make run`:
listening on 127.0.0.1 only, a second loopback address (127.0.0.2, standing in for the laptop's
network address) gets no answer, and the venue page, the print menu, the tablets' page and the
dashboard say so with what to do; listening on every address, it answers."""

import time

import pytest
from django.core import signing

from accounts import venue_check
from accounts.models import TournamentVenue
from printing.testing import seated_tournament
from tests.support.http_client import Client
from tests.support.redis import redis_cache, redis_server  # noqa: F401
from tests.support.server import MakeRun
from tournament.models import Tournament

SLUG = "senioriada-demo"
UNANSWERED = "Nothing answers at"


# ---------------------------------------------------------------- the nonce


def test_only_a_recent_nonce_of_this_server_is_answered(monkeypatch):
    nonce = venue_check.new_nonce()
    assert venue_check.answer(nonce) and venue_check.answer(nonce) != nonce
    assert venue_check.answer(nonce + "x") is None
    assert venue_check.answer("made-up:nonce:value") is None
    later = time.time() + venue_check.NONCE_MAX_AGE + 5
    monkeypatch.setattr(signing.time, "time", lambda: later)
    assert venue_check.answer(nonce) is None


def test_the_answer_endpoint_answers_its_own_nonce_only(client):
    nonce = venue_check.new_nonce()
    answer = client.get(f"/accounts/venue-check/{nonce}/")
    assert answer.status_code == 200 and answer.content.decode() == venue_check.answer(nonce)
    assert client.get("/accounts/venue-check/abc:def:ghi/").status_code == 404


def test_with_the_shared_cache_unreachable_the_address_is_asked_each_time(redis_cache, settings, monkeypatch):
    settings.VENUE_CHECK_TIMEOUT = 2
    asked = []
    monkeypatch.setattr(venue_check, "ask", lambda base, timeout: asked.append(base) or True)
    assert venue_check.check("http://192.168.1.23:8411").answers
    assert venue_check.check("http://192.168.1.23:8411").answers and len(asked) == 1  # kept for a minute
    redis_cache.stop()
    assert venue_check.last_check("http://192.168.1.23:8411") is None
    assert venue_check.check("http://192.168.1.23:8411").answers and len(asked) == 2
    venue_check.forget("http://192.168.1.23:8411")


# ---------------------------------------------------------------- the pages (the asking stubbed)


@pytest.fixture
def unanswered(settings, monkeypatch, organiser_client):
    """A saved address where nothing answers; the asking is counted."""
    settings.PUBLIC_URL, settings.LISTEN_HOST, settings.VENUE_CHECK_TIMEOUT = "", "127.0.0.1", 2
    asked = []
    monkeypatch.setattr(venue_check, "ask", lambda base, timeout: asked.append(base) or False)
    monkeypatch.setattr(venue_check, "shared_cache", _MemoryCache())
    seated_tournament(8, states=("started",))
    return asked


def saved_where_nothing_answers():
    TournamentVenue.objects.create(
        tournament=Tournament.objects.get(slug="senioriada"), address="http://192.168.1.23:8411"
    )


class _MemoryCache(dict):
    """The cache, empty for each test."""

    def get(self, key):
        return super().get(key)

    def set(self, key, value, timeout):
        self[key] = value

    def delete(self, key):
        self.pop(key, None)


def test_saving_an_address_where_nothing_answers_says_so_and_what_to_do(organiser_client, unanswered):
    answer = organiser_client.post("/accounts/venue/senioriada/", {"address": "192.168.1.23:8411"}, follow=True)
    page = answer.content.decode()
    assert "is saved, but the server does not answer there yet" in page
    assert f"{UNANSWERED} http://192.168.1.23:8411" in page and "make run HOST=0.0.0.0" in page
    assert "Tablets and phones now open the links" not in page
    assert unanswered == ["http://192.168.1.23:8411"]  # asked once: the page after saving uses the answer


def test_the_print_menu_and_the_tablets_page_warn_and_ask_at_most_once_a_minute(organiser_client, unanswered):
    saved_where_nothing_answers()
    for _ in range(2):
        assert UNANSWERED in organiser_client.get("/print/senioriada/").content.decode()
        assert UNANSWERED in organiser_client.get("/accounts/device/senioriada/").content.decode()
        assert UNANSWERED in organiser_client.get("/staff/senioriada/").content.decode()
    assert unanswered == ["http://192.168.1.23:8411"]


def test_in_the_container_the_advice_is_the_published_port(organiser_client, unanswered, monkeypatch):
    monkeypatch.setenv("CONTAINER", "1")
    saved_where_nothing_answers()
    page = organiser_client.get("/print/senioriada/").content.decode()
    assert "the port the container publishes" in page and "make run HOST=0.0.0.0" not in page


def test_an_address_that_answers_gets_no_warning(organiser_client, unanswered, monkeypatch):
    monkeypatch.setattr(venue_check, "ask", lambda base, timeout: True)
    organiser_client.post("/accounts/venue/senioriada/", {"address": "192.168.1.23:8411"})
    assert "The server answers at this address" in organiser_client.get("/accounts/venue/senioriada/").content.decode()
    assert UNANSWERED not in organiser_client.get("/print/senioriada/").content.decode()


def test_check_again_asks_again(organiser_client, unanswered):
    saved_where_nothing_answers()
    organiser_client.get("/accounts/venue/senioriada/")
    organiser_client.get("/accounts/venue/senioriada/?check=1")
    assert unanswered == ["http://192.168.1.23:8411"] * 2


# ---------------------------------------------------------------- a real server


def started(tmp_path, host):
    server = MakeRun(tmp_path, host=host).wait()
    address = f"http://127.0.0.2:{server.port}"
    server.manage(
        "shell",
        "-c",
        "from accounts.models import TournamentVenue; from tournament.models import Tournament; "
        f"TournamentVenue.objects.create(tournament=Tournament.objects.get(slug='{SLUG}'), address='{address}')",
    )
    logins = (server.folder / "demo-logins.txt").read_text(encoding="utf-8").splitlines()
    username, password = next(line.split()[-2:] for line in logins if line.split()[-2] == "organizator")
    return server, address, Client(server.url).login(username, password)


@pytest.mark.full  # make test: the pages' warning in-process (test_the_print_menu_and_the_tablets_page_warn_...)
@pytest.mark.server
@pytest.mark.own_database
def test_a_server_on_loopback_only_does_not_answer_at_the_network_address(tmp_path):
    server, address, organiser = started(tmp_path, "127.0.0.1")
    try:
        for path in (f"/staff/{SLUG}/", f"/print/{SLUG}/", f"/accounts/device/{SLUG}/", f"/accounts/venue/{SLUG}/"):
            page = organiser.get(path).text
            assert f"Pod adresem {address} nic nie odpowiada" in page and "make run HOST=0.0.0.0" in page, path
    finally:
        server.stop()


@pytest.mark.server
@pytest.mark.own_database
def test_a_server_on_every_address_answers_there_and_only_to_its_own_nonce(tmp_path):
    server, address, organiser = started(tmp_path, "0.0.0.0")
    try:
        assert "Serwer odpowiada pod tym adresem" in organiser.get(f"/accounts/venue/{SLUG}/").text
        for path in (f"/print/{SLUG}/", f"/accounts/device/{SLUG}/"):
            page = organiser.get(path).text
            assert address in page and "nic nie odpowiada" not in page, path
        assert "nic nie odpowiada" not in organiser.get(f"/staff/{SLUG}/").text
        # This test's process holds another key: the server there is not "this server".
        assert venue_check.ask(address, 2) is False
    finally:
        server.stop()
