"""Importing players from CSV and XLSX files: every problem named, nothing imported."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from organiser.importers import read_player_file
from tests.factories import build
from tests.support.files import xlsx
from tournament.models import Player
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parents[1] / "data"


def upload(client, name, content, headers=None):
    return client.post("/staff/test/players/import/", {"file": SimpleUploadedFile(name, content)}, headers=headers)


def problems(response):
    return [p.message for p in response.context["problems"]]


def test_the_sample_file_of_42_players_is_imported_in_file_order(organiser_client):
    build(0)
    response = upload(organiser_client, "players-42.csv", (DATA / "players-42.csv").read_bytes())
    assert response.status_code == 302
    players = list(Player.objects.order_by("start_number"))
    assert len(players) == 42
    assert (players[0].start_number, players[0].name, players[0].organisation.name, players[0].ext_id) == (
        1,
        "Genowefa Gąsior",
        "Uniwersytet Trzeciego Wieku – Rabka-Zdrój",
        "p1",
    )
    assert (players[-1].name, players[-1].ext_id) == ("Anna Wiśniewska", "p42")
    assert {p.org_slot for p in players} == {1}


@pytest.mark.parametrize("encoding, separator", [("utf-8", ","), ("utf-8-sig", ";"), ("cp1250", ";"), ("cp1250", ",")])
def test_utf8_with_or_without_bom_and_windows_1250_with_either_separator(encoding, separator):
    text = f'Name{separator}Organisation\r\nŁucja Żak{separator}UTW Łódź\r\n\r\n"Nowak, Anna"{separator}Klub Seniora Kraków\r\n'
    rows = read_player_file("list.csv", text.encode(encoding))
    assert [(r.line, r.given_names, r.surname, r.name, r.organisation) for r in rows] == [
        (2, "Łucja", "Żak", "Łucja Żak", "UTW Łódź"),
        (4, "Anna", "Nowak", "Anna Nowak", "Klub Seniora Kraków"),
    ]


def test_polish_column_titles_in_any_order():
    rows = read_player_file("lista.csv", "Organizacja;Imię i nazwisko\nUTW Kraków;Anna Maria Nowak\n".encode())
    assert [(r.given_names, r.surname, r.organisation) for r in rows] == [("Anna Maria", "Nowak", "UTW Kraków")]


NAMES_APART = [
    ("Anna Maria", "Nowak-Lis", "UTW Kraków"),
    ("Jan", "van Dijk", "Klub Łódź"),
    ("Łucja", "Żak", "UTW Łódź"),
]


@pytest.mark.parametrize(
    "header",
    [
        "Imię;Nazwisko;Organizacja",
        "Nazwisko;Imię;Organizacja",
        "imie;nazwisko;klub",
        "Imiona;Nazwisko;Organizacja",
        "First name;Last name;Organisation",
        "Surname;Given names;Organization",
        "Imię i nazwisko;Imię;Nazwisko;Organizacja",  # two name columns win over one
    ],
)
def test_the_name_in_two_columns_polish_or_english(header):
    def cell(title, given_names, surname, organisation):
        title = title.lower()
        if title in ("imię", "imie", "imiona", "first name", "given names"):
            return given_names
        if title in ("nazwisko", "last name", "surname"):
            return surname
        return "?" if title == "imię i nazwisko" else organisation

    lines = [header] + [";".join(cell(title, *player) for title in header.split(";")) for player in NAMES_APART]
    rows = read_player_file("lista.csv", "\r\n".join(lines).encode("cp1250"))
    assert [(r.given_names, r.surname, r.organisation) for r in rows] == NAMES_APART
    assert [r.name for r in rows] == ["Anna Maria Nowak-Lis", "Jan van Dijk", "Łucja Żak"]


def test_a_surname_first_column_and_names_with_a_comma():
    text = 'Nazwisko i imię,Organizacja\nNowak Anna Maria,UTW Kraków\n"Lis, Jan",UTW Kraków\nŻak,Klub\n'
    rows = read_player_file("lista.csv", text.encode())
    assert [(r.given_names, r.surname) for r in rows] == [("Anna Maria", "Nowak"), ("Jan", "Lis"), ("", "Żak")]
    rows = read_player_file("list.csv", b"Name,Organisation\nLis Jan,Klub\nJan Lis,Klub\n")
    assert [(r.given_names, r.surname) for r in rows] == [
        ("Lis", "Jan"),
        ("Jan", "Lis"),
    ]  # one name column: surname last


def test_two_name_columns_import_with_the_parts_kept(organiser_client):
    build(0)
    content = xlsx(
        [["Nazwisko", "Imię", "Organizacja"], ["Nowak Kowalska", "Anna", "UTW Kraków"], ["Ćwik", "Jan", "Klub"]]
    )
    assert upload(organiser_client, "lista.xlsx", content).status_code == 302
    players = list(Player.objects.order_by("start_number").values_list("given_names", "surname", "name"))
    assert players == [("Anna", "Nowak Kowalska", "Anna Nowak Kowalska"), ("Jan", "Ćwik", "Jan Ćwik")]


def test_an_empty_surname_is_named_in_a_file_with_two_name_columns(organiser_client):
    build(0)
    content = "Imię;Nazwisko;Organizacja\nAnna;;UTW\n;;Klub\n;Lis;Klub 2\n".encode()
    response = upload(organiser_client, "lista.csv", content)
    assert problems(response) == ["Line 2: the surname is empty.", "Line 3: the name is empty."]
    assert Player.objects.count() == 0


@pytest.mark.parametrize("header", ["Imię;Organizacja", "Nazwisko;Organizacja", "Imię;Nazwisko"])
def test_a_header_without_a_whole_name_or_both_parts_is_refused(header):
    with pytest.raises(Refused, match="^file_header$") as refused:
        read_player_file("lista.csv", f"{header}\nAnna;Nowak\n".encode())
    assert "“name” (or “given names” and “surname”) and “organisation”" in refused.value.message


def test_a_file_that_is_neither_utf8_nor_polish_windows_1250_is_refused():
    with pytest.raises(Refused, match="^file_not_utf8$") as refused:
        read_player_file("list.csv", "name,organisation\nJosé Müller,Club\n".encode("latin-1"))
    assert "is not in UTF-8" in refused.value.message


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("players.csv", b"", "The file \u201cplayers.csv\u201d is empty."),
        ("players.csv", b"  \r\n\n", "The file \u201cplayers.csv\u201d is empty."),
        ("players.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "it looks like a PNG file"),
        ("players.csv", b"%PDF-1.7\n", "it looks like a PDF file"),
        ("players.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "old Excel file (.xls)"),
        ("players.xlsx", b"name,organisation\nA,B\n", "is not a valid Excel (.xlsx) file"),
        ("players.xlsx", b"PK\x03\x04 broken zip", "is not a valid Excel (.xlsx) file"),
        ("players.csv", b"Anna Nowak,UTW\n", "Line 1: the first line must name the columns"),
        ("players.csv", b"name,organisation\n", "has no players below its header"),
        ("players.csv", b"name,organisation\nAnna\x00,B\n", "is not a CSV or Excel (.xlsx) file"),
        ("players.csv", b"name,organisation\n" + b"x" * 200_000 + b",B\n", "cannot be read as a CSV file"),
        ("players.csv", b"name,organisation\n" + b"Anna,B\n" * 400_000, "is too large (at most 2 MB)"),
        (
            "players.csv",
            b"name,organisation\n" + b"".join(b"P%d,O%d\n" % (i, i) for i in range(2001)),
            "more than 2000 players",
        ),
    ],
)
def test_a_file_of_the_wrong_kind_is_named_and_nothing_is_imported(organiser_client, name, content, message):
    build(2)
    response = upload(organiser_client, name, content)
    assert response.status_code == 200
    assert any(message in p for p in problems(response)), problems(response)
    assert message in response.content.decode().replace("&#x27;", "'")
    assert Player.objects.count() == 2


def test_every_bad_line_is_named_and_nothing_is_imported(organiser_client):
    build(0)
    content = (
        "name;organisation\n"
        "Anna Nowak;UTW Kraków\n"  # 2
        ";UTW Kraków\n"  # 3: empty name
        "Jan Lis;\n"  # 4: empty organisation
        "Ewa Bąk;Klub Łódź\n"  # 5
    ).encode()
    response = upload(organiser_client, "list.csv", content)
    assert problems(response) == ["Line 3: the name is empty.", "Line 4: the organisation is empty."]
    assert Player.objects.count() == 0


def test_duplicates_and_every_over_quota_line_are_named(organiser_client):
    build(2, settings={"players_per_organisation": 2})  # Gracz 1 of Klub 1 and Gracz 2 of Klub 2
    content = (
        "name,organisation\n"
        "Anna Nowak,UTW Kraków\n"  # 2
        "Jan Lis,UTW Kraków\n"  # 3
        "anna  nowak,utw kraków\n"  # 4: the same player again, and a third player of UTW Kraków
        "Gracz 1,Klub 1\n"  # 5: already registered
        "Ewa Bąk,Klub 2\n"  # 6: Klub 2 already has one
        "Ola Kot,Klub 2\n"  # 7: … and this is its third
    ).encode()
    response = upload(organiser_client, "list.csv", content)
    assert problems(response) == [
        "Line 2: UTW Kraków: 3 players on lines 2, 3, 4; the limit is 2 per organisation.",
        "Line 4: anna nowak appears twice for utw kraków (also line 2).",
        "Line 5: Gracz 1 is already registered for Klub 1.",
        "Line 6: Klub 2: 2 players on lines 6, 7 and 1 already registered; the limit is 2 per organisation.",
    ]
    assert Player.objects.count() == 2


def test_an_xlsx_file_is_imported(organiser_client):
    build(1, settings={"players_per_organisation": 2})
    content = xlsx([["Name", "Organisation"], ["Zofia Żak", "Klub 1"], [None, None], ["Jan Łoś", 2026]])
    response = upload(organiser_client, "lista.xlsx", content)
    assert response.status_code == 302
    added = list(
        Player.objects.order_by("start_number").values_list("start_number", "name", "organisation__name", "org_slot")
    )
    assert added == [(1, "Gracz 1", "Klub 1", 1), (2, "Zofia Żak", "Klub 1", 2), (3, "Jan Łoś", "2026", 1)]


def test_an_xlsx_file_with_problems_names_its_rows(organiser_client):
    build(0)
    response = upload(
        organiser_client, "lista.xlsx", xlsx([["name", "organisation"], ["Anna", "A"], ["", "B"], ["Ewa", "A"]])
    )
    assert problems(response) == [
        "Line 2: A: 2 players on lines 2, 4; the limit is 1 per organisation.",
        "Line 3: the name is empty.",
    ]
    assert Player.objects.count() == 0


def test_an_htmx_upload_with_problems_returns_the_form_with_status_200(organiser_client):
    build(0)
    response = upload(organiser_client, "x.csv", b"", headers={"HX-Request": "true"})
    assert response.status_code == 200
    content = response.content.decode()
    assert "<!doctype" not in content.lower() and 'id="import-form"' in content and "is empty" in content


def test_no_file_chosen_is_a_form_error(organiser_client):
    build(0)
    response = organiser_client.post("/staff/test/players/import/", {})
    assert response.status_code == 200 and "file" in response.context["form"].errors


def test_the_import_page_opens_without_an_error_and_an_empty_post_names_the_field(organiser_client):
    build(0)
    page = organiser_client.get("/staff/test/players/import/")
    assert not page.context["form"].is_bound
    assert "errorlist" not in page.content.decode() and "This field is required." not in page.content.decode()
    assert "An organisation may enter at most 1 player." in page.content.decode()
    refused = organiser_client.post("/staff/test/players/import/", {})
    assert refused.context["form"].errors["file"] == ["This field is required."]
    assert 'class="errorlist"' in refused.content.decode() and not Player.objects.exists()


def test_the_polish_import_page_names_the_columns_the_import_reads(organiser_client, settings):
    build(0)
    html = organiser_client.get("/staff/test/players/import/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "<th>imię i nazwisko</th><th>organizacja</th>" in html
    rows = read_player_file("lista.csv", "imię i nazwisko,organizacja\nAnna Nowak,UTW Kraków\n".encode())
    assert [(row.name, row.organisation) for row in rows] == [("Anna Nowak", "UTW Kraków")]
