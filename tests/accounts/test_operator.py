"""The operator adds host organisations (a command, or a page for superusers alone): each with a
new organiser account, never an existing one, and a one-time link that sets its password; a
laptop's setup names its organisation; the public site lists one organisation's tournaments on
its page, and several organisations on the home page (one: the home page as it was)."""

import io
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from accounts import first_run
from accounts.models import Membership, Role
from organiser.interchange import import_tournament
from tests.factories import build, tournament_data
from tournament.models import AuditEntry, HostOrganisation

pytestmark = pytest.mark.django_db

PASSWORD = "long-enough-password-1"
LINK = re.compile(r"(https?://[^/\s<]+)(/accounts/set-password/[\w-]+/[\w-]+/)")


def create(**options):
    out = io.StringIO()
    call_command("create_organisation", stdout=out, **options)
    return out.getvalue()


def set_password(client, path):
    """Open a set-password link as a browser does (Django moves the token into the session)."""
    form = client.get(path, follow=True)
    return client.post(form.redirect_chain[-1][0], {"new_password1": PASSWORD, "new_password2": PASSWORD})


def test_the_command_makes_the_organisation_its_organiser_and_a_link_that_works_once(client, settings):
    settings.PUBLIC_URL = "http://192.168.1.10:8000"
    out = create(name="UTW Kraków", slug="utw-krakow", organiser="anna.utw")
    host = HostOrganisation.objects.get(slug="utw-krakow")
    anna = User.objects.get(username="anna.utw")
    assert host.name == "UTW Kraków" and Membership.objects.get(user=anna).host == host
    assert Membership.objects.get(user=anna).role == Role.ORGANISER and not anna.has_usable_password()
    assert "Organisation 'UTW Kraków' (utw-krakow) created, organiser 'anna.utw'." in out
    base, path = LINK.search(out).groups()
    assert base == "http://192.168.1.10:8000"
    assert "Your user name: anna.utw" in client.get(path, follow=True).content.decode()
    answer = set_password(client, path)
    assert answer.status_code == 302 and answer["Location"] == "/accounts/login/"
    anna.refresh_from_db()
    assert anna.check_password(PASSWORD)
    assert "does not work any more" in client.get(path, follow=True).content.decode()  # used once
    assert AuditEntry.objects.get(action="organisation_created").host == host


def test_the_command_never_takes_an_existing_account_nor_a_taken_address(organiser):
    with pytest.raises(CommandError, match="This user name is taken"):
        create(name="Inna", slug="inna", organiser="ORGANISER")
    assert not HostOrganisation.objects.filter(slug="inna").exists()
    assert Membership.objects.filter(user=organiser).count() == 1
    create(name="Inna", slug="inna", organiser="ola")
    with pytest.raises(CommandError, match="short address is taken"):
        create(name="Inna 2", slug="inna", organiser="ola2")
    with pytest.raises(CommandError, match="--slug"):
        create(name="Zła", slug="zła adres", organiser="ola3")


def test_the_operator_page_is_for_superusers_alone(client, organiser_client):
    assert organiser_client.get("/accounts/operator/organisations/").status_code == 404
    assert client.get("/accounts/operator/organisations/").status_code == 404
    operator = User.objects.create_superuser("operator", password=PASSWORD)
    client.force_login(operator)
    answer = client.post(
        "/accounts/operator/organisations/", {"name": "UTW Gdańsk", "slug": "utw-gdansk", "username": "ewa.g"}
    )
    assert answer.status_code == 302
    page = client.get("/accounts/operator/organisations/").content.decode()
    assert "UTW Gdańsk is added, with the organiser ewa.g." in page and LINK.search(page)
    assert not LINK.search(client.get("/accounts/operator/organisations/").content.decode())  # shown once
    taken = client.post("/accounts/operator/organisations/", {"name": "X", "slug": "utw-gdansk", "username": "kto"})
    assert "This short address is taken" in taken.content.decode()
    assert HostOrganisation.objects.filter(slug="utw-gdansk").count() == 1


