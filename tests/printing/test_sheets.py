"""Score sheets (pre-filled and blank) and table cards."""

import re

import pytest
from django.test import Client

from organiser.interchange import import_tournament
from printing.documents import SHEET_NAME_STEPS, distinct_forms, fit
from printing.testing import (  # noqa: F401
    A4_LANDSCAPE,
    flat,
    page_lines,
    page_sizes,
    pdf_reader,
    pdf_text,
    placed_texts,
    polish_players,
    qr_matrix,
    qr_payloads,
    seated_tournament,
    strict_pdf_rendering,
    tournament_data,
    without_spaces,
)
from tests.support.produced import produced
from tournament.models import Player, Round, Seat

pytestmark = pytest.mark.django_db(transaction=True)  # the batch PDFs are made by the queue's tasks

SETTINGS = {
    "joker_penalty": 30,
    "penalty_not_possible": 110,
    "penalty_possible_not_done": 220,
    "penalty_drawn_last_round": 120,
    "penalty_first_move": 130,
    "opening_penalty_mode": "add",
    "move_seconds": 45,
    "big_point_places": [4, 3, 1, 0],
    "final_games": 6,
}


@pytest.fixture
def tournament():
    """7 players: round 1 published with a four-table and a three-table; Twist penalties."""
    return seated_tournament(7, settings=SETTINGS)


def pages_text(content):
    return [page.extract_text() for page in pdf_reader(content).pages]


def pages_lines(content):
    """Each page's text as it reads, by position: the filled-in names share the lines of the form."""
    return ["\n".join(page_lines(page)) for page in pdf_reader(content).pages]


PT_PER_MM = 72 / 25.4
SEAT_ROW = 9 * PT_PER_MM
NAME_COLUMN = (10 + 13) * PT_PER_MM  # the page margin, then the seat letters' column
ORGANISATION_COLUMN = (10 + 13 + 97) * PT_PER_MM
SIGNATURE_COLUMN = (10 + 13 + 97 * 2) * PT_PER_MM


def seat_rows(page):
    """{letter: (name, organisation)} read from where the page draws them: the text in the name
    and organisation columns within half a row of the seat's letter, spaces removed."""
    runs = placed_texts(page)
    letters = {}
    for run in runs:
        if run.text in "ABCD" and run.x < NAME_COLUMN and run.y > letters.get(run.text, run).y - 1:
            letters[run.text] = run  # the seat letter column (x), above the games grid (y)
    rows = {}
    for letter, mark in letters.items():
        # The letter's baseline is about 4 pt below the middle of its row.
        in_row = [run for run in runs if abs(run.y - (mark.y + 4)) < SEAT_ROW / 2]
        name = "".join(run.text for run in in_row if NAME_COLUMN < run.x < ORGANISATION_COLUMN)
        organisation = "".join(run.text for run in in_row if ORGANISATION_COLUMN < run.x < SIGNATURE_COLUMN)
        rows[letter] = (without_spaces(name), without_spaces(organisation))
    return rows


def table_numbers(content):
    """The biggest text of each page: the table number in its box."""
    return [max(placed_texts(page), key=lambda run: run.size).text for page in pdf_reader(content).pages]


def test_one_landscape_sheet_per_table_with_players_and_starting_seats(organiser_client, tournament):
    response = produced(organiser_client, "/print/senioriada/round/1/score-sheets.pdf")
    assert response.status_code == 200
    assert 'filename="senioriada-round-1-score-sheets.pdf"' in response["Content-Disposition"]
    assert page_sizes(response.content) == [A4_LANDSCAPE, A4_LANDSCAPE]
    assert table_numbers(response.content) == ["1", "2"]
    four, three = pages_lines(response.content)
    for text in (four, three):
        assert "Score sheet" in text and "Round 1" in text and "Senioriada Łódź 2026 · Feb. 10, 2026 Table" in text
    # Each player is on the line of the seat, in the form's columns.
    for seat in Seat.objects.filter(round__number=1).select_related("player__organisation", "table"):
        text = four if seat.table.number == 1 else three
        assert f"\n{seat.letter} {seat.player.name} {seat.player.organisation.name}\n" in text
    # Game k is started by seat k; a three-table plays three games.
    assert re.findall(r"^(\d) ([ABCD])$", four, flags=re.M) == [("1", "A"), ("2", "B"), ("3", "C"), ("4", "D")]
    assert re.findall(r"^(\d) ([ABCD])$", three, flags=re.M) == [("1", "A"), ("2", "B"), ("3", "C")]
    assert "Seat D" in four and "Seat D" not in three
    four, three = pages_text(response.content)
    assert four.count("Rack points Jokers Opening penalty Score") == 4
    assert three.count("Rack points Jokers Opening penalty Score") == 3
    # Jokers are counted apart from the rack's sum: this tournament's joker penalty is 30, so 41 and
    # a joker score −(41 + 30) = −71 (the heading says it with this tournament's figure).
    for text in (four, three):
        assert "Rack points without jokers: the jokers are counted apart (41 + 1 joker = −71)." in " ".join(
            text.split()
        )
    for text in (four, three):
        assert "Round total" in text and "Big points" in text
        assert "Player's signature" in text and "Referee's signature" in text


