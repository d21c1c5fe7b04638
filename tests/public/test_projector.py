"""The projector pages through the leaderboard so that every row is back on screen within 30 s."""

import re

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from public.projector import FIT_ROWS, LONGEST_WAIT_SECONDS, REQUEST_ALLOWANCE_SECONDS, projector_layout
from tests.factories import after_the_final, build_hall
from tournament.models import Player, Round, Tournament

HX = {"HTTP_HX_REQUEST": "true"}


@given(st.integers(min_value=0, max_value=2000))
def test_every_row_is_on_exactly_one_page_and_back_within_30_seconds(count):
    layout = projector_layout(count)
    rows = list(range(count))
    pages = [layout.page_columns(rows, page) for page in range(1, layout.pages + 1)]
    assert [row for page in pages for column in page for row in column] == rows
    assert count == 0 or all(pages)  # no empty page while there are rows
    assert layout.longest_wait + REQUEST_ALLOWANCE_SECONDS <= LONGEST_WAIT_SECONDS
    assert layout.pages == 1 or layout.seconds >= 9  # long enough to find one's name
    assert all(len(column) <= layout.rows_per_column for page in pages for column in page)
    assert layout.rows_per_column <= layout.fit or layout.fit == FIT_ROWS[-1]
    assert 1 <= layout.columns <= 3


@pytest.mark.parametrize(
    "count, pages, columns, rows_per_column, seconds",
    [
        (8, 1, 1, 8, 15),  # one page: always on screen, refreshed every 15 s
        (24, 1, 2, 12, 15),
        (42, 2, 2, 11, 13),  # the field: 10 rows a page every 15 s made it wait 75 s; now 26 s
        (100, 3, 2, 17, 9),
        (200, 3, 3, 23, 9),
    ],
)
def test_layouts_worked_by_hand(count, pages, columns, rows_per_column, seconds):
    layout = projector_layout(count)
    assert (layout.pages, layout.columns, layout.rows_per_column, layout.seconds) == (
        pages,
        columns,
        rows_per_column,
        seconds,
    )


@pytest.mark.django_db
def test_the_projector_shows_42_players_on_two_pages_that_change_every_13_seconds(client):
    build_hall(players=42)
    html = client.get("/t/test/projector/").content.decode()
    assert "Page 1 of 2" in html and 'hx-get="/t/test/projector/?page=2"' in html and 'hx-trigger="every 13s"' in html
    assert "board--columns-2" in html and html.count('<table class="board__table">') == 2
    last = client.get("/t/test/projector/?page=2", **HX).content.decode()
    assert "<html" not in last and "Page 2 of 2" in last and 'hx-get="/t/test/projector/?page=1"' in last
    names = []
    for page in (1, 2):
        fragment = client.get(f"/t/test/projector/?page={page}", **HX).content.decode()
        names += re.findall(r'<td class="who">([^<]+?) <span', fragment)
    assert len(names) == len(set(names)) == 42


def board_of(client, page=1):
    return client.get(f"/t/test/projector/?page={page}", **HX).content.decode()


def in_polish(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(public_language="pl")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "visibility, frozen_round, heading",
    [
        # the hall: rounds 1 and 2 completed, round 3 in play (its verified tables count live), round 4 published
        ("live", None, "Po rundzie 2 z 5 · Trwa runda 3"),
        ("frozen", 2, "Po rundzie 2 z 5"),  # frozen after round 2: round 3 counts nowhere
        ("frozen", 1, "Po rundzie 1 z 5"),
    ],
)
def test_the_heading_says_after_which_round_of_how_many(client, visibility, frozen_round, heading):
    in_polish(build_hall(visibility, frozen_round))
    assert f'<span class="board__phase">{heading}</span>' in board_of(client)


@pytest.mark.django_db
def test_the_heading_says_final_standings_once_the_final_or_the_last_round_is_completed(client):
    in_polish(after_the_final())
    assert '<span class="board__phase">Klasyfikacja końcowa</span>' in board_of(client)
    tournament = build_hall(slug="other")
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=2)  # no final; 2 of 2 completed
    html = Client().get("/t/other/projector/", **HX).content.decode()
    assert '<span class="board__phase">Final standings</span>' in html  # this one speaks English


@pytest.mark.django_db
def test_withdrawn_and_disqualified_rows_are_marked_as_on_phones(client):
    tournament = build_hall()
    in_polish(tournament)
    Player.objects.filter(tournament=tournament, name="Anna Nowak").update(status="withdrawn")
    Player.objects.filter(tournament=tournament, name="Jan Łęcki").update(status="disqualified")
    html = board_of(client)
    row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*Nowak Anna(?:(?!</tr>).)*</tr>", html, re.S).group()
    assert '<span class="board__status">wycofanie z turnieju</span> · UTW Łódź' in row
    row = re.search(r'<tr class="row--dq">(?:(?!</tr>).)*</tr>', html, re.S).group()
    assert "Łęcki Jan" in row and ">dyskw.</span>" in row and ">dyskwalifikacja</span> · UTW Kraków" in row


def seat_lines(html):
    """(surname first, table, seat) of every seating row."""
    cells = r'<td class="who">([^<]+?) <span class="org">[^<]*</span></td>\s*<td class="num big">(\d+)</td>\s*<td class="num big">([A-D])</td>'
    return re.findall(cells, html)


@pytest.mark.django_db
def test_a_published_round_shows_its_seating_by_surname_until_it_starts(client):
    tournament = build_hall()
    in_polish(tournament)
    assert "board--seating" not in board_of(client)  # round 3 in play: round 4's seating waits
    Round.objects.filter(tournament=tournament, number=3).update(state="completed")
    html = board_of(client)
    assert '<span class="board__phase">Rozstawienie: runda 4 z 5</span>' in html
    assert "Znajdź swoje nazwisko: obok stolik i krzesło." in html and "board__table board__seating" in html
    # round 4 seats the quads of round 2 in reverse: table 1 holds Halina, Józef, Ryszard, Małgorzata (A–D)
    assert seat_lines(html) == [
        ("Ćwik Stanisław", "2", "C"),
        ("Dąbrowska Halina", "1", "B"),
        ("Gęba Ryszard", "1", "C"),
        ("Kowalski Józef", "1", "A"),
        ("Łęcki Jan", "2", "D"),
        ("Nowak Anna", "2", "A"),
        ("Wiśniewska Małgorzata", "1", "D"),
        ("Żółkiewska Zofia", "2", "B"),
    ]
    Round.objects.filter(tournament=tournament, number=4).update(state="started")
    back = board_of(client)
    assert "board--seating" not in back and '<span class="board__phase">Po rundzie 3 z 5 · Trwa runda 4</span>' in back


@pytest.mark.django_db
def test_a_long_seating_pages_like_the_standings(client):
    tournament = build_hall(players=120)
    Round.objects.filter(tournament=tournament, number=3).update(state="completed")
    lines = seat_lines(board_of(client, 1)) + seat_lines(board_of(client, 2)) + seat_lines(board_of(client, 3))
    assert len(lines) == len(set(lines)) == 120 and "Strona" not in board_of(client, 1)  # English here
    assert "Page 1 of 3" in board_of(client, 1) and 'hx-trigger="every 9s"' in board_of(client, 1)