def test_the_staff_page_never_picks_up_another_organisations_account(organiser_client):
    """Issue 41 kept: a name of another organisation's member gets no role here."""
    tournament = build(4)
    create(name="Inna", slug="inna", organiser="ola")
    organiser_client.post(
        f"/accounts/staff/{tournament.slug}/",
        {"username": "ola", "role": "referee", "password": PASSWORD, "password_again": PASSWORD},
    )
    assert not User.objects.get(username="ola").tournament_roles.exists()
    assert not User.objects.get(username="ola").check_password(PASSWORD)


def test_the_setup_names_the_laptops_organisation(client, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    code = first_run.setup_code()
    client.post(
        "/accounts/setup/",
        {
            "code": code,
            "organisation": "UTW Kraków",
            "username": "anna",
            "password": PASSWORD,
            "password_again": PASSWORD,
        },
    )
    assert Membership.objects.get(user__username="anna").host.name == "UTW Kraków"
    assert HostOrganisation.objects.count() == 1


def test_the_setup_keeps_the_default_name_when_none_is_typed(client, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    code = first_run.setup_code()
    client.post(
        "/accounts/setup/",
        {"code": code, "organisation": "", "username": "anna", "password": PASSWORD, "password_again": PASSWORD},
    )
    assert Membership.objects.get(user__username="anna").host.name == "Organizator"


def tournament_of(slug, name):
    data = tournament_data(4)
    data["tournament"].update(slug=slug, name=name)
    return import_tournament(data)


def two_organisations():
    """The laptop's organisation ("Organizator") with one tournament, UTW Kraków with two."""
    first = build(4)
    moved = [tournament_of("krakow-1", "Puchar Krakowa"), tournament_of("krakow-2", "Memoriał Wawelski")]
    other = HostOrganisation.objects.create(name="UTW Kraków", slug="utw-krakow")
    for tournament in moved:
        tournament.host = other
        tournament.save()
    return first, other


def test_an_organisations_page_lists_its_tournaments_alone(client):
    first, other = two_organisations()
    page = client.get("/o/utw-krakow/").content.decode()
    assert "Puchar Krakowa" in page and "Memoriał Wawelski" in page and first.name not in page
    own = client.get(f"/o/{first.host.slug}/").content.decode()
    assert first.name in own and "Puchar Krakowa" not in own
    assert client.get("/o/nie-ma/").status_code == 404


def test_the_home_page_lists_organisations_when_there_are_several(client):
    first = build(4)
    one = client.get("/").content.decode()
    assert first.name in one and "/o/" not in one  # one organisation: the home page as before
    tournament = tournament_of("krakow-1", "Puchar Krakowa")
    tournament.host = HostOrganisation.objects.create(name="UTW Kraków", slug="utw-krakow")
    tournament.save()
    two = client.get("/").content.decode()
    assert 'href="/o/utw-krakow/"' in two and 'href="/o/organizator/"' in two
    assert two.count("1 tournament<") == 2 and "Puchar Krakowa" not in two and first.name not in two


def test_the_organisation_made_on_the_operators_page_names_its_operator_in_the_log(client):
    """The season's walk: the team's recent changes read "—: organisation added"; the operator who
    added it on the page is kept, as every change keeps who made it (the command has nobody)."""
    operator = User.objects.create_superuser("operator", password=PASSWORD)
    client.force_login(operator)
    client.post("/accounts/operator/organisations/", {"name": "UTW Gdańsk", "slug": "utw-gdansk", "username": "ewa.g"})
    assert AuditEntry.objects.get(action="organisation_created").user == operator
    client.force_login(User.objects.get(username="ewa.g"))
    team = client.get("/accounts/team/utw-gdansk/").content.decode()
    assert re.search(r"operator: [^<]*organisation", team), team
    create(name="UTW Gdynia", slug="utw-gdynia", organiser="ola.g")
    assert AuditEntry.objects.get(action="organisation_created", host__slug="utw-gdynia").user is None
