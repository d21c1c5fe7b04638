"""The demo's passwords (var/demo-logins.txt) are readable by the server's user only, as the
secret key and the setup code are."""

import os
from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def mode_of(path):
    return oct(path.stat().st_mode & 0o777)


def test_the_demo_logins_are_written_private(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    old_umask = os.umask(0o022)
    try:
        call_command("load_demo", "--if-empty", stdout=StringIO())
    finally:
        os.umask(old_umask)
    assert mode_of(tmp_path / "demo-logins.txt") == "0o600"


def test_a_logins_file_left_readable_by_an_earlier_version_is_made_private(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    logins = tmp_path / "demo-logins.txt"
    logins.write_text("from an earlier install\n", encoding="utf-8")
    logins.chmod(0o644)
    call_command("load_demo", "--if-empty", stdout=StringIO())  # rewritten with the new passwords
    assert mode_of(logins) == "0o600" and "organizator" in logins.read_text(encoding="utf-8")
    logins.chmod(0o644)
    call_command("load_demo", "--if-empty", stdout=StringIO())  # a tournament exists: only printed
    assert mode_of(logins) == "0o600"
