"""Sign-in throttling: wrong passwords lock one username from one IP address for a cool-off,
never a whole venue (every tablet there shares one IP) and never a tablet's device link."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.services import create_device_link
from tests.factories import build

pytestmark = pytest.mark.django_db

VENUE_IP = "192.0.2.10"
LIMIT = 5
PASSWORD = "secret-pass-123"


@pytest.fixture
def staff(db):
    return {name: User.objects.create_user(username=name, password=PASSWORD) for name in ("anna", "bartek")}


def sign_in(username, password, ip=VENUE_IP, client=None):
    client = client or Client(REMOTE_ADDR=ip)
    response = client.post(reverse("accounts:login"), {"username": username, "password": password})
    return client, response


def signed_in(response):
    return response.status_code == 302 and response["Location"] == reverse("accounts:home")


def lock(username, ip=VENUE_IP):
    for _attempt in range(LIMIT - 1):
        _client, response = sign_in(username, "wrong", ip)
        assert response.status_code == 200  # the form again, with its error
    _client, response = sign_in(username, "wrong", ip)
    assert response.status_code == 429  # the fifth wrong password locks


def test_the_right_password_signs_in(staff):
    assert signed_in(sign_in("anna", PASSWORD)[1])


def test_four_wrong_passwords_do_not_lock_and_a_success_starts_the_count_again(staff):
    for _attempt in range(LIMIT - 1):
        sign_in("anna", "wrong")
    assert signed_in(sign_in("anna", PASSWORD)[1])
    for _attempt in range(LIMIT - 1):
        sign_in("anna", "wrong")
    assert signed_in(sign_in("anna", PASSWORD)[1])


def test_five_wrong_passwords_lock_that_user_on_that_ip_with_a_clear_message(staff):
    lock("anna")
    client, response = sign_in("anna", PASSWORD)
    assert response.status_code == 429
    text = response.content.decode()
    assert "anna" in text and "15" in text
    assert "_auth_user_id" not in client.session


def test_other_users_at_the_same_venue_still_sign_in(staff):
    lock("anna")
    assert signed_in(sign_in("bartek", PASSWORD)[1])
    # …and their own wrong passwords are counted apart from anna's.
    _client, response = sign_in("bartek", "wrong")
    assert response.status_code == 200


def test_the_same_user_from_another_ip_still_signs_in(staff):
    lock("anna")
    assert signed_in(sign_in("anna", PASSWORD, ip="198.51.100.7")[1])


def test_after_the_cool_off_the_right_password_works(staff):
    lock("anna")
    assert sign_in("anna", PASSWORD)[1].status_code == 429
    sixteen_minutes_ago = AccessAttempt.objects.get().attempt_time - datetime.timedelta(minutes=16)
    AccessAttempt.objects.update(attempt_time=sixteen_minutes_ago)
    assert signed_in(sign_in("anna", PASSWORD)[1])


def test_fourteen_minutes_are_not_enough(staff):
    lock("anna")
    fourteen_minutes_ago = AccessAttempt.objects.get().attempt_time - datetime.timedelta(minutes=14)
    AccessAttempt.objects.update(attempt_time=fourteen_minutes_ago)
    assert sign_in("anna", PASSWORD)[1].status_code == 429


def test_a_forwarded_for_header_cannot_dodge_the_lock(staff):
    lock("anna")
    client = Client(REMOTE_ADDR=VENUE_IP, HTTP_X_FORWARDED_FOR="203.0.113.99")
    assert sign_in("anna", PASSWORD, client=client)[1].status_code == 429


def test_a_device_link_signs_in_even_when_the_venue_ip_has_a_locked_user(staff):
    tournament = build(4)
    link, token = create_device_link(tournament, label="Tablet 1")
    lock("anna")
    lock(link.user.username)  # even its own (unusable) username locked by password guesses
    tablet = Client(REMOTE_ADDR=VENUE_IP)
    response = tablet.post(reverse("accounts:device_sign_in", kwargs={"token": token}))
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:home", kwargs={"slug": tournament.slug})
    assert tablet.get(response["Location"]).status_code == 200


def test_the_test_clients_login_still_works_without_a_request(staff):
    client = Client()
    assert client.login(username="anna", password=PASSWORD)
    assert not client.login(username="anna", password="wrong")


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_a_user_name_of_thousands_of_characters_is_a_failed_sign_in_not_a_server_error(path):
    """axes records the name in a 255-character column: PostgreSQL refused a longer one."""
    client = Client(REMOTE_ADDR=VENUE_IP, raise_request_exception=False)
    for _ in range(LIMIT):
        response = client.post(path, {"username": "9" * 5000, "password": "x" * 10_000})
        assert response.status_code in (200, 429)
    [attempt] = AccessAttempt.objects.all()
    assert attempt.username == "9" * 255 and attempt.failures_since_start == LIMIT
    assert client.post(path, {"username": "9" * 5000, "password": "x"}).status_code == 429  # locked as any name


PROXY_IP = "10.0.0.2"  # every request behind the service's proxy comes from it


def sign_in_behind_the_proxy(username, password, forwarded_for):
    client = Client(REMOTE_ADDR=PROXY_IP, HTTP_X_FORWARDED_FOR=forwarded_for)
    return client.post(reverse("accounts:login"), {"username": username, "password": password})


def test_behind_the_proxy_one_clients_wrong_passwords_do_not_lock_out_another(staff, settings):
    settings.PROXY = True
    settings.PROXY_HOPS = 1
    for _attempt in range(LIMIT - 1):
        assert sign_in_behind_the_proxy("anna", "wrong", "198.51.100.7").status_code == 200
    assert sign_in_behind_the_proxy("anna", "wrong", "198.51.100.7").status_code == 429

    assert signed_in(sign_in_behind_the_proxy("anna", PASSWORD, "203.0.113.20"))  # another client
    assert sign_in_behind_the_proxy("anna", PASSWORD, "198.51.100.7").status_code == 429
    assert AccessAttempt.objects.get().ip_address == "198.51.100.7"


def test_behind_the_proxy_an_address_the_client_sends_itself_changes_nothing(staff, settings):
    settings.PROXY = True
    settings.PROXY_HOPS = 1
    for spoofed in ("203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4", "203.0.113.5"):
        sign_in_behind_the_proxy("anna", "wrong", f"{spoofed}, 198.51.100.7")  # the proxy appended the last
    assert sign_in_behind_the_proxy("anna", PASSWORD, "203.0.113.9, 198.51.100.7").status_code == 429
    assert AccessAttempt.objects.get().ip_address == "198.51.100.7"


def test_two_proxies_in_front_trust_two_entries_and_no_proxy_trusts_none(staff, settings):
    settings.PROXY = True
    settings.PROXY_HOPS = 2  # e.g. a load balancer before HAProxy: the client is second from the right
    lock_behind = "203.0.113.66, 198.51.100.7, 10.0.0.9"
    for _attempt in range(LIMIT):
        sign_in_behind_the_proxy("anna", "wrong", lock_behind)
    assert AccessAttempt.objects.get().ip_address == "198.51.100.7"

    settings.PROXY = False  # no proxy: a sent X-Forwarded-For is only the client's say
    assert signed_in(sign_in_behind_the_proxy("anna", PASSWORD, "198.51.100.7"))
    assert AccessAttempt.objects.count() == 1
