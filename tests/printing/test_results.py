"""Standings, diplomas and certificates, the referee device sheet and the print menu."""

import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.test import Client

from organiser.interchange import import_tournament
from printing import views as printing_views
from printing.testing import (  # noqa: F401
    A4_PORTRAIT,
    flat,
    page_lines,
    page_sizes,
    pdf_reader,
    pdf_text,
    polish_players,
    strict_pdf_rendering,
    tournament_data,
    without_spaces,
)
from printing.views import device_sheet_pdf
from scoring.models import ScoreSheet, TieDecision
from scoring.services.visibility import set_visibility
from tests.factories import out_game
from tournament.models import Player, Round, Tournament

pytestmark = pytest.mark.django_db

# Round 1, one table (A Genowefa Gąsior, B Józef Gąsior, C Czesław Gąsior, D Stanisława Gąsior):
#   game 1: A out; B 10, C 20, D 30          → A +60, B −10, C −20, D −30
#   game 2: A out; B 5, C 5, D 5             → A +15, B −5,  C −5,  D −5
#   game 3: B out; A 10, C 1, D 1            → B +12, A −10, C −1,  D −1
#   game 4: C out; A 1, B 1, D 50            → C +52, A −1,  B −1,  D −50
# Big points: A 2, B 1, C 1, D 0. Small points: A 64, B −4, C 26, D −86.
# Order: A (gold), C (silver, more small points than B), B (bronze), then the five registered
# players who never sat down (0 points: places 4–8), then D (9th).
ROUND_1_GAMES = [
    out_game(1, "A", B=(10, 0), C=(20, 0), D=(30, 0)),
    out_game(2, "A", B=(5, 0), C=(5, 0), D=(5, 0)),
    out_game(3, "B", A=(10, 0), C=(1, 0), D=(1, 0)),
    out_game(4, "C", A=(1, 0), B=(1, 0), D=(50, 0)),
]
GOLD, SILVER, BRONZE, FOURTH = "Genowefa Gąsior", "Czesław Gąsior", "Józef Gąsior", "Stanisława Gąsior"


def listed(name):
    """A name as the standings list it, surname first: "Genowefa Gąsior" → "Gąsior Genowefa"."""
    given_names, surname = name.split()
    return f"{surname} {given_names}"


def finished_tournament(*, round_state="completed", sheet_state="verified", games=ROUND_1_GAMES, **settings):
    """Four players and five more who never sat down; one qualifying round planned, no final."""
    table = {"number": 1, "seats": {"A": "p0", "B": "p1", "C": "p2", "D": "p3"}, "games": games, "state": sheet_state}
    rounds = [{"number": 1, "state": round_state, "tables": [table]}]
    return import_tournament(
        tournament_data(polish_players(9), rounds, settings={"rounds_planned": 1, "final": False, **settings})
    )


def test_standings_with_medal_places(organiser_client):
    finished_tournament()
    response = organiser_client.get("/print/senioriada/standings.pdf")
    assert response.status_code == 200
    assert page_sizes(response.content) == [A4_PORTRAIT]
    text = flat(pdf_text(response.content))
    assert "Final standings" in text and "Verified score sheets only." in text
    assert re.search(
        rf"1 {listed(GOLD)} .*? 2 \+64 2 2 {listed(SILVER)} .*? 1 \+26 1 3 {listed(BRONZE)} .*? 1 −4 1 4–8 ", text
    )
    assert text.count(" 4–8 ") == 5
    assert " 64 " not in text and "-86" not in text  # signed as on the screens: "+64", "−86" (a true minus sign)
    assert re.search(rf"9 {listed(FOURTH)} .*? 0 −86 0", text)


def test_current_standings_count_only_verified_sheets(organiser_client):
    finished_tournament(round_state="started", sheet_state="submitted")
    text = flat(pdf_text(organiser_client.get("/print/senioriada/standings.pdf").content))
    assert "Current standings" in text
    assert "1–9 " in text and " 2 +64 2" not in text


