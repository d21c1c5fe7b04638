"""`make run HOST=0.0.0.0` for real: it prints the laptop's network address, and the score sheets
and the tablets' sign-in sheet printed from the laptop itself (http://127.0.0.1) carry it."""

import re
import urllib.parse
import urllib.request

import pytest

from accounts import venue
from printing.testing import pdf_text, qr_matrix, qr_payloads
from tests.support.http_client import Client
from tests.support.server import MakeRun

pytestmark = [pytest.mark.server, pytest.mark.own_database]
SLUG = "senioriada-demo"


@pytest.fixture
def served(tmp_path):
    server = MakeRun(tmp_path)
    try:
        yield server.wait()
    finally:
        server.stop()


def organiser_session(server):
    logins = (server.folder / "demo-logins.txt").read_text(encoding="utf-8").splitlines()
    username, password = next(line.split()[-2:] for line in logins if line.split()[-2] == "organizator")
    return Client(f"http://127.0.0.1:{server.port}").login(username, password)


def fetch(client, path, data=None):
    """(content type, body bytes) of a GET, or of a POST of `data` with the CSRF token."""
    headers = {"X-CSRFToken": client.cookie("csrftoken")} if data is not None else {}
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    request = urllib.request.Request(client.base_url + path, data=body, headers=headers)
    with client.opener.open(request, timeout=60) as answer:
        return answer.headers["Content-Type"], answer.read()


def test_make_run_on_the_network_prints_and_serves_the_network_address(served):
    lan = venue.lan_address()
    laptop = organiser_session(served)
    sheet_type, sheet = fetch(laptop, f"/print/{SLUG}/round/1/table/1/score-sheet.pdf")
    if lan is None:  # a machine without a network: the organiser is warned instead
        assert "No network address found" in served.text
        assert sheet_type.startswith("text/html") and b"Tablets and phones cannot open these links" in sheet
        return
    base = f"http://{lan}:{served.port}"
    assert f"Tablets and phones (same network): {base}/" in served.text
    assert sheet_type == "application/pdf"
    assert qr_payloads(sheet) == {qr_matrix(f"{base}/referee/{SLUG}/round/1/table/1/")}

    form = {"label": "Tablet", "valid_hours": "16", "count": "2"}
    devices_type, devices = fetch(laptop, f"/print/{SLUG}/devices.pdf", form)
    assert devices_type == "application/pdf"
    links = re.findall(r"https?://[^/\s]+/accounts/device/sign-in/[A-Za-z0-9_-]+/", "".join(pdf_text(devices).split()))
    assert len(links) == 2 and all(link.startswith(f"{base}/accounts/device/sign-in/") for link in links)
    # A tablet opens the printed link at the network address and signs in.
    token = links[0].rstrip("/").rsplit("/", 1)[1]
    tablet = Client(base).device_sign_in(token)
    assert tablet.get(f"/referee/{SLUG}/").status == 200
