from django.urls import path

from public import views

app_name = "public"
urlpatterns = [
    path("t/<slug:slug>/standings.json", views.standings_json_view, name="standings_json"),
    path("t/<slug:slug>/timer", __import__("scoring.views").views.move_timer, name="timer"),
]