def test_disqualified_players_are_listed_last_without_a_medal(organiser_client):
    tournament = finished_tournament()
    Player.objects.filter(tournament=tournament, name=GOLD).update(status=Player.Status.DISQUALIFIED)
    text = flat(pdf_text(organiser_client.get("/print/senioriada/standings.pdf").content))
    assert re.search(
        rf"1 {listed(SILVER)} .* 2 {listed(BRONZE)} .* 3–7 .* 8 {listed(FOURTH)} .* DQ {listed(GOLD)} .* disqualified 2 \+64 2",
        text,
    )


def test_public_standings_obey_visibility(client):
    tournament = finished_tournament()
    live = client.get("/print/senioriada/public/standings.pdf")
    assert live.status_code == 200 and live["Cache-Control"] == "no-cache"
    assert f"1 {listed(GOLD)} " in flat(pdf_text(live.content))

    set_visibility(tournament, Tournament.Visibility.HIDDEN)
    hidden = client.get("/print/senioriada/public/standings.pdf")
    assert hidden.status_code == 403
    assert hidden["Content-Type"].startswith("text/html")
    assert "The results are hidden until the end of the tournament." in hidden.content.decode()
    assert listed(GOLD) not in hidden.content.decode()

    Tournament.objects.filter(pk=tournament.pk).update(visibility=Tournament.Visibility.FROZEN, frozen_round=0)
    frozen = flat(pdf_text(client.get("/print/senioriada/public/standings.pdf").content))
    assert "Standings before the first round" in frozen
    assert " +64 " not in frozen and "1–9 " in frozen


def test_frozen_public_standings_stop_at_the_frozen_round(client, organiser_client):
    # Round 1: A out, B C D 10 each → A +30. Round 2: B out, A 50, C D 1 each → B +52.
    rounds = [
        {
            "number": n,
            "state": "completed",
            "tables": [{"number": 1, "seats": {"A": "p0", "B": "p1", "C": "p2", "D": "p3"}, "games": [game]}],
        }
        for n, game in (
            (1, out_game(1, "A", B=(10, 0), C=(10, 0), D=(10, 0))),
            (2, out_game(1, "B", A=(50, 0), C=(1, 0), D=(1, 0))),
        )
    ]
    import_tournament(
        tournament_data(
            polish_players(4), rounds, settings={"rounds_planned": 2, "visibility": "frozen", "frozen_round": 1}
        )
    )
    frozen = flat(pdf_text(client.get("/print/senioriada/public/standings.pdf").content))
    assert "Standings after round 1" in frozen
    assert re.search(rf"1 {listed(GOLD)} .*? 1 \+30 1 ", frozen)
    staff = flat(pdf_text(organiser_client.get("/print/senioriada/standings.pdf").content))
    assert re.search(rf"1 {listed(BRONZE)} .*? 1 \+42 1 2 {listed(GOLD)} .*? 1 −20 1 ", staff)


def test_staff_standings_stay_available_while_hidden(head_referee_client):
    set_visibility(finished_tournament(), Tournament.Visibility.HIDDEN)
    text = flat(pdf_text(head_referee_client.get("/print/senioriada/standings.pdf").content))
    assert f"1 {listed(GOLD)} " in text


def test_medal_diplomas(organiser_client):
    finished_tournament()
    response = organiser_client.get("/print/senioriada/diplomas.pdf")
    assert response.status_code == 200
    assert page_sizes(response.content) == [A4_PORTRAIT] * 3
    pages = [" ".join(page_lines(page)) for page in pdf_reader(response.content).pages]
    for page, name, place in zip(
        pages,
        (GOLD, SILVER, BRONZE),
        ("First place and the gold medal", "Second place and the silver medal", "Third place and the bronze medal"),
    ):
        assert "DIPLOMA" in page and place in page and f"awarded to {name} Uniwersytet" in page
        assert "in the Rummikub tournament Senioriada Łódź 2026 Feb. 10, 2026" in page
        assert "Head referee" in page and "Organiser" in page
    number = {GOLD: 0, SILVER: 2, BRONZE: 1}
    for page, name in zip(pages, (GOLD, SILVER, BRONZE)):
        assert f"Uniwersytet Trzeciego Wieku „Złota Jesień” nr {number[name]}" in page


