"""Creating a tournament and changing its settings (SPEC §2)."""

import pytest

from organiser.forms import TournamentForm, parse_places
from organiser.services import create_tournament
from scoring.models import SeatResult
from tests.factories import build, out_game, settings_data, table
from tournament.models import AuditEntry, Tournament
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db


def test_the_new_tournament_form_shows_every_setting_with_the_defaults(organiser_client):
    response = organiser_client.get("/staff/new/")
    assert response.status_code == 200
    form = response.context["form"]
    expected = {
        "joker_penalty": 50,
        "penalty_not_possible": 100,
        "penalty_possible_not_done": 200,
        "penalty_drawn_last_round": 100,
        "penalty_first_move": 100,
        "opening_penalty_mode": "replace",
        "pool_exhausted_scoring": "sum",
        "big_point_unit": "game",
        "big_point_places": "1, 0, 0, 0",
        "players_per_organisation": 1,
        "rounds_planned": 5,
        "final": True,
        "final_games": 4,
        "move_seconds": 40,
        "initial_meld": 30,
        "seating_method": "mixed",
        "visibility": "live",
        "auto_freeze": False,
        "final_release": "ceremony",
    }
    assert {name: form[name].value() for name in expected} == expected
    assert [name for name in expected if not form.fields[name].help_text] == []
    assert "4, 3, 1, 0" in response.content.decode()


def test_creating_a_tournament_makes_the_address_from_the_polish_name(organiser_client):
    response = organiser_client.post("/staff/new/", settings_data(big_point_places="4, 3, 1, 0"))
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.slug == "senioriada-lodz"
    assert tournament.big_point_places == [4, 3, 1, 0]
    assert response["Location"] == "/staff/senioriada-lodz/players/"
    organiser_client.post("/staff/new/", settings_data())
    assert set(Tournament.objects.values_list("slug", flat=True)) == {"senioriada-lodz", "senioriada-lodz-2"}


@pytest.mark.parametrize(
    "text, places", [("4, 3, 1, 0", [4, 3, 1, 0]), ("1 0 0 0", [1, 0, 0, 0]), ("2;1", [2, 1]), (" 1 ", [1])]
)
def test_big_points_by_place_are_read_from_plain_text(text, places):
    assert parse_places(text) == places


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "Enter the points for 1st place"),
        ("4, 3, 1, 0, 0", "at most 4 numbers"),
        ("4, three, 1", "whole numbers"),
        ("1, -1", "whole numbers"),
        ("0, 1, 0, 0", "cannot get more points"),
        ("5000", "at most 1000 points"),
    ],
)
def test_bad_big_points_are_refused_next_to_the_field(organiser_client, text, message):
    response = organiser_client.post("/staff/new/", settings_data(big_point_places=text))
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors["big_point_places"])
    assert not Tournament.objects.exists()


def test_a_reserved_or_taken_address_is_refused(organiser_client):
    build(4)
    for slug in ("new", "test"):
        response = organiser_client.post("/staff/new/", settings_data(slug=slug))
        assert response.status_code == 200 and "slug" in response.context["form"].errors
    assert Tournament.objects.count() == 1


def test_a_tournament_named_new_gets_an_address_that_is_not_reserved(organiser_client):
    response = organiser_client.post("/staff/new/", settings_data(name="New"))
    assert response["Location"] == "/staff/new-2/players/"
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["new-2"]


def test_an_address_taken_after_the_form_checked_it_is_refused_when_typed_and_moved_on_when_made(organiser):
    typed = TournamentForm(settings_data(name="Puchar", slug="puchar"))
    made = TournamentForm(settings_data(name="Puchar"))
    assert typed.is_valid() and made.is_valid() and made.cleaned_data["slug"] == "puchar"
    Tournament.objects.create(name="Puchar", slug="puchar", date="2026-03-01")  # another organiser, meanwhile
    with pytest.raises(Refused) as refused:
        create_tournament(typed, user=organiser)
    assert (refused.value.code, refused.value.field) == ("slug_taken", "slug")
    assert refused.value.message == "Another tournament already has this address: choose another one."
    assert create_tournament(made, user=organiser).slug == "puchar-2"
    assert sorted(Tournament.objects.values_list("slug", flat=True)) == ["puchar", "puchar-2"]


def test_an_htmx_post_with_errors_comes_back_with_status_200(organiser_client):
    response = organiser_client.post("/staff/new/", settings_data(rounds_planned="0"), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "rounds_planned" in response.context["form"].errors


def test_the_quota_cannot_go_below_an_organisation_already_registered(organiser_client):
    data = build(4, settings={"players_per_organisation": 2}).pk
    tournament = Tournament.objects.get(pk=data)
    tournament.players.filter(ext_id="p2").update(
        organisation=tournament.players.get(ext_id="p1").organisation, org_slot=2
    )
    response = organiser_client.post("/staff/test/settings/", settings_data(tournament, players_per_organisation="1"))
    assert response.status_code == 200
    assert "already has 2 players" in response.context["form"].errors["players_per_organisation"][0]


def test_fewer_planned_rounds_than_drawn_are_refused(organiser_client):
    tournament = build(4, rounds=[{"number": n, "tables": [table(1, ["p1", "p2", "p3", "p4"])]} for n in (1, 2, 3)])
    response = organiser_client.post("/staff/test/settings/", settings_data(tournament, rounds_planned="2"))
    assert "3 rounds have already been drawn" in response.context["form"].errors["rounds_planned"][0]


def test_the_address_cannot_be_changed_after_creation(organiser_client):
    tournament = build(4)
    organiser_client.post("/staff/test/settings/", settings_data(tournament, slug="other", name="Renamed"))
    tournament.refresh_from_db()
    assert (tournament.slug, tournament.name) == ("test", "Renamed")


def test_changing_a_scoring_setting_rescores_stored_games(organiser_client):
    """A sheet not verified yet is scored again at once (verified ones: tests/organiser/test_settings_rescore.py)."""
    game = out_game(1, "A", B=(10, 1), C=(5, 0), D=(0, 0, "not_possible"))
    tournament = build(4, rounds=[{"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"], [game], "submitted")]}])
    # joker 50: B −60, C −5, D −100, A +165; joker 30: B −40, A +145.
    response = organiser_client.post(
        "/staff/test/settings/", settings_data(tournament, joker_penalty="30"), follow=True
    )
    assert "2 results changed" in response.content.decode()
    scores = dict(SeatResult.objects.values_list("letter", "score"))
    assert scores == {"A": 145, "B": -40, "C": -5, "D": -100}


def test_changing_the_visibility_goes_through_the_audited_path(organiser_client):
    tournament = build(4, rounds=[{"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"])]}])
    organiser_client.post("/staff/test/settings/", settings_data(tournament, visibility="frozen"))
    tournament.refresh_from_db()
    assert (tournament.visibility, tournament.frozen_round) == ("frozen", 1)
    entry = AuditEntry.objects.get(action="visibility")
    assert entry.before["visibility"] == "live" and entry.after == {"visibility": "frozen", "frozen_round": 1}


@pytest.mark.parametrize("text", ["²", "1, ², 0"])
def test_digits_that_are_not_plain_numbers_are_a_message_not_an_error(text):
    from django import forms

    with pytest.raises(forms.ValidationError):
        parse_places(text)
