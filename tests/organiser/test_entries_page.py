"""The organiser's entries page (SPEC §11): states, contact and consent for the organisation's
organisers only, refusing with a reason, closing early, the export's safety, no mail server."""

import csv
import io

import openpyxl
import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from organiser.models import Entry
from organiser.services import entries as entry_services
from tests.support.entries import entry_data, open_tournament
from tests.support.tasks import run_queued_tasks
from tournament.models import AuditEntry, OutgoingMail

pytestmark = pytest.mark.django_db(transaction=True)  # the queue runs in the test's process


def enter(client, tournament, number=1, **changes):
    return client.post(reverse("public:entry", args=[tournament.slug]), entry_data(number, **changes))


def confirm(entry):
    return entry_services.confirm_entry(entry)


def three_entries(client, tournament):
    for number in (1, 2, 3):
        enter(client, tournament, number)
    for entry in Entry.objects.order_by("pk")[:2]:
        confirm(entry)
    return list(Entry.objects.order_by("pk"))


def test_the_page_shows_every_state_contact_and_consent_in_few_queries(client, organiser_client, settings):
    settings.EMAIL_HOST = "mail.example.test"
    tournament = open_tournament(capacity=1)
    three_entries(client, tournament)
    url = reverse("organiser:entries", args=[tournament.slug])
    with CaptureQueriesContext(connection) as queries:
        page = organiser_client.get(url).content.decode()
    assert "player" in page and "waiting list, place 1" in page and "waiting for confirmation" in page
    assert "utw1@example.pl" in page and "+48 600 100 200" in page and "Jan Sekretarz" in page
    assert "The player agrees that their name" in page
    assert "No mail server is set up" not in page
    few = len(queries)
    for number in (4, 5, 6, 7):
        enter(client, tournament, number)
    with CaptureQueriesContext(connection) as queries:
        organiser_client.get(url)
    assert len(queries) == few  # the same number of queries for 3 entries or 7


def test_a_head_referee_sees_no_entries(client, head_referee_client):
    tournament = open_tournament()
    enter(client, tournament)
    assert head_referee_client.get(reverse("organiser:entries", args=[tournament.slug])).status_code == 403
    url = reverse("organiser:entries_file", args=[tournament.slug, "entries.csv"])
    assert head_referee_client.get(url).status_code == 403


def test_refusing_needs_a_reason_then_mails_it_and_promotes(client, organiser_client, settings):
    settings.EMAIL_HOST = "mail.example.test"
    tournament = open_tournament(capacity=1)
    first, second, _third = three_entries(client, tournament)
    url = reverse("organiser:entries", args=[tournament.slug])
    asked = organiser_client.get(url, {"refuse": first.pk}).content.decode()
    assert "Refuse the entry of Kowalska1 Anna (UTW Miasto 1)?" in asked
    empty = organiser_client.post(url, {"entry": first.pk, "reason": "   "})
    assert empty.status_code == 200 and "Give the reason" in empty.content.decode()
    assert Entry.objects.get(pk=first.pk).state == "player"
    done = organiser_client.post(url, {"entry": first.pk, "reason": "Zgłoszenie po terminie"})
    assert done.status_code == 302
    assert Entry.objects.get(pk=first.pk).state == "refused" and Entry.objects.get(pk=second.pk).state == "player"
    refused = AuditEntry.objects.get(action="entry_refused")
    assert refused.reason == "Zgłoszenie po terminie" and refused.user_name == "organiser"
    run_queued_tasks()
    assert "Reason: Zgłoszenie po terminie" in [m for m in mail.outbox if m.to == ["utw1@example.pl"]][-1].body


def test_closing_early_refuses_the_next_entry(client, organiser_client):
    tournament = open_tournament()
    organiser_client.post(reverse("organiser:entries_close", args=[tournament.slug]))
    assert "Entries closed on" in enter(client, tournament).content.decode()
    assert AuditEntry.objects.filter(action="entries_close").count() == 1


def test_without_a_mail_server_the_outbox_waits_and_the_page_shows_the_links(client, organiser_client, settings):
    settings.EMAIL_HOST = ""
    tournament = open_tournament()
    enter(client, tournament)
    run_queued_tasks()
    assert mail.outbox == [] and OutgoingMail.objects.get().state == "queued"
    entry = Entry.objects.get()
    page = organiser_client.get(reverse("organiser:entries", args=[tournament.slug])).content.decode()
    assert "No mail server is set up" in page
    assert f"/t/{tournament.slug}/entry/{entry.token}/confirm/" in page
    assert f"/t/{tournament.slug}/entry/{entry.token}/" in page


def test_the_exports_carry_no_formula_and_polish_letters(client, organiser_client):
    tournament = open_tournament()
    enter(client, tournament, organisation='=HYPERLINK("http://x")', surname="Źdźbło", contact_name="@Zosia")
    url = reverse("organiser:entries_file", args=[tournament.slug, "entries.csv"])
    text = organiser_client.get(url).content
    rows = list(csv.reader(io.StringIO(text.decode("utf-8-sig")), delimiter=";"))
    assert rows[1][2] == '\'=HYPERLINK("http://x")' and rows[1][3] == "Źdźbło" and rows[1][6] == "'@Zosia"
    book = openpyxl.load_workbook(
        io.BytesIO(
            organiser_client.get(reverse("organiser:entries_file", args=[tournament.slug, "entries.xlsx"])).content
        )
    )
    cells = [cell for row in book.active.iter_rows() for cell in row]
    assert not [cell for cell in cells if cell.data_type == "f"]
    assert '=HYPERLINK("http://x")' in [cell.value for cell in cells]


def test_contact_details_are_deleted_thirty_days_after_the_tournament(client, settings):
    import datetime

    from django.utils import timezone

    tournament = open_tournament()
    enter(client, tournament)
    now = timezone.now()
    tournament.date = timezone.localdate(now) - datetime.timedelta(days=30)
    tournament.save(update_fields=["date"])
    assert entry_services.delete_old_contacts(now) == 0  # 30 days: kept that day
    tournament.date -= datetime.timedelta(days=1)
    tournament.save(update_fields=["date"])
    assert entry_services.delete_old_contacts(now) == 1
    entry = Entry.objects.get()
    assert (entry.contact_name, entry.contact_email, entry.contact_phone) == ("", "", "")
    assert AuditEntry.objects.get(action="entry_contacts_deleted").after == {"entries": 1, "days_after": 30}
    assert not OutgoingMail.objects.exists()  # the messages to the contact went with it
