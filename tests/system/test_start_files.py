"""The double-click start files: start-macos.command (run here under sh) and start-windows.bat
(read here, since no cmd.exe runs on Linux: it must make the same Docker calls and say the same).

The Mac file runs in a copy of the project folder with a fake `docker` (its answers set per
case), a fake `sleep` (instant) and a fake `open` (the browser) first and alone on PATH, so every
case runs here without Docker: Docker missing, Docker Desktop not running, the app starting then
healthy, a port from .env, the app unhealthy, stopped, too slow, or failing to start.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMMAND = ROOT / "start-macos.command"
BATCH = ROOT / "start-windows.bat"
CONTAINER = "0123abcd"

FAKE_DOCKER = """#!/bin/sh
echo "docker $*" >> "$FAKE/calls.log"
case "$*" in
  info) exit "${INFO_EXIT:-0}" ;;
  "compose up -d") echo "Container rummikub-app-1  Started"; exit "${UP_EXIT:-0}" ;;
  "compose ps -q app") [ -n "${CONTAINER-}" ] && echo "$CONTAINER"; exit 0 ;;
  "inspect --format {{.State.Status}} {{.State.Health.Status}} $CONTAINER")
    calls=$(($(cat "$FAKE/inspected" 2>/dev/null || echo 0) + 1)); echo "$calls" > "$FAKE/inspected"
    line=$(sed -n "${calls}p" "$FAKE/states"); [ -n "$line" ] || line=$(tail -n 1 "$FAKE/states")
    echo "$line" ;;
  "compose logs --tail 40 app") echo "gunicorn: the last log line" ;;
  "compose exec -T app cat /app/var/demo-logins.txt") echo "organizator    organizator    s3cret-Pass" ;;
  *) echo "unexpected: docker $*" >&2; exit 99 ;;
