from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import device_views, views

app_name = "accounts"
urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.home, name="home"),
    path("device/sign-in/<str:token>/", device_views.device_sign_in, name="device_sign_in"),
    path("device/<slug:slug>/", device_views.device_links, name="device_links"),
    path("device/<slug:slug>/<int:link_id>/revoke/", device_views.device_link_revoke, name="device_link_revoke"),
]
