"""The staff page (issue 41): it only makes new accounts, never attaches a role to an existing one
nor says whether a name is someone's; nobody takes their own role, and an organiser's role only
the organisation's organisers take back (SPEC §10); removing asks first, on the page, and can be undone (the same account, the same role)."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages

from accounts import services
from accounts.models import Role, TournamentRole
from accounts.services import make_member
from organiser.interchange import import_tournament
from tests.factories import build, tournament_data
from tests.support.browser import assert_no_horizontal_scroll, screenshot, signed_in_page
from tournament.models import AuditEntry, HostOrganisation, Tournament

pytestmark = pytest.mark.django_db

PASSWORD = "long-enough-password-1"
NEUTRAL = "Choose another user name, for example with the surname or a digit added."
NOT_REMOVABLE = "Your own role cannot be taken away, and an organiser's only by the organisation's organisers."


def other_tournament():
    data = tournament_data(4)
    data["tournament"].update(name="Inny turniej", slug="inny")
    return import_tournament(data)


def new_person(username, role=Role.REFEREE):
    return {"username": username, "role": role.value, "password": PASSWORD, "password_again": PASSWORD}


def messages_of(response):
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.fixture
def tournament():
    return build(4)


@pytest.fixture
def co_organiser(tournament):
    user = User.objects.create_user("ewa.wspol", password="her-own-password-1")
    TournamentRole.objects.create(user=user, tournament=tournament, role=Role.ORGANISER)
    return user


def test_a_name_in_use_anywhere_gets_one_neutral_message_and_no_role(
    organiser_client, organiser, tournament, co_organiser, client
):
    other = other_tournament()
    User.objects.create_user("piotr.inny").tournament_roles.create(tournament=other, role=Role.REFEREE)
    services.create_device_link(tournament, label="Tablet 1")
    tablet = User.objects.get(username__startswith="device-")
    before = set(TournamentRole.objects.values_list("user__username", "tournament__slug", "role"))
    for name in ("ewa.wspol", "EWA.WSPOL", "organiser", "piotr.inny", tablet.username):
        answer = organiser_client.post("/accounts/staff/test/", new_person(name))
        assert answer.status_code == 200 and answer.context["form"].errors == {"username": [NEUTRAL]}, name
        page = answer.content.decode()
        assert "already" not in page and "account of" not in page
    assert set(TournamentRole.objects.values_list("user__username", "tournament__slug", "role")) == before
    assert User.objects.get(username="ewa.wspol").check_password("her-own-password-1")
    client.force_login(co_organiser)
    assert client.get("/staff/test/settings/").status_code == 200  # still an organiser of the tournament


def test_the_added_person_is_a_new_account_with_the_password_typed(organiser_client, tournament):
    answer = organiser_client.post("/accounts/staff/test/", new_person("jan.kowalski", Role.HEAD_REFEREE))
    assert answer.status_code == 302 and messages_of(answer) == ["jan.kowalski can sign in now as head referee."]
    user = User.objects.get(username="jan.kowalski")
    assert user.check_password(PASSWORD) and not user.is_staff
    assert list(user.tournament_roles.values_list("role", flat=True)) == [Role.HEAD_REFEREE]


def test_ones_own_role_is_never_taken_away(organiser_client, organiser, tournament):
    own = TournamentRole.objects.create(user=organiser, tournament=tournament, role=Role.REFEREE)
    answer = organiser_client.post(f"/accounts/staff/test/{own.pk}/remove/")
    assert answer["Location"] == "/accounts/staff/test/" and messages_of(answer) == [NOT_REMOVABLE]
    assert TournamentRole.objects.filter(pk=own.pk).exists()
    assert not AuditEntry.objects.filter(action="staff_removed").exists()
    assert "Remove organiser" not in organiser_client.get("/accounts/staff/test/").content.decode()


def test_a_one_tournament_organiser_takes_no_organisers_role(client, organiser, tournament, co_organiser):
    """An organiser of this tournament alone removes referees, never an organiser's role: neither a
    one-tournament organiser's nor a role held by an organiser of an organisation."""
    other_host = HostOrganisation.objects.create(name="Inny klub", slug="inny-klub")
    elsewhere = User.objects.create_user("zofia.glowna")
    make_member(elsewhere, Role.ORGANISER.value, other_host)
    theirs = TournamentRole.objects.create(user=elsewhere, tournament=tournament, role=Role.REFEREE)
    second = User.objects.create_user("adam.drugi")
    second_grant = TournamentRole.objects.create(user=second, tournament=tournament, role=Role.ORGANISER)
    client.force_login(co_organiser)
    own = TournamentRole.objects.get(user=co_organiser)
    for shown, grant in enumerate((second_grant, own, theirs), start=1):
        answer = client.post(f"/accounts/staff/test/{grant.pk}/remove/")
        assert answer["Location"] == "/accounts/staff/test/" and messages_of(answer) == [NOT_REMOVABLE] * shown
    assert TournamentRole.objects.filter(pk__in=[second_grant.pk, own.pk, theirs.pk]).count() == 3
    page = client.get("/accounts/staff/test/").content.decode()
    assert "Remove adam.drugi" not in page and "Remove ewa.wspol" not in page


