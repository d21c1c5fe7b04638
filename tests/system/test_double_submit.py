"""Forms sent twice at the same moment on a real server (gunicorn on 127.0.0.1), on SQLite and on
PostgreSQL (DATABASE_URL): a double tap or a retry sends one form's submission token several
times at once, and the change happens once (tournament/submissions.py); different forms that
make the same address at once get the form's message or the next free address, never a 500.
"""

import json
import re

import pytest

from tests.factories import tournament_data
from tests.support.http_client import Client
from tests.support.race import at_once
from tests.support.server import Server
from tests.support.venue import server_errors

# One worker runs this module's tests (make test's --dist loadgroup): they share one module-scoped server.
pytestmark = [pytest.mark.server, pytest.mark.xdist_group("double-submit-server")]

PASSWORD = "organiser-password-1"
AT_ONCE = 6
TOKEN = re.compile(r'name="submission" value="([^"]+)"')
TAKEN = "Inny turniej ma już ten adres: wybierz inny."  # the server speaks Polish, the default


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("double-submit")
    server = Server(folder, workers=2, threads=4)
    try:
        path = folder / "tournament.json"
        path.write_text(json.dumps(tournament_data(8)), encoding="utf-8")
        server.manage("import_tournament", str(path))
        server.manage(
            "shell",
            "-v",
            "0",
            "-c",
            (
                "from django.contrib.auth.models import User\n"
                "from accounts.services import make_member\n"
                f"user = User.objects.create_user('org', password={PASSWORD!r})\n"
                "make_member(user, 'organiser')\n"
                "from tournament.models import Player\n"
                "Player.objects.update(present=True)\n"
            ),
        )
        yield server.start()
    finally:
        server.close()


@pytest.fixture
def organiser(server):
    return Client(server.url).login("org", PASSWORD)


def query(server, expression):
    """The value of a Python expression over the server's database (models imported)."""
    result = server.manage(
        "shell",
        "-v",
        "0",
        "-c",
        (
            "import json\n"
            "from scoring.models import Card\n"
            "from tournament.models import AuditEntry, Player, Round, SubmissionToken, Tournament\n"
            f"print(json.dumps({expression}))\n"
        ),
    )
    return json.loads(result.stdout)


def token_on(client, path):
    page = client.get(path)
    assert page.status == 200, page.status
    return TOKEN.search(page.text).group(1)


def settings_form(**values):
    data = {
        "name": "Puchar",
        "date": "2026-03-14",
        "rounds_planned": "5",
        "seating_method": "mixed",
        "players_per_organisation": "1",
        "move_seconds": "40",
        "final": "on",
        "final_games": "4",
        "final_release": "ceremony",
        "joker_penalty": "50",
        "initial_meld": "30",
        "opening_penalty_mode": "replace",
        "penalty_not_possible": "100",
        "penalty_possible_not_done": "200",
        "penalty_drawn_last_round": "100",
        "penalty_first_move": "100",
        "pool_exhausted_scoring": "sum",
        "big_point_unit": "game",
        "big_point_places": "1, 0, 0, 0",
        "visibility": "live",
        "public_language": "pl",
    }
    return {**data, **values}


def test_a_card_sent_six_times_at_once_is_given_once(server, organiser):
    player = query(server, "Player.objects.get(ext_id='p3').pk")
    path = f"/referee/test/player/{player}/card/"
    data = {
        "colour": "yellow",
        "reason": "double tap",
        "submission": token_on(organiser, f"/referee/test/player/{player}/"),
    }
    answers = at_once(lambda i: organiser.post(path, data), AT_ONCE)
    assert [a.status for a in answers] == [302] * AT_ONCE
    assert {a.location for a in answers} == {f"/referee/test/player/{player}/"}
    assert query(server, f"[Card.objects.filter(player={player}).count(), Player.objects.get(pk={player}).status]") == [
        1,
        "active",
    ]
    assert not server_errors(server)


