"""Permission matrix (SPEC §6): every URL of the project × every kind of visitor gets the
expected answer, and a refused request changes nothing.

The URL patterns are enumerated from the resolver, so a new URL without an entry in
`EXPECTED` fails `test_every_url_has_an_expected_answer`. Visitors: anonymous, referee,
head referee, organiser (all through global groups), a referee of another tournament only
(`TournamentRole`) and a device-link tablet of that other tournament. Staff pages send an
anonymous visitor to the sign-in page and answer 403 to a signed-in visitor without the role.
Each request runs in a transaction that is rolled back, so every request sees the same data.
"""

from dataclasses import dataclass, field

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import Membership, Role, TournamentRole
from accounts.services import create_device_link
from accounts.team import create_invitation
from organiser.interchange import export_tournament, import_tournament
from scoring.models import ScoreSheet
from tests.factories import build, out_game, table, tournament_data, with_people
from tournament.models import Player, ProducedFile, Season, Tournament

pytestmark = pytest.mark.django_db

LOGIN = "login"  # the answer "redirect to the sign-in page"
SKIPPED_PREFIXES = ("admin/", "i18n/")
RANK = {Role.REFEREE: 1, Role.HEAD_REFEREE: 2, Role.ORGANISER: 3}


@dataclass(frozen=True)
class Expect:
    """What a URL answers.

    `role`: None for a public page, "signed-in" for any signed-in user, else the minimum role
    for tournament A. `get`/`post`: the status for a visitor who may use the page (None: the
    method is not tried; 405 is the same for everyone). `answers` pins a visitor's answer.
    """

    role: object = None
    get: int | None = 200
    post: int | None = None
    kwargs: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    answers: dict = field(default_factory=dict)


def staff(role, get=200, post=None, **extra):
    return Expect(role=role, get=get, post=post, **extra)


def post_only(role, post, **extra):
    return Expect(role=role, get=405, post=post, **extra)


REF, HEAD, ORG = Role.REFEREE, Role.HEAD_REFEREE, Role.ORGANISER
SIGNED_IN = "signed-in"
SIGNED_IN_VISITORS = ("referee", "head_referee", "organiser", "other_referee", "tablet_b")
OUTSIDERS = ("other_referee", "tablet_b")  # staff of another tournament only
NOT_IN_THE_TEAM = {visitor: 404 for visitor in SIGNED_IN_VISITORS if visitor != "organiser"}

