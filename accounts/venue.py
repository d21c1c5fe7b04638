"""The venue address: the address that tablets and phones use to reach this server.

Links printed on paper or shown as QR codes are opened on other devices, so they must never
carry a loopback address (127.0.0.1, localhost, ::1), which on a tablet means the tablet itself.
The address comes, in this order, from:

1. the PUBLIC_URL setting (e.g. ``http://192.168.1.10:8000``);
2. the venue address the tournament's organisers saved on its page (``accounts.TournamentVenue``,
   checked by `normalise_venue_address`): inside a container or on a hosted server the app
   cannot see the laptop's address, so it asks;
3. the request, when the browser reached the server by a non-loopback address;
4. this machine's address on the local network, when the browser used a loopback address and
   the server listens on the network (``make run HOST=0.0.0.0`` sets ``LISTEN_HOST``) outside
   a container (inside one, that address is the container's own, which no tablet can open);
5. else the loopback address itself, marked as such: the tablets' pages and sign-in sheet then
   warn the organiser and offer the venue address page, and make no sign-in link (no QR code)
   before the organiser asks for it anyway; score sheets and table cards are printed on paper
   only (no QR codes or links; see printing.views.links_venue).

A saved address never widens the names the server answers to (config/hosts.py): it is an IP
address, or a name the server already serves by its configuration.

The network address is found without sending anything: connect() on a UDP socket only asks
the operating system which local address it would use (no internet is needed at the venue).
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

# Destinations for the UDP connect() trick (never contacted): one per private range, so that a
# network without a default route is found too when the laptop has an address in that range.
PROBE_ADDRESSES = ("10.254.254.254", "192.168.254.254", "172.31.254.254")
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
ALL_INTERFACES = {"0.0.0.0", "::", "*"}


class PublicUrlError(ValueError):
    """PUBLIC_URL is not an http(s) address of this server."""


def check_public_url(value):
    """PUBLIC_URL without a trailing slash ('' when unset); PublicUrlError explains a bad value."""
    value = (value or "").strip()
    if not value:
        return ""
    example = "http://192.168.1.10:8000"
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise PublicUrlError(f"PUBLIC_URL must be an http:// or https:// address such as {example}; got {value!r}.")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise PublicUrlError(
            f"PUBLIC_URL must be only the scheme, the host and the port, such as {example}; got {value!r}."
        )
    return f"{parts.scheme}://{parts.netloc.lower()}"


def is_loopback(host):
    """True for a host name or address that means "this machine" (also 0.0.0.0, which browsers
    on the same machine accept but which no other device can use)."""
    host = (host or "").strip().lower().strip("[]")
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def lan_address():
    """This machine's IPv4 address on the local network, or None when it has none."""
    for probe in PROBE_ADDRESSES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
            except OSError:
                continue
        if not is_loopback(address) and not ipaddress.ip_address(address).is_link_local:
            return address
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        address = info[4][0]
        if not is_loopback(address) and not ipaddress.ip_address(address).is_link_local:
            return address
    return None


def in_container():
    """True when the server runs in the project's container image (it sets CONTAINER=1): this
    machine's network address is then the container's, not the laptop's."""
    return os.environ.get("CONTAINER", "").strip() == "1"


def network_host(listen_host):
    """The host other devices can use, given the address the server listens on; None when the
    server listens on loopback only, runs in a container, or its address is unknown."""
    listen_host = (listen_host or "").strip()
    if listen_host.strip("[]") in ALL_INTERFACES:
        return None if in_container() else lan_address()
    if not listen_host or is_loopback(listen_host):
        return None
    return listen_host


@dataclass(frozen=True)
class VenueAddress:
    """Where other devices reach the server: `base` ("http://192.168.1.10:8000") and `source`."""

    base: str
    source: str  # "setting" (PUBLIC_URL), "saved", "request", "network" or "loopback"

    @property
    def loopback(self):
        """Only this machine can open links with this address: warn instead of printing them."""
        return self.source == "loopback"

    def url(self, path):
        return self.base + path


def venue_address(request, tournament=None):
    """The VenueAddress for links made for `tournament` while answering `request` (see the module
    docstring); without a tournament no saved address applies."""
    # Imported here: the settings module imports this module.
    from django.conf import settings
    from django.http.request import split_domain_port

    if settings.PUBLIC_URL:
        source = "loopback" if is_loopback(urlsplit(settings.PUBLIC_URL).hostname) else "setting"
        return VenueAddress(settings.PUBLIC_URL, source)
    saved = saved_address(tournament) if tournament is not None else ""
    if saved:
        return VenueAddress(saved, "saved")
    base = browser_address(request)
    if base is not None:
        return VenueAddress(base, "request")
    host = request.get_host()
    _hostname, port = split_domain_port(host)
    network = network_host(settings.LISTEN_HOST)
    if network is None:
        return VenueAddress(f"{request.scheme}://{host}", "loopback")
    if ":" in network and not network.startswith("["):
        network = f"[{network}]"
    return VenueAddress(f"{request.scheme}://{network}{':' + port if port else ''}", "network")


def saved_address(tournament):
    """The venue address the tournament's organisers saved, or ''."""
    from accounts.models import TournamentVenue  # this module is imported by the settings

    return TournamentVenue.objects.filter(tournament=tournament).values_list("address", flat=True).first() or ""


