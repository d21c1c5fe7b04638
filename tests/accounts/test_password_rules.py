"""Every form that sets a password uses Django's password rules, with Polish common passwords
added: "haslo123" is refused with a Polish message next to the field and nothing is made or
changed (issue 48, point 6)."""

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import expect

from accounts import first_run
from accounts.models import Invitation, Membership, Role
from accounts.services import set_password_path
from config.password_rules import PolishCommonPasswordValidator, polish_passwords
from tests.factories import build
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot

pytestmark = pytest.mark.django_db

POLISH = {"HTTP_ACCEPT_LANGUAGE": "pl"}
TOO_COMMON = "To hasło jest zbyt powszechne."
LINK = re.compile(r"/accounts/invitation/([\w-]+)/")


def twice(password, **fields):
    return {"password": password, "password_again": password, **fields}


def test_the_polish_list_adds_polish_favourites_with_and_without_diacritics_to_djangos():
    validator = PolishCommonPasswordValidator()
    assert {"haslo123", "hasło123", "kochanie1", "zaq12wsx", "polska2026"} <= polish_passwords()
    assert {"haslo123", "password"} <= validator.passwords  # ours and Django's own
    assert "long-enough-password-1" not in validator.passwords


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("haslo123", TOO_COMMON),
        ("Hasło2026", TOO_COMMON),  # compared in lower case
        ("48213957", "Hasło składa się wyłącznie z cyfr."),
        ("kowalski.jan1", "Hasło jest zbyt podobne do nazwa użytkownika."),  # Django's own Polish
        ("krotkie", "To hasło jest za krótkie. Musi zawierać co najmniej 8 znaków."),
    ],
)
def test_the_staff_form_refuses_a_weak_password_in_polish_and_makes_no_account(organiser_client, password, message):
    build(4)
    answer = organiser_client.post(
        "/accounts/staff/test/", twice(password, username="jan.kowalski", role=Role.REFEREE.value), **POLISH
    )
    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not User.objects.filter(username="jan.kowalski").exists()


def test_the_first_organisers_form_refuses_haslo123(client, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    code = first_run.setup_code()
    answer = client.post("/accounts/setup/", twice("haslo123", code=code, username="anna.nowak"), **POLISH)
    assert answer.status_code == 200 and TOO_COMMON in answer.content.decode()
    assert not User.objects.filter(username="anna.nowak").exists()


def test_an_invitations_form_refuses_haslo123(organiser_client, organiser, client):
    host = Membership.objects.get(user=organiser).host
    organiser_client.post(f"/accounts/team/{host.slug}/invite/", {"role": Role.REFEREE, "tournament": build(4).pk})
    token = LINK.search(organiser_client.get(f"/accounts/team/{host.slug}/").content.decode())[1]
    organiser_client.logout()
    answer = client.post(f"/accounts/invitation/{token}/", twice("haslo123", username="jan.nowy"), **POLISH)
    assert answer.status_code == 200 and TOO_COMMON in answer.content.decode()
    assert not User.objects.filter(username="jan.nowy").exists()
    assert Invitation.objects.get().accepted_at is None


def test_the_set_password_link_refuses_haslo123_and_keeps_the_link(client):
    anna = User.objects.create_user("anna.utw")
    anna.set_unusable_password()
    anna.save()
    path = set_password_path(anna)
    form = client.get(path, follow=True, **POLISH)
    answer = client.post(
        form.redirect_chain[-1][0], {"new_password1": "haslo123", "new_password2": "haslo123"}, **POLISH
    )
    assert answer.status_code == 200 and TOO_COMMON in answer.content.decode()
    anna.refresh_from_db()
    assert not anna.has_usable_password()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["390", "768"])
def test_a_person_sees_why_haslo123_is_refused_next_to_the_field(live_server, new_page, client, organiser, viewport):
    build(4)
    client.force_login(organiser)
    page = new_page(viewport, locale="pl-PL")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    page.goto(f"{live_server.url}/accounts/staff/test/")
    page.fill("input[name=username]", "jan.kowalski")
    page.fill("input[name=password]", "haslo123")
    page.fill("input[name=password_again]", "haslo123")
    page.locator("form.narrow button[type=submit]").click()
    error = page.locator("#id_password").locator("xpath=..").get_by_text(TOO_COMMON)
    expect(error).to_be_visible()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"password-too-common-{viewport['width']}")
    assert not User.objects.filter(username="jan.kowalski").exists()