def test_the_organisations_organiser_takes_back_any_role_for_its_tournament_and_undoes_it(
    organiser_client, organiser, tournament, co_organiser
):
    """A one-tournament organiser's role, and a referee's role held by another organisation's
    organiser: the organisation's organiser takes each back, with a reason (audited), and undoes it."""
    other_host = HostOrganisation.objects.create(name="Inny klub", slug="inny-klub")
    elsewhere = User.objects.create_user("zofia.glowna")
    make_member(elsewhere, Role.ORGANISER.value, other_host)
    theirs = TournamentRole.objects.create(user=elsewhere, tournament=tournament, role=Role.REFEREE)
    co_grant = TournamentRole.objects.get(user=co_organiser)
    asked = organiser_client.get(f"/accounts/staff/test/?remove={co_grant.pk}").content.decode()
    assert "Yes, remove ewa.wspol" in asked and 'name="reason"' in asked
    for grant, name, role in ((co_grant, "ewa.wspol", "organiser"), (theirs, "zofia.glowna", "referee")):
        answer = organiser_client.post(f"/accounts/staff/test/{grant.pk}/remove/", {"reason": "koniec  współpracy"})
        assert f"{name} no longer has a role in this tournament." in messages_of(answer)
        assert not TournamentRole.objects.filter(pk=grant.pk).exists()
        entry = AuditEntry.objects.filter(action="staff_removed").latest("pk")
        assert (entry.user, entry.before, entry.reason) == (
            organiser,
            {"user": name, "role": role},
            "koniec współpracy",
        )
        undo = parse_qs(urlsplit(answer["Location"]).query)["removed"][0]
        organiser_client.post("/accounts/staff/test/restore/", {"undo": undo})
        assert TournamentRole.objects.get(user__username=name, tournament=tournament).role == role


def test_the_team_page_offers_to_take_back_a_one_tournament_role(organiser_client, organiser, tournament, co_organiser):
    grant = TournamentRole.objects.get(user=co_organiser)
    own = TournamentRole.objects.create(user=organiser, tournament=tournament, role=Role.REFEREE)
    page = organiser_client.get(f"/accounts/team/{tournament.host.slug}/").content.decode()
    assert f'href="/accounts/staff/test/?remove={grant.pk}#grant-{grant.pk}"' in page
    assert f"?remove={own.pk}" not in page


def test_removing_asks_on_the_page_first(organiser_client, tournament):
    organiser_client.post("/accounts/staff/test/", new_person("jan.kowalski"))
    grant = TournamentRole.objects.get(user__username="jan.kowalski")
    action = f'action="/accounts/staff/test/{grant.pk}/remove/"'
    listed = organiser_client.get("/accounts/staff/test/").content.decode()
    assert action not in listed  # one tap on "Remove" only asks
    assert f'href="?remove={grant.pk}#grant-{grant.pk}"' in listed
    asked = organiser_client.get(f"/accounts/staff/test/?remove={grant.pk}").content.decode()
    assert "Remove jan.kowalski (referee) from this tournament?" in asked
    assert action in asked and "Yes, remove jan.kowalski" in asked and ">Cancel</a>" in asked
    assert "<script" not in asked.split("<main", 1)[-1] and "onclick" not in asked
    assert TournamentRole.objects.filter(pk=grant.pk).exists()


