"""The venue self-check asks the saved address only (issue 46, row 6): a redirect there is "does
not answer as this server" and is never followed, so a server at a LAN address cannot send this
one to its own loopback or anywhere else; on a hosted service the check is off unless the
operator allows it (VENUE_CHECK=1)."""

import http.server
import threading

import pytest

from accounts import venue_check
from tests.support.hosted import HOSTED, start


class Recorder(http.server.BaseHTTPRequestHandler):
    """Answers every GET with `self.server.answer` (a status and headers) and records its path."""

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.server.asked.append(self.path)
        status, headers = self.server.answer
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def servers():
    """Two loopback HTTP servers: `inner` (an internal address) and `lan`, which redirects to it."""
    started = []
    for _ in range(2):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
        server.asked, server.answer = [], (200, {})
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
    inner, lan = started
    lan.answer = (302, {"Location": f"http://127.0.0.1:{inner.server_port}/admin/secret/"})
    yield inner, lan
    for server in started:
        server.shutdown()
        server.server_close()


def test_a_redirect_is_not_followed_and_is_no_answer(servers):
    inner, lan = servers
    assert venue_check.ask(f"http://127.0.0.1:{lan.server_port}", 2) is False
    assert len(lan.asked) == 1 and lan.asked[0].startswith("/accounts/venue-check/")
    assert inner.asked == []  # the internal address was never asked


@pytest.mark.parametrize("status", [301, 303, 307, 308])
def test_no_kind_of_redirect_is_followed(servers, status):
    inner, lan = servers
    lan.answer = (status, {"Location": f"http://127.0.0.1:{inner.server_port}/"})
    assert venue_check.ask(f"http://127.0.0.1:{lan.server_port}", 2) is False
    assert inner.asked == []


def test_a_hosted_service_checks_no_venue_address_unless_the_operator_allows_it(tmp_path):
    code = "from django.conf import settings; print(settings.VENUE_CHECK_TIMEOUT)"
    assert start(tmp_path / "off", code, **HOSTED).stdout.split()[-1] == "0.0"
    assert start(tmp_path / "on", code, **HOSTED, VENUE_CHECK="1").stdout.split()[-1] == "2.0"
    assert start(tmp_path / "laptop", code).stdout.split()[-1] == "2.0"
