"""Device links: the organiser creates, shows (QR code) and revokes them; a tablet signs in.

The sign-in link is `/accounts/device/sign-in/<token>/`: GET shows a confirmation page, POST
exchanges the token for a session and redirects to the referee pages (a URL without the token).
The exchange happens once; the tablet it signed in may open the link again and is sent on to
its pages, any other device is told to ask for a new link.
"""

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import venue_check
from accounts.devices import sign_in_url
from accounts.forms import DeviceLinkForm, DeviceSheetForm
from accounts.models import Role
from accounts.roles import staff_required
from accounts.selectors import find_link, link_or_404, tournament_links, usable_link
from accounts.services import create_device_link, redeem_device_link, revoke_device_link
from accounts.venue import venue_address

NEW_LINK_SESSION_KEY = "device_link_new"
# The organiser's answer when the links would carry this computer's own address (127.0.0.1):
# make the link anyway (the same answer as printing's "print anyway").
LOOPBACK_ANYWAY = ("address", "loopback")
# Pages that show a token send only the site's origin as the referrer, never their URL.
# ("no-referrer" would make the browser send `Origin: null` with the page's own form, which
# Django's CSRF check refuses.)
REFERRER_POLICY = "origin"


def qr_svg(url):
    """The link as an inline SVG QR code (dark on white, with a quiet zone)."""
    return mark_safe(segno.make(url, error="m").svg_inline(scale=6, dark="#000", light="#fff", border=4))


@never_cache
@staff_required(Role.ORGANISER)
def device_links(request, tournament):
    """Create a link (shown once, as a QR code), list the links, revoke them.

    The page says which address the links carry, and warns when only this computer can open it:
    then no link is made (its QR code would open the tablet itself) until the organiser, warned,
    asks for it anyway, as printing does for the tablets' sheet.
    """
    form = DeviceLinkForm(request.POST or None)
    venue = venue_address(request, tournament)
    confirm_loopback = False
    if request.method == "POST" and form.is_valid():
        confirm_loopback = venue.loopback and request.POST.get(LOOPBACK_ANYWAY[0]) != LOOPBACK_ANYWAY[1]
    if request.method == "POST" and form.is_valid() and not confirm_loopback:
        link, token = create_device_link(
            tournament,
            label=form.cleaned_data["label"],
            valid_hours=form.cleaned_data["valid_hours"],
            created_by=request.user,
        )
        # Kept for the next page view only: the token itself is never stored.
        request.session[NEW_LINK_SESSION_KEY] = {"id": link.pk, "token": token}
        return redirect("accounts:device_links", slug=tournament.slug)
    links = tournament_links(tournament)
    shown = request.session.pop(NEW_LINK_SESSION_KEY, None)
    shown_link = next((link for link in links if shown and link.pk == shown["id"]), None)
    new_link = None
    if shown_link is not None:
        url = sign_in_url(request, tournament, shown["token"])
        new_link = {"link": shown_link, "url": url, "qr": qr_svg(url)}
    now = timezone.now()
    context = {
        "tournament": tournament,
        "form": form,
        "sheet_form": DeviceSheetForm(auto_id="sheet_%s"),
        "new_link": new_link,
        "links": links,
        "now": now,
        "venue": venue,
        "venue_check": venue_check.check_venue(venue),
        "confirm_loopback": confirm_loopback,
        "anyway": LOOPBACK_ANYWAY,
        "active_count": sum(link.is_usable(now) for link in links),
    }
    response = render(request, "accounts/device_links.html", context)
    response["Referrer-Policy"] = REFERRER_POLICY
    return response


@require_POST
@staff_required(Role.ORGANISER)
def device_link_revoke(request, tournament, link_id):
    link = link_or_404(tournament, link_id)
    revoke_device_link(link, revoked_by=request.user)
    messages.success(request, _("The link “%(label)s” is revoked; that tablet is signed out.") % {"label": link.label})
    return redirect("accounts:device_links", slug=tournament.slug)


def _refusal(request, token):
    """The page for a token that signs nothing in: already used (410) or unknown, expired, revoked (404)."""
    link = find_link(token)
    if link is not None and link.used_at is not None and link.revoked_at is None and link.expires_at > timezone.now():
        return render(request, "accounts/device_used.html", {"link": link}, status=410)
    return render(request, "accounts/device_invalid.html", status=404)


@never_cache
def device_sign_in(request, token):
    """GET: confirm which tournament this tablet joins. POST: sign in and leave the token URL."""
    signed_in = find_link(token)
    if signed_in is not None and request.user.is_authenticated and request.user.pk == signed_in.user_id:
        response = redirect("scoring:home", slug=signed_in.tournament.slug)  # this tablet, opening its link again
        response["Referrer-Policy"] = REFERRER_POLICY
        return response
    if request.method == "POST":
        link = redeem_device_link(token)
    else:
        link = usable_link(token)
    if link is None:
        response = _refusal(request, token)
    elif request.method == "POST":
        login(request, link.user, backend="django.contrib.auth.backends.ModelBackend")
        request.session.set_expiry(link.expires_at)
        response = redirect("scoring:home", slug=link.tournament.slug)
    else:
        response = render(request, "accounts/device_confirm.html", {"link": link, "tournament": link.tournament})
    response["Referrer-Policy"] = REFERRER_POLICY
    return response
