"""A service of host organisations with tournaments, for the lists' tests."""

import datetime

from tournament.models import HostOrganisation, Tournament


def service(hosts, each, *, first=0):
    """Host organisations `first`…`first + hosts - 1` ("Klub 000", …), `each` tournaments apiece."""
    made = []
    for h in range(first, first + hosts):
        host = HostOrganisation.objects.create(name=f"Klub {h:03}", slug=f"klub-{h:03}")
        for n in range(each):
            date = datetime.date(2020, 1, 1) + datetime.timedelta(days=7 * n + h)
            Tournament.objects.create(host=host, name=f"Turniej {h:03}-{n}", slug=f"t-{h:03}-{n}", date=date)
        made.append(host)
    return made
