"""Entries from the organisations (SPEC §11) through the public pages, with the outbox sent by the
worker into Django's test mailbox: one per organisation, double opt-in, capacity and the waiting
list, withdrawal and refusal, closed tournaments, bad input and abuse."""

import datetime

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from organiser.models import Entry
from organiser.services import entries as entry_services
from tests.support.entries import entry_data, links_in, open_tournament, path_of
from tests.support.tasks import run_queued_tasks
from tournament.models import AuditEntry, OutgoingMail, Player

pytestmark = pytest.mark.django_db(transaction=True)  # the queue runs in the test's process


@pytest.fixture(autouse=True)
def mail_server(settings):
    settings.EMAIL_HOST = "mail.example.test"  # the test mailbox stands in for it
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def enter(client, tournament, number=1, **changes):
    return client.post(reverse("public:entry", args=[tournament.slug]), entry_data(number, **changes))


def confirm_link(to):
    run_queued_tasks()
    message = [m for m in mail.outbox if m.to == [to]][-1]
    return path_of([link for link in links_in(message.body) if link.endswith("confirm/")][0])


def test_an_entry_is_confirmed_and_becomes_a_player(client):
    tournament = open_tournament(capacity=8)
    response = enter(client, tournament)
    assert response.status_code == 302 and response["Location"].endswith("/entry/sent/")
    entry = Entry.objects.get()
    assert entry.state == Entry.State.PENDING and not Player.objects.exists()
    link = confirm_link("utw1@example.pl")
    assert client.get(link).status_code == 200
    entry.refresh_from_db()
    assert entry.state == Entry.State.PENDING  # opening the link changes nothing: the button does
    assert client.post(link).status_code == 302
    entry.refresh_from_db()
    assert entry.state == Entry.State.PLAYER
    player = Player.objects.get()
    assert (player.surname, player.organisation.name, player.person.surname) == (
        "Kowalska1",
        "UTW Miasto 1",
        "Kowalska1",
    )
    run_queued_tasks()
    assert [m.subject for m in mail.outbox] == ["Confirm the entry: Senioriada Test", "You are in: Senioriada Test"]
    assert list(
        AuditEntry.objects.filter(action__startswith="entry_").order_by("pk").values_list("action", flat=True)
    ) == ["entry_submit", "entry_confirm", "entry_player"]


def test_a_second_entry_of_an_organisation_typed_differently_is_refused(client):
    tournament = open_tournament()
    enter(client, tournament, organisation="UTW Kraków")
    response = enter(client, tournament, 2, organisation="  utw   KRAKOW ", surname="Nowak")
    assert response.status_code == 200
    assert response.context["form"].errors["organisation"] == [
        "utw KRAKOW has already entered 1 player; the limit is 1 per organisation."
    ]
    assert 'value="Nowak"' in response.content.decode()  # the form keeps what was typed
    assert Entry.objects.count() == 1


def test_a_player_the_organiser_added_takes_the_organisations_place(client):
    tournament = open_tournament(players=2)  # Gracz 1 of Klub 1, Gracz 2 of Klub 2
    response = enter(client, tournament, organisation="klub 1")
    assert "has already entered 1 player" in response.content.decode()
    assert not Entry.objects.exists()


def test_a_double_tap_makes_one_entry(client):
    tournament = open_tournament()
    data = entry_data(1)
    url = reverse("public:entry", args=[tournament.slug])
    first, second = client.post(url, data), client.post(url, data)
    assert first.status_code == second.status_code == 302
    assert Entry.objects.count() == 1 and OutgoingMail.objects.count() == 1


def test_capacity_then_the_waiting_list_in_order_of_confirmation_and_withdrawal_promotes(client):
    tournament = open_tournament(capacity=2)
    for number in (1, 2, 3, 4):
        enter(client, tournament, number)
    for number in (2, 4, 1, 3):  # the order of confirmation, not of entry
        client.post(confirm_link(f"utw{number}@example.pl"))
    states = {e.organisation: e.state for e in Entry.objects.all()}
    assert states == {
        "UTW Miasto 1": "waiting",
        "UTW Miasto 2": "player",
        "UTW Miasto 3": "waiting",
        "UTW Miasto 4": "player",
    }
    run_queued_tasks()
    waiting = {m.to[0]: m.body for m in mail.outbox if m.subject.startswith("On the waiting list")}
    assert "place 1." in waiting["utw1@example.pl"] and "place 2." in waiting["utw3@example.pl"]
    four = Entry.objects.get(organisation="UTW Miasto 4")
    page = reverse("public:entry_detail", args=[tournament.slug, four.token])
    assert client.post(page).status_code == 302
    states = {e.organisation: e.state for e in Entry.objects.all()}
    assert states["UTW Miasto 4"] == "withdrawn" and states["UTW Miasto 1"] == "player"
    assert states["UTW Miasto 3"] == "waiting"
    assert sorted(Player.objects.values_list("organisation__name", flat=True)) == ["UTW Miasto 1", "UTW Miasto 2"]
    run_queued_tasks()
    assert [m.to for m in mail.outbox if m.subject.startswith("A place came free")] == [["utw1@example.pl"]]
    detail = client.get(
        reverse("public:entry_detail", args=[tournament.slug, Entry.objects.get(organisation="UTW Miasto 3").token])
    )
    assert "place 1." in detail.content.decode()


