from django.urls import path

from public import entry_pages, season_pages, views

app_name = "public"
urlpatterns = [
    path("", views.home, name="home"),
    path("language/", views.switch_language, name="language"),
    path("help/", views.help_index, name="help"),
    path("help/organiser/", views.help_page, {"role": "organiser"}, name="help_organiser"),
    path("help/head-referee/", views.help_page, {"role": "head-referee"}, name="help_head_referee"),
    path("help/referee/", views.help_page, {"role": "referee"}, name="help_referee"),
    path("o/<slug:host>/", views.organisation_page, name="organisation"),
    path("s/<slug:season>/", season_pages.season_standings, name="season"),
    path("s/<slug:season>/person/<str:uid>/", season_pages.season_person, name="season_person"),
    path("t/<slug:slug>/", views.tournament_page, name="tournament"),
    path("t/<slug:slug>/entry/", entry_pages.entry_form, name="entry"),
    path("t/<slug:slug>/entry/sent/", entry_pages.entry_sent, name="entry_sent"),
    path("t/<slug:slug>/entry/<str:token>/", entry_pages.entry_detail, name="entry_detail"),
    path("t/<slug:slug>/entry/<str:token>/confirm/", entry_pages.entry_confirm, name="entry_confirm"),
    path("t/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("t/<slug:slug>/standings.json", views.standings_json_view, name="standings_json"),
    path("t/<slug:slug>/player/<path:ext_id>/", views.player_page, name="player"),
    path("t/<slug:slug>/round/<int:number>/", views.round_page, name="round"),
    path("t/<slug:slug>/projector/", views.projector_page, name="projector"),
    path("t/<slug:slug>/ceremony/", views.ceremony_page, name="ceremony"),
    path("t/<slug:slug>/results-control/", views.results_control, name="results_control"),
    path("t/<slug:slug>/timer", views.move_timer, name="timer"),
    path("t/<slug:slug>/clock/", views.round_clock, name="round_clock"),
]
