""" "Send by e-mail" beside the one-time links (issue 47): an invitation into the team and a new
organiser's set-password link go to the outbox, audited; only a link the server made and that
still works is sent, and the page shows the link again."""

import re

import pytest
from django.contrib.auth.models import User

from accounts.models import Membership, Role
from tests.factories import build
from tournament.models import AuditEntry, OutgoingMail

pytestmark = pytest.mark.django_db

INVITATION = re.compile(r"https?://[^<\s]+/accounts/invitation/([\w-]+)/")
SET_PASSWORD = re.compile(r"https?://[^<\s\"]+(/accounts/set-password/[^<\s\"]+/)")


@pytest.fixture
def host(organiser):
    return Membership.objects.get(user=organiser).host


def test_an_invitation_is_sent_by_e_mail_and_shown_again(organiser_client, host, settings):
    settings.EMAIL_HOST = ""
    tournament = build(4)
    organiser_client.post(f"/accounts/team/{host.slug}/invite/", {"role": Role.REFEREE, "tournament": tournament.pk})
    page = organiser_client.get(f"/accounts/team/{host.slug}/").content.decode()
    token = INVITATION.search(page)[1]
    assert "Send by e-mail" in page
    sent = organiser_client.post(
        f"/accounts/team/{host.slug}/invitation/send/", {"link": token, "email": "ewa@example.pl"}, follow=True
    )
    text = sent.content.decode()
    assert "waits in the outbox: no mail server is set up" in text and token in text  # the link again
    mail = OutgoingMail.objects.get()
    assert mail.to == "ewa@example.pl" and f"/accounts/invitation/{token}/" in mail.text and mail.host == host
    assert f"/accounts/invitation/{token}/" in mail.html
    assert AuditEntry.objects.filter(action="invitation_mailed", host=host).count() == 1


@pytest.mark.parametrize("token", ["made-up-token", ""])
def test_a_link_the_server_did_not_make_is_not_sent(organiser_client, host, token):
    organiser_client.post(f"/accounts/team/{host.slug}/invitation/send/", {"link": token, "email": "x@example.pl"})
    assert not OutgoingMail.objects.exists()


def test_a_bad_address_is_refused_and_nothing_is_sent(organiser_client, host):
    tournament = build(4)
    organiser_client.post(f"/accounts/team/{host.slug}/invite/", {"role": Role.REFEREE, "tournament": tournament.pk})
    token = INVITATION.search(organiser_client.get(f"/accounts/team/{host.slug}/").content.decode())[1]
    answer = organiser_client.post(
        f"/accounts/team/{host.slug}/invitation/send/", {"link": token, "email": "not an address"}, follow=True
    )
    assert "Enter an e-mail address such as name@example.pl." in answer.content.decode()
    assert not OutgoingMail.objects.exists()


def test_a_new_organisers_set_password_link_is_sent_by_e_mail(client, settings):
    settings.EMAIL_HOST = "mail.example.test"
    operator = User.objects.create_superuser("operator", password="long-enough-password-1")
    client.force_login(operator)
    client.post("/accounts/operator/organisations/", {"name": "UTW Gdańsk", "slug": "utw-gdansk", "username": "ewa.g"})
    page = client.get("/accounts/operator/organisations/").content.decode()
    path = SET_PASSWORD.search(page)[1]
    answer = client.post(
        "/accounts/operator/organisations/send/", {"link": path, "email": "ewa@example.pl"}, follow=True
    )
    assert "The link is on its way to ewa@example.pl." in answer.content.decode()
    mail = OutgoingMail.objects.get()
    assert path in mail.text and "ewa.g" in mail.text and mail.subject == "Your organiser account at UTW Gdańsk"
    assert not client.post(
        "/accounts/operator/organisations/send/", {"link": "/accounts/login/", "email": "a@b.pl"}
    ).context
    assert OutgoingMail.objects.count() == 1
