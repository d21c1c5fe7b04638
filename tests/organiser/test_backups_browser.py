"""The organiser downloads a backup in Chromium and restores it through the page."""

import json

import pytest
from playwright.sync_api import expect

from organiser import services
from organiser.backups import restore
from tests.factories import checked_in
from tests.support.browser import PHONE, TABLET, screenshot, signed_in_page
from tests.support.tasks import run_queued_tasks
from tournament.models import Player, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_the_organiser_downloads_a_backup_and_restores_it_through_the_page(
    new_page, live_server, client, organiser, settings, tmp_path, viewport
):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_SNAPSHOTS = "on"
    tournament = checked_in(8)
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/staff/test/")
    page.get_by_role("link", name="Backups").click()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the backup now").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("test-") and saved.suffix == ".json"

    services.add_player(tournament, name="Gracz po kopii", organisation="Klub 99", user=organiser)
    assert Player.objects.filter(tournament=tournament).count() == 9

    page.get_by_label("Backup file").set_input_files(saved)
    page.get_by_role("button", name="Check the file").click()
    page.get_by_text("The tournament “Senioriada Test” will be replaced").wait_for()
    assert page.locator(".backup-preview").inner_text().split() == [
        "Tournament",
        "Senioriada",
        "Test",
        "Address",
        "test",
        "Date",
        "10",
        "February",
        "2026",
        "Players",
        "8",
        "Rounds",
        "0",
        "Score",
        "sheets",
        "0",
        "with",
        "results,",
        "0",
        "verified",
        "Cards",
        "0",
        "Log",
        "entries",
        str(len(json.loads(saved.read_text())["audit"])),
    ]
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(page, f"backup-preview-{viewport['width']}")
    page.get_by_label("Yes, replace the tournament “Senioriada Test” with this backup.").check()
    page.get_by_role("button", name="Replace “Senioriada Test”").click()
    page.get_by_text("The backup is being restored.").wait_for()  # the worker restores it
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(page, f"restore-applying-{viewport['width']}")
    run_queued_tasks()
    page.get_by_text("has been restored from the backup").wait_for()  # the page refreshes by itself
    screenshot(page, f"restore-done-{viewport['width']}")
    page.get_by_role("link", name="Open “Senioriada Test”").click()
    assert page.url == f"{live_server.url}/staff/test/"
    restored = Tournament.objects.get(slug="test")
    assert restored.pk != tournament.pk
    assert sorted(Player.objects.filter(tournament=restored).values_list("name", flat=True)) == [
        f"Gracz {i}" for i in range(1, 9)
    ]

    page.get_by_role("link", name="Backups").click()
    expect(page.locator(".snapshot-list li")).to_have_count(2)  # before the restore, and after it
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(page, f"backups-{viewport['width']}")


def test_a_file_over_the_limit_is_refused_before_it_is_sent(new_page, live_server, client, organiser, monkeypatch):
    monkeypatch.setattr(restore, "MAX_UPLOAD", 2**20)  # 1 MB: the same check with a file a busy machine sends fast
    checked_in(4)
    page = signed_in_page(new_page, live_server, client, organiser)
    page.goto(f"{live_server.url}/staff/new/restore/")
    sent = []
    page.on("request", lambda request: sent.append(request.method) if request.method == "POST" else None)
    page.get_by_label("Backup file").set_input_files(
        {"name": "huge.json", "mimeType": "application/json", "buffer": b" " * (2**20 + 1)}
    )
    page.get_by_role("button", name="Check the file").click()
    page.get_by_text("The file is larger than 1 MB").wait_for()
    assert sent == [] and Tournament.objects.count() == 1
