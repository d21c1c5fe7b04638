"""A host organisation's team page: its organisers change a member's role or take them out of the
team with a reason (audited, undone from the answer), never their own nor the last organiser's;
invitations work once, not after expiry or revocation, and only into their own organisation."""

import datetime
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import Invitation, Membership, Role, TournamentRole
from accounts.services import make_member
from accounts.team import accept_invitation, create_invitation
from tests.factories import build
from tournament.models import AuditEntry, HostOrganisation
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db

PASSWORD = "long-enough-password-1"
LINK = re.compile(r"https?://[^<\s]+/accounts/invitation/([\w-]+)/")


@pytest.fixture
def host(organiser):
    return Membership.objects.get(user=organiser).host


@pytest.fixture
def other_host():
    return HostOrganisation.objects.create(name="UTW Kraków", slug="utw-krakow")


@pytest.fixture
def ewa(host):
    user = User.objects.create_user("ewa", password=PASSWORD)
    make_member(user, Role.REFEREE, host)
    return user


def membership(user, host):
    return Membership.objects.filter(user=user, host=host).values_list("role", flat=True).first()


def test_the_page_lists_members_and_the_grants_for_chosen_tournaments(organiser_client, host, ewa):
    tournament = build(4)
    TournamentRole.objects.create(user=User.objects.create_user("piotr"), tournament=tournament, role=Role.HEAD_REFEREE)
    page = organiser_client.get("/accounts/team/", follow=True)
    assert page.redirect_chain[-1][0] == f"/accounts/team/{host.slug}/"
    text = page.content.decode()
    assert "<strong>ewa</strong> · referee" in text and "<strong>organiser</strong> · organiser" in text
    assert "<strong>piotr</strong> · head referee" in text and tournament.name in text


def test_a_role_change_is_audited_with_its_reason_and_undone(organiser_client, organiser, host, ewa):
    member = Membership.objects.get(user=ewa)
    answer = organiser_client.post(
        f"/accounts/team/{host.slug}/member/{member.pk}/", {"role": Role.HEAD_REFEREE, "reason": "sędzia główna w 2027"}
    )
    assert membership(ewa, host) == Role.HEAD_REFEREE
    entry = AuditEntry.objects.get(action="team_role_changed")
    assert (entry.host, entry.tournament, entry.user) == (host, None, organiser)
    assert entry.before == {"user": "ewa", "role": "referee"} and entry.after == {"user": "ewa", "role": "head_referee"}
    assert entry.reason == "sędzia główna w 2027"
    undo = parse_qs(urlsplit(answer.url).query)["changed"][0]
    page = organiser_client.get(answer.url).content.decode()
    assert "ewa was referee before this change." in page
    assert "organiser: role changed · ewa (head referee) — sędzia główna w 2027" in page
    organiser_client.post(f"/accounts/team/{host.slug}/restore/", {"undo": undo})
    assert membership(ewa, host) == Role.REFEREE
    organiser_client.post(f"/accounts/team/{host.slug}/restore/", {"undo": undo})  # a second tap: nothing more
    assert AuditEntry.objects.filter(action="team_member_restored").count() == 1


def test_a_removal_takes_the_member_out_and_the_undo_brings_them_back(organiser_client, host, ewa):
    member = Membership.objects.get(user=ewa)
    answer = organiser_client.post(
        f"/accounts/team/{host.slug}/member/{member.pk}/", {"role": "remove", "reason": "odeszła"}
    )
    assert membership(ewa, host) is None
    assert AuditEntry.objects.get(action="team_member_removed").before == {"user": "ewa", "role": "referee"}
    undo = parse_qs(urlsplit(answer.url).query)["changed"][0]
    organiser_client.post(f"/accounts/team/{host.slug}/restore/", {"undo": undo})
    assert membership(ewa, host) == Role.REFEREE


def test_no_reason_changes_nothing(organiser_client, host, ewa):
    member = Membership.objects.get(user=ewa)
    organiser_client.post(f"/accounts/team/{host.slug}/member/{member.pk}/", {"role": "remove", "reason": ""})
    assert membership(ewa, host) == Role.REFEREE and not AuditEntry.objects.exists()


