"""The staff help pages (accounts/help.py, public/views.py): one per role and an index, for
anyone, in Polish by default and in English, the same content as the printed help."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def polish_by_default(settings):
    settings.LANGUAGE_CODE = "pl"  # the product's default (the suite's is English)


PAGES = {
    "/help/organiser/": ("Pomoc dla organizatora", "Help for the organiser"),
    "/help/head-referee/": ("Pomoc dla sędziego głównego", "Help for the head referee"),
    "/help/referee/": ("Pomoc dla sędziów", "Help for referees"),
}
# Headings every role's page has, in Polish and in English.
COMMON = [
    ("Co znaczą stany", "What the states mean"),
    ("Gdy coś pójdzie nie tak", "When something goes wrong"),
    ("Tablet traci Wi-Fi", "A tablet loses Wi-Fi"),
    ("Kartka przyznana przez pomyłkę", "A card given by mistake"),
]


def visitor(language):
    client = Client()
    client.cookies["django_language"] = language
    return client


@pytest.mark.parametrize("url", [*PAGES, "/help/"])
def test_every_help_page_answers_in_polish_by_default_and_in_english(url):
    polish = Client().get(url)  # no cookie, no Accept-Language: the default language
    english = visitor("en").get(url)
    assert polish.status_code == english.status_code == 200
    assert '<html lang="pl">' in polish.content.decode() and '<html lang="en">' in english.content.decode()
    for polish_title, english_title in PAGES.values() if url == "/help/" else [PAGES[url]]:
        assert polish_title in polish.content.decode() and polish_title not in english.content.decode()
        assert english_title in english.content.decode() and english_title not in polish.content.decode()


@pytest.mark.parametrize("url", PAGES)
def test_each_role_page_has_the_day_the_states_and_the_troubles(url):
    polish, english = visitor("pl").get(url).content.decode(), visitor("en").get(url).content.decode()
    for polish_heading, english_heading in COMMON:
        assert polish_heading in polish and english_heading not in polish
        assert english_heading in english
    for state in (
        "pusta",
        "w toku",
        "przekazana",
        "zweryfikowana",
        "szkic",
        "opublikowana",
        "rozpoczęta",
        "zakończona",
    ):
        assert f">{state}</span>" in polish
    assert "„nie zapisano — ponowię próbę”" in polish  # the tablet's own words when a save waits for Wi-Fi


def test_button_names_are_the_screens_own_words():
    organiser = visitor("pl").get("/help/organiser/").content.decode()
    for button in (
        "Opublikuj rozstawienie",
        "Rozpocznij rundę",
        "Zakończ rundę",
        "Rozstaw finał",
        "Zaznacz obecność",
        "Wycofaj z turnieju",
        "Pobierz kopię teraz",
    ):
        assert button in organiser
    referee = visitor("pl").get("/help/referee/").content.decode()
    for button in (
        "Przekaż tabelę",
        "Tak, przekaż tabelę",
        "Odrzuć moje wartości",
        "Przyznaj kartkę",
        "Bank wyczerpany",
    ):
        assert button in referee
    head = visitor("pl").get("/help/head-referee/").content.decode()
    for button in ("Zweryfikuj tabelę", "Ustaw wynik ręcznie", "Zapisz rozstrzygnięcie", "Odsłoń miejsce 3"):
        assert button in head


def test_the_card_paragraph_says_what_the_app_allows_today():
    for url in PAGES:
        page = visitor("en").get(url).content.decode()
        assert page.count('id="card-mistake"') == 1
        assert "Only the head referee withdraws a card" in page and "“Withdraw this card”" in page


@pytest.mark.parametrize("url", [*PAGES, "/help/"])
def test_a_visitor_reads_the_help_without_signing_in_and_gets_no_cookie(url):
    response = Client().get(url)
    assert response.status_code == 200
    assert "csrfmiddlewaretoken" not in response.content.decode()  # the language switch is a plain GET
    assert not response.cookies


def test_each_page_links_to_its_pdf_and_to_the_other_roles():
    page = visitor("pl").get("/help/head-referee/").content.decode()
    assert 'href="/print/help/head-referee.pdf"' in page
    assert 'href="/help/organiser/"' in page and 'href="/help/referee/"' in page
    assert 'href="/help/head-referee/" aria-current="page"' in page
    index = visitor("pl").get("/help/").content.decode()
    for role in ("organiser", "head-referee", "referee"):
        assert f'href="/help/{role}/"' in index and f'href="/print/help/{role}.pdf"' in index


def test_an_unknown_role_has_no_help_page():
    assert Client().get("/help/player/").status_code == 404
    assert Client().post("/help/referee/").status_code == 405


def test_the_pages_tell_the_days_clock_the_questions_the_seating_screen_the_venue_and_the_finals_plan():
    organiser = visitor("pl").get("/help/organiser/").content.decode()
    for words in (
        "„Harmonogram dnia” w panelu",
        "Zegar rundy liczy od „Rozpocznij rundę”",
        "najpierw pytają na stronie",
        "Wycofanie można cofnąć",
        "zaraz po usunięciu strona pozwala je cofnąć",
        "rzutnik pokazuje jej rozstawienie według nazwisk",
        "Każdy turniej ma własny adres na sali",
        "panel pokazuje plan jego wyników",
    ):
        assert words in organiser, words
    head = visitor("pl").get("/help/head-referee/").content.decode()
    assert "Zegar rundy liczy od jej rozpoczęcia" in head and "rzutnik pokazuje jej rozstawienie według nazwisk" in head
    referee = visitor("en").get("/help/referee/").content.decode()
    assert "“Tables” shows the time left in the round" in referee


def test_the_organisers_page_explains_the_team_people_who_come_back_a_season_and_the_background_work():
    polish = visitor("pl").get("/help/organiser/").content.decode()
    english = visitor("en").get("/help/organiser/").content.decode()
    for anchor in ("team", "people", "season"):
        assert polish.count(f'href="#{anchor}"') == 1 and f'<section class="help-section" id="{anchor}"' in polish
    for words in (
        '<h2 id="team-title">Twój zespół</h2>',
        "„Zaproś osobę”: wybierz rolę",
        "„Utwórz link zaproszenia”",
        '<h2 id="people-title">Gracze, którzy wracają</h2>',
        "Formularz pyta „Kto to jest?”",
        "„Dodaj z wcześniejszych turniejów” na stronie graczy",
        "wybierz „Ta sama osoba co…”",
        "„Popraw imię i nazwisko, klub lub rok urodzenia”",
        '<h2 id="season-title">Sezon</h2>',
        "25, 20, 16, 13, 11, potem o jeden mniej",
        "jest tam wymieniony jako „wyniki oczekują”",
        "są przygotowywane w tle: strona pokazuje postęp",
        "make run albo plik startowy",
        "po każdej rundzie naciśnij „Pobierz kopię teraz”",  # the backup's own button, not the progress page's
    ):
        assert words in polish, words
    for words in (
        '<h2 id="team-title">Your team</h2>',
        '<h2 id="people-title">People who come back</h2>',
        '<h2 id="season-title">A season</h2>',
        "The form asks “Who is it?”",
        "prepared in the background",
    ):
        assert words in english and words not in polish, words
