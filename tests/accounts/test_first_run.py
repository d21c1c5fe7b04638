"""A fresh install leads somewhere: the first organiser account with the setup code the server
printed, then the tournament's referees and head referees on a Staff page, without the admin."""

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts import first_run, services
from accounts.models import Role, SetupCodeTries, TournamentRole
from tests.factories import build
from tests.support.browser import assert_no_horizontal_scroll, screenshot
from tests.support.race import at_once
from tournament.models import AuditEntry
from tournament.refusals import Refused

PASSWORD = "long-enough-password-1"


@pytest.fixture
def var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    return tmp_path


def account(code, username="anna.nowak", password=PASSWORD, again=None):
    return {"code": code, "username": username, "password": password, "password_again": again or password}


@pytest.mark.django_db
def test_the_setup_code_is_kept_private_until_an_organiser_exists(var_dir):
    code = first_run.setup_code()
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    assert first_run.setup_code() == code and oct((var_dir / "setup-code").stat().st_mode)[-3:] == "600"
    User.objects.create_superuser("admin", password=PASSWORD)
    assert first_run.setup_code() is None and not (var_dir / "setup-code").exists()


@pytest.mark.django_db
def test_the_first_organiser_is_made_with_the_code_once(client, var_dir):
    code = first_run.setup_code()
    assert "Create the first organiser account" in client.get("/accounts/login/").content.decode()
    for typed in ("AAAA-BBBB-CCCC", "ŻÓŁW-١٢٣٤-ĄĘŚĆ"):
        wrong = client.post("/accounts/setup/", account(typed))
        assert "This is not the setup code" in wrong.content.decode() and not User.objects.exists()
    mismatched = client.post("/accounts/setup/", account(code, again="something-else-1"))
    assert "The two passwords differ." in mismatched.content.decode()
    done = client.post("/accounts/setup/", account(code.lower().replace("-", " ")))
    assert done.status_code == 302 and done["Location"] == "/staff/"
    user = User.objects.get(username="anna.nowak")
    assert user.memberships.get().role == Role.ORGANISER and user.memberships.get().host.tournaments.count() == 0
    assert client.get("/staff/").status_code == 200  # signed in, on the organiser's list
    assert client.post("/accounts/setup/", account(code, username="intruder")).status_code == 302
    assert not User.objects.filter(username="intruder").exists()


@pytest.mark.django_db
def test_wrong_codes_make_that_address_wait_and_never_drop_the_code(client, var_dir):
    code = first_run.setup_code()
    stranger = {"REMOTE_ADDR": "192.168.1.66"}
    for _ in range(first_run.MAX_TRIES):
        answer = client.post("/accounts/setup/", account("AAAA-BBBB-CCCC"), **stranger)
        assert "This is not the setup code" in answer.content.decode()
    blocked = client.post("/accounts/setup/", account(code), **stranger)  # even the right code waits there
    assert "Wait 15 min and try again." in blocked.content.decode() and not User.objects.exists()
    assert (var_dir / "setup-code").exists()  # the code was not dropped
    done = client.post("/accounts/setup/", account(code), REMOTE_ADDR="192.168.1.10")  # the organiser's laptop
    assert done.status_code == 302 and User.objects.filter(username="anna.nowak").exists()
    assert not SetupCodeTries.objects.exists()  # the counts go with the code


@pytest.mark.django_db
def test_an_address_may_try_again_after_the_wait(client, var_dir):
    code = first_run.setup_code()
    SetupCodeTries.objects.create(
        address="10.0.0.5",
        tries=first_run.MAX_TRIES,
        since=timezone.now() - first_run.WAIT + datetime.timedelta(minutes=4, seconds=10),
    )
    assert (
        "Wait 5 min and try again."
        in client.post("/accounts/setup/", account(code), REMOTE_ADDR="10.0.0.5").content.decode()
    )
    SetupCodeTries.objects.update(since=timezone.now() - first_run.WAIT)
    assert client.post("/accounts/setup/", account(code), REMOTE_ADDR="10.0.0.5").status_code == 302


@pytest.mark.django_db
def test_the_page_says_plainly_when_there_is_no_code_and_how_to_get_one(client, var_dir):
    assert not (var_dir / "setup-code").exists()  # never printed, or deleted
    page = client.get("/accounts/setup/").content.decode()
    assert "There is no setup code at the moment." in page and "make run" in page
    answer = client.post("/accounts/setup/", account("AAAA-BBBB-CCCC")).content.decode()
    assert "There is no setup code at the moment. Restart the server" in answer
    assert not SetupCodeTries.objects.exists()  # nothing to guess: no try counted
    code = first_run.setup_code()  # the restart
    assert "There is no setup code" not in client.get("/accounts/setup/").content.decode()
    assert client.post("/accounts/setup/", account(code)).status_code == 302


def tries_at_once(address, count):
    """`count` wrong codes from one address at the same moment, each in its own thread and connection."""

    def one(_):
        try:
            return services.create_first_organiser(
                code="AAAA-BBBB-CCCC", username="x", password=PASSWORD, address=address
            )
        except Refused as refusal:
            return refusal.code

    return at_once(one, count)


@pytest.mark.django_db(transaction=True)
def test_the_tries_are_counted_atomically_on_either_database(var_dir):
    """One wrong try, then 8 at once: 9 counted (the file's count read 8); 12 more at once: the
    address reaches its 10 and the other 11 wait."""
    first_run.setup_code()
    assert tries_at_once("10.0.0.7", 1) == ["setup_code_wrong"]
    assert tries_at_once("10.0.0.7", 8) == ["setup_code_wrong"] * 8
    assert SetupCodeTries.objects.get(address="10.0.0.7").tries == 9
    answers = tries_at_once("10.0.0.7", 12)
    assert sorted(answers) == ["setup_code_wrong"] + ["setup_wait"] * 11
    assert SetupCodeTries.objects.get(address="10.0.0.7").tries == first_run.MAX_TRIES


