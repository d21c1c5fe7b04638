"""Entries (SPEC §11) beyond the public form: the settings (form and JSON), a larger capacity
promoting the waiting list, e-mail in the tournament's public language, the worker's round
(reminders, the results link, expiry) and a racing double tap."""

import datetime
import json

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from organiser.interchange import dumps, export_tournament, import_tournament
from organiser.management.commands.run_tasks import mail_and_entries_round
from organiser.models import Entry
from organiser.services import entries as entry_services
from tests.factories import settings_data, tournament_data
from tests.support.entries import entry_data, open_tournament
from tests.support.tasks import run_queued_tasks
from tournament.models import AuditEntry, OutgoingMail, RoundTime

pytestmark = pytest.mark.django_db(transaction=True)  # the queue runs in the test's process


def entry(tournament, number, **changes):
    data = entry_data(number, **changes)
    return entry_services.submit_entry(
        tournament,
        entry_services.EntryData(
            data["organisation"], data["surname"], data["given_names"], 1950, "Jan", data["contact_email"], "", "zgoda"
        ),
        form_key=data["form_key"],
        client="10.0.0.1",
        site="http://testserver/",
    )


def test_the_settings_form_opens_entries_and_the_audit_log_says_so(organiser_client):
    tournament = open_tournament(capacity=None)
    tournament.entries_until = None
    tournament.save()
    form = settings_data(tournament, entries_until="2030-05-01T20:00", capacity="12")
    answer = organiser_client.post(reverse("organiser:settings", args=[tournament.slug]), form)
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert timezone.localtime(tournament.entries_until).strftime("%Y-%m-%d %H:%M") == "2030-05-01 20:00"
    assert tournament.capacity == 12
    logged = AuditEntry.objects.get(action="entries_settings")
    assert logged.before == {"entries_until": None, "capacity": None} and logged.after["capacity"] == 12


def test_the_settings_form_refuses_a_capacity_of_zero(organiser_client):
    tournament = open_tournament()
    form = settings_data(tournament, capacity="0")
    answer = organiser_client.post(reverse("organiser:settings", args=[tournament.slug]), form)
    assert answer.status_code == 200 and "capacity" in answer.context["form"].errors


def test_the_json_settings_carry_entries_until_and_capacity_and_come_back_the_same():
    data = tournament_data(0, settings={"entries_until": "2030-05-10T20:00:00+02:00", "capacity": 8})
    tournament = import_tournament(data)
    assert tournament.entries_until == datetime.datetime(2030, 5, 10, 18, 0, tzinfo=datetime.UTC)
    exported = export_tournament(tournament)
    assert exported["tournament"]["settings"]["entries_until"] == "2030-05-10T18:00:00+00:00"
    assert exported["tournament"]["settings"]["capacity"] == 8
    again = json.loads(dumps(exported))
    again["tournament"]["slug"] = "again"
    assert export_tournament(import_tournament(again))["tournament"]["settings"] == exported["tournament"]["settings"]
    closed = export_tournament(
        import_tournament(tournament_data(0) | {"tournament": {**data["tournament"], "slug": "closed", "settings": {}}})
    )
    assert (
        "entries_until" not in closed["tournament"]["settings"] and "capacity" not in closed["tournament"]["settings"]
    )


def test_a_larger_capacity_promotes_the_waiting_list(organiser_client, settings):
    settings.EMAIL_HOST = "mail.example.test"
    tournament = open_tournament(capacity=1)
    for number in (1, 2, 3):
        entry_services.confirm_entry(entry(tournament, number))
    assert sorted(Entry.objects.values_list("state", flat=True)) == ["player", "waiting", "waiting"]
    form = settings_data(tournament, capacity="2")
    organiser_client.post(reverse("organiser:settings", args=[tournament.slug]), form)
    states = dict(Entry.objects.values_list("organisation", "state"))
    assert states == {"UTW Miasto 1": "player", "UTW Miasto 2": "player", "UTW Miasto 3": "waiting"}


def test_mail_speaks_the_tournaments_public_language(settings):
    settings.EMAIL_HOST = "mail.example.test"
    tournament = open_tournament()
    tournament.public_language = "pl"
    tournament.save()
    entry(tournament, 1)
    run_queued_tasks()
    (message,) = mail.outbox
    assert message.subject == "Potwierdź zgłoszenie: Senioriada Test"
    assert "Zgłoszenie liczy się po potwierdzeniu tym linkiem w ciągu 48 godzin" in message.body
    html = message.alternatives[0][0] if isinstance(message.alternatives[0], tuple) else message.alternatives[0].content
    assert (
        "Potwierdź zgłoszenie" in html and message.extra_headers["Message-ID"] == OutgoingMail.objects.get().message_id
    )


def test_the_workers_round_reminds_players_then_sends_the_results_link(settings):
    settings.EMAIL_HOST = "mail.example.test"
    today = timezone.localdate()
    tournament = open_tournament(date=today + datetime.timedelta(days=2))
    RoundTime.objects.create(tournament=tournament, number=1, planned_start=datetime.time(10, 30), length_minutes=60)
    player = entry(tournament, 1)
    entry_services.confirm_entry(player)
    entry(tournament, 2)  # not confirmed: no reminder
    mail_and_entries_round()
    mail_and_entries_round()  # a second round sends nothing again
    run_queued_tasks()
    reminders = [m for m in mail.outbox if m.subject.startswith("Reminder")]
    assert [m.to for m in reminders] == [["utw1@example.pl"]]
    assert "Round 1 starts at 10:30" in reminders[0].body
    tournament.date = today - datetime.timedelta(days=1)
    tournament.save(update_fields=["date"])
    later = timezone.now() + datetime.timedelta(days=3)
    done = entry_services.entries_round(later)
    assert done["results"] == 1 and done["expired"] == 1
    run_queued_tasks()
    (results,) = [m for m in mail.outbox if m.subject.startswith("The results")]
    assert f"/t/{tournament.slug}/standings/" in results.body


def test_a_double_tap_racing_the_first_finds_its_entry(client, monkeypatch):
    tournament = open_tournament()
    data = entry_data(1)
    assert client.post(reverse("public:entry", args=[tournament.slug]), data).status_code == 302
    real, calls = entry_services.selectors.entry_by_form_key, []

    def blind_at_first(tournament, key):  # the second read "no entry of this form yet" before the first committed
        calls.append(key)
        return None if len(calls) == 1 else real(tournament, key)

    monkeypatch.setattr(entry_services.selectors, "entry_by_form_key", blind_at_first)
    again = entry_services.submit_entry(
        tournament,
        entry_services.EntryData("UTW Inne", "Kowalska1", "Anna", None, "Jan", "utw1@example.pl", "", "zgoda"),
        form_key=data["form_key"],
        client="10.0.0.2",
        site="http://testserver/",
    )
    assert len(calls) == 2 and again == Entry.objects.get()
