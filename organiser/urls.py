"""Organiser screens, mounted at /staff/. The URL names keep the namespace `tournament`, which
printed pages, templates and bookmarks have used since before this app existed."""

from django.urls import path

from organiser.views import (
    backups,
    dashboard,
    entries,
    exports,
    files,
    people,
    players,
    rounds,
    seasons,
    timetable,
    tournaments,
)

app_name = "organiser"
urlpatterns = [
    path("", tournaments.staff_home, name="home"),
    path("new/", tournaments.tournament_create, name="create"),
    path("seasons/", seasons.season_list, name="seasons"),
    path("seasons/new/", seasons.season_create, name="season_create"),
    path("seasons/<slug:season>/", seasons.season_detail, name="season"),
    path("seasons/<slug:season>/edit/", seasons.season_edit, name="season_edit"),
    path("seasons/<slug:season>/<str:file>", seasons.season_file, name="season_file"),
    path("<slug:slug>/", dashboard.dashboard, name="dashboard"),
    path("<slug:slug>/status/", dashboard.dashboard_status, name="dashboard_status"),
    path("<slug:slug>/settings/", tournaments.tournament_edit, name="settings"),
    path("<slug:slug>/players/", players.player_list, name="players"),
    path("<slug:slug>/entries/", entries.entries_page, name="entries"),
    path("<slug:slug>/entries/close/", entries.entries_close, name="entries_close"),
    path("<slug:slug>/entries/<str:name>", entries.entries_file, name="entries_file"),
    path("<slug:slug>/players/import/", players.player_import, name="player_import"),
    path("<slug:slug>/players/earlier/", people.add_people, name="add_people"),
    path("<slug:slug>/people/", people.people, name="people"),
    path("<slug:slug>/people/<int:person_id>/", people.person_detail, name="person"),
    path("<slug:slug>/people/<int:person_id>/merge/", people.person_merge, name="person_merge"),
    path("<slug:slug>/people/<int:person_id>/undo/", people.person_undo_merge, name="person_undo_merge"),
    path("<slug:slug>/players/check-in-everyone/", players.check_in_everyone, name="check_in_everyone"),
    path("<slug:slug>/players/<int:pk>/", players.player_detail, name="player"),
    path("<slug:slug>/players/<int:pk>/spelling/", players.player_spelling, name="player_spelling"),
    path("<slug:slug>/players/<int:pk>/<slug:action>/", players.player_action, name="player_action"),
    path("<slug:slug>/draw/", rounds.draw, name="draw"),
    path("<slug:slug>/final/", rounds.seat_final, name="final"),
    path("<slug:slug>/final/release/", tournaments.final_release, name="final_release"),
    path("<slug:slug>/rounds/<int:number>/", rounds.round_detail, name="round"),
    path("<slug:slug>/rounds/<int:number>/<slug:action>/", rounds.round_action, name="round_action"),
    path("<slug:slug>/timetable/", timetable.timetable, name="timetable"),
    path("<slug:slug>/exports/", exports.exports_page, name="exports"),
    path("<slug:slug>/exports/<str:name>", exports.export_file, name="export_file"),
    # A file made by a task (a round's batch PDFs, the results website): progress, then the file.
    path("<slug:slug>/files/<int:file_id>/", files.produced_file, name="produced_file"),
    path("<slug:slug>/files/<int:file_id>/download/", files.produced_file_download, name="produced_file_download"),
    path("new/restore/", backups.restore_new, name="restore_new"),
    path("new/restore/confirm/", backups.restore_confirm, name="restore_confirm"),
    path("new/restore/<str:token>/", backups.restore_progress, name="restore_progress"),
    path("<slug:slug>/backups/", backups.backups, name="backups"),
    path("<slug:slug>/backups/download/", backups.backup_download, name="backup_download"),
    path("<slug:slug>/backups/<str:name>/", backups.snapshot_download, name="snapshot_download"),
    path("<slug:slug>/backups/<str:name>/restore/", backups.snapshot_restore, name="snapshot_restore"),
]
