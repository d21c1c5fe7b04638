"""Steps the browser tests of several apps share: a referee's tablet on an empty sheet, and the
tournament the end-to-end test and the organiser's day make in the UI (posting a button,
downloading a PDF, entering a score sheet, the names on the public standings)."""

import io
from urllib.parse import urlsplit

from django.contrib.auth.models import User
from pypdf import PdfReader

from accounts.services import make_member
from scoring.services.sheets import games_per_table
from tests.factories import build, started_round, table
from tests.support.browser import ARTIFACTS, TABLET
from tests.support.produced import PROGRESS_PAGE
from tests.support.tasks import run_queued_tasks


def open_empty_sheet(live_server, new_page, locale="en-GB"):
    """A referee's tablet signed in, on the empty sheet of a four-table."""
    build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])
    user = User.objects.create_user("tablet", password="secret-pass-123")
    make_member(user, "referee")
    page = new_page(TABLET, locale=locale)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "tablet")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.narrow button[type=submit]")
    page.goto(f"{live_server.url}/referee/test/round/1/table/1/")
    return page


# ---------------------------------------------------------------- a tournament made in the UI: the end-to-end
# tournament (tests/system/) and the organiser's day (tests/organiser/)

SLUG = "e2e-cup"


def post_button(page, action_suffix):
    """Click the button of the plain form posting to a URL ending in `action_suffix`; wait for the next page."""
    with page.expect_navigation():
        page.click(f"form[action$='{action_suffix}'] button[type=submit]")


def download_pdf(page, href, name):
    """Fetch a PDF with the page's own cookies, keep it as an artifact; return its pypdf reader.
    A round's batch PDF answers with its progress page first: the queue runs, and it is asked again."""
    response = page.context.request.get(href)
    if PROGRESS_PAGE.match(urlsplit(response.url).path):
        run_queued_tasks()
        response = page.context.request.get(href)
    assert response.ok, (href, response.status)
    assert response.headers["content-type"].startswith("application/pdf")
    body = response.body()
    assert body.startswith(b"%PDF")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.pdf").write_bytes(body)
    return PdfReader(io.BytesIO(body))


def pdf_text(reader):
    return " ".join(page.extract_text() for page in reader.pages)


def sheet_url(live_server, round_number, table_number):
    return f"{live_server.url}/referee/{SLUG}/round/{round_number}/table/{table_number}/"


def enter_sheet(page, live_server, table, winners=None, tiles=None):
    """Type one table's games on the score sheet, save each game, submit the sheet.

    Game k is won by `winners[k]` (default: the seats in turn); each other seat keeps
    `tiles(k, letter)` points of tiles on its rack.
    """
    seated = dict(table.seats.values_list("letter", "player_id"))
    letters = sorted(seated)
    n_games = games_per_table(table)
    page.goto(sheet_url(live_server, table.round.number, table.number))
    for k in range(1, n_games + 1):
        winner = winners[k - 1] if winners else letters[(k - 1) % len(letters)]
        page.click(f"label[for=g{k}-ending-{winner}]")
        for letter in letters:
            if letter != winner:
                # spread values, so that no tie for the final needs a head referee's decision
                value = tiles(k, letter) if tiles else 1 + (seated[letter] * 37 + k * 11 + table.number * 5) % 60
                page.fill(f"#g{k}-{letter}-tiles", str(value))
        page.click(f"#game-{k} .save-button")
        page.wait_for_selector(f"#g{k}-status .status--saved")
    page.click(".confirm-submit summary")  # submitting asks for confirmation
    post_button(page, "/submit/")
    assert page.locator("#sheet-state.state--submitted").count() == 1


def public_names(phone):
    return phone.locator("#leaderboard table.standings td.who a").all_inner_texts()
