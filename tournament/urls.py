"""Organiser screens, mounted at /staff/."""

from django.urls import path

from tournament import views

app_name = "tournament"
urlpatterns = [
    path("", views.staff_home, name="home"),
    path("new/", views.tournament_create, name="create"),
    path("<slug:slug>/", views.dashboard, name="dashboard"),
    path("<slug:slug>/status/", views.dashboard_status, name="dashboard_status"),
    path("<slug:slug>/settings/", views.tournament_edit, name="settings"),
    path("<slug:slug>/players/", views.player_list, name="players"),
    path("<slug:slug>/players/import/", views.player_import, name="player_import"),
    path("<slug:slug>/players/check-in-everyone/", views.check_in_everyone, name="check_in_everyone"),
    path("<slug:slug>/players/<int:pk>/", views.player_detail, name="player"),
    path("<slug:slug>/players/<int:pk>/<slug:action>/", views.player_action, name="player_action"),
    path("<slug:slug>/draw/", views.draw, name="draw"),
    path("<slug:slug>/final/", views.seat_final, name="final"),
    path("<slug:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path("<slug:slug>/rounds/<int:number>/<slug:action>/", views.round_action, name="round_action"),
]
