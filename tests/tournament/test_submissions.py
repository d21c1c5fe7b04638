"""Every staff form is safe to send twice (tournament/submissions.py): the one-time token each
POST form carries, the second arrival that changes nothing and shows the first one's result, and
the templates' forms that all carry it (but the few listed with their reason).

Concurrent arrivals on a real server, on SQLite and PostgreSQL: tests/system/test_double_submit.py.
"""

import datetime
import gzip
import io
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.messages import get_messages
from django.template import Context, Template
from django.test import Client, RequestFactory
from django.utils import timezone

from accounts.services import make_member
from organiser import services
from organiser.backups import files
from organiser.interchange import dumps, export_tournament
from scoring.models import Card
from tests.factories import build, checked_in, settings_data
from tests.support.tasks import run_queued_tasks
from tournament import submissions
from tournament.models import AuditEntry, Player, Round, SubmissionToken, Tournament

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
FORM = re.compile(r"<form\b(?P<tag>[^>]*)>(?P<body>.*?)</form>", re.S | re.I)
POSTS = re.compile(r"""method=["']?(post|\{\{)""", re.I)
TOKEN = re.compile(r'name="submission" value="([^"]+)"')
DONE = "This form had already been sent: it was done once. Here is the result."
NOT_AGAIN = "This form had already been sent and was not done again. Here is the page as it is now."
NOT_YOURS = (
    "This form was opened by another signed-in person and was not sent. Here is the page: fill the form in again."
)

# POST forms without a submission token, each with its reason.
WITHOUT_TOKEN = {
    ("base.html", "lang-switch"): "the language switch sets a cookie: sending it twice is the same",
    ("base.html", "logout"): "signing out twice is signing out",
    ("accounts/login.html", "narrow"): "a sign-in: the second one's answer could not carry the first one's session",
    ("accounts/setup.html", "narrow"): "a sign-in (the first organiser), once only by itself (the setup code)",
    ("accounts/device_confirm.html", 'method="post"'): "a tablet's sign-in: the link works once by itself",
    ("accounts/invitation.html", 'method="post"'): "an invitation's acceptance: the link works once by itself "
    "(a compare-and-swap), the new account is a sign-in",
    ("accounts/set_password.html", "narrow"): "the password-setting link works once by itself (Django's token)",
    ("scoring/sheet_games.html", "game-form"): "a game save is guarded by the sheet's version (compare-and-swap)",
    ("organiser/_backup_upload.html", "restore-form"): "an upload shows a preview and changes nothing; "
    "its view reads the body after checking its size",
    ("organiser/backups.html", "snapshot_restore"): "shows a snapshot's preview and changes nothing",
    ("public/entry_form.html", "entry-form"): "a visitor's entry (no one is signed in): the form's own key makes "
    "a double tap one entry (organiser/services/entries.py)",
    (
        "public/entry_confirm.html",
        'method="post"',
    ): "a visitor confirms an entry by its link: the entry is locked and its state checked, so once",
    (
        "public/entry_detail.html",
        'method="post"',
    ): "a visitor withdraws an entry by its link: the entry is locked and its state checked, so once",
}


def post_forms():
    """(template, opening tag, body) of every form of the templates that may post."""
    for path in sorted(TEMPLATES.rglob("*.html")):
        name = path.relative_to(TEMPLATES).as_posix()
        for match in FORM.finditer(path.read_text(encoding="utf-8")):
            if POSTS.search(match["tag"]):
                yield name, match["tag"], match["body"]


def exception_for(name, tag):
    return next((key for key in WITHOUT_TOKEN if key[0] == name and key[1] in tag), None)


def test_every_post_form_carries_a_submission_token_or_is_listed_with_its_reason():
    found = list(post_forms())
    assert len(found) > 40
    missing = [
        f"{name}: <form{tag[:80]}…>"
        for name, tag, body in found
        if "{% submission_token %}" not in body and exception_for(name, tag) is None
    ]
    assert not missing, (
        "add {% submission_token %} beside {% csrf_token %}, or list the form with a reason:\n" + "\n".join(missing)
    )
    used = {exception_for(name, tag) for name, tag, body in found if "{% submission_token %}" not in body}
    assert set(WITHOUT_TOKEN) - used == set(), "an exception that no longer has its form"
    assert all("{% csrf_token %}" in body for _name, _tag, body in found)


