from django.contrib.auth import views as auth_views
from django.urls import path

from accounts.views import devices, first_run, operator, staff, staff_members, team, venue

app_name = "accounts"
urlpatterns = [
    path("login/", staff.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", staff.home, name="home"),
    path("venue/", venue.venue_chooser, name="venue_chooser"),
    path("venue/<slug:slug>/", venue.venue_page, name="venue"),
    path("venue-check/<str:nonce>/", venue.venue_check_answer, name="venue_check"),
    path("setup/", first_run.setup, name="setup"),
    path("staff/<slug:slug>/", staff_members.staff_members, name="staff_members"),
    path("staff/<slug:slug>/<int:grant_id>/remove/", staff_members.staff_member_remove, name="staff_member_remove"),
    path("staff/<slug:slug>/restore/", staff_members.staff_member_restore, name="staff_member_restore"),
    path("team/", team.team_home, name="team_home"),
    path("team/<slug:host>/", team.team, name="team"),
    path("team/<slug:host>/member/<int:membership_id>/", team.team_member, name="team_member"),
    path("team/<slug:host>/restore/", team.team_restore, name="team_restore"),
    path("team/<slug:host>/invite/", team.invite, name="invite"),
    path("team/<slug:host>/invitation/send/", team.invitation_send, name="invitation_send"),
    path("team/<slug:host>/invitation/<int:invitation_id>/revoke/", team.invitation_revoke, name="invitation_revoke"),
    path("invitation/<str:invitation_token>/", team.invitation, name="invitation"),
    path("operator/organisations/", operator.organisations, name="operator_organisations"),
    path("operator/organisations/send/", operator.set_password_send, name="set_password_send"),
    path("set-password/<uidb64>/<token>/", operator.SetPasswordView.as_view(), name="set_password"),
    path("device/sign-in/<str:token>/", devices.device_sign_in, name="device_sign_in"),
    path("device/<slug:slug>/", devices.device_links, name="device_links"),
    path("device/<slug:slug>/<int:link_id>/revoke/", devices.device_link_revoke, name="device_link_revoke"),
]
