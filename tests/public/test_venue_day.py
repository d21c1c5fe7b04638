"""Small things seen on the day: "where do I sit" by club, the ceremony warning when results are
not final, the standings header, the score sheet's legend, the favicon."""

import re

import pytest
from django.test import Client

from organiser.interchange import import_tournament
from printing.testing import pdf_reader, pdf_text, seated_tournament, strict_pdf_rendering  # noqa: F401
from scoring.selectors.sheets import unfinished_results
from scoring.selectors.standings import compute_standings
from tests.factories import build_hall, hall_data
from tests.support.produced import produced
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- where do I sit


def found(client, query):
    html = client.get("/t/test/", {"q": query}, HTTP_HX_REQUEST="true").content.decode()
    return re.findall(r'class="match__name"[^>]*>([^<]+)<', html)


def test_where_do_i_sit_finds_players_by_their_club(client):
    build_hall()
    assert found(client, "lodz") == ["Nowak Anna"]  # UTW Łódź; surname first, as the list is in surname order
    assert found(client, "Łódź") == ["Nowak Anna"]
    assert found(client, "utw nowak") == ["Nowak Anna"]  # a word of the club and one of the name
    assert found(client, "gdansk") == ["Żółkiewska Zofia"]


def test_players_found_by_name_come_before_players_found_by_club(client):
    data = hall_data()
    data["players"][2]["organisation"] = "Klub Seniora Anna"  # Zofia Żółkiewska's club
    import_tournament(data)
    assert found(client, "anna") == ["Nowak Anna", "Żółkiewska Zofia"]


# ---------------------------------------------------------------- the ceremony


def final_results():
    """Three qualifying rounds, all completed and verified, no final, the tie at place 3
    decided: the results are final."""
    data = hall_data()
    data["tournament"]["settings"].update(rounds_planned=3)
    data["rounds"] = data["rounds"][:3]
    data["rounds"][2]["state"] = "completed"
    for table in data["rounds"][2]["tables"]:
        table["state"] = "verified"
    data["tie_decisions"] = [{"order": ["p2", "p6"], "reason": "lot drawn by the head referee"}]
    return import_tournament(data)


def test_what_keeps_the_results_from_being_final():
    tournament = build_hall()  # round 3 has a sheet not verified; round 4 of 4 is not played
    assert unfinished_results(tournament, compute_standings(tournament)) == [
        "The last qualifying round is not completed.",
        "5 score sheets are not verified.",
    ]
    Tournament.objects.filter(pk=tournament.pk).update(final=True)
    tournament.refresh_from_db()
    assert unfinished_results(tournament, compute_standings(tournament))[0] == "The final is not completed."


def test_final_results_have_nothing_to_warn_about():
    tournament = final_results()
    rows = compute_standings(tournament)
    assert not any(row.unresolved_tie for row in rows)
    assert unfinished_results(tournament, rows) == []
    rows[0].unresolved_tie = True
    assert unfinished_results(tournament, rows) == ["A tie at a medal place is not decided."]


def test_the_ceremony_warns_the_head_referee_when_results_are_not_final(head_referee_client):
    build_hall()
    for path in ("/t/test/ceremony/", "/t/test/results-control/"):
        html = head_referee_client.get(path).content.decode()
        assert "The results are not final:" in html and "5 score sheets are not verified." in html, path
        asked = head_referee_client.get(f"{path}?confirm=next").content.decode()  # asked on the page itself
        assert "The results are not final. Reveal place 3 on the screen anyway?" in asked, path
        asked = head_referee_client.get(f"{path}?confirm=reset").content.decode()
        assert "Hide all revealed places again?" in asked, path
    public = Client().get("/t/test/ceremony/").content.decode()
    assert "not final" not in public and "Reveal place" not in public


def test_with_final_results_the_ceremony_only_asks(head_referee_client):
    final_results()
    for path in ("/t/test/ceremony/", "/t/test/results-control/"):
        html = head_referee_client.get(path).content.decode()
        assert "The results are not final" not in html, path
        asked = head_referee_client.get(f"{path}?confirm=next").content.decode()
        assert "Reveal place 3 on the screen now?" in asked and "not final" not in asked, path


# ---------------------------------------------------------------- printed documents


def test_standings_header_words_are_never_broken(organiser_client):
    build_hall()
    content = organiser_client.get("/print/test/standings.pdf", HTTP_ACCEPT_LANGUAGE="pl").content
    words = pdf_reader(content).pages[0].extract_text().split()
    for word in ("Miejsce", "Gracz", "Duże", "punkty", "Małe", "Wygrane", "partie"):
        assert word in words, f"{word!r} is broken in the header"


@pytest.mark.django_db(transaction=True)
def test_score_sheets_explain_the_starting_seats_mark(organiser_client):
    seated_tournament(8)
    for path in ("/print/senioriada/round/1/score-sheets.pdf", "/print/senioriada/blank-score-sheet.pdf"):
        text = " ".join(pdf_text(produced(organiser_client, path).content).split())
        assert (
            "starts marks the seat that starts the game (as the “Starts” column says), going round the table; "
            "write in its boxes as in any other."
        ) in text


# ---------------------------------------------------------------- favicon


def test_every_page_has_an_icon(client):
    build_hall()
    html = client.get("/t/test/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', html).group(1)
    assert client.get(icon).status_code == 200
    redirect = client.get("/favicon.ico")
    assert redirect.status_code == 301
    icon = client.get(redirect["Location"])
    assert icon.status_code == 200 and b"".join(icon.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
