"""Server errors for the tests of the dashboard's notice and of which errors are kept: `two_sides`
are two organisations with their signed-in organisers, `fail_in_a_view` a request that ends in an
unhandled exception (a 500), as a bug would."""

from django.test import Client

from tests.factories import tournament_data
from tests.support.sides import make_side


def two_sides():
    """Organisations A and B, each with its tournament (alpha, beta) and its signed-in organiser."""
    sides = []
    for name in ("alpha", "beta"):
        data = tournament_data(4)
        data["tournament"]["slug"] = name
        side = make_side(name, data)
        side.client = Client(raise_request_exception=False)
        side.client.force_login(side.people["organiser"])
        sides.append(side)
    return sides


def fail_in_a_view(monkeypatch, client, path):
    """A request to `path` that ends in an unhandled exception (a 500), as a bug would."""

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the dashboard")

    with monkeypatch.context() as patch:
        patch.setattr("organiser.views.dashboard.decisions_to_review", broken)
        assert client.get(path).status_code == 500
