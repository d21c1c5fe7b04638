"""The admin is no back door (issue 13, item 1): everything the standings depend on is read-only
there; corrections go through the audited pages it links to."""

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.urls import reverse

from organiser.interchange import export_tournament
from scoring.models import Card, Game, ScoreSheet, SeatResult, TieDecision
from tests.factories import build, out_game, table
from tournament.models import AuditEntry, Organisation, Player, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

RESULT_MODELS = [
    Tournament,
    Organisation,
    Player,
    Round,
    Table,
    Seat,
    ScoreSheet,
    Game,
    SeatResult,
    Card,
    TieDecision,
    AuditEntry,
]


@pytest.fixture
def tournament():
    games = [out_game(1, "A", B=(23, 0), C=(10, 1), D=(5, 0))]
    data_rounds = [{"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"], games)]}]
    tournament = build(
        4,
        rounds=data_rounds,
        cards=[{"player": "p2", "round": 1, "colour": "warning", "reason": "untidy"}],
        tie_decisions=[{"order": ["p3", "p4"], "reason": "lot"}],
    )
    AuditEntry.objects.create(tournament=tournament, action="verify", reason="checked")
    return tournament


@pytest.fixture
def superuser_client(client):
    client.force_login(User.objects.create_superuser("root", password="secret-pass-123"))
    return client


def state():
    return (
        [export_tournament(t) for t in Tournament.objects.order_by("pk")],
        list(ScoreSheet.objects.values_list("pk", "state", "version")),
        list(SeatResult.objects.order_by("pk").values_list("score", "override_score", "is_winner")),
        list(AuditEntry.objects.order_by("pk").values_list("pk", "action", "reason")),
    )


def admin_url(model, action, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{action}", args=args)


def test_every_model_the_standings_depend_on_is_registered_read_only():
    for model in RESULT_MODELS:
        model_admin = admin.site._registry[model]
        assert model_admin.change_form_template == "admin/read_only_change_form.html", model
        for inline in model_admin.inlines:
            assert inline.has_add_permission(inline, None, None) is False, inline


def test_a_superuser_cannot_set_a_verified_score_to_minus_999(superuser_client, tournament):
    result = SeatResult.objects.get(letter="B")
    sheet = ScoreSheet.objects.get()
    before = state()
    url = admin_url(SeatResult, "change", result.pk)
    page = superuser_client.get(url)
    assert page.status_code == 200
    assert 'name="score"' not in page.content.decode()  # shown, not editable
    response = superuser_client.post(
        url,
        {
            "game": result.game_id,
            "letter": "B",
            "tiles": "23",
            "jokers": "0",
            "opening": "opened",
            "score": "-999",
            "_save": "Save",
        },
    )
    assert response.status_code == 403
    assert state() == before
    assert SeatResult.objects.get(pk=result.pk).score == -23
    assert ScoreSheet.objects.get(pk=sheet.pk).version == sheet.version
    assert sum(SeatResult.objects.values_list("score", flat=True)) == 0  # still zero-sum


@pytest.mark.parametrize("model", RESULT_MODELS, ids=lambda m: m.__name__)
def test_no_post_to_the_admin_changes_anything(superuser_client, tournament, model):
    obj = model.objects.order_by("pk").first()
    before = state()
    answers = {
        "change": superuser_client.post(
            admin_url(model, "change", obj.pk), {"name": "x", "status": "withdrawn", "_save": "1"}
        ),
        "add": superuser_client.post(admin_url(model, "add"), {"name": "x", "_save": "1"}),
    }
    if model is not Tournament:  # a superuser may delete a whole tournament (see below)
        answers["delete"] = superuser_client.post(admin_url(model, "delete", obj.pk), {"post": "yes"})
        bulk = {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"}
        assert superuser_client.post(admin_url(model, "changelist"), bulk).status_code == 200  # no such action
    assert {action: response.status_code for action, response in answers.items()} == dict.fromkeys(answers, 403)
    assert state() == before


def test_each_change_page_says_where_corrections_are_made(admin_client, tournament):
    result = SeatResult.objects.get(letter="B")
    html = admin_client.get(admin_url(SeatResult, "change", result.pk)).content.decode()
    assert "read-only here" in html
    assert 'href="/referee/test/round/1/table/1/"' in html
    player = Player.objects.get(ext_id="p2")
    assert (
        f'href="/staff/test/players/{player.pk}/"'
        in admin_client.get(admin_url(Player, "change", player.pk)).content.decode()
    )


def test_only_a_superuser_deletes_a_whole_tournament(client, organiser, tournament):
    client.force_login(organiser)
    url = admin_url(Tournament, "delete", tournament.pk)
    assert client.post(url, {"post": "yes"})["Location"].startswith(reverse("admin:login"))
    assert Tournament.objects.exists()
    client.force_login(User.objects.create_superuser("root", password="secret-pass-123"))
    assert client.post(url, {"post": "yes"}).status_code == 302
    assert not Tournament.objects.exists() and not Player.objects.exists() and not AuditEntry.objects.exists()
