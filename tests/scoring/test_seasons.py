"""A season's table read from the database (`scoring.selectors.seasons`): three tournaments built by
the JSON import with overlapping people, a tie for a place, a withdrawal, a disqualification,
the best 2 counting and one tournament hidden, checked row by row against the tables worked by
hand in tests/factories.py; people merged (their players moved to one person) and back."""

import pytest

from scoring.selectors.seasons import NOT_PUBLIC, season_table
from scoring.services.visibility import advance_ceremony, hide_for_the_final
from tests.factories import SEASON_PUBLIC_TABLE, SEASON_STAFF_TABLE, after_the_final, season_of_three, with_people
from tournament.models import Player, Season, Tournament

pytestmark = pytest.mark.django_db


def rows_of(table):
    return [
        (
            line.rank,
            line.name,
            line.club,
            line.points,
            line.tournaments,
            line.wins,
            line.best_place,
            [(r.tournament.slug, r.place, r.points, r.counted) for r in line.results],
        )
        for line in table.lines
    ]


def test_the_staff_table_counts_every_finished_tournament():
    table = season_table(season_of_three(), public=False)
    assert rows_of(table) == SEASON_STAFF_TABLE
    assert [entry.tournament.slug for entry in table.tournaments] == ["zima-1", "zima-2", "zima-3"]
    assert table.pending == []


def test_the_public_table_leaves_the_hidden_tournament_pending():
    table = season_table(season_of_three(), public=True)
    assert rows_of(table) == SEASON_PUBLIC_TABLE
    assert [(entry.tournament.slug, entry.pending) for entry in table.pending] == [("zima-3", NOT_PUBLIC)]


def test_a_frozen_tournament_is_pending_too_and_a_live_one_counts():
    season = season_of_three()
    Tournament.objects.filter(slug="zima-3").update(visibility=Tournament.Visibility.FROZEN, frozen_round=1)
    assert [e.tournament.slug for e in season_table(season, public=True).pending] == ["zima-3"]
    Tournament.objects.filter(slug="zima-3").update(visibility=Tournament.Visibility.LIVE)
    assert rows_of(season_table(season, public=True)) == SEASON_STAFF_TABLE


def test_an_unfinished_tournament_adds_nothing_even_for_staff():
    season = season_of_three()
    Tournament.objects.filter(slug="zima-3").update(rounds_planned=2)  # its last round is not played yet
    table = season_table(season, public=False)
    assert [(e.tournament.slug, e.pending) for e in table.pending] == [("zima-3", "unfinished")]
    assert rows_of(table)[0][:4] == (1, "Nowak Anna", "UTW Łódź", 41)


def test_merging_two_records_of_one_person_changes_the_table_and_the_undo_restores_it():
    season = season_of_three()
    # Kamińska's zima-3 player was Kowalski (a registration mistake): it moves to his person, as a
    # merge does. Kowalski: zima-1 5th 11, zima-2 3rd 16, zima-3 2nd 20; best 2: 36, best place 2:
    # equal with Dąbrowski (36, no win, best 2), after Zieliński (36 with a win). Kamińska: zima-1 8.
    kaminska = Player.objects.get(tournament__slug="zima-3", surname="Kamińska")
    her, his = kaminska.person, Player.objects.get(tournament__slug="zima-1", surname="Kowalski").person
    kaminska.person = his
    kaminska.save(update_fields=["person"])
    rows = rows_of(season_table(season, public=False))
    assert [(rank, name, points) for rank, name, _club, points, *_ in rows] == [
        (1, "Żak Łucja", 45),
        (2, "Nowak Anna", 41),
        (3, "Zieliński Piotr", 36),
        (4, "Dąbrowski Adam", 36),
        (4, "Kowalski Jan", 36),
        (6, "Wójcik Maria", 29),
        (7, "Szymańska Olga", 23),
        (8, "Lewandowski Tomasz", 19),
        (9, "Wiśniewska Ewa", 9),
        (10, "Kamińska Zofia", 8),
    ]
    assert rows[4][4:] == (3, 0, 2, [("zima-1", 5, 11, False), ("zima-2", 3, 16, True), ("zima-3", 2, 20, True)])
    kaminska.person = her  # the undo
    kaminska.save(update_fields=["person"])
    assert rows_of(season_table(season, public=False)) == SEASON_STAFF_TABLE


def test_a_record_merged_into_another_counts_as_that_one():
    season = season_of_three()
    zak = Player.objects.get(tournament__slug="zima-1", surname="Żak").person
    kaminska = Player.objects.get(tournament__slug="zima-1", surname="Kamińska").person
    kaminska.merged_into = zak  # both played zima-1 (Żak 2nd, Kamińska 8th): the better place counts
    kaminska.save(update_fields=["merged_into"])
    rows = rows_of(season_table(season, public=False))
    assert "Kamińska Zofia" not in [row[1] for row in rows]
    assert rows[0] == (
        1,
        "Żak Łucja",
        "UTW Kraków",
        45,
        3,
        1,
        1,
        [("zima-1", 2, 20, True), ("zima-2", 5, 11, False), ("zima-3", 1, 25, True)],
    )


def test_the_final_table_places_its_players():
    # FINAL_STANDINGS: the final places Gracz 7, 6, 1, 5 first whatever their qualifying order;
    # default points 25, 20, 16, 13, 11, 10, 9, 8.
    tournament = with_people(after_the_final())
    season = Season.objects.create(host=tournament.host, name="S", slug="s")
    season.tournaments.add(tournament)
    rows = [(line.rank, line.name, line.points) for line in season_table(season, public=False).lines]
    assert rows == [
        (1, "7 Gracz", 25),
        (2, "6 Gracz", 20),
        (3, "1 Gracz", 16),
        (4, "5 Gracz", 13),
        (5, "2 Gracz", 11),
        (6, "3 Gracz", 10),
        (7, "4 Gracz", 9),
        (8, "8 Gracz", 8),
    ]
    # The final's start hides the public results ("hidden until the ceremony"): pending until the
    # ceremony's last reveal, 1st place, makes them public.
    hide_for_the_final(tournament)
    for _place in (3, 2):
        advance_ceremony(Tournament.objects.get(pk=tournament.pk))
        table = season_table(season, public=True)
        assert table.lines == [] and [e.pending for e in table.tournaments] == [NOT_PUBLIC]
    advance_ceremony(Tournament.objects.get(pk=tournament.pk))
    assert [(line.rank, line.name, line.points) for line in season_table(season, public=True).lines] == rows
