"""One side's staff see nothing of another's and change nothing of it.

Two sides, each with its tournament and its people (tests/support/sides.py: `make_side`, the one
place that says who belongs where). B's organiser crawls every staff page, file and form of B
(tests/support/crawl.py: links are followed, not listed, so a new page is covered without
editing this test). Then each of A's people (organiser, head referee, referee, a tablet signed in
with its link) asks for every one of those URLs and posts every one of those forms as B's
organiser saw them, tokens included, and again without the submission token (which only B's
organiser may send): every URL of B's tournament answers 403, 404 or a redirect to the sign-in
page, and no body carries B's data, the shared pages' (the staff home, the help) included. B's
URLs that name one of its objects (a player, a link, a grant, a snapshot) asked in A's tournament,
and B's forms posted to A's tournament, show nothing of B either. After all of it, B's rows and
snapshots are as they were. It runs on both databases.
"""

from itertools import product
from urllib.parse import urlsplit

import pytest
from django.db import transaction
from django.urls import resolve, reverse

from accounts.models import TournamentVenue
from organiser.backups.snapshots import take_snapshot
from tests.factories import hall_data
from tests.support.crawl import crawl, text
from tests.support.sides import PEOPLE, client_of, make_side, rows_of
from tournament import submissions

pytestmark = pytest.mark.django_db

# B's data, written so that no page of A and no page of the app's own says it (looked for in
# lowercase): the tournament's name, its clubs, a card's reason and its tablet's label all carry
# the first; the others are B's players' surnames.
B_MARKERS = (
    "bravoberg",
    "quillfeather",
    "zanzibarek",
    "wolfsschanz",
    "pokrzywnicka",
    "hollowmere",
    "traszkiewicz",
    "oxenbridge",
    "yellowhammer",
)
B_NAMES = [
    "Ada Quillfeather",
    "Bogdan Zanzibarek",
    "Cecylia Wolfsschanz",
    "Dorota Pokrzywnicka",
    "Edmund Hollowmere",
    "Felicja Traszkiewicz",
    "Gustaw Oxenbridge",
    "Halina Yellowhammer",
]
# URL arguments that name one object (not a number counted within the tournament, like a round's).
OBJECT_ARGUMENTS = {"pk", "player_id", "link_id", "grant_id", "name", "ext_id"}
SIGNED_OUT = reverse("accounts:login")
HTMX = [{}, {"HTTP_HX_REQUEST": "true"}]


def bravo_data():
    """B: the hall tournament (rounds completed, started with a verified and a submitted sheet,
    published, drawn) under names found nowhere else, with a yellow card."""
    data = hall_data(slug="b-cup")
    data["tournament"]["name"] = "Bravoberg Grand Prix"
    for number, (player, name) in enumerate(zip(data["players"], B_NAMES), start=1):
        player["name"], player["organisation"] = name, f"Klub Bravoberg {number}"
    data["cards"] = [{"player": "p5", "round": 3, "colour": "yellow", "reason": "Bravoberg: noise at the table"}]
    return data


def alfa_data():
    data = hall_data(slug="a-cup")
    data["tournament"]["name"] = "Puchar Alfa"
    return data


@pytest.fixture
def sides():
    bravo = make_side("bravoberg", bravo_data())
    alfa = make_side("alfa", alfa_data())
    take_snapshot(bravo.tournament, "verify-r3-t1")
    TournamentVenue.objects.create(tournament=bravo.tournament, address="http://bravoberg.example:8000")
    return alfa, bravo


def leaks(response):
    """B's markers found in a response's body (a PDF's, a spreadsheet's or an archive's text too)."""
    if response.status_code in (301, 302, 304, 204):
        return []
    said = text(response)
    return [marker for marker in B_MARKERS if marker in said]


def refused(response):
    """403, 404 or a redirect to the sign-in page."""
    if response.status_code in (301, 302):
        return urlsplit(response["Location"]).path == SIGNED_OUT
    return response.status_code in (403, 404)


def turned_back(response):
    """The answer to a submission token issued to someone else: back to the staff home, nothing run."""
    return response.status_code == 302 and urlsplit(response["Location"]).path == reverse("accounts:home")


def without_token(data):
    return {name: values for name, values in data.items() if name != submissions.FIELD}


def of_b(url, bravo):
    """Whether a URL is one of B's tournament's (its slug in the path)."""
    return resolve(urlsplit(url).path).kwargs.get("slug") == bravo.tournament.slug


def in_a(url, bravo, alfa):
    return url.replace(f"/{bravo.tournament.slug}/", f"/{alfa.tournament.slug}/", 1)


def names_an_object(url):
    """Whether a URL names one object (a player, a link, a grant, a snapshot): a number counted
    within the tournament (a round's, a table's) names A's own in A's tournament."""
    return bool(OBJECT_ARGUMENTS & set(resolve(urlsplit(url).path).kwargs))


