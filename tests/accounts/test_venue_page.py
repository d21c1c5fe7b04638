"""The venue address page: an organiser sets where tablets and phones reach this server, without
a terminal, and every QR code follows (accounts/views/venue.py, accounts/venue.py)."""

import pytest

from accounts import venue
from accounts.models import VenueSetting
from printing.testing import qr_matrix, qr_payloads, seated_tournament, strict_pdf_rendering  # noqa: F401

pytestmark = pytest.mark.django_db
SHEET = "/print/senioriada/round/1/table/1/score-sheet.pdf"
LAPTOP = {"HTTP_HOST": "127.0.0.1:8000"}


@pytest.fixture
def tournament(settings):
    settings.PUBLIC_URL = ""
    settings.LISTEN_HOST = "127.0.0.1"
    return seated_tournament(8, states=("started",))


def test_the_address_the_browser_used_is_offered_and_saved_with_one_click(organiser_client, tournament):
    page = organiser_client.get("/accounts/venue/", HTTP_HOST="192.168.1.23:8000").content.decode()
    assert 'name="address" value="http://192.168.1.23:8000"' in page
    answer = organiser_client.post("/accounts/venue/", {"address": "http://192.168.1.23:8000"}, HTTP_HOST="192.168.1.23:8000")
    assert answer.status_code == 302 and VenueSetting.objects.get().address == "http://192.168.1.23:8000"


def test_from_the_laptop_itself_the_address_is_asked_for_and_explained(organiser_client, tournament):
    page = organiser_client.get("/accounts/venue/", **LAPTOP).content.decode()
    assert "Use http://127.0.0.1" not in page and "ipconfig" in page and "System Settings" in page


def test_a_saved_address_goes_into_every_printed_qr_code(organiser_client, tournament):
    assert qr_payloads(organiser_client.get(SHEET, **LAPTOP).content) == set()  # paper only: no address known
    organiser_client.post("/accounts/venue/", {"address": "192.168.1.23:8000"}, **LAPTOP)
    printed = organiser_client.get(SHEET, **LAPTOP).content
    assert qr_payloads(printed) == {qr_matrix("http://192.168.1.23:8000/referee/senioriada/round/1/table/1/")}


@pytest.mark.parametrize("typed, error", [
    ("ftp://192.168.1.23", "Enter only the start of an address"),
    ("http://192.168.1.23:8000/staff/", "Enter only the start of an address"),
    ("http://127.0.0.1:8000", "means “this device”"),
    ("localhost:8000", "means “this device”"),
    ("", "This field is required."),
])
def test_a_wrong_address_is_explained_next_to_the_field_and_nothing_is_saved(organiser_client, tournament, typed, error):
    answer = organiser_client.post("/accounts/venue/", {"address": typed}, **LAPTOP)
    assert answer.status_code == 200 and error in answer.content.decode()
    assert not VenueSetting.objects.exists()


def test_public_url_wins_and_the_page_says_where_to_change_it(organiser_client, tournament, settings):
    settings.PUBLIC_URL = "http://rummikub.example:8000"
    organiser_client.post("/accounts/venue/", {"address": "http://192.168.1.23:8000"}, **LAPTOP)
    assert not VenueSetting.objects.exists()
    assert "PUBLIC_URL" in organiser_client.get("/accounts/venue/", **LAPTOP).content.decode()


def test_a_saved_name_is_served_and_can_be_forgotten(organiser_client, tournament, client):
    organiser_client.post("/accounts/venue/", {"address": "http://rummikub.local:8000"}, **LAPTOP)
    assert client.get("/", HTTP_HOST="rummikub.local:8000").status_code == 200
    organiser_client.post("/accounts/venue/", {"forget": "1"}, **LAPTOP)
    assert VenueSetting.objects.get().address == ""
    assert client.get("/", HTTP_HOST="rummikub.local:8000").status_code == 400


def test_only_organisers_set_it(referee_client, tournament):
    assert referee_client.get("/accounts/venue/", **LAPTOP).status_code == 403


def test_inside_a_container_the_containers_own_address_is_never_offered(monkeypatch):
    monkeypatch.setenv("CONTAINER", "1")
    monkeypatch.setattr(venue, "lan_address", lambda: "10.88.0.5")
    assert venue.network_host("0.0.0.0") is None
    assert "set the venue address" in venue.startup_lines("0.0.0.0", "8000", "")[1]
