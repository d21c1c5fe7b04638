"""bin/system-packages, the install step `make run`, `make test` and `.ci/run` share.

The machine is faked with small stand-ins for dpkg-query, id and apt-get placed first on PATH,
so each case (root or not, apt-get working or not) runs here without touching the system.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bin" / "system-packages"


def fake_machine(tmp_path, *, installed, uid=0, apt_works=True):
    """A folder of stand-in commands; apt-get records its arguments in apt.log."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tools = {
        "dpkg-query": (
            'for package in "$@"; do :; done\n'
            f'case " {" ".join(installed)} " in *" $package "*) printf "install ok installed";; *) exit 1;; esac\n'
        ),
        "id": f"echo {uid}\n",
        "apt-get": f'echo "$@" >> {tmp_path / "apt.log"}\nexit {0 if apt_works else 100}\n',
    }
    for name, body in tools.items():
        path = bin_dir / name
        path.write_text("#!/bin/sh\n" + body)
        path.chmod(0o755)
    return bin_dir


def run_step(tmp_path, need, bin_dir, python=sys.executable):
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", PYTHON_BIN=python)
    return subprocess.run(["sh", str(SCRIPT), need], env=env, capture_output=True, text=True, timeout=30)


EVERYTHING = [
    "libharfbuzz-subset0",
    "fonts-dejavu-core",
    "chromium",
    "poppler-utils",
    "gettext",
    "postgresql",
    "podman",
    "podman-compose",
    "runc",
    "mmdebstrap",
    "redis-server",
    "haproxy",
]


def test_nothing_to_do_on_a_complete_machine(tmp_path):
    result = run_step(tmp_path, "ci", fake_machine(tmp_path, installed=EVERYTHING))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    assert not (tmp_path / "apt.log").exists()


def test_root_installs_exactly_what_is_missing(tmp_path):
    have = [p for p in EVERYTHING if p not in ("chromium", "libharfbuzz-subset0")]
    result = run_step(tmp_path, "test", fake_machine(tmp_path, installed=have))
    assert result.returncode == 0, result.stdout + result.stderr
    calls = (tmp_path / "apt.log").read_text().splitlines()
    assert calls[0] == "update -qq"
    assert calls[1].split()[-2:] == ["libharfbuzz-subset0", "chromium"]
    assert "chromium: the browser tests drive it" in result.stdout


@pytest.mark.parametrize(
    "need, expected",
    [
        ("run", "libharfbuzz-subset0 fonts-dejavu-core"),
        ("test", "libharfbuzz-subset0 fonts-dejavu-core chromium poppler-utils gettext"),
        (
            "ci",
            "libharfbuzz-subset0 fonts-dejavu-core chromium poppler-utils gettext postgresql podman podman-compose runc mmdebstrap redis-server haproxy",
        ),
    ],
)
def test_without_root_it_names_the_one_command_and_stops(tmp_path, need, expected):
    result = run_step(tmp_path, need, fake_machine(tmp_path, installed=[], uid=1000))
    assert result.returncode == 2
    assert f"sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends {expected}'" in result.stdout
    assert not (tmp_path / "apt.log").exists()


def test_a_failing_apt_get_names_the_command_instead_of_going_on(tmp_path):
    result = run_step(tmp_path, "test", fake_machine(tmp_path, installed=["gettext"], apt_works=False))
    assert result.returncode == 2
    assert result.stdout.splitlines()[-1].startswith("apt-get could not install them. Run this once")
    assert "chromium poppler-utils" in result.stdout


def test_a_python_without_venv_asks_for_python3_venv(tmp_path):
    no_venv = tmp_path / "python3"
    no_venv.write_text("#!/bin/sh\nexit 1\n")
    no_venv.chmod(0o755)
    result = run_step(tmp_path, "run", fake_machine(tmp_path, installed=EVERYTHING, uid=1000), python=str(no_venv))
    assert result.returncode == 2
    assert "apt-get install -y --no-install-recommends python3-venv'" in result.stdout


# ---------------------------------------------------------------- the Makefile's install levels

MAKEFILE = SCRIPT.parent.parent / "Makefile"


def planned_commands(tmp_path, target, stamps=(), changed=()):
    """The pip commands `make -n TARGET` would run in a copy of the project holding the given
    stamp files, in the order given, all newer than pyproject.toml and the lock, but for the
    files in `changed`, edited after the last install."""
    (tmp_path / "requirements").mkdir(exist_ok=True)
    for name in ("Makefile", "pyproject.toml", "setup.py", "requirements/run.txt", "requirements/test.txt"):
        (tmp_path / name).write_bytes((MAKEFILE.parent / name).read_bytes())
    venv = tmp_path / ".venv"
    venv.mkdir(exist_ok=True)
    made = max((tmp_path / name).stat().st_mtime for name in ("pyproject.toml", "setup.py"))
    for order, level in enumerate(stamps, start=1):  # each level installed after the one before
        stamp = venv / f".installed-{level}"
        stamp.touch()
        os.utime(stamp, (made + order, made + order))
    for name in changed:
        os.utime(tmp_path / name, (made + 10, made + 10))
    result = subprocess.run(["make", "-n", target], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return [line for line in result.stdout.splitlines() if "pip install" in line]


RUN_LOCK = ".venv/bin/pip install --quiet --require-hashes -r requirements/run.txt"
TEST_LOCK = ".venv/bin/pip install --quiet --require-hashes -r requirements/test.txt"
PROJECT = ".venv/bin/pip install --quiet --no-deps --no-build-isolation -e ."


def test_make_run_installs_the_runtime_lock_then_the_project_alone(tmp_path):
    installs = planned_commands(tmp_path, "run")
    assert installs[-2:] == [RUN_LOCK, PROJECT], installs
    assert not any("test" in line for line in installs), installs


def test_make_test_after_make_run_adds_the_test_lock_only(tmp_path):
    assert planned_commands(tmp_path, "test", stamps=("run",)) == [TEST_LOCK]


@pytest.mark.parametrize(
    "changed, expected",
    [
        ("requirements/run.txt", [RUN_LOCK, PROJECT, TEST_LOCK]),
        ("requirements/test.txt", [TEST_LOCK]),
        ("pyproject.toml", [RUN_LOCK, PROJECT, TEST_LOCK]),
    ],
)
def test_a_changed_lock_is_installed_again(tmp_path, changed, expected):
    installs = planned_commands(tmp_path, "test", stamps=("run", "test"), changed=[changed])
    assert installs[-len(expected) :] == expected, installs


def test_make_run_after_make_test_installs_nothing(tmp_path):
    assert planned_commands(tmp_path, "run", stamps=("run", "test")) == []
    assert planned_commands(tmp_path, "test", stamps=("run", "test")) == []