def browser_address(request):
    """The address this request came to when another device could use it too, else None (the
    venue address page offers it with one click)."""
    from django.http.request import split_domain_port

    hostname, _port = split_domain_port(request.get_host())
    return None if is_loopback(hostname) else f"{request.scheme}://{request.get_host()}"


def absolute_url(request, tournament, path):
    """`path` (from reverse()) as a link for another device, made for `tournament`."""
    return venue_address(request, tournament).url(path)


def machine_names():
    """This machine's own name, as a browser on the local network may use it."""
    name = socket.gethostname().lower()
    return {name, f"{name}.local"} if name else set()


# ---------------------------------------------------------------- a venue address typed in


class VenueAddressError(ValueError):
    """Why a typed venue address is refused: `reason` is a key of
    accounts.forms.VenueAddressForm.REASONS, which words it."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


HOST_NAME = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*")
IPV4_LIKE = re.compile(r"(0x[0-9a-f]*|[0-9]+)")  # a last label browsers read as a number: an IPv4 address
DECIMAL_IPV4 = re.compile(r"[0-9]{1,3}(\.[0-9]{1,3}){3}")
ALLOWED_CHARACTERS = re.compile(r"[A-Za-z0-9.:/\[\]-]+")
DEFAULT_PORTS = {"http": 80, "https": 443}


def normalise_venue_address(value, *, served_names, secure=False):
    """The venue address `value` as links carry it ("http://192.168.1.23:8000"), or
    VenueAddressError: loopback in any spelling, an address no other device can use, a
    spelling browsers read differently (127.1, 0x7f.0.0.1, 0), a name this server does not
    serve by its configuration (`served_names`, as ALLOWED_HOSTS), or https on a server that
    speaks plain HTTP (`secure` False)."""
    value = (value or "").strip()
    if not ALLOWED_CHARACTERS.fullmatch(value):
        raise VenueAddressError("characters")
    if "://" not in value:
        value = f"http://{value}"
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        raise VenueAddressError("form") from None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") or parts.username:
        raise VenueAddressError("form")
    if parts.scheme == "https" and not secure:
        raise VenueAddressError("https")
    if port == 0:
        raise VenueAddressError("form")
    host = _normalised_host(parts.hostname, parts.netloc, served_names)
    port_part = "" if port in (None, DEFAULT_PORTS[parts.scheme]) else f":{port}"
    return f"{parts.scheme}://{host}{port_part}"


def _normalised_host(hostname, netloc, served_names):
    """The host part of a venue address as links carry it (an IPv6 address in brackets)."""
    from django.http.request import validate_host

    hostname = hostname.lower().rstrip(".") if not netloc.startswith("[") else hostname.lower()
    if netloc.startswith("["):
        try:
            address = ipaddress.IPv6Address(hostname)
        except ValueError:
            raise VenueAddressError("form") from None
        if address.ipv4_mapped is not None:
            return _usable_address(address.ipv4_mapped).compressed
        return f"[{_usable_address(address).compressed}]"
    if IPV4_LIKE.fullmatch(hostname.rsplit(".", 1)[-1]):
        if not DECIMAL_IPV4.fullmatch(hostname) or any(int(part) > 255 for part in hostname.split(".")):
            raise VenueAddressError("ambiguous")
        address = ipaddress.IPv4Address(".".join(str(int(part)) for part in hostname.split(".")))
        return _usable_address(address).compressed
    if is_loopback(hostname):
        raise VenueAddressError("loopback")
    if len(hostname) > 253 or not HOST_NAME.fullmatch(hostname):
        raise VenueAddressError("form")
    if not validate_host(hostname, list(served_names)):
        raise VenueAddressError("name")
    return hostname


def _usable_address(address):
    """`address` when another device on the network can open it, else VenueAddressError."""
    if address.is_loopback or address.is_unspecified:
        raise VenueAddressError("loopback")
    if address.is_link_local or address.is_multicast or address.is_reserved:
        raise VenueAddressError("unusable")
    return address


def startup_lines(listen_host, port, public_url):
    """What `make run` prints: the address for tablets and phones, or why there is none."""
    network = network_host(listen_host)
    local = f"http://127.0.0.1:{port}/"
    if public_url:
        return [f"Tablets and phones: {public_url}/ (PUBLIC_URL)", f"This computer: {local}"]
    if network:
        host = f"[{network}]" if ":" in network else network
        return [f"Tablets and phones (same network): http://{host}:{port}/", f"This computer: {local}"]
    if (listen_host or "").strip("[]") in ALL_INTERFACES and in_container():
        return [
            f"This computer: http://localhost:{port}/",
            "Tablets and phones: set the venue address on the organiser's pages (Venue address), or PUBLIC_URL.",
        ]
    if (listen_host or "").strip("[]") in ALL_INTERFACES:
        return [
            f"This computer: {local}",
            "No network address found: connect this computer to the venue's network (or set PUBLIC_URL).",
        ]
    return [
        f"This computer only: http://{listen_host}:{port}/",
        "Tablets and phones cannot reach it: start with `make run HOST=0.0.0.0` (or set PUBLIC_URL).",
    ]


def main(argv=None):
    """`python -m accounts.venue HOST PORT`: print where tablets and phones open the server."""
    import os
    import sys

    listen_host, port = (argv if argv is not None else sys.argv[1:])[:2]
    try:
        public_url = check_public_url(os.environ.get("PUBLIC_URL", ""))
    except PublicUrlError as error:
        print(error, file=sys.stderr)
        return 2
    print("\n".join(startup_lines(listen_host, port, public_url)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