esac
"""


@pytest.fixture
def mac(tmp_path):
    """A project folder holding the start file, and a PATH of the fakes and the few tools it uses."""
    folder, tools = tmp_path / "project", tmp_path / "bin"
    folder.mkdir()
    tools.mkdir()
    shutil.copy(COMMAND, folder / COMMAND.name)
    for tool in ("sed", "tail", "cat", "dirname"):
        (tools / tool).symlink_to(shutil.which(tool))
    fakes = {"sleep": 'echo "sleep $*" >> "$FAKE/calls.log"\n', "open": 'echo "open $*" >> "$FAKE/calls.log"\n'}
    for name, body in fakes.items():
        (tools / name).write_text("#!/bin/sh\n" + body)
    (tools / "docker").write_text(FAKE_DOCKER)
    for path in tools.iterdir():
        if not path.is_symlink():
            path.chmod(0o755)
    return tmp_path


def start(mac, *, states=("running healthy",), docker=True, env_file=None, **answers):
    """Run the start file; returns (exit status, its output, the commands it ran)."""
    if not docker:
        (mac / "bin" / "docker").unlink()
    if env_file is not None:
        (mac / "project" / ".env").write_text(env_file)
    (mac / "states").write_text("\n".join(states) + "\n")
    environment = {
        "PATH": str(mac / "bin"),
        "HOME": str(mac / "home"),
        "FAKE": str(mac),
        "CONTAINER": CONTAINER,
        **answers,
    }
    result = subprocess.run(
        [shutil.which("sh"), str(mac / "project" / COMMAND.name)],
        env=environment,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    log = mac / "calls.log"
    calls = log.read_text().splitlines() if log.exists() else []
    return result.returncode, result.stdout + result.stderr, calls


def test_without_docker_it_says_to_install_docker_desktop(mac):
    status, output, calls = start(mac, docker=False)
    assert status == 1
    assert "Docker is not installed" in output and "Install Docker Desktop" in output
    assert calls == []
    assert output.rstrip().endswith("Press Enter to close this window.")


def test_with_docker_desktop_stopped_it_says_so_and_starts_nothing(mac):
    status, output, calls = start(mac, INFO_EXIT="1")
    assert status == 1
    assert "Docker Desktop is not running" in output and "Engine running" in output
    assert calls == ["docker info"]


def test_it_starts_the_service_waits_until_healthy_then_opens_the_browser(mac):
    status, output, calls = start(
        mac, states=["created starting", "running starting", "running starting", "running healthy"]
    )
    assert status == 0, output
    inspect = f"docker inspect --format {{{{.State.Status}}}} {{{{.State.Health.Status}}}} {CONTAINER}"
    assert calls == [
        "docker info",
        "docker compose up -d",
        "docker compose ps -q app",
        inspect,
        "sleep 2",
        inspect,
        "sleep 2",
        inspect,
        "sleep 2",
        inspect,
        "open http://localhost:8000/",
        "docker compose exec -T app cat /app/var/demo-logins.txt",
    ]
    assert "ready." in output and "http://localhost:8000/" in output
    assert "organizator    organizator    s3cret-Pass" in output


def test_the_port_comes_from_the_env_file(mac):
    status, output, calls = start(mac, env_file="# the venue\nPUBLIC_URL=http://192.168.1.10:8080\nPORT = 8080\n")
    assert status == 0, output
    assert "open http://localhost:8080/" in calls


@pytest.mark.parametrize(
    "states, says",
    [
        (["running starting", "running unhealthy"], "does not answer"),
        (["running starting", "exited starting"], "The app stopped (exited starting)"),
        ([""], "The app stopped (unknown)"),  # the container vanished
    ],
)
def test_a_broken_start_shows_the_apps_log_and_opens_nothing(mac, states, says):
    status, output, calls = start(mac, states=states)
    assert status == 1
    assert says in output
    assert "gunicorn: the last log line" in output
    assert not any(call.startswith("open") for call in calls)


def test_a_start_that_never_gets_ready_gives_up_after_the_wait(mac):
    status, output, calls = start(mac, states=["running starting"])
    assert status == 1
    assert "still not ready after 300 seconds" in output
    assert calls.count("sleep 2") == 150
    assert "gunicorn: the last log line" in output


def test_a_failing_compose_up_stops_there(mac):
    status, output, calls = start(mac, UP_EXIT="1")
    assert status == 1
    assert "could not be started" in output
    assert calls == ["docker info", "docker compose up -d"]


def test_a_missing_container_shows_the_log(mac):
    status, output, calls = start(mac, CONTAINER="")
    assert status == 1
    assert "container is missing" in output and "gunicorn: the last log line" in output


# ---------------------------------------------------------------- the Windows twin, read


def docker_calls(text):
    """The docker commands a start file runs, in order, with its variables written alike."""
    text = re.sub(r'"?(\$container|%CONTAINER%)"?', "CONTAINER", text)
    text = text.replace("'{{.State.Status}} {{.State.Health.Status}}'", '"{{.State.Status}} {{.State.Health.Status}}"')
    calls = []
    for line in text.splitlines():
        if line.lstrip().startswith(("#", "rem ", "echo")):
            continue
        for match in re.finditer(r"\bdocker ((?:compose |inspect |info)[^;|)&>']*)", line):
            calls.append(re.sub(r"\s*2\^?$", "", match.group(1).strip()))
    return calls


def test_the_windows_file_runs_the_same_docker_commands():
    mac_calls = docker_calls(COMMAND.read_text())
    assert len(mac_calls) == 6 and "compose up -d" in mac_calls
    assert sorted(docker_calls(BATCH.read_bytes().decode("ascii"))) == sorted(mac_calls)


def test_the_windows_file_has_crlf_line_ends_and_says_the_same_things():
    raw = BATCH.read_bytes()
    assert raw.count(b"\n") == raw.count(b"\r\n") > 50
    text = raw.decode("ascii")
    for message in (
        "Docker is not installed",
        "Docker Desktop is not running",
        "Engine running",
        "could not be started",
        "does not answer",
        "The app stopped",
        "still not ready after",
        "The app's last messages:",
        "Demo logins",
        "to stop it: docker compose stop",
    ):
        assert message in text and message in COMMAND.read_text(), message
    assert 'set "WAIT_SECONDS=300"' in text and "WAIT_SECONDS=300" in COMMAND.read_text()
    assert 'start "" "http://localhost:%PORT%/"' in text
    assert text.rstrip().endswith("exit /b 0")


def test_the_start_files_are_executable_where_it_matters():
    assert os.access(COMMAND, os.X_OK)
    assert COMMAND.read_bytes().count(b"\r") == 0
