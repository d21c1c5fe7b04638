"""Which server errors an organisation's dashboard keeps and how it shows them (issue 46, row 4):
only real server errors (5xx), not requests the app answered as it should (400, 404); anonymous
requests have their own bucket, so that a flood of them keeps the errors the staff met; a path
is shown escaped and cut."""

import logging
import sys

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.urls import resolve

from tests.factories import tournament_data
from tests.support.server_errors import fail_in_a_view, two_sides
from tests.support.sides import make_side
from tournament import server_errors
from tournament.models import ServerError

pytestmark = pytest.mark.django_db


def anonymous_error(path):
    """What the handler records of an anonymous request to `path` that ended in a 500."""
    request = RequestFactory().get(path)
    request.resolver_match = resolve(path.split("?")[0])
    request.user = AnonymousUser()
    server_errors.record_error(request, RuntimeError("a bug"))


def handled(status_code):
    """A record of the request logger with an exception and the answer's status, as Django logs it."""
    request = RequestFactory().get("/t/alpha/")
    request.resolver_match = resolve("/t/alpha/")
    try:
        raise ValueError("bad input")
    except ValueError:
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "x", (), sys.exc_info())
    record.request, record.status_code = request, status_code
    server_errors.ServerErrorHandler().emit(record)


def test_a_request_answered_as_it_should_is_not_a_server_error():
    data = tournament_data(4)
    data["tournament"]["slug"] = "alpha"
    make_side("alpha", data)
    for status in (400, 403, 404):
        handled(status)
    assert not ServerError.objects.exists()
    handled(500)
    assert ServerError.objects.count() == 1


def test_an_anonymous_flood_does_not_push_out_the_errors_the_staff_met(monkeypatch):
    monkeypatch.setattr(server_errors, "KEPT", 5)
    a, _b = two_sides()
    fail_in_a_view(monkeypatch, a.client, "/staff/alpha/?staff=1")
    for number in range(60):
        anonymous_error(f"/t/alpha/?flood={number}")
    host_errors = ServerError.objects.filter(host=a.tournament.host)
    assert host_errors.filter(signed_in=True).count() == 1
    assert host_errors.filter(signed_in=False).count() == 5
    dashboard = a.client.get("/staff/alpha/").content.decode()
    assert "/staff/alpha/?staff=1" in dashboard  # shown first, before the newer anonymous ones


def test_a_stored_path_is_shown_escaped_and_cut(monkeypatch):
    a, _b = two_sides()
    path = "/t/alpha/?q=<script>alert(1)</script>" + "x" * 300 + "TAIL"
    ServerError.objects.create(host=a.tournament.host, method="GET", path=path, exception="x.Error")
    dashboard = a.client.get("/staff/alpha/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dashboard
    assert "<script>alert" not in dashboard and "TAIL" not in dashboard
