"""PDFs under /print/<slug>/: staff documents, the public ones under public/, and the print menu;
the staff help under /print/help/."""

from django.urls import path

from printing import views

app_name = "printing"
ROUND = "<slug:slug>/round/<int:number>/"
PUBLIC_ROUND = "<slug:slug>/public/round/<int:number>/"
BY_TABLE = {"kind": "seating_by_table"}
ALPHABETICAL = {"kind": "seating_alphabetical"}

urlpatterns = [
    # The staff help, one PDF per role, for anyone (accounts.help).
    path("help/organiser.pdf", views.help_pdf, {"role": "organiser"}, name="help_organiser"),
    path("help/head-referee.pdf", views.help_pdf, {"role": "head-referee"}, name="help_head_referee"),
    path("help/referee.pdf", views.help_pdf, {"role": "referee"}, name="help_referee"),
    path("seasons/<slug:season>/standings.pdf", views.season_standings, name="season_standings"),
    path("seasons/<slug:season>/public.pdf", views.season_public, name="season_public"),
    path("<slug:slug>/", views.index, name="index"),
    # A round's batch PDFs: the file, or its progress page while a task makes it (printing.batches).
    path(ROUND + "seating.pdf", views.seating, BY_TABLE, name="seating_by_table"),
    path(ROUND + "where-do-i-sit.pdf", views.seating, ALPHABETICAL, name="seating_alphabetical"),
    path(ROUND + "score-sheets.pdf", views.score_sheets, name="score_sheets"),
    path(ROUND + "table/<int:table_number>/score-sheet.pdf", views.table_score_sheet, name="table_score_sheet"),
    path(ROUND + "table-cards.pdf", views.table_cards, name="table_cards"),
    path("<slug:slug>/blank-score-sheet.pdf", views.blank_score_sheet, name="blank_score_sheet"),
    path("<slug:slug>/standings.pdf", views.standings, name="standings"),
    path("<slug:slug>/diplomas.pdf", views.medal_diplomas, name="medal_diplomas"),
    path("<slug:slug>/certificates.pdf", views.participation_certificates, name="participation_certificates"),
    path("<slug:slug>/devices.pdf", views.device_sheet, name="device_sheet"),
    path("<slug:slug>/public/standings.pdf", views.public_standings_pdf, name="public_standings"),
    path(PUBLIC_ROUND + "seating.pdf", views.public_seating, BY_TABLE, name="public_seating_by_table"),
    path(PUBLIC_ROUND + "where-do-i-sit.pdf", views.public_seating, ALPHABETICAL, name="public_seating_alphabetical"),
]
