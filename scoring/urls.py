"""Referee tablets under /referee/ (the public move timer is mounted in public.urls)."""

from django.urls import path

from scoring import views

app_name = "scoring"
SHEET = "<slug:slug>/round/<int:round_number>/table/<int:table_number>/"
GAME = SHEET + "game/<int:game_number>/"

urlpatterns = [
    path("<slug:slug>/", views.referee_home, name="home"),
    path("<slug:slug>/round/<int:round_number>/", views.referee_home, name="round"),
    path(SHEET, views.sheet_view, name="sheet"),
    path(GAME, views.game_save, name="game_save"),
    path(GAME + "preview/", views.game_preview, name="game_preview"),
    path(GAME + "override/", views.score_override, name="score_override"),
    path(SHEET + "submit/", views.sheet_submit, name="sheet_submit"),
    path(SHEET + "verify/", views.sheet_verify, name="sheet_verify"),
    path(SHEET + "log/", views.sheet_log, name="sheet_log"),
    path("<slug:slug>/players/", views.player_list, name="players"),
    path("<slug:slug>/player/<int:player_id>/", views.player_view, name="player"),
    path("<slug:slug>/player/<int:player_id>/card/", views.give_card, name="give_card"),
    path("<slug:slug>/ties/", views.ties, name="ties"),
]
