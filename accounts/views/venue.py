"""The venue address pages: where tablets and phones reach this server for one tournament's links
(docs/venue/network.md), and the address the server asks itself at to check it answers."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from accounts import venue_check
from accounts.forms import VenueAddressForm
from accounts.models import Role
from accounts.roles import staff_required
from accounts.selectors import organised_tournaments
from accounts.services import save_venue_address
from accounts.venue import browser_address, saved_address, venue_address
from tournament.navigation import return_path

FORGET = "forget"
CHECK_AGAIN = "check"


@require_safe
@login_required
def venue_chooser(request):
    """`/accounts/venue/`: the venue address is a tournament's; one tournament goes straight to
    its page, several are listed."""
    page = organised_tournaments(request.user, number=request.GET.get("page"))
    if not page.object_list:
        raise PermissionDenied
    back = return_path(request, request.GET.get("next"), "")
    query = f"?{urlencode({'next': back})}" if back else ""
    if page.sole():
        return redirect(reverse("accounts:venue", args=[page.sole().slug]) + query)
    context = {"page": page, "tournaments": page.object_list, "query": query}
    return render(request, "accounts/venue_chooser.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@staff_required(Role.ORGANISER)
def venue_page(request, tournament):
    """Show the address the tournament's links carry and whether it answers; save one typed in,
    the browser's own with one click, or none."""
    back = return_path(request, request.POST.get("next") or request.GET.get("next"), "")
    here = reverse("accounts:venue", args=[tournament.slug])
    posting = request.method == "POST" and not settings.PUBLIC_URL
    if posting and FORGET in request.POST:
        save_venue_address(tournament, "", user=request.user)
        messages.success(request, _("The saved venue address is forgotten."))
        return redirect(back or here)
    form = VenueAddressForm(request.POST if posting else None, secure=request.is_secure())
    if posting and form.is_valid():
        address = form.cleaned_data["address"]
        save_venue_address(tournament, address, user=request.user)
        venue_check.forget(address)
        checked = venue_check.check(address)
        if checked is not None and not checked.answers:
            messages.warning(
                request,
                _("The address %(address)s is saved, but the server does not answer there yet.") % {"address": address},
            )
            return redirect(f"{here}?{urlencode({'next': back})}" if back else here)
        messages.success(request, _("Tablets and phones now open the links at %(address)s.") % {"address": address})
        return redirect(back or here)
    venue = venue_address(request, tournament)
    if request.GET.get(CHECK_AGAIN):
        venue_check.forget(venue.base)
    context = {
        "tournament": tournament,
        "form": form,
        "venue": venue,
        "saved": saved_address(tournament),
        "offer": browser_address(request),
        "public_url": settings.PUBLIC_URL,
        "next": back,
        "port": request.get_port(),
        "venue_check": venue_check.check_venue(venue),
    }
    return render(request, "accounts/venue.html", context)


@never_cache
@require_safe
def venue_check_answer(request, nonce):
    """The answer to a nonce this server made (accounts.venue_check); 404 for any other."""
    answer = venue_check.answer(nonce)
    if answer is None:
        raise Http404("not a nonce of this server")
    return HttpResponse(answer, content_type="text/plain")
