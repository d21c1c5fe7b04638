"""Every command the README and the manual (docs/) mark as runnable works as printed.

A runnable snippet is a fenced block preceded by the line `<!-- runnable -->`
(docs/developers/documentation.md). Each of its lines is one of:

- `.venv/bin/python manage.py …`: run in a fresh shell (no SECRET_KEY, no DEBUG: only what
  `make run` left in VAR_DIR), from the project folder; placeholders take the demo's values, and
  an import runs on a fresh database, as on a new laptop;
- `make run …`: the production start on a fresh database, which must answer;
- `make docs`: the manual's build (tests/system/test_docs_build.py runs it).

Any other line in a marked block fails: a reader can trust every marked block.
"""

import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.server import MakeRun

ROOT = Path(__file__).resolve().parents[2]
PREFIX = ".venv/bin/python manage.py "
MARKER = "<!-- runnable -->"
PLACEHOLDERS = {
    "SLUG": "senioriada-demo",
    "senioriada-2026": "senioriada-demo",
    "$(date +%H%M)": "1130",
    "FILE.json": "backup-1130.json",
}

pytestmark = [pytest.mark.server, pytest.mark.own_database]


def documents():
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def runnable_lines(text):
    """Each line of each fenced block marked runnable, without its trailing comment."""
    blocks = re.findall(r"^" + re.escape(MARKER) + r"\n```[^\n]*\n(.*?)^```", text, flags=re.S | re.M)
    lines = [re.sub(r"\s+#.*$", "", line).strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line]


def all_runnable_lines():
    return [line for document in documents() for line in runnable_lines(document.read_text(encoding="utf-8"))]


def manage_commands():
    return [line for line in all_runnable_lines() if line.startswith(PREFIX)]


def make_runs():
    return sorted({line for line in all_runnable_lines() if line.split()[:2] == ["make", "run"]})


def fill_in(command):
    for placeholder, value in PLACEHOLDERS.items():
        command = command.replace(placeholder, value)
    return command


def fresh_shell(folder, var_dir):
    """A new terminal's environment (PATH, HOME, the language) and the data folder, nothing else."""
    environment = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
    environment["VAR_DIR"] = str(var_dir)
    return lambda command: subprocess.run(
        ["sh", "-c", command], cwd=folder, env=environment, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def project(tmp_path):
    """The project folder as an organiser sees it (its .venv and manage.py), writing into tmp_path."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / ".venv").symlink_to(Path(sys.prefix))
    (folder / "manage.py").symlink_to(ROOT / "manage.py")
    return folder


def test_a_marked_block_is_read_and_an_unmarked_one_is_not():
    text = f"{MARKER}\n```\nmake run\n.venv/bin/python manage.py standings SLUG   # the staff view\n```\n\n```\nmake test\n```\n"
    assert runnable_lines(text) == ["make run", ".venv/bin/python manage.py standings SLUG"]


def test_every_runnable_line_is_one_this_test_runs():
    unknown = [
        line
        for line in all_runnable_lines()
        if not line.startswith(PREFIX) and line.split()[:2] != ["make", "run"] and line != "make docs"
    ]
    assert unknown == []


def test_the_docs_show_the_commands_this_test_runs():
    names = {command.split()[2] for command in manage_commands()}
    assert {
        "import_tournament",
        "export_tournament",
        "standings",
        "export_results",
        "export_site",
        "migrate",
        "create_season",
        "season_standings",
        "run_tasks",
    } <= names
    assert {"make run", "make run DEMO=0"} <= set(make_runs())
    assert "make docs" in all_runnable_lines()


def test_every_management_command_of_the_project_has_its_help_in_the_reference():
    commands = {path.stem for path in ROOT.glob("*/management/commands/*.py") if path.stem != "__init__"}
    reference = runnable_lines((ROOT / "docs" / "reference" / "commands.md").read_text(encoding="utf-8"))
    assert {PREFIX + name + " --help" for name in commands} <= set(reference)
    assert len(commands) >= 11


@pytest.mark.full  # a minute of processes: make test-full; make test runs each command in-process (docs/developers/tests.md)
def test_every_marked_manage_command_runs_as_printed_in_a_fresh_shell(project, tmp_path):
    shell = fresh_shell(project, tmp_path / "var")
    for step in (PREFIX + "migrate", PREFIX + "load_demo --if-empty"):  # what `make run` did first
        assert shell(step).returncode == 0, step
    commands = [fill_in(command) for command in manage_commands()]
    # The exports first: each import reads what they wrote, on a laptop of its own (a new database).
    for number, command in enumerate(sorted(commands, key=lambda command: "import_tournament" in command)):
        if "import_tournament" in command:
            new_laptop = fresh_shell(project, tmp_path / f"laptop-{number}")
            assert new_laptop(PREFIX + "migrate").returncode == 0
            result = new_laptop(command)
        else:
            result = shell(command)
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
        if command.endswith(" --help"):
            assert result.stdout.startswith("usage: manage.py " + command.split()[2]), command
    for made in (
        "backup-1130.json",
        "results.xlsx",
        "standings.csv",
        "rounds.csv",
        "standings-comma.csv",
        "results-site.zip",
    ):
        assert (project / made).stat().st_size > 0, made


def status(url):
    try:
        return urllib.request.urlopen(url, timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.full  # `make run` from scratch, twice: make test-full; make test keeps tests/accounts/test_venue_server.py
@pytest.mark.parametrize("line", make_runs())
def test_each_marked_make_run_starts_on_a_fresh_database(line, tmp_path):
    variables = dict(word.split("=", 1) for word in line.split()[2:])
    host = variables.pop("HOST", "127.0.0.1")
    server = MakeRun(tmp_path / "var", host=host, make_args=[f"{name}={value}" for name, value in variables.items()])
    try:
        server.wait()
        assert status(server.url + "/accounts/login/") == 200
        demo = status(server.url + "/t/senioriada-demo/")
        assert demo == (404 if variables.get("DEMO") == "0" else 200), server.text
    finally:
        server.stop()
