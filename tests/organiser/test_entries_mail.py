"""The whole entry flow on real mail (issue 47's "done when"): a mail server started by the test
(aiosmtpd, tests/support/smtp.py) receives what the worker sends from the outbox. Nine
organisations enter a tournament of capacity 8; the confirmation messages arrive and their
links work; 8 players and 1 waiting; a second entry typed differently is refused; a withdrawal
promotes the waiting entry and its message arrives; with the mail server down an entry still
succeeds and its message arrives once when the server is back; a worker killed mid-send makes no
second copy."""

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from organiser.models import Entry
from tests.support.entries import entry_data, links_in, open_tournament, path_of
from tests.support.server import Server, kill_9_once, stopping, wait_for
from tests.support.smtp import MailServer, html_of, text_of
from tests.support.tasks import run_queued_tasks
from tournament.models import OutgoingMail, Player


@pytest.fixture
def smtp(tmp_path, settings):
    with MailServer(tmp_path / "smtp") as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", server.port, 10
        settings.DEFAULT_FROM_EMAIL = "turniej@example.pl"
        yield server


def to(server, address):
    return [message for message in server.messages() if message["To"] == address]


def enter(client, tournament, number, **changes):
    return client.post(reverse("public:entry", args=[tournament.slug]), entry_data(number, **changes))


def confirmation_link(message):
    return path_of([link for link in links_in(text_of(message)) if link.endswith("confirm/")][0])


@pytest.mark.django_db(transaction=True)
def test_nine_organisations_enter_eight_places_on_real_mail(client, smtp):
    tournament = open_tournament(capacity=8)
    for number in range(1, 10):
        assert enter(client, tournament, number).status_code == 302
    run_queued_tasks()
    for number in range(1, 10):
        (message,) = to(smtp, f"utw{number}@example.pl")
        assert message["Subject"] == "Confirm the entry: Senioriada Test"
        assert message["From"] == "turniej@example.pl"
        assert f"Kowalska{number}" in html_of(message)  # plain text and HTML
        assert client.post(confirmation_link(message)).status_code == 302
    refused = enter(client, tournament, 10, organisation="utw  MIASTO 3", surname="Nowak")
    assert "has already entered 1 player" in refused.content.decode()
    states = sorted(Entry.objects.values_list("state", flat=True))
    assert states == ["player"] * 8 + ["waiting"]
    assert Player.objects.filter(tournament=tournament).count() == 8
    run_queued_tasks()
    (waiting,) = [m for m in to(smtp, "utw9@example.pl") if m["Subject"].startswith("On the waiting list")]
    assert "place 1." in text_of(waiting)
    # the third organisation withdraws from its own link (in every message)
    (in_message,) = [m for m in to(smtp, "utw3@example.pl") if m["Subject"].startswith("You are in")]
    own = path_of([link for link in links_in(text_of(in_message)) if not link.endswith("confirm/")][0])
    assert client.post(own).status_code == 302
    assert Entry.objects.get(organisation="UTW Miasto 9").state == "player"
    run_queued_tasks()
    promoted = [m for m in to(smtp, "utw9@example.pl") if m["Subject"].startswith("A place came free")]
    assert len(promoted) == 1
    ids = [m["Message-ID"] for m in smtp.messages()]
    assert len(ids) == len(set(ids)) == 9 + 8 + 1 + 1  # confirmations, in, waiting, promoted


@pytest.mark.django_db(transaction=True)
def test_with_the_mail_server_down_the_entry_succeeds_and_its_message_arrives_once_later(client, smtp):
    tournament = open_tournament()
    smtp.stop()
    assert enter(client, tournament, 1).status_code == 302
    run_queued_tasks()
    mail = OutgoingMail.objects.get()
    assert (mail.state, mail.attempts) == ("queued", 1) and "Connection" in mail.last_error
    assert mail.next_attempt_at > timezone.now()  # retried after a backoff, not at once
    smtp.start()
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())  # the backoff has passed
    run_queued_tasks()
    run_queued_tasks()
    assert len(to(smtp, "utw1@example.pl")) == 1
    mail.refresh_from_db()
    assert (mail.state, mail.attempts) == ("sent", 2)
    (message,) = smtp.messages()
    assert message["Message-ID"] == mail.message_id


ENTER = """
import datetime
from django.utils import timezone
from organiser.interchange import import_tournament
from organiser.services.entries import EntryData, submit_entry
data = {"format": "rummikub-tournament/1", "players": [], "rounds": [],
        "tournament": {"name": "Senioriada", "slug": "mail", "date": "2030-05-10",
                       "settings": {"entries_until": (timezone.now() + datetime.timedelta(days=3)).isoformat()}}}
tournament = import_tournament(data)
submit_entry(tournament, EntryData("UTW Kraków", "Nowak", "Anna", None, "Jan", "utw@example.pl", "", "zgoda"),
             form_key="k" * 20, client="10.0.0.1", site="http://127.0.0.1:8000/")
"""
STATE = """
import json
from tournament.models import OutgoingMail
print(json.dumps(list(OutgoingMail.objects.values_list("state", "attempts"))))
"""


@pytest.mark.server
def test_a_worker_killed_mid_send_makes_no_second_copy(tmp_path):
    with MailServer(tmp_path / "smtp") as smtp, Server(tmp_path / "var") as server:
        server.env.update(smtp.settings())
        server.manage("shell", "-v", "0", "-c", ENTER)

        smtp.hold()  # the server keeps the sender waiting in the middle of the conversation
        kill_9_once(server.worker(), started=smtp.holding)
        assert server.shell(STATE) == [["sending", 1]] and smtp.messages() == []
        smtp.release()
        with stopping(server.worker()):
            wait_for(lambda: server.shell(STATE) == [["sent", 2]], timeout=60)
        (message,) = smtp.messages()
        assert message["To"] == "utw@example.pl"
        assert message["Subject"] == "Potwierdź zgłoszenie: Senioriada"  # the public language: Polish, the default