def test_neither_ones_own_role_nor_the_last_organisers_can_be_taken(client, organiser_client, organiser, host, ewa):
    own = Membership.objects.get(user=organiser)
    organiser_client.post(f"/accounts/team/{host.slug}/member/{own.pk}/", {"role": "referee", "reason": "x"})
    assert membership(organiser, host) == Role.ORGANISER
    # A second organiser may demote the first, but then not themselves: one organiser is left.
    make_member(ewa, Role.ORGANISER, host)
    client.force_login(ewa)
    client.post(f"/accounts/team/{host.slug}/member/{own.pk}/", {"role": "referee", "reason": "zamiana"})
    assert membership(organiser, host) == Role.REFEREE
    superuser = User.objects.create_superuser("operator", password=PASSWORD)
    client.force_login(superuser)
    ewa_member = Membership.objects.get(user=ewa)
    answer = client.post(
        f"/accounts/team/{host.slug}/member/{ewa_member.pk}/", {"role": "remove", "reason": "x"}, follow=True
    )
    assert membership(ewa, host) == Role.ORGANISER
    assert "The organisation needs at least one organiser" in answer.content.decode()


def test_another_organisations_team_is_404_to_an_organiser(organiser_client, other_host):
    assert organiser_client.get(f"/accounts/team/{other_host.slug}/").status_code == 404


def test_the_team_is_404_to_a_head_referee(head_referee_client, host):
    assert head_referee_client.get("/accounts/team/").status_code == 404
    assert head_referee_client.get(f"/accounts/team/{host.slug}/").status_code == 404


def test_an_invitation_link_is_shown_once_and_makes_an_account_once(organiser_client, client, host):
    tournament = build(4)
    organiser_client.post(f"/accounts/team/{host.slug}/invite/", {"role": Role.REFEREE, "tournament": tournament.pk})
    token = LINK.search(organiser_client.get(f"/accounts/team/{host.slug}/").content.decode())[1]
    assert not LINK.search(organiser_client.get(f"/accounts/team/{host.slug}/").content.decode())
    invitation = Invitation.objects.get()
    assert invitation.token_hash != token and len(invitation.token_hash) == 64
    organiser_client.logout()
    answer = client.post(
        f"/accounts/invitation/{token}/", {"username": "jan.nowy", "password": PASSWORD, "password_again": PASSWORD}
    )
    assert answer.status_code == 302
    jan = User.objects.get(username="jan.nowy")
    assert TournamentRole.objects.get(user=jan).tournament == tournament and not Membership.objects.filter(user=jan)
    assert AuditEntry.objects.get(action="invitation_accepted").host == host
    client.logout()
    again = client.post(
        f"/accounts/invitation/{token}/", {"username": "ktos.inny", "password": PASSWORD, "password_again": PASSWORD}
    )
    assert again.status_code == 410 and not User.objects.filter(username="ktos.inny").exists()
    assert "It has been used already" in client.get(f"/accounts/invitation/{token}/").content.decode()


def test_a_signed_in_person_joins_with_their_account_and_keeps_a_stronger_role(client, organiser, host, ewa):
    _invitation, token = create_invitation(host, role=Role.HEAD_REFEREE, created_by=organiser)
    client.force_login(ewa)
    client.post(f"/accounts/invitation/{token}/")
    assert membership(ewa, host) == Role.HEAD_REFEREE
    _invitation, token = create_invitation(host, role=Role.REFEREE, created_by=organiser)
    accept_invitation(token, user=ewa)
    assert membership(ewa, host) == Role.HEAD_REFEREE  # an invitation never lowers a role


