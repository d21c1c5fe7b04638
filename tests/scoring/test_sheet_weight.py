"""The tablet's page is light (issue 50): the keypad's keys carry no address of their own (a key
posts the game's form to its save address, which answers it as the preview does and saves
nothing), the games' indentation is not sent, and a keypad holding no faces is drawn by sheet.js
from the page's one copy."""

import re

import pytest

from scoring.models import Game, ScoreSheet
from tests.factories import build, example_one, sheet_url, started_round, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    tables = [table(1, ["p1", "p2", "p3", "p4"], state="empty"), table(2, ["p5", "p6", "p7", "p8"], state="empty")]
    return build(8, rounds=[started_round(*tables)])


def test_a_keypad_key_posted_to_the_save_address_adds_its_face_and_saves_nothing(referee_client, tournament):
    data = example_one(**{"B-tiles": "", "B-keypad": "7 1", "key-B": "12"})
    html = referee_client.post(sheet_url("game_save", game_number=1), data).content.decode()
    assert 'value="7 1 12"' in html
    assert not Game.objects.exists()
    assert set(ScoreSheet.objects.values_list("version", flat=True)) == {0}


def test_the_empty_sheet_page_is_under_60_kb_and_draws_its_keypad_once(referee_client, tournament):
    html = referee_client.get(sheet_url("sheet", table_number=2)).content.decode()
    # 124.7 KB with a preview address on each key, 85 KB with 4 games x 4 racks x 16 keys;
    # now one keypad (16 keys, no address) that sheet.js copies into each rack holding no faces.
    start = html.index('<template id="keypad-template">')
    keys = re.findall(r"<button[^>]*>", html[start : html.index("</template>", start)])
    assert len(keys) == 16 and not re.search(r'name="key-', html)  # sheet.js names them
    assert not [key for key in keys if "formaction" in key]
    assert html.count('<details class="keypad" data-keypad="g') == 4 * 4
    assert html.count('id="keypad-template"') == 1
    assert len(html.encode()) <= 60 * 1024
    start = html.index('<section class="game"')
    first_game = html[start : html.index("</section>", start)]
    assert len(first_game) > 10_000 and not re.search(r">\n[ \t]+<", first_game)


def test_a_keypad_holding_faces_is_drawn_whole_by_the_server(referee_client, tournament):
    data = example_one(**{"B-tiles": "", "B-keypad": "7 1", "key-B": "12"})
    html = referee_client.post(sheet_url("game_save", game_number=1), data).content.decode()
    assert re.search(r'<input[^>]*name="B-keypad"[^>]*value="7 1 12"', html)
    assert len(re.findall(r'<button[^>]*name="key-B"', html)) == 16
    assert 'data-keypad="g1-B"' not in html and 'data-keypad="g1-C"' in html