EXPECTED = {
    # Sign-in pages.
    "accounts:login": Expect(answers={**dict.fromkeys(SIGNED_IN_VISITORS, 302)}),
    "accounts:logout": Expect(get=405, post=302),
    "accounts:home": staff(SIGNED_IN),
    # GET only confirms (the tablet the link signed in is sent on to its pages); POST: test_device_links.
    "accounts:device_sign_in": Expect(answers={"tablet_b": 302}),
    "accounts:device_links": staff(ORG, post=302, data={"label": "Tablet 9", "valid_hours": "16"}),
    "accounts:device_link_revoke": post_only(ORG, 302),
    "accounts:venue": staff(ORG, post=302, data={"address": "http://192.168.1.50:8000"}),
    # two tournaments: the choice (one: its page); no tournament of theirs for the outsiders
    "accounts:venue_chooser": staff(ORG, post=405, answers={"other_referee": 403, "tablet_b": 403}),
    "accounts:venue_check": Expect(get=404, post=405, kwargs={"nonce": "not-made-here"}),  # anyone; its own nonce: 200
    "accounts:setup": Expect(get=302, post=302),  # an organiser exists: the sign-in page
    "accounts:staff_members": staff(
        ORG,
        post=302,
        data={
            "username": "new.referee",
            "role": "referee",
            "password": "long-enough-9",
            "password_again": "long-enough-9",
        },
    ),
    "accounts:staff_member_remove": post_only(ORG, 302),
    "accounts:staff_member_restore": post_only(ORG, 302),  # an undo note that is missing: refused with a message
    # A host organisation's team: its organisers' alone; to anyone else signed in it does not exist.
    "accounts:team_home": staff(SIGNED_IN, get=302, post=405, answers=NOT_IN_THE_TEAM),  # one organisation: its page
    "accounts:team": staff(SIGNED_IN, post=405, answers=NOT_IN_THE_TEAM),
    "accounts:team_member": post_only(SIGNED_IN, 302, answers=NOT_IN_THE_TEAM),  # no reason: refused with a message
    "accounts:team_restore": post_only(SIGNED_IN, 302, answers=NOT_IN_THE_TEAM),
    "accounts:invite": post_only(SIGNED_IN, 302, answers=NOT_IN_THE_TEAM),
    "accounts:invitation_revoke": post_only(SIGNED_IN, 302, answers=NOT_IN_THE_TEAM),
    "accounts:invitation_send": post_only(SIGNED_IN, 302, answers=NOT_IN_THE_TEAM),  # no link: refused with a message
    "accounts:set_password_send": Expect(get=405, post=404),  # superusers' only
    "accounts:invitation": Expect(get=410, post=410, kwargs={"invitation_token": "not-made-here"}),  # the page says why
    "accounts:operator_organisations": Expect(get=404, post=404),  # superusers' only (tests/accounts/test_operator.py)
    "accounts:set_password": Expect(kwargs={"uidb64": "MQ", "token": "not-made-here"}),  # says the link does not work
    # Organiser screens.
    "organiser:home": staff(SIGNED_IN, answers={v: 302 for v in SIGNED_IN_VISITORS if v != "organiser"}),
    "organiser:create": staff(SIGNED_IN, post=200, answers={v: 403 for v in SIGNED_IN_VISITORS if v != "organiser"}),
    "organiser:dashboard": staff(REF, answers={"referee": 302}),  # a referee is sent to score entry
    "organiser:dashboard_status": staff(HEAD),
    "organiser:settings": staff(ORG, post=200),
    "organiser:players": staff(ORG, post=200),
    "organiser:player_import": staff(ORG, post=200),
    "organiser:check_in_everyone": post_only(ORG, 302),
    "organiser:player": staff(ORG, post=200),
    "organiser:player_action": post_only(ORG, 302, kwargs={"action": "check-in"}),
    "organiser:player_spelling": post_only(ORG, 302),  # the person's spelling, or a refusal: back to the list
    "organiser:add_people": staff(ORG, post=200),  # nobody ticked: refused on the page
    "organiser:people": staff(ORG, post=405),
    "organiser:person": staff(ORG, post=200),  # an empty form: refused next to its fields
    "organiser:person_merge": post_only(ORG, 200),
    "organiser:person_undo_merge": post_only(ORG, 200),
    "organiser:draw": staff(ORG, post=200),
    "organiser:final": post_only(ORG, 302),
    "organiser:final_release": post_only(HEAD, 302, data={"final_release": "live"}),
    "organiser:round": staff(HEAD, post=200),
    "organiser:round_action": post_only(ORG, 302, kwargs={"action": "complete"}),
    "organiser:timetable": staff(HEAD),  # read by the head referee too; its POST: tests/organiser/test_timetable.py
    "organiser:exports": staff(ORG),
    "organiser:entries": staff(ORG, post=404),  # a refusal of no entry
    "organiser:entries_close": post_only(ORG, 302),
    "organiser:entries_file": staff(ORG, kwargs={"name": "entries.csv"}),
    "organiser:export_file": staff(ORG, kwargs={"name": "results.xlsx"}),
    # A file made by a task (round 1's score sheets, finished): its page and the file.
    "organiser:produced_file": staff(HEAD),
    "organiser:produced_file_download": staff(HEAD),
    "organiser:backups": staff(ORG, post=200),  # no file: the form says so
    "organiser:backup_download": staff(ORG),
    "organiser:snapshot_download": staff(ORG, get=404, kwargs={"name": "20260210-093000-000000_verify-r1-t1.json.gz"}),
    "organiser:snapshot_restore": post_only(ORG, 404, kwargs={"name": "20260210-093000-000000_verify-r1-t1.json.gz"}),
    "organiser:restore_new": staff(
        SIGNED_IN, post=200, answers={v: 403 for v in SIGNED_IN_VISITORS if v != "organiser"}
    ),
    "organiser:restore_confirm": post_only(SIGNED_IN, 302),  # no staged upload: back to /staff/ with a message
    # Seasons: the organisers of the organisation's alone (another's season: 404); an empty POST is the form again.
    "organiser:seasons": staff(SIGNED_IN, post=405, answers={v: 403 for v in SIGNED_IN_VISITORS if v != "organiser"}),
    "organiser:season_create": staff(
        SIGNED_IN, post=200, answers={v: 403 for v in SIGNED_IN_VISITORS if v != "organiser"}
    ),
    "organiser:season": staff(SIGNED_IN, post=405, answers=NOT_IN_THE_TEAM),
    "organiser:season_edit": staff(SIGNED_IN, post=200, answers=NOT_IN_THE_TEAM),
    "organiser:season_file": staff(SIGNED_IN, post=405, answers=NOT_IN_THE_TEAM, kwargs={"file": "season.csv"}),
    "organiser:restore_progress": staff(SIGNED_IN, get=404, post=405, kwargs={"token": "0" * 32}),  # none confirmed
    # Referee tablets.
    "scoring:home": staff(REF),
    "scoring:round": staff(REF),
    "scoring:sheet": staff(REF),
    "scoring:game_save": post_only(REF, 200),
    "scoring:game_preview": post_only(REF, 200),
    "scoring:score_override": post_only(HEAD, 200, kwargs={"round_number": 1}),  # a stored game
    "scoring:sheet_submit": post_only(REF, 302),
    "scoring:sheet_verify": post_only(HEAD, 302),
    "scoring:sheet_log": staff(REF),
    "scoring:players": staff(REF),
    "scoring:player": staff(REF),
    "scoring:give_card": staff(REF, get=302, post=200),  # GET (a reload of the confirmation): the player's page
    "scoring:withdraw_card": staff(HEAD, get=302, post=200),  # no such card: the page says so and changes nothing
    "scoring:ties": staff(HEAD, post=200),  # no tie here: the page says so and records nothing
    # PDFs: staff documents, then the public ones.
    "printing:index": staff(ORG),
    "printing:seating_by_table": staff(HEAD, get=302),  # its progress page while a task makes it
    "printing:seating_alphabetical": staff(HEAD, get=302),  # its progress page while a task makes it
    "printing:score_sheets": staff(HEAD, get=302),  # its progress page while a task makes it
    "printing:table_score_sheet": staff(HEAD),
    "printing:table_cards": staff(HEAD, get=302),  # its progress page while a task makes it
    "printing:blank_score_sheet": staff(HEAD),
    "printing:standings": staff(HEAD),
    "printing:medal_diplomas": staff(HEAD, get=409),  # the tournament is not over: a message
    "printing:participation_certificates": staff(HEAD, get=409),
    "printing:device_sheet": staff(ORG, post=200, data={"label": "Tablet", "valid_hours": "16", "count": "2"}),
    "printing:season_standings": staff(SIGNED_IN, answers=NOT_IN_THE_TEAM),
    "printing:season_public": Expect(),
    "printing:public_standings": Expect(),
    "printing:public_seating_by_table": Expect(),
    "printing:public_seating_alphabetical": Expect(),
    # The staff help, printed: for anyone.
    "printing:help_organiser": Expect(),
    "printing:help_head_referee": Expect(),
    "printing:help_referee": Expect(),
    # Public pages.
    "public:home": Expect(),
    "public:language": Expect(get=302),
    "public:organisation": Expect(),
    "public:tournament": Expect(),
    "public:entry": Expect(post=200),  # entries closed: the page says so
    "public:entry_sent": Expect(),
    "public:entry_detail": Expect(get=404, kwargs={"token": "not-made-here"}),
    "public:entry_confirm": Expect(get=404, kwargs={"token": "not-made-here"}),
    "public:standings": Expect(),
    "public:standings_json": Expect(),
    "public:player": Expect(),
    "public:round": Expect(),
    "public:projector": Expect(),
    "public:ceremony": Expect(),
    "public:results_control": staff(HEAD, post=302),
    "public:season": Expect(),
    "public:season_person": Expect(get=404),  # the season's one tournament is not finished: nothing public of anyone
    "public:timer": Expect(),
    "public:round_clock": Expect(),
    # The staff help: readable without signing in (nothing secret in it).
    "public:help": Expect(),
    "public:help_organiser": Expect(),
    "public:help_head_referee": Expect(),
    "public:help_referee": Expect(),
    "favicon": Expect(get=301),  # to the icon among the static files
    "healthz": Expect(),  # the proxy's health check: 200 while the database answers, for anyone
}


