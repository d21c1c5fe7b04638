"""Staff sign-in, the staff home page and a friendly page for a failed CSRF check."""

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.roles import global_role
from accounts.selectors import granted_tournaments
from tournament.selectors import all_tournaments


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True


@login_required
def home(request):
    """Where a signed-in staff member lands: the tournaments they may work on."""
    if global_role(request.user) is not None:
        tournaments = all_tournaments()
    else:
        tournaments = granted_tournaments(request.user)
    return render(request, "accounts/home.html", {"tournaments": tournaments})


def csrf_failure(request, reason=""):
    """An expired tablet session should land on the login page, not on a raw 403."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:login')}?next={request.path}")
    context = {"message": _("The page had expired. Please go back, reload it and try again.")}
    return render(request, "accounts/csrf_failure.html", context, status=403)
