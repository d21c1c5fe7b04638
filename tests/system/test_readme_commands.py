"""Every `manage.py` command the README prints runs as printed, in a fresh shell (no SECRET_KEY,
no DEBUG: only what `make run` left in VAR_DIR), from the project folder.

The commands are read from the README's code blocks, so a new one is covered as soon as it is
written there. Placeholders take the demo's values; an import runs on a fresh database, as on a
new laptop.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PREFIX = ".venv/bin/python manage.py "
PLACEHOLDERS = {
    "SLUG": "senioriada-demo",
    "senioriada-2026": "senioriada-demo",
    "$(date +%H%M)": "1130",
    "FILE.json": "backup-1130.json",
}

pytestmark = [pytest.mark.server, pytest.mark.own_database]


def readme_commands():
    """Each line of a README code block that runs manage.py, without its trailing comment."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M)
    lines = [re.sub(r"\s+#.*$", "", line).strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.startswith(PREFIX)]


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


def test_the_readme_shows_the_commands_this_test_runs():
    names = {command.split()[2] for command in readme_commands()}
    assert {"import_tournament", "export_tournament", "standings", "export_results", "export_site", "migrate"} <= names


@pytest.mark.full  # a minute of processes: make test-full; make test runs each command in-process (docs/developers/tests.md)
def test_every_readme_command_runs_as_printed_in_a_fresh_shell(project, tmp_path):
    shell = fresh_shell(project, tmp_path / "var")
    for step in (PREFIX + "migrate", PREFIX + "load_demo --if-empty"):  # what `make run` did first
        assert shell(step).returncode == 0, step
    commands = [fill_in(command) for command in readme_commands()]
    # The exports first: each import reads what they wrote, on a laptop of its own (a new database).
    for number, command in enumerate(sorted(commands, key=lambda command: "import_tournament" in command)):
        if "import_tournament" in command:
            new_laptop = fresh_shell(project, tmp_path / f"laptop-{number}")
            assert new_laptop(PREFIX + "migrate").returncode == 0
            result = new_laptop(command)
        else:
            result = shell(command)
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    for made in (
        "backup-1130.json",
        "results.xlsx",
        "standings.csv",
        "rounds.csv",
        "standings-comma.csv",
        "results-site.zip",
    ):
        assert (project / made).stat().st_size > 0, made
