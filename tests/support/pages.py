"""The pages of the site for every role: the URL patterns with their arguments filled from the
demo tournament (`world`), and a client signed in as each role. Shared by the system tests that
open every page (every page, staff navigation, tap targets)."""

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import Membership, TournamentRole
from accounts.services import create_device_link
from accounts.team import create_invitation
from organiser import services
from organiser.demo import DEMO_SLUG
from tests.support.urls import pattern_defaults, url_patterns
from tournament.models import Person, Player, ProducedFile, Season, Tournament

# Patterns left out, each with its reason.
EXCLUDED = {
    "admin": "Django's admin: tests/organiser/test_demo.py and tests/tournament/test_admin.py open every admin page",
    "accounts/venue-check/": "no page: the server's answer to its own nonce, in plain text (tests/accounts/test_venue_check.py)",
}

# URL arguments by name; a callable gets the demo world (see `world`).
ARGUMENTS = {
    "slug": lambda w: DEMO_SLUG,
    "number": lambda w: 1,
    "round_number": lambda w: 1,
    "table_number": lambda w: 1,
    "game_number": lambda w: 1,
    "pk": lambda w: w["player"].pk,
    "player_id": lambda w: w["player"].pk,
    "person_id": lambda w: w["player"].person_id,
    "ext_id": lambda w: w["player"].ext_id,
    "link_id": lambda w: w["link"].pk,
    "grant_id": lambda w: w["grant"].pk,
    "token": lambda w: w["token"],
    "name": lambda w: "standings.csv",  # a results file (organiser/export_files.py)
    "host": lambda w: w["tournament"].host.slug,
    "season": lambda w: w["season"].slug,  # a season of the demo tournament
    "file": lambda w: "season.csv",  # a season's file (organiser/exports/seasons.py)
    "uid": lambda w: w["person"].uid,
    "membership_id": lambda w: w["membership"].pk,
    "invitation_id": lambda w: w["invitation"].pk,
    "invitation_token": lambda w: w["invitation_token"],
    "file_id": lambda w: w["file"].pk,  # a round's score sheets being made (organiser/views/files.py)
    "uidb64": lambda w: urlsafe_base64_encode(
        force_bytes(w["membership"].user_id)
    ),  # with the tablet's token: a spent link
}
# Arguments that depend on the page: an action of the player or the round.
ACTIONS = {"organiser:player_action": "check-in", "organiser:round_action": "publish"}

ROLES = {"public": None, "referee": "sedzia", "head referee": "sedzia-glowny", "organiser": "organizator"}


def excluded(route):
    return next((reason for prefix, reason in EXCLUDED.items() if route.startswith(prefix)), None)


def pages(world):
    """(route, url) of every page not excluded; fails on a pattern it cannot fill."""
    found, unknown = [], []
    for route, name, arguments, _pattern in url_patterns():
        if excluded(route):
            continue
        missing = arguments - set(ARGUMENTS) - ({"action"} if name in ACTIONS else set())
        if name is None or missing:
            unknown.append(f"{route} ({name}): no value for {sorted(missing) or 'a pattern without a name'}")
            continue
        kwargs = {argument: ARGUMENTS[argument](world) for argument in arguments if argument in ARGUMENTS}
        if "action" in arguments:
            kwargs["action"] = ACTIONS[name]
        for extra in pattern_defaults(_pattern):
            kwargs.pop(extra, None)
        found.append((route, reverse(name, kwargs=kwargs)))
    assert not unknown, (
        "add these URL arguments to ARGUMENTS, or the patterns to EXCLUDED with a reason:\n" + "\n".join(unknown)
    )
    return found


@pytest.fixture
def world(settings, tmp_path):
    """The demo (rounds 1 and 2 completed) with round 3 drawn but not published, a tablet link,
    round 1's score sheets being made."""
    settings.VAR_DIR = tmp_path
    settings.LANGUAGE_CODE = "pl"
    call_command("load_demo", "--if-empty", stdout=open("/dev/null", "w"))
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    organiser = User.objects.get(username="organizator")
    services.draw_round(tournament, user=organiser)
    link, token = create_device_link(tournament, label="Tablet 1", created_by=organiser)
    grant = TournamentRole.objects.create(
        user=User.objects.get(username="sedzia"), tournament=tournament, role="referee"
    )
    invitation, invitation_token = create_invitation(tournament.host, role="referee", created_by=organiser)
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    if player.person is None:
        player.person = Person.objects.create(
            host=tournament.host, surname=player.surname, given_names=player.given_names
        )
        player.save(update_fields=["person"])
    season = Season.objects.create(host=tournament.host, name="Sezon", slug="sezon-demo")
    season.tournaments.add(tournament)
    being_made = ProducedFile.objects.create(
        tournament=tournament,
        kind=ProducedFile.Kind.SCORE_SHEETS,
        content_key="score sheets of round 1",
        source_path=reverse("printing:score_sheets", args=[DEMO_SLUG, 1]),
        status=ProducedFile.Status.RUNNING,
        done=3,
        total=8,
        file_name=f"{DEMO_SLUG}-round-1-score-sheets.pdf",
        content_type="application/pdf",
    )
    return {
        "tournament": tournament,
        "player": player,
        "person": player.person,
        "season": season,
        "link": link,
        "token": token,
        "grant": grant,
        "invitation": invitation,
        "invitation_token": invitation_token,
        "membership": Membership.objects.get(user__username="sedzia"),
        "file": being_made,
    }


def client_for(role):
    client = Client(HTTP_ACCEPT_LANGUAGE="pl")
    client.cookies["django_language"] = "pl"
    if ROLES[role]:
        client.force_login(User.objects.get(username=ROLES[role]))
    return client
