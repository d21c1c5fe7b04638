"""The first organiser account of a fresh install (accounts/first_run.py)."""

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts import first_run
from accounts.client_address import client_address
from accounts.forms import FirstOrganiserForm
from accounts.services import create_first_organiser
from tournament.refusals import Refused


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def setup(request):
    """Create the first organiser with the setup code; once one exists, this is the sign-in page.
    A hosted service has no such page."""
    if not first_run.setup_exists():
        raise Http404
    if not first_run.needs_setup():
        return redirect("accounts:login")
    form = FirstOrganiserForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            user = create_first_organiser(
                code=data["code"],
                username=data["username"],
                password=data["password"],
                address=client_address(request),
                organisation=data["organisation"],
            )
        except Refused as refusal:
            if refusal.code == "setup_done":
                return redirect("accounts:login")
            form.add_error(refusal.field, refusal.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Your organiser account is ready. Create your first tournament."))
            return redirect("organiser:home")
    return render(request, "accounts/setup.html", {"form": form, "code_gone": not first_run.code_kept()})