def test_certificates_for_everyone_who_played(organiser_client):
    finished_tournament()
    response = organiser_client.get("/print/senioriada/certificates.pdf")
    pages = [" ".join(page_lines(page)) for page in pdf_reader(response.content).pages]
    assert page_sizes(response.content) == [A4_PORTRAIT] * 4  # five registered players never sat down
    names = [re.search(r"awarded to (\S+ \S+) Uniwersytet", page).group(1) for page in pages]
    assert names == ["Czesław Gąsior", "Genowefa Gąsior", "Józef Gąsior", "Stanisława Gąsior"]
    assert all(
        "CERTIFICATE OF PARTICIPATION" in page and "for taking part in the Rummikub tournament" in page
        for page in pages
    )


def test_a_disqualified_player_gets_no_certificate(organiser_client):
    tournament = finished_tournament()
    Player.objects.filter(tournament=tournament, name="Józef Gąsior").update(status=Player.Status.DISQUALIFIED)
    response = organiser_client.get("/print/senioriada/certificates.pdf")
    pages = [" ".join(page_lines(page)) for page in pdf_reader(response.content).pages]
    names = [re.search(r"awarded to (\S+ \S+) Uniwersytet", page).group(1) for page in pages]
    assert names == ["Czesław Gąsior", "Genowefa Gąsior", "Stanisława Gąsior"]


def test_certificates_come_in_surname_order_and_read_given_names_first(organiser_client):
    names = ["Barbara Żak", "Łukasz Lis", "Adam Łukasz", "Jan Ćwik", "Anna Cebula"]  # Anna Cebula never sat down
    players = [
        {"id": f"p{i}", "name": name, "organisation": f"Uniwersytet Trzeciego Wieku nr {i}"}
        for i, name in enumerate(names)
    ]
    table = {
        "number": 1,
        "seats": {"A": "p0", "B": "p1", "C": "p2", "D": "p3"},
        "games": ROUND_1_GAMES,
        "state": "verified",
    }
    import_tournament(
        tournament_data(
            players,
            [{"number": 1, "state": "completed", "tables": [table]}],
            settings={"rounds_planned": 1, "final": False},
        )
    )
    content = organiser_client.get("/print/senioriada/certificates.pdf").content
    pages = [" ".join(page_lines(page)) for page in pdf_reader(content).pages]
    printed = [re.search(r"awarded to (\S+ \S+) Uniwersytet", page).group(1) for page in pages]
    assert printed == ["Jan Ćwik", "Łukasz Lis", "Adam Łukasz", "Barbara Żak"]  # Ćwik, Lis, Łukasz, Żak


@pytest.mark.parametrize("path", ["diplomas.pdf", "certificates.pdf"])
def test_no_diplomas_before_the_results_are_final(organiser_client, path):
    tournament = finished_tournament(round_state="started")
    response = organiser_client.get(f"/print/senioriada/{path}")
    assert response.status_code == 409
    assert "Diplomas can be printed when the last qualifying round is completed." in response.content.decode()

    Tournament.objects.filter(pk=tournament.pk).update(final=True)
    Round.objects.filter(tournament=tournament).update(state=Round.State.COMPLETED)
    response = organiser_client.get(f"/print/senioriada/{path}")
    assert "Diplomas can be printed when the final is completed." in response.content.decode()


def test_no_diplomas_while_a_sheet_is_unverified(organiser_client):
    tournament = finished_tournament()
    ScoreSheet.objects.filter(table__round__tournament=tournament).update(state=ScoreSheet.State.SUBMITTED)
    response = organiser_client.get("/print/senioriada/diplomas.pdf")
    assert response.status_code == 409
    assert "1 score sheet is not verified yet; the head referee must verify it first." in response.content.decode()


