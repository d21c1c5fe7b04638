"""The results website's zip made by a task: the same site as made at once, its progress counted in
pages, reused while the public data is unchanged, made anew when it changes, the organiser's only."""

import io
import re
import zipfile

import pytest
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from organiser.exports.site import site_files
from tests.factories import hostile_tournament
from tests.support.produced import produced
from tests.support.tasks import run_queued_tasks
from tournament.models import Player, ProducedFile

pytestmark = pytest.mark.django_db(transaction=True)  # the queue runs in the test's process


@pytest.fixture
def tournament():
    return hostile_tournament()


def site_url(tournament):
    return reverse("organiser:export_file", args=[tournament.slug, "results-site.zip"])


def members(content):
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def without_stamp(content):
    return re.sub(rb'<p class="muted site-stamp">.*?</p>', b"", content, flags=re.S)


def test_the_zip_holds_the_site_made_at_once_and_counted_its_pages(organiser_client, tournament):
    response = produced(organiser_client, site_url(tournament))
    assert response["Content-Disposition"] == f'attachment; filename="{tournament.slug}-results-site.zip"'
    made = members(response.content)
    at_once = site_files(tournament)
    assert made.keys() == at_once.keys()
    for name in ("style.css", "players.html"):  # the pages' "Results as of" minute may have moved on
        assert without_stamp(made[name]) == without_stamp(at_once[name])
    done = ProducedFile.objects.get()
    assert done.done == done.total == len(at_once)  # a page at a time


def test_unchanged_public_data_reuses_the_zip_and_a_change_makes_a_new_one(organiser_client, tournament):
    first = produced(organiser_client, site_url(tournament))
    assert organiser_client.get(site_url(tournament)).content == first.content
    assert DBTaskResult.objects.count() == 1
    Player.objects.filter(tournament=tournament, start_number=1).update(given_names="Zmieniony")
    page = organiser_client.get(site_url(tournament))
    assert page.status_code == 302 and page["Location"].startswith(f"/staff/{tournament.slug}/files/")
    progress = organiser_client.get(page["Location"]).content.decode()
    assert "Waiting for its turn." in progress and f'href="/staff/{tournament.slug}/exports/"' in progress
    ProducedFile.objects.filter(status="queued").update(status="running", done=3, total=12)
    running = organiser_client.get(page["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "3 of 12 pages" in running
    run_queued_tasks()
    assert "Download the file" in organiser_client.get(page["Location"]).content.decode()
    assert any(b"Zmieniony" in page for page in members(organiser_client.get(site_url(tournament)).content).values())


def test_a_head_referee_may_not_open_the_websites_file(head_referee, organiser_client, tournament):
    page = organiser_client.get(site_url(tournament))["Location"]
    head_referee_client = Client()
    head_referee_client.force_login(head_referee)
    assert head_referee_client.get(page).status_code == 403
    assert head_referee_client.get(page + "download/").status_code == 403