def test_the_starting_seat_is_marked_starts_in_its_own_block_not_shaded(organiser_client, tournament):
    """Game k is started by seat k: a bold "starts" in the first box of that seat's block (63 mm
    wide after the page margin and the 24 mm of labels; 84 mm at a three-table), one per game."""
    content = produced(organiser_client, "/print/senioriada/round/1/score-sheets.pdf").content
    for page, width, seats in zip(pdf_reader(content).pages, (63, 84), (4, 3)):
        in_grid = [run for run in placed_texts(page) if run.text == "starts" and run.x > (10 + 24) * PT_PER_MM]
        marks = sorted(in_grid, key=lambda run: -run.y)  # the legend's own "starts" is left of the grid
        blocks = [int((run.x / PT_PER_MM - 10 - 24) // width) for run in marks]
        assert blocks == list(range(seats))  # game 1 in seat A's block, game 2 in B's …
        assert all((run.x / PT_PER_MM - 10 - 24) % width < width / 4 for run in marks)  # its first box: rack points
    text = flat(pdf_text(content))
    assert "starts marks the seat that starts the game" in text and "Shaded" not in text


def test_sheets_print_the_tournament_rules(organiser_client, tournament):
    text = flat(pdf_text(produced(organiser_client, "/print/senioriada/round/1/score-sheets.pdf").content))
    assert "Move time: 45 s." in text
    assert "First laying out: at least 30 points." in text
    assert "joker left on the rack −30;" in text
    assert "could not lay out −110;" in text
    assert "could lay out but did not −220;" in text
    assert "needed tile drawn in the last round, intent declared −120;" in text
    assert "game ended in another player's first move −130." in text
    assert "An opening penalty is added to the rack points." in text
    assert "Big points for each game by place at the table: 4, 3, 1, 0." in text


def test_each_sheet_has_the_qr_code_of_its_tables_entry_page(organiser_client, tournament):
    content = produced(organiser_client, "/print/senioriada/round/1/score-sheets.pdf").content
    expected = {qr_matrix(f"http://testserver/referee/senioriada/round/1/table/{n}/") for n in (1, 2)}
    assert qr_payloads(content) == expected
    assert "Referee: scan to enter the results" in flat(pdf_text(content))


def test_the_qr_code_uses_the_requests_host(organiser_client, tournament, settings):
    settings.SERVED_HOSTS = ["turniej.example.org"]  # a name given in ALLOWED_HOSTS
    content = produced(
        organiser_client,
        "/print/senioriada/round/1/table/2/score-sheet.pdf",
        HTTP_HOST="turniej.example.org",
        secure=True,
    ).content
    assert qr_payloads(content) == {qr_matrix("https://turniej.example.org/referee/senioriada/round/1/table/2/")}


def test_one_tables_sheet(organiser_client, tournament):
    response = produced(organiser_client, "/print/senioriada/round/1/table/2/score-sheet.pdf")
    assert 'filename="senioriada-round-1-table-2-score-sheet.pdf"' in response["Content-Disposition"]
    assert table_numbers(response.content) == ["2"]
    assert produced(organiser_client, "/print/senioriada/round/1/table/3/score-sheet.pdf").status_code == 404


def test_the_final_plays_its_own_number_of_games(organiser_client):
    players = polish_players(4)
    final = {
        "number": 2,
        "kind": "final",
        "state": "published",
        "tables": [{"number": 1, "seats": {"A": "p0", "B": "p1", "C": "p2", "D": "p3"}}],
    }
    import_tournament(tournament_data(players, [final], settings=SETTINGS))
    (text,) = pages_text(produced(organiser_client, "/print/senioriada/round/2/score-sheets.pdf").content)
    assert "Final" in text
    assert re.findall(r"^(\d) ([ABCD])$", text, flags=re.M) == [
        ("1", "A"),
        ("2", "B"),
        ("3", "C"),
        ("4", "D"),
        ("5", "A"),
        ("6", "B"),
    ]


def test_a_final_of_twelve_games_still_fits_one_page(organiser_client):
    final = {
        "number": 2,
        "kind": "final",
        "state": "published",
        "tables": [{"number": 1, "seats": {"A": "p0", "B": "p1", "C": "p2", "D": "p3"}}],
    }
    import_tournament(tournament_data(polish_players(4), [final], settings={**SETTINGS, "final_games": 12}))
    content = produced(organiser_client, "/print/senioriada/round/2/score-sheets.pdf").content
    (text,) = pages_text(content)
    # a game's row: its number, the starting seat, and that seat's mark where the rows are close
    games = re.findall(r"^(\d+) ([ABCD])(?: starts)?$", text, flags=re.M)
    assert [number for number, _ in games] == [str(n) for n in range(1, 13)]
    assert "Big points" in text and "Referee's signature" in text and "Big points for each game" in flat(text)


def test_long_names_wrap_inside_their_row_and_each_sheet_stays_on_one_page(organiser_client, tournament):
    long_name = "Maria Magdalena Konstancja " + "Wiśniewska-Źdźbłowska " * 4 + "Ąęłńóśźż" * 2
    long_organisation = "Stowarzyszenie " + "Uniwersytetów Trzeciego Wieku Ziemi Łódzkiej " * 2 + "im. Świętej Jadwigi"
    for player in Player.objects.filter(tournament=tournament):
        player.name = f"{long_name} {player.start_number}"
        player.save()
        player.organisation.name = f"{long_organisation} {player.start_number}"
        player.organisation.save()
    Player.objects.filter(start_number=1).update(name=("Bartłomiej Wincenty " * 11)[:200])  # the longest allowed
    content = produced(organiser_client, "/print/senioriada/round/1/score-sheets.pdf").content
    assert page_sizes(content) == [A4_LANDSCAPE, A4_LANDSCAPE]
    # Every line of each name and organisation stays in its seat's row and column.
    rows = {}
    for page, table_number in zip(pdf_reader(content).pages, (1, 2)):
        rows.update({(table_number, letter): row for letter, row in seat_rows(page).items()})
    for seat in Seat.objects.filter(round__number=1).select_related("player__organisation", "table"):
        expected = (without_spaces(seat.player.name), without_spaces(seat.player.organisation.name))
        assert rows[seat.table.number, seat.letter] == expected


def test_longer_names_take_smaller_type_then_more_lines():
    sizes = [fit("x" * length, SHEET_NAME_STEPS) for length in (1, 34, 35, 44, 45, 90, 91, 200)]
    assert sizes == ["", "", "small", "small", "small wrap", "small wrap", "tiny wrap", "tiny wrap"]


def test_each_distinct_form_is_rendered_once():
    assert distinct_forms(["4 seats", "3 seats", "4 seats", "final", "3 seats"]) == (
        ["4 seats", "3 seats", "final"],
        [0, 1, 0, 2, 1],
    )


def test_a_changed_seating_is_never_served_from_the_cache(organiser_client, tournament):
    url = "/print/senioriada/round/1/table/1/score-sheet.pdf"
    before = pdf_text(produced(organiser_client, url).content)
    seat = Seat.objects.get(round__number=1, table__number=1, letter="A")
    Player.objects.filter(pk=seat.player_id).update(name="Teodozja Źrebiec")
    after = pages_lines(produced(organiser_client, url).content)[0]
    assert "Teodozja Źrebiec" not in before and "\nA Teodozja Źrebiec " in after


def test_a_draft_round_is_marked(organiser_client, tournament):
    Round.objects.filter(number=1).update(state=Round.State.DRAFT)
    text = pdf_text(produced(organiser_client, "/print/senioriada/round/1/score-sheets.pdf").content)
    assert "Round 1 · draft seating" in text


def test_no_seating_gives_a_message(organiser_client, tournament):
    Round.objects.create(tournament=tournament, number=2)
    for path in ("score-sheets.pdf", "table-cards.pdf", "table/1/score-sheet.pdf"):
        response = produced(organiser_client, f"/print/senioriada/round/2/{path}")
        assert response.status_code == 409
        assert "Round 2 has no seating yet." in response.content.decode()
    assert produced(organiser_client, "/print/senioriada/round/5/score-sheets.pdf").status_code == 404


def test_blank_sheet(head_referee_client, tournament):
    response = produced(head_referee_client, "/print/senioriada/blank-score-sheet.pdf")
    assert page_sizes(response.content) == [A4_LANDSCAPE]
    (text,) = pages_text(response.content)
    assert "Score sheet" in text and "Seat D" in text and "Move time: 45 s." in text
    assert re.findall(r"^(\d) ([ABCD])$", text, flags=re.M) == [("1", "A"), ("2", "B"), ("3", "C"), ("4", "D")]
    assert "Gąsior" not in text
    assert qr_payloads(response.content) == set()


def test_table_cards(organiser_client, tournament):
    response = produced(organiser_client, "/print/senioriada/round/1/table-cards.pdf")
    assert 'filename="senioriada-round-1-table-cards.pdf"' in response["Content-Disposition"]
    assert page_sizes(response.content) == [A4_LANDSCAPE, A4_LANDSCAPE]
    for number, text, letters in zip((1, 2), pages_text(response.content), ("ABCD", "ABC")):
        assert text.startswith(f"Table\n{number}")
        assert re.findall(rf"([ABCD])Table {number}\b", text) == list(letters)  # no seat D at the three-table


def test_sheets_and_cards_need_the_head_referee_role(referee_client, tournament):
    for path in ("round/1/score-sheets.pdf", "round/1/table-cards.pdf", "blank-score-sheet.pdf"):
        assert referee_client.get(f"/print/senioriada/{path}").status_code == 403
        assert Client().get(f"/print/senioriada/{path}").status_code == 302
