"""A round's batch PDFs made by a task: one file for a double request, its progress page, the file
offered when done (the same PDF as rendered at once), reused while the data is unchanged, made
anew when it changes, a failure recorded with "try again", and another organisation's file 404."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from printing import batches, selectors
from printing.testing import pdf_text, polish_players, seated_tournament, strict_pdf_rendering, tournament_data  # noqa: F401
from tests.support.produced import produced
from tests.support.race import at_once
from tests.support.sides import client_of, make_side
from tests.support.tasks import run_queued_tasks
from tournament.models import Player, ProducedFile, Round
from tournament.services import files

pytestmark = pytest.mark.django_db(transaction=True)  # the queue runs in the test's process

SHEETS = "/print/senioriada/round/1/score-sheets.pdf"


@pytest.fixture
def tournament():
    """7 players in round 1: a four-table and a three-table."""
    return seated_tournament(7)


def progress_page(response):
    assert response.status_code == 302
    location = response["Location"]
    assert re.fullmatch(r"/staff/senioriada/files/\d+/", location), location
    return location


def test_a_double_request_makes_one_file_and_one_task(organiser_client, tournament):
    first = progress_page(organiser_client.get(SHEETS))
    second = progress_page(organiser_client.get(SHEETS))
    assert first == second
    assert ProducedFile.objects.count() == 1 and DBTaskResult.objects.count() == 1


def test_two_requests_at_once_meet_the_constraint_and_share_the_first_ones_file(tournament, monkeypatch):
    """The second request did not see the first one's row yet: its insert meets the constraint
    on unfinished files, its queued task rolls back with it, and it answers with the first row."""
    asked = batches.file_request(Round.objects.get(number=1), ProducedFile.Kind.SEATING_BY_TABLE, "/x", 7)
    first = files.ask_for_file(tournament, asked, batches.make_round_pdf)
    monkeypatch.setattr(files.selectors, "unfinished_file", _none_once(files.selectors.unfinished_file))
    second = files.ask_for_file(tournament, asked, batches.make_round_pdf)
    assert second.pk == first.pk
    assert ProducedFile.objects.count() == 1 and DBTaskResult.objects.count() == 1


def _none_once(unfinished_file):
    calls = []

    def looked_up(*args):
        calls.append(args)
        return None if len(calls) == 1 else unfinished_file(*args)

    return looked_up


def test_the_progress_page_shows_how_many_tables_are_done(organiser_client, tournament):
    page = progress_page(organiser_client.get(SHEETS))
    html = organiser_client.get(page).content.decode()
    assert "Waiting for its turn." in html and 'hx-trigger="every 1s"' in html
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in html  # without JavaScript
    ProducedFile.objects.update(status=ProducedFile.Status.RUNNING, done=1, total=2)
    fragment = organiser_client.get(page, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and 'hx-trigger="every 1s"' in fragment
    assert "1 of 2 tables" in fragment
    assert '<progress class="produced-file__bar" value="1" max="2"' in fragment


def test_the_finished_file_is_offered_and_is_the_pdf_rendered_at_once(organiser_client, tournament):
    page = progress_page(organiser_client.get(SHEETS))
    run_queued_tasks()
    done = ProducedFile.objects.get()
    assert (done.status, done.done, done.total) == ("done", 2, 2)
    fragment = organiser_client.get(page, HTTP_HX_REQUEST="true").content.decode()
    assert "hx-trigger" not in fragment  # the polling stops
    download = reverse("organiser:produced_file_download", args=["senioriada", done.pk])
    assert f'href="{download}"' in fragment
    response = organiser_client.get(download)
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="senioriada-round-1-score-sheets.pdf"'
    round_ = Round.objects.get(number=1)
    at_once = batches.score_sheets_pdf(round_, selectors.round_tables(round_), done.arguments["venue"])
    assert pdf_text(response.content) == pdf_text(at_once) and "Władysław Gąsior" in pdf_text(response.content)


def test_unchanged_data_is_answered_with_the_finished_file(organiser_client, tournament):
    first = produced(organiser_client, SHEETS)
    again = organiser_client.get(SHEETS)
    assert again.status_code == 200 and again.content == first.content
    assert ProducedFile.objects.count() == 1 and DBTaskResult.objects.count() == 1


def test_changed_data_makes_a_new_file(organiser_client, tournament):
    produced(organiser_client, SHEETS)
    player = Player.objects.get(tournament=tournament, ext_id="p0")
    player.surname = "Zmieniona"
    player.save()
    progress_page(organiser_client.get(SHEETS))
    run_queued_tasks()
    assert ProducedFile.objects.filter(status="done").count() == 2
    assert "Zmieniona" in pdf_text(organiser_client.get(SHEETS).content)


def test_another_language_or_venue_address_is_another_file(organiser_client, tournament, settings):
    produced(organiser_client, SHEETS)
    settings.PUBLIC_URL = "http://192.168.1.50:8000"  # the QR codes' address
    progress_page(organiser_client.get(SHEETS))
    organiser_client.cookies["django_language"] = "pl"
    progress_page(organiser_client.get(SHEETS))
    assert ProducedFile.objects.count() == 3


def test_a_failed_render_is_recorded_with_try_again(organiser_client, tournament, monkeypatch, caplog):
    def broken(*args):
        raise ValueError("the printer ran out of ink")

    monkeypatch.setattr(batches, "table_cards_pdf", broken)
    cards = "/print/senioriada/round/1/table-cards.pdf"
    page = progress_page(organiser_client.get(cards))
    run_queued_tasks()
    failed = ProducedFile.objects.get()
    assert failed.status == "failed" and failed.error == "ValueError: the printer ran out of ink"
    assert "senioriada-round-1-table-cards.pdf" in caplog.text  # logged, with its traceback
    html = organiser_client.get(page).content.decode()
    assert "The file could not be made." in html and "the printer ran out of ink" in html
    assert f'href="{cards}">Try again' in html and "hx-trigger" not in html
    monkeypatch.undo()
    assert produced(organiser_client, cards)["Content-Type"] == "application/pdf"
    assert ProducedFile.objects.filter(status="done").count() == 1


def test_another_organisations_file_answers_404():
    alfa = make_side("alfa", tournament_data(polish_players(4), slug="alfa-cup"))
    bravo = make_side("bravo", tournament_data(polish_players(4), slug="bravo-cup"))
    asked = files.FileRequest("results_site", "b.zip", "application/zip", "/x", 1)
    theirs = files.ask_for_file(bravo.tournament, asked, batches.make_round_pdf)
    organiser = client_of(alfa, "organiser")
    for name in ("organiser:produced_file", "organiser:produced_file_download"):
        assert organiser.get(reverse(name, args=[bravo.tournament.slug, theirs.pk])).status_code == 404
        assert organiser.get(reverse(name, args=[alfa.tournament.slug, theirs.pk])).status_code == 404
        own = client_of(bravo, "organiser").get(reverse(name, args=[bravo.tournament.slug, theirs.pk]))
        assert own.status_code in (200, 302)  # the page; the file not made yet: back to its page
    assert organiser.get("/print/bravo-cup/round/1/score-sheets.pdf").status_code == 404


def test_the_progress_page_reads_the_database_four_times(organiser_client, tournament, django_assert_num_queries):
    page = progress_page(organiser_client.get(SHEETS))
    organiser_client.get(page)
    with django_assert_num_queries(4):  # the session, its user, the tournament with the roles held, the file
        organiser_client.get(page, HTTP_HX_REQUEST="true")


def test_score_sheets_report_each_table_as_it_is_laid_out(tournament):
    round_ = Round.objects.get(number=1)
    reported = []
    with batches.pages_laid_out(reported.append):
        batches.score_sheets_pdf(round_, selectors.round_tables(round_), "http://192.168.1.9:8000")
    assert reported == [1, 2]  # the two tables' pages (the one form's page came first: page 1)


def test_a_file_whose_worker_stopped_is_shown_failed_and_asked_again(organiser_client, tournament):
    page = progress_page(organiser_client.get(SHEETS))
    long_ago = timezone.now() - files.STALE_AFTER - datetime.timedelta(minutes=1)
    ProducedFile.objects.update(status="running", done=1, total=2, updated_at=long_ago)
    html = organiser_client.get(page).content.decode()
    assert "The file was not finished: the server stopped making it." in html and "hx-trigger" not in html
    assert f'href="{SHEETS}">Try again' in html
    assert progress_page(organiser_client.get(SHEETS)) != page
    run_queued_tasks()
    assert list(ProducedFile.objects.order_by("pk").values_list("status", flat=True)) == ["failed", "done"]


def test_eight_requests_at_the_same_moment_make_one_file(tournament):
    """Eight servers (threads with connections of their own) ask at once: one row, one task."""
    asked = batches.file_request(Round.objects.get(number=1), ProducedFile.Kind.TABLE_CARDS, "/x", 3)
    answers = at_once(lambda _: files.ask_for_file(tournament, asked, batches.make_round_pdf).pk, 8)
    assert len(answers) == 8 and len(set(answers)) == 1
    assert ProducedFile.objects.count() == 1 and DBTaskResult.objects.count() == 1
