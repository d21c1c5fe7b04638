"""The team's doors (issue 46): an invitation stops working when its maker is no longer an
organiser of the organisation; an undo passes the checks of the change it undoes; changes to one
organisation's team made at the same moment are serialised (never a 500, never no organiser)."""

import datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Membership, Role
from accounts.services import make_member
from accounts.team import accept_invitation, create_invitation
from tests.support.race import at_once
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db

PASSWORD = "long-enough-password-1"


@pytest.fixture
def host(organiser):
    return Membership.objects.get(user=organiser).host


@pytest.fixture
def ewa(host):
    user = User.objects.create_user("ewa", password=PASSWORD)
    make_member(user, Role.ORGANISER, host)
    return user


def role_of(user, host):
    return Membership.objects.filter(user=user, host=host).values_list("role", flat=True).first()


def signed_in(user):
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.mark.parametrize("change", ["remove", "head_referee"])
def test_an_invitation_dies_when_its_maker_is_removed_or_demoted(host, organiser, ewa, change):
    """Ewa makes an "organiser, all tournaments" invitation; once she is out of the team (or only a
    head referee), its link answers 410 and joins nobody, and the team page says why."""
    _invitation, token = create_invitation(host, role=Role.ORGANISER, created_by=ewa)
    _referee_invitation, referee_token = create_invitation(host, role=Role.REFEREE, created_by=ewa)
    assert Client().get(f"/accounts/invitation/{token}/").status_code == 200  # it works while she organises
    signed_in(organiser).post(
        f"/accounts/team/{host.slug}/member/{Membership.objects.get(user=ewa).pk}/",
        {"role": change, "reason": "koniec kadencji"},
    )
    assert role_of(ewa, host) == (None if change == "remove" else Role.HEAD_REFEREE)
    for link in (token, referee_token):
        page = Client().get(f"/accounts/invitation/{link}/")
        assert page.status_code == 410
        assert "no longer an organiser of this organisation" in page.content.decode()
    with pytest.raises(Refused):
        accept_invitation(token, user=ewa)
    assert role_of(ewa, host) == (None if change == "remove" else Role.HEAD_REFEREE)
    joined = Client().post(
        f"/accounts/invitation/{token}/", {"username": "nowy", "password": PASSWORD, "password_again": PASSWORD}
    )
    assert joined.status_code == 410 and not User.objects.filter(username="nowy").exists()
    team = signed_in(organiser).get(f"/accounts/team/{host.slug}/").content.decode()
    assert team.count("No longer works: the person who made it is no longer an organiser here.") == 2


def test_an_invitation_of_an_organiser_still_in_the_team_works(host, organiser, ewa):
    _invitation, token = create_invitation(host, role=Role.ORGANISER, created_by=ewa)
    team = signed_in(organiser).get(f"/accounts/team/{host.slug}/").content.decode()
    assert "No longer works" not in team
    newcomer = User.objects.create_user("nowa", password=PASSWORD)
    accept_invitation(token, user=newcomer)
    assert role_of(newcomer, host) == Role.ORGANISER


def undo_note(answer):
    return parse_qs(urlsplit(answer["Location"]).query)["changed"][0]


def test_an_undo_does_not_change_ones_own_role(host, organiser, ewa):
    """The organiser promoted Ewa; Ewa, holding that note, cannot undo her own promotion."""
    referee = User.objects.create_user("jan", password=PASSWORD)
    make_member(referee, Role.REFEREE, host)
    promoted = signed_in(organiser).post(
        f"/accounts/team/{host.slug}/member/{Membership.objects.get(user=referee).pk}/",
        {"role": "organiser", "reason": "awans"},
    )
    note = undo_note(promoted)
    answer = signed_in(referee).post(f"/accounts/team/{host.slug}/restore/", {"undo": note}, follow=True)
    assert "Your own role cannot be changed here" in answer.content.decode()
    assert role_of(referee, host) == Role.ORGANISER
    signed_in(organiser).post(f"/accounts/team/{host.slug}/restore/", {"undo": note})
    assert role_of(referee, host) == Role.REFEREE  # another organiser may undo it


