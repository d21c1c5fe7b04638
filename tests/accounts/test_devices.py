"""Device sign-in links: a tablet becomes a referee of one tournament only."""

import datetime
import hashlib
import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import DeviceLink, Role, TournamentRole
from accounts.services import create_device_link, revoke_device_link
from organiser.interchange import import_tournament
from tests.factories import build, example_one, sheet_url, started_round, table, tournament_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])


@pytest.fixture
def other_tournament(tournament):
    data = tournament_data(4, [started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])
    data["tournament"]["slug"] = "other"
    return import_tournament(data)


def sign_in_path(token):
    return reverse("accounts:device_sign_in", kwargs={"token": token})


def test_a_link_has_a_long_random_token_stored_only_as_its_hash(tournament, organiser):
    link, token = create_device_link(tournament, label="Tablet 1", created_by=organiser)
    assert len(token) >= 43  # 32 random bytes: 256 bits
    assert link.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert not DeviceLink.objects.filter(token_hash=token).exists()
    assert TournamentRole.objects.get(user=link.user).role == Role.REFEREE
    assert not link.user.has_usable_password()
    assert timezone.now() + datetime.timedelta(hours=15) < link.expires_at


def test_the_organiser_creates_a_link_and_sees_its_qr_code_once(organiser_client, tournament):
    page = reverse("accounts:device_links", kwargs={"slug": "test"})
    response = organiser_client.post(page, {"label": "Tablet 3", "valid_hours": "16"}, HTTP_ORIGIN="http://testserver")
    assert response.status_code == 302 and response["Location"] == page
    html = organiser_client.get(page).content.decode()
    url = re.search(r'value="(http://testserver/accounts/device/sign-in/[^"]+/)"', html).group(1)
    assert "<svg" in html and "Tablet 3" in html
    token = url.rstrip("/").rsplit("/", 1)[1]
    assert DeviceLink.objects.get().token_hash == hashlib.sha256(token.encode()).hexdigest()
    again = organiser_client.get(page).content.decode()
    assert token not in again and "<svg" not in again and "Tablet 3" in again


def test_only_the_organiser_manages_links(head_referee_client, tournament):
    page = reverse("accounts:device_links", kwargs={"slug": "test"})
    assert head_referee_client.get(page).status_code == 403
    assert head_referee_client.post(page, {"label": "x", "valid_hours": "16"}).status_code == 403
    assert not DeviceLink.objects.exists()


def test_opening_the_link_asks_first_and_signing_in_leaves_the_token_url(client, tournament):
    link, token = create_device_link(tournament, label="Tablet 1")
    confirm = client.get(sign_in_path(token))
    assert confirm.status_code == 200
    assert "Senioriada Test" in confirm.content.decode()
    assert SESSION_KEY not in client.session
    assert confirm["Referrer-Policy"] == "origin"  # the token never leaves in a Referer header
    response = client.post(sign_in_path(token), HTTP_ORIGIN="http://testserver")
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:home", kwargs={"slug": "test"})
    assert token not in response["Location"]
    assert client.session[SESSION_KEY] == str(link.user.pk)
    assert client.session.get_expiry_date() <= link.expires_at
    assert client.get(sheet_url()).status_code == 200
    link.refresh_from_db()
    assert link.used_at is not None


def test_a_link_signs_in_one_tablet_once(client, tournament):
    """A second device confirming the same link is refused and told to ask for a new link."""
    link, token = create_device_link(tournament, label="Tablet 1")
    assert client.post(sign_in_path(token)).status_code == 302
    second = Client()
    for response in (second.get(sign_in_path(token)), second.post(sign_in_path(token))):
        assert response.status_code == 410
        html = response.content.decode()
        assert "This link has already been used" in html and "Ask the organiser for a new link" in html
        assert "Tablet 1" in html
    assert SESSION_KEY not in second.session
    assert second.get(sheet_url()).status_code == 302  # to the sign-in page
    assert client.get(sheet_url()).status_code == 200  # the first tablet works on


def test_the_signed_in_tablet_opening_its_link_again_is_sent_to_its_pages(client, tournament):
    _, token = create_device_link(tournament, label="Tablet 1")
    client.post(sign_in_path(token))
    for response in (client.get(sign_in_path(token)), client.post(sign_in_path(token))):
        assert response.status_code == 302
        assert response["Location"] == reverse("scoring:home", kwargs={"slug": "test"})


def test_of_two_tablets_confirming_at_once_one_signs_in(tournament, monkeypatch):
    """The redeem is a compare-and-swap: of two requests that both read the link unused, one wins."""
    from accounts import selectors, services

    _, token = create_device_link(tournament, label="Tablet 1")
    read_before_either_wrote = selectors.usable_link(token)
    monkeypatch.setattr(services, "usable_link", lambda _token: read_before_either_wrote)
    assert services.redeem_device_link(token) is not None
    assert services.redeem_device_link(token) is None


