"""The client's address, also behind the service's proxy (settings.PROXY, settings.PROXY_HOPS).

Without a proxy it is the connection's address (REMOTE_ADDR). Behind one, every request comes
from the proxy: each proxy appends the address it was reached from to X-Forwarded-For, so the
client's address is the entry PROXY_HOPS places from the right (1: the rightmost, which the one
proxy appended). Entries further left are whatever the client sent and are never trusted. A
header with fewer entries, or an entry that is no IP address, falls back to REMOTE_ADDR.

Django-axes throttles sign-ins by this address (AXES_CLIENT_IP_CALLABLE), and the setup code's
tries are counted by it: otherwise everyone behind the proxy shares one address and anyone could
lock anyone out.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address the request came from, as the trusted proxies saw it."""
    remote = request.META.get("REMOTE_ADDR", "")
    if not getattr(settings, "PROXY", False):
        return remote
    hops = max(1, int(getattr(settings, "PROXY_HOPS", 1)))
    entries = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(entries) < hops:
        return remote
    candidate = entries[-hops]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
