"""PDFs in the cache the app servers share (Redis), keyed on contents: another server of the same
release (its own checkout, VAR_DIR and file times) is served the PDF one server rendered; a changed
template or stylesheet makes a new key; a dead Redis costs only a new rendering."""

import hashlib
import os
import shutil
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import translation

from accounts.help import BY_SLUG
from printing.render import pdf_key, render_pdf
from printing.testing import pdf_text, strict_pdf_rendering  # noqa: F401
from tests.support.redis import redis_cache, redis_server  # noqa: F401
from tournament import release

ROOT = django_settings.BASE_DIR
LONG_AGO = 978_307_200  # 2001-01-01: another machine's checkout, made at another time


@pytest.fixture
def fresh_fingerprint():
    """The release's fingerprint computed anew at each call (as in a new process)."""
    release.fingerprint.cache_clear()
    yield lambda: release.fingerprint.cache_clear() or pdf_key("<html>Łucja</html>")
    release.fingerprint.cache_clear()


def copy_with_new_times(source, target):
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    for folder, _dirs, files in os.walk(target):
        for name in files:
            os.utime(os.path.join(folder, name), (LONG_AGO, LONG_AGO))
    return target


def test_the_pdf_key_depends_on_the_files_contents_never_on_their_times(settings, tmp_path, fresh_fingerprint):
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [copy_with_new_times(ROOT / "templates", tmp_path / "t")]}]
    settings.STATICFILES_DIRS = [copy_with_new_times(ROOT / "static", tmp_path / "s")]
    key = fresh_fingerprint()
    assert key == pdf_key("<html>Łucja</html>")  # a copy made at another time: the same key
    os.utime(tmp_path / "t" / "printing" / "help.html")  # touched now
    assert fresh_fingerprint() == key
    stylesheet = tmp_path / "s" / "print" / "print.css"
    stylesheet.write_bytes(stylesheet.read_bytes() + b"\n")
    assert fresh_fingerprint() != key
    stylesheet.write_bytes(stylesheet.read_bytes()[:-1])
    assert fresh_fingerprint() == key
    template = tmp_path / "t" / "printing" / "help.html"
    template.write_bytes(template.read_bytes().replace(b"<", b" <", 1))
    assert fresh_fingerprint() != key
    assert pdf_key("<html>Żaneta</html>") != pdf_key("<html>Łucja</html>")


SERVER_B = """
import hashlib, sys
from unittest import mock
import django
django.setup()
import config
from django.utils import translation
from accounts.help import BY_SLUG
from printing import render
translation.activate("pl")
page = BY_SLUG["referee"]
with mock.patch.object(render, "html_to_pdf", side_effect=AssertionError("server B rendered it again")):
    pdf = render.render_pdf("printing/help.html", {"page": page, "title": page.title})
print(config.__file__, render.pdf_key(""), hashlib.sha256(pdf).hexdigest())
"""


def test_a_pdf_rendered_by_one_server_is_served_to_another_checkout_from_redis(redis_cache, tmp_path):
    checkout = tmp_path / "checkout"
    for folder in release.APPS + ("templates", "static"):
        copy_with_new_times(ROOT / folder, checkout / folder)
    with translation.override("pl"):
        page = BY_SLUG["referee"]
        pdf = render_pdf("printing/help.html", {"page": page, "title": page.title})
    assert "Pomoc dla sędziów" in pdf_text(pdf)
    environment = {
        **os.environ,
        "PYTHONPATH": str(checkout),
        "VAR_DIR": str(tmp_path / "var"),
        "REDIS_URL": redis_cache.url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    answer = subprocess.run(
        [sys.executable, "-c", SERVER_B], cwd=checkout, env=environment, capture_output=True, text=True, timeout=120
    )
    assert answer.returncode == 0, answer.stderr[-2000:]
    config_file, key, digest = answer.stdout.split()
    assert config_file == str(checkout / "config" / "__init__.py")  # server B runs the other checkout
    assert key == pdf_key("") and digest == hashlib.sha256(pdf).hexdigest()


def test_with_redis_dead_a_pdf_answers_the_same(redis_cache, caplog):
    first = Client().get("/print/help/referee.pdf")
    assert first.status_code == 200
    redis_cache.stop()
    again = Client().get("/print/help/referee.pdf")
    assert again.status_code == 200 and pdf_text(again.content) == pdf_text(first.content)
    assert again.content == first.content
    assert any("cannot be reached" in r.getMessage() for r in caplog.records)
