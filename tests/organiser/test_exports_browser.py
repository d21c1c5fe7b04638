"""The organiser's "Results and exports" page in Chromium: each button downloads its file (the
results site from its progress page, once the queue ran), and the downloaded results site opens from file:// with its style sheet and working links."""

import zipfile

import pytest

from tests.factories import HOSTILE_NAMES, hostile_tournament
from tests.support.browser import PHONE, assert_no_horizontal_scroll, signed_in_page
from tests.support.files import formula_cells, read_csv, read_workbook
from tests.support.tasks import run_queued_tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BUTTONS = {
    "Spreadsheet (XLSX): standings, every round, the final, cards": "test-results.xlsx",
    "Standings (CSV for Excel)": "test-standings.csv",
    "Every round's results (CSV for Excel)": "test-rounds.csv",
    "Standings (CSV with commas)": "test-standings-comma.csv",
    "Every round's results (CSV with commas)": "test-rounds-comma.csv",
}


def test_the_export_buttons_download_the_files(new_page, live_server, client, organiser, tmp_path):
    hostile_tournament()
    page = signed_in_page(new_page, live_server, client, organiser)
    page.goto(f"{live_server.url}/staff/test/")
    page.get_by_role("link", name="Results and exports").click()
    page.get_by_role("heading", name="Results and exports").wait_for()
    saved = {}
    for label, filename in BUTTONS.items():
        with page.expect_download() as download:
            page.get_by_role("link", name=label).click()
        assert download.value.suggested_filename == filename
        saved[filename] = tmp_path / filename
        download.value.save_as(saved[filename])
    # The website is made by a task: its progress page, polling, offers it once the queue ran.
    page.get_by_role("link", name="Results website (ZIP)").click()
    page.get_by_text("Waiting for its turn.").wait_for()
    run_queued_tasks()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the file").click()
    assert download.value.suggested_filename == "test-results-site.zip"
    saved["test-results-site.zip"] = tmp_path / "test-results-site.zip"
    download.value.save_as(saved["test-results-site.zip"])

    workbook = saved["test-results.xlsx"].read_bytes()
    assert formula_cells(workbook) == []
    assert read_workbook(workbook)["Standings"][1][1][:6] == [
        1,
        HOSTILE_NAMES[0],
        "=1+1 Klub <b>Seniora</b>",
        1,
        158,
        1,
    ]
    assert read_csv(saved["test-standings.csv"].read_bytes())[1][1] == "'" + HOSTILE_NAMES[0]
    assert read_csv(saved["test-rounds.csv"].read_bytes())[1][:2] == ["Round 1", "1"]
    assert read_csv(saved["test-standings-comma.csv"].read_bytes(), ",") == read_csv(
        saved["test-standings.csv"].read_bytes()
    )

    site = tmp_path / "site"
    with zipfile.ZipFile(saved["test-results-site.zip"]) as archive:
        archive.extractall(site)
    offline = new_page(PHONE)
    offline.goto((site / "index.html").as_uri())
    offline.get_by_role("link", name="Standings").first.click()
    assert offline.url.endswith("/standings.html")
    assert (
        float(offline.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")) >= 18
    )  # the style sheet applies
    assert_no_horizontal_scroll(offline)
    offline.get_by_role("link", name=HOSTILE_NAMES[5]).click()  # the <script> player, as text
    assert offline.url.endswith("/players/6.html")
    offline.get_by_role("link", name="Round 1").click()
    assert offline.url.endswith("/rounds/1.html")
