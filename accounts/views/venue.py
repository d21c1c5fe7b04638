"""The venue address page: where tablets and phones reach this server (README, "Running at the venue")."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import VenueAddressForm
from accounts.roles import is_organiser_anywhere
from accounts.services import save_venue_address
from accounts.venue import browser_address, saved_address, venue_address
from tournament.navigation import return_path

FORGET = "forget"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def venue_page(request):
    """Show the address the links carry; save one typed in, the browser's own with one click, or none."""
    if not is_organiser_anywhere(request.user):
        raise PermissionDenied
    back = return_path(request, request.POST.get("next") or request.GET.get("next"), "")
    form = VenueAddressForm(request.POST if request.method == "POST" and FORGET not in request.POST else None)
    if request.method == "POST" and not settings.PUBLIC_URL:
        if FORGET in request.POST:
            save_venue_address("", user=request.user)
            messages.success(request, _("The saved venue address is forgotten."))
            return redirect(back or "accounts:venue")
        if form.is_valid():
            save_venue_address(form.cleaned_data["address"], user=request.user)
            messages.success(request, _("Tablets and phones now open the links at %(address)s.")
                             % {"address": form.cleaned_data["address"]})
            return redirect(back or "accounts:venue")
    context = {
        "form": form, "venue": venue_address(request), "saved": saved_address(), "offer": browser_address(request),
        "public_url": settings.PUBLIC_URL, "next": back, "port": request.get_port(),
    }
    return render(request, "accounts/venue.html", context)