def url_patterns(patterns=None, namespace="", prefix=""):
    """(qualified name, route, parameter names) of every URL of the project but admin and i18n."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if route.startswith(SKIPPED_PREFIXES):
            continue
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from url_patterns(entry.url_patterns, inner, route)
        elif isinstance(entry, URLPattern):
            yield f"{namespace}{entry.name}", route, sorted(entry.pattern.converters)


ALL_URLS = list(url_patterns())


# ---------------------------------------------------------------- the two tournaments and the visitors


@pytest.fixture
def world(referee, head_referee, organiser):
    """Tournament A (`test`): round 1 verified, round 2 started with empty sheets;
    tournament B (`other`) with its own referee and a device-link tablet."""
    games = [out_game(1, "A", B=(23, 0), C=(10, 1), D=(5, 0))]
    rounds = [
        {"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"], games), table(2, ["p5", "p6", "p7", "p8"], games)]},
        {
            "number": 2,
            "state": "started",
            "tables": [table(1, ["p1", "p5", "p3", "p7"]), table(2, ["p2", "p6", "p4", "p8"])],
        },
    ]
    tournament = build(8, rounds=rounds)
    other_data = tournament_data(4)
    other_data["tournament"].update(slug="other", name="Other cup")
    other = import_tournament(other_data)
    other_referee = User.objects.create_user("other-referee", password="secret-pass-123")
    TournamentRole.objects.create(user=other_referee, tournament=other, role=Role.REFEREE)
    tablet_link, tablet_token = create_device_link(other, label="Tablet B")
    own_link, _token = create_device_link(tournament, label="Tablet A")
    grant = TournamentRole.objects.create(
        user=User.objects.create_user("staff-a"), tournament=tournament, role=Role.REFEREE
    )
    visitors = {
        "anonymous": None,
        "referee": referee,
        "head_referee": head_referee,
        "organiser": organiser,
        "other_referee": other_referee,
        "tablet_b": tablet_link.user,
    }
    player = Player.objects.get(tournament=tournament, ext_id="p1")
    with_people(tournament)
    season = Season.objects.create(host=tournament.host, name="Sezon", slug=tournament.slug)
    season.tournaments.add(tournament)
    params = {
        "slug": tournament.slug,
        "number": 2,
        "round_number": 2,
        "table_number": 1,
        "game_number": 1,
        "pk": player.pk,
        "player_id": player.pk,
        "person_id": player.person_id,
        "ext_id": player.ext_id,
        "link_id": own_link.pk,
        "token": tablet_token,
        "grant_id": grant.pk,
        "host": tournament.host.slug,
        "membership_id": Membership.objects.get(user=referee).pk,
        "season": season.slug,
        "uid": str(Player.objects.get(pk=player.pk).person.uid),
        "invitation_id": create_invitation(tournament.host, role=Role.REFEREE, created_by=organiser)[0].pk,
        "file_id": ProducedFile.objects.create(
            tournament=tournament,
            kind=ProducedFile.Kind.SCORE_SHEETS,
            content_key="round 1",
            source_path="/print/test/round/1/score-sheets.pdf",
            status=ProducedFile.Status.DONE,
            content=b"%PDF-1.7 ",
            file_name="test-round-1-score-sheets.pdf",
            content_type="application/pdf",
        ).pk,
    }
    return {"tournament": tournament, "visitors": visitors, "params": params}


def url_for(name, parameters, world):
    values = {**world["params"], **EXPECTED[name].kwargs}
    if name.startswith("public:") or name.startswith("printing:public"):
        values["number"] = 1  # the public pages show the completed round
    return reverse(name, kwargs={p: values[p] for p in parameters})


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def expected_answer(expect, visitor, method):
    """The status (or LOGIN) this visitor should get."""
    wanted = expect.get if method == "get" else expect.post
    if wanted == 405 or expect.role is None and visitor not in expect.answers:
        return wanted
    if visitor in expect.answers:
        return expect.answers[visitor]
    if visitor == "anonymous":
        return LOGIN
    if expect.role == SIGNED_IN:
        return wanted
    if visitor in OUTSIDERS:
        return 404  # a tournament they hold nothing in is not theirs to know of
    return wanted if has_rank(visitor, expect.role) else 403


def has_rank(visitor, minimum):
    rank = {"referee": 1, "head_referee": 2, "organiser": 3}.get(visitor, 0)  # B's staff hold nothing for A
    return rank >= RANK[minimum]


def answer_of(response):
    if response.status_code == 302 and response["Location"].startswith(reverse("accounts:login") + "?next="):
        return LOGIN
    return response.status_code


def snapshot():
    return [export_tournament(t) for t in Tournament.objects.order_by("pk")], list(
        ScoreSheet.objects.order_by("pk").values_list("pk", "state", "version")
    )


REFUSED = (LOGIN, 403, 405)


def refused(response):
    return answer_of(response) in REFUSED


def ask(client, method, url, data, is_refusal=refused):
    """One request whose writes are rolled back afterwards, so each request sees the same data;
    with a refused POST, the data as the request left it (read before the rollback)."""
    with transaction.atomic():
        response = getattr(client, method)(url, data) if method == "post" else client.get(url)
        before_rollback = snapshot() if method == "post" and is_refusal(response) else None
        transaction.set_rollback(True)
    return response, before_rollback


# ---------------------------------------------------------------- the tests


def test_every_url_has_an_expected_answer():
    names = {name for name, _route, _params in ALL_URLS}
    assert names - EXPECTED.keys() == set(), "give each new URL its expected answer in EXPECTED"
    assert EXPECTED.keys() - names == set(), "EXPECTED lists URLs that no longer exist"
    assert len(ALL_URLS) == len(names), "two URL patterns share a name"


@pytest.mark.parametrize("visitor", ["anonymous", "referee", "head_referee", "organiser", "other_referee", "tablet_b"])
def test_permission_matrix(world, visitor):
    user = world["visitors"][visitor]
    wrong = []
    before = snapshot()  # every request's writes are rolled back: each starts from this data
    for name, _route, parameters in ALL_URLS:
        expect = EXPECTED[name]
        url = url_for(name, parameters, world)
        for method in ("get", "post"):
            wanted = expected_answer(expect, visitor, method)
            if wanted is None:
                continue
            response, written = ask(client_for(user), method, url, expect.data)
            got = answer_of(response)
            if got != wanted:
                wrong.append(f"{method.upper()} {url} ({name}): expected {wanted}, got {got}")
            if method == "post" and got in REFUSED and written != before:
                wrong.append(f"POST {url} ({name}) was refused but changed data")
    assert not wrong, "\n".join(wrong)


def test_a_referee_of_a_tournament_holds_no_role_in_another(world):
    """Sanity check of the visitors: the other tournament's referee can work on their own one."""
    client = client_for(world["visitors"]["other_referee"])
    assert client.get(reverse("scoring:home", kwargs={"slug": "other"})).status_code == 200
    tablet = client_for(world["visitors"]["tablet_b"])
    assert tablet.get(reverse("scoring:home", kwargs={"slug": "other"})).status_code == 200
    assert tablet.get(reverse("scoring:home", kwargs={"slug": "test"})).status_code == 404


