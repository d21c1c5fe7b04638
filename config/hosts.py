"""Which host names the server answers to (docs/venue/network.md).

A request is served when its Host is a loopback name, an IP address (tablets type or scan the
laptop's address, which a container does not know in advance), this machine's own name, or a
name in `settings.SERVED_HOSTS` (ALLOWED_HOSTS and PUBLIC_URL's). Any other name is answered 400
before anything reads the request: a web page that a player's phone opened cannot reach the
laptop under a name of its own (DNS rebinding). Nothing an organiser saves changes this list: a
tournament's venue address is an IP address or one of these names (accounts.venue).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port, validate_host

from accounts.venue import is_loopback, machine_names


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


class HostCheckMiddleware:
    """400 for a request whose Host is none of the names this server answers to."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.names = [*settings.SERVED_HOSTS, *machine_names()]

    def __call__(self, request: HttpRequest) -> HttpResponse:
        host, _port = split_domain_port(request.get_host())
        if not self.served(host):
            raise DisallowedHost(f"Host {request.get_host()!r} is not one this server answers to.")
        return self.get_response(request)

    def served(self, host: str) -> bool:
        if not host:
            return False
        return is_loopback(host) or is_address(host) or validate_host(host, self.names)