def test_expired_and_revoked_invitations_are_refused_with_a_clear_page(organiser_client, client, organiser, host):
    expired, old = create_invitation(host, role=Role.REFEREE, created_by=organiser)
    Invitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    revoked, token = create_invitation(host, role=Role.REFEREE, created_by=organiser)
    organiser_client.post(f"/accounts/team/{host.slug}/invitation/{revoked.pk}/revoke/")
    assert AuditEntry.objects.get(action="invitation_revoked").before["invitation"] == revoked.pk
    ewa = User.objects.create_user("ewa", password=PASSWORD)
    for link, words in ((old, "It has expired."), (token, "The organiser revoked it."), ("nothing", "no invitation")):
        page = client.get(f"/accounts/invitation/{link}/")
        assert page.status_code == 410 and words in page.content.decode()
        with pytest.raises(Refused):
            accept_invitation(link, user=ewa)
    assert not Membership.objects.filter(user=ewa).exists()


def test_an_invitation_names_only_its_own_organisations_tournament(organiser, host):
    foreign = build(4)
    other_host = HostOrganisation.objects.create(name="UTW Kraków", slug="utw-krakow")
    foreign.host = other_host
    foreign.save()
    with pytest.raises(Refused) as refusal:
        create_invitation(host, role=Role.REFEREE, tournament=foreign, created_by=organiser)
    assert refusal.value.code == "invitation_other_organisation"


def test_another_organisations_invitation_cannot_be_revoked(organiser_client, organiser, other_host):
    invitation, _token = create_invitation(other_host, role=Role.REFEREE, created_by=None)
    assert (
        organiser_client.post(f"/accounts/team/{other_host.slug}/invitation/{invitation.pk}/revoke/").status_code == 404
    )
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_invites_a_referee_who_joins_from_a_phone(new_page, live_server, client, organiser):
    """The whole way in a browser: the invitation made on a tablet, its link opened on a phone,
    an account made there; the new member's role changed with a reason. Screenshots at both sizes."""
    from tests.support.browser import assert_no_horizontal_scroll, screenshot, signed_in_page

    host = Membership.objects.get(user=organiser).host
    build(4)
    page = signed_in_page(new_page, live_server, client, organiser, viewport=TABLET)
    page.goto(f"{live_server.url}/staff/")
    page.get_by_role("link", name="Team").click()
    page.get_by_role("button", name="Make the invitation link").click()
    link = page.locator("#new-invitation code").inner_text()
    screenshot(page, "team-invitation-768")
    assert_no_horizontal_scroll(page)
    phone = new_page(PHONE)
    phone.goto(link.replace(link.split("/accounts/")[0], live_server.url))
    screenshot(phone, "invitation-390")
    assert_no_horizontal_scroll(phone)
    phone.get_by_label("User name").fill("jan.nowy")
    phone.get_by_label("Password", exact=True).fill(PASSWORD)
    phone.get_by_label("Password again").fill(PASSWORD)
    phone.get_by_role("button", name="Create the account and join").click()
    phone.get_by_text(f"Welcome to the team of {host.name}").wait_for()
    page.goto(f"{live_server.url}/accounts/team/{host.slug}/")
    page.get_by_role("link", name="Change or remove jan.nowy").click()
    page.get_by_label("New role").select_option(label="head referee")
    page.get_by_label("Reason").fill("sędzia główny w tym sezonie")
    page.get_by_role("button", name="Save the change").click()
    page.get_by_text("jan.nowy was referee before this change.").wait_for()
    screenshot(page, "team-undo-768")
    assert membership(User.objects.get(username="jan.nowy"), host) == Role.HEAD_REFEREE
    small = signed_in_page(new_page, live_server, client, organiser, viewport=PHONE)
    small.goto(f"{live_server.url}/accounts/team/{host.slug}/")
    screenshot(small, "team-390")
    assert_no_horizontal_scroll(small)


def test_a_tablets_account_cannot_take_an_invitation(organiser, host):
    from accounts.services import create_device_link

    link, _token = create_device_link(build(4), label="Tablet 1")
    _invitation, token = create_invitation(host, role=Role.ORGANISER, created_by=organiser)
    with pytest.raises(Refused):
        accept_invitation(token, user=link.user)
    assert not Membership.objects.filter(user=link.user).exists()