def test_the_tag_makes_a_new_token_each_time_for_a_signed_in_user_only(organiser):
    template = Template("{% submission_token %}|{% submission_token %}")
    request = RequestFactory().get("/")
    request.user = organiser
    first, second = (TOKEN.search(part).group(1) for part in template.render(Context({"request": request})).split("|"))
    assert first != second and submissions.TOKEN_RE.fullmatch(first) and submissions.issued_to(first, organiser)
    request.user = AnonymousUser()
    assert template.render(Context({"request": request})) == "|"
    assert Template("{% submission_token %}").render(Context({})) == ""


def token_for(html, action):
    """The submission token of the page's form posting to `action`."""
    for match in FORM.finditer(html):
        if f'action="{action}"' in match["tag"]:
            return TOKEN.search(match["body"]).group(1)
    raise AssertionError(f"no form posting to {action}")


def messages_of(response):
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_a_card_sent_twice_is_given_once_and_the_second_answer_shows_the_first_result(referee_client):
    tournament = build(4)
    player = Player.objects.get(tournament=tournament, ext_id="p1")
    page = referee_client.get(f"/referee/test/player/{player.pk}/").content.decode()
    action = f"/referee/test/player/{player.pk}/card/"
    data = {"colour": "yellow", "reason": "talking", "submission": token_for(page, action)}
    first = referee_client.post(action, data)
    second = referee_client.post(action, data)
    assert first.status_code == second.status_code == 302
    assert second["Location"] == first["Location"] == f"/referee/test/player/{player.pk}/"
    assert DONE in messages_of(second)
    assert Card.objects.filter(player=player).count() == 1
    player.refresh_from_db()
    assert player.status == Player.Status.ACTIVE  # one yellow card, not two: not disqualified
    assert SubmissionToken.objects.get().location == first["Location"]
    again = referee_client.get(f"/referee/test/player/{player.pk}/").content.decode()
    assert token_for(again, action) != data["submission"]  # the page renders a new token
    referee_client.post(
        action, {**data, "submission": token_for(again, action), "confirm": "yellow"}
    )  # a second yellow is confirmed
    assert Card.objects.filter(player=player).count() == 2  # a second card, given on purpose


def test_creating_a_tournament_sent_twice_creates_one(organiser_client):
    page = organiser_client.get("/staff/new/").content.decode()
    data = settings_data(submission=TOKEN.search(page).group(1))
    first = organiser_client.post("/staff/new/", data)
    second = organiser_client.post("/staff/new/", data, headers={"HX-Request": "true"})
    assert first.status_code == 302 and first["Location"] == "/staff/senioriada-lodz/players/"
    assert second.status_code == 200 and second["HX-Redirect"] == first["Location"]  # htmx: a client-side redirect
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["senioriada-lodz"]


def test_a_check_in_sent_twice_checks_in_once(organiser_client, monkeypatch):
    tournament = build(4)
    player = Player.objects.get(tournament=tournament, ext_id="p2")
    calls = []
    set_present = services.set_present
    monkeypatch.setattr(services, "set_present", lambda *a, **k: calls.append(1) or set_present(*a, **k))
    page = organiser_client.get("/staff/test/players/").content.decode()
    action = f"/staff/test/players/{player.pk}/check-in/"
    data = {"row": "1", "submission": token_for(page, action)}
    htmx = {"HX-Request": "true", "HX-Current-URL": "http://testserver/staff/test/players/"}
    first = organiser_client.post(action, data, headers=htmx)
    second = organiser_client.post(action, data, headers=htmx)
    assert first.status_code == 200 and f'id="player-{player.pk}"' in first.content.decode()  # the row
    assert second["HX-Redirect"] == "/staff/test/players/"  # the first answer was no redirect: the page again
    assert messages_of(second) == [NOT_AGAIN]
    assert len(calls) == 1
    assert Player.objects.get(pk=player.pk).present


