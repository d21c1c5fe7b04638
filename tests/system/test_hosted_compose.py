"""The operator's files for a hosted service: compose.hosted.yaml and deploy/haproxy.cfg.

Read as text (the virtual environment has no YAML parser, and `make hosted-test` runs the real
HAProxy with this configuration): every service is there with its health check, the app servers
start after the release step, the proxy checks its servers actively, and the page it checks
answers 200 without a session.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "compose.hosted.yaml").read_text(encoding="utf-8")
HAPROXY = "\n".join(
    line
    for line in (ROOT / "deploy" / "haproxy.cfg").read_text(encoding="utf-8").splitlines()
    if not line.lstrip().startswith("#")
)
ENV_EXAMPLE = (ROOT / "deploy" / "hosted.env.example").read_text(encoding="utf-8")
SERVICES = {"postgres", "redis", "release", "app1", "app2", "worker", "proxy"}


def services():
    """{service: its lines} of compose.hosted.yaml's `services:` section (comments left out)."""
    section = COMPOSE.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    found, name = {}, None
    for line in section.splitlines():
        if line.lstrip().startswith("#") or not line.strip():
            continue
        match = re.match(r"^  ([\w-]+):(.*)$", line)
        if match:
            name = match.group(1)
            found[name] = [match.group(2)]
        else:
            found[name].append(line)
    return {service: "\n".join(lines) for service, lines in found.items()}


def test_the_service_has_its_seven_parts_each_with_a_health_check():
    found = services()
    assert set(found) == SERVICES
    assert found["app2"].strip() == "*app-server"  # the same service as app1
    for name in SERVICES - {"app2", "release"}:
        assert "healthcheck:" in found[name] and "test:" in found[name], name
    assert "disable: true" in found["release"]  # a one-shot step, not a server


def test_the_app_servers_start_after_the_release_step_and_in_hosted_mode():
    found = services()
    assert 'command: ["bin/serve", "release"]' in found["release"]
    assert 'restart: "no"' in found["release"]
    assert re.search(r"release:\s+condition: service_completed_successfully", found["app1"])
    assert re.search(r"release:\s+condition: service_completed_successfully", found["worker"])
    assert 'command: ["bin/serve", "worker"]' in found["worker"]
    shared = COMPOSE.split("x-app: &app", 1)[1].split("\nservices:", 1)[0]
    for setting in ('HOSTED: "1"', 'PROXY: "1"', 'PROXY_HOPS: "1"', "REDIS_URL: redis://redis:6379/0"):
        assert setting in shared
    assert "env_file: hosted.env" in shared
    for name in ("release", "app1", "worker"):
        assert "<<: *app" in found[name], name


def test_the_env_file_example_names_what_the_app_requires():
    names = set(re.findall(r"^([A-Z_]+)=", ENV_EXAMPLE, flags=re.M))
    assert {"SECRET_KEY", "DATABASE_URL", "POSTGRES_PASSWORD", "PUBLIC_URL", "RUMMIKUB_IMAGE"} <= names


def test_the_proxy_checks_its_servers_and_retries_on_the_other():
    assert re.search(r"^\s+default-server inter 500 fall 2 rise 1\b", HAPROXY, flags=re.M)
    assert re.search(r"^\s+retry-on conn-failure empty-response$", HAPROXY, flags=re.M)
    assert re.search(r"^\s+option redispatch 1$", HAPROXY, flags=re.M)
    assert re.search(r"^\s+option httpchk$", HAPROXY, flags=re.M)
    assert re.findall(r'^\s+server (app\d) "\$\{(APP\d)\}" check$', HAPROXY, flags=re.M) == [
        ("app1", "APP1"),
        ("app2", "APP2"),
    ]