def crawl_b(bravo):
    """B's staff pages, files and forms as B's organiser finds them, with a floor and the kinds of
    page the crawl must reach, so that a crawler that stops seeing pages fails."""
    start = [
        reverse("accounts:home"),
        reverse("organiser:home"),
        reverse("public:help"),
        reverse("accounts:venue_chooser"),
        *(
            reverse(name, args=[bravo.tournament.slug])
            for name in (
                "organiser:dashboard",
                "scoring:home",
                "printing:index",
                "accounts:staff_members",
                "accounts:device_links",
            )
        ),
    ]
    found = crawl(client_of(bravo, "organiser"), start)
    counts = found.counts()
    assert len(found.urls()) >= 40 and counts["form"] >= 20, counts
    must_reach = {
        "organiser:dashboard",
        "organiser:players",
        "organiser:player",
        "organiser:round",
        "organiser:draw",
        "scoring:home",
        "scoring:sheet",
        "scoring:player",
        "scoring:give_card",
        "scoring:ties",
        "organiser:backups",
        "organiser:snapshot_download",
        "organiser:backup_download",
        "organiser:exports",
        "organiser:export_file",
        "printing:index",
        "printing:table_score_sheet",
        "organiser:produced_file",  # a round's batch PDF (seating, score sheets) while a task makes it
        "accounts:staff_members",
        "accounts:venue",
        "organiser:timetable",
        "accounts:device_links",
        "organiser:settings",
        "public:help",
        "public:results_control",
        "scoring:withdraw_card",
    }
    assert must_reach - found.routes() == set(), "the crawl no longer reaches these"
    return found


def asked(found, people, alfa, bravo):
    """Each of A's people GETs every URL (the tablet as htmx too, as its pages ask): B's are
    refused; none shows B's data, nor does one of B's objects asked for in A's tournament."""
    failures = []
    for person, client in people.items():
        for url, headers in product(found.urls(), HTMX if person == "tablet" else [{}]):
            response = client.get(url, **headers)
            if (of_b(url, bravo) and not refused(response)) or response.status_code >= 500 or leaks(response):
                failures.append(f"{person}: GET {url} {headers} → {response.status_code} {leaks(response)}")
            if headers:
                continue
            if of_b(url, bravo) and names_an_object(url):
                response = client.get(in_a(url, bravo, alfa))
                if response.status_code >= 500 or leaks(response):
                    failures.append(
                        f"{person}: GET {in_a(url, bravo, alfa)} → {response.status_code} {leaks(response)}"
                    )
    return failures


def posted(found, people, bravo):
    """Each of A's people posts every form as B's organiser's page sent it (the submission token,
    issued to B's organiser, is refused before the view runs: back to the staff home) and without
    the token (the view itself refuses): B's forms are refused; none answers with B's data."""
    failures = []
    for person, client in people.items():
        for form in found.forms:
            sent = form.sent()
            for data, foreign_token in ((sent, submissions.FIELD in sent), (without_token(sent), False)):
                response = client.post(form.action, data)
                answered = refused(response) or (foreign_token and turned_back(response))
                if (of_b(form.action, bravo) and not answered) or response.status_code >= 500 or leaks(response):
                    failures.append(f"{person}: POST {form.action} → {response.status_code} {leaks(response)}")
    return failures


def posted_in_a(found, organiser, alfa, bravo, before):
    """A's organiser posts B's forms, with B's ids, to A's tournament: each post on A as it was
    (rolled back), answered without B's data (what the form itself sent may come back), leaving
    B as it was."""
    failures = []
    for form in (form for form in found.forms if of_b(form.action, bravo)):
        action, data = in_a(form.action, bravo, alfa), without_token(form.sent())
        echoed = {marker for marker in B_MARKERS if marker in str(data).lower()}
        with transaction.atomic():
            response = organiser.post(action, data)
            shown = set(leaks(response)) - echoed
            if response.status_code >= 500 or shown or rows_of(bravo.tournament) != before:
                failures.append(f"organiser: POST {action} → {response.status_code} {sorted(shown)}")
            transaction.set_rollback(True)
    return failures


def test_a_sides_staff_see_and_change_nothing_of_another_side(sides):
    alfa, bravo = sides
    before = rows_of(bravo.tournament)
    found = crawl_b(bravo)
    assert rows_of(bravo.tournament) == before, "a GET changed B's data"
    people = {person: client_of(alfa, person) for person in PEOPLE}
    failures = asked(found, people, alfa, bravo) + posted(found, people, bravo)
    failures += posted_in_a(found, people["organiser"], alfa, bravo, before)
    assert not failures, f"{len(failures)} answers let A's staff at B:\n" + "\n".join(failures)
    assert rows_of(bravo.tournament) == before, "A's staff changed B's data"