def test_a_draw_and_a_publish_sent_twice_each_happen_once(organiser_client):
    checked_in(8)
    page = organiser_client.get("/staff/test/draw/").content.decode()
    data = {"method": "random", "seed": "7", "submission": TOKEN.search(page).group(1)}
    first = organiser_client.post("/staff/test/draw/", data)
    second = organiser_client.post("/staff/test/draw/", data)
    assert first["Location"] == second["Location"] == "/staff/test/rounds/1/"
    assert Round.objects.count() == 1 and DONE in messages_of(second)

    page = organiser_client.get("/staff/test/rounds/1/").content.decode()
    action = "/staff/test/rounds/1/publish/"
    data = {"submission": token_for(page, action)}
    first = organiser_client.post(action, data)
    second = organiser_client.post(action, data)
    assert first["Location"] == second["Location"] == "/staff/test/rounds/1/"
    assert DONE in messages_of(second) and not any("cannot be published" in m for m in messages_of(second))
    assert Round.objects.get().state == Round.State.PUBLISHED
    assert AuditEntry.objects.filter(action="round_publish").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_restore_confirmed_twice_restores_once_and_saves_one_snapshot_before_it(organiser_client, settings, tmp_path):
    settings.BACKUP_DIR, settings.BACKUP_SNAPSHOTS = tmp_path, "on"
    old = build(4)
    upload = io.BytesIO(gzip.compress(dumps(export_tournament(old)).encode()))
    upload.name = "backup.json.gz"
    preview = organiser_client.post("/staff/test/backups/", {"file": upload}).content.decode()
    data = {
        "token": preview.split('name="token" value="')[1].split('"')[0],
        "replace": "on",
        "submission": token_for(preview, "/staff/new/restore/confirm/"),
    }
    first = organiser_client.post("/staff/new/restore/confirm/", data)
    second = organiser_client.post("/staff/new/restore/confirm/", data)
    assert first["Location"] == second["Location"] == f"/staff/new/restore/{data['token']}/"
    assert DONE in messages_of(second)  # not "the upload has expired"
    run_queued_tasks()
    assert AuditEntry.objects.filter(action="restore").count() == 1
    restored = Tournament.objects.get(slug="test")
    assert [s.trigger for s in files.snapshots(restored)].count("before-restore") == 1


def test_a_form_with_errors_gives_its_token_back_and_the_corrected_form_is_done_once(organiser_client):
    page = organiser_client.get("/staff/new/").content.decode()
    token = TOKEN.search(page).group(1)
    refused = organiser_client.post("/staff/new/", settings_data(rounds_planned="0", submission=token))
    assert refused.status_code == 200 and "rounds_planned" in refused.context["form"].errors
    assert not SubmissionToken.objects.exists()  # nothing was done: the token is usable again
    assert TOKEN.search(refused.content.decode()).group(1) != token  # the page gives a new one too
    corrected = organiser_client.post("/staff/new/", settings_data(submission=token))
    assert corrected.status_code == 302 and DONE not in messages_of(corrected)
    again = organiser_client.post("/staff/new/", settings_data(submission=token))
    assert again["Location"] == corrected["Location"] and DONE in messages_of(again)
    assert Tournament.objects.count() == 1


def test_a_failed_answer_keeps_nothing_and_the_same_token_runs_again(organiser_client, organiser, monkeypatch):
    draft = Round.objects.create(tournament=build(4), number=1)

    def fail(*args, **kwargs):
        raise RuntimeError("the server failed after the change")

    monkeypatch.setattr("organiser.services.rounds.log_change", fail)  # after the round's state moved
    data = {"submission": submissions.new_token(organiser)}
    with pytest.raises(RuntimeError):
        organiser_client.post("/staff/test/rounds/1/publish/", data)
    assert not SubmissionToken.objects.exists()  # the change and the token are rolled back together
    assert Round.objects.get(pk=draft.pk).state == Round.State.DRAFT
    monkeypatch.undo()
    answer = organiser_client.post("/staff/test/rounds/1/publish/", data)  # a retry of the same form
    assert answer["Location"] == "/staff/test/rounds/1/" and DONE not in messages_of(answer)
    assert Round.objects.get(pk=draft.pk).state == Round.State.PUBLISHED


