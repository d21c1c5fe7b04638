"""Seasons on the organiser's side: made from the page or with `create_season`, changed with a
reason (audited: who, when, before, after, why), scoped to the organisation (another's tournament
refused, another's season 404), and read out by `season_standings` (JSON and table), the CSV and
the XLSX, row by row against the tables worked by hand (tests/factories.py)."""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.services import make_member
from organiser.interchange import import_tournament
from tests.factories import SEASON_PUBLIC_TABLE, SEASON_STAFF_TABLE, build, season_of_three, tournament_data
from tests.support.files import formula_cells, read_csv, read_workbook
from tournament.models import AuditEntry, HostOrganisation, Season

pytestmark = pytest.mark.django_db

DEFAULT_POINTS = "25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1"


def as_json_rows(table):
    """The hand-worked table as `season_standings --json` gives it (names as read, not surname first)."""
    return [
        {
            "rank": rank,
            "name": " ".join(reversed(name.split(" ", 1))),
            "organisation": club,
            "points": points,
            "tournaments": tournaments,
            "wins": wins,
            "best_place": best,
            "results": [
                {"tournament": t, "place": place, "points": p, "counted": counted} for t, place, p, counted in results
            ],
        }
        for rank, name, club, points, tournaments, wins, best, results in table
    ]


