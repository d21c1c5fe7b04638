"""Referee tablets under /referee/."""

from django.urls import path

from scoring.views import players, sheets, ties

app_name = "scoring"
SHEET = "<slug:slug>/round/<int:round_number>/table/<int:table_number>/"
GAME = SHEET + "game/<int:game_number>/"

urlpatterns = [
    path("<slug:slug>/", sheets.referee_home, name="home"),
    path("<slug:slug>/round/<int:round_number>/", sheets.referee_home, name="round"),
    path(SHEET, sheets.sheet_view, name="sheet"),
    path(GAME, sheets.game_save, name="game_save"),
    path(GAME + "preview/", sheets.game_preview, name="game_preview"),
    path(GAME + "override/", sheets.score_override, name="score_override"),
    path(SHEET + "submit/", sheets.sheet_submit, name="sheet_submit"),
    path(SHEET + "verify/", sheets.sheet_verify, name="sheet_verify"),
    path(SHEET + "log/", sheets.sheet_log, name="sheet_log"),
    path("<slug:slug>/players/", players.player_list, name="players"),
    path("<slug:slug>/player/<int:player_id>/", players.player_view, name="player"),
    path("<slug:slug>/player/<int:player_id>/card/", players.give_card, name="give_card"),
    path("<slug:slug>/player/<int:player_id>/card/withdraw/", players.withdraw_card, name="withdraw_card"),
    path("<slug:slug>/ties/", ties.ties, name="ties"),
]
