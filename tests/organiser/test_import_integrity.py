"""Every door checks the same rules (issue 13): the JSON import refuses what the forms refuse,
names with invisible characters are refused everywhere, and a hostile file is one line of
error naming its JSON path, with nothing written."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from organiser.forms import PlayerForm, TournamentForm
from organiser.interchange import InterchangeError, import_json_text, import_tournament
from tests.factories import build, out_game, settings_data, table, tournament_data
from tests.support.files import xlsx
from tournament.models import Organisation, Player, Tournament

pytestmark = pytest.mark.django_db

GAME = out_game(1, "A", B=(23, 0), C=(10, 1), D=(5, 0))
HIDDEN_CHARACTERS = {
    "right-to-left override": ("\u202e", "U+202E"),
    "zero-width space": ("\u200b", "U+200B"),
    "bell": ("\x07", "U+0007"),
    "left-to-right isolate": ("\u2066", "U+2066"),
    "lone surrogate": ("\ud800", "U+D800"),
}


def refusal(data):
    """The import's one-line message; asserts nothing was written."""
    with pytest.raises(InterchangeError) as error:
        import_tournament(data)
    assert not Tournament.objects.exists() and not Player.objects.exists()
    message = str(error.value)
    assert "\n" not in message
    return message


def game_numbered(number):
    return dict(GAME, number=number)


# ---------------------------------------------------------------- item 3: one validation for both doors


def test_a_qualifying_table_of_four_plays_four_games_not_fifty():
    games = [game_numbered(n) for n in range(1, 51)]
    data = tournament_data(4, [{"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"], games)]}])
    assert refusal(data) == "rounds[0].tables[0].games[4].number: must be 1–4, got 5"


def test_a_table_of_three_plays_three_games():
    games = [out_game(n, "A", B=(3, 0), C=(4, 0)) for n in range(1, 5)]
    data = tournament_data(3, [{"number": 1, "tables": [table(1, ["p1", "p2", "p3"], games)]}])
    assert refusal(data) == "rounds[0].tables[0].games[3].number: must be 1–3, got 4"


def test_the_final_table_plays_the_final_games_setting():
    final = {
        "number": 2,
        "kind": "final",
        "tables": [table(1, ["p1", "p2", "p3", "p4"], [game_numbered(n) for n in (1, 2, 3)])],
    }
    data = tournament_data(4, [{"number": 1}, final], settings={"final_games": 2, "rounds_planned": 1})
    assert refusal(data) == "rounds[1].tables[0].games[2].number: must be 1–2, got 3"
    data["rounds"][1]["tables"][0]["games"].pop()
    assert import_tournament(data).rounds.count() == 2


def test_the_reserved_address_new_is_refused_by_the_import_as_by_the_form():
    data = tournament_data(4)
    data["tournament"]["slug"] = "new"
    assert refusal(data) == "tournament.slug: This address is reserved: choose another one."
    form = TournamentForm(settings_data(slug="new"))
    assert form.errors["slug"] == ["This address is reserved: choose another one."]


@pytest.mark.parametrize(
    "setting, value, form_value, message",
    [
        (
            "big_point_places",
            [0, 0, 0, 1000],
            "0, 0, 0, 1000",
            "A lower place cannot get more points than a higher one.",
        ),
        (
            "big_point_places",
            [5, 4, 3, 2, 1],
            "5, 4, 3, 2, 1",
            "A table has at most 4 places: enter at most 4 numbers.",
        ),
        ("big_point_places", [], "", "Enter the points for 1st place, then 2nd, 3rd and 4th, e.g. 1, 0, 0, 0."),
    ],
)
def test_big_points_by_place_are_checked_alike_in_both_doors(setting, value, form_value, message):
    assert refusal(tournament_data(4, settings={setting: value})) == f"tournament.settings.{setting}: {message}"
    assert TournamentForm(settings_data(**{setting: form_value})).errors[setting] == [message]


