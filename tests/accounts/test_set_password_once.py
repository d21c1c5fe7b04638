"""A one-time set-password link posted by six browsers at the same moment sets the password once
(issue 46, row 9): one is told the password is set, the five others get the page of a used link,
and the password is the first one's. Both databases."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import set_password_path
from tests.support.race import at_once

BROWSERS = 6


def opened(path):
    """A browser that opened the link (Django moves the token into its session); its form's address."""
    client = Client(raise_request_exception=False)
    return client, client.get(path, follow=True).redirect_chain[-1][0]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_six_browsers_posting_one_link_at_once_set_the_password_once(attempt):
    anna = User.objects.create_user("anna.utw")  # no usable password yet, as the operator makes her
    browsers = [opened(set_password_path(anna)) for _ in range(BROWSERS)]

    def post(index):
        client, form = browsers[index]
        password = f"password-of-browser-{index}"
        return client.post(form, {"new_password1": password, "new_password2": password})

    answers = at_once(post, BROWSERS)
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(302) == 1, statuses
    winner = statuses.index(302)
    for answer in answers:
        if answer.status_code != 302:
            # Checked after the winner's commit: the link's page (200); before it: a used link (410).
            assert answer.status_code in (200, 410) and "does not work any more" in answer.content.decode()
    anna.refresh_from_db()
    assert anna.check_password(f"password-of-browser-{winner}")
