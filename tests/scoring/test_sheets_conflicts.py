"""Two tablets on one sheet: compare-and-swap on the sheet version, never a silent overwrite."""

import re

import pytest

from engine import rules
from scoring.models import Game, ScoreSheet
from scoring.services import sheets as services
from tests.factories import build, example_one, sheet_of, sheet_url, started_round, table, text_of
from tests.support.race import at_once
from tournament.models import AuditEntry
from tournament.refusals import Refused


def one_table():
    return build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])


def game(winner="A", tiles=5):
    return rules.Game(
        seats=("A", "B", "C", "D"), winner=winner, racks={x: rules.Rack(tiles=tiles) for x in "ABCD" if x != winner}
    )


@pytest.mark.django_db
def test_a_stale_version_is_refused_and_lists_what_was_saved_since(referee, head_referee):
    sheet = sheet_of(one_table())
    services.save_game(sheet, 1, game("A"), version=0, user=head_referee)
    with pytest.raises(services.EditConflict) as conflict:
        services.save_game(sheet, 1, game("B"), version=0, user=referee)
    assert [(c.user, c.after["version"]) for c in conflict.value.changes] == [(head_referee, 1)]
    assert conflict.value.sheet.version == 1
    assert Game.objects.get().winner == "A"
    assert AuditEntry.objects.count() == 1


@pytest.mark.django_db
def test_a_refused_game_does_not_raise_the_version(referee):
    sheet = sheet_of(one_table())
    with pytest.raises(Refused):
        services.save_game(
            sheet, 1, rules.Game(seats=("A", "B", "C", "D"), winner="A", racks={}), version=0, user=referee
        )
    sheet.refresh_from_db()
    assert (sheet.version, sheet.state) == (0, "empty")
    assert not AuditEntry.objects.exists()


@pytest.mark.django_db
def test_the_conflict_screen_shows_the_other_save_and_keeps_my_values(client, referee, head_referee):
    tournament = one_table()
    services.save_game(sheet_of(tournament), 2, game("B", tiles=7), version=0, user=head_referee)
    client.force_login(referee)
    mine = example_one(version=0, **{"B-tiles": "44"})
    response = client.post(sheet_url("game_save", game_number=1), mine, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Someone else saved this sheet after you opened it" in html
    assert "head" in html and "Game 2: seat B went out" in html and "A Gracz 1: 7 in tiles and 0 jokers" in html
    assert 'name="B-tiles"' not in html  # the tablet's inputs are not replaced: my values stay …
    assert 'id="g1-version" value="1"' in html  # … and saving them again re-applies them
    assert not Game.objects.filter(number=1).exists()
    plain = client.post(sheet_url("game_save", game_number=1), mine)
    assert plain.status_code == 409
    assert re.search(r'<input [^>]*name="B-tiles" [^>]*value="44"', plain.content.decode())
    again = client.post(sheet_url("game_save", game_number=1), dict(mine, version=1), HTTP_HX_REQUEST="true")
    assert text_of(again.content.decode(), "g1-status") == "✓ saved"
    assert Game.objects.get(number=1).results.get(letter="B").tiles == 44


@pytest.mark.django_db
def test_sending_the_same_game_again_after_a_lost_reply_is_not_a_conflict(referee_client):
    sheet = sheet_of(one_table())
    url = sheet_url("game_save", game_number=1)
    referee_client.post(url, example_one(version=0), HTTP_HX_REQUEST="true")
    response = referee_client.post(url, example_one(version=0), HTTP_HX_REQUEST="true")
    assert text_of(response.content.decode(), "g1-status") == "✓ saved"
    assert AuditEntry.objects.count() == 1
    sheet.refresh_from_db()
    assert sheet.version == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_saves_with_one_version_let_exactly_one_through(referee):
    sheet = sheet_of(one_table())

    def save(n):
        try:
            services.save_game(sheet, 1, game("ABCD"[n % 4], tiles=n + 1), version=0, user=referee)
            return "saved"
        except services.EditConflict:
            return "conflict"

    assert sorted(at_once(save, 8)) == ["conflict"] * 7 + ["saved"]
    sheet = ScoreSheet.objects.get(pk=sheet.pk)
    assert sheet.version == 1
    assert Game.objects.count() == 1 and AuditEntry.objects.count() == 1