def command_json(*args):
    import io

    out = io.StringIO()
    call_command("season_standings", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_season_standings_json_gives_the_staff_and_the_public_table_row_by_row():
    season = season_of_three()
    staff = command_json(season.slug)
    assert [{k: v for k, v in row.items() if k != "person"} for row in staff] == as_json_rows(SEASON_STAFF_TABLE)
    public = command_json(season.slug, "--public")
    assert [{k: v for k, v in row.items() if k != "person"} for row in public] == as_json_rows(SEASON_PUBLIC_TABLE)
    assert "zima-3" not in json.dumps(public)
    people = {row["name"]: row["person"] for row in staff}
    zak = Season.objects.get().tournaments.get(slug="zima-1").players.get(surname="Żak").person
    assert people["Łucja Żak"] == str(zak.uid)


def test_season_standings_as_a_table_and_an_unknown_season(capsys):
    season = season_of_three()
    call_command("season_standings", season.slug, "--public")
    out = capsys.readouterr().out
    assert "pending: zima-3 (not_public)" in out
    lines = [line for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [line.split()[:3] for line in lines[:2]] == [["1", "Nowak", "Anna"], ["2", "Zieliński", "Piotr"]]
    assert "zima-2:DQ=0" in lines[8]
    with pytest.raises(CommandError, match="no season 'nope'"):
        call_command("season_standings", "nope")


def test_create_season_makes_it_with_the_default_points_or_the_given_ones():
    season_of_three()
    call_command("create_season", "--slug", "lato", "--name", "Lato", "--tournaments", "zima-1,zima-2", stdout=None)
    lato = Season.objects.get(slug="lato")
    assert sorted(lato.tournaments.values_list("slug", flat=True)) == ["zima-1", "zima-2"]
    assert lato.place_points[:3] == [25, 20, 16] and lato.best_count is None
    call_command(
        "create_season",
        "--slug",
        "krotki",
        "--name",
        "K",
        "--tournaments",
        "zima-1",
        "--points",
        "3,2,1",
        "--best",
        "1",
    )
    krotki = Season.objects.get(slug="krotki")
    assert (krotki.place_points, krotki.best_count) == ([3, 2, 1], 1)
    entry = AuditEntry.objects.get(action="season_created", after__slug="krotki")
    assert entry.after["tournaments"] == ["zima-1"] and entry.tournament is None


def test_create_season_refuses_another_organisations_tournament_and_writes_nothing():
    season_of_three()
    other = HostOrganisation.objects.create(name="Inna", slug="inna")
    import_tournament(
        tournament_data(4) | {"tournament": {**tournament_data(4)["tournament"], "slug": "obcy"}}, host=other
    )
    with pytest.raises(CommandError, match="several host organisations"):
        call_command("create_season", "--slug", "x", "--name", "X", "--tournaments", "zima-1")
    host = Season.objects.get().host.slug
    with pytest.raises(CommandError, match="obcy is not one of this organisation's tournaments"):
        call_command(
            "create_season", "--organisation", host, "--slug", "x", "--name", "X", "--tournaments", "zima-1,obcy"
        )
    with pytest.raises(CommandError, match="Another season already has this address"):
        call_command(
            "create_season", "--organisation", host, "--slug", "zima", "--name", "X", "--tournaments", "zima-1"
        )
    with pytest.raises(CommandError, match="--points takes whole numbers"):
        call_command(
            "create_season",
            "--organisation",
            host,
            "--slug",
            "x",
            "--name",
            "X",
            "--tournaments",
            "zima-1",
            "--points",
            "5,a",
        )
    assert Season.objects.count() == 1


def test_the_organiser_makes_a_season_on_the_page(organiser_client):
    build(4)  # the organiser's organisation's tournament "test"
    seasons = f'href="{reverse("organiser:seasons")}"'
    assert seasons in organiser_client.get(reverse("organiser:home")).content.decode()
    assert seasons in organiser_client.get(reverse("organiser:dashboard", args=["test"])).content.decode()
    page = organiser_client.get(reverse("organiser:season_create"))
    assert page.status_code == 200 and DEFAULT_POINTS in page.content.decode()
    data = {"name": "Sezon", "slug": "sezon", "tournaments": ["test"], "place_points": "10, 5, 1", "best_count": "2"}
    response = organiser_client.post(reverse("organiser:season_create"), data)
    assert response.status_code == 302 and response.url == reverse("organiser:season", args=["sezon"])
    season = Season.objects.get(slug="sezon")
    assert (season.place_points, season.best_count, [t.slug for t in season.tournaments.all()]) == (
        [10, 5, 1],
        2,
        ["test"],
    )
    assert organiser_client.get(reverse("organiser:seasons")).content.decode().count("Sezon") >= 1


@pytest.mark.parametrize(
    "change, field, message",
    [
        ({"place_points": "10, x"}, "place_points", "Use whole numbers of 0 or more"),
        ({"place_points": ""}, "place_points", "This field is required"),
        ({"best_count": "0"}, "best_count", "greater than or equal to 1"),
        ({"tournaments": ["obcy"]}, "tournaments", "Select a valid choice"),
        ({"slug": "new"}, "slug", "Another season already has this address"),
        ({"slug": "zła adres"}, "slug", "Enter a valid"),
    ],
)
def test_bad_season_input_is_a_message_next_to_the_field(organiser_client, change, field, message):
    build(4)
    data = {"name": "Sezon", "slug": "sezon", "tournaments": ["test"], "place_points": "10, 5", **change}
    response = organiser_client.post(reverse("organiser:season_create"), data)
    assert response.status_code == 200
    assert message in str(response.context["form"].errors[field])
    assert not Season.objects.exists()


def test_a_change_needs_a_reason_and_is_logged_with_before_and_after(organiser_client, organiser):
    season = season_of_three()
    url = reverse("organiser:season_edit", args=[season.slug])
    data = {"name": season.name, "slug": "zima", "tournaments": ["zima-1", "zima-2"], "place_points": "10, 5"}
    response = organiser_client.post(url, data)
    assert "reason" in response.context["form"].errors
    response = organiser_client.post(url, {**data, "reason": "zima-3 was a friendly"})
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="season_changed")
    assert entry.user == organiser and entry.reason == "zima-3 was a friendly"
    assert entry.before["tournaments"] == ["zima-1", "zima-2", "zima-3"] and entry.before["place_points"][0] == 25
    assert entry.after["tournaments"] == ["zima-1", "zima-2"] and entry.after["place_points"] == [10, 5]
    page = organiser_client.get(reverse("organiser:season", args=["zima"])).content.decode()
    assert "zima-3 was a friendly" in page


def test_the_staff_page_shows_every_result_and_says_so(organiser_client):
    season = season_of_three()
    page = organiser_client.get(reverse("organiser:season", args=[season.slug])).content.decode()
    assert "includes results not yet public" in page
    assert page.index("Żak Łucja") < page.index("Nowak Anna") < page.index("Zieliński Piotr")
    assert "Senioriada zima-3" in page


def test_another_organisations_organiser_sees_none_of_its_seasons(client):
    season = season_of_three()
    other = HostOrganisation.objects.create(name="Inna", slug="inna")
    stranger = User.objects.create_user("obcy")
    make_member(stranger, "organiser", other)
    client.force_login(stranger)
    for name, args in [
        ("season", [season.slug]),
        ("season_edit", [season.slug]),
        ("season_file", [season.slug, "season.csv"]),
    ]:
        assert client.get(reverse(f"organiser:{name}", args=args)).status_code == 404
    assert client.get(reverse("printing:season_standings", args=[season.slug])).status_code == 404
    assert "Sezon zimowy" not in client.get(reverse("organiser:seasons")).content.decode()
    response = client.post(
        reverse("organiser:season_edit", args=[season.slug]),
        {"name": "X", "slug": "zima", "place_points": "1", "reason": "r"},
    )
    assert response.status_code == 404 and Season.objects.get().name == "Sezon zimowy 2026"


def file_rows(client, season, name, separator=";"):
    response = client.get(reverse("organiser:season_file", args=[season.slug, name]))
    assert response.status_code == 200
    return response.content


def expected_file_rows(table, tournaments):
    rows = []
    for rank, name, club, points, played, wins, best, results in table:
        by_t = {t: (place, p, counted) for t, place, p, counted in results}
        row = [rank, name, club, points, played, wins, best]
        for t in tournaments:
            place, p, counted = by_t.get(t, (None, None, None))
            row += (
                [None, None, None] if p is None else ["DQ" if place is None else place, p, "yes" if counted else "no"]
            )
        rows.append(row)
    return rows


def test_the_csv_and_the_spreadsheet_hold_the_staff_table_row_by_row(organiser_client):
    season = season_of_three()
    expected = expected_file_rows(SEASON_STAFF_TABLE, ["zima-1", "zima-2", "zima-3"])
    sheets = read_workbook(file_rows(organiser_client, season, "season.xlsx"))
    assert list(sheets) == ["Sezon zimowy 2026", "Tournaments"]
    header, *rows = sheets["Sezon zimowy 2026"][1]
    assert header[:7] == ["Place", "Player", "Organisation", "Points", "Tournaments", "Wins", "Best place"]
    assert header[7:10] == ["Senioriada zima-1: place", "Senioriada zima-1: points", "Senioriada zima-1: counted"]
    assert rows == expected
    assert sheets["Tournaments"][1][3] == ["Senioriada zima-3", "zima-3", "2026-03-14", "counted"]
    assert formula_cells(file_rows(organiser_client, season, "season.xlsx")) == []
    as_text = [[("" if cell is None else str(cell)) for cell in row] for row in expected]
    assert read_csv(file_rows(organiser_client, season, "season.csv"))[1:] == as_text
    assert read_csv(file_rows(organiser_client, season, "season-comma.csv"), ",")[1:] == as_text
    assert organiser_client.get(reverse("organiser:season_file", args=[season.slug, "x.pdf"])).status_code == 404


def test_the_results_site_of_a_tournament_in_a_season_holds_the_seasons_public_table(tmp_path):
    from tests.support.files import zip_texts

    season_of_three()
    out = tmp_path / "site.zip"
    call_command("export_site", "zima-1", "--out", str(out), stdout=None)
    files = zip_texts(out.read_bytes())
    assert 'href="seasons/zima.html"' in files["index.html"]
    page = files["seasons/zima.html"]
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    names = re.findall(r'<td class="who">\s*([^<]+?)\s*<span class="org">([^<]*)</span>', body)
    points = [int(p) for p in re.findall(r'<td class="num big">(\d+)</td>', body)]
    assert list(zip(names, points)) == [((name, club), p) for _r, name, club, p, *_ in SEASON_PUBLIC_TABLE]
    assert "Results pending:" in page and "Senioriada zima-3" in page
    assert 'href="../style.css"' in page and "/s/" not in page  # relative links only