def test_compose_gives_the_proxy_every_setting_its_configuration_reads():
    read = set(re.findall(r'"\$\{(\w+)(?:\[\*\])?\}"', HAPROXY))
    proxy = services()["proxy"]
    given = set(re.findall(r"^\s+(\w+): ", proxy.split("environment:", 1)[1].split("volumes:", 1)[0], flags=re.M))
    assert read == given == {"PROXY_BIND", "PROXY_TLS", "PROXY_HTTP_BIND", "APP1", "APP2", "STATS_SOCKET"}
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in proxy
    assert "./deploy/errors:/usr/local/etc/haproxy/errors:ro" in proxy  # its own 503 page


def test_plain_http_is_redirected_to_https_and_a_proxy_without_servers_answers_its_own_503():
    plain = HAPROXY.split("frontend plain_http", 1)[1].split("frontend web", 1)[0]
    assert 'bind "${PROXY_HTTP_BIND}"' in plain and "http-request redirect scheme https code 301" in plain
    page = (ROOT / "deploy" / "errors" / "rummikub-503.http").read_bytes()
    head, body = page.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 503 ") and b"\r\nRetry-After: 5" in head
    assert f"Content-Length: {len(body)}".encode() in head
    assert "Chwileczkę" in body.decode() and "A moment, please" in body.decode()
    assert re.search(r"^\s+errorfile 503 errors/rummikub-503.http$", HAPROXY, flags=re.M)


READ = re.compile(r"""(?:environ\.get|environ\[|env_flag)\(?\s*["']([A-Z][A-Z_]+)["']""")


def test_the_env_file_example_lists_every_variable_the_service_reads():
    code = [
        path
        for app in ("config", "accounts", "tournament", "organiser", "public", "printing", "scoring")
        for path in (ROOT / app).rglob("*.py")
    ]
    read = {name for path in code for name in READ.findall(path.read_text(encoding="utf-8"))}
    read |= set(re.findall(r'"\$\{(\w+)(?:\[\*\])?\}"', HAPROXY))
    listed = set(re.findall(r"^(?:# )?([A-Z][A-Z0-9_]+)=", ENV_EXAMPLE, flags=re.M))
    assert read - listed == set()
    assert {"STATEMENT_TIMEOUT", "WORKER_STATEMENT_TIMEOUT", "HOSTED", "PROXY", "PROXY_HOPS", "REDIS_URL"} <= read


@pytest.mark.django_db
def test_the_page_the_proxy_checks_answers_without_a_session(client):
    check = re.search(r"http-check send meth GET uri (\S+) ver HTTP/1.1 hdr Host (\S+)", HAPROXY)
    assert check
    path, host = check.groups()
    assert client.get(path, HTTP_HOST=host, HTTP_X_FORWARDED_PROTO="https").status_code == 200


def unit_lines(name):
    text = (ROOT / "deploy" / "systemd" / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_the_systemd_units_start_the_same_parts_from_one_settings_file():
    """Without containers: the release step once (a oneshot the servers and the worker require), an
    app server per port, the worker, and Debian's HAProxy, all reading /etc/rummikub/hosted.env."""
    release = unit_lines("rummikub-release.service")
    assert {"Type=oneshot", "RemainAfterExit=yes", "ExecStart=/opt/rummikub/bin/serve release"} <= set(release)
    app = unit_lines("rummikub-app@.service")
    assert {"ExecStart=/opt/rummikub/bin/serve", "Environment=PORT=%i", "Requires=rummikub-release.service"} <= set(app)
    worker = unit_lines("rummikub-worker.service")
    assert {"ExecStart=/opt/rummikub/bin/serve worker", "Requires=rummikub-release.service"} <= set(worker)
    for lines in (release, app, worker, unit_lines("haproxy.service.d/rummikub.conf")):
        assert "EnvironmentFile=/etc/rummikub/hosted.env" in lines
    for lines in (release, app, worker):
        assert "User=rummikub" in lines
        assert any(line.startswith("Environment=") and "VAR_DIR=/var/lib/rummikub/" in line for line in lines)
