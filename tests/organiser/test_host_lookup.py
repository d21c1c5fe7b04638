"""The organisation a new tournament (or a restored backup) goes into, on a service of many: a
user who may choose among a few picks it from a list; one who may reach more than a list shows
(a superuser on a service of 60 organisations) types its short address or its name, looked up on the
server among those they may choose. The form's page costs the same queries and bytes with 20
organisations as with 60."""

import json

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Role
from accounts.selectors import HOSTS_LISTED
from accounts.services import make_member
from tests.factories import settings_data, tournament_data
from tests.support.tasks import run_queued_tasks
from tests.support.uploads import named, token_of
from tournament.models import HostOrganisation, Tournament

pytestmark = pytest.mark.django_db


def organisations(count, start=0):
    return [
        HostOrganisation.objects.create(name=f"Klub Seniora {n:03}", slug=f"klub-{n:03}")
        for n in range(start, start + count)
    ]


@pytest.fixture
def superuser(client):
    HostOrganisation.objects.all().delete()  # the one a fresh database starts with
    user = User.objects.create_superuser("operator", password="x")
    client.force_login(user)
    return user


def form_page(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/staff/new/")
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def test_a_superuser_on_a_small_service_chooses_from_the_list(client, superuser):
    organisations(3)
    html, _ = form_page(client)
    assert '<select name="host"' in html and html.count("Klub Seniora 0") == 3


def test_the_form_page_costs_the_same_with_20_organisations_as_with_60(client, superuser):
    organisations(3)
    _, small_queries = form_page(client)
    organisations(17, start=3)
    html, queries_20 = form_page(client)
    organisations(40, start=20)
    html_60, queries_60 = form_page(client)
    assert small_queries == queries_20 == queries_60
    assert len(html_60) == len(html)  # no organisation is listed: the page is the same
    assert '<select name="host"' not in html_60 and "Klub Seniora" not in html_60
    assert 'name="host"' in html_60 and "short address" in html_60


def test_a_superuser_types_the_address_a_link_or_the_name(client, superuser):
    organisations(HOSTS_LISTED + 1)
    lodz = HostOrganisation.objects.create(name="Uniwersytet Trzeciego Wieku Łódź", slug="utw-lodz")
    client.post("/staff/new/", settings_data(name="Puchar 1", slug="puchar-1", host="klub-007"))
    client.post("/staff/new/", settings_data(name="Puchar 2", slug="puchar-2", host=" https://x.pl/o/klub-003/ "))
    client.post(
        "/staff/new/", settings_data(name="Puchar 3", slug="puchar-3", host="uniwersytet  trzeciego wieku LODZ")
    )
    made = dict(Tournament.objects.values_list("slug", "host__slug"))
    assert made == {"puchar-1": "klub-007", "puchar-2": "klub-003", "puchar-3": lodz.slug}


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("klub-999", "No organisation you may choose has this short address or name."),
        ("Klub Seniora", "No organisation you may choose has this short address or name."),
        ("Klub Seniora 005", "Several organisations have this name: enter the short address instead."),
        ("", "Enter the short address or the name of the organisation."),
    ],
)
def test_an_unknown_or_ambiguous_organisation_is_refused_next_to_the_field(client, superuser, typed, message):
    organisations(HOSTS_LISTED + 1)
    HostOrganisation.objects.create(name="Klub  seniora 005", slug="inny-klub")  # the same name, spaced and cased
    response = client.post("/staff/new/", settings_data(name="Puchar", slug="puchar", host=typed))
    html = response.content.decode()
    assert response.status_code == 200 and message in html and 'id="id_host"' in html
    assert not Tournament.objects.exists()


def test_the_same_message_in_polish(client, superuser):
    organisations(HOSTS_LISTED + 1)
    client.cookies["django_language"] = "pl"
    html = client.post(
        "/staff/new/", settings_data(name="Puchar", slug="puchar", host="nic"), HTTP_ACCEPT_LANGUAGE="pl"
    )
    assert "Żadna organizacja, którą możesz wybrać, nie ma takiego krótkiego adresu ani nazwy." in html.content.decode()


def test_an_organiser_of_many_looks_up_only_their_own(client):
    HostOrganisation.objects.all().delete()
    theirs, others = organisations(HOSTS_LISTED + 1), organisations(2, start=50)
    organiser = User.objects.create_user("organiser")
    for host in theirs:
        make_member(organiser, Role.ORGANISER, host)
    client.force_login(organiser)
    html = form_page(client)[0]
    assert '<select name="host"' not in html
    refused = client.post("/staff/new/", settings_data(name="Puchar", slug="puchar", host=others[0].slug))
    assert "No organisation you may choose" in refused.content.decode() and not Tournament.objects.exists()
    client.post("/staff/new/", settings_data(name="Puchar", slug="puchar", host=theirs[4].slug))
    assert Tournament.objects.get(slug="puchar").host == theirs[4]


@pytest.mark.django_db(transaction=True)
def test_a_restore_of_a_new_tournament_is_sent_to_the_organisation_typed(client, superuser, backup_dir):
    organisations(HOSTS_LISTED + 8)
    data = tournament_data(4)
    data["tournament"]["slug"] = "gamma"
    html = client.post("/staff/new/restore/", {"file": named(json.dumps(data), "g.json")}).content.decode()
    assert 'name="host"' in html and '<select name="host"' not in html and "Klub Seniora" not in html
    token = token_of(html)
    refused = client.post("/staff/new/restore/confirm/", {"token": token, "host": "klub-999"}).content.decode()
    assert "No organisation you may choose" in refused
    run_queued_tasks()
    assert not Tournament.objects.filter(slug="gamma").exists()
    client.post("/staff/new/restore/confirm/", {"token": token, "host": "klub-017"})
    run_queued_tasks()
    assert Tournament.objects.get(slug="gamma").host.slug == "klub-017"