def test_no_medal_diplomas_while_a_medal_tie_is_open(organiser_client):
    # Game 4 changed: C goes out with A 1, B 1, D 20 → C +22. B and C: 1 big point, −4 small points,
    # 1 game won each: tied for silver.
    games = ROUND_1_GAMES[:3] + [out_game(4, "C", A=(1, 0), B=(1, 0), D=(20, 0))]
    tournament = finished_tournament(games=games)
    response = organiser_client.get("/print/senioriada/diplomas.pdf")
    assert response.status_code == 409
    assert "There is a tie at a medal place" in response.content.decode()
    assert organiser_client.get("/print/senioriada/certificates.pdf").status_code == 200

    TieDecision.objects.create(tournament=tournament, order=["p2", "p1"], reason="lot")
    pages = pdf_reader(organiser_client.get("/print/senioriada/diplomas.pdf").content).pages
    assert ["Second" in page.extract_text() and SILVER in page.extract_text() for page in pages] == [False, True, False]


@pytest.mark.parametrize("name_length", [60, 200])  # 200: the longest a name may be
def test_very_long_names_on_diplomas_wrap_inside_their_box(organiser_client, name_length):
    tournament = finished_tournament()
    long_name = ("Maria Magdalena Konstancja " + "Wiśniewska-Źdźbłowska " * 9)[:name_length]
    long_organisation = "Stowarzyszenie " + "Uniwersytetów Trzeciego Wieku Ziemi Łódzkiej " * 2 + "im. Świętej Jadwigi"
    player = Player.objects.get(tournament=tournament, name=GOLD)
    player.name = long_name  # its last word (W…, Ź…) is the surname: the last certificate
    player.save()
    player.organisation.name = long_organisation
    player.organisation.save()
    for path, pages, page in (("diplomas.pdf", 3, 0), ("certificates.pdf", 4, 3)):
        content = organiser_client.get(f"/print/senioriada/{path}").content
        assert page_sizes(content) == [A4_PORTRAIT] * pages
        # The name and organisation fill the lines between "awarded to" and the tournament line.
        lines = page_lines(pdf_reader(content).pages[page])
        start = lines.index("awarded to") + 1
        end = next(number for number, line in enumerate(lines) if line.endswith("the Rummikub tournament"))
        assert without_spaces("".join(lines[start:end])) == without_spaces(long_name + long_organisation)


def test_a_very_long_tournament_name_stays_clear_of_the_title_and_the_signatures(organiser_client):
    tournament = finished_tournament()
    long_name = ("XII Ogólnopolski Turniej Rummikub Uniwersytetów Trzeciego Wieku „Senioriada” Łódź " * 3)[:200]
    Tournament.objects.filter(pk=tournament.pk).update(name=long_name)
    for path, title in (("diplomas.pdf", "DIPLOMA"), ("certificates.pdf", "CERTIFICATE OF")):
        lines = page_lines(pdf_reader(organiser_client.get(f"/print/senioriada/{path}").content).pages[0])
        title_at = next(number for number, line in enumerate(lines) if line.startswith(title))
        assert without_spaces("".join(lines[:title_at])) == without_spaces(long_name)
        event_at = next(number for number, line in enumerate(lines) if line.endswith("the Rummikub tournament"))
        date_at = lines.index("Feb. 10, 2026")
        assert without_spaces("".join(lines[event_at + 1 : date_at])) == without_spaces(long_name)
        assert lines[date_at + 1 :] == ["Head referee Organiser"]


def test_results_documents_need_the_head_referee_role(referee_client):
    finished_tournament()
    for path in ("standings.pdf", "diplomas.pdf", "certificates.pdf"):
        assert referee_client.get(f"/print/senioriada/{path}").status_code == 403
        assert Client().get(f"/print/senioriada/{path}").status_code == 302


def test_device_sheet_shows_each_link_with_its_qr_code():
    tournament = finished_tournament()
    links = [
        (f"Stół {n} — sędzia Łucja", f"https://turniej.example.org/accounts/device/{'k' * 43}{n}/") for n in range(1, 6)
    ]
    content = device_sheet_pdf(tournament, links)
    assert page_sizes(content) == [A4_PORTRAIT] * 2  # four codes on the first page, one on the second
    text = pdf_text(content)
    assert "Keep this sheet safe" in text
    for label, url in links:
        assert label in text
        assert without_spaces(url) in without_spaces(text)
    images = {image.name for page in pdf_reader(content).pages for image in page.images}
    assert len(images) == 5


