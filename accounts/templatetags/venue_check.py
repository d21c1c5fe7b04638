"""`{% venue_unanswered venue_check tournament %}`: the warning when a tournament's saved venue
address does not answer (accounts.venue_check), with what to do; `{% dashboard_venue_warning
tournament %}` shows the last known result, asking only when none is known (the dashboard must
not wait)."""

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.http import urlencode

from accounts.venue import in_container, venue_address
from accounts.venue_check import known_venue_check

register = template.Library()
TEMPLATE = "accounts/_venue_unanswered.html"


@register.inclusion_tag(TEMPLATE, takes_context=True)
def venue_unanswered(context, checked, tournament):
    request = context["request"]
    page = reverse("accounts:venue", args=[tournament.slug])
    back = request.GET.get("next", "") if request.path == page else request.get_full_path()
    again = f"{page}?{urlencode({'check': 1, **({'next': back} if back else {})})}"
    return {"venue_check": checked, "container": in_container(), "again": again, "on_venue_page": request.path == page}


@register.inclusion_tag(TEMPLATE, takes_context=True)
def dashboard_venue_warning(context, tournament):
    if not settings.VENUE_CHECK_TIMEOUT:
        return {}
    return venue_unanswered(context, known_venue_check(venue_address(context["request"], tournament)), tournament)
