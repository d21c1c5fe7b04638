"""A hosted service's settings (HOSTED=1): it refuses to start without what its app servers must
share, never makes a secret key file, logs one line per event to standard output, and turns on
Sentry when asked. Each start is a fresh process, as a server's is; nothing is connected to."""

import json

import pytest

from tests.support.hosted import HOSTED, start


def last_line(result):
    return result.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "left_out, named",
    [
        ({"SECRET_KEY": ""}, "SECRET_KEY"),
        ({"DATABASE_URL": ""}, "DATABASE_URL"),
        ({"DATABASE_URL": "sqlite:///db.sqlite3"}, "DATABASE_URL"),
        ({"REDIS_URL": ""}, "REDIS_URL"),
    ],
)
def test_a_hosted_start_without_what_the_servers_share_stops_and_names_it(tmp_path, left_out, named):
    result = start(tmp_path, "print('started')", **{**HOSTED, **left_out})
    assert result.returncode != 0 and "started" not in result.stdout
    assert "ImproperlyConfigured" in last_line(result) and named in last_line(result)
    assert not (tmp_path / "secret_key").exists()


def test_all_that_is_missing_is_named_on_one_line(tmp_path):
    result = start(tmp_path, "pass", HOSTED="1")
    assert "HOSTED=1" in last_line(result)
    assert all(name in last_line(result) for name in ("SECRET_KEY", "DATABASE_URL", "REDIS_URL"))


def test_two_hosted_servers_with_the_same_key_accept_each_others_signatures_and_write_no_key(tmp_path):
    """A session signed on one server is good on the other: no key file per machine."""
    one, other = tmp_path / "one", tmp_path / "other"
    one.mkdir(), other.mkdir()
    signed = start(one, "from django.core import signing; print(signing.dumps({'staff': 'anna'}))", **HOSTED)
    assert signed.returncode == 0, signed.stderr
    token = signed.stdout.strip()
    read = start(other, f"from django.core import signing; print(signing.loads({token!r})['staff'])", **HOSTED)
    assert read.returncode == 0, read.stderr
    assert read.stdout.strip() == "anna"
    assert not (one / "secret_key").exists() and not (other / "secret_key").exists()


def test_a_hosted_server_logs_one_json_line_per_event_and_writes_no_log_file(tmp_path):
    code = (
        "import logging\n"
        "try:\n    1 / 0\n"
        "except ZeroDivisionError:\n    logging.getLogger('django.request').exception('Internal Server Error: /x/')\n"
        "from django.conf import settings; print(settings.HOSTED, settings.ERROR_LOG)"
    )
    result = start(tmp_path, code, **HOSTED)
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "True None"
    event = json.loads(lines[0])
    assert (event["level"], event["logger"], event["message"]) == (
        "ERROR",
        "django.request",
        "Internal Server Error: /x/",
    )
    assert "ZeroDivisionError" in event["traceback"] and "Traceback" in event["traceback"]
    assert len(lines) == 2 and result.stderr == ""
    assert not (tmp_path / "log").exists()


def test_the_laptop_keeps_its_error_file_and_is_not_hosted(tmp_path):
    result = start(tmp_path, "from django.conf import settings; print(settings.HOSTED, settings.ERROR_LOG)")
    assert result.stdout.strip() == f"False {tmp_path / 'log' / 'errors.log'}"


def test_sentry_is_on_when_a_dsn_is_set_without_personal_data(tmp_path):
    code = (
        "import sentry_sdk; client = sentry_sdk.get_client(); "
        "print(client.is_active(), client.options['send_default_pii'], "
        "'django' in client.integrations)"
    )
    with_dsn = start(tmp_path, code, **HOSTED, SENTRY_DSN="https://public@sentry.invalid/1")
    assert with_dsn.stdout.strip() == "True False True", with_dsn.stderr
    assert start(tmp_path, code, **HOSTED).stdout.strip().startswith("False")
