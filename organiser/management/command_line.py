"""What the commands share: the tournament and the host organisation named on the command line,
and a file that cannot be written turned into a clear error (exit status 1, no traceback)."""

from pathlib import Path

from django.core.management.base import CommandError

from tournament.selectors import all_host_organisations, host_with_slug, tournament_with_slug


def tournament_by_slug(slug):
    tournament = tournament_with_slug(slug)
    if tournament is None:
        raise CommandError(f"no tournament {slug!r}")
    return tournament


def add_organisation_argument(parser):
    parser.add_argument(
        "--organisation",
        metavar="SLUG",
        help="the short address of the host organisation the tournament goes into (needed when there are several)",
    )


def host_organisation(slug):
    """The host organisation named by `--organisation`; without it, the server's only one (None on
    a fresh server: the first tournament makes it). A CommandError names the choices."""
    hosts = all_host_organisations()
    choices = ", ".join(host.slug for host in hosts)
    if slug:
        host = host_with_slug(slug)
        if host is None:
            raise CommandError(f"no host organisation {slug!r}; the organisations are: {choices or 'none yet'}")
        return host
    if len(hosts) > 1:
        raise CommandError(f"this server has several host organisations: name one with --organisation ({choices})")
    return hosts[0] if hosts else None


def write_file(out, data):
    try:
        Path(out).write_bytes(data)
    except OSError as error:
        raise CommandError(f"cannot write {out}: {error.strerror or error}") from error
