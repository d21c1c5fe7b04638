"""The staff help printed (printing/views.py `help_pdf`): a valid A4 PDF per role, for anyone, in
the app's fonts, with the same content as the help page, Polish by default; any WeasyPrint warning
fails (`strict_pdf_rendering`)."""

import pytest
from django.test import Client

from printing.testing import A4_PORTRAIT, flat, page_sizes, pdf_fonts, pdf_text, strict_pdf_rendering  # noqa: F401

pytestmark = pytest.mark.django_db

HEADINGS = {
    "organiser": [
        "Pomoc dla organizatora",
        "Przed dniem turnieju",
        "Obecność",
        "Losowanie",
        "Każda runda",
        "Finał",
        "Ceremonia",
        "Twój zespół",
        "Gracze, którzy wracają",
        "Wysyłanie wyników i kopie zapasowe",
        "Sezon to klasyfikacja",
        "Przyciski na Twoich stronach",
    ],
    "head-referee": ["Pomoc dla sędziego głównego", "Poprawki", "Remisy i finał", "Co widzi publiczność. Ceremonia"],
    "referee": [
        "Pomoc dla sędziów",
        "Przed rundą",
        "Każda runda krok po kroku",
        "Co pokazuje tabela",
        "Link do logowania nie działa",
    ],
}
# In every role's help.
TROUBLES = [
    "Co znaczą stany",
    "Gdy coś pójdzie nie tak",
    "Tablet traci Wi-Fi",
    "Dwa tablety, jedna tabela",
    "Kartka przyznana przez pomyłkę",
    "Gracz się spóźnia",
    "Gracz odchodzi",
    "Laptop albo serwer uruchamia się ponownie",
]


@pytest.fixture(autouse=True)
def polish_by_default(settings):
    settings.LANGUAGE_CODE = "pl"  # the product's default (the suite's is English)


@pytest.mark.parametrize("role", HEADINGS)
def test_each_role_prints_on_a4_with_its_polish_headings(role):
    response = Client().get(f"/print/help/{role}.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-cache"  # asked again each time: never an old copy
    sizes = page_sizes(response.content)
    # the organiser's help in Polish takes 12 pages since it names recognised people, likely duplicates and entries
    assert 2 <= len(sizes) <= 12 and set(sizes) == {A4_PORTRAIT}
    assert pdf_fonts(response.content) <= {"Print-Sans", "Print-Sans-Bold"}  # the app's fonts, not the system's
    text = flat(pdf_text(response.content))
    for heading in HEADINGS[role] + TROUBLES:
        assert heading in text, heading
    assert "Help for" not in text and "When something goes wrong" not in text


def test_the_pdf_follows_the_language_and_names_its_file_by_it():
    english = Client()
    english.cookies["django_language"] = "en"
    response = english.get("/print/help/referee.pdf")
    text = flat(pdf_text(response.content))
    assert "Help for referees" in text and "A tablet loses Wi-Fi" in text and "Pomoc" not in text
    organiser = flat(pdf_text(english.get("/print/help/organiser.pdf").content))
    for heading in ("Your team", "People who come back", "A season", "prepared in the background"):
        assert heading in organiser, heading
    assert 'filename="help-referee-en.pdf"' in response["Content-Disposition"]
    assert 'filename="help-referee-pl.pdf"' in Client().get("/print/help/referee.pdf")["Content-Disposition"]


def test_the_table_of_contents_gives_page_numbers():
    text = pdf_text(Client().get("/print/help/organiser.pdf").content)
    contents = text[
        text.index("Na tej stronie") : text.index("Przed dniem turnieju", text.index("Na tej stronie") + 20)
    ]
    assert "Gdy coś pójdzie nie tak" in text and any(character.isdigit() for character in contents)


def test_the_printed_help_is_the_help_page():
    page = Client().get("/help/head-referee/").content.decode()
    text = flat(pdf_text(Client().get("/print/help/head-referee.pdf").content))
    for sentence in ("Czerwone kartki dajesz tylko Ty.", "Od teraz tabela liczy się do klasyfikacji."):
        assert sentence in page and sentence in text
