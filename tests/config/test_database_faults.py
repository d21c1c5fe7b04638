"""What a service's app server and worker do when PostgreSQL goes away and comes back (issue 51).

The database "goes away" as in a restart: every connection to it is cut
(`pg_terminate_backend`: "terminating connection due to administrator command", what
`pg_ctl restart -m fast` does) and, for an outage, new ones are refused until it "comes back"
(`ALLOW_CONNECTIONS false`, then true). Each test runs `bin/serve` over a fresh database of its own."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from tests.support.serve import ROOT, SERVE, hosted_env, serving, wait_for  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.server, pytest.mark.postgresql]
ONE_THREAD = "--workers 1 --threads 1"  # one kept connection: the one the cut reaches


def admin(sql):
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
        connection.execute(sql)


def name_of(env):
    return urlsplit(env["DATABASE_URL"]).path.lstrip("/")


def cut(env, *, refuse):
    """Every connection to the service's database cut; new ones refused too when `refuse`."""
    name = name_of(env)
    if refuse:
        admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")


def back(env):
    admin(f'ALTER DATABASE "{name_of(env)}" ALLOW_CONNECTIONS true')


def connections_to(env):
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
        query = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
        return connection.execute(query, [name_of(env)]).fetchone()[0]


def get(env, path, language="pl"):
    request = urllib.request.Request(f"http://127.0.0.1:{env['PORT']}{path}", headers={"Accept-Language": language})
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            return reply.status, dict(reply.headers), reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


@pytest.fixture
def released(hosted_env):  # noqa: F811
    subprocess.run([SERVE, "release"], cwd=ROOT, env=hosted_env, check=True, capture_output=True, timeout=300)
    return hosted_env


@pytest.fixture
def server(released):
    env = {**released, "GUNICORN_CMD_ARGS": ONE_THREAD}
    process = subprocess.Popen(
        [SERVE], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        serving(env["PORT"], process)
        yield env
    finally:
        back(env)
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def test_a_server_whose_kept_connection_was_cut_answers_the_next_request_normally(server):
    assert get(server, "/")[0] == 200  # the server's one thread keeps its connection
    assert connections_to(server) == 1
    cut(server, refuse=False)  # the database restarted: that connection is dead
    for _ in range(3):
        assert get(server, "/")[0] == 200


def test_while_the_database_is_away_pages_answer_the_apps_503_and_healthz_says_so(server):
    assert get(server, "/healthz")[:3:2] == (200, "ok\n")
    cut(server, refuse=True)
    status, headers, page = get(server, "/")
    assert (status, headers["Retry-After"], headers["Cache-Control"]) == (503, "5", "no-store")
    assert "Chwileczkę" in page and "5 sekund" in page
    status, headers, page = get(server, "/", language="en")
    assert status == 503 and "A moment, please" in page and "try again in 5 seconds" in page
    assert get(server, "/healthz")[0] == 503
    back(server)
    assert get(server, "/healthz")[:3:2] == (200, "ok\n")  # the first request after it is back
    assert get(server, "/")[0] == 200


ENQUEUE = "from tests.support.slow_task import sleep_then_record; print(sleep_then_record.enqueue({log!r}, 3).id)"
STATUS = "from django_tasks_db.models import DBTaskResult; print(DBTaskResult.objects.get(pk={pk!r}).status)"


def manage(env, code):
    command = [sys.executable, "manage.py", "shell", "-v", "0", "-c", code]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout.strip()


def test_the_worker_outlives_the_database_and_its_cut_task_runs_again(released, tmp_path):
    effects = tmp_path / "effect.log"
    output = tmp_path / "worker.log"
    with open(output, "wb") as log:
        worker = subprocess.Popen([SERVE, "worker"], cwd=ROOT, env=released, stdout=log, stderr=subprocess.STDOUT)
    try:
        pk = manage(released, ENQUEUE.format(log=str(effects)))
        wait_for(lambda: effects.exists() and "started" in effects.read_text())
        cut(released, refuse=True)  # the task's end meets a database that is away
        wait_for(lambda: "unreachable" in output.read_text())
        time.sleep(3)  # polls while it is away
        assert worker.poll() is None
        back(released)
        wait_for(lambda: manage(released, STATUS.format(pk=pk)) == "SUCCESSFUL", timeout=60)
        assert worker.poll() is None  # the same process throughout
    finally:
        worker.send_signal(signal.SIGTERM)
        status = worker.wait(timeout=30)
    assert status == 0
    assert effects.read_text().split().count("finished") == 1  # run again, its effect once
    events = [json.loads(line) for line in output.read_text().splitlines() if line.startswith("{")]
    said = [event["message"] for event in events]
    assert sum("unreachable" in message for message in said) == 1  # one line for the outage
    assert sum("is back" in message for message in said) == 1
    assert not [event for event in events if "traceback" in event]


SHOW_TIMEOUT = "from django.db import connection; c = connection.cursor(); c.execute('SHOW statement_timeout'); print(c.fetchone()[0])"
WORKER_TIMEOUT = (
    "from organiser.management.commands.run_tasks import use_worker_statement_timeout; use_worker_statement_timeout(); "
)


def test_a_request_s_statements_are_bounded_at_10_s_and_the_worker_s_at_10_minutes(released):
    assert manage(released, SHOW_TIMEOUT) == "10s"
    assert manage(released, WORKER_TIMEOUT + SHOW_TIMEOUT) == "10min"
    assert manage({**released, "STATEMENT_TIMEOUT": "2.5"}, SHOW_TIMEOUT) == "2500ms"
