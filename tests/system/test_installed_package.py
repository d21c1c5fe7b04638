"""`pip install .` gives a working app: the wheel carries the templates, static files,
translations and the demo's players (package data), and the app finds them outside a checkout.

The wheel is built from a copy of the project and installed into a folder of its own; the app
then runs from another folder holding only `manage.py` (as in the container image), so nothing
can come from the checkout. The dependencies are the ones of this environment (the lock).
"""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# One worker runs this module's tests (make test's --dist loadgroup): they share one module-scoped build.
pytestmark = [pytest.mark.own_database, pytest.mark.xdist_group("installed-package")]

ROOT = Path(__file__).resolve().parents[2]
NOT_IN_THE_BUILD = shutil.ignore_patterns(
    ".git",
    ".venv",
    "var",
    "build",
    "*.egg-info",
    "__pycache__",
    "tests",
    "bench",
    "test-artifacts",
    ".pytest_cache",
    ".hypothesis",
)

# Run inside the installed app: where `config` comes from, a rendered page, translations, a PDF.
CHECKS = textwrap.dedent("""
    import os, sys
    from io import BytesIO
    from pathlib import Path
    import django
    django.setup()
    import config
    from django.contrib.auth.models import User
    from django.test import Client
    from django.utils import translation
    from pypdf import PdfReader
    print("config from", Path(config.__file__).parent)
    with translation.override("pl"):
        assert translation.gettext("Polish") == "polski", "no Polish translation"
    client = Client()
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="pl")
    assert home.status_code == 200 and "senioriada-demo" in home.content.decode(), home.status_code
    client.force_login(User.objects.get(username="organizator"))
    pdf = client.get("/print/senioriada-demo/round/1/score-sheets.pdf")
    if pdf.status_code == 302:  # made by a task: run the queue, then the finished file is served
        from django.core.management import call_command
        call_command("db_worker", "--batch", "--no-startup-delay", "--queue-name", "*", verbosity=0)
        pdf = client.get("/print/senioriada-demo/round/1/score-sheets.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), pdf.status_code
    page = PdfReader(BytesIO(pdf.content)).pages[0]
    print("score sheets", len(PdfReader(BytesIO(pdf.content)).pages), "pages,", page.mediabox.width, "x", page.mediabox.height)
    assert page.mediabox.width > page.mediabox.height, "the print stylesheet was not found (portrait page)"
""")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The project built as a wheel and installed (without its dependencies) into a folder."""
    work = tmp_path_factory.mktemp("installed")
    shutil.copytree(ROOT, work / "src", ignore=NOT_IN_THE_BUILD)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", work / "wheel", work / "src"],
        check=True,
        capture_output=True,
        timeout=300,
    )
    wheel = next((work / "wheel").glob("rummikub_tournament-*.whl"))
    subprocess.run(
        [*pip, "install", "--no-deps", "--no-index", "--target", work / "site", wheel],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (work / "app").mkdir()
    shutil.copy(ROOT / "manage.py", work / "app")
    return work


def manage(installed, *args, **env):
    environment = {
        k: v for k, v in os.environ.items() if k not in {"DEBUG", "TESTING", "DJANGO_SETTINGS_MODULE", "DATABASE_URL"}
    }
    environment.update(
        PYTHONPATH=str(installed / "site"),
        VAR_DIR=str(installed / "var"),
        SECRET_KEY="installed-" + "k" * 40,
        ALLOWED_HOSTS="testserver",
        HTTPS="0",
        DJANGO_SETTINGS_MODULE="config.settings",
        **env,
    )
    result = subprocess.run(
        [sys.executable, *args], cwd=installed / "app", env=environment, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_the_wheel_carries_the_package_data(installed):
    site = installed / "site"
    for in_checkout, relative in (
        (ROOT / "templates", "templates"),
        (ROOT / "static", "static"),
        (ROOT / "config" / "locale", "locale"),
    ):
        checkout_files = sorted(p.relative_to(in_checkout) for p in in_checkout.rglob("*") if p.is_file())
        wheel_files = sorted(
            p.relative_to(site / "config" / relative) for p in (site / "config" / relative).rglob("*") if p.is_file()
        )
        assert wheel_files == checkout_files and wheel_files, relative
    assert (site / "organiser" / "demo" / "players-42.csv").is_file()


def test_the_installed_app_checks_migrates_renders_pages_translations_and_pdfs(installed):
    (installed / "var").mkdir()
    assert "no issues" in manage(installed, "manage.py", "check")
    manage(installed, "manage.py", "migrate", "--noinput")
    assert "organizator" in manage(installed, "manage.py", "load_demo")
    manage(installed, "manage.py", "collectstatic", "--noinput")
    assert (installed / "var" / "staticfiles" / "js" / "timer.js").is_file()
    assert (installed / "var" / "staticfiles" / "fonts" / "DejaVuSans.ttf").is_file()
    output = manage(installed, "-c", CHECKS)
    assert f"config from {installed / 'site' / 'config'}\n" in output, output
