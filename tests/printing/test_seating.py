"""Seating PDFs: by table for the wall, alphabetical "where do I sit", staff and public."""

import re

import pytest
from django.test import Client

from organiser.interchange import import_tournament
from printing.testing import (  # noqa: F401
    A4_PORTRAIT,
    flat,
    page_sizes,
    pdf_reader,
    pdf_text,
    seated_tournament,
    strict_pdf_rendering,
    tournament_data,
    without_spaces,
)
from tests.support.produced import produced
from tournament.models import Player, Round, Seat

pytestmark = pytest.mark.django_db(transaction=True)  # the batch PDFs are made by the queue's tasks


@pytest.fixture
def tournament():
    """14 players: round 1 published (two 4-tables, two 3-tables), round 2 a draft."""
    return seated_tournament(14, states=("published", "draft"))


def seats_of_round(tournament, number):
    return Seat.objects.filter(round__tournament=tournament, round__number=number).select_related("player", "table")


def test_seating_by_table_lists_every_table_and_player(organiser_client, tournament):
    response = produced(organiser_client, "/print/senioriada/round/1/seating.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="senioriada-round-1-seating.pdf"' in response["Content-Disposition"]
    text = flat(pdf_text(response.content))
    assert page_sizes(response.content) == [A4_PORTRAIT]
    for number in (1, 2, 3, 4):
        assert f"Table {number}" in text
    assert "Table 5" not in text
    for seat in seats_of_round(tournament, 1):
        assert seat.player.name in text
        assert seat.player.organisation.name in text
    assert "Senioriada Łódź 2026" in text


def name_lines(text, tournament):
    """The lines of a "where do I sit" text that are a player's name as it lists them ("Nowak Anna")."""
    names = {player.surname_first for player in Player.objects.filter(tournament=tournament)}
    return [line for line in text.splitlines() if line in names]


def test_where_do_i_sit_is_in_polish_alphabetical_order_of_the_surname(organiser_client, tournament):
    text = pdf_text(produced(organiser_client, "/print/senioriada/round/1/where-do-i-sit.pdf").content)
    # Python's own order would put Łucja, Ślęża and Żaneta last; first names would mix Gąsior and Łęcki.
    assert name_lines(text, tournament) == [
        "Gąsior Bożena",
        "Gąsior Czesław",
        "Gąsior Genowefa",
        "Gąsior Halina",
        "Gąsior Jadwiga",
        "Gąsior Józef",
        "Gąsior Łucja",
        "Gąsior Stanisława",
        "Gąsior Ślęża",
        "Gąsior Władysław",
        "Gąsior Zdzisław",
        "Gąsior Żaneta",
        "Łęcki Genowefa",
        "Łęcki Józef",
    ]


HAND_SORTED = [
    "Barbara Żak",
    "Łukasz Lis",
    "Andrzej Nowak",
    "Jan Ćwik",
    "Adam Łukasz",
    "Anna Cebula",
    "Ewa Lis",
    "Zenon Zając",
]


@pytest.mark.parametrize(
    "url", ["/print/senioriada/round/1/where-do-i-sit.pdf", "/print/senioriada/public/round/1/where-do-i-sit.pdf"]
)
def test_where_do_i_sit_worked_by_hand(client, organiser_client, url):
    players = [
        {"id": f"p{i}", "name": name, "organisation": f"Klub {i}"} for i, name in enumerate(HAND_SORTED, start=1)
    ]
    seating_ = {
        "number": 1,
        "state": "published",
        "tables": [
            {"number": 1, "seats": dict(zip("ABCD", ["p1", "p2", "p3", "p4"])), "games": []},
            {"number": 2, "seats": dict(zip("ABCD", ["p5", "p6", "p7", "p8"])), "games": []},
        ],
    }
    import_tournament(tournament_data(players, [seating_]))
    content = produced(organiser_client if "public" not in url else client, url).content
    lines = pdf_reader(content).pages[0].extract_text().splitlines()
    rows = [(line, lines[i + 1].rsplit(" ", 2)[1:]) for i, line in enumerate(lines) if line.split(" ")[0] in SURNAMES]
    # c < ć, l < ł (in the surname and in the given names), ż last; the surname first.
    assert rows == [
        ("Cebula Anna", ["2", "B"]),
        ("Ćwik Jan", ["1", "D"]),
        ("Lis Ewa", ["2", "C"]),
        ("Lis Łukasz", ["1", "B"]),
        ("Łukasz Adam", ["2", "A"]),
        ("Nowak Andrzej", ["1", "C"]),
        ("Zając Zenon", ["2", "D"]),
        ("Żak Barbara", ["1", "A"]),
    ]


SURNAMES = {"Cebula", "Ćwik", "Lis", "Łukasz", "Nowak", "Zając", "Żak"}


def test_where_do_i_sit_rows_match_the_seating(organiser_client, tournament):
    lines = pdf_text(produced(organiser_client, "/print/senioriada/round/1/where-do-i-sit.pdf").content).splitlines()
    seats = seats_of_round(tournament, 1)
    assert len(seats) == 14
    for seat in seats:
        below_name = lines[lines.index(seat.player.surname_first) + 1]
        assert below_name == f"{seat.player.organisation.name} {seat.table.number} {seat.letter}"


def test_a_long_list_breaks_between_rows(organiser_client):
    tournament = seated_tournament(60)
    content = produced(organiser_client, "/print/senioriada/round/1/where-do-i-sit.pdf").content
    pages = [page.extract_text() for page in pdf_reader(content).pages]
    assert len(pages) == 5
    assert page_sizes(content) == [A4_PORTRAIT] * 5
    counts = [len(name_lines(page, tournament)) for page in pages]
    assert sum(counts) == 60
    for page, count in zip(pages, counts):
        assert page.count("Player Table Seat") == 1  # the column headings repeat on every page
        assert len(re.findall(r"nr \d+ \d+ [ABCD]$", page, flags=re.M)) == count  # no row split off its name
    by_table = produced(organiser_client, "/print/senioriada/round/1/seating.pdf").content
    by_table_pages = [page.extract_text() for page in pdf_reader(by_table).pages]
    assert len(by_table_pages) == 3  # three rows of two tables a page
    assert sum(len(re.findall(r"^Table \d+$", page, flags=re.M)) for page in by_table_pages) == 15
    for page in by_table_pages:  # a table's block is never split: its four seats are on its page
        for number in re.findall(r"^Table (\d+)$", page, flags=re.M):
            block = page.split(f"Table {number}\n", 1)[1]
            assert [line[0] for line in block.splitlines() if re.match(r"^[ABCD] ", line)][:4] == list("ABCD")


def test_very_long_names_and_organisations_wrap_and_stay_whole(organiser_client, tournament):
    player = Player.objects.get(tournament=tournament, ext_id="p0")
    player.name = "Maria Magdalena Konstancja " + "Wiśniewska-Źdźbłowska " * 4 + "Ąęłńóśźż" * 2
    player.save()
    organisation = player.organisation
    organisation.name = "Stowarzyszenie " + "Uniwersytetów Trzeciego Wieku Ziemi Łódzkiej " * 2 + "im. Świętej Jadwigi"
    organisation.save()
    assert len(player.name) >= 120 and len(organisation.name) >= 100
    for kind, shown in (("seating", player.name), ("where-do-i-sit", player.surname_first)):
        content = produced(organiser_client, f"/print/senioriada/round/1/{kind}.pdf").content
        text = without_spaces(pdf_text(content))
        assert without_spaces(shown) in text
        assert without_spaces(organisation.name) in text
        assert page_sizes(content)[0] == A4_PORTRAIT


def test_a_changed_seating_prints_anew(organiser_client, tournament):
    url = "/print/senioriada/round/1/where-do-i-sit.pdf"
    first = pdf_text(produced(organiser_client, url).content)
    seat_a, seat_b = Seat.objects.filter(round__number=1, table__number=1).order_by("letter")[:2]
    player_a, player_b = seat_a.player, seat_b.player
    Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    Seat.objects.create(table=seat_a.table, player=player_b, letter="A")
    Seat.objects.create(table=seat_a.table, player=player_a, letter="B")
    second = pdf_text(produced(organiser_client, url).content)
    assert re.search(rf"^{player_a.surname_first}\n.* 1 A$", first, flags=re.M)
    assert re.search(rf"^{player_a.surname_first}\n.* 1 B$", second, flags=re.M)
    assert re.search(rf"^{player_b.surname_first}\n.* 1 A$", second, flags=re.M)


def test_public_seating_only_once_published(client, tournament):
    published = client.get("/print/senioriada/public/round/1/seating.pdf")
    assert published.status_code == 200
    assert published["Cache-Control"] == "no-cache"
    assert "Genowefa Gąsior" in pdf_text(published.content)
    for kind in ("seating", "where-do-i-sit"):
        draft = client.get(f"/print/senioriada/public/round/2/{kind}.pdf")
        assert draft.status_code == 409
        assert draft["Content-Type"].startswith("text/html")
        assert "Round 2 has no seating yet." in draft.content.decode()
        assert "Gąsior" not in draft.content.decode()
    assert client.get("/print/senioriada/public/round/9/seating.pdf").status_code == 404


def test_started_and_completed_rounds_stay_public(client, tournament):
    for state in (Round.State.STARTED, Round.State.COMPLETED):
        Round.objects.filter(number=1).update(state=state)
        assert client.get("/print/senioriada/public/round/1/where-do-i-sit.pdf").status_code == 200


def test_staff_may_print_a_draft_seating_marked_as_such(head_referee_client, tournament):
    response = produced(head_referee_client, "/print/senioriada/round/2/seating.pdf")
    assert response.status_code == 200
    assert "Draft seating: not published yet, may still change." in pdf_text(response.content)


def test_a_round_without_tables_gives_a_message(organiser_client, tournament):
    Round.objects.create(tournament=tournament, number=3)
    for kind in ("seating", "where-do-i-sit"):
        response = produced(organiser_client, f"/print/senioriada/round/3/{kind}.pdf")
        assert response.status_code == 409
        assert "Round 3 has no seating yet." in response.content.decode()


def test_staff_seating_needs_the_head_referee_role(referee_client, tournament):
    anonymous = Client().get("/print/senioriada/round/1/seating.pdf")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert referee_client.get("/print/senioriada/round/1/seating.pdf").status_code == 403