@pytest.mark.django_db
def test_the_organiser_adds_and_removes_a_referee_and_it_is_audited(organiser_client, organiser):
    tournament = build(4)
    form = {"username": "jan.kowalski", "role": Role.REFEREE.value, "password": PASSWORD, "password_again": PASSWORD}
    assert organiser_client.post("/accounts/staff/test/", form).status_code == 302
    grant = TournamentRole.objects.get(user__username="jan.kowalski", tournament=tournament)
    assert grant.role == Role.REFEREE and User.objects.get(username="jan.kowalski").check_password(PASSWORD)
    page = organiser_client.get("/accounts/staff/test/").content.decode()
    assert "jan.kowalski" in page
    organiser_client.post(f"/accounts/staff/test/{grant.pk}/remove/")
    organiser_client.post(f"/accounts/staff/test/{grant.pk}/remove/")  # a second tap changes nothing
    assert not TournamentRole.objects.filter(tournament=tournament).exists()
    actions = list(AuditEntry.objects.filter(tournament=tournament).order_by("pk").values_list("action", "user_name"))
    assert actions == [("staff_added", "organiser"), ("staff_removed", "organiser")]
    assert PASSWORD not in str(list(AuditEntry.objects.values_list("before", "after")))


@pytest.mark.django_db
def test_a_referee_cannot_add_staff(referee_client):
    build(4)
    assert referee_client.get("/accounts/staff/test/").status_code == 403


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_fresh_install_reaches_a_tournament_with_its_staff_without_admin_or_terminal(new_page, live_server, var_dir):
    code = first_run.setup_code()  # what `make run` printed
    page = new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Create the first organiser account").click()
    page.get_by_label("Setup code").fill(code)
    page.get_by_label("User name").fill("anna.nowak")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create the organiser account").click()
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Tournament name").fill("Senioriada Gdańsk")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/players/")
    slug = page.url.split("/staff/", 1)[1].split("/", 1)[0]
    page.goto(f"{live_server.url}/staff/{slug}/")
    page.get_by_role("link", name="Referees and head referees").click()
    for name, role in (("jan.kowalski", "referee"), ("maria.lis", "head referee")):
        page.get_by_label("User name").fill(name)
        page.get_by_label("Role").select_option(label=role)
        page.get_by_label("Password", exact=True).fill(PASSWORD)
        page.get_by_label("Password again").fill(PASSWORD)
        page.get_by_role("button", name="Add", exact=True).click()
        page.get_by_text(f"{name} can sign in now").wait_for()
    screenshot(page, "first-run-staff")
    referee = new_page()
    referee.goto(f"{live_server.url}/accounts/login/")
    referee.get_by_label("User name").fill("jan.kowalski")
    referee.get_by_label("Password").fill(PASSWORD)
    referee.get_by_role("button", name="Sign in").click()
    referee.goto(f"{live_server.url}/referee/{slug}/")
    assert referee.title and "403" not in referee.content()
    assert TournamentRole.objects.filter(tournament__slug=slug).count() == 2


@pytest.mark.django_db
def test_a_user_name_taken_between_the_check_and_the_save_is_refused_next_to_the_field(organiser, monkeypatch):
    """Two organisers adding the same new referee at once: the second gets the form's message."""

    tournament = build(4)
    real_filter = User.objects.filter
    monkeypatch.setattr(
        User.objects,
        "filter",
        lambda *a, **k: real_filter(pk=None) if "username__iexact" in k else real_filter(*a, **k),
    )
    User.objects.create_user("jan.kowalski")  # made by the other request after this one's check
    with pytest.raises(Refused) as refused:
        services.add_staff_member(
            tournament, username="jan.kowalski", role=Role.REFEREE, password=PASSWORD, added_by=organiser
        )
    assert (refused.value.code, refused.value.field) == ("staff_name_unavailable", "username")
    assert not TournamentRole.objects.filter(tournament=tournament).exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [{"width": 768, "height": 1024}, {"width": 390, "height": 844}])
def test_the_setup_page_without_a_code_on_a_tablet_and_a_phone(new_page, live_server, var_dir, viewport):
    page = new_page(viewport)
    page.goto(f"{live_server.url}/accounts/setup/")
    page.get_by_text("There is no setup code at the moment.").wait_for()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"setup-no-code-{viewport['width']}")


@pytest.mark.django_db
def test_a_hosted_service_has_no_setup_code_and_no_setup_page(var_dir, settings, client):
    """Several app servers would each keep their own code: the operator makes the organisers."""
    settings.HOSTED = True
    assert first_run.needs_setup() is False
    assert first_run.setup_code() is None and not (var_dir / "setup-code").exists()
    assert client.get("/accounts/setup/").status_code == 404
    assert client.post("/accounts/setup/", account("ABCD-EFGH-JKLM")).status_code == 404
    assert "/accounts/setup/" not in client.get("/accounts/login/").content.decode()
    assert "/accounts/setup/" not in client.get("/").content.decode()
    with pytest.raises(Refused):
        services.create_first_organiser(code="ABCD-EFGH-JKLM", username="x", password=PASSWORD, address="10.0.0.1")
    assert not User.objects.exists()

    settings.HOSTED = False  # the laptop, as before
    assert first_run.needs_setup() is True
    assert client.get("/accounts/setup/").status_code == 200