def test_an_undo_does_not_leave_the_organisation_without_an_organiser(host, organiser, ewa):
    """Ewa promoted Jan; Jan then demoted Ewa and the organiser: Jan is the last organiser. Ewa's
    note of Jan's promotion, posted by the operator, would leave nobody: refused."""
    jan = User.objects.create_user("jan", password=PASSWORD)
    make_member(jan, Role.REFEREE, host)
    promoted = signed_in(ewa).post(
        f"/accounts/team/{host.slug}/member/{Membership.objects.get(user=jan).pk}/",
        {"role": "organiser", "reason": "awans"},
    )
    note = undo_note(promoted)
    for user in (ewa, organiser):
        signed_in(jan).post(
            f"/accounts/team/{host.slug}/member/{Membership.objects.get(user=user).pk}/",
            {"role": "referee", "reason": "zmiana"},
        )
    assert list(Membership.objects.filter(host=host, role=Role.ORGANISER).values_list("user__username", flat=True)) == [
        "jan"
    ]
    operator = User.objects.create_superuser("operator", password=PASSWORD)
    answer = signed_in(operator).post(f"/accounts/team/{host.slug}/restore/", {"undo": note}, follow=True)
    assert "The organisation needs at least one organiser" in answer.content.decode()
    assert role_of(jan, host) == Role.ORGANISER


def posted_at_once(requests):
    """Each (client, path, data) posted at the same moment; the answers."""
    return at_once(lambda index: requests[index][0].post(*requests[index][1:]), len(requests))


def member_path(host, user):
    return f"/accounts/team/{host.slug}/member/{Membership.objects.get(user=user).pk}/"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(5))
def test_two_organisers_demoting_each_other_at_once_leave_one_organiser(attempt):
    organiser = User.objects.create_user("organiser", password=PASSWORD)
    make_member(organiser, Role.ORGANISER)
    host = Membership.objects.get(user=organiser).host
    ewa = User.objects.create_user("ewa", password=PASSWORD)
    make_member(ewa, Role.ORGANISER, host)
    answers = posted_at_once(
        [
            (signed_in(organiser), member_path(host, ewa), {"role": "referee", "reason": "a"}),
            (signed_in(ewa), member_path(host, organiser), {"role": "referee", "reason": "b"}),
        ]
    )
    # The later one is refused: as no longer an organiser (404), or as demoting the last one.
    assert all(answer.status_code in (302, 404) for answer in answers)
    assert Membership.objects.filter(host=host, role=Role.ORGANISER).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(5))
def test_the_operator_and_an_organiser_demoting_at_once_leave_an_organiser(attempt):
    """The operator demotes the organiser while the organiser demotes Ewa, the other organiser."""
    organiser = User.objects.create_user("organiser", password=PASSWORD)
    make_member(organiser, Role.ORGANISER)
    host = Membership.objects.get(user=organiser).host
    ewa = User.objects.create_user("ewa", password=PASSWORD)
    make_member(ewa, Role.ORGANISER, host)
    operator = User.objects.create_superuser("operator", password=PASSWORD)
    answers = posted_at_once(
        [
            (signed_in(operator), member_path(host, organiser), {"role": "referee", "reason": "a"}),
            (signed_in(organiser), member_path(host, ewa), {"role": "referee", "reason": "b"}),
        ]
    )
    # Demoted first, the organiser no longer opens the team page (404); else the operator is refused.
    assert answers[0].status_code == 302 and answers[1].status_code in (302, 404)
    assert Membership.objects.filter(host=host, role=Role.ORGANISER).count() == 1


def test_an_invitation_made_before_the_maker_left_is_refused_even_after_the_maker_returns_lower(host, ewa):
    """Demoted to referee and back in the team as a referee: the invitation still does not stand."""
    invitation, token = create_invitation(host, role=Role.HEAD_REFEREE, created_by=ewa)
    make_member(ewa, Role.REFEREE, host)
    invitation.refresh_from_db()
    assert invitation.expires_at > invitation.created_at + datetime.timedelta(days=6)
    with pytest.raises(Refused):
        accept_invitation(token, user=User.objects.create_user("nowa"))