# ---------------------------------------------------------------- CSRF

STATE_CHANGES = [
    ("scoring:game_save", "referee"),
    ("scoring:sheet_submit", "referee"),
    ("scoring:give_card", "referee"),
    ("scoring:withdraw_card", "head_referee"),
    ("scoring:sheet_verify", "head_referee"),
    ("scoring:ties", "head_referee"),
    ("public:results_control", "head_referee"),
    ("organiser:round_action", "organiser"),
    ("organiser:player_action", "organiser"),
    ("organiser:settings", "organiser"),
    ("accounts:device_links", "organiser"),
    ("accounts:venue", "organiser"),
    ("accounts:staff_members", "organiser"),
    ("accounts:logout", "referee"),
    ("organiser:backups", "organiser"),
    ("organiser:restore_new", "organiser"),
    ("organiser:restore_confirm", "organiser"),
]


@pytest.mark.parametrize("name,visitor", STATE_CHANGES)
def test_a_post_without_a_csrf_token_is_refused_and_changes_nothing(world, name, visitor):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["visitors"][visitor], backend="django.contrib.auth.backends.ModelBackend")
    parameters = next(params for n, _route, params in ALL_URLS if n == name)
    url = url_for(name, parameters, world)
    data = EXPECTED[name].data or {"A": "12", "reason": "x", "version": "0", "colour": "yellow"}
    before = snapshot()
    response = client.post(url, data)
    assert response.status_code == 403
    assert "accounts/csrf_failure.html" in [t.name for t in response.templates]  # the friendly page
    assert snapshot() == before
    assert "_auth_user_id" in client.session  # still signed in: nothing happened