@pytest.mark.parametrize(
    "setting, too_much", [("joker_penalty", 10_001), ("penalty_possible_not_done", 10_001), ("initial_meld", 1001)]
)
def test_whole_number_settings_have_the_same_bounds_in_both_doors(setting, too_much):
    limit = too_much - 1
    message = refusal(tournament_data(4, settings={setting: too_much}))
    assert message == f"tournament.settings.{setting}: must be 0–{limit}, got {too_much}"
    form = TournamentForm(settings_data(**{setting: too_much}))
    assert form.errors[setting] == [f"Ensure this value is less than or equal to {limit}."]
    assert TournamentForm(settings_data(**{setting: limit})).is_valid()
    assert import_tournament(tournament_data(4, settings={setting: limit}))


def test_the_import_refuses_more_qualifying_rounds_than_planned_as_the_settings_form_does():
    rounds = [{"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"], [GAME])]}, {"number": 2}]
    message = refusal(tournament_data(4, rounds, settings={"rounds_planned": 1}))
    assert message == "tournament.settings.rounds_planned: 2 rounds have already been drawn: plan at least that many."


def test_the_import_refuses_a_final_round_when_the_final_is_off():
    rounds = [{"number": 1}, {"number": 2, "kind": "final"}]
    message = refusal(tournament_data(4, rounds, settings={"final": False, "rounds_planned": 1}))
    assert message == "tournament.settings.final: The final has already been seated."


def test_a_name_is_the_same_name_in_any_case_or_spacing_in_the_import_as_in_the_forms():
    data = tournament_data(2, settings={"players_per_organisation": 2})
    data["players"][1].update(name="gracz  1", organisation="klub 1")
    assert refusal(data) == "players[1].name: 'gracz 1' appears twice in 'klub 1'"
    data["players"][1]["name"] = "Gracz 2"
    tournament = import_tournament(data)
    assert list(Organisation.objects.filter(tournament=tournament).values_list("name", flat=True)) == ["Klub 1"]
    assert sorted(Player.objects.values_list("org_slot", flat=True)) == [1, 2]


# ---------------------------------------------------------------- item 4: hostile files, one line each


def run_command(tmp_path, text):
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(path))
    assert not Tournament.objects.exists()
    message = str(error.value)
    assert "\n" not in message and len(message) < 400
    return message


def test_a_hundred_thousand_levels_of_nesting_are_refused_with_the_line(tmp_path):
    assert run_command(tmp_path, "[" * 100_000) == "invalid JSON at line 1: nested more than 16 levels deep"
    text = '{\n  "format": "rummikub-tournament/1",\n  "players": ' + "[" * 100_000
    assert run_command(tmp_path, text) == "invalid JSON at line 3: nested more than 16 levels deep"


def test_nesting_deeper_than_the_format_inside_a_file_names_the_path():
    data = tournament_data(4)
    data["players"][0]["name"] = json.loads("[" * 500 + "]" * 500)
    with pytest.raises(InterchangeError, match=r"^players\[0\]\.name\[0\]\[0\].*: nested more than 16 levels deep$"):
        import_json_text(json.dumps(data))


def test_a_five_thousand_digit_number_is_refused_where_it_stands(tmp_path):
    text = json.dumps(tournament_data(4, [{"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"], [GAME])]}]))
    huge = "9" * 5000
    assert run_command(tmp_path, text.replace('"tiles": 23', f'"tiles": {huge}')) == (
        "rounds[0].tables[0].games[0].racks.B.tiles: must be a whole number, got a number with 5000 digits"
    )
    assert run_command(tmp_path, text.replace('"settings": {}', f'"settings": {{"joker_penalty": -{huge}}}')) == (
        "tournament.settings.joker_penalty: must be 0–10000, got a number with 5000 digits"
    )
    assert run_command(tmp_path, text.replace('"number": 1, "tables"', f'"number": 1, "seed": {huge}, "tables"')) == (
        "rounds[0].seed: must be a non-empty text"
    )