def test_device_sheet_creates_numbered_links_and_prints_them(organiser_client, head_referee):
    from accounts.models import DeviceLink

    finished_tournament()
    assert organiser_client.get("/print/senioriada/devices.pdf").status_code == 200  # explains where to start
    response = organiser_client.post(
        "/print/senioriada/devices.pdf", {"label": "Tablet", "valid_hours": 16, "count": 3}
    )
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-store"
    text = pdf_text(response.content)
    assert "Tablet 1" in text and "Tablet 3" in text
    assert list(DeviceLink.objects.values_list("label", flat=True).order_by("label")) == [
        "Tablet 1",
        "Tablet 2",
        "Tablet 3",
    ]
    refused = organiser_client.post("/print/senioriada/devices.pdf", {"label": "Tablet", "valid_hours": 16, "count": 0})
    assert refused.status_code == 409 and DeviceLink.objects.count() == 3
    head_referee_client = Client()
    head_referee_client.force_login(head_referee)
    assert head_referee_client.post("/print/senioriada/devices.pdf", {"count": 1}).status_code == 403


def test_print_menu_links_every_document(organiser_client, django_assert_max_num_queries):
    tournament = finished_tournament()
    Round.objects.create(tournament=tournament, number=2)
    with django_assert_max_num_queries(12):
        response = organiser_client.get("/print/senioriada/")
    page = response.content.decode()
    for path in (
        "standings.pdf",
        "public/standings.pdf",
        "diplomas.pdf",
        "certificates.pdf",
        "blank-score-sheet.pdf",
        "round/1/seating.pdf",
        "round/1/where-do-i-sit.pdf",
        "round/1/score-sheets.pdf",
        "round/1/table-cards.pdf",
        "public/round/1/seating.pdf",
        "public/round/1/where-do-i-sit.pdf",
        "round/1/table/1/score-sheet.pdf",
    ):
        assert f'href="/print/senioriada/{path}"' in page
    assert "No seating yet." in page  # round 2
    assert "/round/2/" not in page


def test_print_menu_queries_do_not_grow_with_rounds(organiser_client, django_assert_max_num_queries):
    players = polish_players(40)
    ids = [p["id"] for p in players]
    rounds = [
        {
            "number": n,
            "state": "completed",
            "tables": [{"number": t + 1, "seats": dict(zip("ABCD", ids[4 * t : 4 * t + 4]))} for t in range(10)],
        }
        for n in range(1, 8)
    ]
    import_tournament(tournament_data(players, rounds, settings={"rounds_planned": 7}))
    with django_assert_max_num_queries(12):
        response = organiser_client.get("/print/senioriada/")
    assert response.content.decode().count("/score-sheet.pdf") == 70


def test_print_menu_is_for_organisers(head_referee_client):
    finished_tournament()
    assert head_referee_client.get("/print/senioriada/").status_code == 403
    assert Client().get("/print/senioriada/").status_code == 302


def test_device_sheets_are_never_cached():
    tournament = finished_tournament()
    with mock.patch.object(cache, "set") as cache_set:
        device_sheet_pdf(tournament, [("Stół 1", "https://turniej.example.org/accounts/device/secret-token/")])
    cache_set.assert_not_called()


@pytest.mark.parametrize("path", ["/print/senioriada/standings.pdf", "/print/senioriada/public/standings.pdf"])
def test_the_printed_standings_wear_medals_only_once_the_places_are_final(organiser_client, path):
    """Issue 48.1 on paper: after the only round is played but before it is completed, the leader is
    listed first without a gold disc; once the round is completed the first three wear theirs."""
    finished_tournament(round_state="started")
    with mock.patch("printing.views.render_pdf", wraps=printing_views.render_pdf) as render:
        assert organiser_client.get(path).status_code == 200
        Round.objects.update(state=Round.State.COMPLETED)
        assert organiser_client.get(path).status_code == 200
    before, after = (render_to_string(*call.args) for call in render.call_args_list)
    assert 'class="medal' not in before and "Current standings" in before
    assert after.count('class="medal medal--') == 3 and "Final standings" in after