def test_a_removal_is_audited_and_undone_with_the_same_account_and_role(organiser_client, tournament):
    organiser_client.post("/accounts/staff/test/", new_person("maria.lis", Role.HEAD_REFEREE))
    user = User.objects.get(username="maria.lis")
    grant = user.tournament_roles.get()
    removed = organiser_client.post(f"/accounts/staff/test/{grant.pk}/remove/")
    assert messages_of(removed)[-1] == "maria.lis no longer has a role in this tournament."
    location = urlsplit(removed["Location"])
    assert location.path == "/accounts/staff/test/" and not TournamentRole.objects.filter(user=user).exists()
    undo = parse_qs(location.query)["removed"][0]
    page = organiser_client.get(removed["Location"]).content.decode()
    assert "maria.lis (head referee) was removed from this tournament." in page
    assert "Undo: give maria.lis the role back" in page and re.search(r'name="undo" value="[^"]+"', page)
    restored = organiser_client.post("/accounts/staff/test/restore/", {"undo": undo})
    assert messages_of(restored)[-1] == "maria.lis has their role in this tournament back."
    assert list(user.tournament_roles.values_list("role", flat=True)) == [Role.HEAD_REFEREE]
    organiser_client.post("/accounts/staff/test/restore/", {"undo": undo})  # a second tap changes nothing
    actions = list(AuditEntry.objects.filter(tournament=tournament).order_by("pk").values_list("action", flat=True))
    assert actions == ["staff_added", "staff_removed", "staff_restored"]
    assert User.objects.get(pk=user.pk).check_password(PASSWORD)


def test_an_undo_note_that_is_forged_or_of_another_tournament_restores_nothing(
    organiser_client, organiser, tournament, co_organiser
):
    other = other_tournament()
    referee = User.objects.create_user("piotr.inny")
    grant = TournamentRole.objects.create(user=referee, tournament=other, role=Role.REFEREE)
    _name, undo = services.remove_staff_member(other, grant_id=grant.pk, removed_by=organiser)
    forged = undo.replace(undo.split(":")[0], "eyJ0b3VybmFtZW50IjoxfQ")
    for note in (undo, forged, "", "x" * 5000):
        answer = organiser_client.post("/accounts/staff/test/restore/", {"undo": note})
        assert answer.status_code == 302 and messages_of(answer)[-1] == (
            "This removal can no longer be undone. Add the person again with a new user name."
        )
    assert not TournamentRole.objects.filter(user=referee).exists()
    assert TournamentRole.objects.get(user=co_organiser).role == Role.ORGANISER
    assert "was removed" not in organiser_client.get("/accounts/staff/test/", {"removed": undo}).content.decode()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [{"width": 768, "height": 1024}, {"width": 390, "height": 844}])
def test_the_removal_question_and_the_undo_on_a_tablet_and_a_phone(new_page, live_server, client, organiser, viewport):
    build(4)
    services.add_staff_member(
        Tournament.objects.get(), username="jan.kowalski", role=Role.REFEREE, password=PASSWORD, added_by=organiser
    )
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/accounts/staff/test/")
    page.get_by_role("link", name="Remove jan.kowalski").click()
    page.get_by_text("Remove jan.kowalski (referee) from this tournament?").wait_for()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"staff-remove-question-{viewport['width']}")
    page.get_by_role("button", name="Yes, remove jan.kowalski").click()
    page.get_by_text("jan.kowalski (referee) was removed from this tournament.").wait_for()
    screenshot(page, f"staff-removed-undo-{viewport['width']}")
    page.get_by_role("button", name="Undo: give jan.kowalski the role back").click()
    page.get_by_text("jan.kowalski has their role in this tournament back.").wait_for()
    assert TournamentRole.objects.get(user__username="jan.kowalski").role == Role.REFEREE