def test_creating_a_tournament_sent_six_times_at_once_creates_one(server, organiser):
    data = settings_form(name="Puchar Jesieni", submission=token_on(organiser, "/staff/new/"))
    answers = at_once(lambda i: organiser.post("/staff/new/", data), AT_ONCE)
    assert {(a.status, a.location) for a in answers} == {(302, "/staff/puchar-jesieni/players/")}
    assert query(server, "list(Tournament.objects.filter(name='Puchar Jesieni').values_list('slug', flat=True))") == [
        "puchar-jesieni"
    ]
    assert not server_errors(server)


def test_six_tournaments_with_one_typed_address_at_once_one_is_made_the_others_get_the_forms_message(server, organiser):
    tokens = [token_on(organiser, "/staff/new/") for _ in range(AT_ONCE)]
    tokens[-1] = None  # and one sent without a token, as a script would
    answers = at_once(
        lambda i: organiser.post(
            "/staff/new/",
            settings_form(name=f"Puchar {i}", slug="puchar-lata", **({"submission": tokens[i]} if tokens[i] else {})),
        ),
        AT_ONCE,
    )
    assert sorted(a.status for a in answers) == [200] * (AT_ONCE - 1) + [302]
    assert all(TAKEN in a.text for a in answers if a.status == 200)
    assert query(server, "Tournament.objects.filter(slug='puchar-lata').count()") == 1
    assert not server_errors(server)


@pytest.mark.parametrize("with_tokens", [True, False])
def test_six_tournaments_named_new_at_once_get_free_addresses_never_the_reserved_one(server, organiser, with_tokens):
    name = f"New {with_tokens}"  # "new-true" / "new-false": the same name six times
    tokens = [token_on(organiser, "/staff/new/") if with_tokens else None for _ in range(AT_ONCE)]
    answers = at_once(
        lambda i: organiser.post(
            "/staff/new/", settings_form(name=name, **({"submission": tokens[i]} if tokens[i] else {}))
        ),
        AT_ONCE,
    )
    assert [a.status for a in answers] == [302] * AT_ONCE
    slugs = query(server, f"sorted(Tournament.objects.filter(name={name!r}).values_list('slug', flat=True))")
    base = f"new-{str(with_tokens).lower()}"
    assert slugs == sorted([base] + [f"{base}-{n}" for n in range(2, AT_ONCE + 1)])
    assert not server_errors(server)


def test_a_tournament_named_new_does_not_get_the_reserved_address(server, organiser):
    answer = organiser.post("/staff/new/", settings_form(name="New", submission=token_on(organiser, "/staff/new/")))
    assert answer.location == "/staff/new-2/players/"
    assert not query(server, "Tournament.objects.filter(slug='new').exists()")


def test_a_draw_and_a_publish_sent_six_times_at_once_each_happen_once(server, organiser):
    data = {"method": "random", "seed": "", "submission": token_on(organiser, "/staff/test/draw/")}
    answers = at_once(lambda i: organiser.post("/staff/test/draw/", data), AT_ONCE)
    assert {(a.status, a.location) for a in answers} == {(302, "/staff/test/rounds/1/")}
    page = organiser.get("/staff/test/rounds/1/").text
    form = re.search(r'action="/staff/test/rounds/1/publish/">(.*?)</form>', page, re.S).group(1)
    data = {"submission": TOKEN.search(form).group(1)}
    answers = at_once(lambda i: organiser.post("/staff/test/rounds/1/publish/", data), AT_ONCE)
    assert {(a.status, a.location) for a in answers} == {(302, "/staff/test/rounds/1/")}
    assert query(
        server,
        "[Round.objects.filter(tournament__slug='test').count(), "
        "AuditEntry.objects.filter(action='round_draw').count(), "
        "AuditEntry.objects.filter(action='round_publish').count()]",
    ) == [1, 1, 1]
    assert not server_errors(server)
