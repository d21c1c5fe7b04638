"""What every response is held to (config/security.py): the methods the app answers, no stored
copy of a staff page, and a failed form check that never spreads a tablet's sign-in token."""

import pytest
from django.test import Client

from accounts.services import create_device_link
from tests.factories import build, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return build(
        4,
        rounds=[
            {
                "number": 1,
                "kind": "qualifying",
                "state": "started",
                "tables": [table(1, ["p1", "p2", "p3", "p4"], state="empty")],
            }
        ],
    )


@pytest.mark.parametrize("method", ["put", "patch", "delete", "options"])
@pytest.mark.parametrize("path", ["/t/test/standings/", "/staff/test/", "/referee/test/round/1/table/1/"])
def test_methods_no_page_takes_are_refused_with_405(organiser_client, tournament, method, path):
    answer = getattr(organiser_client, method)(path)
    assert answer.status_code == 405 and answer["Allow"] == "GET, HEAD, POST"
    assert "This address only takes a button press" in answer.content.decode()
    assert_security_headers(answer)


SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def assert_security_headers(answer):
    """The headers every answer carries, whichever middleware or view gave it."""
    for header, value in SECURITY_HEADERS.items():
        assert answer.get(header) == value, header
    assert "frame-ancestors 'none'" in answer["Content-Security-Policy"]


@pytest.mark.parametrize("path", ["/", "/t/test/standings/", "/staff/test/", "/no-such-page/"])
def test_an_answer_to_a_foreign_host_name_carries_the_security_headers(client, tournament, path):
    answer = client.get(path, HTTP_HOST="rebinding.example")
    assert answer.status_code == 400
    assert_security_headers(answer)


@pytest.mark.parametrize(
    "path", ["/", "/t/test/standings/", "/staff/test/", "/no-such-page/", "/staff/test/players/check-in-everyone/"]
)
def test_ordinary_answers_and_errors_carry_the_security_headers(organiser_client, tournament, path):
    assert_security_headers(organiser_client.get(path))


@pytest.mark.parametrize(
    "path",
    [
        "/staff/test/",
        "/referee/test/round/1/table/1/",
        "/staff/test/backups/download/",
        "/print/test/standings.pdf",
        "/t/test/results-control/",
        "/accounts/",
    ],
)
def test_staff_and_referee_responses_are_never_stored(organiser_client, tournament, path):
    answer = organiser_client.get(path)
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "no-store"


def test_public_pages_keep_their_caching(client, tournament):
    assert "no-store" not in client.get("/t/test/standings/").get("Cache-Control", "")


def test_a_failed_form_check_on_a_tablets_sign_in_keeps_the_token_out_of_any_address(tournament):
    _link, token = create_device_link(tournament, label="Tablet 1")
    tablet = Client(enforce_csrf_checks=True)
    answer = tablet.post(f"/accounts/device/sign-in/{token}/")
    assert answer.status_code == 403 and "Location" not in answer
    assert "Open the sign-in link again" in answer.content.decode()
