"""Sign-in throttling: django-axes locks one username from one IP address for a cool-off.
Behind the service's proxy that address is the client's (accounts/client_address.py), not the proxy's.

Only the password sign-in goes through `authenticate`; a device link signs its tablet in
directly, so wrong passwords can never block a tablet's link.
"""

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.shortcuts import render


class SignInThrottleBackend(AxesStandaloneBackend):
    """Axes' check for web sign-ins; an authentication without a request (a management
    command, the test client's `login`) is no web sign-in and is left to the next backend."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


USERNAME_KEPT = 255  # characters of a user name axes records (its column); no account's is longer than 150


def throttled_username(request, credentials=None):
    """The user name axes records and locks (AXES_USERNAME_CALLABLE): the one typed, as axes
    reads it by default, cut to its column. A longer one was a server error on PostgreSQL; no
    account has one, so the sign-in fails as for any unknown name."""
    field = settings.AXES_USERNAME_FORM_FIELD
    username = credentials.get(field) if credentials else getattr(request, "data", request.POST).get(field)
    return None if username is None else str(username)[:USERNAME_KEPT]


def locked_out(request, original_response=None, credentials=None):
    """The page for a locked sign-in: who is locked, for how long, and that others are not."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    context = {"username": username[:150], "minutes": minutes}
    return render(request, "accounts/signin_locked.html", context, status=429)
