"""The venue address: every link and QR code made for another device carries an address that
tablets and phones can open, never 127.0.0.1 or localhost (accounts/venue.py)."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, RequestFactory
from pypdf import PdfReader

from accounts import venue
from accounts.models import DeviceLink
from accounts.services import create_device_link
from printing.testing import pdf_text, qr_matrix, qr_payloads, seated_tournament, strict_pdf_rendering  # noqa: F401
from tests.support.produced import produced

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db  # the venue address an organiser saved is read from the database
LAN = "192.168.7.23"
LAPTOP = "127.0.0.1:8000"
SHEET = "/print/senioriada/round/1/table/1/score-sheet.pdf"
CARDS = "/print/senioriada/round/1/table-cards.pdf"
DEVICES = "/print/senioriada/devices.pdf"
DEVICE_FORM = {"label": "Tablet", "valid_hours": "16", "count": "2"}


@pytest.fixture
def on_the_network(settings, monkeypatch):
    """The server as `make run HOST=0.0.0.0` starts it, on a laptop whose network address is LAN."""
    settings.LISTEN_HOST = "0.0.0.0"
    monkeypatch.setattr(venue, "lan_address", lambda: LAN)


@pytest.fixture
def laptop(organiser):
    """The organiser's browser on the laptop itself, at http://127.0.0.1:8000."""
    client = Client(HTTP_HOST=LAPTOP)
    client.force_login(organiser)
    return client


@pytest.fixture
def tournament(db):
    return seated_tournament(8)


def sign_in_links(text):
    return re.findall(r"https?://[^/\s]+/accounts/device/sign-in/[A-Za-z0-9_-]+/", "".join(text.split()))


# ---------------------------------------------------------------- PUBLIC_URL


@pytest.mark.parametrize(
    "value, expected",
    [
        ("", ""),
        ("http://192.168.1.10:8000", "http://192.168.1.10:8000"),
        (" https://Turniej.Example.org/ ", "https://turniej.example.org"),
        ("http://[fd00::5]:8000", "http://[fd00::5]:8000"),
    ],
)
def test_a_public_url_is_kept_without_its_trailing_slash(value, expected):
    assert venue.check_public_url(value) == expected


@pytest.mark.parametrize(
    "value, words",
    [
        ("192.168.1.10:8000", "http:// or https://"),
        ("ftp://192.168.1.10", "http:// or https://"),
        ("http://", "http:// or https://"),
        ("http://192.168.1.10:port", "http:// or https://"),
        ("http://192.168.1.10:8000/t/senioriada/", "only the scheme, the host and the port"),
        ("http://192.168.1.10:8000/?x=1", "only the scheme, the host and the port"),
        ("http://user:secret@192.168.1.10", "only the scheme, the host and the port"),
    ],
)
def test_a_public_url_that_is_not_an_http_address_of_the_server_is_refused(value, words):
    with pytest.raises(venue.PublicUrlError) as refusal:
        venue.check_public_url(value)
    assert words in str(refusal.value) and repr(value) in str(refusal.value)


def test_the_server_refuses_to_start_with_a_bad_public_url():
    env = {**os.environ, "PUBLIC_URL": "tablets.local:8000", "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert (
        "PUBLIC_URL must be an http:// or https:// address such as http://192.168.1.10:8000; got 'tablets.local:8000'."
        in result.stderr
    )