@pytest.mark.parametrize(
    "where, expected",
    [
        (
            lambda d: d["players"][0].update(name="Anna \ud800"),
            "players[0].name: Invisible or control character U+D800",
        ),
        (
            lambda d: d["players"][0].update(organisation="\ud800"),
            "players[0].organisation: Invisible or control character U+D800",
        ),
        (lambda d: d["players"][0].update(id="\ud800"), "players[0].id: Invisible or control character U+D800"),
        (
            lambda d: d.update(cards=[{"player": "p1", "colour": "warning", "reason": "x\ud800"}]),
            "cards[0].reason: Invisible",
        ),
        (lambda d: d["players"][0].update({"\ud800\n": 1}), "players[0].\\ud800\\n: unknown field"),
        (lambda d: d["tournament"].update(name="Cup\u202e"), "tournament.name: Invisible or control character U+202E"),
    ],
)
def test_a_lone_surrogate_or_control_character_anywhere_is_one_line_naming_the_path(tmp_path, where, expected):
    data = tournament_data(4)
    where(data)
    assert run_command(tmp_path, json.dumps(data)).startswith(expected)


def test_reasons_may_span_lines():
    data = tournament_data(4)
    data["cards"] = [{"player": "p1", "colour": "warning", "reason": "untidy table\nsecond warning\tgiven"}]
    assert import_tournament(data).cards.get().reason == "untidy table\nsecond warning\tgiven"


# ---------------------------------------------------------------- item 7: names, in every door


@pytest.mark.parametrize("label", HIDDEN_CHARACTERS)
def test_a_name_with_an_invisible_character_is_refused_by_the_json_import(label):
    character, code = HIDDEN_CHARACTERS[label]
    data = tournament_data(4)
    data["players"][2]["name"] = f"Anna{character} Nowak"
    assert refusal(data) == f"players[2].name: Invisible or control character {code}: type the text again without it."


@pytest.mark.parametrize("label", HIDDEN_CHARACTERS)
def test_a_name_with_an_invisible_character_is_refused_by_the_player_form(label, organiser_client):
    character, code = HIDDEN_CHARACTERS[label]
    message = f"Invisible or control character {code}: type the text again without it."
    build(0)
    if label != "lone surrogate":  # which no browser can send
        for field in ("surname", "given_names"):
            data = {"surname": "Nowak", "given_names": "Anna", "organisation": "UTW", field: f"An{character}na"}
            response = organiser_client.post("/staff/test/players/", data)
            assert response.status_code == 200
            assert response.context["form"].errors[field] == [message]
    assert PlayerForm({"surname": "Nowak", "organisation": f"UTW{character}"}).errors["organisation"] == [message]
    assert not Player.objects.exists()


def test_a_tournament_name_with_an_invisible_character_is_refused_by_the_settings_form():
    form = TournamentForm(settings_data(name="Senioriada\u200b 2026"))
    assert form.errors["name"] == ["Invisible or control character U+200B: type the text again without it."]


@pytest.mark.parametrize(
    "label, kind",
    [
        (label, kind)
        for label in ("right-to-left override", "zero-width space", "bell", "left-to-right isolate")
        for kind in ("csv", "xlsx")
        if (label, kind) != ("bell", "xlsx")  # XML cannot hold a bell
    ],
)
def test_a_name_with_an_invisible_character_is_refused_by_the_file_import(organiser_client, label, kind):
    character, code = HIDDEN_CHARACTERS[label]
    build(0)
    rows = [
        ["name", "organisation"],
        ["Ewa Bąk", "UTW"],
        [f"Anna{character} Nowak", "Klub"],
        ["Jan Lis", f"Klub{character}"],
    ]
    if kind == "csv":
        content = "".join(",".join(row) + "\n" for row in rows).encode()
    else:
        content = xlsx(rows)
    response = organiser_client.post(
        "/staff/test/players/import/", {"file": SimpleUploadedFile(f"list.{kind}", content)}
    )
    message = f"Invisible or control character {code}: type the text again without it."
    assert [p.message for p in response.context["problems"]] == [f"Line 3: {message}", f"Line 4: {message}"]
    assert not Player.objects.exists()
