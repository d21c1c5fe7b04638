"""Production settings from the environment: `manage.py check --deploy` is clean behind an HTTPS
proxy, the secret key is made once and kept, and an https address without a proxy is refused."""

import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DROPPED = {"DEBUG", "TESTING", "SECRET_KEY", "PUBLIC_URL", "PROXY", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL"}


def manage(tmp_path, *args, **env):
    environment = {k: v for k, v in os.environ.items() if k not in DROPPED}
    environment.update(VAR_DIR=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_behind_an_https_proxy(tmp_path):
    result = manage(
        tmp_path, "check", "--deploy", "--fail-level", "WARNING", PUBLIC_URL="https://rummikub.example.org", PROXY="1"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_secret_key_is_made_once_kept_private_and_the_environment_wins(tmp_path):
    show_key = ("shell", "-v", "0", "-c", "from django.conf import settings; print(settings.SECRET_KEY)")
    first = manage(tmp_path, *show_key)
    assert first.returncode == 0, first.stderr
    key_file = tmp_path / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = key_file.read_text().strip()
    assert first.stdout.strip() == key and len(key) >= 50
    assert manage(tmp_path, *show_key).stdout.strip() == key  # the next command, the next start
    assert manage(tmp_path, *show_key, SECRET_KEY="k" * 60).stdout.strip() == "k" * 60
    other = tmp_path / "other"
    other.mkdir()
    assert manage(other, *show_key).stdout.strip() != key  # random, not a fixed string


def test_an_empty_key_file_stops_with_what_to_do(tmp_path):
    (tmp_path / "secret_key").write_text("")
    result = manage(tmp_path, "check")
    assert result.returncode != 0
    assert "delete the file" in result.stderr


def test_an_https_address_without_a_proxy_stops_with_what_to_do(tmp_path):
    result = manage(tmp_path, "check", PUBLIC_URL="https://rummikub.example.org")
    assert result.returncode != 0
    assert "PROXY=1" in result.stderr


def test_the_public_url_name_is_served_and_trusted_for_forms(tmp_path):
    show = (
        "shell",
        "-v",
        "0",
        "-c",
        "from django.conf import settings; "
        "print(settings.SERVED_HOSTS, settings.CSRF_TRUSTED_ORIGINS, settings.SESSION_COOKIE_SECURE)",
    )
    result = manage(tmp_path, *show, PUBLIC_URL="http://rummikub.local:8000")
    assert result.stdout.split("\n")[0] == "['rummikub.local'] ['http://rummikub.local:8000'] False"