def test_the_organisers_refusal_removes_the_player_and_promotes(organiser_client):
    tournament = open_tournament(capacity=1)
    client = organiser_client
    enter(client, tournament, 1)
    enter(client, tournament, 2)
    client.post(confirm_link("utw1@example.pl"))
    client.post(confirm_link("utw2@example.pl"))
    first = Entry.objects.get(organisation="UTW Miasto 1")
    entry_services.refuse_entry(first, reason="Not a senior university", user=None)
    states = {e.organisation: e.state for e in Entry.objects.all()}
    assert states == {"UTW Miasto 1": "refused", "UTW Miasto 2": "player"}
    run_queued_tasks()
    refused = [m for m in mail.outbox if m.subject.startswith("Entry refused")]
    assert len(refused) == 1 and "Reason: Not a senior university" in refused[0].body


def test_an_entry_not_confirmed_in_48_hours_expires(client):
    tournament = open_tournament()
    enter(client, tournament)
    entry = Entry.objects.get()
    later = timezone.now() + datetime.timedelta(hours=48, minutes=1)
    assert entry_services.entries_round(later)["expired"] == 1
    entry.refresh_from_db()
    assert entry.state == Entry.State.EXPIRED
    # the organisation may enter again
    assert enter(client, tournament, 1, surname="Nowak").status_code == 302


@pytest.mark.parametrize(
    "changes, field, message",
    [
        ({"surname": ""}, "surname", "This field is required."),
        ({"surname": "   "}, "surname", "This field is required."),
        ({"surname": "K" * 101}, "surname", "At most 100 characters."),
        # a NUL never reaches the form: config.security.NulByteMiddleware takes it out of posted fields
        ({"organisation": "UTW\u202eKraków"}, "organisation", "Invisible or control character U+202E"),
        ({"contact_name": "Jan\x07"}, "contact_name", "Invisible or control character U+0007"),
        ({"given_names": "Anna 😀"}, "given_names", "cannot be used here"),
        ({"birth_year": "1899"}, "birth_year", "Enter a year from 1900 to"),
        ({"birth_year": str(timezone.localdate().year + 1)}, "birth_year", "Enter a year from 1900 to"),
        ({"contact_email": "not-an-address"}, "contact_email", "Enter an e-mail address such as name@example.pl."),
        ({"consent": ""}, "consent", "The entry needs the player's consent"),
        ({"contact_phone": "call me"}, "contact_phone", "Enter the phone number in digits"),
    ],
)
def test_bad_input_gets_the_forms_own_errors_and_stores_nothing(client, changes, field, message):
    tournament = open_tournament()
    response = enter(client, tournament, **changes)
    assert response.status_code == 200
    assert message in response.context["form"].errors[field][0]
    assert not Entry.objects.exists() and not OutgoingMail.objects.exists()


def test_the_honeypot_stores_nothing(client):
    tournament = open_tournament()
    response = enter(client, tournament, website="http://spam.example")
    assert response.status_code == 302
    assert not Entry.objects.exists()


def test_an_address_sending_too_many_entries_an_hour_is_refused(client, settings):
    settings.ENTRIES_PER_ADDRESS_HOUR = 2
    tournament = open_tournament()
    assert enter(client, tournament, 1).status_code == 302
    assert enter(client, tournament, 2).status_code == 302
    response = enter(client, tournament, 3)
    assert "Too many entries were sent from this address" in response.content.decode()
    assert Entry.objects.count() == 2
    other = client.post(reverse("public:entry", args=[tournament.slug]), entry_data(4), REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302


def test_closed_ended_and_drawn_tournaments_refuse_entries(client):
    tournament = open_tournament()
    tournament.entries_until = None
    tournament.save()
    assert "This tournament takes no entries" in enter(client, tournament).content.decode()
    tournament.entries_until = timezone.now() - datetime.timedelta(minutes=1)
    tournament.save()
    assert "Entries closed on" in enter(client, tournament).content.decode()
    assert not Entry.objects.exists()


def test_an_entry_link_of_another_tournament_is_a_404(client):
    tournament = open_tournament()
    other = open_tournament(slug="other")
    enter(client, tournament)
    entry = Entry.objects.get()
    assert client.get(reverse("public:entry_detail", args=[tournament.slug, entry.token])).status_code == 200
    assert client.get(reverse("public:entry_detail", args=[other.slug, entry.token])).status_code == 404
    assert client.get(reverse("public:entry_confirm", args=[tournament.slug, "nonsense"])).status_code == 404


def test_the_tournament_and_organisation_pages_link_to_the_entry_page_while_entries_are_open(client):
    tournament = open_tournament()
    entry_url = reverse("public:entry", args=[tournament.slug])
    organisation = reverse("public:organisation", args=[tournament.host.slug])
    assert entry_url in client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert entry_url in client.get(organisation).content.decode()
    tournament.entries_until = timezone.now() - datetime.timedelta(minutes=1)
    tournament.save()
    assert entry_url not in client.get(organisation).content.decode()


def test_a_tournament_that_has_drawn_round_1_refuses_entries_and_confirmations(client):
    tournament = open_tournament(players=4)
    enter(client, tournament, 1)
    pending = Entry.objects.get()
    from tournament.models import Round

    Round.objects.create(tournament=tournament, number=1)
    answer = enter(client, tournament, 2)
    assert "Round 1 has been drawn: entries are closed." in answer.content.decode()
    confirm = reverse("public:entry_confirm", args=[tournament.slug, pending.token])
    assert "Round 1 has been drawn: entries are closed." in client.post(confirm).content.decode()
    assert Entry.objects.count() == 1 and Entry.objects.get().state == "pending"
