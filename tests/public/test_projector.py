"""The projector pages through the leaderboard so that every row is back on screen within 30 s."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from public.projector import FIT_ROWS, LONGEST_WAIT_SECONDS, REQUEST_ALLOWANCE_SECONDS, projector_layout
from tests.factories import build_hall

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


@pytest.mark.parametrize("count, pages, columns, rows_per_column, seconds", [
    (8, 1, 1, 8, 15),  # one page: always on screen, refreshed every 15 s
    (24, 1, 2, 12, 15),
    (42, 2, 2, 11, 13),  # the field: 10 rows a page every 15 s made it wait 75 s; now 26 s
    (100, 3, 2, 17, 9),
    (200, 3, 3, 23, 9),
])
def test_layouts_worked_by_hand(count, pages, columns, rows_per_column, seconds):
    layout = projector_layout(count)
    assert (layout.pages, layout.columns, layout.rows_per_column, layout.seconds) == (pages, columns, rows_per_column, seconds)


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
