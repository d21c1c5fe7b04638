"""URL map: public pages at /, staff under /staff/ (organiser) and /referee/, PDFs under /print/."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("staff/", include("tournament.urls")),
    path("referee/", include("scoring.urls")),
    path("print/", include("printing.urls")),
    path("", include("public.urls")),
]