def test_another_users_token_neither_runs_nor_uses_up_the_owners_form(organiser_client, organiser):
    build(4)
    token = submissions.new_token(organiser)  # rendered for the organiser; the tablet is then signed in as another
    co_organiser = User.objects.create_user("ewa.co")
    make_member(co_organiser, "organiser")
    other = Client()
    other.force_login(co_organiser)
    answer = other.post(
        "/staff/test/players/check-in-everyone/",
        {"submission": token},
        HTTP_REFERER="http://testserver/staff/test/players/",
    )
    assert answer.status_code == 302 and answer["Location"] == "/staff/test/players/"
    assert messages_of(answer) == [NOT_YOURS]
    assert not Player.objects.filter(present=True).exists() and not SubmissionToken.objects.exists()
    own = organiser_client.post("/staff/test/players/check-in-everyone/", {"submission": token})
    assert own.status_code == 302 and DONE not in messages_of(own) and NOT_YOURS not in messages_of(own)
    assert not Player.objects.filter(present=False).exists()
    assert SubmissionToken.objects.get().user == organiser


def test_a_token_is_issued_to_one_user(organiser, head_referee):
    token = submissions.new_token(organiser)
    assert len(token) == 54 and submissions.TOKEN_RE.fullmatch(token)
    assert submissions.issued_to(token, organiser) and not submissions.issued_to(token, head_referee)
    assert not submissions.issued_to(token[:-1] + ("A" if token[-1] != "A" else "B"), organiser)
    assert not submissions.issued_to("a" * 32, organiser)


def test_a_referer_that_is_no_address_sends_the_second_arrival_home(organiser_client, organiser):
    build(4)
    data = {"submission": submissions.new_token(organiser)}
    SubmissionToken.objects.create(token=data["submission"], user=organiser)  # its first answer was no redirect
    for referer in ("http://[x", "http://[::1", "\x00", "ftp://[", "http://testserver:notaport/x"):
        second = organiser_client.post("/staff/test/players/check-in-everyone/", data, HTTP_REFERER=referer)
        assert second.status_code == 302 and second["Location"] == "/accounts/"  # the staff home
    for current in ("http://[x", "http://testserver:99999999/"):
        second = organiser_client.post(
            "/staff/test/players/check-in-everyone/", data, headers={"HX-Request": "true", "HX-Current-URL": current}
        )
        assert second.status_code == 200 and second["HX-Redirect"].startswith("/")


def test_a_token_with_a_final_newline_is_no_token(organiser_client, organiser):
    build(4)
    for value in ("a" * 64 + "\n", submissions.new_token(organiser) + "\n", "a" * 20 + "\n"):
        answer = organiser_client.post("/staff/test/players/check-in-everyone/", {"submission": value})
        assert answer.status_code == 302
    assert not SubmissionToken.objects.exists()


def test_without_a_valid_token_or_signed_out_a_post_runs_as_before(organiser_client, client):
    build(4)
    for value in ("", "short", "x" * 65, "bad token with spaces!!", "\x00" * 30):
        organiser_client.post("/staff/test/players/check-in-everyone/", {"submission": value})
    assert not SubmissionToken.objects.exists()
    client.logout()
    assert client.post("/staff/new/", {"submission": "c" * 32})["Location"].startswith("/accounts/login/")
    assert not SubmissionToken.objects.exists()


def test_tokens_older_than_a_day_are_pruned(organiser):
    SubmissionToken.objects.create(token="d" * 32, user=organiser)
    SubmissionToken.objects.create(token="e" * 32, user=organiser)
    SubmissionToken.objects.filter(token="d" * 32).update(
        created_at=timezone.now() - datetime.timedelta(days=1, minutes=1)
    )
    assert submissions.prune() == 1
    assert list(SubmissionToken.objects.values_list("token", flat=True)) == ["e" * 32]
