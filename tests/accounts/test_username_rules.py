"""The user name's help and its error say the same thing (issue 36.10): both name exactly the
characters Django's user model takes besides letters and digits (. @ + - _)."""

import re

import pytest
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils import translation

from accounts.forms import NewAccountForm

ALLOWED = {".", "@", "+", "-", "_"}


def characters_named(text):
    """The punctuation a message lists ("…the characters . @ + - _ …")."""
    mark = r"(?:[^\w\s()]|_)"
    listed = re.search(rf"(?:characters|znak\w*) ((?:{mark} )*{mark})", text)
    return set(listed.group(1).split()) if listed else set()


def username_errors(username):
    form = NewAccountForm(
        {"username": username, "password": "a-long-pass-phrase-2026", "password_again": "a-long-pass-phrase-2026"}
    )
    form.is_valid()
    return form.errors.get("username", [])


def test_the_model_takes_exactly_the_characters_the_messages_name():
    specials = {c for c in "".join(chr(n) for n in range(33, 127)) if not c.isalnum()}
    taken = {c for c in specials if re.match(UnicodeUsernameValidator.regex, f"a{c}b")}
    assert taken == ALLOWED


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_help_and_the_error_name_the_same_characters(language):
    with translation.override(language):
        help_text = str(NewAccountForm().fields["username"].help_text)
        [error] = username_errors("anna nowak")
    assert characters_named(help_text) == characters_named(error) == ALLOWED


@pytest.mark.parametrize("username", ["anna.nowak", "anna@klub", "anna+1", "nowak-kowalska", "anna_n", "Zofia.Żółć"])
def test_every_name_the_help_allows_is_taken(db, username):
    assert username_errors(username) == []


@pytest.mark.parametrize("username", ["anna nowak", "anna/nowak", "anna#1", "anna,nowak"])
def test_other_characters_get_the_message_of_the_help(db, username):
    assert username_errors(username) == ["Use only letters, digits and the characters . @ + - _ (no spaces)."]