def test_the_organiser_sees_which_links_have_signed_in(organiser_client, tournament):
    used, token = create_device_link(tournament, label="Tablet 1")
    create_device_link(tournament, label="Tablet 2")
    Client().post(sign_in_path(token))
    html = organiser_client.get(reverse("accounts:device_links", kwargs={"slug": "test"})).content.decode()
    assert "in use" in html and "not used yet" in html


def test_a_device_session_is_refused_on_another_tournament(client, tournament, other_tournament):
    _, token = create_device_link(tournament, label="Tablet 1")
    client.post(sign_in_path(token))
    assert client.get(sheet_url(slug="other")).status_code == 404
    response = client.post(sheet_url("game_save", slug="other", game_number=1), example_one())
    assert response.status_code == 404
    assert client.get(reverse("scoring:home", kwargs={"slug": "other"})).status_code == 404
    assert client.get(reverse("accounts:device_links", kwargs={"slug": "test"})).status_code == 403


@pytest.mark.parametrize("token", ["not-a-token", "x" * 43, "a" * 500])
def test_an_unknown_token_shows_a_clear_page(client, tournament, token):
    for response in (client.get(sign_in_path(token)), client.post(sign_in_path(token))):
        assert response.status_code == 404
        assert "This link is not valid" in response.content.decode()
    assert SESSION_KEY not in client.session


def test_an_expired_link_no_longer_signs_in(client, tournament):
    link, token = create_device_link(tournament, label="Tablet 1")
    DeviceLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - datetime.timedelta(minutes=1))
    assert client.post(sign_in_path(token)).status_code == 404
    assert SESSION_KEY not in client.session


def test_revoking_a_link_signs_the_tablet_out(organiser_client, tournament):
    link, token = create_device_link(tournament, label="Tablet 1")
    tablet = Client()
    tablet.post(sign_in_path(token))
    assert tablet.get(sheet_url()).status_code == 200
    response = organiser_client.post(
        reverse("accounts:device_link_revoke", kwargs={"slug": "test", "link_id": link.pk})
    )
    assert response.status_code == 302
    link.refresh_from_db()
    assert link.revoked_at is not None
    assert tablet.get(sheet_url()).status_code == 302  # back to the login page
    assert tablet.post(sign_in_path(token)).status_code == 404


def test_revoking_a_link_of_another_tournament_is_404(organiser_client, tournament, other_tournament):
    link, _ = create_device_link(other_tournament, label="Tablet 1")
    url = reverse("accounts:device_link_revoke", kwargs={"slug": "test", "link_id": link.pk})
    assert organiser_client.post(url).status_code == 404
    revoke_device_link(link)
    assert not TournamentRole.objects.filter(user=link.user).exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tablet_signs_in_with_the_link_in_chromium(live_server, new_page):
    """The whole flow in a real browser, whose CSRF headers depend on the Referrer-Policy."""
    tournament = build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])
    _, token = create_device_link(tournament, label="Tablet 1")
    page = new_page()
    page.goto(live_server.url + sign_in_path(token))
    page.click(".device-confirm button[type=submit]")
    page.wait_for_url(f"{live_server.url}/referee/test/")
    assert token not in page.url
    assert "Table 1" in page.content()


def test_making_and_revoking_links_is_audited_without_the_token(tournament, organiser):
    from tournament.models import AuditEntry

    link, token = create_device_link(tournament, label="Tablet 1", created_by=organiser)
    revoke_device_link(link, revoked_by=organiser)
    revoke_device_link(link, revoked_by=organiser)  # a second tap: logged once
    entries = list(AuditEntry.objects.filter(tournament=tournament).order_by("pk"))
    assert [(e.action, e.user_name) for e in entries] == [
        ("device_link_created", "organiser"),
        ("device_link_revoked", "organiser"),
    ]
    assert entries[0].after["label"] == "Tablet 1" and token not in str(entries[0].after)


@pytest.mark.parametrize("label, stored", [("x" * 77, True), ("x" * 80, False)])
def test_a_printed_sheets_numbered_names_fit_the_stored_name(organiser_client, tournament, label, stored):
    data = {"label": label, "valid_hours": "16", "count": "12", "earlier": "keep", "address": "loopback"}
    response = organiser_client.post("/print/test/devices.pdf", data)
    assert response.status_code < 500
    labels = list(DeviceLink.objects.filter(tournament=tournament).values_list("label", flat=True))
    assert (f"{label} 12" in labels) is stored and all(len(name) <= 80 for name in labels)
