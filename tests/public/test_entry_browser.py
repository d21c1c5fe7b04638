"""A senior university enters its player on a 390 px phone, in Polish (issue 47): the form's own
errors shown beside the fields, then the entry sent; and the organiser's entries page on a tablet."""

import pytest
from playwright.sync_api import expect

from organiser.models import Entry
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page
from tests.support.entries import open_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_is_entered_on_a_phone_in_polish_with_the_forms_errors(live_server, new_page, settings):
    settings.EMAIL_HOST = ""
    tournament = open_tournament()
    page = new_page(PHONE, locale="pl-PL")
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    page.get_by_role("link", name="Zgłoś gracza").click()
    expect(page.get_by_role("heading", name="Zgłoś gracza")).to_be_visible()
    page.get_by_label("Uniwersytet trzeciego wieku, klub lub stowarzyszenie").fill("UTW Kraków")
    page.get_by_label("Nazwisko gracza").fill("Wójcik 😀")
    page.get_by_label("Imiona gracza").fill("Łucja")
    page.get_by_label("Rok urodzenia gracza (nieobowiązkowo)").fill("1890")
    page.get_by_label("Osoba do kontaktu").fill("Jan Sekretarz")
    page.get_by_label("E-mail do kontaktu").fill("nie-adres")
    page.get_by_role("button", name="Wyślij zgłoszenie").click()
    expect(page.locator("#id_surname_errors")).to_contain_text("znaku „😀” nie można tu użyć")
    expect(page.locator("#id_birth_year_errors")).to_contain_text("Wpisz rok od 1900 do")
    expect(page.locator("#id_contact_email_errors")).to_contain_text("Wpisz adres e-mail")
    expect(page.locator("#id_consent_errors")).to_contain_text("Zgłoszenie wymaga zgody gracza")
    expect(page.get_by_label("Uniwersytet trzeciego wieku, klub lub stowarzyszenie")).to_have_value("UTW Kraków")
    assert_no_horizontal_scroll(page)
    screenshot(page, "entry-form-errors-390")
    assert not Entry.objects.exists()
    page.get_by_label("Nazwisko gracza").fill("Wójcik")
    page.get_by_label("Rok urodzenia gracza (nieobowiązkowo)").fill("1948")
    page.get_by_label("E-mail do kontaktu").fill("utw.krakow@example.pl")
    page.get_by_text("Gracz zgadza się na publikację").click()
    button = page.get_by_role("button", name="Wyślij zgłoszenie")
    box = button.bounding_box()
    assert box["height"] >= 44
    button.click()
    expect(page.get_by_role("heading", name="Prawie gotowe: potwierdź zgłoszenie")).to_be_visible()
    assert_no_horizontal_scroll(page)
    screenshot(page, "entry-sent-390")
    entry = Entry.objects.get()
    assert (entry.organisation, entry.surname, entry.given_names, entry.birth_year) == (
        "UTW Kraków",
        "Wójcik",
        "Łucja",
        1948,
    )
    page.goto(f"{live_server.url}/t/{tournament.slug}/entry/{entry.token}/confirm/")
    page.get_by_role("button", name="Potwierdź zgłoszenie").click()
    expect(page.locator(".entry-state")).to_contain_text("Potwierdzone: gracz jest na liście graczy turnieju.")
    screenshot(page, "entry-detail-390")


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_the_organisers_entries_page_reads_on_phones_and_tablets(live_server, new_page, client, organiser, viewport):
    from organiser.services.entries import EntryData, confirm_entry, submit_entry

    tournament = open_tournament(capacity=1)
    for number in (1, 2, 3):
        entry = submit_entry(
            tournament,
            EntryData(
                f"UTW Miasto {number}", f"Kowalska{number}", "Anna", 1950, "Jan", f"u{number}@example.pl", "", "zgoda"
            ),
            form_key=f"form-key-number-{number}",
            client="10.0.0.1",
            site=live_server.url,
        )
        if number < 3:
            confirm_entry(entry)
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/staff/{tournament.slug}/entries/")
    expect(page.get_by_text("waiting list, place 1")).to_be_visible()
    expect(page.get_by_text("No mail server is set up")).to_be_visible()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"entries-page-{viewport['width']}")
