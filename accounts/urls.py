from django.contrib.auth import views as auth_views
from django.urls import path

from accounts.views import devices, staff, venue

app_name = "accounts"
urlpatterns = [
    path("login/", staff.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", staff.home, name="home"),
    path("venue/", venue.venue_page, name="venue"),
    path("device/sign-in/<str:token>/", devices.device_sign_in, name="device_sign_in"),
    path("device/<slug:slug>/", devices.device_links, name="device_links"),
    path("device/<slug:slug>/<int:link_id>/revoke/", devices.device_link_revoke, name="device_link_revoke"),
]