def test_an_expired_session_posting_without_a_token_lands_on_the_sign_in_page(world):
    client = Client(enforce_csrf_checks=True)
    parameters = next(params for n, _route, params in ALL_URLS if n == "scoring:sheet_submit")
    response = client.post(url_for("scoring:sheet_submit", parameters, world), {"version": "0"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("accounts:login"))


# ---------------------------------------------------------------- the admin (issue 13)
#
# Only the service's operators (superusers) reach the admin; everyone else, organisers too, is
# sent to its sign-in page. There the operator reads everything, but nothing the standings depend on can be added, changed or
# deleted: those records are corrected on the audited pages above. Staff grants
# (TournamentRole), team memberships (Membership) and host organisations are the admin's own business.

ADMIN_LOGIN = "admin-login"
ADMIN_REQUESTS = {  # name: (method, URL action, needs an object)
    "list": ("get", "changelist", False),
    "view": ("get", "change", True),
    "change": ("post", "change", True),
    "add form": ("get", "add", False),
    "add": ("post", "add", False),
    "delete form": ("get", "delete", True),
    "delete": ("post", "delete", True),
}
READ_ONLY = {"list": 200, "view": 200, "change": 403, "add form": 403, "add": 403, "delete form": 403, "delete": 403}
# The operator removes a whole tournament (tests/tournament/test_admin.py); here its delete form only.
WHOLE = {**READ_ONLY, "delete form": 200, "delete": None}
ADMIN_EXPECTED = {
    "tournament.Tournament": WHOLE,
    "tournament.Organisation": READ_ONLY,
    "tournament.Player": READ_ONLY,
    "tournament.Round": READ_ONLY,
    "tournament.Table": READ_ONLY,
    "tournament.Seat": READ_ONLY,
    "scoring.ScoreSheet": READ_ONLY,
    "scoring.Game": READ_ONLY,
    "scoring.SeatResult": READ_ONLY,
    "scoring.Card": READ_ONLY,
    "scoring.TieDecision": READ_ONLY,
    "tournament.AuditEntry": READ_ONLY,
    # An empty form is refused with its errors (200); the delete removes the grant (302).
    "accounts.TournamentRole": {**dict.fromkeys(ADMIN_REQUESTS, 200), "delete": 302},
    # A team's membership, like a grant: the delete removes it (302).
    "accounts.Membership": {**dict.fromkeys(ADMIN_REQUESTS, 200), "delete": 302},
    # The operators add and rename host organisations (an empty form: its errors, 200); one that
    # owns tournaments is not deleted (the confirmation names what protects it, 200).
    "tournament.HostOrganisation": dict.fromkeys(ADMIN_REQUESTS, 200),
}


PROJECT_APPS = {"tournament", "scoring", "accounts"}


def admin_refused(response):
    return admin_answer_of(response) in (ADMIN_LOGIN, 403)


def admin_answer_of(response):
    if response.status_code == 302 and response["Location"].startswith(reverse("admin:login")):
        return ADMIN_LOGIN
    return response.status_code


def project_admin_models():
    from django.contrib import admin

    return {f"{m._meta.app_label}.{m.__name__}": m for m in admin.site._registry if m._meta.app_label in PROJECT_APPS}


def test_every_admin_model_has_its_expected_answers():
    assert set(project_admin_models()) == set(ADMIN_EXPECTED)


@pytest.mark.parametrize(
    "visitor", ["anonymous", "referee", "head_referee", "organiser", "other_referee", "tablet_b", "operator"]
)
def test_admin_permission_matrix(world, visitor):
    from scoring.models import Card, TieDecision
    from tournament.models import AuditEntry

    tournament = world["tournament"]
    AuditEntry.objects.create(tournament=tournament, action="verify", reason="checked")
    Card.objects.create(tournament=tournament, player=tournament.players.first(), colour="warning", reason="untidy")
    TieDecision.objects.create(tournament=tournament, order=["p1", "p2"], reason="lot")
    TournamentRole.objects.create(user=world["visitors"]["referee"], tournament=tournament, role=Role.REFEREE)
    operator = User.objects.create_superuser("operator", password="secret-pass-123")
    client = client_for(operator if visitor == "operator" else world["visitors"][visitor])
    wrong = []
    before = snapshot()  # every request's writes are rolled back: each starts from this data
    for label, model in project_admin_models().items():
        obj = model.objects.order_by("pk").first()
        for request, (method, action, needs_object) in ADMIN_REQUESTS.items():
            info = model._meta.app_label, model._meta.model_name, action
            url = reverse("admin:%s_%s_%s" % info, args=[obj.pk] if needs_object else [])
            wanted = ADMIN_EXPECTED[label][request] if visitor == "operator" else ADMIN_LOGIN
            if wanted is None:
                continue
            data = {"post": "yes"} if action == "delete" else {}
            response, written = ask(client, method, url, data, is_refusal=admin_refused)
            got = admin_answer_of(response)
            if got != wanted:
                wrong.append(f"{method.upper()} {url} ({label} {request}): expected {wanted}, got {got}")
            if method == "post" and got in (ADMIN_LOGIN, 403) and written != before:
                wrong.append(f"POST {url} ({label} {request}) was refused but changed data")
    assert not wrong, "\n".join(wrong)