# ---------------------------------------------------------------- where the address comes from


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("127.0.1.1", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("[::1]", True),
        ("0.0.0.0", True),
        ("tablet.localhost", True),
        ("192.168.1.10", False),
        ("turniej.example.org", False),
        ("testserver", False),
        ("[fd00::5]", False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert venue.is_loopback(host) is loopback


def request_to(host, secure=False):
    return RequestFactory().get("/", HTTP_HOST=host, secure=secure)


def test_a_request_by_the_network_address_keeps_it(settings):
    settings.LISTEN_HOST = ""
    address = venue.venue_address(request_to("192.168.1.10:8000"))
    assert (address.base, address.source, address.loopback) == ("http://192.168.1.10:8000", "request", False)
    assert venue.venue_address(request_to("turniej.example.org", secure=True)).base == "https://turniej.example.org"


def test_a_request_to_the_laptop_itself_gets_the_laptops_network_address(on_the_network):
    address = venue.venue_address(request_to(LAPTOP))
    assert (address.base, address.source, address.loopback) == (f"http://{LAN}:8000", "network", False)
    assert venue.absolute_url(request_to("localhost:8000"), None, "/t/x/") == f"http://{LAN}:8000/t/x/"


def test_a_server_listening_on_one_network_address_uses_it(settings):
    settings.LISTEN_HOST = "10.0.0.7"
    assert venue.venue_address(request_to(LAPTOP)).base == "http://10.0.0.7:8000"


@pytest.mark.parametrize("listen_host", ["127.0.0.1", "localhost", ""])
def test_a_server_only_this_computer_can_reach_is_marked_loopback(settings, listen_host):
    settings.LISTEN_HOST = listen_host
    address = venue.venue_address(request_to(LAPTOP))
    assert (address.base, address.loopback) == ("http://127.0.0.1:8000", True)


def test_no_network_address_on_a_network_server_is_marked_loopback(settings, monkeypatch):
    settings.LISTEN_HOST = "0.0.0.0"
    monkeypatch.setattr(venue, "lan_address", lambda: None)
    assert venue.venue_address(request_to(LAPTOP)).loopback


def test_public_url_overrides_everything(settings, on_the_network):
    settings.PUBLIC_URL = "https://turniej.example.org"
    for host in (LAPTOP, "192.168.1.10:8000"):
        address = venue.venue_address(request_to(host))
        assert (address.base, address.source) == ("https://turniej.example.org", "setting")
    settings.PUBLIC_URL = "http://localhost:8000"
    assert venue.venue_address(request_to("192.168.1.10:8000")).loopback  # set, but still this computer only


class FakeSocket:
    """A UDP socket whose connect() gives the local address in `routes` (OSError: no route)."""

    routes = {}

    def __init__(self, *args):
        self.local = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, destination):
        local = self.routes.get(destination[0])
        if local is None:
            raise OSError("Network is unreachable")
        self.local = local

    def getsockname(self):
        return (self.local, 40000)


def test_the_network_address_is_found_by_routing_without_sending(monkeypatch):
    monkeypatch.setattr(venue.socket, "socket", FakeSocket)
    monkeypatch.setattr(venue.socket, "getaddrinfo", lambda *args: [(2, 2, 17, "", ("127.0.1.1", 0))])
    FakeSocket.routes = {"10.254.254.254": "192.168.1.10"}
    assert venue.lan_address() == "192.168.1.10"
    # No default route: the laptop's own network (here 192.168.x.x) still answers.
    FakeSocket.routes = {"192.168.254.254": "192.168.0.15"}
    assert venue.lan_address() == "192.168.0.15"
    # Only loopback and link-local addresses: there is no network address.
    FakeSocket.routes = {"10.254.254.254": "169.254.3.4"}
    assert venue.lan_address() is None
    # No route at all: the host name's address, when it is not a loopback one.
    FakeSocket.routes = {}
    monkeypatch.setattr(venue.socket, "getaddrinfo", lambda *args: [(2, 2, 17, "", ("10.1.2.3", 0))])
    assert venue.lan_address() == "10.1.2.3"


def test_make_run_prints_the_address_for_tablets(monkeypatch):
    monkeypatch.setattr(venue, "lan_address", lambda: LAN)
    assert venue.startup_lines("0.0.0.0", "8000", "") == [
        f"Tablets and phones (same network): http://{LAN}:8000/",
        "This computer: http://127.0.0.1:8000/",
    ]
    assert (
        venue.startup_lines("0.0.0.0", "8000", "http://turniej.lan")[0]
        == "Tablets and phones: http://turniej.lan/ (PUBLIC_URL)"
    )
    assert venue.startup_lines("127.0.0.1", "8000", "")[1] == (
        "Tablets and phones cannot reach it: start with `make run HOST=0.0.0.0` (or set PUBLIC_URL)."
    )
    monkeypatch.setattr(venue, "lan_address", lambda: None)
    assert "No network address found" in venue.startup_lines("0.0.0.0", "8000", "")[1]


def test_the_makefile_passes_the_listening_address_to_the_production_start():
    """`make run HOST=…` hands the address to bin/serve, which prints it and tells the server."""
    result = subprocess.run(
        ["make", "-n", "run", "HOST=0.0.0.0", "PORT=8123"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert re.search(r"^HOST=0\.0\.0\.0 PORT=8123 \S+ bin/serve$", result.stdout, flags=re.M)
    assert "runserver" not in result.stdout


# ---------------------------------------------------------------- what is printed and shown


def test_score_sheets_carry_the_network_address(laptop, tournament, on_the_network):
    content = laptop.get(SHEET).content
    assert qr_payloads(content) == {qr_matrix(f"http://{LAN}:8000/referee/senioriada/round/1/table/1/")}


@pytest.mark.django_db(transaction=True)
def test_table_cards_carry_the_public_page_at_the_network_address(laptop, tournament, on_the_network):
    content = produced(laptop, CARDS).content
    assert qr_payloads(content) == {qr_matrix(f"http://{LAN}:8000/t/senioriada/")}
    text = pdf_text(content)
    assert "Players: scan to find your table and follow the results" in text
    assert f"http://{LAN}:8000/t/senioriada/" in text


def test_the_device_sheet_carries_the_network_address(laptop, tournament, on_the_network):
    content = laptop.post(DEVICES, DEVICE_FORM).content
    links = sign_in_links(pdf_text(content))
    assert len(links) == 2 and all(link.startswith(f"http://{LAN}:8000/accounts/device/sign-in/") for link in links)
    assert qr_payloads(content) == {qr_matrix(link) for link in links}


def test_public_url_is_printed(laptop, tournament, settings):
    settings.PUBLIC_URL = "https://turniej.example.org"
    assert qr_payloads(laptop.get(SHEET).content) == {
        qr_matrix("https://turniej.example.org/referee/senioriada/round/1/table/1/")
    }
    links = sign_in_links(pdf_text(laptop.post(DEVICES, DEVICE_FORM).content))
    assert links and all(link.startswith("https://turniej.example.org/accounts/device/sign-in/") for link in links)


PAPER_ONLY_NOTE = "Paper only: printed without QR codes or links"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", [SHEET, CARDS, "/print/senioriada/round/1/score-sheets.pdf"])
def test_at_a_loopback_address_score_sheets_and_table_cards_are_printed_on_paper_only(
    laptop, tournament, settings, path
):
    """The evening before, or an event with no tablets: the same documents without QR codes or
    links, saying so at the foot of every page."""
    settings.LISTEN_HOST = "127.0.0.1"
    response = produced(laptop, path)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert qr_payloads(response.content) == set()
    reader = PdfReader(io.BytesIO(response.content))
    for page in reader.pages:
        text = " ".join(page.extract_text().split())
        assert PAPER_ONLY_NOTE in text
        assert "http" not in text and "scan" not in text
    # The organiser may still print the loopback address, knowingly.
    anyway = produced(laptop, path, {"address": "loopback"})
    assert anyway["Content-Type"] == "application/pdf" and PAPER_ONLY_NOTE not in pdf_text(anyway.content)
    assert qr_payloads(anyway.content) <= {
        qr_matrix("http://127.0.0.1:8000/referee/senioriada/round/1/table/1/"),
        qr_matrix("http://127.0.0.1:8000/referee/senioriada/round/1/table/2/"),
        qr_matrix("http://127.0.0.1:8000/t/senioriada/"),
    }


@pytest.mark.django_db(transaction=True)
def test_with_a_network_address_the_documents_keep_their_qr_codes(laptop, tournament, on_the_network):
    for path in (SHEET, CARDS):
        content = produced(laptop, path).content
        assert qr_payloads(content) and PAPER_ONLY_NOTE not in pdf_text(content)


def test_the_print_menu_says_when_it_prints_on_paper_only(laptop, tournament, settings, on_the_network):
    assert "printed without QR codes" not in laptop.get("/print/senioriada/").content.decode()
    settings.LISTEN_HOST = "127.0.0.1"
    html = laptop.get("/print/senioriada/").content.decode()
    assert "Score sheets and table cards are printed without QR codes and links" in html
    assert "make run HOST=0.0.0.0" in html


def test_a_loopback_device_sheet_warns_before_any_link_is_made(laptop, tournament, settings):
    settings.LISTEN_HOST = "127.0.0.1"
    response = laptop.post(DEVICES, DEVICE_FORM)
    html = response.content.decode()
    assert "Tablets and phones cannot open these links" in html and not DeviceLink.objects.exists()
    assert 'method="post"' in html and 'name="count" value="2"' in html and 'name="address" value="loopback"' in html
    anyway = laptop.post(DEVICES, {**DEVICE_FORM, "address": "loopback"})
    assert anyway["Content-Type"] == "application/pdf" and DeviceLink.objects.count() == 2
    assert all(link.startswith("http://127.0.0.1:8000/") for link in sign_in_links(pdf_text(anyway.content)))


def test_the_tablets_page_names_the_address_or_warns(laptop, tournament, settings, on_the_network):
    page = "/accounts/device/senioriada/"
    html = laptop.get(page).content.decode()
    assert f"Tablets and phones open the links at <strong>http://{LAN}:8000</strong>" in html
    laptop.post(page, {"label": "Tablet 1", "valid_hours": "16"})
    assert re.search(
        rf'value="http://{re.escape(LAN)}:8000/accounts/device/sign-in/[^"]+/"', laptop.get(page).content.decode()
    )
    settings.LISTEN_HOST = "127.0.0.1"
    assert "Tablets and phones cannot open these links" in laptop.get(page).content.decode()


def test_at_a_loopback_address_the_tablets_page_warns_instead_of_showing_a_qr_code(laptop, tournament, settings):
    """As the printed sheet does: no link (and no QR code of 127.0.0.1) until the organiser,
    warned, asks for it anyway."""
    settings.LISTEN_HOST = "127.0.0.1"
    page = "/accounts/device/senioriada/"
    response = laptop.post(page, {"label": "Tablet 1", "valid_hours": "16"})
    html = response.content.decode()
    assert response.status_code == 200 and not DeviceLink.objects.exists()
    assert "<svg" not in html and "/accounts/device/sign-in/" not in html
    assert "No link made for “Tablet 1”" in html and "a tablet that scans it opens itself" in html
    for name, value in (("label", "Tablet 1"), ("valid_hours", "16"), ("address", "loopback")):
        assert f'name="{name}" value="{value}"' in html
    anyway = laptop.post(page, {"label": "Tablet 1", "valid_hours": "16", "address": "loopback"})
    assert anyway.status_code == 302 and DeviceLink.objects.count() == 1
    shown = laptop.get(page).content.decode()
    assert "<svg" in shown and 'value="http://127.0.0.1:8000/accounts/device/sign-in/' in shown


# ---------------------------------------------------------------- printing the device sheet again


def test_printing_the_device_sheet_again_offers_to_revoke_the_earlier_links(
    laptop, tournament, on_the_network, organiser
):
    used, _ = create_device_link(tournament, label="Used", created_by=organiser)
    DeviceLink.objects.filter(pk=used.pk).update(used_at="2026-02-10T09:00:00Z")
    unused, _ = create_device_link(tournament, label="Unused", created_by=organiser)
    revoked, _ = create_device_link(tournament, label="Revoked", created_by=organiser)
    DeviceLink.objects.filter(pk=revoked.pk).update(revoked_at="2026-02-10T08:00:00Z")

    asked = laptop.post(DEVICES, DEVICE_FORM)
    html = asked.content.decode()
    assert asked.status_code == 200 and asked["Content-Type"].startswith("text/html")
    assert "2 sign-in links made earlier still work. What should happen to them?" in html
    assert DeviceLink.objects.count() == 3  # nothing made yet
    for value in ("keep", "unused", "all"):
        assert f'name="earlier" value="{value}"' in html
    assert 'name="label" value="Tablet"' in html and 'name="count" value="2"' in html

    def working():
        return set(DeviceLink.objects.filter(revoked_at__isnull=True).values_list("label", flat=True))

    assert laptop.post(DEVICES, {**DEVICE_FORM, "earlier": "unused"})["Content-Type"] == "application/pdf"
    assert working() == {"Used", "Tablet 1", "Tablet 2"}
    assert laptop.post(DEVICES, {**DEVICE_FORM, "earlier": "keep"})["Content-Type"] == "application/pdf"
    assert DeviceLink.objects.filter(revoked_at__isnull=True).count() == 5
    assert laptop.post(DEVICES, {**DEVICE_FORM, "earlier": "all"})["Content-Type"] == "application/pdf"
    assert DeviceLink.objects.filter(revoked_at__isnull=True).count() == 2  # only the sheet just printed
    used.refresh_from_db()
    assert used.revoked_at is not None and not used.user.is_active  # that tablet is signed out


def test_the_tablets_page_asks_about_earlier_links_in_its_print_form(laptop, tournament, on_the_network, organiser):
    page = "/accounts/device/senioriada/"
    assert 'name="earlier"' not in laptop.get(page).content.decode()
    create_device_link(tournament, label="Tablet 1", created_by=organiser)
    html = laptop.get(page).content.decode()
    assert "1 sign-in link made earlier still works. What should happen to it?" in html
    assert html.count('name="earlier"') == 3
