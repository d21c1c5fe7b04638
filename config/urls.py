"""URL map: public pages at /, staff under /staff/ (organiser) and /referee/, PDFs under /print/."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from config.health import healthz


class FaviconView(RedirectView):
    """/favicon.ico, asked for by browsers on pages without an icon link (the move timer, PDFs)."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs):
        return static("favicon.ico")


urlpatterns = [
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
    path("healthz", healthz, name="healthz"),  # the proxy's health check (config/health.py)
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("staff/", include("organiser.urls")),
    path("referee/", include("scoring.urls")),
    path("print/", include("printing.urls")),
    path("", include("public.urls")),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
