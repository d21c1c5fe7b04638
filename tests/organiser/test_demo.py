"""The demo that `make run` loads, and the admin the operators use."""

from io import StringIO

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

from organiser.demo import DEMO_SLUG
from scoring.selectors.standings import compute_standings
from tournament.models import Round, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    out = StringIO()
    call_command("load_demo", "--if-empty", stdout=out)
    return Tournament.objects.get(slug=DEMO_SLUG), out.getvalue()


def test_demo_has_42_players_and_two_verified_rounds(demo):
    tournament, output = demo
    assert tournament.players.count() == 42
    rounds = list(Round.objects.filter(tournament=tournament))
    assert [(r.number, r.state) for r in rounds] == [(1, "completed"), (2, "completed")]
    # 42 players: nine 4-tables and two 3-tables per round.
    sizes = sorted(t.seats.count() for t in rounds[0].tables.all())
    assert sizes == [3, 3] + [4] * 9
    assert Seat.objects.filter(round__tournament=tournament).count() == 84
    rows = compute_standings(tournament)
    assert sum(r.total.small_points for r in rows) == 0  # every game is zero-sum
    assert rows[0].total.big_points > 0
    for username in ("organizator", "sedzia-glowny", "sedzia"):
        assert username in output


def test_demo_is_not_loaded_twice_and_prints_the_same_logins(demo, settings):
    _, first = demo
    again = StringIO()
    call_command("load_demo", "--if-empty", stdout=again)
    assert Tournament.objects.count() == 1
    assert again.getvalue().split("Demo logins", 1)[1] == first.split("Demo logins", 1)[1]


def test_demo_loads_with_production_settings_as_make_run_starts_it(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    settings.DEBUG = False
    settings.TESTING = False
    out = StringIO()
    call_command("load_demo", "--if-empty", stdout=out)
    assert Tournament.objects.count() == 1 and "organizator" in out.getvalue()


def test_demo_logins_work(demo, client):
    _, output = demo
    line = next(line for line in output.splitlines() if "organizator" in line)
    password = line.split()[-1]
    assert client.login(username="organizator", password=password)
    assert client.get("/staff/").status_code == 200
    assert client.get("/admin/").status_code == 302  # the admin is the operators', not an organiser's


def test_every_model_has_an_admin_list_and_form(demo, admin_client):
    for model in admin.site._registry:
        if model._meta.app_label not in {"tournament", "scoring", "accounts"}:
            continue
        info = model._meta.app_label, model._meta.model_name
        changelist = admin_client.get(reverse("admin:%s_%s_changelist" % info), {"q": "Żak"})
        assert changelist.status_code == 200, info
        first = model.objects.first()
        if first is not None:
            assert admin_client.get(reverse("admin:%s_%s_change" % info, args=[first.pk])).status_code == 200, info
