"""The venue address page: a tournament's organisers set where its tablets and phones reach this
server, without a terminal, and every QR code made for that tournament follows; the address is
normalised and never widens the names the server answers to (accounts/views/venue.py,
accounts/venue.py, issue 41)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import venue
from accounts.models import Role, TournamentRole, TournamentVenue
from printing.testing import qr_matrix, qr_payloads, seated_tournament, strict_pdf_rendering  # noqa: F401
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db
PAGE = "/accounts/venue/senioriada/"
SHEET = "/print/senioriada/round/1/table/1/score-sheet.pdf"
LAPTOP = {"HTTP_HOST": "127.0.0.1:8000"}


@pytest.fixture
def tournament(settings):
    settings.PUBLIC_URL = ""
    settings.LISTEN_HOST = "127.0.0.1"
    return seated_tournament(8, states=("started",))


def saved(tournament):
    return TournamentVenue.objects.filter(tournament=tournament).values_list("address", flat=True).first()


def organiser_of(tournament, name):
    """A client signed in as an organiser of `tournament` only."""
    user = User.objects.create_user(name, password="x")
    TournamentRole.objects.create(user=user, tournament=tournament, role=Role.ORGANISER)
    client = Client(**LAPTOP)
    client.force_login(user)
    return client


def test_the_address_the_browser_used_is_offered_and_saved_with_one_click(organiser_client, tournament):
    page = organiser_client.get(PAGE, HTTP_HOST="192.168.1.23:8000").content.decode()
    assert 'name="address" value="http://192.168.1.23:8000"' in page
    answer = organiser_client.post(PAGE, {"address": "http://192.168.1.23:8000"}, HTTP_HOST="192.168.1.23:8000")
    assert answer.status_code == 302 and saved(tournament) == "http://192.168.1.23:8000"
    entry = AuditEntry.objects.get(action="venue_address")
    assert (entry.before, entry.after, entry.tournament) == (None, {"address": "http://192.168.1.23:8000"}, tournament)


def test_from_the_laptop_itself_the_address_is_asked_for_and_explained(organiser_client, tournament):
    page = organiser_client.get(PAGE, **LAPTOP).content.decode()
    assert "Use http://127.0.0.1" not in page and "ipconfig" in page and "System Settings" in page


def test_a_saved_address_goes_into_every_printed_qr_code(organiser_client, tournament):
    assert qr_payloads(organiser_client.get(SHEET, **LAPTOP).content) == set()  # paper only: no address known
    organiser_client.post(PAGE, {"address": "192.168.1.23:8000"}, **LAPTOP)
    printed = organiser_client.get(SHEET, **LAPTOP).content
    assert qr_payloads(printed) == {qr_matrix("http://192.168.1.23:8000/referee/senioriada/round/1/table/1/")}


@pytest.mark.parametrize(
    "typed, error",
    [
        ("ftp://192.168.1.23", "Enter only the start of an address"),
        ("http://192.168.1.23:8000/staff/", "Enter only the start of an address"),
        ("http://127.0.0.1:8000", "means “this device”"),
        ("localhost:8000", "means “this device”"),
        ("", "This field is required."),
        # Issue 41: loopback in disguise.
        ("http://127.1:8000", "four numbers from 0 to 255"),
        ("http://0:8000", "four numbers from 0 to 255"),
        ("http://0x7f.0.0.1", "four numbers from 0 to 255"),
        ("http://2130706433:8000", "four numbers from 0 to 255"),
        ("http://[::ffff:127.0.0.1]:8000", "means “this device”"),
        ("http://[::1]:8000", "means “this device”"),
        ("http://0.0.0.0:8000", "means “this device”"),
        ("localhost.", "means “this device”"),
        ("http://turniej.localhost:8000", "means “this device”"),
        ("http://[fe80::1]:8000", "Tablets and phones cannot open this address"),
        ("http://224.0.0.1:8000", "Tablets and phones cannot open this address"),
        # Issue 41: junk names, and names this server does not answer to.
        ("http://192.168.1.23 :8000", "Enter only letters, digits"),
        ('http://"x".example', "Enter only letters, digits"),
        ("http://ｒｕｍｍｉｋｕｂ.local", "Enter only letters, digits"),
        ("http://x%0d%0a.example:8000", "Enter only letters, digits"),
        ("http://" + "a" * 180 + ".example", "Enter only the start of an address"),
        ("http://-x-.example", "Enter only the start of an address"),
        ("http://rebind.attacker.example:8441", "does not answer to this name"),
        ("http://256.1.1.1:8000", "four numbers from 0 to 255"),
        ("http://192.168.1.23:0", "Enter only the start of an address"),
        ("http://192.168.1.23:99999", "Enter only the start of an address"),
        ("https://192.168.1.23:8000", "plain HTTP"),
    ],
)
def test_a_wrong_address_is_explained_next_to_the_field_and_nothing_is_saved(
    organiser_client, tournament, typed, error
):
    answer = organiser_client.post(PAGE, {"address": typed}, **LAPTOP)
    assert answer.status_code == 200 and error in answer.content.decode()
    assert not TournamentVenue.objects.exists()


@pytest.mark.parametrize(
    "typed, kept",
    [
        ("http://192.168.001.010", "http://192.168.1.10"),
        ("192.168.1.23:8000", "http://192.168.1.23:8000"),
        ("HTTP://192.168.1.23:80/", "http://192.168.1.23"),
        ("http://[::ffff:192.168.1.23]:8000", "http://192.168.1.23:8000"),
        ("http://[FD00:0::5]:8000", "http://[fd00::5]:8000"),
        ("http://Turniej.Example.org.:8000", "http://turniej.example.org:8000"),  # in ALLOWED_HOSTS
    ],
)
def test_an_address_is_saved_as_links_carry_it(organiser_client, tournament, typed, kept, settings):
    settings.SERVED_HOSTS = ["turniej.example.org"]
    assert organiser_client.post(PAGE, {"address": typed}, **LAPTOP).status_code == 302
    assert saved(tournament) == kept


def test_https_is_accepted_when_the_server_is_reached_over_https(organiser_client, tournament, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    organiser_client.post(PAGE, {"address": "https://192.168.1.23"}, HTTP_X_FORWARDED_PROTO="https", **LAPTOP)
    assert saved(tournament) == "https://192.168.1.23"


def test_this_machines_own_name_may_be_saved(organiser_client, tournament, monkeypatch):
    monkeypatch.setattr(venue.socket, "gethostname", lambda: "Laptop-Anna")
    organiser_client.post(PAGE, {"address": "http://laptop-anna.local:8000"}, **LAPTOP)
    assert saved(tournament) == "http://laptop-anna.local:8000"


def test_public_url_wins_and_the_page_says_where_to_change_it(organiser_client, tournament, settings):
    settings.PUBLIC_URL = "http://rummikub.example:8000"
    organiser_client.post(PAGE, {"address": "http://192.168.1.23:8000"}, **LAPTOP)
    assert not TournamentVenue.objects.exists()
    assert "PUBLIC_URL" in organiser_client.get(PAGE, **LAPTOP).content.decode()


def test_a_saved_address_can_be_forgotten(organiser_client, tournament):
    organiser_client.post(PAGE, {"address": "http://192.168.1.23:8000"}, **LAPTOP)
    organiser_client.post(PAGE, {"forget": "1"}, **LAPTOP)
    assert not TournamentVenue.objects.exists()
    entry = AuditEntry.objects.filter(action="venue_address").latest("pk")
    assert (entry.before, entry.after) == ({"address": "http://192.168.1.23:8000"}, None)


def test_a_name_nobody_configured_is_never_served(organiser_client, tournament, client):
    """Issue 41: saving a name no longer turns its 400 into 200."""
    organiser_client.post(PAGE, {"address": "http://rebind.attacker.example:8441"}, **LAPTOP)
    assert client.get("/", HTTP_HOST="rebind.attacker.example:8441").status_code == 400
    TournamentVenue.objects.create(tournament=tournament, address="http://rebind.attacker.example:8441")
    assert client.get("/", HTTP_HOST="rebind.attacker.example:8441").status_code == 400  # even if stored somehow


def test_each_tournament_keeps_its_own_address_for_its_own_links(tournament):
    """Issue 41: B's organiser sets B's address; A's links keep A's."""
    other = seated_tournament(8, slug="turniej-b", states=("started",))
    organiser_a, organiser_b = organiser_of(tournament, "anna"), organiser_of(other, "bogdan")
    organiser_a.post(PAGE, {"address": "http://192.168.1.23:8000"})
    organiser_b.post("/accounts/venue/turniej-b/", {"address": "http://192.168.1.99:8000"})
    assert saved(tournament) == "http://192.168.1.23:8000" and saved(other) == "http://192.168.1.99:8000"
    links = organiser_a.post("/accounts/device/senioriada/", {"label": "Stół 1", "valid_hours": "16"}, follow=True)
    assert "http://192.168.1.23:8000/accounts/device/sign-in/" in links.content.decode()
    sheet = organiser_b.get("/print/turniej-b/round/1/table/1/score-sheet.pdf").content
    assert qr_payloads(sheet) == {qr_matrix("http://192.168.1.99:8000/referee/turniej-b/round/1/table/1/")}


def test_only_the_tournaments_organisers_set_or_forget_it(referee_client, tournament):
    organiser_a = organiser_of(tournament, "anna")
    organiser_a.post(PAGE, {"address": "http://192.168.1.23:8000"})
    other = seated_tournament(8, slug="turniej-b", states=("started",))
    organiser_b = organiser_of(other, "bogdan")
    assert organiser_b.get(PAGE).status_code == 404
    assert organiser_b.post(PAGE, {"address": "http://192.168.1.99:8000"}).status_code == 404
    assert organiser_b.post(PAGE, {"forget": "1"}).status_code == 404
    assert referee_client.get(PAGE, **LAPTOP).status_code == 403
    assert referee_client.post(PAGE, {"forget": "1"}, **LAPTOP).status_code == 403
    assert organiser_b.get("/accounts/venue/no-such-tournament/").status_code == 404
    assert saved(tournament) == "http://192.168.1.23:8000"


def test_the_old_address_leads_to_the_tournaments_page_or_a_choice(organiser_client, tournament):
    answer = organiser_client.get("/accounts/venue/?next=/staff/senioriada/", **LAPTOP)
    assert answer.status_code == 302 and answer["Location"] == PAGE + "?next=%2Fstaff%2Fsenioriada%2F"
    seated_tournament(8, slug="turniej-b", states=("started",))
    choice = organiser_client.get("/accounts/venue/", **LAPTOP).content.decode()
    assert f'href="{PAGE}"' in choice and 'href="/accounts/venue/turniej-b/"' in choice


def test_the_old_address_is_refused_to_staff_who_organise_nothing(referee_client, tournament):
    assert referee_client.get("/accounts/venue/", **LAPTOP).status_code == 403


def test_inside_a_container_the_containers_own_address_is_never_offered(monkeypatch):
    monkeypatch.setenv("CONTAINER", "1")
    monkeypatch.setattr(venue, "lan_address", lambda: "10.88.0.5")
    assert venue.network_host("0.0.0.0") is None
    assert "set the venue address" in venue.startup_lines("0.0.0.0", "8000", "")[1]
