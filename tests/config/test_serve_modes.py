"""`bin/serve`'s modes. On a laptop one command runs gunicorn and the task worker: a SIGTERM to it
stops both, and a worker that dies is started again. A hosted service's server never migrates:
it refuses to start while migrations are pending; `bin/serve release` applies them once and the
public-version triggers are there after it; then the server starts with nothing of its own in
VAR_DIR but the static files. The hosted tests need PostgreSQL (DATABASE_URL), as a service has."""

import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.serve import ROOT, SERVE, environment, hosted_env, serving, wait_for  # noqa: F401 (a fixture)

pytestmark = pytest.mark.server


def children(pid):
    """{pid: command line} of the processes whose parent is `pid`."""
    found = {}
    for entry in Path("/proc").iterdir():
        try:
            status = (entry / "stat").read_text()
            if entry.name.isdigit() and int(status.rsplit(")", 1)[1].split()[1]) == pid:
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ValueError, IndexError):
            continue
    return found


def worker_of(pid):
    return next((child for child, line in children(pid).items() if "run_tasks" in line), None)


@pytest.mark.own_database
def test_on_a_laptop_one_command_runs_the_server_and_the_worker_and_one_signal_stops_both(tmp_path):
    env = environment(tmp_path, DEMO="0")
    process = subprocess.Popen(
        [SERVE], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        serving(env["PORT"], process)
        assert any("gunicorn" in line for line in children(process.pid).values())
        first_worker = wait_for(lambda: worker_of(process.pid))

        os.kill(first_worker, signal.SIGKILL)  # a worker that dies is started again
        second_worker = wait_for(
            lambda: (worker_of(process.pid) or first_worker) != first_worker and worker_of(process.pid)
        )
        assert second_worker != first_worker

        os.kill(process.pid, signal.SIGTERM)  # to the command only, as `docker stop` sends it
        process.wait(timeout=20)
        wait_for(lambda: not any(Path(f"/proc/{pid}").exists() for pid in (second_worker,)))
        group_left = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True).stdout.split()
        assert group_left == []
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@pytest.mark.own_database
def test_the_release_step_migrates_and_leaves_the_public_version_triggers_in_place(tmp_path):
    """On SQLite too (the migrations rebuild tables, which drops their triggers)."""
    released = subprocess.run(
        [SERVE, "release"], cwd=ROOT, env=environment(tmp_path), capture_output=True, text=True, timeout=300
    )
    assert released.returncode == 0, released.stderr
    with sqlite3.connect(tmp_path / "db.sqlite3") as database:
        triggers = database.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'public_version_%'"
        ).fetchone()[0]
        applied = database.execute("SELECT count(*) FROM django_migrations").fetchone()[0]
    assert triggers > 0 and applied > 0
    assert not (tmp_path / "demo-logins.txt").exists()  # no demo: only the migrations


def public_version_triggers(url):
    import psycopg

    with psycopg.connect(url) as connection:
        return connection.execute("SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'public_version_%'").fetchone()[0]


@pytest.mark.postgresql
def test_a_hosted_server_does_not_migrate_the_release_step_does_and_the_triggers_are_there(tmp_path, hosted_env):
    refused = subprocess.run([SERVE], cwd=ROOT, env=hosted_env, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1
    assert "run `bin/serve release`" in refused.stderr.strip().splitlines()[-1]
    assert public_version_triggers(hosted_env["DATABASE_URL"]) == 0

    released = subprocess.run([SERVE, "release"], cwd=ROOT, env=hosted_env, capture_output=True, text=True, timeout=300)
    assert released.returncode == 0, released.stderr
    assert public_version_triggers(hosted_env["DATABASE_URL"]) > 0

    process = subprocess.Popen(
        [SERVE], cwd=ROOT, env=hosted_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        page = serving(hosted_env["PORT"], process).read().decode()
        assert "/accounts/setup/" not in page  # no setup code on a service
        assert children(process.pid) and not worker_of(process.pid)  # gunicorn's workers, no task worker
        assert sorted(path.name for path in tmp_path.iterdir()) == ["staticfiles"]
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    events = [json.loads(line) for line in process.stdout.read().decode().splitlines()]  # one JSON line each
    assert any("Listening at" in event["message"] for event in events)


@pytest.mark.postgresql
def test_the_worker_mode_runs_the_task_worker_alone(tmp_path, hosted_env):
    subprocess.run([SERVE, "release"], cwd=ROOT, env=hosted_env, check=True, capture_output=True, timeout=300)
    process = subprocess.Popen([SERVE, "worker"], cwd=ROOT, env=hosted_env, stdout=subprocess.DEVNULL)
    try:
        command_line = Path(f"/proc/{process.pid}/cmdline")
        wait_for(lambda: b"run_tasks" in command_line.read_bytes())  # bin/serve became the worker
        time.sleep(2)
        assert process.poll() is None  # and it keeps running
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["staticfiles"]  # made by the settings, empty
    assert list((tmp_path / "staticfiles").iterdir()) == []
